#pragma once
// Pieces shared by the CLI's commands: output envelope, tables, catalog and model resolution.

#include "cli_flags.h"
#include "model/architecture.h"
#include "model/catalog.h"
#include "model/design.h"
#include "model/inference.h"
#include "model/reliability.h"
#include "model/tco.h"
#include "model/topology.h"
#include "model/training.h"
#include "model/uncertainty.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <iomanip>
#include <locale>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#ifndef CLUSTERLENS_VERSION
#define CLUSTERLENS_VERSION "0.0.0"
#endif

namespace cl::cli {

/// {"schema_version": 1, "version": ..., "inputs": {...}}
inline nlohmann::json envelope(const Flags& f) {
    return nlohmann::json{
        {"schema_version", 1}, {"version", CLUSTERLENS_VERSION}, {"inputs", f.inputs()}};
}

/// The first number in `j` that is not finite ("" when none), as a JSON path. nlohmann prints
/// NaN and infinity as null, which a reader takes for "not applicable".
inline std::string non_finite_path(const nlohmann::json& j, const std::string& path = "") {
    if (j.is_number_float() && !std::isfinite(j.get<double>()))
        return path.empty() ? "(result)" : path;
    if (j.is_object())
        for (auto it = j.begin(); it != j.end(); ++it)
            if (auto p = non_finite_path(*it, path.empty() ? it.key() : path + "." + it.key());
                !p.empty())
                return p;
    if (j.is_array())
        for (std::size_t i = 0; i < j.size(); ++i)
            if (auto p = non_finite_path(j[i], path + "[" + std::to_string(i) + "]"); !p.empty())
                return p;
    return {};
}

/// Prints a JSON result, or refuses (exit 2, nothing on stdout) when a number in it is not
/// finite: the contract is no partial JSON and no null numbers (CLI.md).
inline void print_json(std::ostream& out, const nlohmann::json& j) {
    if (const std::string p = non_finite_path(j); !p.empty())
        throw UsageError{"the result " + p +
                         " is not a finite number for these inputs; nothing was printed "
                         "(use values within realistic ranges)"};
    out << j.dump(2) << '\n';
}

/// Fixed-point number in the C locale.
inline std::string fmt(double v, int prec = 1) {
    std::ostringstream s;
    s.imbue(std::locale::classic());
    s << std::fixed << std::setprecision(prec) << v;
    return s.str();
}

/// Display columns of UTF-8 text: one per code point ("×", "−" and "–" are one column each,
/// two or three bytes).
inline std::size_t display_width(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80;
    return n;
}

/// `s` broken at spaces into lines of at most `width` display columns (a longer word stays
/// whole on its own line).
inline std::vector<std::string> wrap_words(const std::string& s, std::size_t width) {
    std::vector<std::string> lines;
    if (display_width(s) <= width) {
        lines.push_back(s);
        return lines;
    }
    std::string cur;
    std::size_t pos = 0;
    while (pos <= s.size()) {
        std::size_t sp = s.find(' ', pos);
        if (sp == std::string::npos)
            sp = s.size();
        const std::string word = s.substr(pos, sp - pos);
        if (!cur.empty() && display_width(cur) + 1 + display_width(word) > width) {
            lines.push_back(cur);
            cur = word;
        } else {
            cur += (cur.empty() ? "" : " ") + word;
        }
        pos = sp + 1;
    }
    if (!cur.empty())
        lines.push_back(cur);
    return lines;
}

/// A plain text table with aligned columns. A cell wider than Table::max_width wraps at spaces
/// onto continuation lines, the other columns blank there (helper-48: the attention-DP row made
/// the table ~200 characters wide).
struct Table {
    static constexpr std::size_t max_width = 56;
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    void print(std::ostream& out) const {
        std::vector<std::size_t> w(header.size());
        for (std::size_t i = 0; i < header.size(); ++i)
            w[i] = display_width(header[i]);
        for (const auto& r : rows)
            for (std::size_t i = 0; i < r.size() && i < w.size(); ++i)
                w[i] = std::max(w[i], std::min(max_width, display_width(r[i])));
        auto line = [&](const std::vector<std::string>& r) {
            std::vector<std::vector<std::string>> cells;
            std::size_t height = 1;
            for (std::size_t i = 0; i < r.size(); ++i) {
                cells.push_back(wrap_words(r[i], std::max(max_width, i < w.size() ? w[i] : 0)));
                height = std::max(height, cells.back().size());
            }
            for (std::size_t k = 0; k < height; ++k) {
                std::string s;
                std::size_t last = 0; // the last column with text on this line
                for (std::size_t i = 0; i < cells.size(); ++i)
                    if (k < cells[i].size())
                        last = i;
                for (std::size_t i = 0; i <= last; ++i) {
                    std::string cell = k < cells[i].size() ? cells[i][k] : "";
                    const std::size_t dw = display_width(cell);
                    if (i < last && i < w.size() && dw < w[i])
                        cell.append(w[i] - dw, ' ');
                    s += (i ? "  " : "") + cell;
                }
                out << s << '\n';
            }
        };
        line(header);
        std::vector<std::string> dashes;
        for (auto x : w)
            dashes.emplace_back(x, '-');
        line(dashes);
        for (const auto& r : rows)
            line(r);
    }
};

/// The "routed experts" row of `infer` and `evaluate`: "EP 8 (whole experts)", "split over
/// TP 8 (EP 1)", with the busiest GPU's expert reads where they exceed the mean.
std::string routed_experts_words(const model::InferenceResult& r, int tp);
/// The "attention DP" row: which steps wait for the busiest rank, by how much, and why.
std::string attention_dp_words(const model::InferenceResult& r, int tp);

/// The bundled catalog merged with the user's catalog file (--catalog or the default path).
model::Catalog load_catalog(Flags& f);
/// A design file path or a bundled preset id.
model::Design load_design_arg(const std::string& arg, const model::Catalog& cat);
/// --model (id or config.json) plus architecture overrides, validated.
model::ModelArch resolve_model(Flags& f, const model::Catalog& cat);
/// The cluster shape from --fabric (a drawn design) or from --gpu and the shape flags.
/// The GPU type of a cluster, or a usage error when it has none.
const model::GpuSpec& cluster_gpu(const model::Topology& topo, const model::Catalog& cat);
/// --gpu (default h100-sxm).
const model::GpuSpec& resolve_gpu(Flags& f, const model::Catalog& cat);

/// The cluster shape from --fabric (a drawn design) or --gpu and the shape flags.
model::Topology cluster_topology(Flags& f, const model::Catalog& cat, std::string* source);

/// The CLI.md "memory" object (memory, train, infer and evaluate print it).
nlohmann::json memory_json(const model::MemoryBreakdown& per_gpu, double capacity_bytes,
                           double headroom_bytes, bool fits, int worst_stage);
/// The CLI.md "train" object (shared by `train` and `evaluate`); time/cost keys only when set.
nlohmann::json train_json(const model::TrainingResult& r);
/// The CLI.md "tco" and "reliability" objects (shared by those commands and `evaluate`).
nlohmann::json tco_json(const model::TcoResult& t);
/// `v`, or null where it was not computed (a side of the TCO that could not be costed).
nlohmann::json nullable(double v, bool valid);
nlohmann::json reliability_json(const model::ReliabilityResult& r);
void print_tco(const model::TcoResult& t, std::ostream& out);
void print_reliability(const model::ReliabilityResult& r, std::ostream& out);
/// The CLI.md "infer" object (shared by `infer` and `evaluate`).
nlohmann::json infer_json(const model::InferenceResult& r);
/// Issue 19: beside each headline key of a "train", "infer" or "collective" object that is
/// present, `<key>_range: [low, high]`, and `"uncertainty": {"<key>": {"basis", "rows",
/// "held_out_median_error"}}` (CLI.md). `kind` picks the keys and how each moves with speed.
void add_bands(nlohmann::json& obj, const model::Band& band, model::BandKind kind);
/// The same for the named keys (a cost that scales with a modelled time: `run_cost`).
void add_bands(nlohmann::json& obj, const model::Band& band,
               const std::vector<std::pair<const char*, model::Scales>>& keys);

int cmd_memory(Flags& f, std::ostream& out);
int cmd_collective(Flags& f, std::ostream& out);
int cmd_train(Flags& f, std::ostream& out);
int cmd_search(Flags& f, std::ostream& out);
int cmd_infer(Flags& f, std::ostream& out);
int cmd_roofline(Flags& f, std::ostream& out);
int cmd_tco(Flags& f, std::ostream& out);
int cmd_reliability(Flags& f, std::ostream& out);
int cmd_fleet(Flags& f, const std::vector<std::string>& pos, std::ostream& out);

} // namespace cl::cli
