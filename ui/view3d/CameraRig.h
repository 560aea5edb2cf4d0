#pragma once

#include <Eigen/Geometry>
#include <vtkSmartPointer.h>

#include <vector>

class vtkAxesActor;
class vtkRenderWindow;
class vtkRenderer;

namespace clab {

/// \brief The camera of the 3D view: framing a box from a preset direction, the projection of
/// scene points to pixels (where a later pick would start from), the clipping range both layers
/// share, and the axes triad that turns with the camera in the lower-left corner.
class CameraRig {
public:
    /// A part of the view the scene may be framed in, as fractions of its width and height,
    /// anchored at the lower left (the legend and the title take the rest).
    struct Region {
        double width;
        double height;
    };

    /// Steers the active camera of `scene`, which must outlive the rig.
    explicit CameraRig(vtkRenderer* scene);
    ~CameraRig();
    CameraRig(const CameraRig&) = delete;
    CameraRig& operator=(const CameraRig&) = delete;

    /// Adds the triad's renderer (the top layer) to a window.
    void attachTo(vtkRenderWindow* window);

    /// Points the camera along −`direction` at `box` so that the box fills the one of `regions`
    /// that shows it largest, in a view of aspect width/height; `up` is the view's up.
    void frame(const Eigen::AlignedBox3d& box, const Eigen::Vector3d& direction,
               const Eigen::Vector3d& up, double aspect, const std::vector<Region>& regions);
    /// Where a scene point is in the view, in display pixels.
    Eigen::Vector2d toDisplay(const Eigen::Vector3d& point) const;
    /// The camera's up direction in the scene.
    Eigen::Vector3d viewUp() const;
    /// Fits the clipping range to the visible props of the scene and of `overlay`, which shares
    /// the scene's camera.
    void fitClippingRange(vtkRenderer* overlay);
    /// Sizes the triad for a view of width × height pixels, its labels `fontPoints` high, and
    /// turns it like the scene.
    void updateTriad(int width, int height, int fontPoints);
    /// The side in pixels of the triad's square in the lower-left corner of such a view.
    static double triadSide(int width, int height);

private:
    vtkRenderer* scene_;
    vtkSmartPointer<vtkRenderer> triadRenderer_;
    vtkSmartPointer<vtkAxesActor> triad_;
};

} // namespace clab
