#include "filecontroller.h"
#include "messages.h"

#include <QFileDialog>
#include <QMessageBox>
#include <QWidget>

namespace cl::ui {

FileController::FileController(doc::Document* doc, QWidget* window)
    : QObject(window), doc_(doc), window_(window) {}

bool FileController::maybeSave() {
    if (!doc_->isModified())
        return true;
    const auto r = QMessageBox::warning(
        window_, tr("Unsaved changes"), tr("The design has unsaved changes. Save them?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (r == QMessageBox::Save)
        return save();
    return r == QMessageBox::Discard;
}

bool FileController::newDesign() {
    if (!maybeSave())
        return false;
    model::Design d;
    d.name = tr("Untitled design").toStdString();
    doc_->reset(std::move(d));
    return true;
}

bool FileController::open(const QString& given) {
    if (!maybeSave())
        return false;
    QString path = given;
    if (path.isEmpty()) {
        path = QFileDialog::getOpenFileName(window_, tr("Open design"), lastFolder(),
                                            tr("ClusterLens designs (*.json);;All files (*)"));
        rememberFolder(path);
    }
    if (path.isEmpty())
        return false;
    const QString err = doc_->open(path);
    if (!err.isEmpty()) {
        showError(window_, tr("Cannot open design"), err);
        return false;
    }
    emit statusMessage(tr("Opened %1").arg(path));
    return true;
}

bool FileController::save() {
    if (doc_->filePath().isEmpty())
        return saveAs();
    const QString err = doc_->saveAs(doc_->filePath());
    if (!err.isEmpty()) {
        showError(window_, tr("Cannot save design"), err);
        return false;
    }
    emit statusMessage(tr("Saved %1").arg(doc_->filePath()));
    return true;
}

bool FileController::saveAs() {
    const QString path = QFileDialog::getSaveFileName(
        window_, tr("Save design as"),
        doc_->filePath().isEmpty() ? suggestedPath(QString::fromStdString(doc_->design().name), {},
                                                   {}, QStringLiteral("json"))
                                   : doc_->filePath(),
        tr("ClusterLens designs (*.json)"));
    if (path.isEmpty())
        return false;
    rememberFolder(path);
    const QString err = doc_->saveAs(path);
    if (!err.isEmpty()) {
        showError(window_, tr("Cannot save design"), err);
        return false;
    }
    emit statusMessage(tr("Saved %1").arg(path));
    return true;
}

} // namespace cl::ui
