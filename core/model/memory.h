#pragma once
// Training memory per GPU (model states and activations).
// Sources: Rajbhandari et al. 2020 "ZeRO" (arXiv:1910.02054) sec. 3 and Fig. 1 for model
// states; Korthikanti et al. 2022 (arXiv:2205.05198) Table 2 and sec. 4 for activations.

#include "model/architecture.h"
#include "model/catalog.h"
#include "model/design.h"

#include <string>

namespace cl::model {

/// Editable assumption with a source, shown in the UI and printed by the CLI under "inputs".
struct Assumption {
    double value = 0;
    const char* unit = "";
    const char* source = "";
};

struct MemoryAssumptions {
    /// Framework overhead per GPU: CUDA context, NCCL buffers and allocator fragmentation.
    Assumption framework_overhead_bytes{2.0 * 1024 * 1024 * 1024, "bytes",
                                        "assumption: ~0.5 GB CUDA context + NCCL buffers + "
                                        "caching-allocator fragmentation; see docs/assumptions.md"};
};

/// Bytes per GPU by category; `total` sums them.
struct MemoryBreakdown {
    double weights = 0, gradients = 0, optimizer = 0, activations = 0, kv_cache = 0, other = 0;
    [[nodiscard]] double total() const {
        return weights + gradients + optimizer + activations + kv_cache + other;
    }
};

struct TrainingMemory {
    MemoryBreakdown per_gpu;  ///< the most loaded GPU (worst pipeline stage)
    double capacity_bytes = 0;
    double headroom_bytes = 0; ///< capacity - total (negative when it does not fit)
    bool fits = false;
    int worst_stage = 0;
    int dp = 1;
    int micro_batch = 1;
    double params_per_gpu = 0; ///< parameters held by the worst stage's GPU before ZeRO
    std::string explanation;   ///< one line: why it does (not) fit
};

/// Model-state bytes per GPU for `params` parameters held by one model-parallel rank, sharded
/// by ZeRO stage over `dp` ranks (ZeRO paper sec. 5.1-5.3: P_os, P_os+g, P_os+g+p).
MemoryBreakdown model_state_bytes(double params, const TrainingSpec& t, int dp);

/// Memory of a training job on `gpus` GPUs of type `gpu`.
Result<TrainingMemory> training_memory(const ModelArch& m, const TrainingSpec& t, int gpus,
                                       const GpuSpec& gpu, const MemoryAssumptions& a = {});

} // namespace cl::model
