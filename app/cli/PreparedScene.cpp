#include "cli/PreparedScene.h"

#include "cli/UsageProblem.h"

#include "CsvWriter.h"
#include "FileError.h"
#include "integrate/Simulator.h"

namespace clab::cli {

void checkColumns(const CsvWriter& writer, const MechanicalSystem& system)
{
    try {
        writer.columnIndices(Simulator::emptyTrace(system));
    } catch (const FileError& e) {
        throw UsageProblem{QStringLiteral("--columns: ") + e.reason()};
    }
}

} // namespace clab::cli
