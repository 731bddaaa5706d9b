#include "mainwindow.h"
#include "messages.h"

#include "document/sensitivityrunner.h"

#include "actions.h"
#include "autosave.h"
#include "calibration.h"
#include "canvas.h"
#include "charts.h"
#include "comparedialog.h"
#include "explainpanel.h"
#include "fabricwizard.h"
#include "filecontroller.h"
#include "inspector.h"
#include "layoutsearch.h"
#include "model/edit.h"
#include "model/trace_formats.h"
#include "palette.h"
#include "report.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsItem>
#include <QGuiApplication>
#include <QLabel>
#include <QLocale>
#include <QMap>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QShowEvent>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

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
    charts_->sensitivityChart()->setRunner(new doc::SensitivityRunner(doc_, this));
    // Issue 23: a job picked on the Fleet tab's allocation timeline outlines the cards it ran on.
    connect(charts_->fleetChart(), &FleetChart::jobSelected, this,
            [this](const model::FleetAllocJob* job) {
                scene_->setJobCards(
                    job ? model::fleet_job_cards(
                              model::fleet_node_cards(doc_->design(), doc_->catalog()), *job)
                        : std::vector<model::FleetJobCard>{});
            });
    auto* chartDock = new QDockWidget(tr("Charts"), this);
    chartDock->setObjectName(QStringLiteral("chartDock"));
    chartDock->setWidget(charts_);
    addDockWidget(Qt::BottomDockWidgetArea, chartDock);
    // The inspector keeps the window's full height (issue 21: with the charts given room, a
    // bottom dock across the whole width left the inspector a few fields).
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    overview_ = new OverviewView(scene_, view_, this);
    auto* overviewDock = new QDockWidget(tr("Overview"), this);
    overviewDock->setObjectName(QStringLiteral("overviewDock"));
    overviewDock->setWidget(overview_);
    addDockWidget(Qt::LeftDockWidgetArea, overviewDock);
    resizeDocks({paletteDock, overviewDock}, {500, 160}, Qt::Vertical);
    // The inspector wide enough for its longest choices ("All-to-all (Megatron)", model names:
    // issue 21 found them cut at 300 px).
    resizeDocks({paletteDock, inspectorDock}, {240, 360}, Qt::Horizontal);
    resizeDocks({chartDock}, {340}, Qt::Vertical);

    actions_ = new Actions(this, doc_->undoStack());
    files_ = new FileController(doc_, this);
    const int autosaveMs = qEnvironmentVariableIsSet("CLUSTERLENS_AUTOSAVE_MS")
                               ? qEnvironmentVariableIntValue("CLUSTERLENS_AUTOSAVE_MS")
                               : 30000;
    autosave_ = new Autosave(doc_, std::max(100, autosaveMs), this);
    connect(autosave_, &Autosave::failed, this,
            [this](const QString& err) { statusBar()->showMessage(err, 10000); });
    topologySummary_ = new QLabel(this);
    topologySummary_->setObjectName(QStringLiteral("topologySummary"));
    statusBar()->addPermanentWidget(topologySummary_);
    setAcceptDrops(true); // drop a design file onto the window to open it
    buildMenus();
    // "How is this computed?" from the inspector's button or an entity's context menu.
    const auto explain = [this](const QString& key) {
        showChart(QStringLiteral("Explain"));
        if (!charts_->explainPanel()->focus(key))
            statusBar()->showMessage(tr("Nothing to explain yet for %1").arg(key), 5000);
    };
    connect(inspector_, &Inspector::explainRequested, this, explain);
    connect(scene_, &CanvasScene::explainRequested, this, explain);
    connect(inspector_, &Inspector::findLayoutRequested, this, &MainWindow::findLayout);
    connect(scene_, &CanvasScene::findLayoutRequested, this, &MainWindow::findLayout);

    connect(palette_, &Palette::linkTypeChosen, this, [this](const QString& id) {
        scene_->setLinkType(id);
        statusBar()->showMessage(
            tr("New connections use %1: drag from a device's port to another device")
                .arg(QString::fromStdString(doc_->catalog().short_name(id.toStdString()))),
            8000);
    });
    // What an edit changed besides what was typed (the cloud offer following a GPU swap).
    connect(doc_, &doc::Document::notice, this,
            [this](const QString& text) { statusBar()->showMessage(text, 20000); });
    connect(doc_, &doc::Document::filePathChanged, this, [this](const QString& path) {
        if (!path.isEmpty() && QFileInfo::exists(path))
            addRecent(QFileInfo(path).absoluteFilePath());
    });

    connect(evaluator_, &doc::Evaluator::evaluated, this,
            [this](std::shared_ptr<const model::Evaluation> ev) {
                scene_->setEvaluation(ev);
                inspector_->setEvaluation(ev);
                charts_->setEvaluation(ev);
                charts_->explainPanel()->setEvaluation(doc_->design(), *ev, doc_->catalog());
                charts_->sensitivityChart()->markStale();
                // The design's size stays in the status bar's right corner; messages of what the
                // user just did (imports, refusals, saves) take the left and are not overwritten.
                const auto& t = ev->topology;
                const auto count = [](double n, const char* one, const char* many) {
                    return QLocale().toString(n, 'f', 0) + QLatin1Char(' ') +
                           QString::fromLatin1(n == 1 ? one : many);
                };
                // Parts that are zero are left out ("1 GPU", not "1 GPU · 0 nodes · 0 switches"
                // for a card on its own: issue 21).
                QString summary = count(t.gpus, "GPU", "GPUs");
                if (t.nodes > 0)
                    summary += QStringLiteral(" · ") + count(t.nodes, "node", "nodes");
                if (t.switches > 0)
                    summary += QStringLiteral(" · ") + count(t.switches, "switch", "switches");
                topologySummary_->setText(summary);
            });
    connect(scene_, &QGraphicsScene::selectionChanged, this, [this] {
        const QStringList ids = scene_->selectedIds();
        inspector_->setSelection(ids);
        // A job picked on the Fleet tab stays outlined until something else is selected on the
        // canvas (helper-31: "job here" stayed beside the serving workload); selecting a card
        // the job ran on keeps it.
        if (!ids.isEmpty() && scene_->jobCardCount() > 0 &&
            std::none_of(ids.begin(), ids.end(),
                         [this](const QString& id) { return scene_->jobCard(id.toStdString()); }))
            charts_->fleetChart()->allocationView()->pick(-1);
        // Issue 21: the one-workload charts follow a selected workload.
        for (const auto& id : ids)
            if (doc_->design().workload(id.toStdString())) {
                charts_->setFocusWorkload(id.toStdString());
                break;
            }
    });
    connect(scene_, &CanvasScene::statusMessage, this,
            [this](const QString& m) { statusBar()->showMessage(m, 5000); });
    connect(inspector_, &Inspector::statusMessage, this,
            [this](const QString& m) { statusBar()->showMessage(m, 10000); });
    connect(files_, &FileController::statusMessage, this,
            [this](const QString& m) { statusBar()->showMessage(m, 5000); });
    connect(doc_->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(doc_, &doc::Document::filePathChanged, this, &MainWindow::updateTitle);
    connect(doc_, &doc::Document::changed, this, [this](const doc::ChangeEvent& e) {
        if (e.type == doc::ChangeEvent::Reset) {
            QTimer::singleShot(0, view_, &CanvasView::fitAll);
            if (!duplicating_) // another design: the duplicated one is no longer its original
                original_.reset();
        }
        updateTitle();
        // Only a design with a trace has one to remove (helper-32 found it always enabled).
        actions_->removeTrace->setEnabled(doc_->design().fleet.trace.jobs != nullptr);
    });
    // 1440 x 900, or less on a smaller screen (helper-16: at 1280 x 800 the window opened
    // larger than the screen, the inspector and charts cut off).
    QSize size(1440, 900);
    // (Not offscreen: its 800 x 600 "screen" is no screen, and screenshots and reports drawn
    // there want the full layout.)
    if (const QScreen* screen = QGuiApplication::primaryScreen();
        screen && QGuiApplication::platformName() != QLatin1String("offscreen"))
        size = size.boundedTo(screen->availableGeometry().size() * 0.95);
    resize(size);
    updateTitle();
}

MainWindow::~MainWindow() {
    // Children die in creation order (the document first); the scene clearing its selection
    // must not reach the inspector, which would read the deleted document.
    scene_->blockSignals(true);
    disconnect(scene_, nullptr, this, nullptr);
    // The undo stack announces "clean" as it dies; this window is half destroyed by then.
    disconnect(doc_->undoStack(), nullptr, this, nullptr);
    disconnect(doc_, nullptr, this, nullptr);
}

void MainWindow::buildMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(actions_->newDesign);
    file->addAction(actions_->open);
    auto* presets = file->addMenu(tr("Open &Preset"));
    // Presets by their designs' names (helper-22: the menu listed file ids such as
    // "h200-inference-8x"); the id is the entry's data and tooltip.
    for (const QString& id : doc::presetIds()) {
        const auto d = doc::loadDesign(id, doc_->catalog());
        const QString name =
            d && !d->name.empty()
                ? QString::fromStdString(d->name).replace(QLatin1Char('&'), QStringLiteral("&&"))
                : id;
        auto* a = presets->addAction(name, this, [this, id] {
            if (files_->maybeSave())
                openDesign(id);
        });
        a->setData(id);
        a->setToolTip(id);
    }
    presets->setToolTipsVisible(true);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    recentMenu_->setObjectName(QStringLiteral("recentMenu"));
    rebuildRecentMenu();
    file->addSeparator();
    file->addAction(actions_->save);
    file->addAction(actions_->saveAs);
    file->addAction(actions_->duplicateDesign);
    file->addSeparator();
    auto* exportMenu = file->addMenu(tr("&Export"));
    exportMenu->addAction(tr("Report as &PDF…"), this,
                          [this] { exportReport(QStringLiteral("pdf")); });
    exportMenu->addAction(tr("Tables as &CSV…"), this,
                          [this] { exportReport(QStringLiteral("csv")); });
    exportMenu->addAction(tr("C&anvas as PNG/SVG…"), this, [this] { exportImage(true); });
    exportMenu->addAction(tr("Current c&hart as PNG/SVG…"), this, [this] { exportImage(false); });
    file->addSeparator();
    file->addAction(actions_->quit);
    auto* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(actions_->undo);
    edit->addAction(actions_->redo);
    edit->addSeparator();
    edit->addAction(actions_->cut);
    edit->addAction(actions_->copy);
    edit->addAction(actions_->paste);
    edit->addAction(actions_->duplicate);
    edit->addAction(actions_->remove);
    edit->addSeparator();
    edit->addAction(actions_->selectAll);
    auto* arrange = menuBar()->addMenu(tr("&Arrange"));
    for (auto* a : {actions_->alignLeft, actions_->alignRight, actions_->alignTop,
                    actions_->alignBottom, actions_->alignCenterH, actions_->alignCenterV})
        arrange->addAction(a);
    auto* viewMenu = menuBar()->addMenu(tr("&View"));
    viewMenu->addAction(actions_->fitView);
    viewMenu->addAction(actions_->zoomIn);
    viewMenu->addAction(actions_->zoomOut);
    viewMenu->addAction(actions_->largeCharts);
    viewMenu->addSeparator();
    for (auto* dock : findChildren<QDockWidget*>())
        viewMenu->addAction(dock->toggleViewAction());
    auto* tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(actions_->fabricWizard);
    tools->addAction(actions_->importNccl);
    tools->addAction(actions_->importTrace);
    tools->addAction(actions_->removeTrace);
    auto* find = tools->addAction(tr("&Find a Layout…"), this, [this] { findLayout({}); });
    find->setObjectName(QStringLiteral("findLayoutAction"));
    tools->addAction(tr("&Compare Designs…"), this, [this] {
        CompareDialog dlg(doc_->design(), doc_->catalog_ptr(), this);
        if (original_) // the design this one was duplicated from, beside it
            dlg.addDesign(*original_, originalName_);
        dlg.exec();
    });
    auto* help = menuBar()->addMenu(tr("&Help"));
    auto* how = help->addAction(tr("How Is This &Computed?"), this, [this] {
        showChart(QStringLiteral("Explain"));
        const QStringList sel = scene_->selectedIds();
        if (!sel.isEmpty())
            charts_->explainPanel()->focus(sel.front() + QStringLiteral(".mfu")) ||
                charts_->explainPanel()->focus(sel.front() + QStringLiteral(".tpot"));
    });
    how->setShortcut(QKeySequence::HelpContents);
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
    connect(actions_->duplicateDesign, &QAction::triggered, this, &MainWindow::duplicateDesign);
    connect(actions_->quit, &QAction::triggered, this, &QWidget::close);
    connect(actions_->remove, &QAction::triggered, scene_, &CanvasScene::deleteSelection);
    connect(actions_->copy, &QAction::triggered, this, &MainWindow::copy);
    connect(actions_->cut, &QAction::triggered, this, [this] {
        copy();
        scene_->deleteSelection();
    });
    connect(actions_->paste, &QAction::triggered, this, &MainWindow::paste);
    connect(actions_->duplicate, &QAction::triggered, this, [this] {
        const QString frag = scene_->copySelection();
        // Below the original, clear of its card (cards are 70 high; helper-24: the copy at
        // +40, +40 covered the original), as its own undo step.
        if (!frag.isEmpty())
            scene_->paste(frag, {30, 100}, tr("Duplicate"));
    });
    connect(actions_->selectAll, &QAction::triggered, this, [this] { scene_->selectAll(); });
    const std::pair<QAction*, model::Alignment> aligns[] = {
        {actions_->alignLeft, model::Alignment::left},
        {actions_->alignRight, model::Alignment::right},
        {actions_->alignTop, model::Alignment::top},
        {actions_->alignBottom, model::Alignment::bottom},
        {actions_->alignCenterH, model::Alignment::center_horizontal},
        {actions_->alignCenterV, model::Alignment::center_vertical}};
    for (const auto& [a, al] : aligns)
        connect(a, &QAction::triggered, this,
                [this, al = al] { scene_->alignSelection(static_cast<int>(al)); });
    connect(actions_->fitView, &QAction::triggered, view_, &CanvasView::fitAll);
    // Issue 21: the charts on demand with room to read them: three quarters of the window's
    // height (70% left a chart with a five-line caption 285 px of plot at 1280 x 800,
    // helper-11), back to 40% when unchecked (a floating Charts dock can be sized freely too).
    connect(actions_->largeCharts, &QAction::toggled, this, [this](bool on) {
        if (auto* dock = findChild<QDockWidget*>(QStringLiteral("chartDock"))) {
            dock->show();
            resizeDocks({dock}, {on ? height() * 3 / 4 : height() * 4 / 10}, Qt::Vertical);
        }
        QSettings().setValue(QStringLiteral("view/largeCharts"), on); // the next start too
    });
    connect(actions_->zoomIn, &QAction::triggered, view_, [this] { view_->zoomBy(1.25); });
    connect(actions_->zoomOut, &QAction::triggered, view_, [this] { view_->zoomBy(0.8); });
    connect(actions_->importNccl, &QAction::triggered, this, [this] {
        const QString msg = importNcclTests(doc_, this);
        if (!msg.isEmpty())
            statusBar()->showMessage(msg.section(QLatin1Char('\n'), 0, 0), 8000);
    });
    // The drawn nodes' size (it names a trace's classes: one GPU, up to a node, more) and the
    // GPUs of whole-GPU nodes traced jobs run on (not the mix's MIG or time-sliced nodes).
    const auto traceNodes = [this] {
        std::pair<int, std::int64_t> out{0, 0};
        if (const auto ev = evaluator_->current(); ev && ev->topology.nodes > 0) {
            const double g = ev->topology.gpus / ev->topology.nodes;
            if (g == std::floor(g) && g >= 1) {
                const auto& mix = doc_->design().fleet;
                out = {static_cast<int>(g),
                       model::fleet_whole_gpus(static_cast<std::int64_t>(ev->topology.nodes),
                                               static_cast<int>(g), mix.mig_nodes,
                                               mix.timeslice_nodes)};
            }
        }
        return out;
    };
    connect(actions_->importTrace, &QAction::triggered, this, [this, traceNodes] {
        const auto [per, whole] = traceNodes();
        const QString msg = importJobTrace(doc_, this, per, whole);
        if (!msg.isEmpty())
            statusBar()->showMessage(msg, 8000);
    });
    connect(actions_->removeTrace, &QAction::triggered, this, [this, traceNodes] {
        statusBar()->showMessage(removeJobTrace(doc_, traceNodes().second), 8000);
    });
    actions_->removeTrace->setEnabled(doc_->design().fleet.trace.jobs != nullptr);
    connect(actions_->fabricWizard, &QAction::triggered, this, [this] {
        // The new fabric in view (helper-15: the job's card was off-screen after it).
        if (runFabricWizard(doc_, this))
            QMetaObject::invokeMethod(view_, &CanvasView::fitAll, Qt::QueuedConnection);
    });
    connect(actions_->about, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About ClusterLens"),
                           tr("<b>ClusterLens %1</b><p>A desktop explorer for GPU infrastructure "
                              "design: fabric, memory, performance, reliability and cost in one "
                              "live picture.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::duplicateDesign() {
    // Journey 2 step 5: keep the design as it is and carry on in a copy (helper-18: the way was
    // Save As, edit, save again, then "Add a design file..." in Compare). Unsaved changes are
    // offered for saving first, so the original on disk is what the person sees.
    if (!files_->maybeSave())
        return;
    const model::Design was = doc_->design();
    const QString file = doc_->filePath();
    const QString name =
        was.name.empty() ? tr("Untitled design") : QString::fromStdString(was.name);
    original_ = std::make_unique<model::Design>(was);
    originalName_ = file.isEmpty() || file.startsWith(QLatin1Char(':'))
                        ? tr("%1 (original)").arg(name)
                        : tr("%1 (%2)").arg(name, QFileInfo(file).fileName());
    duplicating_ = true;
    doc_->reset(was, {}); // no file: Save asks where the copy goes
    duplicating_ = false;
    // The new name is the copy's first edit: the window says it is unsaved.
    doc_->setProperty(QString(), model::Section::design, QStringLiteral("name"),
                      model::FieldValue{tr("%1 (copy)").arg(name).toStdString()});
    statusBar()->showMessage(
        tr("Editing a copy of %1; Tools ▸ Compare Designs shows the original beside it").arg(name),
        10000);
}

QString MainWindow::openDesign(const QString& pathOrPreset) {
    const QString err = doc_->open(pathOrPreset);
    if (err.isEmpty())
        statusBar()->showMessage(tr("Opened %1")
                                     .arg(QString::fromStdString(doc_->design().name).isEmpty()
                                              ? pathOrPreset
                                              : QString::fromStdString(doc_->design().name)),
                                 5000);
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

void MainWindow::copy() {
    const QString frag = scene_->copySelection();
    if (frag.isEmpty())
        return;
    auto* mime = new QMimeData;
    mime->setData(QStringLiteral("application/x-clusterlens-fragment"), frag.toUtf8());
    mime->setText(frag); // also as text: paste into another window or a text editor
    QApplication::clipboard()->setMimeData(mime);
    pasteCount_ = 0;
    statusBar()->showMessage(tr("Copied %1 item(s)").arg(scene_->selectedIds().size()), 3000);
}

void MainWindow::paste() {
    const QMimeData* mime = QApplication::clipboard()->mimeData();
    if (!mime)
        return;
    QString frag =
        QString::fromUtf8(mime->data(QStringLiteral("application/x-clusterlens-fragment")));
    if (frag.isEmpty())
        frag = mime->text();
    if (frag.trimmed().isEmpty())
        return;
    ++pasteCount_;
    scene_->paste(frag, QPointF(40.0 * pasteCount_, 40.0 * pasteCount_));
}

QString MainWindow::exportReport(const QString& kind, QString path) {
    if (path.isEmpty()) {
        const QString name = QString::fromStdString(doc_->design().name);
        path =
            kind == QLatin1String("pdf")
                ? QFileDialog::getSaveFileName(
                      this, tr("Export report"),
                      suggestedPath(name, doc_->filePath(), tr(" report"), QStringLiteral("pdf")),
                      tr("PDF (*.pdf)"))
                : QFileDialog::getSaveFileName(
                      this, tr("Export tables"),
                      suggestedPath(name, doc_->filePath(), tr(" tables"), QStringLiteral("csv")),
                      tr("CSV (*.csv)"));
        if (path.isEmpty())
            return {};
        rememberFolder(path);
    }
    evaluator_->evaluateNow(); // the evaluation of the design as it is now, not a second one
    const auto ev = evaluator_->current();
    if (!ev)
        return tr("nothing evaluated yet");
    const QString err = kind == QLatin1String("pdf")
                            ? writeReportPdf(path, doc_->design(), *ev, doc_->catalog_ptr())
                            : writeReportCsv(path, doc_->design(), *ev, doc_->catalog());
    if (!err.isEmpty())
        showWarning(this, tr("Export failed"), err);
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
    return err;
}

QString MainWindow::exportImage(bool canvas, QString path) {
    if (path.isEmpty()) {
        const QString what =
            canvas ? tr(" canvas")
                   : QStringLiteral(" ") + charts_->tabs()
                                               ->tabText(charts_->tabs()->currentIndex())
                                               .remove(QLatin1Char('&'));
        path = QFileDialog::getSaveFileName(
            this, canvas ? tr("Export canvas") : tr("Export chart"),
            suggestedPath(QString::fromStdString(doc_->design().name), doc_->filePath(), what,
                          QStringLiteral("png")),
            tr("Images (*.png *.svg)"));
        if (path.isEmpty())
            return {};
        rememberFolder(path);
    }
    const QString err = canvas ? exportSceneImage(scene_, path)
                               : exportWidgetImage(charts_->tabs()->currentWidget(), path);
    if (!err.isEmpty())
        showWarning(this, tr("Export failed"), err);
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
    return err;
}

QStringList MainWindow::recentFiles() const {
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void MainWindow::addRecent(const QString& path) {
    QStringList r = recentFiles();
    r.removeAll(path);
    r.prepend(path);
    while (r.size() > 10)
        r.removeLast();
    QSettings settings;
    settings.setValue(QStringLiteral("recentFiles"), r);
    settings.sync();
    if (settings.status() != QSettings::NoError)
        statusBar()->showMessage(
            tr("Could not record the recent files in %1").arg(settings.fileName()), 8000);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    if (!recentMenu_)
        return;
    recentMenu_->clear();
    // Files that are gone (moved, deleted, an unmounted disk) are not offered.
    QStringList r = recentFiles();
    r.removeIf([](const QString& path) { return !QFileInfo::exists(path); });
    // By file name; files of the same name in different folders are told apart by their folder
    // ("two.json — /home/me/a"), and every entry's tooltip is its full path.
    QMap<QString, int> names;
    for (const QString& path : r)
        ++names[QFileInfo(path).fileName()];
    recentMenu_->setToolTipsVisible(true);
    for (const QString& path : r) {
        const QFileInfo fi(path);
        QString label = fi.fileName();
        if (names.value(label) > 1)
            label += QStringLiteral(" — ") + QDir::toNativeSeparators(fi.absolutePath());
        label.replace(QLatin1Char('&'), QStringLiteral("&&")); // not a mnemonic
        recentMenu_
            ->addAction(label, this,
                        [this, path] {
                            if (files_->open(path))
                                addRecent(path);
                        })
            ->setToolTip(plainTip(path));
    }
    recentMenu_->setEnabled(!r.isEmpty());
}

void MainWindow::restoreViewSettings() {
    if (QSettings().value(QStringLiteral("view/largeCharts"), false).toBool())
        // After the window has its size: the dock takes 70% of the height it is shown at.
        QMetaObject::invokeMethod(
            this,
            [this] {
                actions_->largeCharts->setChecked(true);
                // The design opened into the taller canvas: fit it to the one it has now, once
                // the docks have their new sizes (helper-24: cards cut after a restart).
                QMetaObject::invokeMethod(view_, &CanvasView::fitAll, Qt::QueuedConnection);
            },
            Qt::QueuedConnection);
}

bool MainWindow::offerRecovery(bool ask) {
    if (!autosave_->hasRecovery())
        return false;
    if (ask) {
        // Which design, and that it opens in place of the one just opened (helper-3: a preset
        // started with a question about some other design's autosave).
        const QString name = autosave_->recoveryName();
        const QString current = QString::fromStdString(doc_->design().name);
        QString text = tr("ClusterLens did not close cleanly. Recover the unsaved changes to "
                          "\"%1\", autosaved %2?")
                           .arg(name.isEmpty() ? tr("Untitled design") : name,
                                QLocale(QLocale::English)
                                    .toString(QFileInfo(autosave_->slotPath()).lastModified(),
                                              QStringLiteral("d MMM yyyy, HH:mm")));
        if (!current.isEmpty() && current != name)
            text += tr("\n\nIt opens in place of \"%1\"; No discards the autosave.").arg(current);
        QMessageBox box(QMessageBox::Question, tr("Recover unsaved design?"), text,
                        QMessageBox::Yes | QMessageBox::No, this);
        box.setTextFormat(Qt::PlainText); // names come from files
        box.setDefaultButton(QMessageBox::Yes);
        const auto answer = box.exec();
        if (answer != QMessageBox::Yes) {
            autosave_->discard();
            return false;
        }
    }
    const QString err = autosave_->recover();
    if (!err.isEmpty()) {
        showWarning(this, tr("Cannot recover"), err);
        return false;
    }
    statusBar()->showMessage(tr("Recovered the autosaved design; save it to keep it."), 8000);
    return true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls())
        for (const QUrl& u : e->mimeData()->urls())
            if (u.isLocalFile()) {
                e->acceptProposedAction();
                return;
            }
}

void MainWindow::dropEvent(QDropEvent* e) {
    for (const QUrl& u : e->mimeData()->urls())
        if (u.isLocalFile()) {
            if (files_->open(u.toLocalFile()))
                e->acceptProposedAction();
            return;
        }
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

void MainWindow::showEvent(QShowEvent* e) {
    QMainWindow::showEvent(e);
    // Issue 21: the charts got ~200 px of a 1000 px window (the Fabric chart's axes and legend
    // were not drawn at that height): on first show they get 40% of the window's height.
    if (!sized_) {
        sized_ = true;
        if (auto* dock = findChild<QDockWidget*>(QStringLiteral("chartDock")))
            resizeDocks({dock}, {height() * 2 / 5}, Qt::Vertical);
    }
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (files_->maybeSave()) {
        autosave_->discard(); // a clean close leaves nothing to recover
        e->accept();
    } else {
        e->ignore();
    }
}

void MainWindow::findLayout(const QString& workloadId) {
    // The workload asked for, else the selected training job, else the design's first one.
    QString id = workloadId;
    const auto& d = doc_->design();
    auto training = [&](const QString& x) {
        const auto* w = d.workload(x.toStdString());
        return w && w->kind == model::WorkloadKind::training;
    };
    if (!training(id)) {
        id.clear();
        for (const auto& s : scene_->selectedIds())
            if (training(s))
                id = s;
    }
    if (id.isEmpty())
        for (const auto& w : d.workloads)
            if (w.kind == model::WorkloadKind::training) {
                id = QString::fromStdString(w.id);
                break;
            }
    if (id.isEmpty()) {
        statusBar()->showMessage(tr("Find a layout: the design has no training workload"), 5000);
        return;
    }
    auto* dlg = new LayoutSearchDialog(doc_, id.toStdString(), this);
    dlg->setObjectName(QStringLiteral("layoutSearchDialog"));
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->show();
}

} // namespace cl::ui
