#pragma once
// evaluate(design, catalog) -> Evaluation: the pure function behind every number the GUI and
// the CLI show (DESIGN.md "How a user action flows", step 5). No hidden state.

#include "model/collective.h"
#include "model/design.h"
#include "model/findings.h"
#include "model/fleet.h"
#include "model/inference.h"
#include "model/memory.h"
#include "model/reliability.h"
#include "model/roofline.h"
#include "model/tco.h"
#include "model/topology.h"
#include "model/training.h"
#include "model/uncertainty.h"

#include <optional>

#include <string>
#include <vector>

namespace cl::model {

struct TopologySummary {
    double gpus = 0;      ///< total GPUs, replicas included
    double nodes = 0;     ///< servers and systems (a GB200 NVL72 rack counts as 18 trays)
    double switches = 0;  ///< network switches drawn (NVSwitches inside systems excluded)
    std::string gpu;      ///< catalog id of the (first) GPU type
    std::string gpu_name; ///< its catalog name ("H200 SXM 141GB")
    int gpu_types = 0;
    double hbm_bytes = 0;        ///< sum of GPU memory capacity
    double peak_bf16_flops = 0;  ///< sum of dense BF16 peaks
    double power_w = 0;          ///< systems' max power plus GPU TDPs of loose GPUs
    int scaleup_domain_size = 0; ///< GPUs per NVLink/xGMI domain
    std::vector<std::string> warnings;
};

/// The memory verdict of a workload, training or inference alike (what charts and badges show).
struct WorkloadMemory {
    MemoryBreakdown per_gpu;
    double capacity_bytes = 0;
    double headroom_bytes = 0;
    bool fits = false;
    int worst_stage = 0;
    std::string explanation;
    /// The GPU's capacity on its label when the capacity above is what CUDA reports (catalog
    /// usable_memory_bytes: an H200's 141 GB label is 139.8 GiB = 150.1 GB to CUDA); 0 when
    /// the label stands in.
    double label_bytes = 0;
};

/// A point of the training scaling curve: the same layout with fewer data-parallel replicas.
struct ScalingPoint {
    double gpus = 0, tokens_per_s = 0, mfu = 0;
    bool fits = true;
    /// The model's error band of tokens_per_s at this scale (uncertainty.h); 0 when none.
    double tokens_per_s_low = 0, tokens_per_s_high = 0;
};

struct WorkloadEvaluation {
    std::string id, name;
    WorkloadKind kind = WorkloadKind::training;
    double gpus = 0;        ///< GPUs the workload is placed on
    std::string gpu;        ///< GPU type it runs on
    std::string model;      ///< zoo id
    std::string model_name; ///< as people read it ("Llama 3 / 3.1 70B"); the id when unknown
    bool has_memory = false;
    WorkloadMemory memory;
    std::optional<TrainingMemory> training_memory;
    std::optional<InferenceMemory> inference_memory;
    std::optional<Roofline> roofline;         ///< training: prefill at seq; inference: decode
    std::optional<TrainingResult> training;   ///< step time etc. (needs a global batch)
    std::optional<InferenceResult> inference; ///< latency, throughput, cost (when it fits)
    /// How far to trust the training or inference numbers: the band of comparable published
    /// runs (uncertainty.h), set with `training` or `inference`.
    std::optional<Band> band;
    std::vector<CurvePoint> inference_curve;      ///< latency vs throughput over batch size
    std::optional<ReliabilityResult> reliability; ///< training: failures, checkpoints, goodput
    std::vector<ScalingPoint> scaling; ///< training: tokens/s and MFU vs GPU count (DP 1, 2, 4..)
    std::optional<RunCost> run_cost;   ///< training: the run at cloud / on-prem rates
    double onprem_usd_per_million_output_tokens = 0; ///< inference at the amortized rate
    /// Serving in online mode: the service's latency targets (0 offline or when not set), for
    /// the Inference chart's SLO lines (issue 21).
    double ttft_slo_s = 0, tpot_slo_s = 0;
    std::string error; ///< why no numbers could be computed (empty when fine)
};

/// busbw versus message size of one collective over one placement (the fabric chart).
struct CollectiveCurve {
    std::string name; ///< "NVLink domain (8 GPUs)", "leaf (256 GPUs)", ...
    int gpus = 0;
    int tier = 0;
    std::vector<double> bytes, busbw_Bps, time_s;
    /// The model's error band of busbw at each size (uncertainty.h); empty when the fabric is
    /// calibrated from the user's own measurements.
    std::vector<double> busbw_low_Bps, busbw_high_Bps;
    /// Issue 22, when the design is calibrated: the uncalibrated model at the same sizes, and the
    /// measured points of this group size (bytes, busbw), so the chart shows before, after and
    /// the measurement together.
    std::vector<double> uncalibrated_busbw_Bps;
    std::vector<double> measured_bytes, measured_busbw_Bps;
    /// Issue 22: when the fabric changed since the measurement (another oversubscription on the
    /// measured group's way), what it was measured on: "measured at 1.92:1"; else empty.
    std::string measured_on;
    /// Session 44: a serving engine's all-reduce as measured inside it (catalog
    /// engine_allreduce), which times the TP all-reduces of an inference workload on this
    /// fabric: its measured points, no model and no band.
    bool engine_measured = false;
};

/// The fleet simulation of a design's job mix (FleetMix) on its drawn nodes (issue 23): the
/// classes with a positive rate, the mix's policy and horizon. Errors name the fleet field.
/// Issue 23: the hours training workload `workload_id` of the design takes to train its tokens
/// on `gpus` GPUs of type `gpu` on `fabric`: its TP x PP x CP layout and global batch, DP =
/// gpus / (tp pp cp). An error says why not (no such training workload, no tokens set, the GPUs
/// not a multiple of the layout, the batch not a multiple of DP, does not fit).
Result<double> training_hours_on(const Design& d, const Catalog& c, const Topology& fabric,
                                 const CollectiveAssumptions& ca, const std::string& gpu,
                                 const std::string& workload_id, int gpus);
/// The design's job mix as a simulation: with the catalog and fabric, a class's duration may
/// come from a training workload (JobClassMix::duration_from); without them that is an error.
/// The nodes the fleet simulation numbers 0, 1, ... on the canvas: each server or system card
/// in the design's order holds `count` of them from `first` (its copies included), as
/// evaluate() counts the topology's nodes. The canvas highlights a job's cards with it.
struct FleetNodeCard {
    std::string device; ///< the card's device id
    int first = 0, count = 0;
};
std::vector<FleetNodeCard> fleet_node_cards(const Design& d, const Catalog& c);
/// The cards a job of the allocation timeline ran on: per card, how many of its nodes the job
/// held and how many the card has (in the cards' order).
struct FleetJobCard {
    std::string device;
    int job_nodes = 0, card_nodes = 0;
};
std::vector<FleetJobCard> fleet_job_cards(const std::vector<FleetNodeCard>& cards,
                                          const FleetAllocJob& job);

/// Nodes under one leaf switch of the design's fabric for fleet placement (a rail group's leaves
/// on a rail-optimised fabric), at most `nodes`; 0 when it has no scale-out tier (one leaf).
int fleet_nodes_per_leaf(const Topology& fabric, int nodes);
Result<FleetSpec> fleet_spec(const Design& d, const TopologySummary& t,
                             const Catalog* cat = nullptr, const Topology* fabric = nullptr,
                             const CollectiveAssumptions* ca = nullptr);

/// The price per GPU-hour a design's fleet bursts are billed at: the cloud offer's on-demand or
/// spot rate (`FleetMix::burst_to`), or the typed cloud price on demand; an error saying why
/// when there is none (spot without an offer that has a spot price).
struct TcoResult;
Result<double> fleet_burst_rate(const Design& d, const TcoResult& tco);

struct Evaluation {
    TopologySummary topology;
    Topology fabric;                               ///< tiers, bandwidths, bisection (topology.h)
    CollectiveAssumptions collective_assumptions;  ///< defaults + the design's calibration
    std::vector<CollectiveCurve> allreduce_curves; ///< one per fabric tier
    std::vector<WorkloadEvaluation> workloads;
    std::optional<TcoResult> tco; ///< the whole design: cloud vs on-prem
    std::string tco_error;        ///< why there is no TCO (no GPUs, no price)
    /// The design's job mix on its cluster (issue 23), when it has one.
    std::optional<FleetResult> fleet;
    /// Why the mix could not be simulated, for people: without the design's keys (each text
    /// names the class it is about).
    std::string fleet_error;
    double storage_Bps = 0; ///< storage devices drawn (aggregate)
    Findings findings;      ///< badges, verdicts and tooltips the canvas shows
};

Evaluation evaluate(const Design& design, const Catalog& catalog);

/// Issue 22: stores an nccl-tests fit in the design: each fitted tier's entry replaces the
/// design's entry for that tier (ranges, measured points, errors); `source` names the file.
void store_fit(Design& d, const CalibrationFit& fit, const std::string& source);

/// Allreduce busbw curves for a group inside one domain, under one switch of each tier, and
/// across the whole fabric.
std::vector<CollectiveCurve> allreduce_curves(const Topology& f, const CollectiveAssumptions& a);

/// GPUs inside a device (itself when it is a GPU, a system's GPUs, or its descendants),
/// multiplied by the replica counts on the way. `gpu_id` receives the GPU type found.
double gpus_in(const Design& d, const Catalog& c, const Device& dev, std::string* gpu_id);
/// The same with an index built once (loops over many devices).
double gpus_in(const DesignIndex& idx, const Catalog& c, const Device& dev, std::string* gpu_id);

} // namespace cl::model
