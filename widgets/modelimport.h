#pragma once
// Importing a Hugging Face config.json as a workload's model (issue 20): from the inspector's
// "Import Hugging Face config…" button and by dropping the file on a workload card.

#include <QString>

#include <string>

namespace cl::doc {
class Document;
}

namespace cl::ui {

/// What an import did: `ok` and what was read (a line for the status bar and the inspector),
/// or the reason it was refused (file, field and problem).
struct ImportOutcome {
    bool ok = false;
    QString text;
};

/// Reads the config.json at `path` and makes it the model of workload `workloadId`, carried in
/// the design (one undo step). A model with the same id in the design is replaced.
ImportOutcome importHfConfig(doc::Document& doc, const QString& path,
                             const std::string& workloadId);

/// Whether a dropped or chosen file looks like a model config (a local .json file).
bool isConfigFile(const QString& path);

} // namespace cl::ui
