#pragma once

#include <symbolic/SystemDescription.h>

#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <string>

class QLabel;
class QVBoxLayout;

namespace clab {

class SceneSession;
class SystemFields;
class SystemSections;

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

    /// What the view, the plots and the derivation show while the fields do not build: the
    /// last valid system, and the fields that differ from it (with its text and theirs); empty
    /// when they show the fields.
    QString shownNotice() const { return shownNotice_; }
    /// The same in one line for a status bar; empty when the fields are what is shown.
    QString shownStatus() const { return shownStatus_; }
    /// The keys of the fields that differ from the system shown (SystemDifference's keys, and
    /// number fields holding no number).
    QStringList differingKeys() const { return differingKeys_; }

signals:
    /// The problem shown changed (empty: the draft builds).
    void problemChanged(const QString& problem);
    /// "Duplicate as editable system" on a built-in scene.
    void duplicateRequested();
    /// shownNotice() and shownStatus() changed.
    void shownChanged();

protected:
    /// Leaving the notes ends their edit (the next keystroke is a new undo step).
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void sessionReset();
    void sessionSystemChanged();
    void parameterChanged(const QString& key);
    SystemDescription draftFromDocument() const;
    void rebuild();
    /// Says that a built-in scene has no equations to edit, and offers to duplicate it.
    void buildBuiltIn(QVBoxLayout* layout);

    /// The draft changed: derive it, and on success put it into the document. Typing merges
    /// into the field's current undo step; a structural change (add, remove, move) is a step
    /// of its own.
    void edited(const QString& what, bool typing);
    /// A button's change of the draft's structure: rebuild the fields, then as edited().
    void restructure(const QString& what, const std::function<void()>& change);
    /// Switches between T, masses and a mass matrix, carrying the masses over exactly when
    /// the draft is the document's (valid) system.
    void setMassForm(int form);
    void clearProblems();
    void showProblem(const QString& key, const QString& reason, int column);
    void setProblem(const QString& problem, const QString& key);
    /// Compares the fields with the system shown and says where they differ.
    void updateShown();
    /// The title and notes of the system.
    void buildHeading(QVBoxLayout* layout);

    SceneSession* session_;
    SystemDescription draft_;
    std::string title_, notes_;
    SystemFields* fields_ = nullptr;
    SystemSections* sections_ = nullptr;
    QWidget* content_ = nullptr;
    QVBoxLayout* layout_ = nullptr;
    QLabel* summary_ = nullptr;
    QString problem_, problemKey_;
    QString shownNotice_, shownStatus_;
    QStringList differingKeys_;
    bool applying_ = false; ///< the session change comes from this editor
};

} // namespace clab
