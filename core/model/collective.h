#pragma once
// Collective communication time on a placed group of GPUs: an alpha-beta model per algorithm
// (ring, double binary tree, NVLS in-switch reduction, hierarchical) and protocol (LL, Simple),
// with NCCL's own tuning constants for latency and documented efficiencies for bandwidth.
// algbw and busbw follow nccl-tests doc/PERFORMANCE.md exactly.

#include "model/error.h"
#include "model/topology.h"

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

/// Per-tier fitted values that replace the defaults (from --calibrate / a design).
struct TierCalibration {
    double alpha_s = 0;  ///< latency per algorithm step on this tier (0 = default)
    double beta_Bps = 0; ///< effective bus bandwidth of this tier (0 = default)
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
    std::vector<TierCalibration> calibration; ///< index 0 = scale-up, 1 = scale-out
};

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
    double bytes = 0, time_s = 0, algbw_Bps = 0, busbw_Bps = 0;
};
struct NcclTestsRun {
    std::string op_name; ///< "allreduce", ... when the output names it, else empty
    int ranks = 0;       ///< from the "Rank" lines (0 when absent)
    std::vector<NcclTestsRow> rows;
};
/// Parses nccl-tests output as printed (out-of-place columns). Errors name the line.
Result<NcclTestsRun> parse_nccl_tests(std::string_view text);

struct CalibrationFit {
    TierCalibration tier;    ///< fitted latency per step and bus bandwidth
    int tier_index = 0;      ///< 0 = scale-up, 1 = scale-out
    double error_before = 0; ///< mean |predicted - measured| / measured time, defaults
    double error_after = 0;  ///< same with the fitted values
};
/// Least-squares fit (Eigen) of time = steps x alpha + factor x bytes / beta, weighted to
/// minimise relative error, for the tier the run's group crosses.
Result<CalibrationFit> calibrate(const NcclTestsRun& run, CollectiveOp op, const Topology& t,
                                 const GroupPlacement& p, const CollectiveAssumptions& a = {});

} // namespace cl::model
