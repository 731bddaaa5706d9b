#pragma once
#include <cstdint>
// "Import nccl-tests output": parse, fit per-tier latency and bandwidth, show the error before
// and after, and store the fit in the design (one undoable command).

#include "document/document.h"

class QWidget;

namespace cl::ui {

/// Runs the import on `path` (asks for a file when empty). Returns a status message, or an
/// empty string when the user cancelled. `confirm` = false applies without asking (tests).
QString importNcclTests(doc::Document* doc, QWidget* parent, const QString& path = {},
                        bool confirm = true);

/// "Import Job Trace" (issue 23): reads a SenseTime Helios cluster log (model::parse_helios_trace)
/// and stores it in the design's job mix, replayed instead of the classes on the drawn nodes of
/// `gpus_per_node` GPUs (the horizon set to the span of the jobs that fit the `whole_gpus` GPUs
/// not on MIG or time-sliced nodes). One undoable command. Returns a status message, or an empty
/// string when the user cancelled.
QString importJobTrace(doc::Document* doc, QWidget* parent, int gpus_per_node,
                       std::int64_t whole_gpus, const QString& path = {}, bool confirm = true);
/// Takes the trace out of the design's job mix (the classes run again); one undoable command.
/// Simulated days and Warm-up the import set (the replay's, for `whole_gpus`) go back to the
/// Fleet section's defaults; values edited since are kept.
QString removeJobTrace(doc::Document* doc, std::int64_t whole_gpus);

} // namespace cl::ui
