#pragma once
// Tools ▸ Compare: the current design next to other designs (files or presets), the key
// numbers in one table with the change from the current design (core/model/compare).

#include "model/catalog.h"
#include "model/design.h"
#include "model/evaluate.h"
#include "model/report.h"

#include <QDialog>

#include <memory>
#include <vector>

class QLabel;
class QTableWidget;

namespace cl::ui {

class CompareDialog : public QDialog {
    Q_OBJECT
public:
    CompareDialog(const model::Design& current, std::shared_ptr<const model::Catalog> catalog,
                  QWidget* parent = nullptr);
    /// Adds a design file or preset id as a column; returns an error text.
    QString addDesign(const QString& pathOrPreset);
    /// Adds a design held in memory (the original of a duplicated design) under `name`.
    void addDesign(const model::Design& design, const QString& name);
    [[nodiscard]] QTableWidget* table() const { return table_; }
    /// The comparison as the report prints it (model::comparison_table).
    [[nodiscard]] model::ReportTable comparison() const;
    /// Writes this design's PDF report with the comparison in it; an error text or empty.
    QString writeReport(const QString& path) const;

private:
    void refresh();
    model::Design current_;
    std::shared_ptr<const model::Catalog> catalog_;
    std::vector<QString> names_;
    std::vector<model::Evaluation> evs_;
    QTableWidget* table_;
    QLabel* notes_; ///< why a design has no numbers in some rows (its cost refused...)
};

} // namespace cl::ui
