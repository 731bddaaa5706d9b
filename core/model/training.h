#pragma once
// Training step time on a drawn (or described) cluster: per-operator compute from the roofline
// with measured GEMM efficiency, exposed communication of every parallel group on the fabric
// tier it crosses, the pipeline bubble, the DP gradient exchange overlapped with backward, and
// the optimizer step. Sources per term in training.cpp and docs/training.md.

#include "model/collective.h"
#include "model/memory.h"
#include "model/topology.h"

#include <string>

namespace cl::model {

struct TrainingBreakdown {
    double compute = 0, recompute = 0, tp_comm = 0, cp_comm = 0, ep_comm = 0, pp_comm = 0,
           dp_comm = 0, optimizer = 0, bubble = 0, other = 0;
    [[nodiscard]] double total() const {
        return compute + recompute + tp_comm + cp_comm + ep_comm + pp_comm + dp_comm + optimizer +
               bubble + other;
    }
};

struct TrainingResult {
    double step_time_s = 0;
    double tokens_per_s = 0;           ///< whole job
    double model_flops_per_gpu = 0;    ///< FLOP/s per GPU, no recomputation (Korthikanti eq. 7)
    double hardware_flops_per_gpu = 0; ///< FLOP/s per GPU with recomputation (eq. 8)
    double mfu = 0, hfu = 0;           ///< over the dense peak of the training dtype
    double bubble_fraction = 0;
    TrainingBreakdown breakdown; ///< exposed seconds, sums to step_time_s
    int micro_batch = 1;
    std::int64_t micro_batches = 1; ///< per DP rank per step
    /// Kernels the slowest pipeline stage launches per step (layers only) and the GPU idle
    /// between them (TrainingAssumptions::kernel_gap_s each), part of compute and recompute.
    double kernels_per_step = 0, launch_gap_s = 0;
    double time_to_train_s = 0, gpu_hours = 0,
           cost_usd = 0; ///< when tokens (and a price) are given
    TrainingMemory memory;
    // Where each group runs (tier 0 = scale-up domain).
    GroupPlacement tp_group, cp_group, ep_group, dp_group, pp_group;
    std::vector<GroupTraffic> traffic; ///< per group, when explained (issue 22)
    std::vector<TierLoad> tiers;       ///< per fabric tier a group crosses, when explained
    /// The busiest network tier in words: "spine carries DP gradients, 83% busy, 2:1
    /// oversubscribed"; empty when no group leaves a scale-up domain.
    std::string bottleneck;
    /// Whether an oversubscribed tier of the fabric can change this step, in words: no group
    /// crosses it, or the traffic that does runs mostly behind compute (Journey 4: a changed
    /// oversubscription that moves nothing must say why). Empty when no tier is oversubscribed.
    std::string fabric_note;
    std::string explanation;
};

/// Step time and throughput of `t` on `gpus` GPUs of `gpu` over fabric `fabric`.
/// micro_batch 0 = auto: the fastest divisor of global_batch/dp that fits. `known_memory` (the
/// result of training_memory for exactly this spec) saves recomputing it (the search); with it
/// and explain = false the result's `memory` is left empty (the caller has it).
Result<TrainingResult> train_step(const ModelArch& m, const TrainingSpec& t, int gpus,
                                  const GpuSpec& gpu, const Topology& fabric,
                                  const TrainingAssumptions& ta = {},
                                  const CollectiveAssumptions& ca = {},
                                  const MemoryAssumptions& ma = {}, double price_per_gpu_hour = 0,
                                  bool explain = true,
                                  const TrainingMemory* known_memory = nullptr);

} // namespace cl::model
