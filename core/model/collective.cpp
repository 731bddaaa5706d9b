#include "model/collective.h"

#include "model/units.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace cl::model {

namespace {
constexpr std::array<std::string_view, 6> kOps = {"allreduce", "allgather", "reducescatter",
                                                  "alltoall",  "broadcast", "sendrecv"};
constexpr std::array<std::string_view, 5> kAlgos = {"auto", "ring", "tree", "nvls", "hierarchical"};
} // namespace

std::string_view collective_op_name(CollectiveOp op) {
    return kOps[static_cast<std::size_t>(op)];
}
std::optional<CollectiveOp> collective_op_from_name(std::string_view name) {
    for (std::size_t i = 0; i < kOps.size(); ++i)
        if (kOps[i] == name)
            return static_cast<CollectiveOp>(i);
    return std::nullopt;
}
std::string_view collective_algo_name(CollectiveAlgo a) {
    return kAlgos[static_cast<std::size_t>(a)];
}
std::optional<CollectiveAlgo> collective_algo_from_name(std::string_view name) {
    for (std::size_t i = 0; i < kAlgos.size(); ++i)
        if (kAlgos[i] == name)
            return static_cast<CollectiveAlgo>(i);
    return std::nullopt;
}

// nccl-tests doc/PERFORMANCE.md: busbw = algbw x factor.
double busbw_factor(CollectiveOp op, int n) {
    const double nn = std::max(1, n);
    switch (op) {
    case CollectiveOp::allreduce:
        return 2.0 * (nn - 1) / nn;
    case CollectiveOp::allgather:
    case CollectiveOp::reducescatter:
    case CollectiveOp::alltoall:
        return (nn - 1) / nn;
    case CollectiveOp::broadcast:
    case CollectiveOp::sendrecv:
        return 1.0;
    }
    return 1.0;
}

namespace {

/// Ring steps of an operation on n ranks (each step moves S/n per rank for reductions).
int ring_steps(CollectiveOp op, int n) {
    switch (op) {
    case CollectiveOp::allreduce:
        return 2 * (n - 1);
    case CollectiveOp::sendrecv:
        return 1;
    default:
        return n - 1;
    }
}

/// Steps whose chunks fill the pipeline before it streams. A ring forwards each chunk through
/// every step; an all-to-all sends each peer its share directly, all peers at once (NCCL
/// grouped send/recv; nccl-tests doc/PERFORMANCE.md: every rank sends S/n to every other), so
/// only one chunk is in flight before data streams. Charging the ring's fill to all-to-all
/// made large expert-parallel groups slow: 63 chunks of S/64 at EP 64 (issue 18; DeepEP's
/// measured RDMA bandwidths, tst_collective::deepEpInternodeBandwidth).
int fill_steps(CollectiveOp op, int n) {
    return op == CollectiveOp::alltoall ? 1 : ring_steps(op, n);
}

struct Fabric {
    double wire_intra = 0; ///< per GPU, one way
    double eff_intra = 0;  ///< effective bus bandwidth inside a domain
    double eff_pair = 0;   ///< effective point-to-point inside a domain
    double wire_net = 0;   ///< per node's share used by the group, one way
    double eff_net = 0;    ///< effective, after oversubscription
    double hop_intra_simple = 0, hop_intra_ll = 0;
    const char* intra_name = "NVLink";
};

Fabric fabric_of(const Topology& t, const GroupPlacement& p, const CollectiveAssumptions& a,
                 bool legacy = true) {
    Fabric f;
    const bool pcie = t.pcie_only;
    f.intra_name = pcie ? "PCIe" : (t.scaleup_link.rfind("xgmi", 0) == 0 ? "xGMI" : "NVLink");
    f.wire_intra = t.scaleup_Bps_per_gpu;
    const double eff = pcie ? a.pcie_efficiency : a.nvlink_efficiency;
    f.eff_intra = f.wire_intra * eff;
    f.eff_pair = (t.pair_Bps > 0 ? t.pair_Bps : f.wire_intra) * eff;
    f.hop_intra_simple = pcie ? a.simple_pcie_hop_s : a.simple_nvlink_hop_s;
    f.hop_intra_ll = a.ll_intra_hop_s;
    // Each rank of the group drives its own NIC share (rail alignment); g ranks per node share
    // the node's NICs. Crossing an oversubscribed tier divides by its ratio. No NICs (none
    // drawn, or --nics-per-node 0) is no network: groups across domains cannot run.
    const double per_gpu = t.scaleout_Bps_per_gpu;
    f.wire_net = per_gpu * std::max(1, p.ranks_per_node);
    f.eff_net = f.wire_net * a.net_efficiency / std::max(1.0, p.oversubscription);
    if (legacy && !a.calibration.empty() && a.calibration[0].beta_Bps > 0) {
        f.eff_intra = a.calibration[0].beta_Bps;
        f.eff_pair = std::min(f.eff_pair, f.eff_intra);
    }
    if (legacy && a.calibration.size() > 1 && a.calibration[1].beta_Bps > 0)
        f.eff_net = a.calibration[1].beta_Bps * std::max(1, p.ranks_per_node) /
                    std::max(1.0, p.oversubscription);
    return f;
}

int arch_row(const Topology& t) {
    if (t.gpu_arch == GpuArch::hopper)
        return 1;
    if (t.gpu_arch == GpuArch::blackwell)
        return 2;
    return 0;
}

struct Candidate {
    CollectiveAlgo algo = CollectiveAlgo::ring;
    const char* protocol = "";
    double time = 0;
    const char* bottleneck = "";
    bool uplinks = false; ///< the bottleneck is an oversubscribed tier (formatted at the end)
    double lat = 0;       ///< the latency part of `time` (the rest moves the bytes)
};

/// Fixed-capacity candidate list: the hot path (training model, search) allocates nothing.
struct Candidates {
    std::array<Candidate, 8> items;
    int n = 0;
    void push(CollectiveAlgo algo, const char* protocol, double lat, double transfer,
              const char* neck, bool uplinks = false) {
        if (n < static_cast<int>(items.size()))
            items[static_cast<std::size_t>(n++)] = {algo, protocol, lat + transfer,
                                                    neck, uplinks,  lat};
    }
};

/// Status of the core computation (no strings on the hot path).
enum class CoreStatus { ok, bad_bytes, bad_ranks, no_network, no_scaleup, no_algorithm, single };

} // namespace

const char* tier_short_name(int tier) {
    static const char* kName[] = {"scale-up domain", "leaf", "spine", "core"};
    return kName[std::clamp(tier, 0, 3)];
}

std::string tier_link_name(int tier) {
    tier = std::clamp(tier, 1, 3);
    return std::string(tier == 1 ? "node" : tier_short_name(tier - 1)) + " to " +
           tier_short_name(tier);
}

std::vector<TierLoad> tier_loads(const std::vector<GroupTraffic>& traffic, const Topology& t,
                                 double period_s, std::string* bottleneck) {
    std::vector<TierLoad> out;
    if (bottleneck)
        bottleneck->clear();
    int top = 0;
    double neck_busy = -1;
    for (const auto& g : traffic)
        top = std::max(top, g.tier);
    for (int tier = 1; tier <= top; ++tier) {
        TierLoad tl;
        tl.tier = tier;
        tl.name = tier - 1 < static_cast<int>(t.tiers.size())
                      ? t.tiers[static_cast<std::size_t>(tier - 1)].name
                      : tier_short_name(tier);
        // Reaching tier k means crossing the uplinks of the tiers below it (place_group).
        tl.oversubscription = 1.0;
        for (int i = 0; i + 1 < tier && i < static_cast<int>(t.tiers.size()); ++i)
            tl.oversubscription = std::max(tl.oversubscription,
                                           t.tiers[static_cast<std::size_t>(i)].oversubscription);
        const GroupTraffic* most = nullptr;
        for (const auto& g : traffic) {
            if (g.tier < tier)
                continue;
            tl.busy += g.busy_s;
            tl.bytes += g.bytes;
            tl.groups += (tl.groups.empty() ? "" : ", ") + g.group;
            if (!most || g.busy_s > most->busy_s)
                most = &g;
        }
        tl.busy = period_s > 0 ? std::min(1.0, tl.busy / period_s) : 0;
        out.push_back(tl);
        // The busiest network tier, in words (ties go to the higher tier).
        if (most && tl.busy >= neck_busy && bottleneck) {
            neck_busy = tl.busy;
            char b[64];
            std::snprintf(b, sizeof b, ", %.0f %% busy", tl.busy * 100);
            std::string text = tl.name + " carries " + most->group + " " + most->what + b;
            if (tl.oversubscription > 1.0 + 1e-9) {
                std::snprintf(b, sizeof b, ", %.3g:1 oversubscribed", tl.oversubscription);
                text += b;
            }
            *bottleneck = text;
        }
    }
    return out;
}

namespace {

/// The issue-22 fit that applies to a group on tier `ti`: its own tier's only. The scales are
/// measured / modelled on the fabric the measurement was fitted on; applied to a group on another
/// tier they would count that tier's oversubscription twice or not at all (a helper's Journey 4
/// walk: a leaf fit applied to the spine group after the fabric changed gave half the measured
/// bandwidth), so such groups keep the uncalibrated model and the explanation says the fit
/// does not cover them.
const TierCalibration* segment_fit(const CollectiveAssumptions& a, int ti) {
    return static_cast<std::size_t>(ti) < a.calibration.size() &&
                   !a.calibration[static_cast<std::size_t>(ti)].segments.empty()
               ? &a.calibration[static_cast<std::size_t>(ti)]
               : nullptr;
}

/// The model itself, allocation-free: fills `best` and returns ok, or a status to report.
/// `calibrated` false gives the uncalibrated model (what a fit scales).
CoreStatus collective_core(CollectiveOp op, double bytes, const Topology& t,
                           const GroupPlacement& p, CollectiveAlgo algo,
                           const CollectiveAssumptions& a, Candidate& best,
                           bool calibrated = true) {
    if (!(bytes >= 0) || !std::isfinite(bytes) || bytes > 1e18)
        return CoreStatus::bad_bytes;
    if (p.ranks < 1)
        return CoreStatus::bad_ranks;
    const int n = p.ranks;
    const int k = std::max(1, p.nodes);
    const int g = std::max(1, p.ranks_per_node);
    const TierCalibration* fitted = calibrated ? segment_fit(a, group_tier(p)) : nullptr;
    // Legacy per-tier values apply only where no issue-22 fit does (and never to the model a
    // fit scales).
    const bool legacy = calibrated && !fitted;
    const Fabric f = fabric_of(t, p, a, legacy);
    if (k > 1 && f.eff_net <= 0)
        return CoreStatus::no_network;
    if (f.eff_intra <= 0 && g > 1)
        return CoreStatus::no_scaleup;
    const double factor = busbw_factor(op, n);
    if (n == 1)
        return CoreStatus::single;
    const bool cal0 = legacy && !a.calibration.empty() && a.calibration[0].alpha_s > 0;
    const bool cal1 = legacy && a.calibration.size() > 1 && a.calibration[1].alpha_s > 0;
    const double hop_net_simple = cal1 ? a.calibration[1].alpha_s : a.simple_net_hop_s;
    const double hop_intra_simple = cal0 ? a.calibration[0].alpha_s : f.hop_intra_simple;
    const int steps = ring_steps(op, n);
    // Ring steps that cross a node boundary: one per node per pass (NCCL nInterSteps).
    const int passes = op == CollectiveOp::allreduce ? 2 : 1;
    const int inter_steps = k > 1 ? passes * (k - 1) : 0;
    const int intra_steps = std::max(0, steps - inter_steps);
    const int nodes_class = k == 1 ? 0 : (k == 2 ? 1 : 2);
    const double ll_cap =
        a.ll_max_Bps[static_cast<std::size_t>(arch_row(t))][static_cast<std::size_t>(nodes_class)];

    Candidates cands;
    // Bus bandwidth of the ring and its bottleneck.
    double ring_bw = f.eff_intra;
    const char* ring_neck = f.intra_name;
    bool ring_uplinks = false;
    if (op == CollectiveOp::sendrecv) {
        ring_bw = k > 1 ? f.eff_net / g : std::min(f.eff_pair, a.p2p_max_Bps);
        ring_neck =
            k > 1 ? "NIC" : (f.eff_pair > a.p2p_max_Bps ? "NCCL p2p channels" : f.intra_name);
    } else if (op == CollectiveOp::alltoall && k > 1) {
        // Off-node share (n-g)/n of each rank's data leaves through its NIC; the on-node share
        // through the scale-up links. busbw = factor x S / t.
        const double t_net = (n - g) / static_cast<double>(n) * bytes / (f.eff_net / g);
        const double t_nv = (g - 1) / static_cast<double>(n) * bytes / std::max(f.eff_intra, 1.0);
        const double t_bw = std::max(t_net, t_nv);
        ring_bw = t_bw > 0 ? factor * bytes / t_bw : f.eff_intra;
        ring_neck = t_net >= t_nv ? "NIC" : f.intra_name;
    } else if (k > 1 && f.eff_net < ring_bw) {
        ring_bw = f.eff_net;
        ring_neck = "NIC";
        ring_uplinks = p.oversubscription > 1.0;
    }
    const double wire =
        k > 1 ? std::min(f.wire_intra > 0 ? f.wire_intra : f.wire_net, f.wire_net) : f.wire_intra;
    // Simple protocol: NCCL base + per-hop latencies, plus pipeline fill: each step holds one
    // chunk of min(NCCL_BUFFSIZE, S/n) on the wire before the pipeline is full.
    {
        const double lat =
            a.simple_base_s + intra_steps * hop_intra_simple + inter_steps * hop_net_simple;
        const double chunk = std::min(a.nccl_buffsize, bytes / n);
        const double fill = wire > 0 ? fill_steps(op, n) * chunk / wire : 0;
        cands.push(CollectiveAlgo::ring, "Simple", lat, fill + factor * bytes / ring_bw, ring_neck,
                   ring_uplinks);
        if (!cal0 && !cal1) {
            // LL: 8-byte stores carry 4 bytes of data (half the bandwidth), capped by NCCL's
            // llMaxBws for the architecture and node count.
            const double ll_bw = std::min(0.5 * ring_bw, ll_cap);
            const double ll_lat =
                a.ll_base_s + intra_steps * f.hop_intra_ll + inter_steps * a.ll_net_hop_s;
            cands.push(CollectiveAlgo::ring, "LL", ll_lat, factor * bytes / ll_bw, ring_neck,
                       ring_uplinks);
        }
    }
    if (op == CollectiveOp::allreduce && k > 1) {
        // Double binary tree across nodes (Sanders et al. 2009; NCCL 2.4): chain inside the
        // node, log2(k) network hops up and down; bandwidth like the ring.
        const double lat = a.simple_base_s + 2.0 * ((g - 1) * hop_intra_simple +
                                                    std::ceil(std::log2(k)) *
                                                        (cal1 ? hop_net_simple : a.tree_net_hop_s));
        cands.push(CollectiveAlgo::tree, "Simple", lat, factor * bytes / ring_bw, ring_neck,
                   ring_uplinks);
        // Hierarchical: reduce-scatter inside the domain, all-reduce of S/g across nodes over
        // each GPU's own NIC, all-gather inside the domain. NCCL pipelines chunks through the
        // phases, so the bandwidth terms overlap: time = latencies + the slowest phase.
        const double intra_bw = f.eff_intra;
        const double lat_intra = a.simple_base_s + (g - 1) * hop_intra_simple;
        const double t_intra = 2.0 * (g - 1.0) / g * bytes / intra_bw;
        const double shard = bytes / g;
        const double net_bw = f.eff_net / g;
        const double lat_net = 2.0 * (k - 1) * hop_net_simple;
        const double t_net = 2.0 * (k - 1.0) / k * shard / net_bw;
        cands.push(CollectiveAlgo::hierarchical, "Simple", 2 * lat_intra + lat_net,
                   std::max(t_intra, t_net), t_net > t_intra ? ring_neck : f.intra_name,
                   t_net > t_intra && ring_uplinks);
    }
    if (op == CollectiveOp::allreduce && k == 1 && t.nvls && g > 2) {
        // NVLink SHARP: each GPU sends its buffer to the switch once and receives the reduced
        // result once; algbw ~ 0.61 x wire on 8xH100 (NCCL maintainer, nccl-tests #212).
        const double bw =
            (cal0 ? a.calibration[0].beta_Bps / 0.82 : f.wire_intra) * a.nvls_algbw_efficiency;
        cands.push(CollectiveAlgo::nvls, "Simple", a.nvls_latency_s, bytes / bw, "NVSwitch");
    }
    if (op == CollectiveOp::allreduce && k > 1 && algo == CollectiveAlgo::nvls &&
        t.scaleout_link.rfind("ib-", 0) == 0 && t.scaleout_link != "ib-hdr") {
        // In-network reduction: NVLS (or a ring) inside the domain, SHARP in the InfiniBand
        // switches across nodes (NCCL CollNet / NVLSTree): each GPU's shard S/g crosses its NIC
        // once each way instead of 2(k-1)/k times (Graham et al. 2016, SHARP). Needs the SHARP
        // plugin, so `auto` never picks it.
        const double lat =
            2.0 * (a.simple_base_s + (g - 1) * hop_intra_simple) + 2.0 * hop_net_simple;
        const double t_intra = 2.0 * (g - 1.0) / g * bytes / f.eff_intra;
        const double t_net = (bytes / g) / (f.eff_net / g);
        cands.push(CollectiveAlgo::nvls, "Simple", lat, std::max(t_intra, t_net),
                   t_net > t_intra ? "NIC (SHARP)" : f.intra_name);
    }
    const Candidate* chosen = nullptr;
    for (int i = 0; i < cands.n; ++i) {
        const Candidate& c = cands.items[static_cast<std::size_t>(i)];
        if (algo != CollectiveAlgo::automatic && c.algo != algo)
            continue;
        // auto chooses among the algorithms NCCL runs by default (ring, tree, NVLS inside a
        // domain); hierarchical (MPI-style) and SHARP need asking for.
        if (algo == CollectiveAlgo::automatic &&
            (c.algo == CollectiveAlgo::hierarchical || (c.algo == CollectiveAlgo::nvls && k > 1)))
            continue;
        if (!chosen || c.time < chosen->time)
            chosen = &c;
    }
    if (!chosen)
        return CoreStatus::no_algorithm;
    best = *chosen;
    if (fitted) {
        // Issue 22: the measured curve of this tier, as scales of the model's own latency and
        // transfer terms for the size range `bytes` falls in (the nearest range outside them).
        const auto& segs = fitted->segments;
        const CalibrationSegment* s = &segs.front();
        for (const auto& c : segs)
            if (bytes >= c.min_bytes)
                s = &c;
        best.time = s->alpha_scale * best.lat + s->beta_scale * (best.time - best.lat);
        best.lat *= s->alpha_scale;
    }
    return CoreStatus::ok;
}

} // namespace

double collective_seconds(CollectiveOp op, double bytes, const Topology& t, const GroupPlacement& p,
                          CollectiveAlgo algo, const CollectiveAssumptions& a) {
    Candidate best;
    const CoreStatus st = collective_core(op, bytes, t, p, algo, a, best);
    return st == CoreStatus::ok ? best.time : (st == CoreStatus::single ? 0.0 : -1.0);
}

Result<CollectiveResult> collective_time(CollectiveOp op, double bytes, const Topology& t,
                                         const GroupPlacement& p, CollectiveAlgo algo,
                                         const CollectiveAssumptions& a) {
    Candidate best;
    const CoreStatus st = collective_core(op, bytes, t, p, algo, a, best);
    const int k = std::max(1, p.nodes);
    switch (st) {
    case CoreStatus::bad_bytes:
        return Error{"--bytes", "must be a finite size between 0 and 1e18 bytes"};
    case CoreStatus::bad_ranks:
        return Error{"--gpus", "must be at least 1"};
    case CoreStatus::no_network:
        return Error{"--scaleout", "the group spans " + std::to_string(k) +
                                       " scale-up domains but they have no scale-out network"};
    case CoreStatus::no_scaleup:
        return Error{"--gpu", "no scale-up or PCIe bandwidth known for " + t.gpu};
    case CoreStatus::no_algorithm:
        return Error{
            "--algorithm",
            std::string(collective_algo_name(algo)) + " is not available for " +
                std::string(collective_op_name(op)) + " on this placement" +
                (algo == CollectiveAlgo::nvls ? " (needs an NVSwitch gen 3+ domain)" : "")};
    default:
        break;
    }
    CollectiveResult r;
    r.op = op;
    r.bytes = bytes;
    r.gpus = p.ranks;
    r.tier = k > 1 ? std::max(1, p.tier) : 0;
    if (st == CoreStatus::single) {
        r.algorithm = CollectiveAlgo::ring;
        r.protocol = "none";
        return r;
    }
    const double factor = busbw_factor(op, p.ranks);
    r.algorithm = best.algo;
    r.protocol = best.protocol;
    r.time_s = best.time;
    r.bottleneck = best.uplinks ? "tier " + std::to_string(p.tier) + " uplinks (" +
                                      units::format_si(p.oversubscription, "", 2) + ":1)"
                                : best.bottleneck;
    r.algbw_Bps = r.time_s > 0 ? bytes / r.time_s : 0;
    r.busbw_Bps = r.algbw_Bps * factor;
    return r;
}

// ---- nccl-tests parsing (issue 22) -----------------------------------------------------------

std::size_t NcclTestsOutput::rows() const {
    std::size_t n = 0;
    for (const auto& r : runs)
        n += r.rows.size();
    return n;
}

namespace {

/// Removes what launchers put in front of (or, with `[0]`, inside) each line: `[1,0]<stdout>:`,
/// `[0]`, `(head, rank=0, pid=3808)`, srun's ` 0: ` label.
std::string strip_launcher_tags(std::string_view line) {
    std::string out;
    out.reserve(line.size());
    for (std::size_t i = 0; i < line.size();) {
        if (line[i] == '[') {
            std::size_t j = i + 1;
            while (j < line.size() &&
                   (std::isdigit(static_cast<unsigned char>(line[j])) || line[j] == ','))
                ++j;
            if (j > i + 1 && j < line.size() && line[j] == ']') {
                ++j;
                for (std::string_view tag : {"<stdout>:", "<stderr>:"})
                    if (line.substr(j, tag.size()) == tag)
                        j += tag.size();
                out += ' ';
                i = j;
                continue;
            }
        }
        out += line[i++];
    }
    // `(head, rank=0, pid=3808) ...` prefixes (Ray / SkyPilot) before the nccl-tests text.
    std::size_t b = out.find_first_not_of(" \t\r");
    while (b != std::string::npos && out[b] == '(') {
        const std::size_t e = out.find(')', b);
        if (e == std::string::npos)
            break;
        b = out.find_first_not_of(" \t\r", e + 1);
    }
    if (b == std::string::npos)
        return {};
    out.erase(0, b);
    // srun --label: "12: text".
    std::size_t d = 0;
    while (d < out.size() && std::isdigit(static_cast<unsigned char>(out[d])))
        ++d;
    if (d > 0 && d + 1 < out.size() && out[d] == ':' && (out[d + 1] == ' ' || out[d + 1] == '#')) {
        out.erase(0, d + 1);
        out.erase(0, std::min(out.size(), out.find_first_not_of(" \t")));
    }
    return out;
}

std::vector<std::string> words(std::string_view s) {
    std::vector<std::string> w;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
            ++i;
        std::size_t j = i;
        while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j])))
            ++j;
        if (j > i)
            w.emplace_back(s.substr(i, j - i));
        i = j;
    }
    return w;
}

bool to_number(const std::string& w, double& v) {
    auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    return ec == std::errc() && p == w.data() + w.size() && std::isfinite(v);
}

bool is_integer(const std::string& w) {
    return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
}

/// nccl-tests' data types (src/common.cu test_typenames) and the ones older versions printed.
bool is_type_name(const std::string& w) {
    static constexpr std::array<std::string_view, 14> kTypes = {
        "int8",  "uint8",  "int32",    "uint32", "int64",  "uint64",   "half",
        "float", "double", "bfloat16", "f8e4m3", "f8e5m2", "fp8_e4m3", "fp8_e5m2"};
    return std::find(kTypes.begin(), kTypes.end(), w) != kTypes.end();
}

/// "all_reduce_perf" / "alltoall_perf_mpi" -> "allreduce" / "alltoall".
std::string op_of_test(const std::string& name) {
    for (const char* t :
         {"all_reduce", "all_gather", "reduce_scatter", "alltoall", "broadcast", "sendrecv"})
        if (name.rfind(std::string(t) + "_perf", 0) == 0) {
            std::string s(t);
            s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
            return s;
        }
    return {};
}

/// Column positions from a column-header line, relative to `size`.
struct Columns {
    int width = 0; ///< tokens in a data row (0 = unknown: read from the end)
    int time = -1, algbw = -1, busbw = -1, wrong = -1, in_time = -1, in_wrong = -1;
};

} // namespace

Result<NcclTestsOutput> parse_nccl_tests(std::string_view text) {
    NcclTestsOutput out;
    NcclTestsRun run;
    Columns cols;
    std::set<int> rank_ids;
    std::set<std::string> hosts;
    const auto close_run = [&]() {
        if (!rank_ids.empty()) {
            run.ranks = *rank_ids.rbegin() + 1;
            // Hosts count only when every rank's line is there (people trim long lists).
            if (static_cast<int>(rank_ids.size()) == run.ranks)
                run.nodes = static_cast<int>(hosts.size());
        }
        if (!run.rows.empty())
            out.runs.push_back(std::move(run));
        run = NcclTestsRun{};
        rank_ids.clear();
        hosts.clear();
    };
    std::size_t line_no = 0, pos = 0, total_rows = 0;
    std::string pending_test; // a test name seen before its run's header
    while (pos <= text.size()) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        std::string_view raw = text.substr(pos, end - pos);
        pos = end + 1;
        ++line_no;
        const int ln = static_cast<int>(line_no);
        if (raw.size() > 4096) {
            out.skipped.push_back({ln, "line longer than 4096 characters"});
            continue;
        }
        const std::string line = strip_launcher_tags(raw);
        const bool comment = !line.empty() && line[0] == '#';
        std::vector<std::string> w = words(comment ? std::string_view(line).substr(1) : line);
        if (w.empty())
            continue;
        // The test's name: the command line, or "# Collective test starting: all_reduce_perf"
        // (any *_perf binary: gather_perf and others are named, then refused by the fit).
        for (const auto& word : w) {
            const std::string base = word.substr(word.find_last_of('/') + 1);
            const std::size_t perf = base.find("_perf");
            if (perf != std::string::npos && perf > 0 &&
                (perf + 5 == base.size() || base.compare(perf + 5, 1, "_") == 0)) {
                if (run.rows.empty() && run.test_name.empty()) {
                    run.op_name = op_of_test(base);
                    run.test_name = base;
                } else {
                    pending_test = base;
                }
                break;
            }
        }
        // A run's header starts the next run.
        if (w[0] == "nThread") {
            if (!run.rows.empty())
                close_run();
            if (run.first_line == 0)
                run.first_line = ln;
            if (!pending_test.empty() && run.test_name.empty()) {
                run.op_name = op_of_test(pending_test);
                run.test_name = pending_test;
            }
            pending_test.clear();
            cols = Columns{};
            continue;
        }
        // "Rank 12 Group 0 Pid 4711 on host-3 device 4 [0x..] NVIDIA H100" (older: no Group).
        if (w.size() >= 5 && w[0] == "Rank" && is_integer(w[1])) {
            const auto on = std::find(w.begin(), w.end(), "on");
            if (on != w.end() && on + 1 != w.end()) {
                if (!run.rows.empty())
                    close_run(); // rank lines after data: a run without its own header
                const long long id = std::strtoll(w[1].c_str(), nullptr, 10);
                if (id >= 0 && id < (1 << 24))
                    rank_ids.insert(static_cast<int>(id));
                if (hosts.size() < 100000)
                    hosts.insert(*(on + 1));
            }
            continue;
        }
        if (comment && w.size() >= 4 && w[0] == "Avg" && w[1] == "bus" && w[2] == "bandwidth") {
            double v = 0;
            if (to_number(w.back(), v) && v >= 0)
                run.avg_busbw_Bps = v * 1e9;
            continue;
        }
        // The column header: positions of time / algbw / busbw / #wrong, out-of-place first.
        if (comment && std::find(w.begin(), w.end(), "size") != w.end() &&
            std::find(w.begin(), w.end(), "time") != w.end()) {
            cols = Columns{};
            const auto first = std::find(w.begin(), w.end(), "size");
            int k = 0;
            for (auto it = first; it != w.end(); ++it, ++k) {
                const std::string& c = *it;
                const bool second = cols.time >= 0 && c == "time";
                if (c == "time")
                    (second ? cols.in_time : cols.time) = k;
                else if (c == "algbw" && cols.algbw < 0)
                    cols.algbw = k;
                else if (c == "busbw" && cols.busbw < 0)
                    cols.busbw = k;
                else if (c == "#wrong" || c == "error" || c == "wrong")
                    (cols.wrong < 0 ? cols.wrong : cols.in_wrong) = k;
            }
            cols.width = k;
            continue;
        }
        if (comment)
            continue;
        // A data row: size (integer), count (integer), type name, ... (anything before it is a
        // prompt or a launcher prefix the tags above did not cover).
        std::size_t at = w.size();
        for (std::size_t i = 0; i + 2 < w.size(); ++i)
            if (is_integer(w[i]) && is_integer(w[i + 1]) && is_type_name(w[i + 2])) {
                at = i;
                break;
            }
        if (at == w.size())
            continue; // prose, NCCL INFO lines, prompts
        const std::vector<std::string> d(w.begin() + static_cast<std::ptrdiff_t>(at), w.end());
        Columns c = cols;
        if (c.width == 0 || static_cast<int>(d.size()) != c.width) {
            // No (matching) column header: time algbw busbw wrong, twice, at the end.
            if (d.size() < 7) {
                out.skipped.push_back({ln, "a data row with " + std::to_string(d.size()) +
                                               " columns, fewer than nccl-tests prints"});
                continue;
            }
            const int n = static_cast<int>(d.size());
            c = Columns{n, n - 8, n - 7, n - 6, n - 5, n - 4, n - 1};
            if (n < 9)
                c = Columns{n, n - 4, n - 3, n - 2, n - 1, -1, -1};
        }
        double size = 0, t = 0, alg = 0, bus = 0;
        const auto at_col = [&](int k) -> const std::string& {
            static const std::string none;
            return k >= 0 && k < static_cast<int>(d.size()) ? d[static_cast<std::size_t>(k)] : none;
        };
        if (!to_number(d[0], size) || size < 0 || size > 1e15) {
            out.skipped.push_back({ln, "size \"" + d[0] + "\" is not a byte count"});
            continue;
        }
        if (!to_number(at_col(c.time), t) || !to_number(at_col(c.algbw), alg) ||
            !to_number(at_col(c.busbw), bus) || t < 0 || alg < 0 || bus < 0) {
            out.skipped.push_back({ln, "time, algbw or busbw is not a number (\"" + at_col(c.time) +
                                           "\", \"" + at_col(c.algbw) + "\", \"" + at_col(c.busbw) +
                                           "\")"});
            continue;
        }
        // `#wrong` counts wrong values (N/A with -c 0); older versions print the largest error.
        const std::string& wrong = at_col(c.wrong);
        if (is_integer(wrong) && std::strtoll(wrong.c_str(), nullptr, 10) > 0) {
            out.skipped.push_back({ln, "nccl-tests found " + wrong + " wrong values"});
            continue;
        }
        if (t <= 0 || size <= 0) {
            out.skipped.push_back({ln, "zero size or time carries no information"});
            continue;
        }
        NcclTestsRow row{size, t * 1e-6, alg * 1e9, bus * 1e9, 0, ln};
        if (d.size() > 3 && run.redop.empty() && std::isalpha(static_cast<unsigned char>(d[3][0])))
            run.redop = d[3];
        double tin = 0;
        if (to_number(at_col(c.in_time), tin) && tin > 0)
            row.inplace_time_s = tin * 1e-6;
        if (run.first_line == 0)
            run.first_line = ln;
        run.rows.push_back(row);
        if (++total_rows > 100000)
            return Error{"input", "more than 100000 data rows"};
    }
    close_run();
    // No rank lines: the ranks follow from busbw / algbw (nccl-tests doc/PERFORMANCE.md) for the
    // operations whose factor depends on them, from the row with the clearest ratio.
    // A run whose test is not named but whose busbw exceeds its algbw is an all-reduce: only its
    // factor, 2(n-1)/n, is above 1. Without "Rank" lines the ranks follow from the factor.
    for (auto& r : out.runs) {
        const auto best = std::max_element(r.rows.begin(), r.rows.end(), [](auto& x, auto& y) {
            return x.algbw_Bps < y.algbw_Bps;
        });
        if (best->algbw_Bps < 1e9)
            continue; // two-decimal GB/s columns: too coarse below 1 GB/s
        const double ratio = best->busbw_Bps / best->algbw_Bps;
        if (r.op_name.empty() && r.test_name.empty() && ratio > 1.05)
            r.op_name = "allreduce";
        if (r.ranks > 0 || r.op_name.empty() || r.op_name == "broadcast" || r.op_name == "sendrecv")
            continue;
        const double per = r.op_name == "allreduce" ? ratio / 2.0 : ratio; // (n-1)/n
        if (per > 0 && per < 0.97) {
            r.ranks = static_cast<int>(std::lround(1.0 / (1.0 - per)));
            r.ranks_inferred = true;
        }
    }
    if (out.runs.empty()) {
        std::string why =
            "no nccl-tests data rows found (expected lines with size, count and type, "
            "e.g. \"1048576 262144 float sum -1 ...\")";
        if (!out.skipped.empty())
            why += "; line " + std::to_string(out.skipped.front().line) + ": " +
                   out.skipped.front().reason;
        return Error{"input", why};
    }
    return out;
}

// ---- the fit (issue 22) ----------------------------------------------------------------------

namespace {

struct FitRow {
    double bytes, time, lat, transfer; ///< measured time; the model's latency and transfer terms
    const char* algo;
    const char* protocol;
};

/// Non-negative least squares of t = a x lat + b x transfer in relative error, with a > 0 kept
/// physical (at least 1% of the model's latency) and b > 0. Returns the sum of squared relative
/// errors.
double fit_scales(const std::vector<FitRow>& r, std::size_t i0, std::size_t i1,
                  CalibrationSegment& s) {
    // A floor that keeps latency physical (alpha > 0, issue 22), not a fitted value: on the 13
    // real outputs in tests/data/nccl-tests the smallest fitted scale is 0.35, so it binds only
    // on data without a small-message plateau (docs/collectives.md).
    constexpr double kMinScale = 0.01;
    double s11 = 0, s12 = 0, s22 = 0, y1 = 0, y2 = 0;
    for (std::size_t i = i0; i < i1; ++i) {
        const double u = r[i].lat / r[i].time, v = r[i].transfer / r[i].time;
        s11 += u * u;
        s12 += u * v;
        s22 += v * v;
        y1 += u;
        y2 += v;
    }
    double a = 0, b = 0;
    const double det = s11 * s22 - s12 * s12;
    if (det > 1e-12 * std::max(1e-300, s11 * s22)) {
        a = (y1 * s22 - y2 * s12) / det;
        b = (y2 * s11 - y1 * s12) / det;
    }
    if (!(a >= kMinScale) || !(b >= kMinScale)) {
        // One term at its bound: fit the other alone, keep the better of the two.
        const auto sse = [&](double aa, double bb) {
            double e = 0;
            for (std::size_t i = i0; i < i1; ++i) {
                const double d = (aa * r[i].lat + bb * r[i].transfer) / r[i].time - 1.0;
                e += d * d;
            }
            return e;
        };
        const double b1 = s22 > 0 ? std::max(kMinScale, (y2 - kMinScale * s12) / s22) : 1.0;
        const double a2 = s11 > 0 ? std::max(kMinScale, (y1 - kMinScale * s12) / s11) : 1.0;
        if (sse(kMinScale, b1) <= sse(a2, kMinScale)) {
            a = kMinScale;
            b = b1;
        } else {
            a = a2;
            b = kMinScale;
        }
    }
    s.alpha_scale = a;
    s.beta_scale = b;
    double e = 0;
    for (std::size_t i = i0; i < i1; ++i) {
        const double d = (a * r[i].lat + b * r[i].transfer) / r[i].time - 1.0;
        e += d * d;
    }
    return e;
}

const char* tier_name(int tier, const Topology& t) {
    if (tier == 0)
        return t.pcie_only ? "scale-up (PCIe)" : "scale-up (NVLink)";
    return tier_short_name(tier);
}

} // namespace

Result<CalibrationFit> calibrate(const NcclTestsOutput& out, CollectiveOp fallback_op,
                                 const Topology& t, const CollectiveAssumptions& base) {
    CalibrationFit fit;
    fit.skipped = out.skipped;
    fit.applied = base;
    std::map<int, std::vector<FitRow>> by_tier;
    std::map<int, TierFit> info;
    std::size_t largest = 0;
    for (const auto& run : out.runs) {
        if (run.op_name.empty() && !run.test_name.empty()) {
            fit.skipped.push_back({run.first_line, run.test_name +
                                                       ": not a collective the model has "
                                                       "(all_reduce, all_gather, reduce_scatter, "
                                                       "alltoall, broadcast, sendrecv)"});
            continue;
        }
        // Unnamed and without a reduction: allgather, alltoall, broadcast or sendrecv, which a
        // reduction fallback would misread.
        if (run.op_name.empty() && run.redop == "none" &&
            (fallback_op == CollectiveOp::allreduce ||
             fallback_op == CollectiveOp::reducescatter)) {
            fit.skipped.push_back({run.first_line,
                                   "the output does not name its test and has no reduction "
                                   "(all_gather, alltoall, broadcast or sendrecv): keep the "
                                   "command line or the \"Collective test starting\" line in "
                                   "the file, or give the operation (--op)"});
            continue;
        }
        const CollectiveOp op = collective_op_from_name(run.op_name).value_or(fallback_op);
        // A drawn design bounds the group; a fabric from shape flags (gpus 0) does not.
        const int design_gpus = t.gpus > 0 ? static_cast<int>(std::min(t.gpus, 1e9)) : 1 << 24;
        const int n =
            run.ranks > 0 ? run.ranks : std::min(design_gpus, std::max(2, t.scaleup_domain));
        if (n > design_gpus || n < 2) {
            fit.skipped.push_back({run.first_line, "the run used " + std::to_string(n) +
                                                       " GPUs; the design has " +
                                                       std::to_string(design_gpus)});
            continue;
        }
        const GroupPlacement p = place_group(t, n, 1);
        const int tier = group_tier(p);
        if (run.nodes > 0 && run.nodes != p.nodes)
            fit.skipped.push_back(
                {run.first_line, "note: the run's ranks sit on " + std::to_string(run.nodes) +
                                     " hosts; the design places " + std::to_string(n) +
                                     " GPUs on " + std::to_string(p.nodes) +
                                     " scale-up domains (fitted as the design places them)"});
        TierFit& ti = info[tier];
        if (run.rows.size() >= largest) {
            largest = run.rows.size();
            fit.op = std::string(collective_op_name(op));
            fit.ranks = n;
            fit.nodes = p.nodes;
        }
        if (static_cast<int>(run.rows.size()) >= ti.rows) {
            ti.ranks = n;
            ti.nodes = p.nodes;
            ti.op = std::string(collective_op_name(op));
            ti.oversubscription = p.oversubscription;
        }
        for (const auto& r : run.rows) {
            Candidate c;
            const CoreStatus st = collective_core(op, r.bytes, t, p, CollectiveAlgo::automatic,
                                                  base, c, /*calibrated=*/false);
            if (st != CoreStatus::ok) {
                fit.skipped.push_back({r.line, "the model cannot run " +
                                                   std::string(collective_op_name(op)) + " on " +
                                                   std::to_string(n) + " GPUs of this design"});
                continue;
            }
            by_tier[tier].push_back({r.bytes, r.time_s, c.lat, c.time - c.lat,
                                     collective_algo_name(c.algo).data(), c.protocol});
            ti.rows++;
            if (ti.points.size() < 4096)
                ti.points.push_back({r.bytes, r.time_s});
        }
    }
    if (by_tier.empty())
        return Error{"--calibrate",
                     "no usable rows: " + (fit.skipped.empty() ? std::string("none parsed")
                                                               : fit.skipped.front().reason)};
    double sum_b = 0, sum_a = 0, sum_b1 = 0, sum_a1 = 0;
    int n_all = 0, n_1m = 0;
    for (auto& [tier, rows] : by_tier) {
        TierFit& tf = info[tier];
        tf.tier = tier;
        tf.name = tier_name(tier, t);
        if (rows.size() < 2)
            return Error{"--calibrate", "need at least two data rows on the " + tf.name +
                                            " tier to fit latency and bandwidth"};
        std::stable_sort(rows.begin(), rows.end(),
                         [](const FitRow& x, const FitRow& y) { return x.bytes < y.bytes; });
        // Up to three size ranges, each of at least three rows (two when there are few), chosen
        // by dynamic programming; the number of ranges by the small-sample corrected AIC
        // (Hurvich & Tsai 1989): n ln(SSE/n) + 2p + 2p(p+1)/(n-p-1), p = two scales per range
        // plus one breakpoint between ranges.
        const std::size_t m = rows.size();
        const std::size_t min_len = m >= 9 ? 3 : 2;
        constexpr std::size_t kMaxRanges = 3;
        std::vector<std::vector<double>> cost(m + 1, std::vector<double>(m + 1, 1e300));
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = i + min_len; j <= m; ++j) {
                CalibrationSegment s;
                cost[i][j] = fit_scales(rows, i, j, s);
            }
        // best[k][j]: k ranges over rows [0, j); from[k][j]: start of the last range.
        std::vector<std::vector<double>> best(kMaxRanges + 1, std::vector<double>(m + 1, 1e300));
        std::vector<std::vector<std::size_t>> from(kMaxRanges + 1,
                                                   std::vector<std::size_t>(m + 1, 0));
        best[0][0] = 0;
        for (std::size_t k = 1; k <= kMaxRanges; ++k)
            for (std::size_t j = 1; j <= m; ++j)
                for (std::size_t i = 0; i + min_len <= j; ++i)
                    if (best[k - 1][i] < 1e299 && cost[i][j] < 1e299 &&
                        best[k - 1][i] + cost[i][j] < best[k][j]) {
                        best[k][j] = best[k - 1][i] + cost[i][j];
                        from[k][j] = i;
                    }
        std::size_t ranges = 1;
        double best_aic = 1e300;
        for (std::size_t k = 1; k <= kMaxRanges; ++k) {
            if (best[k][m] >= 1e299)
                continue;
            const double sse = std::max(best[k][m], 1e-12 * static_cast<double>(m));
            const double np = 3.0 * static_cast<double>(k) - 1.0, nm = static_cast<double>(m);
            if (nm - np - 1.0 <= 0)
                continue;
            const double aic =
                nm * std::log(sse / nm) + 2.0 * np + 2.0 * np * (np + 1) / (nm - np - 1);
            if (aic < best_aic - 1e-9) {
                best_aic = aic;
                ranges = k;
            }
        }
        std::vector<std::pair<std::size_t, std::size_t>> bounds;
        for (std::size_t k = ranges, j = m; k > 0; --k) {
            const std::size_t i = from[k][j];
            bounds.emplace_back(i, j);
            j = i;
        }
        std::reverse(bounds.begin(), bounds.end());
        double tb = 0, ta = 0;
        const CollectiveOp top = collective_op_from_name(tf.op).value_or(fallback_op);
        const double bus_factor = busbw_factor(top, tf.ranks);
        for (const auto& [i0, i1] : bounds) {
            SegmentFit sf;
            fit_scales(rows, i0, i1, sf.scales);
            sf.min_bytes = rows[i0].bytes;
            sf.max_bytes = rows[i1 - 1].bytes;
            sf.scales.min_bytes = sf.min_bytes;
            sf.scales.max_bytes = sf.max_bytes;
            sf.rows = static_cast<int>(i1 - i0);
            const FitRow& last = rows[i1 - 1];
            const FitRow& first = rows[i0];
            sf.algorithm = last.algo;
            sf.protocol = last.protocol;
            sf.alpha_s = sf.scales.alpha_scale * first.lat;
            const double transfer = sf.scales.beta_scale * last.transfer;
            sf.beta_Bps = transfer > 0 ? bus_factor * last.bytes / transfer : 0;
            double eb = 0, ea = 0;
            for (std::size_t i = i0; i < i1; ++i) {
                const FitRow& r = rows[i];
                const double before = std::abs(r.lat + r.transfer - r.time) / r.time;
                const double after = std::abs(sf.scales.alpha_scale * r.lat +
                                              sf.scales.beta_scale * r.transfer - r.time) /
                                     r.time;
                eb += before;
                ea += after;
                sum_b += before;
                sum_a += after;
                ++n_all;
                if (r.bytes >= 1048576) {
                    sum_b1 += before;
                    sum_a1 += after;
                    ++n_1m;
                }
            }
            tb += eb;
            ta += ea;
            sf.error_before = eb / sf.rows;
            sf.error_after = ea / sf.rows;
            tf.segments.push_back(sf);
        }
        tf.error_before = tb / static_cast<double>(m);
        tf.error_after = ta / static_cast<double>(m);
        auto& cal = fit.applied.calibration;
        if (cal.size() < static_cast<std::size_t>(tier) + 1)
            cal.resize(static_cast<std::size_t>(tier) + 1);
        TierCalibration tc;
        for (const auto& sf : tf.segments)
            tc.segments.push_back(sf.scales);
        cal[static_cast<std::size_t>(tier)] = std::move(tc);
        fit.rows += static_cast<int>(m);
        fit.tiers.push_back(std::move(tf));
    }
    fit.error_before = n_all ? sum_b / n_all : 0;
    fit.error_after = n_all ? sum_a / n_all : 0;
    fit.error_before_1mib = n_1m ? sum_b1 / n_1m : 0;
    fit.error_after_1mib = n_1m ? sum_a1 / n_1m : 0;
    return fit;
}

} // namespace cl::model
