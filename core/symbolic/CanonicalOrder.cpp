#include "CanonicalOrder.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <sstream>

namespace clab {

namespace {

std::string printed(const GiNaC::ex& e)
{
    std::ostringstream text;
    text << e;
    return text.str();
}

/// Keys longer than this are replaced by a digest of their text. A key spells out its whole
/// subtree, so without a bound a shared subexpression is copied into every key above it: the
/// fuzzer's 2^(x+1)^800*x as a mass made keys of gigabytes.
constexpr std::size_t kLongestKey = 512;

/// 128 bits of two FNV-1a hashes: the same on every machine and run (unlike GiNaC's hashes),
/// and with 2^-64 odds that two different subtrees of one expression collide.
std::string digest(const std::string& text)
{
    std::uint64_t a = 14695981039346656037ull, b = 0x6c62272e07bb0142ull;
    for (const unsigned char c : text) {
        a = (a ^ c) * 1099511628211ull;
        b = (b ^ c) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
    }
    char out[40];
    std::snprintf(out, sizeof out, "#%016llx%016llx", static_cast<unsigned long long>(a),
                  static_cast<unsigned long long>(b));
    return out;
}

std::string bounded(std::string key)
{
    return key.size() > kLongestKey ? digest(key) : key;
}

std::string joined(const char* open, std::vector<std::string> parts, bool sort = true)
{
    if (sort)
        std::sort(parts.begin(), parts.end());
    std::string out = open;
    for (const std::string& part : parts)
        out += part + ",";
    return bounded(out + ")");
}

} // namespace

CanonicalOrder::Signed CanonicalOrder::canonical(const GiNaC::ex& e)
{
    if (const auto it = memo_.find(e); it != memo_.end())
        return it->second;
    Signed c;
    if (GiNaC::is_exactly_a<GiNaC::add>(e)) {
        std::vector<std::string> plus, minus;
        for (std::size_t i = 0; i < e.nops(); ++i) {
            const Signed term = canonical(e.op(i));
            plus.push_back((term.sign < 0 ? "-" : "+") + term.key);
            minus.push_back((term.sign < 0 ? "+" : "-") + term.key);
        }
        const std::string asIs = joined("+(", plus), negated = joined("+(", minus);
        c = negated < asIs ? Signed{-1, negated} : Signed{1, asIs};
    } else if (GiNaC::is_exactly_a<GiNaC::mul>(e)) {
        std::vector<std::string> keys;
        for (std::size_t i = 0; i < e.nops(); ++i) {
            const Signed factor = canonical(e.op(i));
            c.sign *= factor.sign;
            // −x is −1 times x: the same key as x, or x and −x would not pair up.
            if (!(GiNaC::is_exactly_a<GiNaC::numeric>(e.op(i)) && factor.key == "1"))
                keys.push_back(factor.key);
        }
        c.key = keys.size() == 1 ? keys.front() : joined("*(", keys);
    } else if (GiNaC::is_exactly_a<GiNaC::numeric>(e)) {
        const GiNaC::numeric& v = GiNaC::ex_to<GiNaC::numeric>(e);
        c.sign = v.is_real() && v.is_negative() ? -1 : 1;
        c.key = bounded(printed(c.sign < 0 ? GiNaC::ex(-v) : e));
    } else if (GiNaC::is_exactly_a<GiNaC::power>(e)) {
        const Signed base = canonical(e.op(0));
        const GiNaC::ex& k = e.op(1);
        const bool integer =
            GiNaC::is_exactly_a<GiNaC::numeric>(k) && GiNaC::ex_to<GiNaC::numeric>(k).is_integer();
        // (−b)^k = ±b^k for whole k; otherwise the base keeps its sign inside.
        c.sign = integer && GiNaC::ex_to<GiNaC::numeric>(k).is_odd() ? base.sign : 1;
        // Base first, exponent second, unsorted: x^2 and 2^x are different keys.
        c.key = joined("^(", {integer ? base.key : base.text(), canonical(k).text()}, false);
    } else if (GiNaC::is_exactly_a<GiNaC::function>(e)) {
        std::vector<std::string> arguments;
        for (std::size_t i = 0; i < e.nops(); ++i)
            arguments.push_back(canonical(e.op(i)).text());
        c.key =
            bounded(GiNaC::ex_to<GiNaC::function>(e).get_name() + joined("(", arguments, false));
    } else {
        c.key = bounded(printed(e)); // a symbol or a constant
    }
    return memo_.emplace(e, std::move(c)).first->second;
}

std::vector<GiNaC::ex> CanonicalOrder::ordered(const GiNaC::ex& e)
{
    const bool sum = GiNaC::is_exactly_a<GiNaC::add>(e);
    std::vector<std::pair<std::string, std::size_t>> keyed;
    for (std::size_t i = 0; i < e.nops(); ++i) {
        const Signed c = canonical(e.op(i));
        keyed.emplace_back(sum ? c.text() : c.key, i);
    }
    std::sort(keyed.begin(), keyed.end());
    std::vector<GiNaC::ex> out;
    for (const auto& entry : keyed)
        out.push_back(e.op(entry.second));
    return out;
}

} // namespace clab
