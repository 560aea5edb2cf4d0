#pragma once

#include <QHash>
#include <QString>
#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGridLayout;
class QLabel;
class QSlider;
class QVBoxLayout;

namespace clab {

class SceneSession;
struct ParameterSpec;
struct SceneDefinition;
struct SceneDocument;
struct SimulationSetting;

/// \brief The Scene dock: every parameter of the scene with its unit (from ParameterSpec), a
/// spin box per component plus a slider where the range is finite, and the simulation settings
/// (a row per SimulationSetting: end time, output interval, integrator, tolerances, ...).
///
/// Edits go to the session's undo stack; a slider drag becomes one undo step.
class ParameterEditor : public QWidget {
    Q_OBJECT
public:
    explicit ParameterEditor(SceneSession* session, QWidget* parent = nullptr);

    /// The spin box of one component of a key (see SceneSession), or nullptr.
    QDoubleSpinBox* spinBox(const QString& key, int component = 0) const;
    /// The slider of a scalar key with a finite range, or nullptr.
    QSlider* slider(const QString& key) const;
    /// The widget of a simulation setting ("simulation.dt"), made from its row of the
    /// SimulationSetting table; nullptr for a flag the scene has no use for.
    QWidget* settingWidget(const QString& key) const { return settingWidgets_.value(key); }
    QComboBox* integratorBox() const;
    QComboBox* stabilizationBox() const;
    /// "Stop at the end of the track", only for scenes with an end; nullptr otherwise.
    QCheckBox* stopAtEndBox() const;

    /// The "About this scene" text as shown ("" when there is none).
    QString aboutText() const;
    /// The message shown under a key's field when its last entry was refused ("" if none).
    QString refusal(const QString& key) const;
    /// The spin box step for a range: a hundredth of its order of magnitude (μ in [0, 2]:
    /// 0.01; an angle in [0, 90]: 0.1).
    static double stepFor(double min, double max);

protected:
    /// A click on the stop-at-end label toggles its box, as a check box's own text would.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Row {
        std::vector<QDoubleSpinBox*> spins;
        QSlider* slider = nullptr;
        double min = 0.0;
        double max = 0.0;
        QLabel* refusal = nullptr; ///< why the entry was refused, under the field
    };

    void rebuild();
    /// The description's first sentence, then the rest and the notes under "About this scene".
    void addDescription(QVBoxLayout* layout, const SceneDefinition& definition,
                        const SceneDocument& document);
    void addParameterRows(QGridLayout* grid);
    /// The Simulation group: a row per SimulationSetting, in the table's order.
    void addSimulationRows(QFormLayout* form);
    QWidget* addChoiceRow(QFormLayout* form, const SimulationSetting& setting, const QString& key);
    QWidget* addFlagRow(QFormLayout* form, const SimulationSetting& setting, const QString& key);
    QWidget* addNumberRow(QFormLayout* form, const SimulationSetting& setting, const QString& key);
    /// Why `value` cannot be the setting's (SimulationSetting::check), "" when it can.
    QString settingRefusal(const SimulationSetting& setting, double value) const;
    /// A choice's or flag's widget shows `value`; every setting's widget is enabled as the
    /// table's enabledWhen says.
    void showSettingValue(const QString& key, double value);
    /// The slider of a scalar parameter with a finite range, wired to the spin box's value.
    QSlider* makeSlider(const ParameterSpec& spec, double step, QWidget* parent);
    QDoubleSpinBox* makeSpin(const QString& key, int component, double min, double max,
                             int decimals, double step, QWidget* parent);
    void showValue(const QString& key);
    void spinEdited(const QString& key);
    /// Why `value` cannot be `key`'s ("" when it can): outside the range, or below the
    /// parameter it must not be below.
    QString refusalFor(const QString& key, const std::vector<double>& value) const;
    void showRefusal(const QString& key, const QString& message);
    void sliderMoved(const QString& key, int position);

    SceneSession* session_;
    QVBoxLayout* layout_;
    QWidget* content_ = nullptr;
    QHash<QString, Row> rows_;
    QHash<QString, QWidget*> settingWidgets_; ///< by simulation key
    bool aboutExpanded_ = false;
    // "About this scene": the description's rest, then the notes, whose numbers follow edits.
    QLabel* notesLabel_ = nullptr;
    QString aboutPrefix_;
    int dragId_ = 0;
    int nextDragId_ = 1;
};

} // namespace clab
