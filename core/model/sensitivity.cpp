#include "model/sensitivity.h"

#include "model/evaluate.h"
#include "model/tco.h"

#include <algorithm>
#include <cmath>
#include <optional>

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
    for (const auto& f : economics_fields()) {
        if (std::string(f.key) == "price_per_gpu_hour" && d.economics.price_per_gpu_hour <= 0)
            continue; // scaled through the offers above
        const double v = effective(f.key, d.economics.*f.member);
        if (!(v > 0))
            continue; // a zero input has no relative step
        SensitivityBar bar;
        bar.input = f.label;
        std::string why;
        Design lo = d, hi = d;
        bar.low_value = std::clamp(v * (1 - step), f.min, f.max);
        bar.high_value = std::clamp(v * (1 + step), f.min, f.max);
        lo.economics.*f.member = bar.low_value;
        hi.economics.*f.member = bar.high_value;
        const auto ol = output_of(lo, c, output, &why);
        const auto oh = output_of(hi, c, output, &why);
        if (!ol || !oh)
            continue;
        bar.output_low = *ol;
        bar.output_high = *oh;
        if (std::abs(bar.output_high - bar.output_low) <= 1e-9 * std::max(1.0, std::abs(r.base)))
            continue; // does not move this output
        r.bars.push_back(bar);
    }
    // Training and serving inputs of the first workload of each kind.
    auto workload_input = [&](const char* label, auto get, auto set) {
        for (std::size_t i = 0; i < d.workloads.size(); ++i) {
            const double v = get(d.workloads[i]);
            if (!(v > 0))
                continue;
            SensitivityBar bar;
            bar.input = label;
            Design lo = d, hi = d;
            bar.low_value = v * (1 - step);
            bar.high_value = v * (1 + step);
            set(lo.workloads[i], bar.low_value);
            set(hi.workloads[i], bar.high_value);
            std::string why;
            const auto ol = output_of(lo, c, output, &why);
            const auto oh = output_of(hi, c, output, &why);
            if (ol && oh && std::abs(*oh - *ol) > 1e-9 * std::max(1.0, std::abs(r.base))) {
                bar.output_low = *ol;
                bar.output_high = *oh;
                r.bars.push_back(bar);
            }
            return;
        }
    };
    workload_input(
        "Tokens to train", [](const Workload& w) { return w.training.tokens; },
        [](Workload& w, double v) { w.training.tokens = v; });
    workload_input(
        "Output length",
        [](const Workload& w) {
            return w.kind == WorkloadKind::inference ? double(w.inference.output_len) : 0.0;
        },
        [](Workload& w, double v) { w.inference.output_len = std::max(1, int(std::lround(v))); });
    workload_input(
        "Input length",
        [](const Workload& w) {
            return w.kind == WorkloadKind::inference ? double(w.inference.input_len) : 0.0;
        },
        [](Workload& w, double v) { w.inference.input_len = std::max(1, int(std::lround(v))); });
    std::sort(r.bars.begin(), r.bars.end(), [](const SensitivityBar& a, const SensitivityBar& b) {
        return a.swing() > b.swing();
    });
    return r;
}

} // namespace cl::model
