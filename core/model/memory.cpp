#include "model/memory.h"

#include "model/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cl::model {

namespace {

/// Bytes per parameter for weights, gradients and optimizer states (ZeRO paper sec. 3.1:
/// mixed-precision Adam keeps fp16 weights (2) and gradients (2) plus K = 12 bytes of fp32
/// master weights, momentum and variance).
struct StateBytes {
    double weights, gradients, optimizer;
};

StateBytes state_bytes(const TrainingSpec& t) {
    const bool fp32 = t.dtype == "fp32";
    const double w = fp32 ? 4.0 : 2.0; // fp8 training keeps bf16 weights (Transformer Engine)
    const double g = fp32 ? 4.0 : 2.0;
    const double master = fp32 ? 0.0 : 4.0;
    double states = 8.0; // AdamW: fp32 momentum + variance (Loshchilov & Hutter 2019)
    if (t.optimizer == "adamw-8bit")
        states = 2.0; // Dettmers et al. 2022 (arXiv:2110.02861): two 8-bit states
    else if (t.optimizer == "sgd")
        states = 4.0; // SGD with momentum: one fp32 state
    return {w, g, master + states};
}

} // namespace

MemoryBreakdown model_state_bytes(double params, const TrainingSpec& t, int dp) {
    const StateBytes sb = state_bytes(t);
    const double shard = dp; // ZeRO shards over the data-parallel group (ZeRO sec. 5, Fig. 1)
    MemoryBreakdown b;
    b.weights = params * sb.weights / (t.zero >= 3 ? shard : 1.0);
    b.gradients = params * sb.gradients / (t.zero >= 2 ? shard : 1.0);
    b.optimizer = params * sb.optimizer / (t.zero >= 1 ? shard : 1.0);
    return b;
}

Result<TrainingMemory> training_memory(const ModelArch& m, const TrainingSpec& t, int gpus,
                                       const GpuSpec& gpu, const MemoryAssumptions& a) {
    const int mp = t.tp * t.pp * t.cp;
    if (gpus < 1)
        return Error{"gpus", "must be at least 1"};
    if (mp < 1 || gpus % mp != 0)
        return Error{"tp*pp*cp", "tp*pp*cp = " + std::to_string(mp) + " does not divide " +
                                     std::to_string(gpus) + " GPUs"};
    const int dp = gpus / mp;
    if ((dp * t.cp) % t.ep != 0)
        return Error{"ep", "ep = " + std::to_string(t.ep) + " does not divide dp*cp = " +
                               std::to_string(dp * t.cp)};
    if (t.pp > m.layers)
        return Error{"pp", "pp = " + std::to_string(t.pp) + " exceeds the model's " +
                               std::to_string(m.layers) + " layers"};
    TrainingMemory out;
    out.dp = dp;

    // Parameters on the worst stage. Layers need not divide pp (uneven stages, CLI.md);
    // the first stage holds ceil(L/pp) layers and the embedding (Narayanan et al. 2021 sec. 2).
    const int layers_per_stage = (m.layers + t.pp - 1) / t.pp;
    const double tp = t.tp;
    const double dense_layer = m.attention_params_per_layer() + m.norm_params_per_layer();
    const double mlp_layer = m.is_moe() ? 0.0 : m.dense_mlp_params_per_layer();
    const double moe_layer = m.is_moe() ? m.expert_params_per_layer() / t.ep : 0.0;
    double stage_params = layers_per_stage * (dense_layer + mlp_layer + moe_layer) / tp;
    const double first_extra = m.embedding_params() / tp;
    const double last_extra = m.output_params() / tp;
    out.worst_stage = 0;
    stage_params += t.pp == 1 ? first_extra + last_extra : std::max(first_extra, last_extra);
    if (t.pp > 1 && last_extra > first_extra)
        out.worst_stage = t.pp - 1;
    out.params_per_gpu = stage_params;

    MemoryBreakdown& b = out.per_gpu;
    b = model_state_bytes(stage_params, t, dp);

    // Activations per layer (bytes), Korthikanti et al. 2022 Table 2, with flash attention
    // (no s^2 score storage, so "none" equals "selective") and sequence parallelism dividing
    // the non-tensor-parallel parts by t.
    const double s = static_cast<double>(t.seq) / t.cp; // CP splits the sequence
    const int mb = t.micro_batch > 0 ? t.micro_batch : 1;
    out.micro_batch = mb;
    const double h = m.hidden;
    const double sbh = s * mb * h;
    double per_layer = 0;
    if (t.recompute == "full")
        per_layer = 2.0 * sbh / (t.sequence_parallel ? tp : 1.0); // layer input only
    else if (t.sequence_parallel)
        per_layer = 34.0 * sbh / tp;
    else
        per_layer = sbh * (10.0 + 24.0 / tp);
    // Micro-batches in flight on the first stage under 1F1B: p (Narayanan et al. 2021);
    // interleaving multiplies by 1 + (p-1)/(p*v) (Korthikanti et al. 2022 sec. 4.2.3).
    const std::int64_t micro_batches =
        t.global_batch > 0 ? std::max<std::int64_t>(1, t.global_batch / (dp * mb)) : t.pp;
    double in_flight = std::min<double>(t.pp, static_cast<double>(micro_batches));
    if (t.schedule == "gpipe")
        in_flight = static_cast<double>(micro_batches);
    if (t.vpp > 1)
        in_flight *= 1.0 + (t.pp - 1.0) / (t.pp * static_cast<double>(t.vpp));
    b.activations = per_layer * layers_per_stage * in_flight;
    b.other = a.framework_overhead_bytes.value;

    out.capacity_bytes = gpu.memory_bytes;
    out.headroom_bytes = out.capacity_bytes - b.total();
    out.fits = out.headroom_bytes >= 0;
    char buf[256];
    const double states = b.weights + b.gradients + b.optimizer;
    std::snprintf(buf, sizeof buf, "%s: model states %s + activations %s + other %s = %s of %s",
                  out.fits ? "fits" : "does not fit", units::format_bytes(states).c_str(),
                  units::format_bytes(b.activations).c_str(), units::format_bytes(b.other).c_str(),
                  units::format_bytes(b.total()).c_str(),
                  units::format_bytes(out.capacity_bytes).c_str());
    out.explanation = buf;
    return out;
}

} // namespace cl::model
