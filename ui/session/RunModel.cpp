#include "session/RunModel.h"

#include <integrate/SimulationSetting.h>
#include <scenes/SceneRegistry.h>
#include <symbolic/SymbolNames.h>

#include <algorithm>

namespace clab {

namespace {

QString formatValue(const std::vector<double>& value)
{
    QStringList parts;
    for (double v : value)
        parts << QString::number(v, 'g', 4);
    return value.size() == 1 ? parts.front()
                             : QStringLiteral("(%1)").arg(parts.join(QStringLiteral(", ")));
}

/// The parameter's symbol as people write it: the last word of its label when that is a
/// symbol ("Kinetic friction μ": μ), else its name read as notation ("mu_s": μₛ, "k": k).
QString symbolOf(const SceneDefinition* definition, const std::string& name)
{
    const ParameterSpec* spec = definition ? definition->parameter(name) : nullptr;
    if (spec && !spec->label.empty()) {
        const QString label = QString::fromStdString(spec->label);
        const QString last = label.section(QLatin1Char(' '), -1);
        // A word ("Pinned ends") is no symbol: a symbol is a letter with marks and subscripts.
        if (last != label && last.size() <= 3)
            return last;
    }
    return QString::fromStdString(SymbolNames::unicode(name));
}

} // namespace

RunModel::RunModel(QObject* parent) : QObject(parent)
{
}

void RunModel::request(const SceneDocument& document, quint64 serial)
{
    pendingDocument_ = document;
    pendingSerial_ = serial;
}

void RunModel::show(std::shared_ptr<const Trace> trace, bool compare)
{
    const SceneDocument& document = pendingDocument_;
    // Compare mode: the run on screen becomes a ghost when a distinct edit replaces it.
    if (compare && trace_ && shownSerial_ != pendingSerial_ && shownDocument_.sameScene(document))
        ghosts_.push_back({QString(), trace_, shownDocument_});
    const bool comparing = !ghosts_.empty();
    const bool sameParameters = trace_ && shownDocument_.sameScene(document) &&
                                shownDocument_.parameters == document.parameters;
    trace_ = std::move(trace);
    shownDocument_ = document;
    shownSerial_ = pendingSerial_;
    if (comparing)
        updateGhosts();
    emit shownRunChanged(sameParameters, comparing);
    emit runsChanged();
}

void RunModel::addGhost(const SceneDocument& document, std::shared_ptr<const Trace> trace)
{
    ghosts_.push_back({QString(), std::move(trace), document});
    updateGhosts();
    emit runsChanged();
}

bool RunModel::clearGhosts()
{
    if (ghosts_.empty())
        return false;
    ghosts_.clear();
    emit ghostsCleared();
    emit runsChanged();
    return true;
}

void RunModel::reset()
{
    ghosts_.clear();
    if (!trace_)
        return;
    trace_.reset();
    emit runsChanged();
}

std::vector<std::pair<std::shared_ptr<const Trace>, QString>> RunModel::ghostTrails() const
{
    std::vector<std::pair<std::shared_ptr<const Trace>, QString>> trails;
    for (const Ghost& ghost : ghosts_)
        trails.emplace_back(ghost.trace, ghost.label);
    return trails;
}

std::vector<LabelledTrace> RunModel::runs() const
{
    std::vector<LabelledTrace> result;
    if (!trace_)
        return result;
    for (const Ghost& ghost : ghosts_)
        result.push_back({ghost.label.toStdString(), ghost.trace});
    result.push_back({currentRunLabel().toStdString(), trace_});
    return result;
}

QString RunModel::currentRunLabel() const
{
    if (ghosts_.empty())
        return QString::fromStdString(shownDocument_.shortName());
    const QString label = runLabel(shownDocument_);
    return label.isEmpty() ? tr("current") : label;
}

bool RunModel::sameRun(const SceneDocument& a, const SceneDocument& b)
{
    // Title and notes do not change the motion.
    SceneDocument plainA = a;
    SceneDocument plainB = b;
    plainA.title = plainB.title = std::string();
    plainA.notes = plainB.notes = std::string();
    return plainA == plainB;
}

QString RunModel::runLabel(const SceneDocument& run) const
{
    // The values in which this run differs from any other run on screen, in a stable order.
    QStringList values;
    const auto add = [&](const SceneDocument& other) {
        for (const QString& value : changedValues(run, other))
            if (!values.contains(value))
                values << value;
    };
    for (const Ghost& ghost : ghosts_)
        add(ghost.document);
    add(shownDocument_);
    values.sort();
    return values.join(QStringLiteral(", "));
}

void RunModel::updateGhosts()
{
    // A run is identified by its values: the current run replaces a ghost of the same values
    // (undo back to an earlier μ), and of two ghosts with the same values the newer stays.
    std::vector<Ghost> kept;
    for (auto it = ghosts_.rbegin(); it != ghosts_.rend(); ++it) {
        const auto same = [&](const Ghost& g) {
            return sameRun(g.document, it->document);
        };
        if (!sameRun(it->document, shownDocument_) && std::none_of(kept.begin(), kept.end(), same))
            kept.push_back(*it);
    }
    std::reverse(kept.begin(), kept.end());
    ghosts_ = std::move(kept);
    for (std::size_t i = 0; i < ghosts_.size(); ++i) {
        Ghost& ghost = ghosts_[i];
        ghost.label = runLabel(ghost.document);
        if (ghost.label.isEmpty())
            ghost.label = tr("run %1").arg(i + 1);
    }
}

QStringList RunModel::changedValues(const SceneDocument& before, const SceneDocument& after)
{
    // A parameter that follows another (mu_s follows mu) and still equals it in both runs says
    // nothing new: "mu = 0.2", not "mu = 0.2, mu_s = 0.2".
    const SceneDefinition* definition = before.definition();
    const auto follows = [&](const std::string& name) {
        return definition && definition->tiedToLeader(before.parameters, name) &&
               definition->tiedToLeader(after.parameters, name);
    };
    QStringList changes;
    for (const auto& [name, value] : before.parameters) {
        if (follows(name))
            continue;
        const auto it = after.parameters.find(name);
        if (it == after.parameters.end() || it->second != value)
            changes << QStringLiteral("%1 = %2").arg(symbolOf(definition, name),
                                                     formatValue(value));
    }
    for (const SimulationSetting& setting : SimulationSetting::all()) {
        const double value = setting.get(before.simulation);
        if (value == setting.get(after.simulation))
            continue;
        if (setting.kind == SimulationSetting::Kind::Number)
            changes
                << QStringLiteral("%1 = %2").arg(QString::fromStdString(setting.symbol)).arg(value);
        else
            changes << QString::fromStdString(setting.words.at(static_cast<std::size_t>(value)));
    }
    return changes;
}

} // namespace clab
