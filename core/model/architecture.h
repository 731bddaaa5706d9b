#pragma once
// Transformer architectures (the model zoo) and the Hugging Face config.json importer.

#include "model/error.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace cl::model {

enum class Mlp { gelu, swiglu };
enum class AttentionKind { mha, gqa, mla }; // mha: kv_heads == heads; gqa: fewer; mla: DeepSeek

/// Where a catalog or zoo entry came from; shown to the user next to the number.
struct Provenance {
    std::vector<std::string> source;
    std::string as_of;
    std::string confidence = "sourced";
    std::vector<std::string> notes;
    bool user = false; ///< entry comes from (or was overridden by) the user's catalog file
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
    bool dropout = false;    ///< dropout masks stored in training (GPT-style); default = layernorm
    double extra_params = 0; ///< heads outside the blocks (e.g. BERT pooler, token types)
    int max_seq = 0;
    // Mixture of experts
    int experts = 0, top_k = 0, moe_ffn = 0, shared_experts = 0, dense_layers = 0;
    // Multi-head latent attention (DeepSeek-V2/V3)
    int kv_lora_rank = 0, q_lora_rank = 0, qk_rope_head_dim = 0, qk_nope_head_dim = 0,
        v_head_dim = 0;
    Provenance provenance;
    std::string raw_json; ///< the entry as read, for `catalog models --json`

    [[nodiscard]] AttentionKind attention() const {
        if (kv_lora_rank > 0)
            return AttentionKind::mla;
        return kv_heads < heads ? AttentionKind::gqa : AttentionKind::mha;
    }
    [[nodiscard]] bool is_moe() const { return experts > 0; }
    [[nodiscard]] int moe_layers() const { return is_moe() ? layers - dense_layers : 0; }

    // Parameter counts (elements, not bytes). Sources in architecture.cpp.
    [[nodiscard]] double attention_params_per_layer() const;
    [[nodiscard]] double dense_mlp_params_per_layer() const;
    [[nodiscard]] double expert_params_per_layer() const; ///< all routed experts of one layer
    [[nodiscard]] double norm_params_per_layer() const;
    [[nodiscard]] double embedding_params() const; ///< input embedding (+ learned positions)
    [[nodiscard]] double output_params() const;    ///< LM head (0 when tied)
    [[nodiscard]] double total_params() const;
    [[nodiscard]] double active_params() const; ///< per token (top_k of the routed experts)

    /// Checks ranges and consistency; errors name the field with `path` as prefix.
    [[nodiscard]] std::vector<Error> validate(std::string_view path = {}) const;
};

class JsonReader;

/// Reads one zoo entry from parsed JSON into `out`; false (with errors in `r`) on failure.
bool read_model_arch(const nlohmann::json& j, const std::string& path, JsonReader& r,
                     ModelArch& out);

/// Reads one zoo entry (our own schema, see docs/catalog.md).
Result<ModelArch> model_from_json_text(std::string_view text, std::string_view name);

/// Imports a Hugging Face config.json (llama, mistral, mixtral, qwen2, deepseek_v3, gpt2,
/// gpt_neox, bloom-like). Unsupported fields or model types give an error naming the field.
Result<ModelArch> import_hf_config(std::string_view text, std::string_view name);

} // namespace cl::model
