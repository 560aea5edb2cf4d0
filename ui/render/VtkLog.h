#pragma once

namespace clab {

/// \brief Sends VTK's messages to Qt's log (category "constraintlab.vtk") instead of the
/// terminal: errors as warnings, warnings and text as info and debug, which are off unless
/// asked for (QT_LOGGING_RULES="constraintlab.vtk.info=true").
class VtkLog {
public:
    /// Installs the forwarding once; later calls do nothing. Called by every class that
    /// renders with VTK.
    static void install();
};

} // namespace clab
