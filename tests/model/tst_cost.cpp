// Cost (TCO) and reliability against published figures (../shared/validation/published.json):
// each test names its case id and source.
#include "model/catalog.h"
#include "model/evaluate.h"
#include "model/reliability.h"
#include "model/schema.h"
#include "model/sensitivity.h"
#include "model/tco.h"

#include "fixtures.h"

#include <QtTest>

#include <cmath>

using namespace cl::model;

namespace {
bool near(double a, double b, double rel) {
    return std::abs(a - b) <= rel * std::abs(b);
}
} // namespace

class TestCost : public QObject {
    Q_OBJECT
private:
    Catalog cat_;

private slots:
    void initTestCase() { cat_ = cl::test::bundled_catalog(); }

    // E.young_daly -- Young 1974 (CACM 17(9)): sqrt(2 delta M); Daly 2006 (FGCS 22(3)):
    // higher-order optimum and its limits.
    // Helper-22: spot with no offer chosen priced nothing (the cheapest on-demand offer had no
    // spot price). The default under spot is the cheapest spot price among offers that have one.
    void spotDefaultOffer() {
        for (const auto& gpu : {std::string("h100-sxm"), std::string("a100-sxm-80")}) {
            const CloudOffer* o = default_cloud_offer(cat_, gpu, Commitment::spot);
            if (!o)
                continue;
            QVERIFY2(o->spot_usd_per_hour > 0, o->id.c_str());
            for (const auto& other : cat_.cloud_offers())
                if (other.gpu == gpu && other.gpus > 0 && other.spot_usd_per_hour > 0 &&
                    other.on_demand_usd_per_hour > 0)
                    QVERIFY(o->spot_usd_per_hour / o->gpus <=
                            other.spot_usd_per_hour / other.gpus + 1e-12);
        }
        QVERIFY(default_cloud_offer(cat_, "h100-sxm", Commitment::spot) != nullptr);
        // The design's default follows its commitment: spot is priced.
        Design d = cl::test::preset("dgx-h100-4su");
        d.economics.cloud_offer.clear();
        d.economics.commitment = Commitment::spot;
        const Evaluation ev = evaluate(d, cat_);
        QVERIFY2(ev.tco.has_value(), ev.tco_error.c_str());
    }

    // Helper-6 (issue 21): a workstation's card (a GPU on its own, in no server) is a GPU to
    // cost: the Cost tab said "the design has no GPUs to cost". It is counted, with its host's
    // power; without a catalog price the reason names the card and what to type.
    void workstationCardIsCosted() {
        const Design d = cl::test::preset("rtx4090-workstation");
        const CostInventory inv = design_inventory(d, cat_);
        QCOMPARE(inv.gpus, 1.0);
        QCOMPARE(inv.servers, 1.0);
        QVERIFY(inv.it_power_w > 450); // the 4090's 450 W and its host
        QVERIFY(!inv.unpriced.empty());
        const Evaluation ev = evaluate(d, cat_);
        QVERIFY(!ev.tco);
        QVERIFY2(ev.tco_error.find("no GPUs") == std::string::npos, ev.tco_error.c_str());
        QVERIFY2(ev.tco_error.find("GeForce RTX 4090") != std::string::npos, ev.tco_error.c_str());
        // With a server price typed, owning is costed.
        Design priced = d;
        priced.economics.server_price_usd = 3500;
        const Evaluation ep = evaluate(priced, cat_);
        QVERIFY2(ep.tco && ep.tco->has_onprem, ep.tco_error.c_str());
    }

    void youngDaly() {
        const double delta = 300, M = 10 * 3600.0;
        QCOMPARE(young_interval(delta, M), std::sqrt(2 * delta * M));
        const double x = delta / (2 * M);
        const double daly =
            std::sqrt(2 * delta * M) * (1 + std::sqrt(x) / 3 + x / 9) - delta; // the formula
        QVERIFY(std::abs(daly_interval(delta, M) - daly) < 1e-9);
        // delta >= 2M: checkpoint every M.
        QCOMPARE(daly_interval(3 * M, M), M);
        // Daly's optimum maximises his goodput (a numerical check of the same model).
        const double best = daly_goodput(daly, delta, M, 600);
        QVERIFY(best > daly_goodput(daly * 0.7, delta, M, 600));
        QVERIFY(best > daly_goodput(daly * 1.4, delta, M, 600));
        // No failures in sight: goodput tends to tau / (tau + delta).
        QVERIFY(std::abs(daly_goodput(3600, 36, 1e12, 0) - 3600.0 / 3636.0) < 1e-6);
    }

    // E.llama3.54day_interruptions -- Llama 3 paper sec. 3.3.4: 419 unexpected interruptions
    // on 16,384 H100 (2,048 nodes) in 54 days; job MTBF about 3.1 h.
    void llama3Interruptions() {
        ReliabilityInputs in;
        in.checkpoint_write_s = 60;
        ReliabilityContext ctx;
        ctx.gpus = 16384;
        ctx.gpus_per_node = 8;
        ctx.run_days = 54;
        auto r = compute_reliability(in, ctx);
        QVERIFY2(r.ok(), r.error_text().c_str());
        QVERIFY(near(r->job_mtbf_s / 3600, 3.09, 0.01));
        QVERIFY(near(r->expected_interruptions, 419, 0.005));
        // The same through the per-node rate (3.79 per 1000 node-days).
        in.node_failures_per_1000_node_days = 419.0 / (2048 * 54) * 1000;
        auto n = compute_reliability(in, ctx);
        QVERIFY(near(n->job_mtbf_s, r->job_mtbf_s, 1e-9));
        // Twice the GPUs, half the MTBF.
        ctx.gpus = 32768;
        QVERIFY(near(compute_reliability(in, ctx)->job_mtbf_s, r->job_mtbf_s / 2, 1e-9));
    }

    // Checkpoints are taken between steps (helper-20, session 31: async checkpoints to fast
    // storage gave "Auto: 0.2 min" with 7.2 s steps). The automatic interval is a whole number
    // of steps, at least one; a typed interval under a step is raised to one, with a note.
    void checkpointIntervalInWholeSteps() {
        ReliabilityInputs in;
        in.checkpoint_write_s = 60;
        in.async_checkpoint = true;
        ReliabilityContext ctx;
        ctx.gpus = 16384;
        ctx.run_days = 54;
        ctx.checkpoint_bytes = 16384 * 1e9; // 1 GB per GPU: a 16 ms snapshot
        ctx.step_time_s = 7.22;
        auto r = compute_reliability(in, ctx);
        QVERIFY2(r.ok(), r.error_text().c_str());
        QVERIFY(r->optimal_checkpoint_interval_s < 60); // Daly's optimum for the stall alone
        // Async: the write (60 s) still bounds it; a whole number of 7.22 s steps below that is
        // raised to the write time as before.
        QVERIFY(r->interval_used_s >= 60);
        in.async_checkpoint = false;
        in.checkpoint_write_s = 0.5;
        auto sync = compute_reliability(in, ctx);
        QVERIFY(sync.ok());
        const double steps = sync->interval_used_s / 7.22;
        QVERIFY2(std::abs(steps - std::round(steps)) < 1e-9 && steps >= 1,
                 qPrintable(QString::number(sync->interval_used_s)));
        QVERIFY(sync->curve.front().interval_s >= 7.22);
        in.checkpoint_interval_s = 2;
        auto typed = compute_reliability(in, ctx);
        QVERIFY(typed.ok());
        QCOMPARE(typed->interval_used_s, 7.22);
        bool noted = false;
        for (const auto& n : typed->notes)
            noted = noted || n.find("shorter than one training step") != std::string::npos;
        QVERIFY(noted);
    }

    // E.opt175b.restarts_and_node_failures (issue 18) -- metaseq OPT chronicles: 1,024 cloud
    // A100 (128 nodes), ~2 machines down per day (15.6 per 1000 node-days), ~90 restarts over
    // the ~56 days of lineage 12.xx, job MTBF ~12 h; tolerance +-50% on rates. With that
    // measured rate as input the model gives 12.0 h and 112 interruptions. With the default
    // (Llama 3's 2024 H100 rate) it gives ~49 h: a 2021 cloud A100 cluster failed ~4x as often,
    // so the default is no stand-in for another cluster (docs/reliability.md).
    void opt175bRestarts() {
        ReliabilityInputs in;
        in.checkpoint_write_s = 60;
        in.node_failures_per_1000_node_days = 15.6;
        ReliabilityContext ctx;
        ctx.gpus = 1024;
        ctx.gpus_per_node = 8;
        ctx.run_days = 56;
        auto r = compute_reliability(in, ctx);
        QVERIFY2(r.ok(), r.error_text().c_str());
        QVERIFY2(std::abs(r->job_mtbf_s / 3600 / 12.0 - 1) <= 0.5,
                 qPrintable(QString::number(r->job_mtbf_s / 3600)));
        QVERIFY2(std::abs(r->expected_interruptions / 90.0 - 1) <= 0.5,
                 qPrintable(QString::number(r->expected_interruptions)));
        in.node_failures_per_1000_node_days = 0; // unset: the Llama 3 default
        auto d = compute_reliability(in, ctx);
        QVERIFY(d.ok());
        qInfo("OPT-175B: MTBF %.1f h with its measured rate, %.1f h with the Llama 3 default "
              "(published ~12 h); interruptions %.0f (published ~90)",
              r->job_mtbf_s / 3600, d->job_mtbf_s / 3600, r->expected_interruptions);
        QVERIFY(d->job_mtbf_s > 3.0 * r->job_mtbf_s); // the documented gap, so it cannot drift
    }

    // Journey 5: a faster storage tier and asynchronous checkpointing raise goodput; the
    // checkpoint of Llama 3 405B with AdamW is 14 B per parameter.
    void checkpointsAndGoodput() {
        const ModelArch& m = *cat_.model("llama3.1-405b");
        TrainingSpec t;
        const double bytes = checkpoint_bytes(m, t);
        QVERIFY(near(bytes, m.total_params() * 14, 1e-12));
        ReliabilityInputs in;
        ReliabilityContext ctx;
        ctx.gpus = 16384;
        ctx.checkpoint_bytes = bytes;
        ctx.run_days = 54;
        ctx.price_per_gpu_hour = 2;
        auto slow = compute_reliability(in, ctx);
        QVERIFY2(slow.ok(), slow.error_text().c_str());
        QVERIFY(near(slow->checkpoint_write_s, bytes / 2e12, 1e-9)); // Llama 3: 2 TB/s
        in.storage_bandwidth_Bps = 7e12;                             // their peak
        auto fast = compute_reliability(in, ctx);
        QVERIFY(fast->goodput > slow->goodput);
        QVERIFY(fast->optimal_checkpoint_interval_s < slow->optimal_checkpoint_interval_s);
        in.async_checkpoint = true;
        auto async = compute_reliability(in, ctx);
        QVERIFY(async->goodput > fast->goodput);
        QVERIFY(async->checkpoint_stall_s < fast->checkpoint_stall_s);
        // Llama 3 reports > 90% effective training time.
        QVERIFY(slow->goodput > 0.9 && slow->goodput < 1.0);
        QVERIFY(near(slow->lost_usd, slow->lost_gpu_hours * 2, 1e-12));
        QVERIFY(slow->spare_nodes >= 1);
        QVERIFY(slow->straggler_slowdown > 1.0 && slow->straggler_slowdown < 1.1);
        QCOMPARE(static_cast<int>(slow->curve.size()), 48);
        // LoRA saves adapters only.
        t.finetune = cl::model::Finetune::lora;
        QVERIFY(checkpoint_bytes(m, t) < bytes / 100);
    }

    // G.power.dgx_and_pue -- DGX H100 10.2 kW nameplate (NVIDIA datasheet via Epoch AI); the
    // facility draws IT x PUE.
    void dgxPowerAndPue() {
        auto inv = gpu_inventory(*cat_.gpu("h100-sxm"), cat_, 8, 0);
        QVERIFY2(inv.ok(), inv.error_text().c_str());
        QCOMPARE(inv->it_power_w, 10200.0);
        Economics e;
        e.price_per_gpu_hour = 2;
        e.avg_power_fraction = 1.0;
        e.pue = 1.3;
        auto t = compute_tco(*inv, e, nullptr);
        QVERIFY2(t.ok(), t.error_text().c_str());
        QVERIFY(near(t->power_kw, 10.2 * 1.3, 1e-12));
        QCOMPARE(t->racks, 1.0);
    }

    // G.semianalysis_100k_h100 -- SemiAnalysis "100,000 H100 Clusters": ~1.59 TWh per year and
    // ~$123.9M at $0.078/kWh. Stated assumptions: every DGX H100 at its 10.2 kW nameplate all
    // year (1,275 W per GPU = 700 W GPU + ~575 W server overhead, as SemiAnalysis counts) and
    // PUE 1.42 (Equinix 2023, the reference catalog). Tolerance +-10% (the source's hint).
    void semianalysis100k() {
        auto inv = gpu_inventory(*cat_.gpu("h100-sxm"), cat_, 100000, 0);
        QVERIFY2(inv.ok(), inv.error_text().c_str());
        Economics e;
        e.price_per_gpu_hour = 2;
        e.avg_power_fraction = 1.0;
        e.pue = 1.42;
        e.power_usd_per_kwh = 0.078;
        e.months = 12;
        auto t = compute_tco(*inv, e, nullptr);
        QVERIFY2(t.ok(), t.error_text().c_str());
        qInfo("100k H100: %.3f TWh/yr, $%.1fM/yr", t->energy_kwh / 1e9,
              t->onprem_breakdown.power / 1e6);
        QVERIFY(near(t->energy_kwh, 1.59e9, 0.10));
        QVERIFY(near(t->onprem_breakdown.power, 123.9e6, 0.10));
        QVERIFY(t->it_power_peak_kw > 120000); // "> 150 MW" of data-center capacity with PUE
        QVERIFY(t->it_power_peak_kw * e.pue > 150000);
    }

    // The network priced from a generated non-blocking fat tree: 1,024 H100 on NDR is about
    // $4.25k per GPU in the reference's cost model (48 switches + 2,048 cables with optics).
    void fatTreeNetworkPrice() {
        auto inv = gpu_inventory(*cat_.gpu("h100-sxm"), cat_, 1024, 0);
        QVERIFY2(inv.ok(), inv.error_text().c_str());
        const double per_gpu = (inv->switch_capex_usd + inv->cable_capex_usd) / 1024;
        qInfo("1024 H100 NDR fat tree: %.0f switches, %.0f cables, $%.0f per GPU", inv->switches,
              inv->cables, per_gpu);
        QVERIFY(near(per_gpu, 4250, 0.15));
    }

    // Cloud vs on-prem arithmetic: on-demand bills the hours used, commitments every hour;
    // break-even month and utilization agree with the monthly curves.
    void cloudVsOnprem() {
        auto inv = gpu_inventory(*cat_.gpu("h100-sxm"), cat_, 1024, 0);
        Economics e;
        e.cloud_offer = "aws-p5.48xlarge";
        const CloudOffer* offer = cat_.cloud("aws-p5.48xlarge");
        QVERIFY(offer);
        auto a = compute_tco(*inv, e, offer);
        QVERIFY2(a.ok(), a.error_text().c_str());
        QCOMPARE(static_cast<int>(a->monthly.size()), e.months + 1);
        QCOMPARE(a->monthly.front().onprem_usd, a->capex_usd);
        QVERIFY(near(a->cloud_price_per_gpu_hour, offer->on_demand_usd_per_hour / 8, 1e-12));
        if (a->breakeven_months > 0) {
            const auto& m = a->monthly[static_cast<std::size_t>(a->breakeven_months)];
            QVERIFY(m.onprem_usd <= m.cloud_usd);
            const auto& p = a->monthly[static_cast<std::size_t>(a->breakeven_months - 1)];
            QVERIFY(p.onprem_usd > p.cloud_usd);
        }
        QVERIFY(a->breakeven_utilization > 0 && a->breakeven_utilization <= 1);
        Economics half = e;
        half.utilization = a->breakeven_utilization;
        auto h = compute_tco(*inv, half, offer);
        QVERIFY(near(h->cloud_usd, h->onprem_usd, 1e-9));
        // A 3-year commitment bills every hour: utilization does not change the cloud bill.
        e.commitment = cl::model::Commitment::three_year;
        auto c3 = compute_tco(*inv, e, offer);
        e.utilization = 0.3;
        auto c3low = compute_tco(*inv, e, offer);
        QCOMPARE(c3->cloud_usd, c3low->cloud_usd);
        QVERIFY(c3->cloud_price_per_gpu_hour < a->cloud_price_per_gpu_hour);
        QCOMPARE(c3->breakeven_utilization, -1.0);
        // Spot with preemptions costs more than its sticker price per useful hour.
        e.commitment = cl::model::Commitment::spot;
        e.utilization = 0.8;
        auto s = compute_tco(*inv, e, offer);
        QVERIFY2(s.ok(), s.error_text().c_str());
        QVERIFY(s->cloud_usd > inv->gpus * 730 * 36 * 0.8 * s->cloud_price_per_gpu_hour);
        // A facility cap limits GPUs to whole servers.
        e.facility_power_cap_kw = 1000;
        auto cap = compute_tco(*inv, e, offer);
        QCOMPARE(cap->max_gpus_under_cap, std::floor(1000 / (10.2 * e.pue)) * 8);
        // Energy and carbon.
        QVERIFY(near(cap->co2_kg, cap->energy_kwh * e.grid_kg_co2_per_kwh, 1e-12));
    }

    // helper-18: servers the catalog has no price for are not owned for $0 (an HGX B200 design
    // showed capex $0 and break-even at month 1): owning is left out, naming them, until a
    // price is typed. Issue 21: renting still stands (the whole TCO was refused), and only with
    // neither side is the TCO refused.
    void unpricedServersLeaveOwningOut() {
        auto inv = gpu_inventory(*cat_.gpu("b200"), cat_, 64, 0);
        QVERIFY2(inv.ok(), inv.error_text().c_str());
        QVERIFY(!inv->unpriced.empty());
        Economics e;
        e.price_per_gpu_hour = 6;
        auto t = compute_tco(*inv, e, nullptr);
        QVERIFY2(t.ok(), t.error_text().c_str());
        QVERIFY(!t->has_onprem && t->has_cloud);
        QVERIFY2(t->onprem_missing.find("no price for") != std::string::npos &&
                     t->onprem_missing.find("server price") != std::string::npos,
                 t->onprem_missing.c_str());
        // Renting: 64 GPUs x 730 h x 36 months x $6 x 80% utilization (on-demand bills use).
        QVERIFY(std::abs(t->cloud_usd - 64 * 730.0 * 36 * 6 * 0.8) < 1.0);
        // Nothing of owning is a number: no capex, no breakdown, no break-even, no $/GPU-hour.
        QCOMPARE(t->capex_usd, 0.0);
        QCOMPARE(t->onprem_usd, 0.0);
        QCOMPARE(t->onprem_breakdown.total(), 0.0);
        QCOMPARE(t->breakeven_months, -1);
        QCOMPARE(t->breakeven_utilization, -1.0);
        for (const auto& o : t->cloud_options)
            QCOMPARE(o.breakeven_months, -1);
        // Power and space do not need prices.
        QVERIFY(t->it_power_peak_kw > 0 && t->racks >= 1);
        const RunCost rc = run_cost(*t, e, 1000);
        QVERIFY(rc.has_cloud && !rc.has_onprem && rc.cloud_usd == 6000);
        e.server_price_usd = 450000;
        t = compute_tco(*inv, e, nullptr);
        QVERIFY2(t.ok(), t.error_text().c_str());
        QVERIFY(t->has_onprem && t->has_cloud);
        QCOMPARE(t->onprem_breakdown.servers, 450000.0 * 8);
        // Neither side: refused, with both reasons.
        e.server_price_usd = 0;
        e.price_per_gpu_hour = 0;
        t = compute_tco(*inv, e, nullptr);
        QVERIFY(!t.ok());
        QVERIFY2(t.error_text().find("no price for") != std::string::npos &&
                     t.error_text().find("no cloud price") != std::string::npos,
                 t.error_text().c_str());
    }

    // Issue 21: every way of renting the offer allows, side by side. Each option is what the
    // TCO would bill had it been chosen: its rate, horizon cost and break-even month.
    void cloudOptionsSideBySide() {
        auto inv = gpu_inventory(*cat_.gpu("h100-sxm"), cat_, 1024, 0);
        Economics e;
        const CloudOffer* offer = cat_.cloud("aws-p5.48xlarge");
        QVERIFY(offer && offer->spot_usd_per_hour > 0);
        auto billed = compute_tco(*inv, e, offer);
        QVERIFY2(billed.ok(), billed.error_text().c_str());
        QCOMPARE(static_cast<int>(billed->cloud_options.size()), 4);
        QCOMPARE(billed->cloud_offer_name, std::string("AWS p5.48xlarge"));
        for (auto c : {cl::model::Commitment::on_demand, cl::model::Commitment::one_year,
                       cl::model::Commitment::three_year, cl::model::Commitment::spot}) {
            Economics ec = e;
            ec.commitment = c;
            auto one = compute_tco(*inv, ec, offer);
            QVERIFY2(one.ok(), one.error_text().c_str());
            const auto& o = billed->cloud_options[static_cast<std::size_t>(c)];
            QCOMPARE(o.commitment, c);
            QVERIFY(near(o.rate_per_gpu_hour, one->cloud_price_per_gpu_hour, 1e-12));
            QVERIFY(near(o.usd, one->cloud_usd, 1e-12));
            QVERIFY(near(o.usd_per_gpu_hour, one->cloud_usd_per_gpu_hour, 1e-12));
            QCOMPARE(o.breakeven_months, one->breakeven_months);
            QCOMPARE(o.source, one->cloud_price_source);
        }
        // Cheaper terms break even later (or never); on-demand is the dearest rate.
        const auto& opts = billed->cloud_options;
        QVERIFY(opts[0].rate_per_gpu_hour > opts[1].rate_per_gpu_hour);
        QVERIFY(opts[1].rate_per_gpu_hour > opts[2].rate_per_gpu_hour);
        QVERIFY(
            opts[0].breakeven_months >= 0 &&
            (opts[2].breakeven_months < 0 || opts[2].breakeven_months > opts[0].breakeven_months));
        // A typed price has no spot price: three options, none of them spot.
        e.price_per_gpu_hour = 2.5;
        auto typed = compute_tco(*inv, e, offer);
        QCOMPARE(static_cast<int>(typed->cloud_options.size()), 3);
        QCOMPARE(typed->cloud_offer_name, std::string("typed price"));
    }

    // Issue 21: the chosen interval stays on the goodput curve's axis, and an optimum shorter
    // than one checkpoint write is said, not just drawn.
    void reliabilityCurveKeepsTheChoice() {
        ReliabilityInputs in;
        ReliabilityContext ctx;
        ctx.gpus = 16384;
        ctx.checkpoint_bytes = 5.67e12;
        ctx.run_days = 54;
        in.checkpoint_interval_s = 40 * 3600; // far beyond 20x the optimum
        auto r = compute_reliability(in, ctx);
        QVERIFY2(r.ok(), r.error_text().c_str());
        QVERIFY(r->curve.back().interval_s >= in.checkpoint_interval_s);
        QVERIFY(r->curve.front().interval_s <= r->optimal_checkpoint_interval_s);
        const auto said = [&](const auto& x) {
            for (const auto& n : x->notes)
                if (n.find("shorter than one checkpoint write") != std::string::npos)
                    return true;
            return false;
        };
        QVERIFY(!said(r));
        // Slow storage with asynchronous snapshots: Daly's optimum (from the short stall) falls
        // below the write time, and the note says so.
        in.checkpoint_interval_s = 0;
        in.async_checkpoint = true;
        in.storage_bandwidth_Bps = 2e10;
        auto slow = compute_reliability(in, ctx);
        QVERIFY2(slow.ok(), slow.error_text().c_str());
        QVERIFY(slow->optimal_checkpoint_interval_s < slow->checkpoint_write_s);
        QVERIFY(said(slow));
    }

    // Journey 2: for ~1,000 H100 over three years, utilization and the GPU (server) price
    // dominate owning vs renting.
    void sensitivityTornado() {
        Design d = cl::test::preset("dgx-h100-4su");
        d.economics.commitment =
            cl::model::Commitment::on_demand; // pay per use: utilization matters to the cloud bill
        const auto r = sensitivity(d, cat_, SensitivityOutput::onprem_minus_cloud_usd);
        QVERIFY2(r.error.empty(), r.error.c_str());
        QVERIFY(r.bars.size() >= 5);
        for (std::size_t i = 1; i < r.bars.size(); ++i)
            QVERIFY(r.bars[i - 1].swing() >= r.bars[i].swing());
        QStringList top;
        for (std::size_t i = 0; i < 3; ++i)
            top << QString::fromStdString(r.bars[i].input);
        qInfo() << "largest swings:" << top;
        QVERIFY(top.contains(QStringLiteral("Utilization")));
        for (const auto& b : r.bars)
            if (b.input == "Cloud price") // dearer cloud: owning looks better (smaller difference)
                QVERIFY(b.output_high < b.output_low);
        QVERIFY(top.contains(QStringLiteral("Server price")));
        // No price and no workload: a clear reason, no bars.
        const auto none = sensitivity(Design{}, cat_, SensitivityOutput::training_cost_usd);
        QVERIFY(!none.error.empty());
        QVERIFY(none.bars.empty());
    }

    // The tornado's inputs are the schema's fields marked `sensitivity` (no table of its own):
    // every numeric cost input is one, each bar names its field's label and stays in its range,
    // and a workload's marked fields (tokens, input and output length) move their outputs.
    void sensitivityInputsFromSchema() {
        for (const Field* f : section_fields(Section::economics))
            QCOMPARE(f->sensitivity, f->type == FieldType::number);
        const auto label_of = [](Section s, const char* key) {
            const Field* f = find_field(s, key);
            return QString::fromStdString(f ? f->label : std::string(key));
        };
        const auto marked = [](const std::string& label) -> const Field* {
            for (const auto& f : schema())
                if (f.sensitivity && f.label == label)
                    return &f;
            return nullptr;
        };
        Design d = cl::test::preset("dgx-h100-4su");
        d.economics.commitment = Commitment::on_demand;
        const auto r = sensitivity(d, cat_, SensitivityOutput::onprem_minus_cloud_usd);
        QStringList inputs;
        for (const auto& b : r.bars) {
            inputs << QString::fromStdString(b.input);
            if (b.input == "Cloud price") // scaled through the catalog's offers
                continue;
            const Field* f = marked(b.input);
            QVERIFY2(f && b.low_value >= f->min && b.high_value <= f->max, b.input.c_str());
        }
        for (const auto* key : {"utilization", "server_price_usd", "power_usd_per_kwh", "pue",
                                "colo_usd_per_kw_month", "maintenance_fraction"})
            QVERIFY2(inputs.contains(label_of(Section::economics, key)), key);
        const auto serve = sensitivity(cl::test::preset("h200-inference-8x"), cat_,
                                       SensitivityOutput::usd_per_million_tokens);
        QStringList serving;
        for (const auto& b : serve.bars)
            serving << QString::fromStdString(b.input);
        for (const auto* key : {"input_len", "output_len"}) {
            const Field* f = find_field(Section::inference, key);
            QVERIFY(f && f->sensitivity);
            QVERIFY2(serving.contains(label_of(Section::inference, key)), key);
        }
        const auto train = sensitivity(d, cat_, SensitivityOutput::training_cost_usd);
        QStringList training;
        for (const auto& b : train.bars)
            training << QString::fromStdString(b.input);
        QVERIFY(training.contains(label_of(Section::training, "tokens")));
        // Issue 19: the training cost rests on the step-time model, so the tornado knows its
        // error band, and a bar is "within the model's error" exactly when both its ends lie
        // inside the band. (Tokens to train, +-20% of the cost, fell outside the band until
        // session 22 widened the training bands to the held-out errors of two GEMM factors.)
        QVERIFY(train.model_error > 0.02 && train.model_error < 0.5);
        QVERIFY(train.band_low < train.base && train.base < train.band_high);
        for (const auto& b : train.bars) {
            QCOMPARE(b.within_model_error,
                     std::min(b.output_low, b.output_high) >= train.band_low &&
                         std::max(b.output_low, b.output_high) <= train.band_high);
            if (b.input == label_of(Section::training, "tokens").toStdString())
                QVERIFY(std::abs(b.output_high / train.base - 1.2) < 0.01); // cost ~ tokens
        }
        // TCO outputs do not rest on the performance model: no band, nothing marked.
        const auto tco = sensitivity(d, cat_, SensitivityOutput::onprem_minus_cloud_usd);
        QCOMPARE(tco.model_error, 0.0);
        QCOMPARE(tco.band_high, 0.0);
        for (const auto& b : tco.bars)
            QVERIFY(!b.within_model_error);
    }

    void badInputs() {
        auto inv = gpu_inventory(*cat_.gpu("h100-sxm"), cat_, 8, 0);
        Economics e; // no price, no offer: owning is costed, renting left out with the reason
        auto t = compute_tco(*inv, e, nullptr);
        QVERIFY2(t.ok(), t.error_text().c_str());
        QVERIFY(!t->has_cloud && t->has_onprem && t->onprem_usd > 0);
        QVERIFY2(t->cloud_missing.find("no cloud price") != std::string::npos,
                 t->cloud_missing.c_str());
        QCOMPARE(t->cloud_usd, 0.0);
        QVERIFY(t->cloud_options.empty() && t->breakeven_months < 0);
        QVERIFY(!gpu_inventory(*cat_.gpu("h100-sxm"), cat_, 0, 0).ok());
        QVERIFY(!gpu_inventory(*cat_.gpu("h100-sxm"), cat_, 1e30, 0).ok());
        ReliabilityContext ctx;
        QVERIFY(!compute_reliability({}, ctx).ok()); // no GPUs
        ctx.gpus = 8;
        QVERIFY(!compute_reliability({}, ctx).ok()); // no checkpoint size or write time
    }
};

QTEST_GUILESS_MAIN(TestCost)
#include "tst_cost.moc"
