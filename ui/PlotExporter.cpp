#include "PlotExporter.h"

#include "OffscreenRenderWindow.h"
#include "PlotChart.h"

#include <QColor>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QSaveFile>
#include <QTemporaryFile>

#include <vtkContextView.h>
#include <vtkGL2PSExporter.h>
#include <vtkNew.h>
#include <vtkOpenGLGL2PSExporter.h>
#include <vtkRenderWindow.h>

#include <cmath>
#include <filesystem>
#include <system_error>

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
    OffscreenRenderWindow window;
    QImage image;
    if (!renderOnce(chart, window, pixels, path, &image, error)) {
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return fail(
            error,
            QStringLiteral("Cannot write the plot %1: %2").arg(quoted(path), file.errorString()));
    }
    if (!image.save(&file, "PNG")) {
        file.cancelWriting();
        return fail(error, QStringLiteral("Cannot write the plot %1: encoding the PNG failed (%2)")
                               .arg(quoted(path), file.errorString()));
    }
    if (!file.commit()) {
        return fail(
            error,
            QStringLiteral("Cannot write the plot %1: %2").arg(quoted(path), file.errorString()));
    }
    return true;
}

bool writeVector(const PlotData& data, const QString& path, PlotExporter::Format format,
                 const PlotExporter::Options& options, QString* error)
{
    const QFileInfo target(path);
    // A unique name in the target directory (so the final rename stays on one file system);
    // GL2PS appends its own extension to the prefix.
    QTemporaryFile reserve(
        target.absoluteDir().filePath(QStringLiteral(".%1.XXXXXX").arg(target.fileName())));
    if (!reserve.open()) {
        return fail(error, QStringLiteral("Cannot write the plot %1: %2")
                               .arg(quoted(path), reserve.errorString()));
    }
    const QString prefix = reserve.fileName();
    const QString written = prefix + (format == PlotExporter::Format::Svg ? QStringLiteral(".svg")
                                                                          : QStringLiteral(".pdf"));

    PlotChart chart;
    chart.setData(data);
    chart.setCursor(options.cursor);
    OffscreenRenderWindow window;
    // GL2PS captures a render of the window as it is: render once so that the context exists
    // and the chart has laid itself out at this size.
    if (!renderOnce(chart, window, options.size, path, nullptr, error)) {
        return false;
    }

    vtkNew<vtkOpenGLGL2PSExporter> exporter;
    exporter->SetRenderWindow(window.window());
    exporter->SetFileFormat(format == PlotExporter::Format::Svg ? vtkGL2PSExporter::SVG_FILE
                                                                : vtkGL2PSExporter::PDF_FILE);
    exporter->SetCompress(false);
    exporter->SetTextAsPath(false); // text stays text: searchable, selectable, smaller
    exporter->SetText(true);
    exporter->SetSilent(true);
    exporter->SetTitle(data.title.toUtf8().constData());
    exporter->SetFilePrefix(prefix.toLocal8Bit().constData());
    exporter->Write();

    const QFileInfo result(written);
    if (!result.exists() || result.size() == 0) {
        QFile::remove(written);
        return fail(error, QStringLiteral("Cannot write the plot %1: the vector exporter (GL2PS) "
                                          "produced no output")
                               .arg(quoted(path)));
    }
    std::error_code code;
    std::filesystem::rename(std::filesystem::path(written.toStdString()),
                            std::filesystem::path(target.absoluteFilePath().toStdString()), code);
    if (code) {
        QFile::remove(written);
        return fail(error, QStringLiteral("Cannot write the plot %1: %2")
                               .arg(quoted(path), QString::fromStdString(code.message())));
    }
    return true;
}

} // namespace

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
    return writeVector(data, path, format, options, error);
}

} // namespace clab
