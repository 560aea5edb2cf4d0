#include "SystemJson.h"

#include "FileError.h"
#include "JsonFields.h"
#include "JsonSyntax.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace clab {

namespace {

using Description = SystemDescription;

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString indexed(const QString& key, qsizetype i)
{
    return key + QStringLiteral("[%1]").arg(i);
}

// Reads one description; every member function names the key it reads in its errors.
class Reader {
public:
    Reader(const QByteArray& raw, const QString& source) : raw_(raw), source_(source) {}

    Description read(const QJsonObject& root)
    {
        Description d;
        if (!root.contains(QLatin1String("system")))
            fail(QStringLiteral("system"),
                 QStringLiteral("missing required key (a format-2 file describes its system "
                                "there)"));
        const QJsonObject system = object(root.value(QLatin1String("system")), "system");
        JsonFields::rejectUnknownKeys(system,
                                      {"coordinates", "parameters", "kinetic_energy", "mass_matrix",
                                       "masses", "potential_energy", "forces", "constraints",
                                       "friction", "nonideal", "initial", "columns", "end",
                                       "key_parameters"},
                                      source_, QStringLiteral("system."));
        coordinates(system, d);
        parameters(system, d);
        keyParameters(system, d);
        mass(system, d);
        if (system.contains(QLatin1String("potential_energy")))
            d.potentialEnergy = expression(system.value(QLatin1String("potential_energy")),
                                           QStringLiteral("system.potential_energy"));
        d.forces = named(system, QStringLiteral("forces"));
        constraints(system, d);
        friction(system, d);
        d.nonideal = named(system, QStringLiteral("nonideal"));
        d.initial = named(system, QStringLiteral("initial"));
        columns(system, d);
        end(system, d);
        if (root.contains(QLatin1String("view")))
            view(object(root.value(QLatin1String("view")), QStringLiteral("view")), d);
        return d;
    }

private:
    [[noreturn]] void fail(const QString& key, const QString& reason) const
    {
        JsonFields::invalid(source_, key, reason);
    }

    QJsonObject object(const QJsonValue& v, const QString& key) const
    {
        return JsonFields::requireObject(v, source_, key);
    }

    QJsonArray array(const QJsonValue& v, const QString& key) const
    {
        return JsonFields::requireArray(v, source_, key);
    }

    std::string string(const QJsonValue& v, const QString& key) const
    {
        return JsonFields::requireString(v, source_, key).toStdString();
    }

    double number(const QJsonValue& v, const QString& key) const
    {
        return JsonFields::requireNumber(v, source_, key);
    }

    void allow(const QJsonObject& o, const QStringList& keys, const QString& key) const
    {
        JsonFields::rejectUnknownKeys(o, keys, source_, key + QLatin1Char('.'));
    }

    QJsonValue required(const QJsonObject& o, const QString& member, const QString& key) const
    {
        if (!o.contains(member))
            fail(key + QLatin1Char('.') + member, QStringLiteral("missing required key"));
        return o.value(member);
    }

    // A string as written, or a number as its shortest text ("0.2", "1e-06").
    std::string expression(const QJsonValue& v, const QString& key) const
    {
        if (v.isDouble())
            return JsonFields::number(v.toDouble()).toStdString();
        if (!v.isString())
            fail(key, QStringLiteral("must be a string or a number, not %1")
                          .arg(JsonFields::typeName(v)));
        // An empty text would read as "not given" where the description uses "" for that.
        if (v.toString().trimmed().isEmpty())
            fail(key, QStringLiteral("must not be empty"));
        return v.toString().toStdString();
    }

    std::vector<std::string> expressions(const QJsonValue& v, const QString& key) const
    {
        std::vector<std::string> out;
        const QJsonArray a = array(v, key);
        for (qsizetype i = 0; i < a.size(); ++i)
            out.push_back(expression(a[i], indexed(key, i)));
        return out;
    }

    // The keys of `o`, found at `path` in the text, in the file's order.
    QStringList ordered(const QJsonObject& o, const QStringList& path) const
    {
        QStringList keys = raw_.isEmpty() ? QStringList() : JsonSyntax::keyOrder(raw_, path);
        keys.removeIf([&](const QString& k) { return !o.contains(k); });
        for (const QString& k : o.keys()) // only when `raw` is not the text of `o`
            if (!keys.contains(k))
                keys.append(k);
        return keys;
    }

    // A map from names to expressions ("forces", "nonideal", "initial"), in the file's order.
    std::vector<Description::Named> named(const QJsonObject& system, const QString& member) const
    {
        std::vector<Description::Named> out;
        if (!system.contains(member))
            return out;
        const QString key = QStringLiteral("system.") + member;
        const QJsonObject o = object(system.value(member), key);
        for (const QString& name : ordered(o, {QStringLiteral("system"), member}))
            out.push_back(
                {name.toStdString(), expression(o.value(name), key + QLatin1Char('.') + name)});
        return out;
    }

    void coordinates(const QJsonObject& system, Description& d) const
    {
        const QString key = QStringLiteral("system.coordinates");
        const QJsonArray list =
            array(required(system, QStringLiteral("coordinates"), QStringLiteral("system")), key);
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QString at = indexed(key, i);
            const QJsonValue v = list[i];
            Description::Coordinate c;
            if (v.isString()) {
                c.name = v.toString().toStdString();
            } else if (v.isObject()) {
                const QJsonObject o = v.toObject();
                allow(o, {"name", "unit"}, at);
                c.name = string(required(o, QStringLiteral("name"), at), at + ".name");
                if (o.contains(QLatin1String("unit")))
                    c.unit = string(o.value(QLatin1String("unit")), at + ".unit");
            } else {
                fail(at, QStringLiteral("must be a name or an object {\"name\": ..., \"unit\": "
                                        "...}, not %1")
                             .arg(JsonFields::typeName(v)));
            }
            d.coordinates.push_back(c);
        }
    }

    void parameters(const QJsonObject& system, Description& d) const
    {
        if (!system.contains(QLatin1String("parameters")))
            return;
        const QString key = QStringLiteral("system.parameters");
        const QJsonObject o = object(system.value(QLatin1String("parameters")), key);
        for (const QString& name : ordered(o, {QStringLiteral("system"), "parameters"})) {
            const QString at = key + QLatin1Char('.') + name;
            const QJsonValue v = o.value(name);
            Description::Parameter p;
            p.name = name.toStdString();
            if (v.isObject()) {
                const QJsonObject spec = v.toObject();
                allow(spec, {"value", "unit", "min", "max", "description"}, at);
                p.value = number(required(spec, QStringLiteral("value"), at), at + ".value");
                if (spec.contains(QLatin1String("unit")))
                    p.unit = string(spec.value(QLatin1String("unit")), at + ".unit");
                if (spec.contains(QLatin1String("min")))
                    p.min = number(spec.value(QLatin1String("min")), at + ".min");
                if (spec.contains(QLatin1String("max")))
                    p.max = number(spec.value(QLatin1String("max")), at + ".max");
                if (spec.contains(QLatin1String("description")))
                    p.description =
                        string(spec.value(QLatin1String("description")), at + ".description");
            } else if (v.isDouble()) {
                p.value = v.toDouble();
            } else {
                fail(at, QStringLiteral("must be a number or an object {\"value\": ..., \"unit\": "
                                        "..., \"min\": ..., \"max\": ..., \"description\": "
                                        "...}, not %1")
                             .arg(JsonFields::typeName(v)));
            }
            d.parameters.push_back(p);
        }
    }

    // Presentation mode's sliders: parameters of this system, each once, at most four.
    void keyParameters(const QJsonObject& system, Description& d) const
    {
        if (!system.contains(QLatin1String("key_parameters")))
            return;
        const QString key = QStringLiteral("system.key_parameters");
        const QJsonArray list = array(system.value(QLatin1String("key_parameters")), key);
        if (list.size() > 4)
            fail(key,
                 QStringLiteral("at most 4 key parameters (sliders), got %1").arg(list.size()));
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QString at = indexed(key, i);
            const std::string name = string(list[i], at);
            const bool known =
                std::any_of(d.parameters.begin(), d.parameters.end(),
                            [&](const Description::Parameter& p) { return p.name == name; });
            if (!known)
                fail(at, QStringLiteral("\"%1\" is not one of system.parameters")
                             .arg(QString::fromStdString(name)));
            if (std::find(d.keyParameters.begin(), d.keyParameters.end(), name) !=
                d.keyParameters.end())
                fail(at, QStringLiteral("\"%1\" is named twice").arg(QString::fromStdString(name)));
            d.keyParameters.push_back(name);
        }
    }

    // Which of the three mass descriptions is given is SymbolicModel's check.
    void mass(const QJsonObject& system, Description& d) const
    {
        if (system.contains(QLatin1String("kinetic_energy")))
            d.kineticEnergy = expression(system.value(QLatin1String("kinetic_energy")),
                                         QStringLiteral("system.kinetic_energy"));
        if (system.contains(QLatin1String("mass_matrix"))) {
            const QString key = QStringLiteral("system.mass_matrix");
            const QJsonArray rows = array(system.value(QLatin1String("mass_matrix")), key);
            for (qsizetype i = 0; i < rows.size(); ++i)
                d.massMatrix.push_back(expressions(rows[i], indexed(key, i)));
        }
        if (system.contains(QLatin1String("masses")))
            d.masses =
                expressions(system.value(QLatin1String("masses")), QStringLiteral("system.masses"));
    }

    void constraints(const QJsonObject& system, Description& d) const
    {
        if (!system.contains(QLatin1String("constraints")))
            return;
        const QString key = QStringLiteral("system.constraints");
        const QJsonArray list = array(system.value(QLatin1String("constraints")), key);
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QString at = indexed(key, i);
            const QJsonObject o = object(list[i], at);
            allow(o, {"name", "holonomic", "velocity", "unilateral", "restitution"}, at);
            Description::Constraint c;
            if (o.contains(QLatin1String("name")))
                c.name = string(o.value(QLatin1String("name")), at + ".name");
            if (unilateral(o, at, c)) {
                d.constraints.push_back(c);
                continue;
            }
            const bool holonomic = o.contains(QLatin1String("holonomic"));
            if (holonomic == o.contains(QLatin1String("velocity")))
                fail(at, holonomic ? QStringLiteral("give either \"holonomic\" or \"velocity\", "
                                                    "not both")
                                   : QStringLiteral("missing required key: \"holonomic\" (φ(q, "
                                                    "t) = 0) or \"velocity\" (ψ(q, q̇, t) = 0)"));
            c.kind = holonomic ? Description::Constraint::Kind::Holonomic
                               : Description::Constraint::Kind::Velocity;
            const QString member =
                holonomic ? QStringLiteral("holonomic") : QStringLiteral("velocity");
            c.expression = expression(o.value(member), at + QLatin1Char('.') + member);
            d.constraints.push_back(c);
        }
    }

    // A one-sided constraint {"unilateral": φ, "restitution": e}; false when it is not one.
    bool unilateral(const QJsonObject& o, const QString& at, Description::Constraint& c) const
    {
        const bool one = o.contains(QLatin1String("unilateral"));
        if (!one) {
            if (o.contains(QLatin1String("restitution")))
                fail(at + QStringLiteral(".restitution"),
                     o.contains(QLatin1String("velocity"))
                         ? QStringLiteral("a velocity constraint cannot be one-sided; only a "
                                          "constraint \"unilateral\": φ(q, t) ≥ 0 has a "
                                          "restitution")
                         : QStringLiteral("only a one-sided constraint (\"unilateral\": φ(q, "
                                          "t) ≥ 0) has a restitution"));
            return false;
        }
        if (o.contains(QLatin1String("velocity")))
            fail(at, QStringLiteral("a velocity constraint cannot be one-sided: give "
                                    "\"unilateral\" (φ(q, t) ≥ 0) or \"velocity\", not both"));
        if (o.contains(QLatin1String("holonomic")))
            fail(at, QStringLiteral("give either \"holonomic\" (φ = 0) or \"unilateral\" "
                                    "(φ ≥ 0), not both"));
        c.kind = Description::Constraint::Kind::Holonomic;
        c.unilateral = true;
        c.expression = expression(o.value(QLatin1String("unilateral")), at + ".unilateral");
        if (o.contains(QLatin1String("restitution"))) {
            const QJsonValue e = o.value(QLatin1String("restitution"));
            const QString key = at + QStringLiteral(".restitution");
            if (e.isDouble() && !(e.toDouble() >= 0.0 && e.toDouble() <= 1.0))
                fail(key, QStringLiteral("the coefficient of restitution must lie in [0, 1] "
                                         "(0: the body stays on the surface, 1: it rebounds "
                                         "without loss), not %1")
                              .arg(JsonFields::number(e.toDouble())));
            c.restitution = expression(e, key);
        }
        return true;
    }

    void friction(const QJsonObject& system, Description& d) const
    {
        if (!system.contains(QLatin1String("friction")))
            return;
        const QString key = QStringLiteral("system.friction");
        const QJsonArray list = array(system.value(QLatin1String("friction")), key);
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QString at = indexed(key, i);
            const QJsonObject o = object(list[i], at);
            allow(o, {"name", "slip", "normal", "mu", "mu_s", "magnitude"}, at);
            Description::Friction f;
            if (o.contains(QLatin1String("name")))
                f.name = string(o.value(QLatin1String("name")), at + ".name");
            const QJsonValue slip = required(o, QStringLiteral("slip"), at);
            f.slip = slip.isArray() ? expressions(slip, at + ".slip")
                                    : std::vector{expression(slip, at + ".slip")};
            if (o.contains(QLatin1String("normal"))) {
                const QJsonArray normal = array(o.value(QLatin1String("normal")), at + ".normal");
                for (qsizetype k = 0; k < normal.size(); ++k)
                    f.normal.push_back(string(normal[k], indexed(at + ".normal", k)));
            }
            if (o.contains(QLatin1String("mu")))
                f.mu = expression(o.value(QLatin1String("mu")), at + ".mu");
            if (o.contains(QLatin1String("mu_s")))
                f.muStatic = expression(o.value(QLatin1String("mu_s")), at + ".mu_s");
            if (o.contains(QLatin1String("magnitude")))
                f.magnitude = expression(o.value(QLatin1String("magnitude")), at + ".magnitude");
            d.friction.push_back(f);
        }
    }

    void columns(const QJsonObject& system, Description& d) const
    {
        if (!system.contains(QLatin1String("columns")))
            return;
        const QString key = QStringLiteral("system.columns");
        const QJsonObject o = object(system.value(QLatin1String("columns")), key);
        for (const QString& name : ordered(o, {QStringLiteral("system"), "columns"})) {
            const QString at = key + QLatin1Char('.') + name;
            const QJsonValue v = o.value(name);
            Description::Column c;
            c.name = name.toStdString();
            if (v.isObject()) {
                const QJsonObject column = v.toObject();
                allow(column, {"expression", "unit"}, at);
                c.expression = expression(required(column, QStringLiteral("expression"), at),
                                          at + ".expression");
                if (column.contains(QLatin1String("unit")))
                    c.unit = string(column.value(QLatin1String("unit")), at + ".unit");
            } else {
                c.expression = expression(v, at);
            }
            d.columns.push_back(c);
        }
    }

    void end(const QJsonObject& system, Description& d) const
    {
        if (!system.contains(QLatin1String("end")))
            return;
        const QString key = QStringLiteral("system.end");
        const QJsonValue v = system.value(QLatin1String("end"));
        if (!v.isObject()) {
            d.end = expression(v, key);
            return;
        }
        const QJsonObject o = v.toObject();
        allow(o, {"expression", "description"}, key);
        d.end = expression(required(o, QStringLiteral("expression"), key), key + ".expression");
        if (o.contains(QLatin1String("description")))
            d.endDescription = string(o.value(QLatin1String("description")), key + ".description");
    }

    void view(const QJsonObject& view, Description& d) const
    {
        allow(view, {"points", "links", "curves", "up"}, QStringLiteral("view"));
        if (view.contains(QLatin1String("up"))) {
            const std::string up =
                string(view.value(QLatin1String("up")), QStringLiteral("view.up"));
            if (up != "x" && up != "y" && up != "z")
                fail(QStringLiteral("view.up"),
                     QStringLiteral("must be \"x\", \"y\" or \"z\" (the axis shown upwards), "
                                    "not %1")
                         .arg(FileError::quoted(QString::fromStdString(up))));
            d.up = up[0];
        }
        if (view.contains(QLatin1String("points"))) {
            const QString key = QStringLiteral("view.points");
            const QJsonArray list = array(view.value(QLatin1String("points")), key);
            for (qsizetype i = 0; i < list.size(); ++i) {
                const QString at = indexed(key, i);
                const QJsonObject o = object(list[i], at);
                allow(o, {"name", "at", "radius"}, at);
                Description::ViewPoint p;
                p.name = string(required(o, QStringLiteral("name"), at), at + ".name");
                p.at = expressions(required(o, QStringLiteral("at"), at), at + ".at");
                if (o.contains(QLatin1String("radius"))) {
                    p.radius = number(o.value(QLatin1String("radius")), at + ".radius");
                    if (!(p.radius > 0))
                        fail(at + ".radius",
                             QStringLiteral("must be greater than 0 (got %1)")
                                 .arg(QString::fromLatin1(JsonFields::number(p.radius))));
                }
                d.points.push_back(p);
            }
        }
        if (view.contains(QLatin1String("links"))) {
            const QString key = QStringLiteral("view.links");
            const QJsonArray list = array(view.value(QLatin1String("links")), key);
            for (qsizetype i = 0; i < list.size(); ++i) {
                const QString at = indexed(key, i);
                const QJsonArray pair = array(list[i], at);
                if (pair.size() != 2)
                    fail(
                        at,
                        QStringLiteral("must be two point names, not %1 entries").arg(pair.size()));
                d.links.emplace_back(string(pair[0], indexed(at, 0)),
                                     string(pair[1], indexed(at, 1)));
            }
        }
        if (view.contains(QLatin1String("curves"))) {
            const QString key = QStringLiteral("view.curves");
            const QJsonArray list = array(view.value(QLatin1String("curves")), key);
            for (qsizetype i = 0; i < list.size(); ++i)
                d.curves.push_back(curve(object(list[i], indexed(key, i)), indexed(key, i)));
        }
    }

    // x, y, z and the one other key, the curve parameter, with its range [from, to].
    Description::ViewCurve curve(const QJsonObject& o, const QString& at) const
    {
        Description::ViewCurve c;
        QString parameter;
        for (const QString& k : o.keys()) {
            if (k == QLatin1String("x") || k == QLatin1String("y") || k == QLatin1String("z"))
                continue;
            if (!parameter.isEmpty())
                fail(at + QLatin1Char('.') + k,
                     QStringLiteral("a curve has x, y, z and one parameter with its range; %1 is "
                                    "that parameter already")
                         .arg(FileError::quoted(parameter)));
            parameter = k;
        }
        if (parameter.isEmpty())
            fail(at, QStringLiteral("missing the curve parameter with its range, e.g. \"s\": [-2, "
                                    "2]"));
        c.x = expression(required(o, QStringLiteral("x"), at), at + ".x");
        c.y = expression(required(o, QStringLiteral("y"), at), at + ".y");
        if (o.contains(QLatin1String("z")))
            c.z = expression(o.value(QLatin1String("z")), at + ".z");
        const QString rangeKey = at + QLatin1Char('.') + parameter;
        const QJsonValue range = o.value(parameter);
        if (!range.isArray() || range.toArray().size() != 2)
            fail(rangeKey, QStringLiteral("must be the range [from, to] of the curve parameter "
                                          "%1, not %2")
                               .arg(FileError::quoted(parameter), JsonFields::typeName(range)));
        c.parameter = parameter.toStdString();
        c.from = number(range.toArray()[0], indexed(rangeKey, 0));
        c.to = number(range.toArray()[1], indexed(rangeKey, 1));
        return c;
    }

    const QByteArray& raw_;
    const QString& source_;
};

// Members of an object written on one line: key, then the value's JSON text.
using Fields = std::vector<std::pair<QString, QByteArray>>;

// Writes one description, nested by levels of four spaces.
class Writer {
public:
    Writer(const Description& d, const ParameterValues& values, int level)
        : d_(d), values_(values), level_(level)
    {
    }

    // One constraint on one line: its name, its kind as the key of its expression, and a
    // one-sided contact's restitution.
    QByteArray constraint(const Description::Constraint& c) const
    {
        Fields fields;
        if (!c.name.empty())
            fields.emplace_back("name", text(c.name));
        fields.emplace_back(c.unilateral                                         ? "unilateral"
                            : c.kind == Description::Constraint::Kind::Holonomic ? "holonomic"
                                                                                 : "velocity",
                            expression(c.expression));
        if (!c.restitution.empty())
            fields.emplace_back("restitution", expression(c.restitution));
        return inlineObject(fields);
    }

    QByteArray write() const
    {
        const int inner = level_ + 1;
        std::vector<QByteArray> system;
        std::vector<QByteArray> coordinates;
        for (const Description::Coordinate& c : d_.coordinates)
            coordinates.push_back(
                c.unit == "m" ? text(c.name)
                              : inlineObject({{"name", text(c.name)}, {"unit", text(c.unit)}}));
        system.push_back(member("coordinates", inlineList(coordinates)));
        if (!d_.parameters.empty()) {
            std::vector<QByteArray> items;
            for (const Description::Parameter& p : d_.parameters)
                items.push_back(member(qs(p.name), parameter(p)));
            system.push_back(member("parameters", block('{', items, '}', inner)));
        }
        if (!d_.keyParameters.empty()) {
            std::vector<QByteArray> names;
            for (const std::string& name : d_.keyParameters)
                names.push_back(text(name));
            system.push_back(member("key_parameters", inlineList(names)));
        }
        if (!d_.kineticEnergy.empty())
            system.push_back(member("kinetic_energy", expression(d_.kineticEnergy)));
        if (!d_.massMatrix.empty()) {
            std::vector<QByteArray> rows;
            for (const std::vector<std::string>& row : d_.massMatrix)
                rows.push_back(expressions(row));
            system.push_back(member("mass_matrix", block('[', rows, ']', inner)));
        }
        if (!d_.masses.empty())
            system.push_back(member("masses", expressions(d_.masses)));
        if (!d_.potentialEnergy.empty())
            system.push_back(member("potential_energy", expression(d_.potentialEnergy)));
        named(system, "forces", d_.forces);
        if (!d_.constraints.empty()) {
            std::vector<QByteArray> items;
            for (const Description::Constraint& c : d_.constraints)
                items.push_back(constraint(c));
            system.push_back(member("constraints", block('[', items, ']', inner)));
        }
        if (!d_.friction.empty()) {
            std::vector<QByteArray> items;
            for (const Description::Friction& f : d_.friction)
                items.push_back(friction(f));
            system.push_back(member("friction", block('[', items, ']', inner)));
        }
        named(system, "nonideal", d_.nonideal);
        named(system, "initial", d_.initial);
        if (!d_.columns.empty()) {
            std::vector<QByteArray> items;
            for (const Description::Column& c : d_.columns)
                items.push_back(
                    member(qs(c.name), c.unit.empty()
                                           ? expression(c.expression)
                                           : inlineObject({{"expression", expression(c.expression)},
                                                           {"unit", text(c.unit)}})));
            system.push_back(member("columns", block('{', items, '}', inner)));
        }
        if (!d_.end.empty())
            system.push_back(
                member("end", d_.endDescription.empty()
                                  ? expression(d_.end)
                                  : inlineObject({{"expression", expression(d_.end)},
                                                  {"description", text(d_.endDescription)}})));

        QByteArray out = indent(level_) + member("system", block('{', system, '}', level_));
        const std::vector<QByteArray> view = this->view();
        if (!view.empty())
            out += ",\n" + indent(level_) + member("view", block('{', view, '}', level_));
        return out;
    }

private:
    std::vector<QByteArray> view() const
    {
        const int inner = level_ + 1;
        std::vector<QByteArray> view;
        if (!d_.points.empty()) {
            std::vector<QByteArray> items;
            for (const Description::ViewPoint& p : d_.points) {
                Fields fields{{"name", text(p.name)}, {"at", expressions(p.at)}};
                if (p.radius != 0.0)
                    fields.emplace_back("radius", JsonFields::number(p.radius));
                items.push_back(inlineObject(fields));
            }
            view.push_back(member("points", block('[', items, ']', inner)));
        }
        if (!d_.links.empty()) {
            std::vector<QByteArray> items;
            for (const auto& [from, to] : d_.links)
                items.push_back(inlineList({text(from), text(to)}));
            view.push_back(member("links", block('[', items, ']', inner)));
        }
        if (!d_.curves.empty()) {
            std::vector<QByteArray> items;
            for (const Description::ViewCurve& c : d_.curves) {
                Fields fields{{"x", expression(c.x)}, {"y", expression(c.y)}};
                if (c.z != "0")
                    fields.emplace_back("z", expression(c.z));
                fields.emplace_back(qs(c.parameter), inlineList({JsonFields::number(c.from),
                                                                 JsonFields::number(c.to)}));
                items.push_back(inlineObject(fields));
            }
            view.push_back(member("curves", block('[', items, ']', inner)));
        }
        if (d_.up != 'y')
            view.push_back(member("up", text(std::string(1, d_.up))));
        return view;
    }

    QByteArray parameter(const Description::Parameter& p) const
    {
        const auto given = values_.find(p.name);
        const double value =
            given != values_.end() && !given->second.empty() ? given->second[0] : p.value;
        if (p.unit.empty() && p.description.empty() && !p.min && !p.max)
            return JsonFields::number(value);
        // Reserved: growing a one-element vector here draws a false -Warray-bounds from GCC 12.
        Fields fields;
        fields.reserve(5);
        fields.emplace_back("value", JsonFields::number(value));
        if (!p.unit.empty())
            fields.emplace_back("unit", text(p.unit));
        if (p.min)
            fields.emplace_back("min", JsonFields::number(*p.min));
        if (p.max)
            fields.emplace_back("max", JsonFields::number(*p.max));
        if (!p.description.empty())
            fields.emplace_back("description", text(p.description));
        return inlineObject(fields);
    }

    QByteArray friction(const Description::Friction& f) const
    {
        Fields fields;
        if (!f.name.empty())
            fields.emplace_back("name", text(f.name));
        fields.emplace_back("slip", expressions(f.slip));
        if (!f.normal.empty()) {
            std::vector<QByteArray> names;
            for (const std::string& n : f.normal)
                names.push_back(text(n));
            fields.emplace_back("normal", inlineList(names));
        }
        if (!f.mu.empty())
            fields.emplace_back("mu", expression(f.mu));
        if (!f.muStatic.empty())
            fields.emplace_back("mu_s", expression(f.muStatic));
        if (!f.magnitude.empty())
            fields.emplace_back("magnitude", expression(f.magnitude));
        return inlineObject(fields);
    }

    void named(std::vector<QByteArray>& system, const char* key,
               const std::vector<Description::Named>& entries) const
    {
        if (entries.empty())
            return;
        std::vector<QByteArray> items;
        for (const Description::Named& e : entries)
            items.push_back(member(qs(e.name), expression(e.expression)));
        system.push_back(member(key, block('{', items, '}', level_ + 1)));
    }

    static QByteArray indent(int level) { return QByteArray(4 * level, ' '); }

    static QByteArray text(const std::string& s) { return JsonFields::scalar(qs(s)); }

    // A number stays a number when that reads back as the same text (a string otherwise).
    static QByteArray expression(const std::string& e)
    {
        const QByteArray bytes = QByteArray::fromStdString(e);
        bool ok = false;
        const double v = bytes.toDouble(&ok);
        return ok && std::isfinite(v) && JsonFields::number(v) == bytes ? bytes : text(e);
    }

    static QByteArray expressions(const std::vector<std::string>& list)
    {
        std::vector<QByteArray> items;
        for (const std::string& e : list)
            items.push_back(expression(e));
        return inlineList(items);
    }

    static QByteArray member(const QString& key, const QByteArray& value)
    {
        return JsonFields::scalar(key) + ": " + value;
    }

    static QByteArray inlineList(const std::vector<QByteArray>& items)
    {
        QByteArray out = "[";
        for (std::size_t i = 0; i < items.size(); ++i)
            out += (i ? ", " : "") + items[i];
        return out + ']';
    }

    static QByteArray inlineObject(const Fields& fields)
    {
        QByteArray out = "{";
        for (std::size_t i = 0; i < fields.size(); ++i)
            out += (i ? ", " : "") + member(fields[i].first, fields[i].second);
        return out + '}';
    }

    // Items one per line, one level deeper than the line that opens the block at `level`.
    static QByteArray block(char open, const std::vector<QByteArray>& items, char close, int level)
    {
        QByteArray out(1, open);
        if (items.empty())
            return out + close;
        out += '\n';
        for (std::size_t i = 0; i < items.size(); ++i)
            out += indent(level + 1) + items[i] + (i + 1 < items.size() ? ",\n" : "\n");
        return out + indent(level) + close;
    }

    const Description& d_;
    const ParameterValues& values_;
    int level_;
};

} // namespace

SystemDescription SystemJson::read(const QJsonObject& root, const QByteArray& rawJson,
                                   const QString& source)
{
    return Reader(rawJson, source).read(root);
}

QByteArray SystemJson::write(const SystemDescription& description, const ParameterValues& values,
                             int indentLevel)
{
    return Writer(description, values, indentLevel).write();
}

} // namespace clab
