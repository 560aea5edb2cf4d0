// SparseDerivative: a symbol an expression does not contain gives a structural zero without a
// derivative taken; what it computes is GiNaC's own derivative; and its work follows the terms,
// so that a gradient of a sum costs the sum's size, not its size times the number of symbols.
#include "symbolic/SparseDerivative.h"

#include <QtTest>

using namespace clab;

class TestSparseDerivative : public QObject {
    Q_OBJECT

private slots:
    void symbolsAnExpressionDoesNotContainAreStructuralZeros();
    void eachDerivativeIsGiNaCsDerivative_data();
    void eachDerivativeIsGiNaCsDerivative();
    void aGradientOfASumCostsOneDerivativePerSymbolOfEachTerm();
    void aConstantFactorOfASumIsKeptOutOfTheWork();
};

namespace {

struct Symbols {
    GiNaC::realsymbol t{"t"}, x{"x"}, y{"y"}, z{"z"}, w{"w"}, k{"k"};
    std::vector<GiNaC::ex> all() const { return {t, x, y, z, w, k}; }
};

bool same(const GiNaC::ex& a, const GiNaC::ex& b)
{
    return (a - b).expand().normal().is_zero();
}

} // namespace

void TestSparseDerivative::symbolsAnExpressionDoesNotContainAreStructuralZeros()
{
    const Symbols s;
    SparseDerivative sparse(s.all());
    const GiNaC::ex e = s.k * s.x * s.y + GiNaC::sin(s.z);
    QCOMPARE(sparse.symbolsOf(e), (std::vector<int>{1, 2, 3, 5}));
    QVERIFY(sparse.containsAny(e, 1, 4));
    QVERIFY(!sparse.containsAny(e, 4, 1)); // w
    QVERIFY(!sparse.containsAny(e, 0, 1)); // t
    // Block x, y, z, w: w is absent, so only three derivatives are taken.
    const SparseDerivative::Gradient g = sparse.gradient(e, 1, 4);
    QCOMPARE(g.size(), std::size_t(3));
    QCOMPARE(g[0].first, 0);
    QCOMPARE(g[1].first, 1);
    QCOMPARE(g[2].first, 2);
    QCOMPARE(sparse.derivativeCount(), std::size_t(3));
    QVERIFY(sparse.diff(e, 4).is_zero());
    QVERIFY(sparse.diff(e, 0).is_zero());
    QCOMPARE(sparse.derivativeCount(), std::size_t(3));
    // Terms whose derivatives cancel are no entry either: ∂(sin²x + cos²x + z)/∂x = 0.
    QVERIFY(
        sparse.gradient(GiNaC::pow(GiNaC::sin(s.x), 2) + GiNaC::pow(GiNaC::cos(s.x), 2) + s.z, 1, 1)
            .empty());
}

void TestSparseDerivative::eachDerivativeIsGiNaCsDerivative_data()
{
    QTest::addColumn<int>("which");
    QTest::newRow("sum of products") << 0;
    QTest::newRow("factor times a sum") << 1;
    QTest::newRow("functions and powers") << 2;
    QTest::newRow("nested sums") << 3;
    QTest::newRow("one symbol everywhere") << 4;
}

void TestSparseDerivative::eachDerivativeIsGiNaCsDerivative()
{
    QFETCH(int, which);
    const Symbols s;
    const GiNaC::ex cases[] = {
        s.k * (s.x * s.x + s.y * s.y) / 2 + s.k * (s.z * s.z + s.w * s.w) / 2 + s.x * s.w,
        3 * s.k * (s.x * s.y + GiNaC::pow(s.z, 3) - s.t * s.x),
        GiNaC::sin(s.x * s.y) + GiNaC::exp(s.z) * GiNaC::sqrt(s.w + 1) + GiNaC::pow(s.x, s.y),
        s.k * (s.x + s.t * (s.y + s.z * (s.w + s.x))) + GiNaC::cos(s.t),
        GiNaC::pow(s.x + 1, 3) * s.x - GiNaC::log(s.x * s.k)};
    const GiNaC::ex e = cases[which];
    SparseDerivative sparse(s.all());
    const std::vector<GiNaC::ex> symbols = s.all();
    const SparseDerivative::Gradient g = sparse.gradient(e, 0, 6);
    std::vector<GiNaC::ex> dense(6, GiNaC::ex(0));
    for (const auto& [i, d] : g)
        dense[static_cast<std::size_t>(i)] = d;
    for (std::size_t i = 0; i < symbols.size(); ++i) {
        const GiNaC::ex expected = e.diff(GiNaC::ex_to<GiNaC::symbol>(symbols[i]));
        QVERIFY2(same(dense[i], expected), qPrintable(QString::number(i)));
        QVERIFY(same(sparse.diff(e, static_cast<int>(i)), expected));
    }
}

void TestSparseDerivative::aGradientOfASumCostsOneDerivativePerSymbolOfEachTerm()
{
    // T of a chain: N terms of two velocities each. The whole sum differentiated by each of the
    // 2N velocities would take 2N derivatives of a 2N-symbol sum; term by term it is 2N small ones.
    for (int n : {10, 40}) {
        std::vector<GiNaC::ex> v;
        GiNaC::exvector terms;
        for (int i = 0; i < 2 * n; ++i)
            v.push_back(GiNaC::realsymbol("v" + std::to_string(i)));
        for (int i = 0; i < n; ++i)
            terms.push_back(GiNaC::pow(v[2 * i], 2) + GiNaC::pow(v[2 * i + 1], 2));
        SparseDerivative sparse(v);
        const SparseDerivative::Gradient g = sparse.gradient(GiNaC::add(terms), 0, 2 * n);
        QCOMPARE(g.size(), std::size_t(2 * n));
        QCOMPARE(sparse.derivativeCount(), std::size_t(2 * n));
    }
}

void TestSparseDerivative::aConstantFactorOfASumIsKeptOutOfTheWork()
{
    // k·(x² + y² + z²) by x: one term differentiated, not the product by the product rule.
    const Symbols s;
    SparseDerivative sparse(s.all());
    const GiNaC::ex e = GiNaC::mul(s.k, GiNaC::add(GiNaC::exvector{s.x * s.x, s.y * s.y, s.z}));
    const SparseDerivative::Gradient g = sparse.gradient(e, 1, 1);
    QCOMPARE(g.size(), std::size_t(1));
    QVERIFY(same(g[0].second, 2 * s.k * s.x));
    QCOMPARE(sparse.derivativeCount(), std::size_t(1));
}

QTEST_APPLESS_MAIN(TestSparseDerivative)
#include "tst_SparseDerivative.moc"
