#pragma once
// FLOP counts of a transformer, per operator and per training iteration.
// Conventions follow Korthikanti et al. 2022 (arXiv:2205.05198) sec. 6.3: a matrix multiply of
// (m x k) by (k x n) costs 2mkn FLOPs; backward costs twice the forward; attention is counted
// without the causal discount ("model FLOPs", eq. 7). Narayanan et al. 2021 eq. 3 and the
// 6ND rule (Kaplan et al. 2020 sec. 2.1) are kept as cross-checks.

#include "model/architecture.h"
#include "model/choices.h"

#include <string_view>

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

/// Model FLOPs of one training iteration over `batch` sequences of length `seq`:
/// 3 x (forward of all layers + logits). Reduces to Korthikanti eq. 7,
/// 72 B L s h^2 (1 + s/(6h) + V/(12hL)), for GPT shapes.
double model_flops_per_iteration(const ModelArch& m, double batch, double seq);

/// Hardware FLOPs including recomputation: full recompute adds one forward of every layer
/// (Narayanan eq. 3: 96 B s l h^2 (1 + s/(6h) + V/(16 l h))); selective adds the attention
/// term as Korthikanti eq. 8 counts it, 72 B L s h^2 (1 + s/(3h) + V/(12hL)).
double hardware_flops_per_iteration(const ModelArch& m, double batch, double seq,
                                    Recompute recompute);

/// Closed forms for GPT shapes, used as cross-checks in tests.
double korthikanti_eq7(double B, double L, double s, double h, double V);
double korthikanti_eq8(double B, double L, double s, double h, double V);
double narayanan_eq3(double B, double L, double s, double h, double V);
/// 6 N D: training FLOPs of N (active) parameters over D tokens (Kaplan et al. 2020).
inline double six_nd(double params, double tokens) {
    return 6.0 * params * tokens;
}

} // namespace cl::model
