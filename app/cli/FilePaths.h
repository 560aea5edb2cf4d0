#pragma once

#include <QString>

#include <vector>

namespace clab::cli {

/// \brief The files one command reads and writes, each by the option that names it, checked
/// before anything runs so that no output replaces an input or another output.
///
/// Two paths are the same file when they resolve to the same absolute path after symbolic
/// links and relative parts ("./", "..") are resolved; an output that does not exist yet
/// resolves through its directory. Standard output ("-") and existing files that are not
/// regular (devices such as /dev/null, pipes) are never replaced, so they never collide.
class FilePaths {
public:
    /// Starts with a command's SCENE argument as an input when it names a file, not a built-in
    /// scene.
    explicit FilePaths(const QString& scene);

    /// A file the command reads: `option` as messages name it ("SCENE", "--data").
    void input(const QString& option, const QString& path);
    /// A file the command writes ("--output", "--events").
    void output(const QString& option, const QString& path);
    /// Throws UsageProblem naming both options when an output is an input or another output.
    void check() const;

    /// The absolute path `path` resolves to (links followed as far as they lead), or empty for
    /// "-" and for existing files that are not regular files.
    static QString resolved(const QString& path);

private:
    struct Entry {
        QString option, path;
        bool output;
    };
    std::vector<Entry> entries_;
};

} // namespace clab::cli
