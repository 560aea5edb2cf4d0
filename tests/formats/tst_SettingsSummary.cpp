// describe's simulation lines, written from the table of settings: the same text, byte for
// byte, as the CLI's describe wrote setting by setting before the table drove it.
#include "SettingsSummary.h"

#include <integrate/SimulationSetting.h>

#include <QtTest>

using namespace clab;

namespace {

// The lines as describe wrote them by hand (app/CliApplication.cpp before the table).
QString handWritten(const SimulationOptions& s, const std::string& end)
{
    const auto number = [](double v) {
        return QString::number(v, 'g', QLocale::FloatingPointShortest);
    };
    QString text;
    QTextStream out(&text);
    out << "  t_end = " << number(s.tEnd) << " s, dt = " << number(s.dt) << " s, integrator = "
        << QString::fromStdString(SimulationSetting::find("integrator")->nameIn(s))
        << ", rtol = " << number(s.rtol) << ", atol = " << number(s.atol) << ", stabilization = "
        << QString::fromStdString(SimulationSetting::find("stabilization")->nameIn(s));
    if (s.stabilization == Stabilization::Baumgarte)
        out << " (alpha = " << number(s.baumgarteAlpha)
            << " 1/s, beta = " << number(s.baumgarteBeta) << " 1/s)";
    out << "\n";
    if (!end.empty())
        out << "  stop_at_end = " << (s.stopAtEnd ? "on" : "off")
            << ": when on, a run ends early where " << QString::fromStdString(end)
            << " (--stop-at-end, --no-stop-at-end)\n";
    out.flush();
    return text;
}

} // namespace

class TestSettingsSummary : public QObject {
    Q_OBJECT

private slots:
    void defaults();
    void baumgarteGainsFollowTheirStabilization();
    void sameAsTheHandWrittenLines_data();
    void sameAsTheHandWrittenLines();
};

void TestSettingsSummary::defaults()
{
    QCOMPARE(SettingsSummary::describeLines(SimulationOptions{}, ""),
             QStringLiteral("  t_end = 10 s, dt = 0.01 s, integrator = dopri5, rtol = 1e-09, "
                            "atol = 1e-12, stabilization = projection\n"));
}

void TestSettingsSummary::baumgarteGainsFollowTheirStabilization()
{
    SimulationOptions options;
    options.tEnd = 2.5;
    options.dt = 0.001;
    options.integrator = IntegratorKind::Rk4;
    options.stabilization = Stabilization::Baumgarte;
    options.baumgarteBeta = 0.125;
    options.stopAtEnd = true;
    QCOMPARE(SettingsSummary::describeLines(options, "the bead reaches the foot (s = 0)"),
             QStringLiteral("  t_end = 2.5 s, dt = 0.001 s, integrator = rk4, rtol = 1e-09, "
                            "atol = 1e-12, stabilization = baumgarte (alpha = 5 1/s, beta = "
                            "0.125 1/s)\n"
                            "  stop_at_end = on: when on, a run ends early where the bead "
                            "reaches the foot (s = 0) (--stop-at-end, --no-stop-at-end)\n"));
}

void TestSettingsSummary::sameAsTheHandWrittenLines_data()
{
    QTest::addColumn<int>("variant");
    for (int variant = 0; variant < 24; ++variant)
        QTest::newRow(qPrintable(QString::number(variant))) << variant;
}

void TestSettingsSummary::sameAsTheHandWrittenLines()
{
    QFETCH(int, variant);
    SimulationOptions options;
    options.stabilization = static_cast<Stabilization>(variant % 3);
    options.integrator = static_cast<IntegratorKind>(variant / 3 % 2);
    options.stopAtEnd = variant / 6 % 2 == 1;
    const std::string end = variant / 12 % 2 == 1 ? "the bead reaches the foot (s = 0)" : "";
    options.tEnd = 1e5 / (variant + 1);
    options.dt = 1.0 / (variant + 3);
    options.rtol = 1e-15 * (variant + 1);
    options.atol = 3e-7 * variant;
    options.baumgarteAlpha = variant * 0.1;
    options.baumgarteBeta = 1e7 + variant;
    QCOMPARE(SettingsSummary::describeLines(options, end), handWritten(options, end));
}

QTEST_APPLESS_MAIN(TestSettingsSummary)
#include "tst_SettingsSummary.moc"
