#pragma once
// What the canvas says about each entity -- problem badges, verdicts, tooltips -- decided here
// from the evaluation, once per evaluation, so that widgets only draw it (issue 16: items used
// to decide warnings and set tooltips while painting, so an item never painted had none).

#include "model/memory.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cl::model {

struct Design;
struct Evaluation;
struct Field;

/// A link that is an uplink of an oversubscribed switch tier: the fabric's bottleneck.
struct LinkFinding {
    bool bottleneck = false;
    double oversubscription = 1; ///< of the tier whose uplink this is
    std::string tier;            ///< leaf, spine, ...
    std::string note;            ///< tooltip text; empty when nothing to say
};

/// A device that belongs to an oversubscribed tier.
struct DeviceFinding {
    double oversubscription = 1;
    std::string badge; ///< "⚠ 2.0:1"
    std::string note;
};

enum class WorkloadStatus { not_evaluated, fits, does_not_fit, error };

struct WorkloadFinding {
    WorkloadStatus status = WorkloadStatus::not_evaluated;
    std::string verdict; ///< memory explanation or the error
    std::string layout;  ///< "llama3-70b · TP 8 PP 1 · seq 8192 · ZeRO 1"
    std::string metrics; ///< "step 1.2 s · MFU 41.0 % · 12ktok/s" / "TTFT ... · TPOT ..."
    std::string badge;   ///< "⚠ TP > NVLink" when the TP group leaves the scale-up domain
    std::string tooltip;
    /// "Shares GPUs with ... (both on ...)": two services (or two placed workloads) on the same
    /// GPUs, each computed as if it had them to itself.
    std::string sharing;
};

/// Two workloads on the same GPUs (helper-22: the Memory chart showed each as if it had the
/// GPUs to itself): what they need together per GPU.
struct SharedGpus {
    std::string first, second; ///< workload ids
    std::string name;          ///< "A + B"
    std::string where;         ///< the device they share ("HGX H200")
    MemoryBreakdown together;  ///< both workloads' memory per GPU, category by category
    double capacity_bytes = 0; ///< what a GPU has for them (the smaller of the two budgets)
    bool fits = true;
    std::string text; ///< "Together on HGX H200, A and B need 149.4 GB of 126.9 GB per GPU: ..."
};

struct Findings {
    std::map<std::string, LinkFinding> links;         ///< only links with something to say
    std::map<std::string, DeviceFinding> devices;     ///< only flagged devices
    std::map<std::string, WorkloadFinding> workloads; ///< every workload
    std::vector<SharedGpus> shared; ///< pairs of workloads on the same GPUs, with their memory
    /// Issue 22: the fabric tier each switch link belongs to (1 = node to leaf, 2 = leaf to
    /// spine, 3 = spine to core); links not listed carry no network tier.
    std::map<std::string, int> link_tiers;
    /// Issue 22: for a workload placed on some devices, the network links on its servers' way
    /// up (their node-to-leaf links, their leaves' uplinks, ...); other links carry none of its
    /// traffic. Workloads on every GPU are not listed (every link is on their way).
    std::map<std::string, std::set<std::string>> placed_links;
};

/// An error as a person reads it: a design path of a workload field ("workloads[0].inference.
/// offload_layers: ...") reads as the field's label ("Layers in system memory: ..."), line by
/// line (issue 21: errors show field labels, not paths or flags). Other lines are unchanged.
std::string errors_for_people(const std::string& text);

/// The findings of an evaluated design (`ev` must be the evaluation of `d`).
Findings find_problems(const Design& d, const Evaluation& ev);

/// Issue 22: how much of a workload's step (a training step, or a serving replica's decode step)
/// a link is busy with its groups' traffic.
struct LinkLoad {
    double busy = 0;  ///< fraction of the step (0..1)
    std::string note; ///< "leaf to spine: DP of Llama 3 70B pre-training, 26 % of the step ..."
};
/// The load `workload` (a training or serving workload's id) puts on `link`; nullopt when the
/// link is not on a network tier or the workload has no step time.
std::optional<LinkLoad> link_load(const Evaluation& ev, const std::string& workload,
                                  const std::string& link);
/// The legend for the canvas colouring by `workload`'s load; empty when it has none.
std::string load_legend(const Evaluation& ev, const std::string& workload);
/// The legend for the red uplinks when no workload's load is shown (helper-15: red meant
/// "bottleneck" with no legend, and "70% busy" with one); empty when no link is a bottleneck.
std::string bottleneck_legend(const Evaluation& ev);
/// The workload whose load the canvas shows by default: the first (training or serving) with
/// traffic on a network tier; empty when none.
std::string default_load_workload(const Evaluation& ev);

/// What an unset field (Field::unset) stands for right now, for the inspector: `shown` is
/// "Auto: 2.64" (the value the evaluation used, in the field's display unit) or "Auto" when
/// there is no number; `full` adds the source ("Auto: 2.64 per 1000 node-days, the Llama 3
/// per-GPU rate"). Both empty for fields that cannot be unset.
struct UnsetText {
    std::string shown, full;
};
UnsetText unset_text(const Field& f, const Evaluation& ev);
/// The number behind unset_text: the value the evaluation used for an unset field, in the
/// field's stored unit; nullopt when there is none (or the field cannot be unset).
std::optional<double> unset_value(const Field& f, const Evaluation& ev);
/// A typed value the evaluation kept but did not use because another input stands in for it
/// (the Cost section's utilization while the fleet simulation's is billed): `label` for the
/// field's label ("fleet's 63.2 % billed"), `full` the why and how to use the typed one. Both
/// empty when the typed value is the one used.
struct OverrideText {
    std::string label, full;
};
OverrideText override_text(const Field& f, const Evaluation& ev);

} // namespace cl::model
