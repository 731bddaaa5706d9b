#include "model/design.h"

#include "model/catalog.h"
#include "model/fleet.h"
#include "model/json_read.h"
#include "model/schema.h"
#include "model/units.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cl::model {

using nlohmann::json;

namespace {
constexpr std::array<std::string_view, 7> kKindNames = {"gpu", "system",  "server", "switch",
                                                        "nic", "storage", "group"};
constexpr std::int64_t kMaxCount = 1'000'000'000; // replicas per device entry
constexpr double kMaxQuantity = 1e21;             // bytes, bytes/s
} // namespace

bool FleetTraceRef::operator==(const FleetTraceRef& o) const {
    if (name != o.name || !jobs != !o.jobs)
        return false;
    return !jobs || jobs == o.jobs ||
           (jobs->jobs == o.jobs->jobs && jobs->classes == o.jobs->classes);
}

namespace {

/// fleet.trace: {"name", "classes": [names], "jobs": [[submit_s, gpus, duration_s, class], ...]}
/// (format 1.7). Each job is checked; the first bad one is named by its index.
void read_fleet_trace(const json& tj, JsonReader& r, FleetTraceRef& out) {
    constexpr std::size_t kMaxJobs = 5'000'000;
    auto trace = std::make_shared<FleetTrace>();
    out.name = r.string(tj, "fleet.trace", "name", false).value_or("");
    if (const json* cl = r.member(tj, "fleet.trace", "classes", true);
        cl && r.expect_array(*cl, "fleet.trace.classes")) {
        for (std::size_t i = 0; i < cl->size(); ++i) {
            if (!(*cl)[i].is_string()) {
                r.error("fleet.trace.classes[" + std::to_string(i) + "]", "expected a name");
                return;
            }
            trace->classes.push_back((*cl)[i].get<std::string>());
        }
    }
    if (trace->classes.empty() || trace->classes.size() > 64) {
        r.error("fleet.trace.classes", "expected 1 to 64 class names");
        return;
    }
    const json* jobs = r.member(tj, "fleet.trace", "jobs", true);
    if (!jobs || !r.expect_array(*jobs, "fleet.trace.jobs"))
        return;
    if (jobs->empty() || jobs->size() > kMaxJobs) {
        r.error("fleet.trace.jobs", "expected 1 to 5,000,000 jobs, found " +
                                        units::format_count(static_cast<double>(jobs->size())));
        return;
    }
    trace->jobs.reserve(jobs->size());
    for (std::size_t i = 0; i < jobs->size(); ++i) {
        const json& j = (*jobs)[i];
        const auto num = [&](std::size_t k) {
            return j[k].is_number() ? j[k].get<double>() : std::nan("");
        };
        TraceJob t;
        // A fifth element: the share of one GPU a job asked for (PAI's plan_gpu; format 1.9).
        bool ok = j.is_array() && (j.size() == 4 || j.size() == 5);
        if (ok && j.size() == 5) {
            t.gpu_share = num(4);
            ok = t.gpu_share > 0 && t.gpu_share < 1;
        }
        if (ok) {
            t.submit_s = num(0);
            t.duration_s = num(2);
            const double gpus = num(1), cls = num(3);
            ok = std::isfinite(t.submit_s) && t.submit_s >= 0 && t.submit_s < 1e11 &&
                 std::isfinite(t.duration_s) && t.duration_s > 0 && t.duration_s < 1e11 &&
                 gpus >= 1 && gpus <= 1e7 && gpus == std::floor(gpus) && cls >= 0 &&
                 cls < static_cast<double>(trace->classes.size()) && cls == std::floor(cls);
            t.gpus = ok ? static_cast<int>(gpus) : 1;
            t.cls = ok ? static_cast<int>(cls) : 0;
        }
        if (!ok) {
            r.error("fleet.trace.jobs[" + std::to_string(i) + "]",
                    "expected [submitted s >= 0, GPUs >= 1 (whole), run time s > 0, class index "
                    "< " +
                        std::to_string(trace->classes.size()) +
                        "], or for a job on part of a GPU those and its share of the GPU "
                        "(between 0 and 1)");
            return;
        }
        trace->jobs.push_back(t);
    }
    std::stable_sort(trace->jobs.begin(), trace->jobs.end(),
                     [](const TraceJob& a, const TraceJob& b) { return a.submit_s < b.submit_s; });
    trace->span_s = trace->jobs.back().submit_s - trace->jobs.front().submit_s;
    out.jobs = std::move(trace);
}

json write_fleet_trace(const FleetTraceRef& t) {
    json jobs = json::array();
    for (const auto& j : t.jobs->jobs)
        if (j.gpu_share > 0)
            jobs.push_back({j.submit_s, j.gpus, j.duration_s, j.cls, j.gpu_share});
        else
            jobs.push_back({j.submit_s, j.gpus, j.duration_s, j.cls});
    return {{"name", t.name}, {"classes", t.jobs->classes}, {"jobs", std::move(jobs)}};
}

} // namespace

std::string_view device_kind_name(DeviceKind k) {
    return kKindNames[static_cast<std::size_t>(k)];
}

const Device* Design::device(std::string_view id) const {
    return device_ids.find(devices, id);
}
Device* Design::device(std::string_view id) {
    return const_cast<Device*>(device_ids.find(devices, id));
}
const Workload* Design::workload(std::string_view id) const {
    for (const auto& w : workloads)
        if (w.id == id)
            return &w;
    return nullptr;
}
const Link* Design::link(std::string_view id) const {
    return link_ids.find(links, id);
}

double Design::multiplicity(const Device& d) const {
    double m = static_cast<double>(d.count);
    const Device* cur = &d;
    for (std::size_t guard = 0; guard < devices.size() && !cur->parent.empty(); ++guard) {
        cur = device(cur->parent);
        if (!cur)
            break;
        m *= static_cast<double>(cur->count);
        if (m > 1e18)
            return 1e18;
    }
    return m;
}

DesignIndex::DesignIndex(const Design& d) : design_(&d) {
    const std::size_t n = d.devices.size();
    by_id_.build(d.devices); // the first of a repeated id, as Design::device()
    for (const Device& dev : d.devices)
        if (!dev.parent.empty())
            children_[dev.parent].push_back(&dev);
    // Multiplicities: walk up each chain until a device already known, then fill the chain in
    // on the way back, so every device is walked once (a 10,000-deep chain is linear). A state
    // of 1 marks devices on the current walk: meeting one again is a cycle.
    multiplicity_.assign(n, -1.0);
    cycle_.assign(n, 0);
    std::vector<char> state(n, 0); // 0 new, 1 on the walk, 2 done
    std::vector<std::size_t> chain;
    for (std::size_t i = 0; i < n; ++i) {
        if (state[i] == 2)
            continue;
        chain.clear();
        std::size_t cur = i;
        double above = 1.0; // product of the counts above the chain's top
        bool loop = false;
        while (true) {
            if (state[cur] == 2) {
                above = multiplicity_[cur];
                break;
            }
            if (state[cur] == 1) {
                loop = true;
                break;
            }
            state[cur] = 1;
            chain.push_back(cur);
            const Device& dev = d.devices[cur];
            const Device* parent = dev.parent.empty() ? nullptr : device(dev.parent);
            if (!parent)
                break;
            cur = position(*parent);
        }
        if (loop) // the walk met `cur` again: it and the devices after it form the cycle
            for (std::size_t k = std::find(chain.begin(), chain.end(), cur) - chain.begin();
                 k < chain.size(); ++k)
                cycle_[chain[k]] = 1;
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            above = std::min(1e18, above * static_cast<double>(d.devices[*it].count));
            multiplicity_[*it] = above;
            state[*it] = 2;
        }
    }
}

std::size_t DesignIndex::position(const Device& d) const {
    return static_cast<std::size_t>(&d - design_->devices.data());
}

const Device* DesignIndex::device(std::string_view id) const {
    const std::size_t i = by_id_.find(design_->devices, id);
    return i == IdTable::npos ? nullptr : &design_->devices[i];
}

const std::vector<const Device*>& DesignIndex::children(std::string_view id) const {
    static const std::vector<const Device*> none;
    const auto it = children_.find(id);
    return it == children_.end() ? none : it->second;
}

double DesignIndex::multiplicity(const Device& d) const {
    return multiplicity_[position(d)];
}

bool DesignIndex::in_cycle(const Device& d) const {
    return cycle_[position(d)] != 0;
}

std::string Design::unique_id(std::string_view prefix) const {
    std::set<std::string> used;
    for (const auto& d : devices)
        used.insert(d.id);
    for (const auto& l : links)
        used.insert(l.id);
    for (const auto& w : workloads)
        used.insert(w.id);
    for (int i = 1;; ++i) {
        std::string id = std::string(prefix) + std::to_string(i);
        if (!used.count(id))
            return id;
    }
}

namespace {

/// Copies the members of `j` not in `known` into a JSON text (empty when none).
template <typename Names> std::string extras_of(const json& j, const Names& known) {
    json out = json::object();
    for (const auto& [k, v] : j.items())
        if (std::find(known.begin(), known.end(), k) == known.end())
            out[k] = v;
    return out.empty() ? std::string() : out.dump();
}
std::string extras(const json& j, const std::vector<std::string>& known) {
    return extras_of(j, known);
}

/// Edit distance (Levenshtein), for "did you mean" on misspelled keys.
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

/// In a file of this version or older every key is known: an unknown one is a typo (its
/// default would apply unseen), reported with its path and the nearest known key. Files of a
/// newer minor keep unknown keys verbatim instead (extras()).
template <typename Names>
void check_unknown_keys(const json& j, const Names& known, const std::string& path, JsonReader& r) {
    if (!j.is_object())
        return;
    for (const auto& [k, v] : j.items()) {
        if (std::find(known.begin(), known.end(), k) != known.end())
            continue;
        std::string best;
        std::size_t best_d = 3;
        for (const auto& n : known)
            if (const std::size_t dist = edit_distance(k, n); dist < best_d) {
                best_d = dist;
                best = std::string(n);
            }
        r.error(json_member_path(path, k),
                "unknown key" +
                    (best.empty() ? std::string() : " (did you mean \"" + best + "\"?)") +
                    "; a file of this format version has no such key");
    }
}

void merge_extras(json& j, const std::string& extra) {
    if (extra.empty())
        return;
    json e = json::parse(extra, nullptr, false);
    if (!e.is_object())
        return;
    for (auto& [k, v] : e.items())
        if (!j.contains(k))
            j[k] = v;
}

Point read_point(const json& obj, const std::string& path, JsonReader& r) {
    Point p;
    const json* m = r.member(obj, path, "position", false);
    if (!m)
        return p;
    const std::string pp = json_member_path(path, "position");
    if (!m->is_array() || m->size() != 2 || !(*m)[0].is_number() || !(*m)[1].is_number()) {
        r.error(pp, "expected [x, y] numbers");
        return p;
    }
    p.x = (*m)[0].get<double>();
    p.y = (*m)[1].get<double>();
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || std::fabs(p.x) > 1e9 ||
        std::fabs(p.y) > 1e9) {
        r.error(pp, "coordinates must be finite and within +/-1e9");
        p = {};
    }
    return p;
}

void read_int(const json& obj, const std::string& path, JsonReader& r, const char* key, int& out,
              std::int64_t lo, std::int64_t hi) {
    if (auto v = r.integer(obj, path, key, false, lo, hi))
        out = static_cast<int>(*v);
}
void read_double(const json& obj, const std::string& path, JsonReader& r, const char* key,
                 double& out, double lo, double hi) {
    if (auto v = r.number(obj, path, key, false, lo, hi))
        out = *v;
}

/// Reads the schema fields of `section` from a JSON object into entity `id` of `d`; returns the
/// keys it knows (everything else in the object is a newer version's, kept verbatim).
std::vector<std::string> read_section(Section section, const json& obj, const std::string& path,
                                      JsonReader& r, Design& d, std::string_view id,
                                      std::initializer_list<std::string_view> required = {}) {
    std::vector<std::string> known;
    for (const Field* f : section_fields(section)) {
        // Assumptions nest by group: {"training": {"tp_overlap": 0.5}}.
        const json* holder = &obj;
        std::string p = path;
        std::string key = f->key;
        if (const auto dot = key.find('.'); dot != std::string::npos) {
            const std::string group = key.substr(0, dot);
            if (std::find(known.begin(), known.end(), group) == known.end())
                known.push_back(group);
            holder = obj.is_object() && obj.contains(group) && obj[group].is_object() ? &obj[group]
                                                                                      : nullptr;
            p = json_member_path(path, group);
            key = key.substr(dot + 1);
        } else {
            known.push_back(key);
        }
        if (!holder)
            continue;
        const bool req = std::find(required.begin(), required.end(), key) != required.end();
        std::optional<FieldValue> v;
        switch (f->type) {
        case FieldType::integer:
            if (auto x = r.integer(*holder, p, key, req, static_cast<std::int64_t>(f->min),
                                   static_cast<std::int64_t>(f->max)))
                v = static_cast<double>(*x);
            break;
        case FieldType::number:
            if (auto x = r.number(*holder, p, key, req, f->min, f->max))
                v = *x;
            break;
        case FieldType::boolean:
            if (auto x = r.boolean(*holder, p, key, req))
                v = *x;
            break;
        case FieldType::choice:
        case FieldType::text:
            if (auto x = r.string(*holder, p, key, req)) {
                if (f->choices_from == ChoiceSource::fixed && f->type == FieldType::choice &&
                    std::find(f->choices.begin(), f->choices.end(), *x) == f->choices.end()) {
                    std::string list;
                    for (const auto& c : f->choices)
                        list += (list.empty() ? "" : ", ") + (c.empty() ? "\"\"" : c);
                    r.error(json_member_path(p, key),
                            "expected one of " + list + "; found \"" + *x + "\"");
                } else if (f->type == FieldType::text && f->max > 0 &&
                           static_cast<double>(x->size()) > f->max) {
                    r.error(json_member_path(p, key),
                            "longer than " + units::format_count(f->max) + " bytes (found " +
                                units::format_bytes(static_cast<double>(x->size())) +
                                "); long text belongs in the description");
                } else {
                    v = *x;
                }
            }
            break;
        }
        // A field that may be unset stores unset as 0; format 1.0 wrote unset that way, so 0
        // there means unset. From 1.1 on unset is a missing key, and a 0 is refused.
        if (const double* x = v ? std::get_if<double>(&*v) : nullptr;
            x && *x == 0 && !f->unset.empty() && !(d.version_major == 1 && d.version_minor == 0)) {
            r.error(json_member_path(p, key),
                    "0 is not a value of this field: leave the key out to use " + f->unset);
            v.reset();
        }
        if (v)
            f->set(d, id, *v);
    }
    return known;
}

json to_json(const FieldValue& v) {
    if (const bool* b = std::get_if<bool>(&v))
        return *b;
    if (const auto* s = std::get_if<std::string>(&v))
        return *s;
    const double x = std::get<double>(v);
    if (x == std::floor(x) && std::fabs(x) < 9e15)
        return static_cast<std::int64_t>(x);
    return x;
}

/// Writes the schema fields of `section` for entity `id`. Assumptions are written only where
/// they differ from their sourced default, so a file keeps following improved defaults.
json write_section(Section section, const Design& d, std::string_view id) {
    json j = json::object();
    for (const Field* f : section_fields(section)) {
        const FieldValue v = f->get(d, id);
        if (const auto dot = f->key.find('.'); dot != std::string::npos) {
            if (v == f->default_value)
                continue;
            j[f->key.substr(0, dot)][f->key.substr(dot + 1)] = to_json(v);
        } else if (const double* x = std::get_if<double>(&v);
                   !(x && *x == 0 && !f->unset.empty())) { // unset: no key (format 1.1)
            j[f->key] = to_json(v);
        }
    }
    return j;
}

/// Writes the schema fields of a device or link: a value equal to the field's default is left
/// out (an unnamed device has no "name"), except the `always` keys; numbers stay JSON doubles
/// and integers JSON integers, as the file format has always written them.
void write_entity_fields(json& j, Section section, const Design& d, std::string_view id,
                         std::initializer_list<std::string_view> always) {
    for (const Field* f : section_fields(section)) {
        const FieldValue v = f->get(d, id);
        if (v == f->default_value &&
            std::find(always.begin(), always.end(), f->key) == always.end())
            continue;
        if (const double* x = std::get_if<double>(&v); x && f->type == FieldType::number)
            j[f->key] = *x;
        else
            j[f->key] = to_json(v);
    }
}

/// A workload's settings section (training or inference), read through a scratch design
/// holding one workload of that kind; unknown keys are kept verbatim.
template <class Spec>
Spec read_settings(const json& j, const std::string& p, JsonReader& r, WorkloadKind kind,
                   bool strict, const Design& file) {
    if (!r.expect_object(j, p))
        return {};
    Design s;
    s.version_major = file.version_major; // how unset values are spelled (read_section)
    s.version_minor = file.version_minor;
    Workload w;
    w.id = "w";
    w.kind = kind;
    s.workloads.push_back(std::move(w));
    const bool training = kind == WorkloadKind::training;
    const auto known =
        read_section(training ? Section::training : Section::inference, j, p, r, s, "w");
    Spec out;
    if constexpr (std::is_same_v<Spec, TrainingSpec>) {
        out = s.workloads.front().training;
        // 1.18 -> 1.19: a missing "etp" meant the same as tp (0); it now means 1, NVIDIA's MoE
        // recipes' setting. Older files keep their meaning.
        if (!j.contains("etp") && file.version_major == 1 && file.version_minor <= 18)
            out.etp = 0;
        // 1.19 -> 1.20: multi-token prediction is trained by default (the models that have it);
        // an older file without "mtp" ran without it.
        if (!j.contains("mtp") && file.version_major == 1 && file.version_minor <= 19)
            out.mtp = false;
    } else
        out = s.workloads.front().inference;
    out.extra_json = extras(j, known);
    if (strict)
        check_unknown_keys(j, known, p, r);
    return out;
}

} // namespace

std::vector<Error> validate_design(const Design& d, const Catalog* catalog) {
    std::vector<Error> errors;
    const DesignIndex idx(d);
    auto err = [&](std::string where, std::string what) {
        errors.push_back({std::move(where), std::move(what)});
    };
    // id -> where it is first used (section and index); paths are only built for errors.
    std::unordered_map<std::string_view, std::pair<const char*, std::size_t>> ids;
    ids.reserve(d.devices.size() + d.links.size() + d.workloads.size());
    auto claim = [&](const std::string& id, const char* section, std::size_t i) {
        if (id.empty()) {
            err(json_index_path(section, i) + ".id", "must not be empty");
            return;
        }
        auto [it, inserted] = ids.emplace(id, std::make_pair(section, i));
        if (!inserted)
            err(json_index_path(section, i) + ".id",
                "duplicate id \"" + id + "\" (first used at " +
                    json_index_path(it->second.first, it->second.second) + ")");
    };
    for (std::size_t i = 0; i < d.devices.size(); ++i)
        claim(d.devices[i].id, "devices", i);
    for (std::size_t i = 0; i < d.links.size(); ++i)
        claim(d.links[i].id, "links", i);
    for (std::size_t i = 0; i < d.workloads.size(); ++i)
        claim(d.workloads[i].id, "workloads", i);
    std::unordered_map<std::string_view, double> gpus_held; // server id -> GPUs directly in it
    for (const Device& dev : d.devices)
        if (dev.kind == DeviceKind::gpu && !dev.parent.empty())
            gpus_held[dev.parent] += static_cast<double>(dev.count);

    for (std::size_t i = 0; i < d.devices.size(); ++i) {
        const Device& dev = d.devices[i];
        const std::string p = json_index_path("devices", i);
        if (dev.count < 1 || dev.count > kMaxCount)
            err(p + ".count", "must be between 1 and " + std::to_string(kMaxCount));
        if (!dev.parent.empty()) {
            const Device* parent = idx.device(dev.parent);
            if (!parent)
                err(p + ".parent", "unknown device \"" + dev.parent + "\"");
            else if (parent->kind != DeviceKind::group && parent->kind != DeviceKind::server &&
                     parent->kind != DeviceKind::system)
                err(p + ".parent", "\"" + dev.parent + "\" is a " +
                                       std::string(device_kind_name(parent->kind)) +
                                       "; only groups, servers and systems contain devices");
            // Containment cycle; replicas multiply down the chain, and past 10^9 they would
            // saturate unseen (multiplicity()). Both from the index: linear in the chain.
            if (idx.in_cycle(dev))
                err(p + ".parent", "containment cycle through \"" + dev.id + "\"");
            else if (idx.multiplicity(dev) > static_cast<double>(kMaxCount))
                err(p + ".count", "its count times the counts of the groups that contain it is "
                                  "more than " +
                                      std::to_string(kMaxCount) +
                                      " replicas; reduce a count along the chain");
        }
        // A server's GPU slots hold at most that many GPUs.
        if (dev.kind == DeviceKind::server && dev.gpu_slots > 0) {
            const auto it = gpus_held.find(dev.id);
            const double held = it == gpus_held.end() ? 0.0 : it->second;
            if (held > dev.gpu_slots)
                err(p + ".gpu_slots", "\"" + dev.id + "\" has " + std::to_string(dev.gpu_slots) +
                                          " GPU slots but holds " +
                                          std::to_string(static_cast<long long>(held)) + " GPUs");
        }
        if (catalog && !dev.catalog.empty()) {
            bool known = true;
            CatalogKind kind = CatalogKind::gpus;
            switch (dev.kind) {
            case DeviceKind::gpu:
                known = catalog->gpu(dev.catalog);
                kind = CatalogKind::gpus;
                break;
            case DeviceKind::system:
                known = catalog->system(dev.catalog);
                kind = CatalogKind::systems;
                break;
            case DeviceKind::switch_:
                known = catalog->switch_spec(dev.catalog);
                kind = CatalogKind::switches;
                break;
            case DeviceKind::nic:
                known = catalog->nic(dev.catalog);
                kind = CatalogKind::nics;
                break;
            default:
                break;
            }
            if (!known) {
                std::string msg = "unknown " + std::string(catalog_kind_name(kind)) + " id \"" +
                                  dev.catalog + "\"";
                if (auto s = catalog->closest_id(kind, dev.catalog); !s.empty())
                    msg += " (did you mean \"" + s + "\"?)";
                err(p + ".catalog", msg);
            }
        }
        if ((dev.kind == DeviceKind::gpu || dev.kind == DeviceKind::system ||
             dev.kind == DeviceKind::switch_) &&
            dev.catalog.empty())
            err(p + ".catalog",
                "a " + std::string(device_kind_name(dev.kind)) + " needs a catalog id");
    }
    for (std::size_t i = 0; i < d.links.size(); ++i) {
        const Link& l = d.links[i];
        const std::string p = json_index_path("links", i);
        if (!idx.device(l.from))
            err(p + ".from", "unknown device \"" + l.from + "\"");
        if (!idx.device(l.to))
            err(p + ".to", "unknown device \"" + l.to + "\"");
        if (l.from == l.to && !l.from.empty() && idx.device(l.from) &&
            idx.device(l.from)->count < 2)
            err(p + ".to", "a link cannot connect a single device to itself");
        if (l.count < 1 || l.count > kMaxCount)
            err(p + ".count", "must be between 1 and " + std::to_string(kMaxCount));
        if (catalog && !catalog->link(l.type)) {
            std::string msg = "unknown link type \"" + l.type + "\"";
            if (auto s = catalog->closest_id(CatalogKind::links, l.type); !s.empty())
                msg += " (did you mean \"" + s + "\"?)";
            err(p + ".type", msg);
        }
    }
    for (std::size_t i = 0; i < d.workloads.size(); ++i) {
        const Workload& w = d.workloads[i];
        const std::string p = json_index_path("workloads", i);
        for (std::size_t k = 0; k < w.placement.size(); ++k)
            if (!idx.device(w.placement[k]))
                err(json_index_path(p + ".placement", k),
                    "unknown device \"" + w.placement[k] + "\"");
        if (catalog && !find_model(d, *catalog, w.model)) {
            std::string msg = "unknown model \"" + w.model + "\"";
            if (auto s = catalog->closest_id(CatalogKind::models, w.model); !s.empty())
                msg += " (did you mean \"" + s + "\"?)";
            err(p + ".model", msg);
        }
        const auto& draft = w.inference.speculative_draft;
        if (catalog && w.kind == WorkloadKind::inference && !draft.empty() &&
            !find_model(d, *catalog, draft))
            err(p + ".inference.speculative_draft", "unknown model \"" + draft + "\"");
    }
    if (catalog && !d.economics.cloud_offer.empty() && !catalog->cloud(d.economics.cloud_offer))
        err("economics.cloud_offer", "unknown cloud offer \"" + d.economics.cloud_offer + "\"");
    return errors;
}

const ModelArch* find_model(const Design& d, const Catalog& catalog, std::string_view id) {
    for (const auto& m : d.models)
        if (m.id == id)
            return &m;
    return catalog.model(id);
}

namespace {
/// Entities a file gives no position (generated or hand-written designs) would all sit at
/// (0, 0), thousands of cards on one spot. They are laid out on a grid below what is placed:
/// each parent's members in one block (so group frames stay apart), blocks stacked top-down in
/// order of first appearance, workloads in a column to the right. Positions are layout only;
/// they are written on the next save.
void place_unplaced(Design& d, const std::vector<std::size_t>& devs,
                    const std::vector<std::size_t>& wls) {
    if (devs.empty() && wls.empty())
        return;
    constexpr double kCellW = 220, kCellH = 110, kBlockGap = 80, kCardW = 180, kCardH = 70;
    std::vector<char> unplaced(d.devices.size(), 0);
    for (std::size_t i : devs)
        unplaced[i] = 1;
    bool any = false;
    double minx = 0, maxx = 0, maxy = 0;
    auto extend = [&](const Point& p, double w, double h) {
        if (!any) {
            minx = p.x;
            maxx = p.x + w;
            maxy = p.y + h;
            any = true;
            return;
        }
        minx = std::min(minx, p.x);
        maxx = std::max(maxx, p.x + w);
        maxy = std::max(maxy, p.y + h);
    };
    for (std::size_t i = 0; i < d.devices.size(); ++i)
        if (!unplaced[i])
            extend(d.devices[i].position, kCardW, kCardH);
    std::vector<char> wunplaced(d.workloads.size(), 0);
    for (std::size_t i : wls)
        wunplaced[i] = 1;
    for (std::size_t i = 0; i < d.workloads.size(); ++i)
        if (!wunplaced[i])
            extend(d.workloads[i].position, 240, 124);
    const double x0 = any ? minx : 0;
    double y = any ? maxy + kBlockGap + kCellH : 0;
    // Blocks by parent, in order of first appearance.
    std::unordered_map<std::string_view, std::size_t> block_of;
    std::vector<std::vector<std::size_t>> blocks;
    for (std::size_t i : devs) {
        const auto [it, fresh] = block_of.try_emplace(d.devices[i].parent, blocks.size());
        if (fresh)
            blocks.emplace_back();
        blocks[it->second].push_back(i);
    }
    for (const auto& b : blocks) {
        // About as wide as tall on a 16:10 screen.
        const auto cols = static_cast<std::size_t>(std::max(
            1.0, std::ceil(std::sqrt(static_cast<double>(b.size()) * 1.6 * kCellH / kCellW))));
        for (std::size_t k = 0; k < b.size(); ++k) {
            Point& p = d.devices[b[k]].position;
            p.x = x0 + static_cast<double>(k % cols) * kCellW;
            p.y = y + static_cast<double>(k / cols) * kCellH;
            maxx = std::max(maxx, p.x + kCardW);
        }
        y += static_cast<double>((b.size() + cols - 1) / cols) * kCellH + kBlockGap;
    }
    double wy = 0;
    for (std::size_t k = 0; k < wls.size(); ++k) {
        Point& p = d.workloads[wls[k]].position;
        p.x = maxx + kBlockGap;
        p.y = wy;
        wy += 150;
    }
}
/// How a file's entities are read: its version (how unset values are spelled) and whether
/// unknown keys are errors (files of this version or older) or kept (newer minors).
struct EntityReading {
    int version_major = kDesignMajor, version_minor = kDesignMinor;
    bool strict = true;
    std::string keep_extras(const json& j, const std::vector<std::string>& known,
                            const std::string& p, JsonReader& r) const {
        if (strict)
            check_unknown_keys(j, known, p, r);
        return extras(j, known);
    }
    /// A scratch design holding one entity, for the schema's setters.
    Design scratch() const {
        Design one;
        one.version_major = version_major;
        one.version_minor = version_minor;
        return one;
    }
};

/// An entity's "id" (required), at most kMaxIdBytes long.
std::string read_id(const json& j, const std::string& p, JsonReader& r) {
    std::string id = r.string(j, p, "id").value_or("");
    if (id.size() > kMaxIdBytes) {
        r.error(p + ".id", "longer than " + std::to_string(kMaxIdBytes) + " bytes (found " +
                               units::format_bytes(static_cast<double>(id.size())) +
                               "); ids name entities in links and placements, long text "
                               "belongs in a name or the description");
        id.clear();
    }
    return id;
}

/// An optional "name", at most kMaxNameBytes long.
std::string read_name(const json& j, const std::string& p, JsonReader& r) {
    std::string name = r.string(j, p, "name", false).value_or("");
    if (static_cast<double>(name.size()) > kMaxNameBytes) {
        r.error(json_member_path(p, "name"),
                "longer than " + units::format_count(kMaxNameBytes) + " bytes (found " +
                    units::format_bytes(static_cast<double>(name.size())) +
                    "); long text belongs in the description");
        name.clear();
    }
    return name;
}

/// devices[i]; appended to `out` (its index to `unplaced` when the file gives no position).
void read_device(const json& j, std::size_t i, JsonReader& r, const EntityReading& how,
                 std::vector<Device>& out, std::vector<std::size_t>& unplaced) {
    const std::string p = json_index_path("devices", i);
    if (!r.expect_object(j, p))
        return;
    Device dev;
    dev.id = read_id(j, p, r);
    if (auto k = r.string(j, p, "kind")) {
        auto it = std::find(kKindNames.begin(), kKindNames.end(), *k);
        if (it == kKindNames.end())
            r.error(p + ".kind", "expected gpu, system, server, switch, nic, storage or "
                                 "group; found \"" +
                                     *k + "\"");
        else
            dev.kind = static_cast<DeviceKind>(it - kKindNames.begin());
    }
    // The schema's device fields (name, count, catalog, role, slots, storage), read through a
    // scratch design holding only this entry (ids may repeat until validation reports it);
    // then the structural ones.
    Design one = how.scratch();
    one.devices.push_back(std::move(dev));
    auto known = read_section(Section::device, j, p, r, one, one.devices[0].id);
    dev = std::move(one.devices[0]);
    dev.parent = r.string(j, p, "parent", false).value_or("");
    dev.position = read_point(j, p, r);
    if (!j.contains("position"))
        unplaced.push_back(out.size());
    known.insert(known.end(), {"id", "kind", "parent", "position"});
    dev.extra_json = how.keep_extras(j, known, p, r);
    out.push_back(std::move(dev));
}

/// links[i], appended to `out`.
void read_link(const json& j, std::size_t i, JsonReader& r, const EntityReading& how,
               std::vector<Link>& out) {
    const std::string p = json_index_path("links", i);
    if (!r.expect_object(j, p))
        return;
    Link l;
    l.id = read_id(j, p, r);
    l.from = r.string(j, p, "from").value_or("");
    l.to = r.string(j, p, "to").value_or("");
    // The schema's link fields (type, count); the type is required.
    Design one = how.scratch();
    one.links.push_back(std::move(l));
    auto known = read_section(Section::link, j, p, r, one, one.links[0].id, {"type"});
    l = std::move(one.links[0]);
    known.insert(known.end(), {"id", "from", "to"});
    l.extra_json = how.keep_extras(j, known, p, r);
    out.push_back(std::move(l));
}

/// "MAJOR.MINOR", each 1-6 decimal digits: no sign, no suffix, no overflow (sscanf("%d") read
/// "4294967297.0" as 1.0 and accepted "1.0-evil.9", "+1.+1"); nullopt otherwise.
std::optional<std::pair<int, int>> parse_version(std::string_view vs) {
    const auto number = [](std::string_view t) {
        int v = 0;
        if (t.empty() || t.size() > 6)
            return -1;
        for (char ch : t) {
            if (ch < '0' || ch > '9')
                return -1;
            v = v * 10 + (ch - '0');
        }
        return v;
    };
    const auto dotAt = vs.find('.');
    const int major = dotAt == std::string_view::npos ? -1 : number(vs.substr(0, dotAt));
    const int minor = dotAt == std::string_view::npos ? -1 : number(vs.substr(dotAt + 1));
    if (major < 0 || minor < 0)
        return std::nullopt;
    return std::pair{major, minor};
}

bool strict_for(int major, int minor) {
    return major < kDesignMajor || (major == kDesignMajor && minor <= kDesignMinor);
}
} // namespace

Result<Design> design_from_json(std::string_view text, std::string_view name,
                                const Catalog* catalog) {
    // With a readable format and version (a cheap first scan: our files write them first),
    // devices and links are converted while the text is parsed and their JSON is dropped
    // element by element (issue 17 item 8); otherwise the whole document is read first and
    // the checks below report what is wrong with the header.
    EntityReading how;
    bool streaming = false;
    {
        const auto [fmt, ver] = scan_header(text, "format", "version");
        if (fmt && *fmt == kDesignFormat && ver)
            if (const auto v = parse_version(*ver); v && v->first <= kDesignMajor) {
                how.version_major = v->first;
                how.version_minor = v->second;
                how.strict = strict_for(v->first, v->second);
                streaming = true;
            }
    }
    std::vector<Error> device_errors, link_errors;
    JsonReader device_reader(device_errors, /*null_is_error=*/true);
    JsonReader link_reader(link_errors, /*null_is_error=*/true);
    std::vector<Device> streamed_devices;
    std::vector<Link> streamed_links;
    if (streaming) {
        // Capacity hints: every device has a "kind" and every link a "from" key, so their
        // counts in the text bound the arrays (a key written with escapes only makes the hint
        // low). Growing 100,000 elements by doubling moved each about twice: 20% of a load.
        const auto count = [text](std::string_view key) {
            std::size_t n = 0;
            for (auto at = text.find(key); at != std::string_view::npos;
                 at = text.find(key, at + key.size()))
                ++n;
            return n;
        };
        streamed_devices.reserve(count("\"kind\""));
        streamed_links.reserve(count("\"from\""));
    }
    std::vector<std::size_t> unplaced_devices, unplaced_workloads; // no "position" in the file
    const ElementSink sink = [&](std::string_view array, std::size_t i, const json& j) {
        if (array == "devices")
            read_device(j, i, device_reader, how, streamed_devices, unplaced_devices);
        else
            read_link(j, i, link_reader, how, streamed_links);
    };
    static const std::vector<std::string_view> kStreamed{"devices", "links"};
    auto parsed =
        streaming ? parse_json_streaming(text, name, {}, kStreamed, sink) : parse_json(text, name);
    if (!parsed)
        return parsed.errors();
    const json& root = *parsed;
    std::vector<Error> errors;
    JsonReader r(errors, /*null_is_error=*/true);
    if (!r.expect_object(root, ""))
        return errors;
    Design d;
    // A JSON document with neither key is not a design at all: say so once, with the file's
    // name, rather than listing two missing keys (helper-20, session 31).
    if (!root.contains("format") && !root.contains("version"))
        return Error{"format", std::string(name.empty() ? "this file" : name) +
                                   " is not a ClusterLens design file (it has no \"format\": \"" +
                                   std::string(kDesignFormat) + "\" and no \"version\")"};
    const auto format = r.string(root, "", "format");
    if (format && *format != kDesignFormat)
        r.error("format",
                "expected \"" + std::string(kDesignFormat) + "\", found \"" + *format + "\"");
    const auto version = r.string(root, "", "version");
    if (version) {
        if (const auto v = parse_version(*version); !v)
            r.error("version", "expected \"MAJOR.MINOR\", found \"" + *version + "\"");
        else if (v->first > kDesignMajor)
            r.error("version", "this design is format version " + *version +
                                   ", newer than this ClusterLens reads (" +
                                   std::to_string(kDesignMajor) + ".x); please update ClusterLens");
        else {
            d.version_major = v->first;
            d.version_minor = v->second;
        }
    }
    if (!errors.empty())
        return errors; // without a readable format/version nothing else is trustworthy
    const bool strict = strict_for(d.version_major, d.version_minor);
    how.version_major = d.version_major;
    how.version_minor = d.version_minor;
    how.strict = strict;
    auto keep_extras = [&](const json& j, const std::vector<std::string>& known,
                           const std::string& p) { return how.keep_extras(j, known, p, r); };
    d.name = read_name(root, "", r);
    d.description = r.string(root, "", "description", false).value_or("");

    if (const json* devs = r.member(root, "", "devices", false);
        devs && r.expect_array(*devs, "devices")) {
        if (streaming) { // converted while parsing
            d.devices = std::move(streamed_devices);
            errors.insert(errors.end(), device_errors.begin(), device_errors.end());
        } else {
            d.devices.reserve(devs->size());
            for (std::size_t i = 0; i < devs->size(); ++i)
                read_device((*devs)[i], i, r, how, d.devices, unplaced_devices);
        }
    }
    if (const json* links = r.member(root, "", "links", false);
        links && r.expect_array(*links, "links")) {
        if (streaming) {
            d.links = std::move(streamed_links);
            errors.insert(errors.end(), link_errors.begin(), link_errors.end());
        } else {
            d.links.reserve(links->size());
            for (std::size_t i = 0; i < links->size(); ++i)
                read_link((*links)[i], i, r, how, d.links);
        }
    }
    if (const json* wls = r.member(root, "", "workloads", false);
        wls && r.expect_array(*wls, "workloads")) {
        for (std::size_t i = 0; i < wls->size(); ++i) {
            const json& j = (*wls)[i];
            const std::string p = json_index_path("workloads", i);
            if (!r.expect_object(j, p))
                continue;
            Workload w;
            w.id = read_id(j, p, r);
            w.name = read_name(j, p, r);
            if (auto k = r.string(j, p, "kind")) {
                if (*k == "training")
                    w.kind = WorkloadKind::training;
                else if (*k == "inference")
                    w.kind = WorkloadKind::inference;
                else
                    r.error(p + ".kind",
                            "expected \"training\" or \"inference\", found \"" + *k + "\"");
            }
            w.model = r.string(j, p, "model").value_or("");
            if (const json* pl = r.member(j, p, "placement", false);
                pl && r.expect_array(*pl, p + ".placement")) {
                for (std::size_t k = 0; k < pl->size(); ++k) {
                    if ((*pl)[k].is_string())
                        w.placement.push_back((*pl)[k].get<std::string>());
                    else
                        r.error(json_index_path(p + ".placement", k),
                                "expected a device id string, found " + json_type_name((*pl)[k]));
                }
            }
            // A block of the other kind would be dropped on save (only the workload's own
            // kind is written): refuse it rather than lose it.
            const json* tb = r.member(j, p, "training", false);
            const json* ib = r.member(j, p, "inference", false);
            if (tb && w.kind == WorkloadKind::inference)
                r.error(p + ".training", "an inference workload has no training settings (it "
                                         "would be dropped on save): remove the block or make "
                                         "the workload \"kind\": \"training\"");
            if (ib && w.kind == WorkloadKind::training)
                r.error(p + ".inference", "a training workload has no inference settings (it "
                                          "would be dropped on save): remove the block or make "
                                          "the workload \"kind\": \"inference\"");
            if (tb)
                w.training = read_settings<TrainingSpec>(*tb, p + ".training", r,
                                                         WorkloadKind::training, strict, d);
            if (ib)
                w.inference = read_settings<InferenceSpec>(*ib, p + ".inference", r,
                                                           WorkloadKind::inference, strict, d);
            w.position = read_point(j, p, r);
            if (!j.contains("position"))
                unplaced_workloads.push_back(d.workloads.size());
            w.extra_json = keep_extras(
                j,
                {"id", "name", "kind", "model", "placement", "training", "inference", "position"},
                p);
            d.workloads.push_back(std::move(w));
        }
    }
    if (const json* e = r.member(root, "", "economics", false);
        e && r.expect_object(*e, "economics"))
        d.economics.extra_json = keep_extras(
            *e, read_section(Section::economics, *e, "economics", r, d, ""), "economics");
    if (const json* e = r.member(root, "", "reliability", false);
        e && r.expect_object(*e, "reliability"))
        d.reliability.extra_json = keep_extras(
            *e, read_section(Section::reliability, *e, "reliability", r, d, ""), "reliability");
    if (const json* e = r.member(root, "", "fleet", false); e && r.expect_object(*e, "fleet")) {
        auto known = read_section(Section::fleet, *e, "fleet", r, d, "");
        if (const json* tj = r.member(*e, "fleet", "trace", false);
            tj && r.expect_object(*tj, "fleet.trace"))
            read_fleet_trace(*tj, r, d.fleet.trace);
        known.emplace_back("trace");
        d.fleet.extra_json = keep_extras(*e, known, "fleet");
    }
    if (const json* e = r.member(root, "", "assumptions", false);
        e && r.expect_object(*e, "assumptions"))
        keep_extras(*e, read_section(Section::assumptions, *e, "assumptions", r, d, ""),
                    "assumptions");
    if (const json* cal = r.member(root, "", "calibration", false);
        cal && r.expect_array(*cal, "calibration")) {
        for (std::size_t i = 0; i < cal->size(); ++i) {
            const json& j = (*cal)[i];
            const std::string p = json_index_path("calibration", i);
            if (!r.expect_object(j, p))
                continue;
            FabricCalibration fc;
            keep_extras(j,
                        {"tier", "alpha_s", "beta_Bps", "source", "error_before", "error_after",
                         "segments", "op", "ranks", "oversubscription", "points"},
                        p);
            read_int(j, p, r, "tier", fc.tier, 0, 3);
            read_double(j, p, r, "alpha_s", fc.alpha_s, 0, 1.0);
            read_double(j, p, r, "beta_Bps", fc.beta_Bps, 0, kMaxQuantity);
            fc.source = r.string(j, p, "source", false).value_or("");
            read_double(j, p, r, "error_before", fc.error_before, 0, 1e6);
            read_double(j, p, r, "error_after", fc.error_after, 0, 1e6);
            fc.op = r.string(j, p, "op", false).value_or("");
            read_int(j, p, r, "ranks", fc.ranks, 0, 1 << 24);
            read_double(j, p, r, "oversubscription", fc.oversubscription, 1, 1000);
            if (const json* segs = r.member(j, p, "segments", false);
                segs && r.expect_array(*segs, p + ".segments")) {
                for (std::size_t k = 0; k < segs->size() && k < 16; ++k) {
                    const json& sj = (*segs)[k];
                    const std::string sp = json_index_path(p + ".segments", k);
                    if (!r.expect_object(sj, sp))
                        continue;
                    keep_extras(sj,
                                {"min_bytes", "max_bytes", "alpha_scale", "beta_scale", "algorithm",
                                 "protocol", "alpha_s", "beta_Bps"},
                                sp);
                    FabricCalibrationSegment s;
                    read_double(sj, sp, r, "min_bytes", s.min_bytes, 0, 1e15);
                    read_double(sj, sp, r, "max_bytes", s.max_bytes, 0, 1e15);
                    read_double(sj, sp, r, "alpha_scale", s.alpha_scale, 1e-3, 1e3);
                    read_double(sj, sp, r, "beta_scale", s.beta_scale, 1e-3, 1e3);
                    s.algorithm = r.string(sj, sp, "algorithm", false).value_or("");
                    s.protocol = r.string(sj, sp, "protocol", false).value_or("");
                    read_double(sj, sp, r, "alpha_s", s.alpha_s, 0, 1e3);
                    read_double(sj, sp, r, "beta_Bps", s.beta_Bps, 0, kMaxQuantity);
                    fc.segments.push_back(std::move(s));
                }
            }
            if (const json* pts = r.member(j, p, "points", false);
                pts && r.expect_array(*pts, p + ".points")) {
                for (std::size_t k = 0; k < pts->size() && k < 4096; ++k) {
                    const json& q = (*pts)[k];
                    if (q.is_array() && q.size() == 2 && q[0].is_number() && q[1].is_number() &&
                        std::isfinite(q[0].get<double>()) && std::isfinite(q[1].get<double>()) &&
                        q[0].get<double>() > 0 && q[1].get<double>() > 0)
                        fc.points.push_back({q[0].get<double>(), q[1].get<double>()});
                    else
                        r.error(json_index_path(p + ".points", k),
                                "expected [bytes, seconds] with both positive");
                }
            }
            d.calibration.push_back(fc);
        }
    }
    if (const json* ms = r.member(root, "", "models", false); ms && r.expect_array(*ms, "models")) {
        for (std::size_t i = 0; i < ms->size(); ++i) {
            const std::string p = json_index_path("models", i);
            ModelArch m;
            if (!read_model_arch((*ms)[i], p, r, m))
                continue;
            m.provenance.user = true; // the design's own, as imported
            bool dup = false;
            for (const auto& o : d.models)
                dup = dup || o.id == m.id;
            if (dup)
                r.error(p + ".id", "a second model with id \"" + m.id + "\"");
            else
                d.models.push_back(std::move(m));
        }
    }
    d.extra_json =
        keep_extras(root,
                    {"format", "version", "name", "description", "devices", "links", "workloads",
                     "economics", "reliability", "fleet", "calibration", "assumptions", "models"},
                    "");
    if (!errors.empty())
        return errors;
    auto v = validate_design(d, catalog);
    if (!v.empty())
        return v;
    place_unplaced(d, unplaced_devices, unplaced_workloads);
    // Migration: 1.0 is the first format; older minors of major 1 need no changes yet.
    // Saving writes the current version (kDesignMajor.kDesignMinor) unless the file was a
    // newer minor, whose number is kept so its unknown fields stay meaningful.
    if (d.version_minor < kDesignMinor)
        d.version_minor = kDesignMinor;
    return d;
}

std::string design_to_json(const Design& d) {
    json root;
    root["format"] = kDesignFormat;
    root["version"] = std::to_string(d.version_major) + "." + std::to_string(d.version_minor);
    root["name"] = d.name;
    root["description"] = d.description;
    json devs = json::array();
    for (const auto& dev : d.devices) {
        json j{{"id", dev.id}, {"kind", device_kind_name(dev.kind)}};
        if (!dev.parent.empty())
            j["parent"] = dev.parent;
        Design one; // this entry alone: ids may repeat in a design that is being edited
        one.devices.push_back(dev);
        write_entity_fields(j, Section::device, one, dev.id, {"count"});
        j["position"] = {dev.position.x, dev.position.y};
        merge_extras(j, dev.extra_json);
        devs.push_back(std::move(j));
    }
    root["devices"] = std::move(devs);
    json links = json::array();
    for (const auto& l : d.links) {
        json j{{"id", l.id}, {"from", l.from}, {"to", l.to}};
        Design one;
        one.links.push_back(l);
        write_entity_fields(j, Section::link, one, l.id, {"type", "count"});
        merge_extras(j, l.extra_json);
        links.push_back(std::move(j));
    }
    root["links"] = std::move(links);
    json wls = json::array();
    for (const auto& w : d.workloads) {
        json j{{"id", w.id},
               {"kind", w.kind == WorkloadKind::training ? "training" : "inference"},
               {"model", w.model}};
        if (!w.name.empty())
            j["name"] = w.name;
        j["placement"] = w.placement;
        if (w.kind == WorkloadKind::training) {
            j["training"] = write_section(Section::training, d, w.id);
            merge_extras(j["training"], w.training.extra_json);
        } else {
            j["inference"] = write_section(Section::inference, d, w.id);
            merge_extras(j["inference"], w.inference.extra_json);
        }
        j["position"] = {w.position.x, w.position.y};
        merge_extras(j, w.extra_json);
        wls.push_back(std::move(j));
    }
    root["workloads"] = std::move(wls);
    json ec = write_section(Section::economics, d, "");
    merge_extras(ec, d.economics.extra_json);
    root["economics"] = std::move(ec);
    json rj = write_section(Section::reliability, d, "");
    merge_extras(rj, d.reliability.extra_json);
    root["reliability"] = std::move(rj);
    if (!(d.fleet == FleetMix{})) { // the job mix (issue 23), when the design has one
        json fj = write_section(Section::fleet, d, "");
        if (d.fleet.trace.jobs)
            fj["trace"] = write_fleet_trace(d.fleet.trace);
        merge_extras(fj, d.fleet.extra_json);
        root["fleet"] = std::move(fj);
    }
    if (json aj = write_section(Section::assumptions, d, ""); !aj.empty())
        root["assumptions"] = std::move(aj);
    if (!d.calibration.empty()) {
        json cal = json::array();
        for (const auto& c : d.calibration) {
            json cj = {{"tier", c.tier},
                       {"alpha_s", c.alpha_s},
                       {"beta_Bps", c.beta_Bps},
                       {"source", c.source},
                       {"error_before", c.error_before},
                       {"error_after", c.error_after}};
            if (!c.segments.empty()) {
                json segs = json::array();
                for (const auto& s : c.segments)
                    segs.push_back({{"min_bytes", s.min_bytes},
                                    {"max_bytes", s.max_bytes},
                                    {"alpha_scale", s.alpha_scale},
                                    {"beta_scale", s.beta_scale},
                                    {"algorithm", s.algorithm},
                                    {"protocol", s.protocol},
                                    {"alpha_s", s.alpha_s},
                                    {"beta_Bps", s.beta_Bps}});
                cj["segments"] = std::move(segs);
                cj["op"] = c.op;
                cj["ranks"] = c.ranks;
                cj["oversubscription"] = c.oversubscription;
                json pts = json::array();
                for (const auto& q : c.points)
                    pts.push_back({q[0], q[1]});
                cj["points"] = std::move(pts);
            }
            cal.push_back(std::move(cj));
        }
        root["calibration"] = std::move(cal);
    }
    if (!d.models.empty()) {
        json ms = json::array();
        for (const auto& m : d.models)
            ms.push_back(json::parse(model_arch_to_json(m)));
        root["models"] = std::move(ms);
    }
    merge_extras(root, d.extra_json);
    return root.dump(2) + "\n";
}

} // namespace cl::model
