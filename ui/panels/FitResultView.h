#pragma once

#include <study/FitResult.h>

#include <QWidget>

#include <functional>
#include <string>

class QLabel;
class QTableWidget;

namespace clab {

class FitReport;

/// \brief The Fit dock's report of a finished fit: a table of parameters (value and standard
/// error to the digits the error allows, unit, correlations) and the lines under it (residual
/// RMS with units, χ²/dof, warnings), worded by FitReport as the CLI words them.
class FitResultView : public QWidget {
    Q_OBJECT

public:
    explicit FitResultView(QWidget* parent = nullptr);

    /// Shows `result`; `labelOf` names a parameter key for people.
    void show(const FitResult& result, const FitReport& report,
              const std::function<QString(const std::string&)>& labelOf);
    /// Clears the lines under the table (the table stays until the next result).
    void clearSummary();

    QTableWidget* table() const { return table_; }
    QLabel* summary() const { return summary_; }

private:
    QTableWidget* table_;
    QLabel* summary_;
};

} // namespace clab
