#include "layoutsearch.h"

#include "document/commands.h"
#include "model/evaluate.h"
#include "model/units.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace cl::ui {

LayoutSearchDialog::LayoutSearchDialog(doc::Document* doc, const std::string& workloadId,
                                       QWidget* parent)
    : QDialog(parent), doc_(doc), workload_(workloadId) {
    setWindowTitle(tr("Find a layout"));
    resize(860, 420);
    auto* v = new QVBoxLayout(this);
    status_ = new QLabel(tr("Searching layouts…"));
    v->addWidget(status_);
    table_ = new QTableWidget(0, 11);
    table_->setHorizontalHeaderLabels({tr("TP"), tr("PP"), tr("DP"), tr("CP"), tr("VPP"),
                                       tr("Micro-batch"), tr("ZeRO"), tr("Recompute"),
                                       tr("Step (s)"), tr("MFU"), tr("Memory / GPU")});
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSortingEnabled(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    v->addWidget(table_, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    apply_ = buttons->addButton(tr("Apply layout"), QDialogButtonBox::AcceptRole);
    apply_->setEnabled(false);
    v->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(apply_, &QPushButton::clicked, this, [this] {
        const auto rows = table_->selectionModel()->selectedRows();
        if (applyRow(rows.isEmpty() ? 0 : rows.front().row()))
            accept();
    });
    connect(this, &LayoutSearchDialog::searchFinished, this, &LayoutSearchDialog::showResults,
            Qt::QueuedConnection);

    // Everything the worker needs is copied: the search is re-entrant and shares no state.
    const model::Design design = doc_->design();
    auto catalog = doc_->catalog_ptr();
    result_ = std::make_shared<model::Result<model::SearchResult>>(model::Error{"", "not run"});
    auto result = result_;
    worker_ = std::thread([this, design, catalog, result, id = workload_] {
        const model::Evaluation ev = model::evaluate(design, *catalog);
        const model::Workload* w = design.workload(id);
        const model::WorkloadEvaluation* we = nullptr;
        for (const auto& x : ev.workloads)
            if (x.id == id)
                we = &x;
        if (!w || !we || !catalog->model(w->model) || !catalog->gpu(we->gpu) || we->gpus < 1) {
            *result = model::Error{"workload", "place the workload on GPUs and pick a model first"};
        } else {
            model::TrainingSpec base = w->training;
            if (base.global_batch <= 0)
                base.global_batch = static_cast<std::int64_t>(we->gpus);
            model::SearchOptions opt;
            opt.top_k = 20;
            opt.cancel = &cancel_;
            *result = model::search_layouts(*catalog->model(w->model), base,
                                            static_cast<int>(we->gpus), *catalog->gpu(we->gpu),
                                            ev.fabric, {}, opt, {}, ev.collective_assumptions);
        }
        emit searchFinished();
    });
}

LayoutSearchDialog::~LayoutSearchDialog() {
    cancel_ = true;
    if (worker_.joinable())
        worker_.join();
}

void LayoutSearchDialog::waitForResults() {
    if (worker_.joinable())
        worker_.join();
    showResults();
}

void LayoutSearchDialog::showResults() {
    if (!result_->ok()) {
        status_->setText(QString::fromStdString(result_->error_text()));
        return;
    }
    const auto& r = result_->value();
    status_->setText(tr("%1 layouts searched in %2 s; %3 fit. Best first:")
                         .arg(r.evaluated)
                         .arg(r.seconds, 0, 'f', 2)
                         .arg(r.feasible));
    table_->setRowCount(static_cast<int>(r.results.size()));
    for (int i = 0; i < static_cast<int>(r.results.size()); ++i) {
        const auto& s = r.results[static_cast<std::size_t>(i)];
        const QStringList cells = {
            QString::number(s.tp),
            QString::number(s.pp),
            QString::number(s.dp),
            QString::number(s.cp),
            QString::number(s.vpp),
            QString::number(s.micro_batch),
            QString::number(s.zero),
            QString::fromStdString(s.recompute),
            QString::number(s.step_time_s, 'f', 3),
            QString::number(s.mfu * 100, 'f', 1) + QLatin1Char('%'),
            QString::fromStdString(model::units::format_bytes(s.memory_per_gpu_bytes))};
        for (int c = 0; c < cells.size(); ++c)
            table_->setItem(i, c, new QTableWidgetItem(cells[c]));
    }
    if (!r.results.empty()) {
        table_->selectRow(0);
        apply_->setEnabled(true);
    }
}

bool LayoutSearchDialog::applyRow(int row) {
    if (!result_->ok() || row < 0 || row >= static_cast<int>(result_->value().results.size()))
        return false;
    const auto& s = result_->value().results[static_cast<std::size_t>(row)];
    const model::Workload* cur = doc_->design().workload(workload_);
    if (!cur)
        return false;
    model::Workload next = *cur;
    next.training.tp = s.tp;
    next.training.pp = s.pp;
    next.training.cp = s.cp;
    next.training.ep = s.ep;
    next.training.vpp = s.vpp;
    next.training.micro_batch = s.micro_batch;
    next.training.zero = s.zero;
    next.training.recompute = s.recompute;
    next.training.sequence_parallel = s.tp > 1;
    next.training.schedule = s.vpp > 1 ? "interleaved" : "1f1b";
    doc_->undoStack()->push(
        new doc::ChangeWorkloadCommand(doc_, *cur, next, tr("Apply searched layout")));
    return true;
}

} // namespace cl::ui
