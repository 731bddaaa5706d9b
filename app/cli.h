#pragma once
// clusterlens-cli: the headless contract of ../shared/CLI.md. run_cli() is the whole program
// (parse, evaluate, print) so tests and fuzzers call it in-process. It depends on core/model
// only.

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace cl::model {
struct Design;
struct Evaluation;
class Catalog;
} // namespace cl::model

namespace cl::cli {

/// Writes a PDF report of an evaluated design to `path`; returns an error text (empty on
/// success). The Qt-based writer is registered by the executable when the GUI libraries are
/// built (the CLI library itself stays Qt-free).
using PdfWriter = std::function<std::string(const std::string& path, const model::Design&,
                                            const model::Evaluation&, const model::Catalog&)>;
void set_pdf_writer(PdfWriter writer);

/// Runs the CLI on `args` (without the program name). Returns the exit code: 0 success,
/// 2 bad input (one-line message on `err`).
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace cl::cli
