#include "report.h"

#include "canvas.h"
#include "charts.h"
#include "document/atomicfile.h"
#include "document/document.h"
#include "model/explain.h"
#include "model/report.h"
#include "model/units.h"

#include <QBuffer>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QTextDocument>
#include <QUrl>

#include <functional>

namespace cl::ui {

namespace {

QString esc(const std::string& s) {
    return QString::fromStdString(s).toHtmlEscaped();
}

QString tableHtml(const model::ReportTable& t, int maxRows = 400) {
    // Wide tables (one row per workload, many columns) read better turned: field | value.
    if (t.header.size() > 6 && t.rows.size() <= 8) {
        QString h = QStringLiteral("<h3>%1</h3>").arg(esc(t.title));
        for (const auto& r : t.rows) {
            h += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" "
                                "width=\"70%\">");
            for (std::size_t i = 0; i < t.header.size() && i < r.size(); ++i)
                h += QStringLiteral("<tr><td bgcolor=\"#f3f4f6\">%1</td><td>%2</td></tr>")
                         .arg(esc(t.header[i]), esc(r[i]));
            h += QStringLiteral("</table><p></p>");
        }
        return h;
    }
    QString h = QStringLiteral("<h3>%1</h3><table border=\"1\" cellspacing=\"0\" "
                               "cellpadding=\"3\" width=\"100%\"><tr>")
                    .arg(esc(t.title));
    for (const auto& c : t.header)
        h += QStringLiteral("<th bgcolor=\"#e5e7eb\">%1</th>").arg(esc(c));
    h += QStringLiteral("</tr>");
    int n = 0;
    for (const auto& r : t.rows) {
        if (++n > maxRows) {
            h += QStringLiteral("<tr><td colspan=\"%1\">… %2 more rows in the CSV export</td></tr>")
                     .arg(t.header.size())
                     .arg(static_cast<qsizetype>(t.rows.size()) - maxRows);
            break;
        }
        h += QStringLiteral("<tr>");
        for (const auto& c : r)
            h += QStringLiteral("<td>%1</td>").arg(esc(c));
        h += QStringLiteral("</tr>");
    }
    return h + QStringLiteral("</table>");
}

QImage renderCanvas(const model::Design& design, const model::Evaluation& ev,
                    std::shared_ptr<const model::Catalog> catalog) {
    doc::Document doc(std::move(catalog));
    doc.reset(design);
    CanvasScene scene(&doc);
    scene.setEvaluation(std::make_shared<const model::Evaluation>(ev));
    QRectF src = scene.designBounds().adjusted(-40, -40, 40, 40);
    if (src.isEmpty())
        src = QRectF(0, 0, 400, 300);
    QImage img(QSize(1800, static_cast<int>(1800 * src.height() / std::max(1.0, src.width()))),
               QImage::Format_ARGB32_Premultiplied);
    if (img.height() > 2400)
        img = QImage(QSize(static_cast<int>(2400 * src.width() / src.height()), 2400),
                     QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::white);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    scene.renderDesign(&p, QRectF(img.rect()), src);
    return img;
}

} // namespace

QString writeReportPdf(const QString& path, const model::Design& design,
                       const model::Evaluation& ev, std::shared_ptr<const model::Catalog> catalog) {
    const auto tables = model::report_tables(design, ev, *catalog);
    QTextDocument doc;
    doc.setDefaultStyleSheet(QStringLiteral(
        "body { font-family: sans-serif; font-size: 9pt; } h1 { font-size: 20pt; } "
        "h2 { font-size: 14pt; } h3 { font-size: 11pt; } td, th { font-size: 8pt; }"));
    // Title page.
    QString html = QStringLiteral("<h1>%1</h1><p>%2</p><p>ClusterLens report, %3.</p>")
                       .arg(esc(design.name.empty() ? "Untitled design" : design.name),
                            esc(model::units::excerpt(design.description)),
                            QDateTime::currentDateTime().toString(Qt::ISODate));
    html += QStringLiteral("<h2>Key numbers</h2><ul>");
    const auto explanations = model::explain(design, ev, *catalog);
    for (const auto& e : explanations)
        html += QStringLiteral("<li><b>%1 — %2:</b> %3</li>")
                    .arg(esc(e.subject), esc(e.title), esc(e.value));
    html += QStringLiteral("</ul>");
    // The canvas.
    doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("img:canvas")),
                    renderCanvas(design, ev, catalog));
    html += QStringLiteral("<h2 style=\"page-break-before: always\">The design</h2>"
                           "<p><img src=\"img:canvas\" width=\"520\"></p>");
    // Charts, as the GUI shows them.
    ChartPanel panel;
    panel.setEvaluation(std::make_shared<const model::Evaluation>(ev));
    auto* tabs = panel.tabs();
    html += QStringLiteral("<h2 style=\"page-break-before: always\">Charts</h2>");
    for (int i = 0; i < tabs->count(); ++i) {
        QWidget* w = tabs->widget(i);
        w->resize(1100, 620);
        w->ensurePolished();
        const QImage img = w->grab().toImage();
        const QString url = QStringLiteral("img:chart%1").arg(i);
        doc.addResource(QTextDocument::ImageResource, QUrl(url), img);
        html += QStringLiteral("<h3>%1</h3><p><img src=\"%2\" width=\"520\"></p>")
                    .arg(tabs->tabText(i).toHtmlEscaped(), url);
    }
    // Tables (assumptions and explanations included).
    html += QStringLiteral("<h2 style=\"page-break-before: always\">Tables</h2>");
    for (const auto& t : tables) {
        if (t.id == "explanations")
            continue;
        html += tableHtml(t, t.id == "tco_monthly" ? 61 : 400);
    }
    html += QStringLiteral(
        "<h2 style=\"page-break-before: always\">How the key numbers are computed</h2>");
    for (const auto& e : explanations) {
        html += QStringLiteral("<h3>%1 — %2: %3</h3><p>%4</p><ul>")
                    .arg(esc(e.subject), esc(e.title), esc(e.value), esc(e.formula));
        for (const auto& in : e.inputs)
            html += QStringLiteral("<li>%1 = %2 <i>(%3)</i></li>")
                        .arg(esc(in.name), esc(in.value), esc(in.source));
        html += QStringLiteral("</ul>");
    }
    doc.setHtml(html);

    // Rendered into memory, then written atomically (a full disk keeps the old file).
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    pdf.setTitle(QString::fromStdString(design.name));
    pdf.setCreator(QStringLiteral("ClusterLens"));
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
    pdf.setResolution(150);
    // QTextDocument::print paginates and numbers the pages.
    doc.print(&pdf);
    buffer.close();
    if (buffer.data().isEmpty())
        return QObject::tr("cannot render the report for %1").arg(path);
    return doc::writeFileAtomically(path, buffer.data());
}

QString writeReportCsv(const QString& path, const model::Design& design,
                       const model::Evaluation& ev, const model::Catalog& catalog) {
    const auto tables = model::report_tables(design, ev, catalog);
    auto write = [](const QString& file, const std::string& text) -> QString {
        return doc::writeFileAtomically(
            file, QByteArray(text.data(), static_cast<qsizetype>(text.size())));
    };
    if (path.endsWith(QLatin1Char('/')) || QFileInfo(path).isDir()) {
        QDir().mkpath(path);
        for (const auto& t : tables)
            if (QString err = write(
                    QDir(path).filePath(QString::fromStdString(t.id) + QStringLiteral(".csv")),
                    model::table_to_csv(t));
                !err.isEmpty())
                return err;
        return {};
    }
    return write(path, model::tables_to_csv(tables));
}

namespace {
/// Draws with `paint` into an SVG or a PNG (by the path's suffix) in memory, then writes the
/// file atomically.
QString writeImage(const QString& path, QSize size, const std::function<void(QPainter&)>& paint) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    if (path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        QPainter p(&svg);
        paint(p);
        p.end();
    } else {
        QImage img(size, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::white);
        QPainter p(&img);
        p.setRenderHint(QPainter::Antialiasing);
        paint(p);
        p.end();
        if (!img.save(&buffer, "PNG"))
            return QObject::tr("cannot encode %1").arg(path);
    }
    buffer.close();
    return doc::writeFileAtomically(path, buffer.data());
}
} // namespace

QString exportWidgetImage(QWidget* widget, const QString& path) {
    return writeImage(path, widget->size(), [widget](QPainter& p) { widget->render(&p); });
}

QString exportSceneImage(CanvasScene* scene, const QString& path) {
    const QRectF src = scene->designBounds().adjusted(-40, -40, 40, 40);
    const QSize size(
        1600, std::max(1, static_cast<int>(1600 * src.height() / std::max(1.0, src.width()))));
    return writeImage(path, size, [&](QPainter& p) {
        scene->renderDesign(&p, QRectF(QPointF(0, 0), QSizeF(size)), src);
    });
}

} // namespace cl::ui
