#pragma once

class vtkActor;
class vtkPolyData;
class vtkRenderer;
class vtkSphereSource;

namespace clab {

/// \brief Spheres of one size at the points of a poly data, drawn by one instanced actor (a
/// glyph mapper): the measured values' markers (MarkerLayer) and the contact events' marks
/// (ContactMarks).
class SphereGlyphs {
public:
    /// Gives `points` an empty point set and `glyph` its resolution (the caller sets its
    /// radius), puts both on `actor`'s mapper, hides the actor and adds it to `renderer`.
    static void build(vtkPolyData* points, vtkSphereSource* glyph, vtkActor* actor,
                      vtkRenderer* renderer);
};

} // namespace clab
