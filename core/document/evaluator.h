#pragma once
// Re-evaluates the design when the document changes, coalescing bursts of edits with a
// zero-interval single-shot timer, and publishes an immutable Evaluation.

#include "document/document.h"
#include "model/evaluate.h"

#include <QObject>
#include <QTimer>

#include <memory>

namespace cl::doc {

class Evaluator : public QObject {
    Q_OBJECT
public:
    explicit Evaluator(Document* doc, QObject* parent = nullptr);
    [[nodiscard]] std::shared_ptr<const model::Evaluation> current() const { return current_; }
    /// Evaluates now (tests, screenshots).
    void evaluateNow();

signals:
    void evaluated(std::shared_ptr<const cl::model::Evaluation> evaluation);

private:
    Document* doc_;
    QTimer timer_;
    std::shared_ptr<const model::Evaluation> current_;
};

} // namespace cl::doc
