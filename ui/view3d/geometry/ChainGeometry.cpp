#include "view3d/geometry/ChainGeometry.h"

#include <ConstraintLabError.h>

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkGlyph3DMapper.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkSphereSource.h>

#include <algorithm>
#include <cmath>

namespace clab {

ChainGeometry::ChainGeometry(const Chain& system)
    : links_(system.links()), length_(system.links() * system.linkLength())
{
    if (links_ < 1 || !(length_ > 0.0))
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "ChainGeometry: need at least one link and a positive "
                                 "length, got " +
                                     std::to_string(links_) + " links of total length " +
                                     std::to_string(length_));
    const double ell = length_ / links_;
    // Point 0 is the pivot, point i the bob at the end of link i; straight along x until the
    // first sample arrives.
    bobs_ = vtkSmartPointer<vtkPoints>::New();
    bobs_->SetNumberOfPoints(links_ + 1);
    for (int i = 0; i <= links_; ++i)
        bobs_->SetPoint(i, i * ell, 0.0, 0.0);

    chain_ = vtkSmartPointer<vtkPolyData>::New();
    chain_->SetPoints(bobs_);
    vtkNew<vtkCellArray> line;
    line->InsertNextCell(links_ + 1);
    for (int i = 0; i <= links_; ++i)
        line->InsertCellPoint(i);
    chain_->SetLines(line);
    vtkSmartPointer<vtkActor> links = surfaceActor(chain_, constraintColor().darker(140), 0.0);
    links->GetProperty()->SetLineWidth(2.0f);
    links->GetProperty()->LightingOff();
    addProp(links);

    // One sphere glyph per bob, the size of a link at most so that neighbours do not merge.
    centres_ = vtkSmartPointer<vtkPolyData>::New();
    centres_->SetPoints(bobs_);
    vtkNew<vtkSphereSource> sphere;
    sphere->SetRadius(std::min(bodyRadius(), 0.35 * ell));
    sphere->SetThetaResolution(links_ > 500 ? 8 : 16);
    sphere->SetPhiResolution(links_ > 500 ? 6 : 12);
    vtkNew<vtkGlyph3DMapper> glyphs;
    glyphs->SetInputData(centres_);
    glyphs->SetSourceConnection(sphere->GetOutputPort());
    glyphs->ScalingOff();
    glyphs->OrientOff();
    glyphs->ScalarVisibilityOff();
    auto bobActor = vtkSmartPointer<vtkActor>::New();
    bobActor->SetMapper(glyphs);
    bobActor->GetProperty()->SetColor(bodyColor().redF(), bodyColor().greenF(),
                                      bodyColor().blueF());
    addProp(bobActor);

    // The pivot(s): blocks the chain hangs from.
    const double block = 0.04 * length_;
    const auto pivot = [&](double x) {
        return boxActor(Eigen::AlignedBox3d(Eigen::Vector3d(x - block, 0.0, -block),
                                            Eigen::Vector3d(x + block, 1.5 * block, block)),
                        groundColor().darker(130));
    };
    addProp(pivot(0.0));
    actors_ = 3;
    if (system.pinnedEnds() == 2) {
        addProp(pivot(system.span()));
        actors_ = 4;
    }
}

void ChainGeometry::update(const TraceSample& sample)
{
    const int bobs = std::min<int>(links_, static_cast<int>(sample.q.size() / 2));
    for (int i = 0; i < bobs; ++i)
        bobs_->SetPoint(i + 1, sample.q[2 * i], sample.q[2 * i + 1], 0.0);
    bobs_->Modified();
    chain_->Modified();
    centres_->Modified();
}

Eigen::Vector3d ChainGeometry::drawnBob(int i) const
{
    double p[3];
    bobs_->GetPoint(i, p);
    return {p[0], p[1], p[2]};
}

Eigen::Vector3d ChainGeometry::bodyPosition(const Eigen::VectorXd& q) const
{
    const Eigen::Index last = 2 * (links_ - 1);
    if (q.size() < last + 2)
        return Eigen::Vector3d::Zero();
    return {q[last], q[last + 1], 0.0};
}

Eigen::Vector3d ChainGeometry::forceVector(const Eigen::VectorXd& q, const Eigen::VectorXd& F) const
{
    (void)q;
    const Eigen::Index last = 2 * (links_ - 1);
    if (F.size() < last + 2)
        return Eigen::Vector3d::Zero();
    return {F[last], F[last + 1], 0.0};
}

Eigen::AlignedBox3d ChainGeometry::frameBox() const
{
    return Eigen::AlignedBox3d(Eigen::Vector3d(-length_, -length_, -0.1 * length_),
                               Eigen::Vector3d(length_, 0.2 * length_, 0.1 * length_));
}

} // namespace clab
