#include "DerivationBudget.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <sstream>
#include <string>

namespace clab {

namespace {

// Sizes are doubles that saturate here: a bound of 1e300 terms is as refused as a larger one.
constexpr double kHuge = 1e300;

double capped(double x)
{
    return std::isfinite(x) ? std::min(x, kHuge) : kHuge;
}

std::string approximately(double x)
{
    std::ostringstream s;
    s.precision(2);
    s << x;
    return s.str();
}

/// Terms of an expression expanded, and the largest expansion met on the way (the work).
/// `denominators`: count a negative integer power as expanded too, as normal() does with the
/// numerators it brings over a common denominator.
/// `width`: an upper bound of the factors of one product of the expansion; `exponent`: the
/// largest power of a sum it expands.
struct Expansion {
    double terms = 1, work = 1, width = 1, exponent = 0;
};

Expansion expansion(const GiNaC::ex& e, bool denominators)
{
    if (GiNaC::is_exactly_a<GiNaC::add>(e) || GiNaC::is_exactly_a<GiNaC::mul>(e)) {
        const bool sum = GiNaC::is_exactly_a<GiNaC::add>(e);
        Expansion out{sum ? 0.0 : 1.0, 1.0, sum ? 1.0 : 0.0};
        for (std::size_t i = 0; i < e.nops(); ++i) {
            const Expansion part = expansion(e.op(i), denominators);
            out.terms = capped(sum ? out.terms + part.terms : out.terms * part.terms);
            out.work = std::max(out.work, part.work);
            out.width = sum ? std::max(out.width, part.width) : capped(out.width + part.width);
            out.exponent = std::max(out.exponent, part.exponent);
        }
        out.work = std::max(out.work, out.terms);
        return out;
    }
    if (GiNaC::is_exactly_a<GiNaC::power>(e)) {
        const Expansion base = expansion(e.op(0), denominators);
        const GiNaC::ex& k = e.op(1);
        if (GiNaC::is_exactly_a<GiNaC::numeric>(k) &&
            GiNaC::ex_to<GiNaC::numeric>(k).is_integer()) {
            const double n = std::abs(GiNaC::ex_to<GiNaC::numeric>(k).to_double());
            const bool expands = GiNaC::ex_to<GiNaC::numeric>(k).is_positive() || denominators;
            if (expands && base.terms > 1) {
                // Monomials of a sum of m terms to the n: C(n + m − 1, m − 1).
                const double m = base.terms;
                const double terms =
                    capped(std::exp(std::lgamma(n + m) - std::lgamma(m) - std::lgamma(n + 1)));
                return {terms, std::max(base.work, terms), base.width, std::max(base.exponent, n)};
            }
            return {1, base.work, base.width, base.exponent};
        }
        // GiNaC expands a^(b1 + … + bn) into the product a^b1 ⋯ a^bn.
        const Expansion exponent = expansion(k, denominators);
        return {1, std::max(base.work, exponent.work), std::max(base.width, exponent.terms),
                std::max(base.exponent, exponent.exponent)};
    }
    return {};
}

/// Nodes of `e` counted as a tree, stopping once past `limit`.
double nodes(const GiNaC::ex& e, double limit)
{
    double count = 1;
    for (std::size_t i = 0; i < e.nops() && count <= limit; ++i)
        count += nodes(e.op(i), limit - count);
    return count;
}

bool constant(const GiNaC::ex& e)
{
    return GiNaC::is_a<GiNaC::numeric>(e) || GiNaC::is_a<GiNaC::constant>(e);
}

/// The largest number of factors of one product in `e` (at least 1).
double widestProduct(const GiNaC::ex& e)
{
    double widest = GiNaC::is_exactly_a<GiNaC::mul>(e) ? static_cast<double>(e.nops()) : 1.0;
    for (std::size_t i = 0; i < e.nops(); ++i)
        widest = std::max(widest, widestProduct(e.op(i)));
    return widest;
}

/// An upper bound of the size (nodes as a tree) of `e`'s derivative with respect to any
/// symbol: a product's derivative has one product per factor (the product rule), a function's
/// the function's derivative times its argument's (the chain rule).
double derivativeNodes(const GiNaC::ex& e)
{
    if (constant(e))
        return 0;
    if (GiNaC::is_a<GiNaC::symbol>(e))
        return 1;
    double sum = 0;
    if (GiNaC::is_exactly_a<GiNaC::add>(e)) {
        for (std::size_t i = 0; i < e.nops() && sum < kHuge; ++i)
            sum = capped(sum + derivativeNodes(e.op(i)));
        return sum;
    }
    const double size = nodes(e, DerivationBudget::kDerivativeNodes);
    for (std::size_t i = 0; i < e.nops() && sum < kHuge; ++i)
        if (const double d = derivativeNodes(e.op(i)); d > 0)
            sum = capped(sum + size + d);
    return sum;
}

} // namespace

std::string DerivationBudget::outOfRange(const GiNaC::numeric& value)
{
    if (!value.is_real())
        return "is not a real number";
    if (value.is_zero())
        return {};
    const GiNaC::numeric magnitude = GiNaC::abs(value);
    if (magnitude > GiNaC::numeric(DBL_MAX))
        return "is beyond the largest number a run can hold (about 1.8e308)";
    if (magnitude < GiNaC::numeric(DBL_MIN))
        return "is closer to zero than the smallest number a run can hold (about 2.2e-308)";
    return {};
}

double DerivationBudget::expandedTerms(const GiNaC::ex& e)
{
    const Expansion x = expansion(e, false);
    return std::max(x.terms, x.work);
}

GiNaC::ex DerivationBudget::expand(const GiNaC::ex& e)
{
    // A power of a sum expands into a product of powers, each with a coefficient of the
    // expanded exponent (2^((1+x)^800): 801 powers of 2 with 240-digit exponents), and every
    // later derivative of that product grows with its width squared: not done.
    const Expansion x = expansion(e, false);
    if (std::max(x.terms, x.work) > kExpandTerms || x.exponent > kExpandExponent ||
        (x.width > kWidestProduct && x.width > widestProduct(e)))
        return e;
    return e.expand();
}

bool DerivationBudget::isZero(const GiNaC::ex& e)
{
    if (e.is_zero())
        return true;
    const Expansion x = expansion(e, true);
    const double terms = std::max(x.terms, x.work);
    if (terms > kExpandTerms)
        throw TooLarge("too large to derive (simplifying it would expand it to about " +
                       approximately(terms) + " terms; the limit is " +
                       approximately(kExpandTerms) + ")");
    return e.normal().is_zero();
}

void DerivationBudget::checkDerivable(const GiNaC::ex& e)
{
    // The second derivative of a product of k factors has k terms of k factors for each of
    // the first derivative's k: the first derivative's size times the widest product.
    const double second = capped(derivativeNodes(e) * widestProduct(e));
    if (second > kDerivativeNodes)
        throw TooLarge("too large to derive (its second derivatives would have about " +
                       approximately(second) + " nodes; the limit is " +
                       approximately(kDerivativeNodes) + ")");
}

std::string DerivationBudget::shortened(const std::string& text, std::size_t limit)
{
    if (text.size() <= limit)
        return text;
    std::size_t cut = limit;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut; // not inside a UTF-8 sequence
    return text.substr(0, cut) + "…(" + std::to_string(text.size()) + " characters)";
}

} // namespace clab
