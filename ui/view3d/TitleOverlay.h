#pragma once

#include <QString>
#include <vtkSmartPointer.h>

class vtkRenderer;
class vtkTextActor;
class vtkViewport;

namespace clab {

class TextPlacer;

/// \brief The view's own text: the scene's title and the clock in the top-left corner, the
/// scene's annotation (a reading such as "30°") in the lower right; laid out in pixels for the
/// view's size.
class TitleOverlay {
public:
    TitleOverlay();
    ~TitleOverlay();
    TitleOverlay(const TitleOverlay&) = delete;
    TitleOverlay& operator=(const TitleOverlay&) = delete;

    void addTo(vtkRenderer* renderer);
    void setTitle(const QString& title);
    /// The clock ("t = 1.250 s") and the annotation; both hidden by hideReadings.
    void showReadings(double time, const QString& annotation);
    void hideReadings();
    void setTitleVisible(bool visible);
    /// Places the text in a view of width × height pixels, the clock `fontPixels` high; the
    /// annotation stays right of `annotationLeft` pixels (the axes triad), smaller if it must.
    void layout(int width, int height, int fontPixels, double dpi, double annotationLeft = 0.0);
    /// How far from the view's left edge the title reaches with text `fontPixels` high, its
    /// margins included (pixels).
    double titleRight(int fontPixels, double dpi) const;
    /// The title, the clock and the annotation as shown, for other text to keep clear of.
    void addFixedTexts(vtkViewport* viewport, TextPlacer& placer) const;

private:
    /// The actor's font at `points`, or smaller where its text is wider than `room` pixels.
    static void setFittedSize(vtkTextActor* actor, int points, double room, double dpi);
    QString titleText_;
    vtkSmartPointer<vtkTextActor> title_;
    vtkSmartPointer<vtkTextActor> clock_;
    vtkSmartPointer<vtkTextActor> annotation_;
};

} // namespace clab
