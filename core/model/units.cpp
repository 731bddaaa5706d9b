#include "model/units.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

namespace cl::model::units {

std::optional<double> parse_number(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    if (text.empty())
        return std::nullopt;
    if (text.front() == '+')
        text.remove_prefix(1);
    double v = 0;
    // std::from_chars is locale-independent (always the C locale).
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

std::optional<double> parse_size(std::string_view text) {
    std::string_view t = text;
    if (!t.empty() && (t.back() == 'B' || t.back() == 'b'))
        t.remove_suffix(1);
    double mult = 1.0;
    static constexpr std::pair<std::string_view, double> suffixes[] = {
        {"Ki", KiB}, {"Mi", MiB}, {"Gi", GiB}, {"Ti", TiB}, {"K", KB},
        {"k", KB},   {"M", MB},   {"G", GB},   {"T", TB},
    };
    for (const auto& [s, m] : suffixes) {
        if (t.size() > s.size() && t.substr(t.size() - s.size()) == s) {
            mult = m;
            t.remove_suffix(s.size());
            break;
        }
    }
    auto v = parse_number(t);
    if (!v || *v < 0)
        return std::nullopt;
    const double r = *v * mult;
    if (!std::isfinite(r))
        return std::nullopt;
    return r;
}

std::string format_si(double value, std::string_view unit, int precision) {
    if (value == 0) // "0 B", not "0.0 B" (helper-24)
        return "0 " + std::string(unit);
    static constexpr std::pair<double, const char*> prefixes[] = {
        {1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
    const char* p = "";
    double v = value;
    for (const auto& [scale, name] : prefixes) {
        if (std::fabs(value) >= scale) {
            v = value / scale;
            p = name;
            break;
        }
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f %s%.*s", precision, v, p, static_cast<int>(unit.size()),
                  unit.data());
    return buf;
}

std::string format_g(double value, int significant) {
    char b[64];
    std::snprintf(b, sizeof b, "%.*g", significant, value);
    return b;
}

std::string format_fixed(double value, int decimals) {
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", decimals, value);
    return b;
}

int ms_decimals(double ms) {
    const double a = std::fabs(ms);
    return a >= 99.95 ? 0 : a >= 9.995 ? 1 : a >= 0.9995 ? 2 : 3;
}

std::string format_ms(double ms) {
    return format_fixed(ms, ms_decimals(ms));
}

std::string format_seconds(double s) {
    return format_fixed(s, std::fabs(s) < 10 ? 2 : 1);
}

std::string format_latency(double seconds) {
    if (latency_in_seconds(seconds))
        return format_seconds(seconds) + " s";
    return format_ms(seconds * 1e3) + " ms";
}

std::string format_duration(double s) {
    if (!std::isfinite(s) || s < 0)
        return "-";
    if (s < 59.95)
        return format_fixed(s, s < 10 ? 2 : 1) + " s";
    const long long whole = std::llround(s);
    if (whole < 3600) {
        const long long sec = whole % 60;
        return std::to_string(whole / 60) + " min" + (sec ? " " + std::to_string(sec) + " s" : "");
    }
    const long long minutes = std::llround(s / 60.0);
    if (minutes < 48 * 60) {
        const long long min = minutes % 60;
        return std::to_string(minutes / 60) + " h" +
               (min ? " " + std::to_string(min) + " min" : "");
    }
    const long long hours = std::llround(s / 3600.0);
    const long long h = hours % 24;
    return format_count(static_cast<double>(hours / 24)) + " days" +
           (h ? " " + std::to_string(h) + " h" : "");
}

std::string format_price(double usd) {
    const double a = std::fabs(usd);
    if (a >= 99.5)
        return format_count(usd);
    if (a >= 1 || a == 0)
        return format_fixed(usd, 2);
    // Three significant digits, trailing zeros dropped down to two decimals: 0.569, 0.08.
    const int sig = 2 - static_cast<int>(std::floor(std::log10(a)));
    std::string s = format_fixed(usd, std::min(sig, 6));
    while (s.size() > 1 && s.back() == '0' && s.size() - s.find('.') > 3)
        s.pop_back();
    return s;
}

std::string format_usd_short(double usd) {
    const double a = std::fabs(usd);
    const char* sign = usd < 0 ? "-$" : "$";
    if (!std::isfinite(usd) || a < 999.5)
        return sign + format_count(a);
    // Rounded to three significant digits first, so $999,700 reads "$1.00M", not "$1,000k".
    const int e = static_cast<int>(std::floor(std::log10(a)));
    const double step = std::pow(10.0, e - 2);
    const double r = std::round(a / step) * step;
    const double scale = r >= 1e9 ? 1e9 : r >= 1e6 ? 1e6 : 1e3;
    const char* unit = r >= 1e9 ? "B" : r >= 1e6 ? "M" : "k";
    const double v = r / scale;
    const int decimals = v >= 100 ? 0 : v >= 10 ? 1 : 2;
    return sign + (v >= 1000 ? format_count(v) : format_fixed(v, decimals)) + unit;
}

std::string format_kw(double kw) {
    return std::fabs(kw) >= 1000 ? format_count(kw) : format_fixed(kw, 1);
}

std::string format_bytes(double bytes) {
    return format_si(bytes, "B");
}

std::string format_plain(double value) {
    const double a = std::abs(value);
    // Plain digits down to a picosecond's worth (a per-item cost in seconds: 0.000000008), so a
    // CSV cell never reads "8e-09".
    if (!std::isfinite(value) || value == 0 || a < 1e-13 || a >= 1e21)
        return format_g(value, 10);
    const int digits = static_cast<int>(std::floor(std::log10(a))) + 1;
    std::string out = format_fixed(value, std::clamp(10 - digits, 0, 24));
    if (out.find('.') != std::string::npos) {
        while (out.back() == '0')
            out.pop_back();
        if (out.back() == '.')
            out.pop_back();
    }
    return out;
}

std::string format_tokens(double value) {
    const double a = std::fabs(value);
    if (!std::isfinite(value) || a < 1e6)
        return format_count(value) + " tokens";
    const char* unit = a >= 1e12 ? "T" : a >= 1e9 ? "B" : "M";
    const double scale = a >= 1e12 ? 1e12 : a >= 1e9 ? 1e9 : 1e6;
    return format_fixed(value / scale, 1) + " " + unit + " tokens";
}

std::string format_count(double value) {
    if (!std::isfinite(value))
        return format_g(value, 6);
    const bool negative = value < 0;
    std::string digits = format_fixed(std::fabs(value), 0);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return negative ? "-" + out : out;
}

std::string excerpt(std::string_view text, std::size_t max_bytes) {
    if (text.size() <= max_bytes)
        return std::string(text);
    std::size_t cut = max_bytes;
    // Step back over UTF-8 continuation bytes (10xxxxxx): the cut never splits a character.
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    return std::string(text.substr(0, cut)) + "\u2026 (" +
           format_bytes(static_cast<double>(text.size())) + " in all, shown in part)";
}

std::string readable_source(std::string_view source) {
    std::string s(source);
    // Commit markers: " @" followed by 7 to 40 hex digits and then a space, "," or the end.
    for (std::size_t at = s.find(" @"); at != std::string::npos; at = s.find(" @", at + 1)) {
        std::size_t e = at + 2;
        while (e < s.size() && std::isxdigit(static_cast<unsigned char>(s[e])) != 0)
            ++e;
        const std::size_t n = e - at - 2;
        if (n >= 7 && n <= 40 && (e == s.size() || s[e] == ' ' || s[e] == ',' || s[e] == ')'))
            s.erase(at, e - at);
    }
    if (s.rfind("github:", 0) != 0)
        return s;
    s.erase(0, 7);
    // "owner/repo path (what it is)" -> "what it is (owner/repo, path)".
    const std::size_t open = s.find(" (");
    if (open == std::string::npos || s.back() != ')')
        return s;
    std::string where = s.substr(0, open);
    const std::string what = s.substr(open + 2, s.size() - open - 3);
    if (const std::size_t sp = where.find(' '); sp != std::string::npos)
        where = where.substr(0, sp) + "," + where.substr(sp);
    return what + " (" + where + ")";
}

} // namespace cl::model::units
