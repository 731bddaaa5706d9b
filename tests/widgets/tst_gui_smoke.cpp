// GUI smoke test: the main window opens offscreen, loads a preset, the canvas shows its
// devices and the memory chart shows the number core/model computed.
#include "calibration.h"
#include "canvas.h"
#include "charts.h"
#include "comparedialog.h"
#include "document/document.h"
#include "explainpanel.h"
#include "fabricwizard.h"
#include "inspector.h"
#include "layoutsearch.h"
#include "mainwindow.h"
#include "palette.h"
#include "realinput.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTemporaryFile>
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
        auto* count = w.inspector()->findChild<QSpinBox*>(QStringLiteral("count"));
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

    // Journey 5: the cost and reliability tabs follow the design's economics and reliability
    // inputs, edited in the inspector, undoably.
    void costAndReliabilityEdits() {
        ui::MainWindow w(cat_);
        QCOMPARE(w.openDesign(QStringLiteral("llama3-16k-h100")), QString());
        w.show();
        QTRY_VERIFY(w.charts()->costChart()->monthCount() == 36);
        QTRY_VERIFY(w.charts()->reliabilityChart()->pointCount() == 48);
        const double cost = w.charts()->costChart()->shownOnpremUsd();
        const double goodput = w.charts()->reliabilityChart()->shownGoodput();
        QVERIFY(goodput > 0.9 && goodput < 1);
        w.inspector()->setSelection({});
        auto* pue = w.inspector()->findChild<QDoubleSpinBox*>(QStringLiteral("pue"));
        QVERIFY(pue);
        pue->setValue(1.6);
        QCOMPARE(w.document()->design().economics.pue, 1.6);
        QTRY_VERIFY(w.charts()->costChart()->shownOnpremUsd() > cost);
        auto* async = w.inspector()->findChild<QCheckBox*>(QStringLiteral("async_checkpoint"));
        QVERIFY(async);
        async->setChecked(true);
        QTRY_VERIFY(w.charts()->reliabilityChart()->shownGoodput() > goodput);
        w.document()->undoStack()->undo();
        w.document()->undoStack()->undo();
        QTRY_VERIFY(std::abs(w.charts()->costChart()->shownOnpremUsd() - cost) < 1.0);
        QTRY_VERIFY(std::abs(w.charts()->reliabilityChart()->shownGoodput() - goodput) < 1e-12);
    }

    // Journey 1 step 5-6: "how is this computed?" on MFU, then export for the team.
    void explainAndExport() {
        ui::MainWindow w(cat_);
        QCOMPARE(w.openDesign(QStringLiteral("dgx-h100-4su")), QString());
        w.show();
        QTRY_VERIFY(w.charts()->explainPanel()->entryCount() >= 4);
        const auto& wl = w.document()->design().workloads.front();
        w.inspector()->setSelection({QString::fromStdString(wl.id)});
        auto* how = w.inspector()->findChild<QPushButton*>(QStringLiteral("explainButton"));
        QVERIFY(how);
        how->click();
        QCOMPARE(w.charts()->tabs()->tabText(w.charts()->tabs()->currentIndex()),
                 QStringLiteral("Explain"));
        auto* item = w.charts()->explainPanel()->tree()->currentItem();
        QVERIFY(item);
        QVERIFY(item->text(0).contains(QStringLiteral("MFU")));
        QVERIFY(item->childCount() >= 4); // inputs with their sources
        QTemporaryDir dir;
        QCOMPARE(w.exportReport(QStringLiteral("pdf"), dir.filePath(QStringLiteral("r.pdf"))),
                 QString());
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("r.pdf"))).size() > 50000);
        QCOMPARE(w.exportReport(QStringLiteral("csv"), dir.filePath(QStringLiteral("r.csv"))),
                 QString());
        QCOMPARE(w.exportImage(true, dir.filePath(QStringLiteral("c.svg"))), QString());
        QCOMPARE(w.exportImage(false, dir.filePath(QStringLiteral("chart.png"))), QString());
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("chart.png"))).size() > 1000);
    }

    // Journey 2 step 4: the tornado ranks the inputs that move owning vs renting.
    void sensitivityTab() {
        ui::MainWindow w(cat_);
        QCOMPARE(w.openDesign(QStringLiteral("dgx-h100-4su")), QString());
        w.show();
        QVERIFY(w.showChart(QStringLiteral("Sensitivity")));
        QTRY_VERIFY(w.charts()->sensitivityChart()->barCount() >= 4);
        QVERIFY(w.charts()->sensitivityChart()->shownInputs().contains(
            QStringLiteral("Server price (0 = catalog)")));
        // Another output: the training run's cost moves with tokens and the cloud price.
        auto* box = w.charts()->sensitivityChart()->outputBox();
        box->setCurrentIndex(2);
        QTRY_VERIFY(w.charts()->sensitivityChart()->shownInputs().contains(
            QStringLiteral("Tokens to train")));
    }

    // Journey 2 step 5 / journey 3 step 4: designs side by side.
    void compareDesigns() {
        auto d = doc::loadDesign(QStringLiteral("dgx-h100-4su"), *cat_);
        QVERIFY(d.ok());
        ui::CompareDialog dlg(*d, cat_);
        QCOMPARE(dlg.addDesign(QStringLiteral("h200-inference-8x")), QString());
        QVERIFY(!dlg.addDesign(QStringLiteral("no-such-design")).isEmpty());
        QCOMPARE(dlg.table()->columnCount(), 1 + 2 + 1);
        QVERIFY(dlg.table()->rowCount() >= 10);
        QCOMPARE(dlg.table()->item(0, 0)->text(), QStringLiteral("GPUs"));
        QCOMPARE(dlg.table()->item(0, 3)->text(), QStringLiteral("-99.2 %"));
    }

    // Journey 3 step 3: speculative decoding from the inspector changes TPOT.
    void speculativeDecodingInInspector() {
        ui::MainWindow w(cat_);
        QCOMPARE(w.openDesign(QStringLiteral("h200-inference-8x")), QString());
        w.show();
        QTRY_VERIFY(w.evaluator()->current() && !w.evaluator()->current()->workloads.empty() &&
                    w.evaluator()->current()->workloads[0].inference);
        const double before = w.evaluator()->current()->workloads[0].inference->decode_step_s;
        const auto id = QString::fromStdString(w.document()->design().workloads[0].id);
        QVERIFY(realinput::clickEntity(w, id)); // select the service card with the mouse
        auto* draft = w.inspector()->findChild<QComboBox*>(QStringLiteral("speculative_draft"));
        QVERIFY(draft);
        if (auto* sa = w.inspector()->findChild<QScrollArea*>())
            sa->ensureWidgetVisible(draft);
        const int steps = w.document()->undoStack()->index();
        QVERIFY(realinput::chooseInCombo(draft, QStringLiteral("llama3-8b")));
        QCOMPARE(w.document()->undoStack()->index(), steps + 1); // one pick, one undo step
        QCOMPARE(w.document()->design().workloads[0].inference.speculative_draft,
                 std::string("llama3-8b"));
        QTRY_VERIFY(w.evaluator()->current()->workloads[0].inference->speculative_speedup != 1.0);
        QVERIFY(w.evaluator()->current()->workloads[0].inference->decode_step_s != before);
        QTest::mouseClick(realinput::undoButton(w), Qt::LeftButton);
        QVERIFY(w.document()->design().workloads[0].inference.speculative_draft.empty());
    }

    void rooflineChartShowsOperators() {
        ui::MainWindow w(cat_);
        QCOMPARE(w.openDesign(QStringLiteral("h200-inference-8x")), QString());
        w.show();
        QTRY_VERIFY(w.charts()->rooflineChart()->pointCount() >= 7);
        QTRY_VERIFY(w.charts()->inferenceChart()->pointCount() > 10);
        QVERIFY(w.showChart(QStringLiteral("roofline")));
    }

    // Journey 2 step 1: the wizard drops 4 SuperPOD SUs (127 DGX H100, 1,016 GPUs) as one step.
    void fabricWizardBuildsSuperpod() {
        ui::MainWindow w(cat_);
        QCOMPARE(w.openDesign(QStringLiteral("h100-ndr-2node")), QString());
        ui::FabricWizard wiz(*cat_);
        wiz.kind->setCurrentIndex(wiz.kind->findData(QStringLiteral("superpod")));
        wiz.units->setValue(4);
        auto d = wiz.generate();
        QVERIFY(d.ok());
        ui::applyGeneratedFabric(w.document(), std::move(d).value());
        QTRY_VERIFY(w.evaluator()->current() && w.evaluator()->current()->topology.gpus == 1016.0);
        QCOMPARE(w.document()->design().workloads.size(), std::size_t(1)); // the workload stays
        QTRY_VERIFY(w.charts()->fabricChart()->curveCount() >= 2);
        w.document()->undoStack()->undo();
        QTRY_VERIFY(w.evaluator()->current()->topology.gpus == 16.0);
    }

    // Journey 4 step 2: importing nccl-tests output stores a fit in the design (undoable).
    void importNcclTestsCalibrates() {
        ui::MainWindow w(cat_);
        QCOMPARE(w.openDesign(QStringLiteral("a100-hdr-2node")), QString());
        QTemporaryFile f;
        QVERIFY(f.open());
        QByteArray text = "# all_reduce_perf\n";
        for (int r = 0; r < 8; ++r)
            text += QByteArray("#  Rank  ") + QByteArray::number(r) +
                    " Group  0 Pid 1 on h device " + QByteArray::number(r) +
                    " [0x07] NVIDIA A100-SXM4-80GB\n";
        const double rows[][3] = {{32768, 43.83, 1.31},
                                  {1048576, 101.9, 18.0},
                                  {67108864, 684.6, 171.54},
                                  {1073741824, 8203.9, 229.04},
                                  {17179869184, 127997, 234.89}};
        for (const auto& r : rows)
            text += QByteArray::number(static_cast<qint64>(r[0])) + " 1 float sum -1 " +
                    QByteArray::number(r[1]) + " 1.0 " + QByteArray::number(r[2]) + " 0 " +
                    QByteArray::number(r[1]) + " 1.0 1.0 0\n";
        f.write(text);
        f.close();
        const QString msg = ui::importNcclTests(w.document(), &w, f.fileName(), /*confirm=*/false);
        QVERIFY2(msg.contains(QStringLiteral("after the fit")), qPrintable(msg));
        QCOMPARE(w.document()->design().calibration.size(), std::size_t(1));
        QVERIFY(w.document()->design().calibration[0].beta_Bps > 100e9);
        w.document()->undoStack()->undo();
        QVERIFY(w.document()->design().calibration.empty());
    }

    // Journey 1 step 4: "find a layout" runs the search off the GUI thread and applies the best
    // fitting layout as one undo step; the memory badge turns green.
    void findLayoutApplies() {
        ui::MainWindow w(cat_);
        QCOMPARE(w.openDesign(QStringLiteral("h100-ndr-2node")), QString());
        QTRY_VERIFY(w.evaluator()->current() &&
                    !w.evaluator()->current()->workloads[0].memory.fits);
        ui::LayoutSearchDialog dlg(w.document(), "finetune");
        dlg.waitForResults();
        QVERIFY(dlg.table()->rowCount() > 0);
        // Best first (fastest step), not sorted by the first column.
        QVERIFY(
            dlg.table()->item(0, 8)->data(Qt::DisplayRole).toDouble() <=
            dlg.table()->item(dlg.table()->rowCount() - 1, 8)->data(Qt::DisplayRole).toDouble());
        if (qEnvironmentVariableIsSet("CLUSTERLENS_SHOTS")) {
            dlg.show();
            QTest::qWait(400);
            dlg.grab().save(qEnvironmentVariable("CLUSTERLENS_SHOTS") +
                            QStringLiteral("/search.png"));
        }
        // Sorting by a column keeps each row tied to its layout.
        const int steps = dlg.table()->columnCount() - 3;
        dlg.table()->sortByColumn(steps, Qt::DescendingOrder);
        QVERIFY(dlg.table()->item(0, steps)->data(Qt::DisplayRole).toDouble() >=
                dlg.table()
                    ->item(dlg.table()->rowCount() - 1, steps)
                    ->data(Qt::DisplayRole)
                    .toDouble());
        dlg.table()->sortByColumn(steps, Qt::AscendingOrder);
        QVERIFY(dlg.applyRow(0));
        QTRY_VERIFY(w.evaluator()->current()->workloads[0].memory.fits);
        QVERIFY(w.evaluator()->current()->workloads[0].training.has_value());
        w.document()->undoStack()->undo();
        QTRY_VERIFY(!w.evaluator()->current()->workloads[0].memory.fits);
    }
};

QTEST_MAIN(TestGuiSmoke)
#include "tst_gui_smoke.moc"
