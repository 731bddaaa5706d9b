#pragma once
// The inspector edits the selection's properties; each edit is one ChangeEntity command.

#include "document/document.h"
#include "model/evaluate.h"

#include <QWidget>

#include <memory>

class QFormLayout;
class QLabel;

namespace cl::ui {

class Inspector : public QWidget {
    Q_OBJECT
public:
    explicit Inspector(doc::Document* doc, QWidget* parent = nullptr);
    void setSelection(const QStringList& ids);
    void setEvaluation(std::shared_ptr<const model::Evaluation> ev);

signals:
    /// "How is this computed?" for an explanation key (core/model/explain).
    void explainRequested(const QString& key);

private:
    void rebuild();
    void showDevice(const model::Device& d);
    void showWorkload(const model::Workload& w);
    void showDesign();
    void showSettings();
    void showMany();
    void showLink(const model::Link& l);
    void updateVerdict();

    doc::Document* doc_;
    QStringList selection_;
    std::shared_ptr<const model::Evaluation> eval_;
    QWidget* body_ = nullptr;
    QFormLayout* form_ = nullptr;
    QLabel* title_ = nullptr;
    QLabel* verdict_ = nullptr; ///< the selected workload's memory verdict
    bool editing_ = false;
};

} // namespace cl::ui
