#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <future>

namespace clab::python {

/// Runs `work(cancel)` on a thread of its own while the calling Python thread, the GIL
/// released, looks for a signal every 50 ms (Ctrl+C in a terminal or a notebook): on one it
/// sets `cancel`, waits for the work to notice and raises the signal's exception
/// (KeyboardInterrupt). The work must poll `cancel` (a RunControl's keepGoing does).
template <typename Work> auto interruptible(Work work)
{
    std::atomic<bool> cancel{false};
    auto result = std::async(std::launch::async, [&] { return work(cancel); });
    {
        pybind11::gil_scoped_release release;
        while (result.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
            pybind11::gil_scoped_acquire acquire;
            if (PyErr_CheckSignals() != 0) {
                cancel = true;
                break;
            }
        }
    }
    if (cancel) {
        {
            pybind11::gil_scoped_release release;
            result.wait();
        }
        throw pybind11::error_already_set();
    }
    return result.get();
}

} // namespace clab::python
