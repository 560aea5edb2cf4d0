#pragma once

#include <model/ParameterSpec.h>

#include <QString>
#include <QWidget>

#include <array>
#include <string>
#include <vector>

class QLabel;
class QSlider;
class QVBoxLayout;

namespace clab {

struct SceneDefinition;
class PresentationPlot;

/// \brief The column beside the 3D view in presentation mode: the step's caption, the clock,
/// the three force magnitudes, the contact state and the scene's key parameters as large
/// sliders, all in type legible from the back of a lecture room.
///
/// Text is sized from the panel's height (a 768-pixel projector gives 34 px, so that words read
/// back by OCR stand at least 18 px high; never below 24 px). A slider changes its value only when
/// dragged, clicked or moved by keys while it has the focus; the wheel over an unfocused slider
/// does nothing.
class PresentationPanel : public QWidget {
    Q_OBJECT
public:
    explicit PresentationPanel(QWidget* parent = nullptr);

    /// The body text's height in pixels for a panel `height` pixels high.
    static int textPixelsFor(int height);

    /// One slider per key parameter of `definition`, set to `values`.
    void setParameters(const SceneDefinition& definition, const ParameterValues& values);
    /// Shows `values` on the sliders without emitting parameterEdited (undo, a lesson step).
    void showValues(const ParameterValues& values);
    /// The names of the sliders, in order.
    std::vector<std::string> sliderNames() const;
    QSlider* slider(const std::string& name) const;

    /// The step's caption, in a strip of its own under the view and the column (the window
    /// puts it there); hidden while empty.
    void setCaption(const QString& caption);
    QString caption() const;
    QLabel* captionLabel() const { return caption_; }
    /// The one plot, under the readouts (hidden until shown).
    PresentationPlot* plot() const { return plot_; }
    void setPlotVisible(bool visible);
    bool isPlotVisible() const;
    /// "Step 2 of 5"; hidden when `count` is 0 (no lesson).
    void setStep(int index, int count);
    void setClock(double t);
    void setForces(const std::array<double, 3>& magnitudes, const QString& unit);
    /// "sliding", "stuck" or "no friction contact".
    void setContact(const QString& state);
    QString forceText(int kind) const;
    QString contactText() const;

signals:
    /// The user moved the slider of `name` to `value`; `dragging` while the handle is held.
    void parameterEdited(const QString& name, double value, bool dragging);

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Row {
        std::string name;
        ParameterSpec spec;
        double low = 0.0, high = 1.0;
        QLabel* label = nullptr;
        QSlider* slider = nullptr;
    };
    void buildReadouts(QVBoxLayout* layout);
    void applyFonts();
    void sliderMoved(const Row& row, int position);
    void showRowValue(const Row& row, double value);

    QLabel* caption_;
    QLabel* step_;
    QLabel* clock_;
    std::array<QLabel*, 3> forces_{};
    QLabel* contact_;
    PresentationPlot* plot_;
    QWidget* filler_;
    QWidget* sliderBox_;
    QVBoxLayout* sliderLayout_;
    std::vector<Row> rows_;
};

} // namespace clab
