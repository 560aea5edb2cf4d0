// Rendering tests of the 3D view: image baselines for every built-in scene, and behaviour that
// can be read off the pixels (arrows in the Okabe–Ito colours, ghosts) or off closed forms.
#include <render/OffscreenRenderWindow.h>
#include <render/VtkOpenGLWindow.h>
#include <render/VtkSurfaceFormat.h>
#include <view3d/ArrowField.h>
#include <view3d/ForceArrow.h>
#include <view3d/SceneView.h>
#include <view3d/SceneViewContent.h>
#include <view3d/geometry/SceneGeometry.h>

#include <integrate/Simulator.h>
#include <scenes/BeadOnWire.h>
#include <scenes/RingWithFriction.h>
#include <scenes/SceneRegistry.h>

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QSignalSpy>
#include <QtTest>

#include <vtkActor.h>
#include <vtkActor2D.h>
#include <vtkCamera.h>
#include <vtkCoordinate.h>
#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper2D.h>
#include <vtkProp.h>
#include <vtkPropCollection.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>

#include "../support/ImageBaseline.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <numbers>
#include <vector>

#include "../support/SceneRuns.h"

using namespace clab;
using clab::test::differingFraction;
using clab::test::failedDir;
using clab::test::kMaxDifferingFraction;

namespace {

// VTK needs a 3.2 core context: the default format must be set before QApplication exists.
const bool surfaceFormatSet = [] {
    VtkSurfaceFormat::makeDefault();
    return true;
}();

constexpr double kSimulatedSeconds = 2.0;

/// Bob `bob`'s pair (v[2(i − 1)], v[2(i − 1) + 1]) of a chain's q or force, in the plane z = 0.
Eigen::Vector3d bobPair(const Eigen::VectorXd& v, int bob)
{
    return {v[2 * bob - 2], v[2 * bob - 1], 0.0};
}

/// The chain's default values with `links` links.
ParameterValues chainOf(int links)
{
    return testing::defaultsWith("chain", {{"links", {static_cast<double>(links)}}});
}
constexpr double kShownTime = 1.0;
const QSize kBaselineSize(640, 480);

Trace simulate(const std::string& scene, const ParameterValues& overrides = {},
               double seconds = kSimulatedSeconds, bool stopAtEnd = false)
{
    return testing::runScene(scene, testing::defaultsWith(scene, overrides), seconds, stopAtEnd);
}

ParameterValues withDefaults(const std::string& scene, const ParameterValues& overrides = {})
{
    return testing::defaultsWith(scene, overrides);
}

/// Shows `scene` (default values, its trace at kShownTime) in a 480×360 window and waits until
/// `frames`, a spy on the view's frameRendered, has seen a frame drawn.
bool showOnScreen(SceneView& view, const std::string& scene, QSignalSpy& frames)
{
    view.resize(480, 360);
    view.setScene(scene, withDefaults(scene));
    view.setTrace(simulate(scene));
    view.setTime(kShownTime);
    view.show();
    return QTest::qWaitForWindowExposed(&view) &&
           QTest::qWaitFor([&frames] { return frames.count() > 0; }, 10000);
}

/// Pixels whose hue is within `hueTolerance` degrees of `color`'s and that are clearly coloured
/// (shading changes value and saturation, not hue).
int countPixelsOfHue(const QImage& image, const QColor& color, int hueTolerance = 10,
                     int minSaturation = 120)
{
    const int hue = color.hsvHue();
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            const QColor c(line[x]);
            if (c.hsvSaturation() < minSaturation || c.value() < 60) {
                continue;
            }
            int dh = std::abs(c.hsvHue() - hue);
            dh = std::min(dh, 360 - dh);
            if (dh <= hueTolerance) {
                ++count;
            }
        }
    }
    return count;
}

} // namespace

class TestSceneView : public QObject {
    Q_OBJECT

private:
    /// Compares with tests/ui/baselines/<name>.png; on failure keeps actual and diff images.
    void compareWithBaseline(const QString& name, const QImage& actual);

private slots:
    void initTestCase();
    void eachSceneMatchesItsBaseline_data();
    void eachSceneMatchesItsBaseline();
    void baselineComparisonSeesTheBodyMove();
    void renderImageHasExactlyTheRequestedSize();
    void windowShowsWhatRenderImageRenders();
    void dragTurnsTheCameraAndResetRestoresTheFraming();
    void hidingAForceRemovesItsArrow();
    void frictionlessWireShowsNoFrictionArrow();
    void idealQuaternionForceIsNoTorque();
    void arrowLengthsAreProportionalToForces();
    void arrowScaleMultipliesArrowLengths();
    void frictionArrowIsLongEnoughToSeeAndLabelledWithItsMagnitude_data();
    void frictionArrowIsLongEnoughToSeeAndLabelledWithItsMagnitude();
    void stuckContactIsMarkedBesideTheBody();
    void rigidBodyDrawsNoTorqueItDoesNotHave();
    void framingSurvivesATinyResizeAnExportAndAMuChange();
    void wireAndCameraKeepTheirSizeWhileMuIsTuned_data();
    void wireAndCameraKeepTheirSizeWhileMuIsTuned();
    void nonholonomicGridAndCameraKeepTheirSizeWhileTheDragIsTuned();
    void ringTrailRunsClearOfTheTube();
    void exportFramesLikeAFreshViewWhateverTheLastExportsSize();
    void ghostsAddAndClear();
    void unknownSceneIsRejected();
    void onlySeeThroughScenesDrawTranslucentGeometry_data();
    void captionsOfCloseRunsNeitherOverlapNorCoverTheBody();
    void captionsKeepClearOfTheOtherRunsMarkers_data();
    void captionsKeepClearOfTheOtherRunsMarkers();
    void onlySeeThroughScenesDrawTranslucentGeometry();
    void arrowsAndTrailRideOnTheChosenBob();
    void arrowFieldCarriesEachBobsForcesOnOneScale();
    void spikesAreCutSoTheRestOfTheirKindStaysReadable();
    void breakMarkCrossesTheMiddleOfACutArrowsShaft();
    void arrowFieldTakesEveryKthBobAtMostFortyEightOfEachKind();
    void chainTakesAsManyActorsForAThousandLinksAsForTwenty();
    void chosenBobIsClampedAndSurvivesReRunsAndParameterChanges();
};

void TestSceneView::initTestCase()
{
    QVERIFY(surfaceFormatSet);
    QCOMPARE(QSurfaceFormat::defaultFormat().majorVersion(), 3);
    QCOMPARE(QSurfaceFormat::defaultFormat().profile(), QSurfaceFormat::CoreProfile);
}

void TestSceneView::compareWithBaseline(const QString& name, const QImage& rendered)
{
    const QString failure = test::compareWithBaseline(name, rendered);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
}

void TestSceneView::eachSceneMatchesItsBaseline_data()
{
    QTest::addColumn<QString>("scene");
    for (const SceneDefinition& definition : SceneRegistry::builtIn()) {
        const QString name = QString::fromStdString(definition.name);
        QTest::newRow(qPrintable(name)) << name;
    }
}

void TestSceneView::eachSceneMatchesItsBaseline()
{
    QFETCH(QString, scene);
    const std::string name = scene.toStdString();
    const Trace trace = simulate(name);
    QVERIFY(trace.samples.size() > 100);
    SceneView view;
    view.setScene(name, withDefaults(name));
    view.setTrace(trace);
    view.setTime(trace.samples.front().t + kShownTime);
    compareWithBaseline(scene, view.renderImage(kBaselineSize));
}

void TestSceneView::baselineComparisonSeesTheBodyMove()
{
    // The tolerance must not hide a real change: 50 ms later the sliding bead, its trail and
    // its arrows have moved by a few pixels, which the comparison has to report.
    const Trace trace = simulate("bead-on-wire");
    SceneView view;
    view.setScene("bead-on-wire", withDefaults("bead-on-wire"));
    view.setTrace(trace);
    view.setTime(kShownTime);
    const QImage now = view.renderImage(kBaselineSize);
    QCOMPARE(differingFraction(now, view.renderImage(kBaselineSize)), 0.0);
    view.setTime(kShownTime + 0.05);
    const QImage later = view.renderImage(kBaselineSize);
    QVERIFY2(differingFraction(later, now) > kMaxDifferingFraction,
             qPrintable(QStringLiteral("only %1% of the pixels changed")
                            .arg(100.0 * differingFraction(later, now))));
}

void TestSceneView::renderImageHasExactlyTheRequestedSize()
{
    SceneView view;
    view.setScene("ring", withDefaults("ring"));
    view.setTrace(simulate("ring"));
    view.setTime(0.5);
    for (const QSize size : {QSize(640, 480), QSize(333, 217), QSize(1280, 720)}) {
        const QImage image = view.renderImage(size);
        QCOMPARE(image.size(), size);
        // Not a blank frame: the gradient background plus dark geometry spans a wide range.
        int darkest = 255;
        int brightest = 0;
        for (int y = 0; y < image.height(); y += 3) {
            for (int x = 0; x < image.width(); x += 3) {
                const int g = qGray(image.pixel(x, y));
                darkest = std::min(darkest, g);
                brightest = std::max(brightest, g);
            }
        }
        QVERIFY2(
            brightest - darkest > 120,
            qPrintable(QStringLiteral("flat image at %1x%2").arg(size.width()).arg(size.height())));
    }
}

void TestSceneView::windowShowsWhatRenderImageRenders()
{
    // The bridge (VtkOpenGLWindow + blit) and the offscreen path must show the same picture.
    SceneView view;
    QSignalSpy frames(&view, &SceneView::frameRendered);
    QVERIFY(showOnScreen(view, "bead-on-wire", frames));

    VtkOpenGLWindow* window = view.openGLWindow();
    QVERIFY(window != nullptr);
    const QImage shown = window->grabFramebuffer();
    const QSize deviceSize = shown.size();
    QVERIFY(!shown.isNull());
    const QImage offscreen = view.renderImage(deviceSize);
    QCOMPARE(offscreen.size(), shown.size());
    const double fraction = differingFraction(shown, offscreen);
    if (fraction > 0.01) {
        shown.save(failedDir() + "/window-shown.png");
        offscreen.save(failedDir() + "/window-offscreen.png");
    }
    QVERIFY2(fraction <= 0.01, qPrintable(QStringLiteral("window and offscreen images differ in "
                                                         "%1% of the pixels")
                                              .arg(100.0 * fraction)));
    // The three forces of the sliding bead are all on screen in the window, too.
    for (ForceKind kind :
         {ForceKind::Given, ForceKind::IdealConstraint, ForceKind::NonIdealConstraint}) {
        QVERIFY(countPixelsOfHue(shown, forceColor(kind)) > 50);
    }
}

void TestSceneView::dragTurnsTheCameraAndResetRestoresTheFraming()
{
    SceneView view;
    QSignalSpy frames(&view, &SceneView::frameRendered);
    QVERIFY(showOnScreen(view, "ring", frames));
    const QSize size(480, 360);
    const QImage framed = view.renderImage(size);

    // A left-button drag goes through the bridge to the trackball style and turns the camera.
    VtkOpenGLWindow* window = view.openGLWindow();
    QVERIFY(window != nullptr);
    const auto send = [window](QEvent::Type type, QPointF pos, Qt::MouseButton button,
                               Qt::MouseButtons buttons) {
        QMouseEvent event(type, pos, window->mapToGlobal(pos), button, buttons, Qt::NoModifier);
        QCoreApplication::sendEvent(window, &event);
    };
    send(QEvent::MouseButtonPress, QPointF(240, 180), Qt::LeftButton, Qt::LeftButton);
    for (int i = 1; i <= 10; ++i) {
        send(QEvent::MouseMove, QPointF(240 + 12 * i, 180 + 4 * i), Qt::NoButton, Qt::LeftButton);
    }
    send(QEvent::MouseButtonRelease, QPointF(360, 220), Qt::LeftButton, Qt::NoButton);
    const QImage turned = view.renderImage(size);
    QVERIFY2(differingFraction(turned, framed) > 0.02,
             "dragging did not change the view; mouse events do not reach VTK");

    // Live tuning: a parameter change of the same scene keeps the camera the user turned.
    ParameterValues tuned = withDefaults("ring");
    tuned["mu"] = {0.3};
    tuned["mu_s"] = {0.3};
    view.setScene("ring", tuned);
    view.setTrace(simulate("ring"));
    view.setTime(kShownTime);
    QCOMPARE(differingFraction(view.renderImage(size), turned), 0.0);

    view.resetCamera();
    QCOMPARE(differingFraction(view.renderImage(size), framed), 0.0);
}

void TestSceneView::hidingAForceRemovesItsArrow()
{
    // The bead slides at t = 1 s: gravity, the normal force and friction are all non-zero.
    SceneView view;
    view.setScene("bead-on-wire", withDefaults("bead-on-wire"));
    view.setTrace(simulate("bead-on-wire"));
    view.setTime(kShownTime);
    view.setLegendVisible(false);
    const QSize size(640, 480);
    for (ForceKind kind :
         {ForceKind::Given, ForceKind::IdealConstraint, ForceKind::NonIdealConstraint}) {
        QVERIFY(view.isArrowDrawn(kind));
        const int before = countPixelsOfHue(view.renderImage(size), forceColor(kind));
        QVERIFY2(before > 50, qPrintable(QStringLiteral("%1 arrow covers only %2 pixels")
                                             .arg(forceSymbol(kind))
                                             .arg(before)));
        view.setForceVisible(kind, false);
        QVERIFY(!view.isForceVisible(kind));
        QVERIFY(!view.isArrowDrawn(kind));
        const QImage hidden = view.renderImage(size);
        QCOMPARE(countPixelsOfHue(hidden, forceColor(kind)), 0);
        // The other arrows stay.
        for (ForceKind other :
             {ForceKind::Given, ForceKind::IdealConstraint, ForceKind::NonIdealConstraint}) {
            if (other != kind) {
                QVERIFY(countPixelsOfHue(hidden, forceColor(other)) > 50);
            }
        }
        view.setForceVisible(kind, true);
        QCOMPARE(countPixelsOfHue(view.renderImage(size), forceColor(kind)), before);
    }
}

void TestSceneView::frictionlessWireShowsNoFrictionArrow()
{
    // μ = 0: Qᶜₙᵢ = −μ m g cos θ sgn(ẋ) (cos θ, sin θ) vanishes identically (docs/MATH.md §5).
    const ParameterValues values = withDefaults("bead-on-wire", {{"mu", {0.0}}});
    SceneView view;
    view.setScene("bead-on-wire", values);
    view.setTrace(simulate("bead-on-wire", {{"mu", {0.0}}}));
    view.setTime(kShownTime);
    view.setLegendVisible(false);
    QVERIFY(view.isForceVisible(ForceKind::NonIdealConstraint));
    QVERIFY(!view.isArrowDrawn(ForceKind::NonIdealConstraint));
    QVERIFY(view.isArrowDrawn(ForceKind::Given));
    QVERIFY(view.isArrowDrawn(ForceKind::IdealConstraint));
    const QImage image = view.renderImage(QSize(640, 480));
    QCOMPARE(countPixelsOfHue(image, forceColor(ForceKind::NonIdealConstraint)), 0);
    QVERIFY(countPixelsOfHue(image, forceColor(ForceKind::Given)) > 200);
}

void TestSceneView::idealQuaternionForceIsNoTorque()
{
    // Qᶜᵢ of the rigid body is along u (A = uᵀ) and E(u) u = 0: it corresponds to no torque, so
    // no arrow, although its quaternion components are far from zero.
    const Trace trace = simulate("rigid-body");
    SceneView view;
    view.setScene("rigid-body", withDefaults("rigid-body"));
    view.setTrace(trace);
    view.setTime(kShownTime);
    const TraceSample& s = trace.samples[static_cast<std::size_t>(kShownTime / 0.01)];
    QVERIFY(s.Qci.norm() > 1e-3);
    QVERIFY(!view.isArrowDrawn(ForceKind::IdealConstraint));
    view.setLegendVisible(false);
    QCOMPARE(
        countPixelsOfHue(view.renderImage(QSize(640, 480)), forceColor(ForceKind::IdealConstraint)),
        0);
}

void TestSceneView::arrowLengthsAreProportionalToForces()
{
    // On the wire ‖Q‖ = m g and ‖Qᶜᵢ‖ = m g cos θ, ‖Qᶜₙᵢ‖ = μ m g cos θ while sliding.
    const ParameterValues values = withDefaults("bead-on-wire");
    const double theta = values.at("angle_deg").front() * std::numbers::pi / 180.0;
    const double mu = values.at("mu").front();
    SceneView view;
    view.setScene("bead-on-wire", values);
    view.setTrace(simulate("bead-on-wire"));
    view.setTime(kShownTime);
    const double q = view.arrowLength(ForceKind::Given);
    QVERIFY(q > 0.0);
    QVERIFY(std::abs(view.arrowLength(ForceKind::IdealConstraint) / q - std::cos(theta)) < 1e-6);
    // Friction is drawn a whole number of times longer (the legend says "drawn ×2").
    const double boost = view.arrowBoost(ForceKind::NonIdealConstraint);
    QCOMPARE(boost, 2.0);
    QCOMPARE(view.arrowBoost(ForceKind::Given), 1.0);
    QVERIFY(std::abs(view.arrowLength(ForceKind::NonIdealConstraint) / (boost * q) -
                     mu * std::cos(theta)) < 1e-6);
}

void TestSceneView::frictionArrowIsLongEnoughToSeeAndLabelledWithItsMagnitude_data()
{
    QTest::addColumn<QString>("scene");
    QTest::addColumn<double>("mu");
    QTest::newRow("ring mu=0.1") << QStringLiteral("ring") << 0.1;
    QTest::newRow("bead mu=0.2") << QStringLiteral("bead-on-wire") << 0.2;
    QTest::newRow("bead mu=0.05") << QStringLiteral("bead-on-wire") << 0.05;
}

void TestSceneView::frictionArrowIsLongEnoughToSeeAndLabelledWithItsMagnitude()
{
    // Friction 10× smaller than the normal force would be a wedge beside the body: over the
    // run its longest arrow is at least 30 % of the longest arrow, and its label still gives the
    // true magnitude ‖Qᶜₙᵢ‖ of the sample shown.
    QFETCH(QString, scene);
    QFETCH(double, mu);
    const std::string name = scene.toStdString();
    const ParameterValues overrides = {{"mu", {mu}}, {"mu_s", {mu}}};
    const Trace trace = simulate(name, overrides);
    SceneView view;
    view.setScene(name, withDefaults(name, overrides));
    view.setTrace(trace);
    view.setMagnitudesVisible(true);
    double longest = 0.0;
    double longestFriction = 0.0;
    int labelled = 0;
    for (std::size_t i = 0; i < trace.samples.size(); i += 7) {
        const TraceSample& s = trace.samples[i];
        view.setTime(s.t);
        for (ForceKind kind :
             {ForceKind::Given, ForceKind::IdealConstraint, ForceKind::NonIdealConstraint})
            longest = std::max(longest, view.arrowLength(kind));
        longestFriction =
            std::max(longestFriction, view.arrowLength(ForceKind::NonIdealConstraint));
        if (view.isArrowDrawn(ForceKind::NonIdealConstraint)) {
            // Both scenes move in the x–y plane: the arrow is the force itself.
            const QString expected = QStringLiteral("%1 N").arg(
                s.Qcni.head(std::min<Eigen::Index>(3, s.Qcni.size())).norm(), 0, 'g', 3);
            QCOMPARE(view.magnitudeText(ForceKind::NonIdealConstraint), expected);
            ++labelled;
        }
    }
    QVERIFY(labelled > 0);
    QVERIFY2(longestFriction >= 0.3 * longest,
             qPrintable(QStringLiteral("friction %1 of %2").arg(longestFriction).arg(longest)));
    view.setMagnitudesVisible(false);
    QCOMPARE(view.magnitudeText(ForceKind::NonIdealConstraint), QString());
}

void TestSceneView::stuckContactIsMarkedBesideTheBody()
{
    // The ring's particle comes to rest near the bottom after about 5 s: the contact column
    // turns 0.
    const Trace trace = simulate("ring", {}, 8.0);
    SceneView view;
    view.setScene("ring", withDefaults("ring"));
    view.setTrace(trace);
    int stuck = 0;
    int sliding = 0;
    for (const TraceSample& s : trace.samples) {
        view.setTime(s.t);
        QCOMPARE(s.contacts.size(), Eigen::Index(1));
        QCOMPARE(view.isStuckShown(), s.contacts[0] == 0.0);
        stuck += s.contacts[0] == 0.0;
        sliding += s.contacts[0] == 1.0;
    }
    QVERIFY(stuck > 0);
    QVERIFY(sliding > 0);
}

void TestSceneView::rigidBodyDrawsNoTorqueItDoesNotHave()
{
    // The free body has no applied torque: its quaternion-space Q is only the gyroscopic term
    // −4 E(u̇)ᵀ J ω of Euler's equations, and its ideal constraint force no torque at all. No
    // arrow for either, at any time.
    const Trace trace = simulate("rigid-body");
    SceneView view;
    view.setScene("rigid-body", withDefaults("rigid-body"));
    view.setTrace(trace);
    for (std::size_t i = 0; i < trace.samples.size(); i += 5) {
        view.setTime(trace.samples[i].t);
        QVERIFY(!view.isArrowDrawn(ForceKind::Given));
        QVERIFY(!view.isArrowDrawn(ForceKind::IdealConstraint));
    }
}

void TestSceneView::nonholonomicGridAndCameraKeepTheirSizeWhileTheDragIsTuned()
{
    // The drag a0 is the nonholonomic scene's friction: the patch grid spans the drag-free
    // motion, so tuning a0 changes neither the grid nor the camera.
    SceneViewContent content;
    OffscreenRenderWindow window;
    content.attachTo(window.window());
    double size = 0.0;
    std::array<double, 3> position{};
    for (double a0 : {0.1, 0.0, 0.3, 0.02}) {
        const ParameterValues overrides = {{"a0", {a0}}};
        content.setScene("nonholonomic-particle", withDefaults("nonholonomic-particle", overrides));
        content.setTrace(
            std::make_shared<const Trace>(simulate("nonholonomic-particle", overrides, 10.0)));
        content.frameCamera(800, 600);
        double p[3];
        content.renderer()->GetActiveCamera()->GetPosition(p);
        if (a0 == 0.1) {
            size = content.sceneSize();
            position = {p[0], p[1], p[2]};
            continue;
        }
        QCOMPARE(content.sceneSize(), size);
        for (int k = 0; k < 3; ++k)
            QVERIFY2(std::abs(p[k] - position[k]) < 1e-9 * size,
                     qPrintable(QStringLiteral("a0 = %1: camera moved").arg(a0)));
    }
}

void TestSceneView::ringTrailRunsClearOfTheTube()
{
    // A trail on the tube's surface fights it for depth (speckle): every trail point keeps a
    // clear distance from the tube, whatever the particle's angle.
    const RingWithFriction ring(withDefaults("ring"));
    const double R = ring.radius();
    std::unique_ptr<SceneGeometry> geometry = SceneGeometry::create(ring);
    for (int k = 0; k < 360; ++k) {
        const double phi = k * std::numbers::pi / 180.0;
        Eigen::VectorXd q(2);
        q << R * std::sin(phi), -R * std::cos(phi);
        const Eigen::Vector3d p = geometry->trailPoint(q);
        // Distance from the tube's centre line, a circle of radius R in the x-y plane.
        const double fromCore = std::hypot(std::hypot(p.x(), p.y()) - R, p.z());
        QVERIFY2(fromCore > 1.5 * 0.028 * R, qPrintable(QString::number(fromCore / R)));
    }
}

namespace {

// The box around what is drawn in the lower part of a view (below the legend, right of the axes
// triad): pixels that differ from the background at the right end of their row.
QRect drawnBox(const QImage& image)
{
    QRect box;
    for (int y = image.height() * 2 / 5; y < image.height(); ++y) {
        const QColor background(image.pixel(image.width() - 1, y));
        for (int x = 80; x < image.width(); ++x) {
            const QColor c(image.pixel(x, y));
            if (std::abs(c.red() - background.red()) + std::abs(c.green() - background.green()) +
                    std::abs(c.blue() - background.blue()) >
                60) {
                box |= QRect(x, y, 1, 1);
            }
        }
    }
    return box;
}

} // namespace

void TestSceneView::framingSurvivesATinyResizeAnExportAndAMuChange()
{
    // Reported: after a resize and an export, a μ change left the scene zoomed out to a speck
    // until Reset Camera. The window passes through a few pixels (a dock dragged over it),
    // exports at 1920×1080, comes back, and then shows a run with another μ: the scene must
    // fill the view as before.
    SceneView view;
    QSignalSpy frames(&view, &SceneView::frameRendered);
    QVERIFY(showOnScreen(view, "bead-on-wire", frames));
    VtkOpenGLWindow* window = view.openGLWindow();
    const QRect before = drawnBox(window->grabFramebuffer());
    QVERIFY2(before.width() > 200, qPrintable(QString::number(before.width())));

    for (const QSize& tiny : {QSize(30, 20), QSize(2, 2)}) {
        view.resize(tiny);
        QTest::qWait(100);
    }
    QVERIFY(!view.renderImage(QSize(1920, 1080)).isNull());
    view.resize(480, 360);
    QTest::qWait(100);
    const ParameterValues lessFriction = {{"mu", {0.05}}, {"mu_s", {0.05}}};
    view.setScene("bead-on-wire", withDefaults("bead-on-wire", lessFriction));
    view.setTrace(simulate("bead-on-wire", lessFriction));
    view.setTime(kShownTime);
    const int seen = static_cast<int>(frames.count());
    QTRY_VERIFY_WITH_TIMEOUT(frames.count() > seen, 10000);
    const QRect after = drawnBox(window->grabFramebuffer());
    QVERIFY2(std::abs(after.width() - before.width()) <= 0.05 * before.width() &&
                 std::abs(after.center().x() - before.center().x()) <= 10,
             qPrintable(QStringLiteral("scene drawn %1 px wide at x = %2, before %3 px at %4")
                            .arg(after.width())
                            .arg(after.center().x())
                            .arg(before.width())
                            .arg(before.center().x())));
}

void TestSceneView::wireAndCameraKeepTheirSizeWhileMuIsTuned_data()
{
    QTest::addColumn<bool>("stopAtEnd");
    QTest::addColumn<double>("seconds");
    QTest::newRow("runs on") << false << kSimulatedSeconds;
    // As the built-in scene: until the foot or 10 s, so the run's length depends on μ.
    QTest::newRow("stops at the foot") << true << 10.0;
}

void TestSceneView::wireAndCameraKeepTheirSizeWhileMuIsTuned()
{
    // The wire is as long as a frictionless bead would need (or ends at its foot): μ (even one
    // that holds the bead still) changes neither its length nor the camera's framing.
    QFETCH(bool, stopAtEnd);
    QFETCH(double, seconds);
    SceneViewContent content;
    OffscreenRenderWindow window;
    content.attachTo(window.window());
    double size = 0.0;
    std::array<double, 3> position{};
    for (double mu : {0.2, 0.05, 0.4, 0.7}) {
        const ParameterValues overrides = {{"mu", {mu}}, {"mu_s", {mu}}};
        content.setScene("bead-on-wire", withDefaults("bead-on-wire", overrides));
        const auto trace =
            std::make_shared<const Trace>(simulate("bead-on-wire", overrides, seconds, stopAtEnd));
        QCOMPARE(trace->reachedEnd, stopAtEnd && mu < 0.5);
        content.setTrace(trace);
        content.frameCamera(800, 600);
        double p[3];
        content.renderer()->GetActiveCamera()->GetPosition(p);
        if (mu == 0.2) {
            size = content.sceneSize();
            position = {p[0], p[1], p[2]};
            continue;
        }
        QCOMPARE(content.sceneSize(), size);
        for (int k = 0; k < 3; ++k)
            QVERIFY2(std::abs(p[k] - position[k]) < 1e-9 * size,
                     qPrintable(QStringLiteral("mu = %1: camera moved").arg(mu)));
    }
}

void TestSceneView::exportFramesLikeAFreshViewWhateverTheLastExportsSize()
{
    // A 1920×1080 export after a 640×480 one is framed for 1920×1080 (it used to be framed for
    // the previous size: the model a third of the image, off centre).
    const Trace trace = simulate("ring");
    const auto render = [&](const std::vector<QSize>& sizes) {
        SceneView view;
        view.setScene("ring", withDefaults("ring"));
        view.setTrace(trace);
        view.setTime(kShownTime);
        QImage image;
        for (const QSize& size : sizes)
            image = view.renderImage(size);
        return image;
    };
    const QImage fresh = render({QSize(1920, 1080)});
    const QImage afterSmall = render({QSize(640, 480), QSize(1920, 1080)});
    QCOMPARE(afterSmall.size(), QSize(1920, 1080));
    QCOMPARE(differingFraction(afterSmall, fresh), 0.0);
}

void TestSceneView::arrowScaleMultipliesArrowLengths()
{
    SceneView view;
    view.setScene("ring", withDefaults("ring"));
    view.setTrace(simulate("ring"));
    view.setTime(0.4);
    const double automatic = view.arrowLength(ForceKind::Given);
    QVERIFY(automatic > 0.0);
    view.setArrowScale(2.5);
    QCOMPARE(view.arrowScale(), 2.5);
    QVERIFY(std::abs(view.arrowLength(ForceKind::Given) / automatic - 2.5) < 1e-9);
    QVERIFY_THROWS_EXCEPTION(ConstraintLabError, view.setArrowScale(0.0));
    QCOMPARE(view.arrowScale(), 2.5);
}

void TestSceneView::ghostsAddAndClear()
{
    // Ghost runs are drawn in colours no force uses; the first one is Okabe–Ito reddish purple,
    // far in hue from the friction arrow's vermilion.
    const QColor firstGhost(0xCC, 0x79, 0xA7);
    const int hueGap = std::abs(firstGhost.hue() - forceColor(ForceKind::NonIdealConstraint).hue());
    QVERIFY(std::min(hueGap, 360 - hueGap) >= 60);
    SceneView view;
    view.setScene("ring", withDefaults("ring"));
    view.setTrace(simulate("ring"));
    view.setTime(kShownTime);
    view.setLegendVisible(false);
    const QSize size(640, 480);
    QCOMPARE(view.ghostCount(), 0);
    // (Faintly coloured pixels count from a saturation of 50: a stray anti-aliased edge or two
    // of another colour may pass.)
    QVERIFY(countPixelsOfHue(view.renderImage(size), firstGhost, 6, 50) < 10);

    view.addGhost(simulate("ring", {{"phi0_deg", {60.0}}}),
                  QStringLiteral("\u03C6\u2080 = 60\u00B0"));
    view.addGhost(simulate("ring", {{"v0", {2.0}}}), QStringLiteral("v\u2080 = 2 m/s"));
    QCOMPARE(view.ghostCount(), 2);
    QVERIFY(countPixelsOfHue(view.renderImage(size), firstGhost, 6, 50) > 100);

    view.clearGhosts();
    QCOMPARE(view.ghostCount(), 0);
    QVERIFY(countPixelsOfHue(view.renderImage(size), firstGhost, 6, 50) < 10);

    // A different scene starts without the ghosts of the previous one.
    view.addGhost(simulate("ring", {{"v0", {2.0}}}), QStringLiteral("old"));
    view.setScene("bead-on-wire", withDefaults("bead-on-wire"));
    QCOMPARE(view.ghostCount(), 0);
}

void TestSceneView::unknownSceneIsRejected()
{
    SceneView view;
    QVERIFY_THROWS_EXCEPTION(ConstraintLabError, view.setScene("no-such-scene", {}));
}

void TestSceneView::onlySeeThroughScenesDrawTranslucentGeometry_data()
{
    QTest::addColumn<QString>("scene");
    QTest::addColumn<int>("ghosts");
    for (const SceneDefinition& definition : SceneRegistry::builtIn()) {
        const QString name = QString::fromStdString(definition.name);
        QTest::newRow(qPrintable(name)) << name << 0;
        // Compare mode: runs of other friction coefficients, where the scene has friction.
        if (definition.parameter("mu"))
            QTest::newRow(qPrintable(name + ", compare mode")) << name << 2;
    }
}

void TestSceneView::onlySeeThroughScenesDrawTranslucentGeometry()
{
    // One translucent 3D prop (a billboard label, a see-through ghost marker) makes VTK run its
    // order-independent translucency pass over the whole view: under llvmpipe that was 8 of a
    // 19 ms frame. Scenes without see-through parts by design must not pay for it, and the
    // others say so.
    QFETCH(QString, scene);
    QFETCH(int, ghosts);
    const std::string name = scene.toStdString();
    SceneDocument document;
    document.scene = name;
    document.parameters = withDefaults(name);
    const bool seeThrough = SceneGeometry::create(document)->seeThrough();
    OffscreenRenderWindow window;
    SceneViewContent content;
    content.attachTo(window.window());
    content.setScene(name, withDefaults(name));
    const bool hasStatic = SceneRegistry::find(name)->parameter("mu_s") != nullptr;
    for (int i = 0; i < ghosts; ++i) {
        const double mu = 0.1 * (i + 1);
        ParameterValues values = {{"mu", {mu}}};
        if (hasStatic)
            values["mu_s"] = {mu};
        content.addGhost(std::make_shared<const Trace>(simulate(name, values)),
                         QStringLiteral("mu = %1").arg(mu));
    }
    content.setTrace(std::make_shared<const Trace>(simulate(name)));
    content.setTime(kShownTime);
    // Props build their textures and buffers on the first render.
    QVERIFY2(!window.render(QSize(320, 240)).isNull(), qPrintable(window.errorString()));
    int checked = 0;
    int translucent = 0;
    for (vtkRenderer* renderer : {content.renderer(), content.overlayRenderer()}) {
        vtkPropCollection* props = renderer->GetViewProps();
        props->InitTraversal();
        while (vtkProp* prop = props->GetNextProp()) {
            if (prop->GetVisibility() == 0) {
                continue;
            }
            ++checked;
            if (prop->HasTranslucentPolygonalGeometry() != 0) {
                ++translucent;
                QVERIFY2(seeThrough, prop->GetClassName());
            }
        }
    }
    QVERIFY(checked >= 5);
    QVERIFY2(!seeThrough || translucent > 0,
             "a scene that says it is see-through draws nothing translucent");
}

void TestSceneView::captionsOfCloseRunsNeitherOverlapNorCoverTheBody()
{
    // Three compare runs with the same μ: their markers coincide at every time, and so would
    // their captions, unless they are stacked.
    OffscreenRenderWindow window;
    SceneViewContent content;
    content.attachTo(window.window());
    content.setScene("bead-on-wire", withDefaults("bead-on-wire"));
    const auto run = std::make_shared<const Trace>(simulate("bead-on-wire"));
    const QStringList labels = {QStringLiteral("first run"), QStringLiteral("second run"),
                                QStringLiteral("third run")};
    for (const QString& label : labels) {
        content.addGhost(run, label);
    }
    content.setTrace(run);
    content.setTime(kShownTime);
    content.frameCamera(640, 480);
    QVERIFY2(!window.render(QSize(640, 480)).isNull(), qPrintable(window.errorString()));

    std::vector<std::array<double, 4>> boxes;
    vtkPropCollection* props = content.overlayRenderer()->GetViewProps();
    props->InitTraversal();
    while (vtkProp* prop = props->GetNextProp()) {
        auto* text = vtkTextActor::SafeDownCast(prop);
        // Captions are pinned to a scene point (the legend names the runs, too).
        if (text == nullptr || text->GetVisibility() == 0 ||
            !labels.contains(QString::fromUtf8(text->GetInput())) ||
            text->GetPositionCoordinate()->GetReferenceCoordinate() == nullptr) {
            continue;
        }
        // The text's size, at its position (left and bottom justified).
        std::array<double, 4> size{};
        text->GetBoundingBox(content.overlayRenderer(), size.data());
        QVERIFY(size[1] > size[0] && size[3] > size[2]);
        const double* at =
            text->GetPositionCoordinate()->GetComputedDoubleDisplayValue(content.overlayRenderer());
        boxes.push_back({at[0], at[0] + size[1] - size[0], at[1], at[1] + size[3] - size[2]});
    }
    QCOMPARE(boxes.size(), std::size_t{3});
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        for (std::size_t j = i + 1; j < boxes.size(); ++j) {
            const auto& a = boxes[i];
            const auto& b = boxes[j];
            const bool apart = a[1] <= b[0] || b[1] <= a[0] || a[3] <= b[2] || b[3] <= a[2];
            QVERIFY2(apart, qPrintable(QStringLiteral("captions %1 and %2 overlap").arg(i).arg(j)));
        }
    }
    // Each stays beside its ghost (all three ghosts are at the same place here): within two
    // caption heights of it.
    const Eigen::Vector3d ghostAt(run->samples[static_cast<std::size_t>(kShownTime / 0.01)].q[0],
                                  run->samples[static_cast<std::size_t>(kShownTime / 0.01)].q[1],
                                  0.0);
    vtkNew<vtkCoordinate> marker;
    marker->SetCoordinateSystemToWorld();
    marker->SetValue(ghostAt.x(), ghostAt.y(), ghostAt.z());
    const double* m = marker->GetComputedDoubleDisplayValue(content.renderer());
    for (const auto& b : boxes) {
        const double dx = std::max({b[0] - m[0], 0.0, m[0] - b[1]});
        const double dy = std::max({b[2] - m[1], 0.0, m[1] - b[3]});
        QVERIFY2(
            std::hypot(dx, dy) <= 2.5 * (b[3] - b[2]) + 10.0,
            qPrintable(QStringLiteral("caption %1 px from its ghost").arg(std::hypot(dx, dy))));
    }
    // And none covers the bead itself: a disc at (x, y, 0) of the sample shown, of the radius
    // the scene geometry gives it.
    const TraceSample& shown =
        *std::find_if(run->samples.rbegin(), run->samples.rend(),
                      [](const TraceSample& s) { return s.t <= kShownTime; });
    std::unique_ptr<SceneGeometry> geometry =
        SceneGeometry::create(BeadOnWire(withDefaults("bead-on-wire")));
    geometry->fitToTrace(*run);
    vtkNew<vtkCoordinate> point;
    point->SetCoordinateSystemToWorld();
    const auto onScreen = [&](double x, double y, double z) {
        point->SetValue(x, y, z);
        const double* d = point->GetComputedDoubleDisplayValue(content.renderer());
        return std::array<double, 2>{d[0], d[1]};
    };
    double up[3];
    content.renderer()->GetActiveCamera()->GetViewUp(up);
    const double r0 = geometry->bodyRadius();
    const auto centre = onScreen(shown.q[0], shown.q[1], 0.0);
    const auto top = onScreen(shown.q[0] + r0 * up[0], shown.q[1] + r0 * up[1], r0 * up[2]);
    const double r = std::hypot(top[0] - centre[0], top[1] - centre[1]) - 1.0;
    QVERIFY(r > 3.0);
    for (const auto& box : boxes) {
        const bool covers = box[0] < centre[0] + r && box[1] > centre[0] - r &&
                            box[2] < centre[1] + r && box[3] > centre[1] - r;
        QVERIFY2(!covers, "a caption covers the moving bead");
    }
    // A ghost's marker is 0.8 of the body's radius.
    const double ghostRadius = 0.8 * (r + 1.0);
    // Leader lines: two-point lines on the overlay, from a ghost to its caption's box.
    std::vector<std::array<double, 4>> leaders;
    props->InitTraversal();
    while (vtkProp* prop = props->GetNextProp()) {
        auto* actor = vtkActor2D::SafeDownCast(prop);
        auto* mapper = actor ? vtkPolyDataMapper2D::SafeDownCast(actor->GetMapper()) : nullptr;
        vtkPolyData* line = mapper ? mapper->GetInput() : nullptr;
        if (line == nullptr || actor->GetVisibility() == 0 || line->GetNumberOfPoints() != 2 ||
            line->GetNumberOfLines() != 1) {
            continue;
        }
        double a[3], b[3]; // GetPoint(i) alone returns one shared buffer
        line->GetPoint(0, a);
        line->GetPoint(1, b);
        leaders.push_back({a[0], a[1], b[0], b[1]});
    }
    std::size_t far = 0;
    for (const auto& b : boxes) {
        const double nx = std::clamp(m[0], b[0], b[1]);
        const double ny = std::clamp(m[1], b[2], b[3]);
        const double distance = std::hypot(nx - m[0], ny - m[1]);
        // No caption hides a ghost's marker (all three are here).
        QVERIFY2(distance >= ghostRadius - 1.0,
                 qPrintable(QStringLiteral("a caption covers a ghost (%1 px)").arg(distance)));
        // One further off than a caption's height beyond the ghost's marker is joined to it by
        // a line from the ghost to the box's nearest point.
        if (distance <= ghostRadius + (b[3] - b[2]))
            continue;
        ++far;
        const bool joined = std::any_of(leaders.begin(), leaders.end(), [&](const auto& l) {
            return std::hypot(l[0] - m[0], l[1] - m[1]) < 1.5 &&
                   std::hypot(l[2] - nx, l[3] - ny) < 1.5;
        });
        QVERIFY2(joined,
                 qPrintable(QStringLiteral("no leader to a caption %1 px away").arg(distance)));
    }
    // Three captions cannot all sit in the first ring beside the bead: one at least is further.
    QVERIFY(far >= 1);
    QCOMPARE(leaders.size(), far);
}

void TestSceneView::captionsKeepClearOfTheOtherRunsMarkers_data()
{
    QTest::addColumn<double>("shownTime");
    QTest::addColumn<QSize>("size");
    for (double t : {0.4, 0.6, 0.8})
        for (const QSize& size : {QSize(640, 480), QSize(660, 690), QSize(1280, 720)})
            QTest::addRow("t = %g s, %dx%d", t, size.width(), size.height()) << t << size;
}

void TestSceneView::captionsKeepClearOfTheOtherRunsMarkers()
{
    // Runs with μ = 0.1, 0.2, 0.3 beside the current μ = 0.4: a little apart on the wire, so
    // that a caption placed beside one ghost could cover the next one.
    OffscreenRenderWindow window;
    SceneViewContent content;
    content.attachTo(window.window());
    content.setScene("bead-on-wire", withDefaults("bead-on-wire", {{"mu", {0.4}}}));
    std::vector<std::shared_ptr<const Trace>> ghosts;
    for (double mu : {0.2, 0.1, 0.3}) {
        ghosts.push_back(std::make_shared<const Trace>(
            simulate("bead-on-wire", {{"mu", {mu}}, {"mu_s", {mu}}})));
        content.addGhost(ghosts.back(), QStringLiteral("mu = %1").arg(mu));
    }
    content.setTrace(
        std::make_shared<const Trace>(simulate("bead-on-wire", {{"mu", {0.4}}, {"mu_s", {0.4}}})));
    QFETCH(double, shownTime);
    QFETCH(QSize, size);
    content.setTime(shownTime);
    content.frameCamera(size.width(), size.height());
    QVERIFY2(!window.render(size).isNull(), qPrintable(window.errorString()));

    // Where each ghost's marker is, and how large (0.8 of the body's radius, 0.03 of the scene).
    vtkNew<vtkCoordinate> point;
    point->SetCoordinateSystemToWorld();
    const auto onScreen = [&](const Eigen::Vector3d& p) {
        point->SetValue(p.x(), p.y(), p.z());
        const double* d = point->GetComputedDoubleDisplayValue(content.renderer());
        return Eigen::Vector2d(d[0], d[1]);
    };
    double up[3];
    content.renderer()->GetActiveCamera()->GetViewUp(up);
    std::vector<Eigen::Vector2d> markers;
    double radius = 0.0;
    for (const auto& ghost : ghosts) {
        const TraceSample& s = ghost->samples[static_cast<std::size_t>(shownTime / 0.01)];
        const Eigen::Vector3d at(s.q[0], s.q[1], 0.0);
        markers.push_back(onScreen(at));
        radius = 0.8 *
                 (onScreen(at + content.sceneSize() * 0.03 * Eigen::Vector3d(up[0], up[1], up[2])) -
                  markers.back())
                     .norm();
    }
    QVERIFY(radius > 3.0);
    // The markers are close enough to compete for room.
    QVERIFY((markers[0] - markers[2]).norm() < 6.0 * radius);

    int captions = 0;
    vtkPropCollection* props = content.overlayRenderer()->GetViewProps();
    props->InitTraversal();
    while (vtkProp* prop = props->GetNextProp()) {
        auto* text = vtkTextActor::SafeDownCast(prop);
        if (text == nullptr || text->GetVisibility() == 0 ||
            !QString::fromUtf8(text->GetInput()).startsWith(QStringLiteral("mu = ")) ||
            text->GetPositionCoordinate()->GetReferenceCoordinate() == nullptr) {
            continue;
        }
        ++captions;
        std::array<double, 4> size{};
        text->GetBoundingBox(content.overlayRenderer(), size.data());
        const double* at =
            text->GetPositionCoordinate()->GetComputedDoubleDisplayValue(content.overlayRenderer());
        const Eigen::AlignedBox2d box(
            Eigen::Vector2d(at[0], at[1]),
            Eigen::Vector2d(at[0] + size[1] - size[0], at[1] + size[3] - size[2]));
        for (std::size_t g = 0; g < markers.size(); ++g) {
            const Eigen::Vector2d nearest = markers[g].cwiseMax(box.min()).cwiseMin(box.max());
            QVERIFY2((nearest - markers[g]).norm() >= radius - 1.0,
                     qPrintable(QStringLiteral("caption \"%1\" covers the marker of run %2")
                                    .arg(QString::fromUtf8(text->GetInput()))
                                    .arg(g)));
        }
    }
    QCOMPARE(captions, 3);
}

void TestSceneView::arrowsAndTrailRideOnTheChosenBob()
{
    // The arrows start on bob 7's surface along its force components, scaled like any arrow;
    // the trail is bob 7's path; the Forces dock's magnitudes are bob 7's.
    const Trace trace = testing::runScene("chain", chainOf(20), 1.0);
    SceneView view;
    view.setScene("chain", chainOf(20));
    view.setTrace(trace);
    view.setTime(0.5);
    QCOMPARE(view.bodyCount(), 20);
    QCOMPARE(view.bodyNoun(), QStringLiteral("bob"));
    QCOMPARE(view.chosenBody(), 20); // the free end unless chosen
    view.setChosenBody(7);
    QCOMPARE(view.chosenBody(), 7);
    const SceneViewContent& content = view.content();
    const TraceSample& sample = trace.samples[trace.sampleIndexAt(0.5)];
    const Eigen::Vector3d bob = bobPair(sample.q, 7);
    int drawn = 0;
    for (ForceKind kind : {ForceKind::Given, ForceKind::IdealConstraint}) {
        const Eigen::Vector3d force = bobPair(SceneGeometry::generalizedForce(sample, kind), 7);
        QVERIFY(force.norm() > 0.0);
        QVERIFY(view.isArrowDrawn(kind));
        ++drawn;
        const Eigen::Vector3d v = content.arrowVector(kind);
        const double scale = content.automaticArrowScale() * view.arrowBoost(kind);
        QVERIFY2(
            (v - scale * force).norm() <= 1e-12 * v.norm(),
            qPrintable(QStringLiteral("%1 arrow is not bob 7's force").arg(forceSymbol(kind))));
        // From the bob's surface, along the force.
        const Eigen::Vector3d offset = content.arrowBase(kind) - bob;
        QVERIFY(std::abs(offset.norm() - 0.03 * view.content().sceneSize()) < 1e-12);
        QVERIFY((offset.normalized() - force.normalized()).norm() < 1e-12);
        QVERIFY(std::abs(view.forceMagnitude(kind) - force.norm()) <= 1e-12 * force.norm());
    }
    QCOMPARE(drawn, 2);
    // A chain has no non-ideal force.
    QVERIFY(!view.isArrowDrawn(ForceKind::NonIdealConstraint));

    const std::vector<Eigen::Vector3d>& trail = content.trailPath();
    QCOMPARE(trail.size(), trace.samples.size());
    for (std::size_t i = 0; i < trail.size(); ++i)
        QCOMPARE(trail[i], bobPair(trace.samples[i].q, 7));

    // Back to the default: the free end.
    view.setChosenBody(0);
    QCOMPARE(view.chosenBody(), 20);
    QCOMPARE(content.trailPath().back(), bobPair(trace.samples.back().q, 20));
    QVERIFY(
        (content.arrowVector(ForceKind::Given).normalized() - bobPair(sample.Q, 20).normalized())
            .norm() < 1e-12);
}

void TestSceneView::spikesAreCutSoTheRestOfTheirKindStaysReadable()
{
    // Rounding the table's 3 cm edge, a piece of the sliding chain feels an ideal force of
    // m v²/R besides its weight: scaled by that spike, the normal force on the table would be
    // a speck under the bob. A kind is drawn to one scale up to three times its 95th
    // percentile; longer arrows are cut to that length and their labels keep the magnitude.
    const std::string scene = "sliding-chain";
    const Trace trace = simulate(scene, {}, 10.0, true); // until the chain has left the table
    SceneView view;
    view.setScene(scene, withDefaults(scene));
    view.setTrace(trace);
    view.setMagnitudesVisible(true);
    const int bob = view.bodyCount() / 2; // starts on the table and rounds the edge in the run
    view.setChosenBody(bob);
    const SceneViewContent& content = view.content();
    const double scale =
        content.automaticArrowScale() * view.arrowBoost(ForceKind::IdealConstraint);
    double cutLength = 0.0;
    int cut = 0;
    std::vector<double> uncutLengths;
    for (const TraceSample& s : trace.samples) {
        view.setTime(s.t);
        const double f = bobPair(s.Qci, bob).norm();
        const double drawn = content.arrowVector(ForceKind::IdealConstraint).norm();
        QVERIFY((content.arrowVector(ForceKind::IdealConstraint).normalized() -
                 bobPair(s.Qci, bob).normalized())
                    .norm() < 1e-9);
        // Scaled by the spike, the smallest of these (8 mN) fell below the speck threshold.
        QVERIFY2(view.isArrowDrawn(ForceKind::IdealConstraint),
                 qPrintable(QStringLiteral("no arrow for %1 N at t = %2").arg(f).arg(s.t)));
        QCOMPARE(view.magnitudeText(ForceKind::IdealConstraint),
                 QStringLiteral("%1 N").arg(f, 0, 'g', 3));
        const bool isCut = drawn < scale * f * (1.0 - 1e-9);
        // A cut arrow carries its break mark, an arrow to scale none.
        QCOMPARE(content.isArrowMarkedCut(ForceKind::IdealConstraint), isCut);
        if (isCut) {
            // Every cut arrow has the one length of the kind's longest.
            if (cut == 0)
                cutLength = drawn;
            QVERIFY(std::abs(drawn - cutLength) <= 1e-9 * cutLength);
            ++cut;
        } else {
            QVERIFY(std::abs(drawn - scale * f) <= 1e-9 * drawn);
            uncutLengths.push_back(drawn);
        }
    }
    QVERIFY2(cut > 0, "the edge's spike was drawn to scale: the rest of the run is a speck");
    // Cut arrows are not to scale, and the legend says so for that force only.
    const QStringList legend = content.legendLabels();
    QVERIFY(legend.filter(QStringLiteral("ideal constraint force  (peaks cut)")).size() == 1);
    QCOMPARE(legend.filter(QStringLiteral("peaks cut")).size(), 1);
    QVERIFY(uncutLengths.size() > 10 * static_cast<std::size_t>(cut));
    // The typical arrow is a good fraction of the longest, not a speck beside it.
    std::nth_element(uncutLengths.begin(), uncutLengths.begin() + uncutLengths.size() / 2,
                     uncutLengths.end());
    QVERIFY2(uncutLengths[uncutLengths.size() / 2] > 0.2 * cutLength,
             qPrintable(QStringLiteral("median %1 against %2")
                            .arg(uncutLengths[uncutLengths.size() / 2])
                            .arg(cutLength)));
}

void TestSceneView::breakMarkCrossesTheMiddleOfACutArrowsShaft()
{
    ForceArrow arrow;
    const double shaft = 0.02;
    arrow.setDimensions(shaft, 0.05, 0.1);
    const Eigen::Vector3d origin(1.0, 2.0, 0.0);
    const Eigen::Vector3d vector(0.6, -0.8, 0.0); // 1 long, the shaft 0.9
    arrow.set(origin, vector);
    QVERIFY(arrow.isDrawn());
    QVERIFY(!arrow.isBreakMarkDrawn()); // to scale: no mark
    arrow.setCut(true);
    QVERIFY(arrow.isBreakMarkDrawn());
    // Halfway along the shaft, across it: wider than the shaft, short along the arrow.
    double b[6];
    arrow.breakMark()->GetBounds(b);
    const Eigen::Vector3d centre(0.5 * (b[0] + b[1]), 0.5 * (b[2] + b[3]), 0.5 * (b[4] + b[5]));
    QVERIFY((centre - (origin + 0.45 * vector)).norm() < 0.2 * shaft);
    QVERIFY(b[5] - b[4] > 2.0 * shaft); // round the shaft in z
    QVERIFY(b[5] - b[4] < 4.0 * shaft);
    QVERIFY(std::hypot(b[1] - b[0], b[3] - b[2]) < 8.0 * shaft);
    // The mark follows the arrow, and goes with it.
    arrow.set(origin, 2.0 * vector);
    arrow.breakMark()->GetBounds(b);
    const Eigen::Vector3d moved(0.5 * (b[0] + b[1]), 0.5 * (b[2] + b[3]), 0.5 * (b[4] + b[5]));
    QVERIFY((moved - (origin + 0.95 * vector)).norm() < 0.2 * shaft);
    arrow.setEnabled(false);
    QVERIFY(!arrow.isBreakMarkDrawn());
    arrow.setEnabled(true);
    arrow.clear();
    QVERIFY(!arrow.isBreakMarkDrawn());
}

void TestSceneView::arrowFieldCarriesEachBobsForcesOnOneScale()
{
    // 200 links: every 5th bob from the free end, 40 arrows of each kind, each the force on its
    // bob (the trace's own components) on one scale: the large arrows' times the field's shrink.
    const int links = 200;
    const Trace trace = testing::runScene("chain", chainOf(links), 0.3);
    SceneView view;
    view.setScene("chain", chainOf(links));
    view.setTrace(trace);
    view.setTime(0.2);
    const SceneViewContent& content = view.content();
    QVERIFY(content.arrowFieldBodies().empty()); // off by default
    for (ForceKind kind : {ForceKind::Given, ForceKind::IdealConstraint})
        QCOMPARE(content.arrowField(kind).count(), 0);
    view.setArrowFieldVisible(true);
    QVERIFY(view.isArrowFieldVisible());
    std::vector<int> expected;
    for (int bob = links; bob >= 1; bob -= 5)
        expected.push_back(bob);
    QCOMPARE(content.arrowFieldBodies(), expected);

    const TraceSample& sample = trace.samples[trace.sampleIndexAt(0.2)];
    const double shrink = content.arrowFieldShrink();
    QVERIFY(shrink > 0.0 && shrink < 1.0);
    const double ell = 2.0 / links;
    for (ForceKind kind : {ForceKind::Given, ForceKind::IdealConstraint}) {
        const ArrowField& field = content.arrowField(kind);
        QVERIFY(field.isDrawn());
        QCOMPARE(field.count(), 40);
        const Eigen::VectorXd& F = SceneGeometry::generalizedForce(sample, kind);
        // The large arrows' scene units per newton.
        const double large = content.automaticArrowScale() * view.arrowBoost(kind);
        for (int j = 0; j < field.count(); ++j) {
            const int bob = expected[static_cast<std::size_t>(j)];
            QVERIFY((field.origin(j) - bobPair(sample.q, bob)).norm() <= 1e-12);
            const Eigen::Vector3d want = shrink * large * bobPair(F, bob);
            QVERIFY2((field.vector(j) - want).norm() <= 1e-9 * std::max(want.norm(), 1e-300),
                     qPrintable(QStringLiteral("%1 at bob %2").arg(forceSymbol(kind)).arg(bob)));
        }
    }
    // Over the run, nearly all arrows fit between their neighbours, 5 links apart (the shrink is
    // set by all but the longest twentieth, then rounded to 1, 2 or 5 times a power of ten), and
    // most are not specks either.
    const double gap = 5 * ell;
    std::vector<double> lengths;
    for (const TraceSample& each : trace.samples) {
        view.setTime(each.t);
        for (ForceKind kind : {ForceKind::Given, ForceKind::IdealConstraint})
            for (int j = 0; j < content.arrowField(kind).count(); ++j)
                lengths.push_back(content.arrowField(kind).vector(j).norm());
    }
    const auto share = [&](auto keep) {
        return static_cast<double>(std::count_if(lengths.begin(), lengths.end(), keep)) /
               static_cast<double>(lengths.size());
    };
    const double tooLong = share([&](double l) { return l > 1.5 * std::sqrt(2.5) * gap; });
    const double legible = share([&](double l) { return l > 0.2 * gap; });
    qInfo("field arrows: %.3f longer than 2.4 gaps, %.3f longer than 0.2 gaps (shrink %g)", tooLong,
          legible, shrink);
    QVERIFY(tooLong <= 0.05);
    QVERIFY(legible >= 0.5);
    view.setTime(0.2);

    QCOMPARE(content.arrowFieldLegend(),
             QStringLiteral("small arrows: every 5th bob, drawn \u00D7%1").arg(shrink));
    // The legend hidden, so that both pictures frame the chain alike.
    view.setLegendVisible(false);
    const QImage withField = view.renderImage(QSize(640, 480));
    view.setForceVisible(ForceKind::Given, false);
    QVERIFY(!content.arrowField(ForceKind::Given).isDrawn());
    QVERIFY(content.arrowField(ForceKind::IdealConstraint).isDrawn());
    view.setForceVisible(ForceKind::Given, true);
    view.setArrowFieldVisible(false);
    QVERIFY(!content.arrowField(ForceKind::Given).isDrawn());
    // The field's arrows show in the picture: more pixels of Q's blue with it than without.
    const QImage without = view.renderImage(QSize(640, 480));
    const QColor blue = forceColor(ForceKind::Given);
    QVERIFY2(countPixelsOfHue(withField, blue) > countPixelsOfHue(without, blue) + 40,
             qPrintable(QStringLiteral("%1 blue pixels with the field, %2 without")
                            .arg(countPixelsOfHue(withField, blue))
                            .arg(countPixelsOfHue(without, blue))));
}

void TestSceneView::arrowFieldTakesEveryKthBobAtMostFortyEightOfEachKind()
{
    // k is the smallest spacing that keeps to 48 arrows: k − 1 would draw more.
    for (int count : {1, 2, 20, 47, 48, 49, 96, 97, 200, 1000, 10000}) {
        const std::vector<int> bodies = SceneViewContent::fieldBodiesFor(count);
        QVERIFY(!bodies.empty());
        QVERIFY(static_cast<int>(bodies.size()) <= SceneViewContent::kMaxFieldArrows);
        QCOMPARE(bodies.front(), count); // the free end is always among them
        const int k = bodies.size() > 1 ? bodies[0] - bodies[1] : count;
        for (std::size_t j = 1; j < bodies.size(); ++j)
            QCOMPARE(bodies[j - 1] - bodies[j], k);
        QVERIFY(bodies.back() >= 1 && bodies.back() <= k);
        if (k > 1)
            QVERIFY((count - 1) / (k - 1) + 1 > SceneViewContent::kMaxFieldArrows);
    }
    QCOMPARE(SceneViewContent::fieldBodiesFor(1000).size(), std::size_t(48)); // every 21st
}

void TestSceneView::chainTakesAsManyActorsForAThousandLinksAsForTwenty()
{
    // With the field on, before any run (the initial state's forces): the same props, however
    // many links, and the field of a thousand links is 48 glyphs a kind.
    const auto props = [](const SceneViewContent& content) {
        return content.renderer()->GetViewProps()->GetNumberOfItems() +
               content.overlayRenderer()->GetViewProps()->GetNumberOfItems();
    };
    std::vector<int> counts;
    for (int links : {20, 1000}) {
        SceneView view;
        view.setArrowFieldVisible(true);
        view.setScene("chain", chainOf(links));
        QVERIFY(view.content().arrowField(ForceKind::Given).isDrawn());
        QCOMPARE(view.content().arrowField(ForceKind::Given).count(), links == 20 ? 20 : 48);
        counts.push_back(props(view.content()));
    }
    QCOMPARE(counts[1], counts[0]);
}

void TestSceneView::chosenBobIsClampedAndSurvivesReRunsAndParameterChanges()
{
    SceneView view;
    view.setScene("chain", chainOf(20));
    view.setChosenBody(15);
    QCOMPARE(view.chosenBody(), 15);
    view.setChosenBody(50);
    QCOMPARE(view.chosenBody(), 20);
    view.setChosenBody(-3); // the free end, as 0
    QCOMPARE(view.chosenBody(), 20);
    const Trace run = testing::runScene("chain", chainOf(20), 0.2);
    view.setChosenBody(15);
    view.setTrace(run);
    QCOMPARE(view.chosenBody(), 15);
    // Fewer links: the last bob; as many again: bob 15 once more.
    view.setScene("chain", chainOf(10));
    QCOMPARE(view.chosenBody(), 10);
    view.setScene("chain", chainOf(20));
    QCOMPARE(view.chosenBody(), 15);
    view.setTrace(run);
    QCOMPARE(view.content().trailPath().back(), bobPair(run.samples.back().q, 15));
    // An export draws the chosen bob too: the same picture as a view told bob 15 from the start,
    // not the free end's.
    const QSize size(320, 240);
    SceneView fresh;
    fresh.setChosenBody(15);
    fresh.setScene("chain", chainOf(20));
    fresh.setTrace(run);
    const QImage exported = view.renderImage(size);
    QCOMPARE(differingFraction(exported, fresh.renderImage(size)), 0.0);
    fresh.setChosenBody(0);
    QVERIFY(differingFraction(exported, fresh.renderImage(size)) > 0.0);
    // Another scene has one body; back to the chain, the free end again.
    view.setScene("bead-on-wire", withDefaults("bead-on-wire"));
    QCOMPARE(view.bodyCount(), 1);
    QCOMPARE(view.chosenBody(), 1);
    view.setScene("chain", chainOf(20));
    QCOMPARE(view.chosenBody(), 20);
}

QTEST_MAIN(TestSceneView)
#include "tst_SceneView.moc"
