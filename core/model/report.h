#pragma once
// Report content shared by the GUI's exports and `clusterlens-cli report`: every table of an
// evaluated design, and CSV writing (RFC 4180 quoting). PDF layout lives in widgets/report.

#include "model/catalog.h"
#include "model/compare.h"
#include "model/design.h"
#include "model/evaluate.h"
#include "model/sensitivity.h"

#include <string>
#include <vector>

namespace cl::model {

struct ReportTable {
    std::string id;    ///< file-name friendly: "topology", "memory", "tco_monthly", ...
    std::string title; ///< for people
    std::vector<std::string> header;            ///< stable keys (CSV)
    std::vector<std::vector<std::string>> rows; ///< SI numbers, C locale (CSV)
    std::vector<std::string> units;             ///< per column: "bytes", "s", "USD", "" (CSV)
    std::vector<std::string> labels;            ///< per column, for people ("Step time")
    /// The rows for people (the PDF): human units and separators ("22.2 GB", "$1,234,567",
    /// "3,167 h", "92.6 %"), never scientific notation; same shape as `rows`.
    std::vector<std::vector<std::string>> display;
};

/// How a number reads in a report (human units; units.h formats).
enum class ReportFormat {
    text,
    count,      ///< 1,016
    bytes,      ///< 22.2 GB
    flops,      ///< 15.8 PFLOP/s
    bytes_rate, ///< 400.0 GB/s
    seconds,    ///< 12.3 ms, 3.37 s, 12.5 min, 3.4 h, 41.2 days
    hours,      ///< 3,167 h
    usd,        ///< $1,234,567
    usd_rate,   ///< $2.49
    percent,    ///< 92.6 % (from a fraction)
    ratio,      ///< 6.85, 8, 1.04 (three significant digits)
    number      ///< plain, 4 significant digits, separators above 10,000
};
/// A value as a report shows it to people.
std::string report_human(double v, ReportFormat f);
/// A value in a schema or catalog unit ("bytes", "s", "fraction", "USD/kWh", "of capex",
/// "tokens", ...) as people read it, unit included: "2.00 GB", "85.0 %", "$0.08/kWh".
std::string report_value(double v, const std::string& unit);

/// Every table: topology, bill of materials, per-workload memory / training / serving,
/// reliability, TCO breakdown and monthly curve, assumptions with sources, explanations.
/// `with_sensitivity`: also the cost sensitivity table (computed here: one evaluation per input
/// and end; the PDF has it from report_summary instead).
std::vector<ReportTable> report_tables(const Design& d, const Evaluation& ev, const Catalog& c,
                                       bool with_sensitivity = false);

/// The cost sensitivity (on-prem minus cloud, each input down and up) as a table: stable keys,
/// each input's unit on its row, SI numbers for the CSV; human units for the PDF. Empty (no
/// rows) when the analysis has an error.
ReportTable sensitivity_table(const SensitivityResult& s);

/// The report's first page for a manager: for each workload what was asked, the verdict (fits
/// or not, and why) and the headline numbers with their error bands; for the design the cost
/// verdict (break-even) and the inputs that move the cost most. Plain sentences, human units.
struct ReportSummary {
    struct Item {
        std::string heading; ///< "Llama 3.1 405B pre-training"
        std::string asked;   ///< "Train Llama 3.1 405B on 16,384 H100 SXM ..."
        std::string verdict; ///< "Fits: 62.1 GB of 80.0 GB per GPU" / "Does not fit: ..."
        bool ok = true;      ///< fits and computed
        std::vector<std::string> lines; ///< "Time to train: 41.2 days (38.1 to 49.0 days)"
    };
    std::vector<Item> workloads;
    std::vector<std::string> design;      ///< cluster, cost verdict, goodput
    std::vector<std::string> sensitivity; ///< the top three inputs that move the cost
    /// The analysis behind `sensitivity` (on-prem minus cloud), kept for the report's table so
    /// it is computed once per export.
    SensitivityResult cost_sensitivity;
};
ReportSummary report_summary(const Design& d, const Evaluation& ev, const Catalog& c);

/// Issue 21: designs compared side by side (Tools > Compare) as a report table: each design's
/// key numbers (compare.h) in human units, and each design's change from the first ("+12.3 %",
/// "+0.4 %, within the model's error"). `names` one per evaluation.
ReportTable comparison_table(const std::vector<std::string>& names,
                             const std::vector<const Evaluation*>& evs);

/// One CSV with a leading "table" column (CLI.md `report -o FILE.csv`).
std::string tables_to_csv(const std::vector<ReportTable>& tables);
/// One table as CSV (one file per table: `report -o DIR/`).
std::string table_to_csv(const ReportTable& t);

} // namespace cl::model
