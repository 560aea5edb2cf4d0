#pragma once

#include <QElapsedTimer>

class QTextStream;

namespace clab::cli {

/// "t = 12.3 s of 100 s (12 %)" on the terminal's last line while a run takes more than a
/// second; nothing when standard error is not a terminal (a log or a pipe stays clean).
class TerminalProgress {
public:
    TerminalProgress(QTextStream& err, double t0, double tEnd);
    ~TerminalProgress() { clear(); }
    TerminalProgress(const TerminalProgress&) = delete;
    TerminalProgress& operator=(const TerminalProgress&) = delete;

    void update(double t);
    void clear();

private:
    QTextStream& err_;
    double t0_, tEnd_;
    bool active_;
    bool shown_ = false;
    qint64 nextMs_ = 1000;
    QElapsedTimer clock_;
};

} // namespace clab::cli
