#pragma once
// File handling for the main window: new, open, save, save as, asking before discarding.

#include "document/document.h"

#include <QObject>

class QWidget;

namespace cl::ui {

class FileController : public QObject {
    Q_OBJECT
public:
    FileController(doc::Document* doc, QWidget* window);
    bool newDesign();
    bool open(const QString& path = {});
    bool save();
    bool saveAs();
    /// Asks to save unsaved changes; false when the user cancels.
    bool maybeSave();

signals:
    void statusMessage(const QString& text);

private:
    doc::Document* doc_;
    QWidget* window_;
};

} // namespace cl::ui
