// A user catalog file (merged over the bundled catalog on start): every array, and since
// session 44 each GPU's measured all-reduce tables, which the serving model interpolates.
#include "model/catalog.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const cl::model::Catalog bundled = [] {
        auto r = cl::model::Catalog::bundled();
        return r ? std::move(r).value() : cl::model::Catalog{};
    }();
    cl::model::Catalog c = bundled;
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (!c.merge(text, "fuzz.json", true).empty())
        return 0;
    // Every accepted table times every size with a positive, finite time.
    for (const cl::model::GpuSpec& g : c.gpus())
        for (const cl::model::EngineAllReduce& a : g.engine_allreduce)
            for (const double b : {0.0, 1.0, 4096.0, 1e7, 1e12}) {
                const double t = cl::model::engine_allreduce_seconds(a, b);
                if (!std::isfinite(t) || t <= 0)
                    __builtin_trap();
            }
    return 0;
}
