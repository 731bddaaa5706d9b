#pragma once
// Units (DESIGN.md "Units"): the model works in SI base units only -- bytes, seconds, FLOP,
// FLOP/s, bytes/s, watts, USD. Conversion happens at the edges (JSON, CLI, UI).
// GB = 1e9 bytes, GiB = 2^30 bytes; names say which.

#include <optional>
#include <string>
#include <string_view>

namespace cl::model::units {

inline constexpr double KB = 1e3, MB = 1e6, GB = 1e9, TB = 1e12;
inline constexpr double KiB = 1024.0, MiB = KiB * 1024.0, GiB = MiB * 1024.0, TiB = GiB * 1024.0;
inline constexpr double TFLOPS = 1e12;
inline constexpr double hour_s = 3600.0;
inline constexpr double day_s = 86400.0;
inline constexpr double bits_per_byte = 8.0;

/// Parses "1GiB", "400GB", "10G", "1e9", "512Ki" (CLI.md "Sizes"): K M G T = 10^3..,
/// Ki Mi Gi Ti = 2^10..; a trailing 'B' is allowed. Parsed in the C locale.
/// Returns nullopt for anything else, including NaN/inf and negative numbers.
std::optional<double> parse_size(std::string_view text);

/// Parses a plain finite number in the C locale ("3.5", "-2", "1e-3"); nullopt otherwise.
std::optional<double> parse_number(std::string_view text);

/// Formats bytes for people: "80.0 GB" (decimal) -- the UI and CLI tables use this.
std::string format_bytes(double bytes);
/// printf "%.*g": `significant` significant digits, C locale (tables, reports, explanations).
std::string format_g(double value, int significant);
/// printf "%.*f": `decimals` digits after the point, C locale.
std::string format_fixed(double value, int decimals);
/// A token count as people write it for training data: "10.0 B tokens", "2.0 T tokens",
/// "500.0 M tokens", "8,192 tokens" (billions as B, not SI's G; issue 21 found "10.0 G tokens"
/// and "10.0 Gtokens" in one report).
std::string format_tokens(double value);
/// Formats a rate with SI prefix and unit: format_si(989.4e12, "FLOP/s") = "989.4 TFLOP/s".
std::string format_si(double value, std::string_view unit, int precision = 1);

/// A number for machines (CSV): SI, C locale, ten significant digits, never in e-notation
/// between 1e-6 and 1e21 ("81280000000000", not "8.128e+13": a spreadsheet shows what it reads).
std::string format_plain(double value);

/// Decimals that show a latency in milliseconds to three significant digits: 128 ms, 45.3 ms,
/// 7.64 ms, 0.512 ms. Every screen, the CLI and the report round TTFT and TPOT this one way
/// (issue 21 found one TTFT as 59, 59.36 and 59.4 ms).
int ms_decimals(double ms);

/// A latency in milliseconds with ms_decimals: "128", "45.3", "7.64".
std::string format_ms(double ms);
/// Seconds as the report shows a step time: two decimals below 10 s, one above ("7.44", "12.9").
std::string format_seconds(double s);
/// A latency as people read it: milliseconds below 10 s ("221 ms", "7.43 ms"), seconds from
/// there ("25.7 s": a batch job's first token, helper-29 read "TTFT 25713 ms").
std::string format_latency(double seconds);
/// True when format_latency shows these seconds in seconds.
inline bool latency_in_seconds(double seconds) {
    return seconds >= 10.0;
}
/// A run's length in words: "8.42 s", "42.5 s", "3 min 12 s", "2 h 5 min", "546 days 19 h".
std::string format_duration(double s);
/// A price (no currency sign) one way everywhere (helper-9: "$0.57" on page 1 beside "$0.569"
/// in its chart's caption): two decimals from 1 to 100 ("7.91", "12.50"), whole from 100
/// ("1,234"), three significant digits below 1 with at least two decimals ("0.569", "0.08").
std::string format_price(double usd);

/// Dollars in short, for captions and legends: three significant digits with k, M or B
/// ("$357k", "$15.6M", "$889M", "$1.04B"; whole dollars below $1,000). Helper-10 read "$888.70M"
/// beside "$1.04B" in one caption; tables keep every dollar ("$15,580,123").
std::string format_usd_short(double usd);

/// Kilowatts (no unit) one way everywhere (helper-10: "10 kW" in the inspector beside "10.2 kW"
/// under the chart): one decimal below 1,000 kW ("10.2"), whole with separators above
/// ("1,234").
std::string format_kw(double kw);

/// A whole number with thousands separators: format_count(1234567) = "1,234,567" (rounded).
std::string format_count(double value);

/// Text from a file as a screen or a report shows it: whole when it has at most `max_bytes`
/// bytes, else its first `max_bytes` bytes (cut at a UTF-8 character boundary) and
/// "… (66.1 MB in all, shown in part)". Laying out a 63 MiB description took the GUI 2 minutes
/// and 2.5 GB (issue 17); the text itself is kept whole in the design.
std::string excerpt(std::string_view text, std::size_t max_bytes = 2000);

/// A source citation as a person reads it: "github:jax-ml/scaling-book gpus.md @1a55377
/// ('How to Think About GPUs', 2025-08-18)" becomes "'How to Think About GPUs', 2025-08-18
/// (jax-ml/scaling-book, gpus.md)": the commit a file was read at is for the catalog, not for
/// the reader (issue 21: the server inspector showed "gpus.md @1a55377"). Other text is kept.
std::string readable_source(std::string_view source);

} // namespace cl::model::units
