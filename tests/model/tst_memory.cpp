// Training memory: validation against ../shared/validation/published.json.
#include "model/catalog.h"
#include "model/flops.h"
#include "model/memory.h"

#include "fixtures.h"

#include <QtTest>

#include <numeric>

using namespace cl::model;

class TestMemory : public QObject {
    Q_OBJECT
private:
    Catalog cat_;

private slots:
    void initTestCase() { cat_ = cl::test::bundled_catalog(); }

    // Case B.zero.fig1_7.5B_nd64 -- Rajbhandari et al. 2020 (ZeRO), Fig. 1 and secs. 5.1-5.3:
    // 7.5B parameters, Nd = 64, K = 12: 120 / 31.4 / 16.6 / 1.9 GB (GB = 1e9 bytes).
    void zeroFigure1_data() {
        QTest::addColumn<int>("zero");
        QTest::addColumn<double>("expectedGB");
        QTest::newRow("baseline") << 0 << 120.0;
        QTest::newRow("P_os") << 1 << 31.4;
        QTest::newRow("P_os+g") << 2 << 16.6;
        QTest::newRow("P_os+g+p") << 3 << 1.9;
    }
    void zeroFigure1() {
        QFETCH(int, zero);
        QFETCH(double, expectedGB);
        TrainingSpec t;
        t.zero = zero;
        t.dtype = cl::model::TrainingDtype::fp16;
        t.optimizer = cl::model::Optimizer::adamw;
        const MemoryBreakdown b = model_state_bytes(7.5e9, t, 64);
        const double gotGB = (b.weights + b.gradients + b.optimizer) / 1e9;
        // The paper prints one decimal: compare at that precision.
        QVERIFY2(std::abs(gotGB - expectedGB) < 0.05,
                 qPrintable(QStringLiteral("ZeRO Fig.1 stage %1: expected %2 GB, got %3 GB")
                                .arg(zero)
                                .arg(expectedGB)
                                .arg(gotGB)));
    }

    // Journey 1 / DESIGN: Llama 3 70B at TP 8 without ZeRO: model states ~141 GB per GPU.
    void llama70bTp8States() {
        TrainingSpec t;
        t.tp = 8;
        t.zero = 0;
        t.global_batch = 128;
        t.seq = 8192;
        auto m = training_memory(*cat_.model("llama3-70b"), t, 16, *cat_.gpu("h100-sxm"));
        QVERIFY2(m.ok(), m.error_text().c_str());
        const double states = m->per_gpu.weights + m->per_gpu.gradients + m->per_gpu.optimizer;
        QVERIFY2(std::abs(states / 1e9 - 141.1) < 0.5, qPrintable(QString::number(states / 1e9)));
        QVERIFY(!m->fits);
        // What CUDA reports: 79.19 GiB (torch total_memory 81,089 MiB), not the label's 80e9.
        QCOMPARE(m->capacity_bytes, 81089.0 * 1048576.0);
    }

    // FP8 (Transformer Engine) keeps each quantised linear input for backward as its FP8 copy:
    // the two norm outputs and the second projection's input cost 1 B, not 2 (TE PR #1596).
    // Exactly 2sbh + sbf less per layer than the same layer in bf16 (/t with SP).
    void fp8KeepsQuantisedInputs() {
        const ModelArch* m = cat_.model("llama3-70b");
        TrainingSpec t;
        t.tp = 4;
        t.sequence_parallel = true;
        t.seq = 8192;
        t.recompute = Recompute::none;
        t.dtype = TrainingDtype::bf16;
        const double bf16 = layer_activation_bytes(*m, t, 1, true);
        t.dtype = TrainingDtype::fp8;
        const double fp8 = layer_activation_bytes(*m, t, 1, true);
        const double sb = 8192.0;
        QCOMPARE(bf16 - fp8, (2.0 * sb * m->hidden + sb * m->ffn) / 4.0);
        // Megatron-Bridge ran Llama 3 70B this way on 64 H100 (26.04.01 performance summary:
        // FP8, TP 4 x PP 8 x VP 5, seq 8192, micro-batch 1, distributed optimizer): it fits.
        // Before FP8 inputs were counted at 1 B the model said 81.5 GB of 80 GB.
        t.pp = 8;
        t.vpp = 5;
        t.schedule = Schedule::interleaved;
        t.global_batch = 256;
        t.micro_batch = 1;
        auto mem = training_memory(*m, t, 64, *cat_.gpu("h100-sxm"));
        QVERIFY2(mem.ok(), mem.error_text().c_str());
        QVERIFY2(mem->fits, mem->explanation.c_str());
        QVERIFY2(mem->per_gpu.total() < 75e9, mem->explanation.c_str());
    }

    // Megatron-Core's recompute_modules (transformer_config.py) with selective recompute: each
    // frees the outputs its checkpoint does not keep, per layer (/t with SP): "moe_act" the
    // routed experts' activation output (2 B per value, 1 B for the FP8 copy the next linear no
    // longer keeps), "layernorm" an MoE layer's pre-MLP norm output (TE fuses the attention's
    // norm into QKV), "mla_up_proj" the attention's Q, K and V, "mlp" a dense MLP's input and
    // internals. Refused where the recompute or the model has no such module.
    void recomputeModules() {
        const ModelArch* oss = cat_.model("gpt-oss-120b");
        QVERIFY(oss);
        TrainingSpec t;
        t.seq = 4096;
        t.recompute = Recompute::selective;
        const double s = 4096.0;
        const double base = layer_activation_bytes(*oss, t, 1, true);
        t.recompute_moe_act = true;
        const double act = layer_activation_bytes(*oss, t, 1, true);
        QCOMPARE(base - act, 2.0 * s * oss->moe_ffn * oss->top_k);
        t.recompute_layernorm = true;
        QCOMPARE(act - layer_activation_bytes(*oss, t, 1, true), 2.0 * s * oss->hidden);
        t.dtype = TrainingDtype::fp8;
        t.fp8_scaling = Fp8Scaling::current; // Megatron refuses these modules with delayed
        t.recompute_layernorm = t.recompute_moe_act = false;
        const double base8 = layer_activation_bytes(*oss, t, 1, true);
        t.recompute_moe_act = true;
        QCOMPARE(base8 - layer_activation_bytes(*oss, t, 1, true),
                 1.0 * s * oss->moe_ffn * oss->top_k);

        const ModelArch* dsv3 = cat_.model("deepseek-v3");
        QVERIFY(dsv3);
        TrainingSpec d;
        d.seq = 4096;
        d.tp = 2;
        d.recompute = Recompute::selective;
        const double dbase = layer_activation_bytes(*dsv3, d, 1, true);
        d.recompute_mla_up_proj = true;
        // DeepSeek-V3's Q and K are 128 heads x (128 + 64), V 128 heads x 128, 16 bits each,
        // 4,096 tokens over TP 2 with SP: 268,435,456 B a layer.
        QCOMPARE(dbase - layer_activation_bytes(*dsv3, d, 1, true), 268435456.0);

        const ModelArch* llama = cat_.model("llama3-70b");
        TrainingSpec l;
        l.seq = 8192;
        l.tp = 4;
        l.recompute = Recompute::selective;
        const double lbase = layer_activation_bytes(*llama, l, 1, true);
        l.recompute_mlp = true;
        QCOMPARE(lbase - layer_activation_bytes(*llama, l, 1, true),
                 (2.0 * 8192 * llama->hidden + 6.0 * 8192 * llama->ffn) / 4);
        l.recompute_mlp = false;
        l.recompute_layernorm = true; // a dense GQA model: TE fuses both norms, nothing freed
        QCOMPARE(layer_activation_bytes(*llama, l, 1, true), lbase);

        // Refusals, with the flag and the reason.
        const GpuSpec& h100 = *cat_.gpu("h100-sxm");
        const auto refused = [&](const ModelArch& m, TrainingSpec x, const char* flag,
                                 const char* why) {
            x.global_batch = 64;
            auto r = training_memory(m, x, 8, h100);
            QVERIFY(!r.ok());
            QVERIFY2(r.error_text().find(flag) != std::string::npos, r.error_text().c_str());
            QVERIFY2(r.error_text().find(why) != std::string::npos, r.error_text().c_str());
        };
        TrainingSpec delayed;
        delayed.dtype = TrainingDtype::fp8;
        delayed.fp8_scaling = Fp8Scaling::delayed;
        delayed.recompute_moe_act = true;
        delayed.ep = 8;
        refused(*oss, delayed, "--recompute-moe-act", "delayed scaling");
        TrainingSpec none;
        none.recompute = Recompute::none;
        none.recompute_moe_act = true;
        refused(*oss, none, "--recompute-moe-act", "needs selective recompute");
        TrainingSpec sel;
        sel.recompute_moe_act = true;
        refused(*llama, sel, "--recompute-moe-act", "no experts");
        sel = TrainingSpec{};
        sel.recompute_mla_up_proj = true;
        refused(*llama, sel, "--recompute-mla-up-proj", "no multi-latent attention");
        sel = TrainingSpec{};
        sel.recompute_mlp = true;
        refused(*oss, sel, "--recompute-mlp", "no dense MLP");
        sel.recompute_mlp = false;
        sel.recompute_moe_act = true;
        sel.global_batch = 64;
        sel.ep = 8;
        QVERIFY(training_memory(*oss, sel, 8, h100).ok());
    }

    // Case B.korthikanti.activation_formulas -- Korthikanti et al. 2022 Table 2, exact per-layer
    // activation bytes for a GPT layer (MHA, GeLU MLP 4h, dropout), without FlashAttention.
    void korthikantiTable2_data() {
        QTest::addColumn<QString>("recompute");
        QTest::addColumn<bool>("sp");
        QTest::addColumn<double>("coefficient"); // bytes / (s b h)
        const double s = 2048, h = 6144, a = 64, t = 8;
        QTest::newRow("TP") << "none" << false << (10 + 24 / t + 5 * a * s / (h * t));
        QTest::newRow("TP+SP") << "none" << true << (34 + 5 * a * s / h) / t;
        QTest::newRow("TP+selective") << "selective" << false << (10 + 24 / t);
        QTest::newRow("TP+SP+selective") << "selective" << true << 34 / t;
        QTest::newRow("full recompute") << "full" << false << 2.0;
        QTest::newRow("full recompute+SP") << "full" << true << 2.0 / t;
    }
    void korthikantiTable2() {
        QFETCH(QString, recompute);
        QFETCH(bool, sp);
        QFETCH(double, coefficient);
        const ModelArch* m = cat_.model("megatron-gpt-22b-kort");
        QVERIFY(m);
        QVERIFY(m->dropout);
        TrainingSpec t;
        t.tp = 8;
        t.seq = 2048;
        t.recompute = *cl::model::choice_from_string<cl::model::Recompute>(recompute.toStdString());
        t.sequence_parallel = sp;
        const double sbh = 2048.0 * 1 * 6144;
        const double got = layer_activation_bytes(*m, t, 1, /*flash_attention=*/false);
        QVERIFY2(
            std::abs(got / (coefficient * sbh) - 1) < 1e-12,
            qPrintable(
                QStringLiteral("expected %1 sbh, got %2 sbh").arg(coefficient).arg(got / sbh)));
    }

    // With FlashAttention the s^2 term disappears: "none" keeps only the fp32 log-sum-exp.
    void flashAttentionDropsScores() {
        const ModelArch* m = cat_.model("megatron-gpt-22b-kort");
        TrainingSpec t;
        t.tp = 8;
        t.seq = 2048;
        t.recompute = cl::model::Recompute::none;
        const double sbh = 2048.0 * 6144;
        const double got = layer_activation_bytes(*m, t, 1, true);
        QCOMPARE(got, (34.0 * sbh + 4.0 * 64 * 2048) / 8);
    }

    // torchtitan's per-op selective checkpointing (parallelize_llama.py at 9dec370: aten.mm
    // and SDPA saved, every second mm recomputed) on Llama 3 8B: the block runs wq, wk, wv, wo,
    // w1, w3, w2, so wk, wo and w3 are recomputed. Kept per token: the block input (h), wq's
    // output (q), wv's (kv), attention's (q, and a 4-byte log-sum-exp per head), w1's (f) and
    // w2's (h), 16 bits each.
    void perOpSelectiveCheckpointing() {
        const ModelArch* m = cat_.model("llama3-8b");
        QVERIFY(m);
        const double h = 4096, q = 4096, kv = 1024, f = 14336;
        const auto mm = block_matmuls(*m, false);
        QCOMPARE(mm.size(), std::size_t{7});
        double all = 0, again = 0;
        for (const auto& x : mm) {
            all += x.flops();
            again += x.recomputed_by_op_sac ? x.flops() : 0.0;
        }
        QCOMPARE(again / all, (kv + h + f) / (q + 2 * kv + h + 3 * f));
        TrainingSpec t;
        t.seq = 8192;
        t.recompute = Recompute::selective_op;
        const double s = 8192;
        QCOMPARE(layer_activation_bytes(*m, t, 2, true),
                 2.0 * s * 2 * (h + q + kv + q + f + h) + 4.0 * 32 * s * 2);
        // Less than Megatron's selective recompute keeps (34 sbh-class), more than full.
        t.recompute = Recompute::selective;
        const double selective = layer_activation_bytes(*m, t, 2, true);
        t.recompute = Recompute::full;
        const double full = layer_activation_bytes(*m, t, 2, true);
        t.recompute = Recompute::selective_op;
        const double op = layer_activation_bytes(*m, t, 2, true);
        QVERIFY(op < selective && op > full);
        // Hardware FLOPs: the model FLOPs plus the recomputed matmuls of every layer.
        const double tokens = 16 * s;
        QCOMPARE(hardware_flops_per_iteration(*m, 16, s, Recompute::selective_op),
                 model_flops_per_iteration(*m, 16, s) + tokens * 32 * again);
    }

    // Partial full recompute (Megatron-LM --recompute-method block --recompute-num-layers N):
    // the first N layers of each pipeline stage (each model chunk with VPP) keep their input
    // only, the others everything; one layer is rebuilt whole while it recomputes. Llama 3 8B
    // (32 layers), PP 2 x VPP 2 on 8 H100: 16 layers per stage, 8 per chunk.
    void partialRecompute() {
        const ModelArch& m = *cat_.model("llama3-8b");
        TrainingSpec t;
        t.tp = 2;
        t.pp = 2;
        t.vpp = 2;
        t.schedule = Schedule::interleaved;
        t.seq = 8192;
        t.global_batch = 64;
        t.micro_batch = 1;
        const GpuSpec& gpu = *cat_.gpu("h100-sxm");
        t.recompute = Recompute::full;
        const auto act = [&](int n) {
            t.recompute_layers = n;
            auto r = training_memory(m, t, 8, gpu);
            return r.ok() ? r->per_gpu.activations : -1.0;
        };
        const double every = act(0), three = act(3), all_of_a_chunk = act(8);
        QCOMPARE(recomputed_layers(t, 16), 16);
        t.recompute_layers = 3;
        QCOMPARE(recomputed_layers(t, 16), 6); // 3 of each of the stage's 2 chunks
        t.recompute_layers = 8;
        QCOMPARE(recomputed_layers(t, 16), 16);
        QCOMPARE(all_of_a_chunk, every); // N = the chunk's layers is every layer
        QVERIFY(three > every);
        // One stage of 32 layers (PP 1, TP 8): recomputing 3 keeps 29 layers whole, 29 more
        // whole layers than recomputing every one (one micro-batch in flight).
        {
            TrainingSpec one = t;
            one.tp = 8;
            one.pp = 1;
            one.vpp = 1;
            one.schedule = Schedule::one_f_one_b;
            one.recompute = Recompute::none;
            const double n1 = layer_activation_bytes(m, one, 1, true);
            one.recompute = Recompute::full;
            const double f1 = layer_activation_bytes(m, one, 1, true);
            one.recompute_layers = 0;
            auto all = training_memory(m, one, 8, gpu);
            one.recompute_layers = 3;
            auto some = training_memory(m, one, 8, gpu);
            QVERIFY(all.ok() && some.ok());
            QCOMPARE(some->per_gpu.activations - all->per_gpu.activations, 29.0 * (n1 - f1));
        }
        // Refused with the flag's name: without full recompute, beyond a chunk, negative.
        t.recompute_layers = 9;
        auto wide = training_memory(m, t, 8, gpu);
        QVERIFY(!wide.ok());
        QVERIFY2(wide.error_text().find("--recompute-layers") != std::string::npos &&
                     wide.error_text().find("exceed the 8 of a model chunk") != std::string::npos,
                 wide.error_text().c_str());
        t.recompute_layers = 3;
        t.recompute = Recompute::selective;
        auto sel = training_memory(m, t, 8, gpu);
        QVERIFY(!sel.ok());
        QVERIFY2(sel.error_text().find("needs full activation recompute") != std::string::npos,
                 sel.error_text().c_str());
        t.recompute = Recompute::full;
        t.recompute_layers = -1;
        QVERIFY(!training_memory(m, t, 8, gpu).ok());
        // Hardware FLOPs: one more forward of the recomputed share of the layers only.
        const double none = hardware_flops_per_iteration(m, 64, 8192, Recompute::none);
        const double full = hardware_flops_per_iteration(m, 64, 8192, Recompute::full);
        QCOMPARE(hardware_flops_per_iteration(m, 64, 8192, Recompute::full, 0.375),
                 none + 0.375 * (full - none));
    }

    // A speculative draft model takes memory beside the target (helper-20, session 31: the
    // badge did not change when one was chosen): its weights split over TP, and its KV cache of
    // every sequence. Llama 3 70B with Llama 3 8B as draft, TP 4 on H100, BF16.
    void speculativeDraftMemory() {
        const ModelArch& target = *cat_.model("llama3-70b");
        const ModelArch& draft = *cat_.model("llama3-8b");
        InferenceSpec s;
        s.tp = 4;
        s.input_len = 1000;
        s.output_len = 500;
        const GpuSpec& gpu = *cat_.gpu("h100-sxm");
        auto alone = inference_memory(target, s, gpu);
        auto with = inference_memory(target, s, gpu, {}, &draft);
        QVERIFY(alone.ok() && with.ok());
        QCOMPARE(with->weights_bytes_per_gpu - alone->weights_bytes_per_gpu,
                 draft.total_params() / 4.0 * 2.0);
        QCOMPARE(with->draft_weights_bytes_per_gpu, draft.total_params() / 2.0);
        // Llama 3 8B: 32 layers x 8 KV heads (2 per GPU at TP 4) x 128 x K and V x 2 B.
        QCOMPARE(with->kv_bytes_per_token_per_gpu - alone->kv_bytes_per_token_per_gpu,
                 32.0 * 2 * 2 * 128 * 2);
        QVERIFY(alone->max_batch > 0);
        QVERIFY(with->max_batch < alone->max_batch);
        QVERIFY2(with->explanation.find("(draft 4.0 GB)") != std::string::npos,
                 with->explanation.c_str());
    }

    // Layer kinds (architecture.h): the closed-form counts of MoE and local-attention layers
    // agree with counting layer by layer, over every range a pipeline stage can take.
    void layerKindCounts() {
        ModelArch m;
        m.experts = 8;
        m.top_k = 2;
        for (int layers : {1, 7, 36, 48, 61})
            for (int dense : {0, 1, 3})
                for (int every : {1, 2, 3})
                    for (int window : {0, 128})
                        for (int global : {0, 2, 4, 6}) {
                            if (dense >= layers)
                                continue;
                            m.layers = layers;
                            m.dense_layers = dense;
                            m.moe_every = every;
                            m.sliding_window = window;
                            m.global_every = global;
                            for (int first = 0; first < layers; ++first)
                                for (int n = 0; first + n <= layers; ++n) {
                                    int moe = 0, local = 0, local_moe = 0;
                                    for (int i = first; i < first + n; ++i) {
                                        moe += m.is_moe_layer(i);
                                        local += m.is_local_layer(i);
                                        local_moe += m.is_local_layer(i) && m.is_moe_layer(i);
                                    }
                                    QCOMPARE(m.moe_layers_in(first, n), moe);
                                    QCOMPARE(m.local_layers_in(first, n), local);
                                    QCOMPARE(m.local_layers_in(first, n, 1), local_moe);
                                    QCOMPARE(m.local_layers_in(first, n, 0), local - local_moe);
                                }
                        }
    }

    // Sliding-window KV cache: Mistral 7B v0.1 (every layer local, window 4096: its config.json,
    // tests/data/hf_configs) keeps 4,096 tokens a sequence however long; a gpt-oss-style model
    // (every other layer local, window 128) keeps the whole sequence on half its layers.
    void slidingWindowKvCache() {
        ModelArch m = *cat_.model("llama3-8b"); // 32 layers, 8 KV heads of 128
        const double per_token = 2.0 * 32 * 8 * 128 * 2;
        QCOMPARE(kv_bytes_per_token(m, KvDtype::bf16), per_token);
        m.sliding_window = 4096;
        m.global_every = 0;
        QCOMPARE(kv_bytes_per_sequence(m, KvDtype::bf16, 1000), per_token * 1000);
        QCOMPARE(kv_bytes_per_sequence(m, KvDtype::bf16, 32768), per_token * 4096);
        m.sliding_window = 128;
        m.global_every = 2;
        QCOMPARE(kv_bytes_per_sequence(m, KvDtype::bf16, 32768),
                 per_token / 32 * (16 * 32768.0 + 16 * 128.0));
        // The serving memory holds more sequences than with every layer global.
        InferenceSpec s;
        s.input_len = 30000;
        s.output_len = 2000;
        const ModelArch full = *cat_.model("llama3-8b");
        auto a = inference_memory(full, s, *cat_.gpu("h100-sxm"));
        auto b = inference_memory(m, s, *cat_.gpu("h100-sxm"));
        QVERIFY(a.ok() && b.ok());
        QVERIFY(b->max_batch > 1.9 * a->max_batch);
        // Attention FLOPs: a local layer's causal context is capped by its window.
        QCOMPARE(m.causal_context(32768, true), 128.0 - 128.0 * 128.0 / (2.0 * 32768));
        QCOMPARE(m.causal_context(100, true), 50.0);
        QVERIFY(model_flops_per_iteration(m, 1, 32768) < model_flops_per_iteration(full, 1, 32768));
    }

    // Uneven stages: Llama 3 405B ran 126 layers on 16 stages with one fewer layer on the first
    // and last (Grattafiori et al. 2024 sec. 3.3.2).
    void unevenStages() {
        const auto l = stage_layers(126, 16);
        QCOMPARE(l.front(), 7);
        QCOMPARE(l.back(), 7);
        QCOMPARE(l[1], 8);
        QCOMPARE(std::accumulate(l.begin(), l.end(), 0), 126);
        // The allocation-free form agrees with the vector form everywhere.
        for (int layers = 1; layers <= 130; ++layers)
            for (int pp = 1; pp <= 20 && pp <= layers; ++pp) {
                const auto v = stage_layers(layers, pp);
                for (int st = 0; st < pp; ++st)
                    QCOMPARE(stage_layer_count(layers, pp, st), v[static_cast<std::size_t>(st)]);
            }
    }

    // Multi-token prediction (session 47): DeepSeek-V3's module follows the last decoder layer
    // on the last stage, and the split counts it as a layer there, as Megatron-Bridge's
    // DeepSeek-V3 layout "Et|(tt|)*30mL" does (61 layers and the module over PP 8 x VP 4:
    // the last stage holds 6 decoder layers, the module and the loss).
    void mtpOnTheLastStage() {
        int sum = 0;
        for (int st = 0; st < 8; ++st)
            sum += decoder_layers_on_stage(61, 1, 8, st);
        QCOMPARE(sum, 61);
        QCOMPARE(decoder_layers_on_stage(61, 1, 8, 0), 7);
        QCOMPARE(decoder_layers_on_stage(61, 1, 8, 1), 8);
        QCOMPARE(decoder_layers_on_stage(61, 1, 8, 7), 6);
        QCOMPARE(decoder_layers_on_stage(61, 0, 8, 7), stage_layer_count(61, 8, 7));
        QCOMPARE(decoder_layers_on_stage(61, 1, 1, 0), 61);
        // More modules than the last stage has slots: on top of the plain split.
        QCOMPARE(decoder_layers_on_stage(4, 3, 4, 3), 1);
        const ModelArch& ds = *cat_.model("deepseek-v3");
        QCOMPARE(ds.mtp_layers, 1);
        const GpuSpec& g = *cat_.gpu("h100-sxm");
        TrainingSpec t;
        t.tp = 2;
        t.pp = 8;
        t.ep = 64;
        t.global_batch = 1024;
        t.micro_batch = 1;
        t.recompute = Recompute::full;
        auto with = training_memory(ds, t, 1024, g, {}, true);
        QVERIFY2(with.ok(), with.error_text().c_str());
        t.mtp = false;
        auto without = training_memory(ds, t, 1024, g, {}, true);
        QVERIFY2(without.ok(), without.error_text().c_str());
        const auto last = [](const TrainingMemory& m) { return m.stages.back(); };
        QCOMPARE(last(*with).layers, 6);
        QCOMPARE(last(*without).layers, 7);
        // The module is a full MoE layer (its experts over EP) and a 2h x h projection: the last
        // stage holds one decoder layer fewer and the module, so about the same parameters.
        QVERIFY(std::abs(last(*with).params / last(*without).params - 1) < 0.05);
        QVERIFY(last(*with).params != last(*without).params);
        const ModelArch lm = *cat_.model("llama3-70b");
        QCOMPARE(lm.mtp_layers, 0);
        TrainingSpec d;
        d.tp = 8;
        d.pp = 4;
        d.global_batch = 64;
        d.micro_batch = 1;
        auto a = training_memory(lm, d, 64, g);
        d.mtp = false;
        auto b = training_memory(lm, d, 64, g);
        QVERIFY(a.ok() && b.ok());
        QCOMPARE(a->per_gpu.total(), b->per_gpu.total()); // no module, no change
    }

    void rejectsImpossibleLayouts() {
        TrainingSpec t;
        t.tp = 3;
        auto m = training_memory(*cat_.model("llama3-8b"), t, 8, *cat_.gpu("h100-sxm"));
        QVERIFY(!m.ok());
        QCOMPARE(QString::fromStdString(m.errors().front().message()),
                 QStringLiteral("--tp: TP × PP × CP = 3 does not divide the 8 GPUs"));
    }

    // Megatron-LM counts the embedding and the loss as one pipeline layer each when asked
    // (--account-for-embedding-in-pipeline-split, --account-for-loss-in-pipeline-split): PP x
    // VPP may reach layers + 2 (Megatron-MoE-ModelZoo: Qwen3-235B's 94 layers as PP 32 x VPP 3),
    // not more; a stage without a decoder layer is refused.
    void pipelineChunksCountEmbeddingAndLoss() {
        const ModelArch& m = *cat_.model("llama3-8b"); // 32 layers
        const GpuSpec& g = *cat_.gpu("h100-sxm");
        TrainingSpec t;
        t.pp = 2;
        t.schedule = Schedule::interleaved;
        t.global_batch = 64;
        t.micro_batch = 1;
        t.vpp = 17; // 34 chunks: 32 layers, the embedding and the loss
        auto ok = training_memory(m, t, 8, g);
        QVERIFY2(ok.ok(), ok.error_text().c_str());
        t.vpp = 18; // 36 chunks
        auto refused = training_memory(m, t, 8, g);
        QVERIFY(!refused.ok());
        QCOMPARE(QString::fromStdString(refused.errors().front().message()),
                 QStringLiteral("--vpp: PP × VPP = 36 model chunks exceed the model's 32 layers "
                                "plus its embedding and loss (Megatron-LM counts each as a layer "
                                "with --account-for-embedding-in-pipeline-split and "
                                "--account-for-loss-in-pipeline-split)"));
        t.pp = 33;
        t.vpp = 1;
        t.schedule = Schedule::one_f_one_b;
        auto stageless = training_memory(m, t, 33, g);
        QVERIFY(!stageless.ok());
        QCOMPARE(QString::fromStdString(stageless.errors().front().message()),
                 QStringLiteral("--pp: PP = 33 exceeds the model's 32 layers"));
        // The 94-layer run it was written for trains (the step: docs/validation.md).
        TrainingSpec q;
        q.tp = 2;
        q.pp = 32;
        q.vpp = 3;
        q.ep = 8;
        q.etp = 1;
        q.schedule = Schedule::interleaved;
        q.sequence_parallel = true;
        q.global_batch = 2048;
        q.micro_batch = 1;
        q.seq = 4096;
        auto qwen = training_memory(*cat_.model("qwen3-235b-a22b"), q, 256, g);
        QVERIFY2(qwen.ok(), qwen.error_text().c_str());
    }
};

QTEST_APPLESS_MAIN(TestMemory)
#include "tst_memory.moc"
