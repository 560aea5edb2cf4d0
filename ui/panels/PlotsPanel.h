#pragma once

#include "plots/PlotData.h"
#include "plots/PlotExporter.h"

#include <trace/LabelledTrace.h>
#include <trace/PlotSpec.h>

#include <QList>
#include <QPair>
#include <QString>
#include <QWidget>

#include <memory>
#include <string>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QListWidget;
class QStackedWidget;
class QTimer;
class QToolButton;
class QWidget;
class vtkObject;

namespace clab {

class PlotChart;
class VtkOpenGLWidget;

/// \brief The Plots dock: a ready-made plot of the current trace (energy audit, forces,
/// residual, ...) or a custom one (any quantities against time or against another quantity),
/// drawn by a VTK chart with zoom, pan and a cursor at the current time.
///
/// The panel keeps the user's choice (preset or custom quantities) when a new trace of the same
/// scene arrives (live tuning); when a chosen quantity is not in the new trace (another scene)
/// it falls back to the first ready-made plot. Errors never escape: they show in the panel.
class PlotsPanel : public QWidget {
    Q_OBJECT
public:
    explicit PlotsPanel(QWidget* parent = nullptr);
    ~PlotsPanel() override;

    /// The runs to plot: the last one is the current run, earlier ones are compare-mode runs
    /// drawn dashed. Rebuilds the plot and shows all data (zoom reset). Empty: as clear().
    void setRuns(std::vector<LabelledTrace> runs);
    /// No trace: an empty panel with a hint.
    void clear();
    /// Measured values as markers, each with the trace quantity it measures: drawn over the
    /// curve of that quantity in plots against t. Empty: none.
    void setMeasured(std::vector<std::pair<std::string, PlotCurve>> measured);
    /// Measured − simulated per measured column (markers against t), each with its quantity:
    /// while there are any, the plot list offers them as the ready-made plot
    /// residualPresetId, drawn around a zero line. Empty: the plot is not offered.
    void setResiduals(std::vector<std::pair<std::string, PlotCurve>> residuals);
    static constexpr const char* residualPresetId = "measured-residual";
    /// The colour the measured values of `quantity` are drawn in: its curve's colour in the
    /// plot shown, else its colour in a plot of all measured quantities (invalid when it is
    /// not measured). The 3D view's markers use it too.
    QColor measuredColor(const std::string& quantity) const;
    const std::vector<LabelledTrace>& runs() const { return runs_; }

    /// Moves the cursor to time t when the x quantity is t (hidden otherwise); no rebuild.
    void setTime(double t);
    double time() const { return time_; }

    /// What is plotted: a ready-made plot (non-empty id) or a custom one.
    PlotSpec spec() const { return spec_; }
    /// Plots `spec`: a preset when its id names one of the current trace, otherwise custom.
    /// Quantities the current trace does not have show an error message in the panel.
    void setSpec(const PlotSpec& spec);
    /// Selects the ready-made plot `id` of the current trace; false when there is none.
    bool selectPreset(const std::string& id);
    /// The ready-made plots of the current trace (PlotCatalog::presets).
    const std::vector<PlotSpec>& presets() const { return presets_; }

    /// What the chart draws (empty when there is no trace or the spec could not be built).
    const PlotData& plotData() const { return data_; }
    /// The cursor position on the x axis (NaN when hidden).
    double cursor() const;
    /// The message shown instead of the chart ("" when the chart is shown).
    QString message() const { return message_; }
    /// Shows all data again after zooming or panning.
    void resetZoom();

    /// Export options with the current cursor and the default size (1200×800, PNG scale 2).
    PlotExporter::Options defaultExportOptions() const;
    /// In compare mode, the one quantity every run shows ("*": all of the plot's quantities).
    void setCompareQuantity(const std::string& name);
    std::string compareQuantity() const;
    QComboBox* compareCombo() const { return compareCombo_; }
    /// Text and line size on screen (1.4 with Large Text); exports keep their own scale.
    void setTextScale(double scale);
    double textScale() const;
    /// Writes the current plot to `path` (format from the suffix); returns the error sentence,
    /// empty on success.
    QString exportPlot(const QString& path, const PlotExporter::Options& options) const;
    /// Opens the export dialog (modal) for the current plot.
    void showExportDialog();

    /// The chart's OpenGL widget (for screenshots and tests).
    VtkOpenGLWidget* chartWidget() const { return widget_; }
    /// The chart itself (axes, cursor), for tests and the main window.
    PlotChart& chart() const { return *chart_; }

signals:
    /// The plotted spec changed (user choice, setSpec, fallback on a new scene).
    void specChanged();
    /// A frame of the chart reached the screen (tests, benchmarks).
    void frameRendered();

private:
    /// The preset combo and the zoom and export buttons.
    QHBoxLayout* buildTopRow();
    /// The quantity drawn for every run in compare mode.
    void buildCompareRow();
    /// The x and y quantities of a custom plot.
    void buildCustomBox();
    /// The plot widget, and the message shown in its place when there is nothing to plot.
    void buildStack();
    /// Draws the chart into the plot widget and lets the widget's interactor zoom and pan it.
    void attachChart();
    void rebuild();
    /// The ready-made plots: the current trace's, and the residuals while there are any.
    void updatePresets();
    PlotData residualPlot() const;
    void showMessage(const QString& message);
    /// Shows data_ in the chart (the message hidden), keeping a zoom the user chose.
    void showChart();
    void populateControls();
    void syncControlsToSpec();
    void onPresetActivated(int index);
    void onCustomEdited();
    void updateCursor();
    bool specFitsTrace(const PlotSpec& spec) const;
    PlotSpec fallbackSpec() const;
    QString customTitle(const PlotSpec& spec) const;
    void applySpec(const PlotSpec& spec);
    void onInteractorTimer(vtkObject* caller, unsigned long eventId, void* callData);

    std::vector<LabelledTrace> runs_;
    std::vector<std::pair<std::string, PlotCurve>> measured_;
    std::vector<std::pair<std::string, PlotCurve>> residuals_;
    PlotSpec shown_; ///< what the chart draws: spec_, or one quantity of it in compare mode
    std::vector<PlotSpec> presets_;
    PlotSpec spec_;
    bool specChosen_ = false; // false until a trace or setSpec gave a spec
    // The user zoomed or panned this plot: a new run of it keeps the view (live tuning).
    bool userZoom_ = false;
    PlotData data_;
    double time_;
    QString message_;
    QString lastExportPath_;
    bool syncing_ = false; // controls being filled from code, not by the user
    // (text, name) of the entries the preset combo and the quantity controls show.
    QList<QPair<QString, QString>> presetItems_;
    QList<QPair<QString, QString>> quantityItems_;

    std::unique_ptr<PlotChart> chart_;
    QComboBox* presetCombo_;
    /// Compare mode: which quantity each run shows (or all of them).
    QComboBox* compareCombo_;
    QWidget* compareRow_;
    std::string compareQuantity_; ///< "" = the default pick, "*" = all quantities
    QToolButton* resetZoomButton_;
    QToolButton* exportButton_;
    QWidget* customBox_;
    QComboBox* xCombo_;
    QListWidget* yList_;
    QCheckBox* logY_;
    QStackedWidget* stack_;
    QLabel* messageLabel_;
    VtkOpenGLWidget* widget_;
    QTimer* vtkTimer_;
    int vtkTimerId_ = 0;
};

} // namespace clab
