#pragma once

#include <ginac/ginac.h>

#include <string>
#include <vector>

namespace clab {

/// \brief An order of the operands of sums and products that is the same in every process.
///
/// GiNaC orders the operands of sums and products by hashes that change from run to run
/// (address-space randomization, and each new symbol), and with that order it also picks the
/// sign it factors out of a sum: (x1 − x2)² in one run, (x2 − x1)² in the next. Evaluating or
/// printing in GiNaC's order would change the last bits of every result, and the text of every
/// derivation, from one run to the next. This class names each expression as a sign times a
/// form with a text that does not depend on that order, and orders operands by those texts.
class CanonicalOrder {
public:
    /// `e` = sign × (the form named by key); a sum and its negative share the key.
    struct Signed {
        int sign = 1;
        std::string key;
        std::string text() const { return (sign < 0 ? "-" : "") + key; }
    };

    Signed canonical(const GiNaC::ex& e);
    /// The operands of a sum (by their signed texts) or of a product (by their keys).
    std::vector<GiNaC::ex> ordered(const GiNaC::ex& e);

private:
    GiNaC::exhashmap<Signed> memo_;
};

} // namespace clab
