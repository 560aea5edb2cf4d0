// Lesson files: read strictly like scene files (key and reason in every error), scene files
// found relative to the lesson, written back to the same steps, and the shipped lessons valid.
#include "FileError.h"
#include "LessonFile.h"
#include "SceneFile.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace clab;

namespace {

const QString shipped = QStringLiteral(CLAB_SOURCE_DIR "/scenes/lessons");

FileError lessonError(const QByteArray& json, const QString& folder = QDir::tempPath())
{
    try {
        LessonFile::fromJson(json, QStringLiteral("l.json"), folder);
    } catch (const FileError& e) {
        return e;
    }
    return FileError(FileError::Kind::Read, QString(), QStringLiteral("<no error>"),
                     QStringLiteral("the lesson was accepted"));
}

QByteArray withStep(const QByteArray& step)
{
    return R"({"lesson": 1, "steps": [)" + step + "]}";
}

} // namespace

class LessonFileTest : public QObject {
    Q_OBJECT

private slots:
    void stepsSetSceneValuesComparePlotCameraAndCaption();
    void sceneFilesAreFoundRelativeToTheLesson();
    void errorsNameTheKeyAndTheReason();
    void savedLessonReadsBackTheSameSteps();
    void shippedLessonsLoadAndEveryStepIsValid();
    void lessonsAreToldApartFromScenesByContent();
};

void LessonFileTest::stepsSetSceneValuesComparePlotCameraAndCaption()
{
    const Lesson lesson = LessonFile::fromJson(
        R"({"lesson": 1, "title": "Incline", "steps": [
            {"scene": "bead-on-wire", "parameters": {"mu": 0.8}, "compare": [{"mu": 0.3}],
             "plot": "energy", "caption": "stuck",
             "camera": {"position": [0, 0, 5], "focal_point": [0, 0, 0], "view_up": [0, 1, 0]}},
            {"scene": "ring"}]})",
        QStringLiteral("l.json"), QDir::tempPath());
    QCOMPARE(lesson.title, std::string("Incline"));
    QCOMPARE(lesson.steps.size(), std::size_t(2));
    const LessonStep& step = lesson.steps[0];
    QCOMPARE(step.document.scene, std::string("bead-on-wire"));
    QCOMPARE(step.document.parameters.at("mu"), std::vector<double>{0.8});
    // μₛ follows μ where the scene leaves it tied.
    QCOMPARE(step.document.parameters.at("mu_s"), std::vector<double>{0.8});
    QCOMPARE(step.compare.size(), std::size_t(1));
    QCOMPARE(step.comparedDocument(step.compare[0]).parameters.at("mu"), std::vector<double>{0.3});
    QCOMPARE(step.plot, std::string("energy"));
    QCOMPARE(step.caption, std::string("stuck"));
    QVERIFY(step.camera);
    QCOMPARE(step.camera->position[2], 5.0);
    QCOMPARE(lesson.steps[1].document.scene, std::string("ring"));
    QVERIFY(!lesson.steps[1].camera);
}

void LessonFileTest::sceneFilesAreFoundRelativeToTheLesson()
{
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath("scenes"));
    QFile scene(dir.filePath("scenes/steep.json"));
    QVERIFY(scene.open(QIODevice::WriteOnly));
    scene.write(R"({"format": 1, "scene": "bead-on-wire", "parameters": {"angle_deg": 60}})");
    scene.close();
    const Lesson lesson = LessonFile::fromJson(withStep(R"({"scene": "scenes/steep.json",
                                                            "parameters": {"mu": 0.5}})"),
                                               QStringLiteral("l.json"), dir.path());
    const LessonStep& step = lesson.steps[0];
    QCOMPARE(QString::fromStdString(step.scene), QDir(dir.path()).filePath("scenes/steep.json"));
    QCOMPARE(step.document.parameters.at("angle_deg"), std::vector<double>{60.0});
    QCOMPARE(step.document.parameters.at("mu"), std::vector<double>{0.5});
}

void LessonFileTest::errorsNameTheKeyAndTheReason()
{
    struct Case {
        QByteArray json;
        QString key;
        QString reason;
    };
    const Case cases[] = {
        {R"({"steps": []})", "lesson", "missing required key"},
        {R"({"lesson": 2, "steps": []})", "lesson", "reads lesson format 1"},
        {R"({"lesson": 1, "steps": []})", "steps", "at least one step"},
        {R"({"lesson": 1, "steps": [], "slides": 3})", "slides", "unknown key"},
        {withStep(R"({"parameters": {}})"), "steps[0].scene", "missing required key"},
        {withStep(R"({"scene": "pendulum"})"), "steps[0].scene", "not a built-in scene"},
        {withStep(R"({"scene": "missing.json"})"), "steps[0].scene", "cannot use the scene file"},
        {withStep(R"({"scene": "ring", "caption": 3})"), "steps[0].caption", "string"},
        {withStep(R"({"scene": "ring", "parameters": {"muu": 1}})"), "steps[0].parameters.muu",
         "unknown parameter of scene ring"},
        {withStep(R"({"scene": "ring", "parameters": {"mu": 7}})"), "steps[0].parameters.mu",
         "must be between 0 and 2"},
        {withStep(R"({"scene": "ring", "compare": [{"mu": -1}]})"), "steps[0].compare[0].mu",
         "must be between 0 and 2"},
        {withStep(R"({"scene": "ring", "compare": [{}]})"), "steps[0].compare[0]",
         "names no parameter"},
        {withStep(R"({"scene": "ring", "plot": "energie"})"), "steps[0].plot", "unknown plot"},
        {withStep(R"({"scene": "ring", "camera": {"position": [1, 2]}})"),
         "steps[0].camera.position", "3 numbers"},
        {withStep(R"({"scene": "ring", "camera": {"position": [0, 0, 1], "focal_point": [0, 0, 1],
                                               "view_up": [0, 1, 0]}})"),
         "steps[0].camera.focal_point", "look nowhere"},
        {withStep(R"({"scene": "ring", "zoom": 2})"), "steps[0].zoom", "unknown key"},
    };
    for (const Case& c : cases) {
        const FileError e = lessonError(c.json);
        QVERIFY2(e.kind() == FileError::Kind::Invalid, e.what());
        QCOMPARE(e.key(), c.key);
        QVERIFY2(e.reason().contains(c.reason), e.what());
        QVERIFY2(QString::fromUtf8(e.what()).startsWith("l.json: "), e.what());
    }
}

void LessonFileTest::savedLessonReadsBackTheSameSteps()
{
    QTemporaryDir dir;
    QVERIFY(QFile::copy(CLAB_SOURCE_DIR "/scenes/ring.json", dir.filePath("ring.json")));
    const QString path = dir.filePath("lessons/mine.json");
    QVERIFY(QDir(dir.path()).mkpath("lessons"));
    Lesson lesson;
    lesson.title = "Round trip";
    LessonStep step;
    step.scene = dir.filePath("ring.json").toStdString();
    step.document = SceneFile::load(dir.filePath("ring.json"));
    step.parameters = {{"mu", {0.25}}, {"mu_s", {0.25}}};
    step.document.parameters["mu"] = {0.25};
    step.document.parameters["mu_s"] = {0.25};
    step.compare = {{{"mu", {0.0}}, {"mu_s", {0.0}}}};
    step.camera = LessonStep::Camera{{0.1, 0.2, 4.5}, {0.0, -0.3, 0.0}, {0.0, 1.0, 0.0}};
    step.plot = "energy";
    step.caption = "μ = 0.25 — “stuck”?";
    lesson.steps = {step};
    LessonStep builtIn;
    builtIn.scene = "bead-on-wire";
    builtIn.document = SceneFile::loadBuiltIn(QStringLiteral("bead-on-wire"));
    lesson.steps.push_back(builtIn);
    LessonFile::save(lesson, path);
    QFile written(path);
    QVERIFY(written.open(QIODevice::ReadOnly));
    QVERIFY2(written.readAll().contains("\"scene\": \"../ring.json\""), "a relative path");
    QCOMPARE(LessonFile::load(path), lesson);
}

void LessonFileTest::shippedLessonsLoadAndEveryStepIsValid()
{
    const QStringList files = QDir(shipped).entryList({"*.json"}, QDir::Files);
    QCOMPARE(files.size(), 2);
    for (const QString& name : files) {
        const Lesson lesson = LessonFile::load(QDir(shipped).filePath(name));
        QVERIFY2(lesson.steps.size() >= 3, qPrintable(name));
        for (const LessonStep& step : lesson.steps) {
            SceneFile::validate(step.document, name);
            for (const ParameterValues& run : step.compare)
                SceneFile::validate(step.comparedDocument(run), name);
            QVERIFY2(!step.caption.empty(), qPrintable(name));
        }
    }
}

void LessonFileTest::lessonsAreToldApartFromScenesByContent()
{
    QVERIFY(LessonFile::looksLikeLesson(withStep(R"({"scene": "ring"})")));
    QFile scene(CLAB_SOURCE_DIR "/scenes/ring.json");
    QVERIFY(scene.open(QIODevice::ReadOnly));
    QVERIFY(!LessonFile::looksLikeLesson(scene.readAll()));
    QVERIFY(!LessonFile::looksLikeLesson("not json"));
}

QTEST_GUILESS_MAIN(LessonFileTest)
#include "tst_LessonFile.moc"
