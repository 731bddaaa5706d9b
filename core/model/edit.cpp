#include "model/edit.h"

#include "model/tco.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

namespace cl::model {

namespace {

/// What kind of hardware endpoint a device is, for cabling.
enum class End { gpu, host, ib_switch, eth_switch, nvswitch, nic, storage, group, other };

End end_of(const Device& dev, const Catalog& c) {
    switch (dev.kind) {
    case DeviceKind::gpu:
        return End::gpu;
    case DeviceKind::system:
    case DeviceKind::server:
        return End::host;
    case DeviceKind::nic:
        return End::nic;
    case DeviceKind::storage:
        return End::storage;
    case DeviceKind::group:
        return End::group;
    case DeviceKind::switch_:
        if (const SwitchSpec* s = c.switch_spec(dev.catalog)) {
            if (s->cls == SwitchClass::nvswitch)
                return End::nvswitch;
            return s->cls == SwitchClass::infiniband ? End::ib_switch : End::eth_switch;
        }
        return End::other;
    }
    return End::other;
}

std::string name_of(const Device& d) {
    return d.name.empty() ? d.id : d.name;
}

} // namespace

Result<Link> propose_link(const Design& d, const Catalog& c, const std::string& from,
                          const std::string& to, const std::string& type) {
    const Device* a = d.device(from);
    const Device* b = d.device(to);
    if (!a || !b)
        return Error{"link", "both ends must be devices on the canvas"};
    if (a->id == b->id)
        return Error{"link", "cannot connect " + name_of(*a) + " to itself"};
    End ea = end_of(*a, c), eb = end_of(*b, c);
    // Order: the lower end first (host before switch), so rules read one way.
    if (ea > eb) {
        std::swap(a, b);
        std::swap(ea, eb);
    }
    std::string t = type;
    if (t.empty()) {
        const SwitchSpec* sb = c.switch_spec(b->catalog);
        const SystemSpec* sa = c.system(a->catalog);
        if ((eb == End::ib_switch || eb == End::eth_switch) && ea == End::host && sa &&
            !sa->scaleout_link.empty())
            t = sa->scaleout_link;
        else if (sb && !sb->link.empty())
            t = sb->link;
        else if (ea == End::host && eb == End::host && sa && !sa->scaleout_link.empty())
            t = sa->scaleout_link;
        else if (ea == End::gpu && eb == End::gpu)
            if (const GpuSpec* g = c.gpu(a->catalog); g && !g->scaleup_link.empty())
                t = g->scaleup_link;
        if (t.empty())
            return Error{"link", "pick a link type in the palette: no natural link between " +
                                     name_of(*a) + " and " + name_of(*b)};
    }
    const LinkSpec* ls = c.link(t);
    if (!ls)
        return Error{"link", "unknown link type \"" + t + "\""};
    // Scale-up links (NVLink, xGMI) stay inside a scale-up domain: GPU to GPU in one server,
    // or to an NVLink switch.
    if (ls->cls == LinkClass::scaleup) {
        const bool ok = (ea == End::gpu && (eb == End::gpu || eb == End::nvswitch)) ||
                        (eb == End::nvswitch && (ea == End::host || ea == End::nvswitch));
        if (!ok) {
            if (ea == End::host && eb == End::host)
                return Error{"link", ls->name + " between two servers needs an NVLink switch (" +
                                         name_of(*a) + ", " + name_of(*b) +
                                         "): use InfiniBand or Ethernet, or add an NVLink switch"};
            return Error{"link", ls->name + " connects GPUs or NVLink switches, not " +
                                     name_of(*a) + " and " + name_of(*b)};
        }
        if (ea == End::gpu && eb == End::gpu && a->parent != b->parent)
            return Error{"link", ls->name + " joins GPUs of one server; " + name_of(*a) + " and " +
                                     name_of(*b) + " sit in different servers"};
    } else if (ls->cls == LinkClass::scaleout) {
        if (ea == End::gpu || eb == End::nvswitch)
            return Error{"link", ls->name + " is a network cable: it plugs into a server's NIC "
                                            "and a network switch, not a GPU or an NVSwitch"};
        if (eb == End::ib_switch && ls->protocol != NetProtocol::infiniband)
            return Error{"link", "an " + std::string(to_string(ls->protocol)) + " cable (" +
                                     ls->name + ") cannot plug into the InfiniBand switch " +
                                     name_of(*b)};
        if (eb == End::eth_switch && ls->protocol == NetProtocol::infiniband)
            return Error{"link", "an InfiniBand cable (" + ls->name +
                                     ") cannot plug into the Ethernet switch " + name_of(*b)};
        if (const SwitchSpec* sb = c.switch_spec(b->catalog);
            sb && sb->port_rate_bps > 0 && ls->port_rate_bps > sb->port_rate_bps * 1.001)
            return Error{"link", ls->name + " runs faster than the ports of " + name_of(*b)};
    } else { // PCIe: GPU or NIC into a host
        if (!((ea == End::gpu || ea == End::nic) && eb == End::host) &&
            !(ea == End::host && (eb == End::nic || eb == End::storage)))
            return Error{"link", ls->name + " connects a GPU or NIC to its server"};
    }
    Link l;
    l.from = a->id;
    l.to = b->id;
    l.type = t;
    l.count = 1;
    if (ea == End::host && (eb == End::ib_switch || eb == End::eth_switch))
        if (const SystemSpec* s = c.system(a->catalog); s && s->nics > 0)
            l.count = s->nics; // one cable per NIC (rail)
    for (int i = 1;; ++i) {
        const std::string id =
            "link-" + std::to_string(d.links.size() + static_cast<std::size_t>(i));
        if (!d.link(id) && !d.device(id) && !d.workload(id)) {
            l.id = id;
            break;
        }
    }
    return l;
}

std::string copy_fragment(const Design& d, const std::vector<std::string>& ids) {
    std::set<std::string> take(ids.begin(), ids.end());
    // Descendants of selected devices come along.
    for (bool grew = true; grew;) {
        grew = false;
        for (const Device& dev : d.devices)
            if (!dev.parent.empty() && take.count(dev.parent) && !take.count(dev.id)) {
                take.insert(dev.id);
                grew = true;
            }
    }
    Design f;
    f.name = "clipboard";
    for (const Device& dev : d.devices)
        if (take.count(dev.id)) {
            Device copy = dev;
            if (!copy.parent.empty() && !take.count(copy.parent))
                copy.parent.clear();
            f.devices.push_back(copy);
        }
    for (const Link& l : d.links)
        if (take.count(l.from) && take.count(l.to))
            f.links.push_back(l);
    for (const Workload& w : d.workloads)
        if (take.count(w.id)) {
            Workload copy = w;
            std::vector<std::string> kept;
            for (const auto& p : copy.placement)
                if (take.count(p))
                    kept.push_back(p);
            copy.placement = kept;
            f.workloads.push_back(copy);
        }
    return design_to_json(f);
}

Result<std::vector<std::string>> paste_fragment(Design& d, std::string_view fragment,
                                                const Catalog* c, Point offset) {
    auto parsed = design_from_json(fragment, "clipboard", c);
    if (!parsed)
        return parsed.errors();
    Design f = std::move(parsed).value();
    if (f.devices.empty() && f.workloads.empty())
        return Error{"clipboard", "nothing to paste"};
    std::map<std::string, std::string> rename;
    Design probe = d; // ids must be unique against the design and each other
    auto fresh = [&](const std::string& old) {
        std::string prefix = old;
        while (!prefix.empty() &&
               (std::isdigit(static_cast<unsigned char>(prefix.back())) || prefix.back() == '-'))
            prefix.pop_back();
        const std::string id = probe.unique_id(prefix.empty() ? "item" : prefix);
        Device reserved; // holds the id so the next unique_id() skips it
        reserved.id = id;
        probe.devices.push_back(reserved);
        return id;
    };
    for (const Device& dev : f.devices)
        rename[dev.id] = fresh(dev.id);
    for (const Workload& w : f.workloads)
        rename[w.id] = fresh(w.id);
    std::vector<std::string> top;
    for (Device dev : f.devices) {
        const bool is_top = dev.parent.empty();
        dev.id = rename[dev.id];
        if (!dev.parent.empty())
            dev.parent = rename[dev.parent];
        dev.position.x += offset.x;
        dev.position.y += offset.y;
        if (is_top)
            top.push_back(dev.id);
        d.devices.push_back(std::move(dev));
    }
    for (Link l : f.links) {
        l.from = rename[l.from];
        l.to = rename[l.to];
        l.id = fresh(l.id);
        d.links.push_back(std::move(l));
    }
    for (Workload w : f.workloads) {
        w.id = rename[w.id];
        for (auto& p : w.placement)
            p = rename[p];
        w.position.x += offset.x;
        w.position.y += offset.y;
        // A pasted workload whose name is taken is named as a copy (helper-22: two services
        // both "Llama 3 70B serving", one warned that it shares GPUs with the other by the same
        // name).
        const auto taken = [&d](const std::string& n) {
            return std::any_of(d.workloads.begin(), d.workloads.end(),
                               [&n](const Workload& x) { return x.name == n; });
        };
        if (!w.name.empty() && taken(w.name)) {
            const std::string base = w.name;
            w.name = base + " (copy)";
            for (int k = 2; taken(w.name) && k < 10000; ++k)
                w.name = base + " (copy " + std::to_string(k) + ")";
        }
        top.push_back(w.id);
        d.workloads.push_back(std::move(w));
    }
    return top;
}

void align(Design& d, const std::vector<std::string>& ids, Alignment a) {
    constexpr double kW = 180, kH = 70;
    std::vector<Point*> pts;
    for (auto& dev : d.devices)
        if (std::find(ids.begin(), ids.end(), dev.id) != ids.end())
            pts.push_back(&dev.position);
    for (auto& w : d.workloads)
        if (std::find(ids.begin(), ids.end(), w.id) != ids.end())
            pts.push_back(&w.position);
    if (pts.size() < 2)
        return;
    double lo_x = pts[0]->x, hi_x = pts[0]->x, lo_y = pts[0]->y, hi_y = pts[0]->y;
    for (const Point* p : pts) {
        lo_x = std::min(lo_x, p->x);
        hi_x = std::max(hi_x, p->x);
        lo_y = std::min(lo_y, p->y);
        hi_y = std::max(hi_y, p->y);
    }
    for (Point* p : pts) {
        switch (a) {
        case Alignment::left:
            p->x = lo_x;
            break;
        case Alignment::right:
            p->x = hi_x;
            break;
        case Alignment::top:
            p->y = lo_y;
            break;
        case Alignment::bottom:
            p->y = hi_y;
            break;
        case Alignment::center_horizontal: // one column: same centre x
            p->x = (lo_x + hi_x + kW) / 2 - kW / 2;
            break;
        case Alignment::center_vertical: // one row: same centre y
            p->y = (lo_y + hi_y + kH) / 2 - kH / 2;
            break;
        }
    }
}

Result<DropResult> drop_entry(Design& d, const Catalog& c, const std::string& kind,
                              const std::string& id, Point at, const std::string& target) {
    DropResult out;
    if (kind == "workload") {
        Workload w;
        const bool serving = id == "inference";
        w.kind = serving ? WorkloadKind::inference : WorkloadKind::training;
        w.id = d.unique_id(serving ? "serving" : "training");
        w.model = serving ? "llama3-70b" : "llama3-8b";
        // Issue 21: a second service is "Inference service 2", not a second one of the same name.
        const std::string base = serving ? "Inference service" : "Training job";
        w.name = base;
        for (int n = 2; std::any_of(d.workloads.begin(), d.workloads.end(),
                                    [&](const Workload& x) { return x.name == w.name; });
             ++n)
            w.name = base + " " + std::to_string(n);
        if (!serving) {
            w.training.global_batch = 512;
            w.training.tokens = 1e10;
        }
        if (!target.empty())
            w.placement = {target};
        w.position = at;
        // Issue 21: a workload dropped on a server covered the server's card and its link
        // label. Its card goes beside the server instead, below any card already there. Sizes
        // are the canvas's cards (widgets/canvas.cpp: devices 180 x 70, workloads 244 x 128).
        if (const Device* t = target.empty() ? nullptr : d.device(target)) {
            const auto overlaps = [&](Point p) {
                const auto hit = [&](Point q, double w2, double h2) {
                    return p.x < q.x + w2 && q.x < p.x + 244 && p.y < q.y + h2 && q.y < p.y + 128;
                };
                return std::any_of(d.devices.begin(), d.devices.end(),
                                   [&](const Device& x) { return hit(x.position, 180, 70); }) ||
                       std::any_of(d.workloads.begin(), d.workloads.end(),
                                   [&](const Workload& x) { return hit(x.position, 244, 128); });
            };
            Point p{t->position.x + 200, t->position.y};
            for (int i = 0; i < 50 && overlaps(p); ++i)
                p.y += 140;
            w.position = p;
        }
        out.id = w.id;
        out.undo_text = "Add " + w.name;
        out.message = target.empty() ? w.name + " runs on every GPU of the design"
                                     : w.name + " placed on " + target;
        d.workloads.push_back(std::move(w));
        return out;
    }
    Device dev;
    dev.catalog = id;
    dev.position = at;
    if (kind == "system" && c.system(id)) {
        dev.kind = DeviceKind::system;
        dev.name = c.system(id)->name;
    } else if (kind == "gpu" && c.gpu(id)) {
        dev.kind = DeviceKind::gpu;
        dev.name = c.gpu(id)->name;
        if (const Device* host = d.device(target); host && host->kind == DeviceKind::server) {
            std::int64_t used = 0;
            for (const auto& x : d.devices)
                if (x.parent == host->id && x.kind == DeviceKind::gpu)
                    used += x.count;
            if (host->gpu_slots > 0 && used >= host->gpu_slots)
                return Error{target, host->name + " has no free GPU slot (" +
                                         std::to_string(host->gpu_slots) + " of " +
                                         std::to_string(host->gpu_slots) + " used)"};
            dev.parent = host->id;
            dev.position = {host->position.x + 20.0 * static_cast<double>(used + 1),
                            host->position.y + 90};
        } else if (const Device* sys = d.device(target); sys && sys->kind == DeviceKind::system) {
            return Error{target,
                         sys->name + " comes with its GPUs; drop GPUs into a generic server"};
        }
    } else if (kind == "switch" && c.switch_spec(id)) {
        dev.kind = DeviceKind::switch_;
        dev.name = c.switch_spec(id)->name;
    } else if (kind == "storage") {
        dev.kind = DeviceKind::storage;
        dev.catalog.clear();
        dev.name = "Storage";
        // Starting values for the user to set in the inspector: no sourced default exists for
        // "a storage system".
        dev.storage_bandwidth_Bps = 100e9;
        dev.storage_capacity_bytes = 1e15;
    } else {
        return Error{kind + ":" + id,
                     "Cannot place \"" + kind + ":" + id + "\": unknown catalog entry"};
    }
    dev.id = d.unique_id(kind);
    out.id = dev.id;
    out.undo_text = "Add " + dev.name;
    d.devices.push_back(std::move(dev));
    return out;
}

void remove_entities(Design& d, const std::vector<std::string>& ids) {
    std::set<std::string> gone(ids.begin(), ids.end());
    for (bool grew = true; grew;) { // children of removed devices go too
        grew = false;
        for (const auto& x : d.devices)
            if (!x.parent.empty() && gone.count(x.parent) && !gone.count(x.id)) {
                gone.insert(x.id);
                grew = true;
            }
    }
    std::erase_if(d.devices, [&](const Device& x) { return gone.count(x.id) > 0; });
    std::erase_if(d.links, [&](const Link& l) {
        return gone.count(l.id) || gone.count(l.from) || gone.count(l.to);
    });
    std::erase_if(d.workloads, [&](const Workload& w) { return gone.count(w.id) > 0; });
    for (auto& w : d.workloads)
        std::erase_if(w.placement, [&](const std::string& p) { return gone.count(p) > 0; });
}

namespace {
/// The display name of a catalog entry of a device's kind, or empty.
std::string entry_name(const Catalog& c, DeviceKind kind, const std::string& id) {
    switch (kind) {
    case DeviceKind::system:
        if (const auto* s = c.system(id))
            return s->name;
        break;
    case DeviceKind::switch_:
        if (const auto* s = c.switch_spec(id))
            return s->name;
        break;
    case DeviceKind::gpu:
        if (const auto* g = c.gpu(id))
            return g->name;
        break;
    case DeviceKind::nic:
        if (const auto* n = c.nic(id))
            return n->name;
        break;
    default:
        break;
    }
    return {};
}

/// Where `part` stands in `text` as whole words: at its start or after one of `bounds`, and
/// ending at its end or before one of them; npos when nowhere. (A name following a device's
/// Type, a workload's Model or Fine-tuning: follow_on_edits.)
std::size_t find_words(const std::string& text, const std::string& part, std::string_view bounds) {
    if (part.empty())
        return std::string::npos;
    const auto bound = [&](std::size_t i) {
        return bounds.find(text[i]) != std::string_view::npos;
    };
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
        const std::size_t end = at + part.size();
        if ((at == 0 || bound(at - 1)) && (end == text.size() || bound(end)))
            return at;
    }
    return std::string::npos;
}

/// The cloud offer that follows a Type change of `dev` to `next` (see follow_on_edits).
std::optional<FollowOnEdit> offer_following_gpus(const Design& d, const Device& dev,
                                                 const std::string& next, const Catalog& c) {
    const CloudOffer* pinned = c.cloud(d.economics.cloud_offer);
    if (!pinned || d.economics.price_per_gpu_hour > 0 ||
        (dev.kind != DeviceKind::system && dev.kind != DeviceKind::gpu))
        return std::nullopt;
    Design probe = d;
    for (auto& x : probe.devices)
        if (x.id == dev.id)
            x.catalog = next;
    const std::string gpu = design_gpu(probe, c);
    if (gpu.empty() || gpu == design_gpu(d, c) || pinned->gpu == gpu)
        return std::nullopt;
    // The same provider's instance with as many GPUs, else the cheapest offer for these GPUs.
    const CloudOffer* same = default_cloud_offer(c, gpu, d.economics.commitment,
                                                 OfferFilter{pinned->provider, pinned->gpus});
    const CloudOffer* pick = same ? same : default_cloud_offer(c, gpu, d.economics.commitment);
    if (!pick)
        return std::nullopt;
    const auto gpu_name = [&c](const std::string& g) {
        const GpuSpec* s = c.gpu(g);
        return s && !s->name.empty() ? s->name : g;
    };
    std::string note = "Cloud offer: " + pick->provider + " " + pick->instance + " (" +
                       std::to_string(pick->gpus) + " × " + gpu_name(gpu) + ") in place of " +
                       pinned->instance + ", which rents " + gpu_name(pinned->gpu) +
                       (same ? "" : "; the cheapest offer for these GPUs") + ".";
    return FollowOnEdit{
        find_field(Section::economics, "cloud_offer"), {}, FieldValue{pick->id}, std::move(note)};
}
} // namespace

std::vector<FollowOnEdit> follow_on_edits(const Design& d, std::string_view id, const Field& f,
                                          const FieldValue& v, const Catalog& c) {
    std::vector<FollowOnEdit> out;
    if (f.section == Section::device && f.key == "catalog") {
        const Device* dev = d.device(id);
        const auto* next = std::get_if<std::string>(&v);
        if (!dev || !next)
            return out;
        if (auto offer = offer_following_gpus(d, *dev, *next, c))
            out.push_back(std::move(*offer));
        const std::string before = entry_name(c, dev->kind, dev->catalog);
        const std::string after = entry_name(c, dev->kind, *next);
        // The name follows the type when it is the old entry's name or the start of it at a
        // word's end (a preset's "HGX H200" for "HGX H200 8-GPU server"); a name the user
        // made up stays (issue 21: HGX H200 -> MI300X kept "HGX H200").
        // Also when it is a run of whole words of it: a preset's "RTX 4090" for "GeForce RTX
        // 4090 24GB" (helper-24: the card still read "RTX 4090" over an Apple M4 Max).
        const auto words_of = [](const std::string& whole, const std::string& part) {
            return part.size() < whole.size() && find_words(whole, part, " ") != std::string::npos;
        };
        const bool catalog_name =
            dev->name.empty() || dev->name == before || words_of(before, dev->name);
        if (!after.empty() && catalog_name)
            out.insert(out.begin(), FollowOnEdit{find_field(Section::device, "name"),
                                                 std::string(id),
                                                 FieldValue{after},
                                                 {}});
    }
    if (f.section == Section::training && f.key == "finetune") {
        // "Llama 3 70B full fine-tune" becomes "... LoRA fine-tune" with the choice (helper-16:
        // after Full -> LoRA the card and the report still said "full fine-tune").
        const Workload* w = d.workload(id);
        const auto* next = std::get_if<std::string>(&v);
        if (!w || !next)
            return out;
        const auto word = [](std::string_view choice) -> std::string {
            return choice == "lora" ? "LoRA" : choice == "qlora" ? "QLoRA" : "full";
        };
        const std::string was = word(to_string(w->training.finetune));
        const std::string now = word(*next);
        for (const char* tail : {" fine-tune", " finetune", " fine-tuning"}) {
            const auto at = find_words(w->name, was + tail, " ,():");
            if (was == now || at == std::string::npos)
                continue;
            std::string renamed = w->name;
            renamed.replace(at, was.size(), now);
            out.push_back(FollowOnEdit{
                find_field(Section::workload, "name"), std::string(id), FieldValue{renamed}, {}});
            break;
        }
        return out;
    }
    if (f.section == Section::workload && f.key == "model") {
        // A workload's name that names its model as whole words follows the model (helper-15:
        // "Llama 3 70B full fine-tune" kept its name after the model became Qwen2.5 72B, on
        // the card, the charts and the report). A name without the model's name stays.
        const Workload* w = d.workload(id);
        const auto* next = std::get_if<std::string>(&v);
        if (!w || !next)
            return out;
        const ModelArch* was = find_model(d, c, w->model);
        const ModelArch* now = find_model(d, c, *next);
        // A serving workload's expert parallelism the new model cannot take (no experts, or
        // not a divisor of its experts) goes back to the engine's default (helper-46: Qwen3 ->
        // Llama kept EP 2 and the workload was refused).
        if (now && w->inference.ep > 1 && (!now->is_moe() || now->experts % w->inference.ep != 0))
            out.push_back(FollowOnEdit{
                find_field(Section::inference, "ep"), std::string(id), FieldValue{0.0},
                "Expert parallel back to Engine default: " + now->name +
                    (now->is_moe() ? " has " + std::to_string(now->experts) + " routed experts"
                                   : " has no experts") +
                    "."});
        // Attention DP on a dense model is refused (it is plain data parallelism): it goes off
        // with the experts (helper-48: EP went back to the default, attention DP stayed ticked
        // and the workload was refused).
        if (now && !now->is_moe() && w->inference.attention_dp)
            out.push_back(FollowOnEdit{find_field(Section::inference, "attention_dp"),
                                       std::string(id), FieldValue{false},
                                       "Attention data parallel off: " + now->name +
                                           " is dense (it splits only routed experts)."});
        if (!was || !now || was->name.empty() || now->name.empty() || was->name == now->name)
            return out;
        // How names say a model: the catalog's name without its note in brackets ("Qwen3
        // 30B-A3B" for "Qwen3 30B-A3B (MoE)"), and each version of a "Llama 3 / 3.1 70B"
        // ("Llama 3 70B", "Llama 3.1 70B").
        const auto short_name = [](std::string n) {
            if (const auto p = n.find(" ("); p != std::string::npos && n.back() == ')')
                n.erase(p);
            return n;
        };
        std::vector<std::string> says{was->name, short_name(was->name)};
        if (const std::string s = short_name(was->name); s.find(" / ") != std::string::npos) {
            const std::string left = s.substr(0, s.find(" / "));
            const std::string right = s.substr(s.find(" / ") + 3);
            const auto sp = right.find(' ');
            const auto lsp = left.rfind(' ');
            if (sp != std::string::npos)
                says.push_back(left + right.substr(sp));
            if (lsp != std::string::npos)
                says.push_back(left.substr(0, lsp + 1) + right);
        }
        const std::string to = short_name(now->name);
        for (const std::string& old_name : says)
            if (const auto at = find_words(w->name, old_name, " ,():"); at != std::string::npos) {
                std::string renamed = w->name;
                renamed.replace(at, old_name.size(), to);
                if (static_cast<double>(renamed.size()) <= kMaxNameBytes)
                    out.push_back(FollowOnEdit{find_field(Section::workload, "name"),
                                               std::string(id),
                                               FieldValue{renamed},
                                               {}});
                return out;
            }
    }
    return out;
}

Result<FieldValue> check_property_edit(const Design& d, std::string_view id, const Field& f,
                                       const FieldValue& v, const Catalog& c) {
    auto checked = check_value(f, v, d, id, &c);
    if (!checked)
        return checked;
    if (f.section == Section::link && f.key == "type") {
        const Link* l = d.link(id);
        if (!l)
            return Error{std::string(id), "no such link"};
        Design probe = d;
        std::erase_if(probe.links, [&](const Link& x) { return x.id == l->id; });
        if (auto ok = propose_link(probe, c, l->from, l->to, std::get<std::string>(v)); !ok)
            return ok.errors().front();
    }
    return checked;
}

} // namespace cl::model
