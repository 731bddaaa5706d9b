#include "cli_flags.h"

#include "model/units.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace cl::cli {

using nlohmann::json;

namespace {

const std::vector<std::string> kModelCmds = {"memory", "roofline", "train",
                                             "search", "infer",    "reliability"};
const std::vector<std::string> kTrainCmds = {"memory", "train", "search"};
const std::vector<std::string> kShapeCmds = {"memory", "collective", "train", "search", "infer"};

/// What the CLI says differently from the schema, per field: a flag name kept from CLI.md
/// (alias), the commands that take it, and a stricter lower bound where a design file's
/// "0 = auto / not set" is spelled by leaving the flag out (or "auto") on the command line.
/// Everything else (name, range, choices, help, default) comes from the schema field.
struct SchemaFlag {
    model::Section section;
    const char* key;
    const char* flag = nullptr; ///< alias; nullptr = "--" + key with '_' -> '-'
    std::vector<std::string> commands = {};
    const char* unit = nullptr;     ///< shown in --help instead of the field's unit
    const char* def = nullptr;      ///< default as --help shows it, when not the field's
    const char* help = nullptr;     ///< CLI-specific help, when the field's is not enough
    std::optional<double> min = {}; ///< stricter than the field's minimum
    std::vector<std::string> more_choices = {}; ///< "auto", or the roofline's dtypes
    bool size = false;                          ///< takes size suffixes (bytes/s)
    const char* def_source = nullptr;           ///< "inputs" source when absent
};

const std::vector<SchemaFlag>& schema_flag_table() {
    using S = model::Section;
    static const std::vector<SchemaFlag> t = {
        // Training (and the layout flags memory, roofline and search share)
        {.section = S::training,
         .key = "tp",
         .commands = {"memory", "roofline", "train", "search"}},
        // One --ep for training and serving (the inference field adds infer to it).
        {.section = S::training,
         .key = "ep",
         .def = "1 (infer: the engine's)",
         .help = "Expert parallel (EP). Training: experts split over EP of the TP × CP × DP GPUs "
                 "(with ETP 1 EP may span TP ranks); default 1. infer: the routed experts split "
                 "by expert over EP of the TP GPUs, each by tensor over TP / EP; default the "
                 "engine's, EP 1 with --attention-dp too (every expert split over the TP GPUs)."},
        {.section = S::training,
         .key = "seq",
         .commands = {"memory", "roofline", "train", "search"},
         .help = "Sequence length (roofline: context length)."},
        {.section = S::training,
         .key = "global_batch",
         .unit = "sequences",
         .def = "-",
         .help = "Global batch; a multiple of dp.",
         .min = 1,
         .def_source = "default: not set"},
        {.section = S::training,
         .key = "micro_batch",
         .unit = "sequences",
         .def = "auto",
         .help = "Micro-batch, or auto (the largest divisor of global-batch/dp that fits).",
         .min = 1,
         .more_choices = {"auto"}},
        {.section = S::training,
         .key = "dtype",
         .commands = {"memory", "roofline", "train", "search", "reliability"},
         .help = "Compute dtype (training: bf16|fp16|fp8|fp32; fp8 = FP8 GEMMs with bf16 "
                 "weights).",
         .more_choices = {"tf32", "int8", "fp4", "fp64"}},
        {.section = S::training,
         .key = "optimizer",
         .commands = {"memory", "train", "search", "reliability"}},
        {.section = S::training,
         .key = "sequence_parallel",
         .def = "on when tp > 1",
         .help = "Sequence parallelism (--sequence-parallel=off to disable)."},
        {.section = S::training, .key = "schedule", .def = "1f1b (interleaved when vpp > 1)"},
        {.section = S::training,
         .key = "finetune",
         .commands = {"memory", "train", "search", "reliability"}},
        {.section = S::training,
         .key = "lora_rank",
         .commands = {"memory", "train", "search", "reliability"}},
        {.section = S::training,
         .key = "tokens",
         .commands = {"train"},
         .def = "-",
         .def_source = "default: not set"},
        // Inference
        {.section = S::inference,
         .key = "batch",
         .commands = {"roofline", "infer"},
         .unit = "sequences",
         .def = "1 (infer: auto)",
         .help = "Concurrent sequences (infer: N or auto = the largest that fits).",
         .min = 1,
         .more_choices = {"auto"}},
        {.section = S::inference, .key = "ttft_slo_s", .flag = "--ttft-slo"},
        {.section = S::inference, .key = "tpot_slo_s", .flag = "--tpot-slo"},
        {.section = S::inference, .key = "speculative_draft", .unit = "model id", .def = "-"},
        // Economics
        {.section = S::economics, .key = "cloud_offer", .unit = "id", .def = "-"},
        {.section = S::economics,
         .key = "price_per_gpu_hour",
         .flag = "--cloud-price-per-gpu-hour",
         .def_source = "cloud offer"},
        {.section = S::economics,
         .key = "server_price_usd",
         .flag = "--server-price",
         .def_source = "catalog system price"},
        {.section = S::economics,
         .key = "network_usd_per_gpu",
         .flag = "--network-price-per-gpu",
         .def_source = "switches and cables of the fabric"},
        {.section = S::economics, .key = "power_usd_per_kwh", .flag = "--power-price-per-kwh"},
        {.section = S::economics, .key = "colo_usd_per_kw_month", .flag = "--colo-per-kw-month"},
        {.section = S::economics, .key = "staff_usd_per_year", .flag = "--staff-per-year"},
        {.section = S::economics, .key = "facility_power_cap_kw", .def_source = "none"},
        {.section = S::economics,
         .key = "spot_preemptions_per_node_day",
         .flag = "--spot-preemptions-per-day",
         .commands = {"tco", "fleet"}},
        {.section = S::economics,
         .key = "spot_lost_hours_per_preemption",
         .flag = "--spot-lost-hours",
         .commands = {"tco", "fleet"}},
        // Reliability
        {.section = S::reliability,
         .key = "node_failures_per_1000_node_days",
         .def_source = "Llama 3 per-GPU rate"},
        {.section = S::reliability, .key = "mtbf_hours", .def_source = "from the failure rate"},
        {.section = S::reliability,
         .key = "storage_bandwidth_Bps",
         .flag = "--storage-bandwidth",
         .unit = "bytes/s",
         .size = true,
         .def_source = "Llama 3 ratio"},
        {.section = S::reliability, .key = "checkpoint_write_s", .def_source = "derived"},
        {.section = S::reliability, .key = "checkpoint_interval_s", .def_source = "optimal"},
        // The reliability command has no tokens to derive the run from: 30 days (cmd_reliability).
        {.section = S::reliability,
         .key = "run_days",
         .flag = "--days",
         .def = "30",
         .help = "Length of the run.",
         .min = 0.001},
    };
    return t;
}

const SchemaFlag* schema_flag(const model::Field& f) {
    for (const auto& e : schema_flag_table())
        if (e.section == f.section && f.key == e.key)
            return &e;
    return nullptr;
}

std::vector<std::string> section_commands(model::Section s) {
    switch (s) {
    case model::Section::training:
        return kTrainCmds;
    case model::Section::inference:
        return {"infer"};
    case model::Section::economics:
        return {"tco"};
    case model::Section::reliability:
        return {"reliability"};
    default:
        return {};
    }
}

std::string flag_name(const model::Field& f) {
    if (const SchemaFlag* e = schema_flag(f); e && e->flag)
        return e->flag;
    std::string n = "--" + f.key;
    std::replace(n.begin(), n.end(), '_', '-');
    return n;
}

std::string shown_default(const model::Field& f) {
    if (!f.unset.empty())
        return "-"; // unset: the help says what it stands for
    if (const bool* b = std::get_if<bool>(&f.default_value))
        return *b ? "on" : "off";
    if (const auto* t = std::get_if<std::string>(&f.default_value))
        return t->empty() ? "-" : *t;
    std::ostringstream o;
    o.imbue(std::locale::classic());
    o << std::get<double>(f.default_value);
    return o.str();
}

/// One flag per field of `section` (a field whose flag exists already, as --tp for training
/// and inference, adds its commands to it).
void add_schema_flags(std::vector<FlagSpec>& specs, model::Section section) {
    for (const model::Field* f : model::section_fields(section)) {
        const SchemaFlag* e = schema_flag(*f);
        const std::string name = flag_name(*f);
        std::vector<std::string> commands =
            e && !e->commands.empty() ? e->commands : section_commands(section);
        auto same = std::find_if(specs.begin(), specs.end(),
                                 [&](const FlagSpec& s) { return s.name == name; });
        if (same != specs.end()) {
            for (auto& c : commands)
                if (std::find(same->commands.begin(), same->commands.end(), c) ==
                    same->commands.end())
                    same->commands.push_back(c);
            same->fields.push_back(f);
            continue;
        }
        FlagSpec s;
        s.name = name;
        switch (f->type) {
        case model::FieldType::integer:
            s.type = FlagType::Int;
            break;
        case model::FieldType::number:
            s.type = e && e->size ? FlagType::Size : FlagType::Number;
            break;
        case model::FieldType::boolean:
            s.type = FlagType::Switch;
            break;
        case model::FieldType::choice:
            s.type =
                f->choices_from == model::ChoiceSource::fixed ? FlagType::Choice : FlagType::String;
            break;
        case model::FieldType::text:
            s.type = FlagType::String;
            break;
        }
        s.unit = e && e->unit ? e->unit : f->unit;
        s.def = e && e->def ? e->def : shown_default(*f);
        if (e && e->help) {
            s.help = e->help;
        } else {
            s.help = f->label + (f->help.empty() ? "" : ": " + f->help) + ".";
        }
        if (!f->unset.empty())
            s.help += " Leave out for " + f->unset + " (0 is refused).";
        if (s.type == FlagType::Choice)
            s.choices = f->choices;
        if (e)
            s.choices.insert(s.choices.end(), e->more_choices.begin(), e->more_choices.end());
        s.commands = std::move(commands);
        s.fields = {f};
        s.min = e && e->min ? *e->min : f->min;
        s.max = f->max;
        if (e && e->def_source)
            s.def_source = e->def_source;
        specs.push_back(std::move(s));
    }
}

// clang-format off
std::vector<FlagSpec> build_specs() {
    using T = FlagType;
    std::vector<FlagSpec> f = {
        {"--json",
         T::Switch,
         "",
         "off",
         "Print one JSON object (schema_version 1) instead of a table.",
         {},
         {"*"}},
        {"--help", T::Switch, "", "", "Show this help.", {}, {"*"}},
        {"--version", T::Switch, "", "", "Print the version.", {}, {"*"}},
        {"--catalog",
         T::String,
         "file",
         "$CLUSTERLENS_CATALOG or ~/.config/clusterlens/catalog.json",
         "Merge a user catalog file; entries with a bundled id replace it and are marked \"user\".",
         {},
         {"*"}},
        // Model
        {"--model",
         T::String,
         "id|file",
         "-",
         "Bundled model id (`catalog models`) or a Hugging Face config.json path.",
         {},
         kModelCmds},
        {"--layers", T::Int, "", "from --model", "Transformer layers.", {}, kModelCmds},
        {"--hidden", T::Int, "", "from --model", "Hidden size h.", {}, kModelCmds},
        {"--heads", T::Int, "", "from --model", "Attention (query) heads.", {}, kModelCmds},
        {"--kv-heads", T::Int, "", "--heads", "Key/value heads (GQA).", {}, kModelCmds},
        {"--head-dim", T::Int, "", "hidden/heads", "Dimension per head.", {}, kModelCmds},
        {"--ffn",
         T::Int,
         "",
         "4h (gelu) or Llama rule (swiglu)",
         "MLP intermediate size.",
         {},
         kModelCmds},
        {"--vocab", T::Int, "", "from --model", "Vocabulary size.", {}, kModelCmds},
        {"--mlp", T::Choice, "", "swiglu", "MLP type.", {"gelu", "swiglu"}, kModelCmds},
        {"--tied-embeddings",
         T::Switch,
         "",
         "off",
         "Input embedding and LM head share weights.",
         {},
         kModelCmds},
        {"--experts", T::Int, "", "0", "Routed experts per MoE layer (0 = dense).", {}, kModelCmds},
        {"--top-k", T::Int, "", "from --model", "Experts per token.", {}, kModelCmds},
        {"--moe-ffn", T::Int, "", "--ffn", "Intermediate size of one expert.", {}, kModelCmds},
        {"--shared-experts", T::Int, "", "0", "Always-active shared experts.", {}, kModelCmds},
        {"--dense-layers",
         T::Int,
         "",
         "0",
         "Leading dense layers of an MoE model.",
         {},
         kModelCmds},
        {"--router-groups",
         T::Int,
         "",
         "from --model",
         "Group-limited routing: the experts in this many equal groups (0 = no limit; DeepSeek's "
         "n_group).",
         {},
         kModelCmds},
        {"--router-group-top-k",
         T::Int,
         "",
         "from --model",
         "Groups a token's experts may come from (DeepSeek's topk_group: node-limited routing).",
         {},
         kModelCmds},
        {"--mtp-layers",
         T::Int,
         "",
         "from --model",
         "Multi-token prediction modules the model trains with (DeepSeek-V3: 1; 0 = none; "
         "train --mtp=off leaves them out).",
         {},
         kModelCmds},
        {"--kv-lora-rank", T::Int, "", "0", "MLA compressed KV rank (0 = no MLA).", {}, kModelCmds},
        {"--q-lora-rank", T::Int, "", "0", "MLA compressed query rank.", {}, kModelCmds},
        // Hardware and cluster shape
        {"--gpu", T::String, "id", "h100-sxm", "GPU catalog id (`catalog gpus`).", {}, {"memory", "roofline", "collective", "train", "search", "infer"}},
        {"--gpus", T::Int, "GPUs", "tp*pp*cp*dp", "GPUs in the job (tco, reliability: in the cluster; fleet: in the generated cluster, default 8 nodes).", {}, kShapeCmds},
        {"--gpus-per-node",
         T::Int,
         "GPUs",
         "the GPU's reference system",
         "GPUs per server (the unit that fails).",
         {},
         kShapeCmds},
        {"--scaleup-domain",
         T::Int,
         "GPUs",
         "the reference system's",
         "GPUs sharing one NVLink/xGMI domain.",
         {},
         kShapeCmds},
        {"--scaleout",
         T::String,
         "link id",
         "the reference system's NICs",
         "Scale-out link type (`catalog links`).",
         {},
         kShapeCmds},
        {"--nics-per-node",
         T::Int,
         "",
         "the reference system's",
         "Scale-out NICs per server.",
         {},
         kShapeCmds},
        {"--oversubscription",
         T::Number,
         "ratio",
         "1",
         "Down:up ratio at the worst fabric tier (7 = 7:1).",
         {},
         kShapeCmds},
    };
    add_schema_flags(f, model::Section::training);
    f.insert(f.end(), {
        {"--dp",
         T::Int,
         "",
         "gpus/(tp*pp*cp)",
         "Data-parallel degree; must agree with --gpus.",
         {},
         kTrainCmds},
        {"--framework-overhead",
         T::Size,
         "bytes",
         "2GB",
         "Per-GPU CUDA context, workspaces and fragmentation (docs/assumptions.md).",
         {},
         kTrainCmds},
        {"--assume",
         T::String,
         "KEY=VALUE,...",
         "-",
         "Set model assumptions by their design-file key, e.g. training.tp_overlap=0.8 (the "
         "share of TP communication hidden, as Megatron-Core's --tp-comm-overlap does); "
         "comma-separated; each checked against its range (docs/assumptions.md lists them).",
         {},
         {"memory", "train", "search", "infer"}},
        {"--fabric", T::String, "preset|file", "-", "Use a drawn fabric (preset id or design file) instead of the shape flags.", {}, {"collective", "train", "search", "infer"}},
        {"--price-per-gpu-hour", T::Number, "USD", "-", "GPU-hour price (training cost, $ per token).", {}, {"train", "search", "infer"}},
    });
    add_schema_flags(f, model::Section::inference);
    f.insert(f.end(), {
        {"--objective", T::Choice, "", "throughput", "Rank layouts by throughput or by cost per token.", {"throughput", "cost"}, {"search"}},
        {"--top", T::Int, "layouts", "10", "How many layouts to print.", {}, {"search"}},
        // Collectives
        {"--op", T::Choice, "", "allreduce", "Collective operation.", {"allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "sendrecv"}, {"collective"}},
        {"--bytes", T::Size, "bytes", "1GiB", "nccl-tests `size`: per-rank buffer (allreduce, broadcast), total buffer (allgather, reducescatter).", {}, {"collective"}},
        {"--algorithm", T::Choice, "", "auto", "Algorithm (auto = the fastest, as NCCL's tuner picks).", {"auto", "ring", "tree", "nvls", "hierarchical"}, {"collective"}},
        {"--sweep", T::String, "MIN:MAX", "-", "One row per power of two from MIN to MAX bytes inclusive.", {}, {"collective"}},
        {"--calibrate", T::String, "file", "-", "nccl-tests output to fit per-tier latency and bandwidth; then answer with the fitted fabric.", {}, {"collective"}},
        // Roofline
        {"--phase",
         T::Choice,
         "",
         "prefill",
         "Inference phase.",
         {"prefill", "decode"},
         {"roofline"}},
    });
    // Cost (tco). Defaults and sources: docs/cost.md.
    add_schema_flags(f, model::Section::economics);
    f.insert(f.end(), {
        {"--run-gpu-hours", T::Number, "GPU-hours", "-", "Cost, energy and CO2 of one run of this many GPU-hours.", {}, {"tco"}},
        // Fleet (issue 23): one class of whole-GPU jobs on a generated cluster.
        {"--gpus-per-job", T::Int, "GPUs", "8", "GPUs each job holds (fleet).", {}, {"fleet"}},
        {"--quota-gpus", T::Int, "GPUs", "0", "The team's quota: the most GPUs (MIG: instances) the class's jobs hold at once; a job over it waits (fleet; 0 = none, as a Kueue ClusterQueue's nominalQuota without borrowing).", {}, {"fleet"}},
        {"--arrival-rate-per-hour", T::Number, "jobs/h", "-", "Poisson arrival rate of jobs (fleet).", {}, {"fleet"}},
        {"--mean-duration-h", T::Number, "h", "-", "Mean of the exponential job durations (fleet).", {}, {"fleet"}},
        {"--horizon-days", T::Number, "days", "30", "Simulated time (fleet).", {}, {"fleet"}},
        {"--warmup-days", T::Number, "days", "3", "Simulated time left out of every statistic (fleet).", {}, {"fleet"}},
        {"--seed", T::Int, "", "1", "Random seed: the same seed, the same run (fleet).", {}, {"fleet"}},
        {"--policy", T::Choice, "", "fifo", "Scheduling policy (fleet): fifo, priority, backfill, preemptive.", {"fifo", "priority", "backfill", "preemptive"}, {"fleet"}},
        {"--trace", T::String, "file", "-", "A job trace to replay: the SenseTime Helios format (HeliosData cluster_log.csv: gpu_num, submit_time, duration), Microsoft Philly's cluster_job_log (JSON: submitted_time, attempts with their GPUs), Alibaba PAI's pai_task_table (CSV: job_name, task_name, inst_num, status, start_time, end_time, ..., plan_gpu) or the ElasticFlow raw traces of Microsoft's ITP clusters (CSV: job_id, submission_time, duration, num_gpu), told apart by content; its jobs replace the random class (fleet).", {}, {"fleet"}},
        {"--burst-after-h", T::Number, "h", "0", "A job that waited this long runs in the cloud instead (fleet; 0 = never). Default: the design's mix, else never.", {}, {"fleet"}},
        {"--burst-price-per-gpu-hour", T::Number, "USD/GPU-hour", "0", "Cloud price of the GPU-hours that burst (fleet). Default: a design's cloud offer at its on-demand or spot price, else unpriced.", {}, {"fleet"}},
        {"--burst-to", T::Choice, "", "on-demand", "Capacity bursts run on (fleet): on-demand, or spot (preempted: each node of a burst job at --spot-preemptions-per-day, each preemption redoing --spot-lost-hours of work). Default: the design's mix, else on-demand.", {"on-demand", "spot"}, {"fleet"}},
        {"--daily-swing", T::Number, "fraction", "0", "The job class's arrival rate swings by this share around its mean over a day, highest at --peak-hour (fleet; 0 = flat).", {}, {"fleet"}},
        {"--weekend-factor", T::Number, "", "1", "The job class's weekend arrival rate relative to a weekday's; the weekly mean stays the arrival rate (fleet).", {}, {"fleet"}},
        {"--peak-hour", T::Number, "h", "14", "Busiest hour of the day for the daily curves; the run starts Monday 0:00 (fleet).", {}, {"fleet"}},
        {"--nodes-per-leaf", T::Int, "nodes", "-", "Nodes under one leaf switch (a rail group on a rail-optimised fabric): placement puts a multi-node job under as few leaves as it can (fleet). Default: the design's leaf tier, else 32, a DGX SuperPOD scalable unit.", {}, {"fleet"}},
        {"--quota-borrowing", T::Switch, "", "off", "Classes with a team quota lend each other what they leave unused (a Kueue cohort); under --policy preemptive a class within its quota takes lent GPUs back by evicting borrowers' preemptible jobs (fleet). Default: the design's mix.", {}, {"fleet"}},
        {"--leaf-required", T::Switch, "", "off", "A multi-node job that fits under one leaf waits for one leaf of its own instead of starting split over leaves (fleet; Kueue topology-aware scheduling, required vs preferred). Default: the design's mix.", {}, {"fleet"}},
        {"--allocation", T::Switch, "", "off", "With --json: add the allocation timeline (fleet.allocation: up to 64 sampled nodes × the 241 timeline samples, each cell the run holding most of that node's GPUs, -1 idle, -2 out for repair; every run seen there with its class, GPUs, start, end, nodes and leaf switches, and on a drawn design the cards it ran on).", {}, {"fleet"}},
        {"--anywhere", T::Switch, "", "off", "Place a job's GPUs anywhere (fleet). Default: a job that fits a node gets one node, a larger one whole nodes.", {}, {"fleet"}},
        {"--mig-profile", T::Choice, "", "-", "MIG partition (fleet): every GPU of the MIG nodes into 7 × 1g, 3 × 2g, 2 × 3g, 1 × 4g (the other 3 slices idle) or 1 × 7g instances (NVIDIA mig-parted all-<profile>); on a generated cluster the class's jobs each take one instance, on every node unless --mig-nodes. Default: the design's mix, else no MIG.", {"1g", "2g", "3g", "4g", "7g"}, {"fleet"}},
        {"--mig-nodes", T::Int, "nodes", "-", "Nodes whose GPUs are partitioned by --mig-profile (fleet). Default: the design's mix, else every node when --mig-profile is given.", {}, {"fleet"}},
        {"--timeslice-replicas", T::Int, "replicas", "-", "Time-slicing (fleet): every GPU of the time-sliced nodes is shared by up to this many jobs, as NVIDIA's device plugin advertises each GPU as replicas (sharing.timeSlicing; the GPU Operator docs' example is 4); on a generated cluster the class's jobs each take one replica, on every node unless --timeslice-nodes. Default: the design's mix, else no time-slicing.", {}, {"fleet"}},
        {"--timeslice-efficiency", T::Number, "fraction", "0.76", "The share of a time-sliced GPU's throughput its jobs keep while two or more share it, the rest going to switching between their contexts (fleet; 1 = switching costs nothing). Default: the design's mix, else 0.76, NVIDIA's measurement of two models time-sliced on one A100 against MIG (NVIDIA Technical Blog, March 2026).", {}, {"fleet"}},
        {"--timeslice-nodes", T::Int, "nodes", "-", "Nodes whose GPUs are time-sliced (fleet). Default: the design's mix, else every node when --timeslice-replicas is given.", {}, {"fleet"}},
        {"--gpu-memory-per-job", T::Size, "bytes", "-", "The GPU memory a time-sliced job holds (fleet, generated cluster): jobs share a GPU only while their memory fits in it together (time-slicing gives no memory isolation); a job waits when no GPU with a free replica has room. Default: not stated (replicas alone).", {}, {"fleet"}},
        {"--gpu-busy", T::Number, "fraction", "1", "The share of its run a time-sliced job keeps a GPU busy when it has the GPU to itself (fleet, generated cluster; jobs sharing a GPU slow down when their shares add up to more than 1).", {}, {"fleet"}},
        // Report.
        {"--output", T::String, "FILE.pdf|FILE.csv|DIR/", "-", "Where the report goes (-o): a PDF, one CSV with a table column, or a directory of CSVs.", {}, {"report"}},
    });
    // Reliability. Defaults and sources: docs/reliability.md.
    add_schema_flags(f, model::Section::reliability);
    // Flags shared with the cost and reliability commands.
    for (FlagSpec& s : f) {
        if (s.name == "--gpus" || s.name == "--gpus-per-node")
            s.commands.insert(s.commands.end(), {"tco", "reliability", "fleet"});
        if (s.name == "--gpu" || s.name == "--fabric")
            s.commands.emplace_back("tco");
        if (s.name == "--gpu")
            s.commands.emplace_back("fleet");
        if (s.name == "--price-per-gpu-hour")
            s.commands.insert(s.commands.end(), {"reliability", "fleet"});
        // Issue 23: node failures in the fleet simulation.
        if (s.name == "--node-failures-per-1000-node-days" || s.name == "--repair-hours" ||
            s.name == "--restart-s")
            s.commands.emplace_back("fleet");
    }
    return f;
}
// clang-format on

bool accepts(const FlagSpec& s, const std::string& cmd) {
    return std::find(s.commands.begin(), s.commands.end(), "*") != s.commands.end() ||
           std::find(s.commands.begin(), s.commands.end(), cmd) != s.commands.end();
}

const FlagSpec* find_spec(const std::string& name) {
    for (const auto& s : flag_specs())
        if (s.name == name)
            return &s;
    return nullptr;
}

/// A flag's range as people read it (helper-31: "[1e-09, 1e+09]"): numbers without
/// e-notation, and "(0, ..." where the lower bound only says "positive".
std::string range_text(double lo, double hi) {
    return (lo > 0 && lo < 1e-6 ? std::string("(0") : "[" + model::units::format_plain(lo)) + ", " +
           model::units::format_plain(hi) + "]";
}

} // namespace

const std::vector<FlagSpec>& flag_specs() {
    static const std::vector<FlagSpec> specs = build_specs();
    return specs;
}

const FlagSpec* flag_of(const model::Field& f) {
    for (const auto& s : flag_specs())
        if (std::find(s.fields.begin(), s.fields.end(), &f) != s.fields.end())
            return &s;
    return nullptr;
}

ParsedArgs parse_command_line(const std::vector<std::string>& args) {
    ParsedArgs p;
    std::vector<std::pair<std::string, std::string>> raw;
    for (std::size_t i = 0; i < args.size(); ++i) {
        // -o is the one short flag (report's output, as CLI.md writes it).
        const std::string s = args[i] == "-o" ? std::string("--output") : args[i];
        if (s.size() > 2 && s.rfind("--", 0) == 0) {
            std::string name = s, value;
            bool has_value = false;
            if (auto eq = s.find('='); eq != std::string::npos) {
                name = s.substr(0, eq);
                value = s.substr(eq + 1);
                has_value = true;
            }
            const FlagSpec* spec = find_spec(name);
            if (!spec)
                throw UsageError{"unknown flag " + name + " (see --help)"};
            if (spec->type != FlagType::Switch && !has_value) {
                if (i + 1 >= args.size())
                    throw UsageError{name + " needs a value" +
                                     (spec->unit.empty() ? "" : " (" + spec->unit + ")")};
                value = args[++i];
            } else if (spec->type == FlagType::Switch && !has_value) {
                value = "on";
            }
            raw.emplace_back(name, value);
        } else if (p.command.empty() && !s.empty() && s[0] != '-') {
            p.command = s;
        } else {
            p.positional.push_back(s);
        }
    }
    for (const auto& [name, value] : raw) {
        const FlagSpec* spec = find_spec(name);
        if (!p.command.empty() && !accepts(*spec, p.command))
            throw UsageError{"flag " + name + " does not apply to `" + p.command +
                             "` (see --help)"};
        if (p.flags.count(name))
            throw UsageError{name + " given twice"};
        p.flags[name] = value;
    }
    return p;
}

Flags::Flags(std::string command, std::map<std::string, std::string> values)
    : command_(std::move(command)), values_(std::move(values)) {}

const std::string* Flags::raw(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
}

void Flags::record(const std::string& name, const json& value, const std::string& source) {
    std::string key = name.rfind("--", 0) == 0 ? name.substr(2) : name;
    std::replace(key.begin(), key.end(), '-', '_');
    inputs_[key] = {{"value", value}, {"source", source}};
    read_.insert(name);
}

namespace {
const FlagSpec& schema_spec(const std::string& name) {
    const FlagSpec* s = find_spec(name);
    if (!s || s->fields.empty())
        throw std::logic_error(name + " is not a flag of the schema");
    return *s;
}
} // namespace

long long Flags::get_int(const std::string& name, long long def, const std::string& def_source) {
    const FlagSpec& s = schema_spec(name);
    return get_int(name, def, static_cast<long long>(s.min), static_cast<long long>(s.max),
                   def_source);
}

double Flags::get_unset_or_positive(const std::string& name, double hi, const std::string& unset) {
    if (const std::string* v = raw(name)) {
        const auto x = model::units::parse_number(*v);
        if (x && *x == 0)
            throw UsageError{name + ": 0 is not accepted; leave " + name + " out for " + unset};
    }
    return get_number(name, 0, 0, hi, unset);
}

double Flags::get_number(const std::string& name, double def, const std::string& def_source) {
    const FlagSpec& s = schema_spec(name);
    return get_number(name, def, s.min, s.max, def_source);
}

std::optional<long long> Flags::get_int_or_auto(const std::string& name) {
    const FlagSpec& s = schema_spec(name);
    return get_int_or_auto(name, static_cast<long long>(s.min), static_cast<long long>(s.max));
}

model::FieldValue Flags::read_field(const FlagSpec& spec, const model::Field& f,
                                    const model::FieldValue& def) {
    const std::string& name = spec.name;
    // A field that may be unset (its default is derived): leaving the flag out is "unset"; an
    // explicit 0 is not a value of it and is refused, never read as the default.
    const std::string* given = raw(name);
    if (!f.unset.empty() && given != nullptr &&
        (f.type == model::FieldType::number || f.type == model::FieldType::integer)) {
        const std::string text = *given;
        const auto v = spec.type == FlagType::Size ? model::units::parse_size(text)
                                                   : model::units::parse_number(text);
        if (v && *v == 0)
            throw UsageError{name + ": 0 is not accepted; leave " + name + " out to use " +
                             f.unset};
    }
    switch (f.type) {
    case model::FieldType::boolean:
        return get_bool(name, std::get<bool>(def), spec.def_source);
    case model::FieldType::integer:
        return static_cast<double>(get_int(name, std::llround(std::get<double>(def)),
                                           static_cast<long long>(spec.min),
                                           static_cast<long long>(spec.max), spec.def_source));
    case model::FieldType::number:
        if (spec.type == FlagType::Size)
            return get_size(name, std::get<double>(def), spec.min, spec.max, spec.def_source);
        if (f.unit == "s")
            return get_seconds(name, std::get<double>(def), spec.min, spec.max, spec.def_source);
        return get_number(name, std::get<double>(def), spec.min, spec.max, spec.def_source);
    case model::FieldType::choice:
        if (f.choices_from == model::ChoiceSource::fixed) {
            const std::string v = get_choice(name, std::get<std::string>(def));
            if (std::find(f.choices.begin(), f.choices.end(), v) == f.choices.end()) {
                std::string list;
                for (const auto& c : f.choices)
                    list += (list.empty() ? "" : "|") + c;
                throw UsageError{name + ": expected " + list + ", found \"" + v + "\""};
            }
            return v;
        }
        [[fallthrough]];
    case model::FieldType::text:
        return get_string(name, std::get<std::string>(def), spec.def_source);
    }
    return def;
}

void Flags::read_section(model::Section section, model::Design& d, std::string_view id) {
    for (const model::Field* f : model::section_fields(section)) {
        const FlagSpec* spec = flag_of(*f);
        if (!spec || read_.count(spec->name) || !accepts(*spec, command_))
            continue;
        f->set(d, id, read_field(*spec, *f, f->get(d, id)));
    }
}

model::TrainingSpec Flags::read_settings(model::TrainingSpec t) {
    model::Design d;
    d.workloads.emplace_back();
    d.workloads[0].id = "cli";
    d.workloads[0].kind = model::WorkloadKind::training;
    d.workloads[0].training = std::move(t);
    read_section(model::Section::training, d, "cli");
    return d.workloads[0].training;
}

model::InferenceSpec Flags::read_settings(model::InferenceSpec s) {
    model::Design d;
    d.workloads.emplace_back();
    d.workloads[0].id = "cli";
    d.workloads[0].kind = model::WorkloadKind::inference;
    d.workloads[0].inference = std::move(s);
    read_section(model::Section::inference, d, "cli");
    return d.workloads[0].inference;
}

model::Economics Flags::read_settings(model::Economics e) {
    model::Design d;
    d.economics = std::move(e);
    read_section(model::Section::economics, d, "");
    return d.economics;
}

model::ReliabilityInputs Flags::read_settings(model::ReliabilityInputs r) {
    model::Design d;
    d.reliability = std::move(r);
    read_section(model::Section::reliability, d, "");
    return d.reliability;
}

bool Flags::get_bool(const std::string& name, bool def, const std::string& def_source) {
    const std::string* v = raw(name);
    if (!v) {
        record(name, def, def_source);
        return def;
    }
    bool r;
    if (*v == "on" || *v == "true" || *v == "1" || *v == "yes")
        r = true;
    else if (*v == "off" || *v == "false" || *v == "0" || *v == "no")
        r = false;
    else
        throw UsageError{name + ": expected on or off, found \"" + *v + "\""};
    record(name, r, "flag");
    return r;
}

long long Flags::get_int(const std::string& name, long long def, long long lo, long long hi,
                         const std::string& def_source) {
    const std::string* v = raw(name);
    if (!v) {
        record(name, def, def_source);
        return def;
    }
    auto d = model::units::parse_number(*v);
    if (!d)
        throw UsageError{name + ": expected an integer, found \"" + *v + "\""};
    if (*d != std::floor(*d))
        throw UsageError{name + ": expected an integer, found \"" + *v + "\""};
    if (*d < static_cast<double>(lo) || *d > static_cast<double>(hi))
        throw UsageError{name + ": " + *v + " is outside [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]"};
    const auto r = static_cast<long long>(*d);
    record(name, r, "flag");
    return r;
}

std::optional<long long> Flags::get_int_or_auto(const std::string& name, long long lo,
                                                long long hi) {
    const std::string* v = raw(name);
    if (!v || *v == "auto") {
        record(name, "auto", v ? "flag" : "default");
        return std::nullopt;
    }
    return get_int(name, 0, lo, hi);
}

double Flags::get_number(const std::string& name, double def, double lo, double hi,
                         const std::string& def_source) {
    const std::string* v = raw(name);
    if (!v) {
        record(name, def, def_source);
        return def;
    }
    auto d = model::units::parse_number(*v);
    if (!d)
        throw UsageError{name + ": expected a finite number, found \"" + *v + "\""};
    if (*d < lo || *d > hi)
        throw UsageError{name + ": " + *v + " is outside " + range_text(lo, hi)};
    record(name, *d, "flag");
    return *d;
}

double Flags::get_seconds(const std::string& name, double def, double lo, double hi,
                          const std::string& def_source) {
    const std::string* v = raw(name);
    if (!v) {
        record(name, def, def_source);
        return def;
    }
    std::optional<double> d = model::units::parse_number(*v);
    if (!d) {
        // A number followed by a unit of time (spaces allowed between).
        static const std::pair<const char*, double> units[] = {
            {"ms", 1e-3}, {"us", 1e-6}, {"µs", 1e-6}, {"ns", 1e-9},
            {"min", 60},  {"h", 3600},  {"s", 1}};
        for (const auto& [u, scale] : units) {
            const std::string_view text(*v), unit(u);
            if (text.size() > unit.size() && text.substr(text.size() - unit.size()) == unit) {
                std::string_view num = text.substr(0, text.size() - unit.size());
                while (!num.empty() && num.back() == ' ')
                    num.remove_suffix(1);
                if (auto x = model::units::parse_number(num)) {
                    d = *x * scale;
                    break;
                }
            }
        }
    }
    if (!d)
        throw UsageError{name + ": expected a time such as 0.05, 50ms or 2s, found \"" + *v + "\""};
    if (*d < lo || *d > hi)
        throw UsageError{name + ": " + *v + " is outside " + range_text(lo, hi) +
                         " seconds (a plain number is seconds: write 50ms or 0.05 for 50 ms)"};
    record(name, *d, "flag");
    return *d;
}

double Flags::get_size(const std::string& name, double def, double lo, double hi,
                       const std::string& def_source) {
    const std::string* v = raw(name);
    if (!v) {
        record(name, def, def_source);
        return def;
    }
    auto d = model::units::parse_size(*v);
    if (!d)
        throw UsageError{name +
                         ": expected a non-negative size such as 400GB, 1GiB or 1e9, "
                         "found \"" +
                         *v + "\""};
    if (*d < lo || *d > hi)
        throw UsageError{name + ": " + *v + " is outside " + range_text(lo, hi)};
    record(name, *d, "flag");
    return *d;
}

std::string Flags::get_string(const std::string& name, const std::string& def,
                              const std::string& def_source) {
    const std::string* v = raw(name);
    if (!v) {
        record(name, def, def_source);
        return def;
    }
    if (v->empty())
        throw UsageError{name + ": must not be empty"};
    record(name, *v, "flag");
    return *v;
}

std::string Flags::get_choice(const std::string& name, const std::string& def) {
    const std::string* v = raw(name);
    if (!v) {
        record(name, def, "default");
        return def;
    }
    const FlagSpec* spec = find_spec(name);
    if (spec && std::find(spec->choices.begin(), spec->choices.end(), *v) == spec->choices.end()) {
        std::string list;
        for (const auto& c : spec->choices)
            list += (list.empty() ? "" : "|") + c;
        throw UsageError{name + ": expected " + list + ", found \"" + *v + "\""};
    }
    record(name, *v, "flag");
    return *v;
}

namespace {
/// The general help's text before the flags: usage lines, commands, units.
const char* const kHelpHead =
    R"(clusterlens-cli -- the ClusterLens model, headless (same numbers as the GUI).

Usage:
  clusterlens-cli [--help] [--version]
  clusterlens-cli catalog gpus|links|nics|switches|systems|models|presets|cloud [--json]
  clusterlens-cli evaluate DESIGN [--json]
  clusterlens-cli memory   --model M [--gpu G] [--gpus N] [layout flags] [--json]
  clusterlens-cli roofline --model M [--gpu G] [--phase prefill|decode] [--batch B] [--json]
  clusterlens-cli train    --model M --gpus N --global-batch B [layout flags] [--json]
  clusterlens-cli infer    --model M --gpu G --tp T [--weights-dtype fp8] [--mode online --request-rate R]
  clusterlens-cli search   --model M --gpus N --global-batch B [pinned layout flags] [--top K]
  clusterlens-cli collective --op OP --bytes S --gpus N [shape flags | --fabric F]
                  [--sweep MIN:MAX] [--calibrate NCCL_TESTS_OUTPUT] [--json]
  clusterlens-cli tco      --gpu G --gpus N [--cloud-offer ID | --cloud-price-per-gpu-hour P]
                  [--commitment on-demand|1y|3y|spot] [on-prem flags] [--json]
  clusterlens-cli reliability --gpus N [--model M | --checkpoint-write-s D] [--json]
  clusterlens-cli fleet    [DESIGN | --gpu G --gpus N] (--trace TRACE | --gpus-per-job K
                  --arrival-rate-per-hour R --mean-duration-h H) [--horizon-days D]
                  [--policy fifo|priority|backfill|preemptive] [--timeslice-replicas N]
  clusterlens-cli report   DESIGN -o FILE.pdf|FILE.csv|DIR/
  clusterlens-cli compare  DESIGN DESIGN [...] [--json]

Commands:
  catalog KIND  The bundled catalog (plus your catalog file), each entry with its source
                and as-of date.
  evaluate D    Everything the GUI shows for a design file or bundled preset id D.
  memory        Training memory per GPU of the most loaded GPU (worst pipeline stage).
  roofline      Per-operator FLOPs, bytes, arithmetic intensity and bound of one layer.
  collective    Time, algbw and busbw (nccl-tests definitions) of a collective on the fabric.
  search        Every TP x PP x CP x EP x VPP x micro-batch x ZeRO x recompute layout that
                fits, best first, with the memory-vs-throughput Pareto front.
  infer         TTFT, TPOT, tokens/s, $ per million tokens and GPUs needed for serving.
  train         Step time, tokens/s, MFU/HFU and the exposed-time breakdown of a training job
                (validated against published runs: docs/validation.md).
  tco           Cloud vs on-prem cost over the horizon: break-even month and utilization,
                $/GPU-hour, power, racks, energy and CO2, the monthly cumulative curves.
  compare A B   Designs side by side: hardware, cost, training and serving numbers, change vs
                the first.
  report D      The report the GUI exports: PDF, one CSV with a table column, or one CSV
                per table in a directory.
  reliability   Job MTBF, checkpoint size and write time, Young/Daly intervals, goodput,
                GPU-hours and dollars lost to failures, spares, stragglers.
  fleet         Many jobs on one cluster: a discrete-event simulation of a job class's
                arrivals, queue and placement; utilization, waits, fragmentation (Erlang C
                beside it when the run is an M/M/c queue).

Units: SI base units in JSON (bytes, seconds, FLOP/s, bytes/s, W, USD). Sizes accept
K M G T (10^3..) and Ki Mi Gi Ti (2^10..), optionally ending in B: 1GiB, 400GB, 1e9.
Numbers are read and printed in the C locale. Exit status: 0 on success, 2 with a
one-line message on stderr for bad input.

Flags (unit; default):
)";

/// The help lines of every flag `command` takes (every flag when empty).
/// `text` as lines of at most `width` columns after `indent`, broken between words (a word
/// longer than a line gets a line of its own), each ending in a newline (helper-34: help lines
/// of 300 characters).
std::string wrap_words(const std::string& text, const std::string& indent, std::size_t width) {
    std::string out, line;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find(' ', at), text.size());
        const std::string word = text.substr(at, end - at);
        at = end + 1;
        if (word.empty())
            continue;
        if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) {
            out += indent + line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty())
        out += indent + line + "\n";
    return out;
}

std::string flag_help(const std::string& command) {
    std::ostringstream o;
    for (const auto& s : flag_specs()) {
        if (!command.empty() &&
            std::find(s.commands.begin(), s.commands.end(), command) == s.commands.end() &&
            std::find(s.commands.begin(), s.commands.end(), "*") == s.commands.end())
            continue;
        std::string head = "  " + s.name;
        if (s.type != FlagType::Switch) {
            if (!s.choices.empty() && s.type == FlagType::Choice) {
                std::string list;
                for (const auto& c : s.choices)
                    list += (list.empty() ? "" : "|") + c;
                head += " " + list;
            } else {
                head += " " + (s.unit.empty() ? std::string("N") : std::string("<") + s.unit + ">");
            }
        }
        std::string text = s.help;
        // One "Default:" (helper-15: "Default: the design's mix, else no MIG. Default: -."):
        // none for "-", and none when the text says it already.
        if (!s.def.empty() && s.def != "-" && s.help.find("Default:") == std::string::npos)
            text += " Default: " + s.def + ".";
        std::string cmds;
        for (const auto& c : s.commands)
            cmds += (cmds.empty() ? "" : ", ") + c;
        if (cmds != "*")
            text += " [" + cmds + "]";
        o << head << "\n" << wrap_words(text, "      ", 100);
    }
    return o.str();
}

/// The lines of `text` from the one starting with `first` up to the next that does not start
/// with `indent` (a usage line or a command's description and their continuations).
std::string block(const std::string& text, const std::string& first, const std::string& indent) {
    const size_t at = text.find("\n" + first);
    if (at == std::string::npos)
        return {};
    size_t end = text.find('\n', at + 1);
    while (end != std::string::npos && text.compare(end + 1, indent.size(), indent) == 0)
        end = text.find('\n', end + 1);
    return text.substr(at + 1, end == std::string::npos ? std::string::npos : end - at);
}
} // namespace

std::string help_text(const std::string& command) {
    const std::string head = kHelpHead;
    // One command's usage, what it does and its flags (helper-32: `fleet --help` printed the
    // help of every command); the whole help without one.
    const std::string usage =
        command.empty() ? std::string()
                        : block(head, "  clusterlens-cli " + command + " ", std::string(18, ' '));
    if (usage.empty())
        return head + flag_help({});
    const std::string what =
        block(head.substr(head.find("\nCommands:")), "  " + command + " ", std::string(16, ' '));
    return "Usage:\n" + usage + "\n" + what + "\nFlags (unit; default):\n" + flag_help(command) +
           "\nUnits, conventions and every command: clusterlens-cli --help\n";
}

} // namespace cl::cli
