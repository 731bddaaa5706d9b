#include "model/compare.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace cl::model {

namespace {
const WorkloadEvaluation* first(const Evaluation& ev, WorkloadKind k) {
    for (const auto& w : ev.workloads)
        if (w.kind == k)
            return &w;
    return nullptr;
}
} // namespace

std::vector<CompareRow> compare_designs(const std::vector<const Evaluation*>& evs) {
    std::vector<CompareRow> rows;
    // `band`: the workload whose band covers the number (nullptr: not a modelled number).
    using BandOf = std::function<const WorkloadEvaluation*(const Evaluation&)>;
    auto add = [&](const char* metric, const char* unit, bool lower,
                   const std::function<std::optional<double>(const Evaluation&)>& get,
                   const BandOf& band = nullptr) {
        CompareRow r{metric, unit, {}, lower, {}, {}, {}, {}};
        bool any = false;
        std::vector<const Band*> bands;
        for (const Evaluation* ev : evs) {
            r.values.push_back(get(*ev));
            any = any || r.values.back().has_value();
            const WorkloadEvaluation* w = band ? band(*ev) : nullptr;
            bands.push_back(w && w->band ? &*w->band : nullptr);
            r.model_error.push_back(w && w->band ? w->band->median_abs_error : 0.0);
        }
        // "Within the model's error" (issue 19): the difference is smaller than the bands --
        // either value lies inside the other's band. Lower-is-better numbers are times or
        // costs (they move as a time does), the others throughputs.
        const Scales sc = lower ? Scales::with_time : Scales::with_speed;
        const auto inside = [&](double x, double of, const Band* b) {
            if (!b)
                return false;
            const auto [lo, hi] = band_range(of, *b, sc);
            return x >= lo && x <= hi;
        };
        for (std::size_t i = 0; i < r.values.size(); ++i) {
            const auto& a = r.values[0];
            const auto& b = r.values[i];
            r.within_model_error.push_back(i > 0 && a && b && *a != 0 &&
                                           (inside(*b, *a, bands[0]) || inside(*a, *b, bands[i])));
        }
        if (any)
            rows.push_back(std::move(r));
    };
    using O = std::optional<double>;
    // What the designs run on, in words (helper-22: two designs of the same name could only be
    // told apart by their HBM).
    {
        CompareRow r{"GPU type", "", {}, false, {}, {}, {}, {}};
        bool any = false;
        for (const Evaluation* ev : evs) {
            r.texts.push_back(ev->topology.gpu_name.empty() ? std::string("–")
                                                            : ev->topology.gpu_name);
            any = any || !ev->topology.gpu_name.empty();
            r.values.emplace_back();
            r.model_error.push_back(0);
            r.within_model_error.push_back(false);
        }
        if (any)
            rows.push_back(std::move(r));
    }
    add("GPUs", "", false, [](const Evaluation& e) -> O { return e.topology.gpus; });
    add("peak BF16 (dense)", "FLOP/s", false,
        [](const Evaluation& e) -> O { return e.topology.peak_bf16_flops; });
    add("total HBM", "bytes", false, [](const Evaluation& e) -> O { return e.topology.hbm_bytes; });
    add("bisection (one way)", "B/s", false,
        [](const Evaluation& e) -> O { return e.fabric.bisection_Bps; });
    // Issue 21: a side of the TCO that could not be costed compares as missing, never as $0.
    const auto onprem = [](const Evaluation& e) { return e.tco && e.tco->has_onprem; };
    const auto cloud = [](const Evaluation& e) { return e.tco && e.tco->has_cloud; };
    add("capex", "USD", true, [onprem](const Evaluation& e) -> O {
        return onprem(e) ? O(e.tco->capex_usd) : std::nullopt;
    });
    add("on-prem over the horizon", "USD", true, [onprem](const Evaluation& e) -> O {
        return onprem(e) ? O(e.tco->onprem_usd) : std::nullopt;
    });
    add("cloud over the horizon", "USD", true, [cloud](const Evaluation& e) -> O {
        return cloud(e) ? O(e.tco->cloud_usd) : std::nullopt;
    });
    add("break-even month", "months", true, [](const Evaluation& e) -> O {
        return e.tco && e.tco->breakeven_months >= 0 ? O(e.tco->breakeven_months) : std::nullopt;
    });
    add("on-prem $/GPU-hour (amortized)", "USD", true, [onprem](const Evaluation& e) -> O {
        return onprem(e) ? O(e.tco->amortized_usd_per_gpu_hour) : std::nullopt;
    });
    add("facility power (average)", "kW", true,
        [](const Evaluation& e) -> O { return e.tco ? O(e.tco->power_kw) : std::nullopt; });
    add("racks", "", true,
        [](const Evaluation& e) -> O { return e.tco ? O(e.tco->racks) : std::nullopt; });
    auto tr = [](const Evaluation& e) { return first(e, WorkloadKind::training); };
    add("training: memory per GPU", "bytes", true, [&](const Evaluation& e) -> O {
        const auto* w = tr(e);
        return w && w->has_memory ? O(w->memory.per_gpu.total()) : std::nullopt;
    });
    add(
        "training: step time", "s", true,
        [&](const Evaluation& e) -> O {
            const auto* w = tr(e);
            return w && w->training ? O(w->training->step_time_s) : std::nullopt;
        },
        tr);
    add(
        "training: tokens/s", "", false,
        [&](const Evaluation& e) -> O {
            const auto* w = tr(e);
            return w && w->training ? O(w->training->tokens_per_s) : std::nullopt;
        },
        tr);
    add(
        "training: MFU", "fraction", false,
        [&](const Evaluation& e) -> O {
            const auto* w = tr(e);
            return w && w->training ? O(w->training->mfu) : std::nullopt;
        },
        tr);
    add(
        "training: time to train", "s", true,
        [&](const Evaluation& e) -> O {
            const auto* w = tr(e);
            return w && w->training && w->training->time_to_train_s > 0
                       ? O(w->training->time_to_train_s)
                       : std::nullopt;
        },
        tr);
    add(
        "training: cost (cloud rate)", "USD", true,
        [&](const Evaluation& e) -> O {
            const auto* w = tr(e);
            return w && w->training && w->training->cost_usd > 0 ? O(w->training->cost_usd)
                                                                 : std::nullopt;
        },
        tr);
    add("training: goodput", "fraction", false, [&](const Evaluation& e) -> O {
        const auto* w = tr(e);
        return w && w->reliability ? O(w->reliability->goodput) : std::nullopt;
    });
    auto inf = [](const Evaluation& e) { return first(e, WorkloadKind::inference); };
    add(
        "serving: TTFT", "s", true,
        [&](const Evaluation& e) -> O {
            const auto* w = inf(e);
            return w && w->inference ? O(w->inference->ttft_s) : std::nullopt;
        },
        inf);
    add(
        "serving: TPOT", "s", true,
        [&](const Evaluation& e) -> O {
            const auto* w = inf(e);
            return w && w->inference ? O(w->inference->tpot_s) : std::nullopt;
        },
        inf);
    add(
        "serving: output tokens/s per GPU", "", false,
        [&](const Evaluation& e) -> O {
            const auto* w = inf(e);
            return w && w->inference ? O(w->inference->output_tokens_per_s_per_gpu) : std::nullopt;
        },
        inf);
    add(
        "serving: $ per million output tokens", "USD", true,
        [&](const Evaluation& e) -> O {
            const auto* w = inf(e);
            return w && w->inference && w->inference->usd_per_million_output_tokens > 0
                       ? O(w->inference->usd_per_million_output_tokens)
                       : std::nullopt;
        },
        inf);
    add(
        "serving: GPUs needed", "", true,
        [&](const Evaluation& e) -> O {
            const auto* w = inf(e);
            return w && w->inference && w->inference->gpus_needed > 0 ? O(w->inference->gpus_needed)
                                                                      : std::nullopt;
        },
        inf);
    // A cost is a price times a modelled time. When the designs pay different prices (another
    // GPU, offer or commitment), the price's part of the change is not the model's error
    // (helper-18: "cost (cloud rate) -12.2 %, within the model's error" between an H100 and an
    // H200 design was a different cloud price): "within the model's error" only at equal price.
    const auto row_of = [&rows](std::string_view metric) -> CompareRow* {
        for (auto& r : rows)
            if (r.metric == metric)
                return &r;
        return nullptr;
    };
    const auto same_price = [](const CompareRow& cost, const CompareRow& per, bool divide,
                               std::size_t i) {
        const auto& c0 = cost.values[0];
        const auto& ci = cost.values[i];
        const auto& p0 = per.values[0];
        const auto& pi = per.values[i];
        if (!c0 || !ci || !p0 || !pi || *p0 == 0 || *pi == 0)
            return false;
        // training: cost / time = price x GPUs; serving: $ per token x tokens/s per GPU = price
        const double r0 = divide ? *c0 / *p0 : *c0 * *p0;
        const double ri = divide ? *ci / *pi : *ci * *pi;
        return std::abs(ri / r0 - 1) < 1e-3;
    };
    if (CompareRow* cost = row_of("training: cost (cloud rate)")) {
        const CompareRow* time = row_of("training: time to train");
        for (std::size_t i = 1; i < cost->within_model_error.size(); ++i)
            cost->within_model_error[i] =
                cost->within_model_error[i] && time && same_price(*cost, *time, true, i);
    }
    if (CompareRow* cost = row_of("serving: $ per million output tokens")) {
        const CompareRow* speed = row_of("serving: output tokens/s per GPU");
        for (std::size_t i = 1; i < cost->within_model_error.size(); ++i)
            cost->within_model_error[i] =
                cost->within_model_error[i] && speed && same_price(*cost, *speed, false, i);
    }
    // Better or worse than the first design, where the model can tell.
    for (CompareRow& r : rows) {
        r.verdict.assign(r.values.size(), 0);
        for (std::size_t i = 1; i < r.values.size(); ++i) {
            const auto& a = r.values[0];
            const auto& b = r.values[i];
            if (!a || !b || *a == 0 || r.within_model_error[i])
                continue;
            const double ch = *b / *a - 1;
            if (std::abs(ch) > 1e-9)
                r.verdict[i] = (r.lower_is_better ? ch < 0 : ch > 0) ? 1 : -1;
        }
    }
    return rows;
}

} // namespace cl::model
