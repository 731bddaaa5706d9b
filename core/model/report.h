#pragma once
// Report content shared by the GUI's exports and `clusterlens-cli report`: every table of an
// evaluated design, and CSV writing (RFC 4180 quoting). PDF layout lives in widgets/report.

#include "model/catalog.h"
#include "model/design.h"
#include "model/evaluate.h"

#include <string>
#include <vector>

namespace cl::model {

struct ReportTable {
    std::string id;    ///< file-name friendly: "topology", "memory", "tco_monthly", ...
    std::string title; ///< for people
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};

/// Every table: topology, bill of materials, per-workload memory / training / serving,
/// reliability, TCO breakdown and monthly curve, assumptions with sources, explanations.
std::vector<ReportTable> report_tables(const Design& d, const Evaluation& ev, const Catalog& c);

/// One CSV with a leading "table" column (CLI.md `report -o FILE.csv`).
std::string tables_to_csv(const std::vector<ReportTable>& tables);
/// One table as CSV (one file per table: `report -o DIR/`).
std::string table_to_csv(const ReportTable& t);

} // namespace cl::model
