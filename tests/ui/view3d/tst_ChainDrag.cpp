// A stored start by hand (docs/GUI.md "Grab, drag and throw"), driven with QTest's mouse over
// the real main window: the hanging chain's last bob dragged while paused takes the chain into
// a new shape with every link exactly its length, kept as a stored start (one undo step restores
// the previous start exactly; Edit → Reset Start clears it, undoably), a flick throws it with a
// velocity every link allows; the sliding chain's bob
// slides the chain along its path; a pull while playing and its release go on at the time
// reached, the clock and the new run both; an edit of a start parameter clears the stored start
// in the same undo step, while other edits keep it.
#include <MainWindow.h>
#include <render/VtkOpenGLWindow.h>
#include <scenes/SceneRegistry.h>
#include <session/PlaybackClock.h>
#include <session/SceneSession.h>
#include <session/SimulationWorker.h>
#include <view3d/SceneView.h>
#include <view3d/SceneViewContent.h>
#include <view3d/ViewDrag.h>
#include <view3d/geometry/SceneGeometry.h>

#include <QAction>
#include <QTest>
#include <QUndoStack>

#include "../../support/MainWindowFixture.h"
#include "../../support/ViewPixels.h"

#include <cmath>
#include <memory>

using namespace clab;
using clab::testing::pixelOf;

namespace {

const bool surfaceFormatSet = testing::setSurfaceFormat();
constexpr int timeout = 60000;
constexpr int links = 5;

SceneDocument chain(const char* scene = "chain")
{
    SceneDocument document = SceneDocument::fromDefinition(*SceneRegistry::find(scene));
    document.parameters["links"] = {static_cast<double>(links)};
    document.simulation.tEnd = 2.0;
    return document;
}

// The largest error of a link's length in a hanging chain pinned at the origin.
double linkError(const Eigen::VectorXd& q, double ell)
{
    double worst = 0.0;
    Eigen::Vector2d previous = Eigen::Vector2d::Zero();
    for (Eigen::Index i = 0; i < q.size(); i += 2) {
        const Eigen::Vector2d bob(q[i], q[i + 1]);
        worst = std::max(worst, std::abs((bob - previous).norm() - ell));
        previous = bob;
    }
    return worst;
}

// The largest of a system's position constraints φ(q, t) at a state.
double constraintError(const SceneDocument& document, const StartState& start)
{
    const auto system = document.definition()->create(document.parameters);
    Eigen::VectorXd r(system->residualCount());
    system->constraintResiduals(start.positions(), start.velocities(), start.t0, r);
    return r.head(system->constraintCount()).lpNorm<Eigen::Infinity>();
}

} // namespace

class TestChainDrag : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup() { window_.reset(); }
    void draggingAChainBobKeepsEveryLinkLengthAndUndoRestoresTheStartExactly();
    void flickingAChainBobThrowsItWithAVelocityTheLinksAllow();
    void resetStartClearsTheStoredStartAsOneUndoStep();
    void draggingTheSlidingChainsBobKeepsItOnItsPathAndLinks();
    void afterAPullTheClockAndTheRunGoOnAtTheReleaseTime();
    void editingAStartParameterClearsTheStoredStartInTheSameUndoStep();

private:
    MainWindow& window() { return *window_; }
    void show(const SceneDocument& document);
    /// Presses on bob `body` (0-based), drags by `by` and releases after holding still.
    void drag(int body, const QPoint& by, const char* screenshotVariable = nullptr);
    std::unique_ptr<MainWindow> window_;
};

void TestChainDrag::init()
{
    testing::newWindow(window_);
}

void TestChainDrag::show(const SceneDocument& document)
{
    MainWindow& w = window();
    testing::showDocument(w, document);
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_VERIFY_WITH_TIMEOUT(w.trace() != nullptr && !w.worker()->isBusy() &&
                                 w.trace()->samples.front().q.size() == 2 * links,
                             timeout);
    w.clock()->pause();
    w.clock()->setTime(0.0);
    QTest::qWait(50);
}

void TestChainDrag::drag(int body, const QPoint& by, const char* screenshotVariable)
{
    MainWindow& w = window();
    VtkOpenGLWindow* gl = w.sceneView()->openGLWindow();
    const SceneGeometry* geometry = w.sceneView()->content().geometry();
    QVERIFY(geometry != nullptr);
    const QPoint from =
        pixelOf(w, geometry->grabPoint(body, w.sceneView()->content().currentSample()->q));
    QTest::mousePress(gl, Qt::LeftButton, Qt::NoModifier, from);
    QVERIFY(w.sceneView()->hand().isHolding());
    QTest::mouseMove(gl, from + by / 2, 20);
    QTest::mouseMove(gl, from + by, 20);
    if (screenshotVariable)
        if (const QByteArray path = qgetenv(screenshotVariable); !path.isEmpty())
            gl->grabFramebuffer().save(QString::fromLocal8Bit(path));
    // Held still for a moment before the release: placed at rest, not thrown.
    QTest::mouseRelease(gl, Qt::LeftButton, Qt::NoModifier, from + by, 300);
}

void TestChainDrag::draggingAChainBobKeepsEveryLinkLengthAndUndoRestoresTheStartExactly()
{
    show(chain());
    MainWindow& w = window();
    const SceneDocument before = w.session()->document();
    QVERIFY(!before.simulation.start);
    const Eigen::VectorXd q0 = w.trace()->samples.front().q;
    // The last bob, lying out along +x at first, pulled down and back in.
    drag(links - 1, QPoint(-80, 120), "CLAB_CHAIN_DRAG_SCREENSHOT");
    QCOMPARE(w.session()->undoStack()->count(), 1);
    QCOMPARE(w.session()->undoStack()->text(0), QStringLiteral("Drag the body"));
    const std::optional<StartState>& start = w.session()->document().simulation.start;
    QVERIFY(start.has_value());
    QCOMPARE(start->t0, 0.0);
    const Eigen::VectorXd q = start->positions();
    QVERIFY2((q.tail<2>() - q0.tail<2>()).norm() > 0.2, "the last bob moved");
    const Eigen::Index beforeLast = 2 * (links - 2);
    QVERIFY2((q.segment<2>(beforeLast) - q0.segment<2>(beforeLast)).norm() > 1e-3,
             "the chain followed");
    const double ell = before.parameters.at("length").at(0) / links;
    QVERIFY2(linkError(q, ell) <= 1e-12, qPrintable(QString::number(linkError(q, ell))));
    QCOMPARE(start->velocities().norm(), 0.0);
    // The parameters are as they were: the shape is the stored start's.
    QVERIFY(w.session()->document().parameters == before.parameters);
    // The run that follows starts there.
    QTRY_VERIFY_WITH_TIMEOUT(!w.worker()->isBusy() && w.trace() &&
                                 (w.trace()->samples.front().q - q).norm() < 1e-12,
                             timeout);
    // One undo restores the previous start exactly, and the run from it.
    w.session()->undoStack()->undo();
    QVERIFY(w.session()->document() == before);
    QTRY_VERIFY_WITH_TIMEOUT(
        !w.worker()->isBusy() && w.trace() && w.trace()->samples.front().q == q0, timeout);
}

void TestChainDrag::flickingAChainBobThrowsItWithAVelocityTheLinksAllow()
{
    show(chain());
    MainWindow& w = window();
    VtkOpenGLWindow* gl = w.sceneView()->openGLWindow();
    const SceneGeometry* geometry = w.sceneView()->content().geometry();
    const QPoint from = pixelOf(w, geometry->grabPoint(links - 1, w.trace()->samples.front().q));
    QTest::mousePress(gl, Qt::LeftButton, Qt::NoModifier, from);
    // Quickly down the screen, released while moving.
    for (int i = 1; i <= 6; ++i)
        QTest::mouseMove(gl, from + QPoint(0, 12 * i), 15);
    QTest::mouseRelease(gl, Qt::LeftButton, Qt::NoModifier, from + QPoint(0, 72), 5);
    QCOMPARE(w.session()->undoStack()->text(0), QStringLiteral("Throw the body"));
    const std::optional<StartState>& start = w.session()->document().simulation.start;
    QVERIFY(start.has_value());
    const Eigen::VectorXd q = start->positions(), qd = start->velocities();
    // The last bob goes down, and every link's length stays: dᵢ·ḋᵢ = 0 for each link.
    QVERIFY2(qd[2 * links - 1] < -0.1, qPrintable(QString::number(qd[2 * links - 1])));
    Eigen::Vector2d previous = Eigen::Vector2d::Zero(), previousVelocity = Eigen::Vector2d::Zero();
    for (int i = 0; i < links; ++i) {
        const Eigen::Vector2d d = q.segment<2>(2 * i) - previous;
        const Eigen::Vector2d v = qd.segment<2>(2 * i) - previousVelocity;
        QVERIFY2(std::abs(d.dot(v)) <= 1e-10 * (1.0 + qd.norm()),
                 qPrintable(QStringLiteral("link %1: %2").arg(i + 1).arg(d.dot(v))));
        previous = q.segment<2>(2 * i);
        previousVelocity = qd.segment<2>(2 * i);
    }
}

void TestChainDrag::resetStartClearsTheStoredStartAsOneUndoStep()
{
    show(chain());
    MainWindow& w = window();
    auto* reset = w.findChild<QAction*>(QStringLiteral("resetStart"));
    QVERIFY(reset != nullptr);
    QVERIFY(!reset->isEnabled());
    drag(links - 1, QPoint(-60, 100));
    const std::optional<StartState> dragged = w.session()->document().simulation.start;
    QVERIFY(dragged.has_value());
    QVERIFY(reset->isEnabled());
    reset->trigger();
    QVERIFY(!w.session()->document().simulation.start);
    QVERIFY(!reset->isEnabled());
    QCOMPARE(w.session()->undoStack()->count(), 2);
    QCOMPARE(w.session()->undoStack()->text(1), QStringLiteral("Reset Start"));
    w.session()->undoStack()->undo();
    QVERIFY(w.session()->document().simulation.start == dragged); // exactly
    QVERIFY(reset->isEnabled());
}

void TestChainDrag::draggingTheSlidingChainsBobKeepsItOnItsPathAndLinks()
{
    show(chain("sliding-chain"));
    MainWindow& w = window();
    const SceneDocument before = w.session()->document();
    const Eigen::VectorXd q0 = w.trace()->samples.front().q;
    // The leading bob, hanging over the edge, pulled further down.
    drag(0, QPoint(0, 60));
    const std::optional<StartState>& start = w.session()->document().simulation.start;
    QVERIFY(start.has_value());
    QVERIFY2((start->positions() - q0).norm() > 0.01, "the chain slid");
    const double error = constraintError(before, *start);
    QVERIFY2(error <= 1e-12, qPrintable(QString::number(error)));
    w.session()->undoStack()->undo();
    QVERIFY(w.session()->document() == before);
}

void TestChainDrag::afterAPullTheClockAndTheRunGoOnAtTheReleaseTime()
{
    show(chain());
    MainWindow& w = window();
    VtkOpenGLWindow* gl = w.sceneView()->openGLWindow();
    w.clock()->setTime(0.5);
    w.clock()->play();
    QTest::qWait(30);
    const SceneGeometry* geometry = w.sceneView()->content().geometry();
    const QPoint from =
        pixelOf(w, geometry->grabPoint(links - 1, w.sceneView()->content().currentSample()->q));
    QTest::mousePress(gl, Qt::LeftButton, Qt::NoModifier, from);
    QVERIFY(w.sceneView()->hand().isHolding());
    QVERIFY(!w.clock()->isPlaying());
    const double grabbedAt = w.clock()->time();
    QVERIFY(grabbedAt >= 0.5);
    QTest::mouseMove(gl, from + QPoint(40, -80), 20);
    QTRY_VERIFY(w.sceneView()->hand().isSpringDrawn());
    QTest::qWait(300);
    QTest::mouseRelease(gl, Qt::LeftButton, Qt::NoModifier, from + QPoint(40, -80), 5);
    QCOMPARE(w.session()->undoStack()->text(0), QStringLiteral("Pull the body"));
    const std::optional<StartState> start = w.session()->document().simulation.start;
    QVERIFY(start.has_value());
    // The spring pulled for the 0.3 s the hand held on: the start is later than the grab.
    QVERIFY2(start->t0 > grabbedAt + 0.1, qPrintable(QString::number(start->t0)));
    QVERIFY(w.clock()->isPlaying());
    QVERIFY2(w.clock()->time() >= start->t0 - 1e-12,
             qPrintable(QString::number(w.clock()->time())));
    // The new run begins at the release time and state, and the clock goes on from there.
    QTRY_VERIFY_WITH_TIMEOUT(
        !w.worker()->isBusy() && w.trace() && w.trace()->samples.front().t == start->t0, timeout);
    QVERIFY((w.trace()->samples.front().q - start->positions()).norm() < 1e-12);
    QCOMPARE(w.clock()->start(), start->t0);
    QVERIFY(w.clock()->time() >= start->t0);
    const double ell = w.session()->document().parameters.at("length").at(0) / links;
    QVERIFY(linkError(start->positions(), ell) <= 1e-9);
}

void TestChainDrag::editingAStartParameterClearsTheStoredStartInTheSameUndoStep()
{
    show(chain());
    MainWindow& w = window();
    drag(links - 1, QPoint(-60, 100));
    const std::optional<StartState> dragged = w.session()->document().simulation.start;
    QVERIFY(dragged.has_value());
    // Gravity is not where the chain starts: the stored start stays.
    w.session()->edit(QStringLiteral("g"), {3.7});
    QVERIFY(w.session()->document().simulation.start == dragged);
    // The start spin is: the parameters' start is used again, in the same step.
    const int steps = w.session()->undoStack()->count();
    w.session()->edit(QStringLiteral("omega0"), {1.0});
    QVERIFY(!w.session()->document().simulation.start);
    QCOMPARE(w.session()->undoStack()->count(), steps + 1);
    QVERIFY(w.session()->undoStack()->text(steps).contains(QStringLiteral("reset the start")));
    w.session()->undoStack()->undo();
    QVERIFY(w.session()->document().simulation.start == dragged);
    QCOMPARE(w.session()->document().parameters.at("omega0").at(0), 0.0);
}

QTEST_MAIN(TestChainDrag)
#include "tst_ChainDrag.moc"
