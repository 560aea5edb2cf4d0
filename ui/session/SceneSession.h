#pragma once

#include <scenes/SceneDefinition.h>
#include <scenes/SceneDocument.h>

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <optional>
#include <string>
#include <vector>

namespace clab {

class SetParameterCommand;
struct SimulationSetting;

/// \brief The scene being edited: its document, file path, undo stack and modified state.
///
/// Values are addressed by key: a parameter name ("mu", "J") or a simulation setting
/// ("simulation." and a SimulationSetting key: "simulation.t_end", "simulation.integrator" (0
/// Dormand–Prince, 1 RK4), "simulation.stop_at_end" (0 or 1), ...). Every value is a vector
/// (scalars have one component).
class SceneSession : public QObject {
    Q_OBJECT
public:
    explicit SceneSession(QObject* parent = nullptr);

    static QString simulationKey(const QString& name)
    {
        return QStringLiteral("simulation.") + name;
    }
    /// All simulation keys in display order (SimulationSetting::all()).
    static const std::vector<QString>& simulationKeys();
    /// The setting a "simulation.NAME" key stands for, or nullptr.
    static const SimulationSetting* simulationSetting(const QString& key);

    const SceneDocument& document() const { return document_; }
    /// nullptr when the document's scene type is not built in (never after setDocument).
    const SceneDefinition* definition() const { return definition_; }

    /// Replaces the whole document (New, Open): clears the undo stack and marks it saved
    /// under `path` (empty for an untitled document). Throws ConstraintLabError when the scene
    /// type is unknown; the session is then unchanged.
    void setDocument(const SceneDocument& document, const QString& path);

    /// Current value of a key; throws ConstraintLabError for an unknown key.
    std::vector<double> value(const QString& key) const;
    /// Sets a value without recording it (SetParameterCommand calls this); emits valueChanged.
    void setValue(const QString& key, const std::vector<double>& value);
    bool hasKey(const QString& key) const;

    /// Records a change of `key` on the undo stack; commands with the same non-zero mergeId and
    /// key merge into one (a slider drag). Does nothing when the value is unchanged. Parameters
    /// linked to `key` by ParameterSpec::defaultsTo / notBelow change with it in the same step,
    /// so that the document stays valid (raising mu above mu_s raises mu_s too).
    void edit(const QString& key, const std::vector<double>& value, int mergeId = 0);
    /// Records a new system (format 2) with its parameter values as one undo step named
    /// `what`; commands with the same non-zero mergeId merge (the keystrokes of one field).
    /// Throws ConstraintLabError when `document` holds no system. Does nothing when unchanged.
    void editSystem(const SceneDocument& document, const QString& what, int mergeId = 0);
    /// Puts a document with another system in place without recording it (SetSystemCommand
    /// calls this); emits systemChanged. The undo history and file path stay.
    void replaceSystem(const SceneDocument& document);
    /// Records a new stored start (SimulationOptions::start; none: the parameters' start again)
    /// as one undo step named `what`. Does nothing when unchanged.
    void editStart(const std::optional<StartState>& start, const QString& what);
    /// Sets the stored start without recording it (the commands call this); emits startChanged.
    void setStoredStart(const std::optional<StartState>& start);

    QUndoStack* undoStack() { return &undo_; }
    QString filePath() const { return path_; }
    /// Marks the current state as saved under `path`.
    void markSaved(const QString& path);
    bool isModified() const { return !undo_.isClean(); }
    /// The name shown in the title bar: the file name, or the scene's title when untitled.
    QString displayName() const;
    /// Counts distinct edits: it changes with every edit, undo and redo, but not while one
    /// slider drag goes on (compare mode keeps one ghost per distinct edit).
    quint64 editSerial() const { return serial_; }

signals:
    /// The whole document was replaced.
    void documentReset();
    /// The system changed (editSystem, undo or redo): its parameters may be others now.
    void systemChanged();
    /// One value changed (edit, undo or redo).
    void valueChanged(const QString& key);
    /// The stored start was set or cleared (editStart, an edit of a start parameter, undo, redo).
    void startChanged();
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);

private:
    /// The changes an edit of `key` to `newValue` brings along, decided on the document before
    /// the edit (a follower tied to its leader, a floor pushed up or down).
    void addLinkedChanges(SetParameterCommand& command, const QString& key,
                          const std::vector<double>& newValue) const;

    SceneDocument document_;
    const SceneDefinition* definition_ = nullptr;
    QString path_;
    QUndoStack undo_;
    quint64 serial_ = 0;
    int lastMergeId_ = 0;
    bool continuingDrag_ = false;
};

} // namespace clab
