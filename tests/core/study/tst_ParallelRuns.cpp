#include "model/ConstraintLabError.h"
#include "study/ParallelRuns.h"

#include <QtTest>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace clab;

class tst_ParallelRuns : public QObject {
    Q_OBJECT

private slots:
    void everyJobRunsOnce()
    {
        for (int threads : {0, 1, 2, 4}) {
            std::vector<std::atomic<int>> calls(50);
            const auto errors =
                ParallelRuns::run(calls.size(), threads, [&](std::size_t i) { ++calls[i]; });
            QCOMPARE(errors.size(), calls.size());
            for (std::size_t i = 0; i < calls.size(); ++i) {
                QCOMPARE(calls[i].load(), 1);
                QVERIFY(!errors[i]);
            }
        }
    }

    void jobsRunOnSeveralThreads()
    {
        std::atomic<int> running{0}, most{0};
        ParallelRuns::run(8, 2, [&](std::size_t) {
            const int now = ++running;
            int seen = most.load();
            while (now > seen && !most.compare_exchange_weak(seen, now)) {
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            --running;
        });
        QCOMPARE(most.load(), 2);
    }

    // The failing job's exception is kept for its index; jobs after it in order do not start
    // once it has failed (one thread: strictly in order).
    void aFailureIsKeptAndStopsLaterJobs()
    {
        std::vector<int> ran;
        const auto errors = ParallelRuns::run(6, 1, [&](std::size_t i) {
            ran.push_back(static_cast<int>(i));
            if (i == 2)
                throw std::runtime_error("job 2 failed");
        });
        QCOMPARE(ran, (std::vector<int>{0, 1, 2}));
        QVERIFY(errors[2]);
        QVERIFY(!errors[0] && !errors[3]);
        try {
            std::rethrow_exception(errors[2]);
        } catch (const std::runtime_error& e) {
            QCOMPARE(std::string(e.what()), std::string("job 2 failed"));
        }
    }

    // Asked to, every job runs whatever fails before it.
    void everyJobRunsWhenAFailureDoesNotStopThem()
    {
        std::vector<int> ran;
        const auto errors = ParallelRuns::run(
            4, 1,
            [&](std::size_t i) {
                ran.push_back(static_cast<int>(i));
                if (i == 1)
                    throw std::runtime_error("job 1 failed");
            },
            false);
        QCOMPARE(ran, (std::vector<int>{0, 1, 2, 3}));
        QVERIFY(errors[1] && !errors[2] && !errors[3]);
    }

    // A run's error names the run: the engine's kind is kept, anything else from the
    // integrator is an integration failure.
    void rethrownErrorsCarryTheRunsLabel()
    {
        const auto caught = [](std::exception_ptr error) {
            try {
                ParallelRuns::rethrowLabelled(error, "mu=0.3");
            } catch (const ConstraintLabError& e) {
                return e;
            }
            return ConstraintLabError(ConstraintLabError::Kind::NonFinite, "not rethrown");
        };
        const ConstraintLabError kept = caught(std::make_exception_ptr(ConstraintLabError(
            ConstraintLabError::Kind::InvalidInitialState, "off the wire", "move it")));
        QCOMPARE(kept.kind(), ConstraintLabError::Kind::InvalidInitialState);
        QCOMPARE(std::string(kept.what()), std::string("mu=0.3: off the wire"));
        QCOMPARE(kept.hint(), std::string("move it"));
        const ConstraintLabError odeint =
            caught(std::make_exception_ptr(std::runtime_error("step size underflow")));
        QCOMPARE(odeint.kind(), ConstraintLabError::Kind::IntegrationFailure);
        QCOMPARE(std::string(odeint.what()), std::string("mu=0.3: step size underflow"));
    }
};

QTEST_APPLESS_MAIN(tst_ParallelRuns)
#include "tst_ParallelRuns.moc"
