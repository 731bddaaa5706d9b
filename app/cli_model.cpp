// clusterlens-cli model commands: memory, roofline (and the model/GPU resolution they share).
#include "cli_common.h"

#include "model/inference.h"
#include "model/memory.h"
#include "model/roofline.h"
#include "model/schema.h"
#include "model/search.h"
#include "model/training.h"
#include "model/units.h"

#include <filesystem>

namespace cl::cli {

using nlohmann::json;
namespace units = model::units;

model::ModelArch resolve_model(Flags& f, const model::Catalog& cat) {
    model::ModelArch m;
    const std::string* id = f.raw("--model");
    if (id) {
        if (const model::ModelArch* z = cat.model(*id)) {
            m = *z;
            f.record("--model", *id, "flag");
        } else {
            std::error_code ec;
            if (!std::filesystem::exists(*id, ec)) {
                std::string msg =
                    "--model: unknown model \"" + *id + "\" (not a bundled id nor a file";
                if (auto s = cat.closest_id(model::CatalogKind::models, *id); !s.empty())
                    msg += "; did you mean \"" + s + "\"?";
                throw UsageError{msg + ")"};
            }
            auto text = model::read_text_file(*id, 16u * 1024u * 1024u);
            if (!text)
                throw UsageError{"--model: " + text.errors().front().message()};
            auto imported = model::import_hf_config(*text, *id);
            if (!imported)
                throw UsageError{"--model: " + imported.errors().front().message()};
            m = std::move(imported).value();
            f.record("--model", *id, "flag (Hugging Face config.json)");
        }
    } else {
        for (const char* req : {"--layers", "--hidden", "--heads", "--vocab"})
            if (!f.has(req))
                throw UsageError{std::string("without --model, ") + req +
                                 " is required (as are --layers --hidden --heads --vocab)"};
        m.id = "custom";
        m.name = "custom model";
    }
    const long long big = 1 << 24;
    const bool custom = !id;
    auto ov = [&](const char* flag, int& field, long long lo) {
        if (f.has(flag))
            field = static_cast<int>(f.get_int(flag, field, lo, big));
    };
    ov("--layers", m.layers, 1);
    ov("--hidden", m.hidden, 1);
    ov("--heads", m.heads, 1);
    ov("--vocab", m.vocab, 1);
    if (custom) {
        m.kv_heads = m.heads;
        m.head_dim = m.hidden / m.heads;
    }
    ov("--kv-heads", m.kv_heads, 1);
    if (f.has("--heads") && !f.has("--head-dim") && !custom && !f.has("--hidden"))
        m.head_dim = m.hidden / m.heads;
    if (f.has("--hidden") && !f.has("--head-dim"))
        m.head_dim = m.hidden / m.heads;
    ov("--head-dim", m.head_dim, 1);
    if (f.has("--mlp"))
        m.mlp = f.get_choice("--mlp", "swiglu") == "gelu" ? model::Mlp::gelu : model::Mlp::swiglu;
    if (custom || f.has("--mlp") || f.has("--hidden")) {
        // CLI.md: --ffn defaults to 4h (gelu) or the Llama rule (swiglu: 8h/3 rounded up to a
        // multiple of 256, Touvron et al. 2023a sec. 2.2).
        if (!f.has("--ffn") && (custom || f.has("--mlp")))
            m.ffn =
                m.mlp == model::Mlp::gelu ? 4 * m.hidden : ((8 * m.hidden / 3 + 255) / 256) * 256;
    }
    ov("--ffn", m.ffn, 1);
    if (f.has("--tied-embeddings"))
        m.tied_embeddings = f.get_bool("--tied-embeddings", false);
    ov("--experts", m.experts, 0);
    ov("--top-k", m.top_k, 0);
    if (f.has("--experts") && !f.has("--moe-ffn") && m.moe_ffn == 0)
        m.moe_ffn = m.ffn;
    ov("--moe-ffn", m.moe_ffn, 0);
    ov("--shared-experts", m.shared_experts, 0);
    ov("--dense-layers", m.dense_layers, 0);
    ov("--router-groups", m.router_groups, 0);
    ov("--router-group-top-k", m.router_group_top_k, 0);
    ov("--mtp-layers", m.mtp_layers, 0);
    ov("--kv-lora-rank", m.kv_lora_rank, 0);
    ov("--q-lora-rank", m.q_lora_rank, 0);
    if (m.experts > 0 && m.top_k == 0) {
        if (f.has("--top-k")) // given as 0: refused, not run as 1
            throw UsageError{"--top-k: a mixture of experts routes each token to at least 1 "
                             "expert (found 0)"};
        m.top_k = 1;
        f.record("--top-k", 1, "default: 1 for a mixture of experts");
    }
    const auto errs = m.validate();
    if (!errs.empty()) {
        std::string field = errs.front().where;
        std::replace(field.begin(), field.end(), '_', '-');
        throw UsageError{"--" + field + ": " + errs.front().what};
    }
    f.record("params", m.total_params(), "derived from the architecture");
    return m;
}

const model::GpuSpec& cluster_gpu(const model::Topology& topo, const model::Catalog& cat) {
    const model::GpuSpec* gpu = cat.gpu(topo.gpu);
    if (!gpu)
        throw UsageError{
            "--gpu: the cluster has no GPU type (add a GPU or a system to the fabric)"};
    return *gpu;
}

const model::GpuSpec& resolve_gpu(Flags& f, const model::Catalog& cat) {
    const std::string id = f.get_string("--gpu", "h100-sxm");
    const model::GpuSpec* g = cat.gpu(id);
    if (!g) {
        std::string msg = "--gpu: unknown GPU \"" + id + "\"";
        if (auto s = cat.closest_id(model::CatalogKind::gpus, id); !s.empty())
            msg += " (did you mean \"" + s + "\"?)";
        throw UsageError{msg + "; see `catalog gpus`"};
    }
    return *g;
}

namespace {

/// --dtype for training: the flag also takes the roofline's types (tf32, int8...), which
/// training does not run in.
model::TrainingDtype training_dtype(Flags& f) {
    const std::string dt = f.get_choice("--dtype", "bf16");
    const auto t = model::choice_from_string<model::TrainingDtype>(dt);
    if (!t)
        throw UsageError{"--dtype: training supports bf16|fp16|fp8|fp32, found \"" + dt + "\""};
    return *t;
}

constexpr long long kMaxGpus = 1LL << 24; // 16.7 M GPUs: beyond any cluster we model

json breakdown_json(const model::MemoryBreakdown& b) {
    return {{"weights", b.weights},     {"gradients", b.gradients},
            {"optimizer", b.optimizer}, {"activations", b.activations},
            {"kv_cache", b.kv_cache},   {"other", b.other},
            {"total", b.total()}};
}

/// Reads the training layout flags into a TrainingSpec and the GPU count.
struct Layout {
    model::TrainingSpec t;
    int gpus = 1;
    bool auto_micro_batch = true;
};

Layout read_layout(Flags& f) {
    Layout l;
    model::TrainingSpec& t = l.t;
    // The layout first: dp and the GPU count follow from it.
    t.tp = static_cast<int>(f.get_int("--tp", t.tp));
    t.pp = static_cast<int>(f.get_int("--pp", t.pp));
    t.cp = static_cast<int>(f.get_int("--cp", t.cp));
    t.ep = static_cast<int>(f.get_int("--ep", t.ep));
    t.vpp = static_cast<int>(f.get_int("--vpp", t.vpp));
    const long long mp = static_cast<long long>(t.tp) * t.pp * t.cp;
    long long gpus = 0;
    if (f.has("--gpus")) {
        gpus = f.get_int("--gpus", 0, 1, kMaxGpus);
        if (gpus % mp != 0)
            throw UsageError{"--gpus: tp*pp*cp = " + std::to_string(mp) + " does not divide " +
                             std::to_string(gpus) + " GPUs"};
        if (f.has("--dp")) {
            const long long dp = f.get_int("--dp", 1, 1, kMaxGpus);
            if (dp * mp != gpus)
                throw UsageError{"--dp: dp = " + std::to_string(dp) +
                                 " disagrees with gpus/(tp*pp*cp) = " + std::to_string(gpus / mp)};
        }
    } else {
        const long long dp = f.get_int("--dp", 1, 1, kMaxGpus);
        gpus = dp * mp;
        if (gpus > kMaxGpus)
            throw UsageError{"--gpus: tp*pp*cp*dp = " + std::to_string(gpus) + " is too many GPUs"};
        f.record("--gpus", gpus, "default: tp*pp*cp*dp");
    }
    l.gpus = static_cast<int>(gpus);
    const long long dp = gpus / mp;
    f.record("dp", dp, "derived: gpus/(tp*pp*cp)");
    t.global_batch = f.get_int("--global-batch", 0, "default: not set");
    if (t.global_batch > 0 && t.global_batch % dp != 0)
        throw UsageError{"--global-batch: " + std::to_string(t.global_batch) +
                         " is not a multiple of dp = " + std::to_string(dp)};
    auto mb = f.get_int_or_auto("--micro-batch");
    l.auto_micro_batch = !mb;
    t.micro_batch = mb ? static_cast<int>(*mb) : 1;
    t.dtype = training_dtype(f);
    // Defaults that follow the layout (CLI.md), then every other training setting of the schema.
    t.sequence_parallel = f.get_bool("--sequence-parallel", t.tp > 1, "default: on when tp > 1");
    t.schedule = f.get_enum("--schedule", t.vpp > 1 ? model::Schedule::interleaved
                                                    : model::Schedule::one_f_one_b);
    t = f.read_settings(t);
    // Cluster-shape flags are accepted and recorded (the fabric model uses them).
    if (f.has("--gpus-per-node"))
        f.get_int("--gpus-per-node", 8, 1, 4096);
    if (f.has("--scaleup-domain"))
        f.get_int("--scaleup-domain", 8, 1, kMaxGpus);
    if (f.has("--nics-per-node"))
        f.get_int("--nics-per-node", 8, 0, 4096);
    if (f.has("--oversubscription"))
        f.get_number("--oversubscription", 1, 1, 1000);
    if (f.has("--scaleout"))
        f.get_string("--scaleout", "");
    return l;
}

/// --assume KEY=VALUE[,KEY=VALUE...]: any assumption of the schema by its design-file key
/// ("training.tp_overlap=0.8"), checked against the field's range like an inspector edit. The
/// values given carry the source "flag (--assume)", so the inputs say what the user set.
model::ModelAssumptions read_assumptions(Flags& f) {
    model::Design d;
    const std::string list = f.get_string("--assume", "");
    std::size_t start = 0;
    while (!list.empty() && start <= list.size()) {
        const std::size_t comma = list.find(',', start);
        const std::string item =
            list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        start = comma == std::string::npos ? list.size() + 1 : comma + 1;
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos)
            throw UsageError{"--assume: '" + item +
                             "' is not KEY=VALUE (for example training.tp_overlap=0.8)"};
        const std::string key = item.substr(0, eq), text = item.substr(eq + 1);
        const model::Field* field = model::find_field(model::Section::assumptions, key);
        if (!field) {
            std::string known;
            for (const model::Field* k : model::section_fields(model::Section::assumptions))
                known += (known.empty() ? "" : ", ") + k->key;
            throw UsageError{"--assume: unknown assumption '" + key + "' (one of: " + known + ")"};
        }
        std::optional<double> v = units::parse_number(text);
        if (field->unit == "bool") { // on/off assumptions (FlashAttention): 1 or 0, on or off
            if (text == "on" || text == "true" || text == "yes")
                v = 1.0;
            else if (text == "off" || text == "false" || text == "no")
                v = 0.0;
            else if (!v || (*v != 0 && *v != 1))
                throw UsageError{"--assume " + key + ": '" + text + "' is not on or off (or 1/0)"};
        }
        if (!v)
            throw UsageError{"--assume " + key + ": '" + text + "' is not a number"};
        auto checked = model::check_value(*field, *v, d, "", nullptr);
        if (!checked)
            throw UsageError{"--assume " + key + ": " + checked.errors().front().what};
        field->set(d, "", *checked);
        f.record(key, *v, "flag (--assume)");
    }
    // Mark what the user set, so every later record of these values names the flag.
    const model::ModelAssumptions defaults;
    auto mark = [](model::Assumption& a, const model::Assumption& def) {
        if (a.value != def.value)
            a.source = "flag (--assume)";
    };
    auto& a = d.assumptions;
    mark(a.training.tp_overlap, defaults.training.tp_overlap);
    mark(a.training.dp_overlap, defaults.training.dp_overlap);
    mark(a.training.memory_efficiency, defaults.training.memory_efficiency);
    mark(a.memory.framework_overhead_bytes, defaults.memory.framework_overhead_bytes);
    mark(a.memory.flash_attention, defaults.memory.flash_attention);
    mark(a.memory.max_num_seqs, defaults.memory.max_num_seqs);
    mark(a.memory.gpu_memory_utilization, defaults.memory.gpu_memory_utilization);
    return a;
}

/// The per-GPU framework memory: --framework-overhead, or the --assume value, not both.
void read_framework_overhead(Flags& f, model::MemoryAssumptions& ma) {
    if (f.has("--framework-overhead") &&
        std::string_view(ma.framework_overhead_bytes.source) == "flag (--assume)")
        throw UsageError{"--framework-overhead: also set by --assume "
                         "memory.framework_overhead_bytes; give one of them"};
    ma.framework_overhead_bytes.value =
        f.get_size("--framework-overhead", ma.framework_overhead_bytes.value, 0, 1e13,
                   ma.framework_overhead_bytes.source);
}

void record_assumptions(Flags& f, const model::MemoryAssumptions& a) {
    f.record("framework_overhead_bytes", a.framework_overhead_bytes.value,
             f.has("--framework-overhead") ? "flag" : a.framework_overhead_bytes.source);
    f.record("flash_attention", a.flash_attention.value > 0.5, a.flash_attention.source);
}

} // namespace

json memory_json(const model::MemoryBreakdown& per_gpu, double capacity_bytes,
                 double headroom_bytes, bool fits, int worst_stage) {
    return {{"per_gpu_bytes", breakdown_json(per_gpu)},
            {"capacity_bytes", capacity_bytes},
            {"headroom_bytes", headroom_bytes},
            {"fits", fits},
            {"worst_stage", worst_stage}};
}

int cmd_memory(Flags& f, std::ostream& out) {
    const model::Catalog cat = load_catalog(f);
    const model::ModelArch m = resolve_model(f, cat);
    const model::GpuSpec& gpu = resolve_gpu(f, cat);
    Layout l = read_layout(f);
    model::MemoryAssumptions a = read_assumptions(f).memory;
    read_framework_overhead(f, a);
    record_assumptions(f, a);

    model::TrainingSpec t = l.t;
    auto result = model::training_memory(m, t, l.gpus, gpu, a);
    if (result && l.auto_micro_batch && t.global_batch > 0) {
        // auto: the largest divisor of global-batch/dp that fits (the throughput-optimal one
        // needs the training model; until then larger micro-batches are the faster choice).
        const long long per_dp = t.global_batch / result->dp;
        for (long long mb = per_dp; mb >= 1; --mb) {
            if (per_dp % mb != 0)
                continue;
            t.micro_batch = static_cast<int>(mb);
            auto r = model::training_memory(m, t, l.gpus, gpu, a);
            if (r && r->fits) {
                result = r;
                break;
            }
            if (mb == 1)
                result = r;
        }
        f.record("--micro-batch", t.micro_batch,
                 "auto: largest divisor of global-batch/dp that fits");
    }
    if (!result) {
        const auto& e = result.errors().front();
        throw UsageError{e.where + ": " + e.what};
    }
    const model::TrainingMemory& mem = result.value();
    if (f.has("--json")) {
        json j = envelope(f);
        json stages = json::array();
        for (const auto& s : mem.stages)
            stages.push_back({{"stage", s.stage},
                              {"layers", s.layers},
                              {"params_per_gpu", s.params},
                              {"expert_params_per_gpu", s.expert_params},
                              {"per_gpu_bytes", breakdown_json(s.bytes)}});
        j["memory"] = memory_json(mem.per_gpu, mem.capacity_bytes, mem.headroom_bytes, mem.fits,
                                  mem.worst_stage);
        j["memory"].update(
            json{{"dp", mem.dp},
                 {"micro_batch", mem.micro_batch},
                 {"micro_batches_in_flight", mem.micro_batches_in_flight},
                 {"params_per_gpu", mem.params_per_gpu},
                 {"expert_params_per_gpu", mem.expert_params_per_gpu},
                 {"expert_data_parallel",
                  m.is_moe() ? json(model::expert_data_parallel(t, mem.dp)) : json()},
                 {"trainable_params", mem.trainable_params},
                 {"offload_pcie_bytes_per_step", mem.offload_pcie_bytes_per_step},
                 {"stages", stages},
                 {"explanation", mem.explanation}});
        print_json(out, j);
        return 0;
    }
    // Training memory (helper-26 read it as serving memory): `infer` prints a serving replica's.
    out << "Training memory: " << m.name << " on " << l.gpus << " × "
        << (gpu.name.empty() ? gpu.id : gpu.name) << " (tp " << t.tp << ", pp " << t.pp << ", cp "
        << t.cp << ", dp " << mem.dp << ", micro-batch " << mem.micro_batch << ")\n\n";
    const auto& b = mem.per_gpu;
    Table tb;
    tb.header = {"memory per GPU (stage " + std::to_string(mem.worst_stage) + ")", "bytes", "GiB"};
    auto row = [&](const char* name, double v) {
        tb.rows.push_back({name, units::format_bytes(v), fmt(v / units::GiB, 2)});
    };
    row("weights", b.weights);
    row("gradients", b.gradients);
    row("optimizer", b.optimizer);
    row("activations", b.activations);
    row("other", b.other);
    row("total", b.total());
    row("capacity", mem.capacity_bytes);
    row("headroom", mem.headroom_bytes);
    tb.print(out);
    out << '\n' << mem.explanation << '\n';
    out << "(A serving replica's memory -- weights, KV cache, workspace: `infer`.)\n";
    return 0;
}

int cmd_roofline(Flags& f, std::ostream& out) {
    const model::Catalog cat = load_catalog(f);
    const model::ModelArch m = resolve_model(f, cat);
    const model::GpuSpec& gpu = resolve_gpu(f, cat);
    model::RooflineInputs in;
    in.dtype = *model::dtype_from_name(f.get_choice("--dtype", "bf16"));
    in.phase = f.get_choice("--phase", "prefill") == "decode" ? model::Phase::decode
                                                              : model::Phase::prefill;
    in.batch = static_cast<int>(f.get_int("--batch", 1));
    in.seq = static_cast<int>(f.get_int("--seq", 4096));
    in.tp = static_cast<int>(f.get_int("--tp", 1));
    auto r = model::roofline(m, gpu, in);
    if (!r) {
        const auto& e = r.errors().front();
        throw UsageError{e.where + ": " + e.what};
    }
    if (f.has("--json")) {
        json j = envelope(f);
        json ceilings = json::array();
        for (const auto& c : r->ceilings) {
            json cj{{"name", c.name}};
            if (c.flops > 0)
                cj["flops"] = c.flops;
            else
                cj["Bps"] = c.Bps;
            ceilings.push_back(cj);
        }
        json ops = json::array();
        for (const auto& o : r->operators)
            ops.push_back({{"name", o.name},
                           {"flops", o.flops},
                           {"bytes", o.bytes},
                           {"intensity_flop_per_byte", o.intensity},
                           {"backward_flops", o.backward_flops},
                           {"attainable_flops", o.attainable_flops},
                           {"bound", o.compute_bound ? "compute" : "memory"},
                           {"time_s", o.time_s}});
        j["roofline"] = {{"peak_flops", r->peak_flops},
                         {"memory_bandwidth_Bps", r->memory_bandwidth_Bps},
                         {"ridge_flop_per_byte", r->ridge},
                         {"ceilings", ceilings},
                         {"operators", ops},
                         {"layer_time_s", r->layer_time_s}};
        print_json(out, j);
        return 0;
    }
    out << m.name << " on " << gpu.id << ", " << model::dtype_name(in.dtype) << ", "
        << (in.phase == model::Phase::decode ? "decode" : "prefill") << ", batch " << in.batch
        << ", seq " << in.seq << ", tp " << in.tp << "\n";
    out << "peak " << units::format_si(r->peak_flops, "FLOP/s") << ", HBM "
        << units::format_si(r->memory_bandwidth_Bps, "B/s") << ", ridge " << fmt(r->ridge, 0)
        << " FLOP/byte\n\n";
    Table t;
    t.header = {"operator", "FLOPs", "bytes", "FLOP/byte", "attainable", "bound", "time"};
    for (const auto& o : r->operators)
        t.rows.push_back({o.name, units::format_si(o.flops, "FLOP"), units::format_bytes(o.bytes),
                          fmt(o.intensity, 1), units::format_si(o.attainable_flops, "FLOP/s"),
                          o.compute_bound ? "compute" : "memory", fmt(o.time_s * 1e6, 1) + " us"});
    t.print(out);
    return 0;
}

/// Issue 22: each group's traffic and each tier's load (train and infer --json).
json traffic_json(const std::vector<model::GroupTraffic>& traffic) {
    json a = json::array();
    for (const auto& g : traffic)
        a.push_back({{"group", g.group},
                     {"what", g.what},
                     {"ranks", g.ranks},
                     {"tier", g.tier},
                     {"oversubscription", g.oversubscription},
                     {"bytes", g.bytes},
                     {"busy_s", g.busy_s}});
    return a;
}
json tier_loads_json(const std::vector<model::TierLoad>& tiers) {
    json a = json::array();
    for (const auto& t : tiers)
        a.push_back({{"tier", t.tier},
                     {"name", t.name},
                     {"busy", t.busy},
                     {"bytes", t.bytes},
                     {"oversubscription", t.oversubscription},
                     {"groups", t.groups}});
    return a;
}
/// The traffic table of `train` and `infer`, and the busiest network tier.
void print_traffic(std::ostream& out, const std::vector<model::GroupTraffic>& traffic,
                   const std::string& bottleneck, const char* per) {
    if (traffic.empty())
        return;
    out << "\n";
    Table gt;
    gt.header = {"group", "GPUs", "crosses", std::string("per GPU per ") + per,
                 "busy (before overlap)"};
    for (const auto& g : traffic)
        gt.rows.push_back({g.group + ": " + g.what, std::to_string(g.ranks),
                           model::tier_short_name(g.tier), units::format_bytes(g.bytes),
                           // Readable: "8.9 ms", not "0.0089 s" (helper-27).
                           g.busy_s < 1 ? units::format_ms(g.busy_s * 1e3) + " ms"
                                        : units::format_seconds(g.busy_s) + " s"});
    gt.print(out);
    if (!bottleneck.empty())
        out << "busiest network tier: " << bottleneck << "\n";
}

json train_json(const model::TrainingResult& r) {
    const auto& b = r.breakdown;
    return {{"step_time_s", r.step_time_s},
            {"tokens_per_s", r.tokens_per_s},
            {"model_flops_per_gpu", r.model_flops_per_gpu},
            {"hardware_flops_per_gpu", r.hardware_flops_per_gpu},
            {"mfu", r.mfu},
            {"hfu", r.hfu},
            {"bubble_fraction", r.bubble_fraction},
            {"micro_batch", r.micro_batch},
            {"micro_batches", r.micro_batches},
            {"kernels_per_step", r.kernels_per_step},
            {"launch_gap_s", r.launch_gap_s},
            {"breakdown_s",
             {{"compute", b.compute},
              {"recompute", b.recompute},
              {"tp_comm", b.tp_comm},
              {"cp_comm", b.cp_comm},
              {"ep_comm", b.ep_comm},
              {"pp_comm", b.pp_comm},
              {"dp_comm", b.dp_comm},
              {"optimizer", b.optimizer},
              {"bubble", b.bubble + b.other}}},
            {"time_to_train_s", r.time_to_train_s},
            {"gpu_hours", r.gpu_hours},
            {"cost_usd", r.cost_usd},
            {"traffic", traffic_json(r.traffic)},
            {"tiers", tier_loads_json(r.tiers)},
            {"bottleneck", r.bottleneck},
            {"fabric_note", r.fabric_note}};
}

json infer_json(const model::InferenceResult& r) {
    return {{"ttft_s", r.ttft_s},
            {"tpot_s", r.tpot_s},
            {"output_tokens_per_s", r.output_tokens_per_s},
            {"output_tokens_per_s_per_gpu", r.output_tokens_per_s_per_gpu},
            {"kv_bytes_per_token", r.memory.kv_bytes_per_token},
            {"max_batch", r.memory.max_batch},
            {"weights_bytes_per_gpu", r.memory.weights_bytes_per_gpu},
            {"usd_per_million_output_tokens", r.usd_per_million_output_tokens},
            {"usd_per_million_input_tokens", r.usd_per_million_input_tokens},
            {"gpus_needed", r.gpus_needed},
            {"batch", r.batch},
            {"batch_limit", std::string(model::to_string(r.batch_limit))},
            {"expert_parallel", r.expert_parallel},
            {"expert_tp", r.expert_tp},
            {"busiest_expert_reads", r.busiest_expert_reads},
            {"attention_dp_busiest_rank", r.busiest_rank},
            {"attention_dp_busiest_step_share", r.busiest_rank_step_share},
            {"max_batch_without_attention_dp", r.max_batch_without_attention_dp},
            {"decode_share", r.decode_share},
            {"prefill_s", r.prefill_s},
            {"decode_step_s", r.decode_step_s},
            {"decode_step_gpu_s", r.decode_step_gpu_s},
            {"replicas_needed", r.replicas_needed},
            {"prefill_replicas_needed", r.prefill_replicas_needed},
            {"utilization", r.utilization},
            {"queue_wait_s", r.queue_wait_s},
            {"capacity_requests_per_s", r.capacity_rps},
            {"speculative_speedup", r.speculative_speedup},
            {"speculative_speedup_at_batch", r.speculative_speedup_at_batch},
            {"draft_step_ratio", r.draft_step_ratio},
            {"job_makespan_s", r.job_makespan_s},
            {"job_mean_ttft_s", r.job_mean_ttft_s},
            {"job_mean_batch", r.job_mean_batch},
            {"job_steps", r.job_steps},
            {"job_requests_per_replica", r.job_requests_per_replica}};
}

namespace {
struct BandKey {
    const char* key;
    model::Scales scales;
    bool integer = false;       ///< a count (GPUs): the range in whole units
    const char* note = nullptr; ///< added to the basis of this key, after "; "
};

/// The one loop behind both add_bands overloads.
void add_band_keys(json& obj, const model::Band& band, const std::vector<BandKey>& keys) {
    json why = json::object();
    for (const auto& k : keys) {
        const auto it = obj.find(k.key);
        // No band where nothing was modelled (a price not given leaves $ and GPUs-needed at 0).
        if (it == obj.end() || !it->is_number() || it->get<double>() == 0.0)
            continue;
        const double v = it->get<double>();
        auto [lo, hi] = model::band_range(v, band, k.scales);
        if (k.integer && v > 0) {
            lo = std::max(1.0, std::floor(lo));
            hi = std::ceil(hi);
        }
        obj[std::string(k.key) + "_range"] = {lo, hi};
        why[k.key] = {{"basis", k.note ? band.basis + "; " + k.note : band.basis},
                      {"rows", band.rows},
                      {"held_out_median_error", band.median_abs_error}};
    }
    obj["uncertainty"] = why;
}
} // namespace

void add_bands(json& obj, const model::Band& band, model::BandKind kind) {
    using model::Scales;
    const char* latency = model::kLatencyBasis;
    static const std::vector<BandKey> training = {{"step_time_s", Scales::with_time},
                                                  {"tokens_per_s", Scales::with_speed},
                                                  {"model_flops_per_gpu", Scales::with_speed},
                                                  {"hardware_flops_per_gpu", Scales::with_speed},
                                                  {"mfu", Scales::with_speed},
                                                  {"hfu", Scales::with_speed},
                                                  {"time_to_train_s", Scales::with_time},
                                                  {"gpu_hours", Scales::with_time},
                                                  {"cost_usd", Scales::with_time}};
    static const std::vector<BandKey> serving = {
        {"ttft_s", Scales::with_time, false, latency},
        {"tpot_s", Scales::with_time, false, latency},
        {"output_tokens_per_s", Scales::with_speed},
        {"output_tokens_per_s_per_gpu", Scales::with_speed},
        {"usd_per_million_output_tokens", Scales::with_time},
        {"usd_per_million_input_tokens", Scales::with_time},
        {"gpus_needed", Scales::with_time, true}};
    static const std::vector<BandKey> collective = {{"time_s", Scales::with_time},
                                                    {"algbw_Bps", Scales::with_speed},
                                                    {"busbw_Bps", Scales::with_speed}};
    add_band_keys(obj, band,
                  kind == model::BandKind::training  ? training
                  : kind == model::BandKind::serving ? serving
                                                     : collective);
}

void add_bands(json& obj, const model::Band& band,
               const std::vector<std::pair<const char*, model::Scales>>& keys) {
    std::vector<BandKey> k;
    for (const auto& [key, scales] : keys)
        k.push_back({key, scales});
    add_band_keys(obj, band, k);
}

int cmd_train(Flags& f, std::ostream& out) {
    const model::Catalog cat = load_catalog(f);
    const model::ModelArch m = resolve_model(f, cat);
    std::string source;
    const model::Topology topo = cluster_topology(f, cat, &source);
    const model::GpuSpec* gpu = &cluster_gpu(topo, cat);
    Layout l = read_layout(f);
    if (l.t.global_batch <= 0)
        throw UsageError{"--global-batch: required for train (sequences per step)"};
    if (topo.gpus > 0 && l.gpus > topo.gpus + 0.5 && f.has("--fabric"))
        throw UsageError{"--gpus: the job needs " + std::to_string(l.gpus) +
                         " GPUs but the fabric has " +
                         std::to_string(static_cast<long long>(topo.gpus))};
    const model::ModelAssumptions assumed = read_assumptions(f);
    model::MemoryAssumptions ma = assumed.memory;
    read_framework_overhead(f, ma);
    record_assumptions(f, ma);
    const double price = f.get_unset_or_positive("--price-per-gpu-hour", 1e6, "no cost figures");
    model::TrainingSpec t = l.t; // with --tokens (read_settings)
    const double tokens = t.tokens;
    if (l.auto_micro_batch)
        t.micro_batch = 0;
    const model::TrainingAssumptions& ta = assumed.training;
    f.record("tp_overlap", ta.tp_overlap.value, ta.tp_overlap.source);
    f.record("dp_overlap", ta.dp_overlap.value, ta.dp_overlap.source);
    f.record("memory_efficiency", ta.memory_efficiency.value, ta.memory_efficiency.source);
    f.record("gemm_efficiency", gpu->gemm_efficiency(model::to_dtype(t.dtype)),
             "catalog: measured best GEMM / dense peak (mamf-finder), else 0.80");
    auto r = model::train_step(m, t, l.gpus, *gpu, topo, ta, {}, ma, price);
    if (!r) {
        const auto& e = r.errors().front();
        throw UsageError{e.where + ": " + e.what};
    }
    const auto& mem = r->memory;
    const auto& b = r->breakdown;
    if (f.has("--json")) {
        json j = envelope(f);
        j["memory"] = memory_json(mem.per_gpu, mem.capacity_bytes, mem.headroom_bytes, mem.fits,
                                  mem.worst_stage);
        json tr = train_json(*r);
        tr.erase("time_to_train_s");
        tr.erase("gpu_hours");
        tr.erase("cost_usd");
        if (tokens > 0) {
            tr["time_to_train_s"] = r->time_to_train_s;
            tr["gpu_hours"] = r->gpu_hours;
            if (price > 0)
                tr["cost_usd"] = r->cost_usd;
        }
        add_bands(tr, model::band_for(model::training_case(m, t, *gpu, l.gpus)),
                  model::BandKind::training);
        j["train"] = tr;
        print_json(out, j);
        return 0;
    }
    out << m.name << " on " << l.gpus << " × " << (gpu->name.empty() ? gpu->id : gpu->name) << " ("
        << source << "), tp " << t.tp << " pp " << t.pp << " cp " << t.cp << " dp " << mem.dp
        << ", micro-batch " << r->micro_batch << " × " << r->micro_batches << "\n\n";
    // Issue 19: the model's error band beside each modelled number, and why below the table.
    const model::Band band = model::band_for(model::training_case(m, t, *gpu, l.gpus));
    using model::Scales;
    const auto within = [&](double v, Scales sc, int decimals, const std::string& unit) {
        return model::range_text(v, band, sc, decimals) + unit;
    };
    Table tb;
    tb.header = {"training", "value", "model's error band"};
    tb.rows = {
        {"step time", fmt(r->step_time_s, 3) + " s",
         within(r->step_time_s, Scales::with_time, 3, " s")},
        {"tokens/s (job)", model::units::format_count(r->tokens_per_s),
         within(r->tokens_per_s, Scales::with_speed, 0, "")},
        {"model TFLOP/s per GPU", fmt(r->model_flops_per_gpu / 1e12, 1),
         within(r->model_flops_per_gpu / 1e12, Scales::with_speed, 1, "")},
        {"MFU", fmt(r->mfu * 100, 1) + " %", within(r->mfu * 100, Scales::with_speed, 1, " %")},
        {"HFU", fmt(r->hfu * 100, 1) + " %", within(r->hfu * 100, Scales::with_speed, 1, " %")},
        {"bubble", fmt(r->bubble_fraction * 100, 1) + " %", ""},
        {"memory per GPU",
         units::format_bytes(mem.per_gpu.total()) + " of " +
             units::format_bytes(mem.capacity_bytes) + (mem.fits ? " (fits)" : " (does NOT fit)"),
         ""}};
    if (tokens > 0) {
        tb.rows.push_back({"time to train", fmt(r->time_to_train_s / 86400, 2) + " days",
                           within(r->time_to_train_s / 86400, Scales::with_time, 2, " days")});
        tb.rows.push_back(
            {"GPU-hours", fmt(r->gpu_hours, 0), within(r->gpu_hours, Scales::with_time, 0, "")});
        if (price > 0)
            tb.rows.push_back({"cost", "$" + fmt(r->cost_usd, 0),
                               "$" + within(r->cost_usd, Scales::with_time, 0, "")});
    }
    tb.print(out);
    for (const std::string& line : wrap_words("error band: " + band.basis, 100))
        out << line << '\n';
    out << "\n";
    Table bt;
    bt.header = {"breakdown (exposed)", "seconds", "share"};
    auto row = [&](const char* n, double v) {
        bt.rows.push_back({n, fmt(v, 4), fmt(100 * v / r->step_time_s, 1) + " %"});
    };
    row("compute", b.compute);
    row("recompute", b.recompute);
    row("TP comm", b.tp_comm);
    row("CP comm", b.cp_comm);
    row("EP comm", b.ep_comm);
    row("PP comm", b.pp_comm);
    row("DP comm", b.dp_comm);
    row("optimizer", b.optimizer);
    row("bubble", b.bubble + b.other);
    bt.print(out);
    // Issue 22: where each group's traffic goes, and the busiest network tier.
    print_traffic(out, r->traffic, r->bottleneck, "step");
    if (!r->fabric_note.empty())
        out << "oversubscription: " << r->fabric_note << "\n";
    return 0;
}

int cmd_search(Flags& f, std::ostream& out) {
    if (f.has("--dp"))
        throw UsageError{"--dp: search derives dp from --gpus; pin --tp, --pp or --cp instead"};
    const model::Catalog cat = load_catalog(f);
    const model::ModelArch m = resolve_model(f, cat);
    std::string source;
    const model::Topology topo = cluster_topology(f, cat, &source);
    const model::GpuSpec* gpu = &cluster_gpu(topo, cat);
    if (!f.has("--gpus"))
        throw UsageError{"--gpus: required for search"};
    const long long gpus = f.get_int("--gpus", 0, 1, 1LL << 24);
    model::TrainingSpec t;
    t.global_batch = f.get_int("--global-batch", 0, "default: not set");
    if (t.global_batch <= 0)
        throw UsageError{"--global-batch: required for search (sequences per step)"};
    t.dtype = training_dtype(f);
    model::SearchPins pins;
    auto pin = [&](const char* flag, int& field) {
        if (f.has(flag))
            field = static_cast<int>(f.get_int(flag, 1));
        else
            f.record(flag, "open", "searched");
    };
    pin("--tp", pins.tp);
    pin("--pp", pins.pp);
    pin("--cp", pins.cp);
    pin("--ep", pins.ep);
    pin("--vpp", pins.vpp);
    if (f.has("--micro-batch")) {
        auto mb = f.get_int_or_auto("--micro-batch");
        pins.micro_batch = mb ? static_cast<int>(*mb) : 0;
    } else {
        f.record("--micro-batch", "open", "searched");
    }
    if (f.has("--zero"))
        pins.zero = static_cast<int>(f.get_int("--zero", 1));
    else
        f.record("--zero", "open", "searched");
    if (f.has("--recompute"))
        pins.recompute = f.get_enum("--recompute", model::Recompute::selective);
    else
        f.record("--recompute", "open", "searched");
    f.skip("--sequence-parallel"); // each layout: on when tp > 1 (search.cpp)
    // The other training settings of the schema (sequence length, optimizer, schedule...).
    t = f.read_settings(t);
    model::SearchOptions opt;
    opt.minimize_cost = f.get_choice("--objective", "throughput") == "cost";
    opt.top_k = static_cast<int>(f.get_int("--top", 10, 1, 10000));
    opt.price_per_gpu_hour =
        f.get_unset_or_positive("--price-per-gpu-hour", 1e6, "no cost figures");
    const model::ModelAssumptions assumed = read_assumptions(f);
    model::MemoryAssumptions ma = assumed.memory;
    read_framework_overhead(f, ma);
    record_assumptions(f, ma);
    auto r = model::search_layouts(m, t, static_cast<int>(gpus), *gpu, topo, pins, opt,
                                   assumed.training, {}, ma);
    if (!r) {
        const auto& e = r.errors().front();
        throw UsageError{e.where + ": " + e.what};
    }
    auto row_json = [](const model::SearchRow& s) {
        return json{{"tp", s.tp},
                    {"pp", s.pp},
                    {"dp", s.dp},
                    {"cp", s.cp},
                    {"ep", s.ep},
                    {"vpp", s.vpp},
                    {"micro_batch", s.micro_batch},
                    {"zero", s.zero},
                    {"recompute", model::to_string(s.recompute)},
                    {"recompute_layers", s.recompute_layers},
                    {"step_time_s", s.step_time_s},
                    {"mfu", s.mfu},
                    {"tokens_per_s", s.tokens_per_s},
                    {"memory_per_gpu_bytes", s.memory_per_gpu_bytes},
                    {"usd_per_million_tokens", s.usd_per_million_tokens}};
    };
    if (f.has("--json")) {
        json j = envelope(f);
        json results = json::array(), pareto = json::array();
        for (const auto& s : r->results)
            results.push_back(row_json(s));
        for (const auto& s : r->pareto)
            pareto.push_back(row_json(s));
        j["search"] = {{"evaluated", r->evaluated}, {"feasible", r->feasible},
                       {"blocked", r->blocked},     {"seconds", r->seconds},
                       {"results", results},        {"pareto", pareto}};
        print_json(out, j);
        return 0;
    }
    out << "searched " << r->evaluated << " layouts of " << m.name << " on " << gpus << " × "
        << gpu->id << " in " << fmt(r->seconds, 2) << " s: " << r->feasible << " fit\n";
    if (r->feasible == 0 && !r->blocked.empty())
        out << "layouts that fit in memory " << r->blocked << '\n';
    out << '\n';
    Table tb;
    tb.header = {"tp",   "pp",        "dp",       "cp",  "ep",       "vpp",       "mb",
                 "zero", "recompute", "step (s)", "MFU", "tokens/s", "memory/GPU"};
    for (const auto& s : r->results)
        tb.rows.push_back(
            {std::to_string(s.tp), std::to_string(s.pp), std::to_string(s.dp), std::to_string(s.cp),
             std::to_string(s.ep), std::to_string(s.vpp), std::to_string(s.micro_batch),
             std::to_string(s.zero),
             std::string(model::to_string(s.recompute)) +
                 (s.recompute_layers > 0 ? " (" + std::to_string(s.recompute_layers) + " layers)"
                                         : std::string()),
             fmt(s.step_time_s, 3), fmt(s.mfu * 100, 1) + " %", fmt(s.tokens_per_s, 0),
             units::format_bytes(s.memory_per_gpu_bytes)});
    tb.print(out);
    return 0;
}

int cmd_infer(Flags& f, std::ostream& out) {
    const model::Catalog cat = load_catalog(f);
    const model::ModelArch m = resolve_model(f, cat);
    std::string source;
    const model::Topology topo = cluster_topology(f, cat, &source);
    const model::GpuSpec* gpu = &cluster_gpu(topo, cat);
    model::InferenceSpec s;
    s.tp = static_cast<int>(f.get_int("--tp", s.tp));
    s.pp = static_cast<int>(f.get_int("--pp", s.pp));
    s.replicas = static_cast<int>(f.get_int("--replicas", s.replicas));
    if (f.has("--gpus")) {
        const long long g = f.get_int("--gpus", 1, 1, 1LL << 24);
        if (g % (static_cast<long long>(s.tp) * s.pp) != 0)
            throw UsageError{"--gpus: tp*pp = " + std::to_string(s.tp * s.pp) +
                             " does not divide " + std::to_string(g) + " GPUs"};
    }
    auto b = f.get_int_or_auto("--batch");
    s.batch = b ? static_cast<int>(*b) : 0;
    model::SpeculativeSpec spec;
    model::ModelArch draft;
    if (const std::string* d = f.raw("--speculative-draft")) {
        const model::ModelArch* dm = cat.model(*d);
        if (!dm)
            throw UsageError{"--speculative-draft: unknown model \"" + *d + "\""};
        draft = *dm;
        spec.draft = &draft;
        f.record("--speculative-draft", *d, "flag");
        spec.k = static_cast<int>(f.get_int("--speculative-k", spec.k));
        spec.acceptance = f.get_number("--acceptance", spec.acceptance);
    } else if (f.has("--speculative-k") || f.has("--acceptance")) {
        throw UsageError{
            std::string(f.has("--speculative-k") ? "--speculative-k" : "--acceptance") +
            ": needs --speculative-draft MODEL"};
    } else {
        for (const char* unused : {"--speculative-draft", "--speculative-k", "--acceptance"})
            f.skip(unused); // no speculative decoding: not an input
    }
    // Every other serving setting of the schema (lengths, formats, batching, mode, SLOs).
    s = f.read_settings(s);
    // A flag that would do nothing is refused (the inspector keeps the value and hides the field).
    if (s.requests > 0 && !model::batch_job_possible(s, spec.draft != nullptr))
        throw UsageError{
            std::string("--requests: a batch job is an offline run with the prompts on the "
                        "decoding GPUs and no draft model; ") +
            (s.mode == model::ServingMode::online ? "online mode serves the request rate"
             : s.batching == model::Batching::disaggregated
                 ? "disaggregated prefill runs the prompts elsewhere"
                 : "speculative decoding is not simulated in it") +
            " (leave --requests out)"};
    if (s.mode == model::ServingMode::online && s.request_rate <= 0)
        throw UsageError{"--request-rate: online mode needs a positive request rate"};
    const double price = f.get_unset_or_positive("--price-per-gpu-hour", 1e6, "no cost figures");
    const model::ModelAssumptions assumed = read_assumptions(f);
    const model::MemoryAssumptions& ma = assumed.memory;
    record_assumptions(f, ma);
    f.record("max_num_seqs", model::engine_max_num_seqs(ma, s.engine, *gpu),
             ma.max_num_seqs.value >= 1 ? ma.max_num_seqs.source
                                        : std::string("the engine's default (") +
                                              std::string(model::to_string(s.engine)) + ")");
    // The engine's own memory rule (helper-29: TensorRT-LLM runs recorded vLLM's).
    switch (s.engine) {
    case model::ServingEngine::trtllm:
        f.record("trtllm_free_memory_fraction", ma.trtllm_free_memory_fraction.value,
                 ma.trtllm_free_memory_fraction.source);
        break;
    case model::ServingEngine::sglang:
        f.record("sglang_mem_fraction_static", ma.sglang_mem_fraction_static.value,
                 ma.sglang_mem_fraction_static.source);
        break;
    default:
        f.record("gpu_memory_utilization", ma.gpu_memory_utilization.value,
                 ma.gpu_memory_utilization.source);
    }
    auto r = model::infer(m, s, *gpu, topo, price, spec, assumed.inference, {}, ma);
    if (!r) {
        const auto& e = r.errors().front();
        throw UsageError{e.where + ": " + e.what};
    }
    // What attention DP buys, as evaluate() adds it (a second memory evaluation, outside infer).
    r->max_batch_without_attention_dp =
        model::max_batch_without_attention_dp(m, s, *gpu, ma, spec.draft);
    // Issue 22: where one replica's decode step sends its traffic.
    r->traffic = model::serving_traffic(m, s, *gpu, topo, r->batch);
    r->tiers = model::tier_loads(r->traffic, topo, r->decode_step_s, &r->bottleneck);
    const auto& mem = r->memory;
    if (f.has("--json")) {
        json j = envelope(f);
        j["memory"] = memory_json(mem.per_gpu, mem.capacity_bytes, mem.headroom_bytes, mem.fits, 0);
        json in = infer_json(*r);
        in["batch"] = r->batch;
        in["decode_tokens_per_s_per_sequence"] =
            r->decode_step_s > 0 ? 1.0 / r->decode_step_s : 0.0;
        in["speculative_speedup"] = r->speculative_speedup;
        in["traffic"] = traffic_json(r->traffic);
        in["tiers"] = tier_loads_json(r->tiers);
        in["bottleneck"] = r->bottleneck;
        json curve = json::array();
        for (const auto& c : model::latency_throughput_curve(
                 m, s, *gpu, topo, mem.max_batch, 64, price, assumed.inference, {}, spec, ma))
            curve.push_back({{"batch", c.batch},
                             {"tpot_s", c.tpot_s},
                             {"ttft_s", c.ttft_s},
                             {"output_tokens_per_s", c.output_tokens_per_s},
                             {"usd_per_million_output_tokens", c.usd_per_million_output_tokens}});
        in["curve"] = curve;
        add_bands(in, model::band_for(model::serving_case(m, s, *gpu)), model::BandKind::serving);
        j["infer"] = in;
        print_json(out, j);
        return 0;
    }
    out << m.name << " on " << s.tp * s.pp << " × " << (gpu->name.empty() ? gpu->id : gpu->name)
        << " per replica (" << model::to_string(s.weights_dtype) << " weights, "
        << model::to_string(s.kv_dtype) << " KV, " << model::to_string(s.batching) << ", "
        << model::to_string(s.mode) << ")\n\n";
    Table t;
    t.header = {"inference", "value"};
    // Issue 19: the model's error band beside the modelled numbers, and why below the table.
    const model::Band band = model::band_for(model::serving_case(m, s, *gpu));
    const auto within = [&](double v, model::Scales sc, int decimals, const std::string& unit) {
        return model::range_text(v, band, sc, decimals) + unit;
    };
    t.header.push_back("model's error band");
    // A workstation's 8.4 tokens/s keeps its decimal; a cluster's 3,742 reads as a count.
    const auto rate = [&](double v) { return v < 100 ? fmt(v, 1) : model::units::format_count(v); };
    const auto ms = [](double secs) { return model::units::ms_decimals(secs * 1e3); };
    // A latency in ms, or in s from 10 s (a batch job's first token), its band in the same unit.
    const auto latency = [&](double secs) {
        return model::units::latency_in_seconds(secs) ? model::units::format_latency(secs)
                                                      : fmt(secs * 1e3, ms(secs)) + " ms";
    };
    // Each end rounded as every screen rounds a latency (helper-31: "68.3–119.9 ms" here,
    // "68.3–120 ms" in the GUI).
    const auto latency_band = [&](double secs) { return model::latency_range_text(secs, band); };
    t.rows = {{"TTFT", latency(r->ttft_s), latency_band(r->ttft_s)},
              {"TPOT", latency(r->tpot_s), latency_band(r->tpot_s)},
              {"batch (concurrent sequences)",
               units::format_count(static_cast<double>(r->batch)) + " (max " +
                   units::format_count(static_cast<double>(mem.max_batch)) + "; " +
                   model::batch_limit_short(r->batch_limit) + ")"},
              {"output tokens/s (replica)", rate(r->output_tokens_per_s),
               within(r->output_tokens_per_s, model::Scales::with_speed,
                      r->output_tokens_per_s < 100 ? 1 : 0, "")},
              {"output tokens/s per GPU", rate(r->output_tokens_per_s_per_gpu),
               within(r->output_tokens_per_s_per_gpu, model::Scales::with_speed,
                      r->output_tokens_per_s_per_gpu < 100 ? 1 : 0, "")},
              {"decode tokens/s per sequence (1 / step; TPOT adds others' prompts)",
               r->decode_step_s > 0 ? rate(1.0 / r->decode_step_s) : "-"},
              {"KV per token (model)", units::format_bytes(mem.kv_bytes_per_token)},
              {"weights per GPU", units::format_bytes(mem.weights_bytes_per_gpu)}};
    // MoE over more than one GPU: how the routed experts are split, and with EP (no attention
    // DP) how much more the busiest GPU reads than the mean (session 53).
    if (m.is_moe() && s.tp > 1)
        t.rows.push_back({"routed experts", routed_experts_words(*r, s.tp)});
    // Attention DP: what every step waits for (helper-46: TTFT and $/M moved with it unsaid).
    if (r->busiest_rank > 1)
        t.rows.push_back({"attention DP", attention_dp_words(*r, s.tp)});
    // Where the engine's host sets the step (TensorRT-LLM's executor), how much of it.
    if (model::host_sets_step(*r))
        t.rows.push_back({"decode step", latency(r->decode_step_s),
                          "host-bound: the GPU's work is " + latency(r->decode_step_gpu_s) +
                              ", TensorRT-LLM's host time per sequence and launches set the rest"});
    if (r->job_makespan_s > 0) {
        const std::string per =
            r->job_requests_per_replica < r->job_requests
                ? " (" + units::format_count(static_cast<double>(r->job_requests_per_replica)) +
                      " per replica)"
                : "";
        t.rows.push_back({"batch job", units::format_count(s.requests) + " requests" + per +
                                           " in " + units::format_duration(r->job_makespan_s) +
                                           " (ramp-up and drain included)"});
        t.rows.push_back({"batch job: TTFT and TPOT", "the job's means (TTFT from the start)"});
        t.rows.push_back({"batch job: sequences decoding per step (mean)",
                          units::format_count(r->job_mean_batch) + " of " +
                              units::format_count(static_cast<double>(r->batch))});
    }
    if (price > 0) {
        // As every screen prices (units::format_price; helper-31: "1.137" here, "$1.14" there).
        t.rows.push_back(
            {"$ per 1M output tokens", units::format_price(r->usd_per_million_output_tokens)});
        t.rows.push_back(
            {"$ per 1M input tokens", units::format_price(r->usd_per_million_input_tokens)});
    }
    if (r->gpus_needed > 0) {
        t.rows.push_back({"capacity per replica", fmt(r->capacity_rps, 2) + " req/s"});
        t.rows.push_back({"replicas needed", fmt(r->replicas_needed, 0) + " (load " +
                                                 fmt(r->utilization * 100, 0) + " %)"});
        if (r->prefill_replicas_needed > 0)
            t.rows.push_back(
                {"prefill replicas (disaggregated)", fmt(r->prefill_replicas_needed, 0)});
        t.rows.push_back({"queue wait (mean, M/D/b)", units::format_latency(r->queue_wait_s)});
        t.rows.push_back(
            {"GPUs needed for " + fmt(s.request_rate, 1) + " req/s", fmt(r->gpus_needed, 0)});
    }
    if (spec.draft)
        t.rows.push_back({"speculative decode speedup",
                          fmt(r->speculative_speedup, 2) + " × at batch 1, " +
                              fmt(r->speculative_speedup_at_batch, 2) + " × at batch " +
                              units::format_count(static_cast<double>(r->batch))});
    t.print(out);
    print_traffic(out, r->traffic, r->bottleneck, "decode step");
    // Wrapped as the table's cells are (helper-48: the table and this line were ~200 wide).
    for (const std::string& l : wrap_words("error band: " + band.basis + "; TTFT and TPOT " +
                                               std::string(model::kLatencyBasis),
                                           100))
        out << l << '\n';
    return 0;
}

std::string routed_experts_words(const model::InferenceResult& r, int tp) {
    const int ep = r.expert_parallel, etp = tp / std::max(1, ep);
    std::string v = ep == 1    ? "split over TP " + std::to_string(tp) + " (EP 1)"
                    : etp == 1 ? "EP " + std::to_string(ep) + " (whole experts)"
                               : "EP " + std::to_string(ep) + " × expert TP " + std::to_string(etp);
    if (r.busiest_expert_reads >= 1.005) // as printed: not "1.00 × the mean"
        v += "; busiest GPU reads " + fmt(r.busiest_expert_reads, 2) + " × the mean";
    return v;
}

std::string attention_dp_words(const model::InferenceResult& r, int tp) {
    // What it buys first (helper-48: at a fixed batch it reads slower, and nothing said why one
    // would turn it on).
    const std::string holds =
        r.max_batch_without_attention_dp > 0
            ? "memory holds " + units::format_count(static_cast<double>(r.memory.max_batch)) +
                  " sequences with it, " +
                  units::format_count(static_cast<double>(r.max_batch_without_attention_dp)) +
                  " without; "
            : "";
    const std::string waits = " for the busiest of the " + std::to_string(tp) +
                              " GPUs: " + fmt(r.busiest_rank, 2) + " × the balanced step";
    if (r.busiest_rank_why == model::DpWait::prompt_steps)
        return holds + "steps that carry a prompt (" +
               fmt(100.0 * r.busiest_rank_step_share, r.busiest_rank_step_share < 0.1 ? 1 : 0) +
               " % of them) wait" + waits +
               "; decode-only steps run balanced (every GPU padded to the largest one's CUDA "
               "graph)";
    return holds + "each step waits" + waits +
           (r.busiest_rank_why == model::DpWait::every_step_has_prompt
                ? " (at this batch every step carries a prompt)"
            : r.busiest_rank_why == model::DpWait::batch_job ? " (a batch job)"
            : r.busiest_rank_why == model::DpWait::assumption_off
                ? " (inference.attention_dp_balanced_decode is 0)"
            : r.busiest_rank_why == model::DpWait::engine
                ? " (no rule for balanced decode steps is known for this engine)"
                : "");
}

} // namespace cl::cli
