// core/model catalog and model zoo: the ids CLI.md promises, provenance on every entry,
// dense peaks, user overrides.
#include "model/catalog.h"

#include "fixtures.h"

#include <QtTest>

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
