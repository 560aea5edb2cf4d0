#include "session/SimulationWorker.h"

#include <model/ConstraintLabError.h>
#include <scenes/SceneRegistry.h>
#include <integrate/Simulator.h>

#include <QMetaObject>

#include <chrono>

namespace clab {

SimulationWorker::SimulationWorker(QObject* parent) : QObject(parent), context_(new QObject)
{
    qRegisterMetaType<std::shared_ptr<const clab::Trace>>();
    thread_.setObjectName(QStringLiteral("SimulationWorker"));
    context_->moveToThread(&thread_);
    thread_.start();
}

SimulationWorker::~SimulationWorker()
{
    stopping_ = true;
    ++latest_; // cancels the running job through keepGoing
    thread_.quit();
    thread_.wait();
    delete context_;
}

quint64 SimulationWorker::request(const SceneDocument& document)
{
    const quint64 generation = ++latest_;
    busy_ = true;
    QMetaObject::invokeMethod(
        context_, [this, generation, document] { runInThread(generation, document); },
        Qt::QueuedConnection);
    return generation;
}

void SimulationWorker::cancel()
{
    ++latest_;
    busy_ = false;
}

bool SimulationWorker::isCurrent(quint64 generation) const
{
    return !stopping_ && latest_.load() == generation;
}

Trace SimulationWorker::simulate(const SceneDocument& document,
                                 const std::function<bool(double)>& keepGoing)
{
    const SceneDefinition* definition = document.definition();
    if (!definition)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "unknown scene type \"" + document.scene + "\"");
    const std::unique_ptr<MechanicalSystem> system = definition->create(document.parameters);
    Simulator simulator(*system);
    return simulator.run(document.simulation, {}, RunControl{keepGoing});
}

void SimulationWorker::runInThread(quint64 generation, const SceneDocument& document)
{
    // A newer request arrived while this one waited in the queue.
    if (!isCurrent(generation))
        return;
    QMetaObject::invokeMethod(
        this,
        [this, generation] {
            if (isCurrent(generation))
                emit started(generation);
        },
        Qt::QueuedConnection);

    using Clock = std::chrono::steady_clock;
    const auto begin = Clock::now();
    auto lastProgress = begin;
    const double endTime = document.simulation.tEnd;
    const auto keepGoing = [&](double t) {
        if (!isCurrent(generation))
            return false;
        const auto now = Clock::now();
        if (now - lastProgress > std::chrono::milliseconds(100)) {
            lastProgress = now;
            QMetaObject::invokeMethod(
                this,
                [this, generation, t, endTime] {
                    if (isCurrent(generation))
                        emit progress(generation, t, endTime);
                },
                Qt::QueuedConnection);
        }
        return true;
    };

    try {
        auto trace = std::make_shared<const Trace>(simulate(document, keepGoing));
        const double seconds = std::chrono::duration<double>(Clock::now() - begin).count();
        if (trace->cancelled)
            return;
        QMetaObject::invokeMethod(
            this,
            [this, generation, trace, seconds] {
                if (!isCurrent(generation))
                    return;
                busy_ = false;
                emit finished(generation, trace, seconds);
            },
            Qt::QueuedConnection);
    } catch (const std::exception& error) {
        QString message = QString::fromStdString(error.what());
        // The engine's hint says the likely cause and what to try, as the CLI shows it.
        if (const auto* engine = dynamic_cast<const ConstraintLabError*>(&error);
            engine && !engine->hint().empty())
            message += QStringLiteral(" (%1)").arg(QString::fromStdString(engine->hint()));
        QMetaObject::invokeMethod(
            this,
            [this, generation, message] {
                if (!isCurrent(generation))
                    return;
                busy_ = false;
                emit failed(generation, message);
            },
            Qt::QueuedConnection);
    }
}

} // namespace clab
