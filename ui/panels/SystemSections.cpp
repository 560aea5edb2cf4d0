#include "panels/SystemSections.h"

#include "panels/SystemFields.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace clab {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QToolButton* smallButton(QWidget* parent, const QString& text, const QString& tip)
{
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    return button;
}

/// The names of a list of named entries (coordinates, points, ...).
template <typename Items> std::vector<std::string> namesOf(const Items& items)
{
    std::vector<std::string> names;
    for (const auto& item : items)
        names.push_back(item.name);
    return names;
}

/// A name not yet in `taken`: stem1, stem2, ...
std::string freshName(const std::string& stem, const std::vector<std::string>& taken)
{
    for (int i = 1;; ++i) {
        const std::string name = stem + std::to_string(i);
        if (std::none_of(taken.begin(), taken.end(), [&](const auto& n) { return n == name; }))
            return name;
    }
}

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

SystemSections::SystemSections(SystemDescription& draft, SystemFields& fields, Hooks hooks,
                               QObject* parent)
    : QObject(parent), draft_(draft), fields_(fields), hooks_(std::move(hooks)), coordinates_(draft)
{
}

void SystemSections::restructure(const QString& what, const std::function<void()>& change)
{
    hooks_.restructure(what, change);
}

QPushButton* SystemSections::addButton(QWidget* box, const QString& text, const QString& what,
                                       std::function<void()> change)
{
    auto* button = new QPushButton(text, box);
    connect(button, &QPushButton::clicked, this,
            [this, what, change] { restructure(what, change); });
    return button;
}

void SystemSections::build(QWidget* content, QVBoxLayout* layout)
{
    content_ = content;
    coordinateLabels_.clear();
    buildCoordinates(layout);
    buildParameters(layout);
    buildEnergies(layout);
    buildForcesAndInitial(layout);
    buildConstraints(layout);
    buildFriction(layout);
    buildView(layout);
    buildKept(layout);
}

void SystemSections::buildKept(QVBoxLayout* layout)
{
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
}

void SystemSections::addMoveButtons(QWidget* box, QLayout* row, const QString& key, int i,
                                    int count, const QString& label,
                                    std::function<void(int, int)> swap)
{
    auto move = [this, i, swap](int to, const QString& what) {
        restructure(what, [i, to, swap] { swap(i, to); });
    };
    QToolButton* up = smallButton(box, QStringLiteral("▲"), tr("Move up"));
    up->setObjectName(key + QStringLiteral(".up"));
    up->setEnabled(i > 0);
    connect(up, &QToolButton::clicked, this,
            [move, i, label] { move(i - 1, QObject::tr("Move %1 up").arg(label)); });
    QToolButton* down = smallButton(box, QStringLiteral("▼"), tr("Move down"));
    down->setObjectName(key + QStringLiteral(".down"));
    down->setEnabled(i + 1 < count);
    connect(down, &QToolButton::clicked, this,
            [move, i, label] { move(i + 1, QObject::tr("Move %1 down").arg(label)); });
    row->addWidget(up);
    row->addWidget(down);
}

void SystemSections::buildCoordinates(QVBoxLayout* layout)
{
    QGroupBox* box = section(content_, layout, tr("Coordinates q"));
    auto* grid = new QGridLayout;
    grid->addWidget(header(box, tr("Name")), 0, 0);
    grid->addWidget(header(box, tr("Unit")), 0, 1);
    const int n = static_cast<int>(draft_.coordinates.size());
    for (int i = 0; i < n; ++i) {
        const QString key = SystemFields::indexed(QStringLiteral("system.coordinates"), i);
        const SystemDescription::Coordinate& c = draft_.coordinates[i];
        grid->addWidget(fields_.plain(
                            box, key, c.name,
                            [this, i](const std::string& name) { renameCoordinate(i, name); },
                            tr("Rename coordinate")),
                        i + 1, 0);
        grid->addWidget(
            fields_.plain(
                box, key + QStringLiteral(".unit"), c.unit,
                [this, i](const std::string& unit) { draft_.coordinates[i].unit = unit; },
                tr("Change the unit of %1").arg(qs(c.name)), tr("none")),
            i + 1, 1);
        auto* buttons = new QHBoxLayout;
        buttons->setSpacing(0);
        addMoveButtons(box, buttons, key, i, n, qs(c.name),
                       [this](int a, int b) { coordinates_.swap(a, b); });
        QToolButton* remove = smallButton(box, QStringLiteral("✕"), tr("Remove this coordinate"));
        remove->setObjectName(key + QStringLiteral(".remove"));
        remove->setEnabled(n > 1);
        connect(remove, &QToolButton::clicked, this, [this, i] {
            restructure(tr("Remove coordinate %1").arg(qs(draft_.coordinates[i].name)),
                        [this, i] { coordinates_.remove(i); });
        });
        buttons->addWidget(remove);
        grid->addLayout(buttons, i + 1, 2, Qt::AlignTop);
    }
    grid->setColumnStretch(0, 2);
    grid->setColumnStretch(1, 1);
    box->layout()->addItem(grid);
    QPushButton* add = addButton(box, tr("Add Coordinate"), tr("Add a coordinate"),
                                 [this] { coordinates_.add(); });
    add->setObjectName(QStringLiteral("addCoordinate"));
    box->layout()->addWidget(add);
}

void SystemSections::renameCoordinate(int i, const std::string& name)
{
    coordinates_.rename(i, name);
    rekeyValueFields();
    for (const auto& [label, index, pattern] : coordinateLabels_)
        if (index == i)
            label->setText(pattern.arg(qs(name)));
}

void SystemSections::rekeyValueFields()
{
    static const QStringList suffixes{QStringLiteral(".force"), QStringLiteral(".start"),
                                      QStringLiteral(".velocity")};
    // Held rows first, under their row's key, so that the owner of a name gets its keys.
    for (int pass = 0; pass < 2; ++pass)
        for (int i = 0; i < static_cast<int>(valueFields_.size()); ++i) {
            const bool held = coordinates_.isHeld(i);
            if (held != (pass == 0))
                continue;
            const QString name = qs(draft_.coordinates[i].name);
            const QStringList keys =
                held ? QStringList{SystemFields::indexed(QStringLiteral("system.coordinates"), i) +
                                       suffixes[0],
                                   SystemFields::indexed(QStringLiteral("system.coordinates"), i) +
                                       suffixes[1],
                                   SystemFields::indexed(QStringLiteral("system.coordinates"), i) +
                                       suffixes[2]}
                     : QStringList{QStringLiteral("system.forces.") + name,
                                   QStringLiteral("system.initial.") + name,
                                   QStringLiteral("system.initial.") + name +
                                       QStringLiteral("_dot")};
            for (int k = 0; k < 3; ++k)
                fields_.rekey(valueFields_[i][k], keys[k]);
        }
}

void SystemSections::buildParameters(QVBoxLayout* layout)
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
        grid->addWidget(
            fields_.plain(
                box, key + QStringLiteral(".name"), p.name,
                [this, param](const std::string& name) {
                    const QString from = QStringLiteral("system.parameters.") + qs(param().name);
                    fields_.renameKeys(from, QStringLiteral("system.parameters.") + qs(name));
                    param().name = name;
                },
                tr("Rename parameter")),
            i + 1, 0);
        grid->addWidget(fields_.number(
                            box, key, p.value,
                            [param](std::optional<double> v) { param().value = *v; },
                            tr("Set %1").arg(qs(p.name))),
                        i + 1, 1);
        grid->addWidget(fields_.plain(
                            box, key + QStringLiteral(".unit"), p.unit,
                            [param](const std::string& unit) { param().unit = unit; },
                            tr("Change the unit of %1").arg(qs(p.name))),
                        i + 1, 2);
        grid->addWidget(fields_.number(
                            box, key + QStringLiteral(".min"), p.min,
                            [param](std::optional<double> v) { param().min = v; },
                            tr("Change the range of %1").arg(qs(p.name)), true),
                        i + 1, 3);
        grid->addWidget(fields_.number(
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
    QPushButton* add = addButton(box, tr("Add Parameter"), tr("Add a parameter"), [this] {
        std::vector<std::string> taken = namesOf(draft_.parameters);
        for (const std::string& name : namesOf(draft_.coordinates))
            taken.push_back(name);
        draft_.parameters.push_back(
            SystemDescription::Parameter::plain(freshName("p", taken), 1.0));
    });
    add->setObjectName(QStringLiteral("addParameter"));
    add->setToolTip(tr("A parameter with a range gets a slider in the Scene dock"));
    box->layout()->addWidget(add);
}

void SystemSections::buildEnergies(QVBoxLayout* layout)
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
            hooks_.setMassForm(form);
    });
    form->addRow(tr("Mass given as"), mass);
    if (current == 0) {
        form->addRow(QStringLiteral("T ="),
                     fields_.expression(
                         box, QStringLiteral("system.kinetic_energy"), draft_.kineticEnergy,
                         [this](const std::string& e) { draft_.kineticEnergy = e; },
                         tr("Edit the kinetic energy"), tr("e.g. m*(x_dot^2 + y_dot^2)/2")));
    } else if (current == 1) {
        for (std::size_t i = 0; i < draft_.masses.size(); ++i) {
            auto* label = new QLabel(box);
            const QString pattern = tr("mass of %1 =");
            label->setText(pattern.arg(qs(draft_.coordinates[i].name)));
            coordinateLabels_.emplace_back(label, static_cast<int>(i), pattern);
            form->addRow(label, fields_.expression(
                                    box, SystemFields::indexed(QStringLiteral("system.masses"), i),
                                    draft_.masses[i],
                                    [this, i](const std::string& e) { draft_.masses[i] = e; },
                                    tr("Edit a mass")));
        }
    } else {
        buildMassMatrix(form);
    }
    form->addRow(QStringLiteral("V ="),
                 fields_.expression(
                     box, QStringLiteral("system.potential_energy"), draft_.potentialEnergy,
                     [this](const std::string& e) { draft_.potentialEnergy = e; },
                     tr("Edit the potential energy"), tr("e.g. m*g*y (empty: none)")));
}

void SystemSections::buildMassMatrix(QFormLayout* form)
{
    auto* grid = new QGridLayout;
    const QString key = QStringLiteral("system.mass_matrix");
    for (std::size_t i = 0; i < draft_.massMatrix.size(); ++i)
        for (std::size_t j = 0; j < draft_.massMatrix[i].size(); ++j)
            grid->addWidget(fields_.expression(
                                form->parentWidget(),
                                SystemFields::indexed(SystemFields::indexed(key, i), j),
                                draft_.massMatrix[i][j],
                                [this, i, j](const std::string& e) { draft_.massMatrix[i][j] = e; },
                                tr("Edit the mass matrix")),
                            static_cast<int>(i), static_cast<int>(j));
    form->addRow(QStringLiteral("M ="), grid);
}

void SystemSections::buildForcesAndInitial(QVBoxLayout* layout)
{
    QGroupBox* box = section(content_, layout, tr("Forces and initial values"));
    auto* grid = new QGridLayout;
    grid->addWidget(header(box, tr("Extra force")), 0, 1);
    grid->addWidget(header(box, tr("At start")), 0, 2);
    grid->addWidget(header(box, tr("Velocity at start")), 0, 3);
    valueFields_.clear();
    for (int i = 0; i < static_cast<int>(draft_.coordinates.size()); ++i) {
        const std::string name = draft_.coordinates[i].name;
        auto* label = new QLabel(qs(name), box);
        coordinateLabels_.emplace_back(label, i, QStringLiteral("%1"));
        grid->addWidget(label, i + 1, 0, Qt::AlignTop);
        const SystemCoordinates::Values values = coordinates_.values(i);
        const std::vector<std::pair<std::string SystemCoordinates::Values::*, QString>> columns{
            {&SystemCoordinates::Values::force, QStringLiteral(".force")},
            {&SystemCoordinates::Values::start, QStringLiteral(".start")},
            {&SystemCoordinates::Values::velocity, QStringLiteral(".velocity")}};
        valueFields_.emplace_back();
        for (int k = 0; k < 3; ++k) {
            const auto which = columns[k].first;
            const QString key =
                SystemFields::indexed(QStringLiteral("system.coordinates"), i) + columns[k].second;
            grid->addWidget(
                fields_.expression(
                    box, key, values.*which,
                    [this, i, which](const std::string& e) { coordinates_.setValue(i, which, e); },
                    k == 0 ? tr("Edit a force") : tr("Edit an initial value"),
                    k == 0 ? tr("0") : tr("computed")),
                i + 1, k + 1);
            valueFields_.back().push_back(fields_.field(key));
        }
    }
    rekeyValueFields();
    for (int c = 1; c <= 3; ++c)
        grid->setColumnStretch(c, 1);
    box->layout()->addItem(grid);
    auto* note = new QLabel(tr("Initial values left empty are computed so that the constraints "
                               "hold; the status bar says what was computed."),
                            box);
    note->setWordWrap(true);
    box->layout()->addWidget(note);
    auto* end = formIn(box);
    end->addRow(tr("Runs while"), fields_.expression(
                                      box, QStringLiteral("system.end"), draft_.end,
                                      [this](const std::string& e) { draft_.end = e; },
                                      tr("Edit the end of the motion"), tr("> 0 (empty: always)")));
}

void SystemSections::buildConstraints(QVBoxLayout* layout)
{
    QGroupBox* box = section(content_, layout, tr("Constraints"));
    auto* grid = new QGridLayout;
    grid->addWidget(header(box, tr("Name")), 0, 0);
    grid->addWidget(header(box, tr("Kind")), 0, 1);
    const int m = static_cast<int>(draft_.constraints.size());
    for (int i = 0; i < m; ++i) {
        const SystemDescription::Constraint& c = draft_.constraints[i];
        const QString key = SystemFields::indexed(QStringLiteral("system.constraints"), i);
        const QString label = c.name.empty() ? tr("constraint %1").arg(i + 1) : qs(c.name);
        grid->addWidget(fields_.plain(
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
            fields_.expression(
                box, key + (holonomic ? QStringLiteral(".holonomic") : QStringLiteral(".velocity")),
                c.expression,
                [this, i](const std::string& e) { draft_.constraints[i].expression = e; },
                tr("Edit %1").arg(label),
                holonomic ? tr("φ(q, t), zero on the constraint") : tr("ψ(q, q̇, t), linear in q̇")),
            2 * i + 2, 0, 1, 3); // the expression gets the whole width, under its name
        auto* buttons = new QHBoxLayout;
        buttons->setSpacing(0);
        addMoveButtons(box, buttons, key, i, m, label, [this](int a, int b) {
            std::swap(draft_.constraints[a], draft_.constraints[b]);
        });
        QToolButton* remove = smallButton(box, QStringLiteral("✕"), tr("Remove this constraint"));
        connect(remove, &QToolButton::clicked, this, [this, i, label] {
            restructure(tr("Remove %1").arg(label),
                        [this, i] { draft_.constraints.erase(draft_.constraints.begin() + i); });
        });
        buttons->addWidget(remove);
        grid->addLayout(buttons, 2 * i + 1, 2, Qt::AlignTop);
    }
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    box->layout()->addItem(grid);
    QPushButton* add = addButton(box, tr("Add Constraint"), tr("Add a constraint"), [this] {
        draft_.constraints.push_back({freshName("c", namesOf(draft_.constraints)),
                                      SystemDescription::Constraint::Kind::Holonomic,
                                      {}});
    });
    add->setObjectName(QStringLiteral("addConstraint"));
    box->layout()->addWidget(add);
}

void SystemSections::buildFriction(QVBoxLayout* layout)
{
    QGroupBox* box = section(content_, layout, tr("Friction"));
    for (int i = 0; i < static_cast<int>(draft_.friction.size()); ++i) {
        const SystemDescription::Friction& f = draft_.friction[i];
        const QString key = SystemFields::indexed(QStringLiteral("system.friction"), i);
        auto contact = [this, i]() -> SystemDescription::Friction& {
            return draft_.friction[i];
        };
        const QString what = tr("Edit friction %1").arg(qs(f.name));
        auto* form = formIn(box);
        auto* nameRow = new QHBoxLayout;
        nameRow->addWidget(fields_.plain(
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
                     fields_.expressionList(
                         box, key + QStringLiteral(".slip"), f.slip,
                         [contact](std::vector<std::string> v) { contact().slip = v; }, what));
        form->addRow(tr("Pressed by"), fields_.plain(
                                           box, key + QStringLiteral(".normal"),
                                           SystemFields::joinList(f.normal).toStdString(),
                                           [contact](const std::string& text) {
                                               std::vector<int> starts;
                                               contact().normal =
                                                   SystemFields::splitTopLevel(qs(text), starts);
                                           },
                                           what, tr("constraint names; empty: all")));
        form->addRow(QStringLiteral("μ"), fields_.expression(
                                              box, key + QStringLiteral(".mu"), f.mu,
                                              [contact](const std::string& e) { contact().mu = e; },
                                              what, tr("Coulomb friction")));
        form->addRow(QStringLiteral("μₛ"),
                     fields_.expression(
                         box, key + QStringLiteral(".mu_s"), f.muStatic,
                         [contact](const std::string& e) { contact().muStatic = e; }, what,
                         tr("empty: equal to μ")));
        form->addRow(tr("Drag"), fields_.expression(
                                     box, key + QStringLiteral(".magnitude"), f.magnitude,
                                     [contact](const std::string& e) { contact().magnitude = e; },
                                     what, tr("instead of μ: a force of constant size")));
    }
    QPushButton* add =
        addButton(box, tr("Add Friction Contact"), tr("Add a friction contact"), [this] {
            SystemDescription::Friction f;
            f.name = freshName("contact", namesOf(draft_.friction));
            f.mu = "0.1";
            draft_.friction.push_back(f);
        });
    add->setObjectName(QStringLiteral("addFriction"));
    box->layout()->addWidget(add);
}

void SystemSections::buildView(QVBoxLayout* layout)
{
    QGroupBox* box = section(content_, layout, tr("View"));
    auto* upRow = formIn(box);
    auto* up = new QComboBox(box);
    up->setObjectName(QStringLiteral("viewUp"));
    up->addItems({QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z")});
    up->setCurrentIndex(draft_.up == 'x' ? 0 : draft_.up == 'z' ? 2 : 1);
    connect(up, &QComboBox::activated, this, [this](int index) {
        draft_.up = "xyz"[index];
        hooks_.changed(tr("Change the view's up axis"));
    });
    upRow->addRow(tr("Upwards on screen"), up);
    auto* points = new QGridLayout;
    const QStringList titles{tr("Point"), QStringLiteral("x"), QStringLiteral("y"),
                             QStringLiteral("z"), tr("Trail")};
    for (int c = 0; c < titles.size(); ++c)
        points->addWidget(header(box, titles[c]), 0, c);
    for (int i = 0; i < static_cast<int>(draft_.points.size()); ++i)
        buildViewPoint(box, points, i);
    for (int c = 0; c < 4; ++c)
        points->setColumnStretch(c, 1);
    box->layout()->addItem(points);
    buildViewLinks(qobject_cast<QVBoxLayout*>(box->layout()));
    buildViewCurves(qobject_cast<QVBoxLayout*>(box->layout()));
    auto* buttons = new QHBoxLayout;
    QPushButton* addPoint = addButton(box, tr("Add Point"), tr("Add a point"), [this] {
        const std::string x = draft_.coordinates.empty() ? "0" : draft_.coordinates[0].name;
        draft_.points.push_back({freshName("P", namesOf(draft_.points)), {x, "0", "0"}, 0.0});
    });
    QPushButton* addLink = addButton(box, tr("Add Link"), tr("Add a link"), [this] {
        const std::string last = draft_.points.empty() ? "origin" : draft_.points.back().name;
        draft_.links.emplace_back("origin", last);
    });
    QPushButton* addCurve = addButton(box, tr("Add Curve"), tr("Add a curve"), [this] {
        draft_.curves.push_back({"s", "0", "0", "s", 0.0, 1.0});
    });
    for (QPushButton* b : {addPoint, addLink, addCurve})
        buttons->addWidget(b);
    box->layout()->addItem(buttons);
}

void SystemSections::buildViewPoint(QWidget* box, QGridLayout* grid, int i)
{
    const QString key = SystemFields::indexed(QStringLiteral("view.points"), i);
    SystemDescription::ViewPoint& p = draft_.points[i];
    const int count = static_cast<int>(draft_.points.size());
    p.at.resize(3, "0");
    grid->addWidget(fields_.plain(
                        box, key + QStringLiteral(".name"), p.name,
                        [this, i](const std::string& n) { draft_.points[i].name = n; },
                        tr("Rename a point")),
                    i + 1, 0);
    for (int k = 0; k < 3; ++k)
        grid->addWidget(fields_.expression(
                            box, SystemFields::indexed(key + QStringLiteral(".at"), k), p.at[k],
                            [this, i, k](const std::string& e) { draft_.points[i].at[k] = e; },
                            tr("Move a point")),
                        i + 1, k + 1);
    // The view draws the trail (and puts the arrows) on the last point: choosing another point
    // moves it to the end, the others keep their order.
    auto* trail = new QRadioButton(box);
    trail->setObjectName(key + QStringLiteral(".trail"));
    trail->setToolTip(tr("The trail and the force arrows are on the last point; choosing this "
                         "point moves it to the end"));
    trail->setChecked(i + 1 == count);
    trail->setAutoExclusive(false);
    const QString name = qs(p.name);
    connect(trail, &QRadioButton::clicked, this, [this, i, count, trail, name] {
        if (i + 1 == count) {
            trail->setChecked(true);
            return;
        }
        restructure(tr("Put the trail on %1").arg(name), [this, i] {
            std::rotate(draft_.points.begin() + i, draft_.points.begin() + i + 1,
                        draft_.points.end());
        });
    });
    grid->addWidget(trail, i + 1, 4, Qt::AlignTop | Qt::AlignHCenter);
    auto* buttons = new QHBoxLayout;
    buttons->setSpacing(0);
    addMoveButtons(box, buttons, key, i, count, name,
                   [this](int a, int b) { std::swap(draft_.points[a], draft_.points[b]); });
    QToolButton* remove = smallButton(box, QStringLiteral("✕"), tr("Remove this point"));
    connect(remove, &QToolButton::clicked, this, [this, i] {
        restructure(tr("Remove a point"),
                    [this, i] { draft_.points.erase(draft_.points.begin() + i); });
    });
    buttons->addWidget(remove);
    grid->addLayout(buttons, i + 1, 5, Qt::AlignTop);
}

void SystemSections::buildViewLinks(QVBoxLayout* layout)
{
    QWidget* box = layout->parentWidget();
    auto* links = new QGridLayout;
    for (int i = 0; i < static_cast<int>(draft_.links.size()); ++i) {
        const QString key = SystemFields::indexed(QStringLiteral("view.links"), i);
        auto& link = draft_.links[i];
        links->addWidget(new QLabel(tr("Link"), box), i, 0);
        links->addWidget(fields_.plain(
                             box, key, link.first,
                             [this, i](const std::string& n) { draft_.links[i].first = n; },
                             tr("Change a link"), tr("point or origin")),
                         i, 1);
        links->addWidget(fields_.plain(
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

void SystemSections::buildViewCurves(QVBoxLayout* layout)
{
    QWidget* box = layout->parentWidget();
    for (int i = 0; i < static_cast<int>(draft_.curves.size()); ++i) {
        const QString key = SystemFields::indexed(QStringLiteral("view.curves"), i);
        const SystemDescription::ViewCurve& c = draft_.curves[i];
        auto curve = [this, i]() -> SystemDescription::ViewCurve& {
            return draft_.curves[i];
        };
        const QString what = tr("Change a curve");
        auto* row = new QHBoxLayout;
        row->addWidget(new QLabel(tr("Curve"), box));
        row->addWidget(fields_.expression(
                           box, key + QStringLiteral(".x"), c.x,
                           [curve](const std::string& e) { curve().x = e; }, what,
                           QStringLiteral("x(s)")),
                       2);
        row->addWidget(fields_.expression(
                           box, key + QStringLiteral(".y"), c.y,
                           [curve](const std::string& e) { curve().y = e; }, what,
                           QStringLiteral("y(s)")),
                       2);
        row->addWidget(fields_.expression(
                           box, key + QStringLiteral(".z"), c.z,
                           [curve](const std::string& e) { curve().z = e; }, what,
                           QStringLiteral("z(s)")),
                       2);
        row->addWidget(fields_.plain(
                           box, key + QStringLiteral(".parameter"), c.parameter,
                           [curve](const std::string& n) { curve().parameter = n; }, what),
                       1);
        const QString range = key + QLatin1Char('.') + qs(c.parameter);
        row->addWidget(
            fields_.number(
                box, range, c.from, [curve](std::optional<double> v) { curve().from = *v; }, what),
            1);
        row->addWidget(fields_.number(
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

} // namespace clab
