#include "view3d/geometry/SymbolicSystemGeometry.h"

#include <model/ConstraintLabError.h>
#include <symbolic/SymbolicSystem.h>

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkLineSource.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkTubeFilter.h>

#include <algorithm>
#include <cmath>

namespace clab {

namespace {

/// Points per curve: smooth for a ring or a cycloid at any framing.
constexpr int kCurveSamples = 240;

} // namespace

SymbolicSystemGeometry::SymbolicSystemGeometry(std::shared_ptr<const SymbolicModel> model,
                                               const ParameterValues& values)
    : model_(std::move(model)), view_(model_, values), n_(model_->dof())
{
    const SystemDescription& d = model_->description();

    // Where the points start: the system's completed initial state, else all coordinates 0.
    Eigen::VectorXd q0 = Eigen::VectorXd::Zero(n_);
    try {
        SymbolicSystem system(model_, values);
        Eigen::VectorXd qd0;
        system.initialState(q0, qd0);
    } catch (const std::exception&) {
        // Invalid initial values: the editor reports them; the drawing still helps.
    }

    addCurves();
    const int count =
        d.points.empty() ? (n_ % 3 == 0 ? n_ / 3 : (n_ + 1) / 2) : int(d.points.size());
    Eigen::AlignedBox3d start = fixedBox_;
    for (int i = 0; i < count; ++i)
        start.extend(pointPosition(i, q0, 0.0));
    if (!d.links.empty())
        start.extend(Eigen::Vector3d::Zero().eval());
    const double extent = start.isEmpty() ? 0.0 : start.diagonal().norm();
    size_ = std::isfinite(extent) && extent > 1e-9 ? extent : 1.0;

    const auto index = [&](const std::string& name) {
        for (std::size_t i = 0; i < d.points.size(); ++i)
            if (d.points[i].name == name)
                return static_cast<int>(i);
        return -1; // "origin"
    };
    for (const auto& [from, to] : d.links) {
        Link link{index(from), index(to), vtkSmartPointer<vtkLineSource>::New()};
        vtkNew<vtkTubeFilter> tube;
        tube->SetInputConnection(link.line->GetOutputPort());
        tube->SetRadius(0.008 * size_);
        tube->SetNumberOfSides(16);
        tube->CappingOn();
        tube->Update();
        vtkSmartPointer<vtkActor> actor =
            surfaceActor(tube->GetOutput(), constraintColor().darker(140));
        // Fed by the pipeline, so that moving the line's ends moves the rod.
        vtkPolyDataMapper::SafeDownCast(actor->GetMapper())
            ->SetInputConnection(tube->GetOutputPort());
        addProp(actor);
        links_.push_back(link);
    }
    const bool pivot = std::any_of(d.links.begin(), d.links.end(), [](const auto& link) {
        return link.first == "origin" || link.second == "origin";
    });
    if (pivot) {
        // The fixed point the links hang from.
        addProp(sphereActor(0.6 * bodyRadius(), constraintColor().darker(160)));
        fixedBox_.extend(Eigen::Vector3d::Zero().eval());
    }
    for (int i = 0; i < count; ++i) {
        const double radius = i < int(d.points.size()) && d.points[std::size_t(i)].radius > 0.0
                                  ? d.points[std::size_t(i)].radius
                                  : bodyRadius();
        // The last point carries the arrows: drawn dark like the built-in scenes' bodies.
        const QColor color = i + 1 == count ? bodyColor() : bodyColor().lighter(220);
        points_.push_back(sphereActor(radius, color));
        addProp(points_.back());
    }
    TraceSample first;
    first.q = q0;
    update(first);
}

SymbolicSystemGeometry::~SymbolicSystemGeometry() = default;

void SymbolicSystemGeometry::addCurves()
{
    for (std::size_t c = 0; c < model_->description().curves.size(); ++c) {
        vtkNew<vtkPoints> points;
        vtkNew<vtkCellArray> lines;
        lines->InsertNextCell(kCurveSamples);
        int k = 0;
        for (Eigen::Vector3d p : view_.curve(static_cast<int>(c), kCurveSamples)) {
            if (!p.allFinite())
                p.setZero();
            points->InsertNextPoint(p.data());
            lines->InsertCellPoint(k++);
            fixedBox_.extend(p);
        }
        vtkNew<vtkPolyData> polyline;
        polyline->SetPoints(points);
        polyline->SetLines(lines);
        vtkNew<vtkTubeFilter> tube;
        tube->SetInputData(polyline);
        const double extent = fixedBox_.diagonal().norm();
        tube->SetRadius(0.006 * (std::isfinite(extent) && extent > 0.0 ? extent : 1.0));
        tube->SetNumberOfSides(16);
        tube->Update();
        addProp(surfaceActor(tube->GetOutput(), constraintColor(), 0.45));
    }
}

Eigen::Vector3d SymbolicSystemGeometry::pointPosition(int i, const Eigen::VectorXd& q,
                                                      double t) const
{
    if (i < 0)
        return Eigen::Vector3d::Zero();
    if (!model_->description().points.empty()) {
        view_.points(q, t, xyz_);
        return xyz_.segment<3>(3 * i);
    }
    // No view: coordinates in triples (x, y, z), else pairs (x, y).
    const int stride = n_ % 3 == 0 ? 3 : 2;
    Eigen::Vector3d p = Eigen::Vector3d::Zero();
    for (int k = 0; k < stride && stride * i + k < q.size(); ++k)
        p[k] = q[stride * i + k];
    return p;
}

Eigen::Vector3d SymbolicSystemGeometry::bodyPosition(const Eigen::VectorXd& q) const
{
    return pointPosition(pointCount() - 1, q, t_);
}

Eigen::Vector3d SymbolicSystemGeometry::forceVector(const Eigen::VectorXd& q,
                                                    const Eigen::VectorXd& F) const
{
    return forceAt(pointCount() - 1, q, t_, F);
}

Eigen::Vector3d SymbolicSystemGeometry::forceAt(int i, const Eigen::VectorXd& q, double t,
                                                const Eigen::VectorXd& F) const
{
    // J = ∂p/∂q by central differences: the view's expressions are smooth where drawn.
    Eigen::Matrix<double, 3, Eigen::Dynamic> J(3, n_);
    Eigen::VectorXd x = q;
    for (int k = 0; k < n_; ++k) {
        const double h = 1e-6 * (1.0 + std::abs(q[k]));
        x[k] = q[k] + h;
        const Eigen::Vector3d plus = pointPosition(i, x, t);
        x[k] = q[k] - h;
        const Eigen::Vector3d minus = pointPosition(i, x, t);
        x[k] = q[k];
        J.col(k) = (plus - minus) / (2.0 * h);
    }
    const Eigen::Matrix3d JJt = J * J.transpose();
    return JJt.completeOrthogonalDecomposition().solve(J * F);
}

Eigen::Vector3d SymbolicSystemGeometry::extraArrowOrigin(int i, const TraceSample& sample) const
{
    return pointPosition(i, sample.q, sample.t);
}

Eigen::Vector3d SymbolicSystemGeometry::extraArrowVector(int i, const TraceSample& sample,
                                                         ForceKind kind) const
{
    const Eigen::VectorXd& F = generalizedForce(sample, kind);
    return F.size() == n_ ? forceAt(i, sample.q, sample.t, F) : Eigen::Vector3d::Zero();
}

void SymbolicSystemGeometry::fitToTrace(const Trace& trace)
{
    motion_.setEmpty();
    for (const TraceSample& s : trace.samples)
        for (int i = 0; i < pointCount(); ++i) {
            const Eigen::Vector3d p = pointPosition(i, s.q, s.t);
            if (p.allFinite())
                motion_.extend(p);
        }
}

Eigen::AlignedBox3d SymbolicSystemGeometry::frameBox() const
{
    Eigen::AlignedBox3d box = fixedBox_;
    box.extend(motion_);
    if (box.isEmpty())
        return SceneGeometry::frameBox();
    return box;
}

Eigen::Vector3d SymbolicSystemGeometry::viewUp() const
{
    const char up = model_->description().up;
    return up == 'z'   ? Eigen::Vector3d::UnitZ()
           : up == 'x' ? Eigen::Vector3d::UnitX()
                       : Eigen::Vector3d::UnitY();
}

Eigen::Vector3d SymbolicSystemGeometry::viewDirection() const
{
    switch (model_->description().up) {
    case 'z':
        return Eigen::Vector3d(0.55, -1.0, 0.45).normalized();
    case 'x':
        return Eigen::Vector3d(0.30, 0.22, 1.0).normalized();
    default:
        return SceneGeometry::viewDirection();
    }
}

void SymbolicSystemGeometry::update(const TraceSample& sample)
{
    t_ = sample.t;
    std::vector<Eigen::Vector3d> at;
    for (int i = 0; i < pointCount(); ++i) {
        at.push_back(pointPosition(i, sample.q, sample.t));
        points_[static_cast<std::size_t>(i)]->SetPosition(at.back().data());
    }
    const auto end = [&](int i) {
        return i < 0 ? Eigen::Vector3d::Zero().eval() : at[std::size_t(i)];
    };
    for (const Link& link : links_) {
        link.line->SetPoint1(end(link.a).data());
        link.line->SetPoint2(end(link.b).data());
    }
}

} // namespace clab
