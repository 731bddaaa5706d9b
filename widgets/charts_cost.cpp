// Cost and reliability charts: views of Evaluation::tco and WorkloadEvaluation::reliability.
#include "chartpage.h"
#include "charts.h"

#include "document/sensitivityrunner.h"
#include "model/report.h"
#include "model/schema.h"
#include "model/sensitivity.h"
#include "model/units.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QHBoxLayout>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QPainter>
#include <QScatterSeries>
#include <QStackedLayout>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace cl::ui {

namespace {

QLineSeries* line(const QString& name, const QColor& color, const QList<QPointF>& pts,
                  Qt::PenStyle style = Qt::SolidLine) {
    auto* s = new QLineSeries;
    s->setName(name);
    QPen pen(color);
    pen.setWidth(2);
    pen.setStyle(style);
    s->setPen(pen);
    s->replace(pts);
    return s;
}

QString money(double usd) {
    return QString::fromStdString(model::units::format_usd_short(usd));
}

} // namespace

CostChart::CostChart(QWidget* parent)
    : ChartPage(tr("Cumulative cost: cloud vs on-prem"),
                tr("Add GPUs or systems to the canvas, and a cloud offer or price in the "
                   "design's economics, to compare renting with owning."),
                parent) {}

QString CostChart::caption() const {
    return caption_->text();
}

QStringList CostChart::seriesNames() const {
    QStringList names;
    for (const QAbstractSeries* s : chart_->series())
        names << s->name();
    return names;
}

void CostChart::setEvaluation(const model::Evaluation& ev) {
    months_ = ev.tco ? static_cast<int>(ev.tco->monthly.size()) - 1 : 0;
    if (!ev.tco) {
        if (!ev.tco_error.empty())
            empty_->setText(tr("No cost: %1").arg(QString::fromStdString(ev.tco_error)));
        showChart(false);
        return;
    }
    showChart(true);
    const model::TcoResult& t = *ev.tco;
    onprem_ = t.onprem_usd;
    clearChart(chart_);
    QList<QPointF> cloud, onprem;
    double ymax = 0;
    // Issue 21: a side that could not be costed is not drawn (never a $0 line); the caption
    // says why and what to type or choose.
    for (const auto& m : t.monthly) {
        cloud << QPointF(m.month, m.cloud_usd / 1e6);
        onprem << QPointF(m.month, m.onprem_usd / 1e6);
        if (t.has_cloud)
            ymax = std::max(ymax, m.cloud_usd / 1e6);
        if (t.has_onprem)
            ymax = std::max(ymax, m.onprem_usd / 1e6);
    }
    // The billed way of renting solid, the others the offer allows dashed beside it (issue 21:
    // on-demand, 1-year, 3-year and spot side by side with on-prem).
    // Short: "3-year", not "3-year commitment" (helper-3: the PDF's 820 px chart cut the
    // legend to "AWS p5.48xlarge, 3-year commitment: $3.03/…").
    const auto short_label = [](model::Commitment c) {
        QString l = QString::fromStdString(model::choice_label(model::to_string(c)));
        l.remove(QStringLiteral(" commitment"));
        return l;
    };
    const auto rent_label = [&](const model::CloudOption& opt) {
        return short_label(opt.commitment);
    };
    // One colour per way of renting, whichever is billed (helper-18: spot's cyan sat on the
    // billed blue, and an option changed colour when it became the billed one).
    const QColor kRent[] = {QColor(0x64, 0x74, 0x8b), QColor(0x0d, 0x94, 0x88),
                            QColor(0x3b, 0x82, 0xf6), QColor(0xdb, 0x27, 0x77)};
    const QString billed = short_label(t.commitment);
    const QString offer = QString::fromStdString(t.cloud_offer_name);
    QList<QAbstractSeries*> all;
    // The offer's name in the title, where it has the chart's width; the legend says the way
    // of renting (session 25: with the report's larger text the legend cut "AWS p5en.48xlarge,
    // On dem..." and "on-prem (capex $357.0k at ...").
    chart_->setTitle(t.has_cloud && !offer.isEmpty()
                         ? tr("Cumulative cost: %1 vs on-prem").arg(offer)
                         : tr("Cumulative cost: cloud vs on-prem"));
    if (t.has_cloud) {
        auto* c = line(
            tr("%1 (billed): $%2/GPU-h").arg(billed).arg(t.cloud_price_per_gpu_hour, 0, 'f', 2),
            kRent[static_cast<int>(t.commitment)], cloud);
        QPen pen = c->pen();
        pen.setWidth(3); // the billed way, heavier than the dashed alternatives
        c->setPen(pen);
        chart_->addSeries(c);
        all << c;
    }
    if (t.has_onprem) {
        auto* o =
            line(tr("on-prem: capex %1").arg(money(t.capex_usd)), QColor(0xf5, 0x9e, 0x0b), onprem);
        chart_->addSeries(o);
        all << o;
    }

    for (const auto& opt : t.cloud_options) {
        if (opt.commitment == t.commitment)
            continue;
        QList<QPointF> pts;
        for (const auto& m : t.monthly) {
            const double usd = opt.usd * m.month / std::max(1, months_);
            pts << QPointF(m.month, usd / 1e6);
            ymax = std::max(ymax, usd / 1e6);
        }
        auto* s =
            line(tr("%1: $%2/GPU-h").arg(rent_label(opt)).arg(opt.rate_per_gpu_hour, 0, 'f', 2),
                 kRent[static_cast<int>(opt.commitment)], pts,
                 // spot its own pattern: its line can lie on the billed one (helper-6: spot
                 // under the 3-year line could not be seen)
                 opt.commitment == model::Commitment::spot ? Qt::DotLine : Qt::DashLine);
        QPen pen = s->pen();
        pen.setWidth(2);
        s->setPen(pen);
        chart_->addSeries(s);
        all << s;
    }
    if (t.breakeven_months >= 0) {
        auto* be = new QScatterSeries;
        be->setName(tr("break-even: month %1").arg(t.breakeven_months));
        be->setMarkerSize(12);
        be->setColor(QColor(0xdc, 0x26, 0x26));
        be->append(t.breakeven_months,
                   t.monthly[static_cast<std::size_t>(t.breakeven_months)].onprem_usd / 1e6);
        chart_->addSeries(be);
        all << be;
    }
    // Billions past $1,000M (helper-11: the 16k design's axis ran "$M" to "1,000").
    const bool billions = ymax >= 1000;
    if (billions) {
        for (auto* s : all)
            if (auto* xy = qobject_cast<QXYSeries*>(s)) {
                QList<QPointF> pts = xy->points();
                for (auto& p : pts)
                    p.setY(p.y() / 1000);
                xy->replace(pts);
            }
        ymax /= 1000;
    }
    const QString unit = billions ? QStringLiteral("B") : QStringLiteral("M");
    for (auto* s : all)
        if (auto* l = qobject_cast<QLineSeries*>(s))
            connect(l, &QLineSeries::hovered, this, [l, unit](const QPointF& pt, bool on) {
                if (on)
                    QToolTip::showText(QCursor::pos(),
                                       tr("month %1: %2, $%3%4")
                                           .arg(pt.x(), 0, 'f', 0)
                                           .arg(l->name().section(QLatin1Char(':'), 0, 0))
                                           .arg(pt.y(), 0, 'f', 2)
                                           .arg(unit));
            });
    auto* ax = new QValueAxis;
    ax->setTitleText(tr("months"));
    ax->setRange(0, months_);
    ax->setLabelFormat(QStringLiteral("%.0f"));
    auto* ay = new QValueAxis;
    ay->setTitleText(QLatin1Char('$') + unit);
    niceAxis(ay, 0, ymax * 1.05); // labels with the decimals the step needs ("800", not "800.0")
    chart_->addAxis(ax, Qt::AlignBottom);
    chart_->addAxis(ay, Qt::AlignLeft);
    for (auto* s : all) {
        s->attachAxis(ax);
        s->attachAxis(ay);
    }
    const auto& b = t.onprem_breakdown;
    const double tot = std::max(1.0, b.total());
    auto pct = [&](double v) {
        return QString::number(v / tot * 100, 'f', 0) + QStringLiteral(" %");
    };
    QString cap;
    if (t.has_onprem)
        cap = tr("On-prem %1 over %2 months: servers %3, network %4, storage %5, power %6, "
                 "facility %7, staff %8, maintenance %9.")
                  .arg(money(t.onprem_usd))
                  .arg(months_)
                  .arg(pct(b.servers), pct(b.network), pct(b.storage), pct(b.power),
                       pct(b.facility), pct(b.staff), pct(b.maintenance));
    else
        cap = tr("Owning is not costed: %1.").arg(QString::fromStdString(t.onprem_missing));
    if (t.has_cloud && t.has_onprem)
        cap +=
            tr(" Cloud %1. Per GPU-hour used: on-prem $%2 (amortized $%3), cloud $%4.")
                .arg(money(t.cloud_usd))
                .arg(QString::fromStdString(model::units::format_price(t.onprem_usd_per_gpu_hour)))
                .arg(QString::fromStdString(
                    model::units::format_price(t.amortized_usd_per_gpu_hour)))
                .arg(QString::fromStdString(model::units::format_price(t.cloud_usd_per_gpu_hour)));
    else if (t.has_cloud)
        cap += tr(" Cloud %1 over %2 months, %3 per GPU-hour used.")
                   .arg(money(t.cloud_usd))
                   .arg(months_)
                   .arg(QStringLiteral("$%1").arg(QString::fromStdString(
                       model::units::format_price(t.cloud_usd_per_gpu_hour))));
    else
        cap +=
            tr(" Per GPU-hour used on-prem $%1 (amortized $%2). Renting is not costed: %3.")
                .arg(QString::fromStdString(model::units::format_price(t.onprem_usd_per_gpu_hour)))
                .arg(QString::fromStdString(
                    model::units::format_price(t.amortized_usd_per_gpu_hour)))
                .arg(QString::fromStdString(t.cloud_missing));
    // Percentages and kilowatts rounded as the report's tables round them (helper-9: "30%" here
    // beside "30.0 %" in the table, "10 kW" beside "10.2 kW").
    const auto percent = [](double fraction) {
        return QString::fromStdString(model::report_human(fraction, model::ReportFormat::percent));
    };
    const auto kw = [](double v) { return QString::fromStdString(model::units::format_kw(v)); };
    cap += t.utilization_source == "economics.utilization"
               ? tr(" Utilization %1 (typed in the Cost section).").arg(percent(t.utilization))
           : t.utilization_source == model::kFleetTraceSource
               ? tr(" Utilization %1 from the Fleet tab's replay of the job trace.")
                     .arg(percent(t.utilization))
               : tr(" Utilization %1 from the Fleet simulation of the job mix.")
                     .arg(percent(t.utilization));
    // The fleet's cloud bursts at the simulated rate over the horizon: a cost of running the
    // mix on this cluster that the on-prem line does not hold (helper-36).
    if (ev.fleet && ev.fleet->burst_usd_tco_months > 0)
        cap += tr(" Bursting from the Fleet simulation adds about %1 over the %2 months at its "
                  "rate (%3 in the simulated days), not in the on-prem line.")
                   .arg(money(ev.fleet->burst_usd_tco_months))
                   .arg(months_)
                   .arg(money(ev.fleet->burst_usd));
    if (t.breakeven_utilization >= 0)
        cap += tr(" Break-even utilization %1.").arg(percent(t.breakeven_utilization));
    else if (t.has_cloud && t.has_onprem &&
             (t.commitment == model::Commitment::one_year ||
              t.commitment == model::Commitment::three_year))
        cap += tr(" A commitment bills every hour, used or not: owning wins at any utilization "
                  "once the lines cross.");
    const auto count = [](double v) {
        return QString::fromStdString(model::units::format_count(v));
    };
    // The other ways of renting: their horizon cost and break-even with owning.
    QStringList alts;
    for (const auto& opt : t.cloud_options)
        if (opt.commitment != t.commitment)
            alts << (t.has_onprem
                         ? tr("%1 %2 (%3)")
                               .arg(QString::fromStdString(
                                        model::choice_label(model::to_string(opt.commitment))),
                                    money(opt.usd),
                                    opt.breakeven_months >= 0
                                        ? tr("break-even month %1").arg(opt.breakeven_months)
                                        : tr("no break-even within the horizon"))
                         : tr("%1 %2").arg(QString::fromStdString(model::choice_label(
                                               model::to_string(opt.commitment))),
                                           money(opt.usd)));
    if (!alts.isEmpty())
        cap += tr(" Renting otherwise: %1.").arg(alts.join(QStringLiteral("; ")));
    // "racks: 1, 523 MWh" read as 1,523 MWh (helper-3): the count before its noun, a semicolon.
    cap += tr(" %1 kW IT nameplate, %2 kW facility average, %3; %4 MWh and %5 t CO₂ over the "
              "horizon.")
               .arg(kw(t.it_power_peak_kw), kw(t.power_kw),
                    t.racks == 1 ? tr("1 rack") : tr("%1 racks").arg(count(t.racks)),
                    count(t.energy_kwh / 1e3), count(t.co2_kg / 1e3));
    if (t.max_gpus_under_cap >= 0)
        cap += tr(" The facility cap allows %1 GPUs.").arg(count(t.max_gpus_under_cap));
    caption_->setText(cap);
}

AllocationView::AllocationView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("allocationView"));
    setMouseTracking(false);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Which job held each node over time (a colour per class, the job holding "
                  "most of the node; as tall as the share of the node's GPUs held, grey idle, "
                  "dark red out for repair). Click a job to see its nodes on the canvas."));
}

QColor AllocationView::classColour(int cls) {
    static const QColor colours[] = {{0x3b, 0x82, 0xf6}, {0x10, 0xb9, 0x81}, {0xf5, 0x9e, 0x0b},
                                     {0xec, 0x48, 0x99}, {0x8b, 0x5c, 0xf6}, {0x06, 0xb6, 0xd4},
                                     {0x84, 0xcc, 0x16}, {0xf9, 0x73, 0x16}};
    return colours[static_cast<std::size_t>(std::max(0, cls)) % std::size(colours)];
}

void AllocationView::setAllocation(const model::FleetResult& f, int nodes) {
    al_ = f.allocation;
    classes_.clear();
    for (const auto& c : f.classes)
        classes_.push_back(c.name);
    horizon_s_ = f.timeline.empty() ? 0 : f.timeline.back().t_s;
    nodes_ = nodes;
    picked_ = -1;
    update();
}

std::vector<std::pair<QColor, QString>> AllocationView::legendItems() const {
    std::vector<std::pair<QColor, QString>> items;
    for (std::size_t i = 0; i < classes_.size(); ++i)
        items.emplace_back(classColour(static_cast<int>(i)), QString::fromStdString(classes_[i]));
    items.emplace_back(palette().window().color().darker(112), tr("idle"));
    items.emplace_back(QColor(0x7f, 0x1d, 0x1d), tr("out for repair"));
    const int rows = static_cast<int>(al_.node_rows.size());
    if (nodes_ > 0 && rows < nodes_) // sampled
        items.emplace_back(QColor(), tr("(%1 of the %2 nodes, evenly spread)")
                                         .arg(rows)
                                         .arg(QLocale(QLocale::English).toString(nodes_)));
    return items;
}

std::vector<QPointF> AllocationView::legendLayout(double left, double right, int* lines) const {
    std::vector<QPointF> at;
    double x = left;
    int line = 0;
    for (const auto& [colour, text] : legendItems()) {
        const double w = (colour.isValid() ? 13 : 0) + fontMetrics().horizontalAdvance(text) + 12;
        if (x > left && x + w > right) { // wrap (helper audits: no clipped legends)
            x = left;
            ++line;
        }
        at.emplace_back(x, line);
        x += w;
    }
    *lines = line + 1;
    return at;
}

QRectF AllocationView::plot() const {
    // Room on the left for node numbers; below, a line of days and the legend's lines.
    const int left = fontMetrics().horizontalAdvance(QStringLiteral("node 00,000")) + 6;
    int lines = 1;
    legendLayout(left, width() - 4, &lines);
    const int below = fontMetrics().height() * (1 + lines) + 6;
    return QRectF(left, 4, std::max(10, width() - left - 6), std::max(10, height() - 8 - below));
}

std::pair<int, int> AllocationView::cellAt(QPoint p) const {
    const QRectF r = plot();
    if (al_.columns <= 0 || al_.node_rows.empty() || !r.contains(p))
        return {-1, -1};
    const int rows = static_cast<int>(al_.node_rows.size());
    const int row =
        std::clamp(static_cast<int>((p.y() - r.top()) / r.height() * rows), 0, rows - 1);
    const int col = std::clamp(static_cast<int>((p.x() - r.left()) / r.width() * al_.columns), 0,
                               al_.columns - 1);
    return {row, col};
}

QPoint AllocationView::cellCentre(int row, int col) const {
    const QRectF r = plot();
    const double rows = static_cast<double>(std::max<std::size_t>(1, al_.node_rows.size()));
    return QPointF(r.left() + (col + 0.5) * r.width() / std::max(1, al_.columns),
                   r.top() + (row + 0.5) * r.height() / rows)
        .toPoint();
}

void AllocationView::pick(int job) {
    picked_ = job;
    update();
    emit jobPicked(job);
}

void AllocationView::mousePressEvent(QMouseEvent* e) {
    const auto [row, col] = cellAt(e->position().toPoint());
    if (row < 0) {
        QWidget::mousePressEvent(e);
        return;
    }
    const int j = al_.at(static_cast<std::size_t>(row), static_cast<std::size_t>(col));
    pick(j >= 0 ? j : -1); // an idle or repaired node clears the pick
}

void AllocationView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QRectF r = plot();
    const int rows = static_cast<int>(al_.node_rows.size());
    if (rows == 0 || al_.columns == 0)
        return;
    const double cw = r.width() / al_.columns, rh = r.height() / rows;
    const QColor idle = palette().window().color().darker(112);
    const QColor down(0x7f, 0x1d, 0x1d);
    for (int row = 0; row < rows; ++row)
        for (int col = 0; col < al_.columns; ++col) {
            const int j = al_.at(static_cast<std::size_t>(row), static_cast<std::size_t>(col));
            QColor c = j == model::FleetAllocation::kDown ? down
                       : j < 0                            ? idle
                               : classColour(al_.jobs[static_cast<std::size_t>(j)].cls);
            if (picked_ >= 0 && j >= 0 && j != picked_)
                c = c.lighter(150); // the picked job stands out
            const QRectF cell(r.left() + col * cw, r.top() + row * rh, cw + 0.5, rh + 0.5);
            // A node partly held: the share its jobs hold, from the bottom, the rest idle
            // (helper-31: a 4-GPU job filled an 8-GPU node's whole row).
            const double held =
                j >= 0 ? al_.held_at(static_cast<std::size_t>(row), static_cast<std::size_t>(col))
                       : 1.0;
            if (held < 1.0) {
                p.fillRect(cell, idle);
                p.fillRect(QRectF(cell.left(), cell.bottom() - cell.height() * held, cell.width(),
                                  cell.height() * held),
                           c);
            } else {
                p.fillRect(cell, c);
            }
        }
    // The picked job's cells in a dark shade of its class (outlines vanish on cells a pixel
    // or two wide).
    if (picked_ >= 0) {
        const QColor dark =
            classColour(al_.jobs[static_cast<std::size_t>(picked_)].cls).darker(220);
        for (int row = 0; row < rows; ++row)
            for (int col = 0; col < al_.columns; ++col)
                if (al_.at(static_cast<std::size_t>(row), static_cast<std::size_t>(col)) ==
                    picked_) {
                    const double held =
                        al_.held_at(static_cast<std::size_t>(row), static_cast<std::size_t>(col));
                    p.fillRect(QRectF(r.left() + col * cw,
                                      r.top() + row * rh + (rh + 0.5) * (1.0 - held), cw + 0.5,
                                      (rh + 0.5) * held),
                               dark);
                }
    }
    // Node numbers at the first, middle and last rows.
    p.setPen(palette().text().color());
    const QLocale en(QLocale::English);
    for (int row : {0, rows / 2, rows - 1}) {
        const QRectF lr(0, r.top() + row * rh + rh / 2 - 8, r.left() - 4, 16);
        p.drawText(lr, Qt::AlignRight | Qt::AlignVCenter,
                   tr("node %1").arg(en.toString(al_.node_rows[static_cast<std::size_t>(row)])));
    }
    // Days under the plot: the first, the middle and the last sample.
    const int fh = fontMetrics().height();
    const double dy = r.bottom() + 2;
    const double days = horizon_s_ / 86400;
    p.drawText(QRectF(r.left(), dy, r.width() / 3, fh), Qt::AlignLeft | Qt::AlignVCenter,
               tr("day 0"));
    p.drawText(QRectF(r.left() + r.width() / 3, dy, r.width() / 3, fh), Qt::AlignCenter,
               tr("day %1").arg(days / 2, 0, 'f', days / 2 >= 10 ? 0 : 1));
    p.drawText(QRectF(r.left() + 2 * r.width() / 3, dy, r.width() / 3, fh),
               Qt::AlignRight | Qt::AlignVCenter,
               tr("day %1").arg(days, 0, 'f', days >= 10 ? 0 : 1));
    // Legend: a swatch per class, idle, out for repair; and what the rows are; wrapped.
    int lines = 1;
    const auto at = legendLayout(r.left(), width() - 4, &lines);
    const auto items = legendItems();
    for (std::size_t i = 0; i < items.size(); ++i) {
        const double x = at[i].x(), y = dy + fh * (1 + at[i].y());
        double tx = x;
        if (items[i].first.isValid()) {
            p.fillRect(QRectF(x, y + 3, 10, fh - 6), items[i].first);
            tx += 13;
        }
        p.drawText(QRectF(tx, y, std::max(0.0, width() - tx), fh), Qt::AlignLeft | Qt::AlignVCenter,
                   items[i].second);
    }
}

FleetChart::FleetChart(QWidget* parent)
    : ChartPage(tr("The job mix on this cluster: busy GPUs and waiting jobs"),
                tr("Describe the jobs this cluster runs: click the empty canvas and, in the "
                   "inspector's Fleet section, give a class of jobs arrivals per hour."),
                parent) {
    // Issue 23: the allocation timeline under the utilization chart, the picked job in words.
    alloc_ = new AllocationView;
    jobLabel_ = new QLabel;
    jobLabel_->setObjectName(QStringLiteral("fleetJob"));
    jobLabel_->setWordWrap(true);
    jobLabel_->setTextFormat(Qt::PlainText); // class names come from files
    jobLabel_->setText(tr("Click a job on the allocation timeline to see where and when it ran."));
    // Side by side: the dock is wide and short, and both need its height. The picked job's
    // words under the timeline, not a row under both (helper-13: with Large Charts at 1280 x
    // 800 the utilization chart had 279 px of plot under the caption and that row).
    QWidget* page = view_->parentWidget(); // the chart and its caption, one above the other
    if (auto* v = qobject_cast<QVBoxLayout*>(page->layout())) {
        v->removeWidget(view_);
        auto* row = new QWidget;
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(view_, 3);
        auto* right = new QWidget;
        auto* rv = new QVBoxLayout(right);
        rv->setContentsMargins(0, 0, 0, 0);
        rv->addWidget(alloc_, 1);
        rv->addWidget(jobLabel_);
        h->addWidget(right, 2);
        v->insertWidget(0, row, 1);
        // The caption is in its scrolling box (buildChartPage), under the row.
    }
    connect(alloc_, &AllocationView::jobPicked, this, &FleetChart::describePick);
}

QString FleetChart::pickedJobText() const {
    return jobLabel_->text();
}

void FleetChart::describePick(int job) {
    const auto& al = alloc_->allocation();
    if (job < 0 || job >= static_cast<int>(al.jobs.size())) {
        jobLabel_->setText(
            tr("Click a job on the allocation timeline to see where and when it ran."));
        emit jobSelected(nullptr);
        return;
    }
    const model::FleetAllocJob& j = al.jobs[static_cast<std::size_t>(job)];
    const QLocale en(QLocale::English);
    const QString cls = j.cls >= 0 && j.cls < static_cast<int>(classNames_.size())
                            ? QString::fromStdString(classNames_[static_cast<std::size_t>(j.cls)])
                            : tr("unnamed");
    // "8 GPUs", "1 GPU", "3 MIG instances", "1 time-sliced replica"
    const auto units = [&](int n, bool mig) {
        return en.toString(n) + QLatin1Char(' ') +
               (mig ? (n == 1 ? tr("MIG instance") : tr("MIG instances"))
                : j.time_sliced
                    ? (n == 1 ? tr("time-sliced GPU replica") : tr("time-sliced GPU replicas"))
                    : (n == 1 ? tr("GPU") : tr("GPUs")));
    };
    QStringList nodes;
    for (const auto& [n, g] : j.nodes) {
        if (nodes.size() == 6) {
            nodes << tr("… (%1 nodes in all)").arg(en.toString(static_cast<int>(j.nodes.size())));
            break;
        }
        // One node holding the whole job: its units are said once (helper-15: "held 1
        // time-sliced GPU replica ... on node 30 (1 time-sliced GPU replica)").
        nodes << (j.nodes.size() == 1 && g == j.gpus
                      ? tr("node %1").arg(en.toString(n))
                      : tr("node %1 (%2)").arg(en.toString(n), units(g, j.mig)));
    }
    // Leaf switches under a multi-node job (whole-GPU nodes; MIG nodes are not leaf-placed).
    const QString leaves =
        !j.mig && j.nodes.size() > 1
            ? (j.leaves == 1 ? tr(", under one leaf switch")
                             : tr(", under %1 leaf switches").arg(en.toString(j.leaves)))
            : QString();
    // A run shorter than a tenth of a day reads as its hours, not "from day 23.9 to day 23.9".
    const double span = j.end_s - j.start_s;
    const QString when = span < 8640 ? tr("on day %1 for %2 h")
                                           .arg(j.start_s / 86400, 0, 'f', 1)
                                           .arg(span / 3600, 0, 'f', span < 360 ? 2 : 1)
                                     : tr("from day %1 to day %2")
                                           .arg(j.start_s / 86400, 0, 'f', 1)
                                           .arg(j.end_s / 86400, 0, 'f', 1);
    jobLabel_->setText(tr("A job of class %1 held %2 %3%4 on %5%6.")
                           .arg(cls, units(j.gpus, j.mig), when)
                           .arg(j.running_at_end ? tr(" (still running at the end)") : QString())
                           .arg(nodes.join(QStringLiteral(", ")), leaves));
    emit jobSelected(&j);
}

void FleetChart::setEvaluation(const model::Evaluation& ev) {
    samples_ = ev.fleet ? static_cast<int>(ev.fleet->timeline.size()) : 0;
    // A new run: the old pick means nothing in it.
    const bool hadPick = alloc_->picked() >= 0;
    classNames_.clear();
    if (ev.fleet) {
        for (const auto& c : ev.fleet->classes)
            classNames_.push_back(c.name);
        alloc_->setAllocation(*ev.fleet, static_cast<int>(ev.topology.nodes));
    } else {
        alloc_->setAllocation(model::FleetResult{}, 0);
    }
    if (hadPick)
        describePick(-1);
    utilization_ = ev.fleet ? ev.fleet->utilization : 0;
    if (!ev.fleet) {
        if (!ev.fleet_error.empty())
            // Core words it for people, without the design's keys (Evaluation::fleet_error).
            empty_->setText(tr("The job mix cannot be simulated: %1")
                                .arg(QString::fromStdString(ev.fleet_error)));
        else
            empty_->setText(tr("Describe the jobs this cluster runs: click the empty canvas and, "
                               "in the inspector's Fleet section, give a class of jobs arrivals "
                               "per hour."));
        showChart(false);
        return;
    }
    showChart(true);
    const model::FleetResult& f = *ev.fleet;
    clearChart(chart_);
    // A replay runs the recorded jobs, not the classes (helper-34: "the job mix" over a trace).
    chart_->setTitle(f.trace_jobs > 0 ? tr("The job trace on this cluster: busy GPUs and waiting "
                                           "jobs")
                                      : tr("The job mix on this cluster: busy GPUs and waiting "
                                           "jobs"));
    const double gpus = std::max(1.0, ev.topology.gpus);
    QList<QPointF> busy, waiting;
    double wmax = 1;
    for (const auto& p : f.timeline) {
        busy << QPointF(p.t_s / 86400, 100 * p.busy_gpus / gpus);
        waiting << QPointF(p.t_s / 86400, p.waiting_jobs);
        wmax = std::max(wmax, p.waiting_jobs);
    }
    const auto count = [](double v) {
        return QString::fromStdString(model::units::format_count(v));
    };
    auto* b = line(tr("busy GPUs (% of %1)").arg(count(gpus)), QColor(0x3b, 0x82, 0xf6), busy);
    auto* w = line(tr("jobs waiting"), QColor(0xdc, 0x26, 0x26), waiting, Qt::DashLine);
    chart_->addSeries(b);
    chart_->addSeries(w);
    const double days = f.timeline.empty() ? 1 : f.timeline.back().t_s / 86400;
    // Whole-number ticks at a 1-2-5 step (days and jobs are counted, not measured).
    auto* ax = new QValueAxis;
    ax->setTitleText(tr("days"));
    niceAxis(ax, 0, days, 8, 1);
    auto* ay = new QValueAxis;
    ay->setTitleText(tr("busy GPUs (%)"));
    ay->setRange(0, 100);
    ay->setLabelFormat(QStringLiteral("%.0f"));
    auto* aw = new QValueAxis;
    aw->setTitleText(tr("jobs waiting"));
    niceAxis(aw, 0, wmax, 8, 1);
    chart_->addAxis(ax, Qt::AlignBottom);
    chart_->addAxis(ay, Qt::AlignLeft);
    chart_->addAxis(aw, Qt::AlignRight);
    b->attachAxis(ax);
    b->attachAxis(ay);
    w->attachAxis(ax);
    w->attachAxis(aw);
    for (auto* s : {b, w})
        connect(s, &QLineSeries::hovered, this, [s](const QPointF& pt, bool on) {
            if (on)
                QToolTip::showText(QCursor::pos(), tr("day %1: %2 %3")
                                                       .arg(pt.x(), 0, 'f', 1)
                                                       .arg(pt.y(), 0, 'f', 0)
                                                       .arg(s->name()));
        });
    // The numbers, in words (over the measured window: the warm-up is left out).
    const auto dur = [](double sec) {
        return sec < 60     ? tr("%1 s").arg(sec, 0, 'f', 0)
               : sec < 3600 ? tr("%1 min").arg(sec / 60, 0, 'f', 0)
                            : tr("%1 h").arg(sec / 3600, 0, 'f', 1);
    };
    // A replayed trace first: what ran is the recorded jobs, not the classes. Its file's name is
    // shown as plain text (a name from a file).
    caption_->setTextFormat(Qt::PlainText);
    QString cap;
    if (f.trace_jobs > 0)
        cap =
            tr("Replaying the job trace %1 (%2 jobs as submitted; Tools > Remove Job Trace runs "
               "the classes again)%3. ")
                .arg(QString::fromStdString(f.trace_name), count(static_cast<double>(f.trace_jobs)),
                     f.trace_jobs_too_large > 0
                         ? tr("; %1 larger than the cluster left out")
                               .arg(count(static_cast<double>(f.trace_jobs_too_large)))
                         : QString());
    // "(the warm-up ... left out)" only when there is one (a replayed trace has none).
    cap += tr("Utilization %1 % of %2 GPUs from day %3 to %4%5; %6 completed; GPUs idle "
              "while a job waited that did not fit (fragmentation) %7 % of GPU-hours.")
               .arg(f.utilization * 100, 0, 'f', 1)
               .arg(count(gpus))
               .arg(f.warmup_s / 86400, 0, 'f', 0)
               .arg(days, 0, 'f', days < 10 ? 1 : 0)
               .arg(f.warmup_s > 0 ? tr(" (the warm-up before it is left out)") : QString())
               .arg(f.jobs_completed == 1
                        ? tr("1 job")
                        : tr("%1 jobs").arg(count(static_cast<double>(f.jobs_completed))))
               .arg(f.fragmentation_fraction * 100, 0, 'f', 1);
    // Idle GPUs a waiting job could have used: the policy's (a FIFO head) or a quota's, not
    // fragmentation (helper-36).
    if (f.held_back_fraction >= 0.0005)
        cap += tr(" GPUs idle while a job that would fit waited behind the queue's head or its "
                  "quota %1 % of GPU-hours.")
                   .arg(f.held_back_fraction * 100, 0, 'f', 1);
    // How far another run of this length might land (helper-36: seeds 1-3 gave 63.9, 65.8
    // and 48.9 % with nothing saying so): 95 % batch-means intervals.
    if (f.utilization_ci95 > 0)
        cap +=
            tr(" One run: another seed over the same days lands within about ±%1 points of "
               "utilization%2 (95 % interval from the run's ten stretches).")
                .arg(f.utilization_ci95 * 100, 0, 'f', 1)
                .arg(f.wait_mean_ci95_s > 0 ? tr(" and ±%1 of the mean wait (%2)")
                                                  .arg(dur(f.wait_mean_ci95_s), dur(f.wait_mean_s))
                                            : QString());
    if (f.multi_node_runs > 0)
        cap += tr(" Multi-node runs: %1 of %2 split over more leaf switches than they need (%3 "
                  "nodes per leaf; %4 leaves per run on average).")
                   .arg(count(static_cast<double>(f.multi_node_runs_split)),
                        count(static_cast<double>(f.multi_node_runs)),
                        count(static_cast<double>(f.nodes_per_leaf)))
                   .arg(f.mean_leaves_per_multi_node_run(), 0, 'f', 2);
    if (f.split_gpu_hours > 0) {
        // What the split cost: from the training model of the classes that take their duration
        // from a workload (their traffic over the leaf uplinks).
        QStringList slower;
        for (const auto& c : f.classes)
            if (c.split_slowdown > 1)
                slower << tr("%1 %2 % slower split")
                              .arg(QString::fromStdString(c.name))
                              .arg((c.split_slowdown - 1) * 100, 0, 'f', 1);
        cap += tr(" Split runs took %1 GPU-hours longer (%2 % of those used; %3).")
                   .arg(count(f.split_gpu_hours))
                   .arg(f.split_gpu_hours / std::max(1e-9, f.gpu_hours_used) * 100, 0, 'f', 2)
                   .arg(slower.join(QStringLiteral(", ")));
    }
    QStringList waits;
    for (const auto& c : f.classes)
        // A class none of whose jobs started has no wait to report, not waits of 0 s
        // (helper-15: "0 s mean" beside 52,479 jobs still waiting).
        // A replayed trace's class whose jobs were all too large ran none (and a replay has
        // no warm-up): say which (helper-34: "none started after the warm-up").
        waits << (c.waits_counted == 0
                      ? (c.jobs_too_large > 0 && c.jobs_started == 0
                             ? tr("%1 left out (larger than the cluster's whole-GPU nodes)")
                         : f.warmup_s > 0 ? tr("%1 none started after the warm-up")
                                          : tr("%1 none started"))
                            .arg(QString::fromStdString(c.name))
                      : tr("%1 %2 mean, %3 at the 95th percentile")
                            .arg(QString::fromStdString(c.name), dur(c.wait_mean_s),
                                 dur(c.wait_p95_s)));
    cap += tr(" Waits: %1.").arg(waits.join(QStringLiteral("; ")));
    // Durations from the training model (issue 23).
    for (const auto& c : f.classes)
        if (!c.duration_source.empty())
            cap += tr(" %1: %2 per job on average, from %3.")
                       .arg(QString::fromStdString(c.name), dur(c.mean_duration_h * 3600),
                            QString::fromStdString(c.duration_source));
    // Team quotas (issue 23): what each team held, and how often it was at its quota.
    // With borrowing (a Kueue cohort): what each borrowed beyond its quota, and its jobs
    // evicted to give lent GPUs back.
    QStringList quotas;
    for (const auto& c : f.classes)
        if (c.quota > 0) {
            QString q =
                tr("%1 held %2 on average of its %3, at the quota %4 of the time")
                    .arg(QString::fromStdString(c.name), count(c.mean_held),
                         c.quota == 1 ? tr("1 GPU")
                                      : tr("%1 GPUs").arg(count(static_cast<double>(c.quota))),
                         QString::fromStdString(model::report_human(c.at_quota_fraction,
                                                                    model::ReportFormat::percent)));
            if (c.mean_borrowed >= 0.05)
                q += tr(", %1 more borrowed from the other teams' quotas")
                         .arg(QString::fromStdString(model::units::format_fixed(
                             c.mean_borrowed, c.mean_borrowed < 10 ? 1 : 0)));
            if (c.reclaimed > 0)
                q += tr(", %1 of its jobs evicted to give lent GPUs back")
                         .arg(count(static_cast<double>(c.reclaimed)));
            quotas << q;
        }
    if (!quotas.isEmpty())
        cap += tr(" Quotas: %1.").arg(quotas.join(QStringLiteral("; ")));
    if (f.jobs_waiting_at_end > 0)
        cap += (f.jobs_waiting_at_end == 1
                    ? tr(" 1 job was still waiting at the end, for %2: its wait is in no "
                         "figure above.")
                    : tr(" %1 jobs were still waiting at the end, the oldest for %2: their waits "
                         "are in no figure above.")
                          .arg(count(static_cast<double>(f.jobs_waiting_at_end))))
                   .replace(QStringLiteral("%2"), dur(f.longest_wait_at_end_s));
    if (f.mig_instances > 0)
        cap +=
            tr(" MIG: %1 instances of %2 on %3, %4 % busy (%5).")
                .arg(count(static_cast<double>(f.mig_instances)),
                     QString::fromStdString(f.mig_profile),
                     f.mig_nodes == 1 ? tr("1 node")
                                      : tr("%1 nodes").arg(count(static_cast<double>(f.mig_nodes))))
                .arg(f.mig_utilization * 100, 0, 'f', 1)
                .arg(f.mig_instances_per_gpu == 1
                         ? tr("one per GPU: each counts as a whole GPU above")
                         : tr("each counts as 1/%1 of a GPU above").arg(f.mig_instances_per_gpu));
    // Nodes set aside that no job used (helper-15: time-sliced or MIG nodes left after the
    // class that ran there was moved; they read as idle GPUs and "fragmentation").
    if (f.timeslice_nodes > 0 && f.timeslice_allocated <= 0)
        cap += (f.trace_name.empty()
                    ? tr(" No job ran on the %1 time-sliced GPUs: no class is on time-sliced "
                         "GPUs, so they stay idle.")
                    : tr(" No job ran on the %1 time-sliced GPUs: the trace's jobs take whole "
                         "GPUs (only jobs asking for part of a GPU run there), so they stay idle; "
                         "set Time-sliced nodes to 0 to give them to the trace."))
                   .arg(count(static_cast<double>(f.timeslice_gpus)));
    if (f.mig_instances > 0 && f.mig_utilization <= 0)
        cap += f.trace_name.empty()
                   ? tr(" No job ran on the MIG nodes: no class is on MIG instances, so they "
                        "stay idle.")
                   : tr(" No job ran on the MIG nodes: the trace's jobs take whole GPUs, so they "
                        "stay idle; set MIG nodes to 0 to give them to the trace.");
    if (f.timeslice_nodes > 0 && f.timeslice_allocated > 0) {
        // Time-slicing: busy vs held, and how much slower sharing made each sliced class.
        QStringList slow;
        for (const auto& k : f.classes)
            if (k.time_sliced && k.slowdown > 0)
                slow << tr("%1 ran %2× their time alone")
                            .arg(QString::fromStdString(k.name))
                            .arg(k.slowdown, 0, 'f', 2);
        // Memory: jobs share a GPU only while they fit in it together.
        for (const auto& k : f.classes)
            if (k.time_sliced && k.gpu_memory_bytes > 0 &&
                k.jobs_per_gpu_at_most < f.timeslice_replicas)
                slow << tr("%1 fit %2 to a GPU by memory (%3 each of %4)")
                            .arg(QString::fromStdString(k.name))
                            .arg(k.jobs_per_gpu_at_most)
                            .arg(QString::fromStdString(
                                     cl::model::units::format_bytes(k.gpu_memory_bytes)),
                                 QString::fromStdString(
                                     cl::model::units::format_bytes(f.timeslice_gpu_memory_bytes)));
        // Switching between the jobs of a shared GPU: busy time that is no job's work.
        if (f.gpu_hours_switching > 0)
            slow << tr("%1 GPU-hours went to switching between jobs (a shared GPU keeps %2 % of "
                       "its throughput)")
                        .arg(count(f.gpu_hours_switching))
                        .arg(f.timeslice_efficiency * 100, 0, 'f', 0);
        cap += tr(" Time-slicing: %1 GPUs on %2, %3 jobs each at most; %4 % busy, holding a "
                  "job %5 % of the time (%6 jobs on each on average)%7.")
                   .arg(count(static_cast<double>(f.timeslice_gpus)),
                        f.timeslice_nodes == 1
                            ? tr("1 node")
                            : tr("%1 nodes").arg(count(static_cast<double>(f.timeslice_nodes))),
                        count(static_cast<double>(f.timeslice_replicas)))
                   .arg(f.timeslice_utilization * 100, 0, 'f', 1)
                   .arg(f.timeslice_allocated * 100, 0, 'f', 1)
                   .arg(f.timeslice_jobs_per_gpu, 0, 'f', 1)
                   .arg(slow.isEmpty() ? QString()
                                       : QStringLiteral("; ") + slow.join(QStringLiteral("; ")));
    }
    if (f.preemptions > 0)
        cap +=
            tr(" %1 evictions for higher priority lost %2 GPU-hours (work since a checkpoint "
               "and restarts).")
                .arg(count(static_cast<double>(f.preemptions)), count(f.gpu_hours_lost_preemption));
    if (f.node_failures > 0)
        cap +=
            tr(" %1 (at the Reliability section's rate; %2 % of GPU-hours out for repair) %3")
                .arg(f.node_failures == 1
                         ? tr("1 node failure")
                         : tr("%1 node failures").arg(count(static_cast<double>(f.node_failures))))
                .arg(f.down_fraction * 100, 0, 'f', 1)
                // None was running on the failed nodes (helper-13: "stopped 0 jobs, which
                // lost 0 GPU-hours"); counts of one singular (helper-14: "stopped 1 jobs").
                .arg(f.interruptions == 0
                         ? tr("stopped no job.")
                         : tr("stopped %1, which lost %2 GPU-hours (work since a checkpoint and "
                              "restarts).")
                               .arg(f.interruptions == 1
                                        ? tr("1 job")
                                        : tr("%1 jobs").arg(
                                              count(static_cast<double>(f.interruptions))),
                                    count(f.gpu_hours_lost_failures)));
    if (f.gpu_hours_lost_failures + f.gpu_hours_lost_preemption + f.gpu_hours_switching > 0)
        cap += tr(" Useful work: %1 % of GPU-hours.").arg(f.useful_fraction * 100, 0, 'f', 1);
    if (f.jobs_burst > 0) {
        // Where they ran and at what price; on spot, the work preemptions made them redo.
        const QString price =
            f.burst_usd_per_gpu_hour > 0
                ? tr(" at $%1 per GPU-hour, %2")
                      .arg(QString::fromStdString(
                               model::units::format_price(f.burst_usd_per_gpu_hour)),
                           money(f.burst_usd))
            : f.burst_unpriced.empty()
                ? QString()
                : tr(", not priced: %1").arg(QString::fromStdString(f.burst_unpriced));
        cap += (f.burst_on_spot
                    ? tr(" %1 jobs burst to spot capacity after waiting their limit: %2 GPU-hours "
                         "(%3 of them redone after spot preemptions)%4.")
                          .arg(count(static_cast<double>(f.jobs_burst)), count(f.burst_gpu_hours),
                               count(f.burst_gpu_hours_redone), price)
                    : tr(" %1 jobs burst to on-demand cloud capacity after waiting their limit: "
                         "%2 GPU-hours%3.")
                          .arg(count(static_cast<double>(f.jobs_burst)), count(f.burst_gpu_hours),
                               price));
    }
    if (f.useful_gpu_hour_usd > 0)
        cap += tr(" Owning costs %1 per useful GPU-hour at this utilization.")
                   .arg(QStringLiteral("$%1").arg(
                       QString::fromStdString(model::units::format_price(f.useful_gpu_hour_usd))));
    if (ev.tco)
        cap += ev.tco->utilization_source == "economics.utilization"
                   ? tr(" The Cost tab bills the typed utilization (%1 %), not this one.")
                         .arg(ev.tco->utilization * 100, 0, 'f', 0)
                   : tr(" The Cost tab bills this utilization.");
    caption_->setText(cap);
    // The whole text on hover too, however little of it the box shows.
    caption_->setToolTip(QStringLiteral("<p>%1</p>").arg(cap.toHtmlEscaped())); // wrapped
}

ReliabilityChart::ReliabilityChart(QWidget* parent)
    : ChartPage(tr("Goodput vs checkpoint interval"),
                tr("Add a training workload to see failures, checkpoints and goodput."), parent) {}

void ReliabilityChart::setEvaluation(const model::Evaluation& ev, const std::string& focus) {
    const model::WorkloadEvaluation* w = pickWorkload(
        ev, focus, [](const auto& x) { return x.reliability && !x.reliability->curve.empty(); });
    points_ = w ? static_cast<int>(w->reliability->curve.size()) : 0;
    if (!w) {
        empty_->setText(trainingHint(
            ev, tr("Add a training workload to see failures, checkpoints and goodput.")));
        empty_->setWordWrap(true);
        showChart(false);
        return;
    }
    showChart(true);
    const model::ReliabilityResult& r = *w->reliability;
    goodput_ = r.goodput;
    clearChart(chart_);
    QList<QPointF> pts;
    double ymin = 1;
    for (const auto& p : r.curve) {
        pts << QPointF(p.interval_s / 60.0, p.goodput * 100);
        ymin = std::min(ymin, p.goodput);
    }
    auto* g = line(QString::fromStdString(w->name), QColor(0x3b, 0x82, 0xf6), pts);
    auto* opt = new QScatterSeries;
    // In the unit that reads best ("10.0 s", "49.1 min", "2.5 h"; helper-6: "chosen: 0.2 min").
    const auto span = [](double s) {
        return QString::fromStdString(model::report_human(s, model::ReportFormat::seconds));
    };
    opt->setName(tr("optimal (Daly): %1").arg(span(r.optimal_checkpoint_interval_s)));
    opt->setMarkerSize(11);
    opt->setColor(QColor(0x16, 0xa3, 0x4a));
    opt->append(r.optimal_checkpoint_interval_s / 60, r.optimal_goodput * 100);
    chart_->addSeries(g);
    chart_->addSeries(opt);
    connect(g, &QLineSeries::hovered, this, [](const QPointF& pt, bool on) {
        if (on)
            QToolTip::showText(
                QCursor::pos(),
                tr("every %1 min: goodput %2 %").arg(pt.x(), 0, 'f', 1).arg(pt.y(), 0, 'f', 2));
    });
    QList<QAbstractSeries*> all{g, opt};
    if (std::abs(r.interval_used_s - r.optimal_checkpoint_interval_s) > 1e-6) {
        auto* used = new QScatterSeries;
        used->setName(tr("chosen: %1").arg(span(r.interval_used_s)));
        used->setMarkerSize(11);
        used->setColor(QColor(0xdc, 0x26, 0x26));
        used->append(r.interval_used_s / 60, r.goodput * 100);
        chart_->addSeries(used);
        all << used;
    }
    auto* ax = new QLogValueAxis;
    ax->setTitleText(tr("checkpoint interval (minutes, log scale)"));
    ax->setBase(10);
    ax->setLabelFormat(QStringLiteral("%.6g"));
    ax->setRange(r.curve.front().interval_s / 60, r.curve.back().interval_s / 60);
    auto* ay = new QValueAxis;
    ay->setTitleText(tr("goodput (%)"));
    niceAxis(ay, std::max(0.0, ymin * 100 - 2), 100);
    chart_->addAxis(ax, Qt::AlignBottom);
    chart_->addAxis(ay, Qt::AlignLeft);
    for (auto* s : all) {
        s->attachAxis(ax);
        s->attachAxis(ay);
    }
    // Sizes, times, shares and money as the report prints them (helper-6: "98.73%" here and
    // "98.7 %" in the summary; "988 GB" and "987.8 GB"; "$26.7k" and "$26,740").
    const auto human = [](double v, model::ReportFormat f) {
        return QString::fromStdString(model::report_human(v, f));
    };
    using RF = model::ReportFormat;
    caption_->setText(
        tr("%1 on %2 GPUs: job MTBF %3 h (%4 interruptions/day); checkpoint %5 written in %6 "
           "(stall %7); goodput %8 at a %9 interval; over %10 %11 GPU-hours and "
           "%12 lost to failures; %13 spare nodes; stragglers +%14 %.")
            .arg(QString::fromStdString(w->name))
            .arg(QString::fromStdString(model::units::format_count(w->gpus)))
            .arg(r.job_mtbf_s >= 100 * 3600
                     ? QString::fromStdString(model::units::format_count(r.job_mtbf_s / 3600))
                     : QString::number(r.job_mtbf_s / 3600, 'f', 1))
            // As the reliability table prints them (helper-10: "0.5" here, "0.481" there;
            // "8.0 s" and "7.96 s").
            .arg(human(r.expected_interruptions_per_day, RF::number))
            .arg(human(r.checkpoint_bytes, RF::bytes))
            .arg(human(r.checkpoint_write_s, RF::seconds))
            .arg(human(r.checkpoint_stall_s, RF::seconds))
            .arg(human(r.goodput, RF::percent))
            .arg(human(r.interval_used_s, RF::seconds))
            .arg(human(r.run_days * 86400, RF::seconds))
            .arg(QString::fromStdString(model::units::format_count(r.lost_gpu_hours)))
            .arg(human(r.lost_usd, RF::usd))
            .arg(r.spare_nodes, 0, 'f', 0)
            .arg((r.straggler_slowdown - 1) * 100, 0, 'f', 1));
    // What the model assumed or adjusted (a run length assumed, an interval raised, an optimum
    // checkpoints cannot keep up with), said beside the numbers it changed.
    QStringList notes;
    for (const auto& n : r.notes)
        notes << QString::fromStdString(n);
    if (!notes.isEmpty())
        caption_->setText(caption_->text() +
                          tr(" Notes: %1.").arg(notes.join(QStringLiteral("; "))));
}

} // namespace cl::ui

namespace cl::ui {

SensitivityChart::SensitivityChart(QWidget* parent) : QWidget(parent) {
    // The page frame lives in an inner widget so the output selector can sit above it.
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Output:")));
    output_ = new QComboBox;
    output_->setObjectName(QStringLiteral("sensitivityOutput"));
    for (auto o : {model::SensitivityOutput::onprem_minus_cloud_usd,
                   model::SensitivityOutput::amortized_usd_per_gpu_hour,
                   model::SensitivityOutput::training_cost_usd,
                   model::SensitivityOutput::usd_per_million_tokens})
        output_->addItem(QString::fromLatin1(model::sensitivity_output_name(o)),
                         static_cast<int>(o));
    row->addWidget(output_);
    row->addStretch(1);
    v->addLayout(row);
    auto* page = new QWidget(this);
    buildChartPage(page, QString(),
                   tr("Add hardware (for cost outputs) or a workload with a price to see which "
                      "inputs matter most."),
                   chart_, view_, empty_, caption_);
    v->addWidget(page, 1);
    connect(output_, &QComboBox::currentIndexChanged, this, [this] {
        stale_ = true;
        recompute();
    });
}

void SensitivityChart::setRunner(doc::SensitivityRunner* runner) {
    runner_ = runner;
    connect(runner_, &doc::SensitivityRunner::finished, this,
            [this](std::shared_ptr<const model::SensitivityResult> r) {
                // Only the output the selector shows now (an older request may still finish).
                if (r && static_cast<int>(r->output) == output_->currentData().toInt())
                    showResult(*r);
            });
}

void SensitivityChart::markStale() {
    stale_ = true;
    if (isVisible())
        recompute();
}

void SensitivityChart::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    recompute();
}

void SensitivityChart::recompute() {
    if (!stale_ || !runner_)
        return;
    stale_ = false;
    runner_->request(static_cast<model::SensitivityOutput>(output_->currentData().toInt()));
}

void SensitivityChart::showResult(const model::SensitivityResult& r) {
    const auto out = r.output;
    auto* stack = static_cast<QStackedLayout*>(view_->parentWidget()->parentWidget()->layout());
    bars_ = static_cast<int>(r.bars.size());
    inputs_.clear();
    if (r.bars.empty()) {
        empty_->setText(r.error.empty()
                            ? tr("No input moves this output.")
                            : tr("Cannot compute %1: %2")
                                  .arg(QString::fromLatin1(model::sensitivity_output_name(out)),
                                       QString::fromStdString(r.error)));
        stack->setCurrentIndex(1);
        return;
    }
    stack->setCurrentIndex(0);
    clearChart(chart_);
    const std::size_t n = std::min<std::size_t>(r.bars.size(), 6);
    // Money in millions when large, so axis labels stay short.
    const double scale = std::abs(r.base) >= 1e5 ? 1e6 : 1.0;
    auto* down = new QBarSet(tr("input −20 %"));
    auto* up = new QBarSet(tr("input +20 %"));
    down->setColor(QColor(0x3b, 0x82, 0xf6));
    up->setColor(QColor(0xf5, 0x9e, 0x0b));
    QStringList cats;
    double lim = 0;
    // Largest swing on top: horizontal bar categories run bottom-up.
    for (std::size_t k = n; k-- > 0;) {
        const auto& b = r.bars[k];
        // Issue 19: a swing smaller than the model's typical error is marked as such.
        cats << QString::fromStdString(b.input) +
                    (b.within_model_error ? tr(" (within the model's error)") : QString());
        *down << (b.output_low - r.base) / scale;
        *up << (b.output_high - r.base) / scale;
        lim = std::max({lim, std::abs(b.output_low - r.base) / scale,
                        std::abs(b.output_high - r.base) / scale});
    }
    for (std::size_t k = 0; k < n; ++k)
        inputs_ << QString::fromStdString(r.bars[k].input);
    auto* series = new QHorizontalBarSeries;
    series->append(down);
    series->append(up);
    chart_->addSeries(series);
    auto* ay = new QBarCategoryAxis;
    ay->append(cats);
    QFont lf = ay->labelsFont();
    lf.setPointSizeF(lf.pointSizeF() * 0.85);
    ay->setLabelsFont(lf);
    ay->setTruncateLabels(false);
    auto* ax = new QValueAxis;
    ax->setTitleText(tr("change of %1%2")
                         .arg(QString::fromLatin1(model::sensitivity_output_name(out)))
                         .arg(scale > 1 ? tr(", millions") : QString()));
    niceAxis(ax, -lim * 1.1, lim * 1.1); // symmetric, whole steps from 0
    chart_->addAxis(ay, Qt::AlignLeft);
    chart_->addAxis(ax, Qt::AlignBottom);
    series->attachAxis(ay);
    series->attachAxis(ax);
    for (auto* set : {down, up})
        connect(set, &QBarSet::hovered, this, [set, cats](bool on, int i) {
            if (on)
                QToolTip::showText(QCursor::pos(), QStringLiteral("%1: %2 %3")
                                                       .arg(cats.value(i), set->label())
                                                       .arg(set->at(i), 0, 'f', 2));
        });
    const auto money = [](double v) {
        return QString::fromStdString(model::report_human(
            v, std::abs(v) >= 100 ? model::ReportFormat::usd : model::ReportFormat::usd_rate));
    };
    caption_->setText(
        tr("Each input −20 % / +20 % with the rest held. Base %1 = %2. Largest: %3 "
           "(%4 → %5 as the input goes %6 → %7).")
            .arg(QString::fromLatin1(model::sensitivity_output_name(out)))
            .arg(money(r.base))
            .arg(QString::fromStdString(r.bars[0].input))
            .arg(money(r.bars[0].output_low))
            .arg(money(r.bars[0].output_high))
            .arg(QString::fromStdString(model::report_value(r.bars[0].low_value, r.bars[0].unit)))
            .arg(
                QString::fromStdString(model::report_value(r.bars[0].high_value, r.bars[0].unit))) +
        (r.model_error > 0 ? tr(" The model's typical error of this output is %1 % (held-out "
                                "published runs): a swing smaller than that is marked \"within "
                                "the model's error\".")
                                 .arg(r.model_error * 100, 0, 'f', 0)
                           : QString()));
}

} // namespace cl::ui

namespace cl::ui {

ScalingChart::ScalingChart(QWidget* parent)
    : ChartPage(tr("Training scaling: same layout, more data-parallel replicas"),
                tr("Add a training workload that fits (with a global batch) to see how it "
                   "scales with GPUs."),
                parent) {}

void ScalingChart::setEvaluation(const model::Evaluation& ev, const std::string& focus) {
    const model::WorkloadEvaluation* w =
        pickWorkload(ev, focus, [](const auto& x) { return x.scaling.size() >= 2; });
    points_ = w ? static_cast<int>(w->scaling.size()) : 0;
    if (!w) {
        empty_->setText(trainingHint(ev, tr("Add a training workload that fits (with a global "
                                            "batch) to see how it scales with GPUs.")));
        empty_->setWordWrap(true);
        showChart(false);
        return;
    }
    showChart(true);
    clearChart(chart_);
    QList<QPointF> tok, mfu, ideal;
    double ymax = 0, xmax = 0;
    const auto& p0 = w->scaling.front();
    for (const auto& p : w->scaling) {
        tok << QPointF(p.gpus, p.tokens_per_s / 1e3);
        mfu << QPointF(p.gpus, p.mfu * 100);
        ideal << QPointF(p.gpus, p0.tokens_per_s / 1e3 * p.gpus / p0.gpus);
        ymax = std::max(ymax, p0.tokens_per_s / 1e3 * p.gpus / p0.gpus);
        xmax = std::max(xmax, p.gpus);
    }
    auto* t = line(tr("tokens/s (thousands)"), QColor(0x3b, 0x82, 0xf6), tok);
    // Drawn over the curve, dark and dashed: near-linear scaling hid it under the tokens/s line
    // (helper-6).
    auto* id = line(tr("linear scaling"), QColor(0x37, 0x41, 0x51), ideal, Qt::DashLine);
    auto* m = line(tr("MFU (%)"), QColor(0xf5, 0x9e, 0x0b), mfu);
    // Issue 19: the model's error band around tokens/s, shaded (core computed each point's).
    QAreaSeries* band = nullptr;
    if (p0.tokens_per_s_high > 0) {
        QList<QPointF> upper, lower;
        for (const auto& p : w->scaling) {
            upper << QPointF(p.gpus, p.tokens_per_s_high / 1e3);
            lower << QPointF(p.gpus, p.tokens_per_s_low / 1e3);
            ymax = std::max(ymax, p.tokens_per_s_high / 1e3);
        }
        band = addBandArea(chart_, upper, lower, tr("model's error band"), QColor(0x3b, 0x82, 0xf6),
                           45);
    }
    for (auto* s : {t, m, id})
        chart_->addSeries(s);
    auto* ax = new QLogValueAxis;
    ax->setBase(2);
    ax->setLabelFormat(QStringLiteral("%.6g"));
    ax->setTitleText(tr("GPUs (log scale)"));
    ax->setRange(p0.gpus * 0.9, xmax * 1.1);
    // Log-log: linear scaling is a straight line and the gap to it reads as a ratio at every
    // size (helper-22: on a linear y axis near-linear scaling looked exponential).
    double ymin = ymax;
    for (const auto& p : w->scaling)
        ymin = std::min(ymin, (p.tokens_per_s_low > 0 ? p.tokens_per_s_low : p.tokens_per_s) / 1e3);
    auto* ay = new QLogValueAxis;
    ay->setBase(2);
    ay->setLabelFormat(QStringLiteral("%.6g"));
    ay->setMinorTickCount(-1);
    ay->setTitleText(tr("k tokens/s (log scale)"));
    ay->setRange(std::max(ymin * 0.8, 1e-3), ymax * 1.25);
    auto* am = new QValueAxis;
    am->setTitleText(tr("MFU %"));
    am->setRange(0, 100);
    am->setLabelFormat(QStringLiteral("%.0f")); // 75, not 75.0
    chart_->addAxis(ax, Qt::AlignBottom);
    chart_->addAxis(ay, Qt::AlignLeft);
    chart_->addAxis(am, Qt::AlignRight);
    for (auto* s : {id, t}) {
        s->attachAxis(ax);
        s->attachAxis(ay);
    }
    if (band) {
        band->attachAxis(ax);
        band->attachAxis(ay);
    }
    m->attachAxis(ax);
    m->attachAxis(am);
    for (auto* s : {t, m})
        connect(s, &QLineSeries::hovered, this, [s](const QPointF& pt, bool on) {
            if (on)
                QToolTip::showText(QCursor::pos(), QStringLiteral("%1 GPUs: %2 %3")
                                                       .arg(pt.x(), 0, 'f', 0)
                                                       .arg(pt.y(), 0, 'f', 1)
                                                       .arg(s->name()));
        });
    const auto& last = w->scaling.back();
    caption_->setText(
        tr("%1: from %L2 to %L3 GPUs tokens/s grows %4x (linear: %L5x); MFU %6 % → %7 %. "
           "Same TP × PP × CP and global batch; fewer micro-batches per replica "
           "as DP grows (bigger pipeline bubble).")
            .arg(QString::fromStdString(w->name))
            .arg(p0.gpus, 0, 'f', 0)
            .arg(last.gpus, 0, 'f', 0)
            .arg(last.tokens_per_s / p0.tokens_per_s, 0, 'f', 1)
            .arg(last.gpus / p0.gpus, 0, 'f', 0)
            .arg(p0.mfu * 100, 0, 'f', 1)
            .arg(last.mfu * 100, 0, 'f', 1) +
        (band ? tr(" Shaded: the model's error band (published runs like this "
                   "one came out within it).")
              : QString()));
}

} // namespace cl::ui
