#pragma once
// Public GPU cluster trace formats a fleet can replay (issue 23), besides the Helios reader
// declared in fleet.h.

#include "model/error.h"
#include "model/fleet.h"

#include <cstdint>
#include <string_view>

namespace cl::model {

/// The GPUs whole-GPU (traced) jobs can take on a cluster of `nodes` nodes of `gpus_per_node`:
/// those not on its MIG or time-sliced nodes (simulate_fleet's rule; the CLI and the GUI's
/// trace import use it for the span and the jobs left out).
std::int64_t fleet_whole_gpus(std::int64_t nodes, int gpus_per_node, std::int64_t mig_nodes,
                              std::int64_t timeslice_nodes);

/// The days a replay of `trace` covers on a cluster with `whole_gpus` GPUs for whole-GPU jobs
/// (not on MIG or time-sliced nodes): from 0 to the last submission of a job that fits, in
/// seconds; 0 when none fits. Larger jobs are left out of the replay (simulate_fleet counts them
/// in trace_jobs_too_large), so they must not stretch it (helper-32: one 512-GPU job stretched
/// 5 days to 15.5).
double trace_fitting_span_s(const FleetTrace& trace, std::int64_t whole_gpus);
/// The time a replay of `trace` runs by default: until every job that fits `whole_gpus` could
/// have ended as recorded (the latest submission + run time among them), so the last job runs
/// too (helper-34: a replay that stopped at the last submission never started that job), as
/// the Helios study's simulator runs until every job ends; plus a minute, the window being
/// half-open. 0 when none fits.
double trace_replay_horizon_s(const FleetTrace& trace, std::int64_t whole_gpus);
/// How many of `trace`'s jobs need more than `whole_gpus` GPUs.
std::int64_t trace_jobs_larger_than(const FleetTrace& trace, std::int64_t whole_gpus);

/// Reads Microsoft Philly's `cluster_job_log` (msr-fiddle/philly-traces README, "Schema":
/// a JSON list of jobs with `submitted_time`, `status` and `attempts`, each attempt with
/// `start_time`, `end_time` and `detail` [{ip, gpus}]; Jeon et al., ATC '19). A job's GPUs are
/// those of its first attempt (the trace's analysis notebook counts them so); its run time is
/// the sum of its attempts' run times, the GPU time it held, retries included. Jobs with no
/// attempt, no GPUs, or no recorded start or end (still running when the trace was taken) are
/// left out with a note; Killed and Failed jobs are replayed (they held GPUs) and counted in a
/// note. A malformed job is an error naming it by index and jobid. Classes by size as
/// parse_helios_trace's.
Result<FleetTrace> parse_philly_trace(std::string_view json, int gpus_per_node);

/// Reads Alibaba PAI's `pai_task_table` (alibaba/clusterdata cluster-trace-gpu-v2020 README,
/// "pai_task_table"; Weng et al., NSDI '22): CSV rows job_name, task_name, inst_num, status,
/// start_time, end_time, plan_cpu, plan_mem, plan_gpu, gpu_type, with or without that header
/// line (the trace ships it in a separate .header file). A job is its tasks together: GPUs =
/// the sum of inst_num x plan_gpu / 100 over its tasks, from its first task's launch to its last
/// task's end (the launch stands in for the submission, which is in another table). Jobs that
/// ask for part of one GPU keep that share (TraceJob::gpu_share); larger fractional totals are
/// rounded up to whole GPUs. CPU-only jobs, and jobs with a task still running or waiting, are
/// left out with a note; Failed jobs are replayed (they held GPUs). A malformed row is an error
/// naming its line. Classes: under one GPU, then by size as parse_helios_trace's.
Result<FleetTrace> parse_pai_trace(std::string_view csv, int gpus_per_node);

/// A trace in any of the formats, told apart by its start: '[' or '{' is Philly's JSON; a
/// first line of PAI's ten task-table columns (its header, or a row whose fourth cell is a
/// status) is PAI's; otherwise Helios's CSV (or ElasticFlow's, by its header).
Result<FleetTrace> parse_job_trace(std::string_view text, int gpus_per_node);

} // namespace cl::model
