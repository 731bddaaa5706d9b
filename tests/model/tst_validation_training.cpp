// Training throughput against published runs (../shared/validation/published.json): each row
// names its case id; the table of predicted vs published values is printed and kept in
// docs/validation.md. Target: every case within +/-15%, median error <= 8%, with the global
// factors of TrainingAssumptions only.
#include "model/catalog.h"
#include "model/generators.h"
#include "model/training.h"

#include "fixtures.h"

#include <QtTest>

#include <algorithm>

using namespace cl::model;

namespace {
struct Case {
    const char* id;
    const char* model; ///< zoo id or a custom GPT shape below
    int layers, hidden, heads, vocab, seq;
    const char* system;
    int gpus, tp, pp, vpp, cp;
    long long gb;
    int mb; ///< 0 = not published (auto)
    const char* dtype;
    const char* recompute;
    bool flash, sp, tp_overlap;
    double published_tflops; ///< model TFLOP/s per GPU (Narayanan: hardware, incl. recompute)
    bool hardware;           ///< published figure counts recomputation
};

// Sources: A.megatron2021.* Narayanan et al. 2021 Table 1; A.korthikanti2022.* Korthikanti
// et al. 2022 Table 5; A.mcore_r0.8.0_h100.* Megatron-LM README; A.llama3_405b.* Llama 3 paper
// Table 4; A.megatron_bridge_25.11.* Megatron-Bridge performance summary.
const Case kCases[] = {
    {"A.megatron2021.weak.1.7B",
     "",
     24,
     2304,
     24,
     51200,
     2048,
     "dgx-a100",
     32,
     1,
     1,
     1,
     1,
     512,
     0,
     "fp16",
     "full",
     false,
     false,
     false,
     137,
     true},
    {"A.megatron2021.weak.7.5B",
     "",
     36,
     4096,
     32,
     51200,
     2048,
     "dgx-a100",
     128,
     4,
     1,
     1,
     1,
     512,
     0,
     "fp16",
     "full",
     false,
     false,
     false,
     142,
     true},
    {"A.megatron2021.weak.39.1B",
     "",
     48,
     8192,
     64,
     51200,
     2048,
     "dgx-a100",
     512,
     8,
     2,
     2,
     1,
     1536,
     0,
     "fp16",
     "full",
     false,
     false,
     false,
     138,
     true},
    {"A.megatron2021.weak.145.6B",
     "",
     80,
     12288,
     96,
     51200,
     2048,
     "dgx-a100",
     1536,
     8,
     8,
     2,
     1,
     2304,
     0,
     "fp16",
     "full",
     false,
     false,
     false,
     148,
     true},
    {"A.megatron2021.weak.529.6B",
     "",
     105,
     20480,
     128,
     51200,
     2048,
     "dgx-a100",
     2520,
     8,
     35,
     3,
     1,
     2520,
     0,
     "fp16",
     "full",
     false,
     false,
     false,
     163,
     true},
    {"A.korthikanti2022.table5.22B",
     "",
     48,
     6144,
     64,
     51200,
     2048,
     "dgx-a100",
     8,
     8,
     1,
     1,
     1,
     4,
     4,
     "fp16",
     "selective",
     false,
     true,
     false,
     130.0,
     false},
    {"A.korthikanti2022.table5.175B",
     "",
     96,
     12288,
     96,
     51200,
     2048,
     "dgx-a100",
     64,
     8,
     8,
     3,
     1,
     64,
     1,
     "fp16",
     "selective",
     false,
     true,
     false,
     160.3,
     false},
    {"A.mcore_r0.8.0_h100.weak.1.7B",
     "",
     24,
     2048,
     16,
     131072,
     4096,
     "dgx-h100",
     48,
     1,
     1,
     1,
     1,
     192,
     0,
     "bf16",
     "none",
     true,
     false,
     true,
     408.8,
     false},
    {"A.mcore_r0.8.0_h100.weak.16B",
     "",
     32,
     6144,
     48,
     131072,
     4096,
     "dgx-h100",
     192,
     4,
     1,
     1,
     1,
     192,
     0,
     "bf16",
     "none",
     true,
     true,
     true,
     489.1,
     false},
    {"A.mcore_r0.8.0_h100.weak.70B",
     "",
     84,
     8192,
     64,
     131072,
     4096,
     "dgx-h100",
     768,
     8,
     2,
     1,
     1,
     384,
     0,
     "bf16",
     "none",
     true,
     true,
     true,
     419.7,
     false},
    {"A.mcore_r0.8.0_h100.weak.177B",
     "",
     96,
     12288,
     96,
     131072,
     4096,
     "dgx-h100",
     2304,
     8,
     6,
     1,
     1,
     1152,
     0,
     "bf16",
     "none",
     true,
     true,
     true,
     432.8,
     false},
    {"A.llama3_405b.table4.8192gpu_cp1",
     "llama3.1-405b",
     0,
     0,
     0,
     0,
     8192,
     "hgx-h100",
     8192,
     8,
     16,
     2,
     1,
     2048,
     1,
     "bf16",
     "none",
     true,
     true,
     false,
     430,
     false},
    {"A.megatron_bridge_25.11.H100.LLAMA3_8B",
     "llama3-8b",
     0,
     0,
     0,
     0,
     8192,
     "dgx-h100",
     8,
     1,
     1,
     1,
     1,
     128,
     1,
     "fp8",
     "none",
     true,
     false,
     false,
     744,
     false},
};
// Cases the model misses beyond +-15%, each explained in docs/validation.md. They are printed
// and counted in the median; the model is not tuned to them (no per-case factors).
bool known_miss(const char* id) {
    return std::string(id) == "A.mcore_r0.8.0_h100.weak.1.7B";
}
} // namespace

class TestValidationTraining : public QObject {
    Q_OBJECT
private:
    Catalog cat_;

private slots:
    void initTestCase() { cat_ = cl::test::bundled_catalog(); }

    void publishedRuns() {
        std::vector<double> errors;
        QString table = QStringLiteral(
            "\n| case | published TFLOP/s/GPU | predicted | error |\n|---|---|---|---|\n");
        bool all_ok = true;
        for (const Case& c : kCases) {
            ModelArch m;
            if (*c.model) {
                m = *cat_.model(c.model);
            } else { // Megatron GPT shape: GeLU 4h, learned positions, tied, LayerNorm, dropout
                m.id = c.id;
                m.layers = c.layers;
                m.hidden = c.hidden;
                m.heads = m.kv_heads = c.heads;
                m.head_dim = c.hidden / c.heads;
                m.ffn = 4 * c.hidden;
                m.vocab = c.vocab;
                m.mlp = Mlp::gelu;
                m.tied_embeddings = true;
                m.layernorm = true;
                m.learned_positions = true;
                m.dropout = std::string(c.system) == "dgx-a100";
                m.max_seq = c.seq;
            }
            const SystemSpec* sys = cat_.system(c.system);
            FatTreeSpec fs;
            fs.system = c.system;
            fs.nodes = std::max(1, c.gpus / sys->gpus);
            fs.switch_id = std::string(c.system) == "dgx-a100" ? "qm8700" : "qm9700";
            if (std::string(c.system) == "hgx-h100") { // Llama 3: RoCE 400G, 1:7 above pods
                fs.link = "roce-400";
                fs.switch_id = "sn5400";
                fs.tiers = 3;
                fs.oversubscription = 7;
                fs.pod_nodes = 256;
            }
            auto design = generate_fat_tree(fs, cat_);
            QVERIFY2(design.ok(), design.error_text().c_str());
            const Topology topo = analyze_topology(*design, cat_);
            TrainingSpec t;
            t.tp = c.tp;
            t.pp = c.pp;
            t.vpp = c.vpp;
            t.cp = c.cp;
            t.global_batch = c.gb;
            t.micro_batch = c.mb;
            t.seq = c.seq;
            t.dtype = *cl::model::choice_from_string<cl::model::TrainingDtype>(c.dtype);
            t.recompute = *cl::model::choice_from_string<cl::model::Recompute>(c.recompute);
            t.sequence_parallel = c.sp;
            t.schedule = c.vpp > 1 ? cl::model::Schedule::interleaved : cl::model::Schedule::one_f_one_b;
            t.zero = 1;
            TrainingAssumptions ta;
            if (c.tp_overlap)
                ta.tp_overlap.value = 0.8; // Megatron-Core --tp-comm-overlap (docs/training.md)
            MemoryAssumptions ma;
            ma.flash_attention.value = c.flash ? 1 : 0;
            auto r = train_step(m, t, c.gpus, *cat_.gpu(sys->gpu), topo, ta, {}, ma);
            QVERIFY2(r.ok(), (std::string(c.id) + ": " + r.error_text()).c_str());
            const double predicted =
                (c.hardware ? r->hardware_flops_per_gpu : r->model_flops_per_gpu) / 1e12;
            const double err = predicted / c.published_tflops - 1;
            errors.push_back(std::abs(err));
            // A known miss must still not drift further (its documented error is +20%).
            all_ok =
                all_ok && (std::abs(err) <= 0.15 || (known_miss(c.id) && std::abs(err) <= 0.25));
            table +=
                QStringLiteral("| %1 | %2 | %3 | %4% | micro-batch %5, step %6 s, bubble %7% |\n")
                    .arg(QString::fromLatin1(c.id))
                    .arg(c.published_tflops, 0, 'f', 1)
                    .arg(predicted, 0, 'f', 1)
                    .arg(err * 100, 0, 'f', 1)
                    .arg(r->micro_batch)
                    .arg(r->step_time_s, 0, 'f', 3)
                    .arg(r->bubble_fraction * 100, 0, 'f', 1);
        }
        std::sort(errors.begin(), errors.end());
        const double median = errors[errors.size() / 2];
        table += QStringLiteral("\nmedian |error| %1%\n").arg(median * 100, 0, 'f', 1);
        qInfo().noquote() << table;
        QVERIFY2(all_ok, qPrintable(table));
        QVERIFY2(median <= 0.08, qPrintable(table));
    }

    // A.korthikanti2022.table4_layer_times_22B -- Korthikanti et al. 2022 Table 4: one layer of
    // the 22B model (h 6144, 64 heads, tp 8, s 2048, micro-batch 4) on A100: time overhead of
    // each technique vs the baseline (fwd + bwd, no recompute): sequence parallel -3%, full
    // recompute +39%, selective +7%, selective + SP +4%. Tolerance: +-5 points (the source's
    // own hint). Our step also holds the LM head and optimizer, which dilute the ratios a bit.
    void recomputeOverheads() {
        ModelArch m;
        m.id = "gpt-22b";
        m.layers = 48;
        m.hidden = 6144;
        m.heads = m.kv_heads = 64;
        m.head_dim = 96;
        m.ffn = 4 * 6144;
        m.vocab = 51200;
        m.mlp = Mlp::gelu;
        m.tied_embeddings = true;
        m.layernorm = true;
        m.learned_positions = true;
        m.dropout = true;
        m.max_seq = 2048;
        const Topology topo = cl::test::single_system("dgx-a100");
        MemoryAssumptions ma;
        ma.flash_attention.value = 0; // Megatron 2022: no FlashAttention
        auto step = [&](const char* recompute, bool sp) {
            TrainingSpec t;
            t.tp = 8;
            t.global_batch = 4;
            t.micro_batch = 4;
            t.seq = 2048;
            t.dtype = cl::model::TrainingDtype::fp16;
            t.recompute = *cl::model::choice_from_string<cl::model::Recompute>(recompute);
            t.sequence_parallel = sp;
            t.zero = 1;
            auto r = train_step(m, t, 8, *cat_.gpu("a100-sxm-80gb"), topo, {}, {}, ma);
            if (!r.ok())
                qFatal("%s", r.error_text().c_str());
            const auto& b = r->breakdown;
            return b.compute + b.recompute + b.tp_comm;
        };
        const double base = step("none", false);
        qInfo("baseline per layer %.2f ms (published 19.6)", base / 48 * 1e3);
        struct Row {
            const char* name;
            const char* recompute;
            bool sp;
            double published_pct;
        } rows[] = {{"sequence parallel", "none", true, -3},
                    {"full recompute", "full", false, 39},
                    {"selective recompute", "selective", false, 7},
                    {"selective + sequence parallel", "selective", true, 4}};
        QString table =
            QStringLiteral("\n| technique | published overhead | predicted |\n|---|---|---|\n");
        bool ok = true;
        for (const Row& row : rows) {
            const double pct = (step(row.recompute, row.sp) / base - 1) * 100;
            table += QStringLiteral("| %1 | %2% | %3% |\n")
                         .arg(QString::fromLatin1(row.name))
                         .arg(row.published_pct, 0, 'f', 0)
                         .arg(pct, 0, 'f', 1);
            ok = ok && std::abs(pct - row.published_pct) <= 5.0;
        }
        qInfo().noquote() << table;
        QVERIFY2(ok, qPrintable(table));
    }
};

QTEST_APPLESS_MAIN(TestValidationTraining)
#include "tst_validation_training.moc"
