#pragma once
// "Import nccl-tests output": parse, fit per-tier latency and bandwidth, show the error before
// and after, and store the fit in the design (one undoable command).

#include "document/document.h"

class QWidget;

namespace cl::ui {

/// Runs the import on `path` (asks for a file when empty). Returns a status message, or an
/// empty string when the user cancelled. `confirm` = false applies without asking (tests).
QString importNcclTests(doc::Document* doc, QWidget* parent, const QString& path = {},
                        bool confirm = true);

} // namespace cl::ui
