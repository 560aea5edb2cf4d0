#include "cli/FilePaths.h"

#include "cli/UsageProblem.h"

#include "SceneLoading.h"

#include <QDir>
#include <QFileInfo>

namespace clab::cli {

namespace {

// Symbolic links followed up to this depth when they lead to a file that does not exist yet;
// a loop beyond it is left as it is (writing to it fails later with its own message).
constexpr int kLinkDepth = 40;

} // namespace

FilePaths::FilePaths(const QString& scene)
{
    if (!isBuiltInName(scene))
        input(QStringLiteral("SCENE"), scene);
}

void FilePaths::input(const QString& option, const QString& path)
{
    entries_.push_back({option, path, false});
}

void FilePaths::output(const QString& option, const QString& path)
{
    entries_.push_back({option, path, true});
}

QString FilePaths::resolved(const QString& path)
{
    if (path.isEmpty() || path == QLatin1String("-"))
        return {};
    QFileInfo info(path);
    for (int depth = 0; info.isSymLink() && !info.exists() && depth < kLinkDepth; ++depth)
        info = QFileInfo(info.symLinkTarget()); // a dangling link: where writing would create
    if (info.exists())
        return info.isFile() ? info.canonicalFilePath() : QString();
    // Not there yet: its directory resolved, then its name.
    const QString directory = QFileInfo(info.absolutePath()).canonicalFilePath();
    const QString base = directory.isEmpty() ? info.absolutePath() : directory;
    return QDir::cleanPath(base + QLatin1Char('/') + info.fileName());
}

void FilePaths::check() const
{
    std::vector<QString> paths;
    paths.reserve(entries_.size());
    for (const Entry& e : entries_)
        paths.push_back(resolved(e.path));
    for (std::size_t i = 0; i < entries_.size(); ++i)
        for (std::size_t j = 0; j < i; ++j) {
            const Entry& a = entries_[j];
            const Entry& b = entries_[i];
            if (!(a.output || b.output) || paths[i].isEmpty() || paths[i] != paths[j])
                continue;
            const QString what = a.output && b.output ? QStringLiteral("one output would replace "
                                                                       "the other")
                                                      : QStringLiteral("the output would replace "
                                                                       "the input");
            throw UsageProblem{QStringLiteral("%1 %2 and %3 %4 are the same file: %5; give "
                                              "different files")
                                   .arg(a.option, a.path, b.option, b.path, what)};
        }
}

} // namespace clab::cli
