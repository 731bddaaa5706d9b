#include "model/json_read.h"
#include "model/units.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <unordered_set>
#include <vector>

namespace cl::model {

std::string Error::message() const {
    const std::string w = units::excerpt(where, 1000);
    const std::string x = units::excerpt(what, 1000);
    return w.empty() ? x : w + ": " + x;
}

std::string join_errors(const std::vector<Error>& errors, std::size_t limit) {
    std::string out;
    for (std::size_t i = 0; i < errors.size() && i < limit; ++i) {
        if (i)
            out += '\n';
        out += errors[i].message();
    }
    if (errors.size() > limit)
        out += "\n... and " + std::to_string(errors.size() - limit) + " more errors";
    return out;
}

std::string json_type_name(const nlohmann::json& j) {
    switch (j.type()) {
    case nlohmann::json::value_t::null:
        return "null";
    case nlohmann::json::value_t::object:
        return "object";
    case nlohmann::json::value_t::array:
        return "array";
    case nlohmann::json::value_t::string:
        return "string";
    case nlohmann::json::value_t::boolean:
        return "boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float:
        return "number";
    default:
        return "unknown";
    }
}

std::string json_member_path(std::string_view path, std::string_view key) {
    if (path.empty())
        return std::string(key);
    std::string p(path);
    p += '.';
    p += key;
    return p;
}

std::string json_index_path(std::string_view path, std::size_t i) {
    return std::string(path) + "[" + std::to_string(i) + "]";
}

namespace {
/// Maximum nesting depth of a JSON text, scanning brackets outside strings: O(n), no recursion.
int max_nesting(std::string_view text, int stop_at) {
    int depth = 0, max_depth = 0;
    bool in_string = false, escaped = false;
    for (char c : text) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"')
            in_string = true;
        else if (c == '{' || c == '[') {
            if (++depth > max_depth) {
                max_depth = depth;
                if (max_depth > stop_at)
                    return max_depth;
            }
        } else if (c == '}' || c == ']')
            --depth;
    }
    return max_depth;
}
} // namespace

Result<nlohmann::json> parse_json(std::string_view text, std::string_view name,
                                  const JsonLimits& limits) {
    return parse_json_streaming(text, name, limits, {}, {});
}

Result<nlohmann::json> parse_json_streaming(std::string_view text, std::string_view name,
                                            const JsonLimits& limits,
                                            const std::vector<std::string_view>& stream,
                                            const ElementSink& sink) {
    const std::string where(name);
    if (text.size() > limits.max_bytes)
        return Error{where, "file is " + std::to_string(text.size() / (1024 * 1024)) +
                                " MiB, larger than the " +
                                std::to_string(limits.max_bytes / (1024 * 1024)) +
                                " MiB limit for JSON input"};
    bool blank = true;
    for (char c : text)
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            blank = false;
            break;
        }
    if (blank)
        return Error{where, "empty input: expected a JSON object"};
    if (max_nesting(text, limits.max_depth) > limits.max_depth)
        return Error{where, "JSON nesting deeper than " + std::to_string(limits.max_depth) +
                                " levels; refusing to parse"};
    // Duplicate keys: nlohmann keeps the last one, so a file with "count": 8 and later
    // "count": 1 would load as 1 unseen. One SAX pass builds the document (nlohmann's own DOM
    // builder) and tracks the path and the keys of each open object (linear; nlohmann's
    // callback parser rescanned parents and was quadratic). Frames are reused, so their key
    // lists do not allocate per object.
    //
    // Streaming: each element of a top-level array named in `stream` is handed to the sink as
    // soon as it is complete and then dropped, so a 100,000-device file never holds its whole
    // document (half of the load time was allocating it, and the peak memory).
    struct Handler {
        Handler(nlohmann::json& r, const std::vector<std::string_view>& s, const ElementSink& k)
            : root(r), dom(r), stream(s), sink(k) {}
        nlohmann::json& root;
        nlohmann::detail::json_sax_dom_parser<nlohmann::json> dom;
        const std::vector<std::string_view>& stream;
        const ElementSink& sink;
        struct Frame {
            bool array = false;
            std::size_t index = 0;
            std::string key;
            std::vector<std::string> keys;        // objects hold few keys: a scan beats a set ...
            std::unordered_set<std::string> many; // ... until they hold many
        };
        std::vector<Frame> stack; // stack[0 .. depth) are open
        std::size_t depth = 0;
        std::vector<Error> found;
        Frame& open(bool array) {
            if (depth == stack.size())
                stack.emplace_back();
            Frame& f = stack[depth++];
            f.array = array;
            f.index = 0;
            f.key.clear();
            f.keys.clear();
            f.many.clear();
            return f;
        }
        std::string path_of(const std::string& key) const {
            std::string p;
            for (std::size_t i = 0; i + 1 < depth; ++i)
                p = stack[i].array ? json_index_path(p, stack[i].index)
                                   : json_member_path(p, stack[i].key);
            return json_member_path(p, key);
        }
        bool value() {
            if (depth == 0 || !stack[depth - 1].array)
                return true;
            const std::size_t index = stack[depth - 1].index++;
            // An element of a streamed top-level array is complete: hand it over, drop it.
            if (depth == 2 && !stack[0].array && sink &&
                std::find(stream.begin(), stream.end(), stack[0].key) != stream.end()) {
                auto it = root.find(stack[0].key);
                if (it != root.end() && it->is_array() && !it->empty()) {
                    auto& arr = it->get_ref<nlohmann::json::array_t&>();
                    sink(stack[0].key, index, arr.back());
                    arr.pop_back();
                }
            }
            return true;
        }
        bool null() { return dom.null() && value(); }
        bool boolean(bool b) { return dom.boolean(b) && value(); }
        bool number_integer(std::int64_t v) { return dom.number_integer(v) && value(); }
        bool number_unsigned(std::uint64_t v) { return dom.number_unsigned(v) && value(); }
        bool number_float(double v, const std::string& t) {
            return dom.number_float(v, t) && value();
        }
        bool string(std::string& v) { return dom.string(v) && value(); }
        bool binary(nlohmann::json::binary_t& v) { return dom.binary(v) && value(); }
        bool start_object(std::size_t n) {
            open(false);
            return dom.start_object(n);
        }
        bool start_array(std::size_t n) {
            open(true);
            return dom.start_array(n);
        }
        bool key(std::string& k) {
            Frame& f = stack[depth - 1];
            bool repeated = false;
            if (f.keys.size() < 32) {
                repeated = std::find(f.keys.begin(), f.keys.end(), k) != f.keys.end();
                if (!repeated)
                    f.keys.push_back(k);
                if (f.keys.size() == 32)
                    f.many.insert(f.keys.begin(), f.keys.end());
            } else {
                repeated = !f.many.insert(k).second;
            }
            if (repeated && found.size() < 20)
                found.push_back({path_of(k), "duplicate key (a JSON object names each key once; "
                                             "which value is meant is unclear)"});
            f.key = k;
            return dom.key(k);
        }
        bool end_object() {
            --depth;
            return dom.end_object() && value();
        }
        bool end_array() {
            --depth;
            return dom.end_array() && value();
        }
        bool parse_error(std::size_t pos, const std::string& token,
                         const nlohmann::detail::exception& e) {
            return dom.parse_error(pos, token, e); // throws: reported below
        }
    };
    try {
        nlohmann::json root;
        Handler h(root, stream, sink);
        nlohmann::json::sax_parse(text.begin(), text.end(), &h);
        if (!h.found.empty())
            return h.found;
        return root;
    } catch (const nlohmann::json::exception& e) {
        std::string what = e.what();
        // nlohmann prefixes "[json.exception.parse_error.101] "; keep the readable part.
        if (auto pos = what.find("] "); pos != std::string::npos)
            what = what.substr(pos + 2);
        return Error{where, "malformed JSON: " + what};
    }
}

std::pair<std::optional<std::string>, std::optional<std::string>>
scan_header(std::string_view text, std::string_view first, std::string_view second) {
    // Reads only as far as both top-level string members are found (our own files write them
    // first; any other order reads to the end without building anything).
    struct Scan : nlohmann::json_sax<nlohmann::json> {
        std::string_view a, b;
        std::optional<std::string> va, vb;
        int depth = 0;
        int want = 0; // 1: the next value is a's, 2: b's
        bool done() const { return va && vb; }
        bool scalar() {
            want = 0;
            return !done();
        }
        bool null() override { return scalar(); }
        bool boolean(bool) override { return scalar(); }
        bool number_integer(number_integer_t) override { return scalar(); }
        bool number_unsigned(number_unsigned_t) override { return scalar(); }
        bool number_float(number_float_t, const string_t&) override { return scalar(); }
        bool string(string_t& v) override {
            if (want == 1)
                va = v;
            else if (want == 2)
                vb = v;
            return scalar();
        }
        bool binary(binary_t&) override { return scalar(); }
        bool start_object(std::size_t) override {
            want = 0;
            ++depth;
            return true;
        }
        bool start_array(std::size_t) override {
            want = 0;
            ++depth;
            return true;
        }
        bool end_object() override {
            --depth;
            return true;
        }
        bool end_array() override {
            --depth;
            return true;
        }
        bool key(string_t& k) override {
            want = depth != 1 ? 0 : k == a ? 1 : k == b ? 2 : 0;
            return true;
        }
        bool parse_error(std::size_t, const std::string&,
                         const nlohmann::detail::exception&) override {
            return false;
        }
    } scan;
    scan.a = first;
    scan.b = second;
    try {
        nlohmann::json::sax_parse(text.begin(), text.end(), &scan);
    } catch (const nlohmann::json::exception&) {
        return {};
    }
    return {scan.va, scan.vb};
}

void JsonReader::error(std::string where, std::string what) {
    errors_.push_back({std::move(where), std::move(what)});
}

bool JsonReader::expect_object(const nlohmann::json& j, std::string_view path) {
    if (j.is_object())
        return true;
    error(std::string(path), "expected an object, found " + json_type_name(j));
    return false;
}

bool JsonReader::expect_array(const nlohmann::json& j, std::string_view path) {
    if (j.is_array())
        return true;
    error(std::string(path), "expected an array, found " + json_type_name(j));
    return false;
}

const nlohmann::json* JsonReader::member(const nlohmann::json& obj, std::string_view path,
                                         std::string_view key, bool required) {
    if (!obj.is_object())
        return nullptr;
    auto it = obj.find(key);
    if (it != obj.end() && it->is_null() && null_is_error_) {
        error(json_member_path(path, key),
              "found null: give a value, or leave the key out to use the default");
        return nullptr;
    }
    if (it == obj.end() || it->is_null()) {
        if (required)
            error(json_member_path(path, key), "missing (required)");
        return nullptr;
    }
    return &*it;
}

std::optional<std::string> JsonReader::string(const nlohmann::json& obj, std::string_view path,
                                              std::string_view key, bool required) {
    const auto* m = member(obj, path, key, required);
    if (!m)
        return std::nullopt;
    if (!m->is_string()) {
        error(json_member_path(path, key), "expected a string, found " + json_type_name(*m));
        return std::nullopt;
    }
    return m->get<std::string>();
}

std::optional<double> JsonReader::number(const nlohmann::json& obj, std::string_view path,
                                         std::string_view key, bool required, double lo,
                                         double hi) {
    const auto* m = member(obj, path, key, required);
    if (!m)
        return std::nullopt;
    if (!m->is_number()) {
        error(json_member_path(path, key), "expected a number, found " + json_type_name(*m));
        return std::nullopt;
    }
    const double v = m->get<double>();
    if (!std::isfinite(v)) {
        error(json_member_path(path, key), "expected a finite number");
        return std::nullopt;
    }
    if (v < lo || v > hi) {
        error(json_member_path(path, key), "value " + m->dump() + " is outside [" +
                                               nlohmann::json(lo).dump() + ", " +
                                               nlohmann::json(hi).dump() + "]");
        return std::nullopt;
    }
    return v;
}

std::optional<std::int64_t> JsonReader::integer(const nlohmann::json& obj, std::string_view path,
                                                std::string_view key, bool required,
                                                std::int64_t lo, std::int64_t hi) {
    const auto* m = member(obj, path, key, required);
    if (!m)
        return std::nullopt;
    const std::string p = json_member_path(path, key);
    if (m->is_number_integer() || m->is_number_unsigned()) {
        if (m->is_number_unsigned() && m->get<std::uint64_t>() > static_cast<std::uint64_t>(hi)) {
            error(p, "value " + m->dump() + " is larger than " + std::to_string(hi));
            return std::nullopt;
        }
        const auto v = m->get<std::int64_t>();
        if (v < lo || v > hi) {
            error(p, "value " + m->dump() + " is outside [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]");
            return std::nullopt;
        }
        return v;
    }
    if (m->is_number_float()) {
        const double d = m->get<double>();
        if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(lo) ||
            d > static_cast<double>(hi)) {
            error(p, "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                         "], found " + m->dump());
            return std::nullopt;
        }
        return static_cast<std::int64_t>(d);
    }
    error(p, "expected an integer, found " + json_type_name(*m));
    return std::nullopt;
}

std::optional<bool> JsonReader::boolean(const nlohmann::json& obj, std::string_view path,
                                        std::string_view key, bool required) {
    const auto* m = member(obj, path, key, required);
    if (!m)
        return std::nullopt;
    if (!m->is_boolean()) {
        error(json_member_path(path, key), "expected true or false, found " + json_type_name(*m));
        return std::nullopt;
    }
    return m->get<bool>();
}

} // namespace cl::model
