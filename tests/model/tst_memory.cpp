// Training memory: validation against ../shared/validation/published.json.
#include "model/catalog.h"
#include "model/memory.h"

#include <QtTest>

using namespace cl::model;

class TestMemory : public QObject {
    Q_OBJECT
private:
    Catalog cat_;

private slots:
    void initTestCase() {
        auto c = Catalog::bundled();
        QVERIFY2(c.ok(), c.error_text().c_str());
        cat_ = c.value();
    }

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
        t.dtype = "fp16";
        t.optimizer = "adamw";
        const MemoryBreakdown b = model_state_bytes(7.5e9, t, 64);
        const double gotGB = (b.weights + b.gradients + b.optimizer) / 1e9;
        // The paper prints one decimal: compare at that precision.
        QVERIFY2(std::abs(gotGB - expectedGB) < 0.05,
                 qPrintable(QStringLiteral("ZeRO Fig.1 stage %1: expected %2 GB, got %3 GB")
                                .arg(zero).arg(expectedGB).arg(gotGB)));
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
        QCOMPARE(m->capacity_bytes, 80e9);
    }

    // Korthikanti et al. 2022 Table 2: activations per layer with sequence parallelism and
    // selective recompute = 34 sbh / t bytes; full recompute keeps 2 sbh / t (the layer input).
    void korthikantiTable2() {
        const ModelArch* m = cat_.model("megatron-gpt-22b-kort");
        QVERIFY(m);
        TrainingSpec t;
        t.tp = 8;
        t.seq = 2048;
        t.micro_batch = 1;
        t.global_batch = 1;
        t.recompute = "selective";
        auto sel = training_memory(*m, t, 8, *cat_.gpu("a100-sxm-80gb"));
        QVERIFY(sel.ok());
        const double sbh = 2048.0 * 1 * 6144;
        QCOMPARE(sel->per_gpu.activations, 34.0 * sbh / 8 * 48);
        t.recompute = "full";
        auto full = training_memory(*m, t, 8, *cat_.gpu("a100-sxm-80gb"));
        QCOMPARE(full->per_gpu.activations, 2.0 * sbh / 8 * 48);
    }

    void rejectsImpossibleLayouts() {
        TrainingSpec t;
        t.tp = 3;
        auto m = training_memory(*cat_.model("llama3-8b"), t, 8, *cat_.gpu("h100-sxm"));
        QVERIFY(!m.ok());
        QCOMPARE(QString::fromStdString(m.errors().front().message()),
                 QStringLiteral("tp*pp*cp: tp*pp*cp = 3 does not divide 8 GPUs"));
    }
};

QTEST_APPLESS_MAIN(TestMemory)
#include "tst_memory.moc"
