#include "layoutsearch.h"

#include "chartpage.h"
#include "document/document.h"
#include "model/evaluate.h"
#include "model/units.h"

#include <algorithm>
#include <cmath>

#include <QChart>
#include <QChartView>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QPushButton>
#include <QScatterSeries>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

namespace cl::ui {

LayoutSearchDialog::LayoutSearchDialog(doc::Document* doc, const std::string& workloadId,
                                       QWidget* parent)
    : QDialog(parent), doc_(doc), workload_(workloadId) {
    setWindowTitle(tr("Find a layout"));
    resize(860, 420);
    auto* v = new QVBoxLayout(this);
    status_ = new QLabel(tr("Searching layouts…"));
    status_->setTextFormat(Qt::PlainText); // may hold device ids from the file
    status_->setWordWrap(true);
    v->addWidget(status_);
    table_ = new QTableWidget(0, 11);
    table_->setHorizontalHeaderLabels({tr("TP"), tr("PP"), tr("DP"), tr("CP"), tr("VPP"),
                                       tr("Micro-batch"), tr("ZeRO"), tr("Recompute"),
                                       tr("Step (s)"), tr("MFU"), tr("Memory / GPU")});
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSortingEnabled(false); // enabled once filled (click a header to sort)
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The results table beside the memory-vs-throughput plot with the Pareto front.
    auto* h = new QHBoxLayout;
    h->addWidget(table_, 3);
    chart_ = new QChart;
    chart_->setTitle(tr("Memory vs throughput (Pareto front in red)"));
    chart_->setLocalizeNumbers(true); // thousands separators on the axes, as in charts.cpp
    chart_->setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
    chart_->legend()->setAlignment(Qt::AlignBottom);
    chart_->setMargins(QMargins(2, 2, 2, 2));
    auto* view = new QChartView(chart_);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumWidth(260);
    h->addWidget(view, 2);
    v->addLayout(h, 1);
    resize(1200, 480);
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
        const model::ModelArch* arch = w ? model::find_model(design, *catalog, w->model) : nullptr;
        if (!w || !we || !arch || !catalog->gpu(we->gpu) || we->gpus < 1) {
            *result = model::Error{"workload", "place the workload on GPUs and pick a model first"};
        } else {
            model::TrainingSpec base = w->training;
            if (base.global_batch <= 0)
                base.global_batch = static_cast<std::int64_t>(we->gpus);
            model::SearchOptions opt;
            opt.top_k = 20;
            opt.cancel = &cancel_;
            *result = model::search_layouts(*arch, base, static_cast<int>(we->gpus),
                                            *catalog->gpu(we->gpu), ev.fabric, {}, opt, {},
                                            ev.collective_assumptions);
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
    if (r.feasible == 0 && !r.blocked.empty()) // fits in memory, but cannot run: say why
        status_->setText(tr("%L1 layouts searched; none runs. Layouts that fit in memory %2")
                             .arg(r.evaluated)
                             .arg(QString::fromStdString(r.blocked)));
    else
        // "16,560 layouts searched in 12 ms; 2,157 fit" (helper-18: "16560 ... in 0.00 s")
        status_->setText(tr("%L1 layouts searched in %2; %L3 fit. Best first:")
                             .arg(r.evaluated)
                             .arg(r.seconds >= 1       ? tr("%1 s").arg(r.seconds, 0, 'f', 2)
                                  : r.seconds >= 0.001 ? tr("%1 ms").arg(r.seconds * 1e3, 0, 'f', 0)
                                                       : tr("under 1 ms"))
                             .arg(r.feasible));
    table_->setSortingEnabled(false);
    table_->setRowCount(static_cast<int>(r.results.size()));
    // Shown with a fixed number of decimals (helper-20: an MFU of 52.0 read "52" beside "53.5"),
    // sorted by value.
    struct NumberItem : QTableWidgetItem {
        double value = 0;
        bool operator<(const QTableWidgetItem& other) const override {
            const auto* n = dynamic_cast<const NumberItem*>(&other);
            return n ? value < n->value : QTableWidgetItem::operator<(other);
        }
    };
    auto num = [](double v, const QString& text, int decimals = 0) {
        auto* it = new NumberItem;
        it->value = v;
        it->setData(Qt::DisplayRole, QString::number(v, 'f', decimals));
        it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        it->setToolTip(text);
        return it;
    };
    for (int i = 0; i < static_cast<int>(r.results.size()); ++i) {
        const auto& s = r.results[static_cast<std::size_t>(i)];
        auto* first = num(s.tp, {});
        first->setData(Qt::UserRole, i); // the result this row shows, whatever the sort
        table_->setItem(i, 0, first);
        table_->setItem(i, 1, num(s.pp, {}));
        table_->setItem(i, 2, num(s.dp, {}));
        table_->setItem(i, 3, num(s.cp, {}));
        table_->setItem(i, 4, num(s.vpp, {}));
        table_->setItem(i, 5, num(s.micro_batch, {}));
        table_->setItem(i, 6, num(s.zero, {}));
        table_->setItem(i, 7,
                        new QTableWidgetItem(
                            s.recompute_layers > 0
                                ? tr("%1 (%2 layers)")
                                      .arg(QString::fromUtf8(model::to_string(s.recompute).data()))
                                      .arg(s.recompute_layers)
                                : QString::fromUtf8(model::to_string(s.recompute).data())));
        // Step time to 2 decimals, as the workload card and the Training tab show it.
        table_->setItem(i, 8, num(s.step_time_s, {}, 2));
        table_->setItem(i, 9, num(s.mfu * 100, tr("MFU %"), 1));
        table_->setItem(i, 10, num(s.memory_per_gpu_bytes / 1e9, tr("GB per GPU"), 1));
    }
    table_->setHorizontalHeaderItem(10, new QTableWidgetItem(tr("Memory / GPU (GB)")));
    table_->setHorizontalHeaderItem(9, new QTableWidgetItem(tr("MFU (%)")));
    // Sortable by clicking a header, but shown best first: no sort indicator until then.
    table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    table_->setSortingEnabled(true);
    // Every column whole (helper-16: at 1280 x 800 the last, "Memory / GPU", read "M…" behind
    // a sideways scroll): the table as wide as its columns, the plot takes what is left.
    table_->resizeColumnsToContents();
    // Room for the sort arrow a clicked header shows (helper-17: "Memory / GPU (GB" cut).
    const int arrow = table_->horizontalHeader()->fontMetrics().height();
    for (int c = 0; c < table_->columnCount(); ++c)
        table_->setColumnWidth(c, table_->columnWidth(c) + arrow);
    // Plus a margin: the style's scroll bar and viewport margins can be wider than their
    // size hints (session 31's screenshot: "Memory / GPU (GB" behind a sideways scroll again).
    table_->setMinimumWidth(table_->horizontalHeader()->length() +
                            table_->verticalHeader()->width() + 2 * table_->frameWidth() +
                            table_->verticalScrollBar()->sizeHint().width() + 2 * arrow);
    if (width() < minimumSizeHint().width())
        resize(minimumSizeHint().width(), height());
    // The plot: every result, and the memory-vs-throughput Pareto front.
    clearChart(chart_);
    auto* all = new QScatterSeries;
    all->setName(tr("layouts (top %1)").arg(r.results.size()));
    all->setMarkerSize(7);
    all->setColor(QColor(0x9c, 0xa3, 0xaf));
    for (const auto& s : r.results)
        all->append(s.memory_per_gpu_bytes / 1e9, s.tokens_per_s / 1e3);
    auto* front = new QLineSeries;
    front->setName(tr("Pareto front (%1)").arg(r.pareto.size()));
    QPen pen(QColor(0xdc, 0x26, 0x26));
    pen.setWidth(2);
    front->setPen(pen);
    front->setPointsVisible(true);
    auto pareto = r.pareto;
    std::sort(pareto.begin(), pareto.end(), [](const auto& a, const auto& b) {
        return a.memory_per_gpu_bytes < b.memory_per_gpu_bytes;
    });
    double xmax = 1, ymax = 1, xmin = 1e30, ymin = 1e30;
    for (const auto& s : pareto) {
        front->append(s.memory_per_gpu_bytes / 1e9, s.tokens_per_s / 1e3);
        xmax = std::max(xmax, s.memory_per_gpu_bytes / 1e9);
        ymax = std::max(ymax, s.tokens_per_s / 1e3);
    }
    for (const auto& s : r.results) {
        xmax = std::max(xmax, s.memory_per_gpu_bytes / 1e9);
        ymax = std::max(ymax, s.tokens_per_s / 1e3);
    }
    for (const auto& s : pareto) {
        xmin = std::min(xmin, s.memory_per_gpu_bytes / 1e9);
        ymin = std::min(ymin, s.tokens_per_s / 1e3);
    }
    for (const auto& s : r.results) {
        xmin = std::min(xmin, s.memory_per_gpu_bytes / 1e9);
        ymin = std::min(ymin, s.tokens_per_s / 1e3);
    }
    chart_->addSeries(all);
    chart_->addSeries(front);
    auto* ax = new QValueAxis;
    ax->setTitleText(tr("memory per GPU (GB)"));
    niceAxis(ax, std::max(0.0, xmin - (xmax - xmin) * 0.1 - 1), xmax + (xmax - xmin) * 0.1 + 1);
    auto* ay = new QValueAxis;
    ay->setTitleText(tr("k tokens/s"));
    niceAxis(ay, std::max(0.0, ymin - (ymax - ymin) * 0.1 - 0.1), ymax + (ymax - ymin) * 0.1 + 0.1);
    chart_->addAxis(ax, Qt::AlignBottom);
    chart_->addAxis(ay, Qt::AlignLeft);
    for (auto* se : {static_cast<QAbstractSeries*>(all), static_cast<QAbstractSeries*>(front)}) {
        se->attachAxis(ax);
        se->attachAxis(ay);
    }
    if (!r.results.empty()) {
        table_->selectRow(0);
        apply_->setEnabled(true);
    }
}

bool LayoutSearchDialog::applyRow(int row) {
    if (!result_->ok() || row < 0 || row >= static_cast<int>(result_->value().results.size()))
        return false;
    // The row may be sorted: the result index travels with the row.
    if (auto* it = table_->item(row, 0))
        row = it->data(Qt::UserRole).toInt();
    const auto& s = result_->value().results[static_cast<std::size_t>(row)];
    const model::Workload* cur = doc_->design().workload(workload_);
    if (!cur)
        return false;
    using model::Section;
    auto f = [](const char* key) { return model::find_field(Section::training, key); };
    std::vector<std::pair<const model::Field*, model::FieldValue>> values{
        {f("tp"), double(s.tp)},
        {f("pp"), double(s.pp)},
        {f("cp"), double(s.cp)},
        {f("ep"), double(s.ep)},
        {f("vpp"), double(s.vpp)},
        {f("micro_batch"), double(s.micro_batch)},
        {f("zero"), double(s.zero)},
        {f("recompute"), std::string(model::to_string(s.recompute))},
        // With the recompute: a layout without full recompute clears a partial one's layers.
        {f("recompute_layers"), double(s.recompute_layers)},
        {f("sequence_parallel"), s.tp > 1},
        {f("schedule"), std::string(model::to_string(s.vpp > 1 ? model::Schedule::interleaved
                                                               : model::Schedule::one_f_one_b))}};
    // The workload's recompute modules belong to selective recompute (the search ran them with
    // it only): a layout without it clears them, in the same step.
    if (s.recompute != model::Recompute::selective)
        for (const char* key :
             {"recompute_layernorm", "recompute_moe_act", "recompute_mla_up_proj", "recompute_mlp"})
            values.emplace_back(f(key), false);
    return doc_->setFields(QString::fromStdString(workload_), values, tr("Apply searched layout"))
        .isEmpty();
}

} // namespace cl::ui
