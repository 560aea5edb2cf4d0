#pragma once

#include <string>

namespace clab {

/// \brief How a name of the notation (a coordinate, a velocity, a parameter) reads: trailing
/// digits and the part after the first '_' are subscripts, Greek names are letters and
/// NAME_dot is a dotted NAME. "theta1_dot" is \dot{\theta_{1}} in LaTeX and "θ̇₁" in Unicode;
/// "mu_s" is "μₛ".
///
/// Free of GiNaC, so that the ui can name a parameter by its symbol (a compare run's "μ = 0.3").
struct SymbolNames {
    static std::string latex(const std::string& name);
    static std::string unicode(const std::string& name);
};

} // namespace clab
