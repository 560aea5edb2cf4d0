// The hand in the 3D view, driven with QTest's mouse over the real main window: a press on the
// bead and a drag set its start on the wire (s0 in its field; one undo step restores it
// exactly); a flick throws it (v0 along the wire); hovering shows an open hand and the
// highlight; a press beside the bead turns the camera instead; while the run plays a drag
// pulls with a spring drawn as its own arrow, and the run goes on from where it was let go; a
// single finger on a touch screen drags as the mouse does; the spring has a legend row of its
// own while it pulls; a system written as equations (the shipped double pendulum) is dragged
// by its lower bob with both rods kept exact; the rigid body is turned, pulled and spun by the
// tip of its trail.
#include <MainWindow.h>
#include <SceneFile.h>
#include <panels/ParameterEditor.h>
#include <render/VtkOpenGLWindow.h>
#include <scenes/SceneRegistry.h>
#include <session/PlaybackClock.h>
#include <session/SceneSession.h>
#include <session/SimulationWorker.h>
#include <view3d/SceneView.h>
#include <view3d/SceneViewContent.h>
#include <view3d/ViewDrag.h>
#include <view3d/geometry/SceneGeometry.h>

#include <QDoubleSpinBox>
#include <QPointingDevice>
#include <QTest>
#include <QUndoStack>

#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include "../../support/MainWindowFixture.h"
#include "../../support/ViewPixels.h"

#include <cmath>
#include <memory>
#include <numbers>

using namespace clab;
using clab::testing::pixelOf;

namespace {

const bool surfaceFormatSet = testing::setSurfaceFormat();
constexpr int timeout = 60000;

SceneDocument shortBead()
{
    SceneDocument document = SceneDocument::fromDefinition(*SceneRegistry::find("bead-on-wire"));
    document.simulation.tEnd = 2.0;
    return document;
}

double value(MainWindow& window, const char* key)
{
    return window.session()->document().parameters.at(key).at(0);
}

// The document's start state, as its system gives it.
void startOf(const SceneDocument& document, Eigen::VectorXd& q, Eigen::VectorXd& qd)
{
    document.definition()->create(document.parameters)->initialState(q, qd);
}

QPoint beadPixel(MainWindow& window)
{
    const double s0 = value(window, "s0");
    const double theta = value(window, "angle_deg") * std::numbers::pi / 180.0;
    return pixelOf(window, {s0 * std::cos(theta), s0 * std::sin(theta), 0.0});
}

} // namespace

class TestViewDrag : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup() { window_.reset(); }
    void draggingTheBeadSetsItsStartOnTheWireAsOneUndoStep();
    void flickThrowsTheBeadAlongTheWire();
    void hoverShowsAnOpenHandAndAPressBesideTurnsTheCamera();
    void dragWhilePlayingPullsWithASpringAndRunsOn();
    void singleFingerDragsTheBead();
    void theSpringHasALegendRowWhileItPulls();
    void draggingTheDoublePendulumsLowerBobKeepsBothRodsExactAndUndoRestoresTheStart();
    void draggingTheRigidBodysTipTurnsItsStartOrientationAsOneUndoStep();
    void pullingTheRigidBodyWhilePlayingSetsItsStartFromTheLiveState();
    void flickingTheRigidBodysTipSpinsItAboutItsCentre();

private:
    MainWindow& window() { return *window_; }
    /// The rigid body for 2 s, its run done; false when it did not run.
    static bool showRigidBody(MainWindow& w)
    {
        SceneDocument body = SceneDocument::fromDefinition(*SceneRegistry::find("rigid-body"));
        body.simulation.tEnd = 2.0;
        testing::showDocument(w, body);
        return QTest::qWaitFor(
            [&] {
                return w.trace() != nullptr && !w.worker()->isBusy() &&
                       w.trace()->samples.front().q.size() == 4;
            },
            timeout);
    }
    std::unique_ptr<MainWindow> window_;
};

void TestViewDrag::init()
{
    testing::showDocument(testing::newWindow(window_), shortBead());
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QTRY_VERIFY_WITH_TIMEOUT(window().trace() != nullptr && !window().worker()->isBusy(), timeout);
    window().clock()->pause();
    window().clock()->setTime(0.0);
    QTest::qWait(50);
}

void TestViewDrag::draggingTheBeadSetsItsStartOnTheWireAsOneUndoStep()
{
    MainWindow& w = window();
    VtkOpenGLWindow* gl = w.sceneView()->openGLWindow();
    const QPoint from = beadPixel(w);
    const QPoint to = from + QPoint(70, -25);
    QTest::mousePress(gl, Qt::LeftButton, Qt::NoModifier, from);
    QVERIFY(w.sceneView()->hand().isHolding());
    QTest::mouseMove(gl, from + QPoint(35, -12), 20);
    QTest::mouseMove(gl, to, 20);
    // Held still for a moment before the release: placed at rest, not thrown.
    QTest::mouseRelease(gl, Qt::LeftButton, Qt::NoModifier, to, 300);
    const double s0 = value(w, "s0");
    QVERIFY2(std::abs(s0 - 2.0) > 0.05, qPrintable(QString::number(s0)));
    QCOMPARE(value(w, "v0"), 0.0);
    // The field shows it, and the run that follows starts there.
    const QDoubleSpinBox* field = w.parameterEditor()->spinBox(QStringLiteral("s0"));
    QTRY_VERIFY(std::abs(field->value() - s0) <= 1e-3 && std::abs(field->value() - 2.0) > 0.04);
    QTRY_VERIFY_WITH_TIMEOUT(!w.worker()->isBusy() && w.trace() &&
                                 std::abs(w.trace()->samples.front().extra[0] - s0) < 1e-12,
                             timeout);
    // One undo step restores the start exactly.
    QCOMPARE(w.session()->undoStack()->count(), 1);
    w.session()->undoStack()->undo();
    QCOMPARE(value(w, "s0"), 2.0);
    QCOMPARE(value(w, "v0"), 0.0);
}

void TestViewDrag::flickThrowsTheBeadAlongTheWire()
{
    MainWindow& w = window();
    VtkOpenGLWindow* gl = w.sceneView()->openGLWindow();
    const QPoint from = beadPixel(w);
    QTest::mousePress(gl, Qt::LeftButton, Qt::NoModifier, from);
    // Up the wire (to the right and up on screen), quickly, released while moving.
    for (int i = 1; i <= 6; ++i)
        QTest::mouseMove(gl, from + QPoint(12 * i, -7 * i), 15);
    QTest::mouseRelease(gl, Qt::LeftButton, Qt::NoModifier, from + QPoint(72, -42), 5);
    QVERIFY2(value(w, "v0") > 0.1, qPrintable(QString::number(value(w, "v0"))));
    QCOMPARE(w.session()->undoStack()->count(), 1);
    QCOMPARE(w.session()->undoStack()->text(0), QStringLiteral("Throw the body"));
}

void TestViewDrag::hoverShowsAnOpenHandAndAPressBesideTurnsTheCamera()
{
    MainWindow& w = window();
    VtkOpenGLWindow* gl = w.sceneView()->openGLWindow();
    const QPoint bead = beadPixel(w);
    QTest::mouseMove(gl, bead);
    QTRY_VERIFY(w.sceneView()->hand().isHighlighted());
    QCOMPARE(gl->cursor().shape(), Qt::OpenHandCursor);
    const QPoint beside = bead + QPoint(0, 120);
    QTest::mouseMove(gl, beside);
    QTRY_VERIFY(!w.sceneView()->hand().isHighlighted());
    QVERIFY(gl->cursor().shape() != Qt::OpenHandCursor);
    const auto camera = w.sceneView()->camera();
    QTest::mousePress(gl, Qt::LeftButton, Qt::NoModifier, beside);
    for (int i = 1; i <= 5; ++i)
        QTest::mouseMove(gl, beside + QPoint(10 * i, 0), 10);
    QTest::mouseRelease(gl, Qt::LeftButton, Qt::NoModifier, beside + QPoint(50, 0), 10);
    QVERIFY((w.sceneView()->camera()[0] - camera[0]).norm() > 1e-6);
    QCOMPARE(value(w, "s0"), 2.0);
    QCOMPARE(w.session()->undoStack()->count(), 0);
}

void TestViewDrag::dragWhilePlayingPullsWithASpringAndRunsOn()
{
    MainWindow& w = window();
    VtkOpenGLWindow* gl = w.sceneView()->openGLWindow();
    w.clock()->play();
    QTest::qWait(30);
    const QPoint from = beadPixel(w);
    QTest::mousePress(gl, Qt::LeftButton, Qt::NoModifier, from);
    QVERIFY(w.sceneView()->hand().isHolding());
    QVERIFY(!w.clock()->isPlaying()); // the hand holds the run
    QTest::mouseMove(gl, from + QPoint(60, -60), 20);
    QTRY_VERIFY(w.sceneView()->hand().isSpringDrawn());
    if (const QByteArray path = qgetenv("CLAB_DRAG_SCREENSHOT"); !path.isEmpty())
        gl->grabFramebuffer().save(QString::fromLocal8Bit(path));
    QTest::qWait(300);
    QTest::mouseRelease(gl, Qt::LeftButton, Qt::NoModifier, from + QPoint(60, -60), 5);
    QVERIFY(std::abs(value(w, "s0") - 2.0) > 1e-3);
    QCOMPARE(w.session()->undoStack()->text(0), QStringLiteral("Pull the body"));
    QVERIFY(w.clock()->isPlaying()); // and runs on from there
}

void TestViewDrag::singleFingerDragsTheBead()
{
    MainWindow& w = window();
    VtkOpenGLWindow* gl = w.sceneView()->openGLWindow();
    QPointingDevice* screen = QTest::createTouchDevice();
    const QPoint from = beadPixel(w);
    QTest::touchEvent(gl, screen).press(0, from, gl);
    QTest::touchEvent(gl, screen).move(0, from + QPoint(40, -20), gl);
    QTest::touchEvent(gl, screen).move(0, from + QPoint(80, -40), gl);
    QTest::qWait(250);
    QTest::touchEvent(gl, screen).release(0, from + QPoint(80, -40), gl);
    QTRY_VERIFY(std::abs(value(w, "s0") - 2.0) > 0.05);
    QCOMPARE(w.session()->undoStack()->count(), 1);
}

void TestViewDrag::theSpringHasALegendRowWhileItPulls()
{
    MainWindow& w = window();
    VtkOpenGLWindow* gl = w.sceneView()->openGLWindow();
    const QString row = QStringLiteral("hand's spring (given force)");
    QVERIFY(!w.sceneView()->content().legendLabels().contains(row));
    w.clock()->play();
    QTest::qWait(30);
    const QPoint from = beadPixel(w);
    QTest::mousePress(gl, Qt::LeftButton, Qt::NoModifier, from);
    QTest::mouseMove(gl, from + QPoint(60, -60), 20);
    QTRY_VERIFY(w.sceneView()->hand().isSpringDrawn());
    QTRY_VERIFY(w.sceneView()->content().legendLabels().contains(row));
    QTest::mouseRelease(gl, Qt::LeftButton, Qt::NoModifier, from + QPoint(60, -60), 100);
    QVERIFY(!w.sceneView()->content().legendLabels().contains(row));
}

void TestViewDrag::draggingTheDoublePendulumsLowerBobKeepsBothRodsExactAndUndoRestoresTheStart()
{
    MainWindow& w = window();
    SceneDocument pendulum =
        SceneFile::load(QStringLiteral(CLAB_SOURCE_DIR "/scenes/systems/double-pendulum.json"));
    pendulum.simulation.tEnd = 2.0;
    testing::showDocument(w, pendulum);
    QTRY_VERIFY_WITH_TIMEOUT(w.trace() != nullptr && !w.worker()->isBusy() &&
                                 w.trace()->samples.front().q.size() == 4,
                             timeout);
    w.clock()->pause();
    w.clock()->setTime(0.0);
    QTest::qWait(50);
    const SceneDocument before = w.session()->document();
    const int undoBefore = w.session()->undoStack()->index();
    Eigen::VectorXd q0, qd0;
    startOf(before, q0, qd0);
    VtkOpenGLWindow* gl = w.sceneView()->openGLWindow();
    // The lower bob starts at (l1 + l2, 0): pulled down and in, the upper bob follows.
    const QPoint from = pixelOf(w, {q0[2], q0[3], 0.0});
    const QPoint to = from + QPoint(-60, 80);
    QTest::mousePress(gl, Qt::LeftButton, Qt::NoModifier, from);
    QVERIFY(w.sceneView()->hand().isHolding());
    QTest::mouseMove(gl, from + QPoint(-30, 40), 20);
    QTest::mouseMove(gl, to, 20);
    if (const QByteArray path = qgetenv("CLAB_PENDULUM_DRAG_SCREENSHOT"); !path.isEmpty())
        gl->grabFramebuffer().save(QString::fromLocal8Bit(path));
    QTest::mouseRelease(gl, Qt::LeftButton, Qt::NoModifier, to, 300);
    QCOMPARE(w.session()->undoStack()->index(), undoBefore + 1);
    Eigen::VectorXd q, qd;
    startOf(w.session()->document(), q, qd);
    QVERIFY2((q.tail<2>() - q0.tail<2>()).norm() > 0.1, "the lower bob moved");
    QVERIFY2((q.head<2>() - q0.head<2>()).norm() > 1e-3, "the upper bob followed");
    const double l1 = before.parameters.at("l1").at(0), l2 = before.parameters.at("l2").at(0);
    QVERIFY2(std::abs(q.head<2>().norm() - l1) <= 1e-12, "rod 1 keeps its length");
    QVERIFY2(std::abs((q.tail<2>() - q.head<2>()).norm() - l2) <= 1e-12, "rod 2 keeps its length");
    QCOMPARE(qd.norm(), 0.0); // held still before the release: at rest
    // The run that follows starts there.
    QTRY_VERIFY_WITH_TIMEOUT(!w.worker()->isBusy() && w.trace() &&
                                 (w.trace()->samples.front().q - q).norm() < 1e-12,
                             timeout);
    // One undo restores the previous start exactly.
    w.session()->undoStack()->undo();
    QVERIFY(w.session()->document() == before);
    Eigen::VectorXd qBack, qdBack;
    startOf(w.session()->document(), qBack, qdBack);
    QVERIFY(qBack == q0 && qdBack == qd0);
}

void TestViewDrag::draggingTheRigidBodysTipTurnsItsStartOrientationAsOneUndoStep()
{
    MainWindow& w = window();
    QVERIFY(showRigidBody(w));
    w.clock()->pause();
    w.clock()->setTime(0.0);
    QTest::qWait(50);
    const ParameterValues before = w.session()->document().parameters;
    const Eigen::VectorXd q0 = w.trace()->samples.front().q;
    const SceneGeometry* geometry = w.sceneView()->content().geometry();
    QVERIFY(geometry != nullptr);
    VtkOpenGLWindow* gl = w.sceneView()->openGLWindow();
    const QPoint from = pixelOf(w, geometry->grabPoint(0, q0));
    const QPoint to = from + QPoint(-50, 60);
    QTest::mousePress(gl, Qt::LeftButton, Qt::NoModifier, from);
    QVERIFY(w.sceneView()->hand().isHolding());
    QTest::mouseMove(gl, from + QPoint(-25, 30), 20);
    QTest::mouseMove(gl, to, 20);
    if (const QByteArray path = qgetenv("CLAB_BODY_DRAG_SCREENSHOT"); !path.isEmpty())
        gl->grabFramebuffer().save(QString::fromLocal8Bit(path));
    QTest::mouseRelease(gl, Qt::LeftButton, Qt::NoModifier, to, 300);
    QCOMPARE(w.session()->undoStack()->count(), 1);
    const std::vector<double> quat = w.session()->document().parameters.at("quat0");
    const Eigen::Vector4d u(quat[0], quat[1], quat[2], quat[3]);
    QVERIFY2((u - q0.head<4>()).norm() > 0.05, "the body turned");
    QVERIFY(std::abs(u.norm() - 1.0) <= 1e-12);
    const std::vector<double> omega = w.session()->document().parameters.at("omega0");
    QVERIFY(Eigen::Vector3d(omega[0], omega[1], omega[2]).norm() <= 1e-12); // put down at rest
    w.session()->undoStack()->undo();
    QVERIFY(w.session()->document().parameters == before);
}

void TestViewDrag::pullingTheRigidBodyWhilePlayingSetsItsStartFromTheLiveState()
{
    MainWindow& w = window();
    QVERIFY(showRigidBody(w));
    w.clock()->setTime(0.0);
    w.clock()->play();
    QTest::qWait(30);
    const ParameterValues before = w.session()->document().parameters;
    const SceneGeometry* geometry = w.sceneView()->content().geometry();
    VtkOpenGLWindow* gl = w.sceneView()->openGLWindow();
    const QPoint from =
        pixelOf(w, geometry->grabPoint(0, w.sceneView()->content().currentSample()->q));
    QTest::mousePress(gl, Qt::LeftButton, Qt::NoModifier, from);
    QVERIFY(w.sceneView()->hand().isHolding());
    QTest::mouseMove(gl, from + QPoint(-60, 60), 20);
    QTRY_VERIFY(w.sceneView()->hand().isSpringDrawn());
    QTest::qWait(300);
    QTest::mouseRelease(gl, Qt::LeftButton, Qt::NoModifier, from + QPoint(-60, 60), 5);
    QCOMPARE(w.session()->undoStack()->text(0), QStringLiteral("Pull the body"));
    const ParameterValues& after = w.session()->document().parameters;
    QVERIFY(after.at("quat0") != before.at("quat0"));
    QVERIFY(after.at("omega0") != before.at("omega0")); // the spring spun it
    QVERIFY(w.clock()->isPlaying());
}

void TestViewDrag::flickingTheRigidBodysTipSpinsItAboutItsCentre()
{
    MainWindow& w = window();
    QVERIFY(showRigidBody(w));
    w.clock()->pause();
    w.clock()->setTime(0.0);
    QTest::qWait(50);
    const SceneGeometry* geometry = w.sceneView()->content().geometry();
    VtkOpenGLWindow* gl = w.sceneView()->openGLWindow();
    const QPoint from = pixelOf(w, geometry->grabPoint(0, w.trace()->samples.front().q));
    QTest::mousePress(gl, Qt::LeftButton, Qt::NoModifier, from);
    for (int i = 1; i <= 6; ++i)
        QTest::mouseMove(gl, from + QPoint(-8 * i, 8 * i), 15);
    QTest::mouseRelease(gl, Qt::LeftButton, Qt::NoModifier, from + QPoint(-48, 48), 5);
    QCOMPARE(w.session()->undoStack()->text(0), QStringLiteral("Throw the body"));
    // The tip moves the way the hand went, as far as the body lets it: the new start's tip
    // velocity (central differences of the grab point along q̇) has a component along the flick
    // on screen (the part towards the centre is not allowed).
    Eigen::VectorXd q, qd;
    startOf(w.session()->document(), q, qd);
    const std::vector<double> omega = w.session()->document().parameters.at("omega0");
    QVERIFY(Eigen::Vector3d(omega[0], omega[1], omega[2]).norm() > 0.1);
    const double h = 1e-6;
    const Eigen::Vector3d tipVelocity =
        (geometry->grabPoint(0, q + h * qd) - geometry->grabPoint(0, q - h * qd)) / (2.0 * h);
    const QPoint onScreen = pixelOf(w, geometry->grabPoint(0, q) + 0.05 * tipVelocity) -
                            pixelOf(w, geometry->grabPoint(0, q));
    QVERIFY2(-onScreen.x() + onScreen.y() > 10,
             qPrintable(QStringLiteral("%1, %2").arg(onScreen.x()).arg(onScreen.y())));
}

QTEST_MAIN(TestViewDrag)
#include "tst_ViewDrag.moc"
