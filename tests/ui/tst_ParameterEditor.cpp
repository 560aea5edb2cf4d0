// The Scene dock's Simulation group, made from the table of settings: a widget per setting
// with the table's range, label and when-enabled, and entries check() refuses are refused
// beside the field; the parameters' refusals come from the parameter rules of core.

#include <integrate/SimulationSetting.h>
#include <panels/ParameterEditor.h>
#include <scenes/SceneRegistry.h>
#include <session/SceneSession.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QTest>
#include <QUndoStack>

using namespace clab;

namespace {

SceneDocument scene(const char* name)
{
    return SceneDocument::fromDefinition(*SceneRegistry::find(name));
}

QString keyOf(const SimulationSetting& setting)
{
    return SceneSession::simulationKey(QString::fromStdString(setting.key));
}

} // namespace

class ParameterEditorTest : public QObject {
    Q_OBJECT
private slots:
    void everySettingHasAWidgetWithTheTablesRange()
    {
        SceneSession session;
        session.setDocument(scene("bead-on-wire"), {});
        ParameterEditor editor(&session);
        for (const SimulationSetting& setting : SimulationSetting::all()) {
            QWidget* widget = editor.settingWidget(keyOf(setting));
            QVERIFY2(widget, setting.key.c_str());
            if (setting.kind == SimulationSetting::Kind::Choice) {
                auto* box = qobject_cast<QComboBox*>(widget);
                QVERIFY(box);
                QCOMPARE(box->count(), static_cast<int>(setting.names.size()));
                QCOMPARE(box->itemText(box->count() - 1),
                         QString::fromStdString(setting.choiceLabels.back()));
            } else if (setting.kind == SimulationSetting::Kind::Number) {
                QDoubleSpinBox* spin = editor.spinBox(keyOf(setting));
                QCOMPARE(spin, widget);
                QCOMPARE(spin->minimum(), setting.min);
                QCOMPARE(spin->maximum(), std::min(setting.max, 1e6));
            }
        }
        QCOMPARE(editor.spinBox(QStringLiteral("simulation.dt"))->minimum(), 0.0);
        QCOMPARE(editor.spinBox(QStringLiteral("simulation.rtol"))->maximum(), 1.0);
        QCOMPARE(editor.integratorBox()->itemText(1), QStringLiteral("Runge–Kutta 4, fixed step"));
        QVERIFY(editor.stopAtEndBox() != nullptr);
        QCOMPARE(editor.stopAtEndBox()->objectName(), QStringLiteral("stopAtEndBox"));
    }

    void aSceneWithoutAnEndHasNoStopBox()
    {
        SceneSession session;
        session.setDocument(scene("ring"), {});
        ParameterEditor editor(&session);
        QVERIFY(editor.stopAtEndBox() == nullptr);
        QVERIFY(editor.integratorBox() != nullptr);
    }

    void widgetsAreEnabledWhereTheTableSays()
    {
        SceneSession session;
        session.setDocument(scene("bead-on-wire"), {});
        ParameterEditor editor(&session);
        const auto check = [&] {
            for (const SimulationSetting& setting : SimulationSetting::all())
                if (QWidget* widget = editor.settingWidget(keyOf(setting)))
                    QVERIFY2(widget->isEnabled() ==
                                 setting.enabledIn(session.document().simulation),
                             setting.key.c_str());
        };
        QVERIFY(editor.spinBox(QStringLiteral("simulation.rtol"))->isEnabled());
        QVERIFY(!editor.spinBox(QStringLiteral("simulation.baumgarte_alpha"))->isEnabled());
        check();
        editor.integratorBox()->setCurrentIndex(1);
        QVERIFY(session.document().simulation.integrator == IntegratorKind::Rk4);
        QVERIFY(!editor.spinBox(QStringLiteral("simulation.rtol"))->isEnabled());
        QVERIFY(!editor.spinBox(QStringLiteral("simulation.atol"))->isEnabled());
        QVERIFY(editor.spinBox(QStringLiteral("simulation.dt"))->isEnabled());
        check();
        editor.stabilizationBox()->setCurrentIndex(1);
        QVERIFY(editor.spinBox(QStringLiteral("simulation.baumgarte_beta"))->isEnabled());
        check();
        session.undoStack()->undo();
        session.undoStack()->undo();
        check();
        QVERIFY(editor.spinBox(QStringLiteral("simulation.rtol"))->isEnabled());
    }

    void entriesOutsideTheRangeAreRefused()
    {
        SceneSession session;
        session.setDocument(scene("ring"), {});
        ParameterEditor editor(&session);
        const double before = session.document().simulation.dt;
        QDoubleSpinBox* dt = editor.spinBox(QStringLiteral("simulation.dt"));
        dt->setValue(0.0);
        QCOMPARE(session.document().simulation.dt, before);
        QCOMPARE(editor.refusal(QStringLiteral("simulation.dt")),
                 QStringLiteral("dt must be greater than 0 s (got 0)."));
        // Too many output intervals for t_end: check()'s second rule of dt.
        dt->setValue(1e-9);
        QVERIFY(editor.refusal(QStringLiteral("simulation.dt")).contains("output intervals"));
        dt->setValue(0.5);
        QCOMPARE(session.document().simulation.dt, 0.5);
        QVERIFY(editor.refusal(QStringLiteral("simulation.dt")).isEmpty());
    }

    void parameterRefusalsNameTheBrokenRule()
    {
        SceneSession session;
        session.setDocument(scene("rigid-body"), {});
        ParameterEditor editor(&session);
        for (int c = 0; c < 4; ++c)
            editor.spinBox(QStringLiteral("quat0"), c)->setValue(0.0);
        QVERIFY2(editor.refusal(QStringLiteral("quat0")).endsWith("must not be all zero."),
                 qPrintable(editor.refusal(QStringLiteral("quat0"))));
    }
};

QTEST_MAIN(ParameterEditorTest)
#include "tst_ParameterEditor.moc"
