#include "canvas.h"
#include "textwrap.h"

#include "document/commands.h"
#include "messages.h"
#include "model/catalog.h"
#include "model/edit.h"
#include "model/units.h"
#include "modelimport.h"

#include <QGraphicsLineItem>
#include <QGraphicsObject>
#include <QGraphicsSceneContextMenuEvent>
#include <QGraphicsSceneDragDropEvent>
#include <QGraphicsSceneHelpEvent>
#include <QGraphicsSceneMouseEvent>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QMenu>
#include <QMimeData>
#include <QNativeGestureEvent>
#include <QPainter>
#include <QPainterPath>
#include <QRegularExpression>
#include <QRubberBand>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QStyleHintReturnMask>
#include <QStyleOptionGraphicsItem>
#include <QStyleOptionRubberBand>
#include <QTimer>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_set>

namespace cl::ui {

namespace {
constexpr qreal kDeviceW = 180, kDeviceH = 70;
/// Below this zoom (level of detail), items draw plain blocks and hairlines.
constexpr qreal kFarDetail = 0.35;
/// Below this zoom a card's 9-pt text is under 8 px high (helper-6: ~5 px on a 4-SU SuperPOD
/// fitted into 1280x800): devices and workloads draw as blocks with their names at a size people
/// read (drawFarName) instead.
constexpr qreal kTextDetail = 0.67;

/// A link's colour class (issue 22): while a workload's load is shown (`load` >= 0), its
/// band -- 1 green under 30%, 2 amber 30-70%, 3 red 70% or more of the step busy, 0 plain when
/// unused; otherwise 3 for an oversubscribed tier's uplink (the bottleneck), else 0.
std::uint8_t linkColourClass(double load, bool bottleneck) {
    if (load > 0)
        return load >= 0.7 ? 3 : load >= 0.3 ? 2 : 1;
    if (load == 0)
        return 0;
    return bottleneck ? 3 : 0;
}
QColor linkColour(std::uint8_t cls, const QPalette& pal) {
    static const QColor kColour[] = {QColor(0x16, 0xa3, 0x4a), QColor(0xf5, 0x9e, 0x0b),
                                     QColor(0xdc, 0x26, 0x26)};
    return cls == 0 ? pal.mid().color() : kColour[std::min<int>(cls, 3) - 1];
}
/// From this many devices, links and groups, a view zoomed out below kFarDetail draws the
/// design in one batched pass (CanvasScene::paintFar) instead of item by item.
constexpr std::size_t kLargeDesignItems = 5000;

/// A name drawn inside a block far out, at a size people read (9-12 px on the screen whatever the
/// zoom), when the block is large enough on the screen to hold some of it (helper-6: a 4-SU
/// SuperPOD fitted into a 1280x800 window drew nameless blocks). Returns whether it drew.
bool drawFarName(QPainter* p, const QRectF& block, const QString& name, const QColor& colour,
                 bool bold = true) {
    const QRectF s = p->worldTransform().mapRect(block);
    if (s.width() < 40 || s.height() < 12 || name.isEmpty())
        return false;
    p->save();
    p->resetTransform();
    // The largest size from 12 px down to 9 px at which the whole name fits (bold where asked,
    // then regular at 9 and 8 px); else the last of them, elided.
    QFont f = p->font();
    const int width = static_cast<int>(s.width()) - 4;
    std::vector<std::pair<int, bool>> sizes;
    for (int px = std::clamp(static_cast<int>(s.height() * 0.4), 9, 12); px >= 9; --px)
        sizes.emplace_back(px, bold);
    if (bold)
        sizes.emplace_back(9, false);
    sizes.emplace_back(8, false);
    QStringList lines;
    for (std::size_t k = 0; k < sizes.size(); ++k) {
        f.setPixelSize(sizes[k].first);
        f.setBold(sizes[k].second);
        const QFontMetrics fm(f);
        const int room = std::max(1, static_cast<int>((s.height() - 2) / fm.lineSpacing()));
        lines = wrapWords(name, fm, width);
        const bool fits =
            lines.size() <= room && std::all_of(lines.begin(), lines.end(), [&](const QString& l) {
                return fm.horizontalAdvance(l) <= width;
            });
        if (fits)
            break;
        if (k + 1 == sizes.size() && lines.size() > room) { // whole lines that fit, last elided
            lines = lines.mid(0, room);
            lines.last() =
                fm.elidedText(lines.last() + QStringLiteral(" \u2026"), Qt::ElideRight, width);
        }
    }
    p->setFont(f);
    const QFontMetrics fm = p->fontMetrics();
    p->setPen(colour);
    const qreal top = s.center().y() - static_cast<double>(lines.size() * fm.lineSpacing()) / 2.0;
    for (int i = 0; i < lines.size(); ++i)
        p->drawText(QRectF(s.left() + 2, top + i * fm.lineSpacing(), width, fm.lineSpacing()),
                    Qt::AlignCenter, fm.elidedText(lines[i], Qt::ElideRight, width));
    p->restore();
    return true;
}

/// One line of a card drawn whole where it can be (issue 21, helper-11: "Leaf (rail) QM…" and
/// "… · seq…" printed cut in the report, where no tooltip says the rest): the painter's font,
/// or smaller when that makes the text fit, down to 80% of it on the screen (the tooltip has
/// the rest) and 60% in a picture (the report's, an exported PNG or SVG: helper-12 read
/// "Aggregation (7:1…" and "Grand Teton 8x …" there); only then elided. The font is restored.
void drawFitted(QPainter* p, const QRectF& r, int align, const QString& text) {
    const QFont f = p->font();
    QFont g = f;
    const qreal full = f.pointSizeF() > 0 ? f.pointSizeF() : f.pixelSize();
    const int width = static_cast<int>(r.width());
    const bool screen = p->device() && p->device()->devType() == QInternal::Widget;
    const qreal smallest = screen ? 0.8 : 0.6;
    for (qreal size = full; size >= full * smallest - 1e-9; size -= full / 10) {
        if (f.pointSizeF() > 0)
            g.setPointSizeF(size);
        else
            g.setPixelSize(std::max(1, static_cast<int>(size + 0.5)));
        if (QFontMetrics(g).horizontalAdvance(text) <= width)
            break;
    }
    p->setFont(g);
    p->drawText(r, align, p->fontMetrics().elidedText(text, Qt::ElideRight, width));
    p->setFont(f);
}

/// A card's title in its row (drawFitted), or on two rows of a smaller font when even the
/// smallest size would cut it (helper-15: the 16k picture's "Aggregation (7:1 oversu…"; a
/// person's names are long). Returns where the row under the title starts.
qreal drawTitle(QPainter* p, qreal x, qreal width, const QString& text) {
    const QFont f = p->font();
    const qreal full = f.pointSizeF() > 0 ? f.pointSizeF() : f.pixelSize();
    // Two rows rather than a one-row title shrunk below 80 % (a picture's "Grand Teton 8x
    // H100" at 60 % was hard to read).
    QFont smallest = f;
    const qreal least = full * 0.8;
    if (f.pointSizeF() > 0)
        smallest.setPointSizeF(least);
    else
        smallest.setPixelSize(std::max(1, static_cast<int>(least + 0.5)));
    const QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (QFontMetrics(smallest).horizontalAdvance(text) <= width || words.size() < 2) {
        drawFitted(p, QRectF(x, 4, width, 22), Qt::AlignLeft | Qt::AlignVCenter, text);
        return 25;
    }
    QFont two = f;
    if (f.pointSizeF() > 0)
        two.setPointSizeF(full * 0.85);
    else
        two.setPixelSize(std::max(1, static_cast<int>(full * 0.85 + 0.5)));
    p->setFont(two);
    const QFontMetrics fm(two);
    // As many words on the first row as fit (at least one); the rest on the second.
    int n = 1;
    while (n < words.size() &&
           fm.horizontalAdvance(QStringList(words.mid(0, n + 1)).join(QLatin1Char(' '))) <= width)
        ++n;
    const qreal row = fm.height();
    drawFitted(p, QRectF(x, 3, width, row), Qt::AlignLeft | Qt::AlignVCenter,
               QStringList(words.mid(0, n)).join(QLatin1Char(' ')));
    drawFitted(p, QRectF(x, 3 + row, width, row), Qt::AlignLeft | Qt::AlignVCenter,
               QStringList(words.mid(n)).join(QLatin1Char(' ')));
    p->setFont(f);
    return 3 + 2 * row;
}

/// A device's name far out, with its replica count: the "x 127" badge is part of what the card
/// says ("DGX H100 x 127", kept on one line by non-breaking spaces).
QString farName(const model::Device& d) {
    QString name = QString::fromStdString(d.name.empty() ? d.id : d.name);
    if (d.count > 1)
        name += QStringLiteral("\u00a0\u00d7\u00a0") +
                QString::fromStdString(model::units::format_count(static_cast<double>(d.count)));
    return name;
}

/// The colour that tells device kinds apart on the canvas.
QColor accentFor(model::DeviceKind kind) {
    if (kind == model::DeviceKind::switch_)
        return {0x10, 0xb9, 0x81};
    if (kind == model::DeviceKind::gpu)
        return {0x76, 0xb9, 0x00};
    return {0x3b, 0x82, 0xf6};
}

QString subtitle(const model::Device& d, const model::Catalog& c) {
    QString s;
    switch (d.kind) {
    case model::DeviceKind::system:
        if (const auto* sys = c.system(d.catalog))
            s = QStringLiteral("%1 × %2") // "8 × H100 SXM5 80GB": whole on the card
                    .arg(sys->gpus)
                    .arg(QString::fromStdString(c.short_name(sys->gpu)));
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
/// The part of a segment inside a rectangle (Liang-Barsky clipping), or nothing.
std::optional<QLineF> clipLine(const QLineF& l, const QRectF& r) {
    double t0 = 0, t1 = 1;
    const double dx = l.dx(), dy = l.dy();
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {l.x1() - r.left(), r.right() - l.x1(), l.y1() - r.top(),
                         r.bottom() - l.y1()};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return std::nullopt; // parallel to this edge and outside it
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
        if (t0 > t1)
            return std::nullopt;
    }
    return QLineF(l.pointAt(t0), l.pointAt(t1));
}
} // namespace

/// A device (or a group of identical replicas, drawn with a "× N" badge).
class DeviceItem : public QGraphicsItem {
public:
    DeviceItem(CanvasScene* scene, std::string id) : scene_(scene), id_(std::move(id)) {
        setFlags(ItemIsSelectable | ItemIsMovable | ItemSendsGeometryChanges);
        setAcceptHoverEvents(true);
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
        kind_ = d->kind;
        if (!toolTip().isEmpty()) // built when hovered (refreshToolTip): 100,000 load faster
            setToolTip({});
        update();
    }
    /// Builds the tooltip from the design and the finding; the scene calls it just before Qt
    /// shows the tooltip, so it is always current and costs nothing for devices never hovered.
    void refreshToolTip() {
        if (const auto* d = scene_->document()->design().device(id_))
            setToolTip(tooltip(*d)); // rich text; file text in it is escaped
    }
    /// What the evaluation found about this device (core/model/findings.h); null: nothing.
    void setFinding(const model::DeviceFinding* f) {
        finding_ = f ? *f : model::DeviceFinding{};
        update();
    }
    QPointF dragStart() const { return dragStart_; }
    bool moved() const { return pos() != dragStart_; }
    [[nodiscard]] model::DeviceKind kind() const { return kind_; }
    /// The block drawn far out (CanvasScene::paintFar and paint() below the detail level).
    static QRectF farRect() { return {0, 0, kDeviceW - 6, kDeviceH - 6}; }

protected:
    void paint(QPainter* p, const QStyleOptionGraphicsItem* opt, QWidget*) override {
        const auto* d = scene_->document()->design().device(id_);
        if (!d)
            return;
        const auto& pal = scene_->palette();
        QColor fill = pal.base().color();
        const QColor accent = accentFor(d->kind);
        // Level of detail: far out, text is unreadable anyway; a plain block keeps thousands of
        // items fast to draw.
        if (opt->levelOfDetailFromTransform(p->worldTransform()) < kTextDetail) {
            p->setPen(Qt::NoPen);
            p->setBrush(isSelected()           ? pal.highlight().color()
                        : scene_->jobCard(id_) ? QColor(0x7c, 0x3a, 0xed)
                                               : accent);
            p->drawRect(farRect());
            drawFarName(p, farRect(), farName(*d), Qt::white);
            return;
        }
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
        // The title ends before the replica badge (helper-3: "× 64" covered "Aggregation (1:…").
        const double titleW = d->count > 1 ? kDeviceW - 74 : kDeviceW - 30;
        const qreal below = drawTitle(p, 12, titleW, title);
        f.setBold(false);
        p->setFont(f);
        p->setPen(pal.placeholderText().color());
        // The subtitle's row ends above the problem badge's (issue 21: a leaf's "⚠ 2.0:1" badge
        // covered its port rate); under a title on two rows it takes a smaller font.
        if (below > 25) {
            QFont sf = f;
            sf.setPointSizeF(f.pointSizeF() > 0 ? f.pointSizeF() * 0.85 : 8);
            p->setFont(sf);
        }
        drawFitted(p,
                   QRectF(12, std::max<qreal>(25, below - 2), kDeviceW - 24,
                          below > 25 ? std::min<qreal>(18, kDeviceH - 25 - below + 2) : 18),
                   Qt::AlignLeft | Qt::AlignVCenter, subtitle(*d, scene_->document()->catalog()));
        p->setFont(f);
        if (d->count > 1) {
            const QString badge = QStringLiteral("× %1").arg(d->count);
            QRectF r(kDeviceW - 58, 6, 46, 20);
            p->setPen(Qt::NoPen);
            p->setBrush(accent);
            p->drawRoundedRect(r, 9, 9);
            p->setPen(Qt::white);
            p->drawText(r, Qt::AlignCenter, badge);
        }
        // Problem badge: the model flagged this device (an oversubscribed tier it belongs to, a
        // tier short of ports), as wide as its text, on its own row.
        if (!finding_.badge.empty()) {
            QFont sf = p->font();
            sf.setPointSizeF(sf.pointSizeF() * 0.8);
            p->setFont(sf);
            const QString text = QString::fromStdString(finding_.badge);
            const qreal w =
                std::min<qreal>(kDeviceW - 24, p->fontMetrics().horizontalAdvance(text) + 14);
            QRectF r(kDeviceW - 12 - w, kDeviceH - 25, w, 16);
            p->setPen(Qt::NoPen);
            p->setBrush(QColor(0xd9, 0x77, 0x06));
            p->drawRoundedRect(r, 7, 7);
            p->setPen(Qt::white);
            p->drawText(r, Qt::AlignCenter, text);
        }
        // Issue 23: the job picked on the Fleet tab ran here.
        if (const auto* job = scene_->jobCard(id_)) {
            const QColor jc(0x7c, 0x3a, 0xed);
            p->setPen(QPen(jc, 3, Qt::DashLine));
            p->setBrush(Qt::NoBrush);
            p->drawRoundedRect(QRectF(-3, -3, kDeviceW, kDeviceH), 8, 8);
            QFont sf = p->font();
            sf.setPointSizeF(sf.pointSizeF() * 0.8);
            p->setFont(sf);
            const QString text =
                job->job_nodes == job->card_nodes
                    ? (job->card_nodes == 1
                           ? QObject::tr("job here")
                           : QObject::tr("job on all %1 nodes")
                                 .arg(QLocale(QLocale::English).toString(job->card_nodes)))
                    : QObject::tr("job on %1 of %2 nodes")
                          .arg(QLocale(QLocale::English).toString(job->job_nodes),
                               QLocale(QLocale::English).toString(job->card_nodes));
            const qreal w =
                std::min<qreal>(kDeviceW - 24, p->fontMetrics().horizontalAdvance(text) + 14);
            QRectF r(12, kDeviceH - 25, w, 16);
            p->setPen(Qt::NoPen);
            p->setBrush(jc);
            p->drawRoundedRect(r, 7, 7);
            p->setPen(Qt::white);
            p->drawText(r, Qt::AlignCenter, text);
        }
        if (hovered_ || isSelected()) {
            p->setPen(QPen(accent, 1.5));
            p->setBrush(pal.base());
            p->drawEllipse(portRect().adjusted(3, 3, -3, -3));
        }
    }
    QVariant itemChange(GraphicsItemChange change, const QVariant& v) override {
        if (change == ItemPositionChange && !syncing_) {
            // Snap to a 10-px grid.
            const QPointF p = v.toPointF();
            return QPointF(std::round(p.x() / 10) * 10, std::round(p.y() / 10) * 10);
        }
        return QGraphicsItem::itemChange(change, v);
    }
    /// The port: a handle on the right edge; dragging from it draws a link.
    static QRectF portRect() { return {kDeviceW - 14, (kDeviceH - 6) / 2 - 8, 16, 16}; }
    void hoverEnterEvent(QGraphicsSceneHoverEvent* e) override {
        hovered_ = true;
        update();
        QGraphicsItem::hoverEnterEvent(e);
    }
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* e) override {
        hovered_ = false;
        update();
        QGraphicsItem::hoverLeaveEvent(e);
    }
    void mousePressEvent(QGraphicsSceneMouseEvent* e) override {
        if (e->button() == Qt::LeftButton && portRect().contains(e->pos())) {
            connecting_ = true;
            scene_->beginConnect(QString::fromStdString(id_), e->scenePos());
            e->accept();
            return;
        }
        for (auto* it : scene()->selectedItems())
            if (auto* di = dynamic_cast<DeviceItem*>(it))
                di->dragStart_ = di->pos();
        dragStart_ = pos();
        QGraphicsItem::mousePressEvent(e);
    }
    void mouseMoveEvent(QGraphicsSceneMouseEvent* e) override {
        if (connecting_) {
            scene_->updateConnect(e->scenePos());
            return;
        }
        QGraphicsItem::mouseMoveEvent(e);
    }
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* e) override {
        if (connecting_) {
            connecting_ = false;
            scene_->endConnect(e->scenePos());
            return;
        }
        QGraphicsItem::mouseReleaseEvent(e);
        scene_->commitMove();
    }

private:
    QString tooltip(const model::Device& d) const {
        const auto& c = scene_->document()->catalog();
        const double mult = scene_->document()->design().multiplicity(d);
        QString t = QStringLiteral("<b>%1</b><br>%2 × %3")
                        .arg(QString::fromStdString(d.name.empty() ? d.id : d.name).toHtmlEscaped())
                        .arg(QString::fromStdString(model::units::format_count(mult)))
                        .arg(QString::fromStdString(c.short_name(d.catalog)).toHtmlEscaped());
        if (const auto* s = c.system(d.catalog)) {
            // Which GPUs and their memory in all (helper-27: "8 GPUs" alone; the GPU's own
            // name often carries its size already).
            const auto* g = c.gpu(s->gpu);
            t += QObject::tr("<br>%1 × %2%3, %4 kW, $%L5 each")
                     .arg(s->gpus)
                     .arg(QString::fromStdString(g ? c.short_name(g->id) : s->gpu).toHtmlEscaped())
                     .arg(g ? QObject::tr(", %1 GPU memory in all")
                                  .arg(QString::fromStdString(
                                      model::units::format_bytes(g->memory_bytes * s->gpus)))
                            : QString())
                     .arg(s->power_w / 1e3, 0, 'f', 1)
                     .arg(s->price_usd, 0, 'f', 0);
        } else if (const auto* sw = c.switch_spec(d.catalog))
            t += QObject::tr("<br>%1 ports × %2%3")
                     .arg(sw->ports)
                     .arg(QString::fromStdString(
                         model::units::format_si(sw->port_rate_bps, "b/s", 0)))
                     .arg(sw->price_usd > 0
                              ? QObject::tr(", $%L1 each").arg(sw->price_usd, 0, 'f', 0)
                              : QString());
        else if (const auto* g = c.gpu(d.catalog))
            // A device without a sourced power figure (catalog 0) says so rather than "0 W".
            t += QObject::tr("<br>%1, %2")
                     .arg(QString::fromStdString(model::units::format_bytes(g->memory_bytes)))
                     .arg(g->tdp_w > 0 ? QObject::tr("%1 W").arg(g->tdp_w, 0, 'f', 0)
                                       : QObject::tr("power not in the catalog"));
        if (d.kind == model::DeviceKind::storage)
            t += QObject::tr("<br>%1 aggregate")
                     .arg(QString::fromStdString(
                         model::units::format_si(d.storage_bandwidth_Bps, "B/s")));
        if (!finding_.note.empty())
            t += QStringLiteral("<br>⚠ ") + QString::fromStdString(finding_.note).toHtmlEscaped();
        t +=
            QObject::tr("<br><i>Drag the port on the right edge to another device to connect.</i>");
        return t;
    }
    CanvasScene* scene_;
    std::string id_;
    model::DeviceKind kind_ = model::DeviceKind::system;
    model::DeviceFinding finding_;
    QPointF dragStart_;
    bool syncing_ = false;
    bool hovered_ = false;
    bool connecting_ = false;
};

/// A group (pod, row, rack) drawn as a dashed frame around its members, labelled with its
/// replica count. Its geometry follows the members; it holds no state of its own.
class GroupItem : public QGraphicsItem {
public:
    GroupItem(CanvasScene* scene, std::string id) : scene_(scene), id_(std::move(id)) {
        setZValue(-2);
        setFlag(ItemIsSelectable);
    }
    [[nodiscard]] const std::string& id() const { return id_; }
    QRectF boundingRect() const override {
        return rect_.adjusted(-4, -24, std::max(4.0, 360.0 - rect_.width()), 4);
    }
    /// `members`: the bounds of the group's direct members and their number (the scene finds
    /// them for all groups in one pass).
    void sync(QRectF r, int members) {
        const auto& d = scene_->document()->design();
        const auto* g = d.device(id_);
        if (r.isNull() && g)
            r = QRectF(g->position.x, g->position.y, kDeviceW, kDeviceH);
        collapsed_ = scene_->isCollapsed(id_);
        if (collapsed_) // one compact card at the members' top-left corner
            r = QRectF(r.topLeft(), QSizeF(kDeviceW, kDeviceH));
        prepareGeometryChange();
        rect_ = r.adjusted(-16, -16, 16, 16);
        setZValue(collapsed_ ? 0.5 : -2); // a collapsed card sits above its links
        members_ = members;
        if (g)
            cardTitle_ = QStringLiteral("× %1  %2")
                             .arg(g->count)
                             .arg(QString::fromStdString(g->name.empty() ? g->id : g->name));
        if (g)
            label_ = QStringLiteral("%1  × %2")
                         .arg(QString::fromStdString(g->name.empty() ? g->id : g->name))
                         .arg(g->count);
        setToolTip(collapsed_ ? QObject::tr("Double-click to expand")
                              : QObject::tr("Double-click to collapse"));
        update();
    }
    [[nodiscard]] QPointF anchor() const { return rect_.center(); }
    [[nodiscard]] const QRectF& frame() const { return rect_; }
    [[nodiscard]] bool collapsed() const { return collapsed_; }

protected:
    void paint(QPainter* p, const QStyleOptionGraphicsItem* opt, QWidget*) override {
        const auto& pal = scene_->palette();
        if (opt->levelOfDetailFromTransform(p->worldTransform()) < kFarDetail) {
            // Far out: a plain outline (no text, no antialiasing) keeps large designs fast.
            p->setPen(QPen(isSelected() ? pal.highlight().color() : pal.mid().color(), 0));
            p->setBrush(collapsed_ ? pal.base() : QBrush(Qt::NoBrush));
            p->drawRect(rect_);
            return;
        }
        p->setRenderHint(QPainter::Antialiasing);
        QPen pen(isSelected() ? pal.highlight().color() : pal.mid().color(),
                 isSelected() ? 2.5 : 1.5);
        pen.setStyle(Qt::DashLine);
        p->setPen(pen);
        p->setBrush(Qt::NoBrush);
        if (collapsed_) {
            // A card: name and replica count inside, what it hides below.
            pen.setStyle(Qt::SolidLine);
            p->setPen(pen);
            p->setBrush(pal.base());
            p->drawRoundedRect(rect_, 12, 12);
            p->setPen(pal.text().color());
            QFont f = p->font();
            f.setBold(true);
            p->setFont(f);
            const QRectF inner = rect_.adjusted(12, 8, -12, -8);
            p->drawText(
                QRectF(inner.left(), inner.top(), inner.width(), 24),
                Qt::AlignLeft | Qt::AlignVCenter,
                p->fontMetrics().elidedText(cardTitle_, Qt::ElideRight, int(inner.width())));
            f.setBold(false);
            p->setFont(f);
            p->setPen(pal.placeholderText().color());
            p->drawText(
                QRectF(inner.left(), inner.top() + 28, inner.width(), 44),
                Qt::AlignLeft | Qt::TextWordWrap,
                QObject::tr("%1 device types inside · double-click to expand").arg(members_));
            return;
        }
        p->drawRoundedRect(rect_, 12, 12);
        p->setPen(pal.text().color());
        QFont f = p->font();
        f.setBold(true);
        p->setFont(f);
        p->drawText(QRectF(rect_.left() + 8, rect_.top() - 22, std::max(rect_.width(), 350.0), 20),
                    Qt::AlignLeft | Qt::AlignVCenter, label_);
    }

    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent*) override {
        scene_->toggleCollapsed(QString::fromStdString(id_));
    }

private:
    CanvasScene* scene_;
    std::string id_;
    QRectF rect_;
    QString label_;
    bool collapsed_ = false;
    int members_ = 0;
    QString cardTitle_;
};

/// A link between two device groups: a line labelled with type and count.
class LinkItem : public QGraphicsItem {
    static constexpr double kPickPx = 30;

public:
    LinkItem(CanvasScene* scene, std::string id) : scene_(scene), id_(std::move(id)) {
        setZValue(-1);
        setFlag(ItemIsSelectable);
        setFlag(ItemUsesExtendedStyleOption); // exposedRect: long links draw only what shows
    }
    [[nodiscard]] const std::string& id() const { return id_; }
    QRectF boundingRect() const override {
        return QRectF(a_, b_).normalized().adjusted(-60, -60, 60, 60).united(labelRect());
    }
    /// Where the label (type and count) is drawn close up: part of what a click picks.
    [[nodiscard]] QRectF labelRect() const {
        const QPointF mid = (a_ + b_) / 2;
        return {mid.x() - 120, mid.y() - 9, 240, 18};
    }
    /// The line itself, not its bounding box: a long link's box covers whole regions
    /// of a large design, so clicks and rubber bands in the gaps between devices picked links.
    /// A click within kPickPx screen pixels of the line picks it at any zoom (6 to 60 scene
    /// units, the bounding box's margin): a person aims near a line, not on its 2 px; with a
    /// 12-unit band gui-poke's click grid no longer found the preset's link.
    QPainterPath shape() const override {
        double half = 6.0;
        if (const auto views = scene()->views(); !views.isEmpty())
            if (const double s = views.front()->transform().m11(); s > 0)
                half = std::clamp(kPickPx / s, 6.0, 60.0);
        // The band and the label, as two polygons of the same orientation under the winding
        // rule: their union (opposite orientations would cut a hole where they overlap).
        const QPolygonF label(labelRect());
        QPolygonF band;
        const QLineF l(a_, b_);
        if (l.length() > 0) {
            const QPointF n = QPointF(-l.dy(), l.dx()) / l.length() * half;
            band = QPolygonF{a_ + n, b_ + n, b_ - n, a_ - n, a_ + n};
        } else {
            band = QPolygonF(QRectF(a_.x() - half, a_.y() - half, 2 * half, 2 * half));
        }
        const auto area = [](const QPolygonF& poly) {
            double twice = 0;
            for (int i = 0; i + 1 < poly.size(); ++i)
                twice += poly[i].x() * poly[i + 1].y() - poly[i + 1].x() * poly[i].y();
            return twice;
        };
        if ((area(band) > 0) != (area(label) > 0))
            std::reverse(band.begin(), band.end());
        QPainterPath path;
        path.setFillRule(Qt::WindingFill);
        path.addPolygon(band);
        path.addPolygon(label);
        return path;
    }
    void sync() {
        const auto* l = scene_->document()->design().link(id_);
        if (!l)
            return;
        const auto line = scene_->linkLine(*l);
        if (!line)
            return;
        prepareGeometryChange();
        a_ = line->p1();
        b_ = line->p2();
        setVisible(a_ != b_); // both ends in the same collapsed group
        label_.clear(); // built when first drawn close up (label()): 100,000 links load faster
        if (!toolTip().isEmpty()) // built when hovered (refreshToolTip)
            setToolTip({});
        update();
    }
    /// "4 × InfiniBand NDR 4x (50 GB/s)": count, type and bandwidth, from the design.
    const QString& label() {
        if (!label_.isEmpty())
            return label_;
        const auto* l = scene_->document()->design().link(id_);
        if (!l)
            return label_;
        label_ = QStringLiteral("%1 × %2").arg(l->count).arg(
            QString::fromStdString(scene_->document()->catalog().short_name(l->type)));
        if (const auto* type = scene_->document()->catalog().link(l->type))
            label_ += QStringLiteral(" (%1)").arg(QString::fromStdString(
                model::units::format_si(type->bandwidth_unidir_Bps, "B/s", 0)));
        return label_;
    }
    /// The scene calls it just before Qt shows the tooltip (plain text: it holds file text).
    void refreshToolTip() {
        QString tip = finding_.note.empty() ? label() : QString::fromStdString(finding_.note);
        if (!loadNote_.isEmpty())
            tip += QLatin1Char('\n') + loadNote_;
        setToolTip(plainTip(tip));
    }
    [[nodiscard]] QLineF line() const { return {a_, b_}; }
    /// Issue 22: the share of the shown workload's step this link is busy (-1: not shown).
    void setLoad(double busy, const QString& note) {
        if (busy == load_ && note == loadNote_)
            return;
        load_ = busy;
        loadNote_ = note;
        if (!toolTip().isEmpty())
            setToolTip({});
        update();
    }
    [[nodiscard]] double load() const { return load_; }
    [[nodiscard]] bool bottleneck() const { return finding_.bottleneck; }
    /// What the evaluation found about this link (core/model/findings.h); null: nothing.
    void setFinding(const model::LinkFinding* f) {
        finding_ = f ? *f : model::LinkFinding{};
        if (!toolTip().isEmpty())
            setToolTip({});
        update();
    }

protected:
    void paint(QPainter* p, const QStyleOptionGraphicsItem* opt, QWidget*) override {
        const auto& pal = scene_->palette();
        // Only the part of the line inside the exposed area is stroked: a link across a large
        // design otherwise costs a full-length antialiased stroke for a few visible pixels.
        const QRectF exposed = opt->exposedRect.adjusted(-8, -8, 8, 8);
        const std::optional<QLineF> seg = clipLine(QLineF(a_, b_), exposed);
        if (opt->levelOfDetailFromTransform(p->worldTransform()) < kFarDetail) {
            // Far out: a hairline in the link's load colour (or red for a bottleneck); the
            // label is unreadable at this size.
            if (!seg)
                return;
            p->setPen(QPen(isSelected()
                               ? pal.highlight().color()
                               : linkColour(linkColourClass(load_, finding_.bottleneck), pal),
                           0));
            p->drawLine(*seg);
            return;
        }
        p->setRenderHint(QPainter::Antialiasing);
        // Uplinks of an oversubscribed tier are the fabric's bottleneck: drawn in red.
        // Issue 22: while a workload's load is shown, colour means load only (the legend's
        // thresholds, thicker the busier); an oversubscribed uplink it does not use is grey (its
        // tooltip still says it is oversubscribed).
        const QColor lineColor = linkColour(linkColourClass(load_, finding_.bottleneck), pal);
        int width = 2;
        if (load_ > 0)
            width = 3 + static_cast<int>(std::lround(4 * std::min(1.0, load_)));
        else if (load_ < 0 && finding_.bottleneck)
            width = 4;
        if (seg) {
            p->setPen(QPen(isSelected() ? pal.highlight().color() : lineColor, width));
            p->drawLine(*seg);
        }
        const QRectF r = labelRect();
        if (!r.intersects(opt->exposedRect))
            return;
        p->setPen(pal.text().color());
        // The count first and whole: a label wider than its box is cut at its end (helper-22: a
        // centred "8 × InfiniBand NDR 4x (50 GB/s)" lost its count to the box's left edge).
        const QString text =
            p->fontMetrics().elidedText(label(), Qt::ElideRight, static_cast<int>(r.width()) - 6);
        const QRectF box =
            r.adjusted((r.width() - p->fontMetrics().horizontalAdvance(text) - 8) / 2, 0,
                       -(r.width() - p->fontMetrics().horizontalAdvance(text) - 8) / 2, 0);
        p->fillRect(box, pal.window());
        p->drawText(box, Qt::AlignCenter, text);
    }

private:
    CanvasScene* scene_;
    std::string id_;
    QPointF a_, b_;
    QString label_;
    model::LinkFinding finding_;
    double load_ = -1;
    QString loadNote_;
};

/// A workload card: model, layout and the memory verdict from the evaluation.
class WorkloadItem : public QGraphicsObject {
public:
    WorkloadItem(CanvasScene* scene, std::string id) : scene_(scene), id_(std::move(id)) {
        setFlags(ItemIsSelectable | ItemIsMovable);
    }
    [[nodiscard]] const std::string& id() const { return id_; }
    QRectF boundingRect() const override { return {-2, -2, 244, 128}; }
    void sync() {
        const auto* w = scene_->document()->design().workload(id_);
        if (!w)
            return;
        setPos(w->position.x, w->position.y);
        update();
    }
    /// What the evaluation found about this workload (core/model/findings.h).
    void setFinding(const model::WorkloadFinding* f) {
        finding_ = f ? *f : model::WorkloadFinding{};
        if (finding_.verdict.empty())
            finding_.verdict = tr("not evaluated").toStdString();
        // The full name first: the card cuts long names (issue 21).
        const auto* w = scene_->document()->design().workload(id_);
        setToolTip(plainTip(
            (w ? QString::fromStdString(w->name.empty() ? w->id : w->name) + QLatin1Char('\n')
               : QString()) +
            QString::fromStdString(finding_.tooltip)));
        update();
    }
    QPointF dragStart;

protected:
    void paint(QPainter* p, const QStyleOptionGraphicsItem* opt, QWidget*) override {
        const auto* w = scene_->document()->design().workload(id_);
        if (!w)
            return;
        const auto& pal = scene_->palette();
        p->setRenderHint(QPainter::Antialiasing);
        QColor status(0x9c, 0xa3, 0xaf);
        switch (finding_.status) {
        case model::WorkloadStatus::fits:
            status = QColor(0x16, 0xa3, 0x4a);
            break;
        case model::WorkloadStatus::does_not_fit:
            status = QColor(0xdc, 0x26, 0x26);
            break;
        case model::WorkloadStatus::error:
            status = QColor(0xd9, 0x77, 0x06);
            break;
        case model::WorkloadStatus::not_evaluated:
            break;
        }
        p->setPen(QPen(isSelected() ? pal.highlight().color() : status, isSelected() ? 3 : 2));
        p->setBrush(pal.base());
        p->drawRoundedRect(QRectF(0, 0, 240, 124), 10, 10);
        if (opt && opt->levelOfDetailFromTransform(p->worldTransform()) < kTextDetail) {
            // Far out the card's 9-pt text is a few pixels high: its name and headline numbers
            // at a size people read instead (helper-6).
            drawFarName(p, QRectF(4, 4, 232, 58),
                        QString::fromStdString(w->name.empty() ? w->id : w->name),
                        pal.text().color());
            // The headline numbers without their bands, broken only between them (helper-17:
            // "step 10.3 s (7.44–12.9" / "s) · MFU"); the near card and the tooltip have the
            // bands.
            QString metrics = QString::fromStdString(finding_.metrics);
            QStringList parts = metrics.split(QStringLiteral(" · "));
            static const QRegularExpression band(QStringLiteral(" \\([^)]*\\)"));
            for (QString& part : parts)
                part.remove(band).replace(QLatin1Char(' '), QChar(0x00A0));
            metrics = parts.join(QStringLiteral(" · "));
            // No numbers (the layout does not run, or was not evaluated): what the verdict says,
            // in the status colour, rather than a card with a title only (helper-20, session 31:
            // TP 3 on the 16k preset left the far card blank).
            if (metrics.isEmpty())
                metrics = QString::fromStdString(finding_.verdict);
            drawFarName(p, QRectF(4, 62, 232, 58), metrics, status.darker(130), false);
            return;
        }
        // Problem badge (a TP group larger than the scale-up domain, GPUs shared with another
        // service), as wide as its text, top right; the name takes the width left of it.
        QFont f = p->font();
        qreal titleW = 220;
        if (!finding_.badge.empty()) {
            QFont sf = f;
            sf.setPointSizeF(sf.pointSizeF() * 0.85);
            p->setFont(sf);
            const QString text = QString::fromStdString(finding_.badge);
            const qreal bw = std::min<qreal>(150, p->fontMetrics().horizontalAdvance(text) + 14);
            const QRectF r(234 - bw, 5, bw, 18);
            p->setPen(Qt::NoPen);
            p->setBrush(QColor(0xd9, 0x77, 0x06));
            p->drawRoundedRect(r, 8, 8);
            p->setPen(Qt::white);
            p->drawText(
                r, Qt::AlignCenter,
                p->fontMetrics().elidedText(text, Qt::ElideRight, static_cast<int>(bw) - 8));
            titleW = r.left() - 14;
            p->setFont(f);
        }
        p->setPen(pal.text().color());
        f.setBold(true);
        p->setFont(f);
        drawFitted(p, QRectF(10, 4, titleW, 22), Qt::AlignLeft | Qt::AlignVCenter,
                   QString::fromStdString(w->name.empty() ? w->id : w->name));
        f.setBold(false);
        p->setFont(f);
        p->setPen(pal.placeholderText().color());
        drawFitted(p, QRectF(10, 26, 220, 18), Qt::AlignLeft | Qt::AlignVCenter,
                   QString::fromStdString(finding_.layout));
        // The metrics on one line, or on two split at a " · " when one is too short (issue 21:
        // "11,431 tok/s, 8,513–15,771 · TPOT …" was cut); the verdict takes the rest, clipped
        // to its box (the tooltip has it whole).
        QStringList metrics;
        if (!finding_.metrics.empty()) {
            const QString m = QString::fromStdString(finding_.metrics);
            const QFontMetrics fm = p->fontMetrics();
            if (fm.horizontalAdvance(m) <= 220) {
                metrics << m;
            } else {
                const QStringList parts = m.split(QStringLiteral(" · "));
                QString first = parts.front();
                int i = 1;
                while (i < parts.size() &&
                       fm.horizontalAdvance(first + QStringLiteral(" · ") + parts[i]) <= 220)
                    first += QStringLiteral(" · ") + parts[i++];
                metrics << first << parts.mid(i).join(QStringLiteral(" · "));
            }
        }
        // Without metrics (a refused workload) the verdict has the card down to its edge.
        const qreal verdictBottom = metrics.empty() ? 118 : metrics.size() > 1 ? 84 : 100;
        p->setPen(status);
        {
            // Whole lines only, paragraph by paragraph (two errors are two lines of the verdict,
            // and a newline inside one drawn line put "heads" over "Layers in system memory":
            // helper-13); too long, without its parenthetical asides (the parts of a memory
            // total, the reason behind a refusal: helper-16's "(model states 36.1 GB +
            // activatio…" in a report's picture, where no tooltip helps), else cut (fitLines).
            const QFontMetrics fm = p->fontMetrics();
            const int room = static_cast<int>((verdictBottom - 46) / fm.lineSpacing());
            const QStringList lines =
                fitLines(QString::fromStdString(finding_.verdict), fm, 220, room);
            for (int i = 0; i < lines.size(); ++i)
                p->drawText(QRectF(10, 46 + i * fm.lineSpacing(), 220, fm.lineSpacing()),
                            Qt::AlignLeft | Qt::AlignVCenter, lines[i]);
        }
        p->setPen(pal.text().color());
        for (int i = 0; i < metrics.size(); ++i)
            drawFitted(p, QRectF(10, verdictBottom + 18 * i, 220, 18),
                       Qt::AlignLeft | Qt::AlignVCenter, metrics[i]);
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
    model::WorkloadFinding finding_;
};

CanvasScene::CanvasScene(doc::Document* doc, QObject* parent)
    : QGraphicsScene(parent), doc_(doc), pruneTimer_(new QTimer(this)) {
    setSceneRect(-2000, -2000, 4000, 4000);
    // No BSP index: links span long distances, and a BSP tree files each one under every
    // leaf it crosses (100,000 links took 3 GB and 20 s to first paint). A linear scan of the
    // items per paint or click stays in milliseconds; on a large design only the items near
    // the view exist anyway (setLiveRegion).
    setItemIndexMethod(QGraphicsScene::NoIndex);
    pruneTimer_->setSingleShot(true);
    pruneTimer_->setInterval(100);
    connect(pruneTimer_, &QTimer::timeout, this, &CanvasScene::prune);
    // A deselected entity far from the view gives its item back.
    connect(this, &QGraphicsScene::selectionChanged, this, &CanvasScene::schedulePrune);
    // Issue 22: selecting a training workload colours the links by its traffic.
    connect(this, &QGraphicsScene::selectionChanged, this, [this] {
        const std::string before = loadWorkload_;
        updateLoadWorkload();
        if (loadWorkload_ != before) {
            farDirty_ = true; // far-out link colours
            applyFindings();
            for (auto* v : views())
                v->viewport()->update();
        }
    });
    connect(doc_, &doc::Document::changed, this, &CanvasScene::sync);
    rebuild();
}

void CanvasScene::rebuild() {
    clear();
    devices_.clear();
    workloads_.clear();
    links_.clear();
    groups_.clear();
    groupById_.clear();
    hiddenMemo_.clear();
    farDirty_ = true;
    const auto& d = doc_->design();
    large_ = d.devices.size() + d.links.size() >= kLargeDesignItems;
    for (const auto& dev : d.devices) {
        if (dev.kind == model::DeviceKind::group) {
            auto* g = new GroupItem(this, dev.id);
            addItem(g);
            groups_.push_back(g);
            groupById_[dev.id] = g;
            if (!hiddenBy(dev.id).empty())
                g->setVisible(false);
        }
    }
    syncGroups();
    if (large_) {
        // A virtual canvas: items only for what the view shows (the selection is restored by
        // the caller through selectIds, which gives the selected entities theirs).
        materialize(live_);
    } else {
        devices_.reserve(d.devices.size());
        links_.reserve(d.links.size());
        for (const auto& dev : d.devices)
            if (dev.kind != model::DeviceKind::group && hiddenBy(dev.id).empty())
                addDeviceItem(dev.id);
        for (const auto& l : d.links)
            addLinkItem(l.id);
    }
    for (const auto& w : d.workloads) {
        auto* item = new WorkloadItem(this, w.id);
        addItem(item);
        item->sync();
        workloads_[w.id] = item;
    }
    applyFindings(); // the last evaluation's, until this design's arrives
    growSceneRect();
    // Far out the picture comes from the design, not from items: a rebuild that makes no item
    // (an undone Delete far out) must still repaint the views.
    update();
}

DeviceItem* CanvasScene::addDeviceItem(const std::string& id) {
    auto* item = new DeviceItem(this, id);
    addItem(item);
    item->sync();
    devices_[id] = item;
    if (eval_) {
        const auto& f = eval_->findings.devices;
        const auto it = f.find(id);
        item->setFinding(it == f.end() ? nullptr : &it->second);
    }
    return item;
}

LinkItem* CanvasScene::addLinkItem(const std::string& id) {
    auto* item = new LinkItem(this, id);
    addItem(item);
    item->sync();
    links_[id] = item;
    if (eval_) {
        const auto& f = eval_->findings.links;
        const auto it = f.find(id);
        item->setFinding(it == f.end() ? nullptr : &it->second);
        if (!loadWorkload_.empty())
            if (const auto load = model::link_load(*eval_, loadWorkload_, id))
                item->setLoad(load->busy, QString::fromStdString(load->note));
    }
    return item;
}

QRectF CanvasScene::FarDevice::rect() const {
    return DeviceItem::farRect().translated(x, y);
}

std::optional<QLineF> CanvasScene::linkLine(const model::Link& l) const {
    const auto& d = doc_->design();
    const auto* from = d.device(l.from);
    const auto* to = d.device(l.to);
    if (!from || !to)
        return std::nullopt;
    // Inside a collapsed group, a device's links end at the group's card.
    const auto anchor = [&](const model::Device& dev) {
        const QPointF own(dev.position.x + kDeviceW / 2, dev.position.y + kDeviceH / 2);
        const std::string g = hiddenBy(dev.id);
        if (g.empty())
            return own;
        if (const GroupItem* gi = groupItem(g))
            return gi->anchor();
        return own;
    };
    return QLineF(anchor(*from), anchor(*to));
}

void CanvasScene::ensureFarCache() const {
    if (!farDirty_)
        return;
    farDirty_ = false;
    farDevices_.clear();
    farLinks_.clear();
    const auto& d = doc_->design();
    const auto bucket = [](model::DeviceKind k) -> std::uint8_t {
        return k == model::DeviceKind::switch_ ? 1 : k == model::DeviceKind::gpu ? 2 : 0;
    };
    farDevices_.reserve(d.devices.size());
    for (std::size_t i = 0; i < d.devices.size(); ++i) {
        const auto& dev = d.devices[i];
        if (dev.kind == model::DeviceKind::group || !hiddenBy(dev.id).empty())
            continue;
        farDevices_.push_back({static_cast<float>(dev.position.x),
                               static_cast<float>(dev.position.y), static_cast<std::uint32_t>(i),
                               bucket(dev.kind)});
    }
    const std::map<std::string, model::LinkFinding> none;
    const auto& findings = eval_ ? eval_->findings.links : none;
    farLinks_.reserve(d.links.size());
    for (std::size_t i = 0; i < d.links.size(); ++i) {
        const auto line = linkLine(d.links[i]);
        if (!line || line->p1() == line->p2())
            continue;
        const auto f = findings.find(d.links[i].id);
        // Issue 22: far out too, links show the shown workload's load (or the bottleneck).
        const auto load = eval_ && !loadWorkload_.empty()
                              ? model::link_load(*eval_, loadWorkload_, d.links[i].id)
                              : std::optional<model::LinkLoad>{};
        farLinks_.push_back({static_cast<float>(line->x1()), static_cast<float>(line->y1()),
                             static_cast<float>(line->x2()), static_cast<float>(line->y2()),
                             static_cast<std::uint32_t>(i),
                             linkColourClass(load ? load->busy : -1.0,
                                             f != findings.end() && f->second.bottleneck)});
    }
}

QRectF CanvasScene::designBounds() const {
    if (!large_)
        return itemsBoundingRect();
    ensureFarCache();
    QRectF r;
    for (const auto& fd : farDevices_)
        r = r.isNull() ? fd.rect() : r.united(fd.rect());
    for (const auto* g : groups_)
        if (g->isVisible())
            r = r.united(g->sceneBoundingRect());
    for (const auto& [id, w] : workloads_)
        r = r.united(w->sceneBoundingRect());
    // The items that exist (a device being dragged is ahead of the design).
    for (const auto& [id, item] : devices_)
        r = r.united(item->sceneBoundingRect());
    return r;
}

void CanvasScene::setLiveRegion(const QRectF& r) {
    live_ = r;
    if (!large_)
        return;
    materialize(live_);
    schedulePrune();
}

void CanvasScene::materialize(const QRectF& r) {
    if (!large_ || r.isEmpty())
        return;
    ensureFarCache();
    const auto& d = doc_->design();
    // A device's item box is its block plus the 4-unit selection margin; a link is picked up to
    // 60 units from its line and carries its label (180 x 18) at the middle.
    const QRectF forDevices = r.adjusted(-8, -8, 8, 8);
    const QRectF forLinks = r.adjusted(-100, -100, 100, 100);
    for (const auto& fd : farDevices_)
        if (fd.rect().intersects(forDevices)) {
            const std::string& id = d.devices[fd.index].id;
            if (!devices_.count(id))
                addDeviceItem(id);
        }
    for (const auto& fl : farLinks_)
        if (clipLine(fl.line(), forLinks)) {
            const std::string& id = d.links[fl.index].id;
            if (!links_.count(id))
                addLinkItem(id);
        }
}

void CanvasScene::materializeAt(QPointF scenePos) {
    // Links are picked up to 60 units away (LinkItem::shape); devices under the point.
    materialize(QRectF(scenePos - QPointF(70, 70), QSizeF(140, 140)));
}

void CanvasScene::schedulePrune() {
    if (large_)
        pruneTimer_->start();
}

void CanvasScene::prune() {
    if (!large_)
        return;
    if (mouseGrabberItem()) { // a drag in progress: its items stay until it ends
        pruneTimer_->start();
        return;
    }
    // Hysteresis: items are dropped only well outside the region they were made for, so a
    // view scrolling to and fro does not make and drop the same items.
    const QRectF keep = live_.isEmpty() ? QRectF()
                                        : live_.adjusted(-live_.width() / 2, -live_.height() / 2,
                                                         live_.width() / 2, live_.height() / 2);
    const auto stays = [&](const QGraphicsItem* it) {
        return it->isSelected() || (!keep.isEmpty() && it->sceneBoundingRect().intersects(keep));
    };
    // Device and link items are kept in two maps of the same shape: one pass serves both.
    const auto leaving = [&](const auto& items) {
        return std::count_if(items.begin(), items.end(),
                             [&](const auto& entry) { return !stays(entry.second); });
    };
    const auto drop = [&](auto& items) {
        std::erase_if(items, [&](const auto& entry) {
            if (stays(entry.second))
                return false;
            delete entry.second;
            return true;
        });
    };
    const auto going = static_cast<std::size_t>(leaving(devices_) + leaving(links_));
    if (going > 2000 && going > (devices_.size() + links_.size()) / 2) {
        // Many at once (after Select All, Esc): Qt removes items one by one from a linear list
        // (quadratic: 200,000 took 10 s); a rebuild clears them in one pass and makes only
        // what stays, the selection kept without a selectionChanged (it did not change).
        const QStringList keepSelected = selectedIds();
        const QSignalBlocker quiet(this);
        rebuild();
        selectIds(keepSelected, /*notify=*/false);
        return;
    }
    drop(devices_);
    drop(links_);
}

void CanvasScene::selectAll() {
    if (large_)
        materialize(designBounds().adjusted(-200, -200, 200, 200));
    {
        const QSignalBlocker quiet(this); // one selectionChanged, not one per item
        for (auto* it : items())
            if (it->flags() & QGraphicsItem::ItemIsSelectable)
                it->setSelected(true);
    }
    emit selectionChanged();
}

void CanvasScene::renderDesign(QPainter* p, const QRectF& target, const QRectF& source) {
    if (!large_) {
        render(p, target, source, Qt::KeepAspectRatio);
        return;
    }
    const double s = std::min(target.width() / std::max(1.0, source.width()),
                              target.height() / std::max(1.0, source.height()));
    p->save();
    p->translate(target.center());
    p->scale(s, s);
    p->translate(-source.center());
    paintFar(p, source);
    p->restore();
}

QString CanvasScene::idOf(const QGraphicsItem* item) {
    if (const auto* d = dynamic_cast<const DeviceItem*>(item))
        return QString::fromStdString(d->id());
    if (const auto* l = dynamic_cast<const LinkItem*>(item))
        return QString::fromStdString(l->id());
    if (const auto* g = dynamic_cast<const GroupItem*>(item))
        return QString::fromStdString(g->id());
    if (const auto* w = dynamic_cast<const WorkloadItem*>(item))
        return QString::fromStdString(w->id());
    return {};
}

void CanvasScene::paintFar(QPainter* p, const QRectF& exposed) const {
    // Far out, a large design is a picture of blocks and hairlines: drawn here in one batch per
    // colour from the design's geometry (ensureFarCache), not from items: on a large design
    // only the entities near the view, the selected ones and those under the pointer have
    // items. Qt's per-item painting costs about 6 us and ~1.3 KB of bookkeeping per painted
    // item: 1.2 s and 265 MB for the first frame of 100,000 devices.
    ensureFarCache();
    const auto& d = doc_->design();
    const auto& pal = palette();
    p->save();
    p->setRenderHint(QPainter::Antialiasing, false);
    // What is selected has an item; it is drawn from the item (a drag moves it ahead of the
    // design), in the selection colour, on top.
    std::unordered_set<std::string_view> selected;
    for (const auto& [id, item] : devices_)
        if (item->isSelected())
            selected.insert(item->id());
    for (const auto& [id, item] : links_)
        if (item->isSelected())
            selected.insert(item->id());

    QVector<QRectF> frames, cards, selectedFrames;
    for (const auto* g : groups_) {
        if (!g->isVisible() || !g->frame().intersects(exposed))
            continue;
        (g->isSelected() ? selectedFrames : g->collapsed() ? cards : frames).push_back(g->frame());
    }
    p->setPen(QPen(pal.mid().color(), 0));
    p->setBrush(Qt::NoBrush);
    p->drawRects(frames);
    p->setBrush(pal.base());
    p->drawRects(cards);
    p->setPen(QPen(pal.highlight().color(), 0));
    p->setBrush(Qt::NoBrush);
    p->drawRects(selectedFrames);

    // One batch per link colour class (linkColourClass), selected links last.
    std::array<QVector<QLineF>, 4> lines;
    QVector<QLineF> selectedLines;
    for (const auto& fl : farLinks_) {
        if (!selected.empty() && selected.count(d.links[fl.index].id))
            continue;
        if (const auto seg = clipLine(fl.line(), exposed))
            lines[std::min<std::size_t>(fl.colour, 3)].push_back(*seg);
    }
    for (const auto& [id, item] : links_)
        if (item->isSelected() && item->isVisible())
            if (const auto seg = clipLine(item->line(), exposed))
                selectedLines.push_back(*seg);
    for (std::uint8_t c = 0; c < 4; ++c) {
        p->setPen(QPen(linkColour(c, pal), 0));
        p->drawLines(lines[c]);
    }
    p->setPen(QPen(pal.highlight().color(), 0));
    p->drawLines(selectedLines);

    // One bucket per device kind's colour, selected devices last (on top).
    std::array<QVector<QRectF>, 3> blocks;
    QVector<QRectF> selectedBlocks;
    for (const auto& fd : farDevices_) {
        const QRectF r = fd.rect();
        if (!r.intersects(exposed))
            continue;
        if (!selected.empty() && selected.count(d.devices[fd.index].id))
            continue;
        blocks[fd.bucket].push_back(r);
    }
    // A selected device stays findable however far out: at least 8 x 8 screen pixels.
    const double scale = std::max(1e-9, std::abs(p->worldTransform().m11()));
    const double least = 8 / scale;
    for (const auto& [id, item] : devices_) {
        if (!item->isSelected() || !item->isVisible())
            continue;
        QRectF r = DeviceItem::farRect().translated(item->pos());
        if (r.width() < least || r.height() < least)
            r = QRectF(r.center() -
                           QPointF(std::max(r.width(), least) / 2, std::max(r.height(), least) / 2),
                       QSizeF(std::max(r.width(), least), std::max(r.height(), least)));
        if (r.intersects(exposed))
            selectedBlocks.push_back(r);
    }
    p->setPen(Qt::NoPen);
    const model::DeviceKind kinds[] = {model::DeviceKind::system, model::DeviceKind::switch_,
                                       model::DeviceKind::gpu};
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        p->setBrush(accentFor(kinds[i]));
        p->drawRects(blocks[i]);
    }
    // Names inside the blocks when the blocks are large enough on the screen to read them and
    // few enough to label quickly (a zoomed-out 100,000-device design has blocks of a pixel).
    if (const QRectF one = p->worldTransform().mapRect(DeviceItem::farRect());
        one.width() >= 40 && one.height() >= 12) {
        int labelled = 0;
        for (const auto& fd : farDevices_) {
            if (labelled >= 500)
                break;
            const QRectF r = fd.rect();
            if (!r.intersects(exposed))
                continue;
            labelled += drawFarName(p, r, farName(d.devices[fd.index]), Qt::white);
        }
    }
    // Selected: the selection colour with a dark outline (the highlight is close to the blue of
    // servers far out).
    p->setBrush(pal.highlight());
    p->setPen(QPen(pal.text().color(), 0));
    p->drawRects(selectedBlocks);
    p->restore();

    // The few items above the design (workload cards, a link being drawn) paint themselves.
    QStyleOptionGraphicsItem opt;
    const auto paintItem = [&](QGraphicsItem* it) {
        if (!it || !it->isVisible() || !it->sceneBoundingRect().intersects(exposed))
            return;
        p->save();
        p->setTransform(it->sceneTransform(), true);
        opt.exposedRect = it->boundingRect();
        opt.state = it->isSelected() ? QStyle::State_Selected : QStyle::State_None;
        it->paint(p, &opt, nullptr);
        p->restore();
    };
    for (const auto& [id, item] : workloads_)
        paintItem(item);
    paintItem(rubberLink_);
}

void CanvasScene::growSceneRect() {
    // The scrollable area covers every item with a margin (a generated design can span
    // 100,000 px); it only grows, so the view does not jump while a drag shrinks it.
    setSceneRect(sceneRect().united(designBounds().adjusted(-400, -400, 400, 400)));
}

void CanvasScene::sync(const doc::ChangeEvent& e) {
    switch (e.type) {
    case doc::ChangeEvent::Reset:
    case doc::ChangeEvent::Structure: {
        // Entities came or went: rebuild, keeping what was selected and still exists.
        // One selectionChanged for the whole rebuild: destroying k selected items emits it k
        // times, and each made the inspector look every selected id up again (a rubber band
        // of a few hundred items deleted from a 100,000-device design hung the window).
        const QStringList keep = selectedIds();
        {
            const QSignalBlocker quiet(this);
            rebuild();
            if (!keep.isEmpty())
                selectIds(keep);
        }
        if (!keep.isEmpty())
            emit selectionChanged();
        return;
    }
    case doc::ChangeEvent::Settings:
        return; // design-wide data: items repaint when the evaluation arrives
    case doc::ChangeEvent::Moved:
    case doc::ChangeEvent::Properties:
        break;
    }
    // Only the named items change; links and group frames follow their devices.
    hiddenMemo_.clear();
    farDirty_ = true;
    if (large_)
        update(); // the far picture (items far from the view do not exist to repaint)
    bool devices = false;
    for (const auto& id : e.ids) {
        const std::string sid = id.toStdString();
        if (auto it = devices_.find(sid); it != devices_.end()) {
            it->second->sync();
            devices = true;
        } else if (auto wt = workloads_.find(sid); wt != workloads_.end()) {
            wt->second->sync();
        } else if (doc_->design().device(sid)) {
            devices = true; // a group or a hidden device
        }
    }
    for (auto& [id, l] : links_)
        if (devices || e.ids.contains(QString::fromStdString(id)))
            l->sync();
    if (devices) {
        syncGroups();
        growSceneRect();
        // A device may have moved into (or out of) the view.
        materialize(live_);
        schedulePrune();
    }
}

void CanvasScene::syncGroups() {
    if (groups_.empty())
        return;
    struct Extent {
        QRectF r;
        int members = 0;
    };
    std::unordered_map<std::string, Extent> ext;
    ext.reserve(groups_.size());
    for (const auto& [id, g] : groupById_)
        ext[id];
    for (const auto& dev : doc_->design().devices) {
        if (dev.parent.empty())
            continue;
        const auto it = ext.find(dev.parent);
        if (it == ext.end())
            continue;
        const QRectF child(dev.position.x, dev.position.y, kDeviceW, kDeviceH);
        it->second.r = it->second.r.isNull() ? child : it->second.r.united(child);
        ++it->second.members;
    }
    for (const auto& [id, g] : groupById_) {
        const Extent& e = ext[id];
        g->sync(e.r, e.members);
    }
}

GroupItem* CanvasScene::groupItem(const std::string& groupId) const {
    const auto it = groupById_.find(groupId);
    return it == groupById_.end() ? nullptr : it->second;
}

void CanvasScene::contextMenuEvent(QGraphicsSceneContextMenuEvent* e) {
    // Right click: the entity under the pointer becomes the selection, then its actions.
    materializeAt(e->scenePos());
    QGraphicsItem* hit = nullptr;
    for (auto* it : items(e->scenePos()))
        if ((it->flags() & QGraphicsItem::ItemIsSelectable) && it->isVisible()) {
            hit = it;
            break;
        }
    if (!hit)
        return;
    const QString id = idOf(hit);
    if (!hit->isSelected())
        selectIds({id});
    QMenu menu;
    const auto* w = doc_->design().workload(id.toStdString());
    if (w) {
        const bool training = w->kind == model::WorkloadKind::training;
        menu.addAction(tr("How Is This Computed?"), this, [this, id, training] {
            emit explainRequested(id +
                                  (training ? QStringLiteral(".mfu") : QStringLiteral(".tpot")));
        });
        if (training)
            menu.addAction(tr("Find a Layout…"), this,
                           [this, id] { emit findLayoutRequested(id); });
        menu.addSeparator();
    }
    menu.addAction(tr("Delete"), this, &CanvasScene::deleteSelection);
    menu.exec(e->screenPos());
    e->accept();
}

void CanvasScene::setEvaluation(std::shared_ptr<const model::Evaluation> ev) {
    eval_ = std::move(ev);
    farDirty_ = true; // bottleneck links
    updateLoadWorkload();
    applyFindings();
}

void CanvasScene::updateLoadWorkload() {
    if (!eval_) {
        loadWorkload_.clear();
        loadLegend_.clear();
        return;
    }
    // A selected workload with a step (training) or decode step (serving) is the one shown;
    // otherwise keep the one shown while it still has one, else the first with network traffic.
    std::string pick;
    for (auto* it : selectedItems())
        if (const std::string id = idOf(it).toStdString(); workloads_.count(id))
            if (!model::load_legend(*eval_, id).empty())
                pick = id;
    if (pick.empty() && !loadWorkload_.empty() &&
        !model::load_legend(*eval_, loadWorkload_).empty())
        pick = loadWorkload_;
    if (pick.empty())
        pick = model::default_load_workload(*eval_);
    loadWorkload_ = pick;
    QString legend = QString::fromStdString(model::load_legend(*eval_, pick));
    legendBottleneck_ = legend.isEmpty();
    if (legend.isEmpty())
        legend = QString::fromStdString(model::bottleneck_legend(*eval_));
    if (legend != loadLegend_) {
        const bool appeared = loadLegend_.isEmpty() && !legend.isEmpty();
        loadLegend_ = legend;
        // The legend is drawn over the view: place and repaint it now, not at the next resize.
        for (auto* v : views())
            if (auto* cv = qobject_cast<CanvasView*>(v))
                cv->legendChanged(appeared);
            else
                v->viewport()->update();
    }
}

void CanvasScene::setJobCards(std::vector<model::FleetJobCard> cards) {
    jobCards_ = std::move(cards);
    update(); // every item (and the far picture) repaints with or without the outline
}

const model::FleetJobCard* CanvasScene::jobCard(const std::string& device) const {
    for (const auto& c : jobCards_)
        if (c.device == device)
            return &c;
    return nullptr;
}

double CanvasScene::linkLoad(const std::string& id) const {
    const auto it = links_.find(id);
    return it == links_.end() ? -1.0 : it->second->load();
}

void CanvasScene::applyFindings() {
    const model::Findings none;
    const model::Findings& f = eval_ ? eval_->findings : none;
    auto find = [](const auto& map, const std::string& id) {
        const auto it = map.find(id);
        return it == map.end() ? nullptr : &it->second;
    };
    for (auto& [id, item] : workloads_)
        item->setFinding(find(f.workloads, id));
    for (auto& [id, l] : links_) {
        l->setFinding(find(f.links, id));
        const auto load = eval_ && !loadWorkload_.empty()
                              ? model::link_load(*eval_, loadWorkload_, id)
                              : std::optional<model::LinkLoad>{};
        l->setLoad(load ? load->busy : -1.0, load ? QString::fromStdString(load->note) : QString());
    }
    for (auto& [id, item] : devices_)
        item->setFinding(find(f.devices, id));
}

QStringList CanvasScene::selectedIds() const {
    QStringList ids;
    for (auto* it : selectedItems())
        ids << idOf(it);
    return ids;
}

void CanvasScene::commitMove() {
    std::vector<doc::Document::Move> moves;
    for (auto* it : selectedItems()) {
        const QString id = idOf(it);
        if (auto* di = dynamic_cast<DeviceItem*>(it); di && di->moved())
            moves.push_back({id, {di->dragStart().x(), di->dragStart().y()}, {di->x(), di->y()}});
        else if (auto* wi = dynamic_cast<WorkloadItem*>(it); wi && wi->pos() != wi->dragStart)
            moves.push_back({id, {wi->dragStart.x(), wi->dragStart.y()}, {wi->x(), wi->y()}});
    }
    if (moves.empty())
        return;
    doc_->moveItems(std::move(moves), ++dragCounter_);
}

std::string CanvasScene::hiddenBy(const std::string& deviceId) const {
    if (collapsed_.empty())
        return {};
    if (const auto it = hiddenMemo_.find(deviceId); it != hiddenMemo_.end())
        return it->second;
    // Walk up to the root or to an ancestor already known, then fill in on the way down:
    // outer(d) = outer(parent) if set, else the parent when it is collapsed.
    const auto& d = doc_->design();
    std::vector<const model::Device*> chain;
    std::string known;
    const model::Device* cur = d.device(deviceId);
    for (std::size_t guard = 0; cur && guard <= d.devices.size(); ++guard) {
        if (const auto it = hiddenMemo_.find(cur->id); it != hiddenMemo_.end()) {
            known = it->second;
            break;
        }
        chain.push_back(cur);
        cur = cur->parent.empty() ? nullptr : d.device(cur->parent);
    }
    // chain.back() is the highest device whose answer is not known; `known` is its parent's.
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        const model::Device* dev = *it;
        if (known.empty() && !dev->parent.empty() && collapsed_.count(dev->parent))
            known = dev->parent;
        hiddenMemo_[dev->id] = known;
    }
    const auto it = hiddenMemo_.find(deviceId);
    return it == hiddenMemo_.end() ? std::string() : it->second;
}

void CanvasScene::toggleCollapsed(const QString& groupId) {
    const std::string id = groupId.toStdString();
    if (!collapsed_.erase(id))
        collapsed_.insert(id);
    rebuild();
    emit statusMessage(isCollapsed(id) ? tr("Collapsed %1").arg(groupId)
                                       : tr("Expanded %1").arg(groupId));
}

QString CanvasScene::deviceAt(QPointF scenePos) {
    materializeAt(scenePos);
    for (auto* it : items(scenePos)) {
        if (dynamic_cast<DeviceItem*>(it) || dynamic_cast<GroupItem*>(it))
            return idOf(it);
    }
    return {};
}

bool CanvasScene::dropCatalogEntry(const QString& entry, QPointF pos) {
    const auto parts = entry.split(QLatin1Char(':'));
    if (parts.size() != 2)
        return false;
    model::Design next = doc_->design();
    const QPointF centre = pos + QPointF(kDeviceW / 2, kDeviceH / 2);
    const std::string target = deviceAt(centre).toStdString();
    const model::Point at{std::round(pos.x() / 10) * 10, std::round(pos.y() / 10) * 10};
    auto added = model::drop_entry(next, doc_->catalog(), parts[0].toStdString(),
                                   parts[1].toStdString(), at, target);
    if (!added) {
        emit statusMessage(QString::fromStdString(added.errors().front().what));
        return false;
    }
    doc_->editStructure(std::move(next), QString::fromStdString(added->undo_text));
    if (!added->message.empty())
        emit statusMessage(QString::fromStdString(added->message));
    return true;
}

bool CanvasScene::connectDevices(const QString& from, const QString& to) {
    const auto& d = doc_->design();
    auto link = model::propose_link(d, doc_->catalog(), from.toStdString(), to.toStdString(),
                                    linkType_.toStdString());
    if (!link) {
        emit statusMessage(
            tr("Cannot connect: %1").arg(QString::fromStdString(link.errors().front().what)));
        return false;
    }
    model::Design next = d;
    next.links.push_back(*link);
    doc_->editStructure(std::move(next), tr("Connect %1 to %2")
                                             .arg(QString::fromStdString(link->from),
                                                  QString::fromStdString(link->to)));
    emit statusMessage(tr("Connected %1 × %2")
                           .arg(link->count)
                           .arg(QString::fromStdString(doc_->catalog().short_name(link->type))));
    return true;
}

void CanvasScene::beginConnect(const QString& from, QPointF scenePos) {
    connectFrom_ = from;
    delete rubberLink_;
    rubberLink_ =
        addLine(QLineF(scenePos, scenePos), QPen(palette().highlight().color(), 2, Qt::DashLine));
    rubberLink_->setZValue(10);
    emit statusMessage(tr("Drop on another device to connect%1")
                           .arg(linkType_.isEmpty() ? QString() : tr(" with %1").arg(linkType_)));
}

void CanvasScene::updateConnect(QPointF scenePos) {
    if (rubberLink_)
        rubberLink_->setLine(QLineF(rubberLink_->line().p1(), scenePos));
}

void CanvasScene::endConnect(QPointF scenePos) {
    delete rubberLink_;
    rubberLink_ = nullptr;
    const QString to = deviceAt(scenePos);
    const QString from = connectFrom_;
    connectFrom_.clear();
    if (to.isEmpty() || to == from) {
        emit statusMessage(tr("No device there: nothing connected"));
        return;
    }
    connectDevices(from, to);
}

QString CanvasScene::copySelection() const {
    std::vector<std::string> ids;
    for (const auto& id : selectedIds())
        ids.push_back(id.toStdString());
    if (ids.empty())
        return {};
    return QString::fromStdString(model::copy_fragment(doc_->design(), ids));
}

bool CanvasScene::paste(const QString& fragment, QPointF offset, const QString& what) {
    model::Design next = doc_->design();
    auto top = model::paste_fragment(next, fragment.toStdString(), &doc_->catalog(),
                                     {offset.x(), offset.y()});
    if (!top) {
        emit statusMessage(tr("Cannot paste: %1").arg(QString::fromStdString(top.error_text())));
        return false;
    }
    QStringList ids;
    for (const auto& id : *top)
        ids << QString::fromStdString(id);
    doc_->editStructure(std::move(next), what.isEmpty() ? tr("Paste") : what);
    selectIds(ids);
    return true;
}

void CanvasScene::selectIds(const QStringList& ids, bool notify) {
    {
        const QSignalBlocker quiet(this); // one selectionChanged, not one per item
        clearSelection();
        const std::set<QString> wanted(ids.begin(), ids.end());
        if (large_) { // on a virtual canvas, what is selected gets an item
            // One table for all the ids: Design::device() scans the whole design for an id
            // that is not there (a deleted one: the selection kept across a Delete), and 9,382
            // such lookups in 100,000 devices froze the window for a minute.
            const auto& d = doc_->design();
            model::IdTable devices, links;
            devices.build(d.devices);
            links.build(d.links);
            for (const auto& id : wanted) {
                const std::string sid = id.toStdString();
                if (const std::size_t i = devices.find(d.devices, sid); i != model::IdTable::npos) {
                    if (d.devices[i].kind != model::DeviceKind::group && !devices_.count(sid) &&
                        hiddenBy(sid).empty())
                        addDeviceItem(sid);
                } else if (links.find(d.links, sid) != model::IdTable::npos && !links_.count(sid)) {
                    addLinkItem(sid);
                }
            }
        }
        for (auto* it : items())
            if ((it->flags() & QGraphicsItem::ItemIsSelectable) && wanted.count(idOf(it)))
                it->setSelected(true);
    }
    if (notify)
        emit selectionChanged();
}

void CanvasScene::deleteSelection() {
    const QStringList ids = selectedIds();
    if (ids.isEmpty())
        return;
    std::vector<std::string> gone;
    for (const auto& id : ids)
        gone.push_back(id.toStdString());
    model::Design next = doc_->design();
    model::remove_entities(next, gone);
    doc_->editStructure(std::move(next), tr("Delete"));
}

void CanvasScene::alignSelection(int alignment) {
    std::vector<std::string> ids;
    for (const auto& id : selectedIds())
        ids.push_back(id.toStdString());
    if (ids.size() < 2)
        return;
    const QStringList keep = selectedIds();
    model::Design next = doc_->design();
    model::align(next, ids, static_cast<model::Alignment>(alignment));
    doc_->editStructure(std::move(next), tr("Align"));
    selectIds(keep);
}

void CanvasScene::nudgeSelection(double dx, double dy, bool continues) {
    std::vector<doc::Document::Move> moves;
    const auto& d = doc_->design();
    for (const auto& id : selectedIds()) {
        const std::string sid = id.toStdString();
        model::Point from;
        if (const auto* dev = d.device(sid))
            from = dev->position;
        else if (const auto* w = d.workload(sid))
            from = w->position;
        else
            continue;
        moves.push_back({id, from, {from.x + dx, from.y + dy}});
    }
    // Held arrow keys (auto-repeat) extend one move: one undo step per burst of nudges.
    doc_->moveItems(std::move(moves), continues ? dragCounter_ : ++dragCounter_);
}

namespace {
/// The local .json file a drag carries (a config.json from a file manager), or empty.
QString droppedConfig(const QMimeData* md) {
    if (!md->hasUrls() || md->urls().size() != 1 || !md->urls().front().isLocalFile())
        return {};
    const QString path = md->urls().front().toLocalFile();
    return isConfigFile(path) ? path : QString();
}
} // namespace

std::string CanvasScene::workloadAt(QPointF scenePos) const {
    for (auto* it : items(scenePos))
        if (auto* wi = dynamic_cast<WorkloadItem*>(it))
            return wi->id();
    return {};
}

void CanvasScene::dragEnterEvent(QGraphicsSceneDragDropEvent* e) {
    e->setAccepted(e->mimeData()->hasFormat(kCatalogMime) ||
                   !droppedConfig(e->mimeData()).isEmpty());
}
void CanvasScene::dragMoveEvent(QGraphicsSceneDragDropEvent* e) {
    if (e->mimeData()->hasFormat(kCatalogMime)) {
        e->accept();
        return;
    }
    // A config.json is taken by a workload card only.
    materializeAt(e->scenePos());
    e->setAccepted(!droppedConfig(e->mimeData()).isEmpty() && !workloadAt(e->scenePos()).empty());
}
void CanvasScene::dropEvent(QGraphicsSceneDragDropEvent* e) {
    if (const QString path = droppedConfig(e->mimeData()); !path.isEmpty()) {
        const std::string wid = workloadAt(e->scenePos());
        if (wid.empty()) {
            emit statusMessage(tr("Drop a model's config.json on a workload card"));
            return;
        }
        const ImportOutcome out = importHfConfig(*doc_, path, wid);
        emit statusMessage(out.text);
        if (out.ok)
            e->acceptProposedAction();
        return;
    }
    const QString entry = QString::fromUtf8(e->mimeData()->data(kCatalogMime));
    if (dropCatalogEntry(entry, e->scenePos() - QPointF(kDeviceW / 2, kDeviceH / 2)))
        e->acceptProposedAction();
}

void CanvasScene::helpEvent(QGraphicsSceneHelpEvent* e) {
    materializeAt(e->scenePos());
    for (auto* it : items(e->scenePos()))
        if (auto* d = dynamic_cast<DeviceItem*>(it))
            d->refreshToolTip();
        else if (auto* l = dynamic_cast<LinkItem*>(it))
            l->refreshToolTip();
    QGraphicsScene::helpEvent(e);
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
    setOptimizationFlags(QGraphicsView::DontSavePainterState);
    viewport()->grabGesture(Qt::PinchGesture);
    // Zoomed out on a large design, the view draws the whole picture (paintEvent) and Qt's
    // per-item update regions do not apply: any change repaints the viewport.
    connect(scene, &QGraphicsScene::changed, this, [this] {
        if (farMode())
            viewport()->update();
    });
    // On a large design only the entities near the view have items: follow the view.
    connect(this, &CanvasView::viewChanged, this, &CanvasView::updateLiveRegion);
}

void CanvasView::updateLiveRegion() {
    // qobject_cast: a scene being destroyed detaches its views (and scrolls them) from
    // ~QGraphicsScene, when it is no longer a CanvasScene.
    auto* cs = qobject_cast<CanvasScene*>(scene());
    if (!cs || !cs->large())
        return;
    if (farMode()) {
        cs->setLiveRegion({});
        return;
    }
    // What shows, with a quarter of a screen around it, so a small scroll finds items ready.
    const QRectF shown = mapToScene(viewport()->rect()).boundingRect();
    cs->setLiveRegion(shown.adjusted(-shown.width() / 4, -shown.height() / 4, shown.width() / 4,
                                     shown.height() / 4));
}

void CanvasView::resizeEvent(QResizeEvent* e) {
    QGraphicsView::resizeEvent(e);
    updateLiveRegion();
}

void CanvasView::drawForeground(QPainter* p, const QRectF& rect) {
    QGraphicsView::drawForeground(p, rect);
    const auto* cs = qobject_cast<const CanvasScene*>(scene());
    if (!cs || cs->loadLegend().isEmpty())
        return;
    const QString& legend = cs->loadLegend();
    // In view pixels, top-left, whatever the zoom: a box with the three colours and the text.
    p->save();
    p->resetTransform();
    p->setFont(font());
    const QFontMetrics fm = p->fontMetrics();
    const int pad = 6, swatch = 15;
    QStringList lines;
    const QRect box = legendPlace(legend, fm, &lines);
    p->setPen(palette().mid().color());
    p->setBrush(palette().base());
    p->drawRect(box);
    const QColor colours[] = {QColor(0x16, 0xa3, 0x4a), QColor(0xf5, 0x9e, 0x0b),
                              QColor(0xdc, 0x26, 0x26)};
    if (cs->legendIsBottleneck()) // red only: the oversubscribed uplinks
        p->fillRect(QRect(box.left() + pad, box.top() + pad + 1, swatch, swatch / 3 * 3 + 2),
                    colours[2]);
    else
        for (int i = 0; i < 3; ++i)
            p->fillRect(QRect(box.left() + pad, box.top() + pad + i * (swatch / 3 + 1) + 1, swatch,
                              swatch / 3),
                        colours[i]);
    p->setPen(palette().text().color());
    int y = box.top() + pad + fm.ascent();
    for (const QString& l : lines) {
        p->drawText(box.left() + 2 * pad + swatch, y,
                    fm.elidedText(l, Qt::ElideRight, box.width() - 3 * pad - swatch));
        y += fm.lineSpacing();
    }
    p->restore();
}

QRect CanvasView::legendPlace(const QString& legend, const QFontMetrics& fm, QStringList* lines) {
    const QTransform vt = viewportTransform();
    if (legendCache_.view == vt && legendCache_.viewport == viewport()->size() &&
        legendCache_.legend == legend && legendCache_.place.isValid()) {
        *lines = legendCache_.lines;
        return legendCache_.place;
    }
    // Top left unless that covers a card (helper-3 and helper-6: on the 4-SU DGX and 16k
    // designs the legend hid the spine and the aggregation switch): the other corners, then
    // the same narrower. Cards count, links do not. Lines wrap at spaces rather than end in
    // "..." (helper-24: "red 70% or more of th..." on a 1280-pixel window).
    const int pad = 6, swatch = 15, m = 8;
    const int W = viewport()->width(), H = viewport()->height();
    const int full = std::max(80, W - 16 - 3 * pad - swatch - 8);
    QRect best;
    QStringList bestLines;
    int fewest = std::numeric_limits<int>::max();
    // On a short canvas (Large Charts leave it ~190 px at 1280 x 800) the legend keeps its
    // first paragraph, the colours, when the whole would take over a quarter of the height: the
    // "Busiest: ..." line covered a third of the drawing (helper-11). Each link's tooltip still
    // says its load.
    QStringList paras = legend.split(QLatin1Char('\n'));
    if (paras.size() > 1) {
        qsizetype n = 0;
        for (const QString& para : paras)
            n += wrapWords(para, fm, full).size();
        if (static_cast<int>(n) * fm.lineSpacing() + 2 * pad > H / 4)
            paras = paras.mid(0, 1);
    }
    for (const int avail : {full, std::max(80, full / 2), std::max(80, full / 3)}) {
        QStringList wrapped;
        for (const QString& para : paras)
            wrapped << wrapWords(para, fm, avail);
        int w = 0;
        for (const QString& l : wrapped)
            w = std::max(w, fm.horizontalAdvance(l));
        const QSize box(std::min(w + 3 * pad + swatch + 8, W - 16),
                        static_cast<int>(wrapped.size()) * fm.lineSpacing() + 2 * pad);
        const QPoint corners[] = {{m, m},
                                  {W - box.width() - m, m},
                                  {m, H - box.height() - m},
                                  {W - box.width() - m, H - box.height() - m}};
        for (const QPoint& at : corners) {
            const QRect r(at, box);
            int covered = 0;
            for (const QGraphicsItem* it : items(r, Qt::IntersectsItemBoundingRect))
                if (it->isVisible() && (dynamic_cast<const DeviceItem*>(it) != nullptr ||
                                        dynamic_cast<const WorkloadItem*>(it) != nullptr))
                    ++covered;
            if (covered < fewest) {
                fewest = covered;
                best = r;
                bestLines = wrapped;
            }
            if (covered == 0)
                break;
        }
        if (fewest == 0)
            break;
    }
    legendCache_ = {vt, viewport()->size(), legend, bestLines, best, fewest};
    *lines = bestLines;
    return best;
}

bool CanvasView::farMode() const {
    const auto* cs = static_cast<const CanvasScene*>(scene());
    return transform().m11() < kFarDetail && cs->large();
}

void CanvasView::paintEvent(QPaintEvent* e) {
    painted_ = true;
    if (!farMode()) {
        QGraphicsView::paintEvent(e);
        return;
    }
    // A large design zoomed out: background, the batched picture, foreground, rubber band.
    // Items stay in the scene, so clicks, rubber-band selection and drags work as usual.
    QPainter p(viewport());
    p.setClipRegion(e->region());
    const QRectF exposed = mapToScene(e->rect()).boundingRect();
    p.setWorldTransform(viewportTransform());
    drawBackground(&p, exposed);
    static_cast<CanvasScene*>(scene())->paintFar(&p, exposed);
    drawForeground(&p, exposed);
    p.resetTransform();
    if (dragMode() == QGraphicsView::RubberBandDrag && !rubberBandRect().isEmpty()) {
        QStyleOptionRubberBand band;
        band.initFrom(viewport());
        band.rect = rubberBandRect();
        band.shape = QRubberBand::Rectangle;
        QStyleHintReturnMask mask;
        if (style()->styleHint(QStyle::SH_RubberBand_Mask, &band, viewport(), &mask))
            p.setClipRegion(mask.region, Qt::IntersectClip);
        style()->drawControl(QStyle::CE_RubberBand, &band, &p, viewport());
    }
}

void CanvasView::fitAll() {
    QRectF r = static_cast<CanvasScene*>(scene())->designBounds();
    if (r.isEmpty())
        r = QRectF(-200, -200, 400, 400);
    const auto fit = [this](const QRectF& target) {
        fitInView(target, Qt::KeepAspectRatio);
        // Never magnify beyond 1.5x: a single device should not fill the screen.
        if (transform().m11() > 1.5) {
            resetTransform();
            scale(1.5, 1.5);
            centerOn(target.center());
        }
    };
    QRectF target = r.adjusted(-60, -60, 60, 60);
    fit(target);
    // The link-load legend sits over the view: when it would cover a card wherever it goes,
    // room is made above the design for it (helper-6: at 1280 x 800 it hid the 16k design's
    // aggregation switch).
    if (const auto* cs = qobject_cast<const CanvasScene*>(scene());
        cs && !cs->loadLegend().isEmpty()) {
        for (int pass = 0; pass < 3; ++pass) {
            QStringList lines;
            const QRect box = legendPlace(cs->loadLegend(), QFontMetrics(font()), &lines);
            if (legendCache_.covered == 0 || transform().m11() <= 0)
                break;
            target.setTop(target.top() - (box.height() + 16) / transform().m11());
            fit(target);
        }
    }
    fitted_ = true;
    emit viewChanged();
}

void CanvasView::legendChanged(bool appeared) {
    legendCache_.place = QRect(); // chosen again at the next paint
    // Only when it first appears on a view nobody has touched since it was fitted: the view
    // never moves under the pointer or on an edit (a refit between a press and its release
    // turned a click into a move).
    if (appeared && fitted_ && QGuiApplication::mouseButtons() == Qt::NoButton)
        fitAll();
    viewport()->update();
}

void CanvasView::zoomBy(double factor) {
    const double s = transform().m11() * factor;
    if (s < 0.01 || s > 8) // keep the zoom within sensible bounds
        return;
    fitted_ = false;
    scale(factor, factor);
    emit viewChanged();
}

void CanvasView::wheelEvent(QWheelEvent* e) {
    zoomBy(std::pow(1.0015, e->angleDelta().y()));
}

bool CanvasView::viewportEvent(QEvent* e) {
    // Something dragged onto the view (a palette entry, a file): the person is working on this
    // view, which no longer refits by itself -- a legend appearing once the dropped device was
    // evaluated refitted it between two drops, and the second card landed somewhere else.
    if (e->type() == QEvent::DragEnter)
        fitted_ = false;
    // Trackpad pinch (macOS, Wayland, X11 with libinput): a native zoom gesture.
    if (e->type() == QEvent::NativeGesture) {
        auto* g = static_cast<QNativeGestureEvent*>(e);
        if (g->gestureType() == Qt::ZoomNativeGesture) {
            zoomBy(1.0 + g->value());
            return true;
        }
    }
    return QGraphicsView::viewportEvent(e);
}

void CanvasView::mousePressEvent(QMouseEvent* e) {
    fitted_ = false; // the person is working on this view: it never moves by itself now
    // Middle button or space + drag pans.
    if (e->button() == Qt::MiddleButton || panning_) {
        // Not interactive while panning: an item under the pointer (a link) would take the
        // press and the view would not move.
        setInteractive(false);
        setDragMode(QGraphicsView::ScrollHandDrag);
        QMouseEvent fake(e->type(), e->position(), e->scenePosition(), e->globalPosition(),
                         Qt::LeftButton, Qt::LeftButton, e->modifiers());
        QGraphicsView::mousePressEvent(&fake);
        return;
    }
    // On a large design, what is under the pointer gets its item before Qt looks for it.
    static_cast<CanvasScene*>(scene())->materializeAt(mapToScene(e->position().toPoint()));
    QGraphicsView::mousePressEvent(e);
    // A press on empty canvas starts a rubber band.
    bandFrom_.reset();
    if (e->button() == Qt::LeftButton && dragMode() == QGraphicsView::RubberBandDrag &&
        !scene()->mouseGrabberItem())
        bandFrom_ = mapToScene(e->position().toPoint());
}

void CanvasView::mouseMoveEvent(QMouseEvent* e) {
    // A rubber band on a large design: the entities under it get items before Qt selects
    // what it covers (Qt selects items, and far from the view there are none).
    auto* cs = static_cast<CanvasScene*>(scene());
    const bool banding = bandFrom_ && (e->buttons() & Qt::LeftButton);
    const QRectF band =
        banding ? QRectF(*bandFrom_, mapToScene(e->position().toPoint())).normalized() : QRectF();
    if (banding && cs->large())
        cs->materialize(band);
    QGraphicsView::mouseMoveEvent(e);
    if (!banding)
        return;
    // A rubber band takes a link only with both its ends: one crossing the band (or whose label
    // the band touches) belongs to devices outside it, and deleting what the band took
    // left those devices unconnected.
    bool dropped = false;
    {
        const QSignalBlocker quiet(cs); // one selectionChanged for all, after the loop
        for (auto* it : cs->selectedItems())
            if (auto* l = dynamic_cast<LinkItem*>(it);
                l && !(band.contains(l->line().p1()) && band.contains(l->line().p2()))) {
                l->setSelected(false);
                dropped = true;
            }
    }
    // Outside the blocker: the inspector counted the links Qt selected and must recount (an
    // emit inside it was swallowed: "9382 items selected" for 2,835 devices).
    if (dropped)
        emit cs->selectionChanged();
}

void CanvasView::mouseDoubleClickEvent(QMouseEvent* e) {
    static_cast<CanvasScene*>(scene())->materializeAt(mapToScene(e->position().toPoint()));
    QGraphicsView::mouseDoubleClickEvent(e);
}

void CanvasView::mouseReleaseEvent(QMouseEvent* e) {
    bandFrom_.reset();
    if (e->button() == Qt::MiddleButton) { // the pan began as a left press (mousePressEvent)
        QMouseEvent fake(e->type(), e->position(), e->scenePosition(), e->globalPosition(),
                         Qt::LeftButton, Qt::NoButton, e->modifiers());
        QGraphicsView::mouseReleaseEvent(&fake);
    } else {
        QGraphicsView::mouseReleaseEvent(e);
    }
    setInteractive(true);
    if (dragMode() == QGraphicsView::ScrollHandDrag && !panning_)
        setDragMode(QGraphicsView::RubberBandDrag);
}

void CanvasView::keyPressEvent(QKeyEvent* e) {
    auto* cs = static_cast<CanvasScene*>(scene());
    const double step = (e->modifiers() & Qt::ShiftModifier) ? 50 : 10;
    switch (e->key()) {
    case Qt::Key_Space:
        if (!e->isAutoRepeat()) {
            panning_ = true;
            fitted_ = false;
            setDragMode(QGraphicsView::ScrollHandDrag);
        }
        return;
    case Qt::Key_Left:
        cs->nudgeSelection(-step, 0, e->isAutoRepeat());
        return;
    case Qt::Key_Right:
        cs->nudgeSelection(step, 0, e->isAutoRepeat());
        return;
    case Qt::Key_Up:
        cs->nudgeSelection(0, -step, e->isAutoRepeat());
        return;
    case Qt::Key_Down:
        cs->nudgeSelection(0, step, e->isAutoRepeat());
        return;
    case Qt::Key_Escape: // deselect: the inspector goes back to the design
        cs->clearSelection();
        return;
    default:
        QGraphicsView::keyPressEvent(e);
    }
}

void CanvasView::keyReleaseEvent(QKeyEvent* e) {
    if (e->key() == Qt::Key_Space && !e->isAutoRepeat()) {
        panning_ = false;
        setDragMode(QGraphicsView::RubberBandDrag);
        return;
    }
    QGraphicsView::keyReleaseEvent(e);
}

void CanvasView::scrollContentsBy(int dx, int dy) {
    QGraphicsView::scrollContentsBy(dx, dy);
    // The link-load legend is fixed to the view: repaint its corner where scrolling moved it.
    // (qobject_cast: while the scene is being destroyed it is no longer a CanvasScene.)
    if (const auto* cs = qobject_cast<const CanvasScene*>(scene());
        cs && !cs->loadLegend().isEmpty())
        viewport()->update(); // it may change corners too
    emit viewChanged();
}

OverviewView::OverviewView(CanvasScene* scene, CanvasView* main, QWidget* parent)
    : QWidget(parent), scene_(scene), main_(main), timer_(new QTimer(this)) {
    setObjectName(QStringLiteral("overview"));
    setToolTip(tr("Overview: click or drag to move the view"));
    setMinimumSize(80, 60);
    setAttribute(Qt::WA_OpaquePaintEvent);
    // The picture is redrawn after a burst of changes settles, never while the main view
    // scrolls (which only moves the rectangle): 100,000 items cost one render, not one per
    // scroll step, and the first paint of the window does not wait for it.
    timer_->setSingleShot(true);
    timer_->setInterval(150);
    connect(timer_, &QTimer::timeout, this, &OverviewView::renderNow);
    connect(main_, &CanvasView::viewChanged, this, [this] { update(); });
    connect(scene, &QGraphicsScene::changed, this, &OverviewView::refit);
}

void OverviewView::refit() {
    timer_->start();
}

void OverviewView::renderNow() {
    timer_->stop();
    if (!main_->painted() && main_->isVisible()) { // the canvas first (0.1 s at 100k)
        timer_->start();
        return;
    }
    QRectF r = scene_->designBounds();
    if (r.isEmpty())
        r = QRectF(-200, -200, 400, 400);
    source_ = r.adjusted(-40, -40, 40, 40);
    const QSizeF fit = source_.size().scaled(QSizeF(size()), Qt::KeepAspectRatio);
    target_ = QRectF(QPointF((width() - fit.width()) / 2, (height() - fit.height()) / 2), fit);
    const qreal dpr = devicePixelRatioF();
    QPixmap pix((QSizeF(size()) * dpr).toSize().expandedTo(QSize(1, 1)));
    pix.setDevicePixelRatio(dpr);
    pix.fill(palette().base().color());
    {
        QPainter p(&pix);
        if (scene_->large()) { // one batched pass, as the main view draws it far out
            const double s = target_.width() / source_.width();
            p.translate(target_.topLeft());
            p.scale(s, s);
            p.translate(-source_.topLeft());
            scene_->paintFar(&p, source_);
        } else {
            scene_->render(&p, target_, source_, Qt::KeepAspectRatio);
        }
    }
    pix_ = std::move(pix);
    update();
}

QPointF OverviewView::toScene(QPointF p) const {
    if (target_.width() <= 0 || target_.height() <= 0)
        return source_.center();
    return {source_.left() + (p.x() - target_.left()) * source_.width() / target_.width(),
            source_.top() + (p.y() - target_.top()) * source_.height() / target_.height()};
}

void OverviewView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (pix_.isNull()) {
        if (!timer_->isActive())
            timer_->start();
        return;
    }
    p.drawPixmap(0, 0, pix_);
    // The main view's rectangle.
    const QRectF visible = main_->mapToScene(main_->viewport()->rect()).boundingRect();
    const double sx = target_.width() / source_.width(), sy = target_.height() / source_.height();
    const QRectF v(target_.left() + (visible.left() - source_.left()) * sx,
                   target_.top() + (visible.top() - source_.top()) * sy, visible.width() * sx,
                   visible.height() * sy);
    QColor c = palette().highlight().color();
    p.setPen(QPen(c, 0));
    c.setAlpha(40);
    p.setBrush(c);
    p.drawRect(v);
}

void OverviewView::mousePressEvent(QMouseEvent* e) {
    main_->centerOn(toScene(e->position()));
    update();
}

void OverviewView::mouseMoveEvent(QMouseEvent* e) {
    if (e->buttons() & Qt::LeftButton) {
        main_->centerOn(toScene(e->position()));
        update();
    }
}

void OverviewView::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    refit();
}

} // namespace cl::ui
