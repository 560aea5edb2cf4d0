#pragma once

#include <QScrollArea>

namespace clab {

/// \brief A scroll area for a panel that scrolls up and down only: never a horizontal scroll
/// bar, and at least as wide as its content's minimum width (and a vertical scroll bar), so
/// that the dock around it is never narrower than what it holds.
class VerticalScrollArea : public QScrollArea {
    Q_OBJECT
public:
    explicit VerticalScrollArea(QWidget* parent = nullptr);

    /// Shows `content`, resized to the area's width.
    void setContent(QWidget* content);

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

} // namespace clab
