#pragma once
// Error and warning boxes whose text may come from a file (a design's ids and names, an
// nccl-tests log, an OS error with a path): always plain text, never rich text. QMessageBox's
// static helpers guess the format and would render HTML from the file (issue 17, item 9).

#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <QTextDocument>

namespace cl::ui {

inline void showPlainMessage(QWidget* parent, QMessageBox::Icon icon, const QString& title,
                             const QString& text) {
    QMessageBox box(icon, title, text, QMessageBox::Ok, parent);
    box.setTextFormat(Qt::PlainText);
    box.exec();
}

/// The folder file dialogs start in (helper-24: every dialog opened in the home folder): the
/// one a file was last opened from or saved to, in this session or an earlier one, while it
/// exists; else the home folder.
inline QString lastFolder() {
    const QString d = QSettings().value(QStringLiteral("files/lastFolder")).toString();
    return !d.isEmpty() && QFileInfo(d).isDir() ? d : QDir::homePath();
}
/// Remembers the folder of a file the user chose in a dialog (for the next dialog).
inline void rememberFolder(const QString& file) {
    if (!file.isEmpty())
        QSettings().setValue(QStringLiteral("files/lastFolder"), QFileInfo(file).absolutePath());
}

/// The name a save dialog proposes (helper-16: every save dialog opened empty): the design's
/// name made safe for a file name ("DGX H100 SuperPOD, 4 scalable units.pdf"), with `suffix`
/// before the extension, in the design file's folder (else the folder used last).
inline QString suggestedPath(const QString& designName, const QString& designFile,
                             const QString& suffix, const QString& extension) {
    QString base = designName;
    base.replace(QRegularExpression(QStringLiteral("[\\\\/:*?\"<>|\\x00-\\x1f]")),
                 QStringLiteral(" "));
    base = base.simplified().left(80).trimmed();
    if (base.isEmpty())
        base = QStringLiteral("Untitled design");
    // A folder the user cannot write to (an installed preset's) is no place to propose.
    const QString folder = designFile.isEmpty() ? QString() : QFileInfo(designFile).absolutePath();
    const QFileInfo fi(folder);
    const QString dir =
        folder.isEmpty() || (fi.exists() && !fi.isWritable()) ? lastFolder() : folder;
    return QDir(dir).filePath(base + suffix + QLatin1Char('.') + extension);
}

inline void showError(QWidget* parent, const QString& title, const QString& text) {
    showPlainMessage(parent, QMessageBox::Critical, title, text);
}

inline void showWarning(QWidget* parent, const QString& title, const QString& text) {
    showPlainMessage(parent, QMessageBox::Warning, title, text);
}

/// A tooltip whose text may come from a file (ids, names, catalog sources, paths). Qt shows a
/// tooltip as rich text when it looks like HTML; escaped, it shows as the text it is.
inline QString plainTip(const QString& text) {
    if (!Qt::mightBeRichText(text))
        return text;
    return QStringLiteral("<p style='white-space:pre-wrap'>") + text.toHtmlEscaped() +
           QStringLiteral("</p>");
}

} // namespace cl::ui
