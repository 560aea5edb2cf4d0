#pragma once

#include "plots/PlotData.h"
#include "plots/PlotExporter.h"

#include <QDialog>

class QCheckBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace clab {

/// \brief Asks where and how large to export a plot (PNG, SVG or PDF by the file suffix) and
/// writes it with PlotExporter.
///
/// The dialog closes only when the file was written; a failure (unknown suffix, no permission,
/// disk full) is shown in the dialog and returned by exportNow().
class PlotExportDialog : public QDialog {
    Q_OBJECT
public:
    /// `options` gives the initial size, scale and view range; a finite `options.cursor` is the
    /// playback time, which the file shows only when the user ticks "Mark the playback time".
    PlotExportDialog(const PlotData& data, const PlotExporter::Options& options,
                     const QString& path, QWidget* parent = nullptr);

    QString path() const;
    void setPath(const QString& path);
    /// Size and scale as entered, the view range given, the cursor when asked for.
    PlotExporter::Options options() const;
    void setOptions(const PlotExporter::Options& options);

    /// Writes the file; returns the error sentence (empty on success), also shown in the dialog.
    QString exportNow();
    /// The error shown in the dialog ("" when none).
    QString errorText() const;

public slots:
    /// Exports and closes on success; stays open showing the error otherwise.
    void accept() override;

private:
    void browse();
    void updateFormat();

    PlotData data_;
    PlotExporter::Options initial_;
    QCheckBox* cursorCheck_;
    QLineEdit* pathEdit_;
    QLabel* formatLabel_;
    QSpinBox* width_;
    QSpinBox* height_;
    QDoubleSpinBox* scale_;
    QLabel* error_;
    QDialogButtonBox* buttons_;
};

} // namespace clab
