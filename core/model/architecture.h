#pragma once
// Transformer architectures (the model zoo) and the Hugging Face config.json importer.

#include "model/choices.h"
#include "model/error.h"

#include <nlohmann/json_fwd.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace cl::model {

enum class Mlp { gelu, swiglu };
enum class AttentionKind { mha, gqa, mla }; // mha: kv_heads == heads; gqa: fewer; mla: DeepSeek
/// How a local layer limits its context: a window sliding with the query (Mistral, Gemma,
/// gpt-oss) or the query's own aligned chunk (Llama 4's attention_chunk_size).
enum class LocalAttention { sliding, chunked };

/// Where a catalog or zoo entry came from; shown to the user next to the number.
struct Provenance {
    std::vector<std::string> source;
    std::string as_of;
    std::string confidence = "sourced";
    std::vector<std::string> notes;
    bool user = false; ///< entry comes from (or was overridden by) the user's catalog file
    bool operator==(const Provenance&) const = default;
};

/// A decoder-only transformer. Dense when experts == 0; MoE layers otherwise.
struct ModelArch {
    std::string id, name;
    int layers = 0, hidden = 0, heads = 0, kv_heads = 0, head_dim = 0;
    int ffn = 0; ///< dense MLP intermediate size
    int vocab = 0;
    Mlp mlp = Mlp::swiglu;
    bool tied_embeddings = false;
    bool learned_positions = false; ///< GPT-style position embedding table of max_seq x hidden
    bool layernorm = false;         ///< LayerNorm (weight+bias) instead of RMSNorm (weight)
    bool qkv_bias = false;
    /// RMSNorms on each head's queries and keys before RoPE (Qwen3, Gemma 3, OLMo 2; Llama 4
    /// Scout's L2 norm; Hugging Face: the q_norm / k_norm modules of those model types, or
    /// use_qk_norm). No parameters to speak of; a serving engine runs them as kernels of their
    /// own (inference.h elementwise_kernels_per_layer).
    bool qk_norm = false;
    bool dropout = false;    ///< dropout masks stored in training (GPT-style); default = layernorm
    double extra_params = 0; ///< heads outside the blocks (e.g. BERT pooler, token types)
    int max_seq = 0;
    // Mixture of experts. After the first `dense_layers`, every `moe_every`-th layer is an MoE
    // layer, counted from the model's first layer as Hugging Face does ((i + 1) % k == 0:
    // Llama 4's interleave_moe_layer_step, Qwen's decoder_sparse_step); 1 = every layer.
    int experts = 0, top_k = 0, moe_ffn = 0, shared_experts = 0, dense_layers = 0, moe_every = 1;
    /// Group-limited routing (DeepSeek-V2/V3's device- and node-limited routing; Hugging Face
    /// n_group / topk_group, Megatron-Core --moe-router-num-groups / --moe-router-group-topk):
    /// the experts fall into `router_groups` equal groups of consecutive experts and a token's
    /// top_k come from at most `router_group_top_k` of them. 0 (or one group) = no limit.
    int router_groups = 0, router_group_top_k = 0;
    /// Multi-token prediction modules (DeepSeek-V3 report sec. 2.2: D sequential modules, each
    /// a transformer block of the model's own kind, two RMSNorms, a 2h x h projection and the
    /// shared embedding and output head; D = 1; Hugging Face num_nextn_predict_layers,
    /// Megatron-Core --mtp-num-layers). Trained with the model when TrainingSpec::mtp is on;
    /// not used in serving. 0 = none.
    int mtp_layers = 0;
    // Local attention (Mistral 7B, Gemma 2/3, gpt-oss, Phi-3; Llama 4's chunked attention):
    // local layers attend to at most the last `sliding_window` tokens and keep only those in the
    // KV cache. Layer i is global when global_every > 0 and (i + 1) % global_every == 0
    // (Gemma 3: 6, gpt-oss: 2); global_every 0 makes every layer local. sliding_window 0: none.
    int sliding_window = 0, global_every = 0;
    /// Chunked (Llama 4, Hugging Face modeling_llama4 chunked mask): a query at position p
    /// attends only to the tokens of its own chunk [floor(p / w) w, p], w = sliding_window, so
    /// on average w / 2 of a long sequence where a sliding window sees w.
    LocalAttention local_attention = LocalAttention::sliding;
    // Multi-head latent attention (DeepSeek-V2/V3)
    int kv_lora_rank = 0, q_lora_rank = 0, qk_rope_head_dim = 0, qk_nope_head_dim = 0,
        v_head_dim = 0;
    /// Host ops TensorRT-LLM's PyTorch backend launches per decoder layer in an eager step, for
    /// a model whose modules differ from the default count (InferenceAssumptions::
    /// trtllm_eager_ops_per_layer); 0 = that default. Llama 4: trtllm_llama4_eager_ops().
    double trtllm_eager_ops_per_layer = 0;
    /// The attention projections of the model's published NVFP4 checkpoint: NVFP4 like the
    /// other linears (fp4), or left in 16 bits (bf16; bf16_except_output: all but the output
    /// projection), as its ModelOpt exclude_modules list says. Never `checkpoint`.
    Fp4Attention nvfp4_attention = Fp4Attention::fp4;
    /// The format of that FP4 checkpoint (choices.h Fp4Format): NVFP4 unless the model ships
    /// MXFP4 (a Hugging Face quantization_config with quant_method "mxfp4"). It sets the bits a
    /// weight (memory.h weight_bits) and, on datacenter Blackwell, the fused MoE's kernels
    /// (InferenceAssumptions::mxfp4_moe_stream_efficiency).
    Fp4Format fp4_format = Fp4Format::nvfp4;
    Provenance provenance;
    std::string raw_json; ///< the entry as read, for `catalog models --json`

    [[nodiscard]] AttentionKind attention() const {
        if (kv_lora_rank > 0)
            return AttentionKind::mla;
        return kv_heads < heads ? AttentionKind::gqa : AttentionKind::mha;
    }
    [[nodiscard]] bool is_moe() const { return experts > 0; }
    [[nodiscard]] bool is_moe_layer(int i) const {
        return is_moe() && i >= dense_layers && (moe_every <= 1 || (i + 1) % moe_every == 0);
    }
    [[nodiscard]] bool is_local_layer(int i) const {
        return sliding_window > 0 && (global_every <= 0 || (i + 1) % global_every != 0);
    }
    /// MoE layers among layers [first, first + n).
    [[nodiscard]] int moe_layers_in(int first, int n) const;
    [[nodiscard]] int moe_layers() const { return moe_layers_in(0, layers); }
    /// Local-attention layers among [first, first + n), optionally only MoE (1) or dense (0).
    [[nodiscard]] int local_layers_in(int first, int n, int moe = -1) const;
    /// Attention context a query of a causal sequence of `seq` tokens sees on average in layer
    /// kind `local`: seq/2 on global layers; on local ones the window caps it (a query at
    /// position p sees min(p, w) tokens: w - w^2/(2 seq) once seq > w), or, chunked, its own
    /// chunk (p mod w tokens: (q w^2/2 + r^2/2) / seq for seq = q w + r).
    [[nodiscard]] double causal_context(double seq, bool local) const {
        if (!local || sliding_window <= 0 || seq <= sliding_window)
            return seq / 2.0;
        const double w = sliding_window;
        if (local_attention == LocalAttention::chunked)
            return chunk_context_integral(seq) / seq;
        return w - w * w / (2.0 * seq);
    }
    /// Mean context of the queries at positions (context, context + n] of a sequence: the
    /// tokens cached before them plus the causal part of their own span (context + n/2 on a
    /// global layer; a sliding window caps it at w; chunked, each query's own chunk). n <= 1: a
    /// decoding token, which attends to the context a query at `context` + 1 sees.
    /// `as`: how the engine runs this model's local layers (an engine that attends over a
    /// chunked model's chunk size as a window passes sliding).
    [[nodiscard]] double span_context(double context, double n, bool local) const {
        return span_context(context, n, local, local_attention);
    }
    [[nodiscard]] double span_context(double context, double n, bool local,
                                      LocalAttention as) const {
        if (!local || sliding_window <= 0)
            return context + n / 2.0;
        if (as == LocalAttention::sliding)
            return std::min(context + n / 2.0, static_cast<double>(sliding_window));
        if (n <= 1.0)
            return attended_context(context + 1.0, true, as);
        return (chunk_context_integral(context + n) - chunk_context_integral(context)) / n;
    }
    /// Tokens the query at position `seq` (1-based) attends to: all on a global layer, at most
    /// the window on a sliding one, its own chunk's on a chunked one.
    [[nodiscard]] double attended_context(double seq, bool local) const {
        return attended_context(seq, local, local_attention);
    }
    [[nodiscard]] double attended_context(double seq, bool local, LocalAttention as) const {
        if (!local || sliding_window <= 0 || seq <= sliding_window)
            return seq;
        if (as == LocalAttention::sliding)
            return sliding_window;
        const double w = sliding_window;
        return seq - std::ceil(seq / w - 1.0) * w; // (seq - 1) mod w + 1
    }
    /// Tokens of a `seq`-token sequence a layer keeps in its KV cache: at most the window (a
    /// chunked layer needs at most one chunk; engines allocate the window).
    [[nodiscard]] double kept_context(double seq, bool local) const {
        return local && sliding_window > 0 ? std::min(seq, static_cast<double>(sliding_window))
                                           : seq;
    }
    /// Sum over the queries of the first `x` positions of the chunk-limited context they see,
    /// continuous form: floor(x / w) w^2 / 2 + (x mod w)^2 / 2.
    [[nodiscard]] double chunk_context_integral(double x) const {
        const double w = sliding_window;
        const double full = std::floor(x / w), rest = x - full * w;
        return full * w * w / 2.0 + rest * rest / 2.0;
    }

    /// MLA decoding absorbed (DeepSeek-V2, arXiv:2405.04434 sec. 2.1.3; TensorRT-LLM tech blog
    /// 3, "Weights absorb and MQA"): FLOPs per new token and cached token over every head, each
    /// scoring the kv_lora_rank + rope latent and summing the kv_lora_rank one.
    [[nodiscard]] double mla_absorbed_flops_per_cached_token() const {
        return 2.0 * heads * (2.0 * kv_lora_rank + qk_rope_head_dim);
    }

    // Parameter counts (elements, not bytes). Sources in architecture.cpp.
    [[nodiscard]] double attention_params_per_layer() const;
    /// The attention output projection alone (heads x value width -> hidden).
    [[nodiscard]] double attention_output_params_per_layer() const;
    [[nodiscard]] double dense_mlp_params_per_layer() const;
    /// Every expert of one MoE layer: routed and shared experts and the router.
    [[nodiscard]] double expert_params_per_layer() const;
    [[nodiscard]] double routed_expert_params_per_layer() const; ///< the routed experts alone
    [[nodiscard]] double router_params_per_layer() const;        ///< the router's h x E gate
    [[nodiscard]] double norm_params_per_layer() const;
    [[nodiscard]] double embedding_params() const; ///< input embedding (+ learned positions)
    [[nodiscard]] double output_params() const;    ///< LM head (0 when tied)
    [[nodiscard]] double total_params() const;
    /// The multi-token prediction modules' own parameters (not in total_params): per module a
    /// block of the kind of the last layer, two norms and the 2h x h projection; the embedding
    /// and output head are the model's, shared (DeepSeek-V3 report sec. 2.2).
    [[nodiscard]] double mtp_params() const;
    /// A multi-token prediction module's block is of the kind of the model's last layer (MoE
    /// for DeepSeek-V3: its MTP layer holds the routed experts).
    [[nodiscard]] bool mtp_block_is_moe() const {
        return is_moe() && layers > 0 && moe_layers_in(layers - 1, 1) == 1;
    }
    /// A module's projection of its two normed inputs (hidden state, next-token embedding)
    /// concatenated, 2h -> h (DeepSeek-V3 report sec. 2.2, M_k).
    [[nodiscard]] double mtp_projection_params() const {
        return 2.0 * hidden * static_cast<double>(hidden);
    }
    [[nodiscard]] double active_params() const; ///< per token (top_k of the routed experts)

    /// Checks ranges and consistency; errors name the field with `path` as prefix.
    [[nodiscard]] std::vector<Error> validate(std::string_view path = {}) const;
    bool operator==(const ModelArch&) const = default;
};

/// TensorRT-LLM's eager ops per decoder layer of a Llama 4 model, averaged over its layers,
/// counted in its PyTorch modules (models/modeling_llama.py, v1.0-era; docs/research/
/// session34-trtllm-eager-ops.md): 27 on an MoE layer with RoPE (router and top-k as separate
/// ops, the shared expert's five, an unfused RoPE and QK norm), 17 on a dense one, 4 more on a
/// NoPE layer (the attention-temperature scaling, every `nope_every`-th layer).
double trtllm_llama4_eager_ops(const ModelArch& m, int nope_every);

class JsonReader;

/// Reads one zoo entry from parsed JSON into `out`; false (with errors in `r`) on failure.
bool read_model_arch(const nlohmann::json& j, const std::string& path, JsonReader& r,
                     ModelArch& out);

/// Reads one zoo entry (our own schema, see docs/catalog.md).
Result<ModelArch> model_from_json_text(std::string_view text, std::string_view name);

/// Writes a model as one zoo entry (JSON text, our schema): every field read_model_arch reads,
/// provenance included. Reading it back gives the same model.
std::string model_arch_to_json(const ModelArch& m);

/// What an import read, in a line a person reads: "Qwen3-30B-A3B: 48 layers, hidden 2048, 32
/// query / 4 KV heads, 128 experts (top 8), 30.5 B parameters (3.3 B active)", then the notes.
std::string describe_model(const ModelArch& m);

/// Imports a Hugging Face config.json (llama, mistral, mixtral, qwen2, deepseek_v3, gpt2,
/// gpt_neox, bloom-like). Unsupported fields or model types give an error naming the field.
Result<ModelArch> import_hf_config(std::string_view text, std::string_view name);

} // namespace cl::model
