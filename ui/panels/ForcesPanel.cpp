#include "panels/ForcesPanel.h"

#include <QCheckBox>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace clab {

namespace {

constexpr ForceKind kinds[3] = {ForceKind::Given, ForceKind::IdealConstraint,
                                ForceKind::NonIdealConstraint};

// Slider positions are 100·log10(scale), so ×0.1 … ×10 maps to −100 … 100.
int sliderPosition(double scale)
{
    return static_cast<int>(std::lround(100.0 * std::log10(std::clamp(scale, 0.1, 10.0))));
}

double scaleFromPosition(int position)
{
    return std::pow(10.0, position / 100.0);
}

// A colour swatch that looks like the arrow it stands for.
QIcon arrowSwatch(const QColor& color)
{
    QPixmap pixmap(48, 24);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(color, 5, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(QPointF(5, 12), QPointF(32, 12));
    QPainterPath head;
    head.moveTo(44, 12);
    head.lineTo(30, 4);
    head.lineTo(30, 20);
    head.closeSubpath();
    p.fillPath(head, color);
    return QIcon(pixmap);
}

} // namespace

ForcesPanel::ForcesPanel(QWidget* parent)
    : QWidget(parent), scaleSlider_(new QSlider(Qt::Horizontal, this)),
      scaleLabel_(new QLabel(this)), legend_(new QCheckBox(tr("Show &legend in the view"), this)),
      readouts_(new QLabel(this)),
      magnitudeLabels_(new QCheckBox(tr("&Magnitudes at the arrows"), this)),
      bodyGroup_(new QGroupBox(this)), bodyLabel_(new QLabel(bodyGroup_)),
      bodySpin_(new QSpinBox(bodyGroup_)), bodySlider_(new QSlider(Qt::Horizontal, bodyGroup_)),
      bodyTotal_(new QLabel(bodyGroup_)), arrowField_(new QCheckBox(bodyGroup_))
{
    auto* layout = new QVBoxLayout(this);
    buildBodyGroup();
    layout->addWidget(bodyGroup_);
    layout->addWidget(buildArrowsGroup());
    layout->addWidget(buildDisplayGroup());
    layout->addStretch(1);
    fitWidthsToFont();
    updateScaleLabel();
    clearMagnitudes();
}

void ForcesPanel::buildBodyGroup()
{
    // Which body of many (a chain's bobs) carries the arrows and the trail, first in the dock:
    // it decides what the arrows below show. Hidden for a scene with one body.
    bodyGroup_->setObjectName(QStringLiteral("bodyGroup"));
    auto* bodyLayout = new QGridLayout(bodyGroup_);
    bodySpin_->setObjectName(QStringLiteral("bodySpin"));
    bodySpin_->setRange(1, 1);
    bodySpin_->setAccelerated(true);
    bodySlider_->setObjectName(QStringLiteral("bodySlider"));
    bodySlider_->setRange(1, 1);
    bodyLabel_->setBuddy(bodySpin_);
    arrowField_->setObjectName(QStringLiteral("arrowField"));
    // Two rows, so that the arrows' check boxes below stay in sight in a short dock.
    bodyLayout->addWidget(bodyLabel_, 0, 0);
    bodyLayout->addWidget(bodySpin_, 0, 1);
    bodyLayout->addWidget(bodyTotal_, 0, 2);
    bodyLayout->addWidget(bodySlider_, 0, 3);
    bodyLayout->addWidget(arrowField_, 1, 0, 1, 4);
    bodyLayout->setColumnStretch(3, 1);
    bodyGroup_->hide();
    // The spin box speaks for both: one signal per change, whichever the user moved.
    connect(bodySlider_, &QSlider::valueChanged, bodySpin_, &QSpinBox::setValue);
    connect(bodySpin_, &QSpinBox::valueChanged, this, [this](int body) {
        const QSignalBlocker block(bodySlider_);
        bodySlider_->setValue(body);
        emit chosenBodyChanged(body);
    });
    connect(arrowField_, &QCheckBox::toggled, this, &ForcesPanel::arrowFieldVisibilityChanged);
}

QGroupBox* ForcesPanel::buildArrowsGroup()
{
    auto* shown = new QGroupBox(tr("Arrows"), this);
    auto* grid = new QGridLayout(shown);
    grid->setColumnStretch(1, 1);
    for (int i = 0; i < 3; ++i)
        addForceRow(grid, i);
    readouts_->setObjectName(QStringLiteral("forceReadouts"));
    readouts_->setWordWrap(true);
    readouts_->hide();
    grid->addWidget(readouts_, 6, 0, 1, 2);
    return shown;
}

void ForcesPanel::addForceRow(QGridLayout* grid, int i)
{
    QWidget* shown = grid->parentWidget();
    const ForceKind kind = kinds[i];
    auto* check = new QCheckBox(forceSymbol(kind), shown);
    check->setObjectName(QStringLiteral("forceCheck%1").arg(i));
    check->setIcon(arrowSwatch(forceColor(kind)));
    check->setIconSize(QSize(36, 18));
    check->setChecked(true);
    check->setToolTip(forceDescription(kind));
    QFont bold = check->font();
    bold.setBold(true);
    check->setFont(bold);
    auto* description = new QLabel(forceDescription(kind), shown);
    description->setWordWrap(true);
    auto* magnitude = new QLabel(shown);
    magnitude->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    magnitude->setObjectName(QStringLiteral("forceMagnitude%1").arg(i));
    QFont mono = magnitude->font();
    mono.setFamily(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    magnitude->setFont(mono);
    grid->addWidget(check, 2 * i, 0, 1, 1);
    grid->addWidget(magnitude, 2 * i, 1, 1, 1);
    grid->addWidget(description, 2 * i + 1, 0, 1, 2);
    checks_[i] = check;
    magnitudes_[i] = magnitude;
    descriptions_[i] = description;
    connect(check, &QCheckBox::toggled, this,
            [this, kind](bool on) { emit forceVisibilityChanged(kind, on); });
}

QGroupBox* ForcesPanel::buildDisplayGroup()
{
    auto* view = new QGroupBox(tr("Display"), this);
    auto* form = new QFormLayout(view);
    // A field too wide beside its label goes under it: the dock stays narrow on a projector.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    scaleSlider_->setObjectName(QStringLiteral("arrowScaleSlider"));
    scaleSlider_->setRange(-100, 100);
    scaleSlider_->setPageStep(25);
    scaleSlider_->setTickPosition(QSlider::TicksBelow);
    scaleSlider_->setTickInterval(50);
    scaleSlider_->setValue(0);
    scaleSlider_->setToolTip(tr("Arrow length relative to the automatic scale (×0.1 to ×10)"));
    auto* resetScale = new QToolButton(view);
    resetScale->setText(tr("×1"));
    resetScale->setToolTip(tr("Automatic arrow length"));
    auto* scaleRow = new QHBoxLayout;
    scaleRow->addWidget(scaleSlider_, 1);
    scaleRow->addWidget(scaleLabel_);
    scaleRow->addWidget(resetScale);
    form->addRow(tr("Arrow length:"), scaleRow);
    legend_->setChecked(true);
    form->addRow(legend_);
    magnitudeLabels_->setObjectName(QStringLiteral("magnitudeLabels"));
    magnitudeLabels_->setToolTip(tr("Write each force's magnitude at its arrow's tip"));
    form->addRow(magnitudeLabels_);

    connect(scaleSlider_, &QSlider::valueChanged, this, [this](int position) {
        updateScaleLabel();
        emit arrowScaleChanged(scaleFromPosition(position));
    });
    connect(resetScale, &QToolButton::clicked, this, [this] { scaleSlider_->setValue(0); });
    connect(legend_, &QCheckBox::toggled, this, &ForcesPanel::legendVisibilityChanged);
    connect(magnitudeLabels_, &QCheckBox::toggled, this,
            &ForcesPanel::magnitudeLabelsVisibilityChanged);
    return view;
}

bool ForcesPanel::isForceVisible(ForceKind kind) const
{
    return checks_[static_cast<int>(kind)]->isChecked();
}

void ForcesPanel::setForceVisible(ForceKind kind, bool visible)
{
    checks_[static_cast<int>(kind)]->setChecked(visible);
}

double ForcesPanel::arrowScale() const
{
    return scaleFromPosition(scaleSlider_->value());
}

void ForcesPanel::setArrowScale(double scale)
{
    if (std::isfinite(scale) && scale > 0.0)
        scaleSlider_->setValue(sliderPosition(scale));
}

bool ForcesPanel::isLegendVisible() const
{
    return legend_->isChecked();
}

void ForcesPanel::setLegendVisible(bool visible)
{
    legend_->setChecked(visible);
}

void ForcesPanel::setMagnitudes(const std::array<double, 3>& magnitudes, const QString& unit)
{
    for (int i = 0; i < 3; ++i) {
        QString text = QStringLiteral("%1").arg(magnitudes[i], 0, 'f', 3);
        if (!unit.isEmpty())
            text += QLatin1Char(' ') + unit;
        magnitudes_[i]->setText(text);
        magnitudes_[i]->setToolTip(
            tr("Magnitude of %1 at the current time").arg(forceSymbol(kinds[i])));
    }
}

void ForcesPanel::clearMagnitudes()
{
    for (QLabel* label : magnitudes_)
        label->setText(QStringLiteral("—"));
}

void ForcesPanel::setDescriptions(const std::array<QString, 3>& descriptions)
{
    for (int i = 0; i < 3; ++i) {
        descriptions_[i]->setText(descriptions[i]);
        checks_[i]->setToolTip(descriptions[i]);
    }
}

QString ForcesPanel::description(ForceKind kind) const
{
    return descriptions_[static_cast<int>(kind)]->text();
}

void ForcesPanel::setReadouts(const QStringList& lines)
{
    readouts_->setText(lines.join(QLatin1Char('\n')));
    readouts_->setVisible(!lines.isEmpty());
}

QString ForcesPanel::readoutText() const
{
    return readouts_->text();
}

bool ForcesPanel::areMagnitudeLabelsVisible() const
{
    return magnitudeLabels_->isChecked();
}

void ForcesPanel::setMagnitudeLabelsVisible(bool visible)
{
    magnitudeLabels_->setChecked(visible);
}

QString ForcesPanel::magnitudeText(ForceKind kind) const
{
    return magnitudes_[static_cast<int>(kind)]->text();
}

void ForcesPanel::setBodies(int count, int chosen, const QString& noun)
{
    count = std::max(1, count);
    const QSignalBlocker blockSpin(bodySpin_);
    const QSignalBlocker blockSlider(bodySlider_);
    bodySpin_->setRange(1, count);
    bodySlider_->setRange(1, count);
    bodySlider_->setPageStep(std::max(1, count / 10));
    bodySpin_->setValue(chosen);
    bodySlider_->setValue(bodySpin_->value());
    bodyGroup_->setTitle(tr("Arrows on one %1").arg(noun));
    bodyLabel_->setText(tr("&%1:").arg(noun.left(1).toUpper() + noun.mid(1)));
    bodyTotal_->setText(tr("of %1").arg(count));
    bodySpin_->setToolTip(tr("The %1 (1 to %2) whose forces Q, Qᶜᵢ, Qᶜₙᵢ are drawn as arrows "
                             "and whose path is the trail")
                              .arg(noun)
                              .arg(count));
    bodySlider_->setToolTip(bodySpin_->toolTip());
    arrowField_->setText(tr("Small &arrows at many %1s").arg(noun));
    arrowField_->setToolTip(tr("The same three forces at every k-th %1 (at most 48 of each), "
                               "drawn shorter; the legend says how much")
                                .arg(noun));
    bodyGroup_->setVisible(count > 1);
}

int ForcesPanel::chosenBody() const
{
    return bodySpin_->value();
}

void ForcesPanel::setChosenBody(int body)
{
    bodySpin_->setValue(body);
}

bool ForcesPanel::isArrowFieldVisible() const
{
    return arrowField_->isChecked();
}

void ForcesPanel::setArrowFieldVisible(bool visible)
{
    arrowField_->setChecked(visible);
}

QCheckBox* ForcesPanel::forceCheckBox(ForceKind kind) const
{
    return checks_[static_cast<int>(kind)];
}

void ForcesPanel::fitWidthsToFont()
{
    // Room for the text each label shows, in the font it has now: a magnitude up to 9999 N
    // keeps its width (a larger one widens the label; a narrow dock fits large text).
    scaleLabel_->setMinimumWidth(
        scaleLabel_->fontMetrics().horizontalAdvance(QStringLiteral("×10.00")));
    for (QLabel* magnitude : magnitudes_)
        magnitude->setMinimumWidth(
            magnitude->fontMetrics().horizontalAdvance(QStringLiteral("-0000.000 N")));
}

void ForcesPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    // Large Text changes the font after the panel was built; the labels' own fonts follow
    // their class's, so measure once every widget has its new font.
    if (event->type() == QEvent::FontChange)
        QTimer::singleShot(0, this, &ForcesPanel::fitWidthsToFont);
}

void ForcesPanel::updateScaleLabel()
{
    scaleLabel_->setText(QStringLiteral("×%1").arg(arrowScale(), 0, 'f', 2));
}

} // namespace clab
