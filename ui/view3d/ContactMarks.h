#pragma once

#include "view3d/ImpulseArrow.h"
#include "view3d/geometry/SceneGeometry.h"

#include <Eigen/Dense>
#include <vtkSmartPointer.h>

#include <vector>

class vtkActor;
class vtkPolyData;
class vtkRenderer;
class vtkSphereSource;

namespace clab {

class Trace;

/// \brief Marks on the trail where a one-sided contact left, touched or was struck
/// (docs/MATH.md §11): a small orange sphere at the trail's point at each event's time, shown
/// once the trail's head has passed it; and each impact's impulse, briefly, as an arrow
/// (ImpulseArrow).
///
/// On the overlay layer, so that the surface the body leaves never hides them.
class ContactMarks {
public:
    /// Adds the marks to `overlay`, which must outlive them.
    explicit ContactMarks(vtkRenderer* overlay);
    ~ContactMarks();
    ContactMarks(const ContactMarks&) = delete;
    ContactMarks& operator=(const ContactMarks&) = delete;

    /// One mark per instant with events of the run `trace` drawn by `geometry` (none without
    /// either), at the trail point of q stepped from the last sample before it by its q̇ and q̈.
    void rebuild(const SceneGeometry* geometry, const Trace* trace);
    /// Shows the marks of the events at or before t, and the arrow of an impact just before t.
    void setTime(double t);

    const std::vector<Eigen::Vector3d>& positions() const { return positions_; }
    const std::vector<double>& times() const { return times_; }
    /// How many marks show at the time last set.
    int shownCount() const { return shown_; }
    /// The legend's rows of the marks ("contact lets go, touches or is struck") and of the
    /// impulse arrow, when the run has any.
    void addLegendEntry(std::vector<SceneGeometry::LegendEntry>& entries) const;

    ImpulseArrow& impulse() { return impulse_; }
    const ImpulseArrow& impulse() const { return impulse_; }

    /// q at time t: a second-order step from the last sample before it (an event falls between
    /// output times; exact for a body in free flight, as a ball before its impact).
    static Eigen::VectorXd positionAt(const Trace& trace, double t);

private:
    void upload();

    std::vector<Eigen::Vector3d> positions_;
    std::vector<double> times_;
    int shown_ = 0;
    vtkSmartPointer<vtkPolyData> points_;
    vtkSmartPointer<vtkSphereSource> glyph_;
    vtkSmartPointer<vtkActor> actor_;
    ImpulseArrow impulse_;
};

} // namespace clab
