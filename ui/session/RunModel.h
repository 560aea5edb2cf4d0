#pragma once

#include <scenes/SceneDocument.h>
#include <trace/LabelledTrace.h>
#include <trace/Trace.h>

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <utility>
#include <vector>

namespace clab {

/// \brief The runs on screen: the newest request, the trajectory shown with the document it
/// was computed from, and in compare mode the earlier runs (ghosts), each labelled by what sets
/// it apart ("mu = 0.1").
///
/// Named after what it models, the set of runs the window shows (runs()), not one run. A newer
/// request supersedes an older one: a result is always the newest request's. A ghost is kept
/// when a distinct edit replaces the run on screen; ghosts with the same values as another run
/// are dropped, so each set of values shows once.
class RunModel : public QObject {
    Q_OBJECT
public:
    /// An earlier run in compare mode.
    struct Ghost {
        QString label;
        std::shared_ptr<const Trace> trace;
        SceneDocument document;
    };

    explicit RunModel(QObject* parent = nullptr);

    /// The newest request: `document` at the session's edit serial `serial`.
    void request(const SceneDocument& document, quint64 serial);
    const SceneDocument& pendingDocument() const { return pendingDocument_; }
    quint64 pendingSerial() const { return pendingSerial_; }

    /// The newest request's result goes on screen. With `compare`, the run it replaces becomes
    /// a ghost when it came from another edit of the same scene. Emits shownRunChanged, then
    /// runsChanged.
    void show(std::shared_ptr<const Trace> trace, bool compare);
    /// Adds an earlier run of `document` to compare with (a lesson step's ghosts), labelled by
    /// what sets it apart; emits runsChanged.
    void addGhost(const SceneDocument& document, std::shared_ptr<const Trace> trace);
    /// Removes the compare-mode runs; emits ghostsCleared and runsChanged when there were any.
    /// Returns true when there were.
    bool clearGhosts();
    /// Forgets the run on screen and the ghosts (another document); emits runsChanged when
    /// there was a run.
    void reset();

    /// The trajectory on screen (null before the first result).
    const std::shared_ptr<const Trace>& trace() const { return trace_; }
    /// The document the trajectory on screen was computed from.
    const SceneDocument& shownDocument() const { return shownDocument_; }
    quint64 shownSerial() const { return shownSerial_; }
    const std::vector<Ghost>& ghosts() const { return ghosts_; }
    /// The ghosts as the 3D view draws them: trace and label, oldest first.
    std::vector<std::pair<std::shared_ptr<const Trace>, QString>> ghostTrails() const;
    /// The ghosts, then the current run (the last entry); a lone run is labelled by the
    /// scene's name. Empty before the first result.
    std::vector<LabelledTrace> runs() const;

    /// Same motion: same scene, parameters and simulation settings (title and notes aside).
    static bool sameRun(const SceneDocument& a, const SceneDocument& b);
    /// "symbol = value" of `before` for each setting that differs in `after` ("μ = 0.3": the
    /// parameter's symbol, see symbolOf in RunModel.cpp).
    static QStringList changedValues(const SceneDocument& before, const SceneDocument& after);

signals:
    /// A new trajectory is on screen. `sameParameters`: the run before it had the same scene
    /// and parameters (only settings differ, so the geometry stays). `ghostsChanged`: the
    /// compare runs were relabelled or dropped with it.
    void shownRunChanged(bool sameParameters, bool ghostsChanged);
    /// The compare runs were removed (clearGhosts).
    void ghostsCleared();
    /// runs() changed: after shownRunChanged, ghostsCleared or a reset.
    void runsChanged();

private:
    QString currentRunLabel() const;
    /// The values that set `run` apart from the other runs on screen; empty when none do.
    QString runLabel(const SceneDocument& run) const;
    /// Drops ghosts whose values repeat, relabels the rest.
    void updateGhosts();

    // The newest request; results of older requests never show.
    SceneDocument pendingDocument_;
    quint64 pendingSerial_ = 0;
    std::shared_ptr<const Trace> trace_;
    SceneDocument shownDocument_;
    quint64 shownSerial_ = 0;
    std::vector<Ghost> ghosts_;
};

} // namespace clab
