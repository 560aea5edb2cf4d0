#include "view3d/geometry/RigidBodyQuaternionGeometry.h"

#include <vtkActor.h>
#include <vtkCubeSource.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>

namespace clab {

namespace {

QColor axisColor(int k)
{
    // Muted versions of the usual x/y/z colours; they must not compete with the force arrows.
    static const QColor colors[3] = {QColor(0x9E, 0x4A, 0x4A), QColor(0x4A, 0x7D, 0x4A),
                                     QColor(0x4A, 0x5E, 0x9E)};
    return colors[k];
}

QString formatComponents(const Eigen::VectorXd& F)
{
    QStringList parts;
    for (int i = 0; i < F.size(); ++i) {
        parts << QString::asprintf("%+8.3f", F[i]);
    }
    return QStringLiteral("(") + parts.join(QStringLiteral(" ")) + QStringLiteral(" )");
}

} // namespace

Eigen::Matrix<double, 3, 4> RigidBodyQuaternionGeometry::E(const Eigen::Vector4d& u)
{
    Eigen::Matrix<double, 3, 4> e;
    e << -u[1], u[0], u[3], -u[2], //
        -u[2], -u[3], u[0], u[1],  //
        -u[3], u[2], -u[1], u[0];
    return e;
}

Eigen::Matrix3d RigidBodyQuaternionGeometry::rotation(const Eigen::Vector4d& u)
{
    const double n = u.norm();
    if (!(n > 0.0) || !std::isfinite(n)) {
        return Eigen::Matrix3d::Identity();
    }
    return Eigen::Quaterniond(u[0] / n, u[1] / n, u[2] / n, u[3] / n).toRotationMatrix();
}

Eigen::Vector3d RigidBodyQuaternionGeometry::boxHalfExtents(const Eigen::Vector3d& J)
{
    // Uniform box with half extents a: J1 = m (a2² + a3²)/3, so a1² ∝ J2 + J3 − J1.
    Eigen::Vector3d a;
    for (int i = 0; i < 3; ++i) {
        const double s = J[(i + 1) % 3] + J[(i + 2) % 3] - J[i];
        a[i] = std::sqrt(std::max(s, 0.0));
    }
    const double largest = a.maxCoeff();
    if (!(largest > 0.0)) {
        return Eigen::Vector3d::Ones();
    }
    a /= largest;
    // A J that violates the triangle inequality (or a flat plate) still gets a visible slab.
    return a.cwiseMax(Eigen::Vector3d::Constant(0.06));
}

RigidBodyQuaternionGeometry::RigidBodyQuaternionGeometry(const RigidBodyQuaternion& system)
    : J_(system.inertia()), pose_(vtkSmartPointer<vtkMatrix4x4>::New())
{
    halfExtents_ = boxHalfExtents(J_);

    vtkNew<vtkCubeSource> cube;
    cube->SetXLength(2.0 * halfExtents_.x());
    cube->SetYLength(2.0 * halfExtents_.y());
    cube->SetZLength(2.0 * halfExtents_.z());
    cube->Update();
    QColor boxColor(0xD9, 0xCF, 0xBF);
    boxColor.setAlphaF(0.55);
    box_ = surfaceActor(cube->GetOutput(), boxColor, 0.2);
    box_->GetProperty()->EdgeVisibilityOn();
    box_->GetProperty()->SetEdgeColor(0.45, 0.42, 0.38);
    box_->GetProperty()->SetLineWidth(1.5f);
    box_->SetUserMatrix(pose_);
    addProp(box_);

    const double size = sceneSize();
    for (int k = 0; k < 3; ++k) {
        const Eigen::Vector3d tip = (halfExtents_[k] + 0.35) * Eigen::Vector3d::Unit(k);
        auto axis = rodActor(-tip, tip, 0.008 * size, axisColor(k));
        axis->SetUserMatrix(pose_);
        addProp(axis);
        WorldLabel& label = axisLabels_[k];
        label.setText(std::to_string(k + 1));
        vtkTextProperty* tp = label.textProperty();
        tp->SetFontSize(18);
        tp->BoldOn();
        tp->SetColor(axisColor(k).redF(), axisColor(k).greenF(), axisColor(k).blueF());
        tp->SetJustificationToCentered();
        tp->SetVerticalJustificationToCentered();
        addProp(label.actor());
    }

    // Trail the tip of a body axis across the spin: it sweeps circles while the body spins
    // steadily, and the circles jump when the spin axis flips (Dzhanibekov). Of the axes least
    // aligned with the initial ω, the longest one draws the largest circles.
    const Eigen::Vector3d w = system.initialAngularVelocity();
    const double wn0 = w.norm();
    double best = std::numeric_limits<double>::infinity();
    for (int k = 0; k < 3; ++k) {
        const double alignment = wn0 > 0.0 ? std::abs(w[k]) / wn0 : 0.0;
        const double score = alignment - 0.1 * halfExtents_[k];
        if (score < best) {
            best = score;
            trailAxis_ = k;
        }
    }

    for (ForceArrow* arrow : {&omega_, &momentum_}) {
        arrow->setDimensions(0.012 * size, 0.032 * size, 0.085 * size);
        arrow->setMinimumLength(0.01 * size);
        addProp(arrow->actor());
    }
    omega_.setColor(omegaColor());
    momentum_.setColor(momentumColor());
    const double wn = w.norm();
    omegaScale_ = wn > 0.0 ? 0.42 * size / wn : 1.0;
    const double Ln = J_.cwiseProduct(w).norm();
    momentumScale_ = Ln > 0.0 ? 0.36 * size / Ln : 1.0;
}

Eigen::Vector3d RigidBodyQuaternionGeometry::bodyPosition(const Eigen::VectorXd& q) const
{
    (void)q;
    return Eigen::Vector3d::Zero();
}

Eigen::Vector3d RigidBodyQuaternionGeometry::trailPoint(const Eigen::VectorXd& q) const
{
    const Eigen::Vector4d u = q.head<4>();
    return rotation(u) * ((halfExtents_[trailAxis_] + 0.35) * Eigen::Vector3d::Unit(trailAxis_));
}

Eigen::Vector3d RigidBodyQuaternionGeometry::forceVector(const Eigen::VectorXd& q,
                                                         const Eigen::VectorXd& F) const
{
    const Eigen::Vector4d u = q.head<4>();
    const double n = u.norm();
    const Eigen::Vector4d un = n > 0.0 ? Eigen::Vector4d(u / n) : u;
    // Body torque ½ E(u) F, then world axes.
    const Eigen::Vector3d bodyTorque = 0.5 * E(un) * F.head<4>();
    return rotation(un) * bodyTorque;
}

Eigen::Vector3d RigidBodyQuaternionGeometry::arrowVector(const TraceSample& sample,
                                                         ForceKind kind) const
{
    const Eigen::Vector3d torque = SceneGeometry::arrowVector(sample, kind);
    if (kind != ForceKind::Given || sample.qd.size() < 4 || sample.q.size() < 4) {
        return torque;
    }
    // Q = −4 E(u̇)ᵀ J ω + 2 E(u)ᵀ τ and E(u) E(u)ᵀ = I for a unit u, so the applied torque is
    // τ = ½ E(u) Q + 2 E(u) E(u̇)ᵀ J ω (body axes), ω = 2 E(u) u̇.
    const Eigen::Vector4d u = sample.q.head<4>();
    const double n = u.norm();
    const Eigen::Vector4d un = n > 0.0 ? Eigen::Vector4d(u / n) : u;
    const Eigen::Vector4d ud = sample.qd.head<4>();
    const Eigen::Vector3d w = 2.0 * E(un) * ud;
    const Eigen::Vector3d gyroscopic = 2.0 * E(un) * E(ud).transpose() * J_.cwiseProduct(w);
    return torque + rotation(un) * gyroscopic;
}

QString RigidBodyQuaternionGeometry::forceLabel(ForceKind kind) const
{
    switch (kind) {
    case ForceKind::Given:
        return QStringLiteral("\u0393(Q)  given torque");
    case ForceKind::IdealConstraint:
        return QStringLiteral("\u0393(Q\u1D9C\u1D62)  ideal (always 0)");
    case ForceKind::NonIdealConstraint:
        return QStringLiteral("\u0393(Q\u1D9C\u2099\u1D62)  non-ideal torque");
    }
    return {};
}

QString RigidBodyQuaternionGeometry::forceDescription(ForceKind kind) const
{
    switch (kind) {
    case ForceKind::Given:
        return QStringLiteral("Given torque (none on a free body)");
    case ForceKind::IdealConstraint:
        return QStringLiteral("Torque of the ideal constraint \u2016u\u2016 = 1 (always zero)");
    case ForceKind::NonIdealConstraint:
        return QStringLiteral("Non-ideal torque (friction; none acts on this body)");
    }
    return {};
}

QStringList RigidBodyQuaternionGeometry::readouts(const TraceSample& sample) const
{
    if (sample.qd.size() < 4) {
        return {};
    }
    const Eigen::Vector4d u = sample.q.head<4>();
    const Eigen::Vector3d w = 2.0 * E(u / u.norm()) * sample.qd.head<4>();
    return {QStringLiteral("\u2016\u03C9\u2016 = %1 1/s").arg(w.norm(), 0, 'f', 3),
            QStringLiteral("\u2016L\u2016 = %1 kg\u00B7m\u00B2/s")
                .arg(J_.cwiseProduct(w).norm(), 0, 'f', 3)};
}

Eigen::AlignedBox3d RigidBodyQuaternionGeometry::frameBox() const
{
    // Everything the body can sweep: a sphere around the centre.
    const double r = 0.45 * sceneSize();
    return {Eigen::Vector3d::Constant(-r), Eigen::Vector3d::Constant(r)};
}

Eigen::Vector3d RigidBodyQuaternionGeometry::viewDirection() const
{
    return Eigen::Vector3d(1.0, 0.8, 0.55).normalized();
}

std::vector<SceneGeometry::LegendEntry> RigidBodyQuaternionGeometry::extraLegendEntries() const
{
    return {{QStringLiteral("\u03C9  angular velocity"), omegaColor()},
            {QStringLiteral("L  angular momentum"), momentumColor()}};
}

void RigidBodyQuaternionGeometry::fitToTrace(const Trace& trace)
{
    double wMax = 0.0;
    double lMax = 0.0;
    for (const TraceSample& s : trace.samples) {
        const Eigen::Vector4d u = s.q.head<4>();
        const Eigen::Vector3d w = 2.0 * E(u) * s.qd.head<4>();
        if (w.allFinite()) {
            wMax = std::max(wMax, w.norm());
            lMax = std::max(lMax, J_.cwiseProduct(w).norm());
        }
    }
    const double size = sceneSize();
    if (wMax > 0.0) {
        omegaScale_ = 0.42 * size / wMax;
    }
    if (lMax > 0.0) {
        momentumScale_ = 0.36 * size / lMax;
    }
}

void RigidBodyQuaternionGeometry::update(const TraceSample& sample)
{
    const Eigen::Vector4d u = sample.q.head<4>();
    const Eigen::Matrix3d R = rotation(u);
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) {
            pose_->SetElement(r, c, R(r, c));
        }
    }
    pose_->Modified();
    for (vtkProp* prop : {static_cast<vtkProp*>(box_)}) {
        prop->Modified();
    }
    for (int k = 0; k < 3; ++k) {
        const Eigen::Vector3d p = R * ((halfExtents_[k] + 0.45) * Eigen::Vector3d::Unit(k));
        axisLabels_[k].setPosition(p);
    }
    if (sample.qd.size() >= 4) {
        const Eigen::Vector3d wBody = 2.0 * E(u / u.norm()) * sample.qd.head<4>();
        omega_.set(Eigen::Vector3d::Zero(), omegaScale_ * (R * wBody));
        momentum_.set(Eigen::Vector3d::Zero(), momentumScale_ * (R * J_.cwiseProduct(wBody)));
    } else {
        omega_.clear();
        momentum_.clear();
    }
}

QString RigidBodyQuaternionGeometry::annotation(const TraceSample& sample) const
{
    QStringList lines;
    lines << QStringLiteral("Quaternion-space forces (u\u2080 u\u2081 u\u2082 u\u2083)");
    const struct {
        const char* name;
        const Eigen::VectorXd* F;
    } rows[] = {{"Q    ", &sample.Q},
                {"Q\u1D9C\u1D62  ", &sample.Qci},
                {"Q\u1D9C\u2099\u1D62 ", &sample.Qcni}};
    for (const auto& row : rows) {
        if (row.F->size() >= 4) {
            lines << QString::fromUtf8(row.name) + QStringLiteral("= ") +
                         formatComponents(row.F->head(4));
        }
    }
    lines << QStringLiteral("drawn as torques \u00BD E(u) F, Q without its gyroscopic part");
    return lines.join(QLatin1Char('\n'));
}

} // namespace clab
