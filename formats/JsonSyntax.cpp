#include "JsonSyntax.h"

#include "FileError.h"

#include <map>
#include <optional>
#include <vector>

namespace clab {

namespace {

// A recursive-descent reader of the RFC 8259 grammar that builds nothing but the keys of the
// object being read (for the duplicate check), and on request those of one object in order.
class Reader {
public:
    Reader(const QByteArray& json, const QString& source) : json_(json), source_(source) {}

    // Makes document() append the keys of the object at `path` to `keys`, in text order.
    void recordKeysAt(const QStringList& path, QStringList& keys)
    {
        target_ = &path;
        recorded_ = &keys;
    }

    void document()
    {
        if (json_.startsWith("\xEF\xBB\xBF"))
            pos_ = 3; // a UTF-8 byte order mark, which RFC 8259 lets a reader ignore
        whitespace();
        value(0);
        whitespace();
        if (pos_ < json_.size())
            fail(QStringLiteral("unexpected text after the end of the JSON value"));
    }

private:
    [[noreturn]] void fail(const QString& reason) const { failAt(pos_, reason); }

    [[noreturn]] void failAt(qsizetype offset, const QString& reason) const
    {
        const auto [line, column] = position(offset);
        throw FileError(FileError::Kind::Invalid, source_, QString(),
                        QStringLiteral("not valid JSON: line %1, column %2: %3")
                            .arg(line)
                            .arg(column)
                            .arg(reason));
    }

    // Line and column (in characters, counting a UTF-8 sequence once) of a byte offset.
    std::pair<int, int> position(qsizetype offset) const
    {
        int line = 1, column = 1;
        for (qsizetype i = 0; i < offset && i < json_.size(); ++i) {
            const auto c = static_cast<unsigned char>(json_[i]);
            if (c == '\n') {
                ++line;
                column = 1;
            } else if ((c & 0xC0) != 0x80) {
                ++column;
            }
        }
        return {line, column};
    }

    int peek() const { return pos_ < json_.size() ? static_cast<unsigned char>(json_[pos_]) : -1; }

    QString found() const
    {
        const int c = peek();
        if (c < 0)
            return QStringLiteral("the end of the file");
        if (c < 0x20 || c >= 0x7F)
            return QStringLiteral("byte 0x%1").arg(c, 2, 16, QLatin1Char('0'));
        return QStringLiteral("'%1'").arg(QChar(c));
    }

    void whitespace()
    {
        while (pos_ < json_.size()) {
            const char c = json_[pos_];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
                return;
            ++pos_;
        }
    }

    void expect(char c, const QString& what)
    {
        if (peek() != static_cast<unsigned char>(c))
            fail(QStringLiteral("expected %1, found %2").arg(what, found()));
        ++pos_;
    }

    void value(int depth)
    {
        if (depth > JsonSyntax::maxDepth)
            fail(QStringLiteral("nested more than %1 levels deep").arg(JsonSyntax::maxDepth));
        const int c = peek();
        if (c == '{')
            object(depth);
        else if (c == '[')
            array(depth);
        else if (c == '"')
            string();
        else if (c == '-' || (c >= '0' && c <= '9'))
            number();
        else if (c == '.')
            fail(QStringLiteral("a number must start with a digit (write 0.3, not .3)"));
        else if (!literal("true") && !literal("false") && !literal("null"))
            fail(QStringLiteral("expected a value (object, array, string, number, true, false "
                                "or null), found %1")
                     .arg(found()));
    }

    bool literal(const char* word)
    {
        const QByteArray w(word);
        if (json_.mid(pos_, w.size()) != w)
            return false;
        pos_ += w.size();
        return true;
    }

    bool atTarget() const
    {
        if (!target_ || path_.size() != static_cast<std::size_t>(target_->size()))
            return false;
        for (std::size_t i = 0; i < path_.size(); ++i)
            if (path_[i] != target_->at(static_cast<qsizetype>(i)))
                return false;
        return true;
    }

    void object(int depth)
    {
        std::map<QString, qsizetype> keys;
        const bool record = atTarget();
        sequence('}', QStringLiteral("object"), [&] {
            if (peek() != '"')
                fail(QStringLiteral("expected a key in double quotes, found %1").arg(found()));
            const qsizetype keyStart = pos_;
            const QString key = string();
            if (const auto it = keys.find(key); it != keys.end())
                failAt(keyStart,
                       QStringLiteral("duplicate key %1 (first at line %2); each key may appear "
                                      "once in an object")
                           .arg(FileError::quoted(key))
                           .arg(position(it->second).first));
            keys.emplace(key, keyStart);
            if (record)
                recorded_->append(key);
            whitespace();
            expect(':', QStringLiteral("':' after the key"));
            whitespace();
            path_.push_back(key);
            value(depth + 1);
            path_.pop_back();
        });
    }

    void array(int depth)
    {
        sequence(']', QStringLiteral("array"), [&] {
            path_.push_back(std::nullopt); // no path of member names leads into an array
            value(depth + 1);
            path_.pop_back();
        });
    }

    // The members of an object or the elements of an array, from the opening bracket at pos_
    // to the closing one: `element` reads one, commas separate them, none may trail.
    template <typename Element> void sequence(char close, const QString& what, Element element)
    {
        const qsizetype start = pos_;
        ++pos_; // '{' or '['
        whitespace();
        if (peek() == close) {
            ++pos_;
            return;
        }
        for (;;) {
            whitespace();
            element();
            whitespace();
            if (peek() == ',') {
                ++pos_;
                whitespace();
                if (peek() == close)
                    fail(QStringLiteral("a trailing comma before '%1' is not allowed").arg(close));
                continue;
            }
            if (peek() == close) {
                ++pos_;
                return;
            }
            if (peek() < 0)
                failAt(start,
                       QStringLiteral("this %1 is never closed with '%2'").arg(what).arg(close));
            fail(QStringLiteral("expected ',' or '%1', found %2").arg(close).arg(found()));
        }
    }

    void digits(const QString& where)
    {
        if (!(peek() >= '0' && peek() <= '9'))
            fail(QStringLiteral("expected a digit %1, found %2").arg(where, found()));
        while (peek() >= '0' && peek() <= '9')
            ++pos_;
    }

    void number()
    {
        if (peek() == '-')
            ++pos_;
        if (peek() == '0') {
            ++pos_;
            if (peek() >= '0' && peek() <= '9')
                fail(QStringLiteral("a number must not have leading zeros"));
        } else {
            digits(QStringLiteral("in the number"));
        }
        if (peek() == '.') {
            ++pos_;
            digits(QStringLiteral("after the decimal point (write 1.0 or 1, not 1.)"));
        }
        if (peek() == 'e' || peek() == 'E') {
            ++pos_;
            if (peek() == '+' || peek() == '-')
                ++pos_;
            digits(QStringLiteral("in the exponent"));
        }
    }

    // Reads a string (with the opening quote at pos_) and returns its decoded text.
    QString string()
    {
        const qsizetype start = pos_;
        ++pos_; // '"'
        QByteArray text;
        for (;;) {
            const int c = peek();
            if (c < 0)
                failAt(start, QStringLiteral("this string is never closed with '\"'"));
            if (c == '"') {
                ++pos_;
                return QString::fromUtf8(text);
            }
            if (c < 0x20)
                fail(QStringLiteral("a control character (0x%1) must be escaped inside a string "
                                    "(e.g. \\n, \\t or \\u00XX)")
                         .arg(c, 2, 16, QLatin1Char('0')));
            if (c == '\\') {
                escape(text);
            } else if (c < 0x80) {
                text += static_cast<char>(c);
                ++pos_;
            } else {
                utf8(text);
            }
        }
    }

    void escape(QByteArray& text)
    {
        ++pos_; // '\'
        const int c = peek();
        static const QByteArray simple = "\"\\/bfnrt";
        static const QByteArray decoded = "\"\\/\b\f\n\r\t";
        if (c >= 0 && simple.contains(static_cast<char>(c))) {
            text += decoded[simple.indexOf(static_cast<char>(c))];
            ++pos_;
            return;
        }
        if (c != 'u')
            fail(QStringLiteral("unknown escape \\%1 in a string (allowed: \\\" \\\\ \\/ \\b \\f "
                                "\\n \\r \\t \\uXXXX)")
                     .arg(c < 0x20 || c >= 0x7F ? QStringLiteral("?") : QString(QChar(c))));
        ++pos_;
        char16_t unit = 0;
        for (int i = 0; i < 4; ++i) {
            const int h = peek();
            int v = -1;
            if (h >= '0' && h <= '9')
                v = h - '0';
            else if (h >= 'a' && h <= 'f')
                v = h - 'a' + 10;
            else if (h >= 'A' && h <= 'F')
                v = h - 'A' + 10;
            if (v < 0)
                fail(QStringLiteral("\\u must be followed by four hexadecimal digits"));
            unit = static_cast<char16_t>(unit * 16 + v);
            ++pos_;
        }
        text += QString(QChar(unit)).toUtf8();
    }

    // One multi-byte UTF-8 sequence, checked (RFC 8259 §8.1: JSON text is UTF-8).
    void utf8(QByteArray& text)
    {
        const auto lead = static_cast<unsigned char>(json_[pos_]);
        int length = 0;
        unsigned min = 0;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
            min = 0x80;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            min = 0x800;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            min = 0x10000;
        } else {
            fail(QStringLiteral("invalid UTF-8 (byte 0x%1); save the file as UTF-8")
                     .arg(lead, 2, 16, QLatin1Char('0')));
        }
        unsigned code = lead & (0xFF >> (length + 1));
        for (int i = 1; i < length; ++i) {
            const qsizetype at = pos_ + i;
            const auto next = at < json_.size() ? static_cast<unsigned char>(json_[at]) : 0u;
            if ((next & 0xC0) != 0x80)
                fail(QStringLiteral("invalid UTF-8 sequence; save the file as UTF-8"));
            code = (code << 6) | (next & 0x3F);
        }
        if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
            fail(QStringLiteral("invalid UTF-8 sequence; save the file as UTF-8"));
        text += json_.mid(pos_, length);
        pos_ += length;
    }

    const QByteArray& json_;
    const QString& source_;
    qsizetype pos_ = 0;
    std::vector<std::optional<QString>> path_; // member names from the root to pos_
    const QStringList* target_ = nullptr;
    QStringList* recorded_ = nullptr;
};

} // namespace

void JsonSyntax::check(const QByteArray& json, const QString& source)
{
    Reader(json, source).document();
}

QStringList JsonSyntax::keyOrder(const QByteArray& json, const QStringList& path)
{
    const QString source;
    Reader reader(json, source);
    QStringList keys;
    reader.recordKeysAt(path, keys);
    reader.document();
    return keys;
}

} // namespace clab
