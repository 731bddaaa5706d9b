// Benchmarks of core/model. Targets from the issues: one full memory + roofline evaluation of
// Llama 3.1 405B < 5 us.
#include "model/bundled.h"
#include "model/catalog.h"
#include "model/collective.h"
#include "model/design.h"
#include "model/evaluate.h"
#include "model/fleet.h"
#include "model/inference.h"
#include "model/memory.h"
#include "model/reliability.h"
#include "model/roofline.h"
#include "model/search.h"
#include "model/tco.h"
#include "model/topology.h"

#include "generated_designs.h"

#include <benchmark/benchmark.h>

using namespace cl::model;

namespace {
const Catalog& catalog() {
    static const Catalog c = Catalog::bundled().value();
    return c;
}
/// The largest bundled preset (16,384 GPUs), loaded once.
const Design& preset_16k() {
    static const Design d =
        design_from_json(bundled_file("presets/llama3-16k-h100.json"), "p", &catalog()).value();
    return d;
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
    t.schedule = cl::model::Schedule::interleaved;
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
    s.weights_dtype = cl::model::WeightsDtype::fp8;
    for (auto _ : state)
        benchmark::DoNotOptimize(inference_memory(m, s, g));
}
BENCHMARK(BM_InferenceMemory_Llama70B);

// Target (#5): topology analysis of the 16,384-GPU preset < 1 ms.
static void BM_TopologyAnalysis_Llama3_16k(benchmark::State& state) {
    const Design& d = preset_16k();
    for (auto _ : state)
        benchmark::DoNotOptimize(analyze_topology(d, catalog()));
}
BENCHMARK(BM_TopologyAnalysis_Llama3_16k);

// Target (#5): one collective estimate < 1 us.
static void BM_CollectiveAllreduce_2048Nodes(benchmark::State& state) {
    const Design& d = preset_16k();
    const Topology t = analyze_topology(d, catalog());
    const GroupPlacement p = place_group(t, 2048, 8);
    double bytes = 1e9;
    for (auto _ : state) {
        auto r = collective_time(CollectiveOp::allreduce, bytes, t, p, CollectiveAlgo::automatic);
        benchmark::DoNotOptimize(r);
    }
}
BENCHMARK(BM_CollectiveAllreduce_2048Nodes);

// Target (#6): the full search for Llama 3.1 405B on 16,384 H100; reports layouts per second.
static void BM_Search_Llama405B_16k(benchmark::State& state) {
    const Design& d = preset_16k();
    const Topology t = analyze_topology(d, catalog());
    TrainingSpec base;
    base.global_batch = 2048;
    base.seq = 8192;
    std::int64_t layouts = 0;
    for (auto _ : state) {
        auto r = search_layouts(*catalog().model("llama3.1-405b"), base, 16384,
                                *catalog().gpu("h100-sxm"), t, {}, {});
        layouts += r->evaluated;
        benchmark::DoNotOptimize(r);
    }
    state.counters["layouts_per_s"] =
        benchmark::Counter(static_cast<double>(layouts), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Search_Llama405B_16k)->Unit(benchmark::kMillisecond)->Iterations(1);

// One training step estimate (Llama 3 70B, TP 8 on the 2-node preset).
static void BM_TrainStep_Llama70B(benchmark::State& state) {
    const auto d =
        design_from_json(bundled_file("presets/h100-ndr-2node.json"), "p", &catalog()).value();
    const Topology t = analyze_topology(d, catalog());
    TrainingSpec s;
    s.tp = 8;
    s.global_batch = 128;
    s.seq = 8192;
    s.micro_batch = 1;
    for (auto _ : state)
        benchmark::DoNotOptimize(
            train_step(*catalog().model("llama3-70b"), s, 16, *catalog().gpu("h100-sxm"), t));
}
BENCHMARK(BM_TrainStep_Llama70B);

// Targets (#7): one full inference evaluation < 10 us; a 64-point curve < 1 ms.
static Topology one_system(const char* system) {
    Design d;
    Device dev;
    dev.id = "n";
    dev.kind = DeviceKind::system;
    dev.catalog = system;
    d.devices.push_back(dev);
    return analyze_topology(d, catalog());
}
static Topology h200_node() {
    return one_system("hgx-h200");
}
// Llama 3 70B on 8 x H200, FP8 weights and KV: the serving benchmarks' shared shape.
static InferenceSpec llama70b_tp8_fp8(cl::model::ServingEngine engine) {
    InferenceSpec s;
    s.tp = 8;
    s.weights_dtype = cl::model::WeightsDtype::fp8;
    s.kv_dtype = cl::model::KvDtype::fp8;
    s.engine = engine;
    return s;
}
static void BM_Infer_Llama70B_H200(benchmark::State& state) {
    const Topology t = h200_node();
    const InferenceSpec s = llama70b_tp8_fp8(cl::model::ServingEngine::vllm);
    for (auto _ : state)
        benchmark::DoNotOptimize(
            infer(*catalog().model("llama3-70b"), s, *catalog().gpu("h200-sxm"), t, 7.9));
}
BENCHMARK(BM_Infer_Llama70B_H200);

// Session 34: TensorRT-LLM's decode step is the mean of a CUDA-graph step (padded) and an eager
// one, two forward passes where the other engines take one -- the slowest serving path.
static void BM_Infer_Llama70B_H200_TensorRTLLM(benchmark::State& state) {
    const Topology t = h200_node();
    InferenceSpec s = llama70b_tp8_fp8(cl::model::ServingEngine::trtllm);
    s.input_len = 128;
    s.output_len = 2048;
    for (auto _ : state)
        benchmark::DoNotOptimize(
            infer(*catalog().model("llama3-70b"), s, *catalog().gpu("h200-sxm"), t, 7.9));
}
BENCHMARK(BM_Infer_Llama70B_H200_TensorRTLLM);

// Session 41: an MoE model in NVFP4 on one B200 -- the grouped-GEMM streaming and compute laws
// (routed experts by size, routing per token) on every MoE layer of both TensorRT-LLM passes.
/// TensorRT-LLM serving 1,000 / 1,000 tokens with FP8 KV at TP `tp` and these weights.
static InferenceSpec trtllm_1000_1000(cl::model::WeightsDtype w, int tp) {
    InferenceSpec s;
    s.tp = tp;
    s.weights_dtype = w;
    s.kv_dtype = cl::model::KvDtype::fp8;
    s.engine = cl::model::ServingEngine::trtllm;
    s.input_len = 1000;
    s.output_len = 1000;
    return s;
}

static void BM_Infer_Qwen3_30B_B200_TensorRTLLM(benchmark::State& state) {
    const Topology t = one_system("dgx-b200");
    const InferenceSpec s = trtllm_1000_1000(cl::model::WeightsDtype::fp4, 1);
    for (auto _ : state)
        benchmark::DoNotOptimize(
            infer(*catalog().model("qwen3-30b-a3b"), s, *catalog().gpu("b200"), t, 7.9));
}
BENCHMARK(BM_Infer_Qwen3_30B_B200_TensorRTLLM);

// Session 53: expert parallelism without attention DP (Qwen3-235B-A22B FP8, TP 8 = EP 8 on
// H100, as NVIDIA's silicon runs): the busiest GPU's experts (exact binomial order statistic at
// small batch, Blom's normal at large) in every MoE pass.
static void BM_Infer_Qwen3_235B_H100_EP8_TensorRTLLM(benchmark::State& state) {
    const Topology t = one_system("dgx-h100");
    InferenceSpec s = trtllm_1000_1000(cl::model::WeightsDtype::fp8, 8);
    s.ep = 8;
    for (auto _ : state)
        benchmark::DoNotOptimize(
            infer(*catalog().model("qwen3-235b-a22b"), s, *catalog().gpu("h100-sxm"), t, 7.9));
}
BENCHMARK(BM_Infer_Qwen3_235B_H100_EP8_TensorRTLLM);

// Session 56: attention DP (DeepSeek-R1 FP8 on 8 H200, EP 8, TensorRT-LLM's steady state): the
// balanced and the busiest-rank steps blended, and a second memory evaluation at plain TP for
// what attention DP buys (max_batch_without_attention_dp).
static void BM_Infer_DeepSeekR1_H200_AttentionDP_TensorRTLLM(benchmark::State& state) {
    const Topology t = h200_node();
    InferenceSpec s = trtllm_1000_1000(cl::model::WeightsDtype::fp8, 8);
    s.attention_dp = true;
    s.ep = 8;
    for (auto _ : state)
        benchmark::DoNotOptimize(
            infer(*catalog().model("deepseek-v3"), s, *catalog().gpu("h200-sxm"), t, 7.9));
}
BENCHMARK(BM_Infer_DeepSeekR1_H200_AttentionDP_TensorRTLLM);

// Session 36: an offline batch job run step by step (InferenceSpec::requests): the slowest
// shape on the TensorRT-LLM page -- 1,500 requests of 2,048 / 2,048 tokens, one prompt a step
// with chunking off, ~1,500 steps with a prompt and the decode stretches between them.
static void BM_Infer_BatchJob1500_Llama70B_H200_TensorRTLLM(benchmark::State& state) {
    const Topology t = h200_node();
    InferenceSpec s = llama70b_tp8_fp8(cl::model::ServingEngine::trtllm);
    s.input_len = 2048;
    s.output_len = 2048;
    s.requests = 1500;
    cl::model::MemoryAssumptions ma;
    ma.max_batched_tokens.value = 2048 + 1024; // trtllm-bench: at least ISL + max batch
    for (auto _ : state)
        benchmark::DoNotOptimize(infer(*catalog().model("llama3-70b"), s,
                                       *catalog().gpu("h200-sxm"), t, 7.9, {}, {}, {}, ma));
}
BENCHMARK(BM_Infer_BatchJob1500_Llama70B_H200_TensorRTLLM);

static void BM_InferCurve64_Llama70B_H200(benchmark::State& state) {
    const Topology t = h200_node();
    InferenceSpec s;
    s.tp = 8;
    s.weights_dtype = cl::model::WeightsDtype::fp8;
    for (auto _ : state)
        benchmark::DoNotOptimize(latency_throughput_curve(
            *catalog().model("llama3-70b"), s, *catalog().gpu("h200-sxm"), t, 2048, 64, 7.9));
}
BENCHMARK(BM_InferCurve64_Llama70B_H200);

BENCHMARK_MAIN();

// Issue #8: a 60-month TCO curve of the 16,384-GPU preset's inventory < 50 us.
static void BM_TcoCurve60_Llama3_16k(benchmark::State& state) {
    const Design& d = preset_16k();
    const CostInventory inv = design_inventory(d, catalog());
    Economics e;
    e.months = 60;
    const CloudOffer* offer = catalog().cloud("aws-p5.48xlarge");
    for (auto _ : state) {
        auto r = compute_tco(inv, e, offer);
        benchmark::DoNotOptimize(r);
    }
}
BENCHMARK(BM_TcoCurve60_Llama3_16k);

// The inventory walk itself (once per evaluation).
static void BM_DesignInventory_Llama3_16k(benchmark::State& state) {
    const Design& d = preset_16k();
    for (auto _ : state) {
        auto inv = design_inventory(d, catalog());
        benchmark::DoNotOptimize(inv);
    }
}
BENCHMARK(BM_DesignInventory_Llama3_16k);

static void BM_Reliability_16k(benchmark::State& state) {
    ReliabilityContext ctx;
    ctx.gpus = 16384;
    ctx.checkpoint_bytes = 5.7e12;
    for (auto _ : state) {
        auto r = compute_reliability({}, ctx);
        benchmark::DoNotOptimize(r);
    }
}
BENCHMARK(BM_Reliability_16k);

// Issue #10: one full evaluation of the largest preset (what every edit triggers) -- with the
// chart update (bench_canvas) it must stay within one frame of an edit (<= 50 ms).
static void BM_Evaluate_Llama3_16k(benchmark::State& state) {
    const Design& d = preset_16k();
    for (auto _ : state)
        benchmark::DoNotOptimize(evaluate(d, catalog()));
}
BENCHMARK(BM_Evaluate_Llama3_16k)->Unit(benchmark::kMillisecond);

// Issue 23: the same evaluation with a job mix (every edit re-simulates it): 30 days of the five
// classes on the 16,384 GPUs, ~46,000 jobs -- the Fleet tab stays live while the user edits.
static void BM_Evaluate_Llama3_16k_FleetMix(benchmark::State& state) {
    Design d = preset_16k();
    d.fleet.training = {0.05, 1024, 72, 3};
    d.fleet.finetune = {8, 8, 6, 2};
    d.fleet.batch_inference = {10, 8, 2, 1};
    d.fleet.online = {0.2, 16, 24, 4};
    d.fleet.interactive = {40, 1, 1, 5};
    std::int64_t jobs = 0;
    for (auto _ : state) {
        auto ev = evaluate(d, catalog());
        jobs = ev.fleet ? ev.fleet->jobs_arrived : 0;
        benchmark::DoNotOptimize(ev);
    }
    state.counters["jobs"] = static_cast<double>(jobs);
}
BENCHMARK(BM_Evaluate_Llama3_16k_FleetMix)->Unit(benchmark::kMillisecond);

// Issue 23: 90 days of about 100,000 jobs on 16,384 GPUs (2,048 nodes of 8) simulate in under
// 2 s on one core. A mix of one-GPU, one-node and 64-node jobs at ~85% load, backfill.
static FleetSpec fleet_90d_16k() {
    FleetSpec s;
    s.nodes = 2048;
    s.gpus_per_node = 8;
    s.policy = FleetPolicy::backfill;
    s.horizon_days = 90;
    s.warmup_days = 0;
    // 46 jobs/h in all over 90 days: ~99,000 jobs; offered load 14,312 of 16,384 GPUs.
    s.classes = {
        {"notebook", 1, 30, 4, 0}, {"fine-tune", 8, 15, 50, 0}, {"pre-train", 512, 1.0, 16, 0}};
    return s;
}

static void BM_Fleet_90d_100kJobs_16k(benchmark::State& state) {
    const FleetSpec s = fleet_90d_16k();
    std::int64_t jobs = 0;
    for (auto _ : state) {
        auto r = simulate_fleet(s);
        jobs = r ? r->jobs_arrived : 0;
        benchmark::DoNotOptimize(r);
    }
    state.counters["jobs"] = static_cast<double>(jobs);
}
BENCHMARK(BM_Fleet_90d_100kJobs_16k)->Unit(benchmark::kMillisecond);

// The same with node failures at Llama 3's per-node rate (8 GPUs x 419 / (16,384 x 54) per
// day, 24-hour repairs) and the notebooks on a working day's curve (session 16).
static void BM_Fleet_90d_100kJobs_16k_FailuresCurves(benchmark::State& state) {
    FleetSpec s = fleet_90d_16k();
    s.classes[0].daily_swing = 0.8;
    s.classes[0].weekend_factor = 0.3;
    s.classes[2].checkpoint_interval_h = 1;
    s.node_failures_per_hour = llama3_node_failures_per_1000_node_days(8) / 1000 / 24;
    s.repair_h = 24;
    std::int64_t jobs = 0, stops = 0;
    for (auto _ : state) {
        auto r = simulate_fleet(s);
        jobs = r ? r->jobs_arrived : 0;
        stops = r ? r->interruptions : 0;
        benchmark::DoNotOptimize(r);
    }
    state.counters["jobs"] = static_cast<double>(jobs);
    state.counters["stops"] = static_cast<double>(stops);
}
BENCHMARK(BM_Fleet_90d_100kJobs_16k_FailuresCurves)->Unit(benchmark::kMillisecond);

// The same mix with the notebooks time-sliced (session 27): 8 of the nodes share their GPUs,
// 4 replicas each, the notebooks keep a GPU 40% busy alone -- every arrival and completion there
// moves the ends of the runs sharing its GPU.
static void BM_Fleet_90d_100kJobs_16k_TimeSliced(benchmark::State& state) {
    FleetSpec s = fleet_90d_16k();
    s.timeslice_nodes = 8;
    s.timeslice_replicas = 4;
    s.classes[0].time_sliced = true;
    s.classes[0].gpu_busy = 0.4;
    std::int64_t jobs = 0;
    double slowdown = 0;
    for (auto _ : state) {
        auto r = simulate_fleet(s);
        jobs = r ? r->jobs_arrived : 0;
        slowdown = r ? r->classes[0].slowdown : 0;
        benchmark::DoNotOptimize(r);
    }
    state.counters["jobs"] = static_cast<double>(jobs);
    state.counters["slowdown"] = slowdown;
}
BENCHMARK(BM_Fleet_90d_100kJobs_16k_TimeSliced)->Unit(benchmark::kMillisecond);

// Issue 17 item 8: large designs load and evaluate in linear time. Targets: 100,000 devices
// and a 10,000-deep chain of groups each load (parse + validate) and evaluate in < 1 s, in
// memory < 10x the file. The designs are generated as text, as a file would hold them.

static void BM_LoadDesign_100kDevices(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(design_from_json(flat_100k(), "flat", &catalog()));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * flat_100k().size()));
}
BENCHMARK(BM_LoadDesign_100kDevices)->Unit(benchmark::kMillisecond)->Iterations(2);

static void BM_Evaluate_100kDevices(benchmark::State& state) {
    const Design d = design_from_json(flat_100k(), "flat", &catalog()).value();
    for (auto _ : state)
        benchmark::DoNotOptimize(evaluate(d, catalog()));
}
BENCHMARK(BM_Evaluate_100kDevices)->Unit(benchmark::kMillisecond)->Iterations(2);

static void BM_LoadAndEvaluate_Chain10k(benchmark::State& state) {
    for (auto _ : state) {
        const Design d = design_from_json(chain_10k(), "chain", &catalog()).value();
        benchmark::DoNotOptimize(evaluate(d, catalog()));
    }
}
BENCHMARK(BM_LoadAndEvaluate_Chain10k)->Unit(benchmark::kMillisecond)->Iterations(2);
