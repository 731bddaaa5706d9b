#include "calibration.h"
#include "messages.h"

#include "document/commands.h"
#include "model/collective.h"
#include "model/topology.h"

#include <QDateTime>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace cl::ui {

QString importNcclTests(doc::Document* doc, QWidget* parent, const QString& given, bool confirm) {
    QString path = given;
    if (path.isEmpty())
        path = QFileDialog::getOpenFileName(
            parent, QObject::tr("Import nccl-tests output"), {},
            QObject::tr("Text files (*.txt *.log *.out);;All files (*)"));
    if (path.isEmpty())
        return {};
    QFile f(path);
    if (f.size() > 16 * 1024 * 1024 || !f.open(QIODevice::ReadOnly)) {
        const QString msg =
            QObject::tr("Cannot read %1 (missing, unreadable or over 16 MiB)").arg(path);
        if (confirm)
            showError(parent, QObject::tr("Import nccl-tests output"), msg);
        return msg;
    }
    const QByteArray bytes = f.readAll();
    auto run = model::parse_nccl_tests(
        std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    auto fail = [&](const QString& msg) {
        if (confirm)
            showError(parent, QObject::tr("Import nccl-tests output"), msg);
        return msg;
    };
    if (!run)
        return fail(QObject::tr("%1: %2").arg(QFileInfo(path).fileName(),
                                              QString::fromStdString(run.error_text())));
    const model::Topology topo = model::analyze_topology(doc->design(), doc->catalog());
    const int ranks = run->ranks > 0 ? run->ranks : std::max(2, topo.scaleup_domain);
    if (ranks > topo.gpus)
        return fail(QObject::tr("The measurement used %1 GPUs but the design has %2")
                        .arg(ranks)
                        .arg(topo.gpus));
    const auto op =
        model::collective_op_from_name(run->op_name).value_or(model::CollectiveOp::allreduce);
    const model::GroupPlacement p = model::place_group(topo, ranks, 1);
    auto fit = model::calibrate(*run, op, topo, p);
    if (!fit)
        return fail(QString::fromStdString(fit.error_text()));
    const QString summary =
        QObject::tr("%1 rows of %2 on %3 GPUs (tier %4).\nFitted latency %5 us per step, bandwidth "
                    "%6 GB/s.\n"
                    "Mean time error %7% with the defaults, %8% after the fit.")
            .arg(run->rows.size())
            .arg(QString::fromStdString(std::string(model::collective_op_name(op))))
            .arg(ranks)
            .arg(fit->tier_index)
            .arg(fit->tier.alpha_s * 1e6, 0, 'f', 2)
            .arg(fit->tier.beta_Bps / 1e9, 0, 'f', 1)
            .arg(fit->error_before * 100, 0, 'f', 1)
            .arg(fit->error_after * 100, 0, 'f', 1);
    if (confirm &&
        QMessageBox::question(parent, QObject::tr("Apply calibration?"),
                              summary + QObject::tr("\n\nStore the fit in the design?")) !=
            QMessageBox::Yes)
        return {};
    model::Design next = doc->design();
    std::erase_if(next.calibration,
                  [&](const model::FabricCalibration& c) { return c.tier == fit->tier_index; });
    model::FabricCalibration c;
    c.tier = fit->tier_index;
    c.alpha_s = fit->tier.alpha_s;
    c.beta_Bps = fit->tier.beta_Bps;
    c.source = QFileInfo(path).fileName().toStdString() + ", " +
               QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    c.error_before = fit->error_before;
    c.error_after = fit->error_after;
    next.calibration.push_back(c);
    doc->editSettings(std::move(next), QObject::tr("Calibrate fabric"));
    return summary;
}

} // namespace cl::ui
