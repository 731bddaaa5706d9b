// Nothing lost (issue 17), through the GUI with real files on a real full file system: a small
// tmpfs is mounted and filled, then Save, autosave and every export are tried on it by input.
// Each must say why ("No space left on device"), leave the file on disk byte-identical and the
// document modified. And the first edit after opening is autosaved. Runs on xcb under Xvfb;
// mounting needs root (CI runs as root), otherwise the full-disk cases are skipped with a note.
#include "autosave.h"
#include "canvas.h"
#include "mainwindow.h"
#include "realinput.h"

#include <QFile>
#include <QMessageBox>
#include <QProcess>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtTest>

using namespace cl;
using namespace realinput;

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Fills the file system holding `dir` until a write fails with ENOSPC.
bool fill(const QString& dir) {
    QFile f(dir + QStringLiteral("/filler"));
    if (!f.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return false;
    const QByteArray block(4096, 'x');
    while (f.write(block) == block.size()) {
    }
    QByteArray one(1, 'x');
    while (f.write(one) == 1) {
    }
    return true;
}

} // namespace

class TestNothingLost : public QObject {
    Q_OBJECT
private:
    std::shared_ptr<const model::Catalog> cat_;
    QTemporaryDir base_;
    QString mnt_;
    bool mounted_ = false;

    void show(ui::MainWindow& w) { QVERIFY(showActive(w)); }

private slots:
    void initTestCase() {
        QApplication::setOrganizationName(QStringLiteral("ClusterLensTest"));
        QApplication::setApplicationName(QStringLiteral("tst_nothing_lost"));
        auto c = model::Catalog::bundled();
        QVERIFY2(c.ok(), c.error_text().c_str());
        cat_ = std::make_shared<const model::Catalog>(c.value());
        mnt_ = base_.filePath(QStringLiteral("full"));
        QVERIFY(QDir().mkpath(mnt_));
        mounted_ =
            QProcess::execute(QStringLiteral("mount"),
                              {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                               QStringLiteral("size=512k"), QStringLiteral("tmpfs"), mnt_}) == 0;
        if (!mounted_)
            qWarning("cannot mount a tmpfs (not root?): the full-disk cases are skipped");
    }
    void cleanupTestCase() {
        if (mounted_)
            QProcess::execute(QStringLiteral("umount"), {mnt_});
    }

    // Save on a full disk: an error naming the cause, the file unchanged, still modified; the
    // autosave on the same disk fails with the reason in the status bar and keeps no empty
    // file; every export fails the same way and leaves what was there.
    void fullDisk() {
        if (!mounted_)
            QSKIP("needs a small tmpfs (mount as root)");
        const QString slot = mnt_ + QStringLiteral("/autosave");
        QVERIFY(QDir().mkpath(slot));
        qputenv("CLUSTERLENS_AUTOSAVE_DIR", slot.toUtf8());
        qputenv("CLUSTERLENS_AUTOSAVE_MS", "200");
        ui::MainWindow w(cat_);
        show(w);
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Open Preset"),
                             QStringLiteral("h100-ndr-2node")}));
        const QString path = mnt_ + QStringLiteral("/design.json");
        const QString csv = mnt_ + QStringLiteral("/tables.csv");
        bool done = false;
        answerFileDialog(path, &done);
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Save As…")}));
        QVERIFY(done);
        done = false;
        answerFileDialog(csv, &done);
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Export"),
                             QStringLiteral("Tables as CSV…")}));
        QVERIFY(done);
        const QByteArray saved = readAll(path), savedCsv = readAll(csv);
        QVERIFY(saved.size() > 100 && savedCsv.size() > 100);
        QVERIFY(fill(mnt_));

        // An edit: click the leaf switch, press Delete.
        QVERIFY(clickEntity(w, QStringLiteral("leaf")));
        pressKey(Qt::Key_Delete);
        QVERIFY(!w.document()->design().device("leaf"));
        QVERIFY(w.isWindowModified());

        // Save (Ctrl+S): refused with the reason.
        QString shown;
        bool answered = false;
        readMessageBox(QStringLiteral("Cannot save design"), &shown, &answered);
        pressKey(Qt::Key_S, Qt::ControlModifier);
        QTRY_VERIFY(answered);
        QVERIFY2(shown.contains(QStringLiteral("No space left on device")), qPrintable(shown));
        QCOMPARE(readAll(path), saved);
        QVERIFY(w.document()->isModified());
        QVERIFY(w.isWindowModified());
        QVERIFY(!w.statusBar()->currentMessage().startsWith(QStringLiteral("Saved")));

        // The autosave timer runs on the full disk: the reason shows, no empty slot is left.
        QTRY_VERIFY_WITH_TIMEOUT(
            w.statusBar()->currentMessage().contains(QStringLiteral("No space left on device")),
            5000);
        QVERIFY(!w.autosave()->hasRecovery() || QFileInfo(w.autosave()->slotPath()).size() > 0);

        // Exports: CSV over the existing file, PDF, canvas PNG and SVG.
        const std::pair<QString, QString> exports[] = {
            {QStringLiteral("Tables as CSV…"), csv},
            {QStringLiteral("Report as PDF…"), mnt_ + QStringLiteral("/r.pdf")},
            {QStringLiteral("Canvas as PNG/SVG…"), mnt_ + QStringLiteral("/c.png")},
            {QStringLiteral("Canvas as PNG/SVG…"), mnt_ + QStringLiteral("/c.svg")}};
        for (const auto& [entry, file] : exports) {
            bool picked = false, warned = false;
            QString warning;
            answerFileDialog(file, &picked);
            readMessageBox(QStringLiteral("Export failed"), &warning, &warned);
            QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Export"), entry}));
            QVERIFY(picked);
            QTRY_VERIFY_WITH_TIMEOUT(warned, 30000); // the PDF renders first: slow under ASan
            QVERIFY2(warning.contains(QStringLiteral("No space left on device")),
                     qPrintable(entry + QStringLiteral(": ") + warning));
        }
        QCOMPARE(readAll(csv), savedCsv);
        for (const char* name : {"/r.pdf", "/c.png", "/c.svg"})
            QVERIFY2(!QFileInfo::exists(mnt_ + QString::fromLatin1(name)), name);
        QFile::remove(mnt_ + QStringLiteral("/filler"));

        // With space again, Save works and clears the modified state.
        QVERIFY(clickEntity(w, QString())); // back to the window
        pressKey(Qt::Key_S, Qt::ControlModifier);
        QTRY_VERIFY(!w.document()->isModified());
        QVERIFY(readAll(path) != saved);
        qunsetenv("CLUSTERLENS_AUTOSAVE_MS");
    }

    // A design whose ids hold HTML: the "Cannot open design" box shows it as plain text, with
    // no image loaded and no live link (issue 17 item 9).
    void errorsFromFilesArePlainText() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("hostile.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const QByteArray dev = "{\"id\": \"<img src='/etc/x.png'><a href='http://example.com'>"
                                   "x</a>\", \"kind\": \"system\", \"catalog\": \"dgx-h100\"}";
            f.write("{\"format\": \"clusterlens-design\", \"version\": \"1.0\", \"devices\": [" +
                    dev + ", " + dev + "]}"); // a duplicate id: the error quotes it
        }
        ui::MainWindow w(cat_);
        show(w);
        bool picked = false, shown = false;
        Qt::TextFormat format = Qt::RichText;
        QString text;
        answerFileDialog(path, &picked);
        onModal<QMessageBox>(
            [&](QMessageBox* box) {
                format = box->textFormat();
                text = box->text();
                QTest::keyClick(box, Qt::Key_Return);
            },
            &shown,
            [](QMessageBox* box) {
                return box->windowTitle() == QStringLiteral("Cannot open design");
            });
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Open…")}));
        QVERIFY(picked);
        QTRY_VERIFY(shown);
        QCOMPARE(format, Qt::PlainText);
        QVERIFY2(text.contains(QStringLiteral("<img src=")), qPrintable(text));

        // A design that loads, with HTML in a name: the canvas tooltips show it as text.
        const QString named = dir.filePath(QStringLiteral("named.json"));
        {
            QFile f(named);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"format\": \"clusterlens-design\", \"version\": \"1.1\", \"devices\": "
                    "[{\"id\": \"n\", \"name\": \"<b>bold</b><img src='/etc/x.png'>\", "
                    "\"kind\": \"system\", \"catalog\": \"dgx-h100\"}]}");
        }
        picked = false;
        answerFileDialog(named, &picked);
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Open…")}));
        QVERIFY(picked);
        QTRY_VERIFY(w.document()->design().devices.size() == 1);
        // Hovering the device shows its tooltip: the name appears escaped, never as markup.
        const QString tip = hoverToolTip(w, QStringLiteral("n"));
        QVERIFY2(tip.contains(QStringLiteral("bold")), qPrintable(tip));
        QVERIFY2(!Qt::mightBeRichText(tip) || tip.contains(QStringLiteral("&lt;b&gt;")),
                 qPrintable(tip));
        // Every other item's tooltip (links, groups, workloads: set eagerly) is safe too.
        for (auto* it : w.scene()->items()) {
            const QString t = it->toolTip();
            if (t.contains(QStringLiteral("bold")))
                QVERIFY2(!Qt::mightBeRichText(t) || t.contains(QStringLiteral("&lt;b&gt;")),
                         qPrintable(t));
        }
    }

    // Open a preset, make one edit, wait for the autosave, die: the next start offers it.
    void firstEditIsAutosaved() {
        QTemporaryDir slot;
        qputenv("CLUSTERLENS_AUTOSAVE_DIR", slot.path().toUtf8());
        qputenv("CLUSTERLENS_AUTOSAVE_MS", "200");
        model::Design edited;
        {
            auto* w = new ui::MainWindow(cat_);
            show(*w);
            QVERIFY(menuPath(*w, {QStringLiteral("File"), QStringLiteral("Open Preset"),
                                  QStringLiteral("h100-ndr-2node")}));
            QVERIFY(clickEntity(*w, QStringLiteral("leaf")));
            pressKey(Qt::Key_Delete); // the one and only edit
            QTRY_VERIFY_WITH_TIMEOUT(w->autosave()->hasRecovery(), 3000);
            edited = w->document()->design();
            delete w; // as if killed: no close event, no clean-up
        }
        qunsetenv("CLUSTERLENS_AUTOSAVE_MS");
        ui::MainWindow next(cat_);
        QVERIFY(next.autosave()->hasRecovery());
        QCOMPARE(next.autosave()->recover(), QString());
        QVERIFY(next.document()->design() == edited);
        QVERIFY(!next.document()->design().device("leaf"));
    }
};

QTEST_MAIN(TestNothingLost)
#include "tst_nothing_lost.moc"
