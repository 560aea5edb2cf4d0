#include "model/ConstraintLabError.h"
#include "scenes/SceneDefinition.h"
#include "scenes/SceneRegistry.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace clab;

namespace {

// A particle on a circle of radius `radius` started at distance `r0` from the centre: the
// initial state is consistent only when r0 = radius, which lets create()'s check be tested.
class PointOnCircle : public MechanicalSystem {
public:
    explicit PointOnCircle(const ParameterValues& v)
        : radius_(parameterValue(v, "radius")), r0_(parameterValue(v, "r0")),
          v0_(parameterValue(v, "v0"))
    {
    }
    int dof() const override { return 2; }
    int constraintCount() const override { return 1; }
    std::vector<std::string> coordinateNames() const override { return {"x", "y"}; }
    void massMatrix(const Eigen::VectorXd&, double, Eigen::MatrixXd& M) const override
    {
        M.setIdentity(2, 2);
    }
    void givenForce(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                    Eigen::VectorXd& Q) const override
    {
        Q.setZero(2);
    }
    void constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double,
                          Eigen::MatrixXd& A, Eigen::VectorXd& b) const override
    {
        A = q.transpose();
        b.setConstant(1, -qd.squaredNorm());
    }
    int residualCount() const override { return 2; }
    void constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double,
                             Eigen::VectorXd& r) const override
    {
        r.resize(2);
        r << (q.squaredNorm() - radius_ * radius_) / (2 * radius_), q.dot(qd) / radius_;
    }
    double potentialEnergy(const Eigen::VectorXd&, double) const override { return 0; }
    void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const override
    {
        q0 = Eigen::Vector2d(r0_, 0);
        qd0 = Eigen::Vector2d(0, v0_);
    }

private:
    double radius_, r0_, v0_;
};

int factoryCalls = 0;

SceneDefinition circleScene()
{
    constexpr double inf = std::numeric_limits<double>::infinity();
    SceneDefinition d;
    d.name = "circle";
    d.title = "Point on a circle";
    d.description = "A test scene.";
    d.parameters = {
        {.name = "radius",
         .unit = "m",
         .description = "radius",
         .defaultValue = {1.0},
         .min = 0.0,
         .max = inf,
         .minExclusive = true},
        {.name = "r0", .unit = "m", .description = "initial distance", .defaultValue = {1.0}},
        {.name = "v0", .unit = "m/s", .description = "initial speed", .defaultValue = {0.5}},
        {.name = "angle_deg",
         .unit = "deg",
         .description = "bounded both ways",
         .defaultValue = {30.0},
         .min = 0.0,
         .max = 90.0},
        {.name = "axis",
         .unit = "",
         .description = "a vector that must not vanish",
         .defaultValue = {0.0, 0.0, 1.0},
         .min = -1.0,
         .max = 1.0,
         .nonZero = true},
        {.name = "turns",
         .unit = "",
         .description = "a count",
         .defaultValue = {2.0},
         .min = 0.0,
         .max = 10.0,
         .wholeNumber = true},
    };
    d.factory = [](const ParameterValues& v) -> std::unique_ptr<MechanicalSystem> {
        ++factoryCalls;
        return std::make_unique<PointOnCircle>(v);
    };
    return d;
}

} // namespace

class TestSceneDefinition : public QObject {
    Q_OBJECT

private slots:
    void parameterIsFoundByName();
    void followerIsTiedWhileItHasItsLeadersValue();
    void untiedFollowersFollowTheirLeadersNextValue();
    void defaultsHoldEveryParameter();
    void rangeEdgesAreAccepted();
    void invalidValuesAreRejected_data();
    void invalidValuesAreRejected();
    void createOverlaysValuesOnDefaults();
    void createRejectsInconsistentInitialState_data();
    void createRejectsInconsistentInitialState();
    void createToleratesRoundOff();
    void parameterValueReportsMissingParameter();
};

void TestSceneDefinition::parameterIsFoundByName()
{
    const SceneDefinition d = circleScene();
    const ParameterSpec* p = d.parameter("angle_deg");
    QVERIFY(p);
    QCOMPARE(p->unit, std::string("deg"));
    QCOMPARE(p->size(), 1);
    QVERIFY(p->hasFiniteRange());
    QCOMPARE(d.parameter("axis")->size(), 3);
    QVERIFY(!d.parameter("radius")->hasFiniteRange());
    QVERIFY(d.parameter("Angle_deg") == nullptr);
    QVERIFY(d.parameter("") == nullptr);
}

void TestSceneDefinition::defaultsHoldEveryParameter()
{
    const SceneDefinition d = circleScene();
    const ParameterValues v = d.defaults();
    QCOMPARE(v.size(), d.parameters.size());
    for (const ParameterSpec& p : d.parameters)
        QCOMPARE(v.at(p.name), p.defaultValue);
    d.validate(v);
}

void TestSceneDefinition::rangeEdgesAreAccepted()
{
    const SceneDefinition d = circleScene();
    d.validate({{"angle_deg", {0.0}}});
    d.validate({{"angle_deg", {90.0}}});
    // Unbounded ranges are clipped to ±1e12 and positive ones start at 1e-12 (beyond, products
    // of a few values overflow or underflow double precision).
    d.validate({{"radius", {ParameterSpec::magnitudeLimit}}});
    d.validate({{"radius", {1.0 / ParameterSpec::magnitudeLimit}}});
    d.validate({{"axis", {-1.0, 0.0, 0.0}}});
    d.validate({{"r0", {-ParameterSpec::magnitudeLimit}}});
    d.validate({}); // nothing to check
}

void TestSceneDefinition::invalidValuesAreRejected_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QVector<double>>("value");
    QTest::addColumn<QStringList>("mentions");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    QTest::newRow("unknown") << "speed" << QVector<double>{1.0}
                             << QStringList{"speed", "radius", "angle_deg"};
    QTest::newRow("too many components")
        << "r0" << QVector<double>{1.0, 2.0} << QStringList{"r0", "1 component", "2"};
    QTest::newRow("too few components")
        << "axis" << QVector<double>{1.0, 0.0} << QStringList{"axis", "3 components", "2"};
    QTest::newRow("no components") << "v0" << QVector<double>{} << QStringList{"v0", "0"};
    QTest::newRow("nan") << "v0" << QVector<double>{nan} << QStringList{"v0", "nan", "finite"};
    QTest::newRow("infinity") << "r0" << QVector<double>{-inf} << QStringList{"r0", "inf"};
    QTest::newRow("at exclusive minimum")
        << "radius" << QVector<double>{0.0} << QStringList{"radius", "0", "[1e-12, 1e+12] m"};
    QTest::newRow("positive but tiny (products underflow)")
        << "radius" << QVector<double>{1e-165} << QStringList{"radius", "1e-165", "[1e-12"};
    QTest::newRow("beyond the magnitude limit (products overflow)")
        << "r0" << QVector<double>{1e308} << QStringList{"r0", "1e+308", "[-1e+12, 1e+12]"};
    QTest::newRow("below minimum")
        << "angle_deg" << QVector<double>{-0.5} << QStringList{"angle_deg", "-0.5", "[0, 90] deg"};
    QTest::newRow("above maximum") << "angle_deg" << QVector<double>{90.25}
                                   << QStringList{"angle_deg", "90.25", "[0, 90] deg"};
    QTest::newRow("component out of range")
        << "axis" << QVector<double>{0.0, 1.5, 0.0} << QStringList{"axis", "component 2", "1.5"};
    QTest::newRow("all zero") << "axis" << QVector<double>{0.0, 0.0, 0.0}
                              << QStringList{"axis", "zero"};
    QTest::newRow("fractional count")
        << "turns" << QVector<double>{2.5} << QStringList{"turns", "2.5", "whole number"};
}

void TestSceneDefinition::invalidValuesAreRejected()
{
    QFETCH(QString, name);
    QFETCH(QVector<double>, value);
    QFETCH(QStringList, mentions);
    const SceneDefinition d = circleScene();
    const ParameterValues values{
        {name.toStdString(), std::vector<double>(value.begin(), value.end())}};
    for (int pass = 0; pass < 2; ++pass) {
        factoryCalls = 0;
        try {
            if (pass == 0)
                d.validate(values);
            else
                d.create(values);
            QFAIL("accepted");
        } catch (const ConstraintLabError& e) {
            QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains("circle"), e.what());
            for (const QString& m : mentions)
                QVERIFY2(message.contains(m), qPrintable(message + " lacks " + m));
        }
        QCOMPARE(factoryCalls, 0); // validation comes before the factory
    }
}

void TestSceneDefinition::createOverlaysValuesOnDefaults()
{
    const SceneDefinition d = circleScene();
    const auto sys = d.create({{"radius", {2.5}}, {"r0", {2.5}}});
    Eigen::VectorXd q(2), qd(2);
    sys->initialState(q, qd);
    QCOMPARE(q, Eigen::VectorXd(Eigen::Vector2d(2.5, 0)));
    QCOMPARE(qd, Eigen::VectorXd(Eigen::Vector2d(0, 0.5))); // v0 keeps its default
}

void TestSceneDefinition::createRejectsInconsistentInitialState_data()
{
    QTest::addColumn<double>("radius");
    QTest::addColumn<double>("r0");
    QTest::newRow("off the circle") << 1.0 << 1.5;
    QTest::newRow("relative error 1e-7") << 1000.0 << 1000.0 * (1 + 1e-7);
    QTest::newRow("far off the circle") << 1.0 << 1e12;
}

void TestSceneDefinition::createRejectsInconsistentInitialState()
{
    QFETCH(double, radius);
    QFETCH(double, r0);
    try {
        circleScene().create({{"radius", {radius}}, {"r0", {r0}}});
        QFAIL("accepted");
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidInitialState);
        QVERIFY2(QString::fromUtf8(e.what()).contains("circle"), e.what());
    }
}

// Initial states built from trigonometric functions are only exact to round-off.
void TestSceneDefinition::createToleratesRoundOff()
{
    for (const double radius : {1e-3, 1.0, 1e3}) {
        const double r0 = radius * (1 + 1e-12);
        QVERIFY(circleScene().create({{"radius", {radius}}, {"r0", {r0}}}) != nullptr);
    }
}

void TestSceneDefinition::parameterValueReportsMissingParameter()
{
    const ParameterValues v{{"J", {1, 2, 3}}};
    QCOMPARE(parameterValue(v, "J", 2), 3.0);
    for (const auto& [name, index] : {std::pair<std::string, int>{"J", 3}, {"mass", 0}}) {
        try {
            parameterValue(v, name, index);
            QFAIL("no error");
        } catch (const ConstraintLabError& e) {
            QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
            QVERIFY(QString::fromUtf8(e.what()).contains(QString::fromStdString(name)));
        }
    }
}

void TestSceneDefinition::followerIsTiedWhileItHasItsLeadersValue()
{
    // The bead's mu_s follows mu (defaultsTo): tied while equal, free once set apart.
    const SceneDefinition* bead = SceneRegistry::find("bead-on-wire");
    QVERIFY(bead != nullptr);
    ParameterValues values = bead->defaults();
    values["mu"] = {0.3};
    values["mu_s"] = {0.3};
    QVERIFY(bead->tiedToLeader(values, "mu_s"));
    values["mu_s"] = {0.4};
    QVERIFY(!bead->tiedToLeader(values, "mu_s"));
    // A leader follows nothing; an absent or unknown parameter is not tied.
    QVERIFY(!bead->tiedToLeader(values, "mu"));
    values.erase("mu_s");
    QVERIFY(!bead->tiedToLeader(values, "mu_s"));
    QVERIFY(!bead->tiedToLeader(values, "no_such_parameter"));
}

void TestSceneDefinition::untiedFollowersFollowTheirLeadersNextValue()
{
    // A sweep or fit of mu lets a mu_s that had mu's value follow the new one; a mu_s set
    // apart, or itself varied, keeps its value.
    const SceneDefinition* bead = SceneRegistry::find("bead-on-wire");
    ParameterValues values = bead->defaults();
    values["mu"] = values["mu_s"] = {0.3};
    ParameterValues untied = bead->untieFollowers(values, {"mu"});
    QVERIFY(!untied.count("mu_s"));
    untied["mu"] = {0.5};
    QCOMPARE(bead->complete(untied).at("mu_s"), std::vector<double>{0.5});
    QVERIFY(bead->untieFollowers(values, {"mu", "mu_s"}).count("mu_s"));
    QVERIFY(bead->untieFollowers(values, {"angle_deg"}).count("mu_s"));
    values["mu_s"] = {0.4};
    QVERIFY(bead->untieFollowers(values, {"mu"}).count("mu_s"));
}

QTEST_APPLESS_MAIN(TestSceneDefinition)
#include "tst_SceneDefinition.moc"
