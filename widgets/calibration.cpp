#include "calibration.h"
#include "messages.h"

#include "document/commands.h"
#include "model/collective.h"
#include "model/evaluate.h"
#include "model/fleet.h"
#include "model/topology.h"
#include "model/trace_formats.h"
#include "model/units.h"

#include <algorithm>

#include <QDateTime>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace cl::ui {

QString importNcclTests(doc::Document* doc, QWidget* parent, const QString& given, bool confirm) {
    QString path = given;
    if (path.isEmpty()) {
        path = QFileDialog::getOpenFileName(
            parent, QObject::tr("Import nccl-tests output"), lastFolder(),
            QObject::tr("Text files (*.txt *.log *.out);;All files (*)"));
        rememberFolder(path);
    }
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
    auto fit = model::calibrate(*run, model::CollectiveOp::allreduce, topo);
    if (!fit)
        return fail(QObject::tr("%1: %2").arg(QFileInfo(path).fileName(),
                                              QString::fromStdString(fit.errors().front().what)));
    // What was read, what was skipped and why, and each tier's fit by size range.
    QString summary;
    for (const auto& r : run->runs)
        summary +=
            QObject::tr("Line %1: %2, %3 GPUs%4, %5 sizes from %6 to %7.\n")
                .arg(r.first_line)
                .arg(r.test_name.empty() ? QObject::tr("test not named (all-reduce assumed)")
                                         : QString::fromStdString(r.test_name))
                .arg(r.ranks > 0 ? QString::number(r.ranks) : QObject::tr("?"))
                .arg(r.nodes > 0 ? QObject::tr(" on %1 hosts").arg(r.nodes) : QString())
                .arg(r.rows.size())
                .arg(QString::fromStdString(model::units::format_bytes(r.rows.front().bytes)))
                .arg(QString::fromStdString(model::units::format_bytes(r.rows.back().bytes)));
    int shown = 0;
    for (const auto& sk : fit->skipped) {
        if (++shown > 6) {
            summary += QObject::tr("… and %1 more lines skipped.\n").arg(fit->skipped.size() - 6);
            break;
        }
        summary += QObject::tr("Line %1 skipped: %2.\n")
                       .arg(sk.line)
                       .arg(QString::fromStdString(sk.reason));
    }
    for (const auto& tf : fit->tiers) {
        summary += QObject::tr("\n%1 tier (%L2 GPUs):\n")
                       .arg(QString::fromStdString(tf.name))
                       .arg(tf.ranks);
        for (const auto& sf : tf.segments)
            summary +=
                QObject::tr("  %1 to %2: latency %3 µs, bus bandwidth %4 GB/s; error %5 % → %6 %\n")
                    .arg(QString::fromStdString(model::units::format_bytes(sf.min_bytes)))
                    .arg(QString::fromStdString(model::units::format_bytes(sf.max_bytes)))
                    .arg(sf.alpha_s * 1e6, 0, 'f', 1)
                    .arg(sf.beta_Bps / 1e9, 0, 'f', 1)
                    .arg(sf.error_before * 100, 0, 'f', 1)
                    .arg(sf.error_after * 100, 0, 'f', 1);
    }
    // A tier fitted before is replaced: say so, with where the old fit came from.
    for (const auto& tf : fit->tiers)
        for (const auto& old : doc->design().calibration)
            if (old.tier == tf.tier)
                summary +=
                    QObject::tr("\nReplaces the %1 tier's fit from %2 (%3 GPUs).")
                        .arg(QString::fromStdString(tf.name))
                        .arg(QString::fromStdString(
                            old.source.empty() ? std::string("an earlier import") : old.source))
                        .arg(old.ranks);
    summary += QObject::tr("\nMean time error %1 % with the defaults, %2 % after the fit (%3 % and "
                           "%4 % for sizes of 1 MiB and more).")
                   .arg(fit->error_before * 100, 0, 'f', 1)
                   .arg(fit->error_after * 100, 0, 'f', 1)
                   .arg(fit->error_before_1mib * 100, 0, 'f', 1)
                   .arg(fit->error_after_1mib * 100, 0, 'f', 1);
    if (confirm &&
        QMessageBox::question(parent, QObject::tr("Apply calibration?"),
                              summary + QObject::tr("\n\nStore the fit in the design?")) !=
            QMessageBox::Yes)
        return {};
    model::Design next = doc->design();
    const std::string source = QFileInfo(path).fileName().toStdString() + ", " +
                               QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    model::store_fit(next, *fit, source);
    doc->editSettings(std::move(next), QObject::tr("Calibrate fabric"));
    return summary;
}

namespace {
/// The Simulated days an imported trace's replay gets (what the import sets and Remove Job
/// Trace recognises): until every job that fits could have ended, at least an hour, at most
/// the field's 3,650 days.
double replayDays(const model::FleetTrace& trace, std::int64_t whole_gpus) {
    return std::min(3650.0,
                    std::max(model::trace_replay_horizon_s(trace, whole_gpus) / 86400, 1.0 / 24));
}
} // namespace

QString importJobTrace(doc::Document* doc, QWidget* parent, int gpus_per_node,
                       std::int64_t whole_gpus, const QString& given, bool confirm) {
    const QString title = QObject::tr("Import job trace");
    QString path = given;
    if (path.isEmpty()) {
        path = QFileDialog::getOpenFileName(
            parent, title, lastFolder(),
            QObject::tr("Job traces: Helios, PAI or ElasticFlow CSV, Philly cluster_job_log "
                        "(*.csv *.json cluster_job_log);;All files (*)"));
        rememberFolder(path);
    }
    if (path.isEmpty())
        return {};
    const auto fail = [&](const QString& msg) {
        if (confirm)
            showError(parent, title, msg);
        return msg;
    };
    if (gpus_per_node < 1)
        return fail(QObject::tr("The design has no nodes of whole GPUs to replay a trace on: "
                                "draw the cluster first."));
    // HeliosData's largest cluster log is about 200 MB; a 1 GiB cap keeps a wrong file from
    // taking the machine's memory.
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || f.size() > 1024LL * 1024 * 1024)
        return fail(QObject::tr("Cannot read %1 (missing, unreadable or over 1 GiB)").arg(path));
    const QByteArray bytes = f.readAll();
    const QString file = QFileInfo(path).fileName();
    auto trace = model::parse_job_trace( // any of the four formats, told by content
        std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), gpus_per_node);
    if (!trace)
        return fail(QObject::tr("%1: %2").arg(file, QString::fromStdString(trace.error_text())));
    const auto count = [](double v) {
        return QString::fromStdString(model::units::format_count(v));
    };
    std::vector<std::int64_t> per(trace->classes.size(), 0);
    for (const auto& j : trace->jobs)
        ++per[static_cast<std::size_t>(j.cls)];
    QStringList classes;
    for (std::size_t k = 0; k < per.size(); ++k)
        classes << QObject::tr("%1: %2").arg(QString::fromStdString(trace->classes[k]),
                                             count(static_cast<double>(per[k])));
    // The replay runs until every job the cluster can hold could have ended as recorded (the
    // CLI's rule): a job larger than it is left out and must not stretch the simulated days
    // (helper-32), and the last one that fits runs too (helper-34).
    const double days = replayDays(*trace, whole_gpus);
    QString summary = QObject::tr("%1: %2 GPU jobs submitted over %3 days (%4).")
                          .arg(file, count(static_cast<double>(trace->jobs.size())))
                          .arg(std::max(trace->span_s / 86400, 1.0 / 24), 0, 'f',
                               trace->span_s < 10 * 86400 ? 1 : 0)
                          .arg(classes.join(QStringLiteral(", ")));
    if (const std::int64_t large = model::trace_jobs_larger_than(*trace, whole_gpus); large > 0)
        summary += QObject::tr("\n%1 of them %2 more than the %3 GPUs of whole-GPU nodes drawn: "
                               "left out of the replay.")
                       .arg(count(static_cast<double>(large)),
                            large == 1 ? QObject::tr("needs") : QObject::tr("need"),
                            count(static_cast<double>(whole_gpus)));
    for (const auto& n : trace->notes)
        summary += QLatin1Char('\n') + QString::fromStdString(n);
    const auto& was = doc->design().fleet;
    // Nodes set aside for MIG or time-slicing keep their role: the trace's whole-GPU jobs run on
    // the others (helper-36: with MIG nodes the replay used to be refused after this dialog).
    if (was.mig_nodes > 0 || was.timeslice_nodes > 0)
        summary += QObject::tr("\nIts jobs run on the %1 GPUs of whole-GPU nodes; the %2 stay as "
                               "they are.")
                       .arg(count(static_cast<double>(whole_gpus)),
                            was.mig_nodes > 0 && was.timeslice_nodes > 0
                                ? QObject::tr("MIG and time-sliced nodes")
                            : was.mig_nodes > 0 ? QObject::tr("MIG nodes")
                                                : QObject::tr("time-sliced nodes"));
    const auto shown = [](double d) { return QString::number(d, 'f', 1); }; // as the fields
    if (confirm &&
        QMessageBox::question(
            parent, QObject::tr("Replay this trace?"),
            summary + QObject::tr("\n\nReplay it on the drawn cluster instead of the job "
                                  "classes? Simulated days become %1 (was %2), until every job "
                                  "that fits could have ended as recorded, and Warm-up left out "
                                  "0 days (was %3): a trace starts as recorded. Undo puts them "
                                  "back.")
                          .arg(shown(days), shown(was.horizon_days), shown(was.warmup_days))) !=
            QMessageBox::Yes)
        return {};
    model::Design next = doc->design();
    next.fleet.trace.jobs = std::make_shared<const model::FleetTrace>(std::move(trace).value());
    next.fleet.trace.name = file.toStdString();
    next.fleet.horizon_days = days;
    next.fleet.warmup_days = 0; // a trace starts as recorded: nothing to warm up
    doc->editSettings(std::move(next), title);
    return QObject::tr("Imported %1").arg(summary.section(QLatin1Char('\n'), 0, 0));
}

QString removeJobTrace(doc::Document* doc, std::int64_t whole_gpus) {
    const auto& trace = doc->design().fleet.trace;
    if (!trace.jobs)
        return QObject::tr("The design has no job trace to remove");
    model::Design next = doc->design();
    // The replay's days and its warm-up of 0, as the import set them, mean nothing for the
    // classes: back to the Fleet section's defaults (helper-36: the classes ran 7.8 days with
    // no warm-up after the trace was removed). A value edited since the import is kept.
    const double replay = replayDays(*trace.jobs, whole_gpus);
    const model::FleetMix defaults;
    const bool reset =
        next.fleet.warmup_days == 0 && std::abs(next.fleet.horizon_days - replay) <= 1e-9 * replay;
    if (reset) {
        next.fleet.horizon_days = defaults.horizon_days;
        next.fleet.warmup_days = defaults.warmup_days;
    }
    next.fleet.trace = {};
    doc->editSettings(std::move(next), QObject::tr("Remove job trace"));
    const auto& now = doc->design().fleet;
    return QObject::tr("Removed the job trace: the job classes run again over %1 simulated days, "
                       "warm-up %2 days%3 (Fleet section; Undo brings the trace back)")
        .arg(now.horizon_days, 0, 'f', 1)
        .arg(now.warmup_days, 0, 'f', 1)
        .arg(reset ? QObject::tr(", the defaults again (the replay's were %1 and 0)")
                         .arg(replay, 0, 'f', 1)
                   : QString());
}

} // namespace cl::ui
