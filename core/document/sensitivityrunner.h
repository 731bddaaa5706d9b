#pragma once
// Runs the tornado (model::sensitivity: two evaluations per input) for the document's design
// on a worker thread and publishes the result, so the chart neither holds a copy of the design
// nor blocks the GUI thread (issue 16). One run at a time; a request made while one runs is
// remembered and runs next (the newest request wins).

#include "document/document.h"
#include "model/sensitivity.h"

#include <QObject>

#include <memory>
#include <optional>
#include <thread>

namespace cl::doc {

class SensitivityRunner : public QObject {
    Q_OBJECT
public:
    explicit SensitivityRunner(Document* doc, QObject* parent = nullptr);
    ~SensitivityRunner() override;

    /// Computes `output` for the design as it is now; `finished` follows.
    void request(model::SensitivityOutput output);
    [[nodiscard]] bool busy() const { return worker_.joinable(); }

signals:
    void finished(std::shared_ptr<const cl::model::SensitivityResult> result);

private:
    void start(model::SensitivityOutput output);
    void done(std::shared_ptr<const model::SensitivityResult> r);

    Document* doc_;
    std::thread worker_;
    std::optional<model::SensitivityOutput> pending_;
};

} // namespace cl::doc
