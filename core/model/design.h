#pragma once
// The Design: what the user drew. Devices carry a replica `count` (so a 16,384-GPU cluster is
// a handful of entries), links connect device groups, workloads are placed on devices.
// Stable string ids; unknown JSON fields are kept and written back (forward compatibility).
// See docs/design-format.md for the annotated file format.

#include "model/architecture.h"
#include "model/assumptions.h"
#include "model/choices.h"
#include "model/error.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cl::model {

class Catalog;

inline constexpr std::string_view kDesignFormat = "clusterlens-design";
inline constexpr int kDesignMajor = 1;
inline constexpr int kDesignMinor = 24; ///< 1.1: unset values are missing keys, not 0;
                                        ///< 1.2: the serving engine (inference.engine);
                                        ///< 1.3: training.fp32_gradients,
                                        ///< moe_dispatcher and ep_overlap;
                                        ///< 1.4: models (imported configs);
                                        ///< 1.5: fleet quotas (<class>.quota_gpus) and
                                        ///< durations from a workload (duration_from);
                                        ///< 1.6: fleet.leaf_required,
                                        ///< training.fp8_scaling;
                                        ///< 1.7: fleet.burst_to (spot bursting),
                                        ///< fleet.trace (an imported job trace);
                                        ///< 1.8: fleet.quota_borrowing;
                                        ///< 1.9: fleet time-slicing (timeslice_nodes,
                                        ///< timeslice_replicas, <class>.time_sliced,
                                        ///< <class>.gpu_busy);
                                        ///< 1.10: <class>.borrow_cap_gpus,
                                        ///< <class>.keep_gpus;
                                        ///< 1.11: <class>.gpu_memory_bytes;
                                        ///< 1.12: training.recompute_layers;
                                        ///< 1.13: inference.attention_dp;
                                        ///< 1.14: inference.requests;
                                        ///< 1.15: fleet.timeslice_efficiency;
                                        ///< 1.16: training.cp_comm_type;
                                        ///< 1.17: models[].local_attention,
                                        ///< training.fp8_scaling mxfp8;
                                        ///< 1.18: inference.fp4_attention,
                                        ///< models[].nvfp4_attention;
                                        ///< 1.19: training.etp defaults to 1 (a file of
                                        ///< 1.18 or older without it: 0, the same as tp);
                                        ///< 1.20: training.mtp, models[].mtp_layers (a file
                                        ///< of 1.19 or older without mtp: off);
                                        ///< 1.21: training.recompute_layernorm,
                                        ///< recompute_moe_act, recompute_mla_up_proj,
                                        ///< recompute_mlp;
                                        ///< 1.22: models[].fp4_format (nvfp4 | mxfp4;
                                        ///< a file of 1.21 or older without it: nvfp4);
                                        ///< 1.23: models[].qk_norm (a file of 1.22 or
                                        ///< older without it: off);
                                        ///< 1.24: inference.ep (a file of 1.23 or older
                                        ///< without it: 0, the engine's default)

enum class DeviceKind { gpu, system, server, switch_, nic, storage, group };
std::string_view device_kind_name(DeviceKind k);

struct Point {
    double x = 0, y = 0;
    bool operator==(const Point&) const = default;
};

struct Device {
    std::string id, name;
    DeviceKind kind = DeviceKind::system;
    std::string catalog;    ///< catalog id (gpu, system, switch, nic); empty for group/server
    std::int64_t count = 1; ///< replicas of this device (and of everything it contains)
    std::string parent;     ///< id of the containing group or server; empty at top level
    std::string role;       ///< optional tier hint for switches: leaf, spine, core
    int gpu_slots = 0;      ///< server: GPU slots (0 = unlimited)
    double storage_bandwidth_Bps = 0;  ///< storage: aggregate read/write bandwidth
    double storage_capacity_bytes = 0; ///< storage: capacity
    Point position;
    std::string extra_json; ///< unknown fields, kept verbatim (a JSON object or empty)
    bool operator==(const Device&) const = default;
};

/// Every replica of `from` has `count` links of `type` to the `to` group (spread over its
/// replicas, rail by rail).
struct Link {
    std::string id, from, to, type;
    std::int64_t count = 1;
    std::string extra_json;
    bool operator==(const Link&) const = default;
};

enum class WorkloadKind { training, inference };

struct TrainingSpec {
    int tp = 1, pp = 1, cp = 1, ep = 1, vpp = 1;
    /// Expert tensor parallelism. With MoE parallel folding the experts use their own
    /// ETP x EP x EDP grid over the same TP x CP x DP GPUs, so EP may span TP ranks (etp x ep
    /// divides tp x cp x dp). Default 1, whole experts on each GPU, as NVIDIA's published MoE
    /// recipes run (Megatron-Bridge scripts/performance/configs: expert_tensor_parallel_size=1
    /// in every MoE base config); 0 = the same as tp, Megatron-Core's own default.
    int etp = 1;
    [[nodiscard]] int expert_tp() const { return etp > 0 ? etp : tp; }
    /// Context-parallel K/V exchange (format 1.16; docs/training.md).
    CpComm cp_comm_type = CpComm::p2p;
    MoeDispatcher moe_dispatcher = MoeDispatcher::alltoall;
    /// Expert-parallel all-to-alls hidden behind another micro-batch's compute (Megatron-Core
    /// --overlap-moe-expert-parallel-comm; DeepSeek-V3's DualPipe). Off: Megatron's default.
    bool ep_overlap = false;
    /// Train the model's multi-token prediction modules with it (ModelArch::mtp_layers; the
    /// DeepSeek-V3 report sec. 2.2 trains D = 1; Megatron-Bridge's DeepSeek-V3 recipe sets
    /// use_mtp / mtp_num_layers = 1). A model without them is unaffected. Format 1.20: a file of
    /// 1.19 or older without the key means off (the model had no MTP before).
    bool mtp = true;
    std::int64_t global_batch = 0; ///< sequences
    int micro_batch = 0;           ///< 0 = auto
    int seq = 4096;
    TrainingDtype dtype = TrainingDtype::bf16;
    /// FP8 only: the scaling recipe (docs/training.md, "FP8 quantisation").
    Fp8Scaling fp8_scaling = Fp8Scaling::delayed;
    Optimizer optimizer = Optimizer::adamw;
    int zero = 1;
    /// Gradients accumulated and reduced in fp32 (Megatron-LM does so whenever it trains in
    /// bf16: docs/user-guide/features/dist_optimizer.md, 18 B/param = 2 + 4 + 12); off: in the
    /// training precision (DeepSpeed ZeRO, Rajbhandari et al. 2020 sec. 3.1: 16 B/param, the
    /// default every earlier version used).
    bool fp32_gradients = false;
    Recompute recompute = Recompute::selective;
    /// Full recompute of only the first N layers of each pipeline stage (of each model chunk
    /// with VPP); the other layers keep their activations (Megatron-LM --recompute-method block
    /// --recompute-num-layers N). 0: every layer (one layer per checkpoint). Format 1.12.
    int recompute_layers = 0;
    /// Selective recompute only: Megatron-Core's recompute_modules beside the attention core
    /// (transformer_config.py; format 1.21). Each frees the module's saved outputs and runs its
    /// forward again in backward (docs/training.md, "Recompute modules"). `layernorm`: the norms
    /// that are their own modules (the MoE layers' pre-MLP norm, MLA's input norm; TE fuses the
    /// others into the next linear). `moe_act`: the routed experts' activation. `mla_up_proj`:
    /// MLA's Q and KV up-projections and RoPE. `mlp`: the dense layers' whole MLP.
    bool recompute_layernorm = false;
    bool recompute_moe_act = false;
    bool recompute_mla_up_proj = false;
    bool recompute_mlp = false;
    [[nodiscard]] bool recomputes_modules() const {
        return recompute_layernorm || recompute_moe_act || recompute_mla_up_proj || recompute_mlp;
    }
    bool sequence_parallel = true;
    Schedule schedule = Schedule::one_f_one_b;
    Finetune finetune = Finetune::full;
    int lora_rank = 16;
    Offload offload = Offload::none;
    double tokens = 0;      ///< tokens to train (0 = not set)
    std::string extra_json; ///< unknown fields (a newer minor version), kept verbatim
    bool operator==(const TrainingSpec&) const = default;
};

struct InferenceSpec {
    int tp = 1, pp = 1, replicas = 1;
    int batch = 0; ///< 0 = auto
    int input_len = 1000, output_len = 500;
    WeightsDtype weights_dtype = WeightsDtype::bf16;
    KvDtype kv_dtype = KvDtype::bf16;
    Batching batching = Batching::continuous;
    ServingEngine engine = ServingEngine::vllm;
    ServingMode mode = ServingMode::offline;
    double request_rate = 0, ttft_slo_s = 0.5, tpot_slo_s = 0.05;
    std::string speculative_draft; ///< draft model id; empty = no speculative decoding
    int speculative_k = 4;         ///< draft tokens per step (gamma)
    /// Layers whose weights (and KV cache) live in system memory and run on the CPU, the rest
    /// on the device: llama.cpp's partial offload (--n-gpu-layers = layers - offload_layers).
    int offload_layers = 0;
    /// Attention data parallelism, MoE models only (TensorRT-LLM enable_attention_dp, SGLang
    /// --enable-dp-attention): each of the tp GPUs runs attention, the dense MLP layers, the
    /// shared experts, the embedding and the LM head whole for its own share of the sequences,
    /// and only the routed experts are split over the tp GPUs. Format 1.13.
    bool attention_dp = false;
    /// MoE models: the routed experts split by expert over `ep` of the tp GPUs, and each expert
    /// by tensor over tp / ep (TensorRT-LLM moe_expert_parallel_size / moe_tensor_parallel_size,
    /// vLLM --enable-expert-parallel, SGLang --ep-size). 0 = the engine's default: every expert
    /// split over the tp GPUs (1), or split by expert over all of them with attention DP (tp).
    /// Format 1.24.
    int ep = 0;
    double acceptance = 0.7; ///< draft token acceptance rate (alpha)
    /// Offline: a batch job of this many requests, all queued at the start and run to the end
    /// of the last (trtllm-bench / vllm bench throughput); 0 = a steady state, requests
    /// always waiting. Format 1.14.
    int requests = 0;
    /// NVFP4 weights only: the attention projections' format (the model's published
    /// checkpoint's by default: ModelArch::nvfp4_attention). Format 1.18.
    Fp4Attention fp4_attention = Fp4Attention::checkpoint;
    std::string extra_json; ///< unknown fields (a newer minor version), kept verbatim
    bool operator==(const InferenceSpec&) const = default;
};

struct Workload {
    std::string id, name;
    WorkloadKind kind = WorkloadKind::training;
    std::string model;                  ///< zoo id
    std::vector<std::string> placement; ///< device ids the workload runs on (empty = all GPUs)
    TrainingSpec training;
    InferenceSpec inference;
    Point position;
    std::string extra_json;
    bool operator==(const Workload&) const = default;
};

/// Cost assumptions (defaults and their sources: docs/cost.md). Zero means "derive it": from
/// the catalog (server price, cloud price), from the drawn design (network), or a documented
/// default.
struct Economics {
    double power_usd_per_kwh = 0.08;
    double pue = 1.3;
    double colo_usd_per_kw_month = 184;
    double staff_usd_per_year = 0;
    double depreciation_years = 5;
    double maintenance_fraction = 0.05;
    double utilization = 0.8;
    int months = 36;
    std::string cloud_offer;
    Commitment commitment = Commitment::on_demand;
    double price_per_gpu_hour = 0;    ///< 0 = from the cloud offer
    double server_price_usd = 0;      ///< per server; 0 = the catalog system's price
    double network_usd_per_gpu = 0;   ///< 0 = from the drawn switches and cables
    double storage_fraction = 0.05;   ///< storage capex as a fraction of server capex
    double avg_power_fraction = 0.75; ///< average draw / nameplate while working
    double rack_power_kw = 41;        ///< power one rack can feed and cool
    double facility_power_cap_kw = 0; ///< 0 = no cap
    double grid_kg_co2_per_kwh = 0.37;
    double commit_1y_discount = 0.355, commit_3y_discount = 0.56; ///< off on-demand
    double spot_preemptions_per_node_day = 0.1;
    double spot_lost_hours_per_preemption = 0.67; ///< restart + half a checkpoint interval
    std::string extra_json;
    bool operator==(const Economics&) const = default;
};

struct ReliabilityInputs {
    double node_failures_per_1000_node_days = 0; ///< 0 = Llama 3 per-GPU rate x GPUs per node
    double mtbf_hours = 0;                       ///< of the whole job; 0 = from the rates
    double storage_bandwidth_Bps = 0; ///< 0 = storage devices of the design, else Llama 3 ratio
    double checkpoint_write_s = 0;    ///< 0 = checkpoint bytes / storage bandwidth
    double restart_s = 600;
    double checkpoint_interval_s = 0; ///< 0 = optimal
    bool async_checkpoint = false;
    double repair_hours = 24;   ///< a failed node is back after this (spares sizing)
    double straggler_cv = 0.01; ///< per-GPU step-time coefficient of variation
    double run_days = 0;        ///< 0 = the training run's length (its --tokens)
    std::string extra_json;
    bool operator==(const ReliabilityInputs&) const = default;
};

/// One size range of a tier's fit (issue 22; model/collective.h CalibrationSegment).
struct FabricCalibrationSegment {
    double min_bytes = 0, max_bytes = 0;
    double alpha_scale = 1, beta_scale = 1; ///< measured / modelled latency and transfer time
    std::string algorithm, protocol;        ///< what the model runs over the range (shown)
    double alpha_s = 0, beta_Bps = 0;       ///< fitted latency and bus bandwidth (shown)
    bool operator==(const FabricCalibrationSegment&) const = default;
};

/// Fitted per-tier collective latency and bandwidth (from nccl-tests measurements); every model
/// that uses the fabric uses them. tier 0 = scale-up domain, 1 = leaf, 2 = spine, 3 = core.
/// Entries with `segments` (issue 22) scale the model's own terms per size range; older files'
/// entries (tiers 0 and 1, no segments) keep their meaning.
struct FabricCalibration {
    int tier = 0;
    double alpha_s = 0;  ///< legacy: latency per algorithm step; with segments: the largest's
    double beta_Bps = 0; ///< legacy: bandwidth (tier 0 bus, tier 1 per GPU); with segments: bus
    std::string source;  ///< file and date it was fitted from
    double error_before = 0, error_after = 0;
    std::vector<FabricCalibrationSegment> segments;
    std::string op;                            ///< the measured collective
    int ranks = 0;                             ///< GPUs in the measured group
    double oversubscription = 1;               ///< of the tiers it crossed when measured
    std::vector<std::array<double, 2>> points; ///< measured (bytes, seconds), for the chart
    bool operator==(const FabricCalibration&) const = default;
};

/// An id -> position table over a vector of entities with an `id` member: open addressing with
/// 4 bytes per slot and no copies of the ids (a slot holds a position; a probe compares the
/// entity's own id). 100,000 devices cost 1 MB, not the 6 MB of a string-keyed hash map.
/// Holds no pointers: a table built for other contents simply misses.
class IdTable {
public:
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
    template <class T> void build(const std::vector<T>& items) {
        std::size_t cap = 16;
        while (cap < 2 * items.size())
            cap *= 2;
        slots_.assign(cap, 0);
        for (std::size_t i = 0; i < items.size(); ++i) {
            const std::string_view id = items[i].id;
            for (std::size_t k = slot(id);; k = (k + 1) & (cap - 1)) {
                const std::uint32_t s = slots_[k];
                if (s == 0) {
                    slots_[k] = static_cast<std::uint32_t>(i + 1);
                    break;
                }
                if (items[s - 1].id == id)
                    break; // a repeated id: the first one wins, as a scan finds
            }
        }
    }
    /// The position of the first entity with this id, or npos.
    template <class T>
    [[nodiscard]] std::size_t find(const std::vector<T>& items, std::string_view id) const {
        if (slots_.empty())
            return npos;
        for (std::size_t k = slot(id);; k = (k + 1) & (slots_.size() - 1)) {
            const std::uint32_t s = slots_[k];
            if (s == 0)
                return npos;
            if (s - 1 < items.size() && items[s - 1].id == id)
                return s - 1;
        }
    }
    void clear() { slots_.clear(); }

private:
    [[nodiscard]] std::size_t slot(std::string_view id) const {
        return std::hash<std::string_view>{}(id) & (slots_.size() - 1);
    }
    std::vector<std::uint32_t> slots_; ///< position + 1; 0 = empty
};

/// A lookup cache from id to position in a vector of entities, for Design::device()/link().
/// Never trusted blindly: a hit is checked against the entity's id, a miss falls back to a scan
/// (so in-place edits, renames and reallocation stay correct), and a stale cache is rebuilt.
/// Copies start empty; it takes no part in comparisons. Not for concurrent use of one Design
/// from several threads (each worker thread copies the design).
class IdCache {
public:
    IdCache() = default;
    IdCache(const IdCache&) {}
    IdCache& operator=(const IdCache&) { return *this; }
    bool operator==(const IdCache&) const { return true; }
    template <class T> const T* find(const std::vector<T>& items, std::string_view id) const {
        if (id.empty())
            return nullptr;
        if (data_ == items.data() && size_ == items.size()) {
            if (const std::size_t i = table_.find(items, id); i != IdTable::npos)
                return &items[i];
        }
        for (std::size_t i = 0; i < items.size(); ++i) // a miss, or the cache is stale
            if (items[i].id == id) {
                rebuild(items);
                return &items[i];
            }
        if (data_ != items.data() || size_ != items.size())
            rebuild(items);
        return nullptr;
    }

private:
    template <class T> void rebuild(const std::vector<T>& items) const {
        table_.build(items);
        data_ = items.data();
        size_ = items.size();
    }
    mutable IdTable table_;
    mutable const void* data_ = nullptr;
    mutable std::size_t size_ = 0;
};

/// One class of jobs in a design's job mix (issue 23): Poisson arrivals, exponential durations,
/// whole GPUs. An arrival rate of 0 leaves the class out.
struct JobClassMix {
    double arrival_rate_per_hour = 0;
    int gpus_per_job = 8;
    double mean_duration_h = 1;
    int priority = 0;         ///< higher runs first under the priority and preemptive policies
    bool preemptible = false; ///< the preemptive policy may evict it for a higher one
    double checkpoint_interval_h = 0; ///< an evicted job loses the work since; 0 = none
    /// Arrivals follow the day: the rate swings by this fraction around its mean, highest at
    /// FleetMix::peak_hour (0 = flat).
    double daily_swing = 0;
    double weekend_factor = 1; ///< the weekend's rate relative to a weekday's (1 = the same)
    /// Each job takes one MIG instance on the MIG nodes (FleetMix::mig_nodes), not whole GPUs.
    bool on_mig = false;
    /// The team's quota: the most GPUs (on MIG: instances) the class holds at once; 0 = none.
    int quota_gpus = 0;
    /// With teams borrowing unused quota: the most GPUs the class holds with what it borrows
    /// (its quota included; 0 = no cap; Kueue borrowingLimit + nominalQuota), and the part of
    /// its quota it never lends (0 = lends all it leaves unused; Kueue nominalQuota -
    /// lendingLimit).
    int borrow_cap_gpus = 0;
    int keep_gpus = 0;
    /// A training workload of the design whose time to train its tokens on gpus_per_job GPUs
    /// of this cluster (the training model) is the class's mean duration; empty: typed.
    std::string duration_from = {};
    /// Each job takes one time-sliced replica on the time-sliced nodes
    /// (FleetMix::timeslice_nodes), not whole GPUs; it keeps a GPU busy `gpu_busy` of its run
    /// when alone, and runs slower when the GPU's jobs together want more than all of it.
    bool time_sliced = false;
    double gpu_busy = 1;
    /// The GPU memory a job holds on its time-sliced GPU, bytes; 0 = not stated (placed by
    /// replicas alone). Jobs share a GPU only while their memory fits in it together.
    double gpu_memory_bytes = 0;
    bool operator==(const JobClassMix&) const = default;
};

struct FleetTrace; // fleet.h

/// A recorded job trace a design replays instead of its classes (issue 23: "describe (or
/// import) its job mix"): read once from a trace file, kept in the design file, shared and
/// immutable (an undo step copies the pointer), compared by its jobs.
struct FleetTraceRef {
    std::shared_ptr<const FleetTrace> jobs;
    std::string name; ///< the file it was imported from ("cluster_log.csv")
    bool operator==(const FleetTraceRef& o) const;
};

/// The jobs a design's cluster runs (issue 23): the five classes the issue names, scheduled by
/// the fleet simulation on the drawn nodes. Every rate 0 (the default): no simulation.
struct FleetMix {
    // Preemptible by default: the classes that checkpoint or can redo a shard (fine-tunes every
    // 30 minutes, batch inference every 15); training runs, services and notebooks are not.
    // Services follow their users' day; notebooks and CI follow the team's working day and week.
    JobClassMix training{0, 64, 72, 3, false, 1};
    JobClassMix finetune{0, 8, 6, 2, true, 0.5};
    JobClassMix batch_inference{0, 8, 2, 1, true, 0.25};
    JobClassMix online{0, 8, 24, 4, false, 0, 0.5, 0.8};
    JobClassMix interactive{0, 1, 1, 5, false, 0, 0.8, 0.3};
    double peak_hour = 14; ///< the busiest hour of a day, 0-24 (the simulation starts Monday 0:00)
    FleetPolicy policy = FleetPolicy::backfill;
    double horizon_days = 30;
    double warmup_days = 3;
    bool topology_aware = true;
    /// A multi-node job that fits under one leaf switch waits until one leaf has its nodes free
    /// (Kueue topology-aware scheduling's "required" topology); off: it starts on the fewest
    /// leaves it can get ("preferred").
    bool leaf_required = false;
    /// The classes with a team quota lend each other what they leave unused (a Kueue cohort;
    /// FleetSpec::quota_borrowing); off: each quota is a hard cap.
    bool quota_borrowing = false;
    /// A job that waits this long runs in the cloud at the design's cloud rate instead; 0 = never.
    double burst_after_h = 0;
    /// What a burst runs on: on-demand instances, or spot capacity at the offer's spot price,
    /// redoing the work lost to spot preemptions (the Cost section's spot inputs).
    BurstCapacity burst_to = BurstCapacity::on_demand;
    /// The TCO bills the simulated utilization instead of economics.utilization.
    bool feed_tco = true;
    /// Nodes fail at the Reliability section's rate and stay out for its repair time; the jobs
    /// on them lose the work since their last checkpoint and restart.
    bool failures = true;
    /// MIG (issue 23): this many nodes have every GPU partitioned into instances of
    /// `mig_profile`; the classes marked on_mig run there, the others on the other nodes.
    std::int64_t mig_nodes = 0;
    MigProfile mig_profile = MigProfile::g1;
    /// Time-slicing (issue 23): this many nodes (not MIG ones) have every GPU advertised as
    /// `timeslice_replicas` replicas (NVIDIA k8s-device-plugin sharing.timeSlicing); the classes
    /// marked time_sliced run there, one replica per job.
    std::int64_t timeslice_nodes = 0;
    std::int64_t timeslice_replicas = 4;
    /// The share of a time-sliced GPU's throughput its jobs keep while two or more share it
    /// (FleetSpec::timeslice_efficiency; format 1.15).
    double timeslice_efficiency = kTimesliceEfficiencyDefault;
    std::int64_t seed = 1;
    /// A recorded trace replayed instead of the classes (File > Import Job Trace; format 1.7).
    FleetTraceRef trace;
    std::string extra_json; ///< unknown fields, kept
    [[nodiscard]] bool active() const {
        if (trace.jobs)
            return true;
        for (const JobClassMix* c : {&training, &finetune, &batch_inference, &online, &interactive})
            if (c->arrival_rate_per_hour > 0)
                return true;
        return false;
    }
    bool operator==(const FleetMix&) const = default;
};

struct Design {
    int version_major = kDesignMajor, version_minor = kDesignMinor;
    std::string name, description;
    std::vector<Device> devices;
    std::vector<Link> links;
    std::vector<Workload> workloads;
    Economics economics;
    ReliabilityInputs reliability;
    FleetMix fleet; ///< the job mix the cluster runs (issue 23)
    std::vector<FabricCalibration> calibration;
    /// Models the design carries (imported Hugging Face configs): workloads name them by id like
    /// zoo models, and they travel with the file. One with a zoo id replaces that entry here.
    std::vector<ModelArch> models;
    ModelAssumptions assumptions; ///< efficiency factors and overheads (defaults are sourced)
    std::string extra_json;       ///< unknown top-level fields
    IdCache device_ids, link_ids; ///< lookup caches for device() and link() (no data)

    [[nodiscard]] const Device* device(std::string_view id) const;
    [[nodiscard]] Device* device(std::string_view id);
    [[nodiscard]] const Workload* workload(std::string_view id) const;
    [[nodiscard]] const Link* link(std::string_view id) const;
    /// Replicas of a device including its ancestors' counts (a GPU in a x32 group of x8
    /// servers has multiplicity 256). Saturates at 1e18 instead of overflowing.
    [[nodiscard]] double multiplicity(const Device& d) const;
    /// A fresh id with the given prefix ("gpu", "link") not used by any entity.
    [[nodiscard]] std::string unique_id(std::string_view prefix) const;
    bool operator==(const Design&) const = default;
};

/// Lookups over one unchanging design in O(1): devices by id, children of a device, and every
/// device's multiplicity, built once in O(devices + depth). Analysis functions (validation,
/// topology, cost, evaluation) build one at their start instead of calling Design::device()
/// (a linear search) inside loops: 100,000 devices or a 10,000-deep chain of groups stay
/// linear (issue 17 item 8). It holds views into the design: rebuild it after any change.
class DesignIndex {
public:
    explicit DesignIndex(const Design& d);
    /// The first device with this id (as Design::device), or nullptr.
    [[nodiscard]] const Device* device(std::string_view id) const;
    /// The devices whose parent is `id`, in design order.
    [[nodiscard]] const std::vector<const Device*>& children(std::string_view id) const;
    /// As Design::multiplicity (saturating at 1e18; a containment cycle stops at the cycle).
    [[nodiscard]] double multiplicity(const Device& d) const;
    /// Whether the device's chain of parents loops back on itself.
    [[nodiscard]] bool in_cycle(const Device& d) const;
    /// The device's position in design.devices.
    [[nodiscard]] std::size_t position(const Device& d) const;

private:
    const Design* design_;
    IdTable by_id_;
    std::unordered_map<std::string_view, std::vector<const Device*>> children_;
    std::vector<double> multiplicity_; ///< by position in design.devices
    std::vector<char> cycle_;
};

/// The model a workload names: the design's own first, then the catalog's zoo; nullptr when
/// neither has it.
const ModelArch* find_model(const Design& d, const Catalog& catalog, std::string_view id);

/// Reads a design from JSON text. Every error names its JSON path and what was expected,
/// e.g. `links[3].to: unknown device "leaf9"`. When `catalog` is given, catalog ids are
/// checked too. A newer major version is refused; a newer minor loads and keeps unknown
/// fields; older versions migrate.
Result<Design> design_from_json(std::string_view text, std::string_view name,
                                const Catalog* catalog = nullptr);

/// Writes a design as JSON text (2-space indent), unknown fields included.
std::string design_to_json(const Design& d);

/// Checks references and values of a design built in memory (the loader calls it too).
std::vector<Error> validate_design(const Design& d, const Catalog* catalog);

} // namespace cl::model
