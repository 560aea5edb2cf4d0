#pragma once

#include "SceneRequest.h"

#include <pybind11/pybind11.h>

namespace clab::python {

/// A SceneRequest from Python keyword arguments: a simulation setting's key sets the setting
/// (a number; a choice by name, integrator="rk4"; a flag as bool), any other name sets a
/// parameter (a number, or a sequence of numbers for a vector). Messages name each as it was
/// given, "mu=-0.1"; a value that is no number raises TypeError naming it.
SceneRequest keywordRequest(const QString& scene, const pybind11::dict& keywords);

} // namespace clab::python
