// The canvas as a user drives it (issue #9): mouse and keyboard through QTest on the real
// window, offscreen. Every gesture is one undo step.
#include "autosave.h"
#include "canvas.h"
#include "filecontroller.h"
#include "inspector.h"
#include "mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QGraphicsItem>
#include <QLabel>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace cl;

class TestCanvas : public QObject {
    Q_OBJECT
private:
    std::shared_ptr<const model::Catalog> cat_;
    QTemporaryDir autosaveDir_;

    static QPoint at(ui::MainWindow& w, QPointF scene) { return w.canvas()->mapFromScene(scene); }
    static QAction* action(ui::MainWindow& w, const char* name) {
        return w.findChild<QAction*>(QString::fromLatin1(name));
    }
    /// A fresh window with a DGX H100 at (0, 0) and a QM9700 at (400, 0).
    void twoDevices(ui::MainWindow& w) {
        QVERIFY(w.files()->newDesign());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.scene()->dropCatalogEntry(QStringLiteral("system:dgx-h100"), {0, 0}));
        QVERIFY(w.scene()->dropCatalogEntry(QStringLiteral("switch:qm9700"), {400, 0}));
        w.canvas()->resetTransform();
        w.canvas()->centerOn(300, 30);
        QCOMPARE(w.document()->design().devices.size(), std::size_t{2});
    }

private slots:
    void initTestCase() {
        QApplication::setOrganizationName(QStringLiteral("ClusterLensTest"));
        QApplication::setApplicationName(QStringLiteral("tst_canvas"));
        qputenv("CLUSTERLENS_AUTOSAVE_DIR", autosaveDir_.path().toUtf8());
        auto c = model::Catalog::bundled();
        QVERIFY2(c.ok(), c.error_text().c_str());
        cat_ = std::make_shared<const model::Catalog>(c.value());
    }

    // Drag from the DGX's port (right edge) to the switch: one link of the natural type.
    void connectByDragging() {
        ui::MainWindow w(cat_);
        twoDevices(w);
        auto* vp = w.canvas()->viewport();
        const QPoint port = at(w, {174, 32});
        QTest::mouseMove(vp, port);
        QTest::mousePress(vp, Qt::LeftButton, {}, port);
        QTest::mouseMove(vp, at(w, {300, 30}));
        QTest::mouseMove(vp, at(w, {480, 30}));
        QTest::mouseRelease(vp, Qt::LeftButton, {}, at(w, {480, 30}));
        const auto& d = w.document()->design();
        QCOMPARE(d.links.size(), std::size_t{1});
        QCOMPARE(d.links[0].type, std::string("ib-ndr"));
        QCOMPARE(d.links[0].count, std::int64_t{8});
        QCOMPARE(w.scene()->linkItemCount(), 1);
        w.document()->undoStack()->undo();
        QCOMPARE(w.document()->design().links.size(), std::size_t{0});
        // An impossible cable is refused with the reason in the status bar.
        QVERIFY(w.scene()->dropCatalogEntry(QStringLiteral("system:dgx-h100"), {0, 200}));
        w.scene()->setLinkType(QStringLiteral("nvlink4"));
        const auto ids = w.document()->design().devices;
        QVERIFY(!w.scene()->connectDevices(QString::fromStdString(ids[0].id),
                                           QString::fromStdString(ids[2].id)));
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("needs an NVLink switch")),
                 qPrintable(w.statusBar()->currentMessage()));
        QCOMPARE(w.document()->design().links.size(), std::size_t{0});
    }

    // Drag a device with the mouse: it moves (snapped to the grid); undo puts it back.
    void moveAndUndo() {
        ui::MainWindow w(cat_);
        twoDevices(w);
        auto* vp = w.canvas()->viewport();
        const QPoint grab = at(w, {60, 30});
        QTest::mousePress(vp, Qt::LeftButton, {}, grab);
        QTest::mouseMove(vp, at(w, {100, 60}));
        QTest::mouseMove(vp, at(w, {163, 121}));
        QTest::mouseRelease(vp, Qt::LeftButton, {}, at(w, {163, 121}));
        const auto& dev = w.document()->design().devices[0];
        QVERIFY2(dev.position.x > 50 && dev.position.y > 50,
                 qPrintable(QStringLiteral("%1,%2").arg(dev.position.x).arg(dev.position.y)));
        QCOMPARE(std::fmod(dev.position.x, 10.0), 0.0);
        QCOMPARE(w.document()->undoStack()->count(), 3); // two drops + one move
        w.document()->undoStack()->undo();
        QCOMPARE(w.document()->design().devices[0].position.x, 0.0);
        // Arrow keys nudge the selection; one step each.
        w.scene()->selectIds({QString::fromStdString(w.document()->design().devices[0].id)});
        w.canvas()->setFocus();
        QTest::keyClick(w.canvas(), Qt::Key_Right);
        QCOMPARE(w.document()->design().devices[0].position.x, 10.0);
    }

    void deleteAndUndo() {
        ui::MainWindow w(cat_);
        twoDevices(w);
        w.scene()->selectIds({QString::fromStdString(w.document()->design().devices[1].id)});
        action(w, "actionDelete")->trigger();
        QCOMPARE(w.document()->design().devices.size(), std::size_t{1});
        w.document()->undoStack()->undo();
        QCOMPARE(w.document()->design().devices.size(), std::size_t{2});
    }

    // Copy in one window, paste in the same and in a second window (the system clipboard).
    void copyPasteAcrossWindows() {
        ui::MainWindow w(cat_);
        QCOMPARE(w.openDesign(QStringLiteral("h100-ndr-2node")), QString());
        w.show();
        action(w, "actionSelectAll")->trigger();
        action(w, "actionCopy")->trigger();
        const std::size_t n = w.document()->design().devices.size();
        action(w, "actionPaste")->trigger();
        QCOMPARE(w.document()->design().devices.size(), 2 * n);
        QCOMPARE(w.document()->design().links.size(), std::size_t{2});
        ui::MainWindow other(cat_);
        QVERIFY(other.files()->newDesign());
        other.paste();
        QCOMPARE(other.document()->design().devices.size(), n);
        QCOMPARE(other.document()->design().workloads.size(), std::size_t{1});
        // Duplicate: one undo step.
        w.document()->undoStack()->undo();
        QCOMPARE(w.document()->design().devices.size(), n);
    }

    // A workload dropped on a device runs there; a GPU dropped into a server fills a slot.
    void dropOntoDevices() {
        ui::MainWindow w(cat_);
        twoDevices(w);
        QVERIFY(w.scene()->dropCatalogEntry(QStringLiteral("workload:training"), {0, 0}));
        const auto& wl = w.document()->design().workloads;
        QCOMPARE(wl.size(), std::size_t{1});
        QCOMPARE(wl[0].placement.size(), std::size_t{1});
        QCOMPARE(wl[0].placement[0], w.document()->design().devices[0].id);
        QVERIFY(w.scene()->dropCatalogEntry(QStringLiteral("storage:generic"), {0, 300}));
        QCOMPARE(w.document()->design().devices.back().kind, model::DeviceKind::storage);
    }

    // Several devices selected: one count edit changes them all, one undo step.
    void multiSelectEdit() {
        ui::MainWindow w(cat_);
        twoDevices(w);
        const auto& d = w.document()->design();
        w.inspector()->setSelection(
            {QString::fromStdString(d.devices[0].id), QString::fromStdString(d.devices[1].id)});
        auto* count = w.inspector()->findChild<QSpinBox*>(QStringLiteral("count"));
        QVERIFY(count);
        count->setValue(4);
        QCOMPARE(w.document()->design().devices[0].count, std::int64_t{4});
        QCOMPARE(w.document()->design().devices[1].count, std::int64_t{4});
        w.document()->undoStack()->undo();
        QCOMPARE(w.document()->design().devices[1].count, std::int64_t{1});
    }

    void saveAndReopen() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("two.json"));
        model::Design saved;
        {
            ui::MainWindow w(cat_);
            twoDevices(w);
            QVERIFY(w.scene()->connectDevices(
                QString::fromStdString(w.document()->design().devices[0].id),
                QString::fromStdString(w.document()->design().devices[1].id)));
            QCOMPARE(w.document()->saveAs(path), QString());
            QVERIFY(!w.document()->isModified());
            QVERIFY(w.isWindowModified() == false);
            saved = w.document()->design();
            QVERIFY(w.recentFiles().contains(QFileInfo(path).absoluteFilePath()));
        }
        ui::MainWindow again(cat_);
        QCOMPARE(again.openDesign(path), QString());
        QVERIFY(again.document()->design() == saved);
    }

    // kill -9 after an autosave: the next start offers the autosaved design.
    void autosaveRecovery() {
        model::Design edited;
        {
            auto* w = new ui::MainWindow(cat_);
            twoDevices(*w);
            QVERIFY(w->document()->isModified());
            QCOMPARE(w->autosave()->saveNow(), QString());
            QVERIFY(w->autosave()->hasRecovery());
            edited = w->document()->design();
            delete w; // no closeEvent: as if the process died
        }
        ui::MainWindow next(cat_);
        QVERIFY(next.autosave()->hasRecovery());
        QVERIFY(next.offerRecovery(false));
        QVERIFY(next.document()->design() == edited);
        QVERIFY(next.document()->isModified()); // recovered work is unsaved
        // Saving it clears the slot.
        QTemporaryDir dir;
        QCOMPARE(next.document()->saveAs(dir.filePath(QStringLiteral("r.json"))), QString());
        QVERIFY(!next.autosave()->hasRecovery());
    }

    // A group collapses to one card (members hidden, links end at the card) and expands back.
    void collapseAndExpandGroup() {
        ui::MainWindow w(cat_);
        QCOMPARE(w.openDesign(QStringLiteral("llama3-16k-h100")), QString());
        w.show();
        const int before = w.scene()->deviceItemCount();
        std::string group;
        for (const auto& d : w.document()->design().devices)
            if (d.kind == model::DeviceKind::group) {
                group = d.id;
                break;
            }
        QVERIFY(!group.empty());
        w.scene()->toggleCollapsed(QString::fromStdString(group));
        QVERIFY(w.scene()->isCollapsed(group));
        QVERIFY(w.scene()->deviceItemCount() < before);
        if (qEnvironmentVariableIsSet("CLUSTERLENS_SHOTS")) // for looking at it
            w.grab().save(qEnvironmentVariable("CLUSTERLENS_SHOTS") +
                          QStringLiteral("/collapsed.png"));
        w.scene()->toggleCollapsed(QString::fromStdString(group));
        QCOMPARE(w.scene()->deviceItemCount(), before);
        QCOMPARE(w.document()->undoStack()->count(), 0); // view state, not an edit
    }

    // The link inspector changes type and count; an impossible type is refused with the reason.
    void linkInspector() {
        ui::MainWindow w(cat_);
        QCOMPARE(w.openDesign(QStringLiteral("h100-ndr-2node")), QString());
        const auto& l = w.document()->design().links.front();
        w.inspector()->setSelection({QString::fromStdString(l.id)});
        auto* type = w.inspector()->findChild<QComboBox*>(QStringLiteral("type"));
        QVERIFY(type);
        type->setCurrentIndex(type->findData(QStringLiteral("nvlink4")));
        QCOMPARE(w.document()->design().links.front().type, std::string("ib-ndr")); // refused
        auto* err = w.inspector()->findChild<QLabel*>(QStringLiteral("fieldError"));
        QVERIFY(err && !err->text().isEmpty());
        type->setCurrentIndex(type->findData(QStringLiteral("ib-hdr")));
        QCOMPARE(w.document()->design().links.front().type, std::string("ib-hdr"));
        w.document()->undoStack()->undo();
        QCOMPARE(w.document()->design().links.front().type, std::string("ib-ndr"));
    }

    void zoomPanOverview() {
        ui::MainWindow w(cat_);
        QCOMPARE(w.openDesign(QStringLiteral("llama3-16k-h100")), QString());
        w.show();
        const double before = w.canvas()->transform().m11();
        w.canvas()->zoomBy(1.25);
        QVERIFY(std::abs(w.canvas()->transform().m11() - before * 1.25) < 1e-9);
        QVERIFY(w.overview());
        w.canvas()->zoomBy(1e-6); // out of range: ignored, never a degenerate view
        QVERIFY(w.canvas()->transform().m11() > 0.005);
    }
};

QTEST_MAIN(TestCanvas)
#include "tst_canvas.moc"
