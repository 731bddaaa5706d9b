#include "model/reliability.h"

#include "model/memory.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

namespace cl::model {

double young_interval(double delta, double M) {
    if (!(delta > 0) || !(M > 0))
        return 0;
    return std::sqrt(2.0 * delta * M);
}

double daly_interval(double delta, double M) {
    if (!(delta > 0) || !(M > 0))
        return 0;
    if (delta >= 2.0 * M)
        return M;
    const double x = delta / (2.0 * M);
    return std::sqrt(2.0 * delta * M) * (1.0 + std::sqrt(x) / 3.0 + x / 9.0) - delta;
}

double daly_goodput(double tau, double delta, double M, double R) {
    if (!(tau > 0) || !(M > 0))
        return 0;
    // Daly 2006 eq. 20 (exponential failures, failures also during checkpoints and restarts):
    // T_w = M e^(R/M) (e^((tau + delta)/M) - 1) T_s / tau.
    const double ratio = M * std::exp(R / M) * std::expm1((tau + delta) / M) / tau;
    return ratio > 0 ? std::min(1.0, 1.0 / ratio) : 0;
}

double checkpoint_bytes(const ModelArch& m, const TrainingSpec& t) {
    TrainingSpec plain = t;
    plain.dtype = t.dtype == TrainingDtype::fp8 ? TrainingDtype::bf16
                                                : t.dtype; // the FP8 weight cache is not saved
    const StateBytes sb = state_bytes(plain);
    const bool lora = t.finetune == Finetune::lora || t.finetune == Finetune::qlora;
    if (lora) {
        // Adapters: rank r on every linear layer of every block (memory.cpp's count).
        const double adapters = lora_params(m, t.lora_rank);
        return adapters * (sb.weights + sb.optimizer);
    }
    // Multi-token prediction modules trained with the model are saved with it.
    return trained_params(m, t) * (sb.weights + sb.optimizer);
}

Result<ReliabilityResult> compute_reliability(const ReliabilityInputs& in,
                                              const ReliabilityContext& ctx) {
    if (!(ctx.gpus >= 1) || ctx.gpus > 1e8)
        return Error{"--gpus", "must be between 1 and 100,000,000"};
    if (ctx.gpus_per_node < 1)
        return Error{"--gpus-per-node", "must be at least 1"};
    ReliabilityResult r;
    const double nodes = std::ceil(ctx.gpus / ctx.gpus_per_node);

    // Failure rate: the user's per-node rate (failures per 1000 node-days, as Kokolis et al.
    // 2025 report them), else Llama 3's per-GPU rate scaled to the job; or a job MTBF outright.
    if (in.node_failures_per_1000_node_days > 0) {
        r.node_failures_per_1000_node_days = in.node_failures_per_1000_node_days;
        r.per_gpu_failures_per_day =
            in.node_failures_per_1000_node_days / 1000.0 / ctx.gpus_per_node;
        r.rate_source = "reliability.node_failures_per_1000_node_days";
    } else {
        r.per_gpu_failures_per_day = kLlama3FailuresPerGpuDay;
        r.node_failures_per_1000_node_days =
            llama3_node_failures_per_1000_node_days(ctx.gpus_per_node);
        r.rate_source = "Llama 3 (Grattafiori et al. 2024 sec. 3.3.4): 419 unexpected "
                        "interruptions / (16,384 H100 × 54 days)";
    }
    const double job_rate_per_s = in.mtbf_hours > 0
                                      ? 1.0 / (in.mtbf_hours * 3600.0)
                                      : r.per_gpu_failures_per_day * ctx.gpus / 86400.0;
    if (in.mtbf_hours > 0)
        r.rate_source = "reliability.mtbf_hours";
    r.job_mtbf_s = 1.0 / job_rate_per_s;
    r.expected_interruptions_per_day = 86400.0 * job_rate_per_s;

    // Checkpoint: size, storage bandwidth, write time; what it stalls.
    r.checkpoint_bytes = ctx.checkpoint_bytes;
    if (in.storage_bandwidth_Bps > 0) {
        r.storage_Bps = in.storage_bandwidth_Bps;
    } else if (ctx.design_storage_Bps > 0) {
        r.storage_Bps = ctx.design_storage_Bps;
    } else {
        r.storage_Bps = llama3_storage_Bps(ctx.gpus);
        r.notes.push_back("storage bandwidth: Llama 3's 2 TB/s per 16,384 GPUs, scaled");
    }
    if (in.checkpoint_write_s > 0)
        r.checkpoint_write_s = in.checkpoint_write_s;
    else if (r.checkpoint_bytes > 0)
        r.checkpoint_write_s = r.checkpoint_bytes / r.storage_Bps;
    else
        return Error{"--checkpoint-write-s",
                     "give the checkpoint write time or a model (to size the checkpoint)"};
    double restart = in.restart_s;
    if (in.async_checkpoint) {
        // Two-phase checkpointing (CheckFreq, Mohan et al. FAST'21): training pauses only to
        // snapshot each GPU's shard to host memory over PCIe 5 x16 (63 GB/s, 80% achieved);
        // the write to storage overlaps the next steps. A failure rolls back to the last
        // checkpoint that finished writing, so each recovery also loses the write time.
        const double shard = r.checkpoint_bytes > 0 ? r.checkpoint_bytes / ctx.gpus : 0;
        r.checkpoint_stall_s =
            shard > 0 ? shard / (0.8 * 63e9) : std::min(r.checkpoint_write_s, 1.0);
        restart += r.checkpoint_write_s;
    } else {
        r.checkpoint_stall_s = r.checkpoint_write_s;
    }
    const double M = r.job_mtbf_s, delta = r.checkpoint_stall_s;
    r.young_interval_s = young_interval(delta, M);
    r.optimal_checkpoint_interval_s = daly_interval(delta, M);
    double tau =
        in.checkpoint_interval_s > 0 ? in.checkpoint_interval_s : r.optimal_checkpoint_interval_s;
    // A checkpoint is taken between training steps: the automatic interval is a whole number of
    // steps (at least one), and a typed interval shorter than a step cannot be kept (helper-20:
    // "Checkpoint interval Auto: 0.2 min" with 7.2 s steps).
    const double step = ctx.step_time_s;
    if (step > 0 && std::isfinite(step)) {
        char buf[200];
        if (in.checkpoint_interval_s > 0 && tau < step) {
            std::snprintf(buf, sizeof buf,
                          "the checkpoint interval (%.1f s) is shorter than one training step "
                          "(%.1f s): a checkpoint every step is used",
                          tau, step);
            r.notes.emplace_back(buf);
            tau = step;
        } else if (in.checkpoint_interval_s <= 0) {
            const double steps = std::max(1.0, std::round(tau / step));
            if (tau < step) {
                std::snprintf(buf, sizeof buf,
                              "the Daly optimum (%.1f s) is shorter than one training step "
                              "(%.1f s): a checkpoint every step",
                              tau, step);
                r.notes.emplace_back(buf);
            }
            tau = steps * step;
        }
    }
    if (in.async_checkpoint && tau < r.checkpoint_write_s) {
        tau = r.checkpoint_write_s; // the next snapshot waits for the previous write
        r.notes.push_back("async: interval raised to the checkpoint write time");
    }
    r.interval_used_s = tau;
    if (r.optimal_checkpoint_interval_s < r.checkpoint_write_s) {
        // Daly's optimum assumes a checkpoint finishes before the next starts; here it would
        // not (helper-16: the chart showed such an optimum without a word).
        char buf[200];
        std::snprintf(
            buf, sizeof buf,
            "the Daly optimum (%.1f min) is shorter than one checkpoint write (%.1f min): "
            "checkpoints could not keep up; faster storage or fewer bytes per checkpoint "
            "would let the interval fall that far",
            r.optimal_checkpoint_interval_s / 60, r.checkpoint_write_s / 60);
        r.notes.emplace_back(buf);
    }
    r.goodput = daly_goodput(tau, delta, M, restart);
    r.optimal_goodput = daly_goodput(r.optimal_checkpoint_interval_s, delta, M, restart);

    // The run: lost GPU-hours are the wall time not spent on useful work.
    r.run_days = in.run_days > 0 ? in.run_days : ctx.run_days;
    if (r.run_days <= 0) {
        r.run_days = 30;
        r.notes.push_back("no run length: 30 days assumed (set the run's length in days)");
    }
    r.expected_interruptions = r.run_days * r.expected_interruptions_per_day;
    r.lost_gpu_hours = ctx.gpus * r.run_days * 24.0 * (1.0 - r.goodput);
    r.lost_usd = r.lost_gpu_hours * ctx.price_per_gpu_hour;

    // Spares: nodes in repair at a time ~ Poisson(nodes x rate x repair time); the 99th
    // percentile keeps the job whole.
    const double node_rate_per_h = r.per_gpu_failures_per_day * ctx.gpus_per_node / 24.0;
    const double mean_down = nodes * node_rate_per_h * in.repair_hours;
    double term = std::exp(-mean_down), cdf = term;
    int k = 0;
    while (cdf < 0.99 && k < 1000000) {
        ++k;
        term *= mean_down / k;
        cdf += term;
    }
    r.spare_nodes = k;

    // Stragglers: a synchronous step waits for the slowest of N GPUs; for N i.i.d. normal step
    // times the expected maximum is about mean + sigma sqrt(2 ln N) (Gumbel limit of normal
    // order statistics; David & Nagaraja, Order Statistics, sec. 10.5).
    if (ctx.gpus >= 2)
        r.straggler_slowdown = 1.0 + in.straggler_cv * std::sqrt(2.0 * std::log(ctx.gpus));
    r.data_load_Bps = ctx.tokens_per_s * ctx.bytes_per_token;

    // A result that is not a finite number is refused with what made it so (a failure rate so
    // small the MTBF overflows, a bandwidth so small the write takes forever), never printed.
    const std::pair<const char*, double> results[] = {
        {"job MTBF", r.job_mtbf_s},
        {"checkpoint write time", r.checkpoint_write_s},
        {"checkpoint interval", r.interval_used_s},
        {"goodput", r.goodput},
        {"lost GPU-hours", r.lost_gpu_hours},
        {"lost dollars", r.lost_usd}};
    for (const auto& [name, v] : results)
        if (!std::isfinite(v))
            return Error{"reliability",
                         std::string("these inputs give a ") + name +
                             " that is not a finite number: a failure rate, MTBF, storage "
                             "bandwidth or write time is too small or too large to compute"};

    // Goodput vs interval: 48 points spread geometrically around the optimum.
    // The chosen interval stays on the curve's axis however far it is from the optimum.
    const double lo =
        std::max(std::max(1.0, step > 0 && std::isfinite(step) ? step : 0.0),
                 std::min(r.optimal_checkpoint_interval_s / 20.0, r.interval_used_s / 1.5));
    const double hi =
        std::max(lo * 2, std::max(r.optimal_checkpoint_interval_s * 20.0, r.interval_used_s * 1.5));
    for (int i = 0; i < 48; ++i) {
        const double t = lo * std::pow(hi / lo, i / 47.0);
        r.curve.push_back({t, daly_goodput(t, delta, M, restart)});
    }
    return r;
}

} // namespace cl::model
