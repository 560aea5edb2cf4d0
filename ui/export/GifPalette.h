#pragma once

#include <QImage>

#include <array>
#include <cstdint>
#include <vector>

namespace clab {

/// \brief The 256 colours of an animated GIF, chosen by median cut from its first frame, and
/// the mapping of any colour to its nearest palette entry.
///
/// A rendered scene has a few hundred shades (background, bodies, their lighting): median cut
/// keeps them close where a fixed 3-3-2 palette would band visibly. Colours are counted at 5 bits
/// per channel; a colour's entry is looked up once per 5-bit cell and then cached.
class GifPalette {
public:
    static constexpr int kSize = 256;

    /// The palette of `image` (any format; alpha is ignored).
    explicit GifPalette(const QImage& image);

    /// Entries as 0xAARRGGBB (opaque), kSize of them; unused ones are black.
    const std::array<std::uint32_t, kSize>& colours() const { return colours_; }
    /// Number of entries in use (fewer than kSize for an image of few colours).
    int used() const { return used_; }
    /// The entry nearest to the colour (r, g, b).
    std::uint8_t index(int r, int g, int b);
    /// Writes the entries of `image`'s pixels into `out`, `stride` bytes per row.
    void map(const QImage& image, std::uint8_t* out, int stride);

private:
    std::array<std::uint32_t, kSize> colours_{};
    int used_ = 0;
    std::vector<std::int16_t> cache_; // per 15-bit cell: entry, or −1 before its first use
};

} // namespace clab
