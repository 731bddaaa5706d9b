#include "model/sensitivity.h"

#include "model/evaluate.h"
#include "model/schema.h"
#include "model/tco.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>

namespace cl::model {

const char* sensitivity_output_name(SensitivityOutput o) {
    switch (o) {
    case SensitivityOutput::onprem_minus_cloud_usd:
        return "on-prem minus cloud cost (USD)";
    case SensitivityOutput::amortized_usd_per_gpu_hour:
        return "on-prem USD per GPU-hour";
    case SensitivityOutput::training_cost_usd:
        return "training run cost (USD)";
    case SensitivityOutput::usd_per_million_tokens:
        return "USD per million output tokens";
    }
    return "";
}

namespace {

std::optional<double> output_of(const Design& d, const Catalog& c, SensitivityOutput o,
                                std::string* why) {
    const Evaluation ev = evaluate(d, c);
    switch (o) {
    case SensitivityOutput::onprem_minus_cloud_usd:
    case SensitivityOutput::amortized_usd_per_gpu_hour:
        if (!ev.tco) {
            *why = ev.tco_error.empty() ? "no cost model (no GPUs)" : ev.tco_error;
            return std::nullopt;
        }
        // Issue 21: a side left out of the TCO leaves these outputs undefined, with its reason.
        if (!ev.tco->has_onprem ||
            (o == SensitivityOutput::onprem_minus_cloud_usd && !ev.tco->has_cloud)) {
            *why = !ev.tco->has_onprem ? ev.tco->onprem_missing : ev.tco->cloud_missing;
            return std::nullopt;
        }
        return o == SensitivityOutput::onprem_minus_cloud_usd
                   ? ev.tco->onprem_usd - ev.tco->cloud_usd
                   : ev.tco->amortized_usd_per_gpu_hour;
    case SensitivityOutput::training_cost_usd:
        for (const auto& w : ev.workloads)
            if (w.training && w.training->cost_usd > 0)
                return w.training->cost_usd;
        *why = "no training workload with tokens and a price";
        return std::nullopt;
    case SensitivityOutput::usd_per_million_tokens:
        for (const auto& w : ev.workloads)
            if (w.inference && w.inference->usd_per_million_output_tokens > 0)
                return w.inference->usd_per_million_output_tokens;
        *why = "no inference workload with a price";
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace

SensitivityResult sensitivity(const Design& d, const Catalog& c, SensitivityOutput output,
                              double step) {
    SensitivityResult r;
    r.output = output;
    r.step = step;
    auto base = output_of(d, c, output, &r.error);
    if (!base)
        return r;
    r.base = *base;
    // The effective value of an input that defaults to "derive it" (0): what the model used.
    const Evaluation ev = evaluate(d, c);
    auto effective = [&](const std::string& key, double v) {
        if (v > 0 || !ev.tco)
            return v;
        if (key == "price_per_gpu_hour")
            return ev.tco->cloud_price_per_gpu_hour;
        if (key == "server_price_usd")
            return ev.tco->inventory.servers > 0
                       ? ev.tco->onprem_breakdown.servers / ev.tco->inventory.servers
                       : 0.0;
        if (key == "network_usd_per_gpu")
            return ev.tco->inventory.gpus > 0
                       ? ev.tco->onprem_breakdown.network / ev.tco->inventory.gpus
                       : 0.0;
        return v;
    };
    // The cloud price when it comes from the catalog's offers: scale every offer (listed
    // commitment and spot prices included), so the billing rules stay those of the base case.
    if (d.economics.price_per_gpu_hour <= 0 && ev.tco) {
        SensitivityBar bar;
        bar.input = "Cloud price";
        bar.unit = "USD/GPU-hour";
        bar.low_value = ev.tco->cloud_price_per_gpu_hour * (1 - step);
        bar.high_value = ev.tco->cloud_price_per_gpu_hour * (1 + step);
        Catalog lo = c, hi = c;
        lo.scale_cloud_prices(1 - step);
        hi.scale_cloud_prices(1 + step);
        std::string why;
        const auto ol = output_of(d, lo, output, &why);
        const auto oh = output_of(d, hi, output, &why);
        if (ol && oh && std::abs(*oh - *ol) > 1e-9 * std::max(1.0, std::abs(r.base))) {
            bar.output_low = *ol;
            bar.output_high = *oh;
            r.bars.push_back(bar);
        }
    }
    // Every numeric schema field marked as a sensitivity input: the design's own inputs
    // (economics, reliability) and those of the first workload of its kind that sets them.
    auto move_input = [&](const Field& f, std::string_view id, double v) {
        SensitivityBar bar;
        bar.input = f.label;
        bar.unit = f.unit;
        bar.low_value = std::clamp(v * (1 - step), f.min, f.max);
        bar.high_value = std::clamp(v * (1 + step), f.min, f.max);
        Design lo = d, hi = d;
        f.set(lo, id, bar.low_value);
        f.set(hi, id, bar.high_value);
        std::string why;
        const auto ol = output_of(lo, c, output, &why);
        const auto oh = output_of(hi, c, output, &why);
        if (!ol || !oh)
            return;
        if (std::abs(*oh - *ol) <= 1e-9 * std::max(1.0, std::abs(r.base)))
            return; // does not move this output
        bar.output_low = *ol;
        bar.output_high = *oh;
        r.bars.push_back(bar);
    };
    // The design's inputs first, then the workloads' (the order ties keep).
    for (const bool workload_pass : {false, true})
        for (const Field& f : schema()) {
            if (!f.sensitivity || (f.type != FieldType::number && f.type != FieldType::integer))
                continue;
            const bool of_workload =
                f.section == Section::training || f.section == Section::inference;
            if (of_workload != workload_pass)
                continue;
            if (of_workload) {
                const WorkloadKind kind = f.section == Section::training ? WorkloadKind::training
                                                                         : WorkloadKind::inference;
                for (const auto& w : d.workloads) {
                    if (w.kind != kind)
                        continue;
                    const FieldValue fv = f.get(d, w.id);
                    const double* v = std::get_if<double>(&fv);
                    if (v && *v > 0) {
                        move_input(f, w.id, *v);
                        break;
                    }
                }
                continue;
            }
            if (f.key == "price_per_gpu_hour" && d.economics.price_per_gpu_hour <= 0)
                continue; // scaled through the offers above
            const FieldValue fv = f.get(d, "");
            const double* v = std::get_if<double>(&fv);
            const double x = v ? effective(f.key, *v) : 0.0;
            if (x > 0) // a zero input has no relative step
                move_input(f, "", x);
        }
    // Issue 19: the model's typical error of a modelled output, and the bars within it.
    for (const auto& w : ev.workloads) {
        const bool trains = output == SensitivityOutput::training_cost_usd && w.training &&
                            w.training->cost_usd > 0;
        const bool serves = output == SensitivityOutput::usd_per_million_tokens && w.inference &&
                            w.inference->usd_per_million_output_tokens > 0;
        if ((trains || serves) && w.band) {
            r.model_error = w.band->median_abs_error;
            // Both outputs are costs: they move with the modelled time (uncertainty.h).
            std::tie(r.band_low, r.band_high) = band_range(r.base, *w.band, Scales::with_time);
            break;
        }
    }
    // A bar whose both ends lie inside the output's band moves it less than the model can tell.
    for (auto& b : r.bars)
        b.within_model_error = r.band_high > r.band_low &&
                               std::min(b.output_low, b.output_high) >= r.band_low &&
                               std::max(b.output_low, b.output_high) <= r.band_high;
    // Stable: inputs with equal swings keep schema order.
    std::stable_sort(
        r.bars.begin(), r.bars.end(),
        [](const SensitivityBar& a, const SensitivityBar& b) { return a.swing() > b.swing(); });
    return r;
}

} // namespace cl::model
