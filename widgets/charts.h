#pragma once
// Chart panels fed by the immutable Evaluation. They display what core/model computed and
// compute nothing themselves.

#include "model/evaluate.h"

#include <QColor>
#include <QPointF>
#include <QWidget>

#include <memory>
#include <optional>
#include <string>
#include <vector>

class QChart;
class QChartView;
class QStackedBarSeries;
class QBarSet;
class QLineSeries;
class QBarCategoryAxis;
class QValueAxis;
class QLabel;
class QTabWidget;
class QComboBox;

namespace cl::doc {
class SensitivityRunner;
}
namespace cl::model {
struct SensitivityResult;
}

namespace cl::ui {

/// Per-GPU memory of each training workload, stacked by category, against capacity.
class MemoryChart : public QWidget {
    Q_OBJECT
public:
    explicit MemoryChart(QWidget* parent = nullptr);
    void setEvaluation(const model::Evaluation& ev);
    /// For tests: the stacked total shown for bar `i` (bytes) and the capacity line (bytes).
    [[nodiscard]] double shownTotal(int i) const;
    [[nodiscard]] double shownCapacity() const { return capacity_; }
    [[nodiscard]] int barCount() const { return bars_; }
    [[nodiscard]] QChartView* view() const { return view_; }
    /// What the bars say in words: each workload's total of its capacity, and what is left or
    /// missing (issue 21: the Memory tab had no caption).
    [[nodiscard]] QString caption() const;

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void relabel();
    QStringList plainLabels_; ///< each bar's name, plain text
    QList<bool> labelFits_;   ///< whether that bar fits
    QChart* chart_;
    QChartView* view_;
    QLabel* caption_;
    QStackedBarSeries* series_;
    /// One bar set per memory part (kCategories order); only the parts some bar has are in
    /// series_, so the legend names no empty part and leaves no gap for one.
    std::vector<QBarSet*> parts_;
    QLineSeries* capacityLine_;
    QBarCategoryAxis* xAxis_;
    QValueAxis* yAxis_;
    QLabel* empty_;
    double capacity_ = 0;
    int bars_ = 0;
};

/// The common frame of a chart tab: the chart view over a caption, or a hint saying what to
/// add when there is nothing to show (charts.cpp buildChartPage).
class ChartPage : public QWidget {
public:
    [[nodiscard]] QChartView* view() const { return view_; }

protected:
    ChartPage(const QString& title, const QString& hint, QWidget* parent);
    /// Shows the chart (true) or the hint (false).
    void showChart(bool on);

    QChart* chart_ = nullptr;
    QChartView* view_ = nullptr;
    QLabel* empty_ = nullptr;
    QLabel* caption_ = nullptr;
};

/// Log-log roofline of the selected workload's GPU: dtype peaks, the HBM slope and the
/// workload's operators (training: prefill at its sequence length; inference: decode).
class RooflineChart : public ChartPage {
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);
    void setEvaluation(const model::Evaluation& ev, const std::string& focus = {});
    [[nodiscard]] int pointCount() const;
};

/// busbw vs message size of allreduce, one line per fabric tier (nccl-tests definitions).
class FabricChart : public ChartPage {
    Q_OBJECT
public:
    explicit FabricChart(QWidget* parent = nullptr);
    void setEvaluation(const model::Evaluation& ev);
    [[nodiscard]] int curveCount() const { return curves_; }
    /// Measured nccl-tests points are drawn (a calibrated design, issue 22).
    [[nodiscard]] bool measuredShown() const { return measured_; }
    /// Session 44: a serving engine's measured all-reduce is drawn.
    [[nodiscard]] bool engineMeasuredShown() const { return engine_; }

private:
    int curves_ = 0;
    bool measured_ = false; ///< measured nccl-tests points are drawn
    bool engine_ = false;   ///< a serving engine's measured all-reduce is drawn
};

/// Where a training step's time goes: exposed seconds per part, one bar per workload.
class TrainingChart : public ChartPage {
    Q_OBJECT
public:
    explicit TrainingChart(QWidget* parent = nullptr);
    void setEvaluation(const model::Evaluation& ev);
    [[nodiscard]] int barCount() const { return bars_; }

private:
    int bars_ = 0;
};

/// Serving: TPOT against output tokens/s as the batch grows, with the operating point.
class InferenceChart : public ChartPage {
    Q_OBJECT
public:
    explicit InferenceChart(QWidget* parent = nullptr);
    void setEvaluation(const model::Evaluation& ev, const std::string& focus = {});
    [[nodiscard]] int pointCount() const { return points_; }
    /// The workload the chart shows (its id).
    [[nodiscard]] const std::string& shownWorkload() const { return shown_; }
    /// The TPOT axis's top and the TPOT target line drawn (0: none), in ms.
    [[nodiscard]] double axisTopMs() const { return axisTop_; }
    /// The right end of the throughput axis (tokens/s per replica).
    [[nodiscard]] double axisRight() const { return axisRight_; }
    [[nodiscard]] double sloMs() const { return slo_; }
    /// The TTFT target line drawn (0: none) and the top of its axis, in ms.
    [[nodiscard]] double ttftSloMs() const { return ttftSlo_; }
    [[nodiscard]] double ttftAxisTopMs() const { return ttftTop_; }

private:
    int points_ = 0;
    std::string shown_;
    double axisTop_ = 0, slo_ = 0, axisRight_ = 0, ttftSlo_ = 0, ttftTop_ = 0;
};

/// Cumulative cost over the months: cloud vs on-prem, the break-even marked; the breakdown and
/// the key rates in the caption.
class CostChart : public ChartPage {
    Q_OBJECT
public:
    explicit CostChart(QWidget* parent = nullptr);
    void setEvaluation(const model::Evaluation& ev);
    [[nodiscard]] int monthCount() const { return months_; }
    [[nodiscard]] double shownOnpremUsd() const { return onprem_; }
    /// For tests: the caption in words, and the names of the lines drawn (the legend).
    [[nodiscard]] QString caption() const;
    [[nodiscard]] QStringList seriesNames() const;

private:
    int months_ = 0;
    double onprem_ = 0;
};

/// The design's job mix on its cluster (issue 23): busy GPUs and waiting jobs over the simulated
/// days; utilization, waits by class, fragmentation and the cost per useful GPU-hour below.
/// Issue 23: the allocation timeline -- which job held each of a sample of nodes over time
/// (core's FleetAllocation), a colour per class; a click picks the job under the pointer.
class AllocationView : public QWidget {
    Q_OBJECT
public:
    explicit AllocationView(QWidget* parent = nullptr);
    /// `nodes`: the cluster's (the rows are a sample of them when it has more than 64).
    void setAllocation(const model::FleetResult& f, int nodes);
    [[nodiscard]] int picked() const { return picked_; }
    /// The cell (row, column) at a widget point, or (-1, -1).
    [[nodiscard]] std::pair<int, int> cellAt(QPoint p) const;
    /// The centre of a cell, for tests that click it.
    [[nodiscard]] QPoint cellCentre(int row, int col) const;
    [[nodiscard]] const model::FleetAllocation& allocation() const { return al_; }
    [[nodiscard]] static QColor classColour(int cls);
    void pick(int job);

signals:
    void jobPicked(int job);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    QSize sizeHint() const override { return {400, 150}; }
    QSize minimumSizeHint() const override { return {200, 90}; }

private:
    [[nodiscard]] QRectF plot() const;
    [[nodiscard]] std::vector<std::pair<QColor, QString>> legendItems() const;
    /// Where each legend item starts (x, line) between left and right; `lines` used.
    std::vector<QPointF> legendLayout(double left, double right, int* lines) const;
    model::FleetAllocation al_;
    std::vector<std::string> classes_;
    double horizon_s_ = 0;
    int nodes_ = 0;
    int picked_ = -1;
};

class FleetChart : public ChartPage {
    Q_OBJECT
public:
    explicit FleetChart(QWidget* parent = nullptr);
    void setEvaluation(const model::Evaluation& ev);
    [[nodiscard]] int sampleCount() const { return samples_; }
    [[nodiscard]] double shownUtilization() const { return utilization_; }
    [[nodiscard]] AllocationView* allocationView() const { return alloc_; }
    [[nodiscard]] QString pickedJobText() const;

signals:
    /// A job was picked on the allocation timeline (-1: none): the canvas shows its cards.
    void jobSelected(const model::FleetAllocJob* job);

private:
    void describePick(int job);
    int samples_ = 0;
    double utilization_ = 0;
    AllocationView* alloc_ = nullptr;
    QLabel* jobLabel_ = nullptr;
    std::vector<std::string> classNames_;
};

/// Goodput vs checkpoint interval of the first training workload, optimum and chosen interval
/// marked; MTBF, checkpoint and losses in the caption.
class ReliabilityChart : public ChartPage {
    Q_OBJECT
public:
    explicit ReliabilityChart(QWidget* parent = nullptr);
    void setEvaluation(const model::Evaluation& ev, const std::string& focus = {});
    [[nodiscard]] int pointCount() const { return points_; }
    [[nodiscard]] double shownGoodput() const { return goodput_; }

private:
    int points_ = 0;
    double goodput_ = 0;
};

/// Training scaling: tokens/s (left axis) and MFU (right axis) against GPU count for the same
/// layout with 1, 2, 4... data-parallel replicas.
class ScalingChart : public ChartPage {
    Q_OBJECT
public:
    explicit ScalingChart(QWidget* parent = nullptr);
    void setEvaluation(const model::Evaluation& ev, const std::string& focus = {});
    [[nodiscard]] int pointCount() const { return points_; }

private:
    int points_ = 0;
};

/// Which inputs move a chosen output most (tornado): each input ±20%, sorted by swing.
/// Recomputed only while visible (it evaluates the design ~40 times).
class SensitivityChart : public QWidget {
    Q_OBJECT
public:
    explicit SensitivityChart(QWidget* parent = nullptr);
    /// Where the tornado is computed (off the GUI thread); the chart only shows results.
    void setRunner(doc::SensitivityRunner* runner);
    /// The design changed: recompute when shown.
    void markStale();
    [[nodiscard]] int barCount() const { return bars_; }
    [[nodiscard]] QStringList shownInputs() const { return inputs_; }
    QComboBox* outputBox() const { return output_; }

protected:
    void showEvent(QShowEvent* e) override;

private:
    void recompute();
    void showResult(const model::SensitivityResult& r);
    QChart* chart_;
    QChartView* view_;
    QLabel* empty_;
    QLabel* caption_;
    QComboBox* output_;
    doc::SensitivityRunner* runner_ = nullptr;
    bool stale_ = true;
    int bars_ = 0;
    QStringList inputs_;
};

/// The bottom dock: tabs of charts.
class ChartPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartPanel(QWidget* parent = nullptr);
    void setEvaluation(std::shared_ptr<const model::Evaluation> ev);
    /// Issue 21: the charts that show one workload (roofline, inference, reliability, scaling)
    /// show this one (a workload id, the canvas's selection) when it has their numbers.
    void setFocusWorkload(const std::string& id);
    [[nodiscard]] MemoryChart* memoryChart() const { return memory_; }
    [[nodiscard]] RooflineChart* rooflineChart() const { return roofline_; }
    [[nodiscard]] FabricChart* fabricChart() const { return fabric_; }
    [[nodiscard]] TrainingChart* trainingChart() const { return training_; }
    [[nodiscard]] InferenceChart* inferenceChart() const { return inference_; }
    [[nodiscard]] CostChart* costChart() const { return cost_; }
    [[nodiscard]] FleetChart* fleetChart() const { return fleet_; }
    [[nodiscard]] ReliabilityChart* reliabilityChart() const { return reliability_; }
    [[nodiscard]] class ExplainPanel* explainPanel() const { return explain_; }
    [[nodiscard]] SensitivityChart* sensitivityChart() const { return sensitivity_; }
    [[nodiscard]] ScalingChart* scalingChart() const { return scaling_; }
    [[nodiscard]] QTabWidget* tabs() const { return tabs_; }

private:
    QTabWidget* tabs_;
    MemoryChart* memory_;
    RooflineChart* roofline_;
    FabricChart* fabric_;
    TrainingChart* training_;
    InferenceChart* inference_;
    CostChart* cost_;
    FleetChart* fleet_;
    ReliabilityChart* reliability_;
    class ExplainPanel* explain_;
    SensitivityChart* sensitivity_;
    ScalingChart* scaling_;
    std::shared_ptr<const model::Evaluation> ev_;
    std::string focus_;
};

} // namespace cl::ui
