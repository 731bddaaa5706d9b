// Helper for tst_document::killDuringSave: saves two different designs to one path, in turns,
// as fast as it can, until killed. The path must always hold one of them, complete.
#include "document/document.h"

#include <QCoreApplication>

#include <cstdio>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    if (argc < 2)
        return 2;
    auto cat = std::make_shared<const cl::model::Catalog>(cl::model::Catalog::bundled().value());
    cl::doc::Document a(cat), b(cat);
    if (!a.open(QStringLiteral("llama3-16k-h100")).isEmpty() ||
        !b.open(QStringLiteral("dgx-h100-4su")).isEmpty())
        return 2;
    const QString path = QString::fromLocal8Bit(argv[1]);
    // One complete save before "ready": the test kills at any point after it, and from then on
    // the path must hold a complete design. (Killing before the first save ever finished left
    // no file at all, which is not what the test is about; it happened under ASan in CI.)
    if (!b.saveAs(path).isEmpty())
        return 1;
    std::puts("ready");
    std::fflush(stdout);
    for (unsigned long i = 0;; ++i)
        if (!(i % 2 ? a : b).saveAs(path).isEmpty())
            return 1;
}
