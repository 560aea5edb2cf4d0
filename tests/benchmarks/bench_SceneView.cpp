// Frame time of the 3D view: all three force arrows, a 10 000-point trail, 1280×720.
// Needs a display: xvfb-run -a -s "-screen 0 1920x1080x24" ./bench_SceneView
// Target: 16 ms per frame (60 frames per second during playback). BM_WidgetBridgeFrame draws the
// same content through the QOpenGLWidget bridge, the baseline BM_ViewFrame is compared with.
#include <render/VtkOpenGLWindow.h>
#include <view3d/SceneView.h>
#include <view3d/SceneViewContent.h>
#include <widgets/VtkOpenGLWidget.h>

#include <integrate/Simulator.h>
#include <scenes/BeadOnWire.h>
#include <scenes/Chain.h>
#include <scenes/SceneRegistry.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>

#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkRenderer.h>

#include <benchmark/benchmark.h>

#include "../support/GuiBenchmarkMain.h"

#include <cstdio>
#include <map>
#include <memory>
#include <string>

using namespace clab;

namespace {

constexpr int kTrailPoints = 10000;
const QSize kFrameSize(1280, 720);

/// A run of `scene` with its default parameters, sampled at kTrailPoints points.
const Trace& sceneTrace(const std::string& scene, double duration)
{
    static std::map<std::string, Trace> traces;
    auto it = traces.find(scene);
    if (it == traces.end()) {
        const SceneDefinition* definition = SceneRegistry::find(scene);
        std::unique_ptr<MechanicalSystem> system = definition->create(definition->defaults());
        Simulator simulator(*system);
        SimulationOptions options;
        options.tEnd = system->initialTime() + duration;
        options.dt = duration / (kTrailPoints - 1);
        it = traces.emplace(scene, simulator.run(options)).first;
    }
    return it->second;
}

/// The bead slides down its wire for the whole run, so gravity, normal force and friction are
/// all non-zero and all three arrows are drawn in every frame.
const std::string& beadScene()
{
    static const std::string name = BeadOnWire::definition().name;
    return name;
}

const Trace& beadTrace()
{
    return sceneTrace(beadScene(), 2.0);
}

std::unique_ptr<SceneView> makeView(const std::string& scene, const ParameterValues& values,
                                    const Trace& trace)
{
    auto view = std::make_unique<SceneView>();
    view->setScene(scene, values);
    view->setTrace(trace);
    return view;
}

/// The time of frame `frame`: steps through the last hundredth of the run, so that every frame
/// draws a trail of 9 900 to 10 000 points while the body and its arrows move.
double shownTime(double t0, double t1, std::size_t frame)
{
    return t1 - (t1 - t0) * static_cast<double>(frame % 100) / (100.0 * 100.0);
}

/// Processes events until the view has rendered `count` frames in total (or 10 s passed).
bool waitForFrames(const int& rendered, int count)
{
    QElapsedTimer timer;
    timer.start();
    while (rendered < count && timer.elapsed() < 10000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return rendered >= count;
}

/// Frames on screen, as during playback: each iteration moves to the next time (the bead and
/// its arrows move), lets the event loop draw the frame and waits until OpenGL has
/// finished it (a swapped frame may still be rasterizing under llvmpipe).
template <class SetTime, class Finish>
void measureFrames(benchmark::State& state, const Trace& trace, const int& rendered,
                   SetTime setTime, Finish finish)
{
    if (!waitForFrames(rendered, 1)) {
        state.SkipWithError("the view never rendered a frame (no display?)");
        return;
    }
    const double t0 = trace.samples.front().t;
    const double t1 = trace.samples.back().t;
    std::size_t frame = 0;
    for (auto _ : state) {
        const double t = shownTime(t0, t1, frame);
        ++frame;
        const int before = rendered;
        setTime(t);
        if (!waitForFrames(rendered, before + 1)) {
            state.SkipWithError("a frame was not rendered within 10 s");
            return;
        }
        finish();
    }
    state.counters["trail_points"] = static_cast<double>(trace.samples.size());
}

/// measureFrames on a shown SceneView of `scene` with `values` playing `trace` (with the field
/// of small arrows when `arrowField`).
void measureSceneFrames(benchmark::State& state, const std::string& scene,
                        const ParameterValues& values, const Trace& trace, bool arrowField = false)
{
    auto view = makeView(scene, values, trace);
    view->setArrowFieldVisible(arrowField);
    int rendered = 0;
    QObject::connect(view.get(), &SceneView::frameRendered, [&rendered] { ++rendered; });
    view->setFixedSize(kFrameSize);
    view->show();
    VtkOpenGLWindow* window = view->openGLWindow();
    measureFrames(
        state, trace, rendered, [&view](double t) { view->setTime(t); },
        [window] { window->finishFrames(); });
    state.counters["width"] = window->width() * window->devicePixelRatio();
    state.counters["height"] = window->height() * window->devicePixelRatio();
}

/// The 3D view as the application shows it: VtkOpenGLWindow, which swaps its frames itself.
void BM_ViewFrame(benchmark::State& state)
{
    measureSceneFrames(state, beadScene(), BeadOnWire::definition().defaults(), beadTrace());
}
BENCHMARK(BM_ViewFrame)->Unit(benchmark::kMillisecond)->MinTime(3.0)->UseRealTime();

/// Every built-in scene, 5 s runs at 10 000 points each. See-through parts (the nonholonomic
/// particle's constraint patches, the rigid body's box) make VTK run its translucency pass.
void BM_SceneFrame(benchmark::State& state)
{
    const SceneDefinition& definition =
        SceneRegistry::builtIn().at(static_cast<std::size_t>(state.range(0)));
    state.SetLabel(definition.name);
    const Trace& trace = sceneTrace(definition.name, 5.0);
    measureSceneFrames(state, definition.name, definition.defaults(), trace);
}
BENCHMARK(BM_SceneFrame)
    ->DenseRange(0, static_cast<int>(SceneRegistry::builtIn().size()) - 1)
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0)
    ->UseRealTime();

/// A chain of state.range(0) links (bobs as points of one actor, shaded as spheres), 1 s from
/// horizontal in 1000 samples: a trace of N = 1000 holds 2000 coordinates a sample, so it is kept
/// short. With state.range(1) = 1 also the field of small arrows (48 of each kind, one glyph mapper
/// each), whose 96 arrows move every frame.
void BM_ChainFrame(benchmark::State& state)
{
    const int links = static_cast<int>(state.range(0));
    const SceneDefinition definition = Chain::definition();
    ParameterValues values = definition.defaults();
    values["links"] = {static_cast<double>(links)};
    const std::unique_ptr<MechanicalSystem> system = definition.create(values);
    Simulator simulator(*system);
    SimulationOptions options;
    options.tEnd = 1.0;
    options.dt = 0.001;
    options.rtol = 1e-6;
    options.atol = 1e-9;
    const Trace trace = simulator.run(options);
    const bool field = state.range(1) != 0;
    measureSceneFrames(state, definition.name, values, trace, field);
    state.counters["links"] = links;
    state.counters["arrow_field"] = field ? 1 : 0;
}
BENCHMARK(BM_ChainFrame)
    ->Args({1000, 0})
    ->Args({1000, 1})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(3.0)
    ->UseRealTime();

/// Baseline: the same content through the QOpenGLWidget bridge (VtkOpenGLWidget), whose frame Qt
/// composes into the window.
void BM_WidgetBridgeFrame(benchmark::State& state)
{
    const Trace& trace = beadTrace();
    const SceneDefinition definition = BeadOnWire::definition();
    VtkOpenGLWidget widget;
    SceneViewContent content;
    content.attachTo(widget.renderWindow());
    content.setScene(definition.name, definition.complete(definition.defaults()));
    content.setTrace(std::make_shared<const Trace>(trace));
    int rendered = 0;
    QObject::connect(&widget, &VtkOpenGLWidget::frameRendered, [&rendered] { ++rendered; });
    QObject::connect(&widget, &QOpenGLWidget::resized, [&content] { content.frameCamera(); });
    widget.setFixedSize(kFrameSize);
    widget.show();
    measureFrames(
        state, trace, rendered,
        [&content, &widget](double t) {
            content.setTime(t);
            widget.update();
        },
        [&widget] {
            widget.makeCurrent();
            widget.context()->functions()->glFinish();
            widget.doneCurrent();
        });
}
BENCHMARK(BM_WidgetBridgeFrame)->Unit(benchmark::kMillisecond)->MinTime(3.0)->UseRealTime();

/// One frame off screen, read back into a QImage (screenshots, export).
void BM_RenderImage(benchmark::State& state)
{
    const Trace& trace = beadTrace();
    auto view = makeView(beadScene(), BeadOnWire::definition().defaults(), trace);
    const double t0 = trace.samples.front().t;
    const double t1 = trace.samples.back().t;
    std::size_t frame = 0;
    for (auto _ : state) {
        const double t = shownTime(t0, t1, frame);
        ++frame;
        view->setTime(t);
        const QImage image = view->renderImage(kFrameSize);
        if (image.size() != kFrameSize) {
            state.SkipWithError("renderImage did not return a 1280x720 image");
            return;
        }
        benchmark::DoNotOptimize(image.constBits());
    }
    state.counters["trail_points"] = static_cast<double>(trace.samples.size());
}
BENCHMARK(BM_RenderImage)->Unit(benchmark::kMillisecond)->MinTime(3.0)->UseRealTime();

} // namespace

int main(int argc, char** argv)
{
    return clab::test::runGuiBenchmarks(argc, argv);
}
