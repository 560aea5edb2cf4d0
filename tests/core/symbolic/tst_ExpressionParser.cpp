// ExpressionParser: ordinary notation gives the expression a physicist means (precedence,
// functions, exact integers), and every kind of mistake is reported at its column with a reason.
#include "symbolic/ExpressionParser.h"
#include "symbolic/SystemError.h"

#include <QtTest>

using namespace clab;

class TestExpressionParser : public QObject {
    Q_OBJECT

private slots:
    void init();
    void powerBindsTighterThanUnaryMinusAndIsRightAssociative();
    void functionsAndPiAreKnown();
    void wholeNumbersStayExactSoDerivativesAreExact();
    void signHasZeroDerivative();
    void mistakesAreReportedAtTheirColumn_data();
    void mistakesAreReportedAtTheirColumn();
    void deepNestingIsRefusedNotACrash();
    void nestingIsRefusedAtTheLimitItNames();
    void numbersOutOfTheDoubleRangeAreRefusedNotComputed_data();
    void numbersOutOfTheDoubleRangeAreRefusedNotComputed();
    void aHugeNumberIsQuotedShort();
    void aTranspositionIsOneEdit();

private:
    GiNaC::realsymbol x_{"x"}, y_{"y"}, l1_{"l1"}, l2_{"l2"};
    ExpressionParser::SymbolTable table_;
};

void TestExpressionParser::init()
{
    table_ = {{"x", x_}, {"y", y_}, {"l1", l1_}, {"l2", l2_}};
}

static double valueAt(const GiNaC::ex& e, double x, double y)
{
    GiNaC::exmap values;
    for (GiNaC::const_preorder_iterator i = e.preorder_begin(); i != e.preorder_end(); ++i)
        if (GiNaC::is_a<GiNaC::symbol>(*i))
            values[*i] = GiNaC::ex_to<GiNaC::symbol>(*i).get_name() == "x" ? x : y;
    return GiNaC::ex_to<GiNaC::numeric>(e.subs(values).evalf()).to_double();
}

void TestExpressionParser::powerBindsTighterThanUnaryMinusAndIsRightAssociative()
{
    QCOMPARE(valueAt(ExpressionParser::parse("-x^2", table_, "k"), 3, 0), -9.0);
    QCOMPARE(valueAt(ExpressionParser::parse("2^3^2", table_, "k"), 0, 0), 512.0);
    QCOMPARE(valueAt(ExpressionParser::parse("2**-1", table_, "k"), 0, 0), 0.5);
    QCOMPARE(valueAt(ExpressionParser::parse("x - y - 1", table_, "k"), 5, 3), 1.0);
    QCOMPARE(valueAt(ExpressionParser::parse("x / y / 2", table_, "k"), 12, 3), 2.0);
    QCOMPARE(valueAt(ExpressionParser::parse("x*(y + 1)/ 2e1", table_, "k"), 4, 4), 1.0);
    QCOMPARE(valueAt(ExpressionParser::parse(".5*x", table_, "k"), 4, 0), 2.0);
}

void TestExpressionParser::functionsAndPiAreKnown()
{
    const GiNaC::ex e = ExpressionParser::parse(
        "sin(pi/6) + cos(0) + atan2(y, x) + sqrt(x^2 + y^2) + abs(-x) + exp(log(2)) + sign(-y)",
        table_, "k");
    // 0.5 + 1 + π/4 + √2 + 1 + 2 − 1 at x = y = 1
    QVERIFY(std::abs(valueAt(e, 1, 1) - (3.5 + M_PI / 4 + std::sqrt(2.0))) < 1e-14);
}

void TestExpressionParser::wholeNumbersStayExactSoDerivativesAreExact()
{
    const GiNaC::ex e = ExpressionParser::parse("(x - l1)^2/2 + 3*x", table_, "k");
    const GiNaC::ex d = e.diff(x_);
    QVERIFY((d - (x_ - l1_ + 3)).is_zero());
}

void TestExpressionParser::signHasZeroDerivative()
{
    const GiNaC::ex e = ExpressionParser::parse("sign(x)*x", table_, "k");
    QVERIFY((e.diff(x_) - clab_sign(x_)).is_zero());
    QCOMPARE(valueAt(ExpressionParser::parse("sign(x)", table_, "k"), -2, 0), -1.0);
}

void TestExpressionParser::mistakesAreReportedAtTheirColumn_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("reason");
    QTest::newRow("unknown symbol, with the close names")
        << "x^2 + l3^2" << 7 << "unknown symbol 'l3' (did you mean l1 or l2?)";
    QTest::newRow("a stray operator")
        << "x + * y" << 5 << "unexpected '*' where a value was expected";
    QTest::newRow("an unclosed parenthesis") << "(x + y" << 7 << "missing ')'";
    QTest::newRow("a parenthesis too many") << "x + y)" << 6 << "no '(' to close";
    QTest::newRow("a function without arguments") << "sin + x" << 1 << "'sin' is a function";
    QTest::newRow("the wrong number of arguments")
        << "atan2(y)" << 1 << "atan2 takes 2 arguments, got 1";
    QTest::newRow("a symbol called like a function") << "x(y)" << 2 << "'x' is not a function";
    QTest::newRow("a Greek letter typed as itself") << "2*θ" << 3 << "unexpected 'θ'";
    QTest::newRow("an exponent without digits") << "1e+ x" << 2 << "an exponent needs digits";
    QTest::newRow("division by a literal zero") << "x/0" << 3 << "division by zero";
    QTest::newRow("nothing at all") << "   " << 1 << "the expression is empty";
    QTest::newRow("an operator at the end")
        << "x +" << 4 << "the expression ends where a value was expected";
}

void TestExpressionParser::mistakesAreReportedAtTheirColumn()
{
    QFETCH(QString, text);
    QFETCH(int, column);
    QFETCH(QString, reason);
    try {
        ExpressionParser::parse(text.toStdString(), table_, "system.constraints[1].holonomic");
        QFAIL("no error");
    } catch (const SystemError& e) {
        QCOMPARE(QString::fromStdString(e.key()),
                 QStringLiteral("system.constraints[1].holonomic"));
        QVERIFY2(QString::fromStdString(e.reason()).contains(reason), e.what());
        QCOMPARE(e.position(), column);
        QVERIFY(QString::fromUtf8(e.what()).startsWith(
            QStringLiteral("system.constraints[1].holonomic: column %1: ").arg(column)));
    }
}

// Issue 32: typing `cx` for the coordinate `xc` swaps two letters, one edit (optimal string
// alignment); Levenshtein's two edits exceeded the limit for a two-letter name.
void TestExpressionParser::aTranspositionIsOneEdit()
{
    GiNaC::realsymbol xc{"xc"}, lx{"lx"};
    const ExpressionParser::SymbolTable symbols{{"xc", xc}, {"x", x_}, {"lx", lx}};
    QCOMPARE(ExpressionParser::suggestions("cx", symbols), std::string("xc, lx or x"));
    // A transposition inside a longer name ranks before two substitutions.
    GiNaC::realsymbol theta{"theta"}, other{"thxtz"};
    QCOMPARE(ExpressionParser::suggestions("thtea", {{"theta", theta}, {"thxtz", other}}),
             std::string("theta"));
}

void TestExpressionParser::deepNestingIsRefusedNotACrash()
{
    const std::string text = std::string(100000, '(') + "x" + std::string(100000, ')');
    QVERIFY_THROWS_EXCEPTION(SystemError, ExpressionParser::parse(text, table_, "k"));
    std::string power = "x";
    for (int i = 0; i < 50000; ++i)
        power += "^x";
    QVERIFY_THROWS_EXCEPTION(SystemError, ExpressionParser::parse(power, table_, "k"));
    // Signs are counted, not recursed into: any number of them reads as one.
    const std::string minus = std::string(100000, '-') + "x";
    QCOMPARE(ExpressionParser::parse(minus, table_, "k"), GiNaC::ex(x_));
}

// Issue 34: 101 parentheses were refused as "more than 200 levels" (the parser's recursion,
// two calls per parenthesis); the limit named is the one the author can count.
void TestExpressionParser::nestingIsRefusedAtTheLimitItNames()
{
    const auto nested = [](int n) {
        return std::string(static_cast<std::size_t>(n), '(') + "x" +
               std::string(static_cast<std::size_t>(n), ')');
    };
    QCOMPARE(ExpressionParser::parse(nested(100), table_, "k"), GiNaC::ex(x_));
    try {
        ExpressionParser::parse(nested(101), table_, "system.potential_energy");
        QFAIL("no error");
    } catch (const SystemError& e) {
        QCOMPARE(e.key(), std::string("system.potential_energy"));
        QCOMPARE(e.position(), 101);
        QCOMPARE(e.reason(), std::string("the expression is nested too deeply (more than 100 "
                                         "parentheses open at once)"));
    }
    QVERIFY_THROWS_EXCEPTION(SystemError,
                             ExpressionParser::parse("sin(" + nested(100) + ")", table_, "k"));
}

// Issue 34: 9^9^9 (an integer of 370 million digits) took 283 s and 2 GB before the run
// could say it is too large for a double; now the size is known from the doubles first.
void TestExpressionParser::numbersOutOfTheDoubleRangeAreRefusedNotComputed_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("reason");
    QTest::newRow("a tower of powers")
        << "9^9^9*x" << 1 << "9^9^9 is about 10^3.7e+08, beyond the largest number";
    QTest::newRow("a power of two")
        << "x + 2^100000000" << 5 << "2^100000000 is about 10^3.01e+07, beyond the largest";
    QTest::newRow("a tiny power") << "x*0.5^-2000" << 3 << "0.5^-2000 is about 10^602";
    // GiNaC raises a product's number to the power at once: (x+x)^N is 2^N*x^N.
    QTest::newRow("a number factor raised to a huge power")
        << "x + (x+x)^8019^9" << 5 << "(x+x)^8019^9 has a number factor of about 10^4.13e+34";
    QTest::newRow("a root raised to a huge power")
        << "x*(sqrt(2)*x)^100000" << 3
        << "(sqrt(2)*x)^100000 has a number factor of about 10^1.51e+04";
    QTest::newRow("a product of large numbers")
        << "x + 1e300*1e300" << 5 << "1e300*1e300 is beyond the largest number";
    QTest::newRow("an exponential") << "exp(1000)*x" << 1 << "exp(1000) is beyond the largest";
    QTest::newRow("an imaginary number") << "sqrt(-1)*x" << 1 << "sqrt(-1) is not a real number";
    QTest::newRow("a logarithm of a negative number")
        << "x + log(-2)" << 5 << "log(-2) is not a real number";
    QTest::newRow("a pole, without GiNaC's words")
        << "x*log(0)" << 3 << "log(0) is undefined (log has a pole or is not defined there)";
    QTest::newRow("a tangent at its pole") << "tan(pi/2) + x" << 1 << "tan(pi/2) is undefined";
}

void TestExpressionParser::numbersOutOfTheDoubleRangeAreRefusedNotComputed()
{
    QFETCH(QString, text);
    QFETCH(int, column);
    QFETCH(QString, reason);
    try {
        ExpressionParser::parse(text.toStdString(), table_, "system.potential_energy");
        QFAIL("no error");
    } catch (const SystemError& e) {
        QCOMPARE(e.key(), std::string("system.potential_energy"));
        QVERIFY2(QString::fromStdString(e.reason()).startsWith(reason), e.what());
        QVERIFY2(!QString::fromStdString(e.reason()).contains(QLatin1String("_eval")), e.what());
        QCOMPARE(e.position(), column);
    }
}

// Issue 34: a number of 100 000 digits was quoted in full (to 4 000 characters of message).
void TestExpressionParser::aHugeNumberIsQuotedShort()
{
    try {
        ExpressionParser::parse(std::string(100000, '9') + "*x", table_, "k");
        QFAIL("no error");
    } catch (const SystemError& e) {
        QVERIFY2(std::string(e.what()).size() < 200, e.what());
        QVERIFY2(e.reason().find("(100000 characters)") != std::string::npos, e.what());
        QVERIFY2(e.reason().find("beyond the largest number") != std::string::npos, e.what());
    }
}

QTEST_APPLESS_MAIN(TestExpressionParser)
#include "tst_ExpressionParser.moc"
