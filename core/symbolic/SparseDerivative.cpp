#include "SparseDerivative.h"

#include <algorithm>

namespace clab {

namespace {

// Calls visit(index) for each indexed symbol of e (repeats included); stops when it returns true.
template <typename Visit>
bool anySymbol(const GiNaC::ex& e, const GiNaC::exhashmap<int>& index, Visit visit)
{
    if (GiNaC::is_a<GiNaC::symbol>(e)) {
        const auto it = index.find(e);
        return it != index.end() && visit(it->second);
    }
    for (std::size_t i = 0; i < e.nops(); ++i)
        if (anySymbol(e.op(i), index, visit))
            return true;
    return false;
}

} // namespace

SparseDerivative::SparseDerivative(std::vector<GiNaC::ex> symbols) : symbols_(std::move(symbols))
{
    for (std::size_t i = 0; i < symbols_.size(); ++i)
        index_.emplace(symbols_[i], static_cast<int>(i));
}

int SparseDerivative::indexOf(const GiNaC::ex& e) const
{
    const auto it = index_.find(e);
    return it == index_.end() ? -1 : it->second;
}

std::vector<int> SparseDerivative::symbolsOf(const GiNaC::ex& e) const
{
    std::vector<int> out;
    anySymbol(e, index_, [&](int s) {
        out.push_back(s);
        return false;
    });
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

bool SparseDerivative::containsAny(const GiNaC::ex& e, int first, int count) const
{
    return anySymbol(e, index_, [&](int s) { return s >= first && s < first + count; });
}

GiNaC::ex SparseDerivative::diff(const GiNaC::ex& e, int symbol)
{
    if (!containsAny(e, symbol, 1))
        return 0;
    ++derivatives_;
    return e.diff(GiNaC::ex_to<GiNaC::symbol>(symbols_[static_cast<std::size_t>(symbol)]));
}

int SparseDerivative::onlyDependentFactor(const GiNaC::ex& product, int first, int count) const
{
    int found = -1;
    for (std::size_t i = 0; i < product.nops(); ++i)
        if (containsAny(product.op(i), first, count)) {
            if (found >= 0)
                return -1;
            found = static_cast<int>(i);
        }
    return found;
}

void SparseDerivative::collect(const GiNaC::ex& e, const GiNaC::ex& factor, int first, int count,
                               std::map<int, GiNaC::exvector>& parts)
{
    if (GiNaC::is_exactly_a<GiNaC::add>(e)) {
        for (std::size_t i = 0; i < e.nops(); ++i)
            collect(e.op(i), factor, first, count, parts);
        return;
    }
    if (GiNaC::is_exactly_a<GiNaC::mul>(e)) {
        // c·(a + b + …) with c free of the block: the sum's terms one by one, times c.
        const int k = onlyDependentFactor(e, first, count);
        if (k >= 0 && GiNaC::is_exactly_a<GiNaC::add>(e.op(static_cast<std::size_t>(k)))) {
            GiNaC::exvector rest;
            for (std::size_t i = 0; i < e.nops(); ++i)
                if (static_cast<int>(i) != k)
                    rest.push_back(e.op(i));
            collect(e.op(static_cast<std::size_t>(k)), factor * GiNaC::mul(rest), first, count,
                    parts);
            return;
        }
    }
    for (int s : symbolsOf(e)) {
        if (s < first || s >= first + count)
            continue;
        ++derivatives_;
        const GiNaC::ex d =
            e.diff(GiNaC::ex_to<GiNaC::symbol>(symbols_[static_cast<std::size_t>(s)]));
        if (d.is_zero())
            continue;
        parts[s - first].push_back(factor * d);
    }
}

SparseDerivative::Gradient SparseDerivative::gradient(const GiNaC::ex& e, int first, int count)
{
    std::map<int, GiNaC::exvector> parts;
    collect(e, 1, first, count, parts);
    Gradient out;
    for (auto& [s, terms] : parts) {
        const GiNaC::ex sum = terms.size() == 1 ? terms.front() : GiNaC::ex(GiNaC::add(terms));
        if (!sum.is_zero())
            out.emplace_back(s, sum);
    }
    return out;
}

} // namespace clab
