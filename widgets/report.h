#pragma once
// Reports: the PDF (title page, the canvas, assumptions with sources, every table, every
// chart, explanations of the key numbers, page numbers), CSV, and PNG/SVG of a chart or of
// the canvas. Content comes from core/model/report (tables) and explain (explanations).

#include "model/catalog.h"
#include "model/design.h"
#include "model/evaluate.h"
#include "model/report.h"

#include <QString>

#include <memory>

class QWidget;

namespace cl::ui {

class CanvasScene;

/// Writes the PDF report; returns an error text (empty on success). Needs a QApplication.
/// `comparison` (model::comparison_table, Tools > Compare) becomes a section after the summary
/// when it has rows.
QString writeReportPdf(const QString& path, const model::Design& design,
                       const model::Evaluation& ev, std::shared_ptr<const model::Catalog> catalog,
                       const model::ReportTable* comparison = nullptr);

/// Writes one CSV (FILE.csv, with a table column) or a directory of CSVs (DIR/).
QString writeReportCsv(const QString& path, const model::Design& design,
                       const model::Evaluation& ev, const model::Catalog& catalog);

/// A widget (a chart tab) or a scene as PNG or SVG, by the file's suffix.
QString exportWidgetImage(QWidget* widget, const QString& path);
QString exportSceneImage(CanvasScene* scene, const QString& path);

} // namespace cl::ui
