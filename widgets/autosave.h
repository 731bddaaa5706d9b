#pragma once
// Autosave and crash recovery: every interval, a modified design is written (atomically) to
// the autosave slot; a clean save or close removes it. A slot left behind by a crash (kill -9)
// is offered at the next start.

#include "document/document.h"

#include <QObject>
#include <QString>

class QTimer;

namespace cl::ui {

class Autosave : public QObject {
    Q_OBJECT
public:
    /// `dir` empty: $CLUSTERLENS_AUTOSAVE_DIR, else the platform's app-data location.
    Autosave(doc::Document* doc, int intervalMs, QObject* parent = nullptr,
             const QString& dir = {});
    [[nodiscard]] QString slotPath() const { return path_; }
    /// Writes the slot now if the design changed since the last write; returns an error text.
    QString saveNow();
    /// Removes the slot (after a clean save or close).
    void discard();
    /// A slot left by an earlier session, or empty.
    [[nodiscard]] bool hasRecovery() const;
    /// The name of the design in the slot ("" when unnamed or unreadable), for the question.
    [[nodiscard]] QString recoveryName() const;
    /// Loads the slot into the document, marked modified; returns an error text.
    QString recover();

signals:
    /// A timed autosave could not be written (the reason, e.g. "No space left on device").
    void failed(const QString& error);

private:
    doc::Document* doc_;
    QTimer* timer_;
    QString path_;
    bool dirty_ = false;
};

} // namespace cl::ui
