#pragma once

#include <QDockWidget>

namespace clab {

/// \brief A dock whose title is drawn in the dock's own font.
///
/// QDockWidget draws a docked title in the font the application had when the dock was made,
/// so that View → Large Text for Projection enlarged the title bar but left its text small.
class PanelDock : public QDockWidget {
    Q_OBJECT
public:
    explicit PanelDock(const QString& title, QWidget* parent = nullptr);

protected:
    void paintEvent(QPaintEvent* event) override;
};

} // namespace clab
