#include "DerivationSheet.h"

namespace clab {

std::string DerivationSheet::text() const
{
    std::string out;
    for (const Block& b : blocks_)
        out += b.text;
    return out;
}

std::string DerivationSheet::latex() const
{
    std::string out;
    for (const Block& b : blocks_)
        out += b.latex;
    return out;
}

} // namespace clab
