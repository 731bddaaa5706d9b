#include "model/roofline.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>

namespace cl::model {

namespace {
/// The operator names of the CLI's table, as a person reads them.
const char* operator_label(std::string_view name) {
    constexpr std::pair<std::string_view, const char*> kLabels[] = {
        {"qkv", "QKV projection"},
        {"attention", "Attention core"},
        {"out_proj", "Output projection"},
        {"router", "Router"},
        {"experts", "Experts"},
        {"mlp_up", "MLP up"},
        {"mlp_gate", "MLP gate"},
        {"mlp_down", "MLP down"},
        {"norm", "Norms"},
        {"logits", "LM head"}};
    for (const auto& [k, label] : kLabels)
        if (k == name)
            return label;
    return "operator";
}
} // namespace

Result<Roofline> roofline(const ModelArch& m, const GpuSpec& gpu, const RooflineInputs& in) {
    std::vector<Error> errs;
    if (in.batch < 1)
        errs.push_back({"--batch", "must be at least 1"});
    if (in.seq < 1)
        errs.push_back({"--seq", "must be at least 1"});
    if (in.tp < 1 || m.heads % in.tp != 0)
        errs.push_back({"--tp", "TP = " + std::to_string(in.tp) +
                                    " must be at least 1 and divide the model's " +
                                    std::to_string(m.heads) + " attention heads"});
    const double peak = gpu.peak(in.dtype);
    if (peak <= 0)
        errs.push_back({"--dtype", gpu.id + " has no dense " + std::string(dtype_name(in.dtype)) +
                                       " peak in the catalog"});
    if (!errs.empty())
        return errs;

    Roofline r;
    r.model_name = m.name.empty() ? m.id : m.name;
    r.gpu_name = gpu.name.empty() ? gpu.id : gpu.name;
    r.peak_flops = peak;
    r.memory_bandwidth_Bps = gpu.memory_bandwidth_Bps;
    r.ridge = peak / gpu.memory_bandwidth_Bps;
    for (std::size_t i = 0; i < kDtypeCount; ++i) {
        if (gpu.dense_flops[i] > 0)
            r.ceilings.push_back(
                {std::string(dtype_name(static_cast<Dtype>(i))) + " peak", gpu.dense_flops[i], 0});
    }
    // The memory's own kind (HBM3e, GDDR7, LPDDR5X, DDR5): not every device has HBM.
    r.ceilings.push_back({gpu.memory_type.empty() ? std::string("memory") : gpu.memory_type, 0,
                          gpu.memory_bandwidth_Bps});
    // No L2 ceiling: the reference catalog has no sourced L2 bandwidth (only L2 size).

    const double tp = in.tp;
    const double w = std::max(1.0, dtype_bytes(in.dtype)); // weights stored at >= 8 bits
    const double a = 2.0;                                  // activations in 16 bits
    const double kv_b = std::max(1.0, dtype_bytes(in.dtype));
    const double h = m.hidden;
    const double b = in.batch;
    const double s = in.seq;
    const bool prefill = in.phase == Phase::prefill;
    const double T = prefill ? b * s : b; // tokens in this forward pass
    int layer = in.layer;
    if (layer < 0) { // the first MoE layer of an MoE model, else the first layer
        layer = 0;
        if (m.is_moe())
            for (layer = m.dense_layers; layer < m.layers - 1 && !m.is_moe_layer(layer); ++layer) {
            }
    }
    layer = std::clamp(layer, 0, m.layers - 1);
    const bool moe_layer = m.is_moe_layer(layer);

    auto add = [&](const char* name, double flops, double bytes) {
        OperatorCost op;
        op.name = name;
        op.label = operator_label(name);
        op.flops = flops;
        op.backward_flops = 2.0 * flops; // dX and dW GEMMs (Narayanan et al. 2021 sec. 5.1)
        op.bytes = bytes;
        op.intensity = bytes > 0 ? flops / bytes : 0;
        op.attainable_flops = std::min(peak, op.intensity * gpu.memory_bandwidth_Bps);
        op.compute_bound = op.intensity >= r.ridge;
        op.time_s = op.attainable_flops > 0 ? flops / op.attainable_flops : 0;
        r.operators.push_back(op);
    };
    // A linear layer (d_in x d_out, sharded over TP) on T tokens: 2 T d_in d_out FLOPs; reads
    // its weights once and the input, writes the output.
    auto linear = [&](const char* name, double d_in, double d_out) {
        add(name, 2.0 * T * d_in * d_out / tp,
            d_in * d_out / tp * w + T * d_in * a + T * d_out / tp * a);
    };

    double q_width, kv_width, v_width;
    if (m.attention() == AttentionKind::mla) {
        q_width = static_cast<double>(m.heads) * (m.qk_nope_head_dim + m.qk_rope_head_dim);
        kv_width = m.kv_lora_rank + m.qk_rope_head_dim;
        v_width = static_cast<double>(m.heads) * m.v_head_dim;
        const double proj = m.attention_params_per_layer() - v_width * h;
        add("qkv", 2.0 * T * proj / tp,
            proj / tp * w + T * h * a + T * (q_width / tp + kv_width) * a);
    } else {
        q_width = static_cast<double>(m.heads) * m.head_dim;
        kv_width = 2.0 * m.kv_heads * m.head_dim;
        v_width = q_width;
        linear("qkv", h, q_width + kv_width);
    }
    // Attention core (FlashAttention-style, one pass over K/V): prefill is causal, so each
    // query sees on average half the prompt; decode attends to the whole context. K/V bytes:
    // prefill reads what it just wrote, decode reads the KV cache.
    {
        const double heads_q = q_width / tp;
        // A local layer sees at most its window (sliding) or its own chunk (chunked).
        const bool local = m.is_local_layer(layer);
        const double ctx = prefill ? m.causal_context(s, local) : m.attended_context(s, local);
        // MLA decodes absorbed (ModelArch::mla_absorbed_flops_per_cached_token, as the serving
        // model charges it).
        const double flops = m.attention() == AttentionKind::mla && !prefill
                                 ? T * ctx * m.mla_absorbed_flops_per_cached_token() / tp
                                 : 2.0 * T * ctx * (heads_q + v_width / tp);
        const double kv_cache = m.attention() == AttentionKind::mla
                                    ? kv_width
                                    : std::max(1.0, m.kv_heads / tp) * 2.0 * m.head_dim;
        const double kv_bytes = b * (prefill ? m.kept_context(s, local) : ctx) * kv_cache * kv_b;
        const double bytes = kv_bytes + T * heads_q * a + T * v_width / tp * a;
        add("attention", flops, bytes);
    }
    linear("out_proj", v_width, h);
    const double mats_f = moe_layer ? m.moe_ffn : m.ffn;
    if (moe_layer) {
        add("router", 2.0 * T * h * m.experts, h * m.experts * w + T * h * a + T * m.experts * 4.0);
        // Tokens go to top_k of E experts: the expected number of distinct experts touched by T
        // tokens is E(1 - (1 - k/E)^T); their weights are read once (assumes uniform routing).
        const double E = m.experts, k = m.top_k;
        const double touched = E * (1.0 - std::pow(1.0 - k / E, T)) + m.shared_experts;
        const double per_expert = (m.mlp == Mlp::swiglu ? 3.0 : 2.0) * h * mats_f / tp;
        const double flops = 2.0 * T * (k + m.shared_experts) * per_expert;
        const double bytes =
            touched * per_expert * w + T * (k + m.shared_experts) * (h + mats_f / tp) * a * 2.0;
        add("experts", flops, bytes);
    } else {
        linear("mlp_up", h, mats_f);
        if (m.mlp == Mlp::swiglu)
            linear("mlp_gate", h, mats_f);
        linear("mlp_down", mats_f, h);
    }
    // Two RMSNorm/LayerNorms per layer: ~5 FLOPs per element, read + write 16-bit.
    add("norm", 2.0 * 5.0 * T * h, 2.0 * 2.0 * T * h * a);
    for (const auto& op : r.operators)
        r.layer_time_s += op.time_s;
    // Logits: inference computes them for the last position of each sequence only; training
    // for every token.
    const double rows = in.training && prefill ? T : b;
    add("logits", 2.0 * rows * h * m.vocab / tp,
        h * static_cast<double>(m.vocab) / tp * w + rows * h * a + rows * m.vocab / tp * 4.0);
    return r;
}

} // namespace cl::model
