#include "model/flops.h"

namespace cl::model {

LayerForwardFlops layer_kind_flops_per_token(const ModelArch& m, bool moe, bool local, double seq,
                                             bool causal) {
    LayerForwardFlops f;
    const double h = m.hidden;
    const double heads = m.heads;
    // The context a query attends to: the whole sequence (model FLOPs, Korthikanti eq. 7), the
    // causal half FlashAttention executes, a local layer's window at most.
    const double ctx = causal ? m.causal_context(seq, local) : m.kept_context(seq, local);
    if (m.attention() == AttentionKind::mla) {
        // MLA projections (DeepSeek-V2 sec. 2.1): every weight matrix is used once per token.
        f.qkv = 2.0 * (m.attention_params_per_layer() - heads * m.v_head_dim * h);
        f.out_proj = 2.0 * heads * m.v_head_dim * h;
        const double qk = static_cast<double>(m.qk_nope_head_dim) + m.qk_rope_head_dim;
        f.attention = 2.0 * ctx * heads * (qk + m.v_head_dim);
    } else {
        const double q = heads * m.head_dim, kv = static_cast<double>(m.kv_heads) * m.head_dim;
        f.qkv = 2.0 * h * (q + 2.0 * kv);
        f.out_proj = 2.0 * q * h;
        f.attention = 4.0 * ctx * q; // QK^T and attention x V, 2 s d_head FLOPs each per head
    }
    const double mats = m.mlp == Mlp::swiglu ? 3.0 : 2.0;
    if (moe && m.is_moe()) {
        f.mlp = 2.0 * mats * h * m.moe_ffn * (m.top_k + m.shared_experts);
        f.router = 2.0 * h * m.experts;
    } else {
        f.mlp = 2.0 * mats * h * m.ffn;
    }
    return f;
}

LayerForwardFlops layer_forward_flops_per_token(const ModelArch& m, int layer, double seq,
                                                bool causal) {
    return layer_kind_flops_per_token(m, m.is_moe_layer(layer), m.is_local_layer(layer), seq,
                                      causal);
}

std::vector<BlockMatmul> block_matmuls(const ModelArch& m, bool moe) {
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
    if (moe && m.is_moe()) {
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
double op_sac_recomputed_flops(const ModelArch& m, bool moe) {
    double r = 0;
    for (const auto& x : block_matmuls(m, moe))
        if (x.recomputed_by_op_sac)
            r += x.flops();
    return r;
}

double forward_flops_per_token(const ModelArch& m, double seq, double* attention_only) {
    // Layers of one kind (dense or MoE, global or local attention) are identical: one
    // evaluation per kind, weighted by its count.
    double total = 0, attn = 0;
    for (int moe = 0; moe < 2; ++moe) {
        const int kind = moe ? m.moe_layers() : m.layers - m.moe_layers();
        const int local = m.local_layers_in(0, m.layers, moe);
        for (int is_local = 0; is_local < 2; ++is_local) {
            const int n = is_local ? local : kind - local;
            if (n <= 0)
                continue;
            const auto f = layer_kind_flops_per_token(m, moe == 1, is_local == 1, seq);
            total += n * f.total();
            attn += n * f.attention;
        }
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
                                    Recompute recompute, double recomputed_share) {
    const double tokens = batch * seq;
    double attn = 0;
    const double layers_fwd = forward_flops_per_token(m, seq, &attn);
    double extra = 0;
    if (recompute == Recompute::full)
        extra = layers_fwd * recomputed_share; // one more forward of every recomputed layer
    else if (recompute == Recompute::selective)
        extra = 3.0 * attn; // Korthikanti eq. 8 counts s/(3h) instead of s/(6h)
    else if (recompute == Recompute::selective_op)
        extra = (m.layers - m.moe_layers()) * op_sac_recomputed_flops(m, false) +
                m.moe_layers() * op_sac_recomputed_flops(m, true);
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
