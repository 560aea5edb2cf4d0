#pragma once

#include <QDoubleSpinBox>

namespace clab {

/// \brief A spin box for tolerances: shows values as 1e-09 and steps by factors of ten.
class ScientificSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit ScientificSpinBox(QWidget* parent = nullptr);

    QString textFromValue(double value) const override;
    double valueFromText(const QString& text) const override;
    QValidator::State validate(QString& text, int& pos) const override;
    void stepBy(int steps) override;
};

} // namespace clab
