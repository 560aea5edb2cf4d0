#pragma once

#include <QStatusBar>

namespace clab {

/// \brief A status bar whose message is cut with "…" where it would run under the permanent
/// widgets (a narrow window, large text), the whole message then in its tooltip.
///
/// QStatusBar draws a message in one line and clips it at the permanent widgets without a sign.
class ElidingStatusBar : public QStatusBar {
    Q_OBJECT
public:
    explicit ElidingStatusBar(QWidget* parent = nullptr);

    /// The room the message has: from the left margin to the first visible permanent widget.
    QRect messageRect() const;
    /// The message as drawn: currentMessage(), elided to messageRect()'s width.
    QString shownMessage() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void childEvent(QChildEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void updateToolTip();
};

} // namespace clab
