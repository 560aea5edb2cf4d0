#pragma once

#include <scenes/SceneDocument.h>
#include <trace/Trace.h>

#include <QObject>
#include <QString>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>

namespace clab {

/// \brief Computes whole trajectories on a worker thread so that the GUI never blocks.
///
/// Each request gets a generation number. A newer request supersedes all older ones: a running
/// older run is cancelled through SimulationOptions::keepGoing, queued older ones are skipped,
/// and results or errors of superseded runs are dropped, so only the newest is ever reported.
class SimulationWorker : public QObject {
    Q_OBJECT
public:
    explicit SimulationWorker(QObject* parent = nullptr);
    ~SimulationWorker() override;

    /// Starts computing the trajectory of `document` in the background; returns its generation.
    quint64 request(const SceneDocument& document);
    /// Supersedes every pending request without starting a new one.
    void cancel();

    /// Generation of the newest request (0 before the first).
    quint64 latestGeneration() const { return latest_.load(); }
    /// True from a request until its result, error or cancellation is reported.
    bool isBusy() const { return busy_; }

    /// Computes the trajectory of `document` in the calling thread. Throws ConstraintLabError
    /// (unknown scene, invalid parameters or options, numerical failure).
    static Trace simulate(const SceneDocument& document,
                          const std::function<bool(double)>& keepGoing = {});

signals:
    /// The newest request started running.
    void started(quint64 generation);
    /// Simulated time reached so far by the newest run (throttled to a few per second).
    void progress(quint64 generation, double time, double endTime);
    /// The newest run finished; `seconds` is the wall-clock time it took.
    void finished(quint64 generation, std::shared_ptr<const clab::Trace> trace, double seconds);
    /// The newest run failed; the message says what and why.
    void failed(quint64 generation, const QString& message);

private:
    void runInThread(quint64 generation, const SceneDocument& document);
    bool isCurrent(quint64 generation) const;

    QThread thread_;
    QObject* context_; // lives in thread_; queued jobs run in its event loop
    std::atomic<quint64> latest_{0};
    std::atomic<bool> stopping_{false};
    bool busy_ = false;
};

} // namespace clab

Q_DECLARE_METATYPE(std::shared_ptr<const clab::Trace>)
