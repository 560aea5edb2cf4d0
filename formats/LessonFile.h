#pragma once

#include "FileError.h"
#include "scenes/Lesson.h"

#include <QByteArray>
#include <QString>

namespace clab {

/// \brief Reads and writes lesson files: a sequence of states for presentation mode.
///
///     {
///         "lesson": 1,
///         "title": "Friction on an incline",
///         "steps": [
///             {"scene": "bead-on-wire", "parameters": {"mu": 0.8, "angle_deg": 30},
///              "compare": [{"mu": 0.3}], "plot": "energy",
///              "camera": {"position": [0, 0, 6], "focal_point": [0, 0, 0], "view_up": [0, 1, 0]},
///              "caption": "μ > tan θ: the bead stays put"},
///             {"scene": "my-scene.json", ...}
///         ]
///     }
///
/// "lesson" (the format, 1) and "steps" (at least one) are required, as is each step's "scene":
/// a built-in scene's name, or a scene file (a name ending in .json or holding a "/"), relative
/// to the lesson file. The rest is optional. Read strictly like scene files: unknown keys, wrong
/// types and bad values (a parameter the scene lacks or out of range, a plot that is not a
/// ready-made one, a camera looking at itself) are refused with a FileError naming the file, the
/// key ("steps[1].parameters.mu") and the reason; a scene file that cannot be read names it.
class LessonFile {
public:
    static constexpr int formatVersion = 1;
    /// The longest caption a step may have, in characters.
    static constexpr int maxCaption = 400;

    /// True when `json` is an object with a "lesson" member (File → Open tells lessons apart
    /// from scenes by their content).
    static bool looksLikeLesson(const QByteArray& json);
    /// Reads a lesson file; scene files are resolved against its folder. Throws FileError.
    static Lesson load(const QString& path);
    /// Parses lesson JSON; `source` names it in errors, `folder` is where relative scene files
    /// are looked up.
    static Lesson fromJson(const QByteArray& json, const QString& source, const QString& folder);
    /// Indented JSON; scene files as paths relative to `folder`.
    static QByteArray toJson(const Lesson& lesson, const QString& folder);
    /// Writes atomically (AtomicFile). Throws FileError.
    static void save(const Lesson& lesson, const QString& path);
};

} // namespace clab
