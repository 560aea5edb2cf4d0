#include "SceneLoader.h"

#include <symbolic/DerivationProgress.h>

#include <QThread>

#include <algorithm>
#include <exception>
#include <optional>

namespace clab {

struct SceneLoader::Job {
    QString path;
    DerivationProgress progress;
    std::optional<SceneDocument> document; ///< set by the worker on success
    QString error;                         ///< set by the worker on failure
};

SceneLoader::SceneLoader(LoadFunction load, QObject* parent)
    : QObject(parent), load_(std::move(load))
{
    poll_.setInterval(100);
    connect(&poll_, &QTimer::timeout, this, [this] {
        if (job_)
            emit progressed(job_->progress.fraction());
    });
}

SceneLoader::~SceneLoader()
{
    if (job_)
        job_->progress.cancel();
    for (QThread* thread : threads_) {
        thread->wait();
        delete thread;
    }
}

QString SceneLoader::path() const
{
    return job_ ? job_->path : QString();
}

void SceneLoader::start(const QString& path)
{
    if (job_) {
        job_->progress.cancel(); // superseded, silently: the new load is what the user sees
        job_.reset();
    }
    auto job = std::make_shared<Job>();
    job->path = path;
    job_ = job;
    QThread* thread = QThread::create([job, load = load_] {
        const DerivationProgress::Scope scope(job->progress);
        try {
            job->document = load(job->path);
        } catch (const DerivationProgress::Cancelled&) {
        } catch (const std::exception& error) {
            job->error = QString::fromUtf8(error.what());
        } catch (...) {
            job->error = QStringLiteral("the file could not be loaded (an unknown error)");
        }
    });
    thread->setObjectName(QStringLiteral("SceneLoader"));
    threads_.push_back(thread);
    // Runs on this (the GUI) thread once the worker has returned.
    connect(thread, &QThread::finished, this, [this, thread, job] {
        threads_.erase(std::remove(threads_.begin(), threads_.end(), thread), threads_.end());
        thread->deleteLater();
        finish(job);
    });
    thread->start();
    poll_.start();
    emit progressed(0.0);
}

void SceneLoader::cancel()
{
    if (!job_)
        return;
    const std::shared_ptr<Job> job = std::move(job_);
    job_.reset();
    poll_.stop();
    job->progress.cancel();
    emit cancelled(job->path);
}

void SceneLoader::finish(const std::shared_ptr<Job>& job)
{
    if (job != job_)
        return; // superseded or cancelled: already reported
    job_.reset();
    poll_.stop();
    if (job->document) {
        emit progressed(1.0);
        emit loaded(*job->document, job->path);
    } else if (!job->error.isEmpty()) {
        emit failed(job->path, job->error);
    } else {
        emit cancelled(job->path);
    }
}

} // namespace clab
