#include "view3d/LegendOverlay.h"

#include "render/ViewFonts.h"
#include "view3d/ViewStyle.h"

#include <vtkActor2D.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper2D.h>
#include <vtkProperty2D.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTextRenderer.h>
#include <vtkUnsignedCharArray.h>

#include <QStringList>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace clab {

namespace {

vtkSmartPointer<vtkActor2D> actorFor(vtkPolyData* data)
{
    auto mapper = vtkSmartPointer<vtkPolyDataMapper2D>::New();
    mapper->SetInputData(data);
    auto actor = vtkSmartPointer<vtkActor2D>::New();
    actor->SetMapper(mapper);
    return actor;
}

/// Appends a convex polygon with one colour.
void addPolygon(vtkPoints* points, vtkCellArray* polys, vtkUnsignedCharArray* colors,
                const std::vector<std::pair<double, double>>& corners, const QColor& color)
{
    polys->InsertNextCell(static_cast<vtkIdType>(corners.size()));
    for (const auto& [x, y] : corners) {
        polys->InsertCellPoint(points->InsertNextPoint(x, y, 0.0));
    }
    const unsigned char rgb[3] = {static_cast<unsigned char>(color.red()),
                                  static_cast<unsigned char>(color.green()),
                                  static_cast<unsigned char>(color.blue())};
    colors->InsertNextTypedTuple(rgb);
}

/// Corners of a rectangle with rounded corners of radius r, counter-clockwise (convex).
std::vector<std::pair<double, double>> roundedRect(double x0, double y0, double x1, double y1,
                                                   double r)
{
    // Corner centres from bottom-right round to bottom-left, each sweeping a quarter turn.
    const double cx[4] = {x1 - r, x1 - r, x0 + r, x0 + r};
    const double cy[4] = {y0 + r, y1 - r, y1 - r, y0 + r};
    const int steps = 8;
    std::vector<std::pair<double, double>> c;
    for (int k = 0; k < 4; ++k) {
        for (int s = 0; s <= steps; ++s) {
            const double a = 0.5 * std::numbers::pi * (k - 1 + static_cast<double>(s) / steps);
            c.emplace_back(cx[k] + r * std::cos(a), cy[k] + r * std::sin(a));
        }
    }
    return c;
}

} // namespace

LegendOverlay::LegendOverlay()
    : panel_(vtkSmartPointer<vtkPolyData>::New()), border_(vtkSmartPointer<vtkPolyData>::New()),
      symbols_(vtkSmartPointer<vtkPolyData>::New())
{
    panelActor_ = actorFor(panel_);
    panelActor_->GetProperty()->SetColor(1.0, 1.0, 1.0);
    panelActor_->GetProperty()->SetOpacity(0.86);
    borderActor_ = actorFor(border_);
    borderActor_->GetProperty()->SetColor(0.70, 0.74, 0.80);
    borderActor_->GetProperty()->SetLineWidth(1.0f);
    symbolActor_ = actorFor(symbols_);
}

LegendOverlay::~LegendOverlay() = default;

void LegendOverlay::addTo(vtkRenderer* renderer)
{
    renderer_ = renderer;
    renderer->AddViewProp(panelActor_);
    renderer->AddViewProp(borderActor_);
    renderer->AddViewProp(symbolActor_);
    for (const auto& text : texts_) {
        renderer->AddViewProp(text);
    }
}

void LegendOverlay::setEntries(const std::vector<Entry>& entries)
{
    entries_ = entries;
    while (texts_.size() > entries_.size()) {
        if (renderer_) {
            renderer_->RemoveViewProp(texts_.back());
        }
        texts_.pop_back();
    }
    while (texts_.size() < entries_.size()) {
        auto text = vtkSmartPointer<vtkTextActor>::New();
        vtkTextProperty* tp = text->GetTextProperty();
        ViewFonts::apply(tp);
        tp->SetColor(0.13, 0.15, 0.18);
        tp->SetVerticalJustificationToCentered();
        tp->SetJustificationToLeft();
        texts_.push_back(text);
        if (renderer_) {
            renderer_->AddViewProp(text);
        }
    }
    for (std::size_t i = 0; i < entries_.size(); ++i) {
        texts_[i]->SetInput(entries_[i].label.toUtf8().constData());
    }
    lastLayout_[0] = -1; // force a new layout
    applyVisibility();
}

void LegendOverlay::setReserve(const std::vector<QString>& texts, int rows)
{
    reserveTexts_ = texts;
    reserveRows_ = rows;
    lastLayout_[0] = -1; // force a new layout
}

void LegendOverlay::setVisible(bool visible)
{
    visible_ = visible;
    applyVisibility();
}

void LegendOverlay::applyVisibility()
{
    const int on = visible_ && !entries_.empty() ? 1 : 0;
    panelActor_->SetVisibility(on);
    borderActor_->SetVisibility(on);
    symbolActor_->SetVisibility(on);
    for (const auto& text : texts_) {
        text->SetVisibility(on);
    }
}

namespace {

// The legend's sizes in units of its font's pixels.
constexpr double kPad = 0.75, kRow = 1.65, kSymbol = 2.4, kGap = 0.7, kMargin = 0.8;
// A line of a wrapped entry adds this much to its row.
constexpr double kLine = 1.2;
// Text narrower than the view is wrapped onto more lines before it is set smaller, and never
// smaller than this (or its own size, when that is smaller): 16 px read from the back of a room.
constexpr int kLegiblePixels = 16;

double textWidth(vtkTextProperty* tp, const QString& text, double dpi)
{
    int bbox[4] = {0, 0, 0, 0};
    if (vtkTextRenderer* tr = vtkTextRenderer::GetInstance())
        tr->GetBoundingBox(tp, text.toStdString(), bbox, static_cast<int>(dpi));
    return static_cast<double>(bbox[1] - bbox[0]);
}

/// `text` broken at spaces into lines of at most `room` pixels where it can be (a word wider
/// than that stands on a line of its own).
QString wrapped(vtkTextProperty* tp, const QString& text, double room, double dpi)
{
    if (textWidth(tp, text, dpi) <= room)
        return text;
    QStringList lines;
    QString line;
    for (const QString& word : text.split(QLatin1Char(' '))) {
        const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.trimmed().isEmpty() && textWidth(tp, longer.trimmed(), dpi) > room) {
            lines << line.trimmed();
            line = word;
        } else {
            line = longer;
        }
    }
    lines << line.trimmed();
    return lines.join(QLatin1Char('\n'));
}

} // namespace

void LegendOverlay::layout(int width, int height, int fontPixels, double dpi, int top)
{
    const int key[5] = {width, height, fontPixels, static_cast<int>(dpi), top};
    if (std::equal(key, key + 5, lastLayout_) || entries_.empty()) {
        return;
    }
    std::copy(key, key + 5, lastLayout_);

    // Entries wider than the view (large text in a narrow view) wrap onto more lines; only a
    // word wider than the view sets the text smaller, down to kLegiblePixels: text cut off at
    // the view's edge says nothing, and text too small cannot be read.
    const int smallest = std::min(fontPixels, kLegiblePixels);
    Wrapped w = wrapTexts(width, fontPixels, dpi);
    for (int tries = 0; tries < 4 && fontPixels > smallest; ++tries) {
        const double needed = (2 * kPad + kSymbol + kGap + 2 * kMargin) * fontPixels + w.textWidth;
        if (needed <= width)
            break;
        fontPixels = std::max(smallest, static_cast<int>(std::floor(fontPixels * width / needed)));
        w = wrapTexts(width, fontPixels, dpi);
    }
    fontPixels_ = fontPixels;
    const double f = fontPixels;
    const double pad = kPad * f;
    const double row = kRow * f;
    const double symbolWidth = kSymbol * f;
    const double gap = kGap * f;
    const double margin = kMargin * f;
    const auto rowHeight = [&](int lineCount) {
        return row + kLine * f * (lineCount - 1);
    };
    double rowsHeight = 0.0;
    for (int n : w.lines)
        rowsHeight += rowHeight(n);
    const double boxW = pad + symbolWidth + gap + w.textWidth + pad;
    const double boxH = 2.0 * pad + rowsHeight - 0.4 * f;
    panelWidth_ = boxW;
    panelHeight_ = boxH;
    reservedWidth_ = pad + symbolWidth + gap + w.reserveTextWidth + pad;
    reservedHeight_ =
        2.0 * pad + rowHeight(w.reserveLines) * static_cast<double>(reserveRows_) - 0.4 * f;
    margin_ = margin;
    const double x0 = width - margin - boxW;
    const double y1 = height - margin - top;
    const double y0 = y1 - boxH;
    buildPanel(x0, y0, x0 + boxW, y1, f);

    vtkNew<vtkPoints> points;
    vtkNew<vtkCellArray> polys;
    vtkNew<vtkUnsignedCharArray> colors;
    colors->SetNumberOfComponents(3);
    colors->SetName("legend_colors");
    double rowTop = y1 - pad;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
        const double h = rowHeight(w.lines[i]);
        const double yc = rowTop - 0.5 * (h - 0.4 * f);
        rowTop -= h;
        const double sx = x0 + pad;
        addSymbol(points, polys, colors, entries_[i], sx, yc, symbolWidth, f);
        texts_[i]->SetDisplayPosition(static_cast<int>(std::lround(sx + symbolWidth + gap)),
                                      static_cast<int>(std::lround(yc)));
    }
    symbols_->SetPoints(points);
    symbols_->SetPolys(polys);
    symbols_->GetCellData()->SetScalars(colors);
    symbols_->Modified();
    panel_->Modified();
    border_->Modified();
}

LegendOverlay::Wrapped LegendOverlay::wrapTexts(int width, int fontPixels, double dpi)
{
    const int fontPoints = ViewStyle::fontPoints(fontPixels, dpi);
    const double room = width - (2 * kPad + kSymbol + kGap + 2 * kMargin) * fontPixels;
    Wrapped out;
    for (std::size_t i = 0; i < texts_.size(); ++i) {
        vtkTextProperty* tp = texts_[i]->GetTextProperty();
        tp->SetFontSize(fontPoints);
        const QString text = wrapped(tp, entries_[i].label, room, dpi);
        texts_[i]->SetInput(text.toUtf8().constData());
        out.lines.push_back(static_cast<int>(text.count(QLatin1Char('\n'))) + 1);
        for (const QString& line : text.split(QLatin1Char('\n')))
            out.textWidth = std::max(out.textWidth, textWidth(tp, line, dpi));
    }
    if (!texts_.empty()) {
        vtkTextProperty* tp = texts_.front()->GetTextProperty();
        for (const QString& text : reserveTexts_) {
            const QStringList lines = wrapped(tp, text, room, dpi).split(QLatin1Char('\n'));
            out.reserveLines = std::max(out.reserveLines, static_cast<int>(lines.size()));
            for (const QString& line : lines)
                out.reserveTextWidth = std::max(out.reserveTextWidth, textWidth(tp, line, dpi));
        }
    }
    return out;
}

void LegendOverlay::buildPanel(double x0, double y0, double x1, double y1, double f)
{
    vtkNew<vtkPoints> points;
    vtkNew<vtkCellArray> polys;
    vtkNew<vtkUnsignedCharArray> colors;
    colors->SetNumberOfComponents(3);
    const auto outline = roundedRect(x0, y0, x1, y1, 0.45 * f);
    addPolygon(points, polys, colors, outline, QColor(255, 255, 255));
    panel_->SetPoints(points);
    panel_->SetPolys(polys);
    vtkNew<vtkPoints> bp;
    vtkNew<vtkCellArray> lines;
    lines->InsertNextCell(static_cast<vtkIdType>(outline.size() + 1));
    for (const auto& [x, y] : outline) {
        lines->InsertCellPoint(bp->InsertNextPoint(x, y, 0.0));
    }
    lines->InsertCellPoint(0);
    border_->SetPoints(bp);
    border_->SetLines(lines);
}

void LegendOverlay::addSymbol(vtkPoints* points, vtkCellArray* polys, vtkUnsignedCharArray* colors,
                              const Entry& entry, double sx, double yc, double symbolWidth,
                              double f)
{
    const QColor& c = entry.color;
    switch (entry.symbol) {
    case Entry::Symbol::Arrow: {
        const double t = 0.16 * f;
        const double head = 0.75 * f;
        const double hh = 0.36 * f;
        addPolygon(points, polys, colors,
                   {{sx, yc - t},
                    {sx + symbolWidth - head, yc - t},
                    {sx + symbolWidth - head, yc + t},
                    {sx, yc + t}},
                   c);
        addPolygon(points, polys, colors,
                   {{sx + symbolWidth - head, yc - hh},
                    {sx + symbolWidth, yc},
                    {sx + symbolWidth - head, yc + hh}},
                   c);
        break;
    }
    case Entry::Symbol::Line: {
        const double t = 0.12 * f;
        addPolygon(
            points, polys, colors,
            {{sx, yc - t}, {sx + symbolWidth, yc - t}, {sx + symbolWidth, yc + t}, {sx, yc + t}},
            c);
        break;
    }
    case Entry::Symbol::Patch: {
        const double h = 0.42 * f;
        addPolygon(points, polys, colors,
                   {{sx + 0.25 * f, yc - h},
                    {sx + symbolWidth - 0.05 * f, yc - h},
                    {sx + symbolWidth - 0.25 * f, yc + h},
                    {sx + 0.05 * f, yc + h}},
                   c);
        break;
    }
    }
}

} // namespace clab
