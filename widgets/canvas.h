#pragma once
// The canvas: a scene that cannot exist without a document (nodeeditor's practice) and thin
// items that re-read their entity from the design (STYLE.md practice 7). Every gesture
// becomes a command on the document's undo stack.

#include "document/document.h"
#include "model/evaluate.h"

#include <QGraphicsScene>
#include <QGraphicsView>
#include <QPixmap>

#include <memory>
#include <optional>
#include <set>
#include <unordered_map>

namespace cl::ui {

inline constexpr const char* kCatalogMime = "application/x-clusterlens-catalog";

class DeviceItem;
class GroupItem;
class LinkItem;
class WorkloadItem;

class CanvasScene : public QGraphicsScene {
    Q_OBJECT
public:
    CanvasScene() = delete;
    explicit CanvasScene(doc::Document* doc, QObject* parent = nullptr);

    [[nodiscard]] doc::Document* document() const { return doc_; }
    /// The id of the workload card at a scene position, or empty.
    [[nodiscard]] std::string workloadAt(QPointF scenePos) const;
    /// Drops a catalog entry ("system:dgx-h100") at a scene position: one AddDevices command.
    bool dropCatalogEntry(const QString& entry, QPointF pos);
    void setEvaluation(std::shared_ptr<const model::Evaluation> ev);
    [[nodiscard]] const model::Evaluation* evaluation() const { return eval_.get(); }
    /// Issue 22: the training workload whose traffic colours the links (the selected one, else
    /// the first with network traffic), and the legend for it (empty: no colouring).
    [[nodiscard]] const std::string& loadWorkload() const { return loadWorkload_; }
    [[nodiscard]] const QString& loadLegend() const { return loadLegend_; }
    /// The legend explains the red bottleneck uplinks (no workload's load is shown).
    [[nodiscard]] bool legendIsBottleneck() const { return legendBottleneck_; }
    /// Issue 23: the cards a job picked on the Fleet tab's allocation timeline ran on (core's
    /// fleet_job_cards), outlined with "job: 4 of 64 nodes"; empty clears.
    void setJobCards(std::vector<model::FleetJobCard> cards);
    [[nodiscard]] const model::FleetJobCard* jobCard(const std::string& device) const;
    [[nodiscard]] int jobCardCount() const { return static_cast<int>(jobCards_.size()); }
    /// The busy fraction a link item is coloured by (-1: none, or no item).
    [[nodiscard]] double linkLoad(const std::string& id) const;
    /// The id of the entity an item shows (device, group, link or workload), or empty.
    [[nodiscard]] static QString idOf(const QGraphicsItem* item);
    /// Ids of the selected entities.
    [[nodiscard]] QStringList selectedIds() const;
    /// Called by items when a drag ends: one MoveDevices command for the whole selection.
    void commitMove();
    /// Device and link items that exist now. On a large design only the entities near the
    /// view (the live region), the selected ones and those under the pointer have items.
    [[nodiscard]] int deviceItemCount() const { return static_cast<int>(devices_.size()); }
    [[nodiscard]] int linkItemCount() const { return static_cast<int>(links_.size()); }
    /// The bounds of the whole design (devices, group frames, workload cards), whether or not
    /// its entities have items.
    [[nodiscard]] QRectF designBounds() const;
    /// The part of the scene a view shows, with a margin; empty when it draws far out. On a large
    /// design, items exist only for the entities in it (plus selected ones): a virtual canvas,
    /// so 100,000 devices cost items for the few hundred on screen, not 200,000.
    void setLiveRegion(const QRectF& r);
    /// Gives items to the entities around a scene point (a press, a drop, a tooltip), so Qt's
    /// hit-testing finds them on a large design.
    void materializeAt(QPointF scenePos);
    /// Gives items to every entity whose box intersects `r` (a rubber band far out).
    void materialize(const QRectF& r);
    /// Selects every device, link, group and workload (Edit > Select All).
    void selectAll();
    /// Draws the design into `target` (reports, image export): item by item, or as the
    /// batched far picture on a large design.
    void renderDesign(class QPainter* p, const QRectF& target, const QRectF& source);

    /// Connects two devices with the chosen link type (or the natural one): one command, or a
    /// status message with the reason it cannot be cabled.
    bool connectDevices(const QString& from, const QString& to);
    void setLinkType(const QString& id) { linkType_ = id; }
    [[nodiscard]] const QString& linkType() const { return linkType_; }
    /// Link drawing from a device's port (called by the device items).
    void beginConnect(const QString& from, QPointF scenePos);
    void updateConnect(QPointF scenePos);
    void endConnect(QPointF scenePos);
    /// The device (or group) id under a scene position, or empty.
    [[nodiscard]] QString deviceAt(QPointF scenePos);

    /// The selection as a clipboard fragment (JSON); empty when nothing is selected.
    [[nodiscard]] QString copySelection() const;
    /// Pastes a fragment shifted by `offset`, selects what was pasted; one command, named
    /// `what` in the undo history ("Paste" when empty).
    bool paste(const QString& fragment, QPointF offset, const QString& what = {});
    void deleteSelection();
    void alignSelection(int alignment);
    /// Moves the selection by (dx, dy) (arrow keys); `continues` (a held key's auto-repeat)
    /// merges into the previous nudge's undo step.
    void nudgeSelection(double dx, double dy, bool continues = false);
    /// Selects exactly these entities; `notify`: emit selectionChanged once.
    void selectIds(const QStringList& ids, bool notify = true);
    /// Groups draw collapsed (one compact frame, members hidden) or expanded; view state only.
    void toggleCollapsed(const QString& groupId);
    [[nodiscard]] bool isCollapsed(const std::string& groupId) const {
        return collapsed_.count(groupId) > 0;
    }
    /// The collapsed group hiding a device (its outermost collapsed ancestor), or empty.
    /// Memoized per change (one pass over each parent chain), so a 10,000-deep chain of groups
    /// costs linear time, not depth x devices.
    [[nodiscard]] std::string hiddenBy(const std::string& deviceId) const;
    /// The frame of a group, for links ending at a collapsed group's card; null if none.
    [[nodiscard]] GroupItem* groupItem(const std::string& groupId) const;
    /// The ends of a link on the canvas (a collapsed group's card stands in for its members);
    /// nothing when an end is missing.
    [[nodiscard]] std::optional<QLineF> linkLine(const model::Link& l) const;
    /// Enough devices and links that far out the view draws them in one batch, and that only
    /// the entities near the view have items (setLiveRegion).
    [[nodiscard]] bool large() const { return large_; }
    /// Draws the design as blocks and hairlines in one batch per colour (scene coordinates;
    /// only what intersects `exposed`): the main view far out on a large design, the overview.
    void paintFar(class QPainter* p, const QRectF& exposed) const;

signals:
    void statusMessage(const QString& text);
    /// From an entity's context menu (right click).
    void findLayoutRequested(const QString& workloadId);
    void explainRequested(const QString& key);

protected:
    void dragEnterEvent(QGraphicsSceneDragDropEvent* e) override;
    void dragMoveEvent(QGraphicsSceneDragDropEvent* e) override;
    void dropEvent(QGraphicsSceneDragDropEvent* e) override;
    void mousePressEvent(QGraphicsSceneMouseEvent* e) override;
    void helpEvent(QGraphicsSceneHelpEvent* e) override;
    void contextMenuEvent(QGraphicsSceneContextMenuEvent* e) override;

private:
    void rebuild();
    /// Hands each item what the evaluation found about it (badges, verdicts, tooltips).
    void applyFindings();
    void sync(const doc::ChangeEvent& e);
    /// Resizes every group frame around its members: one pass over the devices.
    void syncGroups();
    void growSceneRect();
    DeviceItem* addDeviceItem(const std::string& id);
    LinkItem* addLinkItem(const std::string& id);
    /// Drops the items of entities outside the live region that are neither selected nor
    /// grabbed by the mouse (run from the event loop, never inside an item's handler).
    void prune();
    void schedulePrune();
    /// The far picture's geometry, rebuilt after a change: one block per shown device, one
    /// line per shown link, with the index of its entity in the design.
    /// Floats: 16 and 24 bytes an entity (a canvas position needs no more than 7 digits).
    struct FarDevice {
        float x, y; ///< top-left of the block
        std::uint32_t index;
        std::uint8_t bucket;
        [[nodiscard]] QRectF rect() const;
    };
    struct FarLink {
        float x1, y1, x2, y2;
        std::uint32_t index;
        std::uint8_t colour; ///< 0 plain, 1 green, 2 amber, 3 red (linkColourClass)
        [[nodiscard]] QLineF line() const { return {x1, y1, x2, y2}; }
    };
    void ensureFarCache() const;

    doc::Document* doc_;
    std::shared_ptr<const model::Evaluation> eval_;
    std::string loadWorkload_; ///< issue 22: whose traffic colours the links
    QString loadLegend_;
    bool legendBottleneck_ = false;
    std::vector<model::FleetJobCard> jobCards_; ///< issue 23: the picked job's cards
    /// Follows the selection: a selected training workload becomes the one shown.
    void updateLoadWorkload();
    std::unordered_map<std::string, DeviceItem*> devices_;
    std::unordered_map<std::string, WorkloadItem*> workloads_;
    std::unordered_map<std::string, LinkItem*> links_;
    std::vector<GroupItem*> groups_;
    std::unordered_map<std::string, GroupItem*> groupById_;
    mutable std::unordered_map<std::string, std::string> hiddenMemo_; ///< cleared on change
    int dragCounter_ = 0;
    QString linkType_;
    std::set<std::string> collapsed_;
    QString connectFrom_;
    class QGraphicsLineItem* rubberLink_ = nullptr;
    bool large_ = false;
    QRectF live_; ///< where entities get items on a large design (empty: none but the selected)
    class QTimer* pruneTimer_ = nullptr;
    mutable std::vector<FarDevice> farDevices_;
    mutable std::vector<FarLink> farLinks_;
    mutable bool farDirty_ = true;
};

class CanvasView : public QGraphicsView {
    Q_OBJECT
public:
    explicit CanvasView(CanvasScene* scene, QWidget* parent = nullptr);
    void fitAll();
    /// The link-load legend changed; when it `appeared` on a view still as fitted, refit it.
    void legendChanged(bool appeared);
    void zoomBy(double factor);
    /// Zoomed out below the detail level on a large design: the view paints the batched
    /// picture (CanvasScene::paintFar) instead of each item.
    [[nodiscard]] bool farMode() const;
    /// Where the link-load legend was last drawn, in view pixels (empty before it is drawn).
    [[nodiscard]] QRect legendRect() const { return legendCache_.place; }
    /// The legend's lines as last drawn (wrapped).
    [[nodiscard]] QStringList legendLines() const { return legendCache_.lines; }
    /// Whether the view has painted at least once (the overview renders after it).
    [[nodiscard]] bool painted() const { return painted_; }

signals:
    void viewChanged();

protected:
    /// Issue 22: the link-load legend, fixed in the view's top-left corner.
    void drawForeground(QPainter* p, const QRectF& rect) override;
    void wheelEvent(QWheelEvent* e) override;
    bool viewportEvent(QEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void keyReleaseEvent(QKeyEvent* e) override;
    void scrollContentsBy(int dx, int dy) override;
    void paintEvent(QPaintEvent* e) override;

private:
    /// Tells the scene which part of it this view shows (CanvasScene::setLiveRegion).
    void updateLiveRegion();
    /// The link-load legend's place and its lines: the first corner of the view where it covers
    /// no card, at the view's width or narrower (wrapped to half or a third of it); else where
    /// it covers the fewest.
    [[nodiscard]] QRect legendPlace(const QString& legend, const QFontMetrics& fm,
                                    QStringList* lines);
    bool panning_ = false;
    std::optional<QPointF> bandFrom_; ///< where a rubber band started (scene)
    bool painted_ = false;
    /// legendPlace's last answer and what it depended on (chosen again only when they change).
    struct LegendCache {
        QTransform view;
        QSize viewport;
        QString legend;
        QStringList lines;
        QRect place;
        int covered = 0; ///< cards under it there
    } legendCache_;
    /// The view is as fitAll() left it (no zoom or pan since): a legend that appears later
    /// refits it so the legend covers no card.
    bool fitted_ = false;
};

/// The overview: the whole design at a glance with the main view's rectangle; clicking or
/// dragging in it moves the main view.
class OverviewView : public QWidget {
    Q_OBJECT
public:
    OverviewView(CanvasScene* scene, CanvasView* main, QWidget* parent = nullptr);
    /// Schedules a new picture of the scene (coalesced: one render per burst of changes).
    void refit();
    /// Renders now (tests, and the timer).
    void renderNow();
    [[nodiscard]] bool rendered() const { return !pix_.isNull(); }

protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    [[nodiscard]] QPointF toScene(QPointF p) const;
    CanvasScene* scene_;
    CanvasView* main_;
    class QTimer* timer_;
    QPixmap pix_;   ///< the scene, drawn once per change (not on every scroll of the main view)
    QRectF source_; ///< the scene rectangle shown
    QRectF target_; ///< where it is drawn in this widget (aspect kept)
};

} // namespace cl::ui
