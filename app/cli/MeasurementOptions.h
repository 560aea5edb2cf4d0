#pragma once

#include "MeasurementFile.h"

#include <QString>

#include <map>
#include <optional>
#include <vector>

namespace clab::cli {

struct OptionCursor;
struct SceneOptions;

/// --data, --map, --sigma and the time options, which `fit` and a misfit `sweep` share.
struct MeasurementOptions {
    QString data;
    std::vector<MeasurementFile::Mapping> mappings;
    std::optional<double> sigmaAll;
    std::map<QString, double> sigmas;
    MeasurementFile::Time time;

    /// Takes one of these options; false for any other.
    bool parse(const OptionCursor& o);
    /// After parsing: --data and --map given, --sigma for mapped columns, no --t-end or --dt
    /// (the measured times set them).
    void check(const QString& command, const SceneOptions& options);
    Measurements load() const { return MeasurementFile::load(data, mappings, time); }
    /// Whether any of these options was given.
    bool used() const
    {
        return !data.isEmpty() || !mappings.empty() || sigmaAll || !sigmas.empty();
    }

private:
    void parseMap(const QString& option, const QString& list);
    void parseSigma(const QString& option, const QString& text);
    static double positiveSigma(const QString& where, const QString& text);
};

} // namespace clab::cli
