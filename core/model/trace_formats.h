#pragma once
// Public GPU cluster trace formats a fleet can replay (issue 23), besides the Helios reader
// declared in fleet.h.

#include "model/error.h"
#include "model/fleet.h"

#include <string_view>

namespace cl::model {

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

/// A trace in either format, told apart by its first character ('[' or '{': Philly's JSON,
/// otherwise Helios's CSV).
Result<FleetTrace> parse_job_trace(std::string_view text, int gpus_per_node);

} // namespace cl::model
