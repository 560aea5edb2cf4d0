#include "view3d/SphereGlyphs.h"

#include <vtkActor.h>
#include <vtkGlyph3DMapper.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>

namespace clab {

void SphereGlyphs::build(vtkPolyData* points, vtkSphereSource* glyph, vtkActor* actor,
                         vtkRenderer* renderer)
{
    points->SetPoints(vtkNew<vtkPoints>());
    glyph->SetThetaResolution(10);
    glyph->SetPhiResolution(8);
    vtkNew<vtkGlyph3DMapper> glyphs;
    glyphs->SetInputData(points);
    glyphs->SetSourceConnection(glyph->GetOutputPort());
    glyphs->ScalingOff();
    glyphs->OrientOff();
    glyphs->ScalarVisibilityOff();
    actor->SetMapper(glyphs);
    actor->VisibilityOff();
    renderer->AddViewProp(actor);
}

} // namespace clab
