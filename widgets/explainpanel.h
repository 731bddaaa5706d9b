#pragma once
// "How is this computed?": every key number with its formula, its inputs and their values,
// and the source of each default (core/model/explain). A view; it computes nothing.

#include "model/catalog.h"
#include "model/design.h"
#include "model/evaluate.h"

#include <QSet>
#include <QString>
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
    /// Back where the reader was, when the tab comes back after a recalculation made while it
    /// was hidden (helper-47: an edit made on the Inference tab reset Explain's scroll).
    void showEvent(QShowEvent* e) override;

private:
    /// The columns share the panel's width (40% / 25% / the rest) and their text wraps
    /// (helper-6: at 1280 x 800 the values were cut mid-text and the formulas sat off-screen).
    void fitColumns();
    /// Remembers the row the reader's view is anchored on: the current row where it is in view,
    /// else the row at the top, and how far from the top it is.
    void keepAnchor();
    /// Scrolls so that the anchored row is as far from the top as it was.
    void restoreAnchor();
    QTreeWidget* tree_;
    // What the reader opened, where they are, and where the view stands, by entry key:
    // kept through evaluations without that entry (helper-46: a refused edit removed the entry
    // for a moment, and the next evaluation had forgotten it was open).
    QSet<QString> open_;
    QString current_;
    QString anchorKey_;
    int anchorChild_ = -1; ///< the row's index among its entry's inputs; -1: the entry itself
    int anchorY_ = 0;      ///< its top, in viewport pixels
    bool rebuilding_ = false;
    bool restorePending_ = false; ///< rebuilt while hidden: restore the anchor when shown
    QLabel* empty_;
    QLabel* detail_;
};

} // namespace cl::ui
