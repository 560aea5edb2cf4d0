#pragma once

#include <QColor>
#include <QString>

namespace clab {

/// \brief The three forces of the fundamental equation, drawn everywhere in the same colours.
enum class ForceKind { Given = 0, IdealConstraint = 1, NonIdealConstraint = 2 };

/// Okabe–Ito colours (colour-blind safe): blue Q, bluish green Qᶜᵢ, vermillion Qᶜₙᵢ.
inline QColor forceColor(ForceKind kind)
{
    switch (kind) {
    case ForceKind::Given:
        return QColor(0x00, 0x72, 0xB2);
    case ForceKind::IdealConstraint:
        return QColor(0x00, 0x9E, 0x73);
    case ForceKind::NonIdealConstraint:
        return QColor(0xD5, 0x5E, 0x00);
    }
    return {};
}

/// Symbol as shown in legends: "Q", "Qᶜᵢ", "Qᶜₙᵢ".
inline QString forceSymbol(ForceKind kind)
{
    switch (kind) {
    case ForceKind::Given:
        return QStringLiteral("Q");
    case ForceKind::IdealConstraint:
        return QStringLiteral("Q\u1D9C\u1D62");
    case ForceKind::NonIdealConstraint:
        return QStringLiteral("Q\u1D9C\u2099\u1D62");
    }
    return {};
}

/// What the force is, in words a student understands (legend tooltips, Help).
inline QString forceDescription(ForceKind kind)
{
    switch (kind) {
    case ForceKind::Given:
        return QStringLiteral("Given force (gravity, applied forces)");
    case ForceKind::IdealConstraint:
        return QStringLiteral("Ideal constraint force (normal force, does no virtual work)");
    case ForceKind::NonIdealConstraint:
        return QStringLiteral("Non-ideal constraint force (friction, drag)");
    }
    return {};
}

} // namespace clab
