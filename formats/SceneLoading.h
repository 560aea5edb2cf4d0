#pragma once

#include "scenes/SceneDocument.h"

#include <QString>

namespace clab {

class SymbolicModel;

// How a scene argument (the CLI's SCENE, Python's load()) becomes a scene: a built-in name unless
// it looks like a path (contains '/' or ends in .json); a file of that name is the last resort.

bool looksLikePath(const QString& scene);
bool isBuiltInName(const QString& scene);
/// Only what the file states (checked for structure), so that --set mu=... also moves a mu_s
/// the file leaves to follow mu; completed and validated after the command-line overrides.
SceneDocument loadScene(const QString& scene);
/// The equations of a format-2 document (`derive`); FileError naming `scene` for a built-in
/// scene, whose equations are C++.
const SymbolicModel& derivableSystem(const SceneDocument& document, const QString& scene);
/// How messages name a scene: its built-in name, or "system TITLE" for one from equations.
QString sceneLabel(const SceneDocument& document);

} // namespace clab
