#pragma once
// Inference serving: prefill and decode times from per-operator rooflines with measured GEMM
// efficiency, TP all-reduce on the fabric, batching policies, speculative decoding, offline
// max-throughput and online SLO sizing, cost per million tokens. docs/inference.md.

#include "model/collective.h"
#include "model/memory.h"
#include "model/topology.h"

#include <string>
#include <string_view>
#include <vector>

namespace cl::model {

/// Which attention-DP steps wait for the busiest rank, and why (InferenceResult).
enum class DpWait {
    none,                  ///< no attention DP
    prompt_steps,          ///< TensorRT-LLM's steady state: the steps that carry a prompt
    every_step_has_prompt, ///< ... where at this batch every step carries one
    batch_job,             ///< every step of a batch job (tech blog 10 measured an offline batch)
    engine,                ///< another engine: no padding rule known, every step
    assumption_off,        ///< inference.attention_dp_balanced_decode turned off
};

struct InferenceResult {
    double ttft_s = 0, tpot_s = 0;
    double output_tokens_per_s = 0; ///< one replica
    double output_tokens_per_s_per_gpu = 0;
    double prefill_s = 0;     ///< one request's prompt, alone
    double decode_step_s = 0; ///< one decode step at the operating batch
    /// The same step without the engine's host time (TensorRT-LLM's Python executor: its host
    /// time per sequence and its eager launches): the GPU's work alone. Where it is below
    /// decode_step_s the host sets the step (helper-44: GB200 at a third of B200's tokens a GPU
    /// with no word why). 0 for engines the model charges no host time.
    double decode_step_gpu_s = 0;
    int batch = 0;                                 ///< concurrent sequences at the operating point
    BatchLimit batch_limit = BatchLimit::kv_cache; ///< what set `batch`
    /// MoE models: the GPUs the routed experts are split over by expert (expert_parallel_size:
    /// the workload's EP or the engine's default); 1 for a dense model.
    int expert_parallel = 1;
    /// The GPUs each routed expert is split over by tensor (TP / expert_parallel: TensorRT-LLM's
    /// moe_tp_size); 1 for whole experts and for a dense model.
    int expert_tp = 1;
    /// Attention DP: a step that waits for the busiest GPU over the balanced step
    /// (1 / attention_dp_balance: every MoE layer waits for it; which steps do:
    /// busiest_rank_step_share); 1 without it. Said beside the numbers it moves (helper-46:
    /// TTFT and $/M changed with attention DP with no word why).
    double busiest_rank = 1;
    /// Attention DP: the share of steps that wait for the busiest rank (every step of a batch
    /// job, and with engines other than TensorRT-LLM; in TensorRT-LLM's steady state the steps
    /// that carry a prompt, its decode-only steps padding every rank to the largest rank's CUDA
    /// graph); 0 without attention DP.
    double busiest_rank_step_share = 0;
    /// Why: the steps that carry a prompt (TensorRT-LLM's steady state), or every step -- a batch
    /// job, an engine without a known padding rule, the assumption turned off, or a prompt in
    /// every step at this batch.
    DpWait busiest_rank_why = DpWait::none;
    /// Attention DP: the most sequences memory holds without it (plain TP, the same EP), to set
    /// beside memory.max_batch; filled by evaluate() and the CLI (max_batch_without_attention_dp),
    /// not by infer() -- what attention DP buys (helper-48: at a fixed batch it reads
    /// slower, and nothing said it holds several times the batch); 0 without attention DP or
    /// where plain TP cannot run (the heads do not divide).
    int max_batch_without_attention_dp = 0;
    /// Expert parallelism without attention DP: the busiest GPU's routed-expert reads over the
    /// mean at the operating batch (ep_busiest_experts); 1 at EP 1.
    double busiest_expert_reads = 1;
    double usd_per_million_output_tokens = 0, usd_per_million_input_tokens = 0;
    /// GPU-hours of decode per million output tokens at the operating point (the prompts'
    /// prefill is the input tokens'): any $/GPU-hour times this is its $ per million output
    /// tokens, the cloud's and the owned cluster's alike.
    double gpu_hours_per_million_output_tokens = 0;
    /// The decode steps' part of the replica's GPU time at the operating point, the part
    /// gpu_hours_per_million_output_tokens (and $/M output tokens) charges; the prompts' prefill
    /// is the input tokens'.
    double decode_share = 0;
    double gpus_needed = 0;         ///< online mode: for the request rate under the SLOs
    double speculative_speedup = 1; ///< decode speedup from speculative decoding (batch 1)
    /// Speculative decoding: the same at the operating batch, where verifying k + 1 tokens a
    /// sequence costs more (helper-45: 10,409 -> 7,722 tokens/s at the operating batch while
    /// the caption said 2.8x faster at batch 1); 1 without a draft.
    double speculative_speedup_at_batch = 1;
    /// Speculative decoding: the draft's step over the target's at batch 1 (c of Leviathan et
    /// al. 2023): the assumption where one is set, else the draft model's own step; 0 without.
    double draft_step_ratio = 0;
    // Online mode (M/D/1 admission queue per replica, Kleinrock 1975 vol. 1 sec. 5.6):
    double replicas_needed = 0; ///< replicas for the request rate with the TTFT SLO incl. queueing
    /// Disaggregated serving: the prefill pool's replicas (of the same size) that keep up with
    /// the request rate; counted in gpus_needed (helper-18: only the decode pool was counted).
    double prefill_replicas_needed = 0;
    double utilization = 0;  ///< per-replica load rho = arrival rate / service capacity
    double queue_wait_s = 0; ///< mean wait before a request's prefill starts
    double capacity_rps = 0; ///< requests/s one replica completes at the operating batch
    /// FP8, INT8 or FP4 weights on a GPU without matrix units for that format (FP4 on Hopper
    /// or MI300X, FP8 on A100): dequantised to 16 bits and computed at the 16-bit rate
    /// (weights_lack_matrix_units).
    bool weight_only_dequant = false;
    /// Disaggregated prefill: output_tokens_per_s_per_gpu counts the prefill pool's GPUs (or
    /// GPU time) too, not only the decode replica's.
    bool prefill_pool = false;
    /// Offline with InferenceSpec::requests > 0 (batch_job_run; the requests spread evenly over
    /// the replicas): one replica's time from the first request to the last one's end, a
    /// request's mean time from the start to its first token, the mean sequences decoding per
    /// step and the steps taken. output_tokens_per_s is then the job's (a replica's requests x
    /// output_len / makespan), ramp-up and drain included; ttft_s and tpot_s the job's means
    /// (as trtllm-bench reports them) and batch the most sequences it has in flight.
    double job_makespan_s = 0, job_mean_ttft_s = 0, job_mean_batch = 0;
    long long job_steps = 0, job_requests = 0, job_requests_per_replica = 0;
    InferenceMemory memory;
    /// Issue 22 (set by evaluate, serving_traffic): what one replica's groups put on the fabric
    /// per decode step at the operating batch, how busy each network tier is during that step,
    /// and the busiest tier in words (empty when TP and PP stay in one scale-up domain).
    std::vector<GroupTraffic> traffic;
    std::vector<TierLoad> tiers;
    std::string bottleneck;
};

/// Whether the engine's host sets at least 5 % of the operating point's decode step
/// (InferenceResult::decode_step_gpu_s), which every screen then says beside the numbers.
inline bool host_sets_step(const InferenceResult& r) {
    return r.decode_step_gpu_s > 0 && r.decode_step_s > r.decode_step_gpu_s * 1.05;
}

/// What set the batch, in a few words for a caption ("set by the TPOT SLO").
std::string batch_limit_short(BatchLimit l);
/// The same with its figure, for Explain: "vLLM's limit of 1,024 sequences (...)", "the
/// TPOT SLO (50.0 ms): a larger batch misses it".
std::string batch_limit_words(const InferenceResult& r, const InferenceSpec& s, int engine_cap);

struct SpeculativeSpec {
    const ModelArch* draft = nullptr; ///< null = no speculation
    int k = 4;                        ///< draft tokens per step (gamma)
    double acceptance = 0.7;          ///< alpha
};

/// The exponent p of a serving GEMM's time (compute^p + memory^p)^(1/p): the assumption
/// (InferenceAssumptions::roofline_overlap_exponent), or infinity -- the roofline's
/// larger-of-the-two -- for llama.cpp and MLX, whose batch-1 matrix-vector kernels stream weights
/// with next to no compute and whose memory efficiencies were fitted that way.
double gemm_overlap_exponent(ServingEngine e, const InferenceAssumptions& ia);

/// Whether the engine runs its decode step as a captured CUDA graph of fused kernels, whose
/// fixed times (InferenceAssumptions::gemm_fixed_s and the rest) the step is charged: TensorRT-LLM,
/// vLLM and SGLang. llama.cpp and MLX are fitted without them.
constexpr bool counts_fixed_kernel_times(ServingEngine e) {
    return e == ServingEngine::trtllm || e == ServingEngine::vllm || e == ServingEngine::sglang;
}

/// The elementwise kernels one decoder layer of a CUDA-graph engine's decode step launches beside
/// its GEMMs and attention, each charged InferenceAssumptions::elementwise_fixed_s: the two
/// residual adds with their RMSNorms and the dense or shared expert's activation (aiconfigurator
/// sdk/models/llama.py: add_norm_1, add_norm_2, act_gate), and what the engines' model code adds:
/// - RoPE: vLLM (its rotary_embedding op, an Inductor kernel under -O2) and SGLang
///   (rotary_emb) run it as a kernel of its own, +1 for a model with rotary positions;
///   TensorRT-LLM applies it inside its attention op (LlamaAttention's rope_fusion);
/// - Q/K norms (ModelArch::qk_norm): +1 in TensorRT-LLM (Qwen3Attention's fused_qk_norm_rope,
///   which then also applies the RoPE), +1 in SGLang (apply_qk_norm, fused_inplace_qknorm) and
///   in vLLM (q_norm and k_norm as Inductor kernels; enable_qk_norm_rope_fusion off by default).
/// 0 for the engines fitted without fixed kernel times (llama.cpp, MLX).
double elementwise_kernels_per_layer(const ModelArch& m, ServingEngine e, bool moe_layer);
/// What those kernels are, in words, as Explain lists them ("two residual adds with their
/// norms, the activation, RoPE"), from the same rules.
std::string elementwise_kernels_parts(const ModelArch& m, ServingEngine e, bool moe_layer);

/// Whether an MXFP4 checkpoint's routed experts run on the trtllm-gen fused MoE at its own rate
/// (InferenceAssumptions::mxfp4_moe_stream_efficiency): FP4 weights of an MoE model whose
/// fp4_format is mxfp4, on an FP4 GPU without a catalog FP4 rate of its own (datacenter
/// Blackwell, sm_100). The rates and Explain both ask this.
bool mxfp4_moe_kernels(const ModelArch& m, const InferenceSpec& s, const GpuSpec& g,
                       const InferenceAssumptions& ia);

/// The expected largest of `ranks` independent Binomial(n, p) counts: what the busiest of `ranks`
/// expert-parallel GPUs gets when each of its n experts (or routed copies) is hit independently
/// with probability p. Uniform routing: the least spread a router can have (a trained router on
/// real text spreads more: aiconfigurator's power law, docs/research/session43). Exact (E max =
/// sum over j of 1 - F(j - 1)^ranks) up to 64 trials, else the normal approximation with Blom's
/// (1958) expected largest of `ranks` standard normals, Phi^-1((ranks - 0.375) / (ranks + 0.25)).
/// n p for one rank.
double busiest_of_binomials(int ranks, double n, double p);
/// Expert parallelism without attention DP (InferenceSpec::ep > 1): the busiest of the ep GPUs'
/// routed-expert weight reads over the mean's, for a pass of `tokens` tokens each choosing top_k
/// of the model's experts uniformly (E / ep experts a GPU, each touched with probability
/// 1 - (1 - k/E)^tokens; busiest_of_binomials). 1 at ep 1 or without experts. Qwen3-235B at
/// EP 8: 1.7 at 4 tokens, 1.0 from ~64 on.
double ep_busiest_experts(const ModelArch& m, int ep, double tokens);
/// The same for the routed copies (tokens x top_k, each landing on one of the ep GPUs): the
/// busiest GPU's grouped-GEMM work and token movement over the mean's.
double ep_busiest_copies(const ModelArch& m, int ep, double tokens);

/// Expected tokens per target step with gamma drafts at acceptance alpha (Leviathan et al.
/// 2023 eq. 1): (1 - a^(g+1)) / (1 - a).
double speculative_tokens_per_step(double alpha, int gamma);
/// Wall-time improvement with draft cost ratio c (Leviathan et al. 2023 Thm 3.8):
/// (1 - a^(g+1)) / ((1 - a)(g c + 1)).
double speculative_speedup(double alpha, int gamma, double c);

/// Whether a serving workload can run as a batch job of InferenceSpec::requests: offline, its
/// prompts on the decoding GPUs (not disaggregated), without a draft model (batch_job_run has no
/// speculative decoding). Otherwise its requests are kept but not used, as the request rate is
/// kept but not used offline; the inspector shows the field only where it can (schema), and the
/// CLI refuses --requests elsewhere.
inline bool batch_job_possible(const InferenceSpec& s, bool has_draft) {
    return s.mode == ServingMode::offline && s.batching != Batching::disaggregated && !has_draft;
}

/// Whether these weights' format has no matrix units on this GPU (FP8, INT8 or FP4 without
/// the GPU's peak for it), so its GEMMs run weight-only at the 16-bit rate (rates_of).
bool weights_lack_matrix_units(WeightsDtype w, const GpuSpec& g);

/// Why the engine cannot run on this device, or "" when it can. TensorRT-LLM runs only on NVIDIA
/// GPUs (TensorRT-LLM documentation, "Supported Hardware": Blackwell, Hopper, Ada Lovelace,
/// Ampere); a design that asks for it on an AMD, Intel, Apple or Qualcomm device, or a CPU server,
/// is refused with this reason instead of being timed with an engine that does not exist there.
std::string engine_device_refusal(ServingEngine e, const GpuSpec& g);

Result<InferenceResult> infer(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                              const Topology& fabric, double price_per_gpu_hour = 0,
                              const SpeculativeSpec& spec = {}, const InferenceAssumptions& ia = {},
                              const CollectiveAssumptions& ca = {},
                              const MemoryAssumptions& ma = {});

/// Attention DP: the most sequences memory holds at plain TP (the same EP), for
/// InferenceResult::max_batch_without_attention_dp; 0 without attention DP. A second memory
/// evaluation, so the callers that show it (evaluate, the CLI) ask for it after infer(), and
/// infer() stays one evaluation (session 56: +2.5 µs inside it, 6.1 -> 8.7 µs).
int max_batch_without_attention_dp(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                                   const MemoryAssumptions& ma = {},
                                   const ModelArch* draft = nullptr);

/// Issue 22: the traffic of one replica's groups in one decode step of `batch` sequences, as
/// the decode step charges it (forward_time): TP two all-reduces of the layer's activations per
/// layer on the device (Shoeybi et al. 2019), PP the activations between stages, with `pp`
/// micro-batches in flight each crossing every stage boundary once per step. Buffers per GPU
/// (nccl-tests sizes) and the time before overlap (TP: the engine's measured all-reduce where
/// the catalog has it for `gpu`, as the decode step charges it).
std::vector<GroupTraffic> serving_traffic(const ModelArch& m, const InferenceSpec& s,
                                          const GpuSpec& gpu, const Topology& fabric, int batch,
                                          const CollectiveAssumptions& ca = {});

/// How a measured all-reduce names its engine and release: "TensorRT-LLM 1.3.0rc20".
std::string engine_allreduce_label(const EngineAllReduce& a);

/// The engine's measured all-reduce (catalog: GpuSpec::engine_allreduce) this layout's TP
/// all-reduces are timed with -- the group inside one server of the kind it was measured on,
/// and no nccl-tests fit of the design's scale-up domain -- or nullptr (the collective model).
const EngineAllReduce* serving_tp_allreduce(const ModelArch& m, const InferenceSpec& s,
                                            const GpuSpec& gpu, const Topology& fabric,
                                            const CollectiveAssumptions& ca = {});

/// Mean queueing delay of an M/D/c queue (Poisson arrivals at `lambda`/s, `servers` slots each
/// busy `service_s` per request): half the M/M/c (Erlang C) wait, the usual approximation
/// (Cosmetatos 1976), exact for c = 1 (Pollaczek-Khinchine). Infinity when the load is >= 1.
double queue_wait_mdc(double lambda, double service_s, int servers);

/// One point of the latency-throughput curve: a batch size, its TPOT and throughput.
struct CurvePoint {
    int batch = 0;
    double tpot_s = 0, ttft_s = 0, output_tokens_per_s = 0, usd_per_million_output_tokens = 0;
    /// The model's error band at this point (set by evaluate from the workload's band,
    /// uncertainty.h; 0 when none): the faster edge is (high, tpot_low_s), the slower
    /// (low, tpot_high_s).
    double output_tokens_per_s_low = 0, output_tokens_per_s_high = 0;
    double tpot_low_s = 0, tpot_high_s = 0;
    /// TensorRT-LLM: the CUDA-graph batch a decode-only step of this batch runs, padded up to
    /// the next captured size (all attention-DP ranks together); 0 = none (other engines, or
    /// an eager step). Where it jumps the curve steps back (more padding, same real batch).
    int graph_batch = 0;
    /// Layers in system memory (llama.cpp): a decode step of this batch (32 sequences or more)
    /// streams their weights to the device over its host link instead of running them on the
    /// CPU -- the curve jumps where it starts.
    bool streams_offloaded = false;
};
/// `points` batch sizes spread geometrically from 1 to the largest that fits.
std::vector<CurvePoint>
latency_throughput_curve(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                         const Topology& fabric, int max_batch, int points = 64,
                         double price_per_gpu_hour = 0, const InferenceAssumptions& ia = {},
                         const CollectiveAssumptions& ca = {}, const SpeculativeSpec& spec = {},
                         const MemoryAssumptions& ma = {});

/// The host time a decode step cannot be shorter than: TensorRT-LLM's per-sequence Python work
/// (InferenceAssumptions::trtllm_host_s_per_sequence, on Grace hosts the _grace one) times the
/// sequences one executor runs; 0 for the other engines (no per-sequence source yet).
double host_step_floor(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu, int batch,
                       const InferenceAssumptions& ia);
/// TensorRT-LLM's CUDA graph for a decode-only step of `batch` sequences on one executor: the
/// batch the graph runs (the next captured size with padding on), or 0 when the step runs
/// eagerly (InferenceAssumptions::trtllm_cuda_graph_padding). Captured: 1, 2, 4, 8, ..., 256,
/// 384, 512, 1,024, ..., 8,192 up to the largest pure-decode batch min(max_batch, max_tokens),
/// and that one.
int trtllm_graph_batch(int batch, int max_batch, int max_tokens, bool padding);
/// The share of decode steps that also carry a prompt (or a chunk of one): batch / output_len
/// requests start per step in a steady state, each prompt taking ceil(input_len / max_tokens)
/// steps; at most 1.
double mixed_step_share(const InferenceSpec& s, int batch, double max_tokens);
/// TensorRT-LLM's host time per eager op for these weights on this GPU's host: NVFP4 (Python
/// custom ops) or other formats, x86 or Grace.
const Assumption& trtllm_eager_s_per_op(const InferenceSpec& s, const GpuSpec& gpu,
                                        const InferenceAssumptions& ia);
/// The host time TensorRT-LLM's Python thread spends launching one eager forward op by op
/// (a step that carries a prompt, or a batch without a CUDA graph): ops per layer (+2
/// collectives with TP) x layers + 7 outside them, x trtllm_eager_s_per_op; 0 for the other
/// engines.
double trtllm_eager_launch_s(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                             const InferenceAssumptions& ia);
/// Decode step time of one replica at `batch` sequences with `context` tokens each. With
/// TensorRT-LLM, decode-only steps run CUDA graphs (padded), mixed ones eagerly: the mean.
double decode_step_time(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                        const Topology& fabric, int batch, double context,
                        const InferenceAssumptions& ia = {}, const CollectiveAssumptions& ca = {},
                        const MemoryAssumptions& ma = {});
/// An offline batch job: `requests` identical requests (input_len, output_len) all queued at
/// t = 0 and run until the last one ends, as trtllm-bench throughput and vllm bench throughput
/// run them and measure "total output throughput" (output tokens / this time). The engine admits
/// requests as `concurrency` (the batch memory holds) and each step's token budget
/// (max_batched_tokens, after the decoding sequences' tokens) allow: whole prompts (continuous
/// batching; TensorRT-LLM with chunking off), chunks of one (chunked), or a batch at a time
/// (static). Steps cost as decode_step_time's do (CUDA graphs for decode-only steps, eager
/// steps with a prompt), plus the prompts' prefill. The ramp-up, when few requests fit a step,
/// and the drain, when the last ones finish alone, are in the time.
struct BatchJobRun {
    double makespan_s = 0;
    double output_tokens_per_s = 0; ///< requests x output_len / makespan
    double mean_ttft_s = 0;         ///< from t = 0 to a request's first token, mean
    /// A request's time per output token after its first, mean (trtllm-bench's TPOT).
    double mean_tpot_s = 0;
    double mean_batch = 0; ///< sequences decoding per step, mean over the steps
    long long steps = 0, prompt_steps = 0;
};
BatchJobRun batch_job_run(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                          const Topology& fabric, long long requests, int concurrency,
                          const InferenceAssumptions& ia = {}, const CollectiveAssumptions& ca = {},
                          const MemoryAssumptions& ma = {});
/// Prefill time of `batch` prompts of `tokens` tokens each.
double prefill_time(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu,
                    const Topology& fabric, int batch, double tokens,
                    const InferenceAssumptions& ia = {}, const CollectiveAssumptions& ca = {});

} // namespace cl::model
