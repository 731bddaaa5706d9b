#include "model/training.h"

#include "model/flops.h"
#include "model/gemm_shape.h"
#include "model/units.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>

namespace cl::model {

namespace {

struct Hw {
    double peak = 0;      ///< dense peak of the training dtype
    double gemm = 0;      ///< achievable GEMM FLOP/s
    double attention = 0; ///< achievable FlashAttention FLOP/s
    double hbm = 0;       ///< achievable bytes/s for elementwise kernels
    /// Per-tensor FP8 GEMMs need a transposed copy for backward (Hopper, Ada); Blackwell runs
    /// every layout natively (TE fp8_current_scaling.rst; utils.py is_non_tn_fp8_gemm_supported).
    bool fp8_transpose = true;
    /// The K-loop's fixed cost in K elements (pipeline fill and drain): about four K-steps, a
    /// step being one 128-byte row of the operand tiles (CUTLASS's Hopper examples: 128 x 128 x
    /// 32 tiles for 4-byte TF32 in 48_hopper_warp_specialized_gemm, 128 x 128 x 128 for FP8 in
    /// 54_hopper_fp8_warp_specialized_gemm; 64 deep for 16-bit types). So 256 for 16-bit
    /// GEMMs, 512 for 8-bit ones: the same fixed time is twice as much of an FP8 GEMM's K, and
    /// small-K GEMMs (MoE experts) gain less from FP8 than their peak says.
    double k0 = 256;
};

/// Time of one GEMM of (m x k) by (k x n): compute at measured efficiency with tile
/// quantisation, or memory when the operands dominate (the roofline, Williams et al. 2009).
double gemm_time(const Hw& hw, double m, double k, double n, double weight_bytes) {
    if (m <= 0 || k <= 0 || n <= 0)
        return 0;
    const double flops = 2.0 * m * k * n;
    // Each output tile runs a K-loop of 64-deep steps behind a multistage pipeline whose fill
    // and drain cost about four steps (CUTLASS multistage mainloop): efficiency K / (K + 256).
    const double eff = tile_factor(m) * tile_factor(n) * tile_factor(k) * k / (k + hw.k0);
    const double bytes = k * n * weight_bytes + (m * k + m * n) * 2.0;
    return std::max(flops / (hw.gemm * eff), bytes / hw.hbm);
}

/// Distinct nodes a token's top_k routed experts fall on, the EP group's experts spread evenly
/// over `kn` nodes in order (consecutive experts on consecutive EP ranks). Without a routing
/// limit each copy picks a node at random: kn (1 - (1 - 1/kn)^top_k). With group-limited
/// routing (ModelArch::router_groups; DeepSeek-V3's node-limited routing, report sec. 2.1.2:
/// "each token will be sent to at most M nodes", M = 4) the copies fall in the M chosen groups
/// of G, each chosen group receiving one with q = 1 - (1 - 1/M)^top_k; a node holding G / kn
/// groups is missed when none of its chosen groups received one (the number of its groups
/// chosen is hypergeometric). A group spanning several nodes (G < kn) confines the copies to
/// M kn / G of them.
double nodes_touched(const ModelArch& m, double kn) {
    if (kn <= 1)
        return 1.0;
    const double k = m.top_k;
    const int G = m.router_groups, M = m.router_group_top_k;
    if (G > 1 && M >= 1 && M < G) {
        if (G >= kn) {
            const double q = 1.0 - std::pow(1.0 - 1.0 / M, k);
            const double per_node = G / kn;
            const int g = static_cast<int>(std::lround(per_node));
            double missed = 0;
            if (std::abs(per_node - g) < 1e-9) {
                // P(x of the node's g groups among the M chosen of G), hypergeometric.
                const auto lchoose = [](double n, double r) {
                    return std::lgamma(n + 1) - std::lgamma(r + 1) - std::lgamma(n - r + 1);
                };
                for (int x = 0; x <= std::min(g, M); ++x) {
                    if (M - x > G - g)
                        continue;
                    missed += std::exp(lchoose(g, x) + lchoose(G - g, M - x) - lchoose(G, M)) *
                              std::pow(1.0 - q, x);
                }
            } else {
                missed = std::pow(1.0 - q * M / G, per_node); // groups straddle nodes
            }
            return kn * (1.0 - missed);
        }
        const double allowed = std::max(1.0, M * kn / G);
        return allowed * (1.0 - std::pow(1.0 - 1.0 / allowed, k));
    }
    return kn * (1.0 - std::pow(1.0 - 1.0 / kn, k));
}

/// Kernels an eager framework (Megatron-Core with Transformer Engine) launches for one layer
/// and one micro-batch on one GPU, forward and backward. Each leaves the GPU idle for
/// TrainingAssumptions::kernel_gap_s (launch latency, the host catching up after a sync), which
/// matters where per-GPU work is short: small models, small experts, small micro-batches.
/// Counted from the modules (Megatron-Core transformer_layer.py, moe_layer.py,
/// token_dispatcher.py; TE LayerNormLinear, DotProductAttention, GroupedLinear): only the
/// kernels named here, not the framework's small index, copy and fill kernels (the profile
/// behind kernel_gap_s counts 151 kernels per layer and micro-batch of Qwen3 30B-A3B where this
/// count gives 92), so the idle time it adds is a lower bound.
struct KernelCount {
    double fwd = 0, bwd = 0;
};

KernelCount kernels_per_layer(const ModelArch& m, const TrainingSpec& t, bool moe_layer,
                              bool flash) {
    const bool lora = t.finetune == Finetune::lora || t.finetune == Finetune::qlora;
    const bool sp = t.sequence_parallel && t.tp > 1;
    double gemms = 0, other = 0, attn_core = 0;
    // FP8 (Transformer Engine): a tensor quantised on its own costs one cast-transpose kernel
    // with delayed scaling, three with current scaling (amax, scale, cast: fp8_current_
    // scaling.rst); a norm feeding a GEMM casts in the same kernel with delayed scaling only.
    // GroupedLinear casts every expert's slice in one kernel for delayed scaling and one by one
    // for the other recipes (TE PR #1525: the fused multi-cast exists for per-tensor delayed
    // scaling only).
    // MXFP8 (TE mxfp8.rst): one kernel casts a tensor both row-wise and column-wise, its block
    // scales computed inside; the norm is not fused with it (delayed scaling only).
    const bool fp8 = t.dtype == TrainingDtype::fp8;
    const bool current = fp8 && t.fp8_scaling == Fp8Scaling::current;
    const bool norm_fused = fp8 && t.fp8_scaling == Fp8Scaling::delayed;
    const double per_tensor = !fp8 ? 0.0 : current ? 3.0 : 1.0;
    double cast_fwd = 0, cast_bwd = 0;
    const auto linear = [&](double n, bool norm_fed) {
        gemms += n;
        cast_fwd += (norm_fed && norm_fused ? 0.0 : per_tensor) * n;
        cast_bwd += per_tensor * n; // the output gradient
    };
    // Attention: input norm, QKV (MLA: down- and up-projections with their norms), rotary on Q
    // and K, the attention core (FlashAttention: one kernel; unfused: scores, masked softmax,
    // context, dropout), output projection, fused bias-dropout-add.
    other += 1.0;
    if (m.attention() == AttentionKind::mla) {
        linear(1.0, true);
        linear(m.q_lora_rank > 0 ? 3.0 : 2.0, false);
        other += m.q_lora_rank > 0 ? 2.0 : 1.0;
    } else {
        linear(1.0, true);
    }
    if (!m.learned_positions)
        other += 2.0;
    attn_core = flash ? 1.0 : 2.0 + (m.dropout ? 2.0 : 1.0);
    linear(1.0, false);
    other += 1.0;
    // TP collectives: all-gather and reduce-scatter per block with SP, one all-reduce without.
    const double tp_colls = t.tp > 1 ? (sp ? 4.0 : 2.0) : 0.0;
    other += tp_colls;
    other += 1.0; // the MLP's (or MoE's) input norm
    if (moe_layer) {
        const double local_experts =
            std::max(1.0, static_cast<double>(m.experts) / std::max(1, t.ep));
        // Router GEMM, its scoring and top-k, the dispatcher's preprocessing, dispatch and
        // permutation, each local expert's two projections (one cuBLAS call each in
        // GroupedLinear on Hopper), the activation, un-permutation and combine.
        gemms += 1.0;
        other += 4.0 + 3.0 + 1.0 + 2.0;
        if (t.moe_dispatcher == MoeDispatcher::alltoall && t.ep > 1 && local_experts > 1)
            other += 2.0; // sort the received chunks by expert and back
        gemms += 2.0 * local_experts;
        // Both GroupedLinears cast their inputs: Megatron-Core dispatches in BF16 with every
        // backend (fused_a2a.py at d98e8a6: "we do not support fp8 dispatch").
        const double per_grouped = norm_fused ? per_tensor : per_tensor * local_experts;
        cast_fwd += per_grouped * 2.0;
        cast_bwd += per_grouped * 2.0;
        if (m.shared_experts > 0) {
            linear(2.0, false);
            other += 1.0;
        }
    } else {
        linear(1.0, true);
        linear(1.0, false);
        other += 1.0; // activation
    }
    other += 1.0; // bias-dropout-add
    KernelCount k;
    k.fwd = gemms + other + attn_core + cast_fwd;
    // Backward: each GEMM's input and weight gradients (input only for frozen LoRA weights),
    // every other kernel's backward once, FlashAttention's backward (preprocessing + main).
    k.bwd = (lora ? 1.0 : 2.0) * gemms + other + (flash ? 2.0 : 2.0 * attn_core) + cast_bwd;
    return k;
}

/// What Megatron-Core's recompute modules run again in one layer's backward (selective
/// recompute; docs/training.md, "Recompute modules"): the module's forward, and in FP8 the
/// casts. An output-discarding module (layernorm, moe_act, mla_up_proj) has the next linear save
/// its 16-bit input (set_save_original_input), which moves that linear's column-wise cast from
/// forward to backward: the extra is a second read of the 16-bit input (and with current
/// scaling its amax), `fp8_reread` bytes a value. A recomputed dense MLP (a normal checkpoint)
/// casts its inputs again in full, `fp8_cast` bytes a value. The tokens, the norm's tokens, the
/// MLP's tokens, split and width are the layer's own. Communication is charged by the caller.
/// MLA's projections into the attention's heads, as (input width, output width) before any TP
/// split: K/V from its latent (heads x (nope + v)), Q from its latent or, without one, from the
/// hidden state (heads x (nope + rope)). What `mla_up_proj` recomputes; its time and its
/// hardware FLOPs both come from here.
struct Projection {
    double in = 0, out = 0;
};
std::array<Projection, 2> mla_up_projections(const ModelArch& m) {
    const double heads = m.heads;
    return {Projection{static_cast<double>(m.kv_lora_rank),
                       heads * (m.qk_nope_head_dim + m.v_head_dim)},
            Projection{static_cast<double>(m.q_lora_rank > 0 ? m.q_lora_rank : m.hidden),
                       heads * (m.qk_nope_head_dim + m.qk_rope_head_dim)}};
}

struct ModuleRecompute {
    double time = 0, kernels = 0;
};

ModuleRecompute module_recompute(const ModelArch& m, const TrainingSpec& t, bool moe_layer,
                                 double T, double tok_norm, double mlp_tokens, double mlp_split,
                                 double f, double fp8_cast, double fp8_reread, const Hw& hw) {
    ModuleRecompute r;
    const bool mla = m.attention() == AttentionKind::mla;
    const bool fp8 = t.dtype == TrainingDtype::fp8;
    const bool current = fp8 && t.fp8_scaling == Fp8Scaling::current;
    const bool norm_fused = fp8 && t.fp8_scaling == Fp8Scaling::delayed;
    const double per_tensor = !fp8 ? 0.0 : current ? 3.0 : 1.0; // cast kernels, as counted
    const double h = m.hidden, tp = t.tp, wb = 2.0;
    const double norm_bytes = 2.0 * 2.0 * h * tok_norm; // read and write 16-bit values
    if (t.recompute_layernorm) {
        // The norms that are modules of their own: an MoE layer's pre-MLP norm (its output feeds
        // the router and the dispatch in 16 bits, and the shared experts' first linear) and
        // MLA's input norm (feeding the Q and KV down-projections, each casting its input).
        if (moe_layer) {
            const double casts = m.shared_experts > 0 ? 1.0 : 0.0;
            r.time += (norm_bytes + casts * fp8_reread * T * h) / hw.hbm;
            r.kernels += 1.0 + casts * per_tensor;
        }
        if (mla) {
            const double casts = m.q_lora_rank > 0 ? 2.0 : 1.0;
            r.time += (norm_bytes + casts * fp8_reread * tok_norm * h) / hw.hbm;
            r.kernels += 1.0 + casts * per_tensor;
        }
    }
    const double act_bytes = (m.mlp == Mlp::swiglu ? 6.0 : 4.0) * f / mlp_split * mlp_tokens;
    if (t.recompute_moe_act && moe_layer) {
        // The routed experts' activation, and in FP8 the second GroupedLinear's input read again
        // for its column-wise cast (per expert, as kernels_per_layer counts them).
        const double local_experts =
            std::max(1.0, static_cast<double>(m.experts) / std::max(1, t.ep));
        r.time += (act_bytes + fp8_reread * mlp_tokens * f / mlp_split) / hw.hbm;
        r.kernels += 1.0 + (norm_fused ? per_tensor : per_tensor * local_experts);
    }
    if (t.recompute_mla_up_proj && mla) {
        // Inside Megatron's checkpoint (qkv_up_proj_and_rope_apply): the latents' norms, the KV
        // up-projection, Q's up-projection (or, without a Q latent, Q's projection from the
        // hidden state), RoPE and the assembly of Q, K and V (read and write, twice, as the
        // forward's rotary pass counts them).
        const double heads = m.heads;
        const double qk = heads * (m.qk_nope_head_dim + m.qk_rope_head_dim);
        const double v = heads * m.v_head_dim;
        for (const Projection& p : mla_up_projections(m))
            r.time += gemm_time(hw, T, p.in, p.out / tp, wb);
        const double latents =
            static_cast<double>(m.kv_lora_rank) + (m.q_lora_rank > 0 ? m.q_lora_rank : 0);
        const double norms = m.q_lora_rank > 0 ? 2.0 : 1.0;
        const double bytes = 2.0 * 2.0 * latents * T + 2.0 * 2.0 * 2.0 * (2.0 * qk + v) / tp * T;
        r.time += (bytes + fp8_reread * T * latents) / hw.hbm;
        r.kernels += norms + 2.0 + 2.0 + 2.0 * per_tensor;
    }
    if (t.recompute_mlp && !moe_layer) {
        // The whole dense MLP (TE LayerNormMLP: its norm, both projections, the activation) with
        // its casts (the first fused into the norm with delayed scaling).
        const double mats = m.mlp == Mlp::swiglu ? 3.0 : 2.0;
        r.time += (mats - 1) * gemm_time(hw, T, h, f / tp, wb) + gemm_time(hw, T, f / tp, h, wb);
        const double cast_in = norm_fused ? 0.0 : fp8_cast * tok_norm * h;
        r.time += (norm_bytes + act_bytes + cast_in + fp8_cast * T * f / tp) / hw.hbm;
        r.kernels += 4.0 + (norm_fused ? 1.0 : 2.0) * per_tensor;
    }
    return r;
}

/// Bytes a tensor-parallel group all-gathers again when the recompute modules run (the dense
/// MLP's collectives are counted with the layer's): MLA's up-projections gather their latents
/// under sequence parallelism, or the hidden state for Q's projection without a Q latent.
double module_recompute_gather_bytes(const ModelArch& m, const TrainingSpec& t, double T) {
    if (t.recompute != Recompute::selective || !t.recompute_mla_up_proj ||
        m.attention() != AttentionKind::mla || !(t.sequence_parallel && t.tp > 1))
        return 0;
    return 2.0 * T *
           (m.kv_lora_rank + (m.q_lora_rank > 0 ? m.q_lora_rank : static_cast<double>(m.hidden)));
}

struct LayerTimes {
    double fwd = 0, bwd = 0, recompute = 0;
    double gaps = 0;    ///< kernel launch gaps inside fwd + bwd (+ a full recompute's forward)
    double kernels = 0; ///< kernels launched (forward + backward)
    double attention_fwd = 0; ///< the attention core alone (CP overlap)
};

/// One transformer layer, one micro-batch, one GPU.
LayerTimes layer_times(const ModelArch& m, const TrainingSpec& t, bool moe_layer, double b,
                       const Hw& hw, bool flash, const TrainingAssumptions& ta) {
    const double tp = t.tp;
    const double s_local = static_cast<double>(t.seq) / t.cp;
    const double T = s_local * b; // tokens of this GPU's sequence shard
    const double h = m.hidden;
    const bool sp = t.sequence_parallel && t.tp > 1;
    const double wb = 2.0; // 16-bit weights feed the GEMMs (fp8 casts are fused)
    const bool lora = t.finetune == Finetune::lora || t.finetune == Finetune::qlora;
    LayerTimes lt;
    // GEMMs (forward).
    double q = static_cast<double>(m.heads) * m.head_dim,
           kv = static_cast<double>(m.kv_heads) * m.head_dim, v_width = q;
    double gemm_fwd = 0;
    if (m.attention() == AttentionKind::mla) {
        const double proj =
            m.attention_params_per_layer() - static_cast<double>(m.heads) * m.v_head_dim * h;
        v_width = static_cast<double>(m.heads) * m.v_head_dim;
        gemm_fwd += gemm_time(hw, T, h, proj / h / tp, wb);
        q = static_cast<double>(m.heads) * (m.qk_nope_head_dim + m.qk_rope_head_dim);
    } else {
        gemm_fwd += gemm_time(hw, T, h, (q + 2 * kv) / tp, wb);
    }
    gemm_fwd += gemm_time(hw, T, v_width / tp, h, wb);
    const double mats = m.mlp == Mlp::swiglu ? 3.0 : 2.0;
    double f = m.ffn;
    double mlp_tokens = T;
    double mlp_split = tp; // the GPUs one MLP's weight matrices are split over
    if (moe_layer) {
        f = m.moe_ffn;
        // Each EP rank processes top_k routed copies of its share of tokens (x imbalance), plus
        // shared experts on all tokens; routed experts split over ETP (TP by default). With
        // ETP < TP (parallel folding) a GPU runs etp/tp of the copies through wider slices:
        // the same FLOPs, other GEMM shapes.
        mlp_split = t.expert_tp();
        mlp_tokens = T * m.top_k * ta.moe_imbalance.value * mlp_split / tp;
        gemm_fwd += gemm_time(hw, T, h, m.experts, wb); // router
        if (m.shared_experts > 0)
            gemm_fwd += (mats - 1) * gemm_time(hw, T, h, m.moe_ffn * m.shared_experts / tp, wb) +
                        gemm_time(hw, T, m.moe_ffn * m.shared_experts / tp, h, wb);
    }
    gemm_fwd += (mats - 1) * gemm_time(hw, mlp_tokens, h, f / mlp_split, wb) +
                gemm_time(hw, mlp_tokens, f / mlp_split, h, wb);
    // FP8 (Transformer Engine): each linear layer's input is quantised in forward and its
    // output gradient in backward, each by one fused kernel that reads the 16-bit tensor and
    // writes the FP8 copy and the copy the other-axis GEMMs of backward read (a transpose on
    // Hopper): 2 + 1 + 1 B per element (TE docs, features/low_precision_training/
    // performance_considerations, "Handling transposes"); Blackwell needs no transposed copy for
    // per-tensor FP8 ("rowwise and columnwise tensors share the same physical memory layout",
    // fp8_current_scaling.rst): 2 + 1 B. Routed tokens DeepEP already dispatched in FP8 are not
    // quantised again. Weights are quantised once per step (TE caches them across micro-batches)
    // and not counted; the router stays in 16 bits.
    // Delayed scaling: inputs that come out of a norm (QKV, the MLP's first projection) are
    // quantised inside the fused LayerNormLinear/LayerNormMLP kernel ("Fused layers") and cost
    // nothing extra. Current scaling (per tensor): "Quantization is a memory-bound operation
    // that requires reading the tensor twice" (fp8_current_scaling.rst: an amax pass, then the
    // cast), +2 B per quantised element; and the norm is not fused with the cast (TE
    // normalization.cpp rmsnorm_fwd: the fused kernel only for delayed scaling; the norm writes
    // 16 bits with its amax, then quantize_with_amax casts): the norm outputs pay the cast too.
    double fp8_cast_fwd = 0, fp8_cast_bwd = 0;
    // Bytes a value to cast an input again when a recompute module runs (module_recompute).
    double fp8_cast_again = 0, fp8_reread = 0;
    if (t.dtype == TrainingDtype::fp8) {
        const bool current = t.fp8_scaling == Fp8Scaling::current;
        const bool mx = t.fp8_scaling == Fp8Scaling::mxfp8;
        const double t_in = sp ? T / tp : T; // sequence-parallel shards before the all-gather
        const double qkv_out = m.attention() == AttentionKind::mla
                                   ? (m.attention_params_per_layer() -
                                      static_cast<double>(m.heads) * m.v_head_dim * h) /
                                         h
                                   : q + 2 * kv;
        double in = T * v_width / tp;             // the out-projection's input
        double out = T * qkv_out / tp + t_in * h; // QKV's and the out-projection's gradients
        // An MLP over `tokens` (its second projection's gradient over `out_tokens`: the
        // sequence-parallel shard), `quantised_in` input elements quantised on their own.
        const auto mlp = [&](double tokens, double width, double split, double quantised_in,
                             double out_tokens) {
            in += quantised_in + tokens * width / split;
            out += tokens * (mats - 1) * width / split + out_tokens * h;
        };
        if (moe_layer) {
            if (m.shared_experts > 0)
                mlp(T, static_cast<double>(m.moe_ffn) * m.shared_experts, tp, 0.0, t_in);
            // The routed tokens arrive in BF16 whatever the dispatcher (Megatron-Core's flex
            // dispatcher passes DeepEP and HybridEP one BF16 tensor: fused_a2a.py at d98e8a6,
            // "HybridEP dispatcher does not support fp8 dispatch now"; Megatron-LM issue
            // #3578), so they are cast on their own.
            mlp(mlp_tokens, f, mlp_split, mlp_tokens * h, mlp_tokens);
        } else {
            mlp(T, f, tp, 0.0, t_in);
        }
        // MXFP8 (Blackwell): a scale per 32 consecutive values, so the row-wise copy forward
        // GEMMs read and the column-wise copy backward's other-axis GEMMs read are quantised
        // independently from the 16-bit tensor ("one cannot derive one from the other", TE
        // mxfp8.rst, "Handling transposes"): 2 + 1 + 1 B plus an E8M0 scale per 32 values in
        // each direction, in one pass (no separate amax read: each block's comes with it).
        const double cast = mx                 ? 2.0 + 2.0 * kMxfp8CopyBytes
                            : hw.fp8_transpose ? 4.0
                                               : 3.0; // bytes per element, one pass
        // Current scaling: the amax read on every tensor cast on its own, and the norm outputs
        // cast unfused (their amax comes out of the norm kernel; the sequence-parallel shard):
        // the attention's and the MLP's, or in an MoE layer the attention's only (the routed
        // tokens are cast on their own, above, after the router reads the norm's output).
        const double norm_out = current || mx ? (moe_layer ? 1.0 : 2.0) * t_in * h : 0.0;
        const double amax = current ? 2.0 : 0.0;
        fp8_cast_again = cast + amax;
        fp8_reread = 2.0 + amax;
        fp8_cast_fwd = ((cast + amax) * in + cast * norm_out) / hw.hbm;
        fp8_cast_bwd = (cast + amax) * out / hw.hbm;
    }

    // Attention core.
    double attn_fwd = 0, attn_bwd = 0;
    const double heads_local = q / tp;
    // Local (sliding-window) layers attend to at most their window: a layer's attention core is
    // the model's average over its global and local layers (a stage differs from it by the
    // attention of the few layers it holds of one kind more than the average).
    const double seq = t.seq;
    const int n_local = m.local_layers_in(0, m.layers);
    const double avg_ctx =
        ((m.layers - n_local) * seq / 2.0 + n_local * m.causal_context(seq, true)) / m.layers;
    const double window_share = avg_ctx / (seq / 2.0);
    if (flash) {
        // Causal: each query sees half the (full, CP-gathered) context on average.
        const double flops = 2.0 * T * avg_ctx * (heads_local + v_width / tp);
        attn_fwd = flops / hw.attention;
        attn_bwd = 2.5 * attn_fwd; // FA2 backward: 5 GEMMs vs 2 forward (Dao 2023 sec. 3.1.2)
    } else {
        // Megatron-LM 2021/22 style: full s x s scores through GEMMs, then scale+mask+softmax
        // (+dropout) as memory-bound kernels over heads/tp x s x s x b elements.
        const double flops = 4.0 * T * t.seq * heads_local * window_share;
        const double elems = m.heads / tp * s_local * t.seq * b * window_share;
        const double bytes = elems * (m.dropout ? 9.0 : 4.0);
        attn_fwd = flops / hw.gemm + bytes / hw.hbm;
        attn_bwd = 2.0 * flops / hw.gemm + 1.5 * bytes / hw.hbm;
    }
    lt.attention_fwd = attn_fwd;

    // Elementwise kernels (bytes per token, forward): two norms (read + write), activation,
    // residual adds, rotary embedding, dropout where the model trains with it.
    const double tok_norm = sp ? T / tp : T;
    double elem = 2.0 * 2.0 * 2.0 * h * tok_norm;                                        // norms
    elem += (m.mlp == Mlp::swiglu ? 6.0 : 4.0) * 2.0 / 2.0 * f / mlp_split * mlp_tokens; // act.
    // Two residual adds, each fused with the preceding bias and dropout into one kernel
    // (Megatron bias_dropout_add_fused): read x and the residual, write the sum, 2 B each,
    // plus a 1-byte dropout mask where the model trains with dropout.
    elem += 2.0 * (3.0 * 2.0 + (m.dropout ? 1.0 : 0.0)) * h * tok_norm;
    if (!m.learned_positions)
        elem += 2.0 * 2.0 * 2.0 * (q + kv) / tp * T; // rotary on Q and K
    if (moe_layer) {
        // Token movement around the experts (Megatron-Core token_dispatcher.py): the routed
        // copies are gathered into expert order before the experts (permute: read and write
        // each copy) and scattered back and summed with their router weights after them
        // (unpermute: read each copy, write each token). The alltoall dispatcher also sorts the
        // received chunks by local expert and back (sort_chunks_by_idxs) when a GPU holds
        // several experts of an EP group. Each pass moves h 16-bit values per row; backward
        // moves the gradients through the same passes.
        const double local_experts = static_cast<double>(m.experts) / std::max(1, t.ep);
        double rows = 2.0 * mlp_tokens + (mlp_tokens + T); // permute + unpermute
        if (t.moe_dispatcher == MoeDispatcher::alltoall && t.ep > 1 && local_experts > 1)
            rows += 2.0 * 2.0 * mlp_tokens; // sort the chunks by expert and back
        elem += rows * h * 2.0;
    }
    const double elem_fwd = elem / hw.hbm;

    const KernelCount kc = kernels_per_layer(m, t, moe_layer, flash);
    lt.fwd = gemm_fwd + attn_fwd + elem_fwd + fp8_cast_fwd + kc.fwd * ta.kernel_gap_s.value;
    // Backward: input and weight gradients (2x the forward GEMMs; 1x for frozen LoRA weights).
    const double gemm_bwd = lora ? gemm_fwd * 1.0 : 2.0 * gemm_fwd;
    lt.bwd = gemm_bwd + attn_bwd + 2.0 * elem_fwd + fp8_cast_bwd + kc.bwd * ta.kernel_gap_s.value;
    if (t.finetune == Finetune::qlora) {
        // Dequantise NF4 weights to 16 bits in forward and backward: read 0.52 B, write 2 B each.
        const double params =
            (m.attention_params_per_layer() + (moe_layer ? 0.0 : m.dense_mlp_params_per_layer())) /
            tp;
        const double deq = params * (0.516 + 2.0) / hw.hbm;
        lt.fwd += deq;
        lt.bwd += deq;
    }
    lt.kernels = kc.fwd + kc.bwd;
    lt.gaps = lt.kernels * ta.kernel_gap_s.value;
    if (t.recompute == Recompute::full) {
        lt.recompute = lt.fwd;
        lt.gaps += kc.fwd * ta.kernel_gap_s.value;
    } else if (t.recompute == Recompute::selective) {
        // Korthikanti et al. 2022: recompute the attention core (FlashAttention recomputes it
        // inside its own backward), and the modules Megatron-Core's recompute_modules name.
        lt.recompute = flash ? 0.0 : attn_fwd;
        const ModuleRecompute mr = module_recompute(m, t, moe_layer, T, tok_norm, mlp_tokens,
                                                    mlp_split, f, fp8_cast_again, fp8_reread, hw);
        lt.recompute += mr.time + mr.kernels * ta.kernel_gap_s.value;
        lt.gaps += mr.kernels * ta.kernel_gap_s.value;
    } else if (t.recompute == Recompute::selective_op) {
        // PyTorch per-op selective checkpointing (torchtitan): the matmuls it does not save
        // (their share of the forward matmul FLOPs) and every elementwise kernel run again;
        // attention is saved unless it ran unfused.
        double all = 0, again = 0;
        for (const auto& x : block_matmuls(m, moe_layer)) {
            all += x.flops();
            again += x.recomputed_by_op_sac ? x.flops() : 0.0;
        }
        lt.recompute =
            (all > 0 ? gemm_fwd * again / all : 0.0) + elem_fwd + (flash ? 0.0 : attn_fwd);
    }
    return lt;
}

double collective(CollectiveOp op, double bytes, const Topology& topo, const GroupPlacement& p,
                  const CollectiveAssumptions& ca) {
    if (p.ranks <= 1 || bytes <= 0)
        return 0;
    return std::max(0.0, collective_seconds(op, bytes, topo, p, CollectiveAlgo::automatic, ca));
}

} // namespace

Result<TrainingResult> train_step(const ModelArch& m, const TrainingSpec& spec, int gpus,
                                  const GpuSpec& gpu, const Topology& topo,
                                  const TrainingAssumptions& ta, const CollectiveAssumptions& ca,
                                  const MemoryAssumptions& ma, double price_per_gpu_hour,
                                  bool explain, const TrainingMemory* known_memory) {
    TrainingSpec t = spec;
    if (t.global_batch <= 0)
        return Error{"--global-batch", "is required for training (sequences per step)"};
    const Dtype dt = to_dtype(t.dtype);
    const double peak = gpu.peak(dt);
    if (peak <= 0)
        return Error{"--dtype", gpu.id + " has no dense " + std::string(to_string(t.dtype)) +
                                    " peak in the catalog"};
    if (std::string why = fp8_recipe_refusal(t, gpu); !why.empty())
        return Error{"--fp8-scaling", std::move(why)};
    // Memory first: it validates the layout and picks the micro-batch.
    // The layout's memory: given by the caller (the search) or computed here. Held by pointer so
    // the hot path copies it once, into the result.
    TrainingMemory computed;
    const TrainingMemory* mem = nullptr;
    if (known_memory && spec.micro_batch > 0) {
        mem = known_memory;
    } else {
        auto r0 = training_memory(m, t, gpus, gpu, ma, false);
        if (!r0)
            return r0.errors();
        computed = std::move(r0).value();
        mem = &computed;
    }
    const int dp = mem->dp;
    const std::int64_t per_dp = t.global_batch / dp;
    std::vector<int> candidates;
    if (spec.micro_batch > 0)
        candidates.push_back(spec.micro_batch);
    else
        for (std::int64_t mb = 1; mb <= per_dp && mb <= 4096; ++mb)
            if (per_dp % mb == 0)
                candidates.push_back(static_cast<int>(mb));

    Hw hw;
    hw.peak = peak;
    const bool power_capped =
        topo.gpu_arch == GpuArch::hopper || topo.gpu_arch == GpuArch::blackwell;
    hw.gemm = peak * gpu.gemm_efficiency(dt) * ta.sustained_vs_best_gemm.value *
              (power_capped ? ta.hopper_sustained_vs_ampere.value : 1.0);
    // Attention kernels run in 16 bits even in FP8 training (Transformer Engine FP8 recipes keep
    // the attention core in bf16).
    hw.attention =
        gpu.attention_efficiency > 0
            ? gpu.peak(Dtype::bf16) * gpu.attention_efficiency
            : gpu.peak(Dtype::bf16) * gpu.gemm_efficiency(Dtype::bf16) * ta.attention_vs_gemm.value;
    if (hw.attention <= 0)
        hw.attention = hw.gemm * ta.attention_vs_gemm.value;
    hw.hbm = gpu.memory_bandwidth_Bps * ta.memory_efficiency.value;
    hw.fp8_transpose = topo.gpu_arch != GpuArch::blackwell;
    hw.k0 = kloop_fixed_elements(dtype_bytes(dt));
    const bool flash = ma.flash_attention.value > 0.5;
    const bool sp = t.sequence_parallel && t.tp > 1;

    // Groups in Megatron order (TP innermost, then CP, then DP with EP inside DP x CP, PP outer).
    const GroupPlacement tp_g = place_group(topo, t.tp, 1);
    const GroupPlacement cp_g = place_group(topo, t.cp, t.tp);
    const GroupPlacement dp_g = place_group(topo, dp * t.cp, t.tp);
    const GroupPlacement ep_g = place_group(topo, t.ep, t.expert_tp()); // ETP innermost
    // The experts' data-parallel group (parallel folding: ETP x EP x EDP over the same GPUs).
    const int edp = expert_data_parallel(t, dp);
    const GroupPlacement edp_g =
        m.is_moe() ? place_group(topo, edp, t.expert_tp() * t.ep) : GroupPlacement{};
    const GroupPlacement pp_g = place_group(topo, 2, t.tp * t.cp * dp);
    // GPUs with no path between them cannot form a group: a group spanning scale-up domains
    // needs a scale-out network (collective.cpp reports which is missing). No step time then.
    {
        struct Use {
            const GroupPlacement& g;
            CollectiveOp op;
            const char* name;
            bool used;
        };
        // The whole job first: any layout of GPUs in several domains sends something between
        // them (PP activations cross a boundary even when the first pair of stages shares one).
        const GroupPlacement job_g = place_group(topo, gpus, 1);
        const Use uses[] = {
            {job_g, CollectiveOp::sendrecv, "job's", gpus > 1},
            {tp_g, CollectiveOp::allgather, "tensor-parallel (TP)", t.tp > 1},
            {cp_g, CollectiveOp::sendrecv, "context-parallel (CP)", t.cp > 1},
            {dp_g, CollectiveOp::reducescatter, "data-parallel (DP)", dp * t.cp > 1},
            {ep_g, CollectiveOp::alltoall, "expert-parallel (EP)", t.ep > 1 && m.is_moe()},
            {edp_g, CollectiveOp::reducescatter, "expert data-parallel (EDP)",
             m.is_moe() && edp > 1},
            {pp_g, CollectiveOp::sendrecv, "pipeline (PP)", t.pp > 1}};
        for (const Use& u : uses) {
            if (!u.used)
                continue;
            constexpr double kProbe = 1048576.0;
            if (collective_seconds(u.op, kProbe, topo, u.g, CollectiveAlgo::automatic, ca) >= 0)
                continue;
            auto why = collective_time(u.op, kProbe, topo, u.g, CollectiveAlgo::automatic, ca);
            return Error{"", std::string("does not run: the ") + u.name +
                                 (u.g.ranks == gpus && &u.g == &job_g ? "" : " group of") + " " +
                                 std::to_string(u.g.ranks) + " GPUs have no path between them: " +
                                 (why ? std::string("no algorithm") : why.errors().front().what)};
        }
    }

    std::optional<TrainingResult> best;
    for (int mb : candidates) {
        t.micro_batch = mb;
        TrainingResult r;
        // The search (known memory, no explanation) reads the memory it already has: copying
        // its per-stage vector for each of ~10^5 layouts would cost more than the step model.
        const bool lean = known_memory && !explain && spec.micro_batch > 0;
        if (spec.micro_batch > 0) {
            if (!lean)
                r.memory = *mem;
        } else {
            auto mem_mb = training_memory(m, t, gpus, gpu, ma, false);
            if (!mem_mb)
                return mem_mb.errors();
            if (!mem_mb->fits && mb != candidates.front())
                continue; // auto only takes larger micro-batches that fit
            r.memory = std::move(mem_mb).value();
        }
        const TrainingMemory& rm = lean ? *mem : r.memory;
        r.micro_batch = mb;
        r.micro_batches = per_dp / mb;
        r.tp_group = tp_g;
        r.cp_group = cp_g;
        r.dp_group = dp_g;
        r.ep_group = ep_g;
        r.pp_group = pp_g;
        const double M = static_cast<double>(r.micro_batches);
        // The slowest stage sets the pace; stages differ by layers and the edge layers.
        double stage_fwd = 0, stage_bwd = 0, stage_rec = 0, stage_tp = 0, stage_cp = 0,
               stage_ep = 0, stage_gaps = 0, stage_kernels = 0;
        int first = 0;
        const double s_local = static_cast<double>(t.seq) / t.cp;
        const double T = s_local * mb;
        const double h = m.hidden;
        // Per-layer times of each kind (dense / MoE), computed once; stages differ only in how
        // many layers of each kind they hold and in the LM head on the last stage.
        struct KindTimes {
            double f = 0, bwd = 0, rec = 0, tpc = 0, cpc = 0, epc = 0, gaps = 0, kernels = 0;
            // Before overlap, and the buffers moved (issue 22: traffic per group).
            double tp_raw = 0, cp_raw = 0, ep_raw = 0, tp_bytes = 0, cp_bytes = 0, ep_bytes = 0;
        } kinds[2];
        KindTimes stage_raw; // the slowest stage's collectives before overlap, and their bytes
        // Partial full recompute (recompute_layers): a stage's recomputed layers run as `kinds`,
        // the others as without recompute (`plain`).
        const bool partial = t.recompute == Recompute::full && t.recompute_layers > 0;
        // Built only for a partial recompute: the search evaluates ~10^6 layouts per second
        // and a TrainingSpec (with its kept JSON text) per call cost it a tenth of that.
        KindTimes plain[2];
        std::optional<TrainingSpec> t_plain;
        if (partial) {
            t_plain = t;
            t_plain->recompute = Recompute::none;
            t_plain->recompute_layers = 0;
        }
        for (int pass = 0; pass < (partial ? 2 : 1); ++pass)
            for (int kind = 0; kind < 2; ++kind) {
                if (kind == 1 && !m.is_moe())
                    continue;
                if (kind == 0 && m.layers == m.moe_layers())
                    continue;
                const TrainingSpec& ts = pass == 0 ? t : *t_plain;
                KindTimes& k = pass == 0 ? kinds[kind] : plain[kind];
                const LayerTimes lt = layer_times(m, ts, kind == 1, mb, hw, flash, ta);
                k.f = lt.fwd;
                k.bwd = lt.bwd;
                k.rec = lt.recompute;
                k.gaps = lt.gaps;
                k.kernels = lt.kernels;
                // TP: with SP two all-gathers and two reduce-scatters of the full activation in
                // forward; backward runs their conjugates (two reduce-scatters, two all-gathers)
                // plus two more all-gathers that rebuild the gathered inputs the weight gradients
                // need, since only the sequence shards are stored (Korthikanti et al. 2022
                // sec. 4.2.2; Table 4 shows SP saving 0.5 ms forward but only 0.1 ms backward).
                // Without SP two all-reduces each way (Shoeybi et al. 2019 sec. 3).
                if (t.tp > 1) {
                    const double act = T * h * 2.0;
                    const double ag =
                        sp ? collective(CollectiveOp::allgather, act, topo, tp_g, ca) : 0;
                    const double rs =
                        sp ? collective(CollectiveOp::reducescatter, act, topo, tp_g, ca) : 0;
                    const double ar =
                        sp ? 0 : collective(CollectiveOp::allreduce, act, topo, tp_g, ca);
                    const double fwd_comm = sp ? 2.0 * (ag + rs) : 2.0 * ar;
                    const double bwd_comm = sp ? 4.0 * ag + 2.0 * rs : 2.0 * ar;
                    double per_layer = fwd_comm + bwd_comm;
                    double colls = sp ? 10.0 : 4.0;
                    if (ts.recompute == Recompute::full) {
                        per_layer += fwd_comm; // the recomputed forward repeats its collectives
                        colls += sp ? 4.0 : 2.0;
                    } else if (ts.recompute == Recompute::selective && ts.recompute_mlp &&
                               kind == 0) {
                        // A recomputed dense MLP runs its own collectives again (the checkpoint
                        // wraps the whole module: all-gather and reduce-scatter, or all-reduce).
                        per_layer += sp ? ag + rs : ar;
                        colls += sp ? 2.0 : 1.0;
                    }
                    const double regather = module_recompute_gather_bytes(m, ts, T);
                    if (regather > 0)
                        per_layer += collective(CollectiveOp::allgather, regather, topo, tp_g, ca);
                    k.tp_raw = per_layer;
                    k.tp_bytes = colls * act + regather;
                    // The hidden part still slows the GEMMs it overlaps (SM contention).
                    k.tpc = per_layer * ((1.0 - ta.tp_overlap.value) +
                                         ta.tp_overlap.value * ta.overlap_sm_contention.value);
                }
                // CP: ring exchange of K/V blocks, overlapped with the attention it feeds
                // (Megatron-Core context parallelism, --cp-comm-type p2p), or all-gathered.
                if (t.cp > 1) {
                    const double kvw =
                        m.attention() == AttentionKind::mla
                            ? static_cast<double>(m.heads) *
                                  (m.qk_nope_head_dim + m.qk_rope_head_dim + m.v_head_dim)
                            : 2.0 * m.kv_heads * m.head_dim;
                    const double block = s_local * mb * kvw / t.tp * 2.0;
                    if (t.cp_comm_type == CpComm::allgather) {
                        // All-gather CP (Transformer Engine AttnFuncWithCPAndKVAllGather, "KV
                        // all-gather between CP ranks is exposed"; Llama 3 sec. 3.3.2): the
                        // forward gathers the whole sequence's K and V before attending, the
                        // backward gathers them again (only the local ones are saved) and
                        // reduce-scatters their gradients, none of it under the attention.
                        const double whole = block * t.cp;
                        k.cpc = 2.0 * collective(CollectiveOp::allgather, whole, topo, cp_g, ca) +
                                collective(CollectiveOp::reducescatter, whole, topo, cp_g, ca);
                        k.cp_raw = k.cpc;
                        k.cp_bytes = 3.0 * (t.cp - 1) * block;
                    } else {
                        const double ring =
                            (t.cp - 1) * collective(CollectiveOp::sendrecv, block, topo, cp_g, ca);
                        k.cpc = std::max(0.0, ring - lt.attention_fwd) +
                                std::max(0.0, 2.0 * ring - 2.5 * lt.attention_fwd);
                        k.cp_raw = 3.0 * ring;
                        k.cp_bytes = 3.0 * (t.cp - 1) * block;
                    }
                }
                // EP: dispatch and combine all-to-alls, forward and backward (the backward of each
                // is the other's pattern on gradients).
                if (kind == 1 && t.ep > 1) {
                    // Routed copies this GPU sends: its etp/tp share of the micro-batch's tokens.
                    const double copies =
                        T * m.top_k * ta.moe_imbalance.value * t.expert_tp() / t.tp;
                    if (t.moe_dispatcher == MoeDispatcher::alltoall) {
                        // Megatron-Core alltoall dispatcher: every copy in 16 bits.
                        k.epc = 4.0 * collective(CollectiveOp::alltoall, copies * h * 2.0, topo,
                                                 ep_g, ca);
                        k.ep_bytes = 4.0 * copies * h * 2.0;
                    } else {
                        // DeepEP normal kernels (deepseek-ai/DeepEP README): a token goes once to
                        // each node holding one of its experts, over RDMA, and is forwarded over
                        // NVLink there; every pass in BF16 (Megatron-Core passes DeepEP and
                        // HybridEP one BF16 tensor even in FP8 training: fused_a2a.py at d98e8a6;
                        // DeepSeek's own FP8 dispatch is not modelled). With experts spread
                        // evenly over the group's k nodes, a token's top-k experts reach
                        // k(1 - (1 - 1/k)^top_k) distinct nodes, fewer with group-limited routing
                        // (DeepSeek's node limit: nodes_touched). The all-to-all model sends the
                        // share (n - g)/n of its bytes off the node; it is given the bytes that
                        // make that share one copy per remote node. NVLink forwarding (7x a 400G
                        // NIC on DGX H100) is not the bottleneck.
                        const double kn = std::max(1, ep_g.nodes), n = ep_g.ranks,
                                     g = std::max(1, ep_g.ranks_per_node);
                        const double sent = T * t.expert_tp() / t.tp; // tokens this GPU dispatches
                        double per_token = copies / sent; // copies per token on the wire
                        if (kn > 1) {
                            const double distinct = nodes_touched(m, kn);
                            per_token =
                                distinct * (kn - 1.0) / kn * ta.moe_imbalance.value * n / (n - g);
                        }
                        const double elems = sent * per_token * h;
                        k.epc =
                            4.0 * collective(CollectiveOp::alltoall, elems * 2.0, topo, ep_g, ca);
                        k.ep_bytes = 4.0 * elems * 2.0;
                    }
                    k.ep_raw = k.epc;
                    if (t.ep_overlap) {
                        // One micro-batch's all-to-alls run under another's forward and backward of
                        // the same layer (Megatron-Core EP overlap; DeepSeek-V3 report sec. 3.2.1,
                        // DualPipe): at most that compute is hidden, and the hidden part still
                        // slows the kernels it shares SMs with (the SM contention TP overlap uses).
                        const double hidden = std::min(k.epc, k.f + k.bwd);
                        k.epc = (k.epc - hidden) + hidden * ta.overlap_sm_contention.value;
                    }
                }
            }
        // LM head and loss on the last stage (vocab-parallel).
        const double logits = gemm_time(hw, T, h, static_cast<double>(m.vocab) / t.tp, 2.0);
        // Cross-entropy on fp32 logits, unfused (Megatron-Core tensor_parallel/cross_entropy.py,
        // logits cast with .float() before the loss): forward cast 2+4 B, max 4, subtract 4+4,
        // exp 4+4, sum 4, normalise 4+4 = 38 B per logit; backward scale 4+4 and cast back 4+2
        // = 14 B.
        const double logit_elems = T * static_cast<double>(m.vocab) / t.tp;
        const double loss_fwd = logit_elems * 38.0 / hw.hbm;
        const double loss_bwd = logit_elems * 14.0 / hw.hbm;
        // Multi-token prediction (DeepSeek-V3 report sec. 2.2; Megatron-Core
        // MultiTokenPredictionBlock, after the last decoder layer on the last stage): per module
        // a transformer block of the kind of the model's last layer, the projection of the
        // normed hidden state and next-token embedding (2h -> h, column-parallel), and a second
        // pass through the shared output head and the loss.
        const int mtp = mtp_modules(m, t);
        const bool mtp_moe = m.mtp_block_is_moe();
        const double mtp_proj = mtp > 0 ? gemm_time(hw, T, 2.0 * h, h / t.tp, 2.0) : 0.0;
        KindTimes dm, em; // a partial recompute's mix of recomputed and plain layers
        for (int st = 0; st < t.pp; ++st) {
            const int nl = decoder_layers_on_stage(m.layers, mtp, t.pp, st);
            const int n_mtp = st == t.pp - 1 ? mtp : 0;
            const int n_moe = m.moe_layers_in(first, nl) + (mtp_moe ? n_mtp : 0);
            const int n_dense = nl + n_mtp - n_moe;
            first += nl;
            const KindTimes* dk = &kinds[0];
            const KindTimes* ek = &kinds[1];
            if (partial) {
                const double w =
                    nl > 0 ? static_cast<double>(recomputed_layers(t, nl)) / (nl + n_mtp) : 0.0;
                const auto mix = [w](const KindTimes& a, const KindTimes& b) {
                    KindTimes x;
                    x.f = w * a.f + (1 - w) * b.f;
                    x.bwd = w * a.bwd + (1 - w) * b.bwd;
                    x.rec = w * a.rec + (1 - w) * b.rec;
                    x.tpc = w * a.tpc + (1 - w) * b.tpc;
                    x.cpc = w * a.cpc + (1 - w) * b.cpc;
                    x.epc = w * a.epc + (1 - w) * b.epc;
                    x.gaps = w * a.gaps + (1 - w) * b.gaps;
                    x.kernels = w * a.kernels + (1 - w) * b.kernels;
                    x.tp_raw = w * a.tp_raw + (1 - w) * b.tp_raw;
                    x.cp_raw = w * a.cp_raw + (1 - w) * b.cp_raw;
                    x.ep_raw = w * a.ep_raw + (1 - w) * b.ep_raw;
                    x.tp_bytes = w * a.tp_bytes + (1 - w) * b.tp_bytes;
                    x.cp_bytes = w * a.cp_bytes + (1 - w) * b.cp_bytes;
                    x.ep_bytes = w * a.ep_bytes + (1 - w) * b.ep_bytes;
                    return x;
                };
                dm = mix(kinds[0], plain[0]);
                em = mix(kinds[1], plain[1]);
                dk = &dm;
                ek = &em;
            }
            const KindTimes& d = *dk;
            const KindTimes& e = *ek;
            double f = n_dense * d.f + n_moe * e.f;
            double bwd = n_dense * d.bwd + n_moe * e.bwd;
            const double rec = n_dense * d.rec + n_moe * e.rec;
            const double tpc = n_dense * d.tpc + n_moe * e.tpc;
            const double cpc = n_dense * d.cpc + n_moe * e.cpc;
            const double epc = n_moe * e.epc;
            if (st == t.pp - 1) {
                f += (1 + n_mtp) * (logits + loss_fwd) + n_mtp * mtp_proj;
                bwd += (1 + n_mtp) * (2.0 * logits + loss_bwd) + n_mtp * 2.0 * mtp_proj;
            }
            if (f + bwd + rec + tpc + cpc + epc >
                stage_fwd + stage_bwd + stage_rec + stage_tp + stage_cp + stage_ep) {
                stage_fwd = f;
                stage_bwd = bwd;
                stage_rec = rec;
                stage_tp = tpc;
                stage_cp = cpc;
                stage_ep = epc;
                stage_gaps = n_dense * d.gaps + n_moe * e.gaps;
                stage_kernels = n_dense * d.kernels + n_moe * e.kernels;
                if (explain) {
                    stage_raw.tp_raw = n_dense * d.tp_raw + n_moe * e.tp_raw;
                    stage_raw.cp_raw = n_dense * d.cp_raw + n_moe * e.cp_raw;
                    stage_raw.ep_raw = n_moe * e.ep_raw;
                    stage_raw.tp_bytes = n_dense * d.tp_bytes + n_moe * e.tp_bytes;
                    stage_raw.cp_bytes = n_dense * d.cp_bytes + n_moe * e.cp_bytes;
                    stage_raw.ep_bytes = n_moe * e.ep_bytes;
                }
            }
        }
        TrainingBreakdown& bd = r.breakdown;
        bd.compute = M * (stage_fwd + stage_bwd);
        // The GPU idle between kernels, inside compute and recompute (the slowest stage's).
        r.launch_gap_s = M * stage_gaps;
        r.kernels_per_step = M * stage_kernels;
        bd.recompute = M * stage_rec;
        bd.tp_comm = M * stage_tp;
        bd.cp_comm = M * stage_cp;
        bd.ep_comm = M * stage_ep;
        const double per_mb = stage_fwd + stage_bwd + stage_rec + stage_tp + stage_cp + stage_ep;
        // PP: one activation forward and one gradient backward per micro-batch and boundary
        // (scatter-gather over TP with SP: Narayanan et al. 2021 sec. 4.1).
        if (t.pp > 1) {
            const double act = T * h * 2.0 / (sp ? t.tp : 1.0);
            bd.pp_comm = M * 2.0 * collective(CollectiveOp::sendrecv, act, topo, pp_g, ca);
        }
        // Bubble: 1F1B and GPipe (p-1) micro-batch times, interleaved / v (Narayanan et al.
        // 2021 sec. 2.2), ZB-H1 one third (Qi et al. 2023).
        if (t.pp > 1) {
            double bubble = (t.pp - 1.0) * per_mb;
            if (t.vpp > 1 && t.schedule != Schedule::gpipe)
                bubble /= t.vpp;
            if (t.schedule == Schedule::zero_bubble)
                bubble /= 3.0;
            bd.bubble = bubble;
        }
        // DP: gradients of this GPU's parameters (trainable only); ZeRO >= 1 reduce-scatters
        // gradients and all-gathers updated weights, ZeRO 0 all-reduces; ZeRO 3 also gathers
        // weights for every micro-batch's forward and backward (prefetched under compute).
        const bool lora = t.finetune == Finetune::lora || t.finetune == Finetune::qlora;
        const double trainable_per_gpu =
            lora ? rm.trainable_params / (t.tp * t.pp) : rm.params_per_gpu;
        // Gradients are reduced in the precision they are accumulated in: fp32 when
        // fp32_gradients is set (Megatron-Core DDP grad_reduce_in_fp32; PyTorch FSDP2's
        // MixedPrecisionPolicy reduce_dtype, float32 in torchtitan's
        // --training.mixed_precision_reduce, its only choice in 2024-12), else in the training
        // precision. Updated weights (ZeRO >= 1) and ZeRO 3's weight gathers move the weights'
        // own 16 bits (32 in fp32 training) either way.
        const StateBytes sbytes = state_bytes(t);
        // Megatron-Core reduces the routed experts' gradients over the experts' data-parallel
        // group (EDP = TP x CP x DP / (ETP x EP): parallel folding, Liu et al. 2025,
        // arXiv:2504.14960 sec. 3) and shards their optimizer states over it (distributed
        // optimizer, one buffer per group); every other parameter (shared experts and router
        // included) goes over DP x CP. When ETP x EP covers all of TP x CP x DP, EDP is 1: no
        // expert-gradient traffic, unsharded expert states.
        const double expert_params = lora ? 0.0 : rm.expert_params_per_gpu;
        const double dense_params = trainable_per_gpu - expert_params;
        const double wbytes = t.dtype == TrainingDtype::fp32 ? 4.0 : 2.0;
        const double weight_bytes = dense_params * wbytes;
        const double reduce_bytes = dense_params * sbytes.gradients;
        const double expert_weight_bytes = expert_params * wbytes;
        const double expert_reduce_bytes = expert_params * sbytes.gradients;
        // ZeRO 3 gathers every weight the GPU's layers hold before each micro-batch's forward and
        // backward: with LoRA/QLoRA the frozen base too, in the format it is stored in (16 bits,
        // or NF4 for QLoRA), which training_memory shards over DP x CP (helper-20 found the
        // gathers missing for LoRA: 103.5 MB per step where the frozen 70B moves ~1 TB).
        const double gathered_bytes =
            lora ? rm.per_gpu.weights * static_cast<double>(dp) * t.cp : weight_bytes;
        // One group's gradient reduction (and, with the distributed optimizer, the all-gather of
        // its updated weights); the two groups' buffers are reduced one after the other.
        const auto sync = [&](double grads, double weights, const GroupPlacement& g) {
            if (t.zero == 0)
                return collective(CollectiveOp::allreduce, grads, topo, g, ca);
            return collective(CollectiveOp::reducescatter, grads, topo, g, ca) +
                   collective(CollectiveOp::allgather, weights, topo, g, ca);
        };
        const double dense_sync = sync(reduce_bytes, weight_bytes, dp_g);
        const double expert_sync = sync(expert_reduce_bytes, expert_weight_bytes, edp_g);
        const double dp_time = dense_sync + expert_sync;
        // Hidden behind the last micro-batch's backward (and the first forward for the parameter
        // all-gather).
        const double hide = ta.dp_overlap.value * (stage_bwd + (t.zero >= 1 ? stage_fwd : 0.0));
        bd.dp_comm = std::max(0.0, dp_time - hide) +
                     ta.overlap_sm_contention.value * std::min(dp_time, hide);
        if (t.zero >= 3) {
            const double gather =
                2.0 * (collective(CollectiveOp::allgather, gathered_bytes, topo, dp_g, ca) +
                       collective(CollectiveOp::allgather, expert_weight_bytes, topo, edp_g, ca));
            bd.dp_comm += M * std::max(0.0, gather - (stage_fwd + stage_bwd));
        }
        // Optimizer: a memory-bound pass over this GPU's shard of the states (read and write
        // the states, read the gradient, write the 16-bit weight).
        const double shard = t.zero >= 1 ? static_cast<double>(dp) * t.cp : 1.0;
        const double expert_shard = t.zero >= 1 ? static_cast<double>(edp) : 1.0;
        const double opt_bytes = (dense_params / shard + expert_params / expert_shard) *
                                 (2.0 * sbytes.optimizer + 2.0 + 2.0);
        // Offloaded: gradients down and weights up over PCIe 5 x16 (63 GB/s one way) at 80%
        // (ZeRO-Offload, Ren et al. 2021); the CPU update itself overlaps.
        constexpr double kPcieBps = 0.8 * 63e9;
        bd.optimizer = t.offload == Offload::optimizer ? rm.offload_pcie_bytes_per_step / kPcieBps
                                                       : opt_bytes / hw.hbm;
        bd.other = ta.step_overhead_s.value;
        r.step_time_s = bd.total();
        r.bubble_fraction = r.step_time_s > 0 ? bd.bubble / r.step_time_s : 0;
        if (explain) {
            // Issue 22: what each group puts on the fabric per step, and where.
            const auto add = [&](const char* g, const char* what, const GroupPlacement& p,
                                 double bytes, double busy) {
                if (bytes > 0 && p.ranks > 1)
                    r.traffic.push_back(
                        {g, what, p.ranks, group_tier(p), p.oversubscription, bytes, busy});
            };
            add("TP",
                sp ? "all-gathers and reduce-scatters of activations"
                   : "all-reduces of activations",
                tp_g, M * stage_raw.tp_bytes, M * stage_raw.tp_raw);
            add("CP", "K/V ring exchange", cp_g, M * stage_raw.cp_bytes, M * stage_raw.cp_raw);
            add("EP", "token dispatch and combine (all-to-all)", ep_g, M * stage_raw.ep_bytes,
                M * stage_raw.ep_raw);
            if (t.pp > 1) {
                const double act = T * h * 2.0 / (sp ? t.tp : 1.0);
                add("PP", "activations and their gradients", pp_g, M * 2.0 * act, bd.pp_comm);
            }
            // Each data-parallel group's traffic: the bytes it moves and its busy time before
            // overlap (ZeRO 3 adds the weight gathers of every micro-batch). An MoE model's
            // routed experts go over EDP, so the DP row then carries the other parameters only.
            const bool split = expert_params > 0;
            const bool ar = t.zero == 0;
            const auto data_parallel = [&](const char* g, const char* what, const GroupPlacement& p,
                                           double grads, double weights, double gathered,
                                           double busy) {
                if (p.ranks <= 1 || grads <= 0)
                    return;
                double bytes = grads + (ar ? 0.0 : weights);
                if (t.zero >= 3) {
                    bytes += M * 2.0 * gathered;
                    busy += M * 2.0 * collective(CollectiveOp::allgather, gathered, topo, p, ca);
                }
                add(g, what, p, bytes, busy);
            };
            data_parallel(
                "DP",
                ar ? (split ? "all-reduce of non-expert gradients" : "all-reduce of gradients")
                   : (split ? "reduce-scatter of non-expert gradients, all-gather of "
                              "weights"
                            : "reduce-scatter of gradients, all-gather of weights"),
                dp_g, reduce_bytes, weight_bytes, gathered_bytes, dense_sync);
            data_parallel("EDP",
                          ar ? "all-reduce of expert gradients"
                             : "reduce-scatter of expert gradients, all-gather of weights",
                          edp_g, expert_reduce_bytes, expert_weight_bytes, expert_weight_bytes,
                          expert_sync);
        }
        const double tokens = static_cast<double>(t.global_batch) * t.seq;
        r.tokens_per_s = tokens / r.step_time_s;
        double model_flops =
            model_flops_per_iteration(m, static_cast<double>(t.global_batch), t.seq);
        double recomputed_share = 1.0;
        if (partial) {
            int rec = 0;
            for (int st = 0; st < t.pp; ++st)
                rec += recomputed_layers(
                    t, decoder_layers_on_stage(m.layers, mtp_modules(m, t), t.pp, st));
            recomputed_share = static_cast<double>(rec) / m.layers;
        }
        double hw_flops = hardware_flops_per_iteration(m, static_cast<double>(t.global_batch),
                                                       t.seq, t.recompute, recomputed_share);
        if (t.recompute == Recompute::selective) {
            // GEMMs the recompute modules run again (module_recompute): MLA's up-projections on
            // every layer, the dense layers' MLP.
            double per_token = 0;
            if (t.recompute_mla_up_proj && m.attention() == AttentionKind::mla)
                for (const Projection& p : mla_up_projections(m))
                    per_token += 2.0 * m.layers * p.in * p.out;
            if (t.recompute_mlp)
                per_token += 2.0 * (m.layers - m.moe_layers()) * (m.mlp == Mlp::swiglu ? 3 : 2) *
                             static_cast<double>(m.hidden) * m.ffn;
            hw_flops += tokens * per_token;
        }
        if (lora) { // frozen weights: forward + input gradients only (2/3 of 6ND-style work)
            model_flops *= 2.0 / 3.0;
            hw_flops *= 2.0 / 3.0;
        }
        r.model_flops_per_gpu = model_flops / (r.step_time_s * gpus);
        r.hardware_flops_per_gpu = hw_flops / (r.step_time_s * gpus);
        r.mfu = r.model_flops_per_gpu / peak;
        r.hfu = r.hardware_flops_per_gpu / peak;
        if (t.tokens > 0) {
            r.time_to_train_s = t.tokens / r.tokens_per_s;
            r.gpu_hours = r.time_to_train_s / 3600.0 * gpus;
            r.cost_usd = r.gpu_hours * price_per_gpu_hour;
        }
        if (!best || (rm.fits && (!best->memory.fits || r.step_time_s < best->step_time_s)))
            best = std::move(r);
    }
    if (!best)
        return Error{"--micro-batch", "no micro-batch candidate"};
    if (explain) {
        char buf[256];
        std::snprintf(buf, sizeof buf,
                      "step %.3f s, %.0f tokens/s, MFU %.1f %% (micro-batch %d, %lld per step)",
                      best->step_time_s, best->tokens_per_s, best->mfu * 100, best->micro_batch,
                      static_cast<long long>(best->micro_batches));
        best->explanation = buf;
        best->memory.explanation = explain_training_memory(best->memory);
        best->tiers = tier_loads(best->traffic, topo, best->step_time_s, &best->bottleneck);
        if (!best->bottleneck.empty())
            best->explanation += "; " + best->bottleneck;
        // Journey 4 (helper-24): an oversubscribed tier that no group of the job crosses does
        // not change the step; say so, or a changed oversubscription looks ignored.
        int top = 0; // highest tier any group reaches (1 = leaf, 2 = spine, ...)
        for (const auto& g : best->traffic)
            top = std::max(top, g.tier);
        for (std::size_t i = 0; i < topo.tiers.size(); ++i) {
            const SwitchTier& st = topo.tiers[i];
            if (st.oversubscription <= 1.0 + 1e-9)
                continue;
            char b[160];
            std::snprintf(b, sizeof b, "%.3g:1", st.oversubscription);
            const std::string ratio = b;
            if (top < static_cast<int>(i) + 2) {
                best->fabric_note =
                    "the " + st.name + " tier's uplinks are oversubscribed " + ratio +
                    ", but no group of this job goes above the " +
                    (top <= 0 ? std::string("scale-up domain")
                              : topo.tiers[static_cast<std::size_t>(top - 1)].name) +
                    " tier, so the oversubscription does not slow its training step";
            } else {
                // Crossed: how much of the crossing groups' time the step actually waits for
                // (the rest runs behind compute, e.g. DP gradients behind the backward pass).
                double busy = 0, exposed = 0;
                const TrainingBreakdown& k = best->breakdown;
                // The exposed DP time is the DP and EDP groups' together: each its busy share.
                double dp_busy = 0;
                for (const auto& g : best->traffic)
                    if (g.group == "DP" || g.group == "EDP")
                        dp_busy += g.busy_s;
                for (const auto& g : best->traffic) {
                    if (g.tier < static_cast<int>(i) + 2)
                        continue;
                    busy += g.busy_s;
                    exposed += g.group == "DP" || g.group == "EDP"
                                   ? (dp_busy > 0 ? k.dp_comm * g.busy_s / dp_busy : 0.0)
                               : g.group == "TP" ? k.tp_comm
                               : g.group == "CP" ? k.cp_comm
                               : g.group == "EP" ? k.ep_comm
                               : g.group == "PP" ? k.pp_comm
                                                 : 0.0;
                }
                // Said only when most of it is hidden (under half exposed): a wording
                // threshold for the note, not a model input.
                if (busy > 0 && exposed < 0.5 * busy) {
                    std::snprintf(b, sizeof b,
                                  "%.0f %% of that traffic runs behind compute (%.3g s of %.3g s "
                                  "exposed), so the step changes little with it",
                                  (1.0 - exposed / busy) * 100, exposed, busy);
                    best->fabric_note = "the groups crossing the " + st.name + " tier's " + ratio +
                                        " uplinks: " + b;
                }
            }
            break;
        }
        if (!best->fabric_note.empty())
            best->explanation += "; " + best->fabric_note;
    }
    return std::move(*best);
}

} // namespace cl::model
