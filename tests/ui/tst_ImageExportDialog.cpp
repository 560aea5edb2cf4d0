// The screenshot resolution dialog (presets, custom size, limits) and the atomic image writer:
// a written PNG decodes at the rendered size; a failed write names the file and keeps the old.
#include <export/ImageExportDialog.h>
#include <widgets/SizeChooser.h>

#include <QComboBox>
#include <QFile>
#include <QImageReader>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

using namespace clab;

class TestImageExportDialog : public QObject {
    Q_OBJECT

private slots:
    void defaultIsFullHd()
    {
        ImageExportDialog dialog;
        QCOMPARE(dialog.selectedSize(), QSize(1920, 1080));
        QCOMPARE(dialog.presetBox()->currentText(), QStringLiteral("1920 × 1080"));
        QVERIFY(!dialog.widthBox()->isEnabled()); // a preset fixes the size
    }

    void presetsGiveTheirSizes()
    {
        ImageExportDialog dialog;
        const QList<QSize> expected = {QSize(1280, 720), QSize(1920, 1080), QSize(2560, 1440),
                                       QSize(3840, 2160)};
        QCOMPARE(SizeChooser::presetSizes(), expected);
        QCOMPARE(dialog.presetBox()->count(), expected.size() + 1); // + "Custom"
        for (int i = 0; i < expected.size(); ++i) {
            dialog.presetBox()->setCurrentIndex(i);
            QCOMPARE(dialog.selectedSize(), expected[i]);
        }
    }

    void customSizeIsEditableWithinLimits()
    {
        ImageExportDialog dialog;
        dialog.presetBox()->setCurrentIndex(dialog.presetBox()->count() - 1);
        QVERIFY(dialog.widthBox()->isEnabled());
        QVERIFY(dialog.heightBox()->isEnabled());
        dialog.widthBox()->setValue(1000);
        dialog.heightBox()->setValue(777);
        QCOMPARE(dialog.selectedSize(), QSize(1000, 777));
        dialog.widthBox()->setValue(10);     // below the minimum
        dialog.heightBox()->setValue(20000); // above the maximum
        QCOMPARE(dialog.selectedSize(), QSize(64, 8192));
    }

    void setSelectedSizeFindsPresetOrCustom()
    {
        ImageExportDialog dialog;
        dialog.setSelectedSize(QSize(2560, 1440));
        QCOMPARE(dialog.presetBox()->currentIndex(), 2);
        QCOMPARE(dialog.selectedSize(), QSize(2560, 1440));
        dialog.setSelectedSize(QSize(800, 600));
        QCOMPARE(dialog.presetBox()->currentIndex(), dialog.presetBox()->count() - 1);
        QCOMPARE(dialog.selectedSize(), QSize(800, 600));
        QVERIFY(dialog.widthBox()->isEnabled());
        dialog.setSelectedSize(QSize(1, 100000));
        QCOMPARE(dialog.selectedSize(), QSize(64, 8192));
    }

    void savedPngDecodesAtTheSize()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("view.png"));
        QImage image(1280, 720, QImage::Format_RGB32);
        image.fill(QColor(10, 200, 30));
        image.setPixel(5, 7, qRgb(255, 0, 0));
        QString error;
        QVERIFY2(ImageExportDialog::saveImage(image, path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.read(8), QByteArray("\x89PNG\r\n\x1a\n", 8));
        QImageReader reader(path);
        QCOMPARE(reader.format(), QByteArray("png"));
        const QImage back = reader.read();
        QCOMPARE(back.size(), QSize(1280, 720));
        QCOMPARE(back.pixel(5, 7), qRgb(255, 0, 0));
        QCOMPARE(back.pixel(100, 100), qRgb(10, 200, 30));
    }

    void failedWriteNamesFileAndKeepsOldOne()
    {
        QTemporaryDir dir;
        QImage image(64, 64, QImage::Format_RGB32);
        image.fill(Qt::white);
        QString error;
        const QString missing = dir.filePath(QStringLiteral("no/such/dir/view.png"));
        QVERIFY(!ImageExportDialog::saveImage(image, missing, &error));
        QVERIFY2(error.startsWith(missing), qPrintable(error));

        const QString path = dir.filePath(QStringLiteral("view.xyz"));
        {
            QFile old(path);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("old");
        }
        QVERIFY(!ImageExportDialog::saveImage(image, path, &error));
        QVERIFY2(error.contains(QStringLiteral("xyz")), qPrintable(error));
        QFile old(path);
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("old"));

        QVERIFY(
            !ImageExportDialog::saveImage(QImage(), dir.filePath(QStringLiteral("n.png")), &error));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("n.png"))));
    }
};

QTEST_MAIN(TestImageExportDialog)
#include "tst_ImageExportDialog.moc"
