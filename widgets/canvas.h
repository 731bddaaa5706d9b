#pragma once
// The canvas: a scene that cannot exist without a document (nodeeditor's practice) and thin
// items that re-read their entity from the design (STYLE.md practice 7). Every gesture
// becomes a command on the document's undo stack.

#include "document/document.h"
#include "model/evaluate.h"

#include <QGraphicsScene>
#include <QGraphicsView>

#include <memory>
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
    /// Ids of the selected entities.
    [[nodiscard]] QStringList selectedIds() const;
    /// Called by items when a drag ends: one MoveDevices command for the whole selection.
    void commitMove();
    [[nodiscard]] int deviceItemCount() const { return static_cast<int>(devices_.size()); }

signals:
    void statusMessage(const QString& text);

protected:
    void dragEnterEvent(QGraphicsSceneDragDropEvent* e) override;
    void dragMoveEvent(QGraphicsSceneDragDropEvent* e) override;
    void dropEvent(QGraphicsSceneDragDropEvent* e) override;
    void mousePressEvent(QGraphicsSceneMouseEvent* e) override;

private:
    void rebuild();
    void sync(const doc::ChangeEvent& e);

    doc::Document* doc_;
    std::shared_ptr<const model::Evaluation> eval_;
    std::unordered_map<std::string, DeviceItem*> devices_;
    std::unordered_map<std::string, WorkloadItem*> workloads_;
    std::vector<LinkItem*> links_;
    std::vector<GroupItem*> groups_;
    int dragCounter_ = 0;
};

class CanvasView : public QGraphicsView {
    Q_OBJECT
public:
    explicit CanvasView(CanvasScene* scene, QWidget* parent = nullptr);
    void fitAll();

protected:
    void wheelEvent(QWheelEvent* e) override;
};

} // namespace cl::ui
