#include "model/flops.h"

namespace cl::model {

LayerForwardFlops layer_forward_flops_per_token(const ModelArch& m, int layer, double seq,
                                                bool causal) {
    LayerForwardFlops f;
    const double h = m.hidden;
    const double heads = m.heads;
    if (m.attention() == AttentionKind::mla) {
        // MLA projections (DeepSeek-V2 sec. 2.1): every weight matrix is used once per token.
        f.qkv = 2.0 * (m.attention_params_per_layer() - heads * m.v_head_dim * h);
        f.out_proj = 2.0 * heads * m.v_head_dim * h;
        const double qk = static_cast<double>(m.qk_nope_head_dim) + m.qk_rope_head_dim;
        f.attention = 2.0 * seq * heads * (qk + m.v_head_dim);
    } else {
        const double q = heads * m.head_dim, kv = static_cast<double>(m.kv_heads) * m.head_dim;
        f.qkv = 2.0 * h * (q + 2.0 * kv);
        f.out_proj = 2.0 * q * h;
        f.attention = 4.0 * seq * q; // QK^T and attention x V, 2 s d_head FLOPs each per head
    }
    if (causal)
        f.attention *= 0.5;
    const double mats = m.mlp == Mlp::swiglu ? 3.0 : 2.0;
    if (m.is_moe() && layer >= m.dense_layers) {
        f.mlp = 2.0 * mats * h * m.moe_ffn * (m.top_k + m.shared_experts);
        f.router = 2.0 * h * m.experts;
    } else {
        f.mlp = 2.0 * mats * h * m.ffn;
    }
    return f;
}

std::vector<BlockMatmul> block_matmuls(const ModelArch& m, int layer) {
    std::vector<BlockMatmul> mm;
    const double h = m.hidden;
    const double heads = m.heads;
    if (m.attention() == AttentionKind::mla) {
        const double qk = static_cast<double>(m.qk_nope_head_dim) + m.qk_rope_head_dim;
        if (m.q_lora_rank > 0) {
            mm.push_back({h, static_cast<double>(m.q_lora_rank)});
            mm.push_back({static_cast<double>(m.q_lora_rank), heads * qk});
        } else {
            mm.push_back({h, heads * qk});
        }
        mm.push_back({h, static_cast<double>(m.kv_lora_rank) + m.qk_rope_head_dim});
        mm.push_back({static_cast<double>(m.kv_lora_rank),
                      heads * (static_cast<double>(m.qk_nope_head_dim) + m.v_head_dim)});
        mm.push_back({heads * m.v_head_dim, h, 1, false, false});
    } else {
        const double q = heads * m.head_dim, kv = static_cast<double>(m.kv_heads) * m.head_dim;
        mm.push_back({h, q});
        mm.push_back({h, kv});
        mm.push_back({h, kv});
        mm.push_back({q, h, 1, false, false});
    }
    const auto mlp = [&](double f, double copies, bool grouped) {
        mm.push_back({h, f, copies, grouped});
        if (m.mlp == Mlp::swiglu)
            mm.push_back({h, f, copies, grouped});
        mm.push_back({f, h, copies, grouped, false});
    };
    if (m.is_moe() && layer >= m.dense_layers) {
        mm.push_back({h, static_cast<double>(m.experts), 1, false, false}); // router gate
        if (m.shared_experts > 0)
            mlp(static_cast<double>(m.moe_ffn) * m.shared_experts, 1, false);
        mlp(m.moe_ffn, m.top_k, true);
    } else {
        mlp(m.ffn, 1, false);
    }
    int count = 0;
    for (auto& x : mm)
        x.recomputed_by_op_sac = x.grouped || ++count % 2 == 0;
    return mm;
}

namespace {
/// The forward matmul FLOPs per token of one layer that per-op selective checkpointing recomputes.
double op_sac_recomputed_flops(const ModelArch& m, int layer) {
    double r = 0;
    for (const auto& x : block_matmuls(m, layer))
        if (x.recomputed_by_op_sac)
            r += x.flops();
    return r;
}

double forward_flops_per_token(const ModelArch& m, double seq, double* attention_only) {
    // Dense layers are identical, and so are MoE layers: two evaluations, not one per layer.
    const int moe = m.moe_layers();
    const int dense = m.layers - moe;
    double total = 0, attn = 0;
    if (dense > 0) {
        const auto f = layer_forward_flops_per_token(m, 0, seq);
        total += dense * f.total();
        attn += dense * f.attention;
    }
    if (moe > 0) {
        const auto f = layer_forward_flops_per_token(m, m.layers - 1, seq);
        total += moe * f.total();
        attn += moe * f.attention;
    }
    if (attention_only)
        *attention_only = attn;
    return total;
}
} // namespace

double model_flops_per_iteration(const ModelArch& m, double batch, double seq) {
    const double tokens = batch * seq;
    const double logits = 2.0 * m.hidden * static_cast<double>(m.vocab);
    return 3.0 * tokens * (forward_flops_per_token(m, seq, nullptr) + logits);
}

double hardware_flops_per_iteration(const ModelArch& m, double batch, double seq,
                                    Recompute recompute) {
    const double tokens = batch * seq;
    double attn = 0;
    const double layers_fwd = forward_flops_per_token(m, seq, &attn);
    double extra = 0;
    if (recompute == Recompute::full)
        extra = layers_fwd; // one more forward of every layer
    else if (recompute == Recompute::selective)
        extra = 3.0 * attn; // Korthikanti eq. 8 counts s/(3h) instead of s/(6h)
    else if (recompute == Recompute::selective_op)
        extra = (m.layers - m.moe_layers()) * op_sac_recomputed_flops(m, 0) +
                m.moe_layers() * op_sac_recomputed_flops(m, m.layers - 1);
    return model_flops_per_iteration(m, batch, seq) + tokens * extra;
}

double korthikanti_eq7(double B, double L, double s, double h, double V) {
    return 72.0 * B * L * s * h * h * (1.0 + s / (6.0 * h) + V / (12.0 * h * L));
}
double korthikanti_eq8(double B, double L, double s, double h, double V) {
    return 72.0 * B * L * s * h * h * (1.0 + s / (3.0 * h) + V / (12.0 * h * L));
}
double narayanan_eq3(double B, double L, double s, double h, double V) {
    return 96.0 * B * s * L * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * L * h));
}

} // namespace cl::model
