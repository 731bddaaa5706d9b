#include "model/uncertainty.h"

#include "model/architecture.h"
#include "model/bundled.h"
#include "model/catalog.h"
#include "model/design.h"
#include "model/units.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace cl::model {

namespace {
/// A comparable set smaller than this falls back to a broader one.
constexpr std::size_t kMinRows = 6;
/// Published throughput figures are single runs: a band is never narrower than +-3%.
constexpr double kRunNoise = 0.03;
/// Each way the case is far from the validated runs widens the band by half (two at most).
constexpr double kFarWidening = 1.5;

const char* const kKindNames[] = {"training", "serving", "collective"};

double quantile_abs(std::vector<double> v, double q) {
    if (v.empty())
        return 0;
    for (double& x : v)
        x = std::abs(x);
    std::sort(v.begin(), v.end());
    const double pos = q * static_cast<double>(v.size() - 1);
    const auto i = static_cast<std::size_t>(pos);
    const double f = pos - static_cast<double>(i);
    return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

std::string percent(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f %%", x * 100);
    return buf;
}

/// "+31 %", "−8 %": a band end as people read it (a minus sign, not a hyphen: helper-46).
std::string signed_percent(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f %%", std::abs(x * 100));
    const bool negative = std::lround(x * 100) < 0;
    return (negative ? "\u2212" : "+") + std::string(buf);
}
} // namespace

std::string_view band_kind_name(BandKind k) {
    return kKindNames[static_cast<int>(k)];
}

std::vector<HeldOutRow> parse_held_out(std::string_view text) {
    const auto j = nlohmann::json::parse(text);
    BandKind kind = BandKind::training;
    const std::string k = j.at("kind").get<std::string>();
    bool known = false;
    for (int i = 0; i < 3; ++i)
        if (k == kKindNames[i]) {
            kind = static_cast<BandKind>(i);
            known = true;
        }
    if (!known)
        throw std::runtime_error("held-out rows: unknown kind \"" + k + "\"");
    std::vector<HeldOutRow> rows;
    for (const auto& r : j.at("rows")) {
        HeldOutRow h;
        h.kind = kind;
        h.id = r.at("id").get<std::string>();
        h.source = r.at("source").get<std::string>();
        h.arch = r.value("arch", std::string());
        h.moe = r.value("moe", false);
        h.fsdp = r.value("fsdp", false);
        h.pp = r.value("pp", false);
        h.gpus = r.value("gpus", 0.0);
        h.error = r.at("error").get<double>();
        h.edge = r.value("edge", false);
        if (!std::isfinite(h.error) || h.error <= -1)
            throw std::runtime_error("held-out rows: " + h.id + ": error out of range");
        rows.push_back(std::move(h));
    }
    return rows;
}

std::string held_out_to_json(const std::vector<HeldOutRow>& rows, std::string_view generated_by) {
    // One row per line, so a change of the model shows as a readable diff.
    std::string out = "{\n  \"kind\": \"";
    out += rows.empty() ? "training" : std::string(band_kind_name(rows.front().kind));
    out += "\",\n  \"generated_by\": " + nlohmann::json(std::string(generated_by)).dump() +
           ",\n  \"about\": \"Held-out errors (predicted / published - 1) of the published runs "
           "in ../shared/validation/published.json, every global factor fitted without the "
           "row's source. Written by the validation test named above "
           "(CLUSTERLENS_WRITE_HELD_OUT=1); the test fails when this file differs from what "
           "it computes.\",\n  \"rows\": [\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        nlohmann::ordered_json j;
        j["id"] = r.id;
        j["source"] = r.source;
        j["arch"] = r.arch;
        j["moe"] = r.moe;
        j["fsdp"] = r.fsdp;
        j["pp"] = r.pp;
        j["gpus"] = r.gpus;
        j["error"] = std::round(r.error * 10000) / 10000;
        if (r.edge)
            j["edge"] = true;
        out += "    " + j.dump() + (i + 1 < rows.size() ? ",\n" : "\n");
    }
    return out + "  ]\n}\n";
}

const std::vector<HeldOutRow>& held_out_rows() {
    static const std::vector<HeldOutRow> rows = [] {
        std::vector<HeldOutRow> all;
        for (const char* kind : kKindNames) {
            const std::string name = std::string("resources/validation/held_out_") + kind + ".json";
            const std::string_view text = bundled_file(name);
            if (text.empty())
                continue;
            auto part = parse_held_out(text);
            all.insert(all.end(), part.begin(), part.end());
        }
        return all;
    }();
    return rows;
}

namespace {
std::string processors_of(const GpuSpec& gpu) {
    return gpu.device_class == "cpu_server" ? "CPUs" : gpu.device_class == "npu" ? "NPUs" : "GPUs";
}
} // namespace

namespace {
/// A generation as people write it: "Hopper", "Ada", "CDNA3" (helper-24 read "hopper GPUs").
std::string generation_name(const std::string& g) {
    if (g.empty())
        return g;
    std::string out = g;
    if (out.rfind("cdna", 0) == 0 || out.rfind("rdna", 0) == 0) {
        for (char& ch : out)
            ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        return out;
    }
    out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
    return out;
}
} // namespace

std::string gpu_generation(const GpuSpec& gpu) {
    std::string g = gpu.arch.substr(0, gpu.arch.find(' '));
    for (char& ch : g)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return g;
}

CaseTraits training_case(const ModelArch& m, const TrainingSpec& t, const GpuSpec& gpu,
                         double gpus) {
    CaseTraits c;
    c.kind = BandKind::training;
    c.arch = gpu_generation(gpu);
    c.processors = processors_of(gpu);
    c.moe = m.is_moe();
    c.fsdp = t.zero >= 3;
    c.pp = t.pp > 1;
    c.gpus = gpus;
    return c;
}

CaseTraits serving_case(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu) {
    CaseTraits c;
    c.kind = BandKind::serving;
    c.arch = gpu_generation(gpu);
    c.edge = !gpu.device_class.empty();
    c.processors = processors_of(gpu);
    c.moe = m.is_moe();
    c.pp = s.pp > 1;
    c.gpus = static_cast<double>(s.tp) * s.pp;
    return c;
}

CaseTraits collective_case(const GpuSpec& gpu, double gpus, double bytes) {
    CaseTraits c;
    c.kind = BandKind::collective;
    c.arch = gpu_generation(gpu);
    c.gpus = gpus;
    c.bytes = bytes;
    return c;
}

Band band_for(const CaseTraits& c, std::string_view exclude_source) {
    return band_for(c, held_out_rows(), exclude_source);
}

Band band_for(const CaseTraits& c, const std::vector<HeldOutRow>& all,
              std::string_view exclude_source) {
    // Data-centre cases compare with data-centre rows only; a workstation or edge case with
    // its own kind of rows when there are any, else with every row (and says so).
    std::vector<const HeldOutRow*> pool;
    Band b;
    for (const auto& r : all)
        if (r.kind == c.kind && r.edge == c.edge && r.source != exclude_source)
            pool.push_back(&r);
    if (pool.empty() && c.edge) {
        for (const auto& r : all)
            if (r.kind == c.kind && r.source != exclude_source)
                pool.push_back(&r);
        if (!pool.empty())
            b.far.push_back("no validated run on a workstation or edge device");
    }
    if (pool.empty()) {
        b.error_low = -0.5;
        b.error_high = 1.0;
        b.far.push_back("no published run of this kind is validated");
        b.basis = "no held-out published run to compare with: a wide band (-33 % to +100 %)";
        return b;
    }
    const std::string shape = std::string(c.moe ? "MoE" : "dense") + (c.fsdp ? " FSDP" : "");
    // From the most specific comparable set to the broadest, the first with enough rows.
    const struct {
        bool arch, moe, fsdp;
    } levels[] = {{true, true, true}, {false, true, true}, {false, true, false}};
    std::vector<const HeldOutRow*> chosen;
    std::string what;
    for (const auto& l : levels) {
        chosen.clear();
        for (const auto* r : pool)
            if ((!l.arch || r->arch == c.arch) && (!l.moe || r->moe == c.moe) &&
                (!l.fsdp || r->fsdp == c.fsdp))
                chosen.push_back(r);
        if (chosen.size() >= kMinRows) {
            what = l.arch   ? shape + " runs on " + generation_name(c.arch) + " " + c.processors
                   : l.fsdp ? shape + " runs"
                            : std::string(c.moe ? "MoE" : "dense") + " runs";
            break;
        }
    }
    if (chosen.size() < kMinRows) {
        chosen = pool;
        what = std::string(band_kind_name(c.kind)) + " runs of every kind";
    }
    // Far from the validated runs: nothing like it in the whole pool.
    const auto any = [&](auto pred) { return std::any_of(pool.begin(), pool.end(), pred); };
    if (!c.arch.empty() && !any([&](const HeldOutRow* r) { return r->arch == c.arch; }))
        b.far.push_back("no validated run on " + generation_name(c.arch) + " " + c.processors);
    if (!any([&](const HeldOutRow* r) { return r->moe == c.moe; }))
        b.far.push_back(c.moe ? "no validated MoE run" : "no validated dense run");
    if (c.fsdp && !any([](const HeldOutRow* r) { return r->fsdp; }))
        b.far.push_back("no validated FSDP run");
    if (c.gpus > 0) {
        double lo = 0, hi = 0;
        for (const auto* r : pool)
            if (r->gpus > 0) {
                lo = lo == 0 ? r->gpus : std::min(lo, r->gpus);
                hi = std::max(hi, r->gpus);
            }
        if (hi > 0 && (c.gpus > 4 * hi || c.gpus < lo / 4))
            b.far.push_back(units::format_count(c.gpus) + " GPUs, beyond the validated " +
                            units::format_count(lo) + " to " + units::format_count(hi));
    }
    if (c.kind == BandKind::collective && c.bytes > 0 && c.bytes < kBandwidthBoundBytes)
        b.far.push_back("a latency-bound message size (below 64 MiB), where no published row "
                        "is validated");
    std::vector<double> e;
    for (const auto* r : chosen)
        e.push_back(r->error);
    std::sort(e.begin(), e.end());
    const std::size_t n = e.size();
    // Order statistics (the distribution-free prediction interval, Wilks 1941; Hahn & Meeker,
    // Statistical Intervals, 1991, sec. 5.4): a new exchangeable row falls between the j-th
    // smallest and the j-th largest of n with probability (n + 1 - 2j) / (n + 1) >= 90% for
    // j = floor((n + 1) / 20)
    // (a 90% band: at 80%, rows of a left-out source fell outside too often -- validation.md).
    // Errors cluster by source (one framework, one cluster, one way of measuring), so the
    // independent evidence is the number of sources, not of rows: the order statistics count
    // sources.
    std::vector<std::string_view> sources;
    for (const auto* r : chosen)
        if (std::find(sources.begin(), sources.end(), r->source) == sources.end())
            sources.push_back(r->source);
    const double j_exact = 0.05 * static_cast<double>(sources.size() + 1);
    const auto j = std::min(n / 2, static_cast<std::size_t>(std::floor(j_exact)));
    double lo = 0, hi = 0;
    if (j >= 1) {
        lo = e[j - 1];
        hi = e[n - j];
    } else { // fewer than 19 sources: the rows' whole range, and up to a quarter more each way
        // The range and its pad are taken on ratios (log(1 + error)): an error is a ratio of two
        // speeds, and padding it linearly turned rows from -17 % to +473 % (one source) into a
        // band from -90 % (the model ten times too slow, which no row showed) to +583 %.
        const double l0 = std::log1p(e.front()), l1 = std::log1p(e.back());
        const double pad = (l1 - l0) * 0.25 * (1 - j_exact);
        lo = std::expm1(l0 - pad);
        hi = std::expm1(l1 + pad);
    }
    lo = std::min(lo, -kRunNoise);
    hi = std::max(hi, kRunNoise);
    const double widen =
        std::pow(kFarWidening, static_cast<double>(std::min<std::size_t>(2, b.far.size())));
    b.error_low = std::max(lo * widen, -0.9);
    b.error_high = hi * widen;
    b.rows = static_cast<int>(n);
    b.median_abs_error = quantile_abs(e, 0.5);
    b.p90_abs_error = quantile_abs(e, 0.9);
    b.basis = "held-out error of " + std::to_string(n) + " comparable published " +
              (n == 1 ? "run" : "runs") + " (" + what + "), median " + percent(b.median_abs_error) +
              ", 90th percentile " + percent(b.p90_abs_error) + "; band " +
              signed_percent(b.error_low) + " to " + signed_percent(b.error_high) +
              " (model vs published)";
    if (!b.far.empty()) {
        b.basis += "; wider because the case is far from them: ";
        for (std::size_t i = 0; i < b.far.size(); ++i)
            b.basis += (i ? "; " : "") + b.far[i];
    }
    return b;
}

std::pair<double, double> band_range(double value, const Band& b, Scales s) {
    if (s == Scales::with_speed)
        return {value / (1 + b.error_high), value / (1 + b.error_low)};
    return {value * (1 + b.error_low), value * (1 + b.error_high)};
}

std::string range_text(double value, const Band& b, Scales s, int decimals) {
    const auto [lo, hi] = band_range(value, b, s);
    const auto text = [&](double x) {
        return decimals == 0 ? units::format_count(x) : units::format_fixed(x, decimals);
    };
    return text(lo) + "\u2013" + text(hi);
}

std::string range_text(double value, const Band& b, Scales s, std::string (*fmt)(double)) {
    const auto [lo, hi] = band_range(value, b, s);
    return fmt(lo) + "\u2013" + fmt(hi);
}

std::string latency_range_text(double seconds, const Band& b) {
    if (units::latency_in_seconds(seconds))
        return range_text(seconds, b, Scales::with_time, &units::format_seconds) + " s";
    return range_text(seconds * 1e3, b, Scales::with_time, &units::format_ms) + " ms";
}

Coverage coverage(BandKind kind, const std::vector<HeldOutRow>& rows) {
    Coverage c;
    std::vector<double> widths, user;
    for (const auto& r : rows) {
        if (r.kind != kind)
            continue;
        CaseTraits t;
        t.kind = r.kind;
        t.arch = r.arch;
        t.moe = r.moe;
        t.fsdp = r.fsdp;
        t.pp = r.pp;
        t.gpus = r.gpus;
        t.edge = r.edge;
        const Band b = band_for(t, rows, r.source);
        ++c.rows;
        const bool inside = r.error >= b.error_low && r.error <= b.error_high;
        c.covered += inside;
        if (!inside) {
            char buf[96];
            std::snprintf(buf, sizeof buf, " %+.0f %% (band %+.0f %% to %+.0f %%)", 100 * r.error,
                          100 * b.error_low, 100 * b.error_high);
            c.missed.push_back(r.id + buf);
        }
        widths.push_back((1 + b.error_high) / (1 + b.error_low) - 1);
        const Band u = band_for(t, rows);
        user.push_back((1 + u.error_high) / (1 + u.error_low) - 1);
    }
    if (!widths.empty()) {
        std::sort(widths.begin(), widths.end());
        std::sort(user.begin(), user.end());
        c.median_width = widths[widths.size() / 2];
        c.median_width_user = user[user.size() / 2];
    }
    return c;
}

} // namespace cl::model
