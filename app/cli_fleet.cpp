// clusterlens-cli fleet (issue 23): one class of whole-GPU jobs (Poisson arrivals, exponential
// durations), or a recorded trace (Helios, Philly, PAI or ElasticFlow format), on a generated or
// drawn cluster, simulated by core/model/fleet; keys in ../shared/CLI.md.
#include "cli_common.h"

#include "model/catalog.h"
#include "model/evaluate.h"
#include "model/fleet.h"
#include "model/trace_formats.h"
#include "model/units.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace cl::cli {

using nlohmann::json;
namespace units = model::units;

namespace {

std::string hours(double s) {
    return s < 60 ? fmt(s, 1) + " s" : s < 3600 ? fmt(s / 60, 1) + " min" : fmt(s / 3600, 2) + " h";
}

/// GPUs a whole-GPU (traced) job can take: those not on MIG or time-sliced nodes.
std::int64_t whole_gpus(const model::FleetSpec& s) {
    return model::fleet_whole_gpus(s.nodes, s.gpus_per_node, s.mig_nodes, s.timeslice_nodes);
}

/// A drawn design's bursting: its choice, its cloud offer's rates and spot inputs.
struct DesignBurst {
    model::BurstCapacity to = model::BurstCapacity::on_demand;
    double on_demand = 0, spot = 0; ///< USD per GPU-hour; 0 = none (the why says so)
    std::string on_demand_why, spot_why;
    double spot_preemptions_per_node_day = 0.1, spot_lost_hours = 0.67;
};

} // namespace

int cmd_fleet(Flags& f, const std::vector<std::string>& pos, std::ostream& out) {
    if (pos.size() > 1)
        throw UsageError{"fleet takes at most one design file or preset id"};
    const model::Catalog cat = load_catalog(f);
    model::FleetSpec s;
    std::string gpu_id;
    long long gpus = 0;
    std::string where;
    std::optional<model::FleetSpec> mix;     // the design's own job mix
    std::vector<model::FleetNodeCard> cards; // a drawn design's cards, in node order
    int leaf = 0;                            // nodes under one leaf switch (0: one leaf)
    std::string leaf_source;
    std::optional<DesignBurst> design_burst;
    // A design's scheduling policy, also for a trace replayed on it (the GUI replays an imported
    // trace with the Fleet section's policy; helper-34: `fleet DESIGN --trace` ran fifo).
    std::optional<model::FleetPolicy> design_policy;
    // A design's cost of owning per GPU-hour (its on-prem TCO over its horizon), which the GUI's
    // cost per useful GPU-hour divides (helper-36: the CLI printed none on a saved design the
    // Fleet tab priced at $3.74).
    std::optional<double> design_owning;
    if (pos.size() == 1) {
        // The drawn cluster: its nodes of whole GPUs.
        const model::Design d = load_design_arg(pos[0], cat);
        const model::Evaluation ev = model::evaluate(d, cat);
        const model::TopologySummary& t = ev.topology;
        if (t.gpus < 1 || t.nodes < 1)
            throw UsageError{"design: it has no GPUs to schedule jobs on"};
        const double per = t.gpus / t.nodes;
        if (per != std::floor(per) || per > 1024)
            throw UsageError{"design: its " + units::format_count(t.gpus) + " GPUs are not " +
                             "whole nodes of equal size (" + units::format_count(t.nodes) +
                             " nodes)"};
        s.gpus_per_node = static_cast<int>(per);
        s.nodes = static_cast<int>(t.nodes);
        gpus = static_cast<long long>(t.gpus);
        gpu_id = t.gpu;
        where = d.name.empty() ? pos[0] : d.name;
        f.record("design", pos[0], "argument");
        // Bursts bill the design's cloud offer: its on-demand or its spot price, and on spot
        // redo the work the Cost section's preemption rate loses.
        design_policy = d.fleet.policy;
        if (ev.tco && ev.tco->has_onprem && d.economics.months > 0)
            design_owning = ev.tco->onprem_usd / (t.gpus * 730.0 * d.economics.months);
        design_burst = DesignBurst{};
        design_burst->to = d.fleet.burst_to;
        design_burst->spot_preemptions_per_node_day = d.economics.spot_preemptions_per_node_day;
        design_burst->spot_lost_hours = d.economics.spot_lost_hours_per_preemption;
        if (ev.tco)
            for (const auto cap : {model::BurstCapacity::on_demand, model::BurstCapacity::spot}) {
                model::Design priced = d;
                priced.fleet.burst_to = cap;
                auto rate = model::fleet_burst_rate(priced, *ev.tco);
                auto& slot = cap == model::BurstCapacity::spot ? design_burst->spot
                                                               : design_burst->on_demand;
                slot = rate ? *rate : 0.0;
                if (!rate)
                    (cap == model::BurstCapacity::spot ? design_burst->spot_why
                                                       : design_burst->on_demand_why) =
                        rate.errors().front().what;
            }
        leaf = model::fleet_nodes_per_leaf(ev.fabric, s.nodes);
        cards = model::fleet_node_cards(d, cat);
        leaf_source = leaf > 0 ? "the design's leaf tier" : "the design has no leaf switches";
        if (d.fleet.active() && !f.has("--trace") && !f.has("--arrival-rate-per-hour")) {
            auto spec = model::fleet_spec(d, t, &cat, &ev.fabric, &ev.collective_assumptions);
            if (!spec)
                throw UsageError{"design: " + spec.error_text()};
            mix = std::move(spec).value();
        }
    } else {
        gpu_id = f.get_string("--gpu", "h100-sxm");
        const model::GpuSpec* g = cat.gpu(gpu_id);
        if (!g)
            throw UsageError{"--gpu: unknown GPU \"" + gpu_id + "\""};
        // A node as the GPU's reference system has it, unless given.
        int per = 8;
        std::string per_source = "default";
        if (const model::SystemSpec* sys = cat.system(g->reference_system); sys && sys->gpus > 0) {
            per = sys->gpus;
            per_source = "the GPU's reference system (" + sys->id + ")";
        }
        s.gpus_per_node = static_cast<int>(f.get_int("--gpus-per-node", per, 1, 1024, per_source));
        gpus = f.get_int("--gpus", 8LL * s.gpus_per_node, 1, 100000000);
        if (gpus % s.gpus_per_node != 0)
            throw UsageError{"--gpus: " + std::to_string(gpus) + " is not whole nodes of " +
                             std::to_string(s.gpus_per_node) + " GPUs"};
        s.nodes = static_cast<int>(gpus / s.gpus_per_node);
        // NVIDIA DGX SuperPOD reference architecture (DGX H100): a scalable unit of 32 nodes
        // under one rail group of leaf switches.
        leaf = std::min(32, s.nodes);
        leaf_source = s.nodes > 32 ? "a DGX SuperPOD scalable unit (32 nodes)"
                                   : "every node: the cluster is no larger than a DGX SuperPOD "
                                     "scalable unit (32 nodes)";
    }
    // A recorded trace (Helios, Philly, PAI or ElasticFlow format), or one class of random jobs.
    model::FleetClass c;
    std::vector<std::string> notes;
    const std::string trace_path = f.get_string("--trace", "", "none");
    if (mix) {
        const model::FleetSpec keep = s;
        s = *mix;
        s.nodes = keep.nodes;
        s.gpus_per_node = keep.gpus_per_node;
    } else if (!trace_path.empty()) {
        auto text = model::read_text_file(trace_path, 1024u * 1024u * 1024u);
        if (!text)
            throw UsageError{"--trace: " + text.errors().front().message()};
        auto tr = model::parse_job_trace(
            *text, s.gpus_per_node); // Helios, PAI or ElasticFlow CSV, Philly JSON
        if (!tr)
            throw UsageError{"--trace: " + trace_path + ": " + tr.error_text()};
        notes = tr->notes;
        s.trace = std::make_shared<model::FleetTrace>(std::move(tr).value());
    } else {
        for (const char* need : {"--arrival-rate-per-hour", "--mean-duration-h"})
            if (!f.has(need))
                throw UsageError{std::string(need) + ": required (the job class's arrivals and "
                                                     "durations), or --trace FILE"};
        c.name = "jobs";
        c.gpus_per_job = static_cast<int>(f.get_int("--gpus-per-job", 8, 1, gpus));
        c.arrival_rate_per_hour = f.get_number("--arrival-rate-per-hour", 1, 1e-9, 1e9);
        c.mean_duration_h = f.get_number("--mean-duration-h", 1, 1e-9, 1e7);
        c.daily_swing = f.get_number("--daily-swing", 0, 0, 1, "flat");
        c.weekend_factor = f.get_number("--weekend-factor", 1, 0, 10, "the same as a weekday");
        // MIG: each job takes one instance of the partitioned GPUs (all nodes unless given).
        c.mig = f.has("--mig-profile");
        // Time-slicing: each job takes one replica of a shared GPU (every node unless given).
        c.time_sliced = f.has("--timeslice-replicas") || f.has("--timeslice-nodes");
        if (c.mig && c.time_sliced)
            throw UsageError{"--timeslice-replicas: a job runs on a MIG instance or on a "
                             "time-sliced GPU, not both"};
        c.gpu_busy = f.get_number("--gpu-busy", 1, 0.01, 1, "a job keeps a GPU busy all its run");
        c.gpu_memory_bytes =
            f.get_size("--gpu-memory-per-job", 0, 0, 1e13, "not stated: replicas alone");
        if ((c.mig || c.time_sliced) && f.has("--gpus-per-job"))
            throw UsageError{std::string("--gpus-per-job: a job on ") +
                             (c.mig ? "a MIG instance" : "a time-sliced GPU") +
                             " takes one instance or replica; leave --gpus-per-job out"};
        // A team quota (Kueue nominalQuota): the most GPUs (MIG: instances) held at once.
        c.quota_gpus = static_cast<int>(f.get_int("--quota-gpus", 0, 0, 100000000, "none"));
        s.classes = {c};
    }
    // MIG nodes and partition: flags over the design's mix.
    if (f.has("--mig-profile") || f.has("--mig-nodes")) {
        if (s.trace)
            throw UsageError{"--mig-profile: a trace's jobs take whole GPUs; MIG runs a job "
                             "class's or the design's mix"};
        const std::string prof =
            f.get_choice("--mig-profile", mix && mix->mig_nodes > 0
                                              ? std::string(model::to_string(mix->mig_partition))
                                              : std::string("1g"));
        const auto p = model::choice_from_string<model::MigProfile>(prof);
        const model::GpuSpec* g = cat.gpu(gpu_id);
        if (!model::gpu_has_mig(gpu_id))
            throw UsageError{"--mig-profile: " + (g ? g->name : gpu_id) +
                             " has no MIG (NVIDIA MIG user guide: A100, H100, H200, B200 and "
                             "GB200 have it)"};
        s.mig_instances_per_gpu = model::mig_instances_per_gpu(*p);
        s.mig_partition = *p;
        s.mig_profile = model::mig_profile_name(*p, g ? g->memory_bytes : 0);
        s.mig_nodes = static_cast<int>(
            f.get_int("--mig-nodes", mix && mix->mig_nodes > 0 ? mix->mig_nodes : s.nodes, 1,
                      s.nodes, mix ? "the design's mix" : "every node"));
    }
    if (f.has("--gpu-memory-per-job") && !c.time_sliced)
        throw UsageError{mix ? "--gpu-memory-per-job: the design's classes carry their own (the "
                               "inspector's \"GPU memory per job\")"
                             : "--gpu-memory-per-job: only for time-sliced jobs "
                               "(--timeslice-replicas)"};
    if (f.has("--gpu-busy") && !c.time_sliced)
        throw UsageError{mix ? "--gpu-busy: the design's classes carry their own (the "
                               "inspector's \"GPU busy when alone\")"
                             : "--gpu-busy: only for time-sliced jobs (--timeslice-replicas)"};
    // Time-sliced nodes and replicas: flags over the design's mix.
    if (f.has("--timeslice-replicas") || f.has("--timeslice-nodes")) {
        s.timeslice_replicas = static_cast<int>(
            f.get_int("--timeslice-replicas", mix ? mix->timeslice_replicas : 4, 1, 1024,
                      mix ? "the design's mix" : "the GPU Operator docs' example"));
        const int room = s.nodes - s.mig_nodes;
        // On a design 0 turns its time-slicing off (its sliced classes are then refused).
        s.timeslice_nodes = static_cast<int>(
            f.get_int("--timeslice-nodes",
                      mix && mix->timeslice_nodes > 0 ? std::min(mix->timeslice_nodes, room) : room,
                      mix ? 0 : 1, room, mix ? "the design's mix" : "every node without MIG"));
    }
    // What switching between the jobs of a time-sliced GPU leaves of its throughput.
    if (f.has("--timeslice-efficiency") && s.timeslice_nodes == 0)
        throw UsageError{"--timeslice-efficiency: only with time-sliced GPUs "
                         "(--timeslice-replicas, or a design's time-sliced nodes)"};
    if (s.timeslice_nodes > 0) {
        // A share, not a percentage (helper-32 typed 76).
        if (f.has("--timeslice-efficiency")) {
            const double given =
                f.get_number("--timeslice-efficiency", model::kTimesliceEfficiencyDefault, 0, 1e9);
            if (given > 1 && given <= 100)
                throw UsageError{
                    "--timeslice-efficiency: " + fmt(given, given == std::floor(given) ? 0 : 2) +
                    " is a share of the GPU between 0.05 and 1 (for " + fmt(given, 0) +
                    " %, give " + fmt(given / 100, 2) + ")"};
        }
        s.timeslice_efficiency =
            f.get_number("--timeslice-efficiency",
                         mix ? mix->timeslice_efficiency : model::kTimesliceEfficiencyDefault, 0.05,
                         1, mix ? "the design's mix" : "NVIDIA's time-slicing vs MIG measurement");
    }
    if (s.timeslice_nodes > 0 && !(s.gpu_memory_bytes > 0)) { // one GPU's memory, for jobs' own
        const model::GpuSpec* g = cat.gpu(gpu_id);
        s.gpu_memory_bytes = g ? g->memory_bytes : 0;
        s.gpu_name = g ? g->name : gpu_id;
    }
    if (mix) {
        s.horizon_days =
            f.get_number("--horizon-days", mix->horizon_days, 1e-6, 36500, "the design's mix");
        s.warmup_days = f.get_number("--warmup-days", std::min(mix->warmup_days, s.horizon_days), 0,
                                     s.horizon_days, "the design's mix");
    } else if (s.trace) {
        // A trace runs until every job that fits the cluster could have ended as recorded
        // (helper-32: a job larger than the cluster, left out, stretched 5 days to 15.5;
        // helper-34: stopping at the last submission never ran that job); nothing to warm up
        // (it starts as recorded).
        const double span =
            std::max(model::trace_replay_horizon_s(*s.trace, whole_gpus(s)) / 86400, 1.0 / 24);
        s.horizon_days =
            f.get_number("--horizon-days", span, 1e-6, 36500, "the trace's jobs, each to its end");
        s.warmup_days = f.get_number("--warmup-days", 0, 0, s.horizon_days, "none for a trace");
    } else {
        s.horizon_days = f.get_number("--horizon-days", 30, 1e-6, 36500);
        s.warmup_days =
            f.get_number("--warmup-days", std::min(3.0, s.horizon_days / 10), 0, s.horizon_days);
    }
    s.seed = static_cast<std::uint64_t>(
        f.get_int("--seed", mix ? static_cast<long long>(mix->seed) : 1, 0, 1LL << 62));
    const std::string policy = f.get_choice(
        "--policy", mix             ? std::string(model::fleet_policy_name(mix->policy))
                    : design_policy ? std::string(model::fleet_policy_name(*design_policy))
                                    : "fifo");
    s.policy = *model::fleet_policy_from_name(policy);
    s.topology_aware =
        f.has("--anywhere") ? !f.get_bool("--anywhere", false) : (mix ? mix->topology_aware : true);
    s.burst_after_s = f.get_number("--burst-after-h", mix ? mix->burst_after_s / 3600 : 0, 0, 1e5,
                                   mix ? "the design's mix" : "never") *
                      3600;
    s.peak_hour = f.get_number("--peak-hour", mix ? mix->peak_hour : 14, 0, 24,
                               mix ? "the design's mix" : "default");
    // Where bursts run: on-demand instances, or spot capacity whose preemptions redo work.
    const std::string burst_to = f.get_choice(
        "--burst-to", std::string(model::to_string(
                          design_burst ? design_burst->to : model::BurstCapacity::on_demand)));
    if (!f.has("--burst-to") && design_burst) // said as the design's, not as a default
        f.record("--burst-to", burst_to, "the design's mix");
    const bool spot = burst_to == "spot";
    s.burst_redo_per_node = 0;
    if (spot) {
        const double pre = f.get_number(
            "--spot-preemptions-per-day",
            design_burst ? design_burst->spot_preemptions_per_node_day : 0.1, 0, 1000,
            design_burst ? "the design's Cost section" : "default (the Cost section's)");
        const double lost = f.get_number(
            "--spot-lost-hours", design_burst ? design_burst->spot_lost_hours : 0.67, 0, 1000,
            design_burst ? "the design's Cost section" : "default (the Cost section's)");
        s.burst_redo_per_node = pre / 24.0 * lost;
    }
    std::string burst_unpriced;
    if (f.has("--burst-price-per-gpu-hour") || !design_burst) {
        s.burst_usd_per_gpu_hour =
            f.get_number("--burst-price-per-gpu-hour", 0, 0, 1e6, "unpriced");
    } else {
        s.burst_usd_per_gpu_hour = spot ? design_burst->spot : design_burst->on_demand;
        burst_unpriced = spot ? design_burst->spot_why : design_burst->on_demand_why;
        f.record("--burst-price-per-gpu-hour", s.burst_usd_per_gpu_hour,
                 s.burst_usd_per_gpu_hour > 0 ? (spot ? "the design's cloud offer, spot"
                                                      : "the design's cloud offer, on demand")
                                              : "unpriced: " + burst_unpriced);
    }
    if (!f.has("--price-per-gpu-hour") && design_owning) {
        s.usd_per_gpu_hour = *design_owning;
        f.record("--price-per-gpu-hour", s.usd_per_gpu_hour,
                 "the design's on-prem cost over its horizon, per GPU-hour");
    } else {
        s.usd_per_gpu_hour =
            f.get_unset_or_positive("--price-per-gpu-hour", 1e6, "no cost per useful GPU-hour");
    }
    // Node failures: the design's (its Reliability rate, on unless its mix turns them off);
    // on a generated cluster none unless a rate is given.
    if (f.has("--node-failures-per-1000-node-days"))
        s.node_failures_per_hour =
            f.get_number("--node-failures-per-1000-node-days", 0, 0, 24000) / 1000 / 24;
    else
        f.record("--node-failures-per-1000-node-days", s.node_failures_per_hour * 24000,
                 mix ? (s.node_failures_per_hour > 0 ? "the design's Reliability rate"
                                                     : "the design's mix: failures off")
                     : "none on a generated cluster");
    s.repair_h = f.get_number("--repair-hours", s.repair_h, 0, 1e5,
                              mix ? "the design's Reliability section" : "default");
    s.restart_s = f.get_number("--restart-s", s.restart_s, 0, 1e8,
                               mix ? "the design's Reliability section" : "default");
    s.nodes_per_leaf = static_cast<int>(
        f.get_int("--nodes-per-leaf", leaf, 0, s.nodes, leaf_source + "; 0 = one leaf"));
    s.leaf_required = f.has("--leaf-required") ? f.get_bool("--leaf-required", false)
                                               : (mix && mix->leaf_required);
    s.quota_borrowing = f.has("--quota-borrowing") ? f.get_bool("--quota-borrowing", false)
                                                   : (mix && mix->quota_borrowing);
    auto r = model::simulate_fleet(s);
    if (!r)
        throw UsageError{r.error_text()};
    // Servers of the M/M/c queue the run is, when it is one (0: it is not).
    int mmc_servers = 0;
    if (!s.trace && !mix && c.mig && s.mig_nodes == s.nodes)
        mmc_servers = s.nodes * s.gpus_per_node * s.mig_instances_per_gpu;
    else if (!s.trace && !mix && c.time_sliced && s.timeslice_nodes == s.nodes &&
             c.gpu_busy * r->classes[0].jobs_per_gpu_at_most +
                     model::timeslice_switching(r->classes[0].jobs_per_gpu_at_most, c.gpu_busy,
                                                s.timeslice_efficiency) <=
                 1)
        // never slowed
        mmc_servers =
            s.nodes * s.gpus_per_node * r->classes[0].jobs_per_gpu_at_most; // each a server
    else if (!s.trace && !mix && !c.mig && !c.time_sliced && c.gpus_per_job == s.gpus_per_node &&
             s.topology_aware)
        mmc_servers = s.nodes;
    else if (!s.trace && !mix && !c.mig && !c.time_sliced && c.gpus_per_job == 1 &&
             s.mig_nodes == 0 && s.timeslice_nodes == 0) // any free GPU takes a one-GPU job
        mmc_servers = s.nodes * s.gpus_per_node;
    // A quota of whole jobs caps the servers: quota / job size of them at most.
    const int job_units = c.mig || c.time_sliced ? 1 : c.gpus_per_job;
    if (mmc_servers > 0 && c.quota_gpus > 0 && c.quota_gpus % job_units == 0)
        mmc_servers = std::min(mmc_servers, c.quota_gpus / job_units);
    else if (c.quota_gpus > 0)
        mmc_servers = 0;
    const bool want_allocation = f.get_bool("--allocation", false);
    if (want_allocation && !f.has("--json"))
        throw UsageError{"--allocation: only with --json (the timeline is 64 × 241 cells)"};
    if (f.has("--json")) {
        json j = envelope(f);
        json classes = json::array();
        for (const auto& k : r->classes)
            classes.push_back({{"name", k.name},
                               {"wait_mean_s", k.wait_mean_s},
                               {"wait_p50_s", k.wait_p50_s},
                               {"wait_p95_s", k.wait_p95_s},
                               {"jobs_completed", k.jobs_completed},
                               {"preemptions", k.preemptions},
                               {"interruptions", k.interruptions},
                               {"mean_gpus_held", k.mean_held},
                               {"at_quota_fraction", k.at_quota_fraction},
                               {"quota_gpus", k.quota},
                               {"borrow_cap_gpus", k.borrow_cap},
                               {"keep_gpus", k.keep},
                               {"mean_gpus_borrowed", k.mean_borrowed},
                               {"reclaimed", k.reclaimed},
                               {"mean_duration_h", k.mean_duration_h},
                               {"duration_source", k.duration_source},
                               {"split_slowdown", k.split_slowdown},
                               {"waits_counted", k.waits_counted},
                               {"jobs_too_large", k.jobs_too_large},
                               {"time_sliced", k.time_sliced},
                               {"gpu_memory_bytes", k.gpu_memory_bytes},
                               {"jobs_per_gpu_at_most", k.jobs_per_gpu_at_most},
                               {"mean_run_s", k.mean_run_s},
                               {"timeslice_slowdown", k.slowdown}});
        j["fleet"] = {{"utilization", r->utilization},
                      {"allocated_fraction", r->allocated_fraction},
                      {"wait_mean_s", r->wait_mean_s},
                      {"utilization_ci95", r->utilization_ci95},
                      {"held_back_fraction", r->held_back_fraction},
                      {"wait_mean_ci95_s", r->wait_mean_ci95_s},
                      {"wait_p50_s", r->wait_p50_s},
                      {"wait_p95_s", r->wait_p95_s},
                      {"waits_counted", r->waits_counted},
                      {"jobs_completed", r->jobs_completed},
                      {"jobs_arrived", r->jobs_arrived},
                      {"jobs_waiting_at_end", r->jobs_waiting_at_end},
                      {"longest_wait_at_end_s", r->longest_wait_at_end_s},
                      {"gpu_hours_available", r->gpu_hours_available},
                      {"gpu_hours_used", r->gpu_hours_used},
                      {"gpu_hours_lost_preemption", r->gpu_hours_lost_preemption},
                      {"preemptions", r->preemptions},
                      {"gpu_hours_lost_failures", r->gpu_hours_lost_failures},
                      {"node_failures", r->node_failures},
                      {"interruptions", r->interruptions},
                      {"gpu_hours_down", r->gpu_hours_down},
                      {"useful_fraction", r->useful_fraction},
                      {"fragmentation_fraction", r->fragmentation_fraction},
                      {"nodes_per_leaf", r->nodes_per_leaf},
                      {"multi_node_runs", r->multi_node_runs},
                      {"multi_node_runs_split", r->multi_node_runs_split},
                      {"mean_leaves_per_multi_node_run", r->mean_leaves_per_multi_node_run()},
                      {"split_gpu_hours", r->split_gpu_hours},
                      {"burst_gpu_hours", r->burst_gpu_hours},
                      {"jobs_burst", r->jobs_burst},
                      {"burst_to", burst_to},
                      {"quota_borrowing", s.quota_borrowing},
                      {"burst_gpu_hours_redone", r->burst_gpu_hours_redone},
                      {"burst_usd_per_gpu_hour", r->burst_usd_per_gpu_hour},
                      {"burst_usd", r->burst_usd},
                      {"burst_unpriced", burst_unpriced},
                      {"useful_gpu_hour_usd", r->useful_gpu_hour_usd},
                      {"mean_queue_length", r->mean_queue_length},
                      {"mig_instances", r->mig_instances},
                      {"mig_utilization", r->mig_utilization},
                      {"mig_profile", r->mig_profile},
                      {"timeslice_nodes", r->timeslice_nodes},
                      {"timeslice_replicas", r->timeslice_replicas},
                      {"timeslice_utilization", r->timeslice_utilization},
                      {"timeslice_allocated", r->timeslice_allocated},
                      {"timeslice_jobs_per_gpu", r->timeslice_jobs_per_gpu},
                      {"timeslice_efficiency", r->timeslice_efficiency},
                      {"gpu_hours_switching", r->gpu_hours_switching},
                      {"erlang_c_wait_s", nullptr},
                      {"classes", classes}};
        if (want_allocation) {
            // The allocation timeline (what the Fleet tab draws): rows of sampled nodes by
            // the timeline's columns, and every run seen there.
            const model::FleetAllocation& al = r->allocation;
            json runs = json::array();
            for (const auto& job : al.jobs) {
                json nodes = json::array();
                for (const auto& [n, g] : job.nodes)
                    nodes.push_back({n, g});
                json run = {{"class", r->classes[static_cast<std::size_t>(job.cls)].name},
                            {"gpus", job.gpus},
                            {"mig", job.mig},
                            {"time_sliced", job.time_sliced},
                            {"start_s", job.start_s},
                            {"end_s", job.end_s},
                            {"running_at_end", job.running_at_end},
                            {"nodes", nodes},
                            {"leaves", job.leaves}};
                if (!cards.empty()) {
                    json on = json::array();
                    for (const auto& card : model::fleet_job_cards(cards, job))
                        on.push_back({{"device", card.device},
                                      {"job_nodes", card.job_nodes},
                                      {"card_nodes", card.card_nodes}});
                    run["cards"] = on;
                }
                runs.push_back(std::move(run));
            }
            json rows = json::array(), held = json::array();
            for (std::size_t i = 0; i < al.node_rows.size(); ++i) {
                json row = json::array(), share = json::array();
                for (int col = 0; col < al.columns; ++col) {
                    row.push_back(al.at(i, static_cast<std::size_t>(col)));
                    share.push_back(al.held_at(i, static_cast<std::size_t>(col)));
                }
                rows.push_back(std::move(row));
                held.push_back(std::move(share));
            }
            json times = json::array();
            for (const auto& p : r->timeline)
                times.push_back(p.t_s);
            j["fleet"]["allocation"] = {{"node_rows", al.node_rows},
                                        {"t_s", times},
                                        {"cells", rows},
                                        {"held", held},
                                        {"runs", runs}};
        }
        if (s.trace) {
            j["fleet"]["trace"] = {{"file", trace_path},
                                   {"jobs", s.trace->jobs.size()},
                                   {"jobs_too_large", r->trace_jobs_too_large},
                                   {"span_s", s.trace->span_s},
                                   {"notes", notes}};
        }
        // The M/M/c answer when the run is one (one-node jobs on whole nodes, or one MIG
        // instance each on a cluster of MIG nodes).
        if (mmc_servers > 0) {
            const double w = model::erlang_c_wait(mmc_servers, c.arrival_rate_per_hour / 3600,
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
    out << units::format_count(static_cast<double>(gpus)) << " × " << gpu_id << " in " << s.nodes
        << (s.nodes == 1 ? " node of " : " nodes of ") << s.gpus_per_node
        << (where.empty() ? "" : " (" + where + ")") << "; ";
    if (mix)
        out << "the design's job mix (" << s.classes.size() << " classes)";
    else if (s.trace)
        out << "the trace " << trace_path << ": "
            << units::format_count(static_cast<double>(s.trace->jobs.size()) -
                                   static_cast<double>(r->trace_jobs_too_large))
            << (s.trace->jobs.size() - static_cast<std::size_t>(r->trace_jobs_too_large) == 1
                    ? " GPU job over "
                    : " GPU jobs over ")
            << fmt(model::trace_fitting_span_s(*s.trace, whole_gpus(s)) / 86400, 1) << " days";
    else
        out << "jobs of "
            << (c.mig ? "one " + s.mig_profile + " MIG instance"
                : c.time_sliced
                    ? "one time-sliced GPU replica (busy " + fmt(c.gpu_busy * 100, 0) + " % alone" +
                          (c.gpu_memory_bytes > 0
                               ? ", " + units::format_bytes(c.gpu_memory_bytes) + " each"
                               : std::string()) +
                          ")"
                    : std::to_string(c.gpus_per_job) + (c.gpus_per_job == 1 ? " GPU" : " GPUs"))
            << ", " << units::format_g(c.arrival_rate_per_hour, 6) << " per hour, "
            << units::format_g(c.mean_duration_h, 6) << " h on average";
    out << "; " << policy << ", " << fmt(s.horizon_days, 1) << " days (" << fmt(s.warmup_days, 1)
        << " warm-up left out), seed " << s.seed << "\n";
    for (const auto& n : notes)
        out << "note: " << n << "\n";
    if (r->trace_jobs_too_large > 0)
        out << "note: " << units::format_count(static_cast<double>(r->trace_jobs_too_large))
            << (r->trace_jobs_too_large == 1 ? " trace job needs" : " trace jobs need")
            << " more GPUs than the cluster has: left out\n";
    out << "\n";
    // No job started after the warm-up: no wait to report, not waits of 0 s.
    const std::string none = "none started";
    Table t;
    t.header = {"fleet", "value"};
    // With the 95 % batch-means half-width when the run has one (helper-36: a single run's
    // figures read as exact).
    const auto pm = [](double hw, const std::string& what) {
        return hw > 0 ? " (+/- " + what + ", 95 % interval)" : std::string();
    };
    t.rows = {{"utilization (busy / available GPU-hours)",
               fmt(r->utilization * 100, 1) + " %" +
                   pm(r->utilization_ci95, fmt(r->utilization_ci95 * 100, 1) + " points")},
              {"wait, mean",
               r->waits_counted > 0
                   ? hours(r->wait_mean_s) + pm(r->wait_mean_ci95_s, hours(r->wait_mean_ci95_s))
                   : none},
              {"wait, median", r->waits_counted > 0 ? hours(r->wait_p50_s) : none},
              {"wait, 95th percentile", r->waits_counted > 0 ? hours(r->wait_p95_s) : none},
              {"jobs completed", units::format_count(static_cast<double>(r->jobs_completed))},
              {"jobs still waiting at the end",
               units::format_count(static_cast<double>(r->jobs_waiting_at_end)) +
                   (r->jobs_waiting_at_end > 0
                        ? " (the oldest for " + hours(r->longest_wait_at_end_s) + ")"
                        : std::string())},
              {"GPU-hours used", units::format_count(r->gpu_hours_used)},
              {"idle while no waiting job fit (fragmentation)",
               fmt(r->fragmentation_fraction * 100, 1) + " % of GPU-hours"}};
    if (r->held_back_fraction >= 0.0005)
        t.rows.push_back({"idle while a job that fit waited (queue head, quota)",
                          fmt(r->held_back_fraction * 100, 1) + " % of GPU-hours"});
    if (r->multi_node_runs > 0)
        t.rows.push_back({"multi-node runs split over leaf switches",
                          units::format_count(static_cast<double>(r->multi_node_runs_split)) +
                              " of " +
                              units::format_count(static_cast<double>(r->multi_node_runs)) + " (" +
                              fmt(r->mean_leaves_per_multi_node_run(), 2) + " leaves per run; " +
                              std::to_string(r->nodes_per_leaf) + " nodes per leaf)"});
    if (r->split_gpu_hours > 0)
        t.rows.push_back({"GPU-hours split runs took longer",
                          units::format_count(r->split_gpu_hours) + " (" +
                              fmt(r->split_gpu_hours / std::max(1e-9, r->gpu_hours_used) * 100, 2) +
                              " % of GPU-hours used)"});
    if (r->mig_instances > 0)
        t.rows.push_back({"MIG instances busy",
                          fmt(r->mig_utilization * 100, 1) + " % of " +
                              units::format_count(static_cast<double>(r->mig_instances)) + " × " +
                              r->mig_profile + " on " + std::to_string(r->mig_nodes) +
                              (r->mig_nodes == 1 ? " node" : " nodes")});
    if (r->timeslice_nodes > 0) {
        const double ts_gpus = static_cast<double>(r->timeslice_nodes) * s.gpus_per_node;
        t.rows.push_back(
            {"time-sliced GPUs busy",
             fmt(r->timeslice_utilization * 100, 1) + " % of " + units::format_count(ts_gpus) +
                 " GPUs (" + std::to_string(r->timeslice_replicas) +
                 (r->timeslice_replicas == 1 ? " replica each) on " : " replicas each) on ") +
                 std::to_string(r->timeslice_nodes) +
                 (r->timeslice_nodes == 1 ? " node" : " nodes")});
        t.rows.push_back({"time-sliced GPUs holding a job",
                          fmt(r->timeslice_allocated * 100, 1) + " % of the time, " +
                              fmt(r->timeslice_jobs_per_gpu, 2) + " jobs on each on average"});
        t.rows.push_back({"GPU-hours switching between jobs",
                          units::format_count(r->gpu_hours_switching) + " (a shared GPU keeps " +
                              fmt(r->timeslice_efficiency * 100, 0) +
                              " % of its throughput for its jobs)"});
        for (const auto& x : r->classes)
            if (x.time_sliced && x.slowdown > 0)
                t.rows.push_back({x.name + ": runs on a shared GPU",
                                  fmt(x.slowdown, 2) + " × their time alone (" +
                                      hours(x.mean_run_s) + " on average)"});
        for (const auto& x : r->classes)
            if (x.time_sliced && x.gpu_memory_bytes > 0)
                t.rows.push_back(
                    {x.name + ": memory", units::format_bytes(x.gpu_memory_bytes) + " per job of " +
                                              units::format_bytes(r->timeslice_gpu_memory_bytes) +
                                              ": " + std::to_string(x.jobs_per_gpu_at_most) +
                                              " to a GPU at most"});
    }
    if (r->preemptions > 0)
        t.rows.push_back({"evicted for higher priority",
                          units::format_count(static_cast<double>(r->preemptions)) + " times, " +
                              units::format_count(r->gpu_hours_lost_preemption) +
                              " GPU-hours lost (work since a checkpoint, restarts)"});
    if (r->node_failures > 0)
        t.rows.push_back({"node failures",
                          units::format_count(static_cast<double>(r->node_failures)) + " (" +
                              fmt(r->down_fraction * 100, 2) + " % of GPU-hours out for repair); " +
                              units::format_count(static_cast<double>(r->interruptions)) +
                              (r->interruptions == 1 ? " job stopped, " : " jobs stopped, ") +
                              units::format_count(r->gpu_hours_lost_failures) +
                              " GPU-hours lost (work since a checkpoint, restarts)"});
    if (r->gpu_hours_lost_failures + r->gpu_hours_lost_preemption + r->gpu_hours_switching > 0)
        t.rows.push_back({r->gpu_hours_switching > 0
                              ? "useful (busy less lost work, restarts and switching)"
                              : "useful (busy less lost work and restarts)",
                          fmt(r->useful_fraction * 100, 1) + " %"});
    if (r->jobs_burst > 0)
        t.rows.push_back(
            {spot ? "burst to spot capacity" : "burst to on-demand cloud capacity",
             units::format_count(static_cast<double>(r->jobs_burst)) + " jobs, " +
                 units::format_count(r->burst_gpu_hours) + " GPU-hours" +
                 (spot ? " (" + units::format_count(r->burst_gpu_hours_redone) +
                             " redone after spot preemptions)"
                       : std::string()) +
                 (r->burst_usd > 0
                      ? ", $" + units::format_count(r->burst_usd) + " at $" +
                            units::format_price(r->burst_usd_per_gpu_hour) + " per GPU-hour"
                  : !burst_unpriced.empty() ? ", not priced: " + burst_unpriced
                                            : std::string())});
    if (r->useful_gpu_hour_usd > 0)
        t.rows.push_back({"cost per useful GPU-hour", "$" + fmt(r->useful_gpu_hour_usd, 2)});
    if (mmc_servers > 0) {
        const double w = model::erlang_c_wait(mmc_servers, c.arrival_rate_per_hour / 3600,
                                              1 / (c.mean_duration_h * 3600));
        t.rows.push_back({"M/M/c mean wait (Erlang C)",
                          std::isfinite(w) ? hours(w) : std::string("unbounded (load >= 1)")});
    }
    t.print(out);
    if (r->classes.size() > 1) {
        Table k;
        k.header = {"class", "jobs completed", "wait, mean", "wait, median", "wait, 95th"};
        for (const auto& x : r->classes) {
            // A trace's class whose jobs were all too large for the cluster ran none: say why.
            const std::string no_wait =
                x.jobs_too_large > 0 && x.jobs_started == 0 ? "left out (too large)" : none;
            k.rows.push_back({x.name, units::format_count(static_cast<double>(x.jobs_completed)),
                              x.waits_counted > 0 ? hours(x.wait_mean_s) : no_wait,
                              x.waits_counted > 0 ? hours(x.wait_p50_s) : no_wait,
                              x.waits_counted > 0 ? hours(x.wait_p95_s) : no_wait});
        }
        out << "\n";
        k.print(out);
    }
    return 0;
}

} // namespace cl::cli
