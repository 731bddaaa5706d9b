#pragma once
// The common frame of every chart tab (used by charts.cpp and charts_cost.cpp).

#include <QList>
#include <QPointF>
#include <QString>

#include <string>

class QAreaSeries;
class QChart;
class QColor;
class QChartView;
class QLabel;
class QValueAxis;
class QWidget;

namespace cl::model {
struct Evaluation;
} // namespace cl::model

namespace cl::ui {

/// What a training chart with nothing to show says (helper-12 and -13: "Add a training
/// workload ..." beside a workload that did not fit or had a value refused): the first
/// training workload's error or why it does not fit, with its name; else `fallback`.
QString trainingHint(const model::Evaluation& ev, const QString& fallback);

/// Chart view over a caption, or a centred hint when empty. Fills the four members and
/// installs a stacked layout on `owner` (page 0 chart, 1 hint).
void buildChartPage(QWidget* owner, const QString& title, const QString& hint, QChart*& chart,
                    QChartView*& view, QLabel*& empty, QLabel*& caption);

/// Removes every series and axis of a chart (and deletes the axes: QChart::removeAxis hands
/// their ownership back, so removing alone leaks them on every update).
void clearChart(QChart* c);

/// Issue 21: an axis from `lo` to `hi` widened to whole steps of 1, 2 or 5 x 10^k (at most
/// `max_ticks` intervals), ticks on those steps from 0, labels with the decimals the step needs:
/// 88, 90, ... 100, not 88.6, 91.4, ... `min_step` > 0 keeps steps at least that (1 for counted
/// things: days and jobs, never 0.5).
void niceAxis(QValueAxis* axis, double lo, double hi, int max_ticks = 6, double min_step = 0);

/// Issue 19: a model's error band as a shaded area between `upper` and `lower` (core computes
/// both), `colour` at `alpha`, no outline, added to `chart`. The edge lines are the area's
/// children (QAreaSeries does not own them; clearing the chart frees them -- LeakSanitizer).
QAreaSeries* addBandArea(QChart* chart, const QList<QPointF>& upper, const QList<QPointF>& lower,
                         const QString& name, const QColor& colour, int alpha);

/// Issue 21: the workload a one-workload chart shows: the selected one (`focus`, a workload id)
/// when it has what the chart needs, else the first that has it; null when none has.
template <class Evaluation, class Has>
auto pickWorkload(const Evaluation& ev, const std::string& focus, Has has)
    -> decltype(&ev.workloads.front()) {
    decltype(&ev.workloads.front()) first = nullptr;
    for (const auto& x : ev.workloads)
        if (has(x)) {
            if (x.id == focus)
                return &x;
            if (!first)
                first = &x;
        }
    return first;
}

} // namespace cl::ui
