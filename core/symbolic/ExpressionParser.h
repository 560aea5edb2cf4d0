#pragma once

#include <ginac/ginac.h>

#include <map>
#include <string>
#include <vector>

namespace clab {

/// \brief Parses an expression in ordinary notation into a GiNaC expression over known symbols.
///
/// Grammar: sums and differences of products and quotients of powers (`^` or `**`, right
/// associative, binding tighter than a unary minus: -x^2 = -(x^2)); numbers such as 2, 0.5,
/// .5, 1e-3; symbols from the table; the constant pi; and the functions sin cos tan asin acos
/// atan atan2(y, x) sinh cosh tanh exp log sqrt abs sign. Our own parser rather than
/// GiNaC's, whose messages say "line 0, column 0": every error here is a SystemError at the
/// 1-based column of the offending character, with the closest known names for a typo.
class ExpressionParser {
public:
    using SymbolTable = std::map<std::string, GiNaC::ex>;

    /// `key` names the expression in errors (e.g. "system.potential_energy").
    static GiNaC::ex parse(const std::string& text, const SymbolTable& symbols,
                           const std::string& key);

    /// Up to three known names closest to `name` (edit distance), best first, for messages.
    static std::string suggestions(const std::string& name, const SymbolTable& symbols);
};

/// Sign of a real number (−1, 0, 1), with derivative zero; `sign` in expressions.
DECLARE_FUNCTION_1P(clab_sign)

} // namespace clab
