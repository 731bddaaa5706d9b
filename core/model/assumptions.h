#pragma once
// The model's assumptions: efficiency factors, overlaps, overheads and engine limits, each with
// its unit and the source of its default. They are part of the design (Design::assumptions),
// editable in the inspector and in the file; the schema (schema.h) gives each a label and range.

namespace cl::model {

/// An editable assumption with its source, shown in the UI and printed by the CLI.
struct Assumption {
    double value = 0;
    const char* unit = "";
    const char* source = "";
    /// Two assumptions are equal when their values are (unit and source describe them).
    bool operator==(const Assumption& o) const { return value == o.value; }
};

struct MemoryAssumptions {
    /// Per GPU: CUDA context (100-600 MB) plus cuBLAS/NCCL workspaces and temporary buffers
    /// (~2 GB in a LLaMA-7B breakdown) -- see docs/assumptions.md.
    Assumption framework_overhead_bytes{2.0e9, "bytes",
                                        "CUDA context 0.1-0.6 GB + ~2 GB workspaces/buffers "
                                        "(ClusterLens guide, Assumptions)"};
    /// FlashAttention stores no s x s score matrix (Dao et al. 2022, sec. 3.1); on by default in
    /// Megatron-Core, Transformer Engine, vLLM and TensorRT-LLM.
    Assumption flash_attention{1, "bool", "Dao et al. 2022 (arXiv:2205.14135) sec. 3"};
    /// Fraction of GPU memory an inference engine may use (vLLM --gpu-memory-utilization).
    Assumption gpu_memory_utilization{0.9, "fraction",
                                      "vLLM default: the engine may use 90 % of GPU memory"};
    /// SGLang: model weights and the KV pool together take this fraction of the whole card;
    /// activations and CUDA-graph buffers live in the rest.
    Assumption sglang_mem_fraction_static{
        0.9, "fraction", "SGLang default: weights and KV pool take 90 % of GPU memory"};
    /// TensorRT-LLM: the KV cache takes this fraction of the memory still free once the
    /// weights and the engine's activations are allocated.
    Assumption trtllm_free_memory_fraction{
        0.9, "fraction", "TensorRT-LLM default: the KV cache takes 90 % of the memory left free"};
    /// TensorRT-LLM paged KV block size.
    Assumption trtllm_kv_block_tokens{32, "tokens",
                                      "TensorRT-LLM default: 32 tokens per KV-cache block"};
    /// Paged KV block size in tokens (vLLM default block_size 16).
    Assumption kv_block_tokens{16, "tokens",
                               "vLLM default: 16 tokens per KV-cache block (Kwon et al. 2023)"};
    /// Tokens in one forward pass for inference workspace sizing (vLLM max_num_batched_tokens).
    Assumption max_batched_tokens{8192, "tokens",
                                  "vLLM default: at most 8,192 tokens in one batch"};
    /// Engine limit on concurrent sequences; auto batch never exceeds it. Unset (0): the
    /// engine's own default (engine_max_num_seqs).
    Assumption max_num_seqs{0, "sequences",
                            "the engine's default: TensorRT-LLM 2,048; vLLM 1,024 on a GPU of "
                            "70 GiB or more other than A100, else 256"};
    /// llama.cpp: tokens in one compute graph (the physical batch; its compute buffer holds
    /// that many tokens' activations and logits in fp32).
    Assumption llamacpp_ubatch_tokens{512, "tokens",
                                      "llama.cpp default: a physical batch of 512 tokens"};
    /// llama.cpp has no framework memory pools: the device keeps the CUDA/Metal context only.
    Assumption llamacpp_runtime_bytes{
        0.5e9, "bytes",
        "CUDA context 0.1-0.6 GB (ClusterLens guide, Assumptions); llama.cpp "
        "allocates weights, KV and one compute buffer"};
    /// MLX (mlx-lm): the prompt is run through the model in chunks of this many tokens; MLX
    /// evaluates lazily, so a chunk's logits are never computed, only its KV cache.
    Assumption mlx_prefill_step_tokens{2048, "tokens",
                                       "mlx-lm default: the prompt runs in steps of 2,048 tokens"};
    /// MLX (mlx-lm): each sequence's KV cache grows in steps of this many tokens.
    Assumption mlx_kv_step_tokens{256, "tokens",
                                  "mlx-lm default: a KV cache grows in steps of 256 tokens"};
    /// MLX has no framework memory pools either: the process and its Metal buffers.
    Assumption mlx_runtime_bytes{
        0.5e9, "bytes",
        "assumption: the Python process and Metal buffers, as llama.cpp's runtime "
        "(ClusterLens guide, Assumptions)"};
    /// Devices whose memory the CPU shares (Apple silicon, Jetson, CPU servers): the share the
    /// model may fill; the operating system keeps the rest (macOS caps the GPU's working set).
    Assumption unified_memory_gpu_fraction{
        0.75, "fraction",
        "macOS Metal: the GPU's working set is capped near 75 % of unified memory"};
    bool operator==(const MemoryAssumptions&) const = default;
};

/// The few global, documented factors of the training model (docs/training.md).
struct TrainingAssumptions {
    /// FlashAttention-2 reaches 72% of A100 peak in training (Dao 2023, sec. 4.1) where the best
    /// A100 GEMM reaches 86.9% (mamf-finder): attention runs at 0.83 of GEMM efficiency.
    Assumption attention_vs_gemm{0.83, "ratio",
                                 "Dao 2023 (FlashAttention-2) sec. 4.1 / mamf-finder"};
    /// Achieved fraction of HBM bandwidth for elementwise kernels (norms, activations, softmax).
    Assumption memory_efficiency{0.85, "fraction", "assumption (ClusterLens guide, Training)"};
    /// Fraction of tensor-parallel communication hidden behind GEMMs.
    Assumption tp_overlap{0.0, "fraction",
                          "Megatron-LM runs TP collectives on the critical path unless its TP "
                          "communication overlap option is on (ClusterLens guide, Training)"};
    /// Fraction of the last micro-batch's backward that hides the DP gradient reduction
    /// (Megatron --overlap-grad-reduce; PyTorch DDP buckets).
    Assumption dp_overlap{1.0, "fraction",
                          "Li et al. 2020 (PyTorch DDP) sec. 3.2.3; Megatron-Core"};
    /// MoE: tokens per expert relative to a perfectly balanced router.
    Assumption moe_imbalance{1.1, "ratio",
                             "assumption: load-balancing loss keeps experts within ~10 %"};
    /// Sustained training GEMM throughput relative to the best-shape microbenchmark
    /// (mamf-finder): clocks under sustained multi-GPU load, mixed shapes, fused epilogues.
    /// Fitted with hopper_sustained_vs_ampere on the published runs in docs/validation.md
    /// (leave-one-source-out; on every row 0.91, where one factor for every GPU was 0.85).
    Assumption sustained_vs_best_gemm{
        0.91, "ratio", "global calibration over published runs (ClusterLens guide, Validation)"};
    /// Hopper and Blackwell GEMMs sustain less of their microbenchmark rate in a training run
    /// than Ampere's: 700 W-class parts run at their power cap under compute and NCCL traffic
    /// (DeepGEMM issue #120: H800 clocks 1980 -> 1575 MHz, 0.80, when compute and communication
    /// overlap; TileOPs PR #1588: H200 at 700 W sustains ~1500 of 1830 MHz, 0.82). Multiplies
    /// sustained_vs_best_gemm on those GPUs; fitted with it leave-one-source-out
    /// (docs/validation.md): 0.80 until session 29, 0.84 once kernel launch gaps are counted,
    /// 0.87 once FP8 GEMMs' K-loop cost is counted in their 128-deep steps (session 30).
    Assumption hopper_sustained_vs_ampere{
        0.87, "ratio",
        "fitted leave-one-source-out with the GEMM factor (ClusterLens guide, Validation); "
        "power-capped clocks 0.80-0.82 (DeepGEMM and TileOPs reports, ClusterLens guide, "
        "Validation)"};
    /// Compute slowdown while communication kernels overlap it: NCCL runs one CTA per channel
    /// on its own SM (16-32 channels of 108-132 SMs).
    Assumption overlap_sm_contention{0.2, "fraction",
                                     "NCCL channels occupy SMs (ClusterLens guide, Training)"};
    /// GPU idle time per kernel an eager framework launches (launch latency and the host
    /// catching up after syncs), per kernel the model counts: a Megatron-Bridge Nsight Systems
    /// profile of Qwen3 30B-A3B on 16 H100 (BF16, EP 16, HybridEP, no EP overlap) measured the
    /// GPU active 22.821 s of a 24.714 s step, 1.893 s idle, over 463,348 kernels on rank 0.
    /// The model counts 282,624 kernels for that run (92 per layer and micro-batch from the
    /// framework's modules, ClusterLens guide, Training; not the small index, copy and fill
    /// kernels, the embedding, loss and optimizer), so the idle time per counted kernel is
    /// 1.893 s / 282,624 = 6.7 us and the model carries the profile's idle time on the
    /// profiled run (until session 49: 1.893 s / 463,348 = 4.1 us, applied to the smaller
    /// count, 1.16 s of the measured 1.89 s).
    Assumption kernel_gap_s{6.7e-6, "s",
                            "Megatron-Bridge Qwen3 30B-A3B H100 Nsight profile: 1.893 s GPU idle "
                            "a step over the 282,624 kernels ClusterLens counts for it (463,348 "
                            "launched; skills/nemo-mbridge-perf-moe-comm-overlap, 2026-07-25)"};
    /// Fixed per-step overhead (data loading, logging).
    Assumption step_overhead_s{0.0, "s", "assumption: none by default"};
    bool operator==(const TrainingAssumptions&) const = default;
};

struct InferenceAssumptions {
    /// Fraction of HBM bandwidth decode kernels sustain (weights and KV streaming).
    Assumption memory_efficiency{0.85, "fraction",
                                 "same as training elementwise (ClusterLens guide, Inference)"};
    /// llama.cpp's decode kernels (dequantising matrix-vector products over GGUF blocks) read
    /// the weights at this fraction of the nominal memory bandwidth, on the device and, for
    /// offloaded layers, on the host. One global value set by leave-one-source-out over the
    /// published llama.cpp rows (docs/validation.md, Workstation and edge decode).
    Assumption llamacpp_memory_efficiency{
        0.735, "fraction",
        "leave-one-source-out fit over llama.cpp rows (ClusterLens guide, Validation)"};
    /// MLX's quantised matrix-vector kernels (mlx-lm decode) read the weights at this fraction
    /// of the nominal memory bandwidth; they dequantise in registers as the weights arrive, so
    /// the conversion overlaps the streaming. One global value set by leave-one-source-out
    /// over the published MLX rows (docs/validation.md, Workstation and edge decode).
    Assumption mlx_memory_efficiency{
        0.945, "fraction",
        "leave-one-source-out fit over MLX rows (ClusterLens guide, Validation)"};
    /// Block-scaled FP4 GEMMs (NVFP4 on Blackwell tensor cores) stream their weights at this
    /// fraction of the nominal memory bandwidth when memory-bound (decode batches): CUTLASS
    /// issue #2266 measured its NVFP4 grouped GEMM on B200 at M = 16 (N 2,048 / 7,168, K 7,168
    /// / 2,048, 32 groups) at ~3 TB/s with the default tiles and close to 4 TB/s with the best
    /// (256x64x256 on 2 SMs, transposed) of 8 TB/s -- the same shapes in MXFP8 near 6 TB/s,
    /// which memory_efficiency's 85 % already describes. 3.5 of 8 TB/s: 0.4375.
    Assumption fp4_weight_stream_efficiency{
        0.4375, "fraction",
        "CUTLASS issue #2266: NVFP4 grouped GEMM at M = 16 on B200, 3-4 TB/s of 8 TB/s (MXFP8 "
        "~6 TB/s)"};
    /// An MXFP4 checkpoint's routed experts (gpt-oss) on datacenter Blackwell stream at this
    /// fraction of the nominal memory bandwidth: they run on the trtllm-gen fused MoE, not
    /// CUTLASS (TensorRT-LLM resolves MXFP4 MoE on SM100 to TRTLLMGenFusedMoE; vLLM and SGLang
    /// use FlashInfer's port of it). NVIDIA's timings of that module on B200
    /// (ai-dynamo/aiconfigurator @095f58a5, systems/data/b200_sxm/moe/trtllm/1.3.0rc20, MXFP4
    /// weights with MXFP8 activations, balanced routing, every expert on the GPU: gpt-oss-120b's
    /// and gpt-oss-20b's shapes, 1-256 tokens, 28 rows) fit t = 18.0 us + bytes / (0.79 x 8 TB/s),
    /// median |error| 3.7 %, worst 11 % -- where CUTLASS's NVFP4 grouped GEMM streams ~0.44.
    /// 0 = the NVFP4 rate and size law for MXFP4 too.
    Assumption mxfp4_moe_stream_efficiency{
        0.79, "fraction",
        "aiconfigurator @095f58a5 B200 MoE table (TensorRT-LLM 1.3.0rc20 trtllm-gen, MXFP4 × "
        "MXFP8, gpt-oss shapes, 28 rows): t = 18.0 µs + bytes / (0.79 × 8 TB/s), median 3.7 %"};
    /// A grouped NVFP4 GEMM (the routed experts' fused MoE on B200-class GPUs) pays a fixed cost
    /// per expert matrix -- tile scheduling, the TMA/pipeline prologue and epilogue -- worth this
    /// many bytes of streaming, so small experts stream slower: one expert of matrices S_i
    /// streams at fp4_weight_stream_efficiency x [sum S_i / (sum S_i + n S0)] / [S_ref / (S_ref
    /// + S0)], S_ref the 8.26 MB matrices of CUTLASS #2266 (2,048 x 7,168 NVFP4) at which the
    /// efficiency was measured. S0 and the ceiling solved from two B200 measurements, neither
    /// fitted to a serving row: CUTLASS #2266 (8.26 MB matrices, 3.5 TB/s) and TensorRT-LLM
    /// tech blog 24's CUTLASS MoE module at 128 tokens (DeepSeek-V3 TP 8 rank, 2.06 + 1.03 MB
    /// per expert: 778 MB in 335.65 us, 2.32 TB/s): S0 = 1.1 MB, ceiling 0.50 (docs/inference.md).
    /// 0 = every size at fp4_weight_stream_efficiency.
    Assumption fp4_grouped_matrix_fixed_bytes{
        1.1e6, "bytes",
        "solved from CUTLASS issue #2266 (8.26 MB NVFP4 matrices, 3.5 TB/s on B200) and "
        "TensorRT-LLM tech blog 24 (CUTLASS MoE, 2.06 + 1.03 MB experts, 2.32 TB/s on B200)"};
    /// The routed experts' grouped NVFP4 GEMM on B200-class GPUs (TensorRT-LLM's CUTLASS fused
    /// MoE) computes at this rate x K / (K + fp4_grouped_gemm_k0) x tile quantisation: a
    /// per-tile cost (the epilogue's activation, quantisation and write) that short-K experts
    /// cannot hide. Fitted by least squares, with moe_routing_s_per_token/_per_choice, on NVIDIA's
    /// measured CUTLASS MoE module times on B200 (ai-dynamo/aiconfigurator @095f58a5,
    /// systems/data/b200_sxm/moe/trtllm/1.2.0rc5/moe_perf.parquet: 996 balanced NVFP4 rows at
    /// 4,096-16,384 tokens and >= 256 tokens an expert, 9 expert shapes, TP and EP sweeps): none of
    /// it a serving row of ../shared/validation. Where every GPU holds every expert (EP 1) the fit
    /// is median |error| 11.5 % (signed +0.4 %) and on the 1.3.0rc20 table's 7 shapes it was not
    /// fitted to 12.3 % (+0.7 %); with expert parallelism it overestimates the 128-expert shapes by
    /// 28-41 %, so EP > 1 keeps the dense law. 0 = the dense law everywhere.
    Assumption fp4_grouped_gemm_flops{
        6.5e15, "FLOP/s",
        "least-squares fit to aiconfigurator's B200 CUTLASS NVFP4 MoE module times (TensorRT-LLM "
        "1.2.0rc5, 996 rows)"};
    Assumption fp4_grouped_gemm_k0{
        6912, "elements",
        "least-squares fit to aiconfigurator's B200 CUTLASS NVFP4 MoE module times (TensorRT-LLM "
        "1.2.0rc5, 996 rows)"};
    /// What the fused MoE spends per token it routes, beside the GEMMs and the copies' movement:
    /// routing (top-k over E experts), sorting the copies by expert, the activation quantisation
    /// -- this + moe_routing_s_per_choice x E x k. Same fit as fp4_grouped_gemm_flops; applied
    /// where it was measured (B200-class NVFP4).
    Assumption moe_routing_s_per_token{
        8e-9, "s",
        "least-squares fit to aiconfigurator's B200 CUTLASS NVFP4 MoE module times (TensorRT-LLM "
        "1.2.0rc5, 996 rows)"};
    Assumption moe_routing_s_per_choice{
        6e-12, "s",
        "least-squares fit to aiconfigurator's B200 CUTLASS NVFP4 MoE module times (TensorRT-LLM "
        "1.2.0rc5, 996 rows)"};
    /// Serving GEMMs relative to the best-shape microbenchmark (same factor as training).
    Assumption sustained_vs_best_gemm{0.85, "ratio",
                                      "training calibration (ClusterLens guide, Validation)"};
    /// How far a serving GEMM's tensor-core work and its weight streaming overlap: its time is
    /// (compute^p + memory^p)^(1/p). p -> infinity is the roofline's larger-of-the-two (full
    /// overlap, Williams et al. 2009); p = 1 their sum, the Execution-Cache-Memory model's
    /// non-overlapping transfer (Treibig & Hager 2010, arXiv:0910.4865; Hager et al. 2016).
    /// Far from the ridge either term dominates and p hardly matters; at decode batches of a
    /// few hundred sequences the two are alike, and the larger alone was optimistic on every
    /// decode-heavy TensorRT-LLM row (vLLM PR #19566: B200 FP8 GEMMs at M = 512 reach 42 % of
    /// peak compute and 23 % of the bandwidth at once). One global value set leave-one-source-
    /// out over the TensorRT-LLM sources (docs/validation.md, Inference).
    Assumption roofline_overlap_exponent{
        2.0, "exponent",
        "leave-one-source-out fit over the TensorRT-LLM serving sources (ClusterLens guide, "
        "Validation; 1.5 before the fixed kernel times were counted); the form: ECM model "
        "(Treibig & Hager 2010)"};
    /// TensorRT-LLM's PyTorch backend (its default since v1.0) prepares the inputs, samples and
    /// updates every request of a step on one Python thread, one step ahead of the GPU (its
    /// overlap scheduler): a decode step lasts at least this host time per sequence the
    /// executor runs (every sequence of the replica; its own share with attention DP).
    Assumption trtllm_host_s_per_sequence{
        13.8e-6, "s",
        "TensorRT-LLM PR #11983: TorchSampler host overhead 13.8 ms per step at batch 1,000 "
        "(x86 host; sampling alone, so a lower bound)"};
    /// Attention data parallelism: every MoE layer waits for the busiest GPU (a context chunk
    /// on one, decode steps on the others), so a step takes the balanced step / this.
    Assumption attention_dp_balance{
        0.649, "fraction",
        "TensorRT-LLM tech blog 10 (ADP Balance Strategy): DeepSeek V3 on 8 × GB200, attention "
        "DP 8, round-robin assignment (v1.0's default, balancing off): 25,664 of 39,552 "
        "balanced tokens/s"};
    /// TensorRT-LLM in a steady state (a closed loop at a concurrency, not a batch job): its
    /// decode-only steps run balanced (1) -- every attention-DP rank pads to the largest rank's
    /// CUDA-graph batch -- and only the steps that carry a prompt take the balanced step / the
    /// load balance above; 0 charges every step, as a batch job does.
    Assumption attention_dp_balanced_decode{
        1, "bool",
        "on: with attention DP, TensorRT-LLM's decode-only steps run balanced and only the steps "
        "that carry a prompt wait for the busiest GPU, in a steady state (not a batch job). Its "
        "CUDA-graph runner (v1.0 on, the padded-batch rule) all-gathers each rank's decode-only "
        "batch and runs every rank at the CUDA graph of the largest; tech blog 10 puts the "
        "imbalance where some ranks run context phases while others generate. Off (0): every "
        "step waits"};
    /// The same on a Grace host (GB200).
    Assumption trtllm_host_s_per_sequence_grace{
        34.4e-6, "s",
        "TensorRT-LLM PR #16564: a ~8.8 ms per-step host bubble over 256 requests on GB200 "
        "(Grace), sampler-dominated"};
    /// TensorRT-LLM runs a decode-only step as a CUDA graph captured for a batch of 1, 2, 4, 8,
    /// 16, 32, 64, 128, 256, 384, 512, 1,024, 2,048, 4,096 or 8,192 sequences (those up to the
    /// engine's max batch, and the max batch itself). With padding on (1) a step at another
    /// batch runs the next captured size: the padding sequences' GEMM, MoE and LM-head work
    /// is done too (their attention reads next to nothing). Off (0) such a step runs eagerly.
    Assumption trtllm_cuda_graph_padding{
        1, "bool",
        "on, as NVIDIA's published runs pad (TensorRT-LLM v1.0 performance overview: its LLM "
        "options pad CUDA graphs to those batch sizes, and trtllm-bench pads by default): a "
        "decode-only batch runs as the next captured size. TensorRT-LLM's serving setup "
        "without those options leaves CUDA-graph padding off: turn it off (0) for it"};
    /// A TensorRT-LLM step that runs eagerly (one that carries a prompt: CUDA graphs are for
    /// decode-only steps) launches every op of the forward from Python, on the thread that
    /// also prepares the next step: host ops per decoder layer, counted in its PyTorch modules.
    Assumption trtllm_eager_ops_per_layer{
        11, "ops",
        "counted in TensorRT-LLM's PyTorch modules (v1.0-era Qwen3-MoE and Llama decoder layers, "
        "TP 1, NVFP4): 11 per layer, for a model without its own count (Llama 4's is 28 on Scout, "
        "23 on Maverick); ClusterLens guide, Inference"};
    /// Host time per launched op on an x86 host, weights other than NVFP4 (16-bit, FP8, INT):
    /// a PyTorch op's forward on the CPU.
    Assumption trtllm_eager_s_per_op{
        13.48e-6, "s",
        "TransformerEngine issue #2053: a PyTorch nn.Linear forward costs 13.48 µs of CPU time "
        "on an H100 DGX (Xeon 8480C)"};
    /// The same on a Grace host (GB200).
    Assumption trtllm_eager_s_per_op_grace{
        37.08e-6, "s",
        "TransformerEngine issue #2053: the same nn.Linear forward costs 37.08 µs on GB200"};
    /// NVFP4 weights: every linear quantizes its input and runs an autotuned GEMM, both Python
    /// custom ops (TensorRT-LLM PR #4060: "The NVFP4 Linear op is very sensitive to the host
    /// overhead").
    Assumption trtllm_eager_s_per_op_fp4{
        35e-6, "s",
        "TensorRT-LLM PR #12653: its PyTorch flow dispatches FP4 eager kernels ~35 µs apart "
        "(8 GPUs); a custom op's dispatch alone is 11.67 µs (PR #13149)"};
    /// The same on a Grace host (GB200).
    Assumption trtllm_eager_s_per_op_fp4_grace{
        63e-6, "s",
        "35 µs (TensorRT-LLM PR #12653) × 1.8, a custom-op call on GB200's Grace against an x86 "
        "B200 node: 21.0 µs (PyTorch PR #178216) / 11.67 µs (TensorRT-LLM PR #13149)"};
    /// Scheduler, sampling and launch time per engine step (CUDA graphs on).
    Assumption step_overhead_s{1e-3, "s",
                               "assumption: ~1 ms per engine step (ClusterLens guide, Inference)"};
    /// The fixed GPU time of one GEMM kernel beside its work, in the CUDA-graph engines
    /// (TensorRT-LLM, vLLM, SGLang): launch inside the graph, prologue and tail, which a decode
    /// step's small GEMMs cannot hide. NVIDIA's GEMM timings at M <= 16 (ai-dynamo/aiconfigurator
    /// @095f58a5, systems/data/h100_sxm/gemm/trtllm/1.3.0rc20, 6,542 BF16 rows of 0.1-300 MB)
    /// fit t = t0 + bytes / (0.81 x 3.35 TB/s) with t0 = 3.09 us, median |error| 8.6 % (B200:
    /// 2.51 us). Counted per GEMM of a layer (docs/inference.md, "Fixed kernel times").
    Assumption gemm_fixed_s{
        3.09e-6, "s",
        "aiconfigurator @095f58a5 H100 GEMM table (TensorRT-LLM 1.3.0rc20 torch flow, BF16, M <= "
        "16): intercept of t = t0 + bytes / (c × bandwidth), 3.09 µs, taken for every GPU (B200's "
        "own: 2.51 µs)"};
    /// The same for one decode attention kernel: NVIDIA's generation-attention timings (the
    /// same repository, systems/data/<gpu>/attention/trtllm/1.3.0rc20, head dim 128, GQA 2-16)
    /// fit t = t0 + bytes / (c x peak) + FLOPs / R with t0 = 6.9 us on H100 and H200 (FP8 KV;
    /// 11.1-11.6 us with BF16 KV and on B200): the smallest, taken for every GPU.
    Assumption attention_fixed_s{
        6.9e-6, "s",
        "aiconfigurator @095f58a5 generation-attention tables (TensorRT-LLM 1.3.0rc20): intercept "
        "6.9 µs on H100/H200 with FP8 KV, taken for every GPU (11.1-11.6 µs with BF16 KV and on "
        "B200; ClusterLens guide, Inference)"};
    /// The same for one elementwise kernel of a decode step (a residual add with its norm, the
    /// MLP's activation): NVIDIA's serving model charges every such memory-bound op a constant
    /// beside its bytes (ai-dynamo/aiconfigurator @095f58a5, systems/h100_sxm.yaml
    /// mem_empirical_constant_latency: "3us some nonofficial correction based on
    /// observations"; sdk/models/llama.py counts add_norm_1, add_norm_2 and act_gate a layer).
    Assumption elementwise_fixed_s{
        3e-6, "s",
        "aiconfigurator @095f58a5: the empirical constant latency its GPU files add to every "
        "memory-bound op (3 µs, 'nonofficial correction based on observations')"};
    /// The host's memory bandwidth, for layers offloaded to system memory: dual-channel
    /// DDR5-5600, 2 channels x 5600 MT/s x 8 B (JEDEC DDR5 data rate), a desktop host.
    Assumption host_memory_bandwidth_Bps{89.6e9, "B/s",
                                         "dual-channel DDR5-5600: 2 × 5600 MT/s × 8 B"};
    /// NUMA nodes (sockets in NPS1) whose memory a CPU server's model is spread over. llama.cpp
    /// loads the weights from one thread, so without its NUMA "distribute" option they sit on
    /// one node and every core reads them at that node's bandwidth.
    Assumption numa_nodes_used{1, "nodes",
                               "llama.cpp default placement (its README: the NUMA option "
                               "\"distribute\" spreads the model over the nodes)"};
    /// Speculative decoding draft cost per token relative to the target (c in Leviathan et al.).
    Assumption draft_cost_ratio{0.0, "ratio",
                                "Leviathan et al. 2023 (arXiv:2211.17192) sec. 3.4: c, the "
                                "draft's step time over the target's; unset: the draft model's "
                                "own roofline step time"};
    /// Weight-only low-bit formats (INT4, FP4/INT8 on GPUs without that tensor-core format)
    /// dequantise every weight to 16 bits on the CUDA cores: unpack, convert, subtract the zero
    /// point, scale -- about 4 integer/FP32 operations per weight (Frantar et al. 2024, MARLIN,
    /// arXiv:2408.11743 sec. 3: the lop3/prmt conversion plus one FMA per weight).
    Assumption dequant_ops_per_weight{
        4.0, "ops", "MARLIN (Frantar et al. 2024) sec. 3: lop3/prmt unpack + one FMA per weight"};
    /// Tokens one dequantised weight tile is reused for: the kernel's M tile (MARLIN keeps 16
    /// rows per warp and up to 64 per thread block; beyond that it dequantises again).
    Assumption dequant_tile_tokens{64.0, "tokens",
                                   "MARLIN (Frantar et al. 2024) sec. 3: 16x4 "
                                   "row blocks, 64 tokens per tile"};
    bool operator==(const InferenceAssumptions&) const = default;
};

/// Every assumption the evaluation uses, as a design carries them.
struct ModelAssumptions {
    TrainingAssumptions training;
    MemoryAssumptions memory;
    InferenceAssumptions inference;
    bool operator==(const ModelAssumptions&) const = default;
};

} // namespace cl::model
