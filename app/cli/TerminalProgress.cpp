#include "cli/TerminalProgress.h"

#include "cli/CliText.h"

#include <QTextStream>

#include <unistd.h>

namespace clab::cli {

TerminalProgress::TerminalProgress(QTextStream& err, double t0, double tEnd)
    : err_(err), t0_(t0), tEnd_(tEnd), active_(isatty(STDERR_FILENO) == 1)
{
    clock_.start();
}

void TerminalProgress::update(double t)
{
    if (!active_ || clock_.elapsed() < nextMs_)
        return;
    nextMs_ = clock_.elapsed() + 250;
    const double percent = 100.0 * (t - t0_) / (tEnd_ - t0_);
    err_ << "\r" << prefix << "t = " << number(t) << " s of " << number(tEnd_) << " s ("
         << QString::number(percent, 'f', 0) << " %)   ";
    err_.flush();
    shown_ = true;
}

void TerminalProgress::clear()
{
    if (shown_)
        err_ << "\r\033[K";
    err_.flush();
    shown_ = false;
}

} // namespace clab::cli
