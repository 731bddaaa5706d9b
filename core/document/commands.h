#pragma once
// Undo commands (STYLE.md practices 2-5): redo() does the work, the constructor only records.
// Command ids come from one enum; one drag merges into one undo step.

#include "document/document.h"

#include <QUndoCommand>

#include <vector>

namespace cl::doc {

enum class CommandId : int { MoveDevices = 1000 };

/// Structural edits (add, delete, paste, generators) and design-wide settings without a schema
/// field: keeps the design before and after.
class EditDesignCommand : public QUndoCommand {
public:
    EditDesignCommand(Document* doc, model::Design after, const QString& text,
                      ChangeEvent::Type type = ChangeEvent::Structure);
    void undo() override;
    void redo() override;

private:
    Document* doc_;
    model::Design before_, after_;
    ChangeEvent::Type type_;
};

/// Moves devices and workloads; consecutive moves with the same drag id merge into one step.
class MoveDevicesCommand : public QUndoCommand {
public:
    MoveDevicesCommand(Document* doc, std::vector<Document::Move> moves, int dragId);
    void undo() override;
    void redo() override;
    int id() const override { return static_cast<int>(CommandId::MoveDevices); }
    bool mergeWith(const QUndoCommand* other) override;

private:
    void apply(bool forward);
    Document* doc_;
    std::vector<Document::Move> moves_;
    int dragId_;
};

/// The one generic "change a value" command (Tiled's ChangeValue): one schema field of one or
/// more entities, with each entity's value before.
class ChangePropertyCommand : public QUndoCommand {
public:
    ChangePropertyCommand(Document* doc, const model::Field& field, QStringList ids,
                          model::FieldValue after, const QString& text);
    void undo() override;
    void redo() override;

private:
    void notifyChanged();
    Document* doc_;
    const model::Field* field_;
    QStringList ids_;
    std::vector<model::FieldValue> before_;
    model::FieldValue after_;
};

} // namespace cl::doc
