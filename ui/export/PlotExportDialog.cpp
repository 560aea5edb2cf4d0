#include "export/PlotExportDialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace clab {

PlotExportDialog::PlotExportDialog(const PlotData& data, const PlotExporter::Options& options,
                                   const QString& path, QWidget* parent)
    : QDialog(parent), data_(data), initial_(options),
      cursorCheck_(new QCheckBox(tr("&Mark the playback time"), this)),
      pathEdit_(new QLineEdit(this)), formatLabel_(new QLabel(this)), width_(new QSpinBox(this)),
      height_(new QSpinBox(this)), scale_(new QDoubleSpinBox(this)), error_(new QLabel(this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Export Plot"));

    auto* pathRow = new QHBoxLayout;
    pathEdit_->setObjectName(QStringLiteral("path"));
    pathEdit_->setMinimumWidth(360);
    pathEdit_->setToolTip(tr("The format follows the suffix: .png, .svg or .pdf"));
    auto* browse = new QPushButton(tr("&Browse…"), this);
    pathRow->addWidget(pathEdit_, 1);
    pathRow->addWidget(browse);

    for (QSpinBox* box : {width_, height_}) {
        box->setRange(100, 10000);
        box->setSuffix(tr(" px"));
    }
    width_->setObjectName(QStringLiteral("width"));
    height_->setObjectName(QStringLiteral("height"));
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(width_);
    sizeRow->addWidget(new QLabel(QStringLiteral("×"), this));
    sizeRow->addWidget(height_);
    sizeRow->addStretch(1);

    scale_->setObjectName(QStringLiteral("scale"));
    scale_->setRange(1.0, 4.0);
    scale_->setSingleStep(0.5);
    scale_->setDecimals(1);
    scale_->setPrefix(QStringLiteral("×"));
    scale_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    scale_->setToolTip(tr("Enlarges text and lines with the page: 2 or 3 for print"));
    cursorCheck_->setObjectName(QStringLiteral("markTime"));
    cursorCheck_->setToolTip(tr("Draw the time cursor of the Plots dock into the file"));

    error_->setObjectName(QStringLiteral("error"));
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #b00020;"));
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_->hide();

    auto* form = new QFormLayout;
    // Rows holding layouts get their labels here, with buddies, so the mnemonics work.
    auto* fileLabel = new QLabel(tr("&File:"), this);
    fileLabel->setBuddy(pathEdit_);
    auto* sizeLabel = new QLabel(tr("&Size:"), this);
    sizeLabel->setBuddy(width_);
    form->addRow(fileLabel, pathRow);
    form->addRow(tr("Format:"), formatLabel_);
    form->addRow(sizeLabel, sizeRow);
    form->addRow(tr("S&cale:"), scale_);
    form->addRow(QString(), cursorCheck_);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(error_);
    layout->addWidget(buttons_);

    connect(browse, &QPushButton::clicked, this, &PlotExportDialog::browse);
    connect(pathEdit_, &QLineEdit::textChanged, this, &PlotExportDialog::updateFormat);
    connect(buttons_, &QDialogButtonBox::accepted, this, &PlotExportDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &PlotExportDialog::reject);

    setOptions(options);
    setPath(path);
    updateFormat();
}

QString PlotExportDialog::path() const
{
    return pathEdit_->text().trimmed();
}

void PlotExportDialog::setPath(const QString& path)
{
    pathEdit_->setText(path);
}

PlotExporter::Options PlotExportDialog::options() const
{
    PlotExporter::Options options;
    options.size = QSize(width_->value(), height_->value());
    options.scale = scale_->value();
    options.range = initial_.range;
    options.cursor =
        cursorCheck_->isChecked() ? initial_.cursor : std::numeric_limits<double>::quiet_NaN();
    return options;
}

void PlotExportDialog::setOptions(const PlotExporter::Options& options)
{
    width_->setValue(options.size.width());
    height_->setValue(options.size.height());
    scale_->setValue(options.scale);
    initial_ = options;
    cursorCheck_->setChecked(false);
    cursorCheck_->setVisible(std::isfinite(options.cursor));
    cursorCheck_->setText(tr("&Mark the playback time (t = %1 s)").arg(options.cursor, 0, 'g', 4));
}

QString PlotExportDialog::errorText() const
{
    return error_->isHidden() ? QString() : error_->text();
}

QString PlotExportDialog::exportNow()
{
    QString error;
    const QString target = path();
    if (target.isEmpty()) {
        error = tr("Choose a file to export the plot to.");
    } else if (!PlotExporter::write(data_, target, options(), &error) && error.isEmpty()) {
        error = tr("Cannot write the plot to %1.").arg(target);
    }
    error_->setText(error);
    error_->setVisible(!error.isEmpty());
    return error;
}

void PlotExportDialog::accept()
{
    if (exportNow().isEmpty()) {
        QDialog::accept();
    }
}

void PlotExportDialog::browse()
{
    const QString chosen = QFileDialog::getSaveFileName(
        this, tr("Export Plot"), path(),
        tr("PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)"));
    if (!chosen.isEmpty()) {
        setPath(chosen);
    }
}

void PlotExportDialog::updateFormat()
{
    PlotExporter::Format format = PlotExporter::Format::Png;
    const bool known = PlotExporter::formatForPath(path(), &format);
    if (!known) {
        formatLabel_->setText(tr("unknown: end the file name in .png, .svg or .pdf"));
    } else if (format == PlotExporter::Format::Png) {
        formatLabel_->setText(tr("PNG (raster)"));
    } else if (format == PlotExporter::Format::Svg) {
        formatLabel_->setText(tr("SVG (vectors)"));
    } else {
        formatLabel_->setText(tr("PDF (vectors)"));
    }
    scale_->setEnabled(known);
    buttons_->button(QDialogButtonBox::Save)->setEnabled(known);
    error_->hide();
}

} // namespace clab
