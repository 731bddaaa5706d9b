#include "model/memory.h"

#include "model/flops.h"
#include "model/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cl::model {

// ---- Layers per stage ---------------------------------------------------------------------

std::vector<int> stage_layers(int layers, int pp) {
    std::vector<int> out(static_cast<std::size_t>(std::max(1, pp)), 0);
    if (pp < 1 || layers < 1)
        return out;
    const int base = (layers + pp - 1) / pp;
    std::fill(out.begin(), out.end(), base);
    int excess = base * pp - layers;
    // Take the excess from the outside in: first, last, second, second-to-last, ...
    for (int k = 0; excess > 0; ++k) {
        const int idx = (k % 2 == 0) ? k / 2 : pp - 1 - k / 2;
        out[static_cast<std::size_t>(idx)] -= 1;
        --excess;
    }
    return out;
}

int stage_layer_count(int layers, int pp, int st) {
    if (pp < 1 || layers < 1 || st < 0 || st >= pp)
        return 0;
    const int base = (layers + pp - 1) / pp;
    const int excess = base * pp - layers;
    // Excess removed from the outside in: stage order first, last, second, second-to-last...
    const int rank = st < pp - 1 - st ? 2 * st : 2 * (pp - 1 - st) + 1;
    return base - (rank < excess ? 1 : 0);
}

int recomputed_layers(const TrainingSpec& t, int nl) {
    if (t.recompute != Recompute::full || nl < 1)
        return 0;
    if (t.recompute_layers <= 0)
        return nl;
    // Megatron-Core checkpoints the first recompute_num_layers layers of each TransformerBlock,
    // one block per model chunk (transformer_block.py _checkpointed_forward, method "block").
    const int chunks = std::max(1, t.vpp);
    const int per_chunk = (nl + chunks - 1) / chunks;
    return std::min(nl, chunks * std::min(t.recompute_layers, per_chunk));
}

// ---- Model states ---------------------------------------------------------------------------

StateBytes state_bytes(const TrainingSpec& t) {
    // ZeRO paper sec. 3.1: mixed-precision Adam keeps 16-bit weights (2 B) and gradients (2 B)
    // plus K = 12 B of fp32 master weights, momentum and variance per parameter. Megatron-LM
    // training in bf16 keeps its gradient buffer in fp32 (4 B): 18 B/param, 6 + 12/d with the
    // distributed optimizer (docs/user-guide/features/dist_optimizer.md); fp32_gradients.
    const bool fp32 = t.dtype == TrainingDtype::fp32;
    StateBytes s;
    s.weights = fp32 ? 4.0 : 2.0;
    // Transformer Engine caches an FP8 copy of each weight across micro-batches (TE docs,
    // `is_first_microbatch`); bf16 copy kept. MXFP8 keeps two, row-wise for the forward GEMM and
    // column-wise for the input gradient's, each with an E8M0 scale per 32 values (mxfp8.rst).
    if (t.dtype == TrainingDtype::fp8)
        s.weights += t.fp8_scaling == Fp8Scaling::mxfp8 ? 2.0 * kMxfp8CopyBytes : 1.0;
    s.gradients = fp32 || t.fp32_gradients ? 4.0 : 2.0;
    const double master = fp32 ? 0.0 : 4.0;
    double states = 8.0; // AdamW: fp32 momentum + variance (Loshchilov & Hutter 2019)
    if (t.optimizer == Optimizer::adamw_8bit)
        states = 2.0; // Dettmers et al. 2022 (arXiv:2110.02861): two 8-bit block-wise states
    else if (t.optimizer == Optimizer::sgd)
        states = 4.0; // SGD with momentum: one fp32 buffer
    s.optimizer = master + states;
    return s;
}

namespace {
/// model_state_bytes with the per-parameter bytes already resolved (hot loop of the search).
MemoryBreakdown state_bytes_of(double params, const StateBytes& sb, int zero, bool offload,
                               double shard) {
    MemoryBreakdown b;
    b.weights = params * sb.weights / (zero >= 3 ? shard : 1.0);
    b.gradients = params * sb.gradients / (zero >= 2 ? shard : 1.0);
    b.optimizer = params * sb.optimizer / (zero >= 1 ? shard : 1.0);
    if (offload)
        b.optimizer = 0; // ZeRO-Offload (Ren et al. 2021): master weights + states in CPU RAM
    return b;
}
} // namespace

MemoryBreakdown model_state_bytes(double params, const TrainingSpec& t, double shard) {
    return state_bytes_of(params, state_bytes(t), t.zero, t.offload == Offload::optimizer, shard);
}

// ---- Activations ----------------------------------------------------------------------------
// Korthikanti et al. 2022 sec. 4.1 count, per layer and micro-batch (16-bit activations, 1-byte
// dropout masks): attention 11sbh + 5as^2b, MLP 19sbh, two LayerNorms 4sbh = 34sbh + 5as^2b.
// Generalised term by term:
//   kept whole without SP: norm inputs 4sbh, QKV input 2sbh, MLP input 2sbh, and the two
//     residual dropout masks 2sbh when the model uses dropout (the paper's "10sbh");
//   split by TP: Q 2sbh, K and V 4sb*kv_width, attention output 2sbh, MLP internals (GeLU:
//     up output + GeLU output = 4sbf; SwiGLU: gate, up and product = 6sbf; f = 4h gives the
//     paper's 16sbh), MoE: top_k routed copies of the expert internals plus the router;
//   attention core: 5as^2b with dropout (2as^2b without) unless FlashAttention, which keeps
//     only the fp32 log-sum-exp, 4asb (Dao et al. 2022 sec. 3.1).
// Sequence parallelism divides everything by t (Table 2, "TP+SP"); selective recompute drops
// the attention core; full recompute keeps only the layer input 2sbh (/t with SP).
double layer_activation_bytes(const ModelArch& m, const TrainingSpec& t, int micro_batch,
                              bool flash_attention) {
    const double s = static_cast<double>(t.seq) / t.cp; // context parallelism splits s
    const double b = micro_batch;
    const double h = m.hidden;
    const double tp = t.tp;
    const double sbh = s * b * h;
    const bool sp = t.sequence_parallel && t.tp > 1;
    if (t.recompute == Recompute::full)
        return 2.0 * sbh / (sp ? tp : 1.0);
    const double drop = m.dropout ? 1.0 : 0.0;
    double kv_width = static_cast<double>(m.kv_heads) * m.head_dim;
    if (m.attention() == AttentionKind::mla) // MLA trains with full per-head K and V
        kv_width = static_cast<double>(m.heads) *
                   (m.qk_nope_head_dim + m.qk_rope_head_dim + m.v_head_dim) / 2.0;
    // The query's width, and the attention output's (MLA: heads x (nope + rope) and heads x v,
    // as the step's GEMMs count them).
    double q_width = static_cast<double>(m.heads) * m.head_dim, out_width = q_width;
    if (m.attention() == AttentionKind::mla) {
        q_width = static_cast<double>(m.heads) * (m.qk_nope_head_dim + m.qk_rope_head_dim);
        out_width = static_cast<double>(m.heads) * m.v_head_dim;
    }
    if (t.recompute == Recompute::selective_op) {
        // PyTorch per-op selective checkpointing keeps the block's input (the checkpoint
        // wrapper's argument), the outputs of the matmuls it saves and of attention (with the
        // fp32 log-sum-exp): everything else is recomputed (flops.h block_matmuls).
        double kept_whole = 2.0 * sbh;
        double kept_split = 2.0 * s * b * out_width + 4.0 * m.heads * s * b;
        for (const auto& x : block_matmuls(m, m.is_moe()))
            if (!x.recomputed_by_op_sac)
                (x.split_output ? kept_split : kept_whole) += 2.0 * s * b * x.n * x.copies;
        if (sp)
            return (kept_whole + kept_split) / tp;
        return kept_whole + kept_split / tp;
    }
    double whole = sbh * (8.0 + 2.0 * drop);
    // Q, K + V, attention output (the out-projection input); the softmax dropout mask is part
    // of the s^2 core term.
    double split = 2.0 * s * b * q_width + 4.0 * s * b * kv_width + 2.0 * s * b * out_width;
    const double per_f = m.mlp == Mlp::swiglu ? 6.0 : 4.0;
    if (m.is_moe()) {
        split += per_f * s * b * m.moe_ffn * (m.top_k + m.shared_experts) +
                 2.0 * s * b * m.experts; // router logits
    } else {
        split += per_f * s * b * m.ffn;
    }
    if (t.dtype == TrainingDtype::fp8) {
        // FP8 (Transformer Engine): a linear layer whose input TE quantises keeps that input for
        // its weight-gradient GEMM as the FP8 copy (1 B) instead of the 16-bit tensor
        // (LayerNormLinear / LayerNormMLP / Linear save the quantised input with its columnwise
        // usage only: TransformerEngine PR #1596, module/layernorm_linear.py "Input with
        // column-wise usage is needed for wgrad GEMM"). That halves the two norm outputs (QKV
        // and MLP inputs, 2sbh -> sbh) and the second projection's input (the activation's
        // output, 2sbf -> sbf). Tensors other kernels also keep in 16 bits are unchanged: the
        // attention output (FlashAttention saves it), the activation's input, the norm inputs.
        whole -= 2.0 * sbh;
        const double f_out = m.is_moe()
                                 ? static_cast<double>(m.moe_ffn) * (m.top_k + m.shared_experts)
                                 : static_cast<double>(m.ffn);
        split -= s * b * f_out;
    }
    // Megatron-Core's recompute modules (selective recompute; docs/training.md, "Recompute
    // modules"): each frees the outputs its checkpoint does not keep, as counted above. In FP8
    // Megatron has the next linear save its 16-bit input in place of the FP8 copy
    // (set_save_original_input in transformer_layer.py and experts.py) and discards it with the
    // rest, so the FP8 copy counted above goes too.
    if (t.recompute == Recompute::selective) {
        const bool fp8 = t.dtype == TrainingDtype::fp8;
        const double norm_out = fp8 ? sbh : 2.0 * sbh; // one norm's output, as counted above
        if (t.recompute_layernorm) {
            // Norms that are modules of their own (gpt_layer_specs.py): an MoE layer's pre-MLP
            // norm and MLA's input norm; TE fuses the others into the next linear.
            if (m.is_moe())
                whole -= norm_out;
            if (m.attention() == AttentionKind::mla)
                whole -= norm_out;
        }
        if (t.recompute_moe_act && m.is_moe()) // the routed experts' activation output
            split -= (fp8 ? 1.0 : 2.0) * s * b * m.moe_ffn * m.top_k;
        if (t.recompute_mla_up_proj && m.attention() == AttentionKind::mla)
            split -= 2.0 * s * b * q_width + 4.0 * s * b * kv_width; // the attention's Q, K, V
        if (t.recompute_mlp && !m.is_moe()) { // the dense MLP keeps only its input
            whole -= norm_out;
            split -= (per_f - (fp8 ? 1.0 : 0.0)) * s * b * m.ffn;
        }
    }
    double core = 0;
    const bool keep_core = t.recompute == Recompute::none;
    if (flash_attention)
        core = 4.0 * m.heads * s * b; // fp32 log-sum-exp per row and head
    else if (keep_core)
        core = (m.dropout ? 5.0 : 2.0) * m.heads * s * s * b;
    if (sp)
        return (whole + split + core) / tp;
    return whole + (split + core) / tp;
}

namespace {

struct LayerParams {
    double attention = 0, norms = 0, mlp = 0, experts = 0; ///< whole layer, unsharded
    /// Of `experts`: the routed experts' and the router's. The rest are the shared experts.
    double routed = 0, router = 0;
};

LayerParams layer_params(const ModelArch& m, bool moe) {
    LayerParams p;
    p.attention = m.attention_params_per_layer();
    p.norms = m.norm_params_per_layer();
    if (moe && m.is_moe()) {
        p.experts = m.expert_params_per_layer();
        p.routed = m.routed_expert_params_per_layer();
        p.router = m.router_params_per_layer();
    } else
        p.mlp = m.dense_mlp_params_per_layer();
    return p;
}

/// LoRA adapter parameters of one layer: rank r on every linear layer of attention and the
/// dense / shared-expert MLP (QLoRA paper sec. 4 applies LoRA to all linear block layers);
/// a d_in x d_out layer gets r(d_in + d_out) (Hu et al. 2021 sec. 4.1).
double lora_params_per_layer(const ModelArch& m, bool moe, int r) {
    const double h = m.hidden;
    const double q = static_cast<double>(m.heads) * m.head_dim;
    const double kv = static_cast<double>(m.kv_heads) * m.head_dim;
    double p = r * ((h + q) + 2.0 * (h + kv) + (q + h));
    const bool dense = !moe || !m.is_moe();
    const double f = dense ? m.ffn : static_cast<double>(m.moe_ffn) * m.shared_experts;
    if (f > 0)
        p += r * (m.mlp == Mlp::swiglu ? 3.0 : 2.0) * (h + f);
    return p;
}

} // namespace

std::string explain_training_memory(const TrainingMemory& out) {
    const auto& b = out.per_gpu;
    const double states = b.weights + b.gradients + b.optimizer;
    char buf[320];
    // The total first: a workload card has room for about two lines of it, so what is cut is
    // the breakdown (helper-15: the 16k card read "... + other 2.0 G…", no total).
    std::snprintf(
        buf, sizeof buf, "%s: %s of %s per GPU (model states %s + activations %s + other %s)",
        out.fits ? "fits" : "does not fit", units::format_bytes(b.total()).c_str(),
        units::format_bytes(out.capacity_bytes).c_str(), units::format_bytes(states).c_str(),
        units::format_bytes(b.activations).c_str(), units::format_bytes(b.other).c_str());
    return buf;
}

std::string fp8_recipe_refusal(const TrainingSpec& t, const GpuSpec& gpu) {
    // Data-centre Blackwell (sm_100 / sm_103) only; the catalog names sm_110 and sm_120 parts.
    if (t.dtype != TrainingDtype::fp8 || t.fp8_scaling != Fp8Scaling::mxfp8 ||
        (gpu.arch.find("Blackwell") != std::string::npos &&
         gpu.arch.find("(sm_1") == std::string::npos))
        return {};
    return "MXFP8 needs a Blackwell data-centre GPU (SM 10.0 or 10.3, Transformer Engine "
           "mxfp8.rst); the " +
           gpu.name + " is not one: choose delayed or current scaling";
}

std::pair<std::string, std::string> recompute_modules_refusal(const ModelArch& m,
                                                              const TrainingSpec& t) {
    // Megatron-Core refuses "moe_act" and "layernorm" with FP8 delayed scaling and "mla_up_proj"
    // without multi-latent attention (transformer_config.py); a module the model does not have
    // (routed experts, dense layers) is refused here rather than ignored.
    if (t.dtype == TrainingDtype::fp8 && t.fp8_scaling == Fp8Scaling::delayed &&
        (t.recompute_moe_act || t.recompute_layernorm))
        return {t.recompute_moe_act ? "--recompute-moe-act" : "--recompute-layernorm",
                "FP8 delayed scaling does not support moe_act and layernorm recompute "
                "(Megatron-Core transformer_config.py): choose current scaling or MXFP8"};
    if (t.recompute_moe_act && !m.is_moe())
        return {"--recompute-moe-act", "the model has no experts (Megatron \"moe_act\" "
                                       "recomputes the routed experts' activation)"};
    if (t.recompute_mla_up_proj && m.attention() != AttentionKind::mla)
        return {"--recompute-mla-up-proj",
                "the model has no multi-latent attention (Megatron \"mla_up_proj\" recomputes "
                "its up-projections)"};
    if (t.recompute_mlp && m.moe_layers() >= m.layers)
        return {"--recompute-mlp", "every layer of the model is an MoE layer: there is no dense "
                                   "MLP to recompute (Megatron \"mlp\" skips MoE layers)"};
    return {};
}

Result<TrainingMemory> training_memory(const ModelArch& m, const TrainingSpec& t, int gpus,
                                       const GpuSpec& gpu, const MemoryAssumptions& a,
                                       bool explain) {
    std::vector<Error> errs;
    auto bad = [&](const char* flag, std::string what) { errs.push_back({flag, std::move(what)}); };
    if (gpus < 1)
        return Error{"--gpus", "must be at least 1"};
    // A recipe the GPU cannot run is refused before its memory is weighed.
    if (std::string why = fp8_recipe_refusal(t, gpu); !why.empty())
        return Error{"--fp8-scaling", std::move(why)};
    TrainingMemory out;
    if (t.tp < 1 || t.pp < 1 || t.cp < 1 || t.ep < 1 || t.vpp < 1)
        return Error{"--tp/--pp/--cp/--ep/--vpp", "parallel degrees must be at least 1"};
    const long long mp = static_cast<long long>(t.tp) * t.pp * t.cp;
    if (gpus % mp != 0)
        return Error{"--tp", "TP × PP × CP = " + units::format_count(static_cast<double>(mp)) +
                                 " does not divide the " +
                                 units::format_count(static_cast<double>(gpus)) + " GPUs"};
    const int dp = static_cast<int>(gpus / mp);
    if (m.heads % t.tp != 0)
        bad("--tp", "TP = " + std::to_string(t.tp) + " does not divide the model's " +
                        std::to_string(m.heads) + " attention heads");
    // MoE parallel folding (Megatron-Core; arXiv 2603.07685 sec. "Parallel Folding"): the
    // experts' ETP x EP x EDP grid covers the same TP x CP x DP GPUs as attention. With ETP =
    // TP (the default) this is the classic rule, EP dividing DP x CP.
    const long long etp = t.expert_tp();
    if (t.etp < 0)
        bad("--etp", "must be 0 (the same as TP) or at least 1");
    else if ((static_cast<long long>(dp) * t.cp * t.tp) % (etp * t.ep) != 0)
        bad("--ep", "ETP × EP = " + std::to_string(etp * t.ep) +
                        " does not divide TP × CP × DP = " +
                        std::to_string(static_cast<long long>(dp) * t.cp * t.tp) +
                        (t.etp > 0 ? "" : " (ETP 0 is the same as TP; ETP 1 folds EP over TP)"));
    if (t.ep > 1 && !m.is_moe())
        bad("--ep", "expert parallelism needs an MoE model");
    if (m.is_moe() && m.experts % t.ep != 0)
        bad("--ep", "EP = " + std::to_string(t.ep) + " does not divide the model's " +
                        std::to_string(m.experts) + " experts");
    // Megatron-LM can count the input embedding and the loss as one transformer layer each when
    // it splits the model over pipeline stages (--account-for-embedding-in-pipeline-split,
    // --account-for-loss-in-pipeline-split; megatron/training/arguments.py): PP x VPP model
    // chunks then hold the layers and those two, a chunk may hold only the embedding or only
    // the loss (Megatron-MoE-ModelZoo runs Qwen3-235B's 94 layers as PP 32 x VPP 3). Every stage
    // keeps at least one decoder layer.
    if (t.pp > m.layers)
        bad("--pp", "PP = " + std::to_string(t.pp) + " exceeds the model's " +
                        std::to_string(m.layers) + " layers");
    else if (t.pp * t.vpp > max_pipeline_chunks(m.layers))
        bad("--vpp", "PP × VPP = " + std::to_string(t.pp * t.vpp) + " model chunks exceed the " +
                         "model's " + std::to_string(m.layers) +
                         " layers plus its embedding and loss (Megatron-LM counts each as a "
                         "layer with --account-for-embedding-in-pipeline-split and "
                         "--account-for-loss-in-pipeline-split)");
    // The interleaved schedule splits each stage into vpp model chunks; Megatron-LM takes the
    // chunk size from the user (--num-layers-per-virtual-pipeline-stage) and does not choose
    // one: an interleaved schedule without vpp >= 2 would silently be plain 1F1B.
    if (t.schedule == Schedule::interleaved && t.vpp < 2)
        bad("--vpp", "the interleaved schedule needs VPP \u2265 2 model chunks per stage "
                     "(Megatron-LM's layers per virtual pipeline stage); VPP 1 is plain 1F1B");
    if (t.recompute_layers < 0)
        bad("--recompute-layers", "must be 0 (every layer) or at least 1");
    else if (t.recompute_layers > 0 && t.recompute != Recompute::full)
        bad("--recompute-layers", "recomputes whole layers: it needs full activation recompute "
                                  "(--recompute full; Megatron-LM's --recompute-granularity "
                                  "full)");
    else if (t.recompute_layers > 0) {
        // The largest model chunk: a stage holds at most ceil(layers / pp) layers.
        const int widest = ((m.layers + t.pp - 1) / t.pp + t.vpp - 1) / t.vpp;
        if (t.recompute_layers > widest)
            bad("--recompute-layers",
                std::to_string(t.recompute_layers) + " layers exceed the " +
                    std::to_string(widest) + " of a " +
                    (t.vpp > 1 ? "model chunk (PP × VPP = " + std::to_string(t.pp * t.vpp) + ")"
                               : "pipeline stage (PP = " + std::to_string(t.pp) + ")") +
                    "; 0 recomputes every layer");
    }
    // Megatron-Core's recompute_modules apply with selective recompute only
    // (transformer_config.py: recompute_granularity "selective"; it ignores them otherwise,
    // ClusterLens refuses so that no input is silently dropped).
    if (t.recomputes_modules() && t.recompute != Recompute::selective) {
        const char* flag = t.recompute_layernorm     ? "--recompute-layernorm"
                           : t.recompute_moe_act     ? "--recompute-moe-act"
                           : t.recompute_mla_up_proj ? "--recompute-mla-up-proj"
                                                     : "--recompute-mlp";
        bad(flag, "recomputes one module of each layer: it needs selective recompute "
                  "(--recompute selective; Megatron-LM's --recompute-granularity selective "
                  "with --recompute-modules)");
    }
    if (auto why = recompute_modules_refusal(m, t); !why.first.empty())
        bad(why.first.c_str(), std::move(why.second));
    if (t.seq < 1)
        bad("--seq", "must be at least 1");
    else if (t.seq % t.cp != 0)
        bad("--cp", "CP = " + std::to_string(t.cp) + " does not divide the sequence length " +
                        std::to_string(t.seq));
    if (t.global_batch > 0 && t.global_batch % dp != 0)
        bad("--global-batch",
            "global batch " + units::format_count(static_cast<double>(t.global_batch)) +
                " is not a multiple of the data-parallel degree (DP = " + units::format_count(dp) +
                ")");
    const int mb = t.micro_batch > 0 ? t.micro_batch : 1;
    if (t.global_batch > 0 && t.micro_batch > 0 && t.global_batch % dp == 0 &&
        (t.global_batch / dp) % t.micro_batch != 0)
        bad("--micro-batch",
            "micro-batch " + std::to_string(t.micro_batch) +
                " does not divide the sequences per data-parallel rank (global batch / DP = " +
                units::format_count(static_cast<double>(t.global_batch / dp)) + ")");
    if (t.finetune != Finetune::full && t.lora_rank < 1)
        bad("--lora-rank", "must be at least 1");
    if (!errs.empty())
        return errs;

    out.dp = dp;
    out.micro_batch = mb;
    const bool lora = t.finetune == Finetune::lora || t.finetune == Finetune::qlora;
    const bool qlora = t.finetune == Finetune::qlora;
    const double tp = t.tp;
    const double dense_shard = static_cast<double>(dp) * t.cp; // distributed optimizer: DP x CP
    // The experts' data-parallel group (EDP): TP x CP x DP / (ETP x EP).
    const double expert_shard = expert_data_parallel(t, dp);
    const std::int64_t micro_batches =
        t.global_batch > 0
            ? std::max<std::int64_t>(1, t.global_batch / (static_cast<std::int64_t>(dp) * mb))
            : t.pp;
    const bool flash = a.flash_attention.value > 0.5;
    const double act_layer = layer_activation_bytes(m, t, mb, flash);
    const double s_local = static_cast<double>(t.seq) / t.cp;
    const bool sp = t.sequence_parallel && t.tp > 1;
    const double sbh_t = s_local * mb * m.hidden / (sp ? tp : 1.0);

    // Whole-model trainable parameter count (for the optimizer and reports).
    const double trainable = lora ? lora_params(m, t.lora_rank) : trained_params(m, t);
    out.trainable_params = trainable;

    const LayerParams lp_dense = layer_params(m, false);
    const LayerParams lp_moe = layer_params(m, true);
    const double lora_dense = lora ? lora_params_per_layer(m, false, t.lora_rank) : 0.0;
    const double lora_moe = lora ? lora_params_per_layer(m, true, t.lora_rank) : 0.0;
    int first_layer = 0;
    double worst_total = -1;
    // Per-step invariants, resolved once (string compares and copies add up over ~10^5
    // layouts in the search).
    const StateBytes sbytes = state_bytes(t);
    const bool offload = t.offload == Offload::optimizer;
    const bool gpipe = t.schedule == Schedule::gpipe;
    double whole_layer_bytes = 0; // full recompute: the layer being recomputed, whole
    if (t.recompute == Recompute::full) {
        TrainingSpec whole_layer = t;
        whole_layer.recompute = Recompute::none;
        whole_layer_bytes = layer_activation_bytes(m, whole_layer, mb, flash);
    }
    const int mtp = mtp_modules(m, t);
    // A multi-token prediction module (DeepSeek-V3 report sec. 2.2): a transformer block of the
    // kind of the model's last layer, two norms of its inputs and the 2h x h projection of
    // their concatenation (the embedding and the output head are the model's, shared), on the
    // last stage.
    const bool mtp_moe = m.mtp_block_is_moe();
    for (int st = 0; st < t.pp; ++st) {
        const int nl = decoder_layers_on_stage(m.layers, mtp, t.pp, st);
        const int n_mtp = st == t.pp - 1 ? mtp : 0;
        StageMemory sm;
        sm.stage = st;
        sm.layers = nl;
        double dense = 0, experts = 0, adapters = 0, frozen_linear = 0, frozen_other = 0;
        // Layers [first_layer, first_layer + nl): MoE or dense (architecture.h), counted in
        // closed form (O(pp), not O(layers)).
        const int n_moe = m.moe_layers_in(first_layer, nl);
        const int n_dense = nl - n_moe;
        const double attn = lp_dense.attention / tp, norms = lp_dense.norms;
        const int mtp_dense = mtp_moe ? 0 : n_mtp, mtp_sparse = mtp_moe ? n_mtp : 0;
        const double mtp_extra = n_mtp * (m.mtp_projection_params() / tp + norms);
        // MoE layers: the routed experts split ETP x EP ways (their own data-parallel group,
        // EDP); the shared experts are a TP-split MLP and the router is replicated, both with
        // the attention in DP x CP (Megatron-Core SharedExpertMLP, TopKRouter).
        const double n_sparse = n_moe + mtp_sparse;
        const double moe_dense =
            n_sparse * ((lp_moe.experts - lp_moe.routed - lp_moe.router) / tp + lp_moe.router);
        const double linear = (nl + n_mtp) * attn + (n_dense + mtp_dense) * lp_dense.mlp / tp +
                              mtp_sparse * lp_moe.mlp / tp + mtp_extra + moe_dense;
        const double expert =
            n_sparse * lp_moe.routed / (static_cast<double>(t.expert_tp()) * t.ep);
        if (lora) {
            frozen_linear += linear + expert;
            frozen_other += (nl + n_mtp) * norms;
            adapters += (n_dense * lora_dense + n_moe * lora_moe) / tp;
        } else {
            dense += linear + (nl + n_mtp) * norms;
            experts += expert;
        }
        first_layer += nl;
        // Embedding on the first stage, LM head on the last (Narayanan et al. 2021 sec. 2.2);
        // with pp > 1 a tied embedding is duplicated on the last stage (Megatron-LM
        // shared_embedding). Vocabulary-parallel over TP.
        double edge = 0;
        const double vh = static_cast<double>(m.vocab) * m.hidden;
        if (st == 0)
            edge += m.embedding_params() - vh + vh / tp;
        if (st == t.pp - 1) {
            const bool head = !m.tied_embeddings || t.pp > 1;
            edge += m.output_params() - (m.tied_embeddings ? 0.0 : vh) + (head ? vh / tp : 0.0);
        }
        if (lora)
            frozen_other += edge;
        else
            dense += edge;
        sm.params = dense + experts + frozen_linear + frozen_other + adapters;
        sm.expert_params = experts;

        MemoryBreakdown& b = sm.bytes;
        if (lora) {
            // Frozen base: 16-bit weights (QLoRA: NF4 linear layers at 4 bits plus
            // double-quantised constants, 0.127 bits/param -- QLoRA sec. 3), no gradients,
            // no optimizer state. ZeRO-3 also shards the frozen weights.
            const double wshard = t.zero >= 3 ? dense_shard : 1.0;
            const double linear_bytes = qlora ? (4.0 + 0.127) / 8.0 : 2.0;
            b.weights = (frozen_linear * linear_bytes + frozen_other * 2.0) / wshard;
            const MemoryBreakdown ad =
                state_bytes_of(adapters, sbytes, t.zero, offload, dense_shard);
            b.weights += ad.weights;
            b.gradients = ad.gradients;
            b.optimizer = ad.optimizer;
        } else {
            const MemoryBreakdown d = state_bytes_of(dense, sbytes, t.zero, offload, dense_shard);
            const MemoryBreakdown e =
                state_bytes_of(experts, sbytes, t.zero, offload, expert_shard);
            b.weights = d.weights + e.weights;
            b.gradients = d.gradients + e.gradients;
            b.optimizer = d.optimizer + e.optimizer;
        }
        // Micro-batches in flight on stage st: 1F1B keeps p - st (Narayanan et al. 2021
        // sec. 2.2.1); interleaving multiplies the first stage's by 1 + (p-1)/(p*v)
        // (Korthikanti et al. 2022 sec. 4.2.3); GPipe keeps all m; ZB-H1 matches 1F1B
        // (Qi et al. 2023).
        double in_flight = std::min<double>(t.pp - st, static_cast<double>(micro_batches));
        if (gpipe)
            in_flight = static_cast<double>(micro_batches);
        if (t.vpp > 1 && !gpipe)
            in_flight *= 1.0 + (t.pp - 1.0) / (t.pp * static_cast<double>(t.vpp));
        if (st == 0)
            out.micro_batches_in_flight = in_flight;
        // Full recompute keeps a layer's input only, except for the layers a partial recompute
        // leaves alone (recompute_layers), which keep everything.
        const int rec_layers = recomputed_layers(t, nl);
        b.activations = (t.recompute == Recompute::full
                             ? act_layer * rec_layers + whole_layer_bytes * (nl - rec_layers)
                             : act_layer * nl) *
                        in_flight;
        if (rec_layers > 0)
            b.activations += whole_layer_bytes; // full recompute: the layer being recomputed
        // Korthikanti sec. 4.3: embedding output p*sbh/t on the first stage; the output layer
        // input and fp32 logits 4sbh/t + 4sbv/t on the last.
        if (st == 0)
            b.activations += in_flight * sbh_t;
        if (st == t.pp - 1)
            b.activations += 4.0 * sbh_t + 4.0 * s_local * mb * m.vocab / tp;
        // Each multi-token prediction module: a layer's activations for the micro-batches in
        // flight, and its own pass through the output layer (input and fp32 logits).
        if (n_mtp > 0)
            b.activations +=
                n_mtp * (act_layer * in_flight + 4.0 * sbh_t + 4.0 * s_local * mb * m.vocab / tp);
        b.other = a.framework_overhead_bytes.value;
        if (offload) {
            // Gradients down and weights up, 4 B a parameter, each group's share (ZeRO >= 2
            // shards the gradients: DP x CP for the others, EDP for the routed experts).
            const double ds = t.zero >= 2 ? dense_shard : 1.0;
            const double es = t.zero >= 2 ? expert_shard : 1.0;
            const double on_gpu = lora ? adapters / ds : dense / ds + experts / es;
            out.offload_pcie_bytes_per_step =
                std::max(out.offload_pcie_bytes_per_step, 4.0 * on_gpu);
        }
        const double total = b.total();
        if (total > worst_total) {
            worst_total = total;
            out.worst_stage = st;
            out.per_gpu = b;
            out.params_per_gpu = sm.params;
            out.expert_params_per_gpu = sm.expert_params;
        }
        if (explain && (st == 0 || st == t.pp - 1)) // per-stage detail for reports only
            out.stages.push_back(sm);
    }

    // What CUDA reports (catalog usable_memory_bytes; an H100's "80 GB" is 79.2 GiB).
    out.capacity_bytes = gpu.framework_memory_bytes();
    out.headroom_bytes = out.capacity_bytes - out.per_gpu.total();
    out.fits = out.headroom_bytes >= 0;
    if (explain)
        out.explanation = explain_training_memory(out);
    return out;
}

// ---- Inference --------------------------------------------------------------------------------

double weight_bits(WeightsDtype dtype, Fp4Format fp4) {
    switch (dtype) {
    case WeightsDtype::bf16:
    case WeightsDtype::fp16:
        return 16.0;
    case WeightsDtype::fp8:
    case WeightsDtype::int8:
        return 8.0; // per-tensor / per-channel scales are negligible
    case WeightsDtype::int4:
        return 4.0 + 32.0 / 128.0; // AWQ/GPTQ group size 128, fp16 scale + zero point
    case WeightsDtype::fp4:
        // NVFP4: an FP8 E4M3 scale per 16-value block; MXFP4: an E8M0 scale per 32.
        return fp4 == Fp4Format::mxfp4 ? 4.0 + 8.0 / 32.0 : 4.0 + 8.0 / 16.0;
    // llama.cpp GGUF: the whole-file average bits per weight of Llama-3.1-8B as the quantize
    // tool reports them (llama.cpp tools/quantize/README.md @311c2c9): K-quant super-blocks of
    // 256 with 6-bit sub-block scales, and the mix of formats each preset puts on each tensor
    // (Q4_K_M keeps some tensors at Q6_K).
    case WeightsDtype::q4_k_m:
        return 4.8944;
    case WeightsDtype::q5_k_m:
        return 5.7036;
    case WeightsDtype::q6_k:
        return 6.5633;
    case WeightsDtype::q8_0:
        return 8.5008; // 32 int8 values + one fp16 scale per block (ggml-common.h block_q8_0)
    case WeightsDtype::q4_0:
        // 32 4-bit values + one fp16 scale per block (ggml-common.h block_q4_0); the preset's
        // Q6_K output tensor adds about 1% on a 7B model, not counted.
        return 4.5;
    // MLX affine quantisation, group 64 (mlx-lm's default): one 16-bit scale and one 16-bit
    // bias per group (mlx @846d176, mlx-lm @d78bf58): +32/64 bits per weight.
    case WeightsDtype::mlx4:
        return 4.5;
    case WeightsDtype::mlx8:
        return 8.5;
    }
    return 16.0;
}

bool quantises_embeddings(WeightsDtype dtype) {
    switch (dtype) {
    case WeightsDtype::q4_k_m:
    case WeightsDtype::q5_k_m:
    case WeightsDtype::q6_k:
    case WeightsDtype::q8_0:
    case WeightsDtype::q4_0:
    case WeightsDtype::mlx4:
    case WeightsDtype::mlx8:
        return true;
    default:
        return false;
    }
}

double kv_element_bytes(KvDtype dtype) {
    switch (dtype) {
    case KvDtype::fp8:
    case KvDtype::int8:
        return 1.0;
    case KvDtype::fp4:
        return 0.5 + 1.0 / 16.0; // NVFP4 block scales
    case KvDtype::bf16:
    case KvDtype::fp16:
        return 2.0;
    }
    return 2.0;
}

namespace {
/// One layer's KV bytes per cached token.
double kv_bytes_per_layer_token(const ModelArch& m, KvDtype kv_dtype) {
    const double e = kv_element_bytes(kv_dtype);
    if (m.attention() == AttentionKind::mla)
        return (m.kv_lora_rank + m.qk_rope_head_dim) * e;
    return 2.0 * m.kv_heads * static_cast<double>(m.head_dim) * e;
}
} // namespace

double kv_bytes_per_token(const ModelArch& m, KvDtype kv_dtype) {
    // Sliding-window models: the average over layers at the model's full context (CLI.md).
    if (m.sliding_window > 0 && m.max_seq > 0)
        return kv_bytes_per_sequence(m, kv_dtype, m.max_seq) / m.max_seq;
    return m.layers * kv_bytes_per_layer_token(m, kv_dtype);
}

double kv_bytes_per_sequence(const ModelArch& m, KvDtype kv_dtype, double tokens) {
    const double per_layer_token = kv_bytes_per_layer_token(m, kv_dtype);
    const int local = m.local_layers_in(0, m.layers);
    return per_layer_token * ((m.layers - local) * tokens + local * m.kept_context(tokens, true));
}

const Assumption& engine_runtime(const MemoryAssumptions& a, ServingEngine e) {
    switch (e) {
    case ServingEngine::llamacpp:
        return a.llamacpp_runtime_bytes;
    case ServingEngine::mlx:
        return a.mlx_runtime_bytes;
    default:
        return a.framework_overhead_bytes;
    }
}

bool attention_dp_active(const ModelArch& m, const InferenceSpec& s) {
    return s.attention_dp && s.tp > 1 && m.is_moe();
}

int expert_parallel_size(const ModelArch& m, const InferenceSpec& s) {
    if (!m.is_moe())
        return 1;
    // 0: every engine's own default, EP 1 (each routed expert split by tensor over the TP GPUs),
    // with attention DP too: TensorRT-LLM's Mapping sets moe_ep_size 1 and moe_tp_size = the
    // world when moe_expert_parallel_size is unset (tensorrt_llm/mapping.py; llmapi/llm_args.py
    // passes -1 for None, enable_attention_dp or not); vLLM docs, Data Parallel Deployment: "By
    // default, expert layers form a tensor parallel group of size DP × TP"; SGLang server
    // arguments: --enable-dp-attention is "DP for attention, TP for FFN", --ep-size 1.
    return s.ep > 0 ? s.ep : 1;
}

Fp4Attention fp4_attention_of(const ModelArch& m, const InferenceSpec& s) {
    if (s.weights_dtype != WeightsDtype::fp4)
        return Fp4Attention::fp4;
    return s.fp4_attention == Fp4Attention::checkpoint ? m.nvfp4_attention : s.fp4_attention;
}

double attention_params_16bit(const ModelArch& m, const InferenceSpec& s) {
    switch (fp4_attention_of(m, s)) {
    case Fp4Attention::bf16:
        return m.attention_params_per_layer();
    case Fp4Attention::bf16_except_output:
        return m.attention_params_per_layer() - m.attention_output_params_per_layer();
    default:
        return 0;
    }
}

std::string kv_budget_rule(const MemoryAssumptions& a, ServingEngine e) {
    const auto pct = [](double f) {
        return std::to_string(static_cast<int>(std::lround(f * 100))) + " %";
    };
    switch (e) {
    case ServingEngine::vllm:
        return "vLLM fills " + pct(a.gpu_memory_utilization.value) +
               " of the card: the KV cache gets what weights, activations and runtime leave of it";
    case ServingEngine::sglang:
        return "SGLang's weights and KV cache take " + pct(a.sglang_mem_fraction_static.value) +
               " of the card: the KV cache gets that less the weights";
    case ServingEngine::trtllm:
        return "TensorRT-LLM gives the KV cache " + pct(a.trtllm_free_memory_fraction.value) +
               " of the memory free once weights, activations and runtime are loaded";
    default:
        return "what the weights, one compute buffer and the context leave of the device";
    }
}

int engine_max_num_seqs(const MemoryAssumptions& a, ServingEngine e, const GpuSpec& gpu) {
    if (a.max_num_seqs.value >= 1)
        return static_cast<int>(std::min(a.max_num_seqs.value, 1e7));
    if (e == ServingEngine::vllm) {
        // get_batch_defaults: "For GPUs like H100 and MI300x, use larger default values"; A100 is
        // excluded by name (vLLM PR #17885: the larger batch cost it throughput).
        const bool large =
            gpu.memory_bytes >= 70.0 * 1073741824.0 && gpu.id.find("a100") == std::string::npos;
        return large ? 1024 : 256;
    }
    return 2048;
}

namespace {
Result<InferenceMemory> inference_memory_at(const ModelArch& m, const InferenceSpec& s,
                                            const GpuSpec& gpu, const MemoryAssumptions& a,
                                            const ModelArch* draft) {
    std::vector<Error> errs;
    if (s.tp < 1 || s.pp < 1)
        return Error{"--tp/--pp", "must be at least 1"};
    const bool adp = attention_dp_active(m, s);
    if (s.attention_dp && !m.is_moe())
        errs.push_back({"--attention-dp",
                        "applies to MoE models (it splits only the routed experts over the TP "
                        "GPUs); for a dense model it is plain data parallelism: set Replicas "
                        "(--replicas) instead"});
    if (s.ep < 0)
        errs.push_back({"--ep", "must not be negative (0: the engine's default)"});
    else if (s.ep > 0 && !m.is_moe()) {
        if (s.ep > 1)
            errs.push_back({"--ep", "applies to MoE models (it splits the routed experts by "
                                    "expert); this model has no experts: leave Engine default "
                                    "(0)"});
    } else if (s.ep > 0) {
        const auto n = [](long v) { return std::to_string(v); };
        // What EP may be here (helper-46: the refusal named the problem, not the values).
        // vLLM with attention DP: its expert layers are one tensor-parallel group over every GPU
        // (EP 1), or with --enable-expert-parallel one expert-parallel group over all of them (EP
        // = TP) -- vLLM docs, Data Parallel Deployment: "By default, expert layers form a tensor
        // parallel group of size DP × TP".
        const bool vllm_adp = adp && s.engine == ServingEngine::vllm;
        std::string valid;
        for (int e = 1; e <= s.tp; ++e)
            if (s.tp % e == 0 && m.experts % e == 0 && (!vllm_adp || e == 1 || e == s.tp))
                valid += (valid.empty() ? "" : ", ") + n(e);
        const std::string choose =
            adp ? " (or leave Engine default, 0)" : " here, or leave Engine default (0)";
        if (s.tp % s.ep != 0)
            errs.push_back({"--ep", "EP = " + n(s.ep) + " does not divide TP = " + n(s.tp) +
                                        " (each expert is split by tensor over TP / EP GPUs): "
                                        "EP may be " +
                                        valid + choose});
        else if (m.experts % s.ep != 0)
            errs.push_back({"--ep", "EP = " + n(s.ep) + " does not divide the model's " +
                                        n(m.experts) + " routed experts: EP may be " + valid +
                                        choose});
        else if (vllm_adp && s.ep != 1 && s.ep != s.tp)
            errs.push_back({"--ep", "vLLM with attention DP splits the routed experts over every "
                                    "GPU, by tensor (EP 1) or by expert with "
                                    "--enable-expert-parallel (EP " +
                                        n(s.tp) + "): EP may be " + valid + choose});
    }
    if (!adp && m.heads % s.tp != 0)
        errs.push_back({"--tp", "TP = " + std::to_string(s.tp) + " does not divide the model's " +
                                    std::to_string(m.heads) + " attention heads"});
    if (s.pp > m.layers)
        errs.push_back({"--pp", "PP = " + std::to_string(s.pp) + " exceeds the model's " +
                                    std::to_string(m.layers) + " layers"});
    if (s.input_len < 1 || s.output_len < 1)
        errs.push_back({"--input-len/--output-len", "must be at least 1 token"});
    if (s.batch < 0)
        errs.push_back({"--batch", "must not be negative"});
    if (s.requests < 0 || s.requests > 1000000)
        errs.push_back({"--requests", "must be between 0 (a steady state) and 1,000,000 (a longer "
                                      "job runs at its steady state)"});
    // Online serving, disaggregated prefill and a draft model run no batch job: the requests are
    // kept for when the workload runs offline again (as the request rate is kept offline), and
    // the CLI refuses --requests with them (cmd_infer).
    if (s.offload_layers < 0 || s.offload_layers >= m.layers)
        errs.push_back({"--offload-layers", "must be between 0 and the model's " +
                                                std::to_string(m.layers) +
                                                " layers - 1 (one layer stays on the device)"});
    else if (s.offload_layers > 0 && s.engine == ServingEngine::mlx)
        errs.push_back({"--offload-layers", "MLX keeps every layer in the device's memory (it has "
                                            "no layer offload; llama.cpp has)"});
    else if (s.offload_layers > 0 && s.pp > 1)
        errs.push_back({"--offload-layers", "needs pp 1 (llama.cpp splits layers between one "
                                            "device and the CPU)"});
    else if (s.offload_layers > 0 && gpu.unified_memory)
        errs.push_back({"--offload-layers", gpu.name + " shares its memory with the CPU: there is "
                                                       "no system memory to offload to (set the "
                                                       "layers in system memory to 0)"});
    if (!errs.empty())
        return errs;

    InferenceMemory out;
    out.paged = s.batching != Batching::static_; // static batching reserves max length contiguously
    out.capacity_bytes = gpu.framework_memory_bytes();
    // What the engine may fill: vLLM a fraction of the whole card (gpu_memory_utilization);
    // SGLang and TensorRT-LLM the whole card, with the KV budget rule below.
    // llama.cpp allocates what it needs from the whole device. On unified memory the operating
    // system keeps a share (assumption unified_memory_gpu_fraction).
    // The total is what CUDA reports (torch.cuda.mem_get_info: vLLM's gpu_memory_utilization,
    // SGLang's mem_fraction_static and TensorRT-LLM's free memory are all of it).
    const double device_bytes =
        out.capacity_bytes * (gpu.unified_memory ? a.unified_memory_gpu_fraction.value : 1.0);
    const bool llamacpp = s.engine == ServingEngine::llamacpp;
    const bool mlx = s.engine == ServingEngine::mlx;
    out.usable_bytes = s.engine == ServingEngine::vllm
                           ? device_bytes * a.gpu_memory_utilization.value
                           : device_bytes;
    out.kv_bytes_per_token = kv_bytes_per_token(m, s.kv_dtype);
    const double tp = s.tp;
    const double wbytes = weight_bits(s.weights_dtype, m.fp4_format) / 8.0;
    const double kv_e = kv_element_bytes(s.kv_dtype);
    // KV heads are split over TP; when tp exceeds them each GPU keeps one (vLLM replicates);
    // the MLA latent is replicated on every TP rank (vLLM's MLA backend).
    // Attention DP: each GPU keeps every KV head of its own sequences (Attention with
    // tp_size 1 under enable_attention_dp, TensorRT-LLM _torch/modules/attention.py).
    double kv_layer_per_gpu = 0;
    if (m.attention() == AttentionKind::mla)
        kv_layer_per_gpu = (m.kv_lora_rank + m.qk_rope_head_dim) * kv_e;
    else
        kv_layer_per_gpu =
            2.0 * (adp ? static_cast<double>(m.kv_heads) : std::max(1.0, m.kv_heads / tp)) *
            m.head_dim * kv_e;

    // A speculative draft model (helper-20, session 31: choosing one left the memory badge as
    // it was): its weights, in the serving weight format, and its KV cache of every sequence,
    // split over TP like the target's; on every pipeline stage (conservative: engines that
    // support it run the draft beside the first stage, vLLM not with PP at all).
    double draft_w = 0, draft_kv = 0;
    if (draft) {
        draft_w = draft->total_params() / tp * wbytes;
        const double per_layer =
            draft->attention() == AttentionKind::mla
                ? (draft->kv_lora_rank + draft->qk_rope_head_dim) * kv_e
                : 2.0 * std::max(1.0, draft->kv_heads / tp) * draft->head_dim * kv_e;
        draft_kv = per_layer * draft->layers;
        out.draft_weights_bytes_per_gpu = draft_w;
    }

    // Workspace: the transient activations of one forward pass over max_batched_tokens
    // tokens (what vLLM's profiling run measures): residual + norm output, QKV, MLP
    // intermediates, in 16 bits, plus fp32 logits for the sampled rows.
    // llama.cpp's compute buffer holds one physical batch (n_ubatch tokens) in fp32, logits of
    // every token of it included.
    const double T = llamacpp ? a.llamacpp_ubatch_tokens.value
                     : mlx    ? a.mlx_prefill_step_tokens.value
                              : a.max_batched_tokens.value;
    // Attention DP runs attention whole on each GPU (and its logits unsplit).
    const double att_tp = adp ? 1.0 : tp;
    const double qkv = (static_cast<double>(m.heads) + 2.0 * m.kv_heads) * m.head_dim / att_tp;
    const double f = m.is_moe() ? static_cast<double>(m.moe_ffn) * (m.top_k + m.shared_experts)
                                : static_cast<double>(m.ffn);
    const double mlp_w = (m.mlp == Mlp::swiglu ? 3.0 : 2.0) * f / tp;
    // MLX's prefill chunk in 16 bits; its logits are never evaluated (lazy graph), only the
    // last token's.
    out.workspace_bytes = T * (2.0 * m.hidden + qkv + mlp_w) * (llamacpp ? 4.0 : 2.0) +
                          (llamacpp ? T
                           : mlx    ? 1.0
                                    : std::min(T, 1024.0)) *
                              m.vocab / att_tp * 4.0;
    const double runtime_bytes = engine_runtime(a, s.engine).value;

    const double seq_tokens = static_cast<double>(s.input_len) + s.output_len;
    // llama.cpp's KV cache is one buffer of cells, a token each (no blocks); mlx-lm grows each
    // sequence's cache in steps.
    const double block =
        llamacpp ? 1.0
        : mlx    ? std::max(1.0, a.mlx_kv_step_tokens.value)
                 : std::max(1.0, s.engine == ServingEngine::trtllm ? a.trtllm_kv_block_tokens.value
                                                                   : a.kv_block_tokens.value);
    if (out.paged || mlx)
        out.tokens_reserved_per_sequence = std::ceil(seq_tokens / block) * block;
    else
        out.tokens_reserved_per_sequence = std::max(seq_tokens, static_cast<double>(m.max_seq));
    // Local (sliding-window) layers keep at most their window of each sequence: per reserved
    // token they cost the share window / reserved (vLLM's hybrid KV cache manager and
    // TensorRT-LLM's per-layer attention windows allocate that much).
    const double L_res = out.tokens_reserved_per_sequence;
    const double local_share = L_res > 0 ? m.kept_context(L_res, true) / L_res : 1.0;
    const auto layers = stage_layers(m.layers, s.pp);
    const double vh = static_cast<double>(m.vocab) * m.hidden;
    // NVFP4 checkpoints that leave attention projections in 16 bits (fp4_attention_of).
    const double att16 = attention_params_16bit(m, s);
    double worst_weights = 0, min_tokens = 1e300, worst_kv_share = 0;
    int first = 0;
    for (int st = 0; st < s.pp; ++st) {
        const int nl = layers[static_cast<std::size_t>(st)];
        double w = 0;
        // Offloaded layers (llama.cpp keeps the first ones on the CPU) hold neither weights
        // nor KV cache on the device.
        const int off = st == 0 ? s.offload_layers : 0;
        for (int i = first + off; i < first + nl; ++i) {
            const LayerParams lp = layer_params(m, m.is_moe_layer(i));
            if (adp) {
                // Attention DP (TensorRT-LLM _torch/models/modeling_llama.py: attention, the
                // dense GatedMLP and the shared expert get overridden_tp_size 1; the router is
                // replicated): only the routed experts are split over the GPUs.
                const double routed = lp.experts > 0 ? m.routed_expert_params_per_layer() : 0.0;
                w += (lp.attention - att16 + lp.mlp + lp.experts - routed + routed / tp) * wbytes +
                     att16 * 2.0 + lp.norms * 2.0;
            } else {
                w += ((lp.attention - att16 + lp.mlp + lp.experts) * wbytes + att16 * 2.0) / tp +
                     lp.norms * 2.0;
            }
        }
        first += nl;
        // Embedding and LM head stay in 16 bits (AWQ/GPTQ/FP8 recipes quantise block linears);
        // GGUF and MLX files quantise them too, and their bits per weight average over them.
        const double eb = quantises_embeddings(s.weights_dtype) ? wbytes : 2.0;
        // llama.cpp keeps the token embeddings on the CPU (the input layer is never offloaded),
        // and the output layer with the last layers only when every layer is on the device
        // (src/llama-model.cpp, load_tensors).
        if (st == 0 && !llamacpp)
            w += (m.embedding_params() - vh + vh / att_tp) * eb;
        const bool head_here = !llamacpp || s.offload_layers == 0;
        if (st == s.pp - 1 && head_here)
            w += (m.output_params() - (m.tied_embeddings ? 0.0 : vh)) * 2.0 +
                 ((!m.tied_embeddings || s.pp > 1 || llamacpp) ? vh / att_tp * eb : 0.0);
        w += draft_w;
        const int n_local = m.local_layers_in(first - nl + off, nl - off);
        const double kv_share =
            kv_layer_per_gpu * ((nl - off - n_local) + n_local * local_share) + draft_kv;
        // The KV budget per engine (docs/inference.md):
        //  vLLM: fraction x card - weights - profiled activations - non-torch memory;
        //  SGLang: fraction x card - weights (activations and graphs use the rest of the card);
        //  TensorRT-LLM: fraction x (card - weights - activations - runtime), the memory free
        //  once the engine is loaded.
        const double after_load = out.usable_bytes - w - out.workspace_bytes - runtime_bytes;
        double budget = after_load;
        if (s.engine == ServingEngine::sglang)
            budget = out.capacity_bytes * a.sglang_mem_fraction_static.value - w;
        else if (s.engine == ServingEngine::trtllm)
            budget = a.trtllm_free_memory_fraction.value * after_load;
        const double tokens = kv_share > 0 ? std::max(0.0, budget) / kv_share : 0;
        if (w > worst_weights)
            worst_weights = w;
        if (tokens < min_tokens) {
            min_tokens = tokens;
            worst_kv_share = kv_share;
        }
    }
    out.weights_bytes_per_gpu = worst_weights;
    out.kv_waste_fraction = 1.0 - seq_tokens / out.tokens_reserved_per_sequence;
    // Attention DP: each GPU holds whole sequences (all their KV heads) and schedules its own
    // batch of up to the engine's limit (TensorRT-LLM's max_batch_size is per attention-DP
    // rank); per GPU and replica token that is 1/tp of a GPU's KV bytes per token.
    const double dp_ranks = adp ? tp : 1.0;
    out.kv_bytes_per_token_per_gpu = worst_kv_share / dp_ranks;
    out.kv_capacity_tokens = min_tokens * dp_ranks;
    const double maxb = dp_ranks * std::floor(min_tokens / out.tokens_reserved_per_sequence);
    out.max_batch = static_cast<int>(std::min(maxb, 1e7));
    const double engine_cap = dp_ranks * engine_max_num_seqs(a, s.engine, gpu);
    out.batch =
        s.batch > 0 ? s.batch : static_cast<int>(std::min<double>(out.max_batch, engine_cap));

    MemoryBreakdown& b = out.per_gpu;
    b.weights = out.weights_bytes_per_gpu;
    b.activations = out.workspace_bytes;
    b.kv_cache = out.batch * out.tokens_reserved_per_sequence * out.kv_bytes_per_token_per_gpu;
    b.other = runtime_bytes;
    out.headroom_bytes = out.usable_bytes - b.total();
    out.fits = out.max_batch >= std::max(1, out.batch) && out.headroom_bytes >= -1.0;
    char buf[320];
    if (out.max_batch < 1)
        std::snprintf(buf, sizeof buf,
                      "does not fit: weights %s + workspace %s leave no room for one sequence's "
                      "KV cache in %s usable per GPU",
                      units::format_bytes(b.weights).c_str(),
                      units::format_bytes(b.activations).c_str(),
                      units::format_bytes(out.usable_bytes).c_str());
    else
        std::snprintf(
            buf, sizeof buf,
            // The sums first, the KV cache's make-up last: a card cuts the end (helper-16:
            // "(2,048 sequences of 1,504 tokens,…" with the workspace cut off).
            "%s: weights %s%s + KV %s + workspace %s per GPU (KV for %s %s of %s tokens, "
            "max %s)",
            out.fits ? "fits" : "does not fit", units::format_bytes(b.weights).c_str(),
            draft_w > 0 ? (" (draft " + units::format_bytes(draft_w) + ")").c_str() : "",
            units::format_bytes(b.kv_cache).c_str(), units::format_bytes(b.activations).c_str(),
            units::format_count(out.batch).c_str(), out.batch == 1 ? "sequence" : "sequences",
            units::format_count(out.tokens_reserved_per_sequence).c_str(),
            units::format_count(out.max_batch).c_str());
    out.explanation = buf;
    return out;
}
} // namespace

Result<InferenceMemory> inference_memory(const ModelArch& m, const InferenceSpec& s,
                                         const GpuSpec& gpu, const MemoryAssumptions& a,
                                         const ModelArch* draft) {
    auto r = inference_memory_at(m, s, gpu, a, draft);
    // Does not fit on a discrete card: say how many layers llama.cpp would keep in system
    // memory for it to fit (helper-26: the message did not point at offload). Only where that
    // is llama.cpp's way: a workstation or edge card, or llama.cpp already chosen.
    const bool llamacpp = s.engine == ServingEngine::llamacpp;
    const bool desk = gpu.device_class == "workstation_gpu" || gpu.device_class == "edge_soc";
    if (!r.ok() || r->fits || gpu.unified_memory || s.pp != 1 || s.tp != 1 || draft ||
        !(llamacpp || desk))
        return r;
    InferenceSpec t = s;
    t.engine = ServingEngine::llamacpp;
    auto fits_with = [&](int off) {
        t.offload_layers = off;
        const auto q = inference_memory_at(m, t, gpu, a, nullptr);
        return q.ok() && q->fits;
    };
    int lo = std::max(0, s.offload_layers) + 1, hi = m.layers - 1; // more offload, less memory
    if (lo > hi || !fits_with(hi))
        return r;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (fits_with(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    r->fits_with_offload_layers = lo;
    r->explanation += "; llama.cpp fits it with " + std::to_string(lo) + " of " +
                      std::to_string(m.layers) + " layers in system memory (offload layers " +
                      std::to_string(lo) + (llamacpp ? "" : ", engine llama.cpp") + ")";
    return r;
}

double lora_params(const ModelArch& m, int rank) {
    const int moe_layers = m.moe_layers();
    return (m.layers - moe_layers) * lora_params_per_layer(m, false, rank) +
           moe_layers * lora_params_per_layer(m, true, rank);
}

} // namespace cl::model
