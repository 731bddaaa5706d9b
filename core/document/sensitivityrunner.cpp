#include "document/sensitivityrunner.h"

#include <QMetaObject>
#include <QPointer>

namespace cl::doc {

SensitivityRunner::SensitivityRunner(Document* doc, QObject* parent) : QObject(parent), doc_(doc) {}

SensitivityRunner::~SensitivityRunner() {
    if (worker_.joinable())
        worker_.join(); // the result it posts is dropped: this object is gone
}

void SensitivityRunner::request(model::SensitivityOutput output) {
    if (worker_.joinable()) {
        pending_ = output; // runs when the current run ends, on the design as it is then
        return;
    }
    start(output);
}

void SensitivityRunner::start(model::SensitivityOutput output) {
    // The worker owns copies of everything it reads: the design and the catalog pointer.
    model::Design design = doc_->design();
    auto catalog = doc_->catalog_ptr();
    QPointer<SensitivityRunner> self(this);
    worker_ = std::thread([self, design = std::move(design), catalog, output] {
        auto r = std::make_shared<const model::SensitivityResult>(
            model::sensitivity(design, *catalog, output));
        if (self)
            QMetaObject::invokeMethod(
                self.data(),
                [self, r] {
                    if (self)
                        self->done(r);
                },
                Qt::QueuedConnection);
    });
}

void SensitivityRunner::done(std::shared_ptr<const model::SensitivityResult> r) {
    if (worker_.joinable())
        worker_.join();
    if (pending_) {
        const auto next = *pending_;
        pending_.reset();
        start(next); // the newer request replaces this result
        return;
    }
    emit finished(std::move(r));
}

} // namespace cl::doc
