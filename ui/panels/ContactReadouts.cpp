#include "panels/ContactReadouts.h"

#include <trace/Trace.h>

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace clab {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ContactReadouts", text);
}

// An event at the shown sample's time counts as before it (located times and output times of
// the same instant differ by rounding).
bool atOrBefore(double eventTime, double t)
{
    return eventTime <= t + 1e-12 * (1.0 + std::abs(t));
}

bool isContact(const ContactEvent& e, int k)
{
    return ContactEvent::oneSided(e.kind) && e.contact == k;
}

double forceAt(const Trace& trace, int k, const TraceSample& sample, QString& unit)
{
    const std::string name = "N_" + trace.unilateralNames()[static_cast<std::size_t>(k)];
    const auto& extras = trace.extraNames();
    const auto it = std::find(extras.begin(), extras.end(), name);
    if (it == extras.end())
        return std::nan("");
    const auto i = it - extras.begin();
    if (static_cast<std::size_t>(i) < trace.extraUnits().size())
        unit = QString::fromStdString(trace.extraUnits()[static_cast<std::size_t>(i)]);
    return i < sample.extra.size() ? sample.extra[i] : std::nan("");
}

} // namespace

ContactReadouts::State ContactReadouts::state(const Trace& trace, int k, double t)
{
    const ContactEvent* last = nullptr;
    const ContactEvent* next = nullptr;
    for (const ContactEvent& e : trace.events) {
        if (!isContact(e, k))
            continue;
        if (atOrBefore(e.t, t)) {
            last = &e;
        } else {
            next = &e;
            break;
        }
    }
    if (last)
        return last->kind == ContactEvent::Kind::Touch ? State::Closed : State::Open;
    if (next)
        return next->kind == ContactEvent::Kind::Leave ? State::Closed : State::Open;
    if (trace.samples.empty())
        return State::Open;
    QString unit;
    const double N = forceAt(trace, k, trace.samples[trace.sampleIndexAt(t)], unit);
    return std::isfinite(N) && N != 0.0 ? State::Closed : State::Open;
}

double ContactReadouts::impactSpan(const Trace& trace)
{
    if (trace.samples.size() < 2)
        return 0.0;
    const double span = trace.samples.back().t - trace.samples.front().t;
    const double interval = span / static_cast<double>(trace.samples.size() - 1);
    return std::max(3.0 * interval, 0.02 * span);
}

bool ContactReadouts::recentImpact(const Trace& trace, int k, double t)
{
    const double span = impactSpan(trace);
    return std::any_of(trace.events.begin(), trace.events.end(), [&](const ContactEvent& e) {
        return isContact(e, k) && e.kind == ContactEvent::Kind::Impact && atOrBefore(e.t, t) &&
               e.t > t - span;
    });
}

QStringList ContactReadouts::lines(const Trace& trace, double t)
{
    QStringList out;
    if (trace.samples.empty())
        return out;
    const TraceSample& sample = trace.samples[trace.sampleIndexAt(t)];
    const auto& names = trace.unilateralNames();
    for (int k = 0; k < static_cast<int>(names.size()); ++k) {
        const QString name = QString::fromStdString(names[static_cast<std::size_t>(k)]);
        QString text;
        if (state(trace, k, sample.t) == State::Closed) {
            QString unit;
            const double N = forceAt(trace, k, sample, unit);
            text = tr("closed, N_%1 = %2").arg(name).arg(N, 0, 'f', 3);
            if (!unit.isEmpty())
                text += QLatin1Char(' ') + unit;
        } else {
            text = tr("open (lifted off)");
        }
        if (recentImpact(trace, k, sample.t))
            text = tr("impact, then %1").arg(text);
        out << tr("Contact %1: %2").arg(name, text);
    }
    return out;
}

} // namespace clab
