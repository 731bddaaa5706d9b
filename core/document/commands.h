#pragma once
// Undo commands (STYLE.md practices 2-5): redo() does the work, the constructor only records.
// Command ids come from one enum; one drag merges into one undo step.

#include "document/document.h"

#include <QUndoCommand>

#include <vector>

namespace cl::doc {

enum class CommandId : int { MoveDevices = 1000 };

/// Structural edits (add, delete, paste, generators): keeps the design before and after.
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

/// Moves devices; consecutive moves with the same drag id merge into one step.
class MoveDevicesCommand : public QUndoCommand {
public:
    struct Move {
        QString id;
        model::Point from, to;
    };
    MoveDevicesCommand(Document* doc, std::vector<Move> moves, int dragId);
    void undo() override;
    void redo() override;
    int id() const override { return static_cast<int>(CommandId::MoveDevices); }
    bool mergeWith(const QUndoCommand* other) override;

private:
    void apply(bool forward);
    Document* doc_;
    std::vector<Move> moves_;
    int dragId_;
};

/// The one generic "change a value" command for inspector fields (Tiled's ChangeValue):
/// replaces one entity (device, link or workload) by id with a new value.
template <class Entity> class ChangeEntityCommand : public QUndoCommand {
public:
    ChangeEntityCommand(Document* doc, Entity before, Entity after, const QString& text)
        : QUndoCommand(text), doc_(doc), before_(std::move(before)), after_(std::move(after)) {}
    void undo() override { apply(before_); }
    void redo() override { apply(after_); }

private:
    void apply(const Entity& value);
    Document* doc_;
    Entity before_, after_;
};

using ChangeDeviceCommand = ChangeEntityCommand<model::Device>;
using ChangeLinkCommand = ChangeEntityCommand<model::Link>;
using ChangeWorkloadCommand = ChangeEntityCommand<model::Workload>;

/// Economics and reliability assumptions.
class ChangeSettingsCommand : public QUndoCommand {
public:
    ChangeSettingsCommand(Document* doc, model::Economics e, model::ReliabilityInputs r,
                          const QString& text);
    void undo() override;
    void redo() override;

private:
    Document* doc_;
    model::Economics econBefore_, econAfter_;
    model::ReliabilityInputs relBefore_, relAfter_;
};

} // namespace cl::doc
