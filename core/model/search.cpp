#include "model/search.h"

#include <algorithm>
#include <chrono>

namespace cl::model {

namespace {
std::vector<int> divisors_up_to(long long n, int limit) {
    std::vector<int> out;
    for (int d = 1; d <= limit && d <= n; ++d)
        if (n % d == 0)
            out.push_back(d);
    return out;
}
} // namespace

Result<SearchResult> search_layouts(const ModelArch& m, const TrainingSpec& base, int gpus,
                                    const GpuSpec& gpu, const Topology& fabric,
                                    const SearchPins& pins, const SearchOptions& opt,
                                    const TrainingAssumptions& ta, const CollectiveAssumptions& ca,
                                    const MemoryAssumptions& ma) {
    if (gpus < 1)
        return Error{"--gpus", "must be at least 1"};
    if (base.global_batch < 1)
        return Error{"--global-batch", "is required for the search"};
    if (pins.recompute && *pins.recompute != Recompute::selective && base.recomputes_modules())
        return Error{"--recompute", "recompute modules (--recompute-layernorm, -moe-act, "
                                    "-mla-up-proj, -mlp) need selective recompute; pin "
                                    "--recompute selective or leave it to the search"};
    // Modules this model or recipe cannot recompute are refused once, not left to drop every
    // selective layout without a word.
    if (auto why = recompute_modules_refusal(m, base); !why.first.empty())
        return Error{why.first, why.second};
    const auto t0 = std::chrono::steady_clock::now();
    SearchResult res;
    // Candidate values of each dimension (a pin fixes it).
    auto pick = [](int pin, std::vector<int> all) { return pin > 0 ? std::vector<int>{pin} : all; };
    std::vector<int> tps, pps, cps, eps, vpps;
    for (int t = 1; t <= m.heads && t <= gpus && t <= 64; t *= 2)
        if (m.heads % t == 0)
            tps.push_back(t);
    tps = pick(pins.tp, tps);
    pps = pick(pins.pp, divisors_up_to(gpus, std::min(m.layers, 128)));
    for (int c = 1; c <= 32 && c <= base.seq; c *= 2)
        if (base.seq % c == 0)
            cps.push_back(c);
    cps = pick(pins.cp, cps);
    if (m.is_moe()) {
        for (int e = 1; e <= m.experts; e *= 2)
            if (m.experts % e == 0)
                eps.push_back(e);
    } else {
        eps = {1};
    }
    eps = pick(pins.ep, eps);
    vpps = pick(pins.vpp, {1, 2, 3, 4, 6, 8});
    const std::vector<int> zeros =
        pins.zero >= 0 ? std::vector<int>{pins.zero} : std::vector<int>{0, 1, 2, 3};
    // With FlashAttention the attention core keeps no s^2 activations, so selective
    // recomputation (Korthikanti et al. 2022 sec. 5: recompute only that core) saves nothing
    // and costs nothing: it is the same layout as "none" and is not listed twice.
    const bool flash = ma.flash_attention.value > 0.5;
    // Full recompute of every layer, and of the workload's own number of layers per stage when
    // it has one (TrainingSpec::recompute_layers): a pinned full recompute keeps only the
    // latter.
    struct RecomputeChoice {
        Recompute how;
        int layers;
    };
    std::vector<RecomputeChoice> recomputes;
    const int partial = std::max(0, base.recompute_layers);
    if (pins.recompute) {
        recomputes.push_back({*pins.recompute, *pins.recompute == Recompute::full ? partial : 0});
    } else {
        recomputes.push_back({Recompute::none, 0});
        // Selective recompute with the workload's recompute modules saves their memory even
        // beside FlashAttention.
        if (!flash || base.recomputes_modules())
            recomputes.push_back({Recompute::selective, 0});
        recomputes.push_back({Recompute::full, 0});
        if (partial > 0)
            recomputes.push_back({Recompute::full, partial});
    }
    std::vector<SearchRow> feasible;
    feasible.reserve(4096);
    for (int tp : tps)
        for (int pp : pps)
            for (int cp : cps) {
                const long long mp = static_cast<long long>(tp) * pp * cp;
                if (gpus % mp != 0) {
                    res.evaluated += static_cast<std::int64_t>(eps.size() * vpps.size() *
                                                               zeros.size() * recomputes.size());
                    continue;
                }
                const long long dp = gpus / mp;
                if (base.global_batch % dp != 0) {
                    res.evaluated += static_cast<std::int64_t>(eps.size() * vpps.size() *
                                                               zeros.size() * recomputes.size());
                    continue;
                }
                const auto mbs = pins.micro_batch > 0 ? std::vector<int>{pins.micro_batch}
                                                      : divisors_up_to(base.global_batch / dp, 64);
                TrainingSpec t = base; // reused: only the searched fields change below
                t.tp = tp;
                t.pp = pp;
                t.cp = cp;
                t.sequence_parallel = tp > 1;
                for (int ep : eps)
                    for (int vpp : vpps)
                        for (int zero : zeros)
                            for (const RecomputeChoice& rcc : recomputes)
                                for (int mb : mbs) {
                                    if (opt.cancel && opt.cancel->load(std::memory_order_relaxed)) {
                                        res.cancelled = true;
                                        goto done;
                                    }
                                    ++res.evaluated;
                                    if (vpp > 1 &&
                                        (pp == 1 || pp * vpp > max_pipeline_chunks(m.layers)))
                                        continue;
                                    if ((dp * cp * tp) % (ep * (base.etp > 0 ? base.etp : tp)) != 0)
                                        continue;
                                    t.ep = ep;
                                    t.vpp = vpp;
                                    t.zero = zero;
                                    t.recompute = rcc.how;
                                    t.recompute_layers = rcc.layers;
                                    // The workload's recompute modules go with selective
                                    // recompute, the only one they apply to.
                                    {
                                        const bool sel = rcc.how == Recompute::selective;
                                        t.recompute_layernorm = sel && base.recompute_layernorm;
                                        t.recompute_moe_act = sel && base.recompute_moe_act;
                                        t.recompute_mla_up_proj = sel && base.recompute_mla_up_proj;
                                        t.recompute_mlp = sel && base.recompute_mlp;
                                    }
                                    t.micro_batch = mb;
                                    t.schedule = vpp > 1 ? Schedule::interleaved
                                                 : base.schedule == Schedule::interleaved
                                                     ? Schedule::one_f_one_b
                                                     : base.schedule;
                                    auto mem = training_memory(m, t, gpus, gpu, ma, false);
                                    if (!mem)
                                        continue;
                                    if (!mem->fits) {
                                        // Memory never shrinks with a larger micro-batch
                                        // (activations grow with mb x min(p, m), states are
                                        // fixed): the larger ones cannot fit either.
                                        res.evaluated += static_cast<std::int64_t>(
                                            mbs.end() - std::find(mbs.begin(), mbs.end(), mb) - 1);
                                        break;
                                    }
                                    auto tr = train_step(m, t, gpus, gpu, fabric, ta, ca, ma,
                                                         opt.price_per_gpu_hour, /*explain=*/false,
                                                         &mem.value());
                                    if (!tr) {
                                        if (res.blocked.empty())
                                            res.blocked = tr.error_text();
                                        continue;
                                    }
                                    ++res.feasible;
                                    SearchRow r;
                                    r.tp = tp;
                                    r.pp = pp;
                                    r.dp = static_cast<int>(dp);
                                    r.cp = cp;
                                    r.ep = ep;
                                    r.vpp = vpp;
                                    r.micro_batch = mb;
                                    r.zero = zero;
                                    r.recompute = rcc.how;
                                    r.recompute_layers = rcc.layers;
                                    r.step_time_s = tr->step_time_s;
                                    r.mfu = tr->mfu;
                                    r.tokens_per_s = tr->tokens_per_s;
                                    r.memory_per_gpu_bytes = mem->per_gpu.total();
                                    r.usd_per_million_tokens = opt.price_per_gpu_hour * gpus /
                                                               3600.0 / tr->tokens_per_s * 1e6;
                                    feasible.push_back(std::move(r));
                                }
            }
done:
    // Rank by throughput (or cost per token; the same order at a fixed GPU count and price):
    // only the top K need ordering.
    auto better = [&](const SearchRow* a, const SearchRow* b) {
        if (opt.minimize_cost && a->usd_per_million_tokens != b->usd_per_million_tokens)
            return a->usd_per_million_tokens < b->usd_per_million_tokens;
        return a->tokens_per_s > b->tokens_per_s;
    };
    std::vector<const SearchRow*> order(feasible.size());
    for (std::size_t i = 0; i < feasible.size(); ++i)
        order[i] = &feasible[i];
    const std::size_t k =
        std::min<std::size_t>(order.size(), static_cast<std::size_t>(std::max(0, opt.top_k)));
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                      better);
    // Pareto front: no other layout uses less memory and trains faster.
    std::vector<const SearchRow*> by_mem = order;
    std::sort(by_mem.begin(), by_mem.end(), [](const SearchRow* a, const SearchRow* b) {
        return a->memory_per_gpu_bytes < b->memory_per_gpu_bytes ||
               (a->memory_per_gpu_bytes == b->memory_per_gpu_bytes &&
                a->tokens_per_s > b->tokens_per_s);
    });
    double best = -1;
    for (const SearchRow* r : by_mem)
        if (r->tokens_per_s > best) {
            res.pareto.push_back(*r);
            best = r->tokens_per_s;
        }
    res.results.reserve(k);
    for (std::size_t i = 0; i < k; ++i)
        res.results.push_back(*order[i]);
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return res;
}

} // namespace cl::model
