// Every field of every entity kind, worked the way a person does (issue 16): select the entity
// with a mouse click on the canvas (or click empty canvas for the design itself), then for each
// field the inspector shows -- the list comes from the property schema, so a new field is
// covered without touching this test -- press Up and Down, type a value + Enter, type a value +
// Tab, turn the wheel with and without focus, pick a choice with the keyboard, toggle a check
// box with a click and with Space. After each edit: the design holds what the field shows;
// the toolbar's Undo button (clicked) brings the value back. Runs on a real X server (xcb,
// Xvfb): tests/widgets/on-xvfb.sh.
#include "canvas.h"
#include "charts.h"
#include "explainpanel.h"
#include "inspector.h"
#include "mainwindow.h"
#include "model/schema.h"
#include "realinput.h"

#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGraphicsItem>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>
#include <QWheelEvent>
#include <QtTest>

#include <cmath>

using namespace cl;

using namespace realinput;

class TestInspectorInput : public QObject {
    Q_OBJECT
private:
    std::shared_ptr<const model::Catalog> cat_;
    int edits_ = 0;

    QWidget* editor(ui::MainWindow& w, const model::Field& f) {
        // A queued rebuild first (a Mode change shows the other mode's fields): the editor found
        // is the one on screen, not one about to be replaced.
        QCoreApplication::processEvents();
        for (auto* c : w.inspector()->findChildren<QWidget*>(QString::fromStdString(f.key)))
            if (c->isVisible())
                return c;
        return nullptr;
    }
    /// Shows the window, opens `preset` by the menus and clicks its first workload of `kind`
    /// (of model `model_id` when given) on the canvas: that workload's id, or empty when a step
    /// failed (the caller checks).
    QString openPresetAndClickWorkload(ui::MainWindow& w, const QString& preset,
                                       model::WorkloadKind kind, const char* model_id = nullptr) {
        w.resize(1216, 760);
        if (!showActive(w) ||
            !menuPath(w, {QStringLiteral("File"), QStringLiteral("Open Preset"), preset}) ||
            !QTest::qWaitFor([&] { return w.evaluator()->current() != nullptr; }))
            return {};
        for (const auto& wl : w.document()->design().workloads)
            if (wl.kind == kind && (!model_id || wl.model == model_id)) {
                const QString id = QString::fromStdString(wl.id);
                return clickEntity(w, id) ? id : QString();
            }
        return {};
    }
    /// The H200 preset's serving workload clicked and switched to Qwen3-235B-A22B in the Model
    /// combo, evaluated: its id, or empty when a step failed.
    QString openQwenServing(ui::MainWindow& w) {
        const QString id = openPresetAndClickWorkload(w, QStringLiteral("h200-inference-8x"),
                                                      model::WorkloadKind::inference);
        if (id.isEmpty() || !choose(w, "model", QStringLiteral("qwen3-235b-a22b")))
            return {};
        const bool done = QTest::qWaitFor([&] {
            const auto ev = w.evaluator()->current();
            return ev && !ev->workloads.empty() && ev->workloads.front().model == "qwen3-235b-a22b";
        });
        return done ? id : QString();
    }
    /// The combo of field `key` scrolled into view, `value` chosen in it by the mouse, and the
    /// combo again as the rebuilt inspector shows it, scrolled into view (null when a step
    /// failed).
    QComboBox* choose(ui::MainWindow& w, const char* key, const QString& value) {
        auto* box = field<QComboBox>(w, key);
        if (!box)
            return nullptr;
        reveal(w, box);
        if (!chooseInCombo(box, value))
            return nullptr;
        box = field<QComboBox>(w, key); // the inspector is rebuilt after an edit
        if (box)
            reveal(w, box);
        return box;
    }
    void reveal(ui::MainWindow& w, QWidget* e) {
        if (auto* sa = w.inspector()->findChild<QScrollArea*>())
            sa->ensureWidgetVisible(e, 10, 40);
        QCoreApplication::processEvents();
    }
    model::FieldValue value(ui::MainWindow& w, const model::Field& f, const QString& id) {
        return f.get(w.document()->design(), id.toStdString());
    }
    /// The design holds what the editor shows (or the edit was refused with a reason and both
    /// still show the old value).
    bool consistent(ui::MainWindow& w, const model::Field& f, const QString& id) {
        QWidget* e = editor(w, f);
        if (!e)
            return false;
        const model::FieldValue v = value(w, f, id);
        if (auto* sb = qobject_cast<QSpinBox*>(e))
            return std::llround(std::get<double>(v)) == sb->value();
        if (auto* db = qobject_cast<QDoubleSpinBox*>(e)) {
            const double shown = db->value() * f.display_scale;
            const double tol = std::pow(10.0, -db->decimals()) * f.display_scale * 0.51;
            return std::abs(std::get<double>(v) - shown) <= tol;
        }
        if (auto* cb = qobject_cast<QCheckBox*>(e)) // on/off, or a 0/1 assumption (FlashAttention)
            return (std::holds_alternative<bool>(v) ? std::get<bool>(v)
                                                    : std::get<double>(v) > 0.5) == cb->isChecked();
        if (auto* co = qobject_cast<QComboBox*>(e))
            return co->currentData().toString().toStdString() == std::get<std::string>(v);
        if (auto* le = qobject_cast<QLineEdit*>(e)) {
            if (le->text().toStdString() != std::get<std::string>(v))
                qWarning("line edit shows \"%s\", design has \"%s\"", qPrintable(le->text()),
                         std::get<std::string>(v).c_str());
            return le->text().toStdString() == std::get<std::string>(v);
        }
        return false;
    }
    /// Clicks Undo when the last gesture changed the design, and checks the value is back.
    void undoTo(ui::MainWindow& w, const model::Field& f, const QString& id,
                const model::FieldValue& before, int stackBefore) {
        auto* stack = w.document()->undoStack();
        if (stack->index() == stackBefore)
            return; // refused or unchanged: nothing to undo
        ++edits_;
        QCOMPARE(stack->index(), stackBefore + 1); // one gesture, one undo step
        QToolButton* undo = undoButton(w);
        QVERIFY(undo);
        // The button says "Undo"; its tooltip names the step (helper-15: the step's name on the
        // button pushed the toolbar along).
        QCOMPARE(undo->text(), QStringLiteral("Undo"));
        QVERIFY2(undo->toolTip().startsWith(QStringLiteral("Undo ")) && undo->toolTip().size() > 5,
                 qPrintable(undo->toolTip()));
        QTest::mouseClick(undo, Qt::LeftButton);
        QCOMPARE(stack->index(), stackBefore);
        QVERIFY2(value(w, f, id) == before, f.key.c_str());
        QTRY_VERIFY2(consistent(w, f, id), f.key.c_str());
    }
    void focusEditor(QWidget* e) { QVERIFY(focusByMouse(e)); }
    void wheel(QWidget* e, int delta) {
        const QPoint local(e->width() / 2, e->height() / 2);
        QWheelEvent ev(local, e->mapToGlobal(local), QPoint(), QPoint(0, delta), Qt::NoButton,
                       Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(e, &ev);
    }

    /// Works one field of entity `id` with every gesture its editor takes.
    void workField(ui::MainWindow& w, const model::Field& f, const QString& id) {
        auto* stack = w.document()->undoStack();
        QWidget* e = editor(w, f);
        QVERIFY2(e, ("no editor for " + f.key).c_str());
        reveal(w, e);
        QVERIFY2(consistent(w, f, id), f.key.c_str());
        const auto gesture = [&](auto&& act) {
            e = editor(w, f);
            QVERIFY2(e, f.key.c_str());
            reveal(w, e);
            const model::FieldValue before = value(w, f, id);
            const int idx = stack->index();
            act(e);
            QTRY_VERIFY2(consistent(w, f, id), f.key.c_str());
            undoTo(w, f, id, before, idx);
        };
        if (auto* sb = qobject_cast<QAbstractSpinBox*>(e)) {
            const bool atMax = [&] {
                if (auto* i = qobject_cast<QSpinBox*>(sb))
                    return i->value() >= i->maximum();
                auto* d = qobject_cast<QDoubleSpinBox*>(sb);
                return d->value() + d->singleStep() > d->maximum();
            }();
            gesture([&](QWidget* x) {
                focusEditor(x);
                QTest::keyClick(x, atMax ? Qt::Key_Down : Qt::Key_Up);
            });
            gesture([&](QWidget* x) {
                focusEditor(x);
                QTest::keyClick(x, Qt::Key_Down);
            });
            // A typed value: one step away from the current one, then Enter (and then Tab).
            for (Qt::Key commit : {Qt::Key_Return, Qt::Key_Tab}) {
                gesture([&](QWidget* x) {
                    focusEditor(x);
                    QString text;
                    if (auto* i = qobject_cast<QSpinBox*>(x))
                        text = QString::number(i->value() < i->maximum() ? i->value() + 1
                                                                         : i->value() - 1);
                    else {
                        auto* d = qobject_cast<QDoubleSpinBox*>(x);
                        const double next = d->value() + d->singleStep() <= d->maximum()
                                                ? d->value() + d->singleStep()
                                                : d->value() - d->singleStep();
                        text = QLocale().toString(next, 'f', d->decimals());
                    }
                    QTest::keyClick(x, Qt::Key_A, Qt::ControlModifier);
                    QTest::keyClicks(x, text);
                    QTest::keyClick(x, commit);
                });
            }
            // The wheel with focus changes the value ...
            gesture([&](QWidget* x) {
                focusEditor(x);
                wheel(x, atMax ? -120 : 120);
            });
            // ... and without focus scrolls the inspector, never the value.
            e = editor(w, f);
            QTest::mouseClick(w.inspector(), Qt::LeftButton, {}, QPoint(2, 2));
            w.inspector()->setFocus(Qt::MouseFocusReason);
            QTRY_VERIFY(!e->hasFocus());
            const int idx = stack->index();
            wheel(e, 120);
            wheel(e, -120);
            QCOMPARE(stack->index(), idx);
        } else if (qobject_cast<QComboBox*>(e)) {
            for (Qt::Key k : {Qt::Key_Down, Qt::Key_Up}) {
                gesture([&](QWidget* x) {
                    focusEditor(x);
                    auto* co = qobject_cast<QComboBox*>(x);
                    const bool last = co->currentIndex() + 1 >= co->count();
                    QTest::keyClick(x, k == Qt::Key_Down && !last ? Qt::Key_Down : Qt::Key_Up);
                });
            }
            e = editor(w, f);
            QTest::mouseClick(w.inspector(), Qt::LeftButton, {}, QPoint(2, 2));
            w.inspector()->setFocus(Qt::MouseFocusReason);
            const int idx = stack->index();
            wheel(e, -120);
            QCOMPARE(stack->index(), idx); // unfocused: no change
        } else if (qobject_cast<QCheckBox*>(e)) {
            gesture([&](QWidget* x) {
                QTest::mouseClick(x, Qt::LeftButton, {}, QPoint(8, x->height() / 2));
            });
            gesture([&](QWidget* x) {
                x->setFocus(Qt::TabFocusReason);
                QTest::keyClick(x, Qt::Key_Space);
            });
        } else if (qobject_cast<QLineEdit*>(e)) {
            gesture([&](QWidget* x) {
                focusEditor(x);
                QTest::keyClick(x, Qt::Key_A, Qt::ControlModifier);
                QTest::keyClicks(x, QStringLiteral("Renamed by keys"));
                QTest::keyClick(x, Qt::Key_Return);
            });
        } else {
            QFAIL(("unknown editor for " + f.key).c_str());
        }
    }

    /// Opens `preset`, selects `id` by clicking it on the canvas (empty id: clicks empty
    /// canvas), works every field the schema lists for it.
    void workEntity(const QString& preset, const QString& id) {
        ui::MainWindow w(cat_);
        QVERIFY(showActive(w));
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Open Preset"), preset}));
        QVERIFY2(clickEntity(w, id),
                 qPrintable(QStringLiteral("cannot select %1 by a click").arg(id)));
        const auto fields = model::fields_of(w.document()->design(), id.toStdString());
        QVERIFY(!fields.empty());
        for (const model::Field* f : fields) {
            workField(w, *f, id);
            if (QTest::currentTestFailed()) {
                qWarning("field %s.%s", std::string(model::section_name(f->section)).c_str(),
                         f->key.c_str());
                return;
            }
        }
        QVERIFY(edits_ > 0);
        qInfo("%s %s: %zu fields, %d edits undone", qPrintable(preset), qPrintable(id),
              fields.size(), edits_);
    }

    /// Drags the separator left of `dock` with the mouse to x = `to` (window coordinates), in
    /// steps: the main window applies a separator's move on its next timer tick. False when the
    /// cursor did not turn into the separator's.
    static bool dragDockEdge(ui::MainWindow& w, QDockWidget* dock, int to) {
        const QPoint grip(dock->geometry().left() - 2, dock->geometry().center().y());
        QTest::mouseMove(&w, grip);
        if (!QTest::qWaitFor([&] { return w.cursor().shape() == Qt::SplitHCursor; }))
            return false;
        QTest::mousePress(&w, Qt::LeftButton, {}, grip);
        const int step = to > grip.x() ? 40 : -40;
        for (int x = grip.x() + step / 2; step > 0 ? x < to : x > to; x += step) {
            QTest::mouseMove(&w, QPoint(x, grip.y()));
            QTest::qWait(20);
        }
        QTest::mouseMove(&w, QPoint(to, grip.y()));
        QTest::qWait(20);
        QTest::mouseRelease(&w, Qt::LeftButton, {}, QPoint(to, grip.y()));
        return true;
    }

private slots:
    void initTestCase() {
        auto c = model::Catalog::bundled();
        QVERIFY2(c.ok(), c.error_text().c_str());
        cat_ = std::make_shared<const model::Catalog>(c.value());
    }
    void init() { edits_ = 0; }

    void trainingWorkload() {
        workEntity(QStringLiteral("h100-ndr-2node"), QStringLiteral("finetune"));
    }
    void inferenceWorkload() {
        const auto probe =
            doc::loadDesign(QStringLiteral("h200-inference-8x"), *cat_); // to learn the ids
        QVERIFY(probe.ok());
        workEntity(QStringLiteral("h200-inference-8x"),
                   QString::fromStdString(probe->workloads.front().id));
    }
    void device() { workEntity(QStringLiteral("h100-ndr-2node"), QStringLiteral("node")); }
    void link() {
        const auto probe =
            doc::loadDesign(QStringLiteral("h100-ndr-2node"), *cat_); // to learn the ids
        QVERIFY(probe.ok());
        workEntity(QStringLiteral("h100-ndr-2node"),
                   QString::fromStdString(probe->links.front().id));
    }
    void group() {
        const auto probe =
            doc::loadDesign(QStringLiteral("llama3-16k-h100"), *cat_); // to learn the ids
        QVERIFY(probe.ok());
        QString id;
        for (const auto& d : probe->devices)
            if (d.kind == model::DeviceKind::group && d.parent.empty())
                id = QString::fromStdString(d.id);
        QVERIFY(!id.isEmpty());
        workEntity(QStringLiteral("llama3-16k-h100"), id);
    }
    // A field that may be unset shows "Auto" with the value the evaluation used; a typed value
    // is used as given; typing 0 returns it to Auto (issue 17 item 4).
    void unsetFieldShowsAuto() {
        ui::MainWindow w(cat_);
        QVERIFY(showActive(w));
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Open Preset"),
                             QStringLiteral("llama3-16k-h100")}));
        QVERIFY(clickEntity(w, QString()));
        auto* mtbf = field<QDoubleSpinBox>(w, "mtbf_hours");
        QVERIFY(mtbf);
        reveal(w, mtbf);
        QTRY_VERIFY2(mtbf->text().startsWith(QStringLiteral("Auto: ")), qPrintable(mtbf->text()));
        QVERIFY(mtbf->toolTip().contains(QStringLiteral("the failure rate")));
        QVERIFY(typeNumber(mtbf, QStringLiteral("12")));
        QCOMPARE(w.document()->design().reliability.mtbf_hours, 12.0);
        QVERIFY(!mtbf->text().startsWith(QStringLiteral("Auto")));
        QVERIFY(typeNumber(mtbf, QStringLiteral("0")));
        QCOMPARE(w.document()->design().reliability.mtbf_hours, 0.0);
        QTRY_VERIFY2(mtbf->text().startsWith(QStringLiteral("Auto")), qPrintable(mtbf->text()));
    }

    // Helper-3 (session 19): a number the field cannot take is refused with the reason, never
    // clamped or dropped without a word (a typed 999,999,999 became 99; PUE 0 went back to the
    // old value; "1e9" was read as 19).
    void outOfRangeIsRefusedWithTheReason() {
        ui::MainWindow w(cat_);
        QVERIFY(showActive(w));
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Open Preset"),
                             QStringLiteral("h100-ndr-2node")}));
        QVERIFY(clickEntity(w, QString()));
        const auto& e = w.document()->design().economics;
        const double price = e.power_usd_per_kwh, pue = e.pue;
        const int months0 = e.months;
        auto* error = w.inspector()->findChild<QLabel*>(QStringLiteral("fieldError"));
        QVERIFY(error);
        auto* power = field<QDoubleSpinBox>(w, "power_usd_per_kwh");
        QVERIFY(power);
        reveal(w, power);
        QVERIFY(typeNumber(power, QStringLiteral("999999999")));
        QCOMPARE(w.document()->design().economics.power_usd_per_kwh, price);
        QTRY_VERIFY(error->isVisible());
        QVERIFY2(error->text().contains(QStringLiteral("must be between")) &&
                     error->text().contains(QStringLiteral("999,999,999 given")),
                 qPrintable(error->text()));
        // Said where it is seen: in the status bar, and right under the field it is about, in
        // view (helper-31: at the form's end it was seen only by scrolling).
        QVERIFY2(w.statusBar()->currentMessage() == error->text(),
                 qPrintable(w.statusBar()->currentMessage()));
        QCOMPARE(error->parentWidget(), power->parentWidget());
        QTRY_VERIFY2(error->geometry().top() >= power->geometry().bottom() &&
                         error->geometry().top() - power->geometry().bottom() < 30,
                     qPrintable(QStringLiteral("field ends at %1, error starts at %2")
                                    .arg(power->geometry().bottom())
                                    .arg(error->geometry().top())));
        QTRY_VERIFY(!error->visibleRegion().isEmpty());
        auto* pueBox = field<QDoubleSpinBox>(w, "pue");
        QVERIFY(pueBox);
        reveal(w, pueBox);
        QVERIFY(typeNumber(pueBox, QStringLiteral("0")));
        QCOMPARE(w.document()->design().economics.pue, pue);
        QVERIFY2(error->text().startsWith(QStringLiteral("PUE")) &&
                     error->text().contains(QStringLiteral("0 given")),
                 qPrintable(error->text()));
        // An integer written with an exponent is read as the number it is (not as "13").
        auto* months = field<QSpinBox>(w, "months");
        QVERIFY(months);
        reveal(w, months);
        QVERIFY(typeNumber(months, QStringLiteral("1e2")));
        QCOMPARE(w.document()->design().economics.months, 100);
        QVERIFY(typeNumber(months, QStringLiteral("2.5")));
        QCOMPARE(w.document()->design().economics.months, 100);
        QVERIFY2(error->text().contains(QStringLiteral("whole number")), qPrintable(error->text()));
        // A number too large for a double ("1e309") is refused with the reason, not dropped
        // (helper-20, session 31: PUE went back to its value without a word).
        QVERIFY(typeNumber(pueBox, QStringLiteral("1e309")));
        QCOMPARE(w.document()->design().economics.pue, pue);
        QTRY_VERIFY2(error->text().startsWith(QStringLiteral("PUE")) &&
                         error->text().contains(QStringLiteral("finite number")),
                     qPrintable(error->text()));
        QVERIFY2(w.statusBar()->currentMessage() == error->text(),
                 qPrintable(w.statusBar()->currentMessage()));
        // The refusal is about that attempt: once the design changes by other means it goes
        // (helper-29 read "(-5 given)" long after). The toolbar's Undo (the months edit) hides it.
        QVERIFY(error->isVisible());
        QToolButton* undo = undoButton(w);
        QVERIFY(undo);
        QTest::mouseClick(undo, Qt::LeftButton);
        QCOMPARE(w.document()->design().economics.months, months0);
        QTRY_VERIFY(!error->isVisible());
    }

    // Helper-12: a micro-batch that does not divide the global batch left the Memory tab
    // saying "Add a training workload ..." beside the workload. Typed by keys, the tab says
    // which workload cannot be computed and why.
    void memoryTabSaysWhyNotComputed() {
        ui::MainWindow w(cat_);
        QVERIFY(showActive(w));
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Open Preset"),
                             QStringLiteral("h100-ndr-2node")}));
        // The preset's full fine-tune does not fit (journey 1's question): the Training,
        // Scaling and Reliability tabs say so (helper-13: "Add a training workload ...").
        const auto hints = [&w](const QString& start) {
            int n = 0;
            for (auto* l : w.charts()->findChildren<QLabel*>())
                n += l->text().startsWith(start);
            return n;
        };
        QTRY_COMPARE(hints(QStringLiteral("Llama 3 70B full fine-tune does not fit in memory: ")),
                     3);
        QVERIFY(clickEntity(w, QStringLiteral("finetune")));
        auto* mb = field<QSpinBox>(w, "micro_batch");
        QVERIFY(mb);
        reveal(w, mb);
        QVERIFY(typeNumber(mb, QStringLiteral("3")));
        QCOMPARE(w.document()->design().workloads[0].training.micro_batch, 3);
        QLabel* hint = nullptr;
        for (auto* l : w.charts()->memoryChart()->findChildren<QLabel*>())
            if (l->text().contains(QStringLiteral("memory budget")))
                hint = l;
        QVERIFY(hint);
        QTRY_VERIFY2(hint->text().startsWith(QStringLiteral("Llama 3 70B full fine-tune has no "
                                                            "memory budget: ")),
                     qPrintable(hint->text()));
        QVERIFY2(!hint->text().contains(QStringLiteral("--")), qPrintable(hint->text()));
        QTRY_COMPARE(hints(QStringLiteral("Llama 3 70B full fine-tune cannot be computed: ")), 3);
    }

    // Helper-13 and -14: tooltips say a choice's default and its values as the list shows them
    // ("BF16", "Delayed (amax history)"), a default with its reason in brackets, "none, you set
    // it" for a value without one, and a help that continues the label with the label.
    void tooltipsReadAsTheFieldsDo() {
        ui::MainWindow w(cat_);
        QVERIFY(showActive(w));
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Open Preset"),
                             QStringLiteral("h100-ndr-2node")}));
        QVERIFY(clickEntity(w, QStringLiteral("finetune")));
        const auto tip = [&w](const char* key) {
            auto* e = field<QWidget>(w, key);
            return e ? e->toolTip() : QStringLiteral("(no field)");
        };
        QVERIFY2(tip("dtype").contains(QStringLiteral("Default: BF16 (Megatron-Core default)")),
                 qPrintable(tip("dtype")));
        if (field<QWidget>(w, "fp8_scaling")) // shown with its choices
            QVERIFY2(tip("fp8_scaling").contains(QStringLiteral("Delayed (amax history):")) &&
                         !tip("fp8_scaling").contains(QStringLiteral("delayed:")),
                     qPrintable(tip("fp8_scaling")));
        QVERIFY2(tip("global_batch").contains(QStringLiteral("Default: none, you set it")),
                 qPrintable(tip("global_batch")));
        QVERIFY2(tip("offload").contains(QStringLiteral("CPU offload of the optimizer states")),
                 qPrintable(tip("offload")));
        for (const char* key : {"dtype", "fp8_scaling", "etp", "moe_dispatcher", "global_batch"})
            QVERIFY2(!tip(key).contains(QStringLiteral("--")) &&
                         !tip(key).contains(QStringLiteral("Default: you")),
                     qPrintable(tip(key)));
    }

    // Helper-11: money reads as money ("$0.08/kWh", not "0.08 USD/kWh"), a ratio without the
    // word ("1.30", not "1.300 ratio"); typed with or without the "$" it is the number typed.
    void moneyReadsAsMoney() {
        ui::MainWindow w(cat_);
        QVERIFY(showActive(w));
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Open Preset"),
                             QStringLiteral("h100-ndr-2node")}));
        QVERIFY(clickEntity(w, QString()));
        auto* power = field<QDoubleSpinBox>(w, "power_usd_per_kwh");
        QVERIFY(power);
        reveal(w, power);
        QVERIFY2(power->text().startsWith(QStringLiteral("$")) &&
                     power->text().endsWith(QStringLiteral("/kWh")) &&
                     !power->text().contains(QStringLiteral("USD")),
                 qPrintable(power->text()));
        QVERIFY(typeNumber(power, QStringLiteral("0.12")));
        QCOMPARE(w.document()->design().economics.power_usd_per_kwh, 0.12);
        QCOMPARE(power->text(), QStringLiteral("$0.12/kWh"));
        QVERIFY(typeNumber(power, QStringLiteral("$0.11")));
        QCOMPARE(w.document()->design().economics.power_usd_per_kwh, 0.11);
        auto* colo = field<QDoubleSpinBox>(w, "colo_usd_per_kw_month");
        QVERIFY(colo);
        QVERIFY2(colo->text().startsWith(QStringLiteral("$")) &&
                     colo->text().endsWith(QStringLiteral("/kW-month")),
                 qPrintable(colo->text()));
        auto* pue = field<QDoubleSpinBox>(w, "pue");
        QVERIFY(pue);
        QVERIFY2(!pue->text().contains(QStringLiteral("ratio")) && pue->decimals() == 2,
                 qPrintable(pue->text()));
        // Helper-34: "1 nodes", and an on/off assumption as a 0/1 spin box.
        auto* numa = field<QAbstractSpinBox>(w, "inference.numa_nodes_used");
        QVERIFY(numa);
        reveal(w, numa);
        QCOMPARE(numa->text(), QStringLiteral("1 node"));
        QVERIFY(typeNumber(numa, QStringLiteral("2")));
        QCOMPARE(w.document()->design().assumptions.inference.numa_nodes_used.value, 2.0);
        QTRY_COMPARE(numa->text(), QStringLiteral("2 nodes"));
        auto* pad = field<QCheckBox>(w, "inference.trtllm_cuda_graph_padding");
        QVERIFY(pad && pad->isChecked());
        reveal(w, pad);
        QTest::mouseClick(pad, Qt::LeftButton, {}, QPoint(8, pad->height() / 2));
        QTRY_COMPARE(w.document()->design().assumptions.inference.trtllm_cuda_graph_padding.value,
                     0.0);
        QVERIFY(!pad->isChecked());
    }

    // Helper-32: the inspector's dock dragged narrow by its edge cut every value to a few
    // characters and hid the spin arrows, with no way to scroll to them. It stops at a width
    // where each field, under its label if need be, shows its whole value; money left on Auto
    // says per what ("Auto: $4,341/GPU", as a typed "$184.00/kW-month").
    void narrowInspectorShowsWholeValues() {
        ui::MainWindow w(cat_);
        QVERIFY(showActive(w));
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Open Preset"),
                             QStringLiteral("dgx-h100-su")}));
        QTRY_VERIFY(w.evaluator()->current() != nullptr);
        QVERIFY(clickEntity(w, QString()));
        auto* network = field<QAbstractSpinBox>(w, "network_usd_per_gpu");
        QVERIFY(network);
        QTRY_VERIFY2(network->text().startsWith(QStringLiteral("Auto: $")) &&
                         network->text().endsWith(QStringLiteral("/GPU")),
                     qPrintable(network->text()));
        // At the dock's default width a label and its field share a line; dragged narrow, the
        // label is above the field.
        const auto sameLine = [&w]() {
            auto* price = field<QAbstractSpinBox>(w, "price_per_gpu_hour");
            for (auto* l : w.inspector()->findChildren<QLabel*>())
                if (price && l->buddy() == price)
                    return std::abs(l->geometry().center().y() - price->geometry().center().y()) <
                           price->height() / 2;
            return false;
        };
        QVERIFY(sameLine());
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("inspectorDock"));
        QVERIFY(dock);
        const int before = dock->width();
        // The separator left of the dock, dragged by the mouse to the window's right edge.
        QVERIFY(dragDockEdge(w, dock, w.width() - 2));
        QTRY_VERIFY2(dock->width() < before - 50,
                     qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(dock->width())));
        QVERIFY(w.inspector()->width() >= ui::Inspector::kMinimumWidth);
        QTRY_VERIFY(!sameLine());
        auto* sa = w.inspector()->findChild<QScrollArea*>();
        QVERIFY(sa && sa->widget());
        QVERIFY(!w.document()->design().workloads.empty());
        const QString job = QString::fromStdString(w.document()->design().workloads[0].id);
        for (const QString& id : {QString(), job}) { // the design, then its training job
            QVERIFY(clickEntity(w, id));
            QTest::qWait(50);
            QCoreApplication::processEvents();
            // The body is no wider than what the dock shows of it.
            QVERIFY2(sa->widget()->width() <= sa->viewport()->width(),
                     qPrintable(QStringLiteral("%1 > %2")
                                    .arg(sa->widget()->width())
                                    .arg(sa->viewport()->width())));
            int checked = 0;
            for (auto* sb : sa->widget()->findChildren<QAbstractSpinBox*>()) {
                if (!sb->isVisible())
                    continue;
                QVERIFY2(sb->geometry().right() < sa->viewport()->width(),
                         qPrintable(sb->objectName()));
                auto* le = sb->findChild<QLineEdit*>();
                QVERIFY(le);
                const int need = le->fontMetrics().horizontalAdvance(sb->text()) + 4;
                QVERIFY2(le->width() >= need,
                         qPrintable(QStringLiteral("%1: \"%2\" needs %3 px, has %4")
                                        .arg(sb->objectName(), sb->text())
                                        .arg(need)
                                        .arg(le->width())));
                ++checked;
            }
            QVERIFY(checked > 5);
        }
    }

    // Helper-34: dragged wide, the inspector kept its labels in a ~125 px column (3-4 lines
    // beside 460 px fields); and selecting another entity kept the last one's scroll offset.
    void wideInspectorGivesLabelsRoomAndStartsAtTheTop() {
        ui::MainWindow w(cat_);
        QVERIFY(showActive(w));
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Open Preset"),
                             QStringLiteral("dgx-h100-su")}));
        QTRY_VERIFY(w.evaluator()->current() != nullptr);
        QVERIFY(clickEntity(w, QString()));
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("inspectorDock"));
        QVERIFY(dock);
        const int before = dock->width();
        // The separator left of the dock, dragged by the mouse 500 px to the left.
        QVERIFY(dragDockEdge(w, dock, std::max(40, dock->geometry().left() - 500)));
        QTRY_VERIFY2(dock->width() > before + 200,
                     qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(dock->width())));
        QTest::qWait(50);
        QCoreApplication::processEvents();
        auto* sa = w.inspector()->findChild<QScrollArea*>();
        QVERIFY(sa && sa->widget());
        // Every field label beside its field, none taller than two lines.
        int labels = 0, widest = 0;
        for (auto* l : sa->widget()->findChildren<QLabel*>()) {
            auto* buddy = l->buddy();
            if (!buddy || !l->isVisible())
                continue;
            ++labels;
            widest = std::max(widest, l->width());
            const int lines = l->height() / std::max(1, l->fontMetrics().lineSpacing());
            QVERIFY2(lines <= 2, qPrintable(QStringLiteral("%1: %2 lines in %3 px")
                                                .arg(l->text())
                                                .arg(lines)
                                                .arg(l->width())));
        }
        QVERIFY(labels > 10);
        QVERIFY2(widest > 150, qPrintable(QString::number(widest)));
        // Scrolled down by the wheel over the form, then another entity: shown from its top.
        auto* bar = sa->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        for (int i = 0; i < 10 && bar->value() < bar->maximum() / 2; ++i) {
            QWheelEvent wheel(QPointF(10, 10), sa->viewport()->mapToGlobal(QPointF(10, 10)),
                              QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                              Qt::NoScrollPhase, false);
            QCoreApplication::sendEvent(sa->viewport(), &wheel);
        }
        QVERIFY2(bar->value() > 0, qPrintable(QString::number(bar->value())));
        QVERIFY(!w.document()->design().workloads.empty());
        QVERIFY(clickEntity(w, QString::fromStdString(w.document()->design().workloads[0].id)));
        QTRY_COMPARE(bar->value(), 0);
    }

    // Helper-18: on a design without a training job the reliability inputs read just "Auto".
    // The failure rate and storage bandwidth have values anyway; the others say why not.
    void reliabilityAutoWithoutTrainingJob() {
        ui::MainWindow w(cat_);
        QVERIFY(showActive(w));
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Open Preset"),
                             QStringLiteral("h200-inference-8x")}));
        QTRY_VERIFY(w.evaluator()->current() != nullptr);
        QVERIFY(clickEntity(w, QString()));
        auto* rate = field<QDoubleSpinBox>(w, "node_failures_per_1000_node_days");
        QVERIFY(rate);
        reveal(w, rate);
        // 8 GPUs per node at Llama 3's 419 failures in 54 days on 16,384 GPUs: 3.79.
        // The unit is in the label, so the field's text fits its width (helper-31 read "Auto:
        // 3.79 per 1,000 node-d..." in a narrow inspector); the tooltip says it whole.
        QTRY_COMPARE(rate->text(), QStringLiteral("Auto: 3.79"));
        QVERIFY(rate->toolTip().contains(QStringLiteral("Auto: 3.79 per 1,000 node-days")));
        QLabel* label = nullptr;
        for (auto* l : w.findChildren<QLabel*>())
            if (l->buddy() == rate)
                label = l;
        QVERIFY(label);
        QCOMPARE(label->text(), QStringLiteral("Node failures (per 1,000 node-days)"));
        auto* edit = rate->findChild<QLineEdit*>();
        QVERIFY(edit);
        QVERIFY(rate->fontMetrics().horizontalAdvance(rate->text()) < edit->width());
        auto* storage = field<QDoubleSpinBox>(w, "storage_bandwidth_Bps");
        QVERIFY(storage);
        QVERIFY2(storage->text().startsWith(QStringLiteral("Auto: ")), qPrintable(storage->text()));
        auto* write = field<QDoubleSpinBox>(w, "checkpoint_write_s");
        QVERIFY(write);
        QCOMPARE(write->text(), QStringLiteral("Auto (no training job)"));
        QVERIFY(write->toolTip().contains(QStringLiteral("the design has none")));
    }

    // Issue 21: the inspector keeps its place after an edit (a helper saw it jump as the
    // evaluation came back). The wheel scrolls down to a field near the end; a number typed
    // there leaves the field where it was.
    void scrollStaysAfterEdit() {
        ui::MainWindow w(cat_);
        QVERIFY(showActive(w));
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Open Preset"),
                             QStringLiteral("llama3-16k-h100")}));
        QTRY_VERIFY(w.evaluator()->current() != nullptr);
        QVERIFY(clickEntity(w, QString())); // the design: the longest list of fields
        auto* sa = w.inspector()->findChild<QScrollArea*>();
        QVERIFY(sa);
        auto* e = field<QAbstractSpinBox>(w, "run_days");
        QVERIFY(e);
        const auto shown = [&] {
            const QRect r(e->mapTo(sa->viewport(), QPoint(0, 0)), e->size());
            return sa->viewport()->rect().contains(r);
        };
        // The wheel over the labels' column scrolls the inspector (over an editor it would
        // change the editor's value).
        for (int i = 0; i < 60 && !shown(); ++i) {
            const QPoint at(4, sa->viewport()->height() / 2);
            QWheelEvent ev(at, sa->viewport()->mapToGlobal(at), QPoint(), QPoint(0, -120),
                           Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(sa->viewport(), &ev);
            QCoreApplication::processEvents();
        }
        QVERIFY(shown());
        const int before = sa->verticalScrollBar()->value();
        QVERIFY(before > 0);
        const QPoint where = e->mapTo(sa->viewport(), QPoint(0, 0));
        const auto* evBefore = w.evaluator()->current().get();
        QVERIFY(typeNumber(e, QStringLiteral("20")));
        QTRY_VERIFY(w.evaluator()->current().get() != evBefore);
        QTest::qWait(100); // the results and any queued rebuild land
        e = field<QAbstractSpinBox>(w, "run_days");
        QVERIFY(e);
        const QPoint after = e->mapTo(sa->viewport(), QPoint(0, 0));
        QVERIFY2(std::abs(after.y() - where.y()) <= 4,
                 qPrintable(QStringLiteral("the field moved from y %1 to %2 (scroll %3 -> %4)")
                                .arg(where.y())
                                .arg(after.y())
                                .arg(before)
                                .arg(sa->verticalScrollBar()->value())));
    }

    void designItself() { workEntity(QStringLiteral("h100-ndr-2node"), QString()); }

    // Helper-22: choices longer than their field were clipped mid-word ("Disaggregated prefill
    // and d", "Online (at the request rate"). The tooltip names the whole choice, and the list a
    // click opens is as wide as its longest entry.
    void longChoicesReadWhole() {
        ui::MainWindow w(cat_);
        w.resize(1216, 760);
        QVERIFY(showActive(w));
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Open Preset"),
                             QStringLiteral("h200-inference-8x")}));
        QTRY_VERIFY(w.evaluator()->current() != nullptr);
        QVERIFY(clickEntity(w, QString::fromStdString(w.document()->design().workloads[0].id)));
        auto* batching = field<QComboBox>(w, "batching");
        QVERIFY(batching);
        reveal(w, batching);
        QVERIFY(chooseInCombo(batching, QStringLiteral("disaggregated")));
        batching = field<QComboBox>(w, "batching"); // the inspector is rebuilt after an edit
        reveal(w, batching);
        QVERIFY2(batching->toolTip().startsWith(batching->currentText()),
                 qPrintable(batching->toolTip()));
        QVERIFY(batching->currentText().startsWith(QStringLiteral("Disaggregated")));
        QTest::mouseClick(batching, Qt::LeftButton);
        QTRY_VERIFY(batching->view()->isVisible());
        QVERIFY2(batching->view()->width() >= batching->view()->sizeHintForColumn(0),
                 qPrintable(QStringLiteral("%1 of %2")
                                .arg(batching->view()->width())
                                .arg(batching->view()->sizeHintForColumn(0))));
        QTest::keyClick(batching->view(), Qt::Key_Escape);
        QTRY_VERIFY(!batching->view()->isVisible());
        // Helper-24: a choice the inspector set (signals blocked) kept the first choice's name
        // in its tooltip ("Offline" over "Online ...").
        auto* mode = choose(w, "mode", QStringLiteral("online"));
        QVERIFY(mode);
        QTest::qWait(50); // painted
        QVERIFY2(mode->toolTip().startsWith(QStringLiteral("Online")), qPrintable(mode->toolTip()));
        QVERIFY(!mode->toolTip().contains(QStringLiteral("offline =")));
        // Helper-46: "Qwen3 235B-A22B (…" in a narrow field: a long name drops its aside
        // before it is cut, and the tooltip has it whole.
        auto* model = choose(w, "model", QStringLiteral("qwen3-235b-a22b"));
        QVERIFY(model);
        QTRY_VERIFY(!model->property("shownText").toString().isEmpty());
        const QString shown = model->property("shownText").toString();
        QVERIFY2(shown == model->currentText() ||
                     model->currentText().startsWith(shown + QStringLiteral(" (")),
                 qPrintable(shown));
        QVERIFY2(!shown.contains(QStringLiteral("…")) && !shown.endsWith(QStringLiteral("(")),
                 qPrintable(shown + QStringLiteral(" of ") + model->currentText()));
        QVERIFY(model->toolTip().startsWith(model->currentText()));
    }

    // Helper-31: with "Requests in the batch job" set, switching the Mode to online made the
    // workload an error. Each mode shows its own fields (requests offline; request rate and the
    // targets online) and keeps the other's values for when it comes back.
    void modeShowsItsOwnFields() {
        ui::MainWindow w(cat_);
        w.resize(1216, 760);
        QVERIFY(showActive(w));
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Open Preset"),
                             QStringLiteral("h200-inference-8x")}));
        QTRY_VERIFY(w.evaluator()->current() != nullptr);
        const auto id = QString::fromStdString(w.document()->design().workloads[0].id);
        QVERIFY(clickEntity(w, id));
        auto* mode = field<QComboBox>(w, "mode");
        QVERIFY(mode);
        reveal(w, mode);
        QVERIFY(chooseInCombo(mode, QStringLiteral("offline")));
        QTRY_VERIFY(field<QAbstractSpinBox>(w, "requests") != nullptr);
        QVERIFY(field<QWidget>(w, "request_rate") == nullptr);
        QVERIFY(field<QWidget>(w, "ttft_slo_s") == nullptr);
        auto* requests = field<QAbstractSpinBox>(w, "requests");
        reveal(w, requests);
        QVERIFY(typeNumber(requests, QStringLiteral("1500")));
        QCOMPARE(w.document()->design().workloads[0].inference.requests, 1500);
        mode = field<QComboBox>(w, "mode");
        reveal(w, mode);
        QVERIFY(chooseInCombo(mode, QStringLiteral("online")));
        QTRY_VERIFY(field<QAbstractSpinBox>(w, "request_rate") != nullptr);
        QVERIFY(field<QWidget>(w, "ttft_slo_s") != nullptr);
        QVERIFY(field<QWidget>(w, "requests") == nullptr);
        // Online, the workload is the service it was before the job was set: no error.
        QTRY_VERIFY(w.evaluator()->current() != nullptr);
        const auto ev = w.evaluator()->current();
        bool served = false;
        for (const auto& we : ev->workloads)
            if (we.id == id.toStdString()) {
                QVERIFY2(we.error.empty(), we.error.c_str());
                served = we.inference && we.inference->job_requests == 0 &&
                         we.inference->output_tokens_per_s > 0;
            }
        QVERIFY(served);
        auto* verdict = w.inspector()->findChild<QLabel*>(QStringLiteral("verdict"));
        QVERIFY(verdict);
        QVERIFY2(!verdict->text().contains(QStringLiteral("Requests in the batch job")),
                 qPrintable(verdict->text()));
        // Back offline: the job's 1,500 requests are still there.
        mode = field<QComboBox>(w, "mode");
        reveal(w, mode);
        QVERIFY(chooseInCombo(mode, QStringLiteral("offline")));
        QTRY_VERIFY(field<QAbstractSpinBox>(w, "requests") != nullptr);
        QCOMPARE(field<QAbstractSpinBox>(w, "requests")->text(), QStringLiteral("1,500 requests"));
        QCOMPARE(w.document()->design().workloads[0].inference.requests, 1500);
        // By the keys: the Mode keeps the keyboard while the other mode's fields appear, so a
        // second arrow press reaches it (the focus fell out of the rebuilt form before).
        mode = field<QComboBox>(w, "mode");
        reveal(w, mode);
        QVERIFY(focusByMouse(mode));
        QTest::keyClick(mode, Qt::Key_Down);
        QTRY_VERIFY(field<QWidget>(w, "request_rate") != nullptr);
        mode = field<QComboBox>(w, "mode");
        QTRY_VERIFY(mode->hasFocus());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Up);
        QTRY_VERIFY(field<QWidget>(w, "requests") != nullptr);
        QCOMPARE(w.document()->design().workloads[0].inference.mode, model::ServingMode::offline);
        QTRY_VERIFY(field<QComboBox>(w, "mode")->hasFocus());
        // The draft's settings only with a draft model; with one, no batch job either.
        QVERIFY(field<QWidget>(w, "speculative_k") == nullptr);
        QVERIFY(field<QWidget>(w, "acceptance") == nullptr);
        auto* draft = field<QComboBox>(w, "speculative_draft");
        QVERIFY(draft);
        reveal(w, draft);
        QVERIFY(chooseInCombo(draft, QStringLiteral("llama3-8b")));
        QTRY_VERIFY(field<QWidget>(w, "speculative_k") != nullptr);
        QVERIFY(field<QWidget>(w, "acceptance") != nullptr);
        QVERIFY(field<QWidget>(w, "requests") == nullptr);
    }

    // Session 44: a serving workload's TP all-reduces are timed as its engine's own all-reduce
    // was measured. Opened by the menus, the engine chosen by mouse: the Fabric tab, clicked,
    // draws that engine's measured curve beside NCCL's model and says what it times; another
    // engine chosen by mouse draws its own.
    void servingEngineAllReduceOnFabricChart() {
        ui::MainWindow w(cat_);
        QVERIFY(!openPresetAndClickWorkload(w, QStringLiteral("h200-inference-8x"),
                                            model::WorkloadKind::inference)
                     .isEmpty());
        auto* engine = field<QComboBox>(w, "engine");
        QVERIFY(engine);
        reveal(w, engine);
        QVERIFY(chooseInCombo(engine, QStringLiteral("trtllm")));
        QTRY_COMPARE(w.document()->design().workloads.front().inference.engine,
                     model::ServingEngine::trtllm);
        QVERIFY(clickTab(w.charts()->tabs(), QStringLiteral("Fabric")));
        const auto drawn = [&](const QString& name) {
            for (auto* view : w.charts()->findChildren<QChartView*>())
                if (view->isVisible())
                    for (auto* series : view->chart()->series())
                        if (series->name().startsWith(name) &&
                            series->name().endsWith(
                                QStringLiteral("all-reduce, measured (8 GPUs)")))
                            return true;
            return false;
        };
        QTRY_VERIFY(w.charts()->fabricChart()->engineMeasuredShown());
        QTRY_VERIFY(drawn(QStringLiteral("TensorRT-LLM 1.3.0rc20")));
        bool caption = false;
        for (auto* l : w.charts()->findChildren<QLabel*>())
            caption =
                caption ||
                (l->isVisible() &&
                 l->text().contains(QStringLiteral("serving engine's own all-reduce as measured")));
        QVERIFY(caption);
        engine = field<QComboBox>(w, "engine");
        reveal(w, engine);
        QVERIFY(chooseInCombo(engine, QStringLiteral("sglang")));
        QTRY_VERIFY(drawn(QStringLiteral("SGLang 0.5.14")));
        QVERIFY(!drawn(QStringLiteral("TensorRT-LLM")));
    }

    // Session 45: with FP4 weights the inspector offers the attention projections' format, the
    // published checkpoint's by default (DeepSeek's NVFP4 checkpoints keep most of attention in
    // 16 bits). Chosen by mouse: FP4 weights, then NVFP4 attention -- the weights per GPU drop
    // by what 16-bit attention held; the field goes away with FP8 weights.
    // Session 53: the Expert parallel field by keyboard. EP 2 on a dense model is refused with
    // the reason (the workload's error, the design keeps the value the user typed); typing the
    // original value back leaves nothing to save (helper-45: a value changed back by hand still
    // asked to save).
    void expertParallelByKeyboard() {
        ui::MainWindow w(cat_);
        const QString id = openPresetAndClickWorkload(w, QStringLiteral("h200-inference-8x"),
                                                      model::WorkloadKind::inference);
        QVERIFY(!id.isEmpty());
        QVERIFY(!w.isWindowModified());
        auto* ep = field<QAbstractSpinBox>(w, "ep");
        QVERIFY(ep);
        QCOMPARE(ep->text(), QStringLiteral("Engine default"));
        QVERIFY(typeNumber(ep, QStringLiteral("2")));
        QTRY_COMPARE(w.document()->design().workloads.front().inference.ep, 2);
        QVERIFY(w.isWindowModified());
        const auto error = [&]() -> std::string {
            const auto ev = w.evaluator()->current();
            if (!ev)
                return {};
            for (const auto& we : ev->workloads)
                if (we.id == id.toStdString())
                    return we.error;
            return {};
        };
        QTRY_VERIFY(error().find("this model has no experts") != std::string::npos);
        ep = field<QAbstractSpinBox>(w, "ep");
        QVERIFY(typeNumber(ep, QStringLiteral("0")));
        QTRY_COMPARE(w.document()->design().workloads.front().inference.ep, 0);
        QTRY_VERIFY(error().empty());
        QVERIFY(!w.document()->isModified());
        QVERIFY(!w.isWindowModified());
        // Undo (the toolbar button) goes back to EP 2: that differs from the file again.
        QTest::mouseClick(undoButton(w), Qt::LeftButton);
        QTRY_COMPARE(w.document()->design().workloads.front().inference.ep, 2);
        QVERIFY(w.isWindowModified());
        // Ctrl+Z with the field still focused after typing (helper-46: the box took it and
        // undid its own text): the design's undo.
        ep = field<QAbstractSpinBox>(w, "ep");
        QVERIFY(typeNumber(ep, QStringLiteral("4")));
        QTRY_COMPARE(w.document()->design().workloads.front().inference.ep, 4);
        QVERIFY(ep->hasFocus());
        pressKey(Qt::Key_Z, Qt::ControlModifier);
        QTRY_COMPARE(w.document()->design().workloads.front().inference.ep, 2);
        // An MoE model takes EP 2; back to the dense model, EP follows to the engine's default
        // in the same undo step, and the status line says why.
        auto* model = field<QComboBox>(w, "model");
        QVERIFY(model);
        reveal(w, model);
        QVERIFY(chooseInCombo(model, QStringLiteral("qwen3-235b-a22b")));
        QTRY_VERIFY(w.document()->design().workloads.front().model == "qwen3-235b-a22b");
        QTRY_VERIFY(error().empty());
        QCOMPARE(w.document()->design().workloads.front().inference.ep, 2);
        model = field<QComboBox>(w, "model");
        reveal(w, model);
        QVERIFY(chooseInCombo(model, QStringLiteral("llama3-70b")));
        QTRY_COMPARE(w.document()->design().workloads.front().inference.ep, 0);
        QVERIFY2(w.statusBar()->currentMessage().contains(
                     QStringLiteral("Expert parallel back to Engine default")),
                 qPrintable(w.statusBar()->currentMessage()));
        QTRY_VERIFY(error().empty());
    }

    // helper-46: the Explain tree closed what the reader had opened after most edits. An entry
    // opened from the keyboard stays open, and stays where it was, through an edit that is
    // refused (its entry gone for a moment) and one that is not.
    void explainStaysOpenThroughEdits() {
        ui::MainWindow w(cat_);
        const QString id = openQwenServing(w);
        QVERIFY(!id.isEmpty());
        QVERIFY(clickTab(w.charts()->tabs(), QStringLiteral("Explain")));
        auto* tree = w.charts()->explainPanel()->tree();
        const QString key = id + QStringLiteral(".tpot");
        const auto entry = [&]() -> QTreeWidgetItem* {
            for (int i = 0; i < tree->topLevelItemCount(); ++i)
                if (tree->topLevelItem(i)->data(0, Qt::UserRole).toString() == key)
                    return tree->topLevelItem(i);
            return nullptr;
        };
        QTRY_VERIFY(entry() != nullptr);
        tree->scrollToItem(entry());
        // Clicked, then opened with the Right arrow key.
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {},
                          tree->visualItemRect(entry()).center());
        QTRY_VERIFY(tree->currentItem() == entry());
        QTest::keyClick(tree, Qt::Key_Right);
        QTRY_VERIFY(entry()->isExpanded());
        // Wheeled down into its inputs, as a reader does.
        for (int i = 0; i < 40 && tree->visualItemRect(entry()).top() > 0; ++i) {
            const QPoint mid = tree->viewport()->rect().center();
            QWheelEvent down(mid, tree->viewport()->mapToGlobal(mid), QPoint(), QPoint(0, -120),
                             Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(tree->viewport(), &down);
        }
        QVERIFY(tree->verticalScrollBar()->value() > 0);
        QVERIFY(tree->visualItemRect(entry()).intersects(tree->viewport()->rect()));
        const int top = tree->visualItemRect(entry()).top();
        const auto* before = w.evaluator()->current().get();
        // EP 3 does not divide TP 8: refused, the entry is gone while it is.
        auto* ep = field<QAbstractSpinBox>(w, "ep");
        QVERIFY(typeNumber(ep, QStringLiteral("3")));
        QTRY_VERIFY(w.evaluator()->current().get() != before && entry() == nullptr);
        before = w.evaluator()->current().get();
        ep = field<QAbstractSpinBox>(w, "ep");
        QVERIFY(typeNumber(ep, QStringLiteral("8")));
        QTRY_VERIFY(w.evaluator()->current().get() != before && entry() != nullptr);
        QVERIFY(entry()->isExpanded());
        QTRY_COMPARE(tree->visualItemRect(entry()).top(), top);
        // helper-47: an edit made while another tab shows reset Explain's scroll.
        QVERIFY(clickTab(w.charts()->tabs(), QStringLiteral("Inference")));
        before = w.evaluator()->current().get();
        ep = field<QAbstractSpinBox>(w, "ep");
        QVERIFY(typeNumber(ep, QStringLiteral("4")));
        QTRY_VERIFY(w.evaluator()->current().get() != before);
        QVERIFY(clickTab(w.charts()->tabs(), QStringLiteral("Explain")));
        QTRY_VERIFY(entry() != nullptr && entry()->isExpanded());
        QTRY_COMPARE(tree->visualItemRect(entry()).top(), top);
    }

    // helper-46: TTFT, tokens/s and $/M moved with attention DP and expert parallelism with no
    // word why. The Inference caption says what each step waits for and what share of the GPU
    // time $/M charges.
    void attentionDpSaysWhatItCosts() {
        ui::MainWindow w(cat_);
        QVERIFY(!openQwenServing(w).isEmpty());
        QVERIFY(clickTab(w.charts()->tabs(), QStringLiteral("Inference")));
        const auto caption = [&]() -> QString {
            for (auto* l : w.charts()->findChildren<QLabel*>())
                if (l->isVisible() && l->text().contains(QStringLiteral("per million output")))
                    return l->text();
            return {};
        };
        QTRY_VERIFY(caption().contains(QStringLiteral("% of the GPU time)")));
        QVERIFY2(!caption().contains(QStringLiteral("attention DP")), qPrintable(caption()));
        auto* adp = field<QCheckBox>(w, "attention_dp");
        QVERIFY(adp && !adp->isChecked());
        reveal(w, adp);
        QTest::mouseClick(adp, Qt::LeftButton, {}, QPoint(8, adp->height() / 2));
        QTRY_VERIFY(w.document()->design().workloads.front().inference.attention_dp);
        // vLLM (the preset's engine): every step waits, and the caption says why.
        QTRY_VERIFY2(caption().contains(QStringLiteral(
                         " each step waits for the busiest GPU (no rule for "
                         "balanced decode steps is known for this engine), 1.54 × the balanced "
                         "step")),
                     qPrintable(caption()));
        QVERIFY2(caption().contains(QStringLiteral("% of the GPU time)")), qPrintable(caption()));
        // Session 56 (helper-48: nothing said why one would turn it on): what it buys first, the
        // sequences memory holds with it and without.
        {
            static const QRegularExpression holds(QStringLiteral(
                "attention DP: memory holds ([0-9,]+) sequences with it, ([0-9,]+) without;"));
            const auto m = holds.match(caption());
            QVERIFY2(m.hasMatch(), qPrintable(caption()));
            const int with = m.captured(1).remove(QLatin1Char(',')).toInt();
            const int without = m.captured(2).remove(QLatin1Char(',')).toInt();
            QVERIFY2(with > without && without > 0, qPrintable(caption()));
        }
        // helper-47: the output price rose while a request's cost fell: both prices are said,
        // and the queueing with the replicas and the load that set it.
        QVERIFY2(caption().contains(QStringLiteral("per million input tokens")),
                 qPrintable(caption()));
        QVERIFY2(caption().contains(QStringLiteral(" % load)")), qPrintable(caption()));
        // Session 56: EP left to the engine is its own default, EP 1, with attention DP too.
        QVERIFY2(caption().contains(QStringLiteral(
                     "every routed expert split by tensor over the 8 TP GPUs (EP 1)")),
                 qPrintable(caption()));
        // Session 55: on TensorRT-LLM, in a steady state, only the steps that carry a prompt
        // wait; its decode-only steps pad every rank to the largest rank's CUDA graph. At the
        // preset's lengths a prompt starts in every step (each waits); with long answers few do.
        QVERIFY(choose(w, "engine", QStringLiteral("trtllm")));
        QTRY_VERIFY2(caption().contains(QStringLiteral("TensorRT-LLM pads")),
                     qPrintable(caption()));
        auto* out = field<QAbstractSpinBox>(w, "output_len");
        QVERIFY(typeNumber(out, QStringLiteral("8000")));
        QTRY_COMPARE(w.document()->design().workloads.front().inference.output_len, 8000);
        QTRY_VERIFY2(caption().contains(QStringLiteral(" without; steps that carry a prompt (")) &&
                         caption().contains(QStringLiteral(
                             " % of them) wait for the busiest GPU, 1.54 × the balanced step; "
                             "decode-only steps run balanced")),
                     qPrintable(caption()));
        // EP 4 with attention DP (refused until session 55): EP 4 × expert TP 2.
        auto* ep = field<QAbstractSpinBox>(w, "ep");
        QVERIFY(typeNumber(ep, QStringLiteral("4")));
        QTRY_VERIFY2(caption().contains(QStringLiteral(
                         "routed experts split by expert over 4 GPUs and each by tensor over 2 "
                         "(EP 4 × expert TP 2)")),
                     qPrintable(caption()));
        QCOMPARE(w.document()->design().workloads.front().inference.ep, 4);
    }

    // Session 53 (helper-45): on AMD GPUs the engine menu does not offer TensorRT-LLM (it was
    // offered, then refused after picking); on NVIDIA it does.
    void engineMenuFollowsTheGpu() {
        {
            ui::MainWindow w(cat_);
            QVERIFY(!openPresetAndClickWorkload(w, QStringLiteral("mi300x-node"),
                                                model::WorkloadKind::inference)
                         .isEmpty());
            auto* engine = field<QComboBox>(w, "engine");
            QVERIFY(engine);
            QCOMPARE(engine->findData(QStringLiteral("trtllm")), -1);
            QVERIFY(engine->findData(QStringLiteral("vllm")) >= 0);
            QVERIFY(engine->findData(QStringLiteral("sglang")) >= 0);
        }
        ui::MainWindow w(cat_);
        QVERIFY(!openPresetAndClickWorkload(w, QStringLiteral("h200-inference-8x"),
                                            model::WorkloadKind::inference)
                     .isEmpty());
        auto* engine = field<QComboBox>(w, "engine");
        QVERIFY(engine);
        QVERIFY(chooseInCombo(engine, QStringLiteral("trtllm")));
        QTRY_VERIFY(w.document()->design().workloads.front().inference.engine ==
                    model::ServingEngine::trtllm);
    }

    void fp4AttentionFollowsTheCheckpoint() {
        ui::MainWindow w(cat_);
        const QString id = openPresetAndClickWorkload(
            w, QStringLiteral("gb200-nvl72"), model::WorkloadKind::inference, "deepseek-v3");
        QVERIFY(!id.isEmpty());
        QVERIFY(field<QWidget>(w, "fp4_attention") == nullptr); // FP8 weights
        auto* weights = field<QComboBox>(w, "weights_dtype");
        QVERIFY(weights);
        reveal(w, weights);
        QVERIFY(chooseInCombo(weights, QStringLiteral("fp4")));
        QTRY_VERIFY(field<QComboBox>(w, "fp4_attention") != nullptr);
        auto* att = field<QComboBox>(w, "fp4_attention");
        QCOMPARE(att->currentData().toString(), QStringLiteral("checkpoint"));
        QCOMPARE(att->currentText(), QStringLiteral("As the checkpoint"));
        const auto weightsPerGpu = [&]() -> double {
            const auto ev = w.evaluator()->current();
            if (!ev)
                return -1;
            for (const auto& we : ev->workloads)
                if (we.id == id.toStdString() && we.inference)
                    return we.inference->memory.weights_bytes_per_gpu;
            return -1;
        };
        QTRY_VERIFY(w.document()->design().workloads.front().inference.weights_dtype ==
                    model::WeightsDtype::fp4);
        QTRY_VERIFY(weightsPerGpu() > 0);
        const double checkpoint = weightsPerGpu();
        reveal(w, att);
        QVERIFY(chooseInCombo(att, QStringLiteral("fp4")));
        QTRY_COMPARE(w.document()->design().workloads.front().inference.fp4_attention,
                     model::Fp4Attention::fp4);
        QTRY_VERIFY(weightsPerGpu() > 0 && weightsPerGpu() < checkpoint);
        weights = field<QComboBox>(w, "weights_dtype");
        reveal(w, weights);
        QVERIFY(chooseInCombo(weights, QStringLiteral("fp8")));
        QTRY_VERIFY(field<QWidget>(w, "fp4_attention") == nullptr);
    }

    // Session 43: the MXFP8 recipe exists on Blackwell data-centre GPUs only. Chosen by mouse
    // for a training job on H100s, the inspector says why it cannot be computed, in words (before
    // any memory verdict); choosing delayed scaling by mouse weighs the job again.
    void mxfp8OnHopperSaysWhy() {
        ui::MainWindow w(cat_);
        const QString id = openPresetAndClickWorkload(w, QStringLiteral("h100-ndr-2node"),
                                                      model::WorkloadKind::training);
        QVERIFY(!id.isEmpty());
        auto* dtype = field<QComboBox>(w, "dtype");
        QVERIFY(dtype);
        reveal(w, dtype);
        QVERIFY(chooseInCombo(dtype, QStringLiteral("fp8")));
        QTRY_VERIFY(field<QComboBox>(w, "fp8_scaling") != nullptr);
        auto* scaling = field<QComboBox>(w, "fp8_scaling");
        reveal(w, scaling);
        QCOMPARE(scaling->itemText(scaling->findData(QStringLiteral("mxfp8"))),
                 QStringLiteral("MXFP8 (Blackwell)"));
        QVERIFY(chooseInCombo(scaling, QStringLiteral("mxfp8")));
        auto* verdict = w.inspector()->findChild<QLabel*>(QStringLiteral("verdict"));
        QVERIFY(verdict);
        QTRY_VERIFY2(verdict->text().contains(QStringLiteral("MXFP8 needs a Blackwell")) &&
                         verdict->text().contains(QStringLiteral("H100")) &&
                         !verdict->text().contains(QStringLiteral("mxfp8 ")),
                     qPrintable(verdict->text()));
        scaling = field<QComboBox>(w, "fp8_scaling");
        reveal(w, scaling);
        QVERIFY(chooseInCombo(scaling, QStringLiteral("delayed")));
        QTRY_VERIFY2(!w.inspector()
                          ->findChild<QLabel*>(QStringLiteral("verdict"))
                          ->text()
                          .contains(QStringLiteral("Blackwell")),
                     qPrintable(verdict->text()));
        QTRY_VERIFY(w.evaluator()->current() != nullptr);
        bool computed = false;
        for (const auto& we : w.evaluator()->current()->workloads)
            if (we.id == id.toStdString())
                computed = we.error.find("MXFP8") == std::string::npos &&
                           we.training_memory.has_value(); // weighed again (fits or not)
        QVERIFY(computed);
    }

    // Session 49: Megatron-Core's recompute modules. A person types an MoE recipe's
    // recompute_modules ["moe_act"]: with the model switched to Qwen3-30B-A3B and selective
    // recompute, a click on "Recompute MoE activation" frees the routed experts' activation
    // outputs (the memory the evaluation reports falls; tst_cli checks the step time); with
    // recompute "none" the verdict says the module needs selective recompute.
    void recomputeModuleByClick() {
        ui::MainWindow w(cat_);
        const QString id = openPresetAndClickWorkload(w, QStringLiteral("h100-ndr-2node"),
                                                      model::WorkloadKind::training);
        QVERIFY(!id.isEmpty());
        auto* model = field<QComboBox>(w, "model");
        QVERIFY(model);
        reveal(w, model);
        QVERIFY(chooseInCombo(model, QStringLiteral("qwen3-30b-a3b")));
        QTRY_COMPARE(w.document()->design().workloads[0].model, std::string("qwen3-30b-a3b"));
        QCOMPARE(w.document()->design().workloads[0].training.recompute,
                 model::Recompute::selective);
        // A copy of the workload's evaluation once it is computed for the chosen model.
        const auto evaluated = [&]() -> std::optional<model::WorkloadEvaluation> {
            const auto cur = w.evaluator()->current();
            if (!cur)
                return std::nullopt;
            for (const auto& we : cur->workloads)
                if (we.id == id.toStdString() && we.model == "qwen3-30b-a3b" && we.training_memory)
                    return we;
            return std::nullopt;
        };
        QTRY_VERIFY(evaluated().has_value());
        // The preset's layout (TP 8, no ZeRO) does not hold a 30B model's states: the memory is
        // weighed all the same, which is what the module changes.
        const double act_before = evaluated()->training_memory->per_gpu.activations;
        auto* act = field<QCheckBox>(w, "recompute_moe_act");
        QVERIFY(act);
        reveal(w, act);
        QVERIFY(!act->isChecked());
        QTest::mouseClick(act, Qt::LeftButton, {}, QPoint(8, act->height() / 2));
        QTRY_VERIFY(w.document()->design().workloads[0].training.recompute_moe_act);
        QTRY_VERIFY(evaluated().has_value() &&
                    evaluated()->training_memory->per_gpu.activations < act_before);
        // Recompute "none" with the module ticked: refused with the reason, not ignored.
        auto* rec = field<QComboBox>(w, "recompute");
        QVERIFY(rec);
        reveal(w, rec);
        QVERIFY(chooseInCombo(rec, QStringLiteral("none")));
        auto* verdict = w.inspector()->findChild<QLabel*>(QStringLiteral("verdict"));
        QVERIFY(verdict);
        QTRY_VERIFY2(verdict->text().contains(QStringLiteral("selective recompute")),
                     qPrintable(verdict->text()));
    }

    // Helper-15: after the person chose another model for the h100-ndr-2node preset's "Llama 3
    // 70B full fine-tune", its name kept saying Llama everywhere. A name that says its model
    // follows the Model choice in the same undo step; Ctrl+Z brings both back.
    void workloadNameFollowsModelChoice() {
        ui::MainWindow w(cat_);
        w.resize(1216, 760);
        QVERIFY(showActive(w));
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Open Preset"),
                             QStringLiteral("h100-ndr-2node")}));
        const auto& wl = w.document()->design().workloads;
        QVERIFY(!wl.empty());
        const QString id = QString::fromStdString(wl[0].id);
        QVERIFY(clickEntity(w, id));
        auto* model = field<QComboBox>(w, "model");
        QVERIFY(model);
        reveal(w, model);
        QVERIFY(chooseInCombo(model, QStringLiteral("qwen2.5-72b")));
        QTRY_COMPARE(w.document()->design().workloads[0].model, std::string("qwen2.5-72b"));
        QCOMPARE(w.document()->design().workloads[0].name,
                 std::string("Qwen2.5 72B full fine-tune"));
        auto* name = field<QLineEdit>(w, "name");
        QVERIFY(name);
        QCOMPARE(name->text(), QStringLiteral("Qwen2.5 72B full fine-tune"));
        QTest::mouseClick(w.inspector(), Qt::LeftButton, {}, QPoint(2, 2));
        w.inspector()->setFocus(Qt::MouseFocusReason);
        pressKey(Qt::Key_Z, Qt::ControlModifier);
        QTRY_COMPARE(w.document()->design().workloads[0].model, std::string("llama3-70b"));
        QCOMPARE(w.document()->design().workloads[0].name,
                 std::string("Llama 3 70B full fine-tune"));
    }

    // Helper-22: the design summary's first line was half-hidden above its box, and a serving
    // workload's note overlapped the button above it: the wrapped labels got less height than
    // their text needs. Every wrapped label of the inspector is as tall as its text at its
    // width, for the design, a server and a workload, in a window of 1216 x 760 and 1600 x 1000.
    void wrappedLabelsShowTheirFirstLine() {
        for (const QSize size : {QSize(1216, 760), QSize(1600, 1000)})
            for (const QString& preset :
                 {QStringLiteral("dgx-h100-4su"), QStringLiteral("h200-inference-8x")}) {
                ui::MainWindow w(cat_);
                w.resize(size);
                QVERIFY(showActive(w));
                QVERIFY(
                    menuPath(w, {QStringLiteral("File"), QStringLiteral("Open Preset"), preset}));
                QTRY_VERIFY(w.evaluator()->current() != nullptr);
                QStringList ids{QString()};
                const auto& d = w.document()->design();
                for (const auto& dev : d.devices)
                    if (dev.kind == model::DeviceKind::system) {
                        ids << QString::fromStdString(dev.id);
                        break;
                    }
                if (!d.workloads.empty())
                    ids << QString::fromStdString(d.workloads.front().id);
                for (const QString& id : ids) {
                    QVERIFY(clickEntity(w, id));
                    QTest::qWait(50);
                    QCoreApplication::processEvents();
                    for (auto* l : w.inspector()->findChildren<QLabel*>()) {
                        if (!l->isVisible() || !l->wordWrap() || l->text().isEmpty())
                            continue;
                        const int need = l->heightForWidth(l->width());
                        QVERIFY2(
                            l->height() >= need,
                            qPrintable(QStringLiteral("%1 at %2x%3, %4: %5 px of %6 for \"%7\"")
                                           .arg(preset)
                                           .arg(size.width())
                                           .arg(size.height())
                                           .arg(id.isEmpty() ? QStringLiteral("design") : id)
                                           .arg(l->height())
                                           .arg(need)
                                           .arg(l->text().left(60))));
                    }
                    // Helper-22: a serving workload's form ended at "Acceptance rate", the
                    // fields below it out of reach. Every field lies inside the scrolled body.
                    auto* sa = w.inspector()->findChild<QScrollArea*>();
                    QVERIFY(sa && sa->widget());
                    for (auto* c : sa->widget()->findChildren<QWidget*>()) {
                        if (!c->isVisible() || c->parentWidget() != sa->widget())
                            continue;
                        QVERIFY2(c->geometry().bottom() < sa->widget()->height(),
                                 qPrintable(QStringLiteral("%1 %2: %3 ends at %4 of %5")
                                                .arg(preset, id, c->objectName())
                                                .arg(c->geometry().bottom())
                                                .arg(sa->widget()->height())));
                    }
                }
            }
    }

    // A text from a file longer than a line edit holds (32,767 characters) is shown in part,
    // read-only, and kept whole: the editor used to cut it and write the cut text back on the
    // next Enter (issue 17: a 63 MiB description also took 2 minutes and 2.5 GB to show).
    void longTextIsKeptWhole() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("long.json"));
        // 40,000 characters, a two-byte character where the excerpt is cut.
        std::string text(40000, 'a');
        text.replace(199, 2, "\xc3\xa9");
        text.replace(1999, 2, "\xc3\xa9");
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const QByteArray s = QByteArray("{\"format\": \"clusterlens-design\", \"version\": "
                                            "\"1.2\", \"description\": \"") +
                                 QByteArray::fromStdString(text) +
                                 "\", \"devices\": [{\"id\": \"s0\", \"kind\": \"system\", "
                                 "\"catalog\": \"dgx-h100\", \"position\": [0, 0]}]}";
            QVERIFY(f.write(s) == s.size());
        }
        ui::MainWindow w(cat_);
        QVERIFY(showActive(w));
        bool done = false;
        answerFileDialog(path, &done);
        QVERIFY(menuPath(w, {QStringLiteral("File"), QStringLiteral("Open…")}));
        QVERIFY(done);
        QCOMPARE(w.document()->design().description, text);
        QVERIFY(clickEntity(w, QString()));
        auto* le = field<QLineEdit>(w, "description");
        QVERIFY(le);
        reveal(w, le);
        QVERIFY(le->isReadOnly());
        QVERIFY2(le->text().endsWith(QStringLiteral("shown in part)")), qPrintable(le->text()));
        QVERIFY(le->toolTip().contains(QStringLiteral("kept whole")));
        // A person clicks into it, types and presses Enter, then Tab: nothing is written back.
        QVERIFY(focusByMouse(le));
        QTest::keyClick(le, Qt::Key_End);
        QTest::keyClicks(le, QStringLiteral("x"));
        QTest::keyClick(le, Qt::Key_Return);
        QTest::keyClick(le, Qt::Key_Tab);
        QCOMPARE(w.document()->design().description, text);
        QCOMPARE(w.document()->undoStack()->count(), 0);
        // The design summary shows the start of it, cut at a character boundary.
        bool summary = false;
        for (auto* l : w.inspector()->findChildren<QLabel*>())
            if (l->text().contains(QStringLiteral("shown in part)"))) {
                summary = true;
                QVERIFY2(l->text().count(QLatin1Char('a')) < 2300, // not the 40,000
                         qPrintable(QString::number(l->text().count(QLatin1Char('a')))));
                QVERIFY(!l->text().contains(QChar::ReplacementCharacter));
            }
        QVERIFY(summary);
    }
};

QTEST_MAIN(TestInspectorInput)
#include "tst_inspector_input.moc"
