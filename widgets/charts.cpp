#include "charts.h"
#include "chartpage.h"
#include "explainpanel.h"
#include "textwrap.h"

#include "model/report.h"
#include "model/units.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QGraphicsLayout>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QScrollArea>
#include <QScrollBar>
#include <QStackedBarSeries>
#include <QStackedLayout>
#include <QTabWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace cl::ui {

namespace {
/// A memory explanation without its own leading verdict, for a line that already says "does
/// not fit in memory: " (helper-14, helper-27: the verdict said twice).
QString memoryReason(const std::string& explanation) {
    QString why = QString::fromStdString(explanation);
    if (why.startsWith(QStringLiteral("does not fit: ")))
        why.remove(0, 14);
    return why;
}
constexpr double kGB = 1e9;
struct Category {
    const char* name;
    QColor color;
    double model::MemoryBreakdown::*field;
};
const Category kCategories[] = {
    {"Weights", QColor(0x3b, 0x82, 0xf6), &model::MemoryBreakdown::weights},
    {"Gradients", QColor(0x8b, 0x5c, 0xf6), &model::MemoryBreakdown::gradients},
    {"Optimizer", QColor(0xec, 0x48, 0x99), &model::MemoryBreakdown::optimizer},
    {"Activations", QColor(0xf5, 0x9e, 0x0b), &model::MemoryBreakdown::activations},
    {"KV cache", QColor(0x14, 0xb8, 0xa6), &model::MemoryBreakdown::kv_cache},
    {"Other", QColor(0x9c, 0xa3, 0xaf), &model::MemoryBreakdown::other},
};
} // namespace

/// The common frame of a chart tab: chart view over a caption, or a centred hint when empty.
/// Fills the four members and installs a stacked layout on `owner` (page 0 chart, 1 hint).
namespace {

/// A chart's caption in a box that scrolls when the page cannot spare its whole height:
/// as tall as the words at the box's width, at most the page's height less what the charts need
/// (issue 21: at least 300 px of plot at 1280 x 800 however long the caption grows -- with
/// quotas, MIG, time-slicing and failures the Fleet caption ran to nine lines and the plot to
/// 285 px; in the default short dock every other caption's last line was cut by the dock's
/// edge, helper-16).
class CaptionBox : public QScrollArea {
public:
    CaptionBox(QLabel* caption, QWidget* page, int keep)
        : caption_(caption), page_(page), keep_(keep) {
        setWidget(caption);
        setWidgetResizable(true);
        setFrameShape(QFrame::NoFrame);
        setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
        // The wheel scrolls it under the pointer; a click gives it the keys (arrows, Page Up
        // and Down; helper-15 found those going to the canvas).
        setFocusPolicy(Qt::WheelFocus);
        page->installEventFilter(this);
        caption->installEventFilter(this); // hidden (by a report): the box goes too
        // New words ask their parent, the viewport, for a new layout: the box refits.
        viewport()->installEventFilter(this);
    }
    [[nodiscard]] QSize sizeHint() const override {
        const int w = std::max(100, viewport()->width());
        // A report hides the caption (it prints the words as text): no room for it then.
        return {w, caption_->isHidden() ? 0 : caption_->heightForWidth(w) + 2};
    }
    [[nodiscard]] QSize minimumSizeHint() const override {
        return {100, std::min(sizeHint().height(), 3 * caption_->fontMetrics().lineSpacing() + 2)};
    }

protected:
    bool eventFilter(QObject* o, QEvent* e) override {
        if (o == caption_ && e->type() == QEvent::HideToParent)
            hide();
        else if (o == caption_ && e->type() == QEvent::ShowToParent)
            show();
        else if (o == page_ && e->type() == QEvent::Resize)
            fit(page_->height());
        else if (o == viewport() && e->type() == QEvent::LayoutRequest) {
            // New words start at their first line (helper-17: after another design was
            // opened the box kept the old scroll position and began mid-line).
            verticalScrollBar()->setValue(0);
            fit(page_->height());
        }
        return QScrollArea::eventFilter(o, e);
    }
    void resizeEvent(QResizeEvent* e) override {
        QScrollArea::resizeEvent(e);
        if (e->size().width() != e->oldSize().width())
            fit(page_->height()); // the words' height follows the width
    }

public:
    /// As tall as the words, at least three lines (or the whole text when shorter) on any page
    /// -- a short dock shows the words' start rather than none, the chart gives way -- and at
    /// most the page less `keep_`: a fixed height, so the layout does not trade it away.
    void fit(int page) {
        const int least = minimumSizeHint().height();
        int h = std::min(sizeHint().height(), std::max(least, page - keep_));
        // Scrolling: whole lines in view, and the wheel moves by lines (helper-17: a line cut
        // in half at the box's foot once scrolled back to the top).
        const int line = caption_->fontMetrics().lineSpacing();
        verticalScrollBar()->setSingleStep(line);
        if (h < sizeHint().height())
            h = std::max(least, (h - 2) / line * line + 2);
        if (h != height() || minimumHeight() != h)
            setFixedHeight(h);
    }

private:
    QLabel* caption_;
    QWidget* page_;
    int keep_;
};

} // namespace

void buildChartPage(QWidget* owner, const QString& title, const QString& hint, QChart*& chart,
                    QChartView*& view, QLabel*& empty, QLabel*& caption) {
    chart = new QChart;
    if (!title.isEmpty())
        chart->setTitle(title);
    // Axis labels with thousands separators, as every other number on screen ("150,000", not
    // "150000"; issue 21): Qt Charts formats labels through the chart's locale when numbers
    // are localized. English, as the rest of the GUI's numbers (units::format_count).
    chart->setLocalizeNumbers(true);
    chart->setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
    chart->legend()->setAlignment(Qt::AlignRight);
    // Follow the system palette (light or dark).
    if (owner->palette().window().color().lightness() < 128)
        chart->setTheme(QChart::ChartThemeDark);
    // The dock is short: give the plot the room, not the frame.
    chart->setMargins(QMargins(4, 2, 4, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    empty = new QLabel(hint);
    empty->setAlignment(Qt::AlignCenter);
    // Wrapped, and no wider than the dock gives it (helper-22: a long "No cost: ..." line made
    // the dock's minimum width the line's, which widened the window past the screen and pushed
    // the charts under the inspector). Reasons quote names from files: plain text.
    empty->setWordWrap(true);
    empty->setTextFormat(Qt::PlainText);
    empty->setMargin(12);
    empty->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    caption = new QLabel;
    caption->setObjectName(QStringLiteral("chartCaption")); // the report enlarges it
    caption->setWordWrap(true);
    QFont small = caption->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    caption->setFont(small);
    auto* page = new QWidget;
    auto* v = new QVBoxLayout(page);
    v->setContentsMargins(0, 0, 0, 0);
    v->addWidget(view, 1);
    // 300 px of plot needs about 380 px of chart view (title and axis labels around it).
    v->addWidget(new CaptionBox(caption, page, 380));
    auto* stack = new QStackedLayout(owner);
    stack->addWidget(page);
    stack->addWidget(empty);
    stack->setCurrentWidget(empty);
}

QAreaSeries* addBandArea(QChart* chart, const QList<QPointF>& upper, const QList<QPointF>& lower,
                         const QString& name, const QColor& colour, int alpha) {
    auto* band = new QAreaSeries;
    auto* up = new QLineSeries(band);
    auto* low = new QLineSeries(band);
    up->replace(upper);
    low->replace(lower);
    band->setUpperSeries(up);
    band->setLowerSeries(low);
    band->setName(name);
    QColor fill = colour;
    fill.setAlpha(alpha);
    band->setBrush(fill);
    band->setPen(Qt::NoPen);
    chart->addSeries(band);
    return band;
}

void niceAxis(QValueAxis* axis, double lo, double hi, int max_ticks, double min_step) {
    if (min_step > 0 && std::isfinite(lo) && !(hi > lo))
        hi = lo + min_step; // a flat series still gets an axis of one step
    if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) {
        axis->setRange(lo, hi);
        return;
    }
    const double raw = (hi - lo) / std::max(1, max_ticks);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * mag;
    for (const double m : {1.0, 2.0, 5.0})
        if (m * mag >= raw) {
            step = m * mag;
            break;
        }
    step = std::max(step, min_step);
    axis->setRange(std::floor(lo / step + 1e-9) * step, std::ceil(hi / step - 1e-9) * step);
    axis->setTickType(QValueAxis::TicksDynamic);
    // Qt steps from the axis' minimum by adding the interval, so the tick at 0 can land at
    // -1e-17 and print "-0.0" (helper-9, the sensitivity axis); an anchor a millionth of a step
    // above 0 keeps it positive, far below the decimals shown.
    axis->setTickAnchor(step * 1e-6);
    axis->setTickInterval(step);
    const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
}

void clearChart(QChart* c) {
    c->removeAllSeries();
    for (auto* a : c->axes()) {
        c->removeAxis(a); // the chart gives up ownership: delete it
        delete a;
    }
}

ChartPage::ChartPage(const QString& title, const QString& hint, QWidget* parent) : QWidget(parent) {
    buildChartPage(this, title, hint, chart_, view_, empty_, caption_);
}

QString trainingHint(const model::Evaluation& ev, const QString& fallback) {
    for (const auto& w : ev.workloads) {
        if (w.kind != model::WorkloadKind::training)
            continue;
        const QString name = QString::fromStdString(w.name.empty() ? w.id : w.name);
        if (!w.error.empty())
            return QObject::tr("%1 cannot be computed: %2")
                .arg(name, QString::fromStdString(model::errors_for_people(w.error)));
        if (w.has_memory && !w.memory.fits) {
            // The explanation may start with its own verdict (helper-14: "does not fit in
            // memory: does not fit: model states ...").
            const QString why = memoryReason(w.memory.explanation);
            return QObject::tr("%1 does not fit in memory: %2").arg(name, why);
        }
    }
    return fallback;
}

void ChartPage::showChart(bool on) {
    static_cast<QStackedLayout*>(layout())->setCurrentIndex(on ? 0 : 1);
}

MemoryChart::MemoryChart(QWidget* parent) : QWidget(parent) {
    // The frame every chart tab has: the view over its caption, or the hint when empty.
    buildChartPage(this, tr("Memory per GPU (worst pipeline stage)"),
                   tr("Add a training workload to a cluster to see its memory budget."), chart_,
                   view_, empty_, caption_);
    caption_->setObjectName(QStringLiteral("memoryCaption"));
    caption_->setTextFormat(Qt::PlainText); // workload names come from files
    series_ = new QStackedBarSeries;
    for (const auto& c : kCategories) {
        auto* set = new QBarSet(tr(c.name), this);
        set->setColor(c.color);
        set->setBorderColor(c.color.darker(115));
        parts_.push_back(set);
        series_->append(set);
    }
    series_->setBarWidth(0.45);
    chart_->addSeries(series_);
    capacityLine_ = new QLineSeries;
    capacityLine_->setName(tr("Capacity"));
    QPen pen(QColor(0xdc, 0x26, 0x26));
    pen.setWidth(2);
    pen.setStyle(Qt::DashLine);
    capacityLine_->setPen(pen);
    chart_->addSeries(capacityLine_);
    xAxis_ = new QBarCategoryAxis;
    yAxis_ = new QValueAxis;
    yAxis_->setTitleText(tr("GB per GPU"));
    yAxis_->setLabelFormat(QStringLiteral("%.0f"));
    chart_->addAxis(xAxis_, Qt::AlignBottom);
    chart_->addAxis(yAxis_, Qt::AlignLeft);
    series_->attachAxis(xAxis_);
    series_->attachAxis(yAxis_);
    capacityLine_->attachAxis(yAxis_);
    // The capacity line uses its own hidden x axis spanning the bar slots.
    auto* lineX = new QValueAxis;
    lineX->setRange(-0.5, 0.5);
    lineX->setVisible(false);
    chart_->addAxis(lineX, Qt::AlignTop);
    capacityLine_->attachAxis(lineX);
    // The names wrap to the plot's width once the chart has laid out at a new size (a resize
    // of this widget comes before the chart's own layout, so its plot area was still the old
    // one: "Llama 3 70B pre-tr..." in a 520 px dock and in the PDF).
    connect(chart_, &QChart::plotAreaChanged, this, &MemoryChart::relabel, Qt::QueuedConnection);
}

QString MemoryChart::caption() const {
    return caption_->text();
}

void MemoryChart::setEvaluation(const model::Evaluation& ev) {
    QStringList names;
    std::vector<const model::WorkloadEvaluation*> shown;
    for (const auto& w : ev.workloads)
        if (w.has_memory) {
            shown.push_back(&w);
            names << QString::fromStdString(w.name);
        }
    // Workloads on the same GPUs: a bar of what they need together (helper-22: each bar said
    // "fits" although together they did not).
    std::vector<const model::SharedGpus*> shared;
    for (const auto& sg : ev.findings.shared)
        shared.push_back(&sg);
    bars_ = static_cast<int>(shown.size() + shared.size());
    auto* stack = static_cast<QStackedLayout*>(layout());
    stack->setCurrentIndex(shown.empty() ? 1 : 0);
    if (shown.empty()) {
        // A workload that cannot be computed says why (helper-12: micro-batch 3 on a global
        // batch it does not divide showed "Add a training workload ..." beside the workload).
        QString hint = tr("Add a training workload to a cluster to see its memory budget.");
        for (const auto& w : ev.workloads)
            if (!w.error.empty()) {
                hint = tr("%1 has no memory budget: %2")
                           .arg(QString::fromStdString(w.name),
                                QString::fromStdString(model::errors_for_people(w.error)));
                break;
            }
        empty_->setText(hint);
        empty_->setWordWrap(true);
        return; // an empty range would make the axis NaN
    }
    // The caption: "Llama 3 70B pre-training: 63.8 GB of 80.0 GB per GPU, 16.2 GB free."
    const auto gb = [](double bytes) { return QString::number(bytes / kGB, 'f', 1); };
    QStringList lines;
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const auto& w = *shown[i];
        const double used = w.memory.per_gpu.total();
        QString card = tr("%1 GB").arg(gb(w.memory.capacity_bytes));
        // Serving engines may fill only part of the card (vLLM's gpu_memory_utilization...).
        if (w.inference_memory && w.inference_memory->capacity_bytes > 0 &&
            w.inference_memory->usable_bytes < w.inference_memory->capacity_bytes * 0.999)
            card = tr("%1 GB the engine may fill (of a %2 GB card)")
                       .arg(gb(w.inference_memory->usable_bytes),
                            gb(w.inference_memory->capacity_bytes));
        // The card as CUDA reports it, beside its label (an H200: 150.1 GB = 139.8 GiB, "141 GB").
        if (w.memory.label_bytes > 0) {
            const double card_bytes = w.inference_memory && w.inference_memory->capacity_bytes > 0
                                          ? w.inference_memory->capacity_bytes
                                          : w.memory.capacity_bytes;
            card += tr(" (%1 GiB as the driver reports it; %2 GB on the label)")
                        .arg(QString::number(card_bytes / 1073741824.0, 'f', 1),
                             QString::number(w.memory.label_bytes / kGB, 'f', 0));
        }
        QString line =
            tr("%1: %2 GB of %3 per GPU").arg(names[static_cast<int>(i)], gb(used), card);
        line += w.memory.fits
                    ? tr(", %1 GB free.").arg(gb(std::max(0.0, w.memory.headroom_bytes)))
                    : tr(" — does not fit, %1 GB over.").arg(gb(-w.memory.headroom_bytes));
        if (w.kind == model::WorkloadKind::training && w.memory.worst_stage > 0)
            line += tr(" Pipeline stage %1 is the fullest.").arg(w.memory.worst_stage + 1);
        lines << line;
    }
    // The bars' names, plain; relabel() wraps them to the width each bar has.
    plainLabels_.clear();
    labelFits_.clear();
    for (std::size_t i = 0; i < shown.size(); ++i) {
        plainLabels_ << names[static_cast<int>(i)];
        labelFits_ << shown[i]->memory.fits;
    }
    for (const auto* sg : shared) {
        lines << QString::fromStdString(sg->text);
        const QString where = QString::fromStdString(sg->where);
        QString name = tr("Together on %1").arg(where);
        // Three services on one server make three pairs: each bar needs its own category.
        for (int k = 2; plainLabels_.contains(name); ++k)
            name = tr("Together on %1 (%2)").arg(where).arg(k);
        plainLabels_ << name;
        labelFits_ << sg->fits;
    }
    caption_->setText(lines.join(QLatin1Char('\n')));
    double top = 0;
    QList<QBarSet*> present;
    capacity_ = 0;
    for (std::size_t k = 0; k < std::size(kCategories); ++k) {
        QList<qreal> values;
        for (const auto* w : shown)
            values << w->memory.per_gpu.*kCategories[k].field / kGB;
        for (const auto* sg : shared)
            values << sg->together.*kCategories[k].field / kGB;
        auto* set = parts_[k];
        // The legend names the parts some bar has (helper-6: an inference-only design listed
        // Gradients and Optimizer at 0 B; a training one KV cache).
        if (std::any_of(values.begin(), values.end(), [](qreal v) { return v > 0; }))
            present << set;
        if (set->count() == values.size()) {
            for (int i = 0; i < values.size(); ++i)
                set->replace(i, values[i]);
        } else {
            set->remove(0, set->count());
            set->append(values);
        }
    }
    if (present != series_->barSets()) {
        for (QBarSet* set : series_->barSets())
            if (series_->take(set))
                set->setParent(this); // kept for when the part comes back
        for (QBarSet* set : present) {
            series_->append(set);
            const auto k = static_cast<std::size_t>(std::find(parts_.begin(), parts_.end(), set) -
                                                    parts_.begin());
            set->setColor(kCategories[k].color); // as created, whatever the theme does
            set->setBorderColor(kCategories[k].color.darker(115));
        }
    }
    for (const auto* w : shown) {
        top = std::max({top, w->memory.per_gpu.total(), w->memory.capacity_bytes});
        capacity_ = std::max(capacity_, w->memory.capacity_bytes);
    }
    for (const auto* sg : shared)
        top = std::max(top, sg->together.total());
    relabel();
    yAxis_->setRange(0, top / kGB * 1.1);
    yAxis_->applyNiceNumbers();
    // Capacity line across all bar slots (category i spans [i-0.5, i+0.5]).
    const double n = static_cast<double>(std::max<qsizetype>(1, plainLabels_.size()));
    for (auto* a : capacityLine_->attachedAxes())
        if (a->alignment() == Qt::AlignTop)
            static_cast<QValueAxis*>(a)->setRange(-0.5, n - 0.5);
    capacityLine_->replace(QList<QPointF>{{-0.5, capacity_ / kGB}, {n - 0.5, capacity_ / kGB}});
}

/// The axis draws its labels as rich text: names from files are escaped, and "(does not fit)"
/// goes on a line of its own; names wrap at spaces to the width each bar has, again when the
/// chart is resized (helper-24: "Llama 3 70B serving (..." and "Together on HGX H200..." were
/// cut even with Large Charts).
void MemoryChart::relabel() {
    const int bars = static_cast<int>(plainLabels_.size());
    if (bars == 0)
        return;
    const qreal plot =
        chart_->plotArea().width() > 0 ? chart_->plotArea().width() : view_->width() * 0.7;
    // Qt Charts elides each label of a horizontal axis to the axis width divided by its tick
    // count, less twice the label padding of 5 px (qtcharts horizontalaxis.cpp updateGeometry:
    // "axisRect.width() / layout.count() - 2 * labelPadding()"), and a bar-category axis has
    // two ticks more than bars (chartbarcategoryaxisx.cpp calculateLayout: count + 2). One bar
    // gets a third of the plot, not the 60% assumed before ("Llama 3 70B pre-tr..." in the PDF
    // and a 520 px dock); the rich-text label adds its document margin (4 px a side).
    const int perBar = std::max(40, static_cast<int>(plot / (bars + 2)) - 2 * 5 - 2 * 4 - 2);
    const QFontMetrics fm(xAxis_->labelsFont());
    QStringList labels;
    for (int i = 0; i < bars; ++i) {
        QStringList out = wrapWords(plainLabels_[i], fm, perBar);
        for (QString& line : out)
            line = line.toHtmlEscaped();
        labels << out.join(QStringLiteral("<br>")) +
                      (labelFits_[i] ? QString() : tr("<br>(does not fit)"));
    }
    if (labels != xAxis_->categories())
        xAxis_->setCategories(labels);
}

void MemoryChart::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    // After the chart has laid out at the new size: its plot area is what a bar gets.
    QMetaObject::invokeMethod(this, &MemoryChart::relabel, Qt::QueuedConnection);
}

double MemoryChart::shownTotal(int i) const {
    double sum = 0;
    for (auto* set : series_->barSets())
        if (i < set->count())
            sum += set->at(i);
    return sum * kGB;
}

RooflineChart::RooflineChart(QWidget* parent)
    : ChartPage(QString(), tr("Add a workload to see where its operators sit on the roofline."),
                parent) {}

int RooflineChart::pointCount() const {
    int n = 0;
    for (auto* s : chart_->series())
        if (auto* sc = qobject_cast<QScatterSeries*>(s))
            n += static_cast<int>(sc->count());
    return n;
}

void RooflineChart::setEvaluation(const model::Evaluation& ev, const std::string& focus) {
    const model::WorkloadEvaluation* w =
        pickWorkload(ev, focus, [](const auto& x) { return x.roofline.has_value(); });
    if (!w) {
        showChart(false);
        return;
    }
    showChart(true);
    const model::Roofline& r = *w->roofline;
    // The set of series changes with the GPU (dtype ceilings), so rebuild; it is small.
    clearChart(chart_);
    double xmin = 1e9, xmax = 0, ymin = 1e30;
    for (const auto& op : r.operators) {
        xmin = std::min(xmin, std::max(op.intensity, 1e-2));
        xmax = std::max(xmax, op.intensity);
        ymin = std::min(ymin, std::max(op.attainable_flops, 1e9));
    }
    double top_peak = r.peak_flops;
    for (const auto& c : r.ceilings)
        top_peak = std::max(top_peak, c.flops);
    xmin = std::pow(10.0, std::floor(std::log10(std::min(xmin, 0.5))));
    xmax = std::pow(
        10.0, std::ceil(std::log10(std::max({xmax, 10 * top_peak / r.memory_bandwidth_Bps}))));
    auto* ax = new QLogValueAxis;
    ax->setTitleText(tr("Arithmetic intensity (FLOP/byte)"));
    ax->setLabelFormat(QStringLiteral("%.6g"));
    ax->setRange(xmin, xmax);
    auto* ay = new QLogValueAxis;
    ay->setTitleText(tr("TFLOP/s"));
    ay->setLabelFormat(QStringLiteral("%.6g"));
    const double yminT = std::pow(
        10.0, std::floor(std::log10(std::min(ymin, xmin * r.memory_bandwidth_Bps) / 1e12)));
    ay->setRange(std::max(1e-3, yminT),
                 std::pow(10.0, std::ceil(std::log10(top_peak / 1e12 * 1.5))));
    chart_->addAxis(ax, Qt::AlignBottom);
    chart_->addAxis(ay, Qt::AlignLeft);
    // HBM slope up to the highest peak, then each dtype's flat roof from its ridge point.
    auto* hbm = new QLineSeries;
    // Named by the memory's kind (core's bandwidth ceiling): GDDR7 or LPDDR5X are not HBM.
    QString memory_name = tr("memory");
    for (const auto& c : r.ceilings)
        if (c.Bps > 0)
            memory_name = QString::fromStdString(c.name);
    hbm->setName(tr("%1 %2 TB/s").arg(memory_name).arg(r.memory_bandwidth_Bps / 1e12, 0, 'f', 2));
    hbm->append(xmin, xmin * r.memory_bandwidth_Bps / 1e12);
    hbm->append(top_peak / r.memory_bandwidth_Bps, top_peak / 1e12);
    QPen hp(QColor(0x0e, 0xa5, 0xe9));
    hp.setWidth(2);
    hbm->setPen(hp);
    chart_->addSeries(hbm);
    hbm->attachAxis(ax);
    hbm->attachAxis(ay);
    static const QColor dtypeColors[] = {QColor(0x64, 0x74, 0x8b), QColor(0x8b, 0x5c, 0xf6),
                                         QColor(0x16, 0xa3, 0x4a), QColor(0xf5, 0x9e, 0x0b),
                                         QColor(0xec, 0x48, 0x99), QColor(0x0f, 0x76, 0x6e)};
    int colorIndex = 0;
    for (const auto& c : r.ceilings) {
        if (c.flops <= 0 || c.name.rfind("fp64", 0) == 0 || c.name.rfind("int8", 0) == 0)
            continue;
        if (c.name.rfind("fp16", 0) == 0 &&
            std::any_of(r.ceilings.begin(), r.ceilings.end(), [&](const model::Ceiling& o) {
                return o.name.rfind("bf16", 0) == 0 && o.flops == c.flops;
            }))
            continue; // same roof as bf16 (all catalog GPUs but Gaudi 3)
        auto* line = new QLineSeries;
        line->setName(
            QString::fromStdString(c.name).toUpper().replace(QStringLiteral(" PEAK"), tr(" peak")) +
            QStringLiteral(" %1 TFLOP/s")
                .arg(QString::fromStdString(model::units::format_count(c.flops / 1e12))));
        line->append(c.flops / r.memory_bandwidth_Bps, c.flops / 1e12);
        line->append(xmax, c.flops / 1e12);
        QPen p(dtypeColors[colorIndex++ % 6]);
        p.setWidth(c.flops == r.peak_flops ? 3 : 1);
        p.setStyle(c.flops == r.peak_flops ? Qt::SolidLine : Qt::DashLine);
        line->setPen(p);
        chart_->addSeries(line);
        line->attachAxis(ax);
        line->attachAxis(ay);
    }
    auto* pts = new QScatterSeries;
    pts->setName(tr("operators"));
    pts->setMarkerSize(10);
    pts->setColor(QColor(0xdc, 0x26, 0x26));
    pts->setPointLabelsVisible(true);
    pts->setPointLabelsFormat(QStringLiteral("@pointLabel"));
    QList<QPointF> points;
    for (const auto& op : r.operators)
        points << QPointF(std::max(op.intensity, xmin), std::max(op.attainable_flops / 1e12, 1e-3));
    pts->replace(points);
    // Point labels: Qt 6.4 has no per-point label API, so name them in the tooltip and caption.
    chart_->addSeries(pts);
    pts->attachAxis(ax);
    pts->attachAxis(ay);
    pts->setPointLabelsVisible(false);
    connect(pts, &QScatterSeries::hovered, this, [this, r](const QPointF& p, bool state) {
        if (!state)
            return;
        for (const auto& op : r.operators)
            if (std::abs(std::log10(std::max(op.intensity, 1e-2)) - std::log10(p.x())) < 0.02)
                QToolTip::showText(QCursor::pos(),
                                   tr("%1: %2 FLOP/byte, %3 TFLOP/s (%4-bound)")
                                       .arg(QString::fromStdString(op.label))
                                       .arg(op.intensity, 0, 'f', 1)
                                       .arg(op.attainable_flops / 1e12, 0, 'f', 1)
                                       .arg(op.compute_bound ? tr("compute") : tr("memory")));
    });
    const bool decode = w->kind == model::WorkloadKind::inference;
    chart_->setTitle(tr("Roofline: %1 on %2 (%3)")
                         .arg(QString::fromStdString(r.model_name),
                              QString::fromStdString(r.gpu_name),
                              decode ? tr("decode") : tr("prefill / training forward")));
    QStringList parts;
    for (const auto& op : r.operators)
        parts << QStringLiteral("%1 %2 (%3)")
                     .arg(QString::fromStdString(op.label),
                          QString::fromStdString(model::units::format_count(op.intensity)),
                          op.compute_bound ? tr("compute") : tr("memory"));
    caption_->setText(tr("FLOP/byte per operator: ") + parts.join(QStringLiteral(" · ")) +
                      tr(".  Ridge %1 FLOP/byte.")
                          .arg(QString::fromStdString(model::units::format_count(r.ridge))));
}

FabricChart::FabricChart(QWidget* parent)
    : ChartPage(tr("Allreduce bus bandwidth by message size and fabric tier"),
                tr("Add at least two GPUs to see how fast their collectives run."), parent) {}

void FabricChart::setEvaluation(const model::Evaluation& ev) {
    curves_ = static_cast<int>(ev.allreduce_curves.size());
    if (ev.allreduce_curves.empty()) {
        showChart(false);
        return;
    }
    showChart(true);
    clearChart(chart_);
    auto* ax = new QLogValueAxis;
    // In MB so the log axis reads 0.001 ... 10000, not in scientific notation.
    ax->setTitleText(tr("Message size (MB, nccl-tests size)"));
    ax->setLabelFormat(QStringLiteral("%.6g"));
    ax->setBase(10);
    ax->setRange(1e-3, 2e4);
    auto* ay = new QValueAxis;
    // Short enough to stand whole beside the default dock's ~130 px plot (helper-17: "Bus
    // bandwidth (G…"); the caption says it is nccl-tests' bus bandwidth.
    ay->setTitleText(tr("Bus GB/s"));
    chart_->addAxis(ax, Qt::AlignBottom);
    chart_->addAxis(ay, Qt::AlignLeft);
    double top = 0;
    static const QColor colors[] = {QColor(0x16, 0xa3, 0x4a), QColor(0x3b, 0x82, 0xf6),
                                    QColor(0xf5, 0x9e, 0x0b), QColor(0xdc, 0x26, 0x26)};
    int i = 0;
    bool banded = false;
    measured_ = false;
    engine_ = false;
    for (const auto& c : ev.allreduce_curves) {
        auto* s = new QLineSeries;
        s->setName(QString::fromStdString(c.name));
        QList<QPointF> pts;
        for (std::size_t k = 0; k < c.bytes.size(); ++k) {
            pts << QPointF(c.bytes[k] / 1e6, c.busbw_Bps[k] / 1e9);
            top = std::max(top, c.busbw_Bps[k] / 1e9);
        }
        s->replace(pts);
        // Session 44: a serving engine's own all-reduce, as measured: its points joined and
        // marked, dotted (a measurement, not the model).
        if (c.engine_measured) {
            QPen p(QColor(0x7c, 0x3a, 0xed));
            p.setWidth(2);
            p.setStyle(Qt::DotLine);
            s->setPen(p);
            s->setPointsVisible(true);
            chart_->addSeries(s);
            s->attachAxis(ax);
            s->attachAxis(ay);
            engine_ = true;
            continue;
        }
        const QColor colour = colors[i++ % 4];
        // Issue 19: the model's error band around the curve, shaded (computed in core).
        if (c.busbw_high_Bps.size() == c.bytes.size() && !c.bytes.empty()) {
            QList<QPointF> upper, lower;
            for (std::size_t k = 0; k < c.bytes.size(); ++k) {
                upper << QPointF(c.bytes[k] / 1e6, c.busbw_high_Bps[k] / 1e9);
                lower << QPointF(c.bytes[k] / 1e6, c.busbw_low_Bps[k] / 1e9);
                top = std::max(top, c.busbw_high_Bps[k] / 1e9);
            }
            auto* band = addBandArea(
                chart_, upper, lower,
                tr("%1: model's error band").arg(QString::fromStdString(c.name)), colour, 40);
            band->attachAxis(ax);
            band->attachAxis(ay);
            banded = true;
        }
        QPen p(colour);
        p.setWidth(2);
        s->setPen(p);
        chart_->addSeries(s);
        s->attachAxis(ax);
        s->attachAxis(ay);
        // Issue 22: before calibration (dashed) and the measured points, in the curve's colour.
        if (!c.measured_bytes.empty()) {
            if (c.uncalibrated_busbw_Bps.size() == c.bytes.size()) {
                auto* before = new QLineSeries;
                before->setName(tr("%1, before calibration").arg(QString::fromStdString(c.name)));
                QList<QPointF> bp;
                for (std::size_t k = 0; k < c.bytes.size(); ++k) {
                    bp << QPointF(c.bytes[k] / 1e6, c.uncalibrated_busbw_Bps[k] / 1e9);
                    top = std::max(top, c.uncalibrated_busbw_Bps[k] / 1e9);
                }
                before->replace(bp);
                QPen dp(colour);
                dp.setWidth(1);
                dp.setStyle(Qt::DashLine);
                before->setPen(dp);
                chart_->addSeries(before);
                before->attachAxis(ax);
                before->attachAxis(ay);
            }
            auto* measured = new QScatterSeries;
            measured->setName(c.measured_on.empty()
                                  ? tr("%1, measured").arg(QString::fromStdString(c.name))
                                  : tr("%1, %2").arg(QString::fromStdString(c.name),
                                                     QString::fromStdString(c.measured_on)));
            measured->setMarkerSize(7);
            measured->setColor(colour);
            measured->setBorderColor(colour.darker(140));
            QList<QPointF> mp;
            for (std::size_t k = 0; k < c.measured_bytes.size(); ++k)
                if (c.measured_bytes[k] / 1e6 >= 1e-3) {
                    mp << QPointF(c.measured_bytes[k] / 1e6, c.measured_busbw_Bps[k] / 1e9);
                    top = std::max(top, c.measured_busbw_Bps[k] / 1e9);
                }
            measured->replace(mp);
            chart_->addSeries(measured);
            measured->attachAxis(ax);
            measured->attachAxis(ay);
            measured_ = true;
        }
    }
    // Issue 22: each legend entry drawn as its series is (a solid line, a dashed line, a dot),
    // so one tier's calibrated curve, its curve before the fit and its measurements differ.
    chart_->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    // One legend entry per tier: the bands are explained in the caption.
    for (auto* m : chart_->legend()->markers())
        if (qobject_cast<QAreaSeries*>(m->series()))
            m->setVisible(false);
    niceAxis(ay, 0, top * 1.1); // labels with the decimals the step needs ("800", not "800.0")
    const auto& f = ev.fabric;
    // One node has no scale-out network: said in words, not "0 GB/s" and "1.00:1" (helper-9).
    QString cap =
        f.scaleout_Bps_per_gpu > 0
            ? tr("Scale-up %1 GB/s per GPU, scale-out %2 GB/s per GPU, %3.")
                  .arg(f.scaleup_Bps_per_gpu / 1e9, 0, 'f', 0)
                  .arg(f.scaleout_Bps_per_gpu / 1e9, 0, 'f', 0)
                  .arg(f.oversubscription > 1.005
                           ? tr("worst oversubscription %1:1").arg(f.oversubscription, 0, 'g', 3)
                           : tr("no oversubscription (1:1)"))
            : tr("Scale-up %1 GB/s per GPU; no scale-out network.")
                  .arg(f.scaleup_Bps_per_gpu / 1e9, 0, 'f', 0);
    const auto& cal = ev.collective_assumptions.calibration;
    if (std::any_of(cal.begin(), cal.end(),
                    [](const auto& c) { return c.beta_Bps > 0 || !c.segments.empty(); }))
        cap += measured_ ? tr(" Calibrated from nccl-tests measurements: dots measured, dashed "
                              "the model before the fit, solid after.")
                         : tr(" Calibrated from nccl-tests measurements.");
    else
        cap += tr(" Defaults: NCCL tuning constants and published efficiencies (import nccl-tests "
                  "output to calibrate).");
    if (engine_)
        cap += tr(" Dotted: the serving engine's own all-reduce as measured inside it (NVIDIA "
                  "AIConfigurator), which times the inference workload's tensor-parallel "
                  "all-reduces; NCCL's model times the rest.");
    if (banded)
        cap += tr(" Shaded: the model's error band from held-out published nccl-tests and DeepEP "
                  "runs (wider for messages under 64 MiB, where no published run is compared). The "
                  "bandwidth is nccl-tests' bus bandwidth (busbw).");
    caption_->setText(cap);
}

TrainingChart::TrainingChart(QWidget* parent)
    : ChartPage(tr("Training step: exposed time by part"),
                tr("Add a training workload with a global batch and a layout that fits in memory\n"
                   "(or use \"Find a layout…\" in the inspector) to see its step time."),
                parent) {}

void TrainingChart::setEvaluation(const model::Evaluation& ev) {
    std::vector<const model::WorkloadEvaluation*> shown;
    for (const auto& w : ev.workloads)
        if (w.training)
            shown.push_back(&w);
    bars_ = static_cast<int>(shown.size());
    if (shown.empty()) {
        empty_->setText(trainingHint(
            ev, tr("Add a training workload with a global batch and a layout that fits in "
                   "memory\n(or use \"Find a layout…\" in the inspector) to see its step time.")));
        empty_->setWordWrap(true);
        showChart(false);
        return;
    }
    showChart(true);
    clearChart(chart_);
    struct Part {
        const char* name;
        QColor color;
        double model::TrainingBreakdown::*field;
    };
    static const Part parts[] = {
        {"Compute", QColor(0x3b, 0x82, 0xf6), &model::TrainingBreakdown::compute},
        {"Recompute", QColor(0x93, 0xc5, 0xfd), &model::TrainingBreakdown::recompute},
        {"TP comm", QColor(0xf5, 0x9e, 0x0b), &model::TrainingBreakdown::tp_comm},
        {"CP comm", QColor(0xfb, 0xbf, 0x24), &model::TrainingBreakdown::cp_comm},
        {"EP comm", QColor(0xec, 0x48, 0x99), &model::TrainingBreakdown::ep_comm},
        {"PP comm", QColor(0x8b, 0x5c, 0xf6), &model::TrainingBreakdown::pp_comm},
        {"DP comm", QColor(0xdc, 0x26, 0x26), &model::TrainingBreakdown::dp_comm},
        {"Optimizer", QColor(0x14, 0xb8, 0xa6), &model::TrainingBreakdown::optimizer},
        {"Bubble", QColor(0x9c, 0xa3, 0xaf), &model::TrainingBreakdown::bubble},
    };
    auto* series = new QHorizontalStackedBarSeries;
    QStringList names;
    for (const auto* w : shown)
        names << QString::fromStdString(w->name).toHtmlEscaped(); // the axis draws rich text
    for (const auto& part : parts) {
        double sum = 0;
        for (const auto* w : shown)
            sum += w->training->breakdown.*part.field;
        if (sum <= 0)
            continue; // keep the legend to the parts that take time
        auto* set = new QBarSet(tr(part.name));
        set->setColor(part.color);
        for (const auto* w : shown)
            *set << w->training->breakdown.*part.field;
        series->append(set);
    }
    chart_->addSeries(series);
    auto* ay = new QBarCategoryAxis;
    ay->setCategories(names);
    auto* ax = new QValueAxis;
    ax->setTitleText(tr("seconds per step"));
    chart_->addAxis(ay, Qt::AlignLeft);
    chart_->addAxis(ax, Qt::AlignBottom);
    series->attachAxis(ay);
    series->attachAxis(ax);
    ax->applyNiceNumbers();
    QStringList lines;
    for (const auto* w : shown) {
        const auto& t = *w->training;
        QString line = tr("%1: step %2 s, %3 tokens/s, %4 TFLOP/s per GPU, MFU %5 %, bubble %6 %")
                           .arg(QString::fromStdString(w->name))
                           .arg(t.step_time_s, 0, 'f', t.step_time_s >= 10 ? 1 : 2)
                           .arg(QString::fromStdString(model::units::format_count(t.tokens_per_s)))
                           .arg(t.model_flops_per_gpu / 1e12, 0, 'f', 0)
                           .arg(t.mfu * 100, 0, 'f', 1)
                           .arg(t.bubble_fraction * 100, 0, 'f', 1);
        if (t.time_to_train_s > 0)
            line += tr("; to train: %1, %2 GPU-hours%3") // "55 min", "3.2 days" (not "0.0 days")
                        .arg(QString::fromStdString(model::report_value(t.time_to_train_s, "s")))
                        .arg(QString::fromStdString(model::units::format_count(t.gpu_hours)))
                        .arg(t.cost_usd > 0 ? tr(", $%1").arg(QString::fromStdString(
                                                  model::units::format_count(t.cost_usd)))
                                            : QString());
        if (w->band) { // issue 19: the band the held-out validation supports, and why
            using model::Scales;
            line += tr(". Model's error band: step %1 s, MFU %2 %")
                        .arg(QString::fromStdString(
                            // As the step is shown (helper-22: "73.504-110.233 s" beside
                            // "85.0 s").
                            // Each end as the report rounds it ("7.44-12.9 s").
                            model::range_text(t.step_time_s, *w->band, Scales::with_time,
                                              &model::units::format_seconds)))
                        .arg(QString::fromStdString(
                            model::range_text(t.mfu * 100, *w->band, Scales::with_speed, 1)));
            if (t.time_to_train_s > 0)
                line += tr(", %1 days, %2 GPU-hours")
                            .arg(QString::fromStdString(model::range_text(
                                     t.time_to_train_s / 86400, *w->band, Scales::with_time, 1)),
                                 QString::fromStdString(model::range_text(t.gpu_hours, *w->band,
                                                                          Scales::with_time, 0)));
            if (t.cost_usd > 0)
                line += tr(", $%1").arg(QString::fromStdString(
                    model::range_text(t.cost_usd, *w->band, Scales::with_time, 0)));
            line += tr(" (%1)").arg(QString::fromStdString(w->band->basis));
        }
        if (!t.fabric_note.empty()) // Journey 4: why the fabric's oversubscription (doesn't) matter
            line += tr(". Fabric: %1").arg(QString::fromStdString(t.fabric_note));
        lines << line;
    }
    caption_->setText(lines.join(QLatin1Char('\n')));
}

InferenceChart::InferenceChart(QWidget* parent)
    : ChartPage(
          tr("Serving: latency vs throughput (batch grows along the line)"),
          tr("Add an inference workload that fits in memory to see its latency and throughput."),
          parent) {}

void InferenceChart::setEvaluation(const model::Evaluation& ev, const std::string& focus) {
    const model::WorkloadEvaluation* w = pickWorkload(
        ev, focus, [](const auto& x) { return x.inference && !x.inference_curve.empty(); });
    points_ = w ? static_cast<int>(w->inference_curve.size()) : 0;
    shown_ = w ? w->id : std::string();
    if (!w) {
        // Issue 21 (helper-15): a service that cannot run says why, not "add one that fits".
        QString hint = tr("Add an inference workload that fits in memory to see its latency and "
                          "throughput.");
        const auto serving = pickWorkload(
            ev, focus, [](const auto& x) { return x.kind == model::WorkloadKind::inference; });
        if (serving && !serving->error.empty())
            hint = tr("%1 has no latency or throughput: %2")
                       .arg(QString::fromStdString(serving->name),
                            QString::fromStdString(model::errors_for_people(serving->error)));
        else if (serving && serving->has_memory && !serving->memory.fits) {
            // As the card's line: the explanation's own "does not fit: " is not said twice
            // (helper-27: "does not fit in memory: does not fit: ...").
            const QString why = memoryReason(serving->memory.explanation);
            hint =
                tr("%1 does not fit in memory: %2").arg(QString::fromStdString(serving->name), why);
        }
        empty_->setText(hint);
        empty_->setWordWrap(true);
        showChart(false);
        return;
    }
    showChart(true);
    clearChart(chart_);
    auto* line = new QLineSeries;
    // The service's name in the title, which has the chart's width; the legend names the curve
    // (session 25: "Llama 3 70B serving (batch ..." cut in the report's legend).
    chart_->setTitle(tr("%1: latency vs throughput (batch grows along the line)")
                         .arg(QString::fromStdString(w->name)));
    line->setName(tr("TPOT (batch 1 → %1)")
                      .arg(QString::fromStdString(model::units::format_count(
                          static_cast<double>(w->inference_curve.back().batch)))));
    QList<QPointF> pts;
    double xmax = 0, ymax = 0;
    for (const auto& p : w->inference_curve) {
        pts << QPointF(p.output_tokens_per_s, p.tpot_s * 1e3);
        xmax = std::max(xmax, p.output_tokens_per_s);
        ymax = std::max(ymax, p.tpot_s * 1e3);
    }
    line->replace(pts);
    QPen pen(QColor(0x3b, 0x82, 0xf6));
    pen.setWidth(2);
    line->setPen(pen);
    // Issue 19: the model's TPOT band at each point of the curve (computed in core), shaded
    // above and below it. (Each point's throughput moves with its TPOT too; drawing both as a
    // region swept between two shifted curves covered TPOTs far outside the band -- helper-8.)
    QAreaSeries* band = nullptr;
    if (w->band && w->inference_curve.front().tpot_high_s > 0) {
        QList<QPointF> fast, slow;
        for (const auto& p : w->inference_curve) {
            fast << QPointF(p.output_tokens_per_s, p.tpot_low_s * 1e3);
            slow << QPointF(p.output_tokens_per_s, p.tpot_high_s * 1e3);
        }
        // The axes follow the curve, not the band (its far corners would flatten the curve);
        // the plot area clips what lies beyond.
        band =
            addBandArea(chart_, fast, slow, tr("model's error band"), QColor(0x3b, 0x82, 0xf6), 40);
    }
    auto* op = new QScatterSeries;
    // A batch job's point is its means, ramp-up and drain included: off the steady-state curve
    // (helper-31 read it as misplaced).
    op->setName(w->inference->job_makespan_s > 0 ? tr("operating point (the batch job's means)")
                                                 : tr("operating point"));
    op->setMarkerSize(12);
    op->setColor(QColor(0xdc, 0x26, 0x26));
    op->append(w->inference->output_tokens_per_s, w->inference->tpot_s * 1e3);
    chart_->addSeries(line);
    chart_->addSeries(op);
    auto* ax = new QValueAxis;
    ax->setTitleText(tr("output tokens/s per replica"));
    ax->setLabelFormat(QStringLiteral("%.0f"));
    auto* ay = new QValueAxis;
    ay->setTitleText(tr("TPOT (ms)"));
    ay->setLabelFormat(QStringLiteral("%.6g"));
    // Issue 21: the axis shows the region that matters -- the operating point and the TPOT
    // target with room above -- not the last batches' climb (0-50 ms was squashed under a
    // 400 ms axis); the caption says where the curve goes beyond.
    const double slo_ms = w->tpot_slo_s * 1e3;
    const double region = 2.5 * std::max(w->inference->tpot_s * 1e3, slo_ms);
    // The error band is inside the range where the curve is (helper-3: the band's top was cut
    // off on GB200); beyond the shown region it is clipped with the curve.
    double bmax = 0, op_high = 0;
    if (band)
        for (const auto& p : w->inference_curve) {
            bmax = std::max(bmax, p.tpot_high_s * 1e3);
            if (p.batch <= w->inference->batch)
                op_high = std::max(op_high, p.tpot_high_s * 1e3);
        }
    const double ytop =
        std::min(std::max({ymax * 1.1, w->inference->tpot_s * 1e3 * 1.1, bmax * 1.02}),
                 std::max({region, op_high * 1.1, 1e-3}));
    const bool cut = ymax * 1.1 > ytop * 1.001;
    ay->setRange(0, ytop);
    ay->applyNiceNumbers();
    axisTop_ = ay->max();
    // The x axis ends where the curve leaves the shown TPOT range (helper-24: with the y axis
    // cut, the visible part of the curve sat in the left 15% of the plot).
    double xshow = xmax;
    if (cut) {
        xshow = w->inference->output_tokens_per_s;
        for (const auto& p : w->inference_curve)
            if (p.tpot_s * 1e3 <= axisTop_)
                xshow = std::max(xshow, p.output_tokens_per_s);
    }
    ax->setRange(0, xshow * 1.05);
    ax->applyNiceNumbers();
    axisRight_ = ax->max();
    slo_ = slo_ms;
    chart_->addAxis(ax, Qt::AlignBottom);
    chart_->addAxis(ay, Qt::AlignLeft);
    // Each legend entry drawn as its series is: the target's dashed line is not the operating
    // point's red dot.
    chart_->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    QLineSeries* slo = nullptr;
    if (slo_ms > 0) { // the TPOT target, dashed across the chart
        slo = new QLineSeries;
        slo->setName(tr("TPOT target %1 ms").arg(slo_ms, 0, 'g', 4));
        QPen sp(QColor(0xdc, 0x26, 0x26));
        sp.setWidth(1);
        sp.setStyle(Qt::DashLine);
        slo->setPen(sp);
        slo->append(0, slo_ms);
        slo->append(xmax * 1.05, slo_ms);
        chart_->addSeries(slo);
    }
    for (auto* s : {static_cast<QAbstractSeries*>(line), static_cast<QAbstractSeries*>(op),
                    static_cast<QAbstractSeries*>(band), static_cast<QAbstractSeries*>(slo)}) {
        if (!s)
            continue;
        s->attachAxis(ax);
        s->attachAxis(ay);
    }
    // Issue 21: with a TTFT target (online serving), TTFT along the same curve on its own axis
    // (right, ms) and the target dashed across it: both latencies the service is sized for.
    ttftSlo_ = w->ttft_slo_s * 1e3;
    ttftTop_ = 0;
    if (ttftSlo_ > 0) {
        const QColor orange(0xea, 0x58, 0x0c);
        auto* ttft = new QLineSeries;
        // The curve's TTFT is a request's own (prefill and its first step); the caption's adds
        // the wait for a slot at the request rate (helper-47 read ~60 ms on the line beside a
        // caption's 147 ms).
        ttft->setName(tr("TTFT without queueing (right axis)"));
        QPen tp(orange);
        tp.setWidth(2);
        ttft->setPen(tp);
        double tmax = 0;
        for (const auto& p : w->inference_curve)
            if (p.output_tokens_per_s <= axisRight_ * 1.0001) {
                ttft->append(p.output_tokens_per_s, p.ttft_s * 1e3);
                tmax = std::max(tmax, p.ttft_s * 1e3);
            }
        auto* tslo = new QLineSeries;
        tslo->setName(tr("TTFT target %1 ms")
                          .arg(QString::fromStdString(model::units::format_count(ttftSlo_))));
        QPen sp(orange);
        sp.setWidth(1);
        sp.setStyle(Qt::DotLine);
        tslo->setPen(sp);
        tslo->append(0, ttftSlo_);
        tslo->append(axisRight_, ttftSlo_);
        chart_->addSeries(ttft);
        chart_->addSeries(tslo);
        auto* at = new QValueAxis;
        at->setTitleText(tr("TTFT (ms)"));
        at->setLabelFormat(QStringLiteral("%.0f"));
        // The region that matters: the target and the operating point with room above, not a
        // far end of the curve.
        const double ttft_region = 2.5 * std::max(w->inference->ttft_s * 1e3, ttftSlo_);
        at->setRange(0, std::max({1.0, std::min(tmax * 1.1, ttft_region), ttftSlo_ * 1.15}));
        at->applyNiceNumbers();
        ttftTop_ = at->max();
        chart_->addAxis(at, Qt::AlignRight);
        for (auto* s : {ttft, tslo}) {
            s->attachAxis(ax);
            s->attachAxis(at);
        }
    }
    // $ per million output tokens along the same curve (right axis), when priced.
    if (w->inference_curve.front().usd_per_million_output_tokens > 0) {
        auto* cost = new QLineSeries;
        cost->setName(tr("$ per M output tokens"));
        QPen cp(QColor(0x16, 0xa3, 0x4a));
        cp.setWidth(2);
        cp.setStyle(Qt::DashLine);
        cost->setPen(cp);
        double cmax = 0;
        for (const auto& p : w->inference_curve) {
            cost->append(p.output_tokens_per_s, p.usd_per_million_output_tokens);
            cmax = std::max(cmax, p.usd_per_million_output_tokens);
        }
        chart_->addSeries(cost);
        auto* ac = new QLogValueAxis;
        ac->setTitleText(tr("$/M tokens (log)"));
        ac->setLabelFormat(QStringLiteral("%.6g"));
        ac->setBase(10);
        double cmin = cmax;
        for (const auto& p : w->inference_curve)
            cmin = std::min(cmin, p.usd_per_million_output_tokens);
        // Whole decades, so a labelled tick lies below and above the curve (helper-44: labels
        // 1 and 10 only, the curve below 1).
        const double lo = std::pow(10.0, std::floor(std::log10(std::max(1e-4, cmin))));
        double hi = std::pow(10.0, std::ceil(std::log10(std::max(cmax, 1e-4))));
        if (hi <= lo)
            hi = lo * 10;
        // (a hair beyond each decade: Qt rounds the first tick up past an end that is a decade
        // only to within floating-point error, and drops its label)
        ac->setRange(lo * 0.999, hi * 1.001);
        chart_->addAxis(ac, Qt::AlignRight);
        cost->attachAxis(ax);
        cost->attachAxis(ac);
        connect(cost, &QLineSeries::hovered, this, [](const QPointF& pt, bool on) {
            if (on)
                QToolTip::showText(QCursor::pos(), tr("%1 tokens/s: $%2 per million output tokens")
                                                       .arg(pt.x(), 0, 'f', 0)
                                                       .arg(QString::fromStdString(
                                                           model::units::format_price(pt.y()))));
        });
    }
    connect(line, &QLineSeries::hovered, this, [](const QPointF& pt, bool on) {
        if (on)
            QToolTip::showText(
                QCursor::pos(),
                tr("%1 tokens/s at TPOT %2 ms").arg(pt.x(), 0, 'f', 0).arg(pt.y(), 0, 'f', 2));
    });
    const auto& in = *w->inference;
    const auto count = [](double v) {
        return QString::fromStdString(model::units::format_count(v));
    };
    // A workstation's 2.8 tokens/s keeps its decimal (as the CLI); a cluster's reads as a count.
    const auto rate = [](double v) {
        return QString::fromStdString(v < 100 ? model::units::format_fixed(v, 1)
                                              : model::units::format_count(v));
    };
    // Disaggregated: the per-GPU rate counts the prefill pool too (helper-31: "15,464 per
    // replica (1,008 per GPU)" on 8 GPUs read as a contradiction).
    const QString perGpu =
        in.prefill_pool ? tr("%1 per GPU, the prefill GPUs counted") : tr("%1 per GPU");
    QString cap =
        tr("%1: TTFT %2, TPOT %3 at batch %4, %5 output tokens/s per replica (%6)")
            .arg(QString::fromStdString(w->name))
            .arg(QString::fromStdString(model::units::format_latency(in.ttft_s)))
            .arg(QString::fromStdString(model::units::format_latency(in.tpot_s)))
            // What set the batch (helper-44: the SLO's choice read as a slower format).
            .arg(
                tr("%1 (%2)").arg(count(static_cast<double>(in.batch)),
                                  QString::fromStdString(model::batch_limit_short(in.batch_limit))))
            .arg(rate(in.output_tokens_per_s), perGpu.arg(rate(in.output_tokens_per_s_per_gpu)));
    // Online: the TTFT above includes the wait for a slot at the request rate; the curve's TTFT
    // does not (helper-31).
    // Only a wait the caption can show: under half a microsecond format_latency writes
    // "0.000 ms" (helper-44).
    // With the replicas and their load that set the wait (helper-47: TTFT 147 -> 345 ms with
    // attention DP, the 23 replicas at 97 % load only in the CLI).
    if (in.queue_wait_s >= 0.5e-6)
        cap +=
            in.replicas_needed > 0
                ? tr("; TTFT includes %1 of queueing at the request rate (%2 replicas at %3 % "
                     "load)")
                      .arg(QString::fromStdString(model::units::format_latency(in.queue_wait_s)),
                           count(in.replicas_needed),
                           QString::fromStdString(
                               model::units::format_fixed(100 * in.utilization, 0)))
                : tr("; TTFT includes %1 of queueing at the request rate")
                      .arg(QString::fromStdString(model::units::format_latency(in.queue_wait_s)));
    // The engine's host sets the step (TensorRT-LLM's executor on a Grace host: helper-44 saw
    // GB200 at a third of B200's tokens a GPU with no word why).
    if (model::host_sets_step(in))
        cap += tr("; the decode step (%1) is host-bound: the GPU's work is %2, TensorRT-LLM's "
                  "host time per sequence sets the rest (Explain)")
                   .arg(QString::fromStdString(model::units::format_latency(in.decode_step_s)),
                        QString::fromStdString(model::units::format_latency(in.decode_step_gpu_s)));
    // Speculative decoding: whether it pays (core's speedup of the decode per token), at batch 1
    // and at the operating batch (helper-45: "2.8x faster at batch 1" beside a throughput that
    // had fallen from 10,409 to 7,722 tokens/s).
    if (in.speculative_speedup > 0 && in.speculative_speedup != 1) {
        const auto times = [](double x) {
            return QString::fromStdString(model::units::format_fixed(x >= 1 ? x : 1 / x, 2));
        };
        const auto way = [](double x) { return x >= 1 ? tr("faster") : tr("slower"); };
        cap += tr("; speculative decoding makes a token %1 × %2 at batch 1")
                   .arg(times(in.speculative_speedup), way(in.speculative_speedup));
        if (in.batch > 1 && in.speculative_speedup_at_batch > 0)
            cap += tr(" and %1 × %2 at batch %3")
                       .arg(times(in.speculative_speedup_at_batch),
                            way(in.speculative_speedup_at_batch), count(in.batch));
        if (in.speculative_speedup < 1)
            cap += tr(" (the draft costs more than it saves)");
    }
    // One stream: the rate above spreads the prompt's time over the output; what llama.cpp and
    // MLX call the generation speed is one decode step per token (helper-26).
    if (in.batch == 1 && in.decode_step_s > 0)
        cap +=
            tr(", decoding at %1 tokens/s once the prompt is in").arg(rate(1.0 / in.decode_step_s));
    // A batch job (session 36): the rate above is the job's, ramp-up and drain included.
    if (in.job_makespan_s > 0) {
        const QString requests =
            in.job_requests_per_replica < in.job_requests
                ? tr("%1 requests (%2 per replica)")
                      .arg(count(static_cast<double>(in.job_requests)),
                           count(static_cast<double>(in.job_requests_per_replica)))
                : tr("%1 requests").arg(count(static_cast<double>(in.job_requests)));
        cap += tr(" as a batch job of %1, done in %2 (%3 sequences decoding per step on average; "
                  "TTFT from the start)")
                   .arg(requests,
                        QString::fromStdString(model::units::format_duration(in.job_makespan_s)),
                        count(in.job_mean_batch));
    }
    // What moves tokens/s, TTFT and $/M with expert parallelism and attention DP (helper-46:
    // they changed with no word why).
    if (in.expert_parallel > 1 && in.expert_tp > 1)
        cap += tr("; routed experts split by expert over %1 GPUs and each by tensor over %2 (EP "
                  "%1 × expert TP %2)")
                   .arg(in.expert_parallel)
                   .arg(in.expert_tp);
    else if (in.expert_parallel > 1)
        cap += tr("; routed experts split by expert over %1 GPUs (EP %1)").arg(in.expert_parallel);
    else if (in.expert_tp > 1) // helper-48: EP 1 said nothing of the experts
        cap += tr("; every routed expert split by tensor over the %1 TP GPUs (EP 1)")
                   .arg(in.expert_tp);
    // Why every step waits, where it does (helper-48: one reason was given for four causes).
    QString why;
    switch (in.busiest_rank_why) {
    case model::DpWait::every_step_has_prompt:
        why = tr(" (at this batch every step carries a prompt)");
        break;
    case model::DpWait::batch_job:
        why = tr(" (a batch job)");
        break;
    case model::DpWait::assumption_off:
        why = tr(" (Balanced decode (TensorRT-LLM) is off in the assumptions)");
        break;
    case model::DpWait::engine:
        why = tr(" (no rule for balanced decode steps is known for this engine)");
        break;
    default:
        break;
    }
    // What attention DP buys, before what it costs (helper-48: at a fixed batch it reads slower,
    // and nothing said it holds several times the batch).
    const QString holds =
        in.max_batch_without_attention_dp > 0
            ? tr(" memory holds %1 sequences with it, %2 without;")
                  .arg(count(static_cast<double>(in.memory.max_batch)),
                       count(static_cast<double>(in.max_batch_without_attention_dp)))
            : QString();
    if (in.busiest_rank > 1 && in.busiest_rank_why != model::DpWait::prompt_steps)
        cap += tr("; attention DP:%3 each step waits for the busiest GPU%1, %2 × the balanced step")
                   .arg(why, QString::fromStdString(model::units::format_fixed(in.busiest_rank, 2)),
                        holds);
    else if (in.busiest_rank > 1)
        cap +=
            tr("; attention DP:%3 steps that carry a prompt (%1 % of them) wait for the "
               "busiest GPU, %2 × the balanced step; decode-only steps run balanced")
                .arg(QString::fromStdString(
                         model::units::format_fixed(100.0 * in.busiest_rank_step_share,
                                                    in.busiest_rank_step_share < 0.1 ? 1 : 0)),
                     QString::fromStdString(model::units::format_fixed(in.busiest_rank, 2)), holds);
    if (in.busiest_expert_reads >= 1.005)
        cap += tr("; expert parallel: the busiest GPU reads %1 × the mean expert weights")
                   .arg(QString::fromStdString(
                       model::units::format_fixed(in.busiest_expert_reads, 2)));
    if (in.usd_per_million_output_tokens > 0)
        // The share of the GPU time it charges (the prompts' share is the input tokens').
        // Both prices (helper-47: with attention DP the output price rose while a request's
        // cost fell, the prompts' share having moved to the input price the GUI did not show).
        cap +=
            tr(", $%1 per million output tokens (the decode's %2 % of the GPU time) and $%3 "
               "per million input tokens")
                .arg(QString::fromStdString(
                         model::units::format_price(in.usd_per_million_output_tokens)),
                     QString::fromStdString(model::units::format_fixed(100 * in.decode_share, 0)),
                     QString::fromStdString(
                         model::units::format_price(in.usd_per_million_input_tokens)));
    else if (w->onprem_usd_per_million_output_tokens > 0)
        // No cloud price for this GPU (helper-20: an MI300X design lost its $/M curve without
        // a word): what owning costs, and where the missing price is explained.
        cap += tr(", $%1 per million output tokens owning (no cloud price for this GPU: see the "
                  "Cost tab)")
                   .arg(QString::fromStdString(
                       model::units::format_price(w->onprem_usd_per_million_output_tokens)));
    else
        cap += tr(" (no $ per million tokens: no price for this GPU; see the Cost tab)");
    if (in.gpus_needed > 0)
        cap += in.prefill_replicas_needed > 0
                   ? tr("; %1 GPUs for the request rate (%2 decode and %3 prefill replicas)")
                         .arg(in.gpus_needed, 0, 'f', 0)
                         .arg(in.replicas_needed, 0, 'f', 0)
                         .arg(in.prefill_replicas_needed, 0, 'f', 0)
                   : tr("; %1 GPUs for the request rate").arg(in.gpus_needed, 0, 'f', 0);
    if (w->ttft_slo_s > 0)
        cap += tr("; targets TTFT %1 ms, TPOT %2 ms (dashed)")
                   .arg(w->ttft_slo_s * 1e3, 0, 'g', 4)
                   .arg(w->tpot_slo_s * 1e3, 0, 'g', 4);
    // TensorRT-LLM pads decode steps to its captured CUDA-graph batches (core's graph_batch):
    // where the padding jumps, throughput steps back (helper-26 read it as a fault).
    if (std::any_of(w->inference_curve.begin(), w->inference_curve.end(),
                    [](const model::CurvePoint& p) { return p.graph_batch > p.batch; }))
        cap += tr("; TensorRT-LLM pads each decode step up to its next CUDA-graph batch (…, 256, "
                  "384, 512, …): where the padding jumps, the curve steps back");
    // llama.cpp's layers in system memory: from 32 sequences a step streams their weights over
    // the host link (core's streams_offloaded) -- the jump back in the curve (helper-27).
    const auto stream =
        std::find_if(w->inference_curve.begin(), w->inference_curve.end(),
                     [](const model::CurvePoint& p) { return p.streams_offloaded; });
    if (stream != w->inference_curve.end() && stream != w->inference_curve.begin())
        cap += tr("; the curve jumps back at %1 sequences, where llama.cpp starts streaming the "
                  "weights of the layers in system memory over the host link instead of running "
                  "them on the CPU")
                   .arg(stream->batch);
    // Only where the curve itself runs past the axis (helper-45: "cut at 3000 ms (the largest
    // batch reaches 2368 ms)" when the axis had rounded up past the curve), in the latency
    // format every screen uses.
    if (cut && ymax > ay->max() * 1.0001)
        cap += tr("; TPOT axis cut at %1 (the largest batch reaches %2)")
                   .arg(QString::fromStdString(model::units::format_latency(ay->max() * 1e-3)),
                        QString::fromStdString(model::units::format_latency(ymax * 1e-3)));
    // Low-bit weights on a GPU without matrix units for them run weight-only (helper-45: FP8 ->
    // FP4 on H200 lowered tokens/s and only Explain said why).
    if (in.weight_only_dequant)
        cap += tr("; the weights run weight-only on this GPU (no matrix units for their format: "
                  "dequantised to 16 bits and computed at the 16-bit rate)");
    if (w->band) { // issue 19
        using model::Scales;
        const auto range = [&](double v, Scales sc, auto fmt) {
            return QString::fromStdString(model::range_text(v, *w->band, sc, fmt));
        };
        // Each latency's band in the unit it is shown in above (core's latency_range_text).
        const auto latency = [&](double v) {
            return QString::fromStdString(model::latency_range_text(v, *w->band));
        };
        cap += tr(". Model's error band (TPOT shaded): TTFT %1, TPOT %2, %3 output tokens/s")
                   .arg(latency(in.ttft_s), latency(in.tpot_s),
                        range(in.output_tokens_per_s, Scales::with_speed, 0));
        if (in.usd_per_million_output_tokens > 0)
            cap += tr(", $%1 per million output tokens")
                       .arg(range(in.usd_per_million_output_tokens, Scales::with_time,
                                  &model::units::format_price));
        cap += tr(" (%1)").arg(QString::fromStdString(w->band->basis));
    }
    caption_->setText(cap + QLatin1Char('.'));
}

ChartPanel::ChartPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    tabs_ = new QTabWidget(this);
    memory_ = new MemoryChart(tabs_);
    tabs_->addTab(memory_, tr("Memory"));
    roofline_ = new RooflineChart(tabs_);
    tabs_->addTab(roofline_, tr("Roofline"));
    training_ = new TrainingChart(tabs_);
    tabs_->addTab(training_, tr("Training"));
    scaling_ = new ScalingChart(tabs_);
    tabs_->addTab(scaling_, tr("Scaling"));
    inference_ = new InferenceChart(tabs_);
    tabs_->addTab(inference_, tr("Inference"));
    fabric_ = new FabricChart(tabs_);
    tabs_->addTab(fabric_, tr("Fabric"));
    cost_ = new CostChart(tabs_);
    tabs_->addTab(cost_, tr("Cost"));
    fleet_ = new FleetChart(tabs_);
    tabs_->addTab(fleet_, tr("Fleet"));
    reliability_ = new ReliabilityChart(tabs_);
    tabs_->addTab(reliability_, tr("Reliability"));
    sensitivity_ = new SensitivityChart(tabs_);
    tabs_->addTab(sensitivity_, tr("Sensitivity"));
    explain_ = new ExplainPanel(tabs_);
    tabs_->addTab(explain_, tr("Explain"));
    // Below this a chart's axes and legend are not drawn at all (issue 21).
    tabs_->setMinimumHeight(260);
    layout->addWidget(tabs_);
}

void ChartPanel::setEvaluation(std::shared_ptr<const model::Evaluation> ev) {
    if (!ev)
        return;
    ev_ = ev;
    memory_->setEvaluation(*ev);
    roofline_->setEvaluation(*ev, focus_);
    fabric_->setEvaluation(*ev);
    training_->setEvaluation(*ev);
    inference_->setEvaluation(*ev, focus_);
    cost_->setEvaluation(*ev);
    fleet_->setEvaluation(*ev);
    scaling_->setEvaluation(*ev, focus_);
    reliability_->setEvaluation(*ev, focus_);
}

void ChartPanel::setFocusWorkload(const std::string& id) {
    if (id == focus_)
        return;
    focus_ = id;
    if (!ev_)
        return;
    roofline_->setEvaluation(*ev_, focus_);
    inference_->setEvaluation(*ev_, focus_);
    scaling_->setEvaluation(*ev_, focus_);
    reliability_->setEvaluation(*ev_, focus_);
}

} // namespace cl::ui
