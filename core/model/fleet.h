#pragma once
// Many jobs on one cluster (issue 23): a discrete-event simulation of a job mix arriving at a
// cluster of nodes of whole GPUs, scheduled by the policies clusters run (FIFO, priority,
// backfill), with gang admission (all of a job's GPUs at once) and topology-aware placement
// (a job that fits in one node gets one node; a larger job gets whole nodes). Deterministic for
// a seed. Known answers: one class of one-node jobs with Poisson arrivals and exponential
// durations is an M/M/c queue (Erlang C, erlang_c_wait); Little's law holds on every run.
// docs/fleet.md.

#include "model/choices.h"
#include "model/error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cl::model {

std::string_view fleet_policy_name(FleetPolicy p);
std::optional<FleetPolicy> fleet_policy_from_name(std::string_view name);

/// One class of jobs: Poisson arrivals, exponential durations, a fixed size in whole GPUs.
struct FleetClass {
    std::string name = "jobs";
    int gpus_per_job = 8;
    double arrival_rate_per_hour = 1;
    double mean_duration_h = 1;
    int priority = 0; ///< higher runs first under FleetPolicy::priority and ::preemptive
    /// Under FleetPolicy::preemptive a job of this class may be evicted for a higher priority:
    /// it loses the work since its last checkpoint, then waits again and restarts (restart_s).
    bool preemptible = false;
    double checkpoint_interval_h = 0; ///< 0 = none: an evicted job starts over
    /// A daily and weekly curve (non-homogeneous Poisson arrivals): the rate is
    /// mean x (1 + daily_swing cos(2 pi (hour - peak_hour) / 24)) x (weekend_factor on Saturday
    /// and Sunday) / ((5 + 2 weekend_factor) / 7), so its mean over a week is
    /// arrival_rate_per_hour. Flat (0, 1): plain Poisson arrivals.
    double daily_swing = 0;
    double weekend_factor = 1;
    /// Each job takes one MIG instance on the spec's MIG nodes (FleetSpec::mig_nodes) instead
    /// of whole GPUs (gpus_per_job is not used): a Kubernetes pod asking for one
    /// nvidia.com/mig-<profile> (NVIDIA k8s-device-plugin, mixed strategy). Its duration is its
    /// run time on that instance.
    bool mig = false;
    /// Each job takes one time-sliced replica of a GPU on the spec's time-sliced nodes
    /// (FleetSpec::timeslice_nodes; gpus_per_job is not used): a Kubernetes pod asking for one
    /// nvidia.com/gpu where NVIDIA's device plugin advertises each GPU as `replicas` of them
    /// (sharing.timeSlicing). Its duration is its run time with the GPU to itself.
    bool time_sliced = false;
    /// The share of its run a time-sliced job keeps a GPU busy when it has the GPU to itself
    /// (nvidia-smi's utilization, or DCGM's graphics-engine activity, of such a job), in (0, 1].
    /// On a GPU whose jobs' shares sum to D every job there runs at 1 / max(1, D) of its speed
    /// alone (the GPU's time slices shared among the busy contexts; a fluid model).
    double gpu_busy = 1;
    /// The GPU memory a time-sliced job holds while it runs (its process's allocation, what
    /// nvidia-smi lists for it), in bytes; 0 = not stated (placed by replicas alone, as if
    /// every job fit). Time-slicing gives no memory isolation (NVIDIA GPU Operator docs,
    /// "Time-Slicing GPUs in Kubernetes"): jobs share one GPU only while their memory together
    /// fits in it (FleetSpec::gpu_memory_bytes), so a job waits when no GPU with a free replica
    /// has room for it. Not used for whole-GPU or MIG jobs.
    double gpu_memory_bytes = 0;
    /// The team's quota: the most GPUs (MIG classes: instances) this class's jobs hold at once;
    /// 0 = none. A job that would go over it waits, and holds up only its own class: a Kueue
    /// ClusterQueue's nominal quota without borrowing, one ClusterQueue per team (Kueue docs,
    /// concepts/cluster_queue: "nominalQuota", StrictFIFO queueing within a ClusterQueue).
    int quota_gpus = 0;
    /// With quota_borrowing: the most GPUs (MIG: instances) the class holds with what it
    /// borrows, its quota included; 0 = no cap. Kueue's borrowingLimit is this minus the quota
    /// (kueue.sigs.k8s.io docs, concepts/cluster_queue "BorrowingLimit"); at the quota itself
    /// the class borrows nothing.
    int borrow_cap_gpus = 0;
    /// Where the class comes from in a design ("fleet.finetune"), for refusals to name the
    /// key people edit; empty: "classes[i]".
    std::string path = {};
    /// With quota_borrowing: the part of its quota the class never lends to the cohort; 0 =
    /// it lends all it leaves unused. Kueue's lendingLimit is the quota minus this
    /// (concepts/cluster_queue "LendingLimit").
    int keep_gpus = 0;
    /// How much longer a run takes when it is split over more leaf switches than its nodes need
    /// (its traffic then crosses the leaf uplinks and the spine): the run's time after its
    /// restart is stretched by this. 1 = no effect (one-node jobs, typed durations). From the
    /// training model when the class takes its duration from a training workload
    /// (fleet_split_slowdown).
    double split_slowdown = 1;
    /// Where mean_duration_h comes from when not typed ("the training model: <workload> on 16
    /// GPUs"), carried into the result for people; empty when typed.
    std::string duration_source = {};
};

/// One job of a recorded trace: when it was submitted, how long it ran, on how many GPUs.
struct TraceJob {
    double submit_s = 0;   ///< from the trace's first submission
    double duration_s = 0; ///< as it ran on the traced cluster
    int gpus = 1;
    int cls = 0; ///< index into FleetTrace::classes
    /// A request for part of one GPU (Alibaba PAI's plan_gpu under 100%: 0.5 = half a GPU);
    /// 0 = whole GPUs. Replayed on a time-sliced replica with this busy share when the cluster
    /// has time-sliced nodes, else on a whole GPU.
    double gpu_share = 0;
    bool operator==(const TraceJob&) const = default;
};

/// A job trace read from a file (parse_helios_trace): its jobs in submission order, its classes
/// (by size, as trace studies report them), and what was left out and why.
struct FleetTrace {
    std::vector<TraceJob> jobs;
    std::vector<std::string> classes;
    std::vector<std::string> notes; ///< rows left out, with counts and the first line of each
    double span_s = 0;              ///< last submission - first submission
};

/// Reads the SenseTime Helios trace format (HeliosData `cluster_log.csv`: a header naming
/// job_id, gpu_num, submit_time "YYYY-MM-DD HH:MM:SS", and duration in seconds or start_time and
/// end_time; Hu et al., SC '21). Jobs without GPUs (CPU jobs) and rows with no run time are left
/// out with a note; a malformed row is an error naming its line. Classes by size: one GPU, up to
/// `gpus_per_node`, more than a node. Cell order follows the header; other columns are ignored.
/// Also reads the ElasticFlow raw traces of Microsoft's ITP clusters (microsoft/elasticflow-traces
/// README, "Schema for raw-traces": job_id, submission_time in seconds from the collection's
/// start, duration in seconds, num_gpu; Gu et al., ASPLOS '23), told apart by their header.
Result<FleetTrace> parse_helios_trace(std::string_view csv, int gpus_per_node);

struct FleetSpec {
    std::vector<FleetClass> classes;
    /// A recorded trace to replay instead of the classes' random arrivals (its own classes and
    /// durations; jobs larger than the cluster are left out, counted in trace_jobs_too_large).
    std::shared_ptr<const FleetTrace> trace;
    int nodes = 1;
    int gpus_per_node = 8;
    FleetPolicy policy = FleetPolicy::fifo;
    double peak_hour = 14; ///< of the classes' daily curves; day 0 starts on a Monday at 0:00
    /// A job of at most one node's GPUs gets them in one node; a larger job gets whole nodes.
    /// Off: any free GPUs anywhere.
    bool topology_aware = true;
    /// Nodes under one leaf switch (on a rail-optimised fabric: one rail group, the nodes whose
    /// NICs share a set of leaves), numbered leaf by leaf; 0 = every node under one leaf.
    /// Topology-aware placement puts a multi-node job under as few leaves as it can.
    int nodes_per_leaf = 0;
    /// A multi-node job no larger than a leaf waits until one leaf has its nodes free instead
    /// of starting split over leaves (Kueue topology-aware scheduling: "required" vs
    /// "preferred"; kueue.sigs.k8s.io docs, concepts/topology_aware_scheduling).
    bool leaf_required = false;
    /// The classes with a quota form one cohort (Kueue: ClusterQueues in a cohort;
    /// kueue.sigs.k8s.io docs, concepts/cluster_queue "Cohort"): a class over its quota may
    /// start a job on what the others' quotas leave unused -- up to its borrowing cap
    /// (FleetClass::borrow_cap_gpus), and not on the part of a quota its team keeps
    /// (FleetClass::keep_gpus): the cohort's pool is every quota less what its team keeps, and
    /// a class's GPUs beyond what it keeps draw on the pool. Under the preemptive policy a class
    /// within its quota gets lent GPUs back by evicting borrowers' preemptible jobs, whatever their
    /// priority (Kueue reclaimWithinCohort: Any). Whole GPUs and MIG instances are lent only in
    /// kind (one cohort per pool). Off: each quota is a hard cap.
    bool quota_borrowing = false;
    double horizon_days = 30;
    double warmup_days = 3; ///< excluded from every statistic (the queue starts empty)
    std::uint64_t seed = 1;
    /// Bursting (issue 23): a job that has waited this long runs in the cloud instead (its
    /// GPU-hours billed at burst_usd_per_gpu_hour); 0 = never burst.
    double burst_after_s = 0;
    double burst_usd_per_gpu_hour = 0;
    /// Bursting to spot capacity: each node a burst job runs on is preempted at some rate, and
    /// each preemption stops the whole gang and loses the work since its last checkpoint plus
    /// a restart. This is that rate per node-hour times the hours lost per preemption; a job
    /// on n nodes redoes n x this of its run time (the TCO's spot overhead, tco.cpp
    /// cloud_option). 0 = on-demand (never preempted).
    double burst_redo_per_node = 0;
    /// A price per GPU-hour of the cluster (the amortized on-prem rate) for the cost per useful
    /// GPU-hour; 0 = not priced.
    double usd_per_gpu_hour = 0;
    /// Time an evicted job spends restarting (loading its checkpoint, rebuilding its
    /// communicators) before it does new work: GPU time lost to the preemption.
    double restart_s = 600;
    /// Node failures (issue 23): each node fails at this rate while it is up (Poisson, the
    /// reliability model's per-node rate; 0 = none) and is out for repair_h. A job on a failed
    /// node loses the work since its last checkpoint (its class's checkpoint interval), goes back
    /// to the front of its queue and restarts (restart_s) on the GPUs that are up.
    double node_failures_per_hour = 0;
    double repair_h = 24;
    /// MIG (issue 23): the last `mig_nodes` nodes have every GPU partitioned into
    /// `mig_instances_per_gpu` equal instances (mig-parted's all-<profile> configs: 7 x 1g, 3 x
    /// 2g, 2 x 3g; docs/research/mig-profiles.md). Classes with `mig` run there, one instance per
    /// job; the other classes on the other nodes. An instance's busy time counts as
    /// 1 / mig_instances_per_gpu of a GPU's.
    int mig_nodes = 0;
    int mig_instances_per_gpu = 7;
    MigProfile mig_partition = MigProfile::g1; ///< the profile those instances are
    std::string mig_profile; ///< its name for people ("1g.10gb"), carried into the result
    /// Time-slicing (issue 23): the `timeslice_nodes` nodes before the MIG nodes have every GPU
    /// advertised as `timeslice_replicas` replicas (NVIDIA k8s-device-plugin
    /// sharing.timeSlicing.resources[].replicas; the GPU Operator docs' example is 4). Classes
    /// with `time_sliced` run there, one replica per job, placed on the GPU with the fewest jobs
    /// (the device plugin spreads replicas over GPUs best-effort); the other classes elsewhere.
    int timeslice_nodes = 0;
    int timeslice_replicas = 4;
    /// The share of a time-sliced GPU's throughput left for its jobs while it switches between
    /// two or more of them that want it at once, the rest going to the switches. It switches
    /// the share of the time two or more of its jobs are active (each active its busy share
    /// d of the time, independently), so jobs that seldom overlap lose little and jobs busy all
    /// the time get at most this much of it together. NVIDIA measured two models consolidated
    /// on one A100 under heavy load serving 0.76 requests/s per GPU time-sliced against 1.00
    /// with MIG, and time-sliced tasks completing faster than MIG's under light load ("Maximize
    /// AI Infrastructure Throughput by Consolidating Underutilized GPU Workloads", NVIDIA
    /// Technical Blog, March 2026); MIG is not free of loss itself, so 0.76 is at most the
    /// switching efficiency. 1 = switching costs nothing.
    double timeslice_efficiency = kTimesliceEfficiencyDefault;
    /// One GPU's memory (the catalog's capacity), for the time-sliced jobs' memory
    /// (FleetClass::gpu_memory_bytes); 0 = unknown (a class stating its memory is refused).
    double gpu_memory_bytes = 0;
    std::string gpu_name; ///< the GPU's name for refusals ("H100 SXM"); empty: "one GPU"
};

/// The cluster at one moment of the run: for the utilization-over-time chart.
struct FleetSample {
    double t_s = 0;
    double busy_gpus = 0;
    double waiting_jobs = 0;
};

/// A job seen on the allocation timeline: where and when it ran.
struct FleetAllocJob {
    int cls = 0;                   ///< index into FleetResult::classes
    int gpus = 0;                  ///< GPUs (MIG classes: instances) it held
    bool mig = false;              ///< on MIG instances
    bool time_sliced = false;      ///< on a time-sliced replica (one GPU shared)
    double start_s = 0, end_s = 0; ///< this run (a restarted job is a new run)
    bool running_at_end = false;   ///< still running when the horizon ended (end_s = horizon)
    std::vector<std::pair<int, int>> nodes; ///< (cluster node, GPUs or instances on it)
    int leaves = 0; ///< leaf switches over those nodes (FleetResult::nodes_per_leaf per leaf)
};

/// Which job held each of a sample of nodes at each timeline sample: the allocation timeline
/// (issue 23). Up to 64 nodes, evenly spread over the cluster (every node when it has fewer).
struct FleetAllocation {
    std::vector<int> node_rows; ///< the cluster node each row shows
    int columns = 0;            ///< = FleetResult::timeline.size()
    /// rows x columns, row-major: an index into jobs (the job holding most of the node's GPUs
    /// at that sample), kIdle or kDown.
    std::vector<int> cell;
    /// rows x columns, as `cell`: the share of the node's GPUs (its time-sliced GPUs' replicas,
    /// its MIG instances) that jobs held at that sample, 0 to 1 (a node half used is not shown
    /// as full: helper-31).
    std::vector<float> held;
    std::vector<FleetAllocJob> jobs;
    static constexpr int kIdle = -1, kDown = -2;
    [[nodiscard]] int at(std::size_t row, std::size_t col) const {
        return cell[row * static_cast<std::size_t>(columns) + col];
    }
    [[nodiscard]] double held_at(std::size_t row, std::size_t col) const {
        const std::size_t i = row * static_cast<std::size_t>(columns) + col;
        return i < held.size() ? static_cast<double>(held[i]) : (cell[i] >= 0 ? 1.0 : 0.0);
    }
};

struct FleetClassResult {
    std::string name;
    double wait_mean_s = 0, wait_p50_s = 0, wait_p95_s = 0;
    /// Jobs the waits are over (arrived in the window and started or burst): 0 = no wait to
    /// report, not waits of 0 s (every job of the class may still be queued).
    std::int64_t waits_counted = 0;
    std::int64_t jobs_completed = 0;
    std::int64_t jobs_started = 0;
    /// A replayed trace: this class's jobs larger than the whole-GPU nodes, left out of the
    /// replay (their share of FleetResult::trace_jobs_too_large).
    std::int64_t jobs_too_large = 0;
    std::int64_t preemptions = 0;   ///< evictions of this class's jobs in the window
    std::int64_t interruptions = 0; ///< its jobs stopped by a node failure in the window
    /// Time-average GPUs (MIG classes: instances) its jobs held in the window, and the share
    /// of the window it was at its quota (0 without a quota).
    double mean_held = 0, at_quota_fraction = 0;
    /// Time-average GPUs it held above its quota, borrowed from the cohort (quota_borrowing).
    double mean_borrowed = 0;
    /// Its jobs evicted to give a lent quota back (counted in preemptions too).
    std::int64_t reclaimed = 0;
    int quota = 0;               ///< FleetClass::quota_gpus (0: none)
    int borrow_cap = 0;          ///< FleetClass::borrow_cap_gpus (0: none)
    int keep = 0;                ///< FleetClass::keep_gpus
    double mean_duration_h = 0;  ///< FleetClass::mean_duration_h (random classes)
    double split_slowdown = 1;   ///< FleetClass::split_slowdown
    std::string duration_source; ///< FleetClass::duration_source
    /// Time-sliced classes: the mean wall time of its runs that completed in the window, and
    /// that over their time with the GPU to themselves (1: never slowed by sharing).
    double mean_run_s = 0, slowdown = 0;
    bool time_sliced = false;
    /// Time-sliced classes: FleetClass::gpu_memory_bytes (0: not stated), and how many of its
    /// jobs one GPU holds at most: the replicas, or fewer when their memory does not fit.
    double gpu_memory_bytes = 0;
    int jobs_per_gpu_at_most = 0;
};

/// Statistics over the measured window (after the warm-up, up to the horizon).
struct FleetResult {
    double utilization = 0; ///< busy GPU-hours / available GPU-hours
    /// GPUs held by jobs (whole GPUs and MIG: = utilization; a time-sliced GPU with any job
    /// counts whole, busy or not)
    double allocated_fraction = 0;
    double wait_mean_s = 0, wait_p50_s = 0, wait_p95_s = 0; ///< jobs started in the window
    /// 95 % half-widths of utilization and the mean wait by batch means over ten equal
    /// stretches of the window: how far another run of this length might land (0: too few
    /// batches with jobs to say). Runs are correlated stretch to stretch, so a narrow
    /// interval on a short run is optimistic.
    double utilization_ci95 = 0, wait_mean_ci95_s = 0;
    std::int64_t waits_counted = 0; ///< jobs those waits are over (0: none started)
    std::int64_t jobs_completed = 0, jobs_started = 0, jobs_arrived = 0;
    double gpu_hours_available = 0, gpu_hours_used = 0;
    /// The GPU-hours of the window summed job by job (GPUs x the part of its run inside the
    /// window, jobs started before the window included): equals gpu_hours_used less
    /// gpu_hours_switching (conservation).
    double gpu_hours_by_jobs = 0;
    /// Under FleetPolicy::preemptive: the work evicted jobs lose since their last checkpoint
    /// plus their restart, counted when evicted in the window.
    double gpu_hours_lost_preemption = 0;
    std::int64_t preemptions = 0; ///< evictions in the window
    /// The work jobs lose to node failures since their last checkpoint plus their restart,
    /// counted when it happens in the window.
    double gpu_hours_lost_failures = 0;
    std::int64_t node_failures = 0; ///< nodes that failed in the window
    std::int64_t interruptions = 0; ///< jobs stopped by those failures
    double gpu_hours_down = 0;      ///< GPU-hours of nodes out for repair in the window
    double down_fraction = 0;       ///< gpu_hours_down / gpu_hours_available
    /// Busy GPU-hours less what preemption and failures lost (restarts and redone work) and
    /// what time-sliced GPUs spent switching between jobs, over the available GPU-hours: the
    /// share of the cluster that did useful work.
    double useful_fraction = 0;
    /// GPU-hours idle while a job waited that did not fit (fragmentation), / available.
    double fragmentation_fraction = 0;
    /// Whole-GPU hours idle while a waiting job could have started there but the policy (a
    /// FIFO or priority head that does not fit) or its quota held it back, / available.
    double held_back_fraction = 0;
    double burst_gpu_hours = 0;  ///< GPU-hours of the jobs that ran in the cloud instead
    std::int64_t jobs_burst = 0; ///< jobs (arrived in the window) that burst
    double burst_usd = 0;        ///< their cloud bill
    /// That bill at the same rate over the TCO's months (evaluate: burst_usd x the horizon's
    /// hours / the measured window's); 0 when not priced or no TCO.
    double burst_usd_tco_months = 0;
    /// Of burst_gpu_hours: work redone after spot preemptions (0 on on-demand capacity).
    double burst_gpu_hours_redone = 0;
    /// The price the bursts were billed at per GPU-hour (the design's: the offer's on-demand or
    /// spot rate); 0 with `burst_unpriced` saying why when there is none.
    double burst_usd_per_gpu_hour = 0;
    std::string burst_unpriced;
    bool burst_on_spot = false; ///< the bursts ran on spot capacity (FleetSpec::burst_redo...)
    /// The design's imported trace, when it replayed one instead of its classes: the file's
    /// name and its jobs (those larger than the cluster are in trace_jobs_too_large).
    std::string trace_name;
    std::int64_t trace_jobs = 0;
    /// Cluster cost over the window / useful GPU-hours (when priced).
    double useful_gpu_hour_usd = 0;
    /// Little's law on the queue: time-average number waiting, and arrival rate x mean wait of
    /// the jobs that arrived in the window (they agree over a long window).
    double mean_queue_length = 0, little_queue_length = 0;
    std::vector<FleetClassResult> classes;
    std::int64_t events = 0;
    /// The run sampled at 240 even times from 0 to the horizon (warm-up included, marked by
    /// warmup_s), for charts.
    std::vector<FleetSample> timeline;
    FleetAllocation allocation; ///< sampled at the timeline's times
    double warmup_s = 0;
    std::int64_t trace_jobs_too_large = 0; ///< trace jobs larger than the cluster, left out
    /// Runs on more than one node of jobs that arrived in the window (restarts included), the leaf
    /// switches they spanned in all, and those spread over more leaves than their node count
    /// needs (a free leaf was not there for them: fragmentation of the fabric).
    std::int64_t multi_node_runs = 0, multi_node_runs_split = 0, multi_node_leaves_sum = 0;
    int nodes_per_leaf = 0; ///< as simulated (FleetSpec::nodes_per_leaf, or every node)
    /// GPU-hours in the window that split runs took beyond what the same work takes under the
    /// fewest leaf switches (FleetClass::split_slowdown): the fabric's cost of fragmentation.
    double split_gpu_hours = 0;
    /// Leaf switches per multi-node run on average (0 without such runs).
    [[nodiscard]] double mean_leaves_per_multi_node_run() const {
        return multi_node_runs > 0 ? static_cast<double>(multi_node_leaves_sum) /
                                         static_cast<double>(multi_node_runs)
                                   : 0.0;
    }
    /// Jobs still queued when the horizon ends: their waits are in no wait statistic (only
    /// jobs that started are), so a blocked queue shows here, not as a long wait.
    std::int64_t jobs_waiting_at_end = 0;
    double longest_wait_at_end_s = 0; ///< the oldest of them, waiting so far
    std::int64_t mig_instances = 0;   ///< MIG instances on the MIG nodes (0: no MIG)
    int mig_nodes = 0, mig_instances_per_gpu = 0;
    std::string mig_profile; ///< FleetSpec::mig_profile
    /// Busy instance-hours / available instance-hours of the MIG nodes (0 without MIG).
    double mig_utilization = 0;
    /// Time-slicing: the time-sliced nodes, their GPUs' replicas; the busy share of their GPUs
    /// (sum over GPUs of min(1, D)) and the share holding at least one job (allocated), over
    /// their GPU-hours; jobs per GPU holding any, on average over time.
    int timeslice_nodes = 0, timeslice_replicas = 0;
    std::int64_t timeslice_gpus = 0;
    double timeslice_utilization = 0, timeslice_allocated = 0, timeslice_jobs_per_gpu = 0;
    double timeslice_gpu_memory_bytes = 0; ///< FleetSpec::gpu_memory_bytes
    double timeslice_efficiency = 0;       ///< FleetSpec::timeslice_efficiency
    /// GPU-hours time-sliced GPUs spent switching between their jobs' contexts in the window
    /// (busy, but no job's work): gpu_hours_by_jobs + this = gpu_hours_used.
    double gpu_hours_switching = 0;
};

/// The share of a time-sliced GPU's time that goes to switching between `jobs` jobs each active
/// `busy_share` of the time (independently): (1 - efficiency) x P(two or more active)
/// (FleetSpec::timeslice_efficiency). They are never slowed while jobs x busy_share + this <= 1.
double timeslice_switching(int jobs, double busy_share, double efficiency);

/// MIG instances per GPU when every GPU is partitioned into `p` (NVIDIA mig-parted
/// config-default.yaml all-1g.10gb / all-2g.20gb / all-3g.40gb on A100 80GB and H100: 7, 3, 2;
/// docs/research/mig-profiles.md).
int mig_instances_per_gpu(MigProfile p);
/// The profile's name on a GPU of `memory_bytes`: compute slices "g" and the memory of its
/// memory slices (1, 2 or 4 of 8) in whole GB: "1g.10gb" on an 80 GB H100, "1g.18gb" on H200
/// (the names in NVIDIA's MIG user guide, "Supported MIG Profiles").
std::string mig_profile_name(MigProfile p, double memory_bytes);
/// Whether a catalog GPU has MIG: A100, H100, H200, B200 and GB200 (NVIDIA MIG user guide,
/// "Supported GPUs"; L40S, L4, A10G, GeForce and AMD GPUs have none).
bool gpu_has_mig(std::string_view gpu_id);

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
