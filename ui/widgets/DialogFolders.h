#pragma once

#include <QString>

namespace clab {

/// \brief Where each file dialog starts: the folder last used for that kind of file, else
/// Documents, else the home folder — always one that exists. Nothing is ever created.
///
/// Kinds are short names ("scene", "image", "video", "csv", "plot"); the folders are kept in
/// QSettings under "folders/<kind>".
class DialogFolders {
public:
    /// The folder a dialog for `kind` starts in.
    static QString folder(const QString& kind);
    /// `fileName` in folder(kind): what a save dialog suggests.
    static QString suggestedPath(const QString& kind, const QString& fileName);
    /// Remembers the folder of a file the user chose for `kind`.
    static void remember(const QString& kind, const QString& chosenPath);
};

} // namespace clab
