#include "cli_flags.h"

#include "model/units.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace cl::cli {

using nlohmann::json;

namespace {

const std::vector<std::string> kModelCmds = {"memory", "roofline", "train",
                                             "search", "infer",    "reliability"};
const std::vector<std::string> kTrainCmds = {"memory", "train", "search"};
const std::vector<std::string> kShapeCmds = {"memory", "collective", "train", "search", "infer"};

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
        {"--kv-lora-rank", T::Int, "", "0", "MLA compressed KV rank (0 = no MLA).", {}, kModelCmds},
        {"--q-lora-rank", T::Int, "", "0", "MLA compressed query rank.", {}, kModelCmds},
        // Hardware and cluster shape
        {"--gpu", T::String, "id", "h100-sxm", "GPU catalog id (`catalog gpus`).", {}, {"memory", "roofline", "collective", "train", "search", "infer"}},
        {"--gpus", T::Int, "GPUs", "tp*pp*cp*dp", "GPUs in the job.", {}, kShapeCmds},
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
        // Parallel layout and training
        {"--tp", T::Int, "", "1", "Tensor-parallel degree.", {}, {"memory", "roofline", "train", "search", "infer"}},
        {"--pp",
         T::Int,
         "",
         "1",
         "Pipeline-parallel degree (layers need not divide it).",
         {},
         {"memory", "train", "search", "infer"}},
        {"--cp", T::Int, "", "1", "Context-parallel degree (splits the sequence).", {}, kTrainCmds},
        {"--ep", T::Int, "", "1", "Expert-parallel degree (divides dp*cp).", {}, kTrainCmds},
        {"--vpp",
         T::Int,
         "",
         "1",
         "Virtual pipeline stages per GPU (interleaved schedule).",
         {},
         kTrainCmds},
        {"--dp",
         T::Int,
         "",
         "gpus/(tp*pp*cp)",
         "Data-parallel degree; must agree with --gpus.",
         {},
         kTrainCmds},
        {"--global-batch",
         T::Int,
         "sequences",
         "-",
         "Global batch; a multiple of dp.",
         {},
         kTrainCmds},
        {"--micro-batch",
         T::Int,
         "sequences",
         "auto",
         "Micro-batch, or auto (the largest divisor of global-batch/dp that fits).",
         {"auto"},
         kTrainCmds},
        {"--seq",
         T::Int,
         "tokens",
         "4096",
         "Sequence length (roofline: context length).",
         {},
         {"memory", "roofline", "train", "search"}},
        {"--dtype",
         T::Choice,
         "",
         "bf16",
         "Compute dtype (training: bf16|fp16|fp8|fp32; fp8 = FP8 GEMMs with bf16 weights).",
         {"bf16", "fp16", "fp8", "fp32", "tf32", "int8", "fp4", "fp64"},
         {"memory", "roofline", "train", "search"}},
        {"--optimizer",
         T::Choice,
         "",
         "adamw",
         "Optimizer.",
         model::choice_names<model::Optimizer>(),
         kTrainCmds},
        {"--zero",
         T::Int,
         "",
         "1",
         "ZeRO stage 0-3 (3 = FSDP) over the data-parallel group.",
         {},
         kTrainCmds},
        {"--recompute",
         T::Choice,
         "",
         "selective",
         "Activation recomputation.",
         model::choice_names<model::Recompute>(),
         kTrainCmds},
        {"--sequence-parallel",
         T::Switch,
         "",
         "on when tp > 1",
         "Sequence parallelism (--sequence-parallel=off to disable).",
         {},
         kTrainCmds},
        {"--schedule",
         T::Choice,
         "",
         "1f1b (interleaved when vpp > 1)",
         "Pipeline schedule.",
         model::choice_names<model::Schedule>(),
         kTrainCmds},
        {"--finetune",
         T::Choice,
         "",
         "full",
         "Fine-tuning method.",
         model::choice_names<model::Finetune>(),
         kTrainCmds},
        {"--lora-rank", T::Int, "", "16", "LoRA rank r.", {}, kTrainCmds},
        {"--offload",
         T::Choice,
         "",
         "none",
         "CPU offload of optimizer states.",
         model::choice_names<model::Offload>(),
         kTrainCmds},
        {"--framework-overhead",
         T::Size,
         "bytes",
         "2GB",
         "Per-GPU CUDA context, workspaces and fragmentation (docs/assumptions.md).",
         {},
         kTrainCmds},
        {"--fabric", T::String, "preset|file", "-", "Use a drawn fabric (preset id or design file) instead of the shape flags.", {}, {"collective", "train", "search", "infer"}},
        {"--tokens", T::Number, "tokens", "-", "Tokens to train (time, GPU-hours and cost to train them).", {}, {"train"}},
        {"--price-per-gpu-hour", T::Number, "USD", "-", "GPU-hour price (training cost, $ per token).", {}, {"train", "search", "infer"}},
        // Inference
        {"--replicas", T::Int, "", "1", "Serving replicas (each tp*pp GPUs).", {}, {"infer"}},
        {"--input-len", T::Int, "tokens", "1000", "Prompt length.", {}, {"infer"}},
        {"--output-len", T::Int, "tokens", "500", "Generated tokens per request.", {}, {"infer"}},
        {"--weights-dtype", T::Choice, "", "bf16", "Weight format (int4 4.25 bits, fp4 4.5 bits with scales).", model::choice_names<model::WeightsDtype>(), {"infer"}},
        {"--kv-dtype", T::Choice, "", "bf16", "KV-cache format.", model::choice_names<model::KvDtype>(), {"infer"}},
        {"--batching", T::Choice, "", "continuous", "Batching policy (static = contiguous KV).", model::choice_names<model::Batching>(), {"infer"}},
        {"--mode", T::Choice, "", "offline", "offline = max throughput; online = --request-rate under SLOs.", model::choice_names<model::ServingMode>(), {"infer"}},
        {"--request-rate", T::Number, "1/s", "-", "Requests per second (online mode).", {}, {"infer"}},
        {"--ttft-slo", T::Number, "s", "0.5", "Time-to-first-token objective.", {}, {"infer"}},
        {"--tpot-slo", T::Number, "s", "0.05", "Time-per-output-token objective.", {}, {"infer"}},
        {"--speculative-draft", T::String, "model id", "-", "Draft model for speculative decoding.", {}, {"infer"}},
        {"--speculative-k", T::Int, "tokens", "4", "Draft tokens per step (gamma).", {}, {"infer"}},
        {"--acceptance", T::Number, "fraction", "0.7", "Draft token acceptance rate (alpha).", {}, {"infer"}},
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
        {"--batch", T::Int, "sequences", "1 (infer: auto)", "Concurrent sequences (infer: N or auto = the largest that fits).", {"auto"}, {"roofline", "infer"}},
        // Cost (tco). Defaults and sources: docs/cost.md.
        {"--months", T::Int, "months", "36", "TCO horizon.", {}, {"tco"}},
        {"--utilization", T::Number, "fraction", "0.8", "Fraction of hours the GPUs do paid work.", {}, {"tco"}},
        {"--cloud-offer", T::String, "id", "-", "Cloud offer (`catalog cloud`) for the cloud side.", {}, {"tco"}},
        {"--cloud-price-per-gpu-hour", T::Number, "USD", "-", "Cloud on-demand price per GPU-hour (instead of an offer).", {}, {"tco"}},
        {"--commitment", T::Choice, "", "on-demand", "Cloud billing: on-demand and spot bill hours used, commitments every hour.", model::choice_names<model::Commitment>(), {"tco"}},
        {"--commit-1y-discount", T::Number, "fraction", "0.355", "Discount off on-demand for 1-year commitments without a listed price (median of AWS/GCP/Azure/Lambda).", {}, {"tco"}},
        {"--commit-3y-discount", T::Number, "fraction", "0.56", "Discount off on-demand for 3-year commitments without a listed price.", {}, {"tco"}},
        {"--spot-preemptions-per-day", T::Number, "per node-day", "0.1", "Spot preemptions per node per day (assumption; docs/cost.md).", {}, {"tco"}},
        {"--spot-lost-hours", T::Number, "h", "0.67", "Work lost per preemption: 10 min restart + half an hourly checkpoint interval.", {}, {"tco"}},
        {"--server-price", T::Number, "USD", "catalog system price", "Price of one server of --gpus-per-node GPUs.", {}, {"tco"}},
        {"--network-price-per-gpu", T::Number, "USD", "generated fat tree", "Scale-out network per GPU (default: switches and cables of a non-blocking fat tree, or of --fabric).", {}, {"tco"}},
        {"--storage-fraction", T::Number, "fraction", "0.05", "Storage capex as a fraction of server capex.", {}, {"tco"}},
        {"--power-price-per-kwh", T::Number, "USD/kWh", "0.08", "Electricity price (EIA 2023 US industrial 0.06-0.09).", {}, {"tco"}},
        {"--pue", T::Number, "ratio", "1.3", "Power usage effectiveness (new large facilities, Uptime Institute).", {}, {"tco"}},
        {"--colo-per-kw-month", T::Number, "USD", "184", "Colocation per IT kW per month (CBRE N. America H2 2024).", {}, {"tco"}},
        {"--staff-per-year", T::Number, "USD", "0", "Operations staff cost per year.", {}, {"tco"}},
        {"--depreciation-years", T::Number, "years", "5", "Straight-line depreciation (hyperscalers 5-6).", {}, {"tco"}},
        {"--maintenance-fraction", T::Number, "fraction", "0.05", "Maintenance and support per year, of capex.", {}, {"tco"}},
        {"--avg-power-fraction", T::Number, "fraction", "0.75", "Average draw / nameplate while working (Epoch AI).", {}, {"tco"}},
        {"--rack-power-kw", T::Number, "kW", "41", "Power one rack can feed and cool.", {}, {"tco"}},
        {"--facility-power-cap-kw", T::Number, "kW", "-", "Facility power cap (limits the GPU count).", {}, {"tco"}},
        {"--grid-kg-co2-per-kwh", T::Number, "kg/kWh", "0.37", "Grid carbon intensity (US average, EPA eGRID 2022).", {}, {"tco"}},
        {"--run-gpu-hours", T::Number, "GPU-hours", "-", "Cost, energy and CO2 of one run of this many GPU-hours.", {}, {"tco"}},
        // Report.
        {"--output", T::String, "FILE.pdf|FILE.csv|DIR/", "-", "Where the report goes (-o): a PDF, one CSV with a table column, or a directory of CSVs.", {}, {"report"}},
        // Reliability. Defaults and sources: docs/reliability.md.
        {"--node-failures-per-1000-node-days", T::Number, "", "Llama 3 rate", "Node failure rate (Kokolis et al. units).", {}, {"reliability"}},
        {"--mtbf-hours", T::Number, "h", "-", "MTBF of the whole job (instead of the rates).", {}, {"reliability"}},
        {"--checkpoint-write-s", T::Number, "s", "checkpoint / storage bandwidth", "Time to write one checkpoint.", {}, {"reliability"}},
        {"--storage-bandwidth", T::Size, "bytes/s", "Llama 3: 2 TB/s per 16,384 GPUs", "Aggregate storage write bandwidth.", {}, {"reliability"}},
        {"--restart-s", T::Number, "s", "600", "Time from a failure to training again.", {}, {"reliability"}},
        {"--checkpoint-interval-s", T::Number, "s", "optimal (Daly)", "Checkpoint interval.", {}, {"reliability"}},
        {"--async-checkpoint", T::Switch, "", "off", "Snapshot to host memory, write in the background (CheckFreq).", {}, {"reliability"}},
        {"--days", T::Number, "days", "30", "Length of the run.", {}, {"reliability"}},
        {"--repair-hours", T::Number, "h", "24", "Time a failed node is out (spares).", {}, {"reliability"}},
        {"--straggler-cv", T::Number, "fraction", "0.01", "Per-GPU step-time coefficient of variation.", {}, {"reliability"}},
    };
    // Flags shared with the cost and reliability commands.
    for (FlagSpec& s : f) {
        if (s.name == "--gpus" || s.name == "--gpus-per-node")
            s.commands.insert(s.commands.end(), {"tco", "reliability"});
        if (s.name == "--gpu" || s.name == "--fabric")
            s.commands.emplace_back("tco");
        if (s.name == "--price-per-gpu-hour" || s.name == "--optimizer" || s.name == "--dtype" ||
            s.name == "--finetune" || s.name == "--lora-rank")
            s.commands.emplace_back("reliability");
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

std::string fmt_num(double v) {
    std::ostringstream o;
    o.imbue(std::locale::classic());
    o << v;
    return o.str();
}

} // namespace

const std::vector<FlagSpec>& flag_specs() {
    static const std::vector<FlagSpec> specs = build_specs();
    return specs;
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
        throw UsageError{name + ": expected an integer, found " + *v};
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
        throw UsageError{name + ": " + *v + " is outside [" + fmt_num(lo) + ", " + fmt_num(hi) +
                         "]"};
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
        throw UsageError{name + ": " + *v + " is outside [" + fmt_num(lo) + ", " + fmt_num(hi) +
                         "]"};
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

std::string help_text() {
    std::ostringstream o;
    o << R"(clusterlens-cli -- the ClusterLens model, headless (same numbers as the GUI).

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

Units: SI base units in JSON (bytes, seconds, FLOP/s, bytes/s, W, USD). Sizes accept
K M G T (10^3..) and Ki Mi Gi Ti (2^10..), optionally ending in B: 1GiB, 400GB, 1e9.
Numbers are read and printed in the C locale. Exit status: 0 on success, 2 with a
one-line message on stderr for bad input.

Flags (unit; default):
)";
    for (const auto& s : flag_specs()) {
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
        o << head << "\n      " << s.help;
        if (!s.def.empty())
            o << " Default: " << s.def << ".";
        std::string cmds;
        for (const auto& c : s.commands)
            cmds += (cmds.empty() ? "" : ", ") + c;
        if (cmds != "*")
            o << " [" << cmds << "]";
        o << "\n";
    }
    return o.str();
}

} // namespace cl::cli
