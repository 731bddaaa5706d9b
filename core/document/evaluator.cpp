#include "document/evaluator.h"

namespace cl::doc {

Evaluator::Evaluator(Document* doc, QObject* parent) : QObject(parent), doc_(doc) {
    timer_.setSingleShot(true);
    timer_.setInterval(0);
    connect(&timer_, &QTimer::timeout, this, &Evaluator::evaluateNow);
    connect(doc_, &Document::changed, this, [this] { timer_.start(); });
}

void Evaluator::evaluateNow() {
    timer_.stop();
    current_ =
        std::make_shared<const model::Evaluation>(model::evaluate(doc_->design(), doc_->catalog()));
    emit evaluated(current_);
}

} // namespace cl::doc
