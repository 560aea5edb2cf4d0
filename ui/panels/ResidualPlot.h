#pragma once

#include <QColor>
#include <QString>
#include <QWidget>

#include <vector>

namespace clab {

/// \brief Measured − simulated against time, one colour per measured column, around a zero
/// line: how the misfit is spread over the run (a trend means a model or parameter error,
/// scatter the noise).
class ResidualPlot : public QWidget {
    Q_OBJECT

public:
    explicit ResidualPlot(QWidget* parent = nullptr);

    /// Per column: its name and one residual per time. Empty: "no residuals".
    void setResiduals(std::vector<double> times, std::vector<std::vector<double>> residuals,
                      std::vector<QString> names);

    /// The colour of each column (the Plots dock's for its quantity); a column without one
    /// takes the plot's own palette.
    void setColors(std::vector<QColor> colors);
    const std::vector<QColor>& colors() const { return colors_; }

    QSize sizeHint() const override { return {320, 140}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<double> times_;
    std::vector<std::vector<double>> residuals_;
    std::vector<QString> names_;
    std::vector<QColor> colors_;
};

} // namespace clab
