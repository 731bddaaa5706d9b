#pragma once
// The inspector edits the selection. Its rows come from the property schema (core/model/
// schema.h): one editor per field that applies to the selected entity, each edit one call to
// Document::setProperty. On a change event the editors update their values in place; the form
// is rebuilt only when the selection's set of fields changes, never from inside an editor's
// own event handler. Numbers derived from the evaluation (verdict, bill of materials) are
// shown in labels that update in place.

#include "document/document.h"
#include "model/evaluate.h"

#include <QWidget>

#include <memory>
#include <vector>

class QFormLayout;
class QLabel;
class QScrollArea;

namespace cl::ui {

class Inspector : public QWidget {
    Q_OBJECT
public:
    explicit Inspector(doc::Document* doc, QWidget* parent = nullptr);
    /// The narrowest the inspector (and its dock) goes, and the narrowest an editor goes before
    /// its row wraps the field under the label.
    static constexpr int kMinimumWidth = 250;
    static constexpr int kEditorMinimumWidth = 140;
    void setSelection(const QStringList& ids);
    void setEvaluation(std::shared_ptr<const model::Evaluation> ev);

signals:
    /// "How is this computed?" for an explanation key (core/model/explain).
    void explainRequested(const QString& key);
    /// "Find a layout…" for a training workload.
    void findLayoutRequested(const QString& workloadId);
    /// A line for the status bar (what an import read, or why it was refused).
    void statusMessage(const QString& text);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Editor {
        const model::Field* field;
        QWidget* widget;
    };
    void onChanged(const doc::ChangeEvent& e);
    void rebuild();
    void addField(const model::Field& f);
    void refreshValues();
    void showValue(const Editor& e);
    void edit(const model::Field& f, const model::FieldValue& v);
    void updateDerived();
    /// The inspector no narrower than its form, measured once pending rows are shown.
    void fitWidthLater();
    /// Labels beside their fields, or above them when the dock is too narrow for both.
    /// Each field label's minimum width: its text's, up to `at_most` px.
    void setLabelMinimums(int at_most);
    void chooseRowWrap();
    bool fitPending_ = false;
    [[nodiscard]] QString entityId() const;
    [[nodiscard]] std::vector<const model::Field*> currentFields() const;

    doc::Document* doc_;
    QStringList selection_;
    std::shared_ptr<const model::Evaluation> eval_;
    QScrollArea* scroll_ = nullptr;
    QWidget* body_ = nullptr;
    QFormLayout* form_ = nullptr;
    QLabel* title_ = nullptr;
    QLabel* derived_ = nullptr; ///< evaluation-derived text (verdict, bill of materials)
    QLabel* error_ = nullptr;   ///< why the last edit was refused
    std::vector<Editor> editors_;
    std::vector<const model::Field*> shownFields_;
    std::vector<std::string> shownModels_; ///< the design's models when the rows were built
    std::string shownTrace_; ///< the design's job trace when the rows were built (traceShown)
    QString shownEntity_;    ///< whose fields the last rebuild showed (its scroll is kept)
    int rebuilds_ = 0;       ///< a queued rebuild skips when one ran since
    /// The design's imported job trace as the Fleet section's note shows it ("" = none).
    static std::string traceShown(const model::Design& d);
    static std::vector<std::string> modelIds(const model::Design& d);
};

} // namespace cl::ui
