#pragma once
// Reliability of a training job: interruption rate from node or per-GPU failure rates, the
// checkpoint size and write time, Young's and Daly's optimal intervals, expected goodput,
// lost GPU-hours and dollars, spare nodes, straggler slowdown and the data-loading bandwidth.
// Model and sources: docs/reliability.md.

#include "model/architecture.h"
#include "model/design.h"
#include "model/error.h"

#include <vector>

namespace cl::model {

/// Llama 3 405B pre-training (Grattafiori et al. 2024, sec. 3.3.4): 419 unexpected
/// interruptions on 16,384 H100 in 54 days = 4.74e-4 per GPU-day.
inline constexpr double kLlama3FailuresPerGpuDay = 419.0 / (16384.0 * 54.0);
/// The default node failure rate: Llama 3's per-GPU rate times the GPUs of a node.
inline constexpr double llama3_node_failures_per_1000_node_days(double gpus_per_node) {
    return kLlama3FailuresPerGpuDay * gpus_per_node * 1000.0;
}
/// The default storage bandwidth: Llama 3's Tectonic storage sustained 2 TB/s for 16,384 GPUs
/// (Grattafiori et al. 2024, sec. 3.3.1), the same per GPU.
inline constexpr double llama3_storage_Bps(double gpus) {
    return 2e12 / 16384.0 * gpus;
}

/// Young 1974: tau = sqrt(2 delta M).
double young_interval(double delta_s, double mtbf_s);
/// Daly 2006 (FGCS 22(3) eq. 37): sqrt(2 delta M) [1 + (1/3) sqrt(delta / 2M) + (1/9)
/// (delta / 2M)] - delta for delta < 2M, else M.
double daly_interval(double delta_s, double mtbf_s);
/// Daly 2006 expected wall time per unit of work with interval tau, checkpoint cost delta,
/// restart R and exponential failures of mean M: T_w / T_s = M e^(R/M) (e^((tau+delta)/M) - 1)
/// / tau. Goodput is its inverse.
double daly_goodput(double tau_s, double delta_s, double mtbf_s, double restart_s);

/// Bytes of one full training checkpoint: 16-bit weights, fp32 master weights and optimizer
/// states (gradients are not saved); LoRA/QLoRA save the adapters and their states only.
double checkpoint_bytes(const ModelArch& m, const TrainingSpec& t);

struct ReliabilityContext {
    double gpus = 0;
    int gpus_per_node = 8;
    double checkpoint_bytes = 0;   ///< 0 = inputs must give checkpoint_write_s
    double design_storage_Bps = 0; ///< storage devices drawn in the design
    double tokens_per_s = 0;       ///< the job's, for data loading (0 = skip)
    double bytes_per_token = 4;    ///< int32 token ids (Megatron indexed datasets, vocab > 65k)
    double step_time_s = 0;        ///< for straggler slowdown in seconds (0 = skip)
    double price_per_gpu_hour = 0;
    double run_days = 0; ///< the job's length when the inputs do not set one
};

struct GoodputPoint {
    double interval_s = 0, goodput = 0;
};

struct ReliabilityResult {
    double per_gpu_failures_per_day = 0;
    double node_failures_per_1000_node_days = 0;
    const char* rate_source = "";
    double job_mtbf_s = 0;
    double expected_interruptions_per_day = 0;
    double checkpoint_bytes = 0;
    double storage_Bps = 0;
    double checkpoint_write_s = 0; ///< whole checkpoint to storage
    double checkpoint_stall_s = 0; ///< training paused per checkpoint (delta in Daly)
    double young_interval_s = 0, optimal_checkpoint_interval_s = 0, interval_used_s = 0;
    double goodput = 0;         ///< at the interval used
    double optimal_goodput = 0; ///< at Daly's optimum
    double run_days = 0;
    double expected_interruptions = 0; ///< over the run
    double lost_gpu_hours = 0, lost_usd = 0;
    double spare_nodes = 0;          ///< to keep the job whole 99% of the time
    double straggler_slowdown = 1;   ///< expected max of N step times / mean
    double data_load_Bps = 0;        ///< token reads the job needs
    std::vector<GoodputPoint> curve; ///< goodput vs checkpoint interval (chart)
    std::vector<std::string> notes;
};

Result<ReliabilityResult> compute_reliability(const ReliabilityInputs& in,
                                              const ReliabilityContext& ctx);

} // namespace cl::model
