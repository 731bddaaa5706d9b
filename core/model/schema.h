#pragma once
// The property schema: every editable field of a design, declared once (docs/schema.md).
// A field names its section (device, link, workload, training, inference, economics,
// reliability, assumptions), its key (the JSON key in that section; the CLI flag is the key
// with dashes), label, unit, range or allowed values, default and the default's source, and
// how to read and write it. From this one table come the design reader and writer (settings
// sections, devices, links), the inspector rows, validation of edits (Document::setProperty),
// the CLI flags of the settings sections, the sensitivity inputs, and the assumption rows of
// explanations and reports. Adding a field is one entry in schema.cpp.

#include "model/design.h"

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace cl::model {

class Catalog;

enum class Section {
    design,
    device,
    link,
    workload,
    training,
    inference,
    economics,
    reliability,
    assumptions,
    fleet ///< the design's job mix (issue 23)
};
std::string_view section_name(Section s);

enum class FieldType { integer, number, boolean, choice, text };

/// Where a choice field's values come from: a fixed list (an enum's names) or the catalog.
enum class ChoiceSource {
    fixed,
    models,
    draft_models,
    cloud_offers,
    link_types,
    device_types,
    training_workloads ///< the design's training workloads, and "" (none)
};

/// A field's value: integers and numbers as double in SI units, booleans, and text (a choice by
/// its file spelling, a name, a catalog id).
using FieldValue = std::variant<double, bool, std::string>;

/// Longest name (of the design, a device, a workload) a file or an edit may give, in bytes:
/// names are drawn on cards, legends and titles. Long text belongs in the description, which
/// files may make as long as they like (screens show its start: units::excerpt).
inline constexpr double kMaxNameBytes = 1000;
/// Longest id, in bytes: ids are how links, placements and parents name entities.
inline constexpr std::size_t kMaxIdBytes = 256;

/// Whether a field's display unit is too long to sit beside its number in the inspector's field
/// ("3.79 per 1,000 node-days" was cut in a narrow inspector, helper-31): such a unit goes in the
/// label ("Node failures (per 1,000 node-days)") and the field shows the number alone.
inline bool unit_in_label(const std::string& display_unit) {
    return display_unit.size() > 14;
}

struct Field {
    Section section = Section::design;
    std::string key;   ///< JSON key; CLI flag "--" + key with '_' -> '-' (or a CLI.md alias)
    std::string label; ///< what people read in the inspector
    FieldType type = FieldType::number;
    std::string unit;         ///< SI unit of the stored value ("B/s", "s", "" ...)
    double min = 0, max = 0;  ///< valid range of numbers and integers (stored units); for text,
                              ///< max > 0 is the longest text in bytes a file may hold
    double display_scale = 1; ///< the inspector shows value / display_scale ...
    std::string display_unit; ///< ... in this unit ("GB/s"); see unit_in_label
    int decimals = 0;         ///< decimals shown for numbers
    std::vector<std::string> choices; ///< ChoiceSource::fixed: the allowed spellings
    ChoiceSource choices_from = ChoiceSource::fixed;
    FieldValue default_value;
    std::string source; ///< where the default comes from
    std::string help;   ///< one line for tooltips and --help
    /// Non-empty: the field may be unset, and this says what unset stands for ("the Llama 3
    /// per-GPU rate"). Unset is stored as 0; a 0 the user gives is not a value of such a field
    /// and is refused with this text at the file (format 1.1) and flag boundaries; the inspector
    /// shows unset as "Auto" with what it stands for. (Format 1.0 wrote unset as 0.)
    std::string unset;
    /// Non-empty: 0 is a value of this field with a meaning of its own, which screens show in
    /// place of the 0 ("Auto" for a micro-batch the model picks, "Same as TP" for ETP). Unlike
    /// `unset`, a 0 is read and written as 0 in files and flags.
    std::string zero_shows;
    /// A numeric input model::sensitivity() moves by ±step (economics prices, tokens...).
    bool sensitivity = false;
    /// Whether the field belongs to this entity (a device's storage fields only on storage).
    std::function<bool(const Design&, std::string_view id)> applies;
    std::function<FieldValue(const Design&, std::string_view id)> get;
    std::function<void(Design&, std::string_view id, const FieldValue&)> set;
};

/// Every field, in inspector order within each section.
const std::vector<Field>& schema();
const Field* find_field(Section s, std::string_view key);
/// The fields the inspector shows for one entity: a device, link or workload id, or "" for the
/// design itself (economics, reliability, assumptions).
std::vector<const Field*> fields_of(const Design& d, std::string_view id);
/// The fields of one section (the reader and writer of that section use them).
const std::vector<const Field*>& section_fields(Section s);

/// The allowed values of a choice field for one entity, as (value, label) pairs.
std::vector<std::pair<std::string, std::string>>
field_choices(const Field& f, const Design& d, std::string_view id, const Catalog& cat);

/// Checks a value for a field: right type, finite, within range, integral for integers, one of
/// the allowed values for choices. The error names the field's label and what is allowed.
Result<FieldValue> check_value(const Field& f, const FieldValue& v, const Design& d,
                               std::string_view id, const Catalog* cat);

/// A value as text for people (a number with the field's display unit).
std::string format_value(const Field& f, const FieldValue& v);

/// How a choice's file/flag spelling reads for people: "llamacpp" -> "llama.cpp", "q4_k_m" ->
/// "GGUF Q4_K_M", "selective-op" -> "Selective per op (PyTorch)"; the spelling itself when it
/// has no other name.
std::string choice_label(std::string_view value);

} // namespace cl::model
