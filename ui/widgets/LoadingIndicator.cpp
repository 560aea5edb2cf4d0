#include "LoadingIndicator.h"

#include "session/SceneLoader.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

#include <cmath>

namespace clab {

LoadingIndicator::LoadingIndicator(SceneLoader* loader, QWidget* parent)
    : QWidget(parent), loader_(loader), label_(new QLabel(this)), bar_(new QProgressBar(this)),
      cancel_(new QPushButton(tr("Cancel"), this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label_);
    layout->addWidget(bar_);
    layout->addWidget(cancel_);
    bar_->setRange(0, 100);
    bar_->setMaximumWidth(fontMetrics().averageCharWidth() * 16);
    cancel_->setToolTip(tr("Stop loading and keep the scene that is open"));
    hide();

    connect(cancel_, &QPushButton::clicked, loader_, &SceneLoader::cancel);
    connect(loader_, &SceneLoader::progressed, this, [this](double fraction) {
        if (!isVisible() && loader_->isLoading())
            begin(loader_->path());
        bar_->setValue(static_cast<int>(std::lround(100 * fraction)));
    });
    connect(loader_, &SceneLoader::loaded, this, &QWidget::hide);
    connect(loader_, &SceneLoader::failed, this, &QWidget::hide);
    connect(loader_, &SceneLoader::cancelled, this, [this] {
        if (!loader_->isLoading())
            hide();
    });
}

void LoadingIndicator::begin(const QString& path)
{
    label_->setText(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    bar_->setValue(0);
    show();
}

} // namespace clab
