#pragma once
// Helpers for GUI tests that drive the program as a person does: where to click on the canvas
// to hit an entity, an empty spot, the toolbar's Undo button, focusing an editor by mouse.
#include "canvas.h"
#include "mainwindow.h"

#include "inspector.h"
#include "palette.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDrag>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsItem>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QMouseEvent>
#include <QPushButton>
#include <QScrollArea>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QToolTip>
#include <QTreeWidget>
#include <QUrl>
#include <QtTest>

#include <functional>
#include <optional>

namespace realinput {

/// Shows a main window at the size the tests use and makes it the active window (what the
/// window manager would do; Xvfb has none). True when it is exposed and active.
inline bool showActive(QWidget& w) {
    w.resize(1600, 1000);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return false;
    w.activateWindow();
    return QTest::qWaitForWindowActive(&w);
}

/// A point of the view where a click lands on the item with this id (its topmost visible part).
inline std::optional<QPoint> clickPoint(cl::ui::MainWindow& w, const QString& id) {
    auto* view = w.canvas();
    for (auto* it : w.scene()->items()) {
        if (cl::ui::CanvasScene::idOf(it) != id || !it->isVisible() ||
            !(it->flags() & QGraphicsItem::ItemIsSelectable))
            continue;
        const QRectF r = it->sceneBoundingRect();
        view->ensureVisible(r, 10, 10);
        // The first point of an n x n grid over the item's box (inside its shape) where the
        // item is the topmost thing a click would hit.
        const auto scan = [&](int n, int from, const QPainterPath* shape) -> std::optional<QPoint> {
            for (int iy = from; iy <= n - from; ++iy)
                for (int ix = from; ix <= n - from; ++ix) {
                    const QPointF p(r.left() + r.width() * ix / n, r.top() + r.height() * iy / n);
                    if (shape && !shape->contains(p))
                        continue;
                    const QPoint vp = view->mapFromScene(p);
                    if (!view->viewport()->rect().contains(vp))
                        continue;
                    const auto under = view->items(vp);
                    if (!under.isEmpty() && under.front() == it)
                        return vp;
                }
            return std::nullopt;
        };
        if (const auto vp = scan(10, 1, nullptr))
            return vp;
        // A thin shape (a link's line) can fall between those points: try points inside it.
        const QPainterPath shape = it->mapToScene(it->shape());
        if (const auto vp = scan(40, 0, &shape))
            return vp;
    }
    // A large design has items only near the view (a virtual canvas): a device far from it is
    // found where the design draws it, at the middle of its block, as a person sees it.
    if (const auto* d = w.document()->design().device(id.toStdString());
        d && d->kind != cl::model::DeviceKind::group) {
        const QPointF centre(d->position.x + 87, d->position.y + 32);
        view->ensureVisible(QRectF(centre, QSizeF(1, 1)), 10, 10);
        const QPoint vp = view->mapFromScene(centre);
        if (view->viewport()->rect().contains(vp))
            return vp;
    }
    return std::nullopt;
}

/// Rests the pointer on the entity with this id and returns the tooltip that appears (what a
/// person reads when hovering), or empty when none shows.
inline QString hoverToolTip(cl::ui::MainWindow& w, const QString& id) {
    const auto at = clickPoint(w, id);
    if (!at)
        return {};
    QWidget* vp = w.canvas()->viewport();
    QTest::mouseMove(vp, *at);
    // What Qt sends when the pointer rests (the tooltip wake-up timer), sent directly.
    QHelpEvent help(QEvent::ToolTip, *at, vp->mapToGlobal(*at));
    QApplication::sendEvent(vp, &help);
    if (!QTest::qWaitFor([] { return QToolTip::isVisible(); }, 2000))
        return {};
    const QString t = QToolTip::text();
    QToolTip::hideText();
    return t;
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
    // No window manager under Xvfb: the click activates the window as one would. (Before
    // finding the point: waiting runs queued work such as fitting the view.)
    if (!w.isActiveWindow()) {
        w.activateWindow();
        if (!QTest::qWaitForWindowActive(&w))
            return false;
    }
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
    // Xvfb runs without a window manager: after a dialog closes no window is active, and a
    // click does not activate one. Activate it as the window manager would on that click.
    if (!e->window()->isActiveWindow()) {
        e->window()->activateWindow();
        if (!QTest::qWaitForWindowActive(e->window()))
            return false;
    }
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

/// Picks item `target` of a combo the way a person does: click to open the list, arrow keys
/// to the item, Return. One change, whatever lies between. True when the item was picked (the
/// combo may then show something else: a refused edit, an "Add…" combo that resets).
inline bool chooseIndexInCombo(QComboBox* co, int target) {
    if (!co || target < 0)
        return false;
    bool picked = false;
    const auto conn = QObject::connect(co, &QComboBox::activated,
                                       [&picked, target](int i) { picked |= i == target; });
    const auto done = [&] {
        QObject::disconnect(conn);
        return picked;
    };
    QTest::mouseClick(co, Qt::LeftButton);
    if (!QTest::qWaitFor([] { return QApplication::activePopupWidget() != nullptr; }))
        return done();
    QWidget* popup = QApplication::activePopupWidget();
    QWidget* list = popup->focusWidget() ? popup->focusWidget() : popup;
    const int from = co->currentIndex();
    for (int i = from; i < target; ++i)
        QTest::keyClick(list, Qt::Key_Down);
    for (int i = from; i > target; --i)
        QTest::keyClick(list, Qt::Key_Up);
    QTest::keyClick(list, Qt::Key_Return);
    (void)QTest::qWaitFor([&picked] { return picked; });
    return done();
}

/// Picks the item with this data (e.g. a schema choice's name) from a combo.
inline bool chooseInCombo(QComboBox* co, const QString& data) {
    return co && chooseIndexInCombo(co, co->findData(data));
}

/// Picks the item showing this text from a combo.
inline bool chooseTextInCombo(QComboBox* co, const QString& text) {
    return co && chooseIndexInCombo(co, co->findText(text));
}

/// A key press as the keyboard delivers it: to the widget that has keyboard focus (shortcuts
/// of the active window included).
inline void pressKey(Qt::Key key, Qt::KeyboardModifiers mods = Qt::NoModifier) {
    QWidget* target = QApplication::focusWidget();
    if (!target)
        target = QApplication::activeWindow();
    QVERIFY2(target, "no window has keyboard focus");
    QTest::keyClick(target, key, mods);
}

/// A double click as the mouse delivers it: press, release, double-click, release.
inline void doubleClick(QWidget* w, QPoint p) {
    QTest::mousePress(w, Qt::LeftButton, {}, p);
    QTest::mouseRelease(w, Qt::LeftButton, {}, p);
    QTest::mouseDClick(w, Qt::LeftButton, {}, p);
    QTest::mouseRelease(w, Qt::LeftButton, {}, p);
}

/// A menu text as a person reads it (no '&' mnemonic markers).
inline QString plainText(QString t) {
    t.remove(QLatin1Char('&'));
    return t;
}

/// Clicks through the menu bar: the top menu, any submenus, then the entry (texts as shown,
/// without '&'). An entry that opens a modal dialog returns when the dialog closes: arrange
/// the answer with onModal() first. False when an entry is missing or disabled.
inline bool menuPath(QMainWindow& w, const QStringList& path) {
    QMenuBar* bar = w.menuBar();
    QAction* top = nullptr;
    for (auto* a : bar->actions())
        if (plainText(a->text()) == path.front())
            top = a;
    if (!top || !top->menu())
        return false;
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->actionGeometry(top).center());
    QMenu* menu = top->menu();
    if (!QTest::qWaitFor([menu] { return menu->isVisible(); }))
        return false;
    for (qsizetype i = 1; i < path.size(); ++i) {
        QAction* act = nullptr; // the first match (Open Recent lists the newest first)
        // By its text, or by the id it carries (File > Open Preset names presets by their
        // designs' names; tests name them by id).
        for (auto* a : menu->actions())
            if (!act &&
                (plainText(a->text()) == path[i] ||
                 (a->data().typeId() == QMetaType::QString && a->data().toString() == path[i])))
                act = a;
        if (!act || !act->isEnabled()) {
            while (QWidget* popup = QApplication::activePopupWidget())
                QTest::keyClick(popup, Qt::Key_Escape);
            return false;
        }
        const QPoint p = menu->actionGeometry(act).center();
        QTest::mouseMove(menu, p);
        QTest::mouseClick(menu, Qt::LeftButton, {}, p);
        if (i + 1 < path.size()) {
            menu = act->menu();
            if (!menu || !QTest::qWaitFor([menu] { return menu->isVisible(); }))
                return false;
        }
    }
    return true;
}

/// Answers the next modal dialog of type T that opens: `act` runs inside the dialog's own
/// event loop (as a person answers it), so arrange it before the input that opens the dialog.
/// `*done` is set once `act` has run.
/// `which`, when given, picks the dialog (e.g. a message box by its text).
template <class T>
inline void onModal(std::function<void(T*)> act, bool* done = nullptr,
                    std::function<bool(T*)> which = {}) {
    auto* timer = new QTimer;
    timer->setInterval(25);
    QObject::connect(timer, &QTimer::timeout, [timer, act, done, which] {
        auto* d = qobject_cast<T*>(QApplication::activeModalWidget());
        if (!d || !d->isVisible() || (which && !which(d)))
            return;
        timer->stop();
        timer->deleteLater();
        if (!QTest::qWaitForWindowExposed(d))
            qWarning("modal dialog not exposed");
        act(d);
        if (d->isVisible() && QTest::currentTestFailed())
            d->reject(); // a failed check inside `act` must not leave the test hanging
        if (done)
            *done = true;
    });
    timer->start();
}

/// Right-clicks the viewport at `p` (the context-menu event the window system sends for a right
/// click) and clicks the menu entry `entry` in the menu that opens. True when it was clicked.
inline bool contextMenu(QWidget* viewport, QPoint p, const QString& entry) {
    bool clicked = false;
    auto* timer = new QTimer;
    timer->setInterval(25);
    QObject::connect(timer, &QTimer::timeout, [timer, entry, &clicked] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        if (!menu || !menu->isVisible())
            return;
        timer->stop();
        timer->deleteLater();
        for (auto* a : menu->actions())
            if (plainText(a->text()) == entry) {
                const QPoint at = menu->actionGeometry(a).center();
                QTest::mouseMove(menu, at);
                QTest::mouseClick(menu, Qt::LeftButton, {}, at);
                clicked = true;
                return;
            }
        QTest::keyClick(menu, Qt::Key_Escape);
    });
    timer->start();
    QTest::mouseClick(viewport, Qt::RightButton, {}, p);
    QContextMenuEvent ev(QContextMenuEvent::Mouse, p, viewport->mapToGlobal(p));
    QApplication::sendEvent(viewport, &ev);
    if (!clicked)
        delete timer; // no menu opened
    return clicked;
}

/// Reads the next message box titled `title` into `*text` and closes it with Return (its
/// default button), as a person acknowledges an error.
inline void readMessageBox(const QString& title, QString* text, bool* done) {
    onModal<QMessageBox>(
        [text](QMessageBox* box) {
            *text = box->text();
            QTest::keyClick(box, Qt::Key_Return);
        },
        done, [title](QMessageBox* box) { return box->windowTitle() == title; });
}

/// Answers the next file dialog as a person does: types the file's folder and presses Return
/// (the dialog goes there), then types the file name and clicks Open / Save. A full path typed in
/// one go is not enough: while it is typed, the dialog's auto-completion selects each folder of
/// the path that its (threaded) file system model has loaded, and Open then takes a selected
/// folder over the typed text and navigates instead of accepting -- how often depends on load.
inline void answerFileDialog(const QString& path, bool* done = nullptr) {
    onModal<QFileDialog>(
        [path](QFileDialog* d) {
            auto* name = d->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
            QVERIFY(name);
            const QFileInfo target(path);
            const QString folder = QDir(target.absolutePath()).canonicalPath();
            auto type = [name](const QString& text) {
                QTest::mouseClick(name, Qt::LeftButton);
                QTest::keyClick(name, Qt::Key_A, Qt::ControlModifier);
                QTest::keyClicks(name, text);
                QTest::qWait(50);
                // The file-name completer's list may be open over the dialog: close it first.
                if (QWidget* popup = QApplication::activePopupWidget())
                    QTest::keyClick(popup, Qt::Key_Escape);
            };
            auto inFolder = [d, folder] { return d->directory().canonicalPath() == folder; };
            // 1. The folder: typed, then Return (as often as the dialog needs to get there).
            for (int attempt = 0; attempt < 5 && !inFolder(); ++attempt) {
                type(folder);
                QTest::keyClick(name, Qt::Key_Return);
                (void)QTest::qWaitFor(inFolder, 2000);
            }
            QVERIFY2(inFolder(),
                     qPrintable(d->directory().path() + QStringLiteral(" not ") + folder));
            // 2. The file name, then Open / Save.
            type(target.fileName());
            auto* box = d->findChild<QDialogButtonBox*>();
            QVERIFY(box);
            QPushButton* accept = nullptr;
            for (auto* b : box->buttons())
                if (box->buttonRole(b) == QDialogButtonBox::AcceptRole)
                    accept = qobject_cast<QPushButton*>(b);
            QVERIFY(accept);
            QVERIFY2(QTest::qWaitFor([accept] { return accept->isEnabled(); }),
                     qPrintable(name->text()));
            // Saving over an existing file: the dialog asks first; a person says Yes.
            if (d->acceptMode() == QFileDialog::AcceptSave && QFileInfo::exists(path))
                onModal<QMessageBox>(
                    [](QMessageBox* ask) {
                        QTest::mouseClick(ask->button(QMessageBox::Yes), Qt::LeftButton);
                    },
                    nullptr,
                    [](QMessageBox* ask) {
                        return ask->text().contains(QStringLiteral("already exists"));
                    });
            // A click the busy dialog drops is clicked again, as a person would.
            for (int attempt = 0; attempt < 5 && d->isVisible(); ++attempt) {
                QTest::mouseClick(accept, Qt::LeftButton);
                (void)QTest::qWaitFor([d] { return !d->isVisible(); }, 1000);
            }
            QVERIFY2(!d->isVisible(), qPrintable(name->text()));
        },
        done);
}

/// Clicks the tab with this title (as shown, without '&').
inline bool clickTab(QTabWidget* tabs, const QString& title) {
    QTabBar* bar = tabs->tabBar();
    for (int i = 0; i < bar->count(); ++i)
        if (plainText(bar->tabText(i)).compare(title, Qt::CaseInsensitive) == 0) {
            QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(i).center());
            return QTest::qWaitFor([tabs, i] { return tabs->currentIndex() == i; });
        }
    return false;
}

/// Presses at `from` on `src`, moves past the drag distance to start the widget's QDrag, then --
/// inside QDrag::exec()'s loop -- moves over `dst` to `to` and releases. `dragRunning` says
/// whether the drag has started. Polled rather than timed, so a slow run (sanitizers) cannot
/// release before the drag. True when the drag ran and was released.
inline bool dragAndRelease(QWidget* src, QPoint from, QWidget* dst, QPoint to,
                           std::function<bool()> dragRunning) {
    bool released = false, dragged = false;
    auto* poll = new QTimer;
    poll->setInterval(20);
    int polls = 0;
    QObject::connect(poll, &QTimer::timeout, [=, &released, &dragged, &polls] {
        const bool running = dragRunning();
        if (!running && ++polls < 500)
            return;
        poll->stop();
        poll->deleteLater();
        dragged = running;
        QTest::mouseMove(dst, to - QPoint(30, 20));
        QTest::mouseMove(dst, to - QPoint(10, 5));
        QTest::mouseMove(dst, to);
        QTest::qWait(50);
        QTest::mouseRelease(dst, Qt::LeftButton, {}, to);
        released = true;
    });
    poll->start();
    QTest::mouseMove(src, from);
    QTest::mousePress(src, Qt::LeftButton, {}, from);
    const int step = QApplication::startDragDistance() + 4;
    for (int i = 1; i <= 4 && !released && !dragRunning(); ++i)
        QTest::mouseMove(src, from + QPoint(i * step, i));
    if (!QTest::qWaitFor([&released] { return released; }, 15000))
        return false;
    return dragged;
}

/// Drags a palette entry (found by typing `search` in the palette's search box, as a person
/// does) onto the canvas viewport at `to` with a real QDrag: press on the entry, move past the
/// drag distance, then -- inside QDrag::exec()'s loop -- move over the canvas and release.
inline bool dragFromPalette(cl::ui::MainWindow& w, const QString& search, const QString& entry,
                            QPoint to) {
    auto* pal = w.palette();
    auto* field = pal->findChild<QLineEdit*>();
    if (!field)
        return false;
    QTest::mouseClick(field, Qt::LeftButton);
    QTest::keyClick(field, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(field, search);
    QTreeWidget* tree = pal->tree();
    QTreeWidgetItem* item = nullptr;
    for (int g = 0; g < tree->topLevelItemCount() && !item; ++g)
        for (int k = 0; k < tree->topLevelItem(g)->childCount(); ++k) {
            auto* c = tree->topLevelItem(g)->child(k);
            if (!c->isHidden() && c->data(0, Qt::UserRole).toString() == entry) {
                item = c;
                break;
            }
        }
    if (!item)
        return false;
    tree->scrollToItem(item);
    const QPoint from = tree->visualItemRect(item).center();
    QWidget* src = tree->viewport();
    QWidget* dst = w.canvas()->viewport();
    const QList<QDrag*> earlier = tree->findChildren<QDrag*>(); // finished drags linger
    return dragAndRelease(src, from, dst, to, [tree, earlier] {
        for (auto* d : tree->findChildren<QDrag*>())
            if (!earlier.contains(d))
                return true;
        return false;
    });
}

/// A file manager's file, as far as a drag goes: pressing and moving the mouse on it starts a
/// QDrag carrying the file's URL (text/uri-list), as dragging from a file manager does.
class FileDragSource : public QLabel {
public:
    explicit FileDragSource(QString path) : QLabel(path), path_(std::move(path)) {
        setWindowFlag(Qt::Tool);
        resize(260, 40);
    }

protected:
    void mouseMoveEvent(QMouseEvent* e) override {
        if (!(e->buttons() & Qt::LeftButton) || started_)
            return;
        started_ = true;
        auto* drag = new QDrag(this);
        auto* md = new QMimeData;
        md->setUrls({QUrl::fromLocalFile(path_)});
        drag->setMimeData(md);
        drag->exec(Qt::CopyAction);
    }

private:
    QString path_;
    bool started_ = false;
};

/// Drags the file at `path` from a file-manager-like source onto the canvas viewport at `to`
/// with a real QDrag (press, move past the drag distance, then inside QDrag::exec()'s loop move
/// over the canvas and release). True when the drag ran and was released there.
inline bool dropFile(cl::ui::MainWindow& w, const QString& path, QPoint to) {
    FileDragSource src(path);
    src.move(w.geometry().topLeft() + QPoint(20, 20));
    src.show();
    if (!QTest::qWaitForWindowExposed(&src))
        return false;
    const bool dragged = dragAndRelease(&src, QPoint(40, 20), w.canvas()->viewport(), to,
                                        [&src] { return src.findChild<QDrag*>() != nullptr; });
    w.activateWindow();
    return dragged;
}

/// The visible inspector editor of a schema field (objectName = the field's key), scrolled
/// into view.
template <class T = QWidget> inline T* field(cl::ui::MainWindow& w, const char* key) {
    // A queued inspector rebuild first (a Mode change shows the other mode's fields).
    QCoreApplication::processEvents();
    for (auto* c : w.inspector()->findChildren<T*>(QString::fromLatin1(key)))
        if (c->isVisible()) {
            if (auto* sa = w.inspector()->findChild<QScrollArea*>())
                sa->ensureWidgetVisible(c, 10, 40);
            QCoreApplication::processEvents();
            return c;
        }
    return nullptr;
}

/// Types a number into a spin box as a person does: click, select all, type, then Return (or
/// Tab: in a dialog, Return presses the default button).
inline bool typeNumber(QAbstractSpinBox* sb, const QString& text, Qt::Key commit = Qt::Key_Return) {
    if (!sb || !focusByMouse(sb))
        return false;
    QTest::keyClick(sb, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(sb, text);
    QTest::keyClick(sb, commit);
    return true;
}

/// Types into a line edit and presses Return.
inline bool typeText(QLineEdit* le, const QString& text) {
    if (!le || !focusByMouse(le))
        return false;
    QTest::keyClick(le, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(le, text);
    QTest::keyClick(le, Qt::Key_Return);
    return true;
}

} // namespace realinput
