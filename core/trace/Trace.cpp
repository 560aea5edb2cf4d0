#include "trace/Trace.h"

#include "model/ConstraintLabError.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace clab {

namespace {

// Per-coordinate column stems, in the order of the CSV layout.
constexpr int kPerCoordinate = 6;
constexpr int kEnergyColumns = 6; // T, V, E, W_nonideal, residual_max, E_error

} // namespace

Trace::Trace(std::vector<std::string> coordinates, std::vector<std::string> extras, bool rheonomic,
             std::vector<std::string> contacts)
    : coordinates_(std::move(coordinates)), extras_(std::move(extras)),
      contacts_(std::move(contacts)), coordinateUnits_(coordinates_.size(), "m"),
      extraUnits_(extras_.size()), rheonomic_(rheonomic)
{
}

void Trace::setUnits(std::vector<std::string> coordinateUnits, std::vector<std::string> extraUnits)
{
    if (coordinateUnits.size() != coordinates_.size() || extraUnits.size() != extras_.size())
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "Trace::setUnits: " + std::to_string(coordinateUnits.size()) +
                                     " coordinate and " + std::to_string(extraUnits.size()) +
                                     " extra units given for " +
                                     std::to_string(coordinates_.size()) + " coordinates and " +
                                     std::to_string(extras_.size()) + " extra columns");
    coordinateUnits_ = std::move(coordinateUnits);
    extraUnits_ = std::move(extraUnits);
}

std::vector<std::string> Trace::columnNames() const
{
    std::vector<std::string> names;
    names.reserve(1 + kPerCoordinate * coordinates_.size() + kEnergyColumns + 1 + contacts_.size() +
                  extras_.size());
    names.emplace_back("t");
    for (const std::string& c : coordinates_) {
        names.push_back(c);
        names.push_back(c + "_dot");
        names.push_back(c + "_ddot");
        names.push_back("Q_" + c);
        names.push_back("Qci_" + c);
        names.push_back("Qcni_" + c);
    }
    for (const char* name : {"T", "V", "E", "W_nonideal", "residual_max", "E_error"})
        names.emplace_back(name);
    if (rheonomic_)
        names.emplace_back("W_ideal");
    if (hasImpactWork())
        names.emplace_back("W_impact");
    if (contacts_.size() == 1)
        names.emplace_back("contact");
    else
        for (const std::string& c : contacts_)
            names.push_back("contact_" + c);
    names.insert(names.end(), extras_.begin(), extras_.end());
    return names;
}

int Trace::columnIndex(const std::string& name) const
{
    const std::vector<std::string> names = columnNames();
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name)
            return static_cast<int>(i);
    return -1;
}

void Trace::row(std::size_t sample, std::vector<double>& out) const
{
    if (sample >= samples.size())
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "Trace::row: sample " + std::to_string(sample) +
                                     " is out of range (the trace has " +
                                     std::to_string(samples.size()) + " samples)");
    row(samples[sample], out);
}

void Trace::row(const TraceSample& s, std::vector<double>& out) const
{
    const auto n = static_cast<Eigen::Index>(coordinates_.size());
    const auto extras = static_cast<Eigen::Index>(extras_.size());
    const auto contacts = static_cast<Eigen::Index>(contacts_.size());
    auto sized = [n](const Eigen::VectorXd& v) {
        return v.size() == n;
    };
    if (!sized(s.q) || !sized(s.qd) || !sized(s.qdd) || !sized(s.Q) || !sized(s.Qci) ||
        !sized(s.Qcni) || s.extra.size() != extras || s.contacts.size() != contacts)
        throw ConstraintLabError(
            ConstraintLabError::Kind::InvalidParameter,
            "Trace::row: the sample at t = " + ConstraintLabError::number(s.t) +
                " does not match the trace's " + std::to_string(n) + " coordinates, " +
                std::to_string(contacts) + " contacts and " + std::to_string(extras) +
                " extra columns");

    out.clear();
    out.reserve(1 + kPerCoordinate * n + kEnergyColumns + 1 + contacts + extras);
    out.push_back(s.t);
    for (Eigen::Index i = 0; i < n; ++i) {
        out.push_back(s.q[i]);
        out.push_back(s.qd[i]);
        out.push_back(s.qdd[i]);
        out.push_back(s.Q[i]);
        out.push_back(s.Qci[i]);
        out.push_back(s.Qcni[i]);
    }
    out.push_back(s.T);
    out.push_back(s.V);
    out.push_back(s.E);
    out.push_back(s.W_nonideal);
    out.push_back(s.residualMax);
    out.push_back(s.E_error);
    if (rheonomic_)
        out.push_back(s.W_ideal);
    if (hasImpactWork())
        out.push_back(s.W_impact);
    for (Eigen::Index i = 0; i < contacts; ++i)
        out.push_back(s.contacts[i]);
    for (Eigen::Index i = 0; i < extras; ++i)
        out.push_back(s.extra[i]);
}

std::vector<double> Trace::column(int index) const
{
    const int count = static_cast<int>(columnNames().size());
    if (index < 0 || index >= count)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "Trace::column: index " + std::to_string(index) +
                                     " is out of range (the trace has " + std::to_string(count) +
                                     " columns)");
    std::vector<double> values;
    values.reserve(samples.size());
    std::vector<double> r;
    for (std::size_t k = 0; k < samples.size(); ++k) {
        row(k, r);
        values.push_back(r[static_cast<std::size_t>(index)]);
    }
    return values;
}

std::size_t Trace::sampleIndexAt(double t) const
{
    if (samples.empty()) {
        return 0;
    }
    const double tolerance = 1e-9 * (1.0 + std::abs(t));
    const auto it =
        std::upper_bound(samples.begin(), samples.end(), t + tolerance,
                         [](double value, const TraceSample& sample) { return value < sample.t; });
    return it == samples.begin() ? 0 : static_cast<std::size_t>(it - samples.begin()) - 1;
}

} // namespace clab
