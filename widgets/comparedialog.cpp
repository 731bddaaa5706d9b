#include "comparedialog.h"
#include "messages.h"
#include "report.h"

#include "document/document.h"
#include "model/compare.h"
#include "model/units.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace cl::ui {

CompareDialog::CompareDialog(const model::Design& current,
                             std::shared_ptr<const model::Catalog> catalog, QWidget* parent)
    : QDialog(parent), catalog_(std::move(catalog)) {
    setWindowTitle(tr("Compare designs"));
    resize(1100, 600);
    auto* v = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    auto* presets = new QComboBox;
    presets->addItem(tr("Add a preset…"));
    // By the designs' names, as File ▸ Open Preset lists them (helper-16: file ids here).
    for (const QString& id : doc::presetIds()) {
        const auto d = doc::loadDesign(id, *catalog_);
        presets->addItem(d && !d->name.empty() ? QString::fromStdString(d->name) : id, id);
        presets->setItemData(presets->count() - 1, id, Qt::ToolTipRole);
    }
    auto* file = new QPushButton(tr("Add a design file…"));
    row->addWidget(presets);
    row->addWidget(file);
    row->addStretch(1);
    v->addLayout(row);
    v->addWidget(new QLabel(tr("Green: better than the current design; red: worse. Save a "
                               "variant (e.g. H200 instead of H100) and add it here.")));
    table_ = new QTableWidget(this);
    table_->setObjectName(QStringLiteral("compareTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Columns as wide as their text up to a share of the dialog, their text wrapped beyond it
    // (helper-6: "+0.0 %, within the model's e…" and the change header cut at the edge).
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(true);
    table_->setTextElideMode(Qt::ElideNone);
    v->addWidget(table_, 1);
    notes_ = new QLabel(this);
    notes_->setObjectName(QStringLiteral("compareNotes"));
    notes_->setTextFormat(Qt::PlainText); // design names and reasons come from files
    notes_->setWordWrap(true);
    v->addWidget(notes_);
    // Issue 21: a report can carry the comparison (a section after its summary).
    auto* report = new QPushButton(tr("Report with This Comparison…"));
    report->setObjectName(QStringLiteral("compareReportButton"));
    report->setToolTip(tr("Export this design's PDF report with the table above in it"));
    auto* close = new QPushButton(tr("Close"));
    connect(close, &QPushButton::clicked, this, &QDialog::accept);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(report);
    buttons->addWidget(close);
    v->addLayout(buttons);
    connect(report, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export report"),
            suggestedPath(tr("Comparison"), {}, {}, QStringLiteral("pdf")), tr("PDF (*.pdf)"));
        if (path.isEmpty())
            return;
        rememberFolder(path);
        if (const QString err = writeReport(path); !err.isEmpty())
            showWarning(this, tr("Cannot export"), err);
    });
    connect(presets, &QComboBox::activated, this, [this, presets](int i) {
        if (i > 0)
            if (const QString err = addDesign(presets->itemData(i).toString()); !err.isEmpty())
                showWarning(this, tr("Cannot compare"), err);
        presets->setCurrentIndex(0);
    });
    connect(file, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Design to compare"), lastFolder(), tr("ClusterLens designs (*.json)"));
        rememberFolder(path);
        if (!path.isEmpty())
            if (const QString err = addDesign(path); !err.isEmpty())
                showWarning(this, tr("Cannot compare"), err);
    });
    // Each column named by its design (issue 21: both columns read "this design").
    current_ = current;
    names_.push_back(current.name.empty()
                         ? tr("this design")
                         : tr("%1 (this design)").arg(QString::fromStdString(current.name)));
    evs_.push_back(model::evaluate(current, *catalog_));
    refresh();
}

model::ReportTable CompareDialog::comparison() const {
    std::vector<std::string> names;
    std::vector<const model::Evaluation*> ptrs;
    for (std::size_t i = 0; i < evs_.size(); ++i) {
        names.push_back(names_[i].toStdString());
        ptrs.push_back(&evs_[i]);
    }
    return model::comparison_table(names, ptrs);
}

QString CompareDialog::writeReport(const QString& path) const {
    const model::ReportTable t = comparison();
    return writeReportPdf(path, current_, evs_.front(), catalog_, &t);
}

QString CompareDialog::addDesign(const QString& pathOrPreset) {
    auto d = doc::loadDesign(pathOrPreset, *catalog_);
    if (!d)
        return QString::fromStdString(d.error_text());
    // A variant saved from this design carries its name: the file tells them apart (helper-18:
    // the H200 variant's column read as the H100 original's).
    QString name = QString::fromStdString(d->name.empty() ? pathOrPreset.toStdString() : d->name);
    const QString file = QFileInfo(pathOrPreset).fileName();
    const auto used = [this](const QString& n) {
        return std::find(names_.begin(), names_.end(), n) != names_.end();
    };
    const bool taken = d->name == current_.name || used(name);
    if (taken && !d->name.empty())
        name = tr("%1 (%2)").arg(name, file);
    for (int n = 2; used(name); ++n)
        name = tr("%1 (%2, %3)").arg(QString::fromStdString(d->name), file).arg(n);
    names_.push_back(name);
    evs_.push_back(model::evaluate(*d, *catalog_));
    refresh();
    return {};
}

void CompareDialog::addDesign(const model::Design& design, const QString& name) {
    names_.push_back(name);
    evs_.push_back(model::evaluate(design, *catalog_));
    refresh();
}

void CompareDialog::refresh() {
    std::vector<const model::Evaluation*> ptrs;
    for (const auto& e : evs_)
        ptrs.push_back(&e);
    const auto rows = model::compare_designs(ptrs);
    // The texts as the report prints them (human units: "1,016", "$92,461,417", "+12.3 %").
    const model::ReportTable shown = comparison();
    const int n = static_cast<int>(evs_.size());
    table_->clear();
    table_->setRowCount(static_cast<int>(rows.size()));
    table_->setColumnCount(1 + n + (n - 1));
    // Long design names wrap onto lines of about 34 characters so every column stays in view
    // (helper-18: two names filled the dialog and pushed the change column out of sight).
    const auto wrapped = [](const QString& name) {
        QStringList lines{QString()};
        for (const QString& word : name.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            if (!lines.back().isEmpty() && lines.back().size() + 1 + word.size() > 34)
                lines << QString();
            lines.back() += (lines.back().isEmpty() ? QString() : QStringLiteral(" ")) + word;
        }
        return lines.join(QLatin1Char('\n'));
    };
    // Each design a letter, so a change column says which way it reads in two words (helper-24:
    // "change, H100" beside -43 % read as H100's own change; helper-6: "change, <name> (<file>)
    // vs <name> (this design)" filled five lines).
    const auto letter = [](int i) { return QString(QChar(QLatin1Char('A').unicode() + i % 26)); };
    QStringList head{tr("metric")};
    for (int i = 0; i < n; ++i)
        head << wrapped(tr("%1: %2").arg(letter(i), names_[static_cast<std::size_t>(i)]));
    for (int i = 1; i < n; ++i)
        head << tr("change,\n%1 vs %2").arg(letter(i), letter(0));
    table_->setHorizontalHeaderLabels(head);
    for (int c = 0; c < head.size(); ++c)
        table_->horizontalHeaderItem(c)->setToolTip(
            c > n ? tr("change, %1 vs %2").arg(names_[static_cast<std::size_t>(c - n)], names_[0])
                  : head[c].split(QLatin1Char('\n')).join(' '));
    QStringList notes;
    for (std::size_t i = 0; i < evs_.size(); ++i)
        if (!evs_[i].tco_error.empty())
            notes << tr("%1: no cost numbers — %2")
                         .arg(names_[i], QString::fromStdString(evs_[i].tco_error));
        else if (evs_[i].tco && !evs_[i].tco->has_onprem) // issue 21: one side only
            notes << tr("%1: owning is not costed — %2")
                         .arg(names_[i], QString::fromStdString(evs_[i].tco->onprem_missing));
        else if (evs_[i].tco && !evs_[i].tco->has_cloud)
            notes << tr("%1: renting is not costed — %2")
                         .arg(names_[i], QString::fromStdString(evs_[i].tco->cloud_missing));
    notes_->setText(notes.join(QLatin1Char('\n')));
    notes_->setVisible(!notes.isEmpty());
    for (int r = 0; r < static_cast<int>(rows.size()) && r < static_cast<int>(shown.display.size());
         ++r) {
        const auto& row = rows[static_cast<std::size_t>(r)];
        const auto& text = shown.display[static_cast<std::size_t>(r)];
        // text: metric, unit (empty: in the values), one per design, one change per other design
        table_->setItem(r, 0, new QTableWidgetItem(QString::fromStdString(text[0])));
        for (int c = 0; c < n; ++c)
            table_->setItem(r, 1 + c,
                            new QTableWidgetItem(
                                QString::fromStdString(text[static_cast<std::size_t>(2 + c)])));
        for (int c = 1; c < n; ++c) {
            auto* it = new QTableWidgetItem(
                QString::fromStdString(text[static_cast<std::size_t>(1 + n + c)]));
            const auto& a = row.values[0];
            const auto& b = row.values[static_cast<std::size_t>(c)];
            const int verdict = row.verdict[static_cast<std::size_t>(c)]; // core decides
            if (a && b && *a != 0) {
                const bool better = verdict > 0;
                if (row.within_model_error[static_cast<std::size_t>(c)]) {
                    // Issue 19: inside the bands: not a difference the model can tell.
                    it->setToolTip(
                        tr("Each value lies inside the other's error band (held-out published "
                           "runs; median error %1 %): a change this small is not a difference "
                           "the model can tell.")
                            .arg(100 * std::max(row.model_error[0],
                                                row.model_error[static_cast<std::size_t>(c)]),
                                 0, 'f', 0));
                    it->setForeground(palette().placeholderText().color());
                } else if (verdict != 0) {
                    // A tinted cell, not only coloured text (helper-18 saw no colour at all).
                    it->setBackground(better ? QColor(0xdc, 0xfc, 0xe7) : QColor(0xfe, 0xe2, 0xe2));
                    it->setForeground(better ? QColor(0x15, 0x80, 0x3d) : QColor(0xb9, 0x1c, 0x1c));
                    it->setToolTip(
                        (better ? tr("%1 is better than %2 here") : tr("%1 is worse than %2 here"))
                            .arg(names_[static_cast<std::size_t>(c)], names_[0]));
                }
            }
            table_->setItem(r, n + c, it);
        }
    }
    table_->resizeColumnsToContents();
    const int avail = std::max(table_->viewport()->width(), width() - 40);
    const int cols = table_->columnCount();
    const int cap = std::max(160, avail * 9 / 10 / std::max(1, cols));
    for (int c = 0; c < cols; ++c)
        if (table_->columnWidth(c) > cap)
            table_->setColumnWidth(c, cap);
    table_->resizeRowsToContents();
}

} // namespace cl::ui
