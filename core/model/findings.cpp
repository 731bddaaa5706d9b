#include "model/findings.h"

#include "model/evaluate.h"
#include "model/schema.h"
#include "model/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

namespace cl::model {

std::string errors_for_people(const std::string& text) {
    std::istringstream in(text);
    std::string line, out;
    while (std::getline(in, line)) {
        const auto colon = line.find(": ");
        if (line.rfind("workloads[", 0) == 0 && colon != std::string::npos) {
            const std::string path = line.substr(0, colon);
            const auto dot = path.rfind('.');
            const std::string key = dot == std::string::npos ? path : path.substr(dot + 1);
            const Section sec = path.find(".training.") != std::string::npos    ? Section::training
                                : path.find(".inference.") != std::string::npos ? Section::inference
                                                                                : Section::workload;
            if (const Field* f = find_field(sec, key))
                line = f->label + line.substr(colon);
        }
        out += (out.empty() ? "" : "\n") + line;
    }
    return out;
}

namespace {
std::string for_people(const std::string& text) {
    return errors_for_people(text);
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

bool contains(const std::vector<std::string>& ids, const std::string& id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

} // namespace

Findings find_problems(const Design& d, const Evaluation& ev) {
    Findings out;
    const auto& tiers = ev.fabric.tiers;
    // Devices of an oversubscribed tier; the tier's uplinks (links to the next tier up).
    for (const auto& st : tiers) {
        if (st.oversubscription <= 1.0 + 1e-9)
            continue;
        for (const auto& id : st.device_ids) {
            auto& f = out.devices[id];
            if (f.oversubscription >= st.oversubscription)
                continue;
            f.oversubscription = st.oversubscription;
            f.badge = "⚠ " + units::format_g(st.oversubscription, 3) + ":1";
            f.note = "The " + st.name + " tier is oversubscribed " +
                     units::format_g(st.oversubscription, 3) + ":1 (down / up bandwidth)";
        }
        if (static_cast<std::size_t>(st.level) >= tiers.size())
            continue; // the top tier has no uplinks
        const auto& next = tiers[static_cast<std::size_t>(st.level)].device_ids;
        for (const auto& l : d.links) {
            const bool touches = contains(st.device_ids, l.from) || contains(st.device_ids, l.to);
            const bool up = contains(next, l.from) || contains(next, l.to);
            if (!touches || !up)
                continue;
            auto& f = out.links[l.id];
            f.bottleneck = true;
            f.oversubscription = st.oversubscription;
            f.tier = st.name;
            f.note = "Bottleneck: uplinks of the " + st.name + " tier are oversubscribed " +
                     units::format_g(st.oversubscription, 3) + ":1";
        }
    }

    // A switch tier that needs more ports than its switches have (issue 22: a leaf using 74 of
    // 64 ports only showed as a line in the design inspector): the card says so first.
    for (const auto& st : tiers) {
        if (st.ports_per_switch <= 0 || st.ports_used_per_switch <= st.ports_per_switch + 1e-9)
            continue;
        const std::string used = fixed(st.ports_used_per_switch, 0);
        const std::string has = std::to_string(st.ports_per_switch);
        for (const auto& id : st.device_ids) {
            auto& f = out.devices[id];
            const std::string before = f.note;
            f.badge = "⚠ " + used + "/" + has + " ports";
            f.note = "Each " + st.name + " switch needs " + used +
                     " ports (links down and up) "
                     "but has " +
                     has +
                     ": add switches of this tier or use fewer links per "
                     "switch; until then the links cannot all be cabled";
            if (!before.empty())
                f.note += "\n" + before;
        }
    }

    // Issue 22: each switch link's tier: an uplink from tier L to L + 1 is tier L + 1 (2 = leaf
    // to spine); a link from a tier-L switch to a node is tier L (1 = node to leaf).
    for (const auto& l : d.links) {
        int lo = 0, hi = 0;
        for (const auto& st : tiers)
            if (contains(st.device_ids, l.from) || contains(st.device_ids, l.to)) {
                lo = lo == 0 ? st.level : std::min(lo, st.level);
                hi = std::max(hi, st.level);
            }
        if (hi > 0)
            out.link_tiers[l.id] = hi > lo ? hi : lo;
    }

    // Issue 22: a workload placed on some servers loads only the links on their way up: the
    // node-to-leaf links of those servers, then the uplinks of the leaves they reach, and so on.
    // (A link between replicated entries stands for all their cables: it stays on the way.)
    if (!out.link_tiers.empty()) {
        const DesignIndex idx(d);
        for (const auto& w : d.workloads) {
            if (w.placement.empty())
                continue;
            const std::set<std::string> placed(w.placement.begin(), w.placement.end());
            std::set<std::string> on; // devices on the way
            for (const auto& dev : d.devices) {
                // Placed: the device, a group or server containing it, or a GPU inside it.
                std::vector<const Device*> chain;
                bool hit = false;
                for (const Device* p = &dev; p && chain.size() < 64;
                     p = p->parent.empty() ? nullptr : idx.device(p->parent)) {
                    chain.push_back(p);
                    hit = hit || placed.count(p->id) > 0;
                }
                if (hit)
                    for (const Device* p : chain)
                        on.insert(p->id);
            }
            auto& links = out.placed_links[w.id];
            for (int tier = 1; tier <= 3; ++tier) {
                std::vector<std::string> reached;
                for (const auto& l : d.links) {
                    const auto t = out.link_tiers.find(l.id);
                    if (t == out.link_tiers.end() || t->second != tier ||
                        (!on.count(l.from) && !on.count(l.to)))
                        continue;
                    links.insert(l.id);
                    reached.push_back(l.from);
                    reached.push_back(l.to);
                }
                on.insert(reached.begin(), reached.end());
            }
        }
    }

    for (const auto& w : d.workloads) {
        WorkloadFinding f;
        const WorkloadEvaluation* we = nullptr;
        for (const auto& x : ev.workloads)
            if (x.id == w.id)
                we = &x;
        // The model by its name (the zoo id is for files and flags).
        const std::string model = we && !we->model_name.empty() ? we->model_name : w.model;
        std::string whole_layout; // serving: the layout line with the model's name whole
        if (w.kind == WorkloadKind::training)
            f.layout = model + " · TP " + std::to_string(w.training.tp) + " PP " +
                       std::to_string(w.training.pp) + " · seq " +
                       units::format_count(w.training.seq) + " · ZeRO " +
                       std::to_string(w.training.zero);
        else {
            // How an MoE model's experts and attention are split (helper-48: the card hid EP
            // and attention DP, which move every number on it).
            std::string split;
            if (we && we->inference && we->inference->expert_parallel > 1)
                split += ", EP " + std::to_string(we->inference->expert_parallel);
            const bool moe_split = we && we->inference &&
                                   we->inference->expert_parallel * we->inference->expert_tp > 1;
            if (moe_split && w.inference.attention_dp)
                split += ", attention DP";
            // With the split said, the card's one line gives it first and drops the model's
            // "(MoE)" aside and the word "serving" (its tok/s say it): "TP 8, EP 8, attention
            // DP · Qwen3 235B-A22B" -- after the model name it was cut at "att…", and the card's
            // tooltip and the inspector name the model whole.
            std::string name = model;
            const std::string aside = " (MoE)";
            if (name.ends_with(aside))
                name.erase(name.size() - aside.size());
            f.layout = split.empty()
                           ? model + " · TP " + std::to_string(w.inference.tp) + " · serving"
                           : "TP " + std::to_string(w.inference.tp) + split + " · " + name;
            whole_layout = model + " · TP " + std::to_string(w.inference.tp) + split;
        }
        f.verdict = "not evaluated";
        if (we && we->has_memory && we->memory.fits && !we->error.empty()) {
            f.status = WorkloadStatus::error; // fits in memory but cannot run (no network path)
            f.verdict = for_people(we->error);
        } else if (we && we->has_memory) {
            f.status = we->memory.fits ? WorkloadStatus::fits : WorkloadStatus::does_not_fit;
            f.verdict = we->memory.explanation;
        } else if (we && !we->error.empty()) {
            f.status = WorkloadStatus::error;
            f.verdict = for_people(we->error);
        }
        f.tooltip = f.verdict;
        if (we && we->inference) {
            const auto& inf = *we->inference;
            f.metrics =
                (inf.output_tokens_per_s < 100 ? fixed(inf.output_tokens_per_s, 1)
                                               : units::format_count(inf.output_tokens_per_s)) +
                " tok/s · TPOT " + fixed(inf.tpot_s * 1e3, units::ms_decimals(inf.tpot_s * 1e3)) +
                " ms · TTFT " + fixed(inf.ttft_s * 1e3, units::ms_decimals(inf.ttft_s * 1e3)) +
                " ms";
            f.tooltip = whole_layout + "\nTTFT " +
                        fixed(inf.ttft_s * 1e3, units::ms_decimals(inf.ttft_s * 1e3)) +
                        " ms, TPOT " +
                        fixed(inf.tpot_s * 1e3, units::ms_decimals(inf.tpot_s * 1e3)) + " ms, " +
                        units::format_count(inf.output_tokens_per_s) + " tokens/s per replica";
            if (inf.usd_per_million_output_tokens > 0)
                f.tooltip += ", $" + units::format_price(inf.usd_per_million_output_tokens) +
                             " per M output tokens";
            if (we->band) { // issue 19: how far to trust them
                // Output tokens/s first (what the service delivers), with its band; TPOT after.
                const double tps = inf.output_tokens_per_s;
                const int dec = tps < 100 ? 1 : 0;
                // The band in parentheses, as the training card has it (helper-48: "8,000 tok/s,
                // 3,885–8,636" read as a second figure; the far card drops what is in them).
                f.metrics = (dec ? fixed(tps, 1) : units::format_count(tps)) + " tok/s (" +
                            range_text(tps, *we->band, Scales::with_speed, dec) + ") · TPOT " +
                            fixed(inf.tpot_s * 1e3, units::ms_decimals(inf.tpot_s * 1e3)) + " ms";
                f.tooltip +=
                    "\nModel's error band: TTFT " +
                    range_text(inf.ttft_s * 1e3, *we->band, Scales::with_time, &units::format_ms) +
                    " ms, TPOT " +
                    range_text(inf.tpot_s * 1e3, *we->band, Scales::with_time, &units::format_ms) +
                    " ms, output " +
                    range_text(inf.output_tokens_per_s, *we->band, Scales::with_speed, 0) +
                    " tokens/s";
                if (inf.usd_per_million_output_tokens > 0)
                    f.tooltip += ", $" +
                                 range_text(inf.usd_per_million_output_tokens, *we->band,
                                            Scales::with_time, &units::format_price) +
                                 " per M output tokens";
                f.tooltip += " (" + we->band->basis + ")";
            }
        }
        if (we && we->training) {
            const auto& r = *we->training;
            f.metrics = "step " + fixed(r.step_time_s, 1) + " s · MFU " + fixed(r.mfu * 100, 1) +
                        " % · " + units::format_si(r.tokens_per_s, "", 0) + "tok/s";
            f.tooltip = "Step " + fixed(r.step_time_s, 3) + " s, " +
                        units::format_count(r.tokens_per_s) + " tokens/s, MFU " +
                        fixed(r.mfu * 100, 1) + " %, memory " +
                        units::format_bytes(we->memory.per_gpu.total()) + " of " +
                        units::format_bytes(we->memory.capacity_bytes) + " per GPU";
            if (we->band) { // issue 19: how far to trust them
                const int dec = r.step_time_s < 10 ? 2 : 1;
                // The band with its unit (helper-12: "step 7.60 s, 5.51–9.53" read as two
                // numbers, the second without a unit).
                f.metrics = "step " + fixed(r.step_time_s, dec) + " s (" +
                            range_text(r.step_time_s, *we->band, Scales::with_time,
                                       &units::format_seconds) +
                            " s) · MFU " + fixed(r.mfu * 100, 1) + " %";
                f.tooltip += "\nModel's error band: step " +
                             range_text(r.step_time_s, *we->band, Scales::with_time,
                                        &units::format_seconds) +
                             " s, " + range_text(r.tokens_per_s, *we->band, Scales::with_speed, 0) +
                             " tokens/s, MFU " +
                             range_text(r.mfu * 100, *we->band, Scales::with_speed, 1) + " % (" +
                             we->band->basis + ")";
            }
        }
        // A TP group larger than the scale-up domain has no NVLink path.
        if (w.kind == WorkloadKind::training && ev.fabric.scaleup_domain > 0 &&
            w.training.tp > ev.fabric.scaleup_domain) {
            f.badge = "⚠ TP > NVLink";
            f.tooltip = "The TP group (" + std::to_string(w.training.tp) +
                        " GPUs) is larger than the NVLink domain (" +
                        std::to_string(ev.fabric.scaleup_domain) +
                        "): its all-reduces cross the scale-out network.";
        }
        out.workloads[w.id] = std::move(f);
    }

    // Two services on the same GPUs (helper-18: nothing said so): each is computed as if it had
    // them to itself. Services run all the time, so any overlap oversubscribes the GPUs; other
    // workloads count only when both are placed (an unplaced training job and an unplaced
    // service on the same cluster are alternatives people compare).
    if (d.workloads.size() >= 2) {
        const DesignIndex idx(d);
        // The GPU-holding devices each workload covers: placed, or inside a placed device.
        std::vector<std::set<std::string>> covered(d.workloads.size());
        for (std::size_t i = 0; i < d.workloads.size(); ++i) {
            const auto& pl = d.workloads[i].placement;
            const std::set<std::string> placed(pl.begin(), pl.end());
            for (const auto& dev : d.devices) {
                if (dev.kind != DeviceKind::gpu && dev.kind != DeviceKind::system)
                    continue;
                bool hit = placed.empty();
                int depth = 0;
                for (const Device* p = &dev; p && !hit && depth < 64;
                     p = p->parent.empty() ? nullptr : idx.device(p->parent), ++depth)
                    hit = placed.count(p->id) > 0;
                if (hit)
                    covered[i].insert(dev.id);
            }
        }
        const auto name_of = [&](const Workload& w) { return w.name.empty() ? w.id : w.name; };
        for (std::size_t i = 0; i < d.workloads.size(); ++i)
            for (std::size_t j = i + 1; j < d.workloads.size(); ++j) {
                const Workload &a = d.workloads[i], &b = d.workloads[j];
                const bool services =
                    a.kind == WorkloadKind::inference && b.kind == WorkloadKind::inference;
                if (!services && (a.placement.empty() || b.placement.empty()))
                    continue;
                std::string where;
                for (const auto& id : covered[i])
                    if (covered[j].count(id)) {
                        const Device* dev = idx.device(id);
                        where = dev && !dev->name.empty() ? dev->name : id;
                        break;
                    }
                if (where.empty())
                    continue;
                // Memory on the shared GPUs (helper-22: both cards said "fits" although together
                // they need more than a GPU has; a serving engine claims its share of memory up
                // front, so two on one GPU each assume the whole share).
                std::string together;
                const WorkloadEvaluation *ea = nullptr, *eb = nullptr;
                for (const auto& x : ev.workloads) {
                    if (x.id == a.id)
                        ea = &x;
                    if (x.id == b.id)
                        eb = &x;
                }
                if (ea && eb && ea->has_memory && eb->has_memory) {
                    // A serving engine allocates its whole KV pool at start-up (vLLM's
                    // gpu_memory_utilization, SGLang's mem_fraction_static, TensorRT-LLM's
                    // kv_cache_free_gpu_mem_fraction), however few sequences it then runs.
                    const auto claimed = [](const WorkloadEvaluation& e) {
                        MemoryBreakdown m = e.memory.per_gpu;
                        if (e.inference_memory)
                            m.kv_cache = std::max(
                                m.kv_cache, e.inference_memory->kv_capacity_tokens *
                                                e.inference_memory->kv_bytes_per_token_per_gpu);
                        return m;
                    };
                    const MemoryBreakdown ma = claimed(*ea), mb = claimed(*eb);
                    SharedGpus sg;
                    sg.first = a.id;
                    sg.second = b.id;
                    sg.name = name_of(a) + " + " + name_of(b);
                    sg.where = where;
                    sg.together = {ma.weights + mb.weights,     ma.gradients + mb.gradients,
                                   ma.optimizer + mb.optimizer, ma.activations + mb.activations,
                                   ma.kv_cache + mb.kv_cache,   ma.other + mb.other};
                    const double sum = sg.together.total();
                    sg.capacity_bytes =
                        std::min(ea->memory.capacity_bytes, eb->memory.capacity_bytes);
                    sg.fits = sum <= sg.capacity_bytes;
                    together = " Together they need " + units::format_bytes(sum) + " of " +
                               units::format_bytes(sg.capacity_bytes) + " per GPU" +
                               (sg.fits ? "." : ": they do not fit together.");
                    sg.text =
                        "Together on " + where + ", " + name_of(a) + " and " + name_of(b) +
                        " need " + units::format_bytes(sum) + " of " +
                        units::format_bytes(sg.capacity_bytes) + " per GPU" +
                        (sg.fits ? ", " + units::format_bytes(sg.capacity_bytes - sum) + " free."
                                 : ": they do not fit together, " +
                                       units::format_bytes(sum - sg.capacity_bytes) + " over.");
                    out.shared.push_back(std::move(sg));
                }
                for (const auto& [self, other] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
                    WorkloadFinding& f = out.workloads[self->id];
                    f.badge = f.badge.empty() ? "⚠ shares GPUs" : f.badge + " · shares GPUs";
                    f.sharing += (f.sharing.empty() ? "" : "\n") +
                                 std::string("Shares GPUs with ") + name_of(*other) + " (both on " +
                                 where + "): each is computed as if it had them to itself." +
                                 together + " Place them on different servers, or add GPUs.";
                    f.tooltip += (f.tooltip.empty() ? "" : "\n") + f.sharing;
                }
            }
    }
    return out;
}

std::optional<double> unset_value(const Field& f, const Evaluation& ev) {
    if (f.unset.empty())
        return std::nullopt;
    std::optional<double> v; // the value the evaluation used, in the field's stored unit
    const ReliabilityResult* rel = nullptr;
    for (const auto& w : ev.workloads)
        if (w.reliability && !rel)
            rel = &*w.reliability;
    const std::string& k = f.key;
    if (rel && k == "node_failures_per_1000_node_days")
        v = rel->node_failures_per_1000_node_days;
    else if (rel && k == "mtbf_hours")
        v = rel->job_mtbf_s / 3600.0;
    else if (rel && k == "storage_bandwidth_Bps")
        v = rel->storage_Bps;
    else if (rel && k == "checkpoint_write_s")
        v = rel->checkpoint_write_s;
    else if (rel && k == "checkpoint_interval_s")
        v = rel->interval_used_s; // the optimum, or the write time when async waits for it
    else if (rel && k == "run_days")
        v = rel->run_days;
    // No training job to compute them for: the rates the design's GPUs get anyway (helper-18:
    // "Auto" with no value).
    else if (!rel && k == "node_failures_per_1000_node_days" && ev.topology.nodes > 0)
        v = llama3_node_failures_per_1000_node_days(ev.topology.gpus / ev.topology.nodes);
    else if (!rel && k == "storage_bandwidth_Bps" && ev.topology.gpus > 0)
        v = ev.storage_Bps > 0 ? ev.storage_Bps : llama3_storage_Bps(ev.topology.gpus);
    else if (ev.tco && ev.tco->has_cloud && k == "price_per_gpu_hour")
        v = ev.tco->cloud_price_per_gpu_hour;
    else if (ev.tco && ev.tco->has_onprem && k == "server_price_usd" &&
             ev.tco->inventory.servers > 0)
        v = ev.tco->inventory.server_capex_usd / ev.tco->inventory.servers;
    else if (ev.tco && k == "network_usd_per_gpu" && ev.tco->inventory.gpus > 0)
        v = (ev.tco->inventory.switch_capex_usd + ev.tco->inventory.cable_capex_usd) /
            ev.tco->inventory.gpus;
    if (v && !std::isfinite(*v))
        v.reset();
    return v;
}

UnsetText unset_text(const Field& f, const Evaluation& ev) {
    if (f.unset.empty())
        return {};
    const std::optional<double> v = unset_value(f, ev);
    if (!v) {
        // A reliability input of a design without a training job has nothing to stand for.
        bool job = false;
        for (const auto& w : ev.workloads)
            job = job || w.reliability.has_value();
        if (f.section == Section::reliability && !job)
            return {"Auto (no training job)",
                    "Auto: " + f.unset + "; computed for a training job (the design has none)"};
        return {f.unset.size() <= 12 ? "Auto (" + f.unset + ")" : "Auto", "Auto: " + f.unset};
    }
    const double shown = *v / f.display_scale;
    // Large values read whole with separators ("Auto: 310,000", not "310000.00").
    const std::string value =
        std::abs(shown) >= 1000 ? units::format_count(shown) : fixed(shown, f.decimals);
    const std::string unit = f.display_unit.empty() ? "" : " " + f.display_unit;
    // Money reads as money ("Auto: $310,000", helper-18: "Auto: 310,000" had no unit); a unit
    // reads beside the number as a typed value shows it ("Auto: 3.09 h": helper-22 saw no unit),
    // unless it is long enough to be in the field's label (unit_in_label); the tooltip has both.
    // Per what, as a typed value reads ("Auto: $4,341/GPU" beside "$184.00/kW-month";
    // helper-32: "Auto: $4,341" did not say per what).
    if (f.display_unit.rfind("USD", 0) == 0)
        return {"Auto: $" + value + (unit_in_label(f.display_unit) ? "" : unit.substr(4)),
                "Auto: $" + value + unit.substr(4) + ", " + f.unset};
    return {"Auto: " + value + (unit_in_label(f.display_unit) ? "" : unit),
            "Auto: " + value + unit + ", " + f.unset};
}

OverrideText override_text(const Field& f, const Evaluation& ev) {
    if (f.section != Section::economics || f.key != "utilization" || !ev.tco ||
        ev.tco->utilization_source == "economics.utilization")
        return {};
    const std::string pct = fixed(ev.tco->utilization * 100.0, 1) + " %";
    return {"fleet's " + pct + " billed",
            "Not billed: the TCO uses " + pct + ", the utilization from " +
                ev.tco->utilization_source +
                ". The value typed here is kept; it is billed when the Fleet section's \"Bill "
                "the simulated utilization\" is off."};
}

namespace {
/// The traffic a workload puts on the fabric: a training job's per step, a serving
/// deployment's per decode step (one replica).
struct LoadOf {
    const WorkloadEvaluation* w = nullptr;
    const std::vector<TierLoad>* tiers = nullptr;
    const std::string* bottleneck = nullptr;
    const char* period = "";
};
LoadOf load_of(const Evaluation& ev, const std::string& workload) {
    for (const auto& w : ev.workloads) {
        if (w.id != workload)
            continue;
        if (w.training && w.training->step_time_s > 0)
            return {&w, &w.training->tiers, &w.training->bottleneck, "the step"};
        if (w.inference && w.inference->decode_step_s > 0)
            return {&w, &w.inference->tiers, &w.inference->bottleneck, "the decode step"};
    }
    return {};
}
std::string percent(double f) {
    return fixed(f * 100, 0) + " %";
}
} // namespace

std::optional<LinkLoad> link_load(const Evaluation& ev, const std::string& workload,
                                  const std::string& link) {
    const auto t = ev.findings.link_tiers.find(link);
    const LoadOf l = load_of(ev, workload);
    if (t == ev.findings.link_tiers.end() || !l.w)
        return std::nullopt;
    LinkLoad out;
    const std::string where = tier_link_name(t->second);
    if (const auto pl = ev.findings.placed_links.find(workload);
        pl != ev.findings.placed_links.end() && !pl->second.count(link)) {
        out.note = where + ": no traffic of " + l.w->name + " (not on its servers' way)";
        return out;
    }
    for (const auto& tl : *l.tiers)
        if (tl.tier == t->second) {
            out.busy = tl.busy;
            out.note = where + ": carries " + tl.groups + " of " + l.w->name + ", " +
                       units::format_bytes(tl.bytes) + " per GPU per " +
                       (l.w->training ? "step" : "decode step") + ", busy " + percent(tl.busy) +
                       " of " + l.period;
            if (tl.oversubscription > 1.0 + 1e-9)
                out.note += " (" + units::format_g(tl.oversubscription, 3) + ":1 oversubscribed)";
            return out;
        }
    out.note = where + ": no traffic of " + l.w->name + " (its groups stay below this tier)";
    return out;
}

std::string load_legend(const Evaluation& ev, const std::string& workload) {
    const LoadOf l = load_of(ev, workload);
    // Nothing to colour (one GPU, no collectives): no legend (helper-27: a workstation's single
    // card showed a link-load legend over the canvas).
    if (!l.w || !l.tiers || l.tiers->empty())
        return {};
    std::string s = "Link load of " + l.w->name +
                    ": green under 30 %, amber 30-70 %, red 70 % or more of " + l.period + " busy";
    if (!l.bottleneck->empty())
        s += "\nBusiest: " + *l.bottleneck;
    else
        s += "\nIts groups stay inside the scale-up domains";
    return s;
}

std::string bottleneck_legend(const Evaluation& ev) {
    const LinkFinding* worst = nullptr;
    for (const auto& [id, f] : ev.findings.links)
        if (f.bottleneck && (!worst || f.oversubscription > worst->oversubscription))
            worst = &f;
    if (!worst)
        return {};
    return "Red links: uplinks of the " + worst->tier + " tier, oversubscribed " +
           units::format_g(worst->oversubscription, 3) +
           ":1 (the fabric's bottleneck)\nA workload that runs colours the links by its traffic";
}

std::string default_load_workload(const Evaluation& ev) {
    for (const auto& w : ev.workloads)
        if ((w.training && !w.training->tiers.empty()) ||
            (w.inference && !w.inference->tiers.empty()))
            return w.id;
    return {};
}

} // namespace cl::model
