#include "model/evaluate.h"

#include "model/catalog.h"
#include "model/findings.h"
#include "model/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>
#include <tuple>

namespace cl::model {

namespace {

/// GPUs of one replica of `dev` (children counted with their own counts).
double gpus_per_replica(const DesignIndex& d, const Catalog& c, const Device& dev,
                        std::string* gpu_id, int depth) {
    if (depth > 64)
        return 0;
    double n = 0;
    if (dev.kind == DeviceKind::gpu) {
        if (gpu_id && gpu_id->empty())
            *gpu_id = dev.catalog;
        return 1;
    }
    if (dev.kind == DeviceKind::system) {
        if (const SystemSpec* s = c.system(dev.catalog)) {
            if (!s->gpu.empty()) {
                if (gpu_id && gpu_id->empty())
                    *gpu_id = s->gpu;
                n += s->gpus;
            }
        }
    }
    for (const Device* child : d.children(dev.id))
        n += static_cast<double>(child->count) * gpus_per_replica(d, c, *child, gpu_id, depth + 1);
    return n;
}

/// The GPU-hour price the design's economics imply: an explicit price, else the cloud offer's
/// on-demand price per GPU, else 0 (no cost shown).
/// The cloud offer of the design, else the cheapest for its GPU type.
const CloudOffer* design_offer(const Design& d, const Catalog& c, const std::string& gpu) {
    if (const CloudOffer* o = c.cloud(d.economics.cloud_offer))
        return o;
    return default_cloud_offer(c, gpu, d.economics.commitment);
}

/// A chosen offer that rents another GPU than the design has (helper-18: after swapping H100
/// for H200 the design was priced at the H100 instance's rate): why it cannot price this design,
/// else empty.
std::string offer_mismatch(const Design& d, const Catalog& c, const std::string& gpu) {
    const CloudOffer* o = c.cloud(d.economics.cloud_offer);
    if (!o || gpu.empty() || o->gpu == gpu || d.economics.price_per_gpu_hour > 0)
        return {};
    const auto name = [&c](const std::string& id) {
        const GpuSpec* g = c.gpu(id);
        return g && !g->name.empty() ? g->name : id;
    };
    return "the cloud offer " + o->provider + " " + o->instance + " rents " + name(o->gpu) +
           "; this design's GPUs are " + name(gpu) +
           ": choose an offer for them (or the cheapest for the GPU) in the Cost section";
}

/// $/GPU-hour for training and serving costs: the design's price, else the TCO's cloud rate
/// (its commitment applied), else the offer's on-demand rate.
double gpu_hour_price(const Design& d, const Catalog& c, const Evaluation& ev) {
    if (d.economics.price_per_gpu_hour > 0)
        return d.economics.price_per_gpu_hour;
    if (ev.tco && ev.tco->has_cloud)
        return ev.tco->cloud_price_per_gpu_hour;
    if (ev.tco)
        return 0.0; // the cloud side could not be priced (the Cost tab says why)
    // A chosen offer for another GPU prices nothing (the Cost tab says why).
    if (const CloudOffer* o = design_offer(d, c, ev.topology.gpu);
        o && o->gpus > 0 && o->gpu == ev.topology.gpu)
        return o->on_demand_usd_per_hour / o->gpus;
    return 0.0;
}

} // namespace

namespace {

/// Issue 22: a switch tier that needs more ports than its switches have cannot be cabled (a
/// helper doubled the spine links and got a 13% shorter step on leaves needing 75 of 64
/// ports). Groups that reach that tier (`top`: the highest tier a group crosses) do not run on
/// it; the reason, or empty.
std::string cabling_error(const Topology& f, int top) {
    for (const auto& st : f.tiers)
        if (st.level <= top && st.ports_per_switch > 0 &&
            st.ports_used_per_switch > st.ports_per_switch + 1e-9) {
            char buf[256];
            std::snprintf(buf, sizeof buf,
                          "the %s switches need %.0f ports each (links down and up) but have %d: "
                          "add %s switches or use fewer links per switch",
                          st.name.c_str(), st.ports_used_per_switch, st.ports_per_switch,
                          st.name.c_str());
            return buf;
        }
    return {};
}
int top_tier(const std::vector<GroupPlacement>& groups) {
    int top = 0;
    for (const auto& g : groups)
        if (g.ranks > 1)
            top = std::max(top, group_tier(g));
    return top;
}

/// Whether `inner` is `outer` or lies inside it (through parents).
bool inside(const Design& design, const DesignIndex& d, const std::string& inner,
            const std::string& outer) {
    const Device* cur = d.device(inner);
    for (std::size_t guard = 0; cur && guard <= design.devices.size(); ++guard) {
        if (cur->id == outer)
            return true;
        cur = cur->parent.empty() ? nullptr : d.device(cur->parent);
    }
    return false;
}

/// A compute node entry and a placed device overlap (one holds the other).
bool related(const Design& d, const DesignIndex& idx, const std::string& node,
             const std::string& placed) {
    return inside(d, idx, node, placed) || inside(d, idx, placed, node);
}

/// Core errors name CLI flags ("--tp"); on a design they name the JSON path of the field
/// instead ("workloads[2].training.tp"), so a GUI or file user reads where to fix it.
std::string design_errors(const std::vector<Error>& errors, std::size_t index, WorkloadKind kind) {
    static const std::pair<std::string_view, std::string_view> renamed[] = {
        {"gpus", "placement"},
        {"gpu", "placement"},
        {"ttft-slo", "ttft_slo_s"},
        {"tpot-slo", "tpot_slo_s"},
        {"months", "economics.months"}};
    std::vector<Error> out;
    for (Error e : errors) {
        if (e.where.rfind("--", 0) == 0) {
            std::string key = e.where.substr(2);
            std::string path = "workloads[" + std::to_string(index) + "]";
            bool top = false;
            for (const auto& [flag, field] : renamed)
                if (key == flag) {
                    key = field;
                    top = key == "placement";
                }
            std::replace(key.begin(), key.end(), '-', '_');
            if (!top)
                path += kind == WorkloadKind::training ? ".training" : ".inference";
            e.where = path + "." + key;
        }
        out.push_back(std::move(e));
    }
    return join_errors(out);
}

} // namespace

double gpus_in(const DesignIndex& idx, const Catalog& c, const Device& dev, std::string* gpu_id) {
    return idx.multiplicity(dev) * gpus_per_replica(idx, c, dev, gpu_id, 0);
}

double gpus_in(const Design& d, const Catalog& c, const Device& dev, std::string* gpu_id) {
    return gpus_in(DesignIndex(d), c, dev, gpu_id);
}

namespace {
/// busbw of an allreduce over `gpus` GPUs placed on `f`, 1 KiB to 16 GiB in powers of two;
/// nothing when some size cannot run.
std::optional<CollectiveCurve> allreduce_curve(const Topology& f, const CollectiveAssumptions& a,
                                               std::string name, int gpus) {
    CollectiveCurve c;
    c.name = std::move(name);
    c.gpus = gpus;
    const GroupPlacement p = place_group(f, gpus, 1);
    c.tier = p.tier;
    for (double b = 1024; b <= 16.0 * 1024 * 1024 * 1024; b *= 2) {
        auto r = collective_time(CollectiveOp::allreduce, b, f, p, CollectiveAlgo::automatic, a);
        if (!r)
            return std::nullopt;
        c.bytes.push_back(b);
        c.busbw_Bps.push_back(r->busbw_Bps);
        c.time_s.push_back(r->time_s);
    }
    return c;
}
} // namespace

void store_fit(Design& d, const CalibrationFit& fit, const std::string& source) {
    for (const auto& tf : fit.tiers) {
        if (tf.segments.empty())
            continue;
        std::erase_if(d.calibration, [&](const FabricCalibration& c) { return c.tier == tf.tier; });
        FabricCalibration c;
        c.tier = tf.tier;
        c.alpha_s = tf.segments.back().alpha_s;
        c.beta_Bps = tf.segments.back().beta_Bps;
        c.source = source;
        c.error_before = tf.error_before;
        c.error_after = tf.error_after;
        c.op = tf.op;
        c.ranks = tf.ranks;
        c.oversubscription = tf.oversubscription;
        c.points = tf.points;
        for (const auto& sf : tf.segments)
            c.segments.push_back({sf.min_bytes, sf.max_bytes, sf.scales.alpha_scale,
                                  sf.scales.beta_scale, sf.algorithm, sf.protocol, sf.alpha_s,
                                  sf.beta_Bps});
        d.calibration.push_back(std::move(c));
    }
    std::sort(d.calibration.begin(), d.calibration.end(),
              [](const auto& x, const auto& y) { return x.tier < y.tier; });
}

std::vector<CollectiveCurve> allreduce_curves(const Topology& f, const CollectiveAssumptions& a) {
    std::vector<CollectiveCurve> out;
    if (f.gpus < 2)
        return out;
    const int domain = std::max(1, f.scaleup_domain);
    auto curve = [&](const std::string& name, int gpus) {
        if (auto c = allreduce_curve(f, a, name, gpus))
            out.push_back(std::move(*c));
    };
    const int total = static_cast<int>(std::min(f.gpus, 1e7));
    if (domain > 1)
        curve((f.pcie_only ? "PCIe" : "scale-up domain") + std::string(" (") +
                  std::to_string(std::min(domain, total)) + " GPUs)",
              std::min(domain, total));
    if (total > domain && !f.tiers.empty()) {
        for (std::size_t i = 0; i < f.tiers.size(); ++i) {
            // Whole servers under one switch (seven leaves for 32 servers reach 4.6 on average:
            // the curve is of 4 servers, 32 GPUs, not of 36 -- helper-15).
            const double reach = std::floor(f.tiers[i].nodes_below_one_switch) * domain;
            int gpus = static_cast<int>(std::min<double>(total, reach));
            if (i + 1 == f.tiers.size())
                gpus = total;
            if (gpus <= domain)
                continue;
            if (!out.empty() && out.back().gpus == gpus)
                continue;
            curve(f.tiers[i].name + " tier (" + units::format_count(gpus) + " GPUs)", gpus);
        }
    }
    return out;
}

Result<double> training_hours_on(const Design& d, const Catalog& c, const Topology& fabric,
                                 const CollectiveAssumptions& ca, const std::string& gpu,
                                 const std::string& workload_id, int gpus) {
    const Workload* w = d.workload(workload_id);
    if (!w || w->kind != WorkloadKind::training)
        return Error{"fleet", "no training workload \"" + workload_id + "\" in the design"};
    const std::string name = w->name.empty() ? w->id : w->name;
    if (!(w->training.tokens > 0))
        return Error{"fleet", name + " has no tokens to train: set its tokens to train"};
    const ModelArch* m = find_model(d, c, w->model);
    const GpuSpec* g = c.gpu(gpu);
    if (!m || !g)
        return Error{"fleet", name + ": unknown model or GPU"};
    const TrainingSpec& ts = w->training;
    const int mp = ts.tp * ts.pp * ts.cp;
    if (mp < 1 || gpus % mp != 0)
        return Error{"fleet", name + " runs TP " + std::to_string(ts.tp) + " × PP " +
                                  std::to_string(ts.pp) + " × CP " + std::to_string(ts.cp) +
                                  ": the class's " + std::to_string(gpus) +
                                  " GPUs per job are not a multiple of " + std::to_string(mp)};
    auto tr = train_step(*m, ts, gpus, *g, fabric, d.assumptions.training, ca, d.assumptions.memory,
                         0, false);
    if (!tr)
        return Error{"fleet", name + " on " + std::to_string(gpus) +
                                  " GPUs: " + errors_for_people(tr.error_text())};
    if (!tr->memory.fits)
        return Error{"fleet",
                     name + " does not fit in memory on " + std::to_string(gpus) + " GPUs per job"};
    if (!(tr->tokens_per_s > 0))
        return Error{"fleet", name + ": no throughput on " + std::to_string(gpus) + " GPUs"};
    return ts.tokens / tr->tokens_per_s / 3600.0;
}

int fleet_nodes_per_leaf(const Topology& fabric, int nodes) {
    // What leaf-aware placement packs a multi-node job into: the nodes one leaf switch reaches.
    if (fabric.tiers.empty() || !(fabric.tiers.front().nodes_below_one_switch >= 1))
        return 0;
    return static_cast<int>(
        std::min<double>(nodes, std::floor(fabric.tiers.front().nodes_below_one_switch + 0.5)));
}

Result<double> fleet_burst_rate(const Design& d, const TcoResult& tco) {
    const Commitment want =
        d.fleet.burst_to == BurstCapacity::spot ? Commitment::spot : Commitment::on_demand;
    for (const auto& o : tco.cloud_options)
        if (o.commitment == want)
            return o.rate_per_gpu_hour;
    if (want == Commitment::on_demand && tco.has_cloud && d.economics.price_per_gpu_hour > 0)
        return d.economics.price_per_gpu_hour; // a typed price is an on-demand price
    if (want == Commitment::spot)
        return Error{
            "fleet.burst_to",
            "bursting to spot needs a cloud offer with a spot price (" +
                (tco.cloud_offer_name.empty() ? std::string("none chosen") : tco.cloud_offer_name) +
                " has none): choose one in the Cost section, or burst on demand"};
    return Error{"fleet.burst_to", "no on-demand cloud price: " + tco.cloud_missing};
}

Result<FleetSpec> fleet_spec(const Design& d, const TopologySummary& t, const Catalog* cat,
                             const Topology* fabric, const CollectiveAssumptions* ca) {
    if (t.gpus < 1 || t.nodes < 1)
        return Error{"fleet", "the design has no GPUs to schedule jobs on"};
    const double per = t.gpus / t.nodes;
    if (per != std::floor(per) || per > 1024 || t.nodes > 1e7)
        return Error{"fleet", "the drawn GPUs are not whole nodes of the same size"};
    const FleetMix& m = d.fleet;
    FleetSpec s;
    s.nodes = static_cast<int>(t.nodes);
    s.gpus_per_node = static_cast<int>(per);
    s.policy = m.policy;
    s.peak_hour = m.peak_hour;
    s.topology_aware = m.topology_aware;
    s.leaf_required = m.leaf_required;
    s.quota_borrowing = m.quota_borrowing;
    if (fabric)
        s.nodes_per_leaf = fleet_nodes_per_leaf(*fabric, s.nodes);
    s.horizon_days = m.horizon_days;
    s.warmup_days = m.warmup_days;
    s.seed = static_cast<std::uint64_t>(std::max<std::int64_t>(0, m.seed));
    s.burst_after_s = m.burst_after_h * 3600;
    if (m.burst_to == BurstCapacity::spot) // the Cost section's spot inputs, as the TCO's spot
        s.burst_redo_per_node = d.economics.spot_preemptions_per_node_day / 24.0 *
                                d.economics.spot_lost_hours_per_preemption;
    s.restart_s = d.reliability.restart_s; // an evicted job restarts as a failed one does
    if (m.failures) {
        // The Reliability section's per-node rate, else Llama 3's per-GPU rate times the GPUs of
        // a node (Grattafiori et al. 2024 sec. 3.3.4: 419 interruptions, 16,384 GPUs, 54 days).
        const double per_1000_node_days = d.reliability.node_failures_per_1000_node_days > 0
                                              ? d.reliability.node_failures_per_1000_node_days
                                              : llama3_node_failures_per_1000_node_days(per);
        s.node_failures_per_hour = per_1000_node_days / 1000.0 / 24.0;
        s.repair_h = d.reliability.repair_hours;
    }
    if (m.mig_nodes > 0) {
        if (!gpu_has_mig(t.gpu))
            return Error{"fleet", "MIG nodes: " + (t.gpu_name.empty() ? t.gpu : t.gpu_name) +
                                      " has no MIG (NVIDIA MIG user guide: A100, H100, H200, "
                                      "B200 and GB200 have it)"};
        if (m.mig_nodes > s.nodes)
            return Error{"fleet", "MIG nodes: " + std::to_string(m.mig_nodes) +
                                      " of the cluster's " + std::to_string(s.nodes) + " nodes"};
        s.mig_nodes = static_cast<int>(m.mig_nodes);
        s.mig_instances_per_gpu = mig_instances_per_gpu(m.mig_profile);
        s.mig_partition = m.mig_profile;
        s.mig_profile = mig_profile_name(m.mig_profile, t.hbm_bytes / t.gpus);
    }
    if (m.timeslice_nodes > 0) {
        if (m.timeslice_nodes + std::max<std::int64_t>(0, m.mig_nodes) > s.nodes)
            return Error{"fleet", "Time-sliced nodes: " + std::to_string(m.timeslice_nodes) +
                                      (m.mig_nodes > 0
                                           ? " plus " + std::to_string(m.mig_nodes) + " MIG nodes"
                                           : std::string()) +
                                      " is more than the cluster's " + std::to_string(s.nodes) +
                                      " nodes"};
        if (m.timeslice_replicas < 1 || m.timeslice_replicas > 1024)
            return Error{"fleet",
                         "Replicas per time-sliced GPU: " + std::to_string(m.timeslice_replicas) +
                             " is not between 1 and 1024"};
        s.timeslice_nodes = static_cast<int>(m.timeslice_nodes);
        s.timeslice_replicas = static_cast<int>(m.timeslice_replicas);
        if (!(m.timeslice_efficiency >= 0.05 && m.timeslice_efficiency <= 1))
            return Error{"fleet", "Time-sliced GPU throughput when shared: " +
                                      units::format_count(m.timeslice_efficiency * 100) +
                                      " % is not between 5 % and 100 %"};
        s.timeslice_efficiency = m.timeslice_efficiency;
        s.gpu_memory_bytes = t.hbm_bytes / t.gpus; // one GPU's memory (the catalog's)
        s.gpu_name = t.gpu_name.empty() ? t.gpu : t.gpu_name;
    }
    // An imported trace replaces the classes: its jobs arrive as recorded (issue 23).
    // Its jobs take whole GPUs: MIG nodes stay partitioned and idle, as time-sliced nodes do
    // (the Fleet caption says so and how to give them to the trace; helper-36: the replay was
    // refused outright when the mix had MIG nodes).
    if (m.trace.jobs) {
        s.trace = m.trace.jobs;
        return s;
    }
    struct Named {
        const JobClassMix* c;
        const char* name;
        const char* path; ///< the design's key, for refusals
    };
    const Named classes[] = {{&m.training, "Training runs", "fleet.training"},
                             {&m.finetune, "Fine-tunes", "fleet.finetune"},
                             {&m.batch_inference, "Batch inference", "fleet.batch_inference"},
                             {&m.online, "Online services", "fleet.online"},
                             {&m.interactive, "Notebooks and CI", "fleet.interactive"}};
    for (const auto& [c, name, path] : classes) {
        if (!(c->arrival_rate_per_hour > 0))
            continue;
        FleetClass k;
        k.name = name;
        k.path = path;
        k.gpus_per_job = c->gpus_per_job;
        k.arrival_rate_per_hour = c->arrival_rate_per_hour;
        k.mean_duration_h = c->mean_duration_h;
        k.priority = c->priority;
        k.preemptible = c->preemptible;
        k.checkpoint_interval_h = c->checkpoint_interval_h;
        k.daily_swing = c->daily_swing;
        k.weekend_factor = c->weekend_factor;
        k.mig = c->on_mig;
        k.time_sliced = c->time_sliced;
        k.gpu_busy = c->gpu_busy;
        k.gpu_memory_bytes = c->gpu_memory_bytes;
        k.quota_gpus = c->quota_gpus;
        k.borrow_cap_gpus = c->borrow_cap_gpus;
        k.keep_gpus = c->keep_gpus;
        if (k.mig && k.time_sliced) // said first: no other setting makes both work
            return Error{"fleet", std::string(name) + ": on MIG instances or on time-sliced GPUs, "
                                                      "not both"};
        if (!c->duration_from.empty()) {
            // The training model's time for the workload on this class's GPUs (issue 23).
            if (!cat || !fabric)
                return Error{"fleet", std::string(name) + ": a duration from a workload needs the "
                                                          "design's catalog and fabric"};
            if (k.mig)
                return Error{"fleet", std::string(name) + ": a job on one MIG instance does not "
                                                          "run a training workload's layout"};
            if (k.time_sliced)
                return Error{"fleet", std::string(name) + ": a job on one time-sliced GPU does "
                                                          "not run a training workload's layout"};
            auto h = training_hours_on(d, *cat, *fabric, ca ? *ca : CollectiveAssumptions{}, t.gpu,
                                       c->duration_from, k.gpus_per_job);
            if (!h)
                return Error{"fleet", std::string(name) + ": duration from " + h.error_text()};
            k.mean_duration_h = h.value();
            const Workload* src = d.workload(c->duration_from);
            k.duration_source = "the training model: " + (src->name.empty() ? src->id : src->name) +
                                " on " + std::to_string(k.gpus_per_job) + " GPUs";
            // Split over two leaf switches (what leaf-aware placement gives a job no larger
            // than a leaf when no leaf has room): the same job with its nodes in two halves,
            // so the groups over more than half of them cross the leaf uplinks and the spine.
            const int job_nodes = (k.gpus_per_job + s.gpus_per_node - 1) / s.gpus_per_node;
            if (job_nodes > 1 && s.nodes_per_leaf >= job_nodes && fabric->tiers.size() >= 2) {
                Topology split = *fabric;
                split.tiers.front().nodes_below_one_switch = job_nodes / 2;
                auto hs = training_hours_on(d, *cat, split, ca ? *ca : CollectiveAssumptions{},
                                            t.gpu, c->duration_from, k.gpus_per_job);
                if (hs && hs.value() > k.mean_duration_h)
                    k.split_slowdown = hs.value() / k.mean_duration_h;
            }
        }
        // A quota below one job is refused by simulate_fleet, with the class's name.
        if (k.mig && m.mig_nodes < 1)
            return Error{"fleet", std::string(name) +
                                      " run on MIG instances: set MIG nodes (how many nodes have "
                                      "their GPUs partitioned)"};
        if (k.time_sliced && m.timeslice_nodes < 1)
            return Error{"fleet", std::string(name) +
                                      " run on time-sliced GPUs: set time-sliced nodes (how many "
                                      "nodes share their GPUs by time-slicing)"};
        const long long whole =
            static_cast<long long>(s.nodes - s.mig_nodes - s.timeslice_nodes) * s.gpus_per_node;
        if (!k.mig && !k.time_sliced && k.gpus_per_job > whole)
            return Error{"fleet", std::string(name) + " need " + std::to_string(k.gpus_per_job) +
                                      " GPUs per job; the cluster has " + std::to_string(whole) +
                                      (s.mig_nodes > 0 || s.timeslice_nodes > 0
                                           ? " whole GPUs outside its MIG and time-sliced nodes"
                                           : "") +
                                      ": set " + name + ": GPUs per job to " +
                                      std::to_string(whole) + " or fewer, or draw more nodes"};
        s.classes.push_back(k);
    }
    if (s.classes.empty())
        return Error{"fleet", "no job class has arrivals"};
    return s;
}

std::vector<FleetNodeCard> fleet_node_cards(const Design& d, const Catalog& c) {
    std::vector<FleetNodeCard> out;
    const DesignIndex idx(d);
    double next = 0;
    for (const auto& dev : d.devices) {
        double n = 0;
        if (dev.kind == DeviceKind::system) {
            if (const SystemSpec* s = c.system(dev.catalog)) {
                const GpuSpec* g = c.gpu(s->gpu);
                n = g ? idx.multiplicity(dev) * s->gpus / std::max(1, g->gpus_per_node)
                      : idx.multiplicity(dev);
            }
        } else if (dev.kind == DeviceKind::server) {
            n = idx.multiplicity(dev);
        }
        if (n < 1)
            continue;
        out.push_back({dev.id, static_cast<int>(next), static_cast<int>(n)});
        next += n;
    }
    return out;
}

std::vector<FleetJobCard> fleet_job_cards(const std::vector<FleetNodeCard>& cards,
                                          const FleetAllocJob& job) {
    std::vector<FleetJobCard> out;
    for (const auto& c : cards) {
        int here = 0;
        for (const auto& [n, g] : job.nodes)
            here += n >= c.first && n < c.first + c.count;
        if (here > 0)
            out.push_back({c.device, here, c.count});
    }
    return out;
}

Evaluation evaluate(const Design& design, const Catalog& catalog) {
    Evaluation ev;
    TopologySummary& t = ev.topology;
    std::set<std::string> gpu_types;
    const DesignIndex idx(design);       // O(1) lookups and multiplicities (issue 17 item 8)
    t.gpu = design_gpu(design, catalog); // the same rule the offer that follows a swap uses
    for (const auto& dev : design.devices) {
        const double mult = idx.multiplicity(dev);
        switch (dev.kind) {
        case DeviceKind::gpu:
            if (const GpuSpec* g = catalog.gpu(dev.catalog)) {
                t.gpus += mult;
                t.hbm_bytes += mult * g->memory_bytes;
                t.peak_bf16_flops += mult * g->peak(Dtype::bf16);
                gpu_types.insert(g->id);
                const Device* parent = idx.device(dev.parent);
                if (!parent || parent->kind != DeviceKind::system)
                    t.power_w += mult * g->tdp_w;
            }
            break;
        case DeviceKind::system:
            if (const SystemSpec* s = catalog.system(dev.catalog)) {
                t.power_w += mult * s->power_w;
                if (const GpuSpec* g = catalog.gpu(s->gpu)) {
                    const double n = mult * s->gpus;
                    t.gpus += n;
                    t.hbm_bytes += n * g->memory_bytes;
                    t.peak_bf16_flops += n * g->peak(Dtype::bf16);
                    gpu_types.insert(g->id);
                    // GB200 NVL72 is one rack of 18 compute trays (4 GPUs each): nodes are the
                    // unit that fails, so count trays (gpus_per_node from the catalog).
                    t.nodes += n / std::max(1, g->gpus_per_node);
                } else {
                    t.nodes += mult;
                }
                t.scaleup_domain_size = std::max(t.scaleup_domain_size, s->gpus);
            }
            break;
        case DeviceKind::server:
            t.nodes += mult;
            break;
        case DeviceKind::switch_: {
            const SwitchSpec* s = catalog.switch_spec(dev.catalog);
            if (!s || s->cls != SwitchClass::nvswitch)
                t.switches += mult;
            break;
        }
        default:
            break;
        }
    }
    t.gpu_types = static_cast<int>(gpu_types.size());
    if (const GpuSpec* g = catalog.gpu(t.gpu))
        t.gpu_name = g->name.empty() ? g->id : g->name;
    if (t.scaleup_domain_size == 0 && !t.gpu.empty())
        if (const GpuSpec* g = catalog.gpu(t.gpu))
            t.scaleup_domain_size = g->scaleup_domain;
    if (t.gpu_types > 1)
        t.warnings.push_back("the design mixes " + std::to_string(t.gpu_types) +
                             " GPU types; workloads use the first type found in their placement");
    if (t.gpus == 0)
        t.warnings.push_back(
            "no GPUs yet: drag a server, a GPU or a workstation device from the palette onto the "
            "canvas");
    ev.fabric = analyze_topology(design, catalog);
    if (ev.fabric.scaleup_domain > 0)
        t.scaleup_domain_size = ev.fabric.scaleup_domain;
    t.warnings.insert(t.warnings.end(), ev.fabric.warnings.begin(), ev.fabric.warnings.end());
    for (const auto& c : design.calibration) {
        if (c.tier < 0 || c.tier > 3 || (c.segments.empty() && c.tier > 1))
            continue;
        auto& cal = ev.collective_assumptions.calibration;
        if (cal.size() < static_cast<std::size_t>(c.tier) + 1)
            cal.resize(static_cast<std::size_t>(c.tier) + 1);
        TierCalibration tc;
        if (c.segments.empty()) {
            tc.alpha_s = c.alpha_s;
            tc.beta_Bps = c.beta_Bps;
        }
        for (const auto& s : c.segments)
            tc.segments.push_back({s.min_bytes, s.max_bytes, s.alpha_scale, s.beta_scale});
        cal[static_cast<std::size_t>(c.tier)] = std::move(tc);
    }
    ev.allreduce_curves = allreduce_curves(ev.fabric, ev.collective_assumptions);
    // Issue 22: with a calibration, each measured group gets its curve (the spine group of a
    // 256-GPU run even where the tiers' own curves stop below it), the model before the fit
    // beside it, and the measured points on it.
    if (!design.calibration.empty()) {
        for (const auto& c : design.calibration) {
            if (c.ranks < 2 || c.points.empty() || c.ranks > ev.fabric.gpus)
                continue;
            const bool have =
                std::any_of(ev.allreduce_curves.begin(), ev.allreduce_curves.end(),
                            [&](const CollectiveCurve& k) { return k.gpus == c.ranks; });
            if (!have)
                if (auto k = allreduce_curve(
                        ev.fabric, ev.collective_assumptions,
                        "measured group (" + std::to_string(c.ranks) + " GPUs)", c.ranks))
                    ev.allreduce_curves.push_back(std::move(*k));
        }
        CollectiveAssumptions plain = ev.collective_assumptions;
        plain.calibration.clear();
        for (auto& k : ev.allreduce_curves) {
            const GroupPlacement p = place_group(ev.fabric, k.gpus, 1);
            for (const double b : k.bytes) {
                auto r = collective_time(CollectiveOp::allreduce, b, ev.fabric, p,
                                         CollectiveAlgo::automatic, plain);
                k.uncalibrated_busbw_Bps.push_back(r ? r->busbw_Bps : 0.0);
            }
            for (const auto& c : design.calibration) {
                if (c.ranks != k.gpus)
                    continue;
                const auto op = collective_op_from_name(c.op).value_or(CollectiveOp::allreduce);
                const double factor = busbw_factor(op, c.ranks);
                // The points were measured on the fabric of the time; say so when it changed
                // (helper-15: dots at 180 GB/s under a 1:1 curve at 340 read as a misfit).
                if (std::abs(c.oversubscription - p.oversubscription) >
                    0.01 * std::max(1.0, p.oversubscription)) {
                    char buf[96];
                    // The ratio is the group's path's, not the fabric's headline one: on a
                    // rail-optimized 2:1 tree a 256-GPU ring stays on its rail leaves, 1:1
                    // (helper-24 read "measured at 1.00:1" on a 2:1 fabric as wrong).
                    std::snprintf(buf, sizeof buf,
                                  "measured on a %.3g:1 path; the fabric has changed since",
                                  c.oversubscription);
                    k.measured_on = buf;
                }
                for (const auto& q : c.points) {
                    k.measured_bytes.push_back(q[0]);
                    k.measured_busbw_Bps.push_back(factor * q[0] / q[1]);
                }
            }
        }
    }
    // Issue 19: each curve's band from comparable published collectives, unless the user's own
    // measurements (the calibration) stand behind it.
    if (design.calibration.empty())
        if (const GpuSpec* g = catalog.gpu(ev.fabric.gpu))
            for (auto& c : ev.allreduce_curves) {
                // The band depends on the size only through "latency-bound or not": two bands
                // per curve (the evaluation stays well under a millisecond).
                const Band small = band_for(collective_case(*g, c.gpus, kBandwidthBoundBytes / 2));
                const Band large = band_for(collective_case(*g, c.gpus, 0));
                for (std::size_t k = 0; k < c.bytes.size(); ++k) {
                    const Band& b = c.bytes[k] < kBandwidthBoundBytes ? small : large;
                    const auto [lo, hi] = band_range(c.busbw_Bps[k], b, Scales::with_speed);
                    c.busbw_low_Bps.push_back(lo);
                    c.busbw_high_Bps.push_back(hi);
                }
            }

    // Cost of the whole design (docs/cost.md) and the storage it draws.
    for (const Device& dev : design.devices)
        if (dev.kind == DeviceKind::storage)
            ev.storage_Bps += idx.multiplicity(dev) * dev.storage_bandwidth_Bps;
    // The job mix first (issue 23): its utilization is what the TCO bills when it feeds it.
    if (design.fleet.active()) {
        auto spec = fleet_spec(design, t, &catalog, &ev.fabric, &ev.collective_assumptions);
        auto fr = spec ? simulate_fleet(spec.value()) : Result<FleetResult>(spec.errors());
        if (fr)
            ev.fleet = std::move(fr).value();
        else
            // For people (the Fleet tab): the design's key ("fleet", "fleet.finetune.keep_gpus")
            // left out -- each text names the class it is about (helper-14).
            for (const Error& e : fr.errors()) {
                const bool design_key = e.where == "fleet" || e.where.rfind("fleet.", 0) == 0;
                ev.fleet_error += (ev.fleet_error.empty() ? "" : "; ") +
                                  (design_key || e.where.empty() ? e.what : e.message());
            }
        if (ev.fleet && design.fleet.trace.jobs) {
            ev.fleet->trace_name = design.fleet.trace.name;
            ev.fleet->trace_jobs = static_cast<std::int64_t>(design.fleet.trace.jobs->jobs.size());
        }
    }
    if (t.gpus >= 1) {
        const CostInventory inv = design_inventory(design, catalog);
        Economics e = design.economics;
        const bool fed = ev.fleet && design.fleet.feed_tco && ev.fleet->utilization > 0;
        if (fed)
            e.utilization = std::clamp(ev.fleet->utilization, 0.001, 1.0);
        // An offer for other GPUs prices nothing: the cloud side is left out with the reason
        // and owning is still costed (issue 21: the TCO was all or nothing).
        const std::string mismatch = offer_mismatch(design, catalog, t.gpu);
        if (auto tco = compute_tco(
                inv, e, mismatch.empty() ? design_offer(design, catalog, t.gpu) : nullptr)) {
            ev.tco = std::move(tco).value();
            if (!mismatch.empty()) {
                ev.tco->cloud_missing = mismatch;
                ev.tco->cloud_price_source.clear();
            }
            if (fed)
                ev.tco->utilization_source =
                    design.fleet.trace.jobs ? kFleetTraceSource : kFleetMixSource;
        } else {
            // What and why, without the CLI flag it came with ("--server-price: ...").
            ev.tco_error = tco.errors().front().what;
            if (!mismatch.empty() && ev.tco_error.find("no cloud price") != std::string::npos)
                ev.tco_error.replace(ev.tco_error.find("no cloud price"), std::string::npos,
                                     mismatch);
        }
        if (ev.fleet)
            ev.fleet->burst_on_spot = design.fleet.burst_to == BurstCapacity::spot;
        if (ev.fleet && ev.fleet->burst_gpu_hours > 0) {
            if (!ev.tco || !ev.tco->has_cloud) {
                ev.fleet->burst_unpriced =
                    ev.tco ? ev.tco->cloud_missing : "the design's cost is not computed";
            } else if (auto rate = fleet_burst_rate(design, *ev.tco)) {
                ev.fleet->burst_usd_per_gpu_hour = *rate;
                ev.fleet->burst_usd = ev.fleet->burst_gpu_hours * *rate;
            } else {
                ev.fleet->burst_unpriced = rate.errors().front().what;
            }
        }
        // Bursting at the simulated rate over the TCO's months: the cloud bill owning this
        // cluster brings with it (helper-36: the Fleet tab's $143k was in no Cost figure).
        if (ev.tco && ev.fleet && ev.fleet->burst_usd > 0 && ev.fleet->gpu_hours_available > 0)
            ev.fleet->burst_usd_tco_months = ev.fleet->burst_usd * t.gpus * 730.0 *
                                             design.economics.months /
                                             ev.fleet->gpu_hours_available;
        // The cost per useful GPU-hour: owning the cluster over the horizon / the GPU-hours the
        // mix kept busy, less the restarts and redone work that preemption and failures cost
        // and what time-sliced GPUs spent switching between jobs.
        if (ev.tco && ev.tco->has_onprem && ev.fleet && ev.fleet->useful_fraction > 0)
            ev.fleet->useful_gpu_hour_usd =
                ev.tco->onprem_usd /
                (t.gpus * 730.0 * design.economics.months * ev.fleet->useful_fraction);
    }

    for (std::size_t index = 0; index < design.workloads.size(); ++index) {
        const Workload& w = design.workloads[index];
        WorkloadEvaluation we;
        we.id = w.id;
        we.name = w.name.empty() ? w.id : w.name;
        we.kind = w.kind;
        if (w.placement.empty()) {
            we.gpus = t.gpus;
            we.gpu = t.gpu;
        } else {
            for (const auto& pid : w.placement)
                if (const Device* dev = idx.device(pid))
                    we.gpus += gpus_in(idx, catalog, *dev, &we.gpu);
        }
        we.model = w.model;
        const ModelArch* m = find_model(design, catalog, w.model);
        we.model_name = m && !m->name.empty() ? m->name : w.model;
        const GpuSpec* g = catalog.gpu(we.gpu);
        if (!m)
            we.error = "unknown model \"" + w.model + "\"";
        else if (!g || we.gpus < 1)
            we.error = "the workload is placed on no GPUs";
        else if (we.gpus > 2e9)
            we.error = "too many GPUs to model (" + std::to_string(we.gpus) + ")";
        else if (w.kind == WorkloadKind::training) {
            auto mem = training_memory(*m, w.training, static_cast<int>(we.gpus), *g,
                                       design.assumptions.memory);
            if (mem) {
                const TrainingMemory& tm = mem.value();
                we.memory = {tm.per_gpu, tm.capacity_bytes, tm.headroom_bytes,
                             tm.fits,    tm.worst_stage,    tm.explanation};
                we.memory.label_bytes = g->usable_memory_bytes > 0 ? g->memory_bytes : 0;
                we.has_memory = true;
                we.training_memory = tm;
            } else {
                we.error = design_errors(mem.errors(), index, w.kind);
            }
            // GPUs with no path between them cannot form the job's groups.
            if (we.error.empty()) {
                std::vector<std::string> entries;
                for (const auto& r : ev.fabric.reach)
                    for (const auto& pid : w.placement)
                        if (related(design, idx, r.id, pid)) {
                            entries.push_back(r.id);
                            break;
                        }
                if (w.placement.empty() || !entries.empty()) {
                    const std::string why = unreachable(ev.fabric, entries, we.gpus);
                    if (!why.empty())
                        we.error = "does not run: " + why;
                }
            }
            // Step time only for layouts that fit: a number for a job that cannot run misleads.
            if (we.error.empty() && we.has_memory && we.memory.fits &&
                w.training.global_batch > 0) {
                const double price = gpu_hour_price(design, catalog, ev);
                if (auto tr = train_step(*m, w.training, static_cast<int>(we.gpus), *g, ev.fabric,
                                         design.assumptions.training, ev.collective_assumptions,
                                         design.assumptions.memory, price)) {
                    const TrainingResult& r = tr.value();
                    if (const std::string why = cabling_error(
                            ev.fabric,
                            top_tier({r.tp_group, r.cp_group, r.dp_group,
                                      w.training.ep > 1 ? r.ep_group : GroupPlacement{},
                                      w.training.pp > 1 ? r.pp_group : GroupPlacement{}}));
                        !why.empty()) {
                        we.error = "does not run: " + why;
                    } else {
                        we.training = tr.value();
                        we.band = band_for(training_case(*m, w.training, *g, we.gpus));
                    }
                } else
                    we.error = design_errors(tr.errors(), index, w.kind); // e.g. no network path
            }
            // Scaling curve: the same TP x PP x CP layout and global batch on DP = 1, 2, 4, ...
            // up to the placed GPUs (strong scaling, as a cluster planner asks "what do more
            // GPUs buy?"), on the drawn fabric.
            if (we.training) {
                const int mp = w.training.tp * w.training.pp * w.training.cp;
                const int dp_now = static_cast<int>(we.gpus) / std::max(1, mp);
                for (int dp = 1; dp <= dp_now; dp *= 2) {
                    if (w.training.global_batch % dp != 0)
                        continue;
                    TrainingSpec ts = w.training;
                    if (ts.micro_batch > 0 && (ts.global_batch / dp) % ts.micro_batch != 0)
                        ts.micro_batch = 0;
                    auto tr =
                        train_step(*m, ts, mp * dp, *g, ev.fabric, design.assumptions.training,
                                   ev.collective_assumptions, design.assumptions.memory, 0, false);
                    if (tr)
                        we.scaling.push_back({static_cast<double>(mp * dp), tr->tokens_per_s,
                                              tr->mfu, tr->memory.fits});
                }
                if (we.scaling.empty() || we.scaling.back().gpus != we.gpus)
                    we.scaling.push_back(
                        {we.gpus, we.training->tokens_per_s, we.training->mfu, true});
                // Issue 19: each point's band, from runs comparable at that scale.
                for (auto& p : we.scaling) {
                    const Band b = band_for(training_case(*m, w.training, *g, p.gpus));
                    std::tie(p.tokens_per_s_low, p.tokens_per_s_high) =
                        band_range(p.tokens_per_s, b, Scales::with_speed);
                }
            }
            // Reliability of this job: its GPUs, checkpoint, storage and run length -- only for
            // a job that can run (goodput and dollars lost of a job that does not fit or has no
            // network path would mislead).
            if (we.error.empty() && we.has_memory && we.memory.fits) {
                ReliabilityContext rc;
                rc.gpus = we.gpus;
                rc.gpus_per_node = std::max(1, ev.fabric.gpus_per_node > 0 ? ev.fabric.gpus_per_node
                                                                           : g->gpus_per_node);
                rc.checkpoint_bytes = checkpoint_bytes(*m, w.training);
                rc.design_storage_Bps = ev.storage_Bps;
                rc.price_per_gpu_hour = gpu_hour_price(design, catalog, ev);
                if (we.training) {
                    rc.tokens_per_s = we.training->tokens_per_s;
                    rc.step_time_s = we.training->step_time_s;
                    rc.run_days = we.training->time_to_train_s / 86400.0;
                }
                if (auto rr = compute_reliability(design.reliability, rc))
                    we.reliability = std::move(rr).value();
                else if (we.error.empty())
                    we.error = rr.error_text(); // e.g. inputs that make the MTBF overflow
                if (we.training && we.training->gpu_hours > 0 && ev.tco)
                    we.run_cost = run_cost(*ev.tco, design.economics, we.training->gpu_hours);
            }
            RooflineInputs ri;
            ri.dtype = to_dtype(w.training.dtype);
            ri.phase = Phase::prefill;
            ri.training = true;
            ri.batch = std::max(1, w.training.micro_batch);
            ri.seq = w.training.seq;
            ri.tp = w.training.tp;
            if (auto rl = roofline(*m, *g, ri))
                we.roofline = rl.value();
        } else {
            const InferenceSpec& s = w.inference;
            if (s.mode == ServingMode::online) {
                we.ttft_slo_s = s.ttft_slo_s;
                we.tpot_slo_s = s.tpot_slo_s;
            }
            const int replica = s.tp * s.pp;
            if (replica > we.gpus)
                we.error = "a replica needs TP × PP = " + std::to_string(replica) +
                           " GPUs but the workload is placed on " +
                           std::to_string(static_cast<long long>(we.gpus)) +
                           ": lower TP or PP, or place it on more GPUs";
            else if (std::string refusal = engine_device_refusal(s.engine, *g); !refusal.empty())
                we.error = design_errors({Error{"--engine", std::move(refusal)}}, index, w.kind);
            else if (auto mem =
                         inference_memory(*m, s, *g, design.assumptions.memory,
                                          s.speculative_draft.empty()
                                              ? nullptr
                                              : find_model(design, catalog, s.speculative_draft))) {
                const InferenceMemory& im = mem.value();
                we.memory = {im.per_gpu, im.usable_bytes, im.headroom_bytes, im.fits,
                             0,          im.explanation};
                we.memory.label_bytes = g->usable_memory_bytes > 0 ? g->memory_bytes : 0;
                we.has_memory = true;
                we.inference_memory = im;
                if (im.fits) {
                    const double price = gpu_hour_price(design, catalog, ev);
                    // Speculative decoding with the draft model of the design (Leviathan 2023).
                    SpeculativeSpec spec;
                    if (const ModelArch* dm = find_model(design, catalog, s.speculative_draft)) {
                        spec.draft = dm;
                        spec.k = s.speculative_k;
                        spec.acceptance = s.acceptance;
                    }
                    if (auto ir =
                            infer(*m, s, *g, ev.fabric, price, spec, design.assumptions.inference,
                                  ev.collective_assumptions, design.assumptions.memory)) {
                        we.inference = ir.value();
                        // Issue 22: where one replica's decode step sends its traffic.
                        InferenceResult& inf = *we.inference;
                        inf.max_batch_without_attention_dp = max_batch_without_attention_dp(
                            *m, s, *g, design.assumptions.memory, spec.draft);
                        inf.traffic = serving_traffic(*m, s, *g, ev.fabric, inf.batch,
                                                      ev.collective_assumptions);
                        inf.tiers =
                            tier_loads(inf.traffic, ev.fabric, inf.decode_step_s, &inf.bottleneck);
                        // Session 44: the engine's measured all-reduce that times this
                        // workload's TP all-reduces, beside NCCL's model on the Fabric chart
                        // (once per engine, release and group size).
                        if (const EngineAllReduce* a = serving_tp_allreduce(
                                *m, s, *g, ev.fabric, ev.collective_assumptions)) {
                            CollectiveCurve k;
                            k.name = engine_allreduce_label(*a) + " all-reduce, measured (" +
                                     std::to_string(a->gpus) + " GPUs)";
                            k.gpus = a->gpus;
                            k.engine_measured = true;
                            const double f = busbw_factor(CollectiveOp::allreduce, a->gpus);
                            for (const auto& [bytes, secs] : a->points) {
                                k.bytes.push_back(bytes);
                                k.time_s.push_back(secs);
                                k.busbw_Bps.push_back(f * bytes / secs);
                            }
                            if (std::none_of(
                                    ev.allreduce_curves.begin(), ev.allreduce_curves.end(),
                                    [&](const CollectiveCurve& c) { return c.name == k.name; }))
                                ev.allreduce_curves.push_back(std::move(k));
                        }
                        we.band = band_for(serving_case(*m, s, *g));
                        int top = 0;
                        for (const auto& gt : inf.traffic)
                            top = std::max(top, gt.tier);
                        if (const std::string why = cabling_error(ev.fabric, top); !why.empty()) {
                            we.error = "does not run: " + why;
                            we.inference.reset();
                            we.band.reset();
                        }
                    } else {
                        we.error = design_errors(ir.errors(), index, w.kind);
                    }
                    if (we.inference) {
                        // On the cloud price's basis: the decode GPU-hours of a million output
                        // tokens at the amortized on-prem rate (helper-11: it charged all GPU
                        // time, prefill too, to output tokens: $0.412 beside the cloud's
                        // $0.569 compared unlike with like).
                        if (ev.tco && ev.tco->has_onprem)
                            we.onprem_usd_per_million_output_tokens =
                                ev.tco->amortized_usd_per_gpu_hour *
                                we.inference->gpu_hours_per_million_output_tokens;
                        we.inference_curve = latency_throughput_curve(
                            *m, s, *g, ev.fabric, im.max_batch, 64, price,
                            design.assumptions.inference, ev.collective_assumptions, spec,
                            design.assumptions.memory);
                        // Issue 19: the band along the curve (the Inference chart shades it).
                        for (auto& p : we.inference_curve) {
                            std::tie(p.output_tokens_per_s_low, p.output_tokens_per_s_high) =
                                band_range(p.output_tokens_per_s, *we.band, Scales::with_speed);
                            std::tie(p.tpot_low_s, p.tpot_high_s) =
                                band_range(p.tpot_s, *we.band, Scales::with_time);
                        }
                    }
                }
            } else {
                we.error = design_errors(mem.errors(), index, w.kind);
            }
            RooflineInputs ri;
            ri.dtype = s.weights_dtype == WeightsDtype::fp8 ? Dtype::fp8 : Dtype::bf16;
            ri.phase = Phase::decode;
            ri.batch = std::max(1, we.inference_memory ? we.inference_memory->batch : 1);
            ri.seq = s.input_len + s.output_len / 2;
            ri.tp = s.tp;
            if (auto rl = roofline(*m, *g, ri))
                we.roofline = rl.value();
        }
        ev.workloads.push_back(std::move(we));
    }
    // Issue 21: separate machines each running their own workloads (workstations side by side)
    // are not a wiring mistake: when every workload is placed on GPUs that reach each other, the
    // design-wide "no path" warning goes (a workload that spans unconnected GPUs keeps its own
    // error).
    if (!design.workloads.empty() &&
        std::all_of(design.workloads.begin(), design.workloads.end(), [&](const Workload& w) {
            if (w.placement.empty())
                return false;
            std::vector<std::string> entries;
            for (const auto& r : ev.fabric.reach)
                for (const auto& pid : w.placement)
                    if (related(design, idx, r.id, pid)) {
                        entries.push_back(r.id);
                        break;
                    }
            double gpus = 0;
            for (const auto& r : ev.fabric.reach)
                if (std::find(entries.begin(), entries.end(), r.id) != entries.end())
                    gpus += r.replicas * r.gpus_per_replica;
            return !entries.empty() && unreachable(ev.fabric, entries, gpus).empty();
        }))
        std::erase_if(ev.topology.warnings, [](const std::string& x) {
            return x.rfind("some GPUs have no path between them", 0) == 0;
        });
    ev.findings = find_problems(design, ev);
    return ev;
}

} // namespace cl::model
