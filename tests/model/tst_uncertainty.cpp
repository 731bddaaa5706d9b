// Error bars (issue 19): bands from held-out validation errors. The band arithmetic on made-up
// rows, then the coverage of the bundled rows (resources/validation/held_out_*.json, which the
// validation tests keep equal to what they compute) by bands built without each row's source.
#include "model/evaluate.h"
#include "model/uncertainty.h"

#include "fixtures.h"

#include <QtTest>

#include <cmath>

using namespace cl::model;

namespace {
HeldOutRow row(const char* source, double error, const char* arch = "hopper", bool moe = false) {
    HeldOutRow r;
    r.id = std::string(source) + "/" + std::to_string(error);
    r.source = source;
    r.kind = BandKind::training;
    r.arch = arch;
    r.moe = moe;
    r.gpus = 64;
    r.error = error;
    return r;
}
} // namespace

class TestUncertainty : public QObject {
    Q_OBJECT
private slots:
    // Thirty-nine rows from 39 sources: the band runs from the 2nd smallest to the 2nd largest
    // error, (39 + 1 - 2 * 2) / 40 = 90% of a new comparable run inside (order statistics).
    void orderStatistics() {
        std::vector<HeldOutRow> rows;
        std::vector<std::string> names;
        for (int i = 0; i < 39; ++i)
            names.push_back("source " + std::to_string(i));
        for (int i = 0; i < 39; ++i)
            rows.push_back(row(names[i].c_str(), -0.095 + 0.005 * i));
        CaseTraits c;
        c.arch = "hopper";
        c.gpus = 64;
        const Band b = band_for(c, rows);
        QCOMPARE(b.rows, 39);
        QVERIFY(std::abs(b.error_low - -0.09) < 1e-9);
        QVERIFY(std::abs(b.error_high - 0.09) < 1e-9);
        QVERIFY(b.far.empty());
        QVERIFY(std::abs(b.median_abs_error - 0.05) < 1e-9);
        QVERIFY2(QString::fromStdString(b.basis).contains("39 comparable published runs"),
                 b.basis.c_str());
        // A speed is published as v / (1 + e): a 9% optimistic model means the run is slower.
        const auto [lo, hi] = band_range(100, b, Scales::with_speed);
        QVERIFY(std::abs(lo - 100 / 1.09) < 1e-9 && std::abs(hi - 100 / 0.91) < 1e-9);
        const auto [tlo, thi] = band_range(10, b, Scales::with_time);
        QVERIFY(std::abs(tlo - 9.1) < 1e-9 && std::abs(thi - 10.9) < 1e-9);
        // Fewer rows than a 90% band needs (n < 19): their range, and more each way the fewer
        // they are (a quarter of the range times 1 - (n + 1) / 20), on ratios: log(1 + error).
        rows.resize(9); // errors -0.095 ... -0.055
        const Band few = band_for(c, rows);
        const double pad = (std::log(0.945) - std::log(0.905)) * 0.25 * 0.5;
        QVERIFY(std::abs(few.error_low - (0.905 * std::exp(-pad) - 1)) < 1e-9);
        QVERIFY(std::abs(few.error_high - 0.03) < 1e-9); // the +-3% floor around the prediction
        // Errors cluster by source: 39 rows from 2 sources count as 2 pieces of evidence (the
        // rows' range and nearly a quarter more), not as 39.
        std::vector<HeldOutRow> two;
        for (int i = 0; i < 39; ++i)
            two.push_back(row(i % 2 ? "a" : "b", -0.095 + 0.005 * i));
        const Band clustered = band_for(c, two);
        const double pad2 = (std::log(1.095) - std::log(0.905)) * 0.25 * 0.85;
        QVERIFY(std::abs(clustered.error_low - (0.905 * std::exp(-pad2) - 1)) < 1e-9);
    }

    // Never narrower than the single-run noise of a published figure (+-3%), and always around
    // the prediction itself.
    void noiseFloor() {
        std::vector<HeldOutRow> rows;
        for (int i = 0; i < 10; ++i)
            rows.push_back(row("a", 0.10 + 0.001 * i));
        const Band b = band_for({}, rows);
        QVERIFY(b.error_low <= -0.03);
        QVERIFY(b.error_high >= 0.10);
    }

    // Far from every validated run (another GPU generation, MoE with no MoE rows, a scale far
    // beyond): wider, and the basis says why; a row's own source never sets its band.
    void farCasesAreWider() {
        std::vector<HeldOutRow> rows;
        for (int i = 0; i < 12; ++i)
            rows.push_back(row(i < 6 ? "a" : "b", -0.06 + 0.01 * i));
        CaseTraits near;
        near.arch = "hopper";
        near.gpus = 64;
        CaseTraits far = near;
        far.arch = "blackwell";
        far.moe = true;
        far.gpus = 100000;
        const Band bn = band_for(near, rows), bf = band_for(far, rows);
        QCOMPARE(bf.far.size(), std::size_t{3});
        QVERIFY(bf.error_high > bn.error_high * 2.2); // two widenings of 1.5 at most: 2.25
        QVERIFY(bf.error_low < bn.error_low * 2.2);
        QVERIFY2(QString::fromStdString(bf.basis).contains("Blackwell"), bf.basis.c_str());
        QVERIFY2(QString::fromStdString(bf.basis).contains("100,000 GPUs"), bf.basis.c_str());
        const Band without_a = band_for(near, rows, "a");
        QCOMPARE(without_a.rows, 6);
        // Too few comparable rows of the case's shape: all rows of the kind.
        rows.push_back(row("c", 0.40, "hopper", true));
        CaseTraits moe = near;
        moe.moe = true;
        const Band bm = band_for(moe, rows);
        QCOMPARE(bm.rows, 13);
        QVERIFY(bm.far.empty());
    }

    // The Inference chart shades the band along the latency-throughput curve: each point of
    // the curve carries its own band from the workload's, throughput and TPOT on either side.
    void bandAlongTheServingCurve() {
        const Evaluation ev =
            evaluate(cl::test::preset("h200-inference-8x"), cl::test::bundled_catalog());
        const WorkloadEvaluation* w = nullptr;
        for (const auto& x : ev.workloads)
            if (x.inference && !x.inference_curve.empty())
                w = &x;
        QVERIFY(w && w->band);
        for (const auto& p : w->inference_curve) {
            QVERIFY(p.output_tokens_per_s_low < p.output_tokens_per_s &&
                    p.output_tokens_per_s < p.output_tokens_per_s_high);
            QVERIFY(p.tpot_low_s < p.tpot_s && p.tpot_s < p.tpot_high_s);
            const auto [lo, hi] = band_range(p.tpot_s, *w->band, Scales::with_time);
            QCOMPARE(p.tpot_low_s, lo);
            QCOMPARE(p.tpot_high_s, hi);
        }
    }

    void fileRoundTrip() {
        std::vector<HeldOutRow> rows = {row("a", 0.12345), row("b", -0.2, "ampere", true)};
        rows[1].fsdp = rows[1].pp = true;
        const auto back = parse_held_out(held_out_to_json(rows, "test"));
        QCOMPARE(back.size(), std::size_t{2});
        QCOMPARE(back[1].arch, std::string("ampere"));
        QVERIFY(back[1].moe && back[1].fsdp && back[1].pp);
        QVERIFY(std::abs(back[0].error - 0.1235) < 1e-9); // four decimals
        QVERIFY_THROWS_EXCEPTION(std::exception, parse_held_out("{\"kind\": \"x\", \"rows\": []}"));
    }

    // The headline of issue 19: on the held-out rows of ../shared/validation, the published
    // value lies inside a band built without the row's source for >= 80% of rows of each kind;
    // the median width says how wide the bands had to be. (docs/validation.md keeps this table.)
    void coverageOfBundledRows() {
        const auto& rows = held_out_rows();
        QString table = QStringLiteral(
            "\n| kind | held-out rows | inside the band | coverage | median band width (held out) "
            "| "
            "median band width (every source, as users see it) |\n|---|---|---|---|---|---|\n");
        int rows_all = 0, covered_all = 0;
        for (const BandKind k : {BandKind::training, BandKind::serving, BandKind::collective}) {
            const Coverage c = coverage(k, rows);
            QVERIFY2(c.rows > 0, band_kind_name(k).data());
            rows_all += c.rows;
            covered_all += c.covered;
            table += QStringLiteral("| %1 | %2 | %3 | %4% | %5% | %6% |\n")
                         .arg(QString::fromStdString(std::string(band_kind_name(k))))
                         .arg(c.rows)
                         .arg(c.covered)
                         .arg(100.0 * c.covered / c.rows, 0, 'f', 0)
                         .arg(100.0 * c.median_width, 0, 'f', 0)
                         .arg(100.0 * c.median_width_user, 0, 'f', 0);
        }
        table += QStringLiteral("| all | %1 | %2 | %3% | | |\n")
                     .arg(rows_all)
                     .arg(covered_all)
                     .arg(100.0 * covered_all / rows_all, 0, 'f', 0);
        for (const BandKind k : {BandKind::training, BandKind::serving, BandKind::collective})
            for (const auto& m : coverage(k, rows).missed)
                table += QStringLiteral("outside: %1\n").arg(QString::fromStdString(m));
        qInfo().noquote() << table;
        // 80% bands: together they cover at least 80% of the held-out rows. A kind alone has
        // 23-54 rows, too few for 80% to be a bound a calibrated band always meets (with 24
        // rows, 19 inside happens about a third of the time): each kind is held to the 5th
        // percentile of Binomial(rows, 0.8), the count a calibrated band falls below in only 1
        // run of 20.
        QVERIFY2(covered_all >= 0.8 * rows_all, qPrintable(table));
        const auto binomial_5th = [](int n) {
            double cdf = 0;
            for (int k = 0; k <= n; ++k) {
                double logp = std::lgamma(n + 1.0) - std::lgamma(k + 1.0) -
                              std::lgamma(n - k + 1.0) + k * std::log(0.8) +
                              (n - k) * std::log(0.2);
                cdf += std::exp(logp);
                if (cdf >= 0.05)
                    return k;
            }
            return n;
        };
        QCOMPARE(binomial_5th(24),
                 16); // a check of the bound itself (scipy binom.ppf(0.05, 24, .8))
        for (const BandKind k : {BandKind::training, BandKind::serving, BandKind::collective}) {
            const Coverage c = coverage(k, rows);
            QVERIFY2(c.covered >= binomial_5th(c.rows), qPrintable(table));
        }
    }
};

QTEST_APPLESS_MAIN(TestUncertainty)
#include "tst_uncertainty.moc"
