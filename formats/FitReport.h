#pragma once

#include "study/FitResult.h"
#include "study/Measurements.h"
#include "scenes/SceneDocument.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace clab {

/// \brief A fit's result for people (a table) and for programs (JSON), with units: what
/// `constraintlab-cli fit` prints and writes, and what a GUI can show or save.
class FitReport {
public:
    /// `scene` and `data` name the scene and the measurement file; `commandLine` is stored in
    /// the JSON so that the fit can be repeated.
    FitReport(const FitResult& result, const SceneDocument& document,
              const Measurements& measurements, QString scene, QString data,
              QStringList commandLine);

    /// Parameters (start, value, standard error, unit), the correlation matrix, residual RMS
    /// per column, χ²/dof, iterations, runs, why it stopped, then one "warning:" line each.
    QString table() const;
    /// An object with "scene", "data", "command_line", "parameters" (name, unit, start, value,
    /// standard_error, determined, at_bound), "covariance", "correlation", "columns" (column,
    /// quantity, unit, rms), "chi_square", "degrees_of_freedom", "residual_variance",
    /// "sigma_given", "iterations", "runs", "converged", "stop_reason", "warnings". A number
    /// that is not finite (the error of a parameter the data do not determine) is null.
    QByteArray json() const;

private:
    FitResult result_;
    QString scene_, data_;
    QStringList commandLine_;
    std::vector<std::string> parameterUnits_;
    std::vector<std::string> quantities_, quantityUnits_;
    std::size_t values_ = 0;
};

} // namespace clab
