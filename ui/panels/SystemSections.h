#pragma once

#include <symbolic/SystemDescription.h>

#include <QObject>
#include <QString>

#include <functional>
#include <string>
#include <tuple>
#include <vector>

class QFormLayout;
class QLabel;
class QPushButton;
class QVBoxLayout;
class QWidget;

namespace clab {

class SystemFields;

/// \brief The sections of the System editor (coordinates, parameters, energies, forces and
/// initial values, constraints, friction, view): their fields, and the buttons that add, remove
/// and move entries of the draft.
///
/// The fields edit the draft in place; a change of its structure goes through the
/// `restructure` hook, which applies the change and rebuilds the sections.
class SystemSections : public QObject {
    Q_OBJECT
public:
    struct Hooks {
        /// Applies `change` to the draft's structure, rebuilds, and records one undo step.
        std::function<void(const QString& what, const std::function<void()>& change)> restructure;
        /// A change of the draft that needs no rebuild, an undo step of its own.
        std::function<void(const QString& what)> changed;
        /// Switches the mass between T (0), masses (1) and a mass matrix (2).
        std::function<void(int form)> setMassForm;
    };

    SystemSections(SystemDescription& draft, SystemFields& fields, Hooks hooks,
                   QObject* parent = nullptr);

    /// Builds every section of the draft into `layout` of `content`.
    void build(QWidget* content, QVBoxLayout* layout);

    /// Sets (or, when empty, removes) the entry `name` of a list of named expressions.
    static void setNamed(std::vector<SystemDescription::Named>& list, const std::string& name,
                         const std::string& expression);

private:
    void restructure(const QString& what, const std::function<void()>& change);
    /// A button in `box` that applies `change` as the undo step `what`.
    QPushButton* addButton(QWidget* box, const QString& text, const QString& what,
                           std::function<void()> change);
    void buildCoordinates(QVBoxLayout* layout);
    void renameCoordinate(int i, const std::string& name);
    void removeCoordinate(int i);
    void addCoordinate();
    void buildParameters(QVBoxLayout* layout);
    void buildEnergies(QVBoxLayout* layout);
    void buildMassMatrix(QFormLayout* form);
    void buildForcesAndInitial(QVBoxLayout* layout);
    void buildConstraints(QVBoxLayout* layout);
    void buildFriction(QVBoxLayout* layout);
    void buildView(QVBoxLayout* layout);
    void buildViewLinks(QVBoxLayout* layout);
    void buildViewCurves(QVBoxLayout* layout);
    /// Notes what the editor has no fields for but keeps.
    void buildKept(QVBoxLayout* layout);

    SystemDescription& draft_;
    SystemFields& fields_;
    Hooks hooks_;
    QWidget* content_ = nullptr;
    /// Labels that show a coordinate's name (per-coordinate rows): label, index, pattern.
    std::vector<std::tuple<QLabel*, int, QString>> coordinateLabels_;
};

} // namespace clab
