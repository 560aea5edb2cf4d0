#include "panels/SystemFields.h"

#include "widgets/ExpressionField.h"

#include <symbolic/Notation.h>

#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace clab {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

SystemFields::SystemFields(const SystemDescription& draft, EditedHook edited, QObject* parent)
    : QObject(parent), draft_(draft), edited_(std::move(edited))
{
}

QString SystemFields::indexed(const QString& key, std::size_t i)
{
    return QStringLiteral("%1[%2]").arg(key).arg(i);
}

std::vector<std::string> SystemFields::splitTopLevel(const QString& text, std::vector<int>& starts)
{
    std::vector<std::string> parts;
    int depth = 0;
    int start = 0;
    starts.clear();
    auto push = [&](int end) {
        int first = start;
        while (first < end && text[first].isSpace())
            ++first;
        starts.push_back(first);
        parts.push_back(text.mid(start, end - start).trimmed().toStdString());
    };
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == QLatin1Char('('))
            ++depth;
        else if (c == QLatin1Char(')'))
            --depth;
        else if (c == QLatin1Char(',') && depth == 0) {
            push(i);
            start = i + 1;
        }
    }
    if (!text.trimmed().isEmpty())
        push(static_cast<int>(text.size()));
    return parts;
}

QString SystemFields::joinList(const std::vector<std::string>& items)
{
    QStringList list;
    for (const std::string& s : items)
        list << qs(s);
    return list.join(QStringLiteral(", "));
}

// --- Fields ---

QWidget* SystemFields::withMessage(QWidget* field, const QString& key)
{
    auto* box = new QWidget(field->parentWidget());
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(1);
    field->setParent(box);
    layout->addWidget(field);
    auto* message = new QLabel(box);
    message->setWordWrap(true);
    message->setStyleSheet(QStringLiteral("color: #b01c28;"));
    message->hide();
    layout->addWidget(message);
    field->setObjectName(key);
    entries_[key] = {field, message, 0};
    return box;
}

QWidget* SystemFields::expression(QWidget* parent, const QString& key, const std::string& text,
                                  Setter set, const QString& what, const QString& placeholder)
{
    auto* field = new ExpressionField(parent);
    field->setText(qs(text));
    field->setPlaceholderText(placeholder);
    field->setCompletions(completions());
    connect(field, &ExpressionField::textEdited, this, [this, set, what](const QString& t) {
        set(t.toStdString());
        edited_(what, true);
    });
    connect(field, &ExpressionField::editingFinished, this, [this] { endTyping(); });
    return withMessage(field, key);
}

QWidget* SystemFields::expressionList(QWidget* parent, const QString& key,
                                      const std::vector<std::string>& items,
                                      std::function<void(std::vector<std::string>)> set,
                                      const QString& what)
{
    auto* field = new ExpressionField(parent);
    field->setText(joinList(items));
    field->setCompletions(completions());
    field->setPlaceholderText(tr("expressions separated by commas"));
    QWidget* box = withMessage(field, key);
    // Each item's own key points at its place in the one field.
    auto registerItems = [this, key, field](const std::vector<int>& starts) {
        for (std::size_t i = 0; i < starts.size(); ++i)
            entries_[indexed(key, i)] = {field, entries_[key].message, starts[i]};
    };
    std::vector<int> starts;
    splitTopLevel(field->text(), starts);
    registerItems(starts);
    connect(field, &ExpressionField::textEdited, this,
            [this, set, what, registerItems](const QString& t) {
                std::vector<int> at;
                set(splitTopLevel(t, at));
                registerItems(at);
                edited_(what, true);
            });
    connect(field, &ExpressionField::editingFinished, this, [this] { endTyping(); });
    return box;
}

QWidget* SystemFields::plain(QWidget* parent, const QString& key, const std::string& text,
                             Setter set, const QString& what, const QString& placeholder)
{
    auto* field = new QLineEdit(qs(text), parent);
    field->setPlaceholderText(placeholder);
    connect(field, &QLineEdit::textEdited, this, [this, set, what](const QString& t) {
        set(t.trimmed().toStdString());
        edited_(what, true);
    });
    connect(field, &QLineEdit::editingFinished, this, [this] { endTyping(); });
    return withMessage(field, key);
}

std::optional<double> SystemFields::parseNumber(const QString& text, bool optional,
                                                QString& error) const
{
    error.clear();
    const QString t = text.trimmed();
    if (t.isEmpty()) {
        if (!optional)
            error = tr("give a number");
        return std::nullopt;
    }
    bool ok = false;
    const double v = t.toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
        error = tr("'%1' is not a number").arg(t);
        return std::nullopt;
    }
    return v;
}

QWidget* SystemFields::number(QWidget* parent, const QString& key, std::optional<double> value,
                              std::function<void(std::optional<double>)> set, const QString& what,
                              bool optional)
{
    auto* field = new QLineEdit(value ? QString::number(*value, 'g', 15) : QString(), parent);
    field->setPlaceholderText(optional ? tr("none") : QString());
    connect(field, &QLineEdit::textEdited, this,
            [this, key, set, what, optional](const QString& t) {
                QString error;
                const std::optional<double> v = parseNumber(t, optional, error);
                if (error.isEmpty()) {
                    numberErrors_.erase(key);
                    set(v);
                } else {
                    numberErrors_[key] = error;
                }
                edited_(what, true);
            });
    connect(field, &QLineEdit::editingFinished, this, [this] { endTyping(); });
    return withMessage(field, key);
}

QStringList SystemFields::completions() const
{
    QStringList words;
    for (const SystemDescription::Coordinate& c : draft_.coordinates)
        words << qs(c.name) << qs(c.name + "_dot");
    for (const SystemDescription::Parameter& p : draft_.parameters)
        words << qs(p.name);
    words << QStringLiteral("t");
    for (const std::string& f : Notation::functionNames())
        words << qs(f);
    words.removeDuplicates();
    return words;
}

void SystemFields::updateCompletions()
{
    const QStringList words = completions();
    for (auto& [key, entry] : entries_)
        if (auto* field = qobject_cast<ExpressionField*>(entry.widget))
            field->setCompletions(words);
}

// --- Finding fields by key ---

QWidget* SystemFields::field(const QString& key) const
{
    const auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : it->second.widget;
}

QLabel* SystemFields::message(const QString& key) const
{
    const auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : it->second.message;
}

void SystemFields::clear()
{
    entries_.clear();
}

void SystemFields::renameKeys(const QString& from, const QString& to)
{
    if (from == to)
        return;
    std::map<QString, Entry> renamed;
    for (auto& [key, entry] : entries_) {
        const bool inside = key == from || key.startsWith(from + QLatin1Char('.')) ||
                            key.startsWith(from + QLatin1Char('['));
        renamed[inside ? to + key.mid(from.size()) : key] = entry;
    }
    entries_ = std::move(renamed);
}

void SystemFields::rekey(QWidget* field, const QString& key)
{
    const auto it = std::find_if(entries_.begin(), entries_.end(),
                                 [field](const auto& e) { return e.second.widget == field; });
    if (it == entries_.end() || it->first == key)
        return;
    const Entry entry = it->second;
    entries_.erase(it);
    entries_[key] = entry;
    field->setObjectName(key);
}

// --- Problems ---

void SystemFields::clearMarks()
{
    for (auto& [key, entry] : entries_) {
        if (auto* field = qobject_cast<ExpressionField*>(entry.widget))
            field->clearError();
        else
            entry.widget->setStyleSheet({});
        entry.widget->setToolTip({});
        entry.message->hide();
    }
}

std::optional<QString> SystemFields::mark(const QString& key, const QString& reason, int column)
{
    auto found = entries_.find(key);
    for (QString k = key; found == entries_.end() && !k.isEmpty();) {
        const int cut = std::max(k.lastIndexOf(QLatin1Char('.')), k.lastIndexOf(QLatin1Char('[')));
        if (cut <= 0)
            break;
        k.truncate(cut);
        found = entries_.find(k);
    }
    if (found == entries_.end() && !key.isEmpty())
        found = std::find_if(entries_.begin(), entries_.end(),
                             [&](const auto& e) { return e.first.startsWith(key); });
    if (found == entries_.end())
        return std::nullopt;
    const Entry& entry = found->second;
    if (auto* field = qobject_cast<ExpressionField*>(entry.widget))
        field->setError(reason, column > 0 ? column + entry.offset : 0);
    else
        entry.widget->setStyleSheet(QStringLiteral("border: 1px solid #c01c28;"));
    entry.widget->setToolTip(reason);
    entry.message->setText(reason);
    entry.message->show();
    return found->first;
}

} // namespace clab
