#include "inspector.h"

#include "messages.h"
#include "modelimport.h"
#include "textwrap.h"

#include "model/design.h"
#include "model/findings.h"
#include "model/schema.h"
#include "model/units.h"

#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QStyleOptionSpinBox>
#include <QStylePainter>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

namespace cl::ui {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

/// A word-wrapped label as tall as its text at its width. QFormLayout measures a wrapped row
/// inside the scroll area short (by up to a fifth), and the label drew its text centred in the
/// smaller box: the first and last lines cut (helper-22: the design summary's first line
/// half-hidden, a workload's note under the button above it). The label asks for the height.
class WrappedLabel : public QLabel {
public:
    using QLabel::QLabel;
    void fit() {
        const int h = heightForWidth(width());
        if (h > 0 && h != minimumHeight())
            setMinimumHeight(h);
    }

protected:
    void resizeEvent(QResizeEvent* e) override {
        QLabel::resizeEvent(e);
        fit();
    }
};

/// A number field that hands a number it cannot take itself to `typed` instead of dropping it:
/// QSpinBox and QDoubleSpinBox refuse keystrokes past their range (a typed 999,999,999 became
/// 99), clamp, or go back to the old value when the field loses focus (PUE 0, "1e9" read as 19),
/// all without a word (helper-3, session 19). Here the text stays as typed; on Enter or leaving
/// the field a number outside the range, or one the box cannot read ("1e9"), goes to `typed`,
/// and the inspector sends it to the document, which takes it or refuses it with the reason.
template <class Base> class TypedSpin : public Base {
public:
    std::function<void(double)> typed;

protected:
    QValidator::State validate(QString& text, int& pos) const override {
        const QValidator::State st = Base::validate(text, pos);
        if (st != QValidator::Invalid)
            return st;
        // A number, or one being typed ("1e", "1e9"): shown as typed, judged when committed.
        static const QRegularExpression partial(
            QStringLiteral("^[+-]?[0-9.,]*([eE][+-]?[0-9]*)?$"));
        return number(text) || partial.match(stripped(text)).hasMatch() ? QValidator::Intermediate
                                                                        : st;
    }
    void keyPressEvent(QKeyEvent* e) override {
        if (e->key() == Qt::Key_Return || e->key() == Qt::Key_Enter)
            check();
        Base::keyPressEvent(e);
    }
    void focusOutEvent(QFocusEvent* e) override {
        check();
        Base::focusOutEvent(e);
    }

private:
    QString stripped(const QString& text) const {
        QString t = text.trimmed();
        if (!this->prefix().isEmpty() && t.startsWith(this->prefix()))
            t.remove(0, this->prefix().size());
        if (!this->suffix().isEmpty() && t.endsWith(this->suffix()))
            t.chop(this->suffix().size());
        t.remove(this->locale().groupSeparator());
        return t.trimmed();
    }
    /// The typed text as a number (separators and the unit suffix allowed), if it is one.
    std::optional<double> number(const QString& text) const {
        const QString t = stripped(text);
        bool ok = false;
        const double v = this->locale().toDouble(t, &ok);
        if (!ok || !std::isfinite(v) || t.isEmpty())
            return std::nullopt;
        return v;
    }
    void check() {
        QString text = this->lineEdit()->text();
        int pos = 0;
        if (Base::validate(text, pos) == QValidator::Acceptable || !typed)
            return;
        if (const auto v = number(text)) {
            typed(*v);
            return;
        }
        // A whole number form the box cannot hold as a finite double ("1e309"): sent as it
        // reads, infinite, for the document to refuse with the reason; it was dropped in
        // silence (helper-20, session 31).
        static const QRegularExpression whole(
            QStringLiteral("^[+-]?([0-9]+[.,]?[0-9]*|[.,][0-9]+)([eE][+-]?[0-9]+)?$"));
        const QString t = stripped(text);
        if (whole.match(t).hasMatch())
            typed(t.startsWith(QLatin1Char('-')) ? -std::numeric_limits<double>::infinity()
                                                 : std::numeric_limits<double>::infinity());
    }
};

/// A choice whose text is longer than the field: without its asides, else cut with "…" at the
/// end (fitText; not clipped in the middle of a word: helper-22 read "Disaggregated prefill and
/// d"), the whole text in its list and in its tooltip.
class ElidingCombo : public QComboBox {
public:
    ElidingCombo() {
        connect(this, &QComboBox::currentIndexChanged, this, [this] { updateTip(); });
    }
    void setBaseTip(const QString& tip) {
        base_ = tip;
        updateTip();
    }
    /// The text as drawn (elided to the field's width).
    QString shownText() const {
        QStyleOptionComboBox opt;
        initStyleOption(&opt);
        const QRect r =
            style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, this);
        // A few pixels short of the field: the style's label margins (helper-24 saw the last
        // ")" of "Online (at the request rate)", now "Online (request rate)", cut under the arrow
        // with no "…").
        return fitText(opt.currentText, opt.fontMetrics, r.width() - 8);
    }

protected:
    void paintEvent(QPaintEvent*) override {
        QStylePainter p(this);
        QStyleOptionComboBox opt;
        initStyleOption(&opt);
        p.drawComplexControl(QStyle::CC_ComboBox, opt);
        opt.currentText = shownText();
        p.drawControl(QStyle::CE_ComboBoxLabel, opt);
        setProperty("shownText", opt.currentText); // what a reader sees (the GUI tests read it)
        // The inspector sets values with signals blocked: the tooltip follows what is shown
        // (helper-24: it named the first choice, not the chosen one).
        if (currentText() != tipFor_)
            updateTip();
    }
    void showPopup() override {
        // The list as wide as its longest entry, even when the field is narrower.
        view()->setMinimumWidth(view()->sizeHintForColumn(0) + 24);
        QComboBox::showPopup();
    }

private:
    void updateTip() {
        tipFor_ = currentText();
        setToolTip(tipFor_.isEmpty() ? base_ : tipFor_ + QStringLiteral("\n\n") + base_);
    }
    QString base_, tipFor_;
};

WrappedLabel* plainLabel(const QString& text = {}) {
    auto* l = new WrappedLabel(text);
    l->setTextFormat(Qt::PlainText); // text from files is shown as text, never as HTML
    l->setWordWrap(true);
    return l;
}

/// The heading of a design-level section in the inspector.
QString sectionTitle(model::Section s) {
    switch (s) {
    case model::Section::economics:
        return Inspector::tr("Cost");
    case model::Section::reliability:
        return Inspector::tr("Reliability");
    case model::Section::assumptions:
        return Inspector::tr("Model assumptions");
    case model::Section::fleet:
        return Inspector::tr("Fleet: the jobs this cluster runs");
    default:
        return Inspector::tr("Design");
    }
}

/// A count's unit in the singular at 1 ("1 GPU", "1 node"; issue 21 found "1 GPUs"):
/// showValue picks the suffix for the value.
void markPluralUnit(QAbstractSpinBox* sb, const model::Field& f) {
    if (const QString u = QString::fromStdString(f.display_unit);
        u.size() > 2 && u.endsWith(QLatin1Char('s')) &&
        std::all_of(u.begin(), u.end(), [](QChar c) { return c.isLetter(); }))
        sb->setProperty("pluralUnit", u);
}

/// A field label's widest in a narrow inspector (wider ones wrap onto a second line).
constexpr int kLabelNarrowWidth = 150;
/// ... and its narrowest (the form's minimum width is measured with labels this narrow).
constexpr int kLabelNarrowMinimum = 120;

/// A spin box no narrower than its text and arrows: a row too narrow for the label and the
/// whole value puts the value under its label instead of cutting it (helper-32: a narrow dock
/// showed "Auto: $3.03/GPU-" and "$184.00/kW-mon").
void fitText(QAbstractSpinBox* sb) {
    QStyleOptionSpinBox opt;
    opt.initFrom(sb);
    opt.rect = QRect(0, 0, 200, std::max(20, sb->sizeHint().height()));
    opt.subControls = QStyle::SC_All;
    opt.buttonSymbols = sb->buttonSymbols();
    opt.frame = sb->hasFrame();
    const int edit = sb->style()
                         ->subControlRect(QStyle::CC_SpinBox, &opt, QStyle::SC_SpinBoxEditField, sb)
                         .width();
    const int chrome = std::clamp(200 - edit, 0, 100);
    // The line edit's own margins: 2 px a side (QLineEdit's horizontal margin) and the cursor.
    sb->setMinimumWidth(std::max(Inspector::kEditorMinimumWidth,
                                 sb->fontMetrics().horizontalAdvance(sb->text()) + chrome + 8));
}

QString usd(double v) {
    return QStringLiteral("$%L1").arg(v, 0, 'f', 0);
}

} // namespace

Inspector::Inspector(doc::Document* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    title_ = new QLabel(this);
    title_->setTextFormat(Qt::PlainText);
    QFont f = title_->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    title_->setFont(f);
    title_->setWordWrap(true);
    layout->addWidget(title_);
    scroll_ = new QScrollArea(this);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    // Helper-32: a dock dragged narrower than the form clipped every editor to a few
    // characters, spin arrows gone, with no way to reach the rest. The inspector keeps room
    // for a field under its label (rows wrap first, WrapLongRows below), and should anything
    // still be wider the body scrolls sideways rather than being cut.
    setMinimumWidth(kMinimumWidth);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    body_ = new QWidget(scroll_);
    form_ = new QFormLayout(body_);
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form_->setRowWrapPolicy(QFormLayout::WrapLongRows); // narrow dock: field under its label
    scroll_->setWidget(body_);
    scroll_->viewport()->installEventFilter(this); // its width decides how rows wrap
    layout->addWidget(scroll_, 1);
    connect(doc_, &doc::Document::changed, this, &Inspector::onChanged);
    rebuild();
}

QString Inspector::entityId() const {
    return selection_.size() == 1 ? selection_.front() : QString();
}

std::vector<const model::Field*> Inspector::currentFields() const {
    const auto& d = doc_->design();
    if (selection_.size() > 1) {
        // Several devices: their common count, set for all at once.
        for (const auto& id : selection_)
            if (d.device(id.toStdString()))
                return {model::find_field(model::Section::device, "count")};
        return {};
    }
    const std::string id = entityId().toStdString();
    if (!id.empty() && !d.device(id) && !d.link(id) && !d.workload(id))
        return model::fields_of(d, ""); // the selection is gone: the design
    return model::fields_of(d, id);
}

void Inspector::setSelection(const QStringList& ids) {
    if (ids == selection_)
        return;
    selection_ = ids;
    rebuild();
}

void Inspector::setEvaluation(std::shared_ptr<const model::Evaluation> ev) {
    eval_ = std::move(ev);
    updateDerived();
}

std::string Inspector::traceShown(const model::Design& d) {
    return d.fleet.trace.jobs
               ? d.fleet.trace.name + "#" + std::to_string(d.fleet.trace.jobs->jobs.size())
               : std::string();
}

std::vector<std::string> Inspector::modelIds(const model::Design& d) {
    std::vector<std::string> ids;
    for (const auto& m : d.models)
        ids.push_back(m.id);
    return ids;
}

void Inspector::onChanged(const doc::ChangeEvent& e) {
    // A refused edit's message is about that attempt: once the design changes (another edit,
    // undo, the canvas) it is stale (helper-29 read "(-5 given)" long after). A refusal changes
    // nothing, so it never reaches here.
    if (error_)
        error_->hide();
    // Drop ids that no longer exist (deleted, undone add).
    const auto& d = doc_->design();
    QStringList live;
    for (const auto& id : selection_) {
        const std::string sid = id.toStdString();
        if (d.device(sid) || d.link(sid) || d.workload(sid))
            live << id;
    }
    if (live != selection_ || e.type == doc::ChangeEvent::Reset) {
        selection_ = live;
        rebuild();
        return;
    }
    // The same fields: update values in place (the editor being used keeps its focus and is
    // never deleted under its own key handler). Different fields: rebuild, later.
    // Different fields, or other models to choose from (an imported model joins the choices
    // and shows what was read): rebuild, later -- unless a rebuild happens before then.
    if (currentFields() != shownFields_ || modelIds(d) != shownModels_ ||
        traceShown(d) != shownTrace_) {
        QMetaObject::invokeMethod(
            this,
            [this, at = rebuilds_] {
                if (rebuilds_ == at)
                    rebuild();
            },
            Qt::QueuedConnection);
        return;
    }
    refreshValues();
}

void Inspector::rebuild() {
    ++rebuilds_;
    // Issue 21: a rebuild of the same entity's fields (an edit that shows or hides fields) keeps
    // the place the user was reading; it used to jump back to the top.
    const QString entity = entityId() + QString::number(selection_.size());
    const int keep = entity == shownEntity_ ? scroll_->verticalScrollBar()->value() : 0;
    // The same entity's editor the person was using keeps the keyboard after the rebuild (a Mode
    // chosen by the arrow keys shows the other mode's fields; the focus used to fall out).
    const model::Field* focused = nullptr;
    if (entity == shownEntity_)
        for (const auto& e : editors_)
            if (e.widget->hasFocus() || e.widget->isAncestorOf(QApplication::focusWidget()))
                focused = e.field;
    shownEntity_ = entity;
    shownModels_ = modelIds(doc_->design());
    shownTrace_ = traceShown(doc_->design());
    editors_.clear();
    derived_ = nullptr;
    error_ = nullptr;
    while (form_->rowCount() > 0)
        form_->removeRow(0);
    shownFields_ = currentFields();
    const auto& d = doc_->design();
    const std::string id = entityId().toStdString();
    const model::Device* dev = d.device(id);
    const model::Link* link = d.link(id);
    const model::Workload* w = d.workload(id);
    title_->setToolTip({});
    if (selection_.size() > 1)
        title_->setText(tr("%1 items selected").arg(selection_.size()));
    else if (dev)
        title_->setText(qs(dev->name.empty() ? dev->id : dev->name));
    else if (link)
        title_->setText(tr("Link: %1 to %2")
                            .arg(qs(d.device(link->from) && !d.device(link->from)->name.empty()
                                        ? d.device(link->from)->name
                                        : link->from),
                                 qs(d.device(link->to) && !d.device(link->to)->name.empty()
                                        ? d.device(link->to)->name
                                        : link->to)));
    else if (w)
        title_->setText(qs(w->name.empty() ? w->id : w->name));
    else
        title_->setText(d.name.empty() ? tr("Untitled design") : qs(d.name));

    if (dev) {
        // The id the file and the CLI use, for those who look for it (helper-3: a row "Id in
        // the file" read like an internal reference).
        title_->setToolTip(tr("In the design file: %1").arg(qs(dev->id)));
        const QString kinds[] = {tr("GPU"),          tr("System"),  tr("Server"), tr("Switch"),
                                 tr("Network card"), tr("Storage"), tr("Group")};
        form_->addRow(tr("Kind"), plainLabel(kinds[static_cast<int>(dev->kind)]));
    } else if (link) {
        // Ends by the names a person gave them (the ids stay in the tooltip).
        const auto end = [&d](const std::string& end_id) {
            const auto* e = d.device(end_id);
            auto* l = plainLabel(qs(e && !e->name.empty() ? e->name : end_id));
            l->setToolTip(qs(end_id));
            return l;
        };
        form_->addRow(tr("From"), end(link->from));
        form_->addRow(tr("To"), end(link->to));
    } else if (w) {
        auto* how = new QPushButton(tr("How is this computed?"));
        how->setObjectName(QStringLiteral("explainButton"));
        connect(how, &QPushButton::clicked, this, [this, wid = w->id, kind = w->kind] {
            emit explainRequested(
                qs(wid + (kind == model::WorkloadKind::training ? ".mfu" : ".tpot")));
        });
        form_->addRow(how);
        if (w->kind == model::WorkloadKind::training) {
            auto* find = new QPushButton(tr("Find a layout…"));
            find->setObjectName(QStringLiteral("findLayoutButton"));
            find->setToolTip(tr("Search every TP × PP × CP × EP × micro-batch × ZeRO × recompute "
                                "layout that fits, and apply the one you choose"));
            connect(find, &QPushButton::clicked, this,
                    [this, wid = w->id] { emit findLayoutRequested(qs(wid)); });
            form_->addRow(find);
        }
        // A Hugging Face config.json as this workload's model (also: drop it on the card).
        auto* import = new QPushButton(tr("Import Hugging Face config…"));
        import->setObjectName(QStringLiteral("importHfButton"));
        import->setToolTip(tr("Read a model's config.json (Qwen3, gpt-oss, Llama 4, Gemma 3, "
                              "DeepSeek, Kimi K2, ...) and use it for this workload; the design "
                              "file keeps it. You can also drop the file on the workload card."));
        connect(import, &QPushButton::clicked, this, [this, wid = w->id] {
            QFileDialog dlg(this, tr("Import Hugging Face config"), lastFolder(),
                            tr("Model config (*.json);;All files (*)"));
            dlg.setObjectName(QStringLiteral("importHfDialog"));
            dlg.setFileMode(QFileDialog::ExistingFile);
            dlg.setOption(QFileDialog::DontUseNativeDialog);
            if (dlg.exec() != QDialog::Accepted || dlg.selectedFiles().isEmpty())
                return;
            rememberFolder(dlg.selectedFiles().front());
            // After this click returns: the edit rebuilds the inspector and its buttons.
            QMetaObject::invokeMethod(
                this,
                [this, wid, path = dlg.selectedFiles().front()] {
                    const ImportOutcome out = importHfConfig(*doc_, path, wid);
                    emit statusMessage(out.text);
                    if (!out.ok && error_) {
                        error_->setText(out.text);
                        error_->show();
                    }
                },
                Qt::QueuedConnection);
        });
        form_->addRow(import);
        // What was read, when the model is one the design carries.
        for (const auto& m : d.models)
            if (m.id == w->model) {
                auto* read = plainLabel(qs(model::describe_model(m)));
                read->setObjectName(QStringLiteral("importedModel"));
                read->setWordWrap(true);
                form_->addRow(tr("Imported"), read);
            }
    }
    derived_ = plainLabel();
    derived_->setObjectName(QStringLiteral("verdict"));
    form_->addRow(derived_);
    error_ = plainLabel();
    error_->setObjectName(QStringLiteral("fieldError"));
    error_->setStyleSheet(QStringLiteral("color: #dc2626"));
    error_->hide();
    model::Section section = model::Section::design;
    bool first = true;
    for (const model::Field* f : shownFields_) {
        if (!dev && !link && !w && selection_.size() <= 1 && (first || f->section != section)) {
            auto* header = new QLabel(sectionTitle(f->section));
            QFont hf = header->font();
            hf.setBold(true);
            header->setFont(hf);
            form_->addRow(header);
            // A replayed trace runs its own jobs: the classes' fields wait until it is removed
            // (helper-34: nothing said so, and edits to them changed nothing).
            if (f->section == model::Section::fleet && doc_->design().fleet.trace.jobs) {
                const auto& tr_ = doc_->design().fleet.trace;
                auto* note = plainLabel(
                    tr("Replaying the job trace %1 (%2 jobs): the classes below take effect "
                       "again after Tools > Remove Job Trace; the cluster's fields (policy, "
                       "nodes, sharing, bursting) apply to the replay.")
                        .arg(qs(tr_.name),
                             QLocale(QLocale::English)
                                 .toString(static_cast<qlonglong>(tr_.jobs->jobs.size()))));
                note->setObjectName(QStringLiteral("fleetTraceNote"));
                note->setWordWrap(true);
                form_->addRow(note);
            }
        }
        section = f->section;
        first = false;
        addField(*f);
    }
    form_->addRow(error_);
    // No narrower than the form: a checkbox's label does not wrap ("Interactive: time-sliced"
    // needs ~260 px), and a narrower dock would cut it and every value beside it. Measured once
    // the new rows are shown (a layout leaves hidden widgets out, and Qt shows widgets added to
    // a visible form on the next pass of the event loop).
    fitWidthLater();
    refreshValues();
    updateDerived();
    if (focused)
        for (const auto& e : editors_)
            if (e.field == focused)
                e.widget->setFocus(Qt::OtherFocusReason);
    if (keep > 0)
        QMetaObject::invokeMethod(
            this,
            [this, keep, at = rebuilds_] {
                if (rebuilds_ == at)
                    scroll_->verticalScrollBar()->setValue(keep);
            },
            Qt::QueuedConnection);
    else // another entity starts at its top (helper-34: the last one's offset was kept)
        scroll_->verticalScrollBar()->setValue(0);
}

namespace {
/// A field's unit as a person reads it: money as "$0.08/kWh" and "$620,000", not "0.08 USD/kWh"
/// and "620000.00 USD" (helper-11); a bare ratio without the word ("1.30", not "1.300 ratio").
void showUnit(QAbstractSpinBox* sb, const std::string& unit) {
    const auto set = [sb](const QString& prefix, const QString& suffix) {
        if (auto* d = qobject_cast<QDoubleSpinBox*>(sb)) {
            d->setPrefix(prefix);
            d->setSuffix(suffix);
        } else if (auto* i = qobject_cast<QSpinBox*>(sb)) {
            i->setPrefix(prefix);
            i->setSuffix(suffix);
        }
    };
    if (model::unit_in_label(unit))
        return; // in the label (addEditor): the field shows the number alone
    if (unit.rfind("USD", 0) == 0)
        set(QStringLiteral("$"), QString::fromStdString(unit.substr(3))); // "/kWh", "/year", ""
    else if (!unit.empty() && unit != "bool" && unit != "ratio")
        set(QString(), QLatin1Char(' ') + QString::fromStdString(unit));
}
} // namespace

void Inspector::addField(const model::Field& f) {
    // The default as the field shows it (helper-13: "Default: bf16", "Default: you"): a choice
    // by its label ("BF16: Megatron-Core default"), and "you" as what it means.
    // "value: why" reads "value (why)" after "Default: " (helper-14: "Default: 4: the ...").
    QString source = qs(f.source);
    if (f.source == "you") {
        source = tr("none, you set it");
    } else if (const auto colon = f.source.find(": "); colon != std::string::npos) {
        const std::string value = f.source.substr(0, colon);
        source = (f.type == model::FieldType::choice ? qs(model::choice_label(value)) : qs(value)) +
                 QStringLiteral(" (") + qs(f.source.substr(colon + 2)) + QLatin1Char(')');
    }
    // The help names a choice's values as the list shows them too ("Delayed (amax history):
    // ...; Current (per tensor): ...", not "delayed: ...; current: ...").
    QString help = qs(f.help.empty() ? f.label : f.help);
    if (f.type == model::FieldType::choice)
        for (const auto& c : f.choices) {
            const QString key = qs(c) + QLatin1Char(':');
            const QString label = qs(model::choice_label(c)) + QLatin1Char(':');
            if (help.startsWith(key))
                help.replace(0, key.size(), label);
            for (const QString& before : {QStringLiteral("; "), QStringLiteral(". ")})
                help.replace(before + key, before + label);
        }
    // A help that continues the label ("of the optimizer states", "format") reads with it.
    if (!f.help.empty() && help.at(0).isLower())
        help =
            qs(f.label) +
            (help.startsWith(QStringLiteral("of ")) ? QStringLiteral(" ") : QStringLiteral(": ")) +
            help;
    const QString tip = help + (f.source.empty() ? QString() : tr("\nDefault: %1").arg(source));
    QWidget* w = nullptr;
    const bool multi = selection_.size() > 1;
    switch (f.type) {
    case model::FieldType::integer: {
        auto* sb = new TypedSpin<QSpinBox>;
        sb->typed = [this, &f](double v) { edit(f, v); };
        sb->setRange(static_cast<int>(std::max(f.min, -2147483647.0)),
                     static_cast<int>(std::min(f.max, 2147483647.0)));
        // "36 months", "4,096 tokens" (issue 21: "Horizon 36", "Input tokens 1000")
        sb->setGroupSeparatorShown(true);
        showUnit(sb, f.display_unit);
        markPluralUnit(sb, f);
        sb->setKeyboardTracking(false);
        connect(sb, &QSpinBox::valueChanged, this, [this, &f](int v) { edit(f, double(v)); });
        w = sb;
        break;
    }
    case model::FieldType::number: {
        if (f.unit == "bool") {
            // An on/off assumption the model keeps as 1 or 0 (FlashAttention): a checkbox, not a
            // number to type (helper-6: "FlashAttention (1 = on)").
            auto* cb = new QCheckBox(qs(f.label));
            connect(cb, &QCheckBox::toggled, this,
                    [this, &f](bool on) { edit(f, on ? 1.0 : 0.0); });
            w = cb;
            break;
        }
        auto* sb = new TypedSpin<QDoubleSpinBox>;
        sb->typed = [this, &f](double v) { edit(f, v * f.display_scale); };
        sb->setDecimals(f.decimals);
        sb->setGroupSeparatorShown(true); // 310,000.00, not 310000.00
        sb->setRange(f.min / f.display_scale, f.max / f.display_scale);
        showUnit(sb, f.display_unit);
        if (f.decimals == 0) // a whole count kept as a number ("1 node", not "1 nodes")
            markPluralUnit(sb, f);
        sb->setKeyboardTracking(false);
        // Arrow steps of about a tenth of the value's order of magnitude are set in showValue.
        connect(sb, &QDoubleSpinBox::valueChanged, this,
                [this, &f](double v) { edit(f, v * f.display_scale); });
        w = sb;
        break;
    }
    case model::FieldType::boolean: {
        auto* cb = new QCheckBox(qs(f.label));
        connect(cb, &QCheckBox::toggled, this, [this, &f](bool on) { edit(f, on); });
        w = cb;
        break;
    }
    case model::FieldType::choice: {
        auto* cb = new ElidingCombo;
        const std::string id = entityId().toStdString();
        for (const auto& [value, label] :
             model::field_choices(f, doc_->design(), id, doc_->catalog()))
            cb->addItem(qs(label), qs(value));
        connect(cb, &QComboBox::currentIndexChanged, this, [this, &f, cb](int i) {
            if (i >= 0)
                edit(f, cb->itemData(i).toString().toStdString());
        });
        w = cb;
        break;
    }
    case model::FieldType::text: {
        auto* le = new QLineEdit;
        connect(le, &QLineEdit::editingFinished, this, [this, &f, le] {
            if (le->isReadOnly()) // an excerpt of a text too long to edit here: never written back
                return;
            le->setModified(false); // committed: undo may show the design's value again
            edit(f, le->text().toStdString());
        });
        w = le;
        break;
    }
    }
    w->setObjectName(qs(f.key));
    w->setProperty("baseTip", tip);
    if (!f.unset.empty()) {
        // Unset (0) is its own state: shown as "Auto" and what it stands for (updateDerived
        // fills in the value the evaluation used). 0 or an empty field sets it.
        if (auto* sb = qobject_cast<QAbstractSpinBox*>(w))
            sb->setSpecialValueText(tr("Auto"));
        w->setToolTip(tip + tr("\nAuto (type 0): %1").arg(qs(f.unset)));
    } else {
        w->setToolTip(tip);
        // 0 with a meaning of its own ("Auto"), shown as that meaning, not as a bare 0.
        if (auto* sb = qobject_cast<QAbstractSpinBox*>(w); sb && !f.zero_shows.empty())
            sb->setSpecialValueText(qs(f.zero_shows));
    }
    if (auto* ec = dynamic_cast<ElidingCombo*>(w))
        ec->setBaseTip(w->toolTip()); // the whole choice first, then the field's help
    // A narrow dock: editors take the width the dock gives them, not the width of their longest
    // choice or widest possible number (which pushed the form past the dock's edge).
    if (auto* co = qobject_cast<QComboBox*>(w))
        co->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    w->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    // Wide enough for "Auto: $4,341/GPU" or "$184.00/kW-month" with its arrows: a narrower
    // row puts the field under its label instead of cutting its value.
    w->setMinimumWidth(kEditorMinimumWidth);
    // Fields take the wheel only when focused: scrolling the inspector must not change values.
    w->setFocusPolicy(Qt::StrongFocus);
    w->installEventFilter(this);
    editors_.push_back({&f, w});
    // A unit too long for the field is read in the label: "Node failures (per 1,000 node-days)".
    const QString named = model::unit_in_label(f.display_unit)
                              ? tr("%1 (%2)").arg(qs(f.label), qs(f.display_unit))
                              : qs(f.label);
    const QString label = multi ? tr("%1 (all selected)").arg(named) : named;
    if (qobject_cast<QCheckBox*>(w)) {
        // The checkbox carries its label: across both columns, so a long one is not cut at
        // the field column's edge (helper-24: "Batch inference: preemptibl").
        if (multi)
            qobject_cast<QCheckBox*>(w)->setText(label);
        // No wider than box and text: a click right of the text would do nothing.
        w->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
        w->setMinimumWidth(0);
        form_->addRow(w);
    } else {
        // Labels wrap onto a second line rather than take the width the numbers need for
        // their units ("184.00 USD/kW-month" was cut to "184.00 USD" beside a long label).
        auto* l = new QLabel(label);
        l->setProperty("baseLabel", label);
        l->setWordWrap(true);
        l->setMaximumWidth(kLabelNarrowWidth); // wider in a wide dock: chooseRowWrap
        l->setMinimumWidth(
            std::min(l->fontMetrics().horizontalAdvance(label) + 2, kLabelNarrowMinimum));
        l->setBuddy(w);
        form_->addRow(l, w);
    }
}

void Inspector::chooseRowWrap() {
    // Side by side while every field fits beside the widest label at its minimum; below that,
    // each label above its field at the whole width. (WrapLongRows alone wraps a row but keeps
    // its field in the field column, narrower than the field's minimum: cut again.)
    const QMargins m = form_->contentsMargins();
    const int width = scroll_->viewport()->width() - m.left() - m.right();
    const int spacing = std::max(0, form_->horizontalSpacing());
    int label = 0, field = 0;
    for (const auto& e : editors_)
        if (auto* l = qobject_cast<QLabel*>(form_->labelForField(e.widget))) {
            label = std::max(label, std::min(l->sizeHint().width(), kLabelNarrowWidth));
            field = std::max(field, e.widget->minimumWidth());
        }
    const auto want =
        width < label + spacing + field ? QFormLayout::WrapAllRows : QFormLayout::WrapLongRows;
    if (form_->rowWrapPolicy() != want)
        form_->setRowWrapPolicy(want);
    // A wide dock gives its labels up to two fifths of the width, never the fields' room
    // (helper-34: a 125 px label column wrapped labels onto 3-4 lines beside 460 px fields); a
    // narrow one 150 px, and one above its field the whole width. Side by side a label is as wide
    // as its text up to that (the form squeezes word-wrapped labels to their minimum width
    // otherwise); above its field, its narrow minimum.
    const int label_max =
        want == QFormLayout::WrapAllRows
            ? std::max(kLabelNarrowWidth, width) // above its field: the whole width
            : std::max(kLabelNarrowWidth, std::min(width * 2 / 5, width - spacing - field));
    for (const auto& e : editors_)
        if (auto* l = qobject_cast<QLabel*>(form_->labelForField(e.widget)))
            if (l->maximumWidth() != label_max)
                l->setMaximumWidth(label_max);
    setLabelMinimums(want == QFormLayout::WrapLongRows ? label_max : kLabelNarrowMinimum);
}

void Inspector::setLabelMinimums(int at_most) {
    for (const auto& e : editors_)
        if (auto* l = qobject_cast<QLabel*>(form_->labelForField(e.widget))) {
            const int want = std::min(l->fontMetrics().horizontalAdvance(l->text()) + 2, at_most);
            if (l->minimumWidth() != want)
                l->setMinimumWidth(want);
        }
}

bool Inspector::eventFilter(QObject* watched, QEvent* event) {
    if (watched == scroll_->viewport() && event->type() == QEvent::Resize)
        chooseRowWrap();
    // Undo and Redo in a number field are the design's (helper-46: after typing a value and
    // Return, Ctrl+Z with the field still focused undid the box's text, not the edit): the
    // spin box does not take the shortcut, the window's Undo does.
    if (event->type() == QEvent::ShortcutOverride && qobject_cast<QAbstractSpinBox*>(watched)) {
        auto* ke = static_cast<QKeyEvent*>(event);
        if (ke->matches(QKeySequence::Undo) || ke->matches(QKeySequence::Redo)) {
            event->ignore();
            return true;
        }
    }
    if (event->type() == QEvent::Wheel) {
        auto* w = qobject_cast<QWidget*>(watched);
        if (w && !w->hasFocus()) {
            // Not focused: the wheel scrolls the inspector instead of changing the value.
            QCoreApplication::sendEvent(scroll_->verticalScrollBar(), event);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void Inspector::showValue(const Editor& e) {
    const auto& d = doc_->design();
    QString id = entityId();
    if (selection_.size() > 1)
        for (const auto& s : selection_)
            if (d.device(s.toStdString())) {
                id = s;
                break;
            }
    const model::FieldValue v = e.field->get(d, id.toStdString());
    const QSignalBlocker block(e.widget);
    if (auto* sb = qobject_cast<QSpinBox*>(e.widget)) {
        sb->setValue(static_cast<int>(std::llround(std::get<double>(v))));
        if (const QString plural = sb->property("pluralUnit").toString(); !plural.isEmpty())
            sb->setSuffix(QLatin1Char(' ') + (sb->value() == 1 ? plural.chopped(1) : plural));
    } else if (auto* db = qobject_cast<QDoubleSpinBox*>(e.widget)) {
        const double shown = std::get<double>(v) / e.field->display_scale;
        const double mag =
            std::abs(shown) > 0 ? std::pow(10.0, std::floor(std::log10(std::abs(shown)))) : 1.0;
        db->setSingleStep(std::max(std::pow(10.0, -e.field->decimals), mag / 10.0));
        db->setValue(shown);
        if (const QString plural = db->property("pluralUnit").toString(); !plural.isEmpty())
            db->setSuffix(QLatin1Char(' ') +
                          (std::lround(db->value()) == 1 ? plural.chopped(1) : plural));
    } else if (auto* cb = qobject_cast<QCheckBox*>(e.widget)) {
        cb->setChecked(std::holds_alternative<bool>(v) ? std::get<bool>(v)
                                                       : std::get<double>(v) > 0.5);
    } else if (auto* co = qobject_cast<QComboBox*>(e.widget)) {
        const QString value = qs(std::get<std::string>(v));
        int i = co->findData(value);
        if (i < 0) { // a value the list does not offer (a user catalog entry since removed)
            co->addItem(value, value);
            i = co->count() - 1;
        }
        co->setCurrentIndex(i);
    } else if (auto* le = qobject_cast<QLineEdit*>(e.widget)) {
        const auto& text = std::get<std::string>(v);
        // A line edit holds at most maxLength() characters (32,767) and would cut a longer text
        // from a file, then write the cut text back on the next Enter or focus change. Such a
        // text is shown in part, read-only, and kept whole in the design.
        const bool tooLong = text.size() > static_cast<std::size_t>(le->maxLength());
        if (tooLong != le->isReadOnly()) {
            le->setReadOnly(tooLong);
            le->setToolTip(
                tooLong ? tr("%1 long: too long to edit here; kept whole in the design.")
                              .arg(qs(model::units::format_bytes(static_cast<double>(text.size()))))
                        : le->property("baseTip").toString());
        }
        const QString shown = qs(tooLong ? model::units::excerpt(text, 200) : text);
        // Never overwrite what the person is typing; otherwise show the design's text.
        if ((!le->hasFocus() || !le->isModified()) && le->text() != shown) {
            le->setText(shown);
            // From its start, as the Auto fields (a long name showed only its end: "training
            // cluster (16,384 H100)" for "Llama 3 405B training cluster (16,384 H100)").
            if (!le->hasFocus())
                le->setCursorPosition(0);
        }
    }
}

void Inspector::fitWidthLater() {
    if (fitPending_)
        return;
    fitPending_ = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            fitPending_ = false;
            // The narrowest the form can be: labels at their narrow minimum (a wide dock gives
            // them more; that must not stop the dock from being narrowed again).
            setLabelMinimums(kLabelNarrowMinimum);
            const QMargins m = layout()->contentsMargins();
            setMinimumWidth(
                std::max(kMinimumWidth, body_->minimumSizeHint().width() +
                                            scroll_->verticalScrollBar()->sizeHint().width() +
                                            m.left() + m.right()));
            chooseRowWrap();
        },
        Qt::QueuedConnection);
}

void Inspector::refreshValues() {
    for (const auto& e : editors_) {
        showValue(e);
        if (auto* sb = qobject_cast<QAbstractSpinBox*>(e.widget))
            fitText(sb);
    }
    // Titles follow renames and type changes.
    const auto& d = doc_->design();
    const std::string id = entityId().toStdString();
    if (const auto* dev = d.device(id))
        title_->setText(qs(dev->name.empty() ? dev->id : dev->name));
    else if (const auto* w = d.workload(id))
        title_->setText(qs(w->name.empty() ? w->id : w->name));
    else if (selection_.isEmpty())
        title_->setText(d.name.empty() ? tr("Untitled design") : qs(d.name));
}

void Inspector::edit(const model::Field& f, const model::FieldValue& v) {
    const QString why = selection_.size() > 1 ? doc_->setProperties(selection_, f, v)
                                              : doc_->setProperty(entityId(), f, v);
    if (!error_)
        return;
    // Issue 21: the field's label, not the design path ("Tensor parallel (TP): must be ...").
    error_->setText(QString::fromStdString(model::errors_for_people(why.toStdString())));
    error_->setVisible(!why.isEmpty());
    // The error line sits at the form's end, often out of view below a long form: the status
    // bar says it too, where it is seen (helper-3's refused values looked silently reverted).
    if (!why.isEmpty())
        emit statusMessage(error_->text());
    if (!why.isEmpty()) // refused: the editor shows the design's value again
        for (const auto& e : editors_)
            if (e.field == &f) {
                showValue(e);
                // The reason under the field it is about, in view (helper-31: it sat at the
                // form's end, below a long form, seen only by scrolling).
                int at = -1, row = -1;
                QFormLayout::ItemRole role{};
                form_->getWidgetPosition(error_, &at, &role);
                form_->getWidgetPosition(e.widget, &row, &role);
                if (at >= 0 && row >= 0 && at != row + 1) {
                    const QFormLayout::TakeRowResult taken = form_->takeRow(at);
                    delete taken.labelItem; // the items, not the label they hold
                    delete taken.fieldItem;
                    form_->insertRow(at < row ? row : row + 1, error_);
                }
                error_->show();
                QMetaObject::invokeMethod(
                    this,
                    [this, at = rebuilds_] {
                        if (rebuilds_ == at && error_)
                            scroll_->ensureWidgetVisible(error_, 10, 40);
                    },
                    Qt::QueuedConnection);
            }
}

void Inspector::updateDerived() {
    if (!derived_)
        return;
    // Unset fields show the value the evaluation used for them, with its source.
    if (eval_)
        for (const auto& e : editors_) {
            if (e.field->unset.empty() || e.widget->hasFocus())
                continue;
            const model::UnsetText t = model::unset_text(*e.field, *eval_);
            if (auto* sb = qobject_cast<QAbstractSpinBox*>(e.widget)) {
                sb->setSpecialValueText(qs(t.shown));
                fitText(sb);
                fitWidthLater();
                // Its start in view when longer than the field (helper-24 read "o: 3.79 per").
                if (auto* le = sb->findChild<QLineEdit*>())
                    le->setCursorPosition(0);
            }
            e.widget->setToolTip(e.widget->property("baseTip").toString() + QLatin1Char('\n') +
                                 qs(t.full));
        }
    // A typed value another input stands in for says so beside it (helper-32: the Cost
    // section's utilization gave no sign the fleet's was billed instead).
    if (eval_)
        for (const auto& e : editors_) {
            auto* l = qobject_cast<QLabel*>(form_->labelForField(e.widget));
            if (!l)
                continue;
            const model::OverrideText o = model::override_text(*e.field, *eval_);
            const QString base = l->property("baseLabel").toString();
            const QString shown = o.label.empty() ? base : tr("%1 (%2)").arg(base, qs(o.label));
            if (l->text() != shown) {
                l->setText(shown);
                // As addField sizes a label: its own width up to 120 px, then wrapped
                // (helper-34: the longer text kept the short one's 62 px and was cut).
                l->setMinimumWidth(std::min(l->fontMetrics().horizontalAdvance(shown) + 2, 120));
            }
            if (!o.full.empty() || e.widget->property("overridden").toBool())
                e.widget->setToolTip(e.widget->property("baseTip").toString() +
                                     (o.full.empty() ? QString() : QLatin1Char('\n') + qs(o.full)));
            e.widget->setProperty("overridden", !o.full.empty());
        }
    const auto& d = doc_->design();
    const std::string id = entityId().toStdString();
    QString text;
    QString color;
    if (const auto* w = d.workload(id)) {
        if (eval_)
            for (const auto& we : eval_->workloads)
                if (we.id == w->id) {
                    const bool ok = we.has_memory && we.memory.fits && we.error.empty();
                    // A job that fits but cannot run says why (no network path), not "fits".
                    // Field labels, not design paths (helper-18 after the fabric wizard:
                    // "workloads[0].training.global_batch: ...").
                    text = qs(model::errors_for_people(
                        we.error.empty() || (we.has_memory && !we.memory.fits)
                            ? (we.has_memory ? we.memory.explanation : we.error)
                            : we.error));
                    color = ok ? QStringLiteral("#16a34a") : QStringLiteral("#dc2626");
                }
        // Two services on the same GPUs: said under the verdict, amber when it otherwise fits.
        if (eval_)
            if (const auto f = eval_->findings.workloads.find(w->id);
                f != eval_->findings.workloads.end() && !f->second.sharing.empty()) {
                text += (text.isEmpty() ? QString() : QStringLiteral("\n")) + qs(f->second.sharing);
                if (color == QLatin1String("#16a34a"))
                    color = QStringLiteral("#b45309");
            }
    } else if (const auto* dev = d.device(id)) {
        const model::Provenance* prov = nullptr;
        std::string entry;
        const auto& cat = doc_->catalog();
        if (const auto* s = cat.system(dev->catalog); s && dev->kind == model::DeviceKind::system) {
            prov = &s->provenance;
            entry = s->name;
        } else if (const auto* g = cat.gpu(dev->catalog);
                   g && dev->kind == model::DeviceKind::gpu) {
            prov = &g->provenance;
            entry = g->name;
        } else if (const auto* sw = cat.switch_spec(dev->catalog);
                   sw && dev->kind == model::DeviceKind::switch_) {
            prov = &sw->provenance;
            entry = sw->name;
        }
        // The catalog's confidence words, as a sentence (issue 21: "confidence derived").
        const auto how_sure = [this](const std::string& c) {
            const std::string word = c.substr(0, c.find(' '));
            QString s = word == "sourced"       ? tr("figures from the cited source")
                        : word == "derived"     ? tr("derived from published figures")
                        : word == "third-party" ? tr("a third party's figures")
                                                : qs(c);
            if (word != c && (word == "sourced" || word == "derived" || word == "third-party"))
                s += QStringLiteral(" ") + qs(c.substr(word.size() + 1));
            return s;
        };
        if (prov)
            text = tr("Catalog entry: %1\nSource: %2\nAs of: %3%4 · %5")
                       .arg(qs(entry.empty() ? dev->catalog : entry),
                            prov->source.empty()
                                ? QStringLiteral("-")
                                : qs(model::units::readable_source(prov->source.front())),
                            qs(prov->as_of), prov->user ? tr(" (your catalog)") : QString(),
                            how_sure(prov->confidence));
    } else if (selection_.isEmpty() && eval_) {
        const auto& t = eval_->topology;
        QStringList lines;
        if (!d.description.empty())
            lines << qs(model::units::excerpt(d.description));
        if (t.gpus > 0) { // none: the warning below says what to do (once: helper-22)
            // Parts that are zero are left out, as in the status bar: a workstation's bare GPU
            // is "GPUs 1", not "GPUs 1 · nodes 0 · switches 0".
            QStringList counts{tr("GPUs %L1").arg(t.gpus, 0, 'f', 0)};
            if (t.nodes > 0)
                counts << tr("nodes %L1").arg(t.nodes, 0, 'f', 0);
            if (t.switches > 0)
                counts << tr("switches %L1").arg(t.switches, 0, 'f', 0);
            lines << counts.join(QStringLiteral(" · "));
            lines << tr("GPU type %1 · total memory %2")
                         .arg(qs(t.gpu_name.empty() ? t.gpu : t.gpu_name),
                              qs(model::units::format_bytes(t.hbm_bytes)));
            // Power in kW, as the bill of materials below says it (helper-16: "max power 20.9
            // MW" over "Power 20,890 kW IT nameplate").
            // A figure the catalog lacks is left out, not shown as 0 (helper-26).
            QStringList peak;
            if (t.peak_bf16_flops > 0)
                peak << tr("Peak BF16 (dense) %1")
                            .arg(qs(model::units::format_si(t.peak_bf16_flops, "FLOP/s")));
            if (t.power_w > 0)
                peak << tr("max power %1 kW").arg(qs(model::units::format_kw(t.power_w / 1000)));
            if (!peak.isEmpty())
                lines << peak.join(QStringLiteral(" · "));
        }
        for (const auto& warn : t.warnings)
            lines << QStringLiteral("⚠ ") + qs(warn);
        if (eval_->tco) {
            // Bill of materials derived from the drawing (docs/cost.md).
            const auto& tc = *eval_->tco;
            const auto& inv = tc.inventory;
            lines << QString() << tr("Bill of materials");
            lines << tr("Servers %L1 (%2)")
                         .arg(inv.servers, 0, 'f', 0)
                         .arg(tc.has_onprem ? usd(tc.onprem_breakdown.servers) : tr("not priced"));
            lines << tr("Switches %L1 (%2)")
                         .arg(inv.switches, 0, 'f', 0)
                         .arg(usd(inv.switch_capex_usd));
            lines << tr("Cables + optics %L1 (%2)")
                         .arg(inv.cables, 0, 'f', 0)
                         .arg(usd(inv.cable_capex_usd));
            lines << tr("NICs %L1 (in server price)").arg(inv.nics, 0, 'f', 0);
            if (tc.has_onprem)
                lines << tr("Storage %1").arg(usd(tc.onprem_breakdown.storage));
            // Rounded as the Cost caption and the report round them (helper-10: "10 kW" here,
            // "10.2 kW" under the chart).
            lines << tr("Power %1 kW IT nameplate, %2 kW facility avg.")
                         .arg(QString::fromStdString(model::units::format_kw(tc.it_power_peak_kw)),
                              QString::fromStdString(model::units::format_kw(tc.power_kw)));
            // What a rack has room for, not what it holds (helper-11: "Racks 1 (4 servers
            // each)" on a design of 2 servers).
            lines << tr("Racks %L1 (room for %2 each)")
                         .arg(tc.racks, 0, 'f', 0)
                         .arg(tc.servers_per_rack == 1
                                  ? tr("1 server")
                                  : tr("%L1 servers").arg(tc.servers_per_rack, 0, 'f', 0));
            for (const auto& n : inv.notes)
                lines << tr("Note: %1").arg(qs(n)); // (ⓘ was a missing glyph: helper-24)
        }
        text = lines.join(QLatin1Char('\n'));
    }
    derived_->setText(text);
    if (auto* wl = dynamic_cast<WrappedLabel*>(derived_))
        wl->fit(); // the new text's height at the width it has (no resize tells it)
    derived_->setStyleSheet(color.isEmpty() ? QString() : QStringLiteral("color: %1").arg(color));
    derived_->setVisible(!text.isEmpty());
}

} // namespace cl::ui
