// clusterlens: the GUI. Thin: parse arguments, load the catalog, show the main window.
//   clusterlens [DESIGN.json | PRESET-ID]
//   clusterlens --screenshot FILE.png [DESIGN.json | PRESET-ID]

#include "canvas.h"
#include "mainwindow.h"
#include "model/catalog.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QMessageBox>
#include <QTimer>

#include <cstdio>
#include <filesystem>
#include <functional>

#ifndef CLUSTERLENS_VERSION
#define CLUSTERLENS_VERSION "0.0.0"
#endif

namespace {
constexpr const char* kDefaultPreset = "h100-ndr-2node";

std::shared_ptr<const cl::model::Catalog> loadCatalog(QString* warning) {
    auto c = cl::model::Catalog::bundled();
    if (!c) {
        std::fprintf(stderr, "clusterlens: bundled catalog invalid: %s\n", c.error_text().c_str());
        return nullptr;
    }
    cl::model::Catalog cat = std::move(c).value();
    const std::string path = cl::model::user_catalog_path();
    std::error_code ec;
    if (!path.empty() && std::filesystem::exists(path, ec)) {
        auto text = cl::model::read_text_file(path);
        std::vector<cl::model::Error> errs = text ? cat.merge(*text, path, true) : text.errors();
        if (!errs.empty())
            *warning = QString::fromStdString(cl::model::join_errors(errs));
    }
    return std::make_shared<const cl::model::Catalog>(std::move(cat));
}
} // namespace

namespace {
/// Calls `done` once, right after the first paint event of the watched widget was handled.
class FirstPaint : public QObject {
public:
    FirstPaint(QObject* parent, std::function<void()> done)
        : QObject(parent), done_(std::move(done)) {}
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() == QEvent::Paint && done_) {
            auto done = std::move(done_);
            done_ = nullptr;
            QTimer::singleShot(0, this, std::move(done));
        }
        return QObject::eventFilter(o, e);
    }

private:
    std::function<void()> done_;
};
} // namespace

int main(int argc, char** argv) {
    QElapsedTimer startClock; // --startup-probe: time from main() to the first painted window
    startClock.start();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ClusterLens"));
    QApplication::setOrganizationName(QStringLiteral("ClusterLens"));
    QApplication::setApplicationVersion(QStringLiteral(CLUSTERLENS_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Desktop explorer for GPU infrastructure design"));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption shot(QStringLiteral("screenshot"),
                            QStringLiteral("Open the design, evaluate, paint, save a PNG of the "
                                           "main window to FILE and exit."),
                            QStringLiteral("FILE"));
    parser.addOption(shot);
    QCommandLineOption probe(QStringLiteral("startup-probe"),
                             QStringLiteral("Open the design, wait for the first painted window, "
                                            "print the time since start and the peak resident "
                                            "memory, and exit (docs/performance.md)."));
    parser.addOption(probe);
    QCommandLineOption tab(QStringLiteral("chart"),
                           QStringLiteral("Chart tab to show first (memory, roofline, ...)."),
                           QStringLiteral("NAME"));
    parser.addOption(tab);
    parser.addPositionalArgument(QStringLiteral("design"),
                                 QStringLiteral("Design file or bundled preset id (default: %1)")
                                     .arg(QLatin1String(kDefaultPreset)));
    parser.process(app);

    QString warning;
    auto catalog = loadCatalog(&warning);
    if (!catalog)
        return 1;
    cl::ui::MainWindow window(catalog);
    const QString design = parser.positionalArguments().value(0, QLatin1String(kDefaultPreset));
    const QString err = window.openDesign(design);
    if (!err.isEmpty()) {
        std::fprintf(stderr, "clusterlens: %s\n", qPrintable(err));
        if (parser.isSet(shot))
            return 2;
        QMessageBox::critical(&window, QObject::tr("Cannot open design"), err);
    }
    // An unknown tab name is said, not silently replaced by the first tab (helper-10).
    if (parser.isSet(tab) && !window.showChart(parser.value(tab)))
        std::fprintf(stderr, "clusterlens: --chart: no chart tab named \"%s\"\n",
                     qPrintable(parser.value(tab)));
    window.show();
    if (!parser.isSet(shot) && !parser.isSet(probe)) // screenshots and probes: the defaults
        window.restoreViewSettings();
    // A design autosaved by a session that did not close cleanly (crash, kill -9).
    if (!parser.isSet(shot) && !parser.isSet(probe))
        window.offerRecovery();
    if (!warning.isEmpty())
        QMessageBox::warning(&window, QObject::tr("Your catalog file has errors"), warning);

    if (parser.isSet(probe)) {
        // First paint: the window is exposed and its first frame has been drawn once the event
        // loop has run after show(); evaluation is part of what a user waits for.
        window.evaluator()->evaluateNow();
        // The first frame the user sees: the canvas's first paint event has been handled (the
        // zero-timer runs once that paint, and the flush after it, are done).
        auto* filter = new FirstPaint(&window, [&] {
            const qint64 ms = startClock.elapsed();
            long hwm_kb = 0;
            if (FILE* f = std::fopen("/proc/self/status", "r")) {
                char line[256];
                while (std::fgets(line, sizeof line, f))
                    if (std::sscanf(line, "VmHWM: %ld kB", &hwm_kb) == 1)
                        break;
                std::fclose(f);
            }
            std::printf("first paint after %lld ms; peak resident memory %.1f MB\n",
                        static_cast<long long>(ms), static_cast<double>(hwm_kb) / 1024.0);
            QApplication::exit(0);
        });
        window.canvas()->viewport()->installEventFilter(filter);
    }
    if (parser.isSet(shot)) {
        const QString file = parser.value(shot);
        window.evaluator()->evaluateNow();
        // Let layouts, the chart and the canvas settle before grabbing.
        QTimer::singleShot(300, &window, [&] {
            window.canvas()->fitAll();
            QApplication::processEvents();
            const bool ok = window.grab().save(file, "PNG");
            if (!ok)
                std::fprintf(stderr, "clusterlens: cannot write %s\n", qPrintable(file));
            QApplication::exit(ok ? 0 : 2);
        });
    }
    return QApplication::exec();
}
