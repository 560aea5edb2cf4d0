// Latency of live editing, to the new 10 s trajectory drawn in the 3D view (worker thread,
// hand-over to the GUI, one frame):
// - friction tuning: from a change of mu in the Scene dock's session (target 50 ms);
// - the System editor: from the last keystroke of an edit of the double pendulum's potential
//   energy (parsing, deriving, compiling the new system, then the same run; target 150 ms).
// Needs a display: xvfb-run -a -s "-screen 0 1920x1080x24" ./bench_MainWindow
#include <GuiSceneStore.h>
#include <MainWindow.h>
#include <panels/SystemEditor.h>
#include <session/SceneSession.h>
#include <view3d/SceneView.h>
#include <widgets/VtkOpenGLWidget.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QKeyEvent>

#include <benchmark/benchmark.h>

#include "../support/GuiBenchmarkMain.h"

#include <memory>

using namespace clab;

namespace {

/// Processes events until `counter` reaches `target` (or 20 s passed).
bool waitFor(const int& counter, int target)
{
    QElapsedTimer timer;
    timer.start();
    while (counter < target && timer.elapsed() < 20000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
    }
    return counter >= target;
}

/// Waits until a trajectory after the `shownBefore`-th has arrived and one frame has shown it;
/// false (after telling `state`) when that takes more than 20 s.
bool waitForDrawing(benchmark::State& state, const int& shown, int shownBefore, const int& frames)
{
    if (!waitFor(shown, shownBefore + 1)) {
        state.SkipWithError("no new trajectory within 20 s");
        return false;
    }
    const int framesAtShown = frames;
    if (!waitFor(frames, framesAtShown + 1)) {
        state.SkipWithError("the new trajectory was not drawn within 20 s");
        return false;
    }
    return true;
}

void BM_MuChangeToNewTrajectoryOnScreen(benchmark::State& state)
{
    auto store = std::make_shared<GuiSceneStore>();
    MainWindow window(store);
    SceneDocument document = store->builtIn("bead-on-wire");
    document.simulation.tEnd = 10.0;
    int shown = 0;
    int frames = 0;
    QObject::connect(&window, &MainWindow::trajectoryShown, [&shown] { ++shown; });
    QObject::connect(window.sceneView(), &SceneView::frameRendered, [&frames] { ++frames; });
    window.resize(1280, 800);
    window.show();
    window.setDocument(document);
    if (!waitFor(shown, 1) || !waitFor(frames, 1)) {
        state.SkipWithError("the first trajectory never reached the screen (no display?)");
        return;
    }
    // Alternate between two kinetic coefficients below tan 30°, so every change really
    // produces a different sliding motion.
    double mu = 0.2;
    for (auto _ : state) {
        mu = mu == 0.2 ? 0.3 : 0.2;
        const int shownBefore = shown;
        window.session()->edit(QStringLiteral("mu"), {mu});
        if (!waitForDrawing(state, shown, shownBefore, frames))
            return;
    }
    state.counters["samples"] = static_cast<double>(window.trace()->samples.size());
}
BENCHMARK(BM_MuChangeToNewTrajectoryOnScreen)
    ->Unit(benchmark::kMillisecond)
    ->MinTime(3.0)
    ->UseRealTime();

/// One key press and release, as typing sends them.
void press(QWidget* field, Qt::Key key, const QString& text)
{
    QKeyEvent down(QEvent::KeyPress, key, Qt::NoModifier, text);
    QApplication::sendEvent(field, &down);
    QKeyEvent up(QEvent::KeyRelease, key, Qt::NoModifier, text);
    QApplication::sendEvent(field, &up);
}

void BM_KeystrokeToNewTrajectoryOnScreen(benchmark::State& state)
{
    auto store = std::make_shared<GuiSceneStore>();
    MainWindow window(store);
    SceneDocument document = store->load(QStringLiteral(":/systems/double-pendulum.json"));
    document.simulation.tEnd = 10.0;
    int shown = 0;
    int frames = 0;
    QObject::connect(&window, &MainWindow::trajectoryShown, [&shown] { ++shown; });
    QObject::connect(window.sceneView(), &SceneView::frameRendered, [&frames] { ++frames; });
    window.resize(1280, 800);
    window.show();
    window.setDocument(document);
    window.showPanel(QStringLiteral("system"));
    QWidget* field = window.systemEditor()->field(QStringLiteral("system.potential_energy"));
    if (!field || !waitFor(shown, 1) || !waitFor(frames, 1)) {
        state.SkipWithError("the first trajectory never reached the screen (no display?)");
        return;
    }
    // The last factor of V = m1*g*y1 + m2*g*y2*k goes 1, 2, 1, ...: the backspace before it
    // leaves "…*" (not applied) and is not timed; the digit's keystroke is.
    field->setFocus();
    press(field, Qt::Key_End, {});
    for (const QChar c : QStringLiteral("*1"))
        press(field, Qt::Key_unknown, QString(c));
    if (!waitFor(shown, 2) || !waitFor(frames, 2)) {
        state.SkipWithError("the edited system did not run");
        return;
    }
    int digit = 1;
    for (auto _ : state) {
        state.PauseTiming();
        press(field, Qt::Key_Backspace, {});
        QCoreApplication::processEvents();
        digit = 3 - digit;
        const int shownBefore = shown;
        state.ResumeTiming();
        press(field, Qt::Key_unknown, QString::number(digit));
        if (!waitForDrawing(state, shown, shownBefore, frames))
            return;
    }
    state.counters["samples"] = static_cast<double>(window.trace()->samples.size());
}
BENCHMARK(BM_KeystrokeToNewTrajectoryOnScreen)
    ->Unit(benchmark::kMillisecond)
    ->MinTime(3.0)
    ->UseRealTime();

} // namespace

int main(int argc, char** argv)
{
    return clab::test::runGuiBenchmarks(argc, argv);
}
