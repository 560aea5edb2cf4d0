#pragma once

#include "panels/SystemCoordinates.h"

#include <symbolic/SystemDescription.h>

#include <QObject>
#include <QString>

#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

class QFormLayout;
class QGridLayout;
class QLayout;
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
    /// The draft was replaced (a new document, undo): forgets the values held aside.
    void reset() { coordinates_.reset(); }

private:
    void restructure(const QString& what, const std::function<void()>& change);
    /// A button in `box` that applies `change` as the undo step `what`.
    QPushButton* addButton(QWidget* box, const QString& text, const QString& what,
                           std::function<void()> change);
    /// ▲ and ▼ buttons (named KEY.up, KEY.down) in `row` that swap entry i of `count` with its
    /// neighbour as one step.
    void addMoveButtons(QWidget* box, QLayout* row, const QString& key, int i, int count,
                        const QString& label, std::function<void(int, int)> swap);
    void buildCoordinates(QVBoxLayout* layout);
    void renameCoordinate(int i, const std::string& name);
    /// The keys of the force and initial-value fields follow the coordinates' names.
    void rekeyValueFields();
    void buildParameters(QVBoxLayout* layout);
    void buildEnergies(QVBoxLayout* layout);
    void buildMassMatrix(QFormLayout* form);
    void buildForcesAndInitial(QVBoxLayout* layout);
    void buildConstraints(QVBoxLayout* layout);
    void buildFriction(QVBoxLayout* layout);
    void buildView(QVBoxLayout* layout);
    void buildViewPoint(QWidget* box, QGridLayout* grid, int i);
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
    /// Per coordinate row: its force, start and velocity fields.
    std::vector<std::vector<QWidget*>> valueFields_;
    SystemCoordinates coordinates_;
};

} // namespace clab
