#include "cli.h"

#include <clocale>
#include <iostream>

#ifdef CLUSTERLENS_HAVE_GUI
#include "model/catalog.h"
#include "model/design.h"
#include "model/evaluate.h"
#include "report.h"

#include <QApplication>

#include <memory>
#endif

int main(int argc, char** argv) {
    std::setlocale(LC_ALL, "C"); // numbers parse and print in the C locale (CLI.md)
    std::vector<std::string> args(argv + 1, argv + argc);
#ifdef CLUSTERLENS_HAVE_GUI
    // `report -o FILE.pdf` draws the charts and the canvas with Qt, offscreen; nothing else in
    // the CLI touches Qt.
    // The application lives in main's scope: it must go before Qt's own statics do.
    int qargc = argc;
    std::unique_ptr<QApplication> app;
    cl::cli::set_pdf_writer([&qargc, argv, &app](const std::string& path,
                                                 const cl::model::Design& d,
                                                 const cl::model::Evaluation& ev,
                                                 const cl::model::Catalog& cat) -> std::string {
        if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        if (!QCoreApplication::instance())
            app = std::make_unique<QApplication>(qargc, argv);
        const QString err = cl::ui::writeReportPdf(QString::fromStdString(path), d, ev,
                                                   std::make_shared<const cl::model::Catalog>(cat));
        return err.toStdString();
    });
#endif
    std::setlocale(LC_ALL, "C");
    const int code = cl::cli::run_cli(args, std::cout, std::cerr);
    cl::cli::set_pdf_writer({});
    return code;
}
