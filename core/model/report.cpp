#include "model/report.h"

#include "model/explain.h"
#include "model/memory.h"
#include "model/schema.h"
#include "model/sensitivity.h"
#include "model/units.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string_view>
#include <system_error>

namespace cl::model {

namespace {

std::string csv_number(double v) {
    return units::format_plain(v);
}

/// A whole cell that reads as a number ("-12.5", "3e9"; C locale): left as it is.
bool is_number(const std::string& s) {
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size() && std::isfinite(v);
}

std::string csv_cell(const std::string& text) {
    // A text cell a spreadsheet would run as a formula (= + - @, or a leading tab or CR) gets a
    // leading apostrophe (OWASP "CSV Injection"); numbers stay numbers, negative ones included.
    std::string s = text;
    if (!s.empty() && std::string_view("=+-@\t\r").find(s[0]) != std::string_view::npos &&
        !is_number(s))
        s.insert(s.begin(), '\'');
    if (s.find_first_of(",\"\n\r") == std::string::npos)
        return s;
    std::string q = "\"";
    for (char ch : s) {
        if (ch == '"')
            q += '"';
        q += ch;
    }
    return q + '"';
}

std::string csv_line(const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i)
        line += (i ? "," : "") + csv_cell(cells[i]);
    return line + "\r\n";
}

} // namespace

std::string report_human(double v, ReportFormat fmt) {
    if (!std::isfinite(v))
        return "-";
    switch (fmt) {
    case ReportFormat::text:
        return units::format_g(v, 6);
    case ReportFormat::count:
        return units::format_count(v);
    case ReportFormat::bytes:
        return units::format_bytes(v);
    case ReportFormat::flops:
        return units::format_si(v, "FLOP/s", 1);
    case ReportFormat::bytes_rate:
        return units::format_si(v, "B/s", 1);
    case ReportFormat::seconds: {
        const double a = std::fabs(v);
        if (a == 0)
            return "0 s";
        if (a < 1e-9) // a per-item cost (MoE routing per expert choice): picoseconds
            return units::format_fixed(v * 1e12, 1) + " ps";
        if (a < 1e-6)
            return units::format_fixed(v * 1e9, 1) + " ns";
        if (a < 1e-3)
            return units::format_fixed(v * 1e6, 1) + " \u00b5s";
        if (a < 1) // three significant digits, as every screen shows TTFT and TPOT
            return units::format_fixed(v * 1e3, units::ms_decimals(v * 1e3)) + " ms";
        if (a < 120)
            return units::format_fixed(v, a < 10 ? 2 : 1) + " s";
        if (a < 7200)
            return units::format_fixed(v / 60, 1) + " min";
        if (a < 3 * 86400)
            return units::format_fixed(v / 3600, 1) + " h";
        return (a / 86400 < 10000 ? units::format_fixed(v / 86400, 1)
                                  : units::format_count(v / 86400)) +
               " days";
    }
    case ReportFormat::hours:
        return (std::fabs(v) < 100 ? units::format_fixed(v, 1) : units::format_count(v)) + " h";
    case ReportFormat::usd:
        return (v < 0 ? "-$" : "$") + units::format_count(std::fabs(v));
    case ReportFormat::usd_rate:
        return (v < 0 ? "-$" : "$") + units::format_price(std::fabs(v));
    case ReportFormat::percent: // one decimal always, so a band's ends read alike: "31.0 % to 53.6
                                // %"
        return units::format_fixed(v * 100, 1) + " %";
    case ReportFormat::ratio: // three significant digits, as the canvas badge: 6.85, 8, 1.04
        return units::format_g(v, 3);
    case ReportFormat::number: {
        const double a = std::fabs(v);
        // Whole numbers as whole numbers ("16 tokens", "36 months", "8,192"; issue 21 found
        // "16.00 tokens" and "8192.0 tokens"), separators from 1,000.
        if (a >= 1000 || (a < 1e15 && v == std::round(v)))
            return units::format_count(v);
        const int decimals = a >= 100 ? 1 : a >= 1 ? 2 : a >= 0.01 ? 3 : 5;
        return units::format_fixed(v, decimals);
    }
    }
    return units::format_g(v, 4);
}

std::string report_value(double x, const std::string& u) {
    if (u == "bool")
        return x > 0.5 ? "on" : "off";
    if (u == "fraction")
        return report_human(x, ReportFormat::percent);
    if (u == "ratio") // PUE 1.3, not "1.30 ratio"
        return report_human(x, ReportFormat::ratio);
    if (u.rfind("of ", 0) == 0) // "of server capex": a share
        return report_human(x, ReportFormat::percent) + " " + u;
    if (u == "exponent") // "exponent 2", not "2 exponent" (helper-44)
        return "exponent " + report_human(x, ReportFormat::number);
    if (u == "h")
        return report_human(x, ReportFormat::hours);
    if (u == "bytes")
        return report_human(x, ReportFormat::bytes);
    if (u == "B/s")
        return report_human(x, ReportFormat::bytes_rate);
    if (u == "FLOP/s")
        return report_human(x, ReportFormat::flops);
    if (u == "s")
        return report_human(x, ReportFormat::seconds);
    if (u.rfind("USD", 0) == 0) {
        if (x == 0) // a cost input left at nothing (staff): "none", not "$0.00/year" (helper-3)
            return "none";
        return report_human(x, std::fabs(x) >= 100 ? ReportFormat::usd : ReportFormat::usd_rate) +
               u.substr(3);
    }
    // Days with one decimal, as every caption says them (helper-11: "Auto: 28.54 days" in the
    // assumptions beside "28.5 days" in the Reliability caption).
    if (u == "days" && x != 1)
        return (std::fabs(x) >= 1000 ? report_human(x, ReportFormat::count)
                                     : units::format_fixed(x, 1)) +
               " days";
    // One of a counted unit reads singular: "1 node", not "1 nodes" (helper-3).
    static const char* const kPlural[] = {"nodes",  "tokens", "sequences", "ops",    "days",
                                          "GPUs",   "months", "years",     "racks",  "servers",
                                          "copies", "hours",  "replicas",  "sockets"};
    if (x == 1)
        for (const char* p : kPlural)
            if (u == p)
                return "1 " + u.substr(0, u.size() - (u == "copies" ? 3 : 1)) +
                       (u == "copies" ? "y" : "");
    return report_human(x, ReportFormat::number) + (u.empty() ? "" : " " + u);
}

namespace {

/// A table built column by column: each column's key, label and unit, each cell as the CSV
/// writes it (SI) and as a person reads it.
struct Builder {
    ReportTable t;
    struct Col {
        const char* key;
        const char* label;
        const char* unit;
        ReportFormat fmt;
    };
    std::vector<Col> cols;
    Builder(std::string id, std::string title, std::vector<Col> c) : cols(std::move(c)) {
        t.id = std::move(id);
        t.title = std::move(title);
        for (const auto& col : cols) {
            t.header.emplace_back(col.key);
            t.labels.emplace_back(col.label);
            t.units.emplace_back(col.unit);
        }
    }
    /// One row: text cells (the first column, "yes") and numbers, in column order.
    struct Cell {
        bool is_text;
        std::string text;
        double v;
        std::string shown; ///< what a person reads instead (the CSV keeps `text`)
        Cell(const char* x) : is_text(true), text(x), v(0) {}
        Cell(std::string x) : is_text(true), text(std::move(x)), v(0) {}
        Cell(double x) : is_text(false), v(x) {}
        /// Nothing to give: an empty CSV cell, words for people ("not costed").
        static Cell none(std::string words) {
            Cell c{std::string()};
            c.shown = std::move(words);
            return c;
        }
    };
    void row(std::vector<Cell> cells) {
        std::vector<std::string> raw, shown;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            const Cell& c = cells[i];
            const ReportFormat fmt = i < cols.size() ? cols[i].fmt : ReportFormat::number;
            raw.push_back(c.is_text ? c.text : csv_number(c.v));
            shown.push_back(!c.shown.empty() ? c.shown
                            : c.is_text      ? c.text
                                             : report_human(c.v, fmt));
        }
        t.rows.push_back(std::move(raw));
        t.display.push_back(std::move(shown));
    }
};

using RF = ReportFormat;

/// A "quantity | value | unit" table: each row says its own unit and format.
/// A table of named quantities. The CSV keys each row by a stable snake_case key made from its
/// label ("On-prem: servers" -> on_prem_servers), keeps the number in SI in `value` with its
/// `unit`, and says in `note` what a row without a number means ("not costed: ..."); the PDF
/// shows the label and the value for people (helper-9: rows keyed by labels, words in the value
/// column, "Oversubscription,1,:1").
struct KeyValue {
    ReportTable t;
    KeyValue(std::string id, std::string title) {
        t.id = std::move(id);
        t.title = std::move(title);
        t.header = {"key", "value", "unit", "quantity", "note"};
        t.labels = {"", "", "", "", ""};
        t.units = {"", "", "", "", ""};
    }
    static std::string key_of(const std::string& label) {
        std::string k;
        for (const char ch : label) {
            const auto u = static_cast<unsigned char>(ch);
            if (std::isalnum(u))
                k += static_cast<char>(std::tolower(u));
            else if (!k.empty() && k.back() != '_')
                k += '_';
        }
        while (!k.empty() && k.back() == '_')
            k.pop_back();
        return k;
    }
    void add(const std::string& label, double v, const char* unit, RF fmt) {
        t.rows.push_back({key_of(label), csv_number(v), unit, label, ""});
        // A rate says what it is per ("$6.88/GPU-hour"; helper-16 read "Cloud price $6.88").
        const std::string_view u(unit);
        const std::string per = u.rfind("USD/", 0) == 0 ? std::string(u.substr(3)) : std::string();
        t.display.push_back({label, report_human(v, fmt) + per, "", "", ""});
    }
    /// A row whose value is words: the CSV leaves `value` empty and says them in `note`.
    void text(const std::string& label, const std::string& value) {
        t.rows.push_back({key_of(label), "", "", label, value});
        t.display.push_back({label, value, "", "", ""});
    }
    /// A row whose value is an identifier (a catalog id), kept in `value`.
    void id(const std::string& label, const std::string& value, const std::string& shown) {
        t.rows.push_back({key_of(label), value, "", label, ""});
        t.display.push_back({label, shown, "", "", ""});
    }
};

} // namespace

ReportTable sensitivity_table(const SensitivityResult& s) {
    ReportTable t;
    t.id = "sensitivity";
    t.title = "Sensitivity: what moves on-prem minus cloud cost (each input 20 % down and up; "
              "base " +
              report_human(s.base, RF::usd) + ")";
    t.header = {"input_key",  "input",          "input_unit",     "input_low",
                "input_high", "difference_low", "difference_high"};
    t.units = {"", "", "", "input_unit", "input_unit", "USD", "USD"};
    t.labels = {
        "", "Input", "", "Input low", "Input high", "Cost difference low", "Cost difference high"};
    if (!s.error.empty())
        return t;
    for (const auto& b : s.bars) {
        t.rows.push_back({KeyValue::key_of(b.input), b.input, b.unit, csv_number(b.low_value),
                          csv_number(b.high_value), csv_number(b.output_low),
                          csv_number(b.output_high)});
        t.display.push_back(
            {"", b.input, "", report_value(b.low_value, b.unit), report_value(b.high_value, b.unit),
             report_human(b.output_low, RF::usd), report_human(b.output_high, RF::usd)});
    }
    return t;
}

std::vector<ReportTable> report_tables(const Design& d, const Evaluation& ev, const Catalog& c,
                                       bool with_sensitivity) {
    std::vector<ReportTable> out;
    const auto& t = ev.topology;
    KeyValue topo("topology", "Cluster");
    topo.add("GPUs", t.gpus, "", RF::count);
    // The GPU by its catalog name (helper-22: "GPU type h100-sxm"); the CSV keeps the id.
    const GpuSpec* gpu_spec = c.gpu(t.gpu);
    topo.id("GPU type", t.gpu, gpu_spec && !gpu_spec->name.empty() ? gpu_spec->name : t.gpu);
    topo.add("Nodes", t.nodes, "", RF::count);
    if (t.nodes == 0 && t.gpus > 0) // a workstation's card (helper-10: "Nodes 0")
        topo.t.display.back()[1] = "none (GPUs on their own, not in a server)";
    topo.add("Switches", t.switches, "", RF::count);
    topo.add("Total GPU memory", t.hbm_bytes, "bytes", RF::bytes);
    topo.add("Peak BF16 (dense)", t.peak_bf16_flops, "FLOP/s", RF::flops);
    topo.add("Scale-up domain", t.scaleup_domain_size, "GPUs", RF::count);
    topo.add("Scale-up bandwidth per GPU", ev.fabric.scaleup_Bps_per_gpu, "B/s", RF::bytes_rate);
    topo.add("Scale-out bandwidth per GPU", ev.fabric.scaleout_Bps_per_gpu, "B/s", RF::bytes_rate);
    // Helper-6: "0 B/s" read like a measured zero; a design without a scale-out network says so
    // (the CSV keeps the 0).
    if (!(ev.fabric.scaleout_Bps_per_gpu > 0))
        topo.t.display.back()[1] = "none (no scale-out network)";
    topo.add("Bisection bandwidth (one way)", ev.fabric.bisection_Bps, "B/s", RF::bytes_rate);
    if (!(ev.fabric.bisection_Bps > 0))
        topo.t.display.back()[1] = "none (no scale-out network)";
    topo.add("Oversubscription", ev.fabric.oversubscription, "ratio", RF::ratio);
    topo.t.display.back()[1] += ":1";
    if (ev.fabric.oversubscription <= 1.0)
        topo.t.display.back()[1] = "none (1:1)";
    for (const auto& st : ev.fabric.tiers) {
        std::string tier = st.name + " tier"; // "Leaf tier", as the other labels read
        if (!tier.empty() && tier[0] >= 'a' && tier[0] <= 'z')
            tier[0] = static_cast<char>(tier[0] - 'a' + 'A');
        topo.add(tier + " switches", st.switches, "switches", RF::count);
        topo.add(tier + " oversubscription", st.oversubscription, "ratio", RF::ratio);
        topo.t.display.back()[1] = units::format_g(st.oversubscription, 3) + ":1";
    }
    for (const auto& w : t.warnings)
        topo.text("Warning", w);
    out.push_back(std::move(topo.t));

    if (ev.tco) {
        const auto& inv = ev.tco->inventory;
        const auto& b = ev.tco->onprem_breakdown;
        Builder bom("bill_of_materials", "Bill of materials",
                    {{"item", "Item", "", RF::text},
                     {"count", "Count", "", RF::count},
                     {"usd", "Cost", "USD", RF::usd}});
        // Unpriced servers: the count stands, the cost is left empty (issue 21).
        // A rack-scale system (GB200 NVL72: 18 compute trays) is one priced item holding many
        // nodes; the row says so (helper-9: "Nodes 18" beside "Servers 1").
        const std::string servers_label = inv.servers > 0 && t.nodes > inv.servers
                                              ? (inv.servers == 1 ? "System (" : "Systems (") +
                                                    units::format_count(t.nodes) + " nodes)"
                                              : std::string("Servers");
        bom.row({servers_label, inv.servers,
                 ev.tco->has_onprem ? Builder::Cell(b.servers)
                                    : Builder::Cell(std::string("not priced"))});
        bom.row({"Switches", inv.switches, inv.switch_capex_usd});
        bom.row({"Cables with optics", inv.cables, inv.cable_capex_usd});
        bom.row({"NICs (in the server price)", inv.nics, Builder::Cell::none("in the servers")});
        if (ev.tco->has_onprem)
            bom.row({"Storage", "", b.storage});
        bom.row({"Racks", ev.tco->racks, ""});
        out.push_back(std::move(bom.t));
    }

    Builder mem("memory", "Memory per GPU (worst stage)",
                {{"workload", "Workload", "", RF::text},
                 {"weights", "Weights", "bytes", RF::bytes},
                 {"gradients", "Gradients", "bytes", RF::bytes},
                 {"optimizer", "Optimizer", "bytes", RF::bytes},
                 {"activations", "Activations", "bytes", RF::bytes},
                 {"kv_cache", "KV cache", "bytes", RF::bytes},
                 {"other", "Other", "bytes", RF::bytes},
                 {"total", "Total", "bytes", RF::bytes},
                 {"capacity", "Capacity", "bytes", RF::bytes},
                 {"fits", "Fits", "", RF::text}});
    Builder tr("training", "Training",
               {{"workload", "Workload", "", RF::text},
                {"step_time_s", "Step time", "s", RF::seconds},
                {"tokens_per_s", "Tokens per second", "tokens/s", RF::count},
                {"mfu", "MFU", "fraction", RF::percent},
                {"hfu", "HFU", "fraction", RF::percent},
                {"compute_s", "Compute", "s", RF::seconds},
                {"recompute_s", "Recompute", "s", RF::seconds},
                {"tp_comm_s", "TP communication", "s", RF::seconds},
                {"cp_comm_s", "CP communication", "s", RF::seconds},
                {"ep_comm_s", "EP communication", "s", RF::seconds},
                {"pp_comm_s", "PP communication", "s", RF::seconds},
                {"dp_comm_s", "DP communication", "s", RF::seconds},
                {"optimizer_s", "Optimizer step", "s", RF::seconds},
                {"bubble_s", "Pipeline bubble", "s", RF::seconds},
                {"time_to_train_s", "Time to train", "s", RF::seconds},
                {"gpu_hours", "GPU-hours", "h", RF::hours},
                {"cost_usd", "Cost at the cloud rate", "USD", RF::usd}});
    Builder inf(
        "inference", "Serving",
        {{"workload", "Workload", "", RF::text},
         {"ttft_s", "Time to first token", "s", RF::seconds},
         {"tpot_s", "Time per output token", "s", RF::seconds},
         {"batch", "Concurrent sequences", "", RF::count},
         {"output_tokens_per_s", "Output tokens per second", "tokens/s", RF::count},
         {"output_tokens_per_s_per_gpu", "Output tokens per second per GPU", "tokens/s", RF::count},
         {"usd_per_million_output_tokens", "Per million output tokens", "USD", RF::usd_rate},
         {"usd_per_million_input_tokens", "Per million input tokens", "USD", RF::usd_rate},
         {"onprem_usd_per_million_output_tokens", "Per million output tokens, owning", "USD",
          RF::usd_rate},
         {"gpus_needed", "GPUs needed", "", RF::count},
         {"job_makespan_s", "Batch job time", "s", RF::seconds}});
    Builder rel("reliability", "Reliability",
                {{"workload", "Workload", "", RF::text},
                 {"job_mtbf_h", "Job MTBF", "h", RF::hours},
                 {"interruptions_per_day", "Interruptions per day", "1/day", RF::number},
                 {"checkpoint_bytes", "Checkpoint size", "bytes", RF::bytes},
                 {"checkpoint_write_s", "Checkpoint write", "s", RF::seconds},
                 {"young_interval_s", "Young interval", "s", RF::seconds},
                 {"daly_interval_s", "Daly interval", "s", RF::seconds},
                 {"goodput", "Goodput", "fraction", RF::percent},
                 {"lost_gpu_hours", "GPU-hours lost", "h", RF::hours},
                 {"lost_usd", "Cost of lost work", "USD", RF::usd},
                 {"spare_nodes", "Spare nodes", "", RF::number}});
    for (const auto& w : ev.workloads) {
        if (w.has_memory) {
            const auto& b = w.memory.per_gpu;
            mem.row({w.name, b.weights, b.gradients, b.optimizer, b.activations, b.kv_cache,
                     b.other, b.total(), w.memory.capacity_bytes, w.memory.fits ? "yes" : "no"});
            // A part the workload does not hold reads "none" (serving has no gradients or
            // optimizer state; training no KV cache), not "0 B" (helper-9).
            for (std::size_t col = 1; col <= 6; ++col)
                if (mem.t.rows.back()[col] == "0")
                    mem.t.display.back()[col] = "none";
        }
        if (w.training) {
            const auto& r = *w.training;
            const auto& bd = r.breakdown;
            // No tokens to train: no time, GPU-hours or cost; no price: the cost is not costed
            // (helper-3: "$0" read as free).
            using C = Builder::Cell;
            const bool tokens = r.time_to_train_s > 0;
            tr.row({w.name, r.step_time_s, r.tokens_per_s, r.mfu, r.hfu, bd.compute, bd.recompute,
                    bd.tp_comm, bd.cp_comm, bd.ep_comm, bd.pp_comm, bd.dp_comm, bd.optimizer,
                    bd.bubble, tokens ? C(r.time_to_train_s) : C::none("no tokens set"),
                    tokens ? C(r.gpu_hours) : C::none("no tokens set"),
                    !tokens          ? C::none("no tokens set")
                    : r.cost_usd > 0 ? C(r.cost_usd)
                                     : C::none("not costed: no cloud price")});
        }
        if (w.inference) {
            const auto& r = *w.inference;
            // Without a price the $ cells are not costed, and GPUs needed is only computed for
            // a request rate (online): words, not "$0.00" and "0" (helper-3).
            using C = Builder::Cell;
            const C no_price = C::none("not costed: no cloud price");
            inf.row(
                {w.name, r.ttft_s, r.tpot_s, static_cast<double>(r.batch), r.output_tokens_per_s,
                 r.output_tokens_per_s_per_gpu,
                 r.usd_per_million_output_tokens > 0 ? C(r.usd_per_million_output_tokens)
                                                     : no_price,
                 r.usd_per_million_input_tokens > 0 ? C(r.usd_per_million_input_tokens) : no_price,
                 // Owning at the amortized on-prem GPU-hour (helper-10: a GB200 rack with an
                 // on-prem cost read "not costed" for every token price).
                 w.onprem_usd_per_million_output_tokens > 0
                     ? C(w.onprem_usd_per_million_output_tokens)
                     : C::none("not costed: no on-prem cost"),
                 r.gpus_needed > 0 ? C(r.gpus_needed) : C::none("no request rate set"),
                 // A batch job of requests (session 36): its makespan; else a steady state.
                 r.job_makespan_s > 0 ? C(r.job_makespan_s) : C::none("steady state")});
        }
        if (w.reliability) {
            const auto& r = *w.reliability;
            rel.row({w.name, r.job_mtbf_s / 3600, r.expected_interruptions_per_day,
                     r.checkpoint_bytes, r.checkpoint_write_s, r.young_interval_s,
                     r.optimal_checkpoint_interval_s, r.goodput, r.lost_gpu_hours, r.lost_usd,
                     r.spare_nodes});
        }
    }
    // Issue 19: how far to trust each headline number (uncertainty.h), one row per number.
    Builder bands("error_bands", "How far to trust the numbers (the model's error bands)",
                  {{"workload", "Workload", "", RF::text},
                   {"quantity", "Number", "", RF::text},
                   {"value", "Value", "", RF::number},
                   {"low", "Low", "", RF::number},
                   {"high", "High", "", RF::number},
                   {"unit", "Unit", "", RF::text},
                   {"rows", "Published runs", "", RF::count},
                   {"held_out_median_error", "Median error (held out)", "fraction", RF::percent},
                   {"basis", "Basis", "", RF::text}});
    for (const auto& w : ev.workloads) {
        if (!w.band)
            continue;
        const auto row = [&](const char* key, const char* label, double v, Scales sc,
                             const char* unit, RF fmt) {
            const auto [lo, hi] = band_range(v, *w.band, sc);
            bands.t.rows.push_back({w.name, key, csv_number(v), csv_number(lo), csv_number(hi),
                                    unit, std::to_string(w.band->rows),
                                    csv_number(w.band->median_abs_error), w.band->basis});
            bands.t.display.push_back({w.name, label, report_human(v, fmt), report_human(lo, fmt),
                                       report_human(hi, fmt), "", units::format_count(w.band->rows),
                                       report_human(w.band->median_abs_error, RF::percent),
                                       w.band->basis});
        };
        if (w.training) {
            const auto& r = *w.training;
            row("step_time_s", "Step time", r.step_time_s, Scales::with_time, "s", RF::seconds);
            row("tokens_per_s", "Tokens per second", r.tokens_per_s, Scales::with_speed, "tokens/s",
                RF::count);
            row("mfu", "MFU", r.mfu, Scales::with_speed, "fraction", RF::percent);
            if (r.time_to_train_s > 0)
                row("time_to_train_s", "Time to train", r.time_to_train_s, Scales::with_time, "s",
                    RF::seconds);
            if (r.cost_usd > 0)
                row("cost_usd", "Cost to train", r.cost_usd, Scales::with_time, "USD", RF::usd);
        }
        if (w.inference) {
            const auto& r = *w.inference;
            row("ttft_s", "Time to first token", r.ttft_s, Scales::with_time, "s", RF::seconds);
            row("tpot_s", "Time per output token", r.tpot_s, Scales::with_time, "s", RF::seconds);
            row("output_tokens_per_s", "Output tokens per second", r.output_tokens_per_s,
                Scales::with_speed, "tokens/s", RF::count);
            if (r.usd_per_million_output_tokens > 0)
                row("usd_per_million_output_tokens", "Per million output tokens",
                    r.usd_per_million_output_tokens, Scales::with_time, "USD", RF::usd_rate);
        }
    }
    for (auto* tab : {&mem, &tr, &inf, &bands, &rel})
        if (!tab->t.rows.empty())
            out.push_back(std::move(tab->t));

    if (ev.tco) {
        const auto& t2 = *ev.tco;
        const auto& b = t2.onprem_breakdown;
        KeyValue tco("tco", "Cost over the horizon");
        // Issue 21: a side that could not be costed is said in words, never shown as $0.
        const std::string cloud_no = "not costed: " + t2.cloud_missing,
                          onprem_no = "not costed: " + t2.onprem_missing;
        if (t2.has_cloud)
            tco.add("Cloud", t2.cloud_usd, "USD", RF::usd);
        else
            tco.text("Cloud", cloud_no);
        if (t2.has_onprem) {
            tco.add("On-prem", t2.onprem_usd, "USD", RF::usd);
            tco.add("On-prem: servers", b.servers, "USD", RF::usd);
            tco.add("On-prem: network", b.network, "USD", RF::usd);
            tco.add("On-prem: storage", b.storage, "USD", RF::usd);
            tco.add("On-prem: power", b.power, "USD", RF::usd);
            tco.add("On-prem: facility", b.facility, "USD", RF::usd);
            if (b.staff > 0)
                tco.add("On-prem: staff", b.staff, "USD", RF::usd);
            else { // a zero the user left, said in words
                tco.add("On-prem: staff", 0, "USD", RF::usd);
                tco.t.display.back()[1] = "none entered (the Cost section's staff cost)";
                tco.t.rows.back()[4] = "none entered";
            }
            tco.add("On-prem: maintenance", b.maintenance, "USD", RF::usd);
        } else {
            tco.text("On-prem", onprem_no);
        }
        if (!t2.has_cloud || !t2.has_onprem)
            tco.text("Break-even month", "needs both sides costed");
        else if (t2.breakeven_months >= 0)
            tco.add("Break-even month", t2.breakeven_months, "month", RF::count);
        else
            tco.text("Break-even month", "never");
        if (!t2.has_cloud || !t2.has_onprem)
            tco.text("Break-even utilization", "needs both sides costed");
        else if (t2.breakeven_utilization >= 0)
            tco.add("Break-even utilization", t2.breakeven_utilization, "fraction", RF::percent);
        else
            tco.text("Break-even utilization",
                     t2.commitment == Commitment::one_year ||
                             t2.commitment == Commitment::three_year
                         ? "none: a commitment bills every hour, used or not"
                         : "none: renting costs less at any utilization");
        if (t2.has_cloud)
            tco.add("Cloud price", t2.cloud_price_per_gpu_hour, "USD/GPU-hour", RF::usd_rate);
        if (t2.has_onprem) {
            tco.add("On-prem per GPU-hour used", t2.onprem_usd_per_gpu_hour, "USD/GPU-hour",
                    RF::usd_rate);
            tco.add("On-prem amortized", t2.amortized_usd_per_gpu_hour, "USD/GPU-hour",
                    RF::usd_rate);
        }
        tco.add("IT power (nameplate)", t2.it_power_peak_kw * 1000, "W", RF::number);
        tco.t.display.back()[1] = units::format_kw(t2.it_power_peak_kw) + " kW";
        tco.add("Facility power (average)", t2.power_kw * 1000, "W", RF::number);
        tco.t.display.back()[1] = units::format_kw(t2.power_kw) + " kW";
        tco.add("Energy", t2.energy_kwh, "kWh", RF::count);
        // In MWh as the Cost caption says it (helper-10: "522,709 kWh" beside "523 MWh").
        tco.t.display.back()[1] = units::format_count(t2.energy_kwh / 1000) + " MWh";
        tco.add("CO2", t2.co2_kg, "kg", RF::count);
        tco.t.display.back()[1] = units::format_count(t2.co2_kg / 1000) + " t";
        out.push_back(std::move(tco.t));
        // Every way of renting the offer allows, side by side (issue 21).
        Builder ways("cloud_options", "Ways of renting the same GPUs",
                     {{"option", "Option", "", RF::text},
                      {"rate", "Billed rate", "USD/GPU-hour", RF::usd_rate},
                      {"cost", "Over the horizon", "USD", RF::usd},
                      {"per_hour_used", "Per GPU-hour used", "USD/GPU-hour", RF::usd_rate},
                      {"breakeven_month", "Owning costs less from", "month", RF::text},
                      {"billed", "", "", RF::text}});
        for (const auto& o : t2.cloud_options) {
            std::string name = choice_label(to_string(o.commitment));
            if (o.commitment == t2.commitment)
                name += " (billed)";
            ways.row({name, o.rate_per_gpu_hour, o.usd, o.usd_per_gpu_hour,
                      o.breakeven_months >= 0 ? "month " + std::to_string(o.breakeven_months)
                                              : std::string("not within the horizon"),
                      o.commitment == t2.commitment ? "yes" : "no"});
            ways.t.display.back()[5].clear(); // people read "(billed)" in the option's name
            // The CSV keys the option by its spelling ("on-demand", "3y"), the same in every
            // file (helper-10: "On demand (billed)" in one, "3-year commitment (billed)" in
            // another), and keeps a number (empty when owning never costs less in the horizon).
            ways.t.rows.back()[0] = std::string(to_string(o.commitment));
            ways.t.rows.back()[4] =
                o.breakeven_months >= 0 ? std::to_string(o.breakeven_months) : std::string();
        }
        if (t2.cloud_options.size() > 1)
            out.push_back(std::move(ways.t));
        Builder monthly("tco_monthly", "Cumulative cost by month",
                        {{"month", "Month", "", RF::count},
                         {"cloud_usd", "Cloud", "USD", RF::usd},
                         {"onprem_usd", "On-prem", "USD", RF::usd}});
        for (const auto& m : t2.monthly) // a side not costed is left empty
            monthly.row(
                {static_cast<double>(m.month),
                 t2.has_cloud ? Builder::Cell(m.cloud_usd) : Builder::Cell(std::string()),
                 t2.has_onprem ? Builder::Cell(m.onprem_usd) : Builder::Cell(std::string())});
        out.push_back(std::move(monthly.t));
    }

    // The job mix on the cluster (issue 23), when the design has one.
    if (ev.fleet) {
        const FleetResult& fr = *ev.fleet;
        KeyValue fk("fleet", "The job mix on this cluster (fleet simulation)");
        fk.add("Utilization", fr.utilization, "fraction", RF::percent);
        if (fr.utilization_ci95 > 0) // another seed's run: batch means over ten stretches
            fk.text("Utilization, 95 % interval",
                    "+/- " + units::format_fixed(fr.utilization_ci95 * 100, 1) +
                        " points (another seed over the same days)");
        fk.add("Jobs completed", static_cast<double>(fr.jobs_completed), "jobs", RF::count);
        fk.add("Jobs still waiting at the end", static_cast<double>(fr.jobs_waiting_at_end), "jobs",
               RF::count);
        fk.add("Idle while no waiting job fit (fragmentation)", fr.fragmentation_fraction,
               "fraction", RF::percent);
        if (fr.held_back_fraction >= 0.0005)
            fk.add("Idle while a job that fit waited (queue head, quota)", fr.held_back_fraction,
                   "fraction", RF::percent);
        fk.add("GPU-hours used", fr.gpu_hours_used, "GPU-hours", RF::count);
        if (fr.multi_node_runs > 0) {
            fk.add("Multi-node runs", static_cast<double>(fr.multi_node_runs), "runs", RF::count);
            fk.add("Split over more leaf switches than needed",
                   static_cast<double>(fr.multi_node_runs_split), "runs", RF::count);
            fk.add("Nodes per leaf switch", static_cast<double>(fr.nodes_per_leaf), "nodes",
                   RF::count);
            if (fr.split_gpu_hours > 0)
                fk.add("GPU-hours split runs took longer", fr.split_gpu_hours, "GPU-hours",
                       RF::count);
        }
        if (fr.mig_instances > 0) {
            fk.text("MIG partition", fr.mig_profile);
            fk.add("MIG instances", static_cast<double>(fr.mig_instances), "instances", RF::count);
            fk.add("MIG instances busy", fr.mig_utilization, "fraction", RF::percent);
        }
        if (fr.timeslice_nodes > 0) {
            // Time-slicing: allocated (a GPU holding any job) vs busy, and the slowdown.
            fk.add("GPUs held by jobs (allocated)", fr.allocated_fraction, "fraction", RF::percent);
            fk.add("Time-sliced GPUs", static_cast<double>(fr.timeslice_gpus), "GPUs", RF::count);
            fk.add("Replicas per time-sliced GPU", static_cast<double>(fr.timeslice_replicas),
                   "replicas", RF::count);
            fk.add("Time-sliced GPUs busy", fr.timeslice_utilization, "fraction", RF::percent);
            fk.add("Time-sliced GPUs holding a job", fr.timeslice_allocated, "fraction",
                   RF::percent);
            fk.add("Jobs per time-sliced GPU in use (mean)", fr.timeslice_jobs_per_gpu, "jobs",
                   RF::ratio);
            fk.add("Time-sliced GPU throughput kept when shared", fr.timeslice_efficiency,
                   "fraction", RF::percent);
            fk.add("GPU-hours switching between jobs", fr.gpu_hours_switching, "GPU-hours",
                   RF::count);
            for (const auto& k : fr.classes)
                if (k.time_sliced && k.slowdown > 0)
                    fk.add(k.name + ": run time on a shared GPU / alone", k.slowdown, "times",
                           RF::ratio);
            for (const auto& k : fr.classes)
                if (k.time_sliced && k.gpu_memory_bytes > 0) {
                    fk.add(k.name + ": GPU memory per job", k.gpu_memory_bytes, "bytes", RF::bytes);
                    fk.add(k.name + ": jobs per GPU at most", k.jobs_per_gpu_at_most, "jobs",
                           RF::count);
                }
        }
        if (fr.preemptions > 0) {
            fk.add("Evictions for higher priority", static_cast<double>(fr.preemptions), "jobs",
                   RF::count);
            fk.add("GPU-hours lost to evictions", fr.gpu_hours_lost_preemption, "GPU-hours",
                   RF::count);
        }
        if (fr.node_failures > 0) {
            fk.add("Node failures", static_cast<double>(fr.node_failures), "nodes", RF::count);
            fk.add("Out for repair", fr.down_fraction, "fraction", RF::percent);
            fk.add("Jobs stopped by failures", static_cast<double>(fr.interruptions), "jobs",
                   RF::count);
            fk.add("GPU-hours lost to failures", fr.gpu_hours_lost_failures, "GPU-hours",
                   RF::count);
        }
        if (fr.gpu_hours_lost_failures + fr.gpu_hours_lost_preemption + fr.gpu_hours_switching > 0)
            fk.add(fr.gpu_hours_switching > 0
                       ? "Useful work (busy less lost work, restarts and switching)"
                       : "Useful work (busy less lost work and restarts)",
                   fr.useful_fraction, "fraction", RF::percent);
        if (fr.jobs_burst > 0) {
            fk.add("Jobs burst to the cloud", static_cast<double>(fr.jobs_burst), "jobs",
                   RF::count);
            fk.text("Burst capacity", fr.burst_on_spot ? "spot" : "on demand");
            fk.add("GPU-hours in the cloud", fr.burst_gpu_hours, "GPU-hours", RF::count);
            if (fr.burst_on_spot)
                fk.add("GPU-hours redone after spot preemptions", fr.burst_gpu_hours_redone,
                       "GPU-hours", RF::count);
            if (fr.burst_usd_per_gpu_hour > 0) {
                fk.add("Burst price", fr.burst_usd_per_gpu_hour, "USD/GPU-hour", RF::usd_rate);
                fk.add("Cloud bill of the bursts", fr.burst_usd, "USD", RF::usd);
                if (fr.burst_usd_tco_months > 0)
                    fk.add("Bursts at that rate over the cost horizon", fr.burst_usd_tco_months,
                           "USD", RF::usd);
            } else {
                fk.text("Cloud bill of the bursts",
                        "not priced" +
                            (fr.burst_unpriced.empty() ? std::string() : ": " + fr.burst_unpriced));
            }
        }
        if (fr.useful_gpu_hour_usd > 0)
            fk.add("Cost per useful GPU-hour", fr.useful_gpu_hour_usd, "USD/GPU-hour",
                   RF::usd_rate);
        out.push_back(std::move(fk.t));
        Builder waits("fleet_classes", "Queue waits by job class",
                      {{"class", "Class", "", RF::text},
                       {"jobs_completed", "Jobs completed", "jobs", RF::count},
                       {"wait_mean_s", "Mean wait", "s", RF::seconds},
                       {"wait_p50_s", "Median wait", "s", RF::seconds},
                       {"wait_p95_s", "95th percentile", "s", RF::seconds}});
        for (const auto& k : fr.classes) {
            // No job of the class started after the warm-up: no wait to report (not 0 s).
            const auto wait = [&](double v) {
                return k.waits_counted > 0 ? Builder::Cell(v) : Builder::Cell("none started");
            };
            waits.row({k.name, static_cast<double>(k.jobs_completed), wait(k.wait_mean_s),
                       wait(k.wait_p50_s), wait(k.wait_p95_s)});
        }
        out.push_back(std::move(waits.t));
        // Team quotas (issue 23), when any class has one.
        bool quotas = false;
        for (const auto& k : fr.classes)
            quotas = quotas || k.quota > 0;
        if (quotas) {
            // Borrowing (a Kueue cohort): GPUs held beyond the quota and jobs evicted to give
            // lent GPUs back, when the design lets teams borrow.
            const bool cohort = d.fleet.quota_borrowing;
            std::vector<Builder::Col> cols = {
                {"class", "Class", "", RF::text},
                {"quota_gpus", "Quota", "GPUs", RF::count},
                {"mean_gpus_held", "GPUs held (mean)", "GPUs", RF::count},
                {"at_quota_fraction", "Time at the quota", "fraction", RF::percent}};
            if (cohort) {
                // Kueue's borrowingLimit and lendingLimit, as the design states them.
                cols.push_back({"borrow_cap_gpus", "Most with borrowing", "GPUs", RF::count});
                cols.push_back({"keep_gpus", "Quota never lent", "GPUs", RF::count});
                cols.push_back({"mean_gpus_borrowed", "GPUs borrowed (mean)", "GPUs", RF::number});
                cols.push_back({"reclaimed", "Jobs evicted to give GPUs back", "", RF::count});
            }
            Builder q("fleet_quotas",
                      cohort ? "Team quotas (teams borrow unused quota)" : "Team quotas", cols);
            for (const auto& k : fr.classes)
                if (k.quota > 0) {
                    std::vector<Builder::Cell> row = {k.name, static_cast<double>(k.quota),
                                                      k.mean_held, k.at_quota_fraction};
                    if (cohort) {
                        row.push_back(k.borrow_cap > 0
                                          ? Builder::Cell(static_cast<double>(k.borrow_cap))
                                          : Builder::Cell("no cap"));
                        row.push_back(static_cast<double>(k.keep));
                        row.push_back(k.mean_borrowed);
                        row.push_back(static_cast<double>(k.reclaimed));
                    }
                    q.row(row);
                }
            out.push_back(std::move(q.t));
        }
    }

    if (with_sensitivity)
        if (ReportTable st =
                sensitivity_table(sensitivity(d, c, SensitivityOutput::onprem_minus_cloud_usd));
            !st.rows.empty())
            out.push_back(std::move(st));
    Builder as("assumptions", "Assumptions and sources (changed inputs first)",
               {{"group", "Group", "", RF::text},
                {"name", "Input", "", RF::text},
                {"value", "Value", "", RF::text},
                {"unit", "Unit", "", RF::text},
                {"source", "Source", "", RF::text}});
    for (const auto& a : assumptions(d, &ev, &c)) {
        as.t.rows.push_back({a.group, a.name, a.value, a.unit, a.source});
        // The CSV keeps the key ("training"); people read "Training" (helper-6).
        std::string group = a.group;
        if (!group.empty())
            group[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(group[0])));
        as.t.display.push_back({std::move(group), a.name, a.shown, "",
                                a.shown_source.empty() ? a.source : a.shown_source});
    }
    out.push_back(std::move(as.t));

    Builder ex("explanations", "How the key numbers are computed",
               {{"subject", "Subject", "", RF::text},
                {"number", "Number", "", RF::text},
                {"value", "Value", "", RF::text},
                {"formula", "Formula", "", RF::text},
                {"inputs", "Inputs", "", RF::text}});
    for (const auto& e : explain(d, ev, c)) {
        std::string inputs;
        for (const auto& in : e.inputs)
            inputs +=
                (inputs.empty() ? "" : "; ") + in.name + " = " + in.value + " [" + in.source + "]";
        ex.t.rows.push_back({e.subject, e.title, e.value, e.formula, inputs});
        ex.t.display.push_back(ex.t.rows.back());
    }
    out.push_back(std::move(ex.t));
    return out;
}

ReportSummary report_summary(const Design& d, const Evaluation& ev, const Catalog& c) {
    ReportSummary s;
    // A number and its band in brackets; what the brackets are is said once per workload (the
    // page-1 summary said "the model's error band" on every line: helper-6 found page 1 too
    // full for the design's picture).
    bool bands_shown = false;
    const auto banded = [&bands_shown](const WorkloadEvaluation& w, double v, Scales sc, RF fmt) {
        std::string out = report_human(v, fmt);
        if (w.band) {
            const auto [lo, hi] = band_range(v, *w.band, sc);
            out += " (" + report_human(lo, fmt) + " to " + report_human(hi, fmt) + ")";
            bands_shown = true;
        }
        return out;
    };
    for (const auto& w : ev.workloads) {
        ReportSummary::Item it;
        bands_shown = false;
        it.heading = w.name.empty() ? w.id : w.name;
        const ModelArch* m = find_model(d, c, w.model);
        const GpuSpec* g = c.gpu(w.gpu);
        const std::string model = m ? m->name : w.model;
        const std::string gpus = units::format_count(w.gpus) + " " +
                                 (g               ? g->name
                                  : w.gpu.empty() ? "GPUs"
                                                  : w.gpu);
        const Workload* spec = d.workload(w.id);
        if (w.kind == WorkloadKind::training) {
            it.asked = "Train " + model + " on " + gpus;
            if (spec) {
                const auto& t = spec->training;
                it.asked += ": global batch " +
                            units::format_count(static_cast<double>(t.global_batch)) +
                            " sequences of " + units::format_count(t.seq) + " tokens";
                if (t.tokens > 0)
                    it.asked += ", " + units::format_tokens(t.tokens) + " in all";
            }
        } else {
            it.asked = "Serve " + model + " on " + gpus;
            if (spec)
                it.asked += ": " + units::format_count(spec->inference.input_len) + " input and " +
                            units::format_count(spec->inference.output_len) +
                            " output tokens per request";
        }
        // How it runs: the layout and the choices that change the numbers (helper-22: the PDF
        // never said LoRA, ZeRO 3, the TP/CP found by the search, the draft model or
        // disaggregated serving).
        const auto label = [](auto e) { return choice_label(std::string(to_string(e))); };
        if (spec && w.kind == WorkloadKind::training) {
            const auto& t = spec->training;
            const double dp = static_cast<double>(t.tp * t.pp * t.cp) > 0
                                  ? w.gpus / static_cast<double>(t.tp * t.pp * t.cp)
                                  : 0;
            std::string how = "Layout: TP " + std::to_string(t.tp) + ", PP " +
                              std::to_string(t.pp) + ", CP " + std::to_string(t.cp);
            if (t.ep > 1)
                how += ", EP " + std::to_string(t.ep);
            how += ", DP " + units::format_count(dp);
            if (w.training)
                how += "; micro-batch " + std::to_string(w.training->micro_batch);
            how += "; ZeRO " + std::to_string(t.zero) +
                   (t.zero == 0 ? " (no sharding)" : std::string()) + "; recomputation " +
                   [](std::string l) { // mid-sentence: "recomputation none" (helper-16)
                       if (!l.empty() && l[0] >= 'A' && l[0] <= 'Z')
                           l[0] = static_cast<char>(l[0] - 'A' + 'a');
                       return l;
                   }(label(t.recompute));
            if (t.finetune != Finetune::full)
                how += "; " + label(t.finetune) + " (rank " + std::to_string(t.lora_rank) + ")";
            if (t.offload != Offload::none)
                how += "; " + label(t.offload);
            it.lines.push_back(how);
        } else if (spec) {
            const auto& in = spec->inference;
            std::string how = "Serving: TP " + std::to_string(in.tp) +
                              (in.pp > 1 ? ", PP " + std::to_string(in.pp) : std::string()) +
                              "; weights " + label(in.weights_dtype) + ", KV cache " +
                              label(in.kv_dtype) + "; " + label(in.engine) + ", " +
                              label(in.batching) + " batching, " + label(in.mode);
            // What of attention NVFP4 leaves in 16 bits (session 45: the checkpoint's, or the
            // workload's choice).
            if (const ModelArch* mm = in.weights_dtype == WeightsDtype::fp4
                                          ? find_model(d, c, spec->model)
                                          : nullptr) {
                const Fp4Attention fa = fp4_attention_of(*mm, in);
                how += std::string(mm->fp4_format == Fp4Format::mxfp4 ? "; MXFP4" : "; NVFP4") +
                       " checkpoint (" +
                       units::format_g(weight_bits(WeightsDtype::fp4, mm->fp4_format), 3) +
                       " bits a weight)";
                if (fa == Fp4Attention::bf16)
                    how += "; attention projections in 16 bits";
                else if (fa == Fp4Attention::bf16_except_output)
                    how += "; attention projections but the output projection in 16 bits";
            }
            if (const ModelArch* dm = find_model(d, c, in.speculative_draft))
                how += "; speculative decoding with " + dm->name + " (" +
                       std::to_string(in.speculative_k) + " draft tokens, acceptance " +
                       report_human(in.acceptance, RF::percent) + ")";
            it.lines.push_back(how);
            if (w.inference && w.inference->gpus_needed > 0)
                it.lines.push_back(
                    "GPUs needed for " + report_human(in.request_rate, RF::number) +
                    " requests/s within the SLOs: " +
                    units::format_count(w.inference->gpus_needed) +
                    (w.inference->prefill_replicas_needed > 0
                         ? " (" + units::format_count(w.inference->replicas_needed) +
                               " decode and " +
                               units::format_count(w.inference->prefill_replicas_needed) +
                               " prefill replicas)"
                         // Why not the fewest that carry the rate (helper-12: 22 replicas of
                         // 22.9 requests/s each carry 500/s, and 23 were asked for).
                         : " (" + units::format_count(w.inference->replicas_needed) +
                               " replicas, each " +
                               report_human(w.inference->utilization, RF::percent) +
                               " busy; fewer would queue requests past the TTFT SLO)"));
        }
        if (!w.error.empty()) {
            it.ok = false;
            it.verdict = "Not computed: " + w.error;
        } else if (w.has_memory) {
            it.ok = w.memory.fits;
            // A serving engine may fill only part of the card and sizes its KV cache to what
            // is left: said as the Memory chart says it (helper-9: "167.4 GB of 167.4 GB").
            std::string capacity = report_human(w.memory.capacity_bytes, RF::bytes);
            if (w.inference_memory && w.inference_memory->capacity_bytes > 0 &&
                w.inference_memory->usable_bytes < w.inference_memory->capacity_bytes * 0.999)
                capacity = "the " + report_human(w.inference_memory->usable_bytes, RF::bytes) +
                           " the engine may fill (of a " +
                           report_human(w.inference_memory->capacity_bytes, RF::bytes) + " card)";
            it.verdict = (w.memory.fits ? "Fits: " : "Does not fit: ") +
                         report_human(w.memory.per_gpu.total(), RF::bytes) + " of " + capacity +
                         " on the most loaded GPU";
            if (w.memory.fits && w.memory.per_gpu.kv_cache > 0)
                it.verdict +=
                    ", " + report_human(w.memory.per_gpu.kv_cache, RF::bytes) + " of it KV cache";
            if (!w.memory.fits && !w.memory.explanation.empty()) {
                // The parts, not the verdict again (helper-6: "Does not fit: 166.2 GB of 80.0 GB
                // ... (does not fit: model states ... = 166.2 GB of 80.0 GB per GPU)").
                // The training explanation leads with its total and puts the parts in brackets
                // ("does not fit: 166.2 GB of 80.0 GB per GPU (model states ...)"): the parts.
                std::string why = w.memory.explanation;
                if (why.rfind("does not fit: ", 0) == 0) {
                    why = why.substr(14);
                    if (const auto open = why.find(" ("); open != std::string::npos &&
                                                          why.back() == ')' &&
                                                          why.find(" per GPU") < open)
                        why = why.substr(open + 2, why.size() - open - 3);
                }
                it.verdict += ": " + why;
            }
        }
        if (w.training) {
            const auto& r = *w.training;
            it.lines.push_back("Step time: " +
                               banded(w, r.step_time_s, Scales::with_time, RF::seconds));
            it.lines.push_back("MFU: " + banded(w, r.mfu, Scales::with_speed, RF::percent));
            if (r.time_to_train_s > 0) {
                it.lines.push_back("Time to train: " +
                                   banded(w, r.time_to_train_s, Scales::with_time, RF::seconds));
                it.lines.push_back("GPU-hours: " + report_human(r.gpu_hours, RF::hours));
            }
            if (r.cost_usd > 0)
                it.lines.push_back("Cost at the cloud rate: " +
                                   banded(w, r.cost_usd, Scales::with_time, RF::usd));
        }
        if (w.inference) {
            const auto& r = *w.inference;
            // Per replica, and said so (helper-6: a GB200 rack's 23,374 read as the rack's, but
            // one replica of 8 GPUs serves it).
            const int replica_gpus = spec ? spec->inference.tp * spec->inference.pp : 0;
            it.lines.push_back((replica_gpus > 0 ? "Output tokens per second, one replica of " +
                                                       units::format_count(replica_gpus) +
                                                       (replica_gpus == 1 ? " GPU: " : " GPUs: ")
                                                 : std::string("Output tokens per second: ")) +
                               banded(w, r.output_tokens_per_s, Scales::with_speed, RF::count));
            it.lines.push_back("Time to first token " + report_human(r.ttft_s, RF::seconds) +
                               ", time per output token " + report_human(r.tpot_s, RF::seconds));
            if (r.usd_per_million_output_tokens > 0)
                it.lines.push_back(
                    "Cost per million output tokens: " +
                    banded(w, r.usd_per_million_output_tokens, Scales::with_time, RF::usd_rate));
            if (w.onprem_usd_per_million_output_tokens > 0)
                it.lines.push_back(
                    "Owning the GPUs instead: " +
                    report_human(w.onprem_usd_per_million_output_tokens, RF::usd_rate) +
                    " per million output tokens (the amortized on-prem GPU-hour)");
        }
        if (w.reliability) {
            const auto& r = *w.reliability;
            it.lines.push_back("Goodput " + report_human(r.goodput, RF::percent) +
                               " with a failure every " + report_human(r.job_mtbf_s, RF::seconds) +
                               " (job MTBF)");
        }
        if (bands_shown && w.band)
            it.lines.push_back("In brackets: the model's error band from held-out published "
                               "runs (the Error bands table says which)");
        s.workloads.push_back(std::move(it));
    }
    const auto& t = ev.topology;
    const GpuSpec* tg = c.gpu(t.gpu);
    s.design.push_back(units::format_count(t.gpus) + " " +
                       (tg              ? tg->name
                        : t.gpu.empty() ? "GPUs"
                                        : t.gpu) +
                       // a workstation's card is in no node (helper-6: "in 0 nodes")
                       (t.nodes < 1 ? std::string()
                                    : " in " + units::format_count(t.nodes) +
                                          (t.nodes == 1 ? " node" : " nodes")) +
                       // no "0 switches": one server on its own NVLink has none (helper-6)
                       (t.switches == 0 ? std::string()
                                        : ", " + units::format_count(t.switches) +
                                              (t.switches == 1 ? " switch" : " switches")));
    if (ev.tco) {
        const auto& tc = *ev.tco;
        const std::string over = "Over " + std::to_string(d.economics.months) + " months: ";
        const std::string cloud = "cloud " + report_human(tc.cloud_usd, RF::usd) + " (" +
                                  report_human(tc.cloud_price_per_gpu_hour, RF::usd_rate) +
                                  " per GPU-hour)";
        // Staff defaults to none: the on-prem figure says it leaves them out (helper-6).
        const std::string onprem =
            "on-prem " + report_human(tc.onprem_usd, RF::usd) +
            (d.economics.staff_usd_per_year > 0 ? "" : " (no staff cost entered)");
        if (tc.has_cloud && tc.has_onprem) {
            s.design.push_back(over + onprem + ", " + cloud);
            s.design.push_back(tc.breakeven_months >= 0
                                   ? "Owning breaks even with renting in month " +
                                         std::to_string(tc.breakeven_months)
                                   : "Owning does not break even with renting within the horizon");
            // A cheaper way to rent the same GPUs changes the verdict a reader takes away
            // (helper-12: the 16k design broke even in month 34 against on-demand, never
            // against a 3-year commitment, and page 1 said only the first).
            const CloudOption* cheapest = nullptr;
            for (const auto& o : tc.cloud_options)
                if (o.commitment != tc.commitment && o.usd > 0 && o.usd < tc.cloud_usd * 0.999 &&
                    (!cheapest || o.usd < cheapest->usd))
                    cheapest = &o;
            if (cheapest)
                s.design.push_back(
                    "The cheapest way to rent: " + choice_label(to_string(cheapest->commitment)) +
                    ", " + report_human(cheapest->usd, RF::usd) + " over the horizon; against it " +
                    (cheapest->breakeven_months >= 0
                         ? "owning breaks even in month " +
                               std::to_string(cheapest->breakeven_months)
                         : std::string("owning does not break even within the horizon")));
        } else if (tc.has_onprem) { // issue 21: one side, and why not the other
            s.design.push_back(over + onprem + "; renting is not costed: " + tc.cloud_missing);
        } else {
            s.design.push_back(over + cloud + "; owning is not costed: " + tc.onprem_missing);
        }
        s.cost_sensitivity = sensitivity(d, c, SensitivityOutput::onprem_minus_cloud_usd);
        const auto& sens = s.cost_sensitivity;
        if (sens.error.empty())
            for (std::size_t i = 0; i < sens.bars.size() && i < 3; ++i) {
                const auto& b = sens.bars[i];
                // In words, not signed amounts (helper-24: "on-prem minus cloud -$860,928"
                // broke after the minus sign in the PDF, and a sign is easy to misread).
                const auto vs_renting = [](double v) {
                    return report_human(std::fabs(v), RF::usd) + (v < 0 ? " less" : " more");
                };
                s.sensitivity.push_back(b.input + " " + report_value(b.low_value, b.unit) + " to " +
                                        report_value(b.high_value, b.unit) + ": owning costs " +
                                        vs_renting(b.output_low) + " to " +
                                        vs_renting(b.output_high) + " than renting");
            }
    }
    return s;
}

std::string table_to_csv(const ReportTable& t) {
    std::string s = csv_line(t.header);
    for (const auto& r : t.rows)
        s += csv_line(r);
    return s;
}

ReportTable comparison_table(const std::vector<std::string>& names,
                             const std::vector<const Evaluation*>& evs) {
    ReportTable t;
    t.id = "comparison";
    t.title = "Designs compared";
    const std::size_t n = std::min(names.size(), evs.size());
    t.header = {"metric", "unit"};
    t.labels = {"Number", "Unit"};
    t.units = {"", ""};
    for (std::size_t i = 0; i < n; ++i) {
        t.header.push_back("design_" + std::to_string(i + 1));
        t.labels.push_back(names[i]);
        t.units.emplace_back();
    }
    for (std::size_t i = 1; i < n; ++i) {
        t.header.push_back("change_" + std::to_string(i + 1));
        // Which way the change reads (helper-24: "change, H100" with -43 % read as H100's own
        // change): this design relative to the first one.
        t.labels.push_back("Change, " + names[i] + " vs " + names[0]);
        t.units.emplace_back("fraction");
    }
    if (n == 0)
        return t;
    const auto rows = compare_designs({evs.begin(), evs.begin() + static_cast<std::ptrdiff_t>(n)});
    for (const auto& r : rows) {
        std::vector<std::string> csv{r.metric, r.unit}, shown{r.metric, ""};
        if (!r.texts.empty()) { // words (the GPU type): "same" or "changed" as the change
            for (std::size_t i = 0; i < n; ++i) {
                csv.push_back(r.texts[i]);
                shown.push_back(r.texts[i]);
            }
            for (std::size_t i = 1; i < n; ++i) {
                csv.emplace_back();
                shown.emplace_back(r.texts[i] == r.texts[0] ? "same" : "changed");
            }
            t.rows.push_back(std::move(csv));
            t.display.push_back(std::move(shown));
            continue;
        }
        for (std::size_t i = 0; i < n; ++i) {
            const auto& v = r.values[i];
            csv.push_back(v ? csv_number(*v) : "");
            // Whole counts (GPUs, racks) as counts: "1,024", not "1024" or "1.02 k".
            shown.push_back(!v ? std::string("–")
                            : r.unit.empty() && *v == std::round(*v)
                                ? report_human(*v, ReportFormat::count)
                                : report_value(*v, r.unit));
        }
        for (std::size_t i = 1; i < n; ++i) {
            const auto& a = r.values[0];
            const auto& b = r.values[i];
            if (!a || !b || *a == 0) {
                csv.emplace_back();
                shown.emplace_back("–");
                continue;
            }
            const double ch = *b / *a - 1;
            csv.push_back(csv_number(ch));
            std::string text = (ch >= 0 ? "+" : "") + report_human(ch, ReportFormat::percent);
            if (r.within_model_error[i])
                text += ", within the model's error";
            shown.push_back(text);
        }
        t.rows.push_back(std::move(csv));
        t.display.push_back(std::move(shown));
    }
    return t;
}

std::string tables_to_csv(const std::vector<ReportTable>& tables) {
    std::size_t width = 0;
    for (const auto& t : tables)
        width = std::max(width, t.header.size());
    std::vector<std::string> head{"table", "row_kind"};
    for (std::size_t i = 0; i < width; ++i)
        head.push_back("c" + std::to_string(i + 1));
    std::string s = csv_line(head);
    for (const auto& t : tables) {
        std::vector<std::string> h{t.id, "header"};
        h.insert(h.end(), t.header.begin(), t.header.end());
        s += csv_line(h);
        // Each column's unit (SI: bytes, s, B/s, FLOP/s, USD; "fraction" for shares).
        if (!t.units.empty()) {
            std::vector<std::string> u{t.id, "unit"};
            u.insert(u.end(), t.units.begin(), t.units.end());
            s += csv_line(u);
        }
        for (const auto& r : t.rows) {
            std::vector<std::string> line{t.id, "row"};
            line.insert(line.end(), r.begin(), r.end());
            s += csv_line(line);
        }
    }
    return s;
}

} // namespace cl::model
