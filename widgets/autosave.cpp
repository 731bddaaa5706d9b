#include "autosave.h"

#include "document/atomicfile.h"
#include "model/design.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTimer>

namespace cl::ui {

Autosave::Autosave(doc::Document* doc, int intervalMs, QObject* parent, const QString& dir)
    : QObject(parent), doc_(doc), timer_(new QTimer(this)) {
    QString base = dir;
    if (base.isEmpty())
        base = qEnvironmentVariable("CLUSTERLENS_AUTOSAVE_DIR");
    if (base.isEmpty())
        base = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    QDir().mkpath(base);
    path_ = QDir(base).filePath(QStringLiteral("autosave.clusterlens.json"));
    // Any edit makes the autosave stale. (Reading isModified() here missed the first edit after
    // opening or saving: QUndoStack moves its index after the document announces the change.)
    connect(doc_, &doc::Document::changed, this, [this] { dirty_ = true; });
    connect(doc_, &doc::Document::saved, this, [this] { discard(); }); // nothing to recover
    connect(timer_, &QTimer::timeout, this, [this] {
        if (const QString err = saveNow(); !err.isEmpty())
            emit failed(err);
    });
    timer_->start(intervalMs);
}

QString Autosave::saveNow() {
    if (!dirty_ || !doc_->isModified())
        return {};
    const std::string text = model::design_to_json(doc_->design());
    if (QString err = doc::writeFileAtomically(
            path_, QByteArray(text.data(), static_cast<qsizetype>(text.size())));
        !err.isEmpty())
        return tr("Autosave failed (the last autosave is kept): %1").arg(err);
    dirty_ = false;
    return {};
}

void Autosave::discard() {
    QFile::remove(path_);
    dirty_ = false;
}

bool Autosave::hasRecovery() const {
    return QFile::exists(path_);
}

QString Autosave::recoveryName() const {
    const auto d = doc::loadDesign(path_, doc_->catalog());
    return d ? QString::fromStdString(d.value().name) : QString();
}

QString Autosave::recover() {
    auto d = doc::loadDesign(path_, doc_->catalog());
    if (!d)
        return QString::fromStdString(d.error_text());
    doc_->reset(std::move(d).value());
    doc_->markUnsaved(); // recovered work is unsaved
    dirty_ = true;
    return {};
}

} // namespace cl::ui
