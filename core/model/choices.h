#pragma once
// The choices a design offers (precision, recompute, schedule, ...), as enums. Each has one
// table of names: the spelling in design files, CLI flags and the inspector. Text becomes an
// enum only at those boundaries (choice_from_string); the model compares enums, never strings.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cl::model {

enum class TrainingDtype { bf16, fp16, fp8, fp32 };
enum class Optimizer { adamw, adamw_8bit, sgd };
/// selective: Megatron's (Korthikanti et al. 2022 sec. 5: the attention core); selective-op:
/// PyTorch/torchtitan per-op selective checkpointing (every second matmul and every elementwise
/// op recomputed, attention saved: flops.h block_matmuls).
enum class Recompute { none, selective, full, selective_op };
enum class Schedule { one_f_one_b, interleaved, gpipe, zero_bubble };
enum class Finetune { full, lora, qlora };
enum class Offload { none, optimizer };
/// How MoE tokens reach their experts (docs/training.md): Megatron-Core's NCCL all-to-all of
/// every routed copy in 16 bits, or DeepEP's normal kernels (one copy per destination node over
/// RDMA, forwarded over NVLink; in BF16, as Megatron-Core sends it even in FP8 training).
enum class MoeDispatcher { alltoall, deepep };
/// How context-parallel ranks exchange keys and values (Megatron-Core --cp-comm-type): p2p, a
/// ring of K/V blocks overlapped with the attention (the default); allgather, every rank
/// gathers the whole sequence's K and V before attending and reduce-scatters their gradients
/// (Llama 3, Grattafiori et al. 2024 sec. 3.3.2: its latency is exposed on the critical path).
enum class CpComm { p2p, allgather };
/// How FP8 training scales its tensors (Transformer Engine recipes; Megatron-LM --fp8-recipe):
/// delayed scaling (scales from an amax history, one pass per quantisation; TE's and
/// Megatron-Core's default) or current scaling (per tensor, from the tensor itself: an amax pass
/// before the cast; Megatron's "tensorwise", NeMo/Megatron-Bridge "fp8_cs").
enum class Fp8Scaling { delayed, current, mxfp8 };
/// q4_k_m ... q8_0, q4_0: llama.cpp GGUF formats; mlx4/mlx8: MLX affine quantisation (group 64).
/// Both quantise the whole model, embeddings and LM head included (memory.h weight_bits).
enum class WeightsDtype {
    bf16,
    fp16,
    fp8,
    int8,
    int4,
    fp4,
    q4_k_m,
    q5_k_m,
    q6_k,
    q8_0,
    mlx4,
    mlx8,
    q4_0
};
enum class KvDtype { bf16, fp16, fp8, int8, fp4 };
/// With NVFP4 weights, the attention projections' format: as the model's published NVFP4
/// checkpoint has them (ModelArch::nvfp4_attention), in NVFP4 like the rest, in 16 bits, or in
/// 16 bits but the output projection (ModelOpt's exclude_modules lists in NVIDIA's NVFP4
/// checkpoints; docs/inference.md, "Which layers NVFP4 covers").
enum class Fp4Attention { checkpoint, fp4, bf16, bf16_except_output };
/// The 4-bit float format of a model's published FP4 checkpoint (ModelArch::fp4_format): NVFP4
/// (E2M1 with an FP8 E4M3 scale per 16 values: NVIDIA ModelOpt's checkpoints) or MXFP4 (the OCP
/// Microscaling format: E2M1 with an E8M0 scale per 32 values; gpt-oss ships its experts so).
enum class Fp4Format { nvfp4, mxfp4 };
enum class Batching { static_, continuous, chunked, disaggregated };
/// The serving engine: how it budgets GPU memory for the KV cache (docs/inference.md).
/// mlx: Apple's MLX through mlx-lm (unified memory, lazily evaluated graphs).
enum class ServingEngine { vllm, sglang, trtllm, llamacpp, mlx };
enum class ServingMode { offline, online };
enum class Commitment { on_demand, one_year, three_year, spot };
/// Fleet scheduling (issue 23): FIFO (the head blocks), priority (highest first, the head of
/// each level blocks), backfill (any waiting job that fits starts, in arrival order), preemptive
/// (priority, and a head that does not fit evicts preemptible jobs of lower priority).
enum class FleetPolicy { fifo, priority, backfill, preemptive };
/// How a MIG node's GPUs are partitioned (issue 23): every GPU into equal instances of one
/// profile, as NVIDIA mig-parted's all-1g / all-2g / all-3g configs do (7, 3 or 2 per GPU).
enum class MigProfile { g1, g2, g3, g4, g7 };
/// Capacity a fleet's waiting jobs burst to (issue 23): the cloud offer's on-demand instances,
/// or its spot capacity (cheaper, preempted: work since the last checkpoint is redone).
enum class BurstCapacity { on_demand, spot };
/// The default share of a time-sliced GPU's throughput its jobs keep while two or more want it
/// at once (FleetSpec and FleetMix timeslice_efficiency, the CLI's --timeslice-efficiency): NVIDIA
/// measured two models on one A100 under heavy load at 0.76 requests/s per GPU time-sliced vs
/// 1.00 with MIG (NVIDIA Technical Blog, "Maximize AI Infrastructure Throughput by Consolidating
/// Underutilized GPU Workloads", March 2026). Not a choice: kept here, beside the fleet's
/// choices, as the one header both the design and the fleet simulation include.
inline constexpr double kTimesliceEfficiencyDefault = 0.76;
/// A scale-out link's network (catalog links.json "protocol"; none for NVLink, PCIe, xGMI).
enum class NetProtocol { none, infiniband, ethernet };

/// What set the operating point's batch (helper-44: FP8 -> FP4 lowered the tokens/s of a
/// preset and nothing said the SLO had picked a smaller batch). A result, not an input: its
/// names are the CLI JSON's `batch_limit`.
enum class BatchLimit {
    design,       ///< the batch the design sets
    kv_cache,     ///< the most sequences the KV cache holds
    engine_limit, ///< the engine's max sequences (max_num_seqs, max_batch_size)
    requests,     ///< a batch job's requests a replica
    tpot_slo,     ///< online: a larger batch misses the TPOT SLO
    ttft_slo,     ///< online: a larger batch misses the TTFT SLO
    throughput    ///< online: the request rate a replica serves peaks at this batch
};

/// The names of a choice's values, in enum order (specialised below, one line each).
template <class E> struct ChoiceNames;
template <> struct ChoiceNames<TrainingDtype> {
    static constexpr std::array<std::string_view, 4> names{"bf16", "fp16", "fp8", "fp32"};
};
template <> struct ChoiceNames<Optimizer> {
    static constexpr std::array<std::string_view, 3> names{"adamw", "adamw-8bit", "sgd"};
};
template <> struct ChoiceNames<Recompute> {
    static constexpr std::array<std::string_view, 4> names{"none", "selective", "full",
                                                           "selective-op"};
};
template <> struct ChoiceNames<Schedule> {
    static constexpr std::array<std::string_view, 4> names{"1f1b", "interleaved", "gpipe",
                                                           "zero-bubble"};
};
template <> struct ChoiceNames<Finetune> {
    static constexpr std::array<std::string_view, 3> names{"full", "lora", "qlora"};
};
template <> struct ChoiceNames<Offload> {
    static constexpr std::array<std::string_view, 2> names{"none", "optimizer"};
};
template <> struct ChoiceNames<MoeDispatcher> {
    static constexpr std::array<std::string_view, 2> names{"alltoall", "deepep"};
};
template <> struct ChoiceNames<CpComm> {
    static constexpr std::array<std::string_view, 2> names{"p2p", "allgather"};
};
template <> struct ChoiceNames<Fp8Scaling> {
    static constexpr std::array<std::string_view, 3> names{"delayed", "current", "mxfp8"};
};
template <> struct ChoiceNames<WeightsDtype> {
    static constexpr std::array<std::string_view, 13> names{
        "bf16",   "fp16", "fp8",  "int8", "int4", "fp4", "q4_k_m",
        "q5_k_m", "q6_k", "q8_0", "mlx4", "mlx8", "q4_0"};
};
template <> struct ChoiceNames<KvDtype> {
    static constexpr std::array<std::string_view, 5> names{"bf16", "fp16", "fp8", "int8", "fp4"};
};
template <> struct ChoiceNames<Fp4Attention> {
    static constexpr std::array<std::string_view, 4> names{"checkpoint", "fp4", "bf16",
                                                           "bf16-except-output"};
};
template <> struct ChoiceNames<Fp4Format> {
    static constexpr std::array<std::string_view, 2> names{"nvfp4", "mxfp4"};
};
template <> struct ChoiceNames<Batching> {
    static constexpr std::array<std::string_view, 4> names{"static", "continuous", "chunked",
                                                           "disaggregated"};
};
template <> struct ChoiceNames<ServingEngine> {
    static constexpr std::array<std::string_view, 5> names{"vllm", "sglang", "trtllm", "llamacpp",
                                                           "mlx"};
};
template <> struct ChoiceNames<ServingMode> {
    static constexpr std::array<std::string_view, 2> names{"offline", "online"};
};
template <> struct ChoiceNames<Commitment> {
    static constexpr std::array<std::string_view, 4> names{"on-demand", "1y", "3y", "spot"};
};
template <> struct ChoiceNames<FleetPolicy> {
    static constexpr std::array<std::string_view, 4> names{"fifo", "priority", "backfill",
                                                           "preemptive"};
};
template <> struct ChoiceNames<MigProfile> {
    static constexpr std::array<std::string_view, 5> names{"1g", "2g", "3g", "4g", "7g"};
};
template <> struct ChoiceNames<BurstCapacity> {
    static constexpr std::array<std::string_view, 2> names{"on-demand", "spot"};
};
template <> struct ChoiceNames<NetProtocol> {
    static constexpr std::array<std::string_view, 3> names{"", "infiniband", "ethernet"};
};

template <> struct ChoiceNames<BatchLimit> {
    static constexpr std::array<std::string_view, 7> names{
        "design", "kv_cache", "engine_limit", "requests", "tpot_slo", "ttft_slo", "throughput"};
};

/// The file/flag spelling of a choice.
template <class E> constexpr std::string_view to_string(E e) {
    return ChoiceNames<E>::names[static_cast<std::size_t>(e)];
}

/// Parses a file/flag spelling; nullopt when it names no value of E.
template <class E> constexpr std::optional<E> choice_from_string(std::string_view s) {
    const auto& n = ChoiceNames<E>::names;
    for (std::size_t i = 0; i < n.size(); ++i)
        if (n[i] == s)
            return static_cast<E>(i);
    return std::nullopt;
}

/// All spellings of E, in enum order (the allowed values shown to people).
template <class E> std::vector<std::string> choice_names() {
    return {ChoiceNames<E>::names.begin(), ChoiceNames<E>::names.end()};
}

} // namespace cl::model
