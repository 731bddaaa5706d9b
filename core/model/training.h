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

/// The few global, documented factors of the training model (docs/training.md).
struct TrainingAssumptions {
    /// FlashAttention-2 reaches 72% of A100 peak in training (Dao 2023, sec. 4.1) where the best
    /// A100 GEMM reaches 86.9% (mamf-finder): attention runs at 0.83 of GEMM efficiency.
    Assumption attention_vs_gemm{0.83, "ratio",
                                 "Dao 2023 (FlashAttention-2) sec. 4.1 / mamf-finder"};
    /// Achieved fraction of HBM bandwidth for elementwise kernels (norms, activations, softmax).
    Assumption memory_efficiency{0.85, "fraction", "assumption (docs/training.md)"};
    /// Fraction of tensor-parallel communication hidden behind GEMMs.
    Assumption tp_overlap{0.0, "fraction",
                          "Megatron-LM runs TP collectives on the critical path unless "
                          "--tp-comm-overlap (docs/training.md)"};
    /// Fraction of the last micro-batch's backward that hides the DP gradient reduction
    /// (Megatron --overlap-grad-reduce; PyTorch DDP buckets).
    Assumption dp_overlap{1.0, "fraction",
                          "Li et al. 2020 (PyTorch DDP) sec. 3.2.3; Megatron-Core"};
    /// MoE: tokens per expert relative to a perfectly balanced router.
    Assumption moe_imbalance{1.1, "ratio",
                             "assumption: load-balancing loss keeps experts within ~10%"};
    /// Sustained training GEMM throughput relative to the best-shape microbenchmark
    /// (mamf-finder): clocks under sustained multi-GPU load, mixed shapes, fused epilogues.
    /// One global factor fitted across all published runs in docs/validation.md.
    Assumption sustained_vs_best_gemm{
        0.85, "ratio", "global calibration over published runs (docs/validation.md)"};
    /// Compute slowdown while communication kernels overlap it: NCCL runs one CTA per channel
    /// on its own SM (16-32 channels of 108-132 SMs).
    Assumption overlap_sm_contention{0.2, "fraction",
                                     "NCCL channels occupy SMs (docs/training.md)"};
    /// Fixed per-step overhead (data loading, logging, launch gaps).
    Assumption step_overhead_s{0.0, "s", "assumption: none by default"};
};

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
    double time_to_train_s = 0, gpu_hours = 0,
           cost_usd = 0; ///< when tokens (and a price) are given
    TrainingMemory memory;
    // Where each group runs (tier 0 = scale-up domain).
    GroupPlacement tp_group, cp_group, ep_group, dp_group, pp_group;
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
