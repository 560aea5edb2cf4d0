#include "HelpDialog.h"

#include "plots/ForceKind.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QKeySequence>
#include <QStringList>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace clab {

namespace {

QString arrowRow(ForceKind kind, const QString& explanation)
{
    const QString color = forceColor(kind).name();
    return QStringLiteral("<tr><td style='padding:6px 10px; white-space:nowrap;'>"
                          "<span style='color:%1; font-size:x-large; "
                          "font-weight:bold;'>&#x2501;&#x2501;&#x25B6;</span></td>"
                          "<td style='padding:6px 10px; white-space:nowrap;'><b style='color:%1; "
                          "font-size:large;'>%2</b></td>"
                          "<td style='padding:6px 10px;'><b>%3.</b> %4</td></tr>")
        .arg(color, forceSymbol(kind).toHtmlEscaped(), forceDescription(kind).toHtmlEscaped(),
             explanation);
}

QString shortcutRow(const QString& keys, const QString& what)
{
    return QStringLiteral(
               "<tr><td width='260' style='padding:2px 12px 2px 0;'><b>%1</b></td><td>%2</td></tr>")
        .arg(keys, what);
}

/// The fundamental equation, and the three steps that lead to it.
QString equationSection()
{
    return QStringLiteral(
               "<h2>The fundamental equation of constrained motion</h2>"
               "<p style='font-size:x-large; text-align:center; margin:14px;'>"
               "<i>M</i>(<i>q</i>,<i>t</i>) <i>q&#x0308;</i> = "
               "<b style='color:%1'>Q</b> + <b style='color:%2'>Q<sup>c</sup><sub>i</sub></b> + "
               "<b style='color:%3'>Q<sup>c</sup><sub>ni</sub></b></p>"
               "<p>Udwadia and Kalaba describe a constrained system in three steps: "
               "(1) the <b>unconstrained system</b> <i>M q&#x0308; = Q</i> with the given force "
               "<i>Q</i>; "
               "(2) the <b>constraints</b>, differentiated to the acceleration level "
               "<i>A</i>(<i>q</i>, <i>q&#x0307;</i>, <i>t</i>) <i>q&#x0308;</i> = "
               "<i>b</i>(<i>q</i>, "
               "<i>q&#x0307;</i>, <i>t</i>), "
               "holonomic or nonholonomic, possibly redundant; "
               "(3) the <b>nature of the constraint forces</b>: for every virtual displacement "
               "<i>v</i> (<i>A v</i> = 0) the constraint force does the work "
               "<i>v</i><sup>T</sup><i>C</i>. "
               "<i>C</i> = 0 is D'Alembert's principle (ideal constraints); "
               "Coulomb friction is a non-ideal constraint with "
               "<i>C</i> = &minus;&mu; &#x2016;Q<sup>c</sup><sub>i</sub>&#x2016; "
               "<i>q&#x0307;</i>/&#x2016;<i>q&#x0307;</i>&#x2016;.</p>"
               "<p>With <i>a</i> = <i>M</i><sup>&minus;1</sup><i>Q</i> (the acceleration without "
               "constraints) "
               "and <i>K</i> = <i>A M</i><sup>&minus;1</sup><i>A</i><sup>T</sup>:</p>"
               "<p style='margin-left:30px; font-size:large;'>"
               "Q<sup>c</sup><sub>i</sub> = <i>A</i><sup>T</sup> <i>K</i><sup>+</sup> (<i>b</i> "
               "&minus; <i>A a</i>)<br>"
               "Q<sup>c</sup><sub>ni</sub> = <i>C</i> &minus; <i>A</i><sup>T</sup> "
               "<i>K</i><sup>+</sup> <i>A M</i><sup>&minus;1</sup> <i>C</i></p>"
               "<p>where <sup>+</sup> is the Moore&ndash;Penrose inverse. When <i>M</i> is "
               "singular "
               "(the rigid "
               "body in quaternions) the equation is applied to the auxiliary system "
               "<i>M</i> + &alpha;&sup2;<i>A</i><sup>T</sup><i>G A</i>; the motion does not depend "
               "on "
               "&alpha; or <i>G</i>.</p>")
        .arg(forceColor(ForceKind::Given).name(), forceColor(ForceKind::IdealConstraint).name(),
             forceColor(ForceKind::NonIdealConstraint).name());
}

/// What each colour of arrow shows.
QString arrowsSection()
{
    QString page;
    page += QStringLiteral("<h3>What the arrows mean</h3><table>");
    page +=
        arrowRow(ForceKind::Given,
                 QStringLiteral("The force you would put in Newton's law without any constraint: "
                                "gravity <i>m g</i>, applied forces, gyroscopic terms."));
    page += arrowRow(
        ForceKind::IdealConstraint,
        QStringLiteral("What ideal (frictionless) constraints exert to keep the motion on "
                       "them: the normal force of a wire or ring. It is perpendicular to every "
                       "motion the constraints allow, so it does no virtual work. Its magnitude is "
                       "the normal force friction is proportional to."));
    page +=
        arrowRow(ForceKind::NonIdealConstraint,
                 QStringLiteral(
                     "The part of the constraint force that does work: Coulomb friction "
                     "(&mu; times the normal force, against the sliding velocity) or drag. It "
                     "takes energy out: <i>E</i>(<i>t</i>) &minus; <i>E</i>(0) equals its work."));
    page += QStringLiteral(
        "</table>"
        "<p>Arrows are drawn at the body, with lengths proportional to the force. "
        "A force that is zero at the current time has no arrow. "
        "For the rigid body the generalized forces live in quaternion space; they are "
        "drawn as the body torques &frac12; <i>E</i>(<i>u</i>) <i>F</i> they correspond to.</p>");

    return page;
}

/// How to play with a scene and write a system of one's own.
QString usageSection()
{
    return QStringLiteral(
        "<h3>Playing with a scene</h3>"
        "<p>Every change in the <b>Scene</b> panel recomputes the whole trajectory "
        "in the background; playback continues from the same time. Turn on "
        "<b>Compare</b> to keep a faded, labelled trail of each earlier run "
        "(for example &mu; = 0.1, 0.2, 0.4). Every change can be undone.</p>"
        "<h3>A system of your own</h3>"
        "<p>Start from <b>File &rarr; New &rarr; System from Template</b>, or turn "
        "the current scene into one with <b>Edit &rarr; Duplicate as Editable "
        "System</b>. The <b>System</b> panel holds its equations: coordinates, "
        "parameters, the kinetic and potential energy, forces, constraints, "
        "friction, initial values and what the view draws. Each keystroke is "
        "checked: a valid system runs at once; a problem is underlined where it is "
        "and explained under the field, while the last valid system keeps "
        "running. The <b>Derivation</b> panel shows the equations derived from "
        "it and, at the time on screen, each step of the fundamental equation: "
        "M, Q, A, b, K = A M<sup>&minus;1</sup>A<sup>T</sup>, &lambda;, the "
        "constraint forces and the acceleration.</p>");
}

/// The shortcuts of `actions`, then the mouse and the keys of fields.
QString keyboardSection(const QList<QAction*>& actions)
{
    QString page;
    page += QStringLiteral("<h3>Keyboard</h3><table>");
    QStringList listed;
    for (const QAction* action : actions) {
        if (action->shortcuts().isEmpty())
            continue;
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts())
            keys << key.toString(QKeySequence::NativeText).toHtmlEscaped();
        // An action whose menu text says too little alone names itself in "helpText".
        QString what = action->property("helpText").toString();
        if (what.isEmpty())
            what = action->text().remove(QLatin1Char('&'));
        if (what.endsWith(QStringLiteral("…")))
            what.chop(1);
        const QString row = shortcutRow(keys.join(QStringLiteral(" or ")), what.toHtmlEscaped());
        if (!listed.contains(row)) // an action shared by a menu and a toolbar counts once
            listed << row;
    }
    page += listed.join(QString());
    page += shortcutRow(
        QStringLiteral("Mouse in the view"),
        QStringLiteral("Left drag rotates, right drag or wheel zooms, middle drag pans"));
    page += shortcutRow(QStringLiteral("Esc"),
                        QStringLiteral("In a field or slider: hand the arrow keys, Home, End and "
                                       "Space back to playback (as a click on the view does)"));
    page += shortcutRow(QStringLiteral("Shift+Up, Shift+Down"),
                        QStringLiteral("In a parameter field: a step ten times finer"));
    page += QStringLiteral("</table>");
    return page;
}

/// The papers and the book.
QString referencesSection()
{
    return QStringLiteral(
        "<h3>References</h3>"
        "<p>F. E. Udwadia and R. E. Kalaba, <i>An alternate proof for the equation of motion for "
        "constrained mechanical systems</i>; <i>Nonideal constraints and Lagrangian dynamics</i>; "
        "F. E. Udwadia and T. Wanichanon, <i>On general nonlinear constrained mechanical "
        "systems</i>; F. E. Udwadia and R. E. Kalaba, <i>Analytical Dynamics: A New Approach</i>, "
        "Cambridge University Press, 1996.</p>");
}

} // namespace

HelpDialog::HelpDialog(const QList<QAction*>& actions, QWidget* parent)
    : QDialog(parent), browser_(new QTextBrowser(this))
{
    setWindowTitle(tr("The Fundamental Equation — ConstraintLab Help"));
    browser_->setObjectName(QStringLiteral("helpBrowser"));
    browser_->setOpenExternalLinks(true);
    browser_->setHtml(html(actions));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(browser_);
    layout->addWidget(buttons);
    resize(820, 720);
}

QString HelpDialog::html(const QList<QAction*>& actions)
{
    return equationSection() + arrowsSection() + usageSection() + keyboardSection(actions) +
           referencesSection();
}

} // namespace clab
