#include "widgets/DotAccents.h"

#include <QAbstractTextDocumentLayout>
#include <QFontMetricsF>
#include <QHash>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextLayout>

#include <algorithm>
#include <cmath>

namespace clab {

namespace {

constexpr QChar dotAbove(0x0307);
constexpr QChar diaeresis(0x0308);
/// Zero width and no break: carries the letter's font (its descent) into the line where the
/// layout gives the object none.
constexpr QChar wordJoiner(0x2060);

/// The letter's ink, from its pixels: the box, and the middle of its top fifth (an italic
/// letter's top sits to the right of its middle).
struct Ink {
    QRectF box;
    double topCentre = 0.0;
};

Ink inkOf(const QFont& font, const QString& base)
{
    static QHash<QString, Ink> cache;
    const QString key = font.key() + QLatin1Char('|') + base;
    if (const auto it = cache.constFind(key); it != cache.constEnd())
        return *it;
    const QFontMetricsF metrics(font);
    const int margin = static_cast<int>(std::ceil(metrics.height()));
    const int width = static_cast<int>(std::ceil(metrics.horizontalAdvance(base))) + 2 * margin;
    const int height = 3 * margin;
    QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
        QPainter painter(&image);
        painter.setFont(font);
        painter.setPen(Qt::black);
        painter.drawText(QPointF(margin, 2 * margin), base);
    }
    int top = height, bottom = -1, left = width, right = -1;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            if (qAlpha(image.pixel(x, y)) > 96) {
                top = std::min(top, y);
                bottom = std::max(bottom, y);
                left = std::min(left, x);
                right = std::max(right, x);
            }
    Ink ink;
    if (bottom < 0) { // no ink (a space): the advance box
        ink.box = QRectF(0, -metrics.xHeight(), metrics.horizontalAdvance(base), metrics.xHeight());
        ink.topCentre = ink.box.center().x();
    } else {
        ink.box = QRectF(left - margin, top - 2 * margin, right - left + 1, bottom - top + 1);
        const int band = std::max(1, (bottom - top + 1) / 5);
        double sum = 0.0;
        int count = 0;
        for (int y = top; y < top + band; ++y)
            for (int x = left; x <= right; ++x)
                if (qAlpha(image.pixel(x, y)) > 96) {
                    sum += x + 0.5;
                    ++count;
                }
        ink.topCentre = sum / count - margin;
    }
    cache.insert(key, ink);
    return ink;
}

} // namespace

DotAccents::Placement DotAccents::place(const QFont& font, const QString& base, int dots)
{
    const QFontMetricsF metrics(font);
    const Ink ink = inkOf(font, base);
    Placement p;
    p.ink = ink.box;
    p.radius = std::max(1.3, 0.055 * metrics.height()); // still a dot at 9 pt
    const double gap = std::max(1.5, 0.09 * metrics.height());
    const double y = ink.box.top() - gap - p.radius;
    const double spread = 1.6 * p.radius; // half the distance between two dots' centres
    for (int i = 0; i < dots; ++i)
        p.centres.emplace_back(ink.topCentre + (dots == 1 ? 0.0 : (2 * i - 1) * spread), y);
    return p;
}

QFont DotAccents::fontOf(const QTextDocument* document, const QTextFormat& format)
{
    // The format's font holds the document's defaults as values but not in its resolve mask, so a
    // painter would take its own family and size instead: every property counts as set.
    QFont font = format.toCharFormat().font().resolve(document->defaultFont());
    font.setResolveMask(QFont::AllPropertiesResolved);
    return font;
}

QSizeF DotAccents::intrinsicSize(QTextDocument* document, int, const QTextFormat& format)
{
    const QFont font = fontOf(document, format);
    const QString base = format.property(Base).toString();
    const QFontMetrics metrics(font); // the layout's own (integer) ascent and descent
    const Placement p = place(font, base, format.property(Dots).toInt());
    const double top = p.centres.empty() ? 0.0 : p.centres.front().y() - p.radius - 1.0;
    const double ascent = std::max<double>(metrics.ascent(), -top);
    return QSizeF(QFontMetricsF(font).horizontalAdvance(base), ascent + metrics.descent());
}

void DotAccents::drawObject(QPainter* painter, const QRectF& rect, QTextDocument* document,
                            int position, const QTextFormat& format)
{
    const QFont font = fontOf(document, format);
    const QString base = format.property(Base).toString();
    // On the line's baseline, from the layout itself: how the layout splits an object's height
    // into ascent and descent differs between a table cell and a paragraph.
    const QTextBlock block = document->findBlock(position);
    const QTextLine line = block.layout()->lineForTextPosition(position - block.position());
    const double baseline =
        line.isValid()
            ? document->documentLayout()->blockBoundingRect(block).top() + line.y() + line.ascent()
            : rect.bottom() - QFontMetrics(font).descent();
    const QPointF origin(rect.left(), baseline);

    const QTextCharFormat chars = format.toCharFormat();
    const QColor color = chars.foreground().style() != Qt::NoBrush ? chars.foreground().color()
                                                                   : painter->pen().color();
    painter->save();
    painter->setFont(font);
    painter->setPen(color);
    painter->drawText(origin, base);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    const Placement p = place(font, base, format.property(Dots).toInt());
    for (const QPointF& c : p.centres)
        painter->drawEllipse(origin + c, p.radius, p.radius);
    painter->restore();
}

int DotAccents::apply(QTextDocument* document)
{
    DotAccents* handler = document->findChild<DotAccents*>(QString(), Qt::FindDirectChildrenOnly);
    if (!handler) {
        handler = new DotAccents(document);
        document->documentLayout()->registerHandler(objectType, handler);
    }
    static const QRegularExpression dotted(
        QStringLiteral("[^\\s\\x{0307}\\x{0308}][\\x{0307}\\x{0308}]"));
    int count = 0;
    QTextCursor cursor(document);
    while (!(cursor = document->find(dotted, cursor)).isNull()) {
        const QString text = cursor.selectedText();
        QTextCursor letter(document);
        letter.setPosition(cursor.selectionStart() + 1); // the format of the letter itself
        const QTextCharFormat plain = letter.charFormat();
        QTextCharFormat format = plain;
        format.setObjectType(objectType);
        format.setProperty(Base, text.left(1));
        format.setProperty(Dots, text.at(1) == diaeresis ? 2 : 1);
        format.setVerticalAlignment(QTextCharFormat::AlignBaseline);
        cursor.insertText(QString(QChar::ObjectReplacementCharacter), format);
        cursor.insertText(QString(wordJoiner), plain);
        ++count;
    }
    return count;
}

QString DotAccents::plainText(const QTextDocument* document)
{
    QString out;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        if (block != document->begin())
            out += QLatin1Char('\n');
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            const QTextCharFormat format = fragment.charFormat();
            if (format.objectType() != objectType) {
                out += fragment.text();
                continue;
            }
            const QString mark =
                format.property(Dots).toInt() == 2 ? QString(diaeresis) : QString(dotAbove);
            for (int i = 0; i < fragment.length(); ++i)
                out += format.property(Base).toString() + mark;
        }
    }
    return out.remove(wordJoiner).replace(QChar::Nbsp, QLatin1Char(' '));
}

} // namespace clab
