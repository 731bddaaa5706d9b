#pragma once
// The parallelism search: enumerate TP x PP x CP x EP x VPP x micro-batch x ZeRO x recompute,
// drop layouts that do not divide the GPUs or do not fit in memory, rank by throughput or cost,
// keep the top K and the Pareto front (memory vs throughput). Re-entrant (no shared state) and
// cancellable, so the GUI can run it on a worker thread.

#include "model/training.h"

#include <atomic>
#include <string>
#include <vector>

namespace cl::model {

struct SearchPins {
    int tp = 0, pp = 0, cp = 0, ep = 0, vpp = 0, micro_batch = 0, zero = -1; ///< 0/-1 = open
    std::optional<Recompute> recompute;                                      ///< empty = open
};

struct SearchOptions {
    bool minimize_cost = false; ///< rank by cost per token instead of throughput
    int top_k = 10;
    double price_per_gpu_hour = 0;
    const std::atomic<bool>* cancel = nullptr; ///< set to stop early (results so far are kept)
};

struct SearchRow {
    int tp = 1, pp = 1, dp = 1, cp = 1, ep = 1, vpp = 1, micro_batch = 1, zero = 1;
    Recompute recompute = Recompute::none;
    int recompute_layers = 0; ///< full recompute of the first N layers per stage (0 = every)
    double step_time_s = 0, mfu = 0, tokens_per_s = 0, memory_per_gpu_bytes = 0;
    double usd_per_million_tokens = 0;
};

struct SearchResult {
    std::int64_t evaluated = 0; ///< every layout enumerated, feasible or not
    std::int64_t feasible = 0;  ///< divides the GPUs and fits in memory
    double seconds = 0;
    bool cancelled = false;
    /// Why layouts that fit in memory still do not run (no network path), when some did not;
    /// empty otherwise.
    std::string blocked;
    std::vector<SearchRow> results; ///< best first
    std::vector<SearchRow> pareto;  ///< memory per GPU vs throughput, by memory ascending
};

/// Searches layouts for `base` (its model settings: seq, dtype, optimizer, global batch,
/// fine-tuning) on `gpus` GPUs.
Result<SearchResult> search_layouts(const ModelArch& m, const TrainingSpec& base, int gpus,
                                    const GpuSpec& gpu, const Topology& fabric,
                                    const SearchPins& pins, const SearchOptions& options,
                                    const TrainingAssumptions& ta = {},
                                    const CollectiveAssumptions& ca = {},
                                    const MemoryAssumptions& ma = {});

} // namespace cl::model
