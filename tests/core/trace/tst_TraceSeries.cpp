#include "model/ConstraintLabError.h"
#include "scenes/SceneRegistry.h"
#include "integrate/Simulator.h"
#include "trace/TraceSeries.h"

#include <QtTest>

#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace clab;

namespace {

// A short run of a built-in scene with its defaults (and `values` on top).
Trace runScene(const std::string& scene, const ParameterValues& values = {}, double tEnd = 1.0)
{
    const auto system = SceneRegistry::find(scene)->create(values);
    SimulationOptions options;
    options.tEnd = tEnd;
    options.dt = 0.05;
    return Simulator(*system).run(options);
}

std::vector<double> column(const Trace& trace, const std::string& name)
{
    const int index = trace.columnIndex(name);
    if (index < 0)
        throw std::runtime_error("no column " + name);
    return trace.column(index);
}

} // namespace

class TestTraceSeries : public QObject {
    Q_OBJECT

private slots:
    void everyQuantityOfEveryBuiltInSceneHasUnitAndLabel();
    void unitsFollowTheCoordinates();
    void columnsAreTheTraceColumns();
    void forceNormsAreNormsOfTheSampleVectors();
    void energyBalanceIsEnergyMinusInitialMinusNonidealWork();
    void energyBalanceIncludesTheWorkOfAMovingConstraint();
    void energyBalanceEqualsEnergyErrorWithoutOtherWork();
    void quaternionNormErrorIsNormOfQuaternionMinusOne();
    void quaternionNormErrorOnlyForQuaternionTraces();
    void labelsUseUnicodeSymbols();
    void unknownQuantityThrowsListingTheAvailableOnes();
    void traceWithoutUnitsDefaultsToMetres();
};

void TestTraceSeries::everyQuantityOfEveryBuiltInSceneHasUnitAndLabel()
{
    for (const SceneDefinition& scene : SceneRegistry::builtIn()) {
        const Trace trace = runScene(scene.name, {}, 0.2);
        const std::vector<std::string> names = TraceSeries::names(trace);
        QVERIFY(names.size() > trace.columnNames().size()); // derived ones come after
        for (const std::string& name : names) {
            const QByteArray where = QByteArray::fromStdString(scene.name + ": " + name);
            QVERIFY2(TraceSeries::contains(trace, name), where);
            std::string label;
            try {
                TraceSeries::unit(trace, name);
                label = TraceSeries::label(trace, name);
            } catch (const std::exception& e) {
                QFAIL(where + ": " + e.what());
            }
            QVERIFY2(!label.empty(), where);
            QCOMPARE(TraceSeries::values(trace, name).size(), trace.samples.size());
        }
    }
}

void TestTraceSeries::unitsFollowTheCoordinates()
{
    const Trace bead = runScene("bead-on-wire", {}, 0.2);
    const std::map<std::string, std::string> beadUnits = {
        {"t", "s"},         {"x", "m"},     {"x_dot", "m/s"},    {"y_ddot", "m/s²"},
        {"Q_x", "N"},       {"Qci_y", "N"}, {"Qcni_x", "N"},     {"T", "J"},
        {"V", "J"},         {"E", "J"},     {"W_nonideal", "J"}, {"E_error", "J"},
        {"E_balance", "J"}, {"|Q|", "N"},   {"|Qcni|", "N"},     {"residual_max", ""},
        {"contact", ""},
    };
    for (const auto& [name, unit] : beadUnits)
        QCOMPARE(TraceSeries::unit(bead, name), unit);

    const Trace body = runScene("rigid-body", {}, 0.2);
    const std::map<std::string, std::string> bodyUnits = {
        {"u0", ""},        {"u3_dot", "1/s"},       {"u1_ddot", "1/s²"}, {"Q_u0", "N·m"},
        {"Qci_u2", "N·m"}, {"|Qci|", "N·m"},        {"w1", "1/s"},       {"w3", "1/s"},
        {"quat_norm", ""}, {"quat_norm_error", ""}, {"T", "J"},
    };
    for (const auto& [name, unit] : bodyUnits)
        QCOMPARE(TraceSeries::unit(body, name), unit);

    const Trace acatastatic = runScene("acatastatic-particle", {}, 0.2);
    QCOMPARE(TraceSeries::unit(acatastatic, "W_ideal"), std::string("J"));
}

void TestTraceSeries::columnsAreTheTraceColumns()
{
    const Trace trace = runScene("ring");
    const std::vector<std::string> columns = trace.columnNames();
    for (std::size_t i = 0; i < columns.size(); ++i)
        QCOMPARE(TraceSeries::values(trace, columns[i]), trace.column(static_cast<int>(i)));
    // Independent of the column machinery: straight from the samples.
    const std::vector<double> xdot = TraceSeries::values(trace, "x_dot");
    for (std::size_t k = 0; k < trace.samples.size(); ++k)
        QCOMPARE(xdot[k], trace.samples[k].qd[0]);
}

void TestTraceSeries::forceNormsAreNormsOfTheSampleVectors()
{
    const Trace trace = runScene("nonholonomic-particle");
    const char* const stems[] = {"Q", "Qci", "Qcni"};
    for (const char* stem : stems) {
        const std::vector<double> norm = TraceSeries::values(trace, std::string("|") + stem + "|");
        std::vector<std::vector<double>> parts;
        for (const std::string& c : trace.coordinateNames())
            parts.push_back(column(trace, std::string(stem) + "_" + c));
        QCOMPARE(norm.size(), trace.samples.size());
        bool nonZero = false;
        for (std::size_t k = 0; k < norm.size(); ++k) {
            double sum = 0.0;
            for (const auto& part : parts)
                sum += part[k] * part[k];
            const double expected = std::sqrt(sum);
            QVERIFY2(
                std::abs(norm[k] - expected) <= 1e-14 * (1.0 + expected),
                qPrintable(
                    QString("%1 at %2: %3 vs %4").arg(stem).arg(k).arg(norm[k]).arg(expected)));
            nonZero = nonZero || expected > 0.0;
        }
        QVERIFY2(nonZero, stem); // the scene has gravity, a constraint and a drag
    }
}

void TestTraceSeries::energyBalanceIsEnergyMinusInitialMinusNonidealWork()
{
    const Trace trace = runScene("ring", {{"mu", {0.3}}}, 2.0);
    const std::vector<double> E = column(trace, "E");
    const std::vector<double> W = column(trace, "W_nonideal");
    const std::vector<double> balance = TraceSeries::values(trace, "E_balance");
    QCOMPARE(balance.size(), E.size());
    for (std::size_t k = 0; k < E.size(); ++k)
        QVERIFY(std::abs(balance[k] - (E[k] - E.front() - W[k])) <= 1e-12);
    // Friction did work, so the balance is not just E − E₀ ...
    QVERIFY(W.back() < -1e-3);
    // ... and with it accounted for, the balance stays at the integration error.
    for (double b : balance)
        QVERIFY(std::abs(b) < 1e-6);
}

// The acatastatic constraint ẋ − t ẏ = a(t) moves: its ideal force does work on the actual
// motion. The audit line takes it into account (it once showed E − E₀ − W_nonideal, which equals
// W_ideal there, under a label that said it should be zero).
void TestTraceSeries::energyBalanceIncludesTheWorkOfAMovingConstraint()
{
    const Trace trace = runScene("acatastatic-particle", {}, 2.0);
    QVERIFY(trace.hasIdealWork());
    const std::vector<double> balance = TraceSeries::values(trace, "E_balance");
    const std::vector<double> E = column(trace, "E");
    const std::vector<double> Wideal = column(trace, "W_ideal");
    QVERIFY(std::abs(Wideal.back()) > 1e-2); // the moving constraint did work
    for (std::size_t k = 0; k < balance.size(); ++k)
        QVERIFY2(std::abs(balance[k]) < 1e-6, qPrintable(QString::number(balance[k])));
    QCOMPARE(balance, column(trace, "E_error"));
    QCOMPARE(TraceSeries::label(trace, "E_balance"), std::string("E − E₀ − W_nonideal − W_ideal"));
}

void TestTraceSeries::energyBalanceEqualsEnergyErrorWithoutOtherWork()
{
    // Bead on a wire: scleronomic, conservative given force, so E_error has no other terms.
    const Trace trace = runScene("bead-on-wire", {{"mu", {0.1}}}, 1.0);
    QCOMPARE(TraceSeries::values(trace, "E_balance"), column(trace, "E_error"));
}

void TestTraceSeries::quaternionNormErrorIsNormOfQuaternionMinusOne()
{
    const Trace trace = runScene("rigid-body", {}, 1.0);
    const std::vector<double> error = TraceSeries::values(trace, "quat_norm_error");
    std::vector<std::vector<double>> u;
    for (const char* name : {"u0", "u1", "u2", "u3"})
        u.push_back(column(trace, name));
    for (std::size_t k = 0; k < error.size(); ++k) {
        const double norm = std::sqrt(u[0][k] * u[0][k] + u[1][k] * u[1][k] + u[2][k] * u[2][k] +
                                      u[3][k] * u[3][k]);
        QVERIFY(std::abs(error[k] - (norm - 1.0)) <= 1e-15);
        QVERIFY(std::abs(error[k]) < 1e-8); // projection keeps it on the unit sphere
    }
}

void TestTraceSeries::quaternionNormErrorOnlyForQuaternionTraces()
{
    QVERIFY(TraceSeries::contains(runScene("rigid-body", {}, 0.1), "quat_norm_error"));
    for (const char* scene : {"bead-on-wire", "ring", "nonholonomic-particle"}) {
        const Trace trace = runScene(scene, {}, 0.1);
        QVERIFY(!TraceSeries::contains(trace, "quat_norm_error"));
        QVERIFY_THROWS_EXCEPTION(ConstraintLabError, TraceSeries::values(trace, "quat_norm_error"));
    }
}

void TestTraceSeries::labelsUseUnicodeSymbols()
{
    const Trace bead = runScene("bead-on-wire", {}, 0.1);
    QCOMPARE(TraceSeries::label(bead, "x"), std::string("x"));
    QCOMPARE(TraceSeries::label(bead, "x_dot"), std::string("x\u0307"));
    QCOMPARE(TraceSeries::label(bead, "y_ddot"), std::string("y\u0308"));
    QCOMPARE(TraceSeries::label(bead, "Qci_x"), std::string("Qᶜᵢ_x"));
    QCOMPARE(TraceSeries::label(bead, "|Qcni|"), std::string("‖Qᶜₙᵢ‖"));
    QCOMPARE(TraceSeries::label(bead, "E_balance"), std::string("E − E₀ − W_nonideal"));
    QCOMPARE(TraceSeries::label(bead, "residual_max"), std::string("max |residual|"));
    const Trace body = runScene("rigid-body", {}, 0.1);
    QCOMPARE(TraceSeries::label(body, "u0"), std::string("u₀"));
    QCOMPARE(TraceSeries::label(body, "u2_dot"), std::string("u\u0307₂"));
    QCOMPARE(TraceSeries::label(body, "w1"), std::string("ω₁"));
    QCOMPARE(TraceSeries::label(body, "quat_norm_error"), std::string("‖u‖ − 1"));
}

void TestTraceSeries::unknownQuantityThrowsListingTheAvailableOnes()
{
    const Trace trace = runScene("bead-on-wire", {}, 0.1);
    QVERIFY(!TraceSeries::contains(trace, "speed"));
    for (int which = 0; which < 3; ++which) {
        try {
            if (which == 0)
                TraceSeries::values(trace, "speed");
            else if (which == 1)
                TraceSeries::unit(trace, "speed");
            else
                TraceSeries::label(trace, "speed");
            QFAIL("an unknown quantity was accepted");
        } catch (const ConstraintLabError& e) {
            QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
            const std::string message = e.what();
            QVERIFY2(message.find("'speed'") != std::string::npos, e.what());
            for (const char* listed : {"x_dot", "Qcni_y", "E_error", "|Q|", "E_balance"})
                QVERIFY2(message.find(listed) != std::string::npos, e.what());
        }
    }
}

void TestTraceSeries::traceWithoutUnitsDefaultsToMetres()
{
    const Trace trace({"x"}, {"extra"}, false);
    QCOMPARE(TraceSeries::unit(trace, "x"), std::string("m"));
    QCOMPARE(TraceSeries::unit(trace, "Q_x"), std::string("N"));
    QCOMPARE(TraceSeries::unit(trace, "extra"), std::string(""));
    Trace other({"a", "b"}, {}, false);
    other.setUnits({"m", ""}, {});
    QCOMPARE(TraceSeries::unit(other, "|Q|"), std::string("")); // mixed units: no common unit
    QVERIFY_THROWS_EXCEPTION(ConstraintLabError, other.setUnits({"m"}, {}));
}

QTEST_GUILESS_MAIN(TestTraceSeries)
#include "tst_TraceSeries.moc"
