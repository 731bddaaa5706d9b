#pragma once
// Fabric generators: designs the canvas shows and the models evaluate like any drawn design.

#include "model/catalog.h"
#include "model/design.h"

namespace cl::model {

struct FatTreeSpec {
    std::string system = "dgx-h100"; ///< compute node (system catalog id)
    int nodes = 32;
    std::string switch_id = "qm9700";
    std::string link;            ///< default: the system's scale-out link
    int tiers = 2;               ///< 2 (leaf-spine) or 3 (pods + core)
    double oversubscription = 1; ///< R:1 at the top crossing (leaf for 2 tiers, pod uplinks for 3)
    bool rail_optimized = true;  ///< NIC i of every node lands on rail-i leaves
    int pod_nodes = 0;           ///< 3 tiers: nodes per pod (0 = derived from the radix)
};

/// A (rail-optimised) fat tree, sized from the switch radix: leaves split their ports R:1 between
/// down- and uplinks (Leiserson 1985; NVIDIA DGX SuperPOD RA "rail-optimized" layout).
Result<Design> generate_fat_tree(const FatTreeSpec& spec, const Catalog& c);

/// DGX H100 SuperPOD with 1-4 scalable units exactly as NVIDIA's reference architecture
/// (RA-11333-001, Table 4) builds them: 31/63/95/127 DGX H100 (UFM takes a node slot),
/// 8/16/24/32 leaf and 4/8/16/16 spine QM9700, rail-optimised NDR.
Result<Design> generate_superpod_h100(int scalable_units, const Catalog& c);

/// GB200 NVL72 racks (one 72-GPU NVLink domain each) on an NDR leaf(-spine) fabric, one
/// ConnectX-7 per GPU.
Result<Design> generate_nvl72(int racks, const Catalog& c);

/// Ethernet leaf-spine (RoCE) for `nodes` 8-GPU servers of `system`, SN5600 switches.
Result<Design> generate_ethernet(const std::string& system, int nodes, double oversubscription,
                                 const Catalog& c);

} // namespace cl::model
