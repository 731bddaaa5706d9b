#include "document/commands.h"

namespace cl::doc {

EditDesignCommand::EditDesignCommand(Document* doc, model::Design after, const QString& text,
                                     ChangeEvent::Type type)
    : QUndoCommand(text), doc_(doc), before_(doc->design()), after_(std::move(after)), type_(type) {
}

void EditDesignCommand::undo() {
    doc_->mutableDesign() = before_;
    doc_->notify({type_, {}});
}

void EditDesignCommand::redo() {
    doc_->mutableDesign() = after_;
    doc_->notify({type_, {}});
}

MoveDevicesCommand::MoveDevicesCommand(Document* doc, std::vector<Move> moves, int dragId)
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
    doc_->notify({ChangeEvent::DevicesChanged, ids});
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

template <> void ChangeEntityCommand<model::Device>::apply(const model::Device& v) {
    if (auto* dev = doc_->mutableDesign().device(v.id))
        *dev = v;
    doc_->notify({ChangeEvent::DevicesChanged, {QString::fromStdString(v.id)}});
}

template <> void ChangeEntityCommand<model::Link>::apply(const model::Link& v) {
    for (auto& l : doc_->mutableDesign().links)
        if (l.id == v.id)
            l = v;
    doc_->notify({ChangeEvent::LinksChanged, {QString::fromStdString(v.id)}});
}

template <> void ChangeEntityCommand<model::Workload>::apply(const model::Workload& v) {
    for (auto& w : doc_->mutableDesign().workloads)
        if (w.id == v.id)
            w = v;
    doc_->notify({ChangeEvent::WorkloadsChanged, {QString::fromStdString(v.id)}});
}

ChangeSettingsCommand::ChangeSettingsCommand(Document* doc, model::Economics e,
                                             model::ReliabilityInputs r, const QString& text)
    : QUndoCommand(text), doc_(doc), econBefore_(doc->design().economics), econAfter_(std::move(e)),
      relBefore_(doc->design().reliability), relAfter_(std::move(r)) {}

void ChangeSettingsCommand::undo() {
    doc_->mutableDesign().economics = econBefore_;
    doc_->mutableDesign().reliability = relBefore_;
    doc_->notify({ChangeEvent::SettingsChanged, {}});
}

void ChangeSettingsCommand::redo() {
    doc_->mutableDesign().economics = econAfter_;
    doc_->mutableDesign().reliability = relAfter_;
    doc_->notify({ChangeEvent::SettingsChanged, {}});
}

} // namespace cl::doc
