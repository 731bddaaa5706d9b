// clusterlens-cli tco and reliability (../shared/CLI.md "tco", "reliability").
#include "cli_common.h"

#include "model/reliability.h"
#include "model/tco.h"
#include "model/units.h"

namespace cl::cli {

using nlohmann::json;
namespace units = model::units;

json nullable(double v, bool valid) {
    return valid ? json(v) : json(nullptr);
}

json tco_json(const model::TcoResult& t) {
    const auto& b = t.onprem_breakdown;
    // Issue 21: a side that could not be costed is null, with its reason in *_missing.
    const bool c = t.has_cloud, o = t.has_onprem;
    json monthly = json::array();
    for (const auto& m : t.monthly)
        monthly.push_back({{"month", m.month},
                           {"cloud_usd", nullable(m.cloud_usd, c)},
                           {"onprem_usd", nullable(m.onprem_usd, o)}});
    json breakdown = nullptr;
    if (o)
        breakdown = {{"servers", b.servers},        {"network", b.network},
                     {"storage", b.storage},        {"power", b.power},
                     {"facility", b.facility},      {"staff", b.staff},
                     {"maintenance", b.maintenance}};
    return {
        {"cloud_usd", nullable(t.cloud_usd, c)},
        {"onprem_usd", nullable(t.onprem_usd, o)},
        {"cloud_missing", c ? json(nullptr) : json(t.cloud_missing)},
        {"onprem_missing", o ? json(nullptr) : json(t.onprem_missing)},
        {"breakeven_months", nullable(t.breakeven_months, t.breakeven_months >= 0)},
        {"breakeven_utilization", nullable(t.breakeven_utilization, t.breakeven_utilization >= 0)},
        {"onprem_usd_per_gpu_hour", nullable(t.onprem_usd_per_gpu_hour, o)},
        {"cloud_usd_per_gpu_hour", nullable(t.cloud_usd_per_gpu_hour, c)},
        {"amortized_usd_per_gpu_hour", nullable(t.amortized_usd_per_gpu_hour, o)},
        {"cloud_price_per_gpu_hour", nullable(t.cloud_price_per_gpu_hour, c)},
        {"cloud_price_source", t.cloud_price_source},
        {"power_kw", t.power_kw},
        {"it_power_peak_kw", t.it_power_peak_kw},
        {"racks", t.racks},
        {"servers_per_rack", t.servers_per_rack},
        {"energy_kwh", t.energy_kwh},
        {"co2_kg", t.co2_kg},
        {"max_gpus_under_cap", nullable(t.max_gpus_under_cap, t.max_gpus_under_cap >= 0)},
        {"capex_usd", nullable(t.capex_usd, o)},
        {"inventory",
         {{"gpus", t.inventory.gpus},
          {"servers", t.inventory.servers},
          {"switches", t.inventory.switches},
          {"cables", t.inventory.cables},
          {"notes", t.inventory.notes}}},
        {"onprem_breakdown_usd", std::move(breakdown)},
        {"monthly", std::move(monthly)}};
}

json reliability_json(const model::ReliabilityResult& r) {
    json curve = json::array();
    for (const auto& p : r.curve)
        curve.push_back({{"interval_s", p.interval_s}, {"goodput", p.goodput}});
    return {{"job_mtbf_s", r.job_mtbf_s},
            {"optimal_checkpoint_interval_s", r.optimal_checkpoint_interval_s},
            {"young_interval_s", r.young_interval_s},
            {"checkpoint_interval_s", r.interval_used_s},
            {"goodput", r.goodput},
            {"expected_interruptions_per_day", r.expected_interruptions_per_day},
            {"expected_interruptions", r.expected_interruptions},
            {"checkpoint_bytes", r.checkpoint_bytes},
            {"checkpoint_write_s", r.checkpoint_write_s},
            {"checkpoint_stall_s", r.checkpoint_stall_s},
            {"storage_Bps", r.storage_Bps},
            {"lost_gpu_hours", r.lost_gpu_hours},
            {"lost_usd", r.lost_usd},
            {"run_days", r.run_days},
            {"spare_nodes", r.spare_nodes},
            {"straggler_slowdown", r.straggler_slowdown},
            {"data_load_Bps", r.data_load_Bps},
            {"per_gpu_failures_per_day", r.per_gpu_failures_per_day},
            {"node_failures_per_1000_node_days", r.node_failures_per_1000_node_days},
            {"rate_source", r.rate_source},
            {"notes", r.notes},
            {"curve", std::move(curve)}};
}

void print_tco(const model::TcoResult& t, std::ostream& out) {
    Table s;
    s.header = {"cost over " + std::to_string(t.monthly.size() - 1) + " months", "value"};
    const bool both = t.has_cloud && t.has_onprem;
    // The reason, and the flag that supplies what is missing.
    const std::string cloud_no = "not costed: " + t.cloud_missing +
                                 " (--cloud-offer ID or --cloud-price-per-gpu-hour USD)",
                      onprem_no = "not costed: " + t.onprem_missing + " (--server-price USD)";
    s.rows = {{"cloud", t.has_cloud ? "$" + fmt(t.cloud_usd / 1e6, 2) + "M at $" +
                                          fmt(t.cloud_price_per_gpu_hour, 2) + "/GPU-h (" +
                                          t.cloud_price_source + ")"
                                    : cloud_no},
              {"on-prem", t.has_onprem ? "$" + fmt(t.onprem_usd / 1e6, 2) + "M (capex $" +
                                             fmt(t.capex_usd / 1e6, 2) + "M)"
                                       : onprem_no},
              {"break-even month", !both                     ? "-"
                                   : t.breakeven_months >= 0 ? std::to_string(t.breakeven_months)
                                                             : "never (in horizon)"},
              {"break-even utilization",
               t.breakeven_utilization >= 0 ? fmt(t.breakeven_utilization * 100, 0) + " %" : "-"},
              {"on-prem $/GPU-hour used", t.has_onprem ? fmt(t.onprem_usd_per_gpu_hour, 2) : "-"},
              {"on-prem $/GPU-hour (amortized)",
               t.has_onprem ? fmt(t.amortized_usd_per_gpu_hour, 2) : "-"},
              {"cloud $/GPU-hour used", t.has_cloud ? fmt(t.cloud_usd_per_gpu_hour, 2) : "-"},
              {"IT power (nameplate)", units::format_kw(t.it_power_peak_kw) + " kW"},
              {"facility power (average)", units::format_kw(t.power_kw) + " kW"},
              {"racks", fmt(t.racks, 0) + " (" + fmt(t.servers_per_rack, 0) + " servers each)"},
              {"energy", fmt(t.energy_kwh / 1e3, 0) + " MWh"},
              {"CO2", fmt(t.co2_kg / 1e3, 0) + " t"}};
    if (t.max_gpus_under_cap >= 0)
        s.rows.push_back({"GPUs under the power cap", fmt(t.max_gpus_under_cap, 0)});
    s.print(out);
    for (const auto& n : t.inventory.notes)
        out << "note: " << n << '\n';
    if (!t.has_onprem)
        return;
    const auto& b = t.onprem_breakdown;
    Table bd;
    bd.header = {"on-prem breakdown", "USD", "share"};
    const double tot = std::max(1.0, b.total());
    for (const auto& [k, v] :
         std::vector<std::pair<std::string, double>>{{"servers", b.servers},
                                                     {"network", b.network},
                                                     {"storage", b.storage},
                                                     {"power", b.power},
                                                     {"facility", b.facility},
                                                     {"staff", b.staff},
                                                     {"maintenance", b.maintenance}})
        bd.rows.push_back({k, "$" + fmt(v / 1e6, 2) + "M", fmt(v / tot * 100, 1) + " %"});
    out << '\n';
    bd.print(out);
}

int cmd_tco(Flags& f, std::ostream& out) {
    const model::Catalog cat = load_catalog(f);
    model::Economics e;
    const model::CloudOffer* offer = nullptr;
    if (const std::string id = f.get_string("--cloud-offer", "", "none"); !id.empty()) {
        offer = cat.cloud(id);
        if (!offer)
            throw UsageError{"--cloud-offer: unknown offer \"" + id + "\" (see `catalog cloud`)"};
        e.cloud_offer = id;
    }
    // Every other cost input of the schema: horizon, utilization, commitment, prices, power...
    e = f.read_settings(e);

    model::CostInventory inv;
    if (const std::string fab = f.get_string("--fabric", "", "none"); !fab.empty()) {
        inv = model::design_inventory(load_design_arg(fab, cat), cat);
        if (inv.gpus <= 0)
            throw UsageError{"--fabric: the design has no GPUs"};
    } else {
        const model::GpuSpec& gpu = resolve_gpu(f, cat);
        const double gpus = static_cast<double>(f.get_int("--gpus", 8, 1, 10000000));
        const int gpn =
            static_cast<int>(f.get_int("--gpus-per-node", 0, 1, 4096, "reference system"));
        auto r = model::gpu_inventory(gpu, cat, gpus, gpn);
        if (!r)
            throw UsageError{r.error_text()};
        inv = std::move(r).value();
    }
    // An offer that rents other GPUs does not price these (it billed B200s at an H100 rate).
    if (offer && e.price_per_gpu_hour <= 0 && !inv.gpu.empty() && offer->gpu != inv.gpu) {
        const model::GpuSpec* og = cat.gpu(offer->gpu);
        const model::GpuSpec* ig = cat.gpu(inv.gpu);
        throw UsageError{"--cloud-offer: " + offer->id + " rents " + (og ? og->name : offer->gpu) +
                         "; these GPUs are " + (ig ? ig->name : inv.gpu) +
                         ": choose an offer that rents them (see `catalog cloud`) or give "
                         "--cloud-price-per-gpu-hour"};
    }
    if (!offer && e.price_per_gpu_hour <= 0) {
        // Default cloud side: the cheapest on-demand offer for this GPU in the catalog.
        offer = model::default_cloud_offer(cat, inv.gpu, e.commitment);
        if (offer)
            f.record("--cloud-offer", offer->id,
                     std::string(e.commitment == model::Commitment::spot ? "cheapest spot"
                                                                         : "cheapest on-demand") +
                         " offer for " + inv.gpu);
    }
    auto t = model::compute_tco(inv, e, offer);
    if (!t)
        throw UsageError{t.error_text()};
    const double run_h = f.get_unset_or_positive("--run-gpu-hours", 1e12, "no run");
    const model::RunCost rc = model::run_cost(*t, e, run_h);
    if (f.has("--json")) {
        json j = envelope(f);
        j["tco"] = tco_json(*t);
        if (run_h > 0)
            j["tco"]["run"] = {{"gpu_hours", run_h},
                               {"cloud_usd", nullable(rc.cloud_usd, rc.has_cloud)},
                               {"onprem_usd", nullable(rc.onprem_usd, rc.has_onprem)},
                               {"energy_kwh", rc.energy_kwh},
                               {"co2_kg", rc.co2_kg}};
        print_json(out, j);
        return 0;
    }
    out << fmt(inv.gpus, 0) << " × " << inv.gpu << " in " << fmt(inv.servers, 0) << " servers, "
        << fmt(inv.switches, 0) << " switches, " << fmt(inv.cables, 0) << " cables; "
        << model::to_string(e.commitment) << " cloud, " << fmt(e.utilization * 100, 0)
        << " % utilization\n\n";
    print_tco(*t, out);
    if (run_h > 0)
        out << "\nrun of " << fmt(run_h, 0) << " GPU-hours: cloud "
            << (rc.has_cloud ? "$" + fmt(rc.cloud_usd / 1e6, 3) + "M" : std::string("not costed"))
            << ", on-prem "
            << (rc.has_onprem ? "$" + fmt(rc.onprem_usd / 1e6, 3) + "M" : std::string("not costed"))
            << ", " << fmt(rc.energy_kwh / 1e3, 1) << " MWh, " << fmt(rc.co2_kg / 1e3, 1)
            << " t CO2\n";
    return 0;
}

void print_reliability(const model::ReliabilityResult& r, std::ostream& out) {
    Table t;
    t.header = {"reliability", "value"};
    t.rows = {{"job MTBF", fmt(r.job_mtbf_s / 3600, 2) + " h"},
              {"interruptions per day", fmt(r.expected_interruptions_per_day, 2)},
              {"failure rate", fmt(r.node_failures_per_1000_node_days, 2) +
                                   " per 1,000 node-days (" + r.rate_source + ")"},
              {"checkpoint size", units::format_bytes(r.checkpoint_bytes)},
              {"storage bandwidth", units::format_si(r.storage_Bps, "B/s")},
              {"checkpoint write", fmt(r.checkpoint_write_s, 1) + " s"},
              {"training stall per checkpoint", fmt(r.checkpoint_stall_s, 1) + " s"},
              {"Young interval", fmt(r.young_interval_s / 60, 1) + " min"},
              {"optimal interval (Daly)", fmt(r.optimal_checkpoint_interval_s / 60, 1) + " min"},
              {"interval used", fmt(r.interval_used_s / 60, 1) + " min"},
              {"goodput", fmt(r.goodput * 100, 2) + " %"},
              {"run", fmt(r.run_days, 1) + " days, " + fmt(r.expected_interruptions, 0) +
                          " interruptions expected"},
              {"GPU-hours lost", fmt(r.lost_gpu_hours, 0)},
              {"$ lost", fmt(r.lost_usd, 0)},
              {"spare nodes (99 %)", fmt(r.spare_nodes, 0)},
              {"straggler slowdown", fmt((r.straggler_slowdown - 1) * 100, 2) + " %"}};
    if (r.data_load_Bps > 0)
        t.rows.push_back({"data loading", units::format_si(r.data_load_Bps, "B/s")});
    t.print(out);
    for (const auto& n : r.notes)
        out << "note: " << n << '\n';
}

int cmd_reliability(Flags& f, std::ostream& out) {
    const model::Catalog cat = load_catalog(f);
    model::ReliabilityInputs in;
    in.run_days = 30; // no training run to take the length from (a design's 0)
    in = f.read_settings(in);
    model::ReliabilityContext ctx;
    ctx.gpus = static_cast<double>(f.get_int("--gpus", 8, 1, 100000000));
    ctx.gpus_per_node = static_cast<int>(f.get_int("--gpus-per-node", 8, 1, 4096));
    ctx.price_per_gpu_hour =
        f.get_unset_or_positive("--price-per-gpu-hour", 1e6, "no dollar figure for lost work");
    // A model (or any architecture flag: never silently ignored) sizes the checkpoint.
    bool arch = false;
    for (const char* k : {"--model",       "--layers",          "--hidden",       "--heads",
                          "--kv-heads",    "--head-dim",        "--ffn",          "--vocab",
                          "--mlp",         "--tied-embeddings", "--experts",      "--top-k",
                          "--moe-ffn",     "--shared-experts",  "--dense-layers", "--kv-lora-rank",
                          "--q-lora-rank", "--dtype",           "--optimizer",    "--finetune",
                          "--lora-rank"})
        arch = arch || f.has(k);
    for (const char* k : {"--router-groups", "--router-group-top-k", "--mtp-layers"})
        arch = arch || f.has(k);
    if (arch) {
        const model::ModelArch m = resolve_model(f, cat);
        // The training settings the checkpoint depends on (dtype, optimizer, fine-tuning).
        const model::TrainingSpec t = f.read_settings(model::TrainingSpec{});
        ctx.checkpoint_bytes = model::checkpoint_bytes(m, t);
        f.record("checkpoint_bytes", ctx.checkpoint_bytes, "model × (weights + optimizer states)");
    }
    auto r = model::compute_reliability(in, ctx);
    if (!r)
        throw UsageError{r.error_text()};
    if (f.has("--json")) {
        json j = envelope(f);
        j["reliability"] = reliability_json(*r);
        print_json(out, j);
        return 0;
    }
    out << fmt(ctx.gpus, 0) << " GPUs in " << fmt(std::ceil(ctx.gpus / ctx.gpus_per_node), 0)
        << " nodes" << (in.async_checkpoint ? ", asynchronous checkpoints" : "") << "\n\n";
    print_reliability(*r, out);
    return 0;
}

} // namespace cl::cli
