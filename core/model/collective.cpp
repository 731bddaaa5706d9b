#include "model/collective.h"

#include "model/units.h"

#include <Eigen/Dense>

#include <algorithm>
#include <charconv>
#include <cmath>
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

Fabric fabric_of(const Topology& t, const GroupPlacement& p, const CollectiveAssumptions& a) {
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
    if (!a.calibration.empty() && a.calibration[0].beta_Bps > 0) {
        f.eff_intra = a.calibration[0].beta_Bps;
        f.eff_pair = std::min(f.eff_pair, f.eff_intra);
    }
    if (a.calibration.size() > 1 && a.calibration[1].beta_Bps > 0)
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
};

/// Fixed-capacity candidate list: the hot path (training model, search) allocates nothing.
struct Candidates {
    std::array<Candidate, 8> items;
    int n = 0;
    void push(CollectiveAlgo algo, const char* protocol, double time, const char* neck,
              bool uplinks = false) {
        if (n < static_cast<int>(items.size()))
            items[static_cast<std::size_t>(n++)] = {algo, protocol, time, neck, uplinks};
    }
};

/// Status of the core computation (no strings on the hot path).
enum class CoreStatus { ok, bad_bytes, bad_ranks, no_network, no_scaleup, no_algorithm, single };

} // namespace

namespace {

/// The model itself, allocation-free: fills `best` and returns ok, or a status to report.
CoreStatus collective_core(CollectiveOp op, double bytes, const Topology& t,
                           const GroupPlacement& p, CollectiveAlgo algo,
                           const CollectiveAssumptions& a, Candidate& best) {
    if (!(bytes >= 0) || !std::isfinite(bytes) || bytes > 1e18)
        return CoreStatus::bad_bytes;
    if (p.ranks < 1)
        return CoreStatus::bad_ranks;
    const int n = p.ranks;
    const int k = std::max(1, p.nodes);
    const int g = std::max(1, p.ranks_per_node);
    const Fabric f = fabric_of(t, p, a);
    if (k > 1 && f.eff_net <= 0)
        return CoreStatus::no_network;
    if (f.eff_intra <= 0 && g > 1)
        return CoreStatus::no_scaleup;
    const double factor = busbw_factor(op, n);
    if (n == 1)
        return CoreStatus::single;
    const bool cal0 = !a.calibration.empty() && a.calibration[0].alpha_s > 0;
    const bool cal1 = a.calibration.size() > 1 && a.calibration[1].alpha_s > 0;
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
        cands.push(CollectiveAlgo::ring, "Simple", lat + fill + factor * bytes / ring_bw, ring_neck,
                   ring_uplinks);
        if (!cal0 && !cal1) {
            // LL: 8-byte stores carry 4 bytes of data (half the bandwidth), capped by NCCL's
            // llMaxBws for the architecture and node count.
            const double ll_bw = std::min(0.5 * ring_bw, ll_cap);
            const double ll_lat =
                a.ll_base_s + intra_steps * f.hop_intra_ll + inter_steps * a.ll_net_hop_s;
            cands.push(CollectiveAlgo::ring, "LL", ll_lat + factor * bytes / ll_bw, ring_neck,
                       ring_uplinks);
        }
    }
    if (op == CollectiveOp::allreduce && k > 1) {
        // Double binary tree across nodes (Sanders et al. 2009; NCCL 2.4): chain inside the
        // node, log2(k) network hops up and down; bandwidth like the ring.
        const double lat = a.simple_base_s + 2.0 * ((g - 1) * hop_intra_simple +
                                                    std::ceil(std::log2(k)) *
                                                        (cal1 ? hop_net_simple : a.tree_net_hop_s));
        cands.push(CollectiveAlgo::tree, "Simple", lat + factor * bytes / ring_bw, ring_neck,
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
        cands.push(CollectiveAlgo::hierarchical, "Simple",
                   2 * lat_intra + lat_net + std::max(t_intra, t_net),
                   t_net > t_intra ? ring_neck : f.intra_name, t_net > t_intra && ring_uplinks);
    }
    if (op == CollectiveOp::allreduce && k == 1 && t.nvls && g > 2) {
        // NVLink SHARP: each GPU sends its buffer to the switch once and receives the reduced
        // result once; algbw ~ 0.61 x wire on 8xH100 (NCCL maintainer, nccl-tests #212).
        const double bw =
            (cal0 ? a.calibration[0].beta_Bps / 0.82 : f.wire_intra) * a.nvls_algbw_efficiency;
        cands.push(CollectiveAlgo::nvls, "Simple", a.nvls_latency_s + bytes / bw, "NVSwitch");
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
        cands.push(CollectiveAlgo::nvls, "Simple", lat + std::max(t_intra, t_net),
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

// ---- nccl-tests parsing ----------------------------------------------------------------------

Result<NcclTestsRun> parse_nccl_tests(std::string_view text) {
    NcclTestsRun run;
    std::vector<Error> errs;
    std::size_t line_no = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++line_no;
        if (line.size() > 4096)
            return Error{"line " + std::to_string(line_no), "line longer than 4096 characters"};
        std::string l(line);
        if (l.find("Rank") != std::string::npos && l.find("Group") != std::string::npos &&
            l.rfind("#", 0) == 0)
            ++run.ranks;
        for (const char* name :
             {"all_reduce", "all_gather", "reduce_scatter", "alltoall", "broadcast", "sendrecv"})
            if (l.find(std::string(name) + "_perf") != std::string::npos && run.op_name.empty()) {
                std::string s(name);
                s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
                run.op_name = s;
            }
        std::istringstream in(l);
        in.imbue(std::locale::classic());
        std::vector<std::string> tok;
        for (std::string w; in >> w;)
            tok.push_back(w);
        if (tok.empty() || tok[0][0] == '#')
            continue;
        // A data row starts with the size in bytes and ends with
        // time algbw busbw #wrong time algbw busbw #wrong (out-of-place, then in-place).
        double size = 0;
        auto [p1, ec1] = std::from_chars(tok[0].data(), tok[0].data() + tok[0].size(), size);
        if (ec1 != std::errc() || p1 != tok[0].data() + tok[0].size())
            continue; // not a data row (banner, "Avg bus bandwidth", ...)
        if (tok.size() < 9) {
            errs.push_back({"line " + std::to_string(line_no),
                            "expected at least 9 columns, found " + std::to_string(tok.size())});
            continue;
        }
        const std::size_t base = tok.size() - 8;
        double v[3];
        bool ok = true;
        for (int i = 0; i < 3; ++i) {
            const std::string& w = tok[base + static_cast<std::size_t>(i)];
            auto [pp, ec] = std::from_chars(w.data(), w.data() + w.size(), v[i]);
            ok = ok && ec == std::errc() && pp == w.data() + w.size() && std::isfinite(v[i]) &&
                 v[i] >= 0;
        }
        if (!ok || !(size >= 0) || !std::isfinite(size)) {
            errs.push_back(
                {"line " + std::to_string(line_no), "expected numbers for time, algbw and busbw"});
            continue;
        }
        if (v[0] <= 0)
            continue; // zero-time rows carry no information
        run.rows.push_back({size, v[0] * 1e-6, v[1] * 1e9, v[2] * 1e9});
        if (run.rows.size() > 100000)
            return Error{"input", "more than 100000 data rows"};
    }
    if (!errs.empty())
        return errs;
    if (run.rows.empty())
        return Error{"input", "no nccl-tests data rows found (expected lines starting with a size "
                              "in bytes)"};
    return run;
}

Result<CalibrationFit> calibrate(const NcclTestsRun& run, CollectiveOp op, const Topology& t,
                                 const GroupPlacement& p, const CollectiveAssumptions& a) {
    if (run.rows.size() < 2)
        return Error{"--calibrate", "need at least two data rows to fit latency and bandwidth"};
    CalibrationFit fit;
    fit.tier_index = p.nodes > 1 ? 1 : 0;
    const int n = p.ranks;
    const int steps = ring_steps(op, n);
    const double factor = busbw_factor(op, n);
    const Fabric f = fabric_of(t, p, a);
    const double wire = p.nodes > 1 ? std::min(f.wire_intra, f.wire_net) : f.wire_intra;
    // The fitted tier's steps carry alpha; the other tier's steps keep their defaults.
    // time - base - fill - other = fitted_steps x alpha + factor x S x (1/beta_bus); rows are
    // weighted by 1/time so the fit minimises relative error.
    const int k = std::max(1, p.nodes);
    const int passes = op == CollectiveOp::allreduce ? 2 : 1;
    const int inter_steps = k > 1 ? passes * (k - 1) : 0;
    const int intra_steps = std::max(0, steps - inter_steps);
    const int fitted_steps = fit.tier_index == 1 ? inter_steps : intra_steps;
    const double other = fit.tier_index == 1 ? intra_steps * f.hop_intra_simple : 0.0;
    const auto m = static_cast<Eigen::Index>(run.rows.size());
    Eigen::MatrixXd A(m, 2);
    Eigen::VectorXd y(m);
    for (Eigen::Index i = 0; i < m; ++i) {
        const auto& row = run.rows[static_cast<std::size_t>(i)];
        const double w = 1.0 / row.time_s;
        const double fill =
            wire > 0 ? fill_steps(op, n) * std::min(a.nccl_buffsize, row.bytes / n) / wire : 0;
        A(i, 0) = w * std::max(1, fitted_steps);
        A(i, 1) = w * factor * row.bytes;
        y(i) = w * (row.time_s - a.simple_base_s - fill - other);
    }
    Eigen::Vector2d x = A.colPivHouseholderQr().solve(y);
    if (x(0) < 0) { // latency cannot be negative: refit the bandwidth alone
        x(0) = 0;
        const double num = A.col(1).dot(y), den = A.col(1).squaredNorm();
        x(1) = den > 0 ? num / den : 0;
    }
    if (!(x(1) > 0) || !std::isfinite(x(1)))
        return Error{"--calibrate", "the measurements do not determine a positive bandwidth"};
    fit.tier.alpha_s = std::max(x(0), 1e-9);
    // Tier 0 stores the bus bandwidth; tier 1 the per-GPU network share it implies
    // (fabric_of multiplies by ranks per node and divides by the oversubscription).
    const double beta_bus = 1.0 / x(1);
    fit.tier.beta_Bps = fit.tier_index == 1 ? beta_bus * std::max(1.0, p.oversubscription) /
                                                  std::max(1, p.ranks_per_node)
                                            : beta_bus;
    auto mean_error = [&](const CollectiveAssumptions& as) {
        double sum = 0;
        for (const auto& row : run.rows) {
            auto r = collective_time(op, row.bytes, t, p, CollectiveAlgo::automatic, as);
            if (!r)
                return 1e9;
            sum += std::abs(r->time_s - row.time_s) / row.time_s;
        }
        return sum / static_cast<double>(run.rows.size());
    };
    fit.error_before = mean_error(a);
    CollectiveAssumptions fitted = a;
    fitted.calibration.resize(2);
    fitted.calibration[static_cast<std::size_t>(fit.tier_index)] = fit.tier;
    fit.error_after = mean_error(fitted);
    return fit;
}

} // namespace cl::model
