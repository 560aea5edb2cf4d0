#pragma once

#include <scenes/SceneDocument.h>

#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <vector>

class QThread;

namespace clab {

/// \brief Reads and derives a scene file on a worker thread, so that the window stays live
/// while a large format-2 system loads (issue 34): progress while it runs, Cancel at any time.
///
/// A new start() supersedes the load in progress (it is cancelled, its result dropped and
/// nothing reported for it), so only the newest load is ever reported. cancel() reports at once;
/// the worker stops at the derivation's next stage (DerivationProgress) and its result, if any, is
/// dropped.
class SceneLoader : public QObject {
    Q_OBJECT

public:
    /// Reads and validates the file at a path (SceneStore::load); runs on the worker thread.
    using LoadFunction = std::function<SceneDocument(const QString& path)>;

    explicit SceneLoader(LoadFunction load, QObject* parent = nullptr);
    /// Cancels what is loading and waits for its thread to end.
    ~SceneLoader() override;

    void start(const QString& path);
    void cancel();
    bool isLoading() const { return job_ != nullptr; }
    /// The file being loaded (empty when none).
    QString path() const;

signals:
    /// The fraction of the derivation done, 0 to 1, a few times per second while loading.
    void progressed(double fraction);
    void loaded(const clab::SceneDocument& document, const QString& path);
    /// The file could not be read or derived; `message` says what, where and why.
    void failed(const QString& path, const QString& message);
    void cancelled(const QString& path);

private:
    struct Job;
    void finish(const std::shared_ptr<Job>& job);

    LoadFunction load_;
    std::shared_ptr<Job> job_;      ///< the newest load, until it is reported
    std::vector<QThread*> threads_; ///< still running, the superseded ones included
    QTimer poll_;
};

} // namespace clab
