#include "study/FitDiagnosis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace clab {

namespace {

// Four significant digits and the unit: "25 m".
std::string figure(double v, const std::string& unit)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", v);
    return unit.empty() ? std::string(text) : std::string(text) + " " + unit;
}

// The standard deviation of values about their mean.
double spread(const std::vector<double>& values)
{
    double mean = 0.0;
    for (double v : values)
        mean += v;
    mean /= static_cast<double>(values.size());
    double sum = 0.0;
    for (double v : values)
        sum += (v - mean) * (v - mean);
    return std::sqrt(sum / static_cast<double>(values.size()));
}

// The unfitted parameters of the scene that set the start of `quantity`: named quantity + "0".
std::vector<std::string> startParametersOf(const std::string& quantity,
                                           const SceneDefinition& definition,
                                           const std::vector<std::string>& fitted)
{
    std::vector<std::string> names;
    const ParameterSpec* spec = definition.parameter(quantity + "0");
    if (spec && spec->size() == 1 && !spec->wholeNumber &&
        std::find(fitted.begin(), fitted.end(), spec->name) == fitted.end())
        names.push_back(spec->name);
    return names;
}

} // namespace

void FitDiagnosis::checkReach(const Measurements& measurements,
                              const std::vector<std::string>& units,
                              const SceneDefinition& definition,
                              const std::vector<std::string>& fitted, FitResult& result)
{
    for (std::size_t c = 0; c < measurements.columns.size(); ++c) {
        const Measurements::Column& column = measurements.columns[c];
        const double rms = result.columnRms[c], dataSpread = spread(column.values);
        // Exact data of a body at rest have no spread: a misfit at the arithmetic's precision
        // is no failure.
        double size = 0.0;
        for (double v : column.values)
            size = std::max(size, std::abs(v));
        if (!(rms > 2.0 * dataSpread && rms > 3.0 * column.sigma && rms > 1e-9 * size))
            continue;
        const double measured = column.values.front();
        const double simulated = measured + result.residuals[c].front();
        if (std::abs(simulated - measured) > dataSpread) {
            result.startParameters = startParametersOf(column.quantity, definition, fitted);
            std::string advice = "set the start of " + column.quantity + " to the data's";
            if (!result.startParameters.empty())
                advice = "fit " + result.startParameters.front() + " too, or set it";
            result.failure = "the model cannot reach the data: the data of " + column.name() +
                             " start at " + figure(measured, units[c]) +
                             " (t = " + figure(measurements.times.front(), "s") +
                             "), the model at " + figure(simulated, units[c]) + "; " + advice;
        } else {
            result.failure = "the model does not follow the data: its residual RMS for " +
                             column.name() + " (" + figure(rms, units[c]) +
                             ") is more than twice the data's spread about their mean (" +
                             figure(dataSpread, units[c]) +
                             "); check the column mapping, its scale and the time offset";
        }
        return;
    }
}

} // namespace clab
