// ExpressionTape: the compiled form gives GiNaC's own values, computes a shared subexpression
// once, moves what depends on parameters alone out of the per-step work, and allocates nothing.
#include "symbolic/ExpressionParser.h"
#include "symbolic/ExpressionTape.h"

#include "../../support/AllocationCounter.h"

#include <QtTest>

#include <random>

using namespace clab;

class TestExpressionTape : public QObject {
    Q_OBJECT

private slots:
    void agreesWithGinacsOwnEvaluation();
    void sharedSubexpressionsAreComputedOnce();
    void parameterOnlyPartsRunOnceNotPerEvaluation();
    void unknownSymbolsAreRefused();
    void evaluationAllocatesNothing();
};

namespace {

struct Setup {
    GiNaC::realsymbol a{"a"}, b{"b"}, x{"x"}, y{"y"}, t{"t"};
    ExpressionParser::SymbolTable table{{"a", a}, {"b", b}, {"x", x}, {"y", y}, {"t", t}};
    GiNaC::ex parse(const char* text) { return ExpressionParser::parse(text, table, "k"); }
};

double ginacValue(const GiNaC::ex& e, const Setup& s, const std::array<double, 5>& v)
{
    const GiNaC::exmap values{{s.a, v[0]}, {s.b, v[1]}, {s.x, v[2]}, {s.y, v[3]}, {s.t, v[4]}};
    return GiNaC::ex_to<GiNaC::numeric>(e.subs(values).evalf()).to_double();
}

} // namespace

void TestExpressionTape::agreesWithGinacsOwnEvaluation()
{
    Setup s;
    const std::vector<const char*> texts{
        "a*x^2 - b*y^3/7 + 1/(x^2 + y^2)^(3/2)",
        "sin(a*t)*cos(x) - tan(y/5) + asin(x/9) + acos(y/9) + atan(x*y)",
        "atan2(y, -x) + sinh(x/3) + cosh(y/3) - tanh(a) + exp(-t) + log(1 + x^2)",
        "sqrt(abs(x - y)) * sign(x - y) + x^(-5) - 2^x + (x + y)^a",
        "-(x - 2*y)/(3*a) + 3/2*x*y - x^(5/2)"};
    std::vector<GiNaC::ex> outputs;
    for (const char* text : texts)
        outputs.push_back(s.parse(text));
    // The derivatives too: they are what the engine really evaluates.
    for (std::size_t i = 0; i < texts.size(); ++i) {
        outputs.push_back(outputs[i].diff(s.x));
        outputs.push_back(outputs[i].diff(s.y).diff(s.x));
    }
    ExpressionTape tape({s.a, s.b}, {s.t, s.x, s.y}, outputs);
    std::mt19937 random(7);
    std::uniform_real_distribution<double> u(0.3, 2.0);
    std::vector<double> out(outputs.size());
    for (int trial = 0; trial < 50; ++trial) {
        const std::array<double, 5> v{u(random), u(random), u(random), u(random), u(random)};
        const double fixed[] = {v[0], v[1]};
        const double varying[] = {v[4], v[2], v[3]};
        tape.setFixed(fixed);
        tape.evaluate(varying, out.data());
        for (std::size_t i = 0; i < outputs.size(); ++i) {
            const double expected = ginacValue(outputs[i], s, v);
            QVERIFY2(
                std::abs(out[i] - expected) <= 1e-13 * (1.0 + std::abs(expected)),
                qPrintable(QStringLiteral("output %1: %2 vs %3").arg(i).arg(out[i]).arg(expected)));
        }
    }
}

void TestExpressionTape::sharedSubexpressionsAreComputedOnce()
{
    Setup s;
    const GiNaC::ex r = s.parse("sqrt(x^2 + y^2)");
    ExpressionTape one({}, {s.x, s.y}, {r});
    // x/r, y/r and r itself need the root once: two divisions more than r alone.
    ExpressionTape three({}, {s.x, s.y}, {r, s.x / r, s.y / r});
    QCOMPARE(three.instructionCount(), one.instructionCount() + 2);
}

void TestExpressionTape::parameterOnlyPartsRunOnceNotPerEvaluation()
{
    Setup s;
    // sin(a)*cos(b)*... is a constant of the run; only the multiplication by x is per step.
    const GiNaC::ex e = s.parse("x*sin(a*pi/180)*cos(b)/sqrt(a^2 + b^2)");
    ExpressionTape tape({s.a, s.b}, {s.x}, {e});
    QCOMPARE(tape.instructionCount(), 1);
    const double fixed[] = {30.0, 0.5};
    tape.setFixed(fixed);
    double x = 2.0, out = 0.0;
    tape.evaluate(&x, &out);
    QVERIFY(std::abs(out - 2.0 * 0.5 * std::cos(0.5) / std::sqrt(900.25)) < 1e-15);
}

void TestExpressionTape::unknownSymbolsAreRefused()
{
    Setup s;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ExpressionTape({}, {s.x}, {s.x + s.y}));
}

void TestExpressionTape::evaluationAllocatesNothing()
{
    Setup s;
    ExpressionTape tape({s.a}, {s.x, s.y}, {s.parse("a*x^3 + sin(y)"), s.parse("x*y")});
    const double a = 2.0, in[] = {1.0, 2.0};
    double out[2];
    tape.setFixed(&a);
    if (!testing::kCountsAllocations)
        QSKIP("allocations are not counted in this build (sanitizers)");
    const long allocations = testing::allocationsDuring([&] {
        for (int i = 0; i < 100; ++i)
            tape.evaluate(in, out);
    });
    QCOMPARE(allocations, 0L);
    QCOMPARE(out[1], 2.0);
}

QTEST_APPLESS_MAIN(TestExpressionTape)
#include "tst_ExpressionTape.moc"
