#pragma once

#include <QToolBar>

namespace clab {

/// \brief A tool bar that shows its buttons' text beside their icons while the whole row fits,
/// and only the icons (their names in the tooltips) when it does not.
///
/// QToolBar alone hides the buttons that do not fit behind its » menu: on a 1024-pixel
/// projector with large text, Reset Camera and Help would vanish there.
class AdaptiveToolBar : public QToolBar {
    Q_OBJECT
public:
    explicit AdaptiveToolBar(const QString& title, QWidget* parent = nullptr);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    /// Text or icons only, by the width the text needs and the width there is.
    void adapt();
    /// adapt() once the layout settled: a change of style inside a resize would resize again.
    void scheduleAdapt();

    int textWidth_ = 0; ///< the row's width with text, measured when last shown so
    bool adaptPending_ = false;
};

} // namespace clab
