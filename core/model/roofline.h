#pragma once
// The roofline (Williams, Waterman & Patterson 2009, CACM 52(4)): attainable FLOP/s =
// min(peak, arithmetic intensity x bandwidth), per operator of one transformer layer plus the
// logits, for prefill or decode.

#include "model/architecture.h"
#include "model/catalog.h"

#include <string>
#include <vector>

namespace cl::model {

enum class Phase { prefill, decode };

struct RooflineInputs {
    Dtype dtype = Dtype::bf16; ///< compute dtype; weights and KV are stored in it (>= 1 byte)
    Phase phase = Phase::prefill;
    int batch = 1;  ///< sequences
    int seq = 4096; ///< prefill: prompt length; decode: context length so far
    int tp = 1;
    int layer = -1;        ///< which layer to describe (-1: the first MoE layer if any, else 0)
    bool training = false; ///< logits over every token (training) instead of the last one
};

struct Ceiling {
    std::string name; ///< "bf16 peak", "HBM"
    double flops = 0; ///< compute ceiling (FLOP/s), or 0
    double Bps = 0;   ///< bandwidth ceiling (bytes/s), or 0
};

struct OperatorCost {
    std::string name;  ///< qkv, attention, out_proj, mlp_up, mlp_gate, mlp_down, norm, logits,
                       ///< router, experts
    std::string label; ///< for people: "QKV projection", "Attention core", ... (screens, reports)
    double flops = 0, bytes = 0; ///< forward pass
    double backward_flops = 0;   ///< training backward: input and weight gradients, 2x forward
    double intensity = 0;        ///< FLOP per byte
    double attainable_flops = 0; ///< min(peak, intensity x bandwidth)
    bool compute_bound = false;
    double time_s = 0; ///< flops / attainable (the roofline lower bound)
};

struct Roofline {
    double peak_flops = 0, memory_bandwidth_Bps = 0, ridge = 0;
    std::vector<Ceiling> ceilings;
    std::vector<OperatorCost> operators;
    std::string model_name, gpu_name; ///< the catalog's names, for titles
    double layer_time_s = 0;          ///< sum over the layer's operators (excludes logits)
};

/// Per-operator roofline on one GPU of a tp-way group. Errors name the flag at fault.
Result<Roofline> roofline(const ModelArch& m, const GpuSpec& gpu, const RooflineInputs& in);

} // namespace cl::model
