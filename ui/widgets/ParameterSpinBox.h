#pragma once

#include <QDoubleSpinBox>

namespace clab {

/// \brief The spin box of a scene parameter: shows a value with as many decimals as it has
/// (0.1234 stays 0.1234, 0.2 is not "0.200000"), steps by its single step (a tenth of it with
/// Shift held), and ignores Space, which would otherwise blank the field.
class ParameterSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit ParameterSpinBox(QWidget* parent = nullptr);

    /// Significant decimals kept: what a person types, never binary noise.
    static constexpr int maxDecimals = 10;

    QString textFromValue(double value) const override;
    /// Room for about ten characters: Qt would size the box for the range's extremes at full
    /// decimals ("-1000000.0000000000"), far wider than a narrow dock.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    void stepBy(int steps) override;

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void step(int steps, bool fine);
};

} // namespace clab
