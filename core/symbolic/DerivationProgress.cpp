#include "DerivationProgress.h"

#include <algorithm>

namespace clab {

namespace {

thread_local DerivationProgress* current = nullptr;

} // namespace

DerivationProgress::Scope::Scope(DerivationProgress& progress) : previous_(current)
{
    current = &progress;
}

DerivationProgress::Scope::~Scope()
{
    current = previous_;
}

void DerivationProgress::reach(double fraction)
{
    if (!current)
        return;
    if (current->cancelled_.load())
        throw Cancelled();
    // Never backwards: a bar that jumps back reads as a restart.
    current->fraction_.store(std::max(current->fraction_.load(), std::clamp(fraction, 0.0, 1.0)));
}

} // namespace clab
