#include "explainpanel.h"

#include "messages.h"
#include "model/explain.h"

#include <QHeaderView>

#include <QLabel>
#include <QScrollBar>
#include <QSet>
#include <QStyledItemDelegate>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace cl::ui {

namespace {

/// Rows as tall as their text wrapped to the column's width (helper-11: QTreeView sized the
/// rows for text it had not wrapped to the column, so "2 x HGX H100 on InfiniBand NDR — Cloud
/// vs" showed its first line only).
class WrappingDelegate : public QStyledItemDelegate {
public:
    explicit WrappingDelegate(QTreeView* view) : QStyledItemDelegate(view), view_(view) {}
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        QStyleOptionViewItem o(option);
        initStyleOption(&o, index);
        int width = view_->header()->sectionSize(index.column());
        if (index.column() == 0)
            for (QModelIndex p = index.parent(); p.isValid(); p = p.parent())
                width -= view_->indentation();
        if (index.column() == 0 && view_->rootIsDecorated())
            width -= view_->indentation();
        width = std::max(40, width - 12); // the cell's margins
        const QFontMetrics fm(o.font);
        const QRect text = fm.boundingRect(QRect(0, 0, width, 1 << 20), Qt::TextWordWrap, o.text);
        return {QStyledItemDelegate::sizeHint(option, index).width(),
                std::max(fm.height(), text.height()) + 6};
    }

private:
    QTreeView* view_;
};

} // namespace

ExplainPanel::ExplainPanel(QWidget* parent) : QWidget(parent) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    empty_ = new QLabel(tr("Add a workload (or hardware with a price) to see how each number is "
                           "computed."));
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setWordWrap(true);
    tree_ = new QTreeWidget(this);
    tree_->setObjectName(QStringLiteral("explainTree"));
    tree_->setColumnCount(3);
    tree_->setHeaderLabels({tr("Number / input"), tr("Value"), tr("Formula or source")});
    tree_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    tree_->header()->setSectionResizeMode(1, QHeaderView::Interactive);
    tree_->header()->setStretchLastSection(true);
    tree_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    tree_->setTextElideMode(Qt::ElideNone);
    tree_->setWordWrap(true);
    tree_->setUniformRowHeights(false);
    // By pixel: rows of wrapped formulas are tall, and the view goes back to where the reader
    // was to the pixel after a recalculation (restoreAnchor).
    tree_->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    // A wheel notch moves three lines of text, not a page (the view's own step is its first
    // row's height, often a whole wrapped formula).
    tree_->verticalScrollBar()->setSingleStep(tree_->fontMetrics().lineSpacing());
    tree_->setItemDelegate(new WrappingDelegate(tree_));
    // Rows are as tall as their wrapped text at the columns' widths: when a column's width
    // changes (the panel resized, a column dragged) the heights are worked out again (helper-31:
    // formulas cut with "…" and a TTFT formula without its last line after a resize).
    connect(tree_->header(), &QHeaderView::sectionResized, tree_,
            [this] { tree_->doItemsLayout(); });
    detail_ = new QLabel(this);
    detail_->setObjectName(QStringLiteral("explainDetail"));
    detail_->setWordWrap(true);
    detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(empty_);
    v->addWidget(tree_, 1);
    v->addWidget(detail_);
    tree_->hide();
    // The whole formula (or source) of the current row, wrapped, under the tree.
    const auto keyOf = [](const QTreeWidgetItem* it) {
        return (it->parent() ? it->parent() : it)->data(0, Qt::UserRole).toString();
    };
    // The reader's own opening and closing, row and scrolling (not the rebuild's).
    connect(tree_, &QTreeWidget::itemExpanded, this, [this, keyOf](QTreeWidgetItem* it) {
        if (!rebuilding_ && !it->parent())
            open_.insert(keyOf(it));
    });
    connect(tree_, &QTreeWidget::itemCollapsed, this, [this, keyOf](QTreeWidgetItem* it) {
        if (!rebuilding_ && !it->parent())
            open_.remove(keyOf(it));
    });
    connect(tree_->verticalScrollBar(), &QScrollBar::valueChanged, this, &ExplainPanel::keepAnchor);
    connect(tree_, &QTreeWidget::currentItemChanged, this, [this, keyOf](QTreeWidgetItem* it) {
        if (!rebuilding_ && it) {
            current_ = keyOf(it);
            keepAnchor();
        }
        detail_->setText(it ? QStringLiteral("<b>%1</b> = %2<br>%3")
                                  .arg(it->text(0).toHtmlEscaped(), it->text(1).toHtmlEscaped(),
                                       it->text(2).toHtmlEscaped())
                            : QString());
    });
}

void ExplainPanel::setEvaluation(const model::Design& d, const model::Evaluation& ev,
                                 const model::Catalog& c) {
    // Issue 21: a recalculation keeps what the reader opened, the row they were on and where
    // they had scrolled (every edit used to collapse the tree back to the top); helper-46: also
    // through an evaluation that lacks the entry (a refused edit).
    rebuilding_ = true;
    tree_->clear();
    const auto entries = model::explain(d, ev, c);
    for (const auto& e : entries) {
        auto* top = new QTreeWidgetItem(tree_, {QString::fromStdString(e.subject + " — " + e.title),
                                                QString::fromStdString(e.value),
                                                QString::fromStdString(e.formula)});
        top->setData(0, Qt::UserRole, QString::fromStdString(e.key));
        top->setToolTip(2, plainTip(QString::fromStdString(e.formula)));
        QFont b = top->font(0);
        b.setBold(true);
        top->setFont(0, b);
        for (const auto& in : e.inputs) {
            auto* it = new QTreeWidgetItem(top, {QString::fromStdString(in.name),
                                                 QString::fromStdString(in.value),
                                                 QString::fromStdString(in.source)});
            it->setToolTip(2, plainTip(QString::fromStdString(in.source)));
        }
    }
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        auto* it = tree_->topLevelItem(i);
        const QString key = it->data(0, Qt::UserRole).toString();
        if (open_.contains(key))
            it->setExpanded(true);
        if (!current_.isEmpty() && key == current_)
            tree_->setCurrentItem(it);
    }
    empty_->setVisible(entries.empty());
    tree_->setVisible(!entries.empty());
    fitColumns();
    rebuilding_ = false;
    if (!isVisible()) { // no layout to scroll by until the tab is shown
        restorePending_ = !anchorKey_.isEmpty();
        return;
    }
    restoreAnchor();
    // Again once the rows have their wrapped heights (laid out later).
    QMetaObject::invokeMethod(this, &ExplainPanel::restoreAnchor, Qt::QueuedConnection);
}

void ExplainPanel::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    if (restorePending_) {
        restoreAnchor(); // at once, so the reader's next scroll counts
        QMetaObject::invokeMethod(this, &ExplainPanel::restoreAnchor, Qt::QueuedConnection);
    }
}

void ExplainPanel::keepAnchor() {
    // (Rebuilt while hidden: the view's own scrolling when shown is not the reader's.)
    if (rebuilding_ || restorePending_)
        return;
    QTreeWidgetItem* it = tree_->currentItem();
    if (!it || !tree_->visualItemRect(it).intersects(tree_->viewport()->rect()))
        it = tree_->itemAt(0, 0);
    if (!it) {
        anchorKey_.clear();
        return;
    }
    anchorKey_ = (it->parent() ? it->parent() : it)->data(0, Qt::UserRole).toString();
    anchorChild_ = it->parent() ? it->parent()->indexOfChild(it) : -1;
    anchorY_ = tree_->visualItemRect(it).top();
}

void ExplainPanel::restoreAnchor() {
    restorePending_ = false;
    if (anchorKey_.isEmpty())
        return;
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* it = tree_->topLevelItem(i);
        if (it->data(0, Qt::UserRole).toString() != anchorKey_)
            continue;
        if (anchorChild_ >= 0 && it->isExpanded() && anchorChild_ < it->childCount())
            it = it->child(anchorChild_);
        tree_->doItemsLayout();
        const bool was = rebuilding_;
        rebuilding_ = true; // scrolling back is not the reader's scrolling
        QScrollBar* bar = tree_->verticalScrollBar();
        bar->setValue(bar->value() + tree_->visualItemRect(it).top() - anchorY_);
        rebuilding_ = was;
        return;
    }
}

void ExplainPanel::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    fitColumns();
    // Again once the tree has its new size: the panel hears of a resize before its layout gives
    // the tree its width (helper-6: after Large Charts the first two columns were a few pixels,
    // fitted to the width the tree had before).
    QMetaObject::invokeMethod(this, &ExplainPanel::fitColumns, Qt::QueuedConnection);
}

void ExplainPanel::fitColumns() {
    const int w = tree_->viewport()->width();
    if (w <= 0)
        return;
    tree_->header()->resizeSection(0, w * 40 / 100);
    tree_->header()->resizeSection(1, w * 25 / 100);
    tree_->doItemsLayout(); // row heights for the wrapped text at the new widths
}

bool ExplainPanel::focus(const QString& key) {
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        auto* it = tree_->topLevelItem(i);
        if (it->data(0, Qt::UserRole).toString() == key) {
            tree_->collapseAll();
            it->setExpanded(true);
            tree_->setCurrentItem(it);
            tree_->scrollToItem(it);
            return true;
        }
    }
    return false;
}

int ExplainPanel::entryCount() const {
    return tree_->topLevelItemCount();
}

} // namespace cl::ui
