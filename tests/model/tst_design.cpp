// Design files: load, errors with JSON paths, versions, round trips of every preset, and
// hostile input (../shared/... issue 3 "Bad input").
#include "model/bundled.h"
#include "model/catalog.h"
#include "model/compare.h"
#include "model/design.h"
#include "model/evaluate.h"
#include "model/explain.h"
#include "model/fleet.h"
#include "model/glossary.h"
#include "model/report.h"
#include "model/schema.h"
#include "model/trace_formats.h"
#include "model/uncertainty.h"
#include "model/units.h"

#include "fixtures.h"

#include <QFile>
#include <QRegularExpression>
#include <QtTest>
#include <cctype>
#include <cmath>
#include <cstdio>

#include <map>
#include <set>

#include <string>

using namespace cl::model;

namespace {
const char* kMinimal = R"({"format": "clusterlens-design", "version": "1.0", "name": "t",
  "devices": [
    {"id": "node", "kind": "system", "catalog": "dgx-h100", "count": 4},
    {"id": "leaf", "kind": "switch", "catalog": "qm9700"}],
  "links": [{"id": "l1", "from": "node", "to": "leaf", "type": "ib-ndr", "count": 8}],
  "workloads": []})";

std::string with(const std::string& base, const std::string& from, const std::string& to) {
    std::string s = base;
    const auto pos = s.find(from);
    Q_ASSERT(pos != std::string::npos);
    s.replace(pos, from.size(), to);
    return s;
}
/// The index of a design's (last) inference workload; the workload count when it has none.
std::size_t inference_index(const Design& d) {
    std::size_t w = d.workloads.size();
    for (std::size_t i = 0; i < d.workloads.size(); ++i)
        if (d.workloads[i].kind == WorkloadKind::inference)
            w = i;
    return w;
}

/// One input of one of Explain's entries for the design (empty when it is not there).
ExplainedInput explained(const Design& d, const Catalog& c, std::string_view title,
                         std::string_view name) {
    for (const auto& e : explain(d, evaluate(d, c), c))
        if (e.title == title)
            for (const auto& i : e.inputs)
                if (i.name == name)
                    return i;
    return {};
}
} // namespace

class TestDesign : public QObject {
    Q_OBJECT
private:
    Catalog cat_;

    QString firstError(const std::string& text) {
        auto d = design_from_json(text, "t.json", &cat_);
        if (d.ok())
            return {};
        return QString::fromStdString(d.errors().front().message());
    }

private slots:
    // CSV numbers (issue 21): machine-readable SI, no e-notation a spreadsheet would show as
    // "8.13E+13", ten significant digits, whole numbers whole.
    // Issue 23: a design's job mix travels with the file (only the values that differ from
    // the defaults are written); a design without one writes no "fleet" key.
    // Compare: core says which changes are better or worse (the dialog only tints them). The
    // H200 variant of the SuperPOD has more HBM (better) at the same count of GPUs (same).
    void compareVerdicts() {
        const Catalog cat = cl::test::bundled_catalog();
        Design a = cl::test::preset("dgx-h100-4su");
        Design b = a;
        for (auto& dev : b.devices)
            if (dev.catalog == "dgx-h100")
                dev.catalog = "dgx-h200";
        const Evaluation ea = evaluate(a, cat), eb = evaluate(b, cat);
        const auto rows = compare_designs({&ea, &eb});
        bool hbm = false, gpus = false;
        // The GPU type first, in words (helper-22: designs of one name told apart only by HBM).
        QCOMPARE(rows.front().metric, std::string("GPU type"));
        QCOMPARE(rows.front().texts,
                 (std::vector<std::string>{"H100 SXM5 80GB", "H200 SXM 141GB"}));
        const ReportTable shown = comparison_table({"A", "B"}, {&ea, &eb});
        QCOMPARE(shown.display.front(), (std::vector<std::string>{"GPU type", "", "H100 SXM5 80GB",
                                                                  "H200 SXM 141GB", "changed"}));
        for (const auto& r : rows) {
            QCOMPARE(r.verdict.size(), std::size_t{2});
            QCOMPARE(r.verdict[0], 0);
            if (r.metric == "total HBM") {
                QCOMPARE(r.verdict[1], 1);
                hbm = true;
            }
            if (r.metric == "GPUs") {
                QCOMPARE(r.verdict[1], 0);
                gpus = true;
            }
        }
        QVERIFY(hbm && gpus);
    }

    // Helper-24: the finance CSV wrote every input left on Auto as 0 ("Cloud price,0" beside
    // the PDF's "Auto: $7.91/GPU-hour"). The CSV value is the one the evaluation used, and its
    // source says it was derived.
    void autoInputsCarryTheirValue() {
        const Catalog cat = cl::test::bundled_catalog();
        const Design d = cl::test::preset("h200-inference-8x");
        const Evaluation ev = evaluate(d, cat);
        QVERIFY(ev.tco.has_value());
        bool found = false;
        for (const auto& a : assumptions(d, &ev))
            if (a.name == "Cloud price") {
                found = true;
                QVERIFY2(!a.value.empty() && a.value != "0", a.value.c_str());
                QVERIFY(std::abs(std::stod(a.value) - ev.tco->cloud_price_per_gpu_hour) < 1e-6);
                QVERIFY2(a.source.rfind("auto (", 0) == 0, a.source.c_str());
                QVERIFY2(a.shown.rfind("Auto: $7.91", 0) == 0, a.shown.c_str());
            }
        QVERIFY(found);
    }

    // Helper-3 (issue 21): the vLLM preset's report listed SGLang, TensorRT-LLM, llama.cpp and
    // macOS settings. An engine's settings show for the engines the design serves with, and
    // any setting the user changed shows whatever the engine.
    void assumptionsOfTheEnginesUsed() {
        const Catalog cat = cl::test::bundled_catalog();
        Design d = cl::test::preset("h200-inference-8x");
        const auto names = [&](const Design& x) {
            const Evaluation ev = evaluate(x, cat);
            std::set<std::string> n;
            for (const auto& a : assumptions(x, &ev, &cat))
                n.insert(a.name);
            return n;
        };
        auto n = names(d);
        QVERIFY(n.count("Serving memory fraction")); // vLLM's own
        QVERIFY(!n.count("SGLang static memory fraction"));
        QVERIFY(!n.count("TensorRT-LLM KV fraction of free memory"));
        QVERIFY(!n.count("llama.cpp physical batch (tokens)"));
        QVERIFY(!n.count("Unified memory the model may use")); // no such device here
        for (auto& w : d.workloads)
            if (w.kind == WorkloadKind::inference)
                w.inference.engine = ServingEngine::sglang;
        n = names(d);
        QVERIFY(n.count("SGLang static memory fraction"));
        QVERIFY(!n.count("Serving memory fraction"));
        d.assumptions.memory.llamacpp_ubatch_tokens.value = 1024; // changed: always shown
        n = names(d);
        QVERIFY(n.count("llama.cpp physical batch (tokens)"));
        // A device with unified memory brings its setting.
        const Design jet = cl::test::preset("jetson-thor-edge");
        QVERIFY(names(jet).count("Unified memory the model may use"));
    }

    // Session 56 (helper-48: the serving card hid EP and attention DP, and its band read as a
    // second figure): the card's layout line says how an MoE model is split, its band is in
    // parentheses (the far card drops what is in them).
    void servingCardSaysTheSplit() {
        const Catalog cat = cl::test::bundled_catalog();
        Design d = cl::test::preset("h200-inference-8x");
        const auto card = [&](const Design& x) {
            const Evaluation ev = evaluate(x, cat);
            return ev.findings.workloads.at(x.workloads.front().id);
        };
        const auto dense = card(d);
        QVERIFY2(dense.layout.ends_with(" · TP 8 · serving"), dense.layout.c_str());
        QVERIFY2(dense.metrics.find(" tok/s (") != std::string::npos &&
                     dense.metrics.find(") · TPOT ") != std::string::npos,
                 dense.metrics.c_str());
        d.workloads.front().model = "qwen3-235b-a22b";
        d.workloads.front().inference.weights_dtype = WeightsDtype::fp8;
        d.workloads.front().inference.attention_dp = true;
        d.workloads.front().inference.ep = 8;
        const auto moe = card(d);
        QCOMPARE(moe.layout, std::string("TP 8, EP 8, attention DP · Qwen3 235B-A22B"));
        QVERIFY2(moe.tooltip.starts_with("Qwen3 235B-A22B (MoE) · TP 8, EP 8, attention DP\nTTFT "),
                 moe.tooltip.c_str());
        d.workloads.front().inference.attention_dp = false;
        d.workloads.front().inference.ep = 0;
        QCOMPARE(card(d).layout, std::string("Qwen3 235B-A22B (MoE) · TP 8 · serving"));
    }

    // Helper-6 (issue 21): one TTFT read 59, 59.36 and 59.4 ms on the card, the report and the
    // Explain tab. Every place rounds a latency to three significant digits, the same way.
    void oneLatencyOneRounding() {
        QCOMPARE(units::ms_decimals(128.5), 0);
        QCOMPARE(units::ms_decimals(45.32), 1);
        QCOMPARE(units::ms_decimals(7.641), 2);
        QCOMPARE(units::ms_decimals(0.5123), 3);
        QCOMPARE(units::ms_decimals(99.96), 0); // rounds to 100: "100 ms", not "100.0 ms"
        const Catalog cat = cl::test::bundled_catalog();
        const Design d = cl::test::preset("h200-inference-8x");
        const Evaluation ev = evaluate(d, cat);
        const WorkloadEvaluation* w = nullptr;
        for (const auto& x : ev.workloads)
            if (x.inference)
                w = &x;
        QVERIFY(w);
        const double ttft = w->inference->ttft_s, tpot = w->inference->tpot_s;
        const std::string t = units::format_fixed(ttft * 1e3, units::ms_decimals(ttft * 1e3)),
                          p = units::format_fixed(tpot * 1e3, units::ms_decimals(tpot * 1e3));
        // The numbers are not round already: otherwise every rounding would agree.
        QVERIFY(std::abs(ttft * 1e3 - std::stod(t)) > 1e-6);
        const auto& card = ev.findings.workloads.at(w->id);
        QVERIFY2(card.tooltip.find("TTFT " + t + " ms") != std::string::npos, card.tooltip.c_str());
        QVERIFY2(card.metrics.find("TPOT " + p + " ms") != std::string::npos, card.metrics.c_str());
        bool explained = false;
        for (const auto& e : explain(d, ev, cat))
            if (e.title == "TTFT and TPOT") {
                explained = true;
                QVERIFY2(e.value.rfind(t + " ms / " + p + " ms", 0) == 0, e.value.c_str());
            }
        QVERIFY(explained);
        bool reported = false;
        for (const auto& tb : report_tables(d, ev, cat))
            for (std::size_t c = 0; c < tb.header.size(); ++c)
                if (tb.header[c] == "ttft_s")
                    for (const auto& row : tb.display) {
                        reported = true;
                        QCOMPARE(row.at(c), t + " ms");
                    }
        QVERIFY(reported);
    }

    // Helper-26 (session 34): Explain named the RTX 4090's GDDR6X "HBM", and said nothing of
    // the layers a partial offload keeps in system memory or the bandwidth they run at.
    // helper-46: "8 x H200" in Explain beside "8 × H200" on the card, "9 %" beside "22%", and a
    // band "-35 % to +45 %" with a hyphen. Every preset's Explain: products with "×", a space
    // before "%", negative percentages with a minus sign.
    void explainTextIsConsistent() {
        const Catalog& cat = cl::test::bundled_catalog();
        const QRegularExpression times(QStringLiteral("[\\w).%] x [\\w($]"));
        const QRegularExpression tight(QStringLiteral("\\d%"));
        const QRegularExpression hyphen(QStringLiteral("(^|[ (])-\\d+ %"));
        for (const char* id :
             {"dgx-h100-4su", "h200-inference-8x", "gb200-nvl72", "llama3-16k-h100", "mi300x-node",
              "rtx4090-workstation", "jetson-thor-edge", "l40s-inference-4x"}) {
            const Design d = cl::test::preset(id);
            const auto entries = explain(d, evaluate(d, cat), cat);
            QVERIFY(!entries.empty());
            for (const auto& e : entries) {
                std::vector<std::string> texts{e.title, e.value, e.formula};
                for (const auto& i : e.inputs) {
                    texts.push_back(i.name);
                    texts.push_back(i.value);
                    texts.push_back(i.source);
                }
                for (const auto& t : texts) {
                    const QString q = QString::fromStdString(t);
                    QVERIFY2(!times.match(q).hasMatch(), (std::string(id) + ": " + t).c_str());
                    QVERIFY2(!tight.match(q).hasMatch(), (std::string(id) + ": " + t).c_str());
                    QVERIFY2(!hyphen.match(q).hasMatch(), (std::string(id) + ": " + t).c_str());
                }
            }
        }
    }

    // helper-47: a refused workload vanished from Explain while the card and the charts said
    // why; it has an entry with the reason.
    void explainSaysWhyRefused() {
        const Catalog& cat = cl::test::bundled_catalog();
        Design d = cl::test::preset("h200-inference-8x");
        const std::size_t w = inference_index(d);
        d.workloads[w].model = "qwen3-235b-a22b";
        d.workloads[w].inference.ep = 3;
        bool said = false;
        for (const auto& e : explain(d, evaluate(d, cat), cat))
            said = said || (e.key == d.workloads[w].id + ".refused" &&
                            e.formula.find("EP may be 1, 2, 4, 8") != std::string::npos &&
                            // helper-48: without the field's code key, as the card says it
                            e.formula.find("workloads[") == std::string::npos);
        QVERIFY(said);
    }

    void explainSaysWhereOffloadedLayersRun() {
        const Catalog cat = cl::test::bundled_catalog();
        Design d = cl::test::preset("rtx4090-workstation");
        QVERIFY(!d.workloads.empty());
        auto inputs = [&](const Design& x) {
            std::map<std::string, std::string> out;
            const Evaluation ev = evaluate(x, cat);
            for (const auto& e : explain(x, ev, cat))
                if (e.title == "TTFT and TPOT")
                    for (const auto& i : e.inputs)
                        out[i.name] = i.value;
            return out;
        };
        auto on_card = inputs(d);
        QVERIFY(on_card.count("memory bandwidth (GDDR6X)"));
        QVERIFY(!on_card.count("HBM bandwidth"));
        QVERIFY(!on_card.count("layers in system memory"));
        d.workloads[0].inference.offload_layers = 16;
        auto half = inputs(d);
        QCOMPARE(half["layers in system memory"], std::string("16 of 32 (the rest on the device)"));
        QVERIFY(half.count("host memory bandwidth"));
        QVERIFY2(half["host link (one way)"].find("GB/s") != std::string::npos,
                 half["host link (one way)"].c_str());
    }

    // Helper-31 (session 37): journey 3's answer, the GPUs for the request rate, had no Explain
    // entry. Online it is worked out from the inputs it lists; offline there is none.
    void explainGpusNeeded() {
        const Catalog cat = cl::test::bundled_catalog();
        Design d = cl::test::preset("h200-inference-8x");
        QCOMPARE(d.workloads[0].inference.mode, ServingMode::online);
        const Evaluation ev = evaluate(d, cat);
        const auto& r = *ev.workloads[0].inference;
        QVERIFY(r.gpus_needed > 0);
        std::map<std::string, std::string> in;
        std::string value, ttft_wait;
        for (const auto& e : explain(d, ev, cat)) {
            if (e.title == "GPUs needed") {
                value = e.value;
                for (const auto& i : e.inputs)
                    in[i.name] = i.value;
            }
            if (e.title == "TTFT and TPOT")
                for (const auto& i : e.inputs)
                    if (i.name == "queue wait (mean, in TTFT)")
                        ttft_wait = i.value;
        }
        QCOMPARE(value, units::format_count(r.gpus_needed));
        QCOMPARE(in["GPUs per replica"], std::string("8"));
        QVERIFY2(
            in["replicas"].rfind(units::format_count(r.replicas_needed) + " (each loaded ", 0) == 0,
            in["replicas"].c_str());
        // replicas x GPUs per replica is the value shown
        QCOMPARE(r.replicas_needed * 8, r.gpus_needed);
        QCOMPARE(in["queue wait (mean)"], units::format_latency(r.queue_wait_s));
        QCOMPARE(ttft_wait, in["queue wait (mean)"]);
        QVERIFY(in.count("request rate") && in.count("one replica's capacity"));
        d.workloads[0].inference.mode = ServingMode::offline;
        const Evaluation off = evaluate(d, cat);
        for (const auto& e : explain(d, off, cat))
            QVERIFY(e.title != "GPUs needed");
    }

    // Helper-9 (issue 21): one price read "$0.57" on page 1 and "$0.569" in its chart's
    // caption; a TTFT band "93.1 ms to 173 ms" in the table and "93-173 ms" in the caption.
    // Issue 21: the report says what its jargon means; a term comes in when the text uses it
    // as a word (capitals only for acronyms: "ep" in "step" is no expert parallelism).
    void glossaryForWhatTheTextSays() {
        const auto terms = [](std::string_view text) {
            std::vector<std::string> out;
            for (const auto& e : glossary_for(text))
                out.push_back(e.term);
            return out;
        };
        const auto has = [](const std::vector<std::string>& v, const char* t) {
            return std::find(v.begin(), v.end(), t) != v.end();
        };
        const auto a = terms("Step 7.4 s, MFU 39.2%; busbw (GB/s); goodput 99.0% at the "
                             "optimal (Daly) interval; Spot: $2.52/GPU-h.");
        QVERIFY(has(a, "MFU") && has(a, "busbw") && has(a, "Goodput") &&
                has(a, "Young/Daly interval") && has(a, "Spot") && has(a, "GPU-hour"));
        QVERIFY(!has(a, "HFU") && !has(a, "TTFT") && !has(a, "TP, PP, DP, CP, EP"));
        const auto b = terms("a spotlight on the steps of the mfu; HFUs; the KV cache; TP 8");
        QVERIFY(!has(b, "Spot") && !has(b, "MFU") && !has(b, "HFU"));
        QVERIFY(has(b, "KV cache") && has(b, "TP, PP, DP, CP, EP"));
        for (const auto& e : glossary())
            QVERIFY2(!e.meaning.empty() && !e.source.empty(), e.term.c_str());
    }

    void onePriceOneRounding() {
        QCOMPARE(units::format_price(0.5693), std::string("0.569"));
        QCOMPARE(units::format_price(0.08), std::string("0.08"));
        QCOMPARE(units::format_price(0.0352), std::string("0.0352"));
        QCOMPARE(units::format_price(7.912), std::string("7.91"));
        QCOMPARE(units::format_price(12.5), std::string("12.50"));
        QCOMPARE(units::format_price(1234.4), std::string("1,234"));
        // Short dollars: three significant digits whatever the scale (helper-10: "$888.70M"
        // beside "$1.04B"), rounding carried across k -> M.
        QCOMPARE(units::format_usd_short(888.7e6), std::string("$889M"));
        QCOMPARE(units::format_usd_short(1.0412e9), std::string("$1.04B"));
        QCOMPARE(units::format_usd_short(15.58e6), std::string("$15.6M"));
        QCOMPARE(units::format_usd_short(357.04e3), std::string("$357k"));
        QCOMPARE(units::format_usd_short(999.7e3), std::string("$1.00M"));
        QCOMPARE(units::format_usd_short(-4.1447e6), std::string("-$4.14M"));
        QCOMPARE(units::format_usd_short(620), std::string("$620"));
        QCOMPARE(units::format_kw(10.24), std::string("10.2"));
        QCOMPARE(units::format_kw(12345.6), std::string("12,346"));
        const Catalog cat = cl::test::bundled_catalog();
        const Design d = cl::test::preset("h200-inference-8x");
        const Evaluation ev = evaluate(d, cat);
        const WorkloadEvaluation* w = nullptr;
        for (const auto& x : ev.workloads)
            if (x.inference && x.band)
                w = &x;
        QVERIFY(w);
        const double usd = w->inference->usd_per_million_output_tokens;
        QVERIFY(usd > 0 && usd < 1);
        const std::string price = "$" + units::format_price(usd);
        // The page-1 line, the serving table and the card's tooltip carry the same price.
        const ReportSummary sum = report_summary(d, ev, cat);
        bool on_page1 = false;
        for (const auto& it : sum.workloads)
            for (const auto& l : it.lines)
                if (l.rfind("Cost per million output tokens: " + price + " (", 0) == 0)
                    on_page1 = true;
        QVERIFY2(on_page1, price.c_str());
        const auto& card = ev.findings.workloads.at(w->id);
        QVERIFY2(card.tooltip.find(", " + price + " per M output tokens") != std::string::npos,
                 card.tooltip.c_str());
        // Band ends rounded as the band table rounds them (three significant digits each).
        const auto [lo, hi] = band_range(w->inference->ttft_s * 1e3, *w->band, Scales::with_time);
        const std::string ends = units::format_ms(lo) + "\u2013" + units::format_ms(hi);
        QVERIFY2(card.tooltip.find("TTFT " + ends + " ms") != std::string::npos,
                 card.tooltip.c_str());
        bool table = false;
        for (const auto& tb : report_tables(d, ev, cat))
            if (tb.id == "error_bands")
                for (const auto& row : tb.display)
                    if (row[1] == "Time to first token") {
                        table = true;
                        QCOMPARE(row[3], units::format_ms(lo) + " ms");
                        QCOMPARE(row[4], units::format_ms(hi) + " ms");
                    }
        QVERIFY(table);
        // Explain's reliability times as the caption and tables say them (helper-11: "delta =
        // 8.0 s" beside "7.96 s", "R = 600 s" beside "10.0 min", "1784.2 min" beside "29.7 h").
        const Design big = cl::test::preset("dgx-h100-4su");
        const Evaluation bev = evaluate(big, cat);
        bool goodput = false;
        for (const auto& e : explain(big, bev, cat))
            if (e.key.size() > 8 && e.key.compare(e.key.size() - 8, 8, ".goodput") == 0) {
                goodput = true;
                for (const auto& in : e.inputs) {
                    if (in.name == "restart R")
                        QCOMPARE(in.value, std::string("10.0 min"));
                    if (in.name == "stall per checkpoint delta")
                        QVERIFY2(in.value.find(".") != std::string::npos &&
                                     in.value.size() - in.value.find('.') == 5, // "7.96 s"
                                 in.value.c_str());
                }
                QVERIFY2(e.value.find(" min") != std::string::npos ||
                             e.value.find(" h") != std::string::npos,
                         e.value.c_str());
            }
        QVERIFY(goodput);
    }

    // Helper-9 (issue 21): the CSV's key-value tables keyed rows by their labels, put words in
    // the value column ("Cloud,not costed: ...") and wrote "Oversubscription,1,:1".
    void keyValueTablesHaveStableKeys() {
        const Catalog cat = cl::test::bundled_catalog();
        const Design d = cl::test::preset("gb200-nvl72");
        const Evaluation ev = evaluate(d, cat);
        bool saw_oversub = false, saw_cloud = false, saw_system = false;
        for (const auto& tb : report_tables(d, ev, cat)) {
            if (tb.id == "bill_of_materials")
                for (const auto& row : tb.display)
                    saw_system = saw_system || row[0] == "System (18 nodes)";
            if (tb.id != "topology" && tb.id != "tco")
                continue;
            QCOMPARE(tb.header,
                     (std::vector<std::string>{"key", "value", "unit", "quantity", "note"}));
            for (const auto& row : tb.rows) {
                for (const char ch : row[0])
                    QVERIFY2((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_',
                             row[0].c_str());
                // A value is a number, an id (the GPU type) or empty with a note.
                double v = 0;
                const bool number = !row[1].empty() && std::sscanf(row[1].c_str(), "%lf", &v) == 1;
                QVERIFY2(number || row[0] == "gpu_type" || (row[1].empty() && !row[4].empty()),
                         (row[0] + "," + row[1]).c_str());
                if (row[0] == "oversubscription") {
                    saw_oversub = true;
                    QCOMPARE(row[2], std::string("ratio"));
                }
                if (row[0] == "cloud") { // GB200 has no cloud offer: said in the note
                    saw_cloud = true;
                    QVERIFY(row[1].empty());
                    QVERIFY2(row[4].rfind("not costed", 0) == 0, row[4].c_str());
                }
            }
        }
        QVERIFY(saw_oversub);
        QVERIFY(saw_cloud);
        QVERIFY(saw_system);
    }

    // Helper-9 (issue 21): a serving design's assumptions listed every reliability input; a
    // chosen cloud offer's source read "none chosen: the cheapest offer ... (changed)".
    void assumptionsSayWhatApplies() {
        const Catalog cat = cl::test::bundled_catalog();
        const Design d = cl::test::preset("h200-inference-8x");
        const Evaluation ev = evaluate(d, cat);
        bool offer = false;
        for (const auto& a : assumptions(d, &ev, &cat)) {
            QVERIFY2(a.group != "reliability", a.name.c_str());
            if (a.name == "Cloud offer") {
                offer = true;
                QVERIFY2(a.source.rfind("chosen in this design; price: ", 0) == 0,
                         a.source.c_str());
            }
            if (!a.shown_source.empty()) // "Auto: ..." is not said twice
                QVERIFY2(a.shown_source.rfind("default: ", 0) == 0, a.shown_source.c_str());
        }
        QVERIFY(offer);
        bool reliability = false;
        for (const auto& a : assumptions(cl::test::preset("dgx-h100-su"), nullptr, &cat))
            reliability = reliability || a.group == "reliability";
        QVERIFY(reliability); // a training design keeps them
    }

    // Helper-36: with a job mix billed, the report's assumptions listed the typed "Utilization
    // 80.0 %" and its cost derivation "utilization = 80.0 % (the Cost section)" while 63.9 %
    // was billed, and nothing said what the fleet simulation ran.
    void reportSaysWhatTheFleetRan() {
        const Catalog cat = cl::test::bundled_catalog();
        Design d = cl::test::preset("h100-ndr-2node");
        d.fleet.finetune.arrival_rate_per_hour = 0.2;
        const Evaluation ev = evaluate(d, cat);
        QVERIFY2(ev.fleet && ev.tco, ev.fleet_error.c_str());
        QVERIFY(ev.tco->utilization_source == kFleetMixSource);
        const std::string billed = report_human(ev.tco->utilization, ReportFormat::percent);
        bool rate = false, policy = false, utilization = false;
        for (const auto& a : assumptions(d, &ev, &cat)) {
            rate = rate || (a.group == "fleet" && a.name == "Fine-tunes: arrivals");
            policy = policy || (a.group == "fleet" && a.name == "Scheduling policy");
            if (a.group == "cost" && a.name == "Utilization") {
                utilization = true;
                QVERIFY2(a.shown.find("billed") != std::string::npos, a.shown.c_str());
                QVERIFY2(a.shown_source.rfind("Not billed", 0) == 0, a.shown_source.c_str());
            }
        }
        QVERIFY(rate && policy && utilization);
        bool derivation = false;
        for (const auto& e : explain(d, ev, cat))
            for (const auto& in : e.inputs)
                if (in.name == "utilization" && e.key == "design.tco") {
                    derivation = true;
                    QVERIFY2(in.source.rfind(kFleetMixSource, 0) == 0, in.source.c_str());
                }
        QVERIFY(derivation);
        // Without a mix: no fleet rows, the typed utilization from the Cost section.
        const Design plain = cl::test::preset("h100-ndr-2node");
        const Evaluation pe = evaluate(plain, cat);
        for (const auto& a : assumptions(plain, &pe, &cat))
            QVERIFY2(a.group != "fleet", a.name.c_str());
    }

    // Helper-6 (issue 21): labels carried their encoding ("FlashAttention (1 = on)",
    // "Micro-batch (0 = auto)"); what 0 means is shown in the field instead, and an on/off
    // assumption reads on or off.
    void labelsWithoutEncodings() {
        for (const auto& f : cl::model::schema())
            QVERIFY2(f.label.find(" = ") == std::string::npos &&
                         f.label.find("(0 ") == std::string::npos,
                     f.label.c_str());
        const auto* mb = cl::model::find_field(cl::model::Section::training, "micro_batch");
        QVERIFY(mb);
        QCOMPARE(cl::model::format_value(*mb, 0.0), std::string("Auto"));
        QCOMPARE(cl::model::format_value(*mb, 4.0), std::string("4"));
        const auto* fa =
            cl::model::find_field(cl::model::Section::assumptions, "memory.flash_attention");
        QVERIFY(fa);
        QCOMPARE(cl::model::format_value(*fa, 1.0), std::string("on"));
        QCOMPARE(cl::model::format_value(*fa, 0.0), std::string("off"));
        // The report's Group column for people, the CSV's for machines.
        const Catalog cat = cl::test::bundled_catalog();
        const Design d = cl::test::preset("dgx-h100-su");
        const Evaluation ev = evaluate(d, cat);
        for (const auto& tb : report_tables(d, ev, cat))
            if (tb.id == "assumptions") {
                QVERIFY(!tb.display.empty());
                for (std::size_t i = 0; i < tb.display.size(); ++i) {
                    const std::string& g = tb.display[i][0];
                    QVERIFY2(!g.empty() && std::isupper(static_cast<unsigned char>(g[0])),
                             g.c_str());
                    QVERIFY2(std::islower(static_cast<unsigned char>(tb.rows[i][0][0])),
                             tb.rows[i][0].c_str());
                }
            }
    }

    // The fleet's node numbers on the canvas (issue 23): the cards' node ranges follow one
    // another from 0 and cover every node the topology counts (GB200: 4-GPU trays).
    void fleetNodeCards() {
        for (const char* id : {"h100-ndr-2node", "dgx-h100-4su", "gb200-nvl72", "llama3-16k-h100",
                               "rtx4090-workstation"}) {
            const Design d = cl::test::preset(id);
            const Evaluation ev = evaluate(d, cat_);
            const auto cards = fleet_node_cards(d, cat_);
            int next = 0;
            for (const auto& c : cards) {
                QCOMPARE(c.first, next);
                QVERIFY(c.count >= 1);
                QVERIFY(d.device(c.device) != nullptr);
                next += c.count;
            }
            QVERIFY2(next == static_cast<int>(ev.topology.nodes),
                     qPrintable(
                         QStringLiteral("%1: %2 vs %3").arg(id).arg(next).arg(ev.topology.nodes)));
        }
    }

    // Issue 23: a class's mean duration from a training workload of the design -- its time to
    // train its tokens on the class's GPUs per job of this cluster (the training model). On all
    // 16 GPUs it is the workload's own time to train; a workload without tokens, a job size that
    // is not a multiple of the layout, or a deleted workload is refused with the reason.
    void fleetDurationFromAWorkload() {
        const Catalog cat = cl::test::bundled_catalog();
        Design d = cl::test::preset("h100-ndr-2node");
        d.workloads[0].training.finetune = Finetune::lora; // fits (journey 1)
        const Evaluation alone = evaluate(d, cat);
        QVERIFY(alone.workloads[0].training);
        const double hours = alone.workloads[0].training->time_to_train_s / 3600;
        QVERIFY(hours > 1);
        d.fleet.training.arrival_rate_per_hour = 0.01;
        d.fleet.training.gpus_per_job = 16;
        d.fleet.training.duration_from = d.workloads[0].id;
        auto spec =
            fleet_spec(d, alone.topology, &cat, &alone.fabric, &alone.collective_assumptions);
        QVERIFY2(spec.ok(), spec.error_text().c_str());
        QCOMPARE(spec->classes.size(), std::size_t{1});
        QVERIFY2(std::abs(spec->classes[0].mean_duration_h / hours - 1) < 1e-9,
                 qPrintable(
                     QStringLiteral("%1 vs %2").arg(spec->classes[0].mean_duration_h).arg(hours)));
        const Evaluation ev = evaluate(d, cat);
        QVERIFY2(ev.fleet.has_value(), ev.fleet_error.c_str());
        // On one node (8 GPUs: DP 1 instead of 2) a job takes about twice as long.
        d.fleet.training.gpus_per_job = 8;
        spec = fleet_spec(d, alone.topology, &cat, &alone.fabric, &alone.collective_assumptions);
        QVERIFY2(spec.ok(), spec.error_text().c_str());
        const double ratio = spec->classes[0].mean_duration_h / hours;
        QVERIFY2(ratio > 1.8 && ratio < 2.2, qPrintable(QString::number(ratio)));
        // Refusals, each with its reason.
        const auto refused = [&](Design x, const char* why) {
            const Evaluation e = evaluate(x, cat);
            QVERIFY2(!e.fleet && e.fleet_error.find(why) != std::string::npos,
                     e.fleet_error.c_str());
        };
        Design x = d;
        x.fleet.training.gpus_per_job = 4; // TP 8
        refused(x, "not a multiple of 8");
        x = d;
        x.workloads[0].training.tokens = 0;
        refused(x, "no tokens to train");
        x = d;
        x.fleet.training.duration_from = "gone";
        refused(x, "no training workload \"gone\"");
        // Larger than the cluster: what to set, and to what (helper-31: the 64-GPU default on an
        // 8-GPU preset said only that it did not fit).
        Design y = d;
        y.fleet.training.duration_from.clear();
        y.fleet.training.gpus_per_job = 1024;
        refused(y, "need 1024 GPUs per job; the cluster has 16: set Training runs: GPUs per job "
                   "to 16 or fewer, or draw more nodes");
        // The reference survives a file round trip, and a file naming a missing workload opens.
        auto back = design_from_json(design_to_json(x), "f.json", &cat);
        QVERIFY2(back.ok(), back.error_text().c_str());
        QCOMPARE(back->fleet.training.duration_from, std::string("gone"));
    }

    // Issue 23: bursting to spot bills the offer's spot price and redoes the work spot
    // preemptions lose; on demand bills the on-demand price. The same arrivals burst either way.
    void fleetBurstsToSpot() {
        auto d = cl::test::preset("h100-ndr-2node");
        d.economics.cloud_offer = "aws-p5.48xlarge";
        d.fleet.finetune.arrival_rate_per_hour = 0.6; // 8-GPU jobs of 6 h on 2 nodes: busy
        d.fleet.finetune.gpus_per_job = 16;           // two nodes: a gang of two spot nodes
        d.fleet.burst_after_h = 2;
        d.fleet.horizon_days = 60;
        const Evaluation od = evaluate(d, cat_);
        QVERIFY2(od.fleet.has_value(), od.fleet_error.c_str());
        QVERIFY(od.tco && od.tco->has_cloud);
        QVERIFY(od.fleet->jobs_burst > 0);
        QVERIFY(!od.fleet->burst_on_spot);
        QCOMPARE(od.fleet->burst_gpu_hours_redone, 0.0);
        double od_rate = 0, spot_rate = 0;
        for (const auto& o : od.tco->cloud_options) {
            if (o.commitment == Commitment::on_demand)
                od_rate = o.rate_per_gpu_hour;
            if (o.commitment == Commitment::spot)
                spot_rate = o.rate_per_gpu_hour;
        }
        QVERIFY(od_rate > 0 && spot_rate > 0 && spot_rate < od_rate);
        QCOMPARE(od.fleet->burst_usd_per_gpu_hour, od_rate);
        QVERIFY(std::abs(od.fleet->burst_usd - od.fleet->burst_gpu_hours * od_rate) < 1e-6);

        d.fleet.burst_to = BurstCapacity::spot;
        const Evaluation sp = evaluate(d, cat_);
        QVERIFY2(sp.fleet.has_value(), sp.fleet_error.c_str());
        QVERIFY(sp.fleet->burst_on_spot);
        QCOMPARE(sp.fleet->jobs_burst, od.fleet->jobs_burst);
        // Each two-node job redoes 2 x (preemptions per node-hour x hours lost) of its work.
        const double redo = 2 * d.economics.spot_preemptions_per_node_day / 24 *
                            d.economics.spot_lost_hours_per_preemption;
        QVERIFY(std::abs(sp.fleet->burst_gpu_hours - od.fleet->burst_gpu_hours * (1 + redo)) <
                1e-6 * sp.fleet->burst_gpu_hours);
        QVERIFY(std::abs(sp.fleet->burst_gpu_hours_redone - od.fleet->burst_gpu_hours * redo) <
                1e-6 * sp.fleet->burst_gpu_hours);
        QCOMPARE(sp.fleet->burst_usd_per_gpu_hour, spot_rate);
        QVERIFY(sp.fleet->burst_usd < od.fleet->burst_usd); // cheaper even with the redone work
        // The report says where the bursts ran and what spot redid.
        bool said = false;
        for (const auto& tb : report_tables(d, sp, cat_))
            if (tb.id == "fleet")
                for (const auto& row : tb.rows)
                    said = said || row[0] == "gpu_hours_redone_after_spot_preemptions";
        QVERIFY(said);
        // Spot without an offer that has a spot price: the bursts are not priced, and why.
        d.economics.cloud_offer.clear();
        d.economics.price_per_gpu_hour = 4;
        const Evaluation typed = evaluate(d, cat_);
        QVERIFY(typed.fleet.has_value());
        QCOMPARE(typed.fleet->burst_usd, 0.0);
        QVERIFY2(typed.fleet->burst_unpriced.find("spot price") != std::string::npos,
                 typed.fleet->burst_unpriced.c_str());
        d.fleet.burst_to = BurstCapacity::on_demand; // a typed price is an on-demand price
        const Evaluation typed_od = evaluate(d, cat_);
        QCOMPARE(typed_od.fleet->burst_usd_per_gpu_hour, 4.0);
    }

    // Issue 23: an imported job trace travels in the design file (format 1.7), replays instead
    // of the classes, and a bad job in a hand-edited file is refused with its place.
    void fleetTraceRoundTrip() {
        QFile f(QStringLiteral(CLUSTERLENS_SOURCE_DIR "/tests/data/traces/helios_sample.csv"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const std::string csv = f.readAll().toStdString();
        auto tr = parse_helios_trace(csv, 8);
        QVERIFY2(tr.ok(), tr.error_text().c_str());
        auto d = cl::test::preset("h100-ndr-2node");
        const std::size_t jobs = tr->jobs.size();
        d.fleet.trace.jobs = std::make_shared<const FleetTrace>(std::move(tr).value());
        d.fleet.trace.name = "helios_sample.csv";
        d.fleet.horizon_days = 2;
        d.fleet.warmup_days = 0;
        QVERIFY(d.fleet.active());
        const std::string text = design_to_json(d);
        QVERIFY(text.find("\"trace\"") != std::string::npos);
        auto back = design_from_json(text, "t.json", &cat_);
        QVERIFY2(back.ok(), back.error_text().c_str());
        QVERIFY(back->fleet.trace.jobs != d.fleet.trace.jobs); // read anew,
        QVERIFY(back->fleet == d.fleet);                       // the same jobs
        QCOMPARE(back->fleet.trace.jobs->jobs.size(), jobs);
        // Replayed on the drawn cluster: the trace's classes, its jobs, its name.
        const Evaluation ev = evaluate(*back, cat_);
        QVERIFY2(ev.fleet.has_value(), ev.fleet_error.c_str());
        QCOMPARE(ev.fleet->trace_jobs, static_cast<std::int64_t>(jobs));
        QCOMPARE(ev.fleet->trace_name, std::string("helios_sample.csv"));
        QCOMPARE(ev.fleet->classes.size(), d.fleet.trace.jobs->classes.size());
        QVERIFY(ev.fleet->gpu_hours_used > 0);
        // A hand-edited file: a job with 0 GPUs, a class out of range, a negative run time.
        for (const char* bad : {"[0, 0, 60, 0]", "[0, 1, 60, 9]", "[0, 1, -5, 0]", "[0, 1, 60]"}) {
            std::string t = text;
            const auto at = t.find("\"jobs\": [");
            QVERIFY(at != std::string::npos);
            const auto first = t.find('[', at + 9);
            const auto close = t.find(']', first + 1);
            t.replace(first, close + 1 - first, bad);
            auto refused = design_from_json(t, "t.json", &cat_);
            QVERIFY2(!refused.ok(), bad);
            QVERIFY2(refused.error_text().find("fleet.trace.jobs[0]") != std::string::npos,
                     refused.error_text().c_str());
        }
        // MIG nodes keep their partition beside a trace (its jobs take whole GPUs): the replay
        // runs on the other nodes and the MIG instances idle, as time-sliced nodes do (the Fleet
        // caption says so; helper-36 found the replay refused outright).
        back->fleet.mig_nodes = 1;
        {
            const Evaluation mig = evaluate(*back, cat_);
            QVERIFY2(mig.fleet.has_value(), mig.fleet_error.c_str());
            QVERIFY(mig.fleet->trace_jobs > 0 && mig.fleet->mig_instances > 0);
            QCOMPARE(mig.fleet->mig_utilization, 0.0);
        }
        // A PAI trace (format 1.9): jobs on part of a GPU keep their share in the file (a fifth
        // element) and replay on the design's time-sliced node.
        QFile pf(QStringLiteral(CLUSTERLENS_SOURCE_DIR "/tests/data/traces/pai_task_sample.csv"));
        QVERIFY(pf.open(QIODevice::ReadOnly));
        auto pai = parse_job_trace(pf.readAll().toStdString(), 8);
        QVERIFY2(pai.ok(), pai.error_text().c_str());
        auto p = cl::test::preset("h100-ndr-2node");
        p.fleet.trace.jobs = std::make_shared<const FleetTrace>(std::move(pai).value());
        p.fleet.trace.name = "pai_task_sample.csv";
        p.fleet.timeslice_nodes = 1;
        p.fleet.warmup_days = 0;
        const std::string ptext = design_to_json(p);
        auto pback = design_from_json(ptext, "t.json", &cat_);
        QVERIFY2(pback.ok(), pback.error_text().c_str());
        QVERIFY(pback->fleet == p.fleet); // the shares too (TraceJob::operator==)
        QCOMPARE(pback->fleet.trace.jobs->jobs.front().gpu_share, 0.5); // the README's row
        const Evaluation pev = evaluate(*pback, cat_);
        QVERIFY2(pev.fleet.has_value(), pev.fleet_error.c_str());
        QVERIFY(pev.fleet->timeslice_utilization > 0);
        for (const char* bad :
             {"[0, 1, 60, 0, 1.5]", "[0, 1, 60, 0, 0]", "[0, 1, 60, 0, 0.5, 1]"}) {
            std::string t = ptext;
            const auto at = t.find("\"jobs\": [");
            const auto first = t.find('[', at + 9);
            const auto close = t.find(']', first + 1);
            t.replace(first, close + 1 - first, bad);
            auto refused = design_from_json(t, "t.json", &cat_);
            QVERIFY2(!refused.ok() &&
                         refused.error_text().find("share of the GPU") != std::string::npos,
                     bad);
        }
    }

    void fleetMixRoundTrip() {
        auto d = cl::test::preset("h100-ndr-2node");
        QVERIFY(design_to_json(d).find("\"fleet\"") == std::string::npos);
        d.fleet.finetune.arrival_rate_per_hour = 0.25;
        d.fleet.interactive.gpus_per_job = 2;
        d.fleet.policy = cl::model::FleetPolicy::priority;
        d.fleet.feed_tco = false;
        d.fleet.finetune.quota_gpus = 16;                  // format 1.5
        d.fleet.leaf_required = true;                      // format 1.6
        d.fleet.burst_to = cl::model::BurstCapacity::spot; // format 1.7
        const std::string text = design_to_json(d);
        QVERIFY(text.find("\"burst_to\": \"spot\"") != std::string::npos);
        QVERIFY(text.find("\"quota_gpus\": 16") != std::string::npos);
        QVERIFY(text.find("\"leaf_required\": true") != std::string::npos);
        QVERIFY(text.find("\"fleet\"") != std::string::npos);
        auto back = design_from_json(text, "f.json", &cat_);
        QVERIFY2(back.ok(), back.error_text().c_str());
        QVERIFY(back->fleet == d.fleet);
        QVERIFY(back->fleet.active());
        // A bad value is refused with its place.
        std::string bad = text;
        const auto at = bad.find("0.25");
        QVERIFY(at != std::string::npos);
        bad.replace(at, 4, "-3");
        auto refused = design_from_json(bad, "f.json", &cat_);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error_text().find("fleet.finetune.arrival_rate_per_hour") !=
                     std::string::npos,
                 refused.error_text().c_str());
    }

    // helper-18: "Host memory bandwidth" showed 89,600,000,000,000,000,...0 GB/s (its display
    // scale was 1e-9, not 1e9). Every number field shows its default as a readable number in
    // its display unit, inside the range its editor allows.
    void displayScalesAreReadable() {
        for (const auto& f : cl::model::schema()) {
            if (f.type != cl::model::FieldType::number && f.type != cl::model::FieldType::integer)
                continue;
            const double* v = std::get_if<double>(&f.default_value);
            if (!v)
                continue;
            const double shown = *v / f.display_scale;
            QVERIFY2(std::abs(shown) < 1e13, f.key.c_str());
            QVERIFY2(shown >= f.min / f.display_scale - 1e-9 &&
                         shown <= f.max / f.display_scale + 1e-9,
                     f.key.c_str());
            if (f.display_unit.find("GB/s") != std::string::npos)
                QCOMPARE(f.display_scale, 1e9);
            // helper-18: "0.800 fraction" -- fractions are read as percentages
            QVERIFY2(f.display_unit.find("fraction") == std::string::npos, f.key.c_str());
        }
        const auto* u = cl::model::find_field(cl::model::Section::economics, "utilization");
        QVERIFY(u);
        QCOMPARE(cl::model::format_value(*u, 0.8), std::string("80.0 %"));
    }

    void plainNumbers() {
        QCOMPARE(units::format_plain(8.128e13), std::string("81280000000000"));
        QCOMPARE(units::format_plain(1.0052304e18), std::string("1005230400000000000"));
        QCOMPARE(units::format_plain(0.08145), std::string("0.08145"));
        QCOMPARE(units::format_plain(-3.25), std::string("-3.25"));
        QCOMPARE(units::format_plain(1016), std::string("1016"));
        QCOMPARE(units::format_plain(2.0 / 3.0), std::string("0.6666666667"));
        QCOMPARE(units::format_plain(0), std::string("0"));
        QCOMPARE(units::format_plain(8e-9), std::string("0.000000008")); // a per-token cost
        QCOMPARE(units::format_plain(6e-12), std::string("0.000000000006"));
        QCOMPARE(units::format_plain(1e-14), std::string("1e-14")); // beyond: as before
        QCOMPARE(units::format_plain(5e21), std::string("5e+21"));
        // Token counts as people write them (helper-18: "10.0 G tokens" and "10.0 Gtokens")
        QCOMPARE(units::format_tokens(1e10), std::string("10.0 B tokens"));
        QCOMPARE(units::format_tokens(2e12), std::string("2.0 T tokens"));
        QCOMPARE(units::format_tokens(5e8), std::string("500.0 M tokens"));
        QCOMPARE(units::format_tokens(8192), std::string("8,192 tokens"));
    }

    // Text from a file as screens and reports show it (issue 17): whole when short, else its
    // start cut at a character boundary and the whole size.
    void excerptOfLongText() {
        QCOMPARE(units::excerpt("short", 10), std::string("short"));
        QCOMPARE(units::excerpt("0123456789", 10), std::string("0123456789"));
        const std::string e = units::excerpt(std::string(9, 'a') + "\xc3\xa9" + "bbbb", 10);
        QCOMPARE(e, std::string(9, 'a') + "\xe2\x80\xa6 (" + units::format_bytes(15) +
                        " in all, shown in part)");
        const std::string big(66060000, 'x');
        const std::string b = units::excerpt(big);
        QVERIFY(b.size() < 2100);
        QVERIFY(b.find("66.1 MB in all") != std::string::npos);
    }
    // Issue 21: a catalog source as a person reads it, without the commit it was read at.
    void readableSource() {
        QCOMPARE(units::readable_source("github:jax-ml/scaling-book gpus.md @1a55377 ('How to "
                                        "Think About GPUs', 2025-08-18)"),
                 std::string("'How to Think About GPUs', 2025-08-18 (jax-ml/scaling-book, "
                             "gpus.md)"));
        QCOMPARE(units::readable_source("NVIDIA H100 datasheet (2023)"),
                 std::string("NVIDIA H100 datasheet (2023)"));
        QCOMPARE(units::readable_source("Megatron-LM @0123456789abcdef0123 arguments.py"),
                 std::string("Megatron-LM arguments.py"));
        // A word starting with @ that is not a commit stays.
        QCOMPARE(units::readable_source("see @deadline"), std::string("see @deadline"));
    }
    void initTestCase() { cat_ = cl::test::bundled_catalog(); }

    // helper-47: the Model list ran in the catalog's order (Megatron first, DeepSeek near the
    // end). By name, numbers by value.
    void modelListInNameOrder() {
        auto d = design_from_json(with(kMinimal, "\"workloads\": []",
                                       "\"workloads\": [{\"id\": \"s\", \"kind\": "
                                       "\"inference\", \"model\": \"llama3-70b\"}]"),
                                  "t.json", &cat_);
        QVERIFY2(d.ok(), d.error_text().c_str());
        const Field* f = nullptr;
        for (Section sec : {Section::workload, Section::inference})
            if (!f)
                f = find_field(sec, "model");
        QVERIFY(f);
        std::vector<std::string> ids;
        for (const auto& [value, label] : field_choices(*f, *d, "s", cat_))
            ids.push_back(value);
        QCOMPARE(ids.size(), cat_.models().size());
        const auto at = [&](const char* id) {
            return std::find(ids.begin(), ids.end(), id) - ids.begin();
        };
        QVERIFY(at("bert-base-cased") < at("deepseek-v3"));
        QVERIFY(at("deepseek-r1") < at("deepseek-v3"));
        QVERIFY(at("gpt-oss-20b") < at("gpt-oss-120b"));
        QVERIFY(at("llama2-70b") < at("llama3-8b"));
        QVERIFY(at("megatron-gpt-1.7b") > at("llama4-maverick"));
        QVERIFY(at("qwen3-8b") < at("qwen3-32b"));
    }

    // helper-18: the draft list offered BERT base and Megatron GPT 1T for Llama 3 70B. A draft
    // shares the target's vocabulary and is smaller; another is refused with that reason.
    void draftModelsShareTheVocabulary() {
        auto d = design_from_json(with(kMinimal, "\"workloads\": []",
                                       "\"workloads\": [{\"id\": \"s\", \"kind\": "
                                       "\"inference\", \"model\": \"llama3-70b\"}]"),
                                  "t.json", &cat_);
        QVERIFY2(d.ok(), d.error_text().c_str());
        const Field* f = find_field(Section::inference, "speculative_draft");
        QVERIFY(f);
        std::set<std::string> ids;
        for (const auto& [value, label] : field_choices(*f, *d, "s", cat_))
            ids.insert(value);
        QVERIFY(ids.count("")); // none
        QVERIFY(ids.count("llama3-8b") && ids.count("llama3.2-1b"));
        QVERIFY(!ids.count("bert-base-cased") && !ids.count("megatron-gpt-1t-kort"));
        QVERIFY(!ids.count("llama3-70b") && !ids.count("llama3.1-405b"));
        auto bad = check_value(*f, FieldValue{std::string("bert-base-cased")}, *d, "s", &cat_);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error_text().find("vocabulary") != std::string::npos,
                 bad.error_text().c_str());
        QVERIFY(check_value(*f, FieldValue{std::string("llama3-8b")}, *d, "s", &cat_).ok());
    }

    void loadsMinimal() {
        auto d = design_from_json(kMinimal, "t.json", &cat_);
        QVERIFY2(d.ok(), d.error_text().c_str());
        QCOMPARE(d->devices.size(), std::size_t(2));
        QCOMPARE(d->devices[0].count, 4);
        const Evaluation ev = evaluate(*d, cat_);
        QCOMPARE(ev.topology.gpus, 32.0);
        QCOMPARE(ev.topology.nodes, 4.0);
        QCOMPARE(ev.topology.switches, 1.0);
    }

    void errors_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        const std::string m = kMinimal;
        QTest::newRow("empty") << ""
                               << "t.json: empty input: expected a JSON object";
        QTest::newRow("truncated") << QString::fromStdString(m.substr(0, m.size() / 2))
                                   << "t.json: malformed JSON: parse error at line 4";
        QTest::newRow("not an object") << "[1,2]"
                                       << "expected an object, found array";
        QTest::newRow("unknown link target")
            << QString::fromStdString(with(m, R"("to": "leaf")", R"("to": "leaf9")"))
            << R"(links[0].to: unknown device "leaf9")";
        QTest::newRow("wrong type")
            << QString::fromStdString(with(m, R"("count": 4)", R"("count": "four")"))
            << "devices[0].count: expected an integer, found string";
        QTest::newRow("switch tier")
            << QString::fromStdString(
                   with(m, R"("catalog": "qm9700")", R"("catalog": "qm9700", "role": "tor")"))
            << R"(devices[1].role: expected one of "", leaf, spine, core; found "tor")";
        QTest::newRow("link without type")
            << QString::fromStdString(with(m, R"("type": "ib-ndr", )", ""))
            << "links[0].type: missing (required)";
        // Names and ids are drawn on cards, legends and titles: a megabyte one (issue 17: 10 MB
        // names took the GUI 28 s and 1.6 GB) is refused with its size; the error message
        // quotes at most the start of a long value.
        const std::string longName(2000, 'N');
        QTest::newRow("long design name")
            << QString::fromStdString(with(m, R"("name": "t")", "\"name\": \"" + longName + "\""))
            << "name: longer than 1,000 bytes (found 2.0 kB)";
        QTest::newRow("long device name")
            << QString::fromStdString(
                   with(m, R"("id": "leaf",)", "\"id\": \"leaf\", \"name\": \"" + longName + "\","))
            << "devices[1].name: longer than 1,000 bytes";
        QTest::newRow("long id") << QString::fromStdString(
                                        with(m, R"("id": "l1")", "\"id\": \"" + longName + "\""))
                                 << "links[0].id: longer than 256 bytes (found 2.0 kB)";
        QTest::newRow("long unknown id quoted in part")
            << QString::fromStdString(
                   with(m, R"("to": "leaf")", "\"to\": \"" + std::string(5000, 'x') + "\""))
            << "shown in part)";
        QTest::newRow("negative count")
            << QString::fromStdString(with(m, R"("count": 4)", R"("count": -4)"))
            << "devices[0].count: value -4 is outside [1, 1000000000]";
        QTest::newRow("1e308 count")
            << QString::fromStdString(with(m, R"("count": 4)", R"("count": 1e308)"))
            << "devices[0].count: expected an integer in [1, 1000000000], found 1e+308";
        QTest::newRow("NaN token")
            << QString::fromStdString(with(m, R"("count": 4)", R"("count": NaN)"))
            << "t.json: malformed JSON: parse error at line 3, column 70: syntax error while "
               "parsing value - invalid literal";
        QTest::newRow("Infinity token")
            << QString::fromStdString(with(m, R"("count": 4)", R"("count": Infinity)"))
            << "t.json: malformed JSON: parse error at line 3, column 70: syntax error while "
               "parsing value - invalid literal";
        QTest::newRow("duplicate id")
            << QString::fromStdString(with(m, R"("id": "leaf")", R"("id": "node")"))
            << R"(devices[1].id: duplicate id "node" (first used at devices[0]))";
        QTest::newRow("unknown catalog id")
            << QString::fromStdString(with(m, R"("catalog": "qm9700")", R"("catalog": "qm9701")"))
            << R"(devices[1].catalog: unknown switches id "qm9701" (did you mean "qm9700"?))";
        QTest::newRow("unknown link type")
            << QString::fromStdString(with(m, R"("type": "ib-ndr")", R"("type": "ib-nd")"))
            << R"(links[0].type: unknown link type "ib-nd" (did you mean "ib-ndr"?))";
        QTest::newRow("newer major")
            << QString::fromStdString(with(m, R"("version": "1.0")", R"("version": "2.0")"))
            << "version: this design is format version 2.0, newer than this ClusterLens reads "
               "(1.x); please update ClusterLens";
        // Versions are parsed strictly (issue 17 item 6: sscanf read these as 1.0 and 0.5).
        for (const char* bad : {"4294967297.0", "1.0-evil.9", "+1.+1", "-0.5", "1", "1.", ".1",
                                "1.0.0", " 1.0", "1.0 ", "0x1.0"})
            QTest::newRow((std::string("version ") + bad).c_str())
                << QString::fromStdString(
                       with(m, R"("version": "1.0")", std::string(R"("version": ")") + bad + "\""))
                << QString::fromStdString(
                       std::string(R"(version: expected "MAJOR.MINOR", found ")") + bad + "\"");
        QTest::newRow("wrong format")
            << QString::fromStdString(with(m, "clusterlens-design", "other"))
            << R"(format: expected "clusterlens-design", found "other")";
        QTest::newRow("containment cycle")
            << QString::fromStdString(with(
                   m, R"({"id": "node", "kind": "system", "catalog": "dgx-h100", "count": 4},)",
                   R"({"id": "node", "kind": "system", "catalog": "dgx-h100", "count": 4},
                      {"id": "g1", "kind": "group", "parent": "g2"},
                      {"id": "g2", "kind": "group", "parent": "g1"},)"))
            << R"(devices[1].parent: containment cycle through "g1")";
        // Silently accepted before (issue 17 item 7): each is now an error naming its path.
        QTest::newRow("count null")
            << QString::fromStdString(with(m, R"("count": 4)", R"("count": null)"))
            << "devices[0].count: found null";
        QTest::newRow("duplicate key")
            << QString::fromStdString(with(m, R"("count": 4)", R"("count": 8, "count": 1)"))
            << "devices[0].count: duplicate key";
        QTest::newRow("duplicate key in a link")
            << QString::fromStdString(with(m, R"("count": 8})", R"("count": 8, "count": 8})"))
            << "links[0].count: duplicate key";
        QTest::newRow("misspelled section")
            << QString::fromStdString(
                   with(m, R"("workloads": [])", R"("workloads": [], "economcs": {"pue": 1.1})"))
            << R"(economcs: unknown key (did you mean "economics"?))";
        QTest::newRow("misspelled field")
            << QString::fromStdString(
                   with(m, R"("workloads": [])", R"("workloads": [], "economics": {"pua": 1.1})"))
            << R"(economics.pua: unknown key (did you mean "pue"?))";
        QTest::newRow("inference with a training block")
            << QString::fromStdString(
                   with(m, R"("workloads": [])",
                        R"("workloads": [{"id": "w", "kind": "inference", "model": "llama3-8b",
                       "inference": {"tp": 1}, "training": {"tp": 8}}])"))
            << "workloads[0].training: an inference workload has no training settings";
        QTest::newRow("GPUs beyond the slots")
            << QString::fromStdString(
                   with(m, R"({"id": "leaf", "kind": "switch", "catalog": "qm9700"})",
                        R"({"id": "leaf", "kind": "switch", "catalog": "qm9700"},
                      {"id": "box", "kind": "server", "gpu_slots": 2},
                      {"id": "g", "kind": "gpu", "catalog": "h100-sxm", "parent": "box",
                       "count": 64})"))
            << R"(devices[2].gpu_slots: "box" has 2 GPU slots but holds 64 GPUs)";
        {
            std::string nested = "{\"id\": \"g0\", \"kind\": \"group\", \"count\": 1000000000}";
            for (int i = 1; i < 7; ++i)
                nested += ", {\"id\": \"g" + std::to_string(i) +
                          "\", \"kind\": \"group\", \"count\": 1000000000, \"parent\": \"g" +
                          std::to_string(i - 1) + "\"}";
            QTest::newRow("replicas past the limit")
                << QString::fromStdString(
                       with(m, R"({"id": "leaf", "kind": "switch", "catalog": "qm9700"})",
                            R"({"id": "leaf", "kind": "switch", "catalog": "qm9700"}, )" + nested))
                << "devices[3].count: its count times the counts of the groups that contain it";
        }
    }
    void errors() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const QString got = firstError(text.toStdString());
        QVERIFY2(got.contains(expected),
                 qPrintable(QStringLiteral("expected \"%1\" in \"%2\"").arg(expected, got)));
    }

    void reportsEveryError() {
        std::string m = with(kMinimal, R"("to": "leaf")", R"("to": "leaf9")");
        m = with(m, R"("from": "node")", R"("from": "node7")");
        auto d = design_from_json(m, "t.json", &cat_);
        QVERIFY(!d.ok());
        QCOMPARE(d.errors().size(), std::size_t(2));
    }

    void deepNesting() {
        std::string deep(100000, '[');
        deep += std::string(100000, ']');
        QVERIFY(firstError(deep).contains("nesting deeper than"));
    }

    void hugeFile() {
        // 100 MB: rejected by size before parsing.
        std::string big = "{\"format\": \"clusterlens-design\", \"version\": \"1.0\", \"name\": \"";
        big.append(100u * 1000u * 1000u, 'x');
        big += "\"}";
        QVERIFY(firstError(big).contains("larger than the 64 MiB limit"));
    }

    // Unset is its own state (issue 17 item 4): format 1.0 wrote it as 0 (read as unset); from
    // 1.1 an unset field has no key, and a 0 is refused with what leaving it out means.
    void unsetIsNotZero() {
        const std::string old = with(kMinimal, R"("workloads": [])",
                                     R"("workloads": [], "reliability": {"mtbf_hours": 0},
                                        "economics": {"server_price_usd": 0, "pue": 1.2})");
        auto d = design_from_json(old, "t.json", &cat_);
        QVERIFY2(d.ok(), d.error_text().c_str());
        QCOMPARE(d->reliability.mtbf_hours, 0.0);
        const std::string saved = design_to_json(*d);
        QVERIFY(saved.find("\"version\": \"1.24\"") != std::string::npos); // the current format
        QVERIFY(saved.find("mtbf_hours") == std::string::npos);
        QVERIFY(saved.find("server_price_usd") == std::string::npos);
        QVERIFY(saved.find("\"pue\": 1.2") != std::string::npos);
        QVERIFY(design_from_json(saved, "t.json", &cat_).ok());
        const std::string v11 = with(old, R"("version": "1.0")", R"("version": "1.1")");
        auto refused = design_from_json(v11, "t.json", &cat_);
        QVERIFY(!refused.ok());
        const std::string text = refused.error_text();
        QVERIFY2(text.find("reliability.mtbf_hours: 0 is not a value of this field: leave the "
                           "key out to use the failure rate") != std::string::npos,
                 text.c_str());
        QVERIFY(text.find("economics.server_price_usd: 0 is not a value") != std::string::npos);
        // A value that is given is kept as given.
        auto given = design_from_json(with(v11, R"("mtbf_hours": 0)", R"("mtbf_hours": 0.5)"),
                                      "t.json", &cat_);
        QVERIFY(!given.ok()); // server_price_usd 0 is still refused
        auto both = design_from_json(with(with(v11, R"("mtbf_hours": 0)", R"("mtbf_hours": 0.5)"),
                                          R"("server_price_usd": 0, )", ""),
                                     "t.json", &cat_);
        QVERIFY2(both.ok(), both.error_text().c_str());
        QCOMPARE(both->reliability.mtbf_hours, 0.5);
    }

    // The index the analysis uses (issue 17 item 8) agrees with the design's own lookups: ids,
    // children, multiplicities along nested groups, and cycles.
    void indexAgreesWithDesign() {
        for (const char* id :
             {"llama3-16k-h100", "dgx-h100-4su", "h100-ndr-2node", "gb200-nvl72"}) {
            const Design d = cl::test::preset(id);
            const DesignIndex idx(d);
            for (const Device& dev : d.devices) {
                QCOMPARE(idx.device(dev.id), d.device(dev.id));
                QCOMPARE(idx.multiplicity(dev), d.multiplicity(dev));
                QVERIFY(!idx.in_cycle(dev));
                for (const Device* ch : idx.children(dev.id))
                    QCOMPARE(ch->parent, dev.id);
            }
            QVERIFY(idx.device("no such id") == nullptr);
        }
        Design chain;
        for (int i = 0; i < 10000; ++i) {
            Device g;
            g.id = "g" + std::to_string(i);
            g.kind = DeviceKind::group;
            g.count = i % 1000 == 0 ? 2 : 1;
            if (i)
                g.parent = "g" + std::to_string(i - 1);
            chain.devices.push_back(g);
        }
        const DesignIndex ci(chain);
        QCOMPARE(ci.multiplicity(chain.devices.back()), 1024.0); // 2^10
        QCOMPARE(ci.multiplicity(chain.devices.back()), chain.multiplicity(chain.devices.back()));
        chain.devices.front().parent = "g9999"; // close the chain into a loop
        const DesignIndex loop(chain);
        QVERIFY(loop.in_cycle(chain.devices[5000]));
    }

    // Design::device()/link() look up through a cache (issue 17 item 8): it must stay right
    // across renames, removals, insertions, reallocation and copies.
    void lookupCacheFollowsEdits() {
        Design d = cl::test::preset("dgx-h100-4su");
        const std::string first = d.devices.front().id;
        QCOMPARE(d.device(first), &d.devices.front());
        d.devices.front().id = "renamed"; // in place: same buffer, same size
        QVERIFY(d.device(first) == nullptr);
        QCOMPARE(d.device("renamed"), &d.devices.front());
        d.devices.erase(d.devices.begin()); // everything shifts down by one
        QVERIFY(d.device("renamed") == nullptr);
        for (const Device& dev : d.devices)
            QCOMPARE(d.device(dev.id), &dev);
        Device extra;
        extra.kind = DeviceKind::switch_;
        for (int i = 0; i < 100; ++i) { // reallocates
            extra.id = "extra" + std::to_string(i);
            d.devices.push_back(extra);
        }
        QCOMPARE(d.device("extra42"), &d.devices[d.devices.size() - 58]);
        const Design copy = d; // a copy looks up in its own vectors
        QCOMPARE(copy.device("extra42"), &copy.devices[copy.devices.size() - 58]);
        QVERIFY(copy == d);
        if (!d.links.empty()) {
            const std::string l = d.links.back().id;
            QCOMPARE(d.link(l), &d.links.back());
            d.links.pop_back();
            QVERIFY(d.link(l) == nullptr);
        }
        // A repeated id finds the first of them (as a scan does), through the cache and the
        // index alike; 50,000 copies of one id build in linear time (the table keeps one slot).
        Design dup;
        for (int i = 0; i < 50000; ++i) {
            extra.id = i % 2 ? "twin" : "x" + std::to_string(i);
            extra.count = i + 1;
            dup.devices.push_back(extra);
        }
        QCOMPARE(dup.device("twin"), &dup.devices[1]);
        QCOMPARE(dup.device("twin"), &dup.devices[1]); // a hit in the built table
        QCOMPARE(DesignIndex(dup).device("twin"), &dup.devices[1]);
        QCOMPARE(DesignIndex(dup).device("x49998"), &dup.devices[49998]);
        QVERIFY(DesignIndex(dup).device("x49999") == nullptr);
        QVERIFY(dup.device("") == nullptr);
    }

    // Entities a file gives no position are laid out on a grid (issue 17 item 8: 100,000
    // generated devices all sat at (0, 0)), below what the file places; positions given are
    // kept; members of one group are placed together.
    void entitiesWithoutPositionAreLaidOut() {
        std::string text = "{\"format\": \"clusterlens-design\", \"version\": \"1.1\", "
                           "\"devices\": [{\"id\": \"placed\", \"kind\": \"switch\", "
                           "\"catalog\": \"qm9700\", \"position\": [100, 50]}, "
                           "{\"id\": \"pod\", \"kind\": \"group\"}";
        for (int i = 0; i < 40; ++i)
            text += ", {\"id\": \"s" + std::to_string(i) +
                    "\", \"kind\": \"system\", \"catalog\": \"dgx-h100\", \"parent\": \"pod\"}";
        for (int i = 0; i < 10; ++i)
            text += ", {\"id\": \"t" + std::to_string(i) +
                    "\", \"kind\": \"switch\", \"catalog\": \"qm9700\"}";
        text += "]}";
        auto laid = design_from_json(text, "t.json", &cat_);
        QVERIFY2(laid.ok(), laid.error_text().c_str());
        QCOMPARE(laid->device("placed")->position, (Point{100, 50}));
        std::set<std::pair<double, double>> spots;
        for (const Device& dev : laid->devices) {
            QVERIFY2(spots.insert({dev.position.x, dev.position.y}).second, dev.id.c_str());
            if (dev.id != "placed")
                QVERIFY(dev.position.y > 50 + 70); // below the placed switch
        }
        // The pod's 40 members form one block that no other device falls inside.
        double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
        for (const Device& dev : laid->devices)
            if (dev.parent == "pod") {
                x0 = std::min(x0, dev.position.x);
                x1 = std::max(x1, dev.position.x);
                y0 = std::min(y0, dev.position.y);
                y1 = std::max(y1, dev.position.y);
            }
        for (const Device& dev : laid->devices)
            if (dev.parent != "pod")
                QVERIFY2(!(dev.position.x >= x0 && dev.position.x <= x1 && dev.position.y >= y0 &&
                           dev.position.y <= y1),
                         dev.id.c_str());
        // Saved, the positions are written and load unchanged.
        auto again = design_from_json(design_to_json(*laid), "t.json", &cat_);
        QVERIFY(again.ok());
        QVERIFY(*again == *laid);
    }

    // Devices and links are converted while the text is parsed (issue 17 item 8): errors
    // still name their JSON paths, duplicate keys inside an element are still caught, and the
    // header may come after the arrays (our writer sorts keys: "devices" before "version").
    void streamedEntitiesKeepPathsAndChecks() {
        const std::string tail = "\"format\": \"clusterlens-design\", \"version\": \"1.1\"}";
        const std::string bad_kind =
            "{\"devices\": [{\"id\": \"a\", \"kind\": \"switch\", \"catalog\": \"qm9700\"}, "
            "{\"id\": \"b\", \"kind\": \"toaster\"}], " +
            tail;
        auto k = design_from_json(bad_kind, "t.json", &cat_);
        QVERIFY(!k.ok());
        QVERIFY2(k.error_text().find("devices[1].kind") != std::string::npos,
                 k.error_text().c_str());
        const std::string dup = "{\"links\": [{\"id\": \"l\", \"from\": \"a\", \"to\": \"b\", "
                                "\"type\": \"ib-ndr\", \"count\": 2, \"count\": 1}], " +
                                tail;
        auto du = design_from_json(dup, "t.json", &cat_);
        QVERIFY(!du.ok());
        QVERIFY2(du.error_text().find("links[0].count") != std::string::npos &&
                     du.error_text().find("duplicate") != std::string::npos,
                 du.error_text().c_str());
        const std::string unknown =
            "{\"devices\": [{\"id\": \"a\", \"kind\": \"switch\", \"catalog\": \"qm9700\", "
            "\"cout\": 2}], " +
            tail;
        auto un = design_from_json(unknown, "t.json", &cat_);
        QVERIFY(!un.ok());
        QVERIFY2(un.error_text().find("devices[0].cout") != std::string::npos,
                 un.error_text().c_str());
        // "devices" that is not an array is reported, not streamed.
        auto obj = design_from_json("{\"devices\": {\"id\": \"a\"}, " + tail, "t.json", &cat_);
        QVERIFY(!obj.ok());
        QVERIFY2(obj.error_text().find("expected an array") != std::string::npos,
                 obj.error_text().c_str());
        // Every preset reads the same whichever way round its header is written.
        for (const char* id : {"llama3-16k-h100", "dgx-h100-4su", "gb200-nvl72"}) {
            const Design p = cl::test::preset(id);
            std::string text = design_to_json(p);
            auto again = design_from_json(text, "p", &cat_);
            QVERIFY(again.ok());
            QVERIFY(*again == p);
        }
    }

    // A JSON document that is not a design (helper-20, session 31: File > Open on
    // {"hello":[1,2,3]} listed "format: missing (required) / version: missing (required)"): one
    // error that names the file and says what it is not.
    void notADesignSaysSo() {
        auto d = design_from_json(R"({"hello": [1, 2, 3]})", "hello.json", &cat_);
        QVERIFY(!d.ok());
        QCOMPARE(d.errors().size(), std::size_t{1});
        QVERIFY2(d.error_text().find("hello.json is not a ClusterLens design file") !=
                     std::string::npos,
                 d.error_text().c_str());
        // With one of the keys it is a design with a broken header, and says which.
        auto half = design_from_json(R"({"format": "clusterlens-design"})", "h.json", &cat_);
        QVERIFY(!half.ok());
        QVERIFY2(half.error_text().find("version") != std::string::npos, half.error_text().c_str());
    }

    void newerMinorKeepsUnknownFields() {
        std::string m = with(kMinimal, R"("version": "1.0")", R"("version": "1.25")");
        m = with(m, R"("name": "t",)", R"("name": "t", "future_top": {"a": 1},)");
        m = with(m, R"("count": 4})", R"("count": 4, "future_field": [1, 2, 3]})");
        auto d = design_from_json(m, "t.json", &cat_);
        QVERIFY2(d.ok(), d.error_text().c_str());
        // Inside a workload's training and inference settings too.
        auto p = design_from_json(design_to_json(cl::test::preset("h100-ndr-2node")), "p", &cat_);
        QVERIFY(p.ok());
        std::string text = design_to_json(*p);
        text = with(text, R"("tokens":)", R"("future_training_knob": "x", "tokens":)");
        text = with(text, R"("version": "1.24")", R"("version": "1.25")"); // a newer minor's key
        auto withKnob = design_from_json(text, "p", &cat_);
        QVERIFY2(withKnob.ok(), withKnob.error_text().c_str());
        QVERIFY(design_to_json(*withKnob).find("future_training_knob") != std::string::npos);
        const std::string saved = design_to_json(*d);
        QVERIFY(saved.find("\"future_top\"") != std::string::npos);
        QVERIFY(saved.find("\"future_field\"") != std::string::npos);
        QVERIFY(saved.find("\"version\": \"1.25\"") != std::string::npos);
        auto again = design_from_json(saved, "t.json", &cat_);
        QVERIFY(again.ok());
        QVERIFY(*again == *d);
    }

    // Issue 20: an imported model travels in the design (format 1.4, "models"): a workload
    // names it, evaluation uses it, a save and a load give the same design, and a model the
    // design does not carry is an unknown model with the path of the workload's field.
    void importedModelsTravelWithTheDesign() {
        QFile f(QStringLiteral(CLUSTERLENS_SOURCE_DIR
                               "/tests/data/hf_configs/Qwen__Qwen3-30B-A3B.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        auto m = import_hf_config(std::string_view(text.constData(), text.size()), "config.json");
        QVERIFY2(m.ok(), m.error_text().c_str());
        m->id = "my-qwen3-moe";
        Design d = cl::test::preset("h100-ndr-2node");
        QVERIFY(!d.workloads.empty());
        d.models.push_back(*m);
        d.workloads[0].model = "my-qwen3-moe";
        const std::string saved = design_to_json(d);
        QVERIFY(saved.find("\"models\"") != std::string::npos);
        QVERIFY(saved.find("\"version\": \"1.24\"") != std::string::npos);
        auto back = design_from_json(saved, "t.json", &cat_);
        QVERIFY2(back.ok(), back.error_text().c_str());
        QCOMPARE(back->models.size(), std::size_t{1});
        ModelArch a = back->models[0], b = *m;
        a.raw_json.clear();
        b.raw_json.clear();
        QVERIFY(a == b); // every field and the provenance notes
        QCOMPARE(back->models[0].total_params(), m->total_params());
        QVERIFY(design_to_json(*back) == saved);
        const Evaluation ev = evaluate(*back, cat_);
        QVERIFY(ev.workloads[0].error.empty());
        QCOMPARE(ev.workloads[0].model, std::string("my-qwen3-moe"));
        // Without the model the file names an unknown model at the workload's field.
        Design without = *back;
        without.models.clear();
        auto bad = design_from_json(design_to_json(without), "t.json", &cat_);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error_text().find("workloads[0].model: unknown model \"my-qwen3-moe\"") !=
                     std::string::npos,
                 bad.error_text().c_str());
        // Two models with one id are refused.
        std::string twice = saved;
        const auto at = twice.find("\"models\": [") + 12;
        const auto end = twice.find("\n  ]", at);
        const std::string entry = twice.substr(at, end - at);
        twice.insert(end, "," + entry);
        auto dup = design_from_json(twice, "t.json", &cat_);
        QVERIFY(!dup.ok());
        QVERIFY2(dup.error_text().find("models[1].id: a second model") != std::string::npos,
                 dup.error_text().c_str());
    }

    // Session 46 (format 1.19): expert tensor parallelism defaults to 1, whole experts on each
    // GPU as NVIDIA's MoE recipes run them; a file of 1.18 or older without the key keeps its
    // meaning (0, the same as tp), and an explicit 0 is kept as given.
    void etpDefaultsToWholeExperts() {
        QCOMPARE(TrainingSpec{}.etp, 1);
        Design d = cl::test::preset("h100-ndr-2node");
        QVERIFY(!d.workloads.empty());
        QCOMPARE(d.workloads[0].training.etp, 1); // the bundled preset says so
        const std::string saved = design_to_json(d);
        QVERIFY(saved.find("\"etp\": 1") != std::string::npos);
        // Without the key: 1 in a 1.19 file, 0 in a 1.18 one.
        const std::string bare = with(saved, "\"etp\": 1,", "");
        QVERIFY(bare.find("\"etp\"") == std::string::npos);
        auto now = design_from_json(bare, "t.json", &cat_);
        QVERIFY2(now.ok(), now.error_text().c_str());
        QCOMPARE(now->workloads[0].training.etp, 1);
        auto old = design_from_json(with(bare, R"("version": "1.24")", R"("version": "1.18")"),
                                    "t.json", &cat_);
        QVERIFY2(old.ok(), old.error_text().c_str());
        QCOMPARE(old->workloads[0].training.etp, 0);
        // A 1.18 file that says 0 or 2 is read as it says, and saved as 1.19 with the value.
        auto zero = design_from_json(with(with(saved, "\"etp\": 1", "\"etp\": 0"),
                                          R"("version": "1.24")", R"("version": "1.18")"),
                                     "t.json", &cat_);
        QVERIFY2(zero.ok(), zero.error_text().c_str());
        QCOMPARE(zero->workloads[0].training.etp, 0);
        QVERIFY(design_to_json(*zero).find("\"etp\": 0") != std::string::npos);
    }

    // Session 49 (format 1.21): Megatron-Core's recompute modules round-trip as their own keys
    // (a 1.20 file has none: off, the attention core only, as it ran).
    void recomputeModulesFromFormat121() {
        Design d = cl::test::preset("h100-ndr-2node");
        QVERIFY(!d.workloads.empty());
        auto& t = d.workloads[0].training;
        QVERIFY(!t.recomputes_modules());
        t.recompute_layernorm = true;
        t.recompute_mlp = true;
        const std::string saved = design_to_json(d);
        QVERIFY(saved.find("\"recompute_layernorm\": true") != std::string::npos);
        QVERIFY(saved.find("\"recompute_moe_act\": false") != std::string::npos);
        auto back = design_from_json(saved, "t.json", &cat_);
        QVERIFY2(back.ok(), back.error_text().c_str());
        QVERIFY(*back == d);
        // A value of the wrong type is refused where it stands.
        auto bad = design_from_json(with(saved, "\"recompute_mlp\": true", "\"recompute_mlp\": 3"),
                                    "t.json", &cat_);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error_text().find("recompute_mlp") != std::string::npos ||
                     bad.error_text().find("Recompute dense MLP") != std::string::npos,
                 bad.error_text().c_str());
    }

    // Session 47 (format 1.20): a training workload trains the model's multi-token prediction
    // modules by default (training.mtp); a file of 1.19 or older without the key ran without.
    void mtpDefaultsOnFromFormat120() {
        QVERIFY(TrainingSpec{}.mtp);
        Design d = cl::test::preset("h100-ndr-2node");
        QVERIFY(!d.workloads.empty());
        // The preset is a file of an older format without the key: off, as it always ran.
        QVERIFY(!d.workloads[0].training.mtp);
        d.workloads[0].training.mtp = true;
        const std::string saved = design_to_json(d);
        QVERIFY(saved.find("\"mtp\": true") != std::string::npos);
        const std::string bare = with(saved, "\"mtp\": true,", "");
        QVERIFY(bare.find("\"mtp\"") == std::string::npos);
        auto now = design_from_json(bare, "t.json", &cat_);
        QVERIFY2(now.ok(), now.error_text().c_str());
        QVERIFY(now->workloads[0].training.mtp);
        auto old = design_from_json(with(bare, R"("version": "1.24")", R"("version": "1.19")"),
                                    "t.json", &cat_);
        QVERIFY2(old.ok(), old.error_text().c_str());
        QVERIFY(!old->workloads[0].training.mtp);
        // Saved again it says so, in the current format.
        const std::string resaved = design_to_json(*old);
        QVERIFY(resaved.find("\"mtp\": false") != std::string::npos);
        QVERIFY(resaved.find("\"version\": \"1.24\"") != std::string::npos);
        // A 1.19 file that says true is read as it says.
        auto on = design_from_json(with(saved, R"("version": "1.24")", R"("version": "1.19")"),
                                   "t.json", &cat_);
        QVERIFY2(on.ok(), on.error_text().c_str());
        QVERIFY(on->workloads[0].training.mtp);
    }

    // Devices and links are read and written through the schema: every field of those
    // sections, set away from its default, survives a save and a load (a new field too).
    // Session 45 (format 1.18): an inference workload says which format its NVFP4 attention
    // projections are in (inference.fp4_attention: the published checkpoint's by default), and
    // a model the design carries says its checkpoint's (models[].nvfp4_attention).
    void fp4AttentionRoundTrip() {
        Design d = cl::test::preset("gb200-nvl72");
        QVERIFY(!d.workloads.empty());
        auto& inf = d.workloads[0].inference;
        QCOMPARE(inf.fp4_attention, Fp4Attention::checkpoint);
        inf.weights_dtype = WeightsDtype::fp4;
        inf.fp4_attention = Fp4Attention::bf16;
        const std::string saved = design_to_json(d);
        QVERIFY(saved.find("\"fp4_attention\": \"bf16\"") != std::string::npos);
        auto back = design_from_json(saved, "t.json", &cat_);
        QVERIFY2(back.ok(), back.error_text().c_str());
        QCOMPARE(back->workloads[0].inference.fp4_attention, Fp4Attention::bf16);
        // A 1.17 file has no such key: the checkpoint's, as every design computed before.
        std::string old = with(saved, "\"fp4_attention\": \"bf16\",", "");
        old = with(old, R"("version": "1.24")", R"("version": "1.17")");
        auto older = design_from_json(old, "t.json", &cat_);
        QVERIFY2(older.ok(), older.error_text().c_str());
        QCOMPARE(older->workloads[0].inference.fp4_attention, Fp4Attention::checkpoint);
        // A value it does not know is refused where it is, with the values it takes.
        const QString bad =
            firstError(with(saved, "\"fp4_attention\": \"bf16\"", "\"fp4_attention\": \"fp2\""));
        QVERIFY2(bad.contains(QStringLiteral("fp4_attention")) &&
                     bad.contains(QStringLiteral("bf16-except-output")),
                 qPrintable(bad));
        // The report's first page says how the serving runs, the 16-bit attention included.
        Design served = *back;
        served.workloads[0].inference.fp4_attention = Fp4Attention::checkpoint;
        const auto says = [&](const Design& x, const std::string& what) {
            for (const auto& it : report_summary(x, evaluate(x, cat_), cat_).workloads)
                for (const auto& l : it.lines)
                    if (l.rfind("Serving: ", 0) == 0)
                        return l.find(what) != std::string::npos;
            return false;
        };
        QVERIFY(says(served, "attention projections but the output projection in 16 bits"));
        served.workloads[0].inference.fp4_attention = Fp4Attention::fp4;
        QVERIFY(!says(served, "in 16 bits"));
        // The model's own property travels with a model the design carries.
        ModelArch m = *cat_.model("deepseek-v3");
        m.id = "my-deepseek";
        const std::string mj = model_arch_to_json(m);
        QVERIFY(mj.find("\"nvfp4_attention\":\"bf16-except-output\"") != std::string::npos);
        d.models.push_back(m);
        d.workloads[0].model = "my-deepseek";
        auto carried = design_from_json(design_to_json(d), "t.json", &cat_);
        QVERIFY2(carried.ok(), carried.error_text().c_str());
        QCOMPARE(carried->models[0].nvfp4_attention, Fp4Attention::bf16_except_output);
        // "checkpoint" is the workload's word for "as the model has it": a model cannot say it.
        // (the model is the only place the design says bf16-except-output)
        const std::string self =
            with(design_to_json(d), "\"bf16-except-output\"", "\"checkpoint\"");
        const QString refused = firstError(self);
        QVERIFY2(refused.contains(QStringLiteral("nvfp4_attention")), qPrintable(refused));
    }

    // Session 51 (format 1.22): a model the design carries says its FP4 checkpoint's format
    // (models[].fp4_format); a 1.21 file has no such key (NVFP4, as before); the report says
    // which format the FP4 weights are in.
    void fp4FormatRoundTrip() {
        Design d = cl::test::preset("gb200-nvl72");
        QVERIFY(!d.workloads.empty());
        ModelArch m = *cat_.model("gpt-oss-120b");
        m.id = "my-oss";
        d.models.push_back(m);
        d.workloads[0].model = "my-oss";
        d.workloads[0].inference.weights_dtype = WeightsDtype::fp4;
        const std::string saved = design_to_json(d);
        QVERIFY(saved.find("\"fp4_format\":\"mxfp4\"") != std::string::npos ||
                saved.find("\"fp4_format\": \"mxfp4\"") != std::string::npos);
        auto back = design_from_json(saved, "t.json", &cat_);
        QVERIFY2(back.ok(), back.error_text().c_str());
        QCOMPARE(back->models[0].fp4_format, Fp4Format::mxfp4);
        const auto serving = [&](const Design& x) {
            for (const auto& it : report_summary(x, evaluate(x, cat_), cat_).workloads)
                for (const auto& l : it.lines)
                    if (l.rfind("Serving: ", 0) == 0)
                        return l;
            return std::string();
        };
        QVERIFY2(serving(*back).find("MXFP4 checkpoint (4.25 bits a weight)") != std::string::npos,
                 serving(*back).c_str());
        Design nv = *back;
        nv.models[0].fp4_format = Fp4Format::nvfp4;
        QVERIFY(design_to_json(nv).find("\"fp4_format\"") == std::string::npos);
        QVERIFY(serving(nv).find("NVFP4 checkpoint (4.5 bits a weight)") != std::string::npos);
        // Explain lists the trtllm-gen rate for MXFP4 experts on GB200 in place of the NVFP4
        // grouped GEMM's inputs, and says the attention is as the MXFP4 checkpoint has it.
        auto inputs = [&](const Design& x) {
            std::map<std::string, std::string> out;
            for (const auto& e : explain(x, evaluate(x, cat_), cat_))
                if (e.title == "TTFT and TPOT")
                    for (const auto& i : e.inputs)
                        out[i.name] = i.value + " | " + i.source;
            return out;
        };
        auto mx = inputs(*back), nvi = inputs(nv);
        QVERIFY(mx.count("MXFP4 MoE weight streaming"));
        QVERIFY(!mx.count("NVFP4 grouped GEMM: fixed cost per expert matrix"));
        QVERIFY(!mx.count("NVFP4 GEMM weight streaming")); // no FP4 weight streams at it
        QVERIFY(nvi.count("NVFP4 GEMM weight streaming"));
        QVERIFY2(mx["attention projections"].find("published MXFP4 checkpoint") !=
                     std::string::npos,
                 mx["attention projections"].c_str());
        QVERIFY(!nvi.count("MXFP4 MoE weight streaming"));
        QVERIFY(nvi.count("NVFP4 grouped GEMM: fixed cost per expert matrix"));
    }

    // Session 52 (format 1.23): a model the design carries says whether it has Q/K norms
    // (models[].qk_norm); a 1.22 file has no such key (off, as before); Explain counts the
    // elementwise kernels the engine runs for it.
    void qkNormRoundTrip() {
        Design d = cl::test::preset("h200-inference-8x");
        const std::size_t w = inference_index(d);
        QVERIFY(w < d.workloads.size());
        ModelArch m = *cat_.model("qwen3-32b");
        m.id = "my-qwen";
        d.models.push_back(m);
        d.workloads[w].model = "my-qwen";
        d.workloads[w].inference.engine = ServingEngine::vllm;
        const std::string saved = design_to_json(d);
        QVERIFY(saved.find("\"qk_norm\":true") != std::string::npos ||
                saved.find("\"qk_norm\": true") != std::string::npos);
        QVERIFY(saved.find("\"version\": \"1.24\"") != std::string::npos);
        auto back = design_from_json(saved, "t.json", &cat_);
        QVERIFY2(back.ok(), back.error_text().c_str());
        QVERIFY(back->models[0].qk_norm);
        // A 1.22 file without the key: no Q/K norms.
        std::string old = with(saved, R"("version": "1.24")", R"("version": "1.22")");
        for (const char* k : {"\"qk_norm\":true,", "\"qk_norm\": true,"})
            if (old.find(k) != std::string::npos)
                old = with(old, k, "");
        auto older = design_from_json(old, "t.json", &cat_);
        QVERIFY2(older.ok(), older.error_text().c_str());
        QVERIFY(!older->models[0].qk_norm);
        auto count = [&](const Design& x) {
            return explained(x, cat_, "TTFT and TPOT", "elementwise kernels per layer").value;
        };
        QVERIFY2(count(*back) == "5 (two residual adds with their norms, the activation, RoPE, "
                                 "the Q/K norms)",
                 count(*back).c_str());
        QVERIFY2(count(*older) == "4 (two residual adds with their norms, the activation, RoPE)",
                 count(*older).c_str());
        Design trt = *back;
        trt.workloads[w].inference.engine = ServingEngine::trtllm;
        QVERIFY2(count(trt) == "4 (two residual adds with their norms, the activation, the fused "
                               "Q/K norm and RoPE)",
                 count(trt).c_str());
    }

    // Session 53 (helper-45/46): Explain's KV cache row says the sequences in use, what the
    // budget holds, and the engine's rule, so vLLM's smaller pool on the same GPU has a why.
    void kvBudgetSaysTheEngineRule() {
        Design d = cl::test::preset("h200-inference-8x");
        const std::size_t w = inference_index(d);
        QVERIFY(w < d.workloads.size());
        auto kv_row = [&](ServingEngine e) {
            Design x = d;
            x.workloads[w].inference.engine = e;
            return explained(x, cat_, "Memory per GPU", "KV cache").source;
        };
        const std::string v = kv_row(ServingEngine::vllm), t = kv_row(ServingEngine::trtllm),
                          sg = kv_row(ServingEngine::sglang);
        QVERIFY2(v.find("vLLM fills 90 % of the card") != std::string::npos, v.c_str());
        QVERIFY2(v.find(" sequences); the budget holds ") != std::string::npos, v.c_str());
        QVERIFY2(t.find("TensorRT-LLM gives the KV cache 90 % of the memory free") !=
                     std::string::npos,
                 t.c_str());
        QVERIFY2(sg.find("SGLang's weights and KV cache take") != std::string::npos, sg.c_str());
    }

    // Session 53 (format 1.24): a serving workload's expert parallelism is kept, read back,
    // and an older file without it reads as the engine's default; a wrong value is refused on
    // its path; Explain says how the routed experts are split.
    void expertParallelRoundTrip() {
        Design d = cl::test::preset("h200-inference-8x");
        const std::size_t w = inference_index(d);
        QVERIFY(w < d.workloads.size());
        auto& inf = d.workloads[w].inference;
        d.workloads[w].model = "qwen3-235b-a22b";
        inf.tp = 8;
        inf.weights_dtype = WeightsDtype::fp8;
        inf.kv_dtype = KvDtype::fp8;
        inf.engine = ServingEngine::trtllm;
        inf.batch = 4;
        inf.mode = ServingMode::offline;
        inf.requests = 0;
        inf.ep = 8;
        const std::string saved = design_to_json(d);
        QVERIFY(saved.find("\"ep\": 8") != std::string::npos);
        QVERIFY(saved.find("\"version\": \"1.24\"") != std::string::npos);
        auto back = design_from_json(saved, "t.json", &cat_);
        QVERIFY2(back.ok(), back.error_text().c_str());
        QCOMPARE(back->workloads[w].inference.ep, 8);
        // A 1.23 file has no key: the engine's default.
        std::string old = with(saved, R"("version": "1.24")", R"("version": "1.23")");
        old = with(old, "\"ep\": 8,", "");
        auto older = design_from_json(old, "t.json", &cat_);
        QVERIFY2(older.ok(), older.error_text().c_str());
        QCOMPARE(older->workloads[w].inference.ep, 0);
        // Refused with its path: a negative EP in the file.
        auto bad = design_from_json(with(saved, "\"ep\": 8", "\"ep\": -2"), "t.json", &cat_);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error_text().find(".inference.ep") != std::string::npos,
                 bad.error_text().c_str());
        // Explain: the split, and the busiest GPU's reads at the operating batch.
        auto inputs = [&](const Design& x) {
            std::map<std::string, std::string> out;
            for (const auto& e : explain(x, evaluate(x, cat_), cat_))
                if (e.title == "TTFT and TPOT")
                    for (const auto& i : e.inputs)
                        out[i.name] = i.value;
            return out;
        };
        auto ep8 = inputs(*back);
        QVERIFY2(ep8["routed experts"] == "split by expert over 8 GPUs, whole (EP 8)",
                 ep8["routed experts"].c_str());
        QVERIFY2(ep8["busiest GPU's expert reads"].find("× the mean at batch 4") !=
                     std::string::npos,
                 ep8["busiest GPU's expert reads"].c_str());
        auto dflt = inputs(*older);
        QVERIFY2(dflt["routed experts"] == "every expert split over the 8 TP GPUs (EP 1)",
                 dflt["routed experts"].c_str());
        QVERIFY(dflt.count("busiest GPU's expert reads") == 0);
        QVERIFY(dflt.count("sequences memory holds") == 0);
        // Session 56: with attention DP Explain says what it buys, the sequences memory holds
        // with it and without.
        Design adp = *back;
        adp.workloads[w].inference.attention_dp = true;
        auto with_adp = inputs(adp);
        QVERIFY2(with_adp["sequences memory holds"].find(" with attention DP, ") !=
                         std::string::npos &&
                     with_adp["sequences memory holds"].ends_with(" without"),
                 with_adp["sequences memory holds"].c_str());
        // An EP that does not divide TP: the workload is refused on its field, with the reason.
        Design three = *back;
        three.workloads[w].inference.ep = 3;
        const Evaluation ev = evaluate(three, cat_);
        QVERIFY(!ev.workloads[w].inference.has_value());
        QVERIFY2(ev.workloads[w].error.find("does not divide TP") != std::string::npos,
                 ev.workloads[w].error.c_str());
    }

    // Session 52 (helper-44): TensorRT-LLM on an AMD node is refused with the reason, on the
    // engine's field, and no numbers; FP4 weights there are kept and Explain says they are
    // weight-only (MI300X has no FP4 tensor cores).
    void engineAndFormatOnDevice() {
        Design d = cl::test::preset("mi300x-node");
        const std::size_t w = inference_index(d);
        QVERIFY(w < d.workloads.size());
        const Evaluation fine = evaluate(d, cat_);
        QVERIFY2(fine.workloads[w].inference.has_value(), fine.workloads[w].error.c_str());
        Design trt = d;
        trt.workloads[w].inference.engine = ServingEngine::trtllm;
        const Evaluation ev = evaluate(trt, cat_);
        const std::string& why = ev.workloads[w].error;
        QVERIFY(!ev.workloads[w].inference.has_value());
        QVERIFY2(why.find("workloads[" + std::to_string(w) + "].inference.engine") !=
                         std::string::npos &&
                     why.find("TensorRT-LLM runs only on NVIDIA GPUs") != std::string::npos &&
                     why.find("AMD") != std::string::npos &&
                     why.find("vLLM or SGLang") != std::string::npos,
                 why.c_str());
        Design fp4 = d;
        fp4.workloads[w].inference.weights_dtype = WeightsDtype::fp4;
        const Evaluation fe = evaluate(fp4, cat_);
        QVERIFY(fe.workloads[w].inference && fe.workloads[w].inference->weight_only_dequant);
        QVERIFY(fine.workloads[w].inference && !fine.workloads[w].inference->weight_only_dequant);
        std::string weights;
        for (const auto& e : explain(fp4, evaluate(fp4, cat_), cat_))
            if (e.title == "TTFT and TPOT")
                for (const auto& i : e.inputs)
                    if (i.name == "weights")
                        weights = i.value;
        QVERIFY2(weights.find("weight-only on") != std::string::npos &&
                     weights.find("MI300X") != std::string::npos,
                 weights.c_str());
        // On B200 (FP4 tensor cores) the label is the format alone.
        Design b = cl::test::preset("gb200-nvl72");
        for (auto& x : b.workloads)
            if (x.kind == WorkloadKind::inference)
                x.inference.weights_dtype = WeightsDtype::fp4;
        for (const auto& e : explain(b, evaluate(b, cat_), cat_))
            if (e.title == "TTFT and TPOT")
                for (const auto& i : e.inputs)
                    if (i.name == "weights")
                        QVERIFY2(i.value.find("weight-only") == std::string::npos, i.value.c_str());
    }

    // Session 52 (helper-44): with speculative decoding or disaggregation on, Explain lists
    // what the numbers then rest on: the draft, k, the acceptance rate, the expected tokens a
    // step (Leviathan et al. eq. 1: (1 - 0.7^5) / 0.3 = 2.77), the draft's cost and the speed-up;
    // and the prefill pool.
    void explainSpeculativeAndDisaggregated() {
        Design d = cl::test::preset("h200-inference-8x");
        const std::size_t w = inference_index(d);
        QVERIFY(w < d.workloads.size());
        auto entry = [&](const Design& x) {
            for (const auto& e : explain(x, evaluate(x, cat_), cat_))
                if (e.title == "TTFT and TPOT")
                    return e;
            return Explanation{};
        };
        auto inputs = [&](const Explanation& e) {
            std::map<std::string, std::string> out;
            for (const auto& i : e.inputs)
                out[i.name] = i.value;
            return out;
        };
        const Explanation plain = entry(d);
        QVERIFY(!plain.formula.empty());
        QVERIFY(!inputs(plain).count("draft model"));
        QVERIFY(plain.formula.find("Leviathan") == std::string::npos);
        Design spec = d;
        spec.workloads[w].inference.speculative_draft = "llama3-8b";
        spec.workloads[w].inference.speculative_k = 4;
        spec.workloads[w].inference.acceptance = 0.7;
        const Explanation e = entry(spec);
        auto in = inputs(e);
        QVERIFY2(in["draft model"] == cat_.model("llama3-8b")->name, in["draft model"].c_str());
        QCOMPARE(in["draft tokens a step (k)"], std::string("4"));
        QVERIFY2(in["tokens a target step (E)"] == "2.77", in["tokens a target step (E)"].c_str());
        QVERIFY(in.count("draft step / target step (c)") && in.count("speed-up at batch 1"));
        // helper-45: c as a number (the draft's own step over the target's), and the speed-up
        // at the operating batch beside batch 1's.
        const double c = std::stod(in["draft step / target step (c)"]);
        QVERIFY2(c > 0.05 && c < 0.6, in["draft step / target step (c)"].c_str());
        const auto ev = evaluate(spec, cat_);
        const auto& r = *ev.workloads[w].inference;
        QVERIFY(r.batch > 1);
        const std::string at = "speed-up at batch " + units::format_count(r.batch);
        QVERIFY2(in.count(at), at.c_str());
        QVERIFY2(r.speculative_speedup_at_batch < r.speculative_speedup, in[at].c_str());
        QVERIFY(e.formula.find("Leviathan et al. 2023, eq. 1") != std::string::npos);
        Design dis = d;
        dis.workloads[w].inference.batching = Batching::disaggregated;
        const Explanation de = entry(dis);
        QVERIFY2(de.formula.find("disaggregated: the prompts prefill on a pool of their own") !=
                     std::string::npos,
                 de.formula.c_str());
        QVERIFY(inputs(de).count("batching"));
    }

    void deviceAndLinkFieldsRoundTrip() {
        auto loaded = design_from_json(kMinimal, "t.json", &cat_);
        QVERIFY(loaded.ok());
        Design d = loaded.value();
        Device fs;
        fs.id = "fs";
        fs.kind = DeviceKind::storage;
        d.devices.push_back(fs);
        int changed = 0;
        for (Section sec : {Section::device, Section::link}) {
            for (const Field* f : section_fields(sec)) {
                const std::string id = sec == Section::link              ? "l1"
                                       : f->key == "role"                ? "leaf"
                                       : f->key.rfind("storage", 0) == 0 ? "fs"
                                                                         : "node";
                FieldValue v = f->default_value;
                if (std::holds_alternative<double>(v))
                    v = f->min + (f->max - f->min > 10 ? 7.0 : (f->max - f->min) / 2);
                else if (const bool* b = std::get_if<bool>(&v))
                    v = !*b;
                else if (f->choices_from == ChoiceSource::fixed && !f->choices.empty())
                    v = f->choices.back();
                else if (f->choices_from != ChoiceSource::fixed)
                    v = std::get<std::string>(f->get(d, id)); // a catalog id: keep it valid
                else
                    v = std::string("renamed ") + f->key;
                f->set(d, id, v);
                QVERIFY2(f->get(d, id) == v, f->key.c_str());
                ++changed;
            }
        }
        QVERIFY(changed >= 9);
        const std::string saved = design_to_json(d);
        auto again = design_from_json(saved, "saved", &cat_);
        QVERIFY2(again.ok(), again.error_text().c_str());
        QVERIFY(*again == d);
        QCOMPARE(design_to_json(*again), saved);
        // Defaults stay out of the file (no "name" or "gpu_slots" on a plain switch); the
        // replica count and a link's type and count are always written.
        const std::string plain = design_to_json(*design_from_json(kMinimal, "t.json", &cat_));
        QVERIFY(plain.find("\"gpu_slots\"") == std::string::npos);
        QVERIFY(plain.find("\"role\"") == std::string::npos);
        QVERIFY(plain.find("\"count\": 1,") != std::string::npos);
    }

    void presetsRoundTrip_data() {
        QTest::addColumn<QString>("name");
        int n = 0;
        for (const auto& f : bundled_files())
            if (f.name.rfind("presets/", 0) == 0) {
                QTest::newRow(std::string(f.name).c_str())
                    << QString::fromUtf8(f.name.data(), qsizetype(f.name.size()));
                ++n;
            }
        QVERIFY(n >= 1);
    }
    void presetsRoundTrip() {
        QFETCH(QString, name);
        const auto text = bundled_file(name.toStdString());
        auto d = design_from_json(text, name.toStdString(), &cat_);
        QVERIFY2(d.ok(), d.error_text().c_str());
        QVERIFY(!d->description.empty());
        QVERIFY(!d->workloads.empty());
        const std::string saved = design_to_json(*d);
        auto again = design_from_json(saved, "saved", &cat_);
        QVERIFY2(again.ok(), again.error_text().c_str());
        QVERIFY(*again == *d);
        QCOMPARE(design_to_json(*again), saved);
        const Evaluation ev = evaluate(*d, cat_);
        QVERIFY(ev.topology.gpus >= 1);
        for (const auto& w : ev.workloads)
            QVERIFY2(w.error.empty() || w.kind == WorkloadKind::inference, w.error.c_str());
    }
};

QTEST_APPLESS_MAIN(TestDesign)
#include "tst_design.moc"
