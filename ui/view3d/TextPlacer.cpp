#include "view3d/TextPlacer.h"

#include <vtkCoordinate.h>
#include <vtkTextActor.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace clab {

namespace {

/// True when the segment a–b crosses `box` (Liang–Barsky clipping).
bool segmentCrosses(const Eigen::Vector2d& a, const Eigen::Vector2d& b,
                    const Eigen::AlignedBox2d& box)
{
    double t0 = 0.0;
    double t1 = 1.0;
    const Eigen::Vector2d d = b - a;
    for (int axis = 0; axis < 2; ++axis) {
        const double lo = box.min()[axis] - a[axis];
        const double hi = box.max()[axis] - a[axis];
        if (std::abs(d[axis]) < 1e-12) {
            if (lo > 0.0 || hi < 0.0)
                return false;
            continue;
        }
        double ta = lo / d[axis];
        double tb = hi / d[axis];
        if (ta > tb)
            std::swap(ta, tb);
        t0 = std::max(t0, ta);
        t1 = std::min(t1, tb);
        if (t0 > t1)
            return false;
    }
    return true;
}

/// Room kept between a placed text and the view's edge or another text (pixels): VTK rounds a
/// text's place and size to whole pixels when it draws it.
constexpr double kGap = 2.0;

/// Boxes that only touch do not overlap: text set edge to edge is legible.
bool overlaps(const Eigen::AlignedBox2d& a, const Eigen::AlignedBox2d& b)
{
    return a.min().x() < b.max().x() && b.min().x() < a.max().x() && a.min().y() < b.max().y() &&
           b.min().y() < a.max().y();
}

} // namespace

TextPlacer::Box TextPlacer::boxOf(vtkTextActor* text, vtkViewport* viewport)
{
    // The bounding box is relative to the actor's position.
    double box[4] = {0.0, 0.0, 0.0, 0.0};
    text->GetBoundingBox(viewport, box);
    const double* at = text->GetPositionCoordinate()->GetComputedDoubleDisplayValue(viewport);
    return Box(Eigen::Vector2d(at[0] + box[0], at[1] + box[2]),
               Eigen::Vector2d(at[0] + box[1], at[1] + box[3]));
}

TextPlacer::TextPlacer(double width, double height) : width_(width), height_(height)
{
}

void TextPlacer::addFixedText(const Box& box)
{
    if (!box.isEmpty())
        texts_.push_back(box);
}

void TextPlacer::addObstacle(const Box& box)
{
    if (!box.isEmpty() && box.min().allFinite() && box.max().allFinite())
        boxes_.push_back(box);
}

void TextPlacer::addObstacle(const Eigen::Vector2d& a, const Eigen::Vector2d& b, double halfWidth)
{
    if (a.allFinite() && b.allFinite())
        segments_.push_back({a, b, halfWidth});
}

bool TextPlacer::inView(const Box& box) const
{
    return box.min().x() >= kGap && box.min().y() >= kGap && box.max().x() <= width_ - kGap &&
           box.max().y() <= height_ - kGap;
}

bool TextPlacer::clearOfTexts(const Box& box) const
{
    const Box grown(box.min() - Eigen::Vector2d::Constant(kGap),
                    box.max() + Eigen::Vector2d::Constant(kGap));
    return std::none_of(texts_.begin(), texts_.end(),
                        [&](const Box& other) { return overlaps(other, grown); });
}

bool TextPlacer::clearOfObstacles(const Box& box) const
{
    const bool boxesClear = std::none_of(boxes_.begin(), boxes_.end(),
                                         [&](const Box& other) { return overlaps(other, box); });
    return boxesClear && std::none_of(segments_.begin(), segments_.end(), [&](const Segment& s) {
               const Eigen::Vector2d grow(s.halfWidth, s.halfWidth);
               return segmentCrosses(s.a, s.b, Box(box.min() - grow, box.max() + grow));
           });
}

std::optional<TextPlacer::Place> TextPlacer::place(const Eigen::Vector2d& anchor,
                                                   const Eigen::Vector2d& size,
                                                   const std::optional<Eigen::Vector2d>& preferred,
                                                   double first)
{
    if (!anchor.allFinite() || !size.allFinite() || size.x() > width_ || size.y() > height_)
        return std::nullopt;
    const auto clear = [&](const Eigen::Vector2d& corner) {
        const Box box(corner, corner + size);
        return inView(box) && clearOfTexts(box) && clearOfObstacles(box);
    };
    const auto take = [&](const Eigen::Vector2d& corner, bool beside) {
        texts_.emplace_back(corner, corner + size);
        return Place{corner, beside};
    };
    if (preferred && clear(*preferred))
        return take(*preferred, true);
    // Rings of growing distance, eight directions each, up-right first.
    const double step = size.y() + 2.0;
    const int directions[8][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1},
                                  {0, 1}, {0, -1}, {1, 0},  {-1, 0}};
    for (int r = 0; r < 8; ++r) {
        const double d = first + r * step;
        for (const auto& dir : directions) {
            // The text's near corner (or edge middle) at distance d in that direction.
            const double x = dir[0] > 0   ? anchor.x() + d
                             : dir[0] < 0 ? anchor.x() - d - size.x()
                                          : anchor.x() - 0.5 * size.x();
            const double y = dir[1] > 0   ? anchor.y() + d
                             : dir[1] < 0 ? anchor.y() - d - size.y()
                                          : anchor.y() - 0.5 * size.y();
            if (clear({x, y}))
                return take({x, y}, r == 0);
        }
    }
    // No room clear of the bodies and arrows nearby: a text must still not cover a text.
    if (const std::optional<Eigen::Vector2d> corner = nearestClearOfTexts(anchor, size))
        return take(*corner, false);
    return std::nullopt;
}

std::optional<Eigen::Vector2d> TextPlacer::nearestClearOfTexts(const Eigen::Vector2d& anchor,
                                                               const Eigen::Vector2d& size) const
{
    // A grid over the view, fine enough to find a gap the size of the text.
    const double step = std::max(4.0, 0.25 * size.y());
    std::optional<Eigen::Vector2d> best;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (double y = kGap; y + size.y() <= height_ - kGap; y += step) {
        for (double x = kGap; x + size.x() <= width_ - kGap; x += step) {
            const Box box(Eigen::Vector2d(x, y), Eigen::Vector2d(x + size.x(), y + size.y()));
            const double distance = (box.center() - anchor).squaredNorm();
            if (distance < bestDistance && clearOfTexts(box)) {
                best = box.min();
                bestDistance = distance;
            }
        }
    }
    return best;
}

} // namespace clab
