// The System editor's fields on their own: a field's edit reaches its setter and the edited
// hook, number fields keep text that is no number as an error, a problem is marked at the field
// of its key (or of the nearest enclosing key), items of a comma-separated field point at their
// place in it, and renamed keys follow.

#include <panels/SystemFields.h>
#include <widgets/ExpressionField.h>

#include <QLabel>
#include <QLineEdit>
#include <QTest>
#include <QWidget>

using namespace clab;

class SystemFieldsTest : public QObject {
    Q_OBJECT

    struct Edit {
        QString what;
        bool typing;
    };

    SystemDescription draft_;
    std::vector<Edit> edits_;
    std::unique_ptr<QWidget> parent_;
    std::unique_ptr<SystemFields> fields_;

private slots:
    void init()
    {
        draft_ = {};
        edits_.clear();
        parent_ = std::make_unique<QWidget>();
        fields_ = std::make_unique<SystemFields>(draft_, [this](const QString& what, bool typing) {
            edits_.push_back({what, typing});
        });
    }

    void splitsAtTopLevelCommas()
    {
        std::vector<int> starts;
        const std::vector<std::string> parts =
            SystemFields::splitTopLevel(QStringLiteral("a, atan2(y, x),  b"), starts);
        QCOMPARE(parts, (std::vector<std::string>{"a", "atan2(y, x)", "b"}));
        QCOMPARE(starts, (std::vector<int>{0, 3, 17}));
        QVERIFY(SystemFields::splitTopLevel(QStringLiteral("  "), starts).empty());
        QVERIFY(starts.empty());
        QCOMPARE(SystemFields::joinList(parts), QStringLiteral("a, atan2(y, x), b"));
    }

    void anEditReachesSetterAndHook()
    {
        std::string stored;
        fields_->expression(
            parent_.get(), QStringLiteral("system.kinetic_energy"), "m*x_dot^2/2",
            [&](const std::string& e) { stored = e; }, QStringLiteral("Edit T"));
        auto* field =
            qobject_cast<ExpressionField*>(fields_->field(QStringLiteral("system.kinetic_energy")));
        QVERIFY(field);
        QCOMPARE(field->text(), QStringLiteral("m*x_dot^2/2"));
        QCOMPARE(field->objectName(), QStringLiteral("system.kinetic_energy"));
        const int typing = fields_->typingId();
        emit field->textEdited(QStringLiteral("m*x_dot^2"));
        QCOMPARE(stored, std::string("m*x_dot^2"));
        QCOMPARE(edits_.size(), std::size_t(1));
        QCOMPARE(edits_[0].what, QStringLiteral("Edit T"));
        QVERIFY(edits_[0].typing);
        // Leaving the field ends the edit: the next keystroke is a new undo step.
        QCOMPARE(fields_->typingId(), typing);
        emit field->editingFinished();
        QCOMPARE(fields_->typingId(), typing + 1);
    }

    void aNumberFieldKeepsTextThatIsNoNumberAsAnError()
    {
        std::optional<double> stored = 1.0;
        int calls = 0;
        const QString key = QStringLiteral("system.parameters.g.min");
        fields_->number(
            parent_.get(), key, 1.0,
            [&](std::optional<double> v) {
                stored = v;
                ++calls;
            },
            QStringLiteral("Change the range"), true);
        auto* edit = qobject_cast<QLineEdit*>(fields_->field(key));
        QVERIFY(edit);
        QCOMPARE(edit->text(), QStringLiteral("1"));
        emit edit->textEdited(QStringLiteral("abc"));
        QCOMPARE(calls, 0);
        QVERIFY(fields_->numberErrors().count(key));
        QCOMPARE(edits_.size(), std::size_t(1)); // the editor shows the error
        emit edit->textEdited(QStringLiteral(" 2.5 "));
        QCOMPARE(calls, 1);
        QCOMPARE(stored, std::optional<double>(2.5));
        QVERIFY(fields_->numberErrors().empty());
        // Optional: empty is no value, not an error.
        emit edit->textEdited(QString());
        QCOMPARE(stored, std::optional<double>());
        QVERIFY(fields_->numberErrors().empty());
        // Not optional: empty is an error.
        const QString value = QStringLiteral("system.parameters.g");
        fields_->number(
            parent_.get(), value, 9.81, [](std::optional<double>) {}, QStringLiteral("Set g"));
        emit qobject_cast<QLineEdit*>(fields_->field(value))->textEdited(QString());
        QVERIFY(fields_->numberErrors().count(value));
    }

    void aProblemIsMarkedAtTheNearestField()
    {
        fields_->plain(
            parent_.get(), QStringLiteral("system.friction[0]"), "contact1",
            [](const std::string&) {}, QStringLiteral("Edit friction"));
        fields_->plain(
            parent_.get(), QStringLiteral("view.points[0].name"), "P1", [](const std::string&) {},
            QStringLiteral("Rename a point"));

        // An enclosing key's field.
        const std::optional<QString> marked = fields_->mark(
            QStringLiteral("system.friction[0].normal"), QStringLiteral("no such constraint"), 0);
        QCOMPARE(marked, std::optional<QString>(QStringLiteral("system.friction[0]")));
        QLabel* message = fields_->message(QStringLiteral("system.friction[0]"));
        QCOMPARE(message->text(), QStringLiteral("no such constraint"));
        QVERIFY(!message->isHidden());
        // The first field inside the key.
        QCOMPARE(fields_->mark(QStringLiteral("view"), QStringLiteral("bad"), 0),
                 std::optional<QString>(QStringLiteral("view.points[0].name")));
        // No field at all.
        QCOMPARE(fields_->mark(QStringLiteral("system.end"), QStringLiteral("bad"), 0),
                 std::optional<QString>());

        fields_->clearMarks();
        QVERIFY(message->isHidden());
        QVERIFY(fields_->field(QStringLiteral("system.friction[0]"))->styleSheet().isEmpty());
    }

    void itemsOfAListPointAtTheirPlace()
    {
        const QString key = QStringLiteral("system.friction[0].slip");
        fields_->expressionList(
            parent_.get(), key, {"x_dot", "y_dot+z_dot"}, [](std::vector<std::string>) {},
            QStringLiteral("Edit friction"));
        auto* field = qobject_cast<ExpressionField*>(fields_->field(key));
        QVERIFY(field);
        QCOMPARE(field->text(), QStringLiteral("x_dot, y_dot+z_dot"));
        QCOMPARE(fields_->field(key + QStringLiteral("[1]")), field);
        // Column 1 of item 1 is column 8 of the field.
        QCOMPARE(fields_->mark(key + QStringLiteral("[1]"), QStringLiteral("bad"), 1),
                 std::optional<QString>(key + QStringLiteral("[1]")));
        QCOMPARE(field->errorRange().first, 7);
    }

    void renamedKeysFollow()
    {
        for (const char* key :
             {"system.parameters.p", "system.parameters.p.unit", "system.parameters.pp"})
            fields_->plain(
                parent_.get(), QString::fromLatin1(key), "", [](const std::string&) {},
                QStringLiteral("Edit"));
        QWidget* unit = fields_->field(QStringLiteral("system.parameters.p.unit"));
        fields_->renameKeys(QStringLiteral("system.parameters.p"),
                            QStringLiteral("system.parameters.k"));
        QCOMPARE(fields_->field(QStringLiteral("system.parameters.k.unit")), unit);
        QVERIFY(fields_->field(QStringLiteral("system.parameters.k")));
        QVERIFY(!fields_->field(QStringLiteral("system.parameters.p")));
        QVERIFY(fields_->field(QStringLiteral("system.parameters.pp"))); // another name
    }
};

QTEST_MAIN(SystemFieldsTest)
#include "tst_SystemFields.moc"
