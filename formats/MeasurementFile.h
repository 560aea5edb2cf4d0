#pragma once

#include "study/Measurements.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace clab {

/// \brief Reads measured traces for a fit: a text table with a time column and measured
/// columns, comma-separated (CSV) or separated by spaces and tabs.
///
/// Lines starting with '#' and blank lines are skipped. The first other line is the header
/// when any of its fields is not a number; without a header the columns are named 1, 2, ...
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
    /// The columns of `text` other than the default time column (t or time, else the first),
    /// as mappings name them; empty when it has no data line. Reads only the first data line:
    /// load or parse checks the rest.
    static QStringList measuredColumns(const QByteArray& text);
    /// All columns of `text` in file order, time included, as measuredColumns reads them.
    static QStringList columns(const QByteArray& text);
    /// The column Time{} reads as time among `columns`: t or time, else the first ("" when
    /// there is none).
    static QString defaultTimeColumn(const QStringList& columns);
    /// The same from text in memory; `name` names it in messages.
    static Measurements parse(const QByteArray& text, const QString& name,
                              const std::vector<Mapping>& mappings, const Time& time);
};

} // namespace clab
