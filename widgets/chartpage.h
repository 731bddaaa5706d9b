#pragma once
// The common frame of every chart tab (used by charts.cpp and charts_cost.cpp).

#include <QString>

class QChart;
class QChartView;
class QLabel;
class QWidget;

namespace cl::ui {

/// Chart view over a caption, or a centred hint when empty. Fills the four members and
/// installs a stacked layout on `owner` (page 0 chart, 1 hint).
void buildChartPage(QWidget* owner, const QString& title, const QString& hint, QChart*& chart,
                    QChartView*& view, QLabel*& empty, QLabel*& caption);

/// Removes every series and axis of a chart (and deletes the axes: QChart::removeAxis hands
/// their ownership back, so removing alone leaks them on every update).
void clearChart(QChart* c);

} // namespace cl::ui
