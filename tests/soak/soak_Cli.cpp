// Soak test of the command-line tool (not part of ctest; docs/HARDENING.md): COUNT random
// variations of the built-in scenes and the shipped systems, each saved as a scene file and run
// by constraintlab-cli (built with sanitizers for this: preset asan). Every run must end with a
// result or a clear error (exit 0, 3 or 4) and without any sanitizer report.
//   soak_Cli PATH/TO/constraintlab-cli [COUNT=10000] [SEED=1]
#include "SoakVariation.h"

#include <FileError.h>
#include <SceneFile.h>
#include <scenes/SceneRegistry.h>

#include <QCoreApplication>
#include <QDir>
#include <QProcess>
#include <QTemporaryDir>

#include <cstdio>

using namespace clab;

int main(int argc, char* argv[])
{
    QCoreApplication application(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: soak_Cli PATH/TO/constraintlab-cli [COUNT] [SEED]\n");
        return 2;
    }
    const QString cli = args[1];
    const int count = args.size() > 2 ? args[2].toInt() : 10000;
    std::mt19937_64 random(args.size() > 3 ? args[3].toULongLong() : 1);

    std::vector<SceneDocument> sources;
    for (const SceneDefinition& definition : SceneRegistry::builtIn())
        sources.push_back(SceneFile::loadBuiltIn(QString::fromStdString(definition.name)));
    for (const QString& name : QDir(QStringLiteral(":/systems")).entryList({"*.json"}))
        sources.push_back(SceneFile::load(QStringLiteral(":/systems/") + name));

    QTemporaryDir directory;
    QDir failures(QDir::current().filePath(QStringLiteral("soak-failures")));
    int passed = 0, failed = 0, refused = 0;
    for (int i = 0; i < count; ++i) {
        SceneDocument document = sources[random() % sources.size()];
        for (const ParameterSpec& spec : document.definition()->parameters)
            if (random() % 2)
                document.parameters[spec.name] =
                    soak::varied(spec, document.parameters[spec.name], random);
        soak::varySimulation(document.simulation, random);
        const QString path = directory.filePath(QStringLiteral("variation.json"));
        try {
            SceneFile::save(document, path);
        } catch (const FileError&) {
            ++refused; // a variation the file format itself refuses (e.g. J off its triangle)
            continue;
        }
        QProcess run;
        run.start(cli, {QStringLiteral("run"), path, QStringLiteral("--output"),
                        QStringLiteral("/dev/null")});
        const bool finished = run.waitForFinished(120000);
        const QByteArray errors = run.readAllStandardError();
        const bool sanitizerReport =
            errors.contains("Sanitizer") || errors.contains("runtime error:");
        const int code = run.exitCode();
        if (!finished || run.exitStatus() != QProcess::NormalExit || sanitizerReport ||
            (code != 0 && code != 3 && code != 4)) {
            ++failed;
            failures.mkpath(QStringLiteral("."));
            const QString kept = failures.filePath(QStringLiteral("variation-%1.json").arg(i));
            QFile::copy(path, kept);
            std::fprintf(stderr, "FAIL %s (exit %d)\n%s\n", qPrintable(kept), code,
                         errors.left(4000).constData());
        } else {
            ++passed;
        }
        if ((i + 1) % 500 == 0)
            std::printf("%d of %d runs\n", i + 1, count), std::fflush(stdout);
    }
    std::printf("%d variations refused by the file format before running\n", refused);
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
