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
    /// Drops a catalog entry ("system:dgx-h100") at a scene position: one AddDevices command.
    bool dropCatalogEntry(const QString& entry, QPointF pos);
    void setEvaluation(std::shared_ptr<const model::Evaluation> ev);
    [[nodiscard]] const model::Evaluation* evaluation() const { return eval_.get(); }
    /// The id of the entity an item shows (device, group, link or workload), or empty.
    [[nodiscard]] static QString idOf(const QGraphicsItem* item);
    /// Ids of the selected entities.
    [[nodiscard]] QStringList selectedIds() const;
    /// Called by items when a drag ends: one MoveDevices command for the whole selection.
    void commitMove();
    [[nodiscard]] int deviceItemCount() const { return static_cast<int>(devices_.size()); }
    [[nodiscard]] int linkItemCount() const { return static_cast<int>(links_.size()); }

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
    [[nodiscard]] QString deviceAt(QPointF scenePos) const;

    /// The selection as a clipboard fragment (JSON); empty when nothing is selected.
    [[nodiscard]] QString copySelection() const;
    /// Pastes a fragment shifted by `offset`, selects what was pasted; one command.
    bool paste(const QString& fragment, QPointF offset);
    void deleteSelection();
    void alignSelection(int alignment);
    /// Moves the selection by (dx, dy) (arrow keys); `continues` (a held key's auto-repeat)
    /// merges into the previous nudge's undo step.
    void nudgeSelection(double dx, double dy, bool continues = false);
    void selectIds(const QStringList& ids);
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
    /// Enough devices, links and groups that far out the view draws them in one batch.
    [[nodiscard]] bool large() const;
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

    doc::Document* doc_;
    std::shared_ptr<const model::Evaluation> eval_;
    std::unordered_map<std::string, DeviceItem*> devices_;
    std::unordered_map<std::string, WorkloadItem*> workloads_;
    std::vector<LinkItem*> links_;
    std::vector<GroupItem*> groups_;
    std::unordered_map<std::string, GroupItem*> groupById_;
    mutable std::unordered_map<std::string, std::string> hiddenMemo_; ///< cleared on change
    int dragCounter_ = 0;
    QString linkType_;
    std::set<std::string> collapsed_;
    QString connectFrom_;
    class QGraphicsLineItem* rubberLink_ = nullptr;
};

class CanvasView : public QGraphicsView {
    Q_OBJECT
public:
    explicit CanvasView(CanvasScene* scene, QWidget* parent = nullptr);
    void fitAll();
    void zoomBy(double factor);
    /// Zoomed out below the detail level on a large design: the view paints the batched
    /// picture (CanvasScene::paintFar) instead of each item.
    [[nodiscard]] bool farMode() const;
    /// Whether the view has painted at least once (the overview renders after it).
    [[nodiscard]] bool painted() const { return painted_; }

signals:
    void viewChanged();

protected:
    void wheelEvent(QWheelEvent* e) override;
    bool viewportEvent(QEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void keyReleaseEvent(QKeyEvent* e) override;
    void scrollContentsBy(int dx, int dy) override;
    void paintEvent(QPaintEvent* e) override;

private:
    bool panning_ = false;
    bool painted_ = false;
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
