// The nccl-tests output parser and the calibration fit on whatever it accepts: fitted on an
// 8-GPU NVLink domain and on a 16-node fabric, as Tools > Import nccl-tests Output does. The
// fit returns finite values or an error, never a crash.
#include "model/catalog.h"
#include "model/collective.h"
#include "model/topology.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cl::model;
    static const Catalog catalog = Catalog::bundled().value();
    static const Topology topo = [] {
        ClusterShape shape;
        shape.gpus = 128;
        return shape_topology(*catalog.gpu("h100-sxm"), shape, catalog).value();
    }();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto run = parse_nccl_tests(text);
    if (!run.ok())
        return 0;
    for (const int ranks : {8, 128}) {
        const int n = run->ranks > 0 ? run->ranks : ranks;
        if (n < 2 || n > 1 << 20)
            continue;
        auto fit = calibrate(*run, CollectiveOp::allreduce, topo, place_group(topo, n, 1));
        if (fit.ok() && (!std::isfinite(fit->tier.alpha_s) || !std::isfinite(fit->tier.beta_Bps) ||
                         !std::isfinite(fit->error_before) || !std::isfinite(fit->error_after)))
            std::abort();
    }
    return 0;
}
