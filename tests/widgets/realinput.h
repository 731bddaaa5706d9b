#pragma once
// Helpers for GUI tests that drive the program as a person does: where to click on the canvas
// to hit an entity, an empty spot, the toolbar's Undo button, focusing an editor by mouse.
#include "canvas.h"
#include "mainwindow.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QGraphicsItem>
#include <QLineEdit>
#include <QToolBar>
#include <QToolButton>
#include <QtTest>

#include <optional>

namespace realinput {

/// A point of the view where a click lands on the item with this id (its topmost visible part).
inline std::optional<QPoint> clickPoint(cl::ui::MainWindow& w, const QString& id) {
    auto* view = w.canvas();
    for (auto* it : w.scene()->items()) {
        if (it->data(0).toString() != id || !it->isVisible() ||
            !(it->flags() & QGraphicsItem::ItemIsSelectable))
            continue;
        const QRectF r = it->sceneBoundingRect();
        view->ensureVisible(r, 10, 10);
        for (int iy = 1; iy < 10; ++iy)
            for (int ix = 1; ix < 10; ++ix) {
                const QPointF p(r.left() + r.width() * ix / 10.0, r.top() + r.height() * iy / 10.0);
                const QPoint vp = view->mapFromScene(p);
                if (!view->viewport()->rect().contains(vp))
                    continue;
                const auto under = view->items(vp);
                if (!under.isEmpty() && under.front() == it)
                    return vp;
            }
    }
    return std::nullopt;
}

/// An empty spot of the canvas (clicking it selects nothing: the design itself).
inline std::optional<QPoint> emptyPoint(cl::ui::MainWindow& w) {
    auto* view = w.canvas();
    const QRect r = view->viewport()->rect();
    for (int y = 5; y < r.height(); y += 23)
        for (int x = 5; x < r.width(); x += 23)
            if (view->items(QPoint(x, y)).isEmpty())
                return QPoint(x, y);
    return std::nullopt;
}

/// Clicks the entity (or, for an empty id, empty canvas); true when the canvas selected it.
inline bool clickEntity(cl::ui::MainWindow& w, const QString& id) {
    const auto at = id.isEmpty() ? emptyPoint(w) : clickPoint(w, id);
    if (!at)
        return false;
    QTest::mouseClick(w.canvas()->viewport(), Qt::LeftButton, {}, *at);
    const QStringList want = id.isEmpty() ? QStringList{} : QStringList{id};
    if (!QTest::qWaitFor([&] { return w.scene()->selectedIds() == want; }))
        return false;
    QTest::qWait(20); // new inspector rows are shown by a queued call (QLayout::addChildWidget)
    return true;
}

inline QToolButton* undoButton(cl::ui::MainWindow& w) {
    for (auto* tb : w.findChildren<QToolBar*>())
        for (auto* a : tb->actions())
            if (a->shortcut() == QKeySequence(QKeySequence::Undo))
                return qobject_cast<QToolButton*>(tb->widgetForAction(a));
    return nullptr;
}

/// Gives an editor keyboard focus with the mouse (a combo's list is opened and closed with
/// Escape). True when it has focus.
inline bool focusByMouse(QWidget* e) {
    if (auto* co = qobject_cast<QComboBox*>(e)) {
        QTest::mouseClick(co, Qt::LeftButton);
        QTest::qWait(50);
        if (QWidget* popup = QApplication::activePopupWidget())
            QTest::keyClick(popup, Qt::Key_Escape);
    } else if (auto* sb = qobject_cast<QAbstractSpinBox*>(e)) {
        QTest::mouseClick(sb, Qt::LeftButton, {}, QPoint(10, sb->height() / 2));
    } else {
        QTest::mouseClick(e, Qt::LeftButton);
    }
    return QTest::qWaitFor([e] { return e->hasFocus(); });
}

/// Picks the item with this data from a combo the way a person does: click to open the list,
/// arrow keys to the item, Return. One change, whatever lies between.
inline bool chooseInCombo(QComboBox* co, const QString& data) {
    const int target = co->findData(data);
    if (target < 0)
        return false;
    QTest::mouseClick(co, Qt::LeftButton);
    if (!QTest::qWaitFor([] { return QApplication::activePopupWidget() != nullptr; }))
        return false;
    QWidget* popup = QApplication::activePopupWidget();
    QWidget* list = popup->focusWidget() ? popup->focusWidget() : popup;
    const int from = co->currentIndex();
    for (int i = from; i < target; ++i)
        QTest::keyClick(list, Qt::Key_Down);
    for (int i = from; i > target; --i)
        QTest::keyClick(list, Qt::Key_Up);
    QTest::keyClick(list, Qt::Key_Return);
    return QTest::qWaitFor([co, target] { return co->currentIndex() == target; });
}

} // namespace realinput
