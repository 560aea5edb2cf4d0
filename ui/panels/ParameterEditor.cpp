#include "panels/ParameterEditor.h"

#include "SceneNotes.h"
#include "panels/PanelContent.h"
#include "session/SceneSession.h"
#include "widgets/ParameterSpinBox.h"
#include "widgets/ScientificSpinBox.h"

#include <integrate/SimulationSetting.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProxyStyle>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace clab {

namespace {

// Spin boxes need finite limits; parameters without a bound get a wide one.
constexpr double unbounded = 1e6;

QString unitText(const std::string& unit)
{
    return unit.empty() ? QString() : QStringLiteral(" [%1]").arg(QString::fromStdString(unit));
}

// A click on a slider's groove moves it one page towards the click, never straight to the
// click (some styles jump there, which makes a precise μ impossible to set by mouse).
class PagingSliderStyle : public QProxyStyle {
public:
    int styleHint(StyleHint hint, const QStyleOption* option, const QWidget* widget,
                  QStyleHintReturn* returnData) const override
    {
        if (hint == QStyle::SH_Slider_AbsoluteSetButtons)
            return Qt::NoButton;
        if (hint == QStyle::SH_Slider_PageSetButtons)
            return Qt::LeftButton;
        return QProxyStyle::styleHint(hint, option, widget, returnData);
    }
};

QStyle* pagingSliderStyle()
{
    // One for all sliders, living as long as the application.
    static PagingSliderStyle* style = [] {
        auto* s = new PagingSliderStyle;
        s->setParent(qApp);
        return s;
    }();
    return style;
}

QString formatNumber(double value)
{
    return QString::number(value, 'g', 10);
}

} // namespace

double ParameterEditor::stepFor(double min, double max)
{
    if (!std::isfinite(min) || !std::isfinite(max) || max <= min)
        return 0.01;
    return std::pow(10.0, std::floor(std::log10(max - min)) - 2.0);
}

ParameterEditor::ParameterEditor(SceneSession* session, QWidget* parent)
    : QWidget(parent), session_(session), layout_(new QVBoxLayout(this))
{
    layout_->setContentsMargins(0, 0, 0, 0);
    connect(session_, &SceneSession::documentReset, this, &ParameterEditor::rebuild);
    // An edited system may have other parameters (or other ranges for their sliders).
    connect(session_, &SceneSession::systemChanged, this, &ParameterEditor::rebuild);
    connect(session_, &SceneSession::valueChanged, this, &ParameterEditor::showValue);
    rebuild();
}

QDoubleSpinBox* ParameterEditor::spinBox(const QString& key, int component) const
{
    const auto it = rows_.constFind(key);
    if (it == rows_.cend() || component < 0 || component >= static_cast<int>(it->spins.size()))
        return nullptr;
    return it->spins[component];
}

QSlider* ParameterEditor::slider(const QString& key) const
{
    const auto it = rows_.constFind(key);
    return it == rows_.cend() ? nullptr : it->slider;
}

void ParameterEditor::rebuild()
{
    rows_.clear();
    notesLabel_ = nullptr;
    integrator_ = nullptr;
    stabilization_ = nullptr;
    stopAtEnd_ = nullptr;
    QVBoxLayout* layout = PanelContent::renew(layout_, content_, this);

    const SceneDefinition* definition = session_->definition();
    if (!definition) {
        layout->addWidget(new QLabel(tr("No scene"), content_));
        layout->addStretch(1);
        return;
    }

    const SceneDocument& document = session_->document();
    const QString title = document.title.empty() ? QString::fromStdString(definition->title)
                                                 : QString::fromStdString(document.title);
    auto* heading = new QLabel(title, content_);
    heading->setObjectName(QStringLiteral("sceneTitle"));
    QFont headingFont = heading->font();
    headingFont.setPointSizeF(headingFont.pointSizeF() * 1.3);
    headingFont.setBold(true);
    heading->setFont(headingFont);
    heading->setWordWrap(true);
    layout->addWidget(heading);

    // The first sentence of the description always shows; the rest and the file's notes
    // fold away so that the parameters stay in view on a projector.
    const QString text = QString::fromStdString(definition->description);
    const qsizetype stop = text.indexOf(QLatin1String(". "));
    const QString summary = stop < 0 ? text : text.left(stop + 1);
    QString details = stop < 0 ? QString() : text.mid(stop + 2);
    auto* description = new QLabel(summary, content_);
    description->setObjectName(QStringLiteral("sceneSummary"));
    description->setWordWrap(true);
    layout->addWidget(description);
    // The notes' numbers follow the parameters (SceneNotes): refreshed on every edit.
    aboutPrefix_ = details;
    const QString notes = SceneNotes::shown(document);
    if (!notes.isEmpty()) {
        if (!details.isEmpty())
            details += QStringLiteral("\n\n");
        details += notes;
    }
    if (!details.isEmpty()) {
        auto* toggle = new QToolButton(content_);
        toggle->setObjectName(QStringLiteral("aboutSceneToggle"));
        toggle->setText(tr("About this scene"));
        toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        toggle->setAutoRaise(true);
        toggle->setCheckable(true);
        toggle->setChecked(aboutExpanded_);
        toggle->setArrowType(aboutExpanded_ ? Qt::DownArrow : Qt::RightArrow);
        auto* more = new QLabel(details, content_);
        notesLabel_ = more;
        more->setObjectName(QStringLiteral("sceneNotes"));
        more->setWordWrap(true);
        more->setTextInteractionFlags(Qt::TextSelectableByMouse);
        more->setContentsMargins(14, 0, 0, 4);
        more->setVisible(aboutExpanded_);
        connect(toggle, &QToolButton::toggled, this, [this, toggle, more](bool on) {
            aboutExpanded_ = on;
            toggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
            more->setVisible(on);
        });
        layout->addWidget(toggle);
        layout->addWidget(more);
    }

    auto* parameters = new QGroupBox(tr("Parameters"), content_);
    auto* grid = new QGridLayout(parameters);
    grid->setColumnStretch(1, 1);
    grid->setVerticalSpacing(8);
    addParameterRows(grid);
    layout->addWidget(parameters);

    auto* simulation = new QGroupBox(tr("Simulation"), content_);
    auto* form = new QFormLayout(simulation);
    addSimulationRows(form);
    layout->addWidget(simulation);
    layout->addStretch(1);
}

QDoubleSpinBox* ParameterEditor::makeSpin(const QString& key, int component, double min, double max,
                                          int decimals, double step, QWidget* parent)
{
    auto* spin = new ParameterSpinBox(parent);
    spin->setObjectName(QStringLiteral("spin_%1_%2").arg(key).arg(component));
    (void)decimals;
    spin->setRange(std::max(min, -unbounded), std::min(max, unbounded));
    spin->setSingleStep(step);
    // One edit per finished entry or arrow click, not one per keystroke.
    spin->setKeyboardTracking(false);
    spin->setAccelerated(true);
    spin->setAlignment(Qt::AlignRight);
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, key] { spinEdited(key); });
    return spin;
}

void ParameterEditor::addParameterRows(QGridLayout* grid)
{
    QWidget* parent = grid->parentWidget();
    int row = 0;
    for (const ParameterSpec& spec : session_->definition()->parameters) {
        const QString key = QString::fromStdString(spec.name);
        // Words for people; the key, which files and the command line use, in the tooltip.
        const QString tip = QStringLiteral("%1 (key \u201C%2\u201D)")
                                .arg(QString::fromStdString(spec.description), key);
        auto* label =
            new QLabel(QString::fromStdString(spec.displayLabel()) + unitText(spec.unit), parent);
        label->setObjectName(QStringLiteral("label_%1").arg(key));
        label->setToolTip(tip);
        // Labels in words are longer than keys: on a narrow dock they wrap rather than push
        // the value out of sight.
        label->setWordWrap(true);

        Row entry;
        entry.min = spec.min;
        entry.max = spec.max;
        const double step = stepFor(spec.min, spec.max);
        // The spin box takes any number, so that a refused entry stays as typed beside the
        // reason (refusalFor); the slider keeps to the range.
        if (spec.size() == 1) {
            grid->addWidget(label, row, 0);
            QDoubleSpinBox* spin = makeSpin(key, 0, -unbounded, unbounded, 0, step, parent);
            spin->setToolTip(tip);
            entry.spins.push_back(spin);
            if (spec.hasFiniteRange()) {
                auto* slider = new QSlider(Qt::Horizontal, parent);
                slider->setObjectName(QStringLiteral("slider_%1").arg(key));
                slider->setStyle(pagingSliderStyle());
                // One position per step: every value the slider reaches is a round one.
                const int positions = static_cast<int>(
                    std::clamp(std::lround((spec.max - spec.min) / step), 10L, 100000L));
                slider->setRange(0, positions);
                slider->setSingleStep(1);
                slider->setPageStep(std::max(1, positions / 20));
                slider->setToolTip(tip);
                slider->setMinimumWidth(50);
                entry.slider = slider;
                grid->addWidget(slider, row, 1);
                grid->addWidget(spin, row, 2);
                connect(slider, &QSlider::sliderPressed, this, [this] { dragId_ = nextDragId_++; });
                connect(slider, &QSlider::sliderReleased, this, [this] { dragId_ = 0; });
                connect(slider, &QSlider::valueChanged, this,
                        [this, key](int position) { sliderMoved(key, position); });
            } else {
                grid->addWidget(spin, row, 1, 1, 2);
            }
        } else {
            // Components on a row of their own, under the name: four spin boxes beside the
            // label would not fit the dock's default width.
            grid->addWidget(label, row, 0, 1, 3);
            ++row;
            auto* box = new QHBoxLayout;
            box->setSpacing(4);
            box->setContentsMargins(12, 0, 0, 0);
            for (int c = 0; c < spec.size(); ++c) {
                QDoubleSpinBox* spin = makeSpin(key, c, -unbounded, unbounded, 0, step, parent);
                spin->setToolTip(QStringLiteral("%1[%2]: %3").arg(key).arg(c).arg(tip));
                spin->setMinimumWidth(56);
                entry.spins.push_back(spin);
                box->addWidget(spin, 1);
            }
            grid->addLayout(box, row, 0, 1, 3);
        }
        ++row;
        entry.refusal = new QLabel(parent);
        entry.refusal->setObjectName(QStringLiteral("refusal_%1").arg(key));
        entry.refusal->setWordWrap(true);
        entry.refusal->setStyleSheet(QStringLiteral("color: #b00020;"));
        entry.refusal->hide();
        grid->addWidget(entry.refusal, row, 0, 1, 3);
        rows_.insert(key, entry);
        showValue(key);
        ++row;
    }
}

QString ParameterEditor::aboutText() const
{
    return notesLabel_ ? notesLabel_->text() : QString();
}

QString ParameterEditor::refusal(const QString& key) const
{
    const auto it = rows_.constFind(key);
    return it == rows_.cend() || !it->refusal || it->refusal->isHidden() ? QString()
                                                                         : it->refusal->text();
}

QString ParameterEditor::refusalFor(const QString& key, const std::vector<double>& value) const
{
    const SceneDefinition* definition = session_->definition();
    const ParameterSpec* spec = definition ? definition->parameter(key.toStdString()) : nullptr;
    if (!spec)
        return {};
    const QString name = QString::fromStdString(spec->displayLabel());
    const QString unit =
        spec->unit.empty() ? QString() : QLatin1Char(' ') + QString::fromStdString(spec->unit);
    for (double v : value) {
        if (spec->admits(v))
            continue;
        if (v > spec->highest())
            return tr("%1 must be at most %2%3.").arg(name, formatNumber(spec->highest()), unit);
        if (spec->minExclusive && spec->min == 0.0)
            return tr("%1 must be greater than 0.").arg(name);
        return tr("%1 must be at least %2%3.").arg(name, formatNumber(spec->lowest()), unit);
    }
    if (spec->nonZero && std::all_of(value.begin(), value.end(), [](double v) { return v == 0; }))
        return tr("%1 must not be all zero.").arg(name);
    if (!spec->notBelow.empty()) {
        const ParameterSpec* floor = definition->parameter(spec->notBelow);
        const std::vector<double> floorValue =
            session_->value(QString::fromStdString(spec->notBelow));
        for (std::size_t i = 0; i < value.size() && i < floorValue.size(); ++i)
            if (value[i] < floorValue[i])
                return tr("%1 must be at least %2 (%3): lower %2 first.")
                    .arg(name, QString::fromStdString(floor->displayLabel()),
                         formatNumber(floorValue[i]));
    }
    return {};
}

void ParameterEditor::showRefusal(const QString& key, const QString& message)
{
    const auto it = rows_.find(key);
    if (it == rows_.end() || !it->refusal)
        return;
    it->refusal->setText(message);
    it->refusal->setVisible(!message.isEmpty());
}

namespace {

// A simulation setting's row label and tooltip, from the one table of settings.
QString rowLabel(const char* key)
{
    const SimulationSetting* setting = SimulationSetting::find(key);
    const QString unit = QString::fromStdString(setting->unit);
    return QString::fromStdString(setting->symbol) +
           (unit.isEmpty() ? QString() : QStringLiteral(" [%1]").arg(unit)) + QLatin1Char(':');
}

QString documentation(const char* key)
{
    return QString::fromStdString(SimulationSetting::find(key)->documentation);
}

} // namespace

void ParameterEditor::addSimulationRows(QFormLayout* form)
{
    QWidget* parent = form->parentWidget();
    integrator_ = new QComboBox(parent);
    integrator_->setObjectName(QStringLiteral("integratorBox"));
    integrator_->addItem(tr("Dormand–Prince 5(4), adaptive"));
    integrator_->addItem(tr("Runge–Kutta 4, fixed step"));
    integrator_->setToolTip(documentation("integrator"));
    // The names are long for a narrow dock: the closed box may elide them (the list shows all).
    integrator_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    integrator_->setMinimumContentsLength(12);
    form->addRow(tr("Integrator:"), integrator_);
    const QString integratorKey = SceneSession::simulationKey("integrator");
    connect(integrator_, &QComboBox::currentIndexChanged, this, [this, integratorKey](int index) {
        session_->edit(integratorKey, {static_cast<double>(index)});
    });

    const QString tEnd = SceneSession::simulationKey("t_end");
    QDoubleSpinBox* end = makeSpin(tEnd, 0, 0.01, 1e4, 2, 1.0, parent);
    end->setToolTip(documentation("t_end"));
    rows_.insert(tEnd, Row{{end}, nullptr, 0.01, 1e4});
    form->addRow(rowLabel("t_end"), end);

    if (const SceneDefinition* definition = session_->definition(); !definition->end.empty()) {
        stopAtEnd_ = new QCheckBox(tr("Stop at the end of the track"), parent);
        stopAtEnd_->setObjectName(QStringLiteral("stopAtEndBox"));
        stopAtEnd_->setToolTip(tr("End the run where %1, if that comes before t_end")
                                   .arg(QString::fromStdString(definition->end)));
        form->addRow(stopAtEnd_);
        const QString key = SceneSession::simulationKey("stop_at_end");
        connect(stopAtEnd_, &QCheckBox::toggled, this,
                [this, key](bool on) { session_->edit(key, {on ? 1.0 : 0.0}); });
    }

    const QString dt = SceneSession::simulationKey("dt");
    QDoubleSpinBox* interval = makeSpin(dt, 0, 1e-5, 10.0, 5, 0.001, parent);
    interval->setToolTip(documentation("dt"));
    rows_.insert(dt, Row{{interval}, nullptr, 1e-5, 10.0});
    form->addRow(rowLabel("dt"), interval);

    for (const char* name : {"rtol", "atol"}) {
        const QString key = SceneSession::simulationKey(name);
        auto* spin = new ScientificSpinBox(parent);
        spin->setObjectName(QStringLiteral("spin_%1_0").arg(key));
        spin->setKeyboardTracking(false);
        spin->setAlignment(Qt::AlignRight);
        spin->setToolTip(documentation(name));
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, key] { spinEdited(key); });
        rows_.insert(key, Row{{spin}, nullptr, spin->minimum(), spin->maximum()});
        form->addRow(rowLabel(name), spin);
    }

    stabilization_ = new QComboBox(parent);
    stabilization_->setObjectName(QStringLiteral("stabilizationBox"));
    stabilization_->addItem(tr("None"));
    stabilization_->addItem(tr("Baumgarte"));
    stabilization_->addItem(tr("Projection"));
    stabilization_->setToolTip(documentation("stabilization"));
    form->addRow(tr("Stabilization:"), stabilization_);
    const QString stabilizationKey = SceneSession::simulationKey("stabilization");
    connect(stabilization_, &QComboBox::currentIndexChanged, this,
            [this, stabilizationKey](int index) {
                session_->edit(stabilizationKey, {static_cast<double>(index)});
            });
    for (const char* name : {"baumgarte_alpha", "baumgarte_beta"}) {
        const QString key = SceneSession::simulationKey(name);
        QDoubleSpinBox* spin = makeSpin(key, 0, 0.0, 1e4, 2, 1.0, parent);
        spin->setToolTip(documentation(name));
        rows_.insert(key, Row{{spin}, nullptr, 0.0, 1e4});
        form->addRow(rowLabel(name), spin);
    }
    for (const QString& key : SceneSession::simulationKeys())
        showValue(key);
}

void ParameterEditor::showValue(const QString& key)
{
    if (!session_->hasKey(key))
        return;
    if (notesLabel_) {
        const QString notes = SceneNotes::shown(session_->document());
        notesLabel_->setText(aboutPrefix_.isEmpty() || notes.isEmpty()
                                 ? aboutPrefix_ + notes
                                 : aboutPrefix_ + QStringLiteral("\n\n") + notes);
    }
    const std::vector<double> value = session_->value(key);
    if (key == SceneSession::simulationKey("integrator")) {
        if (integrator_) {
            const QSignalBlocker block(integrator_);
            integrator_->setCurrentIndex(value[0] != 0.0 ? 1 : 0);
        }
        // Tolerances mean nothing to the fixed-step method.
        const bool adaptive = value[0] == 0.0;
        for (const char* name : {"rtol", "atol"})
            if (QDoubleSpinBox* spin = spinBox(SceneSession::simulationKey(name)))
                spin->setEnabled(adaptive);
        return;
    }
    if (key == SceneSession::simulationKey("stabilization")) {
        const int index = std::clamp(static_cast<int>(value[0]), 0, 2);
        if (stabilization_) {
            const QSignalBlocker block(stabilization_);
            stabilization_->setCurrentIndex(index);
        }
        // The gains only matter to Baumgarte stabilization.
        for (const char* name : {"baumgarte_alpha", "baumgarte_beta"})
            if (QDoubleSpinBox* spin = spinBox(SceneSession::simulationKey(name)))
                spin->setEnabled(index == 1);
        return;
    }
    if (key == SceneSession::simulationKey("stop_at_end")) {
        if (stopAtEnd_) {
            const QSignalBlocker block(stopAtEnd_);
            stopAtEnd_->setChecked(value[0] != 0.0);
        }
        return;
    }
    const auto it = rows_.find(key);
    if (it == rows_.end())
        return;
    for (std::size_t c = 0; c < it->spins.size() && c < value.size(); ++c) {
        const QSignalBlocker block(it->spins[c]);
        it->spins[c]->setValue(value[c]);
    }
    // The value shown is the document's again: nothing refused is on display.
    if (it->refusal)
        it->refusal->hide();
    if (it->slider && !value.empty() && it->max > it->min) {
        const QSignalBlocker block(it->slider);
        const double fraction = (value[0] - it->min) / (it->max - it->min);
        it->slider->setValue(
            static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * it->slider->maximum())));
    }
}

void ParameterEditor::spinEdited(const QString& key)
{
    const auto it = rows_.constFind(key);
    if (it == rows_.cend())
        return;
    std::vector<double> value;
    for (const QDoubleSpinBox* spin : it->spins)
        value.push_back(spin->value());
    // A value the scene cannot take stays in the field as typed, with the reason beside it;
    // nothing else changes (no clamping, no moving another parameter).
    const QString why = refusalFor(key, value);
    showRefusal(key, why);
    if (!why.isEmpty())
        return;
    session_->edit(key, value);
}

void ParameterEditor::sliderMoved(const QString& key, int position)
{
    const auto it = rows_.constFind(key);
    if (it == rows_.cend() || it->spins.empty())
        return;
    QDoubleSpinBox* spin = it->spins.front();
    double value = it->min + (it->max - it->min) * position / it->slider->maximum();
    // Round to what the spin box shows so the value, the text and the file agree.
    const double scale = std::pow(10.0, spin->decimals());
    value = std::clamp(std::round(value * scale) / scale, spin->minimum(), spin->maximum());
    // The slider cannot take μₛ below μ either: it goes back to the value in force, with the
    // reason shown.
    const QString why = refusalFor(key, {value});
    if (!why.isEmpty()) {
        showValue(key);
        showRefusal(key, why);
        return;
    }
    showRefusal(key, QString());
    // Consecutive moves of one drag merge into one undo step.
    session_->edit(key, {value}, it->slider->isSliderDown() ? dragId_ : 0);
}

} // namespace clab
