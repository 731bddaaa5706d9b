#pragma once
// The terms of the trade a report uses, each said in words with its source (issue 21: "busbw",
// "HFU" and "Young/Daly" appeared in the report with no word on what they mean).

#include <string>
#include <string_view>
#include <vector>

namespace cl::model {

struct GlossaryEntry {
    std::string term;    ///< as the report writes it: "MFU", "busbw"
    std::string meaning; ///< one or two sentences, in words
    std::string source;  ///< where the definition comes from
};

/// Every term of the glossary that `text` uses, in the glossary's order. A term matches as a
/// whole word; one in capitals (MFU, TP) only in capitals, others ("goodput", "spot") in any case.
std::vector<GlossaryEntry> glossary_for(std::string_view text);

/// The whole glossary (for docs and tests).
const std::vector<GlossaryEntry>& glossary();

} // namespace cl::model
