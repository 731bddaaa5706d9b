// The CLI argument parser and every command behind it: arguments are the input split at NUL
// bytes. Commands that write files (report) are skipped; search is skipped to keep each input
// fast (its inputs go through the same flag parser).
#include "cli.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> args;
    std::string cur;
    for (std::size_t i = 0; i < size; ++i) {
        if (data[i] == 0) {
            args.push_back(cur);
            cur.clear();
        } else {
            cur.push_back(static_cast<char>(data[i]));
        }
    }
    args.push_back(cur);
    if (args.size() > 24)
        return 0;
    for (const auto& a : args)
        if (a == "report" || a == "search" || a == "-o" || a.rfind("--output", 0) == 0)
            return 0;
    std::ostringstream out, err;
    const int code = cl::cli::run_cli(args, out, err);
    if (code != 0 && code != 2)
        __builtin_trap(); // the contract: 0 or 2, nothing else
    return 0;
}
