#pragma once
// Canvas edits as pure functions on a Design (no Qt): proposing a link between two devices
// (with the reason when it cannot exist), copy / paste of a selection, alignment. The canvas
// turns each into one undo command.

#include "model/catalog.h"
#include "model/design.h"
#include "model/error.h"
#include "model/schema.h"

#include <string>
#include <vector>

namespace cl::model {

/// A link from `from` to `to`: of `type` (empty = the natural one: the system's scale-out link
/// to a switch, the switch's own link between switches, the NVLink generation of an NVSwitch),
/// with a sensible count (one cable per NIC of a system). Refused with the reason when the
/// hardware cannot be cabled that way (NVLink between two servers with no NVLink switch, an
/// InfiniBand cable into an Ethernet switch, a device to itself...).
Result<Link> propose_link(const Design& d, const Catalog& c, const std::string& from,
                          const std::string& to, const std::string& type = {});

/// What dropping a palette entry adds.
struct DropResult {
    std::string id;        ///< the new device or workload
    std::string undo_text; ///< "Add HGX H100"
    std::string message;   ///< for the status bar ("Training job placed on node"), may be empty
};
/// Adds what a palette entry (kind "system" | "gpu" | "switch" | "storage" | "workload", and a
/// catalog id or "training" / "inference") dropped at `at` on device `target` (empty: on the
/// empty canvas) becomes, with the drop defaults: a workload on a device runs there, else on
/// every GPU; a new training job gets Llama 3 8B, global batch 512 and 10B tokens, a new
/// service Llama 3 70B; a GPU on a generic server fills a free slot (refused when none is free
/// or when the target is a system, which comes with its GPUs); new storage starts at 100 GB/s
/// and 1 PB (unsourced starting values for the user to set). Refused with the reason.
Result<DropResult> drop_entry(Design& d, const Catalog& c, const std::string& kind,
                              const std::string& id, Point at, const std::string& target);

/// Removes the entities with these ids, everything inside removed devices, links that touch
/// them, and their ids from workload placements (a cascading delete).
void remove_entities(Design& d, const std::vector<std::string>& ids);

/// An edit that goes with another one: field `field` of entity `id` set to `value`, and why
/// (for the person: empty when it needs no saying).
struct FollowOnEdit {
    const Field* field = nullptr;
    std::string id;
    FieldValue value;
    std::string note;
};

/// The edits that go with setting field `f` of entity `id` to `v`, so the design stays
/// consistent:
/// - a device whose name is its catalog entry's name (as dropped from the palette) takes the new
///   entry's name when its Type changes;
/// - when a Type change gives the design other GPUs and its chosen cloud offer rents the old
///   ones (and no price is typed), the offer follows the GPUs: the same provider's instance
///   with as many GPUs if it has one, else the cheapest offer for them (helper-22: after the
///   swap every cost was refused until the person found the offer). No offer rents them: the
///   offer stays and the cost says why.
/// Empty when none.
std::vector<FollowOnEdit> follow_on_edits(const Design& d, std::string_view id, const Field& f,
                                          const FieldValue& v, const Catalog& c);

/// Checks setting schema field `f` of entity `id` to `v`: the field's own rules (check_value)
/// plus the design's (a link's new type must still cable its two ends). Returns the value to
/// store or the reason it is refused.
Result<FieldValue> check_property_edit(const Design& d, std::string_view id, const Field& f,
                                       const FieldValue& v, const Catalog& c);

/// The selection as a design fragment (JSON text of a clusterlens-design): the devices with
/// their descendants, the links among them, and the selected workloads.
std::string copy_fragment(const Design& d, const std::vector<std::string>& ids);

/// Adds a fragment to `d` with fresh ids, positions shifted by `offset`; returns the new ids of
/// the fragment's top-level entities (to select them). Placements and links that point outside
/// the fragment are dropped.
Result<std::vector<std::string>> paste_fragment(Design& d, std::string_view fragment,
                                                const Catalog* c, Point offset);

enum class Alignment { left, right, top, bottom, center_horizontal, center_vertical };
/// Aligns the positions of the given devices and workloads (device width 180, height 70 on
/// the canvas; the alignment works on their top-left corners and centres).
void align(Design& d, const std::vector<std::string>& ids, Alignment a);

} // namespace cl::model
