#pragma once
// Collective communication time on a placed group of GPUs: an alpha-beta model per algorithm
// (ring, double binary tree, NVLS in-switch reduction, hierarchical) and protocol (LL, Simple),
// with NCCL's own tuning constants for latency and documented efficiencies for bandwidth.
// algbw and busbw follow nccl-tests doc/PERFORMANCE.md exactly.

#include "model/error.h"
#include "model/topology.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cl::model {

enum class CollectiveOp { allreduce, allgather, reducescatter, alltoall, broadcast, sendrecv };
enum class CollectiveAlgo { automatic, ring, tree, nvls, hierarchical };
std::string_view collective_op_name(CollectiveOp op);
std::optional<CollectiveOp> collective_op_from_name(std::string_view name);
std::string_view collective_algo_name(CollectiveAlgo a);
std::optional<CollectiveAlgo> collective_algo_from_name(std::string_view name);

/// nccl-tests busbw / algbw factor: allreduce 2(n-1)/n; allgather, reducescatter, alltoall
/// (n-1)/n; broadcast, reduce, sendrecv 1 (doc/PERFORMANCE.md).
double busbw_factor(CollectiveOp op, int n);

/// One size range of a tier's fit (issue 22): the measured curve as the model's own latency and
/// bandwidth terms scaled, t = alpha_scale x latency + beta_scale x transfer, both > 0. The
/// scales anchor the model to the measurement: on the measured group they reproduce the fitted
/// curve; on other groups, sizes and fabrics (another spine ratio, more nodes) the model's own
/// mechanisms carry the change.
struct CalibrationSegment {
    double min_bytes = 0, max_bytes = 0; ///< the measured sizes it covers
    double alpha_scale = 1;              ///< measured / modelled latency
    double beta_scale = 1;               ///< measured / modelled transfer time
};

/// Per-tier fitted values that replace the defaults (from --calibrate / a design).
struct TierCalibration {
    double alpha_s = 0;  ///< legacy: latency per algorithm step on this tier (0 = default)
    double beta_Bps = 0; ///< legacy: effective bus bandwidth of this tier (0 = default)
    /// Issue 22: size ranges of the fit, smallest first (empty: the legacy values, if any).
    std::vector<CalibrationSegment> segments;
};

/// Sourced defaults. Latencies are NCCL's tuning constants (src/graph/tuning.cc, as quoted in
/// NCCL issue #1334 and the reference catalog); small-message LL latency per step is the
/// DGX A100 measurement in nccl-tests issue #123 (2 / 4 / 8 GPUs: 10 / 16.9 / 33.7 us).
struct CollectiveAssumptions {
    double nvlink_efficiency =
        0.82;                      ///< NCCL maintainer: ~370 of 450 GB/s on H100 (nccl-tests #212)
    double net_efficiency = 0.94;  ///< NVIDIA: 46-48 GB/s per NDR NIC (nccl-tests #290)
    double pcie_efficiency = 0.80; ///< assumption: PCIe protocol/TLP overhead (docs/collectives.md)
    double nvls_algbw_efficiency =
        0.61; ///< NVLS on 8xH100: algbw ~275 of 450 GB/s (nccl-tests #212)
    /// NCCL send/recv between two GPUs of a domain plateaus near 180 GB/s on H100 NVLink
    /// (nccl-tests issue #268): a software limit (channels per peer), not the link.
    double p2p_max_Bps = 180e9;
    double simple_base_s = 8.4e-6;       ///< NCCL baseLat ring Simple
    double simple_nvlink_hop_s = 3.4e-6; ///< NCCL hwLat NVLink ring Simple
    double simple_pcie_hop_s = 5.7e-6;   ///< NCCL hwLat PCI ring Simple
    double simple_net_hop_s = 14.0e-6;   ///< NCCL hwLat NET ring Simple
    double ll_base_s = 5.6e-6;           ///< fit of nccl-tests #123 (DGX A100, LL): intercept
    double ll_intra_hop_s = 2.0e-6;      ///< fit of nccl-tests #123: per ring step
    double ll_net_hop_s = 2.7e-6;        ///< NCCL hwLat NET ring LL
    double tree_net_hop_s = 5.0e-6;      ///< NCCL hwLat NET tree LL
    double nvls_latency_s = 25e-6;       ///< NCCL hwLat NVLink NVLS Simple
    double nccl_buffsize = 4194304;      ///< NCCL_BUFFSIZE default (NCCL env docs): pipeline chunk
    /// NCCL llMaxBws (GB/s) for one node / two / four+: Ampere, Hopper, Blackwell rows.
    std::array<std::array<double, 3>, 3> ll_max_Bps{
        {{87.7e9, 22.5e9, 19.0e9}, {141.0e9, 45.0e9, 35.0e9}, {282.0e9, 90.0e9, 70.0e9}}};
    /// Index = the highest tier a group crosses: 0 = scale-up domain, 1 = leaf, 2 = spine,
    /// 3 = core. A group uses its own tier's fit only (issue-22 fits; legacy entries as before).
    std::vector<TierCalibration> calibration;
};

/// What one parallel group puts on the fabric per step (issue 22): the tier it crosses, the
/// collective buffers per GPU (nccl-tests sizes) and the time its collectives take before any
/// overlap hides them.
struct GroupTraffic {
    std::string group; ///< "TP", "CP", "EP", "PP", "DP", "EDP" (an MoE model's experts' DP)
    std::string what;  ///< "all-reduce of gradients", ...
    int ranks = 0;
    int tier = 0; ///< 0 scale-up, 1 leaf, 2 spine, 3 core
    double oversubscription = 1;
    double bytes = 0;
    double busy_s = 0;
};

/// How busy each fabric tier is during a step: the groups that cross it, their share of the step.
struct TierLoad {
    int tier = 0;
    std::string name; ///< "scale-up (NVLink)", "leaf", "spine"...
    double busy = 0;  ///< fraction of the step some group's collectives cross it (at most 1)
    double bytes = 0; ///< per GPU per step
    double oversubscription = 1;
    std::string groups; ///< "DP, PP"
};

/// The highest tier a group crosses, as calibrations and traffic are indexed: 0 = inside one
/// scale-up domain, 1 = leaf, 2 = spine, 3 = core.
inline int group_tier(const GroupPlacement& p) {
    return std::max(1, p.nodes) == 1 ? 0 : std::clamp(p.tier, 1, 3);
}
/// A tier's short name: "scale-up domain", "leaf", "spine", "core" (index clamped to 0..3).
const char* tier_short_name(int tier);
/// The links of a network tier (1..3) as the canvas names them: "node to leaf", "leaf to
/// spine", "spine to core".
std::string tier_link_name(int tier);

/// How busy each network tier is when `traffic`'s groups run once per `period_s` (a training
/// step or a decode step): a tier carries every group that crosses it or a tier above it
/// (place_group). `bottleneck` gets the busiest tier in words ("spine carries DP all-reduce of
/// gradients, 83% busy, 2:1 oversubscribed"), empty when no group leaves a scale-up domain.
std::vector<TierLoad> tier_loads(const std::vector<GroupTraffic>& traffic, const Topology& t,
                                 double period_s, std::string* bottleneck);

struct CollectiveResult {
    CollectiveOp op = CollectiveOp::allreduce;
    double bytes = 0; ///< nccl-tests `size`
    int gpus = 1;
    CollectiveAlgo algorithm = CollectiveAlgo::ring;
    std::string protocol; ///< LL or Simple
    double time_s = 0, algbw_Bps = 0, busbw_Bps = 0;
    int tier = 0;           ///< highest fabric tier crossed (0 = scale-up only)
    std::string bottleneck; ///< "NVLink", "PCIe", "NIC", "spine (2:1)"...
};

/// Time of one collective of `bytes` (nccl-tests `size`: per-rank buffer for allreduce and
/// broadcast, total for allgather/reducescatter, per-rank send buffer for alltoall) over the
/// group placed as `p` on fabric `t`.
Result<CollectiveResult> collective_time(CollectiveOp op, double bytes, const Topology& t,
                                         const GroupPlacement& p, CollectiveAlgo algo,
                                         const CollectiveAssumptions& a = {});

/// The same model without building a result: seconds, or -1 when the collective cannot run
/// on this placement (the training model and the search call this in their inner loops).
double collective_seconds(CollectiveOp op, double bytes, const Topology& t, const GroupPlacement& p,
                          CollectiveAlgo algo, const CollectiveAssumptions& a = {});

// ---- Calibration from nccl-tests output ----------------------------------------------------

struct NcclTestsRow {
    double bytes = 0, time_s = 0, algbw_Bps = 0, busbw_Bps = 0; ///< out-of-place columns
    double inplace_time_s = 0; ///< in-place time (0 when the output has none)
    int line = 0;              ///< 1-based line in the file
};
/// One test run: everything between one "# nThread ..." header and the next.
struct NcclTestsRun {
    std::string op_name;         ///< "allreduce", ... when the output says (test name), else empty
    std::string test_name;       ///< as printed: "all_reduce_perf", "alltoall_perf_mpi", ...
    int ranks = 0;               ///< from the "Rank" lines (highest rank + 1), 0 when absent
    int nodes = 0;               ///< distinct hosts in the "Rank" lines, 0 when absent
    bool ranks_inferred = false; ///< ranks come from busbw / algbw, not from "Rank" lines
    int first_line = 0;
    double avg_busbw_Bps = 0; ///< the "# Avg bus bandwidth" footer, 0 when absent
    std::string redop;        ///< the rows' reduction column ("sum", "none", ...) when present
    std::vector<NcclTestsRow> rows;
};
struct NcclTestsSkip {
    int line = 0;
    std::string reason;
};
struct NcclTestsOutput {
    std::vector<NcclTestsRun> runs; ///< runs with at least one data row
    std::vector<NcclTestsSkip> skipped;
    std::size_t rows() const;
};
/// Parses nccl-tests output as people paste it: any version's columns (read from the column
/// header: with or without `root`, `#wrong` or `error`, N/A), any number of rank lines, several
/// runs concatenated, and launcher prefixes (`[1,0]<stdout>:`, ` 0: `, `(head, rank=0, ...)`).
/// Rows it cannot use are listed in `skipped` with the reason; it fails only when no row is
/// usable.
Result<NcclTestsOutput> parse_nccl_tests(std::string_view text);

struct SegmentFit {
    std::string algorithm, protocol; ///< what the model runs over that range at the measured group
    double min_bytes = 0, max_bytes = 0;
    int rows = 0;
    double alpha_s = 0;  ///< fitted latency of one collective at the measured group
    double beta_Bps = 0; ///< fitted bus bandwidth at the range's largest size
    double error_before = 0, error_after = 0;
    CalibrationSegment scales;
};
struct TierFit {
    int tier = 0;     ///< 0 scale-up, 1 leaf, 2 spine, 3 core
    std::string name; ///< "scale-up (NVLink)", "leaf", "spine"...
    int ranks = 0, nodes = 0, rows = 0;
    std::string op;
    double oversubscription = 1;
    std::vector<SegmentFit> segments;
    double error_before = 0, error_after = 0;
    std::vector<std::array<double, 2>> points; ///< measured (bytes, seconds), for the chart
};
struct CalibrationFit {
    std::string op; ///< of the largest run
    int ranks = 0, nodes = 0, rows = 0;
    std::vector<TierFit> tiers; ///< fitted tiers, lowest first
    std::vector<NcclTestsSkip> skipped;
    double error_before = 0, error_after = 0;           ///< every row
    double error_before_1mib = 0, error_after_1mib = 0; ///< rows of 1 MiB and more
    /// `base` with the fitted tiers applied (every model that uses collectives takes this).
    CollectiveAssumptions applied;
};
/// Fits each run to the tier its group crosses on fabric `t` (placed as the design would place
/// that many ranks): the sizes are split into up to three ranges where the measured curve
/// changes shape (NCCL switches protocol, LL -> LL128 -> Simple, and algorithm by size; the
/// number of ranges is chosen by the Akaike information criterion), and each range is a
/// non-negative least-squares fit, in relative error, of the model's latency and transfer
/// terms. `fallback_op` is used for runs whose output does not name the test.
Result<CalibrationFit> calibrate(const NcclTestsOutput& out, CollectiveOp fallback_op,
                                 const Topology& t, const CollectiveAssumptions& base = {});

} // namespace cl::model
