#pragma once

#include <vtkAxis.h>

#include <string>
#include <vector>

namespace clab {

/// \brief A chart axis whose ticks follow the size of their labels.
///
/// VTK spaces ticks a fixed 45 (bottom) or 30 (left) pixels apart whatever the font, so labels
/// scaled up for print ("0.050.10.15…" at ×2) run into each other. This axis picks the
/// densest "nice" step (1, 2 or 5 × 10ᵏ; whole decades on a log axis) whose labels, measured
/// with the label font, keep a gap of two label heights between neighbours (one and a half
/// on a vertical axis). Its title keeps clear of the labels at any scale.
class PlotAxis : public vtkAxis {
public:
    static PlotAxis* New();
    vtkTypeMacro(PlotAxis, vtkAxis)

        void RecalculateTickSpacing() override;
    /// Draws the title clear of the labels: VTK puts it a fixed 10 pixels beyond the widest
    /// label measured from the axis line, so labels offset further (scaled for print) ran into
    /// it.
    bool Paint(vtkContext2D* painter) override;
    using vtkAxis::GenerateTickLabels;
    void GenerateTickLabels(double min, double max) override;

    /// The ticks of a linear axis from `low` to `high`, `step` apart, and their labels: fixed
    /// decimals as many as the step needs, or scientific notation for very large or small
    /// values. Pure, for tests.
    static void linearTicks(double low, double high, double step, std::vector<double>* positions,
                            std::vector<std::string>* labels);

    /// Moves the title this many pixels towards the plot (a device that sets text lower than
    /// FreeType measured it would otherwise cut a bottom title's descenders).
    void setTitleLift(float pixels) { titleLift_ = pixels; }

protected:
    PlotAxis() = default;
    ~PlotAxis() override = default;

private:
    PlotAxis(const PlotAxis&) = delete;
    void operator=(const PlotAxis&) = delete;

    void placeTicks();
    /// Ticks of a log axis: whole decades as dense as their labels fit, or 1, 2 and 5 times
    /// the powers of ten inside less than a decade.
    void logTicks(double low, double high, double pixels, std::vector<double>* positions,
                  std::vector<std::string>* labels) const;
    /// Ticks of a linear axis at the densest 1-2-5 `step` whose labels fit; false when none does.
    bool linearTicksThatFit(double low, double high, double pixels, std::vector<double>* positions,
                            std::vector<std::string>* labels, double* step) const;
    /// True when labels at `positions` (axis units) fit along `pixels` without touching.
    bool fits(const std::vector<double>& positions, const std::vector<std::string>& labels,
              double low, double high, double pixels) const;

    float titleLift_ = 0.0f;
};

} // namespace clab
