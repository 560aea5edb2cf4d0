#pragma once

#include "integrate/RunStats.h"
#include "model/ContactEvent.h"
#include "trace/TraceSample.h"

#include <string>
#include <utility>
#include <vector>

namespace clab {

/// \brief A sampled trajectory with its forces and energies; the table behind CSV and plots.
///
/// Column order (shared by CSV export and plots): t; per coordinate c: c, c_dot, c_ddot, Q_c,
/// Qci_c, Qcni_c; then T, V, E, W_nonideal, residual_max, E_error; then W_ideal when the
/// constraints are rheonomic; then, for systems with frictional contacts, the contact mode
/// (1 sliding, 0 stuck) in a column named "contact" (one contact) or "contact_NAME" (several);
/// then the scene's extra columns.
///
/// E_error = E − E(0) − W_nonideal − W_given_nc − W_ideal is the energy audit: it stays at the
/// level of the integration tolerance times the energy scale of the run (the largest of |E(0)|,
/// T, |V − V(0)| and the works).
class Trace {
public:
    Trace() = default;
    Trace(std::vector<std::string> coordinates, std::vector<std::string> extras, bool rheonomic,
          std::vector<std::string> contacts = {});

    const std::vector<std::string>& coordinateNames() const { return coordinates_; }
    const std::vector<std::string>& extraNames() const { return extras_; }
    /// Names of the frictional contacts (MechanicalSystem::contactName), empty without contacts.
    const std::vector<std::string>& contactNames() const { return contacts_; }
    bool hasIdealWork() const { return rheonomic_; }
    /// One-sided contacts (docs/MATH.md §11): their names (for leave, touch and impact events)
    /// and, when there are any, a W_impact column after W_ideal.
    void setUnilateralNames(std::vector<std::string> names) { unilaterals_ = std::move(names); }
    const std::vector<std::string>& unilateralNames() const { return unilaterals_; }
    bool hasImpactWork() const { return !unilaterals_.empty(); }

    /// SI units of the coordinates ("m", or "" when dimensionless) and of the extra columns,
    /// one per name (MechanicalSystem::coordinateUnit, extraColumnUnit). Until set, every
    /// coordinate is in metres and every extra column is dimensionless.
    const std::vector<std::string>& coordinateUnits() const { return coordinateUnits_; }
    const std::vector<std::string>& extraUnits() const { return extraUnits_; }
    /// Throws ConstraintLabError(InvalidParameter) when the counts do not match the names.
    void setUnits(std::vector<std::string> coordinateUnits, std::vector<std::string> extraUnits);

    std::vector<std::string> columnNames() const;
    /// Index of a column by name, or -1.
    int columnIndex(const std::string& name) const;
    /// One row in column order. Throws ConstraintLabError(InvalidParameter) when `sample` is
    /// out of range or the sample's vectors do not match the trace's coordinates and extras.
    void row(std::size_t sample, std::vector<double>& out) const;
    /// The row of a sample that is not stored (a streamed one), with the same checks.
    void row(const TraceSample& sample, std::vector<double>& out) const;
    /// One column over all samples; throws ConstraintLabError(InvalidParameter) when `index` is
    /// out of range.
    std::vector<double> column(int index) const;

    /// Index of the sample shown at time `t`: the last one at or before t, where a sample within
    /// 1e-9 (1 + |t|) after t counts as at t (a clock's t = k dt summed in floating point lands
    /// a hair before the k-th sample); 0 before the first sample and for an empty trace.
    std::size_t sampleIndexAt(double t) const;

    std::vector<TraceSample> samples;
    /// Stick, slip and reversal events of the contacts, in time order.
    std::vector<ContactEvent> events;
    bool cancelled = false;
    /// The run watched for the end of the scene's track (SimulationOptions::stopAtEnd on a scene
    /// that has one) ...
    bool stopAtEnd = false;
    /// ... and reached it: the last sample is there, at the located time (not on the dt grid).
    bool reachedEnd = false;
    /// What the run that produced the trace cost (steps, evaluations, events, time).
    RunStats stats;

private:
    std::vector<std::string> coordinates_;
    std::vector<std::string> extras_;
    std::vector<std::string> contacts_;
    std::vector<std::string> coordinateUnits_;
    std::vector<std::string> extraUnits_;
    bool rheonomic_ = false;
    std::vector<std::string> unilaterals_;
};

} // namespace clab
