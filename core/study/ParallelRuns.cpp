#include "study/ParallelRuns.h"

#include "model/ConstraintLabError.h"

#include <algorithm>
#include <atomic>
#include <new>
#include <system_error>
#include <thread>

namespace clab {

std::vector<std::exception_ptr> ParallelRuns::run(std::size_t count, int threads,
                                                  const std::function<void(std::size_t)>& job,
                                                  bool stopAfterFailure)
{
    std::vector<std::exception_ptr> errors(count);
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> firstFailure{count};
    const auto work = [&]() {
        for (std::size_t i = next++; i < count; i = next++) {
            if (stopAfterFailure && i > firstFailure.load())
                continue; // an earlier job already failed; this result would not be used
            try {
                job(i);
            } catch (...) {
                errors[i] = std::current_exception();
                std::size_t seen = firstFailure.load();
                while (i < seen && !firstFailure.compare_exchange_weak(seen, i)) {
                }
            }
        }
    };

    unsigned workers = threads > 0 ? static_cast<unsigned>(threads)
                                   : std::max(1u, std::thread::hardware_concurrency());
    workers = static_cast<unsigned>(std::min<std::size_t>(workers, count));
    if (workers <= 1) {
        work();
        return errors;
    }
    std::vector<std::jthread> pool;
    pool.reserve(workers - 1);
    try {
        for (unsigned w = 1; w < workers; ++w)
            pool.emplace_back(work);
    } catch (const std::system_error&) {
        // Fewer threads than asked for: the ones running (and this one) do all the work.
    }
    work();
    pool.clear(); // jthreads join here
    return errors;
}

void ParallelRuns::rethrowLabelled(const std::exception_ptr& error, const std::string& label)
{
    try {
        std::rethrow_exception(error);
    } catch (const ConstraintLabError& e) {
        throw ConstraintLabError(e.kind(), label + ": " + e.what(), e.hint());
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {
        throw ConstraintLabError(ConstraintLabError::Kind::IntegrationFailure,
                                 label + ": " + e.what());
    }
}

} // namespace clab
