// ExpressionPrinter: the Unicode style a derivation panel shows (Greek letters, subscripts,
// dotted velocities, superscript powers, · and −), and the name rules it shares with LaTeX.
#include "symbolic/ExpressionParser.h"
#include "symbolic/ExpressionPrinter.h"

#include <QtTest>

using namespace clab;

class TestExpressionPrinter : public QObject {
    Q_OBJECT

private slots:
    void init();
    void unicodePrintsForAReader_data();
    void unicodePrintsForAReader();
    void namesSplitTheSameWayForLatexAndUnicode_data();
    void namesSplitTheSameWayForLatexAndUnicode();
    void textAndLatexAreUnchanged();

private:
    ExpressionParser::SymbolTable table_;
};

void TestExpressionPrinter::init()
{
    table_.clear();
    for (const char* name : {"x1", "x1_dot", "y", "theta", "theta_dot", "phi", "psi_dot", "m_2",
                             "mu_s", "omega", "lambda", "l1", "a"})
        // With the TeX name SymbolicModel gives its symbols.
        table_[name] = GiNaC::realsymbol(
            name, ExpressionPrinter::symbolName(name, ExpressionPrinter::Style::Latex));
}

void TestExpressionPrinter::unicodePrintsForAReader_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("printed");
    QTest::newRow("a number times a name") << "2*x1"
                                           << "2·x₁";
    QTest::newRow("a dotted velocity squared") << "m_2*x1_dot^2/2"
                                               << "x\u0307₁²·m₂/2";
    QTest::newRow("Greek names") << "omega*lambda*phi"
                                 << "λ·ω·φ";
    QTest::newRow("a dotted Greek name") << "theta_dot + psi_dot"
                                         << "ψ\u0307 + θ\u0307";
    QTest::newRow("a letter subscript") << "mu_s*y"
                                        << "μₛ·y";
    QTest::newRow("minus signs") << "-x1^2 - y"
                                 << "−x₁² − y";
    QTest::newRow("a negative coefficient") << "-3*y"
                                            << "−3·y";
    QTest::newRow("a squared difference") << "(x1 - y)^2"
                                          << "(x₁ − y)²";
    QTest::newRow("a root of a name") << "sqrt(x1)"
                                      << "√x₁";
    QTest::newRow("a root of a sum") << "sqrt(x1^2 + y^2)"
                                     << "√(x₁² + y²)";
    QTest::newRow("pi") << "pi*y"
                        << "π·y";
    QTest::newRow("a reciprocal") << "1/x1"
                                  << "1/x₁";
    QTest::newRow("a fraction") << "x1/(2*y)"
                                << "x₁/(2·y)";
    QTest::newRow("a rational power") << "y^(1/3)"
                                      << "y^(1/3)";
    QTest::newRow("a symbolic power") << "y^a"
                                      << "y^a";
    QTest::newRow("functions") << "l1*sin(theta) + abs(y) + log(a)"
                               << "l₁·sin(θ) + |y| + ln(a)";
}

void TestExpressionPrinter::unicodePrintsForAReader()
{
    QFETCH(QString, expression);
    QFETCH(QString, printed);
    const GiNaC::ex e = ExpressionParser::parse(expression.toStdString(), table_, "k");
    // Operands come in the canonical order of the Text style: x1_dot^2*m_2/2.
    QCOMPARE(QString::fromStdString(ExpressionPrinter(ExpressionPrinter::Style::Unicode).print(e)),
             printed);
}

void TestExpressionPrinter::namesSplitTheSameWayForLatexAndUnicode_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("latex");
    QTest::addColumn<QString>("unicode");
    QTest::newRow("an index") << "x1"
                              << "x_{1}"
                              << "x₁";
    QTest::newRow("an index after _") << "m_2"
                                      << "m_{2}"
                                      << "m₂";
    QTest::newRow("a velocity") << "x1_dot"
                                << "\\dot{x_{1}}"
                                << "x\u0307₁";
    QTest::newRow("a Greek velocity") << "theta1_dot"
                                      << "\\dot{\\theta_{1}}"
                                      << "θ\u0307₁";
    QTest::newRow("the velocity of a longer name, as the file spells it") << "th_dot"
                                                                          << "\\dot{\\mathrm{th}}"
                                                                          << "th_dot";
    QTest::newRow("a subscript and an index") << "mu_s2"
                                              << "\\mu_{s,2}"
                                              << "μₛ₂";
    QTest::newRow("a subscript without small letters") << "N_rod1"
                                                       << "N_{rod,1}"
                                                       << "N_rod1";
    QTest::newRow("a word") << "mass"
                            << "\\mathrm{mass}"
                            << "mass";
    QTest::newRow("capital Greek") << "Omega"
                                   << "\\Omega"
                                   << "Ω";
}

void TestExpressionPrinter::namesSplitTheSameWayForLatexAndUnicode()
{
    QFETCH(QString, name);
    QFETCH(QString, latex);
    QFETCH(QString, unicode);
    using Style = ExpressionPrinter::Style;
    const std::string n = name.toStdString();
    QCOMPARE(QString::fromStdString(ExpressionPrinter::symbolName(n, Style::Latex)), latex);
    QCOMPARE(QString::fromStdString(ExpressionPrinter::symbolName(n, Style::Unicode)), unicode);
    QCOMPARE(QString::fromStdString(ExpressionPrinter::symbolName(n, Style::Text)), name);
}

void TestExpressionPrinter::textAndLatexAreUnchanged()
{
    const GiNaC::ex e = ExpressionParser::parse("-m_2*(x1 - y)^2/2 + sqrt(y)", table_, "k");
    QCOMPARE(QString::fromStdString(ExpressionPrinter(ExpressionPrinter::Style::Text).print(e)),
             QString("sqrt(y) - (x1 - y)^2*m_2/2"));
    QCOMPARE(QString::fromStdString(ExpressionPrinter(ExpressionPrinter::Style::Latex).print(e)),
             QString("\\sqrt{y} - \\frac{\\left(x_{1} - y\\right)^{2} m_{2}}{2}"));
}

QTEST_APPLESS_MAIN(TestExpressionPrinter)
#include "tst_ExpressionPrinter.moc"
