#pragma once

#include <trace/LabelledTrace.h>

#include <QDialog>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

class QButtonGroup;
class QDialogButtonBox;
class QLineEdit;
class QListWidget;
class QPushButton;
class QCheckBox;
class QRadioButton;

namespace clab {

class SceneStore;

/// \brief Asks which trace columns to export as CSV and, with several runs (compare mode),
/// whether to write one file with a "run" column or one file per run.
///
/// The columns are listed in trace order with check boxes, all checked at first; the filter
/// hides the columns whose names do not contain its text, and "All"/"None" act on the columns
/// shown. OK is enabled while at least one column is checked. write() then exports through the
/// SceneStore, in the CLI's CSV format.
class CsvExportDialog : public QDialog {
    Q_OBJECT
public:
    enum class RunMode {
        OneFile,   ///< one file, first column "run" (also what a single run gets, without it)
        FilePerRun ///< base-LABEL.csv for each run (perRunPaths)
    };

    /// `columns`: Trace::columnNames() of the runs; `runCount` > 1 offers the run modes.
    CsvExportDialog(const std::vector<std::string>& columns, int runCount,
                    QWidget* parent = nullptr);

    /// The checked columns, in trace order.
    std::vector<std::string> selectedColumns() const;
    void setColumnChecked(const std::string& column, bool checked);
    /// Checks (all) or unchecks (none) the columns the filter shows.
    void checkShown(bool checked);

    void setFilter(const QString& text);
    QString filter() const;
    /// The columns the filter shows, in trace order.
    std::vector<std::string> shownColumns() const;

    RunMode runMode() const;
    void setRunMode(RunMode mode);
    bool offersRunModes() const { return runCount_ > 1; }

    QListWidget* columnList() const { return list_; }
    QPushButton* okButton() const;

    /// `label` made safe as part of a file name: [A-Za-z0-9._=-] kept, anything else → '_'.
    static QString sanitizeLabel(const QString& label);
    /// One file name per run, derived from the chosen `path`: DIR/BASE-LABEL.SUFFIX (SUFFIX
    /// "csv" when `path` has none), labels sanitized, empty ones "runN", made unique (ignoring
    /// case) with "-2", "-3", ….
    static QStringList perRunPaths(const QString& path, const std::vector<std::string>& labels);

    /// Writes `runs` with `columns` (empty = all) to `path` the way `mode` says: one file
    /// (through SceneStore::writeCsv), or one file per run at perRunPaths(path, labels). Each
    /// file is written atomically; the first failure throws (the store's exception, naming the
    /// file). Returns the files written.
    static QStringList write(const SceneStore& store, const std::vector<LabelledTrace>& runs,
                             const std::vector<std::string>& columns, RunMode mode,
                             const QString& path, const std::vector<std::string>& comment = {});

    /// Whether the file starts with "# ..." lines (scene, parameters, units); off by default.
    bool commentHeader() const;
    void setCommentHeader(bool on);

private:
    void updateOk();

    int runCount_;
    QLineEdit* filter_;
    QListWidget* list_;
    QCheckBox* comment_;
    QRadioButton* oneFile_ = nullptr;
    QRadioButton* perRun_ = nullptr;
    QDialogButtonBox* buttons_;
};

} // namespace clab
