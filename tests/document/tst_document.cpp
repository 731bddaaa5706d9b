// core/document: commands on the undo stack, one typed change signal, atomic saves.
#include "document/commands.h"
#include "document/document.h"
#include "document/evaluator.h"
#include "document/sensitivityrunner.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace cl;

class TestDocument : public QObject {
    Q_OBJECT
private:
    std::shared_ptr<const model::Catalog> cat_;

private slots:
    void initTestCase() {
        auto c = model::Catalog::bundled();
        QVERIFY2(c.ok(), c.error_text().c_str());
        cat_ = std::make_shared<const model::Catalog>(c.value());
    }

    void openPreset() {
        doc::Document d(cat_);
        QSignalSpy spy(&d, &doc::Document::changed);
        QCOMPARE(d.open(QStringLiteral("h100-ndr-2node")), QString());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.first().first().value<doc::ChangeEvent>().type, doc::ChangeEvent::Reset);
        QVERIFY(d.design().device("node"));
        QVERIFY(!d.isModified());
    }

    // The tornado runs off the GUI thread on a copy of the design as it was when asked; a
    // request made while one runs is served next, on the design as it is then.
    void sensitivityRunsOnAWorker() {
        doc::Document d(cat_);
        QCOMPARE(d.open(QStringLiteral("dgx-h100-4su")), QString());
        doc::SensitivityRunner runner(&d);
        QSignalSpy spy(&runner, &doc::SensitivityRunner::finished);
        using Out = model::SensitivityOutput;
        runner.request(Out::onprem_minus_cloud_usd);
        QVERIFY(runner.busy());
        runner.request(Out::amortized_usd_per_gpu_hour); // while the first runs: served next
        QVERIFY(spy.wait(60000));
        QTRY_VERIFY_WITH_TIMEOUT(!runner.busy(), 60000);
        QCOMPARE(spy.count(), 1); // the first result was replaced by the newer request
        const auto r = spy.first().first().value<std::shared_ptr<const model::SensitivityResult>>();
        QVERIFY(r);
        QCOMPARE(r->output, Out::amortized_usd_per_gpu_hour);
        const auto direct = model::sensitivity(d.design(), *cat_, Out::amortized_usd_per_gpu_hour);
        QCOMPARE(r->bars.size(), direct.bars.size());
        QCOMPARE(r->base, direct.base);
        QCOMPARE(r->bars.front().input, direct.bars.front().input);
    }

    void openErrorLeavesDocumentUnchanged() {
        doc::Document d(cat_);
        QVERIFY(d.open(QStringLiteral("h100-ndr-2node")).isEmpty());
        const QString err = d.open(QStringLiteral("no-such-thing"));
        QVERIFY(err.contains(QStringLiteral("no bundled preset")));
        QVERIFY(d.design().device("node"));
    }

    void changeUndoRedo() {
        doc::Document d(cat_);
        QVERIFY(d.open(QStringLiteral("h100-ndr-2node")).isEmpty());
        QSignalSpy spy(&d, &doc::Document::changed);
        QCOMPARE(d.setProperty(QStringLiteral("node"), model::Section::device,
                               QStringLiteral("count"), 4.0),
                 QString());
        QCOMPARE(d.design().device("node")->count, 4);
        QVERIFY(d.isModified());
        // The event names the entity and the property, so views update only that.
        const auto e = spy.last().first().value<doc::ChangeEvent>();
        QCOMPARE(e.type, doc::ChangeEvent::Properties);
        QCOMPARE(e.ids, QStringList{QStringLiteral("node")});
        QCOMPARE(e.properties, QStringList{QStringLiteral("device.count")});
        // The same value pushes nothing; a refused value changes nothing and says why.
        QCOMPARE(d.setProperty(QStringLiteral("node"), model::Section::device,
                               QStringLiteral("count"), 4.0),
                 QString());
        QCOMPARE(d.undoStack()->count(), 1);
        QVERIFY(d.setProperty(QStringLiteral("node"), model::Section::device,
                              QStringLiteral("count"), 0.0)
                    .contains(QStringLiteral("Replicas: must be between 1")));
        QVERIFY(d.setProperty(QStringLiteral("node"), model::Section::device,
                              QStringLiteral("count"), std::nan(""))
                    .contains(QStringLiteral("finite")));
        QCOMPARE(d.undoStack()->count(), 1);
        d.undoStack()->undo();
        QCOMPARE(d.design().device("node")->count, 2);
        QVERIFY(!d.isModified());
        d.undoStack()->redo();
        QCOMPARE(d.design().device("node")->count, 4);
        // Changed back by hand: the design is the file's again, nothing to save.
        QCOMPARE(d.setProperty(QStringLiteral("node"), model::Section::device,
                               QStringLiteral("count"), 2.0),
                 QString());
        QVERIFY(!d.isModified());
        d.undoStack()->undo(); // count 4 again
        QVERIFY(d.isModified());
        // Recovered work is unsaved even where it equals the file.
        d.undoStack()->redo();
        d.markUnsaved();
        QVERIFY(d.isModified());
    }

    void dragMergesIntoOneStep() {
        doc::Document d(cat_);
        QVERIFY(d.open(QStringLiteral("h100-ndr-2node")).isEmpty());
        const model::Point p0 = d.design().device("node")->position;
        for (int i = 1; i <= 5; ++i)
            d.moveItems(
                {{QStringLiteral("node"), {p0.x + (i - 1) * 10, p0.y}, {p0.x + i * 10, p0.y}}}, 7);
        QCOMPARE(d.undoStack()->count(), 1);
        QCOMPARE(d.design().device("node")->position.x, p0.x + 50);
        d.undoStack()->undo();
        QCOMPARE(d.design().device("node")->position, p0);
    }

    void saveIsAtomicAndRoundTrips() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("d.json"));
        doc::Document d(cat_);
        QVERIFY(d.open(QStringLiteral("h100-ndr-2node")).isEmpty());
        QCOMPARE(d.saveAs(path), QString());
        QCOMPARE(d.filePath(), QFileInfo(path).absoluteFilePath());
        doc::Document e(cat_);
        QCOMPARE(e.open(path), QString());
        QVERIFY(e.design() == d.design());
        // Only the final file remains (QSaveFile writes a temporary and renames it).
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("d.json")});
    }

    void saveToUnwritablePlaceReportsError() {
        doc::Document d(cat_);
        QVERIFY(d.open(QStringLiteral("h100-ndr-2node")).isEmpty());
        const QString err = d.saveAs(QStringLiteral("/nonexistent-dir/x/d.json"));
        QVERIFY(!err.isEmpty());
        QVERIFY(err.contains(QStringLiteral("/nonexistent-dir/x/d.json")));
    }

    // kill -9 while saving, many times: the file always holds a complete design, the old one or
    // the new one (QSaveFile writes a temporary and renames it atomically).
    void killDuringSave() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("d.json"));
        for (int round = 0; round < 8; ++round) {
            QProcess p;
            p.start(QStringLiteral(SAVE_LOOP_EXE), {path});
            QVERIFY(p.waitForReadyRead(20000)); // "ready": both designs loaded
            QTest::qWait(30 + 37 * round);      // kill at different points of the loop
            p.kill();                           // SIGKILL
            QVERIFY(p.waitForFinished(10000));
            QVERIFY(QFileInfo::exists(path));
            doc::Document d(cat_);
            const QString err = d.open(path);
            QVERIFY2(err.isEmpty(), qPrintable(err));
            const auto n = d.design().devices.size();
            QVERIFY(n > 0);
        }
        // Leftover temporaries are QSaveFile's, never the design file itself half written.
        for (const QString& f : QDir(dir.path()).entryList(QDir::Files))
            QVERIFY2(f == QStringLiteral("d.json") || f.contains(QStringLiteral(".d.json")) ||
                         f.startsWith(QStringLiteral("d.json.")),
                     qPrintable(f));
    }

    // A file system that refuses writes (read-only /proc) is reported, nothing changes.
    void saveToReadOnlyFileSystemReportsError() {
        doc::Document d(cat_);
        QVERIFY(d.open(QStringLiteral("h100-ndr-2node")).isEmpty());
        const QString err = d.saveAs(QStringLiteral("/proc/clusterlens-test.json"));
        QVERIFY(!err.isEmpty());
        QVERIFY(d.filePath().isEmpty());
    }

    void evaluatorCoalesces() {
        doc::Document d(cat_);
        doc::Evaluator ev(&d);
        QSignalSpy spy(&ev, &doc::Evaluator::evaluated);
        QVERIFY(d.open(QStringLiteral("h100-ndr-2node")).isEmpty());
        model::Device before = *d.design().device("node");
        for (int i = 3; i < 8; ++i) {
            QCOMPARE(d.setProperty(QStringLiteral("node"), model::Section::device,
                                   QStringLiteral("count"), double(i)),
                     QString());
        }
        QVERIFY(spy.wait(2000));
        QCOMPARE(spy.count(), 1); // six changes, one evaluation
        QCOMPARE(ev.current()->topology.gpus, 7.0 * 8);
    }
};

QTEST_GUILESS_MAIN(TestDocument)
#include "tst_document.moc"
