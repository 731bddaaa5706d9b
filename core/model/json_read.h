#pragma once
// Typed, path-aware access to parsed JSON. Every getter records an Error naming the JSON path
// and what was expected versus found, so loaders can report every problem at once.

#include "model/error.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cl::model {

/// Limits applied to every JSON text we read (design files, catalogs, configs).
struct JsonLimits {
    std::size_t max_bytes = 64u * 1024u * 1024u; ///< 64 MiB: a 16k-GPU design is ~100 kB
    int max_depth = 64;                          ///< designs nest ~6 deep
};

/// Parses JSON text; rejects oversize input, nesting deeper than the limit (checked before
/// parsing, so 100k-deep input cannot exhaust the stack), NaN/Infinity tokens and syntax
/// errors, with the byte offset. `name` prefixes messages (a file name or "catalog").
Result<nlohmann::json> parse_json(std::string_view text, std::string_view name,
                                  const JsonLimits& limits = {});

/// Receives one element of a streamed top-level array: the array's name, the element's index
/// and the element (valid only during the call).
using ElementSink =
    std::function<void(std::string_view array, std::size_t index, const nlohmann::json& element)>;

/// parse_json, except that each element of the top-level arrays named in `stream` goes to
/// `sink` as soon as it is complete and is then dropped: those arrays come back empty, and the
/// whole document is never held at once (100,000 devices: half the load time and most of the
/// peak memory was that document).
Result<nlohmann::json> parse_json_streaming(std::string_view text, std::string_view name,
                                            const JsonLimits& limits,
                                            const std::vector<std::string_view>& stream,
                                            const ElementSink& sink);

/// The string values of two top-level members (for a file's "format" and "version"), read
/// without building a document and stopping once both are found; nullopt where a member is
/// missing, not a string, or the text is not JSON.
std::pair<std::optional<std::string>, std::optional<std::string>>
scan_header(std::string_view text, std::string_view first, std::string_view second);

/// Human name of a JSON value's type ("string", "number", "object", ...).
std::string json_type_name(const nlohmann::json& j);

/// Path helpers: member("links[3]", "to") = "links[3].to"; index("links", 3) = "links[3]".
std::string json_member_path(std::string_view path, std::string_view key);
std::string json_index_path(std::string_view path, std::size_t i);

/// Reads typed members of JSON objects, collecting errors.
class JsonReader {
public:
    /// `null_is_error`: a member holding null is an error naming its path (design files: a
    /// null would otherwise read as "absent" and the default would apply unseen); otherwise
    /// null reads as absent (model configs write "rope_scaling": null).
    explicit JsonReader(std::vector<Error>& errors, bool null_is_error = false)
        : errors_(errors), null_is_error_(null_is_error) {}

    /// The member, or nullptr (and an error when required).
    const nlohmann::json* member(const nlohmann::json& obj, std::string_view path,
                                 std::string_view key, bool required);
    std::optional<std::string> string(const nlohmann::json& obj, std::string_view path,
                                      std::string_view key, bool required = true);
    /// A finite number within [lo, hi].
    std::optional<double> number(const nlohmann::json& obj, std::string_view path,
                                 std::string_view key, bool required = true,
                                 double lo = -std::numeric_limits<double>::max(),
                                 double hi = std::numeric_limits<double>::max());
    /// An integer within [lo, hi] (a JSON number with no fractional part).
    std::optional<std::int64_t> integer(const nlohmann::json& obj, std::string_view path,
                                        std::string_view key, bool required = true,
                                        std::int64_t lo = std::numeric_limits<std::int64_t>::min(),
                                        std::int64_t hi = std::numeric_limits<std::int64_t>::max());
    std::optional<bool> boolean(const nlohmann::json& obj, std::string_view path,
                                std::string_view key, bool required = true);
    /// Checks the value is an object; records an error otherwise.
    bool expect_object(const nlohmann::json& j, std::string_view path);
    bool expect_array(const nlohmann::json& j, std::string_view path);

    void error(std::string where, std::string what);
    [[nodiscard]] bool failed() const { return !errors_.empty(); }
    [[nodiscard]] std::vector<Error>& errors() { return errors_; }

private:
    std::vector<Error>& errors_;
    bool null_is_error_ = false;
};

} // namespace cl::model
