// The System editor end to end in the main window: a system typed field by field runs (checked
// against the shipped pendulum and the rod length), each kind of problem shows at its field while
// the last valid run stays, every committed field edit is one undo step, templates and
// "Duplicate as Editable System" run like their source, and an edited system survives a save and
// an open.

#include <GuiSceneStore.h>
#include <MainWindow.h>
#include <SceneFile.h>
#include <panels/DerivationPanel.h>
#include <panels/SystemEditor.h>
#include <render/VtkSurfaceFormat.h>
#include <session/PlaybackClock.h>
#include <session/SceneSession.h>
#include <session/SimulationWorker.h>
#include <symbolic/SymbolicModel.h>
#include <trace/Trace.h>
#include <widgets/ExpressionField.h>
#include <widgets/MessageBanner.h>

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QCompleter>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStringListModel>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "../support/MainWindowFixture.h"

#include <cmath>
#include <numbers>

using namespace clab;

namespace {

const bool surfaceFormatSet = testing::setSurfaceFormat();

constexpr int timeout = 60000;

// Largest difference of q over two traces of equal length (infinity when they differ in
// length).
double largestDifference(const Trace& a, const Trace& b)
{
    if (a.samples.size() != b.samples.size())
        return INFINITY;
    double worst = 0.0;
    for (std::size_t i = 0; i < a.samples.size(); ++i)
        worst = std::max(worst, (a.samples[i].q - b.samples[i].q).cwiseAbs().maxCoeff());
    return worst;
}

} // namespace

class SystemEditorTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;

    SystemEditor* editor() { return window_->systemEditor(); }

    ExpressionField* expression(const QString& key)
    {
        return qobject_cast<ExpressionField*>(editor()->field(key));
    }

    // Waits for the trajectory of the session's current document.
    bool waitForRun()
    {
        return QTest::qWaitFor(
            [this] {
                return window_->trace() &&
                       window_->shownDocument() == window_->session()->document();
            },
            timeout);
    }

    // Types into a field as a user does, then leaves it (the end of one field edit).
    void type(QWidget* field, const QString& text)
    {
        QVERIFY(field);
        field->setFocus();
        if (auto* e = qobject_cast<ExpressionField*>(field))
            e->selectAll();
        else if (auto* l = qobject_cast<QLineEdit*>(field))
            l->selectAll();
        QTest::keyClick(field, Qt::Key_Backspace);
        QTest::keyClicks(field, text);
        QTest::keyClick(field, Qt::Key_Return);
    }

    // Replaces a field's text in one edit, as a paste does (typing would pass through valid
    // states on its way, and each of those runs).
    void paste(QWidget* field, const QString& text)
    {
        QVERIFY(field);
        field->setFocus();
        if (auto* e = qobject_cast<ExpressionField*>(field)) {
            e->selectAll();
            e->insertPlainText(text);
        } else {
            QTest::keyClick(field, Qt::Key_A, Qt::ControlModifier);
            QTest::keyClicks(field, text);
        }
        QTest::keyClick(field, Qt::Key_Return);
    }

    QString textOf(const QString& key)
    {
        QWidget* field = editor()->field(key);
        if (auto* e = qobject_cast<ExpressionField*>(field))
            return e->text();
        if (auto* l = qobject_cast<QLineEdit*>(field))
            return l->text();
        return QStringLiteral("<no field %1>").arg(key);
    }

    void click(const QString& name)
    {
        auto* button = editor()->findChild<QAbstractButton*>(name);
        QVERIFY2(button, qPrintable(name));
        QTest::mouseClick(button, Qt::LeftButton);
        // A rebuild deletes the old fields later: not found again after this.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }

    // The start value of `name` in the document's system ("" when it is computed).
    std::string documentStart(const std::string& name)
    {
        for (const auto& v : window_->session()->document().system->description().initial)
            if (v.name == name)
                return v.expression;
        return {};
    }

    // With CLAB_SCREENSHOT_DIR set, saves what `widget` shows as NAME.png there (for looking).
    static void snapshot(QWidget* widget, const QString& name)
    {
        const QString dir = qEnvironmentVariable("CLAB_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            widget->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
    }

    bool openTemplate(const QString& name)
    {
        auto* action = window_->findChild<QAction*>(QStringLiteral("newTemplate_") + name);
        if (!action)
            return false;
        action->trigger();
        return waitForRun();
    }

    std::shared_ptr<const Trace> runOf(const SceneDocument& document)
    {
        // The worker's own path, so that the comparison is with what the window shows.
        return std::make_shared<Trace>(
            SimulationWorker::simulate(document, [](double) { return true; }));
    }

private slots:
    void init()
    {
        window_ = std::make_unique<MainWindow>(std::make_shared<GuiSceneStore>());
        window_->setUnsavedChangesPrompt(
            [](const QString&) { return MainWindow::UnsavedChoice::Discard; });
        window_->resize(1600, 1000);
        window_->show();
        QVERIFY(window_->newFromSystem(QStringLiteral(":/templates/particle-in-plane.json")));
        QVERIFY(waitForRun());
    }

    void cleanup() { window_.reset(); }

    void typedPendulumRunsOnItsCircle()
    {
        // From the free particle to a pendulum of length l, typed field by field.
        QTest::mouseClick(editor()->findChild<QPushButton*>(QStringLiteral("addParameter")),
                          Qt::LeftButton);
        type(editor()->field(QStringLiteral("system.parameters.p1.name")), QStringLiteral("l"));
        type(editor()->field(QStringLiteral("system.parameters.l")), QStringLiteral("0.8"));
        QTest::mouseClick(editor()->findChild<QPushButton*>(QStringLiteral("addConstraint")),
                          Qt::LeftButton);
        // A new constraint has no expression yet: nothing applied, the free flight stays.
        QVERIFY(!editor()->problem().isEmpty());
        QVERIFY(window_->session()->document().system->constraintCount() == 0);
        type(expression(QStringLiteral("system.initial.x")), QStringLiteral("l"));
        type(expression(QStringLiteral("system.initial.x_dot")), QStringLiteral("0"));
        type(expression(QStringLiteral("system.initial.y_dot")), QStringLiteral("0"));
        type(expression(QStringLiteral("system.constraints[0].holonomic")),
             QStringLiteral("x^2 + y^2 - l^2"));
        QVERIFY2(editor()->problem().isEmpty(), qPrintable(editor()->problem()));
        QCOMPARE(window_->session()->document().system->constraintCount(), 1);
        QVERIFY(waitForRun());

        // The bob stays on its circle, and energy is conserved.
        const Trace& trace = *window_->trace();
        QVERIFY(trace.samples.size() > 100);
        for (const TraceSample& s : trace.samples) {
            QVERIFY(std::abs(std::hypot(s.q[0], s.q[1]) - 0.8) < 1e-8);
            QVERIFY(std::abs(s.E - trace.samples.front().E) < 1e-7);
        }
        // The same motion as the shipped pendulum of the same length over the same span.
        SceneDocument shipped = SceneFile::load(QStringLiteral(":/templates/pendulum.json"));
        shipped.parameters["l"] = {0.8};
        shipped.simulation = window_->session()->document().simulation;
        QVERIFY(largestDifference(trace, *runOf(shipped)) < 1e-9);
    }

    void typedCycloidIsATautochrone()
    {
        // Huygens: on a cycloid x = R(θ + sin θ), y = R(1 − cos θ) a bead reaches the bottom
        // after π√(R/g) from wherever it starts. Typed from the free particle; θ has no mass,
        // so M is singular.
        auto click = [this](const char* name) {
            QTest::mouseClick(editor()->findChild<QPushButton*>(QLatin1String(name)),
                              Qt::LeftButton);
        };
        click("addCoordinate");
        type(editor()->field(QStringLiteral("system.coordinates[2]")), QStringLiteral("theta"));
        type(editor()->field(QStringLiteral("system.coordinates[2].unit")), QString());
        click("addParameter");
        type(editor()->field(QStringLiteral("system.parameters.p1.name")), QStringLiteral("R"));
        type(editor()->field(QStringLiteral("system.parameters.R")), QStringLiteral("0.5"));
        click("addParameter");
        type(editor()->field(QStringLiteral("system.parameters.p1.name")),
             QStringLiteral("theta0"));
        type(editor()->field(QStringLiteral("system.parameters.theta0")), QStringLiteral("-2.5"));
        click("addConstraint");
        type(editor()->field(QStringLiteral("system.constraints[0].holonomic")),
             QStringLiteral("x - R*(theta + sin(theta))"));
        click("addConstraint");
        type(editor()->field(QStringLiteral("system.constraints[1].holonomic")),
             QStringLiteral("y - R*(1 - cos(theta))"));
        const std::pair<const char*, const char*> initial[] = {{"theta", "theta0"},
                                                               {"x", "R*(theta0 + sin(theta0))"},
                                                               {"y", "R*(1 - cos(theta0))"},
                                                               {"theta_dot", "0"},
                                                               {"x_dot", "0"},
                                                               {"y_dot", "0"}};
        for (const auto& [name, value] : initial)
            type(editor()->field(QStringLiteral("system.initial.") + QLatin1String(name)),
                 QLatin1String(value));
        type(editor()->field(QStringLiteral("system.end")), QStringLiteral("-theta"));
        QVERIFY2(editor()->problem().isEmpty(), qPrintable(editor()->problem()));
        window_->session()->edit(QStringLiteral("simulation.t_end"), {3.0});
        window_->session()->edit(QStringLiteral("simulation.stop_at_end"), {1.0});

        const double arrival = std::numbers::pi * std::sqrt(0.5 / 9.81);
        for (double theta0 : {-2.5, -1.0, -0.2}) {
            window_->session()->edit(QStringLiteral("theta0"), {theta0});
            QVERIFY(waitForRun());
            QVERIFY(window_->trace()->reachedEnd);
            QVERIFY2(std::abs(window_->trace()->samples.back().t - arrival) < 1e-7,
                     qPrintable(QString::number(window_->trace()->samples.back().t, 'g', 12)));
        }
    }

    void derivationPanelFollowsTheTimeOnScreen()
    {
        QVERIFY(window_->newFromSystem(QStringLiteral(":/templates/pendulum.json")));
        QVERIFY(waitForRun());
        QVERIFY(window_->showPanel(QStringLiteral("derivation")));
        DerivationPanel* panel = window_->derivationPanel();
        window_->clock()->setTime(0.5);
        QTRY_VERIFY(panel->plainText().contains(QStringLiteral("t = 0.5 s")));
        window_->clock()->setTime(1.25);
        QTRY_VERIFY(panel->plainText().contains(QStringLiteral("t = 1.25 s")));
        const QString text = panel->plainText();
        for (const char* step : {"M =", "K = A M⁻¹ Aᵀ", "λ", "Qᶜᵢ = Aᵀλ", "q̈", "φ₁"})
            QVERIFY2(text.contains(QString::fromUtf8(step)), step);

        // The equations' LaTeX blocks are `derive --format latex`, block for block.
        const SymbolicModel& model = *window_->session()->document().system.model;
        const std::string latex = model.derivationText(SymbolicModel::Format::Latex);
        std::string joined;
        for (const QString& block : panel->latexBlocks())
            if (latex.find(block.toStdString()) != std::string::npos)
                joined += block.toStdString();
        QCOMPARE(joined, latex);
        panel->copyLatex(0);
        QCOMPARE(QApplication::clipboard()->text(), panel->latexBlocks().front());

        // The rod's tension at t = 1.25 s: λ·(2x, 2y) is m(g y − v²)/l² (x, y) for the pendulum.
        const TraceSample& s = window_->trace()->samples[window_->trace()->sampleIndexAt(1.25)];
        const double v2 = s.qd.squaredNorm();
        const double lambda = (9.81 * s.q[1] - v2) / 2.0; // m = l = 1
        QVERIFY2(text.contains(QString::number(lambda, 'g', 6).replace('-', QChar(0x2212))),
                 qPrintable(QString::number(lambda, 'g', 6)));
    }

    void problemsShowAtTheirFieldAndTheLastRunStays_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("underlined"); // first underlined character, 0-based
        QTest::newRow("unknown symbol, with a suggestion")
            << "system.potential_energy"
            << "m*g*yy"
            << "unknown symbol 'yy' (did you mean y" << 4;
        QTest::newRow("syntax: an operator without its operand") << "system.potential_energy"
                                                                 << "m*g*"
                                                                 << "" << 3;
        QTest::newRow("kinetic energy not quadratic in the velocities")
            << "system.kinetic_energy"
            << "m*x_dot^3/2 + m*y_dot^2/2"
            << "quadratic in the velocities" << 0;
        QTest::newRow("a force with an unknown function") << "system.forces.x"
                                                          << "-0.1*sinn(x)"
                                                          << "sinn" << 5;
        QTest::newRow("a parameter value that is no number") << "system.parameters.m"
                                                             << "heavy"
                                                             << "not a number" << 0;
    }

    void problemsShowAtTheirFieldAndTheLastRunStays()
    {
        QFETCH(QString, key);
        QFETCH(QString, text);
        QFETCH(QString, message);
        QFETCH(int, underlined);
        const SceneDocument before = window_->session()->document();
        const std::shared_ptr<const Trace> run = window_->trace();
        const int steps = window_->session()->undoStack()->count();

        paste(editor()->field(key), text);

        QCOMPARE(editor()->problemKey(), key);
        QVERIFY2(editor()->problem().contains(message), qPrintable(editor()->problem()));
        QLabel* label = editor()->message(key);
        QVERIFY(label && label->isVisible());
        QVERIFY(label->text().contains(message));
        if (auto* field = qobject_cast<ExpressionField*>(editor()->field(key))) {
            QVERIFY(field->hasError());
            QCOMPARE(field->errorRange().first, underlined);
            QCOMPARE(field->text(), text); // the typed text stays
        }
        // Nothing applied: the same document, the same run, no undo step.
        QVERIFY(window_->session()->document() == before);
        QTest::qWait(50);
        QCOMPARE(window_->trace(), run);
        QCOMPARE(window_->session()->undoStack()->count(), steps);
        QVERIFY(editor()->hasUnappliedEdits());
    }

    void textThatDoesNotBuildIsNotLostSilently()
    {
        // Saved: the last valid system goes to the file, the banner names what stayed behind.
        QTemporaryDir dir;
        QVERIFY(window_->saveAs(dir.filePath(QStringLiteral("saved.json"))));
        QVERIFY(!window_->session()->isModified());
        paste(editor()->field(QStringLiteral("system.potential_energy")), QStringLiteral("m*g*"));
        QVERIFY(editor()->hasUnappliedEdits());
        QVERIFY(window_->saveAs(dir.filePath(QStringLiteral("saved.json"))));
        QVERIFY(window_->banner()->isVisible());
        QVERIFY(window_->banner()->text().contains(QStringLiteral("system.potential_energy")));
        // Leaving the document asks first, although the session itself has no unsaved edit.
        int prompts = 0;
        window_->setUnsavedChangesPrompt([&prompts](const QString&) {
            ++prompts;
            return MainWindow::UnsavedChoice::Cancel;
        });
        QVERIFY(!window_->newFromBuiltIn("ring"));
        QCOMPARE(prompts, 1);
        QCOMPARE(expression(QStringLiteral("system.potential_energy"))->text(),
                 QStringLiteral("m*g*"));
    }

    void velocityConstraintMustBeLinearInTheVelocities()
    {
        QTest::mouseClick(editor()->findChild<QPushButton*>(QStringLiteral("addConstraint")),
                          Qt::LeftButton);
        auto* kind = editor()->findChild<QComboBox*>(QStringLiteral("system.constraints[0].kind"));
        QVERIFY(kind);
        kind->setCurrentIndex(1);
        emit kind->activated(1);
        const QString key = QStringLiteral("system.constraints[0].velocity");
        paste(editor()->field(key), QStringLiteral("x_dot^2 - y_dot"));
        QCOMPARE(editor()->problemKey(), key);
        QVERIFY(editor()->problem().contains(QStringLiteral("linear in the velocities")));
        QCOMPARE(window_->session()->document().system->constraintCount(), 0);
    }

    void eachCommittedFieldEditIsOneUndoStep()
    {
        QUndoStack* undo = window_->session()->undoStack();
        const int start = undo->count();
        const QString key = QStringLiteral("system.potential_energy");
        type(editor()->field(key), QStringLiteral("m*g*y/2")); // many keystrokes, one step
        QCOMPARE(undo->count(), start + 1);
        type(editor()->field(key), QStringLiteral("2*m*g*y"));
        QCOMPARE(undo->count(), start + 2);
        QCOMPARE(window_->session()->document().system->description().potentialEnergy,
                 std::string("2*m*g*y"));

        undo->undo();
        QCOMPARE(expression(key)->text(), QStringLiteral("m*g*y/2"));
        QCOMPARE(window_->session()->document().system->description().potentialEnergy,
                 std::string("m*g*y/2"));
        undo->undo();
        QCOMPARE(expression(key)->text(), QStringLiteral("m*g*y"));
        undo->redo();
        QCOMPARE(expression(key)->text(), QStringLiteral("m*g*y/2"));
        QVERIFY(waitForRun());
        // The run on screen is the redone system's: half the gravity on y.
        const TraceSample& last = window_->trace()->samples.back();
        QVERIFY(std::abs(last.qdd[1] + 9.81 / 2) < 1e-9);
    }

    void completionOffersTheSystemsNames()
    {
        ExpressionField* field = expression(QStringLiteral("system.potential_energy"));
        const QStringList words =
            qobject_cast<QStringListModel*>(field->completer()->model())->stringList();
        for (const char* name : {"x", "x_dot", "y_dot", "m", "g", "t", "sin", "atan2"})
            QVERIFY2(words.contains(QLatin1String(name)), name);
        field->setFocus();
        field->selectAll();
        QTest::keyClick(field, Qt::Key_Backspace);
        QTest::keyClicks(field, QStringLiteral("m*g*x_d"));
        QVERIFY(field->completer()->popup()->isVisible());
        QCOMPARE(field->completer()->currentCompletion(), QStringLiteral("x_dot"));
        QTest::keyClick(field->completer()->popup(), Qt::Key_Return);
        QCOMPARE(field->text(), QStringLiteral("m*g*x_dot"));
    }

    void templatesRunLikeTheirFiles_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* name :
             {"particle-in-plane", "particle-in-space", "pendulum", "two-bodies-rod"})
            QTest::newRow(name) << name;
    }

    void templatesRunLikeTheirFiles()
    {
        QFETCH(QString, name);
        auto* action = window_->findChild<QAction*>(QStringLiteral("newTemplate_") + name);
        QVERIFY(action);
        action->trigger();
        QVERIFY(waitForRun());
        const QString path = QStringLiteral(CLAB_SOURCE_DIR "/scenes/templates/%1.json").arg(name);
        QCOMPARE(largestDifference(*window_->trace(), *runOf(SceneFile::load(path))), 0.0);
        QVERIFY(editor()->field(QStringLiteral("system.coordinates[0]")));
    }

    void duplicateOfABuiltInSceneRunsLikeIt_data()
    {
        QTest::addColumn<QString>("scene");
        QTest::addColumn<QString>("parameter");
        QTest::addColumn<double>("value");
        QTest::newRow("bead on a wire, a rougher wire") << "bead-on-wire"
                                                        << "mu" << 0.3;
        QTest::newRow("rigid body, another start spin") << "rigid-body"
                                                        << "omega0" << 0.5;
    }

    void duplicateOfABuiltInSceneRunsLikeIt()
    {
        QFETCH(QString, scene);
        QFETCH(QString, parameter);
        QFETCH(double, value);
        QVERIFY(window_->newFromBuiltIn(scene.toStdString()));
        std::vector<double> v = window_->session()->value(parameter);
        v[0] = value;
        window_->session()->edit(parameter, v);
        const SceneDocument builtIn = window_->session()->document();
        // A built-in scene offers the duplicate in the System dock.
        auto* button = editor()->findChild<QPushButton*>(QStringLiteral("duplicateButton"));
        QVERIFY(button);
        QTest::mouseClick(button, Qt::LeftButton);
        const SceneDocument& copy = window_->session()->document();
        QVERIFY(copy.system);
        QVERIFY(copy.simulation == builtIn.simulation);
        QVERIFY(waitForRun());
        // The hand-coded scene and its equations agree (as tst_SystemScenes checks the files).
        const double difference = largestDifference(*window_->trace(), *runOf(builtIn));
        QVERIFY2(difference < 1e-8, qPrintable(QString::number(difference)));
        // A system's duplicate is the same system.
        const std::shared_ptr<const Trace> before = window_->trace();
        QVERIFY(window_->duplicateAsSystem());
        QVERIFY(waitForRun());
        QCOMPARE(largestDifference(*window_->trace(), *before), 0.0);
    }

    void startValuesBelongToTheCoordinatesName()
    {
        // The sequence of issue 32: a new coordinate renamed to xc, then a parameter added.
        QVERIFY(openTemplate(QStringLiteral("pendulum")));
        click(QStringLiteral("addCoordinate"));
        type(editor()->field(QStringLiteral("system.coordinates[2]")), QStringLiteral("xc"));
        click(QStringLiteral("addParameter"));
        QCOMPARE(textOf(QStringLiteral("system.initial.x")), QStringLiteral("l"));
        QCOMPARE(textOf(QStringLiteral("system.initial.xc")), QString());
        QCOMPARE(textOf(QStringLiteral("system.initial.y")), QStringLiteral("0"));
        // The fields are the draft's: x starts at l, xc has no value of its own.
        const auto& initial = editor()->draft().initial;
        const auto x = std::find_if(initial.begin(), initial.end(),
                                    [](const auto& v) { return v.name == "x"; });
        QVERIFY(x != initial.end() && x->expression == "l");
        QVERIFY(std::none_of(initial.begin(), initial.end(),
                             [](const auto& v) { return v.name.rfind("xc", 0) == 0; }));
    }

    void valuesTypedWhileANameIsTakenStayWithTheirCoordinate()
    {
        QVERIFY(openTemplate(QStringLiteral("pendulum")));
        click(QStringLiteral("addCoordinate"));
        // q1 renamed to x, the other coordinate's name: a problem, and each keeps its values.
        paste(editor()->field(QStringLiteral("system.coordinates[2]")), QStringLiteral("x"));
        QVERIFY(editor()->problemKey().startsWith(QStringLiteral("system.coordinates")));
        QCOMPARE(textOf(QStringLiteral("system.initial.x")), QStringLiteral("l"));
        paste(editor()->field(QStringLiteral("system.coordinates[2].start")),
              QStringLiteral("0.25"));
        QCOMPARE(textOf(QStringLiteral("system.initial.x")), QStringLiteral("l"));
        // Named apart again: the value typed goes with its own coordinate.
        paste(editor()->field(QStringLiteral("system.coordinates[2]")), QStringLiteral("xc"));
        QVERIFY2(editor()->problem().isEmpty(), qPrintable(editor()->problem()));
        QCOMPARE(documentStart("x"), std::string("l"));
        QCOMPARE(documentStart("xc"), std::string("0.25"));
        QCOMPARE(textOf(QStringLiteral("system.initial.xc")), QStringLiteral("0.25"));
        // The other way round: x passes through xc's name on its way to "a" (which the
        // constraint does not know, so this stays in the fields).
        paste(editor()->field(QStringLiteral("system.coordinates[0]")), QStringLiteral("xc"));
        QCOMPARE(textOf(QStringLiteral("system.initial.xc")), QStringLiteral("0.25"));
        paste(editor()->field(QStringLiteral("system.coordinates[0]")), QStringLiteral("a"));
        QCOMPARE(textOf(QStringLiteral("system.initial.a")), QStringLiteral("l"));
        QCOMPARE(textOf(QStringLiteral("system.initial.xc")), QStringLiteral("0.25"));
        click(QStringLiteral("addParameter")); // a rebuild of the fields from the draft
        QCOMPARE(textOf(QStringLiteral("system.initial.a")), QStringLiteral("l"));
        QCOMPARE(textOf(QStringLiteral("system.initial.xc")), QStringLiteral("0.25"));
    }

    void removedAndReorderedCoordinatesKeepTheirValues()
    {
        QVERIFY(openTemplate(QStringLiteral("pendulum")));
        click(QStringLiteral("addCoordinate"));
        paste(editor()->field(QStringLiteral("system.initial.q1")), QStringLiteral("0.5"));
        // Moved up past y: the values go with the names, not with the rows.
        click(QStringLiteral("system.coordinates[2].up"));
        const auto& coordinates = window_->session()->document().system->description().coordinates;
        QCOMPARE(coordinates[1].name, std::string("q1"));
        QCOMPARE(coordinates[2].name, std::string("y"));
        QCOMPARE(textOf(QStringLiteral("system.initial.q1")), QStringLiteral("0.5"));
        QCOMPARE(textOf(QStringLiteral("system.initial.y")), QStringLiteral("0"));
        QCOMPARE(textOf(QStringLiteral("system.initial.x")), QStringLiteral("l"));
        click(QStringLiteral("system.coordinates[0].down"));
        QCOMPARE(window_->session()->document().system->description().coordinates[1].name,
                 std::string("x"));
        QCOMPARE(documentStart("x"), std::string("l"));
        QCOMPARE(documentStart("q1"), std::string("0.5"));
        window_->session()->undoStack()->undo();
        QCOMPARE(window_->session()->document().system->description().coordinates[1].name,
                 std::string("q1"));
        QCOMPARE(textOf(QStringLiteral("system.initial.q1")), QStringLiteral("0.5"));
        QCOMPARE(textOf(QStringLiteral("system.initial.x")), QStringLiteral("l"));
        // Removing q1 from between x and y leaves their values alone.
        click(QStringLiteral("system.coordinates[1].remove"));
        QVERIFY2(editor()->problem().isEmpty(), qPrintable(editor()->problem()));
        QCOMPARE(documentStart("x"), std::string("l"));
        QCOMPARE(documentStart("y"), std::string("0"));
        QCOMPARE(documentStart("q1"), std::string());
        QCOMPARE(textOf(QStringLiteral("system.initial.y")), QStringLiteral("0"));
        QVERIFY(!editor()->field(QStringLiteral("system.initial.q1")));
    }

    void halfTypedSystemSaysWhichTextIsShown()
    {
        // Backspacing "/2" off T runs each valid step; a typo after it leaves that last valid
        // system on screen, and the editor, the derivation and the status bar say so.
        QVERIFY(window_->showPanel(QStringLiteral("derivation")));
        const QString key = QStringLiteral("system.kinetic_energy");
        ExpressionField* field = expression(key);
        field->setFocus();
        field->moveCursor(QTextCursor::End);
        QTest::keyClick(field, Qt::Key_Backspace);
        QTest::keyClick(field, Qt::Key_Backspace);
        QCOMPARE(window_->session()->document().system->description().kineticEnergy,
                 std::string("m*(x_dot^2 + y_dot^2)"));
        QVERIFY(editor()->shownNotice().isEmpty()); // the fields are what runs
        QTest::keyClicks(field, QStringLiteral("x"));
        QCOMPARE(editor()->differingKeys(), QStringList{key});
        const QString notice = editor()->shownNotice();
        QVERIFY2(notice.contains(key) &&
                     notice.contains(QStringLiteral("m*(x_dot^2 + y_dot^2)”")) &&
                     notice.contains(QStringLiteral("m*(x_dot^2 + y_dot^2)x")),
                 qPrintable(notice));
        auto* summary = editor()->findChild<QLabel*>(QStringLiteral("systemProblem"));
        QVERIFY(summary->isVisible() && summary->text().contains(notice));
        QCOMPARE(window_->derivationPanel()->notice(), notice);
        auto* status = window_->findChild<QLabel*>(QStringLiteral("systemShownStatus"));
        QVERIFY(status && status->isVisible());
        QVERIFY(status->text().contains(key));
        // The derivation is the shown system's, as it says: M is 2m, not m.
        QVERIFY(waitForRun());
        QTest::qWait(100);
        QVERIFY2(window_->derivationPanel()->plainText().contains(QStringLiteral("2·m")) ||
                     window_->derivationPanel()->plainText().contains(QStringLiteral("2m")),
                 qPrintable(window_->derivationPanel()->plainText().left(400)));
        QVERIFY(window_->showPanel(QStringLiteral("system")));
        QTest::qWait(200);
        snapshot(window_.get(), QStringLiteral("editor-typo-window"));
        snapshot(window_->derivationPanel(), QStringLiteral("editor-typo-derivation"));
        // Back to text that builds: nothing to say any more.
        QTest::keyClick(field, Qt::Key_Backspace);
        QVERIFY(editor()->shownNotice().isEmpty());
        QVERIFY(window_->derivationPanel()->notice().isEmpty());
        QVERIFY(!status->isVisible());
    }

    void titleAndNotesAreEditedAndSaved()
    {
        type(editor()->field(QStringLiteral("title")), QStringLiteral("A thrown stone"));
        auto* notes = editor()->findChild<QPlainTextEdit*>(QStringLiteral("notes"));
        QVERIFY(notes);
        notes->setFocus();
        notes->selectAll();
        QTest::keyClicks(notes, QStringLiteral("Watch the parabola."));
        window_->setFocus();
        const SceneDocument& document = window_->session()->document();
        QCOMPARE(document.title, std::string("A thrown stone"));
        QCOMPARE(document.notes, std::string("Watch the parabola."));
        QCOMPARE(document.system->definition().title, std::string("A thrown stone"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("stone.json"));
        QVERIFY(window_->saveAs(path));
        const SceneDocument reopened = SceneFile::load(path);
        QCOMPARE(reopened.title, std::string("A thrown stone"));
        QCOMPARE(reopened.notes, std::string("Watch the parabola."));
        window_->session()->undoStack()->undo();
        QCOMPARE(
            window_->session()->document().notes,
            std::string("A point mass that moves in the x–y plane under gravity, with nothing "
                        "holding it: a starting point for a system of your own. Add a constraint "
                        "in the System dock (for example x^2 + y^2 - 1 for a circle) and watch the "
                        "constraint force appear."));
    }

    void pointsMoveAndTheTrailGoesOnTheChosenOne()
    {
        QVERIFY(openTemplate(QStringLiteral("two-bodies-rod")));
        auto points = [this] {
            QStringList names;
            for (const auto& p : window_->session()->document().system->description().points)
                names << QString::fromStdString(p.name);
            return names;
        };
        QCOMPARE(points(), (QStringList{"body1", "body2"}));
        auto* trail = editor()->findChild<QAbstractButton*>(QStringLiteral("view.points[1].trail"));
        QVERIFY(trail && trail->isChecked());
        click(QStringLiteral("view.points[0].trail"));
        QCOMPARE(points(), (QStringList{"body2", "body1"}));
        QVERIFY(editor()
                    ->findChild<QAbstractButton*>(QStringLiteral("view.points[1].trail"))
                    ->isChecked());
        QVERIFY(!editor()
                     ->findChild<QAbstractButton*>(QStringLiteral("view.points[0].trail"))
                     ->isChecked());
        click(QStringLiteral("view.points[0].down"));
        QCOMPARE(points(), (QStringList{"body1", "body2"}));
        QCOMPARE(textOf(QStringLiteral("view.points[1].name")), QStringLiteral("body2"));
        QCOMPARE(textOf(QStringLiteral("view.points[1].at[0]")), QStringLiteral("x2"));
        window_->session()->undoStack()->undo();
        QCOMPARE(points(), (QStringList{"body2", "body1"}));
    }

    void editedSystemSurvivesSaveAndOpen()
    {
        type(editor()->field(QStringLiteral("system.potential_energy")),
             QStringLiteral("m*g*y + x^2/2"));
        type(editor()->field(QStringLiteral("system.parameters.g")), QStringLiteral("3.5"));
        const SceneDocument edited = window_->session()->document();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("edited.json"));
        QVERIFY(window_->saveAs(path));
        QVERIFY(window_->openFile(path));
        const SceneDocument reopened = window_->session()->document();
        QVERIFY(reopened.sameScene(edited));
        QVERIFY(reopened.parameters == edited.parameters);
        QCOMPARE(expression(QStringLiteral("system.potential_energy"))->text(),
                 QStringLiteral("m*g*y + x^2/2"));
        QCOMPARE(qobject_cast<QLineEdit*>(editor()->field(QStringLiteral("system.parameters.g")))
                     ->text(),
                 QStringLiteral("3.5"));
    }
};

QTEST_MAIN(SystemEditorTest)
#include "tst_SystemEditor.moc"
