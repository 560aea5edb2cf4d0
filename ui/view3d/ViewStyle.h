#pragma once

#include <QColor>

#include <vtkTextProperty.h>

#include <algorithm>
#include <cmath>

namespace clab {

/// \brief The colours and text sizes the layers of the 3D view share, so that the legend, the
/// captions and the triad read as one picture.
struct ViewStyle {
    // A cool light-grey gradient: projects well in a lit classroom, every Okabe–Ito colour reads
    // on it.
    static QColor backgroundTop() { return QColor(0xFC, 0xFD, 0xFE); }
    static QColor backgroundBottom() { return QColor(0xD6, 0xDD, 0xE6); }
    static QColor backgroundMid()
    {
        return QColor((backgroundTop().red() + backgroundBottom().red()) / 2,
                      (backgroundTop().green() + backgroundBottom().green()) / 2,
                      (backgroundTop().blue() + backgroundBottom().blue()) / 2);
    }
    static QColor trailColor() { return QColor(0x14, 0x17, 0x1C); }
    static QColor textColor() { return QColor(0x1F, 0x24, 0x2C); }

    static void setTextColor(vtkTextProperty* property, const QColor& color)
    {
        property->SetColor(color.redF(), color.greenF(), color.blueF());
    }

    /// VTK's font size (points) for text `pixels` high in a window of `dpi`.
    static int fontPoints(double pixels, double dpi)
    {
        return std::max(1, static_cast<int>(std::lround(pixels * 72.0 / dpi)));
    }

    /// Text size in pixels for a view of width × height pixels: legible from the back of a
    /// classroom at full screen, not crowding a small window.
    static int fontPixelsFor(int width, int height)
    {
        return std::clamp(static_cast<int>(std::lround(std::min(height, width * 3 / 4) / 32.0)), 12,
                          30);
    }
};

} // namespace clab
