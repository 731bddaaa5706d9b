#include "cli.h"

#include "model/bundled.h"
#include "model/catalog.h"
#include "model/design.h"
#include "model/evaluate.h"
#include "model/units.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>

#ifndef CLUSTERLENS_VERSION
#define CLUSTERLENS_VERSION "0.0.0"
#endif

namespace cl::cli {

using nlohmann::json;
namespace units = model::units;

namespace {

/// Bad input: reported as one line on stderr with exit code 2.
struct UsageError {
    std::string message;
};

const char* kHelp = R"(clusterlens-cli — the ClusterLens model, headless.

Usage:
  clusterlens-cli [--help] [--version]
  clusterlens-cli catalog gpus|links|nics|switches|systems|models|presets|cloud [--json]
  clusterlens-cli evaluate DESIGN [--json]

Commands:
  catalog KIND     List the bundled catalog (plus your catalog file) with each entry's
                   source and as-of date. KIND: gpus, links, nics, switches, systems,
                   models, presets, cloud.
  evaluate DESIGN  Evaluate a design file or a bundled preset id (see `catalog presets`)
                   and print everything the GUI shows for it.

Options:
  --json           Print one JSON object (schema_version 1) instead of a table.
                   Units in keys are SI base units: bytes, seconds, FLOP/s, bytes/s, W, USD.
  --catalog FILE   Merge a user catalog file (default: $CLUSTERLENS_CATALOG, else
                   $XDG_CONFIG_HOME/clusterlens/catalog.json or
                   ~/.config/clusterlens/catalog.json when it exists). User entries with
                   the same id replace bundled ones and are marked "user": true.
  --help           Show this help.
  --version        Print the version.

Exit status: 0 on success; 2 with a one-line message on stderr for bad input.
)";

struct Args {
    std::vector<std::string> positional;
    std::map<std::string, std::string> flags; // --name value (or "" for switches)
};

Args parse_args(const std::vector<std::string>& args) {
    static const std::map<std::string, bool> known = {
        // flag -> takes a value
        {"--json", false}, {"--help", false}, {"--version", false}, {"--catalog", true},
    };
    Args a;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& s = args[i];
        if (s.rfind("--", 0) == 0) {
            std::string name = s, value;
            if (auto eq = s.find('='); eq != std::string::npos) {
                name = s.substr(0, eq);
                value = s.substr(eq + 1);
            }
            auto it = known.find(name);
            if (it == known.end())
                throw UsageError{"unknown flag " + name + " (see --help)"};
            if (it->second && value.empty()) {
                if (i + 1 >= args.size())
                    throw UsageError{name + " needs a value"};
                value = args[++i];
            }
            if (a.flags.count(name))
                throw UsageError{name + " given twice"};
            a.flags[name] = value;
        } else {
            a.positional.push_back(s);
        }
    }
    return a;
}

model::Catalog load_catalog(const Args& a) {
    auto c = model::Catalog::bundled();
    if (!c)
        throw UsageError{"bundled catalog is invalid: " + c.errors().front().message()};
    model::Catalog cat = std::move(c).value();
    std::string path;
    if (auto it = a.flags.find("--catalog"); it != a.flags.end())
        path = it->second;
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
    }
    return cat;
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

json envelope() {
    return json{{"schema_version", 1}, {"version", CLUSTERLENS_VERSION}, {"inputs", json::object()}};
}

std::string pad(std::string s, std::size_t w) {
    if (s.size() < w)
        s.append(w - s.size(), ' ');
    return s;
}

struct Table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    void print(std::ostream& out) const {
        std::vector<std::size_t> w(header.size());
        for (std::size_t i = 0; i < header.size(); ++i)
            w[i] = header[i].size();
        for (const auto& r : rows)
            for (std::size_t i = 0; i < r.size() && i < w.size(); ++i)
                w[i] = std::max(w[i], r[i].size());
        auto line = [&](const std::vector<std::string>& r) {
            std::string s;
            for (std::size_t i = 0; i < r.size(); ++i)
                s += (i ? "  " : "") + (i + 1 == r.size() ? r[i] : pad(r[i], w[i]));
            out << s << '\n';
        };
        line(header);
        std::vector<std::string> dashes;
        for (auto x : w)
            dashes.emplace_back(x, '-');
        line(dashes);
        for (const auto& r : rows)
            line(r);
    }
};

std::string fmt(double v, int prec = 1) {
    std::ostringstream s;
    s.imbue(std::locale::classic());
    s << std::fixed << std::setprecision(prec) << v;
    return s.str();
}

int cmd_catalog(const Args& a, std::ostream& out) {
    if (a.positional.size() != 2)
        throw UsageError{"catalog needs one kind: gpus, links, nics, switches, systems, models, "
                         "presets or cloud"};
    const std::string& kind = a.positional[1];
    const bool as_json = a.flags.count("--json") > 0;
    json j = envelope();
    Table t;
    if (kind == "presets") {
        json arr = json::array();
        t.header = {"id", "name", "description"};
        for (const auto& f : model::bundled_files()) {
            if (f.name.rfind("presets/", 0) != 0)
                continue;
            const std::string id(f.name.substr(8, f.name.size() - 8 - 5));
            json p = json::parse(f.text, nullptr, false);
            const std::string name = p.is_object() ? p.value("name", "") : "";
            const std::string desc = p.is_object() ? p.value("description", "") : "";
            arr.push_back({{"id", id}, {"name", name}, {"description", desc},
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
        const model::Catalog cat = load_catalog(a);
        json arr = json::array();
        switch (*k) {
        case model::CatalogKind::gpus:
            t.header = {"id", "name", "memory", "HBM bandwidth", "BF16 dense", "FP8 dense", "TDP",
                        "as of", "source"};
            for (const auto& g : cat.gpus()) {
                arr.push_back(entry_json(g.raw_json, g.provenance));
                t.rows.push_back({g.id + (g.provenance.user ? " (user)" : ""), g.name,
                                  units::format_bytes(g.memory_bytes),
                                  units::format_si(g.memory_bandwidth_Bps, "B/s", 2),
                                  units::format_si(g.peak(model::Dtype::bf16), "FLOP/s"),
                                  g.peak(model::Dtype::fp8) > 0
                                      ? units::format_si(g.peak(model::Dtype::fp8), "FLOP/s")
                                      : "-",
                                  fmt(g.tdp_w, 0) + " W", g.provenance.as_of,
                                  g.provenance.source.empty() ? "" : g.provenance.source.front()});
            }
            break;
        case model::CatalogKind::links:
            t.header = {"id", "name", "class", "bandwidth (one way)", "as of"};
            for (const auto& l : cat.links()) {
                arr.push_back(entry_json(l.raw_json, l.provenance));
                const char* cls = l.cls == model::LinkClass::scaleup ? "scale-up"
                                  : l.cls == model::LinkClass::pcie ? "pcie"
                                                                     : "scale-out";
                t.rows.push_back({l.id, l.name, cls, units::format_si(l.bandwidth_unidir_Bps, "B/s"),
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
                t.rows.push_back({s.id, s.name, std::to_string(s.ports),
                                  s.port_rate_bps > 0 ? units::format_si(s.port_rate_bps, "b/s", 0)
                                                      : "-",
                                  s.provenance.as_of});
            }
            break;
        case model::CatalogKind::systems:
            t.header = {"id", "name", "GPUs", "GPU", "NICs", "power", "as of"};
            for (const auto& s : cat.systems()) {
                arr.push_back(entry_json(s.raw_json, s.provenance));
                t.rows.push_back({s.id, s.name, std::to_string(s.gpus), s.gpu.empty() ? "-" : s.gpu,
                                  std::to_string(s.nics) + " x " + s.scaleout_link,
                                  units::format_si(s.power_w, "W"), s.provenance.as_of});
            }
            break;
        case model::CatalogKind::cloud:
            t.header = {"id", "GPUs", "GPU", "$/hour", "$/GPU-hour", "price as of"};
            for (const auto& c : cat.cloud_offers()) {
                arr.push_back(entry_json(c.raw_json, c.provenance));
                t.rows.push_back({c.id, std::to_string(c.gpus), c.gpu, fmt(c.on_demand_usd_per_hour, 2),
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
    if (as_json)
        out << j.dump(2) << '\n';
    else
        t.print(out);
    return 0;
}

model::Design load_design_arg(const std::string& arg, const model::Catalog& cat) {
    std::error_code ec;
    if (std::filesystem::exists(arg, ec)) {
        auto text = model::read_text_file(arg);
        if (!text)
            throw UsageError{text.errors().front().message()};
        auto d = model::design_from_json(*text, arg, &cat);
        if (!d)
            throw UsageError{arg + ": " + d.errors().front().message()};
        return std::move(d).value();
    }
    const auto text = model::bundled_file("presets/" + arg + ".json");
    if (text.empty())
        throw UsageError{"\"" + arg + "\" is neither a file nor a bundled preset id (see "
                                      "`catalog presets`)"};
    auto d = model::design_from_json(text, arg, &cat);
    if (!d)
        throw UsageError{arg + ": " + d.errors().front().message()};
    return std::move(d).value();
}

json memory_json(const model::TrainingMemory& m) {
    const auto& b = m.per_gpu;
    return {{"per_gpu_bytes",
             {{"weights", b.weights},
              {"gradients", b.gradients},
              {"optimizer", b.optimizer},
              {"activations", b.activations},
              {"kv_cache", b.kv_cache},
              {"other", b.other},
              {"total", b.total()}}},
            {"capacity_bytes", m.capacity_bytes},
            {"headroom_bytes", m.headroom_bytes},
            {"fits", m.fits},
            {"worst_stage", m.worst_stage}};
}

int cmd_evaluate(const Args& a, std::ostream& out) {
    if (a.positional.size() != 2)
        throw UsageError{"evaluate needs one design file or preset id"};
    const model::Catalog cat = load_catalog(a);
    const model::Design d = load_design_arg(a.positional[1], cat);
    const model::Evaluation ev = model::evaluate(d, cat);
    const auto& t = ev.topology;
    if (a.flags.count("--json")) {
        json j = envelope();
        j["inputs"]["design"] = a.positional[1];
        j["design"] = {{"name", d.name}, {"description", d.description},
                       {"devices", d.devices.size()}, {"links", d.links.size()},
                       {"workloads", d.workloads.size()}};
        j["topology"] = {{"gpus", t.gpus},
                         {"nodes", t.nodes},
                         {"switches", t.switches},
                         {"gpu", t.gpu},
                         {"hbm_bytes", t.hbm_bytes},
                         {"peak_bf16_flops", t.peak_bf16_flops},
                         {"power_w", t.power_w},
                         {"scaleup_domain_size", t.scaleup_domain_size},
                         {"warnings", t.warnings}};
        json wl = json::array();
        for (const auto& w : ev.workloads) {
            json e{{"id", w.id}, {"name", w.name},
                   {"kind", w.kind == model::WorkloadKind::training ? "training" : "inference"},
                   {"gpus", w.gpus}, {"gpu", w.gpu}};
            if (w.has_memory)
                e["memory"] = memory_json(w.memory);
            if (!w.error.empty())
                e["error"] = w.error;
            wl.push_back(std::move(e));
        }
        j["workloads"] = std::move(wl);
        out << j.dump(2) << '\n';
        return 0;
    }
    out << d.name << "\n\n";
    Table tt;
    tt.header = {"topology", "value"};
    tt.rows = {{"GPUs", fmt(t.gpus, 0)},
               {"nodes", fmt(t.nodes, 0)},
               {"switches", fmt(t.switches, 0)},
               {"GPU type", t.gpu},
               {"total HBM", units::format_bytes(t.hbm_bytes)},
               {"peak BF16 (dense)", units::format_si(t.peak_bf16_flops, "FLOP/s")},
               {"max power", units::format_si(t.power_w, "W")},
               {"scale-up domain", std::to_string(t.scaleup_domain_size) + " GPUs"}};
    tt.print(out);
    for (const auto& w : t.warnings)
        out << "warning: " << w << '\n';
    for (const auto& w : ev.workloads) {
        out << "\nworkload " << w.id << " (" << w.name << ") on " << fmt(w.gpus, 0) << " x "
            << w.gpu << '\n';
        if (!w.error.empty())
            out << "  " << w.error << '\n';
        if (w.has_memory) {
            const auto& b = w.memory.per_gpu;
            Table m;
            m.header = {"memory per GPU", "bytes"};
            m.rows = {{"weights", units::format_bytes(b.weights)},
                      {"gradients", units::format_bytes(b.gradients)},
                      {"optimizer", units::format_bytes(b.optimizer)},
                      {"activations", units::format_bytes(b.activations)},
                      {"other", units::format_bytes(b.other)},
                      {"total", units::format_bytes(b.total())},
                      {"capacity", units::format_bytes(w.memory.capacity_bytes)},
                      {"fits", w.memory.fits ? "yes" : "no"}};
            m.print(out);
        }
    }
    return 0;
}

} // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    try {
        const Args a = parse_args(args);
        if (a.flags.count("--help") || (a.positional.empty() && !a.flags.count("--version"))) {
            out << kHelp;
            return a.flags.count("--help") ? 0 : 2;
        }
        if (a.flags.count("--version")) {
            out << "clusterlens-cli " << CLUSTERLENS_VERSION << '\n';
            return 0;
        }
        const std::string& cmd = a.positional.front();
        if (cmd == "catalog")
            return cmd_catalog(a, out);
        if (cmd == "evaluate")
            return cmd_evaluate(a, out);
        throw UsageError{"unknown command \"" + cmd + "\" (see --help)"};
    } catch (const UsageError& e) {
        err << "clusterlens-cli: " << e.message << '\n';
        return 2;
    } catch (const std::exception& e) {
        err << "clusterlens-cli: internal error: " << e.what() << '\n';
        return 2;
    }
}

} // namespace cl::cli
