// Soak test of the desktop application's open/edit/undo path (not part of ctest;
// docs/HARDENING.md): COUNT random steps in one main window — open a built-in scene or a shipped
// system, change a parameter within ±50 %, undo, redo — each waited for until its run is shown
// or refused. Resident memory is sampled every 50 steps; it must stay flat after the first
// fifth of the run (growth under 10 % + 20 MB), and with the asan preset LeakSanitizer reports
// any leak at exit.
//   xvfb-run -a soak_MainWindow [COUNT=1000] [SEED=1]
#include "SoakVariation.h"

#include <GuiSceneStore.h>
#include <MainWindow.h>
#include <render/VtkSurfaceFormat.h>
#include <scenes/SceneRegistry.h>
#include <session/SceneSession.h>

#include <QApplication>
#include <QFile>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <cstdio>

using namespace clab;

namespace {

/// Resident memory of this process in MB (VmRSS), 0 when unknown.
double residentMegabytes()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0.0;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').front().toDouble() / 1024.0;
    return 0.0;
}

} // namespace

int main(int argc, char* argv[])
{
    VtkSurfaceFormat::makeDefault();
    QApplication application(argc, argv);
    const QStringList args = QApplication::arguments();
    const int count = args.size() > 1 ? args[1].toInt() : 1000;
    std::mt19937_64 random(args.size() > 2 ? args[2].toULongLong() : 1);

    const auto store = std::make_shared<GuiSceneStore>();
    MainWindow window(store);
    window.setUnsavedChangesPrompt(
        [](const QString&) { return MainWindow::UnsavedChoice::Discard; });
    window.setAutoPlay(false);
    window.resize(1280, 800);
    window.show();

    std::vector<std::string> builtIns;
    for (const SceneDefinition& definition : SceneRegistry::builtIn())
        builtIns.push_back(definition.name);
    const std::vector<SceneStore::SystemEntry> systems = store->builtInSystems();

    bool failed = false;
    QObject::connect(&window, &MainWindow::simulationFailed, [&failed] { failed = true; });
    const auto settled = [&] {
        return QTest::qWaitFor(
            [&] {
                return failed ||
                       (window.trace() && window.shownDocument() == window.session()->document());
            },
            120000);
    };

    std::vector<double> memory;
    int stuck = 0;
    for (int step = 0; step < count; ++step) {
        failed = false;
        SceneSession& session = *window.session();
        const SceneDocument before = session.document();
        const int action = static_cast<int>(random() % 20);
        if (step % 25 == 0) {
            const std::size_t pick = random() % (builtIns.size() + systems.size());
            if (pick < builtIns.size())
                window.newFromBuiltIn(builtIns[pick]);
            else
                window.newFromSystem(systems[pick - builtIns.size()].path);
        } else if (action < 12) {
            const auto& specs = session.document().definition()->parameters;
            const ParameterSpec& spec = specs[random() % specs.size()];
            const QString key = QString::fromStdString(spec.name);
            session.edit(key, soak::varied(spec, session.value(key), random));
        } else if (action < 17) {
            session.undoStack()->undo();
        } else {
            session.undoStack()->redo();
        }
        // An undo or redo with nothing to do leaves the document: there is no run to wait for.
        if (!(session.document() == before) && !settled())
            ++stuck;
        if (step % 50 == 0) {
            memory.push_back(residentMegabytes());
            std::printf("step %d: %.1f MB resident\n", step, memory.back());
            std::fflush(stdout);
        }
    }
    // Flat: the largest sample after the first fifth against the sample at the first fifth.
    const std::size_t from = memory.size() / 5;
    const double base = memory[from];
    const double peak = *std::max_element(memory.begin() + static_cast<long>(from), memory.end());
    const bool flat = peak <= base * 1.1 + 20.0;
    std::printf("memory from step %zu: %.1f MB, peak after it %.1f MB (%s)\n", from * 50, base,
                peak, flat ? "flat" : "GROWING");
    std::printf("%d steps, %d did not settle within 120 s\n", count, stuck);
    std::printf("%d passed, %d failed\n", count - stuck, stuck + (flat ? 0 : 1));
    // LeakSanitizer's report at exit ends the process without flushing stdio: the verdict first.
    std::fflush(stdout);
    return flat && stuck == 0 ? 0 : 1;
}
