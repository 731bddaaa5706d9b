#pragma once
// Many jobs on one cluster (issue 23): a discrete-event simulation of a job mix arriving at a
// cluster of nodes of whole GPUs, scheduled by the policies clusters run (FIFO, priority,
// backfill), with gang admission (all of a job's GPUs at once) and topology-aware placement
// (a job that fits in one node gets one node; a larger job gets whole nodes). Deterministic for
// a seed. Known answers: one class of one-node jobs with Poisson arrivals and exponential
// durations is an M/M/c queue (Erlang C, erlang_c_wait); Little's law holds on every run.
// docs/fleet.md.

#include "model/error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cl::model {

enum class FleetPolicy {
    fifo,     ///< first come, first served; the head of the queue blocks those behind it
    priority, ///< highest priority first (then arrival), head of line blocks
    backfill  ///< FIFO order, but a later job that fits now starts (first fit, no reservation)
};
std::string_view fleet_policy_name(FleetPolicy p);
std::optional<FleetPolicy> fleet_policy_from_name(std::string_view name);

/// One class of jobs: Poisson arrivals, exponential durations, a fixed size in whole GPUs.
struct FleetClass {
    std::string name = "jobs";
    int gpus_per_job = 8;
    double arrival_rate_per_hour = 1;
    double mean_duration_h = 1;
    int priority = 0; ///< higher runs first under FleetPolicy::priority
};

struct FleetSpec {
    std::vector<FleetClass> classes;
    int nodes = 1;
    int gpus_per_node = 8;
    FleetPolicy policy = FleetPolicy::fifo;
    /// A job of at most one node's GPUs gets them in one node; a larger job gets whole nodes.
    /// Off: any free GPUs anywhere.
    bool topology_aware = true;
    double horizon_days = 30;
    double warmup_days = 3; ///< excluded from every statistic (the queue starts empty)
    std::uint64_t seed = 1;
    /// A price per GPU-hour of the cluster (the amortized on-prem rate) for the cost per useful
    /// GPU-hour; 0 = not priced.
    double usd_per_gpu_hour = 0;
};

struct FleetClassResult {
    std::string name;
    double wait_mean_s = 0, wait_p50_s = 0, wait_p95_s = 0;
    std::int64_t jobs_completed = 0;
    std::int64_t jobs_started = 0;
};

/// Statistics over the measured window (after the warm-up, up to the horizon).
struct FleetResult {
    double utilization = 0;        ///< busy GPU-hours / available GPU-hours
    double allocated_fraction = 0; ///< GPUs held by jobs (whole-GPU jobs: = utilization)
    double wait_mean_s = 0, wait_p50_s = 0, wait_p95_s = 0; ///< jobs started in the window
    std::int64_t jobs_completed = 0, jobs_started = 0, jobs_arrived = 0;
    double gpu_hours_available = 0, gpu_hours_used = 0;
    /// The GPU-hours of the window summed job by job (GPUs x the part of its run inside the
    /// window, jobs started before the window included): equals gpu_hours_used (conservation).
    double gpu_hours_by_jobs = 0;
    double gpu_hours_lost_preemption = 0; ///< no policy here preempts: 0
    double gpu_hours_lost_failures = 0;   ///< failures are not simulated yet: 0
    /// GPU-hours idle while a job waited that did not fit (fragmentation), / available.
    double fragmentation_fraction = 0;
    double burst_gpu_hours = 0; ///< no bursting yet: 0
    /// Cluster cost over the window / busy GPU-hours (when priced).
    double useful_gpu_hour_usd = 0;
    /// Little's law on the queue: time-average number waiting, and arrival rate x mean wait of
    /// the jobs that arrived in the window (they agree over a long window).
    double mean_queue_length = 0, little_queue_length = 0;
    std::vector<FleetClassResult> classes;
    std::int64_t events = 0;
};

/// Simulates `s`. Refuses (with the field) sizes larger than the cluster, rates and durations
/// that are not positive and finite, and runs too long to simulate (more than 50 million
/// expected arrivals).
Result<FleetResult> simulate_fleet(const FleetSpec& s);

/// Erlang C (Kleinrock 1975 vol. 1 eq. 3.42): the probability that an arrival waits in an
/// M/M/c queue with offered load a = lambda / mu Erlangs on c servers; 1 when a >= c.
double erlang_c(int c, double a);
/// Mean wait in queue of M/M/c: C(c, a) / (c mu - lambda); infinity when lambda >= c mu.
double erlang_c_wait(int c, double lambda, double mu);

} // namespace cl::model
