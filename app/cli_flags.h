#pragma once
// Flags of clusterlens-cli: one table (name, type, unit, default, help, commands) drives the
// parser, validation, --help and the "inputs" object of --json output. The flags of a
// workload's training and inference settings, of economics and of reliability are generated
// from the property schema (model/schema.h): name (the key with dashes, or an alias kept for
// CLI.md), range, allowed values, help and default; adding a schema field adds its flag.

#include "model/catalog.h"
#include "model/schema.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cl::cli {

/// Bad input: reported as one line on stderr with exit code 2.
struct UsageError {
    std::string message;
};

enum class FlagType { Switch, Int, Number, Size, String, Choice };

struct FlagSpec {
    std::string name; ///< "--tp"
    FlagType type;
    std::string unit; ///< "GPUs", "bytes", "bytes/s", "s", "USD", ""
    std::string def;  ///< default as shown in --help
    std::string help;
    std::vector<std::string> choices;  ///< Choice flags (and "auto" for Int flags that allow it)
    std::vector<std::string> commands; ///< commands that accept it ("*" = all)
    /// Generated from the schema: the field(s) it sets (--tp: training and inference), the valid
    /// range of numbers (the field's, or stricter where the CLI has no "0 = auto/unset"), and
    /// the source recorded in "inputs" when the flag is absent.
    std::vector<const model::Field*> fields = {};
    double min = 0, max = 0;
    std::string def_source = "default";
};

/// Every flag, in --help order.
const std::vector<FlagSpec>& flag_specs();
/// The flag generated from a schema field (nullptr when the field has none).
const FlagSpec* flag_of(const model::Field& f);

/// Parsed command line for one command, with typed, validated getters. Every getter records
/// the resolved value and its source ("flag" or "default" or a named derivation) in inputs().
class Flags {
public:
    Flags(std::string command, std::map<std::string, std::string> values);

    [[nodiscard]] const std::string& command() const { return command_; }
    [[nodiscard]] bool has(const std::string& name) const { return values_.count(name) > 0; }
    [[nodiscard]] const std::string* raw(const std::string& name) const;

    /// A switch or a boolean flag ("--x", "--x=on|off|true|false|1|0").
    bool get_bool(const std::string& name, bool def, const std::string& def_source = "default");
    /// An integer in [lo, hi].
    long long get_int(const std::string& name, long long def, long long lo, long long hi,
                      const std::string& def_source = "default");
    /// An integer or "auto" (returns nullopt for auto).
    std::optional<long long> get_int_or_auto(const std::string& name, long long lo, long long hi);
    /// A finite number in [lo, hi]; zero_ok=false rejects 0 with "must be positive".
    /// A number that may be left out (0 returned: unset, recorded with `unset` as its source);
    /// an explicit 0 is refused, since it would read as "unset" (issue 17 item 4).
    double get_unset_or_positive(const std::string& name, double hi, const std::string& unset);
    double get_number(const std::string& name, double def, double lo, double hi,
                      const std::string& def_source = "default");
    /// A time in seconds in [lo, hi]: a plain number is seconds; "50ms", "200 us", "2s", "5min"
    /// and "1h" are read in their unit (a TPOT SLO of "50" is 50 s: out of range says so).
    double get_seconds(const std::string& name, double def, double lo, double hi,
                       const std::string& def_source = "default");
    /// A size with suffixes (K M G T Ki Mi Gi Ti, optional B) in [lo, hi].
    double get_size(const std::string& name, double def, double lo, double hi,
                    const std::string& def_source = "default");
    std::string get_string(const std::string& name, const std::string& def,
                           const std::string& def_source = "default");
    /// A flag generated from the schema, checked against its range (an integer, or "auto").
    long long get_int(const std::string& name, long long def,
                      const std::string& def_source = "default");
    std::optional<long long> get_int_or_auto(const std::string& name);
    double get_number(const std::string& name, double def,
                      const std::string& def_source = "default");

    /// Reads every schema flag of one section that this command accepts and that no getter
    /// has read (or skip() set aside) into the settings, starting from their current values;
    /// values are checked as the schema says (range, integers, allowed choices).
    model::TrainingSpec read_settings(model::TrainingSpec t);
    model::InferenceSpec read_settings(model::InferenceSpec s);
    model::Economics read_settings(model::Economics e);
    model::ReliabilityInputs read_settings(model::ReliabilityInputs r);
    /// The command handles (or deliberately ignores) this flag itself: read_settings leaves it.
    void skip(const std::string& name) { read_.insert(name); }
    std::string get_choice(const std::string& name, const std::string& def);
    /// A choice backed by a model enum (choices.h): the flag's spelling, parsed at this boundary.
    template <class E> E get_enum(const std::string& name, E def) {
        const std::string v = get_choice(name, std::string(model::to_string(def)));
        if (auto e = model::choice_from_string<E>(v))
            return *e;
        std::string list;
        for (const auto& c : model::choice_names<E>())
            list += (list.empty() ? "" : "|") + c;
        throw UsageError{name + ": expected " + list + ", found \"" + v + "\""};
    }

    /// Records a derived input (e.g. dp computed from gpus / (tp*pp*cp)).
    void record(const std::string& name, const nlohmann::json& value, const std::string& source);
    [[nodiscard]] const nlohmann::json& inputs() const { return inputs_; }

private:
    std::string command_;
    std::map<std::string, std::string> values_;
    nlohmann::json inputs_ = nlohmann::json::object();
    std::set<std::string> read_; ///< flags a getter has read (recorded)

    void read_section(model::Section s, model::Design& d, std::string_view id);
    model::FieldValue read_field(const FlagSpec& spec, const model::Field& f,
                                 const model::FieldValue& def);
};

/// Splits argv into the command word, positional arguments and flags, checking each flag is
/// known for that command and has a value when it needs one.
struct ParsedArgs {
    std::string command;
    std::vector<std::string> positional;
    std::map<std::string, std::string> flags;
};
ParsedArgs parse_command_line(const std::vector<std::string>& args);

/// The --help text, generated from flag_specs().
/// The whole help, or one command's usage, description and flags.
std::string help_text(const std::string& command = {});

} // namespace cl::cli
