// The report tables (CSV; the PDF lays out the same tables): any loadable design in, tables out
// whose CSV reads back cell for cell (RFC 4180 quoting), with no text cell a spreadsheet would
// run as a formula -- never a crash.
#include "model/catalog.h"
#include "model/design.h"
#include "model/evaluate.h"
#include "model/report.h"

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace {

/// Reads RFC 4180 CSV back into rows of cells; aborts on a malformed quote.
std::vector<std::vector<std::string>> read_csv(const std::string& s) {
    std::vector<std::vector<std::string>> rows(1);
    std::string cell;
    bool quoted = false, in_quotes = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (in_quotes) {
            if (c == '"' && i + 1 < s.size() && s[i + 1] == '"') {
                cell += '"';
                ++i;
            } else if (c == '"') {
                in_quotes = false;
            } else {
                cell += c;
            }
        } else if (c == '"') {
            if (!cell.empty() || quoted)
                std::abort(); // a quote inside an unquoted cell
            quoted = in_quotes = true;
        } else if (c == ',') {
            rows.back().push_back(cell);
            cell.clear();
            quoted = false;
        } else if (c == '\r' && i + 1 < s.size() && s[i + 1] == '\n') {
            rows.back().push_back(cell);
            cell.clear();
            quoted = false;
            rows.emplace_back();
            ++i;
        } else {
            cell += c;
        }
    }
    if (in_quotes)
        std::abort();
    if (!cell.empty())
        rows.back().push_back(cell);
    if (rows.back().empty())
        rows.pop_back();
    return rows;
}

bool is_number(const std::string& s) {
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cl::model;
    static const Catalog catalog = Catalog::bundled().value();
    auto d = design_from_json(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz",
                              &catalog);
    if (!d.ok() || d->devices.size() > 200 || d->links.size() > 200 || d->workloads.size() > 8)
        return 0;
    const Evaluation ev = evaluate(*d, catalog);
    const auto tables = report_tables(*d, ev, catalog);
    for (const auto& t : tables) {
        const auto rows = read_csv(table_to_csv(t));
        if (rows.size() != t.rows.size() + 1)
            std::abort();
        for (const auto& r : rows)
            for (const auto& cell : r)
                if (!cell.empty() &&
                    std::string_view("=+-@\t\r").find(cell[0]) != std::string_view::npos &&
                    !is_number(cell))
                    std::abort(); // a formula-looking text cell was not neutralised
    }
    (void)tables_to_csv(tables);
    return 0;
}
