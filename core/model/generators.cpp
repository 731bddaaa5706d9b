#include "model/generators.h"
#include "model/units.h"

#include <algorithm>
#include <cmath>

namespace cl::model {

namespace {

Device make(const std::string& id, DeviceKind k, const std::string& cat, std::int64_t count,
            const std::string& name, double x, double y, const std::string& role = {}) {
    Device d;
    d.id = id;
    d.kind = k;
    d.catalog = cat;
    d.count = count;
    d.name = name;
    d.role = role;
    d.position = {x, y};
    return d;
}

Link link(const std::string& id, const std::string& from, const std::string& to,
          const std::string& type, std::int64_t count) {
    return Link{id, from, to, type, count, {}};
}

int ceil_div(long long a, long long b) {
    return static_cast<int>((a + b - 1) / b);
}

} // namespace

Result<Design> generate_fat_tree(const FatTreeSpec& s, const Catalog& c) {
    const SystemSpec* sys = c.system(s.system);
    if (!sys)
        return Error{"system", "unknown system \"" + s.system + "\""};
    const SwitchSpec* sw = c.switch_spec(s.switch_id);
    if (!sw || sw->ports < 4)
        return Error{"switch", "unknown switch \"" + s.switch_id + "\" or too few ports"};
    if (s.nodes < 1 || s.nodes > 1000000)
        return Error{"nodes", "must be between 1 and 1000000"};
    if (s.tiers != 2 && s.tiers != 3)
        return Error{"tiers", "must be 2 or 3"};
    if (!(s.oversubscription >= 1) || s.oversubscription > 64)
        return Error{"oversubscription", "must be between 1 and 64"};
    const std::string lt =
        s.link.empty() ? (sys->scaleout_link.empty() ? sw->link : sys->scaleout_link) : s.link;
    if (!c.link(lt))
        return Error{"link", "unknown link type \"" + lt + "\""};
    const int nics = std::max(1, sys->nics);
    const int P = sw->ports;
    Design d;
    d.name = std::to_string(s.nodes) + " × " + sys->name + ", " + std::to_string(s.tiers) +
             "-tier " + (s.rail_optimized ? "rail-optimized " : "") + "fat tree";
    d.description =
        "Generated fat tree: " + std::to_string(s.nodes) + " " + sys->name + " (" +
        std::to_string(nics) + " NICs each) on " + sw->name + " switches, " +
        std::to_string(s.tiers) + " tiers, " +
        std::to_string(static_cast<int>(s.oversubscription * 100) / 100.0).substr(0, 4) +
        ":1 asked at the top crossing (whole switch ports can make the built ratio a little "
        "different: the topology summary shows it).";
    const double R2 = s.tiers == 2 ? s.oversubscription : 1.0;
    // Leaf ports split down:up = R:1.
    const int down = std::max(1, static_cast<int>(std::floor(P * R2 / (R2 + 1.0))));
    const int up = P - down;
    if (s.tiers == 2) {
        int leaves = ceil_div(static_cast<long long>(s.nodes) * nics, down);
        if (s.rail_optimized)
            leaves = ceil_div(leaves, nics) * nics; // whole rails
        const long long uplinks = static_cast<long long>(leaves) * up;
        const int spines = leaves > 1 ? ceil_div(uplinks, P) : 0;
        d.devices.push_back(make("node", DeviceKind::system, sys->id, s.nodes, sys->name, 0, 300));
        d.devices.push_back(
            make("leaf", DeviceKind::switch_, sw->id, leaves, "Leaf", 0, 60, "leaf"));
        d.links.push_back(link("node-leaf", "node", "leaf", lt, nics));
        if (spines > 0) {
            d.devices.push_back(
                make("spine", DeviceKind::switch_, sw->id, spines, "Spine", 0, -180, "spine"));
            // Per leaf: as many uplinks as its down links need at R:1.
            const long long used_down = static_cast<long long>(s.nodes) * nics;
            const int per_leaf_up = std::max(
                1, static_cast<int>(std::ceil(static_cast<double>(used_down) / (leaves * R2))));
            d.links.push_back(link("leaf-spine", "leaf", "spine", lt, std::min(per_leaf_up, up)));
        }
        return d;
    }
    // Three tiers: pods of full-bisection leaf-spine (spine ports half down, half up), the
    // oversubscription applied on the pod uplinks to the core (as the Llama 3 cluster does).
    const int half = P / 2;
    int pod_nodes = s.pod_nodes;
    if (pod_nodes <= 0)
        pod_nodes = std::max(1, (half * half) / nics); // radix^2/4 GPUs-worth of ports per pod
    pod_nodes = std::min(pod_nodes, s.nodes);
    const int pods = ceil_div(s.nodes, pod_nodes);
    if (pods > 1 && s.nodes % pod_nodes != 0)
        return Error{"nodes", std::to_string(s.nodes) + " nodes do not split into pods of " +
                                  std::to_string(pod_nodes)};
    int leaves = ceil_div(static_cast<long long>(pod_nodes) * nics, half);
    if (s.rail_optimized)
        leaves = ceil_div(leaves, nics) * nics;
    const long long leaf_up = static_cast<long long>(pod_nodes) * nics; // 1:1 inside the pod
    const int spines = ceil_div(leaf_up, half);
    const int spine_up =
        std::max(1, static_cast<int>(std::ceil(static_cast<double>(half) / s.oversubscription)));
    const long long core_ports = static_cast<long long>(pods) * spines * spine_up;
    const int cores = ceil_div(core_ports, P);
    d.devices.push_back(make("pod", DeviceKind::group, "", pods, "Pod", 0, 0));
    Device node = make("pod-node", DeviceKind::system, sys->id, pod_nodes, sys->name, 0, 300);
    node.parent = "pod";
    Device leaf = make("pod-leaf", DeviceKind::switch_, sw->id, leaves, "Leaf", 0, 60, "leaf");
    leaf.parent = "pod";
    Device spine =
        make("pod-spine", DeviceKind::switch_, sw->id, spines, "Spine", 0, -180, "spine");
    spine.parent = "pod";
    d.devices.push_back(node);
    d.devices.push_back(leaf);
    d.devices.push_back(spine);
    d.devices.push_back(make("core", DeviceKind::switch_, sw->id, cores, "Core", 0, -420, "core"));
    d.links.push_back(link("node-leaf", "pod-node", "pod-leaf", lt, nics));
    d.links.push_back(
        link("leaf-spine", "pod-leaf", "pod-spine", lt,
             static_cast<std::int64_t>(std::ceil(static_cast<double>(leaf_up) / leaves))));
    d.links.push_back(link("spine-core", "pod-spine", "core", lt, spine_up));
    return d;
}

Result<Design> generate_superpod_h100(int su, const Catalog& c) {
    // NVIDIA DGX SuperPOD H100 RA, Table 4 (compute fabric component count), via
    // ../shared/reference systems[dgx_superpod_h100].compute_fabric_table.
    static const int nodes[] = {31, 63, 95, 127};
    static const int leaves[] = {8, 16, 24, 32};
    static const int spines[] = {4, 8, 16, 16};
    if (su < 1 || su > 4)
        return Error{"scalable_units", "the reference architecture table covers 1 to 4 SUs"};
    if (!c.system("dgx-h100") || !c.switch_spec("qm9700"))
        return Error{"catalog", "dgx-h100 and qm9700 are needed"};
    const auto i = static_cast<std::size_t>(su - 1);
    Design d;
    d.name = "DGX H100 SuperPOD, " + std::to_string(su) + " SU (" + std::to_string(nodes[i]) +
             " nodes, " + units::format_count(nodes[i] * 8.0) + " GPUs)";
    d.description = "Generated per NVIDIA's DGX SuperPOD H100 reference architecture (Table 4): " +
                    std::to_string(nodes[i]) + " DGX H100 (UFM occupies a node slot per SU), " +
                    std::to_string(leaves[i]) + " leaf and " + std::to_string(spines[i]) +
                    " spine QM9700, rail-optimized non-blocking NDR 400 Gb/s.";
    d.devices.push_back(make("node", DeviceKind::system, "dgx-h100", nodes[i], "DGX H100", 0, 300));
    d.devices.push_back(
        make("leaf", DeviceKind::switch_, "qm9700", leaves[i], "Leaf (rail)", 0, 60, "leaf"));
    d.devices.push_back(
        make("spine", DeviceKind::switch_, "qm9700", spines[i], "Spine", 0, -180, "spine"));
    d.links.push_back(link("node-leaf", "node", "leaf", "ib-ndr", 8));
    d.links.push_back(
        link("leaf-spine", "leaf", "spine", "ib-ndr", 32)); // 32 down / 32 up per leaf
    return d;
}

Result<Design> generate_nvl72(int racks, const Catalog& c) {
    if (racks < 1 || racks > 10000)
        return Error{"racks", "must be between 1 and 10000"};
    FatTreeSpec s;
    s.system = "gb200-nvl72";
    s.nodes = racks;
    s.rail_optimized = false;
    auto d = generate_fat_tree(s, c);
    if (d) {
        d->name = std::to_string(racks) + " × GB200 NVL72 (" + units::format_count(racks * 72.0) +
                  " GPUs)";
        d->description =
            "Generated: " + std::to_string(racks) +
            " GB200 NVL72 racks, each one 72-GPU NVLink 5 domain, one ConnectX-7 400 Gb/s "
            "NIC per GPU into an NDR leaf-spine fabric.";
    }
    return d;
}

Result<Design> generate_ethernet(const std::string& system, int nodes, double oversubscription,
                                 const Catalog& c) {
    FatTreeSpec s;
    s.system = system;
    s.nodes = nodes;
    s.switch_id = "sn5600";
    s.link = "roce-800";
    s.oversubscription = oversubscription;
    s.rail_optimized = false;
    const SystemSpec* sys = c.system(system);
    if (sys && sys->scaleout_link.rfind("roce", 0) == 0)
        s.link = sys->scaleout_link;
    else if (sys && sys->scaleout_link == "ib-ndr")
        s.link = "roce-400";
    if (s.link != "roce-800")
        s.switch_id = "sn5400"; // 64 x 400G
    auto d = generate_fat_tree(s, c);
    if (d)
        d->name =
            std::to_string(nodes) + " × " + (sys ? sys->name : system) + " on Ethernet leaf-spine";
    return d;
}

} // namespace cl::model
