#include "fabricwizard.h"

#include "document/commands.h"
#include "model/topology.h"
#include "model/units.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>

#include <algorithm>

namespace cl::ui {

FabricWizard::FabricWizard(const model::Catalog& catalog, QWidget* parent)
    : QDialog(parent), catalog_(catalog) {
    setWindowTitle(tr("Fabric wizard"));
    auto* form = new QFormLayout(this);
    kind = new QComboBox;
    kind->setObjectName(QStringLiteral("kind"));
    kind->addItem(tr("DGX H100 SuperPOD (NVIDIA reference architecture)"),
                  QStringLiteral("superpod"));
    kind->addItem(tr("Rail-optimized fat tree"), QStringLiteral("fattree"));
    kind->addItem(tr("GB200 NVL72 racks"), QStringLiteral("nvl72"));
    kind->addItem(tr("Ethernet leaf-spine (RoCE)"), QStringLiteral("ethernet"));
    form->addRow(tr("Fabric"), kind);
    system = new QComboBox;
    system->setObjectName(QStringLiteral("system"));
    for (const auto& s : catalog.systems())
        if (!s.gpu.empty())
            system->addItem(QString::fromStdString(s.name), QString::fromStdString(s.id));
    system->setCurrentIndex(system->findData(QStringLiteral("dgx-h100")));
    form->addRow(tr("Server"), system);
    nodes = new QSpinBox;
    nodes->setObjectName(QStringLiteral("nodes"));
    nodes->setRange(1, 100000);
    nodes->setValue(32);
    form->addRow(tr("Servers"), nodes);
    tiers = new QSpinBox;
    tiers->setObjectName(QStringLiteral("tiers"));
    tiers->setRange(2, 3);
    form->addRow(tr("Switch tiers"), tiers);
    oversubscription = new QDoubleSpinBox;
    oversubscription->setObjectName(QStringLiteral("oversubscription"));
    oversubscription->setRange(1, 16);
    oversubscription->setDecimals(1);
    oversubscription->setSuffix(QStringLiteral(":1"));
    form->addRow(tr("Oversubscription"), oversubscription);
    railOptimized = new QCheckBox(tr("Rail-optimized leaves"));
    railOptimized->setObjectName(QStringLiteral("rail_optimized"));
    railOptimized->setChecked(true);
    railOptimized->setToolTip(
        tr("NIC i of every node goes to the rail-i leaves (NVIDIA DGX SuperPOD layout): a rail's "
           "traffic stays under its leaf. Off: each node's NICs share one leaf, and groups wider "
           "than a leaf cross the spine."));
    form->addRow(QString(), railOptimized);
    units = new QSpinBox;
    units->setObjectName(QStringLiteral("units"));
    units->setRange(1, 4);
    units->setValue(4);
    form->addRow(tr("Scalable units / racks"), units);
    preview_ = new QLabel;
    preview_->setWordWrap(true);
    form->addRow(preview_);
    replacing_ = new QLabel;
    replacing_->setObjectName(QStringLiteral("replacing"));
    replacing_->setWordWrap(true);
    replacing_->setTextFormat(Qt::PlainText); // design and workload names come from files
    replacing_->hide();
    form->addRow(replacing_);
    keepWorkloads = new QCheckBox;
    keepWorkloads->setObjectName(QStringLiteral("keep_workloads"));
    keepWorkloads->setChecked(true);
    keepWorkloads->hide();
    form->addRow(QString(), keepWorkloads);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (auto* w : {static_cast<QWidget*>(kind), static_cast<QWidget*>(system)})
        connect(qobject_cast<QComboBox*>(w), &QComboBox::currentIndexChanged, this,
                &FabricWizard::refresh);
    for (auto* sb : {nodes, tiers, units})
        connect(sb, &QSpinBox::valueChanged, this, &FabricWizard::refresh);
    connect(oversubscription, &QDoubleSpinBox::valueChanged, this, &FabricWizard::refresh);
    connect(railOptimized, &QCheckBox::toggled, this, &FabricWizard::refresh);
    refresh();
}

model::Result<model::Design> FabricWizard::generate() const {
    const QString k = kind->currentData().toString();
    if (k == QLatin1String("superpod"))
        return model::generate_superpod_h100(units->value(), catalog_);
    if (k == QLatin1String("nvl72"))
        return model::generate_nvl72(units->value(), catalog_);
    if (k == QLatin1String("ethernet"))
        return model::generate_ethernet(system->currentData().toString().toStdString(),
                                        nodes->value(), oversubscription->value(), catalog_);
    model::FatTreeSpec s;
    s.system = system->currentData().toString().toStdString();
    s.nodes = nodes->value();
    s.tiers = tiers->value();
    s.oversubscription = oversubscription->value();
    s.rail_optimized = railOptimized->isChecked();
    return model::generate_fat_tree(s, catalog_);
}

void FabricWizard::refresh() {
    const QString k = kind->currentData().toString();
    const bool sp = k == QLatin1String("superpod"), nvl = k == QLatin1String("nvl72");
    system->setEnabled(!sp && !nvl);
    nodes->setEnabled(!sp && !nvl);
    tiers->setEnabled(k == QLatin1String("fattree"));
    railOptimized->setEnabled(k == QLatin1String("fattree"));
    oversubscription->setEnabled(!sp && !nvl);
    units->setEnabled(sp || nvl);
    units->setMaximum(sp ? 4 : 1000);
    auto d = generate();
    auto* ok = findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    if (!d) {
        preview_->setText(QString::fromStdString(d.error_text()));
        ok->setEnabled(false);
        return;
    }
    ok->setEnabled(true);
    const model::Topology t = model::analyze_topology(*d, catalog_);
    // The fixed layouts show what they build in the fields they fix (helper-22: a greyed
    // "Servers 32" beside "127 nodes"); signals blocked, so this is not an edit.
    if (sp || nvl) {
        const QSignalBlocker b1(nodes), b2(system), b3(oversubscription);
        nodes->setValue(static_cast<int>(t.nodes));
        for (const auto& dev : d->devices)
            if (dev.kind == model::DeviceKind::system) {
                if (const int i = system->findData(QString::fromStdString(dev.catalog)); i >= 0)
                    system->setCurrentIndex(i);
                break;
            }
        oversubscription->setValue(std::max(1.0, t.oversubscription));
    }
    const auto count = [](double x) {
        return QString::fromStdString(model::units::format_count(x));
    };
    preview_->setText(
        tr("%1\n%2 GPUs in %3 nodes, %4 switches in %5 tiers, bisection %6, "
           "oversubscription %7:1.")
            .arg(QString::fromStdString(d->name))
            .arg(count(t.gpus), count(t.nodes), count(t.switches))
            .arg(t.tiers.size())
            .arg(QString::fromStdString(model::units::format_si(t.bisection_Bps, "B/s")))
            .arg(t.oversubscription, 0, 'g', 3));
}

void FabricWizard::setReplacing(const model::Design& current) {
    if (current.devices.empty() && current.workloads.empty())
        return;
    const QString name =
        current.name.empty() ? tr("this design") : QString::fromStdString(current.name);
    const auto count = [](std::size_t n, const char* one, const char* many) {
        return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
    };
    replacing_->setText(tr("Replaces the hardware of %1 (%2 and %3) with the fabric above; its "
                           "cost and reliability inputs stay. Undo brings the old hardware back.")
                            .arg(name, count(current.devices.size(), "device", "devices"),
                                 count(current.links.size(), "link", "links")));
    replacing_->show();
    if (!current.workloads.empty()) {
        QStringList names;
        for (const auto& w : current.workloads)
            names << QString::fromStdString(w.name.empty() ? w.id : w.name);
        keepWorkloads->setText(
            tr("Keep the workloads on the new GPUs: %1").arg(names.join(QStringLiteral(", "))));
        keepWorkloads->setToolTip(tr("Off: the new fabric starts without workloads"));
        keepWorkloads->show();
    }
    findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->setText(tr("Replace"));
}

void applyGeneratedFabric(doc::Document* doc, model::Design generated, bool keepWorkloads) {
    const model::Design& cur = doc->design();
    if (keepWorkloads)
        generated.workloads = cur.workloads;
    for (auto& w : generated.workloads) {
        w.placement.clear(); // every GPU of the new fabric
        w.position = {320, 300};
    }
    generated.economics = cur.economics;
    generated.reliability = cur.reliability;
    generated.calibration = cur.calibration;
    doc->editStructure(std::move(generated), QObject::tr("Fabric wizard"));
}

bool runFabricWizard(doc::Document* doc, QWidget* parent) {
    FabricWizard w(doc->catalog(), parent);
    w.setReplacing(doc->design());
    // The last choices made for this design come back (issue 22: a helper re-opening the wizard
    // to change one value had to re-enter all of them); the server defaults to the design's.
    static constexpr const char* kKey = "fabricWizardChoices";
    const QVariantList last = doc->QObject::property(kKey).toList();
    if (last.size() == 7) {
        w.kind->setCurrentIndex(w.kind->findData(last[0]));
        w.system->setCurrentIndex(w.system->findData(last[1]));
        w.nodes->setValue(last[2].toInt());
        w.tiers->setValue(last[3].toInt());
        w.oversubscription->setValue(last[4].toDouble());
        w.railOptimized->setChecked(last[5].toBool());
        w.units->setValue(last[6].toInt());
    } else {
        for (const auto& dev : doc->design().devices)
            if (dev.kind == model::DeviceKind::system) {
                if (const int i = w.system->findData(QString::fromStdString(dev.catalog)); i >= 0)
                    w.system->setCurrentIndex(i);
                break;
            }
    }
    if (w.exec() != QDialog::Accepted)
        return false;
    doc->QObject::setProperty(kKey, QVariantList{w.kind->currentData(), w.system->currentData(),
                                                 w.nodes->value(), w.tiers->value(),
                                                 w.oversubscription->value(),
                                                 w.railOptimized->isChecked(), w.units->value()});
    auto d = w.generate();
    if (!d)
        return false;
    applyGeneratedFabric(doc, std::move(d).value(),
                         w.keepWorkloads->isHidden() || w.keepWorkloads->isChecked());
    return true;
}

} // namespace cl::ui
