#include "autosave.h"

#include "model/design.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>
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
    connect(doc_, &doc::Document::changed, this, [this] { dirty_ = doc_->isModified(); });
    connect(doc_, &doc::Document::saved, this, [this] { discard(); }); // nothing to recover
    connect(timer_, &QTimer::timeout, this, [this] { saveNow(); });
    timer_->start(intervalMs);
}

QString Autosave::saveNow() {
    if (!dirty_ || !doc_->isModified())
        return {};
    QSaveFile f(path_);
    if (!f.open(QIODevice::WriteOnly))
        return tr("Cannot autosave to %1: %2").arg(path_, f.errorString());
    const std::string text = model::design_to_json(doc_->design());
    f.write(text.data(), static_cast<qint64>(text.size()));
    if (!f.commit())
        return tr("Cannot autosave to %1: %2").arg(path_, f.errorString());
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

QString Autosave::recover() {
    auto d = doc::loadDesign(path_, doc_->catalog());
    if (!d)
        return QString::fromStdString(d.error_text());
    doc_->reset(std::move(d).value());
    doc_->undoStack()->resetClean(); // recovered work is unsaved
    dirty_ = true;
    return {};
}

} // namespace cl::ui
