#include "model/architecture.h"

#include "model/json_read.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>

namespace cl::model {

// ---- Parameter counts -------------------------------------------------------------------
// Dense attention: Q (h x heads*d), K and V (h x kv_heads*d each), O (heads*d x h)
// -- Vaswani et al. 2017 sec. 3.2.2, with GQA's shared K/V heads (Ainslie et al. 2023).
// MLA: DeepSeek-V2 (arXiv:2405.04434) sec. 2.1.2, eqs. 9-19: W_DQ (h x q_lora), W_UQ
// (q_lora x heads*(nope+rope)), W_DKV+W_KR (h x (kv_lora+rope)), W_UK/W_UV (kv_lora x
// heads*(nope+v)), W_O (heads*v x h), plus RMSNorms of the two latents.
double ModelArch::attention_output_params_per_layer() const {
    const double width = attention() == AttentionKind::mla ? v_head_dim : head_dim;
    return static_cast<double>(heads) * width * hidden;
}

double ModelArch::attention_params_per_layer() const {
    const double h = hidden;
    if (attention() == AttentionKind::mla) {
        const double qk = static_cast<double>(qk_nope_head_dim) + qk_rope_head_dim;
        const double q =
            q_lora_rank > 0
                ? h * q_lora_rank + static_cast<double>(q_lora_rank) * heads * qk + q_lora_rank
                : h * heads * qk;
        const double kv = h * (static_cast<double>(kv_lora_rank) + qk_rope_head_dim) +
                          static_cast<double>(kv_lora_rank) * heads *
                              (static_cast<double>(qk_nope_head_dim) + v_head_dim) +
                          kv_lora_rank;
        const double o = static_cast<double>(heads) * v_head_dim * h;
        return q + kv + o;
    }
    const double q = h * heads * head_dim;
    const double kv = 2.0 * h * kv_heads * head_dim;
    const double o = static_cast<double>(heads) * head_dim * h;
    double bias = 0;
    if (qkv_bias)
        bias += static_cast<double>(heads + 2 * kv_heads) * head_dim;
    if (layernorm) // GPT-style models carry biases on every linear layer (Narayanan eq. 2)
        bias += static_cast<double>(heads + 2 * kv_heads) * head_dim + h;
    return q + kv + o + bias;
}

// MLP: gelu = up (h x f) + down (f x h); SwiGLU adds a gate (h x f) -- Shazeer 2020
// "GLU Variants Improve Transformer" eq. 6.
double ModelArch::dense_mlp_params_per_layer() const {
    const double mats = mlp == Mlp::swiglu ? 3.0 : 2.0;
    double p = mats * hidden * static_cast<double>(ffn);
    if (layernorm)
        p += static_cast<double>(ffn) + hidden;
    return p;
}

// Routed experts of one MoE layer plus the router (h x experts) -- Fedus et al. 2021 (Switch
// Transformer) sec. 2.1; shared experts as in DeepSeekMoE (arXiv:2401.06066) sec. 3.2.
double ModelArch::expert_params_per_layer() const {
    if (!is_moe())
        return 0;
    const double mats = mlp == Mlp::swiglu ? 3.0 : 2.0;
    const double per_expert = mats * hidden * static_cast<double>(moe_ffn);
    return per_expert * (experts + shared_experts) + router_params_per_layer();
}

double ModelArch::router_params_per_layer() const {
    return is_moe() ? static_cast<double>(hidden) * experts : 0.0;
}

double ModelArch::routed_expert_params_per_layer() const {
    if (!is_moe())
        return 0;
    const double mats = mlp == Mlp::swiglu ? 3.0 : 2.0;
    return mats * hidden * static_cast<double>(moe_ffn) * experts;
}

double ModelArch::norm_params_per_layer() const {
    return (layernorm ? 4.0 : 2.0) * hidden;
}

double ModelArch::embedding_params() const {
    double p = static_cast<double>(vocab) * hidden;
    if (learned_positions)
        p += static_cast<double>(max_seq) * hidden;
    return p;
}

double ModelArch::output_params() const {
    // Final norm is counted here; the LM head only when untied.
    const double final_norm = (layernorm ? 2.0 : 1.0) * hidden;
    return final_norm + (tied_embeddings ? 0.0 : static_cast<double>(vocab) * hidden);
}

namespace {
/// Integers x in (lo, hi] divisible by k (k >= 1).
int multiples(int lo, int hi, int k) {
    if (hi <= lo)
        return 0;
    const auto down = [k](int x) { return x >= 0 ? x / k : -((-x + k - 1) / k); };
    return down(hi) - down(lo);
}
} // namespace

// Closed forms (the layout search calls these per layout): layer i is counted through x = i + 1.
int ModelArch::moe_layers_in(int first, int n) const {
    if (!is_moe())
        return 0;
    const int lo = std::max(first, dense_layers), hi = std::min(first + n, layers);
    return multiples(lo, hi, std::max(1, moe_every));
}

int ModelArch::local_layers_in(int first, int n, int moe) const {
    if (sliding_window <= 0)
        return 0;
    const int lo = std::max(first, 0), hi = std::min(first + n, layers);
    if (hi <= lo)
        return 0;
    const int g = global_every;
    const auto local_of = [&](int a, int b, int step) { // layers counted by `step` in (a, b]
        const int all = multiples(a, b, step);
        if (g <= 0)
            return all;
        const int l = std::lcm(step, g);
        return all - multiples(a, b, l);
    };
    const int every = local_of(lo, hi, 1);
    if (moe < 0)
        return every;
    const int moe_local =
        is_moe() ? local_of(std::max(lo, dense_layers), hi, std::max(1, moe_every)) : 0;
    return moe == 1 ? moe_local : every - moe_local;
}

double ModelArch::total_params() const {
    const int moe = moe_layers();
    const int dense = layers - moe;
    return layers * (attention_params_per_layer() + norm_params_per_layer()) +
           dense * dense_mlp_params_per_layer() + moe * expert_params_per_layer() +
           embedding_params() + output_params() + extra_params;
}

double ModelArch::mtp_params() const {
    if (mtp_layers <= 0 || layers <= 0)
        return 0;
    // The block (attention, its norms, experts or MLP), the two input norms, the projection.
    return mtp_layers *
           (attention_params_per_layer() + 2.0 * norm_params_per_layer() +
            (mtp_block_is_moe() ? expert_params_per_layer() : dense_mlp_params_per_layer()) +
            mtp_projection_params());
}

double ModelArch::active_params() const {
    if (!is_moe())
        return total_params();
    const double mats = mlp == Mlp::swiglu ? 3.0 : 2.0;
    const double per_expert = mats * hidden * static_cast<double>(moe_ffn);
    const double active_moe = per_expert * (top_k + shared_experts) + router_params_per_layer();
    return layers * (attention_params_per_layer() + norm_params_per_layer()) +
           (layers - moe_layers()) * dense_mlp_params_per_layer() + moe_layers() * active_moe +
           embedding_params() + output_params() + extra_params;
}

std::vector<Error> ModelArch::validate(std::string_view path) const {
    std::vector<Error> e;
    auto need = [&](bool ok, const char* field, const std::string& what) {
        if (!ok)
            e.push_back({json_member_path(path, field), what});
    };
    constexpr int big = 1 << 20;
    need(layers >= 1 && layers <= 10000, "layers", "must be between 1 and 10000");
    need(hidden >= 1 && hidden <= big, "hidden", "must be between 1 and 1048576");
    need(heads >= 1 && heads <= 65536, "heads", "must be between 1 and 65536");
    need(kv_heads >= 1 && kv_heads <= heads, "kv_heads", "must be between 1 and heads");
    if (kv_heads >= 1 && heads >= 1)
        need(heads % kv_heads == 0, "kv_heads", "must divide heads (GQA groups)");
    need(head_dim >= 1 && head_dim <= 65536, "head_dim", "must be between 1 and 65536");
    need(ffn >= 0 && ffn <= 16 * big, "ffn", "must be between 0 and 16777216");
    need(vocab >= 1 && vocab <= 16 * big, "vocab", "must be between 1 and 16777216");
    need(max_seq >= 0, "max_seq", "must not be negative");
    if (experts > 0) {
        need(top_k >= 1 && top_k <= experts, "top_k", "must be between 1 and experts");
        need(moe_ffn >= 1, "moe_ffn", "must be positive for an MoE model");
        need(dense_layers >= 0 && dense_layers < layers, "dense_layers",
             "must be between 0 and layers - 1");
        need(moe_every >= 1 && moe_every <= layers, "moe_every", "must be between 1 and layers");
        if (router_groups > 0) {
            need(experts % router_groups == 0, "router_groups", "must divide experts");
            need(router_group_top_k >= 1 && router_group_top_k <= router_groups,
                 "router_group_top_k", "must be between 1 and router_groups");
        }
    }
    need(router_groups >= 0 && router_group_top_k >= 0, "router_groups", "must not be negative");
    need(experts >= 0 && experts <= 65536, "experts", "must be between 0 and 65536");
    // Published models use one module (DeepSeek-V3 D = 1, GLM-4.5, Qwen3-Next); 16 only bounds
    // what a typed value may be.
    need(mtp_layers >= 0 && mtp_layers <= 16, "mtp_layers", "must be between 0 and 16");
    need(shared_experts >= 0, "shared_experts", "must not be negative");
    need(trtllm_eager_ops_per_layer >= 0 && trtllm_eager_ops_per_layer <= 1000,
         "trtllm_eager_ops_per_layer", "must be between 0 and 1000");
    need(sliding_window >= 0, "sliding_window", "must not be negative");
    need(local_attention == LocalAttention::sliding || sliding_window > 0, "local_attention",
         "chunked attention needs sliding_window, the chunk size");
    need(global_every >= 0 && global_every <= layers, "global_every",
         "must be between 0 and layers");
    if (kv_lora_rank > 0) {
        need(qk_rope_head_dim > 0 && qk_nope_head_dim > 0 && v_head_dim > 0, "kv_lora_rank",
             "MLA needs qk_rope_head_dim, qk_nope_head_dim and v_head_dim");
    }
    return e;
}

double trtllm_llama4_eager_ops(const ModelArch& m, int nope_every) {
    if (m.layers <= 0)
        return 0;
    double ops = 0;
    for (int i = 0; i < m.layers; ++i)
        ops += (m.is_moe_layer(i) ? 27.0 : 17.0) +
               (nope_every > 0 && (i + 1) % nope_every == 0 ? 4.0 : 0.0);
    return ops / m.layers;
}

// ---- Zoo entries ------------------------------------------------------------------------

static void read_provenance(const nlohmann::json& j, const std::string& path, JsonReader& r,
                            Provenance& p) {
    if (auto it = j.find("source"); it != j.end()) {
        if (it->is_string())
            p.source = {it->get<std::string>()};
        else if (it->is_array()) {
            for (const auto& s : *it)
                if (s.is_string())
                    p.source.push_back(s.get<std::string>());
        } else
            r.error(json_member_path(path, "source"), "expected a string or array of strings");
    }
    p.as_of = r.string(j, path, "as_of", false).value_or("");
    p.confidence = r.string(j, path, "confidence", false).value_or("sourced");
    if (auto it = j.find("notes"); it != j.end() && it->is_array())
        for (const auto& s : *it)
            if (s.is_string())
                p.notes.push_back(s.get<std::string>());
}

bool read_model_arch(const nlohmann::json& j, const std::string& path, JsonReader& r,
                     ModelArch& m) {
    const auto before = r.errors().size();
    if (!r.expect_object(j, path))
        return false;
    auto geti = [&](const char* key, int& field, bool req, int lo = 0, int hi = 1 << 24) {
        if (auto v = r.integer(j, path, key, req, lo, hi))
            field = static_cast<int>(*v);
    };
    m.id = r.string(j, path, "id").value_or("");
    m.name = r.string(j, path, "name", false).value_or(m.id);
    geti("layers", m.layers, true, 1);
    geti("hidden", m.hidden, true, 1);
    geti("heads", m.heads, true, 1);
    m.kv_heads = m.heads;
    geti("kv_heads", m.kv_heads, false, 1);
    m.head_dim = m.heads > 0 ? m.hidden / m.heads : 0;
    geti("head_dim", m.head_dim, false, 1);
    geti("vocab", m.vocab, true, 1);
    if (auto mlp = r.string(j, path, "mlp", false)) {
        if (*mlp == "gelu")
            m.mlp = Mlp::gelu;
        else if (*mlp == "swiglu")
            m.mlp = Mlp::swiglu;
        else
            r.error(json_member_path(path, "mlp"),
                    "expected \"gelu\" or \"swiglu\", found \"" + *mlp + "\"");
    }
    // ffn default: 4h for gelu; the Llama rule for SwiGLU (2/3 * 4h rounded up to 256,
    // Touvron et al. 2023a sec. 2.2 and the llama reference code).
    if (m.mlp == Mlp::gelu)
        m.ffn = 4 * m.hidden;
    else
        m.ffn = ((8 * m.hidden / 3 + 255) / 256) * 256;
    geti("ffn", m.ffn, false, 0);
    m.tied_embeddings = r.boolean(j, path, "tied_embeddings", false).value_or(false);
    if (auto norm = r.string(j, path, "norm", false))
        m.layernorm = *norm == "layernorm";
    if (auto pos = r.string(j, path, "position", false))
        m.learned_positions = *pos == "learned";
    m.qkv_bias = r.boolean(j, path, "qkv_bias", false).value_or(false);
    m.qk_norm = r.boolean(j, path, "qk_norm", false).value_or(false);
    m.dropout = r.boolean(j, path, "dropout", false).value_or(m.layernorm);
    m.extra_params = r.number(j, path, "extra_params", false, 0, 1e15).value_or(0);
    geti("max_seq", m.max_seq, false, 0, 1 << 30);
    geti("experts", m.experts, false, 0);
    geti("top_k", m.top_k, false, 0);
    geti("moe_ffn", m.moe_ffn, false, 0);
    geti("shared_experts", m.shared_experts, false, 0);
    geti("dense_layers", m.dense_layers, false, 0);
    geti("moe_every", m.moe_every, false, 1);
    geti("router_groups", m.router_groups, false, 0);
    geti("router_group_top_k", m.router_group_top_k, false, 0);
    geti("mtp_layers", m.mtp_layers, false, 0, 16);
    geti("sliding_window", m.sliding_window, false, 0, 1 << 30);
    geti("global_every", m.global_every, false, 0);
    if (auto la = r.string(j, path, "local_attention", false)) {
        if (*la == "chunked")
            m.local_attention = LocalAttention::chunked;
        else if (*la != "sliding")
            r.error(json_member_path(path, "local_attention"),
                    "expected sliding|chunked, found \"" + *la + "\"");
    }
    geti("kv_lora_rank", m.kv_lora_rank, false, 0);
    geti("q_lora_rank", m.q_lora_rank, false, 0);
    geti("qk_rope_head_dim", m.qk_rope_head_dim, false, 0);
    geti("qk_nope_head_dim", m.qk_nope_head_dim, false, 0);
    geti("v_head_dim", m.v_head_dim, false, 0);
    m.trtllm_eager_ops_per_layer =
        r.number(j, path, "trtllm_eager_ops_per_layer", false, 0, 1000).value_or(0);
    if (auto fa = r.string(j, path, "nvfp4_attention", false)) {
        const auto v = choice_from_string<Fp4Attention>(*fa);
        if (v && *v != Fp4Attention::checkpoint)
            m.nvfp4_attention = *v;
        else
            r.error(json_member_path(path, "nvfp4_attention"),
                    "expected fp4|bf16|bf16-except-output (the attention projections of the "
                    "model's published NVFP4 checkpoint), found \"" +
                        *fa + "\"");
    }
    if (auto ff = r.string(j, path, "fp4_format", false)) {
        if (const auto v = choice_from_string<Fp4Format>(*ff))
            m.fp4_format = *v;
        else
            r.error(json_member_path(path, "fp4_format"),
                    "expected nvfp4|mxfp4 (the format of the model's published FP4 checkpoint), "
                    "found \"" +
                        *ff + "\"");
    }
    read_provenance(j, path, r, m.provenance);
    if (r.errors().size() != before)
        return false;
    for (auto& e : m.validate(path))
        r.errors().push_back(std::move(e));
    m.raw_json = j.dump();
    return r.errors().size() == before;
}

std::string model_arch_to_json(const ModelArch& m) {
    nlohmann::json j = {{"id", m.id},
                        {"name", m.name},
                        {"layers", m.layers},
                        {"hidden", m.hidden},
                        {"heads", m.heads},
                        {"kv_heads", m.kv_heads},
                        {"head_dim", m.head_dim},
                        {"ffn", m.ffn},
                        {"vocab", m.vocab},
                        {"mlp", m.mlp == Mlp::gelu ? "gelu" : "swiglu"},
                        {"tied_embeddings", m.tied_embeddings},
                        {"norm", m.layernorm ? "layernorm" : "rmsnorm"},
                        {"position", m.learned_positions ? "learned" : "rope"},
                        {"qkv_bias", m.qkv_bias},
                        {"dropout", m.dropout}};
    const std::pair<const char*, int> ints[] = {{"max_seq", m.max_seq},
                                                {"experts", m.experts},
                                                {"top_k", m.top_k},
                                                {"moe_ffn", m.moe_ffn},
                                                {"shared_experts", m.shared_experts},
                                                {"dense_layers", m.dense_layers},
                                                {"router_groups", m.router_groups},
                                                {"router_group_top_k", m.router_group_top_k},
                                                {"mtp_layers", m.mtp_layers},
                                                {"sliding_window", m.sliding_window},
                                                {"global_every", m.global_every},
                                                {"kv_lora_rank", m.kv_lora_rank},
                                                {"q_lora_rank", m.q_lora_rank},
                                                {"qk_rope_head_dim", m.qk_rope_head_dim},
                                                {"qk_nope_head_dim", m.qk_nope_head_dim},
                                                {"v_head_dim", m.v_head_dim}};
    for (const auto& [k, v] : ints)
        if (v != 0)
            j[k] = v;
    if (m.moe_every != 1)
        j["moe_every"] = m.moe_every;
    if (m.extra_params != 0)
        j["extra_params"] = m.extra_params;
    if (m.trtllm_eager_ops_per_layer != 0)
        j["trtllm_eager_ops_per_layer"] = m.trtllm_eager_ops_per_layer;
    if (m.local_attention == LocalAttention::chunked)
        j["local_attention"] = "chunked";
    if (m.nvfp4_attention != Fp4Attention::fp4)
        j["nvfp4_attention"] = std::string(to_string(m.nvfp4_attention));
    if (m.fp4_format != Fp4Format::nvfp4)
        j["fp4_format"] = std::string(to_string(m.fp4_format));
    if (m.qk_norm)
        j["qk_norm"] = true;
    j["source"] = m.provenance.source;
    if (!m.provenance.as_of.empty())
        j["as_of"] = m.provenance.as_of;
    j["confidence"] = m.provenance.confidence;
    if (!m.provenance.notes.empty())
        j["notes"] = m.provenance.notes;
    return j.dump();
}

std::string describe_model(const ModelArch& m) {
    char buf[512];
    const auto billions = [](double p) { return p / 1e9; };
    std::string s = m.name + ": " + std::to_string(m.layers) + " layers, hidden " +
                    std::to_string(m.hidden) + ", " + std::to_string(m.heads) + " query / " +
                    std::to_string(m.kv_heads) + " KV heads";
    if (m.attention() == AttentionKind::mla)
        s += " (latent attention, KV rank " + std::to_string(m.kv_lora_rank) + ")";
    if (m.is_moe())
        s += ", " + std::to_string(m.experts) + " experts (top " + std::to_string(m.top_k) + ")";
    if (m.sliding_window > 0)
        s += (m.local_attention == LocalAttention::chunked ? ", chunked attention "
                                                           : ", sliding window ") +
             std::to_string(m.sliding_window) + " tokens" +
             (m.global_every > 0 ? " (every " + std::to_string(m.global_every) + "th layer global)"
                                 : std::string());
    std::snprintf(buf, sizeof buf, ", %.1f B parameters", billions(m.total_params()));
    s += buf;
    if (m.is_moe()) {
        std::snprintf(buf, sizeof buf, " (%.1f B active)", billions(m.active_params()));
        s += buf;
    }
    for (const auto& n : m.provenance.notes)
        s += "; " + n;
    return s;
}

Result<ModelArch> model_from_json_text(std::string_view text, std::string_view name) {
    auto parsed = parse_json(text, name);
    if (!parsed)
        return parsed.errors();
    std::vector<Error> errors;
    JsonReader r(errors);
    ModelArch m;
    if (!read_model_arch(*parsed, std::string(name), r, m))
        return errors;
    return m;
}

// ---- Hugging Face config.json -----------------------------------------------------------
// Field names follow transformers' configuration_*.py for each model_type.

namespace {
/// A ModelOpt NVFP4 checkpoint's config lists the modules it left out of NVFP4
/// (`exclude_modules`; they stay in 16 bits), an MXFP4 checkpoint's (transformers' Mxfp4Config,
/// quant_method "mxfp4": gpt-oss) its `modules_to_not_convert`: when every layer's attention
/// projections are among them, the model's nvfp4_attention says so (docs/inference.md, "Which
/// layers NVFP4 covers"); a partial list is said in a note and not modelled per layer. An MXFP4
/// checkpoint also sets the model's fp4_format.
void read_fp4_checkpoint(const nlohmann::json& qc, ModelArch& m) {
    auto text = [&](const char* key) {
        std::string v =
            qc.contains(key) && qc[key].is_string() ? qc[key].get<std::string>() : std::string();
        for (auto& c : v)
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return v;
    };
    const bool mx = text("quant_method") == "MXFP4";
    if (mx) {
        m.fp4_format = Fp4Format::mxfp4;
        m.provenance.notes.push_back("MXFP4 checkpoint (quant_method \"mxfp4\"): served in FP4 "
                                     "as MXFP4, 4.25 bits a weight");
    } else if (text("quant_algo") != "NVFP4") {
        return;
    }
    const char* list = mx ? "modules_to_not_convert" : "exclude_modules";
    const std::string what = mx ? "MXFP4 checkpoint" : "NVFP4 checkpoint";
    const std::string key = std::string(" (") + list + ")";
    if (!qc.contains(list) || !qc[list].is_array())
        return;
    // Per layer index (-1: a pattern for every layer): input and output projections excluded.
    std::map<int, std::pair<bool, bool>> att;
    for (const auto& e : qc[list]) {
        if (!e.is_string())
            continue;
        const std::string x = e.get<std::string>();
        const auto sa = x.find("self_attn");
        if (sa == std::string::npos)
            continue;
        int layer = -1;
        if (const auto l = x.find("layers."); l != std::string::npos && l < sa) {
            // A layer index as written; a pattern's "*" leaves -1 (every layer).
            const char* b = x.data() + l + 7;
            int v = 0;
            const auto [p, ec] = std::from_chars(b, x.data() + x.size(), v);
            if (ec == std::errc() && p != b)
                layer = v >= 0 ? v : -2;
            else if (ec == std::errc::result_out_of_range)
                layer = -2; // no model has that layer
        }
        const std::string rest = x.substr(sa + 9);
        const bool whole = rest.empty() || rest == "*" || rest == ".*";
        const bool output = whole || rest.find("o_proj") != std::string::npos ||
                            rest.find("dense") != std::string::npos;
        const bool input = whole || (!output && rest.find("proj") != std::string::npos);
        auto& [in, out] = att[layer];
        in = in || input;
        out = out || output;
    }
    if (att.empty())
        return;
    int in_layers = 0, out_layers = 0;
    for (int i = 0; i < m.layers; ++i) {
        const auto each = att.find(-1), one = att.find(i);
        const bool in =
            (each != att.end() && each->second.first) || (one != att.end() && one->second.first);
        const bool out =
            (each != att.end() && each->second.second) || (one != att.end() && one->second.second);
        in_layers += in ? 1 : 0;
        out_layers += out ? 1 : 0;
    }
    if (in_layers == m.layers && out_layers == m.layers) {
        m.nvfp4_attention = Fp4Attention::bf16;
        m.provenance.notes.push_back(what + ": every attention projection left in 16 bits" + key);
    } else if (in_layers == m.layers && out_layers == 0) {
        m.nvfp4_attention = Fp4Attention::bf16_except_output;
        m.provenance.notes.push_back(what +
                                     ": the attention projections but the output projection left "
                                     "in 16 bits" +
                                     key);
    } else {
        m.provenance.notes.push_back(
            what + ": some attention projections left in 16 bits (" + list +
            ": the input projections of " + std::to_string(in_layers) +
            " and the output projection of " + std::to_string(out_layers) + " of " +
            std::to_string(m.layers) +
            " layers); served in FP4 here, which models all of a model's layers alike");
    }
}
} // namespace

Result<ModelArch> import_hf_config(std::string_view text, std::string_view name) {
    auto parsed = parse_json(text, name);
    if (!parsed)
        return parsed.errors();
    const nlohmann::json& top = *parsed;
    std::vector<Error> errors;
    JsonReader r(errors);
    const std::string path(name);
    if (!r.expect_object(top, path))
        return errors;
    std::string type = r.string(top, path, "model_type").value_or("");
    if (!errors.empty())
        return errors;
    // Multimodal wrappers (Llama 4, Gemma 3) keep the language model in "text_config"; the
    // vision tower is not counted (CLI.md: params are the text model's).
    const bool wrapped = top.contains("text_config") && top["text_config"].is_object();
    const nlohmann::json& j = wrapped ? top["text_config"] : top;
    const std::string jpath = wrapped ? json_member_path(path, "text_config") : path;
    if (wrapped)
        if (auto inner = r.string(j, jpath, "model_type", false))
            type = *inner;
    // Spellings of one family.
    static const std::map<std::string, std::string> aliases = {
        {"llama4_text", "llama4"}, {"gemma3_text", "gemma3"}, {"kimi_k2", "deepseek_v3"}};
    if (auto a = aliases.find(type); a != aliases.end())
        type = a->second;
    static const std::set<std::string> gated = {
        "llama",  "mistral", "mixtral", "qwen2",  "qwen2_moe",   "qwen3",       "qwen3_moe", "phi3",
        "gemma2", "gemma3",  "gpt_oss", "llama4", "deepseek_v3", "deepseek_v2", "glm4_moe"};
    static const std::set<std::string> gpt_like = {"gpt2", "gpt_neox", "bloom", "gptj",
                                                   "gpt_bigcode"};
    if (!gated.count(type) && !gpt_like.count(type))
        return Error{json_member_path(path, "model_type"),
                     "unsupported model_type \"" + type +
                         "\" (supported: llama, llama4, mistral, mixtral, qwen2, qwen2_moe, "
                         "qwen3, qwen3_moe, phi3, gemma2, gemma3, gpt_oss, glm4_moe, deepseek_v2, "
                         "deepseek_v3, kimi_k2, gpt2, gpt_neox, gptj, gpt_bigcode, bloom)"};
    const bool gemma = type == "gemma2" || type == "gemma3";
    ModelArch m;
    m.id = r.string(top, path, "_name_or_path", false).value_or(type);
    m.name = m.id;
    auto first_int = [&](std::initializer_list<const char*> keys, bool required, int& out) {
        for (const char* k : keys)
            if (j.contains(k) && !j[k].is_null()) {
                if (auto v = r.integer(j, jpath, k, true, 0, 1 << 30))
                    out = static_cast<int>(*v);
                return true;
            }
        if (required)
            r.error(json_member_path(jpath, *keys.begin()),
                    "missing (required for model_type \"" + type + "\")");
        return false;
    };
    first_int({"num_hidden_layers", "n_layer", "num_layers"}, true, m.layers);
    first_int({"hidden_size", "n_embd", "d_model"}, true, m.hidden);
    first_int({"num_attention_heads", "n_head"}, true, m.heads);
    // Gemma 3 configs leave out what Gemma3TextConfig defaults (transformers): vocab 262,208,
    // 131,072 positions, a global layer every 6, tied embeddings.
    if (!first_int({"vocab_size"}, type != "gemma3", m.vocab) && type == "gemma3")
        m.vocab = 262208;
    m.kv_heads = m.heads;
    first_int({"num_key_value_heads", "n_head_kv"}, false, m.kv_heads);
    if (type == "gpt_bigcode" && r.boolean(j, jpath, "multi_query", false).value_or(false))
        m.kv_heads = 1;
    m.head_dim = m.heads > 0 ? m.hidden / m.heads : 0;
    first_int({"head_dim"}, false, m.head_dim); // Qwen3, Gemma, gpt-oss: not hidden / heads
    if (!first_int({"max_position_embeddings", "n_positions", "seq_length"}, false, m.max_seq) &&
        type == "gemma3")
        m.max_seq = 131072;
    // Typed reads: a wrong type is an error with its path, never an exception (found by
    // fuzz_hf_config: "tie_word_embeddings": 32 aborted the import).
    const bool tie_default = gpt_like.count(type) > 0 || gemma;
    m.tied_embeddings =
        r.boolean(j, jpath, "tie_word_embeddings", false)
            .value_or(wrapped
                          ? r.boolean(top, path, "tie_word_embeddings", false).value_or(tie_default)
                          : tie_default);
    if (gated.count(type)) {
        m.mlp = Mlp::swiglu; // a gated MLP: gate, up and down projections
        // Gemma's gate is GeLU (GeGLU), the others' SiLU: the same three matrices.
        for (const char* key : {"hidden_act", "hidden_activation"})
            if (auto act = r.string(j, jpath, key, false);
                act && *act != "silu" && !(gemma && act->rfind("gelu", 0) == 0))
                r.error(json_member_path(jpath, key),
                        "unsupported activation \"" + *act + "\" for a gated MLP (expected \"" +
                            (gemma ? "gelu_pytorch_tanh" : "silu") + "\")");
        first_int({"intermediate_size"}, true, m.ffn);
        m.qkv_bias =
            r.boolean(j, jpath, "attention_bias", false).value_or(type.rfind("qwen2", 0) == 0);
        // Q/K norms: Qwen3's and Gemma 3's attention always has q_norm and k_norm
        // (transformers modeling_qwen3, modeling_qwen3_moe, modeling_gemma3); Llama 4 and GLM-4.5
        // say so in use_qk_norm (Llama4TextConfig's default true: Scout on, Maverick off;
        // Glm4MoeConfig's false).
        const bool qk_always = type == "qwen3" || type == "qwen3_moe" || type == "gemma3";
        m.qk_norm =
            qk_always || r.boolean(j, jpath, "use_qk_norm", false).value_or(type == "llama4");
    } else {
        m.mlp = Mlp::gelu;
        m.layernorm = true;
        m.learned_positions = type == "gpt2" || type == "gpt_bigcode";
        m.dropout = true;
        m.ffn = 4 * m.hidden;
        first_int({"intermediate_size", "n_inner"}, false, m.ffn);
        if (m.ffn == 0)
            m.ffn = 4 * m.hidden;
    }
    // ---- Mixture of experts ----
    if (type == "mixtral" || type == "qwen2_moe" || type == "qwen3_moe") {
        first_int({"num_local_experts", "num_experts"}, true, m.experts);
        first_int({"num_experts_per_tok"}, true, m.top_k);
        m.moe_ffn = m.ffn;
        first_int({"moe_intermediate_size"}, false, m.moe_ffn);
        if (type == "qwen2_moe")
            if (auto shared =
                    r.integer(j, jpath, "shared_expert_intermediate_size", false, 0, 1 << 30);
                shared && *shared > 0)
                m.shared_experts = static_cast<int>(*shared / std::max(1, m.moe_ffn));
        // Qwen: MoE on every decoder_sparse_step-th layer except mlp_only_layers, which must
        // be the first k layers (the only other arrangement ClusterLens models).
        first_int({"decoder_sparse_step"}, false, m.moe_every);
        if (j.contains("mlp_only_layers") && j["mlp_only_layers"].is_array()) {
            const auto& dense = j["mlp_only_layers"];
            for (std::size_t i = 0; i < dense.size(); ++i)
                if (!dense[i].is_number_integer() ||
                    dense[i].get<long long>() != static_cast<long long>(i)) {
                    r.error(json_member_path(jpath, "mlp_only_layers"),
                            "only the first k layers can be dense (found " + dense.dump() + ")");
                    break;
                }
            m.dense_layers = static_cast<int>(dense.size());
        }
    }
    if (type == "gpt_oss") {
        first_int({"num_local_experts"}, true, m.experts);
        first_int({"num_experts_per_tok", "experts_per_token"}, true, m.top_k);
        m.moe_ffn = m.ffn;
    }
    if (type == "llama4") {
        // Llama 4: routed experts of intermediate_size plus one shared expert of the same size
        // on MoE layers, every interleave_moe_layer_step-th layer; dense layers use
        // intermediate_size_mlp (transformers Llama4TextConfig).
        first_int({"num_local_experts"}, true, m.experts);
        first_int({"num_experts_per_tok"}, true, m.top_k);
        m.moe_ffn = m.ffn;
        first_int({"intermediate_size_mlp"}, false, m.ffn);
        m.shared_experts = 1;
        first_int({"interleave_moe_layer_step"}, false, m.moe_every);
    }
    if (type == "glm4_moe") {
        first_int({"n_routed_experts"}, true, m.experts);
        first_int({"num_experts_per_tok"}, true, m.top_k);
        first_int({"moe_intermediate_size"}, true, m.moe_ffn);
        first_int({"n_shared_experts"}, false, m.shared_experts);
        first_int({"first_k_dense_replace"}, false, m.dense_layers);
        // Group-limited routing: n_group groups of experts, a token's from topk_group of them.
        first_int({"n_group"}, false, m.router_groups);
        first_int({"topk_group"}, false, m.router_group_top_k);
    }
    if (type == "deepseek_v3" || type == "deepseek_v2") {
        first_int({"n_routed_experts"}, true, m.experts);
        first_int({"num_experts_per_tok"}, true, m.top_k);
        first_int({"moe_intermediate_size"}, true, m.moe_ffn);
        first_int({"n_shared_experts"}, false, m.shared_experts);
        first_int({"first_k_dense_replace"}, false, m.dense_layers);
        // Group-limited routing: n_group groups of experts, a token's from topk_group of them.
        first_int({"n_group"}, false, m.router_groups);
        first_int({"topk_group"}, false, m.router_group_top_k);
        first_int({"kv_lora_rank"}, true, m.kv_lora_rank);
        first_int({"q_lora_rank"}, false, m.q_lora_rank);
        first_int({"qk_rope_head_dim"}, true, m.qk_rope_head_dim);
        first_int({"qk_nope_head_dim"}, true, m.qk_nope_head_dim);
        first_int({"v_head_dim"}, true, m.v_head_dim);
        m.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim;
        m.kv_heads = m.heads;
    }
    // ---- Local attention: sliding windows (chunked attention for Llama 4) ----
    int window = 0;
    first_int({type == "llama4" ? "attention_chunk_size" : "sliding_window"}, false, window);
    if (auto use = r.boolean(j, jpath, "use_sliding_window", false); use && !*use)
        window = 0; // Qwen: the field is there, switched off
    else if (use && *use && j.contains("max_window_layers"))
        r.error(json_member_path(jpath, "use_sliding_window"),
                "sliding windows on some layers by max_window_layers are not supported yet");
    if (window > 0) {
        m.sliding_window = window;
        if (type == "llama4")
            m.local_attention = LocalAttention::chunked;
        // Which layers are global: an explicit list, a period, or the family's rule.
        const char* list_key = j.contains("layer_types")                          ? "layer_types"
                               : type == "llama4" && j.contains("no_rope_layers") ? "no_rope_layers"
                                                                                  : nullptr;
        if (list_key && j[list_key].is_array() && !j[list_key].empty()) {
            const auto& l = j[list_key];
            std::vector<bool> global;
            for (const auto& x : l)
                global.push_back(x.is_string() ? x.get<std::string>() == "full_attention"
                                               : x.is_number() && x.get<double>() == 0.0);
            int k = 0; // the first global layer sets the period
            for (std::size_t i = 0; i < global.size() && k == 0; ++i)
                if (global[i])
                    k = static_cast<int>(i) + 1;
            bool periodic = static_cast<int>(global.size()) == m.layers;
            for (std::size_t i = 0; i < global.size() && periodic; ++i)
                periodic = global[i] == (k > 0 && (static_cast<int>(i) + 1) % k == 0);
            if (!periodic)
                r.error(json_member_path(jpath, list_key),
                        "only a global layer every k layers (the rest local) is supported, "
                        "with one entry per layer");
            if (k == 1)
                m.sliding_window = 0; // every layer global
            m.global_every = k;
        } else if (j.contains("sliding_window_pattern")) {
            first_int({"sliding_window_pattern"}, false, m.global_every);
        } else if (type == "gemma3") {
            m.global_every = 6; // Gemma3TextConfig default
        } else if (type == "gemma2") {
            m.global_every = 2; // Gemma 2 alternates local and global layers
        } else if (type == "llama4") {
            m.global_every = 4; // Llama4TextConfig no_rope_layer_interval default
            first_int({"no_rope_layer_interval"}, false, m.global_every);
        } else if (type == "gpt_oss") {
            m.global_every = 2; // alternating, as its config's layer_types list
        }
    }
    if (type == "llama4") {
        int nope_every = 4; // Llama4TextConfig no_rope_layer_interval default
        first_int({"no_rope_layer_interval"}, false, nope_every);
        m.trtllm_eager_ops_per_layer = trtllm_llama4_eager_ops(m, nope_every);
    }
    // ---- What is read but not counted, said so ----
    if (top.contains("vision_config"))
        m.provenance.notes.push_back("vision tower (vision_config) not counted");
    // Multi-token prediction modules (DeepSeek-V3, GLM-4.5, MiMo): trained with the model
    // (TrainingSpec::mtp), not counted in its parameters or in serving.
    if (int mtp = 0; first_int({"num_nextn_predict_layers"}, false, mtp) && mtp > 0) {
        if (mtp > 16) {
            r.error(json_member_path(jpath, "num_nextn_predict_layers"),
                    "must be between 0 and 16, found " + std::to_string(mtp));
        } else {
            m.mtp_layers = mtp;
            m.provenance.notes.push_back(
                std::to_string(mtp) +
                " multi-token-prediction module(s): trained with the model, not counted in its "
                "parameters or in serving");
        }
    }
    for (const auto* q : {&top, &j})
        if (q->contains("quantization_config") && (*q)["quantization_config"].is_object()) {
            const auto& qc = (*q)["quantization_config"];
            std::string what = qc.contains("quant_method") ? qc["quant_method"].dump() : "{}";
            m.provenance.notes.push_back("quantization_config " + what +
                                         " read as a note: choose the weights format to serve");
            read_fp4_checkpoint(qc, m);
            break;
        }
    if (j.contains("attention_sinks") || type == "gpt_oss")
        m.provenance.notes.push_back("attention sinks (one scalar per head) not counted");
    // Fields refused rather than silently ignored: they change the memory or compute model.
    for (const char* unsupported : {"num_experts_per_layer"})
        if (j.contains(unsupported))
            r.error(json_member_path(jpath, unsupported), "not supported by ClusterLens yet");
    if (!errors.empty())
        return errors;
    for (auto& e : m.validate(path))
        errors.push_back(std::move(e));
    if (!errors.empty())
        return errors;
    m.provenance.source = {"Hugging Face config.json: " + path};
    m.provenance.confidence = "user";
    m.provenance.user = true;
    m.raw_json = top.dump();
    return m;
}

} // namespace cl::model
