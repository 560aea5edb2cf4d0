#pragma once

#include "plots/PlotData.h"

#include <QSize>
#include <QString>

#include <array>
#include <limits>

namespace clab {

/// \brief Writes a plot to PNG (raster, with a scale factor for print), SVG (vectors, through
/// VTK's GL2PS exporter) or PDF (vectors and text, compressed, through VTK's PDF exporter), off
/// screen. PDF text is spelled in ASCII (see pdfText()).
///
/// Every file is written atomically: into a temporary file in the target directory, renamed over
/// the target only when complete, so a failed export never leaves half a file or destroys an
/// existing one.
class PlotExporter {
public:
    enum class Format { Png, Svg, Pdf };

    struct Options {
        QSize size{1200, 800}; ///< logical size in pixels (points for PDF)
        double scale = 1.0;    ///< enlarges the page, fonts and lines alike (2 or 3 for print)
        double cursor = std::numeric_limits<double>::quiet_NaN(); ///< cursor line, NaN: none
        /// x min, x max, y min, y max as on screen (NaN: fit the data).
        std::array<double, 4> range = {
            std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN(),
            std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
    };

    /// The format named by the file suffix (.png, .svg, .pdf, any case); false when none.
    static bool formatForPath(const QString& path, Format* format);

    /// Writes `data` to `path` in the format of its suffix. Returns false with `*error` set to a
    /// sentence naming the file and the reason (unknown suffix, no OpenGL context, no
    /// permission, disk full); the target is then untouched.
    static bool write(const PlotData& data, const QString& path, const Options& options,
                      QString* error);

    /// `text` as a PDF plot spells it. VTK's PDF device sets text in the standard Helvetica font
    /// with the bytes as they are, so anything beyond ASCII would come out garbled: "−" becomes
    /// "-", "·" "*", superscripts "^2" ("m/s²" → "m/s^2"), sub- and superscript letters and
    /// digits plain ones ("E₀" → "E0", "Qᶜᵢ" → "Qci"), ω "w" (as in the trace's w1, w2, w3),
    /// other Greek letters their names ("θ" → "theta", "μ" → "mu"), a dot above a time
    /// derivative's prime ("ẋ" → "x'", "ẍ" → "x''"); other accents are dropped and anything else
    /// becomes "?". VTK would draw a text with "|" or "$...$" as a MathText path (outside its
    /// box, not searchable), so norms and absolute values are words ("‖Qᶜᵢ‖" → "norm(Qci)",
    /// "|v|" → "abs(v)"), a lone "|" is "/" and "$" is "USD".
    static QString pdfText(const QString& text);
};

} // namespace clab
