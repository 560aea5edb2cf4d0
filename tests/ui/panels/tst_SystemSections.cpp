// The System editor's sections on their own: they make a field for every part of the draft,
// their buttons hand structural changes to the restructure hook (which the editor applies and
// rebuilds), and renaming a coordinate carries its forces, initial values and labels along.

#include <panels/SystemFields.h>
#include <panels/SystemSections.h>

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTest>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWidget>

using namespace clab;

class SystemSectionsTest : public QObject {
    Q_OBJECT

    SystemDescription draft_;
    QString restructured_;
    std::function<void()> change_;
    std::unique_ptr<QWidget> content_;
    std::unique_ptr<SystemFields> fields_;
    std::unique_ptr<SystemSections> sections_;

    void build()
    {
        content_ = std::make_unique<QWidget>();
        auto* layout = new QVBoxLayout(content_.get());
        fields_ = std::make_unique<SystemFields>(draft_, [](const QString&, bool) {});
        SystemSections::Hooks hooks;
        hooks.restructure = [this](const QString& what, const std::function<void()>& change) {
            restructured_ = what;
            change_ = change;
        };
        hooks.changed = [](const QString&) {
        };
        hooks.setMassForm = [](int) {
        };
        sections_ = std::make_unique<SystemSections>(draft_, *fields_, std::move(hooks));
        sections_->build(content_.get(), layout);
    }

private slots:
    void init()
    {
        draft_ = {};
        draft_.coordinates = {{"x", "m"}, {"y", "m"}};
        draft_.masses = {"m", "2*m"};
        draft_.forces = {{"x", "-c*x_dot"}};
        draft_.initial = {{"x_dot", "1"}};
        draft_.parameters = {SystemDescription::Parameter::plain("m", 1.0)};
        restructured_.clear();
        change_ = nullptr;
        build();
    }

    void everyPartHasItsField()
    {
        for (const char* key :
             {"system.coordinates[0]", "system.coordinates[1].unit", "system.parameters.m",
              "system.parameters.m.name", "system.masses[1]", "system.potential_energy",
              "system.forces.x", "system.initial.y_dot", "system.end"})
            QVERIFY2(fields_->field(QString::fromLatin1(key)), key);
        QVERIFY(!fields_->field(QStringLiteral("system.kinetic_energy"))); // masses instead
    }

    void removingACoordinateTakesItsEntriesAlong()
    {
        auto removes = content_->findChildren<QToolButton*>();
        const auto remove = std::find_if(removes.begin(), removes.end(), [](QToolButton* b) {
            return b->toolTip() == QStringLiteral("Remove this coordinate");
        });
        QVERIFY(remove != removes.end());
        (*remove)->click();
        QCOMPARE(restructured_, QStringLiteral("Remove coordinate x"));
        QVERIFY(change_);
        change_();
        QCOMPARE(draft_.coordinates.size(), std::size_t(1));
        QCOMPARE(draft_.coordinates[0].name, std::string("y"));
        QCOMPARE(draft_.masses, std::vector<std::string>{"2*m"});
        QVERIFY(draft_.forces.empty());
        QVERIFY(draft_.initial.empty());
    }

    void addingACoordinateGivesItAFreshNameAndAMass()
    {
        auto* add = content_->findChild<QPushButton*>(QStringLiteral("addCoordinate"));
        QVERIFY(add);
        add->click();
        QCOMPARE(restructured_, QStringLiteral("Add a coordinate"));
        change_();
        QCOMPARE(draft_.coordinates.back().name, std::string("q1"));
        QCOMPARE(draft_.masses.back(), std::string("1"));
        // The next one does not take a name already there.
        change_();
        QCOMPARE(draft_.coordinates.back().name, std::string("q2"));
    }

    void renamingACoordinateCarriesItsEntries()
    {
        QWidget* force = fields_->field(QStringLiteral("system.forces.x"));
        auto* name =
            qobject_cast<QLineEdit*>(fields_->field(QStringLiteral("system.coordinates[0]")));
        QVERIFY(name);
        emit name->textEdited(QStringLiteral("s"));
        QCOMPARE(draft_.coordinates[0].name, std::string("s"));
        QCOMPARE(draft_.forces[0].name, std::string("s"));
        QCOMPARE(draft_.initial[0].name, std::string("s_dot"));
        QCOMPARE(fields_->field(QStringLiteral("system.forces.s")), force);
        QVERIFY(!fields_->field(QStringLiteral("system.forces.x")));
        // The rows that name the coordinate say its new name.
        const auto labels = content_->findChildren<QLabel*>();
        QVERIFY(std::any_of(labels.begin(), labels.end(),
                            [](QLabel* l) { return l->text() == QStringLiteral("mass of s ="); }));
    }
};

QTEST_MAIN(SystemSectionsTest)
#include "tst_SystemSections.moc"
