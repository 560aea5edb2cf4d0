#pragma once

#include "study/Measurements.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace clab {

/// \brief Reads measured traces for a fit: a text table with a time column and measured
/// columns, as people have them: comma-separated (CSV), semicolon-separated with decimal
/// commas (European spreadsheets: "0,01;25,002"), tab-separated (Tracker, spreadsheets), or
/// separated by blanks.
///
/// Lines starting with '#' and blank lines are skipped. The separator is the first of ';',
/// tab, ',' found in the first three other lines, else runs of blanks; with any but ',' a
/// number may have a decimal comma. A first line of words with fewer fields than a header of
/// words below it is a title and skipped (Tracker's "mass A" above "t x y"). The first other
/// line is the header when any of its fields is not a number (enclosing double quotes are
/// removed); without a header the columns are named 1, 2, ...
/// Each mapping picks a column, names the trace quantity it measures and scales it to SI
/// units; times are scaled and shifted into simulation time. Every problem throws
/// FileError(Invalid) naming the line, the column and why (a field that is not a number, NaN
/// or infinity, a row with too few or too many fields, a time not after the one before), or
/// FileError(Read) when the file cannot be read.
class MeasurementFile {
public:
    /// One measured column and what it measures.
    struct Mapping {
        QString column;       ///< header name, or 1-based number for a file without header
        std::string quantity; ///< trace column: "s", "x", "phi", ...
        double scale = 1.0;   ///< factor to the quantity's SI unit (0.01 for cm → m)
        double sigma = 0.0;   ///< standard deviation in SI units after scaling; 0: unknown
    };
    /// How the time column is found and turned into simulation time: t_sim = scale t + offset.
    struct Time {
        QString column;      ///< empty: the column named t or time, else the first column
        double scale = 1.0;  ///< 0.001 for milliseconds
        double offset = 0.0; ///< seconds added after scaling
    };

    /// (Default Time: the column t or time, unscaled; not a default argument, which a nested
    /// struct with member initializers cannot be inside its class.)
    static Measurements load(const QString& path, const std::vector<Mapping>& mappings)
    {
        return load(path, mappings, Time{});
    }
    static Measurements load(const QString& path, const std::vector<Mapping>& mappings,
                             const Time& time);
    /// The bytes of the file at `path`; FileError(Read) when it cannot be read.
    static QByteArray read(const QString& path);
    /// The columns of `text` other than the default time column (t or time, else the first),
    /// as mappings name them; empty when it has no data line. Reads only the first data line:
    /// load or parse checks the rest.
    static QStringList measuredColumns(const QByteArray& text);
    /// All columns of `text` in file order, time included, as measuredColumns reads them.
    static QStringList columns(const QByteArray& text);
    /// The column Time{} reads as time among `columns`: t or time, else the first ("" when
    /// there is none).
    static QString defaultTimeColumn(const QStringList& columns);
    /// Mappings of the columns other than the time (`timeColumn`, or the default one) whose
    /// names are trace quantities (x → x; another case when no name matches exactly), unscaled:
    /// what GUI and CLI map when the user has mapped nothing.
    static std::vector<Mapping> mappingsByName(const QStringList& columns,
                                               const QString& timeColumn,
                                               const std::vector<std::string>& quantities);
    /// The column a whole file reads with as time: the default one (t, time, else the first)
    /// or, when its values do not increase, the first column whose values do; every row is
    /// checked with each other column as a quantity. Throws the default's FileError otherwise.
    static QString readableTimeColumn(const QByteArray& text, const QString& name);
    /// The same from text in memory; `name` names it in messages.
    static Measurements parse(const QByteArray& text, const QString& name,
                              const std::vector<Mapping>& mappings, const Time& time);
};

} // namespace clab
