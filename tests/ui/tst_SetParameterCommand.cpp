// Undo of parameter edits: one command per edit, slider drags merge into one step, a drag back
// to the start vanishes, undo restores exactly the old value, the clean state tracks saves.

#include <scenes/SceneRegistry.h>
#include <session/SceneSession.h>
#include <session/SetParameterCommand.h>

#include <model/ConstraintLabError.h>

#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

using namespace clab;

namespace {

SceneDocument bead()
{
    return SceneDocument::fromDefinition(*SceneRegistry::find("bead-on-wire"));
}

} // namespace

class SetParameterCommandTest : public QObject {
    Q_OBJECT
private slots:
    void undoRestoresTheOldValueAndRedoTheNew()
    {
        SceneSession session;
        session.setDocument(bead(), {});
        QSignalSpy changed(&session, &SceneSession::valueChanged);
        session.edit(QStringLiteral("g"), {1.62});
        session.edit(QStringLiteral("angle_deg"), {45.0});
        QCOMPARE(session.undoStack()->count(), 2);
        QCOMPARE(changed.count(), 2);
        session.undoStack()->undo();
        QCOMPARE(session.value(QStringLiteral("angle_deg")), std::vector<double>{30.0});
        QCOMPARE(session.value(QStringLiteral("g")), std::vector<double>{1.62});
        session.undoStack()->undo();
        QCOMPARE(session.value(QStringLiteral("g")), std::vector<double>{9.81});
        QVERIFY(!session.isModified());
        session.undoStack()->redo();
        QCOMPARE(session.value(QStringLiteral("g")), std::vector<double>{1.62});
        QVERIFY(session.isModified());
        QCOMPARE(changed.count(), 5);
    }

    void sliderDragMergesIntoOneStep()
    {
        SceneSession session;
        session.setDocument(bead(), {});
        const quint64 serial = session.editSerial();
        for (double angle : {31.0, 32.0, 33.0, 34.0})
            session.edit(QStringLiteral("angle_deg"), {angle}, 7);
        QCOMPARE(session.undoStack()->count(), 1);
        // One distinct edit for compare mode, however long the drag.
        QCOMPARE(session.editSerial(), serial + 1);
        const auto* command =
            static_cast<const SetParameterCommand*>(session.undoStack()->command(0));
        QCOMPARE(command->oldValue(), std::vector<double>{30.0});
        QCOMPARE(command->newValue(), std::vector<double>{34.0});
        // Another drag (another id) and another key are separate steps.
        session.edit(QStringLiteral("angle_deg"), {40.0}, 8);
        session.edit(QStringLiteral("mu"), {0.3}, 8);
        QCOMPARE(session.undoStack()->count(), 3);
        // Plain edits never merge.
        session.edit(QStringLiteral("mu"), {0.6});
        session.edit(QStringLiteral("mu"), {0.7});
        QCOMPARE(session.undoStack()->count(), 5);
        session.undoStack()->setIndex(0);
        QCOMPARE(session.document(), bead());
    }

    void dragBackToTheStartLeavesNoStep()
    {
        SceneSession session;
        session.setDocument(bead(), {});
        session.edit(QStringLiteral("mu"), {0.3}, 3);
        session.edit(QStringLiteral("mu"), {0.2}, 3);
        QCOMPARE(session.undoStack()->count(), 0);
        QVERIFY(!session.isModified());
        QCOMPARE(session.value(QStringLiteral("mu")), std::vector<double>{0.2});
    }

    void linkedParametersChangeInTheSameStep()
    {
        SceneSession session;
        session.setDocument(bead(), {});
        const SceneDefinition& definition = *session.definition();
        const auto mu = [&] {
            return session.value(QStringLiteral("mu"))[0];
        };
        const auto muS = [&] {
            return session.value(QStringLiteral("mu_s"))[0];
        };
        // Untouched, mu_s follows mu both ways, as when a scene file leaves it out.
        QCOMPARE(muS(), mu());
        session.edit(QStringLiteral("mu"), {0.35});
        QCOMPARE(muS(), 0.35);
        QCOMPARE(session.undoStack()->count(), 1);
        definition.validate(session.document().parameters);
        session.undoStack()->undo();
        QCOMPARE(mu(), 0.2);
        QCOMPARE(muS(), 0.2);
        // Once set apart, mu_s stays put until mu would exceed it (mu_s ≥ mu).
        session.edit(QStringLiteral("mu_s"), {0.6});
        session.edit(QStringLiteral("mu"), {0.4});
        QCOMPARE(muS(), 0.6);
        session.edit(QStringLiteral("mu"), {0.7});
        QCOMPARE(muS(), 0.7);
        definition.validate(session.document().parameters);
        // Lowering mu_s below mu takes mu down with it.
        session.edit(QStringLiteral("mu_s"), {0.3});
        QCOMPARE(mu(), 0.3);
        definition.validate(session.document().parameters);
        session.undoStack()->undo();
        QCOMPARE(mu(), 0.7);
        QCOMPARE(muS(), 0.7);
    }

    void dragOfALeaderMergesItsFollowers()
    {
        SceneSession session;
        session.setDocument(bead(), {});
        for (double mu : {0.25, 0.3, 0.45})
            session.edit(QStringLiteral("mu"), {mu}, 11);
        QCOMPARE(session.undoStack()->count(), 1);
        const auto* command =
            static_cast<const SetParameterCommand*>(session.undoStack()->command(0));
        QCOMPARE(command->changes().size(), std::size_t(2));
        QCOMPARE(session.value(QStringLiteral("mu_s")), std::vector<double>{0.45});
        session.undoStack()->undo();
        QCOMPARE(session.value(QStringLiteral("mu_s")), std::vector<double>{0.2});
    }

    void unchangedValueIsNotRecorded()
    {
        SceneSession session;
        session.setDocument(bead(), {});
        session.edit(QStringLiteral("mu"), {0.2});
        QCOMPARE(session.undoStack()->count(), 0);
    }

    void simulationSettingsAreUndoableToo()
    {
        SceneSession session;
        session.setDocument(bead(), {});
        session.edit(SceneSession::simulationKey("t_end"), {3.0});
        session.edit(SceneSession::simulationKey("integrator"), {1.0});
        session.edit(SceneSession::simulationKey("rtol"), {1e-6});
        session.edit(SceneSession::simulationKey("stabilization"), {1.0});
        session.edit(SceneSession::simulationKey("baumgarte_alpha"), {2.0});
        QCOMPARE(session.document().simulation.stabilization, Stabilization::Baumgarte);
        QCOMPARE(session.document().simulation.baumgarteAlpha, 2.0);
        QCOMPARE(session.document().simulation.tEnd, 3.0);
        QCOMPARE(session.document().simulation.integrator, IntegratorKind::Rk4);
        QCOMPARE(session.document().simulation.rtol, 1e-6);
        session.undoStack()->setIndex(0);
        const SimulationOptions defaults;
        QCOMPARE(session.document().simulation.tEnd, defaults.tEnd);
        QCOMPARE(session.document().simulation.integrator, defaults.integrator);
        QCOMPARE(session.document().simulation.rtol, defaults.rtol);
        QCOMPARE(session.document().simulation.stabilization, defaults.stabilization);
        QCOMPARE(session.document().simulation.baumgarteAlpha, defaults.baumgarteAlpha);
    }

    void vectorParametersKeepAllComponents()
    {
        SceneSession session;
        session.setDocument(SceneDocument::fromDefinition(*SceneRegistry::find("rigid-body")), {});
        const std::vector<double> before = session.value(QStringLiteral("J"));
        session.edit(QStringLiteral("J"), {1.0, 2.5, 3.0});
        QCOMPARE(session.value(QStringLiteral("J")), (std::vector<double>{1.0, 2.5, 3.0}));
        session.undoStack()->undo();
        QCOMPARE(session.value(QStringLiteral("J")), before);
    }

    void savingMarksTheStateClean()
    {
        SceneSession session;
        session.setDocument(bead(), {});
        session.edit(QStringLiteral("mu"), {0.5});
        QVERIFY(session.isModified());
        session.markSaved(QStringLiteral("/tmp/x.json"));
        QVERIFY(!session.isModified());
        QCOMPARE(session.displayName(), QStringLiteral("x.json"));
        session.undoStack()->undo();
        QVERIFY(session.isModified());
    }

    void unknownKeysAndScenesAreRejected()
    {
        SceneSession session;
        session.setDocument(bead(), {});
        QVERIFY_THROWS_EXCEPTION(ConstraintLabError, session.value(QStringLiteral("radius")));
        QVERIFY_THROWS_EXCEPTION(ConstraintLabError,
                                 session.edit(QStringLiteral("nonsense"), {1.0}));
        SceneDocument unknown = bead();
        unknown.scene = "no-such-scene";
        QVERIFY_THROWS_EXCEPTION(ConstraintLabError, session.setDocument(unknown, {}));
        QCOMPARE(session.document().scene, std::string("bead-on-wire"));
    }
};

QTEST_GUILESS_MAIN(SetParameterCommandTest)
#include "tst_SetParameterCommand.moc"
