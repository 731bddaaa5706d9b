#include "model/schema.h"

#include "model/inference.h"

#include "model/catalog.h"
#include "model/evaluate.h"
#include "model/units.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <type_traits>

namespace cl::model {

namespace {

// ---- value conversion -------------------------------------------------------------------

template <class T> FieldValue to_value(const T& v) {
    if constexpr (std::is_same_v<T, bool>)
        return v;
    else if constexpr (std::is_enum_v<T>)
        return std::string(to_string(v));
    else if constexpr (std::is_arithmetic_v<T>)
        return static_cast<double>(v);
    else if constexpr (std::is_same_v<T, Assumption>)
        return v.value;
    else
        return std::string(v);
}

template <class T> void from_value(T& out, const FieldValue& v) {
    if constexpr (std::is_same_v<T, bool>) {
        if (const bool* b = std::get_if<bool>(&v))
            out = *b;
    } else if constexpr (std::is_enum_v<T>) {
        if (const auto* s = std::get_if<std::string>(&v))
            if (auto e = choice_from_string<T>(*s))
                out = *e;
    } else if constexpr (std::is_integral_v<T>) {
        if (const double* x = std::get_if<double>(&v))
            out = static_cast<T>(std::llround(*x));
    } else if constexpr (std::is_floating_point_v<T>) {
        if (const double* x = std::get_if<double>(&v))
            out = *x;
    } else if constexpr (std::is_same_v<T, Assumption>) {
        if (const double* x = std::get_if<double>(&v))
            out.value = *x;
    } else {
        if (const auto* s = std::get_if<std::string>(&v))
            out = *s;
    }
}

template <class T> constexpr FieldType type_of() {
    if constexpr (std::is_same_v<T, bool>)
        return FieldType::boolean;
    else if constexpr (std::is_enum_v<T>)
        return FieldType::choice;
    else if constexpr (std::is_integral_v<T>)
        return FieldType::integer;
    else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, Assumption>)
        return FieldType::number;
    else
        return FieldType::text;
}

// ---- where each section's struct lives in a design ----------------------------------------

Workload* workload_of(Design& d, std::string_view id) {
    for (auto& w : d.workloads)
        if (w.id == id)
            return &w;
    return nullptr;
}
struct DesignAt {
    static Design* at(Design& d, std::string_view id) { return id.empty() ? &d : nullptr; }
};
struct DeviceAt {
    static Device* at(Design& d, std::string_view id) { return d.device(id); }
};
struct LinkAt {
    static Link* at(Design& d, std::string_view id) {
        for (auto& l : d.links)
            if (l.id == id)
                return &l;
        return nullptr;
    }
};
struct WorkloadAt {
    static Workload* at(Design& d, std::string_view id) { return workload_of(d, id); }
};
struct TrainingAt {
    static TrainingSpec* at(Design& d, std::string_view id) {
        auto* w = workload_of(d, id);
        return w && w->kind == WorkloadKind::training ? &w->training : nullptr;
    }
};
struct InferenceAt {
    static InferenceSpec* at(Design& d, std::string_view id) {
        auto* w = workload_of(d, id);
        return w && w->kind == WorkloadKind::inference ? &w->inference : nullptr;
    }
};
struct EconomicsAt {
    static Economics* at(Design& d, std::string_view id) {
        return id.empty() ? &d.economics : nullptr;
    }
};
struct ReliabilityAt {
    static ReliabilityInputs* at(Design& d, std::string_view id) {
        return id.empty() ? &d.reliability : nullptr;
    }
};
struct FleetAt {
    static FleetMix* at(Design& d, std::string_view id) { return id.empty() ? &d.fleet : nullptr; }
};
struct AssumptionsAt {
    static ModelAssumptions* at(Design& d, std::string_view id) {
        return id.empty() ? &d.assumptions : nullptr;
    }
};

/// Builds one field: `ref` returns a reference to the member inside the section's struct.
template <class At, class Ref> struct Builder {
    Section section;
    Ref ref;
    Field make(std::string key, std::string label, std::string unit, double lo, double hi,
               std::string source, std::string help = {}) const {
        using Obj = std::remove_pointer_t<decltype(At::at(std::declval<Design&>(), {}))>;
        using T = std::remove_cvref_t<decltype(ref(std::declval<Obj&>()))>;
        Field f;
        f.section = section;
        f.key = std::move(key);
        f.label = std::move(label);
        f.type = type_of<T>();
        f.unit = std::move(unit);
        f.min = lo;
        f.max = hi;
        f.source = std::move(source);
        f.help = std::move(help);
        if constexpr (std::is_enum_v<T>)
            f.choices = choice_names<T>();
        const Obj defaults{};
        f.default_value = to_value(ref(const_cast<Obj&>(defaults)));
        auto r = ref;
        const FieldValue dflt = f.default_value;
        f.get = [r, dflt](const Design& d, std::string_view id) -> FieldValue {
            auto* o = At::at(const_cast<Design&>(d), id);
            return o ? to_value(r(*o)) : dflt;
        };
        f.set = [r](Design& d, std::string_view id, const FieldValue& v) {
            if (auto* o = At::at(d, id))
                from_value(r(*o), v);
        };
        return f;
    }
};
template <class At, class Ref> Builder<At, Ref> in(Section s, Ref r) {
    return {s, r};
}

#define CL_REF(path)                                                                               \
    [](auto& o) -> auto& {                                                                         \
        return o.path;                                                                             \
    }

Field& shown(Field& f, double scale, std::string unit, int decimals) {
    f.display_scale = scale;
    f.display_unit = std::move(unit);
    f.decimals = decimals;
    return f;
}

/// `applies` for device fields that belong to some kinds only (storage bandwidth on storage).
std::function<bool(const Design&, std::string_view)> only_on(std::vector<DeviceKind> kinds) {
    return [kinds = std::move(kinds)](const Design& d, std::string_view id) {
        const Device* dev = d.device(id);
        return dev && std::find(kinds.begin(), kinds.end(), dev->kind) != kinds.end();
    };
}

/// `applies` for serving fields that belong to one way of running only: the batch job's size
/// to an offline run on colocated GPUs without a draft model, the request rate and the latency
/// targets to online serving (helper-31: switching an offline job with its requests set to
/// online broke the workload; each mode's own fields now show in that mode, and keep their values
/// in the design for when it comes back).
std::function<bool(const Design&, std::string_view)>
serving_when(bool (*pred)(const InferenceSpec&)) {
    return [pred](const Design& d, std::string_view id) {
        const Workload* w = d.workload(id);
        return w && w->kind == WorkloadKind::inference && pred(w->inference);
    };
}

std::vector<Field> build_schema() {
    std::vector<Field> s;
    auto add = [&](Field f) -> Field& {
        if (f.display_unit.empty() && f.display_scale == 1)
            f.display_unit = f.unit;
        s.push_back(std::move(f));
        return s.back();
    };
    constexpr double kInt = 1 << 20;

    // Design
    add(in<DesignAt>(Section::design, CL_REF(name))
            .make("name", "Design name", "", 0, kMaxNameBytes, "you"));
    add(in<DesignAt>(Section::design, CL_REF(description))
            .make("description", "Description", "", 0, 0, "you"));

    // Devices
    add(in<DeviceAt>(Section::device, CL_REF(name))
            .make("name", "Name", "", 0, kMaxNameBytes, "you"));
    add(in<DeviceAt>(Section::device, CL_REF(count))
            .make("count", "Replicas", "", 1, 1e9, "you",
                  "copies of this device and of everything inside it"));
    {
        Field& f = add(in<DeviceAt>(Section::device, CL_REF(catalog))
                           .make("catalog", "Type", "", 0, 0, "catalog",
                                 "another catalog entry of the same kind"));
        f.type = FieldType::choice;
        f.choices_from = ChoiceSource::device_types;
        f.applies =
            only_on({DeviceKind::system, DeviceKind::switch_, DeviceKind::gpu, DeviceKind::nic});
    }
    {
        Field& f = add(in<DeviceAt>(Section::device, CL_REF(role))
                           .make("role", "Switch tier", "", 0, 0, "derived from the drawing",
                                 "empty = derived from the links"));
        f.type = FieldType::choice;
        f.choices = {"", "leaf", "spine", "core"};
        f.applies = only_on({DeviceKind::switch_});
    }
    {
        Field& f = add(in<DeviceAt>(Section::device, CL_REF(gpu_slots))
                           .make("gpu_slots", "GPU slots", "", 0, 1 << 16, "you",
                                 "GPUs the server holds; 0 (Unlimited): no limit"));
        f.applies = only_on({DeviceKind::server});
        f.zero_shows = "Unlimited";
    }
    {
        Field& f =
            add(in<DeviceAt>(Section::device, CL_REF(storage_bandwidth_Bps))
                    .make("storage_bandwidth_Bps", "Aggregate bandwidth", "B/s", 0, 1e21,
                          "you (new storage starts at 100 GB/s, an unsourced value to edit)"));
        shown(f, 1e9, "GB/s", 1);
        f.applies = only_on({DeviceKind::storage});
    }
    {
        Field& f = add(in<DeviceAt>(Section::device, CL_REF(storage_capacity_bytes))
                           .make("storage_capacity_bytes", "Capacity", "bytes", 0, 1e21,
                                 "you (new storage starts at 1 PB, an unsourced value to edit)"));
        shown(f, 1e12, "TB", 1);
        f.applies = only_on({DeviceKind::storage});
    }

    // Links
    {
        Field& f = add(in<LinkAt>(Section::link, CL_REF(type))
                           .make("type", "Type and speed", "", 0, 0, "catalog"));
        f.type = FieldType::choice;
        f.choices_from = ChoiceSource::link_types;
    }
    add(in<LinkAt>(Section::link, CL_REF(count))
            .make("count", "Cables per replica", "", 1, 1e9, "you"));

    // Workloads
    add(in<WorkloadAt>(Section::workload, CL_REF(name))
            .make("name", "Name", "", 0, kMaxNameBytes, "you"));
    {
        Field& f = add(in<WorkloadAt>(Section::workload, CL_REF(model))
                           .make("model", "Model", "", 0, 0, "model zoo (catalog models)"));
        f.type = FieldType::choice;
        f.choices_from = ChoiceSource::models;
    }

    // Training (Megatron-LM / Megatron-Core argument names where they exist)
    const auto T = [](auto ref) { return in<TrainingAt>(Section::training, ref); };
    add(T(CL_REF(tp)).make("tp", "Tensor parallel (TP)", "", 1, kInt, "you"));
    add(T(CL_REF(pp))
            .make("pp", "Pipeline parallel (PP)", "", 1, kInt, "you", "layers need not divide it"));
    add(T(CL_REF(vpp))
            .make("vpp", "Virtual stages (VPP)", "", 1, 1024, "you",
                  "model chunks per pipeline stage (interleaved schedule)"));
    add(T(CL_REF(cp))
            .make("cp", "Context parallel (CP)", "", 1, kInt, "you", "splits the sequence"));
    add(T(CL_REF(cp_comm_type))
            .make("cp_comm_type", "CP communication", "", 0, 0,
                  "p2p: Megatron-Core's default context-parallel communication",
                  "p2p: a ring of K/V blocks, hidden behind the attention; allgather: the whole "
                  "sequence's K and V gathered before attending and their gradients "
                  "reduce-scattered after, exposed (Llama 3 sec. 3.3.2)"));
    add(T(CL_REF(ep))
            .make("ep", "Expert parallel (EP)", "", 1, kInt, "you",
                  "experts split over EP of the TP × CP × DP GPUs (with ETP 1 EP may span TP "
                  "ranks)"));
    add(T(CL_REF(etp))
            .make("etp", "Expert tensor parallel (ETP)", "", 0, kInt,
                  "1: whole experts on each GPU, as NVIDIA's published MoE recipes run them "
                  "(Megatron-Bridge scripts/performance/configs: expert_tensor_parallel_size=1 "
                  "in every MoE base config: DeepSeek-V3, Qwen3, Qwen3-Next); Megatron-Core's "
                  "own default is the same as TP (0 here)",
                  "MoE parallel folding: experts split over ETP × EP of the TP × CP × DP GPUs, "
                  "so EP may span TP ranks (1: whole experts); 0: the same as TP"))
        .zero_shows = "Same as TP";
    add(T(CL_REF(moe_dispatcher))
            .make("moe_dispatcher", "MoE token dispatcher", "", 0, 0,
                  "alltoall: Megatron-Core's default MoE token dispatcher",
                  "alltoall: every routed copy over NCCL in 16 bits; deepep: DeepEP's kernels, one "
                  "copy per destination node over RDMA, in BF16 (as Megatron-Core sends it)"));
    add(T(CL_REF(ep_overlap))
            .make("ep_overlap", "Overlap EP communication", "", 0, 0,
                  "off: Megatron-Core's default (no MoE expert-parallel overlap)",
                  "all-to-alls run while another micro-batch computes (Megatron-Core EP overlap, "
                  "DeepSeek-V3 DualPipe); hidden time still slows the compute it shares SMs with"));
    add(T(CL_REF(mtp))
            .make("mtp", "Multi-token prediction", "", 0, 0,
                  "on: the model's MTP modules train with it, as the DeepSeek-V3 report (sec. 2.2, "
                  "one module) and Megatron-Bridge's DeepSeek-V3 recipe (one module) do; designs "
                  "saved before format 1.20 read as off",
                  "models with multi-token prediction modules (DeepSeek-V3/R1): each adds a "
                  "transformer block, a projection and a second pass through the output head and "
                  "loss on the last pipeline stage (Megatron-Core places them there); no effect "
                  "on other models"));
    add(T(CL_REF(global_batch))
            .make("global_batch", "Global batch (sequences)", "", 0, 1e9, "you",
                  "sequences per optimizer step (required to compute a step)"));
    add(T(CL_REF(micro_batch))
            .make("micro_batch", "Micro-batch", "", 0, kInt, "you",
                  "sequences per micro-batch; 0 (Auto): the fastest that fits"))
        .zero_shows = "Auto";
    add(T(CL_REF(seq)).make("seq", "Sequence length", "tokens", 1, 1 << 24, "you"));
    add(T(CL_REF(dtype)).make("dtype", "Precision", "", 0, 0, "bf16: Megatron-Core default"));
    add(T(CL_REF(fp8_scaling))
            .make("fp8_scaling", "FP8 scaling", "", 0, 0,
                  "delayed: Transformer Engine's and Megatron-Core's default FP8 recipe",
                  "FP8 only. delayed: scales from an amax history, one pass per cast, fused into "
                  "the norm; current: each tensor's own amax, read before the cast (Megatron "
                  "tensorwise, Megatron-Bridge's current scaling); mxfp8: a scale per 32 values, "
                  "each tensor cast row-wise and column-wise (Blackwell only)"));
    add(T(CL_REF(optimizer)).make("optimizer", "Optimizer", "", 0, 0, "AdamW: Megatron default"));
    add(T(CL_REF(zero))
            .make("zero", "ZeRO stage", "", 0, 3, "Megatron distributed optimizer = 1",
                  "0 none, 1 optimizer states, 2 + gradients, 3 + weights sharded (FSDP), over "
                  "the data-parallel group"));
    add(T(CL_REF(fp32_gradients))
            .make("fp32_gradients", "FP32 gradients", "", 0, 0,
                  "off: ZeRO (Rajbhandari et al. 2020 sec. 3.1); Megatron-LM in bf16 runs on "
                  "(its distributed optimizer guide)",
                  "gradients accumulated and reduced in fp32 (4 B per parameter, as Megatron-LM "
                  "does in bf16); off: in the training precision (2 B, DeepSpeed ZeRO)"));
    add(T(CL_REF(recompute))
            .make("recompute", "Activation recompute", "", 0, 0,
                  "selective: Korthikanti et al. 2022 sec. 5"));
    add(T(CL_REF(recompute_layers))
            .make("recompute_layers", "Layers recomputed per stage", "", 0, kInt,
                  "0: every layer (Megatron-LM --recompute-method uniform, one layer per "
                  "checkpoint)",
                  "full recompute only: the first N layers of each pipeline stage (of each "
                  "model chunk with VPP) run their forward again, the others keep their "
                  "activations (Megatron-LM --recompute-method block --recompute-num-layers N)"))
        .zero_shows = "Every layer";
    // Megatron-Core's recompute_modules (transformer_config.py), with selective recompute.
    add(T(CL_REF(recompute_layernorm))
            .make("recompute_layernorm", "Recompute norms", "", 0, 0,
                  "off: Megatron-Core's default recompute_modules is [\"core_attn\"]",
                  "selective only (Megatron \"layernorm\"): the norms that are modules of their "
                  "own (an MoE layer's pre-MLP norm, MLA's input norm) keep no output and run "
                  "again in backward; Transformer Engine fuses the others into the next linear"));
    add(T(CL_REF(recompute_moe_act))
            .make("recompute_moe_act", "Recompute MoE activation", "", 0, 0,
                  "off: Megatron-Core's default recompute_modules is [\"core_attn\"]",
                  "selective only (Megatron \"moe_act\"): the routed experts' activation "
                  "output is not kept and is computed again in backward"));
    add(T(CL_REF(recompute_mla_up_proj))
            .make("recompute_mla_up_proj", "Recompute MLA up-projection", "", 0, 0,
                  "off: Megatron-Core's default recompute_modules is [\"core_attn\"]",
                  "selective only, MLA models (Megatron \"mla_up_proj\"): the Q and KV "
                  "up-projections and RoPE run again in backward; the attention's Q, K and V "
                  "are not kept"));
    add(T(CL_REF(recompute_mlp))
            .make("recompute_mlp", "Recompute dense MLP", "", 0, 0,
                  "off: Megatron-Core's default recompute_modules is [\"core_attn\"]",
                  "selective only (Megatron \"mlp\"): the dense layers' MLP keeps only its "
                  "input and runs its forward again in backward (MoE layers unaffected)"));
    add(T(CL_REF(sequence_parallel))
            .make("sequence_parallel", "Sequence parallelism", "", 0, 0,
                  "on with TP: Korthikanti et al. 2022 sec. 4.2.2"));
    add(T(CL_REF(schedule))
            .make("schedule", "Pipeline schedule", "", 0, 0, "1F1B: PipeDream-Flush"));
    add(T(CL_REF(finetune)).make("finetune", "Fine-tuning", "", 0, 0, "full training"));
    add(T(CL_REF(lora_rank))
            .make("lora_rank", "LoRA rank", "", 1, 1 << 16,
                  "16: common PEFT setting (Hu et al. 2021 use 1-64)"));
    add(T(CL_REF(offload))
            .make("offload", "CPU offload", "", 0, 0, "None: optimizer states on the GPU",
                  "of the optimizer states"));
    {
        Field& f = shown(add(T(CL_REF(tokens))
                                 .make("tokens", "Tokens to train", "tokens", 0, 1e18, "you",
                                       "time, GPU-hours and cost to train them")),
                         1e9, "B tokens", 1);
        f.sensitivity = true;
        f.unset = "no run length (no time, GPU-hours or cost to train)";
    }

    // Inference
    const auto I = [](auto ref) { return in<InferenceAt>(Section::inference, ref); };
    add(I(CL_REF(tp)).make("tp", "Tensor parallel (TP)", "", 1, kInt, "you"));
    add(I(CL_REF(pp)).make("pp", "Pipeline parallel (PP)", "", 1, kInt, "you"));
    add(I(CL_REF(replicas))
            .make("replicas", "Replicas", "", 1, 1 << 24, "you", "serving replicas of tp*pp GPUs"));
    add(I(CL_REF(batch))
            .make("batch", "Batch", "sequences", 0, 1 << 24, "you",
                  "concurrent sequences; 0 (Auto): the largest that fits and meets the targets; "
                  "online, a set batch is the most a replica runs at once (the SLOs may pick "
                  "fewer)"))
        .zero_shows = "Auto";
    add(I(CL_REF(input_len))
            .make("input_len", "Input tokens", "tokens", 1, 1 << 26, "you", "prompt length"))
        .sensitivity = true;
    add(I(CL_REF(output_len))
            .make("output_len", "Output tokens", "tokens", 1, 1 << 26, "you",
                  "generated tokens per request"))
        .sensitivity = true;
    add(I(CL_REF(requests))
            .make("requests", "Requests in the batch job", "requests", 0, 1e6,
                  "0: a steady state (requests keep coming)",
                  "offline: a batch job of this many requests, all queued at the start and "
                  "spread evenly over the replicas; its throughput includes the ramp-up and the "
                  "drain (trtllm-bench and vllm bench throughput measure it so). A million at "
                  "most: a longer job runs at its steady state (0)"))
        .zero_shows = "Steady state";
    s.back().applies = serving_when(
        [](const InferenceSpec& x) { return batch_job_possible(x, !x.speculative_draft.empty()); });
    add(I(CL_REF(weights_dtype))
            .make("weights_dtype", "Weights", "", 0, 0, "bf16: checkpoint",
                  "format; int4 4.25 bits, fp4 4.5 bits with scales"));
    add(I(CL_REF(fp4_attention))
            .make("fp4_attention", "Attention projections (FP4)", "", 0, 0,
                  "as the model's published NVFP4 checkpoint: NVIDIA's DeepSeek NVFP4 "
                  "checkpoints leave q_a, q_b, kv_a and kv_b in 16 bits (ModelOpt "
                  "exclude_modules), its Qwen3-235B checkpoint quantises every linear",
                  "with FP4 weights: the attention projections in NVFP4 like the other layers, or "
                  "left in 16 bits (stored, read and multiplied as BF16) as many published NVFP4 "
                  "checkpoints leave them"));
    s.back().applies =
        serving_when([](const InferenceSpec& x) { return x.weights_dtype == WeightsDtype::fp4; });
    add(I(CL_REF(kv_dtype))
            .make("kv_dtype", "KV cache", "", 0, 0, "bf16: engine default", "format"));
    add(I(CL_REF(batching))
            .make(
                "batching", "Batching", "", 0, 0, "continuous: vLLM / TensorRT-LLM default",
                "static: a batch runs to its end, KV memory reserved for the longest; continuous: "
                "requests join and leave every step (paged KV)"));
    add(I(CL_REF(engine))
            .make("engine", "Serving engine", "", 0, 0, "vLLM",
                  "how the KV cache is budgeted: vLLM and SGLang take a fraction of the whole "
                  "card, TensorRT-LLM a fraction of what is free after weights and activations, "
                  "llama.cpp what the weights, one compute buffer and the context leave"));
    add(I(CL_REF(mode))
            .make("mode", "Mode", "", 0, 0, "Offline",
                  "Offline: the most tokens per second; online: the request rate below, within "
                  "the TTFT and TPOT targets"));
    shown(add(I(CL_REF(request_rate))
                  .make("request_rate", "Request rate", "1/s", 0, 1e9, "you",
                        "requests per second (online mode)")),
          1, "/s", 1);
    s.back().applies =
        serving_when([](const InferenceSpec& x) { return x.mode == ServingMode::online; });
    shown(add(I(CL_REF(ttft_slo_s))
                  .make("ttft_slo_s", "TTFT SLO", "s", 0, 1e6,
                        "MLPerf Inference Llama 2 70B server: 2 s; 0.5 s here",
                        "time-to-first-token objective")),
          1e-3, "ms", 0);
    s.back().applies =
        serving_when([](const InferenceSpec& x) { return x.mode == ServingMode::online; });
    shown(add(I(CL_REF(tpot_slo_s))
                  .make("tpot_slo_s", "TPOT SLO", "s", 0, 10,
                        "MLPerf Inference Llama 2 70B server: 200 ms; 50 ms here",
                        "time-per-output-token objective")),
          1e-3, "ms", 1);
    s.back().applies =
        serving_when([](const InferenceSpec& x) { return x.mode == ServingMode::online; });
    {
        Field& f = add(I(CL_REF(speculative_draft))
                           .make("speculative_draft", "Speculative draft", "", 0, 0,
                                 "none (Leviathan et al. 2023 when set)",
                                 "draft model for speculative decoding"));
        f.type = FieldType::choice;
        f.choices_from = ChoiceSource::draft_models;
    }
    add(I(CL_REF(offload_layers))
            .make("offload_layers", "Layers in system memory", "", 0, 1 << 20,
                  "0: every layer on the device (llama.cpp's GPU layers = layers - this)",
                  "layers whose weights and KV cache stay in system memory and run on the CPU"));
    add(I(CL_REF(attention_dp))
            .make("attention_dp", "Attention data parallel", "", 0, 0,
                  "off: TensorRT-LLM's default (enable_attention_dp false); its published MoE "
                  "throughput runs turn it on",
                  "MoE models: each GPU runs attention, dense layers, shared experts and the LM "
                  "head whole for its own sequences; the routed experts are split over the TP "
                  "GPUs (TensorRT-LLM enable_attention_dp, SGLang --enable-dp-attention)"));
    add(I(CL_REF(ep))
            .make("ep", "Expert parallel (EP)", "", 0, kInt,
                  "0: the engine's default, also with attention DP -- every expert split by "
                  "tensor over the TP GPUs (TensorRT-LLM without moe_expert_parallel_size, vLLM "
                  "without --enable-expert-parallel, SGLang --ep-size 1)",
                  "MoE models: the routed experts split by expert over EP of the TP GPUs and each "
                  "expert by tensor over TP / EP (TensorRT-LLM moe_expert_parallel_size); a step "
                  "waits for the GPU whose experts its tokens touch most"))
        .zero_shows = "Engine default";
    add(I(CL_REF(speculative_k))
            .make("speculative_k", "Draft tokens per step", "", 1, 64,
                  "4: the speculative tokens in vLLM's examples",
                  "draft tokens proposed per step (gamma in Leviathan et al. 2023)"));
    // The draft's settings show with a draft model (helper-31 found them beside "none").
    s.back().applies =
        serving_when([](const InferenceSpec& x) { return !x.speculative_draft.empty(); });
    shown(add(I(CL_REF(acceptance))
                  .make("acceptance", "Acceptance rate", "", 0, 1,
                        "0.7: Leviathan et al. 2023 Table 3 range", "alpha, of draft tokens")),
          1, "", 2);
    s.back().applies =
        serving_when([](const InferenceSpec& x) { return !x.speculative_draft.empty(); });

    // Economics: the cloud offer, commitment and horizon, then the numeric inputs
    const auto E = [](auto ref) { return in<EconomicsAt>(Section::economics, ref); };
    {
        Field& f =
            add(E(CL_REF(cloud_offer))
                    .make("cloud_offer", "Cloud offer", "", 0, 0,
                          "none chosen: the cheapest offer for the design's GPU",
                          "`catalog cloud`; empty = the cheapest on-demand offer for the GPU"));
        f.type = FieldType::choice;
        f.choices_from = ChoiceSource::cloud_offers;
    }
    add(E(CL_REF(commitment))
            .make("commitment", "Commitment", "", 0, 0,
                  "on demand unless chosen (cloud price lists bill by the hour)",
                  "cloud billing: on-demand and spot bill hours used, commitments every hour"));
    add(E(CL_REF(months))
            .make("months", "Horizon", "months", 1, 1200,
                  "36: a 3-year budget (ClusterLens guide, Cost)", "TCO horizon"));
    // The numeric cost inputs (defaults and sources: docs/cost.md); zero means "derive it"
    // where the label says so. Each is a sensitivity input.
    const auto money = [&](Field f) -> Field& {
        f.decimals = f.max <= 10 ? 3 : 2;
        f.sensitivity = true;
        return add(std::move(f));
    };
    const std::string cost = "ClusterLens guide, Cost";
    money(E(CL_REF(power_usd_per_kwh))
              .make("power_usd_per_kwh", "Electricity price", "USD/kWh", 0, 100, cost,
                    "EIA 2023 US industrial 0.06-0.09"));
    money(E(CL_REF(pue))
              .make("pue", "PUE", "ratio", 1, 5, cost,
                    "power usage effectiveness (new large facilities, Uptime Institute)"))
        .decimals = 2; // "1.30", as PUE is quoted (was "1.300 ratio")
    money(E(CL_REF(colo_usd_per_kw_month))
              .make("colo_usd_per_kw_month", "Colocation (per IT kW)", "USD/kW-month", 0, 1e6, cost,
                    "per IT kW per month (CBRE N. America H2 2024)"));
    money(E(CL_REF(staff_usd_per_year))
              .make("staff_usd_per_year", "Staff", "USD/year", 0, 1e12, cost,
                    "operations staff per year"));
    money(E(CL_REF(depreciation_years))
              .make("depreciation_years", "Depreciation", "years", 0.1, 100, cost,
                    "straight-line (hyperscalers 5-6)"));
    money(E(CL_REF(maintenance_fraction))
              .make("maintenance_fraction", "Maintenance", "of capex per year", 0, 1, cost,
                    "maintenance and support per year, of capex"));
    money(E(CL_REF(utilization))
              .make("utilization", "Utilization", "fraction", 0.001, 1, cost,
                    "fraction of hours the GPUs do paid work"));
    money(E(CL_REF(price_per_gpu_hour))
              .make("price_per_gpu_hour", "Cloud price", "USD/GPU-hour", 0, 1e6, cost,
                    "cloud on-demand price per GPU-hour, instead of an offer"))
        .unset = "the cloud offer's price";
    money(E(CL_REF(server_price_usd))
              .make("server_price_usd", "Server price", "USD/server", 0, 1e10, cost,
                    "one server of the GPU's reference system"))
        .unset = "the catalog price of the reference system";
    money(E(CL_REF(network_usd_per_gpu))
              .make("network_usd_per_gpu", "Network", "USD/GPU", 0, 1e7, cost,
                    "scale-out network per GPU"))
        .unset = "the switches and cables of the drawn fabric (or a generated non-blocking fat "
                 "tree)";
    money(E(CL_REF(storage_fraction))
              .make("storage_fraction", "Storage capex", "of server capex", 0, 10, cost,
                    "a fraction of server capex"));
    money(E(CL_REF(avg_power_fraction))
              .make("avg_power_fraction", "Average power draw", "of nameplate", 0.01, 1, cost,
                    "average draw / nameplate while working (Epoch AI)"));
    money(E(CL_REF(rack_power_kw))
              .make("rack_power_kw", "Rack power budget", "kW", 1, 1e4, cost,
                    "power one rack can feed and cool"));
    money(E(CL_REF(facility_power_cap_kw))
              .make("facility_power_cap_kw", "Facility power cap", "kW", 0, 1e9, cost,
                    "limits the GPU count"))
        .unset = "no cap";
    money(E(CL_REF(grid_kg_co2_per_kwh))
              .make("grid_kg_co2_per_kwh", "Grid carbon intensity", "kg CO2/kWh", 0, 10, cost,
                    "US average, EPA eGRID 2022"));
    money(E(CL_REF(commit_1y_discount))
              .make("commit_1y_discount", "1-year commitment discount", "fraction", 0, 0.99, cost,
                    "off on-demand, for offers without a listed 1-year price (median of "
                    "AWS/GCP/Azure/Lambda)"));
    money(E(CL_REF(commit_3y_discount))
              .make("commit_3y_discount", "3-year commitment discount", "fraction", 0, 0.99, cost,
                    "off on-demand, for offers without a listed 3-year price"));
    money(E(CL_REF(spot_preemptions_per_node_day))
              .make("spot_preemptions_per_node_day", "Spot preemptions", "per node-day", 0, 1e4,
                    cost, "per node per day (an assumption)"));
    money(E(CL_REF(spot_lost_hours_per_preemption))
              .make("spot_lost_hours_per_preemption", "Work lost per preemption", "h", 0, 1e4, cost,
                    "10 min restart + half an hourly checkpoint interval"));

    // Reliability
    add(in<ReliabilityAt>(Section::reliability, CL_REF(async_checkpoint))
            .make("async_checkpoint", "Asynchronous checkpoints", "", 0, 0,
                  "off: synchronous (CheckFreq, Mohan et al. 2021, when on)",
                  "snapshot to host memory, write in the background"));
    // The numeric reliability inputs (defaults and sources: docs/reliability.md).
    const auto rel = [&](Field f) -> Field& {
        if (f.unit == "B/s")
            shown(f, 1e9, "GB/s", 1);
        else if (f.key == "checkpoint_interval_s") // as the Reliability tab says it: 115.1 min
            shown(f, 60, "min", 1);
        else if (f.unit == "s" || f.unit == "h") // "32.6 s", "204.0 h", not "600.00 s"
            f.decimals = 1;
        else
            f.decimals = f.max <= 10 ? 3 : 2;
        return add(std::move(f));
    };
    const std::string rsrc = "ClusterLens guide, Reliability";
    const auto R = [](auto ref) { return in<ReliabilityAt>(Section::reliability, ref); };
    rel(R(CL_REF(node_failures_per_1000_node_days))
            .make("node_failures_per_1000_node_days", "Node failures", "per 1,000 node-days", 0,
                  1e6, rsrc, "Kokolis et al. units"))
        .unset = "the Llama 3 per-GPU rate";
    rel(R(CL_REF(mtbf_hours))
            .make("mtbf_hours", "Job MTBF", "h", 0, 1e7, rsrc,
                  "of the whole job, instead of the rates"))
        .unset = "the failure rate";
    rel(R(CL_REF(storage_bandwidth_Bps))
            .make("storage_bandwidth_Bps", "Storage bandwidth", "B/s", 0, 1e18, rsrc,
                  "aggregate write bandwidth"))
        .unset = "the design's storage, else Llama 3's 2 TB/s per 16,384 GPUs";
    rel(R(CL_REF(checkpoint_write_s))
            .make("checkpoint_write_s", "Checkpoint write", "s", 0, 1e8, rsrc,
                  "time to write one checkpoint"))
        .unset = "the checkpoint size / storage bandwidth";
    rel(R(CL_REF(restart_s))
            .make("restart_s", "Restart time", "s", 0, 1e8, rsrc,
                  "from a failure to training again"));
    rel(R(CL_REF(checkpoint_interval_s))
            .make("checkpoint_interval_s", "Checkpoint interval", "s", 0, 1e9, rsrc,
                  "between checkpoints"))
        .unset = "the optimum (Daly 2006)";
    rel(R(CL_REF(repair_hours))
            .make("repair_hours", "Node repair time", "h", 0, 1e5, rsrc,
                  "time a failed node is out (spares)"));
    rel(R(CL_REF(straggler_cv))
            .make("straggler_cv", "Step-time variation per GPU", "fraction", 0, 1, rsrc,
                  "per-GPU step-time coefficient of variation"));
    rel(R(CL_REF(run_days))
            .make("run_days", "Run length", "days", 0, 1e5, rsrc, "of the training run"))
        .unset = "the training run's tokens at its speed";

    // Fleet: the job mix the cluster runs (issue 23; docs/fleet.md). A class with rate 0 is
    // off; the sizes and durations are a starting point to edit, not measurements.
    const auto F = [](auto ref) { return in<FleetAt>(Section::fleet, ref); };
    const std::string fsrc = "assumption: a starting mix to edit (ClusterLens guide, Fleet)";
    // One class of the job mix: `cls` returns the class inside the mix (CL_REF(finetune)); each
    // field reaches its member through it.
    const auto job_class = [&](auto cls, const std::string& key, const std::string& label) {
        const auto member = [cls](auto m) {
            return [ cls, m ](auto& o) -> auto& {
                return cls(o).*m;
            };
        };
        const auto rate = member(&JobClassMix::arrival_rate_per_hour);
        const auto gpus = member(&JobClassMix::gpus_per_job);
        const auto hours = member(&JobClassMix::mean_duration_h);
        const auto prio = member(&JobClassMix::priority);
        const auto preempt = member(&JobClassMix::preemptible);
        const auto ckpt = member(&JobClassMix::checkpoint_interval_h);
        const auto swing = member(&JobClassMix::daily_swing);
        const auto weekend = member(&JobClassMix::weekend_factor);
        const auto on_mig = member(&JobClassMix::on_mig);
        const auto quota = member(&JobClassMix::quota_gpus);
        const auto duration_from = member(&JobClassMix::duration_from);
        const auto sliced = member(&JobClassMix::time_sliced);
        const auto busy = member(&JobClassMix::gpu_busy);
        const auto memory = member(&JobClassMix::gpu_memory_bytes);
        const auto cap = member(&JobClassMix::borrow_cap_gpus);
        const auto keep = member(&JobClassMix::keep_gpus);
        Field& r = add(F(rate).make(key + ".arrival_rate_per_hour", label + ": arrivals", "jobs/h",
                                    0, 1e6, "0: the class is off",
                                    "Poisson arrivals per hour; 0 leaves the class out"));
        r.decimals = 2;
        add(F(gpus).make(key + ".gpus_per_job", label + ": GPUs per job", "GPUs", 1, 1000000, fsrc,
                         "whole GPUs each job holds (gang admission)"));
        Field& d = add(F(hours).make(key + ".mean_duration_h", label + ": mean duration", "h",
                                     0.001, 1e6, fsrc, "mean of exponential durations"));
        d.decimals = 2;
        Field& from = add(F(duration_from)
                              .make(key + ".duration_from", label + ": duration from", "", 0, 0,
                                    "none: the mean duration typed above",
                                    "a training workload of this design: the mean duration is "
                                    "its time to train its tokens on the GPUs per job of this "
                                    "cluster (the training model)"));
        from.type = FieldType::choice;
        from.choices_from = ChoiceSource::training_workloads;
        add(F(prio).make(key + ".priority", label + ": priority", "", -100, 100, fsrc,
                         "higher runs first under the priority and preemptive policies"));
        add(F(preempt).make(key + ".preemptible", label + ": preemptible", "", 0, 0, fsrc,
                            "under the preemptive policy a job of higher priority may evict it"));
        Field& c =
            add(F(ckpt).make(key + ".checkpoint_interval_h", label + ": checkpoint every", "h", 0,
                             1e5, "assumption: a starting mix to edit; 0 = no checkpoint",
                             "an evicted job loses the work since its last checkpoint "
                             "(0: all of it) and restarts (the Reliability restart time)"));
        c.decimals = 2;
        // The day and the week (defaults: services swing by half around their mean, notebooks
        // and CI follow a working day and week; batch classes are flat).
        const std::string curve =
            "assumption: published cluster traces show daily and weekly cycles in submissions "
            "(Hu et al., SC '21, sec. 3; Jeon et al., ATC '19); edit to your load";
        Field& sw = add(F(swing).make(key + ".daily_swing", label + ": day/night swing", "fraction",
                                      0, 1, curve,
                                      "the arrival rate swings by this share around its mean, "
                                      "highest at the busiest hour (0: flat)"));
        sw.decimals = 2;
        Field& we = add(F(weekend).make(
            key + ".weekend_factor", label + ": weekend load", "fraction", 0, 10, curve,
            "the weekend's arrival rate relative to a weekday's "
            "(1: the same); the mean over a week stays the rate above"));
        we.decimals = 2;
        add(F(on_mig).make(key + ".on_mig", label + ": on MIG instances", "", 0, 0,
                           "off: whole GPUs (GPUs per job above)",
                           "each job takes one MIG instance on the MIG nodes (below) instead of "
                           "whole GPUs, as a Kubernetes pod asking for one nvidia.com/mig-<profile>"
                           "; its duration is its run time on that instance"));
        add(F(sliced).make(key + ".time_sliced", label + ": on time-sliced GPUs", "", 0, 0,
                           "off: whole GPUs (GPUs per job above)",
                           "each job takes one replica of a time-sliced GPU on the time-sliced "
                           "nodes (below), as a Kubernetes pod asking for one GPU that NVIDIA's "
                           "device plugin shares by time-slicing; its duration is its run time "
                           "with the GPU to itself"));
        Field& gb = add(F(busy).make(
            key + ".gpu_busy", label + ": GPU busy when alone", "fraction", 0.01, 1,
            "100 %: a job keeps the GPU busy all its run, so sharing gains nothing; measure "
            "yours with nvidia-smi's utilization or DCGM's graphics-engine activity",
            "the share of its run a job on a time-sliced GPU keeps the GPU busy when it has the "
            "GPU to itself; jobs sharing a GPU run at full speed while their shares and the "
            "switching between them fit in the GPU, then slow down in proportion"));
        gb.decimals = 2;
        // Only a class on time-sliced GPUs has a busy share and a memory there (helper-32: shown
        // for every class).
        const auto on_sliced = [cls](const Design& design, std::string_view) {
            return cls(design.fleet).time_sliced;
        };
        gb.applies = on_sliced;
        shown(add(F(memory).make(
                  key + ".gpu_memory_bytes", label + ": GPU memory per job", "bytes", 0, 1e13,
                  "0: not stated, jobs share a GPU up to its replicas whatever their memory; "
                  "measure yours (nvidia-smi's per-process memory)",
                  "on time-sliced GPUs: the GPU memory one job holds; time-slicing gives no "
                  "memory isolation (NVIDIA GPU Operator docs), so jobs share a GPU only while "
                  "their memory fits in it together, and a job waits when no GPU has room")),
              1e9, "GB", 1);
        s.back().applies = on_sliced;
        add(F(quota).make(key + ".quota_gpus", label + ": team quota", "GPUs", 0, 10000000,
                          "0: no quota (Kueue ClusterQueue nominalQuota when set)",
                          "the most GPUs (on MIG: instances) the class holds at once; a job that "
                          "would go over it waits and holds up only this class"));
        Field& bc = add(F(cap).make(key + ".borrow_cap_gpus", label + ": most GPUs with borrowing",
                                    "GPUs", 0, 10000000, "",
                                    "when teams borrow unused quota: the most GPUs (on MIG: "
                                    "instances) the class holds with what it borrows, its quota "
                                    "included (Kueue borrowingLimit = this - the quota)"));
        bc.unset = "no cap (Kueue ClusterQueue without a borrowingLimit)";
        add(F(keep).make(key + ".keep_gpus", label + ": quota never lent", "GPUs", 0, 10000000,
                         "0: lends all of its quota it leaves unused (Kueue ClusterQueue without "
                         "a lendingLimit)",
                         "when teams borrow unused quota: the part of the class's quota the "
                         "other teams never borrow (Kueue lendingLimit = the quota - this)"));
    };
    job_class(CL_REF(training), "training", "Training runs");
    job_class(CL_REF(finetune), "finetune", "Fine-tunes");
    job_class(CL_REF(batch_inference), "batch_inference", "Batch inference");
    job_class(CL_REF(online), "online", "Online services");
    job_class(CL_REF(interactive), "interactive", "Notebooks and CI");
    {
        Field& ph = add(F(CL_REF(peak_hour))
                            .make("peak_hour", "Busiest hour of the day", "h", 0, 24,
                                  "14: afternoon, the assumption above",
                                  "of the classes' daily curves (day 0 starts Monday 0:00)"));
        ph.decimals = 1;
    }
    add(F(CL_REF(policy))
            .make("policy", "Scheduling policy", "", 0, 0,
                  "backfill: what Slurm and Kueue clusters run by default",
                  "fifo: the head of the queue blocks; priority: the highest priority number "
                  "first; backfill: any "
                  "waiting job that fits starts; preemptive: priority, and a job that does not "
                  "fit evicts preemptible jobs of lower priority"));
    add(F(CL_REF(topology_aware))
            .make("topology_aware", "Topology-aware placement", "", 0, 0,
                  "on: a job that fits a node gets one node, a larger one whole nodes",
                  "off: a job's GPUs anywhere"));
    add(F(CL_REF(leaf_required))
            .make("leaf_required", "Wait for one leaf switch", "", 0, 0,
                  "off: a job starts on the fewest leaf switches free (Kueue topology-aware "
                  "scheduling, preferred)",
                  "on: a job that fits under one leaf waits until one leaf has its nodes free "
                  "(Kueue, required); needs topology-aware placement"));
    add(F(CL_REF(quota_borrowing))
            .make("quota_borrowing", "Teams borrow unused quota", "", 0, 0,
                  "off: each team quota is a hard cap (Kueue ClusterQueues without a cohort)",
                  "on: a team over its quota may use what the other quotas leave unused (a Kueue "
                  "cohort); under the preemptive policy a team within its quota takes lent GPUs "
                  "back by evicting borrowers' preemptible jobs"));
    // One decimal: a trace's replay sets days such as 1.5 (helper-34 read "2 days").
    add(F(CL_REF(horizon_days))
            .make("horizon_days", "Simulated days", "days", 0.01, 3650, fsrc, "fleet horizon"))
        .decimals = 1;
    add(F(CL_REF(warmup_days))
            .make("warmup_days", "Warm-up left out", "days", 0, 3650, "3: the queue starts empty",
                  "days at the start every statistic leaves out"))
        .decimals = 1;
    {
        Field& b = add(F(CL_REF(burst_after_h))
                           .make("burst_after_h", "Burst to the cloud after waiting", "h", 0, 1e5,
                                 "0: never (a job waits for the cluster)",
                                 "a job that waited this long runs in the cloud, billed at the "
                                 "cloud offer's rate (below)"));
        b.decimals = 2;
    }
    add(F(CL_REF(burst_to))
            .make("burst_to", "Burst capacity", "", 0, 0,
                  "on-demand: the Cost section's cloud offer at its on-demand price (or the typed "
                  "cloud price)",
                  "spot: the offer's spot price; each node of a burst job is preempted at the "
                  "Cost section's spot rate and every preemption redoes the work lost (its work "
                  "lost per preemption)"));
    add(F(CL_REF(feed_tco))
            .make("feed_tco", "Bill the simulated utilization", "", 0, 0,
                  "on: the TCO uses the fleet's utilization instead of the typed one",
                  "off: the Cost section's utilization is used"));
    add(F(CL_REF(failures))
            .make("failures", "Node failures", "", 0, 0,
                  "on: the Reliability section's failure rate and repair time",
                  "nodes fail and are repaired; the jobs on a failed node lose the work since "
                  "their last checkpoint and restart"));
    add(F(CL_REF(mig_nodes))
            .make("mig_nodes", "MIG nodes", "nodes", 0, 1e7,
                  "0: no MIG (NVIDIA MIG user guide: A100, H100, H200, B200, GB200)",
                  "nodes whose GPUs are partitioned into MIG instances for the classes marked "
                  "'on MIG instances'; the other classes run on the other nodes"));
    add(F(CL_REF(mig_profile))
            .make("mig_profile", "MIG partition", "", 0, 0,
                  "1g: seven instances per GPU (NVIDIA mig-parted all-1g.10gb)",
                  "every GPU of a MIG node into equal instances: 1g (7 per GPU, 1/7 of the SMs "
                  "and 1/8 of the memory each), 2g (3 per GPU), 3g (2 per GPU, half the "
                  "memory each), 4g (1 per GPU, 4 of the 7 compute slices; the rest idle) or 7g "
                  "(the whole GPU as one instance)"));
    add(F(CL_REF(timeslice_nodes))
            .make("timeslice_nodes", "Time-sliced nodes", "nodes", 0, 1e7,
                  "0: no time-slicing; see NVIDIA GPU Operator, Time-Slicing GPUs in Kubernetes",
                  "nodes (not MIG ones) whose GPUs are shared by time-slicing among the classes "
                  "marked 'on time-sliced GPUs'; the other classes run on the other nodes"));
    add(F(CL_REF(timeslice_replicas))
            .make("timeslice_replicas", "Replicas per time-sliced GPU", "replicas", 1, 1024,
                  "4: the example in NVIDIA GPU Operator's time-slicing documentation",
                  "jobs one time-sliced GPU takes at once (the replicas NVIDIA's device plugin "
                  "advertises for each GPU); they share its memory with no isolation between "
                  "them"));
    {
        Field& e = add(
            F(CL_REF(timeslice_efficiency))
                .make("timeslice_efficiency", "Time-sliced GPU throughput when shared", "fraction",
                      0.05, 1,
                      "76 %: NVIDIA measured two models on one A100 under heavy load serving 0.76 "
                      "requests/s per GPU time-sliced against 1.00 with MIG (NVIDIA Technical "
                      "Blog, Maximize AI Infrastructure Throughput by Consolidating Underutilized "
                      "GPU Workloads, March 2026); at most that, as MIG loses some too",
                      "the share of a time-sliced GPU's throughput its jobs keep while two or more "
                      "of them want it at once, the rest going to switching between their "
                      "contexts (jobs that seldom overlap lose little); 100 %: switching costs "
                      "nothing"));
        e.decimals = 2;
    }
    add(F(CL_REF(seed))
            .make("seed", "Random seed", "", 0, 1e15, "1", "the same seed, the same run"));

    // Assumptions: key "group.name"; unit and source come from the default (assumptions.h)
    auto A = [&](std::string key, std::string label, double lo, double hi, auto ref,
                 int decimals = 3) -> Field& {
        Field f = in<AssumptionsAt>(Section::assumptions, ref)
                      .make(std::move(key), std::move(label), "", lo, hi, "");
        const ModelAssumptions defaults;
        const Assumption& a = ref(const_cast<ModelAssumptions&>(defaults));
        f.unit = a.unit;
        f.source = a.source;
        f.decimals = decimals;
        return add(std::move(f));
    };
    A("training.sustained_vs_best_gemm", "GEMM: sustained vs best", 0.05, 1.5,
      CL_REF(training.sustained_vs_best_gemm));
    A("training.hopper_sustained_vs_ampere", "GEMM: Hopper/Blackwell vs Ampere, sustained", 0.05,
      1.5, CL_REF(training.hopper_sustained_vs_ampere));
    A("training.attention_vs_gemm", "Attention vs GEMM efficiency", 0.05, 2,
      CL_REF(training.attention_vs_gemm));
    A("training.memory_efficiency", "HBM efficiency (training)", 0.05, 1,
      CL_REF(training.memory_efficiency));
    A("training.tp_overlap", "TP communication hidden", 0, 1, CL_REF(training.tp_overlap));
    A("training.dp_overlap", "DP communication hidden", 0, 1, CL_REF(training.dp_overlap));
    A("training.moe_imbalance", "MoE expert load imbalance", 1, 10, CL_REF(training.moe_imbalance));
    A("training.overlap_sm_contention", "Slowdown while overlapping comms", 0, 1,
      CL_REF(training.overlap_sm_contention));
    shown(A("training.kernel_gap_s", "GPU idle per kernel launched", 0, 1e-3,
            CL_REF(training.kernel_gap_s)),
          1e-6, "µs", 1);
    A("training.step_overhead_s", "Per-step overhead (training)", 0, 3600,
      CL_REF(training.step_overhead_s));
    shown(A("memory.framework_overhead_bytes", "Framework memory per GPU", 0, 1e12,
            CL_REF(memory.framework_overhead_bytes)),
          1e9, "GB", 2);
    A("memory.flash_attention", "FlashAttention", 0, 1, CL_REF(memory.flash_attention), 0);
    A("memory.gpu_memory_utilization", "Serving memory fraction", 0.05, 1,
      CL_REF(memory.gpu_memory_utilization));
    A("memory.sglang_mem_fraction_static", "SGLang static memory fraction", 0.05, 1,
      CL_REF(memory.sglang_mem_fraction_static));
    A("memory.trtllm_free_memory_fraction", "TensorRT-LLM KV fraction of free memory", 0.05, 1,
      CL_REF(memory.trtllm_free_memory_fraction));
    A("memory.kv_block_tokens", "KV block (tokens)", 1, 4096, CL_REF(memory.kv_block_tokens), 0);
    A("memory.trtllm_kv_block_tokens", "TensorRT-LLM KV block (tokens)", 1, 4096,
      CL_REF(memory.trtllm_kv_block_tokens), 0);
    A("memory.max_batched_tokens", "Max batched tokens", 1, 1e7, CL_REF(memory.max_batched_tokens),
      0);
    A("memory.max_num_seqs", "Max concurrent sequences", 0, 1e7, CL_REF(memory.max_num_seqs), 0)
        .unset = "the engine's default (TensorRT-LLM 2,048; vLLM 1,024, or 256 on A100 and GPUs "
                 "under 70 GiB)";
    A("memory.llamacpp_ubatch_tokens", "llama.cpp physical batch (tokens)", 1, 1e6,
      CL_REF(memory.llamacpp_ubatch_tokens), 0);
    shown(A("memory.llamacpp_runtime_bytes", "llama.cpp runtime memory", 0, 1e12,
            CL_REF(memory.llamacpp_runtime_bytes)),
          1e9, "GB", 2);
    A("memory.mlx_prefill_step_tokens", "MLX prefill step (tokens)", 1, 1e6,
      CL_REF(memory.mlx_prefill_step_tokens), 0);
    A("memory.mlx_kv_step_tokens", "MLX KV cache step (tokens)", 1, 1e5,
      CL_REF(memory.mlx_kv_step_tokens), 0);
    shown(A("memory.mlx_runtime_bytes", "MLX runtime memory", 0, 1e12,
            CL_REF(memory.mlx_runtime_bytes)),
          1e9, "GB", 2);
    A("memory.unified_memory_gpu_fraction", "Unified memory the model may use", 0.05, 1,
      CL_REF(memory.unified_memory_gpu_fraction));
    A("inference.memory_efficiency", "HBM efficiency (serving)", 0.05, 1,
      CL_REF(inference.memory_efficiency));
    A("inference.fp4_weight_stream_efficiency", "NVFP4 GEMM weight streaming", 0.05, 1,
      CL_REF(inference.fp4_weight_stream_efficiency));
    A("inference.mxfp4_moe_stream_efficiency", "MXFP4 MoE weight streaming", 0, 1,
      CL_REF(inference.mxfp4_moe_stream_efficiency));
    shown(A("inference.fp4_grouped_matrix_fixed_bytes",
            "NVFP4 grouped GEMM: fixed cost per expert matrix", 0, 1e9,
            CL_REF(inference.fp4_grouped_matrix_fixed_bytes)),
          1e6, "MB", 2);
    shown(A("inference.fp4_grouped_gemm_flops", "NVFP4 grouped GEMM (MoE) rate", 0, 1e17,
            CL_REF(inference.fp4_grouped_gemm_flops)),
          1e15, "PFLOP/s", 2);
    A("inference.fp4_grouped_gemm_k0", "NVFP4 grouped GEMM: per-tile cost (K elements)", 0, 1e6,
      CL_REF(inference.fp4_grouped_gemm_k0), 0);
    shown(A("inference.moe_routing_s_per_token", "MoE routing per token", 0, 1e-3,
            CL_REF(inference.moe_routing_s_per_token)),
          1e-9, "ns", 1);
    shown(A("inference.moe_routing_s_per_choice", "MoE routing per token and expert choice", 0,
            1e-6, CL_REF(inference.moe_routing_s_per_choice)),
          1e-12, "ps", 1);
    A("inference.llamacpp_memory_efficiency", "Memory efficiency (llama.cpp)", 0.05, 1,
      CL_REF(inference.llamacpp_memory_efficiency));
    A("inference.mlx_memory_efficiency", "Memory efficiency (MLX)", 0.05, 1,
      CL_REF(inference.mlx_memory_efficiency));
    A("inference.sustained_vs_best_gemm", "Serving GEMM: sustained vs best", 0.05, 1.5,
      CL_REF(inference.sustained_vs_best_gemm));
    A("inference.roofline_overlap_exponent", "GEMM compute and memory overlap", 1, 1000,
      CL_REF(inference.roofline_overlap_exponent), 2);
    shown(A("inference.step_overhead_s", "Engine step overhead", 0, 10,
            CL_REF(inference.step_overhead_s)),
          1e-3, "ms", 2);
    shown(A("inference.gemm_fixed_s", "Fixed time per GEMM kernel", 0, 1e-3,
            CL_REF(inference.gemm_fixed_s)),
          1e-6, "µs", 2);
    shown(A("inference.attention_fixed_s", "Fixed time per attention kernel", 0, 1e-3,
            CL_REF(inference.attention_fixed_s)),
          1e-6, "µs", 2);
    shown(A("inference.elementwise_fixed_s", "Fixed time per elementwise kernel", 0, 1e-3,
            CL_REF(inference.elementwise_fixed_s)),
          1e-6, "µs", 2);
    A("inference.attention_dp_balance", "Attention-DP load balance", 0.05, 1,
      CL_REF(inference.attention_dp_balance));
    A("inference.attention_dp_balanced_decode", "Balanced decode (TensorRT-LLM)", 0, 1,
      CL_REF(inference.attention_dp_balanced_decode), 0);
    shown(A("inference.trtllm_host_s_per_sequence", "Host time per sequence (TensorRT-LLM)", 0,
            1e-2, CL_REF(inference.trtllm_host_s_per_sequence)),
          1e-6, "µs", 1);
    shown(A("inference.trtllm_host_s_per_sequence_grace",
            "Host time per sequence, Grace (TensorRT-LLM)", 0, 1e-2,
            CL_REF(inference.trtllm_host_s_per_sequence_grace)),
          1e-6, "µs", 1);
    A("inference.trtllm_cuda_graph_padding", "CUDA-graph padding (TensorRT-LLM)", 0, 1,
      CL_REF(inference.trtllm_cuda_graph_padding), 0);
    A("inference.trtllm_eager_ops_per_layer", "Eager ops per layer (TensorRT-LLM)", 0, 1000,
      CL_REF(inference.trtllm_eager_ops_per_layer), 0);
    shown(A("inference.trtllm_eager_s_per_op", "Host time per eager op (TensorRT-LLM)", 0, 1e-2,
            CL_REF(inference.trtllm_eager_s_per_op)),
          1e-6, "µs", 2);
    shown(A("inference.trtllm_eager_s_per_op_grace", "Host time per eager op, Grace (TensorRT-LLM)",
            0, 1e-2, CL_REF(inference.trtllm_eager_s_per_op_grace)),
          1e-6, "µs", 2);
    shown(A("inference.trtllm_eager_s_per_op_fp4", "Host time per eager op, NVFP4 (TensorRT-LLM)",
            0, 1e-2, CL_REF(inference.trtllm_eager_s_per_op_fp4)),
          1e-6, "µs", 2);
    shown(A("inference.trtllm_eager_s_per_op_fp4_grace",
            "Host time per eager op, NVFP4 on Grace (TensorRT-LLM)", 0, 1e-2,
            CL_REF(inference.trtllm_eager_s_per_op_fp4_grace)),
          1e-6, "µs", 2);
    A("inference.draft_cost_ratio", "Draft cost ratio", 0, 10, CL_REF(inference.draft_cost_ratio))
        .unset = "the draft model's own step time (roofline)";
    shown(A("inference.host_memory_bandwidth_Bps", "Host memory bandwidth", 1e8, 1e13,
            CL_REF(inference.host_memory_bandwidth_Bps)),
          1e9, "GB/s", 1);
    A("inference.numa_nodes_used", "NUMA nodes holding the model", 1, 1024,
      CL_REF(inference.numa_nodes_used), 0);
    A("inference.dequant_ops_per_weight", "Dequantisation ops per weight", 0, 100,
      CL_REF(inference.dequant_ops_per_weight), 1);
    A("inference.dequant_tile_tokens", "Dequantisation tile (tokens)", 1, 1e5,
      CL_REF(inference.dequant_tile_tokens), 0);
    // Fractions read as percentages on screen (issue 21: "0.800 fraction"); files and flags
    // keep the fraction.
    for (Field& f : s) {
        if (f.unit == "fraction" && f.display_scale == 1)
            shown(f, 0.01, "%", std::max(0, f.decimals - 2));
        else if (f.unit.rfind("of ", 0) == 0 && f.display_scale == 1) // "of server capex"
            shown(f, 0.01, "% " + f.unit, std::max(1, f.decimals - 2));
    }
    return s;
}

#undef CL_REF

} // namespace

std::string_view section_name(Section s) {
    switch (s) {
    case Section::design:
        return "design";
    case Section::device:
        return "device";
    case Section::link:
        return "link";
    case Section::workload:
        return "workload";
    case Section::training:
        return "training";
    case Section::inference:
        return "inference";
    case Section::economics:
        return "economics";
    case Section::reliability:
        return "reliability";
    case Section::assumptions:
        return "assumptions";
    case Section::fleet:
        return "fleet";
    }
    return "design";
}

const std::vector<Field>& schema() {
    static const std::vector<Field> s = build_schema();
    return s;
}

const Field* find_field(Section s, std::string_view key) {
    for (const auto& f : schema())
        if (f.section == s && f.key == key)
            return &f;
    return nullptr;
}

const std::vector<const Field*>& section_fields(Section s) {
    // Built once (the reader asks for a section's fields per device: 100,000 times).
    static const auto table = [] {
        std::array<std::vector<const Field*>, 10> t;
        for (const auto& f : schema())
            t[static_cast<std::size_t>(f.section)].push_back(&f);
        return t;
    }();
    return table[static_cast<std::size_t>(s)];
}

std::vector<const Field*> fields_of(const Design& d, std::string_view id) {
    std::vector<Section> sections;
    if (id.empty()) {
        sections = {Section::design, Section::economics, Section::reliability, Section::fleet,
                    Section::assumptions};
    } else if (d.device(id)) {
        sections = {Section::device};
    } else if (d.link(id)) {
        sections = {Section::link};
    } else if (const Workload* w = d.workload(id)) {
        sections = {Section::workload,
                    w->kind == WorkloadKind::training ? Section::training : Section::inference};
    }
    std::vector<const Field*> out;
    for (Section s : sections)
        for (const auto& f : schema())
            if (f.section == s && (!f.applies || f.applies(d, id)))
                out.push_back(&f);
    return out;
}

namespace {
/// Names in the order people sort them: case aside, and runs of digits by their value.
bool natural_less(const std::string& a, const std::string& b) {
    std::size_t i = 0, j = 0;
    const auto digit = [](char ch) { return ch >= '0' && ch <= '9'; };
    const auto lower = [](char ch) {
        return ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch - 'A' + 'a') : ch;
    };
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            std::size_t ie = i, je = j;
            while (ie < a.size() && digit(a[ie]))
                ++ie;
            while (je < b.size() && digit(b[je]))
                ++je;
            const std::string_view x = std::string_view(a).substr(i, ie - i);
            const std::string_view y = std::string_view(b).substr(j, je - j);
            const auto strip = [](std::string_view v) {
                while (v.size() > 1 && v.front() == '0')
                    v.remove_prefix(1);
                return v;
            };
            const std::string_view xs = strip(x), ys = strip(y);
            if (xs.size() != ys.size())
                return xs.size() < ys.size();
            if (xs != ys)
                return xs < ys;
            i = ie;
            j = je;
            continue;
        }
        if (lower(a[i]) != lower(b[j]))
            return lower(a[i]) < lower(b[j]);
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}
} // namespace

std::vector<std::pair<std::string, std::string>>
field_choices(const Field& f, const Design& d, std::string_view id, const Catalog& cat) {
    std::vector<std::pair<std::string, std::string>> out;
    switch (f.choices_from) {
    case ChoiceSource::fixed:
        for (const auto& c : f.choices)
            out.emplace_back(c, c.empty() ? std::string("(derived)") : choice_label(c));
        // Session 53 (helper-45, 46): an engine that cannot run on the workload's GPUs
        // (TensorRT-LLM off NVIDIA, MLX off Apple silicon) is not offered; one a file already
        // holds stays, refused with the reason.
        if (f.section == Section::inference && f.key == "engine")
            if (const Workload* w = d.workload(id)) {
                const DesignIndex idx(d);
                std::vector<const GpuSpec*> gpus;
                for (const auto& dev : d.devices) {
                    if (!w->placement.empty() && std::find(w->placement.begin(), w->placement.end(),
                                                           dev.id) == w->placement.end())
                        continue;
                    std::string gid;
                    if (gpus_in(idx, cat, dev, &gid) > 0)
                        if (const GpuSpec* g = cat.gpu(gid))
                            gpus.push_back(g);
                }
                std::erase_if(out, [&](const auto& c) {
                    const auto e = choice_from_string<ServingEngine>(c.first);
                    return e && !gpus.empty() && *e != w->inference.engine &&
                           std::all_of(gpus.begin(), gpus.end(), [&](const GpuSpec* g) {
                               return !engine_device_refusal(*e, *g).empty();
                           });
                });
            }
        break;
    case ChoiceSource::models:
    case ChoiceSource::draft_models:
        // The design's own (imported) models first, then the zoo entries they do not replace.
        {
            // A draft model proposes tokens the target verifies: it shares the target's tokenizer
            // (the same vocabulary) and is smaller (Leviathan et al. 2023 sec. 2; vLLM requires the
            // same vocabulary). helper-18: BERT base and Megatron GPT 1T were offered as drafts.
            const ModelArch* target = nullptr;
            if (f.choices_from == ChoiceSource::draft_models) {
                out.emplace_back("", "none");
                if (const Workload* w = d.workload(id))
                    target = find_model(d, cat, w->model);
            }
            const auto fits = [target](const ModelArch& m) {
                return !target || (m.id != target->id && m.vocab == target->vocab &&
                                   m.total_params() < target->total_params());
            };
            for (const auto& m : d.models)
                if (fits(m))
                    out.emplace_back(m.id, m.name + " (imported)");
            // The catalog's models by name, numbers by value ("gpt-oss 20B" before "gpt-oss
            // 120B"; helper-47: the list ran in the catalog's order, Megatron first and DeepSeek
            // near the end), after the design's own.
            const std::size_t first = out.size();
            for (const auto& m : cat.models()) {
                bool shadowed = false;
                for (const auto& o : d.models)
                    shadowed = shadowed || o.id == m.id;
                if (!shadowed && fits(m))
                    out.emplace_back(m.id, m.name);
            }
            std::stable_sort(
                out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                [](const auto& a, const auto& b) { return natural_less(a.second, b.second); });
            break;
        }
    case ChoiceSource::training_workloads:
        out.emplace_back("", "None (the typed duration)");
        for (const auto& w : d.workloads)
            if (w.kind == WorkloadKind::training)
                out.emplace_back(w.id, w.name.empty() ? w.id : w.name);
        break;
    case ChoiceSource::cloud_offers:
        out.emplace_back("", "Cheapest for the GPU");
        for (const auto& o : cat.cloud_offers())
            out.emplace_back(o.id, o.provider + " " + o.instance + " · " + std::to_string(o.gpus) +
                                       " × " + cat.short_name(o.gpu));
        break;
    case ChoiceSource::link_types:
        for (const auto& l : cat.links())
            out.emplace_back(l.id,
                             l.name + " · " + units::format_si(l.bandwidth_unidir_Bps, "B/s", 0));
        break;
    case ChoiceSource::device_types:
        if (const Device* dev = d.device(id)) {
            switch (dev->kind) {
            case DeviceKind::system:
                for (const auto& x : cat.systems())
                    out.emplace_back(x.id, x.name);
                break;
            case DeviceKind::switch_:
                for (const auto& x : cat.switches())
                    out.emplace_back(x.id, x.name);
                break;
            case DeviceKind::gpu:
                for (const auto& x : cat.gpus())
                    out.emplace_back(x.id, x.name);
                break;
            case DeviceKind::nic:
                for (const auto& x : cat.nics())
                    out.emplace_back(x.id, x.name);
                break;
            default:
                break;
            }
        }
        break;
    }
    return out;
}

Result<FieldValue> check_value(const Field& f, const FieldValue& v, const Design& d,
                               std::string_view id, const Catalog* cat) {
    switch (f.type) {
    case FieldType::integer:
    case FieldType::number: {
        const double* x = std::get_if<double>(&v);
        if (!x)
            return Error{f.key, f.label + ": expected a number"};
        if (!std::isfinite(*x))
            return Error{f.key, f.label + ": must be a finite number"};
        if (f.type == FieldType::integer && *x != std::floor(*x))
            return Error{f.key, f.label + ": must be a whole number"};
        if (*x < f.min || *x > f.max) {
            // In the unit the inspector shows, without scientific notation, and what was given
            // (helper-3: a typed 999,999,999 became 99 without a word).
            const double scale = f.display_scale != 0 ? f.display_scale : 1.0;
            const std::string unit =
                !f.display_unit.empty() && f.display_unit != "bool" ? f.display_unit : f.unit;
            const auto shown = [&](double y) {
                const double z = y / scale;
                return std::fabs(z) >= 1000 && z == std::floor(z) ? units::format_count(z)
                                                                  : units::format_plain(z);
            };
            return Error{f.key, f.label + ": must be between " + shown(f.min) + " and " +
                                    shown(f.max) + (unit.empty() ? "" : " " + unit) + " (" +
                                    shown(*x) + " given)"};
        }
        return v;
    }
    case FieldType::boolean:
        if (!std::holds_alternative<bool>(v))
            return Error{f.key, f.label + ": expected on or off"};
        return v;
    case FieldType::choice: {
        const auto* s = std::get_if<std::string>(&v);
        if (!s)
            return Error{f.key, f.label + ": expected one of its values"};
        // A workload named by the mix is checked when the mix is evaluated (a deleted one is
        // reported there): a file that names one it lacks still opens.
        if ((f.choices_from != ChoiceSource::fixed && !cat) ||
            f.choices_from == ChoiceSource::training_workloads)
            return v;
        const auto choices = f.choices_from == ChoiceSource::fixed
                                 ? std::vector<std::pair<std::string, std::string>>{}
                                 : field_choices(f, d, id, *cat);
        bool ok = false;
        std::string list;
        if (f.choices_from == ChoiceSource::fixed) {
            ok = std::find(f.choices.begin(), f.choices.end(), *s) != f.choices.end();
            for (const auto& c : f.choices)
                list += (list.empty() ? "" : ", ") + c;
        } else {
            for (const auto& [value, label] : choices)
                ok = ok || value == *s;
            list = "an entry of the catalog";
            if (!ok && f.choices_from == ChoiceSource::draft_models && cat) {
                const Workload* w = d.workload(id);
                const ModelArch* target = w ? find_model(d, *cat, w->model) : nullptr;
                if (const ModelArch* m = find_model(d, *cat, *s); m && target)
                    return Error{f.key,
                                 f.label + ": " + m->name + " cannot draft for " + target->name +
                                     " (a draft shares the target's vocabulary, " +
                                     std::to_string(target->vocab) + " tokens, and is smaller)"};
            }
        }
        if (!ok)
            return Error{f.key,
                         f.label + ": expected " +
                             (f.choices_from == ChoiceSource::fixed ? "one of " + list : list) +
                             "; found \"" + *s + "\""};
        return v;
    }
    case FieldType::text: {
        const auto* s = std::get_if<std::string>(&v);
        if (!s)
            return Error{f.key, f.label + ": expected text"};
        const double limit = f.max > 0 ? f.max : 100000;
        if (static_cast<double>(s->size()) > limit)
            return Error{f.key, f.label + ": longer than " + units::format_count(limit) + " bytes"};
        return v;
    }
    }
    return v;
}

std::string choice_label(std::string_view v) {
    static const std::pair<std::string_view, std::string_view> labels[] = {
        {"bf16", "BF16"},
        {"fp16", "FP16"},
        {"fp32", "FP32"},
        {"fp8", "FP8"},
        {"int8", "INT8"},
        {"int4", "INT4 (AWQ/GPTQ, group 128)"},
        {"fp4", "FP4 (NVFP4 / MXFP4)"},
        {"checkpoint", "As the checkpoint"},
        {"bf16-except-output", "BF16 except output"},
        {"q4_k_m", "GGUF Q4_K_M"},
        {"q5_k_m", "GGUF Q5_K_M"},
        {"q6_k", "GGUF Q6_K"},
        {"q8_0", "GGUF Q8_0"},
        {"q4_0", "GGUF Q4_0"},
        {"mlx4", "MLX 4-bit"},
        {"mlx8", "MLX 8-bit"},
        {"vllm", "vLLM"},
        {"sglang", "SGLang"},
        {"trtllm", "TensorRT-LLM"},
        {"llamacpp", "llama.cpp"},
        {"mlx", "MLX (mlx-lm)"},
        {"adamw", "AdamW"},
        {"adamw-8bit", "AdamW 8-bit"},
        {"sgd", "SGD"},
        {"none", "None"},
        {"selective", "Selective (attention core)"},
        {"full", "Full"},
        {"selective-op", "Selective per op (PyTorch)"},
        {"1f1b", "1F1B"},
        {"interleaved", "Interleaved 1F1B"},
        {"gpipe", "GPipe"},
        {"zero-bubble", "Zero bubble (ZB-H1)"},
        {"lora", "LoRA"},
        {"qlora", "QLoRA"},
        {"optimizer", "Optimizer states in CPU memory"},
        {"p2p", "Ring (P2P)"},
        {"allgather", "All-gather"},
        {"alltoall", "All-to-all (Megatron)"},
        {"deepep", "DeepEP"},
        {"delayed", "Delayed (amax history)"},
        {"current", "Current (per tensor)"},
        {"mxfp8", "MXFP8 (Blackwell)"},
        {"static", "Static"},
        {"continuous", "Continuous"},
        {"chunked", "Chunked prefill"},
        {"disaggregated", "Disaggregated prefill"},
        {"1g", "1g: 7 instances per GPU"},
        {"2g", "2g: 3 instances per GPU"},
        {"3g", "3g: 2 instances per GPU"},
        {"4g", "4g: 1 instance per GPU (4 of 7 slices)"},
        {"7g", "7g: the whole GPU as 1 instance"},
        {"offline", "Offline (throughput)"},
        {"online", "Online (request rate)"},
        {"on-demand", "On demand"},
        {"1y", "1-year commitment"},
        {"3y", "3-year commitment"},
        {"spot", "Spot"},
        {"fifo", "FIFO"},
        {"priority", "Priority"},
        {"backfill", "Backfill"},
        {"preemptive", "Priority with preemption"},
        {"infiniband", "InfiniBand"},
        {"ethernet", "Ethernet"}};
    for (const auto& [k, label] : labels)
        if (k == v)
            return std::string(label);
    return std::string(v);
}

std::string format_value(const Field& f, const FieldValue& v) {
    if (const bool* b = std::get_if<bool>(&v))
        return *b ? "on" : "off";
    if (f.unit == "bool" && std::holds_alternative<double>(v)) // a 0/1 assumption
        return std::get<double>(v) > 0.5 ? "on" : "off";
    if (!f.zero_shows.empty() && std::holds_alternative<double>(v) && std::get<double>(v) == 0)
        return f.zero_shows;
    if (const auto* s = std::get_if<std::string>(&v))
        return f.type == FieldType::choice ? choice_label(*s) : *s;
    const double x = std::get<double>(v) / f.display_scale;
    std::string out = f.type == FieldType::integer ? units::format_fixed(x, 0)
                                                   : units::format_fixed(x, f.decimals);
    if (!f.display_unit.empty())
        out += " " + f.display_unit;
    return out;
}

} // namespace cl::model
