#include "canvas.h"

#include "document/commands.h"
#include "model/catalog.h"
#include "model/units.h"

#include <QGraphicsObject>
#include <QGraphicsSceneDragDropEvent>
#include <QGraphicsSceneMouseEvent>
#include <QMimeData>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QWheelEvent>

#include <cmath>

namespace cl::ui {

namespace {
constexpr qreal kDeviceW = 180, kDeviceH = 70;

QString subtitle(const model::Device& d, const model::Catalog& c) {
    QString s;
    switch (d.kind) {
    case model::DeviceKind::system:
        if (const auto* sys = c.system(d.catalog))
            s = QStringLiteral("%1 GPUs · %2").arg(sys->gpus).arg(QString::fromStdString(sys->gpu));
        break;
    case model::DeviceKind::gpu:
        if (const auto* g = c.gpu(d.catalog))
            s = QString::fromStdString(model::units::format_bytes(g->memory_bytes));
        break;
    case model::DeviceKind::switch_:
        if (const auto* sw = c.switch_spec(d.catalog))
            s = QStringLiteral("%1 ports · %2")
                    .arg(sw->ports)
                    .arg(QString::fromStdString(
                        model::units::format_si(sw->port_rate_bps, "b/s", 0)));
        break;
    default:
        s = QString::fromStdString(std::string(model::device_kind_name(d.kind)));
    }
    return s;
}
} // namespace

/// A device (or a group of identical replicas, drawn with a "× N" badge).
class DeviceItem : public QGraphicsObject {
public:
    DeviceItem(CanvasScene* scene, std::string id) : scene_(scene), id_(std::move(id)) {
        setFlags(ItemIsSelectable | ItemIsMovable | ItemSendsGeometryChanges);
        setAcceptHoverEvents(true);
        setData(0, QString::fromStdString(id_));
    }
    [[nodiscard]] const std::string& id() const { return id_; }
    QRectF boundingRect() const override { return {-4, -4, kDeviceW + 8, kDeviceH + 8}; }
    void sync() {
        const auto* d = scene_->document()->design().device(id_);
        if (!d)
            return;
        syncing_ = true;
        setPos(d->position.x, d->position.y);
        syncing_ = false;
        setToolTip(tooltip(*d));
        update();
    }
    QPointF dragStart() const { return dragStart_; }
    bool moved() const { return pos() != dragStart_; }

protected:
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
        const auto* d = scene_->document()->design().device(id_);
        if (!d)
            return;
        const auto& pal = scene_->palette();
        QColor fill = pal.base().color();
        QColor accent(0x3b, 0x82, 0xf6);
        if (d->kind == model::DeviceKind::switch_)
            accent = QColor(0x10, 0xb9, 0x81);
        else if (d->kind == model::DeviceKind::gpu)
            accent = QColor(0x76, 0xb9, 0x00);
        p->setRenderHint(QPainter::Antialiasing);
        if (d->count > 1) { // stacked look for replicas
            p->setPen(QPen(accent.darker(120), 1));
            p->setBrush(fill);
            p->drawRoundedRect(QRectF(6, 6, kDeviceW - 6, kDeviceH - 6).translated(0, 0), 6, 6);
        }
        p->setPen(QPen(isSelected() ? pal.highlight().color() : accent, isSelected() ? 3 : 1.5));
        p->setBrush(fill);
        p->drawRoundedRect(QRectF(0, 0, kDeviceW - 6, kDeviceH - 6), 6, 6);
        p->fillRect(QRectF(0, 0, 6, kDeviceH - 6), accent);
        p->setPen(pal.text().color());
        QFont f = p->font();
        f.setBold(true);
        p->setFont(f);
        const QString title = QString::fromStdString(d->name.empty() ? d->id : d->name);
        p->drawText(QRectF(12, 6, kDeviceW - 60, 22), Qt::AlignLeft | Qt::AlignVCenter,
                    p->fontMetrics().elidedText(title, Qt::ElideRight, int(kDeviceW - 60)));
        f.setBold(false);
        p->setFont(f);
        p->setPen(pal.placeholderText().color());
        p->drawText(QRectF(12, 30, kDeviceW - 24, 20), Qt::AlignLeft | Qt::AlignVCenter,
                    subtitle(*d, scene_->document()->catalog()));
        if (d->count > 1) {
            const QString badge = QStringLiteral("× %1").arg(d->count);
            QRectF r(kDeviceW - 58, 6, 46, 20);
            p->setPen(Qt::NoPen);
            p->setBrush(accent);
            p->drawRoundedRect(r, 9, 9);
            p->setPen(Qt::white);
            p->drawText(r, Qt::AlignCenter, badge);
        }
    }
    QVariant itemChange(GraphicsItemChange change, const QVariant& v) override {
        if (change == ItemPositionChange && !syncing_) {
            // Snap to a 10-px grid.
            const QPointF p = v.toPointF();
            return QPointF(std::round(p.x() / 10) * 10, std::round(p.y() / 10) * 10);
        }
        return QGraphicsObject::itemChange(change, v);
    }
    void mousePressEvent(QGraphicsSceneMouseEvent* e) override {
        for (auto* it : scene()->selectedItems())
            if (auto* di = dynamic_cast<DeviceItem*>(it))
                di->dragStart_ = di->pos();
        dragStart_ = pos();
        QGraphicsObject::mousePressEvent(e);
    }
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* e) override {
        QGraphicsObject::mouseReleaseEvent(e);
        scene_->commitMove();
    }

private:
    QString tooltip(const model::Device& d) const {
        QString t = QStringLiteral("<b>%1</b><br>%2 × %3")
                        .arg(QString::fromStdString(d.name.empty() ? d.id : d.name))
                        .arg(d.count)
                        .arg(QString::fromStdString(d.catalog));
        return t;
    }
    CanvasScene* scene_;
    std::string id_;
    QPointF dragStart_;
    bool syncing_ = false;
};

/// A group (pod, row, rack) drawn as a dashed frame around its members, labelled with its
/// replica count. Its geometry follows the members; it holds no state of its own.
class GroupItem : public QGraphicsItem {
public:
    GroupItem(CanvasScene* scene, std::string id) : scene_(scene), id_(std::move(id)) {
        setZValue(-2);
        setFlag(ItemIsSelectable);
        setData(0, QString::fromStdString(id_));
    }
    QRectF boundingRect() const override {
        return rect_.adjusted(-4, -24, std::max(4.0, 360.0 - rect_.width()), 4);
    }
    void sync() {
        const auto& d = scene_->document()->design();
        QRectF r;
        for (const auto& dev : d.devices)
            if (dev.parent == id_) {
                const QRectF child(dev.position.x, dev.position.y, kDeviceW, kDeviceH);
                r = r.isNull() ? child : r.united(child);
            }
        const auto* g = d.device(id_);
        if (r.isNull() && g)
            r = QRectF(g->position.x, g->position.y, kDeviceW, kDeviceH);
        prepareGeometryChange();
        rect_ = r.adjusted(-16, -16, 16, 16);
        if (g)
            label_ = QStringLiteral("%1  × %2")
                         .arg(QString::fromStdString(g->name.empty() ? g->id : g->name))
                         .arg(g->count);
        update();
    }

protected:
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
        const auto& pal = scene_->palette();
        p->setRenderHint(QPainter::Antialiasing);
        QPen pen(isSelected() ? pal.highlight().color() : pal.mid().color(),
                 isSelected() ? 2.5 : 1.5);
        pen.setStyle(Qt::DashLine);
        p->setPen(pen);
        p->setBrush(Qt::NoBrush);
        p->drawRoundedRect(rect_, 12, 12);
        p->setPen(pal.text().color());
        QFont f = p->font();
        f.setBold(true);
        p->setFont(f);
        p->drawText(QRectF(rect_.left() + 8, rect_.top() - 22, std::max(rect_.width(), 350.0), 20),
                    Qt::AlignLeft | Qt::AlignVCenter, label_);
    }

private:
    CanvasScene* scene_;
    std::string id_;
    QRectF rect_;
    QString label_;
};

/// A link between two device groups: a line labelled with type and count.
class LinkItem : public QGraphicsItem {
public:
    LinkItem(CanvasScene* scene, std::string id) : scene_(scene), id_(std::move(id)) {
        setZValue(-1);
        setFlag(ItemIsSelectable);
        setData(0, QString::fromStdString(id_));
    }
    QRectF boundingRect() const override {
        return QRectF(a_, b_).normalized().adjusted(-60, -20, 60, 20);
    }
    void sync() {
        const auto& d = scene_->document()->design();
        const auto* l = d.link(id_);
        if (!l)
            return;
        const auto* from = d.device(l->from);
        const auto* to = d.device(l->to);
        if (!from || !to)
            return;
        prepareGeometryChange();
        a_ = QPointF(from->position.x + kDeviceW / 2, from->position.y + kDeviceH / 2);
        b_ = QPointF(to->position.x + kDeviceW / 2, to->position.y + kDeviceH / 2);
        const auto* type = scene_->document()->catalog().link(l->type);
        label_ = QStringLiteral("%1 × %2").arg(l->count).arg(QString::fromStdString(l->type));
        if (type)
            label_ += QStringLiteral(" (%1)").arg(QString::fromStdString(
                model::units::format_si(type->bandwidth_unidir_Bps, "B/s", 0)));
        update();
    }

protected:
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
        p->setRenderHint(QPainter::Antialiasing);
        const auto& pal = scene_->palette();
        // Uplinks of an oversubscribed tier are the fabric's bottleneck: draw them in red.
        double oversub = 1.0;
        QString tierName;
        if (const auto* ev = scene_->evaluation(); ev) {
            const auto* l = scene_->document()->design().link(id_);
            for (const auto& st : ev->fabric.tiers) {
                if (!l || st.oversubscription <= 1.0 + 1e-9)
                    continue;
                const bool touches = std::find(st.device_ids.begin(), st.device_ids.end(),
                                               l->from) != st.device_ids.end() ||
                                     std::find(st.device_ids.begin(), st.device_ids.end(), l->to) !=
                                         st.device_ids.end();
                if (!touches)
                    continue;
                // The tier's uplinks go to the next tier up.
                if (static_cast<std::size_t>(st.level) < ev->fabric.tiers.size()) {
                    const auto& next =
                        ev->fabric.tiers[static_cast<std::size_t>(st.level)].device_ids;
                    if (std::find(next.begin(), next.end(), l->to) != next.end() ||
                        std::find(next.begin(), next.end(), l->from) != next.end()) {
                        oversub = st.oversubscription;
                        tierName = QString::fromStdString(st.name);
                    }
                }
            }
        }
        QColor lineColor = pal.mid().color();
        int width = 2;
        if (oversub > 1.0) {
            lineColor = QColor(0xdc, 0x26, 0x26);
            width = 4;
            setToolTip(QObject::tr("Bottleneck: uplinks of the %1 tier are oversubscribed %2:1")
                           .arg(tierName)
                           .arg(oversub, 0, 'f', 2));
        } else {
            setToolTip(label_);
        }
        p->setPen(QPen(isSelected() ? pal.highlight().color() : lineColor, width));
        p->drawLine(a_, b_);
        const QPointF mid = (a_ + b_) / 2;
        p->setPen(pal.text().color());
        QRectF r(mid.x() - 90, mid.y() - 9, 180, 18);
        p->fillRect(r, pal.window());
        p->drawText(r, Qt::AlignCenter, label_);
    }

private:
    CanvasScene* scene_;
    std::string id_;
    QPointF a_, b_;
    QString label_;
};

/// A workload card: model, layout and the memory verdict from the evaluation.
class WorkloadItem : public QGraphicsObject {
public:
    WorkloadItem(CanvasScene* scene, std::string id) : scene_(scene), id_(std::move(id)) {
        setFlags(ItemIsSelectable | ItemIsMovable);
        setData(0, QString::fromStdString(id_));
    }
    QRectF boundingRect() const override { return {-2, -2, 244, 114}; }
    void sync() {
        const auto* w = scene_->document()->design().workload(id_);
        if (!w)
            return;
        setPos(w->position.x, w->position.y);
        update();
    }
    QPointF dragStart;

protected:
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
        const auto* w = scene_->document()->design().workload(id_);
        if (!w)
            return;
        const auto& pal = scene_->palette();
        p->setRenderHint(QPainter::Antialiasing);
        const model::WorkloadEvaluation* we = nullptr;
        if (const auto* ev = scene_->evaluation())
            for (const auto& x : ev->workloads)
                if (x.id == id_)
                    we = &x;
        QColor status(0x9c, 0xa3, 0xaf);
        QString verdict = tr("not evaluated");
        if (we && we->has_memory) {
            status = we->memory.fits ? QColor(0x16, 0xa3, 0x4a) : QColor(0xdc, 0x26, 0x26);
            verdict = QString::fromStdString(we->memory.explanation);
        } else if (we && !we->error.empty()) {
            status = QColor(0xd9, 0x77, 0x06);
            verdict = QString::fromStdString(we->error);
        }
        p->setPen(QPen(isSelected() ? pal.highlight().color() : status, isSelected() ? 3 : 2));
        p->setBrush(pal.base());
        p->drawRoundedRect(QRectF(0, 0, 240, 110), 10, 10);
        p->setPen(pal.text().color());
        QFont f = p->font();
        f.setBold(true);
        p->setFont(f);
        p->drawText(
            QRectF(10, 4, 220, 22), Qt::AlignLeft | Qt::AlignVCenter,
            p->fontMetrics().elidedText(QString::fromStdString(w->name.empty() ? w->id : w->name),
                                        Qt::ElideRight, 220));
        f.setBold(false);
        p->setFont(f);
        QString layout;
        if (w->kind == model::WorkloadKind::training)
            layout = tr("%1 · TP %2 PP %3 · seq %4 · ZeRO %5")
                         .arg(QString::fromStdString(w->model))
                         .arg(w->training.tp)
                         .arg(w->training.pp)
                         .arg(w->training.seq)
                         .arg(w->training.zero);
        else
            layout = tr("%1 · TP %2 · serving")
                         .arg(QString::fromStdString(w->model))
                         .arg(w->inference.tp);
        p->setPen(pal.placeholderText().color());
        p->drawText(QRectF(10, 26, 220, 18), Qt::AlignLeft | Qt::AlignVCenter,
                    p->fontMetrics().elidedText(layout, Qt::ElideRight, 220));
        p->setPen(status);
        p->drawText(QRectF(10, 46, 220, 40), Qt::AlignLeft | Qt::TextWordWrap, verdict);
        if (we && we->inference) {
            const auto& inf = *we->inference;
            p->setPen(pal.text().color());
            p->drawText(
                QRectF(10, 86, 220, 20), Qt::AlignLeft | Qt::AlignVCenter,
                p->fontMetrics().elidedText(QObject::tr("TTFT %1 ms · TPOT %2 ms · %3tok/s")
                                                .arg(inf.ttft_s * 1e3, 0, 'f', 0)
                                                .arg(inf.tpot_s * 1e3, 0, 'f', 1)
                                                .arg(QString::fromStdString(model::units::format_si(
                                                    inf.output_tokens_per_s, "", 0))),
                                            Qt::ElideRight, 220));
        }
        if (we && we->training) {
            const auto& res = *we->training;
            p->setPen(pal.text().color());
            p->drawText(
                QRectF(10, 86, 220, 20), Qt::AlignLeft | Qt::AlignVCenter,
                p->fontMetrics().elidedText(QObject::tr("step %1 s · MFU %2% · %3tok/s")
                                                .arg(res.step_time_s, 0, 'f', 1)
                                                .arg(res.mfu * 100, 0, 'f', 1)
                                                .arg(QString::fromStdString(model::units::format_si(
                                                    res.tokens_per_s, "", 0))),
                                            Qt::ElideRight, 220));
        }
    }
    void mousePressEvent(QGraphicsSceneMouseEvent* e) override {
        dragStart = pos();
        QGraphicsObject::mousePressEvent(e);
    }
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* e) override {
        QGraphicsObject::mouseReleaseEvent(e);
        scene_->commitMove();
    }

private:
    CanvasScene* scene_;
    std::string id_;
};

CanvasScene::CanvasScene(doc::Document* doc, QObject* parent) : QGraphicsScene(parent), doc_(doc) {
    setSceneRect(-2000, -2000, 4000, 4000);
    connect(doc_, &doc::Document::changed, this, &CanvasScene::sync);
    rebuild();
}

void CanvasScene::rebuild() {
    clear();
    devices_.clear();
    workloads_.clear();
    links_.clear();
    groups_.clear();
    const auto& d = doc_->design();
    for (const auto& dev : d.devices) {
        if (dev.kind == model::DeviceKind::group) {
            auto* g = new GroupItem(this, dev.id);
            addItem(g);
            g->sync();
            groups_.push_back(g);
            continue;
        }
        auto* item = new DeviceItem(this, dev.id);
        addItem(item);
        item->sync();
        devices_[dev.id] = item;
    }
    for (const auto& l : d.links) {
        auto* item = new LinkItem(this, l.id);
        addItem(item);
        item->sync();
        links_.push_back(item);
    }
    for (const auto& w : d.workloads) {
        auto* item = new WorkloadItem(this, w.id);
        addItem(item);
        item->sync();
        workloads_[w.id] = item;
    }
}

void CanvasScene::sync(const doc::ChangeEvent& e) {
    if (e.type == doc::ChangeEvent::DevicesChanged && !e.ids.isEmpty()) {
        bool all = true;
        for (const auto& id : e.ids) {
            const std::string sid = id.toStdString();
            if (auto it = devices_.find(sid); it != devices_.end())
                it->second->sync();
            else if (auto wt = workloads_.find(sid); wt != workloads_.end())
                wt->second->sync();
            else
                all = false;
        }
        if (all) {
            for (auto* l : links_)
                l->sync();
            for (auto* g : groups_)
                g->sync();
            return;
        }
    }
    rebuild();
}

void CanvasScene::setEvaluation(std::shared_ptr<const model::Evaluation> ev) {
    eval_ = std::move(ev);
    for (auto& [id, item] : workloads_)
        item->update();
    for (auto* l : links_)
        l->update();
}

QStringList CanvasScene::selectedIds() const {
    QStringList ids;
    for (auto* it : selectedItems())
        ids << it->data(0).toString();
    return ids;
}

void CanvasScene::commitMove() {
    std::vector<doc::MoveDevicesCommand::Move> moves;
    for (auto* it : selectedItems()) {
        const QString id = it->data(0).toString();
        if (auto* di = dynamic_cast<DeviceItem*>(it); di && di->moved())
            moves.push_back({id, {di->dragStart().x(), di->dragStart().y()}, {di->x(), di->y()}});
        else if (auto* wi = dynamic_cast<WorkloadItem*>(it); wi && wi->pos() != wi->dragStart)
            moves.push_back({id, {wi->dragStart.x(), wi->dragStart.y()}, {wi->x(), wi->y()}});
    }
    if (moves.empty())
        return;
    doc_->undoStack()->push(new doc::MoveDevicesCommand(doc_, std::move(moves), ++dragCounter_));
}

bool CanvasScene::dropCatalogEntry(const QString& entry, QPointF pos) {
    const auto parts = entry.split(QLatin1Char(':'));
    if (parts.size() != 2)
        return false;
    const std::string kind = parts[0].toStdString(), id = parts[1].toStdString();
    const auto& cat = doc_->catalog();
    model::Design next = doc_->design();
    model::Device dev;
    dev.catalog = id;
    dev.position = {std::round(pos.x() / 10) * 10, std::round(pos.y() / 10) * 10};
    if (kind == "system" && cat.system(id)) {
        dev.kind = model::DeviceKind::system;
        dev.name = cat.system(id)->name;
    } else if (kind == "gpu" && cat.gpu(id)) {
        dev.kind = model::DeviceKind::gpu;
        dev.name = cat.gpu(id)->name;
    } else if (kind == "switch" && cat.switch_spec(id)) {
        dev.kind = model::DeviceKind::switch_;
        dev.name = cat.switch_spec(id)->name;
    } else {
        emit statusMessage(tr("Cannot place \"%1\": unknown catalog entry").arg(entry));
        return false;
    }
    dev.id = next.unique_id(kind == "switch" ? "switch" : kind);
    const QString text = tr("Add %1").arg(QString::fromStdString(dev.name));
    next.devices.push_back(dev);
    doc_->undoStack()->push(new doc::EditDesignCommand(doc_, std::move(next), text));
    return true;
}

void CanvasScene::dragEnterEvent(QGraphicsSceneDragDropEvent* e) {
    e->setAccepted(e->mimeData()->hasFormat(kCatalogMime));
}
void CanvasScene::dragMoveEvent(QGraphicsSceneDragDropEvent* e) {
    e->setAccepted(e->mimeData()->hasFormat(kCatalogMime));
}
void CanvasScene::dropEvent(QGraphicsSceneDragDropEvent* e) {
    const QString entry = QString::fromUtf8(e->mimeData()->data(kCatalogMime));
    if (dropCatalogEntry(entry, e->scenePos() - QPointF(kDeviceW / 2, kDeviceH / 2)))
        e->acceptProposedAction();
}

void CanvasScene::mousePressEvent(QGraphicsSceneMouseEvent* e) {
    QGraphicsScene::mousePressEvent(e);
}

CanvasView::CanvasView(CanvasScene* scene, QWidget* parent) : QGraphicsView(scene, parent) {
    setRenderHint(QPainter::Antialiasing);
    setDragMode(QGraphicsView::RubberBandDrag);
    setAcceptDrops(true);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
}

void CanvasView::fitAll() {
    QRectF r = scene()->itemsBoundingRect();
    if (r.isEmpty())
        r = QRectF(-200, -200, 400, 400);
    fitInView(r.adjusted(-60, -60, 60, 60), Qt::KeepAspectRatio);
    // Never magnify beyond 1.5x: a single device should not fill the screen.
    if (transform().m11() > 1.5) {
        resetTransform();
        scale(1.5, 1.5);
        centerOn(r.center());
    }
}

void CanvasView::wheelEvent(QWheelEvent* e) {
    const double factor = std::pow(1.0015, e->angleDelta().y());
    scale(factor, factor);
}

} // namespace cl::ui
