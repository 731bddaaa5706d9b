#include "actions.h"

#include <QAction>
#include <QMainWindow>
#include <QUndoStack>

namespace cl::ui {

Actions::Actions(QMainWindow* w, QUndoStack* undoStack) : QObject(w) {
    auto make = [&](const QString& text, QKeySequence key, const char* name) {
        auto* a = new QAction(text, w);
        a->setObjectName(QString::fromLatin1(name));
        if (!key.isEmpty())
            a->setShortcut(key);
        w->addAction(a);
        return a;
    };
    newDesign = make(tr("&New"), QKeySequence::New, "actionNew");
    open = make(tr("&Open…"), QKeySequence::Open, "actionOpen");
    save = make(tr("&Save"), QKeySequence::Save, "actionSave");
    saveAs = make(tr("Save &As…"), QKeySequence::SaveAs, "actionSaveAs");
    duplicateDesign = make(tr("&Duplicate Design"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D),
                           "actionDuplicateDesign");
    quit = make(tr("&Quit"), QKeySequence::Quit, "actionQuit");
    undo = undoStack->createUndoAction(w, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    redo = undoStack->createRedoAction(w, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    // The toolbar buttons say "Undo" and "Redo" (their tooltips and the Edit menu name the
    // step): with the step's name the button grew to "Undo Change Notebooks and CI: GPU busy
    // when alone" and pushed the others along (helper-15).
    undo->setIconText(tr("Undo"));
    redo->setIconText(tr("Redo"));
    remove = make(tr("&Delete"), QKeySequence::Delete, "actionDelete");
    cut = make(tr("Cu&t"), QKeySequence::Cut, "actionCut");
    copy = make(tr("&Copy"), QKeySequence::Copy, "actionCopy");
    paste = make(tr("&Paste"), QKeySequence::Paste, "actionPaste");
    duplicate = make(tr("D&uplicate"), QKeySequence(Qt::CTRL | Qt::Key_D), "actionDuplicate");
    selectAll = make(tr("Select &All"), QKeySequence::SelectAll, "actionSelectAll");
    alignLeft = make(tr("Align &Left"), {}, "actionAlignLeft");
    alignRight = make(tr("Align &Right"), {}, "actionAlignRight");
    alignTop = make(tr("Align &Top"), {}, "actionAlignTop");
    alignBottom = make(tr("Align &Bottom"), {}, "actionAlignBottom");
    alignCenterH = make(tr("Align in a &Column"), {}, "actionAlignColumn");
    alignCenterV = make(tr("Align in a Ro&w"), {}, "actionAlignRow");
    fitView = make(tr("&Fit to View"), QKeySequence(Qt::CTRL | Qt::Key_0), "actionFit");
    zoomIn = make(tr("Zoom &In"), QKeySequence::ZoomIn, "actionZoomIn");
    zoomOut = make(tr("Zoom &Out"), QKeySequence::ZoomOut, "actionZoomOut");
    largeCharts = make(tr("&Large Charts"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L),
                       "actionLargeCharts");
    largeCharts->setCheckable(true);
    about = make(tr("&About ClusterLens"), {}, "actionAbout");
    importNccl = make(tr("Import &nccl-tests Output…"), {}, "actionImportNccl");
    importTrace = make(tr("Import &Job Trace…"), {}, "actionImportTrace");
    removeTrace = make(tr("Remove Job Trace"), {}, "actionRemoveTrace");
    fabricWizard = make(tr("&Fabric Wizard…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F),
                        "actionFabricWizard");
}

} // namespace cl::ui
