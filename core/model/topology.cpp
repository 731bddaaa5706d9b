#include "model/topology.h"

#include "model/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

namespace cl::model {

namespace {

GpuArch arch_of(const GpuSpec& g) {
    // NCCL's tuning tables are indexed by compute capability: Ampere (sm80/86/89 incl. Ada),
    // Hopper (sm90), Blackwell (sm100). Other vendors use the Ampere row (an assumption).
    const std::string& a = g.arch;
    if (a.find("Hopper") != std::string::npos)
        return GpuArch::hopper;
    if (a.find("Blackwell") != std::string::npos)
        return GpuArch::blackwell;
    if (a.find("Ampere") != std::string::npos || a.find("Ada") != std::string::npos)
        return GpuArch::ampere;
    return GpuArch::other;
}

/// The scale-up side of a topology once its domain size is known: one rule for drawn designs
/// and shapes. `sys` is the system whose NVSwitch generation decides NVLS (none: no switch).
/// `pcie_domain`: the domain is a server's GPUs without NVLink, which reach each other over
/// PCIe (NCCL's P2P or SHM transport through the host's PCIe fabric).
void set_scaleup(Topology& t, const GpuSpec* gpu, const SystemSpec* sys, const Catalog& c,
                 bool pcie_domain = false) {
    if (gpu) {
        t.gpu = gpu->id;
        t.gpu_arch = arch_of(*gpu);
        t.scaleup_Bps_per_gpu = gpu->scaleup_bandwidth_unidir_Bps;
        t.scaleup_link = gpu->scaleup_link;
        t.pair_Bps = gpu->scaleup_bandwidth_unidir_Bps;
        if (const LinkSpec* l = c.link(gpu->scaleup_link); l && l->per_gpu_unidir_Bps > 0) {
            // A full mesh (xGMI) gives a pair one link; a switched fabric gives the whole port.
            if (gpu->scaleup_link.rfind("xgmi", 0) == 0)
                t.pair_Bps = l->bandwidth_unidir_Bps;
        }
    }
    // NVLink SHARP needs an NVSwitch of generation 3 or later inside a real domain.
    t.nvswitch = sys && t.scaleup_domain > 1 && !sys->nvswitch.empty();
    t.nvls = t.nvswitch && (sys->nvswitch == "nvswitch-gen3" || sys->nvswitch == "nvswitch-gen4");
    if (pcie_domain || t.scaleup_domain <= 1 || t.scaleup_Bps_per_gpu <= 0) {
        t.pcie_only = true;
        t.nvswitch = t.nvls = false;
        if (gpu)
            if (const LinkSpec* p = c.link(gpu->pcie_link)) {
                t.scaleup_Bps_per_gpu = p->bandwidth_unidir_Bps;
                t.pair_Bps = p->bandwidth_unidir_Bps;
            }
    }
}

std::string fmt_ratio(double r) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g:1", r);
    return buf;
}

struct NodeEntry {
    const Device* dev = nullptr;
    double replicas = 0; ///< multiplicity
    double gpus_per_replica = 0;
    int domain = 1;    ///< GPUs per scale-up domain inside one replica
    bool pcie = false; ///< the domain is the box's GPUs over PCIe (no NVLink)
};

/// GPUs in one replica of a compute entry, and the GPU type.
double entry_gpus(const DesignIndex& d, const Catalog& c, const Device& dev, std::string* gpu,
                  int depth = 0) {
    if (depth > 64)
        return 0;
    if (dev.kind == DeviceKind::gpu) {
        if (gpu->empty())
            *gpu = dev.catalog;
        return 1;
    }
    double n = 0;
    if (dev.kind == DeviceKind::system)
        if (const SystemSpec* s = c.system(dev.catalog); s && !s->gpu.empty()) {
            if (gpu->empty())
                *gpu = s->gpu;
            n += s->gpus;
        }
    for (const Device* ch : d.children(dev.id))
        if (ch->kind == DeviceKind::gpu || ch->kind == DeviceKind::server ||
            ch->kind == DeviceKind::system)
            n += static_cast<double>(ch->count) * entry_gpus(d, c, *ch, gpu, depth + 1);
    return n;
}

bool is_ancestor(const Design& design, const DesignIndex& d, const Device& dev,
                 const std::string& ancestor) {
    const Device* cur = &dev;
    for (std::size_t guard = 0; cur && !cur->parent.empty() && guard <= design.devices.size();
         ++guard) {
        if (cur->parent == ancestor)
            return true;
        cur = d.device(cur->parent);
    }
    return false;
}

} // namespace

Topology analyze_topology(const Design& d, const Catalog& c) {
    Topology t;
    const DesignIndex idx(d); // O(1) lookups: the loops below stay linear in the design
    // Device position -> 0 (compute node) or switch tier, -1 for neither: indexed by position
    // (string-keyed maps were half of this function at 100,000 devices).
    std::vector<int> level(d.devices.size(), -1);
    const auto pos_of = [&](std::string_view id) -> std::ptrdiff_t {
        const Device* dev = idx.device(id);
        return dev ? static_cast<std::ptrdiff_t>(idx.position(*dev)) : -1;
    };
    std::vector<NodeEntry> nodes;
    const GpuSpec* gpu = nullptr;
    const SystemSpec* first_system = nullptr;

    // 1. Compute node entries: systems, servers, and GPUs not inside a server or system.
    for (const auto& dev : d.devices) {
        const Device* parent = idx.device(dev.parent);
        const bool inside_box =
            parent && (parent->kind == DeviceKind::server || parent->kind == DeviceKind::system);
        const bool compute = dev.kind == DeviceKind::system || dev.kind == DeviceKind::server ||
                             (dev.kind == DeviceKind::gpu && !inside_box);
        if (!compute || inside_box)
            continue;
        std::string gid;
        NodeEntry e;
        e.dev = &dev;
        e.replicas = idx.multiplicity(dev);
        e.gpus_per_replica = entry_gpus(idx, c, dev, &gid);
        if (e.gpus_per_replica <= 0)
            continue;
        const GpuSpec* g = c.gpu(gid);
        if (g && !gpu)
            gpu = g;
        if (dev.kind == DeviceKind::system) {
            const SystemSpec* s = c.system(dev.catalog);
            if (s && !first_system)
                first_system = s;
            e.domain = (s && !s->scaleup_link.empty()) ? s->gpus : 1;
        } else if (g) {
            e.domain = std::min(static_cast<int>(e.gpus_per_replica), g->scaleup_domain);
        }
        // A box of GPUs without NVLink: its GPUs still reach each other, over PCIe (NCCL's P2P
        // or SHM transport), a domain of the whole box at the PCIe link's rate -- not a network
        // between one-GPU domains (which a box without NICs does not have: its TP collectives
        // were refused, and serving counted them as free).
        const bool nvlink =
            dev.kind == DeviceKind::system
                ? (c.system(dev.catalog) && !c.system(dev.catalog)->scaleup_link.empty())
                : (g && g->scaleup_domain > 1);
        if (dev.kind != DeviceKind::gpu && !nvlink && e.gpus_per_replica > 1) {
            e.domain = static_cast<int>(e.gpus_per_replica);
            e.pcie = true;
        }
        level[idx.position(dev)] = 0;
        nodes.push_back(e);
        t.gpus += e.replicas * e.gpus_per_replica;
    }
    if (gpu)
        t.gpus_per_node = gpu->gpus_per_node;
    // NVLink domains decide the scale-up side when the design has any (a PCIe box beside them
    // does not turn them into PCIe); PCIe boxes only when there are none.
    bool nvlink_domain = false;
    for (const auto& e : nodes)
        nvlink_domain = nvlink_domain || (!e.pcie && e.domain > 1);
    t.scaleup_domain = 0;
    bool pcie_domain = false;
    for (const auto& e : nodes) {
        if (nvlink_domain && e.pcie)
            continue;
        t.scaleup_domain = std::max(t.scaleup_domain, e.domain);
        pcie_domain = pcie_domain || e.pcie;
    }
    set_scaleup(t, gpu, first_system, c, pcie_domain);
    // Nodes are the failure unit (GB200: 4-GPU trays); the CLI's --gpus-per-node default.
    for (const auto& e : nodes) {
        const int gpn = std::max(1, std::min(t.gpus_per_node > 0 ? t.gpus_per_node : 8,
                                             static_cast<int>(e.gpus_per_replica)));
        t.nodes += e.replicas * std::ceil(e.gpus_per_replica / gpn);
    }

    // 2. Switch tiers by breadth-first search from the compute entries over links.
    // Links by endpoint position (a link to an unknown id joins nothing).
    std::vector<std::pair<std::ptrdiff_t, std::ptrdiff_t>> ends(d.links.size());
    std::vector<std::vector<std::size_t>> adj(d.devices.size());
    for (std::size_t i = 0; i < d.links.size(); ++i) {
        ends[i] = {pos_of(d.links[i].from), pos_of(d.links[i].to)};
        if (ends[i].first >= 0)
            adj[static_cast<std::size_t>(ends[i].first)].push_back(i);
        if (ends[i].second >= 0)
            adj[static_cast<std::size_t>(ends[i].second)].push_back(i);
    }
    std::vector<std::size_t> frontier;
    for (const auto& e : nodes)
        frontier.push_back(idx.position(*e.dev));
    for (int lv = 1; !frontier.empty() && lv < 16; ++lv) {
        std::vector<std::size_t> next;
        for (const std::size_t at : frontier)
            for (const std::size_t li : adj[at]) {
                const auto [a, b] = ends[li];
                const std::ptrdiff_t o = a == static_cast<std::ptrdiff_t>(at) ? b : a;
                if (o < 0)
                    continue; // the other end is not a device of this design
                const auto other = static_cast<std::size_t>(o);
                if (d.devices[other].kind != DeviceKind::switch_ || level[other] >= 0)
                    continue;
                level[other] = lv;
                next.push_back(other);
            }
        frontier = std::move(next);
    }
    int top = 0;
    for (const int lv : level)
        top = std::max(top, lv);
    t.tiers.resize(static_cast<std::size_t>(top));
    static const char* names[] = {"leaf", "spine", "core", "tier 4", "tier 5", "tier 6"};
    std::vector<double> down_links(static_cast<std::size_t>(top)),
        up_links(static_cast<std::size_t>(top));
    for (int lv = 1; lv <= top; ++lv) {
        SwitchTier& st = t.tiers[static_cast<std::size_t>(lv - 1)];
        st.level = lv;
        st.name = names[std::min(lv - 1, 5)];
    }
    for (std::size_t i = 0; i < d.devices.size(); ++i) {
        const Device& dev = d.devices[i];
        if (level[i] <= 0)
            continue;
        SwitchTier& st = t.tiers[static_cast<std::size_t>(level[i] - 1)];
        st.switches += idx.multiplicity(dev);
        st.device_ids.push_back(dev.id);
        if (const SwitchSpec* s = c.switch_spec(dev.catalog))
            st.ports_per_switch = std::max(st.ports_per_switch, s->ports);
    }
    for (const auto& dev : d.devices)
        if (dev.kind == DeviceKind::switch_) {
            const SwitchSpec* s = c.switch_spec(dev.catalog);
            if (!s || s->cls != SwitchClass::nvswitch)
                t.switches += idx.multiplicity(dev);
        }

    // 3. Bandwidth per tier and per node from the links.
    // Node entry position -> scale-out links per replica.
    std::vector<double> node_links(d.devices.size(), 0.0);
    for (std::size_t li = 0; li < d.links.size(); ++li) {
        const Link& l = d.links[li];
        const auto [pa, pb] = ends[li];
        const LinkSpec* ls = c.link(l.type);
        if (pa < 0 || pb < 0 || !ls)
            continue;
        const auto ua = static_cast<std::size_t>(pa), ub = static_cast<std::size_t>(pb);
        if (level[ua] < 0 || level[ub] < 0)
            continue;
        const Device* from = &d.devices[ua];
        const double links = idx.multiplicity(*from) * static_cast<double>(l.count);
        const double bw = links * ls->bandwidth_unidir_Bps;
        int lo = level[ua], hi = level[ub];
        const std::size_t lo_at = lo <= hi ? ua : ub;
        const bool lo_is_from = lo <= hi;
        if (lo > hi)
            std::swap(lo, hi);
        if (lo == hi)
            continue; // same-tier links (switch peering) do not change the up/down balance
        if (lo == 0) {
            if (lo_is_from)
                node_links[lo_at] += static_cast<double>(l.count);
            else
                node_links[lo_at] += links / std::max(1.0, idx.multiplicity(d.devices[lo_at]));
            if (t.nic_Bps == 0) {
                t.nic_Bps = ls->bandwidth_unidir_Bps;
                t.scaleout_link = ls->id;
            } else if (t.scaleout_link != ls->id) {
                t.warnings.push_back("compute nodes use different scale-out links (" +
                                     t.scaleout_link + ", " + ls->id + ")");
            }
        } else {
            t.tiers[static_cast<std::size_t>(lo - 1)].up_Bps += bw;
            up_links[static_cast<std::size_t>(lo - 1)] += links;
        }
        t.tiers[static_cast<std::size_t>(hi - 1)].down_Bps += bw;
        down_links[static_cast<std::size_t>(hi - 1)] += links;
        // Link speed against the switch's port speed.
        for (const std::string* sid : {&l.from, &l.to}) {
            const Device* sd = idx.device(*sid);
            if (!sd || sd->kind != DeviceKind::switch_)
                continue;
            const SwitchSpec* ss = c.switch_spec(sd->catalog);
            if (ss && ss->port_rate_bps > 0 && ls->port_rate_bps > 0 &&
                std::abs(ss->port_rate_bps - ls->port_rate_bps) > 1.0) {
                const std::string w = "link " + l.id + " (" +
                                      units::format_si(ls->port_rate_bps, "b/s", 0) +
                                      ") does not match " + sd->id + "'s " +
                                      units::format_si(ss->port_rate_bps, "b/s", 0) + " ports";
                if (std::find(t.warnings.begin(), t.warnings.end(), w) == t.warnings.end())
                    t.warnings.push_back(w);
            }
        }
    }
    double injection = 0;
    double nics = 0;
    std::size_t shared_nics = 0;
    std::string shared_nics_text;
    for (const auto& e : nodes) {
        const double per_node = node_links[idx.position(*e.dev)];
        nics = std::max(nics, per_node);
        injection += e.replicas * per_node * t.nic_Bps;
        const double gpn = e.gpus_per_replica;
        if (per_node > 0 && per_node < gpn && gpn >= 8) {
            if (shared_nics == 0)
                shared_nics_text = e.dev->id + ": " + units::format_si(per_node, "", 0) +
                                   "NICs for " + units::format_si(gpn, "", 0) +
                                   "GPUs: GPUs share scale-out bandwidth";
            ++shared_nics;
        }
    }
    // One warning, not one per entry (100,000 servers would list 100,000 lines).
    if (shared_nics == 1)
        t.warnings.push_back(shared_nics_text);
    else if (shared_nics > 1)
        t.warnings.push_back(shared_nics_text + " (and " + std::to_string(shared_nics - 1) +
                             " more server entries)");
    t.nics_per_node = nics;
    if (!nodes.empty()) {
        const double gpn = nodes.front().gpus_per_replica;
        t.scaleout_Bps_per_gpu = gpn > 0 ? nics * t.nic_Bps / gpn : 0;
    }

    // 4. Oversubscription, ports, reach per tier.
    const double total_nodes_entries =
        std::accumulate(nodes.begin(), nodes.end(), 0.0,
                        [](double s, const NodeEntry& e) { return s + e.replicas; });
    for (std::size_t i = 0; i < t.tiers.size(); ++i) {
        SwitchTier& st = t.tiers[i];
        st.oversubscription = st.up_Bps > 0 ? std::max(1.0, st.down_Bps / st.up_Bps) : 1.0;
        if (st.up_Bps > 0)
            t.oversubscription = std::max(t.oversubscription, st.down_Bps / st.up_Bps);
        st.ports_used_per_switch =
            st.switches > 0 ? (down_links[i] + up_links[i]) / st.switches : 0;
        if (st.ports_per_switch > 0 && st.ports_used_per_switch > st.ports_per_switch + 1e-9) {
            char buf[200];
            std::snprintf(buf, sizeof buf, "%s switches use %.0f ports each but have %d",
                          st.name.c_str(), st.ports_used_per_switch, st.ports_per_switch);
            t.warnings.push_back(buf);
        }
        if (i == 0) {
            // Rail-optimised (at least as many leaves as NICs per node, as in step 5 below): a
            // node's NICs spread one per leaf. Fewer leaves than NICs: a node's NICs share one
            // leaf (the generator's non-rail fat tree), so a leaf reaches down / NICs nodes.
            // (A drawn non-rail tree with more leaves than NICs reads as rail-optimised.)
            const double per_node = nics > 0 ? nics : 1.0;
            const double links_per_node_per_leaf =
                nics >= 2 && st.switches < nics
                    ? per_node
                    : std::max(1.0, per_node / std::max(1.0, st.switches));
            st.nodes_below_one_switch =
                st.switches > 0 ? std::min(total_nodes_entries,
                                           down_links[i] / st.switches / links_per_node_per_leaf)
                                : 0;
        } else {
            // A tier inside a replicated group (a pod) reaches the nodes of one replica; with
            // several such groups, the largest.
            st.nodes_below_one_switch = total_nodes_entries;
            double pod_reach = 0;
            bool in_groups = !st.device_ids.empty();
            for (const auto& sid : st.device_ids) {
                const Device* sd = idx.device(sid);
                if (!sd || sd->parent.empty()) {
                    in_groups = false;
                    continue;
                }
                const Device* grp = idx.device(sd->parent);
                if (!grp) {
                    in_groups = false;
                    continue;
                }
                double n = 0;
                for (const auto& e : nodes)
                    if (is_ancestor(d, idx, *e.dev, grp->id))
                        n += e.replicas;
                pod_reach = std::max(pod_reach, n / std::max(1.0, idx.multiplicity(*grp)));
            }
            if (in_groups && pod_reach > 0)
                st.nodes_below_one_switch = pod_reach;
        }
    }
    if (!t.tiers.empty() && t.tiers.front().oversubscription > 1.0 + 1e-9 && t.tiers.size() > 1)
        t.warnings.push_back("leaf tier is oversubscribed " +
                             fmt_ratio(t.tiers.front().oversubscription));
    for (std::size_t i = 1; i < t.tiers.size(); ++i)
        if (t.tiers[i].oversubscription > 1.0 + 1e-9 && i + 1 < t.tiers.size())
            t.warnings.push_back(t.tiers[i].name + " tier is oversubscribed " +
                                 fmt_ratio(t.tiers[i].oversubscription));

    // 5. Bisection (one way): half the traffic of an even split crosses the cut, limited by
    // injection and by each tier's uplinks (Leiserson 1985, fat-trees).
    if (t.nodes > 1 && !t.tiers.empty()) {
        double cap = injection;
        for (const auto& st : t.tiers)
            if (st.up_Bps > 0)
                cap = std::min(cap, st.up_Bps);
        t.bisection_Bps = cap / 2.0;
        t.diameter_hops = 2 * static_cast<int>(t.tiers.size());
    } else if (t.gpus > 0) {
        t.bisection_Bps = t.gpus * t.scaleup_Bps_per_gpu / 2.0;
        t.diameter_hops = t.scaleup_domain > 1 ? 1 : 0;
    }
    // Rail-optimised: a node's NIC links land on as many distinct leaves as it has NICs.
    if (!t.tiers.empty() && nics >= 2 && t.tiers.front().switches >= nics)
        t.rail_optimized = true;

    // 6. Reachability: compute entries joined by links, directly or through switches, form
    // islands; GPUs of different islands (or replicas of an unlinked entry) have no path.
    {
        // Union-find over device positions, with path halving (linear in practice).
        std::vector<std::size_t> parent(d.devices.size());
        std::iota(parent.begin(), parent.end(), std::size_t{0});
        auto root = [&parent](std::size_t x) {
            while (parent[x] != x) {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            return x;
        };
        for (const auto& l : d.links) {
            const Device* a = idx.device(l.from);
            const Device* b = idx.device(l.to);
            if (a && b)
                parent[root(idx.position(*a))] = root(idx.position(*b));
        }
        std::map<std::size_t, int> island_of;
        t.reach.reserve(nodes.size()); // 100,000 nodes: no doubling copies at the peak
        for (const auto& e : nodes) {
            Topology::NodeReach r;
            r.id = e.dev->id;
            r.name = e.dev->name.empty() ? e.dev->id : e.dev->name;
            r.replicas = e.replicas;
            r.gpus_per_replica = e.gpus_per_replica;
            r.linked = !adj[idx.position(*e.dev)].empty();
            r.island =
                island_of.emplace(root(idx.position(*e.dev)), static_cast<int>(island_of.size()))
                    .first->second;
            t.reach.push_back(std::move(r));
        }
        if (t.nodes > 1)
            if (const std::string why = unreachable(t, {}, t.gpus); !why.empty())
                t.warnings.push_back("some GPUs have no path between them (" + why +
                                     "): connect every server to the network");
    }
    for (std::size_t i = 0; i < d.devices.size(); ++i)
        if (const Device& dev = d.devices[i]; dev.kind == DeviceKind::switch_ && adj[i].empty()) {
            const SwitchSpec* s = c.switch_spec(dev.catalog);
            if (!s || s->cls != SwitchClass::nvswitch)
                t.warnings.push_back(dev.id + " is not connected to anything");
        }
    return t;
}

GroupPlacement place_group(const Topology& t, int ranks, int stride) {
    GroupPlacement p;
    p.ranks = std::max(1, ranks);
    stride = std::max(1, stride);
    const int domain = std::max(1, t.scaleup_domain);
    const double span = static_cast<double>(p.ranks) * stride;
    if (span <= domain) {
        p.ranks_per_node = p.ranks;
        p.nodes = 1;
        p.tier = 0;
        return p;
    }
    p.ranks_per_node = std::clamp(domain / stride, 1, p.ranks);
    p.nodes = (p.ranks + p.ranks_per_node - 1) / p.ranks_per_node;
    const double nodes_spanned = std::ceil(span / domain);
    p.tier = static_cast<int>(t.tiers.size());
    for (std::size_t i = 0; i < t.tiers.size(); ++i)
        if (t.tiers[i].nodes_below_one_switch + 1e-9 >= nodes_spanned) {
            p.tier = static_cast<int>(i) + 1;
            break;
        }
    if (t.tiers.empty())
        p.tier = 1;
    for (int i = 0; i + 1 < p.tier && i < static_cast<int>(t.tiers.size()); ++i)
        p.oversubscription =
            std::max(p.oversubscription, t.tiers[static_cast<std::size_t>(i)].oversubscription);
    return p;
}

std::string unreachable(const Topology& t, const std::vector<std::string>& entries, double gpus) {
    const Topology::NodeReach* first = nullptr;
    for (const auto& r : t.reach) {
        if (!entries.empty() && std::find(entries.begin(), entries.end(), r.id) == entries.end())
            continue;
        // Named as the canvas shows them (helper-20: "system1 and system2" where the cards
        // read "HGX H100 8-GPU server"); two cards of one name are counted, not repeated.
        const std::string& nm = r.name.empty() ? r.id : r.name;
        if (!r.linked && r.replicas > 1 && gpus > r.gpus_per_replica)
            return "the " + units::format_si(r.replicas, "", 0) + "replicas of " + nm +
                   " have no scale-out link: their GPUs cannot reach each other";
        if (first && first->island != r.island) {
            const std::string& fn = first->name.empty() ? first->id : first->name;
            return (fn == nm ? "two " + nm + " devices" : fn + " and " + nm) +
                   " are not connected by any link: their GPUs cannot reach each other";
        }
        if (!first)
            first = &r;
    }
    return {};
}

Result<Topology> shape_topology(const GpuSpec& g, const ClusterShape& shape, const Catalog& c) {
    Topology t;
    t.gpus_per_node = shape.gpus_per_node > 0 ? shape.gpus_per_node : g.gpus_per_node;
    t.scaleup_domain = shape.scaleup_domain > 0 ? shape.scaleup_domain : g.scaleup_domain;
    // A node of GPUs without NVLink reaches its GPUs over PCIe (as a drawn box, above), unless
    // the domain is given.
    const bool pcie_domain =
        shape.scaleup_domain <= 0 && g.scaleup_domain <= 1 && t.gpus_per_node > 1;
    if (pcie_domain)
        t.scaleup_domain = t.gpus_per_node;
    set_scaleup(t, &g, c.system(g.reference_system), c, pcie_domain);
    const std::string& link_id =
        shape.scaleout_link.empty() ? g.default_scaleout_link : shape.scaleout_link;
    if (link_id.empty()) {
        // A device without a scale-out network (a workstation card, an edge module): one box,
        // no path to another (collectives that would need one say so).
        if (shape.gpus > 0) {
            t.gpus = shape.gpus;
            t.nodes = std::ceil(shape.gpus / std::max(1, t.gpus_per_node));
        }
        return t;
    }
    const LinkSpec* link = c.link(link_id);
    if (!link || link->cls != LinkClass::scaleout) {
        std::string what = "\"" + link_id + "\" is not a scale-out link type";
        if (auto s = c.closest_id(CatalogKind::links, link_id); !s.empty())
            what += " (did you mean \"" + s + "\"?)";
        return Error{"scaleout_link", what};
    }
    t.scaleout_link = link->id;
    t.nic_Bps = link->bandwidth_unidir_Bps;
    t.nics_per_node = shape.nics_per_node >= 0 ? shape.nics_per_node : g.default_nics_per_node;
    t.scaleout_Bps_per_gpu =
        t.gpus_per_node > 0 ? t.nics_per_node * t.nic_Bps / t.gpus_per_node : 0.0;
    const double R = std::max(1.0, shape.oversubscription);
    SwitchTier leaf;
    leaf.level = 1;
    leaf.name = "leaf";
    leaf.nodes_below_one_switch = R > 1.0 ? 1.0 : 1e18;
    leaf.oversubscription = R;
    t.tiers.push_back(leaf);
    if (R > 1.0) {
        SwitchTier spine;
        spine.level = 2;
        spine.name = "spine";
        spine.nodes_below_one_switch = 1e18;
        t.tiers.push_back(spine);
    }
    t.oversubscription = R;
    if (shape.gpus > 0) {
        t.gpus = shape.gpus;
        t.nodes = std::ceil(shape.gpus / std::max(1, t.gpus_per_node));
    }
    return t;
}

} // namespace cl::model
