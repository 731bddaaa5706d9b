#pragma once
// Error bars (issue 19): how far to trust a modelled number, from the held-out validation
// errors of comparable published runs. The rows are the leave-one-source-out errors the
// validation tests compute (predicted / published - 1, every global factor fitted without the
// row's own source); the tests write them to resources/validation/held_out_<kind>.json and fail
// when the bundled files differ from what they compute, so the bands always reflect the model
// as built. A band is the spread of the comparable rows' errors (distribution-free order
// statistics: about 9 in 10 new comparable runs should fall inside), never narrower than the
// single-run noise of a published figure, and wider when the case is far from every run.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cl::model {

enum class BandKind { training, serving, collective };

/// Collective rows are bandwidth-bound sizes (>= 64 MiB, where the validated nccl-tests rows
/// lie): a smaller message is far from them and gets a wider band.
inline constexpr double kBandwidthBoundBytes = 64.0 * 1024 * 1024;

/// One published configuration's held-out error.
struct HeldOutRow {
    std::string id, source;
    BandKind kind = BandKind::training;
    std::string arch;  ///< GPU generation ("ampere", "hopper", ...): gpu_generation()
    bool moe = false;  ///< mixture of experts
    bool fsdp = false; ///< fully sharded data parallel (ZeRO 3)
    bool pp = false;   ///< pipeline parallel
    double gpus = 0;
    double error = 0; ///< predicted / published - 1 (of a speed: throughput, bandwidth)
    /// A workstation or edge device (the catalog's device_class is set): single-stream decode
    /// there is a population of its own, kept apart from data-centre rows.
    bool edge = false;
};

/// The bundled held-out rows of every kind (parsed once).
const std::vector<HeldOutRow>& held_out_rows();
/// Reads one held_out_<kind>.json text; throws std::runtime_error on a malformed file.
std::vector<HeldOutRow> parse_held_out(std::string_view json_text);
/// Writes rows as a held_out_<kind>.json text (the validation tests, to regenerate a file).
std::string held_out_to_json(const std::vector<HeldOutRow>& rows, std::string_view generated_by);

/// What makes a modelled case comparable to published runs.
struct CaseTraits {
    BandKind kind = BandKind::training;
    std::string arch;
    bool moe = false, fsdp = false, pp = false;
    double gpus = 0;
    double bytes = 0;  ///< collectives: the message size (the rows are bandwidth-bound sizes)
    bool edge = false; ///< a workstation or edge device (HeldOutRow::edge)
    /// What the processors are called in the band's words: "GPUs", or "CPUs" for a CPU server
    /// and "NPUs" for an NPU (helper-12: "no validated run on zen GPUs").
    std::string processors = "GPUs";
};

struct ModelArch;
struct TrainingSpec;
struct InferenceSpec;
struct GpuSpec;
/// The GPU generation rows are compared by: the first word of the catalog's `arch`, lower case
/// ("Hopper GH100" -> "hopper"; H100 and H200 alike).
std::string gpu_generation(const GpuSpec& gpu);
/// The traits of a training job, a serving deployment and a collective on these GPUs.
CaseTraits training_case(const ModelArch& m, const TrainingSpec& t, const GpuSpec& gpu,
                         double gpus);
CaseTraits serving_case(const ModelArch& m, const InferenceSpec& s, const GpuSpec& gpu);
CaseTraits collective_case(const GpuSpec& gpu, double gpus, double bytes);

/// The band of a case: the range of predicted / published - 1 that comparable runs show.
struct Band {
    double error_low = 0, error_high = 0; ///< error_low <= 0 <= error_high
    int rows = 0;                         ///< comparable held-out rows it rests on
    double median_abs_error = 0, p90_abs_error = 0;
    std::vector<std::string> far; ///< why the case is far from the validated runs (widened)
    std::string basis;            ///< one sentence for people: which rows, how many, how far
};

/// The band for a case from the bundled rows (or `rows`), leaving out rows of `exclude_source`
/// (the coverage check: a row's own source never sets its band).
Band band_for(const CaseTraits& c, std::string_view exclude_source = {});
Band band_for(const CaseTraits& c, const std::vector<HeldOutRow>& rows,
              std::string_view exclude_source = {});

/// What a TTFT or TPOT band rests on, after its basis: the bands come from output-throughput
/// rows; the one published latency row (tst_validation_inference::mlperfLlama2_70b) is named.
inline constexpr const char* kLatencyBasis =
    "from output throughput (the one published latency row, MLPerf v4.1 Llama 2 70B: the "
    "model's mean TPOT 22 % below the run's)";

/// How a number moves with the model's speed: a throughput, bandwidth, MFU or FLOP/s rises
/// with it; a time, cost or GPU count falls with it.
enum class Scales { with_speed, with_time };
/// [low, high] for a modelled `value`: a speed v is published as v / (1 + e), a time t as
/// t * (1 + e), for e over the band.
std::pair<double, double> band_range(double value, const Band& b, Scales s);

/// "66.2–97.6": the band of `value` as text, both ends with `decimals` decimals (thousands
/// grouped), for captions, tooltips, explanations and reports.
std::string range_text(double value, const Band& b, Scales s, int decimals);
/// The same with each end formatted by `fmt` (units::format_ms, units::format_price): "93.1–173",
/// as the report's band table rounds each end.
std::string range_text(double value, const Band& b, Scales s, std::string (*fmt)(double));
/// A latency's band in the unit units::format_latency shows the latency in: "49.1–86.3 ms", or
/// "19.2–33.7 s" from 10 s (a batch job's first token).
std::string latency_range_text(double seconds, const Band& b);

/// Coverage of the held-out rows of one kind by bands built without their own source: the
/// share whose published value lies inside, and the median relative width (high / low - 1).
struct Coverage {
    int rows = 0, covered = 0;
    double median_width = 0;         ///< of the held-out bands (each without its row's source)
    double median_width_user = 0;    ///< of the bands a user sees (every source)
    std::vector<std::string> missed; ///< rows outside their held-out band: "id +56 % (-19..+45 %)"
};
Coverage coverage(BandKind kind, const std::vector<HeldOutRow>& rows);

[[nodiscard]] std::string_view band_kind_name(BandKind k);

} // namespace cl::model
