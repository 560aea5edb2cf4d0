#pragma once

#include <scenes/SceneDocument.h>

#include <QStringList>
#include <QWidget>

#include <memory>

class QTextBrowser;
class QLabel;

namespace clab {

class MechanicalSystem;
struct TraceSample;

/// \brief The derivation panel: a system's equations as mathematics, then the fundamental
/// equation taken apart at the time on screen (M, Q, A, b, K = A M⁻¹ Aᵀ, λ, Qᶜᵢ, Qᶜₙᵢ, q̈).
///
/// The equations (M(q), Q(q, q̇, t), each constraint with its row of A and its b, the slip
/// velocities of the friction contacts) come from DerivationSheet, so each block's "Copy as
/// LaTeX" puts exactly the lines of `constraintlab-cli derive --format latex` on the clipboard.
/// The numbers come from EquationBreakdown at the sample shown; they follow the time slider. A
/// built-in scene has no equations to show, but its numbers are shown all the same.
class DerivationPanel : public QWidget {
    Q_OBJECT
public:
    explicit DerivationPanel(QWidget* parent = nullptr);
    ~DerivationPanel() override;

    /// Shows `document`'s equations and the fundamental equation at `sample` (of a run of
    /// `document`). The system is built anew only when the document's scene or values change.
    void show(const SceneDocument& document, const TraceSample& sample);
    /// No run to show (a new document before its first result).
    void clear();

    /// The LaTeX a block's "Copy as LaTeX" copies, in the order of the blocks shown (tests).
    const QStringList& latexBlocks() const { return latex_; }
    /// The page as plain text (tests read the numbers from it).
    QString plainText() const;
    /// Copies block `index`'s LaTeX to the clipboard.
    void copyLatex(int index) const;

private:
    QString equationsHtml();
    QString numbersHtml(const TraceSample& sample);

    QTextBrowser* browser_;
    SceneDocument document_;
    std::unique_ptr<MechanicalSystem> system_;
    QStringList latex_;
};

} // namespace clab
