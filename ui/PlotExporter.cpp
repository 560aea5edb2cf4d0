#include "PlotExporter.h"

#include "AtomicFile.h"
#include "FileError.h"
#include "OffscreenRenderWindow.h"
#include "PlotChart.h"

#include <QBuffer>
#include <QByteArray>
#include <QColor>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QTemporaryFile>
#include <QtGlobal>

#include <vtkContextView.h>
#include <vtkGL2PSExporter.h>
#include <vtkNew.h>
#include <vtkOpenGLGL2PSExporter.h>
#include <vtkRenderWindow.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace clab {

namespace {

QString quoted(const QString& path)
{
    return QStringLiteral("\"%1\"").arg(QDir::toNativeSeparators(path));
}

bool fail(QString* error, const QString& message)
{
    if (error != nullptr) {
        *error = message;
    }
    return false;
}

/// The finished file: atomically for a regular file, in place for a device or a pipe.
bool writeBytes(const QByteArray& bytes, const QString& path, QString* error)
{
    try {
        AtomicFile::write(path, bytes, QStringLiteral("the plot"));
    } catch (const FileError& e) {
        // The reason reads "cannot write the plot: <the system's reason>".
        return fail(error, QStringLiteral("Cannot write the plot %1: %2")
                               .arg(quoted(path), e.reason().section(QStringLiteral(": "), 1)));
    }
    return true;
}

/// Renders `chart` into `window` at `size`; false with a message when there is no GL context.
bool renderOnce(PlotChart& chart, OffscreenRenderWindow& window, const QSize& size,
                const QString& path, QImage* image, QString* error)
{
    chart.view()->SetRenderWindow(window.window());
    // The first frame lays the chart out (axis ranges, a log axis becoming active); plots only
    // pick that up on the next one.
    window.render(size);
    QImage rendered = window.render(size);
    if (rendered.isNull()) {
        return fail(
            error,
            QStringLiteral("Cannot write the plot %1: %2").arg(quoted(path), window.errorString()));
    }
    // The background is white: a frame without a single white pixel in its corner means the
    // context rendered nothing (e.g. Qt's "offscreen" platform gives black frames).
    if (QColor(rendered.pixel(0, 0)) != QColor(Qt::white) &&
        QColor(rendered.pixel(rendered.width() - 1, rendered.height() - 1)) != QColor(Qt::white)) {
        return fail(error, QStringLiteral("Cannot write the plot %1: OpenGL rendered an empty "
                                          "frame (the display platform has no working OpenGL; "
                                          "run under X or xvfb-run -a)")
                               .arg(quoted(path)));
    }
    if (image != nullptr) {
        *image = std::move(rendered);
    }
    return true;
}

bool writePng(const PlotData& data, const QString& path, const PlotExporter::Options& options,
              QString* error)
{
    const double scale = options.scale > 0.0 && std::isfinite(options.scale) ? options.scale : 1.0;
    const QSize pixels(static_cast<int>(std::lround(options.size.width() * scale)),
                       static_cast<int>(std::lround(options.size.height() * scale)));
    PlotChart chart;
    chart.setData(data);
    chart.setScale(scale);
    chart.setCursor(options.cursor);
    chart.setViewRange(options.range);
    OffscreenRenderWindow window;
    QImage image;
    if (!renderOnce(chart, window, pixels, path, &image, error)) {
        return false;
    }
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) {
        return fail(
            error,
            QStringLiteral("Cannot write the plot %1: encoding the PNG failed").arg(quoted(path)));
    }
    return writeBytes(buffer.data(), path, error);
}

// ---- PDF: plain-ASCII text ------------------------------------------------------------------

/// A run of superscript digits and signs as "^..." ("m/s²" → "m/s^2"); NFKD alone would turn "²"
/// into a bare "2". Returns 0 for a character that is no such superscript.
char superscriptAscii(char32_t c)
{
    switch (c) {
    case U'⁰':
        return '0';
    case U'¹':
        return '1';
    case U'²':
        return '2';
    case U'³':
        return '3';
    case U'⁴':
        return '4';
    case U'⁵':
        return '5';
    case U'⁶':
        return '6';
    case U'⁷':
        return '7';
    case U'⁸':
        return '8';
    case U'⁹':
        return '9';
    case U'⁺':
        return '+';
    case U'⁻':
        return '-';
    default:
        return 0;
    }
}

/// ASCII for one character left after NFKD, or nullptr when there is none.
const char* asciiFor(char32_t c)
{
    struct Entry {
        char32_t from;
        const char* to;
    };
    static constexpr Entry kTable[] = {
        // Combining marks: a dot above is a time derivative ("ẋ" → "x'"), two dots the second.
        {U'\u0307', "'"},
        {U'\u0308', "''"},
        // Operators and punctuation.
        {U'−', "-"},
        {U'‐', "-"},
        {U'‑', "-"},
        {U'‒', "-"},
        {U'–', "-"},
        {U'—', "-"},
        {U'‖', "||"},
        {U'·', "*"},
        {U'⋅', "*"},
        {U'×', "x"},
        {U'÷', "/"},
        {U'±', "+/-"},
        {U'≤', "<="},
        {U'≥', ">="},
        {U'≠', "!="},
        {U'≈', "~"},
        {U'∼', "~"},
        {U'∞', "inf"},
        {U'→', "->"},
        {U'←', "<-"},
        {U'∂', "d"},
        {U'∇', "grad"},
        {U'√', "sqrt"},
        {U'∑', "sum"},
        {U'∫', "int"},
        {U'°', "deg"},
        {U'‘', "'"},
        {U'’', "'"},
        {U'“', "\""},
        {U'”', "\""},
        {U'•', "*"},
        // Greek: ω is spelled "w" as in the trace's column names (w1, w2, w3); the others by name.
        {U'α', "alpha"},
        {U'β', "beta"},
        {U'γ', "gamma"},
        {U'δ', "delta"},
        {U'ε', "epsilon"},
        {U'ϵ', "epsilon"},
        {U'ζ', "zeta"},
        {U'η', "eta"},
        {U'θ', "theta"},
        {U'ϑ', "theta"},
        {U'ι', "iota"},
        {U'κ', "kappa"},
        {U'λ', "lambda"},
        {U'μ', "mu"},
        {U'ν', "nu"},
        {U'ξ', "xi"},
        {U'ο', "o"},
        {U'π', "pi"},
        {U'ρ', "rho"},
        {U'σ', "sigma"},
        {U'ς', "sigma"},
        {U'τ', "tau"},
        {U'υ', "upsilon"},
        {U'φ', "phi"},
        {U'ϕ', "phi"},
        {U'χ', "chi"},
        {U'ψ', "psi"},
        {U'ω', "w"},
        {U'Α', "A"},
        {U'Β', "B"},
        {U'Γ', "Gamma"},
        {U'Δ', "Delta"},
        {U'Ε', "E"},
        {U'Ζ', "Z"},
        {U'Η', "H"},
        {U'Θ', "Theta"},
        {U'Ι', "I"},
        {U'Κ', "K"},
        {U'Λ', "Lambda"},
        {U'Μ', "M"},
        {U'Ν', "N"},
        {U'Ξ', "Xi"},
        {U'Ο', "O"},
        {U'Π', "Pi"},
        {U'Ρ', "P"},
        {U'Σ', "Sigma"},
        {U'Τ', "T"},
        {U'Υ', "Upsilon"},
        {U'Φ', "Phi"},
        {U'Χ', "X"},
        {U'Ψ', "Psi"},
        {U'Ω', "Omega"},
    };
    for (const Entry& entry : kTable) {
        if (entry.from == c) {
            return entry.to;
        }
    }
    return nullptr;
}

/// True for a combining mark (dropped unless asciiFor() spells it).
bool isCombining(char32_t c)
{
    const QChar::Category category = QChar::category(c);
    return category == QChar::Mark_NonSpacing || category == QChar::Mark_SpacingCombining ||
           category == QChar::Mark_Enclosing;
}

/// Escapes what would end or break the PDF string literal "( ... )" GL2PS writes the text into
/// without escaping: backslashes and unbalanced parentheses (balanced ones are legal as they are).
/// Also "|" and "$": VTK 9.1 takes a text with an unescaped "|" or "$...$" for MathText and
/// exports it as a path, which its PDF writer puts outside the page's content stream (a broken
/// PDF). Escaped, VTK keeps it as text, and a PDF reader ignores a backslash before a character
/// that needs none, so "\|" shows as "|".
QString escapedForPdfString(const QString& ascii)
{
    // Which parentheses pair up, scanning left to right.
    std::vector<bool> paired(static_cast<std::size_t>(ascii.size()), false);
    std::vector<qsizetype> open;
    for (qsizetype i = 0; i < ascii.size(); ++i) {
        if (ascii[i] == u'(') {
            open.push_back(i);
        } else if (ascii[i] == u')' && !open.empty()) {
            paired[static_cast<std::size_t>(open.back())] = true;
            paired[static_cast<std::size_t>(i)] = true;
            open.pop_back();
        }
    }
    QString out;
    out.reserve(ascii.size());
    for (qsizetype i = 0; i < ascii.size(); ++i) {
        const QChar c = ascii[i];
        if (c == u'\\' || c == u'|' || c == u'$' ||
            ((c == u'(' || c == u')') && !paired[static_cast<std::size_t>(i)])) {
            out += u'\\';
        }
        out += c;
    }
    return out;
}

/// `data` with every text GL2PS writes into the PDF (title, axis titles, legend) in pdfText().
PlotData withPdfTexts(const PlotData& data)
{
    PlotData copy = data;
    copy.title = PlotExporter::pdfText(data.title);
    copy.xTitle = PlotExporter::pdfText(data.xTitle);
    copy.yTitle = PlotExporter::pdfText(data.yTitle);
    for (PlotCurve& curve : copy.curves) {
        curve.label = PlotExporter::pdfText(curve.label);
    }
    for (PlotLegendEntry& entry : copy.legend) {
        entry.label = PlotExporter::pdfText(entry.label);
    }
    return copy;
}

// ---- PDF: deflating the streams -------------------------------------------------------------

/// Deflates the streams of the PDF files GL2PS writes. GL2PS compresses only when built with
/// zlib, and Debian's libgl2ps is not, so a plot PDF carries its full-window background raster
/// uncompressed (2.88 MB at 1200x800, all white). This rewrites a classic single-revision PDF:
/// every unfiltered stream deflated with "/Filter /FlateDecode" and a direct /Length, and a new
/// cross-reference table. Streams are found through the objects of the cross-reference table and
/// their declared /Length (never by searching the binary data for "endstream"), and strings are
/// skipped as strings, so a title saying "stream" or "endobj" cannot mislead it. Anything it
/// does not expect makes it give up with a reason; the caller then keeps the uncompressed file.
class PdfStreamDeflater {
public:
    /// The deflated file in `*out`, or false with `*why` saying what was unexpected.
    static bool deflate(const QByteArray& pdf, QByteArray* out, QString* why)
    {
        PdfStreamDeflater deflater(pdf);
        if (!deflater.run(out)) {
            *why = deflater.why_;
            return false;
        }
        return true;
    }

private:
    /// One "N G obj ... endobj" of the input.
    struct Object {
        int number = 0;
        QByteArray generation;
        qsizetype offset = 0; ///< of "N G obj"
        qsizetype end = 0;    ///< just past "endobj"
        // A stream's parts (streamData < 0: no stream).
        qsizetype dictionaryBegin = 0; ///< just past "obj"
        qsizetype lengthBegin = -1;    ///< the "/Length" key of the stream dictionary
        qsizetype lengthEnd = -1;      ///< past its value ("123" or "5 0 R")
        int lengthObject = -1;         ///< N of an indirect "/Length N 0 R"
        qsizetype length = -1;         ///< the direct value
        bool filtered = false;         ///< has a /Filter already: left as it is
        qsizetype streamKeyword = -1;  ///< "stream"
        qsizetype streamData = -1;     ///< first byte of the data
    };

    /// A token of the PDF syntax: [begin, end) in the input.
    struct Token {
        qsizetype begin = 0;
        qsizetype end = 0;
    };

    explicit PdfStreamDeflater(const QByteArray& pdf) : pdf_(pdf) {}

    bool failed(const QString& why)
    {
        why_ = why;
        return false;
    }

    static bool isWhite(char c)
    {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\0';
    }

    static bool isDelimiter(char c)
    {
        return c == '(' || c == ')' || c == '<' || c == '>' || c == '[' || c == ']' || c == '{' ||
               c == '}' || c == '/' || c == '%';
    }

    QByteArray text(const Token& token) const
    {
        return pdf_.mid(token.begin, token.end - token.begin);
    }

    /// The next token from `*at` (white space and comments skipped); false at the end of the
    /// input or in an unterminated string.
    bool next(qsizetype* at, Token* token) const
    {
        qsizetype p = *at;
        const qsizetype n = pdf_.size();
        for (;;) {
            while (p < n && isWhite(pdf_[p])) {
                ++p;
            }
            if (p < n && pdf_[p] == '%') { // a comment runs to the end of the line
                while (p < n && pdf_[p] != '\n' && pdf_[p] != '\r') {
                    ++p;
                }
                continue;
            }
            break;
        }
        if (p >= n) {
            return false;
        }
        const qsizetype begin = p;
        const char c = pdf_[p];
        if (c == '(') { // a literal string: nested parentheses, backslash escapes
            int depth = 0;
            for (; p < n; ++p) {
                if (pdf_[p] == '\\') {
                    ++p;
                } else if (pdf_[p] == '(') {
                    ++depth;
                } else if (pdf_[p] == ')' && --depth == 0) {
                    break;
                }
            }
            if (p >= n) {
                return false;
            }
            ++p;
        } else if (c == '<' && p + 1 < n && pdf_[p + 1] == '<') {
            p += 2;
        } else if (c == '>' && p + 1 < n && pdf_[p + 1] == '>') {
            p += 2;
        } else if (c == '<') { // a hex string
            p = pdf_.indexOf('>', p);
            if (p < 0) {
                return false;
            }
            ++p;
        } else if (c == '/') { // a name
            ++p;
            while (p < n && !isWhite(pdf_[p]) && !isDelimiter(pdf_[p])) {
                ++p;
            }
        } else if (isDelimiter(c)) {
            ++p;
        } else { // a number or a keyword
            while (p < n && !isWhite(pdf_[p]) && !isDelimiter(pdf_[p])) {
                ++p;
            }
        }
        *token = {begin, p};
        *at = p;
        return true;
    }

    static bool isInteger(const QByteArray& bytes)
    {
        bool ok = false;
        bytes.toLongLong(&ok);
        return ok;
    }

    /// Reads the object at `object->offset` up to its "endobj", noting a stream's dictionary
    /// entries and data.
    bool readObject(Object* object)
    {
        qsizetype at = object->offset;
        Token number;
        Token generation;
        Token keyword;
        if (!next(&at, &number) || !next(&at, &generation) || !next(&at, &keyword) ||
            text(number).toInt() != object->number || text(keyword) != "obj") {
            return failed(QStringLiteral("object %1 is not at offset %2 as the cross-reference "
                                         "table says")
                              .arg(object->number)
                              .arg(object->offset));
        }
        object->generation = text(generation);
        object->dictionaryBegin = at;
        int depth = 0; // of << >>
        Token token;
        while (next(&at, &token)) {
            const QByteArray word = text(token);
            if (word == "<<") {
                ++depth;
            } else if (word == ">>") {
                --depth;
            } else if (word == "endobj") {
                object->end = token.end;
                return true;
            } else if (depth == 1 && word == "/Filter") {
                object->filtered = true;
            } else if (depth == 1 && word == "/Length") {
                object->lengthBegin = token.begin;
                Token value;
                if (!next(&at, &value) || !isInteger(text(value))) {
                    return failed(
                        QStringLiteral("object %1: /Length is not a number").arg(object->number));
                }
                object->lengthEnd = value.end;
                object->length = text(value).toLongLong();
                // "N G R" is an indirect length.
                qsizetype peek = at;
                Token g;
                Token r;
                if (next(&peek, &g) && isInteger(text(g)) && next(&peek, &r) && text(r) == "R") {
                    object->lengthObject = static_cast<int>(object->length);
                    object->length = -1;
                    object->lengthEnd = r.end;
                    at = peek;
                }
            } else if (depth == 0 && word == "stream") {
                // The data starts after the end of line that ends the keyword.
                qsizetype data = token.end;
                if (pdf_.mid(data, 2) == "\r\n") {
                    data += 2;
                } else if (pdf_.mid(data, 1) == "\n") {
                    data += 1;
                } else {
                    return failed(QStringLiteral("object %1: \"stream\" does not end its line")
                                      .arg(object->number));
                }
                if (object->lengthBegin < 0) {
                    return failed(
                        QStringLiteral("object %1: a stream without /Length").arg(object->number));
                }
                object->streamKeyword = token.begin;
                object->streamData = data;
                return true; // the data is skipped once its length is known (skipStream)
            }
        }
        return failed(QStringLiteral("object %1 has no endobj").arg(object->number));
    }

    /// Past the stream data of `object` (length known): "endstream" and "endobj" must follow.
    bool skipStream(Object* object)
    {
        qsizetype at = object->streamData + object->length;
        Token endstream;
        Token endobj;
        if (at > pdf_.size() || !next(&at, &endstream) || text(endstream) != "endstream" ||
            !next(&at, &endobj) || text(endobj) != "endobj") {
            return failed(QStringLiteral("object %1: its /Length %2 does not end at endstream")
                              .arg(object->number)
                              .arg(object->length));
        }
        object->end = endobj.end;
        return true;
    }

    /// The value of a plain integer object ("5 0 obj 1234 endobj"), -1 if it is none.
    qsizetype integerObject(int number) const
    {
        const int index = number >= 0 && number < index_.size() ? index_[number] : -1;
        if (index < 0) {
            return -1;
        }
        qsizetype at = objects_[static_cast<std::size_t>(index)].dictionaryBegin;
        Token value;
        Token end;
        if (!next(&at, &value) || !isInteger(text(value)) || !next(&at, &end) ||
            text(end) != "endobj") {
            return -1;
        }
        return text(value).toLongLong();
    }

    bool run(QByteArray* out)
    {
        // The single cross-reference table: "xref", "0 N", N entries of 20 bytes.
        const qsizetype startxref = pdf_.lastIndexOf("startxref");
        if (startxref < 0) {
            return failed(QStringLiteral("no startxref"));
        }
        qsizetype at = startxref + 9;
        Token token;
        if (!next(&at, &token) || !isInteger(text(token))) {
            return failed(QStringLiteral("startxref has no offset"));
        }
        const qsizetype xref = text(token).toLongLong();
        at = xref;
        Token first;
        Token count;
        if (!next(&at, &token) || text(token) != "xref" || !next(&at, &first) ||
            !next(&at, &count) || text(first) != "0" || !isInteger(text(count))) {
            return failed(QStringLiteral("startxref does not point at an \"xref 0 N\" table"));
        }
        const int size = text(count).toInt();
        // The entries start on the next line.
        while (at < pdf_.size() && isWhite(pdf_[at])) {
            ++at;
        }
        const qsizetype entries = at;
        QList<QByteArray> freeEntries(size);
        index_ = QList<int>(size, -1);
        for (int number = 0; number < size; ++number) {
            const QByteArray entry = pdf_.mid(entries + 20 * qsizetype(number), 20);
            if (entry.size() != 20 || (entry[17] != 'n' && entry[17] != 'f')) {
                return failed(QStringLiteral("cross-reference entry %1 is malformed").arg(number));
            }
            if (entry[17] == 'f') {
                freeEntries[number] = entry;
                continue;
            }
            Object object;
            object.number = number;
            object.offset = entry.left(10).toLongLong();
            if (object.offset <= 0 || object.offset >= xref) {
                return failed(
                    QStringLiteral("object %1 has an offset outside the file's body").arg(number));
            }
            index_[number] = static_cast<int>(objects_.size());
            objects_.push_back(object);
        }
        at = entries + 20 * qsizetype(size);
        if (!next(&at, &token) || text(token) != "trailer") {
            return failed(QStringLiteral("no trailer after the cross-reference table"));
        }
        const QByteArray trailer = pdf_.mid(token.begin, startxref - token.begin);
        if (trailer.contains("/Prev") || trailer.contains("/Encrypt")) {
            return failed(QStringLiteral("an updated or encrypted file"));
        }

        for (Object& object : objects_) {
            if (!readObject(&object)) {
                return false;
            }
        }
        // Indirect lengths need every object read first: the length object may come later.
        for (Object& object : objects_) {
            if (object.streamData < 0) {
                continue;
            }
            if (object.lengthObject >= 0) {
                object.length = integerObject(object.lengthObject);
                if (object.length < 0) {
                    return failed(QStringLiteral("object %1: its /Length %2 0 R is no number")
                                      .arg(object.number)
                                      .arg(object.lengthObject));
                }
            }
            if (!skipStream(&object)) {
                return false;
            }
        }

        // Write the objects in their order in the file, with nothing but white space between.
        std::vector<const Object*> order;
        for (const Object& object : objects_) {
            order.push_back(&object);
        }
        std::sort(order.begin(), order.end(),
                  [](const Object* a, const Object* b) { return a->offset < b->offset; });
        for (std::size_t i = 0; i < order.size(); ++i) {
            const qsizetype gapEnd = i + 1 < order.size() ? order[i + 1]->offset : xref;
            if (order[i]->end > gapEnd ||
                !pdf_.mid(order[i]->end, gapEnd - order[i]->end).trimmed().isEmpty()) {
                return failed(
                    QStringLiteral("unexpected bytes after object %1").arg(order[i]->number));
            }
        }

        // Deflate first: an indirect length object may come before its stream, and gets the new
        // length too (the stream's own /Length becomes direct).
        std::map<int, QByteArray> deflated;
        std::map<int, qsizetype> newLengths;
        for (const Object& object : objects_) {
            if (object.streamData >= 0 && !object.filtered) {
                // qCompress gives a 4-byte size, then a zlib stream: what /FlateDecode reads.
                QByteArray zlib = qCompress(pdf_.mid(object.streamData, object.length), 9).mid(4);
                if (object.lengthObject >= 0) {
                    newLengths[object.lengthObject] = zlib.size();
                }
                deflated[object.number] = std::move(zlib);
            }
        }

        QByteArray result = pdf_.left(order.empty() ? xref : order.front()->offset);
        std::vector<qsizetype> offsets(static_cast<std::size_t>(size), -1);
        for (const Object* object : order) {
            offsets[static_cast<std::size_t>(object->number)] = result.size();
            const auto length = newLengths.find(object->number);
            if (length != newLengths.end()) {
                result += QByteArray::number(object->number) + ' ' + object->generation + " obj\n" +
                          QByteArray::number(length->second) + "\nendobj\n";
                continue;
            }
            const auto stream = deflated.find(object->number);
            if (stream == deflated.end()) {
                result += pdf_.mid(object->offset, object->end - object->offset);
                result += '\n';
                continue;
            }
            const QByteArray& zlib = stream->second;
            result += pdf_.mid(object->offset, object->lengthBegin - object->offset);
            result += "/Length " + QByteArray::number(zlib.size()) + " /Filter /FlateDecode";
            result += pdf_.mid(object->lengthEnd, object->streamKeyword - object->lengthEnd);
            result += "stream\n";
            result += zlib;
            result += "\nendstream\nendobj\n";
        }
        const qsizetype newXref = result.size();
        result += "xref\n0 " + QByteArray::number(size) + '\n';
        for (int number = 0; number < size; ++number) {
            const qsizetype offset = offsets[static_cast<std::size_t>(number)];
            if (offset < 0) {
                result += freeEntries[number];
                continue;
            }
            const Object& object = objects_[static_cast<std::size_t>(index_[number])];
            result += QByteArray::number(offset).rightJustified(10, '0') + ' ' +
                      object.generation.rightJustified(5, '0') + " n \n";
        }
        result += trailer;
        result += "startxref\n" + QByteArray::number(newXref) + "\n%%EOF\n";
        *out = std::move(result);
        return true;
    }

    const QByteArray& pdf_;
    std::vector<Object> objects_;
    QList<int> index_; ///< object number -> index in objects_, -1 for a free entry
    QString why_;
};

// ---- SVG and PDF ----------------------------------------------------------------------------

bool writeVector(const PlotData& data, const QString& path, PlotExporter::Format format,
                 const PlotExporter::Options& options, QString* error)
{
    // GL2PS writes to a unique temporary name (it appends its own extension to the prefix);
    // the result is then written to the target like every other export (AtomicFile).
    QTemporaryFile reserve(
        QDir(QDir::tempPath()).filePath(QStringLiteral("constraintlab-plot.XXXXXX")));
    if (!reserve.open()) {
        return fail(error, QStringLiteral("Cannot write the plot %1: %2")
                               .arg(quoted(path), reserve.errorString()));
    }
    const QString prefix = reserve.fileName();
    const QString written = prefix + (format == PlotExporter::Format::Svg ? QStringLiteral(".svg")
                                                                          : QStringLiteral(".pdf"));

    const bool pdf = format == PlotExporter::Format::Pdf;
    PlotChart chart;
    // GL2PS sets PDF text in Helvetica without a Unicode mapping: spell the texts in ASCII.
    chart.setData(pdf ? withPdfTexts(data) : data);
    // The scale enlarges the page and everything on it alike, as for a PNG.
    const double scale = options.scale > 0.0 && std::isfinite(options.scale) ? options.scale : 1.0;
    chart.setScale(scale);
    chart.setCursor(options.cursor);
    chart.setViewRange(options.range);
    const QSize size(static_cast<int>(std::lround(options.size.width() * scale)),
                     static_cast<int>(std::lround(options.size.height() * scale)));
    OffscreenRenderWindow window;
    // GL2PS captures a render of the window as it is: render once so that the context exists
    // and the chart has laid itself out at this size.
    if (!renderOnce(chart, window, size, path, nullptr, error)) {
        return false;
    }

    vtkNew<vtkOpenGLGL2PSExporter> exporter;
    exporter->SetRenderWindow(window.window());
    exporter->SetFileFormat(format == PlotExporter::Format::Svg ? vtkGL2PSExporter::SVG_FILE
                                                                : vtkGL2PSExporter::PDF_FILE);
    exporter->SetCompress(false);
    exporter->SetTextAsPath(false); // text stays text: searchable, selectable, smaller
    exporter->SetText(true);
    exporter->SetSilent(true);
    exporter->SetTitle(
        (pdf ? PlotExporter::pdfText(data.title).toLatin1() : data.title.toUtf8()).constData());
    exporter->SetFilePrefix(prefix.toLocal8Bit().constData());
    exporter->Write();

    const QFileInfo result(written);
    if (!result.exists() || result.size() == 0) {
        QFile::remove(written);
        return fail(error, QStringLiteral("Cannot write the plot %1: the vector exporter (GL2PS) "
                                          "produced no output")
                               .arg(quoted(path)));
    }
    QFile file(written);
    QByteArray bytes = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    const QString readError = file.errorString();
    file.close();
    QFile::remove(written);
    if (bytes.isEmpty()) {
        return fail(error, QStringLiteral("Cannot write the plot %1: cannot read the exporter's "
                                          "output back (%2)")
                               .arg(quoted(path), readError));
    }
    if (!pdf) {
        // GL2PS leaves an SVG's background transparent, black in a dark viewer: paint it white
        // under everything else.
        const qsizetype open = bytes.indexOf("<svg");
        const qsizetype end = open < 0 ? -1 : bytes.indexOf('>', open);
        if (end > 0) {
            // In the viewBox's units (the window's pixels): SVG Tiny viewers do not take "100%".
            bytes.insert(end + 1, QStringLiteral("\n<rect x=\"0\" y=\"0\" width=\"%1\" "
                                                 "height=\"%2\" fill=\"#ffffff\"/>")
                                      .arg(size.width())
                                      .arg(size.height())
                                      .toUtf8());
        }
    }
    if (pdf) {
        QByteArray deflated;
        QString why;
        if (PdfStreamDeflater::deflate(bytes, &deflated, &why)) {
            bytes = deflated;
        } else {
            // GL2PS's own file is a valid PDF, only larger: keep it rather than fail the export.
            qWarning("PlotExporter: %s left uncompressed: %s", qPrintable(quoted(path)),
                     qPrintable(why));
        }
    }
    return writeBytes(bytes, path, error);
}

} // namespace

QString PlotExporter::pdfText(const QString& text)
{
    // Superscript digits first ("²" → "^2"): NFKD would leave a bare "2".
    QString marked;
    marked.reserve(text.size());
    bool inSuperscript = false;
    for (const char32_t c : text.toUcs4()) {
        const char digit = superscriptAscii(c);
        if (digit != 0) {
            if (!inSuperscript) {
                marked += u'^';
            }
            marked += QLatin1Char(digit);
        } else if (c == U'µ') { // the micro sign of units ("µm" → "um"), not the Greek μ
            marked += u'u';
        } else {
            marked += QString::fromUcs4(&c, 1);
        }
        inSuperscript = digit != 0;
    }
    // NFKD: "₀" → "0", "ᶜ" → "c", "ẋ" → "x" + U+0307, "é" → "e" + U+0301, no-break space → " ".
    QString ascii;
    ascii.reserve(marked.size());
    for (const char32_t c : marked.normalized(QString::NormalizationForm_KD).toUcs4()) {
        if (c < 0x80) {
            ascii += QChar(static_cast<char16_t>(c));
        } else if (const char* spelled = asciiFor(c)) {
            ascii += QLatin1String(spelled);
        } else if (!isCombining(c)) {
            ascii += u'?';
        }
    }
    return escapedForPdfString(ascii);
}

bool PlotExporter::formatForPath(const QString& path, Format* format)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    Format found = Format::Png;
    if (suffix == QLatin1String("png")) {
        found = Format::Png;
    } else if (suffix == QLatin1String("svg")) {
        found = Format::Svg;
    } else if (suffix == QLatin1String("pdf")) {
        found = Format::Pdf;
    } else {
        return false;
    }
    if (format != nullptr) {
        *format = found;
    }
    return true;
}

bool PlotExporter::write(const PlotData& data, const QString& path, const Options& options,
                         QString* error)
{
    Format format = Format::Png;
    if (!formatForPath(path, &format)) {
        return fail(error, QStringLiteral("Cannot write the plot %1: unknown file type \"%2\" "
                                          "(use .png, .svg or .pdf)")
                               .arg(quoted(path), QFileInfo(path).suffix()));
    }
    if (options.size.width() <= 0 || options.size.height() <= 0) {
        return fail(error, QStringLiteral("Cannot write the plot %1: invalid size %2x%3")
                               .arg(quoted(path))
                               .arg(options.size.width())
                               .arg(options.size.height()));
    }
    // OpenGL renders nothing beyond its largest framebuffer (16384 per side on Mesa's llvmpipe
    // and the common floor of desktop drivers): the frame would come back blank and be blamed
    // on a missing OpenGL. Refuse with the real reason instead.
    constexpr int kMaxRenderSide = 16384;
    const double pixelScale =
        format == Format::Png && options.scale > 0.0 && std::isfinite(options.scale) ? options.scale
                                                                                     : 1.0;
    const double renderWidth = std::round(options.size.width() * pixelScale);
    const double renderHeight = std::round(options.size.height() * pixelScale);
    if (renderWidth > kMaxRenderSide || renderHeight > kMaxRenderSide) {
        return fail(error, QStringLiteral("Cannot write the plot %1: %2x%3 pixels is larger than "
                                          "OpenGL can render (at most %4 per side); choose a "
                                          "smaller size or scale")
                               .arg(quoted(path))
                               .arg(renderWidth, 0, 'f', 0)
                               .arg(renderHeight, 0, 'f', 0)
                               .arg(kMaxRenderSide));
    }
    const QFileInfo target(path);
    const QFileInfo directory(target.absolutePath());
    if (!directory.exists() || !directory.isDir()) {
        return fail(error, QStringLiteral("Cannot write the plot %1: the directory %2 does not "
                                          "exist")
                               .arg(quoted(path), quoted(directory.absoluteFilePath())));
    }
    if (!directory.isWritable()) {
        return fail(error, QStringLiteral("Cannot write the plot %1: no permission to write in "
                                          "the directory %2")
                               .arg(quoted(path), quoted(directory.absoluteFilePath())));
    }
    if (target.isDir()) {
        return fail(
            error, QStringLiteral("Cannot write the plot %1: it is a directory").arg(quoted(path)));
    }
    if (format == Format::Png) {
        return writePng(data, path, options, error);
    }
    return writeVector(data, path, format, options, error);
}

} // namespace clab
