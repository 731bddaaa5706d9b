// Training throughput against published runs (../shared/validation/published.json): each row
// names its case id; the table of predicted vs published values is printed and kept in
// docs/validation.md. Target: every case within +/-15%, median error <= 8%, with the global
// factors of TrainingAssumptions only.
#include "model/catalog.h"
#include "model/collective.h"
#include "model/generators.h"
#include "model/topology.h"
#include "model/training.h"

#include "fixtures.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>

using namespace cl::model;

namespace {
struct Case {
    const char* id;
    const char* model; ///< zoo id or a custom GPT shape below
    int layers, hidden, heads, vocab, seq;
    const char* system;
    int gpus, tp, pp, vpp, cp;
    long long gb;
    int mb;            ///< 0 = not published (auto)
    const char* dtype; ///< fp8cs: FP8 with current scaling
    const char* recompute;
    bool flash, sp, tp_overlap;
    double published_tflops; ///< model TFLOP/s per GPU (Narayanan: hardware, incl. recompute);
                             ///< tokens/s per GPU where `tokens` is set
    bool hardware;           ///< published figure counts recomputation
    int ep = 1, zero = 1;
    bool tokens = false;       ///< the published figure is tokens/s per GPU
    bool deepep = false;       ///< the run dispatched with DeepEP-class kernels (Megatron flex)
    int etp = 0;               ///< expert tensor parallel (0 = tp; 1 folds EP over TP)
    bool ep_overlap = false;   ///< all-to-alls overlapped with the other micro-batch (1F1B A2A)
    bool fp32_grads = false;   ///< gradients reduced in fp32 (torchtitan: FSDP2 reduce_dtype)
    int recompute_layers = 0;  ///< full recompute of the first N layers per stage (block method)
    bool cp_allgather = false; ///< all-gather context parallelism (Llama 3; else the p2p ring)
    /// The run forced balanced routing (Megatron-Core moe_router_force_load_balancing): every
    /// expert gets its share of the tokens, so no load imbalance (moe_imbalance 1). Every
    /// Megatron-Bridge MoE row is such a run: "In MoE training benchmarks, we force-balance the
    /// token distribution among experts" (docs/performance-summary-archive.md, each release).
    bool force_balanced = false;
    bool mtp = true; ///< the model's multi-token prediction modules trained (DeepSeek-V3: one)
    /// Megatron-Core recompute_modules beside the attention core, comma-separated
    /// ("layernorm,moe_act"), with recompute "selective".
    const char* recompute_modules = "";
};

/// The recompute modules a row's recipe ran: the case's own, or for the rows of kCases that
/// ran some, their recipe's (Megatron-Bridge HEAD 067f987d, perf_recipes/gpt_oss/h100/
/// gpt_oss.py: GPT-OSS-120B on 64 H100, recompute_granularity "selective", recompute_modules
/// ["layernorm", "moe_act"]).
std::string_view recompute_modules_of(const Case& c) {
    if (*c.recompute_modules)
        return c.recompute_modules;
    if (std::string_view(c.id) == "A.mbridge_26.04.01.H100.GPT_OSS_120B")
        return "layernorm,moe_act";
    return {};
}

/// Megatron-Bridge's MoE benchmark rows force-balance their routing (the archive page's note
/// under every release's tables).
bool force_balanced(const Case& c) {
    return c.force_balanced || (std::string_view(c.id).rfind("A.mbridge_", 0) == 0 && c.ep > 1);
}

// Sources: A.megatron2021.* Narayanan et al. 2021 Table 1; A.korthikanti2022.* Korthikanti
// et al. 2022 Table 5; A.mcore_r0.8.0_h100.* Megatron-LM README; A.llama3_405b.* Llama 3 paper
// Table 4; A.megatron_bridge_25.11.* Megatron-Bridge performance summary.
const Case kCases[] = {
    {"A.megatron2021.weak.1.7B",
     "",
     24,
     2304,
     24,
     51200,
     2048,
     "dgx-a100",
     32,
     1,
     1,
     1,
     1,
     512,
     0,
     "fp16",
     "full",
     false,
     false,
     false,
     137,
     true},
    {"A.megatron2021.weak.7.5B",
     "",
     36,
     4096,
     32,
     51200,
     2048,
     "dgx-a100",
     128,
     4,
     1,
     1,
     1,
     512,
     0,
     "fp16",
     "full",
     false,
     false,
     false,
     142,
     true},
    {"A.megatron2021.weak.39.1B",
     "",
     48,
     8192,
     64,
     51200,
     2048,
     "dgx-a100",
     512,
     8,
     2,
     2,
     1,
     1536,
     0,
     "fp16",
     "full",
     false,
     false,
     false,
     138,
     true},
    {"A.megatron2021.weak.145.6B",
     "",
     80,
     12288,
     96,
     51200,
     2048,
     "dgx-a100",
     1536,
     8,
     8,
     2,
     1,
     2304,
     0,
     "fp16",
     "full",
     false,
     false,
     false,
     148,
     true},
    {"A.megatron2021.weak.529.6B",
     "",
     105,
     20480,
     128,
     51200,
     2048,
     "dgx-a100",
     2520,
     8,
     35,
     3,
     1,
     2520,
     0,
     "fp16",
     "full",
     false,
     false,
     false,
     163,
     true},
    {"A.korthikanti2022.table5.22B",
     "",
     48,
     6144,
     64,
     51200,
     2048,
     "dgx-a100",
     8,
     8,
     1,
     1,
     1,
     4,
     4,
     "fp16",
     "selective",
     false,
     true,
     false,
     130.0,
     false},
    {"A.korthikanti2022.table5.175B",
     "",
     96,
     12288,
     96,
     51200,
     2048,
     "dgx-a100",
     64,
     8,
     8,
     3,
     1,
     64,
     1,
     "fp16",
     "selective",
     false,
     true,
     false,
     160.3,
     false},
    {"A.mcore_r0.8.0_h100.weak.1.7B",
     "",
     24,
     2048,
     16,
     131072,
     4096,
     "dgx-h100",
     48,
     1,
     1,
     1,
     1,
     192,
     0,
     "bf16",
     "none",
     true,
     false,
     true,
     408.8,
     false},
    {"A.mcore_r0.8.0_h100.weak.16B",
     "",
     32,
     6144,
     48,
     131072,
     4096,
     "dgx-h100",
     192,
     4,
     1,
     1,
     1,
     192,
     0,
     "bf16",
     "none",
     true,
     true,
     true,
     489.1,
     false},
    // The README does not give the virtual pipeline size of its PP rows. Without interleaving
    // the publisher's own strong-scaling figure cannot be reproduced (interleavingStrongScaling):
    // the rows interleave with two layers per virtual stage, as NVIDIA's GPT-3 175B recipe of the
    // same month does (NeMo 24.07: 12 layers per stage, VP 6; the NeMo rows below). 70B: 42
    // layers per stage, v = 21; 177B: 16, v = 8 (session 31; until then v = 1, -10.8% and -8.2%
    // in-sample with a 10-17% bubble). The micro-batch is not published: the model's choice.
    {"A.mcore_r0.8.0_h100.weak.70B",
     "",
     84,
     8192,
     64,
     131072,
     4096,
     "dgx-h100",
     768,
     8,
     2,
     21,
     1,
     384,
     0,
     "bf16",
     "none",
     true,
     true,
     true,
     419.7,
     false},
    {"A.mcore_r0.8.0_h100.weak.177B",
     "",
     96,
     12288,
     96,
     131072,
     4096,
     "dgx-h100",
     2304,
     8,
     6,
     8,
     1,
     1152,
     0,
     "bf16",
     "none",
     true,
     true,
     true,
     432.8,
     false},
    {"A.llama3_405b.table4.8192gpu_cp1",
     "llama3.1-405b",
     0,
     0,
     0,
     0,
     8192,
     "hgx-h100",
     8192,
     8,
     16,
     2,
     1,
     2048,
     1,
     "bf16",
     "none",
     true,
     true,
     false,
     430,
     false},
    // The recipe behind the 25.11 summary recomputed 5 of the 32 layers in full (Megatron-Bridge
    // scripts/performance/configs/llama/llama3_workload_base_configs.py at f5506771, the day of
    // the summary's commit 00b7660b: LLAMA3_8B_PRETRAIN_CONFIG_H100_FP8_CS_BASE_CONFIG
    // recompute_num_layers=5; utils/overrides.py: granularity "full", method "block").
    // Predicted without it until session 31.
    {"A.megatron_bridge_25.11.H100.LLAMA3_8B",
     "llama3-8b",
     0,
     0,
     0,
     0,
     8192,
     "dgx-h100",
     8,
     1,
     1,
     1,
     1,
     128,
     1,
     "fp8cs",
     "full",
     true,
     false,
     false,
     744,
     false,
     1,
     1,
     false,
     false,
     0,
     false,
     false,
     5},
    // NeMo 24.07 performance summary (GPT-3 175B, FP8, DGX H100, TP 4 x PP 8 x VP 6): tokens/s
    // per GPU. NeMo's GPT-3 recipe runs sequence parallelism and TP-communication overlap.
    {"A.nemo_24.07.H100.GPT3_175B/128gpu",
     "gpt3-175b",
     0,
     0,
     0,
     0,
     2048,
     "dgx-h100",
     128,
     4,
     8,
     6,
     1,
     256,
     1,
     "fp8",
     "selective",
     true,
     true,
     true,
     726,
     false,
     1,
     1,
     true},
    {"A.nemo_24.07.H100.GPT3_175B/512gpu",
     "gpt3-175b",
     0,
     0,
     0,
     0,
     2048,
     "dgx-h100",
     512,
     4,
     8,
     6,
     1,
     2048,
     2,
     "fp8",
     "selective",
     true,
     true,
     true,
     782,
     false,
     1,
     1,
     true},
    // torchtitan (2024-12) Llama 3.1 8B, FSDP only (ZeRO-3), local batch 2, seq 8192,
    // per-op selective activation checkpointing (llama3_8b.toml: selective_ac_option 'op'),
    // gradients reduced in fp32 (config_manager.py --training.mixed_precision_reduce: default
    // and only choice "float32" at 9dec370),
    // BF16 with torch.compile (fused elementwise kernels, as this model assumes), on Grand Teton
    // hosts: 500 W H100s with 96 GB HBM2e (2.4 TB/s; the 500 W limit's clock is not modelled,
    // docs/validation.md).
    {"A.torchtitan.llama31_8b_fsdp/8gpu",
     "llama3-8b",
     0,
     0,
     0,
     0,
     8192,
     "grand-teton-h100",
     8,
     1,
     1,
     1,
     1,
     16,
     2,
     "bf16",
     "selective-op",
     true,
     false,
     false,
     6667,
     false,
     1,
     3,
     true,
     false,
     0,
     false,
     true},
    {"A.torchtitan.llama31_8b_fsdp/128gpu",
     "llama3-8b",
     0,
     0,
     0,
     0,
     8192,
     "grand-teton-h100",
     128,
     1,
     1,
     1,
     1,
     256,
     2,
     "bf16",
     "selective-op",
     true,
     false,
     false,
     6514,
     false,
     1,
     3,
     true,
     false,
     0,
     false,
     true},
    // Megatron-Bridge performance summary, MoE on DGX H100: tokens/s per GPU. Qwen3-30B-A3B ran
    // the flex dispatcher with HybridEP (Megatron-Bridge v0.5.0, 2026-06, scripts/performance/
    // configs/qwen/qwen3_workload_base_configs.py QWEN3_30B_A3B_PRETRAIN_CONFIG_H100_FP8_CS_V1:
    // moe_flex_dispatcher_backend="hybridep", moe_a2a_overlap=False), a DeepEP-class dispatch
    // (one copy per destination node); until session 14 it was predicted with NCCL's
    // all-to-all, which gave -10% by two errors cancelling (docs/validation.md).
    {"A.mbridge_26.06.H100.Qwen3_30B_A3B",
     "qwen3-30b-a3b",
     0,
     0,
     0,
     0,
     4096,
     "dgx-h100",
     16,
     1,
     1,
     1,
     1,
     1024,
     1,
     "fp8cs",
     "none",
     true,
     false,
     false,
     8826,
     false,
     16,
     1,
     true,
     true},
    {"A.mbridge_26.04.01.H100.GPT_OSS_120B",
     "gpt-oss-120b",
     0,
     0,
     0,
     0,
     4096,
     "dgx-h100",
     64,
     1,
     4,
     1,
     1,
     1280,
     1,
     "bf16",
     "selective", // with its recipe's recompute modules (recompute_modules_of)
     true,
     false,
     false,
     5824,
     false,
     8,
     1,
     true},
    // Megatron-Bridge performance summary archive (HEAD 067f987d), DGX-H100 pre-training rows
    // added in session 18: runs the model was never fitted to, with each recipe's published
    // settings (src/megatron/bridge/perf_recipes/*/h100/*.py at that commit). Llama 3 70B
    // (26.04.01) and Llama 3.1 405B (26.06): FP8 current scaling, no recompute, sequence
    // parallel, TP communication overlapped through userbuffers (tp_comm_overlap_cfg).
    {"A.mbridge_26.04.01.H100.Llama3_70B",
     "llama3-70b",
     0,
     0,
     0,
     0,
     8192,
     "dgx-h100",
     64,
     4,
     8,
     5,
     1,
     256,
     1,
     "fp8cs",
     "none",
     true,
     true,
     true,
     1664,
     false,
     1,
     1,
     true},
    {"A.mbridge_26.06.H100.Llama31_405B",
     "llama3.1-405b",
     0,
     0,
     0,
     0,
     8192,
     "dgx-h100",
     1024,
     8,
     8,
     8,
     2,
     1536,
     1,
     "fp8cs",
     "none",
     true,
     true,
     true,
     326,
     false,
     1,
     1,
     true},
    // Qwen3-235B-A22B (26.04.01): FP8 current scaling, TP 2 with sequence parallel, PP 8 x VP 4,
    // EP 32 folded over TP x DP (expert TP 1), NCCL all-to-all dispatcher with the all-to-alls
    // overlapped with the other micro-batch (moe_a2a_overlap, overlap_moe_expert_parallel_comm),
    // no TP communication overlap (tp_comm_overlap=False).
    {"A.mbridge_26.04.01.H100.Qwen3_235B_A22B",
     "qwen3-235b-a22b",
     0,
     0,
     0,
     0,
     4096,
     "dgx-h100",
     256,
     2,
     8,
     4,
     1,
     8192,
     1,
     "fp8cs",
     "none",
     true,
     true,
     false,
     1712,
     false,
     32,
     1,
     true,
     false,
     1,
     true},
    // Qwen3-30B-A3B in BF16 on the same 16 H100 and layout as the FP8 row above, with the recipe
    // NVIDIA tuned for it: Megatron-Bridge PR #5123 (2026-07-27, container nemo:26.08.rc2),
    // verification on 2 nodes, steps 41-50 average 20,147.290 ms at GBS 1024 x 4096 tokens
    // (13,012 tokens/s per GPU). Recipe (perf_recipes/qwen/h100/qwen3_moe.py,
    // qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config, HEAD 067f987d): TP 1, EP 16, MBS 1, no
    // recompute, HybridEP with permute fusion, force-balanced routing, EP all-to-alls
    // overlapped with the other micro-batch (overlap_moe_expert_parallel_comm). The same
    // framework's FP8 row above ran 29.7 s per step on this layout.
    {"A.mbridge_pr5123.H100.Qwen3_30B_A3B_BF16",
     "qwen3-30b-a3b",
     0,
     0,
     0,
     0,
     4096,
     "dgx-h100",
     16,
     1,
     1,
     1,
     1,
     1024,
     1,
     "bf16",
     "none",
     true,
     false,
     false,
     13012,
     false,
     16,
     1,
     true,
     true,
     0,
     true},
    // Blackwell (session 18): Llama 3.1 405B on 256 GB200 (DGX-GB200, 26.06 archive: 843
    // tokens/s per GPU), FP8 current scaling, TP 4 x PP 16 x VP 4, seq 8192, GBS 1,536, sequence
    // parallel, TP overlap through userbuffers (perf_recipes/llama/gb200/llama31.py
    // llama31_405b_pretrain_256gpu_gb200_fp8cs_config: tp_comm_overlap_cfg).
    {"A.mbridge_26.06.GB200.Llama31_405B",
     "llama3.1-405b",
     0,
     0,
     0,
     0,
     8192,
     "gb200-nvl72",
     256,
     4,
     16,
     4,
     1,
     1536,
     1,
     "fp8cs",
     "none",
     true,
     true,
     true,
     843,
     false,
     1,
     1,
     true},
};

/// A copy of the bundled case `id` to retype (id null when there is none).
Case case_named(const char* id) {
    for (const Case& k : kCases)
        if (std::string_view(k.id) == id)
            return k;
    return Case{};
}

/// Where a case comes from: the unit left out together in leave-one-source-out validation.
std::string source_of(const std::string& id) {
    const std::pair<const char*, const char*> prefixes[] = {
        {"A.megatron2021.", "Narayanan et al. 2021"},
        {"A.korthikanti2022.", "Korthikanti et al. 2022"},
        {"A.mcore_r0.8.0_h100.", "Megatron-Core r0.8.0 (H100)"},
        {"A.llama3_405b.", "Llama 3 (Grattafiori et al. 2024)"},
        {"A.megatron_bridge_", "Megatron-Bridge"},
        {"A.mbridge_", "Megatron-Bridge"},
        {"A.nemo_", "NeMo 24.07"},
        {"A.torchtitan.", "torchtitan"},
    };
    for (const auto& [prefix, name] : prefixes)
        if (id.rfind(prefix, 0) == 0)
            return name;
    return id;
}

// Cases the model misses beyond +-15%, each explained in docs/validation.md. They are printed
// and counted in the median; the model is not tuned to them (no per-case factors).
bool known_miss(const char* id) {
    // Since session 22's second GEMM factor (Hopper/Blackwell 0.80 of the A100 one, fitted
    // leave-one-source-out), the dense Megatron-Bridge Llama 3 70B row is the slow side of the
    // fit: -15.7% (-6.8% with one factor for every GPU). docs/validation.md.
    return std::string(id) == "A.mbridge_26.04.01.H100.Llama3_70B";
}
// Cases added in issue 18 that the model does not yet reach (docs/validation.md says why);
// printed, counted in every median and in leave-one-source-out, not asserted within 15%.
// (torchtitan, NeMo 24.07 and MCore 1.7B came within 15% with session 22's second factor and
// are asserted again.)
bool open_miss(const char* id) {
    const std::string s(id);
    return s == "A.mbridge_26.04.01.H100.GPT_OSS_120B" ||
           s == "A.mbridge_26.06.H100.Qwen3_30B_A3B"; // with its own dispatcher (session 14)
}
// Llama 3 8B-style FP8 training on 8 GPUs: global batch 128 (16 micro-batches of one
// sequence per GPU at DP 8), seq 8192, no recompute, the given FP8 recipe.
TrainingSpec fp8_spec(cl::model::Fp8Scaling scaling) {
    TrainingSpec t;
    t.global_batch = 128;
    t.micro_batch = 1;
    t.seq = 8192;
    t.dtype = cl::model::TrainingDtype::fp8;
    t.fp8_scaling = scaling;
    t.recompute = cl::model::Recompute::none;
    return t;
}
double fp8_step_s(const ModelArch& m, const TrainingSpec& t, const GpuSpec& gpu,
                  const Topology& topo) {
    auto r = train_step(m, t, 8, gpu, topo, {}, {}, {});
    if (!r.ok())
        qFatal("%s", r.error_text().c_str());
    return r->step_time_s;
}

} // namespace

class TestValidationTraining : public QObject {
    Q_OBJECT
private:
    Catalog cat_;
    std::map<std::string, Topology> topologies_; ///< generated fabric per system and size

    struct Prediction {
        double value = 0; ///< in the case's published unit
        TrainingResult r;
    };
    /// The case predicted with the bundled defaults and the published run settings, with the
    /// GEMM factor `sustained` as given: the effective one, TrainingAssumptions::
    /// sustained_vs_best_gemm times hopper_sustained_vs_ampere on Hopper and Blackwell.
    /// Whether the case ran on Hopper or Blackwell (the GPUs hopper_sustained_vs_ampere is for).
    bool power_capped(const Case& c) {
        const std::string gpu = cat_.system(c.system)->gpu;
        return gpu.rfind("a100", 0) != 0;
    }
    /// The bundled effective GEMM factor for the case's GPU.
    double bundled_factor(const Case& c) {
        const TrainingAssumptions ta;
        return ta.sustained_vs_best_gemm.value *
               (power_capped(c) ? ta.hopper_sustained_vs_ampere.value : 1.0);
    }

    std::optional<Prediction> predict(const Case& c, double sustained, std::string* why) {
        ModelArch m;
        if (*c.model) { // zoo entries (Qwen3-30B-A3B and gpt-oss-120b since issue 20: from
                        // their config.json, gpt-oss with its 128-token windows)
            m = *cat_.model(c.model);
        } else { // Megatron GPT shape: GeLU 4h, learned positions, tied, LayerNorm, dropout
            m.id = c.id;
            m.layers = c.layers;
            m.hidden = c.hidden;
            m.heads = m.kv_heads = c.heads;
            m.head_dim = c.hidden / c.heads;
            m.ffn = 4 * c.hidden;
            m.vocab = c.vocab;
            m.mlp = Mlp::gelu;
            m.tied_embeddings = true;
            m.layernorm = true;
            m.learned_positions = true;
            m.dropout = std::string(c.system) == "dgx-a100";
            m.max_seq = c.seq;
        }
        const SystemSpec* sys = cat_.system(c.system);
        const std::string key = std::string(c.system) + "/" + std::to_string(c.gpus);
        auto topo = topologies_.find(key);
        if (topo == topologies_.end()) {
            FatTreeSpec fs;
            fs.system = c.system;
            fs.nodes = std::max(1, c.gpus / sys->gpus);
            fs.switch_id = std::string(c.system) == "dgx-a100" ? "qm8700" : "qm9700";
            if (std::string(c.system) == "hgx-h100") { // Llama 3: RoCE 400G, 1:7 above pods
                fs.link = "roce-400";
                fs.switch_id = "sn5400";
                fs.tiers = 3;
                fs.oversubscription = 7;
                fs.pod_nodes = 256;
            }
            if (std::string(c.system) == "grand-teton-h100") { // torchtitan: 400G RDMA per GPU
                fs.link = "roce-400";
                fs.switch_id = "sn5400";
            }
            // GB200 NVL72 racks (one 72-GPU NVLink domain each) on NDR; a job uses its GPUs.
            auto design = std::string(c.system) == "gb200-nvl72"
                              ? cl::model::generate_nvl72((c.gpus + 71) / 72, cat_)
                              : generate_fat_tree(fs, cat_);
            if (!design.ok()) {
                *why = design.error_text();
                return std::nullopt;
            }
            topo = topologies_.emplace(key, analyze_topology(*design, cat_)).first;
        }
        TrainingSpec t;
        t.tp = c.tp;
        t.pp = c.pp;
        t.vpp = c.vpp;
        t.cp = c.cp;
        t.ep = c.ep;
        t.etp = c.etp;
        t.ep_overlap = c.ep_overlap;
        t.mtp = c.mtp;
        if (c.deepep)
            t.moe_dispatcher = cl::model::MoeDispatcher::deepep;
        t.global_batch = c.gb;
        t.micro_batch = c.mb;
        t.seq = c.seq;
        // "fp8cs": FP8 with current (per-tensor) scaling, Megatron-Bridge's fp8_cs recipe;
        // "mxfp8": its Blackwell MXFP8 recipe.
        const bool fp8cs = std::string_view(c.dtype) == "fp8cs";
        const bool mxfp8 = std::string_view(c.dtype) == "mxfp8";
        t.dtype = fp8cs || mxfp8
                      ? cl::model::TrainingDtype::fp8
                      : *cl::model::choice_from_string<cl::model::TrainingDtype>(c.dtype);
        if (fp8cs)
            t.fp8_scaling = cl::model::Fp8Scaling::current;
        if (mxfp8)
            t.fp8_scaling = cl::model::Fp8Scaling::mxfp8;
        t.recompute = *cl::model::choice_from_string<cl::model::Recompute>(c.recompute);
        t.recompute_layers = c.recompute_layers;
        const std::string_view mods = recompute_modules_of(c);
        t.recompute_layernorm = mods.find("layernorm") != std::string_view::npos;
        t.recompute_moe_act = mods.find("moe_act") != std::string_view::npos;
        t.recompute_mla_up_proj = mods.find("mla_up_proj") != std::string_view::npos;
        t.recompute_mlp = mods.find("mlp") != std::string_view::npos;
        t.sequence_parallel = c.sp;
        t.schedule =
            c.vpp > 1 ? cl::model::Schedule::interleaved : cl::model::Schedule::one_f_one_b;
        t.zero = c.zero;
        t.fp32_gradients = c.fp32_grads;
        if (c.cp_allgather)
            t.cp_comm_type = cl::model::CpComm::allgather;
        TrainingAssumptions ta;
        ta.sustained_vs_best_gemm.value = sustained; // the effective factor, this GPU's
        ta.hopper_sustained_vs_ampere.value = 1.0;
        if (c.tp_overlap)
            ta.tp_overlap.value = 0.8; // Megatron-Core --tp-comm-overlap (docs/training.md)
        if (force_balanced(c))
            ta.moe_imbalance.value = 1.0; // the run's input, not the default's 1.1
        MemoryAssumptions ma;
        ma.flash_attention.value = c.flash ? 1 : 0;
        auto r = train_step(m, t, c.gpus, *cat_.gpu(sys->gpu), topo->second, ta, {}, ma);
        if (!r.ok()) {
            *why = r.error_text();
            return std::nullopt;
        }
        Prediction p;
        p.r = *r;
        p.value = c.tokens
                      ? r->tokens_per_s / c.gpus
                      : (c.hardware ? r->hardware_flops_per_gpu : r->model_flops_per_gpu) / 1e12;
        return p;
    }

    static double median(std::vector<double> v) {
        if (v.empty())
            return 0;
        std::sort(v.begin(), v.end());
        const std::size_t n = v.size();
        return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    static double mean_abs(const std::vector<double>& v) {
        double sum = 0;
        for (const double x : v)
            sum += std::abs(x);
        return v.empty() ? 0 : sum / static_cast<double>(v.size());
    }

private slots:
    void initTestCase() { cat_ = cl::test::bundled_catalog(); }

    void publishedRuns() {
        std::vector<double> errors, issue6; // all rows; the rows issue 6 was held to
        QString table = QStringLiteral("\n| case | published | unit | predicted | error | |\n"
                                       "|---|---|---|---|---|---|\n");
        bool all_ok = true;
        for (const Case& c : kCases) {
            std::string why;
            const auto p = predict(c, bundled_factor(c), &why);
            QVERIFY2(p, (std::string(c.id) + ": " + why).c_str());
            const double err = p->value / c.published_tflops - 1;
            errors.push_back(std::abs(err));
            if (!c.tokens)
                issue6.push_back(std::abs(err));
            // A known miss must still not drift further (its documented error is +20%).
            all_ok = all_ok && (std::abs(err) <= 0.15 || open_miss(c.id) ||
                                (known_miss(c.id) && std::abs(err) <= 0.25));
            table +=
                QStringLiteral("| %1 | %2 | %3 | %4 | %5% | micro-batch %6, step %7 s, "
                               "bubble %8% |\n")
                    .arg(QString::fromLatin1(c.id))
                    .arg(c.published_tflops, 0, 'f', c.tokens ? 0 : 1)
                    .arg(c.tokens ? QStringLiteral("tokens/s/GPU") : QStringLiteral("TFLOP/s/GPU"))
                    .arg(p->value, 0, 'f', c.tokens ? 0 : 1)
                    .arg(err * 100, 0, 'f', 1)
                    .arg(p->r.micro_batch)
                    .arg(p->r.step_time_s, 0, 'f', 3)
                    .arg(p->r.bubble_fraction * 100, 0, 'f', 1);
        }
        // Where each row's step goes (exposed seconds, the model's breakdown): the mechanisms
        // a miss points at.
        table += QStringLiteral("\n| case | compute | recompute | TP | CP | EP | PP | DP | "
                                "bubble | optimizer | other | launch gaps |\n"
                                "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (const Case& c : kCases) {
            std::string why;
            const auto p = predict(c, bundled_factor(c), &why);
            if (!p)
                continue;
            const TrainingBreakdown& b = p->r.breakdown;
            table += QStringLiteral("| %1 |").arg(QString::fromLatin1(c.id));
            for (const double x :
                 {b.compute, b.recompute, b.tp_comm, b.cp_comm, b.ep_comm, b.pp_comm, b.dp_comm,
                  b.bubble, b.optimizer, b.other, p->r.launch_gap_s})
                table += QStringLiteral(" %1 |").arg(x, 0, 'f', 3);
            table += QLatin1Char('\n');
        }
        const double med = median(errors), med6 = median(issue6);
        table += QStringLiteral("\nin-sample median |error| %1% over %2 rows (%3% over the %4 "
                                "rows of issue 6)\n")
                     .arg(med * 100, 0, 'f', 1)
                     .arg(errors.size())
                     .arg(med6 * 100, 0, 'f', 1)
                     .arg(issue6.size());
        qInfo().noquote() << table;
        QVERIFY2(all_ok, qPrintable(table));
        QVERIFY2(med6 <= 0.08, qPrintable(table)); // issue 6's target
        QVERIFY2(med <= 0.09, qPrintable(table));  // regression bound with issue 18's rows
    }

    // Leave-one-source-out (issue 18): the one fitted global factor, the sustained-vs-best GEMM
    // ratio, is chosen from the other sources only (the value on a grid of 0.01 minimising their
    // median |error|), and the left-out source's rows are predicted with it. The held-out errors
    // are what a user should expect on a run of their own; the in-sample fit above is not.
    // Megatron-Core r0.8.0's strong scaling of its GPT 177B (README at f2e5db402c, "Strong
    // Scaling Results"): batch 1,152 sequences from 96 to 4,608 H100, "MFU from 47% to 42%". At
    // TP 8 x PP 6 that is 576 micro-batches per DP rank at 96 GPUs and 12 at 4,608, so the drop
    // is the pipeline bubble plus the DP traffic: without interleaving the bubble alone would be
    // 5/12 of the compute at 4,608 GPUs (the model: 50% -> 33% MFU). Only interleaving keeps the
    // drop near 47 -> 42, which is why the weak-scaling rows run with virtual stages of two layers
    // (see kCases). The ratio is checked with the percentages' rounding (41.5-42.5 over 46.5-47.5)
    // widened by a point.
    void interleavingStrongScaling() {
        const Case* row = nullptr; // the weak-scaling 177B row: same model, TP 8 x PP 6
        for (const Case& c : kCases)
            if (std::string(c.id) == "A.mcore_r0.8.0_h100.weak.177B")
                row = &c;
        QVERIFY(row && row->gb == 1152);
        const auto mfu = [&](int gpus, int vpp) {
            Case c = *row;
            c.gpus = gpus;
            c.vpp = vpp;
            c.mb = 1;
            std::string why;
            const auto p = predict(c, bundled_factor(c), &why);
            return p ? p->r.mfu : -1.0;
        };
        const double small = mfu(96, 8), large = mfu(4608, 8);
        const double flat_small = mfu(96, 1), flat_large = mfu(4608, 1);
        QVERIFY(small > 0 && large > 0 && flat_small > 0 && flat_large > 0);
        qInfo("GPT 177B, batch 1,152: 96 -> 4,608 GPUs, MFU %.1f%% -> %.1f%% (ratio %.3f; "
              "published 47%% -> 42%%, 0.894); without interleaving %.1f%% -> %.1f%% (%.3f)",
              small * 100, large * 100, large / small, flat_small * 100, flat_large * 100,
              flat_large / flat_small);
        QVERIFY(large / small >= 0.86 && large / small <= 0.93);
        QVERIFY(flat_large / flat_small < 0.80); // the reason the rows interleave
    }

    // Partial full recompute (Megatron-LM's block method): a stage's first N layers run their
    // forward again, the others do not, so the step lies between no recompute and a full one in
    // proportion N / layers (one stage here). The Megatron-Bridge Llama 3 8B row as its recipe
    // ran it (5 of 32 layers).
    void partialRecomputeTime() {
        const Case* row = nullptr;
        for (const Case& c : kCases)
            if (std::string(c.id) == "A.megatron_bridge_25.11.H100.LLAMA3_8B")
                row = &c;
        QVERIFY(row && row->recompute_layers == 5);
        const auto step = [&](const char* recompute, int layers) {
            Case c = *row;
            c.recompute = recompute;
            c.recompute_layers = layers;
            std::string why;
            const auto p = predict(c, bundled_factor(c), &why);
            return p ? p->r.step_time_s : -1.0;
        };
        const double none = step("none", 0), every = step("full", 0), five = step("full", 5);
        QVERIFY(none > 0 && every > none);
        QVERIFY(std::abs((five - none) - 5.0 / 32.0 * (every - none)) < 1e-9 * every);
        qInfo("Llama 3 8B, FP8 on 8 H100: step %.3f s without recompute, %.3f s recomputing 5 "
              "of 32 layers, %.3f s recomputing every layer",
              none, five, every);
    }

    void leaveOneSourceOut() {
        const std::size_t n = std::size(kCases);
        std::vector<double> grid;
        for (int k = 60; k <= 100; ++k)
            grid.push_back(k / 100.0);
        // err[g][i]: signed error of case i with grid value g.
        std::vector<std::vector<double>> err(grid.size(), std::vector<double>(n));
        for (std::size_t g = 0; g < grid.size(); ++g)
            for (std::size_t i = 0; i < n; ++i) {
                std::string why;
                const auto p = predict(kCases[i], grid[g], &why);
                QVERIFY2(p, (std::string(kCases[i].id) + ": " + why).c_str());
                err[g][i] = p->value / kCases[i].published_tflops - 1;
            }
        // Two ways to choose the factor from the other sources. `typical` (the headline since
        // session 8): the smallest median |error|. It has two basins when the rows disagree (the
        // older rows a few % slow, newer H100/Blackwell rows 5-20% fast): which one wins can
        // flip with one added row (session 18: leaving Narayanan out jumped 0.83 -> 0.71 when
        // the GB200 row came in). `unbiased`: the median signed error closest to zero, one
        // minimum, printed alongside so the headline's sensitivity to the objective is visible.
        // Two factors since session 22: the GEMM factor for Ampere (A100) rows and the
        // effective one for Hopper/Blackwell rows (the GEMM factor x hopper_sustained_vs_ampere),
        // chosen together. A row depends on its own generation's factor only, so a fit is a grid
        // point for each: Fit{ampere, later}, indices into `grid`.
        std::vector<char> capped(n);
        for (std::size_t i = 0; i < n; ++i)
            capped[i] = power_capped(kCases[i]);
        struct Fit {
            std::size_t ampere = 0, later = 0;
            [[nodiscard]] std::size_t of(bool c) const { return c ? later : ampere; }
        };
        const auto fit = [&](const std::string& without, bool unbiased = false) {
            Fit best;
            if (unbiased) { // each generation's median signed error closest to zero
                for (const bool gen : {false, true}) {
                    double best_med = 1e9;
                    for (std::size_t g = 0; g < grid.size(); ++g) {
                        std::vector<double> e;
                        for (std::size_t i = 0; i < n; ++i)
                            if (source_of(kCases[i].id) != without && capped[i] == gen)
                                e.push_back(err[g][i]);
                        if (const double m = std::abs(median(e)); m < best_med - 1e-12) {
                            best_med = m;
                            (gen ? best.later : best.ampere) = g;
                        }
                    }
                }
                return best;
            }
            double best_med = 1e9;
            for (std::size_t ga = 0; ga < grid.size(); ++ga)
                for (std::size_t gl = 0; gl < grid.size(); ++gl) {
                    std::vector<double> e;
                    for (std::size_t i = 0; i < n; ++i)
                        if (source_of(kCases[i].id) != without)
                            e.push_back(std::abs(err[capped[i] ? gl : ga][i]));
                    if (const double m = median(e); m < best_med - 1e-12) {
                        best_med = m;
                        best = {ga, gl};
                    }
                }
            return best;
        };
        std::vector<std::string> sources;
        for (const Case& c : kCases)
            if (std::find(sources.begin(), sources.end(), source_of(c.id)) == sources.end())
                sources.push_back(source_of(c.id));
        QString table = QStringLiteral(
            "\n| source left out | rows | factor fitted on the others | held-out median |error| "
            "| worst held-out | rows within 15% |\n|---|---|---|---|---|---|\n");
        std::vector<double> held_out, moe;
        std::vector<HeldOutRow> rows(n); // issue 19: the bands rest on these
        for (const auto& src : sources) {
            const Fit g = fit(src);
            for (std::size_t i = 0; i < n; ++i)
                if (source_of(kCases[i].id) == src) {
                    const Case& c = kCases[i];
                    HeldOutRow& r = rows[i];
                    r.id = c.id;
                    r.source = src;
                    r.kind = BandKind::training;
                    r.arch = gpu_generation(*cat_.gpu(cat_.system(c.system)->gpu));
                    r.moe = c.ep > 1 || std::string(c.model) == "qwen3-30b-a3b" ||
                            std::string(c.model) == "gpt-oss-120b";
                    r.fsdp = c.zero == 3;
                    r.pp = c.pp > 1;
                    r.gpus = c.gpus;
                    r.error = err[g.of(capped[i])][i];
                }
            std::vector<double> e;
            double worst = 0;
            int within = 0;
            for (std::size_t i = 0; i < n; ++i) {
                if (source_of(kCases[i].id) != src)
                    continue;
                const double x = err[g.of(capped[i])][i];
                e.push_back(std::abs(x));
                held_out.push_back(std::abs(x));
                if (rows[i].moe)
                    moe.push_back(x);
                if (std::abs(x) > std::abs(worst))
                    worst = x;
                within += std::abs(x) <= 0.15;
            }
            table += QStringLiteral("| %1 | %2 | %3 | %4% | %5% | %6 of %2 |\n")
                         .arg(QString::fromStdString(src))
                         .arg(e.size())
                         .arg(QStringLiteral("%1 / %2")
                                  .arg(grid[g.ampere], 0, 'f', 2)
                                  .arg(grid[g.later], 0, 'f', 2))
                         .arg(median(e) * 100, 0, 'f', 1)
                         .arg(worst * 100, 0, 'f', 1)
                         .arg(within);
        }
        const Fit all = fit("");
        const double med = median(held_out);
        std::vector<double> held_out_unbiased;
        for (const auto& src : sources) {
            const Fit g = fit(src, true);
            for (std::size_t i = 0; i < n; ++i)
                if (source_of(kCases[i].id) == src)
                    held_out_unbiased.push_back(std::abs(err[g.of(capped[i])][i]));
        }
        const double med_unbiased = median(held_out_unbiased);
        const double worst = *std::max_element(held_out.begin(), held_out.end());
        table += QStringLiteral("\nheld-out median |error| %1% and worst %2% over %3 rows (target: "
                                "median <= 8%, worst <= 25%); factors fitted on every row %4 "
                                "(Ampere) and %5 (Hopper/Blackwell: x %6), bundled %7 and x %8; "
                                "mean |error| %9%\n")
                     .arg(med * 100, 0, 'f', 1)
                     .arg(worst * 100, 0, 'f', 1)
                     .arg(held_out.size())
                     .arg(grid[all.ampere], 0, 'f', 2)
                     .arg(grid[all.later], 0, 'f', 2)
                     .arg(grid[all.later] / grid[all.ampere], 0, 'f', 3)
                     .arg(TrainingAssumptions{}.sustained_vs_best_gemm.value, 0, 'f', 2)
                     .arg(TrainingAssumptions{}.hopper_sustained_vs_ampere.value, 0, 'f', 2)
                     .arg(mean_abs(held_out) * 100, 0, 'f', 1);
        table += QStringLiteral("with the factor chosen for a zero median signed error on the "
                                "other sources instead: held-out median |error| %1%, factor "
                                "fitted on every row %2\n")
                     .arg(med_unbiased * 100, 0, 'f', 1)
                     .arg(QStringLiteral("%1 / %2")
                              .arg(grid[fit("", true).ampere], 0, 'f', 2)
                              .arg(grid[fit("", true).later], 0, 'f', 2));
        for (const double x : moe)
            table += QStringLiteral("MoE row held-out error %1% (target within 20%)\n")
                         .arg(x * 100, 0, 'f', 1);
        qInfo().noquote() << table;
        // Regression bounds at today's figures (issue 18's training targets, met since session 31,
        // and tighter bounds where the model does better): a change that makes generalisation
        // worse fails here.
        const std::string stale = cl::test::check_held_out(
            rows, "training", "tests/model/tst_validation_training leaveOneSourceOut");
        QVERIFY2(stale.empty(), stale.c_str());
        // 6.9% after the all-to-all fill fix (11.0%); 8.1% since FP8 quantisation is charged
        // (docs/validation.md: the tail improved, the A100 sources' refit factor moved).
        // Session 14 tried wave quantisation (7.4%, but one A100 row left its band and the
        // training bands' coverage fell to 79%): reverted, docs/validation.md.
        // Session 18 added four Megatron-Bridge H100 rows the model had never seen (Llama 3 70B,
        // Llama 3.1 405B, Qwen3-235B-A22B, Qwen3-30B-A3B in BF16 with NVIDIA's tuned recipe),
        // predicted before they were added at -5.5%, +0.8%, +3.0%, +12.2%: 8.1% -> 6.0%; the
        // GB200 row (+14.2%, issue 18's "Blackwell too fast") then flipped one source's fit into
        // the other basin: 13.0% (10.3% with the unbiased objective). docs/validation.md.
        // Session 22: FP8 current scaling charged (13.0% -> 13.5%, 9.6% unbiased), then the
        // second GEMM factor for Hopper/Blackwell: 8.7% (6.8% unbiased).
        // Session 29: per-kernel launch gaps (TrainingAssumptions::kernel_gap_s) took the worst
        // held-out row from 42.4% to 28.7% (21.5% with BF16 dispatch), the mean from 10.4% to
        // 9.5% (9.2%), the 90th percentile
        // from 20.1% to 17.1% and rows within 15% from 17 to 19 of 24, while the median moved
        // 8.7% -> 9.4% (the 12th and 13th rows changed places: MCore 1.7B and the BF16
        // Qwen3 row, whose sources now choose a higher Hopper factor). docs/validation.md.
        // Session 31: the Megatron-Core r0.8.0 PP rows interleave as the publisher's own strong
        // scaling requires (interleavingStrongScaling; two layers per virtual stage, as NVIDIA's
        // GPT-3 recipe of the same month): median 9.3% -> 6.9%, mean 9.2% -> 8.4%, worst 23.2% ->
        // 21.7%, unbiased 7.1% -> 6.7%. Issue 18's training targets are asserted from here on.
        QVERIFY2(med <= 0.08, qPrintable(table));
        QVERIFY2(mean_abs(held_out) <= 0.09, qPrintable(table));
        // Session 30: a GEMM's fixed K-loop cost in 128-byte K-steps (FP8 steps 128 deep, not
        // 64: Hw::k0) took the Qwen3-30B-A3B FP8 row from +21.5% to +17.4% (every MoE row
        // within 20%) and moved the median 9.4% -> 9.3%, the unbiased one 6.9% -> 7.1%, the
        // worst 21.5% -> 23.2% (Megatron-Bridge Llama 3 70B, FP8, slower still).
        // Session 49: the launch gap per counted kernel (4.1 -> 6.7 us, the profile's idle time
        // over the kernels the model counts for the profiled run) moved the median 6.5% ->
        // 7.5%, the unbiased one 6.7% -> 7.1%, the worst 24.1% -> 22.3% (docs/validation.md).
        QVERIFY2(med_unbiased <= 0.075, qPrintable(table));
        // 57.1% until torchtitan's rows ran on their own GPU (500 W, HBM2e) with per-op
        // selective checkpointing (55.0% -> 23.0% held out); GPT-OSS-120B is the worst now,
        // 45.3% -> 53.0% once its 128-token sliding windows are modelled (issue 20): the
        // unfused MoE path it ran is what the model lacks (docs/validation.md).
        // Session 14: Qwen3-30B-A3B with the dispatcher it ran (HybridEP, DeepEP-class) is
        // +69% before and +58% held out after the MoE token-movement passes were charged (GPT-OSS
        // 53.0% -> 43.7%): both MoE rows now miss the same thing, 3-5 ms per MoE layer and
        // micro-batch the model does not have (docs/validation.md).
        // Session 29: 28.7% -> 21.5% once the MoE dispatch travels in BF16 as Megatron-Core
        // sends it (the worst is now the Megatron-Bridge Llama 3 70B row, -21.3%, and the
        // Qwen3-30B-A3B FP8 row, +21.5%): issue 18's worst <= 25% holds.
        QVERIFY2(worst <= 0.25, qPrintable(table));
        // Issue 18's "every MoE row within 20%" was met from session 30 with every MoE row run
        // at the default 10% expert-load imbalance. Session 47 types the rows as they ran:
        // Megatron-Bridge force-balances the routing of its MoE benchmarks (no imbalance), and
        // the two small-expert rows come out 23-24% too fast held out (Qwen3-30B-A3B in FP8
        // current scaling, whose published step is 5 s slower than the same layout's BF16 A/B
        // where the model has them equal; GPT-OSS-120B). The target is not met; this bounds a
        // regression (docs/validation.md, session 47).
        // Session 49: with the GPU idle the profile measured carried per counted kernel, the
        // two rows come to +16.3% and +19.8% held out: the target is met again and asserted.
        for (const double x : moe)
            QVERIFY2(std::abs(x) <= 0.20, qPrintable(table));
    }

    // Kernel launch gaps (session 29, docs/training.md): the kernels counted per layer and
    // micro-batch for the documented examples, and the idle time the step carries for them.
    // Qwen3 30B-A3B on 16 H100, EP 16, one sequence per micro-batch (48 MoE layers, 64
    // micro-batches): 92 kernels in BF16 (attention 7 forward, MoE 13 + 2 per local expert,
    // FlashAttention, backward twice the GEMMs); 200 in FP8 current scaling (3 cast kernels per
    // tensor, per expert: + 54 forward, + 54 backward).
    void kernelLaunchGaps() {
        for (const auto& [id, per_layer] :
             {std::pair<const char*, double>{"A.mbridge_pr5123.H100.Qwen3_30B_A3B_BF16", 92},
              std::pair<const char*, double>{"A.mbridge_26.06.H100.Qwen3_30B_A3B", 200}}) {
            const Case c = case_named(id);
            QVERIFY(c.id != nullptr);
            std::string why;
            const auto p = predict(c, bundled_factor(c), &why);
            QVERIFY2(p, why.c_str());
            const double layer_mbs = 48.0 * 64.0;
            QCOMPARE(p->r.kernels_per_step, per_layer * layer_mbs);
            QVERIFY(std::abs(p->r.launch_gap_s -
                             p->r.kernels_per_step * TrainingAssumptions{}.kernel_gap_s.value) <
                    1e-9);
            QVERIFY(p->r.launch_gap_s < p->r.breakdown.compute);
            // The BF16 row is the layout of the profile behind kernel_gap_s (the kernels do
            // not depend on EP overlap): its gaps are the profile's measured idle time, 1.893 s
            // a step. A change to the kernel count fails here until the gap is derived again.
            if (per_layer == 92)
                QVERIFY2(std::abs(p->r.launch_gap_s - 1.893) < 0.01,
                         qPrintable(QString::number(p->r.launch_gap_s)));
            qInfo("%s: %.0f kernels per step, %.2f s of launch gaps in a %.2f s step", id,
                  p->r.kernels_per_step, p->r.launch_gap_s, p->r.step_time_s);
        }
    }

    // Megatron-Bridge's own A/B of EP overlap (skills/nemo-mbridge-perf-expert-parallel-overlap,
    // validated 2026-07-25; not in published.json, not fitted): Qwen3 30B-A3B, 16 H100, BF16,
    // TP 1, EP 16, MBS 1, GBS 1024, seq 4096, HybridEP, force-balanced routing, delayed wgrad
    // off: 24.7138 s per step without EP overlap, 20.9920 s with it (-15.06%). The model, with
    // the same layout as the BF16 row above, within 10% of each and of the gain within 5 points.
    // An outside check (not in ../shared/validation, not in the leave-one-source-out set, no
    // factor fitted on it): NVIDIA's Megatron-MoE-ModelZoo, best_practice/Qwen3/readme.md
    // (@c1ad0b5c), Qwen3-235B-A22B in BF16 on 256 H100 (NVLink 4, InfiniBand 8 x 50 GB/s), seq
    // 4096, GBS 2048, five layouts with their step times; tokens/s per GPU = 2048 x 4096 /
    // step / 256. "norm, act" recompute is selective recompute of the layer norms and the MoE
    // activation (Megatron-Core's recompute_modules, session 49). The PP 32 x VPP 3 row needs
    // Megatron-LM's embedding and loss accounted as pipeline layers (94 + 2 = 96 chunks). The TP 4
    // x EP 8 row's step is 28 % shorter in the model than published (tokens/s +39 %), not
    // understood (docs/validation.md): printed, not asserted.
    void modelZooQwen3_235B() {
        const auto row = [](const char* id, int tp, int pp, int vpp, int ep, int mb,
                            const char* recompute, int zero, bool deepep, bool overlap,
                            double tokens_per_gpu) {
            Case c{};
            c.id = id;
            c.model = "qwen3-235b-a22b";
            c.seq = 4096;
            c.system = "dgx-h100";
            c.gpus = 256;
            c.tp = tp;
            c.pp = pp;
            c.vpp = vpp;
            c.cp = 1;
            c.gb = 2048;
            c.mb = mb;
            c.dtype = "bf16";
            c.recompute = recompute;
            // The readme's "norm, act": --recompute-granularity selective with the layernorm
            // and moe_act modules.
            if (std::string_view(recompute) == "selective")
                c.recompute_modules = "layernorm,moe_act";
            c.flash = true;
            c.sp = true;
            c.published_tflops = tokens_per_gpu;
            c.ep = ep;
            c.zero = zero;
            c.tokens = true;
            c.deepep = deepep;
            c.etp = 1;
            c.ep_overlap = overlap;
            return c;
        };
        const Case rows[] = {
            row("DeepEP TP2 PP8 VPP4 EP32", 2, 8, 4, 32, 1, "selective", 1, true, false, 1663.4),
            row("DeepEP TP2 PP8 VPP4 EP32 +1F1B A2A overlap", 2, 8, 4, 32, 1, "selective", 1, true,
                true, 1861.8),
            row("DeepEP TP2 EP8 EDP32 FSDP MBS4 full recompute", 2, 1, 1, 8, 4, "full", 3, true,
                false, 1861.8),
            row("all-to-all TP2 PP32 VPP3 EP8", 2, 32, 3, 8, 1, "selective", 1, false, false,
                1354.0),
            row("DeepEP TP4 PP8 VPP4 EP8 EDP4", 4, 8, 4, 8, 1, "none", 1, true, false, 1129.9),
        };
        QString table = QStringLiteral(
            "\nMegatron-MoE-ModelZoo Qwen3-235B-A22B, 256 H100 (outside check)\n"
            "| layout | published step | model step | error (tokens/s) |\n|---|---|---|---|\n");
        std::vector<double> errs;
        for (const Case& c : rows) {
            std::string why;
            const auto p = predict(c, bundled_factor(c), &why);
            QVERIFY2(p, (std::string(c.id) + ": " + why).c_str());
            const double e = p->value / c.published_tflops - 1;
            errs.push_back(e);
            table += QStringLiteral("| %1 | %2 s | %3 s | %4% |\n")
                         .arg(QString::fromLatin1(c.id))
                         .arg(2048.0 * 4096 / c.published_tflops / 256, 0, 'f', 1)
                         .arg(p->r.step_time_s, 0, 'f', 1)
                         .arg(e * 100, 0, 'f', 1);
        }
        qInfo().noquote() << table;
        for (std::size_t i = 0; i + 1 < errs.size(); ++i)
            QVERIFY2(std::abs(errs[i]) <= 0.15, qPrintable(table));
    }

    // Session 46, an outside check (not in ../shared/validation, nothing fitted): DeepSeek-V3
    // on 1,024 H100 as Megatron-Bridge ran it for its 25.09 performance summary
    // (docs/performance-summary-archive.md, "DeepSeekV3 (dropless)", DGX-H100: TP 2 x PP 8 x
    // VP 4 x EP 64, GBS 8,192, MBS 1, seq 4,096, BF16, 1,297 tokens/s per GPU), typed as the
    // table gives it. The table has no ETP; the recipe sets expert_tensor_parallel_size=1
    // (scripts/performance/configs/deepseek/deepseek_workload_base_configs.py, the base of
    // every DeepSeek-V3 config), ClusterLens's default since this session, and the model routes
    // each token to at most 4 of its 8 expert groups (router_groups: one node each at EP 64).
    // Before both: 563 tokens/s per GPU, the all-to-all 61 % of the step -- issue 18's "78 %".
    void deepSeekV3RecipeOnH100() {
        Case c{};
        c.id = "DeepSeek-V3, 1,024 H100, TP2 PP8 VP4 EP64";
        c.model = "deepseek-v3";
        c.seq = 4096;
        c.system = "dgx-h100";
        c.gpus = 1024;
        c.tp = 2;
        c.pp = 8;
        c.vpp = 4;
        c.cp = 1;
        c.gb = 8192;
        c.mb = 1;
        c.dtype = "bf16";
        c.recompute = "selective";
        c.recompute_modules = "mla_up_proj,mlp"; // the recipe's recompute_modules
        c.flash = true;
        c.sp = true;
        c.ep = 64;
        c.zero = 1;
        c.tokens = true;
        c.deepep = true; // enable_deepep=True: one copy per destination node over RDMA
        c.etp = TrainingSpec{}.etp;
        c.published_tflops = 1297;
        QCOMPARE(c.etp, 1);
        // The recipe as Megatron-Bridge ran it (scripts/performance/configs/deepseek/
        // deepseek_llm_pretrain.py, deepseek_v3_h100_1024gpus_bf16_config, and utils/helpers.py):
        // set_moe_a2a_overlap_overrides (overlap_moe_expert_parallel_comm = True),
        // moe_router_force_load_balancing = True, and the DeepSeek-V3 recipe's multi-token
        // prediction (use_mtp, mtp_num_layers 1; its pipeline layout "Et|(tt|)*30mL" gives the
        // MTP module and the loss their own virtual stage, which the split here matches: the last
        // stage holds 6 decoder layers and the module).
        c.ep_overlap = true;
        c.force_balanced = true;
        c.mtp = true;
        std::string why;
        const auto p = predict(c, bundled_factor(c), &why);
        QVERIFY2(p, why.c_str());
        // Session 46 typed the row without the overlap, the forced balance and MTP.
        Case bare = c;
        bare.ep_overlap = false;
        bare.force_balanced = false;
        bare.mtp = false;
        const auto pb = predict(bare, bundled_factor(bare), &why);
        QVERIFY2(pb, why.c_str());
        Case no_mtp = c;
        no_mtp.mtp = false;
        const auto pn = predict(no_mtp, bundled_factor(no_mtp), &why);
        QVERIFY2(pn, why.c_str());
        Case split = c; // each expert split over the TP pair (Megatron-Core's own default)
        split.etp = 0;
        const auto ps = predict(split, bundled_factor(split), &why);
        QVERIFY2(ps, why.c_str());
        const auto err = [&](const Prediction& x) { return x.value / c.published_tflops - 1; };
        const double e = err(*p), eb = err(*pb), en = err(*pn), es = err(*ps);
        const double ep_share = p->r.breakdown.ep_comm / p->r.step_time_s;
        qInfo().noquote() << QStringLiteral(
                                 "%1: published 1,297 tokens/s per GPU, model %2 (%3%) as the "
                                 "recipe ran (EP overlap, forced balance, MTP), the all-to-all "
                                 "%4% of the step exposed; without MTP %5 (%6%); without the "
                                 "three %7 (%8%); with ETP 2: %9 (%10%)")
                                 .arg(QString::fromLatin1(c.id))
                                 .arg(p->value, 0, 'f', 0)
                                 .arg(e * 100, 0, 'f', 1)
                                 .arg(ep_share * 100, 0, 'f', 0)
                                 .arg(pn->value, 0, 'f', 0)
                                 .arg(en * 100, 0, 'f', 1)
                                 .arg(pb->value, 0, 'f', 0)
                                 .arg(eb * 100, 0, 'f', 1)
                                 .arg(ps->value, 0, 'f', 0)
                                 .arg(es * 100, 0, 'f', 1);
        QVERIFY2(std::abs(e) <= 0.15, qPrintable(QString::number(e)));
        QVERIFY(ep_share < 0.2);
        // The MTP module and its second pass through the output head load the last stage:
        // DeepSeek-V3's head (129,280 x 7,168 over TP 2) costs about a layer.
        QVERIFY(p->r.step_time_s > 1.08 * pn->r.step_time_s);
        QVERIFY(es < e - 0.2); // splitting the experts doubles the copies each GPU sends
    }

    // Session 47: the Megatron-Bridge 26.02 performance summary (docs/performance-summary-
    // archive.md, "26.02 NeMo Container", at 0a25f911), an outside check printed, not asserted:
    // every row on a GPU the catalog has (not GB300; NVFP4 training is not modelled), each with
    // its published layout; MoE rows force-balanced as the page says, DeepSeek-V3 with its
    // recipe's MTP module, MoE dispatch DeepEP-class (HybridEP on GB200, DeepEP on B200/B300)
    // except where the H100 validation rows say otherwise, EP overlap off where the page does not
    // say. Tokens/s per GPU, bundled factors, nothing fitted.
    void megatronBridge2602() {
        struct Row {
            const char* label;
            const char* model;
            const char* system;
            int gpus, tp, pp, vpp, cp, ep;
            long long gb;
            int mb, seq;
            const char* dtype;
            int zero;
            bool deepep, tp_overlap, ep_overlap;
            double published;
        };
        const Row rows[] = {
            {"GB200 Llama 3 70B MXFP8 TP2 PP4 VP5", "llama3-70b", "gb200-nvl72", 64, 2, 4, 5, 1, 1,
             256, 1, 8192, "mxfp8", 1, false, true, false, 3613},
            {"GB200 Llama 3 70B FP8 FSDP MBS2", "llama3-70b", "gb200-nvl72", 64, 1, 1, 1, 1, 1, 256,
             2, 8192, "fp8cs", 3, false, false, false, 4040},
            {"H100 Llama 3 70B FP8 TP4 PP8 VP5", "llama3-70b", "dgx-h100", 64, 4, 8, 5, 1, 1, 256,
             1, 8192, "fp8cs", 1, false, true, false, 1621},
            {"GB200 Llama 3.1 405B MXFP8 TP4 PP16 VP8", "llama3.1-405b", "gb200-nvl72", 256, 4, 16,
             8, 1, 1, 1536, 1, 8192, "mxfp8", 1, false, true, false, 786},
            {"GB200 Llama 3.1 405B FP8 TP4 PP16 VP4", "llama3.1-405b", "gb200-nvl72", 256, 4, 16, 4,
             1, 1, 1536, 1, 8192, "fp8cs", 1, false, true, false, 793},
            {"H100 Llama 3.1 405B FP8 TP8 PP8 CP2 VP8", "llama3.1-405b", "dgx-h100", 1024, 8, 8, 8,
             2, 1, 1536, 1, 8192, "fp8cs", 1, false, true, false, 311},
            {"GB200 DeepSeek-V3 MXFP8 PP4 VP4 EP64", "deepseek-v3", "gb200-nvl72", 256, 1, 4, 4, 1,
             64, 4096, 1, 4096, "mxfp8", 1, true, false, false, 3955},
            {"B300 DeepSeek-V3 MXFP8 PP16 EP8", "deepseek-v3", "hgx-b300", 256, 1, 16, 1, 1, 8,
             4096, 1, 4096, "mxfp8", 1, true, false, false, 2983},
            {"B200 DeepSeek-V3 MXFP8 PP16 EP8", "deepseek-v3", "dgx-b200", 256, 1, 16, 1, 1, 8,
             4096, 1, 4096, "mxfp8", 1, true, false, false, 2689},
            {"GB200 GPT-OSS-120B BF16 EP64 MBS4", "gpt-oss-120b", "gb200-nvl72", 64, 1, 1, 1, 1, 64,
             1280, 4, 4096, "bf16", 1, true, false, false, 15784},
            {"B300 GPT-OSS-120B BF16 EP64 MBS4", "gpt-oss-120b", "hgx-b300", 64, 1, 1, 1, 1, 64,
             1280, 4, 4096, "bf16", 1, true, false, false, 8359},
            {"B200 GPT-OSS-120B BF16 EP64 MBS4", "gpt-oss-120b", "dgx-b200", 64, 1, 1, 1, 1, 64,
             1280, 4, 4096, "bf16", 1, true, false, false, 8047},
            {"H100 GPT-OSS-120B BF16 PP4 EP8", "gpt-oss-120b", "dgx-h100", 64, 1, 4, 1, 1, 8, 1280,
             1, 4096, "bf16", 1, false, false, false, 5993},
            {"GB200 Qwen3-30B-A3B MXFP8 EP8 MBS4", "qwen3-30b-a3b", "gb200-nvl72", 8, 1, 1, 1, 1, 8,
             512, 4, 4096, "mxfp8", 1, true, false, false, 26084},
            {"B300 Qwen3-30B-A3B MXFP8 EP8 MBS8", "qwen3-30b-a3b", "hgx-b300", 8, 1, 1, 1, 1, 8,
             512, 8, 4096, "mxfp8", 1, true, false, false, 29521},
            {"B200 Qwen3-30B-A3B MXFP8 EP8 MBS1", "qwen3-30b-a3b", "dgx-b200", 8, 1, 1, 1, 1, 8,
             512, 1, 4096, "mxfp8", 1, true, false, false, 9691},
            {"H100 Qwen3-30B-A3B FP8 PP2 VP12 EP8", "qwen3-30b-a3b", "dgx-h100", 16, 1, 2, 12, 1, 8,
             1024, 1, 4096, "fp8cs", 1, true, false, false, 5113},
            {"GB200 Qwen3-235B-A22B MXFP8 PP8 EP32", "qwen3-235b-a22b", "gb200-nvl72", 256, 1, 8, 1,
             1, 32, 8192, 1, 4096, "mxfp8", 1, true, false, false, 5448},
            {"B300 Qwen3-235B-A22B MXFP8 PP8 VP4 EP8", "qwen3-235b-a22b", "hgx-b300", 256, 1, 8, 4,
             1, 8, 8192, 1, 4096, "mxfp8", 1, true, false, false, 2691},
            {"B200 Qwen3-235B-A22B MXFP8 PP8 EP8", "qwen3-235b-a22b", "dgx-b200", 256, 1, 8, 1, 1,
             8, 8192, 1, 4096, "mxfp8", 1, true, false, false, 3805},
            {"H100 Qwen3-235B-A22B FP8 TP2 PP8 VP4 EP32", "qwen3-235b-a22b", "dgx-h100", 256, 2, 8,
             4, 1, 32, 8192, 1, 4096, "fp8cs", 1, false, false, true, 1633},
        };
        QString table = QStringLiteral("\nMegatron-Bridge 26.02 (outside check, printed)\n"
                                       "| run | published | model | error |\n|---|---|---|---|\n");
        std::vector<double> dense, moe;
        for (const Row& r : rows) {
            Case c{};
            c.id = r.label;
            c.model = r.model;
            c.seq = r.seq;
            c.system = r.system;
            c.gpus = r.gpus;
            c.tp = r.tp;
            c.pp = r.pp;
            c.vpp = r.vpp;
            c.cp = r.cp;
            c.gb = r.gb;
            c.mb = r.mb;
            c.dtype = r.dtype;
            c.recompute = "none";
            c.flash = true;
            c.sp = r.tp > 1;
            c.tp_overlap = r.tp_overlap;
            c.ep = r.ep;
            c.zero = r.zero;
            c.tokens = true;
            c.deepep = r.deepep;
            c.etp = 1;
            c.ep_overlap = r.ep_overlap;
            c.force_balanced = r.ep > 1; // "we force-balance the token distribution"
            c.published_tflops = r.published;
            std::string why;
            const auto p = predict(c, bundled_factor(c), &why);
            QVERIFY2(p, (std::string(r.label) + ": " + why).c_str());
            const double e = p->value / r.published - 1;
            (r.ep > 1 ? moe : dense).push_back(std::abs(e));
            table += QStringLiteral("| %1 | %2 | %3 | %4% |\n")
                         .arg(QString::fromLatin1(r.label))
                         .arg(r.published, 0, 'f', 0)
                         .arg(p->value, 0, 'f', 0)
                         .arg(e * 100, 0, 'f', 1);
        }
        table += QStringLiteral("dense rows: median |error| %1% (%2 rows); MoE rows: %3% (%4)\n")
                     .arg(median(dense) * 100, 0, 'f', 1)
                     .arg(dense.size())
                     .arg(median(moe) * 100, 0, 'f', 1)
                     .arg(moe.size());
        qInfo().noquote() << table;
        QCOMPARE(dense.size() + moe.size(), std::size(rows));
    }

    // All-gather context parallelism (Transformer Engine AttnFuncWithCPAndKVAllGather; Llama 3,
    // Grattafiori et al. 2024 sec. 3.3.2: "the all-gather communication latency is exposed in
    // the critical path"), on Llama 3 Table 4's long-context row: 16,384 H100, seq 131,072,
    // TP 8 x CP 16 x PP 16 x DP 8, 16 sequences per DP rank (380 TFLOP/s per GPU), and its
    // 16,384-GPU row at seq 8,192 (400). Known answer: per micro-batch and layer of the slowest
    // stage (8 of 126 over PP 16) two all-gathers and a reduce-scatter of the whole sequence's K
    // and V, nothing hidden. The published figures are printed, not asserted: the paper tunes
    // the interleaving ("N") and does not give it; at the 8,192-GPU case's VP 2 the 16 micro-
    // batches leave a large bubble (docs/validation.md).
    void llama3Table4LongContext() {
        const Case base = case_named("A.llama3_405b.table4.8192gpu_cp1");
        QVERIFY(base.id != nullptr);
        Case short_ctx = base, long_ctx = base;
        short_ctx.id = "16,384 GPUs, seq 8,192, CP 1";
        short_ctx.gpus = 16384;
        short_ctx.gb = 16 * 128;
        short_ctx.published_tflops = 400;
        long_ctx.id = "16,384 GPUs, seq 131,072, CP 16 (all-gather)";
        long_ctx.gpus = 16384;
        long_ctx.cp = 16;
        long_ctx.seq = 131072;
        long_ctx.gb = 16 * 8;
        long_ctx.published_tflops = 380;
        long_ctx.cp_allgather = true;
        Case ring = long_ctx;
        ring.cp_allgather = false;
        QString table =
            QStringLiteral("\nLlama 3 405B, Table 4 at the 8,192-GPU case's VP 2 (printed)\n"
                           "| run | published TFLOP/s | predicted | error |\n"
                           "|---|---|---|---|\n");
        std::string why;
        std::optional<Prediction> got[3];
        const Case* cs[3] = {&short_ctx, &long_ctx, &ring};
        for (int i = 0; i < 3; ++i) {
            got[i] = predict(*cs[i], bundled_factor(*cs[i]), &why);
            QVERIFY2(got[i], why.c_str());
            table += QStringLiteral("| %1%2 | %3 | %4 | %5% |\n")
                         .arg(QString::fromLatin1(cs[i]->id),
                              i == 2 ? QStringLiteral(" -- as a p2p ring") : QString())
                         .arg(cs[i]->published_tflops, 0, 'f', 0)
                         .arg(got[i]->value, 0, 'f', 1)
                         .arg((got[i]->value / cs[i]->published_tflops - 1) * 100, 0, 'f', 1);
        }
        qInfo().noquote() << table;
        const Topology& topo = topologies_.at("hgx-h100/16384");
        const ModelArch& m = *cat_.model("llama3.1-405b");
        const double block = 131072.0 / 16 * 1 * (2.0 * m.kv_heads * m.head_dim) / 8 * 2.0;
        const GroupPlacement cp_g = place_group(topo, 16, 8);
        const CollectiveAssumptions ca;
        const double per_layer = 2.0 * collective_seconds(CollectiveOp::allgather, 16 * block, topo,
                                                          cp_g, CollectiveAlgo::automatic, ca) +
                                 collective_seconds(CollectiveOp::reducescatter, 16 * block, topo,
                                                    cp_g, CollectiveAlgo::automatic, ca);
        const auto& ag = got[1]->r;
        QCOMPARE(ag.micro_batches, std::int64_t{16});
        const double expect = 16.0 * 8.0 * per_layer;
        QVERIFY2(std::abs(ag.breakdown.cp_comm / expect - 1) < 1e-9,
                 qPrintable(QStringLiteral("%1 vs %2").arg(ag.breakdown.cp_comm).arg(expect)));
        QVERIFY(got[2]->r.breakdown.cp_comm < 0.1 * ag.breakdown.cp_comm); // the ring hides
    }

    void epOverlapAB() {
        Case c = case_named("A.mbridge_pr5123.H100.Qwen3_30B_A3B_BF16");
        QVERIFY(c.id != nullptr);
        std::string why;
        c.ep_overlap = false;
        const auto off = predict(c, bundled_factor(c), &why);
        QVERIFY2(off, why.c_str());
        c.ep_overlap = true;
        const auto on = predict(c, bundled_factor(c), &why);
        QVERIFY2(on, why.c_str());
        const double t_off = off->r.step_time_s, t_on = on->r.step_time_s;
        const double gain = 1 - t_on / t_off, published_gain = 1 - 20.9920 / 24.7138;
        qInfo().noquote() << QStringLiteral("EP overlap A/B: off %1 s (published 24.71 s, %2%), "
                                            "on %3 s (20.99 s, %4%), step %5% shorter "
                                            "(published %6%)")
                                 .arg(t_off, 0, 'f', 2)
                                 .arg((t_off / 24.7138 - 1) * 100, 0, 'f', 1)
                                 .arg(t_on, 0, 'f', 2)
                                 .arg((t_on / 20.9920 - 1) * 100, 0, 'f', 1)
                                 .arg(gain * 100, 0, 'f', 1)
                                 .arg(published_gain * 100, 0, 'f', 1);
        QVERIFY(std::abs(t_off / 24.7138 - 1) <= 0.10);
        QVERIFY(std::abs(t_on / 20.9920 - 1) <= 0.10);
        QVERIFY(std::abs(gain - published_gain) <= 0.05);
    }

    // Megatron-Core's NCCL all-to-all dispatcher against HybridEP on the same run (an outside
    // check: not in ../shared/validation, no factor fitted on it). Megatron-Bridge PR #3868
    // (docs/training/cuda-graphs.md at 1faf74e3, "Representative Validation Patterns"; the PR's
    // hand-off comment gives the layout): Qwen3-30B-A3B in BF16 on 16 H100 (2 nodes), EP 16,
    // TP/PP/CP 1, MBS 1, GBS 1024, the all-to-all dispatcher (flex backend None), EP overlap and
    // delayed weight gradients off: 41.36 s per eager step. The same layout with HybridEP and
    // without EP overlap: 24.71 s (the EP overlap A/B above).
    void allToAllDispatcherOutside() {
        Case c = case_named("A.mbridge_pr5123.H100.Qwen3_30B_A3B_BF16");
        QVERIFY(c.id != nullptr);
        std::string why;
        c.ep_overlap = false;
        const auto hybrid = predict(c, bundled_factor(c), &why);
        QVERIFY2(hybrid, why.c_str());
        c.deepep = false;
        const auto nccl = predict(c, bundled_factor(c), &why);
        QVERIFY2(nccl, why.c_str());
        const double t_nccl = nccl->r.step_time_s, t_hybrid = hybrid->r.step_time_s;
        const double ratio = t_nccl / t_hybrid, published_ratio = 41.36 / 24.7138;
        qInfo().noquote() << QStringLiteral("all-to-all dispatcher: %1 s (published 41.36 s, %2%), "
                                            "EP all-to-all %3 s of it; HybridEP %4 s; ratio %5 "
                                            "(published %6)")
                                 .arg(t_nccl, 0, 'f', 2)
                                 .arg((t_nccl / 41.36 - 1) * 100, 0, 'f', 1)
                                 .arg(nccl->r.breakdown.ep_comm, 0, 'f', 2)
                                 .arg(t_hybrid, 0, 'f', 2)
                                 .arg(ratio, 0, 'f', 3)
                                 .arg(published_ratio, 0, 'f', 3);
        QVERIFY(std::abs(t_nccl / 41.36 - 1) <= 0.15);
        QVERIFY(std::abs(ratio / published_ratio - 1) <= 0.10);
    }

    // Parallel folding's expert data-parallel group (Liu et al. 2025, arXiv:2504.14960 sec. 3):
    // expert gradients are reduced and their optimizer states sharded over EDP = TP x CP x DP /
    // (ETP x EP), the rest over DP x CP. Qwen3-30B-A3B on 16 H100 at DP 16: with EP 16 (EDP 1)
    // a GPU holds a sixteenth of the experts with unsharded states and sends no expert gradient;
    // with EP 4 (EDP 4) a quarter of the experts, states sharded four ways. The optimizer pass
    // (and the memory of the states) is then the same, and only EP 4 has EDP traffic: its
    // reduce-scatter and all-gather move the expert gradients and weights (2 + 2 B per param).
    void expertDataParallelGroup() {
        Case c = case_named("A.mbridge_pr5123.H100.Qwen3_30B_A3B_BF16");
        QVERIFY(c.id != nullptr);
        std::string why;
        c.ep_overlap = false;
        const auto ep16 = predict(c, bundled_factor(c), &why);
        QVERIFY2(ep16, why.c_str());
        c.ep = 4;
        const auto ep4 = predict(c, bundled_factor(c), &why);
        QVERIFY2(ep4, why.c_str());
        const TrainingResult &a = ep16->r, &b = ep4->r;
        QVERIFY(b.memory.expert_params_per_gpu > 3.9 * a.memory.expert_params_per_gpu);
        QVERIFY(std::abs(a.breakdown.optimizer / b.breakdown.optimizer - 1) < 1e-9);
        QVERIFY(std::abs(a.memory.per_gpu.optimizer / b.memory.per_gpu.optimizer - 1) < 1e-9);
        // The traffic table (explained step) of each layout.
        const auto traffic = [&](int ep) {
            ModelArch m = *cat_.model(c.model);
            TrainingSpec t;
            t.ep = ep;
            t.global_batch = c.gb;
            t.micro_batch = c.mb;
            t.seq = c.seq;
            t.moe_dispatcher = cl::model::MoeDispatcher::deepep;
            const auto topo = topologies_.find(std::string(c.system) + "/16");
            auto r = train_step(m, t, 16, *cat_.gpu("h100-sxm"), topo->second, {}, {}, {}, 0, true);
            return r.ok() ? r->traffic : std::vector<cl::model::GroupTraffic>{};
        };
        const auto row = [](const std::vector<cl::model::GroupTraffic>& v, const char* g) {
            for (const auto& x : v)
                if (x.group == g)
                    return std::optional<cl::model::GroupTraffic>(x);
            return std::optional<cl::model::GroupTraffic>();
        };
        const auto t16 = traffic(16), t4 = traffic(4);
        QVERIFY(row(t16, "DP") && !row(t16, "EDP"));
        // The DP row carries the non-expert gradients even where the experts send none.
        QCOMPARE(QString::fromStdString(row(t16, "DP")->what),
                 QStringLiteral("reduce-scatter of non-expert gradients, all-gather of weights"));
        const auto edp = row(t4, "EDP");
        QVERIFY(edp && edp->ranks == 4);
        QCOMPARE(QString::fromStdString(edp->what),
                 QStringLiteral("reduce-scatter of expert gradients, all-gather of weights"));
        QVERIFY(std::abs(edp->bytes / (b.memory.expert_params_per_gpu * 4.0) - 1) < 1e-9);
        QCOMPARE(QString::fromStdString(row(t4, "DP")->what),
                 QStringLiteral("reduce-scatter of non-expert gradients, all-gather of weights"));
    }

    // A.korthikanti2022.table4_layer_times_22B -- Korthikanti et al. 2022 Table 4: one layer of
    // the 22B model (h 6144, 64 heads, tp 8, s 2048, micro-batch 4) on A100: time overhead of
    // each technique vs the baseline (fwd + bwd, no recompute): sequence parallel -3%, full
    // recompute +39%, selective +7%, selective + SP +4%. Tolerance: +-5 points (the source's
    // own hint). Our step also holds the LM head and optimizer, which dilute the ratios a bit.
    // FP8 current scaling (Transformer Engine fp8_current_scaling.rst: an amax pass before each
    // cast; normalization.cpp: the norm is fused with the cast for delayed scaling only): per
    // layer and micro-batch, 2 B more per separately cast element (the out-projection's and the
    // MLP's second projection's inputs, every output gradient) and 4 B per norm-output element
    // (cast and transposed on its own). Llama 3 8B, TP 1, seq 8192 (T tokens): inputs
    // T (4096 + 14336), gradients T (6144 + 4096 + 2 x 14336 + 4096), norm outputs 2 T 4096.
    void fp8CurrentScalingPasses() {
        const ModelArch& m = *cat_.model("llama3-8b");
        const Topology topo = cl::test::single_system("dgx-h100");
        const GpuSpec& gpu = *cat_.gpu("h100-sxm");
        const auto step = [&](cl::model::Fp8Scaling scaling) {
            return fp8_step_s(m, fp8_spec(scaling), gpu, topo);
        };
        const double delayed = step(cl::model::Fp8Scaling::delayed);
        const double current = step(cl::model::Fp8Scaling::current);
        const double T = 8192;
        const double bytes = 2.0 * T * (18432 + 43008) + 4.0 * 2 * T * 4096;
        const double hbm = gpu.memory_bandwidth_Bps * TrainingAssumptions{}.memory_efficiency.value;
        // And the kernels (session 29): three per tensor cast on its own with current scaling
        // (amax, scale, cast) against one with delayed scaling, and none for the two norm-fed
        // inputs there: forward 4 x 3 against 2 x 1, backward 4 x 3 against 4 x 1, per layer
        // and micro-batch, each leaving the GPU idle for the kernel gap.
        const double kernels = (4 * 3 - 2) + (4 * 3 - 4);
        const double expected =
            32 * 16 * (bytes / hbm + kernels * TrainingAssumptions{}.kernel_gap_s.value);
        QVERIFY2(
            std::abs((current - delayed) / expected - 1) < 0.03,
            qPrintable(
                QStringLiteral("%1 s more, expected %2 s").arg(current - delayed).arg(expected)));
    }

    // MXFP8 (session 43; TE mxfp8.rst): a scale per 32 values, so each tensor is cast row-wise
    // and column-wise from the 16-bit data in one pass, 2 + 1 + 1 + 2/32 B per element, and the
    // norm is not fused with it. Against delayed scaling on B200 (3 B, the norm-fed inputs cast
    // inside the norm): +1.0625 B per separately cast element, +4.0625 B per norm-output element,
    // and the two norm-fed inputs' cast kernels forward. Llama 3 8B as above. Refused where
    // Transformer Engine has no MXFP8 (Hopper), saying so; the weight cache holds both copies.
    void mxfp8CastsBothWays() {
        const ModelArch& m = *cat_.model("llama3-8b");
        const Topology topo = cl::test::single_system("dgx-b200");
        const GpuSpec& gpu = *cat_.gpu("b200");
        TrainingSpec t = fp8_spec(cl::model::Fp8Scaling::mxfp8);
        const auto step = [&](cl::model::Fp8Scaling scaling) {
            return fp8_step_s(m, fp8_spec(scaling), gpu, topo);
        };
        const double delayed = step(cl::model::Fp8Scaling::delayed);
        const double mx = step(cl::model::Fp8Scaling::mxfp8);
        const double T = 8192;
        const double bytes = 1.0625 * T * (18432 + 43008) + 4.0625 * 2 * T * 4096;
        const double hbm = gpu.memory_bandwidth_Bps * TrainingAssumptions{}.memory_efficiency.value;
        const double expected =
            32 * 16 * (bytes / hbm + 2 * TrainingAssumptions{}.kernel_gap_s.value);
        QVERIFY2(
            std::abs((mx - delayed) / expected - 1) < 0.03,
            qPrintable(QStringLiteral("%1 s more, expected %2 s").arg(mx - delayed).arg(expected)));
        // Current scaling reads each tensor twice (5 B) and launches three kernels a cast: the
        // slowest of the three.
        QVERIFY(step(cl::model::Fp8Scaling::current) > mx);
        // Hopper: refused, naming the choice.
        t.fp8_scaling = cl::model::Fp8Scaling::mxfp8;
        auto h = train_step(m, t, 8, *cat_.gpu("h100-sxm"), cl::test::single_system("dgx-h100"), {},
                            {}, {});
        QVERIFY(!h.ok());
        QVERIFY2(h.error_text().find("--fp8-scaling") != std::string::npos &&
                     h.error_text().find("Blackwell") != std::string::npos,
                 h.error_text().c_str());
        // Before its memory is weighed (a job that would not fit says why it cannot run first).
        auto hm = training_memory(m, t, 8, *cat_.gpu("h100-sxm"), {}, false);
        QVERIFY2(!hm.ok() && hm.error_text().find("MXFP8 needs a Blackwell") != std::string::npos,
                 hm.error_text().c_str());
        QVERIFY(cl::model::fp8_recipe_refusal(t, gpu).empty()); // B200: runs
        // Memory: both FP8 copies of every weight, 2.0625 B a parameter instead of 1.
        const double w_mx = cl::model::state_bytes(t).weights;
        t.fp8_scaling = cl::model::Fp8Scaling::delayed;
        QCOMPARE(w_mx - cl::model::state_bytes(t).weights, 1.0625);
    }

    void recomputeOverheads() {
        ModelArch m;
        m.id = "gpt-22b";
        m.layers = 48;
        m.hidden = 6144;
        m.heads = m.kv_heads = 64;
        m.head_dim = 96;
        m.ffn = 4 * 6144;
        m.vocab = 51200;
        m.mlp = Mlp::gelu;
        m.tied_embeddings = true;
        m.layernorm = true;
        m.learned_positions = true;
        m.dropout = true;
        m.max_seq = 2048;
        const Topology topo = cl::test::single_system("dgx-a100");
        MemoryAssumptions ma;
        ma.flash_attention.value = 0; // Megatron 2022: no FlashAttention
        auto step = [&](const char* recompute, bool sp) {
            TrainingSpec t;
            t.tp = 8;
            t.global_batch = 4;
            t.micro_batch = 4;
            t.seq = 2048;
            t.dtype = cl::model::TrainingDtype::fp16;
            t.recompute = *cl::model::choice_from_string<cl::model::Recompute>(recompute);
            t.sequence_parallel = sp;
            t.zero = 1;
            auto r = train_step(m, t, 8, *cat_.gpu("a100-sxm-80gb"), topo, {}, {}, ma);
            if (!r.ok())
                qFatal("%s", r.error_text().c_str());
            const auto& b = r->breakdown;
            return b.compute + b.recompute + b.tp_comm;
        };
        const double base = step("none", false);
        qInfo("baseline per layer %.2f ms (published 19.6)", base / 48 * 1e3);
        struct Row {
            const char* name;
            const char* recompute;
            bool sp;
            double published_pct;
        } rows[] = {{"sequence parallel", "none", true, -3},
                    {"full recompute", "full", false, 39},
                    {"selective recompute", "selective", false, 7},
                    {"selective + sequence parallel", "selective", true, 4}};
        QString table =
            QStringLiteral("\n| technique | published overhead | predicted |\n|---|---|---|\n");
        bool ok = true;
        for (const Row& row : rows) {
            const double pct = (step(row.recompute, row.sp) / base - 1) * 100;
            table += QStringLiteral("| %1 | %2% | %3% |\n")
                         .arg(QString::fromLatin1(row.name))
                         .arg(row.published_pct, 0, 'f', 0)
                         .arg(pct, 0, 'f', 1);
            ok = ok && std::abs(pct - row.published_pct) <= 5.0;
        }
        qInfo().noquote() << table;
        QVERIFY2(ok, qPrintable(table));
    }
};

QTEST_APPLESS_MAIN(TestValidationTraining)
#include "tst_validation_training.moc"
