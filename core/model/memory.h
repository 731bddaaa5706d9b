#pragma once
// Memory per GPU, training and inference.
// Sources: Rajbhandari et al. 2020 "ZeRO" (arXiv:1910.02054) sec. 3 and 5 for model states;
// Korthikanti et al. 2022 (arXiv:2205.05198) sec. 4 and Table 2 for activations;
// Dettmers et al. 2023 "QLoRA" (arXiv:2305.14314) sec. 3 for NF4; Hu et al. 2021 "LoRA"
// (arXiv:2106.09685) for adapters; Kwon et al. 2023 "vLLM" (arXiv:2309.06180) for the KV
// cache and paged allocation; DeepSeek-V2 (arXiv:2405.04434) sec. 2.1 for MLA.

#include "model/architecture.h"
#include "model/catalog.h"
#include "model/design.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace cl::model {

/// Bytes per GPU by category; `total` sums them.
struct MemoryBreakdown {
    double weights = 0, gradients = 0, optimizer = 0, activations = 0, kv_cache = 0, other = 0;
    [[nodiscard]] double total() const {
        return weights + gradients + optimizer + activations + kv_cache + other;
    }
};

/// Layers held by each pipeline stage. Layers need not divide pp: the first and last stages
/// (which also hold the embedding and the LM head) give up layers first, as Llama 3 ran 126
/// layers on 16 stages (Grattafiori et al. 2024 sec. 3.3.2).
std::vector<int> stage_layers(int layers, int pp);
/// Layers of stage `st` under the same rule, without allocating.
int stage_layer_count(int layers, int pp, int st);
/// Multi-token prediction modules trained with the model: ModelArch::mtp_layers when
/// TrainingSpec::mtp is on, else 0.
inline int mtp_modules(const ModelArch& m, const TrainingSpec& t) {
    return t.mtp ? m.mtp_layers : 0;
}
/// Parameters a full training run holds and saves: the model's and its trained multi-token
/// prediction modules'.
inline double trained_params(const ModelArch& m, const TrainingSpec& t) {
    return m.total_params() + (t.mtp ? m.mtp_params() : 0.0);
}
/// Decoder layers of stage `st` when `mtp` multi-token prediction modules follow the last
/// decoder layer on the last stage (Megatron-Core's default placement): the split counts each
/// module as one more layer of the model, so the last stage gives up a decoder layer for it
/// (DeepSeek-V3's 61 layers and one module over PP 8: 7, 8, ..., 8, 6 + the module). When the
/// last stage has fewer slots than modules, the modules are added on top of the plain split.
inline int decoder_layers_on_stage(int layers, int mtp, int pp, int st) {
    if (mtp <= 0)
        return stage_layer_count(layers, pp, st);
    if (stage_layer_count(layers + mtp, pp, pp - 1) < mtp)
        return stage_layer_count(layers, pp, st);
    return stage_layer_count(layers + mtp, pp, st) - (st == pp - 1 ? mtp : 0);
}
/// The most model chunks (PP x VPP) a model splits into: its layers plus the embedding and the
/// loss, which Megatron-LM can count as one pipeline layer each
/// (--account-for-embedding-in-pipeline-split, --account-for-loss-in-pipeline-split).
inline int max_pipeline_chunks(int layers) {
    return layers + 2;
}
/// Layers of a stage of `nl` layers that a full recompute runs again: all of them, or with
/// TrainingSpec::recompute_layers = N the first N of each of its vpp model chunks (Megatron-LM's
/// block method). 0 without full recompute.
int recomputed_layers(const TrainingSpec& t, int nl);

/// Bytes per parameter for weights, gradients and optimizer states.
struct StateBytes {
    double weights = 2, gradients = 2, optimizer = 12;
};
StateBytes state_bytes(const TrainingSpec& t);

/// Trainable LoRA parameters of the whole model: rank-r adapters on every linear layer of every
/// block (Hu et al. 2021; QLoRA, Dettmers et al. 2023, adapts all linear layers).
double lora_params(const ModelArch& m, int rank);

/// Model-state bytes per GPU for `params` parameters held by one model-parallel rank, sharded
/// by ZeRO stage over `shard` data-parallel ranks (ZeRO sec. 5.1-5.3: P_os, P_os+g, P_os+g+p).
MemoryBreakdown model_state_bytes(double params, const TrainingSpec& t, double shard);

/// Activation bytes of one transformer layer for one micro-batch, generalising Korthikanti et
/// al. 2022 Table 2 to GQA/MLA, SwiGLU, MoE and dropout-free models (see memory.cpp).
double layer_activation_bytes(const ModelArch& m, const TrainingSpec& t, int micro_batch,
                              bool flash_attention);

struct StageMemory {
    int stage = 0;
    int layers = 0;
    double params = 0;        ///< parameters on one GPU of this stage before ZeRO sharding
    double expert_params = 0; ///< of `params`: the routed experts' (trained), sharded over EDP
    MemoryBreakdown bytes;
};

struct TrainingMemory {
    MemoryBreakdown per_gpu; ///< the most loaded GPU (worst pipeline stage)
    double capacity_bytes = 0;
    double headroom_bytes = 0; ///< capacity - total (negative when it does not fit)
    bool fits = false;
    int worst_stage = 0;
    int dp = 1;
    int micro_batch = 1;
    double micro_batches_in_flight = 1;
    double params_per_gpu = 0;              ///< worst stage, before ZeRO sharding
    double expert_params_per_gpu = 0;       ///< of params_per_gpu: the trained routed experts'
    double trainable_params = 0;            ///< whole model (adapters only for LoRA/QLoRA)
    double offload_pcie_bytes_per_step = 0; ///< optimizer offload: gradients down + weights up
    std::vector<StageMemory> stages;        ///< first and last stage (when explained)
    std::string explanation;                ///< one line: why it does (not) fit
};

/// Bytes per value of one MXFP8 copy of a tensor: the FP8 value and its share of the E8M0 scale
/// each block of 32 consecutive values carries (Transformer Engine mxfp8.rst). The recipe keeps
/// two copies, row-wise and column-wise.
inline constexpr double kMxfp8CopyBytes = 1.0 + 1.0 / 32.0;

/// Why the training spec's recompute modules cannot run on this model and recipe, as
/// {flag, reason}; empty when they can (docs/training.md, "Recompute modules"). Whether the
/// recompute is selective is the caller's check (the layout search chooses it).
std::pair<std::string, std::string> recompute_modules_refusal(const ModelArch& m,
                                                              const TrainingSpec& t);

/// The FP8 recipe refused on this GPU, with the reason: MXFP8 needs a Blackwell data-centre GPU
/// (Transformer Engine mxfp8.rst: SM 10.0 and 10.3). Empty when the recipe runs there.
std::string fp8_recipe_refusal(const TrainingSpec& t, const GpuSpec& gpu);

/// The experts' data-parallel group (Megatron-Core parallel folding, EDP): the TP x CP x DP
/// GPUs of a pipeline stage regrouped as ETP x EP x EDP. Expert gradients are reduced and their
/// optimizer states sharded over it, the other parameters' over DP x CP.
inline int expert_data_parallel(const TrainingSpec& t, int dp) {
    return std::max(1, dp * t.cp * t.tp / std::max(1, t.expert_tp() * t.ep));
}

/// Memory of a training job on `gpus` GPUs of type `gpu`. Errors name the flag at fault.
/// explain = false skips the human-readable explanation (inner loops of the search).
Result<TrainingMemory> training_memory(const ModelArch& m, const TrainingSpec& t, int gpus,
                                       const GpuSpec& gpu, const MemoryAssumptions& a = {},
                                       bool explain = true);
/// The one-line verdict shown on badges ("fits: model states ... of 80 GB per GPU").
std::string explain_training_memory(const TrainingMemory& mem);

// ---- Inference -----------------------------------------------------------------------------

/// Bits per weight including group-scale overhead: bf16/fp16 16, fp8 8, int8 8 (per-channel
/// scales ~0), int4 4.25 (group 128 with fp16 scale + zero, AWQ/GPTQ default), fp4 4.5 (NVFP4:
/// one FP8 scale per 16 values; MXFP4, a model whose fp4_format says so, 4.25: one E8M0 scale
/// per 32 values, OCP Microscaling Formats (MX) v1.0 section 5).
double weight_bits(WeightsDtype dtype, Fp4Format fp4 = Fp4Format::nvfp4);
/// Formats that quantise the embedding and LM head too (GGUF, MLX), not only block linears.
bool quantises_embeddings(WeightsDtype dtype);
/// Bytes per KV element: bf16/fp16 2, fp8 1, int8 1, fp4 0.5625 (NVFP4 block scales).
double kv_element_bytes(KvDtype dtype);
/// KV-cache bytes per token for the whole model: 2 x layers x kv_heads x head_dim x bytes
/// (Kwon et al. 2023 sec. 3 with the GQA generalisation); MLA caches the compressed latent
/// plus the decoupled RoPE key: layers x (kv_lora_rank + qk_rope_head_dim) x bytes
/// (DeepSeek-V2 sec. 2.1.3). Sliding-window models: the average over layers at the model's
/// full context (CLI.md), kv_bytes_per_sequence(max_seq) / max_seq.
double kv_bytes_per_token(const ModelArch& m, KvDtype kv_dtype);
/// KV-cache bytes of one sequence of `tokens` tokens: local (sliding-window) layers keep at most
/// their window (architecture.h), every other layer every token.
double kv_bytes_per_sequence(const ModelArch& m, KvDtype kv_dtype, double tokens);

struct InferenceMemory {
    MemoryBreakdown per_gpu;
    double capacity_bytes = 0;
    double usable_bytes = 0;   ///< capacity x gpu_memory_utilization
    double headroom_bytes = 0; ///< usable - total
    bool fits = false;
    bool paged = true;
    double kv_bytes_per_token = 0;         ///< whole model
    double kv_bytes_per_token_per_gpu = 0; ///< this GPU's share
    double kv_capacity_tokens = 0;         ///< tokens the KV budget holds per replica
    double tokens_reserved_per_sequence = 0;
    double kv_waste_fraction = 0; ///< reserved but unused KV (paged: block tail; contiguous)
    int max_batch = 0;            ///< concurrent sequences that fit
    int batch = 0;                ///< the batch used (requested, or max_batch for auto)
    double weights_bytes_per_gpu = 0;
    double workspace_bytes = 0;
    double draft_weights_bytes_per_gpu = 0; ///< a speculative draft model's share (in weights)
    /// Does not fit on a discrete workstation or edge card (or with llama.cpp): the fewest
    /// layers llama.cpp would keep in system memory for it to fit; 0 = fits, or no such count.
    int fits_with_offload_layers = 0;
    std::string explanation;
};

/// The memory an engine's runtime takes beside weights, KV cache and workspace: llama.cpp's and
/// MLX's own assumptions, the framework overhead (CUDA context, allocator) for the others.
const Assumption& engine_runtime(const MemoryAssumptions& a, ServingEngine e);

/// How the engine budgets its KV cache, in words with the assumption's value (helper-45/46: the
/// KV in use differed between engines on one GPU with no word why): vLLM a fraction of the card
/// less weights, activations and runtime; SGLang a fraction of the card less weights;
/// TensorRT-LLM a fraction of what is free once weights, activations and runtime are loaded;
/// llama.cpp and MLX what the weights and one compute buffer leave.
std::string kv_budget_rule(const MemoryAssumptions& a, ServingEngine e);

/// The most sequences the engine batches at once: the assumption when set, else the engine's
/// own default -- TensorRT-LLM's max_batch_size 2,048 (LLM API / trtllm-build default); vLLM's
/// max_num_seqs 1,024 on GPUs with at least 70 GiB other than A100, else 256 (vllm/engine/
/// arg_utils.py get_batch_defaults, the same for the LLM class and the API server); SGLang and
/// llama.cpp / MLX keep 2,048 (not sourced: the value every engine had before).
int engine_max_num_seqs(const MemoryAssumptions& a, ServingEngine e, const GpuSpec& gpu);
/// Attention data parallelism is in effect: asked for, on an MoE model, over more than one GPU
/// (InferenceSpec::attention_dp; at TP 1 it changes nothing, a dense model is refused).
bool attention_dp_active(const ModelArch& m, const InferenceSpec& s);
/// The GPUs the routed experts are split over by expert (InferenceSpec::ep): the workload's
/// value, or the engine's default when it is 0 -- tp with attention DP, else 1 (every expert
/// split over the tp GPUs: TensorRT-LLM's "TP (default pattern)", docs/source/advanced/
/// expert-parallelism.md; vLLM without --enable-expert-parallel; SGLang --ep-size 1). 1 for a
/// dense model. Each expert is then split by tensor over tp / ep GPUs.
int expert_parallel_size(const ModelArch& m, const InferenceSpec& s);

/// NVFP4 weights: the attention projections' format this workload serves them in -- its own
/// choice, or the model's published checkpoint's (ModelArch::nvfp4_attention). Never
/// `checkpoint`; fp4 for any other weight format (nothing is left in 16 bits).
Fp4Attention fp4_attention_of(const ModelArch& m, const InferenceSpec& s);

/// Parameters per layer of the attention projections kept in 16 bits under NVFP4 weights
/// (fp4_attention_of: bf16 all of them, bf16_except_output all but the output projection);
/// 0 otherwise. They are stored, read and multiplied in 16 bits.
double attention_params_16bit(const ModelArch& m, const InferenceSpec& s);

/// Memory of one inference replica (tp x pp GPUs). batch 0 = auto (the largest that fits).
/// `draft`: a speculative-decoding draft model served beside it (Leviathan et al. 2023): its
/// weights and its KV cache of every sequence share the GPUs, split over the same TP (vLLM's
/// speculative draft tensor parallel size defaults to the target's).
Result<InferenceMemory> inference_memory(const ModelArch& m, const InferenceSpec& s,
                                         const GpuSpec& gpu, const MemoryAssumptions& a = {},
                                         const ModelArch* draft = nullptr);

} // namespace cl::model
