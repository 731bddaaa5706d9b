// Inference serving against published numbers (../shared/validation/published.json).
#include "model/catalog.h"
#include "model/design.h"
#include "model/inference.h"
#include "model/topology.h"

#include "fixtures.h"

#include <QtTest>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

using namespace cl::model;

class TestValidationInference : public QObject {
    Q_OBJECT
private:
    Catalog cat_;

    Topology node(const char* system) {
        // "pcie-box-8:<gpu>": one server of 8 such PCIe cards (no NVLink, no NICs), as drawn.
        const std::string_view sys(system);
        if (sys.rfind("pcie-box-8:", 0) == 0)
            return cl::model::analyze_topology(cl::test::pcie_box(std::string(sys.substr(11)), 8),
                                               cat_);
        return cl::test::single_system(system);
    }

    /// The data rows of a CSV file in tests/data/serving (comments and the header skipped),
    /// split at commas; empty when the file cannot be read.
    static std::vector<std::vector<std::string>> serving_csv(const std::string& file) {
        std::ifstream in(std::string(CLUSTERLENS_SOURCE_DIR) + "/tests/data/serving/" + file);
        std::vector<std::vector<std::string>> out;
        std::string line;
        bool header = true;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '#')
                continue;
            if (header) {
                header = false;
                continue;
            }
            std::vector<std::string> c;
            std::stringstream ss(line);
            for (std::string cell; std::getline(ss, cell, ',');)
                c.push_back(cell);
            out.push_back(std::move(c));
        }
        return out;
    }

private slots:
    void initTestCase() { cat_ = cl::test::bundled_catalog(); }

    // D.spec_decoding.leviathan -- Leviathan et al. 2023 eq. 1 and Thm 3.8; Table 4 example
    // alpha 0.75, gamma 7, c 0.02: expected speedup 3.2 (exact formula).
    void speculativeFormula() {
        QVERIFY(std::abs(speculative_tokens_per_step(0.75, 7) - (1 - std::pow(0.75, 8)) / 0.25) <
                1e-12);
        QVERIFY(std::abs(speculative_speedup(0.75, 7, 0.02) - 3.2) < 0.05);
        QCOMPARE(speculative_tokens_per_step(1.0, 4), 5.0);
        QCOMPARE(speculative_tokens_per_step(0.0, 4), 1.0);
    }

    // D.trtllm_v0.17.llama31_8b_tp1 -- NVIDIA/TensorRT-LLM perf-overview.md (v0.17): offline
    // max throughput of Llama 3.1 8B on one GPU; H100/H200 FP8, A100 FP16; target +-25% across
    // the table (issue #7). The table is printed and kept in docs/validation.md.
    void trtllmTable() {
        struct Row {
            const char* len;
            int in, out;
            double h200, h100, a100;
        };
        const Row rows[] = {{"128/128", 128, 128, 29526.04, 28836.77, 6627.27},
                            {"128/2048", 128, 2048, 25398.86, 21109.38, 5255.99},
                            {"128/4096", 128, 4096, 17370.8, 13593.65, 3453.79},
                            {"500/2000", 500, 2000, 21020.81, 16500.69, 4276.58},
                            {"1000/1000", 1000, 1000, 17537.96, 15244.78, 3786.83},
                            {"2048/128", 2048, 128, 3794.14, 3556.73, 799.61},
                            {"2048/2048", 2048, 2048, 11968.5, 9488.42, 2424.16},
                            {"5000/500", 5000, 500, 3987.79, 3559.36, 825.13},
                            {"20000/2000", 20000, 2000, 1804.1, 1401.31, 330.04}};
        // The page's num_requests per ISL/OSL (published.json inputs.num_requests): each row is
        // a batch job of that many requests, measured from the first to the last one's end.
        const ModelArch& m = *cat_.model("llama3-8b");
        QString table = QStringLiteral(
            "\n| ISL/OSL | GPU | published tok/s | predicted | error |\n|---|---|---|---|---|\n");
        std::vector<double> errs;
        for (const auto& row : rows) {
            const struct {
                const char* gpu;
                const char* sys;
                const char* dtype;
                double pub;
            } gs[] = {{"h200-sxm", "hgx-h200", "fp8", row.h200},
                      {"h100-sxm", "hgx-h100", "fp8", row.h100},
                      {"a100-sxm-80gb", "dgx-a100", "bf16", row.a100}};
            for (const auto& g : gs) {
                InferenceSpec s;
                s.tp = 1;
                s.input_len = row.in;
                s.output_len = row.out;
                s.weights_dtype = *cl::model::choice_from_string<cl::model::WeightsDtype>(g.dtype);
                s.kv_dtype = *cl::model::choice_from_string<cl::model::KvDtype>(g.dtype);
                s.batching = cl::model::Batching::continuous;
                s.requests = requests_of(row.in, row.out);
                s.engine = cl::model::ServingEngine::trtllm; // the published runs: TensorRT-LLM
                // v0.17 ran the TensorRT engine flow (trtllm-bench build, then the C++ executor):
                // no Python thread prepares steps or launches ops, and its runtime captures no
                // CUDA graphs unless asked. The engine was built with trtllm-bench's own
                // max_batch_size and max_num_tokens (the same bench/build/tuning.py).
                InferenceAssumptions cpp;
                cpp.trtllm_host_s_per_sequence.value = 0;
                cpp.trtllm_eager_s_per_op.value = 0;
                cpp.trtllm_eager_s_per_op_fp4.value = 0;
                cpp.trtllm_cuda_graph_padding.value = 0;
                const MemoryAssumptions ma =
                    trtllm_bench_settings(m, *cat_.gpu(g.gpu), 1, s.weights_dtype, row.in, row.out);
                auto r = infer(m, s, *cat_.gpu(g.gpu), node(g.sys), 0, {}, cpp, {}, ma);
                QVERIFY2(r.ok(), r.error_text().c_str());
                const double e = r->output_tokens_per_s / g.pub - 1;
                errs.push_back(std::abs(e));
                serving_.push_back(
                    {std::string("D.trtllm_v0.17.llama31_8b_tp1/") + row.len + "/" + g.gpu,
                     "TensorRT-LLM v0.17 performance overview", BandKind::serving,
                     gpu_generation(*cat_.gpu(g.gpu)), false, false, false, 1.0, e});
                ++dense_;
                table += QStringLiteral("| %1 | %2 | %3 | %4 | %5% | batch %6\n")
                             .arg(QString::fromLatin1(row.len), QString::fromLatin1(g.gpu))
                             .arg(g.pub, 0, 'f', 0)
                             .arg(r->output_tokens_per_s, 0, 'f', 0)
                             .arg(e * 100, 0, 'f', 1)
                             .arg(r->batch);
            }
        }
        std::sort(errs.begin(), errs.end());
        table += QStringLiteral("median |error| %1%, worst %2%\n")
                     .arg(errs[errs.size() / 2] * 100, 0, 'f', 1)
                     .arg(errs.back() * 100, 0, 'f', 1);
        qInfo().noquote() << table;
        QVERIFY2(errs.back() <= 0.25, qPrintable(table)); // issue #7 target: +-25% across the table
    }

    // NVIDIA/TensorRT-LLM docs/source/performance/perf-overview.md @ 00f37686 (v1.0, PyTorch
    // backend, trtllm-bench throughput, synthetic fixed ISL/OSL, total output tokens/s of the
    // replica): every row of D.trtllm_v1.0.moe_models in ../shared/validation (Qwen3-235B-A22B,
    // Llama 4 Maverick, Qwen3-30B-A3B: 37 rows) and, transcribed from the same page, those
    // tables' other 35 rows (session 36), its dense tables (Llama 3.3 70B, Llama 3.1 405B,
    // Llama 3.1 8B) and Llama 4 Scout: 210 rows (RTX 6000 Pro tables not yet). Until session 32
    // only 8 of the 37 MoE rows were checked (the Qwen3-235B FP8 ones, median 8.4 %); over every
    // row of the page the model was optimistic, most on Blackwell FP4 (+50 to +90 %: the catalog
    // had no FP4 GEMM measurement, 80 % of the 9 PFLOP/s peak stood in) and on MoE models with
    // few active parameters at large batch. Held out: no factor is fitted to serving rows.
    /// trtllm-bench's engine settings when the command gives none (TensorRT-LLM
    /// bench/build/tuning.py calc_engine_setting and finetune_setting, @a7e572fb; the v1.0 page's
    /// commands give none): the KV cache for 95 % of the memory the weights leave (parameters x
    /// 1 byte FP8, 0.5 NVFP4; GPU memory in GiB), requests of ISL + OSL tokens at
    /// max(TP, KV heads) heads per layer and 1-byte FP8 KV; max_batch_size that count capped at
    /// 4,096 and rounded up (to 32 below 256 (at least 64), to 128 below 1,024, else to 256);
    /// (16-bit weights and KV: 2 bytes each)
    /// max_num_tokens batch x (1 + ISL/OSL) capped at 32,768, rounded up, at least 2,048, and,
    /// chunked prefill being off (benchmark/utils/general.py get_settings), at least ISL + batch.
    /// The requests trtllm-bench ran for each ISL/OSL on the perf-overview page (v0.17 and v1.0:
    /// "$num_requests" table, more for short requests "to guarantee that the system hit a
    /// steady state").
    static int requests_of(int isl, int osl) {
        static const int kTable[][3] = {{128, 128, 30000},  {128, 2048, 3000},  {128, 4096, 1500},
                                        {1000, 2000, 1500}, {2048, 128, 3000},  {2048, 2048, 1500},
                                        {5000, 500, 1500},  {1000, 1000, 3000}, {500, 2000, 3000},
                                        {20000, 2000, 1000}};
        for (const auto& r : kTable)
            if (r[0] == isl && r[1] == osl)
                return r[2];
        return 0;
    }
    static MemoryAssumptions trtllm_bench_settings(const ModelArch& m, const GpuSpec& g, int tp,
                                                   WeightsDtype w, int isl, int osl) {
        const double gib = 1073741824.0;
        const double bytes_per_param = w == WeightsDtype::fp4   ? 0.5
                                       : w == WeightsDtype::fp8 ? 1.0
                                                                : 2.0;
        const double kv_bytes = w == WeightsDtype::fp4 || w == WeightsDtype::fp8 ? 1.0 : 2.0;
        const double engine = m.total_params() * bytes_per_param / gib;
        // get_device_memory(): the device total as CUDA reports it, in GiB.
        const double available = g.framework_memory_bytes() / gib * tp - engine;
        const double per_token =
            2.0 * m.layers * std::max(tp, m.kv_heads) * m.head_dim * kv_bytes / gib;
        const double requests = available * 0.95 / (per_token * (isl + osl));
        const double raw_bs = std::min(requests, 4096.0);
        const double raw_tok = std::min(raw_bs * (1.0 + static_cast<double>(isl) / osl), 32768.0);
        double bs = 0, tok = 0;
        if (raw_bs < 256)
            bs = std::max(64.0, 32 * std::ceil(raw_bs / 32));
        else if (raw_bs < 1024)
            bs = 128 * std::ceil(raw_bs / 128);
        else
            bs = 256 * std::ceil(raw_bs / 256);
        if (raw_tok < 4096)
            tok = std::max(2048.0, 256 * std::ceil(raw_tok / 256));
        else if (raw_tok < 8192)
            tok = 512 * std::ceil(raw_tok / 512);
        else
            tok = 1024 * std::ceil(raw_tok / 1024);
        MemoryAssumptions ma;
        ma.max_num_seqs.value = bs;
        ma.max_batched_tokens.value = std::max(tok, isl + bs);
        return ma;
    }

    void trtllmV10Tables() {
        struct Conf {
            const char* model;
            const char* label;
            const char* gpu;
            const char* sys;
            int tp;
            WeightsDtype w;
            bool moe;
            // ISL/OSL 128/128, 128/2048, 128/4096, 500/2000, 1000/1000, 1000/2000, 2048/128,
            // 2048/2048, 5000/500, 20000/2000; 0 = no published figure (or, for the MoE case,
            // not among the rows ../shared/validation keeps).
            double pub[10];
        };
        static const int kLen[10][2] = {{128, 128},   {128, 2048},  {128, 4096}, {500, 2000},
                                        {1000, 1000}, {1000, 2000}, {2048, 128}, {2048, 2048},
                                        {5000, 500},  {20000, 2000}};
        const WeightsDtype fp4 = WeightsDtype::fp4, fp8 = WeightsDtype::fp8;
        const Conf confs[] = {
            // D.trtllm_v1.0.moe_models (../shared/validation/published.json), every row.
            {"qwen3-235b-a22b",
             "Qwen3-235B-A22B",
             "b200",
             "dgx-b200",
             8,
             fp4,
             true,
             {63362, 66057, 0, 0, 42391, 0, 0, 26854, 8190, 4453}},
            {"qwen3-235b-a22b",
             "Qwen3-235B-A22B",
             "h200-sxm",
             "dgx-h200",
             8,
             fp8,
             true,
             {30429, 42821, 0, 0, 23789, 0, 0, 16672, 3623, 1876}},
            {"qwen3-235b-a22b",
             "Qwen3-235B-A22B",
             "h100-sxm",
             "dgx-h100",
             8,
             fp8,
             true,
             {0, 19658, 0, 0, 14898, 0, 0, 9924, 3225, 0}},
            {"llama4-maverick",
             "Llama 4 Maverick",
             "b200",
             "dgx-b200",
             8,
             fp4,
             true,
             {124323, 0, 0, 0, 79617, 0, 0, 52195, 0, 12678}},
            {"llama4-maverick",
             "Llama 4 Maverick",
             "h200-sxm",
             "dgx-h200",
             8,
             fp8,
             true,
             {63994, 0, 0, 0, 31782, 0, 0, 20957, 8456, 4106}},
            {"llama4-maverick",
             "Llama 4 Maverick",
             "h100-sxm",
             "dgx-h100",
             8,
             fp8,
             true,
             {0, 10829, 0, 0, 9677, 0, 0, 6916, 3457, 0}},
            {"qwen3-30b-a3b",
             "Qwen3-30B-A3B",
             "b200",
             "dgx-b200",
             1,
             fp4,
             true,
             {39827, 0, 0, 0, 25828, 0, 0, 17554, 0, 2944}},
            {"qwen3-30b-a3b",
             "Qwen3-30B-A3B",
             "gb200",
             "gb200-nvl72",
             1,
             fp4,
             true,
             {24107, 0, 0, 0, 17481, 0, 0, 14719, 0, 3203}},
            // The same page's other tables (transcribed here; not in ../shared/validation).
            // Session 36: the MoE tables' other rows (../shared/validation keeps 37 of them).
            {"qwen3-235b-a22b",
             "Qwen3-235B-A22B",
             "b200",
             "dgx-b200",
             8,
             fp4,
             true,
             {0, 0, 39496, 57117, 0, 34105, 7329, 0, 0, 0}},
            {"qwen3-235b-a22b",
             "Qwen3-235B-A22B",
             "h200-sxm",
             "dgx-h200",
             8,
             fp8,
             true,
             {0, 0, 26852, 28026, 0, 22061, 3331, 0, 0, 0}},
            {"qwen3-235b-a22b",
             "Qwen3-235B-A22B",
             "h100-sxm",
             "dgx-h100",
             8,
             fp8,
             true,
             {0, 0, 12447, 18351, 0, 15136, 0, 0, 0, 0}},
            {"llama4-maverick",
             "Llama 4 Maverick",
             "b200",
             "dgx-b200",
             8,
             fp4,
             true,
             {0, 112676, 68170, 0, 0, 63766, 18088, 0, 0, 0}},
            {"llama4-maverick",
             "Llama 4 Maverick",
             "h200-sxm",
             "dgx-h200",
             8,
             fp8,
             true,
             {0, 40572, 24616, 37835, 0, 34734, 7307, 0, 0, 0}},
            {"llama4-maverick",
             "Llama 4 Maverick",
             "h100-sxm",
             "dgx-h100",
             8,
             fp8,
             true,
             {0, 0, 6744, 10108, 0, 9151, 0, 0, 0, 0}},
            {"qwen3-30b-a3b",
             "Qwen3-30B-A3B",
             "b200",
             "dgx-b200",
             1,
             fp4,
             true,
             {0, 37844, 24953, 27817, 0, 22051, 6251, 0, 6142, 0}},
            {"qwen3-30b-a3b",
             "Qwen3-30B-A3B",
             "gb200",
             "gb200-nvl72",
             1,
             fp4,
             true,
             {0, 31311, 26337, 20604, 0, 17177, 6595, 0, 5908, 0}},
            {"llama4-scout",
             "Llama 4 Scout",
             "b200",
             "dgx-b200",
             1,
             fp4,
             true,
             {25342, 14699, 8932, 11977, 10591, 9356, 3137, 7152, 2937, 1644}},
            {"llama4-scout",
             "Llama 4 Scout",
             "gb200",
             "gb200-nvl72",
             1,
             fp4,
             true,
             {19954, 15238, 9556, 11795, 7738, 8581, 3295, 7464, 3107, 1767}},
            {"llama4-scout",
             "Llama 4 Scout",
             "h200-sxm",
             "dgx-h200",
             4,
             fp8,
             true,
             {30354, 34316, 21332, 24630, 21636, 18499, 3699, 14949, 4605, 2105}},
            {"llama4-scout",
             "Llama 4 Scout",
             "h100-sxm",
             "dgx-h100",
             4,
             fp8,
             true,
             {0, 15130, 8603, 12399, 12129, 9838, 3253, 7972, 3342, 0}},
            {"llama3-70b",
             "Llama 3.3 70B",
             "b200",
             "dgx-b200",
             1,
             fp4,
             false,
             {11147, 9922, 6831, 7762, 7007, 6271, 1339, 4783, 1459, 665}},
            {"llama3-70b",
             "Llama 3.3 70B",
             "gb200",
             "gb200-nvl72",
             1,
             fp4,
             false,
             {12189, 11309, 7849, 9028, 7326, 6513, 1450, 5646, 1602, 755}},
            {"llama3-70b",
             "Llama 3.3 70B",
             "h200-sxm",
             "dgx-h200",
             1,
             fp8,
             false,
             {3803, 4336, 2872, 3666, 2909, 2994, 442, 2003, 566, 283}},
            {"llama3-70b",
             "Llama 3.3 70B",
             "h100-sxm",
             "dgx-h100",
             2,
             fp8,
             false,
             {6378, 6651, 4199, 5222, 4205, 4146, 762, 3082, 898, 437}},
            {"llama3.1-405b",
             "Llama 3.1 405B",
             "b200",
             "dgx-b200",
             4,
             fp4,
             false,
             {6281, 8020, 6345, 6244, 5209, 4933, 749, 4212, 1048, 672}},
            {"llama3.1-405b",
             "Llama 3.1 405B",
             "gb200",
             "gb200-nvl72",
             4,
             fp4,
             false,
             {6740, 8151, 6608, 6540, 5389, 5135, 797, 4407, 1112, 739}},
            {"llama3.1-405b",
             "Llama 3.1 405B",
             "h200-sxm",
             "dgx-h200",
             8,
             fp8,
             false,
             {3814, 5348, 4741, 4724, 3330, 3722, 456, 2948, 650, 505}},
            {"llama3.1-405b",
             "Llama 3.1 405B",
             "h100-sxm",
             "dgx-h100",
             8,
             fp8,
             false,
             {3627, 4340, 3116, 3994, 2919, 2895, 453, 2296, 610, 345}},
            // Session 39: the page's RTX PRO 6000 Blackwell Server Edition rows on one GPU (its
            // TP x PP rows are left out: the serving model has no pipeline schedule). The card as
            // the catalog has it (the Workstation Edition's 1,792 GB/s; a quoted Server Edition
            // datasheet gives 1,597 GB/s, not read); x86 host.
            {"qwen3-30b-a3b",
             "Qwen3-30B-A3B",
             "rtx-pro-6000",
             "pcie-box-8:rtx-pro-6000",
             1,
             fp4,
             true,
             {28011, 12540, 7491, 10695, 9910, 8378, 3257, 5908, 2530, 871}},
            {"qwen3-30b-a3b",
             "Qwen3-30B-A3B",
             "rtx-pro-6000",
             "pcie-box-8:rtx-pro-6000",
             2,
             fp4,
             true,
             {32646, 22744, 15049, 17266, 16431, 13323, 3785, 10679, 3799, 1558}},
            {"qwen3-30b-a3b",
             "Qwen3-30B-A3B",
             "rtx-pro-6000",
             "pcie-box-8:rtx-pro-6000",
             4,
             fp4,
             true,
             {36819, 35715, 28139, 26175, 24046, 25131, 4311, 18134, 5212, 2551}},
            {"qwen3-30b-a3b",
             "Qwen3-30B-A3B",
             "rtx-pro-6000",
             "pcie-box-8:rtx-pro-6000",
             8,
             fp4,
             true,
             {39490, 52676, 33895, 44088, 31785, 28881, 4798, 22391, 5965, 0}},
            {"llama3-70b",
             "Llama 3.3 70B",
             "rtx-pro-6000",
             "pcie-box-8:rtx-pro-6000",
             1,
             fp4,
             false,
             {3264, 2422, 1349, 1856, 1787, 1594, 393, 1074, 401, 142}},
            {"llama3-8b",
             "Llama 3.1 8B",
             "h200-sxm",
             "dgx-h200",
             1,
             fp8,
             false,
             {27911, 26221, 18027, 20770, 17744, 16828, 3538, 12194, 3902, 1804}},
            {"llama3-8b",
             "Llama 3.1 8B",
             "h100-sxm",
             "dgx-h100",
             1,
             fp8,
             false,
             {28312, 22714, 14325, 17660, 15220, 13899, 3450, 9305, 3459, 1351}},
        };
        QString table =
            QStringLiteral("\n| model | GPU | TP | weights | ISL/OSL | published tok/s | "
                           "predicted | error | batch |\n"
                           "|---|---|---|---|---|---|---|---|---|\n");
        std::vector<double> shared, moe_all, dense_all, all, adp, adp_signed, adp_on, rtx;
        int shared_rows = 0;
        for (const Conf& c : confs) {
            const ModelArch& m = *cat_.model(c.model);
            const bool in_shared = &c - confs < 8;
            for (int i = 0; i < 10; ++i) {
                if (c.pub[i] <= 0)
                    continue;
                InferenceSpec s;
                s.tp = c.tp;
                s.input_len = kLen[i][0];
                s.output_len = kLen[i][1];
                s.weights_dtype = c.w;
                s.kv_dtype = KvDtype::fp8;
                s.engine = ServingEngine::trtllm;
                // trtllm-bench throughput runs the page's num_requests for the lengths as one
                // batch job and divides its output tokens by the time to the last one's end.
                s.requests = requests_of(kLen[i][0], kLen[i][1]);
                // The page's llm_options.yml for MoE models sets enable_attention_dp: true
                // (nested under cuda_graph_config, a StrictBaseModel that forbids unknown fields
                // -- llmapi/llm_args.py -- so the file as printed is refused; read as meant:
                // without attention DP the host work of Maverick's 2,048 sequences per step on
                // each executor alone caps B200 at 128/128 below the published rate). The rows
                // run with it; TensorRT-LLM's default (off) is tracked too.
                s.attention_dp = c.moe;
                // The page runs `trtllm-bench --tp $tp_size --ep $ep_size` and does not print
                // ep_size; the rows take EP = TP (whole experts, NVIDIA's MoE recipes with
                // attention DP), not TensorRT-LLM's default EP 1.
                if (c.moe && c.tp > 1)
                    s.ep = c.tp;
                // trtllm-bench sizes the engine itself when max_batch_size and max_num_tokens
                // are not given (the page gives neither): bench/build/tuning.py.
                const MemoryAssumptions ma =
                    trtllm_bench_settings(m, *cat_.gpu(c.gpu), c.tp, c.w, kLen[i][0], kLen[i][1]);
                auto r = infer(m, s, *cat_.gpu(c.gpu), node(c.sys), 0, {}, {}, {}, ma);
                QVERIFY2(r.ok(), r.error_text().c_str());
                const double e = r->output_tokens_per_s / c.pub[i] - 1;
                if (c.moe && c.tp > 1) {
                    InferenceSpec sa = s;
                    sa.attention_dp = false;
                    sa.ep = 0; // TensorRT-LLM's default off attention DP, as before
                    auto ra = infer(m, sa, *cat_.gpu(c.gpu), node(c.sys), 0, {}, {}, {}, ma);
                    QVERIFY2(ra.ok(), ra.error_text().c_str());
                    adp.push_back(std::abs(ra->output_tokens_per_s / c.pub[i] - 1));
                    adp_signed.push_back(ra->output_tokens_per_s / c.pub[i] - 1);
                    adp_on.push_back(std::abs(e));
                }
                const std::string len =
                    std::to_string(kLen[i][0]) + "/" + std::to_string(kLen[i][1]);
                serving_.push_back(
                    {(in_shared ? "D.trtllm_v1.0.moe_models/" : "D.trtllm_v1.0.page/") +
                         std::string(c.model) + "/" + len + "/" + c.gpu,
                     "TensorRT-LLM v1.0 performance overview", BandKind::serving,
                     gpu_generation(*cat_.gpu(c.gpu)), c.moe, false, false,
                     static_cast<double>(c.tp), e});
                ++v10_;
                all.push_back(std::abs(e));
                (c.moe ? moe_all : dense_all).push_back(std::abs(e));
                if (std::string_view(c.gpu) == "rtx-pro-6000")
                    rtx.push_back(std::abs(e));
                if (in_shared) {
                    shared.push_back(std::abs(e));
                    ++shared_rows;
                }
                table += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8% | %9\n")
                             .arg(QString::fromLatin1(c.label), QString::fromLatin1(c.gpu))
                             .arg(c.tp)
                             .arg(QString::fromLatin1(to_string(c.w).data()),
                                  QString::fromStdString(len))
                             .arg(c.pub[i], 0, 'f', 0)
                             .arg(r->output_tokens_per_s, 0, 'f', 0)
                             .arg(e * 100, 0, 'f', 1)
                             .arg(r->batch);
            }
        }
        auto stats = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            const std::size_t n = v.size();
            const double med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
            return std::pair<double, double>{med, v.back()};
        };
        const auto [sh_med, sh_worst] = stats(shared);
        const auto [moe_med, moe_worst] = stats(moe_all);
        const auto [dense_med, dense_worst] = stats(dense_all);
        const auto [all_med, all_worst] = stats(all);
        table += QStringLiteral("D.trtllm_v1.0.moe_models (%1 rows): median |error| %2%, worst %3% "
                                "(issue 18 target: median <= 12%, worst <= 25%)\n"
                                "MoE rows of the page (%4): median %5%, worst %6%; dense rows "
                                "(%7): median %8%, worst %9%\n")
                     .arg(shared_rows)
                     .arg(sh_med * 100, 0, 'f', 1)
                     .arg(sh_worst * 100, 0, 'f', 1)
                     .arg(moe_all.size())
                     .arg(moe_med * 100, 0, 'f', 1)
                     .arg(moe_worst * 100, 0, 'f', 1)
                     .arg(dense_all.size())
                     .arg(dense_med * 100, 0, 'f', 1)
                     .arg(dense_worst * 100, 0, 'f', 1);
        table += QStringLiteral("every row (%1): median %2%, worst %3%\n")
                     .arg(all.size())
                     .arg(all_med * 100, 0, 'f', 1)
                     .arg(all_worst * 100, 0, 'f', 1);
        const auto [rtx_med, rtx_worst] = stats(rtx);
        table +=
            QStringLiteral(
                "RTX PRO 6000 rows (%1, sm_120, 1 to 8 GPUs over PCIe): median %2%, worst %3%\n")
                .arg(rtx.size())
                .arg(rtx_med * 100, 0, 'f', 1)
                .arg(rtx_worst * 100, 0, 'f', 1);
        const auto [adp_med, adp_worst] = stats(adp);
        const auto [adp_smed, adp_sworst] = stats(adp_signed);
        const auto [adp_on_med, adp_on_worst] = stats(adp_on);
        table += QStringLiteral("the %1 MoE rows at TP > 1 without attention DP (TensorRT-LLM's "
                                "default): median |error| %2%, median signed %3%, worst %4% "
                                "(with it, as the page ran them: median %5%, worst %6%)\n")
                     .arg(adp.size())
                     .arg(adp_med * 100, 0, 'f', 1)
                     .arg(adp_smed * 100, 0, 'f', 1)
                     .arg(adp_worst * 100, 0, 'f', 1)
                     .arg(adp_on_med * 100, 0, 'f', 1)
                     .arg(adp_on_worst * 100, 0, 'f', 1);
        qInfo().noquote() << table;
        QCOMPARE(shared_rows, 37); // every row ../shared/validation keeps
        // Regression bounds, not issue 18's targets (which the MoE rows do not meet: see
        // docs/validation.md, "TensorRT-LLM v1.0, every row"). Session 32: all 175 rows median
        // 45 % -> 20.3 % with the B200 FP4 GEMM measurement -> 15.9 % with the GEMMs' partial
        // compute/memory overlap (dense 13.5 -> 8.7 %, the shared MoE rows 17.5 -> 17.4 %).
        // Session 33: the GEMMs' N/K shape efficiency (dense 8.7 -> 7.9 %, worst 38.3 -> 33.9 %;
        // the shared MoE rows 17.4 -> 21.6 %: TP-split experts' narrow K) and TensorRT-LLM's host
        // time per sequence (all rows 15.2 -> 14.0 %, worst +318 -> +167 %).
        // Session 33, then: the MoE rows at TP > 1 with attention DP, as the page ran them, and
        // its ranks waiting for the busiest one (inference.attention_dp_balance, 0.649, from
        // TensorRT-LLM's own ADP-balance blog, a DeepSeek V3 run; not fitted here): the shared
        // rows 21.6 -> 8.5 %, the page's MoE rows 30.9 -> 10.7 %, all 175 14.0 -> 9.1 %.
        // Session 34: CUDA-graph padding and eager steps (dense 7.9 -> 7.8 %, worst 33.9 ->
        // 26.6 %; the shared MoE rows 8.5 -> 7.4 %), then each GPU's memory as CUDA reports it
        // (an H100's 79.2 GiB, not 80e9: larger batches; dense 7.8 -> 7.3 %, all 8.6 -> 8.3 %,
        // but the shared MoE rows 7.4 -> 10.1 %: Maverick and Qwen3-235B on H100 turn
        // optimistic, as the 405B decode-heavy rows do -- the truth about memory uncovers an
        // optimism elsewhere, not fixed by keeping the wrong capacity).
        // trtllm-bench's settings from the device total as CUDA reports it (405B TP 8 on H200:
        // max batch 640 -> 768): dense worst 35.5 -> 26.3 %, all 8.2 %.
        // Session 35: an eager op's host time by weight format (NVFP4's Python custom ops at
        // TensorRT-LLM's measured dispatch interval, 35 us, PR #12653; other formats a PyTorch
        // op's 13.48 us, TransformerEngine #2053; was 11.67 us for all) and Llama 4's own op
        // count (28 / 23 per layer, counted; was 11): the page's MoE rows 12.1 -> 9.4 % (worst
        // +103.8 -> +49.8 %), all 8.2 -> 7.7 %; the dense rows unchanged (GPU-bound).
        // Session 36: each row as the batch job trtllm-bench ran (the page's num_requests, ramp-
        // up and drain included; InferenceSpec::requests) and NVFP4 GEMMs streaming weights at
        // their measured 3.5 of 8 TB/s (CUTLASS #2266; inference.fp4_weight_stream_efficiency):
        // all 175 7.7 -> 7.3 % (worst +49.8 -> +35.2 %), the page's MoE rows 9.4 -> 7.7 %, the
        // 37 shared MoE rows 10.1 -> 7.3 %, dense 7.3 -> 7.1 % (worst 26.3 -> 24.5 %).
        // Then the MoE tables' other 35 rows of the page (../shared/validation keeps 37): the
        // page's MoE rows 7.7 -> 10.7 % (110 rows), worst +35.2 -> +63.1 % (Qwen3-30B-A3B on
        // B200, 2048/128), all 210 rows 8.3 %: Qwen3-30B-A3B on B200 is optimistic on every
        // row (+14 ... +63 %), Maverick on B200 and H200 pessimistic (-13 ... -35 %).
        // Session 39: the page's RTX PRO 6000 rows on one GPU (20) with NVFP4 weights streaming
        // at the B200 CUTLASS rate (0.4375) ran median 12.6 %, worst -27.6 % (Llama 3.3 70B at
        // 128/2048, pessimistic on every decode-heavy row); at sm_120's own measured rate
        // (0.85, flashinfer PR #3014, catalog fp4_weight_stream_efficiency) median 9.1 %, worst
        // +18.6 %. Nothing else moves (the rate is that GPU's).
        // Then its 29 Qwen3-30B-A3B rows at TP 2, 4 and 8 over PCIe (attention DP): +58 ...
        // +319 % with their collectives counted as free (a box of PCIe cards had no path
        // between its GPUs, and serving took the refused collective as 0 s); with the box's
        // GPUs a PCIe domain, -18 ... -43 %; with TensorRT-LLM's quantized gather (FP8 / NVFP4
        // activations and the routing, fused_moe_cutlass.py) -33 ... +12 %: the 49 rows median
        // 15.7 %, worst -33.2 %. The quantized gather moves the NVLink rows too: the 37 shared
        // MoE rows 7.3 -> 9.2 % (worst +35.2 % unchanged; Maverick B200 -27..-35 -> -22..-32 %,
        // Qwen3-235B H200 128/2048 -26.1 -> -19.4 %, Qwen3-235B B200 5000/500 +1.8 -> +14.1 %).
        // Session 41: B200's grouped NVFP4 GEMM streams small experts slower (a fixed cost per
        // expert matrix, inference.fp4_grouped_matrix_fixed_bytes, solved from CUTLASS #2266 and
        // tech blog 24): the 37 shared MoE rows 9.2 -> 7.9 %, worst +35.2 -> +28.4 % (Qwen3-30B-A3B
        // B200 2048/2048); all 259 rows 9.0 % unchanged. Then, without attention DP, its grouped
        // NVFP4 GEMM and routing as fitted to NVIDIA's measured CUTLASS MoE module times
        // (aiconfigurator; inference.fp4_grouped_gemm_flops): the shared rows 5 beyond 20 % (was
        // 7), the page's MoE rows 11.5 -> 11.0 %, worst +63.3 -> -33.2 %; all 259 rows 8.8 %.
        QVERIFY2(rtx.size() == 49 && rtx_med <= 0.17 && rtx_worst <= 0.35, qPrintable(table));
        // Session 43: Llama 4's local layers are chunked, not windows (ModelArch::
        // local_attention): Maverick B200 20000/2000 -22.8 -> -18.7 %, H200 +5.4 -> +16.3 %; the
        // shared rows 4 beyond 20 % (was 5), median 7.9 %, worst -28.4 % unchanged.
        const auto sh_over =
            std::count_if(shared.begin(), shared.end(), [](double e) { return e > 0.20; });
        // Session 50: the kernels' fixed times (inference.gemm_fixed_s, attention_fixed_s,
        // elementwise_fixed_s; the same on every attention-DP rank, so outside the balance
        // factor) and the GEMM overlap exponent re-swept (1.5 -> 2): the shared rows 7.9 ->
        // 8.1 %, worst -28.4 -> -29.8 % (Maverick B200 2048/2048), 4 beyond 20 % (Maverick H100
        // 1000/1000 +20.7 -> +19.5 %, Maverick B200 20000/2000 -18.7 -> -20.8 %); the page's MoE
        // rows 11.0 -> 10.6 %, dense 6.9 -> 6.8 %, all 8.6 -> 8.4 %. For the 1,613 outside rows
        // of aiconfiguratorSilicon (median 21.8 -> 13.3 %).
        QVERIFY2(sh_med <= 0.09 && sh_worst <= 0.30 && sh_over <= 4, qPrintable(table));
        QVERIFY2(moe_med <= 0.115 && moe_worst <= 0.35, qPrintable(table));
        QVERIFY2(dense_med <= 0.08, qPrintable(table));
        QVERIFY2(dense_worst <= 0.27, qPrintable(table));
        QVERIFY2(all_med <= 0.095, qPrintable(table));
        QVERIFY2(all_worst <= 0.35, qPrintable(table));
        // TensorRT-LLM's default (no attention DP) on the same rows, tracked: further from the
        // page than the rows run as the page states (attention DP): session 35, median |error|
        // 31.6 % (signed +16 %) against 7.7 % for the same rows with attention DP.
        QVERIFY2(adp_on_med < adp_med && adp_med <= 0.40, qPrintable(table));
    }

    // Issue 19: the serving rows above are held out (no factor is fitted to serving rows), and
    // the bundled resources/validation/held_out_serving.json must hold exactly them.
    // Issue 20: single-stream decode on workstation and edge devices, batch 1, against
    // published runs (not in ../shared/validation; gathered by helper-10, sources here and in
    // docs/validation.md). Weight-only formats on one device, no network.
    //  - RTX 4090, Llama 3 8B Q4_K_M, llama.cpp llama-bench tg512: 130.58 tokens/s
    //    (XiongjieDai/GPU-Benchmarks-on-LLM-Inference @00dd2bd README.md, May 2024).
    //  - Jetson AGX Thor, Llama-3.1-8B-Instruct INT4 AWQ, TensorRT Edge-LLM 0.4.0, 383 prompt
    //    tokens: 50.8 tokens/s (nvidia.github.io/TensorRT-Edge-LLM performance benchmarks).
    void workstationDecode() {
        struct Row {
            const char* gpu;
            const char* model;
            WeightsDtype w;
            int in, out;
            double pub;
            const char* source; // rows of one source are left out together
            ServingEngine engine = ServingEngine::llamacpp;
            int offload = 0;     ///< layers in system memory (llama.cpp: layers - -ngl)
            double host_Bps = 0; ///< the host's memory bandwidth when the row states it
            double numa = 0;     ///< NUMA nodes holding the model (0: the assumption's default)
        };
        // rtx-4090 and apple-m3-max: llama-bench tg512 (XiongjieDai/GPU-Benchmarks-on-LLM-
        // Inference README @00dd2bd, May 2024); jetson-thor: TensorRT Edge-LLM 0.4.0 (NVIDIA);
        // apple-m4-max and apple-m3-ultra: llama-bench tg128, Llama 2 7B Q4_0, ggml-org/llama.cpp
        // discussion #4167 as a third party quotes it (rounded); snapdragon-x-elite: llama.cpp
        // on its CPU, 6 threads, Llama 2 7B Q4_0, "20-21 t/s" (ggml-org/llama.cpp PR #7191, a
        // Qualcomm engineer's measurement; 20.5 here): decode reads the same unified LPDDR5x
        // whichever unit runs it. Its NPU (Qualcomm AI Hub, Genie w4a16 Llama 3 8B, 10.04
        // tok/s) is not a row: docs/validation.md.
        const Row rows[] = {
            {"rtx-4090", "llama3-8b", WeightsDtype::q4_k_m, 1, 512, 130.58, "XiongjieDai"},
            {"jetson-thor", "llama3-8b", WeightsDtype::int4, 383, 128, 50.8, "TensorRT Edge-LLM",
             ServingEngine::trtllm},
            {"apple-m3-max", "llama3-8b", WeightsDtype::q4_k_m, 1, 512, 48.97, "XiongjieDai"},
            {"apple-m4-max", "llama2-7b", WeightsDtype::q4_0, 1, 128, 83.1, "llama.cpp #4167"},
            {"apple-m3-ultra", "llama2-7b", WeightsDtype::q4_0, 1, 128, 92.1, "llama.cpp #4167"},
            {"snapdragon-x-elite", "llama2-7b", WeightsDtype::q4_0, 1, 128, 20.5,
             "llama.cpp PR #7191"},
            // A single-socket EPYC 9554 server (12 channels of DDR5, 460.8 GB/s), llama.cpp's
            // llama-bench on Phi-4 14B GGUFs, CPU only (ahelpme.com/?p=6685; threads and build not
            // stated; its Q5_0 row has no format here).
            {"cpu-1s-epyc9554", "phi-4", WeightsDtype::q4_k_m, 1, 128, 28.74, "ahelpme EPYC 9554"},
            {"cpu-1s-epyc9554", "phi-4", WeightsDtype::q6_k, 1, 128, 23.246, "ahelpme EPYC 9554"},
            {"cpu-1s-epyc9554", "phi-4", WeightsDtype::q8_0, 1, 128, 19.194, "ahelpme EPYC 9554"},
            // MLX (mlx-lm) on Apple silicon, 4-bit group-64 weights (mlx-community): an M3 Max
            // 64 GB (40-core GPU) decoding Llama 3.3 70B (the Llama 3 70B architecture) after a
            // 260-token prompt, 309 generated, mlx-lm 0.20.4 (ml-explore/mlx-examples issue
            // #1029, 2024-12-15); an M3 Ultra 256 GB, Rapid-MLX's bench (MLX 0.31.2, prompt 512,
            // 128 generated, median; raullenchai/Rapid-MLX PRs #586, #636, #637).
            {"apple-m3-max", "llama3-70b", WeightsDtype::mlx4, 260, 309, 9.351,
             "mlx-examples #1029", ServingEngine::mlx},
            {"apple-m3-ultra", "llama3-8b", WeightsDtype::mlx4, 512, 128, 119.39, "Rapid-MLX",
             ServingEngine::mlx},
            {"apple-m3-ultra", "qwen3-8b", WeightsDtype::mlx4, 512, 128, 112.89, "Rapid-MLX",
             ServingEngine::mlx},
            {"apple-m3-ultra", "gemma3-27b", WeightsDtype::mlx4, 512, 128, 35.19, "Rapid-MLX",
             ServingEngine::mlx},
            // Partial offload: Qwen2.5-Coder-14B Q4_K_M (48 layers) on an RTX 5060 Ti 16 GB in an
            // i7-8700 with 64 GB of dual-channel DDR4-2400 (2 x 2400 MT/s x 8 B = 38.4 GB/s),
            // stock llama.cpp, -ngl swept (InventiveHQ Lab, "The VRAM Cliff", and its test-rig
            // table in "Local LLM Benchmarks"; build and generation length not stated).
            {"rtx-5060-ti", "qwen2.5-14b", WeightsDtype::q4_k_m, 1, 128, 3.58, "InventiveHQ",
             ServingEngine::llamacpp, 40, 38.4e9},
            {"rtx-5060-ti", "qwen2.5-14b", WeightsDtype::q4_k_m, 1, 128, 4.24, "InventiveHQ",
             ServingEngine::llamacpp, 32, 38.4e9},
            {"rtx-5060-ti", "qwen2.5-14b", WeightsDtype::q4_k_m, 1, 128, 5.61, "InventiveHQ",
             ServingEngine::llamacpp, 24, 38.4e9},
            {"rtx-5060-ti", "qwen2.5-14b", WeightsDtype::q4_k_m, 1, 128, 7.26, "InventiveHQ",
             ServingEngine::llamacpp, 16, 38.4e9},
            {"rtx-5060-ti", "qwen2.5-14b", WeightsDtype::q4_k_m, 1, 128, 12.5, "InventiveHQ",
             ServingEngine::llamacpp, 8, 38.4e9},
            {"rtx-5060-ti", "qwen2.5-14b", WeightsDtype::q4_k_m, 1, 128, 43.18, "InventiveHQ",
             ServingEngine::llamacpp, 0, 38.4e9},
            // Half the layers offloaded (issue 20), and the sweep around it: LLaMA 33B q4_0 (60
            // layers) on an RTX 3090 in a Ryzen 7 3700X with 32 GB of dual-channel DDR4-3200
            // (2 x 3200 MT/s x 8 B = 51.2 GB/s), 128 tokens from an empty prompt, -ngl 15 and 30
            // (-ngl 0, every layer on the CPU, is not a layout here;
            // JohannesGaessler/johannesgaessler.github.io, llamacpp_performance/
            // gpu_layers_benchmark_RTX3090.py @a68ebb3e, eval_time_33b, ms per token, and its
            // page's "Hardware used for testing"; a llama.cpp CUDA maintainer's sweep, July 2023).
            // Its GPU end measures mid-2023 CUDA kernels, not today's (-ngl 61, every layer on the
            // card: 81.54 ms, 12.3 tokens/s, 225 GB/s of 936; -ngl 45: 5.1 tokens/s, predicted
            // +36 %): docs/validation.md, not rows. The rows kept are those the host's memory
            // decides (45 and 30 layers of 60 in it).
            {"rtx-3090", "llama1-33b", WeightsDtype::q4_0, 1, 128, 1000.0 / 415.66,
             "Gaessler RTX 3090", ServingEngine::llamacpp, 45, 51.2e9},
            {"rtx-3090", "llama1-33b", WeightsDtype::q4_0, 1, 128, 1000.0 / 306.33,
             "Gaessler RTX 3090", ServingEngine::llamacpp, 30, 51.2e9},
            // An RTX 2080 8 GB (PCIe 3.0) in an i9-10900X with quad-channel DDR4 ("~102 GB/s":
            // 4 x 3200 MT/s x 8 B = 102.4 GB/s), llama.cpp server, Q4_K_M, context 4096, one
            // request, warmed; llmfit 1.1.3 `bench --runs 3` (AlexsJones/llmfit community data,
            // data/community/nvidia-geforce-rtx-2080/*.json, PRs #773, #774, #778; -ngl from the
            // PR texts). Its tok/s is output tokens over the request's wall time, the short chat
            // prompt (~50 tokens) included: a few percent under pure decode (PR #755: 33.7 vs
            // the server's own 36.7 with experts on the CPU). Outputs: the runs' mean length.
            {"rtx-2080", "llama3.2-1b", WeightsDtype::q4_k_m, 50, 181, 304.27, "llmfit RTX 2080",
             ServingEngine::llamacpp, 0, 102.4e9},
            {"rtx-2080", "llama3.2-3b", WeightsDtype::q4_k_m, 50, 171, 140.33, "llmfit RTX 2080",
             ServingEngine::llamacpp, 0, 102.4e9},
            {"rtx-2080", "llama3-8b", WeightsDtype::q4_k_m, 50, 190, 71.87, "llmfit RTX 2080",
             ServingEngine::llamacpp, 0, 102.4e9},
            {"rtx-2080", "qwen3-8b", WeightsDtype::q4_k_m, 50, 294, 69.34, "llmfit RTX 2080",
             ServingEngine::llamacpp, 0, 102.4e9},
            {"rtx-2080", "mistral-7b", WeightsDtype::q4_k_m, 50, 218, 77.76, "llmfit RTX 2080",
             ServingEngine::llamacpp, 0, 102.4e9},
            // -ngl 44 of Gemma 3 12B's 48 layers, -ngl 32 of phi-4's 40.
            {"rtx-2080", "gemma3-12b", WeightsDtype::q4_k_m, 50, 206, 26.06, "llmfit RTX 2080",
             ServingEngine::llamacpp, 4, 102.4e9},
            {"rtx-2080", "phi-4", WeightsDtype::q4_k_m, 50, 222, 16.72, "llmfit RTX 2080",
             ServingEngine::llamacpp, 8, 102.4e9},
            // Session 30: a workstation Ada card, from llama.cpp's own maintainers' performance
            // table (ggml-org/llama.cpp PR #19053, 2026-01-23, "Perf numbers", the master column;
            // llama-bench tg128 on an RTX 6000 Ada Generation, every layer on the card): "llama
            // 3B Q4_K_M" 315.50 and "llama 8B Q4_0" 168.87 tokens/s (Llama 3.2 3B and Llama 3.1
            // 8B, the sizes llama-bench prints for them).
            {"rtx-6000-ada", "llama3.2-3b", WeightsDtype::q4_k_m, 1, 128, 315.50,
             "llama.cpp PR #19053"},
            {"rtx-6000-ada", "llama3-8b", WeightsDtype::q4_0, 1, 128, 168.87,
             "llama.cpp PR #19053"},
            // Session 33: a two-socket server, 2 x EPYC 9175F with 16 x DDR5-6400 (8 channels
            // per socket), Llama-3.1-70B-Instruct f16 on the CPUs, llama-bench tg (-p 0):
            // 2.4 tokens/s with the model's pages where loading left them (one node's
            // bandwidth), 4.31 with them spread over both nodes (--numa distribute, the model
            // cached while generating) (ggml-org/llama.cpp issue #11744, 2025-02-08).
            {"cpu-2s-epyc9175f", "llama3-70b", WeightsDtype::bf16, 1, 128, 2.4, "llama.cpp #11744",
             ServingEngine::llamacpp, 0, 0, 1},
            {"cpu-2s-epyc9175f", "llama3-70b", WeightsDtype::bf16, 1, 128, 4.31, "llama.cpp #11744",
             ServingEngine::llamacpp, 0, 0, 2}};
        // Rows whose engine has its own stream efficiency (llama.cpp, MLX); the others (the
        // TensorRT Edge-LLM row) stream at the general serving efficiency.
        auto fitted = [](const Row& row) {
            return row.engine == ServingEngine::llamacpp || row.engine == ServingEngine::mlx;
        };
        // Three global values, each fitted, never per row: llama.cpp's and MLX's stream
        // efficiencies, and the M3 Ultra's decode memory factor (two M3 Max dies: one stream
        // reaches a smaller share of the nominal bandwidth, with either engine).
        struct Params {
            double llamacpp, mlx, ultra;
        };
        // tokens/s for one stream: 1 / decode step
        auto predict = [&](const Row& row, const Params& p, double* out) -> QString {
            GpuSpec g = *cat_.gpu(row.gpu);
            if (std::string_view(row.gpu) == "apple-m3-ultra")
                g.decode_memory_factor = p.ultra;
            auto topo = shape_topology(g, ClusterShape{}, cat_);
            if (!topo.ok())
                return QString::fromStdString(topo.error_text());
            InferenceSpec s;
            s.batch = 1;
            s.input_len = row.in;
            s.output_len = row.out;
            s.weights_dtype = row.w;
            s.engine = row.engine;
            s.offload_layers = row.offload;
            InferenceAssumptions ia;
            if (row.host_Bps > 0)
                ia.host_memory_bandwidth_Bps.value = row.host_Bps;
            if (row.numa > 0)
                ia.numa_nodes_used.value = row.numa;
            ia.llamacpp_memory_efficiency.value = p.llamacpp;
            ia.mlx_memory_efficiency.value = p.mlx;
            auto r = infer(*cat_.model(row.model), s, g, *topo, 0, {}, ia);
            if (!r.ok())
                return QString::fromStdString(r.error_text());
            *out = 1.0 / r->decode_step_s;
            return {};
        };
        // Minimise the squared log error over the rows of the sources not left out, one value
        // at a time (0.40-1.00 in steps of 0.005), until none moves.
        auto fit = [&](const char* left_out) {
            Params p{0.7, 0.85, 1.0};
            auto cost_of = [&](const Params& q) {
                double cost = 0;
                for (const Row& row : rows) {
                    if (!fitted(row) || (left_out && std::string_view(row.source) == left_out))
                        continue;
                    double got = 0;
                    if (!predict(row, q, &got).isEmpty())
                        return 1e300;
                    cost += std::pow(std::log(got / row.pub), 2);
                }
                return cost;
            };
            for (int pass = 0; pass < 8; ++pass) {
                const Params before = p;
                for (double Params::*v : {&Params::llamacpp, &Params::mlx, &Params::ultra}) {
                    double best = p.*v, best_cost = 1e300;
                    for (int i = 0; i <= 120; ++i) {
                        Params q = p;
                        q.*v = 0.40 + 0.005 * i;
                        const double c = cost_of(q);
                        if (c < best_cost) {
                            best_cost = c;
                            best = q.*v;
                        }
                    }
                    p.*v = best;
                }
                if (before.llamacpp == p.llamacpp && before.mlx == p.mlx && before.ultra == p.ultra)
                    break;
            }
            return p;
        };
        const Params all = fit(nullptr);
        const InferenceAssumptions defaults;
        const Params dflt{defaults.llamacpp_memory_efficiency.value,
                          defaults.mlx_memory_efficiency.value,
                          cat_.gpu("apple-m3-ultra")->decode_memory_factor};
        auto describe = [](const Row& row, const Params& p) {
            QString e = row.engine == ServingEngine::llamacpp ? QString::number(p.llamacpp, 'f', 3)
                        : row.engine == ServingEngine::mlx    ? QString::number(p.mlx, 'f', 3)
                                                              : QStringLiteral("(general 0.85)");
            if (std::string_view(row.gpu) == "apple-m3-ultra")
                e += QStringLiteral(", Ultra %1").arg(p.ultra, 0, 'f', 3);
            return e;
        };
        QString table = QStringLiteral(
            "\n| device | model | weights | engine | source | published tok/s | predicted with the "
            "defaults | error | held-out values | held-out predicted | held-out error |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|\n");
        double worst = 0, worst_held = 0;
        std::vector<double> errs, held;
        for (const Row& row : rows) {
            double got = 0;
            QString why = predict(row, dflt, &got);
            QVERIFY2(why.isEmpty(), qPrintable(why));
            const double err = got / row.pub - 1;
            // held out: every value fitted without this row's source (TensorRT Edge-LLM
            // streams at the general serving efficiency, which these rows do not set)
            const Params p = fitted(row) ? fit(row.source) : dflt;
            double got_held = 0;
            why = predict(row, p, &got_held);
            QVERIFY2(why.isEmpty(), qPrintable(why));
            const double err_held = got_held / row.pub - 1;
            table +=
                QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8% | %9 | %10 | %11% |\n")
                    .arg(QString::fromLatin1(row.gpu), QString::fromLatin1(row.model),
                         QString::fromStdString(std::string(to_string(row.w))),
                         QString::fromStdString(std::string(to_string(row.engine))),
                         QString::fromLatin1(row.source))
                    .arg(row.pub, 0, 'f', 1)
                    .arg(got, 0, 'f', 1)
                    .arg(err * 100, 0, 'f', 1)
                    .arg(describe(row, p))
                    .arg(got_held, 0, 'f', 1)
                    .arg(err_held * 100, 0, 'f', 1);
            worst = std::max(worst, std::abs(err));
            worst_held = std::max(worst_held, std::abs(err_held));
            // The error bars of a workstation or edge case come from these rows (issue 19).
            serving_.push_back(
                {std::string("W.") + row.gpu + "/" + row.model + "/" +
                     std::string(to_string(row.w)) + "/" + std::string(to_string(row.engine)) +
                     (row.offload > 0 ? "/offload" + std::to_string(row.offload) : std::string()),
                 row.source, BandKind::serving, gpu_generation(*cat_.gpu(row.gpu)), false, false,
                 false, 1.0, err_held, !cat_.gpu(row.gpu)->device_class.empty()});
            ++workstation_;
            errs.push_back(std::abs(err));
            held.push_back(std::abs(err_held));
        }
        auto median_of = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            const std::size_t n = v.size();
            return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        };
        const double median = median_of(errs), median_held = median_of(held);
        table += QStringLiteral("fitted on every source: llama.cpp %1 (default %2), MLX %3 "
                                "(default %4), M3 Ultra factor %5 (catalog %6); median |error| %7% "
                                "with the defaults, %8% held out; worst %9% / %10%\n")
                     .arg(all.llamacpp, 0, 'f', 3)
                     .arg(dflt.llamacpp, 0, 'f', 3)
                     .arg(all.mlx, 0, 'f', 3)
                     .arg(dflt.mlx, 0, 'f', 3)
                     .arg(all.ultra, 0, 'f', 3)
                     .arg(dflt.ultra, 0, 'f', 3)
                     .arg(median * 100, 0, 'f', 1)
                     .arg(median_held * 100, 0, 'f', 1)
                     .arg(worst * 100, 0, 'f', 1)
                     .arg(worst_held * 100, 0, 'f', 1);
        qInfo().noquote() << table;
        // The defaults are what the fits over every source give (not numbers typed by hand).
        QVERIFY2(std::abs(all.llamacpp - dflt.llamacpp) <= 0.0051, qPrintable(table));
        QVERIFY2(std::abs(all.mlx - dflt.mlx) <= 0.0051, qPrintable(table));
        QVERIFY2(std::abs(all.ultra - dflt.ultra) <= 0.0051, qPrintable(table));
        // Before session 15 one efficiency (0.85) served every engine: median 18.4%, every
        // llama.cpp row optimistic (+13% to +24%). Regression bounds on the held-out errors:
        // Session 21: <= 20% until the RTX 5060 Ti's every-layer-on-the-card row (-23%: its
        // GDDR7 streams ~82% of nominal under llama.cpp, the RTX 4090's GDDR6X ~64%).
        // Session 28: the RTX 2080 rows (llmfit, a source the model was never fitted to) were
        // -11.5 ... -25.0 % held out with llama.cpp's dequantisation added to the weight
        // stream on a discrete GPU; overlapped there (as MLX's), -11.6 ... +22.7 %, and the
        // held-out median over every row 4.6 % -> 5.6 % (11.5 % with the sum).
        // Session 30: two RTX 6000 Ada rows from llama.cpp's own maintainers (PR #19053, a
        // 2026 build; -17.8 and -16.8 % held out: that build streams ~82 % of nominal, as the
        // RTX 5060 Ti's rows do, where the 2024 RTX 4090 row reads 64 %) lift the fitted
        // llama.cpp efficiency 0.72 -> 0.735, and the RTX 2080's Phi-4 row with 8 of 40 layers
        // in system memory goes from +22.7 to +26.0 % held out: bound 27 % (docs/validation.md).
        QVERIFY2(worst_held <= 0.27, qPrintable(table));
        QVERIFY2(median_held <= 0.08, qPrintable(table));
    }

    // D.mlperf_v4.1.llama2_70b.8xH100 -- MLPerf Inference v4.1, NVIDIA's closed DGX-H100
    // submission (mlcommons/inference_results_v4.1 @ a2f5d66d): Llama 2 70B chat, 4 instances of
    // TP 2, FP8, TensorRT-LLM, offline gpu_batch_size 896, kvcache_free_gpu_mem_frac 0.9. The
    // OpenOrca set's lengths: 24,576 samples, mean input 222.3 tokens (max 1,021), as extracted
    // from the official pickle by openshift-psap/performance-dashboard @ 7cd1065
    // (mlperf-data/summaries/llama2-70b-99.csv; its output column is GPT-4's reference answer,
    // 218.9); mean output 290.3 tokens, the run's own tokens/s over samples/s (24,524.9 /
    // 84.4792; MLCommons' README: 294.45 for the reference implementation). Offline: output
    // tokens/s of the 8 GPUs. Server (75 queries/s, TTFT p99 <= 2 s, TPOT p99 <= 200 ms): mean
    // TPOT 155.0 ms at the concurrency the load implies (Little's law per instance, b = 18.75/s x
    // (TTFT + 290.3 x TPOT)), the first latency row validated.
    void mlperfLlama2_70b() {
        const ModelArch& m = *cat_.model("llama2-70b");
        InferenceSpec s;
        s.tp = 2;
        s.input_len = 222;
        s.output_len = 290;
        s.weights_dtype = WeightsDtype::fp8;
        s.kv_dtype = KvDtype::fp8;
        s.engine = ServingEngine::trtllm;
        s.batch = 896; // offline_gpu_batch_size
        // MLPerf v4.1 (August 2024) ran TensorRT engines under the C++ executor, before the
        // PyTorch backend: no Python host time per sequence, no eager launches, no padded CUDA
        // graphs (as the v0.17 rows above).
        InferenceAssumptions cpp;
        cpp.trtllm_host_s_per_sequence.value = 0;
        cpp.trtllm_eager_s_per_op.value = 0;
        cpp.trtllm_eager_s_per_op_fp4.value = 0;
        cpp.trtllm_cuda_graph_padding.value = 0;
        const auto off = infer(m, s, *cat_.gpu("h100-sxm"), node("dgx-h100"), 0, {}, cpp);
        QVERIFY2(off.ok(), off.error_text().c_str());
        const double offline = 4 * off->output_tokens_per_s;
        const double e_off = offline / 24524.9 - 1;
        // Server, TPOT at the concurrency the run held: Little's law on the published figures,
        // 18.75/s x (0.2759 s + 290.3 x 0.155 s) = 849 sequences per instance.
        const double rate = 75.0 / 4;
        const double held = rate * (0.2759 + 290.3 * 0.155);
        s.batch = static_cast<int>(std::lround(held));
        const auto at_held = infer(m, s, *cat_.gpu("h100-sxm"), node("dgx-h100"), 0, {}, cpp);
        QVERIFY2(at_held.ok(), at_held.error_text().c_str());
        const double e_held = at_held->tpot_s / 0.155 - 1;
        // And at the load itself, solved with the model's own TTFT and TPOT: the server ran at
        // 89% of the offline capacity, so a capacity 19% too high puts the model far down the
        // queueing curve (shown, not asserted).
        double b = 800, tpot = 0, ttft = 0;
        for (int it = 0; it < 50; ++it) {
            s.batch = static_cast<int>(std::lround(b));
            const auto r = infer(m, s, *cat_.gpu("h100-sxm"), node("dgx-h100"), 0, {}, cpp);
            QVERIFY2(r.ok(), r.error_text().c_str());
            tpot = r->tpot_s;
            ttft = r->ttft_s;
            const double next = rate * (ttft + s.output_len * tpot);
            if (std::abs(next - b) < 0.5)
                break;
            b = 0.5 * (b + next);
        }
        const double e_tpot = tpot / 0.155 - 1;
        const QString table =
            QStringLiteral(
                "\n| MLPerf v4.1 DGX-H100 Llama 2 70B | published | predicted | error |\n"
                "|---|---|---|---|\n"
                "| offline, output tokens/s (4 x TP2, batch 896) | 24525 | %1 | %2% |\n"
                "| server, mean TPOT at the concurrency the run held (%3 sequences "
                "per instance) | 155.0 ms | %4 ms | %5% |\n"
                "| server, mean TPOT at 75 queries/s, concurrency from the model "
                "(%6 sequences per instance) | 155.0 ms | %7 ms | %8% |\n")
                .arg(offline, 0, 'f', 0)
                .arg(e_off * 100, 0, 'f', 1)
                .arg(held, 0, 'f', 0)
                .arg(at_held->tpot_s * 1e3, 0, 'f', 1)
                .arg(e_held * 100, 0, 'f', 1)
                .arg(b, 0, 'f', 0)
                .arg(tpot * 1e3, 0, 'f', 1)
                .arg(e_tpot * 100, 0, 'f', 1);
        qInfo().noquote() << table;
        serving_.push_back({"D.mlperf_v4.1.llama2_70b.8xH100/offline", "MLPerf Inference v4.1",
                            BandKind::serving, gpu_generation(*cat_.gpu("h100-sxm")), false, false,
                            false, 8.0, e_off});
        ++mlperf_;
        // Regression bounds (the case's tolerance hint: +-20% on tokens/s, +-25% on TPOT).
        QVERIFY2(std::abs(e_off) <= 0.20, qPrintable(table));
        QVERIFY2(std::abs(e_held) <= 0.25, qPrintable(table));
        QVERIFY2(e_tpot < 0, qPrintable(table)); // optimistic: the model's capacity is higher
    }

    // An outside check (not in ../shared/validation, not in the held-out set, nothing fitted on
    // it): DeepSeek-R1 max-throughput runs in TensorRT-LLM's "How to get best performance on
    // DeepSeek-R1" (docs/source/blogs/Best_perf_practice_on_DeepSeek-R1_in_TensorRT-LLM.md),
    // ISL/OSL 1,024/2,048, attention DP 8 x EP 8, trtllm-bench with each run's own max batch
    // per rank, token budget, KV fraction, concurrency and request count. Before MLA decoded
    // absorbed (session 42) the model was +33 %, +11 % and +14 %.
    void deepseekR1Blog() {
        struct Run {
            const char* label;
            const char* gpu;
            const char* system;
            WeightsDtype w;
            KvDtype kv;
            int requests;
            int concurrency, max_batch, max_tokens;
            double kv_fraction;
            bool padding;
            double published; ///< output tokens/s
        };
        const Run runs[] = {
            {"B200, R1-0528 FP4, FP8 KV", "b200", "dgx-b200", WeightsDtype::fp4, KvDtype::fp8,
             114688, 7168, 896, 2048, 0.93, true, 43146.2},
            {"B200, R1 FP4, BF16 KV", "b200", "dgx-b200", WeightsDtype::fp4, KvDtype::bf16, 49152,
             3072, 384, 1536, 0.85, true, 36384.1},
            // CUDA graphs for batch 128 only, padding off (the run's config).
            {"H200, R1 FP8, BF16 KV", "h200-sxm", "dgx-h200", WeightsDtype::fp8, KvDtype::bf16,
             5120, 1024, 128, 1151, 0.80, false, 11489.3},
        };
        const ModelArch& m = *cat_.model("deepseek-v3"); // R1: the same architecture
        QString table =
            QStringLiteral("\nDeepSeek-R1 on 8 GPUs, TensorRT-LLM blog (outside check)\n"
                           "| run | published tok/s | predicted | error |\n"
                           "|---|---|---|---|\n");
        for (const Run& r : runs) {
            InferenceSpec s;
            s.tp = 8;
            s.attention_dp = true;
            s.ep = 8; // the blog's runs: attention DP 8 x EP 8
            s.engine = ServingEngine::trtllm;
            s.weights_dtype = r.w;
            // The blog's NVFP4 checkpoints (nvidia/DeepSeek-R1-FP4, -R1-0528-FP4) keep every
            // attention projection in 16 bits: the later -v2 ones "additionally quantize the wo
            // module in attention layers" (TensorRT-LLM tech blog 14), the catalog's default.
            s.fp4_attention = Fp4Attention::bf16;
            s.kv_dtype = r.kv;
            s.input_len = 1024;
            s.output_len = 2048;
            s.requests = r.requests;
            s.batch = r.concurrency;
            MemoryAssumptions ma;
            ma.max_num_seqs.value = r.max_batch;
            ma.max_batched_tokens.value = r.max_tokens;
            ma.trtllm_free_memory_fraction.value = r.kv_fraction;
            InferenceAssumptions ia;
            ia.trtllm_cuda_graph_padding.value = r.padding ? 1 : 0;
            auto res = infer(m, s, *cat_.gpu(r.gpu), node(r.system), 0, {}, ia, {}, ma);
            QVERIFY2(res.ok(), res.error_text().c_str());
            const double e = res->output_tokens_per_s / r.published - 1;
            table += QStringLiteral("| %1 | %2 | %3 | %4% |\n")
                         .arg(QString::fromLatin1(r.label))
                         .arg(r.published, 0, 'f', 0)
                         .arg(res->output_tokens_per_s, 0, 'f', 0)
                         .arg(e * 100, 0, 'f', 1);
            // Within 10 % (session 42: +11.5 / +5.4 / −4.2 % with the attention projections in
            // NVFP4, bounded at 15 %; session 45: 16-bit as the checkpoints have them).
            QVERIFY2(std::abs(e) <= 0.10, qPrintable(table));
        }
        qInfo().noquote() << table;
    }

    // An outside check (not in ../shared/validation, nothing fitted on it): NVIDIA's measured TPOT
    // of served models in closed-loop concurrency sweeps (ai-dynamo/aiconfigurator @095f58a5,
    // silicon_sample.csv; tests/data/serving/aiconfigurator_silicon_tpot.csv says which rows),
    // TensorRT-LLM, vLLM and SGLang at TP 1-8 and concurrency 1-256, Llama 3.1 8B / 70B, Qwen3
    // 32B / 235B-A22B and gpt-oss-120b on H100, H200, B200 and B300. Each row runs as `infer
    // --batch <concurrency>` does: a steady state of that many sequences, prompts mixed in. The
    // runs' engine settings beyond these (token budget, KV fraction, CUDA-graph sizes, KV format)
    // are not published with them, so a row's error carries theirs too; the table is tracked as
    // a whole and by group. Session 50: the GEMMs', the attention kernel's and the elementwise
    // kernels' fixed times (inference.gemm_fixed_s, attention_fixed_s, elementwise_fixed_s;
    // then the GEMM overlap exponent re-swept, 1.5 -> 2) took every row's median |error| from
    // 21.8 % to 13.3 % (signed -15.1 -> -2.2 %: the model was optimistic on most of them, more
    // so at higher TP, where a step's fixed costs are a larger share).
    void aiconfiguratorSilicon() {
        struct Row {
            std::string engine, version, model, gpu, weights;
            int tp = 1, concurrency = 1, isl = 0, osl = 0;
            double tpot_ms = 0;
            int moe_ep = 0; // the run's moe_ep_size (0: not given)
        };
        std::vector<Row> rows;
        const auto cells = serving_csv("aiconfigurator_silicon_tpot.csv");
        QVERIFY(!cells.empty());
        for (const auto& c : cells) {
            QVERIFY2(c.size() == 12, c.front().c_str());
            rows.push_back({c[0], c[1], c[2], c[3], c[4], std::stoi(c[5]), std::stoi(c[6]),
                            std::stoi(c[7]), std::stoi(c[8]), std::stod(c[9]), std::stoi(c[11])});
        }
        QCOMPARE(rows.size(), std::size_t{1626});
        // use_ep: each run's expert parallelism (moe_ep); false runs every MoE row with its
        // experts split over the TP GPUs (the engines' default pattern), as before session 53.
        // ep_rows: the errors of the rows that ran with EP > 1.
        auto run = [&](const InferenceAssumptions& ia, std::vector<double>* signed_errors,
                       std::map<std::string, std::vector<double>>* groups,
                       std::vector<double>* mxfp4_blackwell = nullptr, bool use_ep = true,
                       std::vector<double>* ep_rows = nullptr) {
            int refused = 0;
            for (const Row& r : rows) {
                const ModelArch* m = cat_.model(r.model);
                const GpuSpec* g = cat_.gpu(r.gpu);
                if (!m || !g)
                    return -1;
                InferenceSpec s;
                s.tp = r.tp;
                s.batch = r.concurrency;
                s.input_len = r.isl;
                s.output_len = r.osl;
                s.engine = *choice_from_string<ServingEngine>(r.engine);
                s.weights_dtype = *choice_from_string<WeightsDtype>(r.weights);
                s.kv_dtype = s.weights_dtype == WeightsDtype::bf16 ? KvDtype::bf16 : KvDtype::fp8;
                // Session 53: the run's expert parallelism (MoE models).
                if (m->is_moe() && use_ep)
                    s.ep = std::max(1, r.moe_ep);
                auto res = infer(*m, s, *g, node(g->reference_system.c_str()), 0, {}, ia);
                if (!res.ok()) {
                    ++refused;
                    continue;
                }
                const double e = res->tpot_s * 1e3 / r.tpot_ms - 1;
                // CLUSTERLENS_DUMP_ROWS=1: every row, for a closer look (engine, version, model,
                // GPU, TP, EP, concurrency, ISL, OSL, measured and modelled TPOT in ms, error).
                if (std::getenv("CLUSTERLENS_DUMP_ROWS") && groups)
                    std::printf("ROW %s %s %s %s %d %d %d %d %d %.3f %.3f %.3f\n", r.engine.c_str(),
                                r.version.c_str(), r.model.c_str(), r.gpu.c_str(), r.tp, s.ep,
                                r.concurrency, r.isl, r.osl, r.tpot_ms, res->tpot_s * 1e3, e);
                signed_errors->push_back(e);
                if (ep_rows && m->is_moe() && r.moe_ep > 1)
                    ep_rows->push_back(e);
                if (mxfp4_blackwell && m->fp4_format == Fp4Format::mxfp4 &&
                    s.weights_dtype == WeightsDtype::fp4 && g->peak(Dtype::fp4) > 0)
                    mxfp4_blackwell->push_back(e);
                if (groups)
                    (*groups)[r.engine + " | " + r.model + " | " + r.gpu + " | TP " +
                              std::to_string(r.tp) +
                              (s.ep > 1 ? " EP " + std::to_string(s.ep) : std::string())]
                        .push_back(e);
            }
            return refused;
        };
        auto median = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            return v.empty() ? 0.0 : v[v.size() / 2];
        };
        auto abs_of = [](std::vector<double> v) {
            for (double& x : v)
                x = std::abs(x);
            return v;
        };
        std::vector<double> errs, without, mx, mx_errs, mx_without;
        std::map<std::string, std::vector<double>> groups;
        std::vector<double> ep_errs, ep_default, no_ep_all;
        const int refused = run(InferenceAssumptions{}, &errs, &groups, &mx_errs, true, &ep_errs);
        QCOMPARE(run(InferenceAssumptions{}, &no_ep_all, nullptr, nullptr, false, &ep_default),
                 refused);
        // Session 51: gpt-oss's MXFP4 experts on B200 at the trtllm-gen fused MoE's measured
        // rate, against the CUTLASS NVFP4 law they were charged before.
        InferenceAssumptions nvfp4_law;
        nvfp4_law.mxfp4_moe_stream_efficiency.value = 0;
        QCOMPARE(run(nvfp4_law, &mx, nullptr, &mx_without), refused);
        InferenceAssumptions no_fixed;
        no_fixed.gemm_fixed_s.value = 0;
        no_fixed.attention_fixed_s.value = 0;
        no_fixed.elementwise_fixed_s.value = 0;
        QCOMPARE(run(no_fixed, &without, nullptr), refused);
        QString table = QStringLiteral("\nNVIDIA silicon TPOT (aiconfigurator, outside check)\n"
                                       "| engine | model | GPU | TP | rows | median signed error | "
                                       "median abs error |\n|---|---|---|---|---|---|---|\n");
        for (const auto& [k, v] : groups)
            table += QStringLiteral("| %1 | %2 | %3% | %4% |\n")
                         .arg(QString::fromStdString(k))
                         .arg(v.size())
                         .arg(median(v) * 100, 0, 'f', 1)
                         .arg(median(abs_of(v)) * 100, 0, 'f', 1);
        const double med = median(abs_of(errs)), med_without = median(abs_of(without));
        const double within =
            static_cast<double>(std::count_if(errs.begin(), errs.end(),
                                              [](double e) { return std::abs(e) <= 0.25; })) /
            static_cast<double>(errs.size());
        table += QStringLiteral("%1 rows (%2 refused: do not fit): median |error| %3%, signed "
                                "%4%, within 25 %: %5%; without the fixed kernel times %6% "
                                "(signed %7%)\n")
                     .arg(errs.size())
                     .arg(refused)
                     .arg(med * 100, 0, 'f', 1)
                     .arg(median(errs) * 100, 0, 'f', 1)
                     .arg(within * 100, 0, 'f', 0)
                     .arg(med_without * 100, 0, 'f', 1)
                     .arg(median(without) * 100, 0, 'f', 1);
        const double mx_med = median(abs_of(mx_errs)), mx_med_without = median(abs_of(mx_without));
        table +=
            QStringLiteral("MXFP4 experts on Blackwell (gpt-oss-120b on B200, %1 rows): median "
                           "|error| %2% (signed %3%); at the NVFP4 grouped-GEMM law %4% "
                           "(signed %5%)\n")
                .arg(mx_errs.size())
                .arg(mx_med * 100, 0, 'f', 1)
                .arg(median(mx_errs) * 100, 0, 'f', 1)
                .arg(mx_med_without * 100, 0, 'f', 1)
                .arg(median(mx_without) * 100, 0, 'f', 1);
        table += QStringLiteral("Expert parallelism (session 53): the %1 rows run with EP > 1 "
                                "(Qwen3-235B and gpt-oss-120b on TensorRT-LLM and vLLM): median "
                                "signed error %2%, |error| %3%; with their experts split over "
                                "TP instead %4%, %5%. Every row: %6% with EP, %7% without\n")
                     .arg(ep_errs.size())
                     .arg(median(ep_errs) * 100, 0, 'f', 1)
                     .arg(median(abs_of(ep_errs)) * 100, 0, 'f', 1)
                     .arg(median(ep_default) * 100, 0, 'f', 1)
                     .arg(median(abs_of(ep_default)) * 100, 0, 'f', 1)
                     .arg(med * 100, 0, 'f', 1)
                     .arg(median(abs_of(no_ep_all)) * 100, 0, 'f', 1);
        qInfo().noquote() << table;
        QVERIFY2(refused <= 20, qPrintable(table));
        // Session 53: the runs' EP moves their rows toward the measurements (the busiest GPU's
        // experts at small batch), and costs nothing overall.
        QVERIFY2(ep_errs.size() >= 140 && median(abs_of(ep_errs)) < median(abs_of(ep_default)) &&
                     med <= median(abs_of(no_ep_all)) + 0.002,
                 qPrintable(table));
        // Session 51: 11.6 %; session 52, with the engines' own elementwise kernels (RoPE, Q/K
        // norms): 11.0 %.
        QVERIFY2(med <= 0.12 && med < med_without - 0.05, qPrintable(table));
        QVERIFY2(mx_errs.size() >= 150 && mx_med <= 0.15 && mx_med < mx_med_without - 0.25,
                 qPrintable(table));
    }

    // An outside check of attention DP (session 55; not in ../shared/validation, nothing fitted
    // on it): the same source's runs with attention DP, which the check above leaves out --
    // DeepSeek-R1 (FP4 / FP8, B200 / H200, attention DP 4-8 x EP 4-8) and gpt-oss-120b (B200,
    // attention DP 2-4 with EP 1-4, the experts split by tensor over the rest), TensorRT-LLM 1.1
    // and 1.2, closed-loop concurrency 32-256 (tests/data/serving/
    // aiconfigurator_silicon_adp_tpot.csv). Each row runs as `infer --tp <gpus> --attention-dp
    // --ep <moe_ep> --batch <concurrency>`. Charging every step the blog's 1 / 0.649 put the model
    // 50-100 % above these TPOTs; in a steady state TensorRT-LLM's decode-only steps pad every
    // rank to the largest rank's CUDA graph and run balanced
    // (inference.attention_dp_balanced_decode), and only the steps with a prompt wait.
    void aiconfiguratorSiliconAdp() {
        struct Row {
            std::string version, model, gpu, weights;
            int gpus = 1, ep = 1, concurrency = 1, isl = 0, osl = 0;
            double tpot_ms = 0;
        };
        std::vector<Row> rows;
        for (const auto& c : serving_csv("aiconfigurator_silicon_adp_tpot.csv")) {
            QVERIFY2(c.size() == 12 && c[0] == "trtllm", c.front().c_str());
            rows.push_back({c[1], c[2], c[3], c[4], std::stoi(c[5]), std::stoi(c[6]),
                            std::stoi(c[7]), std::stoi(c[8]), std::stoi(c[9]), std::stod(c[10])});
        }
        QCOMPARE(rows.size(), std::size_t{32});
        // The 1.2.0rc6.post3 DeepSeek-R1 rows run 1.6-1.8x faster than post2's at the same
        // settings: speculative decoding the source does not record, most likely.
        auto unrecorded_mtp = [](const Row& r) {
            return r.model == "deepseek-r1" && r.version == "1.2.0rc6.post3";
        };
        auto run = [&](const InferenceAssumptions& ia, std::vector<double>* all,
                       std::vector<double>* clean, std::map<std::string, std::vector<double>>* g) {
            for (const Row& r : rows) {
                const ModelArch* m = cat_.model(r.model);
                const GpuSpec* gpu = cat_.gpu(r.gpu);
                if (!m || !gpu)
                    return false;
                InferenceSpec s;
                s.engine = ServingEngine::trtllm;
                s.tp = r.gpus;
                s.attention_dp = true;
                s.ep = r.ep;
                s.batch = r.concurrency;
                s.input_len = r.isl;
                s.output_len = r.osl;
                s.weights_dtype = *choice_from_string<WeightsDtype>(r.weights);
                s.kv_dtype = KvDtype::fp8;
                auto res = infer(*m, s, *gpu, node(gpu->reference_system.c_str()), 0, {}, ia);
                if (!res.ok())
                    return false;
                const double e = res->tpot_s * 1e3 / r.tpot_ms - 1;
                all->push_back(e);
                if (!unrecorded_mtp(r))
                    clean->push_back(e);
                if (g)
                    (*g)[r.model + " | " + r.gpu + " | " + r.weights + " | " + r.version + " | " +
                         std::to_string(r.gpus) + " GPUs, EP " + std::to_string(r.ep)]
                        .push_back(e);
            }
            return true;
        };
        auto median = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            const std::size_t n = v.size();
            return n == 0 ? 0.0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        };
        auto abs_of = [](std::vector<double> v) {
            for (double& x : v)
                x = std::abs(x);
            return v;
        };
        std::vector<double> all, clean, all_every, clean_every;
        std::map<std::string, std::vector<double>> groups;
        QVERIFY(run(InferenceAssumptions{}, &all, &clean, &groups));
        InferenceAssumptions every;
        every.attention_dp_balanced_decode.value = 0;
        QVERIFY(run(every, &all_every, &clean_every, nullptr));
        QString table =
            QStringLiteral("\nNVIDIA silicon TPOT with attention DP (aiconfigurator, "
                           "outside check)\n| model | GPU | weights | version | layout "
                           "| rows | median signed error |\n|---|---|---|---|---|---|---|\n");
        for (const auto& [k, v] : groups)
            table += QStringLiteral("| %1 | %2 | %3% |\n")
                         .arg(QString::fromStdString(k))
                         .arg(v.size())
                         .arg(median(v) * 100, 0, 'f', 1);
        table += QStringLiteral("%1 rows: median |error| %2% (signed %3%); without the rows that "
                                "likely ran speculative decoding (%4): %5% (signed %6%). Every "
                                "step charged 1 / 0.649: %7% (signed %8%), %9% (signed %10%)\n")
                     .arg(all.size())
                     .arg(median(abs_of(all)) * 100, 0, 'f', 1)
                     .arg(median(all) * 100, 0, 'f', 1)
                     .arg(clean.size())
                     .arg(median(abs_of(clean)) * 100, 0, 'f', 1)
                     .arg(median(clean) * 100, 0, 'f', 1)
                     .arg(median(abs_of(all_every)) * 100, 0, 'f', 1)
                     .arg(median(all_every) * 100, 0, 'f', 1)
                     .arg(median(abs_of(clean_every)) * 100, 0, 'f', 1)
                     .arg(median(clean_every) * 100, 0, 'f', 1);
        qInfo().noquote() << table;
        QVERIFY2(median(abs_of(clean)) < median(abs_of(clean_every)) - 0.15, qPrintable(table));
        // Session 55: 19.4 % over the 22 rows without unrecorded speculative decoding (53.3 % with
        // every step charged); a regression bound, not a fit.
        QVERIFY2(median(abs_of(clean)) <= 0.22, qPrintable(table));
    }

    void heldOutRowsAreBundled() {
        if (dense_ != 27 || v10_ != 259 || mlperf_ != 1 || workstation_ != 32)
            QSKIP("needs trtllmTable, trtllmV10Tables, mlperfLlama2_70b and workstationDecode to "
                  "run first (run the "
                  "whole test)");
        const std::string stale =
            cl::test::check_held_out(serving_, "serving", "tests/model/tst_validation_inference");
        QVERIFY2(stale.empty(), stale.c_str());
    }

private:
    std::vector<HeldOutRow> serving_;
    int dense_ = 0, v10_ = 0, mlperf_ = 0, workstation_ = 0;
};

QTEST_APPLESS_MAIN(TestValidationInference)
#include "tst_validation_inference.moc"
