#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace clab {

class SceneLoader;

/// \brief The status bar's "Loading chain-400.json… [====  ] Cancel" while a SceneLoader works;
/// hidden otherwise.
class LoadingIndicator : public QWidget {
    Q_OBJECT

public:
    LoadingIndicator(SceneLoader* loader, QWidget* parent = nullptr);

    QPushButton* cancelButton() const { return cancel_; }
    QProgressBar* bar() const { return bar_; }

private:
    void begin(const QString& path);

    SceneLoader* loader_;
    QLabel* label_;
    QProgressBar* bar_;
    QPushButton* cancel_;
};

} // namespace clab
