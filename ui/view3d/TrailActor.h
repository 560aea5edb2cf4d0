#pragma once

#include <Eigen/Dense>
#include <QColor>

#include <vtkSmartPointer.h>

#include <cstddef>
#include <vector>

class vtkActor;
class vtkCellArray;
class vtkPoints;
class vtkPolyData;
class vtkUnsignedCharArray;

namespace clab {

/// \brief A trajectory drawn as a thick polyline up to a moving head, older parts faded.
///
/// The whole path is uploaded once (setPath); moving the head only rebuilds the index list and
/// the colours, which is linear in the number of points (10 000 points take microseconds).
class TrailActor {
public:
    TrailActor();

    vtkActor* actor() const;

    void setPath(const std::vector<Eigen::Vector3d>& points);
    std::size_t pointCount() const { return path_.size(); }
    const std::vector<Eigen::Vector3d>& path() const { return path_; }
    /// Draws points [0, count); fewer than two points draw nothing.
    void setHead(std::size_t count);
    std::size_t head() const { return head_; }

    /// Colour at the head; `fadeTo` is what the oldest point blends into (the background),
    /// `tailStrength` in [0, 1] how much of the colour the oldest point keeps.
    void setColors(const QColor& color, const QColor& fadeTo, double tailStrength);
    void setLineWidth(double width);

    /// Axis-aligned bounds of the whole path (empty box when there is no path).
    Eigen::AlignedBox3d bounds() const;

private:
    void rebuild();

    std::vector<Eigen::Vector3d> path_;
    std::size_t head_ = 0;
    QColor color_ = QColor(60, 60, 60);
    QColor fadeTo_ = QColor(255, 255, 255);
    double tailStrength_ = 1.0;
    vtkSmartPointer<vtkPoints> points_;
    vtkSmartPointer<vtkCellArray> lines_;
    vtkSmartPointer<vtkUnsignedCharArray> colors_;
    vtkSmartPointer<vtkPolyData> polyData_;
    vtkSmartPointer<vtkActor> actor_;
};

} // namespace clab
