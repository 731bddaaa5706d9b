#include "comparedialog.h"
#include "messages.h"

#include "document/document.h"
#include "model/compare.h"
#include "model/units.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

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
    presets->addItems(doc::presetIds());
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
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    v->addWidget(table_, 1);
    auto* close = new QPushButton(tr("Close"));
    connect(close, &QPushButton::clicked, this, &QDialog::accept);
    v->addWidget(close, 0, Qt::AlignRight);
    connect(presets, &QComboBox::activated, this, [this, presets](int i) {
        if (i > 0)
            if (const QString err = addDesign(presets->itemText(i)); !err.isEmpty())
                showWarning(this, tr("Cannot compare"), err);
        presets->setCurrentIndex(0);
    });
    connect(file, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Design to compare"), {},
                                                          tr("ClusterLens designs (*.json)"));
        if (!path.isEmpty())
            if (const QString err = addDesign(path); !err.isEmpty())
                showWarning(this, tr("Cannot compare"), err);
    });
    names_.push_back(tr("this design"));
    evs_.push_back(model::evaluate(current, *catalog_));
    refresh();
}

QString CompareDialog::addDesign(const QString& pathOrPreset) {
    auto d = doc::loadDesign(pathOrPreset, *catalog_);
    if (!d)
        return QString::fromStdString(d.error_text());
    names_.push_back(
        QString::fromStdString(d->name.empty() ? pathOrPreset.toStdString() : d->name));
    evs_.push_back(model::evaluate(*d, *catalog_));
    refresh();
    return {};
}

void CompareDialog::refresh() {
    std::vector<const model::Evaluation*> ptrs;
    for (const auto& e : evs_)
        ptrs.push_back(&e);
    const auto rows = model::compare_designs(ptrs);
    const int n = static_cast<int>(evs_.size());
    table_->clear();
    table_->setRowCount(static_cast<int>(rows.size()));
    table_->setColumnCount(1 + n + (n - 1));
    QStringList head{tr("metric")};
    for (const auto& name : names_)
        head << name;
    for (int i = 1; i < n; ++i)
        head << tr("change (%1)").arg(i + 1);
    table_->setHorizontalHeaderLabels(head);
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        const auto& row = rows[static_cast<std::size_t>(r)];
        table_->setItem(r, 0,
                        new QTableWidgetItem(QString::fromStdString(
                            row.metric + (row.unit.empty() ? "" : " (" + row.unit + ")"))));
        for (int c = 0; c < n; ++c) {
            const auto& val = row.values[static_cast<std::size_t>(c)];
            table_->setItem(r, 1 + c,
                            new QTableWidgetItem(
                                val ? QString::fromStdString(model::units::format_si(*val, "", 3))
                                    : QStringLiteral("–")));
        }
        for (int c = 1; c < n; ++c) {
            const auto& a = row.values[0];
            const auto& b = row.values[static_cast<std::size_t>(c)];
            auto* it = new QTableWidgetItem(QStringLiteral("–"));
            if (a && b && *a != 0) {
                const double ch = *b / *a - 1;
                it->setText(
                    QStringLiteral("%1%2 %").arg(ch >= 0 ? "+" : "").arg(ch * 100, 0, 'f', 1));
                const bool better = row.lower_is_better ? ch < 0 : ch > 0;
                if (row.within_model_error[static_cast<std::size_t>(c)]) {
                    // Issue 19: inside the bands: not a difference the model can tell.
                    it->setText(it->text() + tr(", within the model's error"));
                    it->setToolTip(
                        tr("Each value lies inside the other's error band (held-out published "
                           "runs; median error %1 %): a change this small is not a difference "
                           "the model can tell.")
                            .arg(100 * std::max(row.model_error[0],
                                                row.model_error[static_cast<std::size_t>(c)]),
                                 0, 'f', 0));
                    it->setForeground(palette().placeholderText().color());
                } else if (std::abs(ch) > 1e-9) {
                    it->setForeground(better ? QColor(0x16, 0xa3, 0x4a) : QColor(0xdc, 0x26, 0x26));
                }
            }
            table_->setItem(r, n + c, it);
        }
    }
}

} // namespace cl::ui
