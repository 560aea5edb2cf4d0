#pragma once

#include "SceneGeometry.h"

#include <vtkSmartPointer.h>

#include <vector>

class vtkActor2D;
class vtkPolyData;
class vtkRenderer;
class vtkTextActor;

namespace clab {

/// \brief The legend of the 3D view: a translucent panel in the top-right corner with one row
/// per arrow or curve (coloured symbol and name), laid out in pixels so that it stays legible
/// at every window size.
class LegendOverlay {
public:
    using Entry = SceneGeometry::LegendEntry;

    LegendOverlay();
    ~LegendOverlay();

    void addTo(vtkRenderer* renderer);
    void setEntries(const std::vector<Entry>& entries);
    const std::vector<Entry>& entries() const { return entries_; }
    void setVisible(bool visible);
    bool isVisible() const { return visible_; }

    /// Places the panel in the top-right corner of a viewport of width × height pixels, `top`
    /// pixels below the usual margin, with text of `fontPixels`; `dpi` is the render window's,
    /// so that font sizes come out in pixels.
    void layout(int width, int height, int fontPixels, double dpi, int top = 0);
    /// Size in pixels of the panel at the last layout (0 when there are no entries).
    double panelWidth() const { return entries_.empty() ? 0.0 : panelWidth_; }
    double panelHeight() const { return entries_.empty() ? 0.0 : panelHeight_; }
    /// Distance in pixels between the panel and the view's edges.
    double margin() const { return margin_; }

private:
    void applyVisibility();

    std::vector<Entry> entries_;
    std::vector<vtkSmartPointer<vtkTextActor>> texts_;
    vtkSmartPointer<vtkPolyData> panel_;
    vtkSmartPointer<vtkPolyData> border_;
    vtkSmartPointer<vtkPolyData> symbols_;
    vtkSmartPointer<vtkActor2D> panelActor_;
    vtkSmartPointer<vtkActor2D> borderActor_;
    vtkSmartPointer<vtkActor2D> symbolActor_;
    vtkRenderer* renderer_ = nullptr;
    bool visible_ = true;
    int lastLayout_[5] = {-1, -1, -1, -1, -1};
    double panelWidth_ = 0.0;
    double panelHeight_ = 0.0;
    double margin_ = 0.0;
};

} // namespace clab
