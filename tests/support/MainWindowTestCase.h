#pragma once
// What the main window's topic tests (tests/ui/tst_MainWindow*.cpp) share: a fresh window on a
// short bead, its unsaved-changes prompt counted, and the waits for its trajectories.

#include "MainWindowFixture.h"

#include <MainWindow.h>
#include <scenes/SceneDocument.h>
#include <scenes/SceneRegistry.h>
#include <session/SimulationWorker.h>
#include <widgets/MessageBanner.h>

#include <QTest>

#include <memory>

namespace clab::testing {

/// The base of a main-window test class, which is a QObject too (for its slots): its
/// initTestCase starts settings_, its cleanup calls closeWindow().
class MainWindowTestCase {
protected:
    static constexpr int timeout = 60000;

    // The default bead on a short span, so each run takes milliseconds.
    static SceneDocument shortBead()
    {
        SceneDocument document =
            SceneDocument::fromDefinition(*SceneRegistry::find("bead-on-wire"));
        document.simulation.tEnd = 2.0;
        document.simulation.dt = 0.01;
        return document;
    }

    static double param(const SceneDocument& document, const char* name)
    {
        return document.parameters.at(name).at(0);
    }

    IsolatedSettings settings_;
    std::unique_ptr<MainWindow> window_;
    int prompts_ = 0;

    MainWindow& freshWindow(const SceneDocument& document = shortBead())
    {
        MainWindow& window = newWindow(window_);
        prompts_ = 0;
        window.setUnsavedChangesPrompt([this](const QString&) {
            ++prompts_;
            return MainWindow::UnsavedChoice::Cancel;
        });
        return showDocument(window, document);
    }

    // Waits for the trajectory computed with this μ; gives up early when a simulation fails.
    bool waitForMu(MainWindow& window, double mu)
    {
        const auto done = [&] {
            return window.trace() && param(window.shownDocument(), "mu") == mu &&
                   !window.worker()->isBusy();
        };
        const auto failed = [&] {
            return !window.worker()->isBusy() && window.banner()->isVisibleTo(&window) &&
                   window.banner()->kind() == MessageBanner::Kind::Error;
        };
        const bool finished = QTest::qWaitFor([&] { return done() || failed(); }, timeout);
        if (!finished || !done())
            qWarning("no trajectory for mu = %g: %s", mu, qPrintable(window.banner()->text()));
        return done();
    }

    // Waits for the trajectory of a chain of `links` links.
    bool waitForLinks(MainWindow& window, int links)
    {
        return QTest::qWaitFor(
            [&] {
                return window.trace() && param(window.shownDocument(), "links") == links &&
                       !window.worker()->isBusy();
            },
            timeout);
    }

    void closeWindow()
    {
        if (window_)
            window_->setUnsavedChangesPrompt(
                [](const QString&) { return MainWindow::UnsavedChoice::Discard; });
        window_.reset();
    }
};

} // namespace clab::testing
