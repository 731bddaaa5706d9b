#pragma once
// "Find a layout": runs the parallelism search on a worker thread (core/model/search.h), lists
// the best layouts that fit, and applies the chosen one to the workload as one undo step.

#include "document/document.h"
#include "model/search.h"

#include <QDialog>

#include <atomic>
#include <memory>
#include <thread>

class QChart;
class QLabel;
class QPushButton;
class QTableWidget;

namespace cl::ui {

class LayoutSearchDialog : public QDialog {
    Q_OBJECT
public:
    LayoutSearchDialog(doc::Document* doc, const std::string& workloadId,
                       QWidget* parent = nullptr);
    ~LayoutSearchDialog() override;
    /// Blocks until the search finished (tests).
    void waitForResults();
    [[nodiscard]] QTableWidget* table() const { return table_; }
    /// Applies result row `row` to the workload; false when there is none.
    bool applyRow(int row);

signals:
    void searchFinished();

private:
    void showResults();

    doc::Document* doc_;
    std::string workload_;
    std::atomic<bool> cancel_{false};
    std::thread worker_;
    std::shared_ptr<model::Result<model::SearchResult>> result_;
    QTableWidget* table_;
    QLabel* status_;
    QPushButton* apply_;
    QChart* chart_;
};

} // namespace cl::ui
