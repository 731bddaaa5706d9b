#pragma once
// Tools ▸ Compare: the current design next to other designs (files or presets), the key
// numbers in one table with the change from the current design (core/model/compare).

#include "model/catalog.h"
#include "model/design.h"
#include "model/evaluate.h"

#include <QDialog>

#include <memory>
#include <vector>

class QTableWidget;

namespace cl::ui {

class CompareDialog : public QDialog {
    Q_OBJECT
public:
    CompareDialog(const model::Design& current, std::shared_ptr<const model::Catalog> catalog,
                  QWidget* parent = nullptr);
    /// Adds a design file or preset id as a column; returns an error text.
    QString addDesign(const QString& pathOrPreset);
    [[nodiscard]] QTableWidget* table() const { return table_; }

private:
    void refresh();
    std::shared_ptr<const model::Catalog> catalog_;
    std::vector<QString> names_;
    std::vector<model::Evaluation> evs_;
    QTableWidget* table_;
};

} // namespace cl::ui
