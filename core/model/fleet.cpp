#include "model/fleet.h"
#include "model/trace_formats.h"
#include "model/units.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <deque>
#include <limits>
#include <map>
#include <numbers>
#include <queue>
#include <random>
#include <set>
#include <tuple>
#include <unordered_map>

namespace cl::model {

std::string_view fleet_policy_name(FleetPolicy p) {
    return to_string(p);
}

std::optional<FleetPolicy> fleet_policy_from_name(std::string_view name) {
    return choice_from_string<FleetPolicy>(name);
}

double erlang_c(int c, double a) {
    if (c < 1 || !(a >= 0))
        return 1;
    if (a >= c)
        return 1;
    // Erlang B by its stable recursion B(0) = 1, B(k) = a B(k-1) / (k + a B(k-1)); then
    // C = B / (1 - rho (1 - B)) with rho = a / c (Kleinrock 1975 vol. 1, sec. 3.5).
    double b = 1;
    for (int k = 1; k <= c; ++k)
        b = a * b / (k + a * b);
    const double rho = a / c;
    return b / (1 - rho * (1 - b));
}

double erlang_c_wait(int c, double lambda, double mu) {
    if (!(lambda < c * mu))
        return std::numeric_limits<double>::infinity();
    return erlang_c(c, lambda / mu) / (c * mu - lambda);
}

double timeslice_switching(int jobs, double busy_share, double efficiency) {
    if (jobs < 2)
        return 0;
    const double d = std::clamp(busy_share, 0.0, 1.0), n = jobs;
    const double none = std::pow(1 - d, n), one = n * d * std::pow(1 - d, n - 1);
    return (1 - efficiency) * std::clamp(1 - none - one, 0.0, 1.0);
}

int mig_instances_per_gpu(MigProfile p) {
    switch (p) {
    case MigProfile::g1:
        return 7;
    case MigProfile::g2:
        return 3;
    case MigProfile::g3:
        return 2;
    case MigProfile::g4: // 4 of 7 compute slices: the other three idle (mig-parted all-4g)
    case MigProfile::g7: // the whole GPU as one instance (all-7g)
        return 1;
    }
    return 7;
}

std::string mig_profile_name(MigProfile p, double memory_bytes) {
    // Compute slices of 7 and memory slices of 8 (NVIDIA MIG user guide, A100/H100 profiles:
    // 1g.10gb, 2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb on an 80 GB card).
    int g = 1, memory_slices = 1;
    switch (p) {
    case MigProfile::g1:
        break;
    case MigProfile::g2:
        g = memory_slices = 2;
        break;
    case MigProfile::g3:
        g = 3, memory_slices = 4;
        break;
    case MigProfile::g4:
        g = 4, memory_slices = 4;
        break;
    case MigProfile::g7:
        g = 7, memory_slices = 8;
        break;
    }
    const long long gb = std::llround(memory_bytes / 1e9 * memory_slices / 8.0);
    return std::to_string(g) + "g." + std::to_string(gb) + "gb";
}

bool gpu_has_mig(std::string_view id) {
    for (std::string_view prefix : {"a100", "h100", "h200", "b200", "gb200"})
        if (id.substr(0, prefix.size()) == prefix)
            return true;
    return false;
}

namespace {

struct Job {
    std::int64_t seq = 0;
    int cls = 0;
    int gpus = 0;
    int prio = 0;
    double arrival = 0, duration = 0; ///< duration: what is left to run, restart included
    double queued_since = 0;          ///< arrival, or when it was evicted
    double setup = 0;                 ///< restart time at the start of its next run
    int restarts = 0;                 ///< evictions so far
    bool setup_after_failure = false; ///< its restart follows a node failure (not an eviction)
    bool mig = false;                 ///< `gpus` are MIG instances on the MIG nodes
    bool ts = false;                  ///< one time-sliced replica on the time-sliced nodes
    double busy_share = 1;            ///< FleetClass::gpu_busy (time-sliced jobs)
    double memory = 0;                ///< FleetClass::gpu_memory_bytes (time-sliced jobs)
    /// This run's work (after its restart) takes this times as long: split over more leaf
    /// switches than it needs (FleetClass::split_slowdown); set when it starts.
    double stretch = 1;
    /// Wall time of a run from its start: the restart, then the work stretched.
    [[nodiscard]] double elapsed() const { return setup + (duration - setup) * stretch; }
};

struct Running {
    double end = 0;
    std::int64_t id = 0;   ///< index into allocations
    std::uint32_t gen = 0; ///< the allocation's generation (an evicted job's entry is stale)
    /// A time-sliced run's end moves whenever a job joins or leaves its GPU: each move pushes
    /// a new entry with the next tick, and the older ones are stale.
    std::uint32_t tick = 0;
    bool operator>(const Running& o) const { return end > o.end || (end == o.end && id > o.id); }
};

/// Nodes bucketed by their free GPUs: best-fit placement in O(GPUs per node). A failed node is
/// in a bucket of its own (index per + 1) that placement never looks at. Nodes are numbered leaf
/// by leaf (`per_leaf` consecutive nodes under one leaf switch, or one rail group of leaves on a
/// rail-optimised fabric); each leaf keeps its list of empty nodes for leaf-aware placement.
class Nodes {
public:
    Nodes(int nodes, int per, int per_leaf = 0, bool leaf_required = false)
        : per_(per), per_leaf_(per_leaf > 0 && per_leaf < nodes ? per_leaf : std::max(1, nodes)),
          leaf_required_(leaf_required), free_(static_cast<std::size_t>(nodes), per) {
        buckets_.resize(static_cast<std::size_t>(per) + 2);
        pos_.resize(static_cast<std::size_t>(nodes));
        leaf_pos_.resize(static_cast<std::size_t>(nodes));
        leaf_empty_.resize(static_cast<std::size_t>((nodes + per_leaf_ - 1) / per_leaf_));
        auto& empty = buckets_[static_cast<std::size_t>(per)];
        for (int n = 0; n < nodes; ++n) {
            pos_[static_cast<std::size_t>(n)] = empty.size();
            empty.push_back(n);
            auto& le = leaf_empty_[static_cast<std::size_t>(leaf_of(n))];
            leaf_pos_[static_cast<std::size_t>(n)] = le.size();
            le.push_back(n);
        }
        total_free_ = static_cast<std::int64_t>(nodes) * per;
    }
    [[nodiscard]] std::int64_t total_free() const { return total_free_; }
    [[nodiscard]] std::size_t empty_nodes() const { return whole().size(); }
    [[nodiscard]] std::size_t down_nodes() const { return buckets_.back().size(); }
    [[nodiscard]] bool is_down(int n) const { return free_[static_cast<std::size_t>(n)] > per_; }
    [[nodiscard]] int leaf_of(int n) const { return n / per_leaf_; }
    [[nodiscard]] int nodes_per_leaf() const { return per_leaf_; }
    /// Leaf switches over a run's (node, GPUs) parts, in any order.
    [[nodiscard]] int leaves_under(const std::vector<std::pair<int, int>>& parts) const {
        std::vector<int> ls;
        ls.reserve(parts.size());
        for (const auto& pn : parts)
            ls.push_back(leaf_of(pn.first));
        std::sort(ls.begin(), ls.end());
        return static_cast<int>(std::unique(ls.begin(), ls.end()) - ls.begin());
    }
    /// Takes an idle node out (its jobs were stopped first).
    void fail(int n) {
        move(n, per_ + 1);
        total_free_ -= per_;
    }
    void repair(int n) {
        move(n, per_);
        total_free_ += per_;
    }
    /// Whether take(g, topology_aware) would succeed now (without taking anything); with
    /// `any_leaves`, whether it would if a job could always start split over leaves (a bound:
    /// false means no job of g or more GPUs fits either).
    [[nodiscard]] bool can_take(int g, bool topology_aware, bool any_leaves = false) const {
        if (g > total_free_)
            return false;
        if (!topology_aware)
            return true;
        if (g <= per_) {
            for (int k = g; k <= per_; ++k)
                if (!buckets_[static_cast<std::size_t>(k)].empty())
                    return true;
            return false;
        }
        const int need = (g + per_ - 1) / per_;
        if (static_cast<int>(whole().size()) < need)
            return false;
        return any_leaves || !leaf_required_ || need > per_leaf_ || tightest_leaf(need) >= 0;
    }
    /// Takes `g` GPUs; fills `out` with (node, gpus) and returns true, or changes nothing.
    /// Topology-aware: a job of at most one node's GPUs gets them in one node (best fit; an
    /// empty node from the leaf with the fewest empty nodes, so whole leaves stay whole); a
    /// larger job gets whole nodes under as few leaf switches as it can: the leaf with the
    /// fewest empty nodes that still holds it all, else the emptiest leaves first.
    bool take(int g, bool topology_aware, std::vector<std::pair<int, int>>& out) {
        out.clear();
        if (g > total_free_)
            return false;
        if (topology_aware) {
            if (g <= per_) { // best fit: the node with the fewest free GPUs that still has g
                for (int k = g; k <= per_; ++k)
                    if (!buckets_[static_cast<std::size_t>(k)].empty()) {
                        const int n = k == per_ ? empty_node_in(tightest_leaf(1))
                                                : buckets_[static_cast<std::size_t>(k)].back();
                        move(n, k - g);
                        out.emplace_back(n, g);
                        total_free_ -= g;
                        return true;
                    }
                return false;
            }
            // Whole nodes (a partial last node when g is not a multiple of a node).
            const int whole = g / per_, rest = g % per_;
            const int need = whole + (rest > 0 ? 1 : 0);
            if (static_cast<int>(this->whole().size()) < need)
                return false;
            const int one = tightest_leaf(need);
            if (one < 0 && leaf_required_ && need <= per_leaf_)
                return false; // waits for a leaf of its own
            std::vector<int> picked;
            picked.reserve(static_cast<std::size_t>(need));
            if (one >= 0) {
                const auto& le = leaf_empty_[static_cast<std::size_t>(one)];
                picked.assign(le.end() - need, le.end());
            } else {
                // No leaf holds it: the leaves with the most empty nodes first.
                order_.clear();
                for (std::size_t l = 0; l < leaf_empty_.size(); ++l)
                    if (!leaf_empty_[l].empty())
                        order_.push_back(static_cast<int>(l));
                std::sort(order_.begin(), order_.end(), [&](int a, int b) {
                    const auto ea = leaf_empty_[static_cast<std::size_t>(a)].size(),
                               eb = leaf_empty_[static_cast<std::size_t>(b)].size();
                    return ea != eb ? ea > eb : a < b;
                });
                for (int l : order_)
                    for (int n : leaf_empty_[static_cast<std::size_t>(l)])
                        if (static_cast<int>(picked.size()) < need)
                            picked.push_back(n);
            }
            for (int i = 0; i < need; ++i) {
                const int n = picked[static_cast<std::size_t>(i)];
                const int use = i < whole ? per_ : rest;
                move(n, per_ - use);
                out.emplace_back(n, use);
            }
            total_free_ -= g;
            return true;
        }
        // Anywhere: the fullest nodes first (keeps empty nodes for large jobs).
        int left = g;
        for (int k = 1; k <= per_ && left > 0; ++k)
            while (left > 0 && !buckets_[static_cast<std::size_t>(k)].empty()) {
                const int n = buckets_[static_cast<std::size_t>(k)].back();
                const int use = std::min(left, k);
                move(n, k - use);
                out.emplace_back(n, use);
                left -= use;
            }
        total_free_ -= g;
        return true;
    }
    void give(int n, int g) {
        move(n, free_[static_cast<std::size_t>(n)] + g);
        total_free_ += g;
    }

private:
    [[nodiscard]] const std::vector<int>& whole() const {
        return buckets_[static_cast<std::size_t>(per_)];
    }
    /// The leaf with the fewest empty nodes that still has `need`; -1 when none has.
    [[nodiscard]] int tightest_leaf(int need) const {
        int best = -1;
        std::size_t best_n = 0;
        for (std::size_t l = 0; l < leaf_empty_.size(); ++l) {
            const std::size_t e = leaf_empty_[l].size();
            if (static_cast<int>(e) >= need && (best < 0 || e < best_n)) {
                best = static_cast<int>(l);
                best_n = e;
                if (static_cast<int>(e) == need)
                    break;
            }
        }
        return best;
    }
    [[nodiscard]] int empty_node_in(int leaf) const {
        return leaf_empty_[static_cast<std::size_t>(leaf)].back();
    }
    void move(int n, int to) {
        const auto un = static_cast<std::size_t>(n);
        const int was = free_[un];
        auto& from = buckets_[static_cast<std::size_t>(was)];
        const std::size_t p = pos_[un];
        from[p] = from.back();
        pos_[static_cast<std::size_t>(from[p])] = p;
        from.pop_back();
        free_[un] = to;
        auto& dst = buckets_[static_cast<std::size_t>(to)];
        pos_[un] = dst.size();
        dst.push_back(n);
        auto& le = leaf_empty_[static_cast<std::size_t>(leaf_of(n))];
        if (was == per_ && to != per_) {
            const std::size_t q = leaf_pos_[un];
            le[q] = le.back();
            leaf_pos_[static_cast<std::size_t>(le[q])] = q;
            le.pop_back();
        } else if (was != per_ && to == per_) {
            leaf_pos_[un] = le.size();
            le.push_back(n);
        }
    }
    int per_;
    int per_leaf_;
    bool leaf_required_;
    std::vector<int> free_;
    std::vector<std::vector<int>> buckets_;
    std::vector<std::size_t> pos_;
    std::vector<std::vector<int>> leaf_empty_; ///< per leaf: its empty nodes
    std::vector<std::size_t> leaf_pos_;        ///< a node's place in its leaf's list
    std::vector<int> order_;                   ///< scratch: leaves by empty nodes
    std::int64_t total_free_ = 0;
};

double percentile(std::vector<double>& v, double q) {
    if (v.empty())
        return 0;
    const auto k = static_cast<std::size_t>(
        std::min<double>(static_cast<double>(v.size() - 1),
                         std::floor(q * static_cast<double>(v.size() - 1) + 0.5)));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
}

/// Days from 1970-01-01 of a proleptic Gregorian date (H. Hinnant, "chrono-Compatible Low-Level
/// Date Algorithms", days_from_civil).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

/// "YYYY-MM-DD HH:MM:SS" (a 'T' between also) as seconds since 1970 (the trace's own clock; no
/// time zone is applied, only differences are used).
std::optional<double> parse_time(std::string_view v) {
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, se = 0;
    char sep = 0;
    std::string text(v.substr(0, 40));
    if (std::sscanf(text.c_str(), "%4d-%2d-%2d%c%2d:%2d:%2d", &y, &mo, &d, &sep, &h, &mi, &se) !=
            7 ||
        (sep != ' ' && sep != 'T') || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 ||
        mi < 0 || mi > 59 || se < 0 || se > 60)
        return std::nullopt;
    return static_cast<double>(
               days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d))) *
               86400.0 +
           h * 3600.0 + mi * 60.0 + se;
}

std::optional<double> parse_double(std::string_view v) {
    while (!v.empty() && (v.front() == ' ' || v.front() == '"'))
        v.remove_prefix(1);
    while (!v.empty() && (v.back() == ' ' || v.back() == '"' || v.back() == '\r'))
        v.remove_suffix(1);
    double x = 0;
    const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec != std::errc() || p != v.data() + v.size() || !std::isfinite(x))
        return std::nullopt;
    return x;
}

std::string_view trim_cell(std::string_view v) {
    while (!v.empty() && (v.front() == ' ' || v.front() == '"'))
        v.remove_prefix(1);
    while (!v.empty() && (v.back() == ' ' || v.back() == '"' || v.back() == '\r'))
        v.remove_suffix(1);
    return v;
}

/// The classes trace studies report job sizes in: one GPU, up to a node, more than a node.
std::vector<std::string> size_classes(int gpus_per_node) {
    std::vector<std::string> c = {
        "1 GPU", "2-" + std::to_string(gpus_per_node) + " GPUs (one node)", "more than one node"};
    if (gpus_per_node == 1)
        c[1] = "(unused)";
    return c;
}

int size_class(int gpus, int gpus_per_node) {
    return gpus == 1 ? 0 : gpus <= gpus_per_node ? 1 : 2;
}

/// The jobs in submission order, times from the first submission.
void order_jobs(FleetTrace& tr, std::vector<std::pair<double, TraceJob>>& jobs) {
    std::stable_sort(jobs.begin(), jobs.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    const double t0 = jobs.front().first;
    tr.jobs.reserve(jobs.size());
    for (auto& [t, j] : jobs) {
        j.submit_s = t - t0;
        tr.jobs.push_back(j);
    }
    tr.span_s = tr.jobs.back().submit_s;
}

} // namespace

Result<FleetTrace> parse_philly_trace(std::string_view text, int gpus_per_node) {
    if (gpus_per_node < 1)
        return Error{"gpus_per_node", "must be at least 1"};
    nlohmann::json all = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (all.is_discarded())
        return Error{"file", "not JSON: Philly's cluster_job_log is a JSON list of jobs"};
    if (!all.is_array())
        return Error{"file", "not a Philly trace: cluster_job_log is a JSON list of jobs"};
    FleetTrace tr;
    tr.classes = size_classes(gpus_per_node);
    std::vector<std::pair<double, TraceJob>> jobs;
    std::int64_t no_attempt = 0, no_gpus = 0, unfinished = 0, killed = 0, failed = 0;
    std::string first_unfinished;
    const auto str = [](const nlohmann::json& j, const char* key) -> std::string {
        const auto it = j.find(key);
        return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    for (std::size_t i = 0; i < all.size(); ++i) {
        const nlohmann::json& job = all[i];
        const std::string id = job.is_object() ? str(job, "jobid") : std::string();
        const std::string at =
            "job " + std::to_string(i + 1) + (id.empty() ? "" : " (" + id.substr(0, 80) + ")");
        if (!job.is_object())
            return Error{at, "is not a JSON object"};
        const auto submit = parse_time(str(job, "submitted_time"));
        if (!submit)
            return Error{at, "submitted_time is not a date and time (YYYY-MM-DD HH:MM:SS)"};
        const auto attempts = job.find("attempts");
        if (attempts == job.end() || !attempts->is_array())
            return Error{at, "has no attempts list"};
        if (attempts->empty()) {
            ++no_attempt;
            continue;
        }
        // The GPUs of the first attempt.
        int gpus = 0;
        const auto& first = attempts->front();
        if (!first.is_object())
            return Error{at, "attempt 1 is not a JSON object"};
        if (const auto detail = first.find("detail"); detail != first.end()) {
            if (!detail->is_array())
                return Error{at, "attempt 1: detail is not a list"};
            for (const auto& d : *detail) {
                const auto g = d.is_object() ? d.find("gpus") : d.end();
                if (!d.is_object() || g == d.end() || !g->is_array())
                    return Error{at, "attempt 1: a detail has no gpus list"};
                if (g->size() > 1000000)
                    return Error{at, "attempt 1: more than 1,000,000 GPUs on one server"};
                gpus += static_cast<int>(g->size());
            }
        }
        if (gpus == 0) {
            ++no_gpus;
            continue;
        }
        double run = 0;
        bool open = false;
        for (std::size_t k = 0; k < attempts->size(); ++k) {
            const auto& a = (*attempts)[k];
            if (!a.is_object())
                return Error{at, "attempt " + std::to_string(k + 1) + " is not a JSON object"};
            const auto s = parse_time(str(a, "start_time"));
            const auto e = parse_time(str(a, "end_time"));
            if (!s || !e) {
                open = true; // not started, or still running when the trace was taken
                break;
            }
            if (*e < *s)
                return Error{at, "attempt " + std::to_string(k + 1) + " ends before it starts"};
            run += *e - *s;
        }
        if (open || !(run > 0)) {
            if (unfinished++ == 0)
                first_unfinished = at;
            continue;
        }
        if (jobs.size() >= 10000000)
            return Error{at, "more than 10,000,000 GPU jobs: more than a replay simulates"};
        const std::string status = str(job, "status");
        if (status == "Killed")
            ++killed;
        else if (status == "Failed")
            ++failed;
        TraceJob j;
        j.gpus = gpus;
        j.duration_s = run;
        j.cls = size_class(gpus, gpus_per_node);
        jobs.emplace_back(*submit, j);
    }
    if (jobs.empty())
        return Error{"jobs", "no GPU job with a recorded run time in the trace"};
    order_jobs(tr, jobs);
    if (no_attempt > 0)
        tr.notes.push_back(std::to_string(no_attempt) +
                           " jobs never scheduled (no attempts) left out");
    if (no_gpus > 0)
        tr.notes.push_back(std::to_string(no_gpus) + " jobs without GPUs left out");
    if (unfinished > 0)
        tr.notes.push_back(
            std::to_string(unfinished) +
            " jobs without a recorded start or end left out (first: " + first_unfinished + ")");
    if (killed + failed > 0)
        tr.notes.push_back(std::to_string(killed) + " killed and " + std::to_string(failed) +
                           " failed jobs replayed for the GPU time they held");
    return tr;
}

namespace {

/// Splits a CSV line at commas (no quoting: none of the trace formats quotes), cells trimmed.
void split_cells(std::string_view line, std::vector<std::string_view>& cells) {
    cells.clear();
    std::size_t a = 0;
    for (;;) {
        const std::size_t b = line.find(',', a);
        cells.push_back(trim_cell(line.substr(a, b == std::string_view::npos ? b : b - a)));
        if (b == std::string_view::npos)
            break;
        a = b + 1;
    }
}

bool pai_status(std::string_view v) {
    return v == "Terminated" || v == "Failed" || v == "Running" || v == "Waiting";
}

/// Whether a trace's first line is PAI's task table: its header, or a row of ten cells whose
/// fourth is a status.
bool looks_like_pai(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return false;
    const std::string_view line = text.substr(first, text.find('\n', first) - first);
    if (line.rfind("job_name,task_name,inst_num", 0) == 0)
        return true;
    std::vector<std::string_view> cells;
    split_cells(line, cells);
    return cells.size() == 10 && pai_status(cells[3]);
}

} // namespace

Result<FleetTrace> parse_pai_trace(std::string_view csv, int gpus_per_node) {
    if (gpus_per_node < 1)
        return Error{"gpus_per_node", "must be at least 1"};
    // Column positions: the task table's order, or its header's.
    int c_job = 0, c_inst = 2, c_status = 3, c_start = 4, c_end = 5, c_gpu = 8;
    struct Agg {
        double gpus = 0, start = std::numeric_limits<double>::infinity(), end = -1;
        bool unfinished = false, failed = false;
    };
    std::unordered_map<std::string, Agg> by_job;
    std::vector<std::string> order; // jobs in the order first seen (ties keep it)
    std::vector<std::string_view> cells;
    std::size_t pos = 0, line_no = 0;
    bool first_line = true;
    while (pos < csv.size()) {
        std::size_t nl = csv.find('\n', pos);
        if (nl == std::string_view::npos)
            nl = csv.size();
        const std::string_view line = csv.substr(pos, nl - pos);
        pos = nl + 1;
        ++line_no;
        if (trim_cell(line).empty())
            continue;
        split_cells(line, cells);
        if (first_line && !cells.empty() && cells[0] == "job_name") {
            first_line = false;
            const auto col = [&](std::string_view name) {
                for (std::size_t i = 0; i < cells.size(); ++i)
                    if (cells[i] == name)
                        return static_cast<int>(i);
                return -1;
            };
            c_inst = col("inst_num");
            c_status = col("status");
            c_start = col("start_time");
            c_end = col("end_time");
            c_gpu = col("plan_gpu");
            if (std::min({c_inst, c_status, c_start, c_end, c_gpu}) < 0)
                return Error{"line 1", "not a PAI task table: the header must name job_name, "
                                       "inst_num, status, start_time, end_time and plan_gpu"};
            continue;
        }
        first_line = false;
        const std::string at = "line " + std::to_string(line_no);
        const int need = std::max({c_job, c_inst, c_status, c_start, c_end, c_gpu});
        if (static_cast<int>(cells.size()) <= need)
            return Error{at, "has " + std::to_string(cells.size()) + " cells; a PAI task row has " +
                                 std::to_string(need + 1) +
                                 " (job_name, task_name, inst_num, status, start_time, "
                                 "end_time, plan_cpu, plan_mem, plan_gpu, gpu_type)"};
        const auto cell = [&](int c) { return cells[static_cast<std::size_t>(c)]; };
        if (cell(c_job).empty())
            return Error{at, "job_name is empty"};
        const std::string_view status = cell(c_status);
        if (!pai_status(status))
            return Error{at, "status \"" + std::string(status.substr(0, 40)) +
                                 "\" is not Terminated, Failed, Running or Waiting"};
        const auto inst =
            cell(c_inst).empty() ? std::optional<double>(0.0) : parse_double(cell(c_inst));
        if (!inst || *inst < 0 || *inst > 1e6)
            return Error{at, "inst_num is not a number of instances"};
        const auto gpu =
            cell(c_gpu).empty() ? std::optional<double>(0.0) : parse_double(cell(c_gpu));
        if (!gpu || *gpu < 0 || *gpu > 1e6)
            return Error{at, "plan_gpu is not a share of GPUs in percent (50 = half a GPU)"};
        const auto start = parse_double(cell(c_start));
        if (!start || *start < 0)
            return Error{at, "start_time is not a time in seconds"};
        const auto end =
            cell(c_end).empty() ? std::optional<double>(-1.0) : parse_double(cell(c_end));
        if (!end)
            return Error{at, "end_time is not a time in seconds"};
        if (*end >= 0 && *end < *start)
            return Error{at, "end_time is before start_time"};
        auto [it, fresh] = by_job.try_emplace(std::string(cell(c_job)));
        if (fresh) {
            if (by_job.size() > 10000000)
                return Error{at, "more than 10,000,000 jobs: more than a replay simulates"};
            order.push_back(it->first);
        }
        Agg& a = it->second;
        a.gpus += *inst * *gpu / 100;
        if (*gpu > 0 && *inst > 0) { // a task that held GPUs: its span is the job's
            a.start = std::min(a.start, *start);
            if (*end < 0 || status == "Running" || status == "Waiting")
                a.unfinished = true;
            else
                a.end = std::max(a.end, *end);
        }
        a.failed = a.failed || status == "Failed";
    }
    if (by_job.empty())
        return Error{"line 1", "empty: no task rows"};
    FleetTrace tr;
    tr.classes = size_classes(gpus_per_node);
    tr.classes.insert(tr.classes.begin(), "part of a GPU");
    std::vector<std::pair<double, TraceJob>> jobs;
    std::int64_t cpu = 0, unfinished = 0, no_run = 0, rounded = 0, shared = 0, failed = 0;
    for (const std::string& name : order) {
        const Agg& a = by_job[name];
        if (!(a.gpus > 0)) {
            ++cpu;
            continue;
        }
        if (a.unfinished) {
            ++unfinished;
            continue;
        }
        if (!(a.end > a.start)) {
            ++no_run;
            continue;
        }
        TraceJob j;
        j.duration_s = a.end - a.start;
        if (a.gpus < 1 - 1e-9) {
            j.gpus = 1;
            j.gpu_share = a.gpus;
            j.cls = 0;
            ++shared;
        } else {
            const double whole = std::ceil(a.gpus - 1e-9);
            rounded += whole > a.gpus + 1e-9;
            j.gpus = static_cast<int>(std::min(whole, 1e7));
            j.cls = 1 + size_class(j.gpus, gpus_per_node);
        }
        failed += a.failed;
        jobs.emplace_back(a.start, j);
    }
    if (jobs.empty())
        return Error{"jobs", "no finished GPU job in the trace"};
    order_jobs(tr, jobs);
    if (shared > 0)
        tr.notes.push_back(std::to_string(shared) +
                           " jobs asked for part of a GPU (plan_gpu under 100): on time-sliced "
                           "GPUs they share one at that busy share, elsewhere each takes a whole "
                           "GPU");
    if (rounded > 0)
        tr.notes.push_back(std::to_string(rounded) +
                           " jobs asked for a fractional number of GPUs above one: rounded up "
                           "to whole GPUs");
    if (cpu > 0)
        tr.notes.push_back(std::to_string(cpu) + " CPU-only jobs (plan_gpu 0) left out");
    if (unfinished > 0)
        tr.notes.push_back(std::to_string(unfinished) +
                           " jobs with a task still running or waiting (no end_time) left out");
    if (no_run > 0)
        tr.notes.push_back(std::to_string(no_run) + " jobs with no run time left out");
    if (failed > 0)
        tr.notes.push_back(std::to_string(failed) +
                           " failed jobs replayed for the GPU time they held");
    tr.notes.push_back("launch times (start_time) stand in for submissions, which PAI keeps in "
                       "pai_job_table: the trace's own queueing is not replayed");
    return tr;
}

std::int64_t fleet_whole_gpus(std::int64_t nodes, int gpus_per_node, std::int64_t mig_nodes,
                              std::int64_t timeslice_nodes) {
    return std::max<std::int64_t>(0, nodes - mig_nodes - timeslice_nodes) * gpus_per_node;
}

double trace_fitting_span_s(const FleetTrace& trace, std::int64_t whole_gpus) {
    double last = 0;
    for (const auto& j : trace.jobs)
        if (j.gpus <= whole_gpus)
            last = std::max(last, j.submit_s);
    return last;
}

double trace_replay_horizon_s(const FleetTrace& trace, std::int64_t whole_gpus) {
    double end = -1;
    for (const auto& j : trace.jobs)
        if (j.gpus <= whole_gpus)
            end = std::max(end, j.submit_s + j.duration_s);
    // The window is half-open (an event at the horizon is outside it): a minute more, so the
    // last end is inside.
    return end < 0 ? 0.0 : end + 60.0;
}

std::int64_t trace_jobs_larger_than(const FleetTrace& trace, std::int64_t whole_gpus) {
    std::int64_t n = 0;
    for (const auto& j : trace.jobs)
        n += j.gpus > whole_gpus;
    return n;
}

Result<FleetTrace> parse_job_trace(std::string_view text, int gpus_per_node) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && (text[first] == '[' || text[first] == '{'))
        return parse_philly_trace(text, gpus_per_node);
    if (looks_like_pai(text))
        return parse_pai_trace(text, gpus_per_node);
    return parse_helios_trace(text, gpus_per_node);
}

Result<FleetTrace> parse_helios_trace(std::string_view csv, int gpus_per_node) {
    if (gpus_per_node < 1)
        return Error{"gpus_per_node", "must be at least 1"};
    FleetTrace tr;
    tr.classes = size_classes(gpus_per_node);
    std::size_t pos = 0, line_no = 0;
    std::vector<std::string_view> cells;
    // Column positions from the header.
    int c_gpu = -1, c_submit = -1, c_duration = -1, c_start = -1, c_end = -1;
    bool submit_in_seconds = false; // ElasticFlow's submission_time: seconds from the start
    bool header = false;
    std::int64_t cpu_jobs = 0, no_run = 0;
    std::string first_no_run;
    std::vector<std::pair<double, TraceJob>> jobs;
    while (pos < csv.size()) {
        std::size_t nl = csv.find('\n', pos);
        if (nl == std::string_view::npos)
            nl = csv.size();
        const std::string_view line = csv.substr(pos, nl - pos);
        pos = nl + 1;
        ++line_no;
        if (trim_cell(line).empty())
            continue;
        split_cells(line, cells);
        if (!header) {
            for (std::size_t i = 0; i < cells.size(); ++i) {
                const int k = static_cast<int>(i);
                if (cells[i] == "gpu_num" || cells[i] == "num_gpu")
                    c_gpu = k;
                else if (cells[i] == "submit_time")
                    c_submit = k;
                else if (cells[i] == "submission_time") {
                    c_submit = k;
                    submit_in_seconds = true;
                } else if (cells[i] == "duration")
                    c_duration = k;
                else if (cells[i] == "start_time")
                    c_start = k;
                else if (cells[i] == "end_time")
                    c_end = k;
            }
            if (c_gpu < 0 || c_submit < 0 || (c_duration < 0 && (c_start < 0 || c_end < 0)))
                return Error{"line 1",
                             "not a Helios or ElasticFlow trace: the header must name gpu_num, "
                             "submit_time and duration (or start_time and end_time), as "
                             "HeliosData's cluster_log.csv does, or num_gpu, submission_time and "
                             "duration, as the ElasticFlow (Microsoft ITP) raw traces do"};
            header = true;
            continue;
        }
        const std::string at = "line " + std::to_string(line_no);
        const int need = std::max({c_gpu, c_submit, c_duration, c_start, c_end});
        if (static_cast<int>(cells.size()) <= need)
            return Error{at, "has " + std::to_string(cells.size()) + " cells; the header needs " +
                                 std::to_string(need + 1)};
        const auto gpus = parse_double(cells[static_cast<std::size_t>(c_gpu)]);
        if (!gpus || *gpus < 0 || *gpus > 1e7 || *gpus != std::floor(*gpus))
            return Error{at, std::string(submit_in_seconds ? "num_gpu" : "gpu_num") +
                                 " is not a whole number of GPUs"};
        std::optional<double> submit;
        if (submit_in_seconds) {
            submit = parse_double(cells[static_cast<std::size_t>(c_submit)]);
            if (!submit || *submit < 0 || *submit > 1e12)
                return Error{at, "submission_time is not a number of seconds from the trace's "
                                 "start"};
        } else {
            submit = parse_time(cells[static_cast<std::size_t>(c_submit)]);
            if (!submit)
                return Error{at, "submit_time is not a date and time (YYYY-MM-DD HH:MM:SS)"};
        }
        double duration = -1;
        if (c_duration >= 0 && !cells[static_cast<std::size_t>(c_duration)].empty()) {
            const auto d = parse_double(cells[static_cast<std::size_t>(c_duration)]);
            if (!d)
                return Error{at, "duration is not a number of seconds"};
            if (*d < 0)
                return Error{
                    at, "duration is negative (" +
                            std::string(trim_cell(cells[static_cast<std::size_t>(c_duration)])) +
                            " s)"};
            duration = *d;
        } else if (c_start >= 0 && c_end >= 0) {
            const auto a = parse_time(cells[static_cast<std::size_t>(c_start)]);
            const auto b = parse_time(cells[static_cast<std::size_t>(c_end)]);
            if (a && b && *b >= *a)
                duration = *b - *a;
        }
        if (*gpus == 0) {
            ++cpu_jobs;
            continue;
        }
        if (!(duration > 0)) {
            if (no_run++ == 0)
                first_no_run = at;
            continue;
        }
        if (jobs.size() >= 10000000)
            return Error{at, "more than 10,000,000 GPU jobs: more than a replay simulates"};
        TraceJob j;
        j.gpus = static_cast<int>(*gpus);
        j.duration_s = duration;
        j.cls = size_class(j.gpus, gpus_per_node);
        jobs.emplace_back(*submit, j);
    }
    if (!header)
        return Error{"line 1", "empty: no header and no jobs"};
    if (jobs.empty())
        return Error{"trace", "no GPU job with a run time in it"};
    order_jobs(tr, jobs);
    if (cpu_jobs > 0)
        tr.notes.push_back(std::to_string(cpu_jobs) +
                           (cpu_jobs == 1 ? " CPU job (" : " CPU jobs (") +
                           (submit_in_seconds ? "num_gpu" : "gpu_num") + " 0) left out");
    if (no_run > 0)
        tr.notes.push_back(std::to_string(no_run) + " jobs with no run time left out (first at " +
                           first_no_run + ")");
    return tr;
}

Result<FleetResult> simulate_fleet(const FleetSpec& s) {
    if (s.nodes < 1 || s.nodes > 10000000)
        return Error{"nodes", "must be between 1 and 10000000"};
    if (s.gpus_per_node < 1 || s.gpus_per_node > 1024)
        return Error{"gpus_per_node", "must be between 1 and 1024"};
    if (!(s.horizon_days > 0) || s.horizon_days > 1e6)
        return Error{"horizon_days", "must be more than 0 and at most 1000000"};
    if (!(s.warmup_days >= 0) || s.warmup_days >= s.horizon_days)
        return Error{"warmup_days", "must be at least 0 and less than the horizon"};
    if (!(s.burst_after_s >= 0) || !std::isfinite(s.burst_after_s))
        return Error{"burst_after_s", "must be 0 (never) or a positive time"};
    if (!(s.burst_usd_per_gpu_hour >= 0) || !std::isfinite(s.burst_usd_per_gpu_hour))
        return Error{"burst_usd_per_gpu_hour", "must be 0 or a positive price"};
    if (!(s.burst_redo_per_node >= 0) || !std::isfinite(s.burst_redo_per_node))
        return Error{"burst_redo_per_node", "must be 0 (on-demand) or a positive share"};
    if (!(s.restart_s >= 0) || !std::isfinite(s.restart_s))
        return Error{"restart_s", "must be 0 or a positive time"};
    if (s.nodes_per_leaf < 0 || s.nodes_per_leaf > 10000000)
        return Error{"nodes_per_leaf", "must be 0 (one leaf) or a count of nodes"};
    if (s.classes.empty() && !s.trace)
        return Error{"classes", "no job class and no trace"};
    if (s.trace && s.trace->classes.empty())
        return Error{"trace", "a trace without classes"};
    const std::int64_t cluster = static_cast<std::int64_t>(s.nodes) * s.gpus_per_node;
    if (s.mig_nodes < 0 || s.mig_nodes > s.nodes)
        return Error{"mig_nodes",
                     "must be between 0 and the cluster's " + std::to_string(s.nodes) + " nodes"};
    if (s.mig_instances_per_gpu < 1 || s.mig_instances_per_gpu > 7)
        return Error{"mig_instances_per_gpu", "must be between 1 and 7 (MIG's compute slices)"};
    if (s.timeslice_nodes < 0 || s.timeslice_nodes > s.nodes - s.mig_nodes)
        return Error{"timeslice_nodes", "must be between 0 and the cluster's " +
                                            std::to_string(s.nodes - s.mig_nodes) +
                                            " nodes without MIG"};
    if (s.timeslice_replicas < 1 || s.timeslice_replicas > 1024)
        return Error{"timeslice_replicas", "must be between 1 and 1024 replicas per GPU"};
    if (!(s.timeslice_efficiency >= 0.05 && s.timeslice_efficiency <= 1))
        return Error{"timeslice_efficiency",
                     "must be between 5 % and 100 % of the GPU's throughput (1 = switching costs "
                     "nothing)"};
    // Whole-GPU jobs run on the first nodes, then come the time-sliced nodes, then the MIG ones.
    const int whole_nodes = s.nodes - s.mig_nodes - s.timeslice_nodes;
    const int mig_base = whole_nodes + s.timeslice_nodes; // the first MIG node
    const std::int64_t whole_gpus =
        fleet_whole_gpus(s.nodes, s.gpus_per_node, s.mig_nodes, s.timeslice_nodes);
    const int inst = s.mig_instances_per_gpu;
    double expected = 0;
    for (std::size_t i = 0; i < s.classes.size(); ++i) {
        const auto& c = s.classes[i];
        const std::string at =
            c.path.empty() ? "classes[" + std::to_string(i) + "]." : c.path + ".";
        if (c.mig && s.mig_nodes < 1)
            return Error{at + "mig", "the class runs on MIG instances, and no node has MIG"};
        if (c.mig && c.time_sliced)
            return Error{at + "time_sliced", c.name + ": a job runs on a MIG instance or on a "
                                                      "time-sliced GPU, not both"};
        if (c.time_sliced && s.timeslice_nodes < 1)
            return Error{at + "time_sliced",
                         "the class runs on time-sliced GPUs, and no node is time-sliced"};
        if (!(c.gpu_busy > 0 && c.gpu_busy <= 1))
            return Error{at + "gpu_busy", c.name + ": the share of its run a job keeps a GPU "
                                                   "busy must be more than 0 and at most 1"};
        if (!(c.gpu_memory_bytes >= 0) || !std::isfinite(c.gpu_memory_bytes))
            return Error{at + "gpu_memory_bytes",
                         c.name + ": the GPU memory a job holds must be 0 (not stated) or a "
                                  "positive size"};
        if (c.time_sliced && c.gpu_memory_bytes > 0) {
            const std::string gpu = s.gpu_name.empty() ? std::string("one GPU") : s.gpu_name;
            if (!(s.gpu_memory_bytes > 0))
                return Error{at + "gpu_memory_bytes",
                             c.name + ": " + gpu +
                                 "'s memory is not known, so a job's memory cannot be placed"};
            if (c.gpu_memory_bytes > s.gpu_memory_bytes)
                return Error{at + "gpu_memory_bytes",
                             c.name + ": " + units::format_bytes(c.gpu_memory_bytes) +
                                 " per job does not fit in " + gpu + "'s " +
                                 units::format_bytes(s.gpu_memory_bytes) +
                                 " (time-slicing shares one GPU's memory)"};
        }
        if (!c.mig && !c.time_sliced && (c.gpus_per_job < 1 || c.gpus_per_job > whole_gpus))
            return Error{at + "gpus_per_job",
                         whole_gpus == 0
                             ? std::string("every node has MIG or time-slicing: no whole GPUs "
                                           "for this class")
                             : "must be between 1 and the " + std::to_string(whole_gpus) +
                                   " GPUs of the nodes without MIG or time-slicing"};
        if (!(c.arrival_rate_per_hour > 0) || !std::isfinite(c.arrival_rate_per_hour))
            return Error{at + "arrival_rate_per_hour", "must be a positive number"};
        if (!(c.mean_duration_h > 0) || !std::isfinite(c.mean_duration_h))
            return Error{at + "mean_duration_h", "must be a positive number"};
        if (!(c.split_slowdown >= 1) || !std::isfinite(c.split_slowdown))
            return Error{at + "split_slowdown", "must be a number of at least 1"};
        if (!(c.checkpoint_interval_h >= 0) || !std::isfinite(c.checkpoint_interval_h))
            return Error{at + "checkpoint_interval_h", "must be 0 (none) or a positive time"};
        if (!(c.daily_swing >= 0 && c.daily_swing <= 1))
            return Error{at + "daily_swing", "must be between 0 (flat) and 1"};
        if (!(c.weekend_factor >= 0 && c.weekend_factor <= 10))
            return Error{at + "weekend_factor", "must be between 0 and 10"};
        const int size = c.mig || c.time_sliced ? 1 : c.gpus_per_job;
        if (c.quota_gpus < 0 || (c.quota_gpus > 0 && c.quota_gpus < size))
            return Error{at + "quota_gpus", c.name + ": a team quota of " +
                                                std::to_string(c.quota_gpus) +
                                                " never starts a job of " + std::to_string(size) +
                                                (c.mig           ? " instance"
                                                 : c.time_sliced ? " replica"
                                                                 : " GPUs") +
                                                " (0 means no quota)"};
        if (c.borrow_cap_gpus != 0) {
            if (c.borrow_cap_gpus < 0)
                return Error{at + "borrow_cap_gpus", "must be 0 (no cap) or a number of GPUs"};
            if (c.quota_gpus == 0)
                return Error{at + "borrow_cap_gpus",
                             c.name + ": a borrowing cap needs a team quota to borrow beyond"};
            if (!s.quota_borrowing)
                return Error{at + "borrow_cap_gpus",
                             c.name + ": a borrowing cap needs teams to borrow unused quota"};
            if (c.borrow_cap_gpus < c.quota_gpus)
                return Error{at + "borrow_cap_gpus",
                             c.name + ": a cap of " + std::to_string(c.borrow_cap_gpus) +
                                 " is below its quota of " + std::to_string(c.quota_gpus) +
                                 " (the quota itself: it borrows nothing)"};
        }
        if (c.keep_gpus != 0) {
            if (c.keep_gpus < 0)
                return Error{at + "keep_gpus", "must be 0 (lends all) or a number of GPUs"};
            if (c.quota_gpus == 0)
                return Error{at + "keep_gpus",
                             c.name + ": GPUs never lent need a team quota to keep them from"};
            if (!s.quota_borrowing)
                return Error{at + "keep_gpus",
                             c.name + ": GPUs never lent need teams to borrow unused quota"};
            if (c.keep_gpus > c.quota_gpus)
                return Error{at + "keep_gpus", c.name + ": keeps " + std::to_string(c.keep_gpus) +
                                                   " of a quota of " +
                                                   std::to_string(c.quota_gpus) +
                                                   " (at most all of it: it lends nothing)"};
        }
        expected += c.arrival_rate_per_hour * s.horizon_days * 24;
    }
    if (!(s.peak_hour >= 0 && s.peak_hour <= 24))
        return Error{"peak_hour", "must be an hour of the day, 0 to 24"};
    if (!(s.node_failures_per_hour >= 0) || !std::isfinite(s.node_failures_per_hour) ||
        s.node_failures_per_hour > 1)
        return Error{"node_failures_per_hour", "must be 0 (none) or a rate up to 1 per hour"};
    if (!(s.repair_h >= 0) || s.repair_h > 1e5)
        return Error{"repair_h", "must be between 0 and 100000 hours"};
    expected += s.node_failures_per_hour * s.nodes * s.horizon_days * 24;
    if (expected > 5e7)
        return Error{"horizon_days", "about " + std::to_string(static_cast<long long>(expected)) +
                                         " arrivals and failures: more than the 50 million a "
                                         "run simulates"};

    const double warm = s.warmup_days * 86400, end = s.horizon_days * 86400;
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    // Each class draws its arrivals and durations from its own stream (common random numbers:
    // Law, Simulation Modeling and Analysis, sec. 11.2): an edit to one class leaves the others'
    // jobs as they were, so a comparison shows the edit, not a re-roll of every class
    // (helper-36: notebooks 4 -> 5 an hour moved the whole-GPU classes' utilization by 6 points).
    const std::size_t streams = s.trace ? 0 : s.classes.size();
    std::vector<std::mt19937_64> class_rng;
    class_rng.reserve(streams);
    for (std::size_t i = 0; i < streams; ++i) {
        // SplitMix64 of (seed, class): well-separated starting states for each stream.
        std::uint64_t z = s.seed + 0x9e3779b97f4a7c15ULL * (i + 1);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        class_rng.emplace_back(z ^ (z >> 31));
    }
    const auto exponential = [&](std::size_t cls, double mean) {
        return -std::log1p(-unit(class_rng[cls])) * mean;
    };
    // Failures draw from their own stream: a run without them is the run it was before.
    std::mt19937_64 failure_rng(s.seed ^ 0x9e3779b97f4a7c15ULL);
    const double failure_rate_s = s.node_failures_per_hour * s.nodes / 3600.0; // cluster-wide
    const auto next_failure_after = [&](double from) {
        return failure_rate_s > 0 ? from - std::log1p(-unit(failure_rng)) / failure_rate_s
                                  : std::numeric_limits<double>::infinity();
    };
    double next_failure = next_failure_after(0);
    // Repairs in time order: (when, node).
    std::priority_queue<std::pair<double, int>, std::vector<std::pair<double, int>>, std::greater<>>
        repairs;
    // Random arrivals per class, or the trace's submissions in order (its own classes).
    const bool replay = s.trace != nullptr;
    const std::size_t nc = replay ? s.trace->classes.size() : s.classes.size();
    // Each class's stretch of a split run (a traced job's duration is as it ran: none).
    std::vector<double> split_slowdown(nc, 1.0);
    if (!replay)
        for (std::size_t i = 0; i < nc; ++i)
            split_slowdown[i] = s.classes[i].split_slowdown;
    // The next arrival of class i after `from`: Poisson at its mean rate, or along its daily and
    // weekly curve by thinning (Lewis and Shedler 1979: candidates at the curve's highest rate,
    // each kept with probability rate(t) / highest).
    const auto arrival_after = [&](std::size_t i, double from) {
        const FleetClass& c = s.classes[i];
        const double mean = c.arrival_rate_per_hour / 3600.0;
        if (c.daily_swing <= 0 && c.weekend_factor == 1)
            return from + exponential(i, 1 / mean);
        const double norm = (5 + 2 * c.weekend_factor) / 7;
        const double top = mean * (1 + c.daily_swing) * std::max(1.0, c.weekend_factor) / norm;
        const auto rate = [&](double t) {
            const double hour = std::fmod(t, 86400.0) / 3600.0;
            const bool weekend = std::fmod(std::floor(t / 86400.0), 7.0) >= 5;
            return mean *
                   (1 +
                    c.daily_swing * std::cos(2 * std::numbers::pi * (hour - s.peak_hour) / 24)) *
                   (weekend ? c.weekend_factor : 1.0) / norm;
        };
        double t = from;
        for (int k = 0; k < 1000000; ++k) {
            t += exponential(i, 1 / top);
            if (unit(class_rng[i]) * top <= rate(t))
                return t;
        }
        return t; // a rate of 0 for a million candidates: give up on the curve there
    };
    std::vector<double> next_arrival(replay ? 0 : nc);
    for (std::size_t i = 0; i < next_arrival.size(); ++i)
        next_arrival[i] = arrival_after(i, 0);
    std::size_t next_traced = 0;
    const auto skip_too_large = [&] { // jobs the cluster can never hold (counted below)
        while (replay && next_traced < s.trace->jobs.size() &&
               s.trace->jobs[next_traced].gpus > whole_gpus)
            ++next_traced;
    };
    skip_too_large();

    Nodes nodes(whole_nodes, s.gpus_per_node, s.nodes_per_leaf, s.leaf_required);
    Nodes mig(s.mig_nodes, s.gpus_per_node * inst); // instances per MIG node
    // Node n of the cluster: nodes[n] for n < whole_nodes, mig[n - mig_base] from mig_base;
    // the time-sliced nodes between them are not in a Nodes pool (ts_gpu below).
    const auto pool_of = [&](int n) -> Nodes& { return n < whole_nodes ? nodes : mig; };
    const auto local = [&](int n) { return n < whole_nodes ? n : n - mig_base; };
    const auto is_ts_node = [&](int n) { return n >= whole_nodes && n < mig_base; };
    const auto give = [&](const std::vector<std::pair<int, int>>& ps) {
        for (const auto& [n, g] : ps)
            pool_of(n).give(local(n), g);
    };
    // A job's share of a GPU per unit it holds: 1 for whole GPUs, 1 / instances for MIG; a
    // time-sliced job's share changes as it runs (ts_update), and it bursts to a whole GPU.
    const auto weight = [&](const Job& j) { return j.mig ? 1.0 / inst : 1.0; };
    // The pool a job runs in: 0 whole GPUs, 1 MIG instances, 2 time-sliced replicas.
    const auto pool = [](const Job& j) { return j.mig ? 1 : j.ts ? 2 : 0; };

    // Time-slicing: per GPU of the time-sliced nodes, the runs on it, the sum of their busy
    // shares (its load D), and when their progress was last brought up to date. The GPU
    // switches between contexts while two or more runs want it at once: with each run active
    // d of the time independently, that is c = P(two or more active) of the time, and a
    // switching GPU keeps e = timeslice_efficiency of its throughput, so o = (1 - e) x c of its
    // time goes to switching. Its runs get the rest: each progresses at min(1, (1 - o) / D) of
    // its speed alone, and the GPU is busy min(1, D + o). A run's work left (alone-seconds)
    // falls at that rate, and its end is pushed again whenever the GPU's runs change.
    struct TsGpu {
        std::vector<std::int64_t> runs;
        double load = 0, last = 0;
        double memory = 0; ///< the memory its runs hold (FleetClass::gpu_memory_bytes)
        double busy = 0;   ///< the share of the time it is busy, switching included
        double rate = 1;   ///< its runs' speed, as a share of their speed alone
    };
    const double ts_eff = s.timeslice_efficiency;
    struct TsRun {
        int gpu = -1;
        double left = 0, work = 0, rate = 1; ///< work left and at the run's start (alone-s)
        std::uint32_t tick = 0;
    };
    const int ts_replicas = s.timeslice_replicas;
    std::vector<TsGpu> ts_gpu(static_cast<std::size_t>(s.timeslice_nodes) *
                              static_cast<std::size_t>(s.gpus_per_node));
    std::vector<char> ts_down(static_cast<std::size_t>(s.timeslice_nodes), 0);
    std::set<std::pair<int, int>> ts_open; // (runs on it, GPU): the up GPUs with a free replica
    for (std::size_t g = 0; g < ts_gpu.size(); ++g)
        ts_open.emplace(0, static_cast<int>(g));
    std::int64_t ts_free = static_cast<std::int64_t>(ts_gpu.size()) * ts_replicas;
    double ts_busy = 0;         // sum over GPUs of their busy share
    std::int64_t ts_alloc = 0;  // GPUs with at least one run
    std::int64_t ts_runs = 0;   // runs on them
    std::int64_t ts_down_n = 0; // time-sliced nodes out for repair
    std::vector<TsRun> ts_run;  // per allocation (used by time-sliced runs)
    int ts_pick = -1;           // the GPU ts_take chose for the run start() begins
    const auto node_down = [&](int n) {
        return is_ts_node(n) ? ts_down[static_cast<std::size_t>(n - whole_nodes)] != 0
                             : pool_of(n).is_down(local(n));
    };

    // Takes the job's units from its pool; `parts` in cluster node numbers.
    std::vector<std::pair<int, int>> parts;
    const auto take = [&](const Job& j) {
        if (j.ts) { // a replica on the GPU with the fewest runs that has room for its memory
            parts.clear();
            ts_pick = -1;
            for (const auto& [runs, g] : ts_open)
                if (j.memory <= 0 || ts_gpu[static_cast<std::size_t>(g)].memory + j.memory <=
                                         s.gpu_memory_bytes * (1 + 1e-12)) {
                    ts_pick = g;
                    break;
                }
            if (ts_pick < 0)
                return false;
            parts.emplace_back(whole_nodes + ts_pick / s.gpus_per_node, 1);
            return true;
        }
        if (!j.mig)
            return nodes.take(j.gpus, s.topology_aware, parts);
        if (!mig.take(j.gpus, true, parts))
            return false;
        for (auto& p : parts)
            p.first += mig_base;
        return true;
    };
    // The queue: one FIFO per priority level (one level unless the policy is priority).
    std::array<std::map<int, std::deque<Job>, std::greater<>>, 3> queues;
    std::size_t waiting = 0;
    // Waiting jobs per (class, pool), and what a scheduling pass has not yet looked at: a pass
    // stops once no job left in it could start (an overloaded pool's or a class at its quota's
    // queue grows without bound, and walking it on every event made the run quadratic: the
    // GUI froze for seconds; helper-15).
    std::vector<std::int64_t> waiting_in(nc * 3, 0), pass_rem(nc * 3, 0);
    const auto slot = [](const Job& j) {
        return static_cast<std::size_t>(j.cls) * 3 + static_cast<std::size_t>(j.mig  ? 1
                                                                              : j.ts ? 2
                                                                                     : 0);
    };
    // Sizes of the whole-GPU jobs waiting (size -> count): whether the smallest could start
    // tells fragmentation (no waiting job fits) from GPUs the policy or a quota holds back.
    std::map<int, std::int64_t> waiting_whole;
    const auto enqueued = [&](const Job& j) {
        ++waiting;
        ++waiting_in[slot(j)];
        ++pass_rem[slot(j)]; // an evicted job is met again later in the pass
        if (!j.mig && !j.ts)
            ++waiting_whole[j.gpus];
    };
    const auto dequeued = [&](const Job& j) {
        --waiting;
        --waiting_in[slot(j)];
        if (!j.mig && !j.ts)
            if (auto it = waiting_whole.find(j.gpus);
                it != waiting_whole.end() && --it->second <= 0)
                waiting_whole.erase(it);
    };
    std::priority_queue<Running, std::vector<Running>, std::greater<>> running;
    std::vector<std::vector<std::pair<int, int>>> alloc;
    std::vector<int> alloc_class;
    std::vector<Job> alloc_job;      // the job each allocation runs (to evict and requeue it)
    std::vector<double> alloc_start; // when it started
    std::vector<std::uint32_t> alloc_gen;
    std::vector<char> alloc_live; // runs a job now (a node failure stops the live ones on it)
    std::vector<std::int64_t> free_slots;
    // Preemptive policy: running preemptible jobs, lowest priority first, then the most
    // recently started (the least work since a checkpoint, on average).
    const bool preemptive = s.policy == FleetPolicy::preemptive && !replay;
    std::set<std::tuple<int, double, std::int64_t>> victims;
    std::int64_t busy = 0, busy_mig = 0, seq = 0; // whole GPUs and MIG instances held
    // Busy GPUs: whole ones plus the instances' share.
    const auto busy_gpus = [&] {
        return static_cast<double>(busy) + static_cast<double>(busy_mig) / inst + ts_busy;
    };
    double busy_mig_integral = 0;
    // Time-slicing's integrals: busy GPUs, GPUs with a run, runs.
    double ts_busy_integral = 0, ts_alloc_integral = 0, ts_runs_integral = 0;
    // Per class: wall time and time alone of the time-sliced runs completed in the window.
    std::vector<double> ts_wall(nc, 0), ts_alone(nc, 0);
    std::vector<std::int64_t> ts_done(nc, 0);

    // Per class: GPUs (MIG classes: instances) held now, their quota (0 none), and the
    // time-integrals of both for the result.
    std::vector<std::int64_t> held(nc, 0), quota(nc, 0), cap(nc, 0), keep(nc, 0);
    if (!replay)
        for (std::size_t i = 0; i < nc; ++i) {
            quota[i] = s.classes[i].quota_gpus;
            cap[i] = s.classes[i].borrow_cap_gpus;
            keep[i] = s.classes[i].keep_gpus;
        }
    std::vector<double> held_integral(nc, 0), at_quota_time(nc, 0), borrowed_integral(nc, 0);
    // One cohort per pool: whole GPUs and MIG instances are different resources with their own
    // quotas (Kueue: nvidia.com/gpu and nvidia.com/mig-<profile> flavors), lent only in kind.
    const auto pool_of_class = [&](std::size_t i) {
        return replay ? 0 : s.classes[i].mig ? 1 : s.classes[i].time_sliced ? 2 : 0;
    };
    // Each pool's cohort lends what its quotas hold less what their teams keep (Kueue: the
    // sum of the lendingLimits; every quota when none keeps anything).
    std::int64_t cohort_pool[3] = {0, 0, 0};
    for (std::size_t i = 0; i < nc; ++i)
        cohort_pool[pool_of_class(i)] += quota[i] - keep[i];
    const bool borrowing =
        s.quota_borrowing && std::any_of(quota.begin(), quota.end(), [](auto q) { return q > 0; });
    // A job over its class's quota waits -- unless the cohort lends it what the other quotas
    // of its pool leave unused: within the class's borrowing cap, and with every class's GPUs
    // beyond the part of its quota it keeps (its own lendable part, then what it borrows)
    // within the pool. Nobody keeping anything, that is the cohort's held GPUs within the sum
    // of its quotas.
    const auto over_quota = [&](const Job& j) {
        const auto c = static_cast<std::size_t>(j.cls);
        if (quota[c] == 0 || held[c] + j.gpus <= quota[c])
            return false;
        if (!borrowing)
            return true;
        if (cap[c] > 0 && held[c] + j.gpus > cap[c])
            return true;
        const int kind = pool_of_class(c);
        std::int64_t drawn = 0;
        for (std::size_t i = 0; i < nc; ++i)
            if (quota[i] > 0 && pool_of_class(i) == kind)
                drawn += std::max<std::int64_t>(0, held[i] + (i == c ? j.gpus : 0) - keep[i]);
        return drawn > cohort_pool[kind];
    };
    FleetResult r;
    r.classes.resize(nc);
    for (std::size_t i = 0; i < nc; ++i)
        r.classes[i].name = replay ? s.trace->classes[i] : s.classes[i].name;
    r.warmup_s = warm;
    // The timeline: 240 samples over the horizon, each the state just before that moment.
    constexpr int kSamples = 240;
    r.timeline.reserve(kSamples + 1);
    double next_sample = 0;
    // The allocation timeline: up to 64 nodes evenly spread; at each sample, the job holding
    // most of each such node's GPUs. A run seen there is kept once (keyed by its allocation
    // and generation) with every node it holds; its end is set when it stops.
    constexpr int kRows = 64;
    FleetAllocation& al = r.allocation;
    const int rows = std::min(kRows, s.nodes);
    std::vector<int> row_of(static_cast<std::size_t>(s.nodes), -1);
    for (int i = 0; i < rows; ++i) {
        const int n = static_cast<int>(static_cast<std::int64_t>(i) * s.nodes / rows);
        al.node_rows.push_back(n);
        row_of[static_cast<std::size_t>(n)] = i;
    }
    std::map<std::pair<std::int64_t, std::uint32_t>, int> seen; // live runs on the timeline
    std::vector<std::vector<int>> columns(static_cast<std::size_t>(rows));
    std::vector<std::vector<float>> held_columns(static_cast<std::size_t>(rows));
    std::vector<std::vector<double>> waits(nc);
    std::vector<double> all_waits;
    double busy_integral = 0, queue_integral = 0, frag_integral = 0, wait_sum_window = 0;
    double down_integral = 0;      // GPU-seconds of failed nodes
    double held_back_integral = 0; // whole GPUs idle while a waiting job could have used them
    // Batch means (Law, Simulation Modeling and Analysis, sec. 9.5.3): the window cut into
    // kBatches equal stretches, each one's utilization and mean wait (of the jobs arriving in
    // it), whose spread gives the 95 % interval of the run's own figures.
    constexpr int kBatches = 10;
    const double batch_s = (end - warm) / kBatches;
    std::array<double, kBatches> batch_busy{}, batch_wait_sum{};
    std::array<std::int64_t, kBatches> batch_wait_n{};
    const auto batch_of = [&](double at) {
        return std::clamp(static_cast<int>((at - warm) / batch_s), 0, kBatches - 1);
    };
    const auto batch_wait = [&](double arrival, double w) {
        const auto k = static_cast<std::size_t>(batch_of(arrival));
        batch_wait_sum[k] += w;
        ++batch_wait_n[k];
    };
    double gpu_seconds_by_jobs = 0;
    std::int64_t arrived_window = 0;
    double t = 0;

    const auto sample_allocation = [&] {
        std::vector<int> best(static_cast<std::size_t>(rows), FleetAllocation::kIdle);
        std::vector<int> most(static_cast<std::size_t>(rows), 0);
        std::vector<int> units(static_cast<std::size_t>(rows), 0); // held on the node, all jobs
        for (std::size_t u = 0; u < alloc.size(); ++u) {
            if (!alloc_live[u])
                continue;
            for (const auto& [n, g] : alloc[u]) {
                const int row = row_of[static_cast<std::size_t>(n)];
                if (row >= 0)
                    units[static_cast<std::size_t>(row)] += g;
                if (row < 0 || g <= most[static_cast<std::size_t>(row)])
                    continue;
                const auto key = std::make_pair(static_cast<std::int64_t>(u), alloc_gen[u]);
                auto it = seen.find(key);
                if (it == seen.end()) {
                    FleetAllocJob job;
                    job.cls = alloc_job[u].cls;
                    job.gpus = alloc_job[u].gpus;
                    job.mig = alloc_job[u].mig;
                    job.time_sliced = alloc_job[u].ts;
                    job.start_s = alloc_start[u];
                    // Until it stops (a time-sliced run's end moves with its GPU's load).
                    job.end_s = alloc_job[u].ts
                                    ? end
                                    : std::min(end, alloc_start[u] + alloc_job[u].duration);
                    job.running_at_end = true; // until it stops
                    job.nodes = alloc[u];
                    std::sort(job.nodes.begin(), job.nodes.end());
                    job.leaves = nodes.leaves_under(job.nodes);
                    al.jobs.push_back(std::move(job));
                    it = seen.emplace(key, static_cast<int>(al.jobs.size()) - 1).first;
                }
                best[static_cast<std::size_t>(row)] = it->second;
                most[static_cast<std::size_t>(row)] = g;
            }
        }
        for (int i = 0; i < rows; ++i) {
            const int n = al.node_rows[static_cast<std::size_t>(i)];
            const bool down = node_down(n);
            columns[static_cast<std::size_t>(i)].push_back(
                down ? FleetAllocation::kDown : best[static_cast<std::size_t>(i)]);
            // The node's units: GPUs, its time-sliced GPUs' replicas, or its MIG instances.
            const int capacity = s.gpus_per_node * (is_ts_node(n)   ? ts_replicas
                                                    : n >= mig_base ? inst
                                                                    : 1);
            held_columns[static_cast<std::size_t>(i)].push_back(
                down ? 0.0F
                     : static_cast<float>(std::min(1.0, units[static_cast<std::size_t>(i)] /
                                                            std::max(1.0, 1.0 * capacity))));
        }
    };
    // A run stops (done or evicted): its end on the allocation timeline.
    const auto stopped = [&](std::size_t u) {
        const auto it = seen.find({static_cast<std::int64_t>(u), alloc_gen[u]});
        if (it == seen.end())
            return;
        al.jobs[static_cast<std::size_t>(it->second)].end_s = t;
        al.jobs[static_cast<std::size_t>(it->second)].running_at_end = false;
        seen.erase(it);
    };
    const auto advance = [&](double to) {
        while (next_sample <= std::min(to, end) && r.timeline.size() <= kSamples) {
            r.timeline.push_back({next_sample, busy_gpus(), static_cast<double>(waiting)});
            sample_allocation();
            next_sample = end * static_cast<double>(r.timeline.size()) / kSamples;
        }
        const double a = std::max(t, warm), b = std::min(to, end);
        if (b > a) {
            busy_integral += busy_gpus() * (b - a);
            for (int k = batch_of(a); k < kBatches; ++k) {
                const double lo = std::max(a, warm + k * batch_s),
                             hi = std::min(b, warm + (k + 1) * batch_s);
                if (hi <= lo)
                    break;
                batch_busy[static_cast<std::size_t>(k)] += busy_gpus() * (hi - lo);
            }
            busy_mig_integral += static_cast<double>(busy_mig) * (b - a);
            queue_integral += static_cast<double>(waiting) * (b - a);
            // Time-sliced GPUs idle while a job waits: up, and no run on them.
            const auto ts_idle = static_cast<double>(
                (s.timeslice_nodes - ts_down_n) * static_cast<std::int64_t>(s.gpus_per_node) -
                ts_alloc);
            // Whole GPUs idle while whole-GPU jobs wait: fragmentation when not even the
            // smallest waiting one could start (leaf-required included), else held back by the
            // policy (a FIFO head that does not fit) or a quota (helper-36: FIFO's head-of-line
            // blocking read as 94.7 % fragmentation).
            if (!waiting_whole.empty()) {
                const double idle = static_cast<double>(nodes.total_free()) * (b - a);
                if (nodes.can_take(waiting_whole.begin()->first, s.topology_aware, false))
                    held_back_integral += idle;
                else
                    frag_integral += idle;
            }
            if (waiting > 0)
                frag_integral += (static_cast<double>(mig.total_free()) / inst + ts_idle) * (b - a);
            down_integral += static_cast<double>(nodes.down_nodes() + mig.down_nodes() +
                                                 static_cast<std::size_t>(ts_down_n)) *
                             s.gpus_per_node * (b - a);
            ts_busy_integral += ts_busy * (b - a);
            ts_alloc_integral += static_cast<double>(ts_alloc) * (b - a);
            ts_runs_integral += static_cast<double>(ts_runs) * (b - a);
            for (std::size_t i = 0; i < nc; ++i) {
                held_integral[i] += static_cast<double>(held[i]) * (b - a);
                if (quota[i] > 0 && held[i] >= quota[i])
                    at_quota_time[i] += b - a;
                if (quota[i] > 0 && held[i] > quota[i])
                    borrowed_integral[i] += static_cast<double>(held[i] - quota[i]) * (b - a);
            }
        }
        t = to;
    };
    // Seconds of [a, b] inside the measured window.
    const auto in_window = [&](double a, double b) {
        return std::max(0.0, std::min(b, end) - std::max(a, warm));
    };
    // GPU-seconds lost in the window: [0] to preemption, [1] to node failures.
    double lost_seconds[2] = {0, 0};
    // GPU-seconds in the window split runs took beyond their work under the fewest leaves.
    double split_seconds = 0;
    // GPU-seconds in the window time-sliced GPUs spent switching between their runs.
    double switch_seconds = 0;
    // Time-slicing: brings GPU g's runs up to now -- their work left, and their GPU-seconds in
    // the window: a run's share of its GPU is its busy share x its rate; the rest of the GPU's
    // busy time (the busy integral's ts_busy) went to switching.
    const auto ts_update = [&](int g) {
        TsGpu& gp = ts_gpu[static_cast<std::size_t>(g)];
        if (t > gp.last) {
            for (const std::int64_t id : gp.runs) {
                TsRun& run = ts_run[static_cast<std::size_t>(id)];
                run.left = std::max(0.0, run.left - (t - gp.last) * run.rate);
                gpu_seconds_by_jobs += alloc_job[static_cast<std::size_t>(id)].busy_share *
                                       run.rate * in_window(gp.last, t);
            }
            if (gp.runs.size() > 1)
                switch_seconds +=
                    std::max(0.0, gp.busy - gp.load * gp.rate) * in_window(gp.last, t);
        }
        gp.last = t;
    };
    // After a run joined or left GPU g: its busy share and its runs' rate anew, every run there
    // at that rate, its end pushed again (the older entries are stale by their tick).
    const auto ts_rerate = [&](int g) {
        TsGpu& gp = ts_gpu[static_cast<std::size_t>(g)];
        // P(no run active) and P(exactly one), run by run: c = 1 - both.
        double none = 1, one = 0;
        for (const std::int64_t id : gp.runs) {
            const double d = alloc_job[static_cast<std::size_t>(id)].busy_share;
            one = one * (1 - d) + none * d;
            none *= 1 - d;
        }
        const double switching =
            gp.runs.size() > 1 ? (1 - ts_eff) * std::clamp(1 - none - one, 0.0, 1.0) : 0.0;
        const double now_busy = std::min(1.0, gp.load + switching);
        const double rate = gp.load > 0 ? std::min(1.0, (1 - switching) / gp.load) : 1.0;
        ts_busy += now_busy - gp.busy;
        gp.busy = now_busy;
        gp.rate = rate;
        for (const std::int64_t id : gp.runs) {
            TsRun& run = ts_run[static_cast<std::size_t>(id)];
            run.rate = rate;
            ++run.tick;
            running.push(
                {t + run.left / rate, id, alloc_gen[static_cast<std::size_t>(id)], run.tick});
        }
    };
    const auto ts_join = [&](std::int64_t id, int g) {
        ts_update(g);
        TsGpu& gp = ts_gpu[static_cast<std::size_t>(g)];
        const int before = static_cast<int>(gp.runs.size());
        ts_open.erase({before, g});
        gp.runs.push_back(id);
        if (before + 1 < ts_replicas)
            ts_open.emplace(before + 1, g);
        --ts_free;
        ++ts_runs;
        ts_alloc += before == 0;
        gp.load += alloc_job[static_cast<std::size_t>(id)].busy_share;
        gp.memory += alloc_job[static_cast<std::size_t>(id)].memory;
        ts_rerate(g);
    };
    // A time-sliced run stops (done, evicted, or its node failed): it leaves its GPU, the
    // others there speed up. Returns the work it did (alone-seconds, its restart included); the
    // part of its restart it ran did no new work (lost, as a whole-GPU run's restart is).
    const auto ts_stop = [&](std::int64_t id) {
        const auto u = static_cast<std::size_t>(id);
        const int g = ts_run[u].gpu;
        ts_update(g);
        TsGpu& gp = ts_gpu[static_cast<std::size_t>(g)];
        const int before = static_cast<int>(gp.runs.size());
        if (before < ts_replicas)
            ts_open.erase({before, g});
        const auto at = std::find(gp.runs.begin(), gp.runs.end(), id);
        *at = gp.runs.back();
        gp.runs.pop_back();
        ts_open.emplace(before - 1, g); // its node is up: a failing node's runs stop first
        ++ts_free;
        --ts_runs;
        ts_alloc -= before == 1;
        gp.load = gp.runs.empty() ? 0.0 : gp.load - alloc_job[u].busy_share;
        gp.memory = gp.runs.empty() ? 0.0 : gp.memory - alloc_job[u].memory;
        ts_rerate(g);
        ts_run[u].gpu = -1;
        const Job& j = alloc_job[u];
        const double done = ts_run[u].work - ts_run[u].left;
        if (t >= warm)
            lost_seconds[j.setup_after_failure] += j.busy_share * std::min(done, j.setup);
        return done;
    };
    const auto start = [&](const Job& queued) {
        Job j = queued;
        // Leaf switches under a multi-node run: the fewest it could have had vs what it got.
        int leaves = 0;
        bool split = false;
        if (!j.mig && parts.size() > 1) {
            leaves = nodes.leaves_under(parts);
            const auto fewest = static_cast<int>(
                (parts.size() + static_cast<std::size_t>(nodes.nodes_per_leaf()) - 1) /
                static_cast<std::size_t>(nodes.nodes_per_leaf()));
            split = leaves > fewest;
        }
        j.stretch = split ? split_slowdown[static_cast<std::size_t>(j.cls)] : 1.0;
        std::int64_t id;
        if (!free_slots.empty()) {
            id = free_slots.back();
            free_slots.pop_back();
            alloc[static_cast<std::size_t>(id)] = parts;
            alloc_class[static_cast<std::size_t>(id)] = j.cls;
            alloc_job[static_cast<std::size_t>(id)] = j;
            alloc_start[static_cast<std::size_t>(id)] = t;
            alloc_live[static_cast<std::size_t>(id)] = 1;
        } else {
            id = static_cast<std::int64_t>(alloc.size());
            alloc.push_back(parts);
            alloc_class.push_back(j.cls);
            alloc_job.push_back(j);
            alloc_start.push_back(t);
            alloc_gen.push_back(0);
            alloc_live.push_back(1);
            ts_run.emplace_back();
        }
        held[static_cast<std::size_t>(j.cls)] += j.gpus;
        if (preemptive && s.classes[static_cast<std::size_t>(j.cls)].preemptible)
            victims.emplace(j.prio, -t, id);
        if (j.ts) { // its GPU-hours and losses are counted as it runs (ts_update, ts_stop)
            TsRun& run = ts_run[static_cast<std::size_t>(id)];
            run.gpu = ts_pick;
            run.left = run.work = j.duration;
            run.rate = 1;
            ts_join(id, ts_pick);
        } else {
            (j.mig ? busy_mig : busy) += j.gpus;
            running.push({t + j.elapsed(), id, alloc_gen[static_cast<std::size_t>(id)],
                          ts_run[static_cast<std::size_t>(id)].tick});
            // The same GPU-hours counted job by job (the conservation check against the
            // integral).
            const double share = j.gpus * weight(j); // GPUs' worth
            gpu_seconds_by_jobs += share * in_window(t, t + j.elapsed());
            if (j.stretch > 1) // of each stretched second, 1 - 1/stretch is the split's cost
                split_seconds +=
                    share * in_window(t + j.setup, t + j.elapsed()) * (1.0 - 1.0 / j.stretch);
            lost_seconds[j.setup_after_failure] +=
                share * in_window(t, t + j.setup); // a restart does no new work
        }
        const double w = t - j.queued_since;
        if (j.arrival >= warm) {
            if (j.restarts == 0) { // wait statistics: the wait before a job first runs
                waits[static_cast<std::size_t>(j.cls)].push_back(w);
                all_waits.push_back(w);
                batch_wait(j.arrival, w);
                ++r.classes[static_cast<std::size_t>(j.cls)].jobs_started;
                ++r.jobs_started;
            }
            wait_sum_window += w; // Little's law: every stretch in the queue
            if (leaves > 0) {
                ++r.multi_node_runs;
                r.multi_node_leaves_sum += leaves;
                if (split)
                    ++r.multi_node_runs_split;
            }
        }
    };
    // Stops allocation `id` now: its GPUs are freed, the work since its last checkpoint is lost,
    // and it waits again to restart from that checkpoint -- at the back of its level when
    // evicted for a job of higher priority, at the front when a node under it failed.
    const auto evict = [&](std::int64_t id, bool failure) {
        const auto u = static_cast<std::size_t>(id);
        Job j = alloc_job[u];
        // A traced job has no checkpoint interval: it starts over.
        const double ckpt =
            replay ? 0.0 : s.classes[static_cast<std::size_t>(j.cls)].checkpoint_interval_h * 3600;
        double saved = 0;
        if (j.ts) {
            // Its work since the restart, in alone-seconds; the GPU time it took is its busy
            // share of that, however the GPU was shared meanwhile.
            const double work = std::max(0.0, ts_stop(id) - j.setup);
            saved = ckpt > 0 ? std::floor(work / ckpt) * ckpt : 0.0;
            if (t >= warm)
                lost_seconds[failure] += j.busy_share * (work - saved);
        } else {
            const double ran = t - alloc_start[u];
            const double planned_end = alloc_start[u] + j.elapsed();
            const double share = j.gpus * weight(j);                  // GPUs' worth
            gpu_seconds_by_jobs -= share * in_window(t, planned_end); // what it will not run
            if (j.stretch > 1)
                split_seconds -= share *
                                 in_window(std::max(t, alloc_start[u] + j.setup), planned_end) *
                                 (1.0 - 1.0 / j.stretch);
            double work = 0;
            if (ran < j.setup) // stopped while restarting: the rest of that restart never runs
                lost_seconds[j.setup_after_failure] -=
                    share * in_window(t, alloc_start[u] + j.setup);
            else
                work = ran - j.setup;
            saved = ckpt > 0 ? std::floor(work / ckpt) * ckpt : 0.0;
            lost_seconds[failure] += share * in_window(t - (work - saved), t);
            (j.mig ? busy_mig : busy) -= j.gpus;
            give(alloc[u]);
        }
        held[static_cast<std::size_t>(j.cls)] -= j.gpus;
        stopped(u);
        ++alloc_gen[u];
        alloc_live[u] = 0;
        free_slots.push_back(id);
        victims.erase({j.prio, -alloc_start[u], id});
        if (t >= warm) {
            auto& c = r.classes[static_cast<std::size_t>(j.cls)];
            ++(failure ? r.interruptions : r.preemptions);
            ++(failure ? c.interruptions : c.preemptions);
        }
        // What is left of its work, in unstretched time: a split run did less per second.
        j.duration = j.duration - j.setup - saved / j.stretch + s.restart_s;
        j.stretch = 1;
        j.setup = s.restart_s;
        j.setup_after_failure = failure;
        j.queued_since = t;
        ++j.restarts;
        if (failure)
            queues[static_cast<std::size_t>(pool(j))][j.prio].push_front(j);
        else
            queues[static_cast<std::size_t>(pool(j))][j.prio].push_back(j);
        enqueued(j);
    };
    // A node fails: the jobs on it stop, it is out until repaired.
    const auto fail_node = [&](int n) {
        if (t >= warm)
            ++r.node_failures;
        for (std::size_t id = 0; id < alloc.size(); ++id) {
            if (!alloc_live[id])
                continue;
            for (const auto& part : alloc[id])
                if (part.first == n) {
                    evict(static_cast<std::int64_t>(id), true);
                    break;
                }
        }
        if (is_ts_node(n)) { // its runs have left: every GPU of it has all its replicas free
            const auto k = static_cast<std::size_t>(n - whole_nodes);
            for (int i = 0; i < s.gpus_per_node; ++i)
                ts_open.erase({0, static_cast<int>(k) * s.gpus_per_node + i});
            ts_free -= static_cast<std::int64_t>(s.gpus_per_node) * ts_replicas;
            ts_down[k] = 1;
            ++ts_down_n;
        } else {
            pool_of(n).fail(local(n));
        }
        repairs.emplace(t + s.repair_h * 3600, n);
    };
    const auto repair_node = [&](int n) {
        if (!is_ts_node(n)) {
            pool_of(n).repair(local(n));
            return;
        }
        const auto k = static_cast<std::size_t>(n - whole_nodes);
        for (int i = 0; i < s.gpus_per_node; ++i)
            ts_open.emplace(0, static_cast<int>(k) * s.gpus_per_node + i);
        ts_free += static_cast<std::int64_t>(s.gpus_per_node) * ts_replicas;
        ts_down[k] = 0;
        --ts_down_n;
    };
    // Free units of a pool (whole GPUs, MIG instances, time-sliced replicas).
    const auto free_in = [&](int p) {
        return p == 0 ? nodes.total_free() : p == 1 ? mig.total_free() : ts_free;
    };
    // Evicts the first running preemptible job of `j`'s pool (lowest priority, then the most
    // recently started) that `eligible` accepts, when the free GPUs and every eligible job's
    // would make room for `j`; `stop` ends the walk (the victims are in priority order).
    const auto evict_first = [&](const Job& j, const auto& eligible, const auto& stop) {
        std::int64_t could = free_in(pool(j));
        std::int64_t first = -1;
        for (const auto& [p, neg_start, id] : victims) {
            if (stop(p))
                break;
            const Job& v = alloc_job[static_cast<std::size_t>(id)];
            if (pool(v) != pool(j) || !eligible(v))
                continue;
            could += v.gpus;
            if (first < 0)
                first = id;
        }
        if (could < j.gpus || first < 0)
            return std::int64_t{-1};
        return first;
    };
    // Under the preemptive policy: frees GPUs for a job of priority `prio` that does not fit by
    // evicting one preemptible job of lower priority; false when none is left or even all of
    // them would not free enough GPUs.
    // Only jobs of the same pool (whole GPUs or MIG instances) free what it needs.
    const auto evict_one_for = [&](const Job& j) {
        const std::int64_t id = evict_first(
            j, [](const Job&) { return true; }, [&](int p) { return p >= j.prio; });
        if (id < 0)
            return false;
        evict(id, false);
        return true;
    };
    // Under the preemptive policy with borrowing: a job within its class's quota that does not
    // fit takes lent GPUs back, evicting one preemptible job of a class that holds more than its
    // quota (the lowest priority, then the most recently started first), whatever its priority.
    const auto reclaim_one_for = [&](const Job& j) {
        const auto c = static_cast<std::size_t>(j.cls);
        if (!borrowing || quota[c] == 0 || held[c] + j.gpus > quota[c])
            return false;
        const std::int64_t id = evict_first(
            j,
            [&](const Job& v) {
                const auto vc = static_cast<std::size_t>(v.cls);
                return vc != c && quota[vc] > 0 && held[vc] > quota[vc];
            },
            [](int) { return false; });
        if (id < 0)
            return false;
        if (t >= warm)
            ++r.classes[static_cast<std::size_t>(alloc_job[static_cast<std::size_t>(id)].cls)]
                  .reclaimed;
        evict(id, false);
        return true;
    };
    // The smallest job of each pool: when even it does not fit, no waiting job of that pool
    // does, and a backfill pass can stop instead of trying every waiting job (an overloaded
    // cluster's queue grows without bound: the pass was quadratic in it).
    int smallest_whole = replay ? 1 : std::numeric_limits<int>::max();
    for (const auto& c : s.classes)
        if (!c.mig && !c.time_sliced)
            smallest_whole = std::min(smallest_whole, c.gpus_per_job);
    const auto may_fit = [&](int p) {
        return p == 0 ? nodes.can_take(smallest_whole, s.topology_aware, true) : free_in(p) > 0;
    };
    std::vector<char> class_stuck(nc, 0);
    std::vector<int> fail_at(nc); // per class: the smallest job that did not fit in this pass
    // Whether any job of pool p the pass has not looked at could start: one whose class is not
    // held back (at its quota, or too large for what is free). Starting jobs only takes GPUs and
    // fills quotas, so once false it stays false for the rest of the pass.
    const auto any_left = [&](std::size_t p) {
        for (std::size_t c = 0; c < nc; ++c)
            if (!class_stuck[c] && pass_rem[c * 3 + p] > 0)
                return true;
        return false;
    };
    const auto schedule = [&] {
        // Whole GPUs, MIG instances, time-sliced replicas: three pools that never compete (a
        // Kueue ClusterQueue per resource flavor; quotas and preemption stay inside a pool),
        // each with its own queue, scheduled one after the other.
        bool blocked[3] = {false, s.mig_nodes == 0, s.timeslice_nodes == 0};
        std::fill(class_stuck.begin(), class_stuck.end(), 0);
        std::fill(fail_at.begin(), fail_at.end(), std::numeric_limits<int>::max());
        pass_rem = waiting_in;
        bool room[3] = {may_fit(0), may_fit(1), may_fit(2)};
        const auto run_pool = [&](std::size_t pp) {
            for (auto& [prio, q] : queues[pp]) {
                if (s.policy == FleetPolicy::backfill) {
                    // Any job that fits now starts, in arrival order (first fit).
                    for (auto it = q.begin(); it != q.end();) {
                        if (!room[pp] || !any_left(pp))
                            return;
                        const auto c = static_cast<std::size_t>(it->cls);
                        --pass_rem[slot(*it)];
                        if (!class_stuck[c] && it->gpus < fail_at[c]) {
                            if (over_quota(*it)) {
                                class_stuck[c] = 1;
                            } else if (!take(*it)) {
                                // Starting jobs only takes GPUs: for the rest of the pass no
                                // job as large fits either, and a class's jobs are all one
                                // size (a trace's are not).
                                fail_at[c] = std::min(fail_at[c], it->gpus);
                                class_stuck[c] = replay ? 0 : 1;
                            } else {
                                room[pp] = may_fit(static_cast<int>(pp));
                                const Job j = *it;
                                it = q.erase(it);
                                dequeued(j);
                                start(j);
                                continue;
                            }
                        }
                        ++it;
                    }
                } else {
                    // The head of the line blocks everyone behind it in its pool. A job over
                    // its team's quota waits and holds up only its own class (its
                    // ClusterQueue), not the pool.
                    for (auto it = q.begin(); it != q.end();) {
                        if (blocked[pp] || !any_left(pp))
                            return;
                        const auto c = static_cast<std::size_t>(it->cls);
                        if (class_stuck[c]) {
                            --pass_rem[slot(*it)];
                            ++it;
                            continue;
                        }
                        if (over_quota(*it)) {
                            class_stuck[c] = 1;
                            --pass_rem[slot(*it)];
                            ++it;
                            continue;
                        }
                        if (take(*it)) {
                            const Job j = *it;
                            --pass_rem[slot(j)];
                            it = q.erase(it);
                            dequeued(j);
                            start(j);
                        } else {
                            // An evicted job goes to the back of its level's queue: when that
                            // is this one (a reclaim evicts whatever the priority), push_back
                            // has invalidated `it`; its index still holds.
                            const auto at = it - q.begin();
                            const bool freed =
                                preemptive && (evict_one_for(*it) || reclaim_one_for(*it));
                            it = q.begin() + at;
                            if (!freed) {
                                blocked[pp] = true;
                                --pass_rem[slot(*it)];
                                ++it;
                            }
                        }
                    }
                }
            }
        };
        for (std::size_t pp = 0; pp < 3; ++pp)
            run_pool(pp);
    };

    for (;;) {
        std::size_t ci = 0;
        double ta = std::numeric_limits<double>::infinity();
        if (replay) {
            if (next_traced < s.trace->jobs.size())
                ta = s.trace->jobs[next_traced].submit_s;
        } else {
            for (std::size_t i = 1; i < nc; ++i)
                if (next_arrival[i] < next_arrival[ci])
                    ci = i;
            ta = next_arrival[ci];
        }
        while (!running.empty() &&
               (alloc_gen[static_cast<std::size_t>(running.top().id)] != running.top().gen ||
                ts_run[static_cast<std::size_t>(running.top().id)].tick != running.top().tick))
            running.pop(); // an evicted job's end, or a time-sliced run's end that moved
        const double tc =
            running.empty() ? std::numeric_limits<double>::infinity() : running.top().end;
        // Bursting: the oldest waiting job of any level reaches the threshold (each level's
        // deque is in arrival order, so its front waits longest).
        double tb = std::numeric_limits<double>::infinity();
        if (s.burst_after_s > 0)
            for (const auto& levels : queues)
                for (const auto& [prio, q] : levels)
                    if (!q.empty())
                        tb = std::min(tb, q.front().queued_since + s.burst_after_s);
        // A node fails or comes back from repair.
        const double tr =
            repairs.empty() ? std::numeric_limits<double>::infinity() : repairs.top().first;
        if (std::min(tr, next_failure) < std::min({ta, tc, tb}) &&
            std::min(tr, next_failure) < end) {
            advance(std::min(tr, next_failure));
            ++r.events;
            if (tr <= next_failure) {
                const int n = repairs.top().second;
                repair_node(n);
                repairs.pop();
            } else {
                // Each up node fails at the node rate: a cluster-wide clock at nodes x rate,
                // the node drawn at random, a draw of a node already down ignored (thinning).
                next_failure = next_failure_after(t);
                const auto n = static_cast<int>(
                    std::min<double>(s.nodes - 1, std::floor(unit(failure_rng) * s.nodes)));
                if (!node_down(n))
                    fail_node(n);
            }
            schedule();
            continue;
        }
        if (tb < std::min(ta, tc) && tb < end) {
            advance(tb);
            ++r.events;
            for (auto& levels : queues)
                for (auto& [prio, q] : levels)
                    while (!q.empty() && q.front().queued_since + s.burst_after_s <= t) {
                        const Job j = q.front();
                        q.pop_front();
                        dequeued(j);
                        if (j.arrival >= warm) {
                            const double w = t - j.queued_since;
                            if (j.restarts == 0) {
                                waits[static_cast<std::size_t>(j.cls)].push_back(w);
                                all_waits.push_back(w);
                                batch_wait(j.arrival, w);
                            }
                            wait_sum_window += w;
                            ++r.jobs_burst;
                            // On spot capacity every node of the gang can be preempted; each
                            // preemption redoes the work since the last checkpoint.
                            const double hours = j.gpus * weight(j) * j.duration / 3600;
                            const double gang =
                                j.mig || j.ts
                                    ? 1.0
                                    : std::ceil(static_cast<double>(j.gpus) / s.gpus_per_node);
                            const double redo = hours * gang * s.burst_redo_per_node;
                            r.burst_gpu_hours += hours + redo;
                            r.burst_gpu_hours_redone += redo;
                        }
                    }
            schedule(); // a blocked head that left may let the jobs behind it start
            continue;
        }
        const double tn = std::min(ta, tc);
        if (tn >= end) {
            advance(end);
            break;
        }
        advance(tn);
        ++r.events;
        if (tc <= ta) {
            const Running done = running.top();
            running.pop();
            const auto id = static_cast<std::size_t>(done.id);
            if (alloc_job[id].ts) {
                ts_stop(done.id);
                if (t >= warm) {
                    const auto c = static_cast<std::size_t>(alloc_job[id].cls);
                    ts_wall[c] += t - alloc_start[id];
                    ts_alone[c] += ts_run[id].work;
                    ++ts_done[c];
                }
            } else {
                (alloc_job[id].mig ? busy_mig : busy) -= alloc_job[id].gpus;
                give(alloc[id]);
            }
            held[static_cast<std::size_t>(alloc_job[id].cls)] -= alloc_job[id].gpus;
            stopped(id);
            ++alloc_gen[id];
            alloc_live[id] = 0;
            free_slots.push_back(done.id);
            if (preemptive)
                victims.erase({alloc_job[id].prio, -alloc_start[id], done.id});
            if (t >= warm) {
                ++r.jobs_completed;
                ++r.classes[static_cast<std::size_t>(alloc_class[id])].jobs_completed;
            }
        } else {
            Job j;
            j.seq = seq++;
            j.arrival = t;
            j.queued_since = t;
            int prio = 0;
            if (replay) {
                const TraceJob& tj = s.trace->jobs[next_traced++];
                j.cls = std::clamp(tj.cls, 0, static_cast<int>(nc) - 1);
                j.gpus = tj.gpus;
                j.duration = tj.duration_s;
                // Part of a GPU (PAI's plan_gpu under 100%): a replica of a time-sliced GPU
                // at that busy share, when there are such nodes; else a whole GPU.
                if (tj.gpu_share > 0 && s.timeslice_nodes > 0) {
                    j.ts = true;
                    j.busy_share = std::min(1.0, tj.gpu_share);
                    j.gpus = 1;
                }
                skip_too_large();
            } else {
                const FleetClass& c = s.classes[ci];
                j.cls = static_cast<int>(ci);
                j.mig = c.mig;
                j.ts = c.time_sliced;
                j.busy_share = c.gpu_busy;
                j.memory = c.gpu_memory_bytes;
                j.gpus = c.mig || c.time_sliced ? 1 : c.gpus_per_job;
                j.duration = exponential(ci, c.mean_duration_h * 3600);
                prio = c.priority;
                next_arrival[ci] = arrival_after(ci, t);
            }
            if (t >= warm) {
                ++arrived_window;
                ++r.jobs_arrived;
            }
            j.prio = s.policy == FleetPolicy::priority || preemptive ? prio : 0;
            queues[static_cast<std::size_t>(pool(j))][j.prio].push_back(j);
            enqueued(j);
        }
        schedule();
    }
    // Time-sliced runs still going: their GPU-seconds up to the horizon.
    for (std::size_t g = 0; g < ts_gpu.size(); ++g)
        ts_update(static_cast<int>(g));
    // Jobs still waiting at the horizon: their wait so far counts towards Little's law.
    double censored = 0;
    for (const auto& levels : queues)
        for (const auto& [prio, q] : levels)
            for (const Job& j : q) {
                if (j.arrival >= warm)
                    censored += end - j.queued_since;
                ++r.jobs_waiting_at_end;
                r.longest_wait_at_end_s = std::max(r.longest_wait_at_end_s, end - j.queued_since);
            }

    if (replay)
        for (const TraceJob& tj : s.trace->jobs)
            if (tj.gpus > whole_gpus) {
                ++r.trace_jobs_too_large;
                if (tj.cls >= 0 && static_cast<std::size_t>(tj.cls) < r.classes.size())
                    ++r.classes[static_cast<std::size_t>(tj.cls)].jobs_too_large;
            }
    const double window = end - warm;
    r.gpu_hours_available = static_cast<double>(cluster) * window / 3600;
    r.gpu_hours_used = busy_integral / 3600;
    r.gpu_hours_by_jobs = gpu_seconds_by_jobs / 3600;
    r.split_gpu_hours = split_seconds / 3600;
    r.gpu_hours_lost_preemption = lost_seconds[0] / 3600;
    r.gpu_hours_lost_failures = lost_seconds[1] / 3600;
    r.gpu_hours_down = down_integral / 3600;
    r.down_fraction = r.gpu_hours_available > 0 ? r.gpu_hours_down / r.gpu_hours_available : 0;
    r.utilization = r.gpu_hours_available > 0 ? r.gpu_hours_used / r.gpu_hours_available : 0;
    // A time-sliced GPU with a run is allocated whole, however busy its runs keep it.
    r.allocated_fraction =
        r.gpu_hours_available > 0
            ? (busy_integral - ts_busy_integral + ts_alloc_integral) / 3600 / r.gpu_hours_available
            : 0;
    if (s.timeslice_nodes > 0) {
        const double ts_gpu_s = static_cast<double>(ts_gpu.size()) * window;
        r.timeslice_nodes = s.timeslice_nodes;
        r.timeslice_replicas = ts_replicas;
        r.timeslice_gpu_memory_bytes = s.gpu_memory_bytes;
        r.timeslice_gpus = static_cast<std::int64_t>(ts_gpu.size());
        r.timeslice_utilization = ts_busy_integral / ts_gpu_s;
        r.timeslice_allocated = ts_alloc_integral / ts_gpu_s;
        r.timeslice_jobs_per_gpu = ts_alloc_integral > 0 ? ts_runs_integral / ts_alloc_integral : 0;
        r.timeslice_efficiency = ts_eff;
        r.gpu_hours_switching = switch_seconds / 3600;
    }
    r.mig_instances = static_cast<std::int64_t>(s.mig_nodes) * s.gpus_per_node * inst;
    r.mig_nodes = s.mig_nodes;
    r.mig_instances_per_gpu = s.mig_nodes > 0 ? inst : 0;
    r.mig_profile = s.mig_profile;
    r.nodes_per_leaf = nodes.nodes_per_leaf();
    if (r.mig_instances > 0)
        r.mig_utilization = busy_mig_integral / (static_cast<double>(r.mig_instances) * window);
    r.fragmentation_fraction =
        r.gpu_hours_available > 0 ? frag_integral / 3600 / r.gpu_hours_available : 0;
    r.held_back_fraction =
        r.gpu_hours_available > 0 ? held_back_integral / 3600 / r.gpu_hours_available : 0;
    r.mean_queue_length = queue_integral / window;
    r.little_queue_length =
        arrived_window > 0
            ? static_cast<double>(arrived_window) / window *
                  ((wait_sum_window + censored) / static_cast<double>(arrived_window))
            : 0;
    // 95 % batch-means half-widths: Student's t over the batches (those with waits, for the
    // wait), none with fewer than five batches to go on.
    {
        static constexpr double kT975[] = {12.706, 4.303, 3.182, 2.776, 2.571,
                                           2.447,  2.365, 2.306, 2.262};
        const auto half_width = [](const std::vector<double>& x) {
            const std::size_t n = x.size();
            if (n < 5)
                return 0.0;
            double m = 0, v = 0;
            for (double e : x)
                m += e;
            m /= static_cast<double>(n);
            for (double e : x)
                v += (e - m) * (e - m);
            v /= static_cast<double>(n - 1);
            return kT975[std::min<std::size_t>(n - 1, 9) - 1] *
                   std::sqrt(v / static_cast<double>(n));
        };
        std::vector<double> u, wm;
        for (std::size_t k = 0; k < batch_busy.size(); ++k) {
            if (cluster > 0 && batch_s > 0)
                u.push_back(batch_busy[k] / (static_cast<double>(cluster) * batch_s));
            if (batch_wait_n[k] > 0)
                wm.push_back(batch_wait_sum[k] / static_cast<double>(batch_wait_n[k]));
        }
        r.utilization_ci95 = half_width(u);
        r.wait_mean_ci95_s = half_width(wm);
    }
    r.waits_counted = static_cast<std::int64_t>(all_waits.size());
    if (!all_waits.empty()) {
        double sum = 0;
        for (double w : all_waits)
            sum += w;
        r.wait_mean_s = sum / static_cast<double>(all_waits.size());
        r.wait_p50_s = percentile(all_waits, 0.5);
        r.wait_p95_s = percentile(all_waits, 0.95);
    }
    for (std::size_t i = 0; i < nc; ++i) {
        r.classes[i].mean_held = held_integral[i] / window;
        r.classes[i].at_quota_fraction = quota[i] > 0 ? at_quota_time[i] / window : 0;
        r.classes[i].mean_borrowed = borrowed_integral[i] / window;
        r.classes[i].quota = static_cast<int>(quota[i]);
        r.classes[i].borrow_cap = static_cast<int>(cap[i]);
        r.classes[i].keep = static_cast<int>(keep[i]);
        if (!replay) {
            r.classes[i].mean_duration_h = s.classes[i].mean_duration_h;
            r.classes[i].duration_source = s.classes[i].duration_source;
            r.classes[i].split_slowdown = s.classes[i].split_slowdown;
            r.classes[i].time_sliced = s.classes[i].time_sliced;
            if (s.classes[i].time_sliced) {
                const double mem = s.classes[i].gpu_memory_bytes;
                r.classes[i].gpu_memory_bytes = mem;
                // Jobs of this class alone on one GPU: the replicas, or what fits its memory.
                r.classes[i].jobs_per_gpu_at_most =
                    mem > 0 ? static_cast<int>(std::min<double>(
                                  s.timeslice_replicas,
                                  std::floor(s.gpu_memory_bytes * (1 + 1e-12) / mem)))
                            : s.timeslice_replicas;
            }
        }
        if (ts_done[i] > 0) {
            r.classes[i].mean_run_s = ts_wall[i] / static_cast<double>(ts_done[i]);
            r.classes[i].slowdown = ts_wall[i] / ts_alone[i];
        }
        auto& w = waits[i];
        r.classes[i].waits_counted = static_cast<std::int64_t>(w.size());
        if (w.empty())
            continue;
        double sum = 0;
        for (double x : w)
            sum += x;
        r.classes[i].wait_mean_s = sum / static_cast<double>(w.size());
        r.classes[i].wait_p50_s = percentile(w, 0.5);
        r.classes[i].wait_p95_s = percentile(w, 0.95);
    }
    r.burst_usd = r.burst_gpu_hours * s.burst_usd_per_gpu_hour;
    r.burst_usd_per_gpu_hour = s.burst_usd_per_gpu_hour;
    r.burst_on_spot = s.burst_redo_per_node > 0;
    // Switching between a time-sliced GPU's jobs kept it busy with no job's work.
    const double useful = r.gpu_hours_used - r.gpu_hours_lost_preemption -
                          r.gpu_hours_lost_failures - r.gpu_hours_switching;
    r.useful_fraction =
        r.gpu_hours_available > 0 ? std::max(0.0, useful) / r.gpu_hours_available : 0;
    if (s.usd_per_gpu_hour > 0 && useful > 0)
        r.useful_gpu_hour_usd = s.usd_per_gpu_hour * r.gpu_hours_available / useful;
    al.columns = static_cast<int>(r.timeline.size());
    al.cell.reserve(static_cast<std::size_t>(rows) * r.timeline.size());
    for (const auto& col : columns)
        al.cell.insert(al.cell.end(), col.begin(), col.end());
    al.held.reserve(al.cell.size());
    for (const auto& col : held_columns)
        al.held.insert(al.held.end(), col.begin(), col.end());
    return r;
}

} // namespace cl::model
