#pragma once
// "How is this computed?": every key number with its formula, its inputs and their values,
// and the source of each default (core/model/explain). A view; it computes nothing.

#include "model/catalog.h"
#include "model/design.h"
#include "model/evaluate.h"

#include <QWidget>

#include <memory>

class QTreeWidget;
class QLabel;

namespace cl::ui {

class ExplainPanel : public QWidget {
    Q_OBJECT
public:
    explicit ExplainPanel(QWidget* parent = nullptr);
    void setEvaluation(const model::Design& d, const model::Evaluation& ev,
                       const model::Catalog& c);
    /// Shows and expands the explanation with this key ("<workload>.mfu"); false if absent.
    bool focus(const QString& key);
    [[nodiscard]] int entryCount() const;
    [[nodiscard]] QTreeWidget* tree() const { return tree_; }

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    /// The columns share the panel's width (40% / 25% / the rest) and their text wraps
    /// (helper-6: at 1280 x 800 the values were cut mid-text and the formulas sat off-screen).
    void fitColumns();
    QTreeWidget* tree_;
    QLabel* empty_;
    QLabel* detail_;
};

} // namespace cl::ui
