#include "panels/SystemEditor.h"

#include "panels/PanelContent.h"
#include "session/SceneSession.h"
#include "widgets/ExpressionField.h"

#include <model/ConstraintLabError.h>
#include <symbolic/Notation.h>
#include <symbolic/SymbolicModel.h>
#include <symbolic/SystemError.h>

#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace clab {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString indexed(const QString& key, std::size_t i)
{
    return QStringLiteral("%1[%2]").arg(key).arg(i);
}

/// Splits "a, atan2(y, x)" at the commas outside parentheses; `starts` gets each part's first
/// column (0-based) in `text`.
std::vector<std::string> splitTopLevel(const QString& text, std::vector<int>& starts)
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

QString joinList(const std::vector<std::string>& items)
{
    QStringList list;
    for (const std::string& s : items)
        list << qs(s);
    return list.join(QStringLiteral(", "));
}

QToolButton* smallButton(QWidget* parent, const QString& text, const QString& tip)
{
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    return button;
}

/// A name not yet in `taken`: stem1, stem2, ...
template <typename Names> std::string freshName(const std::string& stem, const Names& taken)
{
    for (int i = 1;; ++i) {
        const std::string name = stem + std::to_string(i);
        if (std::none_of(taken.begin(), taken.end(), [&](const auto& n) { return n == name; }))
            return name;
    }
}

} // namespace

SystemEditor::SystemEditor(SceneSession* session, QWidget* parent)
    : QWidget(parent), session_(session)
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("systemProblem"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setStyleSheet(QStringLiteral(
        "QLabel { background: #fdecea; color: #7a1c1c; padding: 4px; border-radius: 3px; }"));
    summary_->hide();
    outer->addWidget(summary_);
    layout_ = new QVBoxLayout;
    layout_->setContentsMargins(0, 0, 0, 0);
    outer->addLayout(layout_, 1);

    connect(session_, &SceneSession::documentReset, this, &SystemEditor::sessionReset);
    connect(session_, &SceneSession::systemChanged, this, &SystemEditor::sessionSystemChanged);
    connect(session_, &SceneSession::valueChanged, this, &SystemEditor::parameterChanged);
    sessionReset();
}

// --- Following the session ---

SystemDescription SystemEditor::draftFromDocument() const
{
    const SceneDocument& document = session_->document();
    if (!document.system)
        return {};
    SystemDescription d = document.system->description();
    for (SystemDescription::Parameter& p : d.parameters) {
        const auto it = document.parameters.find(p.name);
        if (it != document.parameters.end() && !it->second.empty())
            p.value = it->second.front();
    }
    return d;
}

bool SystemEditor::hasUnappliedEdits() const
{
    return session_->document().system && (draft_ != draftFromDocument() || !numberErrors_.empty());
}

void SystemEditor::sessionReset()
{
    const SceneDocument& document = session_->document();
    draft_ = draftFromDocument();
    title_ = document.system ? document.system->definition().title : std::string();
    notes_ = document.system ? document.system->definition().description : std::string();
    numberErrors_.clear();
    rebuild();
}

void SystemEditor::sessionSystemChanged()
{
    if (applying_)
        return; // our own edit: the fields already show it
    // Undo or redo: the fields show the document's system again.
    sessionReset();
}

void SystemEditor::parameterChanged(const QString& key)
{
    // A slider in the Scene dock moved: the value field shows the new value.
    const std::string name = key.toStdString();
    for (SystemDescription::Parameter& p : draft_.parameters) {
        if (p.name != name)
            continue;
        const std::vector<double> value = session_->value(key);
        if (value.empty())
            return;
        p.value = value.front();
        if (auto* edit = qobject_cast<QLineEdit*>(field(key + QStringLiteral(".value"))))
            edit->setText(QString::number(p.value, 'g', 15));
    }
}

// --- Fields ---

QWidget* SystemEditor::withMessage(QWidget* field, const QString& key)
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

QWidget* SystemEditor::expression(QWidget* parent, const QString& key, const std::string& text,
                                  Setter set, const QString& what, const QString& placeholder)
{
    auto* field = new ExpressionField(parent);
    field->setText(qs(text));
    field->setPlaceholderText(placeholder);
    field->setCompletions(completions());
    connect(field, &ExpressionField::textEdited, this, [this, set, what](const QString& t) {
        set(t.toStdString());
        edited(what, true);
    });
    connect(field, &ExpressionField::editingFinished, this, [this] { ++typing_; });
    return withMessage(field, key);
}

QWidget* SystemEditor::expressionList(QWidget* parent, const QString& key,
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
                edited(what, true);
            });
    connect(field, &ExpressionField::editingFinished, this, [this] { ++typing_; });
    return box;
}

QWidget* SystemEditor::plain(QWidget* parent, const QString& key, const std::string& text,
                             Setter set, const QString& what, const QString& placeholder)
{
    auto* field = new QLineEdit(qs(text), parent);
    field->setPlaceholderText(placeholder);
    connect(field, &QLineEdit::textEdited, this, [this, set, what](const QString& t) {
        set(t.trimmed().toStdString());
        edited(what, true);
    });
    connect(field, &QLineEdit::editingFinished, this, [this] { ++typing_; });
    return withMessage(field, key);
}

std::optional<double> SystemEditor::parseNumber(const QString& text, bool optional,
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

QWidget* SystemEditor::number(QWidget* parent, const QString& key, std::optional<double> value,
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
                edited(what, true);
            });
    connect(field, &QLineEdit::editingFinished, this, [this] { ++typing_; });
    return withMessage(field, key);
}

QStringList SystemEditor::completions() const
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

QWidget* SystemEditor::field(const QString& key) const
{
    const auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : it->second.widget;
}

QLabel* SystemEditor::message(const QString& key) const
{
    const auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : it->second.message;
}

// --- Checking and applying ---

void SystemEditor::edited(const QString& what, bool typing)
{
    const int mergeId = typing ? typing_ : 0;
    if (!typing)
        ++typing_;
    clearProblems();
    updateCompletions();
    if (!numberErrors_.empty()) {
        const auto& [key, error] = *numberErrors_.begin();
        showProblem(key, error, 0);
        return;
    }
    std::shared_ptr<const SymbolicModel> model;
    try {
        model = SymbolicModel::create(draft_, title_, notes_);
    } catch (const SystemError& e) {
        showProblem(qs(e.key()), qs(e.reason()), e.position());
        return;
    } catch (const std::exception& e) {
        showProblem(QString(), qs(e.what()), 0);
        return;
    }
    SceneDocument document = session_->document();
    document.system = SystemRef{model};
    document.parameters.clear();
    for (const SystemDescription::Parameter& p : draft_.parameters)
        document.parameters[p.name] = {p.value};
    applying_ = true;
    try {
        session_->editSystem(document, what, mergeId);
    } catch (const ConstraintLabError& e) {
        showProblem(QString(), qs(e.what()), 0);
    }
    applying_ = false;
}

void SystemEditor::restructure(const QString& what, const std::function<void()>& change)
{
    change();
    ++typing_;
    rebuild();
    edited(what, false);
}

void SystemEditor::clearProblems()
{
    for (auto& [key, entry] : entries_) {
        if (auto* field = qobject_cast<ExpressionField*>(entry.widget))
            field->clearError();
        else
            entry.widget->setStyleSheet({});
        entry.widget->setToolTip({});
        entry.message->hide();
    }
    setProblem({}, {});
}

void SystemEditor::showProblem(const QString& key, const QString& reason, int column)
{
    // The field of the key itself, else of the nearest enclosing key ("system.friction[0]"
    // for "system.friction[0].normal"), else the first field inside it.
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
    if (found == entries_.end()) {
        setProblem(key.isEmpty() ? reason : key + QStringLiteral(": ") + reason, {});
        return;
    }
    const Entry& entry = found->second;
    const QString located = column > 0 ? tr("column %1: %2").arg(column).arg(reason) : reason;
    if (auto* field = qobject_cast<ExpressionField*>(entry.widget))
        field->setError(reason, column > 0 ? column + entry.offset : 0);
    else
        entry.widget->setStyleSheet(QStringLiteral("border: 1px solid #c01c28;"));
    entry.widget->setToolTip(reason);
    entry.message->setText(reason);
    entry.message->show();
    setProblem(key + QStringLiteral(": ") + located, found->first);
}

void SystemEditor::setProblem(const QString& problem, const QString& key)
{
    problemKey_ = key;
    if (problem == problem_)
        return;
    problem_ = problem;
    summary_->setText(
        problem.isEmpty()
            ? QString()
            : tr("Not applied (the last valid system keeps running): %1").arg(problem));
    summary_->setVisible(!problem.isEmpty());
    emit problemChanged(problem);
}

namespace {

QGroupBox* section(QWidget* parent, QVBoxLayout* layout, const QString& title)
{
    auto* box = new QGroupBox(title, parent);
    auto* inner = new QVBoxLayout(box);
    inner->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(box);
    return box;
}

/// A form inside `box`, added first: QFormLayout gives the labels it makes the layout's widget
/// as parent, and a label made without one would never show.
QFormLayout* formIn(QGroupBox* box)
{
    auto* form = new QFormLayout;
    qobject_cast<QVBoxLayout*>(box->layout())->addLayout(form);
    return form;
}

QLabel* header(QWidget* parent, const QString& text)
{
    auto* label = new QLabel(text, parent);
    QFont font = label->font();
    font.setItalic(true);
    label->setFont(font);
    return label;
}

} // namespace

void SystemEditor::rebuild()
{
    entries_.clear();
    coordinateLabels_.clear();
    QVBoxLayout* layout = PanelContent::renew(layout_, content_, this);
    setProblem({}, {});
    const SceneDocument& document = session_->document();
    if (!document.system) {
        const SceneDefinition* definition = session_->definition();
        auto* label = new QLabel(
            tr("<b>%1</b> is a built-in scene, coded by hand. Duplicate it as a system written "
               "as equations to see its equations and change them.")
                .arg(definition ? qs(definition->title).toHtmlEscaped() : tr("This scene")),
            content_);
        label->setWordWrap(true);
        layout->addWidget(label);
        auto* button = new QPushButton(tr("Duplicate as Editable System"), content_);
        button->setObjectName(QStringLiteral("duplicateButton"));
        connect(button, &QPushButton::clicked, this, &SystemEditor::duplicateRequested);
        layout->addWidget(button);
        layout->addStretch(1);
        return;
    }
    buildCoordinates(layout);
    buildParameters(layout);
    buildEnergies(layout);
    buildForcesAndInitial(layout);
    buildConstraints(layout);
    buildFriction(layout);
    buildView(layout);
    if (!draft_.columns.empty() || !draft_.nonideal.empty()) {
        auto* kept =
            new QLabel(tr("Kept as the file states them: %1 extra trace column(s)%2.")
                           .arg(draft_.columns.size())
                           .arg(draft_.nonideal.empty() ? QString()
                                                        : tr(" and the general non-ideal force C")),
                       content_);
        kept->setWordWrap(true);
        layout->addWidget(kept);
    }
    layout->addStretch(1);
}

void SystemEditor::buildCoordinates(QVBoxLayout* layout)
{
    QGroupBox* box = section(content_, layout, tr("Coordinates q"));
    auto* grid = new QGridLayout;
    grid->addWidget(header(box, tr("Name")), 0, 0);
    grid->addWidget(header(box, tr("Unit")), 0, 1);
    const int n = static_cast<int>(draft_.coordinates.size());
    for (int i = 0; i < n; ++i) {
        const QString key = indexed(QStringLiteral("system.coordinates"), i);
        const SystemDescription::Coordinate& c = draft_.coordinates[i];
        grid->addWidget(plain(
                            box, key, c.name,
                            [this, i](const std::string& name) {
                                std::string& old = draft_.coordinates[i].name;
                                for (SystemDescription::Named& f : draft_.forces)
                                    if (f.name == old)
                                        f.name = name;
                                for (SystemDescription::Named& v : draft_.initial)
                                    if (v.name == old || v.name == old + "_dot")
                                        v.name = name + v.name.substr(old.size());
                                for (const char* list : {"system.forces.", "system.initial."}) {
                                    renameKeys(qs(list + old), qs(list + name));
                                    renameKeys(qs(list + old + "_dot"), qs(list + name + "_dot"));
                                }
                                old = name;
                                for (const auto& [label, index, pattern] : coordinateLabels_)
                                    if (index == i)
                                        label->setText(pattern.arg(qs(name)));
                            },
                            tr("Rename coordinate")),
                        i + 1, 0);
        grid->addWidget(
            plain(
                box, key + QStringLiteral(".unit"), c.unit,
                [this, i](const std::string& unit) { draft_.coordinates[i].unit = unit; },
                tr("Change the unit of %1").arg(qs(c.name)), tr("none")),
            i + 1, 1);
        QToolButton* remove = smallButton(box, QStringLiteral("✕"), tr("Remove this coordinate"));
        remove->setEnabled(n > 1);
        connect(remove, &QToolButton::clicked, this, [this, i] {
            restructure(tr("Remove coordinate %1").arg(qs(draft_.coordinates[i].name)), [this, i] {
                const std::string name = draft_.coordinates[i].name;
                draft_.coordinates.erase(draft_.coordinates.begin() + i);
                if (i < static_cast<int>(draft_.masses.size()))
                    draft_.masses.erase(draft_.masses.begin() + i);
                if (i < static_cast<int>(draft_.massMatrix.size())) {
                    draft_.massMatrix.erase(draft_.massMatrix.begin() + i);
                    for (auto& row : draft_.massMatrix)
                        if (i < static_cast<int>(row.size()))
                            row.erase(row.begin() + i);
                }
                setNamed(draft_.forces, name, {});
                setNamed(draft_.initial, name, {});
                setNamed(draft_.initial, name + "_dot", {});
            });
        });
        grid->addWidget(remove, i + 1, 2, Qt::AlignTop);
    }
    grid->setColumnStretch(0, 2);
    grid->setColumnStretch(1, 1);
    box->layout()->addItem(grid);
    auto* add = new QPushButton(tr("Add Coordinate"), box);
    add->setObjectName(QStringLiteral("addCoordinate"));
    connect(add, &QPushButton::clicked, this, [this] {
        restructure(tr("Add a coordinate"), [this] {
            std::vector<std::string> taken;
            for (const auto& c : draft_.coordinates)
                taken.push_back(c.name);
            draft_.coordinates.push_back({freshName("q", taken), "m"});
            if (!draft_.masses.empty())
                draft_.masses.push_back("1");
            if (!draft_.massMatrix.empty()) {
                for (auto& row : draft_.massMatrix)
                    row.push_back("0");
                draft_.massMatrix.emplace_back(draft_.coordinates.size(), "0");
                draft_.massMatrix.back().back() = "1";
            }
        });
    });
    box->layout()->addWidget(add);
}

void SystemEditor::buildParameters(QVBoxLayout* layout)
{
    QGroupBox* box = section(content_, layout, tr("Parameters"));
    auto* grid = new QGridLayout;
    const QStringList titles{tr("Name"), tr("Value"), tr("Unit"), tr("Min"), tr("Max")};
    for (int c = 0; c < titles.size(); ++c)
        grid->addWidget(header(box, titles[c]), 0, c);
    for (int i = 0; i < static_cast<int>(draft_.parameters.size()); ++i) {
        const SystemDescription::Parameter& p = draft_.parameters[i];
        const QString key = QStringLiteral("system.parameters.") + qs(p.name);
        auto param = [this, i]() -> SystemDescription::Parameter& {
            return draft_.parameters[i];
        };
        grid->addWidget(plain(
                            box, key + QStringLiteral(".name"), p.name,
                            [this, param](const std::string& name) {
                                const QString from =
                                    QStringLiteral("system.parameters.") + qs(param().name);
                                renameKeys(from, QStringLiteral("system.parameters.") + qs(name));
                                param().name = name;
                            },
                            tr("Rename parameter")),
                        i + 1, 0);
        grid->addWidget(number(
                            box, key, p.value,
                            [param](std::optional<double> v) { param().value = *v; },
                            tr("Set %1").arg(qs(p.name))),
                        i + 1, 1);
        grid->addWidget(plain(
                            box, key + QStringLiteral(".unit"), p.unit,
                            [param](const std::string& unit) { param().unit = unit; },
                            tr("Change the unit of %1").arg(qs(p.name))),
                        i + 1, 2);
        grid->addWidget(number(
                            box, key + QStringLiteral(".min"), p.min,
                            [param](std::optional<double> v) { param().min = v; },
                            tr("Change the range of %1").arg(qs(p.name)), true),
                        i + 1, 3);
        grid->addWidget(number(
                            box, key + QStringLiteral(".max"), p.max,
                            [param](std::optional<double> v) { param().max = v; },
                            tr("Change the range of %1").arg(qs(p.name)), true),
                        i + 1, 4);
        QToolButton* remove = smallButton(box, QStringLiteral("✕"), tr("Remove this parameter"));
        connect(remove, &QToolButton::clicked, this, [this, i] {
            restructure(tr("Remove parameter %1").arg(qs(draft_.parameters[i].name)),
                        [this, i] { draft_.parameters.erase(draft_.parameters.begin() + i); });
        });
        grid->addWidget(remove, i + 1, 5, Qt::AlignTop);
    }
    // Every column stretches, so that none keeps a line edit's wide default width.
    for (const auto& [column, stretch] : {std::pair{0, 3}, {1, 3}, {2, 2}, {3, 2}, {4, 2}})
        grid->setColumnStretch(column, stretch);
    box->layout()->addItem(grid);
    auto* add = new QPushButton(tr("Add Parameter"), box);
    add->setObjectName(QStringLiteral("addParameter"));
    add->setToolTip(tr("A parameter with a range gets a slider in the Scene dock"));
    connect(add, &QPushButton::clicked, this, [this] {
        restructure(tr("Add a parameter"), [this] {
            std::vector<std::string> taken;
            for (const auto& p : draft_.parameters)
                taken.push_back(p.name);
            for (const auto& c : draft_.coordinates)
                taken.push_back(c.name);
            draft_.parameters.push_back(
                SystemDescription::Parameter::plain(freshName("p", taken), 1.0));
        });
    });
    box->layout()->addWidget(add);
}

void SystemEditor::buildEnergies(QVBoxLayout* layout)
{
    QGroupBox* box = section(content_, layout, tr("Energies"));
    auto* form = formIn(box);
    auto* mass = new QComboBox(box);
    mass->setObjectName(QStringLiteral("massForm"));
    mass->addItems({tr("Kinetic energy T"), tr("One mass per coordinate"), tr("Mass matrix M")});
    const int current = !draft_.masses.empty() ? 1 : !draft_.massMatrix.empty() ? 2 : 0;
    mass->setCurrentIndex(current);
    connect(mass, &QComboBox::activated, this, [this, current](int form) {
        if (form != current)
            setMassForm(form);
    });
    form->addRow(tr("Mass given as"), mass);
    if (current == 0) {
        form->addRow(QStringLiteral("T ="),
                     expression(
                         box, QStringLiteral("system.kinetic_energy"), draft_.kineticEnergy,
                         [this](const std::string& e) { draft_.kineticEnergy = e; },
                         tr("Edit the kinetic energy"), tr("e.g. m*(x_dot^2 + y_dot^2)/2")));
    } else if (current == 1) {
        for (std::size_t i = 0; i < draft_.masses.size(); ++i) {
            auto* label = new QLabel(box);
            const QString pattern = tr("mass of %1 =");
            label->setText(pattern.arg(qs(draft_.coordinates[i].name)));
            coordinateLabels_.emplace_back(label, static_cast<int>(i), pattern);
            form->addRow(label,
                         expression(
                             box, indexed(QStringLiteral("system.masses"), i), draft_.masses[i],
                             [this, i](const std::string& e) { draft_.masses[i] = e; },
                             tr("Edit a mass")));
        }
    } else {
        buildMassMatrix(form);
    }
    form->addRow(QStringLiteral("V ="),
                 expression(
                     box, QStringLiteral("system.potential_energy"), draft_.potentialEnergy,
                     [this](const std::string& e) { draft_.potentialEnergy = e; },
                     tr("Edit the potential energy"), tr("e.g. m*g*y (empty: none)")));
}

void SystemEditor::buildMassMatrix(QFormLayout* form)
{
    auto* grid = new QGridLayout;
    const QString key = QStringLiteral("system.mass_matrix");
    for (std::size_t i = 0; i < draft_.massMatrix.size(); ++i)
        for (std::size_t j = 0; j < draft_.massMatrix[i].size(); ++j)
            grid->addWidget(expression(
                                form->parentWidget(), indexed(indexed(key, i), j),
                                draft_.massMatrix[i][j],
                                [this, i, j](const std::string& e) { draft_.massMatrix[i][j] = e; },
                                tr("Edit the mass matrix")),
                            static_cast<int>(i), static_cast<int>(j));
    form->addRow(QStringLiteral("M ="), grid);
}

void SystemEditor::buildForcesAndInitial(QVBoxLayout* layout)
{
    QGroupBox* box = section(content_, layout, tr("Forces and initial values"));
    auto* grid = new QGridLayout;
    grid->addWidget(header(box, tr("Extra force")), 0, 1);
    grid->addWidget(header(box, tr("At start")), 0, 2);
    grid->addWidget(header(box, tr("Velocity at start")), 0, 3);
    auto find = [](const std::vector<SystemDescription::Named>& list, const std::string& name) {
        const auto it =
            std::find_if(list.begin(), list.end(), [&](const auto& e) { return e.name == name; });
        return it == list.end() ? std::string() : it->expression;
    };
    for (int i = 0; i < static_cast<int>(draft_.coordinates.size()); ++i) {
        const std::string name = draft_.coordinates[i].name;
        auto* label = new QLabel(qs(name), box);
        coordinateLabels_.emplace_back(label, i, QStringLiteral("%1"));
        grid->addWidget(label, i + 1, 0, Qt::AlignTop);
        auto coordinate = [this, i] {
            return draft_.coordinates[i].name;
        };
        grid->addWidget(expression(
                            box, QStringLiteral("system.forces.") + qs(name),
                            find(draft_.forces, name),
                            [this, coordinate](const std::string& e) {
                                setNamed(draft_.forces, coordinate(), e);
                            },
                            tr("Edit a force"), tr("0")),
                        i + 1, 1);
        grid->addWidget(expression(
                            box, QStringLiteral("system.initial.") + qs(name),
                            find(draft_.initial, name),
                            [this, coordinate](const std::string& e) {
                                setNamed(draft_.initial, coordinate(), e);
                            },
                            tr("Edit an initial value"), tr("computed")),
                        i + 1, 2);
        grid->addWidget(expression(
                            box, QStringLiteral("system.initial.") + qs(name + "_dot"),
                            find(draft_.initial, name + "_dot"),
                            [this, coordinate](const std::string& e) {
                                setNamed(draft_.initial, coordinate() + "_dot", e);
                            },
                            tr("Edit an initial value"), tr("computed")),
                        i + 1, 3);
    }
    for (int c = 1; c <= 3; ++c)
        grid->setColumnStretch(c, 1);
    box->layout()->addItem(grid);
    auto* note = new QLabel(tr("Initial values left empty are computed so that the constraints "
                               "hold; the status bar says what was computed."),
                            box);
    note->setWordWrap(true);
    box->layout()->addWidget(note);
    auto* end = formIn(box);
    end->addRow(tr("Runs while"), expression(
                                      box, QStringLiteral("system.end"), draft_.end,
                                      [this](const std::string& e) { draft_.end = e; },
                                      tr("Edit the end of the motion"), tr("> 0 (empty: always)")));
}

void SystemEditor::buildConstraints(QVBoxLayout* layout)
{
    QGroupBox* box = section(content_, layout, tr("Constraints"));
    auto* grid = new QGridLayout;
    grid->addWidget(header(box, tr("Name")), 0, 0);
    grid->addWidget(header(box, tr("Kind")), 0, 1);
    const int m = static_cast<int>(draft_.constraints.size());
    for (int i = 0; i < m; ++i) {
        const SystemDescription::Constraint& c = draft_.constraints[i];
        const QString key = indexed(QStringLiteral("system.constraints"), i);
        const QString label = c.name.empty() ? tr("constraint %1").arg(i + 1) : qs(c.name);
        grid->addWidget(plain(
                            box, key + QStringLiteral(".name"), c.name,
                            [this, i](const std::string& n) { draft_.constraints[i].name = n; },
                            tr("Rename constraint"), tr("unnamed")),
                        2 * i + 1, 0);
        auto* kind = new QComboBox(box);
        kind->addItems({tr("holonomic φ(q, t)"), tr("velocity ψ(q, q̇, t)")});
        kind->setObjectName(key + QStringLiteral(".kind"));
        const bool holonomic = c.kind == SystemDescription::Constraint::Kind::Holonomic;
        kind->setCurrentIndex(holonomic ? 0 : 1);
        connect(kind, &QComboBox::activated, this, [this, i, label](int index) {
            restructure(tr("Change the kind of %1").arg(label), [this, i, index] {
                draft_.constraints[i].kind = index == 0
                                                 ? SystemDescription::Constraint::Kind::Holonomic
                                                 : SystemDescription::Constraint::Kind::Velocity;
            });
        });
        grid->addWidget(kind, 2 * i + 1, 1, Qt::AlignTop);
        grid->addWidget(
            expression(
                box, key + (holonomic ? QStringLiteral(".holonomic") : QStringLiteral(".velocity")),
                c.expression,
                [this, i](const std::string& e) { draft_.constraints[i].expression = e; },
                tr("Edit %1").arg(label),
                holonomic ? tr("φ(q, t), zero on the constraint") : tr("ψ(q, q̇, t), linear in q̇")),
            2 * i + 2, 0, 1, 3); // the expression gets the whole width, under its name
        auto* buttons = new QHBoxLayout;
        buttons->setSpacing(0);
        auto move = [this, i](int to, const QString& what) {
            restructure(
                what, [this, i, to] { std::swap(draft_.constraints[i], draft_.constraints[to]); });
        };
        QToolButton* up = smallButton(box, QStringLiteral("▲"), tr("Move up"));
        up->setEnabled(i > 0);
        connect(up, &QToolButton::clicked, this,
                [move, i, label] { move(i - 1, QObject::tr("Move %1 up").arg(label)); });
        QToolButton* down = smallButton(box, QStringLiteral("▼"), tr("Move down"));
        down->setEnabled(i + 1 < m);
        connect(down, &QToolButton::clicked, this,
                [move, i, label] { move(i + 1, QObject::tr("Move %1 down").arg(label)); });
        QToolButton* remove = smallButton(box, QStringLiteral("✕"), tr("Remove this constraint"));
        connect(remove, &QToolButton::clicked, this, [this, i, label] {
            restructure(tr("Remove %1").arg(label),
                        [this, i] { draft_.constraints.erase(draft_.constraints.begin() + i); });
        });
        for (QToolButton* b : {up, down, remove})
            buttons->addWidget(b);
        grid->addLayout(buttons, 2 * i + 1, 2, Qt::AlignTop);
    }
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    box->layout()->addItem(grid);
    auto* add = new QPushButton(tr("Add Constraint"), box);
    add->setObjectName(QStringLiteral("addConstraint"));
    connect(add, &QPushButton::clicked, this, [this] {
        restructure(tr("Add a constraint"), [this] {
            std::vector<std::string> taken;
            for (const auto& c : draft_.constraints)
                taken.push_back(c.name);
            draft_.constraints.push_back(
                {freshName("c", taken), SystemDescription::Constraint::Kind::Holonomic, {}});
        });
    });
    box->layout()->addWidget(add);
}

void SystemEditor::buildFriction(QVBoxLayout* layout)
{
    QGroupBox* box = section(content_, layout, tr("Friction"));
    for (int i = 0; i < static_cast<int>(draft_.friction.size()); ++i) {
        const SystemDescription::Friction& f = draft_.friction[i];
        const QString key = indexed(QStringLiteral("system.friction"), i);
        auto contact = [this, i]() -> SystemDescription::Friction& {
            return draft_.friction[i];
        };
        const QString what = tr("Edit friction %1").arg(qs(f.name));
        auto* form = formIn(box);
        auto* nameRow = new QHBoxLayout;
        nameRow->addWidget(plain(
            box, key + QStringLiteral(".name"), f.name,
            [contact](const std::string& n) { contact().name = n; }, what));
        QToolButton* remove = smallButton(box, QStringLiteral("✕"), tr("Remove this contact"));
        connect(remove, &QToolButton::clicked, this, [this, i] {
            restructure(tr("Remove friction %1").arg(qs(draft_.friction[i].name)),
                        [this, i] { draft_.friction.erase(draft_.friction.begin() + i); });
        });
        nameRow->addWidget(remove, 0, Qt::AlignTop);
        form->addRow(tr("Contact"), nameRow);
        form->addRow(tr("Slip velocity"),
                     expressionList(
                         box, key + QStringLiteral(".slip"), f.slip,
                         [contact](std::vector<std::string> v) { contact().slip = v; }, what));
        form->addRow(tr("Pressed by"),
                     plain(
                         box, key + QStringLiteral(".normal"), joinList(f.normal).toStdString(),
                         [contact](const std::string& text) {
                             std::vector<int> starts;
                             contact().normal = splitTopLevel(qs(text), starts);
                         },
                         what, tr("constraint names; empty: all")));
        form->addRow(QStringLiteral("μ"), expression(
                                              box, key + QStringLiteral(".mu"), f.mu,
                                              [contact](const std::string& e) { contact().mu = e; },
                                              what, tr("Coulomb friction")));
        form->addRow(QStringLiteral("μₛ"),
                     expression(
                         box, key + QStringLiteral(".mu_s"), f.muStatic,
                         [contact](const std::string& e) { contact().muStatic = e; }, what,
                         tr("empty: equal to μ")));
        form->addRow(tr("Drag"), expression(
                                     box, key + QStringLiteral(".magnitude"), f.magnitude,
                                     [contact](const std::string& e) { contact().magnitude = e; },
                                     what, tr("instead of μ: a force of constant size")));
    }
    auto* add = new QPushButton(tr("Add Friction Contact"), box);
    add->setObjectName(QStringLiteral("addFriction"));
    connect(add, &QPushButton::clicked, this, [this] {
        restructure(tr("Add a friction contact"), [this] {
            std::vector<std::string> taken;
            for (const auto& f : draft_.friction)
                taken.push_back(f.name);
            SystemDescription::Friction f;
            f.name = freshName("contact", taken);
            f.mu = "0.1";
            draft_.friction.push_back(f);
        });
    });
    box->layout()->addWidget(add);
}

void SystemEditor::buildView(QVBoxLayout* layout)
{
    QGroupBox* box = section(content_, layout, tr("View"));
    auto* upRow = formIn(box);
    auto* up = new QComboBox(box);
    up->setObjectName(QStringLiteral("viewUp"));
    up->addItems({QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z")});
    up->setCurrentIndex(draft_.up == 'x' ? 0 : draft_.up == 'z' ? 2 : 1);
    connect(up, &QComboBox::activated, this, [this](int index) {
        draft_.up = "xyz"[index];
        edited(tr("Change the view's up axis"), false);
    });
    upRow->addRow(tr("Upwards on screen"), up);
    auto* points = new QGridLayout;
    const QStringList titles{tr("Point"), QStringLiteral("x"), QStringLiteral("y"),
                             QStringLiteral("z")};
    for (int c = 0; c < titles.size(); ++c)
        points->addWidget(header(box, titles[c]), 0, c);
    for (int i = 0; i < static_cast<int>(draft_.points.size()); ++i) {
        const QString key = indexed(QStringLiteral("view.points"), i);
        SystemDescription::ViewPoint& p = draft_.points[i];
        p.at.resize(3, "0");
        points->addWidget(plain(
                              box, key + QStringLiteral(".name"), p.name,
                              [this, i](const std::string& n) { draft_.points[i].name = n; },
                              tr("Rename a point")),
                          i + 1, 0);
        for (int k = 0; k < 3; ++k)
            points->addWidget(
                expression(
                    box, indexed(key + QStringLiteral(".at"), k), p.at[k],
                    [this, i, k](const std::string& e) { draft_.points[i].at[k] = e; },
                    tr("Move a point")),
                i + 1, k + 1);
        QToolButton* remove = smallButton(box, QStringLiteral("✕"), tr("Remove this point"));
        connect(remove, &QToolButton::clicked, this, [this, i] {
            restructure(tr("Remove a point"),
                        [this, i] { draft_.points.erase(draft_.points.begin() + i); });
        });
        points->addWidget(remove, i + 1, 4, Qt::AlignTop);
    }
    for (int c = 0; c < 4; ++c)
        points->setColumnStretch(c, 1);
    box->layout()->addItem(points);
    buildViewLinks(qobject_cast<QVBoxLayout*>(box->layout()));
    buildViewCurves(qobject_cast<QVBoxLayout*>(box->layout()));
    auto* buttons = new QHBoxLayout;
    auto* addPoint = new QPushButton(tr("Add Point"), box);
    connect(addPoint, &QPushButton::clicked, this, [this] {
        restructure(tr("Add a point"), [this] {
            std::vector<std::string> taken;
            for (const auto& p : draft_.points)
                taken.push_back(p.name);
            const std::string x = draft_.coordinates.empty() ? "0" : draft_.coordinates[0].name;
            draft_.points.push_back({freshName("P", taken), {x, "0", "0"}, 0.0});
        });
    });
    auto* addLink = new QPushButton(tr("Add Link"), box);
    connect(addLink, &QPushButton::clicked, this, [this] {
        restructure(tr("Add a link"), [this] {
            const std::string last = draft_.points.empty() ? "origin" : draft_.points.back().name;
            draft_.links.emplace_back("origin", last);
        });
    });
    auto* addCurve = new QPushButton(tr("Add Curve"), box);
    connect(addCurve, &QPushButton::clicked, this, [this] {
        restructure(tr("Add a curve"), [this] {
            draft_.curves.push_back({"s", "0", "0", "s", 0.0, 1.0});
        });
    });
    for (QPushButton* b : {addPoint, addLink, addCurve})
        buttons->addWidget(b);
    box->layout()->addItem(buttons);
}

void SystemEditor::buildViewLinks(QVBoxLayout* layout)
{
    QWidget* box = layout->parentWidget();
    auto* links = new QGridLayout;
    for (int i = 0; i < static_cast<int>(draft_.links.size()); ++i) {
        const QString key = indexed(QStringLiteral("view.links"), i);
        auto& link = draft_.links[i];
        links->addWidget(new QLabel(tr("Link"), box), i, 0);
        links->addWidget(plain(
                             box, key, link.first,
                             [this, i](const std::string& n) { draft_.links[i].first = n; },
                             tr("Change a link"), tr("point or origin")),
                         i, 1);
        links->addWidget(plain(
                             box, key + QStringLiteral(".to"), link.second,
                             [this, i](const std::string& n) { draft_.links[i].second = n; },
                             tr("Change a link"), tr("point or origin")),
                         i, 2);
        QToolButton* remove = smallButton(box, QStringLiteral("✕"), tr("Remove this link"));
        connect(remove, &QToolButton::clicked, this, [this, i] {
            restructure(tr("Remove a link"),
                        [this, i] { draft_.links.erase(draft_.links.begin() + i); });
        });
        links->addWidget(remove, i, 3, Qt::AlignTop);
    }
    layout->addLayout(links);
}

void SystemEditor::buildViewCurves(QVBoxLayout* layout)
{
    QWidget* box = layout->parentWidget();
    for (int i = 0; i < static_cast<int>(draft_.curves.size()); ++i) {
        const QString key = indexed(QStringLiteral("view.curves"), i);
        const SystemDescription::ViewCurve& c = draft_.curves[i];
        auto curve = [this, i]() -> SystemDescription::ViewCurve& {
            return draft_.curves[i];
        };
        const QString what = tr("Change a curve");
        auto* row = new QHBoxLayout;
        row->addWidget(new QLabel(tr("Curve"), box));
        row->addWidget(expression(
                           box, key + QStringLiteral(".x"), c.x,
                           [curve](const std::string& e) { curve().x = e; }, what,
                           QStringLiteral("x(s)")),
                       2);
        row->addWidget(expression(
                           box, key + QStringLiteral(".y"), c.y,
                           [curve](const std::string& e) { curve().y = e; }, what,
                           QStringLiteral("y(s)")),
                       2);
        row->addWidget(expression(
                           box, key + QStringLiteral(".z"), c.z,
                           [curve](const std::string& e) { curve().z = e; }, what,
                           QStringLiteral("z(s)")),
                       2);
        row->addWidget(plain(
                           box, key + QStringLiteral(".parameter"), c.parameter,
                           [curve](const std::string& n) { curve().parameter = n; }, what),
                       1);
        const QString range = key + QLatin1Char('.') + qs(c.parameter);
        row->addWidget(
            number(
                box, range, c.from, [curve](std::optional<double> v) { curve().from = *v; }, what),
            1);
        row->addWidget(number(
                           box, range + QStringLiteral(".to"), c.to,
                           [curve](std::optional<double> v) { curve().to = *v; }, what),
                       1);
        QToolButton* remove = smallButton(box, QStringLiteral("✕"), tr("Remove this curve"));
        connect(remove, &QToolButton::clicked, this, [this, i] {
            restructure(tr("Remove a curve"),
                        [this, i] { draft_.curves.erase(draft_.curves.begin() + i); });
        });
        row->addWidget(remove, 0, Qt::AlignTop);
        layout->addLayout(row);
    }
}

void SystemEditor::renameKeys(const QString& from, const QString& to)
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

void SystemEditor::setNamed(std::vector<SystemDescription::Named>& list, const std::string& name,
                            const std::string& expression)
{
    const auto it =
        std::find_if(list.begin(), list.end(), [&](const auto& e) { return e.name == name; });
    if (expression.empty()) {
        if (it != list.end())
            list.erase(it);
    } else if (it != list.end()) {
        it->expression = expression;
    } else {
        list.push_back({name, expression});
    }
}

void SystemEditor::setMassForm(int form)
{
    // M of the running system, when the draft is that system: the new form states the same
    // masses (M is the Hessian of T, so T = ½ q̇ᵀ M q̇ exactly).
    const SceneDocument& document = session_->document();
    const bool exact = document.system && draft_ == draftFromDocument();
    const std::size_t n = draft_.coordinates.size();
    std::vector<std::vector<std::string>> M(n, std::vector<std::string>(n, "0"));
    if (exact) {
        M = document.system->massMatrixText();
    } else {
        for (std::size_t i = 0; i < n; ++i)
            M[i][i] = "1";
    }
    const QStringList names{tr("kinetic energy"), tr("masses"), tr("mass matrix")};
    restructure(tr("Give the mass as %1").arg(names[form]), [&] {
        draft_.kineticEnergy.clear();
        draft_.masses.clear();
        draft_.massMatrix.clear();
        if (form == 1) {
            for (std::size_t i = 0; i < n; ++i)
                draft_.masses.push_back(M[i][i]);
        } else if (form == 2) {
            draft_.massMatrix = M;
        } else {
            std::string T;
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j < n; ++j) {
                    if (M[i][j] == "0")
                        continue;
                    T += (T.empty() ? "" : " + ") + std::string("(") + M[i][j] + ")*" +
                         draft_.coordinates[i].name + "_dot*" + draft_.coordinates[j].name +
                         "_dot/2";
                }
            draft_.kineticEnergy = T;
        }
    });
}

void SystemEditor::updateCompletions()
{
    const QStringList words = completions();
    for (auto& [key, entry] : entries_)
        if (auto* field = qobject_cast<ExpressionField*>(entry.widget))
            field->setCompletions(words);
}

} // namespace clab
