#include "export/GifPalette.h"

#include <algorithm>
#include <cstdint>

namespace clab {

namespace {

constexpr int kCells = 1 << 15;

int cellOf(int r, int g, int b)
{
    return ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
}

int channel(int cell, int c)
{
    return (cell >> (10 - 5 * c)) & 31;
}

// The cells of one box of colour space and what they hold.
struct Box {
    std::vector<int> cells;
    long long pixels = 0;
    // The channel (0 red, 1 green, 2 blue) with the widest spread and that spread.
    int axis = 0;
    int spread = 0;
};

void measure(Box& box)
{
    int lo[3] = {31, 31, 31};
    int hi[3] = {0, 0, 0};
    for (const int cell : box.cells)
        for (int c = 0; c < 3; ++c) {
            lo[c] = std::min(lo[c], channel(cell, c));
            hi[c] = std::max(hi[c], channel(cell, c));
        }
    box.spread = -1;
    for (int c = 0; c < 3; ++c)
        if (hi[c] - lo[c] > box.spread) {
            box.spread = hi[c] - lo[c];
            box.axis = c;
        }
}

// Splits `box` at the pixel-weighted median of its widest channel; the upper half is returned.
Box split(Box& box, const std::vector<long long>& counts)
{
    const int axis = box.axis;
    std::sort(box.cells.begin(), box.cells.end(),
              [axis](int a, int b) { return channel(a, axis) < channel(b, axis); });
    long long below = 0;
    std::size_t cut = 1;
    for (; cut < box.cells.size(); ++cut) {
        below += counts[static_cast<std::size_t>(box.cells[cut - 1])];
        if (2 * below >= box.pixels)
            break;
    }
    cut = std::min(cut, box.cells.size() - 1);
    Box upper;
    upper.cells.assign(box.cells.begin() + static_cast<std::ptrdiff_t>(cut), box.cells.end());
    box.cells.resize(cut);
    for (Box* b : {&box, &upper}) {
        b->pixels = 0;
        for (const int cell : b->cells)
            b->pixels += counts[static_cast<std::size_t>(cell)];
        measure(*b);
    }
    return upper;
}

} // namespace

GifPalette::GifPalette(const QImage& image) : cache_(kCells, -1)
{
    const QImage rgb = image.convertToFormat(QImage::Format_RGB888);
    std::vector<long long> counts(kCells, 0);
    std::vector<long long> sums(3 * kCells, 0); // exact 8-bit sums, for the boxes' means
    for (int y = 0; y < rgb.height(); ++y) {
        const uchar* p = rgb.constScanLine(y);
        for (int x = 0; x < rgb.width(); ++x, p += 3) {
            const auto cell = static_cast<std::size_t>(cellOf(p[0], p[1], p[2]));
            ++counts[cell];
            for (std::size_t c = 0; c < 3; ++c)
                sums[3 * cell + c] += p[c];
        }
    }
    Box all;
    for (int cell = 0; cell < kCells; ++cell)
        if (counts[static_cast<std::size_t>(cell)] > 0) {
            all.cells.push_back(cell);
            all.pixels += counts[static_cast<std::size_t>(cell)];
        }
    if (all.cells.empty())
        all.cells.push_back(0); // an empty image: one black entry
    measure(all);
    std::vector<Box> boxes{all};
    while (boxes.size() < kSize) {
        // The box with the widest spread goes next; boxes of one cell cannot be split.
        auto widest = std::max_element(boxes.begin(), boxes.end(), [](const Box& a, const Box& b) {
            return a.spread < b.spread;
        });
        if (widest->cells.size() < 2)
            break;
        Box upper = split(*widest, counts);
        boxes.push_back(std::move(upper));
    }
    for (const Box& box : boxes) {
        long long total[3] = {0, 0, 0};
        for (const int cell : box.cells)
            for (std::size_t c = 0; c < 3; ++c)
                total[c] += sums[3 * static_cast<std::size_t>(cell) + c];
        const long long n = std::max<long long>(box.pixels, 1);
        const auto mean = [&](int c) {
            return static_cast<std::uint32_t>((total[c] + n / 2) / n);
        };
        colours_[static_cast<std::size_t>(used_++)] =
            0xFF000000u | (mean(0) << 16) | (mean(1) << 8) | mean(2);
    }
    for (int i = used_; i < kSize; ++i)
        colours_[static_cast<std::size_t>(i)] = 0xFF000000u;
}

std::uint8_t GifPalette::index(int r, int g, int b)
{
    std::int16_t& cached = cache_[static_cast<std::size_t>(cellOf(r, g, b))];
    if (cached >= 0)
        return static_cast<std::uint8_t>(cached);
    // Nearest to the cell's centre, so the result does not depend on which colour came first.
    const int cr = (r & ~7) + 4, cg = (g & ~7) + 4, cb = (b & ~7) + 4;
    int best = 0;
    int bestDistance = 1 << 30;
    for (int i = 0; i < used_; ++i) {
        const std::uint32_t c = colours_[static_cast<std::size_t>(i)];
        const int dr = static_cast<int>((c >> 16) & 0xFF) - cr;
        const int dg = static_cast<int>((c >> 8) & 0xFF) - cg;
        const int db = static_cast<int>(c & 0xFF) - cb;
        const int d = dr * dr + dg * dg + db * db;
        if (d < bestDistance) {
            bestDistance = d;
            best = i;
        }
    }
    cached = static_cast<std::int16_t>(best);
    return static_cast<std::uint8_t>(best);
}

void GifPalette::map(const QImage& image, std::uint8_t* out, int stride)
{
    const QImage rgb = image.convertToFormat(QImage::Format_RGB888);
    for (int y = 0; y < rgb.height(); ++y) {
        const uchar* p = rgb.constScanLine(y);
        std::uint8_t* row = out + static_cast<std::ptrdiff_t>(y) * stride;
        for (int x = 0; x < rgb.width(); ++x, p += 3)
            row[x] = index(p[0], p[1], p[2]);
    }
}

} // namespace clab
