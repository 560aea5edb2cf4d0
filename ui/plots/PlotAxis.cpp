#include "plots/PlotAxis.h"

#include <vtkContext2D.h>
#include <vtkContextScene.h>
#include <vtkDoubleArray.h>
#include <vtkObjectFactory.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkStringArray.h>
#include <vtkTextProperty.h>
#include <vtkTextRenderer.h>

#include <QString>

#include <algorithm>
#include <cmath>

namespace clab {

vtkStandardNewMacro(PlotAxis)

    namespace
{

    // More ticks than this on one axis is never readable.
    constexpr double kMaxTicks = 60.0;

    /// "1e-15", or the plain number for 0.001 … 1000 (labels of whole decades).
    std::string decadeLabel(int exponent)
    {
        if (exponent >= -3 && exponent <= 3) {
            return QString::number(std::pow(10.0, exponent), 'g', 4).toStdString();
        }
        return QStringLiteral("1e%1").arg(exponent).toStdString();
    }

} // namespace

void PlotAxis::linearTicks(double low, double high, double step, std::vector<double>* positions,
                           std::vector<std::string>* labels)
{
    positions->clear();
    labels->clear();
    if (!(step > 0.0) || !std::isfinite(low) || !std::isfinite(high) || high < low) {
        return;
    }
    const double magnitude = std::max(std::abs(low), std::abs(high));
    const int stepExponent = static_cast<int>(std::floor(std::log10(step) + 1e-9));
    const bool scientific = magnitude >= 1e5 || (magnitude > 0.0 && magnitude < 1e-3);
    const int valueExponent =
        magnitude > 0.0 ? static_cast<int>(std::floor(std::log10(magnitude))) : 0;
    const int decimals =
        scientific ? std::max(0, valueExponent - stepExponent) : std::max(0, -stepExponent);
    const double first = std::ceil(low / step - 1e-9);
    const double last = std::floor(high / step + 1e-9);
    for (double k = first; k <= last; k += 1.0) {
        // Multiples of the step, not sums: no drift, and zero is exactly zero (never "-0.0").
        const double value = k == 0.0 ? 0.0 : k * step;
        positions->push_back(value);
        labels->push_back(QString::number(value, scientific ? 'e' : 'f', decimals).toStdString());
    }
}

bool PlotAxis::Paint(vtkContext2D* painter)
{
    const bool titleShown = this->TitleVisible && !this->Title.empty();
    this->TitleVisible = false;
    const bool painted = vtkAxis::Paint(painter);
    this->TitleVisible = titleShown || this->TitleVisible;
    if (!painted || !titleShown) {
        return painted;
    }
    // Beyond the labels (offset + widest or tallest, as Paint measured them) by half the
    // label font's size.
    const float gap = 0.5f * static_cast<float>(this->LabelProperties->GetFontSize());
    float x = 0.5f * (this->Point1[0] + this->Point2[0]);
    float y = 0.5f * (this->Point1[1] + this->Point2[1]);
    switch (this->Position) {
    case vtkAxis::LEFT:
        x = this->Point1[0] - this->LabelOffset - this->MaxLabel[0] - gap;
        break;
    case vtkAxis::RIGHT:
        x = this->Point1[0] + this->LabelOffset + this->MaxLabel[0] + gap;
        break;
    case vtkAxis::BOTTOM:
        y = this->Point1[1] - this->LabelOffset - this->MaxLabel[1] - gap + titleLift_;
        break;
    default:
        y = this->Point1[1] + this->LabelOffset + this->MaxLabel[1] + gap;
        break;
    }
    painter->ApplyTextProp(this->TitleProperties);
    painter->DrawString(x, y, this->Title);
    return true;
}

void PlotAxis::RecalculateTickSpacing()
{
    placeTicks();
}

void PlotAxis::GenerateTickLabels(double min, double max)
{
    (void)min, (void)max;
    placeTicks();
}

bool PlotAxis::fits(const std::vector<double>& positions, const std::vector<std::string>& labels,
                    double low, double high, double pixels) const
{
    vtkTextRenderer* text = vtkTextRenderer::GetInstance();
    if (text == nullptr || positions.size() < 2) {
        return true;
    }
    int dpi = 72;
    if (vtkContextScene* scene = const_cast<PlotAxis*>(this)->GetScene()) {
        if (vtkRenderer* renderer = scene->GetRenderer()) {
            if (vtkRenderWindow* window = renderer->GetRenderWindow()) {
                dpi = window->GetDPI();
            }
        }
    }
    const bool vertical = this->Position == vtkAxis::LEFT || this->Position == vtkAxis::RIGHT;
    double previousEnd = -1e300;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        int box[4] = {0, 0, 0, 0};
        text->GetBoundingBox(this->LabelProperties, labels[i], box, dpi);
        const double width = box[1] - box[0];
        const double height = box[3] - box[2];
        const double centre = (positions[i] - low) / (high - low) * pixels;
        const double half = vertical ? 0.5 * height : 0.5 * width;
        // Room to breathe between neighbours: two label heights along x, one and a half
        // between stacked numbers along y (5 to 10 ticks on a typical axis).
        const double gap = vertical ? 1.5 * height : 2.0 * height;
        if (centre - half < previousEnd + gap) {
            return false;
        }
        previousEnd = centre + half;
    }
    return true;
}

void PlotAxis::placeTicks()
{
    if (this->CustomTickLabels) {
        return;
    }
    double low = std::min(this->Minimum, this->Maximum);
    double high = std::max(this->Minimum, this->Maximum);
    this->TickPositions->SetNumberOfTuples(0);
    this->TickLabels->SetNumberOfTuples(0);
    this->TickMarksDirty = false;
    if (!std::isfinite(low) || !std::isfinite(high) || !(high > low)) {
        return;
    }
    const bool vertical = this->Position == vtkAxis::LEFT || this->Position == vtkAxis::RIGHT;
    double pixels = vertical ? std::abs(this->Position2.GetY() - this->Position1.GetY())
                             : std::abs(this->Position2.GetX() - this->Position1.GetX());
    // Not laid out yet: any plausible length; the layout calls again with the real one.
    if (!(pixels > 1.0)) {
        pixels = 300.0;
    }

    std::vector<double> positions;
    std::vector<std::string> labels;
    double step = 1.0;
    if (this->LogScaleActive) {
        logTicks(low, high, pixels, &positions, &labels);
    } else if (!linearTicksThatFit(low, high, pixels, &positions, &labels, &step)) {
        return;
    }
    this->TickInterval = step;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        this->TickPositions->InsertNextValue(positions[i]);
        this->TickLabels->InsertNextValue(labels[i]);
    }
}

void PlotAxis::logTicks(double low, double high, double pixels, std::vector<double>* positions,
                        std::vector<std::string>* labels) const
{
    // Axis units are log10 of the values: whole decades every 1, 2, 5, 10, … decades.
    for (double step : {1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0}) {
        positions->clear();
        labels->clear();
        for (double e = std::ceil(low / step - 1e-9) * step; e <= high + 1e-9; e += step) {
            positions->push_back(e);
            labels->push_back(decadeLabel(static_cast<int>(std::lround(e))));
        }
        if (fits(*positions, *labels, low, high, pixels)) {
            break;
        }
    }
    // Less than a decade in view: 1, 2 and 5 times the powers of ten inside it.
    if (positions->size() < 2) {
        positions->clear();
        labels->clear();
        for (int e = static_cast<int>(std::floor(low)); e <= static_cast<int>(std::ceil(high));
             ++e) {
            for (double m : {1.0, 2.0, 5.0}) {
                const double position = std::log10(m) + e;
                if (position >= low - 1e-9 && position <= high + 1e-9) {
                    positions->push_back(position);
                    labels->push_back(QString::number(m * std::pow(10.0, e), 'g', 3).toStdString());
                }
            }
        }
    }
}

bool PlotAxis::linearTicksThatFit(double low, double high, double pixels,
                                  std::vector<double>* positions, std::vector<std::string>* labels,
                                  double* step) const
{
    // The densest 1-2-5 step whose labels do not touch.
    const double span = high - low;
    double decade = std::pow(10.0, std::floor(std::log10(span / kMaxTicks)));
    for (int attempt = 0; attempt < 40; ++attempt, decade *= 10.0) {
        for (double m : {1.0, 2.0, 5.0}) {
            *step = m * decade;
            if (span / *step > kMaxTicks) {
                continue;
            }
            linearTicks(low, high, *step, positions, labels);
            if (positions->size() <= 1 || fits(*positions, *labels, low, high, pixels)) {
                return true;
            }
        }
    }
    return false;
}

} // namespace clab
