#include "modelimport.h"

#include "document/document.h"
#include "model/architecture.h"
#include "model/design.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cmath>

namespace cl::ui {

namespace {
// A config.json is a few kB; anything this large is not one (and is not read into memory).
constexpr qint64 kMaxConfigBytes = 4 * 1024 * 1024;
} // namespace

bool isConfigFile(const QString& path) {
    return !path.isEmpty() && path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
}

ImportOutcome importHfConfig(doc::Document& doc, const QString& path,
                             const std::string& workloadId) {
    const QFileInfo info(path);
    const QString shown = info.fileName();
    if (!doc.design().workload(workloadId))
        return {false, QObject::tr("No workload \"%1\" to give the model to")
                           .arg(QString::fromStdString(workloadId))};
    if (!info.isFile())
        return {false, QObject::tr("%1: not a file").arg(path)};
    if (info.size() > kMaxConfigBytes)
        return {false, QObject::tr("%1: %2 bytes is too large for a config.json (at most 4 MiB)")
                           .arg(shown)
                           .arg(info.size())};
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {false, QObject::tr("%1: cannot be read (%2)").arg(shown, f.errorString())};
    const QByteArray bytes = f.read(kMaxConfigBytes + 1);
    // Errors name the file as the user has it (folder included: every config is config.json).
    auto imported = model::import_hf_config(std::string_view(bytes.constData(), bytes.size()),
                                            QDir::toNativeSeparators(path).toStdString());
    if (!imported)
        return {false, QString::fromStdString(imported.error_text())};
    model::ModelArch m = std::move(imported).value();
    // Without "_name_or_path" the importer names the model after its type (qwen3_moe): a
    // config.json is named after its folder (the model's repository), another file after itself.
    if (m.id.find('/') == std::string::npos) {
        const bool plain =
            info.fileName().compare(QLatin1String("config.json"), Qt::CaseInsensitive) == 0;
        const std::string label =
            (plain ? info.dir().dirName() : info.completeBaseName()).toStdString();
        if (!label.empty() && label != ".") {
            m.id = label;
            m.name = label;
        }
    }
    m.provenance.source = {"Hugging Face config.json: " + path.toStdString()};
    m.raw_json = model::model_arch_to_json(m); // as the design file will hold it
    model::Design after = doc.design();
    bool replaced = false;
    for (auto& o : after.models)
        if (o.id == m.id) {
            o = m;
            replaced = true;
        }
    if (!replaced)
        after.models.push_back(m);
    QString note;
    for (auto& w : after.workloads)
        if (w.id == workloadId) {
            // Layers kept in system memory (llama.cpp offload) were set for the previous model:
            // keep their share of this model's layers, one at least on the device, and say so.
            auto& off = w.inference.offload_layers;
            const model::ModelArch* old = model::find_model(doc.design(), doc.catalog(), w.model);
            if (off > 0 && old && old->layers != m.layers) {
                const int scaled =
                    std::clamp(static_cast<int>(
                                   std::lround(static_cast<double>(off) * m.layers / old->layers)),
                               1, m.layers - 1);
                note = QObject::tr("; layers in system memory %1 of %2 → %3 of %4")
                           .arg(off)
                           .arg(old->layers)
                           .arg(scaled)
                           .arg(m.layers);
                off = scaled;
            }
            w.model = m.id;
        }
    const QString what = QString::fromStdString(model::describe_model(m)) + note;
    doc.editStructure(std::move(after),
                      QObject::tr("Import model %1").arg(QString::fromStdString(m.name)));
    return {true, QObject::tr("Imported %1").arg(what)};
}

} // namespace cl::ui
