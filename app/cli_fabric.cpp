// clusterlens-cli fabric commands: collective (with --sweep and --calibrate).
#include "cli_common.h"

#include "model/collective.h"
#include "model/topology.h"
#include "model/units.h"

#include <sstream>

namespace cl::cli {

using nlohmann::json;
namespace units = model::units;

model::Topology cluster_topology(Flags& f, const model::Catalog& cat, std::string* source) {
    if (const std::string* fab = f.raw("--fabric")) {
        const model::Design d = load_design_arg(*fab, cat);
        f.record("--fabric", *fab, "flag");
        for (const char* shape : {"--gpus-per-node", "--scaleup-domain", "--scaleout",
                                  "--nics-per-node", "--oversubscription", "--gpu"})
            if (f.has(shape))
                throw UsageError{std::string(shape) +
                                 " cannot be combined with --fabric (the drawn "
                                 "fabric defines it)"};
        *source = "fabric " + *fab;
        return model::analyze_topology(d, cat);
    }
    const model::GpuSpec& g = resolve_gpu(f, cat);
    model::ClusterShape shape;
    shape.gpus_per_node = static_cast<int>(f.get_int("--gpus-per-node", g.gpus_per_node, 1, 4096,
                                                     "default: the GPU's reference system"));
    shape.scaleup_domain =
        static_cast<int>(f.get_int("--scaleup-domain", g.scaleup_domain, 1, 1 << 20,
                                   "default: the reference system's domain"));
    shape.scaleout_link =
        f.get_string("--scaleout", g.default_scaleout_link, "default: the reference system's NICs");
    shape.nics_per_node = static_cast<int>(f.get_int("--nics-per-node", g.default_nics_per_node, 0,
                                                     4096, "default: the reference system's"));
    shape.oversubscription = f.get_number("--oversubscription", 1.0, 1.0, 1000.0);
    auto t = model::shape_topology(g, shape, cat);
    if (!t)
        throw UsageError{"--scaleout: " + t.errors().front().what + "; see `catalog links`"};
    *source = "flags";
    return std::move(t).value();
}

namespace {

json result_json(const model::CollectiveResult& r) {
    return {{"op", model::collective_op_name(r.op)},
            {"bytes", r.bytes},
            {"gpus", r.gpus},
            {"algorithm", model::collective_algo_name(r.algorithm)},
            {"protocol", r.protocol},
            {"time_s", r.time_s},
            {"algbw_Bps", r.algbw_Bps},
            {"busbw_Bps", r.busbw_Bps},
            {"tier", r.tier},
            {"bottleneck", r.bottleneck}};
}

/// What the fit read and found, for people: runs, skipped rows, each tier's size ranges.
std::string fit_summary(const model::NcclTestsOutput& in, const model::CalibrationFit& fit) {
    std::ostringstream o;
    o << "calibration from " << in.runs.size() << (in.runs.size() == 1 ? " run" : " runs") << ":\n";
    for (const auto& r : in.runs)
        o << "  line " << r.first_line << ": "
          << (!r.test_name.empty() ? r.test_name
                                   : (r.op_name.empty() ? std::string("(test not named)")
                                                        : r.op_name + " (test not named)"))
          << ", " << (r.ranks > 0 ? std::to_string(r.ranks) : std::string("?")) << " ranks"
          << (r.ranks_inferred ? " (from busbw/algbw)" : "")
          << (r.nodes > 0 ? " on " + std::to_string(r.nodes) + " hosts" : std::string()) << ", "
          << r.rows.size() << " sizes " << units::format_bytes(r.rows.front().bytes) << " to "
          << units::format_bytes(r.rows.back().bytes) << "\n";
    for (const auto& s : fit.skipped)
        o << "  line " << s.line << " skipped: " << s.reason << "\n";
    Table t;
    t.header = {"tier",          "sizes",        "model runs", "latency",
                "bus bandwidth", "error before", "error after"};
    for (const auto& tf : fit.tiers)
        for (const auto& sf : tf.segments)
            t.rows.push_back(
                {tf.name + " (" + std::to_string(tf.ranks) + " GPUs)",
                 units::format_bytes(sf.min_bytes) + " to " + units::format_bytes(sf.max_bytes),
                 sf.algorithm + " " + sf.protocol, fmt(sf.alpha_s * 1e6, 1) + " us",
                 units::format_si(sf.beta_Bps, "B/s", 3), fmt(sf.error_before * 100, 1) + " %",
                 fmt(sf.error_after * 100, 1) + " %"});
    t.print(o);
    o << "mean time error " << fmt(fit.error_before * 100, 1) << " % before, "
      << fmt(fit.error_after * 100, 1) << " % after the fit ("
      << fmt(fit.error_before_1mib * 100, 1) << " % and " << fmt(fit.error_after_1mib * 100, 1)
      << " % for sizes of 1 MiB and more)\n";
    return o.str();
}

} // namespace

int cmd_collective(Flags& f, std::ostream& out) {
    const model::Catalog cat = load_catalog(f);
    const auto op = *model::collective_op_from_name(f.get_choice("--op", "allreduce"));
    const auto algo = *model::collective_algo_from_name(f.get_choice("--algorithm", "auto"));
    std::string source;
    const model::Topology topo = cluster_topology(f, cat, &source);
    const long long n = f.get_int("--gpus", 8, 1, 1LL << 24);
    const model::GroupPlacement p = model::place_group(topo, static_cast<int>(n), 1);
    f.record("placement",
             {{"ranks_per_domain", p.ranks_per_node},
              {"domains", p.nodes},
              {"tier", p.tier},
              {"oversubscription", p.oversubscription}},
             "derived from --gpus and the cluster shape");
    model::CollectiveAssumptions a;
    f.record("nvlink_efficiency", a.nvlink_efficiency, "NCCL maintainer, nccl-tests issue #212");
    f.record("net_efficiency", a.net_efficiency,
             "NVIDIA, nccl-tests issue #290 (46-48 GB/s per NDR NIC)");
    json fit_json;
    std::string fit_text;
    if (const std::string* file = f.raw("--calibrate")) {
        auto text = model::read_text_file(*file, 16u * 1024u * 1024u);
        if (!text)
            throw UsageError{"--calibrate: " + text.errors().front().message()};
        auto parsed = model::parse_nccl_tests(*text);
        if (!parsed)
            throw UsageError{"--calibrate: " + *file + ": " + parsed.errors().front().message()};
        auto fit = model::calibrate(*parsed, op, topo, a);
        if (!fit)
            throw UsageError{"--calibrate: " + *file + ": " + fit.errors().front().what};
        a = fit->applied;
        f.record("--calibrate", *file, "flag");
        json tiers = json::array();
        for (const auto& tf : fit->tiers) {
            json segs = json::array();
            for (const auto& sf : tf.segments)
                segs.push_back({{"algorithm", sf.algorithm},
                                {"protocol", sf.protocol},
                                {"min_bytes", sf.min_bytes},
                                {"max_bytes", sf.max_bytes},
                                {"rows", sf.rows},
                                {"alpha_s", sf.alpha_s},
                                {"beta_Bps", sf.beta_Bps},
                                {"alpha_scale", sf.scales.alpha_scale},
                                {"beta_scale", sf.scales.beta_scale},
                                {"error_before", sf.error_before},
                                {"error_after", sf.error_after}});
            tiers.push_back({{"tier", tf.tier},
                             {"name", tf.name},
                             {"fitted", true},
                             {"op", tf.op},
                             {"ranks", tf.ranks},
                             {"nodes", tf.nodes},
                             {"rows", tf.rows},
                             {"oversubscription", tf.oversubscription},
                             {"segments", segs},
                             {"alpha_s", tf.segments.back().alpha_s},
                             {"beta_Bps", tf.segments.back().beta_Bps},
                             {"error_before", tf.error_before},
                             {"error_after", tf.error_after}});
        }
        json skipped = json::array();
        for (const auto& sk : fit->skipped)
            skipped.push_back({{"line", sk.line}, {"reason", sk.reason}});
        json runs = json::array();
        for (const auto& r : parsed->runs)
            runs.push_back(
                {{"op", r.op_name.empty() ? std::string(model::collective_op_name(op)) : r.op_name},
                 {"test", r.test_name},
                 {"ranks", r.ranks},
                 {"ranks_inferred", r.ranks_inferred},
                 {"nodes", r.nodes},
                 {"rows", r.rows.size()},
                 {"min_bytes", r.rows.front().bytes},
                 {"max_bytes", r.rows.back().bytes},
                 {"first_line", r.first_line}});
        fit_json = {{"tiers", tiers},
                    {"runs", runs},
                    {"skipped", skipped},
                    {"rows", fit->rows},
                    {"ranks", fit->ranks},
                    {"nodes", fit->nodes},
                    {"op", fit->op},
                    {"error_before", fit->error_before},
                    {"error_after", fit->error_after},
                    {"error_before_1mib", fit->error_before_1mib},
                    {"error_after_1mib", fit->error_after_1mib}};
        fit_text = fit_summary(*parsed, *fit);
    }
    std::vector<double> sizes;
    if (const std::string* sw = f.raw("--sweep")) {
        const auto colon = sw->find(':');
        if (colon == std::string::npos)
            throw UsageError{"--sweep: expected MIN:MAX, e.g. 1K:1G"};
        auto lo = units::parse_size(sw->substr(0, colon));
        auto hi = units::parse_size(sw->substr(colon + 1));
        if (!lo || !hi || *lo < 1 || *hi < *lo || *hi > 1e15)
            throw UsageError{
                "--sweep: expected MIN:MAX sizes with 1 <= MIN <= MAX <= 1e15, found \"" + *sw +
                "\""};
        for (double s = *lo; s <= *hi * (1 + 1e-12) && sizes.size() < 64; s *= 2)
            sizes.push_back(s);
        f.record("--sweep", *sw, "flag");
        if (f.has("--bytes"))
            throw UsageError{"--bytes and --sweep are exclusive"};
    } else {
        sizes.push_back(f.get_size("--bytes", 1 << 30, 0, 1e15, "default: 1 GiB"));
    }
    std::vector<model::CollectiveResult> rows;
    for (double s : sizes) {
        auto r = model::collective_time(op, s, topo, p, algo, a);
        if (!r) {
            const auto& e = r.errors().front();
            throw UsageError{e.where + ": " + e.what};
        }
        rows.push_back(r.value());
    }
    if (f.has("--json")) {
        json j = envelope(f);
        json c;
        // Issue 19: the band of comparable published collectives (calibrated: the user's own
        // measurements stand behind the numbers instead, and no band is printed).
        const model::GpuSpec* g = cat.gpu(topo.gpu);
        const auto banded = [&](const model::CollectiveResult& r) {
            json o = result_json(r);
            if (fit_json.is_null() && g)
                add_bands(
                    o, model::band_for(model::collective_case(*g, static_cast<double>(n), r.bytes)),
                    model::BandKind::collective);
            return o;
        };
        if (f.has("--sweep")) {
            json arr = json::array();
            for (const auto& r : rows)
                arr.push_back(banded(r));
            c["rows"] = arr;
        } else {
            c = banded(rows.front());
        }
        if (!fit_json.is_null())
            c["fit"] = fit_json;
        j["collective"] = c;
        print_json(out, j);
        return 0;
    }
    out << model::collective_op_name(op) << " on " << n << " × " << topo.gpu << " (" << source
        << "): " << p.ranks_per_node << " per scale-up domain × " << p.nodes << " domains, tier "
        << p.tier << "\n\n";
    // Issue 19: the model's error band of busbw beside it (none once calibrated: the user's
    // measurements stand behind the numbers), and its basis below.
    const model::GpuSpec* g = cat.gpu(topo.gpu);
    const bool banded = fit_json.is_null() && g;
    Table t;
    t.header = {"size", "algorithm", "protocol", "time", "algbw", "busbw"};
    if (banded)
        t.header.push_back("busbw band (GB/s)");
    t.header.push_back("bottleneck");
    std::string basis;
    for (const auto& r : rows) {
        const double us = r.time_s * 1e6;
        std::vector<std::string> row = {units::format_bytes(r.bytes),
                                        std::string(model::collective_algo_name(r.algorithm)),
                                        r.protocol,
                                        us >= 1000 ? fmt(us / 1000, 3) + " ms" : fmt(us, 1) + " us",
                                        units::format_si(r.algbw_Bps, "B/s", 2),
                                        units::format_si(r.busbw_Bps, "B/s", 2)};
        if (banded) {
            const model::Band b =
                model::band_for(model::collective_case(*g, static_cast<double>(n), r.bytes));
            row.push_back(model::range_text(r.busbw_Bps / 1e9, b, model::Scales::with_speed, 1));
            if (basis.empty() || basis.size() < b.basis.size())
                basis = b.basis; // the widest: small messages add why they are far
        }
        row.push_back(r.bottleneck);
        t.rows.push_back(std::move(row));
    }
    t.print(out);
    if (banded)
        out << "\nerror band: " << basis << "\n";
    if (!fit_text.empty())
        out << "\n" << fit_text;
    return 0;
}

} // namespace cl::cli
