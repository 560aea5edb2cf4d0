#pragma once

#include "scenes/SceneDocument.h"
#include "study/FitResult.h"
#include "study/Measurements.h"

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
    /// per column, χ²/dof, iterations, runs, why it stopped, one "warning:" line each, and a
    /// "fit failed:" line when FitResult::failure says so. Values to the digits their errors
    /// allow.
    QString table() const;
    /// An object with "scene", "data", "command_line", "parameters" (name, unit, start, value,
    /// standard_error, determined, at_bound), "covariance", "correlation", "columns" (column,
    /// quantity, unit, rms), "chi_square", "degrees_of_freedom", "residual_variance",
    /// "sigma_given", "iterations", "runs", "converged", "stop_reason", "failure" (null, or why
    /// the model cannot follow the data), "warnings". A number
    /// that is not finite (the error of a parameter the data do not determine) is null.
    QByteArray json() const;

    /// Parameter i's value and standard error to the digits the error allows (RoundedValue),
    /// "not determined" for the error of a parameter the data do not fix.
    QString valueText(std::size_t i) const;
    QString errorText(std::size_t i) const;
    QString parameterUnit(std::size_t i) const;
    /// The correlation of parameters i and j to three decimals; "-" when it is not a number.
    QString correlationText(std::size_t i, std::size_t j) const;
    /// The residual RMS of each column with its unit, then chiSquareLine().
    QStringList summaryLines() const;
    /// χ²/dof: with σ given, against 1; without, 1 by construction and the estimated σ.
    QString chiSquareLine() const;

private:
    QString parameterTable() const;
    QString correlationTable() const;

    FitResult result_;
    QString scene_, data_;
    QStringList commandLine_;
    std::vector<std::string> parameterUnits_;
    std::vector<std::string> quantities_, quantityUnits_;
    std::size_t values_ = 0;
};

} // namespace clab
