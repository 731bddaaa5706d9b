#include "inspector.h"

#include "document/commands.h"
#include "model/units.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

namespace cl::ui {

Inspector::Inspector(doc::Document* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    title_ = new QLabel(this);
    QFont f = title_->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    title_->setFont(f);
    title_->setWordWrap(true);
    layout->addWidget(title_);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    body_ = new QWidget(scroll);
    form_ = new QFormLayout(body_);
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    scroll->setWidget(body_);
    layout->addWidget(scroll, 1);
    connect(doc_, &doc::Document::changed, this, [this] {
        if (!editing_)
            rebuild();
    });
    rebuild();
}

void Inspector::setSelection(const QStringList& ids) {
    selection_ = ids;
    rebuild();
}

void Inspector::setEvaluation(std::shared_ptr<const model::Evaluation> ev) {
    eval_ = std::move(ev);
    if (selection_.isEmpty())
        rebuild();
}

void Inspector::rebuild() {
    while (form_->rowCount() > 0)
        form_->removeRow(0);
    const auto& d = doc_->design();
    if (selection_.size() == 1) {
        const std::string id = selection_.front().toStdString();
        if (const auto* dev = d.device(id))
            return showDevice(*dev);
        if (const auto* w = d.workload(id))
            return showWorkload(*w);
    }
    showDesign();
}

void Inspector::showDesign() {
    const auto& d = doc_->design();
    title_->setText(d.name.empty() ? tr("Untitled design") : QString::fromStdString(d.name));
    auto* desc = new QLabel(QString::fromStdString(d.description));
    desc->setWordWrap(true);
    form_->addRow(desc);
    if (!eval_)
        return;
    const auto& t = eval_->topology;
    form_->addRow(tr("GPUs"), new QLabel(QString::number(t.gpus, 'f', 0)));
    form_->addRow(tr("Nodes"), new QLabel(QString::number(t.nodes, 'f', 0)));
    form_->addRow(tr("Switches"), new QLabel(QString::number(t.switches, 'f', 0)));
    form_->addRow(tr("GPU type"), new QLabel(QString::fromStdString(t.gpu)));
    form_->addRow(tr("Total HBM"),
                  new QLabel(QString::fromStdString(model::units::format_bytes(t.hbm_bytes))));
    form_->addRow(tr("Peak BF16 (dense)"),
                  new QLabel(QString::fromStdString(model::units::format_si(t.peak_bf16_flops, "FLOP/s"))));
    form_->addRow(tr("Max power"),
                  new QLabel(QString::fromStdString(model::units::format_si(t.power_w, "W"))));
    for (const auto& w : t.warnings) {
        auto* l = new QLabel(QStringLiteral("⚠ ") + QString::fromStdString(w));
        l->setWordWrap(true);
        form_->addRow(l);
    }
}

void Inspector::showDevice(const model::Device& dev) {
    title_->setText(QString::fromStdString(dev.name.empty() ? dev.id : dev.name));
    form_->addRow(tr("Id"), new QLabel(QString::fromStdString(dev.id)));
    form_->addRow(tr("Kind"), new QLabel(QString::fromStdString(std::string(model::device_kind_name(dev.kind)))));
    form_->addRow(tr("Catalog"), new QLabel(QString::fromStdString(dev.catalog)));
    const model::Provenance* prov = nullptr;
    const auto& cat = doc_->catalog();
    if (const auto* s = cat.system(dev.catalog); s && dev.kind == model::DeviceKind::system)
        prov = &s->provenance;
    else if (const auto* g = cat.gpu(dev.catalog); g && dev.kind == model::DeviceKind::gpu)
        prov = &g->provenance;
    else if (const auto* w = cat.switch_spec(dev.catalog); w && dev.kind == model::DeviceKind::switch_)
        prov = &w->provenance;
    if (prov) {
        auto* src = new QLabel(prov->source.empty() ? QStringLiteral("-")
                                                    : QString::fromStdString(prov->source.front()));
        src->setWordWrap(true);
        src->setTextInteractionFlags(Qt::TextSelectableByMouse);
        form_->addRow(tr("Source"), src);
        form_->addRow(tr("As of"), new QLabel(QString::fromStdString(prov->as_of) +
                                              (prov->user ? tr(" (your catalog)") : QString())));
        form_->addRow(tr("Confidence"), new QLabel(QString::fromStdString(prov->confidence)));
    }
    auto* name = new QLineEdit(QString::fromStdString(dev.name));
    connect(name, &QLineEdit::editingFinished, this, [this, name, id = dev.id] {
        const auto* cur = doc_->design().device(id);
        if (!cur || cur->name == name->text().toStdString())
            return;
        model::Device next = *cur;
        next.name = name->text().toStdString();
        editing_ = true;
        doc_->undoStack()->push(new doc::ChangeDeviceCommand(doc_, *cur, next, tr("Rename")));
        editing_ = false;
    });
    form_->addRow(tr("Name"), name);
    auto* count = new QSpinBox;
    count->setObjectName(QStringLiteral("deviceCount"));
    count->setRange(1, 1000000);
    count->setValue(static_cast<int>(std::min<std::int64_t>(dev.count, 1000000)));
    count->setKeyboardTracking(false);
    connect(count, &QSpinBox::valueChanged, this, [this, id = dev.id](int v) {
        const auto* cur = doc_->design().device(id);
        if (!cur || cur->count == v)
            return;
        model::Device next = *cur;
        next.count = v;
        editing_ = true;
        doc_->undoStack()->push(new doc::ChangeDeviceCommand(doc_, *cur, next, tr("Change count")));
        editing_ = false;
    });
    form_->addRow(tr("Replicas"), count);
}

void Inspector::showWorkload(const model::Workload& w) {
    title_->setText(QString::fromStdString(w.name.empty() ? w.id : w.name));
    auto* modelBox = new QComboBox;
    for (const auto& m : doc_->catalog().models())
        modelBox->addItem(QString::fromStdString(m.name), QString::fromStdString(m.id));
    modelBox->setCurrentIndex(modelBox->findData(QString::fromStdString(w.model)));
    auto change = [this, id = w.id](auto&& mutate, const QString& text) {
        const auto* cur = doc_->design().workload(id);
        if (!cur)
            return;
        model::Workload next = *cur;
        mutate(next);
        if (next == *cur)
            return;
        editing_ = true;
        doc_->undoStack()->push(new doc::ChangeWorkloadCommand(doc_, *cur, next, text));
        editing_ = false;
    };
    connect(modelBox, &QComboBox::currentIndexChanged, this, [=](int) {
        change([&](model::Workload& n) { n.model = modelBox->currentData().toString().toStdString(); },
               tr("Change model"));
    });
    form_->addRow(tr("Model"), modelBox);
    if (w.kind != model::WorkloadKind::training)
        return;
    auto intField = [&](const QString& label, const char* objectName, int value, int lo, int hi,
                        int model::TrainingSpec::*field) {
        auto* sb = new QSpinBox;
        sb->setObjectName(QString::fromLatin1(objectName));
        sb->setRange(lo, hi);
        sb->setValue(value);
        sb->setKeyboardTracking(false);
        connect(sb, &QSpinBox::valueChanged, this, [=](int v) {
            change([&](model::Workload& n) { n.training.*field = v; }, tr("Change %1").arg(label));
        });
        form_->addRow(label, sb);
    };
    intField(tr("Tensor parallel (TP)"), "tp", w.training.tp, 1, 1024, &model::TrainingSpec::tp);
    intField(tr("Pipeline parallel (PP)"), "pp", w.training.pp, 1, 1024, &model::TrainingSpec::pp);
    intField(tr("Context parallel (CP)"), "cp", w.training.cp, 1, 1024, &model::TrainingSpec::cp);
    intField(tr("Sequence length"), "seq", w.training.seq, 1, 1 << 22, &model::TrainingSpec::seq);
    intField(tr("Micro-batch"), "micro_batch", w.training.micro_batch, 0, 4096,
             &model::TrainingSpec::micro_batch);
    intField(tr("ZeRO stage"), "zero", w.training.zero, 0, 3, &model::TrainingSpec::zero);
    auto* rec = new QComboBox;
    rec->setObjectName(QStringLiteral("recompute"));
    rec->addItems({QStringLiteral("none"), QStringLiteral("selective"), QStringLiteral("full")});
    rec->setCurrentText(QString::fromStdString(w.training.recompute));
    connect(rec, &QComboBox::currentTextChanged, this, [=](const QString& t) {
        change([&](model::Workload& n) { n.training.recompute = t.toStdString(); },
               tr("Change recompute"));
    });
    form_->addRow(tr("Activation recompute"), rec);
    if (eval_)
        for (const auto& we : eval_->workloads)
            if (we.id == w.id) {
                auto* l = new QLabel(QString::fromStdString(we.has_memory ? we.memory.explanation : we.error));
                l->setWordWrap(true);
                form_->addRow(l);
            }
}

} // namespace cl::ui
