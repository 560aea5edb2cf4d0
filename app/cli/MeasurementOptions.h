#pragma once

#include "MeasurementFile.h"
#include "scenes/SceneDocument.h"

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
    /// After parsing: --data given, no --t-end or --dt (the measured times set them).
    void check(const QString& command, const SceneOptions& options);
    /// The measurements for a run of `document`: the --map columns, or without --map every
    /// column named like one of the scene's trace quantities (x → x); --sigma applied.
    Measurements load(const SceneDocument& document) const;
    /// Whether any of these options was given.
    bool used() const
    {
        return !data.isEmpty() || !mappings.empty() || sigmaAll || !sigmas.empty();
    }

private:
    void parseMap(const QString& option, const QString& list);
    void parseSigma(const QString& option, const QString& text);
    static double positiveSigma(const QString& where, const QString& text);
    std::vector<MeasurementFile::Mapping> withSigmas(std::vector<MeasurementFile::Mapping> m) const;
};

} // namespace clab::cli
