#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

namespace clab::python {

class SceneHandle;

/// What Python's fit() asks: the measurements (a file, or named columns of numbers) and how
/// they map to trace quantities, the fitted parameters, their bounds and the run's settings.
struct FitArguments {
    pybind11::object path = pybind11::none();  ///< a file's path, or None
    std::vector<std::string> names;            ///< the columns' names when there is no file
    pybind11::array_t<double> values;          ///< rows × columns when there is no file
    pybind11::dict map;                        ///< column -> "quantity[*scale]"; empty: by name
    pybind11::object sigma = pybind11::none(); ///< None, a number, or {column: number}
    std::vector<std::string> parameters;       ///< what to fit
    pybind11::dict bounds;                     ///< name -> (low or None, high or None)
    pybind11::object timeColumn = pybind11::none(); ///< None: t or time, else the first column
    double timeScale = 1.0;
    double timeOffset = 0.0;
    int maxIterations = 100;
    pybind11::dict settings; ///< parameters and simulation settings
};

/// Fits as `constraintlab-cli fit` does (core/study/ParameterFit), the measurements read by
/// formats/MeasurementFile (arrays pass through it as CSV text with 17 significant digits, so
/// they are checked alike and read back exactly). Returns the FitResult as a dict, with the
/// measured times and values.
pybind11::dict fitScene(const SceneHandle& scene, const FitArguments& arguments);

} // namespace clab::python
