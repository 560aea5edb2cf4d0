#pragma once

#include <string>
#include <vector>

namespace clab {

/// \brief What a plot shows: quantities (TraceSeries names) against one quantity, usually time.
struct PlotSpec {
    std::string id;    ///< stable identifier of a ready-made plot ("energy", ...); empty for custom
    std::string title; ///< e.g. "Energy audit"
    std::string x = "t";
    std::vector<std::string> y;
    bool logY = false; ///< log10 y axis (absolute values are plotted; zeros are clipped)

    friend bool operator==(const PlotSpec&, const PlotSpec&) = default;
};

} // namespace clab
