// Each rule of a ParameterSpec, stated once in ParameterRule: the violation names the parameter,
// the rule and the offending component, and its reason is core's wording.
#include "model/ParameterRule.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace clab;

namespace {

ParameterSpec angle()
{
    ParameterSpec spec = ParameterSpec::scalar("angle_deg", "deg", "Incline", 30.0);
    spec.min = 0.0;
    spec.max = 90.0;
    return spec;
}

ParameterSpec axis()
{
    ParameterSpec spec = ParameterSpec::scalar("axis", "", "Axis", 0.0);
    spec.defaultValue = {0.0, 0.0, 1.0};
    spec.min = -1.0;
    spec.max = 1.0;
    spec.nonZero = true;
    return spec;
}

std::string reasonOf(const std::vector<ParameterRule::Violation>& violations)
{
    return violations.empty() ? std::string("(none)") : violations.front().reason;
}

} // namespace

class TestParameterRule : public QObject {
    Q_OBJECT

private slots:
    void validValuesBreakNoRule();
    void componentCount();
    void notFinite();
    void outOfRange();
    void exclusiveMinimum();
    void notWhole();
    void allZero();
    void everyComponentIsChecked();
    void belowAnotherParameter();
};

void TestParameterRule::validValuesBreakNoRule()
{
    QVERIFY(ParameterRule::check(angle(), {0.0}).empty());
    QVERIFY(ParameterRule::check(angle(), {90.0}).empty());
    QVERIFY(ParameterRule::check(axis(), {0.0, -1.0, 0.0}).empty());
}

void TestParameterRule::componentCount()
{
    const auto violations = ParameterRule::check(axis(), {1.0, 0.0});
    QCOMPARE(violations.size(), std::size_t(1));
    QCOMPARE(violations[0].key, std::string("axis"));
    QVERIFY(violations[0].kind == ParameterRule::Kind::ComponentCount);
    QCOMPARE(violations[0].value, 2.0);
    // The value in parentheses, a vector in its own: the wording SceneDefinition had.
    QCOMPARE(violations[0].reason, std::string("needs 3 components, got 2 ((1, 0))"));
    QCOMPARE(reasonOf(ParameterRule::check(angle(), {})), std::string("needs 1 component, got 0"));
}

void TestParameterRule::notFinite()
{
    const auto violations =
        ParameterRule::check(angle(), {std::numeric_limits<double>::quiet_NaN()});
    QCOMPARE(violations.size(), std::size_t(1));
    QVERIFY(violations[0].kind == ParameterRule::Kind::NotFinite);
    QCOMPARE(violations[0].component, 0);
    QCOMPARE(violations[0].reason, std::string("= nan is not finite; allowed: in [0, 90] deg"));
}

void TestParameterRule::outOfRange()
{
    const auto violations = ParameterRule::check(angle(), {90.25});
    QCOMPARE(violations.size(), std::size_t(1));
    QCOMPARE(violations[0].key, std::string("angle_deg"));
    QVERIFY(violations[0].kind == ParameterRule::Kind::OutOfRange);
    QCOMPARE(violations[0].value, 90.25);
    QCOMPARE(violations[0].reason,
             std::string("= 90.25 deg is out of range; allowed: in [0, 90] deg"));
}

void TestParameterRule::exclusiveMinimum()
{
    const ParameterSpec mass = ParameterSpec::positive("mass", "kg", "Mass", 1.0);
    QCOMPARE(reasonOf(ParameterRule::check(mass, {0.0})),
             std::string("= 0 kg is out of range; allowed: in [1e-12, 1e+12] kg"));
    QVERIFY(ParameterRule::check(mass, {1e-12}).empty());
}

void TestParameterRule::notWhole()
{
    ParameterSpec links = ParameterSpec::positive("links", "", "Number of links", 3.0);
    links.wholeNumber = true;
    const auto violations = ParameterRule::check(links, {2.5});
    QCOMPARE(violations.size(), std::size_t(1));
    QVERIFY(violations[0].kind == ParameterRule::Kind::NotWhole);
    QCOMPARE(violations[0].reason, std::string("= 2.5 must be a whole number (Number of links)"));
    QVERIFY(ParameterRule::check(links, {2.0}).empty());
}

void TestParameterRule::allZero()
{
    const auto violations = ParameterRule::check(axis(), {0.0, 0.0, 0.0});
    QCOMPARE(violations.size(), std::size_t(1));
    QVERIFY(violations[0].kind == ParameterRule::Kind::AllZero);
    QCOMPARE(violations[0].component, -1);
    QCOMPARE(violations[0].reason, std::string("= (0, 0, 0) must not be all zero"));
}

void TestParameterRule::everyComponentIsChecked()
{
    // One violation per offending component, in order, then the value as a whole.
    const auto violations = ParameterRule::check(axis(), {0.0, 1.5, -2.0});
    QCOMPARE(violations.size(), std::size_t(2));
    QCOMPARE(violations[0].component, 1);
    QCOMPARE(violations[1].component, 2);
    QCOMPARE(violations[1].value, -2.0);
}

void TestParameterRule::belowAnotherParameter()
{
    ParameterSpec muS = ParameterSpec::scalar("mu_s", "", "Static friction", 0.5);
    muS.notBelow = "mu";
    const ParameterValues values{{"mu", {0.4}}, {"mu_s", {0.3}}};
    const auto below = ParameterRule::checkFloor(muS, {0.3}, values);
    QVERIFY(below);
    QCOMPARE(below->key, std::string("mu_s"));
    QVERIFY(below->kind == ParameterRule::Kind::Below);
    QCOMPARE(below->value, 0.3);
    QCOMPARE(below->floor, 0.4);
    QCOMPARE(below->reason,
             std::string("= 0.3 is below 'mu' = 0.4; it must be at least mu (Static friction)"));
    QVERIFY(!ParameterRule::checkFloor(muS, {0.4}, values));
    // Without the other parameter there is nothing to compare with.
    QVERIFY(!ParameterRule::checkFloor(muS, {0.3}, {}));
    QVERIFY(!ParameterRule::checkFloor(angle(), {0.3}, values));
}

QTEST_APPLESS_MAIN(TestParameterRule)
#include "tst_ParameterRule.moc"
