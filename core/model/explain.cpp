#include "model/explain.h"

#include "model/findings.h"
#include "model/inference.h"
#include "model/memory.h"
#include "model/reliability.h"
#include "model/report.h"
#include "model/schema.h"
#include "model/training.h"
#include "model/units.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace cl::model {

namespace {

/// The weights' format as Explain lists it, saying where the GPU has no matrix units for it
/// (FP4 on Hopper or MI300X, FP8 on A100): the GEMMs dequantise the weights to 16 bits and run
/// at the 16-bit rate, which a user comparing formats needs to see.
std::string weights_text(WeightsDtype w, const GpuSpec& g) {
    std::string t = choice_label(to_string(w));
    if (weights_lack_matrix_units(w, g))
        t += ", weight-only on " + (g.name.empty() ? g.id : g.name) +
             " (no matrix units for it: dequantised to 16 bits, computed at the 16-bit rate)";
    return t;
}

/// A number for people: separators, never scientific notation (issue 21).
std::string num(double v, int = 3) {
    return report_human(v, ReportFormat::number);
}
std::string fixed(double v, int prec) {
    return units::format_fixed(v, prec);
}
std::string pct(double v) {
    return fixed(v * 100, 1) + " %";
}
std::string usd(double v) {
    // Nothing is "$0" as the tables say it (helper-16: "network = $0.00" beside "$0").
    if (v == 0)
        return "$0";
    return report_human(v, std::fabs(v) < 100 ? ReportFormat::usd_rate : ReportFormat::usd);
}
std::string src(const Provenance& p) {
    return p.source.empty() ? "catalog" : "catalog: " + p.source.front();
}
ExplainedInput assumption(const char* name, const Assumption& a) {
    return {name, report_value(a.value, a.unit), a.source};
}

} // namespace

namespace {
/// Issue 22: where the collectives' latency and bandwidth come from: the design's nccl-tests fit
/// (per tier, with the file and the error after the fit) or the defaults.
ExplainedInput collectives_input(const Design& d,
                                 const std::vector<GroupTraffic>* traffic = nullptr) {
    if (d.calibration.empty())
        return {"collectives", "defaults",
                "NCCL tuning constants and published efficiencies (ClusterLens guide, "
                "Collectives); import "
                "nccl-tests output to calibrate"};
    std::string v, from;
    for (const auto& c : d.calibration) {
        v += (v.empty() ? "" : ", ") + std::string(tier_short_name(c.tier)) +
             (c.segments.empty() ? "" : " (" + std::to_string(c.segments.size()) + " size ranges)");
        if (from.empty())
            from = c.source;
    }
    // A fit covers only groups on its own tier: name the tiers this job's groups cross that no
    // measurement covers (they keep the defaults).
    if (traffic) {
        std::string uncovered;
        for (const auto& g : *traffic) {
            const bool covered =
                std::any_of(d.calibration.begin(), d.calibration.end(),
                            [&](const FabricCalibration& c) { return c.tier == g.tier; });
            const std::string name = tier_short_name(g.tier);
            if (!covered && uncovered.find(name) == std::string::npos)
                uncovered += (uncovered.empty() ? "" : ", ") + name;
        }
        if (!uncovered.empty())
            v += "; defaults on " + uncovered + " (no measurement of that tier)";
    }
    return {"collectives", "calibrated: " + v,
            "nccl-tests measurements " + from + " (Tools > Import nccl-tests Output)"};
}
} // namespace

std::vector<Explanation> explain(const Design& d, const Evaluation& ev, const Catalog& c) {
    std::vector<Explanation> out;
    const TrainingAssumptions& ta = d.assumptions.training;
    const InferenceAssumptions& ia = d.assumptions.inference;
    const MemoryAssumptions& ma = d.assumptions.memory;
    for (std::size_t i = 0; i < ev.workloads.size() && i < d.workloads.size(); ++i) {
        const WorkloadEvaluation& w = ev.workloads[i];
        const Workload& spec = d.workloads[i];
        const GpuSpec* g = c.gpu(w.gpu);
        const ModelArch* m = find_model(d, c, w.model); // a model the design carries too
        // A refused workload has no numbers to explain: why it has none (helper-47: Explain
        // dropped it without a word while the card and the charts said why).
        if (!w.error.empty() && !w.has_memory && !w.training && !w.inference) {
            out.push_back({w.id + ".refused",
                           w.name,
                           "Refused",
                           "no numbers",
                           errors_for_people(w.error),
                           {}});
            continue;
        }
        if (w.has_memory) {
            const auto& b = w.memory.per_gpu;
            // Only the parts the workload has: a serving replica keeps no gradients or
            // optimizer states, a training job no KV cache (helper audit: "gradients = 0 B").
            const bool serving = spec.kind == WorkloadKind::inference;
            Explanation e{w.id + ".memory",
                          w.name,
                          "Memory per GPU",
                          units::format_bytes(b.total()) + " of " +
                              units::format_bytes(w.memory.capacity_bytes),
                          serving ? "weights + KV cache + workspace + engine runtime, for the most "
                                    "loaded GPU (worst pipeline stage); fits when the total \u2264 "
                                    "what the engine may use"
                                  : "weights + gradients + optimizer states + activations + "
                                    "framework overhead, for the most loaded GPU (worst pipeline "
                                    "stage); fits when the total \u2264 capacity",
                          {}};
            const Assumption& runtime =
                serving ? engine_runtime(ma, spec.inference.engine) : ma.framework_overhead_bytes;
            if (serving)
                e.inputs = {
                    {"weights", units::format_bytes(b.weights),
                     "params on the GPU × bytes per weight of the weights format (split over "
                     "TP and PP)"},
                    {"KV cache", units::format_bytes(b.kv_cache),
                     "2 × layers × KV heads × head dim × bytes × the tokens in use" +
                         (w.inference_memory
                              ? " (" +
                                    units::format_count(
                                        static_cast<double>(w.inference_memory->batch)) +
                                    " sequences); the budget holds " +
                                    units::format_count(w.inference_memory->kv_capacity_tokens) +
                                    " tokens, " +
                                    units::format_count(
                                        static_cast<double>(w.inference_memory->max_batch)) +
                                    " sequences: " + kv_budget_rule(ma, spec.inference.engine)
                              : std::string())},
                    {"workspace", units::format_bytes(b.activations),
                     "activations of one forward pass over the engine's batched tokens"},
                    {"engine runtime", units::format_bytes(b.other), runtime.source}};
            else
                e.inputs = {{"weights", units::format_bytes(b.weights),
                             "params on the GPU × bytes per weight (ZeRO-3 shards over DP)"},
                            {"gradients", units::format_bytes(b.gradients),
                             "ZeRO sec. 3.1: 2 B per param in 16-bit (ZeRO-2 shards)"},
                            {"optimizer", units::format_bytes(b.optimizer),
                             "ZeRO sec. 3.1: K = 12 B per param for mixed-precision AdamW "
                             "(ZeRO-1 shards over DP)"},
                            {"activations", units::format_bytes(b.activations),
                             "Korthikanti et al. 2022 Table 2 per layer × layers × micro-batches "
                             "in flight (1F1B: p - stage; interleaved × (1 + (p-1)/(p v)))"},
                            {"other", units::format_bytes(b.other), runtime.source}};
            e.inputs.push_back({"capacity", units::format_bytes(w.memory.capacity_bytes),
                                g && g->usable_memory_bytes > 0
                                    ? "what CUDA reports (" + units::format_bytes(g->memory_bytes) +
                                          " on the label): " + g->usable_memory_source
                                    : (g ? src(g->provenance) : "catalog")});
            out.push_back(std::move(e));
        }
        if (w.training && g && m) {
            const auto& r = *w.training;
            const auto& t = spec.training;
            const auto& bd = r.breakdown;
            const Dtype dt = to_dtype(t.dtype);
            Explanation step{w.id + ".step",
                             w.name,
                             "Step time",
                             fixed(r.step_time_s, r.step_time_s < 10 ? 2 : 1) + " s",
                             "micro-batches × (forward + backward + recompute + exposed TP/CP/EP "
                             "communication of the slowest stage) + PP transfers + pipeline bubble "
                             "+ exposed DP communication + optimizer step; GEMMs at the measured "
                             "best-shape rate × sustained factor × tile and K-depth efficiency, "
                             "attention at the FlashAttention rate, elementwise kernels at HBM "
                             "speed, the GPU idle between kernels",
                             {}};
            step.inputs = {
                {"micro-batches per step",
                 units::format_count(static_cast<double>(r.micro_batches)) + " of " +
                     units::format_count(static_cast<double>(r.micro_batch)) +
                     (r.micro_batch == 1 ? " sequence" : " sequences"),
                 "global batch / DP / micro-batch"},
                {"compute", report_human(bd.compute, ReportFormat::seconds),
                 "FLOPs / achieved rates (ClusterLens guide, Training)"},
                {"of which kernel launch gaps",
                 report_human(r.launch_gap_s, ReportFormat::seconds) + " (" +
                     units::format_count(r.kernels_per_step) + " kernels per step)",
                 "kernels per layer and micro-batch counted from the framework's modules × the "
                 "GPU idle per kernel launched (ClusterLens guide, Training)"},
                {"recompute", report_human(bd.recompute, ReportFormat::seconds),
                 "Korthikanti et al. 2022 sec. 5"},
                {"multi-token prediction",
                 !t.mtp || m->mtp_layers == 0
                     ? std::string(m->mtp_layers == 0 ? "none (the model has no MTP module)"
                                                      : "off (the model's modules not trained)")
                     : std::to_string(m->mtp_layers) +
                           (m->mtp_layers == 1 ? " module" : " modules") +
                           " on the last pipeline stage: a transformer block, a projection and a "
                           "second pass through the output head and the loss each",
                 "DeepSeek-V3 report sec. 2.2; Megatron-Core places the modules after the last "
                 "decoder layer"},
                {"TP comm (exposed)", report_human(bd.tp_comm, ReportFormat::seconds),
                 "Korthikanti sec. 4.2.2: all-gather + reduce-scatter per layer on the placed "
                 "fabric"},
                {"PP comm", report_human(bd.pp_comm, ReportFormat::seconds),
                 "Narayanan et al. 2021 sec. 4.1"},
                {"bubble", report_human(bd.bubble, ReportFormat::seconds),
                 "(p - 1) micro-batch times, / v interleaved (Narayanan 2021 sec. 2.2)"},
                {"DP comm (exposed)", report_human(bd.dp_comm, ReportFormat::seconds),
                 std::string(t.zero == 0 ? "all-reduce" : "reduce-scatter + all-gather") +
                     " overlapped with the last backward" +
                     (m->is_moe() ? "; the routed experts over their own data-parallel group "
                                    "(EDP, Megatron-Core parallel folding)"
                                  : "")},
                {"optimizer", report_human(bd.optimizer, ReportFormat::seconds),
                 std::string("memory-bound pass over ") +
                     (t.zero == 0 ? "the whole optimizer state" : "the shard") +
                     (m->is_moe() && t.zero >= 1 ? " (the routed experts' states sharded over EDP)"
                                                 : "")},
                {"best-shape GEMM rate",
                 units::format_si(g->peak(dt) * g->gemm_efficiency(dt), "FLOP/s"),
                 g->achieved_matmul_source.empty() ? src(g->provenance)
                                                   : g->achieved_matmul_source},
                assumption("sustained vs best GEMM", ta.sustained_vs_best_gemm),
                assumption("Hopper/Blackwell vs Ampere, sustained", ta.hopper_sustained_vs_ampere),
                assumption("HBM efficiency", ta.memory_efficiency),
                assumption("SM contention when overlapping", ta.overlap_sm_contention),
                assumption("GPU idle per kernel launched", ta.kernel_gap_s),
                {"FlashAttention efficiency", num(g->attention_efficiency),
                 g->attention_efficiency_source.empty()
                     ? "attention vs GEMM efficiency × GEMM efficiency (assumption)"
                     : g->attention_efficiency_source}};
            // Issue 19: how far to trust it, from comparable published runs held out.
            const auto band = [&](Explanation& e, double v, Scales sc, int dec,
                                  const std::string& unit) {
                if (!w.band)
                    return;
                // dec < 0: seconds, each end as the report rounds a step ("7.44-12.9 s").
                const std::string range = dec < 0
                                              ? range_text(v, *w.band, sc, &units::format_seconds)
                                              : range_text(v, *w.band, sc, dec);
                e.value += " (" + range + unit + ")";
                e.inputs.push_back({"the model's error band", range + unit, w.band->basis});
            };
            step.inputs.push_back(collectives_input(d, &r.traffic));
            if (!r.bottleneck.empty())
                step.inputs.push_back(
                    {"busiest network tier", r.bottleneck,
                     "each parallel group placed on the fabric, its collectives before overlap"});
            band(step, r.step_time_s, Scales::with_time, -1, " s");
            out.push_back(std::move(step));
            const double model_flops = r.model_flops_per_gpu * r.step_time_s * w.gpus;
            Explanation mfu{w.id + ".mfu",
                            w.name,
                            "MFU",
                            pct(r.mfu),
                            "MFU = model FLOPs per step / (step time × GPUs × dense peak); model "
                            "FLOPs = 72 B s L h^2 (1 + s/6h + V/12hL) for GPT shapes, counted per "
                            "operator in general (no recomputation; Korthikanti et al. 2022 eq. 7)",
                            {{"model FLOPs per step", units::format_si(model_flops, "FLOP", 1),
                              "Korthikanti eq. 7 / per-operator count"},
                             {"step time", fixed(r.step_time_s, r.step_time_s < 10 ? 2 : 1) + " s",
                              "the step-time model"},
                             {"GPUs", units::format_count(w.gpus), "placement in the design"},
                             {"dense " + choice_label(to_string(t.dtype)) + " peak",
                              units::format_si(g->peak(dt), "FLOP/s"), src(g->provenance)}}};
            band(mfu, r.mfu * 100, Scales::with_speed, 1, " %");
            out.push_back(std::move(mfu));
            Explanation tps{
                w.id + ".tokens_per_s",
                w.name,
                "Tokens/s",
                units::format_count(r.tokens_per_s),
                "global batch × sequence length / step time",
                {{"global batch",
                  units::format_count(static_cast<double>(t.global_batch)) + " sequences",
                  "design"},
                 {"sequence", units::format_count(static_cast<double>(t.seq)) + " tokens",
                  "design"},
                 {"step time", fixed(r.step_time_s, r.step_time_s < 10 ? 2 : 1) + " s",
                  "the step-time model"}}};
            band(tps, r.tokens_per_s, Scales::with_speed, 0, "");
            out.push_back(std::move(tps));
            if (t.tokens > 0) {
                Explanation ttt{
                    w.id + ".time_to_train",
                    w.name,
                    "Time and cost to train",
                    fixed(r.time_to_train_s / 86400, 1) + " days, " +
                        units::format_count(r.gpu_hours) + " GPU-hours, " + usd(r.cost_usd),
                    "tokens / tokens per second; GPU-hours = time × GPUs; cost = "
                    "GPU-hours × $/GPU-hour",
                    {{"tokens", units::format_tokens(t.tokens), "design"},
                     {"tokens/s", units::format_count(r.tokens_per_s), "above"},
                     {"$/GPU-hour",
                      ev.tco && ev.tco->has_cloud ? usd(ev.tco->cloud_price_per_gpu_hour)
                                                  : std::string("-"),
                      ev.tco && ev.tco->has_cloud ? ev.tco->cloud_price_source
                                                  : std::string("the Cost section")}}};
                if (w.band) { // issue 19: days, GPU-hours and dollars move with the step time
                    const std::string days =
                        range_text(r.time_to_train_s / 86400, *w.band, Scales::with_time, 1) +
                        " days";
                    const std::string hours =
                        range_text(r.gpu_hours, *w.band, Scales::with_time, 0) + " GPU-hours";
                    std::string cost;
                    if (r.cost_usd > 0)
                        cost = ", $" + range_text(r.cost_usd, *w.band, Scales::with_time, 0);
                    ttt.value += " (" + days + ")";
                    ttt.inputs.push_back(
                        {"the model's error band", days + ", " + hours + cost, w.band->basis});
                }
                out.push_back(std::move(ttt));
            }
        }
        if (w.reliability) {
            const auto& r = *w.reliability;
            out.push_back(
                {w.id + ".goodput",
                 w.name,
                 "Goodput and checkpoint interval",
                 // Times as the Reliability caption and the report's tables say them (helper-11:
                 // "1784.2 min" here beside "29.7 h", "delta = 8.0 s" beside "7.96 s", "R = 600
                 // s" beside "10.0 min").
                 pct(r.goodput) + " at " + report_value(r.interval_used_s, "s"),
                 "job MTBF M = 1 / (failure rate × GPUs); Daly 2006 optimum tau = "
                 "sqrt(2 delta M)[1 + 1/3 sqrt(delta/2M) + 1/9 delta/2M] - delta; "
                 "goodput = tau / (M e^(R/M) (e^((tau+delta)/M) - 1))",
                 {{"failure rate",
                   units::format_fixed(r.per_gpu_failures_per_day * 1e6, 1) +
                       " per million GPU-days",
                   r.rate_source},
                  {"job MTBF M", report_value(r.job_mtbf_s / 3600, "h"), "above"},
                  {"checkpoint size", units::format_bytes(r.checkpoint_bytes),
                   "weights + master weights + optimizer states (14 B/param AdamW)"},
                  {"storage bandwidth", units::format_si(r.storage_Bps, "B/s"),
                   "design storage, input, or Llama 3 2 TB/s per 16,384 GPUs"},
                  {"stall per checkpoint delta", report_value(r.checkpoint_stall_s, "s"),
                   d.reliability.async_checkpoint ? "async: snapshot over PCIe (CheckFreq)"
                                                  : "sync: the whole write"},
                  {"restart R", report_value(d.reliability.restart_s, "s"),
                   "the Reliability section's restart time"}}});
        }
        if (w.inference && g) {
            const auto& r = *w.inference;
            const auto& s = spec.inference;
            // The formula as this engine and layout compute it (helper-27: llama.cpp on a
            // GDDR6X card read of HBM, TensorRT-LLM's host time and CUDA graphs).
            const bool mat_vec = std::isinf(gemm_overlap_exponent(s.engine, ia));
            std::string formula =
                mat_vec ? "decode step = per layer max(C, M) of GEMM compute C = 2 × tokens × "
                          "weights / GEMM rate and weight streaming M = weight bytes / memory "
                          "rate"
                        : "decode step = per layer (C^p + M^p)^(1/p) of GEMM compute C = 2 × "
                          "tokens × weights / GEMM rate and weight streaming M = weight bytes / "
                          "memory rate (p: the overlap below)";
            formula += " + max(attention FLOPs / rate, KV bytes / memory rate)";
            if (m && attention_dp_active(*m, s))
                formula += r.busiest_rank_why == DpWait::prompt_steps
                               ? " + a gather and a scatter per MoE layer (attention DP; a step "
                                 "that carries a prompt takes all this / the load balance)"
                               : " + a gather and a scatter per MoE layer (attention DP), the "
                                 "step / its load balance";
            else if (s.tp > 1)
                formula += " + two TP all-reduces per layer";
            if (s.pp > 1)
                formula += " + the activations' hops between pipeline stages";
            if (counts_fixed_kernel_times(s.engine))
                formula += " + every GEMM, attention and elementwise kernel's fixed time (below)";
            if (s.offload_layers > 0)
                formula += " + the layers in system memory read at the host's memory bandwidth "
                           "(prompts of 32 tokens or more stream their weights over the host "
                           "link)";
            if (s.engine == ServingEngine::trtllm)
                formula += ", at least TensorRT-LLM's host time per sequence × sequences (its "
                           "decode-only steps as CUDA graphs of the next captured batch; steps "
                           "that carry a prompt eager, the host also launching every op)";
            if (r.job_makespan_s > 0)
                formula = "a batch job (below), step by step: TTFT = a request's mean time from "
                          "the start to its first token (its wait included), TPOT = its mean "
                          "time per output token after the first; each step: " +
                          formula +
                          ", + step overhead, + the prompts' prefill in steps that "
                          "carry them";
            else if (s.batching == Batching::disaggregated)
                formula += ", + step overhead; disaggregated: the prompts prefill on a pool of "
                           "their own, so TPOT = the step; TTFT = prefill + the KV cache's "
                           "transfer to the decode GPUs (over the scale-out network, or NVLink "
                           "within one domain; Zhong et al. 2024, DistServe)";
            else
                formula += ", + step overhead; TPOT = (the other sequences' batched prefill, (b "
                           "- 1) / b of it, + output tokens × step) / output tokens with "
                           "continuous batching (one stream: the step); TTFT = prefill + one "
                           "step (+ queueing online)";
            const ModelArch* draft =
                s.speculative_draft.empty() ? nullptr : find_model(d, c, s.speculative_draft);
            if (draft)
                formula += "; with speculative decoding a token costs (k × the draft's step + "
                           "the target's pass over k + 1 tokens) / E, E = (1 - a^(k+1)) / (1 - "
                           "a) tokens a step (Leviathan et al. 2023, eq. 1)";
            out.push_back(
                {w.id + ".tpot",
                 w.name,
                 "TTFT and TPOT",
                 units::format_latency(r.ttft_s) + " / " + units::format_latency(r.tpot_s),
                 formula,
                 {{"batch",
                   units::format_count(static_cast<double>(r.batch)) +
                       (r.batch == 1 ? " sequence" : " sequences"),
                   // What set it (helper-44: an FP8 -> FP4 switch lowered tokens/s because
                   // the SLO picked a smaller batch, and nothing said so).
                   batch_limit_words(r, s,
                                     engine_max_num_seqs(d.assumptions.memory, s.engine, *g) *
                                         (m && attention_dp_active(*m, s) ? s.tp : 1))},
                  g->decode_memory_factor != 1
                      ? ExplainedInput{"memory bandwidth",
                                       units::format_si(g->memory_bandwidth_Bps, "B/s") + " × " +
                                           fixed(g->decode_memory_factor, 2) +
                                           " (one stream across the dies)",
                                       g->decode_memory_factor_source}
                      : ExplainedInput{"memory bandwidth" + (g->memory_type.empty()
                                                                 ? std::string()
                                                                 : " (" + g->memory_type + ")"),
                                       units::format_si(g->memory_bandwidth_Bps, "B/s"),
                                       src(g->provenance)},
                  s.engine == ServingEngine::llamacpp
                      ? assumption("memory efficiency (llama.cpp)", ia.llamacpp_memory_efficiency)
                  : s.engine == ServingEngine::mlx
                      ? assumption("memory efficiency (MLX)", ia.mlx_memory_efficiency)
                      : assumption("HBM efficiency", ia.memory_efficiency),
                  assumption("step overhead", ia.step_overhead_s),
                  std::isinf(gemm_overlap_exponent(s.engine, ia))
                      ? ExplainedInput{"GEMM compute and memory overlap",
                                       "the larger of the two (roofline)",
                                       "llama.cpp and MLX matrix-vector kernels (ClusterLens "
                                       "guide, Validation)"}
                      : assumption("GEMM compute and memory overlap", ia.roofline_overlap_exponent),
                  {"weights", weights_text(s.weights_dtype, *g), "design"},
                  {"input / output",
                   units::format_count(static_cast<double>(s.input_len)) + " / " +
                       units::format_count(static_cast<double>(s.output_len)),
                   "design"}}});
            // The CUDA-graph engines' fixed kernel times (session 50).
            if (counts_fixed_kernel_times(s.engine)) {
                out.back().inputs.push_back(
                    assumption("fixed time per GEMM kernel", ia.gemm_fixed_s));
                out.back().inputs.push_back(
                    assumption("fixed time per attention kernel", ia.attention_fixed_s));
                out.back().inputs.push_back(
                    assumption("fixed time per elementwise kernel", ia.elementwise_fixed_s));
                if (m) {
                    // What the count is made of, so a user can check it against the engine.
                    const bool moe = m->is_moe();
                    const double n = elementwise_kernels_per_layer(*m, s.engine, moe);
                    const std::string parts = elementwise_kernels_parts(*m, s.engine, moe);
                    out.back().inputs.push_back(
                        {std::string("elementwise kernels per ") + (moe ? "MoE " : "") + "layer",
                         units::format_count(n) + " (" + parts + ")",
                         "the engine's model code (ClusterLens guide, Inference: Fixed kernel "
                         "times)"});
                }
            }
            // An MXFP4 checkpoint's experts on datacenter Blackwell: the trtllm-gen fused MoE's
            // own rate (session 51), in place of the NVFP4 grouped GEMM's below.
            const bool mxfp4_moe = m && mxfp4_moe_kernels(*m, s, *g, ia);
            // Native FP4 GEMMs stream their weights at their own measured rate (session 36) --
            // listed where some weight streams at it: not for gpt-oss, whose FP4 is only in the
            // experts (16-bit attention, no dense MLP, no shared expert).
            const bool fp4_dense =
                !m || !mxfp4_moe || fp4_attention_of(*m, s) != Fp4Attention::bf16 ||
                m->moe_layers_in(0, m->layers) < m->layers || m->shared_experts > 0;
            if (s.weights_dtype == WeightsDtype::fp4 && g->peak(Dtype::fp4) > 0 && fp4_dense)
                out.back().inputs.push_back(
                    g->fp4_weight_stream_efficiency > 0
                        ? ExplainedInput{"NVFP4 GEMM weight streaming",
                                         fixed(g->fp4_weight_stream_efficiency * 100, 0) +
                                             " % of " +
                                             units::format_si(g->memory_bandwidth_Bps, "B/s"),
                                         "catalog: " + g->name + " (" +
                                             g->fp4_weight_stream_source + ")"}
                        : assumption("NVFP4 GEMM weight streaming",
                                     ia.fp4_weight_stream_efficiency));
            // Which attention projections an NVFP4 checkpoint leaves in 16 bits (session 45).
            if (s.weights_dtype == WeightsDtype::fp4 && m) {
                const Fp4Attention fa = fp4_attention_of(*m, s);
                const std::string fmt = m->fp4_format == Fp4Format::mxfp4 ? "MXFP4" : "NVFP4";
                const std::string what = fa == Fp4Attention::bf16 ? "16 bits (BF16)"
                                         : fa == Fp4Attention::bf16_except_output
                                             ? "16 bits but the output projection (" + fmt + ")"
                                             : fmt + ", as the other layers";
                out.back().inputs.push_back({"attention projections", what,
                                             s.fp4_attention == Fp4Attention::checkpoint
                                                 ? "as the published " + fmt + " checkpoint of " +
                                                       m->name + " (catalog model entry)"
                                                 : "design"});
            }
            if (mxfp4_moe)
                out.back().inputs.push_back(
                    assumption("MXFP4 MoE weight streaming", ia.mxfp4_moe_stream_efficiency));
            // ... and, for the routed experts on the GPU that rate was measured on, by their
            // size (session 41).
            if (s.weights_dtype == WeightsDtype::fp4 && g->peak(Dtype::fp4) > 0 &&
                !(g->fp4_weight_stream_efficiency > 0) && m && m->experts > 0 && !mxfp4_moe) {
                out.back().inputs.push_back(
                    assumption("NVFP4 grouped GEMM: fixed cost per expert matrix",
                               ia.fp4_grouped_matrix_fixed_bytes));
                // The measured grouped-GEMM law applies where every GPU holds a slice of every
                // expert (EP 1).
                if (expert_parallel_size(*m, s) == 1) {
                    out.back().inputs.push_back(
                        assumption("NVFP4 grouped GEMM (MoE) rate", ia.fp4_grouped_gemm_flops));
                    out.back().inputs.push_back(assumption(
                        "NVFP4 grouped GEMM: per-tile cost (K elements)", ia.fp4_grouped_gemm_k0));
                    out.back().inputs.push_back(
                        assumption("MoE routing per token", ia.moe_routing_s_per_token));
                    out.back().inputs.push_back(assumption(
                        "MoE routing per token and expert choice", ia.moe_routing_s_per_choice));
                }
            }
            // Collectives only where a replica has some (one GPU has none: helper-27), and
            // only those NCCL's model times: session 44's TP all-reduces timed as the engine's
            // own kernel was measured say so instead.
            const EngineAllReduce* measured =
                m ? serving_tp_allreduce(*m, s, *g, ev.fabric, ev.collective_assumptions) : nullptr;
            if (s.tp * s.pp > 1 && (!measured || s.pp > 1))
                out.back().inputs.push_back(collectives_input(d, &r.traffic));
            if (measured)
                out.back().inputs.push_back(
                    {"TP all-reduce",
                     "measured in " + engine_allreduce_label(*measured) + " on " +
                         std::to_string(measured->gpus) + " × " + g->name,
                     "catalog: " + g->name + " (" + g->engine_allreduce_source + ")"});
            if (s.engine == ServingEngine::trtllm)
                out.back().inputs.push_back(
                    g->grace_host
                        ? assumption("host time per sequence (Grace)",
                                     ia.trtllm_host_s_per_sequence_grace)
                        : assumption("host time per sequence", ia.trtllm_host_s_per_sequence));
            if (draft) {
                auto& in = out.back().inputs;
                in.push_back({"draft model", draft->name, "design (speculative draft)"});
                in.push_back(
                    {"draft tokens a step (k)", std::to_string(s.speculative_k), "design"});
                in.push_back({"acceptance rate (a)", pct(s.acceptance), "design"});
                in.push_back({"tokens a target step (E)",
                              fixed(speculative_tokens_per_step(s.acceptance, s.speculative_k), 2),
                              "Leviathan et al. 2023 (arXiv:2211.17192) eq. 1"});
                // c as a number (helper-45: the row read "the draft model's own step").
                in.push_back(ia.draft_cost_ratio.value > 0
                                 ? assumption("draft step / target step (c)", ia.draft_cost_ratio)
                                 : ExplainedInput{"draft step / target step (c)",
                                                  fixed(r.draft_step_ratio, 2),
                                                  "the draft model's own decode step over the "
                                                  "target's at batch 1 (c of Leviathan et al. "
                                                  "2023, sec. 3.4)"});
                in.push_back({"speed-up at batch 1", fixed(r.speculative_speedup, 2) + " ×",
                              "the step without the draft over the step with it"});
                in.push_back({"speed-up at batch " + units::format_count(r.batch),
                              fixed(r.speculative_speedup_at_batch, 2) + " ×",
                              "the same at the operating batch, where the target verifies k + 1 "
                              "tokens of every sequence (below 1: slower than without the draft)"});
            }
            if (s.batching == Batching::disaggregated)
                out.back().inputs.push_back(
                    {"batching", "disaggregated: prefill on its own pool",
                     "design; its GPUs are counted in GPUs needed and in the tokens a GPU"});
            if (host_sets_step(r))
                out.back().inputs.push_back(
                    {"decode step (host-bound)",
                     units::format_latency(r.decode_step_s) + ", the GPU's work " +
                         units::format_latency(r.decode_step_gpu_s),
                     "TensorRT-LLM's executor prepares every sequence of a step on one Python "
                     "thread (host time per sequence × sequences, and the eager steps' "
                     "launches): the step takes the longer of it and the GPU's work"});
            if (s.engine == ServingEngine::trtllm) {
                out.back().inputs.push_back(
                    {"CUDA-graph padding", ia.trtllm_cuda_graph_padding.value >= 0.5 ? "on" : "off",
                     ia.trtllm_cuda_graph_padding.source});
                out.back().inputs.push_back(
                    m && m->trtllm_eager_ops_per_layer > 0
                        ? ExplainedInput{"eager ops per layer",
                                         report_value(m->trtllm_eager_ops_per_layer, "ops"),
                                         "this model's own count (model zoo entry): "
                                         "TensorRT-LLM's modules for it, counted"}
                        : assumption("eager ops per layer", ia.trtllm_eager_ops_per_layer));
                out.back().inputs.push_back(assumption(
                    g->grace_host ? "host time per eager op (Grace)" : "host time per eager op",
                    trtllm_eager_s_per_op(s, *g, ia)));
            }
            if (m && attention_dp_active(*m, s)) {
                out.back().inputs.push_back(
                    assumption("attention-DP load balance", ia.attention_dp_balance));
                // Which steps it slows, and why (session 55: decode-only steps of a steady state
                // pad every rank to the largest one's CUDA graph and run balanced; helper-48:
                // "every step" had one reason for four causes).
                std::string value = "every step", why;
                const std::string share_rule =
                    "the share of steps that carry a prompt: prompts that start a step (batch / "
                    "output tokens) × the steps each takes (input tokens / token budget, rounded "
                    "up)";
                switch (r.busiest_rank_why) {
                case DpWait::prompt_steps:
                    value = pct(r.busiest_rank_step_share) + " (those that carry a prompt)";
                    why = "TensorRT-LLM pads every rank's decode-only step to the largest rank's "
                          "CUDA-graph batch (its CUDA-graph runner, v1.0 on); a prompt runs on "
                          "one rank while the others decode; " +
                          share_rule;
                    break;
                case DpWait::every_step_has_prompt:
                    value = "every step (each carries a prompt at this batch)";
                    why = "TensorRT-LLM's decode-only steps run balanced, but at batch " +
                          units::format_count(static_cast<double>(r.batch)) +
                          " every step carries a prompt: " + share_rule;
                    break;
                case DpWait::batch_job:
                    why = "a batch job: TensorRT-LLM tech blog 10 measured the ratio on an offline "
                          "batch, every step";
                    break;
                case DpWait::assumption_off:
                    why = "Balanced decode (TensorRT-LLM) is off in the design's assumptions: "
                          "every step charged";
                    break;
                default:
                    why = "no padding rule is known for this engine: every step charged";
                    break;
                }
                out.back().inputs.push_back({"steps that wait for the busiest GPU", value, why});
                // What it buys (session 56, helper-48: at a fixed batch it reads slower).
                if (r.max_batch_without_attention_dp > 0)
                    out.back().inputs.push_back(
                        {"sequences memory holds",
                         units::format_count(static_cast<double>(r.memory.max_batch)) +
                             " with attention DP, " +
                             units::format_count(
                                 static_cast<double>(r.max_batch_without_attention_dp)) +
                             " without",
                         "each GPU keeps only its own sequences' KV cache (all KV heads of 1 / TP "
                         "of them) and the attention, dense and shared weights whole; plain TP "
                         "splits those weights and every sequence's heads"});
            }
            if (m && m->is_moe() && s.tp > 1) {
                // How the routed experts are split (session 53: EP without attention DP).
                const int ep = expert_parallel_size(*m, s), etp = s.tp / std::max(1, ep);
                const std::string n = std::to_string(ep), t = std::to_string(etp);
                out.back().inputs.push_back(
                    {"routed experts",
                     ep == 1    ? "every expert split over the " + t + " TP GPUs (EP 1)"
                     : etp == 1 ? "split by expert over " + n + " GPUs, whole (EP " + n + ")"
                                : "split by expert over " + n + " GPUs and each by tensor over " +
                                      t + " (EP " + n + " × expert TP " + t + ")",
                     s.ep > 0 ? "design (Expert parallel)"
                              : "the engine's default (Expert parallel: Engine default)"});
                if (ep > 1 && !attention_dp_active(*m, s))
                    out.back().inputs.push_back(
                        {"busiest GPU's expert reads",
                         fixed(ep_busiest_experts(*m, ep, r.batch), 2) + " × the mean at batch " +
                             units::format_count(static_cast<double>(r.batch)),
                         "each GPU's " + std::to_string(m->experts / ep) +
                             " experts touched by the batch's top-" + std::to_string(m->top_k) +
                             " choices at random (uniform routing): the expected busiest of " + n +
                             " GPUs; a step waits for it"});
            }
            if (m && s.offload_layers > 0) {
                // llama.cpp partial offload: which layers run where, and at what bandwidth.
                const int off = std::min(s.offload_layers, m->layers);
                out.back().inputs.push_back({"layers in system memory",
                                             std::to_string(off) + " of " +
                                                 std::to_string(m->layers) +
                                                 " (the rest on the device)",
                                             "design: offload layers (llama.cpp --n-gpu-layers " +
                                                 std::to_string(m->layers - off) + ")"});
                out.back().inputs.push_back(
                    assumption("host memory bandwidth", ia.host_memory_bandwidth_Bps));
                if (!g->unified_memory && g->host_link_Bps > 0)
                    out.back().inputs.push_back(
                        {"host link (one way)", units::format_si(g->host_link_Bps, "B/s"),
                         "catalog: the card's host link; prompts of 32 tokens or more stream the "
                         "offloaded weights over it"});
            }
            if (r.queue_wait_s >= 0.5e-6) // as the chart's caption: not "0.000 ms"
                out.back().inputs.push_back({"queue wait (mean, in TTFT)",
                                             units::format_latency(r.queue_wait_s),
                                             "online: a request waits for a slot at the request "
                                             "rate (GPUs needed, below)"});
            if (!r.bottleneck.empty())
                out.back().inputs.push_back(
                    {"busiest network tier", r.bottleneck,
                     "one replica's TP and PP groups placed on the fabric, per decode step"});
            if (w.band) { // issue 19
                auto& e = out.back();
                const std::string both = "TTFT " + latency_range_text(r.ttft_s, *w.band) +
                                         ", TPOT " + latency_range_text(r.tpot_s, *w.band);
                e.value += " (" + both + ")";
                e.inputs.push_back(
                    {"the model's error band", both, w.band->basis + "; " + kLatencyBasis});
            }
            if (r.job_makespan_s > 0) {
                // Session 36: a batch job of requests, run step by step (batch_job_run).
                const double budget = d.assumptions.memory.max_batched_tokens.value;
                out.push_back(
                    {w.id + ".batch_job",
                     w.name,
                     "Batch job",
                     units::format_count(static_cast<double>(s.requests)) + " requests in " +
                         units::format_duration(r.job_makespan_s),
                     "all requests waiting at the start; each step admits them while the batch "
                     "has room and the step's token budget, beside the decoding sequences, "
                     "takes their prompts (whole prompts; chunks with chunked prefill; a batch "
                     "at a time with static batching); a step = the decodes' step + the "
                     "prompts' GPU time; makespan = the sum of the steps to the last request's "
                     "end; output tokens/s = requests × output tokens / makespan",
                     {{"requests",
                       units::format_count(static_cast<double>(s.requests)) +
                           (r.job_requests_per_replica < r.job_requests
                                ? " (" +
                                      units::format_count(
                                          static_cast<double>(r.job_requests_per_replica)) +
                                      " per replica)"
                                : std::string()),
                       "design: requests in the batch job, spread evenly over the replicas"},
                      {"in flight at most",
                       units::format_count(static_cast<double>(r.batch)) + " sequences",
                       "the operating batch (above)"},
                      {"token budget per step",
                       units::format_count(budget) + " tokens" +
                           (m && attention_dp_active(*m, s) ? " per GPU (attention DP)" : ""),
                       d.assumptions.memory.max_batched_tokens.source},
                      {"sequences decoding per step (mean)", units::format_count(r.job_mean_batch),
                       "simulated"},
                      {"steps", units::format_count(static_cast<double>(r.job_steps)), "simulated"},
                      {"first token after (mean)", units::format_duration(r.job_mean_ttft_s),
                       "simulated, from the start"},
                      {"output tokens/s per replica", units::format_count(r.output_tokens_per_s),
                       "requests × output tokens / makespan"}}});
            }
            if (r.gpus_needed > 0) {
                // Online: the answer journey 3 asks for, worked out (helper-31: the caption said
                // "172 GPUs for the request rate" and Explain had no entry for it).
                const int per = s.tp * s.pp;
                std::vector<ExplainedInput> ins = {
                    {"request rate", units::format_fixed(s.request_rate, 1) + " requests/s",
                     "design"},
                    {"one replica's capacity",
                     units::format_fixed(r.capacity_rps, 2) + " requests/s at batch " +
                         units::format_count(static_cast<double>(r.batch)),
                     "the largest batch whose TPOT and TTFT stay within the targets"},
                    {"replicas",
                     units::format_count(r.replicas_needed) + " (each loaded " +
                         pct(r.utilization) + ")",
                     "the fewest with rate / replicas below one replica's capacity and TTFT + "
                     "queue wait within its target"},
                    {"queue wait (mean)", units::format_latency(r.queue_wait_s),
                     "M/D/c queue per replica, a slot per sequence of the batch (Cosmetatos 1976; "
                     "Erlang C halved for deterministic service)"},
                    {"GPUs per replica", std::to_string(per), "TP × PP"}};
                if (r.prefill_replicas_needed > 0)
                    ins.push_back({"prefill replicas",
                                   units::format_count(r.prefill_replicas_needed),
                                   "disaggregated: enough to prefill the request rate, a step's "
                                   "tokens at a time (DistServe, Zhong et al. 2024)"});
                out.push_back({w.id + ".gpus_needed", w.name, "GPUs needed",
                               units::format_count(r.gpus_needed),
                               r.prefill_replicas_needed > 0
                                   ? "(decode replicas + prefill replicas) × GPUs per replica"
                                   : "replicas × GPUs per replica",
                               std::move(ins)});
            }
            if (r.usd_per_million_output_tokens > 0)
                out.push_back({w.id + ".usd_per_mtok",
                               w.name,
                               "$ per million output tokens",
                               usd(r.usd_per_million_output_tokens),
                               "GPU-hour price × GPUs per replica × decode share of the time / "
                               "(output tokens per second × 3600) × 1,000,000",
                               {{"output tokens/s per replica",
                                 units::format_count(r.output_tokens_per_s), "above"},
                                {"GPUs per replica", std::to_string(s.tp * s.pp), "TP × PP"},
                                // The share the formula names (helper-12: not listed, the
                                // number could not be worked from the inputs shown).
                                {"decode share of the time",
                                 units::format_fixed(100.0 * r.decode_share, 1) + " %",
                                 "the decode steps' part of a batch's GPU time; the prompts' "
                                 "prefill is charged to input tokens"},
                                {"$/GPU-hour",
                                 ev.tco && ev.tco->has_cloud ? usd(ev.tco->cloud_price_per_gpu_hour)
                                                             : std::string("-"),
                                 ev.tco && ev.tco->has_cloud ? ev.tco->cloud_price_source
                                                             : std::string("the Cost section")}}});
            if (r.usd_per_million_output_tokens > 0 && w.band) { // issue 19
                auto& e = out.back();
                // Each end as every price is shown (units::format_price: "$0.412-0.763").
                const std::string range = "$" + range_text(r.usd_per_million_output_tokens, *w.band,
                                                           Scales::with_time, &units::format_price);
                e.value += " (" + range + ")";
                e.inputs.push_back({"the model's error band", range, w.band->basis});
            }
        }
    }
    if (ev.tco) {
        const auto& t = *ev.tco;
        const auto& e = d.economics;
        out.push_back(
            {"design.tco",
             d.name,
             "Cloud vs on-prem",
             // Issue 21: a side that could not be costed says so instead of a $0.
             "cloud " + (t.has_cloud ? usd(t.cloud_usd) : std::string("not costed")) +
                 ", on-prem " + (t.has_onprem ? usd(t.onprem_usd) : std::string("not costed")) +
                 (!t.has_cloud || !t.has_onprem ? std::string(", no break-even without both")
                  : t.breakeven_months >= 0
                      ? ", break-even month " + std::to_string(t.breakeven_months)
                      : std::string(", no break-even")),
             "cloud = GPUs × 730 h × months × rate (× utilization unless committed); on-prem = "
             "capex (servers + network + storage) + months × (IT kW × avg fraction × PUE × 730 h "
             "× $/kWh + IT kW × colo + staff/12 + maintenance × capex/12); break-even = first "
             "month on-prem \u2264 cloud",
             {{"cloud rate",
               t.has_cloud ? usd(t.cloud_price_per_gpu_hour) + "/GPU-hour" : "not costed",
               t.has_cloud ? t.cloud_price_source : t.cloud_missing},
              {"servers", t.has_onprem ? usd(t.onprem_breakdown.servers) : "not costed",
               t.has_onprem ? "catalog system prices" : t.onprem_missing},
              {"network", usd(t.onprem_breakdown.network),
               "drawn switches and cables (ClusterLens guide, Cost)"},
              {"IT power", units::format_kw(t.it_power_peak_kw) + " kW", "catalog system power"},
              {"PUE", units::format_g(e.pue, 3),
               "the Cost section (default: new large facilities, Uptime Institute)"},
              {"electricity", usd(e.power_usd_per_kwh) + "/kWh",
               "the Cost section (default: EIA 2023)"},
              {"colocation", usd(e.colo_usd_per_kw_month) + "/kW-month",
               "the Cost section (default: CBRE H2 2024)"},
              // The utilization billed: the Fleet simulation's when it feeds the TCO
              // (helper-36: the derivation said the typed 80 % while 63.9 % was billed).
              {"utilization", pct(t.utilization),
               t.utilization_source == "economics.utilization"
                   ? std::string("the Cost section")
                   : t.utilization_source + " (the Fleet section bills it; the typed " +
                         pct(e.utilization) + " is not used)"},
              {"months", std::to_string(e.months), "the Cost section"}}});
    }
    return out;
}

namespace {
/// A field's value as a report shows it: the inspector's display unit, human formats.
std::string shown_value(const Field& f, const FieldValue& v) {
    if (!std::holds_alternative<double>(v))
        return format_value(f, v);
    const double x = std::get<double>(v);
    // Percentages read one way in every table: report_value's "35.5 %", "80 %" (helper-9:
    // "35.50 %" in the assumptions beside "64.0 %" in the sensitivity table).
    if (f.unit != "bytes" && f.unit != "B/s" && f.unit != "s" && !f.display_unit.empty() &&
        f.display_unit[0] != '%' && f.display_scale != 0 && f.display_scale != 1)
        return report_human(x / f.display_scale, ReportFormat::number) + " " + f.display_unit;
    return report_value(x, f.unit);
}
} // namespace

std::vector<AssumptionRow> assumptions(const Design& d, const Evaluation* ev, const Catalog* c) {
    // From the schema: the model's assumptions, then the design's cost and reliability inputs.
    // Inputs that differ from their default come first (issue #21 asks reports to lead with
    // what the user changed) and say so in their source.
    std::vector<AssumptionRow> changed, unchanged;
    // An input at its default that no workload of the design uses is left out (helper-18: a
    // training report listed ~15 serving and llama.cpp assumptions); a changed one always shows.
    // An engine's own settings only for the engines the design serves with (helper-3: a vLLM
    // report listed SGLang, TensorRT-LLM, llama.cpp and macOS settings).
    bool trains = false, serves = false, unified = false;
    std::array<bool, ChoiceNames<ServingEngine>::names.size()> engine{};
    for (const auto& w : d.workloads) {
        trains = trains || w.kind == WorkloadKind::training;
        if (w.kind == WorkloadKind::inference) {
            serves = true;
            engine[static_cast<std::size_t>(w.inference.engine)] = true;
        }
    }
    if (c)
        for (const auto& dev : d.devices)
            if (const auto* g = c->gpu(dev.catalog); g && g->unified_memory)
                unified = true;
    const auto uses = [&](ServingEngine e) { return engine[static_cast<std::size_t>(e)]; };
    const bool llamacpp = uses(ServingEngine::llamacpp);
    const bool gpu_engine =
        uses(ServingEngine::vllm) || uses(ServingEngine::sglang) || uses(ServingEngine::trtllm);
    const auto relevant = [&](const Field& f) {
        const std::string& k = f.key;
        const std::string group = k.substr(0, k.find('.'));
        if (k == "memory.gpu_memory_utilization")
            return uses(ServingEngine::vllm);
        if (k == "memory.sglang_mem_fraction_static")
            return uses(ServingEngine::sglang);
        if (k.rfind("memory.trtllm_", 0) == 0 || k.rfind("inference.trtllm_", 0) == 0)
            return uses(ServingEngine::trtllm);
        if (k == "memory.kv_block_tokens")
            return uses(ServingEngine::vllm) || uses(ServingEngine::sglang);
        if (k == "memory.max_batched_tokens")
            return gpu_engine;
        if (k.rfind("memory.llamacpp_", 0) == 0 || k == "inference.llamacpp_memory_efficiency" ||
            k == "inference.host_memory_bandwidth_Bps" || k == "inference.numa_nodes_used")
            return llamacpp;
        if (k.rfind("memory.mlx_", 0) == 0 || k == "inference.mlx_memory_efficiency")
            return uses(ServingEngine::mlx);
        if (k == "memory.unified_memory_gpu_fraction")
            return serves && (unified || !c);
        if (group == "inference")
            return serves;
        if (group == "training")
            return trains;
        if (group == "memory") // the framework's own memory and FlashAttention serve both
            return serves || k == "memory.framework_overhead_bytes" ||
                   k == "memory.flash_attention";
        return true;
    };
    for (Section sec :
         {Section::assumptions, Section::economics, Section::reliability, Section::fleet}) {
        // The job mix when the design has one (helper-36: the report never said what the
        // fleet simulation ran): what was changed, and the run's policy, days and seed.
        if (sec == Section::fleet && !d.fleet.active())
            continue;
        for (const Field* f : section_fields(sec)) {
            const FieldValue v = f->get(d, "");
            const bool is_default = v == f->default_value;
            if (sec == Section::fleet && is_default && f->key != "policy" &&
                f->key != "horizon_days" && f->key != "warmup_days" && f->key != "seed")
                continue;
            if (is_default && sec == Section::assumptions && !d.workloads.empty() && !relevant(*f))
                continue;
            // Reliability inputs at their defaults matter to training runs and the fleet's
            // failures, not to a design that only serves (helper-9).
            if (is_default && sec == Section::reliability && !d.workloads.empty() && !trains &&
                !d.fleet.active())
                continue;
            std::string group = sec == Section::economics     ? "cost"
                                : sec == Section::fleet       ? "fleet"
                                : sec == Section::reliability ? "reliability"
                                                              : f->key.substr(0, f->key.find('.'));
            // The CSV's value: SI number or the choice's spelling (machine-readable); `shown` is
            // the report's.
            std::string value = std::holds_alternative<double>(v)
                                    ? units::format_plain(std::get<double>(v))
                                : std::holds_alternative<std::string>(v) ? std::get<std::string>(v)
                                                                         : format_value(*f, v);
            AssumptionRow row{std::move(group),
                              f->label,
                              std::move(value),
                              f->unit,
                              is_default ? f->source : f->source + " (changed in this design)",
                              shown_value(*f, v),
                              {}};
            if (ev && !f->unset.empty() && std::holds_alternative<double>(v) &&
                std::get<double>(v) == 0) {
                // The CSV carries the value used too, and says it was derived (helper-24: the
                // finance CSV read "Cloud price,0" beside the PDF's "Auto: $7.91/GPU-hour").
                row.shown_source = "default: " + row.source;
                row.source = "auto (" + f->unset + "); default: " + row.source;
                if (const auto used = unset_value(*f, *ev)) {
                    row.shown = "Auto: " + report_value(*used, f->unit) + ", " + f->unset;
                    row.value = units::format_plain(*used);
                } else {
                    row.shown = "Auto: " + f->unset;
                    row.value.clear();
                }
            }
            // A typed utilization the fleet's replaces in the TCO says so (helper-36: the report
            // listed "Utilization 80.0 %" while 63.9 % was billed).
            if (ev)
                if (const OverrideText o = override_text(*f, *ev); !o.label.empty()) {
                    row.shown += " (" + o.label + ")";
                    row.shown_source = o.full;
                }
            // The offer by its name, as the chart names it ("AWS p5.48xlarge", not its id).
            if (ev && ev->tco && f->key == "cloud_offer" && !ev->tco->cloud_offer_name.empty())
                row.shown = !ev->tco->has_cloud && std::get<std::string>(v).empty()
                                // helper-10: "the cheapest: typed price" beside "no cloud price"
                                ? std::string("none: no cloud offer rents these GPUs")
                                : std::get<std::string>(v).empty()
                                      ? "the cheapest: " + ev->tco->cloud_offer_name
                                      : ev->tco->cloud_offer_name;
            // A chosen offer's source is its price list, not the default's rule (helper-9: "AWS
            // p5en.48xlarge" beside "none chosen: the cheapest offer ... (changed)").
            if (f->key == "cloud_offer" && c && std::holds_alternative<std::string>(v))
                if (const CloudOffer* o = c->cloud(std::get<std::string>(v)); o) {
                    std::string src = "chosen in this design";
                    if (!o->provenance.source.empty())
                        src += "; price: " + units::readable_source(o->provenance.source.front());
                    if (!o->price_as_of.empty())
                        src += " (as of " + o->price_as_of + ")";
                    row.source = src;
                }
            (is_default ? unchanged : changed).push_back(std::move(row));
        }
    }
    std::vector<AssumptionRow> rows = std::move(changed);
    rows.insert(rows.end(), unchanged.begin(), unchanged.end());
    if (trains || d.fleet.active() || d.workloads.empty())
        rows.push_back(
            {"reliability",
             "Default failure rate",
             num(kLlama3FailuresPerGpuDay, 3),
             "per GPU-day",
             "Llama 3 (Grattafiori et al. 2024 sec. 3.3.4): 419 / (16,384 × 54)",
             units::format_fixed(kLlama3FailuresPerGpuDay * 1e6, 1) + " per million GPU-days",
             {}});
    return rows;
}

} // namespace cl::model
