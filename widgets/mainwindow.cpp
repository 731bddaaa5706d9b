#include "mainwindow.h"

#include "actions.h"
#include "calibration.h"
#include "canvas.h"
#include "charts.h"
#include "document/commands.h"
#include "fabricwizard.h"
#include "filecontroller.h"
#include "inspector.h"
#include "palette.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>

#include <set>

namespace cl::ui {

MainWindow::MainWindow(std::shared_ptr<const model::Catalog> catalog, QWidget* parent)
    : QMainWindow(parent) {
    setObjectName(QStringLiteral("MainWindow"));
    doc_ = new doc::Document(std::move(catalog), this);
    evaluator_ = new doc::Evaluator(doc_, this);
    scene_ = new CanvasScene(doc_, this);
    view_ = new CanvasView(scene_, this);
    setCentralWidget(view_);

    palette_ = new Palette(doc_->catalog(), this);
    auto* paletteDock = new QDockWidget(tr("Palette"), this);
    paletteDock->setObjectName(QStringLiteral("paletteDock"));
    paletteDock->setWidget(palette_);
    addDockWidget(Qt::LeftDockWidgetArea, paletteDock);

    inspector_ = new Inspector(doc_, this);
    auto* inspectorDock = new QDockWidget(tr("Inspector"), this);
    inspectorDock->setObjectName(QStringLiteral("inspectorDock"));
    inspectorDock->setWidget(inspector_);
    addDockWidget(Qt::RightDockWidgetArea, inspectorDock);

    charts_ = new ChartPanel(this);
    auto* chartDock = new QDockWidget(tr("Charts"), this);
    chartDock->setObjectName(QStringLiteral("chartDock"));
    chartDock->setWidget(charts_);
    addDockWidget(Qt::BottomDockWidgetArea, chartDock);
    resizeDocks({paletteDock, inspectorDock}, {240, 300}, Qt::Horizontal);
    resizeDocks({chartDock}, {300}, Qt::Vertical);

    actions_ = new Actions(this, doc_->undoStack());
    files_ = new FileController(doc_, this);
    buildMenus();

    connect(evaluator_, &doc::Evaluator::evaluated, this,
            [this](std::shared_ptr<const model::Evaluation> ev) {
                scene_->setEvaluation(ev);
                inspector_->setEvaluation(ev);
                charts_->setEvaluation(ev);
                const auto& t = ev->topology;
                statusBar()->showMessage(tr("%1 GPUs · %2 nodes · %3 switches")
                                             .arg(t.gpus, 0, 'f', 0)
                                             .arg(t.nodes, 0, 'f', 0)
                                             .arg(t.switches, 0, 'f', 0));
            });
    connect(scene_, &QGraphicsScene::selectionChanged, this,
            [this] { inspector_->setSelection(scene_->selectedIds()); });
    connect(scene_, &CanvasScene::statusMessage, this,
            [this](const QString& m) { statusBar()->showMessage(m, 5000); });
    connect(files_, &FileController::statusMessage, this,
            [this](const QString& m) { statusBar()->showMessage(m, 5000); });
    connect(doc_->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(doc_, &doc::Document::filePathChanged, this, &MainWindow::updateTitle);
    connect(doc_, &doc::Document::changed, this, [this](const doc::ChangeEvent& e) {
        if (e.type == doc::ChangeEvent::Reset)
            QTimer::singleShot(0, view_, &CanvasView::fitAll);
        updateTitle();
    });
    resize(1440, 900);
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(actions_->newDesign);
    file->addAction(actions_->open);
    auto* presets = file->addMenu(tr("Open &Preset"));
    for (const QString& id : doc::presetIds())
        presets->addAction(id, this, [this, id] {
            if (files_->maybeSave())
                openDesign(id);
        });
    file->addSeparator();
    file->addAction(actions_->save);
    file->addAction(actions_->saveAs);
    file->addSeparator();
    file->addAction(actions_->quit);
    auto* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(actions_->undo);
    edit->addAction(actions_->redo);
    edit->addSeparator();
    edit->addAction(actions_->remove);
    auto* viewMenu = menuBar()->addMenu(tr("&View"));
    viewMenu->addAction(actions_->fitView);
    viewMenu->addAction(actions_->zoomIn);
    viewMenu->addAction(actions_->zoomOut);
    auto* tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(actions_->fabricWizard);
    tools->addAction(actions_->importNccl);
    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(actions_->about);

    auto* tb = addToolBar(tr("Main"));
    tb->setObjectName(QStringLiteral("mainToolbar"));
    tb->addAction(actions_->newDesign);
    tb->addAction(actions_->open);
    tb->addAction(actions_->save);
    tb->addSeparator();
    tb->addAction(actions_->undo);
    tb->addAction(actions_->redo);
    tb->addSeparator();
    tb->addAction(actions_->fitView);

    connect(actions_->newDesign, &QAction::triggered, files_, &FileController::newDesign);
    connect(actions_->open, &QAction::triggered, files_, [this] { files_->open(); });
    connect(actions_->save, &QAction::triggered, files_, &FileController::save);
    connect(actions_->saveAs, &QAction::triggered, files_, &FileController::saveAs);
    connect(actions_->quit, &QAction::triggered, this, &QWidget::close);
    connect(actions_->remove, &QAction::triggered, this, &MainWindow::deleteSelection);
    connect(actions_->fitView, &QAction::triggered, view_, &CanvasView::fitAll);
    connect(actions_->zoomIn, &QAction::triggered, view_, [this] { view_->scale(1.25, 1.25); });
    connect(actions_->zoomOut, &QAction::triggered, view_, [this] { view_->scale(0.8, 0.8); });
    connect(actions_->importNccl, &QAction::triggered, this, [this] {
        const QString msg = importNcclTests(doc_, this);
        if (!msg.isEmpty())
            statusBar()->showMessage(msg.section(QLatin1Char('\n'), 0, 0), 8000);
    });
    connect(actions_->fabricWizard, &QAction::triggered, this,
            [this] { runFabricWizard(doc_, this); });
    connect(actions_->about, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About ClusterLens"),
                           tr("<b>ClusterLens %1</b><p>A desktop explorer for GPU infrastructure "
                              "design: fabric, memory, performance, reliability and cost in one "
                              "live picture.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

QString MainWindow::openDesign(const QString& pathOrPreset) {
    const QString err = doc_->open(pathOrPreset);
    if (err.isEmpty())
        statusBar()->showMessage(tr("Opened %1").arg(pathOrPreset), 5000);
    return err;
}

bool MainWindow::showChart(const QString& name) {
    auto* tabs = charts_->tabs();
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->tabText(i).compare(name, Qt::CaseInsensitive) == 0) {
            tabs->setCurrentIndex(i);
            return true;
        }
    return false;
}

void MainWindow::deleteSelection() {
    const QStringList ids = scene_->selectedIds();
    if (ids.isEmpty())
        return;
    std::set<std::string> gone;
    for (const auto& id : ids)
        gone.insert(id.toStdString());
    model::Design next = doc_->design();
    // Deleting a container deletes its contents.
    for (bool grew = true; grew;) {
        grew = false;
        for (const auto& d : next.devices)
            if (!d.parent.empty() && gone.count(d.parent) && gone.insert(d.id).second)
                grew = true;
    }
    std::erase_if(next.devices, [&](const model::Device& d) { return gone.count(d.id) > 0; });
    std::erase_if(next.links, [&](const model::Link& l) {
        return gone.count(l.id) || gone.count(l.from) || gone.count(l.to);
    });
    std::erase_if(next.workloads, [&](const model::Workload& w) { return gone.count(w.id) > 0; });
    for (auto& w : next.workloads)
        std::erase_if(w.placement, [&](const std::string& p) { return gone.count(p) > 0; });
    doc_->undoStack()->push(new doc::EditDesignCommand(doc_, std::move(next), tr("Delete")));
}

void MainWindow::updateTitle() {
    const QString path = doc_->filePath();
    const QString name = path.isEmpty() ? QString::fromStdString(doc_->design().name.empty()
                                                                     ? std::string("Untitled")
                                                                     : doc_->design().name)
                                        : QFileInfo(path).fileName();
    setWindowTitle(QStringLiteral("%1[*] — ClusterLens").arg(name));
    setWindowModified(doc_->isModified());
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (files_->maybeSave())
        e->accept();
    else
        e->ignore();
}

} // namespace cl::ui
