#include "cli.h"
#include "cli_common.h"
#include "cli_flags.h"

#include "model/bundled.h"
#include "model/catalog.h"
#include "model/compare.h"
#include "model/design.h"
#include "model/evaluate.h"
#include "model/report.h"
#include "model/units.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>
#include <unistd.h>

namespace cl::cli {

using nlohmann::json;
namespace units = model::units;

model::Catalog load_catalog(Flags& f) {
    auto c = model::Catalog::bundled();
    if (!c)
        throw UsageError{"bundled catalog is invalid: " + c.errors().front().message()};
    model::Catalog cat = std::move(c).value();
    std::string path;
    if (const std::string* p = f.raw("--catalog"))
        path = *p;
    else {
        path = model::user_catalog_path();
        std::error_code ec;
        if (path.empty() || !std::filesystem::exists(path, ec))
            path.clear();
    }
    if (!path.empty()) {
        auto text = model::read_text_file(path);
        if (!text)
            throw UsageError{text.errors().front().message()};
        auto errs = cat.merge(*text, path, /*user=*/true);
        if (!errs.empty())
            throw UsageError{errs.front().message()};
        f.record("--catalog", path, f.has("--catalog") ? "flag" : "user catalog file");
    }
    return cat;
}

namespace {

/// Text for a terminal: control characters (C0 but newline and tab, DEL, and UTF-8 C1) from
/// names and ids in shared files are written as \u00XX, so an ANSI or OSC escape sequence
/// in a preset prints as text instead of driving the terminal (the same spelling is a valid
/// JSON escape, so --json output stays valid JSON).
std::string terminal_safe(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    auto esc = [&out](unsigned v) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", v);
        out += buf;
    };
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
            esc(c);
        else if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
                 static_cast<unsigned char>(s[i + 1]) <= 0x9f)
            esc(static_cast<unsigned char>(s[++i]));
        else
            out += static_cast<char>(c);
    }
    return out;
}

/// A raw catalog entry with its provenance made explicit.
json entry_json(const std::string& raw, const model::Provenance& p) {
    json j = json::parse(raw, nullptr, false);
    if (!j.is_object())
        j = json::object();
    j["user"] = p.user;
    if (!j.contains("as_of"))
        j["as_of"] = p.as_of;
    if (!j.contains("source"))
        j["source"] = p.source;
    return j;
}

int cmd_catalog(Flags& f, const std::vector<std::string>& pos, std::ostream& out) {
    if (pos.size() != 1)
        throw UsageError{"catalog needs one kind: gpus, links, nics, switches, systems, models, "
                         "presets or cloud"};
    const std::string& kind = pos[0];
    const bool as_json = f.has("--json");
    json j = envelope(f);
    Table t;
    if (kind == "presets") {
        json arr = json::array();
        t.header = {"id", "name", "description"};
        for (const auto& file : model::bundled_files()) {
            if (file.name.rfind("presets/", 0) != 0)
                continue;
            const std::string id(file.name.substr(8, file.name.size() - 8 - 5));
            json p = json::parse(file.text, nullptr, false);
            const std::string name = p.is_object() ? p.value("name", "") : "";
            const std::string desc = p.is_object() ? p.value("description", "") : "";
            arr.push_back({{"id", id},
                           {"name", name},
                           {"description", desc},
                           {"source", "bundled preset presets/" + id + ".json"},
                           {"as_of", CLUSTERLENS_VERSION}});
            t.rows.push_back({id, name, desc.size() > 60 ? desc.substr(0, 57) + "..." : desc});
        }
        j["presets"] = std::move(arr);
    } else {
        auto k = model::catalog_kind_from_name(kind);
        if (!k)
            throw UsageError{"unknown catalog kind \"" + kind +
                             "\" (expected gpus, links, nics, switches, systems, models, presets "
                             "or cloud)"};
        const model::Catalog cat = load_catalog(f);
        json arr = json::array();
        switch (*k) {
        case model::CatalogKind::gpus:
            t.header = {"id",  "name",  "memory", "memory bandwidth", "BF16 dense", "FP8 dense",
                        "TDP", "as of", "source"};
            for (const auto& g : cat.gpus()) {
                arr.push_back(entry_json(g.raw_json, g.provenance));
                t.rows.push_back({g.id + (g.provenance.user ? " (user)" : ""), g.name,
                                  units::format_bytes(g.memory_bytes),
                                  units::format_si(g.memory_bandwidth_Bps, "B/s", 2),
                                  // Figures the catalog does not have: "-", not "0".
                                  g.peak(model::Dtype::bf16) > 0
                                      ? units::format_si(g.peak(model::Dtype::bf16), "FLOP/s")
                                      : "-",
                                  g.peak(model::Dtype::fp8) > 0
                                      ? units::format_si(g.peak(model::Dtype::fp8), "FLOP/s")
                                      : "-",
                                  g.tdp_w > 0 ? fmt(g.tdp_w, 0) + " W" : "-", g.provenance.as_of,
                                  g.provenance.source.empty() ? "" : g.provenance.source.front()});
            }
            break;
        case model::CatalogKind::links:
            t.header = {"id", "name", "class", "bandwidth (one way)", "as of"};
            for (const auto& l : cat.links()) {
                arr.push_back(entry_json(l.raw_json, l.provenance));
                const char* cls = l.cls == model::LinkClass::scaleup ? "scale-up"
                                  : l.cls == model::LinkClass::pcie  ? "pcie"
                                                                     : "scale-out";
                t.rows.push_back({l.id, l.name, cls,
                                  units::format_si(l.bandwidth_unidir_Bps, "B/s"),
                                  l.provenance.as_of});
            }
            break;
        case model::CatalogKind::nics:
            t.header = {"id", "name", "port rate", "as of"};
            for (const auto& n : cat.nics()) {
                arr.push_back(entry_json(n.raw_json, n.provenance));
                t.rows.push_back({n.id, n.name, units::format_si(n.port_rate_bps, "b/s", 0),
                                  n.provenance.as_of});
            }
            break;
        case model::CatalogKind::switches:
            t.header = {"id", "name", "ports", "port rate", "as of"};
            for (const auto& s : cat.switches()) {
                arr.push_back(entry_json(s.raw_json, s.provenance));
                t.rows.push_back(
                    {s.id, s.name, std::to_string(s.ports),
                     s.port_rate_bps > 0 ? units::format_si(s.port_rate_bps, "b/s", 0) : "-",
                     s.provenance.as_of});
            }
            break;
        case model::CatalogKind::systems:
            t.header = {"id", "name", "GPUs", "GPU", "NICs", "power", "as of"};
            for (const auto& s : cat.systems()) {
                arr.push_back(entry_json(s.raw_json, s.provenance));
                t.rows.push_back({s.id, s.name, std::to_string(s.gpus), s.gpu.empty() ? "-" : s.gpu,
                                  std::to_string(s.nics) + " × " + s.scaleout_link,
                                  units::format_si(s.power_w, "W"), s.provenance.as_of});
            }
            break;
        case model::CatalogKind::cloud:
            t.header = {"id", "GPUs", "GPU", "$/hour", "$/GPU-hour", "price as of"};
            for (const auto& c : cat.cloud_offers()) {
                arr.push_back(entry_json(c.raw_json, c.provenance));
                t.rows.push_back({c.id, std::to_string(c.gpus), c.gpu,
                                  fmt(c.on_demand_usd_per_hour, 2),
                                  fmt(c.on_demand_usd_per_hour / c.gpus, 2),
                                  c.price_as_of.size() > 40 ? c.price_as_of.substr(0, 37) + "..."
                                                            : c.price_as_of});
            }
            break;
        case model::CatalogKind::models:
            t.header = {"id", "name", "layers", "hidden", "heads/kv", "params", "as of"};
            for (const auto& m : cat.models()) {
                json e = entry_json(m.raw_json, m.provenance);
                e["total_params"] = m.total_params();
                e["active_params"] = m.active_params();
                arr.push_back(std::move(e));
                t.rows.push_back({m.id, m.name, std::to_string(m.layers), std::to_string(m.hidden),
                                  std::to_string(m.heads) + "/" + std::to_string(m.kv_heads),
                                  fmt(m.total_params() / 1e9, 1) + " B", m.provenance.as_of});
            }
            break;
        }
        j[kind] = std::move(arr);
    }
    if (as_json) {
        j["inputs"] = f.inputs();
        print_json(out, j);
    } else {
        t.print(out);
    }
    return 0;
}

} // namespace

model::Design load_design_arg(const std::string& arg, const model::Catalog& cat) {
    // Every error of the design, each with its JSON path, on one line (CLI.md: one line on
    // stderr); the file is named once.
    auto refuse = [&arg](const std::vector<model::Error>& errors) {
        std::string msg = (arg == "-" ? std::string("standard input") : arg) + ": ";
        if (errors.size() > 1)
            msg += std::to_string(errors.size()) + " errors: ";
        for (std::size_t i = 0; i < errors.size() && i < 20; ++i) {
            const model::Error& e = errors[i];
            const bool named = e.where == arg || e.where.empty();
            msg += (i ? "; " : "") + (named ? e.what : e.message());
        }
        if (errors.size() > 20)
            msg += "; and " + std::to_string(errors.size() - 20) + " more";
        return UsageError{msg};
    };
    std::error_code ec;
    if (arg == "-" || std::filesystem::exists(arg, ec)) {
        auto text = model::read_text_file(arg);
        if (!text)
            throw UsageError{text.errors().front().message()};
        auto d = model::design_from_json(*text, arg == "-" ? "standard input" : arg, &cat);
        if (!d)
            throw refuse(d.errors());
        return std::move(d).value();
    }
    const auto text = model::bundled_file("presets/" + arg + ".json");
    if (text.empty())
        throw UsageError{"\"" + arg +
                         "\" is neither a file nor a bundled preset id (see "
                         "`catalog presets`)"};
    auto d = model::design_from_json(text, arg, &cat);
    if (!d)
        throw refuse(d.errors());
    return std::move(d).value();
}

namespace {

json tiers_json(const model::Topology& f) {
    json arr = json::array();
    for (const auto& st : f.tiers)
        arr.push_back({{"level", st.level},
                       {"name", st.name},
                       {"switches", st.switches},
                       {"down_Bps", st.down_Bps},
                       {"up_Bps", st.up_Bps},
                       {"oversubscription", st.oversubscription},
                       {"ports_used_per_switch", st.ports_used_per_switch},
                       {"ports_per_switch", st.ports_per_switch},
                       {"nodes_below_one_switch", st.nodes_below_one_switch}});
    return arr;
}

json workload_memory_json(const model::WorkloadMemory& m) {
    return memory_json(m.per_gpu, m.capacity_bytes, m.headroom_bytes, m.fits, m.worst_stage);
}

int cmd_evaluate(Flags& f, const std::vector<std::string>& pos, std::ostream& out) {
    if (pos.size() != 1)
        throw UsageError{"evaluate needs one design file or preset id"};
    const model::Catalog cat = load_catalog(f);
    const model::Design d = load_design_arg(pos[0], cat);
    const model::Evaluation ev = model::evaluate(d, cat);
    const auto& t = ev.topology;
    if (f.has("--json")) {
        f.record("design", pos[0], "argument");
        json j = envelope(f);
        j["design"] = {{"name", d.name},
                       {"description", d.description},
                       {"devices", d.devices.size()},
                       {"links", d.links.size()},
                       {"workloads", d.workloads.size()}};
        j["topology"] = {{"gpus", t.gpus},
                         {"nodes", t.nodes},
                         {"switches", t.switches},
                         {"gpu", t.gpu},
                         {"hbm_bytes", t.hbm_bytes},
                         {"peak_bf16_flops", t.peak_bf16_flops},
                         {"power_w", t.power_w},
                         {"scaleup_domain_size", t.scaleup_domain_size},
                         {"bisection_Bps", ev.fabric.bisection_Bps},
                         {"oversubscription", ev.fabric.oversubscription},
                         {"scaleup_Bps_per_gpu", ev.fabric.scaleup_Bps_per_gpu},
                         {"scaleout_Bps_per_gpu", ev.fabric.scaleout_Bps_per_gpu},
                         {"nics_per_node", ev.fabric.nics_per_node},
                         {"rail_optimized", ev.fabric.rail_optimized},
                         {"diameter_hops", ev.fabric.diameter_hops},
                         {"tiers", tiers_json(ev.fabric)},
                         {"warnings", t.warnings}};
        json wl = json::array();
        for (const auto& w : ev.workloads) {
            json e{{"id", w.id},
                   {"name", w.name},
                   {"kind", w.kind == model::WorkloadKind::training ? "training" : "inference"},
                   {"gpus", w.gpus},
                   {"gpu", w.gpu}};
            if (w.has_memory)
                e["memory"] = workload_memory_json(w.memory);
            if (w.training_memory)
                e["memory"]["trainable_params"] = w.training_memory->trainable_params;
            if (w.inference) {
                e["infer"] = infer_json(*w.inference);
                if (w.band)
                    add_bands(e["infer"], *w.band, model::BandKind::serving);
            }
            if (w.training) {
                e["train"] = train_json(*w.training);
                if (w.band)
                    add_bands(e["train"], *w.band, model::BandKind::training);
            }
            if (w.inference_memory) {
                const auto& im = *w.inference_memory;
                e["memory"]["kv_bytes_per_token"] = im.kv_bytes_per_token;
                e["memory"]["max_batch"] = im.max_batch;
                e["memory"]["weights_bytes_per_gpu"] = im.weights_bytes_per_gpu;
            }
            if (w.reliability)
                e["reliability"] = reliability_json(*w.reliability);
            if (!w.scaling.empty()) {
                json sc = json::array();
                for (const auto& p : w.scaling)
                    sc.push_back({{"gpus", p.gpus},
                                  {"tokens_per_s", p.tokens_per_s},
                                  {"mfu", p.mfu},
                                  {"fits", p.fits}});
                e["scaling"] = std::move(sc);
            }
            if (w.run_cost) {
                e["run_cost"] = {
                    {"cloud_usd", nullable(w.run_cost->cloud_usd, w.run_cost->has_cloud)},
                    {"onprem_usd", nullable(w.run_cost->onprem_usd, w.run_cost->has_onprem)},
                    {"energy_kwh", w.run_cost->energy_kwh},
                    {"co2_kg", w.run_cost->co2_kg}};
                if (w.band) // issue 19: the run's cost scales with its modelled length
                    add_bands(e["run_cost"], *w.band,
                              {{"cloud_usd", model::Scales::with_time},
                               {"onprem_usd", model::Scales::with_time},
                               {"energy_kwh", model::Scales::with_time},
                               {"co2_kg", model::Scales::with_time}});
            }
            if (w.onprem_usd_per_million_output_tokens > 0)
                e["onprem_usd_per_million_output_tokens"] = w.onprem_usd_per_million_output_tokens;
            if (!w.error.empty())
                e["error"] = w.error;
            wl.push_back(std::move(e));
        }
        j["workloads"] = std::move(wl);
        // The design's TCO, and the reliability of its first training workload (CLI.md).
        if (ev.tco)
            j["tco"] = tco_json(*ev.tco);
        else
            j["tco"] = {{"error", ev.tco_error}};
        j["reliability"] = nullptr;
        for (const auto& w : ev.workloads)
            if (w.reliability) {
                j["reliability"] = reliability_json(*w.reliability);
                break;
            }
        print_json(out, j);
        return 0;
    }
    out << d.name << "\n\n";
    const std::string header = "GPUs";
    Table tt;
    tt.header = {"topology", "value"};
    tt.rows = {{"GPUs", fmt(t.gpus, 0)},
               {"nodes", fmt(t.nodes, 0)},
               {"switches", fmt(t.switches, 0)},
               {"GPU type", t.gpu},
               {"total HBM", units::format_bytes(t.hbm_bytes)},
               {"peak BF16 (dense)", units::format_si(t.peak_bf16_flops, "FLOP/s")},
               {"max power", units::format_si(t.power_w, "W")},
               {"scale-up domain", std::to_string(t.scaleup_domain_size) + " GPUs"},
               {"scale-up per GPU", units::format_si(ev.fabric.scaleup_Bps_per_gpu, "B/s")},
               {"scale-out per GPU", units::format_si(ev.fabric.scaleout_Bps_per_gpu, "B/s")},
               {"bisection (one way)", units::format_si(ev.fabric.bisection_Bps, "B/s")},
               {"oversubscription", fmt(ev.fabric.oversubscription, 2) + ":1"},
               {"rail-optimized", ev.fabric.rail_optimized ? "yes" : "no"}};
    for (const auto& st : ev.fabric.tiers)
        tt.rows.push_back({st.name + " tier", fmt(st.switches, 0) + " switches, " +
                                                  fmt(st.ports_used_per_switch, 0) + "/" +
                                                  std::to_string(st.ports_per_switch) + " ports, " +
                                                  fmt(st.oversubscription, 2) + ":1"});
    tt.print(out);
    for (const auto& w : t.warnings)
        out << "warning: " << w << '\n';
    for (const auto& w : ev.workloads) {
        out << "\nworkload " << w.id << " (" << w.name << ") on " << fmt(w.gpus, 0) << " × "
            << w.gpu << '\n';
        if (!w.error.empty())
            out << "  " << w.error << '\n';
        if (w.inference)
            // Latencies as every screen shows them (seconds from 10 s: a batch job's first
            // token read "TTFT 25713 ms", helper-29), counts with separators.
            out << "  serving: TTFT " << model::units::format_latency(w.inference->ttft_s)
                << ", TPOT " << model::units::format_latency(w.inference->tpot_s) << ", "
                << model::units::format_count(w.inference->output_tokens_per_s)
                << " output tokens/s per replica\n";
        // MoE over more than one GPU: how its experts are split and, with attention DP, which
        // steps wait for the busiest GPU, as `infer` says (helper-48: evaluate said neither).
        if (w.inference) {
            const int tp = w.inference->expert_parallel * w.inference->expert_tp;
            if (tp > 1)
                out << "  routed experts: " << routed_experts_words(*w.inference, tp) << '\n';
            if (w.inference->busiest_rank > 1)
                out << "  attention DP: " << attention_dp_words(*w.inference, tp) << '\n';
        }
        if (w.training)
            out << "  training: " << fmt(w.training->step_time_s, 3) << " s per step, "
                << fmt(w.training->tokens_per_s, 0) << " tokens/s, MFU "
                << fmt(w.training->mfu * 100, 1) << " %\n";
        if (w.has_memory) {
            const auto& b = w.memory.per_gpu;
            Table m;
            m.header = {"memory per GPU", "bytes"};
            m.rows = {{"weights", units::format_bytes(b.weights)},
                      {"gradients", units::format_bytes(b.gradients)},
                      {"optimizer", units::format_bytes(b.optimizer)},
                      {"activations", units::format_bytes(b.activations)},
                      {"KV cache", units::format_bytes(b.kv_cache)},
                      {"other", units::format_bytes(b.other)},
                      {"total", units::format_bytes(b.total())},
                      {"capacity", units::format_bytes(w.memory.capacity_bytes)},
                      {"fits", w.memory.fits ? "yes" : "no"}};
            m.print(out);
        }
        if (w.reliability) {
            out << '\n';
            print_reliability(*w.reliability, out);
        }
    }
    if (ev.tco) {
        out << '\n';
        print_tco(*ev.tco, out);
    } else if (!ev.tco_error.empty()) {
        out << "\ncost: " << ev.tco_error << '\n';
    }
    return 0;
}

int cmd_compare(Flags& f, const std::vector<std::string>& pos, std::ostream& out) {
    if (pos.size() < 2)
        throw UsageError{"compare needs two or more design files or preset ids"};
    const model::Catalog cat = load_catalog(f);
    std::vector<model::Design> designs;
    std::vector<model::Evaluation> evs;
    for (const auto& p : pos) {
        designs.push_back(load_design_arg(p, cat));
        evs.push_back(model::evaluate(designs.back(), cat));
    }
    std::vector<const model::Evaluation*> ptrs;
    for (const auto& e : evs)
        ptrs.push_back(&e);
    const auto rows = model::compare_designs(ptrs);
    if (f.has("--json")) {
        json j = envelope(f);
        json d = json::array();
        for (std::size_t i = 0; i < designs.size(); ++i)
            d.push_back({{"design", pos[i]}, {"name", designs[i].name}});
        json r = json::array();
        for (const auto& row : rows) {
            json vals = json::array();
            for (const auto& v : row.values)
                vals.push_back(v ? json(*v) : json(nullptr));
            json jr = {{"metric", row.metric},
                       {"unit", row.unit},
                       {"lower_is_better", row.lower_is_better},
                       {"values", vals},
                       {"model_error", row.model_error},
                       {"within_model_error", row.within_model_error}};
            if (!row.texts.empty())
                jr["texts"] = row.texts; // a row of words (GPU type): values are null
            r.push_back(std::move(jr));
        }
        j["compare"] = {{"designs", d}, {"rows", r}};
        print_json(out, j);
        return 0;
    }
    Table t;
    t.header = {"metric"};
    for (const auto& p : pos)
        t.header.push_back(p);
    for (std::size_t i = 1; i < pos.size(); ++i)
        t.header.push_back("change " + std::to_string(i + 1) + " vs 1");
    // The numbers as the report prints them ("1,016", "81.3 TB", "$45,675,660", "+12.3 %").
    const model::ReportTable shown = model::comparison_table(pos, ptrs);
    for (const auto& row : shown.display) {
        std::vector<std::string> line{row[0]};
        line.insert(line.end(), row.begin() + 2, row.end()); // row[1]: the unit, in the values
        t.rows.push_back(std::move(line));
    }
    t.print(out);
    return 0;
}

PdfWriter& pdf_writer() {
    static PdfWriter w;
    return w;
}

int cmd_report(Flags& f, const std::vector<std::string>& pos, std::ostream& out) {
    if (pos.size() != 1)
        throw UsageError{"report needs one design file or preset id"};
    const std::string target = f.get_string("--output", "", "none");
    if (target.empty())
        throw UsageError{"report needs -o FILE.pdf, -o FILE.csv or -o DIR/"};
    const model::Catalog cat = load_catalog(f);
    const model::Design d = load_design_arg(pos[0], cat);
    const model::Evaluation ev = model::evaluate(d, cat);
    auto ends_with = [&](const char* suffix) {
        const std::string s(suffix);
        return target.size() >= s.size() &&
               std::equal(s.rbegin(), s.rend(), target.rbegin(),
                          [](char a, char b) { return std::tolower(a) == std::tolower(b); });
    };
    // The sensitivity table is the CSV's only (the PDF computes it once, for its summary too).
    const auto tables = model::report_tables(d, ev, cat, /*with_sensitivity=*/!ends_with(".pdf"));
    // Atomic: a temporary file next to the target, flushed and synced, then renamed over it.
    // On a full disk the target keeps its old bytes and the message gives the OS reason.
    auto write = [](const std::filesystem::path& p, const std::string& text) {
        const std::string tmp = p.string() + ".clusterlens-partial";
        std::FILE* out_file = std::fopen(tmp.c_str(), "wb");
        if (!out_file)
            throw UsageError{"-o: cannot write " + p.string() + ": " + std::strerror(errno)};
        bool ok = std::fwrite(text.data(), 1, text.size(), out_file) == text.size();
        ok = ok && std::fflush(out_file) == 0 && ::fsync(::fileno(out_file)) == 0;
        int err = errno;
        if (std::fclose(out_file) != 0 && ok) {
            ok = false;
            err = errno;
        }
        if (!ok) {
            std::remove(tmp.c_str());
            throw UsageError{"-o: cannot write " + p.string() + ": " + std::strerror(err)};
        }
        std::error_code ec;
        std::filesystem::rename(tmp, p, ec);
        if (ec) {
            std::remove(tmp.c_str());
            throw UsageError{"-o: cannot write " + p.string() + ": " + ec.message()};
        }
    };
    if (ends_with(".pdf")) {
        if (!pdf_writer())
            throw UsageError{"-o FILE.pdf needs the GUI libraries (this build has none); use -o "
                             "FILE.csv"};
        const std::string err = pdf_writer()(target, d, ev, cat);
        if (!err.empty())
            throw UsageError{"-o: " + err};
        out << "wrote " << target << '\n';
    } else if (ends_with(".csv")) {
        write(target, model::tables_to_csv(tables));
        out << "wrote " << target << " (" << tables.size() << " tables)\n";
    } else if (!target.empty() && (target.back() == '/' || std::filesystem::is_directory(target))) {
        std::error_code ec;
        std::filesystem::create_directories(target, ec);
        if (ec)
            throw UsageError{"-o: cannot create directory " + target + ": " + ec.message()};
        for (const auto& t : tables)
            write(std::filesystem::path(target) / (t.id + ".csv"), model::table_to_csv(t));
        out << "wrote " << tables.size() << " CSV files to " << target << '\n';
    } else {
        throw UsageError{"-o: expected FILE.pdf, FILE.csv or a directory ending in /"};
    }
    return 0;
}

} // namespace

void set_pdf_writer(PdfWriter writer) {
    pdf_writer() = std::move(writer);
}

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    try {
        ParsedArgs p = parse_command_line(args);
        Flags f(p.command, p.flags);
        if (f.has("--help")) {
            out << help_text(p.command);
            return 0;
        }
        if (f.has("--version")) {
            out << "clusterlens-cli " << CLUSTERLENS_VERSION << '\n';
            return 0;
        }
        if (p.command.empty()) {
            err << "clusterlens-cli: no command given (see --help)\n";
            return 2;
        }
        std::ostringstream buffer; // nothing reaches stdout unless the command succeeds
        int code = 2;
        if (p.command == "catalog")
            code = cmd_catalog(f, p.positional, buffer);
        else if (p.command == "evaluate")
            code = cmd_evaluate(f, p.positional, buffer);
        else if (p.command == "report")
            code = cmd_report(f, p.positional, buffer);
        else if (p.command == "compare")
            code = cmd_compare(f, p.positional, buffer);
        else if (p.command == "fleet")
            code = cmd_fleet(f, p.positional, buffer);
        else if (p.command == "memory" || p.command == "roofline" || p.command == "collective" ||
                 p.command == "train" || p.command == "search" || p.command == "infer" ||
                 p.command == "tco" || p.command == "reliability") {
            if (!p.positional.empty())
                throw UsageError{"unexpected argument \"" + p.positional.front() + "\""};
            if (p.command == "memory")
                code = cmd_memory(f, buffer);
            else if (p.command == "roofline")
                code = cmd_roofline(f, buffer);
            else if (p.command == "train")
                code = cmd_train(f, buffer);
            else if (p.command == "search")
                code = cmd_search(f, buffer);
            else if (p.command == "infer")
                code = cmd_infer(f, buffer);
            else if (p.command == "tco")
                code = cmd_tco(f, buffer);
            else if (p.command == "reliability")
                code = cmd_reliability(f, buffer);
            else
                code = cmd_collective(f, buffer);
        } else
            throw UsageError{"unknown command \"" + p.command + "\" (see --help)"};
        out << terminal_safe(buffer.str());
        return code;
    } catch (const UsageError& e) {
        err << "clusterlens-cli: " << terminal_safe(e.message) << '\n';
        return 2;
    } catch (const std::exception& e) {
        err << "clusterlens-cli: internal error: " << terminal_safe(e.what()) << '\n';
        return 2;
    }
}

} // namespace cl::cli
