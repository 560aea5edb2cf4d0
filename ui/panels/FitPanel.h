#pragma once

#include "plots/PlotData.h"

#include <FitResult.h>
#include <Measurements.h>
#include <Trace.h>

#include <QString>
#include <QStringList>
#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

class QCheckBox;
class QDoubleSpinBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;
class QThread;

namespace clab {

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
    /// and the data loaded before stay. Returns true when loaded.
    bool loadFile(const QString& path);
    /// Maps the file's column `column` to the trace quantity `quantity` (empty: not used),
    /// with a factor to SI units and σ in SI units (0: unknown). False for an unknown column.
    bool mapColumn(const QString& column, const QString& quantity, double scale = 1.0,
                   double sigma = 0.0);
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
    /// Puts the fitted values into the scene as one undo step.
    bool applyResult();

    /// The trajectory on screen: the measured quantities' RMS at the measured times follows it.
    void setTrace(std::shared_ptr<const Trace> trace);
    /// Per measured column, simulated − measured at the measured times of the trace on screen
    /// (empty without trace or mapping).
    const std::vector<std::vector<double>>& residuals() const { return residuals_; }
    /// The mapped measured columns as plot markers, each with the quantity it measures
    /// (PlotsPanel::setMeasured).
    std::vector<std::pair<std::string, PlotCurve>> measuredCurves() const;

    // Test hooks and widgets tests look at.
    void setOpenFileProvider(OpenFileProvider provider) { openProvider_ = std::move(provider); }
    QLabel* messageLabel() const { return message_; }
    QLabel* rmsLabel() const { return rms_; }
    QLabel* progressLabel() const { return progress_; }
    QTableWidget* resultTable() const { return table_; }
    QLabel* summaryLabel() const { return summary_; }

signals:
    void fitFinished();
    /// The measured data or their mapping changed (measuredCurves).
    void measurementsChanged();

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

    void chooseFile();
    void rebuildColumns();
    void rebuildParameters();
    void updateQuantities();
    /// Reads the mapped columns again (a new file or mapping), then updateRms.
    void updateMapping();
    void updateRms();
    void showResult();
    void fitDone(const FitResult& result, const QString& error);
    void setMessage(const QString& text, bool error);

    SceneSession* session_;
    OpenFileProvider openProvider_;
    QString path_;
    QStringList columns_; ///< the file's columns other than time
    std::shared_ptr<const Trace> trace_;
    std::vector<ColumnRow> columnRows_;
    std::vector<ParameterRow> parameterRows_;
    Measurements measured_; ///< the mapped columns; none when nothing is mapped
    QString mappingError_;
    std::vector<std::vector<double>> residuals_;
    FitResult result_;

    QLabel* fileLabel_;
    QLabel* message_;
    QGridLayout* columnGrid_;
    QGridLayout* parameterGrid_;
    QPushButton* fitButton_;
    QPushButton* cancelButton_;
    QPushButton* applyButton_;
    QLabel* progress_;
    QLabel* rms_;
    QTableWidget* table_;
    QLabel* summary_; ///< RMS per column, χ², warnings of the last fit
    ResidualPlot* residualPlot_;

    QThread* thread_ = nullptr;
    std::shared_ptr<std::atomic<bool>> keepGoing_;
};

} // namespace clab
