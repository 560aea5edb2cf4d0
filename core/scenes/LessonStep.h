#pragma once

#include "model/ParameterSpec.h"
#include "scenes/SceneDocument.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace clab {

/// \brief One state of a lesson: a scene with parameter values, the runs to compare it with,
/// the camera, the plot and a caption (formats/LessonFile reads and writes them).
struct LessonStep {
    /// Where the camera stands, what it looks at and which way is up, in scene units.
    struct Camera {
        std::array<double, 3> position{};
        std::array<double, 3> focalPoint{};
        std::array<double, 3> viewUp{0.0, 1.0, 0.0};
        friend bool operator==(const Camera&, const Camera&) = default;
    };

    /// A built-in scene's name, or the absolute path of a scene file.
    std::string scene;
    /// The values the step sets; the others keep the scene's.
    ParameterValues parameters;
    /// The scene with the step's values: what the step shows.
    SceneDocument document;
    /// Ghost runs to compare with: each the values that differ from the step's.
    std::vector<ParameterValues> compare;
    /// Empty: the view frames the scene itself.
    std::optional<Camera> camera;
    /// A ready-made plot's id (core/trace/PlotCatalog); empty: the plot stays as it is.
    std::string plot;
    /// A sentence or two for the class.
    std::string caption;

    /// `document` with `values` put over its parameters (a compare run).
    SceneDocument comparedDocument(const ParameterValues& values) const
    {
        SceneDocument run = document;
        for (const auto& [name, value] : values)
            run.parameters[name] = value;
        return run;
    }

    friend bool operator==(const LessonStep&, const LessonStep&) = default;
};

} // namespace clab
