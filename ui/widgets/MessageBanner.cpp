#include "widgets/MessageBanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace clab {

namespace {

struct BannerColors {
    const char* background;
    const char* border;
    const char* text;
};

// Light tints with a strong border, after KDE's Breeze message colours: readable on a
// projector and distinct from the force colours.
BannerColors colorsFor(MessageBanner::Kind kind)
{
    switch (kind) {
    case MessageBanner::Kind::Information:
        return {"#e3f0fb", "#3daee9", "#1b3a57"};
    case MessageBanner::Kind::Warning:
        return {"#fdf1dc", "#f67400", "#5a3300"};
    case MessageBanner::Kind::Error:
        return {"#fbe4e6", "#da4453", "#6b0f19"};
    }
    return {"#ffffff", "#888888", "#000000"};
}

} // namespace

MessageBanner::MessageBanner(QWidget* parent)
    : QFrame(parent), icon_(new QLabel(this)), label_(new QLabel(this)),
      close_(new QToolButton(this))
{
    setObjectName(QStringLiteral("messageBanner"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->setSpacing(10);
    icon_->setFixedSize(24, 24);
    label_->setWordWrap(true);
    label_->setTextFormat(Qt::PlainText);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    close_->setAutoRaise(true);
    close_->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close_->setToolTip(tr("Dismiss"));
    layout->addWidget(icon_, 0, Qt::AlignTop);
    layout->addWidget(label_, 1);
    layout->addWidget(close_, 0, Qt::AlignTop);
    connect(close_, &QToolButton::clicked, this, &MessageBanner::clearMessage);
    hide();
}

void MessageBanner::showMessage(Kind kind, const QString& text)
{
    kind_ = kind;
    const BannerColors c = colorsFor(kind);
    setStyleSheet(
        QStringLiteral("QFrame#messageBanner { background: %1; border: 1px solid %2;"
                       " border-left: 5px solid %2; border-radius: 4px; }"
                       " QFrame#messageBanner QLabel { color: %3; }")
            .arg(QLatin1String(c.background), QLatin1String(c.border), QLatin1String(c.text)));
    QStyle::StandardPixmap pixmap = QStyle::SP_MessageBoxInformation;
    if (kind == Kind::Warning)
        pixmap = QStyle::SP_MessageBoxWarning;
    else if (kind == Kind::Error)
        pixmap = QStyle::SP_MessageBoxCritical;
    icon_->setPixmap(style()->standardIcon(pixmap).pixmap(24, 24));
    label_->setText(text);
    show();
}

void MessageBanner::clearMessage()
{
    label_->clear();
    hide();
}

QString MessageBanner::text() const
{
    return label_->text();
}

} // namespace clab
