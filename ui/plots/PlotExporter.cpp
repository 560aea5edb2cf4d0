#include "plots/PlotExporter.h"

#include "AtomicFile.h"
#include "FileError.h"
#include "plots/PlotChart.h"
#include "render/OffscreenRenderWindow.h"

#include <QBuffer>
#include <QByteArray>
#include <QColor>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QRegularExpression>
#include <QTemporaryFile>
#include <QtGlobal>

#include <vtkChartXY.h>
#include <vtkContextView.h>
#include <vtkGL2PSExporter.h>
#include <vtkNew.h>
#include <vtkOpenGLGL2PSExporter.h>
#include <vtkPDFExporter.h>
#include <vtkRect.h>
#include <vtkRenderWindow.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace clab {

namespace {

QString quoted(const QString& path)
{
    return QStringLiteral("\"%1\"").arg(QDir::toNativeSeparators(path));
}

bool fail(QString* error, const QString& message)
{
    if (error != nullptr) {
        *error = message;
    }
    return false;
}

/// The finished file: atomically for a regular file, in place for a device or a pipe.
bool writeBytes(const QByteArray& bytes, const QString& path, QString* error)
{
    try {
        AtomicFile::write(path, bytes, QStringLiteral("the plot"));
    } catch (const FileError& e) {
        // The reason reads "cannot write the plot: <the system's reason>".
        return fail(error, QStringLiteral("Cannot write the plot %1: %2")
                               .arg(quoted(path), e.reason().section(QStringLiteral(": "), 1)));
    }
    return true;
}

/// Renders `chart` into `window` at `size`; false with a message when there is no GL context.
bool renderOnce(PlotChart& chart, OffscreenRenderWindow& window, const QSize& size,
                const QString& path, QImage* image, QString* error)
{
    chart.view()->SetRenderWindow(window.window());
    // The first frame lays the chart out (axis ranges, a log axis becoming active); plots only
    // pick that up on the next one.
    window.render(size);
    QImage rendered = window.render(size);
    if (rendered.isNull()) {
        return fail(
            error,
            QStringLiteral("Cannot write the plot %1: %2").arg(quoted(path), window.errorString()));
    }
    // The background is white: a frame without a single white pixel in its corner means the
    // context rendered nothing (e.g. Qt's "offscreen" platform gives black frames).
    if (QColor(rendered.pixel(0, 0)) != QColor(Qt::white) &&
        QColor(rendered.pixel(rendered.width() - 1, rendered.height() - 1)) != QColor(Qt::white)) {
        return fail(error, QStringLiteral("Cannot write the plot %1: OpenGL rendered an empty "
                                          "frame (the display platform has no working OpenGL; "
                                          "run under X or xvfb-run -a)")
                               .arg(quoted(path)));
    }
    if (image != nullptr) {
        *image = std::move(rendered);
    }
    return true;
}

bool writePng(const PlotData& data, const QString& path, const PlotExporter::Options& options,
              QString* error)
{
    const double scale = options.scale > 0.0 && std::isfinite(options.scale) ? options.scale : 1.0;
    const QSize pixels(static_cast<int>(std::lround(options.size.width() * scale)),
                       static_cast<int>(std::lround(options.size.height() * scale)));
    PlotChart chart;
    chart.setData(data);
    chart.setScale(scale);
    chart.setCursor(options.cursor);
    chart.setViewRange(options.range);
    OffscreenRenderWindow window;
    QImage image;
    if (!renderOnce(chart, window, pixels, path, &image, error)) {
        return false;
    }
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) {
        return fail(
            error,
            QStringLiteral("Cannot write the plot %1: encoding the PNG failed").arg(quoted(path)));
    }
    return writeBytes(buffer.data(), path, error);
}

// ---- PDF: plain-ASCII text ------------------------------------------------------------------

/// A run of superscript digits and signs as "^..." ("m/s²" → "m/s^2"); NFKD alone would turn "²"
/// into a bare "2". Returns 0 for a character that is no such superscript.
char superscriptAscii(char32_t c)
{
    switch (c) {
    case U'⁰':
        return '0';
    case U'¹':
        return '1';
    case U'²':
        return '2';
    case U'³':
        return '3';
    case U'⁴':
        return '4';
    case U'⁵':
        return '5';
    case U'⁶':
        return '6';
    case U'⁷':
        return '7';
    case U'⁸':
        return '8';
    case U'⁹':
        return '9';
    case U'⁺':
        return '+';
    case U'⁻':
        return '-';
    default:
        return 0;
    }
}

/// A character left after NFKD and its ASCII spelling.
struct AsciiSpelling {
    char32_t from;
    const char* to;
};

constexpr AsciiSpelling kAsciiSpellings[] = {
    // Combining marks: a dot above is a time derivative ("ẋ" → "x'"), two dots the second.
    {U'\u0307', "'"},
    {U'\u0308', "''"},
    // Operators and punctuation.
    {U'−', "-"},
    {U'‐', "-"},
    {U'‑', "-"},
    {U'‒', "-"},
    {U'–', "-"},
    {U'—', "-"},
    {U'‖', "||"},
    {U'·', "*"},
    {U'⋅', "*"},
    {U'×', "x"},
    {U'÷', "/"},
    {U'±', "+/-"},
    {U'≤', "<="},
    {U'≥', ">="},
    {U'≠', "!="},
    {U'≈', "~"},
    {U'∼', "~"},
    {U'∞', "inf"},
    {U'→', "->"},
    {U'←', "<-"},
    {U'∂', "d"},
    {U'∇', "grad"},
    {U'√', "sqrt"},
    {U'∑', "sum"},
    {U'∫', "int"},
    {U'°', "deg"},
    {U'‘', "'"},
    {U'’', "'"},
    {U'“', "\""},
    {U'”', "\""},
    {U'•', "*"},
    // Greek: ω is spelled "w" as in the trace's column names (w1, w2, w3); the others by name.
    {U'α', "alpha"},
    {U'β', "beta"},
    {U'γ', "gamma"},
    {U'δ', "delta"},
    {U'ε', "epsilon"},
    {U'ϵ', "epsilon"},
    {U'ζ', "zeta"},
    {U'η', "eta"},
    {U'θ', "theta"},
    {U'ϑ', "theta"},
    {U'ι', "iota"},
    {U'κ', "kappa"},
    {U'λ', "lambda"},
    {U'μ', "mu"},
    {U'ν', "nu"},
    {U'ξ', "xi"},
    {U'ο', "o"},
    {U'π', "pi"},
    {U'ρ', "rho"},
    {U'σ', "sigma"},
    {U'ς', "sigma"},
    {U'τ', "tau"},
    {U'υ', "upsilon"},
    {U'φ', "phi"},
    {U'ϕ', "phi"},
    {U'χ', "chi"},
    {U'ψ', "psi"},
    {U'ω', "w"},
    {U'Α', "A"},
    {U'Β', "B"},
    {U'Γ', "Gamma"},
    {U'Δ', "Delta"},
    {U'Ε', "E"},
    {U'Ζ', "Z"},
    {U'Η', "H"},
    {U'Θ', "Theta"},
    {U'Ι', "I"},
    {U'Κ', "K"},
    {U'Λ', "Lambda"},
    {U'Μ', "M"},
    {U'Ν', "N"},
    {U'Ξ', "Xi"},
    {U'Ο', "O"},
    {U'Π', "Pi"},
    {U'Ρ', "P"},
    {U'Σ', "Sigma"},
    {U'Τ', "T"},
    {U'Υ', "Upsilon"},
    {U'Φ', "Phi"},
    {U'Χ', "X"},
    {U'Ψ', "Psi"},
    {U'Ω', "Omega"},
};

/// ASCII for one character left after NFKD, or nullptr when there is none.
const char* asciiFor(char32_t c)
{
    for (const AsciiSpelling& entry : kAsciiSpellings) {
        if (entry.from == c) {
            return entry.to;
        }
    }
    return nullptr;
}

/// True for a combining mark (dropped unless asciiFor() spells it).
bool isCombining(char32_t c)
{
    const QChar::Category category = QChar::category(c);
    return category == QChar::Mark_NonSpacing || category == QChar::Mark_SpacingCombining ||
           category == QChar::Mark_Enclosing;
}

/// `data` as the PDF device can draw it: every text (title, axis titles, legend) in pdfText(),
/// and values within 1e-9 of the largest magnitude from zero drawn at zero. The bundled libharu
/// prints a tiny negative number (the audit line's -1e-16) with digits below '0' ("0.0000/)*"),
/// which breaks the page's content stream; a billionth of the range is far below a printed dot.
PlotData forPdfDevice(const PlotData& data)
{
    PlotData copy = data;
    copy.title = PlotExporter::pdfText(data.title);
    copy.xTitle = PlotExporter::pdfText(data.xTitle);
    copy.yTitle = PlotExporter::pdfText(data.yTitle);
    for (PlotCurve& curve : copy.curves) {
        curve.label = PlotExporter::pdfText(curve.label);
    }
    for (PlotLegendEntry& entry : copy.legend) {
        entry.label = PlotExporter::pdfText(entry.label);
    }
    const auto flushTiny = [&copy](std::vector<double> PlotCurve::*values) {
        double largest = 0.0;
        for (const PlotCurve& curve : copy.curves) {
            for (double v : curve.*values) {
                if (std::isfinite(v)) {
                    largest = std::max(largest, std::abs(v));
                }
            }
        }
        for (PlotCurve& curve : copy.curves) {
            for (double& v : curve.*values) {
                if (std::abs(v) < 1e-9 * largest) {
                    v = 0.0;
                }
            }
        }
    };
    flushTiny(&PlotCurve::x);
    // A log axis draws the logarithms, which the device prints well.
    if (!copy.logY) {
        flushTiny(&PlotCurve::y);
    }
    return copy;
}

// ---- SVG and PDF ----------------------------------------------------------------------------

/// Lays `chart` out for a vector export and renders it once into `window`, so that the chart
/// has laid itself out at the export's size (both exporters draw the chart as it is then).
bool prepareVector(PlotChart& chart, const PlotData& data, const PlotExporter::Options& options,
                   OffscreenRenderWindow& window, const QString& path, QSize* size, QString* error)
{
    chart.setData(data);
    // The scale enlarges the page and everything on it alike, as for a PNG.
    const double scale = options.scale > 0.0 && std::isfinite(options.scale) ? options.scale : 1.0;
    chart.setScale(scale);
    chart.setCursor(options.cursor);
    chart.setViewRange(options.range);
    *size = QSize(static_cast<int>(std::lround(options.size.width() * scale)),
                  static_cast<int>(std::lround(options.size.height() * scale)));
    return renderOnce(chart, window, *size, path, nullptr, error);
}

/// Reads back and removes what an exporter wrote to the temporary `written`.
bool takeExporterOutput(const QString& written, const QString& path, const QString& exporterName,
                        QByteArray* bytes, QString* error)
{
    QFile file(written);
    if (!file.exists() || file.size() == 0) {
        file.remove();
        return fail(error, QStringLiteral("Cannot write the plot %1: the vector exporter (%2) "
                                          "produced no output")
                               .arg(quoted(path), exporterName));
    }
    *bytes = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    const QString readError = file.errorString();
    file.close();
    file.remove();
    if (bytes->isEmpty()) {
        return fail(error, QStringLiteral("Cannot write the plot %1: cannot read the exporter's "
                                          "output back (%2)")
                               .arg(quoted(path), readError));
    }
    return true;
}

/// A unique temporary name for an exporter that writes files itself; the result then goes to the
/// target like every other export (AtomicFile).
bool reserveTemporary(QTemporaryFile& reserve, const QString& path, QString* error)
{
    reserve.setFileTemplate(
        QDir(QDir::tempPath()).filePath(QStringLiteral("constraintlab-plot.XXXXXX")));
    if (!reserve.open()) {
        return fail(error, QStringLiteral("Cannot write the plot %1: %2")
                               .arg(quoted(path), reserve.errorString()));
    }
    return true;
}

bool writeSvg(const PlotData& data, const QString& path, const PlotExporter::Options& options,
              QString* error)
{
    QTemporaryFile reserve;
    if (!reserveTemporary(reserve, path, error)) {
        return false;
    }
    // GL2PS appends its own extension to the prefix it is given.
    const QString prefix = reserve.fileName();
    PlotChart chart;
    OffscreenRenderWindow window;
    QSize size;
    if (!prepareVector(chart, data, options, window, path, &size, error)) {
        return false;
    }
    vtkNew<vtkOpenGLGL2PSExporter> exporter;
    exporter->SetRenderWindow(window.window());
    exporter->SetFileFormat(vtkGL2PSExporter::SVG_FILE);
    exporter->SetCompress(false);
    exporter->SetTextAsPath(false); // text stays text: searchable, selectable, smaller
    exporter->SetText(true);
    exporter->SetSilent(true);
    exporter->SetTitle(data.title.toUtf8().constData());
    exporter->SetFilePrefix(prefix.toLocal8Bit().constData());
    exporter->Write();
    QByteArray bytes;
    if (!takeExporterOutput(prefix + QStringLiteral(".svg"), path, QStringLiteral("GL2PS"), &bytes,
                            error)) {
        return false;
    }
    // GL2PS leaves an SVG's background transparent, black in a dark viewer: paint it white
    // under everything else.
    const qsizetype open = bytes.indexOf("<svg");
    const qsizetype end = open < 0 ? -1 : bytes.indexOf('>', open);
    if (end > 0) {
        // In the viewBox's units (the window's pixels): SVG Tiny viewers do not take "100%".
        bytes.insert(end + 1, QStringLiteral("\n<rect x=\"0\" y=\"0\" width=\"%1\" "
                                             "height=\"%2\" fill=\"#ffffff\"/>")
                                  .arg(size.width())
                                  .arg(size.height())
                                  .toUtf8());
    }
    return writeBytes(bytes, path, error);
}

bool writePdf(const PlotData& data, const QString& path, const PlotExporter::Options& options,
              QString* error)
{
    QTemporaryFile reserve;
    if (!reserveTemporary(reserve, path, error)) {
        return false;
    }
    const QString written = reserve.fileName() + QStringLiteral(".pdf");
    PlotChart chart;
    OffscreenRenderWindow window;
    QSize size;
    chart.setForPdfDevice(true);
    // VTK's PDF device sets text in the standard Helvetica font: spell the texts in ASCII.
    if (!prepareVector(chart, forPdfDevice(data), options, window, path, &size, error)) {
        return false;
    }
    // vtkPDFExporter paints the chart again on a PDF device (libharu): vectors, text as text,
    // compressed streams.
    vtkNew<vtkPDFExporter> exporter;
    exporter->SetRenderWindow(window.window());
    exporter->SetTitle(PlotExporter::pdfText(data.title).toLatin1().constData());
    exporter->SetFileName(written.toLocal8Bit().constData());
    exporter->Write();
    QByteArray bytes;
    if (!takeExporterOutput(written, path, QStringLiteral("VTK's PDF exporter"), &bytes, error)) {
        return false;
    }
    return writeBytes(bytes, path, error);
}

} // namespace

QString PlotExporter::pdfText(const QString& text)
{
    // Superscript digits first ("²" → "^2"): NFKD would leave a bare "2".
    QString marked;
    marked.reserve(text.size());
    bool inSuperscript = false;
    for (const char32_t c : text.toUcs4()) {
        const char digit = superscriptAscii(c);
        if (digit != 0) {
            if (!inSuperscript) {
                marked += u'^';
            }
            marked += QLatin1Char(digit);
        } else if (c == U'µ') { // the micro sign of units ("µm" → "um"), not the Greek μ
            marked += u'u';
        } else {
            marked += QString::fromUcs4(&c, 1);
        }
        inSuperscript = digit != 0;
    }
    // NFKD: "₀" → "0", "ᶜ" → "c", "ẋ" → "x" + U+0307, "é" → "e" + U+0301, no-break space → " ".
    QString ascii;
    ascii.reserve(marked.size());
    for (const char32_t c : marked.normalized(QString::NormalizationForm_KD).toUcs4()) {
        if (c < 0x80) {
            ascii += QChar(static_cast<char16_t>(c));
        } else if (const char* spelled = asciiFor(c)) {
            ascii += QLatin1String(spelled);
        } else if (!isCombining(c)) {
            ascii += u'?';
        }
    }
    // VTK draws a text with "|" (a MathText column) or "$...$" as a MathText path, not as
    // text: spell norms and absolute values as words, a lone bar as "/", "$" as "USD".
    static const QRegularExpression norm(QStringLiteral("\\|\\|([^|]*)\\|\\|"));
    static const QRegularExpression magnitude(QStringLiteral("\\|([^|]*)\\|"));
    ascii.replace(norm, QStringLiteral("norm(\\1)"));
    ascii.replace(magnitude, QStringLiteral("abs(\\1)"));
    ascii.replace(u'|', u'/');
    ascii.replace(QStringLiteral("$"), QStringLiteral("USD"));
    return ascii;
}

bool PlotExporter::formatForPath(const QString& path, Format* format)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    Format found = Format::Png;
    if (suffix == QLatin1String("png")) {
        found = Format::Png;
    } else if (suffix == QLatin1String("svg")) {
        found = Format::Svg;
    } else if (suffix == QLatin1String("pdf")) {
        found = Format::Pdf;
    } else {
        return false;
    }
    if (format != nullptr) {
        *format = found;
    }
    return true;
}

bool PlotExporter::write(const PlotData& data, const QString& path, const Options& options,
                         QString* error)
{
    Format format = Format::Png;
    if (!formatForPath(path, &format)) {
        return fail(error, QStringLiteral("Cannot write the plot %1: unknown file type \"%2\" "
                                          "(use .png, .svg or .pdf)")
                               .arg(quoted(path), QFileInfo(path).suffix()));
    }
    if (options.size.width() <= 0 || options.size.height() <= 0) {
        return fail(error, QStringLiteral("Cannot write the plot %1: invalid size %2x%3")
                               .arg(quoted(path))
                               .arg(options.size.width())
                               .arg(options.size.height()));
    }
    // OpenGL renders nothing beyond its largest framebuffer (16384 per side on Mesa's llvmpipe
    // and the common floor of desktop drivers): the frame would come back blank and be blamed
    // on a missing OpenGL. Refuse with the real reason instead.
    constexpr int kMaxRenderSide = 16384;
    const double pixelScale =
        format == Format::Png && options.scale > 0.0 && std::isfinite(options.scale) ? options.scale
                                                                                     : 1.0;
    const double renderWidth = std::round(options.size.width() * pixelScale);
    const double renderHeight = std::round(options.size.height() * pixelScale);
    if (renderWidth > kMaxRenderSide || renderHeight > kMaxRenderSide) {
        return fail(error, QStringLiteral("Cannot write the plot %1: %2x%3 pixels is larger than "
                                          "OpenGL can render (at most %4 per side); choose a "
                                          "smaller size or scale")
                               .arg(quoted(path))
                               .arg(renderWidth, 0, 'f', 0)
                               .arg(renderHeight, 0, 'f', 0)
                               .arg(kMaxRenderSide));
    }
    const QFileInfo target(path);
    const QFileInfo directory(target.absolutePath());
    if (!directory.exists() || !directory.isDir()) {
        return fail(error, QStringLiteral("Cannot write the plot %1: the directory %2 does not "
                                          "exist")
                               .arg(quoted(path), quoted(directory.absoluteFilePath())));
    }
    if (!directory.isWritable()) {
        return fail(error, QStringLiteral("Cannot write the plot %1: no permission to write in "
                                          "the directory %2")
                               .arg(quoted(path), quoted(directory.absoluteFilePath())));
    }
    if (target.isDir()) {
        return fail(
            error, QStringLiteral("Cannot write the plot %1: it is a directory").arg(quoted(path)));
    }
    if (format == Format::Png) {
        return writePng(data, path, options, error);
    }
    if (format == Format::Svg) {
        return writeSvg(data, path, options, error);
    }
    return writePdf(data, path, options, error);
}

} // namespace clab
