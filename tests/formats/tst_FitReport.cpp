#include "FitReport.h"

#include "scenes/SceneRegistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace clab;

namespace {

// μ fitted, μₛ not determined (a bead that never stops), as ParameterFit reports them.
FitResult twoParameters()
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    FitResult r;
    r.parameters = {"mu", "mu_s"};
    r.start = {0.3, 0.5};
    r.values = {0.4, 0.5};
    r.standardErrors = {2e-5, std::numeric_limits<double>::infinity()};
    r.determined = {true, false};
    r.atBound = {false, false};
    r.covariance.resize(2, 2);
    r.covariance << 4e-10, nan, nan, nan;
    r.correlation.resize(2, 2);
    r.correlation << 1.0, nan, nan, nan;
    r.columns = {"pos"};
    r.columnRms = {0.002};
    r.chiSquare = 498.0;
    r.degreesOfFreedom = 498;
    r.residualVariance = 1.0;
    r.sigmaGiven = true;
    r.iterations = 4;
    r.runs = 17;
    r.converged = true;
    r.stopReason = "the misfit no longer decreases";
    r.warnings = {"mu_s is not determined by the data"};
    return r;
}

Measurements measurements()
{
    Measurements m;
    m.times.assign(500, 0.0);
    m.columns.push_back({"s", std::vector<double>(500, 0.0), 0.002, "pos"});
    return m;
}

} // namespace

class tst_FitReport : public QObject {
    Q_OBJECT

private slots:
    void tableShowsValuesErrorsUnitsAndWarnings()
    {
        const SceneDocument bead =
            SceneDocument::fromDefinition(*SceneRegistry::find("bead-on-wire"));
        const FitReport report(twoParameters(), bead, measurements(), "bead-on-wire", "m.csv",
                               {"constraintlab-cli", "fit"});
        const QString table = report.table();
        QVERIFY2(table.startsWith("fit of bead-on-wire to m.csv (500 values in 1 column; sigma "
                                  "given)\n"),
                 qPrintable(table));
        // The value to the digits of its error (RoundedValue).
        QVERIFY2(table.contains(QRegularExpression("\\nmu +0.3 +0.400000 +0.000020\\n")),
                 qPrintable(table));
        QVERIFY(table.contains(QRegularExpression("\\nmu_s +0.5 +0.5 +not determined")));
        QVERIFY(table.contains("correlation:"));
        QVERIFY(table.contains("residual RMS of pos (s): 0.002 m\n"));
        QVERIFY(table.contains("chi^2/dof: 1 (498 degrees of freedom; near 1 when the model and "
                               "sigma fit the data)\n"));
        // The undetermined correlation is a dash, never "nan".
        QVERIFY2(!table.contains("nan", Qt::CaseInsensitive), qPrintable(table));
        QCOMPARE(report.correlationText(0, 1), QStringLiteral("-"));
        QCOMPARE(report.correlationText(0, 0), QStringLiteral("1.000"));
        QVERIFY(table.contains("iterations: 4, runs: 17, converged: the misfit no longer "
                               "decreases\n"));
        QVERIFY(table.endsWith("warning: mu_s is not determined by the data\n"));
    }

    // Without σ, χ²/dof is 1 by construction: the report says so and gives the estimated σ
    // with its unit.
    void estimatedSigmaIsExplained()
    {
        FitResult r = twoParameters();
        r.sigmaGiven = false;
        r.residualVariance = 4e-6;
        Measurements m = measurements();
        m.columns[0].sigma = 0.0;
        const SceneDocument bead =
            SceneDocument::fromDefinition(*SceneRegistry::find("bead-on-wire"));
        const FitReport report(r, bead, m, "bead-on-wire", "m.csv", {});
        QCOMPARE(report.chiSquareLine(),
                 QStringLiteral("chi^2/dof: 1 by construction (498 degrees of freedom): sigma was "
                                "estimated from the residuals as s = 0.002 m"));
        QCOMPARE(report.summaryLines().front(), QStringLiteral("residual RMS of pos (s): 0.002 m"));
    }

    // A failed fit ends its table with why, and its JSON carries it.
    void failureIsTheLastLine()
    {
        FitResult r = twoParameters();
        r.failure = "the model cannot reach the data: the data of pos start at 25 m";
        const SceneDocument bead =
            SceneDocument::fromDefinition(*SceneRegistry::find("bead-on-wire"));
        const FitReport report(r, bead, measurements(), "bead-on-wire", "m.csv", {});
        QVERIFY(report.table().endsWith("fit failed: the model cannot reach the data: the data "
                                        "of pos start at 25 m\n"));
        const QJsonObject root = QJsonDocument::fromJson(report.json()).object();
        QCOMPARE(root["failure"].toString(), QString::fromStdString(r.failure));
        const FitReport good(twoParameters(), bead, measurements(), "bead-on-wire", "m.csv", {});
        QVERIFY(QJsonDocument::fromJson(good.json()).object()["failure"].isNull());
    }

    // JSON has no infinity or NaN: what is not a number is null.
    void jsonWritesWhatIsNotANumberAsNull()
    {
        const SceneDocument bead =
            SceneDocument::fromDefinition(*SceneRegistry::find("bead-on-wire"));
        const FitReport report(twoParameters(), bead, measurements(), "bead-on-wire", "m.csv",
                               {"constraintlab-cli", "fit", "bead-on-wire"});
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(report.json(), &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonArray parameters = root["parameters"].toArray();
        QCOMPARE(parameters.size(), 2);
        QCOMPARE(parameters[0].toObject()["standard_error"].toDouble(), 2e-5);
        QVERIFY(parameters[1].toObject()["standard_error"].isNull());
        QVERIFY(!parameters[1].toObject()["determined"].toBool());
        QCOMPARE(root["covariance"].toArray()[0].toArray()[0].toDouble(), 4e-10);
        QVERIFY(root["covariance"].toArray()[0].toArray()[1].isNull());
        QCOMPARE(root["columns"].toArray()[0].toObject()["unit"].toString(), QString("m"));
        QCOMPARE(root["command_line"].toArray().size(), 3);
        QCOMPARE(root["degrees_of_freedom"].toInt(), 498);
    }
};

QTEST_APPLESS_MAIN(tst_FitReport)
#include "tst_FitReport.moc"
