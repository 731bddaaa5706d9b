#pragma once
// FLOP counts of a transformer, per operator and per training iteration.
// Conventions follow Korthikanti et al. 2022 (arXiv:2205.05198) sec. 6.3: a matrix multiply of
// (m x k) by (k x n) costs 2mkn FLOPs; backward costs twice the forward; attention is counted
// without the causal discount ("model FLOPs", eq. 7). Narayanan et al. 2021 eq. 3 and the
// 6ND rule (Kaplan et al. 2020 sec. 2.1) are kept as cross-checks.

#include "model/architecture.h"
#include "model/choices.h"

#include <string_view>
#include <vector>

namespace cl::model {

/// Forward FLOPs per token of one layer's parts at context length `seq`.
struct LayerForwardFlops {
    double qkv = 0, attention = 0, out_proj = 0, mlp = 0, router = 0;
    [[nodiscard]] double linear() const { return qkv + out_proj + mlp + router; }
    [[nodiscard]] double total() const { return linear() + attention; }
};
/// `causal` halves the attention score work (what FlashAttention executes); model FLOPs use
/// causal = false. MoE layers count top_k routed plus shared experts.
LayerForwardFlops layer_forward_flops_per_token(const ModelArch& m, int layer, double seq,
                                                bool causal = false);
/// The same for a layer of a kind: MoE or dense, local (sliding-window) or global attention.
LayerForwardFlops layer_kind_flops_per_token(const ModelArch& m, bool moe, bool local, double seq,
                                             bool causal = false);

/// One forward matrix multiply of a layer, per token: (1 x k) by (k x n), `copies` times a token
/// (top_k for routed experts). `grouped`: the routed experts' grouped GEMM; `split_output`:
/// column-parallel under TP (the output is split; row-parallel ones split the input).
struct BlockMatmul {
    double k = 0, n = 0, copies = 1;
    bool grouped = false, split_output = true;
    bool recomputed_by_op_sac = false; ///< see block_matmuls
    [[nodiscard]] double flops() const { return 2.0 * k * n * copies; }
};

/// A layer's forward matmuls in the order a PyTorch transformer block runs them (torchtitan's
/// Llama at 9dec370, models/llama/model.py: wq, wk, wv, then wo; w1, w3, w2 of SwiGLU; MLA:
/// wq_a, wq_b, wkv_a, wkv_b, wo; MoE: the router gate, the shared expert, then the routed
/// experts as one grouped GEMM per matrix). `recomputed_by_op_sac` marks what torchtitan's
/// per-op selective activation checkpointing recomputes (parallelisms/parallelize_llama.py,
/// `_apply_ac_to_transformer_block`, selective_ac_option "op": every op in `_save_list` --
/// aten.mm, SDPA -- is saved except every second aten.mm counted from the block's start; a
/// grouped GEMM is not in the list, so the routed experts are recomputed whole).
std::vector<BlockMatmul> block_matmuls(const ModelArch& m, bool moe_layer);

/// Model FLOPs of one training iteration over `batch` sequences of length `seq`:
/// 3 x (forward of all layers + logits). Reduces to Korthikanti eq. 7,
/// 72 B L s h^2 (1 + s/(6h) + V/(12hL)), for GPT shapes.
double model_flops_per_iteration(const ModelArch& m, double batch, double seq);

/// Hardware FLOPs including recomputation: full recompute adds one forward of every layer
/// (Narayanan eq. 3: 96 B s l h^2 (1 + s/(6h) + V/(16 l h))); selective adds the attention
/// term as Korthikanti eq. 8 counts it, 72 B L s h^2 (1 + s/(3h) + V/(12hL)).
/// Per-op selective (torchtitan) adds the recomputed matmuls of block_matmuls.
/// `recomputed_share`: the share of layers a full recompute runs again (partial recompute,
/// TrainingSpec::recompute_layers); 1 for all of them.
double hardware_flops_per_iteration(const ModelArch& m, double batch, double seq,
                                    Recompute recompute, double recomputed_share = 1.0);

/// Closed forms for GPT shapes, used as cross-checks in tests.
double korthikanti_eq7(double B, double L, double s, double h, double V);
double korthikanti_eq8(double B, double L, double s, double h, double V);
double narayanan_eq3(double B, double L, double s, double h, double V);
/// 6 N D: training FLOPs of N (active) parameters over D tokens (Kaplan et al. 2020).
inline double six_nd(double params, double tokens) {
    return 6.0 * params * tokens;
}

} // namespace cl::model
