#pragma once

#include <Eigen/Geometry>

#include <optional>
#include <vector>

class vtkTextActor;
class vtkViewport;

namespace clab {

/// \brief Places the 2D texts of the 3D view one after the other so that no two overlap and
/// none leaves the view: each text goes near its anchor, clear of the texts placed before and,
/// where there is room, of what it must not hide (bodies, arrows).
///
/// One placer per frame, shared by every layer that draws text (SceneViewContent::layoutText),
/// so that a ghost's caption knows where the arrows' labels went.
class TextPlacer {
public:
    using Box = Eigen::AlignedBox2d;

    /// The box a text actor covers in `viewport` (display pixels), its justification included.
    static Box boxOf(vtkTextActor* text, vtkViewport* viewport);

    /// Where a text went: its lower-left corner (pixels), and whether that is beside its anchor
    /// (its preferred place or the first ring around it) or further off.
    struct Place {
        Eigen::Vector2d corner;
        bool beside = true;
    };

    /// A view of width × height pixels.
    TextPlacer(double width, double height);

    /// A text at a fixed place (the title, the legend's panel): no other text may cover it.
    void addFixedText(const Box& box);
    /// What text keeps clear of while it can: a box (a body), or a segment `halfWidth` pixels
    /// thick (an arrow on screen).
    void addObstacle(const Box& box);
    void addObstacle(const Eigen::Vector2d& a, const Eigen::Vector2d& b, double halfWidth);

    /// The place of a text of `size` anchored at `anchor`: `preferred` (a lower-left corner)
    /// when it is clear; else the nearest clear place on rings around the anchor from `first`
    /// pixels out; else the nearest place clear of the other texts only. Nothing when the
    /// view has no room (the text is then not drawn). The text's box is taken.
    std::optional<Place> place(const Eigen::Vector2d& anchor, const Eigen::Vector2d& size,
                               const std::optional<Eigen::Vector2d>& preferred, double first);

    /// The texts placed or fixed so far.
    const std::vector<Box>& texts() const { return texts_; }

private:
    struct Segment {
        Eigen::Vector2d a, b;
        double halfWidth;
    };
    bool inView(const Box& box) const;
    bool clearOfTexts(const Box& box) const;
    bool clearOfObstacles(const Box& box) const;
    std::optional<Eigen::Vector2d> nearestClearOfTexts(const Eigen::Vector2d& anchor,
                                                       const Eigen::Vector2d& size) const;

    double width_;
    double height_;
    std::vector<Box> texts_;
    std::vector<Box> boxes_;
    std::vector<Segment> segments_;
};

} // namespace clab
