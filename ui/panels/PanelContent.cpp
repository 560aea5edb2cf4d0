#include "panels/PanelContent.h"

#include <QVBoxLayout>
#include <QWidget>

namespace clab {

QVBoxLayout* PanelContent::renew(QVBoxLayout* outer, QWidget*& content, QWidget* panel)
{
    if (content) {
        outer->removeWidget(content);
        content->hide();
        content->deleteLater();
    }
    content = new QWidget(panel);
    outer->addWidget(content);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);
    return layout;
}

} // namespace clab
