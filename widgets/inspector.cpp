#include "inspector.h"

#include "document/commands.h"
#include "layoutsearch.h"
#include "model/edit.h"
#include "model/units.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include <functional>

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
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    body_ = new QWidget(scroll);
    form_ = new QFormLayout(body_);
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form_->setRowWrapPolicy(QFormLayout::WrapLongRows); // narrow dock: field under its label
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
    else
        updateVerdict();
}

void Inspector::rebuild() {
    verdict_ = nullptr;
    while (form_->rowCount() > 0)
        form_->removeRow(0);
    const auto& d = doc_->design();
    if (selection_.size() == 1) {
        const std::string id = selection_.front().toStdString();
        if (const auto* dev = d.device(id))
            return showDevice(*dev);
        if (const auto* w = d.workload(id))
            return showWorkload(*w);
        if (const auto* l = d.link(id))
            return showLink(*l);
    }
    if (selection_.size() > 1)
        return showMany();
    showDesign();
}

void Inspector::showMany() {
    const auto& d = doc_->design();
    std::vector<std::string> devs;
    std::int64_t common = -1;
    bool same = true;
    for (const auto& id : selection_)
        if (const auto* dev = d.device(id.toStdString())) {
            devs.push_back(dev->id);
            if (common < 0)
                common = dev->count;
            same = same && dev->count == common;
        }
    title_->setText(tr("%1 items selected").arg(selection_.size()));
    if (devs.empty()) {
        form_->addRow(new QLabel(tr("Select devices to edit their counts together.")));
        return;
    }
    // One edit for all selected devices: one undo step.
    auto* count = new QSpinBox;
    count->setObjectName(QStringLiteral("deviceCount"));
    count->setRange(1, 1000000);
    count->setValue(static_cast<int>(std::max<std::int64_t>(1, common)));
    count->setSpecialValueText(QString());
    count->setKeyboardTracking(false);
    if (!same)
        count->setToolTip(tr("The selected devices have different counts; a value sets them all."));
    connect(count, &QSpinBox::valueChanged, this, [this, devs](int v) {
        model::Design next = doc_->design();
        for (auto& dev : next.devices)
            if (std::find(devs.begin(), devs.end(), dev.id) != devs.end())
                dev.count = v;
        editing_ = true;
        doc_->undoStack()->push(new doc::EditDesignCommand(
            doc_, std::move(next), tr("Change count of %1 devices").arg(devs.size())));
        editing_ = false;
    });
    form_->addRow(tr("Count (all %1 devices)").arg(devs.size()), count);
    if (!same)
        form_->addRow(new QLabel(tr("(counts differ: %1 shown)").arg(common)));
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
    form_->addRow(
        tr("Peak BF16 (dense)"),
        new QLabel(QString::fromStdString(model::units::format_si(t.peak_bf16_flops, "FLOP/s"))));
    form_->addRow(tr("Max power"),
                  new QLabel(QString::fromStdString(model::units::format_si(t.power_w, "W"))));
    for (const auto& w : t.warnings) {
        auto* l = new QLabel(QStringLiteral("⚠ ") + QString::fromStdString(w));
        l->setWordWrap(true);
        form_->addRow(l);
    }
    showSettings();
}

void Inspector::showSettings() {
    const auto& d = doc_->design();
    // Each edit is one ChangeSettingsCommand (undoable); the fields come from the model's
    // tables (design.h economics_fields / reliability_fields), sources in docs/cost.md.
    auto push = [this](const model::Economics& e, const model::ReliabilityInputs& r,
                       const QString& text) {
        const auto& cur = doc_->design();
        if (e == cur.economics && r == cur.reliability)
            return;
        editing_ = true;
        doc_->undoStack()->push(new doc::ChangeSettingsCommand(doc_, e, r, text));
        editing_ = false;
    };
    auto header = [this](const QString& text) {
        auto* l = new QLabel(QStringLiteral("<b>%1</b>").arg(text));
        form_->addRow(l);
    };
    auto spin = [this](const model::NumericField& f, double value,
                       std::function<void(double)> set) {
        // Bandwidths are edited in GB/s; everything else in the field's own unit.
        const bool bw = std::string(f.unit) == "B/s";
        const double scale = bw ? 1e9 : 1.0;
        auto* sb = new QDoubleSpinBox;
        sb->setObjectName(QString::fromLatin1(f.key));
        sb->setRange(f.min / scale, f.max / scale);
        sb->setDecimals(f.max <= 10 ? 3 : 2);
        sb->setSuffix(QLatin1Char(' ') +
                      (bw ? QStringLiteral("GB/s") : QString::fromLatin1(f.unit)));
        sb->setValue(value / scale);
        sb->setKeyboardTracking(false);
        sb->setToolTip(
            tr("%1 (docs/cost.md, docs/reliability.md)").arg(QString::fromLatin1(f.label)));
        connect(sb, &QDoubleSpinBox::valueChanged, this, [=, this](double v) { set(v * scale); });
        form_->addRow(QString::fromLatin1(f.label), sb);
    };
    if (eval_ && eval_->tco) {
        // Bill of materials derived from the drawing (docs/cost.md).
        const auto& t = *eval_->tco;
        const auto& inv = t.inventory;
        auto usd = [](double v) { return QStringLiteral("$%L1").arg(v, 0, 'f', 0); };
        auto wrapped = [](const QString& text) {
            auto* l = new QLabel(text);
            l->setWordWrap(true);
            return l;
        };
        header(tr("Bill of materials"));
        form_->addRow(
            tr("Servers"),
            wrapped(
                tr("%1 (%2)").arg(inv.servers, 0, 'f', 0).arg(usd(t.onprem_breakdown.servers))));
        form_->addRow(
            tr("Switches"),
            wrapped(tr("%1 (%2)").arg(inv.switches, 0, 'f', 0).arg(usd(inv.switch_capex_usd))));
        form_->addRow(
            tr("Cables + optics"),
            wrapped(tr("%1 (%2)").arg(inv.cables, 0, 'f', 0).arg(usd(inv.cable_capex_usd))));
        form_->addRow(tr("NICs"), wrapped(tr("%1 (in server price)").arg(inv.nics, 0, 'f', 0)));
        form_->addRow(tr("Storage"), wrapped(usd(t.onprem_breakdown.storage)));
        form_->addRow(tr("Power"), wrapped(tr("%1 kW IT nameplate, %2 kW facility avg.")
                                               .arg(t.it_power_peak_kw, 0, 'f', 0)
                                               .arg(t.power_kw, 0, 'f', 0)));
        form_->addRow(tr("Racks"), wrapped(tr("%1 (%2 servers each)")
                                               .arg(t.racks, 0, 'f', 0)
                                               .arg(t.servers_per_rack, 0, 'f', 0)));
        for (const auto& n : inv.notes) {
            auto* l = new QLabel(QStringLiteral("ⓘ ") + QString::fromStdString(n));
            l->setWordWrap(true);
            form_->addRow(l);
        }
    }
    header(tr("Cost"));
    auto* offer = new QComboBox;
    offer->setObjectName(QStringLiteral("cloud_offer"));
    offer->addItem(tr("cheapest for the GPU"), QString());
    for (const auto& o : doc_->catalog().cloud_offers())
        offer->addItem(QString::fromStdString(o.id), QString::fromStdString(o.id));
    offer->setCurrentIndex(
        std::max(0, offer->findData(QString::fromStdString(d.economics.cloud_offer))));
    connect(offer, &QComboBox::currentIndexChanged, this, [=, this](int) {
        model::Economics e = doc_->design().economics;
        e.cloud_offer = offer->currentData().toString().toStdString();
        push(e, doc_->design().reliability, tr("Change cloud offer"));
    });
    form_->addRow(tr("Cloud offer"), offer);
    auto* commit = new QComboBox;
    commit->setObjectName(QStringLiteral("commitment"));
    commit->addItems({QStringLiteral("on-demand"), QStringLiteral("1y"), QStringLiteral("3y"),
                      QStringLiteral("spot")});
    commit->setCurrentText(QString::fromStdString(d.economics.commitment));
    connect(commit, &QComboBox::currentTextChanged, this, [=, this](const QString& v) {
        model::Economics e = doc_->design().economics;
        e.commitment = v.toStdString();
        push(e, doc_->design().reliability, tr("Change commitment"));
    });
    form_->addRow(tr("Commitment"), commit);
    auto* months = new QSpinBox;
    months->setObjectName(QStringLiteral("months"));
    months->setRange(1, 1200);
    months->setSuffix(tr(" months"));
    months->setValue(d.economics.months);
    months->setKeyboardTracking(false);
    connect(months, &QSpinBox::valueChanged, this, [=, this](int v) {
        model::Economics e = doc_->design().economics;
        e.months = v;
        push(e, doc_->design().reliability, tr("Change horizon"));
    });
    form_->addRow(tr("Horizon"), months);
    for (const auto& f : model::economics_fields())
        spin(f, d.economics.*f.member, [=, this, m = f.member](double v) {
            model::Economics e = doc_->design().economics;
            e.*m = v;
            push(e, doc_->design().reliability, tr("Change %1").arg(QString::fromLatin1(f.label)));
        });
    header(tr("Reliability"));
    auto* async = new QCheckBox(tr("Asynchronous checkpoints"));
    async->setObjectName(QStringLiteral("async_checkpoint"));
    async->setChecked(d.reliability.async_checkpoint);
    connect(async, &QCheckBox::toggled, this, [=, this](bool on) {
        model::ReliabilityInputs r = doc_->design().reliability;
        r.async_checkpoint = on;
        push(doc_->design().economics, r, tr("Change checkpointing"));
    });
    form_->addRow(async);
    for (const auto& f : model::reliability_fields())
        spin(f, d.reliability.*f.member, [=, this, m = f.member](double v) {
            model::ReliabilityInputs r = doc_->design().reliability;
            r.*m = v;
            push(doc_->design().economics, r, tr("Change %1").arg(QString::fromLatin1(f.label)));
        });
}

void Inspector::showDevice(const model::Device& dev) {
    title_->setText(QString::fromStdString(dev.name.empty() ? dev.id : dev.name));
    form_->addRow(tr("Id"), new QLabel(QString::fromStdString(dev.id)));
    form_->addRow(tr("Kind"), new QLabel(QString::fromStdString(
                                  std::string(model::device_kind_name(dev.kind)))));
    form_->addRow(tr("Catalog"), new QLabel(QString::fromStdString(dev.catalog)));
    const model::Provenance* prov = nullptr;
    const auto& cat = doc_->catalog();
    if (const auto* s = cat.system(dev.catalog); s && dev.kind == model::DeviceKind::system)
        prov = &s->provenance;
    else if (const auto* g = cat.gpu(dev.catalog); g && dev.kind == model::DeviceKind::gpu)
        prov = &g->provenance;
    else if (const auto* w = cat.switch_spec(dev.catalog);
             w && dev.kind == model::DeviceKind::switch_)
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
    auto changeDevice = [this, id = dev.id](auto&& mutate, const QString& text) {
        const auto* cur = doc_->design().device(id);
        if (!cur)
            return;
        model::Device next = *cur;
        mutate(next);
        if (next == *cur)
            return;
        editing_ = true;
        doc_->undoStack()->push(new doc::ChangeDeviceCommand(doc_, *cur, next, text));
        editing_ = false;
    };
    // The hardware type: another catalog entry of the same kind.
    if (dev.kind == model::DeviceKind::system || dev.kind == model::DeviceKind::switch_ ||
        dev.kind == model::DeviceKind::gpu) {
        auto* type = new QComboBox;
        type->setObjectName(QStringLiteral("deviceType"));
        if (dev.kind == model::DeviceKind::system)
            for (const auto& x : cat.systems())
                type->addItem(QString::fromStdString(x.name), QString::fromStdString(x.id));
        else if (dev.kind == model::DeviceKind::switch_)
            for (const auto& x : cat.switches())
                type->addItem(QString::fromStdString(x.name), QString::fromStdString(x.id));
        else
            for (const auto& x : cat.gpus())
                type->addItem(QString::fromStdString(x.name), QString::fromStdString(x.id));
        type->setCurrentIndex(type->findData(QString::fromStdString(dev.catalog)));
        connect(type, &QComboBox::currentIndexChanged, this, [=](int) {
            changeDevice(
                [&](model::Device& n) { n.catalog = type->currentData().toString().toStdString(); },
                tr("Change type"));
        });
        form_->addRow(tr("Type"), type);
    }
    if (dev.kind == model::DeviceKind::storage) {
        auto* bw = new QDoubleSpinBox;
        bw->setObjectName(QStringLiteral("storageBandwidth"));
        bw->setRange(0.001, 1e7);
        bw->setDecimals(1);
        bw->setSuffix(tr(" GB/s"));
        bw->setValue(dev.storage_bandwidth_Bps / 1e9);
        bw->setKeyboardTracking(false);
        connect(bw, &QDoubleSpinBox::valueChanged, this, [=](double v) {
            changeDevice([&](model::Device& n) { n.storage_bandwidth_Bps = v * 1e9; },
                         tr("Change storage bandwidth"));
        });
        form_->addRow(tr("Aggregate bandwidth"), bw);
        auto* cap = new QDoubleSpinBox;
        cap->setObjectName(QStringLiteral("storageCapacity"));
        cap->setRange(0, 1e6);
        cap->setDecimals(1);
        cap->setSuffix(tr(" TB"));
        cap->setValue(dev.storage_capacity_bytes / 1e12);
        cap->setKeyboardTracking(false);
        connect(cap, &QDoubleSpinBox::valueChanged, this, [=](double v) {
            changeDevice([&](model::Device& n) { n.storage_capacity_bytes = v * 1e12; },
                         tr("Change storage capacity"));
        });
        form_->addRow(tr("Capacity"), cap);
    }
}

void Inspector::showLink(const model::Link& l) {
    title_->setText(tr("Link %1").arg(QString::fromStdString(l.id)));
    form_->addRow(tr("From"), new QLabel(QString::fromStdString(l.from)));
    form_->addRow(tr("To"), new QLabel(QString::fromStdString(l.to)));
    auto change = [this, id = l.id](auto&& mutate, const QString& text) {
        const auto* cur = doc_->design().link(id);
        if (!cur)
            return;
        model::Link next = *cur;
        mutate(next);
        if (next == *cur)
            return;
        // A new type must still be cable-able between the two ends.
        model::Design probe = doc_->design();
        std::erase_if(probe.links, [&](const model::Link& x) { return x.id == next.id; });
        if (auto ok = model::propose_link(probe, doc_->catalog(), next.from, next.to, next.type);
            !ok) {
            if (auto* label = findChild<QLabel*>(QStringLiteral("linkError")))
                label->setText(QString::fromStdString(ok.errors().front().what));
            return;
        }
        editing_ = true;
        doc_->undoStack()->push(new doc::ChangeLinkCommand(doc_, *cur, next, text));
        editing_ = false;
    };
    auto* type = new QComboBox;
    type->setObjectName(QStringLiteral("linkType"));
    for (const auto& x : doc_->catalog().links())
        type->addItem(QStringLiteral("%1 · %2")
                          .arg(QString::fromStdString(x.name))
                          .arg(QString::fromStdString(
                              model::units::format_si(x.bandwidth_unidir_Bps, "B/s", 0))),
                      QString::fromStdString(x.id));
    type->setCurrentIndex(type->findData(QString::fromStdString(l.type)));
    connect(type, &QComboBox::currentIndexChanged, this, [=](int) {
        change([&](model::Link& n) { n.type = type->currentData().toString().toStdString(); },
               tr("Change link type"));
    });
    form_->addRow(tr("Type and speed"), type);
    auto* count = new QSpinBox;
    count->setObjectName(QStringLiteral("linkCount"));
    count->setRange(1, 1000000);
    count->setValue(static_cast<int>(std::min<std::int64_t>(l.count, 1000000)));
    count->setKeyboardTracking(false);
    connect(count, &QSpinBox::valueChanged, this,
            [=](int v) { change([&](model::Link& n) { n.count = v; }, tr("Change link count")); });
    form_->addRow(tr("Cables per replica"), count);
    auto* err = new QLabel;
    err->setObjectName(QStringLiteral("linkError"));
    err->setWordWrap(true);
    err->setStyleSheet(QStringLiteral("color: #dc2626"));
    form_->addRow(err);
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
        change(
            [&](model::Workload& n) { n.model = modelBox->currentData().toString().toStdString(); },
            tr("Change model"));
    });
    auto* how = new QPushButton(tr("How is this computed?"));
    how->setObjectName(QStringLiteral("explainButton"));
    connect(how, &QPushButton::clicked, this, [this, id = w.id, kind = w.kind] {
        emit explainRequested(QString::fromStdString(
            id + (kind == model::WorkloadKind::training ? ".mfu" : ".tpot")));
    });
    form_->addRow(how);
    form_->addRow(tr("Model"), modelBox);
    // Generic editors: each change is one ChangeWorkloadCommand (STYLE.md practice 5).
    auto intField = [&](const QString& label, const QString& name, int value, int lo, int hi,
                        std::function<void(model::Workload&, int)> set) {
        auto* sb = new QSpinBox;
        sb->setObjectName(name);
        sb->setRange(lo, hi);
        sb->setValue(value);
        sb->setKeyboardTracking(false);
        connect(sb, &QSpinBox::valueChanged, this, [=](int v) {
            change([&](model::Workload& n) { set(n, v); }, tr("Change %1").arg(label));
        });
        form_->addRow(label, sb);
    };
    auto choiceField = [&](const QString& label, const QString& name, const std::string& value,
                           const QStringList& choices,
                           std::function<void(model::Workload&, const std::string&)> set) {
        auto* cb = new QComboBox;
        cb->setObjectName(name);
        cb->addItems(choices);
        cb->setCurrentText(QString::fromStdString(value));
        connect(cb, &QComboBox::currentTextChanged, this, [=](const QString& v) {
            change([&](model::Workload& n) { set(n, v.toStdString()); },
                   tr("Change %1").arg(label));
        });
        form_->addRow(label, cb);
    };
    auto numberField = [&](const QString& label, const QString& name, double value, double lo,
                           double hi, int decimals, const QString& suffix,
                           std::function<void(model::Workload&, double)> set) {
        auto* sb = new QDoubleSpinBox;
        sb->setObjectName(name);
        sb->setRange(lo, hi);
        sb->setDecimals(decimals);
        sb->setSuffix(suffix);
        sb->setValue(value);
        sb->setKeyboardTracking(false);
        connect(sb, &QDoubleSpinBox::valueChanged, this, [=](double v) {
            change([&](model::Workload& n) { set(n, v); }, tr("Change %1").arg(label));
        });
        form_->addRow(label, sb);
    };
    using W = model::Workload;
    if (w.kind == model::WorkloadKind::training) {
        const auto& t = w.training;
        intField(tr("Tensor parallel (TP)"), QStringLiteral("tp"), t.tp, 1, 1024,
                 [](W& n, int v) { n.training.tp = v; });
        intField(tr("Pipeline parallel (PP)"), QStringLiteral("pp"), t.pp, 1, 1024,
                 [](W& n, int v) { n.training.pp = v; });
        intField(tr("Virtual stages (VPP)"), QStringLiteral("vpp"), t.vpp, 1, 64,
                 [](W& n, int v) { n.training.vpp = v; });
        intField(tr("Context parallel (CP)"), QStringLiteral("cp"), t.cp, 1, 1024,
                 [](W& n, int v) { n.training.cp = v; });
        intField(tr("Expert parallel (EP)"), QStringLiteral("ep"), t.ep, 1, 1024,
                 [](W& n, int v) { n.training.ep = v; });
        intField(tr("Global batch (sequences)"), QStringLiteral("global_batch"),
                 static_cast<int>(std::min<std::int64_t>(t.global_batch, 1 << 30)), 0, 1 << 30,
                 [](W& n, int v) { n.training.global_batch = v; });
        intField(tr("Micro-batch (0 = auto)"), QStringLiteral("micro_batch"), t.micro_batch, 0,
                 4096, [](W& n, int v) { n.training.micro_batch = v; });
        intField(tr("Sequence length"), QStringLiteral("seq"), t.seq, 1, 1 << 22,
                 [](W& n, int v) { n.training.seq = v; });
        choiceField(tr("Precision"), QStringLiteral("dtype"), t.dtype,
                    {QStringLiteral("bf16"), QStringLiteral("fp16"), QStringLiteral("fp8"),
                     QStringLiteral("fp32")},
                    [](W& n, const std::string& v) { n.training.dtype = v; });
        choiceField(tr("Optimizer"), QStringLiteral("optimizer"), t.optimizer,
                    {QStringLiteral("adamw"), QStringLiteral("adamw-8bit"), QStringLiteral("sgd")},
                    [](W& n, const std::string& v) { n.training.optimizer = v; });
        intField(tr("ZeRO stage"), QStringLiteral("zero"), t.zero, 0, 3,
                 [](W& n, int v) { n.training.zero = v; });
        choiceField(tr("Activation recompute"), QStringLiteral("recompute"), t.recompute,
                    {QStringLiteral("none"), QStringLiteral("selective"), QStringLiteral("full")},
                    [](W& n, const std::string& v) { n.training.recompute = v; });
        choiceField(tr("Pipeline schedule"), QStringLiteral("schedule"), t.schedule,
                    {QStringLiteral("1f1b"), QStringLiteral("interleaved"), QStringLiteral("gpipe"),
                     QStringLiteral("zero-bubble")},
                    [](W& n, const std::string& v) { n.training.schedule = v; });
        choiceField(tr("Fine-tuning"), QStringLiteral("finetune"), t.finetune,
                    {QStringLiteral("full"), QStringLiteral("lora"), QStringLiteral("qlora")},
                    [](W& n, const std::string& v) { n.training.finetune = v; });
        intField(tr("LoRA rank"), QStringLiteral("lora_rank"), t.lora_rank, 1, 4096,
                 [](W& n, int v) { n.training.lora_rank = v; });
        choiceField(tr("CPU offload"), QStringLiteral("offload"), t.offload,
                    {QStringLiteral("none"), QStringLiteral("optimizer")},
                    [](W& n, const std::string& v) { n.training.offload = v; });
        auto* spBox = new QCheckBox(tr("Sequence parallelism"));
        spBox->setObjectName(QStringLiteral("sequence_parallel"));
        spBox->setChecked(t.sequence_parallel);
        connect(spBox, &QCheckBox::toggled, this, [=](bool on) {
            change([&](W& n) { n.training.sequence_parallel = on; },
                   tr("Change sequence parallelism"));
        });
        form_->addRow(QString(), spBox);
        numberField(tr("Tokens to train"), QStringLiteral("tokens"), t.tokens / 1e9, 0, 1e9, 1,
                    tr(" B"), [](W& n, double v) { n.training.tokens = v * 1e9; });
    } else {
        const auto& i = w.inference;
        intField(tr("Tensor parallel (TP)"), QStringLiteral("tp"), i.tp, 1, 1024,
                 [](W& n, int v) { n.inference.tp = v; });
        intField(tr("Pipeline parallel (PP)"), QStringLiteral("pp"), i.pp, 1, 1024,
                 [](W& n, int v) { n.inference.pp = v; });
        intField(tr("Replicas"), QStringLiteral("replicas"), i.replicas, 1, 1 << 20,
                 [](W& n, int v) { n.inference.replicas = v; });
        intField(tr("Batch (0 = auto)"), QStringLiteral("batch"), i.batch, 0, 1 << 20,
                 [](W& n, int v) { n.inference.batch = v; });
        intField(tr("Input tokens"), QStringLiteral("input_len"), i.input_len, 1, 1 << 22,
                 [](W& n, int v) { n.inference.input_len = v; });
        intField(tr("Output tokens"), QStringLiteral("output_len"), i.output_len, 1, 1 << 22,
                 [](W& n, int v) { n.inference.output_len = v; });
        choiceField(tr("Weights"), QStringLiteral("weights_dtype"), i.weights_dtype,
                    {QStringLiteral("bf16"), QStringLiteral("fp8"), QStringLiteral("int8"),
                     QStringLiteral("int4"), QStringLiteral("fp4")},
                    [](W& n, const std::string& v) { n.inference.weights_dtype = v; });
        choiceField(tr("KV cache"), QStringLiteral("kv_dtype"), i.kv_dtype,
                    {QStringLiteral("bf16"), QStringLiteral("fp8"), QStringLiteral("int8"),
                     QStringLiteral("fp4")},
                    [](W& n, const std::string& v) { n.inference.kv_dtype = v; });
        choiceField(tr("Batching"), QStringLiteral("batching"), i.batching,
                    {QStringLiteral("static"), QStringLiteral("continuous"),
                     QStringLiteral("chunked"), QStringLiteral("disaggregated")},
                    [](W& n, const std::string& v) { n.inference.batching = v; });
        choiceField(tr("Mode"), QStringLiteral("mode"), i.mode,
                    {QStringLiteral("offline"), QStringLiteral("online")},
                    [](W& n, const std::string& v) { n.inference.mode = v; });
        numberField(tr("Request rate"), QStringLiteral("request_rate"), i.request_rate, 0, 1e7, 1,
                    tr(" /s"), [](W& n, double v) { n.inference.request_rate = v; });
        numberField(tr("TTFT SLO"), QStringLiteral("ttft_slo"), i.ttft_slo_s * 1e3, 0, 1e7, 0,
                    tr(" ms"), [](W& n, double v) { n.inference.ttft_slo_s = v / 1e3; });
        numberField(tr("TPOT SLO"), QStringLiteral("tpot_slo"), i.tpot_slo_s * 1e3, 0, 1e7, 1,
                    tr(" ms"), [](W& n, double v) { n.inference.tpot_slo_s = v / 1e3; });
        // Speculative decoding: a draft model from the zoo, gamma and alpha (Leviathan 2023).
        QStringList drafts{QStringLiteral("none")};
        for (const auto& m : doc_->catalog().models())
            drafts << QString::fromStdString(m.id);
        choiceField(tr("Speculative draft"), QStringLiteral("speculative_draft"),
                    i.speculative_draft.empty() ? std::string("none") : i.speculative_draft, drafts,
                    [](W& n, const std::string& v) {
                        n.inference.speculative_draft = v == "none" ? std::string() : v;
                    });
        intField(tr("Draft tokens per step"), QStringLiteral("speculative_k"), i.speculative_k, 1,
                 64, [](W& n, int v) { n.inference.speculative_k = v; });
        numberField(tr("Acceptance rate"), QStringLiteral("acceptance"), i.acceptance, 0, 1, 2,
                    QString(), [](W& n, double v) { n.inference.acceptance = v; });
    }
    verdict_ = new QLabel;
    verdict_->setObjectName(QStringLiteral("verdict"));
    verdict_->setWordWrap(true);
    form_->addRow(verdict_);
    updateVerdict();
}

void Inspector::updateVerdict() {
    if (!verdict_ || selection_.size() != 1 || !eval_)
        return;
    for (const auto& we : eval_->workloads)
        if (QString::fromStdString(we.id) == selection_.front()) {
            const bool ok = we.has_memory && we.memory.fits;
            verdict_->setText(
                QString::fromStdString(we.has_memory ? we.memory.explanation : we.error));
            verdict_->setStyleSheet(ok ? QStringLiteral("color: #16a34a")
                                       : QStringLiteral("color: #dc2626"));
        }
}

} // namespace cl::ui
