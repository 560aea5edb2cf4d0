// The options run, sweep, fit and plot share: SCENE, --set and the simulation settings, with
// the command's own options handed to it; what is wrong is a usage error naming the option.
#include "cli/SceneOptions.h"
#include "cli/UsageProblem.h"

#include <QtTest>

using namespace clab::cli;

namespace {

// The usage error's message, or "" when the arguments parse.
QString problemOf(const QStringList& args, const SceneOptions::ExtraOptions& extra = {})
{
    try {
        SceneOptions::parse(args, "run", extra);
    } catch (const UsageProblem& e) {
        return e.message;
    }
    return {};
}

} // namespace

class SceneOptionsTest : public QObject {
    Q_OBJECT

private slots:
    void sceneSetsAndSettingsAreTaken();
    void extraOptionsGetTheirValues();
    void usageErrorsNameTheOption_data();
    void usageErrorsNameTheOption();
    void helpListsEverySimulationOption();
};

void SceneOptionsTest::sceneSetsAndSettingsAreTaken()
{
    const SceneOptions o = SceneOptions::parse({"--set", "J=1,2,3", "ring", "--t-end=5", "--dt",
                                                "0.1", "--no-stop-at-end", "--set", "mu= 0.3"},
                                               "run", {});
    QCOMPARE(o.scene, QString("ring"));
    QCOMPARE(o.sets.size(), std::size_t(2));
    QCOMPARE(o.sets[0].first, QString("J"));
    QCOMPARE(o.sets[0].second, (std::vector<double>{1, 2, 3}));
    QCOMPARE(o.sets[1].second, std::vector<double>{0.3});
    QCOMPARE(o.setText.at("mu"), QString("--set mu= 0.3")); // as messages name it
    QCOMPARE(o.simulation.at("t_end").first, 5.0);
    QCOMPARE(o.simulation.at("t_end").second, QString("--t-end 5"));
    QCOMPARE(o.simulation.at("dt").second, QString("--dt 0.1"));
    QCOMPARE(o.simulation.at("stop_at_end").first, 0.0);
    QCOMPARE(o.simulation.at("stop_at_end").second, QString("--no-stop-at-end"));
}

void SceneOptionsTest::extraOptionsGetTheirValues()
{
    QStringList seen;
    const SceneOptions o = SceneOptions::parse(
        {"--columns", "t,E", "ring", "--output=x.csv", "--stats"}, "run",
        [&](const OptionCursor& c) {
            seen << c.option + (c.option == "--stats" ? QString() : "=" + c.value());
            return true;
        });
    QCOMPARE(o.scene, QString("ring"));
    QCOMPARE(seen, (QStringList{"--columns=t,E", "--output=x.csv", "--stats"}));
}

void SceneOptionsTest::usageErrorsNameTheOption_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("no scene") << QStringList{"--t-end", "1"}
                              << "run: missing SCENE (a built-in name or a scene file)";
    QTest::newRow("two scenes") << QStringList{"ring", "chain"}
                                << "run: unexpected argument \"chain\" (only one scene)";
    QTest::newRow("unknown option")
        << QStringList{"ring", "--frob"} << "run: unknown option --frob";
    QTest::newRow("missing value")
        << QStringList{"ring", "--t-end"} << "option --t-end needs a value";
    QTest::newRow("not a number") << QStringList{"ring", "--dt", "x"}
                                  << "option --dt: \"x\" is not a number";
    QTest::newRow("flag with value")
        << QStringList{"ring", "--stop-at-end=1"} << "option --stop-at-end takes no value";
    QTest::newRow("extra flag with value")
        << QStringList{"ring", "--stats=1"} << "option --stats takes no value";
    QTest::newRow("set without =") << QStringList{"ring", "--set", "mu"}
                                   << "--set mu: expected NAME=VALUE, e.g. --set mu=0.3 or "
                                      "--set J=1,2,3";
    QTest::newRow("set empty part") << QStringList{"ring", "--set", "J=1,,2"}
                                    << "--set J=1,,2: missing value (vectors are comma lists, "
                                       "e.g. J=1,2,3)";
    QTest::newRow("set not a number")
        << QStringList{"ring", "--set", "mu=a"} << "--set mu=a: \"a\" is not a number";
    QTest::newRow("unknown choice") << QStringList{"ring", "--integrator", "euler"}
                                    << "--integrator euler: unknown integrator (use ";
}

void SceneOptionsTest::usageErrorsNameTheOption()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const QString problem =
        problemOf(args, [](const OptionCursor& c) { return c.option == QLatin1String("--stats"); });
    QVERIFY2(problem.startsWith(message), qPrintable(problem));
}

void SceneOptionsTest::helpListsEverySimulationOption()
{
    const QString help = SceneOptions::simulationOptionsHelp();
    for (const char* option : {"  --t-end T", "  --dt ", "  --integrator ", "--no-stop-at-end"})
        QVERIFY2(help.contains(option), option);
    for (const QString& line : help.split('\n'))
        QVERIFY2(line.size() <= 80, qPrintable(line));
}

QTEST_MAIN(SceneOptionsTest)

#include "tst_SceneOptions.moc"
