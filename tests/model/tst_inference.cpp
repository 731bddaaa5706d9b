// Behaviour of the inference model beyond the published table: weight-only dequantisation,
// online queueing, MoE and disaggregated serving. Formulas are checked exactly where they have
// a closed form.
#include "model/catalog.h"
#include "model/design.h"
#include "model/evaluate.h"
#include "model/findings.h"
#include "model/gemm_shape.h"
#include "model/inference.h"
#include "model/topology.h"

#include "fixtures.h"

#include <QtTest>

#include <cmath>

using namespace cl::model;

class TestInference : public QObject {
    Q_OBJECT
private:
    Catalog cat_;
    Topology node_;

    InferenceResult run(const char* model, InferenceSpec s, const char* gpu = "h100-sxm") {
        auto r = infer(*cat_.model(model), s, *cat_.gpu(gpu), node_);
        if (!r.ok())
            qFatal("%s", r.error_text().c_str());
        return r.value();
    }

    /// TensorRT-LLM at TP 8 with FP8 weights and KV, 1,000 / 1,000 tokens.
    static InferenceSpec trtllm_fp8_tp8() {
        InferenceSpec s;
        s.tp = 8;
        s.weights_dtype = WeightsDtype::fp8;
        s.kv_dtype = KvDtype::fp8;
        s.engine = ServingEngine::trtllm;
        s.input_len = 1000;
        s.output_len = 1000;
        return s;
    }

private slots:
    void initTestCase() {
        cat_ = cl::test::bundled_catalog();
        node_ = cl::test::single_system("dgx-h100");
    }

    // Issue 21: two services on one server are each computed as if they had its GPUs; the
    // findings say they share them (badge, tooltip, the inspector's line). On different GPUs
    // of the server, or a training job left unplaced beside a service, nothing is said.
    void servicesSharingGpusAreFlagged() {
        Design d = cl::test::preset("h200-inference-8x");
        Workload second = d.workloads.front();
        second.id = "serve2";
        second.name = "Second service";
        d.workloads.push_back(second);
        Evaluation ev = evaluate(d, cat_);
        for (const char* id : {"serve", "serve2"}) {
            const WorkloadFinding& f = ev.findings.workloads.at(id);
            QVERIFY2(f.badge.find("shares GPUs") != std::string::npos, f.badge.c_str());
            QVERIFY2(f.sharing.find("(both on HGX H200)") != std::string::npos, f.sharing.c_str());
        }
        QVERIFY(ev.findings.workloads.at("serve").sharing.find("Second service") !=
                std::string::npos);
        // Each engine claims its share of the GPU's memory: together they do not fit.
        QVERIFY2(ev.findings.workloads.at("serve").sharing.find("they do not fit together") !=
                     std::string::npos,
                 ev.findings.workloads.at("serve").sharing.c_str());
        // Alone: nothing shared.
        d.workloads.pop_back();
        ev = evaluate(d, cat_);
        QVERIFY(ev.findings.workloads.at("serve").sharing.empty());
        QVERIFY(ev.findings.workloads.at("serve").badge.find("shares") == std::string::npos);
        // An unplaced training job beside the service: alternatives, not a conflict.
        Workload train;
        train.id = "train";
        train.kind = WorkloadKind::training;
        train.model = "llama3-8b";
        d.workloads.push_back(train);
        ev = evaluate(d, cat_);
        QVERIFY(ev.findings.workloads.at("serve").sharing.empty());
    }

    // Issue 21 (helper-16): the latency-throughput curve prices output tokens as the operating
    // point does (the prompts' GPU time is the input tokens' cost): at the same batch the
    // chart's $/M output tokens equals the result's.
    void curvePricesAsTheOperatingPoint() {
        const ModelArch& m = *cat_.model("llama3-70b");
        const GpuSpec& g = *cat_.gpu("h100-sxm");
        InferenceSpec s;
        s.tp = 8;
        s.weights_dtype = WeightsDtype::fp8;
        const auto mem = inference_memory(m, s, g);
        QVERIFY(mem.ok());
        // helper-18: with speculative decoding the operating point sat far off the curve (the
        // curve was drawn without it): both with and without a draft model.
        SpeculativeSpec spec;
        for (const ModelArch* draft :
             {static_cast<const ModelArch*>(nullptr), cat_.model("llama3.2-1b")}) {
            spec.draft = draft;
            const auto curve =
                latency_throughput_curve(m, s, g, node_, mem->max_batch, 16, 3.0, {}, {}, spec);
            QVERIFY(curve.size() > 4);
            for (const auto& p : {curve[0], curve[2], curve[curve.size() / 2], curve.back()}) {
                InferenceSpec at = s;
                at.batch = p.batch;
                const auto r = infer(m, at, g, node_, 3.0, spec);
                QVERIFY2(r.ok(), r.error_text().c_str());
                QCOMPARE(r->batch, p.batch);
                QVERIFY2(
                    std::abs(p.usd_per_million_output_tokens / r->usd_per_million_output_tokens -
                             1) < 1e-9,
                    qPrintable(QStringLiteral("batch %1: curve $%2, operating point $%3")
                                   .arg(p.batch)
                                   .arg(p.usd_per_million_output_tokens)
                                   .arg(r->usd_per_million_output_tokens)));
                QVERIFY(std::abs(p.tpot_s / r->tpot_s - 1) < 1e-9);
                QVERIFY(std::abs(p.output_tokens_per_s / r->output_tokens_per_s - 1) < 1e-9);
                if (draft)
                    QVERIFY(r->speculative_speedup != 1.0);
            }
        }
    }

    // M/D/1 is exact (Pollaczek-Khinchine): Wq = rho / (2 mu (1 - rho)).
    // Issue 18: engines budget the KV cache differently (their docs). Llama 2 70B in BF16 on two
    // Issue 18: each engine's own batch limit when the user sets none -- TensorRT-LLM's
    // max_batch_size 2,048; vLLM's max_num_seqs 1,024 on a GPU of >= 70 GiB other than A100,
    // else 256 (vllm/engine/arg_utils.py get_batch_defaults). Before, 2,048 for every engine:
    // an 8B model on an H100 under vLLM was served at a batch vLLM never runs by default.
    void engineBatchLimits() {
        MemoryAssumptions a;
        QCOMPARE(engine_max_num_seqs(a, ServingEngine::trtllm, *cat_.gpu("h100-sxm")), 2048);
        QCOMPARE(engine_max_num_seqs(a, ServingEngine::vllm, *cat_.gpu("h100-sxm")), 1024);
        QCOMPARE(engine_max_num_seqs(a, ServingEngine::vllm, *cat_.gpu("mi300x")), 1024);
        QCOMPARE(engine_max_num_seqs(a, ServingEngine::vllm, *cat_.gpu("a100-sxm-80gb")), 256);
        QCOMPARE(engine_max_num_seqs(a, ServingEngine::vllm, *cat_.gpu("l40s")), 256);
        a.max_num_seqs.value = 300; // the user's value, for every engine
        QCOMPARE(engine_max_num_seqs(a, ServingEngine::vllm, *cat_.gpu("h100-sxm")), 300);
        QCOMPARE(engine_max_num_seqs(a, ServingEngine::trtllm, *cat_.gpu("h100-sxm")), 300);
        // Through infer(): Llama 3 8B with an FP8 KV cache, 128 in / 128 out on one H100 holds
        // thousands of sequences; vLLM runs 1,024 of them, TensorRT-LLM 2,048.
        const ModelArch& m = *cat_.model("llama3-8b");
        InferenceSpec s;
        s.input_len = 128;
        s.output_len = 128;
        s.kv_dtype = KvDtype::fp8;
        s.engine = ServingEngine::vllm;
        auto v = infer(m, s, *cat_.gpu("h100-sxm"), node_);
        QVERIFY2(v.ok(), v.error_text().c_str());
        QCOMPARE(v->batch, 1024);
        QVERIFY(v->memory.max_batch > 2048);
        s.engine = ServingEngine::trtllm;
        auto t = infer(m, s, *cat_.gpu("h100-sxm"), node_);
        QVERIFY2(t.ok(), t.error_text().c_str());
        QCOMPARE(t->batch, 2048);
    }

    // Attention DP (session 33): every GPU keeps attention, dense MLP layers, shared experts,
    // router, embedding and LM head whole; only the routed experts are split over TP.
    void attentionDataParallel() {
        const ModelArch& m = *cat_.model("llama4-maverick");
        InferenceSpec s = trtllm_fp8_tp8();
        auto tp = infer(m, s, *cat_.gpu("h200-sxm"), node_);
        s.attention_dp = true;
        auto dp = infer(m, s, *cat_.gpu("h200-sxm"), node_);
        QVERIFY2(tp.ok() && dp.ok(), (tp.error_text() + dp.error_text()).c_str());
        // Weights: the non-routed parts move from 1/8 to a whole copy on each GPU. FP8 for the
        // block linears (1 byte), 16 bits for the embedding and the (untied) LM head.
        double block = 0;
        for (int i = 0; i < m.layers; ++i)
            block += m.attention_params_per_layer() +
                     (m.is_moe_layer(i)
                          ? m.expert_params_per_layer() - m.routed_expert_params_per_layer()
                          : m.dense_mlp_params_per_layer());
        const double vh = static_cast<double>(m.vocab) * m.hidden;
        const double expected = (block * 1.0 + 2.0 * vh * 2.0) * (1.0 - 1.0 / 8.0);
        QVERIFY2(std::abs(dp->memory.weights_bytes_per_gpu - tp->memory.weights_bytes_per_gpu -
                          expected) < 1e6,
                 qPrintable(QString::number(dp->memory.weights_bytes_per_gpu -
                                            tp->memory.weights_bytes_per_gpu - expected)));
        // EP left to the engine: every engine's default is EP 1 with attention DP too (each
        // routed expert split by tensor over the 8 GPUs); EP 8 only when asked for.
        for (ServingEngine e :
             {ServingEngine::trtllm, ServingEngine::vllm, ServingEngine::sglang}) {
            InferenceSpec es = s;
            es.engine = e;
            auto r = infer(m, es, *cat_.gpu("h200-sxm"), node_);
            QVERIFY2(r.ok(), r.error_text().c_str());
            QCOMPARE(r->expert_parallel, 1);
            QCOMPARE(r->expert_tp, 8);
            es.ep = 8;
            auto whole = infer(m, es, *cat_.gpu("h200-sxm"), node_);
            QVERIFY2(whole.ok(), whole.error_text().c_str());
            QCOMPARE(whole->expert_parallel, 8);
            QCOMPARE(whole->expert_tp, 1);
        }
        // Each GPU schedules up to the engine's limit: the replica's batch may pass 2,048.
        QCOMPARE(dp->memory.max_batch % 8, 0);
        // One gather and one scatter per MoE layer instead of two all-reduces per layer. The
        // gather carries FP8 activations (TensorRT-LLM quantizes before it) and each token's
        // top-k expert ids and weights (8 bytes each); the outputs come back in 16 bits.
        const auto traffic = serving_traffic(m, s, *cat_.gpu("h200-sxm"), node_, dp->batch);
        QCOMPARE(traffic.size(), std::size_t{1});
        QVERIFY(traffic[0].what.find("attention DP") != std::string::npos);
        QCOMPARE(traffic[0].bytes, m.moe_layers() * static_cast<double>(dp->batch) *
                                       (m.hidden * 1.0 + 8.0 * m.top_k + m.hidden * 2.0));

        // KV heads: Qwen3-235B-A22B has 4, so at TP 8 each GPU of plain TP keeps one head of
        // every sequence (half of it a copy); with attention DP it keeps all 4 of 1/8 of them.
        const ModelArch& q = *cat_.model("qwen3-235b-a22b");
        InferenceSpec k = s;
        k.attention_dp = false;
        auto qt = infer(q, k, *cat_.gpu("h200-sxm"), node_);
        k.attention_dp = true;
        auto qd = infer(q, k, *cat_.gpu("h200-sxm"), node_);
        QVERIFY2(qt.ok() && qd.ok(), (qt.error_text() + qd.error_text()).c_str());
        QCOMPARE(qd->memory.kv_bytes_per_token_per_gpu,
                 qt->memory.kv_bytes_per_token_per_gpu / 2.0);

        // With every step charged (attention_dp_balanced_decode 0, as a batch job is), a step
        // waits for the busiest GPU: the balanced step / attention_dp_balance (0.649,
        // TensorRT-LLM's ADP-balance blog); 1 = perfectly balanced ranks.
        // (Eager launches off in both: a host-bound eager step hides the GPU's imbalance.)
        // The kernels' fixed times are the same on every rank: not scaled (session 50).
        InferenceAssumptions balanced, dflt;
        balanced.attention_dp_balanced_decode.value = dflt.attention_dp_balanced_decode.value = 0;
        balanced.attention_dp_balance.value = 1.0;
        balanced.trtllm_eager_s_per_op.value = dflt.trtllm_eager_s_per_op.value = 0;
        balanced.trtllm_eager_s_per_op_fp4.value = dflt.trtllm_eager_s_per_op_fp4.value = 0;
        InferenceAssumptions balanced_nf = balanced, dflt_nf = dflt;
        for (InferenceAssumptions* a : {&balanced_nf, &dflt_nf})
            a->gemm_fixed_s.value = a->attention_fixed_s.value = a->elementwise_fixed_s.value = 0;
        const GpuSpec& h200 = *cat_.gpu("h200-sxm");
        const double step_bal = decode_step_time(m, s, h200, node_, 256, 1500, balanced_nf) -
                                balanced.step_overhead_s.value;
        const double step_dflt =
            decode_step_time(m, s, h200, node_, 256, 1500, dflt_nf) - dflt.step_overhead_s.value;
        QCOMPARE(step_dflt, step_bal / 0.649);
        const double fixed_bal = decode_step_time(m, s, h200, node_, 256, 1500, balanced) -
                                 decode_step_time(m, s, h200, node_, 256, 1500, balanced_nf);
        const double fixed_dflt = decode_step_time(m, s, h200, node_, 256, 1500, dflt) -
                                  decode_step_time(m, s, h200, node_, 256, 1500, dflt_nf);
        QVERIFY(fixed_bal > 0);
        QVERIFY(std::abs(fixed_dflt - fixed_bal) < 1e-12);
        // Session 55: in a steady state TensorRT-LLM's decode-only steps pad every rank to the
        // largest rank's CUDA graph and run balanced; only the steps that carry a prompt wait
        // for the busiest rank. The step lies between the two, and the result says which share.
        InferenceAssumptions padded_nf = dflt_nf;
        padded_nf.attention_dp_balanced_decode.value = 1;
        const double step_padded = decode_step_time(m, s, h200, node_, 256, 1500, padded_nf) -
                                   padded_nf.step_overhead_s.value;
        QVERIFY2(step_padded > step_bal * 1.001 && step_padded < step_dflt * 0.999,
                 qPrintable(QString("%1 %2 %3").arg(step_bal).arg(step_padded).arg(step_dflt)));
        InferenceSpec at256 = s;
        at256.batch = 256;
        auto steady = infer(m, at256, h200, node_);
        QVERIFY2(steady.ok(), steady.error_text().c_str());
        const double share =
            mixed_step_share(at256, 256, MemoryAssumptions{}.max_batched_tokens.value);
        QVERIFY(share > 0 && share < 1);
        QCOMPARE(steady->busiest_rank_step_share, share);
        // A batch job keeps the blog's ratio on every step (it was measured on an offline batch).
        at256.requests = 2048;
        auto job = infer(m, at256, h200, node_);
        QVERIFY2(job.ok() && job->job_makespan_s > 0, job.error_text().c_str());
        QCOMPARE(job->busiest_rank_step_share, 1.0);
        // Session 56: a speculative verify pass is a decode-only step too: balanced in the steady
        // state as the decode step is (it was charged the busiest rank on every step, so turning
        // balanced decode on hardly moved a speculative TPOT).
        {
            InferenceSpec sp = s;
            sp.batch = 256;
            SpeculativeSpec spec;
            spec.draft = cat_.model("llama3.2-1b");
            InferenceAssumptions on_a, off_a;
            off_a.attention_dp_balanced_decode.value = 0;
            on_a.draft_cost_ratio.value = off_a.draft_cost_ratio.value = 0.05;
            auto on = infer(m, sp, h200, node_, 0, spec, on_a);
            auto off = infer(m, sp, h200, node_, 0, spec, off_a);
            auto on_plain = infer(m, sp, h200, node_, 0, {}, on_a);
            auto off_plain = infer(m, sp, h200, node_, 0, {}, off_a);
            QVERIFY(on.ok() && off.ok() && on_plain.ok() && off_plain.ok());
            const double plain = on_plain->tpot_s / off_plain->tpot_s;
            const double speculative = on->tpot_s / off->tpot_s;
            QVERIFY2(plain < 0.95 && speculative < 1.0 - 0.7 * (1.0 - plain),
                     qPrintable(QString("plain %1, speculative %2").arg(plain).arg(speculative)));
        }
        // Without attention DP nothing waits.
        at256.attention_dp = false;
        at256.requests = 0;
        auto plain = infer(m, at256, h200, node_);
        QVERIFY(plain.ok());
        QCOMPARE(plain->busiest_rank_step_share, 0.0);

        // A dense model: refused, naming the flag.
        InferenceSpec d;
        d.tp = 2;
        d.attention_dp = true;
        auto dense = infer(*cat_.model("llama3-8b"), d, *cat_.gpu("h100-sxm"), node_);
        QVERIFY(!dense.ok());
        QVERIFY2(dense.error_text().find("--attention-dp") != std::string::npos,
                 dense.error_text().c_str());
        // At TP 1 it changes nothing.
        InferenceSpec one;
        one.weights_dtype = WeightsDtype::fp8;
        auto a = infer(*cat_.model("qwen3-30b-a3b"), one, *cat_.gpu("h100-sxm"), node_);
        one.attention_dp = true;
        auto b = infer(*cat_.model("qwen3-30b-a3b"), one, *cat_.gpu("h100-sxm"), node_);
        QVERIFY(a.ok() && b.ok());
        QCOMPARE(b->output_tokens_per_s, a->output_tokens_per_s);
    }

    // TensorRT-LLM's host time per sequence (session 33): a decode step is at least the
    // executor's Python work for its sequences, 13.8 us each on x86 and 34.4 us on Grace.
    // Session 39: a box of PCIe cards (no NVLink) is a PCIe domain: its TP collectives take
    // PCIe time (they were refused, and serving counted them as 0 s). GPUs with no path
    // between them are refused for TP, never served with free collectives.
    // Session 44: a serving engine's TP all-reduce is its own kernel as measured in it
    // (catalog: engine_allreduce), where the group sits as it was measured -- inside one
    // NVSwitch server for an NVLink GPU; the collective model elsewhere.
    // Session 45: an NVFP4 checkpoint may leave the attention projections in 16 bits (ModelOpt
    // exclude_modules). DeepSeek's published NVFP4 checkpoints keep q_a, q_b, kv_a and kv_b in
    // 16 bits (the catalog's default for the model); the workload may say otherwise. Those
    // weights are stored, read and multiplied in 16 bits.
    void nvfp4AttentionPrecision() {
        const ModelArch& m = *cat_.model("deepseek-v3");
        QCOMPARE(m.nvfp4_attention, Fp4Attention::bf16_except_output);
        QCOMPARE(cat_.model("qwen3-235b-a22b")->nvfp4_attention, Fp4Attention::fp4);
        const GpuSpec& b200 = *cat_.gpu("b200");
        const Topology dgx = cl::test::single_system("dgx-b200");
        InferenceSpec s;
        s.tp = 8;
        s.attention_dp = true;
        s.engine = ServingEngine::trtllm;
        s.weights_dtype = WeightsDtype::fp4;
        s.kv_dtype = KvDtype::fp8;
        s.input_len = 1024;
        s.output_len = 2048;
        s.batch = 1024;
        const double att = m.attention_params_per_layer();
        const double out = m.attention_output_params_per_layer();
        QCOMPARE(out, 128.0 * 128.0 * 7168.0); // heads x v_head_dim x hidden
        QCOMPARE(fp4_attention_of(m, s), Fp4Attention::bf16_except_output);
        QCOMPARE(attention_params_16bit(m, s), att - out);
        auto with = [&](Fp4Attention fa) {
            InferenceSpec x = s;
            x.fp4_attention = fa;
            auto r = infer(m, x, b200, dgx);
            if (!r.ok())
                qFatal("%s", r.error_text().c_str());
            return *r;
        };
        const auto ckpt = with(Fp4Attention::checkpoint), fp4 = with(Fp4Attention::fp4),
                   part = with(Fp4Attention::bf16_except_output), all = with(Fp4Attention::bf16);
        QCOMPARE(ckpt.memory.weights_bytes_per_gpu, part.memory.weights_bytes_per_gpu);
        QCOMPARE(ckpt.decode_step_s, part.decode_step_s);
        // Attention DP: every GPU holds every layer's attention, so each 16-bit weight costs
        // 2 - 4.5/8 bytes more on every GPU.
        const double per = 2.0 - weight_bits(WeightsDtype::fp4) / 8.0;
        QCOMPARE(all.memory.weights_bytes_per_gpu - fp4.memory.weights_bytes_per_gpu,
                 m.layers * att * per);
        QCOMPARE(part.memory.weights_bytes_per_gpu - fp4.memory.weights_bytes_per_gpu,
                 m.layers * (att - out) * per);
        // Read and multiplied in 16 bits: each step is longer the more of attention is.
        QVERIFY(fp4.decode_step_s < part.decode_step_s);
        QVERIFY(part.decode_step_s < all.decode_step_s);
        QVERIFY(fp4.prefill_s < all.prefill_s);
        // Other weight formats carry no 16-bit attention: the choice changes nothing.
        InferenceSpec f8 = s;
        f8.weights_dtype = WeightsDtype::fp8;
        QCOMPARE(attention_params_16bit(m, f8), 0.0);
        f8.fp4_attention = Fp4Attention::bf16;
        auto a = infer(m, f8, b200, dgx);
        f8.fp4_attention = Fp4Attention::fp4;
        auto b = infer(m, f8, b200, dgx);
        QVERIFY(a.ok() && b.ok());
        QCOMPARE(a->decode_step_s, b->decode_step_s);
        QCOMPARE(a->memory.weights_bytes_per_gpu, b->memory.weights_bytes_per_gpu);
        // A model whose checkpoint quantises every linear: the default is NVFP4 throughout.
        const ModelArch& l = *cat_.model("llama3-70b");
        InferenceSpec d;
        d.weights_dtype = WeightsDtype::fp4;
        d.engine = ServingEngine::trtllm;
        QCOMPARE(attention_params_16bit(l, d), 0.0);
        d.fp4_attention = Fp4Attention::bf16;
        QCOMPARE(attention_params_16bit(l, d), l.attention_params_per_layer());
    }

    void engineMeasuredAllReduce() {
        const ModelArch& m = *cat_.model("llama3.1-405b");
        const GpuSpec& h100 = *cat_.gpu("h100-sxm");
        InferenceSpec s = trtllm_fp8_tp8();
        GpuSpec bare = h100; // the same GPU without the measured tables
        bare.engine_allreduce.clear();
        auto with = infer(m, s, h100, node_);
        auto without = infer(m, s, bare, node_);
        QVERIFY2(with.ok() && without.ok(), (with.error_text() + without.error_text()).c_str());
        QCOMPARE(with->batch, without->batch);
        const double act = with->batch * m.hidden * 2.0;
        const EngineAllReduce* a = engine_allreduce(h100, ServingEngine::trtllm, 8);
        QVERIFY(a);
        // The traffic the step charges: two of the measured all-reduces per layer, said so.
        const auto t = serving_traffic(m, s, h100, node_, with->batch);
        QCOMPARE(t.size(), std::size_t{1});
        QCOMPARE(t[0].busy_s, 2.0 * m.layers * engine_allreduce_seconds(*a, act));
        QVERIFY2(t[0].what.find("measured in TensorRT-LLM " + a->version) != std::string::npos,
                 t[0].what.c_str());
        const auto t0 = serving_traffic(m, s, bare, node_, with->batch);
        QCOMPARE(t0[0].busy_s,
                 2.0 * m.layers *
                     collective_seconds(CollectiveOp::allreduce, act, node_,
                                        place_group(node_, 8, 1), CollectiveAlgo::automatic, {}));
        QVERIFY(t0[0].what.find("measured") == std::string::npos);
        // At this batch (~30 MB messages) the engine's all-reduce is slower than NCCL's NVLS
        // model: the decode step is longer by what the TP time differs, give or take the
        // CUDA-graph padding the step's collectives run over.
        QVERIFY(t[0].busy_s > t0[0].busy_s);
        const double d_step = with->decode_step_s - without->decode_step_s;
        const double d_comm = (t[0].busy_s - t0[0].busy_s) / s.pp;
        QVERIFY2(d_step > 0.9 * d_comm && d_step < 1.2 * d_comm,
                 qPrintable(QStringLiteral("%1 vs %2").arg(d_step).arg(d_comm)));
        // Each engine its own table: vLLM's custom all-reduce differs from TensorRT-LLM's.
        InferenceSpec v = s;
        v.engine = ServingEngine::vllm;
        const auto tv = serving_traffic(m, v, h100, node_, with->batch);
        QCOMPARE(tv[0].busy_s, 2.0 * m.layers *
                                   engine_allreduce_seconds(
                                       *engine_allreduce(h100, ServingEngine::vllm, 8), act));
        // Where nothing was measured: TP 16 over two servers, three GPUs, H100s drawn without
        // an NVSwitch.
        const Topology two = analyze_topology(cl::test::preset("h100-ndr-2node"), cat_);
        InferenceSpec wide = s;
        wide.tp = 16;
        const auto tw = serving_traffic(m, wide, h100, two, 64);
        QVERIFY(tw[0].what.find("measured") == std::string::npos);
        InferenceSpec three = s;
        three.tp = 3;
        QVERIFY(serving_traffic(m, three, h100, node_, 64)[0].what.find("measured") ==
                std::string::npos);
        const Topology box = analyze_topology(cl::test::pcie_box("h100-sxm", 8), cat_);
        QVERIFY(!box.nvswitch); // eight SXM cards drawn in a server without NVSwitches
        QVERIFY(serving_traffic(m, s, h100, box, 64)[0].what.find("measured") == std::string::npos);
        // The design's own nccl-tests fit of the scale-up domain is the user's measurement:
        // it times the all-reduces instead of the bundled table.
        CollectiveAssumptions fit;
        fit.calibration.resize(1);
        fit.calibration[0].alpha_s = 10e-6;
        fit.calibration[0].beta_Bps = 300e9;
        QVERIFY(!serving_tp_allreduce(m, s, h100, node_, fit));
        QVERIFY(serving_tp_allreduce(m, s, h100, node_) == a);
        QVERIFY(serving_traffic(m, s, h100, node_, 64, fit)[0].what.find("measured") ==
                std::string::npos);
        // A PCIe card's table was measured over PCIe: it applies in a PCIe box.
        const Topology rtx = analyze_topology(cl::test::pcie_box("rtx-pro-6000", 8), cat_);
        QVERIFY(serving_traffic(m, v, *cat_.gpu("rtx-pro-6000"), rtx, 64)[0].what.find(
                    "measured in vLLM") != std::string::npos);
    }

    void pcieBoxCollectivesCostTime() {
        const Design d = cl::test::pcie_box("rtx-pro-6000", 8);
        const Topology box = analyze_topology(d, cat_);
        QCOMPARE(box.scaleup_domain, 8);
        QVERIFY(box.pcie_only);
        const ModelArch& m = *cat_.model("llama3-8b");
        InferenceSpec s;
        s.tp = 4;
        s.weights_dtype = WeightsDtype::fp8;
        s.input_len = 1000;
        s.output_len = 1000;
        auto r = infer(m, s, *cat_.gpu("rtx-pro-6000"), box);
        QVERIFY2(r.ok(), r.error_text().c_str());
        const auto traffic = serving_traffic(m, s, *cat_.gpu("rtx-pro-6000"), box, r->batch);
        QCOMPARE(traffic.size(), std::size_t{1});
        // Two all-reduces of the batch's activations per layer, over PCIe 5.0 x16 (63 GB/s a
        // way, 80 %): a ring all-reduce moves 2 (n-1)/n of them per GPU, at least this long.
        const double act = r->batch * m.hidden * 2.0;
        const double floor = 2.0 * m.layers * 2.0 * 3.0 / 4.0 * act / (63e9 * 0.8);
        QVERIFY2(traffic[0].busy_s >= floor * 0.99,
                 qPrintable(QStringLiteral("%1 s < %2 s").arg(traffic[0].busy_s).arg(floor)));
        // A PCIe box beside an NVLink system leaves the NVLink domain as it was.
        Design mixed = cl::test::preset("h100-ndr-2node");
        const Topology nv = analyze_topology(mixed, cat_);
        for (const auto& dev : d.devices)
            mixed.devices.push_back(dev);
        const Topology both = analyze_topology(mixed, cat_);
        QCOMPARE(both.scaleup_domain, nv.scaleup_domain);
        QCOMPARE(both.pcie_only, nv.pcie_only);
        QCOMPARE(both.scaleup_Bps_per_gpu, nv.scaleup_Bps_per_gpu);
        // Two cards with no box and no link between them: no path for TP 2.
        Design apart;
        Device a;
        a.id = "a";
        a.kind = DeviceKind::gpu;
        a.catalog = "rtx-pro-6000";
        a.count = 2;
        apart.devices = {a};
        s.tp = 2;
        auto refused = infer(m, s, *cat_.gpu("rtx-pro-6000"), analyze_topology(apart, cat_));
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error_text().find("tensor parallel over 2 GPUs cannot run") !=
                         std::string::npos &&
                     refused.error_text().find("--") == std::string::npos, // no CLI flag
                 refused.error_text().c_str());
    }

    void hostTimePerSequence() {
        const ModelArch& m = *cat_.model("qwen3-30b-a3b");
        InferenceSpec s;
        s.weights_dtype = WeightsDtype::fp4;
        s.kv_dtype = KvDtype::fp8;
        s.engine = ServingEngine::trtllm;
        InferenceAssumptions ia;
        const GpuSpec& b200 = *cat_.gpu("b200");
        const GpuSpec& gb200 = *cat_.gpu("gb200");
        QVERIFY(gb200.grace_host && !b200.grace_host);
        QCOMPARE(host_step_floor(m, s, b200, 2048, ia), 2048 * 13.8e-6);
        QCOMPARE(host_step_floor(m, s, gb200, 2048, ia), 2048 * 34.4e-6);
        // Host-bound at 2,048 sequences: the step is the host's time plus the step overhead.
        // At 2,048 sequences of 500 output tokens every step admits prompts, so every step runs
        // eagerly: the host also launches the forward's ops (session 34).
        const double step = decode_step_time(m, s, gb200, node_, 2048, 192, ia);
        QCOMPARE(mixed_step_share(s, 2048, 8192), 1.0);
        QCOMPARE(step, 2048 * 34.4e-6 + trtllm_eager_launch_s(m, s, gb200, ia) +
                           ia.step_overhead_s.value);
        // The user's value is used: no host time, a shorter (GPU-bound) step.
        InferenceAssumptions none = ia;
        none.trtllm_host_s_per_sequence_grace.value = 0;
        QVERIFY(decode_step_time(m, s, gb200, node_, 2048, 192, none) < step);
        // Other engines: no per-sequence term.
        InferenceSpec v = s;
        v.engine = ServingEngine::vllm;
        QCOMPARE(host_step_floor(m, v, gb200, 2048, ia), 0.0);
        // Attention DP: each of the TP executors runs its own share.
        InferenceSpec a = s;
        a.tp = 4;
        a.attention_dp = true;
        QCOMPARE(host_step_floor(m, a, b200, 2048, ia), 512 * 13.8e-6);
    }

    /// NVFP4 weights, FP8 KV, an engine without host terms (vLLM): the GPU's step alone, for the
    /// grouped NVFP4 laws' tests.
    static InferenceSpec nvfp4_gpu_only() {
        InferenceSpec s;
        s.weights_dtype = WeightsDtype::fp4;
        s.kv_dtype = KvDtype::fp8;
        s.engine = ServingEngine::vllm;
        return s;
    }

    // Session 42: MLA decodes absorbed (DeepSeek-V2 sec. 2.1.3; TensorRT-LLM tech blog 3): each of
    // the 128 heads scores the 512 + 64 latent and sums the 512 one, 2 x 128 x (2 x 512 + 64)
    // FLOPs per cached token, 2.83x the non-absorbed count the model charged before. With
    // attention DP every GPU runs all heads over its own sequences: compute-bound (483 FLOP a
    // cached FP8 byte), so the step grows by exactly that work over the attention rate as the
    // context grows.
    void mlaDecodesAbsorbed() {
        const ModelArch& m = *cat_.model("deepseek-v3");
        QVERIFY(m.attention() == AttentionKind::mla);
        const GpuSpec& b200 = *cat_.gpu("b200");
        InferenceSpec s = nvfp4_gpu_only();
        s.tp = 8;
        s.attention_dp = true;
        InferenceAssumptions ia;
        ia.attention_dp_balance.value = 1.0; // the balanced step
        const int batch = 2048;
        const double c1 = 2048, c2 = 4096;
        const double grew = decode_step_time(m, s, b200, node_, batch, c2, ia) -
                            decode_step_time(m, s, b200, node_, batch, c1, ia);
        const double att_eff = b200.attention_efficiency > 0
                                   ? b200.attention_efficiency
                                   : b200.gemm_efficiency(Dtype::bf16) * 0.83;
        const double rate = b200.peak(Dtype::bf16) * att_eff * ia.sustained_vs_best_gemm.value;
        const double per_ctx = 2.0 * m.heads * (2.0 * m.kv_lora_rank + m.qk_rope_head_dim);
        QCOMPARE(per_ctx, 278528.0);
        const double expect = m.layers * batch * (c2 - c1) * per_ctx / s.tp / rate;
        QVERIFY2(std::abs(grew / expect - 1.0) < 1e-9,
                 qPrintable(QStringLiteral("%1 vs %2").arg(grew).arg(expect)));
        // Compute-bound indeed: the cached latent read in the same time needs more than HBM.
        const double kv_bytes = batch / s.tp * (c2 - c1) * (m.kv_lora_rank + m.qk_rope_head_dim) *
                                m.layers; // FP8: a byte an element
        QVERIFY(kv_bytes / grew < b200.memory_bandwidth_Bps);
    }

    // Session 43: Llama 4's local layers are chunked (a query attends to its own aligned chunk
    // of 8,192 tokens), not a sliding window. A 20,000-token prompt's queries see 3,682 tokens
    // on average there (chunks 8,192 + 8,192 + 3,616), where the window model charged 8,192
    // (min(prompt / 2, window)): attention is compute-bound there, so the prefill's time moves
    // by exactly the context it charges. Decoding, TensorRT-LLM attends over the chunk size as
    // a window (chunked attention applies to its context requests only, long-sequence.md), so
    // its step is the window model's; vLLM attends to the chunk (3,617 tokens at 20,001).
    void llama4ChunkedAttention() {
        const ModelArch& chunked = *cat_.model("llama4-maverick");
        QVERIFY(chunked.local_attention == LocalAttention::chunked);
        ModelArch sliding = chunked, global = chunked;
        sliding.local_attention = LocalAttention::sliding;
        global.sliding_window = 0; // every layer global: the prompt's queries see 10,000
        global.local_attention = LocalAttention::sliding;
        const GpuSpec& h200 = *cat_.gpu("h200-sxm");
        InferenceSpec s;
        s.tp = 8;
        s.weights_dtype = WeightsDtype::fp8;
        s.kv_dtype = KvDtype::fp8;
        s.engine = ServingEngine::trtllm;
        const double pc = prefill_time(chunked, s, h200, node_, 1, 20000);
        const double ps = prefill_time(sliding, s, h200, node_, 1, 20000);
        const double pg = prefill_time(global, s, h200, node_, 1, 20000);
        QVERIFY2(pc < ps && ps < pg,
                 qPrintable(QStringLiteral("%1 %2 %3").arg(pc).arg(ps).arg(pg)));
        const double chunk_ctx = (2.0 * 8192.0 * 8192.0 + 3616.0 * 3616.0) / 2.0 / 20000.0;
        const double expect = (10000.0 - 8192.0) / (10000.0 - chunk_ctx);
        QVERIFY2(std::abs((pg - ps) / (pg - pc) / expect - 1.0) < 1e-9,
                 qPrintable(QStringLiteral("%1 vs %2").arg((pg - ps) / (pg - pc)).arg(expect)));
        // Decoding at 20,000 cached tokens, 256 sequences.
        const double tc = decode_step_time(chunked, s, h200, node_, 256, 20000);
        const double ts = decode_step_time(sliding, s, h200, node_, 256, 20000);
        QCOMPARE(tc, ts);
        s.engine = ServingEngine::vllm;
        const double vc = decode_step_time(chunked, s, h200, node_, 256, 20000);
        const double vs = decode_step_time(sliding, s, h200, node_, 256, 20000);
        const double vg = decode_step_time(global, s, h200, node_, 256, 20000);
        QVERIFY2(vc < vs && vs < vg,
                 qPrintable(QStringLiteral("%1 %2 %3").arg(vc).arg(vs).arg(vg)));
        // Memory: every engine allocates one chunk of each local layer, as for a window.
        auto ic = infer(chunked, s, h200, node_);
        auto is = infer(sliding, s, h200, node_);
        QVERIFY2(ic.ok() && is.ok(), (ic.error_text() + is.error_text()).c_str());
        QCOMPARE(ic->memory.kv_bytes_per_token_per_gpu, is->memory.kv_bytes_per_token_per_gpu);
    }

    // Session 41: B200's grouped NVFP4 GEMM streams an expert's matrices at the measured rate x
    // [sum S / (sum S + 2 S0)] / [S_ref / (S_ref + S0)] (inference.fp4_grouped_matrix_fixed_bytes):
    // slower for small experts, exactly the measured rate at CUTLASS #2266's 2,048 x 7,168
    // matrices, and flat on a GPU with its own measured rate.
    void groupedFp4StreamingBySize() {
        const GpuSpec& b200 = *cat_.gpu("b200");
        const GpuSpec& rtx = *cat_.gpu("rtx-pro-6000");
        const InferenceSpec s = nvfp4_gpu_only(); // no host terms: the GPU's step alone
        InferenceAssumptions ia, flat;
        flat.fp4_grouped_matrix_fixed_bytes.value = 0;
        const double s0 = ia.fp4_grouped_matrix_fixed_bytes.value;
        QCOMPARE(s0, 1.1e6);
        // Qwen3-30B-A3B at batch 1: memory-bound, the 8 routed experts' weights dominate. The
        // step grows by exactly their streaming time x (1 / f - 1).
        const ModelArch& q = *cat_.model("qwen3-30b-a3b");
        const double w = 4.5 / 8.0; // NVFP4 bytes per weight (an FP8 scale per 16)
        const double fc1 = 2.0 * q.hidden * q.moe_ffn * w, fc2 = 1.0 * q.hidden * q.moe_ffn * w;
        const double ref = 2048.0 * 7168.0 * w;
        const double f = ((fc1 + fc2) / (fc1 + fc2 + 2 * s0)) / (ref / (ref + s0));
        QVERIFY(f > 0.6 && f < 0.65); // ~0.62: 2.65 MB experts stream at ~0.27 of 8 TB/s
        const double routed = q.top_k * (fc1 + fc2) * q.moe_layers_in(0, q.layers);
        const double whbm = b200.memory_bandwidth_Bps * ia.fp4_weight_stream_efficiency.value *
                            b200.decode_memory_factor;
        const double grew = decode_step_time(q, s, b200, node_, 1, 512, ia) -
                            decode_step_time(q, s, b200, node_, 1, 512, flat);
        const double expect = routed / whbm * (1.0 / f - 1.0);
        QVERIFY2(std::abs(grew / expect - 1.0) < 0.01,
                 qPrintable(QStringLiteral("%1 vs %2").arg(grew).arg(expect)));
        // Experts of CUTLASS #2266's size stream at exactly the measured rate.
        ModelArch big = q;
        big.mlp = Mlp::gelu; // two 7,168 x 2,048 matrices an expert
        big.hidden = 7168;
        big.moe_ffn = 2048;
        big.layers = 4;
        QCOMPARE(decode_step_time(big, s, b200, node_, 1, 512, ia),
                 decode_step_time(big, s, b200, node_, 1, 512, flat));
        // A GPU with its own measured NVFP4 rate (sm_120) keeps it flat.
        QVERIFY(rtx.fp4_weight_stream_efficiency > 0);
        QCOMPARE(decode_step_time(q, s, rtx, node_, 1, 512, ia),
                 decode_step_time(q, s, rtx, node_, 1, 512, flat));
        // Dense models have no grouped GEMM.
        const ModelArch& dense = *cat_.model("llama3-8b");
        QCOMPARE(decode_step_time(dense, s, b200, node_, 8, 512, ia),
                 decode_step_time(dense, s, b200, node_, 8, 512, flat));
    }

    // Session 51: an MXFP4 checkpoint (gpt-oss) holds 4.25 bits a weight (an E8M0 scale per
    // 32), and on datacenter Blackwell its experts run on the trtllm-gen fused MoE, streaming
    // at mxfp4_moe_stream_efficiency without the CUTLASS NVFP4 size law. Known answer: at batch
    // 1 (memory-bound) the step shrinks by the routed experts' bytes at the NVFP4 law's rate
    // less the same bytes at the trtllm-gen rate. Nothing else moves: an NVFP4 model, Hopper
    // (no FP4 tensor cores: dequantised to 16 bits) and sm_120 (CUTLASS, its own rate).
    void mxfp4ExpertsOnBlackwell() {
        const GpuSpec& b200 = *cat_.gpu("b200");
        const ModelArch& oss = *cat_.model("gpt-oss-120b");
        QCOMPARE(oss.fp4_format, Fp4Format::mxfp4);
        InferenceSpec s = nvfp4_gpu_only();
        InferenceAssumptions ia, off;
        off.mxfp4_moe_stream_efficiency.value = 0; // the NVFP4 rate and size law, as before
        QCOMPARE(ia.mxfp4_moe_stream_efficiency.value, 0.79);
        // Bits: 4.25 for MXFP4, 4.5 for NVFP4.
        QCOMPARE(weight_bits(WeightsDtype::fp4, Fp4Format::mxfp4), 4.25);
        QCOMPARE(weight_bits(WeightsDtype::fp4), 4.5);
        ModelArch as_nv = oss;
        as_nv.fp4_format = Fp4Format::nvfp4;
        const auto mx_mem = inference_memory(oss, s, b200),
                   nv_mem = inference_memory(as_nv, s, b200);
        QVERIFY(mx_mem.ok() && nv_mem.ok());
        // The experts' (and the routers': 0.01 %) quarter bit a weight.
        const double experts = 3.0 * oss.hidden * oss.moe_ffn * oss.experts * oss.layers;
        QVERIFY2(std::abs((nv_mem->weights_bytes_per_gpu - mx_mem->weights_bytes_per_gpu) /
                              (experts * 0.25 / 8.0) -
                          1.0) < 1e-3,
                 qPrintable(QString::number(nv_mem->weights_bytes_per_gpu -
                                            mx_mem->weights_bytes_per_gpu)));
        // The routed experts' streaming, batch 1: top-k experts a layer.
        const double w = 4.25 / 8.0;
        const double fc1 = 2.0 * oss.hidden * oss.moe_ffn * w,
                     fc2 = 1.0 * oss.hidden * oss.moe_ffn * w;
        const double s0 = ia.fp4_grouped_matrix_fixed_bytes.value;
        const double ref = 2048.0 * 7168.0 * 4.5 / 8.0;
        const double law = ((fc1 + fc2) / (fc1 + fc2 + 2 * s0)) / (ref / (ref + s0));
        const double bw = b200.memory_bandwidth_Bps * b200.decode_memory_factor;
        const double routed = oss.top_k * (fc1 + fc2) * oss.layers;
        const double expect = routed / (bw * ia.fp4_weight_stream_efficiency.value * law) -
                              routed / (bw * ia.mxfp4_moe_stream_efficiency.value);
        const double shrank = decode_step_time(oss, s, b200, node_, 1, 512, off) -
                              decode_step_time(oss, s, b200, node_, 1, 512, ia);
        QVERIFY2(expect > 100e-6 && std::abs(shrank / expect - 1.0) < 0.02,
                 qPrintable(QStringLiteral("%1 vs %2").arg(shrank).arg(expect)));
        // Nothing else moves.
        const ModelArch& qwen = *cat_.model("qwen3-30b-a3b");
        QCOMPARE(decode_step_time(qwen, s, b200, node_, 8, 512, ia),
                 decode_step_time(qwen, s, b200, node_, 8, 512, off));
        for (const char* gpu : {"h200-sxm", "rtx-pro-6000"}) {
            const GpuSpec& g = *cat_.gpu(gpu);
            QCOMPARE(decode_step_time(oss, s, g, node_, 8, 512, ia),
                     decode_step_time(oss, s, g, node_, 8, 512, off));
        }
    }

    // Session 41: where every GPU holds every expert, B200's grouped NVFP4 GEMM computes at
    // fp4_grouped_gemm_flops x K / (K + fp4_grouped_gemm_k0) x tiles, plus the routing per token
    // (fitted to aiconfigurator's measured CUTLASS MoE module times). Known answer: with the
    // roofline's plain max (compute-bound prefill), the step grows by exactly the routed GEMMs'
    // new time less their old, plus the routing, on every MoE layer.
    void groupedFp4ComputeLaw() {
        const GpuSpec& b200 = *cat_.gpu("b200");
        const ModelArch& q = *cat_.model("qwen3-30b-a3b");
        const InferenceSpec s = nvfp4_gpu_only();
        InferenceAssumptions ia, dense;
        ia.roofline_overlap_exponent.value = 1000; // the larger of compute and streaming
        dense = ia;
        dense.fp4_grouped_gemm_flops.value = 0;
        dense.moe_routing_s_per_token.value = 0;
        dense.moe_routing_s_per_choice.value = 0;
        const double T = 16384;
        const double grew = prefill_time(q, s, b200, node_, 1, T, ia) -
                            prefill_time(q, s, b200, node_, 1, T, dense);
        const double h = q.hidden, f = q.moe_ffn, k = q.top_k;
        const double gemm = b200.peak(Dtype::fp4) * b200.gemm_efficiency(Dtype::fp4) *
                            ia.sustained_vs_best_gemm.value;
        auto harmonic = [&](double k0) {
            const double e1 = gemm_nk_efficiency(h, 2 * f, k0), e2 = gemm_nk_efficiency(f, h, k0);
            return 1.0 / ((2.0 / 3.0) / e1 + (1.0 / 3.0) / e2);
        };
        const double per_expert = 3.0 * h * f;
        const double law =
            2.0 * T * per_expert * k /
            (harmonic(ia.fp4_grouped_gemm_k0.value) * ia.fp4_grouped_gemm_flops.value);
        const double before =
            2.0 * T * per_expert * k / (harmonic(kloop_fixed_elements(0.5)) * gemm);
        const double routing = T * (ia.moe_routing_s_per_token.value +
                                    ia.moe_routing_s_per_choice.value * q.experts * k);
        const double expect = q.moe_layers() * (law - before + routing);
        QVERIFY2(std::abs(grew / expect - 1.0) < 1e-9,
                 qPrintable(QStringLiteral("%1 vs %2").arg(grew).arg(expect)));
        QVERIFY(grew > 0); // small experts: slower than the dense law said
        // Not with expert parallelism (attention DP at EP 8: the fit overestimates there), not on
        // a GPU with its own NVFP4 rate, not for dense models.
        const ModelArch& big = *cat_.model("qwen3-235b-a22b");
        InferenceSpec a = s;
        a.tp = 8;
        a.attention_dp = true;
        a.ep = 8;
        const Topology dgx = cl::test::single_system("dgx-b200");
        QCOMPARE(prefill_time(big, a, b200, dgx, 1, 4096, ia),
                 prefill_time(big, a, b200, dgx, 1, 4096, dense));
        const GpuSpec& rtx = *cat_.gpu("rtx-pro-6000");
        QCOMPARE(prefill_time(q, s, rtx, node_, 1, 4096, ia),
                 prefill_time(q, s, rtx, node_, 1, 4096, dense));
        const ModelArch& d8 = *cat_.model("llama3-8b");
        QCOMPARE(prefill_time(d8, s, b200, node_, 1, 4096, ia),
                 prefill_time(d8, s, b200, node_, 1, 4096, dense));
    }

    // Session 34 (helper-26): a sequence's TPOT carries the others' interleaved prompts, not its
    // own (that is its TTFT): one stream decodes at the step, whatever its prompt; b streams
    // pay (b - 1) / b of the batch's prefill over their output tokens.
    void tpotExcludesOwnPrompt() {
        const ModelArch& m = *cat_.model("llama3-8b");
        const GpuSpec& g = *cat_.gpu("rtx-4090");
        InferenceSpec s;
        s.engine = ServingEngine::llamacpp;
        s.weights_dtype = WeightsDtype::q4_k_m;
        s.input_len = 8192;
        s.output_len = 512;
        s.batch = 1;
        auto one = infer(m, s, g, node_);
        QVERIFY2(one.ok(), one.error_text().c_str());
        QCOMPARE(one->tpot_s, one->decode_step_s);
        QVERIFY(one->ttft_s > one->prefill_s); // the prompt is in TTFT
        s.batch = 4;
        auto four = infer(m, s, g, node_);
        QVERIFY(four.ok());
        const double pf = prefill_time(m, s, g, node_, 4, 8192);
        QVERIFY(std::abs(four->tpot_s - (pf * 3.0 / 4.0 + 512 * four->decode_step_s) / 512) <
                1e-12);
    }

    // Session 34: TensorRT-LLM runs a decode-only step as the CUDA graph of the next captured
    // batch (cuda_graph_runner.py _get_padded_batch; the v1.0 performance overview pads), and
    // a step that carries a prompt eagerly, its Python thread launching the forward op by op.
    void cudaGraphsAndEagerSteps() {
        // Captured: 1, 2, 4, ..., 256, 384, 512, 1,024, ... up to min(max batch, max tokens),
        // and that one.
        QCOMPARE(trtllm_graph_batch(161, 2048, 8192, true), 256);
        QCOMPARE(trtllm_graph_batch(300, 2048, 8192, true), 384);
        QCOMPARE(trtllm_graph_batch(161, 192, 8192, true), 192); // padded to the max batch
        QCOMPARE(trtllm_graph_batch(200, 2048, 256, true), 256); // max tokens bound it
        QCOMPARE(trtllm_graph_batch(300, 2048, 256, true), 0);   // above it: eager
        QCOMPARE(trtllm_graph_batch(3000, 2048, 8192, true), 0);
        QCOMPARE(trtllm_graph_batch(161, 2048, 8192, false), 0); // no padding: eager
        QCOMPARE(trtllm_graph_batch(256, 2048, 8192, false), 256);
        QCOMPARE(trtllm_graph_batch(1, 2048, 8192, true), 1);
        // Steps that carry a prompt: batch / output_len prompts start per step, each taking
        // ceil(input / max tokens) steps.
        InferenceSpec s;
        s.input_len = 128;
        s.output_len = 128;
        QCOMPARE(mixed_step_share(s, 2048, 8192), 1.0);
        QCOMPARE(mixed_step_share(s, 32, 8192), 0.25);
        s.input_len = 20000;
        s.output_len = 2000;
        QCOMPARE(mixed_step_share(s, 100, 8192), 0.15);

        // Llama 3 70B FP8 on H200 at 161 sequences of a long decode: padded to 256, the step's
        // GEMMs run 256 rows -- longer than unpadded, shorter than 256 real sequences (the
        // padding attends to nothing).
        const ModelArch& m = *cat_.model("llama3-70b");
        const GpuSpec& h200 = *cat_.gpu("h200-sxm");
        InferenceSpec d;
        d.weights_dtype = WeightsDtype::fp8;
        d.kv_dtype = KvDtype::fp8;
        d.engine = ServingEngine::trtllm;
        d.input_len = 128;
        d.output_len = 1000000; // next to no prompts
        InferenceAssumptions pad, nopad;
        nopad.trtllm_cuda_graph_padding.value = 0;
        nopad.trtllm_eager_s_per_op.value = 0; // the eager step then costs what the GPU does
        nopad.trtllm_eager_s_per_op_fp4.value = 0;
        const double padded = decode_step_time(m, d, h200, node_, 161, 1100, pad);
        const double unpadded = decode_step_time(m, d, h200, node_, 161, 1100, nopad);
        QVERIFY2(padded > 1.05 * unpadded, qPrintable(QString::number(padded / unpadded)));
        QVERIFY(padded < decode_step_time(m, d, h200, node_, 256, 1100, pad));
        // At a captured batch padding changes nothing.
        QCOMPARE(decode_step_time(m, d, h200, node_, 256, 1100, pad),
                 decode_step_time(m, d, h200, node_, 256, 1100, nopad));

        // The eager launch: 11 ops per layer (+2 collectives with TP) x layers + 7, at 13.48 us
        // per op on x86 and 37.08 us on Grace (a PyTorch op), NVFP4 weights at 35 and 63 us
        // (Python custom ops); other engines none.
        const ModelArch& q = *cat_.model("qwen3-30b-a3b");
        InferenceAssumptions ia;
        InferenceSpec t;
        t.engine = ServingEngine::trtllm;
        t.weights_dtype = WeightsDtype::fp8;
        QCOMPARE(trtllm_eager_launch_s(q, t, *cat_.gpu("b200"), ia), 13.48e-6 * (11 * 48 + 7));
        QCOMPARE(trtllm_eager_launch_s(q, t, *cat_.gpu("gb200"), ia), 37.08e-6 * (11 * 48 + 7));
        t.weights_dtype = WeightsDtype::fp4;
        QCOMPARE(trtllm_eager_launch_s(q, t, *cat_.gpu("b200"), ia), 35e-6 * (11 * 48 + 7));
        QCOMPARE(trtllm_eager_launch_s(q, t, *cat_.gpu("gb200"), ia), 63e-6 * (11 * 48 + 7));
        // A model with its own count (Llama 4 Scout: 28 per layer) uses it; the user's default
        // does not replace it.
        const ModelArch& scout = *cat_.model("llama4-scout");
        QCOMPARE(scout.trtllm_eager_ops_per_layer, 28.0);
        QCOMPARE(trtllm_eager_launch_s(scout, t, *cat_.gpu("b200"), ia), 35e-6 * (28 * 48 + 7));
        ModelArch own = q;
        own.trtllm_eager_ops_per_layer = 20;
        QCOMPARE(trtllm_eager_launch_s(own, t, *cat_.gpu("b200"), ia), 35e-6 * (20 * 48 + 7));
        t.tp = 2;
        QCOMPARE(trtllm_eager_launch_s(q, t, *cat_.gpu("b200"), ia), 35e-6 * (13 * 48 + 7));
        t.engine = ServingEngine::vllm;
        QCOMPARE(trtllm_eager_launch_s(q, t, *cat_.gpu("b200"), ia), 0.0);
        // A host-bound eager step (Qwen3-30B-A3B, 2,048 sequences of 128/128 on a B200): the
        // launch adds to the per-sequence host time; the user's zero removes it.
        InferenceSpec e;
        e.engine = ServingEngine::trtllm;
        e.weights_dtype = WeightsDtype::fp4;
        e.kv_dtype = KvDtype::fp8;
        e.input_len = e.output_len = 128;
        InferenceAssumptions no_launch;
        no_launch.trtllm_eager_s_per_op_fp4.value = 0; // these weights are NVFP4
        const double with = decode_step_time(q, e, *cat_.gpu("b200"), node_, 2048, 192, ia);
        const double without =
            decode_step_time(q, e, *cat_.gpu("b200"), node_, 2048, 192, no_launch);
        QVERIFY(with > without);
        QCOMPARE(with, 2048 * 13.8e-6 + 35e-6 * (11 * 48 + 7) + ia.step_overhead_s.value);

        // The latency curve says which CUDA-graph batch each point's decode-only steps run:
        // 300 sequences pad to 384, 256 run their own graph; vLLM has none.
        InferenceSpec c = d;
        c.output_len = 1000;
        const auto curve = latency_throughput_curve(m, c, h200, node_, 1000, 64, 0, pad);
        bool padded_point = false;
        for (const auto& p : curve) {
            QVERIFY(p.graph_batch == 0 || p.graph_batch >= p.batch);
            if (p.batch == 256)
                QCOMPARE(p.graph_batch, 256);
            if (p.batch > 256 && p.batch <= 384)
                QCOMPARE(p.graph_batch, 384);
            padded_point = padded_point || p.graph_batch > p.batch;
        }
        QVERIFY(padded_point);
        c.engine = ServingEngine::vllm;
        for (const auto& p : latency_throughput_curve(m, c, h200, node_, 1000, 64, 0, pad))
            QCOMPARE(p.graph_batch, 0);

        // llama.cpp with 40 of 80 layers in system memory: from 32 sequences a step streams
        // those layers' weights over PCIe (the curve's jump; helper-27 saw it unexplained).
        InferenceSpec o;
        o.engine = ServingEngine::llamacpp;
        o.weights_dtype = WeightsDtype::q4_k_m;
        o.kv_dtype = KvDtype::fp16;
        o.offload_layers = 40;
        o.input_len = 128;
        o.output_len = 128;
        const auto oc = latency_throughput_curve(m, o, *cat_.gpu("rtx-4090"), node_, 60, 64);
        QVERIFY(!oc.empty());
        for (const auto& p : oc)
            QCOMPARE(p.streams_offloaded, p.batch >= 32);
        o.offload_layers = 0;
        for (const auto& p : latency_throughput_curve(*cat_.model("llama3-8b"), o,
                                                      *cat_.gpu("rtx-4090"), node_, 60, 64))
            QVERIFY(!p.streams_offloaded);
    }

    // A100 80 GB (TensorRT-LLM publishes such runs): vLLM's fraction of the whole card (79.14 GiB
    // as CUDA reports it, 85.0 GB) leaves little room after 69 GB of weights per GPU, and none
    // at 0.8; TensorRT-LLM takes 90% of what is free after the weights and activations; SGLang
    // 90% of the card minus the weights.
    // Session 36: a batch job of N requests all queued at t = 0 (trtllm-bench / vllm bench
    // throughput), step by step. Static batching runs it in waves: each wave one prefill of its
    // prompts and output_len - 1 decode steps at a context growing one token a step -- exactly
    // the public prefill and decode step times (vLLM: no host floor, no graphs).
    void batchJobStaticWaves() {
        const ModelArch& m = *cat_.model("llama3-8b");
        const GpuSpec& g = *cat_.gpu("h100-sxm");
        InferenceSpec s;
        s.batching = Batching::static_;
        s.input_len = 512;
        s.output_len = 64;
        const int C = 32;
        double wave = prefill_time(m, s, g, node_, C, s.input_len);
        for (int made = 1; made < s.output_len; ++made)
            wave += decode_step_time(m, s, g, node_, C, s.input_len + made - 1.0);
        // 80 requests at 32 a wave: two full waves and one of 16.
        double last = prefill_time(m, s, g, node_, 16, s.input_len);
        for (int made = 1; made < s.output_len; ++made)
            last += decode_step_time(m, s, g, node_, 16, s.input_len + made - 1.0);
        const BatchJobRun job = batch_job_run(m, s, g, node_, 80, C);
        QVERIFY2(std::abs(job.makespan_s / (2 * wave + last) - 1) < 1e-3,
                 qPrintable(QStringLiteral("%1 vs %2").arg(job.makespan_s).arg(2 * wave + last)));
        QCOMPARE(job.prompt_steps, 3LL);
        QCOMPARE(job.steps, 3LL * s.output_len);
        QVERIFY(std::abs(job.output_tokens_per_s - 80.0 * 64 / job.makespan_s) < 1e-9);
        // Each wave's requests get their first token when its prefill ends.
        const double p32 = prefill_time(m, s, g, node_, C, s.input_len);
        const double expect_ttft =
            (32 * p32 + 32 * (wave + p32) +
             16 * (2 * wave + prefill_time(m, s, g, node_, 16, s.input_len))) /
            80;
        QVERIFY(std::abs(job.mean_ttft_s / expect_ttft - 1) < 1e-3);
    }

    // One request alone: its prompt, then output_len - 1 steps of one sequence; continuous
    // batching with a token budget that admits one whole prompt a step fills C sequences over C
    // steps (the ramp-up trtllm-bench runs with chunking off).
    void batchJobRampUpAndDrain() {
        const ModelArch& m = *cat_.model("llama3-8b");
        const GpuSpec& g = *cat_.gpu("h100-sxm");
        InferenceSpec s;
        s.input_len = 2048;
        s.output_len = 256;
        MemoryAssumptions ma;
        ma.max_batched_tokens.value = s.input_len + 64; // one prompt beside up to 64 decodes
        double alone = prefill_time(m, s, g, node_, 1, s.input_len);
        for (int made = 1; made < s.output_len; ++made)
            alone += decode_step_time(m, s, g, node_, 1, s.input_len + made - 1.0, {}, {}, ma);
        const BatchJobRun one = batch_job_run(m, s, g, node_, 1, 64, {}, {}, ma);
        QVERIFY(std::abs(one.makespan_s / alone - 1) < 1e-3);
        QVERIFY(std::abs(one.mean_ttft_s / prefill_time(m, s, g, node_, 1, s.input_len) - 1) <
                1e-9);
        // 64 requests, 64 in flight: one admitted per step, so 64 steps carry a prompt and the
        // last one ends 63 steps after the first would alone.
        const BatchJobRun ramp = batch_job_run(m, s, g, node_, 64, 64, {}, {}, ma);
        QCOMPARE(ramp.prompt_steps, 64LL);
        QCOMPARE(ramp.steps, 64LL + s.output_len - 1);
        // A budget for every prompt at once: one prompt step, and a shorter job.
        MemoryAssumptions wide = ma;
        wide.max_batched_tokens.value = 64.0 * s.input_len;
        const BatchJobRun burst = batch_job_run(m, s, g, node_, 64, 64, {}, {}, wide);
        QCOMPARE(burst.prompt_steps, 1LL);
        QVERIFY(burst.makespan_s < ramp.makespan_s);
        // More requests amortise the ramp-up and the drain: throughput rises toward the
        // steady state.
        const BatchJobRun many = batch_job_run(m, s, g, node_, 6400, 64, {}, {}, ma);
        QVERIFY(many.output_tokens_per_s > ramp.output_tokens_per_s);
        // Chunked prefill: the budget left by the decodes goes to the prompt in progress.
        InferenceSpec c = s;
        c.batching = Batching::chunked;
        MemoryAssumptions small = ma;
        small.max_batched_tokens.value = 512;
        const BatchJobRun chunked = batch_job_run(m, c, g, node_, 1, 64, {}, {}, small);
        QCOMPARE(chunked.prompt_steps, 4LL); // 2,048 tokens in chunks of 512
        QCOMPARE(chunked.steps, 4LL + s.output_len - 1);
    }

    // Through infer(): the requests make the offline throughput the job's, price it from the
    // makespan, and are refused where no batch job is run.
    void batchJobThroughInfer() {
        const ModelArch& m = *cat_.model("llama3-70b");
        const GpuSpec& g = *cat_.gpu("h100-sxm");
        InferenceSpec s;
        s.tp = 8;
        s.weights_dtype = WeightsDtype::fp8;
        s.kv_dtype = KvDtype::fp8;
        s.engine = ServingEngine::trtllm;
        s.input_len = 2048;
        s.output_len = 2048;
        auto steady = infer(m, s, g, node_, 2.0);
        QVERIFY2(steady.ok(), steady.error_text().c_str());
        QCOMPARE(steady->job_makespan_s, 0.0);
        s.requests = 1500;
        auto job = infer(m, s, g, node_, 2.0);
        QVERIFY2(job.ok(), job.error_text().c_str());
        QVERIFY(job->job_makespan_s > 0 && job->job_steps > 2048);
        QVERIFY(std::abs(job->output_tokens_per_s - 1500.0 * 2048 / job->job_makespan_s) < 1e-6);
        QVERIFY(job->output_tokens_per_s < steady->output_tokens_per_s); // ramp-up and drain
        QVERIFY(job->usd_per_million_output_tokens > steady->usd_per_million_output_tokens);
        QCOMPARE(job->batch, steady->batch); // the operating batch is the concurrency
        QVERIFY(job->job_mean_batch < job->batch);
        // The job's own latencies and the most it has in flight; a short job never reaches the
        // memory's batch, and replicas share the requests.
        QVERIFY(std::abs(job->ttft_s - job->job_mean_ttft_s) < 1e-12);
        QVERIFY(job->tpot_s > 0 && job->tpot_s < job->job_makespan_s / 2047.0);
        InferenceSpec few = s;
        few.requests = 10;
        auto ten = infer(m, few, g, node_, 2.0);
        QVERIFY2(ten.ok(), ten.error_text().c_str());
        QCOMPARE(ten->batch, 10);
        QVERIFY(ten->tpot_s < steady->tpot_s); // ten sequences step faster than a full batch
        InferenceSpec two = s;
        two.replicas = 2;
        auto halves = infer(m, two, g, node_, 2.0);
        QVERIFY2(halves.ok(), halves.error_text().c_str());
        QCOMPARE(halves->job_requests_per_replica, 750LL);
        QVERIFY(halves->job_makespan_s < job->job_makespan_s);
        auto refused = [&](InferenceSpec t, const char* what) {
            auto r = infer(m, t, g, node_);
            QVERIFY2(!r.ok(), what);
            QVERIFY2(r.error_text().find("--requests") != std::string::npos,
                     r.error_text().c_str());
        };
        // Online, or with disaggregated prefill, there is no batch job: the requests are kept but
        // not used (helper-31: switching the mode with them set broke the workload), as the
        // request rate is offline; the results are those of the same run without them.
        InferenceSpec online = s;
        online.mode = ServingMode::online;
        online.request_rate = 1;
        InferenceSpec online0 = online;
        online0.requests = 0;
        InferenceSpec dis = s;
        dis.batching = Batching::disaggregated;
        InferenceSpec dis0 = dis;
        dis0.requests = 0;
        for (const auto& [with, without] : {std::pair{online, online0}, std::pair{dis, dis0}}) {
            auto a = infer(m, with, g, node_), b = infer(m, without, g, node_);
            QVERIFY2(a.ok(), a.error_text().c_str());
            QVERIFY2(b.ok(), b.error_text().c_str());
            QCOMPARE(a->job_requests, 0LL);
            QCOMPARE(a->output_tokens_per_s, b->output_tokens_per_s);
            QCOMPARE(a->ttft_s, b->ttft_s);
        }
        QVERIFY(!batch_job_possible(online, false));
        QVERIFY(!batch_job_possible(dis, false));
        QVERIFY(!batch_job_possible(s, true)); // a draft model
        QVERIFY(batch_job_possible(s, false));
        InferenceSpec neg = s;
        neg.requests = -1;
        refused(neg, "negative");
        InferenceSpec huge = s;
        huge.requests = 2000000;
        refused(huge, "over a million");
    }

    void engineMemoryRules() {
        InferenceSpec s;
        s.tp = 2;
        const ModelArch& m = *cat_.model("llama2-70b");
        const GpuSpec& g = *cat_.gpu("a100-sxm-80gb");
        QCOMPARE(g.framework_memory_bytes(), std::round(79.14 * 1073741824.0));
        MemoryAssumptions a;
        const auto vllm = inference_memory(m, s, g, a);
        QVERIFY(vllm.ok());
        QVERIFY(vllm->fits);
        QVERIFY2(vllm->max_batch >= 1 && vllm->max_batch < 64,
                 qPrintable(QString::number(vllm->max_batch)));
        MemoryAssumptions tight = a;
        tight.gpu_memory_utilization.value = 0.8; // 68 GB for 69 GB of weights
        const auto none = inference_memory(m, s, g, tight);
        QVERIFY(none.ok());
        QCOMPARE(none->max_batch, 0);
        QVERIFY(!none->fits);
        QVERIFY(none->explanation.find("does not fit") != std::string::npos);
        QVERIFY(!infer(m, s, g, node_, 0, {}, {}, {}, tight).ok()); // refused with that reason

        s.engine = ServingEngine::trtllm;
        const auto trt = inference_memory(m, s, g, a);
        QVERIFY(trt.ok());
        QVERIFY(trt->fits);
        const double free_after_load = g.framework_memory_bytes() - trt->weights_bytes_per_gpu -
                                       trt->workspace_bytes - a.framework_overhead_bytes.value;
        QVERIFY(free_after_load > 0);
        QVERIFY(std::abs(trt->kv_capacity_tokens * trt->kv_bytes_per_token_per_gpu -
                         a.trtllm_free_memory_fraction.value * free_after_load) < 1.0);
        QVERIFY(trt->max_batch >= 1);
        // The tenth of the free memory TensorRT-LLM's fraction leaves out stays free.
        QVERIFY(trt->headroom_bytes >=
                (1.0 - a.trtllm_free_memory_fraction.value) * free_after_load - 1.0);
        QVERIFY(infer(m, s, g, node_).ok());
        // The user's fraction is used as given: a smaller one holds fewer sequences.
        MemoryAssumptions half = a;
        half.trtllm_free_memory_fraction.value = 0.45;
        QVERIFY(inference_memory(m, s, g, half)->max_batch < trt->max_batch);

        s.engine = ServingEngine::sglang;
        const auto sgl = inference_memory(m, s, g, a);
        QVERIFY(sgl.ok());
        QVERIFY(std::abs(sgl->kv_capacity_tokens * sgl->kv_bytes_per_token_per_gpu -
                         (a.sglang_mem_fraction_static.value * g.framework_memory_bytes() -
                          sgl->weights_bytes_per_gpu)) < 1.0);
        QVERIFY(sgl->max_batch >= 1);
        QVERIFY(sgl->max_batch < trt->max_batch);
        QVERIFY(vllm->max_batch < sgl->max_batch);
    }

    void queueFormulaSingleServer() {
        const double D = 0.2, lambda = 3.0; // rho = 0.6
        const double rho = lambda * D;
        QVERIFY(std::abs(queue_wait_mdc(lambda, D, 1) - rho * D / (2 * (1 - rho))) < 1e-12);
        QVERIFY(std::isinf(queue_wait_mdc(5.0, D, 1))); // rho = 1
        QVERIFY(std::isinf(queue_wait_mdc(6.0, D, 1)));
    }

    // Erlang C against a textbook value: c = 2, A = 1 Erlang -> C = 1/3 (Kleinrock vol. 1
    // eq. 3.40); M/M/2 wait = C / (c mu - lambda) = (1/3) / (2 - 1) with mu = 1; M/D/2 half.
    void queueFormulaErlangC() {
        QVERIFY(std::abs(queue_wait_mdc(1.0, 1.0, 2) - 0.5 / 3.0) < 1e-12);
        // More slots at the same per-slot load wait less (pooling).
        QVERIFY(queue_wait_mdc(8.0, 1.0, 10) < queue_wait_mdc(0.8, 1.0, 1));
    }

    // Weight-only INT4: faster than BF16 at batch 1, but less than its 3.8x smaller bytes
    // suggest; slower than BF16 at a prefill-sized batch (MARLIN, Frantar et al. 2024).
    void weightOnlyDequant() {
        InferenceSpec s;
        s.input_len = 128;
        s.output_len = 128;
        s.batch = 1;
        const auto bf = run("llama3-8b", s);
        s.weights_dtype = cl::model::WeightsDtype::int4;
        const auto i4 = run("llama3-8b", s);
        const double speedup = bf.decode_step_s / i4.decode_step_s;
        QVERIFY2(speedup > 1.5 && speedup < 3.5, qPrintable(QString::number(speedup)));
        s.batch = 1024;
        const auto i4_big = run("llama3-8b", s);
        s.weights_dtype = cl::model::WeightsDtype::bf16;
        const auto bf_big = run("llama3-8b", s);
        QVERIFY(i4_big.decode_step_s > bf_big.decode_step_s);
        // FP8 on H100 is W8A8 on the FP8 tensor cores: no dequantisation, faster everywhere.
        s.weights_dtype = cl::model::WeightsDtype::fp8;
        QVERIFY(run("llama3-8b", s).decode_step_s < bf_big.decode_step_s);
    }

    // Online: replicas cover the rate, load stays below 1, TTFT includes the queue, and a
    // tighter TTFT SLO can only need more replicas.
    void onlineQueueing() {
        InferenceSpec s;
        s.tp = 4;
        s.input_len = 1000;
        s.output_len = 200;
        s.mode = cl::model::ServingMode::online;
        s.request_rate = 20;
        s.ttft_slo_s = 2.0;
        s.tpot_slo_s = 0.05;
        const auto r = run("llama3-70b", s);
        QVERIFY(r.replicas_needed >= std::ceil(s.request_rate / r.capacity_rps));
        QVERIFY(r.utilization > 0 && r.utilization < 1);
        QCOMPARE(r.gpus_needed, r.replicas_needed * 4);
        QVERIFY(r.ttft_s >= r.prefill_s + r.queue_wait_s);
        QVERIFY(r.tpot_s <= s.tpot_slo_s);
        s.ttft_slo_s = r.ttft_s - r.queue_wait_s + 1e-4; // almost no room to queue
        const auto tight = run("llama3-70b", s);
        QVERIFY(tight.replicas_needed >= r.replicas_needed);
        QVERIFY(tight.queue_wait_s <= 1e-4 + 1e-9);
    }

    // MoE and dense results are finite (an MoE branch evaluated for a dense model once leaked
    // a NaN through the dequantisation term).
    void finiteEverywhere() {
        for (const char* model : {"llama3-8b", "mixtral-8x7b"}) {
            for (const char* w : {"bf16", "fp8", "int4", "fp4"}) {
                InferenceSpec s;
                s.tp = 2;
                s.weights_dtype = *cl::model::choice_from_string<cl::model::WeightsDtype>(w);
                const auto r = run(model, s);
                QVERIFY2(std::isfinite(r.tpot_s) && r.tpot_s > 0, model);
                QVERIFY2(std::isfinite(r.output_tokens_per_s) && r.output_tokens_per_s > 0, w);
            }
        }
    }

    // Disaggregated serving: TPOT is the bare decode step (no prefill stalls) and TTFT carries
    // the KV transfer.
    // Issue 20: llama.cpp-style partial offload. Offloaded layers leave the device's memory and
    // are read from system memory each decode step at the host's bandwidth (x the same 0.85
    // efficiency): Llama 3 8B in BF16 on an RTX 4090 with 16 of its 32 layers offloaded.
    void partialOffload() {
        const ModelArch& m = *cat_.model("llama3-8b");
        const GpuSpec& g = *cat_.gpu("rtx-4090");
        auto topo = shape_topology(g, ClusterShape{}, cat_);
        QVERIFY(topo.ok());
        InferenceSpec s;
        s.batch = 1;
        s.input_len = 16;
        s.output_len = 128;
        auto base = infer(m, s, g, *topo);
        s.offload_layers = 16;
        auto off = infer(m, s, g, *topo);
        QVERIFY(base.ok() && off.ok());
        const double layer_bytes =
            (m.attention_params_per_layer() + m.dense_mlp_params_per_layer()) * 2.0;
        QCOMPARE(base->memory.weights_bytes_per_gpu - off->memory.weights_bytes_per_gpu,
                 16 * (layer_bytes + m.norm_params_per_layer() * 2.0));
        const InferenceAssumptions ia;
        const double host = ia.host_memory_bandwidth_Bps.value * ia.memory_efficiency.value;
        const double device = g.memory_bandwidth_Bps * ia.memory_efficiency.value;
        const double expected = 16 * layer_bytes * (1 / host - 1 / device);
        const double got = off->decode_step_s - base->decode_step_s;
        QVERIFY2(std::abs(got / expected - 1) < 0.02,
                 qPrintable(QStringLiteral("%1 vs %2").arg(got).arg(expected)));
        // Refused with a reason: all layers, a unified-memory device, pipeline stages.
        s.offload_layers = 32;
        QVERIFY(!infer(m, s, g, *topo).ok());
        s.offload_layers = 4;
        const GpuSpec& thor = *cat_.gpu("jetson-thor");
        auto r = infer(m, s, thor, *shape_topology(thor, ClusterShape{}, cat_));
        QVERIFY(!r.ok() && r.error_text().find("shares its memory") != std::string::npos);
    }

    // Issue 20: "70B Q4_K_M with half the layers offloaded on an RTX 4090". llama.cpp's memory
    // rule: the whole card, the weights of the layers it holds (token embeddings stay on the CPU,
    // the output layer too while any layer does), one compute buffer of n_ubatch tokens in fp32,
    // the KV cells of the context, and the CUDA context. vLLM's rule (90% of the card, 2 GB of
    // framework pools, an 8,192-token workspace) refuses the same layout.
    // Session 50: the CUDA-graph engines' GEMMs and attention kernels each cost a fixed time
    // beside their work (inference.gemm_fixed_s, attention_fixed_s: NVIDIA's per-op tables).
    // Session 52 (helper-44): the operating point says what the engine's host adds to the
    // decode step. Known answer: the GPU's step is the step infer() gives with TensorRT-LLM's
    // host time and launches at zero, at the same batch; other engines report none.
    // Session 52 (helper-44): the operating point says what set its batch. Offline: the
    // engine's limit where the KV cache holds more (vLLM's 1,024 on 8 H200), the KV cache where
    // it holds fewer, the design's batch, a batch job's requests; online: the SLO that a larger
    // batch misses, or the peak of the requests served.
    void batchLimit() {
        const ModelArch& m = *cat_.model("llama3-70b");
        const GpuSpec& h200 = *cat_.gpu("h200-sxm");
        InferenceSpec s;
        s.tp = 8;
        s.weights_dtype = WeightsDtype::fp8;
        s.kv_dtype = KvDtype::fp8;
        s.input_len = 1000;
        s.output_len = 500;
        auto r = infer(m, s, h200, node_);
        QVERIFY(r.ok());
        QCOMPARE(r->batch_limit, BatchLimit::engine_limit);
        QCOMPARE(r->batch, 1024);
        QVERIFY(r->memory.max_batch > 1024);
        QVERIFY2(batch_limit_words(*r, s, 1024).find("vLLM's limit of 1,024 sequences") !=
                     std::string::npos,
                 batch_limit_words(*r, s, 1024).c_str());
        InferenceSpec longer = s;
        longer.input_len = 100000;
        auto kv = infer(m, longer, h200, node_);
        QVERIFY(kv.ok());
        QCOMPARE(kv->batch_limit, BatchLimit::kv_cache);
        QCOMPARE(kv->batch, kv->memory.max_batch);
        InferenceSpec fixed = s;
        fixed.batch = 64;
        QCOMPARE(infer(m, fixed, h200, node_)->batch_limit, BatchLimit::design);
        InferenceSpec job = s;
        job.requests = 100;
        auto j = infer(m, job, h200, node_);
        QVERIFY(j.ok());
        QCOMPARE(j->batch_limit, BatchLimit::requests);
        QCOMPARE(j->batch, 100);
        // Online, TPOT SLO 30 ms: the batch is the largest whose TPOT meets it, and one step
        // of the search further misses it.
        InferenceSpec on = s;
        on.mode = ServingMode::online;
        on.request_rate = 10;
        on.tpot_slo_s = 0.030;
        on.ttft_slo_s = 0;
        auto o = infer(m, on, h200, node_);
        QVERIFY2(o.ok(), o.error_text().c_str());
        QVERIFY2(o->batch_limit == BatchLimit::tpot_slo || o->batch_limit == BatchLimit::throughput,
                 qPrintable(QString::fromStdString(batch_limit_short(o->batch_limit))));
        QVERIFY(o->tpot_s <= 0.030);
        if (o->batch_limit == BatchLimit::tpot_slo) {
            InferenceSpec bigger = on;
            bigger.mode = ServingMode::offline;
            bigger.batch = o->batch + std::max(1, o->batch / 8);
            QVERIFY(infer(m, bigger, h200, node_)->tpot_s > 0.030);
            QVERIFY(batch_limit_words(*o, on, 1024).find("the TPOT SLO (30.0 ms)") !=
                    std::string::npos);
        }
        // Online with a batch in the design (helper-46: it was dropped without a word): the most
        // a replica runs at once; below what the SLO allows it sets the batch, and says so.
        InferenceSpec capped = on;
        capped.batch = std::max(2, o->batch / 3);
        auto c = infer(m, capped, h200, node_);
        QVERIFY2(c.ok(), c.error_text().c_str());
        QCOMPARE(c->batch, capped.batch);
        QCOMPARE(c->batch_limit, BatchLimit::design);
        QVERIFY(c->output_tokens_per_s < o->output_tokens_per_s);
        // Above it, the SLO still picks the batch.
        capped.batch = o->batch * 4;
        auto above = infer(m, capped, h200, node_);
        QVERIFY(above.ok());
        QCOMPARE(above->batch, o->batch);
    }

    // Session 53 (helper-46): MLX (mlx-lm) serves on Apple silicon only; elsewhere it is refused
    // naming what serves there, as TensorRT-LLM off NVIDIA.
    void mlxOnlyOnAppleSilicon() {
        const ModelArch& m = *cat_.model("llama3-8b");
        InferenceSpec s;
        s.engine = ServingEngine::mlx;
        s.batch = 1;
        for (const char* gpu : {"mi300x", "h100-sxm"}) {
            auto r = infer(m, s, *cat_.gpu(gpu), node_);
            QVERIFY(!r.ok());
            QVERIFY2(r.error_text().find("MLX (mlx-lm) runs on Apple silicon") != std::string::npos,
                     r.error_text().c_str());
        }
        QVERIFY(!engine_device_refusal(ServingEngine::mlx, *cat_.gpu("mi300x")).empty());
        QVERIFY(engine_device_refusal(ServingEngine::vllm, *cat_.gpu("mi300x")).empty());
        for (const auto& g : cat_.gpus())
            if (g.vendor == "Apple")
                QVERIFY2(engine_device_refusal(ServingEngine::mlx, g).empty(), g.id.c_str());
    }

    // Session 53: expert parallelism in serving without attention DP (InferenceSpec::ep;
    // TensorRT-LLM moe_expert_parallel_size). NVIDIA's silicon runs of Qwen3-235B-A22B on
    // H100 ran EP = TP (aiconfigurator silicon_sample.csv moe_ep_size).
    void expertParallel() {
        // The busiest of n ranks: exact for small counts, Blom's normal for large ones.
        QCOMPARE(busiest_of_binomials(1, 16, 0.3), 16 * 0.3);
        QCOMPARE(busiest_of_binomials(2, 1, 0.5), 0.75); // max of two fair coins
        // Two ranks of two experts, each touched with probability 1/2: P(max >= 1) = 15/16,
        // P(max = 2) = 1 - (3/4)^2 = 7/16, E max = 22/16.
        QVERIFY(std::abs(busiest_of_binomials(2, 2, 0.5) - 22.0 / 16.0) < 1e-12);
        // Exact (64 trials) and normal (65) agree within a few percent, and both grow with ranks.
        const double exact = busiest_of_binomials(8, 64, 0.5),
                     normal = busiest_of_binomials(8, 65, 0.5);
        QVERIFY2(std::abs(normal / exact - 65.0 / 64.0) < 0.03,
                 qPrintable(QString::number(exact) + " " + QString::number(normal)));
        QVERIFY(busiest_of_binomials(16, 1e4, 0.1) > busiest_of_binomials(8, 1e4, 0.1));
        QVERIFY(busiest_of_binomials(8, 1e4, 0.1) > 1e3);
        QVERIFY(busiest_of_binomials(8, 10, 1.0) == 10.0);

        const ModelArch& q = *cat_.model("qwen3-235b-a22b");
        QCOMPARE(ep_busiest_experts(q, 1, 4), 1.0);
        // 4 sequences x top-8 = 32 choices over 128 experts: ~7.9 % of a GPU's 16 experts
        // touched each; the busiest of 8 GPUs reads well above the mean (about 1.7x).
        const double b4 = ep_busiest_experts(q, 8, 4);
        QVERIFY2(b4 > 1.5 && b4 < 2.2, qPrintable(QString::number(b4)));
        // From ~64 sequences every expert is touched: no imbalance in the reads.
        QVERIFY(ep_busiest_experts(q, 8, 512) < 1.01);
        QVERIFY(ep_busiest_copies(q, 8, 512) < 1.1 && ep_busiest_copies(q, 8, 512) > 1.0);

        const GpuSpec& h100 = *cat_.gpu("h100-sxm");
        InferenceSpec s = trtllm_fp8_tp8();
        s.output_len = 500;
        s.batch = 4;
        auto tp_split = infer(q, s, h100, node_);
        s.ep = 1; // the default spelled out: the same numbers
        auto one = infer(q, s, h100, node_);
        s.ep = 8;
        auto ep8 = infer(q, s, h100, node_);
        QVERIFY2(tp_split.ok() && one.ok() && ep8.ok(),
                 (tp_split.error_text() + ep8.error_text()).c_str());
        QCOMPARE(one->tpot_s, tp_split->tpot_s);
        QCOMPARE(tp_split->expert_parallel, 1);
        QCOMPARE(ep8->expert_parallel, 8);
        // At 4 sequences the step waits for the GPU whose experts the 32 choices hit most.
        QVERIFY2(ep8->decode_step_s > 1.1 * tp_split->decode_step_s,
                 qPrintable(QString::number(ep8->decode_step_s / tp_split->decode_step_s)));
        // The same weights a GPU either way.
        QCOMPARE(ep8->memory.weights_bytes_per_gpu, tp_split->memory.weights_bytes_per_gpu);
        // Hybrid: EP 2 x expert TP 4 sits between.
        s.ep = 2;
        auto ep2 = infer(q, s, h100, node_);
        QVERIFY(ep2.ok());
        QVERIFY(ep2->decode_step_s > tp_split->decode_step_s &&
                ep2->decode_step_s < ep8->decode_step_s);
        // With attention DP the engine's default is still EP 1 (0 and 1 give the same numbers);
        // at EP 8 the measured balance stands for the busiest rank (no second imbalance factor:
        // the busiest GPU's expert reads stay at the mean).
        s.attention_dp = true;
        s.ep = 0;
        auto adp0 = infer(q, s, h100, node_);
        s.ep = 1;
        auto adp1 = infer(q, s, h100, node_);
        s.ep = 8;
        auto adp8 = infer(q, s, h100, node_);
        QVERIFY(adp0.ok() && adp1.ok() && adp8.ok());
        QCOMPARE(adp0->tpot_s, adp1->tpot_s);
        QCOMPARE(adp0->expert_parallel, 1);
        QCOMPARE(adp8->expert_parallel, 8);
        QCOMPARE(adp8->busiest_expert_reads, 1.0);

        // Refused with the flag and the reason.
        auto refused = [&](InferenceSpec x, const ModelArch& m, const char* words) {
            auto r = infer(m, x, h100, node_);
            QVERIFY(!r.ok());
            QVERIFY2(r.error_text().find("--ep") != std::string::npos &&
                         r.error_text().find(words) != std::string::npos,
                     r.error_text().c_str());
        };
        // Attention DP with EP below TP: EP 4 × expert TP 2, as TensorRT-LLM runs it
        // (moe_ep_size × moe_tp_size = TP; NVIDIA's aiconfigurator silicon runs have gpt-oss-120b
        // at attention DP 4 with EP 2 × expert TP 2). Was refused until session 55.
        s.ep = 4;
        auto adp4 = infer(q, s, h100, node_);
        QVERIFY2(adp4.ok(), adp4.error_text().c_str());
        QCOMPARE(adp4->expert_parallel, 4);
        QCOMPARE(adp4->expert_tp, 2);
        QCOMPARE(adp8->expert_tp, 1);
        QCOMPARE(adp4->memory.weights_bytes_per_gpu, adp8->memory.weights_bytes_per_gpu);
        // vLLM's expert layers with attention DP are one group over every GPU: EP 1 or TP only
        // (its Data Parallel Deployment docs); helper-48 saw EP 4 × expert TP 2 taken there.
        {
            InferenceSpec v = s;
            v.engine = ServingEngine::vllm;
            auto vr = infer(q, v, h100, node_);
            QVERIFY(!vr.ok());
            QVERIFY2(vr.error_text().find("vLLM with attention DP") != std::string::npos &&
                         vr.error_text().find("EP may be 1, 8") != std::string::npos,
                     vr.error_text().c_str());
            v.ep = 1;
            QVERIFY(infer(q, v, h100, node_).ok());
            v.engine = ServingEngine::sglang; // SGLang's --ep-size may be below TP
            v.ep = 4;
            QVERIFY(infer(q, v, h100, node_).ok());
        }
        // Half the copies a GPU at half the width: the token movement is the same bytes, the
        // GEMMs narrower; a different step, within a few per cent.
        QVERIFY(adp4->decode_step_s != adp8->decode_step_s);
        QVERIFY2(std::abs(adp4->decode_step_s / adp8->decode_step_s - 1) < 0.15,
                 qPrintable(QString::number(adp4->decode_step_s / adp8->decode_step_s)));
        s.attention_dp = false;
        s.ep = 3;
        refused(s, q, "does not divide TP");
        s.ep = -1;
        refused(s, q, "negative");
        InferenceSpec dense;
        dense.tp = 2;
        dense.ep = 2;
        refused(dense, *cat_.model("llama3-8b"), "no experts");
        dense.ep = 1; // allowed: it changes nothing
        QVERIFY(infer(*cat_.model("llama3-8b"), dense, h100, node_).ok());
    }

    void hostBoundStep() {
        const GpuSpec& gb200 = *cat_.gpu("gb200");
        auto topo = shape_topology(gb200, ClusterShape{}, cat_);
        QVERIFY(topo.ok());
        const ModelArch& m = *cat_.model("deepseek-v3");
        InferenceSpec s;
        s.engine = ServingEngine::trtllm;
        s.tp = 8;
        s.weights_dtype = WeightsDtype::fp8;
        s.kv_dtype = KvDtype::fp8;
        s.input_len = 1000;
        s.output_len = 500;
        const InferenceAssumptions ia;
        auto r = infer(m, s, gb200, *topo, 0, {}, ia);
        QVERIFY2(r.ok(), r.error_text().c_str());
        InferenceAssumptions none = ia;
        none.trtllm_host_s_per_sequence_grace.value = 0;
        none.trtllm_eager_s_per_op_grace.value = 0;
        auto gpu = infer(m, s, gb200, *topo, 0, {}, none);
        QVERIFY(gpu.ok());
        QCOMPARE(gpu->batch, r->batch);
        QVERIFY(std::abs(r->decode_step_gpu_s / gpu->decode_step_s - 1) < 1e-9);
        // 1,895 sequences of Grace host time (34.4 us each) exceed the GPU's step.
        QVERIFY2(
            host_sets_step(*r) && r->decode_step_s >= r->batch * 34.4e-6 - 1e-9,
            qPrintable(QStringLiteral("%1 vs %2").arg(r->decode_step_s).arg(r->decode_step_gpu_s)));
        // vLLM: no host time is charged, nothing to say.
        s.engine = ServingEngine::vllm;
        auto v = infer(m, s, gb200, *topo, 0, {}, ia);
        QVERIFY(v.ok());
        QCOMPARE(v->decode_step_gpu_s, 0.0);
        QVERIFY(!host_sets_step(*v));
    }

    void fixedKernelTimes() {
        // (Eager launches off: a step that carries a prompt would take the longer of its GPU
        // time and the host's launches.)
        InferenceAssumptions dflt;
        dflt.trtllm_eager_s_per_op.value = dflt.trtllm_eager_s_per_op_fp4.value = 0;
        InferenceAssumptions none = dflt;
        none.gemm_fixed_s.value = 0;
        none.attention_fixed_s.value = 0;
        none.elementwise_fixed_s.value = 0;
        const GpuSpec& h100 = *cat_.gpu("h100-sxm");
        auto added = [&](const ModelArch& m, const InferenceSpec& s) {
            return decode_step_time(m, s, h100, node_, 8, 1000, dflt) -
                   decode_step_time(m, s, h100, node_, 8, 1000, none);
        };
        InferenceSpec s;
        s.engine = ServingEngine::trtllm;
        s.weights_dtype = WeightsDtype::fp8;
        s.tp = 2;
        // Llama 3.1 8B: 32 layers of Q/K/V, output, up/gate and down GEMMs, one attention
        // kernel and three elementwise ones (two residual adds with norms, the activation; the
        // RoPE inside TensorRT-LLM's attention op), and the LM head:
        // 3.09 us x (32 x 4 + 1) + 6.9 us x 32 + 3 us x 32 x 3.
        const double dense = 3.09e-6 * (32 * 4 + 1) + 6.9e-6 * 32 + 3e-6 * 32 * 3;
        QVERIFY(std::abs(added(*cat_.model("llama3-8b"), s) - dense) < 1e-12);
        // Session 52: vLLM and SGLang run RoPE as a kernel of its own, one more a layer.
        s.engine = ServingEngine::vllm;
        QVERIFY(std::abs(added(*cat_.model("llama3-8b"), s) - (dense + 3e-6 * 32)) < 1e-12);
        s.engine = ServingEngine::sglang;
        QVERIFY(std::abs(added(*cat_.model("llama3-8b"), s) - (dense + 3e-6 * 32)) < 1e-12);
        // Q/K norms (Qwen3 32B: 64 layers) add one more in every engine: TensorRT-LLM's fused
        // qk-norm-rope, vLLM's and SGLang's norms beside their RoPE.
        const ModelArch& q32 = *cat_.model("qwen3-32b");
        QVERIFY(q32.qk_norm);
        ModelArch q32_plain = q32;
        q32_plain.qk_norm = false;
        for (ServingEngine e :
             {ServingEngine::trtllm, ServingEngine::vllm, ServingEngine::sglang}) {
            s.engine = e;
            QVERIFY(std::abs(added(q32, s) - added(q32_plain, s) - 3e-6 * 64) < 1e-12);
            QCOMPARE(elementwise_kernels_per_layer(q32, e, false),
                     e == ServingEngine::trtllm ? 4.0 : 5.0);
        }
        // A model with learned positions has no RoPE kernel (GPT-3 175B: 3 in every engine).
        for (ServingEngine e : {ServingEngine::trtllm, ServingEngine::vllm})
            QCOMPARE(elementwise_kernels_per_layer(*cat_.model("gpt3-175b"), e, false), 3.0);
        QCOMPARE(elementwise_kernels_per_layer(q32, ServingEngine::llamacpp, false), 0.0);
        s.engine = ServingEngine::llamacpp;
        s.tp = 1;
        QCOMPARE(added(*cat_.model("llama3-8b"), s), 0.0);
        // An MoE layer: the router and two grouped GEMMs for the MLP; Llama 4 Maverick's
        // 24 MoE layers also run their shared expert's two (and its activation), its 24 dense
        // layers the dense two.
        s.engine = ServingEngine::trtllm;
        s.tp = 8;
        const double maverick = 3.09e-6 * (24 * (2 + 5) + 24 * 4 + 1) + 6.9e-6 * 48 + 3e-6 * 48 * 3;
        QVERIFY(std::abs(added(*cat_.model("llama4-maverick"), s) - maverick) < 1e-12);
        // MLA: five GEMMs in the attention (DeepSeek-V3: 3 dense layers, 58 MoE with a shared
        // expert).
        const double mla = 3.09e-6 * (3 * (5 + 2) + 58 * (5 + 5) + 1) + 6.9e-6 * 61 + 3e-6 * 61 * 3;
        // Without a shared expert the routed experts' activation is inside the fused MoE:
        // Qwen3-30B-A3B's 48 MoE layers, two elementwise kernels each, and its fused Q/K norm.
        const double qwen = 3.09e-6 * (48 * (2 + 3) + 1) + 6.9e-6 * 48 + 3e-6 * 48 * (2 + 1);
        QVERIFY(std::abs(added(*cat_.model("qwen3-30b-a3b"), s) - qwen) < 1e-12);
        QVERIFY(std::abs(added(*cat_.model("deepseek-v3"), s) - mla) < 1e-12);
        // The user's value is used as given.
        InferenceAssumptions twice = none;
        twice.gemm_fixed_s.value = 6.18e-6;
        s.engine = ServingEngine::vllm;
        s.tp = 2;
        const double t2 =
            decode_step_time(*cat_.model("llama3-8b"), s, h100, node_, 8, 1000, twice) -
            decode_step_time(*cat_.model("llama3-8b"), s, h100, node_, 8, 1000, none);
        QVERIFY(std::abs(t2 - 6.18e-6 * (32 * 4 + 1)) < 1e-12);
    }

    void llamaCppMemoryRule() {
        const ModelArch& m = *cat_.model("llama3-70b");
        const GpuSpec& g = *cat_.gpu("rtx-4090");
        auto topo = shape_topology(g, ClusterShape{}, cat_);
        QVERIFY(topo.ok());
        InferenceSpec s;
        s.batch = 1;
        s.input_len = 512;
        s.output_len = 128;
        s.weights_dtype = WeightsDtype::q4_k_m;
        s.offload_layers = 40;
        QVERIFY(!infer(m, s, g, *topo).ok()); // vLLM's budget: does not fit
        s.engine = ServingEngine::llamacpp;
        const MemoryAssumptions a;
        const auto mem = inference_memory(m, s, g, a);
        QVERIFY2(mem.ok(), mem.ok() ? "" : mem.error_text().c_str());
        QVERIFY2(mem->fits, mem->explanation.c_str());
        const double bits = weight_bits(WeightsDtype::q4_k_m) / 8.0;
        const double layer =
            (m.attention_params_per_layer() + m.dense_mlp_params_per_layer()) * bits +
            m.norm_params_per_layer() * 2.0;
        // 40 layers; no embeddings, no output layer (nor its final norm).
        QVERIFY2(std::abs(mem->weights_bytes_per_gpu - 40 * layer) < 1.0,
                 qPrintable(QString::number(mem->weights_bytes_per_gpu - 40 * layer)));
        QCOMPARE(mem->per_gpu.other, a.llamacpp_runtime_bytes.value);
        QCOMPARE(mem->tokens_reserved_per_sequence, 640.0); // one cell per token
        const double ub = a.llamacpp_ubatch_tokens.value;
        QVERIFY(mem->workspace_bytes > ub * m.vocab * 4.0); // fp32 logits of a physical batch
        QVERIFY(mem->workspace_bytes < 1e9);
        auto r = infer(m, s, g, *topo);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error_text().c_str());
        // Decode is bound by the 40 layers and the output layer read from system memory.
        const InferenceAssumptions ia;
        // llama.cpp's CPU kernels read system memory at its stream efficiency.
        const double host =
            ia.host_memory_bandwidth_Bps.value * ia.llamacpp_memory_efficiency.value;
        const double cpu_bytes =
            40 * (m.attention_params_per_layer() + m.dense_mlp_params_per_layer()) * bits +
            static_cast<double>(m.vocab) * m.hidden * bits;
        QVERIFY(r->decode_step_s > cpu_bytes / host);
        QVERIFY(r->decode_step_s < 1.3 * cpu_bytes / host);
        // Every layer on the card: 42 GB of weights cannot fit in 24 GB.
        s.offload_layers = 0;
        QVERIFY(!inference_memory(m, s, g, a)->fits);
        // The user's physical batch is used as given: a larger one takes more memory.
        MemoryAssumptions big = a;
        big.llamacpp_ubatch_tokens.value = 2048;
        s.offload_layers = 40;
        QVERIFY(inference_memory(m, s, g, big)->workspace_bytes > 3.9 * mem->workspace_bytes);
    }

    // MLX (mlx-lm): weights, a KV cache grown in 256-token steps and one 2,048-token prefill
    // chunk in 16 bits with no logits (lazy evaluation); decode streams at MLX's own efficiency
    // with the dequantisation hidden under the streaming; no layer offload.
    void mlxEngine() {
        const ModelArch& m = *cat_.model("llama3-70b");
        const GpuSpec& mac = *cat_.gpu("apple-m3-max");
        auto topo = shape_topology(mac, ClusterShape{}, cat_);
        QVERIFY(topo.ok());
        InferenceSpec s;
        s.batch = 1;
        s.input_len = 260;
        s.output_len = 309;
        s.engine = ServingEngine::mlx;
        s.weights_dtype = WeightsDtype::mlx4;
        const MemoryAssumptions a;
        auto mem = inference_memory(m, s, mac, a);
        QVERIFY2(mem.ok(), mem.ok() ? "" : mem.error_text().c_str());
        QVERIFY2(mem->fits, mem->explanation.c_str());
        QCOMPARE(mem->tokens_reserved_per_sequence, 768.0); // 569 tokens -> 3 steps of 256
        QCOMPARE(mem->per_gpu.other, a.mlx_runtime_bytes.value);
        const double T = a.mlx_prefill_step_tokens.value;
        QVERIFY(mem->workspace_bytes > T * 2.0 * m.hidden * 2.0);
        QVERIFY(mem->workspace_bytes < T * m.vocab * 2.0); // no logits for the chunk
        // Every weight, embeddings and LM head included, at 4.5 bits (group 64).
        QVERIFY(std::abs(mem->weights_bytes_per_gpu / (m.total_params() * 4.5 / 8) - 1) < 0.01);
        // Decode: the weights (less the embedding table, of which one row is read) at the MLX
        // efficiency plus the step overhead; no dequantisation
        // on top (4 ops per weight at the M3 Max's 14 TFLOP/s would add ~20 ms).
        InferenceAssumptions ia;
        auto r = infer(m, s, mac, *topo, 0, {}, ia);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error_text().c_str());
        const double stream = mem->weights_bytes_per_gpu /
                              (mac.memory_bandwidth_Bps * ia.mlx_memory_efficiency.value);
        QVERIFY2(r->decode_step_s > 0.97 * stream && r->decode_step_s < 1.03 * stream + 2e-3,
                 qPrintable(QString::number(r->decode_step_s / stream)));
        // The user's efficiency is used as given.
        ia.mlx_memory_efficiency.value = ia.mlx_memory_efficiency.value / 2;
        auto half = infer(m, s, mac, *topo, 0, {}, ia);
        QVERIFY(half.ok());
        QVERIFY(half->decode_step_s > 1.9 * r->decode_step_s);
        // The same weights through the CUDA engines' kernels, at the same efficiency, pay the
        // dequantisation on top of the streaming (MARLIN).
        s.engine = ServingEngine::vllm;
        InferenceAssumptions cuda;
        cuda.memory_efficiency.value = InferenceAssumptions{}.mlx_memory_efficiency.value;
        auto v = infer(m, s, mac, *topo, 0, {}, cuda);
        QVERIFY2(v.ok(), v.ok() ? "" : v.error_text().c_str());
        QVERIFY(v->decode_step_s > r->decode_step_s + 0.010);
        // No layer offload in MLX: refused, naming the engine that has it.
        s.engine = ServingEngine::mlx;
        s.offload_layers = 10;
        auto off = inference_memory(m, s, *cat_.gpu("rtx-4090"), a);
        QVERIFY(!off.ok());
        QVERIFY(QString::fromStdString(off.error_text()).contains("llama.cpp"));
        // The M3 Ultra's decode memory factor (two dies) slows a stream on it.
        const GpuSpec& ultra = *cat_.gpu("apple-m3-ultra");
        QVERIFY(ultra.decode_memory_factor < 1 && !ultra.decode_memory_factor_source.empty());
        s.offload_layers = 0;
        GpuSpec one_die = ultra;
        one_die.decode_memory_factor = 1;
        auto ut = shape_topology(ultra, ClusterShape{}, cat_);
        QVERIFY(ut.ok());
        auto a1 = infer(m, s, ultra, *ut, 0, {}, InferenceAssumptions{});
        auto a2 = infer(m, s, one_die, *ut, 0, {}, InferenceAssumptions{});
        QVERIFY(a1.ok() && a2.ok());
        QVERIFY(a1->decode_step_s > 1.25 * a2->decode_step_s);
    }

    // Unified memory: the model may fill the share the operating system leaves (macOS caps the
    // GPU's working set at about 75% on large Macs); a CPU server reads the model at the
    // bandwidth of the NUMA nodes that hold it.
    void unifiedMemoryAndNuma() {
        const ModelArch& m = *cat_.model("llama3-70b");
        const GpuSpec& mac = *cat_.gpu("apple-m3-max");
        QVERIFY(mac.unified_memory);
        InferenceSpec s;
        s.batch = 1;
        s.engine = ServingEngine::llamacpp;
        s.weights_dtype = WeightsDtype::q8_0; // 75 GB: fits in 96 of 128 GB
        MemoryAssumptions a;
        auto mem = inference_memory(m, s, mac, a);
        QVERIFY(mem.ok());
        QCOMPARE(mem->usable_bytes, 0.75 * mac.memory_bytes);
        QVERIFY(mem->fits);
        a.unified_memory_gpu_fraction.value = 0.5; // 64 GB: refused
        QVERIFY(!inference_memory(m, s, mac, a)->fits);

        const GpuSpec& cpu = *cat_.gpu("cpu-2s-ddr5");
        QCOMPARE(cpu.numa_nodes, 2);
        QCOMPARE(cpu.sockets, 2);
        auto topo = shape_topology(cpu, ClusterShape{}, cat_);
        QVERIFY(topo.ok());
        InferenceAssumptions ia;
        auto one = infer(m, s, cpu, *topo, 0, {}, ia);
        ia.numa_nodes_used.value = 2; // llama.cpp --numa distribute
        auto both = infer(m, s, cpu, *topo, 0, {}, ia);
        QVERIFY2(one.ok() && both.ok(),
                 one.ok() ? both.error_text().c_str() : one.error_text().c_str());
        QVERIFY(one->decode_step_s > 1.8 * (both->decode_step_s - ia.step_overhead_s.value));
    }

    // Issue 21: a workload's error on its card names the field as the inspector labels it,
    // not the design path ("workloads[0].inference.offload_layers") or a CLI flag.
    void cardErrorsNameFields() {
        Design d = cl::test::preset("rtx4090-workstation");
        QVERIFY(!d.workloads.empty());
        d.workloads[0].inference.offload_layers = 40; // Llama 3 8B has 32 layers
        const Evaluation ev = evaluate(d, cat_);
        QVERIFY(!ev.workloads[0].error.empty());
        QVERIFY(ev.workloads[0].error.find("workloads[0].inference.offload_layers") !=
                std::string::npos); // the CLI and the file keep the path
        const Findings f = find_problems(d, ev);
        const std::string& v = f.workloads.at(d.workloads[0].id).verdict;
        QVERIFY2(v.rfind("Layers in system memory: must be between", 0) == 0, v.c_str());
        QVERIFY(v.find("workloads[") == std::string::npos);
    }

    void disaggregated() {
        InferenceSpec s;
        s.batch = 64;
        const auto co = run("llama3-8b", s);
        s.batching = cl::model::Batching::disaggregated;
        const auto dis = run("llama3-8b", s);
        QVERIFY(dis.tpot_s < co.tpot_s);
        QVERIFY(dis.ttft_s > dis.prefill_s);
        // Per GPU, disaggregation moves the prompts' work to another pool, it does not remove
        // it: the same cohort over the same GPU-time (helper-18: 2.5x "throughput").
        QVERIFY(std::abs(dis.output_tokens_per_s_per_gpu / co.output_tokens_per_s_per_gpu - 1) <
                0.01);
        // Online: the GPUs needed count the prefill pool too, sized to the request rate.
        s.mode = cl::model::ServingMode::online;
        s.request_rate = 50;
        s.batch = 0;
        const auto on = run("llama3-8b", s);
        QVERIFY(on.prefill_replicas_needed >= 1);
        QCOMPARE(on.gpus_needed, on.replicas_needed + on.prefill_replicas_needed); // TP 1
        s.batching = cl::model::Batching::continuous;
        const auto con = run("llama3-8b", s);
        QCOMPARE(con.prefill_replicas_needed, 0.0);
        QVERIFY(on.gpus_needed > 0.5 * con.gpus_needed); // not the decode pool alone
    }
};

QTEST_GUILESS_MAIN(TestInference)
#include "tst_inference.moc"
