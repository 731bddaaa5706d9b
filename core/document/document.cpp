#include "document/document.h"

#include "document/atomicfile.h"

#include "document/commands.h"
#include "model/bundled.h"
#include "model/edit.h"

#include <QFile>
#include <QFileInfo>

namespace cl::doc {

Document::Document(std::shared_ptr<const model::Catalog> catalog, QObject* parent)
    : QObject(parent), catalog_(std::move(catalog)) {}

void Document::reset(model::Design design, const QString& filePath) {
    design_ = std::move(design);
    clean_ = design_;
    undo_.clear();
    undo_.setClean();
    if (filePath != filePath_) {
        filePath_ = filePath;
        emit filePathChanged(filePath_);
    }
    notify({ChangeEvent::Reset, {}, {}});
}

void Document::markUnsaved() {
    clean_.reset();
    undo_.resetClean();
}

void Document::notify(const ChangeEvent& e) {
    emit changed(e);
}

QString Document::setProperty(const QString& id, const model::Field& field,
                              const model::FieldValue& v) {
    return setProperties({id}, field, v);
}

QString Document::setProperty(const QString& id, model::Section section, const QString& key,
                              const model::FieldValue& v) {
    const model::Field* f = model::find_field(section, key.toStdString());
    if (!f)
        return tr("no field \"%1\" in %2")
            .arg(key, QString::fromUtf8(model::section_name(section).data()));
    return setProperty(id, *f, v);
}

QString Document::setProperties(const QStringList& ids, const model::Field& field,
                                const model::FieldValue& v) {
    if (ids.size() == 1) {
        // Edits that go with this one (a device's name following its Type): one undo step.
        const std::string sid = ids.front().toStdString();
        auto more = model::follow_on_edits(design_, sid, field, v, *catalog_);
        if (!more.empty() && field.get(design_, sid) != v) {
            QStringList notes, also;
            for (const auto& m : more)
                if (!m.note.empty()) {
                    notes << QString::fromStdString(m.note);
                    also << QString::fromStdString(m.field->label);
                }
            more.insert(more.begin(), model::FollowOnEdit{&field, sid, v, {}});
            QString text = tr("Change %1").arg(QString::fromStdString(field.label));
            if (!also.isEmpty()) // the undo entry names what else changed
                text = tr("Change %1 (and %2)")
                           .arg(QString::fromStdString(field.label), also.join(tr(", ")));
            QString err = setFields(more, text);
            if (err.isEmpty() && !notes.isEmpty())
                emit notice(notes.join(QLatin1Char(' ')) + (notes.size() > 1
                                                                ? tr(" Undo brings them all back.")
                                                                : tr(" Undo brings both back.")));
            return err;
        }
    }
    bool changes = false;
    for (const auto& id : ids) {
        const std::string sid = id.toStdString();
        auto ok = model::check_property_edit(design_, sid, field, v, *catalog_);
        if (!ok)
            return QString::fromStdString(ok.errors().front().what);
        changes = changes || field.get(design_, sid) != v;
    }
    if (!changes)
        return {};
    const QString text =
        ids.size() == 1
            ? tr("Change %1").arg(QString::fromStdString(field.label))
            : tr("Change %1 of %2 items").arg(QString::fromStdString(field.label)).arg(ids.size());
    undo_.push(new ChangePropertyCommand(this, field, ids, v, text));
    return {};
}

QString
Document::setFields(const QString& id,
                    const std::vector<std::pair<const model::Field*, model::FieldValue>>& values,
                    const QString& text) {
    std::vector<model::FollowOnEdit> edits;
    edits.reserve(values.size());
    for (const auto& [f, v] : values)
        edits.push_back({f, id.toStdString(), v, {}});
    return setFields(edits, text);
}

QString Document::setFields(const std::vector<model::FollowOnEdit>& values, const QString& text) {
    model::Design probe = design_;
    for (const auto& e : values) {
        auto ok = model::check_property_edit(probe, e.id, *e.field, e.value, *catalog_);
        if (!ok)
            return QString::fromStdString(ok.errors().front().what);
        e.field->set(probe, e.id, e.value);
    }
    undo_.beginMacro(text);
    for (const auto& e : values)
        if (e.field->get(design_, e.id) != e.value)
            undo_.push(new ChangePropertyCommand(this, *e.field, {QString::fromStdString(e.id)},
                                                 e.value, text));
    undo_.endMacro();
    return {};
}

void Document::editStructure(model::Design after, const QString& text) {
    undo_.push(new EditDesignCommand(this, std::move(after), text, ChangeEvent::Structure));
}

void Document::editSettings(model::Design after, const QString& text) {
    undo_.push(new EditDesignCommand(this, std::move(after), text, ChangeEvent::Settings));
}

void Document::moveItems(std::vector<Move> moves, int dragId) {
    if (moves.empty())
        return;
    undo_.push(new MoveDevicesCommand(this, std::move(moves), dragId));
}

QString Document::open(const QString& pathOrPreset) {
    auto d = loadDesign(pathOrPreset, *catalog_);
    if (!d)
        return QString::fromStdString(d.error_text());
    const bool isFile = QFileInfo::exists(pathOrPreset);
    reset(std::move(d).value(), isFile ? QFileInfo(pathOrPreset).absoluteFilePath() : QString());
    return {};
}

QString Document::saveAs(const QString& path) {
    const std::string text = model::design_to_json(design_);
    if (QString err =
            writeFileAtomically(path, QByteArray(text.data(), static_cast<qsizetype>(text.size())));
        !err.isEmpty())
        return err; // the file on disk and the document's modified state are untouched
    undo_.setClean();
    clean_ = design_;
    const QString abs = QFileInfo(path).absoluteFilePath();
    if (abs != filePath_) {
        filePath_ = abs;
        emit filePathChanged(filePath_);
    }
    emit saved(abs);
    return {};
}

model::Result<model::Design> loadDesign(const QString& pathOrPreset,
                                        const model::Catalog& catalog) {
    if (QFileInfo::exists(pathOrPreset)) {
        QFile f(pathOrPreset);
        if (QFileInfo(pathOrPreset).size() > 64LL * 1024 * 1024)
            return model::Error{pathOrPreset.toStdString(),
                                "file is larger than the 64 MiB limit for designs"};
        if (!f.open(QIODevice::ReadOnly))
            return model::Error{pathOrPreset.toStdString(), f.errorString().toStdString()};
        const QByteArray bytes = f.readAll();
        return model::design_from_json(
            std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
            QFileInfo(pathOrPreset).fileName().toStdString(), &catalog);
    }
    const std::string name = "presets/" + pathOrPreset.toStdString() + ".json";
    const std::string_view text = model::bundled_file(name);
    if (text.empty())
        return model::Error{pathOrPreset.toStdString(),
                            "no such file, and no bundled preset of that id (see `catalog "
                            "presets`)"};
    return model::design_from_json(text, pathOrPreset.toStdString() + ".json", &catalog);
}

QStringList presetIds() {
    QStringList ids;
    for (const auto& f : model::bundled_files()) {
        const QString n = QString::fromUtf8(f.name.data(), static_cast<qsizetype>(f.name.size()));
        if (n.startsWith(QLatin1String("presets/")) && n.endsWith(QLatin1String(".json")))
            ids << n.mid(8, n.size() - 8 - 5);
    }
    return ids;
}

} // namespace cl::doc
