// Canvas edits as pure functions: link proposals with reasons, copy/paste, alignment.
#include "model/catalog.h"
#include "model/edit.h"

#include "fixtures.h"

#include <QtTest>

#include <optional>

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

    // Helper-22: after swapping the servers' type every cost was refused until the person found
    // the cloud offer. The offer follows the GPUs: the same provider's instance with as many
    // GPUs, else the cheapest for them; none rents them, or a price is typed: it stays.
    void offerFollowsGpus() {
        Design d = two_nodes();
        d.economics.cloud_offer = "aws-p5.48xlarge";
        const Field* type = find_field(Section::device, "catalog");
        const auto offer_edit = [&](const Design& x, const std::string& to) {
            std::optional<FollowOnEdit> found;
            for (auto& e : follow_on_edits(x, "a", *type, FieldValue{to}, cat_))
                if (e.field->section == Section::economics)
                    found = e;
            return found;
        };
        // Only one of two servers swapped: the design's GPUs are the first device's, H200.
        auto e = offer_edit(d, "dgx-h200");
        QVERIFY(e.has_value());
        QCOMPARE(e->field->key, std::string("cloud_offer"));
        QVERIFY(e->id.empty());
        QCOMPARE(std::get<std::string>(e->value), std::string("aws-p5en.48xlarge"));
        QVERIFY2(e->note.find("AWS p5en.48xlarge (8 × H200 SXM 141GB) in place of p5.48xlarge, "
                              "which rents H100") != std::string::npos,
                 e->note.c_str());
        // The same provider wins over a cheaper one: B200 at AWS.
        e = offer_edit(d, "dgx-b200");
        QVERIFY(e.has_value());
        QCOMPARE(std::get<std::string>(e->value), std::string("aws-p6-b200.48xlarge"));
        // A provider without the GPU: the cheapest offer for it, and the note says so.
        Design lambda = d;
        lambda.economics.cloud_offer = "lambda-gpu-8x-h100-sxm5";
        e = offer_edit(lambda, "dgx-h200");
        QVERIFY(e.has_value());
        QCOMPARE(std::get<std::string>(e->value), std::string("aws-p5en.48xlarge"));
        QVERIFY(e->note.find("the cheapest offer for these GPUs") != std::string::npos);
        // No offer rents MI300X: the offer stays (the cost then says why).
        QVERIFY(!offer_edit(d, "mi300x-platform").has_value());
        // A typed price is the person's: nothing follows.
        Design priced = d;
        priced.economics.price_per_gpu_hour = 2.5;
        QVERIFY(!offer_edit(priced, "dgx-h200").has_value());
        // No offer chosen (the cheapest for the GPU, whatever it is): nothing to follow.
        Design automatic = d;
        automatic.economics.cloud_offer.clear();
        QVERIFY(!offer_edit(automatic, "dgx-h200").has_value());
        // The same GPUs in another server, or the second server swapped: the GPUs stay H100.
        QVERIFY(!offer_edit(d, "hgx-h100").has_value());
        Design second = d;
        second.devices[0].catalog = "dgx-h100";
        std::optional<FollowOnEdit> none;
        for (auto& x :
             follow_on_edits(second, "b", *type, FieldValue{std::string("dgx-h200")}, cat_))
            if (x.field->section == Section::economics)
                none = x;
        QVERIFY(!none.has_value());
    }

    // A device named as its catalog entry, or by a run of its entry name's words (a preset's
    // "RTX 4090" for "GeForce RTX 4090 24GB"), takes the new entry's name with its Type; a
    // name the person made up stays.
    void nameFollowsType() {
        Design d;
        Device g;
        g.id = "g";
        g.kind = DeviceKind::gpu;
        g.catalog = "rtx-4090";
        g.name = "RTX 4090";
        d.devices = {g};
        const Field* type = find_field(Section::device, "catalog");
        const auto name_after = [&](const Design& x) -> std::optional<std::string> {
            for (auto& e :
                 follow_on_edits(x, "g", *type, FieldValue{std::string("apple-m4-max")}, cat_))
                if (e.field->key == "name")
                    return std::get<std::string>(e.value);
            return std::nullopt;
        };
        QCOMPARE(name_after(d).value_or(""), cat_.gpu("apple-m4-max")->name);
        d.devices[0].name = "GeForce RTX 4090 24GB";
        QVERIFY(name_after(d).has_value());
        for (const char* own : {"my workstation", "RTX 409", "4090 24", "TX 4090"}) {
            d.devices[0].name = own;
            QVERIFY2(!name_after(d).has_value(), own);
        }
    }

    // A workload whose name says its model's name follows a Model change (helper-15: the
    // h100-ndr-2node preset's "Llama 3 70B full fine-tune" kept its name over Qwen2.5 72B); the
    // catalog's "Llama 3 / 3.1 70B" is said "Llama 3 70B" or "Llama 3.1 70B", and "(MoE)"-like
    // notes are left out of the new name. A name of the person's own stays.
    void workloadNameFollowsModel() {
        Design d = cl::test::preset("h100-ndr-2node");
        QVERIFY(!d.workloads.empty());
        const std::string id = d.workloads.front().id;
        QCOMPARE(d.workloads.front().name, std::string("Llama 3 70B full fine-tune"));
        const Field* model = find_field(Section::workload, "model");
        QVERIFY(model);
        const auto name_after = [&](const Design& x,
                                    const std::string& to) -> std::optional<std::string> {
            for (auto& e : follow_on_edits(x, id, *model, FieldValue{to}, cat_))
                if (e.field->key == "name")
                    return std::get<std::string>(e.value);
            return std::nullopt;
        };
        QCOMPARE(name_after(d, "qwen2.5-72b").value_or(""),
                 std::string("Qwen2.5 72B full fine-tune"));
        QCOMPARE(name_after(d, "qwen3-30b-a3b").value_or(""),
                 std::string("Qwen3 30B-A3B full fine-tune"));
        d.workloads.front().name = "Llama 3.1 70B (ours)";
        QCOMPARE(name_after(d, "qwen2.5-72b").value_or(""), std::string("Qwen2.5 72B (ours)"));
        // Same model, or a name that does not say it: nothing follows.
        QVERIFY(!name_after(d, d.workloads.front().model).has_value());
        for (const char* own : {"Training job", "my Llama 3 70Bx run", "fine-tune"}) {
            d.workloads.front().name = own;
            QVERIFY2(!name_after(d, "qwen2.5-72b").has_value(), own);
        }
    }

    // Session 53 (helper-46): a serving workload's EP goes back to the engine's default when the
    // new model cannot take it (a dense model, or experts it does not divide); one it can take
    // stays.
    void expertParallelFollowsModel() {
        Design d = cl::test::preset("h200-inference-8x");
        std::size_t w = 0;
        while (w < d.workloads.size() && d.workloads[w].kind != WorkloadKind::inference)
            ++w;
        QVERIFY(w < d.workloads.size());
        const std::string id = d.workloads[w].id;
        d.workloads[w].model = "qwen3-235b-a22b";
        d.workloads[w].inference.ep = 2;
        const Field* model = find_field(Section::workload, "model");
        QVERIFY(model);
        // The follow-on edit of field `key` when the model becomes `to`, if any.
        const auto after = [&](const char* key,
                               const std::string& to) -> std::optional<FollowOnEdit> {
            for (auto& e : follow_on_edits(d, id, *model, FieldValue{to}, cat_))
                if (e.field->key == key)
                    return e;
            return std::nullopt;
        };
        const auto ep_after = [&](const std::string& to) { return after("ep", to); };
        const auto dense = ep_after("llama3-70b");
        QVERIFY(dense.has_value());
        QCOMPARE(std::get<double>(dense->value), 0.0);
        QVERIFY2(dense->note.find("has no experts") != std::string::npos, dense->note.c_str());
        QVERIFY(!ep_after("qwen3-30b-a3b").has_value()); // 128 experts: EP 2 stays
        d.workloads[w].inference.ep = 0;
        QVERIFY(!ep_after("llama3-70b").has_value()); // nothing to reset
        // helper-48 (session 55): attention DP goes off with the experts, said in the note; it
        // stays on for another MoE model.
        d.workloads[w].inference.attention_dp = true;
        const auto adp_after = [&](const std::string& to) { return after("attention_dp", to); };
        const auto off = adp_after("llama3-70b");
        QVERIFY(off.has_value());
        QCOMPARE(std::get<bool>(off->value), false);
        QVERIFY2(off->note.find("is dense") != std::string::npos && off->note.back() == '.',
                 off->note.c_str());
        QVERIFY(!adp_after("qwen3-30b-a3b").has_value());
        // And the edit lands: one undo step, the workload evaluates.
        Design e = d;
        for (auto& f : follow_on_edits(d, id, *model, FieldValue{std::string("llama3-70b")}, cat_))
            f.field->set(e, id, f.value);
        QVERIFY(!e.workloads[w].inference.attention_dp);
    }

    // Helper-16: after Fine-tuning Full -> LoRA the preset's "Llama 3 70B full fine-tune" kept
    // saying "full". The word follows the choice; a name without it stays.
    void workloadNameFollowsFinetune() {
        Design d = cl::test::preset("h100-ndr-2node");
        const std::string id = d.workloads.front().id;
        const Field* ft = find_field(Section::training, "finetune");
        QVERIFY(ft);
        const auto name_after = [&](const Design& x,
                                    const std::string& to) -> std::optional<std::string> {
            for (auto& e : follow_on_edits(x, id, *ft, FieldValue{to}, cat_))
                if (e.field->key == "name")
                    return std::get<std::string>(e.value);
            return std::nullopt;
        };
        QCOMPARE(name_after(d, "lora").value_or(""), std::string("Llama 3 70B LoRA fine-tune"));
        QCOMPARE(name_after(d, "qlora").value_or(""), std::string("Llama 3 70B QLoRA fine-tune"));
        QVERIFY(!name_after(d, "full").has_value());
        d.workloads.front().name = "our 70B run";
        QVERIFY(!name_after(d, "lora").has_value());
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
