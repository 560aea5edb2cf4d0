#pragma once

#include "plots/ForceKind.h"

#include <QStringList>
#include <QWidget>

#include <array>

class QCheckBox;
class QGridLayout;
class QGroupBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace clab {

/// \brief The Forces dock: which of Q, Qᶜᵢ, Qᶜₙᵢ are drawn, how long the arrows are, whether
/// the legend shows, and the magnitude of each force at the current time.
class ForcesPanel : public QWidget {
    Q_OBJECT
public:
    explicit ForcesPanel(QWidget* parent = nullptr);

    bool isForceVisible(ForceKind kind) const;
    void setForceVisible(ForceKind kind, bool visible);
    /// Arrow length relative to the automatic scale, 0.1 to 10 (logarithmic slider).
    double arrowScale() const;
    void setArrowScale(double scale);
    bool isLegendVisible() const;
    void setLegendVisible(bool visible);

    /// Shows ‖Q‖, ‖Qᶜᵢ‖, ‖Qᶜₙᵢ‖ at the current time; an empty unit means generalized units.
    void setMagnitudes(const std::array<double, 3>& magnitudes, const QString& unit);
    /// Blank readouts (no trajectory yet).
    void clearMagnitudes();
    /// The scene's words for each kind ("Given torque …" for the rigid body).
    void setDescriptions(const std::array<QString, 3>& descriptions);
    QString description(ForceKind kind) const;
    /// Further lines for the current time: contact state, ω, L.
    void setReadouts(const QStringList& lines);
    QString readoutText() const;
    /// Whether the view labels each arrow with its magnitude.
    bool areMagnitudeLabelsVisible() const;
    void setMagnitudeLabelsVisible(bool visible);
    QString magnitudeText(ForceKind kind) const;

    /// The bodies the arrows and the trail can be put on (a chain's bobs, 1…count, called
    /// `noun`): the chooser and the arrow field's switch show only for more than one. Shows
    /// `chosen` without emitting chosenBodyChanged.
    void setBodies(int count, int chosen, const QString& noun);
    int chosenBody() const;
    void setChosenBody(int body);
    bool isArrowFieldVisible() const;
    void setArrowFieldVisible(bool visible);

    QSlider* arrowScaleSlider() const { return scaleSlider_; }
    QGroupBox* bodyGroup() const { return bodyGroup_; }
    QSpinBox* bodySpinBox() const { return bodySpin_; }
    QSlider* bodySlider() const { return bodySlider_; }
    QCheckBox* arrowFieldCheckBox() const { return arrowField_; }
    QCheckBox* forceCheckBox(ForceKind kind) const;

signals:
    void forceVisibilityChanged(clab::ForceKind kind, bool visible);
    void arrowScaleChanged(double scale);
    void legendVisibilityChanged(bool visible);
    void magnitudeLabelsVisibilityChanged(bool visible);
    void chosenBodyChanged(int body);
    void arrowFieldVisibilityChanged(bool visible);

protected:
    void changeEvent(QEvent* event) override;

private:
    /// The minimum widths of the labels whose text changes, for the current font.
    void fitWidthsToFont();
    /// Which body of many carries the arrows and the trail.
    void buildBodyGroup();
    /// A check box, magnitude and description per kind of force, and the readouts under them.
    QGroupBox* buildArrowsGroup();
    /// Row pair `i` of the arrows' grid: the check box and magnitude of kinds[i], its description.
    void addForceRow(QGridLayout* grid, int i);
    /// Arrow length, legend and magnitude labels.
    QGroupBox* buildDisplayGroup();
    void updateScaleLabel();

    std::array<QCheckBox*, 3> checks_{};
    std::array<QLabel*, 3> magnitudes_{};
    std::array<QLabel*, 3> descriptions_{};
    QSlider* scaleSlider_;
    QLabel* scaleLabel_;
    QCheckBox* legend_;
    QLabel* readouts_;
    QCheckBox* magnitudeLabels_;
    QGroupBox* bodyGroup_;
    QLabel* bodyLabel_;
    QSpinBox* bodySpin_;
    QSlider* bodySlider_;
    QLabel* bodyTotal_;
    QCheckBox* arrowField_;
};

} // namespace clab
