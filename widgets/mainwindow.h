#pragma once
// The main window only arranges: palette (left), canvas (centre), inspector (right), chart
// dock (bottom), menus, toolbar and status bar. Actions, file handling and panels live in
// their own classes.

#include "document/document.h"
#include "document/evaluator.h"

#include <QMainWindow>

#include <memory>

class QLabel;

namespace cl::ui {

class Actions;
class Autosave;
class OverviewView;
class CanvasScene;
class CanvasView;
class ChartPanel;
class FileController;
class Inspector;
class Palette;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(std::shared_ptr<const model::Catalog> catalog, QWidget* parent = nullptr);
    ~MainWindow() override;

    [[nodiscard]] doc::Document* document() const { return doc_; }
    [[nodiscard]] doc::Evaluator* evaluator() const { return evaluator_; }
    [[nodiscard]] CanvasScene* scene() const { return scene_; }
    [[nodiscard]] CanvasView* canvas() const { return view_; }
    [[nodiscard]] ChartPanel* charts() const { return charts_; }
    [[nodiscard]] Inspector* inspector() const { return inspector_; }
    [[nodiscard]] Palette* palette() const { return palette_; }
    [[nodiscard]] FileController* files() const { return files_; }
    [[nodiscard]] Autosave* autosave() const { return autosave_; }
    [[nodiscard]] OverviewView* overview() const { return overview_; }
    [[nodiscard]] QStringList recentFiles() const;

    /// Offers the design an earlier session left in the autosave slot (after a crash);
    /// `ask` false recovers without asking (tests). Returns true when recovered.
    bool offerRecovery(bool ask = true);
    /// The view as the person left it in the last session (View > Large Charts), applied once
    /// the window is shown (helper-22: Large Charts was forgotten at every start).
    void restoreViewSettings();
    /// Opens "Find a layout" for a training workload (the given one, else the selected one,
    /// else the design's first).
    void findLayout(const QString& workloadId);
    /// Clipboard: copy the selection, paste at an offset (also between windows).
    void copy();
    void paste();
    /// Exports the report (kind "pdf" or "csv") or an image of the canvas / current chart;
    /// an empty path asks for one. Returns an error text.
    QString exportReport(const QString& kind, QString path = {});
    QString exportImage(bool canvas, QString path = {});

    /// Opens a design file or preset id; returns an error text (empty on success).
    QString openDesign(const QString& pathOrPreset);
    /// Brings a chart tab to the front by (case-insensitive) title; false when unknown.
    bool showChart(const QString& name);

protected:
    void closeEvent(QCloseEvent* e) override;
    void showEvent(QShowEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    bool sized_ = false; ///< the docks were given their first-show sizes
    void buildMenus();
    void updateTitle();
    void addRecent(const QString& path);
    void rebuildRecentMenu();

    doc::Document* doc_;
    doc::Evaluator* evaluator_;
    CanvasScene* scene_;
    CanvasView* view_;
    Palette* palette_;
    Inspector* inspector_;
    ChartPanel* charts_;
    Actions* actions_;
    FileController* files_;
    Autosave* autosave_;
    OverviewView* overview_;
    class QMenu* recentMenu_ = nullptr;
    QLabel* topologySummary_ = nullptr; ///< "8 GPUs · 1 node · 1 switch", bottom right
    int pasteCount_ = 0;
    /// File ▸ Duplicate Design: the design as it was when duplicated, and its column name in
    /// Compare ("name (file.json)"); cleared when another design is opened.
    std::unique_ptr<model::Design> original_;
    QString originalName_;
    bool duplicating_ = false;
    void duplicateDesign();
};

} // namespace cl::ui
