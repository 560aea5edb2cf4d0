#pragma once

#include "plots/PlotData.h"

#include <scenes/SceneDocument.h>
#include <study/FitResult.h>
#include <study/Measurements.h>
#include <trace/Trace.h>

#include <QString>
#include <QStringList>
#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

class QCheckBox;
class QDoubleSpinBox;
class QComboBox;
class QGridLayout;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;
class QThread;
class QVBoxLayout;

namespace clab {

class FitResultView;
class ResidualPlot;
class SceneSession;

/// \brief The Fit dock: measured traces from a file, mapped onto the scene's trace quantities,
/// fitted by ParameterFit on a worker thread; the result applied as one undo step.
///
/// While measurements are mapped, every new trajectory (setTrace) updates the residual RMS at
/// the measured times, so dragging a parameter shows how the misfit moves.
class FitPanel : public QWidget {
    Q_OBJECT

public:
    using OpenFileProvider = std::function<QString()>;

    explicit FitPanel(SceneSession* session, QWidget* parent = nullptr);
    ~FitPanel() override;

    /// Loads a measurement file; on a bad file the message (line, column, why) shows inline
    /// and the data loaded before stay. Returns true when loaded. The time column is t or
    /// time, else the first column, else (when that one's values do not increase) the first
    /// column whose values do; setTimeColumn chooses another.
    bool loadFile(const QString& path);
    /// Maps the file's column `column` to the trace quantity `quantity` (empty: not used),
    /// with a factor to SI units and σ in SI units (0: unknown). False for an unknown column.
    bool mapColumn(const QString& column, const QString& quantity, double scale = 1.0,
                   double sigma = 0.0);
    /// Which column holds the time and how it becomes simulation time: t = scale · value +
    /// offset (s). The other columns become the measured ones; those mapped before keep their
    /// mapping. False for a column the file does not have.
    bool setTimeColumn(const QString& column, double scale = 1.0, double offset = 0.0);
    /// Ticks a parameter to fit, with optional bounds (±infinity: none).
    bool setFitted(const QString& parameter, bool fitted);
    /// The mapped measurements in SI units; throws FileError or ConstraintLabError.
    Measurements measurements() const;

    /// Starts a fit on a worker thread from the scene's current values; false when one runs or
    /// the inputs are incomplete (the message says why).
    bool startFit();
    /// Asks a running fit to stop; the scene stays as it is.
    void cancelFit();
    bool isFitting() const { return thread_ != nullptr; }
    /// The last finished fit (empty parameters before one).
    const FitResult& result() const { return result_; }
    /// Puts the fitted values into the scene as one undo step, each rounded to its standard
    /// error (RoundedValue) unless "Apply full precision" is ticked; false when there is no
    /// result, it failed (FitResult::failure), or it no longer matches the scene or the data
    /// (applyBlockedReason).
    bool applyResult();
    /// Why the last result cannot be applied now: the scene, the data or their mapping changed
    /// after the fit, or its values are in the scene already. Empty when it can (or there is
    /// no result); the Apply button's tooltip and a line under it say the same.
    QString applyBlockedReason() const { return applyReason_; }

    /// The trajectory on screen: the measured quantities' RMS at the measured times follows it.
    void setTrace(std::shared_ptr<const Trace> trace);
    /// Per measured column, measured − simulated at the measured times of the trace on screen
    /// (empty without trace or mapping).
    const std::vector<std::vector<double>>& residuals() const { return residuals_; }
    /// The mapped measured columns as plot markers, each with the quantity it measures
    /// (PlotsPanel::setMeasured).
    std::vector<std::pair<std::string, PlotCurve>> measuredCurves() const;
    /// residuals() as plot markers against time, each with the quantity it measures
    /// (PlotsPanel::setResiduals).
    std::vector<std::pair<std::string, PlotCurve>> residualCurves() const;
    /// The colours of the mapped columns (parallel to mappedMeasurements().columns), for the
    /// residual plot: the Plots dock's colours of their quantities.
    void setColumnColors(std::vector<QColor> colors);
    ResidualPlot* residualPlot() const { return residualPlot_; }
    /// The mapped measurements as the panel holds them (no column when nothing is mapped).
    const Measurements& mappedMeasurements() const { return measured_; }

    // Test hooks and widgets tests look at.
    void setOpenFileProvider(OpenFileProvider provider) { openProvider_ = std::move(provider); }
    QLabel* messageLabel() const { return message_; }
    QLabel* rmsLabel() const { return rms_; }
    QLabel* progressLabel() const { return progress_; }
    QTableWidget* resultTable() const;
    QLabel* summaryLabel() const;
    QCheckBox* fullPrecisionBox() const { return fullPrecision_; }
    /// "Fit s0 too": shown after a fit that failed from a start it could not fit.
    QPushButton* fitStartButton() const { return fitStartButton_; }
    QPushButton* applyButton() const { return applyButton_; }
    QLabel* applyNote() const { return applyNote_; }
    QWidget* parameterBox() const { return parameterBox_; }

signals:
    void fitFinished();
    /// The measured data or their mapping changed (measuredCurves).
    void measurementsChanged();
    /// The residuals changed (a new trajectory or mapping; residualCurves).
    void residualsChanged();

private:
    struct ColumnRow {
        QString name;
        QComboBox* quantity;
        QDoubleSpinBox* scale;
        QDoubleSpinBox* sigma;
    };
    struct ParameterRow {
        QString name;
        QCheckBox* fitted;
        QLineEdit* lower;
        QLineEdit* upper;
    };

    /// "Load measurements…" and the file's name.
    QVBoxLayout* buildFileRow();
    /// How the file's time column maps to seconds, and what each other column measures.
    QGroupBox* buildColumnsBox();
    /// Fit, Cancel, Apply, and the note on what Apply would change.
    void buildFitButtons(QVBoxLayout* layout);
    /// Progress, RMS, the residual plot and the table of fitted values.
    void buildResults(QVBoxLayout* layout);
    void chooseFile();
    void rebuildColumns();
    void timeColumnChosen();
    void updateApply();
    QString labelOf(const std::string& key) const;
    void rebuildParameters();
    void updateQuantities();
    /// Columns named like a trace quantity map to it (x → x); said in the message line.
    void mapColumnsByName();
    /// Reads the mapped columns again (a new file or mapping), then updateRms.
    void updateMapping();
    void updateRms();
    void showRms();
    void showResult();
    /// Ticks the start parameters a failed fit names (FitResult::startParameters), fits again.
    void fitStartToo();
    double appliedValue(std::size_t i) const;
    void fitDone(const FitResult& result, const QString& error);
    void setMessage(const QString& text, bool error);

    SceneSession* session_;
    OpenFileProvider openProvider_;
    QString path_;
    QStringList allColumns_; ///< the file's columns, time included
    QStringList columns_;    ///< the file's columns other than the time column
    std::shared_ptr<const Trace> trace_;
    std::vector<ColumnRow> columnRows_;
    std::vector<ParameterRow> parameterRows_;
    Measurements measured_; ///< the mapped columns; none when nothing is mapped
    QString mappingError_;
    std::vector<std::vector<double>> residuals_;
    FitResult result_;
    // What the last result was fitted to, so that Apply can tell when it is stale.
    SceneDocument fitDocument_;
    Measurements fitMeasured_;
    quint64 loadSerial_ = 0; ///< counts loads: reloading the same file counts too
    quint64 fitLoadSerial_ = 0;
    std::optional<SceneDocument> appliedDocument_; ///< the scene right after Apply
    QString applyReason_;

    QLabel* fileLabel_;
    QLabel* message_;
    QComboBox* timeColumn_;
    QDoubleSpinBox* timeScale_;
    QDoubleSpinBox* timeOffset_;
    QWidget* parameterBox_;
    QGridLayout* columnGrid_;
    QGridLayout* parameterGrid_;
    QPushButton* fitButton_;
    QPushButton* cancelButton_;
    QPushButton* applyButton_;
    QLabel* applyNote_; ///< why Apply is disabled
    QLabel* progress_;
    QLabel* rms_;
    FitResultView* resultView_;
    QCheckBox* fullPrecision_;
    QPushButton* fitStartButton_;
    ResidualPlot* residualPlot_;

    QThread* thread_ = nullptr;
    std::shared_ptr<std::atomic<bool>> keepGoing_;
};

} // namespace clab
