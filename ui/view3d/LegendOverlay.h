#pragma once

#include "view3d/geometry/SceneGeometry.h"

#include <vtkSmartPointer.h>

#include <QString>

#include <algorithm>
#include <utility>
#include <vector>

class vtkActor2D;
class vtkCellArray;
class vtkPoints;
class vtkPolyData;
class vtkRenderer;
class vtkTextActor;
class vtkUnsignedCharArray;

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
    /// The text's height in pixels at the last layout: the one asked for, unless a word wider
    /// than the view set it smaller.
    int fontPixels() const { return fontPixels_; }
    /// Distance in pixels between the panel and the view's edges.
    double margin() const { return margin_; }

    /// The most the legend may need while a scene is tuned: `rows` rows, the widest of `texts`.
    /// The camera frames the scene clear of this, so that it does not move when an entry
    /// comes, goes or gets longer with a parameter.
    void setReserve(const std::vector<QString>& texts, int rows);
    /// The reserve's size in pixels at the last layout, at least the panel's.
    double reservedWidth() const { return std::max(panelWidth(), reservedWidth_); }
    double reservedHeight() const { return std::max(panelHeight(), reservedHeight_); }

private:
    void applyVisibility();
    /// The entries' texts at `fontPixels`, wrapped to a view `width` pixels wide.
    struct Wrapped {
        std::vector<int> lines;        ///< per entry, its number of lines
        double textWidth = 0.0;        ///< the widest line of the entries
        double reserveTextWidth = 0.0; ///< the widest line of the reserve's texts
        int reserveLines = 1;          ///< the most lines a reserve text takes
    };
    Wrapped wrapTexts(int width, int fontPixels, double dpi);
    /// The white panel with its border, x0…x1 × y0…y1 pixels, corners rounded for font f.
    void buildPanel(double x0, double y0, double x1, double y1, double f);
    /// The symbol of `entry` from sx, centred on yc, `symbolWidth` wide, for font f.
    static void addSymbol(vtkPoints* points, vtkCellArray* polys, vtkUnsignedCharArray* colors,
                          const Entry& entry, double sx, double yc, double symbolWidth, double f);

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
    int fontPixels_ = 0;
    std::vector<QString> reserveTexts_;
    int reserveRows_ = 0;
    double reservedWidth_ = 0.0;
    double reservedHeight_ = 0.0;
};

} // namespace clab
