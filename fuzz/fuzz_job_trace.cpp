// The job-trace readers (Helios CSV, Philly JSON, Alibaba PAI CSV: parse_job_trace picks by the
// first character) and a replay of whatever they accept, as `clusterlens-cli fleet --trace` and
// Tools > Import Job Trace do: an error or a result, never a crash, and a result's shares within
// [0, 1] and finite.
#include "model/fleet.h"
#include "model/trace_formats.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cl::model;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto trace = parse_job_trace(text, 8);
    if (!trace.ok())
        return 0;
    for (const auto& j : trace->jobs)
        if (!(j.gpus >= 1) || !std::isfinite(j.submit_s) || !(j.duration_s > 0) ||
            !std::isfinite(j.duration_s) || j.cls < 0 ||
            static_cast<std::size_t>(j.cls) >= trace->classes.size() || !(j.gpu_share >= 0) ||
            j.gpu_share >= 1)
            std::abort();
    FleetSpec s;
    s.trace = std::make_shared<const FleetTrace>(std::move(trace).value());
    s.nodes = 4;
    s.gpus_per_node = 8;
    // As the CLI replays a trace: until its last submission (an hour to 100 years), no warm-up.
    s.horizon_days = std::clamp(s.trace->span_s / 86400, 1.0 / 24, 36500.0);
    s.warmup_days = 0;
    auto r = simulate_fleet(s);
    if (!r.ok())
        return 0;
    const double shares[] = {r->utilization, r->allocated_fraction, r->useful_fraction,
                             r->fragmentation_fraction};
    for (double x : shares)
        if (!std::isfinite(x) || x < -1e-9 || x > 1 + 1e-9)
            std::abort();
    return 0;
}
