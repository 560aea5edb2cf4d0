#pragma once

#include <ginac/ginac.h>

#include <cstddef>
#include <map>
#include <utility>
#include <vector>

namespace clab {

/// \brief Derivatives that skip what cannot depend on a symbol: the sparsity of a derivation,
/// read from which symbols each expression contains.
///
/// A file's T, V and constraints are sums of small terms, each holding a few of the n
/// coordinates. Differentiating the whole sum by every symbol costs O(n) per symbol, O(n²) for
/// a gradient and O(n³) for M = ∂²T/∂q̇²; a term differentiated only by the symbols it holds
/// makes a gradient cost the size of the expression. A symbol an expression does not contain
/// gives a structural zero, never computed. The results are GiNaC's own diff, term by term.
///
/// A private header of core/symbolic (CLAB_CORE_PRIVATE_HEADERS).
class SparseDerivative {
public:
    /// The symbols that can be looked up, by their index in `symbols`.
    explicit SparseDerivative(std::vector<GiNaC::ex> symbols);

    using Gradient = std::vector<std::pair<int, GiNaC::ex>>;

    /// Indices of the symbols `e` contains, ascending.
    std::vector<int> symbolsOf(const GiNaC::ex& e) const;
    /// Whether `e` contains one of the symbols first … first + count − 1.
    bool containsAny(const GiNaC::ex& e, int first, int count) const;
    /// ∂e/∂s for each symbol s among first … first + count − 1 that e contains and whose
    /// derivative is not zero: pairs (s − first, ∂e/∂s), ascending.
    Gradient gradient(const GiNaC::ex& e, int first, int count);
    /// ∂e/∂s, 0 without differentiating when e does not contain s.
    GiNaC::ex diff(const GiNaC::ex& e, int symbol);

    /// Symbol-by-symbol derivatives of a term taken so far (complexity tests).
    std::size_t derivativeCount() const { return derivatives_; }

private:
    /// Adds the derivatives of factor·e to parts, splitting sums and constant factors.
    void collect(const GiNaC::ex& e, const GiNaC::ex& factor, int first, int count,
                 std::map<int, GiNaC::exvector>& parts);
    /// The factor of a product holding block symbols when it is the only one, else -1.
    int onlyDependentFactor(const GiNaC::ex& product, int first, int count) const;
    int indexOf(const GiNaC::ex& e) const;

    std::vector<GiNaC::ex> symbols_;
    GiNaC::exhashmap<int> index_;
    std::size_t derivatives_ = 0;
};

} // namespace clab
