// core/model catalog and model zoo: the ids CLI.md promises, provenance on every entry,
// dense peaks, user overrides.
#include "model/catalog.h"
#include "model/memory.h"

#include "fixtures.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace cl::model;

class TestCatalog : public QObject {
    Q_OBJECT
private:
    Catalog cat_;

private slots:
    void initTestCase() { cat_ = cl::test::bundled_catalog(); }

    void requiredGpuIds_data() {
        QTest::addColumn<QString>("id");
        // ../shared/CLI.md "Ids that must exist"
        for (const char* id :
             {"a100-sxm-40gb", "a100-sxm-80gb", "a100-pcie-80gb", "h100-sxm", "h100-pcie",
              "h100-nvl", "h200-sxm", "b200", "gb200", "l40s", "l4", "mi300x", "mi325x", "gaudi3"})
            QTest::newRow(id) << QString::fromLatin1(id);
    }
    void requiredGpuIds() {
        QFETCH(QString, id);
        const GpuSpec* g = cat_.gpu(id.toStdString());
        QVERIFY2(g, qPrintable(id));
        QVERIFY(g->memory_bytes > 1e9);
        QVERIFY(g->memory_bandwidth_Bps > 1e11);
        QVERIFY(g->peak(Dtype::bf16) > 1e13);
        QVERIFY(!g->provenance.source.empty());
        QVERIFY(!g->provenance.as_of.empty());
    }

    // Names for canvas labels (issue 21: "8 GPUs · h100-sxm", "8 × ib-ndr" on the canvas).
    void shortNames() {
        QCOMPARE(cat_.short_name("h100-sxm"), std::string("H100 SXM5 80GB"));
        QCOMPARE(cat_.short_name("b200"), std::string("B200 180GB"));
        QCOMPARE(cat_.short_name("ib-ndr"), std::string("InfiniBand NDR 4x"));
        QCOMPARE(cat_.short_name("nvlink4"), std::string("NVLink 4"));
        QCOMPARE(cat_.short_name("dgx-h100"), std::string("DGX H100"));
        QCOMPARE(cat_.short_name("my-own-gpu"), std::string("my-own-gpu")); // shown as typed
    }

    void requiredModelIds_data() {
        QTest::addColumn<QString>("id");
        for (const char* id : {"gpt3-175b", "llama2-7b", "llama2-13b", "llama2-70b", "llama3-8b",
                               "llama3-70b", "llama3.1-405b", "mixtral-8x7b", "mixtral-8x22b",
                               "deepseek-v3", "qwen2.5-72b", "bloom-176b"})
            QTest::newRow(id) << QString::fromLatin1(id);
    }
    void requiredModelIds() {
        QFETCH(QString, id);
        const ModelArch* m = cat_.model(id.toStdString());
        QVERIFY2(m, qPrintable(id));
        QVERIFY(m->validate().empty());
        QVERIFY(!m->provenance.source.empty());
    }

    // Parameter counts against the published totals (model cards / papers).
    void parameterCounts_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("published");
        QTest::addColumn<double>("tolerance");
        // Llama 3 paper Table 3 / model cards: 8.03B, 70.6B, 405.9B (HF safetensors totals).
        QTest::newRow("llama3-8b") << "llama3-8b" << 8.03e9 << 0.005;
        QTest::newRow("llama3-70b") << "llama3-70b" << 70.55e9 << 0.005;
        QTest::newRow("llama3.1-405b") << "llama3.1-405b" << 405.85e9 << 0.005;
        // Llama 2 paper Table 1 rounds to 7B / 13B / 70B; HF totals 6.74B, 13.0B, 69.0B.
        QTest::newRow("llama2-7b") << "llama2-7b" << 6.738e9 << 0.005;
        QTest::newRow("llama2-70b") << "llama2-70b" << 68.98e9 << 0.005;
        // Mixtral paper: 46.7B total, 12.9B active.
        QTest::newRow("mixtral-8x7b") << "mixtral-8x7b" << 46.7e9 << 0.01;
        // DeepSeek-V3 report: 671B total (685B with the MTP module, which we do not count).
        QTest::newRow("deepseek-v3") << "deepseek-v3" << 671e9 << 0.01;
        // GPT-3 paper Table 2.1: 175.0B.
        QTest::newRow("gpt3-175b") << "gpt3-175b" << 175.0e9 << 0.01;
    }
    void parameterCounts() {
        QFETCH(QString, id);
        QFETCH(double, published);
        QFETCH(double, tolerance);
        const ModelArch* m = cat_.model(id.toStdString());
        QVERIFY(m);
        const double got = m->total_params();
        QVERIFY2(
            std::abs(got / published - 1) < tolerance,
            qPrintable(QStringLiteral("%1: expected %2, got %3").arg(id).arg(published).arg(got)));
    }

    void activeParamsMixtral() {
        // Jiang et al. 2024: 12.9B active parameters per token.
        const ModelArch* m = cat_.model("mixtral-8x7b");
        QVERIFY(std::abs(m->active_params() / 12.9e9 - 1) < 0.01);
    }

    // helper-46: the model list said "(MoE)" for Qwen3 and Llama 4 but not for Mixtral,
    // DeepSeek or Kimi. Every bundled mixture of experts says so in its name; no dense one does.
    void moeNamesSaySo() {
        for (const auto& m : cat_.models()) {
            const bool tagged = m.name.size() > 6 && m.name.ends_with(" (MoE)");
            QVERIFY2(tagged == m.is_moe(), m.name.c_str());
        }
    }
    void densePeaksH100() {
        // NVIDIA H100 SXM datasheet: 1,979 TFLOPS BF16 with sparsity -> 989.4 dense.
        const GpuSpec* g = cat_.gpu("h100-sxm");
        QCOMPARE(g->peak(Dtype::bf16), 989.4e12);
        QCOMPARE(g->memory_bytes, 80e9);
        QCOMPARE(g->scaleup_domain, 8);
        QCOMPARE(cat_.gpu("gb200")->scaleup_domain, 72);
        QCOMPARE(cat_.gpu("l40s")->scaleup_domain, 1);
    }

    void userOverrideWins() {
        Catalog c = cat_;
        const auto errs = c.merge(R"({"gpus": [{"id": "h100-sxm", "name": "My H100",
            "memory_bytes": 8e10, "memory_bandwidth_Bps": 3.0e12,
            "dense_flops": {"bf16": 9e14}}]})",
                                  "user.json", true);
        QVERIFY2(errs.empty(), errs.empty() ? "" : errs.front().message().c_str());
        const GpuSpec* g = c.gpu("h100-sxm");
        QVERIFY(g->provenance.user);
        QCOMPARE(g->name, std::string("My H100"));
        QCOMPARE(c.gpus().size(), cat_.gpus().size());
    }

    void badUserCatalogIsRejectedWhole() {
        Catalog c = cat_;
        const auto errs = c.merge(R"({"gpus": [{"id": "x1", "memory_bytes": -5,
            "memory_bandwidth_Bps": 1e12, "dense_flops": {"bf16": 1e14}}]})",
                                  "user.json", true);
        QCOMPARE(errs.size(), std::size_t(1));
        QCOMPARE(
            QString::fromStdString(errs.front().message()),
            QStringLiteral("user.json: gpus[0].memory_bytes: value -5 is outside [1.0, 1e+30]"));
        QVERIFY(!c.gpu("x1"));
    }

    // Session 34: what CUDA reports as a GPU's total, the memory the models size against; the
    // user's value is used as given, or refused naming the field when it cannot be (more than
    // 1.2 x the label).
    void usableMemory() {
        const GpuSpec& h100 = *cat_.gpu("h100-sxm");
        QCOMPARE(h100.memory_bytes, 80e9);
        QCOMPARE(h100.framework_memory_bytes(), 81089.0 * 1048576.0);
        QVERIFY(!h100.usable_memory_source.empty());
        QCOMPARE(cat_.gpu("b300")->framework_memory_bytes(), cat_.gpu("b300")->memory_bytes);
        Catalog c = cat_;
        auto errs = c.merge(R"({"gpus": [{"id": "x2", "memory_bytes": 24e9,
            "usable_memory_bytes": 23.5e9, "memory_bandwidth_Bps": 1e12,
            "dense_flops": {"bf16": 1e14}}]})",
                            "user.json", true);
        QVERIFY(errs.empty());
        QCOMPARE(c.gpu("x2")->framework_memory_bytes(), 23.5e9);
        errs = c.merge(R"({"gpus": [{"id": "x3", "memory_bytes": 24e9,
            "usable_memory_bytes": 48e9, "memory_bandwidth_Bps": 1e12,
            "dense_flops": {"bf16": 1e14}}]})",
                       "user.json", true);
        QCOMPARE(errs.size(), std::size_t(1));
        QVERIFY2(errs.front().message().find("gpus[0].usable_memory_bytes") != std::string::npos,
                 errs.front().message().c_str());
        QVERIFY(!c.gpu("x3"));
    }

    // Session 44: each serving engine's TP all-reduce as measured inside it (aiconfigurator's
    // tables): read per engine and GPU count, interpolated log-log, refused naming the member
    // when a user's table cannot be used as given.
    void engineAllReduceTables() {
        const GpuSpec& h100 = *cat_.gpu("h100-sxm");
        QVERIFY(h100.engine_allreduce_source.find("aiconfigurator") != std::string::npos);
        for (ServingEngine e : {ServingEngine::trtllm, ServingEngine::vllm, ServingEngine::sglang})
            for (int n : {2, 4, 8})
                QVERIFY2(engine_allreduce(h100, e, n), std::string(to_string(e)).c_str());
        QVERIFY(!engine_allreduce(h100, ServingEngine::trtllm, 3));
        QVERIFY(!engine_allreduce(h100, ServingEngine::llamacpp, 8));
        QVERIFY(!engine_allreduce(*cat_.gpu("mi300x"), ServingEngine::vllm, 8));
        // Every bundled table: sizes ascending, times positive, from 256 B to 1 GiB.
        int tables = 0;
        for (const GpuSpec& g : cat_.gpus())
            for (const EngineAllReduce& a : g.engine_allreduce) {
                ++tables;
                QVERIFY(a.points.size() >= 20);
                QCOMPARE(a.points.front().first, 256.0);
                QCOMPARE(a.points.back().first, 1073741824.0);
                QVERIFY(!a.version.empty());
            }
        QCOMPARE(tables, 69); // 8 GPUs, three engines, two to three GPU counts each

        Catalog c = cat_;
        auto errs = c.merge(R"({"gpus": [{"id": "x4", "memory_bytes": 24e9,
            "memory_bandwidth_Bps": 1e12, "dense_flops": {"bf16": 1e14},
            "engine_allreduce": [{"engine": "vllm", "version": "0.0", "gpus": 4,
                                  "points": [[1000, 1e-5], [4000, 4e-5], [1e9, 2e-3]]}]}]})",
                            "user.json", true);
        QVERIFY2(errs.empty(), errs.empty() ? "" : errs.front().message().c_str());
        const EngineAllReduce* a = engine_allreduce(*c.gpu("x4"), ServingEngine::vllm, 4);
        QVERIFY(a);
        QCOMPARE(engine_allreduce_seconds(*a, 1000), 1e-5); // a measured point
        QCOMPARE(engine_allreduce_seconds(*a, 10), 1e-5);   // below: the smallest's time
        QVERIFY(std::abs(engine_allreduce_seconds(*a, 2000) - 2e-5) < 1e-12); // log-log
        QVERIFY(std::abs(engine_allreduce_seconds(*a, 2e9) - 4e-3) < 1e-12);  // its bandwidth

        const char* bad[][2] = {
            {R"({"engine": "llamacpp", "gpus": 2, "points": [[1, 1e-5], [2, 2e-5]]})",
             "engine_allreduce[0].engine"},
            {R"({"engine": "vllm", "gpus": 1, "points": [[1, 1e-5], [2, 2e-5]]})",
             "engine_allreduce[0].gpus"},
            {R"({"engine": "vllm", "gpus": 2, "points": [[1, 1e-5]]})",
             "engine_allreduce[0].points"},
            {R"({"engine": "vllm", "gpus": 2, "points": [[4, 1e-5], [2, 2e-5]]})",
             "engine_allreduce[0].points[1]"},
            {R"({"engine": "vllm", "gpus": 2, "points": [[1, -1e-5], [2, 2e-5]]})",
             "engine_allreduce[0].points[0]"},
            {R"({"engine": "vllm", "gpus": 2, "points": [[1, 1e-5], "2"]})",
             "engine_allreduce[0].points[1]"},
        };
        for (const auto& [table, where] : bad) {
            errs = c.merge(std::string(R"({"gpus": [{"id": "x5", "memory_bytes": 24e9,
                "memory_bandwidth_Bps": 1e12, "dense_flops": {"bf16": 1e14},
                "engine_allreduce": [)") +
                               table + "]}]}",
                           "user.json", true);
            QVERIFY2(!errs.empty(), where);
            QVERIFY2(errs.front().message().find(std::string("gpus[0].") + where) !=
                         std::string::npos,
                     errs.front().message().c_str());
            QVERIFY(!c.gpu("x5"));
        }
        // Two tables for the same engine and GPU count: which one would be meant is unknown.
        errs = c.merge(R"({"gpus": [{"id": "x6", "memory_bytes": 24e9,
            "memory_bandwidth_Bps": 1e12, "dense_flops": {"bf16": 1e14},
            "engine_allreduce": [
              {"engine": "sglang", "gpus": 2, "points": [[1, 1e-5], [2, 2e-5]]},
              {"engine": "sglang", "gpus": 2, "points": [[1, 1e-5], [2, 3e-5]]}]}]})",
                       "user.json", true);
        QCOMPARE(errs.size(), std::size_t(1));
        QVERIFY2(errs.front().message().find("engine_allreduce[1]") != std::string::npos,
                 errs.front().message().c_str());
    }

    void closestIdSuggestion() {
        QCOMPARE(cat_.closest_id(CatalogKind::gpus, "h100-sx"), std::string("h100-sxm"));
        QCOMPARE(cat_.closest_id(CatalogKind::gpus, "completely-else"), std::string());
    }

    void hfConfigImport() {
        // A Llama-3-8B-shaped config.json (field names of transformers' LlamaConfig).
        auto m = import_hf_config(R"({"model_type": "llama", "hidden_size": 4096,
            "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
            "num_key_value_heads": 8, "vocab_size": 128256, "hidden_act": "silu",
            "tie_word_embeddings": false, "max_position_embeddings": 8192})",
                                  "config.json");
        QVERIFY2(m.ok(), m.error_text().c_str());
        QCOMPARE(m->total_params(), cat_.model("llama3-8b")->total_params());
    }

    // Session 45: a ModelOpt NVFP4 checkpoint's config says which modules it left in 16 bits
    // (quantization_config.exclude_modules). Every layer's attention input projections there:
    // the model says its checkpoint keeps them in 16 bits; the whole attention: all of it; a
    // partial list is said in a note and the model served as NVFP4.
    void hfConfigNvfp4Exclusions() {
        QFile f(QStringLiteral(CLUSTERLENS_SOURCE_DIR
                               "/tests/data/hf_configs/deepseek-ai__DeepSeek-R1.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        nlohmann::json base = nlohmann::json::parse(f.readAll().toStdString());
        auto with = [&](const nlohmann::json& excl) {
            nlohmann::json j = base;
            j["quantization_config"] = {
                {"quant_method", "modelopt"}, {"quant_algo", "NVFP4"}, {"exclude_modules", excl}};
            auto m = import_hf_config(j.dump(), "config.json");
            if (!m.ok())
                qFatal("%s", m.error_text().c_str());
            return *m;
        };
        nlohmann::json mla = nlohmann::json::array({"lm_head"});
        for (int i = 0; i < 61; ++i)
            for (const char* p : {"q_a_proj", "q_b_proj", "kv_a_proj_with_mqa", "kv_b_proj"})
                mla.push_back("model.layers." + std::to_string(i) + ".self_attn." + p);
        const ModelArch v31 = with(mla); // nvidia/DeepSeek-V3.1-NVFP4's list
        QCOMPARE(v31.nvfp4_attention, Fp4Attention::bf16_except_output);
        nlohmann::json all = nlohmann::json::array({"lm_head", "model.layers.*.self_attn*"});
        QCOMPARE(with(all).nvfp4_attention, Fp4Attention::bf16);
        nlohmann::json one = nlohmann::json::array({"model.layers.0.self_attn*"});
        const ModelArch part = with(one);
        QCOMPARE(part.nvfp4_attention, Fp4Attention::fp4);
        bool said = false;
        for (const auto& n : part.provenance.notes)
            said =
                said || n.find("some attention projections left in 16 bits") != std::string::npos;
        QVERIFY(said);
        // Layer indices no model has (too large, negative) match no layer.
        const ModelArch odd = with(nlohmann::json::array(
            {"model.layers.99999999999999999999.self_attn*", "model.layers.-1.self_attn*"}));
        QCOMPARE(odd.nvfp4_attention, Fp4Attention::fp4);
        // Not NVFP4 (an FP8 checkpoint's list): nothing changes.
        nlohmann::json j = base;
        j["quantization_config"] = {
            {"quant_method", "modelopt"}, {"quant_algo", "FP8"}, {"exclude_modules", all}};
        auto f8 = import_hf_config(j.dump(), "config.json");
        QVERIFY(f8.ok());
        QCOMPARE(f8->nvfp4_attention, Fp4Attention::fp4);
        // What the importer says travels in the model's JSON and reads back the same.
        auto again = model_from_json_text(model_arch_to_json(v31), "model.json");
        QVERIFY2(again.ok(), again.error_text().c_str());
        QCOMPARE(again->nvfp4_attention, Fp4Attention::bf16_except_output);
    }

    // Session 51: gpt-oss ships MXFP4 experts (quantization_config quant_method "mxfp4") with
    // the attention, the router, the embeddings and the LM head left in 16 bits
    // (modules_to_not_convert): the importer says both, the bundled entry agrees, the model's
    // JSON carries the format back, and a format the program does not know is refused.
    void hfConfigMxfp4() {
        QFile f(QStringLiteral(CLUSTERLENS_SOURCE_DIR
                               "/tests/data/hf_configs/openai__gpt-oss-120b.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        auto m = import_hf_config(f.readAll().toStdString(), "config.json");
        QVERIFY2(m.ok(), m.error_text().c_str());
        QCOMPARE(m->fp4_format, Fp4Format::mxfp4);
        QCOMPARE(m->nvfp4_attention, Fp4Attention::bf16);
        const ModelArch* bundled = cat_.model("gpt-oss-120b");
        QVERIFY(bundled);
        QCOMPARE(bundled->fp4_format, Fp4Format::mxfp4);
        QCOMPARE(bundled->nvfp4_attention, Fp4Attention::bf16);
        QCOMPARE(cat_.model("qwen3-235b-a22b")->fp4_format, Fp4Format::nvfp4);
        auto again = model_from_json_text(model_arch_to_json(*m), "model.json");
        QVERIFY2(again.ok(), again.error_text().c_str());
        QCOMPARE(again->fp4_format, Fp4Format::mxfp4);
        nlohmann::json j = nlohmann::json::parse(model_arch_to_json(*m));
        j["fp4_format"] = "mxfp6";
        auto bad = model_from_json_text(j.dump(), "model.json");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error_text().find("fp4_format") != std::string::npos &&
                     bad.error_text().find("mxfp6") != std::string::npos,
                 bad.error_text().c_str());
    }

    // Session 52: Q/K norms, which serving engines run as kernels of their own. Qwen3 and
    // Gemma 3 always have them (q_norm / k_norm in their attention); Llama 4 and GLM-4.5 say so
    // in use_qk_norm (Scout true, Maverick false, GLM-4.5-Air false). The bundled entries agree
    // with their configs, the key round-trips and a wrong type is refused with its path.
    void hfConfigQkNorm() {
        const std::pair<const char*, bool> files[] = {
            {"Qwen__Qwen3-8B", true},
            {"Qwen__Qwen3-32B", true},
            {"Qwen__Qwen3-30B-A3B", true},
            {"Qwen__Qwen3-235B-A22B", true},
            {"google__gemma-3-12b-it", true},
            {"google__gemma-3-27b-it", true},
            {"meta-llama__Llama-4-Scout-17B-16E-Instruct", true},
            {"meta-llama__Llama-4-Maverick-17B-128E-Instruct", false},
            {"zai-org__GLM-4.5-Air", false},
            {"deepseek-ai__DeepSeek-R1", false},
            {"openai__gpt-oss-120b", false},
            {"microsoft__phi-4", false},
            {"mistralai__Mistral-7B-v0.1", false}};
        for (const auto& [file, expected] : files) {
            QFile f(QStringLiteral(CLUSTERLENS_SOURCE_DIR "/tests/data/hf_configs/%1.json")
                        .arg(QLatin1String(file)));
            QVERIFY2(f.open(QIODevice::ReadOnly), file);
            auto m = import_hf_config(f.readAll().toStdString(), "config.json");
            QVERIFY2(m.ok(), m.error_text().c_str());
            QVERIFY2(m->qk_norm == expected, file);
            auto again = model_from_json_text(model_arch_to_json(*m), "model.json");
            QVERIFY2(again.ok(), again.error_text().c_str());
            QCOMPARE(again->qk_norm, expected);
        }
        for (const char* id : {"qwen3-8b", "qwen3-32b", "qwen3-30b-a3b", "qwen3-235b-a22b",
                               "gemma3-12b", "gemma3-27b", "llama4-scout"})
            QVERIFY2(cat_.model(id)->qk_norm, id);
        for (const char* id : {"llama4-maverick", "llama3-70b", "deepseek-v3", "gpt-oss-120b",
                               "phi-4", "mixtral-8x7b"})
            QVERIFY2(!cat_.model(id)->qk_norm, id);
        nlohmann::json j = nlohmann::json::parse(model_arch_to_json(*cat_.model("qwen3-32b")));
        QVERIFY(j.value("qk_norm", false));
        j["qk_norm"] = "yes";
        auto bad = model_from_json_text(j.dump(), "model.json");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error_text().find("qk_norm") != std::string::npos, bad.error_text().c_str());
    }

    // Issue 20: the config.json of every family people ask about today (tests/data/hf_configs,
    // each file's source in its README) imports, and its parameter counts match the published
    // figures. Totals: every parameter of the text model (tied embeddings once, vision towers
    // and multi-token-prediction layers out: CLI.md). Active: our definition (non-expert
    // parameters with embeddings and LM head, plus top-k routed and the shared experts); where
    // the publisher counts differently the test says how and converts.
    void hfConfigFamilies() {
        struct Case {
            const char* file;
            double total;                  ///< published, parameters
            double active;                 ///< published (0: not checked)
            bool active_without_embedding; ///< the publisher leaves the input embedding out
            const char* source;
        };
        const Case cases[] = {
            {"Qwen__Qwen3-8B", 8.2e9, 0, false,
             "Qwen3-8B card (tests/data/hf_configs/README.md): 8.2B"},
            {"Qwen__Qwen3-32B", 32.8e9, 0, false, "Qwen3-32B card: 32.8B"},
            {"Qwen__Qwen3-30B-A3B", 30.5e9, 3.3e9, false,
             "Qwen3-30B-A3B card: 30.5B, 3.3B activated"},
            {"Qwen__Qwen3-235B-A22B", 235e9, 22e9, false,
             "Qwen3-235B-A22B card: 235B, 22B activated"},
            {"openai__gpt-oss-120b", 116.83e9, 5.13e9, true,
             "gpt-oss model card Table 1: 116.83B, 5.13B active (unembedding counted, embedding "
             "not)"},
            {"openai__gpt-oss-20b", 20.91e9, 3.61e9, true,
             "gpt-oss model card Table 1: 20.91B, 3.61B"},
            {"meta-llama__Llama-4-Maverick-17B-128E-Instruct", 400e9, 17e9, false,
             "llama-models MODEL_CARD.md: 400B total, 17B active"},
            {"google__gemma-3-27b-it", 27.016e9, 0, false,
             "Gemma 3 Technical Report Table 1: 1,416M embedding + 25,600M non-embedding (the 417M "
             "vision encoder apart)"},
            {"google__gemma-3-12b-it", 11.771e9, 0, false,
             "Gemma 3 Technical Report Table 1: 1,012M embedding + 10,759M non-embedding (the 417M "
             "vision encoder apart)"},
            {"deepseek-ai__DeepSeek-R1", 671e9, 37e9, false,
             "DeepSeek-R1 README: 671B total (the 14B MTP module apart), 37B activated incl. "
             "embedding and output head (DeepSeek-V3 README_WEIGHTS)"},
            {"microsoft__Phi-3-mini-4k-instruct", 3.8e9, 0, false,
             "Phi-3-mini-4k-instruct card: 3.8B"},
            {"mistralai__Mistral-7B-v0.1", 7.3e9, 0, false, "Mistral AI announcement: 7.3B"},
            // The count llama.cpp prints for the GGUF of it (the CPU-server validation row's
            // page, docs/validation.md): "14.66 B".
            {"microsoft__phi-4", 14.66e9, 0, false, "llama-bench on phi-4 GGUFs: 14.66 B"},
            // Active not checked: zai-org/GLM-4.5 README gives 12B without saying how it counts
            // (ours: 13.4B with embeddings and head, 12.2B without).
            {"zai-org__GLM-4.5-Air", 106e9, 0, false, "zai-org/GLM-4.5 README: 106B total"},
            {"meta-llama__Llama-4-Scout-17B-16E-Instruct", 0, 17e9, false,
             "llama-models MODEL_CARD.md: 17B active (its 109B total includes the vision encoder)"},
            {"moonshotai__Kimi-K2-Instruct", 1e12, 32e9, false,
             "MoonshotAI/Kimi-K2 README: 1T total (one significant digit), 32B activated"},
        };
        QString table = QStringLiteral("\n| config | total | published | active | published |\n");
        for (const Case& c : cases) {
            const std::string path =
                std::string(CLUSTERLENS_SOURCE_DIR) + "/tests/data/hf_configs/" + c.file + ".json";
            QFile in(QString::fromStdString(path));
            QVERIFY2(in.open(QIODevice::ReadOnly), path.c_str());
            const std::string text = in.readAll().toStdString();
            auto m = import_hf_config(text, c.file);
            QVERIFY2(m.ok(), (std::string(c.file) + ": " + m.error_text()).c_str());
            const double total = m->total_params();
            double active = m->active_params();
            if (c.active_without_embedding)
                active -= static_cast<double>(m->vocab) * m->hidden;
            table += QStringLiteral("| %1 | %2 B | %3 B | %4 B | %5 B |\n")
                         .arg(QString::fromLatin1(c.file))
                         .arg(total / 1e9, 0, 'f', 2)
                         .arg(c.total / 1e9, 0, 'f', 2)
                         .arg(active / 1e9, 0, 'f', 2)
                         .arg(c.active / 1e9, 0, 'f', 2);
            // Within 1%, or within the rounding of a figure published to one digit ("1T").
            const double tolerance = c.total >= 1e12 ? 0.05 : 0.01;
            if (c.total > 0)
                QVERIFY2(std::abs(total / c.total - 1) < tolerance,
                         (std::string(c.file) + " total, " + c.source).c_str());
            // Published active counts are rounded to two or three digits ("3.3B", "17B").
            if (c.active > 0)
                QVERIFY2(std::abs(active / c.active - 1) < 0.05,
                         (std::string(c.file) + " active, " + c.source).c_str());
        }
        qInfo().noquote() << table;
        const auto load = [](const char* file) {
            QFile in(QString::fromStdString(std::string(CLUSTERLENS_SOURCE_DIR) +
                                            "/tests/data/hf_configs/" + file + ".json"));
            if (!in.open(QIODevice::ReadOnly))
                return Result<ModelArch>(Error{file, "missing"});
            return import_hf_config(in.readAll().toStdString(), file);
        };
        // KV cache of a sliding-window model: gpt-oss-120b alternates 128-token local layers
        // and global ones (its layer_types), 8 KV heads of 64: 2 x 8 x 64 x 2 B = 2,048 B per
        // token and layer; a 32k sequence keeps 32k tokens on 18 layers and 128 on the other 18.
        const auto oss = load("openai__gpt-oss-120b");
        QVERIFY(oss.ok());
        QCOMPARE(oss->sliding_window, 128);
        QCOMPARE(oss->global_every, 2);
        QCOMPARE(oss->local_layers_in(0, oss->layers), 18);
        QCOMPARE(kv_bytes_per_sequence(*oss, KvDtype::bf16, 32768),
                 2048.0 * (18 * 32768.0 + 18 * 128.0));
        // kv_bytes_per_token of a sliding-window model: the average over layers at its full
        // context (CLI.md), 131,072 tokens for gpt-oss.
        QCOMPARE(kv_bytes_per_token(*oss, KvDtype::bf16),
                 2048.0 * (18 * 131072.0 + 18 * 128.0) / 131072.0);
        // Gemma 3 27B: window 1,024 on 5 of every 6 layers (Gemma3TextConfig default), the
        // vocabulary its config leaves out from the same defaults.
        const auto gemma = load("google__gemma-3-27b-it");
        QVERIFY(gemma.ok());
        QCOMPARE(gemma->sliding_window, 1024);
        QCOMPARE(gemma->global_every, 6);
        QCOMPARE(gemma->vocab, 262208);
        QCOMPARE(gemma->local_layers_in(0, 62), 62 - 10);
        // MLA: DeepSeek-R1 caches the 512-wide latent plus the 64-wide RoPE key per layer:
        // 61 x 576 x 2 B = 70,272 B per token (DeepSeek-V2 sec. 2.1.3).
        const auto r1 = load("deepseek-ai__DeepSeek-R1");
        QVERIFY(r1.ok());
        QCOMPARE(kv_bytes_per_token(*r1, KvDtype::bf16), 61.0 * 576 * 2);
        // Its multi-token prediction module (num_nextn_predict_layers 1; V3 report sec. 2.2):
        // read, kept through a round trip, and out of the parameter count (671B, the 14B MTP
        // module apart, as the README counts).
        QCOMPARE(r1->mtp_layers, 1);
        QCOMPARE(cat_.model("deepseek-v3")->mtp_layers, 1);
        QCOMPARE(cat_.model("llama3-70b")->mtp_layers, 0);
        QCOMPARE(cat_.model("llama3-70b")->mtp_params(), 0.0);
        // DeepSeek's README: "671B of the main model weights and 14B of the multi-token
        // prediction module weights"; its checkpoint keeps a copy of the embedding and the head
        // with the module, which training shares with the model (not in mtp_params).
        const ModelArch& v3 = *cat_.model("deepseek-v3");
        const double module = v3.mtp_params() + v3.embedding_params() + v3.output_params();
        QVERIFY2(std::abs(module / 14e9 - 1) < 0.05, qPrintable(QString::number(module / 1e9)));
        {
            const auto back = model_from_json_text(model_arch_to_json(*r1), "r1.json");
            QVERIFY2(back.ok(), back.error_text().c_str());
            QCOMPARE(back->mtp_layers, 1);
            QCOMPARE(back->total_params(), r1->total_params());
            std::string bad = model_arch_to_json(*r1);
            const auto at = bad.find("\"mtp_layers\":1");
            QVERIFY(at != std::string::npos);
            bad.replace(at, 14, "\"mtp_layers\":17");
            const auto refused = model_from_json_text(bad, "r1.json");
            QVERIFY(!refused.ok());
            QVERIFY2(refused.error_text().find("mtp_layers") != std::string::npos,
                     refused.error_text().c_str());
        }
        // DeepSeek's node-limited routing (V3 report sec. 2.1.2): n_group 8, topk_group 4.
        QCOMPARE(r1->router_groups, 8);
        QCOMPARE(r1->router_group_top_k, 4);
        {
            const auto back = model_from_json_text(model_arch_to_json(*r1), "r1.json");
            QVERIFY2(back.ok(), back.error_text().c_str());
            QCOMPARE(back->router_groups, 8);
            QCOMPARE(back->router_group_top_k, 4);
            std::string bad = model_arch_to_json(*r1);
            const auto at = bad.find("\"router_group_top_k\":4");
            QVERIFY(at != std::string::npos);
            bad.replace(at, 22, "\"router_group_top_k\":9");
            const auto refused = model_from_json_text(bad, "r1.json");
            QVERIFY(!refused.ok());
            QVERIFY2(refused.error_text().find("router_group_top_k") != std::string::npos,
                     refused.error_text().c_str());
        }
        // Llama 4 Maverick: MoE every other layer, chunked attention (8,192) on 3 of every 4.
        const auto mav = load("meta-llama__Llama-4-Maverick-17B-128E-Instruct");
        QVERIFY(mav.ok());
        QCOMPARE(mav->moe_layers(), 24);
        QCOMPARE(mav->sliding_window, 8192);
        QCOMPARE(mav->local_layers_in(0, 48), 36);
        // Its attention_chunk_size is a chunk, not a window (session 43): a query attends to its
        // own chunk only, so a 20,000-token prompt's queries see 3,682 tokens on average on a
        // local layer (chunks of 8,192, 8,192 and 3,616: (2 x 8,192^2 + 3,616^2) / 2 / 20,000),
        // where a sliding window of 8,192 would show them 6,514 (8,192 - 8,192^2 / 40,000).
        QVERIFY(mav->local_attention == LocalAttention::chunked);
        QCOMPARE(mav->causal_context(20000, true),
                 (2.0 * 8192.0 * 8192.0 + 3616.0 * 3616.0) / 2.0 / 20000.0);
        QCOMPARE(mav->causal_context(20000, false), 10000.0);
        QCOMPARE(mav->causal_context(6000, true), 3000.0); // one chunk: as a global layer
        QCOMPARE(mav->attended_context(8192, true), 8192.0);
        QCOMPARE(mav->attended_context(8193, true), 1.0); // the first query of the next chunk
        QCOMPARE(mav->attended_context(20000, true), 3616.0);
        QCOMPARE(mav->kept_context(20000, true), 8192.0); // the engine allocates one chunk
        ModelArch slide = *mav;
        slide.local_attention = LocalAttention::sliding;
        QCOMPARE(slide.causal_context(20000, true), 8192.0 - 8192.0 * 8192.0 / 40000.0);
        QCOMPARE(slide.attended_context(20000, true), 8192.0);
        // The zoo writes it and reads it back; a gemma-style window stays sliding.
        auto again = model_from_json_text(model_arch_to_json(*mav), "m.json");
        QVERIFY2(again.ok(), again.error_text().c_str());
        QVERIFY(again->local_attention == LocalAttention::chunked);
        QVERIFY(describe_model(*mav).find("chunked attention 8192 tokens") != std::string::npos);
        QVERIFY(oss->local_attention == LocalAttention::sliding);
        // Qwen3: use_sliding_window false keeps every layer global; head_dim is its own.
        const auto q3 = load("Qwen__Qwen3-32B");
        QVERIFY(q3.ok());
        QCOMPARE(q3->sliding_window, 0);
        QCOMPARE(q3->head_dim, 128);
        // What is read and not counted is said: gpt-oss's MXFP4 quantization_config.
        bool noted = false;
        for (const auto& n : oss->provenance.notes)
            noted = noted || n.find("mxfp4") != std::string::npos;
        QVERIFY(noted);
    }

    // The zoo entries of issue 20 are the imports of those configs: same counts, layers,
    // windows and KV bytes (a transcription slip in either shows here).
    void zooMatchesConfigs() {
        const std::pair<const char*, const char*> pairs[] = {
            {"qwen3-8b", "Qwen__Qwen3-8B"},
            {"qwen3-32b", "Qwen__Qwen3-32B"},
            {"qwen3-30b-a3b", "Qwen__Qwen3-30B-A3B"},
            {"qwen3-235b-a22b", "Qwen__Qwen3-235B-A22B"},
            {"gpt-oss-20b", "openai__gpt-oss-20b"},
            {"gpt-oss-120b", "openai__gpt-oss-120b"},
            {"llama4-scout", "meta-llama__Llama-4-Scout-17B-16E-Instruct"},
            {"llama4-maverick", "meta-llama__Llama-4-Maverick-17B-128E-Instruct"},
            {"gemma3-12b", "google__gemma-3-12b-it"},
            {"gemma3-27b", "google__gemma-3-27b-it"},
            {"deepseek-r1", "deepseek-ai__DeepSeek-R1"},
            {"kimi-k2", "moonshotai__Kimi-K2-Instruct"},
        };
        for (const auto& [id, file] : pairs) {
            const ModelArch* zoo = cat_.model(id);
            QVERIFY2(zoo, id);
            QVERIFY2(!zoo->provenance.source.empty() && !zoo->provenance.as_of.empty(), id);
            QFile in(QString::fromStdString(std::string(CLUSTERLENS_SOURCE_DIR) +
                                            "/tests/data/hf_configs/" + file + ".json"));
            QVERIFY(in.open(QIODevice::ReadOnly));
            const auto m = import_hf_config(in.readAll().toStdString(), file);
            QVERIFY2(m.ok(), m.error_text().c_str());
            QCOMPARE(zoo->total_params(), m->total_params());
            QCOMPARE(zoo->active_params(), m->active_params());
            QCOMPARE(zoo->moe_layers(), m->moe_layers());
            QCOMPARE(zoo->local_layers_in(0, zoo->layers), m->local_layers_in(0, m->layers));
            QCOMPARE(zoo->sliding_window, m->sliding_window);
            QVERIFY2(zoo->local_attention == m->local_attention, id);
            QCOMPARE(kv_bytes_per_sequence(*zoo, KvDtype::bf16, 100000),
                     kv_bytes_per_sequence(*m, KvDtype::bf16, 100000));
            QCOMPARE(zoo->max_seq, m->max_seq);
            // Group-limited routing as the config has it (one group: no limit, as Kimi K2's).
            const auto limit = [](const ModelArch& a) {
                return a.router_groups > 1 ? std::pair{a.router_groups, a.router_group_top_k}
                                           : std::pair{0, 0};
            };
            QVERIFY2(limit(*zoo) == limit(*m), id);
            // TensorRT-LLM's eager ops per layer: the importer counts Llama 4's from its layers
            // (Scout 28: all MoE, every 4th NoPE; Maverick 23: MoE every 2nd layer); others 0.
            QCOMPARE(zoo->trtllm_eager_ops_per_layer, m->trtllm_eager_ops_per_layer);
        }
        QCOMPARE(cat_.model("llama4-scout")->trtllm_eager_ops_per_layer, 28.0);
        QCOMPARE(cat_.model("llama4-maverick")->trtllm_eager_ops_per_layer, 23.0);
        QCOMPARE(cat_.model("qwen3-30b-a3b")->trtllm_eager_ops_per_layer, 0.0);
        // Written and read back; a value out of range is refused naming the field.
        const auto back =
            model_from_json_text(model_arch_to_json(*cat_.model("llama4-scout")), "scout.json");
        QVERIFY(back.ok());
        QCOMPARE(back->trtllm_eager_ops_per_layer, 28.0);
        std::string bad = model_arch_to_json(*cat_.model("llama4-scout"));
        bad.replace(bad.find("\"trtllm_eager_ops_per_layer\":28"), 31,
                    "\"trtllm_eager_ops_per_layer\":-3");
        const auto refused = model_from_json_text(bad, "scout.json");
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error_text().find("trtllm_eager_ops_per_layer") != std::string::npos,
                 refused.error_text().c_str());
        // local_attention: a word it does not know, or chunks without a chunk size, is refused
        // naming the field (never read as a window).
        std::string chunky = model_arch_to_json(*cat_.model("llama4-scout"));
        chunky.replace(chunky.find("\"local_attention\":\"chunked\""), 27,
                       "\"local_attention\":\"chunky\"");
        const auto word = model_from_json_text(chunky, "scout.json");
        QVERIFY(!word.ok());
        QVERIFY2(word.error_text().find("local_attention") != std::string::npos &&
                     word.error_text().find("sliding|chunked") != std::string::npos,
                 word.error_text().c_str());
        std::string sizeless = model_arch_to_json(*cat_.model("llama4-scout"));
        sizeless.replace(sizeless.find("\"sliding_window\":8192"), 21, "\"sliding_window\":0");
        const auto nosize = model_from_json_text(sizeless, "scout.json");
        QVERIFY(!nosize.ok());
        QVERIFY2(nosize.error_text().find("chunked attention needs sliding_window") !=
                     std::string::npos,
                 nosize.error_text().c_str());
    }

    void hfConfigUnsupported() {
        // Found by fuzz_hf_config: a wrong type is an error with its path, not an abort.
        auto typed = import_hf_config(
            R"({"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336,
                "tie_word_embeddings": 32, "num_attention_heads": 32, "num_hidden_layers": 2,
                "vocab_size": 32000, "num_local_experts": 8, "num_experts_per_tok": 2})",
            "config.json");
        QVERIFY(!typed.ok());
        QVERIFY2(typed.error_text().find("tie_word_embeddings") != std::string::npos,
                 typed.error_text().c_str());
        auto m = import_hf_config(R"({"model_type": "t5", "d_model": 512})", "config.json");
        QVERIFY(!m.ok());
        QVERIFY(m.error_text().find("config.json.model_type: unsupported model_type \"t5\"") == 0);
        auto g = import_hf_config(R"({"model_type": "llama", "hidden_size": 4096,
            "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 32000,
            "intermediate_size": 11008, "hidden_act": "relu"})",
                                  "config.json");
        QVERIFY(!g.ok());
        QVERIFY(g.error_text().find("config.json.hidden_act") == 0);
    }
};

QTEST_APPLESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
