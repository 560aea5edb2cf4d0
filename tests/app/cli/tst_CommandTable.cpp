// The command table: every command has a help of its own, and the general help lists the
// commands from the table in its order, each summary from column 23.
#include "cli/CommandTable.h"

#include <QtTest>

using namespace clab::cli;

class CommandTableTest : public QObject {
    Q_OBJECT

private slots:
    void namesAreUniqueAndFound();
    void everyHelpStartsWithTheCommandsUsage();
    void usageListsTheCommandsInTableOrder();
    void longSynopsisGetsALineOfItsOwn();
    void summariesKeepTheHelpNarrow();
};

void CommandTableTest::namesAreUniqueAndFound()
{
    QSet<QString> names;
    for (const CliCommand& command : CommandTable::all()) {
        QVERIFY2(!names.contains(command.name), qPrintable(command.name));
        names.insert(command.name);
        QCOMPARE(CommandTable::find(command.name), &command);
        QVERIFY(command.run && command.help);
    }
    QVERIFY(names.contains("run") && names.contains("help"));
    QCOMPARE(CommandTable::find("frobnicate"), nullptr);
    QCOMPARE(CommandTable::find(""), nullptr);
}

void CommandTableTest::everyHelpStartsWithTheCommandsUsage()
{
    for (const CliCommand& command : CommandTable::all()) {
        const QString help = command.help();
        QVERIFY2(help.startsWith("Usage: constraintlab-cli " + command.name), qPrintable(help));
        QVERIFY2(help.endsWith('\n'), qPrintable(command.name));
    }
}

void CommandTableTest::usageListsTheCommandsInTableOrder()
{
    const QString usage = CommandTable::usage();
    qsizetype at = usage.indexOf("\nCommands:\n");
    QVERIFY(at > 0);
    for (const CliCommand& command : CommandTable::all()) {
        const qsizetype next = usage.indexOf("\n  " + command.synopsis, at);
        QVERIFY2(next > at, qPrintable(command.name));
        // The summary's first line follows the synopsis, on its line or the next.
        const QString firstLine = command.summary.section('\n', 0, 0);
        QVERIFY2(usage.indexOf(firstLine, next) > next, qPrintable(command.name));
        at = next;
    }
    QVERIFY(usage.indexOf("\nOptions:\n", at) > at);
}

void CommandTableTest::longSynopsisGetsALineOfItsOwn()
{
    const QString usage = CommandTable::usage();
    // A short synopsis shares its line with the summary; a long one stands alone.
    QVERIFY(usage.contains("\n  run SCENE [OPTIONS]  Simulate a scene"));
    QVERIFY(usage.contains("\n  list                 List the built-in scenes.\n"));
    QVERIFY(usage.contains("\n  derive FILE [--format text|latex|json]\n" + QString(23, ' ') +
                           "Print M, Q, A, b"));
    // Continuation lines of a summary start at column 23.
    QVERIFY(usage.contains("its\n" + QString(23, ' ') + "simulation settings.\n"));
}

void CommandTableTest::summariesKeepTheHelpNarrow()
{
    // From column 23, at most 62 columns: no line of the general help is longer than 85.
    for (const CliCommand& command : CommandTable::all())
        for (const QString& line : command.summary.split('\n'))
            QVERIFY2(line.size() <= 62, qPrintable(line));
    for (const QString& line : CommandTable::usage().split('\n'))
        QVERIFY2(line.size() <= 85, qPrintable(line));
}

QTEST_MAIN(CommandTableTest)

#include "tst_CommandTable.moc"
