#include "view3d/TitleOverlay.h"

#include "render/ViewFonts.h"
#include "view3d/TextPlacer.h"
#include "view3d/ViewStyle.h"

#include <vtkNew.h>
#include <vtkRenderer.h>
#include <vtkStdString.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTextRenderer.h>

#include <algorithm>
#include <cmath>

namespace clab {

namespace {

// The title is a little larger than the clock.
constexpr double kTitleScale = 1.15;

} // namespace

TitleOverlay::TitleOverlay()
    : title_(vtkSmartPointer<vtkTextActor>::New()), clock_(vtkSmartPointer<vtkTextActor>::New()),
      annotation_(vtkSmartPointer<vtkTextActor>::New())
{
    for (vtkTextActor* text : {title_.Get(), clock_.Get(), annotation_.Get()}) {
        vtkTextProperty* tp = text->GetTextProperty();
        ViewFonts::apply(tp, text == annotation_.Get());
        ViewStyle::setTextColor(tp, ViewStyle::textColor());
    }
    title_->GetTextProperty()->BoldOn();
    title_->GetTextProperty()->SetVerticalJustificationToTop();
    clock_->GetTextProperty()->SetVerticalJustificationToTop();
    annotation_->GetTextProperty()->SetJustificationToRight();
    annotation_->GetTextProperty()->SetVerticalJustificationToBottom();
    annotation_->GetTextProperty()->SetBackgroundColor(1.0, 1.0, 1.0);
    annotation_->GetTextProperty()->SetBackgroundOpacity(0.75);
    annotation_->GetTextProperty()->SetFrame(false);
    annotation_->VisibilityOff();
}

TitleOverlay::~TitleOverlay() = default;

void TitleOverlay::addTo(vtkRenderer* renderer)
{
    for (vtkTextActor* text : {title_.Get(), clock_.Get(), annotation_.Get()}) {
        renderer->AddViewProp(text);
    }
}

void TitleOverlay::setTitle(const QString& title)
{
    titleText_ = title;
    title_->SetInput(title.toUtf8().constData());
}

void TitleOverlay::setTitleVisible(bool visible)
{
    title_->SetVisibility(visible ? 1 : 0);
}

void TitleOverlay::showReadings(double time, const QString& annotation)
{
    clock_->SetInput(QStringLiteral("t = %1 s").arg(time, 0, 'f', 3).toUtf8().constData());
    clock_->SetVisibility(1);
    annotation_->SetInput(annotation.toUtf8().constData());
    annotation_->SetVisibility(annotation.isEmpty() ? 0 : 1);
}

void TitleOverlay::hideReadings()
{
    clock_->SetVisibility(0);
    annotation_->SetVisibility(0);
}

void TitleOverlay::layout(int width, int height, int fontPixels, double dpi, double annotationLeft)
{
    const int margin = static_cast<int>(std::lround(0.8 * fontPixels));
    // A title wider than a narrow view (large text) is set smaller rather than cut off.
    setFittedSize(title_, ViewStyle::fontPoints(kTitleScale * fontPixels, dpi),
                  width - 2.0 * margin, dpi);
    title_->SetDisplayPosition(margin, height - margin);
    clock_->GetTextProperty()->SetFontSize(ViewStyle::fontPoints(fontPixels, dpi));
    clock_->SetDisplayPosition(margin,
                               height - margin - static_cast<int>(std::lround(1.7 * fontPixels)));
    // A long annotation (the rigid body's quaternion forces) on a narrow view: smaller, clear
    // of the triad.
    setFittedSize(annotation_, ViewStyle::fontPoints(0.8 * fontPixels, dpi),
                  width - margin - annotationLeft - margin, dpi);
    annotation_->SetDisplayPosition(width - margin, margin);
}

void TitleOverlay::setFittedSize(vtkTextActor* actor, int points, double room, double dpi)
{
    vtkTextProperty* font = actor->GetTextProperty();
    font->SetFontSize(points);
    int box[4] = {0, 0, 0, 0};
    vtkTextRenderer* text = vtkTextRenderer::GetInstance();
    const char* input = actor->GetInput();
    if (text != nullptr && input != nullptr && *input != '\0' && room > 0.0 &&
        text->GetBoundingBox(font, input, box, static_cast<int>(dpi)) && box[1] - box[0] > room)
        font->SetFontSize(std::max(1, static_cast<int>(points * room / (box[1] - box[0]))));
}

double TitleOverlay::titleRight(int fontPixels, double dpi) const
{
    vtkNew<vtkTextProperty> titleFont;
    titleFont->ShallowCopy(title_->GetTextProperty());
    titleFont->SetFontSize(ViewStyle::fontPoints(kTitleScale * fontPixels, dpi));
    int box[4] = {0, 0, 0, 0};
    if (vtkTextRenderer* text = vtkTextRenderer::GetInstance()) {
        text->GetBoundingBox(titleFont, titleText_.toStdString(), box, static_cast<int>(dpi));
    }
    return 0.8 * fontPixels + (box[1] - box[0]) + 0.8 * fontPixels;
}

void TitleOverlay::addFixedTexts(vtkViewport* viewport, TextPlacer& placer) const
{
    for (vtkTextActor* text : {title_.Get(), clock_.Get(), annotation_.Get()}) {
        if (text->GetVisibility() != 0) {
            placer.addFixedText(TextPlacer::boxOf(text, viewport));
        }
    }
}

} // namespace clab
