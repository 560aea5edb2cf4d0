#pragma once

#include <render/VtkSurfaceFormat.h>

#include <QApplication>

#include <benchmark/benchmark.h>

namespace clab::test {

/// main() of a benchmark that shows widgets: the OpenGL surface format must be set before the
/// QApplication exists, and the application must outlive the benchmarks.
inline int runGuiBenchmarks(int argc, char** argv)
{
    VtkSurfaceFormat::makeDefault();
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

} // namespace clab::test
