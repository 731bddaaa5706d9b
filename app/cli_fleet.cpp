// clusterlens-cli fleet (issue 23): one class of whole-GPU jobs (Poisson arrivals, exponential
// durations) on a generated cluster, simulated by core/model/fleet; keys in ../shared/CLI.md.
#include "cli_common.h"

#include "model/catalog.h"
#include "model/fleet.h"
#include "model/units.h"

namespace cl::cli {

using nlohmann::json;
namespace units = model::units;

namespace {

std::string hours(double s) {
    return s < 60 ? fmt(s, 1) + " s" : s < 3600 ? fmt(s / 60, 1) + " min" : fmt(s / 3600, 2) + " h";
}

} // namespace

int cmd_fleet(Flags& f, std::ostream& out) {
    const model::Catalog cat = load_catalog(f);
    model::FleetSpec s;
    const std::string gpu = f.get_string("--gpu", "h100-sxm");
    const model::GpuSpec* g = cat.gpu(gpu);
    if (!g)
        throw UsageError{"--gpu: unknown GPU \"" + gpu + "\""};
    // A node as the GPU's reference system has it, unless given.
    int per = 8;
    std::string per_source = "default";
    if (const model::SystemSpec* sys = cat.system(g->reference_system); sys && sys->gpus > 0) {
        per = sys->gpus;
        per_source = "the GPU's reference system (" + sys->id + ")";
    }
    s.gpus_per_node = static_cast<int>(f.get_int("--gpus-per-node", per, 1, 1024, per_source));
    const long long gpus = f.get_int("--gpus", 8LL * s.gpus_per_node, 1, 100000000);
    if (gpus % s.gpus_per_node != 0)
        throw UsageError{"--gpus: " + std::to_string(gpus) + " is not whole nodes of " +
                         std::to_string(s.gpus_per_node) + " GPUs"};
    s.nodes = static_cast<int>(gpus / s.gpus_per_node);
    for (const char* need : {"--arrival-rate-per-hour", "--mean-duration-h"})
        if (!f.has(need))
            throw UsageError{std::string(need) + ": required (the job class's arrivals and "
                                                 "durations)"};
    model::FleetClass c;
    c.name = "jobs";
    c.gpus_per_job = static_cast<int>(f.get_int("--gpus-per-job", 8, 1, gpus));
    c.arrival_rate_per_hour = f.get_number("--arrival-rate-per-hour", 1, 1e-9, 1e9);
    c.mean_duration_h = f.get_number("--mean-duration-h", 1, 1e-9, 1e7);
    s.classes = {c};
    s.horizon_days = f.get_number("--horizon-days", 30, 1e-6, 36500);
    s.warmup_days =
        f.get_number("--warmup-days", std::min(3.0, s.horizon_days / 10), 0, s.horizon_days);
    s.seed = static_cast<std::uint64_t>(f.get_int("--seed", 1, 0, 1LL << 62));
    const std::string policy = f.get_choice("--policy", "fifo");
    s.policy = *model::fleet_policy_from_name(policy);
    s.topology_aware = !f.get_bool("--anywhere", false);
    s.usd_per_gpu_hour =
        f.get_unset_or_positive("--price-per-gpu-hour", 1e6, "no cost per useful GPU-hour");
    auto r = model::simulate_fleet(s);
    if (!r)
        throw UsageError{r.error_text()};
    if (f.has("--json")) {
        json j = envelope(f);
        json classes = json::array();
        for (const auto& k : r->classes)
            classes.push_back({{"name", k.name},
                               {"wait_mean_s", k.wait_mean_s},
                               {"wait_p50_s", k.wait_p50_s},
                               {"wait_p95_s", k.wait_p95_s},
                               {"jobs_completed", k.jobs_completed}});
        j["fleet"] = {{"utilization", r->utilization},
                      {"allocated_fraction", r->allocated_fraction},
                      {"wait_mean_s", r->wait_mean_s},
                      {"wait_p50_s", r->wait_p50_s},
                      {"wait_p95_s", r->wait_p95_s},
                      {"jobs_completed", r->jobs_completed},
                      {"jobs_arrived", r->jobs_arrived},
                      {"gpu_hours_available", r->gpu_hours_available},
                      {"gpu_hours_used", r->gpu_hours_used},
                      {"gpu_hours_lost_preemption", r->gpu_hours_lost_preemption},
                      {"gpu_hours_lost_failures", r->gpu_hours_lost_failures},
                      {"fragmentation_fraction", r->fragmentation_fraction},
                      {"burst_gpu_hours", r->burst_gpu_hours},
                      {"useful_gpu_hour_usd", r->useful_gpu_hour_usd},
                      {"mean_queue_length", r->mean_queue_length},
                      {"erlang_c_wait_s", nullptr},
                      {"classes", classes}};
        // The M/M/c answer when the run is one (one-node jobs on whole nodes).
        if (c.gpus_per_job == s.gpus_per_node && s.topology_aware) {
            const double w = model::erlang_c_wait(s.nodes, c.arrival_rate_per_hour / 3600,
                                                  1 / (c.mean_duration_h * 3600));
            if (std::isfinite(w))
                j["fleet"]["erlang_c_wait_s"] = w;
            else
                j["fleet"].erase("erlang_c_wait_s");
        } else {
            j["fleet"].erase("erlang_c_wait_s");
        }
        print_json(out, j);
        return 0;
    }
    out << units::format_count(static_cast<double>(gpus)) << " x " << g->id << " in " << s.nodes
        << " nodes of " << s.gpus_per_node << "; jobs of " << c.gpus_per_job << " GPUs, "
        << fmt(c.arrival_rate_per_hour, 3) << " per hour, " << fmt(c.mean_duration_h, 3)
        << " h on average; " << policy << ", " << fmt(s.horizon_days, 1) << " days ("
        << fmt(s.warmup_days, 1) << " warm-up left out), seed " << s.seed << "\n\n";
    Table t;
    t.header = {"fleet", "value"};
    t.rows = {{"utilization (busy / available GPU-hours)", fmt(r->utilization * 100, 1) + " %"},
              {"wait, mean", hours(r->wait_mean_s)},
              {"wait, median", hours(r->wait_p50_s)},
              {"wait, 95th percentile", hours(r->wait_p95_s)},
              {"jobs completed", units::format_count(static_cast<double>(r->jobs_completed))},
              {"GPU-hours used", units::format_count(r->gpu_hours_used)},
              {"idle while jobs waited (fragmentation)",
               fmt(r->fragmentation_fraction * 100, 1) + " % of GPU-hours"}};
    if (r->useful_gpu_hour_usd > 0)
        t.rows.push_back({"cost per useful GPU-hour", "$" + fmt(r->useful_gpu_hour_usd, 2)});
    if (c.gpus_per_job == s.gpus_per_node && s.topology_aware) {
        const double w = model::erlang_c_wait(s.nodes, c.arrival_rate_per_hour / 3600,
                                              1 / (c.mean_duration_h * 3600));
        t.rows.push_back({"M/M/c mean wait (Erlang C)",
                          std::isfinite(w) ? hours(w) : std::string("unbounded (load >= 1)")});
    }
    t.print(out);
    return 0;
}

} // namespace cl::cli
