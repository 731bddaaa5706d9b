#pragma once
// Two (or more) designs side by side: the key numbers of each, matched by meaning (the first
// training and the first serving workload of each), with the relative change from the first.

#include "model/design.h"
#include "model/evaluate.h"

#include <optional>
#include <string>
#include <vector>

namespace cl::model {

struct CompareRow {
    std::string metric, unit;
    std::vector<std::optional<double>> values; ///< one per design (nullopt: not applicable)
    bool lower_is_better = false;
};

/// Rows for the evaluated designs (at least one).
std::vector<CompareRow> compare_designs(const std::vector<const Evaluation*>& evs);

} // namespace cl::model
