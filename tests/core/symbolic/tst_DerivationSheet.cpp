// DerivationSheet: the derivation as blocks "symbol = matrix" in Unicode for the panel, whose
// own text and LaTeX lines make up exactly what `derive` prints.
#include "../../support/SystemDescriptions.h"
#include "symbolic/DerivationSheet.h"
#include "symbolic/SymbolicModel.h"

#include <QtTest>

using namespace clab;

class TestDerivationSheet : public QObject {
    Q_OBJECT

private slots:
    void doublePendulumHasOneBlockPerPart();
    void massMatrixAndConstraintRowsPrintInUnicode();
    void velocityConstraintAndSlipVelocity();
    void nonIdealForceComesLast();
    void blocksMakeUpTheTextAndLatexDerivations_data();
    void blocksMakeUpTheTextAndLatexDerivations();
};

namespace {

using Kind = SystemDescription::Constraint::Kind;
using P = SystemDescription::Parameter;

// A skate on a table with a drag: an unnamed velocity constraint and a slip velocity.
SystemDescription skate()
{
    SystemDescription d;
    d.coordinates = {{"x"}, {"y"}, {"theta", ""}};
    d.parameters = {P::plain("m", 1.0)};
    d.kineticEnergy = "m*(x_dot^2 + y_dot^2 + theta_dot^2)/2";
    d.constraints = {{"", Kind::Velocity, "-x_dot*sin(theta) + y_dot*cos(theta)"}};
    d.friction = {{"table", {"x_dot"}, {}, "", "", "1"}};
    return d;
}

// A bead on a ring with a general non-ideal force.
SystemDescription bead()
{
    SystemDescription d;
    d.coordinates = {{"x"}, {"y"}};
    d.parameters = {P::plain("m", 1.0), P::plain("g", 9.81), P::plain("R", 1.0),
                    P::plain("mu", 0.1)};
    d.kineticEnergy = "m*(x_dot^2 + y_dot^2)/2";
    d.potentialEnergy = "m*g*y";
    d.constraints = {{"ring", Kind::Holonomic, "x^2 + y^2 - R^2"}};
    d.nonideal = {{"x", "-mu*N_ring*sign(x_dot)"}};
    return d;
}

// A block's cells, a row a string with ", " between entries (readable when a check fails).
QStringList rows(const DerivationSheet::Block& block)
{
    QStringList out;
    for (const std::vector<std::string>& row : block.cells) {
        QStringList entries;
        for (const std::string& e : row)
            entries << QString::fromStdString(e);
        out << entries.join(", ");
    }
    return out;
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

QStringList titles(const DerivationSheet& sheet)
{
    QStringList out;
    for (const DerivationSheet::Block& b : sheet.blocks())
        out << QString::fromStdString(b.title);
    return out;
}

} // namespace

void TestDerivationSheet::doublePendulumHasOneBlockPerPart()
{
    const auto model = SymbolicModel::create(test::doublePendulum());
    const DerivationSheet sheet = model->derivationSheet();
    QCOMPARE(
        titles(sheet),
        QStringList({"Coordinates", "Kinetic energy", "Potential energy", "Mass matrix",
                     "Given force", "rod1 (holonomic)", "rod1: row of A", "rod1: right-hand side b",
                     "rod2 (holonomic)", "rod2: row of A", "rod2: right-hand side b"}));
    QStringList symbols;
    for (const DerivationSheet::Block& b : sheet.blocks())
        symbols << QString::fromStdString(b.symbol);
    QCOMPARE(symbols, QStringList({"q", "T", "V", "M", "Q", "φ₁", "A₁", "b₁", "φ₂", "A₂", "b₂"}));
    // The constraint's blocks know it, for a label; the others belong to none.
    const auto& blocks = sheet.blocks();
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const int constraint = i < 5 ? -1 : static_cast<int>(i - 5) / 3;
        QCOMPARE(blocks[i].constraint, constraint);
        QCOMPARE(q(blocks[i].constraintName),
                 constraint < 0 ? QString() : QString("rod%1").arg(constraint + 1));
    }
    QCOMPARE(rows(blocks[0]), QStringList({"x₁", "y₁", "x₂", "y₂"}));
    // Joined, the blocks' lines are `derive`'s text, as it was before the sheet.
    QCOMPARE(q(sheet.text()),
             QString("q = (x1, y1, x2, y2)\n"
                     "T = (x1_dot^2 + y1_dot^2)*m1/2 + (x2_dot^2 + y2_dot^2)*m2/2\n"
                     "V = g*m1*y1 + g*m2*y2\n"
                     "M =\n"
                     "  (m1, 0, 0, 0)\n"
                     "  (0, m1, 0, 0)\n"
                     "  (0, 0, m2, 0)\n"
                     "  (0, 0, 0, m2)\n"
                     "Q = (0, -g*m1, 0, -g*m2)\n"
                     "rod1 (holonomic): phi = x1^2 + y1^2 - l1^2 = 0\n"
                     "  A row = (2*x1, 2*y1, 0, 0)\n"
                     "  b = -2*x1_dot^2 - 2*y1_dot^2\n"
                     "rod2 (holonomic): phi = (x1 - x2)^2 + (y1 - y2)^2 - l2^2 = 0\n"
                     "  A row = (2*x1 - 2*x2, 2*y1 - 2*y2, 2*x2 - 2*x1, 2*y2 - 2*y1)\n"
                     "  b = 4*x1_dot*x2_dot + 4*y1_dot*y2_dot - 2*x1_dot^2 - 2*x2_dot^2 - "
                     "2*y1_dot^2 - 2*y2_dot^2\n"));
}

void TestDerivationSheet::massMatrixAndConstraintRowsPrintInUnicode()
{
    const auto model = SymbolicModel::create(test::doublePendulum());
    const DerivationSheet sheet = model->derivationSheet();
    const auto& blocks = sheet.blocks();
    QCOMPARE(rows(blocks[3]),
             QStringList({"m₁, 0, 0, 0", "0, m₁, 0, 0", "0, 0, m₂, 0", "0, 0, 0, m₂"}));
    QCOMPARE(rows(blocks[5]), QStringList({"x₁² + y₁² − l₁²"}));
    QCOMPARE(q(blocks[5].suffix), QString(" = 0"));
    QCOMPARE(rows(blocks[7]), QStringList({"−2·x\u0307₁² − 2·y\u0307₁²"}));
    QCOMPARE(rows(blocks[9]), QStringList({"2·x₁ − 2·x₂, 2·y₁ − 2·y₂, 2·x₂ − 2·x₁, 2·y₂ − 2·y₁"}));
    QCOMPARE(q(blocks[9].suffix), QString());
    // Each block carries its own lines of `derive`.
    QCOMPARE(q(blocks[5].text), QString("rod1 (holonomic): phi = x1^2 + y1^2 - l1^2 = 0\n"));
    QCOMPARE(q(blocks[6].latex),
             QString("\\[ A_{1} = \\begin{pmatrix}2 x_{1} \\\\ 2 y_{1} \\\\ 0 \\\\ "
                     "0\\end{pmatrix}^{T} \\]\n"));
}

void TestDerivationSheet::velocityConstraintAndSlipVelocity()
{
    const auto model = SymbolicModel::create(skate());
    const DerivationSheet sheet = model->derivationSheet();
    QCOMPARE(titles(sheet),
             QStringList({"Coordinates", "Kinetic energy", "Potential energy", "Mass matrix",
                          "Given force", "constraint 1 (velocity)", "constraint 1: row of A",
                          "constraint 1: right-hand side b", "slip velocity of table"}));
    const auto& blocks = sheet.blocks();
    QCOMPARE(q(blocks[5].symbol), QString("ψ₁"));
    QCOMPARE(blocks[5].constraint, 0);
    QCOMPARE(q(blocks[5].constraintName), QString());
    QCOMPARE(rows(blocks[6]), QStringList({"−sin(θ), cos(θ), 0"}));
    QCOMPARE(q(blocks[8].symbol), QString("v_table"));
    QCOMPARE(rows(blocks[8]), QStringList({"x\u0307"}));
    QCOMPARE(blocks[8].constraint, -1);
}

void TestDerivationSheet::nonIdealForceComesLast()
{
    const auto model = SymbolicModel::create(bead());
    const DerivationSheet sheet = model->derivationSheet();
    QCOMPARE(sheet.blocks().size(), std::size_t(9));
    const DerivationSheet::Block& c = sheet.blocks().back();
    QCOMPARE(q(c.title), QString("Non-ideal force"));
    QCOMPARE(q(c.symbol), QString("C"));
    QCOMPARE(rows(c), QStringList({"−N_ring·sign(x\u0307)·μ", "0"}));
}

void TestDerivationSheet::blocksMakeUpTheTextAndLatexDerivations_data()
{
    QTest::addColumn<int>("system");
    QTest::newRow("double pendulum") << 0;
    QTest::newRow("skate with drag") << 1;
    QTest::newRow("bead with a non-ideal force") << 2;
}

void TestDerivationSheet::blocksMakeUpTheTextAndLatexDerivations()
{
    QFETCH(int, system);
    const SystemDescription d = system == 0   ? test::doublePendulum()
                                : system == 1 ? skate()
                                              : bead();
    const auto model = SymbolicModel::create(d);
    const DerivationSheet sheet = model->derivationSheet();
    std::string text, latex;
    for (const DerivationSheet::Block& b : sheet.blocks()) {
        text += b.text;
        latex += b.latex;
    }
    QCOMPARE(QString::fromStdString(text),
             QString::fromStdString(model->derivationText(SymbolicModel::Format::Text)));
    QCOMPARE(QString::fromStdString(latex),
             QString::fromStdString(model->derivationText(SymbolicModel::Format::Latex)));
    QCOMPARE(q(sheet.text()), q(text));
    QCOMPARE(q(sheet.latex()), q(latex));
}

QTEST_APPLESS_MAIN(TestDerivationSheet)
#include "tst_DerivationSheet.moc"
