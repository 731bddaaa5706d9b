// Canvas edits as pure functions: link proposals with reasons, copy/paste, alignment.
#include "model/catalog.h"
#include "model/edit.h"

#include "fixtures.h"

#include <QtTest>

using namespace cl::model;

class TestEdit : public QObject {
    Q_OBJECT
private:
    Catalog cat_;
    Design two_nodes() {
        Design d;
        Device a;
        a.id = "a";
        a.kind = DeviceKind::system;
        a.catalog = "dgx-h100";
        Device b = a;
        b.id = "b";
        Device ib;
        ib.id = "leaf";
        ib.kind = DeviceKind::switch_;
        ib.catalog = "qm9700";
        Device eth = ib;
        eth.id = "eth";
        eth.catalog = "sn5400";
        d.devices = {a, b, ib, eth};
        return d;
    }

private slots:
    void initTestCase() { cat_ = cl::test::bundled_catalog(); }

    void naturalLinks() {
        const Design d = two_nodes();
        auto l = propose_link(d, cat_, "a", "leaf");
        QVERIFY2(l.ok(), l.error_text().c_str());
        QCOMPARE(l->type, std::string("ib-ndr"));
        QCOMPARE(l->count, std::int64_t{8}); // one cable per NIC rail
        QCOMPARE(l->from, std::string("a"));
        // Order does not matter: the host end comes first.
        auto r = propose_link(d, cat_, "leaf", "b");
        QVERIFY(r.ok());
        QCOMPARE(r->from, std::string("b"));
    }

    void refusedLinksSayWhy() {
        const Design d = two_nodes();
        auto nv = propose_link(d, cat_, "a", "b", "nvlink4");
        QVERIFY(!nv.ok());
        QVERIFY2(nv.error_text().find("needs an NVLink switch") != std::string::npos,
                 nv.error_text().c_str());
        auto roce = propose_link(d, cat_, "a", "leaf", "roce-400");
        QVERIFY(!roce.ok());
        QVERIFY(roce.error_text().find("InfiniBand switch") != std::string::npos);
        auto ib = propose_link(d, cat_, "a", "eth", "ib-ndr");
        QVERIFY(!ib.ok());
        QVERIFY(ib.error_text().find("Ethernet switch") != std::string::npos);
        QVERIFY(!propose_link(d, cat_, "a", "a").ok());
        QVERIFY(!propose_link(d, cat_, "a", "nope").ok());
        QVERIFY(!propose_link(d, cat_, "a", "leaf", "ib-xdr").ok()); // faster than the ports
        QVERIFY(propose_link(d, cat_, "a", "leaf", "ib-hdr").ok());  // slower is fine
    }

    void copyPaste() {
        Design d = cl::test::preset("h100-ndr-2node");
        std::vector<std::string> ids;
        for (const auto& dev : d.devices)
            if (dev.parent.empty())
                ids.push_back(dev.id);
        for (const auto& w : d.workloads)
            ids.push_back(w.id);
        const std::string frag = copy_fragment(d, ids);
        const std::size_t devs = d.devices.size(), links = d.links.size(), wls = d.workloads.size();
        auto top = paste_fragment(d, frag, &cat_, {40, 40});
        QVERIFY2(top.ok(), top.error_text().c_str());
        QCOMPARE(d.devices.size(), 2 * devs);
        QCOMPARE(d.links.size(), 2 * links);
        QCOMPARE(d.workloads.size(), 2 * wls);
        QCOMPARE(top->size(), ids.size());
        // The result is a valid design (unique ids, links and placements resolve).
        auto again = design_from_json(design_to_json(d), "pasted", &cat_);
        QVERIFY2(again.ok(), again.error_text().c_str());
        QVERIFY(!paste_fragment(d, "{not json", &cat_, {}).ok());
    }

    void alignment() {
        Design d = two_nodes();
        d.devices[0].position = {10, 100};
        d.devices[1].position = {50, 300};
        align(d, {"a", "b"}, Alignment::left);
        QCOMPARE(d.devices[1].position.x, 10.0);
        align(d, {"a", "b"}, Alignment::bottom);
        QCOMPARE(d.devices[0].position.y, 300.0);
    }
};

QTEST_GUILESS_MAIN(TestEdit)
#include "tst_edit.moc"
