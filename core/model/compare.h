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
    /// Issue 19, per design: the model's typical error for this number (the held-out median
    /// |error| of its band; 0 when the number does not rest on the performance model).
    std::vector<double> model_error;
    /// Per design (false for the first): the change from the first design is smaller than the
    /// model's error band -- either value lies inside the other's band (uncertainty.h) --
    /// "within the model's error".
    std::vector<bool> within_model_error;
    /// Per design (0 for the first): +1 better than the first design, -1 worse, 0 the same,
    /// not comparable or within the model's error.
    std::vector<int> verdict;
    /// A row of words, not numbers (the GPU type), one per design; `values` are then all
    /// nullopt. Empty for numeric rows.
    std::vector<std::string> texts;
};

/// Rows for the evaluated designs (at least one).
std::vector<CompareRow> compare_designs(const std::vector<const Evaluation*>& evs);

} // namespace cl::model
