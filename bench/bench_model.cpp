// Benchmarks of core/model. Targets from the issues: one full memory + roofline evaluation of
// Llama 3.1 405B < 5 us.
#include "model/catalog.h"
#include "model/memory.h"
#include "model/roofline.h"

#include <benchmark/benchmark.h>

using namespace cl::model;

namespace {
const Catalog& catalog() {
    static const Catalog c = Catalog::bundled().value();
    return c;
}
} // namespace

static void BM_MemoryAndRoofline_Llama405B(benchmark::State& state) {
    const ModelArch& m = *catalog().model("llama3.1-405b");
    const GpuSpec& g = *catalog().gpu("h100-sxm");
    TrainingSpec t;
    t.tp = 8;
    t.pp = 16;
    t.vpp = 2;
    t.global_batch = 2048;
    t.seq = 8192;
    t.schedule = "interleaved";
    RooflineInputs ri;
    ri.seq = 8192;
    ri.tp = 8;
    for (auto _ : state) {
        auto mem = training_memory(m, t, 16384, g);
        auto rl = roofline(m, g, ri);
        benchmark::DoNotOptimize(mem);
        benchmark::DoNotOptimize(rl);
    }
}
BENCHMARK(BM_MemoryAndRoofline_Llama405B);

static void BM_TrainingMemory_Llama405B(benchmark::State& state) {
    const ModelArch& m = *catalog().model("llama3.1-405b");
    const GpuSpec& g = *catalog().gpu("h100-sxm");
    TrainingSpec t;
    t.tp = 8;
    t.pp = 16;
    t.global_batch = 2048;
    t.seq = 8192;
    for (auto _ : state)
        benchmark::DoNotOptimize(training_memory(m, t, 16384, g));
}
BENCHMARK(BM_TrainingMemory_Llama405B);

static void BM_InferenceMemory_Llama70B(benchmark::State& state) {
    const ModelArch& m = *catalog().model("llama3-70b");
    const GpuSpec& g = *catalog().gpu("h200-sxm");
    InferenceSpec s;
    s.tp = 8;
    s.weights_dtype = "fp8";
    for (auto _ : state)
        benchmark::DoNotOptimize(inference_memory(m, s, g));
}
BENCHMARK(BM_InferenceMemory_Llama70B);

BENCHMARK_MAIN();
