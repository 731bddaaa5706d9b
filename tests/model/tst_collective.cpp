// Topology analysis and collectives, validated against ../shared/validation/published.json and
// NCCL maintainers' published figures. Each test names its case id and source.
#include "model/bundled.h"
#include "model/catalog.h"
#include "model/collective.h"
#include "model/design.h"
#include "model/evaluate.h"
#include "model/explain.h"
#include "model/findings.h"
#include "model/generators.h"
#include "model/inference.h"
#include "model/json_read.h"
#include "model/topology.h"
#include "model/training.h"

#include "fixtures.h"

#include <QtTest>

#include <cmath>
#include <set>
#include <sstream>

using namespace cl::model;

namespace {
Design preset(const Catalog& c, const char* id) {
    auto d = design_from_json(bundled_file(std::string("presets/") + id + ".json"), id, &c);
    Q_ASSERT(d.ok());
    return d.value();
}

/// A single node of the given system.
Topology node_of(const Catalog&, const char* system) {
    return cl::test::single_system(system);
}

// C.allreduce.a100_8gpu_nvlink3_sweep -- stas00/ml-engineering network/README.md
// (nccl-tests all_reduce_perf on 8 x A100 SXM NVLink 3): size, time (us), busbw (GB/s).
const double kA100Sweep[][3] = {
    {32768, 43.83, 1.31},         {65536, 46.8, 2.45},          {131072, 51.76, 4.43},
    {262144, 61.38, 7.47},        {524288, 80.4, 11.41},        {1048576, 101.9, 18.0},
    {2097152, 101.4, 36.18},      {4194304, 101.5, 72.33},      {8388608, 133.5, 109.93},
    {16777216, 276.6, 106.16},    {33554432, 424.0, 138.49},    {67108864, 684.6, 171.54},
    {134217728, 1327.6, 176.92},  {268435456, 2420.6, 194.07},  {536870912, 4218.4, 222.72},
    {1073741824, 8203.9, 229.04}, {2147483648, 16240, 231.41},  {4294967296, 32136, 233.88},
    {8589934592, 64074, 234.06},  {17179869184, 127997, 234.89}};
} // namespace

class TestCollective : public QObject {
    Q_OBJECT
private:
    Catalog cat_;
    /// Issue 19: held-out rows (no collective factor is fitted to these sources), in test order.
    std::vector<HeldOutRow> collective_;
    std::set<std::string> done_;
    void held(const QString& id, const char* source, const char* arch, double gpus, double error) {
        collective_.push_back({id.toStdString(), source, BandKind::collective, arch, false, false,
                               false, gpus, error});
    }

private slots:
    // Journey 4 (helper-24): on a 2:1 fat tree, a change of oversubscription that moves nothing
    // says why -- on a rail-optimized tree the 256-GPU job's rings stay on their rail leaves and
    // never cross the oversubscribed uplinks; on a tree that is not rail-optimized its DP traffic
    // does cross them, but mostly behind the backward pass.
    void oversubscriptionNote() {
        FatTreeSpec s;
        s.nodes = 32; // 256 H100
        s.oversubscription = 2;
        auto ft = generate_fat_tree(s, cat_);
        QVERIFY2(ft.ok(), ft.error_text().c_str());
        const GpuSpec& gpu = *cat_.gpu("h100-sxm");
        const ModelArch& m = *cat_.model("llama3-8b");
        TrainingSpec t;
        t.global_batch = 256;
        t.seq = 8192;
        auto rails = train_step(m, t, 256, gpu, analyze_topology(*ft, cat_));
        QVERIFY2(rails.ok(), rails.error_text().c_str());
        QVERIFY2(rails->fabric_note.find("no group of this job goes above the leaf") !=
                     std::string::npos,
                 rails->fabric_note.c_str());
        s.rail_optimized = false;
        ft = generate_fat_tree(s, cat_);
        QVERIFY2(ft.ok(), ft.error_text().c_str());
        auto whole = train_step(m, t, 256, gpu, analyze_topology(*ft, cat_)); // DP over the spine
        QVERIFY2(whole.ok(), whole.error_text().c_str());
        QVERIFY2(whole->fabric_note.find("runs behind compute") != std::string::npos,
                 whole->fabric_note.c_str());
        // And it is true: 1:1 instead of 2:1 changes that step by little.
        s.oversubscription = 1; // still not rail-optimized
        auto full = generate_fat_tree(s, cat_);
        QVERIFY(full.ok());
        auto flat = train_step(m, t, 256, gpu, analyze_topology(*full, cat_));
        QVERIFY(flat.ok());
        QVERIFY2(std::abs(flat->step_time_s / whole->step_time_s - 1) < 0.1,
                 qPrintable(QString("%1 vs %2").arg(flat->step_time_s).arg(whole->step_time_s)));
        QVERIFY(flat->fabric_note.empty()); // no oversubscribed tier, nothing to say
    }

    void initTestCase() { cat_ = cl::test::bundled_catalog(); }

    // One rule for the scale-up side: a shape (the CLI's flags) and a drawing of the GPU's
    // reference system agree on architecture, domain, NVSwitch/NVLS, bandwidths and the PCIe
    // fallback; the shape's own parts (NICs, tiers, GPU count) follow its options.
    void shapeMatchesDrawing() {
        for (const char* id :
             {"h100-sxm", "a100-sxm-80gb", "b200", "gb200", "mi300x", "l40s", "h100-pcie", "l4"}) {
            const GpuSpec* g = cat_.gpu(id);
            QVERIFY2(g, id);
            const auto s = shape_topology(*g, ClusterShape{}, cat_);
            QVERIFY2(s.ok(), id);
            if (g->reference_system.empty()) { // a PCIe card: no switch, PCIe between GPUs
                QVERIFY2(!s->nvswitch && !s->nvls, id);
                QCOMPARE(s->pcie_only, g->scaleup_domain <= 1);
                continue;
            }
            const Topology d = node_of(cat_, g->reference_system.c_str());
            QCOMPARE(s->gpu, d.gpu);
            QCOMPARE(s->gpu_arch, d.gpu_arch);
            QCOMPARE(s->scaleup_domain, d.scaleup_domain);
            QCOMPARE(s->gpus_per_node, d.gpus_per_node);
            QCOMPARE(s->nvswitch, d.nvswitch);
            QCOMPARE(s->nvls, d.nvls);
            QCOMPARE(s->pcie_only, d.pcie_only);
            QCOMPARE(s->scaleup_Bps_per_gpu, d.scaleup_Bps_per_gpu);
            QCOMPARE(s->pair_Bps, d.pair_Bps);
        }
        const GpuSpec& h100 = *cat_.gpu("h100-sxm");
        const auto base = shape_topology(h100, ClusterShape{}, cat_);
        QVERIFY(base.ok() && base->nvls && !base->pcie_only && base->tiers.size() == 1);
        QCOMPARE(base->nics_per_node, double(h100.default_nics_per_node));
        // No scale-up domain: PCIe between the GPUs, no NVLS even on an NVSwitch system.
        ClusterShape pcie;
        pcie.scaleup_domain = 1;
        const auto p = shape_topology(h100, pcie, cat_);
        QVERIFY(p.ok() && p->pcie_only && !p->nvswitch && !p->nvls);
        QCOMPARE(p->scaleup_Bps_per_gpu, cat_.link(h100.pcie_link)->bandwidth_unidir_Bps);
        // Oversubscribed: a leaf per node and a spine; the GPU count gives the nodes.
        ClusterShape over;
        over.oversubscription = 7;
        over.gpus = 64;
        over.nics_per_node = 4;
        const auto o = shape_topology(h100, over, cat_);
        QVERIFY(o.ok());
        QCOMPARE(o->tiers.size(), std::size_t(2));
        QCOMPARE(o->oversubscription, 7.0);
        QCOMPARE(o->nodes, 8.0);
        QCOMPARE(o->scaleout_Bps_per_gpu, 4 * o->nic_Bps / 8);
        ClusterShape bad;
        bad.scaleout_link = "nvlink4"; // scale-up, not scale-out
        const auto b = shape_topology(h100, bad, cat_);
        QVERIFY(!b.ok());
        QCOMPARE(b.errors().front().where, std::string("scaleout_link"));
    }

    // C.nccl_tests.busbw_factors -- NVIDIA/nccl-tests doc/PERFORMANCE.md, exact.
    void busbwFactors() {
        QCOMPARE(busbw_factor(CollectiveOp::allreduce, 8), 2.0 * 7 / 8);
        QCOMPARE(busbw_factor(CollectiveOp::reducescatter, 8), 7.0 / 8);
        QCOMPARE(busbw_factor(CollectiveOp::allgather, 8), 7.0 / 8);
        QCOMPARE(busbw_factor(CollectiveOp::alltoall, 8), 7.0 / 8);
        QCOMPARE(busbw_factor(CollectiveOp::broadcast, 8), 1.0);
        QCOMPARE(busbw_factor(CollectiveOp::sendrecv, 8), 1.0);
        // busbw = algbw x factor in every result.
        const Topology t = node_of(cat_, "dgx-a100");
        auto r = collective_time(CollectiveOp::allreduce, 1 << 30, t, place_group(t, 8, 1),
                                 CollectiveAlgo::automatic);
        QVERIFY(r.ok());
        QCOMPARE(r->algbw_Bps, (1 << 30) / r->time_s);
        QCOMPARE(r->busbw_Bps, r->algbw_Bps * 2.0 * 7 / 8);
    }

    // C.allreduce.a100_8gpu_nvlink3_sweep: busbw within +/-15% for sizes >= 64 MiB; time within
    // +/-50% in the latency-bound range (measured time under 2.5x the smallest measured time,
    // i.e. up to 4 MiB here). Defaults come from NCCL's tuning constants and H100/NDR
    // efficiencies, not from this sweep.
    void a100Sweep() {
        const Topology t = node_of(cat_, "dgx-a100");
        QCOMPARE(t.scaleup_domain, 8);
        const GroupPlacement p = place_group(t, 8, 1);
        QString table =
            QStringLiteral("\n    size        measured     predicted   (busbw GB/s | time us)\n");
        int checked = 0;
        for (const auto& row : kA100Sweep) {
            auto r =
                collective_time(CollectiveOp::allreduce, row[0], t, p, CollectiveAlgo::automatic);
            QVERIFY(r.ok());
            const double busbw = r->busbw_Bps / 1e9, time = r->time_s * 1e6;
            table += QStringLiteral("    %1  %2 | %3   %4 | %5\n")
                         .arg(row[0], 12, 'f', 0)
                         .arg(row[2], 7, 'f', 1)
                         .arg(row[1], 8, 'f', 1)
                         .arg(busbw, 7, 'f', 1)
                         .arg(time, 8, 'f', 1);
            if (row[0] >= 64.0 * 1024 * 1024) {
                QVERIFY2(std::abs(busbw / row[2] - 1) <= 0.15, qPrintable(table));
                ++checked;
                held(
                    QStringLiteral("C.allreduce.a100_8gpu_nvlink3_sweep/%1").arg(row[0], 0, 'f', 0),
                    "stas00/ml-engineering network benchmarks", "ampere", 8, busbw / row[2] - 1);
            }
            if (row[1] < 2.5 * kA100Sweep[0][1]) {
                QVERIFY2(std::abs(time / row[1] - 1) <= 0.50, qPrintable(table));
                ++checked;
            }
        }
        qInfo().noquote() << table;
        QCOMPARE(checked, 17);
        done_.insert("a100Sweep");
    }

    // C.sendrecv.a100_nvlink -- li-plus/playground cuda/nccl.md: sendrecv_perf on 8 x A100,
    // busbw 188.6 / 192.75 / 195.1 GB/s at 256 MiB / 512 MiB / 1 GiB, within +/-10%.
    // The 128 MiB row (110.81 GB/s) is not reproduced: the next size is 70% faster, which no
    // bandwidth-latency model explains; it is printed, not asserted.
    void a100SendRecv() {
        const Topology t = node_of(cat_, "dgx-a100");
        const GroupPlacement p = place_group(t, 8, 1);
        const double rows[][2] = {{268435456, 188.6}, {536870912, 192.75}, {1073741824, 195.1}};
        for (const auto& row : rows) {
            auto r =
                collective_time(CollectiveOp::sendrecv, row[0], t, p, CollectiveAlgo::automatic);
            QVERIFY(r.ok());
            held(QStringLiteral("C.sendrecv.a100_nvlink/%1").arg(row[0], 0, 'f', 0),
                 "li-plus/playground nccl notes", "ampere", 8, r->busbw_Bps / 1e9 / row[1] - 1);
            QVERIFY2(std::abs(r->busbw_Bps / 1e9 / row[1] - 1) <= 0.10,
                     qPrintable(QStringLiteral("size %1: expected %2 GB/s, got %3")
                                    .arg(row[0])
                                    .arg(row[1])
                                    .arg(r->busbw_Bps / 1e9)));
        }
        auto r128 =
            collective_time(CollectiveOp::sendrecv, 134217728, t, p, CollectiveAlgo::automatic);
        qInfo() << "sendrecv 128 MiB: measured 110.81 GB/s, predicted" << r128->busbw_Bps / 1e9;
        done_.insert("a100SendRecv");
    }

    // Generalisation beyond the samples: NCCL maintainers' published expectations.
    // nccl-tests #212 (sjeaugey): 8 x H100 NVLS allreduce peak busbw ~480 GB/s, ring ~370;
    // nccl #1576 (AddyLaddy): 2 x DGX A100 with 8 x HDR 200G, allreduce busbw 192 GB/s.
    void maintainerFigures() {
        const Topology h = node_of(cat_, "dgx-h100");
        QVERIFY(h.nvls);
        auto nvls = collective_time(CollectiveOp::allreduce, 8.0 * (1 << 30), h,
                                    place_group(h, 8, 1), CollectiveAlgo::automatic);
        QCOMPARE(nvls->algorithm, CollectiveAlgo::nvls);
        held("C.nccl.maintainer_figures/h100_nvls_8gpu", "NCCL maintainers' figures", "hopper", 8,
             nvls->busbw_Bps / 480e9 - 1);
        QVERIFY(std::abs(nvls->busbw_Bps / 480e9 - 1) < 0.05);
        auto ring = collective_time(CollectiveOp::allreduce, 8.0 * (1 << 30), h,
                                    place_group(h, 8, 1), CollectiveAlgo::ring);
        QVERIFY(std::abs(ring->busbw_Bps / 370e9 - 1) < 0.05);
        held("C.nccl.maintainer_figures/h100_ring_8gpu", "NCCL maintainers' figures", "hopper", 8,
             ring->busbw_Bps / 370e9 - 1);
        const Design d = preset(cat_, "a100-hdr-2node");
        const Topology a = analyze_topology(d, cat_);
        auto two = collective_time(CollectiveOp::allreduce, 8.0 * (1 << 30), a,
                                   place_group(a, 16, 1), CollectiveAlgo::automatic);
        QVERIFY2(std::abs(two->busbw_Bps / 192e9 - 1) < 0.10,
                 qPrintable(QString::number(two->busbw_Bps / 1e9)));
        held("C.nccl.maintainer_figures/a100_hdr_2node", "NCCL maintainers' figures", "ampere", 16,
             two->busbw_Bps / 192e9 - 1);
        done_.insert("maintainerFigures");
    }

    // C.nccl.maintainer_expected_busbw (issue 18): multi-node ring all-reduce runs at ~0.92-0.96
    // of each NIC's line rate per NIC -- NDR 400G 46-48 GB/s on 2 nodes with NCCL_ALGO=RING
    // (nccl-tests #290), HDR 200G ~24 GB/s on 3+ nodes (nccl-tests #160). Asserted within
    // +-10% at the plateau (8 GB). The source's hint says from 512 MB on; there the model is
    // 17-25% low (pipeline fill over 30-62 ring steps): printed, in docs/validation.md.
    void maintainerExpectedPerNicBusbw_data() {
        QTest::addColumn<QString>("system");
        QTest::addColumn<QString>("leaf");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<double>("perNicGBps");
        QTest::newRow("DGX H100, NDR 400G, 2 nodes") << "dgx-h100"
                                                     << "qm9700" << 2 << 47.0;
        QTest::newRow("DGX A100, HDR 200G, 4 nodes") << "dgx-a100"
                                                     << "qm8700" << 4 << 24.0;
    }
    void maintainerExpectedPerNicBusbw() {
        QFETCH(QString, system);
        QFETCH(QString, leaf);
        QFETCH(double, perNicGBps);
        FatTreeSpec s;
        s.system = system.toStdString();
        s.switch_id = leaf.toStdString();
        QFETCH(int, nodes);
        s.nodes = nodes;
        auto ft = generate_fat_tree(s, cat_);
        QVERIFY2(ft.ok(), ft.error_text().c_str());
        const Topology t = analyze_topology(*ft, cat_);
        const int nics = 8; // one NIC per GPU on both systems
        const auto per_nic = [&](double bytes) {
            auto r = collective_time(CollectiveOp::allreduce, bytes, t,
                                     place_group(t, 8 * nodes, 1), CollectiveAlgo::ring);
            return r.ok() ? r->busbw_Bps / nics / 1e9 : -1.0;
        };
        qInfo("per NIC: %.1f GB/s at 512 MB, %.1f at 8 GB (published %.0f)", per_nic(512e6),
              per_nic(8e9), perNicGBps);
        QVERIFY2(std::abs(per_nic(8e9) / perNicGBps - 1) <= 0.10,
                 qPrintable(QString::number(per_nic(8e9))));
        held(QStringLiteral("C.nccl.maintainer_expected_busbw/%1").arg(QTest::currentDataTag()),
             "NCCL maintainers' expected busbw", system == "dgx-h100" ? "hopper" : "ampere",
             8.0 * nodes, per_nic(8e9) / perNicGBps - 1);
    }

    // C.deepep_v1.h800_normal_kernels (issue 18): DeepEP's internode dispatch/combine of the
    // DeepSeek-V3 setting (4,096 tokens, hidden 7,168, top-8; BF16 combine) saturates the RDMA
    // NIC at 43-58 GB/s per GPU for EP 16/32/64 on one CX7 400G per GPU, +-20%. Same NIC here
    // (DGX H100); the bandwidth on the limiting link is the off-node share of each rank's bytes
    // over the time. EP 32's 57-58 GB/s exceed the NIC's 50 GB/s line rate ("the tool's
    // accounting", the case's notes): no physical model reaches them, so each row is checked
    // against the smaller of the published value and the line rate. The intranode NVLink rows
    // (153/158 GB/s) are H800's cut NVLink, not in the catalog.
    void deepEpInternodeBandwidth_data() {
        QTest::addColumn<int>("nodes");
        QTest::addColumn<double>("dispatch");
        QTest::addColumn<double>("combine");
        QTest::newRow("EP16") << 2 << 43.0 << 43.0;
        QTest::newRow("EP32") << 4 << 58.0 << 57.0;
        QTest::newRow("EP64") << 8 << 51.0 << 50.0;
    }
    void deepEpInternodeBandwidth() {
        QFETCH(int, nodes);
        QFETCH(double, dispatch);
        QFETCH(double, combine);
        FatTreeSpec s;
        s.system = "dgx-h100";
        s.switch_id = "qm9700";
        s.nodes = nodes;
        auto ft = generate_fat_tree(s, cat_);
        QVERIFY2(ft.ok(), ft.error_text().c_str());
        const Topology t = analyze_topology(*ft, cat_);
        const int n = 8 * nodes;
        const auto rdma = [&](double bytes) {
            auto r = collective_time(CollectiveOp::alltoall, bytes, t, place_group(t, n, 1),
                                     CollectiveAlgo::automatic);
            return r.ok() ? (n - 8.0) / n * bytes / r->time_s / 1e9 : -1.0;
        };
        const double tokens = 4096, hidden = 7168, top_k = 8;
        const double fp8_dispatch = rdma(tokens * top_k * hidden * (1.0 + 4.0 / 128)); // + scales
        const double bf16_combine = rdma(tokens * top_k * hidden * 2.0);
        qInfo("RDMA GB/s per GPU: dispatch %.1f (published %.0f), combine %.1f (published %.0f)",
              fp8_dispatch, dispatch, bf16_combine, combine);
        constexpr double kLineRate = 50.0; // 400 Gb/s
        QVERIFY(std::abs(fp8_dispatch / std::min(dispatch, kLineRate) - 1) <= 0.20);
        QVERIFY(std::abs(bf16_combine / std::min(combine, kLineRate) - 1) <= 0.20);
        const QString tag = QString::fromLatin1(QTest::currentDataTag());
        held(QStringLiteral("C.deepep_v1.h800_normal_kernels/%1/dispatch").arg(tag), "DeepEP",
             "hopper", n, fp8_dispatch / std::min(dispatch, kLineRate) - 1);
        held(QStringLiteral("C.deepep_v1.h800_normal_kernels/%1/combine").arg(tag), "DeepEP",
             "hopper", n, bf16_combine / std::min(combine, kLineRate) - 1);
    }

    // Placement: inside a domain NVLink; across nodes the NIC; an oversubscribed spine slows
    // groups that cross it but not groups under one leaf.
    void placementAndOversubscription() {
        const Design d = preset(cat_, "llama3-16k-h100");
        const Topology t = analyze_topology(d, cat_);
        QVERIFY(std::abs(t.oversubscription - 7.0) < 0.25); // Llama 3 paper: ~1:7 above pods
        const GroupPlacement tp = place_group(t, 8, 1);
        QCOMPARE(tp.tier, 0);
        const GroupPlacement small_dp = place_group(t, 16, 8); // 16 nodes: one leaf's reach
        QCOMPARE(small_dp.tier, 1);
        const GroupPlacement pod_dp = place_group(t, 384, 8); // one pod
        QCOMPARE(pod_dp.tier, 2);
        QCOMPARE(pod_dp.oversubscription, 1.0);
        const GroupPlacement all_dp = place_group(t, 2048, 8); // across pods: aggregation
        QCOMPARE(all_dp.tier, 3);
        QVERIFY(all_dp.oversubscription > 6);
        // Large messages, so bandwidth (not the ring's latency) decides.
        auto in_pod =
            collective_time(CollectiveOp::allreduce, 64e9, t, pod_dp, CollectiveAlgo::ring);
        auto across =
            collective_time(CollectiveOp::allreduce, 64e9, t, all_dp, CollectiveAlgo::ring);
        QVERIFY(across->busbw_Bps < in_pod->busbw_Bps / 5);
    }

    void topologyOfSuperpod() {
        const Topology t = analyze_topology(preset(cat_, "dgx-h100-su"), cat_);
        QCOMPARE(t.gpus, 248.0);
        QCOMPARE(t.nodes, 31.0);
        QCOMPARE(static_cast<int>(t.tiers.size()), 2);
        QCOMPARE(t.tiers[0].switches, 8.0);
        QCOMPARE(t.tiers[1].switches, 4.0);
        QCOMPARE(t.oversubscription, 1.0);
        QVERIFY(t.rail_optimized);
        QCOMPARE(t.bisection_Bps, 248 * 50e9 / 2);
        QCOMPARE(t.scaleout_Bps_per_gpu, 50e9);
        QCOMPARE(t.diameter_hops, 4);
        QVERIFY2(t.warnings.empty(), t.warnings.empty() ? "" : t.warnings.front().c_str());
    }

    void topologyWarnings() {
        Design d = preset(cat_, "h100-ndr-2node");
        d.links[0].count = 4; // 4 NICs for 8 GPUs
        Device extra;
        extra.id = "lonely";
        extra.kind = DeviceKind::switch_;
        extra.catalog = "qm9700";
        d.devices.push_back(extra); // dangling switch
        Topology t = analyze_topology(d, cat_);
        auto has = [&](const char* text) {
            return std::any_of(t.warnings.begin(), t.warnings.end(), [&](const std::string& w) {
                return w.find(text) != std::string::npos;
            });
        };
        QVERIFY(has("NICs for"));
        QVERIFY(has("lonely is not connected"));
        d = preset(cat_, "h100-ndr-2node");
        d.links[0].type = "ib-hdr"; // 200G link into a 400G switch
        d.devices[0].count = 10;    // 80 ports on a 64-port switch
        t = analyze_topology(d, cat_);
        QVERIFY(has("does not match"));
        QVERIFY(has("ports each but have 64"));
        d = preset(cat_, "h100-ndr-2node");
        d.links.clear(); // two servers, no network
        t = analyze_topology(d, cat_);
        QVERIFY(has("no path"));
    }

    // GPUs with no path between them cannot form a group (issue 17 item 3): no links, or
    // --nics-per-node 0, is no step time and no collective time, never a free network.
    void noNetworkDoesNotRun() {
        auto small = [](Design x) { // a job that fits: Llama 3 8B, TP 8, DP 2, ZeRO 1
            x.workloads[0].model = "llama3-8b";
            x.workloads[0].training.zero = 1;
            return x;
        };
        Design d = small(preset(cat_, "h100-ndr-2node"));
        QVERIFY(!d.workloads.empty());
        Evaluation ev = evaluate(d, cat_);
        QVERIFY(ev.workloads[0].training.has_value()); // wired: runs
        d.links.clear();
        ev = evaluate(d, cat_);
        QVERIFY(!ev.workloads[0].training.has_value());
        QVERIFY2(ev.workloads[0].error.find("does not run") != std::string::npos,
                 ev.workloads[0].error.c_str());
        QVERIFY2(ev.workloads[0].error.find("no scale-out link") != std::string::npos,
                 ev.workloads[0].error.c_str());
        // Two entries, one not cabled: the job across both does not run; a job on the cabled
        // one (a single server) does.
        d = small(preset(cat_, "h100-ndr-2node"));
        d.devices[0].count = 1;
        Device other = d.devices[0];
        other.id = "node2";
        d.devices.push_back(other);
        d.workloads[0].placement = {"node", "node2"};
        ev = evaluate(d, cat_);
        // Named as the cards show them, not by id (helper-20, session 31): two cards of one
        // name are counted.
        QVERIFY(!d.devices[0].name.empty());
        QVERIFY2(ev.workloads[0].error.find("two " + d.devices[0].name +
                                            " devices are not connected") != std::string::npos,
                 ev.workloads[0].error.c_str());
        d.devices.back().name = "spare server";
        ev = evaluate(d, cat_);
        QVERIFY2(
            ev.workloads[0].error.find(d.devices[0].name + " and spare server are not connected") !=
                std::string::npos,
            ev.workloads[0].error.c_str());
        QVERIFY(ev.workloads[0].error.find("node2") == std::string::npos);
        QVERIFY(!ev.workloads[0].training.has_value());
        d.workloads[0].placement = {"node"};
        ev = evaluate(d, cat_);
        QVERIFY2(ev.workloads[0].error.empty(), ev.workloads[0].error.c_str());
        QVERIFY(ev.workloads[0].training.has_value());
        // The train_step check on its own (no islands: a shape with no NICs).
        const GpuSpec* g = cat_.gpu("h100-sxm");
        ClusterShape shape;
        shape.gpus = 64;
        shape.nics_per_node = 0;
        const auto t0 = shape_topology(*g, shape, cat_);
        QVERIFY(t0.ok());
        const auto p = place_group(*t0, 64, 1);
        const auto r = collective_time(CollectiveOp::allreduce, 1e9, *t0, p,
                                       CollectiveAlgo::automatic, CollectiveAssumptions{});
        QVERIFY(!r.ok());
        QVERIFY(r.error_text().find("no scale-out network") != std::string::npos);
        shape.nics_per_node = 8;
        const auto t8 = shape_topology(*g, shape, cat_);
        QVERIFY(collective_time(CollectiveOp::allreduce, 1e9, *t8, place_group(*t8, 64, 1),
                                CollectiveAlgo::automatic, CollectiveAssumptions{})
                    .ok());
    }

    // Calibration: nccl-tests output (as printed) of the A100 sweep; the fit must lower the
    // error, and land within 10% on average.
    void calibrationFromNcclTests() {
        std::ostringstream text;
        text << "# nThread 1 nGpus 8 minBytes 32768 maxBytes 17179869184 step: 2(factor)\n";
        for (int r = 0; r < 8; ++r)
            text << "#  Rank  " << r << " Group  0 Pid 1 on host device  " << r
                 << " [0x07] NVIDIA A100-SXM4-80GB\n";
        text << "#       size         count      type   redop    root     time   algbw   busbw "
                "#wrong     time   algbw   busbw #wrong\n";
        for (const auto& row : kA100Sweep)
            text << "  " << static_cast<long long>(row[0]) << "  "
                 << static_cast<long long>(row[0] / 4) << "  float  sum  -1  " << row[1] << "  "
                 << row[0] / row[1] / 1e3 << "  " << row[2] << "  0  " << row[1]
                 << "  1.0  1.0  0\n";
        text << "# Avg bus bandwidth    : 113.2\n";
        auto run = parse_nccl_tests(text.str());
        QVERIFY2(run.ok(), run.error_text().c_str());
        QCOMPARE(run->runs.size(), std::size_t{1});
        QCOMPARE(run->runs[0].ranks, 8);
        QCOMPARE(run->runs[0].nodes, 1);
        QCOMPARE(run->runs[0].rows.size(), std::size(kA100Sweep));
        const Topology t = node_of(cat_, "dgx-a100");
        auto fit = calibrate(*run, CollectiveOp::allreduce, t);
        QVERIFY2(fit.ok(), fit.error_text().c_str());
        QCOMPARE(fit->tiers.size(), std::size_t{1});
        QCOMPARE(fit->tiers[0].tier, 0);
        qInfo() << "fit: segments" << fit->tiers[0].segments.size() << "error before"
                << fit->error_before << "after" << fit->error_after;
        QVERIFY(fit->error_after < fit->error_before);
        QVERIFY(fit->error_after < 0.20);
    }

    // Generators: the SuperPOD RA table (1-4 SU), fat trees at a chosen oversubscription, and
    // every generated design loads back and analyses without warnings.
    void generators() {
        for (int su = 1; su <= 4; ++su) {
            auto d = generate_superpod_h100(su, cat_);
            QVERIFY(d.ok());
            const Topology t = analyze_topology(*d, cat_);
            static const double gpus[] = {248, 504, 760, 1016};
            QCOMPARE(t.gpus, gpus[su - 1]);
            QCOMPARE(t.oversubscription, 1.0);
            QVERIFY(t.rail_optimized);
            QVERIFY2(t.warnings.empty(), t.warnings.empty() ? "" : t.warnings.front().c_str());
            auto again = design_from_json(design_to_json(*d), "gen", &cat_);
            QVERIFY2(again.ok(), again.error_text().c_str());
        }
        FatTreeSpec s;
        s.nodes = 64;
        s.oversubscription = 2;
        auto ft = generate_fat_tree(s, cat_);
        QVERIFY(ft.ok());
        Topology t = analyze_topology(*ft, cat_);
        QVERIFY2(std::abs(t.oversubscription - 2.0) < 0.15,
                 qPrintable(QString::number(t.oversubscription)));
        s.tiers = 3;
        s.nodes = 512;
        s.oversubscription = 7;
        ft = generate_fat_tree(s, cat_);
        QVERIFY2(ft.ok(), ft.error_text().c_str());
        t = analyze_topology(*ft, cat_);
        QCOMPARE(static_cast<int>(t.tiers.size()), 3);
        QVERIFY2(std::abs(t.oversubscription - 7.0) < 1.0,
                 qPrintable(QString::number(t.oversubscription)));
        auto nvl = generate_nvl72(8, cat_);
        QVERIFY(nvl.ok());
        t = analyze_topology(*nvl, cat_);
        QCOMPARE(t.gpus, 576.0);
        QCOMPARE(t.scaleup_domain, 72);
        auto eth = generate_ethernet("hgx-h100", 32, 1, cat_);
        QVERIFY(eth.ok());
        t = analyze_topology(*eth, cat_);
        QCOMPARE(t.scaleout_link, std::string("roce-400"));
        QVERIFY2(t.warnings.empty(), t.warnings.empty() ? "" : t.warnings.front().c_str());
        QVERIFY(!generate_superpod_h100(5, cat_).ok());
        s.nodes = 0;
        QVERIFY(!generate_fat_tree(s, cat_).ok());
    }

    void ncclTestsParserRejectsGarbage() {
        QVERIFY(!parse_nccl_tests("").ok());
        QVERIFY(!parse_nccl_tests("hello world\n# comment only\n").ok());
        // A row it cannot read is skipped with its line and the reason; with no usable row the
        // error names it.
        auto bad = parse_nccl_tests("1024 256 float sum -1 nan 1 1 0 1 1 1 0\n");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error_text().find("line 1: time, algbw or busbw is not a number") !=
                     std::string::npos,
                 bad.error_text().c_str());
    }

    // Issue 22: real nccl-tests outputs people posted (tests/data/nccl-tests/README.md names the
    // source of each): every version's columns, launcher prefixes, N/A, trimmed rank lists, CRLF.
    void ncclTestsRealOutputs() {
        struct Expect {
            const char* file;
            const char* op; ///< "" = not named and not inferable
            int ranks, nodes, rows;
        };
        const Expect cases[] = {
            {"a100_g8_sendrecv_NA_inplace_partial", "sendrecv", 0, 0, 4},
            {"dgx2h_superpod_old_error_NA", "allreduce", 0, 0, 31}, // too many ranks to infer
            {"dgxa100_k8s_old_error_crlf", "allreduce", 16, 0, 30}, // ranks from busbw/algbw
            {"gb200_1440rank_20rack_lastrankonly_coreweave", "allreduce", 1440, 0,
             6}, // one rank line kept
            {"h100_16rank_2node_mpi_noise_nccltests309", "allreduce", 16, 2, 32},
            {"h100_16rank_srun_label_NA_nccltests290", "allreduce", 16, 2, 11},
            {"h100_64rank_8node_nccltests309", "allreduce", 64, 8, 14},
            {"h100_g8_single_node_nccltests290", "allreduce", 8, 1, 6},
            {"h100_np1024_100ranklines_failure_nccltests322", "allreduce", 100, 13, 5},
            {"h200_allgather_16rank_skypilot_double_prefix", "", 16, 2, 24},
            {"journey4_256rank_allreduce_synthetic", "allreduce", 256, 32, 31},
            {"p5_aws_batch_ompi_tag_prefix", "allreduce", 8, 0, 32},
            {"rtx5090_2rank_broadcast_v2_18", "broadcast", 2, 1, 9},
            {"v100_g8_old_error_col", "allreduce", 8, 1, 25},
            {"a100_gather_2node_ncclinfo_truncated_nccltests350", "", 2, 2, 85}};
        for (const Expect& c : cases) {
            const std::string path =
                std::string(CLUSTERLENS_SOURCE_DIR) + "/tests/data/nccl-tests/" + c.file + ".txt";
            auto text = read_text_file(path, 16u << 20);
            QVERIFY2(text.ok(), path.c_str());
            auto out = parse_nccl_tests(*text);
            QVERIFY2(out.ok(), (std::string(c.file) + ": " + out.error_text()).c_str());
            QVERIFY2(out->runs.size() == 1, c.file);
            const NcclTestsRun& r = out->runs[0];
            QVERIFY2(r.op_name == c.op, (std::string(c.file) + ": op " + r.op_name).c_str());
            QVERIFY2(r.ranks == c.ranks,
                     (std::string(c.file) + ": ranks " + std::to_string(r.ranks)).c_str());
            QVERIFY2(r.nodes == c.nodes,
                     (std::string(c.file) + ": nodes " + std::to_string(r.nodes)).c_str());
            QVERIFY2(static_cast<int>(r.rows.size()) == c.rows,
                     (std::string(c.file) + ": rows " + std::to_string(r.rows.size())).c_str());
            for (const auto& row : r.rows)
                QVERIFY(row.bytes > 0 && row.time_s > 0 && std::isfinite(row.busbw_Bps));
        }
        // The footer behind each launcher's prefix is read (srun's " 0: ", Open MPI's tag, Ray's).
        const std::pair<const char*, double> footers[] = {
            {"h100_16rank_srun_label_NA_nccltests290", 142.735e9},
            {"h200_allgather_16rank_skypilot_double_prefix", 122.073e9},
            {"p5_aws_batch_ompi_tag_prefix", 156.742e9}};
        for (const auto& [file, avg] : footers) {
            auto text = read_text_file(std::string(CLUSTERLENS_SOURCE_DIR) +
                                           "/tests/data/nccl-tests/" + file + ".txt",
                                       16u << 20);
            auto out = parse_nccl_tests(*text);
            QVERIFY2(out.ok() && std::abs(out->runs[0].avg_busbw_Bps / avg - 1) < 1e-6, file);
        }
        // gather_perf is named and refused by the fit with the reason; an unnamed run without a
        // reduction is not read as an all-reduce.
        const Topology big = [&] {
            ClusterShape shape;
            shape.gpus = 2048;
            return shape_topology(*cat_.gpu("h100-sxm"), shape, cat_).value();
        }();
        const auto fit_of = [&](const char* file) {
            auto text = read_text_file(std::string(CLUSTERLENS_SOURCE_DIR) +
                                           "/tests/data/nccl-tests/" + file + ".txt",
                                       16u << 20);
            return calibrate(*parse_nccl_tests(*text), CollectiveOp::allreduce, big);
        };
        auto gather = fit_of("a100_gather_2node_ncclinfo_truncated_nccltests350");
        QVERIFY(!gather.ok());
        QVERIFY2(gather.error_text().find("gather_perf: not a collective the model has") !=
                     std::string::npos,
                 gather.error_text().c_str());
        auto allgather = fit_of("h200_allgather_16rank_skypilot_double_prefix");
        QVERIFY(!allgather.ok());
        QVERIFY2(allgather.error_text().find("does not name its test") != std::string::npos,
                 allgather.error_text().c_str());
        // A run cut by a crash: no usable row, and the error says which line and why.
        auto text = read_text_file(std::string(CLUSTERLENS_SOURCE_DIR) +
                                       "/tests/data/nccl-tests/h800_alltoall_16rank_crash_"
                                       "nccltests355.txt",
                                   16u << 20);
        auto crash = parse_nccl_tests(*text);
        QVERIFY(!crash.ok());
        QVERIFY2(crash.error_text().find("line 27") != std::string::npos,
                 crash.error_text().c_str());
        // Two runs pasted one after the other are two runs; a #wrong count skips its row.
        std::string two = *read_text_file(std::string(CLUSTERLENS_SOURCE_DIR) +
                                              "/tests/data/nccl-tests/v100_g8_old_error_col.txt",
                                          16u << 20);
        two += "# nThread 1 nGpus 1 minBytes 8 maxBytes 64 step: 2(factor)\n"
               "#  Rank  0 Group  0 Pid 1 on a device 0 [0x1] X\n"
               "#  Rank  1 Group  0 Pid 2 on b device 0 [0x1] X\n"
               "#       size  count  type  redop  root  time  algbw  busbw #wrong  time  algbw  "
               "busbw #wrong\n"
               "  8  2  float  sum  -1  20.0  0.00  0.00  0  20.0  0.00  0.00  0\n"
               "  16  4  float  sum  -1  20.1  0.00  0.00  3  20.0  0.00  0.00  0\n"
               "  32  8  float  sum  -1  20.2  0.00  0.00  0  20.0  0.00  0.00  0\n";
        auto both = parse_nccl_tests(two);
        QVERIFY2(both.ok(), both.error_text().c_str());
        QCOMPARE(both->runs.size(), std::size_t{2});
        QCOMPARE(both->runs[1].ranks, 2);
        QCOMPARE(both->runs[1].nodes, 2);
        QCOMPARE(both->runs[1].rows.size(), std::size_t{2});
        QCOMPARE(both->skipped.size(), std::size_t{1});
        QVERIFY(both->skipped[0].reason.find("3 wrong values") != std::string::npos);
    }

    // Issue 22: the uncalibrated model against real outputs whose hardware the poster states
    // (tests/data/nccl-tests/README.md), bandwidth-bound sizes (>= 64 MiB), busbw. Left out:
    // outputs posted as bug reports of slow clusters (nccl-tests #290's two-node run, the DGX
    // A100 Kubernetes run), runs whose NICs are not stated (#309's 64 ranks), failures (#322),
    // and GPUs the catalog lacks (V100).
    void realOutputsBeforeCalibration() {
        struct Case {
            const char* file;
            const char* gpu;
            CollectiveOp op;
            int ranks;
            const char* hardware;
        };
        const Case cases[] = {
            {"h100_16rank_2node_mpi_noise_nccltests309", "h100-sxm", CollectiveOp::allreduce, 16,
             "2 x Dell XE9680, 8 x CX-7 400G IB each"},
            {"h100_g8_single_node_nccltests290", "h100-sxm", CollectiveOp::allreduce, 8,
             "one H100 HGX node (NVLink), -g 8"},
            {"p5_aws_batch_ompi_tag_prefix", "h100-sxm", CollectiveOp::allreduce, 8,
             "one p5.48xlarge (NVLink)"},
            {"h200_allgather_16rank_skypilot_double_prefix", "h200-sxm", CollectiveOp::allgather,
             16, "2 x GCP a3-ultragpu-8g, 8 x 400G each"}};
        QString table = QStringLiteral("\n| output | hardware | sizes | model busbw vs measured, "
                                       "median (range) |\n|---|---|---|---|\n");
        std::vector<double> medians;
        for (const Case& c : cases) {
            auto text = read_text_file(std::string(CLUSTERLENS_SOURCE_DIR) +
                                           "/tests/data/nccl-tests/" + c.file + ".txt",
                                       16u << 20);
            auto out = parse_nccl_tests(*text);
            QVERIFY2(out.ok(), c.file);
            ClusterShape shape;
            shape.gpus = c.ranks;
            const Topology t = shape_topology(*cat_.gpu(c.gpu), shape, cat_).value();
            const GroupPlacement p = place_group(t, c.ranks, 1);
            std::vector<double> errs;
            for (const auto& row : out->runs[0].rows) {
                if (row.bytes < 64.0 * 1048576)
                    continue;
                auto r = collective_time(c.op, row.bytes, t, p, CollectiveAlgo::automatic);
                QVERIFY(r.ok());
                errs.push_back(r->busbw_Bps / row.busbw_Bps - 1);
            }
            QVERIFY(errs.size() >= 4);
            std::sort(errs.begin(), errs.end());
            const double med = errs[errs.size() / 2];
            medians.push_back(std::abs(med));
            table += QStringLiteral("| %1 | %2 | %3 | %4% (%5% .. %6%) |\n")
                         .arg(QString::fromLatin1(c.file), QString::fromLatin1(c.hardware))
                         .arg(errs.size())
                         .arg(med * 100, 0, 'f', 1)
                         .arg(errs.front() * 100, 0, 'f', 1)
                         .arg(errs.back() * 100, 0, 'f', 1);
        }
        std::sort(medians.begin(), medians.end());
        qInfo().noquote() << table;
        // Regression bound: every output's median within 25%.
        QVERIFY2(medians.back() <= 0.25, qPrintable(table));
    }

    // Issue 22, Journey 4: 256 GPUs on 32 DGX H100 with a 2:1 spine, the output of
    // `mpirun -np 256 ./all_reduce_perf -b 8 -e 8G -f 2 -g 1` (synthetic in the real format:
    // tests/data/nccl-tests/make_journey4_256.py). It imports, fits the spine tier with a
    // positive latency in every size range, within 10% for 1 MiB and more, and a 1:1 spine
    // changes the calibrated time where the spine was the bottleneck.
    void journey4SpineFit() {
        ClusterShape shape;
        shape.gpus = 256;
        shape.oversubscription = 2;
        const Topology t = shape_topology(*cat_.gpu("h100-sxm"), shape, cat_).value();
        auto text = read_text_file(std::string(CLUSTERLENS_SOURCE_DIR) +
                                       "/tests/data/nccl-tests/"
                                       "journey4_256rank_allreduce_synthetic.txt",
                                   16u << 20);
        QVERIFY(text.ok());
        auto out = parse_nccl_tests(*text);
        QVERIFY2(out.ok(), out.error_text().c_str());
        auto fit = calibrate(*out, CollectiveOp::allreduce, t);
        QVERIFY2(fit.ok(), fit.error_text().c_str());
        QCOMPARE(fit->tiers.size(), std::size_t{1});
        const TierFit& spine = fit->tiers[0];
        QCOMPARE(spine.tier, 2);
        QCOMPARE(spine.name, std::string("spine"));
        QVERIFY(spine.segments.size() >= 2);
        for (const auto& sf : spine.segments) {
            QVERIFY(sf.alpha_s > 0);
            QVERIFY(sf.beta_Bps > 0);
        }
        // The small-message plateau (~64 us) is the first range's latency, not 0.
        QVERIFY2(std::abs(spine.segments.front().alpha_s - 64e-6) < 10e-6,
                 qPrintable(QString::number(spine.segments.front().alpha_s * 1e6)));
        QVERIFY2(fit->error_after_1mib <= 0.10, qPrintable(QString::number(fit->error_after_1mib)));
        QVERIFY(fit->error_after < fit->error_before);
        // The fitted model reproduces the measurement on its own group...
        const GroupPlacement p = place_group(t, 256, 1);
        const auto at = [&](const Topology& topo, double bytes) {
            return collective_time(CollectiveOp::allreduce, bytes, topo, place_group(topo, 256, 1),
                                   CollectiveAlgo::automatic, fit->applied)
                ->time_s;
        };
        QVERIFY(p.tier == 2);
        const double t1g = at(t, 1073741824.0);
        QVERIFY2(std::abs(t1g / 12404.2e-6 - 1) < 0.1, qPrintable(QString::number(t1g)));
        // ...and a 1:1 spine, where the 2:1 uplinks were the bottleneck, is faster.
        shape.oversubscription = 1;
        const Topology t11 = shape_topology(*cat_.gpu("h100-sxm"), shape, cat_).value();
        QVERIFY2(at(t11, 1073741824.0) < 0.75 * t1g,
                 qPrintable(QString::number(at(t11, 1073741824.0) / t1g)));
        // A fit covers its own tier only: the 1:1 fabric has no spine, so the group is a leaf
        // group there and keeps the uncalibrated model (a spine fit applied to it would count
        // the 2:1 ratio it measured a second time or not at all).
        const double plain = collective_time(CollectiveOp::allreduce, 1073741824.0, t11,
                                             place_group(t11, 256, 1), CollectiveAlgo::automatic)
                                 ->time_s;
        QCOMPARE(at(t11, 1073741824.0), plain);
        qInfo().noquote() << "Journey 4 fit: error" << fit->error_before << "->" << fit->error_after
                          << "(>= 1 MiB:" << fit->error_before_1mib << "->" << fit->error_after_1mib
                          << "); 1 GiB at 2:1" << t1g * 1e3 << "ms, 1:1"
                          << at(t11, 1073741824.0) * 1e3 << "ms";
    }

    // Issue 22: which groups cross which tier, how busy each tier is, the bottleneck named, and
    // a 1:1 spine changing the step time where the DP traffic crossed the 2:1 one.
    void trafficPerTierAndSpineRatio() {
        const ModelArch& m = *cat_.model("llama3-8b");
        const GpuSpec& g = *cat_.gpu("h100-sxm");
        TrainingSpec t;
        t.tp = 1;
        t.global_batch = 256;
        const auto run = [&](double ratio) {
            ClusterShape shape;
            shape.gpus = 256;
            shape.oversubscription = ratio;
            const Topology topo = shape_topology(g, shape, cat_).value();
            return train_step(m, t, 256, g, topo).value();
        };
        const TrainingResult two = run(2), one = run(1);
        QVERIFY(!two.traffic.empty());
        const auto dp = std::find_if(two.traffic.begin(), two.traffic.end(),
                                     [](const GroupTraffic& x) { return x.group == "DP"; });
        QVERIFY(dp != two.traffic.end());
        QCOMPARE(dp->tier, 2);
        QCOMPARE(dp->ranks, 256);
        QVERIFY(dp->bytes > 1e9 && dp->busy_s > 0);
        QVERIFY2(two.bottleneck.find("spine carries DP") == 0, two.bottleneck.c_str());
        QVERIFY2(two.bottleneck.find("2:1 oversubscribed") != std::string::npos,
                 two.bottleneck.c_str());
        QVERIFY(two.explanation.find(two.bottleneck) != std::string::npos);
        QVERIFY(!two.tiers.empty() && two.tiers.back().busy > 0 && two.tiers.back().busy <= 1);
        // 1:1: the DP exchange takes half the time on the wire, and the exposed part shrinks.
        QVERIFY2(one.step_time_s < two.step_time_s,
                 qPrintable(QString("%1 vs %2").arg(one.step_time_s).arg(two.step_time_s)));
        QVERIFY(one.breakdown.dp_comm < two.breakdown.dp_comm);
        qInfo().noquote() << "Llama 3 8B on 256 H100, DP 256:" << two.step_time_s << "s at 2:1 ("
                          << QString::fromStdString(two.bottleneck) << "), " << one.step_time_s
                          << "s at 1:1";
    }

    // Issue 18: gradients reduced in fp32 (Megatron-Core grad_reduce_in_fp32, FSDP2's float32
    // reduce_dtype in torchtitan) put twice the bytes of the gradient reduce-scatter on the
    // wire; the updated weights' all-gather stays 16-bit. Same for ZeRO 0's all-reduce.
    void fp32GradientsDoubleTheReduce() {
        const ModelArch& m = *cat_.model("llama3-8b");
        const GpuSpec& g = *cat_.gpu("h100-sxm");
        ClusterShape shape;
        shape.gpus = 64;
        const Topology topo = shape_topology(g, shape, cat_).value();
        const auto dp_of = [&](int zero, bool fp32) {
            TrainingSpec t;
            t.global_batch = 128;
            t.zero = zero;
            t.fp32_gradients = fp32;
            const TrainingResult r = train_step(m, t, 64, g, topo).value();
            const auto dp = std::find_if(r.traffic.begin(), r.traffic.end(),
                                         [](const GroupTraffic& x) { return x.group == "DP"; });
            return std::make_pair(dp == r.traffic.end() ? 0.0 : dp->bytes, r);
        };
        const auto [b16, r16] = dp_of(1, false);
        const auto [b32, r32] = dp_of(1, true);
        QVERIFY(b16 > 0);
        const double per_gpu = r16.memory.params_per_gpu;
        // ZeRO 1: reduce-scatter of gradients + all-gather of 16-bit weights.
        QVERIFY2(std::abs(b16 - per_gpu * (2.0 + 2.0)) <= 1e-9 * b16,
                 qPrintable(QString::number(b16)));
        QVERIFY2(std::abs(b32 - per_gpu * (4.0 + 2.0)) <= 1e-9 * b32,
                 qPrintable(QString::number(b32)));
        const auto [a16, q16] = dp_of(0, false);
        const auto [a32, q32] = dp_of(0, true);
        QVERIFY2(std::abs(a32 / a16 - 2.0) < 1e-9, qPrintable(QString::number(a32 / a16)));
        // More bytes never make the exposed DP time shorter.
        QVERIFY(r32.breakdown.dp_comm >= r16.breakdown.dp_comm);
        QVERIFY(q32.breakdown.dp_comm >= q16.breakdown.dp_comm);
    }

    // Issue 22: a serving replica's groups on the fabric -- TP 16 over two servers crosses the
    // leaf twice per layer per decode step; the canvas colours the leaf links by it; TP 8 stays
    // in the server and the links are not coloured by it.
    void servingTrafficOnTheCanvas() {
        Design d = preset(cat_, "h100-ndr-2node");
        Workload w;
        w.id = "serve";
        w.name = "Llama serving";
        w.kind = WorkloadKind::inference;
        w.model = "llama3-70b";
        w.inference.tp = 16;
        d.workloads = {w};
        Evaluation ev = evaluate(d, cat_);
        const auto& we = ev.workloads[0];
        QVERIFY2(we.inference.has_value(), we.error.c_str());
        const InferenceResult& r = *we.inference;
        QCOMPARE(r.traffic.size(), std::size_t{1});
        const GroupTraffic& tp = r.traffic[0];
        QCOMPARE(tp.group, std::string("TP"));
        QCOMPARE(tp.ranks, 16);
        QCOMPARE(tp.tier, 1);
        // Two all-reduces of batch x hidden x 2 bytes per layer (what the decode step charges).
        const ModelArch& m = *cat_.model("llama3-70b");
        const double act = r.batch * m.hidden * 2.0;
        QCOMPARE(tp.bytes, 2.0 * m.layers * act);
        const double each = collective_seconds(
            CollectiveOp::allreduce, act, ev.fabric, place_group(ev.fabric, 16, 1),
            CollectiveAlgo::automatic, ev.collective_assumptions);
        QVERIFY(std::abs(tp.busy_s - 2.0 * m.layers * each) <= 1e-12 + 1e-9 * tp.busy_s);
        QCOMPARE(r.tiers.size(), std::size_t{1});
        QVERIFY(r.tiers[0].busy > 0 && r.tiers[0].busy < 1);
        QVERIFY(std::abs(r.tiers[0].busy - tp.busy_s / r.decode_step_s) < 1e-12);
        QVERIFY2(r.bottleneck.find("leaf carries TP all-reduces") == 0, r.bottleneck.c_str());
        // The canvas: this workload is the one shown, its node-to-leaf links carry its load.
        QCOMPARE(default_load_workload(ev), std::string("serve"));
        QVERIFY2(load_legend(ev, "serve").find("of the decode step busy") != std::string::npos,
                 load_legend(ev, "serve").c_str());
        int coloured = 0;
        for (const auto& [link, tier] : ev.findings.link_tiers)
            if (const auto load = link_load(ev, "serve", link); load && tier == 1) {
                QCOMPARE(load->busy, r.tiers[0].busy);
                QVERIFY2(load->note.find("node to leaf: carries TP of Llama serving") == 0,
                         load->note.c_str());
                ++coloured;
            }
        QVERIFY(coloured > 0);
        // The TPOT's explanation names the busiest tier.
        bool named = false;
        for (const auto& e : explain(d, ev, cat_))
            if (e.title == "TTFT and TPOT")
                for (const auto& in : e.inputs)
                    named =
                        named || (in.name == "busiest network tier" && in.value == r.bottleneck);
        QVERIFY(named);
        // TP 8: inside one server; nothing on the network, nothing coloured.
        d.workloads[0].inference.tp = 8;
        ev = evaluate(d, cat_);
        QVERIFY(ev.workloads[0].inference.has_value());
        QCOMPARE(ev.workloads[0].inference->traffic.size(), std::size_t{1});
        QCOMPARE(ev.workloads[0].inference->traffic[0].tier, 0);
        QVERIFY(ev.workloads[0].inference->tiers.empty());
        QVERIFY(ev.workloads[0].inference->bottleneck.empty());
        QVERIFY(default_load_workload(ev).empty());
    }

    // Issue 21: two machines side by side, each running its own workload, are not a wiring
    // mistake: no "no path" warning. A workload across both keeps it (and its own error).
    void separateMachinesAreNotAWarning() {
        Design d = preset(cat_, "h100-ndr-2node");
        d.links.clear();
        d.devices.resize(1);
        d.devices[0].count = 1;
        Device other = d.devices[0];
        other.id = "node2";
        other.position = {400, 0};
        d.devices.push_back(other);
        const auto noPath = [](const Evaluation& ev) {
            return std::any_of(
                ev.topology.warnings.begin(), ev.topology.warnings.end(), [](const std::string& w) {
                    return w.find("no path") == 0 || w.find("some GPUs have no path") == 0;
                });
        };
        d.workloads.resize(1);
        d.workloads[0].model = "llama3-8b";
        d.workloads[0].training.zero = 1;
        d.workloads[0].placement = {"node"};
        Workload second = d.workloads[0];
        second.id = "second";
        second.placement = {"node2"};
        d.workloads.push_back(second);
        Evaluation ev = evaluate(d, cat_);
        QVERIFY(!noPath(ev));
        QVERIFY2(ev.workloads[0].error.empty(), ev.workloads[0].error.c_str());
        QVERIFY2(ev.workloads[1].error.empty(), ev.workloads[1].error.c_str());
        d.workloads[1].placement = {"node", "node2"};
        ev = evaluate(d, cat_);
        QVERIFY(noPath(ev));
        QVERIFY2(ev.workloads[1].error.find("does not run") != std::string::npos,
                 ev.workloads[1].error.c_str());
        d.workloads[1].placement.clear(); // on every GPU: the warning stays
        ev = evaluate(d, cat_);
        QVERIFY(noPath(ev));
    }

    // Issue 22: a switch tier short of ports says so on its card (it was a line in the design
    // inspector only, and the card showed nothing).
    void portOverflowOnTheCard() {
        Design d = preset(cat_, "h100-ndr-2node");
        Evaluation ev = evaluate(d, cat_);
        QVERIFY(!ev.findings.devices.count("leaf"));
        d.devices[0].count = 10; // 10 servers x 8 NICs into one 64-port leaf
        ev = evaluate(d, cat_);
        QVERIFY(ev.findings.devices.count("leaf"));
        const DeviceFinding& f = ev.findings.devices.at("leaf");
        QCOMPARE(f.badge, std::string("⚠ 80/64 ports"));
        QVERIFY2(f.note.find("needs 80 ports") != std::string::npos, f.note.c_str());
        QVERIFY(!ev.findings.devices.count("node"));
        // That fabric cannot be cabled: a service whose TP group crosses the leaf does not run
        // on it (helper-15 got a shorter step from such a fabric); one inside a server does.
        Workload w;
        w.id = "serve";
        w.kind = WorkloadKind::inference;
        w.model = "llama3-70b";
        w.inference.tp = 16;
        d.workloads = {w};
        ev = evaluate(d, cat_);
        QVERIFY(!ev.workloads[0].inference);
        QVERIFY2(ev.workloads[0].error.find("leaf switches need 80 ports each") !=
                     std::string::npos,
                 ev.workloads[0].error.c_str());
        d.workloads[0].inference.tp = 8;
        ev = evaluate(d, cat_);
        QVERIFY2(ev.workloads[0].inference.has_value(), ev.workloads[0].error.c_str());
    }

    // Issue 19: the collective rows above are held out (the collective model fits nothing to
    // these sources), and resources/validation/held_out_collective.json must hold exactly them.
    void heldOutRowsAreBundled() {
        const auto count = [&](const char* prefix) {
            return std::count_if(collective_.begin(), collective_.end(),
                                 [&](const auto& r) { return r.id.rfind(prefix, 0) == 0; });
        };
        if (done_.size() != 3 || count("C.nccl.maintainer_expected_busbw/") != 2 ||
            count("C.deepep_v1.") != 6)
            QSKIP("needs every collective validation to run first (run the whole test)");
        const std::string stale =
            cl::test::check_held_out(collective_, "collective", "tests/model/tst_collective");
        QVERIFY2(stale.empty(), stale.c_str());
    }
};

QTEST_APPLESS_MAIN(TestCollective)
#include "tst_collective.moc"
