#pragma once
// The application's actions (menus and toolbar share them), kept out of the main window.

#include <QObject>

class QAction;
class QMainWindow;
class QUndoStack;

namespace cl::ui {

struct Actions : QObject {
    Q_OBJECT
public:
    Actions(QMainWindow* window, QUndoStack* undo);
    QAction *newDesign, *open, *save, *saveAs, *quit;
    /// File ▸ Duplicate Design: carry on in an unsaved copy; Compare shows the original beside it.
    QAction* duplicateDesign;
    QAction *undo, *redo, *remove;
    QAction *cut, *copy, *paste, *duplicate, *selectAll;
    QAction *alignLeft, *alignRight, *alignTop, *alignBottom, *alignCenterH, *alignCenterV;
    QAction *fitView, *zoomIn, *zoomOut;
    /// Issue 21: the charts take most of the window's height (checked) or their usual 40%.
    QAction* largeCharts;
    QAction *importNccl, *fabricWizard, *importTrace, *removeTrace;
    QAction* about;
};

} // namespace cl::ui
