#pragma once

#include <QColor>

#include <cstddef>

namespace clab {

/// The colour of compare run `index` (0 the oldest): its trail, marker and caption in the 3D
/// view and its curves in the plots, so that a run is recognised by its colour everywhere.
/// Okabe–Ito colours the force arrows do not use; orange last, close to friction's vermilion.
inline QColor runColor(std::size_t index)
{
    static const QColor colors[4] = {QColor(0xCC, 0x79, 0xA7), QColor(0x56, 0xB4, 0xE9),
                                     QColor(0x80, 0x80, 0x80), QColor(0xE6, 0x9F, 0x00)};
    return colors[index % 4];
}

} // namespace clab
