#pragma once
// Canvas edits as pure functions on a Design (no Qt): proposing a link between two devices
// (with the reason when it cannot exist), copy / paste of a selection, alignment. The canvas
// turns each into one undo command.

#include "model/catalog.h"
#include "model/design.h"
#include "model/error.h"

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
