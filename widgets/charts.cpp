#include "charts.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QStackedBarSeries>
#include <QStackedLayout>
#include <QTabWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

namespace cl::ui {

namespace {
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

MemoryChart::MemoryChart(QWidget* parent) : QWidget(parent) {
    chart_ = new QChart;
    chart_->setTitle(tr("Memory per GPU (worst pipeline stage)"));
    chart_->legend()->setAlignment(Qt::AlignRight);
    series_ = new QStackedBarSeries;
    for (const auto& c : kCategories) {
        auto* set = new QBarSet(tr(c.name));
        set->setColor(c.color);
        set->setBorderColor(c.color.darker(115));
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

    view_ = new QChartView(chart_);
    view_->setRenderHint(QPainter::Antialiasing);
    empty_ = new QLabel(tr("Add a training workload to a cluster to see its memory budget."));
    empty_->setAlignment(Qt::AlignCenter);
    auto* stack = new QStackedLayout(this);
    stack->addWidget(view_);
    stack->addWidget(empty_);
    stack->setCurrentWidget(empty_);
}

void MemoryChart::setEvaluation(const model::Evaluation& ev) {
    QStringList names;
    std::vector<const model::WorkloadEvaluation*> shown;
    for (const auto& w : ev.workloads)
        if (w.has_memory) {
            shown.push_back(&w);
            names << QString::fromStdString(w.name);
        }
    bars_ = static_cast<int>(shown.size());
    auto* stack = static_cast<QStackedLayout*>(layout());
    stack->setCurrentWidget(shown.empty() ? static_cast<QWidget*>(empty_) : view_);
    const auto sets = series_->barSets();
    double top = 0;
    capacity_ = 0;
    for (std::size_t k = 0; k < std::size(kCategories); ++k) {
        QList<qreal> values;
        for (const auto* w : shown)
            values << w->memory.per_gpu.*kCategories[k].field / kGB;
        auto* set = sets[static_cast<int>(k)];
        if (set->count() == values.size()) {
            for (int i = 0; i < values.size(); ++i)
                set->replace(i, values[i]);
        } else {
            set->remove(0, set->count());
            set->append(values);
        }
    }
    for (const auto* w : shown) {
        top = std::max({top, w->memory.per_gpu.total(), w->memory.capacity_bytes});
        capacity_ = std::max(capacity_, w->memory.capacity_bytes);
    }
    xAxis_->setCategories(names);
    yAxis_->setRange(0, top / kGB * 1.1);
    yAxis_->applyNiceNumbers();
    // Capacity line across all bar slots (category i spans [i-0.5, i+0.5]).
    const double n = static_cast<double>(std::max<qsizetype>(1, names.size()));
    for (auto* a : capacityLine_->attachedAxes())
        if (a->alignment() == Qt::AlignTop)
            static_cast<QValueAxis*>(a)->setRange(-0.5, n - 0.5);
    capacityLine_->replace(QList<QPointF>{{-0.5, capacity_ / kGB}, {n - 0.5, capacity_ / kGB}});
}

double MemoryChart::shownTotal(int i) const {
    double sum = 0;
    for (auto* set : series_->barSets())
        if (i < set->count())
            sum += set->at(i);
    return sum * kGB;
}

ChartPanel::ChartPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    tabs_ = new QTabWidget(this);
    memory_ = new MemoryChart(tabs_);
    tabs_->addTab(memory_, tr("Memory"));
    layout->addWidget(tabs_);
}

void ChartPanel::setEvaluation(std::shared_ptr<const model::Evaluation> ev) {
    if (ev)
        memory_->setEvaluation(*ev);
}

} // namespace cl::ui
