#pragma once
// clusterlens-cli: the headless contract of ../shared/CLI.md. run_cli() is the whole program
// (parse, evaluate, print) so tests and fuzzers call it in-process. It depends on core/model
// only.

#include <iosfwd>
#include <string>
#include <vector>

namespace cl::cli {

/// Runs the CLI on `args` (without the program name). Returns the exit code: 0 success,
/// 2 bad input (one-line message on `err`).
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace cl::cli
