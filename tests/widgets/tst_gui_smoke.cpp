// GUI smoke test: the main window opens offscreen, loads a preset, the canvas shows its
// devices and the memory chart shows the number core/model computed.
#include "canvas.h"
#include "charts.h"
#include "inspector.h"
#include "mainwindow.h"
#include "palette.h"

#include <QDockWidget>
#include <QLabel>
#include <QSpinBox>
#include <QTreeWidget>
#include <QtTest>

using namespace cl;

class TestGuiSmoke : public QObject {
    Q_OBJECT
private:
    std::shared_ptr<const model::Catalog> cat_;

private slots:
    void initTestCase() {
        auto c = model::Catalog::bundled();
        QVERIFY2(c.ok(), c.error_text().c_str());
        cat_ = std::make_shared<const model::Catalog>(c.value());
    }

    void opensPresetAndShowsChart() {
        ui::MainWindow w(cat_);
        QCOMPARE(w.openDesign(QStringLiteral("h100-ndr-2node")), QString());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // Arrangement: palette left, inspector right, charts bottom.
        QCOMPARE(w.dockWidgetArea(w.findChild<QDockWidget*>(QStringLiteral("paletteDock"))),
                 Qt::LeftDockWidgetArea);
        QCOMPARE(w.dockWidgetArea(w.findChild<QDockWidget*>(QStringLiteral("inspectorDock"))),
                 Qt::RightDockWidgetArea);
        QCOMPARE(w.dockWidgetArea(w.findChild<QDockWidget*>(QStringLiteral("chartDock"))),
                 Qt::BottomDockWidgetArea);
        // Canvas shows the preset's two device entries.
        QCOMPARE(w.scene()->deviceItemCount(), 2);
        // The evaluation arrives through document -> evaluator -> chart.
        QTRY_VERIFY(w.evaluator()->current() != nullptr);
        const auto ev = w.evaluator()->current();
        QCOMPARE(ev->workloads.size(), std::size_t(1));
        QVERIFY(ev->workloads[0].has_memory);
        auto* chart = w.charts()->memoryChart();
        QTRY_COMPARE(chart->barCount(), 1);
        QCOMPARE(chart->shownCapacity(), 80e9);
        QVERIFY(std::abs(chart->shownTotal(0) - ev->workloads[0].memory.per_gpu.total()) < 1.0);
    }

    void paletteDropAddsDeviceAndUndo() {
        ui::MainWindow w(cat_);
        QCOMPARE(w.openDesign(QStringLiteral("h100-ndr-2node")), QString());
        QVERIFY(w.palette()->tree()->topLevelItemCount() >= 3);
        QVERIFY(w.scene()->dropCatalogEntry(QStringLiteral("system:dgx-h100"), {400, 400}));
        QCOMPARE(w.document()->design().devices.size(), std::size_t(3));
        QCOMPARE(w.scene()->deviceItemCount(), 3);
        w.document()->undoStack()->undo();
        QCOMPARE(w.scene()->deviceItemCount(), 2);
    }

    void inspectorEditIsUndoable() {
        ui::MainWindow w(cat_);
        QCOMPARE(w.openDesign(QStringLiteral("h100-ndr-2node")), QString());
        w.show();
        w.inspector()->setSelection({QStringLiteral("node")});
        auto* count = w.inspector()->findChild<QSpinBox*>(QStringLiteral("deviceCount"));
        QVERIFY(count);
        count->setValue(5);
        QCOMPARE(w.document()->design().device("node")->count, 5);
        QTRY_VERIFY(w.evaluator()->current() && w.evaluator()->current()->topology.gpus == 40.0);
        w.document()->undoStack()->undo();
        QCOMPARE(w.document()->design().device("node")->count, 2);
    }

    // Journey 1 step 4: ZeRO 3 on the workload lowers the memory the chart shows; undo restores.
    void workloadEditUpdatesChart() {
        ui::MainWindow w(cat_);
        QCOMPARE(w.openDesign(QStringLiteral("h100-ndr-2node")), QString());
        w.show();
        QTRY_VERIFY(w.charts()->memoryChart()->barCount() == 1);
        const double before = w.charts()->memoryChart()->shownTotal(0);
        w.inspector()->setSelection({QStringLiteral("finetune")});
        auto* zero = w.inspector()->findChild<QSpinBox*>(QStringLiteral("zero"));
        QVERIFY(zero);
        zero->setValue(3);
        QCOMPARE(w.document()->design().workload("finetune")->training.zero, 3);
        QTRY_VERIFY(w.charts()->memoryChart()->shownTotal(0) < before - 50e9);
        auto* verdict = w.inspector()->findChild<QLabel*>(QStringLiteral("verdict"));
        QVERIFY(verdict);
        QTRY_VERIFY(verdict->text().contains(QStringLiteral("model states")));
        w.document()->undoStack()->undo();
        QTRY_VERIFY(std::abs(w.charts()->memoryChart()->shownTotal(0) - before) < 1.0);
    }

    void rooflineChartShowsOperators() {
        ui::MainWindow w(cat_);
        QCOMPARE(w.openDesign(QStringLiteral("h200-inference-8x")), QString());
        w.show();
        QTRY_VERIFY(w.charts()->rooflineChart()->pointCount() >= 7);
        QVERIFY(w.showChart(QStringLiteral("roofline")));
    }
};

QTEST_MAIN(TestGuiSmoke)
#include "tst_gui_smoke.moc"
