#include "PresentationPanel.h"

#include "plots/ForceKind.h"
#include "present/PresentationPlot.h"

#include <scenes/SceneDefinition.h>

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace clab {

namespace {

constexpr int sliderSteps = 1000;

// A slider's span: the parameter's range where it is finite, else its default and twice its
// size (at least 1) either way, within the range.
std::pair<double, double> sliderSpan(const ParameterSpec& spec)
{
    const double d = spec.defaultValue.empty() ? 0.0 : spec.defaultValue.front();
    const double reach = std::max(2.0 * std::abs(d), 1.0);
    const bool lowFinite = spec.min > -ParameterSpec::magnitudeLimit;
    const bool highFinite = spec.max < ParameterSpec::magnitudeLimit;
    const double low = lowFinite ? spec.lowest() : d - reach;
    const double high = highFinite ? spec.highest() : d + reach;
    return {low, high};
}

// The parameter's symbol, the last word of its label ("Kinetic friction μ": μ), so that a
// slider's line fits a narrow column; the whole label is its tooltip.
QString symbol(const ParameterSpec& spec)
{
    const QString label = QString::fromStdString(spec.displayLabel());
    return label.section(QLatin1Char(' '), -1);
}

QLabel* label(QWidget* parent, const QString& objectName)
{
    auto* l = new QLabel(parent);
    l->setObjectName(objectName);
    l->setWordWrap(true);
    return l;
}

void setPixels(QWidget* w, int pixels, bool bold = false)
{
    QFont font = w->font();
    font.setPixelSize(pixels);
    font.setBold(bold);
    w->setFont(font);
}

} // namespace

PresentationPanel::PresentationPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("presentationPanel"));
    setAutoFillBackground(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    layout->setSpacing(6);
    caption_ = label(this, QStringLiteral("presentCaption"));
    caption_->setContentsMargins(16, 6, 16, 10);
    caption_->hide();
    clock_ = label(this, QStringLiteral("presentClock"));
    layout->addWidget(clock_);
    buildReadouts(layout);
    // The one plot (hidden until asked for) takes the room between the readouts and the
    // sliders; without it an empty filler does.
    plot_ = new PresentationPlot(this);
    plot_->hide();
    layout->addWidget(plot_, 1);
    filler_ = new QWidget(this);
    layout->addWidget(filler_, 1);
    sliderBox_ = new QWidget(this);
    sliderLayout_ = new QVBoxLayout(sliderBox_);
    sliderLayout_->setContentsMargins(0, 0, 0, 0);
    sliderLayout_->setSpacing(4);
    layout->addWidget(sliderBox_);
    step_ = label(this, QStringLiteral("presentStep"));
    layout->addWidget(step_);
    setClock(0.0);
    setStep(0, 0);
    applyFonts();
}

void PresentationPanel::buildReadouts(QVBoxLayout* layout)
{
    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(12);
    for (int i = 0; i < 3; ++i) {
        const auto kind = static_cast<ForceKind>(i);
        auto* symbol = new QLabel(forceSymbol(kind), this);
        symbol->setObjectName(QStringLiteral("presentForceSymbol%1").arg(i));
        symbol->setStyleSheet(QStringLiteral("color: %1;").arg(forceColor(kind).name()));
        symbol->setToolTip(forceDescription(kind));
        forces_[i] = new QLabel(QStringLiteral("–"), this);
        forces_[i]->setObjectName(QStringLiteral("presentForce%1").arg(i));
        forces_[i]->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        grid->addWidget(symbol, i, 0);
        grid->addWidget(forces_[i], i, 1);
    }
    grid->setColumnStretch(1, 1);
    layout->addLayout(grid);
    contact_ = label(this, QStringLiteral("presentContact"));
    layout->addWidget(contact_);
}

int PresentationPanel::textPixelsFor(int height)
{
    // 34 px on a 768-pixel projector, 48 px at 1080; never below 24.
    return std::max(24, static_cast<int>(std::lround(height / 22.5)));
}

void PresentationPanel::applyFonts()
{
    const int body = textPixelsFor(height());
    const int small = std::max(24, body * 3 / 4);
    setPixels(caption_, body, true);
    setPixels(clock_, body * 6 / 5, true);
    for (QLabel* l : findChildren<QLabel*>())
        if (l != clock_ && l != step_ && l != plot_->legend())
            setPixels(l, body, l == contact_);
    setPixels(step_, small);
    setPixels(plot_->legend(), small);
    // The plot's axes at 18 px or more (20 px on a 768-pixel projector).
    plot_->setTextPixels(std::max(18, body * 3 / 5));
    for (const Row& row : rows_) {
        row.slider->setMinimumHeight(body * 6 / 5);
        row.slider->setStyleSheet(
            QStringLiteral("QSlider::groove:horizontal { height: %1px; background: #c8ccd2; "
                           "border-radius: %2px; }"
                           "QSlider::handle:horizontal { width: %3px; margin: -%2px 0; "
                           "background: #0072b2; border-radius: %2px; }")
                .arg(body / 3)
                .arg(body / 3)
                .arg(body));
    }
}

void PresentationPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    applyFonts();
}

void PresentationPanel::setParameters(const SceneDefinition& definition,
                                      const ParameterValues& values)
{
    for (Row& row : rows_) {
        delete row.label;
        delete row.slider;
    }
    rows_.clear();
    for (const std::string& name : definition.keyParameters) {
        const ParameterSpec* spec = definition.parameter(name);
        if (!spec || spec->size() != 1)
            continue;
        Row row;
        row.name = name;
        row.spec = *spec;
        std::tie(row.low, row.high) = sliderSpan(*spec);
        row.label =
            label(sliderBox_, QStringLiteral("presentLabel_%1").arg(QString::fromStdString(name)));
        row.slider = new QSlider(Qt::Horizontal, sliderBox_);
        row.label->setToolTip(QString::fromStdString(spec->displayLabel()));
        row.slider->setToolTip(QString::fromStdString(spec->description));
        row.slider->setObjectName(
            QStringLiteral("presentSlider_%1").arg(QString::fromStdString(name)));
        row.slider->setRange(0, sliderSteps);
        // Keys move a slider only once it was clicked; the clicker's keys stay with playback.
        row.slider->setFocusPolicy(Qt::ClickFocus);
        row.slider->installEventFilter(this);
        sliderLayout_->addWidget(row.label);
        sliderLayout_->addWidget(row.slider);
        rows_.push_back(row);
        const Row& added = rows_.back();
        connect(added.slider, &QSlider::valueChanged, this, [this, name](int position) {
            for (const Row& r : rows_)
                if (r.name == name)
                    sliderMoved(r, position);
        });
    }
    showValues(values);
    applyFonts();
}

void PresentationPanel::showValues(const ParameterValues& values)
{
    for (const Row& row : rows_) {
        const auto it = values.find(row.name);
        if (it != values.end() && !it->second.empty())
            showRowValue(row, it->second.front());
    }
}

void PresentationPanel::showRowValue(const Row& row, double value)
{
    const double fraction = (value - row.low) / (row.high - row.low);
    const QSignalBlocker block(row.slider);
    row.slider->setValue(
        static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * sliderSteps)));
    const QString unit = row.spec.unit.empty()
                             ? QString()
                             : QStringLiteral(" ") + QString::fromStdString(row.spec.unit);
    row.label->setText(
        QStringLiteral("%1 = %2%3").arg(symbol(row.spec)).arg(value, 0, 'g', 3).arg(unit));
}

void PresentationPanel::sliderMoved(const Row& row, int position)
{
    double value = row.low + (row.high - row.low) * position / sliderSteps;
    if (row.spec.wholeNumber)
        value = std::round(value);
    value = std::clamp(value, row.spec.lowest(), row.spec.highest());
    if (!row.spec.admits(value))
        return; // the excluded end of a range (a mass of 0)
    showRowValue(row, value);
    emit parameterEdited(QString::fromStdString(row.name), value, row.slider->isSliderDown());
}

std::vector<std::string> PresentationPanel::sliderNames() const
{
    std::vector<std::string> names;
    for (const Row& row : rows_)
        names.push_back(row.name);
    return names;
}

QSlider* PresentationPanel::slider(const std::string& name) const
{
    for (const Row& row : rows_)
        if (row.name == name)
            return row.slider;
    return nullptr;
}

bool PresentationPanel::eventFilter(QObject* watched, QEvent* event)
{
    // The wheel over a slider that was not clicked first scrolls nothing and changes nothing.
    if (event->type() == QEvent::Wheel) {
        auto* widget = qobject_cast<QWidget*>(watched);
        if (widget && !widget->hasFocus()) {
            event->ignore();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void PresentationPanel::setPlotVisible(bool visible)
{
    plot_->setVisible(visible);
    filler_->setVisible(!visible);
}

bool PresentationPanel::isPlotVisible() const
{
    return !plot_->isHidden();
}

void PresentationPanel::setCaption(const QString& caption)
{
    caption_->setText(caption);
}

QString PresentationPanel::caption() const
{
    return caption_->text();
}

void PresentationPanel::setStep(int index, int count)
{
    step_->setVisible(count > 0);
    step_->setText(tr("Step %1 of %2").arg(index + 1).arg(count));
}

void PresentationPanel::setClock(double t)
{
    clock_->setText(QStringLiteral("t = %1 s").arg(t, 0, 'f', 2));
}

void PresentationPanel::setForces(const std::array<double, 3>& magnitudes, const QString& unit)
{
    for (int i = 0; i < 3; ++i)
        forces_[i]->setText(QStringLiteral("%1 %2").arg(magnitudes[i], 0, 'f', 2).arg(unit));
}

void PresentationPanel::setContact(const QString& state)
{
    contact_->setText(state);
}

QString PresentationPanel::forceText(int kind) const
{
    return forces_.at(kind)->text();
}

QString PresentationPanel::contactText() const
{
    return contact_->text();
}

} // namespace clab
