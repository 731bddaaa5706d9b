#pragma once
// "How is this computed?" for every key number: the formula, the inputs with their values and
// the source of each default. Built from an Evaluation (no recomputation), shown by the GUI's
// Explain panel and printed in reports.

#include "model/design.h"
#include "model/evaluate.h"

#include <string>
#include <vector>

namespace cl::model {

struct ExplainedInput {
    std::string name, value, source; ///< source: paper/doc, "design", "catalog: <source>", ...
};

struct Explanation {
    std::string key;     ///< stable id: "<workload>.mfu", "design.tco.breakeven", ...
    std::string subject; ///< workload or design name
    std::string title;   ///< "MFU"
    std::string value;   ///< "41.4 %"
    std::string formula; ///< in words and symbols
    std::vector<ExplainedInput> inputs;
};

std::vector<Explanation> explain(const Design& d, const Evaluation& ev, const Catalog& c);

/// Every assumption behind the numbers (defaults and the design's own inputs) with its value,
/// unit and source: the report's "assumptions" table.
struct AssumptionRow {
    std::string group, name, value, unit, source;
    std::string shown; ///< the value as people read it, unit included ("2.00 GB", "85.0 %")
    /// The source as the report shows it beside `shown` (empty: `source`). An input left to
    /// derive itself says how in `shown` ("Auto: ... the failure rate") and its default's source
    /// here, not both again (helper-9: "Auto: x" beside "auto (x); default: ...").
    std::string shown_source;
};
/// With `ev` (the design's evaluation), an input left unset (stored as 0: "derive it") shows the
/// value the evaluation used and where it came from ("Auto: 3,167 h, from the failure rate"),
/// not 0 (issue 21: the report listed "Job MTBF 0.0 h" beside a 3,167 h result).
/// With the catalog, settings of devices the design lacks (unified memory) are left out too.
std::vector<AssumptionRow> assumptions(const Design& d, const Evaluation* ev = nullptr,
                                       const Catalog* c = nullptr);

} // namespace cl::model
