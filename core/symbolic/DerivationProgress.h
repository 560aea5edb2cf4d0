#pragma once

#include <atomic>
#include <exception>

namespace clab {

/// \brief How far the derivation of a format-2 system on this thread has come, and a way to
/// stop it: what a loader on a worker thread shows in a progress bar and cancels.
///
/// The loader installs one for the thread that loads (Scope); SymbolicModel reports each stage
/// through reach(), which throws Cancelled once cancel() was called from any thread. The file
/// formats in between need not know: a load without a Scope runs as before.
class DerivationProgress {
public:
    /// Thrown on the loading thread by reach() after cancel(); not an error of the file.
    class Cancelled : public std::exception {
    public:
        const char* what() const noexcept override { return "the derivation was cancelled"; }
    };

    /// Makes `progress` the current thread's for its lifetime.
    class Scope {
    public:
        explicit Scope(DerivationProgress& progress);
        ~Scope();
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        DerivationProgress* previous_;
    };

    /// The fraction done, 0 to 1 (any thread).
    double fraction() const { return fraction_.load(); }
    /// Asks the derivation to stop at its next stage (any thread).
    void cancel() { cancelled_.store(true); }
    bool isCancelled() const { return cancelled_.load(); }

    /// On the loading thread: `fraction` of the derivation is done. Throws Cancelled after
    /// cancel(); does nothing on a thread without a Scope.
    static void reach(double fraction);

private:
    std::atomic<double> fraction_{0.0};
    std::atomic<bool> cancelled_{false};
};

} // namespace clab
