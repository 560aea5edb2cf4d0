// The table of simulation settings: every field of SimulationOptions is in it once, reads and
// writes through it, and check() names the setting that a run cannot use.
#include "integrate/SimulationSetting.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <set>
#include <string>

using namespace clab;

class TestSimulationSetting : public QObject {
    Q_OBJECT

private slots:
    void everySettingReadsBackWhatItWrites();
    void everySettingChangesItsOwnFieldOnly();
    void choicesRoundTripTheirNames();
    void optionsAreTheKeysSpelledForTheCommandLine();
    void defaultsPassTheCheck();
    void checkNamesTheFirstUnusableSetting_data();
    void checkNamesTheFirstUnusableSetting();
    void numbersAreTheShortestGeneralSpelling();
    void rangeIsWhatCheckHoldsTo();
    void settingsHaveAnEffectWhereTheTableSays();
    void choicesHaveAWordForEveryName();
    void summaryListsTheTableInItsOrder();
};

void TestSimulationSetting::everySettingReadsBackWhatItWrites()
{
    std::set<std::string> keys;
    for (const SimulationSetting& setting : SimulationSetting::all()) {
        QVERIFY2(keys.insert(setting.key).second, setting.key.c_str());
        QCOMPARE(SimulationSetting::find(setting.key), &setting);
        SimulationOptions options;
        const double value = setting.kind == SimulationSetting::Kind::Number ? 0.125 : 1.0;
        setting.set(options, value);
        QCOMPARE(setting.get(options), value);
    }
    QCOMPARE(SimulationSetting::find("no_such_setting"), nullptr);
}

void TestSimulationSetting::everySettingChangesItsOwnFieldOnly()
{
    // Changing one setting makes the options differ from the defaults, and setting it back
    // makes them equal again: no two rows share a field, and every row has one. Together with
    // the count below every compared field of SimulationOptions is in the table.
    const SimulationOptions defaults;
    for (const SimulationSetting& setting : SimulationSetting::all()) {
        SimulationOptions options;
        const double before = setting.get(options);
        setting.set(options,
                    setting.kind == SimulationSetting::Kind::Number ? before + 1.0 : 1.0 - before);
        QVERIFY2(!(options == defaults), setting.key.c_str());
        for (const SimulationSetting& other : SimulationSetting::all())
            if (&other != &setting)
                QCOMPARE(other.get(options), other.get(defaults));
        setting.set(options, before);
        QVERIFY2(options == defaults, setting.key.c_str());
    }
    // tEnd, dt, integrator, rtol, atol, stabilization, alpha, beta, stopAtEnd (maxSteps is a
    // safety limit for tests and benchmarks, not a user setting).
    QCOMPARE(SimulationSetting::all().size(), std::size_t(9));
}

void TestSimulationSetting::choicesRoundTripTheirNames()
{
    const SimulationSetting* integrator = SimulationSetting::find("integrator");
    QVERIFY(integrator != nullptr);
    SimulationOptions options;
    QCOMPARE(integrator->nameIn(options), std::string("dopri5"));
    integrator->set(options, *integrator->valueNamed("rk4"));
    QVERIFY(options.integrator == IntegratorKind::Rk4);
    QCOMPARE(integrator->nameIn(options), std::string("rk4"));
    QVERIFY(!integrator->valueNamed("euler"));
    QCOMPARE(integrator->nameList(), std::string("dopri5 or rk4"));

    const SimulationSetting* stabilization = SimulationSetting::find("stabilization");
    for (const std::string& name : stabilization->names) {
        stabilization->set(options, *stabilization->valueNamed(name));
        QCOMPARE(stabilization->nameIn(options), name);
    }
    QVERIFY(options.stabilization == Stabilization::Projection);
    QCOMPARE(stabilization->nameList(), std::string("none, baumgarte or projection"));
    // A number has no names.
    QVERIFY(!SimulationSetting::find("dt")->valueNamed("dt"));
}

void TestSimulationSetting::optionsAreTheKeysSpelledForTheCommandLine()
{
    QCOMPARE(SimulationSetting::find("t_end")->option(), std::string("--t-end"));
    QCOMPARE(SimulationSetting::find("baumgarte_alpha")->option(),
             std::string("--baumgarte-alpha"));
    QCOMPARE(SimulationSetting::find("stop_at_end")->option(), std::string("--stop-at-end"));
    for (const SimulationSetting& setting : SimulationSetting::all()) {
        QVERIFY2(!setting.documentation.empty(), setting.key.c_str());
        QCOMPARE(setting.placeholder.empty(), setting.kind == SimulationSetting::Kind::Flag);
    }
}

void TestSimulationSetting::defaultsPassTheCheck()
{
    QVERIFY(!SimulationSetting::check(SimulationOptions{}, 0.0));
    // The same options from a later initial time: t_end = 10 s is no longer after it.
    const auto late = SimulationSetting::check(SimulationOptions{}, 20.0);
    QVERIFY(late);
    QCOMPARE(late->key, std::string("t_end"));
    QCOMPARE(late->reason, std::string("must be after the initial time 20 s (got 10)"));
}

void TestSimulationSetting::checkNamesTheFirstUnusableSetting_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expectedKey");
    QTest::addColumn<QString>("reason");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("dt zero") << "dt" << 0.0 << "dt"
                             << "must be greater than 0 s (got 0)";
    QTest::newRow("dt too fine") << "dt" << 1e-7 << "dt"
                                 << "10 s in steps of 1e-07 s gives 1e+08 output intervals, "
                                    "more than 1e+07; use a larger dt or a shorter t_end";
    QTest::newRow("rtol above 1") << "rtol" << 2.0 << "rtol"
                                  << "must be between 1e-15 (the limit of double precision) and 1 "
                                     "(got 2)";
    QTest::newRow("rtol too small") << "rtol" << 1e-16 << "rtol"
                                    << "must be between 1e-15 (the limit of double precision) "
                                       "and 1 (got 1e-16)";
    QTest::newRow("atol negative") << "atol" << -1.0 << "atol"
                                   << "must be greater than 0 (got -1)";
    QTest::newRow("alpha negative") << "baumgarte_alpha" << -0.5 << "baumgarte_alpha"
                                    << "must be at least 0 1/s (got -0.5)";
    QTest::newRow("beta not a number") << "baumgarte_beta" << nan << "baumgarte_beta"
                                       << "must be a finite number (got nan)";
    QTest::newRow("t_end infinite") << "t_end" << std::numeric_limits<double>::infinity() << "t_end"
                                    << "must be a finite number (got inf)";
}

void TestSimulationSetting::checkNamesTheFirstUnusableSetting()
{
    QFETCH(QString, key);
    QFETCH(double, value);
    QFETCH(QString, expectedKey);
    QFETCH(QString, reason);
    SimulationOptions options;
    SimulationSetting::find(key.toStdString())->set(options, value);
    const auto problem = SimulationSetting::check(options, 0.0);
    QVERIFY(problem);
    QCOMPARE(QString::fromStdString(problem->key), expectedKey);
    QCOMPARE(QString::fromStdString(problem->reason), reason);
}

void TestSimulationSetting::numbersAreTheShortestGeneralSpelling()
{
    QCOMPARE(SimulationSetting::number(0.0001), std::string("0.0001"));
    QCOMPARE(SimulationSetting::number(1e7), std::string("1e+07"));
    QCOMPARE(SimulationSetting::number(0.1), std::string("0.1"));
    QCOMPARE(SimulationSetting::number(-2.5), std::string("-2.5"));
}

void TestSimulationSetting::rangeIsWhatCheckHoldsTo()
{
    // Each number: its lowest value passes (unless refused as the minimum itself), a little
    // below it fails, and check() gives the range's own reason.
    for (const SimulationSetting& setting : SimulationSetting::all()) {
        if (setting.kind != SimulationSetting::Kind::Number)
            continue;
        QVERIFY2(setting.min > -std::numeric_limits<double>::infinity(), setting.key.c_str());
        SimulationOptions options;
        const double below = setting.min == 0.0 ? -1e-3 : setting.min * 0.5;
        setting.set(options, below);
        const auto problem = SimulationSetting::check(options, 0.0);
        QVERIFY2(problem, setting.key.c_str());
        QCOMPARE(problem->key, setting.key);
        QCOMPARE(problem->reason, *setting.rangeProblem(below, 0.0));
        QCOMPARE(setting.rangeProblem(setting.min, 0.0).has_value(),
                 setting.minExclusive || setting.afterInitialTime);
        if (setting.max < std::numeric_limits<double>::infinity()) {
            QVERIFY(!setting.rangeProblem(setting.max, 0.0));
            QVERIFY(setting.rangeProblem(setting.max * 2.0, 0.0));
        }
    }
    QCOMPARE(SimulationSetting::find("rtol")->min, SimulationOptions::minRtol);
    QCOMPARE(SimulationSetting::find("rtol")->max, 1.0);
    QCOMPARE(*SimulationSetting::find("t_end")->rangeProblem(3.0, 5.0),
             std::string("must be after the initial time 5 s (got 3)"));
}

void TestSimulationSetting::settingsHaveAnEffectWhereTheTableSays()
{
    SimulationOptions options;
    const SimulationSetting* rtol = SimulationSetting::find("rtol");
    const SimulationSetting* alpha = SimulationSetting::find("baumgarte_alpha");
    QVERIFY(rtol->enabledIn(options));
    QVERIFY(!alpha->enabledIn(options));
    options.integrator = IntegratorKind::Rk4;
    options.stabilization = Stabilization::Baumgarte;
    QVERIFY(!rtol->enabledIn(options));
    QVERIFY(!SimulationSetting::find("atol")->enabledIn(options));
    QVERIFY(alpha->enabledIn(options));
    QVERIFY(SimulationSetting::find("baumgarte_beta")->enabledIn(options));
    QVERIFY(SimulationSetting::find("dt")->enabledIn(options));
    // A condition names a choice of the table.
    for (const SimulationSetting& setting : SimulationSetting::all())
        if (setting.enabledWhen) {
            const SimulationSetting* other = SimulationSetting::find(setting.enabledWhen->key);
            QVERIFY2(other && other->kind == SimulationSetting::Kind::Choice, setting.key.c_str());
        }
}

void TestSimulationSetting::choicesHaveAWordForEveryName()
{
    for (const SimulationSetting& setting : SimulationSetting::all()) {
        QVERIFY2(!setting.label.empty(), setting.key.c_str());
        if (setting.kind == SimulationSetting::Kind::Choice)
            QCOMPARE(setting.choiceLabels.size(), setting.names.size());
    }
}

void TestSimulationSetting::summaryListsTheTableInItsOrder()
{
    SimulationOptions options;
    QCOMPARE(SimulationSetting::summary(options, {}),
             std::string("t_end = 10 s, dt = 0.01 s, integrator = dopri5, rtol = 1e-09, "
                         "atol = 1e-12, stabilization = projection"));
    options.stabilization = Stabilization::Baumgarte;
    options.baumgarteBeta = 2.5;
    QCOMPARE(
        SimulationSetting::summary(options, {}),
        std::string("t_end = 10 s, dt = 0.01 s, integrator = dopri5, rtol = 1e-09, "
                    "atol = 1e-12, stabilization = baumgarte (alpha = 5 1/s, beta = 2.5 1/s)"));
    const SimulationSetting::SummaryStyle terse{.choiceJoin = " ", .withDependents = false};
    QCOMPARE(SimulationSetting::summary(options, terse),
             std::string("t_end = 10 s, dt = 0.01 s, integrator dopri5, rtol = 1e-09, "
                         "atol = 1e-12, stabilization baumgarte"));
}

QTEST_APPLESS_MAIN(TestSimulationSetting)
#include "tst_SimulationSetting.moc"
