#include "SymbolNames.h"

#include <cctype>
#include <map>

namespace clab {

namespace {

/// A name read as stem, subscripts and dot: "mu_s2_dot" is mu, sub s, index 2, dotted.
struct NameParts {
    std::string stem, sub, index;
    bool dot = false;
};

NameParts split(const std::string& name)
{
    NameParts parts;
    std::string rest = name;
    if (rest.size() > 4 && rest.ends_with("_dot")) {
        parts.dot = true;
        rest.resize(rest.size() - 4);
    }
    std::size_t split = rest.size();
    while (split > 1 && std::isdigit(static_cast<unsigned char>(rest[split - 1])))
        --split;
    parts.stem = rest.substr(0, split);
    parts.index = rest.substr(split);
    if (const std::size_t u = parts.stem.find('_'); u != std::string::npos && u > 0) {
        parts.sub = parts.stem.substr(u + 1);
        parts.stem.resize(u);
    }
    return parts;
}

// The Greek names both styles know (LaTeX has a command for each), with their letters.
const std::map<std::string, std::string>& greek()
{
    static const std::map<std::string, std::string> letters{
        {"alpha", "α"},  {"beta", "β"},  {"gamma", "γ"}, {"delta", "δ"}, {"epsilon", "ε"},
        {"zeta", "ζ"},   {"eta", "η"},   {"theta", "θ"}, {"iota", "ι"},  {"kappa", "κ"},
        {"lambda", "λ"}, {"mu", "μ"},    {"nu", "ν"},    {"xi", "ξ"},    {"rho", "ρ"},
        {"sigma", "σ"},  {"tau", "τ"},   {"phi", "φ"},   {"chi", "χ"},   {"psi", "ψ"},
        {"omega", "ω"},  {"Gamma", "Γ"}, {"Delta", "Δ"}, {"Theta", "Θ"}, {"Lambda", "Λ"},
        {"Xi", "Ξ"},     {"Sigma", "Σ"}, {"Phi", "Φ"},   {"Psi", "Ψ"},   {"Omega", "Ω"}};
    return letters;
}

std::string texName(const NameParts& parts)
{
    std::string stem = parts.stem;
    if (greek().count(stem))
        stem = "\\" + stem;
    else if (stem.size() > 1)
        stem = "\\mathrm{" + stem + "}";
    const std::string subscript = parts.index.empty() ? parts.sub
                                  : parts.sub.empty() ? parts.index
                                                      : parts.sub + "," + parts.index;
    if (!subscript.empty()) {
        std::string escaped;
        for (char c : subscript)
            escaped += c == '_' ? std::string("\\_") : std::string(1, c);
        stem += "_{" + escaped + "}";
    }
    return parts.dot ? "\\dot{" + stem + "}" : stem;
}

/// `text` in subscript characters, or "" when one of them has none.
std::string subscript(const std::string& text)
{
    static const std::map<char, std::string> small{
        {'0', "₀"}, {'1', "₁"}, {'2', "₂"}, {'3', "₃"}, {'4', "₄"}, {'5', "₅"}, {'6', "₆"},
        {'7', "₇"}, {'8', "₈"}, {'9', "₉"}, {'a', "ₐ"}, {'e', "ₑ"}, {'h', "ₕ"}, {'i', "ᵢ"},
        {'j', "ⱼ"}, {'k', "ₖ"}, {'l', "ₗ"}, {'m', "ₘ"}, {'n', "ₙ"}, {'o', "ₒ"}, {'p', "ₚ"},
        {'r', "ᵣ"}, {'s', "ₛ"}, {'t', "ₜ"}, {'u', "ᵤ"}, {'v', "ᵥ"}, {'x', "ₓ"}};
    std::string out;
    for (char c : text) {
        const auto it = small.find(c);
        if (it == small.end())
            return {};
        out += it->second;
    }
    return out;
}

std::string unicodeName(const NameParts& parts)
{
    const auto letter = greek().find(parts.stem);
    if (parts.dot && letter == greek().end() && parts.stem.size() > 1) {
        // A dot over the last letter of "th" reads as th squared once an exponent follows:
        // a longer name keeps the spelling of the file.
        return parts.stem + (parts.sub.empty() ? "" : "_" + parts.sub) + parts.index + "_dot";
    }
    std::string out = letter != greek().end() ? letter->second : parts.stem;
    if (parts.dot)
        out += "\u0307"; // combining dot above, on the stem's last letter
    if (parts.sub.empty())
        return out + subscript(parts.index);
    const std::string small = subscript(parts.sub + parts.index);
    // No subscript letter for some character: the rest as written, "N_rod1".
    return out + (small.empty() ? "_" + parts.sub + parts.index : small);
}

} // namespace

std::string SymbolNames::latex(const std::string& name)
{
    return texName(split(name));
}

std::string SymbolNames::unicode(const std::string& name)
{
    return unicodeName(split(name));
}

} // namespace clab
