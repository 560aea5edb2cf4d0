#pragma once

class QVBoxLayout;
class QWidget;

namespace clab {

/// \brief The body of a panel that is rebuilt whole when the scene changes (the parameter and
/// system editors): one widget in the panel's layout, replaced by an empty one on each rebuild.
class PanelContent {
public:
    /// Puts an empty widget, with its own vertical layout, in place of `content` in `outer`, and
    /// returns that layout. The old widget is deleted later, not now: a rebuild can start inside
    /// one of its own signals.
    static QVBoxLayout* renew(QVBoxLayout* outer, QWidget*& content, QWidget* panel);
};

} // namespace clab
