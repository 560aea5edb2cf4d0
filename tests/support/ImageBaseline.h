#pragma once
// Rendering baselines shared by the ui tests (F3D style): an image is compared with
// tests/ui/baselines/<name>.png; a failing run keeps the actual image and a diff in
// <build>/tests/ui/failed/. CLAB_UPDATE_BASELINES=1 writes the baselines instead.

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QString>
#include <QtGlobal>

#include <algorithm>
#include <cstdlib>

namespace clab::test {

// A pixel differs when a channel is off by more than this; an image fails when more than
// kMaxDifferingFraction of its pixels differ (llvmpipe is deterministic, fonts and MSAA are not
// quite across driver versions).
constexpr int kChannelTolerance = 24;
constexpr double kMaxDifferingFraction = 0.004;

/// Fraction of pixels whose largest channel difference exceeds kChannelTolerance; optionally
/// paints them red on a faint copy of `expected` into `diff`.
inline double differingFraction(const QImage& actual, const QImage& expected,
                                QImage* diff = nullptr)
{
    const QImage a = actual.convertToFormat(QImage::Format_RGB32);
    const QImage e = expected.convertToFormat(QImage::Format_RGB32);
    if (diff != nullptr) {
        *diff = QImage(a.size(), QImage::Format_RGB32);
    }
    qint64 differing = 0;
    for (int y = 0; y < a.height(); ++y) {
        const auto* pa = reinterpret_cast<const QRgb*>(a.constScanLine(y));
        const auto* pe = reinterpret_cast<const QRgb*>(e.constScanLine(y));
        auto* out = diff != nullptr ? reinterpret_cast<QRgb*>(diff->scanLine(y)) : nullptr;
        for (int x = 0; x < a.width(); ++x) {
            const int d = std::max({std::abs(qRed(pa[x]) - qRed(pe[x])),
                                    std::abs(qGreen(pa[x]) - qGreen(pe[x])),
                                    std::abs(qBlue(pa[x]) - qBlue(pe[x]))});
            const bool differs = d > kChannelTolerance;
            differing += differs ? 1 : 0;
            if (out != nullptr) {
                // Agreeing pixels as a faint copy, so the red marks have context.
                const int g = 255 - qGray(pe[x]) / 6;
                out[x] = differs ? qRgb(255, 0, 0) : qRgb(g, g, g);
            }
        }
    }
    return static_cast<double>(differing) / (static_cast<double>(a.width()) * a.height());
}

inline QString failedDir()
{
    const QString dir = QStringLiteral(CLAB_BINARY_DIR "/tests/ui/failed");
    QDir().mkpath(dir);
    return dir;
}

inline QString baselinePath(const QString& name)
{
    return QStringLiteral(CLAB_SOURCE_DIR "/tests/ui/baselines/%1.png").arg(name);
}

/// Compares `rendered` with the baseline `name`; an empty string when it matches (or the
/// baseline was updated), otherwise what failed and where the actual and diff images are.
inline QString compareWithBaseline(const QString& name, const QImage& rendered)
{
    if (rendered.isNull()) {
        return QStringLiteral("%1: the rendered image is null").arg(name);
    }
    const QImage actual = rendered.convertToFormat(QImage::Format_RGB32);
    const QString path = baselinePath(name);
    if (qEnvironmentVariableIntValue("CLAB_UPDATE_BASELINES") == 1) {
        QDir().mkpath(QFileInfo(path).absolutePath());
        if (!actual.save(path)) {
            return QStringLiteral("cannot write %1").arg(path);
        }
        qInfo("updated baseline %s", qPrintable(path));
        return {};
    }
    const QString actualPath = failedDir() + QStringLiteral("/%1-actual.png").arg(name);
    const QImage expected(path);
    if (expected.isNull()) {
        actual.save(actualPath);
        return QStringLiteral("no baseline %1; candidate written to %2 (look at it, then rerun "
                              "with CLAB_UPDATE_BASELINES=1)")
            .arg(path, actualPath);
    }
    if (expected.size() != actual.size()) {
        actual.save(actualPath);
        return QStringLiteral("%1: size %2x%3, baseline %4x%5")
            .arg(name)
            .arg(actual.width())
            .arg(actual.height())
            .arg(expected.width())
            .arg(expected.height());
    }
    QImage diff;
    const double fraction = differingFraction(actual, expected, &diff);
    if (fraction <= kMaxDifferingFraction) {
        return {};
    }
    const QString diffPath = failedDir() + QStringLiteral("/%1-diff.png").arg(name);
    actual.save(actualPath);
    diff.save(diffPath);
    return QStringLiteral(
               "%1: %2% of the pixels differ from %3 (allowed %4%); actual: %5, diff: %6")
        .arg(name)
        .arg(100.0 * fraction, 0, 'f', 3)
        .arg(path)
        .arg(100.0 * kMaxDifferingFraction, 0, 'f', 3)
        .arg(actualPath, diffPath);
}

} // namespace clab::test
