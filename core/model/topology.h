#pragma once
// Topology analysis of a drawn design: NVLink domains, per-GPU scale-up and scale-out
// bandwidth, switch tiers, oversubscription, bisection bandwidth, hop counts, rail alignment,
// and warnings for design mistakes. Works on device entries with replica counts, never on
// expanded per-device graphs, so a 16,384-GPU cluster costs what a 16-GPU one does.

#include "model/catalog.h"
#include "model/design.h"

#include <string>
#include <vector>

namespace cl::model {

/// One switch tier: 1 = leaf (switches with compute nodes below), 2 = spine, 3 = core.
struct SwitchTier {
    int level = 1;
    std::string name;            ///< leaf, spine, core
    double switches = 0;         ///< switch count (replicas included)
    double down_Bps = 0;         ///< total one-way bandwidth towards the compute nodes
    double up_Bps = 0;           ///< total one-way bandwidth towards the next tier
    double oversubscription = 1; ///< down / up (1 when the tier has no uplinks: the top)
    double ports_used_per_switch = 0;
    int ports_per_switch = 0;          ///< from the catalog (0 = unknown)
    double nodes_below_one_switch = 0; ///< compute nodes one switch of this tier reaches
    std::vector<std::string> device_ids;
};

/// The row of NCCL's tuning tables a GPU uses (by compute capability).
enum class GpuArch { ampere, hopper, blackwell, other };

struct Topology {
    double gpus = 0, nodes = 0, switches = 0;
    std::string gpu;                   ///< the (first) GPU type
    GpuArch gpu_arch = GpuArch::other; ///< the NCCL tuning row (collective.cpp)
    int gpus_per_node = 0;
    int scaleup_domain = 0;          ///< GPUs per NVLink / NVSwitch / xGMI domain
    bool nvswitch = false;           ///< the domain is switched (NVLS-capable from NVSwitch gen 3)
    bool nvls = false;               ///< NVLink SHARP in-switch reduction available
    double scaleup_Bps_per_gpu = 0;  ///< one way, all NVLinks of one GPU (wire rate)
    double pair_Bps = 0;             ///< one way between two GPUs of a domain (MI300X: one link)
    double scaleout_Bps_per_gpu = 0; ///< one way, node NIC bandwidth / GPUs per node
    double nic_Bps = 0;              ///< one way, one NIC port
    double nics_per_node = 0;
    std::string scaleup_link, scaleout_link;
    std::vector<SwitchTier> tiers; ///< leaf first
    double oversubscription = 1;   ///< worst tier (R in CLI.md: 7 means 7:1)
    double bisection_Bps = 0;      ///< one way, across the worst even cut
    int diameter_hops = 0;         ///< switch-to-switch and NIC hops between two GPUs
    bool rail_optimized = false;   ///< each NIC of a node lands on a different leaf
    bool pcie_only = false;        ///< GPUs talk over PCIe within a node
    std::vector<std::string> warnings;
    /// Compute node entries and the island of links each belongs to (GPUs of different islands
    /// have no path between them; the replicas of an unlinked entry are islands of their own).
    struct NodeReach {
        std::string id;
        std::string name; ///< what the canvas card shows (the device's name, else its id)
        int island = 0;
        double replicas = 1, gpus_per_replica = 0;
        bool linked = false; ///< has a scale-out link
    };
    std::vector<NodeReach> reach;
};

Topology analyze_topology(const Design& d, const Catalog& c);

/// Why the GPUs of these compute node entries (ids from Topology::reach; empty = all) cannot
/// all talk to each other, for a job of `gpus` GPUs; empty when they can.
std::string unreachable(const Topology& t, const std::vector<std::string>& entries, double gpus);

/// A cluster described by its shape instead of a drawing (the CLI's shape flags, CLI.md
/// "Cluster shape"): servers of one GPU type, each server's scale-up domain and NICs, and a
/// leaf tier (plus a spine above it when the fabric is oversubscribed). Zero / empty = the
/// GPU's reference system.
struct ClusterShape {
    double gpus = 0;             ///< GPUs in the job (0 = not known: the shape only)
    int gpus_per_node = 0;       ///< 0 = the GPU's reference system
    int scaleup_domain = 0;      ///< GPUs per NVLink/xGMI domain; 0 = the reference system's
    std::string scaleout_link;   ///< scale-out link type; empty = the reference system's NICs
    int nics_per_node = -1;      ///< -1 = the reference system's
    double oversubscription = 1; ///< down:up at the worst tier (7 = 7:1)
};

/// The topology of a shape: the same scale-up rules as analyze_topology (architecture for
/// NCCL tuning, NVSwitch and NVLS from the reference system, xGMI pair bandwidth, PCIe when
/// there is no scale-up domain). Errors name the shape field (an unknown or non-scale-out link).
Result<Topology> shape_topology(const GpuSpec& gpu, const ClusterShape& shape, const Catalog& c);

/// The fabric a group of `ranks` GPUs with `stride` between consecutive ranks uses, when
/// ranks are numbered node by node (Megatron order: TP innermost, then CP, EP/DP, PP).
struct GroupPlacement {
    int ranks = 1;
    int ranks_per_node = 1;      ///< ranks of the group inside one scale-up domain
    int nodes = 1;               ///< scale-up domains the group spans
    int tier = 0;                ///< 0 = inside one domain; 1 = leaf; 2 = spine; 3 = core
    double oversubscription = 1; ///< worst oversubscription of the tiers it crosses
};
GroupPlacement place_group(const Topology& t, int ranks, int stride);

} // namespace cl::model
