// Issue 23: the fleet simulation against known answers -- M/M/c (Erlang C) for one class of
// one-node jobs with Poisson arrivals and exponential durations, Little's law on every run,
// GPU-hours conserved -- and the policies' defining behaviour.
#include "model/fleet.h"
#include "model/trace_formats.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <set>

#include <cmath>
#include <memory>
#include <numbers>
#include <sstream>

using namespace cl::model;

class TestFleet : public QObject {
    Q_OBJECT
private:
    /// c nodes of 8 GPUs, one class of one-node jobs at load rho (mean duration 1 h).
    static FleetSpec mmc(int c, double rho, double days, std::uint64_t seed = 7) {
        FleetSpec s;
        s.nodes = c;
        s.gpus_per_node = 8;
        FleetClass k;
        k.gpus_per_job = 8;
        k.mean_duration_h = 1;
        k.arrival_rate_per_hour = rho * c;
        s.classes = {k};
        s.horizon_days = days;
        s.warmup_days = days / 20;
        s.seed = seed;
        return s;
    }

private slots:
    // The allocation timeline (issue 23): with every node a row, a one-node job per node, the
    // cells that hold a job at a sample are exactly the busy GPUs then / 8; every cell's job ran
    // on that row's node at that moment; a node out for repair reads kDown. A large cluster
    // shows 64 nodes spread over it.
    void allocationTimeline() {
        FleetSpec s = mmc(20, 0.8, 30);
        s.node_failures_per_hour = 0.002;
        s.repair_h = 24;
        const auto r = simulate_fleet(s);
        QVERIFY2(r.ok(), r.error_text().c_str());
        const FleetAllocation& a = r->allocation;
        QCOMPARE(a.node_rows.size(), std::size_t{20});
        QCOMPARE(a.columns, static_cast<int>(r->timeline.size()));
        QCOMPARE(a.cell.size(), a.node_rows.size() * r->timeline.size());
        int down = 0, held = 0;
        for (int c = 0; c < a.columns; ++c) {
            const double t = r->timeline[static_cast<std::size_t>(c)].t_s;
            int busy_cells = 0;
            for (std::size_t row = 0; row < a.node_rows.size(); ++row) {
                const int j = a.at(row, static_cast<std::size_t>(c));
                if (j == FleetAllocation::kDown) {
                    ++down;
                    continue;
                }
                if (j == FleetAllocation::kIdle)
                    continue;
                ++busy_cells;
                ++held;
                QVERIFY(j >= 0 && j < static_cast<int>(a.jobs.size()));
                const FleetAllocJob& job = a.jobs[static_cast<std::size_t>(j)];
                QVERIFY2(
                    job.start_s <= t && t <= job.end_s,
                    qPrintable(
                        QStringLiteral("%1 not in %2..%3").arg(t).arg(job.start_s).arg(job.end_s)));
                QCOMPARE(job.gpus, 8);
                QCOMPARE(job.nodes.size(), std::size_t{1});
                QCOMPARE(job.nodes.front().first, a.node_rows[row]);
            }
            QCOMPARE(busy_cells * 8.0, r->timeline[static_cast<std::size_t>(c)].busy_gpus);
            for (std::size_t row = 0; row < a.node_rows.size(); ++row) // whole-node jobs
                QCOMPARE(a.held_at(row, static_cast<std::size_t>(c)),
                         a.at(row, static_cast<std::size_t>(c)) >= 0 ? 1.0 : 0.0);
        }
        QVERIFY(held > 0);
        // Jobs of 2 GPUs on nodes of 8 (helper-31: a node partly held showed as full): each
        // cell holds the share of its node's GPUs held, and the shares add up to the busy GPUs.
        FleetSpec part = mmc(8, 0.7, 20);
        part.classes.front().gpus_per_job = 2;
        part.classes.front().arrival_rate_per_hour *= 4;
        const auto rp = simulate_fleet(part);
        QVERIFY2(rp.ok(), rp.error_text().c_str());
        const FleetAllocation& pa = rp->allocation;
        QCOMPARE(pa.held.size(), pa.cell.size());
        int partial = 0;
        for (int c = 0; c < pa.columns; ++c) {
            double gpus = 0;
            for (std::size_t row = 0; row < pa.node_rows.size(); ++row) {
                const double h = pa.held_at(row, static_cast<std::size_t>(c));
                QVERIFY(h >= 0 && h <= 1);
                QCOMPARE(h > 0, pa.at(row, static_cast<std::size_t>(c)) >= 0);
                partial += h > 0 && h < 1;
                gpus += h * 8;
            }
            QVERIFY2(std::abs(gpus - rp->timeline[static_cast<std::size_t>(c)].busy_gpus) < 1e-4,
                     qPrintable(QStringLiteral("%1 vs %2")
                                    .arg(gpus)
                                    .arg(rp->timeline[static_cast<std::size_t>(c)].busy_gpus)));
        }
        QVERIFY(partial > 0);
        QVERIFY(down > 0); // ~4.6% of node-time is out for repair at this rate
        // 2,048 nodes: 64 rows, distinct, spread from the first node to near the last.
        FleetSpec big = mmc(2048, 0.5, 5);
        const auto rb = simulate_fleet(big);
        QVERIFY(rb.ok());
        const auto& rows = rb->allocation.node_rows;
        QCOMPARE(rows.size(), std::size_t{64});
        QCOMPARE(rows.front(), 0);
        QCOMPARE(rows.back(), 2048 - 32);
        QVERIFY(std::adjacent_find(rows.begin(), rows.end(), std::greater_equal<>()) == rows.end());
        // Multi-node jobs list every node they hold, with the GPUs on each.
        FleetSpec multi = mmc(16, 0.7, 10);
        multi.classes.front().gpus_per_job = 32;
        multi.classes.front().arrival_rate_per_hour = 0.7 * 16 / 4;
        const auto rm = simulate_fleet(multi);
        QVERIFY(rm.ok());
        QVERIFY(!rm->allocation.jobs.empty());
        for (const auto& job : rm->allocation.jobs) {
            QCOMPARE(job.nodes.size(), std::size_t{4});
            int g = 0;
            for (const auto& [n, k] : job.nodes)
                g += k;
            QCOMPARE(g, 32);
        }
    }

    void erlangCKnownValues() {
        // A classic check: c = 2, a = 1 Erlang: C = 1/3; c = 1 is M/M/1: C = rho.
        QVERIFY(std::abs(erlang_c(2, 1.0) - 1.0 / 3.0) < 1e-12);
        QVERIFY(std::abs(erlang_c(1, 0.7) - 0.7) < 1e-12);
        QCOMPARE(erlang_c(4, 4.0), 1.0);
        // M/M/1: Wq = rho / (mu - lambda).
        QVERIFY(std::abs(erlang_c_wait(1, 0.5, 1.0) - 1.0) < 1e-12);
        QVERIFY(std::isinf(erlang_c_wait(3, 3.0, 1.0)));
    }

    // The simulated mean wait of M/M/c matches Erlang C within 5% over a long horizon with the
    // warm-up excluded, at loads up to 0.95; utilization matches rho; Little's law holds.
    void mmcMatchesErlangC() {
        struct Case {
            int c;
            double rho, days;
        };
        const Case cases[] = {
            {1, 0.5, 10000}, {4, 0.7, 10000}, {8, 0.8, 10000}, {8, 0.9, 20000}, {16, 0.95, 20000}};
        for (const auto& k : cases) {
            const FleetSpec s = mmc(k.c, k.rho, k.days);
            const auto r = simulate_fleet(s);
            QVERIFY2(r.ok(), r.error_text().c_str());
            const double lambda = k.rho * k.c / 3600.0, mu = 1 / 3600.0;
            const double want = erlang_c_wait(k.c, lambda, mu);
            const double err = r->wait_mean_s / want - 1;
            qInfo().noquote() << QStringLiteral(
                                     "M/M/%1 at rho %2: wait %3 s simulated, %4 s Erlang C "
                                     "(%5%), utilization %6, %7 jobs")
                                     .arg(k.c)
                                     .arg(k.rho)
                                     .arg(r->wait_mean_s, 0, 'f', 1)
                                     .arg(want, 0, 'f', 1)
                                     .arg(err * 100, 0, 'f', 2)
                                     .arg(r->utilization, 0, 'f', 4)
                                     .arg(r->jobs_started);
            QVERIFY2(std::abs(err) <= 0.05, qPrintable(QString::number(err)));
            QVERIFY(std::abs(r->utilization - k.rho) <= 0.02 * k.rho);
            QVERIFY(std::abs(r->mean_queue_length - r->little_queue_length) <=
                    0.02 * std::max(0.01, r->mean_queue_length));
        }
    }

    // Deterministic for a seed; another seed gives another run.
    void deterministic() {
        const auto a = simulate_fleet(mmc(4, 0.8, 200, 3));
        const auto b = simulate_fleet(mmc(4, 0.8, 200, 3));
        const auto c = simulate_fleet(mmc(4, 0.8, 200, 4));
        QVERIFY(a.ok() && b.ok() && c.ok());
        QCOMPARE(a->wait_mean_s, b->wait_mean_s);
        QCOMPARE(a->events, b->events);
        QVERIFY(a->wait_mean_s != c->wait_mean_s);
    }

    // GPU-hours are conserved: what the jobs started and finished in the window used, plus
    // what is still running, equals the busy integral; used never exceeds available.
    void gpuHoursConserved() {
        FleetSpec s;
        s.nodes = 16;
        s.gpus_per_node = 8;
        s.classes = {{"small", 1, 40, 2, 0}, {"node", 8, 4, 6, 0}, {"big", 32, 0.5, 12, 0}};
        s.horizon_days = 60;
        s.warmup_days = 0; // every GPU-hour from time 0 is in the window
        s.policy = FleetPolicy::backfill;
        const auto r = simulate_fleet(s);
        QVERIFY2(r.ok(), r.error_text().c_str());
        QVERIFY(r->gpu_hours_used <= r->gpu_hours_available + 1e-6);
        QVERIFY(r->utilization > 0.3 && r->utilization < 1);
        // Offered load: sum over classes of rate x GPUs x duration, per available GPU-hour.
        const double offered = (40 * 1 * 2 + 4 * 8 * 6 + 0.5 * 32 * 12) / 128.0;
        QVERIFY2(r->utilization <= offered * 1.05,
                 qPrintable(QStringLiteral("%1 vs %2").arg(r->utilization).arg(offered)));
        QVERIFY(std::abs(r->mean_queue_length - r->little_queue_length) <=
                0.02 * std::max(0.01, r->mean_queue_length));
        QCOMPARE(r->classes.size(), std::size_t{3});
        for (const auto& k : r->classes)
            QVERIFY(k.jobs_completed > 0);
        // Conservation: job by job, the same GPU-hours as the busy integral.
        QVERIFY2(std::abs(r->gpu_hours_by_jobs + r->gpu_hours_switching - r->gpu_hours_used) <=
                     1e-9 * r->gpu_hours_used,
                 qPrintable(QStringLiteral("%1 vs %2")
                                .arg(r->gpu_hours_by_jobs, 0, 'f', 6)
                                .arg(r->gpu_hours_used, 0, 'f', 6)));
    }

    // MIG (issue 23): jobs of one class each taking one instance of the MIG nodes' GPUs (7 x 1g
    // per GPU) form an M/M/c queue with c = instances; the mean wait matches Erlang C within 5%,
    // busy time counts 1/7 of a GPU per instance, Little's law holds. Whole-GPU jobs beside them
    // run on the other nodes; GPU-hours are conserved; node failures stop MIG jobs too.
    // Helper-36: notebooks 4 -> 5 an hour (MIG only) moved the whole-GPU classes' utilization by
    // 6 points: every class drew from one stream, so any edit re-rolled every job. Each class
    // now has its own stream: the untouched class's jobs are the same ones, the same times.
    void editingOneClassKeepsTheOthersJobs() {
        FleetSpec s;
        s.nodes = 64; // ample: nothing waits, so a class's runs depend on its own draws only
        s.gpus_per_node = 8;
        FleetClass a{"fine-tunes", 8, 1, 6, 0};
        FleetClass b{"notebooks", 1, 4, 1, 0};
        s.classes = {a, b};
        s.horizon_days = 60;
        s.warmup_days = 0; // no node failures (node_failures_per_hour 0)
        const auto before = simulate_fleet(s);
        QVERIFY2(before.ok(), before.error_text().c_str());
        s.classes[1].arrival_rate_per_hour = 5;
        s.classes[1].mean_duration_h = 2;
        const auto after = simulate_fleet(s);
        QVERIFY2(after.ok(), after.error_text().c_str());
        QCOMPARE(after->classes[0].jobs_completed, before->classes[0].jobs_completed);
        QCOMPARE(after->classes[0].mean_held, before->classes[0].mean_held);
        QVERIFY(after->classes[1].jobs_completed > before->classes[1].jobs_completed);
        // The same seed, the same run; another seed, other draws.
        const auto again = simulate_fleet(s);
        QCOMPARE(again->gpu_hours_used, after->gpu_hours_used);
        s.seed = 2;
        const auto other = simulate_fleet(s);
        QVERIFY(other->gpu_hours_used != after->gpu_hours_used);
    }

    // Helper-36: seeds 1, 2 and 3 gave 63.9, 65.8 and 48.9 % on one design and nothing said a
    // 30-day run is that noisy. Each run carries a 95 % batch-means interval; over independent
    // runs of an M/M/c queue it covers the known utilization (rho) and mean wait (Erlang C)
    // about as often as it says, and it narrows as the run grows (1/sqrt(length)).
    void batchMeansIntervalsCoverTheTruth() {
        const int c = 8;
        const double rho = 0.8;
        const double want_wait = erlang_c_wait(c, rho * c / 3600.0, 1 / 3600.0);
        int covered_u = 0, covered_w = 0, runs = 0;
        double short_hw = 0, long_hw = 0;
        for (std::uint64_t seed = 1; seed <= 40; ++seed) {
            const auto r = simulate_fleet(mmc(c, rho, 60, seed));
            QVERIFY2(r.ok(), r.error_text().c_str());
            QVERIFY(r->utilization_ci95 > 0 && r->wait_mean_ci95_s > 0);
            ++runs;
            covered_u += std::abs(r->utilization - rho) <= r->utilization_ci95;
            covered_w += std::abs(r->wait_mean_s - want_wait) <= r->wait_mean_ci95_s;
            short_hw += r->utilization_ci95 / 40;
        }
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            const auto r = simulate_fleet(mmc(c, rho, 960, seed));
            QVERIFY2(r.ok(), r.error_text().c_str());
            long_hw += r->utilization_ci95 / 4;
        }
        qInfo().noquote() << QStringLiteral(
                                 "M/M/%1 at rho %2, 60 days: utilization interval covers rho in "
                                 "%3 of %4 runs, the mean wait Erlang C's in %5; mean half-width "
                                 "%6 (960 days: %7)")
                                 .arg(c)
                                 .arg(rho)
                                 .arg(covered_u)
                                 .arg(runs)
                                 .arg(covered_w)
                                 .arg(short_hw, 0, 'f', 4)
                                 .arg(long_hw, 0, 'f', 4);
        // Nominal 95 %: at least 80 % of 40 runs (batch means undercover a little when the
        // batches are correlated; a miss rate of half would mean the interval is wrong).
        QVERIFY(covered_u >= 32);
        QVERIFY(covered_w >= 30);
        // Sixteen times longer: about a quarter of the width.
        QVERIFY2(long_hw < 0.4 * short_hw && long_hw > 0.15 * short_hw,
                 qPrintable(QStringLiteral("%1 vs %2").arg(long_hw).arg(short_hw)));
    }

    void migInstancesAreMMc() {
        for (const double rho : {0.7, 0.9}) {
            FleetSpec s;
            s.nodes = 1;
            s.gpus_per_node = 2;
            s.mig_nodes = 1;
            s.mig_instances_per_gpu = 7; // 14 instances
            FleetClass k;
            k.name = "notebooks";
            k.mig = true;
            k.mean_duration_h = 1;
            k.arrival_rate_per_hour = rho * 14;
            s.classes = {k};
            s.horizon_days = 10000;
            s.warmup_days = 500;
            const auto r = simulate_fleet(s);
            QVERIFY2(r.ok(), r.error_text().c_str());
            const double want = erlang_c_wait(14, rho * 14 / 3600.0, 1 / 3600.0);
            const double err = r->wait_mean_s / want - 1;
            qInfo().noquote() << QStringLiteral("MIG 14 x 1g at rho %1: wait %2 s simulated, %3 s "
                                                "Erlang C (%4%), instance utilization %5")
                                     .arg(rho)
                                     .arg(r->wait_mean_s, 0, 'f', 1)
                                     .arg(want, 0, 'f', 1)
                                     .arg(err * 100, 0, 'f', 2)
                                     .arg(r->mig_utilization, 0, 'f', 4);
            QVERIFY2(std::abs(err) <= 0.05, qPrintable(QString::number(err)));
            QCOMPARE(r->mig_instances, std::int64_t{14});
            QVERIFY(std::abs(r->mig_utilization - rho) <= 0.02 * rho);
            // Every GPU of the cluster is partitioned: GPU utilization = instance utilization.
            QVERIFY(std::abs(r->utilization - r->mig_utilization) <= 1e-9);
            QVERIFY(std::abs(r->mean_queue_length - r->little_queue_length) <=
                    0.02 * std::max(0.01, r->mean_queue_length));
        }
        // A mix: whole-GPU jobs on 3 nodes, 1g instances on 1 node; failures on; conservation.
        FleetSpec s;
        s.nodes = 4;
        s.gpus_per_node = 8;
        s.mig_nodes = 1;
        s.mig_instances_per_gpu = 7; // 56 instances
        FleetClass nb{"notebooks", 1, 40, 1, 0};
        nb.mig = true;
        nb.preemptible = true;
        FleetClass ft{"fine-tunes", 8, 1, 2, 1};
        s.classes = {nb, ft};
        s.horizon_days = 200;
        s.warmup_days = 0;
        s.policy = FleetPolicy::preemptive;
        s.node_failures_per_hour = 0.01;
        s.repair_h = 12;
        const auto r = simulate_fleet(s);
        QVERIFY2(r.ok(), r.error_text().c_str());
        QCOMPARE(r->mig_instances, std::int64_t{56});
        // Offered: notebooks 40 x 1 h of 1/7 GPU = 5.7 GPUs; fine-tunes 1 x 2 h x 8 = 16 GPUs.
        const double offered_gpus = 40.0 / 7 + 16;
        QVERIFY2(std::abs(r->utilization * 32 - offered_gpus) < 0.1 * offered_gpus,
                 qPrintable(QString::number(r->utilization * 32)));
        // Instances busy: 40 of 56 offered, less the time the MIG node is out for repair.
        QVERIFY2(r->mig_utilization > 0.55 && r->mig_utilization <= 40.0 / 56 + 0.03,
                 qPrintable(QString::number(r->mig_utilization)));
        QVERIFY(r->interruptions > 0);
        QVERIFY(r->preemptions == 0); // fine-tunes never need the MIG node's instances
        QVERIFY2(std::abs(r->gpu_hours_by_jobs + r->gpu_hours_switching - r->gpu_hours_used) <=
                     1e-9 * r->gpu_hours_used,
                 qPrintable(QStringLiteral("%1 vs %2")
                                .arg(r->gpu_hours_by_jobs, 0, 'f', 6)
                                .arg(r->gpu_hours_used, 0, 'f', 6)));
        // Refusals with their field: a MIG class and no MIG node; whole GPUs and none left.
        FleetSpec none = s;
        none.mig_nodes = 0;
        auto bad = simulate_fleet(none);
        QVERIFY(!bad.ok() && bad.error_text().find("classes[0].mig") != std::string::npos);
        FleetSpec all = s;
        all.mig_nodes = 4;
        bad = simulate_fleet(all);
        QVERIFY2(!bad.ok() && bad.error_text().find("every node has MIG") != std::string::npos,
                 bad.error_text().c_str());
        all.mig_nodes = 5;
        QVERIFY(!simulate_fleet(all).ok());
    }

    // A class none of whose jobs started after the warm-up has no wait to report: its waits
    // count no job (waits_counted 0), which the screens say as "none started", not "0 s"
    // (helper-15). Here one node, one job that runs for a year, the rest queued behind it.
    void noWaitWhenNoneStarted() {
        FleetSpec s;
        s.nodes = 1;
        s.gpus_per_node = 8;
        FleetClass k{"stuck", 8, 1, 8760, 0};
        s.classes = {k};
        s.horizon_days = 30;
        s.warmup_days = 3;
        s.seed = 3;
        const auto r = simulate_fleet(s);
        QVERIFY2(r.ok(), r.error_text().c_str());
        QVERIFY(r->jobs_waiting_at_end > 100);
        QCOMPARE(r->waits_counted, std::int64_t{0});
        QCOMPARE(r->classes[0].waits_counted, std::int64_t{0});
        // And a run where jobs do start counts them.
        s.classes[0].mean_duration_h = 0.5;
        s.classes[0].arrival_rate_per_hour = 1;
        const auto ok = simulate_fleet(s);
        QVERIFY(ok.ok() && ok->classes[0].waits_counted == ok->classes[0].jobs_started &&
                ok->waits_counted > 100);
    }

    // Time-slicing (issue 23): one GPU shared by every job that arrives (replicas without
    // limit in practice), each keeping it busy alone (gpu_busy 1), Poisson arrivals and
    // exponential work: an M/M/1 processor-sharing queue. Its mean time in system is
    // 1 / (mu - lambda) and a job of work x takes x / (1 - rho) on average (Kleinrock 1976,
    // vol. 2, sec. 4.4, processor sharing), so runs are 1 / (1 - rho) times slower than alone.
    void timeSlicedGpuIsProcessorSharing() {
        for (const double rho : {0.5, 0.8}) {
            // Switching costs nothing: the known answer's server.
            const auto r = simulate_fleet(oneSlicedGpu(rho, 1));
            QVERIFY2(r.ok(), r.error_text().c_str());
            const double want = 3600 / (1 - rho); // 1 / (mu - lambda), mu = 1/h
            const auto& c = r->classes.front();
            const double err = c.mean_run_s / want - 1;
            qInfo().noquote() << QStringLiteral("M/M/1-PS at rho %1: time in system %2 s "
                                                "simulated, %3 s known (%4%), slowdown %5")
                                     .arg(rho)
                                     .arg(c.mean_run_s, 0, 'f', 1)
                                     .arg(want, 0, 'f', 1)
                                     .arg(err * 100, 0, 'f', 2)
                                     .arg(c.slowdown, 0, 'f', 3);
            QVERIFY2(std::abs(err) <= 0.05, qPrintable(QString::number(err)));
            QVERIFY(std::abs(c.slowdown * (1 - rho) - 1) <= 0.05);
            QVERIFY(c.time_sliced);
            QCOMPARE(c.wait_mean_s, 0.0); // a replica is always free: nobody queues
            // Busy whenever a job is there (D >= 1): utilization = allocated = rho.
            QVERIFY(std::abs(r->utilization - rho) <= 0.02 * rho);
            QVERIFY(std::abs(r->allocated_fraction - r->utilization) <= 1e-9);
            QVERIFY(std::abs(r->timeslice_utilization - r->utilization) <= 1e-9);
            // Jobs on the GPU while it holds any: 1 / (1 - rho) for M/M/1 (L / P(N >= 1)).
            QVERIFY2(std::abs(r->timeslice_jobs_per_gpu * (1 - rho) - 1) <= 0.05,
                     qPrintable(QString::number(r->timeslice_jobs_per_gpu)));
            QVERIFY2(std::abs(r->gpu_hours_by_jobs + r->gpu_hours_switching - r->gpu_hours_used) <=
                         1e-9 * r->gpu_hours_used,
                     qPrintable(QStringLiteral("%1 vs %2")
                                    .arg(r->gpu_hours_by_jobs, 0, 'f', 6)
                                    .arg(r->gpu_hours_used, 0, 'f', 6)));
        }
    }

    // Switching between contexts (session 38): two or more jobs on a GPU get e of it together,
    // a job alone all of it. With d = 1 and Poisson arrivals and exponential work on one GPU,
    // that is a birth-death queue served at mu with one job and e x mu with more: p1 = rho p0,
    // pn = rho (rho/e)^(n-1) p0, so L = rho p0 / (1 - rho/e)^2 with p0 = 1 / (1 + rho / (1 -
    // rho/e)), and the time in system L / lambda (Little). The GPU is busy whenever a job is
    // there (1 - p0); its jobs' work is rho of the time, the rest (1 - p0 - rho) switching.
    void timeSlicedGpuSwitchingCostsThroughput() {
        const double e = 0.76;
        for (const double rho : {0.3, 0.5}) {
            const auto r = simulate_fleet(oneSlicedGpu(rho, e));
            QVERIFY2(r.ok(), r.error_text().c_str());
            const double q = rho / e, p0 = 1 / (1 + rho / (1 - q));
            const double L = rho * p0 / ((1 - q) * (1 - q));
            const double want = L / (rho / 3600); // mu = 1/h, lambda = rho/h
            const auto& c = r->classes.front();
            const double err = c.mean_run_s / want - 1;
            qInfo().noquote() << QStringLiteral("switching at e %1, rho %2: time in system %3 s "
                                                "simulated, %4 s known (%5%); busy %6 (known "
                                                "%7), switching %8 of the time (known %9)")
                                     .arg(e)
                                     .arg(rho)
                                     .arg(c.mean_run_s, 0, 'f', 1)
                                     .arg(want, 0, 'f', 1)
                                     .arg(err * 100, 0, 'f', 2)
                                     .arg(r->timeslice_utilization, 0, 'f', 4)
                                     .arg(1 - p0, 0, 'f', 4)
                                     .arg(r->gpu_hours_switching / r->gpu_hours_available, 0, 'f',
                                          4)
                                     .arg(1 - p0 - rho, 0, 'f', 4);
            QVERIFY2(std::abs(err) <= 0.05, qPrintable(QString::number(err)));
            QVERIFY(std::abs(r->timeslice_utilization - (1 - p0)) <= 0.02);
            QVERIFY(std::abs(r->gpu_hours_switching / r->gpu_hours_available - (1 - p0 - rho)) <=
                    0.02);
            QVERIFY(std::abs(r->gpu_hours_by_jobs / r->gpu_hours_available - rho) <= 0.02 * rho);
            // Switching is busy time but no job's work: useful work is the jobs' alone.
            QVERIFY(std::abs(r->useful_fraction * r->gpu_hours_available - r->gpu_hours_by_jobs) <=
                    1e-6 * r->gpu_hours_by_jobs);
            QVERIFY(std::abs(r->gpu_hours_by_jobs + r->gpu_hours_switching - r->gpu_hours_used) <=
                    1e-9 * r->gpu_hours_used);
            QCOMPARE(r->timeslice_efficiency, e);
        }
        // Jobs that seldom overlap lose little: two always on one GPU (replicas 2, far more
        // arrivals than it serves), each active 35 % of the time: they overlap 0.35^2 of it, so
        // (1 - e) x 0.1225 goes to switching, the GPU is busy 0.70 + that, and neither is
        // slowed (timeslice_switching gives the same share).
        {
            FleetSpec two = oneSlicedGpu(20, e);
            two.timeslice_replicas = 2;
            two.classes[0].gpu_busy = 0.35;
            two.horizon_days = 400;
            two.warmup_days = 1;
            const auto r = simulate_fleet(two);
            QVERIFY2(r.ok(), r.error_text().c_str());
            const double o = (1 - e) * 0.35 * 0.35;
            QVERIFY(std::abs(timeslice_switching(2, 0.35, e) - o) < 1e-12);
            QCOMPARE(timeslice_switching(1, 1, e), 0.0);
            QVERIFY(std::abs(timeslice_switching(3, 1, e) - (1 - e)) < 1e-12);
            QVERIFY2(std::abs(r->timeslice_utilization - (0.7 + o)) < 1e-3,
                     qPrintable(QString::number(r->timeslice_utilization)));
            QVERIFY(std::abs(r->gpu_hours_switching / r->gpu_hours_available - o) < 1e-3);
            QVERIFY(std::abs(r->classes[0].slowdown - 1) < 1e-9);
        }
        // Out of range is refused naming the field.
        FleetSpec bad;
        bad.nodes = 1;
        bad.timeslice_nodes = 1;
        FleetClass k{"notebooks", 1, 1, 1, 0};
        k.time_sliced = true;
        bad.classes = {k};
        for (const double v : {0.0, 1.5, std::nan("")}) {
            bad.timeslice_efficiency = v;
            const auto e2 = simulate_fleet(bad);
            QVERIFY(!e2.ok());
            QVERIFY2(e2.error_text().find("timeslice_efficiency") != std::string::npos,
                     e2.error_text().c_str());
        }
    }

    // Jobs that keep a GPU a quarter busy, four replicas per GPU: four of them together keep it
    // busy at most, so none is ever slowed (slowdown 1), the 32 replicas of 8 GPUs are the
    // servers of an M/M/32 queue (Erlang C), the GPUs are busy a quarter of the offered jobs,
    // and allocated (a GPU holding any job) is well above busy: what time-slicing recovers.
    void timeSlicingWithinAGpuIsMMc() {
        FleetSpec s;
        s.nodes = 2;
        s.gpus_per_node = 8;
        s.timeslice_nodes = 1; // node 1; node 0 whole GPUs
        s.timeslice_replicas = 4;
        s.timeslice_efficiency = 1; // four jobs never want more than the GPU gives
        FleetClass nb{"notebooks", 1, 0.9 * 32, 1, 0};
        nb.time_sliced = true;
        nb.gpu_busy = 0.25;
        FleetClass tr{"training", 8, 0.5, 1, 0};
        s.classes = {nb, tr};
        s.horizon_days = 4000;
        s.warmup_days = 100;
        s.node_failures_per_hour = 0; // the known answer needs every replica up
        const auto r = simulate_fleet(s);
        QVERIFY2(r.ok(), r.error_text().c_str());
        const auto& c = r->classes[0];
        const double want = erlang_c_wait(32, 0.9 * 32 / 3600.0, 1 / 3600.0);
        const double err = c.wait_mean_s / want - 1;
        qInfo().noquote() << QStringLiteral("4 replicas x 8 GPUs at rho 0.9: wait %1 s, Erlang C "
                                            "%2 s (%3%); busy %4, allocated %5, slowdown %6")
                                 .arg(c.wait_mean_s, 0, 'f', 1)
                                 .arg(want, 0, 'f', 1)
                                 .arg(err * 100, 0, 'f', 2)
                                 .arg(r->timeslice_utilization, 0, 'f', 4)
                                 .arg(r->timeslice_allocated, 0, 'f', 4)
                                 .arg(c.slowdown, 0, 'f', 6);
        QVERIFY2(std::abs(err) <= 0.05, qPrintable(QString::number(err)));
        QVERIFY(std::abs(c.slowdown - 1) <= 1e-9);
        QCOMPARE(r->timeslice_nodes, 1);
        QCOMPARE(r->timeslice_replicas, 4);
        // 28.8 jobs x 0.25 on 8 GPUs
        QVERIFY(std::abs(r->timeslice_utilization - 0.9 * 32 * 0.25 / 8) <= 0.02 * 0.9);
        // 28.8 jobs in service on 8 GPUs at once: 3.6 per GPU (each GPU holds some all the time).
        QVERIFY2(std::abs(r->timeslice_jobs_per_gpu / 3.6 - 1) <= 0.03,
                 qPrintable(QString::number(r->timeslice_jobs_per_gpu)));
        QVERIFY(r->timeslice_allocated >= r->timeslice_utilization);
        QVERIFY(r->allocated_fraction > r->utilization);
        QVERIFY(std::abs(r->mean_queue_length - r->little_queue_length) <=
                0.02 * std::max(0.01, r->mean_queue_length));
        QVERIFY(std::abs(r->gpu_hours_by_jobs + r->gpu_hours_switching - r->gpu_hours_used) <=
                1e-9 * r->gpu_hours_used);
        // The training class never lands on the time-sliced node.
        for (const auto& job : r->allocation.jobs)
            for (const auto& [n, g] : job.nodes)
                QCOMPARE(n == 1, job.time_sliced);
    }

    // Time-slicing gives no memory isolation: jobs share a GPU only while their memory fits in
    // it together. 30 GB jobs on 80 GB GPUs with 4 replicas: two to a GPU, so the 8 GPUs are
    // the 16 servers of an M/M/16 queue (d = 0.25: two jobs never slow each other), not the 32
    // of timeSlicingWithinAGpuIsMMc. The refusals name the field.
    void timeSlicedMemoryLimitsJobsPerGpu() {
        FleetSpec s;
        s.nodes = 2;
        s.gpus_per_node = 8;
        s.timeslice_nodes = 1;
        s.timeslice_replicas = 4;
        s.gpu_memory_bytes = 80e9;
        s.gpu_name = "H100 SXM";
        FleetClass nb{"notebooks", 1, 0.8 * 16, 1, 0};
        nb.time_sliced = true;
        nb.gpu_busy = 0.25;
        nb.gpu_memory_bytes = 30e9;
        s.classes = {nb};
        s.horizon_days = 4000;
        s.warmup_days = 100;
        s.node_failures_per_hour = 0;
        const auto r = simulate_fleet(s);
        QVERIFY2(r.ok(), r.error_text().c_str());
        const auto& c = r->classes[0];
        const double want = erlang_c_wait(16, 0.8 * 16 / 3600.0, 1 / 3600.0);
        const double err = c.wait_mean_s / want - 1;
        qInfo().noquote() << QStringLiteral("30 GB jobs, 80 GB GPUs, 4 replicas, rho 0.8 on 16 "
                                            "servers: wait %1 s, Erlang C %2 s (%3%); %4 per GPU "
                                            "at most, %5 on average")
                                 .arg(c.wait_mean_s, 0, 'f', 1)
                                 .arg(want, 0, 'f', 1)
                                 .arg(err * 100, 0, 'f', 2)
                                 .arg(c.jobs_per_gpu_at_most)
                                 .arg(r->timeslice_jobs_per_gpu, 0, 'f', 3);
        QVERIFY2(std::abs(err) <= 0.05, qPrintable(QString::number(err)));
        QCOMPARE(c.jobs_per_gpu_at_most, 2);
        QCOMPARE(c.gpu_memory_bytes, 30e9);
        QVERIFY(r->timeslice_jobs_per_gpu <= 2 + 1e-9);
        QVERIFY(std::abs(c.slowdown - 1) <= 1e-9);
        QVERIFY(std::abs(r->gpu_hours_by_jobs + r->gpu_hours_switching - r->gpu_hours_used) <=
                1e-9 * r->gpu_hours_used);
        // Without the memory the same load is far below 32 replicas: a much shorter wait.
        FleetSpec free = s;
        free.classes[0].gpu_memory_bytes = 0;
        const auto f = simulate_fleet(free);
        QVERIFY2(f.ok(), f.error_text().c_str());
        QVERIFY(f->classes[0].wait_mean_s < 0.1 * c.wait_mean_s);
        QCOMPARE(f->classes[0].jobs_per_gpu_at_most, 4);
        // Two classes of different sizes: a 50 GB job and a 30 GB one share a GPU, two 50 GB
        // jobs never do (every GPU's memory stays within 80 GB: jobs per GPU below 4).
        FleetSpec mixed = s;
        FleetClass big = nb;
        big.name = "big";
        big.gpu_memory_bytes = 50e9;
        big.arrival_rate_per_hour = 4;
        mixed.classes = {nb, big};
        mixed.horizon_days = 400;
        const auto m = simulate_fleet(mixed);
        QVERIFY2(m.ok(), m.error_text().c_str());
        QCOMPARE(m->classes[1].jobs_per_gpu_at_most, 1);
        QVERIFY(m->timeslice_jobs_per_gpu < 2 + 1e-9);
        // Refusals.
        const auto refused = [&](FleetSpec bad, const char* field, const char* says) {
            const auto e = simulate_fleet(bad);
            QVERIFY(!e.ok());
            QVERIFY2(e.error_text().find(field) != std::string::npos &&
                         e.error_text().find(says) != std::string::npos,
                     e.error_text().c_str());
        };
        FleetSpec too_big = s;
        too_big.classes[0].gpu_memory_bytes = 100e9;
        refused(too_big, "gpu_memory_bytes", "100.0 GB per job does not fit in H100 SXM's 80.0 GB");
        FleetSpec unknown = s;
        unknown.gpu_memory_bytes = 0;
        refused(unknown, "gpu_memory_bytes", "memory is not known");
        FleetSpec nan = s;
        nan.classes[0].gpu_memory_bytes = std::nan("");
        refused(nan, "gpu_memory_bytes", "0 (not stated) or a positive size");
    }

    // Time-sliced jobs under preemption and node failures: GPU-hours stay conserved (counted
    // as the runs progress at their changing rates), the losses are positive and below the
    // busy hours, and the refusals name their field.
    void timeSlicingConservesGpuHours() {
        FleetSpec s;
        s.nodes = 4;
        s.gpus_per_node = 8;
        s.timeslice_nodes = 2; // 16 GPUs, 96 replicas
        s.timeslice_replicas = 6;
        // Offered busy GPUs: 10 x 1.5 x 0.4 + 4 x 0.5 x 0.9 = 7.8 of 16; fine-tunes 8 of 16.
        FleetClass nb{"notebooks", 1, 10, 1.5, 0};
        nb.time_sliced = true;
        nb.gpu_busy = 0.4;
        nb.preemptible = true;
        nb.checkpoint_interval_h = 0.25;
        FleetClass ci{"ci", 1, 4, 0.5, 3};
        ci.time_sliced = true;
        ci.gpu_busy = 0.9;
        FleetClass ft{"fine-tunes", 8, 0.5, 2, 1};
        s.classes = {nb, ci, ft};
        s.horizon_days = 200;
        s.warmup_days = 5;
        s.policy = FleetPolicy::preemptive;
        s.node_failures_per_hour = 0.01;
        s.repair_h = 12;
        const auto r = simulate_fleet(s);
        QVERIFY2(r.ok(), r.error_text().c_str());
        QVERIFY2(std::abs(r->gpu_hours_by_jobs + r->gpu_hours_switching - r->gpu_hours_used) <=
                     1e-9 * r->gpu_hours_used,
                 qPrintable(QStringLiteral("%1 vs %2")
                                .arg(r->gpu_hours_by_jobs, 0, 'f', 6)
                                .arg(r->gpu_hours_used, 0, 'f', 6)));
        QVERIFY(r->gpu_hours_switching > 0); // jobs share GPUs at the default 0.76
        QVERIFY(r->preemptions > 0 && r->interruptions > 0);
        QVERIFY(r->gpu_hours_lost_preemption > 0 && r->gpu_hours_lost_failures > 0);
        QVERIFY(r->useful_fraction < r->utilization);
        QVERIFY(r->classes[0].slowdown > 1 && r->classes[1].slowdown > 1);
        QVERIFY(r->timeslice_utilization > 0 && r->timeslice_utilization <= 1);
        QVERIFY(r->timeslice_allocated >= r->timeslice_utilization);
        QVERIFY2(
            std::abs(r->mean_queue_length - r->little_queue_length) <=
                0.02 * std::max(0.01, r->mean_queue_length),
            qPrintable(
                QStringLiteral("%1 vs %2").arg(r->mean_queue_length).arg(r->little_queue_length)));
        // Refusals.
        FleetSpec bad = s;
        bad.timeslice_nodes = 0;
        auto e = simulate_fleet(bad);
        QVERIFY2(!e.ok() && e.error_text().find("classes[0].time_sliced") != std::string::npos,
                 e.error_text().c_str());
        bad = s;
        bad.classes[0].gpu_busy = 0;
        e = simulate_fleet(bad);
        QVERIFY2(!e.ok() && e.error_text().find("classes[0].gpu_busy") != std::string::npos,
                 e.error_text().c_str());
        bad = s;
        bad.classes[0].mig = true;
        bad.mig_nodes = 1;
        e = simulate_fleet(bad);
        QVERIFY2(!e.ok() && e.error_text().find("not both") != std::string::npos,
                 e.error_text().c_str());
        bad = s;
        bad.timeslice_replicas = 0;
        QVERIFY(!simulate_fleet(bad).ok());
        bad = s;
        bad.timeslice_nodes = 4; // no whole GPUs left for the fine-tunes
        e = simulate_fleet(bad);
        QVERIFY2(!e.ok() && e.error_text().find("classes[2].gpus_per_job") != std::string::npos,
                 e.error_text().c_str());
    }

    // Backfill lets small jobs past a big one that waits for whole nodes: shorter waits for
    // the small ones and higher utilization than FIFO on the same arrivals.
    void backfillBeatsFifoOnAMix() {
        FleetSpec s;
        s.nodes = 8;
        s.gpus_per_node = 8;
        s.classes = {{"small", 2, 12, 1, 0}, {"big", 48, 0.3, 4, 0}};
        s.horizon_days = 400;
        s.warmup_days = 20;
        s.policy = FleetPolicy::fifo;
        const auto fifo = simulate_fleet(s);
        s.policy = FleetPolicy::backfill;
        const auto back = simulate_fleet(s);
        QVERIFY(fifo.ok() && back.ok());
        QVERIFY2(back->classes[0].wait_mean_s < fifo->classes[0].wait_mean_s,
                 qPrintable(QStringLiteral("%1 vs %2")
                                .arg(back->classes[0].wait_mean_s)
                                .arg(fifo->classes[0].wait_mean_s)));
        QVERIFY(back->utilization >= fifo->utilization);
        // FIFO idles GPUs behind the blocked big job while small jobs that would fit wait:
        // held back by the policy, not fragmentation (helper-36: a FIFO run read 94.7 %
        // "fragmentation"); backfill starts them, so little is held back there.
        QVERIFY2(fifo->held_back_fraction > 0.05 && back->held_back_fraction < 0.01,
                 qPrintable(QStringLiteral("%1 vs %2")
                                .arg(fifo->held_back_fraction)
                                .arg(back->held_back_fraction)));
        QVERIFY(fifo->held_back_fraction + fifo->fragmentation_fraction >
                back->held_back_fraction + back->fragmentation_fraction);
        // Idle GPUs are split, never counted twice: with the busy ones, at most all of them.
        QVERIFY(fifo->utilization + fifo->held_back_fraction + fifo->fragmentation_fraction <=
                1 + 1e-9);
    }

    // Team quotas (issue 23): a class with a quota of q GPUs of one-node jobs on a larger
    // cluster is an M/M/(q/8) queue of its own -- the quota, not the cluster, is its servers --
    // so its mean wait is Erlang C's with c = q / 8, under every policy; it holds at most q GPUs
    // at every moment. A class over its quota holds up only itself: under FIFO a second class
    // with free GPUs waits no more than on a cluster without the first class's queue.
    void quotaIsTheTeamsServers() {
        for (FleetPolicy policy : {FleetPolicy::fifo, FleetPolicy::backfill}) {
            FleetSpec s = mmc(10, 0.0, 10000);
            s.classes[0].quota_gpus = 24; // 3 jobs at once of the 10 the cluster could run
            s.classes[0].arrival_rate_per_hour = 0.8 * 3;
            s.policy = policy;
            const auto r = simulate_fleet(s);
            QVERIFY2(r.ok(), r.error_text().c_str());
            const double want = erlang_c_wait(3, 0.8 * 3 / 3600.0, 1 / 3600.0);
            const double err = r->wait_mean_s / want - 1;
            qInfo().noquote() << QStringLiteral("quota 24 GPUs on 80 (M/M/3 at 0.8): wait %1 s "
                                                "simulated, %2 s Erlang C (%3%), held %4 GPUs, "
                                                "at quota %5 of the time")
                                     .arg(r->wait_mean_s, 0, 'f', 1)
                                     .arg(want, 0, 'f', 1)
                                     .arg(err * 100, 0, 'f', 2)
                                     .arg(r->classes[0].mean_held, 0, 'f', 2)
                                     .arg(r->classes[0].at_quota_fraction, 0, 'f', 3);
            QVERIFY2(std::abs(err) <= 0.05, qPrintable(QString::number(err)));
            // Mean held = the offered load (2.4 jobs x 8 GPUs); the quota is never exceeded, so
            // the share of time at it is Erlang C's probability of all 3 busy or more.
            QVERIFY(std::abs(r->classes[0].mean_held - 19.2) <= 0.02 * 19.2);
            QVERIFY(r->classes[0].at_quota_fraction > 0.5 && r->classes[0].at_quota_fraction < 0.8);
            QVERIFY(std::abs(r->mean_queue_length - r->little_queue_length) <=
                    0.02 * r->mean_queue_length);
        }
        // Two teams under FIFO: A over its quota of 8 GPUs keeps a long queue; B's jobs behind
        // A's in the line start on the free GPUs (B alone: 2 nodes left of 4 at load 0.25).
        FleetSpec s;
        s.nodes = 4;
        s.gpus_per_node = 8;
        s.classes = {{"A", 8, 0.8, 1, 0}, {"B", 8, 0.5, 1, 0}};
        s.classes[0].quota_gpus = 8;
        s.horizon_days = 4000;
        s.warmup_days = 100;
        s.policy = FleetPolicy::fifo;
        const auto r = simulate_fleet(s);
        QVERIFY2(r.ok(), r.error_text().c_str());
        QVERIFY2(r->classes[0].mean_held <= 8.0 + 1e-9,
                 qPrintable(QString::number(r->classes[0].mean_held)));
        // A is M/M/1 at 0.8: a mean wait of 4 h; B sees at least 3 nodes free: M/M/3 at 0.5/3
        // or better, a wait of seconds, not hours (behind A's line it would wait hours).
        const double a_want = erlang_c_wait(1, 0.8 / 3600.0, 1 / 3600.0);
        QVERIFY2(std::abs(r->classes[0].wait_mean_s / a_want - 1) <= 0.1,
                 qPrintable(QStringLiteral("%1 vs %2").arg(r->classes[0].wait_mean_s).arg(a_want)));
        QVERIFY2(r->classes[1].wait_mean_s <= erlang_c_wait(3, 0.5 / 3600.0, 1 / 3600.0) * 1.25,
                 qPrintable(QString::number(r->classes[1].wait_mean_s)));
        // A quota below one job never starts it: refused with the reason.
        s.classes[0].quota_gpus = 4;
        const auto bad = simulate_fleet(s);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error_text().find("quota_gpus") != std::string::npos,
                 bad.error_text().c_str());
    }

    // Quota borrowing (issue 23, a Kueue cohort). Known answer: A (quota 24 GPUs) and B
    // (quota 16, practically idle) lend each other what they leave unused, so A's one-node
    // jobs have B's two nodes too: M/M/5, not M/M/3. Without borrowing the same load (4
    // Erlangs on 3 servers) is more than A's quota serves and its queue grows.
    void quotaBorrowingLendsUnusedQuota() {
        const auto two = [](double days) {
            FleetSpec s = mmc(10, 0.0, days);
            s.classes[0].name = "A";
            s.classes[0].quota_gpus = 24;
            s.classes[0].arrival_rate_per_hour = 4;
            FleetClass b = s.classes[0];
            b.name = "B";
            b.quota_gpus = 16;
            b.arrival_rate_per_hour = 1e-6;
            s.classes.push_back(b);
            s.quota_borrowing = true;
            return s;
        };
        const double want = erlang_c_wait(5, 4 / 3600.0, 1 / 3600.0);
        for (FleetPolicy policy : {FleetPolicy::fifo, FleetPolicy::backfill}) {
            FleetSpec s = two(4000);
            s.policy = policy;
            const auto r = simulate_fleet(s);
            QVERIFY2(r.ok(), r.error_text().c_str());
            const double err = r->classes[0].wait_mean_s / want - 1;
            qInfo().noquote() << QStringLiteral("borrowing: A's wait %1 s simulated, %2 s Erlang "
                                                "C M/M/5 (%3%), held %4 GPUs, %5 borrowed")
                                     .arg(r->classes[0].wait_mean_s, 0, 'f', 1)
                                     .arg(want, 0, 'f', 1)
                                     .arg(err * 100, 0, 'f', 2)
                                     .arg(r->classes[0].mean_held, 0, 'f', 2)
                                     .arg(r->classes[0].mean_borrowed, 0, 'f', 2);
            QVERIFY2(std::abs(err) <= 0.05, qPrintable(QString::number(err)));
            // It holds the offered load (4 x 8 GPUs), above its quota by what it borrows.
            QVERIFY(std::abs(r->classes[0].mean_held - 32) <= 0.02 * 32);
            QVERIFY(r->classes[0].mean_borrowed > 1 && r->classes[0].mean_borrowed < 16);
            QCOMPARE(r->classes[0].reclaimed, std::int64_t{0});
            QVERIFY(std::abs(r->mean_queue_length - r->little_queue_length) <=
                    0.02 * r->mean_queue_length);
        }
        FleetSpec hard = two(200);
        hard.quota_borrowing = false;
        const auto h = simulate_fleet(hard);
        QVERIFY(h.ok());
        QVERIFY2(h->classes[0].wait_mean_s > 10 * want && h->classes[0].mean_held <= 24 + 1e-9,
                 qPrintable(QString::number(h->classes[0].wait_mean_s)));
        QCOMPARE(h->classes[0].mean_borrowed, 0.0);
    }

    // Kueue's borrowingLimit and lendingLimit (session 29). A (quota 24 GPUs, 3 Erlangs of
    // one-node jobs) and B (quota 16, practically idle) on 10 nodes. With no limits A has B's two
    // nodes too: M/M/5. Capped at 32 GPUs (a borrowingLimit of one node) A has one more node
    // than its quota: M/M/4; the same when B keeps 8 of its 16 GPUs (a lendingLimit of one
    // node). B keeping all 16 holds A to its quota: nothing borrowed.
    void quotaBorrowingCapAndKeep() {
        const auto two = [](double days, int cap, int keep) {
            FleetSpec s = mmc(10, 0.0, days);
            s.classes[0].name = "A";
            s.classes[0].quota_gpus = 24;
            s.classes[0].arrival_rate_per_hour = 3;
            s.classes[0].borrow_cap_gpus = cap;
            FleetClass b = s.classes[0];
            b.name = "B";
            b.quota_gpus = 16;
            b.arrival_rate_per_hour = 1e-6;
            b.borrow_cap_gpus = 0;
            b.keep_gpus = keep;
            s.classes.push_back(b);
            s.quota_borrowing = true;
            return s;
        };
        const double m4 = erlang_c_wait(4, 3 / 3600.0, 1 / 3600.0);
        const double m5 = erlang_c_wait(5, 3 / 3600.0, 1 / 3600.0);
        QVERIFY(m4 > 3 * m5); // the known answers are far apart
        struct Case {
            int cap, keep;
            double want;
            const char* what;
        };
        for (const Case& c : {Case{32, 0, m4, "cap 32: M/M/4"}, Case{0, 8, m4, "B keeps 8: M/M/4"},
                              Case{0, 0, m5, "no limits: M/M/5"}}) {
            const auto r = simulate_fleet(two(4000, c.cap, c.keep));
            QVERIFY2(r.ok(), r.error_text().c_str());
            const double err = r->classes[0].wait_mean_s / c.want - 1;
            qInfo().noquote() << QStringLiteral("%1: A's wait %2 s simulated, %3 s Erlang C (%4%), "
                                                "%5 GPUs borrowed on average")
                                     .arg(QString::fromLatin1(c.what))
                                     .arg(r->classes[0].wait_mean_s, 0, 'f', 1)
                                     .arg(c.want, 0, 'f', 1)
                                     .arg(err * 100, 0, 'f', 2)
                                     .arg(r->classes[0].mean_borrowed, 0, 'f', 2);
            QVERIFY2(std::abs(err) <= 0.05, qPrintable(QString::number(err)));
            QVERIFY(r->classes[0].mean_borrowed > 0);
            if (c.want == m4)
                QVERIFY(r->classes[0].mean_borrowed < 8);
            QCOMPARE(r->classes[0].borrow_cap, c.cap);
            QCOMPARE(r->classes[1].keep, c.keep);
            QVERIFY(std::abs(r->mean_queue_length - r->little_queue_length) <=
                    0.02 * r->mean_queue_length);
        }
        const auto kept = simulate_fleet(two(200, 0, 16));
        QVERIFY2(kept.ok(), kept.error_text().c_str());
        QCOMPARE(kept->classes[0].mean_borrowed, 0.0);
        QVERIFY(kept->classes[0].mean_held <= 24 + 1e-9);
        // Refusals name the field and say why.
        const auto refused = [&](FleetSpec s, const char* field, const char* words) {
            const auto r = simulate_fleet(s);
            QVERIFY(!r.ok());
            QVERIFY2(r.error_text().find(field) != std::string::npos &&
                         r.error_text().find(words) != std::string::npos,
                     r.error_text().c_str());
        };
        refused(two(10, 16, 0), "borrow_cap_gpus", "below its quota of 24");
        refused(two(10, 0, 20), "keep_gpus", "keeps 20 of a quota of 16");
        FleetSpec off = two(10, 32, 0);
        off.quota_borrowing = false;
        refused(off, "borrow_cap_gpus", "needs teams to borrow unused quota");
        FleetSpec none = two(10, 0, 0);
        none.classes[1].quota_gpus = 0;
        none.classes[1].keep_gpus = 8;
        refused(none, "keep_gpus", "need a team quota");
    }

    // Reclaim (Kueue reclaimWithinCohort): A borrows B's quota with preemptible jobs; under the
    // preemptive policy a B job within B's quota evicts a borrower at once, so B is M/M/2 on its
    // own quota. Under backfill (no evictions) B waits behind A's borrowed runs.
    void quotaReclaimGivesLentGPUsBack() {
        const auto spec = [](FleetPolicy policy) {
            FleetSpec s;
            s.nodes = 5;
            s.gpus_per_node = 8;
            // A offers more than the 5 nodes leave it (4 + 1.2 Erlangs): it always has a queue
            // and takes every node it may borrow, so B never borrows and is M/M/2 exactly on
            // its quota. (A's queue grows: a shorter horizon.)
            s.classes = {{"A", 8, 4, 1, 0}, {"B", 8, 1.2, 1, 0}};
            s.classes[0].quota_gpus = 24;
            s.classes[0].preemptible = true;
            s.classes[0].checkpoint_interval_h = 0.25;
            s.classes[1].quota_gpus = 16;
            s.quota_borrowing = true;
            s.policy = policy;
            s.horizon_days = 1000;
            s.warmup_days = 50;
            return s;
        };
        const double want = erlang_c_wait(2, 1.2 / 3600.0, 1 / 3600.0);
        const auto pre = simulate_fleet(spec(FleetPolicy::preemptive));
        QVERIFY2(pre.ok(), pre.error_text().c_str());
        const double err = pre->classes[1].wait_mean_s / want - 1;
        qInfo().noquote() << QStringLiteral("reclaim: B's wait %1 s, Erlang C M/M/2 %2 s (%3%); "
                                            "%4 of A's jobs reclaimed")
                                 .arg(pre->classes[1].wait_mean_s, 0, 'f', 1)
                                 .arg(want, 0, 'f', 1)
                                 .arg(err * 100, 0, 'f', 2)
                                 .arg(pre->classes[0].reclaimed);
        // (1,000 days: 29,000 B jobs, A's growing queue makes a longer run slow; at 4,000 days
        // the same run was -2.4%.)
        QVERIFY2(std::abs(err) <= 0.10, qPrintable(QString::number(err)));
        QVERIFY(pre->classes[0].reclaimed > 0 &&
                pre->classes[0].preemptions >= pre->classes[0].reclaimed);
        QCOMPARE(pre->classes[1].reclaimed, std::int64_t{0});
        // B held its offered load (1.2 x 8 GPUs), GPU-hours conserved, Little's law.
        QVERIFY(std::abs(pre->classes[1].mean_held - 9.6) <= 0.03 * 9.6);
        QVERIFY(std::abs(pre->mean_queue_length - pre->little_queue_length) <=
                0.02 * pre->mean_queue_length);
        QVERIFY(std::abs(pre->gpu_hours_by_jobs + pre->gpu_hours_switching - pre->gpu_hours_used) <=
                1e-9 * pre->gpu_hours_used);
        const auto back = simulate_fleet(spec(FleetPolicy::backfill));
        QVERIFY(back.ok());
        QVERIFY2(back->classes[1].wait_mean_s > 1.5 * want,
                 qPrintable(QString::number(back->classes[1].wait_mean_s)));
        QCOMPARE(back->classes[0].reclaimed, std::int64_t{0});
    }

    // Priority: the high class waits less than the low class under the same load.
    void priorityOrdersTheQueue() {
        FleetSpec s;
        s.nodes = 4;
        s.gpus_per_node = 8;
        s.classes = {{"low", 8, 1.6, 1, 0}, {"high", 8, 1.6, 1, 5}};
        s.horizon_days = 2000;
        s.warmup_days = 50;
        s.policy = FleetPolicy::priority;
        const auto r = simulate_fleet(s);
        QVERIFY(r.ok());
        QVERIFY(r->classes[1].wait_mean_s < 0.5 * r->classes[0].wait_mean_s);
    }

    // Preemptive priority (issue 23): a high class that evicts preemptible low jobs sees the
    // cluster as if the low class were not there -- an M/M/c queue of its own (preemptive
    // priority with identical servers; Kleinrock 1976 vol. 2 sec. 3.7): its mean wait is Erlang
    // C's for its own load. The evicted jobs lose the work since their last checkpoint plus a
    // restart; GPU-hours stay conserved and Little's law holds.
    void preemptionKnownAnswers() {
        FleetSpec s;
        s.nodes = 4;
        s.gpus_per_node = 8;
        FleetClass low{"low", 8, 1.6, 1, 0};
        low.preemptible = true;
        low.checkpoint_interval_h = 0.25;
        s.classes = {low, {"high", 8, 1.6, 1, 5}};
        s.horizon_days = 3000;
        s.warmup_days = 50;
        s.restart_s = 300;
        s.policy = FleetPolicy::preemptive;
        const auto r = simulate_fleet(s);
        QVERIFY2(r.ok(), r.error_text().c_str());
        const double erlang = erlang_c_wait(4, 1.6 / 3600, 1.0 / 3600);
        QVERIFY2(std::abs(r->classes[1].wait_mean_s / erlang - 1) < 0.05,
                 qPrintable(QStringLiteral("high class waits %1 s, Erlang C %2 s")
                                .arg(r->classes[1].wait_mean_s)
                                .arg(erlang)));
        QVERIFY(r->preemptions > 100);
        QCOMPARE(r->classes[0].preemptions, r->preemptions); // only the low class is evicted
        // Each eviction loses at most a restart and one checkpoint interval of work (less when
        // evicted early in a run or during its restart: 1.38 GPU-hours of at most 2.67 here).
        const double per = static_cast<double>(r->preemptions) > 0
                               ? r->gpu_hours_lost_preemption / static_cast<double>(r->preemptions)
                               : 0;
        QVERIFY2(per > 0.2 && per <= 8 * (300 + 0.25 * 3600) / 3600.0,
                 qPrintable(QStringLiteral("%1 GPU-hours lost in %2 evictions")
                                .arg(r->gpu_hours_lost_preemption)
                                .arg(r->preemptions)));
        QVERIFY2(std::abs(r->gpu_hours_by_jobs + r->gpu_hours_switching - r->gpu_hours_used) <=
                     1e-9 * r->gpu_hours_used,
                 qPrintable(QStringLiteral("%1 vs %2")
                                .arg(r->gpu_hours_by_jobs, 0, 'f', 6)
                                .arg(r->gpu_hours_used, 0, 'f', 6)));
        QVERIFY(std::abs(r->mean_queue_length - r->little_queue_length) <=
                0.03 * std::max(0.01, r->mean_queue_length));
        // Without preemption the high class waits behind running low jobs; without checkpoints
        // an evicted job starts over and loses more.
        s.policy = FleetPolicy::priority;
        const auto plain = simulate_fleet(s);
        QVERIFY(plain.ok());
        QCOMPARE(plain->preemptions, std::int64_t{0});
        QCOMPARE(plain->gpu_hours_lost_preemption, 0.0);
        QVERIFY(plain->classes[1].wait_mean_s > 1.5 * r->classes[1].wait_mean_s);
        s.policy = FleetPolicy::preemptive;
        s.classes[0].checkpoint_interval_h = 0;
        const auto none = simulate_fleet(s);
        QVERIFY(none.ok());
        QVERIFY(none->gpu_hours_lost_preemption / static_cast<double>(none->preemptions) >
                1.5 * r->gpu_hours_lost_preemption / static_cast<double>(r->preemptions));
    }

    // Node failures (issue 23). Each node alternates up (exponential, mean 1 / rate) and out
    // for the repair time, so the share of node-time out is repair / (1 / rate + repair).
    // A job is stopped by its nodes' failures, at the rate times the node-hours it holds, and
    // each stop loses a restart plus, on average, half a checkpoint interval of work.
    void failureKnownAnswers() {
        FleetSpec s;
        s.nodes = 200;
        s.gpus_per_node = 8;
        FleetClass node{"one node", 8, 4, 10, 0};
        node.checkpoint_interval_h = 1;
        s.classes = {node};
        s.horizon_days = 3000;
        s.warmup_days = 50;
        s.restart_s = 600;
        s.node_failures_per_hour = 0.002;
        s.repair_h = 10;
        s.policy = FleetPolicy::fifo;
        const auto r = simulate_fleet(s);
        QVERIFY2(r.ok(), r.error_text().c_str());
        const double down = s.repair_h / (1 / s.node_failures_per_hour + s.repair_h);
        QVERIFY2(std::abs(r->gpu_hours_down / r->gpu_hours_available / down - 1) < 0.03,
                 qPrintable(QStringLiteral("%1 of the GPU-hours down, expected %2")
                                .arg(r->gpu_hours_down / r->gpu_hours_available)
                                .arg(down)));
        // Failures of up nodes: rate x up node-hours.
        const double up_node_hours = (r->gpu_hours_available - r->gpu_hours_down) / 8;
        QVERIFY2(std::abs(static_cast<double>(r->node_failures) /
                              (s.node_failures_per_hour * up_node_hours) -
                          1) < 0.03,
                 qPrintable(QString::number(r->node_failures)));
        // Stops: rate x node-hours held by jobs (one node each).
        const double held = r->gpu_hours_used / 8;
        QVERIFY2(
            std::abs(static_cast<double>(r->interruptions) / (s.node_failures_per_hour * held) -
                     1) < 0.05,
            qPrintable(
                QStringLiteral("%1 stops in %2 node-hours held").arg(r->interruptions).arg(held)));
        QCOMPARE(r->classes[0].interruptions, r->interruptions);
        QCOMPARE(r->preemptions, std::int64_t{0});
        const double per = r->gpu_hours_lost_failures / static_cast<double>(r->interruptions);
        const double expected = 8 * (600.0 / 3600 + 0.5 * node.checkpoint_interval_h);
        QVERIFY2(std::abs(per / expected - 1) < 0.10,
                 qPrintable(QStringLiteral("%1 GPU-hours lost per stop, expected about %2")
                                .arg(per)
                                .arg(expected)));
        qInfo("failures: %.4f of GPU-hours down (expected %.4f), %lld node failures, %lld stops, "
              "%.2f GPU-hours lost per stop (expected about %.2f), useful %.4f of busy %.4f",
              r->gpu_hours_down / r->gpu_hours_available, down,
              static_cast<long long>(r->node_failures), static_cast<long long>(r->interruptions),
              per, expected, r->useful_fraction, r->utilization);
        // Conservation and Little's law hold with failures too.
        QVERIFY(std::abs(r->gpu_hours_by_jobs + r->gpu_hours_switching - r->gpu_hours_used) <=
                1e-9 * r->gpu_hours_used);
        QVERIFY(std::abs(r->mean_queue_length - r->little_queue_length) <=
                0.03 * std::max(0.01, r->mean_queue_length));
        QVERIFY(r->useful_fraction < r->utilization);
        QVERIFY(std::abs(r->useful_fraction - (r->gpu_hours_used - r->gpu_hours_lost_failures) /
                                                  r->gpu_hours_available) < 1e-12);
        // Without failures: none counted, nothing lost, and the arrivals are the same jobs.
        s.node_failures_per_hour = 0;
        const auto none = simulate_fleet(s);
        QVERIFY(none.ok());
        QCOMPARE(none->node_failures, std::int64_t{0});
        QCOMPARE(none->gpu_hours_lost_failures, 0.0);
        QCOMPARE(none->gpu_hours_down, 0.0);
        QCOMPARE(none->jobs_arrived, r->jobs_arrived);
        QCOMPARE(none->useful_fraction, none->utilization);
        // Refused: a negative or absurd rate.
        s.node_failures_per_hour = -1;
        QVERIFY(!simulate_fleet(s).ok());
        s.node_failures_per_hour = std::numeric_limits<double>::quiet_NaN();
        QVERIFY(!simulate_fleet(s).ok());
    }

    // Daily and weekly curves (issue 23): arrivals by thinning along
    // mean x (1 + swing cos(2 pi (hour - peak) / 24)) x weekend factor / ((5 + 2 w) / 7).
    // Over whole weeks the mean rate is the class's rate; within +-2 h of the peak the rate
    // averages mean' x (1 + swing x sin(pi/6) / (pi/6)), within +-2 h of the trough
    // mean' x (1 - the same); a weekend day gets the weekend factor of a weekday.
    void dailyAndWeeklyCurves() {
        FleetSpec s;
        s.nodes = 1000;
        s.gpus_per_node = 8;
        FleetClass c{"notebooks", 1, 20, 0.05, 0};
        c.daily_swing = 0.8;
        c.weekend_factor = 0.3;
        s.classes = {c};
        s.peak_hour = 14;
        s.horizon_days = 7 * 400;
        s.warmup_days = 7;
        const auto r = simulate_fleet(s);
        QVERIFY2(r.ok(), r.error_text().c_str());
        const double window_h = (s.horizon_days - s.warmup_days) * 24;
        QVERIFY2(std::abs(static_cast<double>(r->jobs_arrived) / (20 * window_h) - 1) < 0.01,
                 qPrintable(QString::number(r->jobs_arrived)));
        // The shape: one-week runs at 2,000 arrivals per hour of 3-minute 1-GPU jobs, whose
        // busy GPUs at a moment are the arrivals of the 3 minutes before it (M/G/infinity:
        // rate x 0.05 h). The 240 timeline samples of a week are 42 minutes apart.
        FleetSpec week = s;
        week.classes[0].arrival_rate_per_hour = 2000;
        week.horizon_days = 7;
        week.warmup_days = 0.01;
        double peak = 0, trough = 0, weekend = 0;
        int np = 0, nt = 0, nw = 0;
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            week.seed = seed;
            const auto w = simulate_fleet(week);
            QVERIFY2(w.ok(), w.error_text().c_str());
            for (const auto& x : w->timeline) {
                if (x.t_s < 3600)
                    continue;
                const double hour = std::fmod(x.t_s, 86400) / 3600;
                if (std::fmod(std::floor(x.t_s / 86400), 7) >= 5) {
                    weekend += x.busy_gpus;
                    ++nw;
                } else if (std::abs(hour - 14) <= 2) {
                    peak += x.busy_gpus;
                    ++np;
                } else if (std::abs(hour - 2) <= 2) { // the trough: 12 h after the peak
                    trough += x.busy_gpus;
                    ++nt;
                }
            }
        }
        const double norm = (5 + 2 * c.weekend_factor) / 7;
        const double mean = 2000 / norm * 0.05; // busy GPUs at the curve's mean, a weekday
        const double k = std::sin(std::numbers::pi / 6) / (std::numbers::pi / 6);
        const auto near = [](double got, double want, double tol) {
            return std::abs(got / want - 1) < tol;
        };
        QVERIFY2(near(peak / np, mean * (1 + c.daily_swing * k), 0.06),
                 qPrintable(QStringLiteral("peak %1, expected %2")
                                .arg(peak / np)
                                .arg(mean * (1 + c.daily_swing * k))));
        QVERIFY2(near(trough / nt, mean * (1 - c.daily_swing * k), 0.15),
                 qPrintable(QStringLiteral("trough %1, expected %2")
                                .arg(trough / nt)
                                .arg(mean * (1 - c.daily_swing * k))));
        QVERIFY2(near(weekend / nw, mean * c.weekend_factor, 0.10),
                 qPrintable(QStringLiteral("weekend %1, expected %2")
                                .arg(weekend / nw)
                                .arg(mean * c.weekend_factor)));
        qInfo(
            "curves: peak %.1f (expected %.1f), trough %.1f (%.1f), weekend %.1f (%.1f) busy GPUs",
            peak / np, mean * (1 + c.daily_swing * k), trough / nt, mean * (1 - c.daily_swing * k),
            weekend / nw, mean * c.weekend_factor);
        // Flat classes are plain Poisson: the same run as before the curves existed.
        FleetSpec flat = s;
        flat.classes[0].daily_swing = 0;
        flat.classes[0].weekend_factor = 1;
        const auto f1 = simulate_fleet(flat);
        QVERIFY(f1.ok());
        QVERIFY(std::abs(static_cast<double>(f1->jobs_arrived) /
                             (20 * (flat.horizon_days - flat.warmup_days) * 24) -
                         1) < 0.01);
        // Refused: a swing above 1, a negative weekend, a peak outside the day.
        FleetSpec bad = s;
        bad.classes[0].daily_swing = 1.5;
        QVERIFY(!simulate_fleet(bad).ok());
        bad = s;
        bad.classes[0].weekend_factor = -1;
        QVERIFY(!simulate_fleet(bad).ok());
        bad = s;
        bad.peak_hour = 25;
        QVERIFY(!simulate_fleet(bad).ok());
    }

    // Topology-aware placement keeps a one-node job in one node: with 4 GPUs free in each of
    // two nodes an 8-GPU job waits; placed anywhere it runs across them.
    void topologyAwarePlacement() {
        FleetSpec s;
        s.nodes = 2;
        s.gpus_per_node = 8;
        // Offered 14 of 16 GPUs (4 x 2/h x 1 h + 8 x 0.75/h x 1 h): busy, and stable (at 20 of 16,
        // as before session 17, the queue grew without bound and the run took minutes under ASan).
        s.classes = {{"half", 4, 2, 1, 0}, {"node", 8, 0.75, 1, 0}};
        s.horizon_days = 2000;
        s.warmup_days = 50;
        s.policy = FleetPolicy::backfill;
        const auto aware = simulate_fleet(s);
        s.topology_aware = false;
        const auto anywhere = simulate_fleet(s);
        QVERIFY(aware.ok() && anywhere.ok());
        QVERIFY(aware->classes[1].wait_mean_s > anywhere->classes[1].wait_mean_s);
        QVERIFY(aware->fragmentation_fraction > anywhere->fragmentation_fraction);
    }

    // Leaf-aware placement (issue 23): two leaves of four 8-GPU nodes. Two one-node jobs run;
    // a four-node job then arrives. Leaf-aware, the one-node jobs share a leaf (an empty node
    // from the leaf with the fewest empty nodes) and the four-node job gets the other leaf whole;
    // placed without leaves (every node under one leaf) the same jobs leave three empty nodes in
    // one leaf and one in the other, and the four-node job spans both.
    void leafAwarePlacement() {
        // A trace on 8 nodes of 8 GPUs, leaves of `per_leaf` nodes, over two days.
        const auto on_leaves = [](std::vector<std::string> classes, std::vector<TraceJob> jobs,
                                  int per_leaf) {
            auto tr = std::make_shared<FleetTrace>();
            tr->classes = std::move(classes);
            tr->span_s = jobs.back().submit_s;
            tr->jobs = std::move(jobs);
            FleetSpec s;
            s.trace = tr;
            s.nodes = 8;
            s.gpus_per_node = 8;
            s.nodes_per_leaf = per_leaf;
            s.warmup_days = 0;
            s.horizon_days = 2;
            return s;
        };
        const auto run = [&](int per_leaf) {
            return simulate_fleet(on_leaves(
                {"one node", "four nodes"},
                {{0, 10 * 86400.0, 8, 0}, {60, 10 * 86400.0, 8, 0}, {120, 86400.0, 32, 1}},
                per_leaf));
        };
        const auto leaves_of = [](const FleetResult& r, int per_leaf) {
            for (const auto& j : r.allocation.jobs)
                if (j.gpus == 32) {
                    std::set<int> leaves;
                    for (const auto& [n, g] : j.nodes)
                        leaves.insert(n / per_leaf);
                    return static_cast<int>(leaves.size());
                }
            return 0;
        };
        const auto aware = run(4);
        QVERIFY2(aware.ok(), aware.error_text().c_str());
        QCOMPARE(aware->nodes_per_leaf, 4);
        QCOMPARE(leaves_of(*aware, 4), 1);
        for (const auto& j : aware->allocation.jobs) // the timeline's own count of leaves
            QCOMPARE(j.leaves, 1);
        QCOMPARE(aware->multi_node_runs, std::int64_t{1});
        QCOMPARE(aware->multi_node_leaves_sum, std::int64_t{1});
        QCOMPARE(aware->multi_node_runs_split, std::int64_t{0});
        QCOMPARE(aware->wait_p95_s, 0.0);
        const auto one_leaf = run(0);
        QVERIFY(one_leaf.ok());
        QCOMPARE(one_leaf->nodes_per_leaf, 8);
        QCOMPARE(leaves_of(*one_leaf, 4), 2);
        for (const auto& j : one_leaf->allocation.jobs) // one leaf of eight nodes here
            QCOMPARE(j.leaves, 1);
        QCOMPARE(one_leaf->multi_node_runs_split, std::int64_t{0}); // one leaf: never split

        // Fragmentation of the fabric: two three-node jobs take three nodes of each leaf; a
        // two-node job then finds one empty node per leaf and runs split over both.
        FleetSpec s = on_leaves(
            {"jobs"}, {{0, 10 * 86400.0, 24, 0}, {60, 10 * 86400.0, 24, 0}, {120, 86400.0, 16, 0}},
            4);
        const auto r = simulate_fleet(s);
        QVERIFY2(r.ok(), r.error_text().c_str());
        QCOMPARE(r->multi_node_runs, std::int64_t{3});
        QCOMPARE(r->multi_node_leaves_sum, std::int64_t{4}); // 1 + 1 + 2
        QCOMPARE(r->multi_node_runs_split, std::int64_t{1});
        QCOMPARE(r->jobs_waiting_at_end, std::int64_t{0});
        // Kueue's "required" topology: the two-node job waits for one leaf of its own instead
        // (the three-node jobs hold both leaves for ten days: it is still waiting at the end).
        s.leaf_required = true;
        const auto strict = simulate_fleet(s);
        QVERIFY(strict.ok());
        QCOMPARE(strict->multi_node_runs, std::int64_t{2});
        QCOMPARE(strict->multi_node_runs_split, std::int64_t{0});
        QCOMPARE(strict->jobs_waiting_at_end, std::int64_t{1});
        QVERIFY(strict->fragmentation_fraction > r->fragmentation_fraction);
        s.leaf_required = false;

        // Refused: a negative leaf size.
        s.nodes_per_leaf = -1;
        QVERIFY(!simulate_fleet(s).ok());
    }

    // What a split placement costs: a run split over more leaf switches than it needs is
    // stretched by its class's split_slowdown (from the training model on a drawn design).
    // GPU-hours stay conserved, the extra time is reported, and a class without a slowdown
    // costs nothing.
    void splitRunsTakeLonger() {
        FleetSpec s;
        s.nodes = 8;
        s.gpus_per_node = 8;
        s.nodes_per_leaf = 3; // leaves of 3, 3 and 2 nodes: two-node jobs often find them split
        s.horizon_days = 60;
        s.warmup_days = 5;
        FleetClass pairs;
        pairs.name = "two-node";
        pairs.gpus_per_job = 16;
        pairs.arrival_rate_per_hour = 0.9;
        pairs.mean_duration_h = 2;
        FleetClass ones;
        ones.name = "one-node";
        ones.gpus_per_job = 8;
        ones.arrival_rate_per_hour = 1.2;
        ones.mean_duration_h = 2;
        s.classes = {pairs, ones};
        const auto plain = simulate_fleet(s);
        QVERIFY2(plain.ok(), plain.error_text().c_str());
        QVERIFY(plain->multi_node_runs_split > 10);
        QCOMPARE(plain->split_gpu_hours, 0.0);
        s.classes[0].split_slowdown = 2;
        const auto slow = simulate_fleet(s);
        QVERIFY2(slow.ok(), slow.error_text().c_str());
        QVERIFY(slow->multi_node_runs_split > 10);
        QVERIFY(slow->split_gpu_hours > 0);
        // Of each stretched hour half is the split's: at most half of what the class ran.
        QVERIFY(slow->split_gpu_hours < 0.5 * slow->gpu_hours_used);
        QVERIFY2(
            std::abs(slow->gpu_hours_by_jobs + slow->gpu_hours_switching - slow->gpu_hours_used) <
                1e-6 * slow->gpu_hours_used,
            qPrintable(
                QStringLiteral("%1 vs %2").arg(slow->gpu_hours_by_jobs).arg(slow->gpu_hours_used)));
        // The same arrivals (same seed) keep the cluster busier for longer.
        QVERIFY(slow->gpu_hours_used > plain->gpu_hours_used);
        QCOMPARE(slow->classes[0].split_slowdown, 2.0);
        // Under preemption and failures the stretched work is still conserved.
        s.node_failures_per_hour = 0.01;
        s.classes[0].checkpoint_interval_h = 0.5;
        const auto failing = simulate_fleet(s);
        QVERIFY2(failing.ok(), failing.error_text().c_str());
        QVERIFY(failing->interruptions > 0);
        QVERIFY(std::abs(failing->gpu_hours_by_jobs + failing->gpu_hours_switching -
                         failing->gpu_hours_used) < 1e-6 * failing->gpu_hours_used);
        // Refused: a slowdown below 1 (a split never speeds a job up) or not a number.
        s.classes[0].split_slowdown = 0.5;
        QVERIFY(!simulate_fleet(s).ok());
        s.classes[0].split_slowdown = std::nan("");
        QVERIFY(!simulate_fleet(s).ok());
    }

    void refusesBadInput() {
        FleetSpec s = mmc(2, 0.5, 10);
        s.classes[0].gpus_per_job = 17;
        auto r = simulate_fleet(s);
        QVERIFY(!r.ok());
        QVERIFY2(r.error_text().find("gpus_per_job") != std::string::npos, r.error_text().c_str());
        s = mmc(2, 0.5, 10);
        s.classes[0].arrival_rate_per_hour = std::nan("");
        QVERIFY(!simulate_fleet(s).ok());
        s = mmc(2, 0.5, 10);
        s.warmup_days = 10;
        QVERIFY(!simulate_fleet(s).ok());
        s = mmc(2, 0.5, 10);
        s.classes[0].arrival_rate_per_hour = 1e9;
        r = simulate_fleet(s);
        QVERIFY(!r.ok());
        QVERIFY2(r.error_text().find("50 million") != std::string::npos, r.error_text().c_str());
        QCOMPARE(fleet_policy_from_name("backfill"), std::optional{FleetPolicy::backfill});
        QVERIFY(!fleet_policy_from_name("lifo"));
    }

    // Bursting (issue 23): a job that waits past the limit runs in the cloud; waits never
    // exceed the limit, the cluster's own utilization falls, GPU-hours still add up.
    void burstsAfterTheLimit() {
        FleetSpec s = mmc(4, 0.95, 400);
        auto base = simulate_fleet(s);
        QVERIFY(base.ok() && base->wait_p95_s > 3600);
        s.burst_after_s = 1800;
        s.burst_usd_per_gpu_hour = 3;
        auto b = simulate_fleet(s);
        QVERIFY2(b.ok(), b.error_text().c_str());
        QVERIFY(b->jobs_burst > 0);
        QVERIFY(b->burst_gpu_hours > 0);
        QCOMPARE(b->burst_usd, b->burst_gpu_hours * 3);
        QVERIFY(b->wait_p95_s <= 1800 + 1e-6);
        QVERIFY(b->utilization < base->utilization);
        QVERIFY(std::abs(b->gpu_hours_by_jobs + b->gpu_hours_switching - b->gpu_hours_used) <
                1e-6 * b->gpu_hours_used);
        QVERIFY(std::abs(b->mean_queue_length - b->little_queue_length) <
                0.02 * std::max(0.01, b->mean_queue_length));
        s.burst_after_s = -1;
        QVERIFY(!simulate_fleet(s).ok());
    }

    // Bursting to spot (issue 23): the same jobs burst (spot changes the bill, not the queue);
    // each job on n nodes redoes n x the redo share of its work, GPU-hours on the cluster and
    // Little's law are untouched.
    void spotBurstsRedoWork() {
        FleetSpec s = mmc(8, 0.95, 200);
        s.classes[0].gpus_per_job = 16; // two-node gangs
        s.classes[0].arrival_rate_per_hour = 0.95 * 8 / 2;
        s.burst_after_s = 1800;
        const auto od = simulate_fleet(s);
        QVERIFY2(od.ok(), od.error_text().c_str());
        QVERIFY(od->jobs_burst > 0);
        QCOMPARE(od->burst_gpu_hours_redone, 0.0);
        QVERIFY(!od->burst_on_spot);
        s.burst_redo_per_node = 0.1 / 24 * 0.67; // 0.1 preemptions per node-day, 0.67 h lost
        const auto sp = simulate_fleet(s);
        QVERIFY2(sp.ok(), sp.error_text().c_str());
        QVERIFY(sp->burst_on_spot);
        QCOMPARE(sp->jobs_burst, od->jobs_burst);
        QCOMPARE(sp->utilization, od->utilization);
        const double redo = 2 * s.burst_redo_per_node;
        QVERIFY(std::abs(sp->burst_gpu_hours - od->burst_gpu_hours * (1 + redo)) <
                1e-9 * sp->burst_gpu_hours);
        QVERIFY(std::abs(sp->burst_gpu_hours_redone - od->burst_gpu_hours * redo) <
                1e-9 * sp->burst_gpu_hours);
        s.burst_redo_per_node = std::nan("");
        QVERIFY(!simulate_fleet(s).ok());
        s.burst_redo_per_node = -0.1;
        QVERIFY(!simulate_fleet(s).ok());
    }

    // Trace replay (issue 23): the Helios format read by its header, CPU jobs and jobs without
    // a run time left out with a note, jobs in submission order from 0.
    void readsAHeliosTrace() {
        const std::string text = file("helios_sample.csv");
        auto tr = parse_helios_trace(text, 8);
        QVERIFY2(tr.ok(), tr.error_text().c_str());
        // Count the GPU jobs with a run time independently of the reader.
        int expected = 0, cpu = 0;
        std::istringstream in(text);
        std::string line;
        std::getline(in, line);
        while (std::getline(in, line)) {
            std::vector<std::string> c;
            std::istringstream cells(line);
            std::string cell;
            while (std::getline(cells, cell, ','))
                c.push_back(cell);
            if (std::stoi(c[3]) == 0)
                ++cpu;
            else if (std::stod(c[10]) > 0)
                ++expected;
        }
        QCOMPARE(static_cast<int>(tr->jobs.size()), expected);
        QVERIFY(cpu > 0);
        QVERIFY(!tr->notes.empty() &&
                tr->notes.front().find(std::to_string(cpu) + " CPU jobs") != std::string::npos);
        QCOMPARE(tr->jobs.front().submit_s, 0.0);
        QCOMPARE(tr->jobs.front().duration_s, 36848.0); // README's job 1425511: 1 GPU
        QCOMPARE(tr->jobs.front().gpus, 1);
        QCOMPARE(tr->jobs[1].submit_s, 26.0); // 18:41:27 - 18:41:01
        for (std::size_t i = 1; i < tr->jobs.size(); ++i)
            QVERIFY(tr->jobs[i].submit_s >= tr->jobs[i - 1].submit_s);
        QCOMPARE(static_cast<int>(tr->classes.size()), 3);
        for (const auto& j : tr->jobs)
            QCOMPARE(j.cls, j.gpus == 1 ? 0 : j.gpus <= 8 ? 1 : 2);
        // A bad cell is an error naming its line; a row without a run time is a note.
        auto bad = parse_helios_trace(file("helios_bad_row.csv"), 8);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error_text().find("line 4") != std::string::npos &&
                     bad.error_text().find("gpu_num") != std::string::npos,
                 bad.error_text().c_str());
        auto none = parse_helios_trace("job_id,user\n1,u\n", 8);
        QVERIFY(!none.ok());
        QVERIFY2(none.error_text().find("gpu_num") != std::string::npos, none.error_text().c_str());
        QVERIFY(!parse_helios_trace("", 8).ok());
    }

    // Trace replay (issue 23): Microsoft Philly's cluster_job_log. A job's GPUs are its first
    // attempt's (over all its servers), its run time the sum of its attempts; jobs never
    // scheduled or still running are left out with a note; the format is told by content.
    // Alibaba PAI's task table (session 27): tasks grouped into jobs by job_name, GPUs = the
    // sum of inst_num x plan_gpu / 100, the span from the first GPU task's launch to the last
    // one's end; checked against an independent reading of the same file with Qt's strings.
    // Jobs under one GPU keep their share and replay on time-sliced GPUs when there are some.
    void readsAPaiTrace() {
        const std::string text = file("pai_task_sample.csv");
        auto tr = parse_pai_trace(text, 8);
        QVERIFY2(tr.ok(), tr.error_text().c_str());
        // The expected jobs, from the rows read independently.
        struct Want {
            double gpus = 0, start = 1e300, end = -1;
            bool open = false;
        };
        QMap<QString, Want> want;
        for (const QString& line : QString::fromStdString(text).split(QLatin1Char('\n'))) {
            const QStringList c = line.split(QLatin1Char(','));
            if (c.size() != 10)
                continue;
            Want& w = want[c[0]];
            const double g = c[2].toDouble() * c[8].toDouble() / 100;
            w.gpus += g;
            if (g > 0) {
                w.start = std::min(w.start, c[4].toDouble());
                if (c[5].isEmpty())
                    w.open = true;
                else
                    w.end = std::max(w.end, c[5].toDouble());
            }
        }
        int jobs = 0, shared = 0, cpu = 0, open = 0;
        for (const Want& w : want) {
            if (w.gpus <= 0)
                ++cpu;
            else if (w.open)
                ++open;
            else {
                ++jobs;
                shared += w.gpus < 1 ? 1 : 0;
            }
        }
        QCOMPARE(static_cast<int>(tr->jobs.size()), jobs);
        QVERIFY(jobs > 150 && shared > 20 && cpu > 3 && open == 2);
        int shares = 0;
        for (const auto& j : tr->jobs) {
            QVERIFY(j.duration_s > 0 && j.gpus >= 1);
            if (j.gpu_share > 0) {
                ++shares;
                QVERIFY(j.gpu_share < 1 && j.gpus == 1 && j.cls == 0);
            }
        }
        QCOMPARE(shares, shared);
        QCOMPARE(tr->classes.front(), std::string("part of a GPU"));
        // The README's example row first: half a GPU for 38 s; its example job (a parameter
        // server and two workers at 50%) is one GPU from the first worker's launch to the last
        // end.
        QCOMPARE(tr->jobs[0].gpu_share, 0.5);
        QCOMPARE(tr->jobs[0].duration_s, 38.0);
        QCOMPARE(tr->jobs[0].submit_s, 0.0);
        QCOMPARE(tr->jobs[1].gpus, 1);
        QCOMPARE(tr->jobs[1].gpu_share, 0.0);
        QCOMPARE(tr->jobs[1].submit_s, 1739310.0 - 1739162.0);
        QCOMPARE(tr->jobs[1].duration_s, 1742950.0 - 1739310.0);
        const auto says = [&](const char* words) {
            for (const auto& n : tr->notes)
                if (n.find(words) != std::string::npos)
                    return true;
            return false;
        };
        QVERIFY(says("CPU-only jobs") && says("still running") && says("part of a GPU") &&
                says("failed jobs replayed") && says("stand in for submissions"));
        // parse_job_trace tells it from Helios and Philly, with or without the header line.
        auto any = parse_job_trace(text, 8);
        QVERIFY(any.ok() && any->jobs == tr->jobs);
        auto headed = parse_job_trace(
            "job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,"
            "gpu_type\n" +
                text,
            8);
        QVERIFY2(headed.ok(), headed.error_text().c_str());
        QVERIFY(headed->jobs == tr->jobs);
        // A bad row is named.
        auto bad = parse_job_trace(file("pai_bad_row.csv"), 8);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error_text().find("line 2") != std::string::npos &&
                     bad.error_text().find("plan_gpu") != std::string::npos,
                 bad.error_text().c_str());
        // Replayed on 4 nodes of 8 GPUs: the fractional jobs on whole GPUs, then with one
        // time-sliced node on a shared replica each (they no longer count a whole GPU busy).
        FleetSpec s;
        s.nodes = 4;
        s.gpus_per_node = 8;
        s.trace = std::make_shared<FleetTrace>(*tr);
        s.horizon_days = tr->span_s / 86400 + 2;
        s.warmup_days = 0;
        const auto whole = simulate_fleet(s);
        QVERIFY2(whole.ok(), whole.error_text().c_str());
        QCOMPARE(whole->timeslice_nodes, 0);
        s.timeslice_nodes = 1;
        const auto sliced = simulate_fleet(s);
        QVERIFY2(sliced.ok(), sliced.error_text().c_str());
        QVERIFY(sliced->timeslice_utilization > 0);
        QVERIFY(sliced->gpu_hours_used < whole->gpu_hours_used);
        QCOMPARE(sliced->jobs_completed + sliced->jobs_waiting_at_end,
                 whole->jobs_completed + whole->jobs_waiting_at_end);
        QVERIFY(std::abs(sliced->gpu_hours_by_jobs + sliced->gpu_hours_switching -
                         sliced->gpu_hours_used) <= 1e-9 * sliced->gpu_hours_used);
    }

    void readsAPhillyTrace() {
        const std::string text = file("philly_sample.json");
        auto tr = parse_philly_trace(text, 8);
        QVERIFY2(tr.ok(), tr.error_text().c_str());
        // The expected jobs, read independently with Qt's JSON reader.
        const QJsonArray all = QJsonDocument::fromJson(QByteArray::fromStdString(text)).array();
        int expected = 0, never = 0, open = 0, notPass = 0, sixteen = 0;
        for (const auto& v : all) {
            const QJsonObject j = v.toObject();
            const QJsonArray a = j[QStringLiteral("attempts")].toArray();
            if (a.isEmpty()) {
                ++never;
                continue;
            }
            bool recorded = true;
            for (const auto& x : a)
                recorded = recorded && x.toObject()[QStringLiteral("end_time")].isString();
            if (!recorded) {
                ++open;
                continue;
            }
            ++expected;
            notPass += j[QStringLiteral("status")].toString() != QStringLiteral("Pass");
            int gpus = 0;
            for (const auto& d : a.first().toObject()[QStringLiteral("detail")].toArray())
                gpus += static_cast<int>(d.toObject()[QStringLiteral("gpus")].toArray().size());
            sixteen += gpus == 16;
        }
        QCOMPARE(static_cast<int>(tr->jobs.size()), expected);
        QVERIFY(never == 2 && open == 1 && notPass > 0 && sixteen > 0);
        const auto noted = [&](const std::string& what) {
            for (const auto& n : tr->notes)
                if (n.find(what) != std::string::npos)
                    return true;
            return false;
        };
        QVERIFY(noted("2 jobs never scheduled"));
        QVERIFY(noted("1 jobs without a recorded start or end"));
        QVERIFY(noted(" failed jobs replayed"));
        // The README's example: submitted first, 8 GPUs, two attempts of 74 s and 2 d 5:39:42.
        QCOMPARE(tr->jobs.front().submit_s, 0.0);
        QCOMPARE(tr->jobs.front().gpus, 8);
        QCOMPARE(tr->jobs.front().duration_s, 74.0 + 2 * 86400 + 5 * 3600 + 39 * 60 + 42);
        int multi = 0;
        for (std::size_t i = 0; i < tr->jobs.size(); ++i) {
            const auto& j = tr->jobs[i];
            QCOMPARE(j.cls, j.gpus == 1 ? 0 : j.gpus <= 8 ? 1 : 2);
            QVERIFY(j.duration_s > 0);
            if (i > 0)
                QVERIFY(j.submit_s >= tr->jobs[i - 1].submit_s);
            multi += j.gpus == 16;
        }
        QCOMPARE(multi, sixteen);
        // Told apart by content: the same reader through parse_job_trace, Helios's CSV too.
        auto any = parse_job_trace(text, 8);
        QVERIFY(any.ok() && any->jobs == tr->jobs);
        auto helios = parse_job_trace(file("helios_sample.csv"), 8);
        QVERIFY(helios.ok() &&
                helios->jobs == parse_helios_trace(file("helios_sample.csv"), 8)->jobs);
        // A malformed job is an error naming it; other JSON is refused saying what it is not.
        auto bad = parse_philly_trace(file("philly_bad_job.json"), 8);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error_text().find("job 2 (application_bad_1)") != std::string::npos &&
                     bad.error_text().find("submitted_time") != std::string::npos,
                 bad.error_text().c_str());
        QVERIFY(!parse_philly_trace("{\"jobs\": []}", 8).ok());
        QVERIFY(!parse_philly_trace("[{\"status\": ", 8).ok());
        QVERIFY(!parse_philly_trace("[]", 8).ok());
        QVERIFY(!parse_philly_trace(text, 0).ok());
    }

    // Replayed on a cluster large enough that nobody waits, the trace is its own answer: every
    // wait is 0 and the busy GPU-hours are each job's GPUs x its run time inside the horizon.
    void replayOnAnAmpleCluster() {
        auto tr = parse_helios_trace(file("helios_sample.csv"), 8);
        QVERIFY(tr.ok());
        auto trace = std::make_shared<FleetTrace>(std::move(tr).value());
        FleetSpec s;
        s.trace = trace;
        s.nodes = 1000;
        s.gpus_per_node = 8;
        s.warmup_days = 0;
        s.horizon_days = trace->span_s / 86400 * 1.5;
        s.topology_aware = false;
        auto r = simulate_fleet(s);
        QVERIFY2(r.ok(), r.error_text().c_str());
        double gpu_s = 0;
        const double end = s.horizon_days * 86400;
        for (const auto& j : trace->jobs)
            gpu_s += j.gpus * (std::min(j.submit_s + j.duration_s, end) - j.submit_s);
        QVERIFY(std::abs(r->gpu_hours_used - gpu_s / 3600) < 1e-6 * gpu_s / 3600);
        QVERIFY(std::abs(r->gpu_hours_by_jobs + r->gpu_hours_switching - r->gpu_hours_used) <
                1e-6 * r->gpu_hours_used);
        QCOMPARE(r->wait_p95_s, 0.0);
        QCOMPARE(r->jobs_arrived, static_cast<std::int64_t>(trace->jobs.size()));
        QCOMPARE(r->classes.front().name, std::string("1 GPU"));
        QCOMPARE(r->trace_jobs_too_large, std::int64_t{0});
        // The timeline: 241 samples from 0 to the horizon, busy within the cluster.
        QCOMPARE(static_cast<int>(r->timeline.size()), 241);
        QCOMPARE(r->timeline.back().t_s, end);
        for (const auto& p : r->timeline)
            QVERIFY(p.busy_gpus >= 0 && p.busy_gpus <= 8000 && p.waiting_jobs == 0);
    }

    // On a small cluster the same trace queues: waits appear, jobs larger than the cluster are
    // left out and counted, Little's law and conservation still hold.
    void replayOnASmallCluster() {
        auto tr = parse_helios_trace(file("helios_sample.csv"), 8);
        QVERIFY(tr.ok());
        auto trace = std::make_shared<FleetTrace>(std::move(tr).value());
        int larger = 0;
        for (const auto& j : trace->jobs)
            larger += j.gpus > 32;
        QVERIFY(larger > 0);
        FleetSpec s;
        s.trace = trace;
        s.nodes = 4;
        s.gpus_per_node = 8;
        s.warmup_days = 0;
        s.horizon_days = trace->span_s / 86400 * 1.2;
        s.policy = FleetPolicy::backfill;
        auto r = simulate_fleet(s);
        QVERIFY2(r.ok(), r.error_text().c_str());
        QCOMPARE(r->trace_jobs_too_large, static_cast<std::int64_t>(larger));
        QVERIFY(r->wait_mean_s > 0);
        QVERIFY(r->utilization > 0 && r->utilization <= 1);
        QVERIFY(std::abs(r->gpu_hours_by_jobs + r->gpu_hours_switching - r->gpu_hours_used) <
                1e-6 * r->gpu_hours_used);
        QVERIFY(std::abs(r->mean_queue_length - r->little_queue_length) <=
                1e-6 * std::max(1.0, r->mean_queue_length));
        bool queued = false;
        for (const auto& p : r->timeline)
            queued = queued || p.waiting_jobs > 0;
        QVERIFY(queued);
        // FIFO on the same cluster: a job of every GPU waits behind long one-GPU jobs and blocks
        // the queue; the jobs still waiting at the end are counted, not hidden.
        s.policy = FleetPolicy::fifo;
        auto fifo = simulate_fleet(s);
        QVERIFY(fifo.ok());
        QVERIFY(fifo->jobs_waiting_at_end > r->jobs_waiting_at_end);
        QVERIFY(fifo->longest_wait_at_end_s > 0);
        QVERIFY(fifo->utilization < r->utilization);
    }

    // Validation (issue 23): real jobs -- the ElasticFlow raw traces of Microsoft's ITP clusters
    // (microsoft/elasticflow-traces; four of its ten clusters, as published) -- replayed FIFO
    // beside the simulator of the Helios study (HeliosArtifact's FIFO with head-of-line
    // blocking and consolidating placement, 8 GPUs per node, the code behind its published
    // Philly table), whose waits on the same jobs and clusters are in
    // itp/helios_fifo_reference.csv (scripts/helios-fifo-reference.py; docs/fleet.md). The
    // reader first: every row a job, the GPU-hours the file's, read independently here.
    void replaysItpTracesLikeTheHeliosSimulator() {
        const auto cells = [](const std::string& line) {
            std::vector<std::string> c;
            std::istringstream in(line);
            std::string cell;
            while (std::getline(in, cell, ','))
                c.push_back(cell);
            return c;
        };
        const std::string ref = file("itp/helios_fifo_reference.csv");
        std::istringstream rows(ref);
        std::string line;
        std::getline(rows, line);
        QCOMPARE(line, std::string("cluster,nodes,jobs,wait_mean_s,wait_p50_s,wait_p95_s"));
        int compared = 0;
        while (std::getline(rows, line)) {
            const auto c = cells(line);
            QCOMPARE(static_cast<int>(c.size()), 6);
            const std::string text = file(("itp/" + c[0] + ".csv").c_str());
            std::istringstream in(text);
            std::string row;
            std::getline(in, row);
            QCOMPARE(row, std::string("job_id,submission_time,duration,num_gpu"));
            std::int64_t jobs = 0;
            double gpu_s = 0;
            while (std::getline(in, row)) {
                const auto j = cells(row);
                QCOMPARE(static_cast<int>(j.size()), 4);
                ++jobs;
                gpu_s += std::stod(j[2]) * std::stod(j[3]);
            }
            auto tr = parse_job_trace(text, 8);
            QVERIFY2(tr.ok(), tr.error_text().c_str());
            QCOMPARE(static_cast<std::int64_t>(tr->jobs.size()), jobs);
            QCOMPARE(jobs, static_cast<std::int64_t>(std::stoll(c[2])));
            double read_s = 0;
            for (const auto& j : tr->jobs)
                read_s += j.duration_s * j.gpus;
            QCOMPARE(read_s, gpu_s);
            QCOMPARE(tr->jobs.front().submit_s, 0.0);

            FleetSpec s;
            s.trace = std::make_shared<FleetTrace>(std::move(tr).value());
            s.nodes = std::stoi(c[1]);
            s.gpus_per_node = 8;
            s.policy = FleetPolicy::fifo;
            s.topology_aware = true;
            s.warmup_days = 0;
            s.horizon_days = 400; // every job ends: the reference averages over all of them
            auto r = simulate_fleet(s);
            QVERIFY2(r.ok(), r.error_text().c_str());
            QCOMPARE(r->jobs_completed, jobs);
            QCOMPARE(r->jobs_waiting_at_end, std::int64_t{0});
            const double mean = std::stod(c[3]), p50 = std::stod(c[4]), p95 = std::stod(c[5]);
            const std::string what = c[0] + " on " + c[1] + " nodes: mean " +
                                     std::to_string(r->wait_mean_s) + " s vs " + c[3] +
                                     ", median " + std::to_string(r->wait_p50_s) + " vs " + c[4] +
                                     ", 95th " + std::to_string(r->wait_p95_s) + " vs " + c[5];
            qInfo("%s", what.c_str());
            // Within 3% (mean, 95th) and 5% or a minute (median). What differs is arbitrary:
            // which of several equally free nodes a job gets (the reference takes the lowest
            // numbered; with that, cluster10's mean is equal to 0.1 s), and the order of jobs
            // submitted in the same second (the reference sorts them with pandas' unstable
            // sort; made stable, cluster05 on 2 nodes is equal to 7 s in 234,747).
            QVERIFY2(std::abs(r->wait_mean_s - mean) <= 0.03 * mean, what.c_str());
            QVERIFY2(std::abs(r->wait_p95_s - p95) <= 0.03 * p95, what.c_str());
            QVERIFY2(std::abs(r->wait_p50_s - p50) <= std::max(60.0, 0.05 * p50), what.c_str());
            ++compared;
        }
        QCOMPARE(compared, 6);
        // A malformed row is refused naming its line and cell.
        auto bad = parse_job_trace("job_id,submission_time,duration,num_gpu\na,10,5,1\n"
                                   "b,soon,5,1\n",
                                   8);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error_text().find("line 3") != std::string::npos &&
                     bad.error_text().find("submission_time") != std::string::npos,
                 bad.error_text().c_str());
        bad = parse_job_trace("job_id,submission_time,duration,num_gpu\na,10,5,1.5\n", 8);
        QVERIFY2(!bad.ok() && bad.error_text().find("num_gpu") != std::string::npos,
                 bad.error_text().c_str());
        QVERIFY(!parse_job_trace("job_id,submission_time,duration,num_gpu\na,-1,5,1\n", 8).ok());
        bad = parse_job_trace("job_id,submission_time,duration,num_gpu\na,1,-5,1\n", 8);
        QVERIFY2(!bad.ok() && bad.error_text().find("line 2: duration is negative (-5 s)") !=
                                  std::string::npos,
                 bad.error_text().c_str());
        // One CPU job is a CPU job, named by this format's column.
        auto cpu =
            parse_job_trace("job_id,submission_time,duration,num_gpu\na,1,5,1\nb,2,5,0\n", 8);
        QVERIFY(cpu.ok() && !cpu->notes.empty());
        QCOMPARE(cpu->notes.front(), std::string("1 CPU job (num_gpu 0) left out"));
    }

private:
    // One GPU shared by every job that arrives (replicas without limit in practice), jobs busy
    // all their run, Poisson arrivals at load rho, exponential work of 1 h on average, over
    // 20,000 days: the queue the time-slicing known answers are about.
    static FleetSpec oneSlicedGpu(double rho, double efficiency) {
        FleetSpec s;
        s.nodes = 1;
        s.gpus_per_node = 1;
        s.timeslice_nodes = 1;
        s.timeslice_replicas = 1000;
        s.timeslice_efficiency = efficiency;
        FleetClass k{"notebooks", 1, rho, 1, 0};
        k.time_sliced = true;
        s.classes = {k};
        s.horizon_days = 20000;
        s.warmup_days = 200;
        return s;
    }
    static std::string file(const char* name) {
        QFile f(QStringLiteral(CLUSTERLENS_SOURCE_DIR "/tests/data/traces/") +
                QString::fromLatin1(name));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return f.readAll().toStdString();
    }
};

QTEST_APPLESS_MAIN(TestFleet)
#include "tst_fleet.moc"
