#pragma once
// Total cost of ownership: cloud (on-demand, 1-/3-year commitments, spot with preemptions) vs
// on-prem (servers, the drawn network, storage, power x PUE, colocation, staff, maintenance,
// depreciation), power and space, energy and carbon. Model and sources: docs/cost.md.

#include "model/catalog.h"
#include "model/design.h"
#include "model/error.h"

#include <string>
#include <vector>

namespace cl::model {

/// What the design (or the CLI flags) puts on the bill: counts with their catalog prices.
struct CostInventory {
    double gpus = 0, servers = 0;
    int gpus_per_node = 8;
    double server_capex_usd = 0; ///< servers (GPUs, hosts, NICs, NVSwitches included)
    double switch_capex_usd = 0; ///< scale-out switches
    double cable_capex_usd = 0;  ///< scale-out cables with optics
    double switches = 0, cables = 0;
    double nics = 0;                ///< scale-out NICs (priced inside their servers)
    double it_power_w = 0;          ///< nameplate of servers (switches: see docs/cost.md)
    double rack_units = 0;          ///< of the servers
    double server_power_w = 0;      ///< one server's nameplate (for racks per server)
    double server_rack_units = 0;   ///< one server's height
    std::string gpu;                ///< GPU catalog id
    std::vector<std::string> notes; ///< unpriced items and derived prices
    /// Servers the catalog has no price for, by name: owning them cannot be costed unless a
    /// server price is typed (helper-18: an HGX B200 design showed $0 capex and break-even at
    /// month 1).
    std::vector<std::string> unpriced;
};

/// Inventory of a drawn design: systems and servers with their GPUs, switches, scale-out
/// cables (replica counts included).
CostInventory design_inventory(const Design& d, const Catalog& c);
/// Inventory of `gpus` GPUs of one type in reference systems (CLI without a design): servers
/// from the GPU's reference system; network priced per GPU by the caller.
Result<CostInventory> gpu_inventory(const GpuSpec& gpu, const Catalog& c, double gpus,
                                    int gpus_per_node);

struct TcoBreakdown {
    double servers = 0, network = 0, storage = 0, power = 0, facility = 0, staff = 0,
           maintenance = 0;
    [[nodiscard]] double total() const {
        return servers + network + storage + power + facility + staff + maintenance;
    }
};

struct TcoMonth {
    int month = 0;
    double cloud_usd = 0, onprem_usd = 0; ///< cumulative
};

/// One way of renting the same GPUs: on-demand, a 1- or 3-year commitment, or spot.
struct CloudOption {
    Commitment commitment = Commitment::on_demand;
    double rate_per_gpu_hour = 0;  ///< the billed rate
    bool bills_every_hour = false; ///< commitments bill every hour, used or not
    double spot_overhead = 1.0;    ///< spot: work redone after preemptions (x GPU-hours)
    double usd = 0;                ///< over the horizon
    double usd_per_gpu_hour = 0;   ///< per GPU-hour used
    int breakeven_months = -1;     ///< when owning costs less; -1 = not within the horizon
    std::string source;
};

/// TcoResult::utilization_source when the fleet simulation's utilization is billed: of the
/// design's job mix, or of its imported job trace replayed.
inline constexpr const char* kFleetMixSource = "the fleet simulation of the job mix";
inline constexpr const char* kFleetTraceSource = "the fleet replay of the job trace";

struct TcoResult {
    double cloud_usd = 0, onprem_usd = 0;  ///< over the horizon
    int breakeven_months = -1;             ///< -1 = never within the horizon
    double breakeven_utilization = -1;     ///< -1 = not defined (commitments bill every hour)
    double onprem_usd_per_gpu_hour = 0;    ///< horizon on-prem cost / GPU-hours used
    double cloud_usd_per_gpu_hour = 0;     ///< horizon cloud cost / GPU-hours used
    double amortized_usd_per_gpu_hour = 0; ///< on-prem, capex over depreciation, per GPU-hour
    double cloud_price_per_gpu_hour = 0;   ///< the billed rate of the chosen option
    std::string cloud_price_source;
    double utilization = 0; ///< of the owned GPUs, as billed
    /// "economics.utilization" (typed), kFleetMixSource or kFleetTraceSource (the Fleet tab's).
    std::string utilization_source;
    Commitment commitment = Commitment::on_demand; ///< the billed way of renting
    std::string cloud_offer_name; ///< "AWS p5.48xlarge", or "typed price" (economics)
    double power_kw = 0;          ///< facility average: IT average x PUE
    double it_power_peak_kw = 0;  ///< nameplate IT load
    double racks = 0;
    double servers_per_rack = 0;
    double energy_kwh = 0; ///< over the horizon
    double co2_kg = 0;
    double max_gpus_under_cap = -1; ///< -1 = no facility cap
    TcoBreakdown onprem_breakdown;
    double capex_usd = 0;
    std::vector<TcoMonth> monthly; ///< month 0..months
    /// Every way of renting the offer (or the typed price) allows, the billed one included, in
    /// the order on-demand, 1-year, 3-year, spot (issue 21: the cost chart sets them side by side).
    std::vector<CloudOption> cloud_options;
    CostInventory inventory;
    /// Issue 21: a side that cannot be costed -- no cloud price for these GPUs, or servers the
    /// catalog has no price for and none typed -- is left out with its reason while the other
    /// side stands (its numbers are 0 and shown nowhere); the TCO is refused only when both are
    /// missing. Break-even needs both.
    bool has_cloud = true, has_onprem = true;
    std::string cloud_missing, onprem_missing; ///< why, and what to type or choose
};

/// Which offers default_cloud_offer may pick beyond the GPU type: one provider's, and of one
/// instance size (empty / 0: any).
struct OfferFilter {
    std::string provider;
    int gpus = 0;
};

/// The cloud offer a TCO uses when none is chosen: the cheapest on-demand per GPU-hour for
/// this GPU type in the catalog, or under spot the cheapest spot among offers with a spot
/// price (null when there is none; without a filter, spot then falls back to the on-demand
/// default, which the spot cost refuses with its reason).
const CloudOffer* default_cloud_offer(const Catalog& c, const std::string& gpu,
                                      Commitment commitment = Commitment::on_demand,
                                      const OfferFilter& only = {});

/// The GPU type of a design as the evaluation reads it (TopologySummary::gpu): the first GPU
/// device's, or the first server's GPUs, in device order; empty when it has none.
std::string design_gpu(const Design& d, const Catalog& c);

/// The TCO of an inventory under the economics inputs. `offer` may be null (then the cloud side
/// needs economics.price_per_gpu_hour, or it is left out with the reason).
Result<TcoResult> compute_tco(const CostInventory& inv, const Economics& e,
                              const CloudOffer* offer);

/// Cost and energy of a job of `gpu_hours` on this cluster: at the cloud rate and at the
/// on-prem amortized rate; energy from the average power per GPU.
struct RunCost {
    double cloud_usd = 0, onprem_usd = 0, energy_kwh = 0, co2_kg = 0;
    bool has_cloud = true, has_onprem = true; ///< as the TCO it came from (0 = not costed)
};
RunCost run_cost(const TcoResult& t, const Economics& e, double gpu_hours);

} // namespace cl::model
