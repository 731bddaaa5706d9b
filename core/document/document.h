#pragma once
// The Document owns the Design and its QUndoStack (STYLE.md practice 2: the stack lives on
// the document, not on the scene). Every edit is a command; the document emits one typed
// change signal (practice 6) that views use to resync.

#include "model/catalog.h"
#include "model/design.h"
#include "model/edit.h"
#include "model/schema.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <memory>
#include <optional>

namespace cl::doc {

/// What changed, so listeners update only that (STYLE.md practice 6, Tiled's change events).
struct ChangeEvent {
    /// Reset: a new design (open, new). Structure: entities added, removed or re-parented (the
    /// canvas rebuilds). Moved: positions of `ids`. Properties: the `properties` of `ids` (an
    /// empty id is the design itself: economics, reliability, assumptions). Settings: design-wide
    /// data without a schema field (fabric calibration).
    enum Type { Reset, Structure, Moved, Properties, Settings };
    Type type = Reset;
    QStringList ids;        ///< entities touched (empty for Reset and Structure)
    QStringList properties; ///< "section.key" of each changed field (Properties)
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
    /// Whether the design differs from the file it was opened from or last saved to: an edit
    /// undone, or changed back by hand, is not a change (helper-45: FP4 -> FP8 by hand still
    /// asked to save).
    [[nodiscard]] bool isModified() const {
        return !undo_.isClean() && !(clean_ && *clean_ == design_);
    }
    /// The design as it is counts as unsaved work (recovered from an autosave).
    void markUnsaved();

    // ---- Edits: widgets call these; the document builds and pushes the undo commands. ----

    /// Sets one schema field of one entity (id "" = the design). The value is checked (type,
    /// range, allowed values, cabling for link types); on refusal nothing changes and the reason
    /// is returned. An unchanged value pushes nothing. One undo step.
    QString setProperty(const QString& id, const model::Field& field, const model::FieldValue& v);
    /// The same field of several entities to one value: one undo step.
    QString setProperties(const QStringList& ids, const model::Field& field,
                          const model::FieldValue& v);
    /// Convenience: the field by section and key.
    QString setProperty(const QString& id, model::Section section, const QString& key,
                        const model::FieldValue& v);
    /// Several fields of one entity at once (an applied layout): one undo step; refused whole
    /// when any value is.
    QString setFields(const QString& id,
                      const std::vector<std::pair<const model::Field*, model::FieldValue>>& values,
                      const QString& text);
    /// Several fields of several entities at once (an edit with its follow-ons): one undo step;
    /// refused whole when any value is.
    QString setFields(const std::vector<model::FollowOnEdit>& values, const QString& text);
    /// A structural edit (add, delete, paste, connect, generators): the design after it.
    void editStructure(model::Design after, const QString& text);
    /// Design-wide data outside the schema (fabric calibration): one undo step.
    void editSettings(model::Design after, const QString& text);
    struct Move {
        QString id;
        model::Point from, to;
    };
    /// Moves devices and workloads; moves with the same dragId merge into one undo step.
    void moveItems(std::vector<Move> moves, int dragId);

    /// Used by commands only: mutable access followed by notify().
    model::Design& mutableDesign() { return design_; }
    void notify(const ChangeEvent& e);

signals:
    void changed(const cl::doc::ChangeEvent& event);
    void filePathChanged(const QString& path);
    /// The design was written to `path` (after the undo stack was marked clean).
    void saved(const QString& path);
    /// An edit changed more than the person typed (the cloud offer following a GPU swap): what
    /// and why, for the status bar.
    void notice(const QString& text);

private:
    std::shared_ptr<const model::Catalog> catalog_;
    model::Design design_;
    /// The design as last opened or saved (isModified); empty for recovered work.
    std::optional<model::Design> clean_;
    QUndoStack undo_;
    QString filePath_;
};

/// Reads a design from a file path or a bundled preset id ("h100-ndr-2node").
model::Result<model::Design> loadDesign(const QString& pathOrPreset, const model::Catalog& catalog);

/// Ids of the bundled presets, sorted.
QStringList presetIds();

} // namespace cl::doc
