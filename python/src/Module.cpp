// constraintlab._core: the engine (clab_core) and the file formats (clab_formats) that
// constraintlab-cli runs, bound for the Python package constraintlab (python/constraintlab).
#include "ErrorTranslation.h"
#include "FitBinding.h"
#include "SceneHandle.h"
#include "SweepBinding.h"

#include "SceneFile.h"
#include "SceneLoading.h"
#include "SceneNotes.h"
#include "scenes/SceneRegistry.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace clab;
using namespace clab::python;

namespace {

std::vector<std::string> sceneNames()
{
    std::vector<std::string> names;
    for (const SceneDefinition& definition : SceneRegistry::builtIn())
        names.push_back(definition.name);
    return names;
}

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

void bindScene(py::module_& m)
{
    py::class_<SceneHandle>(m, "SceneHandle", "A loaded scene (constraintlab.Scene wraps it).")
        .def(py::init([](const std::string& argument) { return SceneHandle(qs(argument)); }),
             py::arg("path_or_name"))
        .def_property_readonly("source",
                               [](const SceneHandle& s) { return s.argument().toStdString(); })
        .def_property_readonly("name",
                               [](const SceneHandle& s) { return s.document().shortName(); })
        .def_property_readonly("title",
                               [](const SceneHandle& s) {
                                   return s.document().title.empty()
                                              ? s.document().definition()->title
                                              : s.document().title;
                               })
        .def_property_readonly(
            "description",
            [](const SceneHandle& s) { return s.document().definition()->description; })
        .def_property_readonly(
            "notes",
            [](const SceneHandle& s) { return SceneNotes::shown(s.document()).toStdString(); })
        .def_property_readonly(
            "label", [](const SceneHandle& s) { return sceneLabel(s.document()).toStdString(); })
        .def("parameters", &SceneHandle::parameters)
        .def("settings", &SceneHandle::settings)
        .def("derive", &SceneHandle::derive)
        .def("run", &SceneHandle::run, py::arg("settings"));
}

} // namespace

PYBIND11_MODULE(_core, m)
{
    m.doc() = "The ConstraintLab engine and file formats; use the package constraintlab.";
    registerErrorTranslation();
    m.def("scenes", &sceneNames, "The built-in scenes' names.");
    bindScene(m);
    py::class_<FitArguments>(m, "FitArguments", "What fit() passes to the engine.")
        .def(py::init<>())
        .def_readwrite("path", &FitArguments::path)
        .def_readwrite("names", &FitArguments::names)
        .def_readwrite("values", &FitArguments::values)
        .def_readwrite("map", &FitArguments::map)
        .def_readwrite("sigma", &FitArguments::sigma)
        .def_readwrite("parameters", &FitArguments::parameters)
        .def_readwrite("bounds", &FitArguments::bounds)
        .def_readwrite("time_column", &FitArguments::timeColumn)
        .def_readwrite("time_scale", &FitArguments::timeScale)
        .def_readwrite("time_offset", &FitArguments::timeOffset)
        .def_readwrite("max_iterations", &FitArguments::maxIterations)
        .def_readwrite("settings", &FitArguments::settings);
    m.def("fit", &fitScene, py::arg("scene"), py::arg("arguments"),
          "Fits parameters of a scene to measurements (see constraintlab.fit).");
    m.def("sweep_shard", &sweepShard, py::arg("scene"), py::arg("axes"), py::arg("k"), py::arg("n"),
          py::arg("threads"), py::arg("settings"),
          "Runs shard k of n of a sweep's grid (see constraintlab.sweep).");
}
