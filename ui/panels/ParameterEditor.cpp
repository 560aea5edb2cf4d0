#include "panels/ParameterEditor.h"

#include "SceneNotes.h"
#include "panels/PanelContent.h"
#include "session/SceneSession.h"
#include "widgets/ParameterSpinBox.h"
#include "widgets/ScientificSpinBox.h"

#include <integrate/SimulationSetting.h>
#include <model/ParameterRule.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
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

QComboBox* ParameterEditor::integratorBox() const
{
    return qobject_cast<QComboBox*>(settingWidget(SceneSession::simulationKey("integrator")));
}

QComboBox* ParameterEditor::stabilizationBox() const
{
    return qobject_cast<QComboBox*>(settingWidget(SceneSession::simulationKey("stabilization")));
}

QCheckBox* ParameterEditor::stopAtEndBox() const
{
    return qobject_cast<QCheckBox*>(settingWidget(SceneSession::simulationKey("stop_at_end")));
}

QSlider* ParameterEditor::slider(const QString& key) const
{
    const auto it = rows_.constFind(key);
    return it == rows_.cend() ? nullptr : it->slider;
}

void ParameterEditor::rebuild()
{
    rows_.clear();
    settingWidgets_.clear();
    notesLabel_ = nullptr;
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

    addDescription(layout, *definition, document);

    auto* parameters = new QGroupBox(tr("Parameters"), content_);
    auto* grid = new QGridLayout(parameters);
    grid->setColumnStretch(1, 1);
    grid->setVerticalSpacing(8);
    addParameterRows(grid);
    layout->addWidget(parameters);

    auto* simulation = new QGroupBox(tr("Simulation"), content_);
    auto* form = new QFormLayout(simulation);
    // A field too wide beside its label goes under it: the dock stays narrow on a projector.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    addSimulationRows(form);
    layout->addWidget(simulation);
    layout->addStretch(1);
}

void ParameterEditor::addDescription(QVBoxLayout* layout, const SceneDefinition& definition,
                                     const SceneDocument& document)
{
    // The first sentence of the description always shows; the rest and the file's notes
    // fold away so that the parameters stay in view on a projector.
    const QString text = QString::fromStdString(definition.description);
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

QSlider* ParameterEditor::makeSlider(const ParameterSpec& spec, double step, QWidget* parent)
{
    const QString key = QString::fromStdString(spec.name);
    auto* slider = new QSlider(Qt::Horizontal, parent);
    slider->setObjectName(QStringLiteral("slider_%1").arg(key));
    slider->setStyle(pagingSliderStyle());
    // One position per step: every value the slider reaches is a round one.
    const int positions =
        static_cast<int>(std::clamp(std::lround((spec.max - spec.min) / step), 10L, 100000L));
    slider->setRange(0, positions);
    slider->setSingleStep(1);
    slider->setPageStep(std::max(1, positions / 20));
    // A drag is one undo step: the edits between press and release share an id.
    connect(slider, &QSlider::sliderPressed, this, [this] { dragId_ = nextDragId_++; });
    connect(slider, &QSlider::sliderReleased, this, [this] { dragId_ = 0; });
    connect(slider, &QSlider::valueChanged, this,
            [this, key](int position) { sliderMoved(key, position); });
    return slider;
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
            QDoubleSpinBox* spin = makeSpin(key, 0, -unbounded, unbounded, 0, step, parent);
            spin->setToolTip(tip);
            entry.spins.push_back(spin);
            if (spec.hasFiniteRange()) {
                QSlider* slider = makeSlider(spec, step, parent);
                slider->setToolTip(tip);
                entry.slider = slider;
                // The slider on a row of its own, as wide as the (narrow) dock.
                grid->addWidget(label, row, 0, 1, 2);
                grid->addWidget(spin, row, 2);
                ++row;
                grid->addWidget(slider, row, 0, 1, 3);
            } else {
                grid->addWidget(label, row, 0);
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
    if (const SimulationSetting* setting = SceneSession::simulationSetting(key))
        return value.empty() ? QString() : settingRefusal(*setting, value.front());
    const SceneDefinition* definition = session_->definition();
    const ParameterSpec* spec = definition ? definition->parameter(key.toStdString()) : nullptr;
    if (!spec)
        return {};
    const QString name = QString::fromStdString(spec->displayLabel());
    const QString unit =
        spec->unit.empty() ? QString() : QLatin1Char(' ') + QString::fromStdString(spec->unit);
    for (const ParameterRule::Violation& violation : ParameterRule::check(*spec, value)) {
        switch (violation.kind) {
        case ParameterRule::Kind::NotFinite:
        case ParameterRule::Kind::OutOfRange:
            if (violation.value > spec->highest())
                return tr("%1 must be at most %2%3.")
                    .arg(name, formatNumber(spec->highest()), unit);
            if (spec->minExclusive && spec->min == 0.0)
                return tr("%1 must be greater than 0.").arg(name);
            return tr("%1 must be at least %2%3.").arg(name, formatNumber(spec->lowest()), unit);
        case ParameterRule::Kind::AllZero:
            return tr("%1 must not be all zero.").arg(name);
        case ParameterRule::Kind::ComponentCount: // the row has a spin box per component
        case ParameterRule::Kind::NotWhole:       // left to the run, which reports it
        case ParameterRule::Kind::Below:
            break;
        }
    }
    if (spec->notBelow.empty())
        return {};
    const ParameterValues floor{
        {spec->notBelow, session_->value(QString::fromStdString(spec->notBelow))}};
    if (const auto below = ParameterRule::checkFloor(*spec, value, floor))
        return tr("%1 must be at least %2 (%3): lower %2 first.")
            .arg(name,
                 QString::fromStdString(definition->parameter(spec->notBelow)->displayLabel()),
                 formatNumber(below->floor));
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

// A simulation setting's row label, from the one table of settings: "dt [s]:".
QString rowLabel(const SimulationSetting& setting)
{
    return QString::fromStdString(setting.label) + unitText(setting.unit) + QLatin1Char(':');
}

// A setting's widget name: "integratorBox", "stopAtEndBox" (the key in camel case).
QString boxName(const std::string& key)
{
    QString name;
    bool upper = false;
    for (const char c : key) {
        if (c == '_')
            upper = true;
        else
            name += upper ? QChar::fromLatin1(c).toUpper() : QChar::fromLatin1(c);
        upper = upper && c == '_';
    }
    return name + QStringLiteral("Box");
}

// A spin box step for a setting without a finite range: a tenth of its default's order of
// magnitude (t_end 10 s: 1 s; dt 0.01 s: 0.001 s).
double defaultStep(const SimulationSetting& setting)
{
    const double value = std::abs(setting.get(SimulationOptions{}));
    return value > 0.0 ? std::pow(10.0, std::floor(std::log10(value)) - 1.0) : 0.1;
}

} // namespace

void ParameterEditor::addSimulationRows(QFormLayout* form)
{
    for (const SimulationSetting& setting : SimulationSetting::all()) {
        const QString key = SceneSession::simulationKey(QString::fromStdString(setting.key));
        QWidget* widget = nullptr;
        switch (setting.kind) {
        case SimulationSetting::Kind::Choice:
            widget = addChoiceRow(form, setting, key);
            break;
        case SimulationSetting::Kind::Flag:
            widget = addFlagRow(form, setting, key);
            break;
        case SimulationSetting::Kind::Number:
            widget = addNumberRow(form, setting, key);
            break;
        }
        if (widget)
            settingWidgets_.insert(key, widget);
    }
    for (const QString& key : SceneSession::simulationKeys())
        showValue(key);
}

QWidget* ParameterEditor::addChoiceRow(QFormLayout* form, const SimulationSetting& setting,
                                       const QString& key)
{
    auto* box = new QComboBox(form->parentWidget());
    box->setObjectName(boxName(setting.key));
    for (const std::string& label : setting.choiceLabels)
        box->addItem(QString::fromStdString(label));
    box->setToolTip(QString::fromStdString(setting.documentation));
    // The names are long for a narrow dock: the closed box may elide them (the list shows all).
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(12);
    form->addRow(rowLabel(setting), box);
    connect(box, &QComboBox::currentIndexChanged, this,
            [this, key](int index) { session_->edit(key, {static_cast<double>(index)}); });
    return box;
}

QWidget* ParameterEditor::addFlagRow(QFormLayout* form, const SimulationSetting& setting,
                                     const QString& key)
{
    // The one flag, stop_at_end, means something only for a scene whose track has an end.
    const SceneDefinition* definition = session_->definition();
    if (definition->end.empty())
        return nullptr;
    // The words in a label that wraps, beside the box: a check box's own text never wraps and
    // would widen the dock with large text.
    auto* box = new QCheckBox(form->parentWidget());
    box->setObjectName(boxName(setting.key));
    box->setToolTip(tr("End the run where %1, if that comes before t_end")
                        .arg(QString::fromStdString(definition->end)));
    box->setAccessibleName(QString::fromStdString(setting.label));
    auto* label = new QLabel(QString::fromStdString(setting.label), form->parentWidget());
    label->setWordWrap(true);
    label->setBuddy(box);
    label->setToolTip(box->toolTip());
    label->setObjectName(boxName(setting.key) + QStringLiteral("Label"));
    label->installEventFilter(this);
    form->addRow(box, label);
    connect(box, &QCheckBox::toggled, this,
            [this, key](bool on) { session_->edit(key, {on ? 1.0 : 0.0}); });
    return box;
}

bool ParameterEditor::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::MouseButtonRelease) {
        auto* label = qobject_cast<QLabel*>(watched);
        auto* box = label ? qobject_cast<QCheckBox*>(label->buddy()) : nullptr;
        if (box && box->isEnabled()) {
            box->click();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

QWidget* ParameterEditor::addNumberRow(QFormLayout* form, const SimulationSetting& setting,
                                       const QString& key)
{
    QWidget* parent = form->parentWidget();
    // The table's range; a minimum the setting must exceed is refused on entry (refusalFor).
    const double lowest = std::max(setting.min, -unbounded);
    const double highest = std::min(setting.max, unbounded);
    QDoubleSpinBox* spin = nullptr;
    if (setting.logarithmic) {
        spin = new ScientificSpinBox(parent);
        spin->setObjectName(QStringLiteral("spin_%1_0").arg(key));
        spin->setRange(lowest, highest);
        spin->setKeyboardTracking(false);
        spin->setAlignment(Qt::AlignRight);
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, key] { spinEdited(key); });
    } else {
        spin = makeSpin(key, 0, lowest, highest, 0, defaultStep(setting), parent);
    }
    spin->setToolTip(QString::fromStdString(setting.documentation));
    form->addRow(rowLabel(setting), spin);
    auto* refusal = new QLabel(parent);
    refusal->setObjectName(QStringLiteral("refusal_%1").arg(key));
    refusal->setWordWrap(true);
    refusal->setStyleSheet(QStringLiteral("color: #b00020;"));
    refusal->hide();
    form->addRow(refusal);
    rows_.insert(key, Row{{spin}, nullptr, lowest, highest, refusal});
    return spin;
}

QString ParameterEditor::settingRefusal(const SimulationSetting& setting, double value) const
{
    // The rules of check(), from the initial time of every scene so far (0).
    SimulationOptions options = session_->document().simulation;
    setting.set(options, value);
    const auto problem = SimulationSetting::check(options, 0.0);
    if (!problem || problem->key != setting.key)
        return {};
    return tr("%1 %2.").arg(QString::fromStdString(setting.label),
                            QString::fromStdString(problem->reason));
}

void ParameterEditor::showSettingValue(const QString& key, double value)
{
    if (auto* box = qobject_cast<QComboBox*>(settingWidgets_.value(key))) {
        const QSignalBlocker block(box);
        box->setCurrentIndex(std::clamp(static_cast<int>(value), 0, box->count() - 1));
    } else if (auto* check = qobject_cast<QCheckBox*>(settingWidgets_.value(key))) {
        const QSignalBlocker block(check);
        check->setChecked(value != 0.0);
    }
    // A setting that has no effect with the others (the tolerances with rk4, the gains
    // without Baumgarte) is shown disabled.
    const SimulationOptions& options = session_->document().simulation;
    for (const SimulationSetting& setting : SimulationSetting::all())
        if (QWidget* widget = settingWidgets_.value(
                SceneSession::simulationKey(QString::fromStdString(setting.key))))
            widget->setEnabled(setting.enabledIn(options));
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
    if (SceneSession::simulationSetting(key))
        showSettingValue(key, value[0]);
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
