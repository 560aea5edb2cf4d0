#include "export/CsvExportDialog.h"

#include "session/SceneStore.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSet>
#include <QVBoxLayout>

namespace clab {

CsvExportDialog::CsvExportDialog(const std::vector<std::string>& columns, int runCount,
                                 QWidget* parent)
    : QDialog(parent), runCount_(runCount), filter_(new QLineEdit(this)),
      list_(new QListWidget(this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Export Trace as CSV"));
    filter_->setPlaceholderText(tr("Filter columns"));
    filter_->setClearButtonEnabled(true);
    for (const std::string& name : columns) {
        auto* item = new QListWidgetItem(QString::fromStdString(name), list_);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }
    auto* all = new QPushButton(tr("&All"), this);
    auto* none = new QPushButton(tr("&None"), this);
    all->setToolTip(tr("Check the columns shown"));
    none->setToolTip(tr("Uncheck the columns shown"));

    auto* layout = new QVBoxLayout(this);
    auto* label = new QLabel(tr("&Columns:"), this);
    label->setBuddy(list_);
    layout->addWidget(label);
    layout->addWidget(filter_);
    layout->addWidget(list_);
    auto* row = new QHBoxLayout;
    row->addWidget(all);
    row->addWidget(none);
    row->addStretch();
    layout->addLayout(row);
    if (runCount_ > 1) {
        auto* box = new QGroupBox(tr("%1 runs").arg(runCount_), this);
        oneFile_ = new QRadioButton(tr("One file with a \"run\" column"), box);
        perRun_ = new QRadioButton(tr("One file per run"), box);
        oneFile_->setChecked(true);
        auto* boxLayout = new QVBoxLayout(box);
        boxLayout->addWidget(oneFile_);
        boxLayout->addWidget(perRun_);
        layout->addWidget(box);
    }
    comment_ = new QCheckBox(tr("Start with a &comment header (# scene, parameters, units)"), this);
    comment_->setObjectName(QStringLiteral("commentHeader"));
    comment_->setToolTip(tr("Lines starting with # before the column names; pandas reads them "
                            "with comment='#'. Off: a plain RFC 4180 file."));
    layout->addWidget(comment_);
    layout->addWidget(buttons_);

    connect(filter_, &QLineEdit::textChanged, this, &CsvExportDialog::setFilter);
    connect(all, &QPushButton::clicked, this, [this] { checkShown(true); });
    connect(none, &QPushButton::clicked, this, [this] { checkShown(false); });
    connect(list_, &QListWidget::itemChanged, this, &CsvExportDialog::updateOk);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateOk();
}

std::vector<std::string> CsvExportDialog::selectedColumns() const
{
    std::vector<std::string> columns;
    for (int i = 0; i < list_->count(); ++i)
        if (list_->item(i)->checkState() == Qt::Checked)
            columns.push_back(list_->item(i)->text().toStdString());
    return columns;
}

void CsvExportDialog::setColumnChecked(const std::string& column, bool checked)
{
    const QString name = QString::fromStdString(column);
    for (int i = 0; i < list_->count(); ++i)
        if (list_->item(i)->text() == name)
            list_->item(i)->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

void CsvExportDialog::checkShown(bool checked)
{
    for (int i = 0; i < list_->count(); ++i)
        if (!list_->item(i)->isHidden())
            list_->item(i)->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

void CsvExportDialog::setFilter(const QString& text)
{
    if (filter_->text() != text)
        filter_->setText(text); // comes back here through textChanged
    const QString needle = text.trimmed();
    for (int i = 0; i < list_->count(); ++i)
        list_->item(i)->setHidden(!list_->item(i)->text().contains(needle, Qt::CaseInsensitive));
}

QString CsvExportDialog::filter() const
{
    return filter_->text();
}

std::vector<std::string> CsvExportDialog::shownColumns() const
{
    std::vector<std::string> columns;
    for (int i = 0; i < list_->count(); ++i)
        if (!list_->item(i)->isHidden())
            columns.push_back(list_->item(i)->text().toStdString());
    return columns;
}

CsvExportDialog::RunMode CsvExportDialog::runMode() const
{
    return perRun_ != nullptr && perRun_->isChecked() ? RunMode::FilePerRun : RunMode::OneFile;
}

void CsvExportDialog::setRunMode(RunMode mode)
{
    if (perRun_ == nullptr)
        return;
    (mode == RunMode::FilePerRun ? perRun_ : oneFile_)->setChecked(true);
}

QPushButton* CsvExportDialog::okButton() const
{
    return buttons_->button(QDialogButtonBox::Ok);
}

void CsvExportDialog::updateOk()
{
    okButton()->setEnabled(!selectedColumns().empty());
}

QString CsvExportDialog::sanitizeLabel(const QString& label)
{
    // "mu = 0.1, mu_s = 0.3" → "mu=0.1_mu_s=0.3": no blanks around '=' and ',' (a shell
    // handles the name unquoted), then anything but letters, digits and . _ = - becomes '_'.
    static const QRegularExpression blanksAroundSeparators(QStringLiteral("\\s*([=,])\\s*"));
    QString out = label.trimmed();
    out.replace(blanksAroundSeparators, QStringLiteral("\\1"));
    for (QChar& c : out) {
        const char16_t u = c.unicode();
        const bool keep = (u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') ||
                          (u >= '0' && u <= '9') || u == '.' || u == '_' || u == '=' || u == '-';
        if (!keep)
            c = QLatin1Char('_');
    }
    return out;
}

QStringList CsvExportDialog::perRunPaths(const QString& path,
                                         const std::vector<std::string>& labels)
{
    const QFileInfo info(path);
    QString suffix = info.suffix();
    // "a.b.csv" → base "a.b"; a name without suffix keeps all of it and gets ".csv".
    QString base = info.fileName();
    if (suffix.isEmpty())
        suffix = QStringLiteral("csv");
    else
        base.chop(suffix.size() + 1);
    const QDir dir = info.dir();

    QStringList paths;
    QSet<QString> taken; // lower case: two runs must not share a file on any file system
    for (std::size_t i = 0; i < labels.size(); ++i) {
        QString label = sanitizeLabel(QString::fromStdString(labels[i]));
        if (label.isEmpty())
            label = QStringLiteral("run%1").arg(i + 1);
        QString name = QStringLiteral("%1-%2.%3").arg(base, label, suffix);
        for (int n = 2; taken.contains(name.toLower()); ++n)
            name = QStringLiteral("%1-%2-%3.%4").arg(base, label).arg(n).arg(suffix);
        taken.insert(name.toLower());
        paths << dir.filePath(name);
    }
    return paths;
}

bool CsvExportDialog::commentHeader() const
{
    return comment_->isChecked();
}

void CsvExportDialog::setCommentHeader(bool on)
{
    comment_->setChecked(on);
}

QStringList CsvExportDialog::write(const SceneStore& store, const std::vector<LabelledTrace>& runs,
                                   const std::vector<std::string>& columns, RunMode mode,
                                   const QString& path, const std::vector<std::string>& comment)
{
    if (mode == RunMode::OneFile || runs.size() <= 1) {
        store.writeCsv(runs, columns, path, comment);
        return {path};
    }
    std::vector<std::string> labels;
    for (const LabelledTrace& run : runs)
        labels.push_back(run.label);
    const QStringList paths = perRunPaths(path, labels);
    for (std::size_t i = 0; i < runs.size(); ++i)
        store.writeCsv({runs[i]}, columns, paths[static_cast<qsizetype>(i)], comment);
    return paths;
}

} // namespace clab
