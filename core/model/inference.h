#pragma once
// Inference serving: prefill and decode times from per-operator rooflines with measured GEMM
// efficiency, TP all-reduce on the fabric, batching policies, speculative decoding, offline
// max-throughput and online SLO sizing, cost per million tokens. docs/inference.md.

#include "model/collective.h"
#include "model/memory.h"
#include "model/topology.h"

#include <string>
#include <vector>

namespace cl::model {

struct InferenceAssumptions {
    /// Fraction of HBM bandwidth decode kernels sustain (weights and KV streaming).
    Assumption memory_efficiency{0.85, "fraction",
                                 "same as training elementwise (docs/inference.md)"};
    /// Serving GEMMs relative to the best-shape microbenchmark (same factor as training).
    Assumption sustained_vs_best_gemm{0.85, "ratio", "training calibration (docs/validation.md)"};
    /// Scheduler, sampling and launch time per engine step (CUDA graphs on).
    Assumption step_overhead_s{1e-3, "s", "assumption: ~1 ms per engine step (docs/inference.md)"};
    /// Speculative decoding draft cost per token relative to the target (c in Leviathan et al.).
    Assumption draft_cost_ratio{0.0, "ratio", "0 = derived from the draft model's size"};
};

struct InferenceResult {
    double ttft_s = 0, tpot_s = 0;
    double output_tokens_per_s = 0; ///< one replica
    double output_tokens_per_s_per_gpu = 0;
    double prefill_s = 0;     ///< one request's prompt, alone
    double decode_step_s = 0; ///< one decode step at the operating batch
    int batch = 0;            ///< concurrent sequences at the operating point
    double usd_per_million_output_tokens = 0, usd_per_million_input_tokens = 0;
    double gpus_needed = 0;         ///< online mode: for the request rate under the SLOs
    double speculative_speedup = 1; ///< decode speedup from speculative decoding
    InferenceMemory memory;
};

struct SpeculativeSpec {
    const ModelArch* draft = nullptr; ///< null = no speculation
    int k = 4;                        ///< draft tokens per step (gamma)
    double acceptance = 0.7;          ///< alpha
};

/// Expected tokens per target step with gamma drafts at acceptance alpha (Leviathan et al.
/// 2023 eq. 1): (1 - a^(g+1)) / (1 - a).
double speculative_tokens_per_step(double alpha, int gamma);
/// Wall-time improvement with draft cost ratio c (Leviathan et al. 2023 Thm 3.8):
/// (1 - a^(g+1)) / ((1 - a)(g c + 1)).
double speculative_speedup(double alpha, int gamma, double c);

Result<InferenceResult> infer(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                              const Topology& fabric, double price_per_gpu_hour = 0,
                              const SpeculativeSpec& spec = {}, const InferenceAssumptions& ia = {},
                              const CollectiveAssumptions& ca = {},
                              const MemoryAssumptions& ma = {});

/// One point of the latency-throughput curve: a batch size, its TPOT and throughput.
struct CurvePoint {
    int batch = 0;
    double tpot_s = 0, ttft_s = 0, output_tokens_per_s = 0, usd_per_million_output_tokens = 0;
};
/// `points` batch sizes spread geometrically from 1 to the largest that fits.
std::vector<CurvePoint> latency_throughput_curve(const ModelArch& m, const InferenceSpec& s,
                                                 const GpuSpec& gpu, const Topology& fabric,
                                                 int max_batch, int points = 64,
                                                 double price_per_gpu_hour = 0,
                                                 const InferenceAssumptions& ia = {},
                                                 const CollectiveAssumptions& ca = {});

/// Decode step time of one replica at `batch` sequences with `context` tokens each.
double decode_step_time(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                        const Topology& fabric, int batch, double context,
                        const InferenceAssumptions& ia = {}, const CollectiveAssumptions& ca = {});
/// Prefill time of `batch` prompts of `tokens` tokens each.
double prefill_time(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                    const Topology& fabric, int batch, double tokens,
                    const InferenceAssumptions& ia = {}, const CollectiveAssumptions& ca = {});

} // namespace cl::model
