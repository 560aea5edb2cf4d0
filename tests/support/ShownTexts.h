#pragma once
// The texts a VTK window draws, as a reader sees them (what each says, the box it covers), and
// the check that no two overlap and none leaves the view: for the tests of the 3D view's text.
#include <QRectF>
#include <QSize>
#include <QString>

#include <vtkAxesActor.h>
#include <vtkCoordinate.h>
#include <vtkProp.h>
#include <vtkPropCollection.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkRendererCollection.h>
#include <vtkTextActor.h>

#include <vector>

namespace clab::testing {

/// A text as drawn: what it says and the box it covers (display pixels).
struct ShownText {
    QString text;
    QRectF box;
};

/// Every text the window draws, read off VTK's props: each text actor's box at its position,
/// and the axes triad's corner as one box (its letters are drawn inside it).
inline std::vector<ShownText> shownTexts(vtkRenderWindow* window)
{
    std::vector<ShownText> texts;
    vtkRendererCollection* renderers = window->GetRenderers();
    renderers->InitTraversal();
    while (vtkRenderer* renderer = renderers->GetNextItem()) {
        vtkPropCollection* props = renderer->GetViewProps();
        props->InitTraversal();
        while (vtkProp* prop = props->GetNextProp()) {
            if (prop->GetVisibility() == 0)
                continue;
            if (vtkAxesActor::SafeDownCast(prop) != nullptr) {
                const int* size = renderer->GetSize();
                const int* origin = renderer->GetOrigin();
                texts.push_back(
                    {QStringLiteral("axes"), QRectF(origin[0], origin[1], size[0], size[1])});
                continue;
            }
            auto* text = vtkTextActor::SafeDownCast(prop);
            if (text == nullptr || text->GetInput() == nullptr || *text->GetInput() == '\0')
                continue;
            double b[4];
            text->GetBoundingBox(renderer, b);
            const double* at =
                text->GetPositionCoordinate()->GetComputedDoubleDisplayValue(renderer);
            texts.push_back(
                {QString::fromUtf8(text->GetInput()),
                 QRectF(QPointF(at[0] + b[0], at[1] + b[2]), QPointF(at[0] + b[1], at[1] + b[3]))});
        }
    }
    return texts;
}

inline QString describe(const ShownText& text)
{
    const QRectF& b = text.box;
    return QStringLiteral("\"%1\" (%2…%3 × %4…%5)")
        .arg(text.text.left(40))
        .arg(b.left(), 0, 'f', 1)
        .arg(b.right(), 0, 'f', 1)
        .arg(b.top(), 0, 'f', 1)
        .arg(b.bottom(), 0, 'f', 1);
}

/// The first pair of texts that overlap, or a text outside the view: empty when none.
inline QString collision(const std::vector<ShownText>& texts, const QSize& view)
{
    const QRectF inside = QRectF(QPointF(0, 0), QSizeF(view)).adjusted(-1, -1, 1, 1);
    for (std::size_t i = 0; i < texts.size(); ++i) {
        if (!inside.contains(texts[i].box))
            return describe(texts[i]) + QStringLiteral(" leaves the view");
        for (std::size_t j = i + 1; j < texts.size(); ++j) {
            // Half a pixel of rounding between texts set edge to edge is not an overlap.
            const QRectF common = texts[i].box.intersected(texts[j].box);
            if (common.width() > 0.5 && common.height() > 0.5)
                return describe(texts[i]) + QStringLiteral(" overlaps ") + describe(texts[j]);
        }
    }
    return {};
}

} // namespace clab::testing
