// Where file dialogs start: the folder last used for the kind of file, else Documents, else
// home; a folder that has gone is never offered, and nothing is created.
#include <export/VideoExportDialog.h>
#include <widgets/DialogFolders.h>

#include <QDir>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace clab;

class TestDialogFolders : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // Settings and standard folders of a throw-away account.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ConstraintLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_DialogFolders"));
        QSettings().clear();
    }

    void freshAccountStartsInAFolderThatExists()
    {
        QSettings().clear();
        const QString documents =
            QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        const bool hadDocuments = QFileInfo(documents).isDir();
        const QString start = DialogFolders::folder(QStringLiteral("csv"));
        QVERIFY2(QFileInfo(start).isDir(), qPrintable(start));
        QCOMPARE(start, hadDocuments ? documents : QDir::homePath());
        // Asking created nothing.
        QCOMPARE(QFileInfo(documents).isDir(), hadDocuments);
    }

    void eachKindRemembersItsLastFolderUntilItIsGone()
    {
        QSettings().clear();
        QTemporaryDir plots;
        QTemporaryDir videos;
        DialogFolders::remember(QStringLiteral("plot"), QDir(plots.path()).filePath("a.svg"));
        DialogFolders::remember(QStringLiteral("video"), QDir(videos.path()).filePath("b.ogv"));
        QCOMPARE(DialogFolders::folder(QStringLiteral("plot")), plots.path());
        QCOMPARE(DialogFolders::folder(QStringLiteral("video")), videos.path());
        QCOMPARE(DialogFolders::suggestedPath(QStringLiteral("plot"), QStringLiteral("energy.png")),
                 QDir(plots.path()).filePath(QStringLiteral("energy.png")));
        // The remembered folder was removed: back to a folder that exists.
        const QString gone = plots.path();
        plots.remove();
        const QString start = DialogFolders::folder(QStringLiteral("plot"));
        QVERIFY(start != gone);
        QVERIFY(QFileInfo(start).isDir());
        QVERIFY(!QFileInfo::exists(gone));
    }

    void videoDialogLabelsAreMnemonicsNotAmpersands()
    {
        // "&File:" and "&Time range:" label rows holding layouts: with a buddy, the "&" is a
        // mnemonic (Alt+F) and is not drawn.
        VideoExportDialog dialog(nullptr, 0.0, 2.0);
        int checked = 0;
        for (QLabel* label : dialog.findChildren<QLabel*>()) {
            if (label->text().contains(QLatin1Char('&'))) {
                QVERIFY2(label->buddy() != nullptr, qPrintable(label->text()));
                ++checked;
            }
        }
        QVERIFY(checked >= 2);
    }
};

QTEST_MAIN(TestDialogFolders)
#include "tst_DialogFolders.moc"
