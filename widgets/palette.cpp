#include "palette.h"

#include "canvas.h"
#include "messages.h"
#include "model/units.h"

#include <QDrag>
#include <QLineEdit>
#include <QMimeData>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <tuple>

namespace cl::ui {

namespace {
class PaletteTree : public QTreeWidget {
public:
    using QTreeWidget::QTreeWidget;

protected:
    QMimeData* mimeData(const QList<QTreeWidgetItem*>& items) const override {
        if (items.isEmpty() || items.first()->data(0, Qt::UserRole).toString().isEmpty())
            return nullptr;
        auto* m = new QMimeData;
        m->setData(kCatalogMime, items.first()->data(0, Qt::UserRole).toString().toUtf8());
        return m;
    }
    QStringList mimeTypes() const override { return {QString::fromLatin1(kCatalogMime)}; }
};

QString sourceTip(const model::Provenance& p) {
    QString t =
        QObject::tr("Source: %1\nAs of: %2\nConfidence: %3")
            .arg(p.source.empty()
                     ? QStringLiteral("-")
                     : QString::fromStdString(model::units::readable_source(p.source.front())))
            .arg(QString::fromStdString(p.as_of))
            .arg(QString::fromStdString(p.confidence));
    if (p.user)
        t += QObject::tr("\n(from your catalog file)");
    return t;
}
} // namespace

Palette::Palette(const model::Catalog& catalog, QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    search_ = new QLineEdit(this);
    search_->setPlaceholderText(tr("Search hardware…"));
    search_->setClearButtonEnabled(true);
    tree_ = new PaletteTree(this);
    tree_->setHeaderHidden(true);
    tree_->setDragEnabled(true);
    tree_->setDragDropMode(QAbstractItemView::DragOnly);
    layout->addWidget(search_);
    layout->addWidget(tree_);

    auto group = [&](const QString& title) {
        auto* g = new QTreeWidgetItem(tree_, {title});
        g->setFlags(Qt::ItemIsEnabled);
        g->setExpanded(true);
        return g;
    };
    auto* systems = group(tr("Systems"));
    for (const auto& s : catalog.systems()) {
        auto* it = new QTreeWidgetItem(systems, {QString::fromStdString(s.name)});
        it->setData(0, Qt::UserRole, QStringLiteral("system:%1").arg(QString::fromStdString(s.id)));
        it->setToolTip(0, plainTip(QString::fromStdString(s.name) + QLatin1Char('\n') +
                                   sourceTip(s.provenance)));
    }
    auto* gpus = group(tr("GPUs"));
    QTreeWidgetItem* edge = nullptr; // workstation and edge devices, their own group (issue 20)
    for (const auto& g : catalog.gpus()) {
        QTreeWidgetItem* home = gpus;
        if (!g.device_class.empty()) {
            if (!edge)
                edge = group(tr("Workstation and edge devices"));
            home = edge;
        }
        auto* it = new QTreeWidgetItem(
            home, {QStringLiteral("%1 · %2")
                       .arg(QString::fromStdString(g.name))
                       .arg(QString::fromStdString(model::units::format_bytes(g.memory_bytes)))});
        it->setData(0, Qt::UserRole, QStringLiteral("gpu:%1").arg(QString::fromStdString(g.id)));
        // Search words beyond the name: the id and the kind of device ("cpu" finds the CPU
        // server, "npu" the Snapdragon, "apple" the Macs; helper-12).
        {
            QString words = QString::fromStdString(g.id + " " + g.vendor + " " + g.device_class);
            words.replace(QLatin1Char('_'), QLatin1Char(' '));
            it->setData(0, Qt::UserRole + 2, words);
        }
        it->setToolTip(0, plainTip(QString::fromStdString(g.name) + QLatin1Char('\n') +
                                   sourceTip(g.provenance)));
    }
    auto* switches = group(tr("Switches"));
    for (const auto& s : catalog.switches()) {
        auto* it = new QTreeWidgetItem(switches, {QString::fromStdString(s.name)});
        it->setData(0, Qt::UserRole, QStringLiteral("switch:%1").arg(QString::fromStdString(s.id)));
        it->setToolTip(0, plainTip(QString::fromStdString(s.name) + QLatin1Char('\n') +
                                   sourceTip(s.provenance)));
    }
    auto* links = group(tr("Link types"));
    links->setToolTip(0,
                      tr("Click a link type, then drag from a device's port to another device."));
    for (const auto& l : catalog.links()) {
        auto* it =
            new QTreeWidgetItem(links, {QStringLiteral("%1 · %2")
                                            .arg(QString::fromStdString(l.name))
                                            .arg(QString::fromStdString(model::units::format_si(
                                                l.bandwidth_unidir_Bps, "B/s", 0)))});
        it->setData(0, Qt::UserRole + 1, QString::fromStdString(l.id)); // not draggable
        it->setToolTip(0, tr("Selects the link type new connections use.\n") +
                              sourceTip(l.provenance));
    }
    auto* workloads = group(tr("Workloads"));
    for (const auto& [entry, text, tip] :
         {std::tuple{"workload:training", tr("Training job"),
                     tr("Drop on a device or group to place it there (or on empty canvas: all "
                        "GPUs).")},
          std::tuple{"workload:inference", tr("Inference service"),
                     tr("Drop on a device or group to place it there (or on empty canvas: all "
                        "GPUs).")}}) {
        auto* it = new QTreeWidgetItem(workloads, {text});
        it->setData(0, Qt::UserRole, QString::fromLatin1(entry));
        it->setToolTip(0, tip);
    }
    auto* storage = group(tr("Storage"));
    auto* st = new QTreeWidgetItem(storage, {tr("Storage system (checkpoints, data)")});
    st->setData(0, Qt::UserRole, QStringLiteral("storage:generic"));
    st->setToolTip(0, tr("Aggregate bandwidth and capacity are set in the inspector; the "
                         "reliability model writes checkpoints at its bandwidth."));
    systems->setExpanded(true);
    gpus->setExpanded(false);
    switches->setExpanded(false);
    links->setExpanded(false);
    connect(search_, &QLineEdit::textChanged, this, &Palette::filter);
    connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* cur) {
        if (!cur)
            return;
        const QString link = cur->data(0, Qt::UserRole + 1).toString();
        if (!link.isEmpty())
            emit linkTypeChosen(link);
    });
}

void Palette::filter(const QString& text) {
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        auto* g = tree_->topLevelItem(i);
        bool any = false;
        for (int k = 0; k < g->childCount(); ++k) {
            const auto* item = g->child(k);
            const bool match =
                text.isEmpty() || item->text(0).contains(text, Qt::CaseInsensitive) ||
                item->data(0, Qt::UserRole + 2).toString().contains(text, Qt::CaseInsensitive);
            g->child(k)->setHidden(!match);
            any |= match;
        }
        g->setHidden(!any);
        if (!text.isEmpty())
            g->setExpanded(true);
    }
}

} // namespace cl::ui
