#pragma once
// The Document owns the Design and its QUndoStack (STYLE.md practice 2: the stack lives on
// the document, not on the scene). Every edit is a command; the document emits one typed
// change signal (practice 6) that views use to resync.

#include "model/catalog.h"
#include "model/design.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <memory>

namespace cl::doc {

/// What changed, so listeners can skip work they do not need.
struct ChangeEvent {
    /// Reset: a new design (open, new); Structure: an edit that adds or removes entities.
    enum Type { Reset, Structure, DevicesChanged, LinksChanged, WorkloadsChanged, SettingsChanged };
    Type type = Reset;
    QStringList ids; ///< entities touched (empty for Reset)
};

class Document : public QObject {
    Q_OBJECT
public:
    explicit Document(std::shared_ptr<const model::Catalog> catalog, QObject* parent = nullptr);

    [[nodiscard]] const model::Design& design() const { return design_; }
    [[nodiscard]] const model::Catalog& catalog() const { return *catalog_; }
    [[nodiscard]] std::shared_ptr<const model::Catalog> catalog_ptr() const { return catalog_; }
    [[nodiscard]] QUndoStack* undoStack() { return &undo_; }

    /// Replaces the design (not undoable: a new file). Clears the undo stack.
    void reset(model::Design design, const QString& filePath = {});
    /// Loads a design file or a bundled preset id; on failure returns the error text and
    /// leaves the document unchanged.
    QString open(const QString& pathOrPreset);
    /// Writes atomically (QSaveFile): a crash mid-save never leaves a truncated file.
    QString saveAs(const QString& path);

    [[nodiscard]] QString filePath() const { return filePath_; }
    [[nodiscard]] bool isModified() const { return !undo_.isClean(); }

    /// Used by commands only: mutable access followed by notify().
    model::Design& mutableDesign() { return design_; }
    void notify(const ChangeEvent& e);

signals:
    void changed(const cl::doc::ChangeEvent& event);
    void filePathChanged(const QString& path);
    /// The design was written to `path` (after the undo stack was marked clean).
    void saved(const QString& path);

private:
    std::shared_ptr<const model::Catalog> catalog_;
    model::Design design_;
    QUndoStack undo_;
    QString filePath_;
};

/// Reads a design from a file path or a bundled preset id ("h100-ndr-2node").
model::Result<model::Design> loadDesign(const QString& pathOrPreset, const model::Catalog& catalog);

/// Ids of the bundled presets, sorted.
QStringList presetIds();

} // namespace cl::doc
