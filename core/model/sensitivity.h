#pragma once
// Which inputs move a chosen output most: each input is moved down and up by a relative step
// (default ±20%) with everything else held, the output recomputed with the same model, and
// the swings sorted largest first (a tornado chart). Pure function of the design.

#include "model/catalog.h"
#include "model/design.h"

#include <string>
#include <vector>

namespace cl::model {

enum class SensitivityOutput {
    onprem_minus_cloud_usd,     ///< horizon on-prem cost minus cloud cost (negative: owning wins)
    amortized_usd_per_gpu_hour, ///< on-prem $/GPU-hour used
    training_cost_usd,          ///< the first training workload's run at the cloud rate
    usd_per_million_tokens      ///< the first inference workload's $/M output tokens
};
const char* sensitivity_output_name(SensitivityOutput o);

struct SensitivityBar {
    std::string input;                    ///< "Utilization", "Server price", ...
    std::string unit;                     ///< the input's unit ("fraction", "USD/server", ...)
    double low_value = 0, high_value = 0; ///< the input at -step and +step
    double output_low = 0, output_high = 0;
    /// Issue 19: both ends of the bar lie inside the output's error band (band_low..band_high
    /// of the result): not a difference the model can tell.
    bool within_model_error = false;
    [[nodiscard]] double swing() const {
        return output_high > output_low ? output_high - output_low : output_low - output_high;
    }
};

struct SensitivityResult {
    SensitivityOutput output;
    double base = 0;
    double step = 0.2;
    std::vector<SensitivityBar> bars; ///< largest swing first
    std::string error;                ///< why the output cannot be computed
    /// The model's typical error of the output (the held-out median |error| of the workload's
    /// band); 0 for outputs the performance model does not set (the TCO outputs).
    double model_error = 0;
    /// The output's error band around `base` (0, 0 when it has none).
    double band_low = 0, band_high = 0;
};

SensitivityResult sensitivity(const Design& d, const Catalog& c, SensitivityOutput output,
                              double step = 0.2);

} // namespace cl::model
