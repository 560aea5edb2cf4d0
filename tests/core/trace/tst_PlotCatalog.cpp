#include "integrate/Simulator.h"
#include "scenes/SceneRegistry.h"
#include "trace/PlotCatalog.h"
#include "trace/TraceSeries.h"

#include <QtTest>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

using namespace clab;

namespace {

Trace runScene(const std::string& scene)
{
    const auto system = SceneRegistry::find(scene)->create({});
    SimulationOptions options;
    options.tEnd = 0.2;
    options.dt = 0.05;
    return Simulator(*system).run(options);
}

std::set<std::string> ids(const std::vector<PlotSpec>& presets)
{
    std::set<std::string> result;
    for (const PlotSpec& spec : presets)
        result.insert(spec.id);
    return result;
}

} // namespace

class TestPlotCatalog : public QObject {
    Q_OBJECT

private slots:
    void everyPresetNamesOnlyKnownQuantities();
    void everyTraceHasEnergyForcesAndResidual();
    void rigidBodyPresetsOnlyForTheRigidBody();
    void particlesGetTheirPath();
    void findReturnsThePresetOrNull();
};

void TestPlotCatalog::everyPresetNamesOnlyKnownQuantities()
{
    for (const SceneDefinition& scene : SceneRegistry::builtIn()) {
        const Trace trace = runScene(scene.name);
        const std::vector<PlotSpec> presets = PlotCatalog::presets(trace);
        QVERIFY(!presets.empty());
        QCOMPARE(ids(presets).size(), presets.size()); // ids are unique
        // Files name plots by these ids before any trace exists (lessons).
        for (const PlotSpec& spec : presets)
            QVERIFY2(std::count(PlotCatalog::ids().begin(), PlotCatalog::ids().end(), spec.id) == 1,
                     spec.id.c_str());
        for (const PlotSpec& spec : presets) {
            const QByteArray where = QByteArray::fromStdString(scene.name + "/" + spec.id);
            QVERIFY2(!spec.id.empty() && !spec.title.empty(), where);
            QVERIFY2(!spec.y.empty(), where);
            QVERIFY2(TraceSeries::contains(trace, spec.x), where + " x=" + spec.x.c_str());
            for (const std::string& y : spec.y)
                QVERIFY2(TraceSeries::contains(trace, y), where + " y=" + y.c_str());
        }
    }
}

void TestPlotCatalog::everyTraceHasEnergyForcesAndResidual()
{
    for (const SceneDefinition& scene : SceneRegistry::builtIn()) {
        const std::vector<PlotSpec> presets = PlotCatalog::presets(runScene(scene.name));
        const PlotSpec* energy = PlotCatalog::find(presets, "energy");
        QVERIFY(energy);
        QCOMPARE(energy->title, std::string("Energy audit"));
        QCOMPARE(energy->x, std::string("t"));
        QCOMPARE(energy->y.back(), std::string("E_balance"));
        const PlotSpec* forces = PlotCatalog::find(presets, "forces");
        QVERIFY(forces);
        QCOMPARE(forces->y, (std::vector<std::string>{"|Q|", "|Qci|", "|Qcni|"}));
        const PlotSpec* residual = PlotCatalog::find(presets, "residual");
        QVERIFY(residual);
        QVERIFY(residual->logY);
        QCOMPARE(residual->y, std::vector<std::string>{"residual_max"});
    }
    // The rheonomic scene's ideal force works: the audit shows that work too.
    const std::vector<PlotSpec> rheonomic = PlotCatalog::presets(runScene("acatastatic-particle"));
    const PlotSpec* energy = PlotCatalog::find(rheonomic, "energy");
    QVERIFY(energy);
    QCOMPARE(energy->y,
             (std::vector<std::string>{"T", "V", "E", "W_nonideal", "W_ideal", "E_balance"}));
}

void TestPlotCatalog::rigidBodyPresetsOnlyForTheRigidBody()
{
    const std::set<std::string> rigid = {"omega", "quat-norm", "rigid-energy"};
    for (const SceneDefinition& scene : SceneRegistry::builtIn()) {
        const std::set<std::string> have = ids(PlotCatalog::presets(runScene(scene.name)));
        for (const std::string& id : rigid)
            QVERIFY2(have.count(id) == (scene.name == "rigid-body" ? 1u : 0u),
                     qPrintable(QString::fromStdString(scene.name + ": " + id)));
    }
    const std::vector<PlotSpec> presets = PlotCatalog::presets(runScene("rigid-body"));
    QCOMPARE(PlotCatalog::find(presets, "omega")->y, (std::vector<std::string>{"w1", "w2", "w3"}));
    QCOMPARE(PlotCatalog::find(presets, "quat-norm")->y,
             std::vector<std::string>{"quat_norm_error"});
    QVERIFY(!PlotCatalog::find(presets, "path")); // quaternion components are no path
}

void TestPlotCatalog::particlesGetTheirPath()
{
    for (const char* scene :
         {"bead-on-wire", "ring", "nonholonomic-particle", "acatastatic-particle"}) {
        const std::vector<PlotSpec> presets = PlotCatalog::presets(runScene(scene));
        const PlotSpec* path = PlotCatalog::find(presets, "path");
        QVERIFY2(path, scene);
        QCOMPARE(path->x, std::string("x"));
        QCOMPARE(path->y, std::vector<std::string>{"y"});
        QCOMPARE(path->title, std::string("Path"));
    }
}

void TestPlotCatalog::findReturnsThePresetOrNull()
{
    const std::vector<PlotSpec> presets = PlotCatalog::presets(runScene("ring"));
    QVERIFY(PlotCatalog::find(presets, "energy") == &presets.front());
    QVERIFY(!PlotCatalog::find(presets, "no-such-plot"));
    QVERIFY(!PlotCatalog::find({}, "energy"));
}

QTEST_GUILESS_MAIN(TestPlotCatalog)
#include "tst_PlotCatalog.moc"
