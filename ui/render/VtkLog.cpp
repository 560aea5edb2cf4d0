#include "render/VtkLog.h"

#include <QLoggingCategory>

#include <vtkLogger.h>
#include <vtkObjectFactory.h>
#include <vtkOutputWindow.h>
#include <vtkSmartPointer.h>

namespace clab {

namespace {

Q_LOGGING_CATEGORY(vtkCategory, "constraintlab.vtk", QtWarningMsg)

/// VTK's output window, writing into the Qt log.
class QtLogOutputWindow : public vtkOutputWindow {
public:
    static QtLogOutputWindow* New();
    vtkTypeMacro(QtLogOutputWindow, vtkOutputWindow)

        void DisplayErrorText(const char* text) override
    {
        qCWarning(vtkCategory, "%s", text);
    }
    void DisplayWarningText(const char* text) override { qCInfo(vtkCategory, "%s", text); }
    void DisplayGenericWarningText(const char* text) override { qCInfo(vtkCategory, "%s", text); }
    void DisplayText(const char* text) override { qCDebug(vtkCategory, "%s", text); }
    void DisplayDebugText(const char* text) override { qCDebug(vtkCategory, "%s", text); }

protected:
    QtLogOutputWindow() = default;
};

vtkStandardNewMacro(QtLogOutputWindow)

} // namespace

void VtkLog::install()
{
    static const bool installed = [] {
        vtkOutputWindow::SetInstance(vtkSmartPointer<QtLogOutputWindow>::New());
        // VTK also logs every message to stderr through vtkLogger: the Qt log has them.
        vtkLogger::SetStderrVerbosity(vtkLogger::VERBOSITY_OFF);
        return true;
    }();
    (void)installed;
}

} // namespace clab
