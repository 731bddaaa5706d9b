#include "model/report.h"

#include "model/explain.h"
#include "model/units.h"

#include <charconv>
#include <cmath>
#include <string_view>
#include <system_error>

namespace cl::model {

namespace {

std::string f(double v, int prec = 4) {
    return units::format_g(v, prec);
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

std::vector<ReportTable> report_tables(const Design& d, const Evaluation& ev, const Catalog& c) {
    std::vector<ReportTable> out;
    const auto& t = ev.topology;
    ReportTable topo{"topology", "Cluster", {"quantity", "value", "unit"}, {}};
    topo.rows = {{"GPUs", f(t.gpus, 10), ""},
                 {"GPU type", t.gpu, ""},
                 {"nodes", f(t.nodes, 10), ""},
                 {"switches", f(t.switches, 10), ""},
                 {"total HBM", f(t.hbm_bytes), "bytes"},
                 {"peak BF16 (dense)", f(t.peak_bf16_flops), "FLOP/s"},
                 {"scale-up domain", std::to_string(t.scaleup_domain_size), "GPUs"},
                 {"scale-up per GPU", f(ev.fabric.scaleup_Bps_per_gpu), "B/s"},
                 {"scale-out per GPU", f(ev.fabric.scaleout_Bps_per_gpu), "B/s"},
                 {"bisection (one way)", f(ev.fabric.bisection_Bps), "B/s"},
                 {"oversubscription", f(ev.fabric.oversubscription), ":1"}};
    for (const auto& st : ev.fabric.tiers)
        topo.rows.push_back({st.name + " tier",
                             f(st.switches, 10) + " switches, " + f(st.oversubscription) + ":1",
                             ""});
    for (const auto& w : t.warnings)
        topo.rows.push_back({"warning", w, ""});
    out.push_back(std::move(topo));

    if (ev.tco) {
        const auto& inv = ev.tco->inventory;
        const auto& b = ev.tco->onprem_breakdown;
        out.push_back({"bill_of_materials",
                       "Bill of materials",
                       {"item", "count", "usd"},
                       {{"servers", f(inv.servers, 10), f(b.servers, 10)},
                        {"switches", f(inv.switches, 10), f(inv.switch_capex_usd, 10)},
                        {"cables with optics", f(inv.cables, 10), f(inv.cable_capex_usd, 10)},
                        {"NICs (in server price)", f(inv.nics, 10), "0"},
                        {"storage", "", f(b.storage, 10)},
                        {"IT power (kW, nameplate)", f(ev.tco->it_power_peak_kw, 6), ""},
                        {"racks", f(ev.tco->racks, 10), ""}}});
    }

    ReportTable mem{"memory",
                    "Memory per GPU (worst stage)",
                    {"workload", "weights", "gradients", "optimizer", "activations", "kv_cache",
                     "other", "total", "capacity", "fits"},
                    {}};
    ReportTable tr{"training",
                   "Training",
                   {"workload", "step_time_s", "tokens_per_s", "mfu", "hfu", "compute_s",
                    "recompute_s", "tp_comm_s", "cp_comm_s", "ep_comm_s", "pp_comm_s", "dp_comm_s",
                    "optimizer_s", "bubble_s", "time_to_train_s", "gpu_hours", "cost_usd"},
                   {}};
    ReportTable inf{"inference",
                    "Serving",
                    {"workload", "ttft_s", "tpot_s", "batch", "output_tokens_per_s",
                     "output_tokens_per_s_per_gpu", "usd_per_million_output_tokens",
                     "usd_per_million_input_tokens", "gpus_needed"},
                    {}};
    ReportTable rel{"reliability",
                    "Reliability",
                    {"workload", "job_mtbf_h", "interruptions_per_day", "checkpoint_bytes",
                     "checkpoint_write_s", "young_interval_s", "daly_interval_s", "goodput",
                     "lost_gpu_hours", "lost_usd", "spare_nodes"},
                    {}};
    for (const auto& w : ev.workloads) {
        if (w.has_memory) {
            const auto& b = w.memory.per_gpu;
            mem.rows.push_back({w.name, f(b.weights), f(b.gradients), f(b.optimizer),
                                f(b.activations), f(b.kv_cache), f(b.other), f(b.total()),
                                f(w.memory.capacity_bytes), w.memory.fits ? "yes" : "no"});
        }
        if (w.training) {
            const auto& r = *w.training;
            const auto& bd = r.breakdown;
            tr.rows.push_back({w.name, f(r.step_time_s), f(r.tokens_per_s), f(r.mfu), f(r.hfu),
                               f(bd.compute), f(bd.recompute), f(bd.tp_comm), f(bd.cp_comm),
                               f(bd.ep_comm), f(bd.pp_comm), f(bd.dp_comm), f(bd.optimizer),
                               f(bd.bubble), f(r.time_to_train_s), f(r.gpu_hours), f(r.cost_usd)});
        }
        if (w.inference) {
            const auto& r = *w.inference;
            inf.rows.push_back({w.name, f(r.ttft_s), f(r.tpot_s), std::to_string(r.batch),
                                f(r.output_tokens_per_s), f(r.output_tokens_per_s_per_gpu),
                                f(r.usd_per_million_output_tokens),
                                f(r.usd_per_million_input_tokens), f(r.gpus_needed)});
        }
        if (w.reliability) {
            const auto& r = *w.reliability;
            rel.rows.push_back({w.name, f(r.job_mtbf_s / 3600), f(r.expected_interruptions_per_day),
                                f(r.checkpoint_bytes), f(r.checkpoint_write_s),
                                f(r.young_interval_s), f(r.optimal_checkpoint_interval_s),
                                f(r.goodput), f(r.lost_gpu_hours), f(r.lost_usd),
                                f(r.spare_nodes)});
        }
    }
    // Issue 19: how far to trust each headline number (uncertainty.h), one row per number.
    ReportTable bands{"error_bands",
                      "How far to trust the numbers (the model's error bands)",
                      {"workload", "quantity", "value", "low", "high", "unit", "rows",
                       "held_out_median_error", "basis"},
                      {}};
    for (const auto& w : ev.workloads) {
        if (!w.band)
            continue;
        const auto row = [&](const char* key, double v, Scales s, const char* unit) {
            const auto [lo, hi] = band_range(v, *w.band, s);
            bands.rows.push_back({w.name, key, f(v), f(lo), f(hi), unit,
                                  std::to_string(w.band->rows), f(w.band->median_abs_error),
                                  w.band->basis});
        };
        if (w.training) {
            const auto& r = *w.training;
            row("step_time_s", r.step_time_s, Scales::with_time, "s");
            row("tokens_per_s", r.tokens_per_s, Scales::with_speed, "tokens/s");
            row("mfu", r.mfu, Scales::with_speed, "fraction");
            if (r.time_to_train_s > 0)
                row("time_to_train_s", r.time_to_train_s, Scales::with_time, "s");
            if (r.cost_usd > 0)
                row("cost_usd", r.cost_usd, Scales::with_time, "USD");
        }
        if (w.inference) {
            const auto& r = *w.inference;
            row("ttft_s", r.ttft_s, Scales::with_time, "s");
            row("tpot_s", r.tpot_s, Scales::with_time, "s");
            row("output_tokens_per_s", r.output_tokens_per_s, Scales::with_speed, "tokens/s");
            if (r.usd_per_million_output_tokens > 0)
                row("usd_per_million_output_tokens", r.usd_per_million_output_tokens,
                    Scales::with_time, "USD");
        }
    }
    for (auto* tab : {&mem, &tr, &inf, &bands, &rel})
        if (!tab->rows.empty())
            out.push_back(std::move(*tab));

    if (ev.tco) {
        const auto& t2 = *ev.tco;
        const auto& b = t2.onprem_breakdown;
        out.push_back(
            {"tco",
             "Cost over the horizon",
             {"quantity", "value", "unit"},
             {{"cloud", f(t2.cloud_usd, 10), "USD"},
              {"on-prem", f(t2.onprem_usd, 10), "USD"},
              {"on-prem servers", f(b.servers, 10), "USD"},
              {"on-prem network", f(b.network, 10), "USD"},
              {"on-prem storage", f(b.storage, 10), "USD"},
              {"on-prem power", f(b.power, 10), "USD"},
              {"on-prem facility", f(b.facility, 10), "USD"},
              {"on-prem staff", f(b.staff, 10), "USD"},
              {"on-prem maintenance", f(b.maintenance, 10), "USD"},
              {"break-even month",
               t2.breakeven_months >= 0 ? std::to_string(t2.breakeven_months) : "never", ""},
              {"break-even utilization",
               t2.breakeven_utilization >= 0 ? f(t2.breakeven_utilization) : "-", "fraction"},
              {"cloud price", f(t2.cloud_price_per_gpu_hour), "USD/GPU-hour"},
              {"on-prem per GPU-hour used", f(t2.onprem_usd_per_gpu_hour), "USD/GPU-hour"},
              {"on-prem amortized", f(t2.amortized_usd_per_gpu_hour), "USD/GPU-hour"},
              {"facility power (average)", f(t2.power_kw), "kW"},
              {"energy", f(t2.energy_kwh), "kWh"},
              {"CO2", f(t2.co2_kg), "kg"}}});
        ReportTable monthly{
            "tco_monthly", "Cumulative cost by month", {"month", "cloud_usd", "onprem_usd"}, {}};
        for (const auto& m : t2.monthly)
            monthly.rows.push_back(
                {std::to_string(m.month), f(m.cloud_usd, 10), f(m.onprem_usd, 10)});
        out.push_back(std::move(monthly));
    }

    ReportTable as{
        "assumptions", "Assumptions and sources", {"group", "name", "value", "unit", "source"}, {}};
    for (const auto& a : assumptions(d))
        as.rows.push_back({a.group, a.name, a.value, a.unit, a.source});
    out.push_back(std::move(as));

    ReportTable ex{"explanations",
                   "How the key numbers are computed",
                   {"subject", "number", "value", "formula", "inputs"},
                   {}};
    for (const auto& e : explain(d, ev, c)) {
        std::string inputs;
        for (const auto& in : e.inputs)
            inputs +=
                (inputs.empty() ? "" : "; ") + in.name + " = " + in.value + " [" + in.source + "]";
        ex.rows.push_back({e.subject, e.title, e.value, e.formula, inputs});
    }
    out.push_back(std::move(ex));
    return out;
}

std::string table_to_csv(const ReportTable& t) {
    std::string s = csv_line(t.header);
    for (const auto& r : t.rows)
        s += csv_line(r);
    return s;
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
        for (const auto& r : t.rows) {
            std::vector<std::string> line{t.id, "row"};
            line.insert(line.end(), r.begin(), r.end());
            s += csv_line(line);
        }
    }
    return s;
}

} // namespace cl::model
