#include "document/document.h"

#include "model/bundled.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace cl::doc {

Document::Document(std::shared_ptr<const model::Catalog> catalog, QObject* parent)
    : QObject(parent), catalog_(std::move(catalog)) {}

void Document::reset(model::Design design, const QString& filePath) {
    design_ = std::move(design);
    undo_.clear();
    undo_.setClean();
    if (filePath != filePath_) {
        filePath_ = filePath;
        emit filePathChanged(filePath_);
    }
    notify({ChangeEvent::Reset, {}});
}

void Document::notify(const ChangeEvent& e) {
    emit changed(e);
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
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return tr("Cannot write %1: %2").arg(path, f.errorString());
    const std::string text = model::design_to_json(design_);
    if (f.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()))
        return tr("Cannot write %1: %2").arg(path, f.errorString());
    if (!f.commit())
        return tr("Cannot save %1: %2").arg(path, f.errorString());
    undo_.setClean();
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
