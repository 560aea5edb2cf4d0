#include "panels/DerivationPanel.h"

#include "widgets/DotAccents.h"
#include "widgets/MessageBanner.h"

#include <model/MechanicalSystem.h>
#include <solve/EquationBreakdown.h>
#include <symbolic/DerivationSheet.h>
#include <symbolic/SymbolicModel.h>
#include <symbolic/SystemDescription.h>
#include <trace/TraceSample.h>

#include <AtomicFile.h>
#include <FileError.h>

#include "widgets/DialogFolders.h"

#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QFileDialog>
#include <QImage>
#include <QMessageBox>
#include <QPainter>
#include <QPdfWriter>
#include <QResizeEvent>
#include <QScrollBar>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <cmath>

namespace clab {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString number(double v)
{
    if (!std::isfinite(v))
        return QStringLiteral("—");
    if (v == 0.0)
        return QStringLiteral("0");
    return QString::number(v, 'g', 6).replace(QLatin1Char('-'), QChar(0x2212));
}

/// A matrix of rich-text cells between tall brackets (⎡⎢⎣ … ⎤⎥⎦), as mathematics sets them.
QString matrixHtml(const std::vector<std::vector<QString>>& cells)
{
    if (cells.empty())
        return QStringLiteral("( )");
    const std::size_t rows = cells.size();
    if (rows == 1 && cells[0].size() == 1)
        return cells[0][0];
    auto bracket = [rows](std::size_t r, bool left) {
        if (rows == 1)
            return QString(left ? QStringLiteral("[") : QStringLiteral("]"));
        if (r == 0)
            return QString(left ? QChar(0x23A1) : QChar(0x23A4));
        if (r + 1 == rows)
            return QString(left ? QChar(0x23A3) : QChar(0x23A6));
        return QString(left ? QChar(0x23A2) : QChar(0x23A5));
    };
    QString html = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"1\">");
    for (std::size_t r = 0; r < rows; ++r) {
        html += QStringLiteral("<tr><td>%1</td>").arg(bracket(r, true));
        for (const QString& cell : cells[r])
            html += QStringLiteral("<td align=\"center\" style=\"padding: 0 6px; white-space: "
                                   "nowrap;\">%1</td>")
                        .arg(cell);
        html += QStringLiteral("<td>%1</td></tr>").arg(bracket(r, false));
    }
    return html + QStringLiteral("</table>");
}

std::vector<std::vector<QString>> cellsOf(const Eigen::MatrixXd& m)
{
    std::vector<std::vector<QString>> cells(static_cast<std::size_t>(m.rows()));
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            cells[static_cast<std::size_t>(i)].push_back(number(m(i, j)));
    return cells;
}

QString latexOf(const QString& symbol, const Eigen::MatrixXd& m)
{
    QString body;
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        QStringList row;
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            row << QString::number(m(i, j), 'g', 6);
        body +=
            row.join(QStringLiteral(" & ")) + (i + 1 < m.rows() ? QStringLiteral(" \\\\ ") : "");
    }
    return QStringLiteral("\\[ %1 = \\begin{pmatrix}%2\\end{pmatrix} \\]\n").arg(symbol, body);
}

/// One block: its title with a link that copies LaTeX block `copy`, then "symbol = matrix"
/// and the suffix right after the matrix (" = 0").
QString blockHtml(const QString& title, const QString& symbol, const QString& matrix,
                  const QString& suffix, qsizetype copy)
{
    return QStringLiteral("<tr><td colspan=\"3\"><b>%1</b> <a href=\"copy:%2\"><small>%3"
                          "</small></a></td></tr>"
                          "<tr><td>&nbsp;&nbsp;</td><td valign=\"middle\" style=\"white-space: "
                          "nowrap;\">%4 =</td><td valign=\"middle\"><table cellspacing=\"0\">"
                          "<tr><td valign=\"middle\" style=\"white-space: nowrap;\">%5</td>"
                          "<td valign=\"middle\" style=\"white-space: nowrap;\">%6</td></tr>"
                          "</table></td></tr>")
        .arg(title)
        .arg(copy)
        .arg(QObject::tr("Copy as LaTeX"), symbol, matrix,
             QString(suffix).replace(QLatin1Char(' '), QStringLiteral("&nbsp;")));
}

} // namespace

DerivationPanel::DerivationPanel(QWidget* parent)
    : QWidget(parent), browser_(new QTextBrowser(this)), banner_(new MessageBanner(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    banner_->setObjectName(QStringLiteral("derivationNotice"));
    banner_->clearMessage();
    layout->addWidget(banner_);
    browser_->setObjectName(QStringLiteral("derivationBrowser"));
    browser_->setOpenLinks(false);
    browser_->setFrameShape(QFrame::NoFrame);
    layout->addWidget(browser_);
    connect(browser_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("copy"))
            copyLatex(url.path().toInt());
        else if (url.scheme() == QLatin1String("export"))
            exportWithDialog();
    });
    clear();
}

DerivationPanel::~DerivationPanel() = default;

void DerivationPanel::clear()
{
    system_.reset();
    document_ = {};
    latex_.clear();
    browser_->setHtml(tr("<p><i>The equations and the numbers of the fundamental equation show "
                         "here once a motion has been computed.</i></p>"));
}

QString DerivationPanel::plainText() const
{
    return DotAccents::plainText(browser_->document());
}

const QTextDocument* DerivationPanel::document() const
{
    return browser_->document();
}

void DerivationPanel::setNotice(const QString& notice)
{
    if (notice.isEmpty())
        banner_->clearMessage();
    else
        banner_->showMessage(MessageBanner::Kind::Warning, notice);
}

QString DerivationPanel::notice() const
{
    return banner_->isHidden() ? QString() : banner_->text();
}

void DerivationPanel::copyLatex(int index) const
{
    if (index >= 0 && index < latex_.size())
        QApplication::clipboard()->setText(latex_[index]);
}

void DerivationPanel::show(const SceneDocument& document, const TraceSample& sample)
{
    if (!system_ || !(document == document_)) {
        document_ = document;
        system_.reset();
        if (const SceneDefinition* definition = document.definition()) {
            try {
                system_ = definition->create(document.parameters);
            } catch (const std::exception&) {
                system_.reset(); // the banner already says why the run failed
            }
        }
    }
    latex_.clear();
    const int scroll = browser_->verticalScrollBar()->value();
    browser_->setHtml(equationsHtml() + numbersHtml(sample));
    DotAccents::apply(browser_->document());
    fitToWidth();
    browser_->verticalScrollBar()->setValue(scroll);
}

void DerivationPanel::fitToWidth()
{
    QTextDocument* page = browser_->document();
    QFont font = browser_->font();
    const double full = font.pointSizeF();
    if (full <= 0.0)
        return;
    // Down to 60 % of the panel's font: with large text (×1.7) that is still the normal size.
    const int room = browser_->viewport()->width() - 2;
    for (int percent = 100; percent >= 60; percent -= 5) {
        font.setPointSizeF(full * percent / 100.0);
        page->setDefaultFont(font);
        if (page->idealWidth() <= room)
            break;
    }
}

void DerivationPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitToWidth();
}

void DerivationPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    // Large Text: the browser takes its new font first (and resets the page's to it).
    if (event->type() == QEvent::FontChange)
        QTimer::singleShot(0, this, &DerivationPanel::fitToWidth);
}

void DerivationPanel::exportPage(const QString& path) const
{
    QTextDocument* document = browser_->document();
    const QSizeF size = document->size();
    QByteArray bytes;
    if (path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)) {
        // The page laid out as on screen, scaled to the paper's width and cut into pages.
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter pdf(&buffer);
        pdf.setPageSize(QPageSize(QPageSize::A4));
        pdf.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
        pdf.setTitle(tr("Derivation"));
        QPainter painter(&pdf);
        const double scale = std::min(pdf.width() / size.width(), pdf.resolution() / 96.0);
        const double pageHeight = pdf.height() / scale;
        for (double top = 0.0; top < size.height(); top += pageHeight) {
            if (top > 0.0)
                pdf.newPage();
            painter.save();
            painter.scale(scale, scale);
            painter.translate(0.0, -top);
            document->drawContents(&painter, QRectF(0.0, top, size.width(), pageHeight));
            painter.restore();
        }
        painter.end();
    } else {
        QImage image((size * 2.0).toSize(), QImage::Format_RGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.scale(2.0, 2.0);
        document->drawContents(&painter);
        painter.end();
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        image.save(&buffer, "PNG");
    }
    AtomicFile::write(path, bytes, tr("the derivation"));
}

void DerivationPanel::exportWithDialog()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save the Derivation"),
                                     DialogFolders::suggestedPath(QStringLiteral("derivation"),
                                                                  QStringLiteral("derivation.pdf")),
                                     tr("PDF (*.pdf);;PNG image (*.png)"));
    if (path.isEmpty())
        return;
    DialogFolders::remember(QStringLiteral("derivation"), path);
    try {
        exportPage(path);
    } catch (const FileError& e) {
        QMessageBox::warning(this, tr("Save the Derivation"), QString::fromUtf8(e.what()));
    }
}

QString DerivationPanel::equationsHtml()
{
    QString html =
        QStringLiteral("<p align=\"right\"><a href=\"export:page\"><small>%1</small></a></p>"
                       "<h3>%2</h3>")
            .arg(tr("Save as PDF or PNG…"), tr("Equations"));
    if (!document_.system) {
        return html + tr("<p>This built-in scene is coded by hand. <i>Edit → Duplicate as "
                         "Editable System</i> shows its equations.</p>");
    }
    const DerivationSheet sheet = document_.system.model->derivationSheet();
    html += QStringLiteral("<table cellspacing=\"4\">");
    for (const DerivationSheet::Block& block : sheet.blocks()) {
        std::vector<std::vector<QString>> cells;
        for (const auto& row : block.cells) {
            cells.emplace_back();
            for (const std::string& cell : row)
                cells.back().push_back(qs(cell).toHtmlEscaped());
        }
        latex_ << qs(block.latex);
        html += blockHtml(qs(block.title).toHtmlEscaped(), qs(block.symbol).toHtmlEscaped(),
                          matrixHtml(cells), qs(block.suffix).toHtmlEscaped(), latex_.size() - 1);
    }
    html += QStringLiteral("</table>");
    // The friction laws in words: C follows from the slip velocity v above and the normal force.
    for (const SystemDescription::Friction& f : document_.system->description().friction) {
        const QString name = qs(f.name).toHtmlEscaped();
        if (!f.magnitude.empty()) {
            html += tr("<p><b>Friction at %1</b>: a drag of constant size %2 against the slip "
                       "velocity, C = −%2·Gᵀ v/‖v‖; it holds the contact at rest while the force "
                       "needed stays within %2.</p>")
                        .arg(name, qs(f.magnitude).toHtmlEscaped());
            continue;
        }
        const QString muS = qs(f.muStatic.empty() ? f.mu : f.muStatic).toHtmlEscaped();
        html += tr("<p><b>Friction at %1</b>: while it slides, C = −μ‖N‖·Gᵀ v/‖v‖ with μ = %2 "
                   "and N the force of %3; while it sticks, v = 0 is an extra constraint whose "
                   "force (static friction) holds while it stays within μₛ‖N‖, μₛ = %4.</p>")
                    .arg(name, qs(f.mu).toHtmlEscaped(),
                         f.normal.empty() ? tr("all the constraints")
                                          : qs(f.normal.front()).toHtmlEscaped() +
                                                (f.normal.size() > 1 ? tr(" and others") : ""),
                         muS);
    }
    return html;
}

QString DerivationPanel::numbersHtml(const TraceSample& sample)
{
    QString html = QStringLiteral("<h3>%1</h3>")
                       .arg(tr("The fundamental equation at t = %1 s").arg(number(sample.t)));
    if (!system_)
        return html + tr("<p>No system to evaluate.</p>");
    const EquationBreakdown step(*system_, sample);
    QString rows;
    auto block = [&](const QString& title, const QString& symbol, const Eigen::MatrixXd& value,
                     const QString& latexSymbol) {
        if (value.size() == 0)
            return;
        latex_ << latexOf(latexSymbol, value);
        rows += blockHtml(title, symbol, matrixHtml(cellsOf(value)), {}, latex_.size() - 1);
    };
    block(tr("position"), QStringLiteral("q"), step.q(), QStringLiteral("q"));
    block(tr("velocity"), QStringLiteral("q̇"), step.qd(), QStringLiteral("\\dot{q}"));
    block(tr("mass matrix"), QStringLiteral("M"), step.M(), QStringLiteral("M"));
    block(tr("given force"), QStringLiteral("Q"), step.Q(), QStringLiteral("Q"));
    block(tr("constraints A q̈ = b"), QStringLiteral("A"), step.A(), QStringLiteral("A"));
    block(tr("right-hand side"), QStringLiteral("b"), step.b(), QStringLiteral("b"));
    block(tr("1. acceleration without constraints"), QStringLiteral("a = M⁻¹Q"), step.a(),
          QStringLiteral("a"));
    block(tr("2. how far a misses the constraints"), QStringLiteral("b − A a"),
          step.constraintViolation(), QStringLiteral("b - A a"));
    block(tr("3. the constraints as M sees them"), QStringLiteral("K = A M⁻¹ Aᵀ"), step.K(),
          QStringLiteral("K"));
    block(step.lambdaIsAuxiliary() ? tr("4. multipliers (auxiliary system, M singular)")
                                   : tr("4. multipliers, K λ = b − A a"),
          QStringLiteral("λ"), step.lambda(), QStringLiteral("\\lambda"));
    block(tr("5. ideal constraint force"), QStringLiteral("Qᶜᵢ = Aᵀλ"), step.Qci(),
          QStringLiteral("Q^{c}_{i}"));
    block(tr("6. non-ideal constraint force"), QStringLiteral("Qᶜₙᵢ"), step.Qcni(),
          QStringLiteral("Q^{c}_{ni}"));
    block(tr("7. acceleration"), QStringLiteral("q̈"), step.qdd(), QStringLiteral("\\ddot{q}"));
    html += QStringLiteral("<table cellspacing=\"4\">") + rows + QStringLiteral("</table>");

    QStringList notes;
    if (step.massIsSingular())
        notes << tr("M is singular: Qᶜᵢ and q̈ come from the auxiliary system M + α²AᵀGA, so there "
                    "is no a and no K.");
    for (const EquationBreakdown::Contact& c : step.contacts())
        notes << (c.sliding ? tr("Contact %1 slides: Qᶜₙᵢ holds its kinetic friction.")
                            : tr("Contact %1 sticks: Qᶜₙᵢ holds the static friction that keeps "
                                 "it at rest."))
                     .arg(qs(c.name).toHtmlEscaped());
    if (step.ok())
        notes << tr("Check: M q̈ − Q − Qᶜᵢ − Qᶜₙᵢ is at most %1 (%2 of the largest term).")
                     .arg(number(step.residualMax()), number(step.residualRelative()));
    else
        notes << tr("Stopped: %1").arg(qs(step.error()->what()).toHtmlEscaped());
    return html + QStringLiteral("<p>") + notes.join(QStringLiteral("<br>")) +
           QStringLiteral("</p>");
}

} // namespace clab
