#pragma once

#include <symbolic/SystemDescription.h>

#include <QString>
#include <QWidget>

#include <functional>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

class QFormLayout;
class QLabel;
class QLineEdit;
class QVBoxLayout;

namespace clab {

class ExpressionField;
class SceneSession;
class SystemError;

/// \brief The System editor: a system written as equations, edited field by field, checked
/// while typing, with one undo step per committed field edit.
///
/// It edits a draft of the document's SystemDescription. After every keystroke the draft is
/// derived anew (SymbolicModel): when it builds, it replaces the document's system through
/// SceneSession::editSystem (keystrokes of one field edit merge into one undo step) and the
/// view re-simulates; when it does not, the field the problem is in is underlined where the
/// problem is and the reason shows under it, the last valid system keeps running, and the
/// typed text stays in the field. Parameter values follow the document (the Scene dock's
/// sliders edit the same values). A built-in scene is not editable: the editor offers
/// "Duplicate as editable system" instead (MainWindow does the duplicating).
class SystemEditor : public QWidget {
    Q_OBJECT
public:
    explicit SystemEditor(SceneSession* session, QWidget* parent = nullptr);

    /// The description being edited, including text that does not build yet.
    const SystemDescription& draft() const { return draft_; }
    /// True when the draft holds edits the document does not (text with a problem).
    bool hasUnappliedEdits() const;
    /// The problem shown, "where: reason"; empty when the draft builds.
    QString problem() const { return problem_; }
    /// The key of the field the problem is shown at (e.g. "system.kinetic_energy"); empty when
    /// there is none or it is not at one field.
    QString problemKey() const { return problemKey_; }
    /// The field that edits `key`: the keys of SystemError ("system.potential_energy",
    /// "system.constraints[0].holonomic", "view.points[1].at[0]", ...), and
    /// "system.parameters.NAME" (the value; ".name", ".unit", ".min", ".max" the others).
    /// nullptr when there is no such field.
    QWidget* field(const QString& key) const;
    /// The message label under the field of `key` (tests look at what it says).
    QLabel* message(const QString& key) const;

signals:
    /// The problem shown changed (empty: the draft builds).
    void problemChanged(const QString& problem);
    /// "Duplicate as editable system" on a built-in scene.
    void duplicateRequested();

private:
    struct Entry {
        QWidget* widget = nullptr;
        QLabel* message = nullptr;
        int offset = 0; ///< columns before this key's part of a comma-separated field
    };
    using Setter = std::function<void(const std::string&)>;

    void sessionReset();
    void sessionSystemChanged();
    void parameterChanged(const QString& key);
    SystemDescription draftFromDocument() const;
    void rebuild();
    void buildCoordinates(QVBoxLayout* layout);
    void buildParameters(QVBoxLayout* layout);
    void buildEnergies(QVBoxLayout* layout);
    void buildMassMatrix(QFormLayout* form);
    void buildForcesAndInitial(QVBoxLayout* layout);
    void buildConstraints(QVBoxLayout* layout);
    void buildFriction(QVBoxLayout* layout);
    void buildView(QVBoxLayout* layout);
    void buildViewLinks(QVBoxLayout* layout);
    void buildViewCurves(QVBoxLayout* layout);

    /// A field for an expression; `set` stores its text in the draft.
    QWidget* expression(QWidget* parent, const QString& key, const std::string& text, Setter set,
                        const QString& what, const QString& placeholder = {});
    /// A field for a list of expressions separated by commas (slip velocities, view points).
    QWidget* expressionList(QWidget* parent, const QString& key,
                            const std::vector<std::string>& items,
                            std::function<void(std::vector<std::string>)> set, const QString& what);
    /// A field for a name or unit.
    QWidget* plain(QWidget* parent, const QString& key, const std::string& text, Setter set,
                   const QString& what, const QString& placeholder = {});
    /// A field for a number; empty is allowed when `optional`.
    QWidget* number(QWidget* parent, const QString& key, std::optional<double> value,
                    std::function<void(std::optional<double>)> set, const QString& what,
                    bool optional = false);
    /// Wraps `field` with a message label under it and registers it under `key`.
    QWidget* withMessage(QWidget* field, const QString& key);

    /// The draft changed: derive it, and on success put it into the document. Typing merges
    /// into the field's current undo step; a structural change (add, remove, move) is a step
    /// of its own.
    void edited(const QString& what, bool typing);
    /// A button's change of the draft's structure: rebuild the fields, then as edited().
    void restructure(const QString& what, const std::function<void()>& change);
    /// A coordinate or parameter was renamed: its fields' keys follow the name.
    void renameKeys(const QString& from, const QString& to);
    /// Sets (or, when empty, removes) the entry `name` of a list of named expressions.
    static void setNamed(std::vector<SystemDescription::Named>& list, const std::string& name,
                         const std::string& expression);
    /// Switches between T, masses and a mass matrix, carrying the masses over exactly when
    /// the draft is the document's (valid) system.
    void setMassForm(int form);
    void updateCompletions();
    void clearProblems();
    void showProblem(const QString& key, const QString& reason, int column);
    void setProblem(const QString& problem, const QString& key);
    QStringList completions() const;
    std::optional<double> parseNumber(const QString& text, bool optional, QString& error) const;

    SceneSession* session_;
    SystemDescription draft_;
    std::string title_, notes_;
    QWidget* content_ = nullptr;
    QVBoxLayout* layout_ = nullptr;
    QLabel* summary_ = nullptr;
    /// Labels that show a coordinate's name (per-coordinate rows): label, index, pattern.
    std::vector<std::tuple<QLabel*, int, QString>> coordinateLabels_;
    std::map<QString, Entry> entries_;
    std::map<QString, QString> numberErrors_; ///< number fields holding text that is no number
    QString problem_, problemKey_;
    int typing_ = 1;        ///< merge id of the current field edit; a new one after each commit
    bool applying_ = false; ///< the session change comes from this editor
};

} // namespace clab
