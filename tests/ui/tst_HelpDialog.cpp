// Help lists every keyboard shortcut the window has: the table is made from the actions
// themselves, so a new shortcut cannot be missing from it.
#include <GuiSceneStore.h>
#include <HelpDialog.h>
#include <MainWindow.h>
#include <render/VtkSurfaceFormat.h>

#include <QAction>
#include <QKeySequence>
#include <QSettings>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

#include <memory>

using namespace clab;

class HelpDialogTest : public QObject {
    Q_OBJECT

private slots:
    void everyShortcutOfTheWindowIsListed();
    void dialogShowsThePage();
};

void HelpDialogTest::everyShortcutOfTheWindowIsListed()
{
    MainWindow window(std::make_shared<GuiSceneStore>());
    const QList<QAction*> actions = window.findChildren<QAction*>();
    const QString page = HelpDialog::html(actions);
    int shortcuts = 0;
    for (const QAction* action : actions) {
        for (const QKeySequence& key : action->shortcuts()) {
            const QString text = key.toString(QKeySequence::NativeText).toHtmlEscaped();
            QVERIFY2(page.contains(text), qPrintable(action->text() + ": " + text));
            ++shortcuts;
        }
    }
    QVERIFY(shortcuts >= 15);
    // The ones the page once lacked: large text, image export, reset camera.
    for (const char* key : {"Ctrl+Shift+L", "Ctrl+E", "Ctrl+0", "Ctrl+Shift+E", "Ctrl+K", "Space"})
        QVERIFY2(page.contains(QLatin1String(key)), key);
    QVERIFY(page.contains(QStringLiteral("Large Text for Projection")));
    QVERIFY(page.contains(QStringLiteral("New scene: ")));
    QVERIFY(page.contains(QStringLiteral("Play / pause")));
    // Keys that are no action: Escape from a field, Shift for finer steps; and the Loop toggle.
    QVERIFY(page.contains(QStringLiteral(">Esc<")));
    QVERIFY(page.contains(QStringLiteral("Shift+Up")));
    QVERIFY(page.contains(QStringLiteral("Loop")));
}

void HelpDialogTest::dialogShowsThePage()
{
    MainWindow window(std::make_shared<GuiSceneStore>());
    const QList<QAction*> actions = window.findChildren<QAction*>();
    HelpDialog dialog(actions);
    const auto* browser = dialog.findChild<QTextBrowser*>(QStringLiteral("helpBrowser"));
    QVERIFY(browser);
    QVERIFY(browser->toPlainText().contains(QStringLiteral("Ctrl+Shift+L")));
}

int main(int argc, char* argv[])
{
    VtkSurfaceFormat::makeDefault();
    QApplication app(argc, argv);
    // Never touch the user's real settings (the window reads them).
    QTemporaryDir settings;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings.path());
    HelpDialogTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_HelpDialog.moc"
