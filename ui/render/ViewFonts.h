#pragma once

#include <string>

class vtkTextProperty;

namespace clab {

/// \brief Fonts of the 3D view's text: a TrueType file with the glyphs the legends need
/// (ᶜ, ᵢ, ₙ, ω, Γ, dotted letters), found once among the usual system locations.
class ViewFonts {
public:
    /// Path of a sans-serif (or monospace) font with wide Unicode coverage; empty if none.
    static const std::string& sansPath();
    static const std::string& monoPath();
    /// Makes `property` use that font; VTK's built-in Arial is kept when no file was found.
    static void apply(vtkTextProperty* property, bool monospace = false);
};

} // namespace clab
