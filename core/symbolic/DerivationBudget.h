#pragma once

#include <ginac/ginac.h>

#include <stdexcept>
#include <string>

namespace clab {

/// \brief The limits that keep a format-2 file from making the derivation run for minutes or
/// take gigabytes (docs/FORMATS.md "Derivation budget").
///
/// GiNaC does what it is asked, whatever it costs: 9^9^9 is an integer of 370 million digits,
/// expanding (x+1)^100000 makes 100 001 terms with coefficients of 30 000 digits, and the second
/// derivative of a product of k factors has k³ of them. The parser and SymbolicModel ask this
/// class first: numbers are checked as doubles, expansions and simplifications are done only
/// when their size is small, and an expression whose derivatives would be too large is refused
/// before they are taken. Every test is structural (sizes counted on the expression tree), so
/// that the same file is refused or accepted on every machine.
class DerivationBudget {
public:
    /// More terms than this in an expansion: the expression is left as written.
    static constexpr double kExpandTerms = 5000;
    /// A sum to a higher power is not expanded: the coefficients of (a + b)^n grow to about
    /// n·log10(a + b) digits, and computing 5000 of them for (x+589)^5000 took seconds.
    static constexpr double kExpandExponent = 64;
    /// An expansion that makes a product of more factors than this (and than `e` had) is not
    /// kept: the expression stays as written.
    static constexpr double kWidestProduct = 32;
    /// Second derivatives of more nodes than this (counted as a tree): too large to derive.
    static constexpr double kDerivativeNodes = 4e6;

    /// Thrown by the checks that have no key (isZero); SymbolicModel adds the key.
    class TooLarge : public std::runtime_error {
    public:
        using std::runtime_error::runtime_error;
    };

    /// "" when `value`, a number, lies in the range of doubles (zero, or a magnitude between
    /// about 2.2e-308 and 1.8e308) and is real; else why not, in words.
    static std::string outOfRange(const GiNaC::numeric& value);
    /// `e` expanded when the expansion has at most kExpandTerms terms, no power of a sum above
    /// kExpandExponent and no product wider than kWidestProduct, else `e` as it is.
    static GiNaC::ex expand(const GiNaC::ex& e);
    /// Whether `e` is zero, simplified (normal()) only when that is small enough.
    /// Throws TooLarge when it is not.
    static bool isZero(const GiNaC::ex& e);
    /// Throws TooLarge when `e`'s second derivatives would be too large to take.
    static void checkDerivable(const GiNaC::ex& e);
    /// At most `limit` characters of `text`: a long one shortened to its start, an ellipsis and
    /// its length ("123456789…(100000 characters)").
    static std::string shortened(const std::string& text, std::size_t limit = 40);

    /// The number of terms of `e` expanded (an upper bound; saturates, never overflows).
    static double expandedTerms(const GiNaC::ex& e);
};

} // namespace clab
