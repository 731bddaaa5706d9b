#include "report.h"

#include "canvas.h"
#include "charts.h"
#include "document/atomicfile.h"
#include "document/document.h"
#include "model/explain.h"
#include "model/glossary.h"
#include "model/report.h"
#include "model/units.h"

#include <QAbstractAxis>
#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QLabel>
#include <QLegend>
#include <QLogValueAxis>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QPixmap>
#include <QRegularExpression>
#include <QScreen>
#include <QStackedLayout>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextTable>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>

namespace cl::ui {

namespace {

/// Escaped HTML with a number and its unit glued by a no-break space (helper-16: "facility 14"
/// at a line's end and "%" alone on the next; "68.3 / %").
QString glue(QString html) {
    static const QRegularExpression unit(QStringLiteral(
        "(\\d) (%|ms|s|min|h|days|months|years|kB|MB|GB|TB|PB|GB/s|TB/s|kW|MW|W|TFLOP/s|"
        "PFLOP/s|EFLOP/s|GPUs?|nodes?)(?![\\w/])"));
    return html.replace(unit, QStringLiteral("\\1&nbsp;\\2"));
}

QString esc(const std::string& s) {
    return glue(QString::fromStdString(s).toHtmlEscaped());
}

/// A table cell: escaped, and long identifiers an engine's documentation uses
/// ("KvCacheConfig.free_gpu_memory_fraction", "recommendedMaxWorkingSetSize") given break
/// opportunities (U+200B) after "_", "." and "/" and between a lower- and an upper-case letter,
/// so a narrow column wraps them there and not mid-word (helper-3: "free_gp|u_memory").
QString cell(const std::string& s) {
    const QString in = QString::fromStdString(s);
    QString out;
    out.reserve(in.size() + 8);
    qsizetype wordStart = 0;
    for (qsizetype i = 0; i < in.size(); ++i) {
        const QChar ch = in[i];
        if (ch.isSpace())
            wordStart = i + 1;
        out += ch;
        const bool longWord = i - wordStart >= 6;
        const QChar next = i + 1 < in.size() ? in[i + 1] : QChar();
        if (!longWord || next.isNull() || next.isSpace())
            continue;
        if (ch == QLatin1Char('_') || ch == QLatin1Char('.') || ch == QLatin1Char('/') ||
            (ch.isLower() && next.isUpper()))
            if (!ch.isDigit() && !(ch == QLatin1Char('.') && next.isDigit()))
                out += QChar(0x200B);
    }
    return glue(out.toHtmlEscaped());
}

/// A table for people: its labels and human cells (ReportTable::display). A heading and its
/// table are one block: the heading sits in the table's first row, so a page break never
/// strands it (QTextDocument moves a row that does not fit to the next page).
QString tableHtml(const model::ReportTable& in, int maxRows = 400) {
    // Columns with nothing to show (the CSV's unit column of a key-value table) are left out.
    model::ReportTable t = in;
    if (t.display.empty())
        t.display = t.rows;
    if (t.labels.size() != t.header.size())
        t.labels = t.header;
    for (std::size_t c = t.labels.size(); c-- > 0;) {
        bool empty = true;
        for (const auto& r : t.display)
            empty = empty && (c >= r.size() || r[c].empty());
        if (!empty || t.display.empty())
            continue;
        t.labels.erase(t.labels.begin() + static_cast<std::ptrdiff_t>(c));
        for (auto& r : t.display)
            if (c < r.size())
                r.erase(r.begin() + static_cast<std::ptrdiff_t>(c));
    }
    const auto& rows = t.display;
    const auto& labels = t.labels;
    bool hasLabels = false;
    for (const auto& l : labels)
        hasLabels = hasLabels || !l.empty();
    const QString head = QStringLiteral("<h3>%1</h3>").arg(esc(t.title));
    // Wide tables (one row per workload, many columns) read better turned: field | value.
    if (labels.size() > 6 && rows.size() <= 8) {
        QString h;
        for (std::size_t k = 0; k < rows.size(); ++k) {
            const auto& r = rows[k];
            h += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" "
                                "width=\"75%\">");
            // The heading as the table's header row: the layout keeps a header row with the
            // first body row on its page.
            if (k == 0)
                h += QStringLiteral("<thead><tr><td colspan=\"2\" style=\"border: none\">%1</td>"
                                    "</tr></thead>")
                         .arg(head);
            for (std::size_t i = 0; i < labels.size() && i < r.size(); ++i)
                h += QStringLiteral("<tr><td bgcolor=\"#f3f4f6\" width=\"45%\">%1</td>"
                                    "<td align=\"%3\">%2</td></tr>")
                         .arg(esc(labels[i]), esc(r[i]),
                              i == 0 ? QStringLiteral("left") : QStringLiteral("right"));
            h += QStringLiteral("</table><p></p>");
        }
        return h;
    }
    const int cols = static_cast<int>(labels.size());
    QString h = QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" "
                               "width=\"100%\"><thead><tr><td colspan=\"%1\" style=\"border: "
                               "none\">%2</td></tr>")
                    .arg(cols)
                    .arg(head);
    if (hasLabels) {
        h += QStringLiteral("<tr>");
        for (const auto& c : labels)
            h += QStringLiteral("<th bgcolor=\"#e5e7eb\">%1</th>").arg(esc(c));
        h += QStringLiteral("</tr>");
    }
    h += QStringLiteral("</thead>");
    int n = 0;
    for (const auto& r : rows) {
        if (++n > maxRows) {
            h += QStringLiteral("<tr><td colspan=\"%1\">… %2 more rows in the CSV export</td></tr>")
                     .arg(cols)
                     .arg(static_cast<qsizetype>(rows.size()) - maxRows);
            break;
        }
        h += QStringLiteral("<tr>");
        for (const auto& c : r)
            h += QStringLiteral("<td>%1</td>").arg(cell(c));
        h += QStringLiteral("</tr>");
    }
    return h + QStringLiteral("</table><p></p>");
}

/// The document laid out as QTextDocument::print lays out an unpaginated document: a clone on
/// the printer, the printer's page in device pixels, and margins of 2 cm in whole pixels of the
/// source DPI (qt_defaultDpi: the primary screen's logical DPI, rounded). The margins must match
/// to the pixel: a different width wraps cells differently and moves every page break
/// (helper-22: rows split in the PDF that this layout had kept whole).
std::unique_ptr<QTextDocument> printLayout(const QTextDocument& doc, QPagedPaintDevice& printer) {
    std::unique_ptr<QTextDocument> clone(doc.clone());
    clone->documentLayout()->setPaintDevice(&printer);
    qreal dpiX = 100, dpiY = 100;
    if (const QScreen* screen = QGuiApplication::primaryScreen()) {
        dpiX = qRound(screen->logicalDotsPerInchX());
        dpiY = qRound(screen->logicalDotsPerInchY());
    }
    QTextFrameFormat fmt = clone->rootFrame()->frameFormat();
    fmt.setLeftMargin(static_cast<int>((2 / 2.54) * dpiX));
    fmt.setRightMargin(static_cast<int>((2 / 2.54) * dpiX));
    fmt.setTopMargin(static_cast<int>((2 / 2.54) * dpiY));
    fmt.setBottomMargin(static_cast<int>((2 / 2.54) * dpiY));
    clone->rootFrame()->setFrameFormat(fmt);
    clone->setPageSize(QSizeF(printer.width(), printer.height()));
    return clone;
}

/// Lays `doc` out as QTextDocument::print does (printLayout) and lets `step` make one change
/// to it from that layout (true when it moved something), again until nothing moves: each
/// change moves what follows it. At most 60 layouts.
template <class Step> void untilSettled(QTextDocument& doc, QPagedPaintDevice& printer, Step step) {
    for (int pass = 0; pass < 60; ++pass) {
        const std::unique_ptr<QTextDocument> clone = printLayout(doc, printer);
        const qreal page = clone->pageSize().height();
        if (page <= 0 || !step(clone.get(), clone->documentLayout(), page))
            return;
    }
}

/// Issue 21 (helper-16: a table's first rows at the foot of one page, the rest on the next; the
/// design's heading alone on a page): a table shorter than a page that would straddle a page
/// boundary starts on the next page instead. QTextDocument has no "keep together", so the
/// document is laid out as QTextDocument::print lays it out (a clone on the printer, its page
/// size and 2 cm margins) and each straddling table gets a page break before it; repeated,
/// since each break moves what follows.
void keepTablesWhole(QTextDocument& doc, QPagedPaintDevice& printer) {
    untilSettled(doc, printer,
                 [&doc](QTextDocument* clone, QAbstractTextDocumentLayout* layout, qreal page) {
                     const QList<QTextFrame*> mine = doc.rootFrame()->childFrames();
                     const QList<QTextFrame*> theirs = clone->rootFrame()->childFrames();
                     bool moved = false;
                     for (qsizetype i = 0; i < theirs.size() && i < mine.size(); ++i) {
                         const QRectF r = layout->frameBoundingRect(theirs[i]);
                         const int first = static_cast<int>(r.top() / page);
                         const int last = static_cast<int>((r.bottom() - 1) / page);
                         // A long table may run over pages, but not start with a row or two at a
                         // page's foot.
                         const qreal left = (first + 1) * page - r.top();
                         if (first == last || (r.height() > 0.85 * page && left > 0.25 * page))
                             continue;
                         QTextFrameFormat f = mine[i]->frameFormat();
                         if (f.pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore)
                             continue;
                         f.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
                         mine[i]->setFrameFormat(f);
                         moved = true;
                         break; // what follows moves: lay out again
                     }
                     return moved;
                 });
}

/// Session 26: a heading at a page's foot with its text on the next page moves to the next
/// page too (the explanations and the glossary used to start pages of their own, which left
/// pages holding a table's last row or two). A heading (h1-h3, or several in a row) keeps the
/// first four lines of what follows it on its page; one change per layout, as above.
void keepHeadingsWithText(QTextDocument& doc, QPagedPaintDevice& printer) {
    untilSettled(
        doc, printer,
        [&doc](QTextDocument* clone, QAbstractTextDocumentLayout* layout, qreal page) {
            bool moved = false;
            QTextBlock first; // the first of the headings in a row
            for (auto it = clone->rootFrame()->begin(); !it.atEnd() && !moved; ++it) {
                const QTextBlock b = it.currentBlock();
                if (!b.isValid()) { // a table or frame: what follows a heading is not text
                    first = QTextBlock();
                    continue;
                }
                if (b.blockFormat().headingLevel() > 0) {
                    if (!first.isValid())
                        first = b;
                    continue;
                }
                if (!first.isValid())
                    continue;
                const QRectF head = layout->blockBoundingRect(first);
                // Its first four lines of text, over the blocks after it (helper-12: a heading with
                // a one-line formula at a page's foot, the formula's inputs on the next page).
                qreal wanted = head.bottom();
                int lines = 0;
                for (QTextBlock n = b; n.isValid() && lines < 4; n = n.next()) {
                    if (n.blockFormat().headingLevel() > 0 || !n.layout() ||
                        clone->frameAt(n.position()) != clone->rootFrame())
                        break;
                    const qreal top = layout->blockBoundingRect(n).top();
                    for (int k = 0; k < n.layout()->lineCount() && lines < 4; ++k, ++lines)
                        wanted = std::max(wanted, top + n.layout()->lineAt(k).rect().bottom());
                }
                if (static_cast<int>(head.top() / page) != static_cast<int>((wanted - 1) / page)) {
                    QTextBlock mine = doc.findBlockByNumber(first.blockNumber());
                    QTextBlockFormat f = mine.blockFormat();
                    if (!(f.pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore)) {
                        f.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
                        QTextCursor(mine).setBlockFormat(f);
                        moved = true;
                    }
                }
                first = QTextBlock();
            }
            return moved;
        });
}

/// Helper-18: a table row split over two pages (a long assumption row's first lines at one
/// page's foot, the rest on the next). QTextDocument splits rows line by line and a page break
/// inside a cell moves the row a whole page, so the row is found on the laid-out clone (as
/// keepTablesWhole lays it out) and the table is split before it in the HTML: (the table's
/// index among the document's tables, the row's index counting header rows). Also a row that
/// starts a page the row before it did not (helper-6: a table QTextDocument continues on the
/// next page repeats its heading without "(continued)"): split there, the rest is a table of
/// its own whose heading says so. At most one row per table, in table order.
std::vector<std::pair<int, int>> rowsToSplitAt(QTextDocument& doc, QPagedPaintDevice& printer) {
    std::vector<std::pair<int, int>> out;
    const std::unique_ptr<QTextDocument> clone = printLayout(doc, printer);
    QAbstractTextDocumentLayout* layout = clone->documentLayout();
    const qreal page = clone->pageSize().height();
    if (page <= 0)
        return out;
    int i = -1; // the table's index among the tables
    for (QTextFrame* frame : clone->rootFrame()->childFrames()) {
        auto* t = qobject_cast<QTextTable*>(frame);
        if (!t)
            continue;
        ++i;
        int previous_page = -1;
        for (int r = std::max(1, t->format().headerRowCount()); r < t->rows(); ++r) {
            qreal top = 1e18, bottom = -1;
            for (int c = 0; c < t->columns(); ++c) {
                const QTextTableCell cell = t->cellAt(r, c);
                if (!cell.isValid() || cell.row() != r)
                    continue;
                for (auto it = cell.begin(); !it.atEnd(); ++it)
                    if (const QTextBlock b = it.currentBlock(); b.isValid()) {
                        const QRectF br = layout->blockBoundingRect(b);
                        top = std::min(top, br.top());
                        bottom = std::max(bottom, br.bottom());
                    }
            }
            if (!(bottom > top))
                continue;
            const int first_page = static_cast<int>(top / page);
            if ((bottom - top < 0.5 * page &&
                 first_page != static_cast<int>((bottom - 1) / page)) ||
                (previous_page >= 0 && first_page != previous_page)) {
                // Its first row: the whole table to the next page, not its heading and column
                // names left alone at a page's foot (helper-10: "Assumptions and sources" and
                // its header row ended page 7, the rows began page 8).
                out.emplace_back(i, previous_page < 0 ? -1 : r);
                break;
            }
            previous_page = first_page;
        }
    }
    return out;
}

/// Splits the `table`-th <table> of `html` before its `row`-th <tr>: the rest goes into a new
/// table on the next page under the same header rows, its title marked "(continued)". Tables
/// are written by tableHtml, one <thead> each, never nested.
QString splitTableAt(const QString& html, int table, int row) {
    qsizetype at = -1;
    for (int k = 0; k <= table; ++k) {
        at = html.indexOf(QStringLiteral("<table"), at + 1);
        if (at < 0)
            return html;
    }
    const qsizetype openEnd = html.indexOf(QLatin1Char('>'), at);
    const qsizetype end = html.indexOf(QStringLiteral("</table>"), at);
    const qsizetype headA = html.indexOf(QStringLiteral("<thead>"), at);
    const qsizetype headB = html.indexOf(QStringLiteral("</thead>"), at);
    if (openEnd < 0 || end < 0 || headA < 0 || headB < 0 || headB > end)
        return html;
    qsizetype tr = at;
    for (int k = 0; k <= row; ++k) {
        tr = html.indexOf(QStringLiteral("<tr>"), tr + 1);
        if (tr < 0 || tr > end)
            return html;
    }
    QString open = html.mid(at, openEnd + 1 - at);
    open.insert(6, QStringLiteral(" style=\"page-break-before: always\""));
    if (row < 0) // the whole table starts the next page
        return html.mid(at, openEnd + 1 - at).contains(QStringLiteral("page-break"))
                   ? html
                   : html.left(at) + open + html.mid(openEnd + 1);
    QString head = html.mid(headA, headB + 8 - headA);
    // Once: a table split a second time is still "(continued)", not "(continued) (continued)"
    // (helper-3, session 19).
    const QString continued = QObject::tr(" (continued)");
    if (const qsizetype h3 = head.indexOf(QStringLiteral("</h3>"));
        h3 >= 0 && !head.left(h3).endsWith(continued))
        head.insert(h3, continued);
    return html.left(tr) + QStringLiteral("</table>") + open + head + html.mid(tr);
}

/// Whether a chart tab shows a chart (its stacked page 0) rather than its "nothing to show"
/// hint (page 1).
bool hasChart(QWidget* tab) {
    if (auto* stack = qobject_cast<QStackedLayout*>(tab->layout()))
        return stack->currentIndex() == 0;
    return true;
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

/// The chart's text larger than on screen: drawn 820 px wide and printed about 5.2 inches
/// wide, a 9 px axis label printed at about 4 pt (helper-16 and session 25's reading of the
/// pages: legends and tick labels barely readable); at 1.35 times about 5.5 pt. (Legends
/// stay on the right: Qt Charts puts a bottom legend's names on one row, each cut short.)
void enlargeChartText(QWidget* page) {
    const auto larger = [](QFont f) {
        if (f.pointSizeF() > 0)
            f.setPointSizeF(f.pointSizeF() * 1.35);
        else if (f.pixelSize() > 0)
            f.setPixelSize(static_cast<int>(f.pixelSize() * 1.35 + 0.5));
        return f;
    };
    for (auto* view : page->findChildren<QChartView*>()) {
        QChart* c = view->chart();
        c->setTitleFont(larger(c->titleFont()));
        c->legend()->setFont(larger(c->legend()->font()));
        for (QAbstractAxis* a : c->axes()) {
            a->setLabelsFont(larger(a->labelsFont()));
            a->setTitleFont(larger(a->titleFont()));
            // A log axis over many decades labels every other one at the larger size (helper-11:
            // the Fabric chart's "1,000" and "10,000" ran together as "1,00010,000").
            if (auto* log = qobject_cast<QLogValueAxis*>(a);
                log && a->orientation() == Qt::Horizontal && log->min() > 0 &&
                log->max() / log->min() > 1e5 && log->base() == 10)
                log->setBase(100);
        }
    }
}

} // namespace

QString writeReportPdf(const QString& path, const model::Design& design,
                       const model::Evaluation& ev, std::shared_ptr<const model::Catalog> catalog,
                       const model::ReportTable* comparison) {
    const auto tables = model::report_tables(design, ev, *catalog);
    const auto summary = model::report_summary(design, ev, *catalog);
    QTextDocument doc;
    doc.setDefaultStyleSheet(QStringLiteral(
        "body { font-family: sans-serif; font-size: 9pt; } h1 { font-size: 20pt; } "
        "h2 { font-size: 14pt; } h3 { font-size: 11pt; } td, th { font-size: 8pt; } "
        ".ok { color: #15803d; } .bad { color: #b91c1c; } .lead { font-size: 10pt; }"));
    // Page 1: what was asked, the verdict and the headline numbers, and the design's picture.
    const QString kCanvasMark = QStringLiteral("<!--the design's picture-->");
    int canvasWidth = 0, pageWidth = 0;
    QString html = QStringLiteral("<h1>%1</h1>")
                       .arg(esc(design.name.empty() ? "Untitled design" : design.name));
    if (!design.description.empty())
        html += QStringLiteral("<p>%1</p>").arg(esc(model::units::excerpt(design.description)));
    html += QStringLiteral("<p>ClusterLens report, %1.</p><h2>Summary</h2>")
                .arg(QDate::currentDate().toString(Qt::ISODate));
    // Where a picture too tall for the foot of page 1 floats beside the summary instead.
    const QString kBesideMark = QStringLiteral("<!--beside the summary-->");
    html += kBesideMark;
    for (const auto& it : summary.workloads) {
        html += QStringLiteral("<p class=\"lead\"><b>%1.</b> %2.<br><span class=\"%3\">%4</span>"
                               "</p><ul>")
                    .arg(esc(it.heading), esc(it.asked),
                         it.ok ? QStringLiteral("ok") : QStringLiteral("bad"), esc(it.verdict));
        for (const auto& l : it.lines)
            html += QStringLiteral("<li>%1</li>").arg(esc(l));
        html += QStringLiteral("</ul>");
    }
    html += QStringLiteral("<p class=\"lead\"><b>The cluster.</b></p><ul>");
    for (const auto& l : summary.design)
        html += QStringLiteral("<li>%1</li>").arg(esc(l));
    html += QStringLiteral("</ul>");
    if (!summary.sensitivity.empty()) {
        html += QStringLiteral("<p class=\"lead\"><b>What moves the cost most</b> (each input "
                               "20 % down and up):</p><ol>");
        for (const auto& l : summary.sensitivity)
            html += QStringLiteral("<li>%1</li>").arg(esc(l));
        html += QStringLiteral("</ol>");
    }
    // Issue 21: the designs the user compared, side by side, right after the summary.
    if (comparison && !comparison->display.empty())
        html += QStringLiteral("<h2>Compared with other designs</h2>") + tableHtml(*comparison);
    // The heading drawn into the picture, so the two never part (helper-16: "The design" alone
    // on one page, the picture on the next).
    {
        const QImage canvas = renderCanvas(design, ev, catalog);
        // The picture under its heading; `px` the heading's size in the image's pixels.
        const auto titled = [&canvas](const QString& heading, int px) {
            QImage img(canvas.width(), canvas.height() + px * 2,
                       QImage::Format_ARGB32_Premultiplied);
            img.fill(Qt::white);
            QPainter p(&img);
            QFont font = p.font();
            font.setPixelSize(px);
            font.setBold(true);
            p.setFont(font);
            p.setPen(Qt::black);
            p.drawText(QRect(0, 0, img.width(), px * 2 - 10), Qt::AlignLeft | Qt::AlignVCenter,
                       heading);
            p.drawImage(0, px * 2, canvas);
            return img;
        };
        const QImage img = titled(QObject::tr("The design"), 45);
        doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("img:canvas")), img);
        // The smaller copy beside the summary (below) says where the readable one is; its
        // heading larger, as it prints at half the size.
        doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("img:canvas-beside")),
                        titled(QObject::tr("The design (full size below)"), 80));
        // 500 px wide, or narrower so that a tall drawing fits one page (helper-22: a fabric
        // from the wizard, drawn tall, was cut across two pages, its cards halved).
        canvasWidth =
            std::min(500, static_cast<int>(640.0 * img.width() / std::max(1, img.height())));
        // On a page of its own (after the summary): the text's width, or as wide as a page's
        // height allows (helper-6: the 16k design printed at 60% of the width, its card text
        // about 3 pt, above half a page left empty).
        pageWidth =
            std::min(650, static_cast<int>(930.0 * img.width() / std::max(1, img.height())));
        // Its width is chosen once the page is laid out (the picture belongs on page 1).
        html += kCanvasMark;
    }
    // Charts, as the GUI shows them; those with nothing to show are left out, Sensitivity and
    // Explain are tables below. Each heading sits with its chart in one table cell.
    ChartPanel panel;
    panel.setEvaluation(std::make_shared<const model::Evaluation>(ev));
    auto* tabs = panel.tabs();
    // A tab drawn below must not be the current one: the tab widget lays its current page out
    // at its own size, over the 820 x 480 asked for (the Memory chart printed 529 px wide, its
    // text half again as large as the other charts').
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->tabText(i).remove(QLatin1Char('&')) == QStringLiteral("Explain"))
            tabs->setCurrentIndex(i);
    // Each chart titled inside its own image, so a title never sits on one
    // page and its chart on the next.
    int shown = 0;
    QString chartWords; // the charts' titles and axis names, for the glossary
    for (int i = 0; i < tabs->count(); ++i) {
        QWidget* w = tabs->widget(i);
        const QString title = tabs->tabText(i).remove(QLatin1Char('&'));
        if (title == QStringLiteral("Sensitivity") || title == QStringLiteral("Explain") ||
            !hasChart(w))
            continue;
        // Drawn at about the printed size, so its text prints readable (helper-16: ~4 pt at
        // 1100 px shrunk to the page).
        // The caption as the report's own text under the picture, not pixels in it (helper-6:
        // the chart pages had no text to search or copy, and the captions printed at ~5 pt).
        QStringList captions;
        for (auto* caption : w->findChildren<QLabel*>())
            if ((caption->objectName() == QStringLiteral("chartCaption") ||
                 caption->objectName() == QStringLiteral("memoryCaption")) &&
                !caption->text().isEmpty()) {
                captions << (Qt::mightBeRichText(caption->text()) &&
                                     caption->textFormat() != Qt::PlainText
                                 ? QTextDocumentFragment::fromHtml(caption->text()).toPlainText()
                                 : caption->text());
                caption->hide();
            }
        w->ensurePolished();
        enlargeChartText(w);
        for (auto* view : w->findChildren<QChartView*>()) {
            chartWords += view->chart()->title() + QLatin1Char('\n');
            for (const QAbstractAxis* a : view->chart()->axes())
                chartWords += a->titleText() + QLatin1Char('\n');
        }
        w->resize(820, 480);
        // Laid out once at this size, then what the charts do after a resize (the Memory
        // chart wraps its bar names to the width each bar has, queued after the layout;
        // helper-3: "Llama 3 70B full fin…" in the PDF), then drawn.
        (void)w->grab();
        for (int pass = 0; pass < 3; ++pass) // relabel (queued), then the chart's new layout
            QCoreApplication::sendPostedEvents();
        w->resize(820, 480); // what the posted work asked for does not change the printed size
        const QImage chart = w->grab().toImage();
        QImage img(chart.width(), chart.height() + 52, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::white);
        {
            QPainter p(&img);
            QFont font = p.font();
            font.setPixelSize(26);
            font.setBold(true);
            p.setFont(font);
            p.setPen(Qt::black);
            p.drawText(QRect(0, 0, img.width(), 46), Qt::AlignLeft | Qt::AlignVCenter,
                       shown == 0 ? QObject::tr("Charts: %1").arg(title) : title);
            p.drawImage(0, 52, chart);
        }
        const QString url = QStringLiteral("img:chart%1").arg(i);
        doc.addResource(QTextDocument::ImageResource, QUrl(url), img);
        // The chart and its caption in one table cell, which the layout keeps on one page
        // (keepTablesWhole): charts follow each other as they fit, not two to a page with a
        // long caption's tail alone on the next (helper-10: the Roofline caption's last line on
        // an empty page).
        html += QStringLiteral("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"0\"%1>"
                               "<tr><td><p><img src=\"%2\" width=\"500\"></p>")
                    .arg(shown == 0 ? QStringLiteral(" style=\"page-break-before: always\"")
                                    : QString(),
                         url);
        for (const QString& c : captions)
            html +=
                QStringLiteral("<p style=\"font-size: 8pt\">%1</p>")
                    .arg(
                        glue(c.toHtmlEscaped()).replace(QLatin1Char('\n'), QStringLiteral("<br>")));
        html += QStringLiteral("</td></tr></table>");
        ++shown;
    }
    // Sensitivity of the cost verdict, as a table.
    {
        const auto& sens = summary.cost_sensitivity; // computed once, for the summary too
        if (sens.error.empty() && !sens.bars.empty()) {
            // The section's name in the table's own heading row, so it is never left alone at
            // a page's foot, and no page to itself (helper-10: two thirds of it empty).
            const model::ReportTable t = model::sensitivity_table(sens);
            html += tableHtml(t);
        }
    }
    // Tables (assumptions included; explanations below).
    html += QStringLiteral("<h2 style=\"page-break-before: always\">Tables</h2>");
    for (const auto& t : tables) {
        if (t.id == "explanations")
            continue;
        if (t.id == "error_bands") {
            // One line per number: value and band; the basis once per workload below.
            model::ReportTable b;
            b.title = t.title;
            b.labels = {"Workload", "Number", "Value", "Error band"};
            b.header = b.labels;
            std::vector<std::pair<std::string, std::string>> bases;
            for (const auto& r : t.display) {
                if (r.size() < 9)
                    continue;
                b.display.push_back({r[0], r[1], r[2], r[3] + " to " + r[4]});
                if (bases.empty() || bases.back().first != r[0])
                    bases.emplace_back(r[0], r[8]);
            }
            b.rows = b.display;
            html += tableHtml(b);
            for (const auto& [w, basis] : bases)
                html += QStringLiteral("<p><i>%1:</i> %2</p>").arg(esc(w), esc(basis));
            continue;
        }
        html += tableHtml(t, t.id == "tco_monthly" ? 61 : 400);
    }
    const auto explanations = model::explain(design, ev, *catalog);
    // After the tables on the same page where there is room (a page break before it left a
    // page with an assumption row or two on it; session 26); the heading keeps its text.
    html += QStringLiteral("<h2>How the key numbers are computed</h2>");
    for (const auto& e : explanations) {
        html += QStringLiteral("<h3>%1 — %2: %3</h3><p>%4</p><ul>")
                    .arg(esc(e.subject), esc(e.title), esc(e.value), esc(e.formula));
        for (const auto& in : e.inputs)
            html += QStringLiteral("<li>%1 = %2 <i>(%3)</i></li>")
                        .arg(esc(in.name), esc(in.value), esc(in.source));
        html += QStringLiteral("</ul>");
    }
    // The terms of the trade the report used, in words with their sources (issue 21: "busbw",
    // "HFU", "Young/Daly" stood unexplained).
    {
        const QString said = QTextDocumentFragment::fromHtml(html).toPlainText() + chartWords;
        const auto terms = model::glossary_for(said.toStdString());
        if (!terms.empty()) {
            // The page's width, most of it for the meaning (as a generic table it was 60% of
            // the page, the meanings nine lines deep).
            // The title in the header rows, as tableHtml writes it, so a table split over two
            // pages says "(continued)" on the second (helper-11).
            html += QStringLiteral(
                "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\">"
                "<thead><tr><td colspan=\"3\" "
                "style=\"border: none\"><h3>Terms used in this report</h3></td></tr>"
                "<tr><th bgcolor=\"#e5e7eb\" width=\"22%\">Term</th>"
                "<th bgcolor=\"#e5e7eb\" width=\"53%\">Meaning</th>"
                "<th bgcolor=\"#e5e7eb\" width=\"25%\">Source</th></tr></thead>");
            for (const auto& e : terms)
                html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td><i>%3</i></td></tr>")
                            .arg(esc(e.term), esc(e.meaning), esc(e.source));
            html += QStringLiteral("</table>");
        }
    }

    // Rendered into memory, then written atomically (a full disk keeps the old file).
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    pdf.setTitle(QString::fromStdString(design.name));
    pdf.setCreator(QStringLiteral("ClusterLens"));
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
    pdf.setResolution(150);
    // The design's picture on page 1 (helper-3: after a long summary it went to page 2 whole,
    // leaving half of page 1 empty): the widest width up to the picture's own at which it still
    // ends on page 1, down to 60% of it; narrower than that, it starts page 2 at full width.
    if (const qsizetype mark = html.indexOf(kCanvasMark); mark >= 0) {
        const auto tag = [](int w) {
            return QStringLiteral("<p><img src=\"img:canvas\" width=\"%1\"></p>").arg(w);
        };
        // The page's content ends at its bottom margin (print() puts the page number there);
        // print() placed a picture that ended within ~5% of it on the next page, so 8% is kept
        // free (seen on h100-ndr-2node: chosen to end at 98% of the page, printed on page 2).
        const auto endOfPage1 = [](const QTextDocument& clone) {
            const qreal page = clone.pageSize().height();
            return page - clone.rootFrame()->frameFormat().bottomMargin() - 0.08 * page;
        };
        int chosen = canvasWidth;
        bool onPage1 = false;
        for (int w = canvasWidth; w >= canvasWidth * 6 / 10; w -= 20) {
            doc.setHtml(html.left(mark) + tag(w));
            const std::unique_ptr<QTextDocument> clone = printLayout(doc, pdf);
            const QRectF last = clone->documentLayout()->blockBoundingRect(clone->lastBlock());
            if (clone->pageSize().height() > 0 && last.bottom() <= endOfPage1(*clone)) {
                chosen = w;
                onPage1 = true;
                break;
            }
        }
        // Too tall for the foot of page 1 (a SuperPOD drawn tall, a long summary; helper-6):
        // a smaller copy floats right of the summary, so page 1 still shows the design, and the
        // full-size picture, whose card text is readable, starts page 2.
        QString beside;
        if (!onPage1) {
            const auto floated = [](int w) {
                return QStringLiteral(
                           "<img src=\"img:canvas-beside\" width=\"%1\" align=\"right\">")
                    .arg(w);
            };
            const qsizetype at = html.indexOf(kBesideMark);
            for (int w = std::min(300, canvasWidth); at >= 0 && w >= 140; w -= 20) {
                QString trial = html.left(mark);
                trial.replace(at, kBesideMark.size(), floated(w));
                doc.setHtml(trial);
                const std::unique_ptr<QTextDocument> clone = printLayout(doc, pdf);
                const QRectF last = clone->documentLayout()->blockBoundingRect(clone->lastBlock());
                const auto frames = clone->rootFrame()->childFrames();
                const QRectF pic = frames.isEmpty()
                                       ? QRectF()
                                       : clone->documentLayout()->frameBoundingRect(frames.first());
                const qreal end = endOfPage1(*clone);
                if (clone->pageSize().height() > 0 && !pic.isEmpty() && last.bottom() <= end &&
                    pic.bottom() <= end) {
                    beside = floated(w);
                    break;
                }
            }
        }
        // No wider than the text (session 26: 650 px overflowed the 2 cm margins print() keeps
        // inside the page's, and the page's edge cut the workload card on the right). The
        // margins are 2 cm of the printer's, the image's width is in screen pixels.
        const qreal dpi = QGuiApplication::primaryScreen()
                              ? qRound(QGuiApplication::primaryScreen()->logicalDotsPerInchX())
                              : 96.0;
        const int textWidth = static_cast<int>(
            (pdf.pageLayout().paintRect(QPageLayout::Millimeter).width() - 40.0) / 25.4 * dpi);
        pageWidth = std::min(pageWidth, textWidth - 4);
        chosen = std::min(chosen, textWidth - 4);
        html.replace(mark, kCanvasMark.size(),
                     onPage1 ? tag(chosen)
                             : QStringLiteral("<p style=\"page-break-before: always\">"
                                              "<img src=\"img:canvas\" width=\"%1\"></p>")
                                   .arg(std::max(pageWidth, chosen)));
        if (const qsizetype at = html.indexOf(kBesideMark); at >= 0)
            html.replace(at, kBesideMark.size(), beside);
    }
    // Tables kept whole where they fit a page, and no row split over two pages.
    for (int pass = 0;; ++pass) {
        doc.setHtml(html);
        keepTablesWhole(doc, pdf);
        keepHeadingsWithText(doc, pdf);
        const auto splits =
            pass < 80 ? rowsToSplitAt(doc, pdf) : std::vector<std::pair<int, int>>{};
        if (splits.empty())
            break;
        // The first table only, then lay out again (session 26): a split moves everything after
        // it, so a later table's split found on this layout may fall mid-page on the next,
        // leaving a "(continued)" page with three rows on it (h100-ndr-2node's glossary).
        const QString before = html;
        html = splitTableAt(html, splits.front().first, splits.front().second);
        if (html == before)
            break;
    }
    // QTextDocument::print paginates and numbers the pages.
    doc.print(&pdf);
    buffer.close();
    if (buffer.data().isEmpty())
        return QObject::tr("cannot render the report for %1").arg(path);
    return doc::writeFileAtomically(path, buffer.data());
}

QString writeReportCsv(const QString& path, const model::Design& design,
                       const model::Evaluation& ev, const model::Catalog& catalog) {
    const auto tables = model::report_tables(design, ev, catalog, /*with_sensitivity=*/true);
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
