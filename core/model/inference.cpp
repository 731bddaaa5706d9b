#include "model/inference.h"

#include "model/gemm_shape.h"
#include "model/schema.h"
#include "model/units.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace cl::model {

double gemm_overlap_exponent(ServingEngine e, const InferenceAssumptions& ia) {
    if (e == ServingEngine::llamacpp || e == ServingEngine::mlx)
        return std::numeric_limits<double>::infinity();
    return ia.roofline_overlap_exponent.value;
}

double speculative_tokens_per_step(double alpha, int gamma) {
    if (alpha >= 1.0)
        return gamma + 1.0;
    return (1.0 - std::pow(alpha, gamma + 1)) / (1.0 - alpha);
}

double speculative_speedup(double alpha, int gamma, double c) {
    return speculative_tokens_per_step(alpha, gamma) / (gamma * c + 1.0);
}

double queue_wait_mdc(double lambda, double service_s, int servers) {
    if (servers < 1 || service_s <= 0 || lambda < 0)
        return std::numeric_limits<double>::infinity();
    const double c = servers;
    const double A = lambda * service_s; // offered load in Erlangs
    const double rho = A / c;
    if (rho >= 1.0)
        return std::numeric_limits<double>::infinity();
    double B = 1.0; // Erlang B by the stable recursion B(k) = A B(k-1) / (k + A B(k-1))
    for (int k = 1; k <= servers; ++k)
        B = A * B / (k + A * B);
    const double C = B / (1.0 - rho * (1.0 - B)); // Erlang C: probability of waiting
    // M/M/c wait C / (c mu - lambda), halved for deterministic service (exact for c = 1:
    // Pollaczek-Khinchine, rho / (2 mu (1 - rho))).
    return 0.5 * C * service_s / (c - A);
}

namespace {

/// The tensor-core format a W8A8 / FP4 weight format computes in where the GPU has it; bf16
/// (the 16-bit path, weight-only) for every other format.
Dtype low_bit_matrix_dtype(WeightsDtype w) {
    return w == WeightsDtype::fp8    ? Dtype::fp8
           : w == WeightsDtype::int8 ? Dtype::int8
           : w == WeightsDtype::fp4  ? Dtype::fp4
                                     : Dtype::bf16;
}

/// The standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9).
double normal_quantile(double q) {
    static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                   -2.759285104469687e+02, 1.383577518672690e+02,
                                   -3.066479806614716e+01, 2.506628277459239e+00};
    static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                   -1.556989798598866e+02, 6.680131188771972e+01,
                                   -1.328068155288572e+01};
    static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                   -2.400758277161838e+00, -2.549732539343734e+00,
                                   4.374664141464968e+00,  2.938163982698783e+00};
    static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                   2.445134137142996e+00, 3.754408661907416e+00};
    q = std::clamp(q, 1e-12, 1.0 - 1e-12);
    const double lo = 0.02425;
    if (q < lo || q > 1.0 - lo) {
        const double t = std::sqrt(-2.0 * std::log(q < lo ? q : 1.0 - q));
        const double z = (((((c[0] * t + c[1]) * t + c[2]) * t + c[3]) * t + c[4]) * t + c[5]) /
                         ((((d[0] * t + d[1]) * t + d[2]) * t + d[3]) * t + 1.0);
        return q < lo ? z : -z;
    }
    const double u = q - 0.5, t = u * u;
    return (((((a[0] * t + a[1]) * t + a[2]) * t + a[3]) * t + a[4]) * t + a[5]) * u /
           (((((b[0] * t + b[1]) * t + b[2]) * t + b[3]) * t + b[4]) * t + 1.0);
}

} // namespace

double busiest_of_binomials(int ranks, double n, double p) {
    p = std::clamp(p, 0.0, 1.0);
    const double mean = n * p;
    if (ranks <= 1 || n <= 0 || p <= 0 || p >= 1)
        return mean;
    if (n <= 64 && n == std::floor(n)) {
        // E max = sum over j >= 1 of P(max >= j) = sum of 1 - F(j - 1)^ranks.
        const int trials = static_cast<int>(n);
        double pmf = std::pow(1.0 - p, trials), cdf = 0, expected = 0;
        for (int j = 0; j < trials; ++j) {
            cdf += pmf;
            expected += 1.0 - std::pow(std::min(cdf, 1.0), ranks);
            pmf *= (trials - j) / (j + 1.0) * p / (1.0 - p);
        }
        return expected;
    }
    const double z = normal_quantile((ranks - 0.375) / (ranks + 0.25)); // Blom (1958)
    return std::min(n, mean + z * std::sqrt(n * p * (1.0 - p)));
}

double ep_busiest_experts(const ModelArch& m, int ep, double tokens) {
    if (ep <= 1 || m.experts <= 0 || m.top_k <= 0 || tokens <= 0)
        return 1.0;
    const double E = m.experts, k = m.top_k, local = E / ep;
    const double p_touch = 1.0 - std::pow(1.0 - std::min(1.0, k / E), tokens);
    return p_touch > 0 ? busiest_of_binomials(ep, local, p_touch) / (local * p_touch) : 1.0;
}

double ep_busiest_copies(const ModelArch& m, int ep, double tokens) {
    if (ep <= 1 || m.experts <= 0 || m.top_k <= 0 || tokens <= 0)
        return 1.0;
    const double copies = tokens * m.top_k;
    return busiest_of_binomials(ep, copies, 1.0 / ep) / (copies / ep);
}

namespace {

/// Attention DP around one MoE layer: every GPU's tokens gathered for the experts and their
/// outputs reduce-scattered back (TensorRT-LLM's fused MoE with attention DP: allgather before,
/// reducescatter after) for `tokens` tokens of every GPU. TensorRT-LLM quantizes the
/// activations before the gather (CutlassFusedMoE.forward_chunk, fused_moe_cutlass.py
/// @7b437aaa: static_quantize_e4m3_per_tensor for FP8, fp4_quantize for NVFP4, then
/// allgather([x, x_sf, token_selected_slots, token_final_scales])): 1 byte a value for FP8,
/// 0.5 + 1/16 (one FP8 scale per 16) for NVFP4, plus each token's top-k expert ids and weights
/// (4 + 4 bytes each); the outputs come back in 16 bits.
struct MoeExchangeBytes {
    double gather = 0, scatter = 0;
};
MoeExchangeBytes dp_moe_exchange_bytes(const ModelArch& m, const InferenceSpec& s, double tokens) {
    const double h = m.hidden;
    double per_value = 2.0;
    if (s.engine == ServingEngine::trtllm && s.weights_dtype == WeightsDtype::fp8)
        per_value = 1.0;
    else if (s.engine == ServingEngine::trtllm && s.weights_dtype == WeightsDtype::fp4)
        per_value = 0.5 + 1.0 / 16.0;
    const double routing = s.engine == ServingEngine::trtllm ? 8.0 * m.top_k : 0.0;
    return {tokens * (h * per_value + routing), tokens * h * 2.0};
}

double dp_moe_exchange_seconds(const Topology& fabric, const GroupPlacement& p,
                               const MoeExchangeBytes& b, const CollectiveAssumptions& ca) {
    return std::max(0.0, collective_seconds(CollectiveOp::allgather, b.gather, fabric, p,
                                            CollectiveAlgo::automatic, ca)) +
           std::max(0.0, collective_seconds(CollectiveOp::reducescatter, b.scatter, fabric, p,
                                            CollectiveAlgo::automatic, ca));
}

/// The engine's own measured all-reduce for a TP group, where the catalog has one for this GPU,
/// engine and group size and the group sits where it was measured: inside one server whose GPUs
/// talk as the reference server's do (NVLink through NVSwitches for a GPU with NVLink, PCIe for
/// a card without); nullptr otherwise (the collective model). The design's own nccl-tests fit
/// of the scale-up domain, when it has one, is the user's measurement and wins.
const EngineAllReduce* measured_tp_allreduce(const InferenceSpec& s, const GpuSpec& g,
                                             const Topology& fabric, const GroupPlacement& p,
                                             const CollectiveAssumptions& ca) {
    if (p.nodes != 1 || p.ranks < 2)
        return nullptr;
    if (!ca.calibration.empty()) {
        const TierCalibration& c0 = ca.calibration.front();
        if (!c0.segments.empty() || c0.alpha_s > 0 || c0.beta_Bps > 0)
            return nullptr;
    }
    const bool nvlink_gpu = !g.scaleup_link.empty();
    if (nvlink_gpu ? !(fabric.nvswitch && !fabric.pcie_only) : !fabric.pcie_only)
        return nullptr;
    return engine_allreduce(g, s.engine, p.ranks);
}

/// One TP all-reduce of `bytes` of activations: the engine's measured kernel time (decode
/// steps run in CUDA graphs, as it was timed) or NCCL's model.
double tp_allreduce_seconds(const InferenceSpec& s, const GpuSpec& g, const Topology& fabric,
                            const GroupPlacement& p, double bytes,
                            const CollectiveAssumptions& ca) {
    if (const EngineAllReduce* a = measured_tp_allreduce(s, g, fabric, p, ca))
        return engine_allreduce_seconds(*a, bytes);
    return std::max(0.0, collective_seconds(CollectiveOp::allreduce, bytes, fabric, p,
                                            CollectiveAlgo::automatic, ca));
}

struct Rates {
    double gemm = 0;       ///< FLOP/s for the weight dtype's GEMMs
    double gemm_16bit = 0; ///< FLOP/s for 16-bit GEMMs (attention an NVFP4 checkpoint leaves)
    double attention = 0;  ///< FLOP/s of the attention kernels (16-bit)
    double hbm = 0;        ///< bytes/s
    double whbm = 0;       ///< bytes/s the GEMMs stream the weights at
    /// Grouped NVFP4 GEMMs (routed experts): a fixed cost per expert matrix worth this many
    /// bytes of streaming (InferenceAssumptions::fp4_grouped_matrix_fixed_bytes; 0 = none).
    double grouped_fixed_bytes = 0;
    /// Grouped NVFP4 GEMMs (routed experts) on B200-class GPUs: their own compute rate, K-loop
    /// cost and routing cost per token (0 = the dense law).
    double grouped_flops = 0, grouped_k0 = 0, routing_per_token = 0, routing_per_choice = 0;
    /// bytes/s the routed experts stream at when their kernels differ from the other GEMMs'
    /// (MXFP4 on datacenter Blackwell: the trtllm-gen fused MoE); 0 = whbm.
    double routed_whbm = 0;
    double wbytes = 2;   ///< bytes per weight
    double kv_bytes = 2; ///< bytes per KV element
    double dequant = 0; ///< weight-only dequantisation: weights/s the CUDA cores convert (0 = none)
    double dequant_tile = 64;
    /// The GEMM K-loop's fixed cost in K elements for the compute type (gemm_shape.h).
    double k0 = 256;
    /// The conversion runs while the weights stream (MLX's quantised mat-vec kernels dequantise
    /// in registers): the GEMM takes the longer of the two instead of their sum.
    bool dequant_overlaps = false;
};

/// The fraction of nominal memory bandwidth the engine's decode kernels stream weights at:
/// llama.cpp's GGUF matrix-vector kernels have their own (docs/validation.md).
double stream_efficiency(const InferenceSpec& s, const InferenceAssumptions& ia) {
    switch (s.engine) {
    case ServingEngine::llamacpp:
        return ia.llamacpp_memory_efficiency.value;
    case ServingEngine::mlx:
        return ia.mlx_memory_efficiency.value;
    default:
        return ia.memory_efficiency.value;
    }
}

Rates rates_of(const ModelArch& m, const InferenceSpec& s, const GpuSpec& g,
               const InferenceAssumptions& ia) {
    Rates r;
    // W8A8 FP8/INT8 GEMMs run at the 8-bit peak; FP4 where the GPU has it (Blackwell);
    // INT4 and FP4 elsewhere are weight-only (dequantised to 16 bits inside the GEMM).
    // The 16-bit compute type: bf16, or fp16 on devices that publish no bf16 rate (the
    // Snapdragon's Adreno GPU, older cards); engines there compute in fp16 (llama.cpp, QNN).
    const Dtype half = g.peak(Dtype::bf16) > 0 ? Dtype::bf16 : Dtype::fp16;
    Dtype d = half;
    if (const Dtype native = low_bit_matrix_dtype(s.weights_dtype);
        native != Dtype::bf16 && g.peak(native) > 0)
        d = native;
    r.gemm = g.peak(d) * g.gemm_efficiency(d) * ia.sustained_vs_best_gemm.value;
    r.k0 = kloop_fixed_elements(d == Dtype::fp4 ? 0.5 : (d == half ? 2.0 : 1.0));
    r.gemm_16bit = g.peak(half) * g.gemm_efficiency(half) * ia.sustained_vs_best_gemm.value;
    const double att =
        g.attention_efficiency > 0 ? g.attention_efficiency : g.gemm_efficiency(half) * 0.83;
    r.attention = g.peak(half) * att * ia.sustained_vs_best_gemm.value;
    r.hbm = g.memory_bandwidth_Bps * stream_efficiency(s, ia);
    // A two-die package: one stream reads at the share its kernels reach across the dies.
    r.hbm *= g.decode_memory_factor;
    // A NUMA machine reads the model at the bandwidth of the nodes that hold it.
    if (g.numa_nodes > 1)
        r.hbm *= std::clamp(ia.numa_nodes_used.value, 1.0, static_cast<double>(g.numa_nodes)) /
                 g.numa_nodes;
    // Native FP4 GEMMs (block-scaled, NVFP4) stream their weights at their kernels' own rate:
    // B200's (CUTLASS's 2-SM tcgen05 tiles at decode-sized M) well below other formats, the
    // GPU's own where measured (sm_120's CUTLASS MoE kernels stream as other formats do).
    const double fp4_stream = g.fp4_weight_stream_efficiency > 0
                                  ? g.fp4_weight_stream_efficiency
                                  : ia.fp4_weight_stream_efficiency.value;
    r.whbm = d == Dtype::fp4 ? g.memory_bandwidth_Bps * fp4_stream * g.decode_memory_factor : r.hbm;
    // An MXFP4 checkpoint's experts on datacenter Blackwell (the FP4 GPUs without a rate of
    // their own: sm_100) run on the trtllm-gen fused MoE -- TensorRT-LLM's TRTLLMGenFusedMoE,
    // where its MoE backend resolution sends MXFP4 on SM100 (CUTLASS refuses it there), and the
    // FlashInfer port of the same kernels vLLM and SGLang use on SM100 -- which stream at their
    // own measured rate, without the CUTLASS NVFP4 size law or grouped law
    // (InferenceAssumptions::mxfp4_moe_stream_efficiency).
    if (mxfp4_moe_kernels(m, s, g, ia)) {
        r.routed_whbm =
            g.memory_bandwidth_Bps * ia.mxfp4_moe_stream_efficiency.value * g.decode_memory_factor;
    } else if (d == Dtype::fp4 && !(g.fp4_weight_stream_efficiency > 0)) {
        // The size law was measured on B200's kernels, the global rate's GPU; a GPU with its
        // own measured rate (sm_120's, at Maverick's experts) keeps it flat.
        r.grouped_fixed_bytes = std::max(0.0, ia.fp4_grouped_matrix_fixed_bytes.value);
        r.grouped_flops = std::max(0.0, ia.fp4_grouped_gemm_flops.value);
        r.grouped_k0 = std::max(0.0, ia.fp4_grouped_gemm_k0.value);
        r.routing_per_token = std::max(0.0, ia.moe_routing_s_per_token.value);
        r.routing_per_choice = std::max(0.0, ia.moe_routing_s_per_choice.value);
    }
    r.wbytes = weight_bits(s.weights_dtype, m.fp4_format) / 8.0;
    r.kv_bytes = kv_element_bytes(s.kv_dtype);
    // Weight-only formats (stored in fewer than 16 bits but multiplied at 16 bits): the CUDA
    // cores dequantise each weight once per M tile of tokens; FP32 non-tensor throughput is
    // the ALU rate (MARLIN sec. 3).
    if (d == half && r.wbytes < 2.0 && ia.dequant_ops_per_weight.value > 0) {
        const double alu = g.peak(Dtype::fp32) > 0 ? g.peak(Dtype::fp32) : g.peak(half) / 8;
        r.dequant = alu / ia.dequant_ops_per_weight.value;
        r.dequant_tile = std::max(1.0, ia.dequant_tile_tokens.value);
        // MLX's quantised mat-vec kernels, and llama.cpp's on a discrete GPU (CUDA mmvq),
        // convert in registers as the weights arrive: the longer of the two, not their sum.
        // llama.cpp on a CPU or through Metal adds it (its rows in docs/validation.md: with
        // the sum, an RTX 2080 read 80 % of its 448 GB/s and was predicted 20 % slow).
        r.dequant_overlaps = s.engine == ServingEngine::mlx ||
                             (s.engine == ServingEngine::llamacpp && !g.unified_memory);
    }
    return r;
}

/// llama.cpp runs a step of this many tokens or more on the device, streaming the weights of
/// the layers in system memory over the host link (ggml-cuda's offload_op: batch >= 32).
constexpr double kStreamOffloadedTokens = 32;

/// GEMM shape efficiency (gemm_shape.h) of each part of a layer, FLOP-weighted over its
/// matrices: QKV and output projection; up/gate and down of the dense MLP, the routed experts and
/// the shared experts; the LM head. Attention, dense MLP, shared experts and head are split over
/// `part_tp` GPUs, the routed experts over `expert_tp`.
struct ShapeEfficiency {
    double attention = 1, mlp = 1, experts = 1, shared = 1, head = 1;
    /// The attention projections as 16-bit GEMMs (their K-loop cost at 16-bit operands): an
    /// NVFP4 checkpoint that leaves them in 16 bits (attention_params_16bit).
    double attention_16bit = 1;
};

ShapeEfficiency shape_efficiency(const ModelArch& m, double part_tp, double expert_tp, double k0) {
    // One entry per thread, keyed by every input: the latency curve asks ~200 times in a row.
    struct Key {
        int hidden, heads, kv_heads, head_dim, ffn, moe_ffn, shared_experts, vocab;
        Mlp mlp;
        AttentionKind att;
        double part_tp, expert_tp, k0;
        bool operator==(const Key&) const = default;
    };
    thread_local Key last{};
    thread_local ShapeEfficiency cached;
    thread_local bool valid = false;
    const Key key{m.hidden,  m.heads,          m.kv_heads, m.head_dim, m.ffn,
                  m.moe_ffn, m.shared_experts, m.vocab,    m.mlp,      m.attention(),
                  part_tp,   expert_tp,        k0};
    if (valid && key == last)
        return cached;
    const double h = m.hidden, mats = m.mlp == Mlp::swiglu ? 3.0 : 2.0;
    auto eff2_at = [&](double kk, double k1, double n1, double w1, double k2, double n2,
                       double w2) {
        if (w1 + w2 <= 0)
            return 1.0;
        const double e1 = gemm_nk_efficiency(k1, n1, kk), e2 = gemm_nk_efficiency(k2, n2, kk);
        return (w1 + w2) / (w1 / e1 + w2 / e2);
    };
    auto eff2 = [&](double k1, double n1, double w1, double k2, double n2, double w2) {
        return eff2_at(k0, k1, n1, w1, k2, n2, w2);
    };
    ShapeEfficiency e;
    const double q_all = static_cast<double>(m.heads) * m.head_dim;
    const double qkv_all = (static_cast<double>(m.heads) + 2.0 * m.kv_heads) * m.head_dim;
    auto attention_at = [&](double kk) {
        return key.att == AttentionKind::mla
                   ? gemm_nk_efficiency(h, h / part_tp, kk)
                   : eff2_at(kk, h, qkv_all / part_tp, h * qkv_all, q_all / part_tp, h, q_all * h);
    };
    e.attention = attention_at(k0);
    e.attention_16bit = attention_at(kloop_fixed_elements(2.0));
    const double f = m.ffn, fe = m.moe_ffn, fs = static_cast<double>(m.moe_ffn) * m.shared_experts;
    e.mlp = eff2(h, f / part_tp, (mats - 1) * h * f, f / part_tp, h, h * f);
    e.experts = eff2(h, fe / expert_tp, (mats - 1) * h * fe, fe / expert_tp, h, h * fe);
    e.shared = eff2(h, fs / part_tp, (mats - 1) * h * fs, fs / part_tp, h, h * fs);
    e.head = gemm_nk_efficiency(h, static_cast<double>(m.vocab) / part_tp, k0);
    last = key;
    cached = e;
    valid = true;
    return cached;
}

} // namespace

std::string elementwise_kernels_parts(const ModelArch& m, ServingEngine e, bool moe_layer) {
    std::string parts = "two residual adds with their norms";
    if (!moe_layer || m.shared_experts > 0)
        parts += moe_layer ? ", the shared expert's activation" : ", the activation";
    if (e != ServingEngine::trtllm && !m.learned_positions)
        parts += ", RoPE";
    if (m.qk_norm)
        parts += e == ServingEngine::trtllm ? ", the fused Q/K norm and RoPE" : ", the Q/K norms";
    return parts;
}

double elementwise_kernels_per_layer(const ModelArch& m, ServingEngine e, bool moe_layer) {
    if (!counts_fixed_kernel_times(e))
        return 0;
    const bool activation = !moe_layer || m.shared_experts > 0; // the routed experts' is fused
    double n = 2.0 + (activation ? 1.0 : 0.0);
    if (e != ServingEngine::trtllm && !m.learned_positions)
        n += 1.0; // RoPE as its own kernel
    if (m.qk_norm)
        n += 1.0;
    return n;
}

namespace {

/// Prompts prefilled in the same forward pass as a decode batch (a mixed step): `seqs` prompts,
/// `tokens` new tokens each on top of `context` of their own already cached (a chunk).
struct PromptGroup {
    double seqs = 0, tokens = 0, context = 0;
};

/// The CUDA-graph engines (TensorRT-LLM, vLLM, SGLang): the fixed GPU time of one forward
/// pass's kernels beside their work (InferenceAssumptions::gemm_fixed_s, attention_fixed_s,
/// elementwise_fixed_s; docs/inference.md "Fixed kernel times"). Per layer the attention's
/// projections (Q/K/V and output; MLA: the fused down-projection, Q's up-projection, the absorbed
/// K and V up-projections and the output), the MLP's two GEMMs (an MoE layer: the router and the
/// two grouped GEMMs, and a shared expert's two), the attention kernel, the two residual adds
/// with their norms and the dense or shared expert's activation (the routed experts' is inside
/// the fused MoE); and the LM head's GEMM. Every attention-DP rank runs them all, so they are
/// not part of the busiest rank's surplus. 0 for the other engines.
double fixed_kernel_seconds(const ModelArch& m, const InferenceSpec& s,
                            const InferenceAssumptions& ia) {
    if (!counts_fixed_kernel_times(s.engine))
        return 0;
    const double attention_gemms = m.attention() == AttentionKind::mla ? 5.0 : 2.0;
    auto layer = [&](bool moe) {
        const bool shared = moe && m.shared_experts > 0;
        const double gemms = attention_gemms + (moe ? 3.0 + (shared ? 2.0 : 0.0) : 2.0);
        const double elementwise = elementwise_kernels_per_layer(m, s.engine, moe);
        return gemms * ia.gemm_fixed_s.value + ia.attention_fixed_s.value +
               elementwise * ia.elementwise_fixed_s.value;
    };
    const int moe_layers = m.moe_layers_in(0, m.layers);
    return moe_layers * layer(true) + (m.layers - moe_layers) * layer(false) +
           ia.gemm_fixed_s.value;
}

/// One forward pass of one replica over `batch` sequences, each adding `new_tokens` tokens on
/// top of `context` cached tokens. Returns the time through all layers (a token's latency).
/// `padded_batch` (>= batch; 0 = batch): the sequences the GEMMs, the MoE layers, the TP
/// collectives and the LM head run over when a CUDA graph pads the step (the padding sequences
/// attend to one cached token: their attention is left out).
double forward_time(const ModelArch& m, const InferenceSpec& s, const GpuSpec& g,
                    const Topology& fabric, double batch, double new_tokens, double context,
                    const InferenceAssumptions& ia, const CollectiveAssumptions& ca,
                    double padded_batch = 0, const PromptGroup& prompts = {}) {
    const Rates r = rates_of(m, s, g, ia);
    const double ov = gemm_overlap_exponent(s.engine, ia);
    auto overlap = [ov](double a, double b) {
        if (!(ov < 100) || a <= 0 || b <= 0)
            return std::max(a, b);
        const double hi = std::max(a, b), q = std::min(a, b) / hi;
        if (ov == 2.0) // the default, without std::pow (the latency curve calls this ~10^3 x)
            return hi * std::sqrt(1.0 + q * q);
        if (ov == 1.5) {
            const double s15 = 1.0 + q * std::sqrt(q);
            return hi * std::cbrt(s15 * s15);
        }
        return hi * std::pow(1.0 + std::pow(q, ov), 1.0 / ov);
    };
    const double tp = s.tp;
    const bool adp = attention_dp_active(m, s);
    // `prompts`: the GEMMs, MoE layers and collectives run over their tokens too, in the same
    // pass (the weights are read once); their attention is their own kernel.
    const double P = prompts.seqs * prompts.tokens;
    const double T_att = batch * new_tokens + P; // tokens that attend to a cache in this pass
    const double T = std::max(batch, padded_batch) * new_tokens + P; // tokens through the GEMMs
    const double h = m.hidden;
    // Per layer: weights read once, 2 FLOPs per weight per token (GEMMs: max of compute and
    // weight streaming -- the roofline).
    // An NVFP4 checkpoint may leave attention projections in 16 bits (attention_params_16bit:
    // ModelOpt's exclude_modules): those stream at 2 bytes a weight and multiply at the 16-bit
    // rate, the rest as the weight format says.
    const double attn16 = attention_params_16bit(m, s);
    const double attn_params = m.attention_params_per_layer() - attn16;
    double mlp_params = m.dense_mlp_params_per_layer();
    double mlp_read = mlp_params;
    // GEMM shape: each matrix's N and K tiles and K-loop fill and drain (gemm_shape.h, as the
    // training model), FLOP-weighted over a part's matrices. Attention, dense MLP and shared
    // experts are split over tp (whole on each GPU with attention DP); routed experts by expert
    // over ep GPUs and each by tensor over etp = tp / ep (expert_parallel_size: ep 1 by default,
    // tp with attention DP).
    const double mats = m.mlp == Mlp::swiglu ? 3.0 : 2.0;
    const double part_tp = adp ? 1.0 : tp;
    const int ep = expert_parallel_size(m, s);
    const double etp = tp / ep;
    const ShapeEfficiency se = shape_efficiency(m, part_tp, etp, r.k0);
    // The routed experts' grouped NVFP4 GEMM streams an expert of matrices S_i (up/gate fused,
    // down; split over tp without attention DP) at the measured rate x [sum S_i / (sum S_i + n
    // S0)] / [S_ref / (S_ref + S0)]: S_ref = CUTLASS #2266's 2,048 x 7,168 NVFP4 matrices, where
    // fp4_weight_stream_efficiency was measured (assumptions.h).
    double routed_whbm = r.routed_whbm > 0 ? r.routed_whbm : r.whbm;
    if (r.grouped_fixed_bytes > 0 && m.experts > 0 && m.moe_ffn > 0) {
        const double ref = 2048.0 * 7168.0 * weight_bits(WeightsDtype::fp4) / 8.0;
        const double s0 = r.grouped_fixed_bytes;
        const double expert = mats * h * m.moe_ffn / etp * r.wbytes;
        // Two matrices an expert: up (fused with gate for SwiGLU) and down.
        routed_whbm *= (expert / (expert + 2.0 * s0)) / (ref / (ref + s0));
    }
    // At EP 1 (attention DP or not), B200's grouped NVFP4 GEMM at its own rate and K-loop cost,
    // expressed as a factor on the dense law's routed work (the compute term divides by r.gemm).
    // Fitted and checked where every GPU holds every expert (EP 1: 171 measured rows, median
    // |error| 11.5 %, signed +0.4 %); with expert parallelism (EP > 1) the same fit overestimates
    // the 128-expert shapes by 28-41 %, so that path (any ep > 1) keeps the dense law
    // (assumptions.h).
    const bool grouped_law = r.grouped_flops > 0 && ep == 1 && m.experts > 0 && m.moe_ffn > 0;
    double grouped_work_scale = 1.0; // routed work under the law / under the dense law
    if (grouped_law) {
        const double fe = m.moe_ffn / tp;
        const double e1 = gemm_nk_efficiency(h, (mats - 1.0) * fe, r.grouped_k0);
        const double e2 = gemm_nk_efficiency(fe, h, r.grouped_k0);
        const double eg = 1.0 / (((mats - 1.0) / mats) / e1 + (1.0 / mats) / e2);
        grouped_work_scale = se.experts / eg * (r.gemm / r.grouped_flops);
    }
    // Expert parallelism: a step lasts as long as its busiest GPU's experts. Each of a GPU's
    // E / ep experts is touched by one of the T_att tokens' top-k choices with probability
    // p_touch (uniform routing, busiest_of_binomials), and each routed copy lands on one of the
    // ep GPUs: the busiest GPU's touched experts and copies over the mean. 1 at ep 1 (every GPU
    // holds a slice of every expert); at decode sizes it is the larger (Qwen3-235B at EP 8 and 4
    // sequences: 32 choices over 128 experts, the busiest GPU touches ~1.7x the mean). Not with
    // attention DP: its measured balance (attention_dp_balance, below) is the busiest rank's
    // step over the mean's, expert load included; charging this too would count it twice.
    const double ep_read = adp ? 1.0 : ep_busiest_experts(m, ep, T_att);
    const double ep_copies = adp ? 1.0 : ep_busiest_copies(m, ep, T_att);
    auto layer = [&](bool moe, bool local) {
        // Parameters a token multiplies, weighted by 1 / shape efficiency (`work`), and read
        // from memory: the routed experts apart from the rest.
        double work = attn_params / se.attention, read = attn_params;
        // 16-bit attention projections, in units of the weight format's rate and bytes (and
        // not dequantised below: they are 16-bit already).
        const double read16 = attn16 > 0 ? attn16 * (2.0 / r.wbytes) * (r.whbm / r.hbm) : 0.0;
        if (attn16 > 0) {
            work += attn16 / se.attention_16bit * (r.gemm / r.gemm_16bit);
            read += read16;
        }
        double routed_work = 0, routed_read = 0;
        if (moe) {
            const double per_expert = mats * h * m.moe_ffn;
            const double E = m.experts, k = m.top_k;
            routed_work = per_expert * k / se.experts * grouped_work_scale * ep_copies;
            // Padding sequences repeat one request (cuda_graph_runner.py): they touch no new
            // experts.
            routed_read = per_expert * E * (1.0 - std::pow(1.0 - k / E, T_att)) * ep_read;
            if (m.shared_experts > 0) {
                work += per_expert * m.shared_experts / se.shared;
                read += per_expert * m.shared_experts;
            }
        } else {
            work += mlp_params / se.mlp;
            read += mlp_read;
        }
        // Compute and weight streaming overlap only partly near the ridge: a p-norm of the two
        // (InferenceAssumptions::roofline_overlap_exponent; the roofline's max as p grows).
        double gemm = 0;
        if (adp) {
            // Attention DP: attention and the dense or shared MLP run whole on every GPU over
            // its own T/tp tokens (their weights read in full); the routed experts are split
            // over the GPUs, each GPU reading its share of the experts its tokens touch.
            gemm = overlap(2.0 * T * work / tp / r.gemm, read * r.wbytes / r.whbm) +
                   overlap(2.0 * T * routed_work / tp / r.gemm,
                           routed_read * r.wbytes / tp / routed_whbm);
        } else {
            gemm = overlap(2.0 * T * (work + routed_work) / tp / r.gemm,
                           (read / r.whbm + routed_read / routed_whbm) * r.wbytes / tp);
        }
        // The fused MoE's routing, per token: top-k, the sort by expert, the activation
        // quantisation (same fit, same domain).
        if (moe && grouped_law)
            gemm += T * (r.routing_per_token + r.routing_per_choice * m.experts * m.top_k);
        if (moe && adp) {
            // Expert parallel: each GPU gathers, gates and sums the copies routed to its own
            // experts (1 / ep of them), at its share of the experts' width (1 / etp: whole at
            // ep = tp; at the engines' default EP 1 every copy at 1 / tp of it).
            const double copies = T * m.top_k / ep * ep_copies;
            gemm += ((3.0 * copies + T / tp) * h + copies * 3.0 * m.moe_ffn / etp) * 2.0 / r.hbm;
        } else if (moe) {
            // Token movement around the experts (TensorRT-LLM's MoE plugin kernels, as vLLM's
            // fused MoE and llama.cpp do in kind): expandInputRowsKernel gathers each token's
            // top-k copies into expert order (read and write h values per copy),
            // doActivationKernel gates the first GEMM's output (2f/etp in, f/etp out per copy),
            // and finalizeMoeRoutingKernel reads every copy's output back, weights and sums it per
            // token. With TP-split experts every GPU moves every copy at the full width h; with
            // ep > 1 every GPU sees every token and moves the copies routed to its own experts.
            const double copies = T * m.top_k / ep * ep_copies;
            const double act_width = m.moe_ffn / etp;
            gemm += ((3.0 * copies + T) * h + copies * 3.0 * act_width) * 2.0 / r.hbm;
        }
        // Weight-only low-bit: every weight is dequantised on the CUDA cores once per tile of
        // tokens. The conversion shares the SMs' issue slots with the loads and MMAs of the same
        // warps, so it is counted on top of the roofline time: at batch 1 an INT4 8B model on
        // H100 decodes ~2.9x faster than BF16 rather than the 3.8x its bytes suggest, and at
        // prefill-sized batches it is slower than BF16 (MARLIN, Frantar et al. 2024, Fig. 1
        // and sec. 5: only careful overlap reaches the ideal, and only at small batch).
        // MLX's kernels (mlx quantized.metal, qmv: each thread unpacks the words it has just
        // loaded) hide the conversion under the streaming: an M3 Max decodes Llama 3.3 70B 4-bit
        // at 9.35 tok/s, >= 93% of its 400 GB/s with the weights alone (mlx-examples #1029).
        if (r.dequant > 0) {
            const double convert =
                (read - read16 + routed_read) / tp * std::ceil(T / r.dequant_tile) / r.dequant;
            gemm = r.dequant_overlaps ? std::max(gemm, convert) : gemm + convert;
        }
        // Attention: each new token attends to the cache plus the causal part of the new ones.
        double q_width = static_cast<double>(m.heads) * m.head_dim;
        double kv_tok = 2.0 * (adp ? m.kv_heads / tp : std::max(1.0, m.kv_heads / tp)) *
                        m.head_dim * r.kv_bytes;
        if (m.attention() == AttentionKind::mla) {
            q_width = static_cast<double>(m.heads) * (m.qk_nope_head_dim + m.qk_rope_head_dim);
            // The latent is replicated on every TP rank; with attention DP each GPU reads only
            // its own sequences' (per GPU, 1/tp of the batch's).
            kv_tok = (m.kv_lora_rank + m.qk_rope_head_dim) * r.kv_bytes / (adp ? tp : 1.0);
        }
        // A local layer attends to at most its window (sliding) or to its own chunk (chunked,
        // Llama 4). TensorRT-LLM applies chunked attention to context requests only
        // (docs/source/features/long-sequence.md, "Chunked attention"); its generation phase
        // attends over the chunk size as a sliding window (release 0.21: "sliding-window
        // attention kernels for the generation phase"), reading the window a sliding layer keeps.
        const bool decode = new_tokens <= 1.0;
        const LocalAttention as = decode && s.engine == ServingEngine::trtllm
                                      ? LocalAttention::sliding
                                      : m.local_attention;
        const double ctx = m.span_context(context, new_tokens, local, as);
        // MLA decodes absorbed, as multi-query attention over the latent
        // (ModelArch::mla_absorbed_flops_per_cached_token); prompts keep the non-absorbed form,
        // cheaper from ~256 new tokens on (TensorRT-LLM tech blog 3's roofline).
        const bool absorbed = m.attention() == AttentionKind::mla && new_tokens < 256.0;
        const double flops_per_ctx =
            absorbed ? m.mla_absorbed_flops_per_cached_token() : 4.0 * q_width;
        const double att_flops = batch * new_tokens * ctx * flops_per_ctx / tp;
        const double kv_read = batch *
                               (decode ? m.attended_context(context + new_tokens, local, as)
                                       : m.kept_context(context + new_tokens, local)) *
                               kv_tok;
        double attention = batch > 0 ? std::max(att_flops / r.attention, kv_read / r.hbm) : 0.0;
        if (P > 0) {
            const double pctx = m.span_context(prompts.context, prompts.tokens, local);
            const double p_flops = 4.0 * P * pctx * q_width / tp;
            const double p_read =
                prompts.seqs * m.kept_context(prompts.context + prompts.tokens, local) * kv_tok;
            attention += std::max(p_flops / r.attention, p_read / r.hbm);
        }
        // TP: two all-reduces of the layer's activations (Shoeybi et al. 2019), each the
        // engine's measured all-reduce where the catalog has it (tp_allreduce_seconds). Attention
        // DP: none around attention and dense layers; an MoE layer gathers every GPU's tokens for
        // the experts and reduce-scatters their outputs back (TensorRT-LLM's fused MoE with
        // attention DP: allgather before, reducescatter after).
        double comm = 0;
        if (adp) {
            if (moe)
                comm = dp_moe_exchange_seconds(fabric, place_group(fabric, s.tp, 1),
                                               dp_moe_exchange_bytes(m, s, T), ca);
        } else if (s.tp > 1) {
            comm = 2.0 * tp_allreduce_seconds(s, g, fabric, place_group(fabric, s.tp, 1),
                                              T * h * 2.0, ca);
        }
        return gemm + attention + comm;
    };
    // Layers on the device, and (llama.cpp partial offload) the first offload_layers in system
    // memory on the CPU: their weights and KV cache read at the host's memory bandwidth in
    // decode; prompts of 32 tokens or more stream those weights to the device over its host
    // link instead (llama.cpp offloads large-batch matmuls, GGML_CUDA op offload). Layers run
    // one after the other, so the two parts add.
    const int off = std::clamp(s.offload_layers, 0, m.layers);
    double total = 0;
    const int moe_on_device = m.moe_layers_in(off, m.layers - off);
    for (int moe = 0; moe < 2; ++moe) {
        const int kind = moe ? moe_on_device : (m.layers - off) - moe_on_device;
        const int local = m.local_layers_in(off, m.layers - off, moe);
        if (kind - local > 0)
            total += (kind - local) * layer(moe == 1, false);
        if (local > 0)
            total += local * layer(moe == 1, true);
    }
    if (off > 0) {
        double bytes = 0;
        // One offloaded layer's KV cache of one sequence (the layers' average).
        const double kv_layer =
            kv_bytes_per_sequence(m, s.kv_dtype, context + new_tokens) / std::max(1, m.layers);
        for (int i = 0; i < off; ++i) {
            const bool moe = m.is_moe_layer(i);
            double params = attn_params;
            if (moe) {
                const double per_expert = (m.mlp == Mlp::swiglu ? 3.0 : 2.0) * h * m.moe_ffn;
                const double E = m.experts, k = m.top_k;
                params += per_expert * (E * (1.0 - std::pow(1.0 - k / E, T)) + m.shared_experts);
            } else {
                params += mlp_params;
            }
            bytes += params * r.wbytes + attn16 * 2.0;
        }
        const double host = ia.host_memory_bandwidth_Bps.value * stream_efficiency(s, ia);
        const double link = g.host_link_Bps > 0 ? g.host_link_Bps : host;
        total += T >= kStreamOffloadedTokens ? bytes / link + off * batch * kv_layer / host
                                             : (bytes + off * batch * kv_layer) / host;
    }
    // LM head for the last token of each sequence: on the CPU, from system memory, when
    // llama.cpp keeps layers there (it offloads the output layer only with every layer).
    const double vh = static_cast<double>(m.vocab) * h;
    const double head_bytes = quantises_embeddings(s.weights_dtype) ? r.wbytes : 2.0;
    if (off > 0 && s.engine == ServingEngine::llamacpp)
        total += vh * head_bytes / (ia.host_memory_bandwidth_Bps.value * stream_efficiency(s, ia));
    else // attention DP: every GPU reads the whole head for its own sequences
        total += overlap(2.0 * (std::max(batch, padded_batch) + prompts.seqs) * vh / tp / r.gemm /
                             se.head,
                         vh * head_bytes / part_tp / r.hbm);
    // PP: activations hop between stages.
    if (s.pp > 1) {
        const GroupPlacement p = place_group(fabric, 2, s.tp);
        total += (s.pp - 1) *
                 std::max(0.0, collective_seconds(CollectiveOp::sendrecv, T * h * 2.0, fabric, p,
                                                  CollectiveAlgo::automatic, ca));
    }
    return total;
}

} // namespace

int max_batch_without_attention_dp(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                                   const MemoryAssumptions& ma, const ModelArch* draft) {
    if (!attention_dp_active(m, s))
        return 0;
    InferenceSpec plain = s;
    plain.attention_dp = false;
    auto without = inference_memory(m, plain, gpu, ma, draft);
    return without ? without->max_batch : 0;
}

std::vector<GroupTraffic> serving_traffic(const ModelArch& m, const InferenceSpec& s,
                                          const GpuSpec& gpu, const Topology& fabric, int batch,
                                          const CollectiveAssumptions& ca) {
    std::vector<GroupTraffic> out;
    const double T = std::max(1, batch); // one new token per sequence
    const double act = T * m.hidden * 2.0;
    const int on_device = m.layers - std::clamp(s.offload_layers, 0, m.layers);
    if (attention_dp_active(m, s) && on_device > 0) {
        const GroupPlacement p = place_group(fabric, s.tp, 1);
        const MoeExchangeBytes b = dp_moe_exchange_bytes(m, s, T);
        const double each = dp_moe_exchange_seconds(fabric, p, b, ca);
        const int moe_layers = m.moe_layers_in(m.layers - on_device, on_device);
        out.push_back({"TP",
                       "attention DP: tokens gathered for the experts and scattered back "
                       "(per MoE layer)",
                       p.ranks, group_tier(p), p.oversubscription,
                       moe_layers * (b.gather + b.scatter), moe_layers * each});
    } else if (s.tp > 1 && on_device > 0) {
        const GroupPlacement p = place_group(fabric, s.tp, 1);
        const double each = tp_allreduce_seconds(s, gpu, fabric, p, act, ca);
        std::string what = "all-reduces of activations (two per layer)";
        if (const EngineAllReduce* a = measured_tp_allreduce(s, gpu, fabric, p, ca))
            what += ", timed as measured in " + engine_allreduce_label(*a);
        out.push_back({"TP", what, p.ranks, group_tier(p), p.oversubscription,
                       2.0 * on_device * act, 2.0 * on_device * each});
    }
    if (s.pp > 1) {
        const GroupPlacement p = place_group(fabric, 2, s.tp);
        const double hop = std::max(0.0, collective_seconds(CollectiveOp::sendrecv, act, fabric, p,
                                                            CollectiveAlgo::automatic, ca));
        out.push_back({"PP", "activations between stages", s.pp, group_tier(p), p.oversubscription,
                       s.pp * act, s.pp * hop});
    }
    return out;
}

std::string engine_allreduce_label(const EngineAllReduce& a) {
    return choice_label(to_string(a.engine)) + (a.version.empty() ? "" : " " + a.version);
}

const EngineAllReduce* serving_tp_allreduce(const ModelArch& m, const InferenceSpec& s,
                                            const GpuSpec& gpu, const Topology& fabric,
                                            const CollectiveAssumptions& ca) {
    if (s.tp < 2 || attention_dp_active(m, s) || s.offload_layers >= m.layers)
        return nullptr;
    return measured_tp_allreduce(s, gpu, fabric, place_group(fabric, s.tp, 1), ca);
}

double host_step_floor(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu, int batch,
                       const InferenceAssumptions& ia) {
    if (s.engine != ServingEngine::trtllm)
        return 0;
    const double per = gpu.grace_host ? ia.trtllm_host_s_per_sequence_grace.value
                                      : ia.trtllm_host_s_per_sequence.value;
    // With attention DP each GPU's executor runs its own share of the sequences; otherwise
    // every TP rank's executor runs all of them.
    return per * std::max(1, batch) / (attention_dp_active(m, s) ? s.tp : 1.0);
}

const Assumption& trtllm_eager_s_per_op(const InferenceSpec& s, const GpuSpec& gpu,
                                        const InferenceAssumptions& ia) {
    // NVFP4 linears are Python custom ops with an autotuner lookup; other formats' are not.
    if (s.weights_dtype == WeightsDtype::fp4)
        return gpu.grace_host ? ia.trtllm_eager_s_per_op_fp4_grace : ia.trtllm_eager_s_per_op_fp4;
    return gpu.grace_host ? ia.trtllm_eager_s_per_op_grace : ia.trtllm_eager_s_per_op;
}

double trtllm_eager_launch_s(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                             const InferenceAssumptions& ia) {
    if (s.engine != ServingEngine::trtllm)
        return 0;
    const double per_op = trtllm_eager_s_per_op(s, gpu, ia).value;
    // A pipeline stage's executor launches its own layers (the first stage's, the largest).
    const double layers = std::ceil(static_cast<double>(m.layers) / std::max(1, s.pp));
    // With TP (or attention DP) each layer adds its two collectives (fused with the norms).
    // The model's own count where its modules are known to differ (Llama 4), else the default.
    const double per_layer =
        (m.trtllm_eager_ops_per_layer > 0 ? m.trtllm_eager_ops_per_layer
                                          : ia.trtllm_eager_ops_per_layer.value) +
        (s.tp > 1 ? 2.0 : 0.0);
    // Outside the layers: embedding, final norm and the logits (select, LM head, cast): 7.
    return per_op * (per_layer * layers + 7.0);
}

namespace {
/// Attention DP: each step lasts as long as its busiest GPU's (every MoE layer waits for it),
/// the balanced time / InferenceAssumptions::attention_dp_balance.
double dp_imbalance(const ModelArch& m, const InferenceSpec& s, const InferenceAssumptions& ia) {
    return attention_dp_active(m, s) && ia.attention_dp_balance.value > 0
               ? 1.0 / ia.attention_dp_balance.value
               : 1.0;
}

/// The time of one engine step, for every path that steps the engine (decode_step_time,
/// prefill_time, the speculative verify pass and batch_job_run): the GPU's pass `gpu_s` (the
/// busiest attention-DP rank's: x `imbalance`) overlapped with the host, which prepares the
/// next step (`host_s`) and, for a step run eagerly, launches its ops (`launch_s`) -- the
/// overlap scheduler runs one step ahead, so a step takes the longer of the two --, then GPU
/// time the host cannot hide (`serial_gpu_s`: a batch job's prompts after the decodes' share of
/// a mixed step), and the per-step overhead (InferenceAssumptions::step_overhead_s). `fixed_s`:
/// the kernels' fixed times (fixed_kernel_seconds), the same on every attention-DP rank.
double engine_step_s(double gpu_s, double host_s, double launch_s, double serial_gpu_s,
                     double imbalance, double fixed_s, const InferenceAssumptions& ia) {
    return std::max(gpu_s * imbalance + fixed_s, host_s + launch_s) + serial_gpu_s * imbalance +
           ia.step_overhead_s.value;
}
} // namespace

bool mxfp4_moe_kernels(const ModelArch& m, const InferenceSpec& s, const GpuSpec& g,
                       const InferenceAssumptions& ia) {
    return s.weights_dtype == WeightsDtype::fp4 && g.peak(Dtype::fp4) > 0 && m.experts > 0 &&
           m.fp4_format == Fp4Format::mxfp4 && !(g.fp4_weight_stream_efficiency > 0) &&
           ia.mxfp4_moe_stream_efficiency.value > 0;
}

int trtllm_graph_batch(int batch, int max_batch, int max_tokens, bool padding) {
    static constexpr int kSizes[] = {1,   2,   4,   8,    16,   32,   64,  128,
                                     256, 384, 512, 1024, 2048, 4096, 8192};
    // _filter_cuda_graph_batch_sizes: sizes above the largest pure-decode batch give way to it.
    const int cap = std::max(1, std::min(max_batch, max_tokens));
    if (batch < 1 || batch > cap)
        return 0;
    for (int z : kSizes) {
        if (z >= cap)
            break;
        if (z == batch)
            return batch;
        if (z > batch)
            return padding ? z : 0;
    }
    return padding || batch == cap ? cap : 0;
}

double mixed_step_share(const InferenceSpec& s, int batch, double max_tokens) {
    if (s.output_len <= 0)
        return 1.0;
    // In a steady state batch / output_len requests finish, and as many start, per step; a
    // prompt longer than a step's token budget takes several steps (chunked prefill).
    const double starts = std::max(1, batch) / static_cast<double>(s.output_len);
    const double steps = std::max(1.0, std::ceil(s.input_len / std::max(1.0, max_tokens)));
    return std::min(1.0, starts * steps);
}

namespace {
/// TensorRT-LLM: the captured CUDA-graph batch one attention-DP rank (or the replica) pads a
/// decode-only step of `b` sequences to; 0 = none (eager, or another engine).
int graph_batch_per_rank(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu, int b,
                         const InferenceAssumptions& ia, const MemoryAssumptions& ma) {
    if (s.engine != ServingEngine::trtllm)
        return 0;
    const double ranks = attention_dp_active(m, s) ? s.tp : 1.0;
    const int per_rank = static_cast<int>(std::ceil(std::max(1, b) / ranks));
    return trtllm_graph_batch(per_rank, engine_max_num_seqs(ma, s.engine, gpu),
                              static_cast<int>(ma.max_batched_tokens.value),
                              ia.trtllm_cuda_graph_padding.value >= 0.5);
}

/// The share of an attention-DP replica's steps that wait for the busiest rank at batch `b`
/// (decode_step_time's rule, also the speculative verify pass's and the result's
/// busiest_rank_step_share): in TensorRT-LLM's steady state those that carry a prompt
/// (mixed_step_share; its decode-only steps pad every rank to the largest one's CUDA graph);
/// every step of a batch job (`job`), of another engine, or with
/// InferenceAssumptions::attention_dp_balanced_decode off.
double dp_wait_share(const InferenceSpec& s, int b, bool job, const InferenceAssumptions& ia,
                     const MemoryAssumptions& ma) {
    if (s.engine != ServingEngine::trtllm || job || ia.attention_dp_balanced_decode.value < 0.5)
        return 1.0;
    return std::min(1.0, mixed_step_share(s, std::max(1, b), ma.max_batched_tokens.value));
}
} // namespace

double decode_step_time(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                        const Topology& fabric, int batch, double context,
                        const InferenceAssumptions& ia, const CollectiveAssumptions& ca,
                        const MemoryAssumptions& ma) {
    const int b = std::max(1, batch);
    const double host = host_step_floor(m, s, gpu, b, ia);
    const double imbalance = dp_imbalance(m, s, ia);
    // The overlap scheduler prepares step n + 1 on the host while the GPU runs step n: a step
    // takes the longer of the two.
    // `padded`: the CUDA graph's batch (0 = none); `launch`: host time spent launching ops.
    auto step = [&](double padded, double launch, double imb) {
        return engine_step_s(forward_time(m, s, gpu, fabric, b, 1.0, context, ia, ca, padded), host,
                             launch, 0.0, imb, fixed_kernel_seconds(m, s, ia), ia);
    };
    if (s.engine != ServingEngine::trtllm)
        return step(0, 0, imbalance);
    // TensorRT-LLM: a decode-only step runs the CUDA graph of its batch (per attention-DP rank,
    // every rank padded to the same size), padded up to the next captured size; a step that
    // also carries a prompt runs eagerly at its own batch (model_engine.py _maybe_get_cuda_graph:
    // generation-only batches only).
    // Attention DP in a steady state (a closed loop at `batch`: each finished request is replaced
    // by a new one, which the engine assigns to a rank): a decode-only step is balanced -- every
    // rank holds its share of the sequences and pads to the largest rank's captured batch
    // (cuda_graph_runner.py _get_padded_batch: tp_allgather of each rank's batch, then the max)
    // -- so only a step that carries a prompt, on one rank while the others decode, waits for
    // the busiest rank (TensorRT-LLM tech blog 10: "some ranks may be processing ... context
    // phases while others execute generation phases"). A batch job (batch_job_run) keeps the
    // blog's measured ratio on every step: the blog measured it on an offline batch.
    const double ranks = attention_dp_active(m, s) ? s.tp : 1.0;
    const int graph = graph_batch_per_rank(m, s, gpu, b, ia, ma);
    const double p = mixed_step_share(s, b, ma.max_batched_tokens.value);
    // Eagerly, the same Python thread also launches every op of the forward, one by one.
    const double launch = trtllm_eager_launch_s(m, s, gpu, ia);
    auto eager = [&](double imb) { return step(0, launch, imb); };
    if (p >= 1.0)
        return eager(imbalance);
    // A batch job's steps all wait (as batch_job_run charges them): its curve and decode step
    // follow the same rule (helper-48: the batch job's operating point sat off its curve).
    const bool job = s.requests > 0 && batch_job_possible(s, !s.speculative_draft.empty());
    const double even = ia.attention_dp_balanced_decode.value >= 0.5 && !job ? 1.0 : imbalance;
    const double decode_only = graph > 0 ? step(graph * ranks, 0, even) : eager(even);
    return p > 0 ? (1.0 - p) * decode_only + p * eager(imbalance) : decode_only;
}

double prefill_time(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                    const Topology& fabric, int batch, double tokens,
                    const InferenceAssumptions& ia, const CollectiveAssumptions& ca) {
    return engine_step_s(forward_time(m, s, gpu, fabric, std::max(1, batch), tokens, 0.0, ia, ca),
                         0.0, 0.0, 0.0, dp_imbalance(m, s, ia), fixed_kernel_seconds(m, s, ia), ia);
}

BatchJobRun batch_job_run(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                          const Topology& fabric, long long requests, int concurrency,
                          const InferenceAssumptions& ia, const CollectiveAssumptions& ca,
                          const MemoryAssumptions& ma) {
    BatchJobRun out;
    if (requests < 1 || concurrency < 1 || s.input_len < 1 || s.output_len < 1)
        return out;
    const long long L_in = s.input_len, L_out = s.output_len;
    const double Lin = s.input_len;
    const long long C = concurrency;
    // With attention DP every rank's executor schedules its own share of the sequences within
    // its own token budget.
    const double budget = std::max(1.0, ma.max_batched_tokens.value) *
                          (attention_dp_active(m, s) ? std::max(1, s.tp) : 1);
    const bool trt = s.engine == ServingEngine::trtllm;
    const double imb = dp_imbalance(m, s, ia);
    const double launch = trtllm_eager_launch_s(m, s, gpu, ia);
    const double fixed = fixed_kernel_seconds(m, s, ia);
    // Requests admitted together decode together: one cohort per admitting step, oldest first
    // (they finish in that order: every request has the same lengths).
    struct Cohort {
        long long n;
        long long made; // output tokens so far (the first comes with the prompt's last chunk)
        double first;   // when its first token came
    };
    std::vector<Cohort> dec;
    std::size_t front = 0;
    long long decoding = 0, made_sum = 0; // made_sum: sum of `made` over decoding sequences
    long long waiting = requests;
    long long partial_done = -1; // chunked prefill: prompt tokens done of the one started
    double t = 0, ttft_sum = 0, tpot_sum = 0, batch_steps = 0;
    // One step: `b` sequences decode at mean context `ctx`; `k` whole prompts of L_in tokens
    // and a chunk of `chunk` tokens after `chunk_ctx` of its own are prefilled alongside.
    auto step_time = [&](long long b, double ctx, long long k, double chunk, double chunk_ctx) {
        const bool prompt = k > 0 || chunk > 0;
        int graph = 0;
        if (trt && !prompt && b > 0)
            graph = graph_batch_per_rank(m, s, gpu, static_cast<int>(b), ia, ma);
        const double ranks = attention_dp_active(m, s) ? s.tp : 1.0;
        // One pass over the decodes and the prompts: whole prompts (a chunk beside them counted
        // as that share of one more), or the one chunk after its own context.
        PromptGroup pg;
        if (k > 0)
            pg = {static_cast<double>(k) + chunk / Lin, Lin, 0.0};
        else if (chunk > 0)
            pg = {1.0, chunk, chunk_ctx};
        const double fwd = forward_time(m, s, gpu, fabric, static_cast<double>(b), 1.0, ctx, ia, ca,
                                        graph > 0 ? graph * ranks : 0.0, pg);
        const double host = host_step_floor(m, s, gpu, static_cast<int>(b + k + (chunk > 0)), ia);
        // TensorRT-LLM: a step with a prompt, or a batch without a captured graph, runs eagerly.
        const double eager = trt && graph <= 0 ? launch : 0.0;
        if (prompt && b > 0) {
            // The decodes' step as decode_step_time has it, plus the prompts' own GPU time (the
            // pass with them less the pass without), as the steady-state cohort adds its prefill.
            const double dfw =
                forward_time(m, s, gpu, fabric, static_cast<double>(b), 1.0, ctx, ia, ca);
            return engine_step_s(dfw, host, eager, fwd - dfw, imb, fixed, ia);
        }
        return engine_step_s(fwd, host, eager, 0.0, imb, fixed, ia);
    };
    // The cache a decoding sequence attends to before this step's token: its prompt and the
    // tokens it has made but the last (the one it feeds in).
    auto mean_ctx = [&] {
        return decoding > 0
                   ? Lin + static_cast<double>(made_sum) / static_cast<double>(decoding) - 1.0
                   : 0.0;
    };
    // Advance every decoding sequence by `n` tokens and retire the finished (oldest) cohorts.
    auto advance = [&](long long n) {
        for (std::size_t i = front; i < dec.size(); ++i)
            dec[i].made += n;
        made_sum += decoding * n;
        while (front < dec.size() && dec[front].made >= L_out) {
            decoding -= dec[front].n;
            made_sum -= dec[front].n * dec[front].made;
            // Time per output token after the first, as trtllm-bench reports TPOT.
            tpot_sum += static_cast<double>(dec[front].n) * (t - dec[front].first) /
                        static_cast<double>(L_out - 1);
            ++front;
        }
        // Retired cohorts are not kept (a million requests would otherwise hold them all).
        if (front > 4096 && front * 2 > dec.size()) {
            dec.erase(dec.begin(), dec.begin() + static_cast<std::ptrdiff_t>(front));
            front = 0;
        }
    };
    while (waiting > 0 || decoding > 0 || partial_done >= 0) {
        const long long running = decoding + (partial_done >= 0 ? 1 : 0);
        long long slots = std::max(0LL, C - running);
        double tokens_left = budget - static_cast<double>(decoding);
        long long k = 0;
        double chunk = 0, chunk_ctx = 0;
        long long prefilled = 0; // prompts whose last token is in this step
        if (s.batching == Batching::static_) {
            // Static batching: a new batch starts only when the last one has ended.
            if (decoding == 0)
                k = std::min(waiting, C);
        } else if (s.batching == Batching::chunked) {
            // Chunked prefill: the step's token budget left by the decodes goes to the prompt in
            // progress, then to new ones, a chunk at a time (vLLM's and TensorRT-LLM's
            // chunked context).
            while (tokens_left >= 1 && (partial_done >= 0 || (waiting > 0 && slots > 0))) {
                if (partial_done < 0) {
                    --waiting;
                    --slots;
                    partial_done = 0;
                }
                const double take =
                    std::min(std::floor(tokens_left), static_cast<double>(L_in - partial_done));
                if (partial_done == 0 && take >= Lin) {
                    ++k; // a whole prompt in this step
                } else {
                    chunk += take;
                    chunk_ctx = static_cast<double>(partial_done);
                }
                partial_done += static_cast<long long>(take);
                tokens_left -= take;
                if (partial_done >= L_in) {
                    ++prefilled;
                    partial_done = -1;
                }
            }
        } else {
            // Whole prompts that fit the step's token budget beside the decodes (TensorRT-LLM
            // with chunking off, trtllm-bench's setting); a prompt longer than the budget runs
            // in a step of its own.
            k = std::min({waiting, slots, static_cast<long long>(tokens_left / Lin)});
            if (k == 0 && waiting > 0 && slots > 0 && decoding == 0)
                k = 1;
        }
        if (s.batching != Batching::chunked) {
            waiting -= k;
            prefilled = k;
        }
        if (k == 0 && chunk == 0 && decoding > 0) {
            // Nothing to admit until the oldest cohort ends: decode the stretch at once, its
            // context growing by one token a step (Simpson's rule over the stretch).
            const long long n = L_out - dec[front].made;
            const double c0 = mean_ctx();
            double sum = 0;
            if (n <= 3) {
                for (long long i = 0; i < n; ++i)
                    sum += step_time(decoding, c0 + static_cast<double>(i), 0, 0, 0);
            } else {
                const double f0 = step_time(decoding, c0, 0, 0, 0);
                const double span = static_cast<double>(n - 1);
                const double fm = step_time(decoding, c0 + span / 2.0, 0, 0, 0);
                const double f1 = step_time(decoding, c0 + span, 0, 0, 0);
                sum = static_cast<double>(n) * (f0 + 4.0 * fm + f1) / 6.0;
            }
            t += sum;
            batch_steps += static_cast<double>(decoding) * static_cast<double>(n);
            out.steps += n;
            advance(n);
            continue;
        }
        if (k == 0 && chunk == 0 && decoding == 0)
            break; // nothing can run (cannot happen with concurrency >= 1)
        t += step_time(decoding, mean_ctx(), k, chunk, chunk_ctx);
        batch_steps += static_cast<double>(decoding);
        ++out.steps;
        ++out.prompt_steps;
        advance(1);
        if (prefilled > 0) {
            // The prompt's step gives its first token.
            ttft_sum += t * static_cast<double>(prefilled);
            if (L_out > 1) {
                dec.push_back({prefilled, 1, t});
                decoding += prefilled;
                made_sum += prefilled;
            }
        }
    }
    out.makespan_s = t;
    out.output_tokens_per_s = t > 0 ? static_cast<double>(requests) * s.output_len / t : 0;
    out.mean_ttft_s = ttft_sum / static_cast<double>(requests);
    out.mean_tpot_s = L_out > 1 ? tpot_sum / static_cast<double>(requests) : 0.0;
    out.mean_batch = out.steps > 0 ? batch_steps / static_cast<double>(out.steps) : 0;
    return out;
}

namespace {
/// Time per output token of one sequence at `batch`: the decode step, or with speculative
/// decoding (Leviathan et al. 2023) gamma draft steps plus one target pass over gamma + 1 tokens
/// per sequence, E tokens accepted on average. The draft step is its own roofline time, or the
/// given cost ratio c x the target's step (Leviathan et al. 2023 sec. 3.4, "c").
double token_step_time(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                       const Topology& fabric, int b, double c_avg, const SpeculativeSpec& spec,
                       const InferenceAssumptions& ia, const CollectiveAssumptions& ca,
                       const MemoryAssumptions& ma) {
    const double t = decode_step_time(m, s, gpu, fabric, b, c_avg, ia, ca, ma);
    if (!spec.draft)
        return t;
    const double t_draft =
        ia.draft_cost_ratio.value > 0
            ? ia.draft_cost_ratio.value * t
            : decode_step_time(*spec.draft, s, gpu, fabric, b, c_avg, ia, ca, ma);
    const double imbalance = dp_imbalance(m, s, ia);
    const double fwd = forward_time(m, s, gpu, fabric, b, spec.k + 1.0, c_avg, ia, ca);
    auto verify = [&](double imb) {
        return engine_step_s(fwd, 0.0, 0.0, 0.0, imb, fixed_kernel_seconds(m, s, ia), ia);
    };
    // Attention DP: the verify pass is a decode-only step like any other, so only
    // dp_wait_share of them wait for the busiest rank (a draft model never runs as a batch job).
    const double share = imbalance > 1.0 ? dp_wait_share(s, b, false, ia, ma) : 1.0;
    const double t_verify =
        share < 1.0 ? (1.0 - share) * verify(1.0) + share * verify(imbalance) : verify(imbalance);
    const double E = speculative_tokens_per_step(spec.acceptance, spec.k);
    return (spec.k * t_draft + t_verify) / E;
}
} // namespace

std::vector<CurvePoint>
latency_throughput_curve(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                         const Topology& fabric, int max_batch, int points, double price,
                         const InferenceAssumptions& ia, const CollectiveAssumptions& ca,
                         const SpeculativeSpec& spec, const MemoryAssumptions& ma) {
    std::vector<CurvePoint> out;
    if (max_batch < 1 || points < 1)
        return out;
    out.reserve(static_cast<std::size_t>(points));
    const double L_in = s.input_len, L_out = s.output_len;
    const double c_avg = L_in + L_out / 2.0;
    const double prefill1 = prefill_time(m, s, gpu, fabric, 1, L_in, ia, ca);
    int last = 0;
    for (int i = 0; i < points; ++i) {
        const double x =
            points == 1 ? 1.0 : std::pow(static_cast<double>(max_batch), i / (points - 1.0));
        const int b = std::max(1, static_cast<int>(std::lround(x)));
        if (b == last)
            continue;
        last = b;
        CurvePoint p;
        p.batch = b;
        if (const int g = graph_batch_per_rank(m, s, gpu, b, ia, ma); g > 0)
            p.graph_batch = g * (attention_dp_active(m, s) ? s.tp : 1);
        p.streams_offloaded = s.offload_layers > 0 && b >= kStreamOffloadedTokens;
        // As infer() steps: with speculative decoding too (helper-18: the operating point sat
        // off a curve drawn without it).
        const double step = token_step_time(m, s, gpu, fabric, b, c_avg, spec, ia, ca, ma);
        p.ttft_s = prefill1 + step;
        const bool colocated = s.batching != Batching::disaggregated;
        const double prefill = colocated ? prefill_time(m, s, gpu, fabric, b, L_in, ia, ca) : 0.0;
        const double cohort = prefill + L_out * step;
        // The other sequences' interleaved prompts, not its own (see infer).
        p.tpot_s = (prefill * (b - 1.0) / b + L_out * step) / L_out;
        p.output_tokens_per_s = s.pp * b * L_out / cohort;
        // As infer() prices the operating point: the GPU time of the prompts is the input
        // tokens' cost, the decode time the output tokens' (helper-16: the chart's $/M curve
        // charged everything to output tokens and sat above the caption's operating point).
        if (price > 0)
            p.usd_per_million_output_tokens =
                price * s.tp * s.pp / 3600.0 * (L_out * step) / (s.pp * b * L_out) * 1e6;
        out.push_back(p);
    }
    return out;
}

bool weights_lack_matrix_units(WeightsDtype w, const GpuSpec& g) {
    const Dtype native = low_bit_matrix_dtype(w);
    return native != Dtype::bf16 && !(g.peak(native) > 0);
}

std::string batch_limit_short(BatchLimit l) {
    switch (l) {
    case BatchLimit::design:
        return "set in the design";
    case BatchLimit::kv_cache:
        return "the most the KV cache holds";
    case BatchLimit::engine_limit:
        return "the engine's limit";
    case BatchLimit::requests:
        return "the batch job's requests";
    case BatchLimit::tpot_slo:
        return "set by the TPOT SLO";
    case BatchLimit::ttft_slo:
        return "set by the TTFT SLO";
    case BatchLimit::throughput:
        return "the highest request rate within the SLOs";
    }
    return {};
}

std::string batch_limit_words(const InferenceResult& r, const InferenceSpec& s, int engine_cap) {
    switch (r.batch_limit) {
    case BatchLimit::design:
        return "design: the batch set in the inspector";
    case BatchLimit::kv_cache:
        return "the most sequences the KV cache holds (paged KV; the engine's limit is " +
               units::format_count(static_cast<double>(engine_cap)) + ")";
    case BatchLimit::engine_limit: {
        // Named as the engine names it (helper-45: vLLM's 1,024 against TensorRT-LLM's 2,048
        // sequences on the same H200, with no word why the KV in use differed).
        // (In words, as every source here: no engine's setting names.)
        const char* setting = s.engine == ServingEngine::vllm     ? "vLLM's limit"
                              : s.engine == ServingEngine::trtllm ? "TensorRT-LLM's batch limit"
                              : s.engine == ServingEngine::sglang ? "SGLang's running-request limit"
                                                                  : "the engine's limit";
        return std::string(setting) + " of " +
               units::format_count(static_cast<double>(engine_cap)) +
               " sequences (the KV cache would hold " +
               units::format_count(static_cast<double>(r.memory.max_batch)) +
               "; Assumptions: Max concurrent sequences)";
    }
    case BatchLimit::requests:
        return "the batch job's requests a replica";
    case BatchLimit::tpot_slo:
        return "the TPOT SLO (" + units::format_latency(s.tpot_slo_s) +
               "): a larger batch misses it";
    case BatchLimit::ttft_slo:
        return "the TTFT SLO (" + units::format_latency(s.ttft_slo_s) +
               "): a larger batch misses it";
    case BatchLimit::throughput:
        return "online: the requests a replica serves a second peak at this batch within the "
               "SLOs";
    }
    return {};
}

std::string engine_device_refusal(ServingEngine e, const GpuSpec& g) {
    // MLX (mlx-lm) is Apple's array framework for Apple silicon (ml-explore/mlx README; its
    // later CUDA backend is not what the model's MLX efficiency was measured on): elsewhere it
    // is refused, naming what serves there (helper-46: MLX on MI300X gave numbers).
    if (e == ServingEngine::mlx && g.vendor != "Apple")
        return "MLX (mlx-lm) runs on Apple silicon (MLX documentation); " +
               (g.name.empty() ? g.id : g.name) + " is " +
               (g.vendor.empty() ? std::string("not Apple") : g.vendor) + ": choose " +
               (g.sockets > 0          ? "llama.cpp or vLLM"
                : g.vendor == "NVIDIA" ? "vLLM, SGLang, TensorRT-LLM or llama.cpp"
                : g.vendor == "AMD"    ? "vLLM, SGLang or llama.cpp"
                : g.vendor == "Intel"  ? "vLLM or llama.cpp"
                                       : "llama.cpp") +
               " as the engine";
    if (e != ServingEngine::trtllm || g.vendor == "NVIDIA")
        return {};
    // The engines each maker's own guides serve with (ROCm's vLLM and SGLang images, Intel's
    // vLLM for Gaudi, llama.cpp and MLX on Apple silicon, llama.cpp on Snapdragon and CPUs).
    const char* instead = g.sockets > 0         ? "vLLM or llama.cpp"
                          : g.vendor == "AMD"   ? "vLLM or SGLang"
                          : g.vendor == "Intel" ? "vLLM"
                          : g.vendor == "Apple" ? "llama.cpp or MLX"
                                                : "llama.cpp";
    return "TensorRT-LLM runs only on NVIDIA GPUs (TensorRT-LLM documentation, Supported "
           "Hardware); " +
           (g.name.empty() ? g.id : g.name) + " is " +
           (g.vendor.empty() ? std::string("not NVIDIA") : g.vendor) + ": choose " + instead +
           " as the engine";
}

Result<InferenceResult> infer(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                              const Topology& fabric, double price, const SpeculativeSpec& spec,
                              const InferenceAssumptions& ia, const CollectiveAssumptions& ca,
                              const MemoryAssumptions& ma) {
    if (std::string why = engine_device_refusal(s.engine, gpu); !why.empty())
        return Error{"--engine", std::move(why)};
    auto mem = inference_memory(m, s, gpu, ma, spec.draft);
    if (!mem)
        return mem.errors();
    InferenceResult r;
    r.memory = mem.value();
    if (r.memory.max_batch < 1)
        return Error{"memory", r.memory.explanation};
    // A replica's collectives need a path between its GPUs: refused with the reason, never
    // counted as free (session 39: GPUs with no NVLink and no network ran TP 8 with no TP time).
    // (collective_seconds first: the check costs nothing in the inner loops; the reason only
    // when it fails.)
    if (s.tp > 1 && s.offload_layers < m.layers) {
        const CollectiveOp op =
            attention_dp_active(m, s) ? CollectiveOp::allgather : CollectiveOp::allreduce;
        const GroupPlacement p = place_group(fabric, s.tp, 1);
        if (collective_seconds(op, 1 << 20, fabric, p, CollectiveAlgo::automatic, ca) < 0) {
            auto c = collective_time(op, 1 << 20, fabric, p, CollectiveAlgo::automatic, ca);
            return Error{"tp",
                         "tensor parallel over " + std::to_string(s.tp) +
                             " GPUs cannot run on this fabric: " +
                             (c ? std::string("no path between them") : c.errors().front().what)};
        }
    }
    if (s.pp > 1) {
        const GroupPlacement p = place_group(fabric, 2, s.tp);
        if (collective_seconds(CollectiveOp::sendrecv, 1 << 20, fabric, p,
                               CollectiveAlgo::automatic, ca) < 0) {
            auto c = collective_time(CollectiveOp::sendrecv, 1 << 20, fabric, p,
                                     CollectiveAlgo::automatic, ca);
            return Error{"pp",
                         "pipeline stages cannot pass activations on this fabric: " +
                             (c ? std::string("no path between them") : c.errors().front().what)};
        }
    }
    const double L_in = s.input_len, L_out = s.output_len;
    const double c_avg = L_in + L_out / 2.0;
    const int gpus_replica = s.tp * s.pp;
    // Pipeline parallelism: with pp micro-batches in flight a replica emits pp times as many
    // tokens per stage time as one pass takes (Narayanan 2021 pipelining applied to serving).
    const double pp_factor = s.pp;

    auto tpot_at = [&](int b) {
        return token_step_time(m, s, gpu, fabric, b, c_avg, spec, ia, ca, ma);
    };
    r.weight_only_dequant = weights_lack_matrix_units(s.weights_dtype, gpu);
    r.expert_parallel = expert_parallel_size(m, s);
    r.expert_tp = m.is_moe() ? std::max(1, s.tp / std::max(1, r.expert_parallel)) : 1;
    r.busiest_rank = dp_imbalance(m, s, ia);
    r.batch = r.memory.batch;
    r.batch_limit = s.batch > 0                           ? BatchLimit::design
                    : r.memory.batch < r.memory.max_batch ? BatchLimit::engine_limit
                                                          : BatchLimit::kv_cache;
    r.prefill_s = prefill_time(m, s, gpu, fabric, 1, L_in, ia, ca);
    if (spec.draft) {
        const double base = decode_step_time(m, s, gpu, fabric, 1, c_avg, ia, ca, ma);
        r.speculative_speedup = base / tpot_at(1);
        r.draft_step_ratio =
            ia.draft_cost_ratio.value > 0
                ? ia.draft_cost_ratio.value
                : decode_step_time(*spec.draft, s, gpu, fabric, 1, c_avg, ia, ca, ma) / base;
    }

    // Offline (and the throughput of an operating point): a cohort of B requests costs one
    // batched prefill plus L_out decode steps (continuous/chunked batching keep the batch full;
    // static batching also, but with contiguous KV it holds fewer sequences).
    auto cohort = [&](int b, double* prefill_share) {
        const double pf = prefill_time(m, s, gpu, fabric, b, L_in, ia, ca);
        const double dec = L_out * tpot_at(b);
        if (prefill_share)
            *prefill_share = pf / (pf + dec);
        return pf + dec;
    };
    const double t_cohort = cohort(r.batch, nullptr);
    r.decode_step_s = tpot_at(r.batch);
    r.output_tokens_per_s = pp_factor * r.batch * L_out / t_cohort;
    // With continuous or chunked batching the prompts of arriving requests share the engine
    // with the running decodes, so the time between a sequence's tokens includes the prefill
    // work of the others' prompts -- not its own, which comes before its first token (TTFT):
    // TPOT = (prefill x (b - 1) / b + output_len x step) / output_len. One stream (b = 1) decodes
    // at the step (helper-26: an 8k prompt on an M4 Max showed TPOT 24.5 ms for an ~8 ms step).
    const bool colocated = s.batching != Batching::disaggregated;
    r.prefill_pool = !colocated;
    auto tpot_eff = [&](int b) {
        if (!colocated)
            return tpot_at(b);
        const double others = (std::max(1, b) - 1.0) / std::max(1, b);
        return (prefill_time(m, s, gpu, fabric, b, L_in, ia, ca) * others + L_out * tpot_at(b)) /
               L_out;
    };
    if (s.batching == Batching::disaggregated) {
        // Prefill runs on its own pool; the decode pool streams tokens without prefill stalls.
        // TTFT adds the KV transfer over the scale-out network (Zhong et al. 2024, DistServe).
        r.output_tokens_per_s = pp_factor * r.batch / r.decode_step_s;
        const double kv = kv_bytes_per_sequence(m, s.kv_dtype, L_in);
        // The prefill pool sends it over the scale-out NICs of the replica's GPUs; when both
        // pools share one scale-up domain (a single server), over NVLink instead.
        const bool same_domain = fabric.scaleup_domain >= 2 * gpus_replica ||
                                 (fabric.scaleout_Bps_per_gpu <= 0 && fabric.nic_Bps <= 0);
        const double link =
            (same_domain ? fabric.scaleup_Bps_per_gpu : fabric.scaleout_Bps_per_gpu) * gpus_replica;
        r.ttft_s = r.prefill_s + (link > 0 ? kv / link : 0);
        // Per GPU, the prefill pool's GPU-time counts too: a cohort's prompts are prefilled
        // somewhere (disaggregation moves that work, it does not remove it).
        r.output_tokens_per_s_per_gpu = pp_factor * r.batch * L_out / (t_cohort * gpus_replica);
    } else {
        // A new request waits for the running step, then its prefill (chunked prefill splits it
        // over steps but the sum is the same).
        r.ttft_s = r.prefill_s + r.decode_step_s;
    }
    r.tpot_s = tpot_eff(r.batch);
    if (colocated)
        r.output_tokens_per_s_per_gpu = r.output_tokens_per_s / gpus_replica;
    if (s.requests > 0 && batch_job_possible(s, spec.draft != nullptr)) {
        // A batch job of s.requests requests, spread evenly over the replicas: each runs its
        // share with its own ramp-up and drain, step by step. The latencies and the batch are
        // then the job's: the mean TTFT from the start (queueing included) and TPOT after the
        // first token, as trtllm-bench reports them, and the most sequences in flight.
        const long long per_replica =
            (static_cast<long long>(s.requests) + std::max(1, s.replicas) - 1) /
            std::max(1, s.replicas);
        const BatchJobRun job = batch_job_run(m, s, gpu, fabric, per_replica, r.batch, ia, ca, ma);
        if (job.makespan_s > 0) {
            r.job_makespan_s = job.makespan_s / pp_factor;
            r.job_mean_ttft_s = job.mean_ttft_s / pp_factor;
            r.job_mean_batch = job.mean_batch;
            r.job_steps = job.steps;
            r.job_requests = s.requests;
            r.job_requests_per_replica = per_replica;
            r.output_tokens_per_s = pp_factor * job.output_tokens_per_s;
            r.output_tokens_per_s_per_gpu = r.output_tokens_per_s / gpus_replica;
            if (per_replica < r.batch)
                r.batch_limit = BatchLimit::requests;
            r.batch = static_cast<int>(std::min<long long>(r.batch, per_replica));
            r.decode_step_s = tpot_at(r.batch);
            r.ttft_s = r.job_mean_ttft_s;
            if (job.mean_tpot_s > 0)
                r.tpot_s = job.mean_tpot_s / pp_factor;
        }
    }
    if (s.mode == ServingMode::online && s.request_rate > 0) {
        // The largest batch that keeps TPOT and TTFT within the SLOs. Requests per second per
        // replica: one cohort of b requests per cohort time (colocated prefill), or b requests
        // per L_out decode steps (disaggregated).
        int best_b = 0, last_ok = 0;
        double best_rate = 0;
        // What stops the search: an SLO, the KV cache's largest batch, or the design's batch --
        // online, a batch set in the design is the most a replica runs at once (as an engine's
        // max_num_seqs), the SLOs may pick fewer (helper-46: it was dropped without a word).
        const bool capped = s.batch > 0 && s.batch <= r.memory.max_batch;
        const int most = capped ? s.batch : r.memory.max_batch;
        BatchLimit stop = capped ? BatchLimit::design : BatchLimit::kv_cache;
        const auto next = [&](int b) {
            const int n = b < 8 ? b + 1 : b + std::max(1, b / 8);
            return capped && b < most ? std::min(n, most) : n; // the design's batch is tried
        };
        for (int b = 1; b <= most; b = next(b)) {
            const double tpot = tpot_eff(b);
            const double ttft = r.prefill_s + tpot_at(b);
            if ((s.tpot_slo_s > 0 && tpot > s.tpot_slo_s) ||
                (s.ttft_slo_s > 0 && ttft > s.ttft_slo_s)) {
                stop = s.tpot_slo_s > 0 && tpot > s.tpot_slo_s ? BatchLimit::tpot_slo
                                                               : BatchLimit::ttft_slo;
                break;
            }
            last_ok = b;
            const double rate = pp_factor * b / (colocated ? cohort(b, nullptr) : L_out * tpot);
            if (rate > best_rate) {
                best_rate = rate;
                best_b = b;
            }
        }
        // An SLO stopped the search between two grid points (steps of 1/8): the largest batch
        // that still meets it, by bisection (helper-46: "TPOT 46.1 ms at batch 518 (set by the
        // TPOT SLO)" under a 50 ms target).
        if ((stop == BatchLimit::tpot_slo || stop == BatchLimit::ttft_slo) && last_ok > 0) {
            const auto meets = [&](int b) {
                return !((s.tpot_slo_s > 0 && tpot_eff(b) > s.tpot_slo_s) ||
                         (s.ttft_slo_s > 0 && r.prefill_s + tpot_at(b) > s.ttft_slo_s));
            };
            int lo = last_ok, hi = next(last_ok);
            while (hi - lo > 1) {
                const int mid = lo + (hi - lo) / 2;
                (meets(mid) ? lo : hi) = mid;
            }
            if (lo > last_ok) {
                const double rate =
                    pp_factor * lo / (colocated ? cohort(lo, nullptr) : L_out * tpot_eff(lo));
                last_ok = lo;
                if (rate > best_rate) {
                    best_rate = rate;
                    best_b = lo;
                }
            }
        }
        if (best_b == 0)
            return Error{"--tpot-slo",
                         "no batch meets the SLOs on this replica (TPOT at batch 1 is " +
                             std::to_string(tpot_eff(1) * 1e3) + " ms, TTFT " +
                             std::to_string((r.prefill_s + tpot_at(1)) * 1e3) + " ms)"};
        r.batch = best_b;
        r.batch_limit = best_b == last_ok ? stop : BatchLimit::throughput;
        r.tpot_s = tpot_eff(best_b);
        r.decode_step_s = tpot_at(best_b);
        r.ttft_s = r.prefill_s + r.decode_step_s;
        r.output_tokens_per_s = best_rate * L_out;
        r.output_tokens_per_s_per_gpu = r.output_tokens_per_s / gpus_replica;
        r.capacity_rps = best_rate;
        // Queueing: a replica has b slots (the batch); a request holds one for its lifetime
        // D = b / capacity. Poisson arrivals make each replica an M/D/b queue; its mean wait is
        // about half the M/M/b (Erlang C) wait (Cosmetatos 1976; Kleinrock 1975 vol. 1 sec. 3.5
        // for Erlang C). Replicas: the fewest whose load keeps TTFT + wait within the TTFT SLO.
        const double D = best_b / best_rate;
        auto wait_at = [&](double lambda) { return queue_wait_mdc(lambda, D, best_b); };
        double n = std::max(1.0, std::ceil(s.request_rate / best_rate));
        const double n_max = n * 4 + 16;
        for (; n <= n_max; n += 1) {
            const double w = wait_at(s.request_rate / n);
            if (std::isfinite(w) && (s.ttft_slo_s <= 0 || r.ttft_s + w <= s.ttft_slo_s))
                break;
        }
        if (n > n_max)
            return Error{"--ttft-slo", "queueing at this request rate keeps TTFT above the SLO "
                                       "even with " +
                                           std::to_string(static_cast<long long>(n_max)) +
                                           " replicas"};
        r.replicas_needed = n;
        r.utilization = s.request_rate / (n * best_rate);
        r.queue_wait_s = wait_at(s.request_rate / n);
        r.ttft_s += r.queue_wait_s;
        r.gpus_needed = n * gpus_replica;
        if (!colocated) {
            // The prefill pool (DistServe, Zhong et al. 2024): replicas of the same size that
            // prefill prompts in batches of one engine step's tokens (max_batched_tokens),
            // enough of them to keep up with the request rate.
            const int bp = std::max(1, static_cast<int>(ma.max_batched_tokens.value / L_in));
            const double pf_rate = bp / prefill_time(m, s, gpu, fabric, bp, L_in, ia, ca);
            r.prefill_replicas_needed = std::ceil(s.request_rate / pf_rate);
            r.gpus_needed += r.prefill_replicas_needed * gpus_replica;
            r.output_tokens_per_s_per_gpu =
                s.request_rate * L_out / r.gpus_needed; // both pools, at the asked rate
        }
    }
    // What the engine's host adds to the operating point's decode step (TensorRT-LLM's host
    // time per sequence and its eager launches): the same step with them at zero.
    if (s.engine == ServingEngine::trtllm && r.batch > 0) {
        InferenceAssumptions gpu_only = ia;
        gpu_only.trtllm_host_s_per_sequence.value = 0;
        gpu_only.trtllm_host_s_per_sequence_grace.value = 0;
        gpu_only.trtllm_eager_s_per_op.value = 0;
        gpu_only.trtllm_eager_s_per_op_grace.value = 0;
        gpu_only.trtllm_eager_s_per_op_fp4.value = 0;
        gpu_only.trtllm_eager_s_per_op_fp4_grace.value = 0;
        r.decode_step_gpu_s =
            std::min(r.decode_step_s,
                     token_step_time(m, s, gpu, fabric, r.batch, c_avg, spec, gpu_only, ca, ma));
    }
    if (spec.draft && r.batch > 0)
        r.speculative_speedup_at_batch =
            decode_step_time(m, s, gpu, fabric, r.batch, c_avg, ia, ca, ma) / tpot_at(r.batch);
    if (r.expert_parallel > 1 && !attention_dp_active(m, s) && r.batch > 0)
        r.busiest_expert_reads = ep_busiest_experts(m, r.expert_parallel, r.batch);
    // Which steps wait for the busiest attention-DP rank (decode_step_time): every step of a
    // batch job and of the other engines; in TensorRT-LLM's steady state the steps that carry a
    // prompt.
    // helper-48: "every step" had one reason for four causes; `busiest_rank_why` says which.
    if (r.busiest_rank > 1) {
        const double p = mixed_step_share(s, std::max(1, r.batch), ma.max_batched_tokens.value);
        r.busiest_rank_step_share = dp_wait_share(s, r.batch, r.job_makespan_s > 0, ia, ma);
        if (r.job_makespan_s > 0)
            r.busiest_rank_why = DpWait::batch_job;
        else if (s.engine != ServingEngine::trtllm)
            r.busiest_rank_why = DpWait::engine;
        else if (ia.attention_dp_balanced_decode.value < 0.5)
            r.busiest_rank_why = DpWait::assumption_off;
        else if (p >= 1.0)
            r.busiest_rank_why = DpWait::every_step_has_prompt;
        else
            r.busiest_rank_why = DpWait::prompt_steps;
    }
    // Priced at the operating point -- online, the batch the SLOs allow, not the largest batch
    // memory holds (helper-11: $/M output tokens came from the offline batch) -- each token
    // kind with its GPU time: prompts' prefill the input tokens, the decode steps the output
    // tokens, as the curve prices them. Any $/GPU-hour (cloud, or the amortized on-prem rate)
    // times gpu_hours_per_million_output_tokens is that price per million output tokens.
    if (r.batch > 0 && L_out > 0) {
        double sh = 0;
        const double tc = cohort(r.batch, &sh);
        // Replica-seconds per output token: the operating point's cohort, or the batch job's
        // makespan over its tokens.
        const double per_token =
            r.job_makespan_s > 0
                ? r.job_makespan_s / (static_cast<double>(r.job_requests_per_replica) * L_out)
                : tc / (pp_factor * r.batch * L_out);
        r.decode_share = 1.0 - sh;
        r.gpu_hours_per_million_output_tokens =
            gpus_replica * r.decode_share * per_token * 1e6 / 3600.0;
        if (price > 0 && r.output_tokens_per_s > 0) {
            r.usd_per_million_output_tokens = price * r.gpu_hours_per_million_output_tokens;
            r.usd_per_million_input_tokens =
                price * gpus_replica * sh * per_token * L_out / L_in * 1e6 / 3600.0;
        }
    }
    // A device without the rates these numbers need is refused, never shown as "inf ms" and
    // "0 tokens/s" (helper: the Snapdragon had no bf16 rate before fp16 stood in for it).
    if (!std::isfinite(r.ttft_s) || !std::isfinite(r.tpot_s) || !(r.output_tokens_per_s > 0))
        return Error{"--gpu", gpu.id +
                                  " has no compute or memory rate this serving estimate "
                                  "needs (a 16-bit peak and a memory bandwidth in the catalog)"};
    return r;
}

} // namespace cl::model
