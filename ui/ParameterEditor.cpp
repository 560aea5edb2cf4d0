#include "ParameterEditor.h"

#include "SceneSession.h"
#include "ScientificSpinBox.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
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

// One significant digit below the span: mu in [0, 2] steps by 0.1, an angle in [0, 90] by 1.
double stepFor(double min, double max)
{
    if (!std::isfinite(min) || !std::isfinite(max) || max <= min)
        return 0.1;
    return std::pow(10.0, std::floor(std::log10(max - min)) - 1.0);
}

int decimalsFor(double step)
{
    return std::clamp(static_cast<int>(std::ceil(-std::log10(step))) + 2, 2, 6);
}

} // namespace

ParameterEditor::ParameterEditor(SceneSession* session, QWidget* parent)
    : QWidget(parent), session_(session), layout_(new QVBoxLayout(this))
{
    layout_->setContentsMargins(0, 0, 0, 0);
    connect(session_, &SceneSession::documentReset, this, &ParameterEditor::rebuild);
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
    integrator_ = nullptr;
    stabilization_ = nullptr;
    if (content_) {
        // Deferred: a rebuild can be triggered from inside the old widgets' signals.
        layout_->removeWidget(content_);
        content_->hide();
        content_->deleteLater();
    }
    content_ = new QWidget(this);
    layout_->addWidget(content_);
    auto* layout = new QVBoxLayout(content_);
    layout->setContentsMargins(6, 6, 6, 6);

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
    if (!document.notes.empty()) {
        if (!details.isEmpty())
            details += QStringLiteral("\n\n");
        details += QString::fromStdString(document.notes);
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
    auto* spin = new QDoubleSpinBox(parent);
    spin->setObjectName(QStringLiteral("spin_%1_%2").arg(key).arg(component));
    spin->setDecimals(decimals);
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
        const QString tip = QString::fromStdString(spec.description);
        auto* label = new QLabel(key + unitText(spec.unit), parent);
        label->setToolTip(tip);

        Row entry;
        entry.min = spec.min;
        entry.max = spec.max;
        const double step = stepFor(spec.min, spec.max);
        const int decimals = decimalsFor(step);
        if (spec.size() == 1) {
            grid->addWidget(label, row, 0);
            QDoubleSpinBox* spin = makeSpin(key, 0, spec.min, spec.max, decimals, step, parent);
            spin->setToolTip(tip);
            entry.spins.push_back(spin);
            if (spec.hasFiniteRange()) {
                auto* slider = new QSlider(Qt::Horizontal, parent);
                slider->setObjectName(QStringLiteral("slider_%1").arg(key));
                slider->setRange(0, sliderSteps);
                slider->setPageStep(sliderSteps / 10);
                slider->setToolTip(tip);
                slider->setMinimumWidth(90);
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
                QDoubleSpinBox* spin = makeSpin(key, c, spec.min, spec.max, decimals, step, parent);
                spin->setToolTip(QStringLiteral("%1[%2]: %3").arg(key).arg(c).arg(tip));
                spin->setMinimumWidth(56);
                entry.spins.push_back(spin);
                box->addWidget(spin, 1);
            }
            grid->addLayout(box, row, 0, 1, 3);
        }
        rows_.insert(key, entry);
        showValue(key);
        ++row;
    }
}

void ParameterEditor::addSimulationRows(QFormLayout* form)
{
    QWidget* parent = form->parentWidget();
    integrator_ = new QComboBox(parent);
    integrator_->setObjectName(QStringLiteral("integratorBox"));
    integrator_->addItem(tr("Dormand–Prince 5(4), adaptive"));
    integrator_->addItem(tr("Runge–Kutta 4, fixed step"));
    integrator_->setToolTip(tr("The adaptive method uses rtol and atol; RK4 steps with dt"));
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
    end->setToolTip(tr("End time of the simulation"));
    rows_.insert(tEnd, Row{{end}, nullptr, 0.01, 1e4});
    form->addRow(tr("t_end [s]:"), end);

    const QString dt = SceneSession::simulationKey("dt");
    QDoubleSpinBox* interval = makeSpin(dt, 0, 1e-5, 10.0, 5, 0.001, parent);
    interval->setToolTip(tr("Output interval (and the fixed step of RK4)"));
    rows_.insert(dt, Row{{interval}, nullptr, 1e-5, 10.0});
    form->addRow(tr("dt [s]:"), interval);

    for (const char* name : {"rtol", "atol"}) {
        const QString key = SceneSession::simulationKey(name);
        auto* spin = new ScientificSpinBox(parent);
        spin->setObjectName(QStringLiteral("spin_%1_0").arg(key));
        spin->setKeyboardTracking(false);
        spin->setAlignment(Qt::AlignRight);
        spin->setToolTip(QLatin1String(name) == QLatin1String("rtol")
                             ? tr("Relative error tolerance of the adaptive integrator")
                             : tr("Absolute error tolerance of the adaptive integrator"));
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, key] { spinEdited(key); });
        rows_.insert(key, Row{{spin}, nullptr, spin->minimum(), spin->maximum()});
        form->addRow(QStringLiteral("%1:").arg(QLatin1String(name)), spin);
    }

    stabilization_ = new QComboBox(parent);
    stabilization_->setObjectName(QStringLiteral("stabilizationBox"));
    stabilization_->addItem(tr("None"));
    stabilization_->addItem(tr("Baumgarte"));
    stabilization_->addItem(tr("Projection"));
    stabilization_->setToolTip(
        tr("How the drift of the constraints under integration is corrected: not at all, by "
           "Baumgarte terms in b, or by projecting q and q̇ back after each step"));
    form->addRow(tr("Stabilization:"), stabilization_);
    const QString stabilizationKey = SceneSession::simulationKey("stabilization");
    connect(stabilization_, &QComboBox::currentIndexChanged, this,
            [this, stabilizationKey](int index) {
                session_->edit(stabilizationKey, {static_cast<double>(index)});
            });
    for (const char* name : {"baumgarte_alpha", "baumgarte_beta"}) {
        const QString key = SceneSession::simulationKey(name);
        QDoubleSpinBox* spin = makeSpin(key, 0, 0.0, 1e4, 2, 1.0, parent);
        spin->setToolTip(tr("Baumgarte gain in 1/s; α = β damps the drift critically"));
        rows_.insert(key, Row{{spin}, nullptr, 0.0, 1e4});
        form->addRow(QLatin1String(name) == QLatin1String("baumgarte_alpha") ? tr("α [1/s]:")
                                                                             : tr("β [1/s]:"),
                     spin);
    }
    for (const QString& key : SceneSession::simulationKeys())
        showValue(key);
}

void ParameterEditor::showValue(const QString& key)
{
    if (!session_->hasKey(key))
        return;
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
    const auto it = rows_.find(key);
    if (it == rows_.end())
        return;
    for (std::size_t c = 0; c < it->spins.size() && c < value.size(); ++c) {
        const QSignalBlocker block(it->spins[c]);
        it->spins[c]->setValue(value[c]);
    }
    if (it->slider && !value.empty() && it->max > it->min) {
        const QSignalBlocker block(it->slider);
        const double fraction = (value[0] - it->min) / (it->max - it->min);
        it->slider->setValue(
            static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * sliderSteps)));
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
    session_->edit(key, value);
}

void ParameterEditor::sliderMoved(const QString& key, int position)
{
    const auto it = rows_.constFind(key);
    if (it == rows_.cend() || it->spins.empty())
        return;
    QDoubleSpinBox* spin = it->spins.front();
    double value = it->min + (it->max - it->min) * position / sliderSteps;
    // Round to what the spin box shows so the value, the text and the file agree.
    const double scale = std::pow(10.0, spin->decimals());
    value = std::clamp(std::round(value * scale) / scale, spin->minimum(), spin->maximum());
    // Consecutive moves of one drag merge into one undo step.
    session_->edit(key, {value}, it->slider->isSliderDown() ? dragId_ : 0);
}

} // namespace clab
