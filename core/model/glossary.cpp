#include "model/glossary.h"

#include <algorithm>
#include <cctype>

namespace cl::model {

namespace {

struct Term {
    GlossaryEntry entry;
    std::vector<std::string_view> words; ///< any of them in the text brings the entry in
};

const std::vector<Term>& terms() {
    static const std::vector<Term> t = {
        {{"MFU",
          "Model FLOPs utilization: the FLOPs the model needs per second of training (about 6 × "
          "parameters × tokens, plus attention) divided by the GPUs' peak. Recomputed work is "
          "not counted.",
          "Chowdhery et al. 2022 (PaLM), Appendix B"},
         {"MFU"}},
        {{"HFU",
          "Hardware FLOPs utilization: as MFU, but counting the FLOPs the GPUs actually run, "
          "activation recomputation included; so HFU is at least MFU.",
          "Chowdhery et al. 2022 (PaLM), Appendix B; Korthikanti et al. 2022"},
         {"HFU"}},
        {{"TP, PP, DP, CP, EP",
          "Tensor, pipeline, data, context and expert parallelism: the ways a model's work is "
          "split across GPUs (layers cut across GPUs, layers in stages, copies of the model on "
          "different data, the sequence split, experts on different GPUs).",
          "Shoeybi et al. 2019; Narayanan et al. 2021; Korthikanti et al. 2022; Megatron-Core "
          "documentation"},
         {"TP", "PP", "DP", "CP", "EP"}},
        {{"EDP (expert data parallelism)",
          "The data-parallel group of an MoE model's experts: the same GPUs as TP × CP × DP, "
          "regrouped so that experts split over expert tensor (ETP) and expert parallel (EP) "
          "ranks and copy over the rest. Expert gradients are reduced, and their optimizer "
          "states sharded, over this group; when ETP × EP covers all of TP × CP × DP it is one "
          "GPU (no expert gradient traffic). Shared experts and the router stay with the "
          "attention in DP.",
          "Liu et al. 2025, MoE Parallel Folding (arXiv:2504.14960); Megatron-Core MoE "
          "documentation"},
         {"EDP"}},
        {{"Pipeline bubble",
          "Time the GPUs of a pipeline stand idle at the start and end of each step while the "
          "pipeline fills and drains: (stages - 1) / micro-batches of the compute for 1F1B.",
          "Narayanan et al. 2021, section 2.2"},
         {"bubble"}},
        {{"Activation recomputation",
          "Recomputing a layer's activations in the backward pass instead of keeping them in "
          "memory: less memory, more compute.",
          "Korthikanti et al. 2022"},
         {"recomputation", "recompute"}},
        {{"ZeRO / FSDP",
          "Sharding the optimizer state, gradients and (at the highest stage) weights across "
          "the data-parallel GPUs instead of keeping a full copy on each.",
          "Rajbhandari et al. 2020 (ZeRO); Zhao et al. 2023 (PyTorch FSDP)"},
         {"ZeRO", "FSDP"}},
        {{"busbw",
          "Bus bandwidth: nccl-tests' speed of a collective, scaled so that it can be compared "
          "with the links' bandwidth whatever the GPU count; for all-reduce, algorithm bandwidth "
          "x 2 (n - 1) / n.",
          "NVIDIA nccl-tests, doc/PERFORMANCE.md"},
         {"busbw"}},
        {{"algbw", "Algorithm bandwidth: the message size divided by the collective's time.",
          "NVIDIA nccl-tests, doc/PERFORMANCE.md"},
         {"algbw"}},
        {{"Scale-up, scale-out",
          "Scale-up: the GPUs' own fabric inside a server or NVLink domain. Scale-out: the "
          "network (InfiniBand or Ethernet) between those domains.",
          "NVIDIA DGX SuperPOD reference architecture"},
         {"scale-up", "scale-out"}},
        {{"Oversubscription",
          "The ratio of a switch tier's downlink to uplink bandwidth; 1:1 is non-blocking.",
          "NVIDIA DGX SuperPOD reference architecture"},
         {"oversubscription", "oversubscribed"}},
        {{"Roofline",
          "The bound on a kernel's speed: the lower of the GPU's peak FLOP/s and its memory "
          "bandwidth times the kernel's arithmetic intensity (FLOPs per byte moved). The ridge "
          "is the intensity where the two meet.",
          "Williams, Waterman and Patterson 2009"},
         {"roofline", "ridge"}},
        {{"KV cache",
          "The keys and values of the tokens seen so far, kept in GPU memory while a request "
          "generates; it grows with context length and batch.",
          "Kwon et al. 2023 (vLLM, PagedAttention)"},
         {"KV"}},
        {{"TTFT",
          "Time to first token: from a request's arrival to its first output token (queueing "
          "and prefill).",
          "MLPerf Inference rules (LLM latency constraints)"},
         {"TTFT"}},
        {{"TPOT",
          "Time per output token: the mean time between output tokens after the first "
          "(decode).",
          "MLPerf Inference rules (LLM latency constraints)"},
         {"TPOT"}},
        {{"SLO",
          "Service-level objective: the latency a service must meet, here the TTFT and TPOT "
          "targets.",
          "MLPerf Inference rules"},
         {"SLO", "SLOs"}},
        {{"MTBF",
          "Mean time between failures; of a job, the inverse of the summed failure rates of "
          "every part it uses.",
          "Meta, Llama 3 paper (Grattafiori et al. 2024), Table 5 failure rates"},
         {"MTBF"}},
        {{"Goodput",
          "The share of wall-clock time that advances training: what is left after checkpoint "
          "stalls, restarts and work redone after failures.",
          "Grattafiori et al. 2024 (Llama 3), section 3.3.4: effective training time"},
         {"goodput"}},
        {{"Young/Daly interval",
          "The checkpoint interval that loses least time to failures and checkpoints: about "
          "sqrt(2 × checkpoint write time × MTBF), refined by Daly for long checkpoints.",
          "Young 1974; Daly 2006"},
         {"Daly", "Young"}},
        {{"PUE",
          "Power usage effectiveness: the facility's power divided by the IT equipment's power "
          "(1.0 would be no cooling or losses).",
          "The Green Grid, White Paper 49 (2012)"},
         {"PUE"}},
        {{"Capex, TCO",
          "Capex: what is bought up front (servers, network, storage). TCO, total cost of "
          "ownership: capex plus power, facility, staff and maintenance over the horizon.",
          "ClusterLens guide, Cost"},
         {"capex", "TCO"}},
        {{"Break-even",
          "The first month from which owning has cost less in total than renting the same "
          "GPUs.",
          "ClusterLens guide, Cost"},
         {"break-even"}},
        {{"Spot",
          "Cloud capacity sold at a discount that the provider may take back at short notice "
          "(a preemption); work since the last checkpoint is redone.",
          "AWS EC2 Spot Instances documentation"},
         {"spot"}},
        {{"GPU-hour", "One GPU for one hour: the unit clouds bill and clusters account in.",
          "ClusterLens guide, Cost"},
         {"GPU-hour", "GPU-hours", "GPU-h"}},
        {{"p50, p95", "Percentiles: half of the values are at most p50, 95 in 100 at most p95.",
          "MLPerf Inference rules"},
         {"p50", "p95", "p90", "p99"}},
        {{"Fragmentation",
          "GPUs left idle because no waiting job fits in what is free (too few GPUs together, "
          "or not in one NVLink domain).",
          "Weng et al. 2023, Beware of Fragmentation (USENIX ATC), on Alibaba GPU clusters"},
         {"fragmentation"}},
    };
    return t;
}

bool word_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

/// Whether `word` appears in `text` with no letter, digit or underscore either side; a word
/// with no lower-case letter matches its own case only.
bool has_word(std::string_view text, std::string_view word) {
    const bool exact = std::none_of(word.begin(), word.end(), [](char c) {
        return std::islower(static_cast<unsigned char>(c));
    });
    const auto eq = [exact](char a, char b) {
        return exact ? a == b
                     : std::tolower(static_cast<unsigned char>(a)) ==
                           std::tolower(static_cast<unsigned char>(b));
    };
    for (auto it = text.begin();;) {
        it = std::search(it, text.end(), word.begin(), word.end(), eq);
        if (it == text.end())
            return false;
        const auto end = it + static_cast<std::ptrdiff_t>(word.size());
        if ((it == text.begin() || !word_char(*(it - 1))) &&
            (end == text.end() || !word_char(*end)))
            return true;
        ++it;
    }
}

} // namespace

const std::vector<GlossaryEntry>& glossary() {
    static const std::vector<GlossaryEntry> all = [] {
        std::vector<GlossaryEntry> out;
        for (const auto& t : terms())
            out.push_back(t.entry);
        return out;
    }();
    return all;
}

std::vector<GlossaryEntry> glossary_for(std::string_view text) {
    std::vector<GlossaryEntry> out;
    for (const auto& t : terms())
        if (std::any_of(t.words.begin(), t.words.end(),
                        [&](std::string_view w) { return has_word(text, w); }))
            out.push_back(t.entry);
    return out;
}

} // namespace cl::model
