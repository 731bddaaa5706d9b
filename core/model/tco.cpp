#include "model/tco.h"

#include "model/generators.h"
#include "model/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cl::model {

namespace {

constexpr double kHoursPerMonth = 8760.0 / 12.0;
constexpr double kRackUnits = 42.0; ///< a standard 42U rack

/// Server price when the catalog has none: the GPUs' street price times the host share of a
/// priced HGX H100 node ($310k for 8 x ~$30k GPUs: 1.29x; docs/cost.md).
constexpr double kHostPriceFactor = 310000.0 / (8 * 30000.0);
/// Server nameplate when the catalog has none: GPU TDP times the chip-to-server power ratio
/// of DGX H100 (10.2 kW / (8 x 700 W) = 1.82; Epoch AI training-cost-trends energy.py).
constexpr double kChipToServerPower = 1.821;

std::string usd(double v) {
    return "$" + units::format_count(std::round(v)); // "$155,000"
}

} // namespace

CostInventory design_inventory(const Design& d, const Catalog& c) {
    CostInventory inv;
    const DesignIndex idx(d); // O(1) lookups: linear in the design (issue 17 item 8)
    // A host of n GPUs of `g` priced and powered from the GPU (a server drawn with its GPUs, a
    // workstation card): kHostPriceFactor / kChipToServerPower are the host's share (above).
    const auto add_host = [&inv](const std::string& gid, const GpuSpec& g, double n, double mult,
                                 double price_factor, double power_factor, const std::string& note,
                                 const std::string& unpriced) {
        if (inv.gpu.empty())
            inv.gpu = gid;
        inv.gpus += mult * n;
        inv.servers += mult;
        const double power = n * g.tdp_w * power_factor;
        if (g.price_usd <= 0) {
            inv.notes.push_back(note);
            if (std::find(inv.unpriced.begin(), inv.unpriced.end(), unpriced) == inv.unpriced.end())
                inv.unpriced.push_back(unpriced);
        }
        inv.server_capex_usd += mult * n * std::max(0.0, g.price_usd) * price_factor;
        inv.it_power_w += mult * power;
        inv.rack_units += mult * 4; // a 4U host (no catalog entry to read it from)
        inv.server_power_w = std::max(inv.server_power_w, power);
        inv.server_rack_units = std::max(inv.server_rack_units, 4.0);
        inv.gpus_per_node = static_cast<int>(n);
    };
    // Whether a GPU entry sits in a server or system (priced with it) rather than on its own.
    const auto in_host = [&idx](const Device& gpu) {
        const Device* p = gpu.parent.empty() ? nullptr : idx.device(gpu.parent);
        return p && (p->kind == DeviceKind::server || p->kind == DeviceKind::system);
    };
    for (const Device& dev : d.devices) {
        const double mult = idx.multiplicity(dev);
        if (dev.kind == DeviceKind::system) {
            const SystemSpec* s = c.system(dev.catalog);
            if (!s)
                continue;
            const GpuSpec* g = c.gpu(s->gpu);
            // GPUs inside: the system's own plus any placed in it.
            double n = s->gpus;
            for (const Device* ch : idx.children(dev.id))
                if (ch->kind == DeviceKind::gpu)
                    n += static_cast<double>(ch->count);
            if (inv.gpu.empty())
                inv.gpu = s->gpu;
            inv.gpus += mult * n;
            inv.servers += mult;
            inv.nics += mult * s->nics;
            double price = s->price_usd;
            if (price <= 0 && g && g->price_usd > 0) {
                price = n * g->price_usd * kHostPriceFactor;
                inv.notes.push_back(s->name + ": no catalog price; " + usd(price) +
                                    " derived from the GPU price × 1.29 (host share)");
            } else if (price <= 0) {
                inv.notes.push_back(s->name + ": no price in the catalog (not counted)");
                if (std::find(inv.unpriced.begin(), inv.unpriced.end(), s->name) ==
                    inv.unpriced.end())
                    inv.unpriced.push_back(s->name);
            }
            double power = s->power_w;
            if (power <= 0 && g)
                power = n * g->tdp_w * kChipToServerPower;
            inv.server_capex_usd += mult * price;
            inv.it_power_w += mult * power;
            inv.rack_units += mult * std::max(1, s->rack_units);
            inv.server_power_w = std::max(inv.server_power_w, power);
            inv.server_rack_units = std::max<double>(inv.server_rack_units, s->rack_units);
            inv.gpus_per_node = static_cast<int>(n);
        } else if (dev.kind == DeviceKind::server) {
            double n = 0;
            std::string gid;
            for (const Device* ch : idx.children(dev.id))
                if (ch->kind == DeviceKind::gpu) {
                    n += static_cast<double>(ch->count);
                    if (gid.empty())
                        gid = ch->catalog;
                }
            const GpuSpec* g = c.gpu(gid);
            if (n <= 0 || !g)
                continue;
            add_host(gid, *g, n, mult, kHostPriceFactor, kChipToServerPower,
                     gid + ": no GPU price in the catalog (server not priced)",
                     "servers of " + g->name);
        } else if (dev.kind == DeviceKind::gpu && !in_host(dev)) {
            // A GPU on its own (a workstation card, a Jetson or Apple SoC; helper-6: the RTX
            // 4090 workstation's Cost tab said "no GPUs to cost"): one host per entry, its GPUs
            // priced from the catalog with the host's share, or listed as unpriced. A SoC's
            // price and power are the whole computer's; a card needs a host around it.
            const GpuSpec* g = c.gpu(dev.catalog);
            if (!g)
                continue;
            add_host(dev.catalog, *g, static_cast<double>(dev.count), mult,
                     g->unified_memory ? 1.0 : kHostPriceFactor,
                     g->unified_memory ? 1.0 : kChipToServerPower,
                     g->name + ": no price in the catalog (not counted)", g->name);
        } else if (dev.kind == DeviceKind::switch_) {
            const SwitchSpec* s = c.switch_spec(dev.catalog);
            if (!s || s->cls == SwitchClass::nvswitch)
                continue; // NVSwitch chips are part of their system's price
            inv.switches += mult;
            if (s->price_usd > 0)
                inv.switch_capex_usd += mult * s->price_usd;
            else
                inv.notes.push_back(s->id + ": no switch price in the catalog (not counted)");
        }
    }
    for (const Link& l : d.links) {
        const LinkSpec* ls = c.link(l.type);
        const Device* from = idx.device(l.from);
        if (!ls || !from || ls->cls != LinkClass::scaleout)
            continue;
        const double n = idx.multiplicity(*from) * static_cast<double>(l.count);
        inv.cables += n;
        if (ls->cable_price_usd > 0)
            inv.cable_capex_usd += n * ls->cable_price_usd;
        else
            inv.notes.push_back(ls->id + ": no cable price in the catalog (not counted)");
    }
    std::sort(inv.notes.begin(), inv.notes.end());
    inv.notes.erase(std::unique(inv.notes.begin(), inv.notes.end()), inv.notes.end());
    return inv;
}

Result<CostInventory> gpu_inventory(const GpuSpec& gpu, const Catalog& c, double gpus,
                                    int gpus_per_node) {
    if (!(gpus >= 1) || gpus > 1e7)
        return Error{"--gpus", "must be between 1 and 1e7"};
    const SystemSpec* sys = c.system(gpu.reference_system);
    if (!sys)
        return Error{"--gpu", gpu.id + " has no reference system in the catalog"};
    const int per_node = gpus_per_node > 0 ? gpus_per_node : sys->gpus;
    const double nodes = std::ceil(gpus / per_node);
    // The network of a non-blocking rail-optimised fat tree for these nodes (as the Fabric
    // Wizard draws it), when the system has a scale-out link; single nodes have none.
    CostInventory inv;
    if (nodes >= 2 && !sys->scaleout_link.empty() && nodes <= 65536) {
        FatTreeSpec fs;
        fs.system = sys->id;
        fs.nodes = static_cast<int>(nodes);
        const LinkSpec* l = c.link(sys->scaleout_link);
        fs.switch_id = (l && l->protocol == NetProtocol::infiniband)
                           ? (l->port_rate_bps <= 200e9 ? "qm8700" : "qm9700")
                           : "sn5400";
        fs.tiers = nodes * std::max(1, sys->nics) > 32.0 * 64 ? 3 : 2;
        if (auto design = generate_fat_tree(fs, c); design.ok())
            inv = design_inventory(*design, c);
    }
    if (inv.servers <= 0) {
        Design d;
        Device dev;
        dev.id = "node";
        dev.catalog = sys->id;
        dev.count = static_cast<std::int64_t>(nodes);
        d.devices.push_back(dev);
        inv = design_inventory(d, c);
    }
    // Scale to the requested GPU count when nodes are not full.
    inv.gpus = gpus;
    inv.gpus_per_node = per_node;
    inv.gpu = gpu.id;
    return inv;
}

const CloudOffer* default_cloud_offer(const Catalog& c, const std::string& gpu,
                                      Commitment commitment, const OfferFilter& only) {
    // Spot: the cheapest offer that has a spot price (helper-22: spot with the default offer
    // priced nothing when the cheapest on-demand offer had no spot price).
    const bool spot = commitment == Commitment::spot;
    const auto rate = [spot](const CloudOffer& o) {
        return (spot ? o.spot_usd_per_hour : o.on_demand_usd_per_hour) / o.gpus;
    };
    const bool filtered = !only.provider.empty() || only.gpus > 0;
    const CloudOffer* best = nullptr;
    for (const auto& o : c.cloud_offers())
        if (o.gpu == gpu && o.gpus > 0 && o.on_demand_usd_per_hour > 0 &&
            (!spot || o.spot_usd_per_hour > 0) &&
            (only.provider.empty() || o.provider == only.provider) &&
            (only.gpus <= 0 || o.gpus == only.gpus) && (!best || rate(o) < rate(*best)))
            best = &o;
    if (!best && spot && !filtered) // no spot price: the on-demand default (spot is refused)
        return default_cloud_offer(c, gpu, Commitment::on_demand);
    return best;
}

std::string design_gpu(const Design& d, const Catalog& c) {
    for (const auto& dev : d.devices) {
        if (dev.kind == DeviceKind::gpu && c.gpu(dev.catalog))
            return dev.catalog;
        if (dev.kind == DeviceKind::system)
            if (const SystemSpec* s = c.system(dev.catalog); s && c.gpu(s->gpu))
                return s->gpu;
    }
    return {};
}

namespace {

/// The rate one way of renting bills (docs/cost.md): the offer's on-demand price per GPU (or
/// the typed price); a commitment's listed price, else the discount off on-demand; spot's
/// price with the work redone after preemptions.
Result<CloudOption> cloud_option(const CostInventory& inv, const Economics& e,
                                 const CloudOffer* offer, Commitment commitment) {
    CloudOption o;
    o.commitment = commitment;
    double od = e.price_per_gpu_hour;
    if (od > 0)
        o.source = "the cloud price per GPU-hour typed in the Cost section";
    else if (offer && offer->gpus > 0 && offer->on_demand_usd_per_hour > 0) {
        od = offer->on_demand_usd_per_hour / offer->gpus;
        // "Hyperstack on-demand", not "Hyperstack on-demand on-demand" (helper-24).
        const bool named = offer->instance.find("on-demand") != std::string::npos;
        o.source = offer->provider + " " + offer->instance + (named ? "" : " on-demand") + " (" +
                   offer->price_as_of + ")";
    }
    if (od <= 0)
        return Error{
            "--cloud-price-per-gpu-hour",
            "no cloud price: no cloud offer rents these GPUs; choose one that does or type a "
            "cloud price per GPU-hour"};
    o.rate_per_gpu_hour = od;
    if (commitment == Commitment::one_year || commitment == Commitment::three_year) {
        const bool one = commitment == Commitment::one_year;
        const double listed =
            offer && offer->gpus > 0 && e.price_per_gpu_hour <= 0
                ? (one ? offer->commit_1y_usd_per_hour : offer->commit_3y_usd_per_hour) /
                      offer->gpus
                : 0.0;
        // Listed commitment price, else the discount off on-demand (docs/cost.md: median of
        // AWS, GCP, Azure and Lambda published 1-/3-year discounts).
        o.rate_per_gpu_hour =
            listed > 0 ? listed : od * (1.0 - (one ? e.commit_1y_discount : e.commit_3y_discount));
        o.bills_every_hour = true;
        // Say which rate is billed (helper-16: "$3.03 (... on-demand)" beside a 3-year term).
        char buf[96];
        if (listed > 0)
            std::snprintf(buf, sizeof buf, ", billed at the %s commitment price",
                          one ? "1-year" : "3-year");
        else
            std::snprintf(buf, sizeof buf, ", billed at the %s commitment: %.0f %% off",
                          one ? "1-year" : "3-year",
                          100 * (one ? e.commit_1y_discount : e.commit_3y_discount));
        o.source += buf;
    } else if (commitment == Commitment::spot) {
        const double spot = offer && offer->gpus > 0 && e.price_per_gpu_hour <= 0
                                ? offer->spot_usd_per_hour / offer->gpus
                                : 0.0;
        if (spot <= 0)
            return Error{"--commitment",
                         "spot needs a cloud offer with a spot price: choose one that has one, or "
                         "another commitment"};
        o.rate_per_gpu_hour = spot;
        o.source += ", billed at the spot price";
        // Preemptions: the job loses the work since its last checkpoint (half an interval on
        // average) plus the restart, on every preemption of any of its nodes.
        const double per_hour = e.spot_preemptions_per_node_day * std::max(1.0, inv.servers) / 24.0;
        o.spot_overhead = 1.0 + per_hour * e.spot_lost_hours_per_preemption;
    }
    return o;
}

} // namespace

Result<TcoResult> compute_tco(const CostInventory& inv, const Economics& e,
                              const CloudOffer* offer) {
    if (!(inv.gpus >= 1))
        return Error{"gpus", "the design has no GPUs to cost"};
    if (e.months < 1 || e.months > 1200)
        return Error{"--months", "must be between 1 and 1200"};
    TcoResult r;
    r.inventory = inv;
    const double gpus = inv.gpus;
    const double u = std::clamp(e.utilization, 0.0, 1.0);

    // Cloud: the billed rate per GPU-hour of the chosen way to rent, and of every other way
    // the offer (or typed price) allows, for the chart and report to set side by side.
    auto chosen = cloud_option(inv, e, offer, e.commitment);
    if (!chosen) {
        // Issue 21: without a cloud price the on-prem side still stands, with the reason.
        r.has_cloud = false;
        r.cloud_missing = chosen.errors().front().what;
    }
    const CloudOption billed = chosen ? chosen.value() : CloudOption{};
    r.cloud_price_source = billed.source;
    const double rate = billed.rate_per_gpu_hour;
    const bool bills_every_hour = billed.bills_every_hour;
    const double spot_overhead = billed.spot_overhead;
    r.cloud_price_per_gpu_hour = rate;
    r.commitment = e.commitment;
    r.utilization = u;
    r.utilization_source = "economics.utilization";
    r.cloud_offer_name = e.price_per_gpu_hour > 0 || !offer
                             ? std::string("typed price")
                             : offer->provider + " " + offer->instance;
    for (Commitment c :
         {Commitment::on_demand, Commitment::one_year, Commitment::three_year, Commitment::spot}) {
        if (!r.has_cloud)
            break;
        auto o = c == e.commitment ? chosen : cloud_option(inv, e, offer, c);
        if (o)
            r.cloud_options.push_back(o.value());
    }

    // Servers without a price cannot be owned for $0: that side is left out, with what to type.
    if (e.server_price_usd <= 0 && !inv.unpriced.empty()) {
        std::string names;
        for (const auto& n : inv.unpriced)
            names += (names.empty() ? "" : ", ") + n;
        r.has_onprem = false;
        r.onprem_missing = "the catalog has no price for " + names +
                           ": type a server price in the Cost section to cost owning them";
    }
    if (!r.has_cloud && !r.has_onprem)
        return Error{"--server-price", r.onprem_missing + "; and " + r.cloud_missing};
    // On-prem capex.
    TcoBreakdown& b = r.onprem_breakdown;
    if (r.has_onprem) {
        b.servers =
            e.server_price_usd > 0 ? e.server_price_usd * inv.servers : inv.server_capex_usd;
        b.network = e.network_usd_per_gpu > 0 ? e.network_usd_per_gpu * gpus
                                              : inv.switch_capex_usd + inv.cable_capex_usd;
        b.storage = e.storage_fraction * b.servers;
    }
    r.capex_usd = b.servers + b.network + b.storage;

    // Power and space: nameplate IT load; average draw while working (Epoch: 0.75 of TDP).
    r.it_power_peak_kw = inv.it_power_w / 1000.0;
    const double it_avg_kw = r.it_power_peak_kw * e.avg_power_fraction;
    r.power_kw = it_avg_kw * e.pue;
    if (inv.server_power_w > 0) {
        const double by_power = std::floor(e.rack_power_kw * 1000.0 / inv.server_power_w);
        const double by_space = std::floor(
            kRackUnits / std::max(1.0, inv.server_rack_units > 0 ? inv.server_rack_units : 4.0));
        r.servers_per_rack = std::max(1.0, std::min(by_power, by_space));
        r.racks = std::ceil(inv.servers / r.servers_per_rack);
    }
    if (e.facility_power_cap_kw > 0 && inv.server_power_w > 0 && inv.gpus_per_node > 0) {
        const double per_server_kw = inv.server_power_w / 1000.0 * e.pue;
        r.max_gpus_under_cap =
            std::floor(e.facility_power_cap_kw / per_server_kw) * inv.gpus_per_node;
    }

    // Monthly on-prem operating cost.
    const double power_month = it_avg_kw * e.pue * kHoursPerMonth * e.power_usd_per_kwh;
    const double facility_month = e.colo_usd_per_kw_month * r.it_power_peak_kw;
    const double staff_month = e.staff_usd_per_year / 12.0;
    const double maint_month = e.maintenance_fraction * r.capex_usd / 12.0;
    const double opex_month =
        r.has_onprem ? power_month + facility_month + staff_month + maint_month : 0.0;
    const double M = e.months;
    if (r.has_onprem) {
        b.power = power_month * M;
        b.facility = facility_month * M;
        b.staff = staff_month * M;
        b.maintenance = maint_month * M;
    }

    // Cloud per month: on-demand and spot bill the hours used, commitments every hour.
    const double cloud_month =
        gpus * kHoursPerMonth * rate * (bills_every_hour ? 1.0 : u) * spot_overhead;
    r.monthly.reserve(static_cast<std::size_t>(e.months) + 1);
    for (int m = 0; m <= e.months; ++m) {
        TcoMonth row;
        row.month = m;
        row.cloud_usd = cloud_month * m;
        row.onprem_usd = r.capex_usd + opex_month * m;
        if (r.has_cloud && r.has_onprem && r.breakeven_months < 0 && m > 0 &&
            row.onprem_usd <= row.cloud_usd)
            r.breakeven_months = m;
        r.monthly.push_back(row);
    }
    r.cloud_usd = cloud_month * M;
    for (CloudOption& o : r.cloud_options) {
        const double month = gpus * kHoursPerMonth * o.rate_per_gpu_hour *
                             (o.bills_every_hour ? 1.0 : u) * o.spot_overhead;
        o.usd = month * M;
        o.usd_per_gpu_hour = o.usd / std::max(1e-9, gpus * kHoursPerMonth * M * u);
        for (int m = 1; r.has_onprem && m <= e.months; ++m)
            if (r.capex_usd + opex_month * m <= month * m) {
                o.breakeven_months = m;
                break;
            }
    }
    r.onprem_usd = b.total();
    const double gpu_hours_used = gpus * kHoursPerMonth * M * u;
    r.onprem_usd_per_gpu_hour = r.onprem_usd / gpu_hours_used;
    r.cloud_usd_per_gpu_hour = r.cloud_usd / gpu_hours_used;
    const double dep_hours = std::max(0.1, e.depreciation_years) * 8760.0;
    r.amortized_usd_per_gpu_hour =
        (r.capex_usd / dep_hours + opex_month / kHoursPerMonth) / (gpus * std::max(u, 1e-3));
    // Break-even utilization: where pay-per-use cloud costs what owning does over the horizon.
    if (r.has_cloud && r.has_onprem && !bills_every_hour) {
        const double per_unit_u = gpus * kHoursPerMonth * M * rate * spot_overhead;
        const double ub = r.onprem_usd / per_unit_u;
        r.breakeven_utilization = ub <= 1.0 ? ub : -1;
    }
    r.energy_kwh = r.power_kw * kHoursPerMonth * M;
    r.co2_kg = r.energy_kwh * e.grid_kg_co2_per_kwh;
    return r;
}

RunCost run_cost(const TcoResult& t, const Economics& e, double gpu_hours) {
    RunCost rc;
    rc.has_cloud = t.has_cloud;
    rc.has_onprem = t.has_onprem;
    if (!(gpu_hours > 0) || t.inventory.gpus <= 0)
        return rc;
    rc.cloud_usd = gpu_hours * t.cloud_price_per_gpu_hour;
    // On-prem: the amortized rate at full use during the run (the run keeps the GPUs busy).
    const double dep_hours = std::max(0.1, e.depreciation_years) * 8760.0;
    const double opex_hour = (t.onprem_breakdown.power + t.onprem_breakdown.facility +
                              t.onprem_breakdown.staff + t.onprem_breakdown.maintenance) /
                             (e.months * kHoursPerMonth);
    rc.onprem_usd = gpu_hours * (t.capex_usd / dep_hours + opex_hour) / t.inventory.gpus;
    const double kw_per_gpu = t.power_kw / t.inventory.gpus;
    rc.energy_kwh = gpu_hours * kw_per_gpu;
    rc.co2_kg = rc.energy_kwh * e.grid_kg_co2_per_kwh;
    return rc;
}

} // namespace cl::model
