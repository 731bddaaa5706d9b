// The design loader and the model behind it: any bytes in, a design or errors with paths out,
// and every loaded design evaluated (topology, memory, step time, inference, reliability, TCO,
// findings) and written back -- never a crash, a hang or a sanitizer report. Evaluating is what
// finds the model's own hazards (issue 17: a missing network, non-finite results, scale).
#include "model/catalog.h"
#include "model/design.h"
#include "model/evaluate.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const cl::model::Catalog catalog = cl::model::Catalog::bundled().value();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto d = cl::model::design_from_json(text, "fuzz", &catalog);
    if (!d.ok())
        return 0;
    // Keep each input fast: a huge cluster is valid but evaluating it is the scale benchmark's
    // job, not the fuzzer's.
    if (d->devices.size() > 200 || d->links.size() > 200 || d->workloads.size() > 8)
        return 0;
    const cl::model::Evaluation ev = cl::model::evaluate(*d, catalog);
    for (const auto& w : ev.workloads) {
        // A result is a finite number or absent with a reason, never NaN or infinite.
        if (w.training && !std::isfinite(w.training->step_time_s))
            std::abort();
        if (w.reliability && !std::isfinite(w.reliability->goodput))
            std::abort();
        if (w.inference && !std::isfinite(w.inference->ttft_s))
            std::abort();
    }
    // A loaded design must save and load back.
    if (!cl::model::design_from_json(cl::model::design_to_json(*d), "again", &catalog).ok())
        std::abort();
    return 0;
}
