#include "document/commands.h"

namespace cl::doc {

EditDesignCommand::EditDesignCommand(Document* doc, model::Design after, const QString& text,
                                     ChangeEvent::Type type)
    : QUndoCommand(text), doc_(doc), before_(doc->design()), after_(std::move(after)), type_(type) {
}

void EditDesignCommand::undo() {
    doc_->mutableDesign() = before_;
    doc_->notify({type_, {}, {}});
}

void EditDesignCommand::redo() {
    doc_->mutableDesign() = after_;
    doc_->notify({type_, {}, {}});
}

MoveDevicesCommand::MoveDevicesCommand(Document* doc, std::vector<Document::Move> moves, int dragId)
    : QUndoCommand(QObject::tr("Move")), doc_(doc), moves_(std::move(moves)), dragId_(dragId) {}

void MoveDevicesCommand::apply(bool forward) {
    QStringList ids;
    for (const auto& m : moves_) {
        if (auto* dev = doc_->mutableDesign().device(m.id.toStdString())) {
            dev->position = forward ? m.to : m.from;
            ids << m.id;
        } else if (!doc_->mutableDesign().workloads.empty()) {
            for (auto& w : doc_->mutableDesign().workloads)
                if (w.id == m.id.toStdString()) {
                    w.position = forward ? m.to : m.from;
                    ids << m.id;
                }
        }
    }
    doc_->notify({ChangeEvent::Moved, ids, {}});
}

void MoveDevicesCommand::undo() {
    apply(false);
}
void MoveDevicesCommand::redo() {
    apply(true);
}

bool MoveDevicesCommand::mergeWith(const QUndoCommand* other) {
    const auto* o = dynamic_cast<const MoveDevicesCommand*>(other);
    if (!o || o->dragId_ != dragId_ || dragId_ < 0)
        return false;
    for (const auto& m : o->moves_) {
        bool found = false;
        for (auto& mine : moves_)
            if (mine.id == m.id) {
                mine.to = m.to;
                found = true;
            }
        if (!found)
            moves_.push_back(m);
    }
    return true;
}

ChangePropertyCommand::ChangePropertyCommand(Document* doc, const model::Field& field,
                                             QStringList ids, model::FieldValue after,
                                             const QString& text)
    : QUndoCommand(text), doc_(doc), field_(&field), ids_(std::move(ids)),
      after_(std::move(after)) {
    for (const auto& id : ids_)
        before_.push_back(field.get(doc->design(), id.toStdString()));
}

void ChangePropertyCommand::notifyChanged() {
    doc_->notify({ChangeEvent::Properties,
                  ids_,
                  {QString::fromStdString(std::string(model::section_name(field_->section)) + "." +
                                          field_->key)}});
}

void ChangePropertyCommand::redo() {
    for (const auto& id : ids_)
        field_->set(doc_->mutableDesign(), id.toStdString(), after_);
    notifyChanged();
}

void ChangePropertyCommand::undo() {
    for (qsizetype i = 0; i < ids_.size(); ++i)
        field_->set(doc_->mutableDesign(), ids_[i].toStdString(),
                    before_[static_cast<std::size_t>(i)]);
    notifyChanged();
}

} // namespace cl::doc
