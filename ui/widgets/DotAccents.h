#pragma once

#include <QFont>
#include <QObject>
#include <QPointF>
#include <QRectF>
#include <QTextObjectInterface>

#include <vector>

class QTextDocument;

namespace clab {

/// \brief Dots over letters (q̇, q̈, ẋ₁) set by hand in a QTextDocument, whatever the font
/// does with combining marks.
///
/// A letter followed by a combining dot above (U+0307) or diaeresis (U+0308) becomes one inline
/// object that draws the letter and puts its dot (or two) just above the letter's ink, centred
/// on the top of the ink (so an italic letter's slant is followed). Fonts place combining marks
/// badly or not at all (the dot of q̇ landed beside the q or inside it), and the panel and its
/// exports must not depend on that. Printing or rendering the document draws the same objects.
class DotAccents : public QObject, public QTextObjectInterface {
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)
public:
    static constexpr int objectType = QTextFormat::UserObject + 7;
    enum Property { Base = QTextFormat::UserProperty + 70, Dots };

    /// Sets every dotted letter of `document` as an object (the handler is installed once per
    /// document). Returns how many were set.
    static int apply(QTextDocument* document);
    /// The document's text with each set letter written as Unicode again (letter + mark).
    static QString plainText(const QTextDocument* document);

    /// Where the dots of `base` in `font` go: their centres relative to the letter's origin on
    /// the baseline (y grows downwards), and their radius.
    struct Placement {
        std::vector<QPointF> centres;
        double radius = 1.0;
        QRectF ink; ///< the letter's ink, same origin
    };
    static Placement place(const QFont& font, const QString& base, int dots);

    QSizeF intrinsicSize(QTextDocument* document, int position, const QTextFormat& format) override;
    void drawObject(QPainter* painter, const QRectF& rect, QTextDocument* document, int position,
                    const QTextFormat& format) override;

private:
    explicit DotAccents(QObject* parent) : QObject(parent) {}
    static QFont fontOf(const QTextDocument* document, const QTextFormat& format);
};

} // namespace clab
