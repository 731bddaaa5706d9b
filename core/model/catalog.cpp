#include "model/catalog.h"

#include "model/bundled.h"
#include "model/json_read.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

namespace cl::model {

namespace {
constexpr std::array<std::string_view, kDtypeCount> kDtypeNames = {"fp64", "fp32", "tf32", "bf16",
                                                                   "fp16", "fp8",  "int8", "fp4"};
constexpr std::array<std::string_view, 7> kKindNames = {"gpus",    "links", "nics",  "switches",
                                                        "systems", "cloud", "models"};
} // namespace

std::string_view dtype_name(Dtype d) {
    return kDtypeNames[static_cast<std::size_t>(d)];
}

double dtype_bytes(Dtype d) {
    switch (d) {
    case Dtype::fp64:
        return 8;
    case Dtype::fp32:
    case Dtype::tf32:
        return 4;
    case Dtype::bf16:
    case Dtype::fp16:
        return 2;
    case Dtype::fp8:
    case Dtype::int8:
        return 1;
    case Dtype::fp4:
        return 0.5;
    }
    return 2;
}

std::optional<Dtype> dtype_from_name(std::string_view name) {
    for (std::size_t i = 0; i < kDtypeNames.size(); ++i)
        if (kDtypeNames[i] == name)
            return static_cast<Dtype>(i);
    return std::nullopt;
}

std::string_view catalog_kind_name(CatalogKind k) {
    return kKindNames[static_cast<std::size_t>(k)];
}

std::optional<CatalogKind> catalog_kind_from_name(std::string_view name) {
    for (std::size_t i = 0; i < kKindNames.size(); ++i)
        if (kKindNames[i] == name)
            return static_cast<CatalogKind>(i);
    return std::nullopt;
}

namespace {

void read_prov(const nlohmann::json& j, const std::string& path, JsonReader& r, Provenance& p,
               bool user) {
    if (auto it = j.find("source"); it != j.end()) {
        if (it->is_string())
            p.source = {it->get<std::string>()};
        else if (it->is_array()) {
            for (const auto& s : *it)
                if (s.is_string())
                    p.source.push_back(s.get<std::string>());
        }
    }
    if (p.source.empty() && !user)
        r.error(json_member_path(path, "source"), "missing: every bundled entry names a source");
    p.as_of = r.string(j, path, "as_of", false).value_or("");
    if (p.as_of.empty())
        p.as_of = r.string(j, path, "price_as_of", false).value_or("");
    p.confidence = r.string(j, path, "confidence", false).value_or(user ? "user" : "sourced");
    if (auto it = j.find("notes"); it != j.end() && it->is_array())
        for (const auto& s : *it)
            if (s.is_string())
                p.notes.push_back(s.get<std::string>());
    p.user = user;
}

constexpr double kMax = 1e30; // upper bound for any physical quantity in a catalog

double num(JsonReader& r, const nlohmann::json& j, const std::string& path, const char* key,
           bool required = false) {
    return r.number(j, path, key, required, 0.0, kMax).value_or(0.0);
}
int integer(JsonReader& r, const nlohmann::json& j, const std::string& path, const char* key,
            bool required = false) {
    return static_cast<int>(r.integer(j, path, key, required, 0, 1 << 24).value_or(0));
}
std::string str(JsonReader& r, const nlohmann::json& j, const std::string& path, const char* key,
                bool required = false) {
    return r.string(j, path, key, required).value_or("");
}

/// "engine_allreduce": [{"engine", "version", "gpus", "points": [[bytes, seconds], ...]}]:
/// each table's engine a serving engine that runs tensor parallelism (trtllm, vllm, sglang),
/// 2 to 1,024 GPUs, one table per engine and GPU count, at least two points with bytes
/// strictly ascending and times positive (errors name the member).
void read_engine_allreduce(const nlohmann::json& j, const std::string& p, JsonReader& r,
                           GpuSpec& g) {
    g.engine_allreduce_source = str(r, j, p, "engine_allreduce_source");
    const auto* arr = r.member(j, p, "engine_allreduce", false);
    if (!arr || !r.expect_array(*arr, p + ".engine_allreduce"))
        return;
    for (std::size_t i = 0; i < arr->size(); ++i) {
        const std::string q = json_index_path(p + ".engine_allreduce", i);
        const nlohmann::json& t = (*arr)[i];
        if (!r.expect_object(t, q))
            continue;
        EngineAllReduce a;
        const std::string engine = str(r, t, q, "engine", true);
        const auto e = choice_from_string<ServingEngine>(engine);
        if (!e || *e == ServingEngine::llamacpp || *e == ServingEngine::mlx) {
            if (!engine.empty())
                r.error(q + ".engine",
                        "expected trtllm, vllm or sglang (the engines that run tensor "
                        "parallelism), found \"" +
                            engine + "\"");
            continue;
        }
        a.engine = *e;
        a.version = str(r, t, q, "version");
        a.gpus = static_cast<int>(r.integer(t, q, "gpus", true, 2, 1024).value_or(0));
        const auto* pts = r.member(t, q, "points", true);
        bool ok = a.gpus >= 2 && pts && r.expect_array(*pts, q + ".points");
        if (ok && pts->size() < 2) {
            r.error(q + ".points", "needs at least two [bytes, seconds] points");
            ok = false;
        }
        for (std::size_t k = 0; ok && k < pts->size(); ++k) {
            const nlohmann::json& pt = (*pts)[k];
            const std::string w = json_index_path(q + ".points", k);
            if (!pt.is_array() || pt.size() != 2 || !pt[0].is_number() || !pt[1].is_number()) {
                r.error(w, "expected [bytes, seconds]");
                ok = false;
                break;
            }
            const double b = pt[0].get<double>(), sec = pt[1].get<double>();
            if (!std::isfinite(b) || b < 1 || b > 1e15) {
                r.error(w, "bytes must be a finite number from 1 to 1e15");
                ok = false;
            } else if (!std::isfinite(sec) || sec <= 0 || sec > 60) {
                r.error(w, "seconds must be a finite number above 0 and at most 60");
                ok = false;
            } else if (!a.points.empty() && b <= a.points.back().first) {
                r.error(w, "bytes must be strictly ascending");
                ok = false;
            } else {
                a.points.emplace_back(b, sec);
            }
        }
        if (!ok)
            continue;
        for (const EngineAllReduce& o : g.engine_allreduce)
            if (o.engine == a.engine && o.gpus == a.gpus) {
                r.error(q, "a second table for " + engine + " over " + std::to_string(a.gpus) +
                               " GPUs");
                ok = false;
            }
        if (ok)
            g.engine_allreduce.push_back(std::move(a));
    }
}

GpuSpec read_gpu(const nlohmann::json& j, const std::string& p, JsonReader& r, bool user) {
    GpuSpec g;
    g.id = str(r, j, p, "id", true);
    g.name = str(r, j, p, "name");
    if (g.name.empty())
        g.name = g.id;
    g.vendor = str(r, j, p, "vendor");
    g.arch = str(r, j, p, "arch");
    g.form_factor = str(r, j, p, "form_factor");
    g.memory_type = str(r, j, p, "memory_type");
    g.memory_bytes = r.number(j, p, "memory_bytes", true, 1.0, kMax).value_or(0);
    g.usable_memory_bytes = r.number(j, p, "usable_memory_bytes", false, 1.0, kMax).value_or(0);
    g.usable_memory_source = str(r, j, p, "usable_memory_source");
    if (g.usable_memory_bytes > 0 && g.memory_bytes > 0 &&
        g.usable_memory_bytes > 1.2 * g.memory_bytes) {
        r.error(p + ".usable_memory_bytes",
                "is more than 1.2 × memory_bytes: CUDA reports a little less than the label "
                "in GiB (an H100's 80 GB is 79.2 GiB)");
        g.usable_memory_bytes = 0;
    }
    g.memory_bandwidth_Bps = r.number(j, p, "memory_bandwidth_Bps", true, 1.0, kMax).value_or(0);
    if (const auto* f = r.member(j, p, "dense_flops", true);
        f && r.expect_object(*f, p + ".dense_flops")) {
        for (const auto& [k, v] : f->items()) {
            auto d = dtype_from_name(k);
            if (!d) {
                r.error(p + ".dense_flops." + k, "unknown dtype (expected fp64, fp32, tf32, bf16, "
                                                 "fp16, fp8, int8 or fp4)");
                continue;
            }
            g.dense_flops[static_cast<std::size_t>(*d)] = num(r, *f, p + ".dense_flops", k.c_str());
        }
        if (g.peak(Dtype::bf16) <= 0 && g.peak(Dtype::fp16) <= 0)
            r.error(p + ".dense_flops", "needs a bf16 or fp16 peak");
    }
    if (const auto* f = r.member(j, p, "achieved_matmul_flops", false);
        f && r.expect_object(*f, p + ".achieved_matmul_flops")) {
        for (const auto& [k, v] : f->items())
            if (auto d = dtype_from_name(k))
                g.achieved_matmul_flops[static_cast<std::size_t>(*d)] =
                    num(r, *f, p + ".achieved_matmul_flops", k.c_str());
    }
    g.attention_efficiency = r.number(j, p, "attention_efficiency", false, 0.0, 1.0).value_or(0);
    g.achieved_matmul_source = str(r, j, p, "achieved_matmul_source");
    g.attention_efficiency_source = str(r, j, p, "attention_efficiency_source");
    g.tdp_w = num(r, j, p, "tdp_w");
    g.scaleup_link = str(r, j, p, "scaleup_link");
    g.scaleup_bandwidth_unidir_Bps = num(r, j, p, "scaleup_bandwidth_unidir_Bps");
    g.pcie_link = str(r, j, p, "pcie_link");
    g.l2_bytes = num(r, j, p, "l2_bytes");
    g.sm_count = integer(r, j, p, "sm_count");
    g.reference_system = str(r, j, p, "reference_system");
    g.device_class = str(r, j, p, "device_class");
    g.unified_memory = r.boolean(j, p, "unified_memory", false).value_or(false);
    g.grace_host = r.boolean(j, p, "grace_host", false).value_or(false);
    g.host_link_Bps = num(r, j, p, "host_link_Bps");
    g.sockets = static_cast<int>(r.integer(j, p, "sockets", false, 0, 64).value_or(0));
    g.numa_nodes = static_cast<int>(r.integer(j, p, "numa_nodes", false, 1, 1024).value_or(1));
    g.decode_memory_factor = r.number(j, p, "decode_memory_factor", false, 0.05, 1.0).value_or(1);
    g.decode_memory_factor_source = str(r, j, p, "decode_memory_factor_source");
    g.fp4_weight_stream_efficiency =
        r.number(j, p, "fp4_weight_stream_efficiency", false, 0.05, 1.0).value_or(0);
    g.fp4_weight_stream_source = str(r, j, p, "fp4_weight_stream_source");
    read_engine_allreduce(j, p, r, g);
    g.memory_channels =
        static_cast<int>(r.integer(j, p, "memory_channels", false, 0, 4096).value_or(0));
    g.gpus_per_node =
        static_cast<int>(r.integer(j, p, "gpus_per_node", false, 1, 1024).value_or(8));
    g.scaleup_domain =
        static_cast<int>(r.integer(j, p, "scaleup_domain", false, 1, 1 << 20).value_or(1));
    g.default_scaleout_link = str(r, j, p, "default_scaleout_link");
    g.default_nics_per_node = integer(r, j, p, "default_nics_per_node");
    g.price_usd = num(r, j, p, "price_usd");
    read_prov(j, p, r, g.provenance, user);
    return g;
}

LinkSpec read_link(const nlohmann::json& j, const std::string& p, JsonReader& r, bool user) {
    LinkSpec l;
    l.id = str(r, j, p, "id", true);
    l.name = str(r, j, p, "name");
    if (l.name.empty())
        l.name = l.id;
    const std::string cls = str(r, j, p, "class", true);
    if (cls == "scaleup")
        l.cls = LinkClass::scaleup;
    else if (cls == "pcie")
        l.cls = LinkClass::pcie;
    else if (cls == "scaleout")
        l.cls = LinkClass::scaleout;
    else if (!cls.empty())
        r.error(p + ".class", "expected scaleup, pcie or scaleout, found \"" + cls + "\"");
    if (const std::string proto = str(r, j, p, "protocol"); !proto.empty()) {
        if (const auto e = choice_from_string<NetProtocol>(proto))
            l.protocol = *e;
        else
            r.error(p + ".protocol", "expected infiniband or ethernet, found \"" + proto + "\"");
    }
    l.bandwidth_unidir_Bps = r.number(j, p, "bandwidth_unidir_Bps", true, 1.0, kMax).value_or(0);
    l.per_gpu_unidir_Bps = num(r, j, p, "per_gpu_unidir_Bps");
    l.port_rate_bps = num(r, j, p, "port_rate_bps");
    l.latency_s = num(r, j, p, "latency_s");
    l.cable_price_usd = num(r, j, p, "cable_price_usd");
    read_prov(j, p, r, l.provenance, user);
    return l;
}

NicSpec read_nic(const nlohmann::json& j, const std::string& p, JsonReader& r, bool user) {
    NicSpec n;
    n.id = str(r, j, p, "id", true);
    n.name = str(r, j, p, "name");
    n.protocols = str(r, j, p, "protocols");
    n.port_rate_bps = r.number(j, p, "port_rate_bps", true, 1.0, kMax).value_or(0);
    read_prov(j, p, r, n.provenance, user);
    return n;
}

SwitchSpec read_switch(const nlohmann::json& j, const std::string& p, JsonReader& r, bool user) {
    SwitchSpec s;
    s.id = str(r, j, p, "id", true);
    s.name = str(r, j, p, "name");
    const std::string cls = str(r, j, p, "class", true);
    if (cls == "nvswitch")
        s.cls = SwitchClass::nvswitch;
    else if (cls == "infiniband")
        s.cls = SwitchClass::infiniband;
    else if (cls == "ethernet")
        s.cls = SwitchClass::ethernet;
    else if (!cls.empty())
        r.error(p + ".class", "expected nvswitch, infiniband or ethernet, found \"" + cls + "\"");
    s.link = str(r, j, p, "link");
    s.ports = integer(r, j, p, "ports");
    s.port_rate_bps = num(r, j, p, "port_rate_bps");
    s.price_usd = num(r, j, p, "price_usd");
    read_prov(j, p, r, s.provenance, user);
    return s;
}

SystemSpec read_system(const nlohmann::json& j, const std::string& p, JsonReader& r, bool user) {
    SystemSpec s;
    s.id = str(r, j, p, "id", true);
    s.name = str(r, j, p, "name");
    s.gpu = str(r, j, p, "gpu");
    s.gpus = static_cast<int>(r.integer(j, p, "gpus", true, 1, 4096).value_or(0));
    s.nvswitch = str(r, j, p, "nvswitch");
    s.nvswitch_count = integer(r, j, p, "nvswitch_count");
    s.scaleup_link = str(r, j, p, "scaleup_link");
    s.nic = str(r, j, p, "nic");
    s.scaleout_link = str(r, j, p, "scaleout_link");
    s.nics = integer(r, j, p, "nics");
    s.power_w = num(r, j, p, "power_w");
    s.rack_units = integer(r, j, p, "rack_units");
    s.price_usd = num(r, j, p, "price_usd");
    read_prov(j, p, r, s.provenance, user);
    return s;
}

CloudOffer read_cloud(const nlohmann::json& j, const std::string& p, JsonReader& r, bool user) {
    CloudOffer c;
    c.id = str(r, j, p, "id", true);
    c.provider = str(r, j, p, "provider");
    c.instance = str(r, j, p, "instance");
    c.gpu = str(r, j, p, "gpu");
    c.region = str(r, j, p, "region");
    c.gpus = static_cast<int>(r.integer(j, p, "gpus", true, 1, 4096).value_or(0));
    c.on_demand_usd_per_hour =
        r.number(j, p, "on_demand_usd_per_hour", true, 0.0, kMax).value_or(0);
    c.commit_1y_usd_per_hour = num(r, j, p, "commit_1y_usd_per_hour");
    c.commit_3y_usd_per_hour = num(r, j, p, "commit_3y_usd_per_hour");
    c.spot_usd_per_hour = num(r, j, p, "spot_usd_per_hour");
    c.price_as_of = str(r, j, p, "price_as_of");
    read_prov(j, p, r, c.provenance, user);
    return c;
}

template <class T> void upsert(std::vector<T>& v, T item) {
    auto it = std::find_if(v.begin(), v.end(), [&](const T& x) { return x.id == item.id; });
    if (it != v.end())
        *it = std::move(item);
    else
        v.push_back(std::move(item));
}

template <class T> const T* find_id(const std::vector<T>& v, std::string_view id) {
    for (const auto& x : v)
        if (x.id == id)
            return &x;
    return nullptr;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

} // namespace

std::vector<Error> Catalog::merge(std::string_view text, std::string_view origin, bool user) {
    auto parsed = parse_json(text, origin);
    if (!parsed)
        return parsed.errors();
    const nlohmann::json& root = *parsed;
    std::vector<Error> errors;
    JsonReader r(errors);
    if (!r.expect_object(root, origin))
        return errors;
    Catalog next = *this;
    auto each = [&](const char* key, auto&& fn) {
        auto it = root.find(key);
        if (it == root.end())
            return;
        const std::string path = std::string(key);
        if (!r.expect_array(*it, path))
            return;
        std::set<std::string> seen;
        for (std::size_t i = 0; i < it->size(); ++i) {
            const auto& e = (*it)[i];
            const std::string p = json_index_path(path, i);
            if (!r.expect_object(e, p))
                continue;
            const auto before = errors.size();
            auto item = fn(e, p);
            if (errors.size() != before)
                continue;
            if (!seen.insert(item.id).second) {
                r.error(p + ".id", "duplicate id \"" + item.id + "\"");
                continue;
            }
            item.raw_json = e.dump();
            return_item(next, std::move(item));
        }
    };
    each("gpus", [&](const auto& e, const auto& p) { return read_gpu(e, p, r, user); });
    each("links", [&](const auto& e, const auto& p) { return read_link(e, p, r, user); });
    each("nics", [&](const auto& e, const auto& p) { return read_nic(e, p, r, user); });
    each("switches", [&](const auto& e, const auto& p) { return read_switch(e, p, r, user); });
    each("systems", [&](const auto& e, const auto& p) { return read_system(e, p, r, user); });
    each("cloud", [&](const auto& e, const auto& p) { return read_cloud(e, p, r, user); });
    each("models", [&](const auto& e, const auto& p) {
        ModelArch m;
        read_model_arch(e, p, r, m);
        m.provenance.user = user;
        return m;
    });
    if (!errors.empty()) {
        for (auto& e : errors)
            if (e.where.rfind(std::string(origin), 0) != 0)
                e.where = std::string(origin) + ": " + e.where;
        return errors;
    }
    *this = std::move(next);
    return {};
}

void Catalog::return_item(Catalog& c, GpuSpec g) {
    upsert(c.gpus_, std::move(g));
}
void Catalog::return_item(Catalog& c, LinkSpec l) {
    upsert(c.links_, std::move(l));
}
void Catalog::return_item(Catalog& c, NicSpec n) {
    upsert(c.nics_, std::move(n));
}
void Catalog::return_item(Catalog& c, SwitchSpec s) {
    upsert(c.switches_, std::move(s));
}
void Catalog::return_item(Catalog& c, SystemSpec s) {
    upsert(c.systems_, std::move(s));
}
void Catalog::return_item(Catalog& c, CloudOffer o) {
    upsert(c.cloud_, std::move(o));
}
void Catalog::return_item(Catalog& c, ModelArch m) {
    upsert(c.models_, std::move(m));
}

Result<Catalog> Catalog::bundled() {
    // The bundled files are compiled in and never change: parse them once per process (thread-
    // safe static initialisation) and hand out copies. A CLI process that loads the catalog
    // several times (and the CLI fuzzer, ~1 ms per parse) pays the JSON parse once.
    static const Result<Catalog> parsed = [] {
        Catalog c;
        std::vector<Error> all;
        for (const auto& f : bundled_files()) {
            if (f.name.rfind("resources/catalog/", 0) != 0)
                continue;
            auto errs = c.merge(f.text, f.name, /*user=*/false);
            all.insert(all.end(), errs.begin(), errs.end());
        }
        if (!all.empty())
            return Result<Catalog>(std::move(all));
        return Result<Catalog>(std::move(c));
    }();
    return parsed;
}

const GpuSpec* Catalog::gpu(std::string_view id) const {
    return find_id(gpus_, id);
}
std::string Catalog::short_name(std::string_view id) const {
    const std::string* name = nullptr;
    if (const auto* g = gpu(id))
        name = &g->name;
    else if (const auto* l = link(id))
        name = &l->name;
    else if (const auto* n = nic(id))
        name = &n->name;
    else if (const auto* sw = switch_spec(id))
        name = &sw->name;
    else if (const auto* sy = system(id))
        name = &sy->name;
    if (!name || name->empty())
        return std::string(id);
    const auto cut = name->find(" (");
    return cut == std::string::npos || cut == 0 ? *name : name->substr(0, cut);
}
const LinkSpec* Catalog::link(std::string_view id) const {
    return find_id(links_, id);
}
const NicSpec* Catalog::nic(std::string_view id) const {
    return find_id(nics_, id);
}
const SwitchSpec* Catalog::switch_spec(std::string_view id) const {
    return find_id(switches_, id);
}
const SystemSpec* Catalog::system(std::string_view id) const {
    return find_id(systems_, id);
}
const CloudOffer* Catalog::cloud(std::string_view id) const {
    return find_id(cloud_, id);
}
const ModelArch* Catalog::model(std::string_view id) const {
    return find_id(models_, id);
}

std::vector<std::string> Catalog::ids(CatalogKind k) const {
    std::vector<std::string> out;
    auto add = [&](const auto& v) {
        for (const auto& x : v)
            out.push_back(x.id);
    };
    switch (k) {
    case CatalogKind::gpus:
        add(gpus_);
        break;
    case CatalogKind::links:
        add(links_);
        break;
    case CatalogKind::nics:
        add(nics_);
        break;
    case CatalogKind::switches:
        add(switches_);
        break;
    case CatalogKind::systems:
        add(systems_);
        break;
    case CatalogKind::cloud:
        add(cloud_);
        break;
    case CatalogKind::models:
        add(models_);
        break;
    }
    return out;
}

std::string Catalog::closest_id(CatalogKind k, std::string_view id) const {
    std::string best;
    std::size_t best_d = 4; // suggest only near misses
    for (const auto& candidate : ids(k)) {
        const auto d = edit_distance(candidate, id);
        if (d < best_d) {
            best_d = d;
            best = candidate;
        }
    }
    return best;
}

std::string user_catalog_path() {
    if (const char* p = std::getenv("CLUSTERLENS_CATALOG"); p && *p)
        return p;
    if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x)
        return std::string(x) + "/clusterlens/catalog.json";
    if (const char* h = std::getenv("HOME"); h && *h)
        return std::string(h) + "/.config/clusterlens/catalog.json";
    return {};
}

Result<std::string> read_text_file(const std::string& path, std::size_t max_bytes) {
    // Read as a stream in blocks (pipes, /dev/stdin and "-" have no size), stopping one byte
    // past the limit; a directory or a missing file is named as such.
    const bool stdin_ = path == "-";
    const std::string name = stdin_ ? std::string("standard input") : path;
    std::error_code ec;
    if (!stdin_) {
        const auto st = std::filesystem::status(path, ec);
        if (st.type() == std::filesystem::file_type::not_found)
            return Error{name, "no such file"};
        if (st.type() == std::filesystem::file_type::directory)
            return Error{name, "is a directory, not a file"};
    }
    std::ifstream file;
    if (!stdin_) {
        file.open(path, std::ios::binary);
        if (!file)
            return Error{name, std::string("cannot open file: ") + std::strerror(errno)};
    }
    std::istream& in = stdin_ ? std::cin : file;
    std::string text;
    if (!stdin_) // a regular file's size is known: one allocation, no regrowth and copies
        if (const auto size = std::filesystem::file_size(path, ec); !ec)
            text.reserve(static_cast<std::size_t>(std::min<std::uintmax_t>(size, max_bytes)) + 1);
    char buf[65536];
    while (in) {
        in.read(buf, sizeof buf);
        text.append(buf, static_cast<std::size_t>(in.gcount()));
        if (text.size() > max_bytes)
            return Error{name, "larger than the " + std::to_string(max_bytes / (1024 * 1024)) +
                                   " MiB limit"};
    }
    if (in.bad())
        return Error{name, std::string("read error: ") + std::strerror(errno)};
    return text;
}

const EngineAllReduce* engine_allreduce(const GpuSpec& g, ServingEngine e, int gpus) {
    for (const EngineAllReduce& a : g.engine_allreduce)
        if (a.engine == e && a.gpus == gpus && a.points.size() >= 2)
            return &a;
    return nullptr;
}

double engine_allreduce_seconds(const EngineAllReduce& a, double bytes) {
    const auto& p = a.points;
    if (p.empty())
        return 0;
    if (!(bytes > p.front().first))
        return p.front().second;
    for (std::size_t i = 1; i < p.size(); ++i)
        if (bytes <= p[i].first) {
            const double f =
                std::log(bytes / p[i - 1].first) / std::log(p[i].first / p[i - 1].first);
            return p[i - 1].second * std::pow(p[i].second / p[i - 1].second, f);
        }
    return p.back().second * bytes / p.back().first;
}

} // namespace cl::model
