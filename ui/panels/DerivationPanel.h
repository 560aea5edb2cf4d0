#pragma once

#include <scenes/SceneDocument.h>

#include <QStringList>
#include <QWidget>

#include <memory>

class QTextBrowser;
class QTextDocument;
class QLabel;

namespace clab {

class MessageBanner;
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
    /// Says above the equations that they are not what the System editor's fields hold (the
    /// fields do not build, the last valid system is shown); empty hides it.
    void setNotice(const QString& notice);
    QString notice() const;
    /// The page's document (the dots of q̇ and q̈ are drawn as objects: widgets/DotAccents).
    const QTextDocument* document() const;

    /// The LaTeX a block's "Copy as LaTeX" copies, in the order of the blocks shown (tests).
    const QStringList& latexBlocks() const { return latex_; }
    /// The page as plain text (tests read the numbers from it).
    QString plainText() const;
    /// Copies block `index`'s LaTeX to the clipboard.
    void copyLatex(int index) const;
    /// Writes the page as shown, dots drawn as in the panel: a PDF (A4 pages) for a ".pdf"
    /// path, else a PNG at twice the screen's size. Throws FileError when it cannot be written.
    void exportPage(const QString& path) const;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    /// Sets the page's text smaller where its equations, which never wrap, are wider than the
    /// panel (large text in a narrow dock), rather than scroll sideways.
    void fitToWidth();
    /// Asks for a file and exports the page to it (the page's "Save as PDF or PNG" link).
    void exportWithDialog();
    QString equationsHtml();
    QString numbersHtml(const TraceSample& sample);

    QTextBrowser* browser_;
    MessageBanner* banner_;
    SceneDocument document_;
    std::unique_ptr<MechanicalSystem> system_;
    QStringList latex_;
};

} // namespace clab
