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
    auto fit = calibrate(*run, CollectiveOp::allreduce, topo);
    if (!fit.ok())
        return 0;
    if (!std::isfinite(fit->error_before) || !std::isfinite(fit->error_after))
        std::abort();
    for (const auto& tf : fit->tiers)
        for (const auto& sf : tf.segments)
            if (!(sf.scales.alpha_scale > 0) || !(sf.scales.beta_scale > 0) ||
                !std::isfinite(sf.alpha_s) || !std::isfinite(sf.beta_Bps))
                std::abort();
    // The fitted model answers every size without NaN.
    for (double bytes : {8.0, 1e6, 1e9})
        if (auto r = collective_time(CollectiveOp::allreduce, bytes, topo, place_group(topo, 16, 1),
                                     CollectiveAlgo::automatic, fit->applied);
            r.ok() && !std::isfinite(r->time_s))
            std::abort();
    return 0;
}
