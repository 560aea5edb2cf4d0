#include "panels/SystemEditor.h"

#include "panels/PanelContent.h"
#include "panels/SystemFields.h"
#include "panels/SystemSections.h"
#include "session/SceneSession.h"

#include <model/ConstraintLabError.h>
#include <symbolic/SymbolicModel.h>
#include <symbolic/SystemDifference.h>
#include <symbolic/SystemError.h>

#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace clab {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

SystemEditor::SystemEditor(SceneSession* session, QWidget* parent)
    : QWidget(parent), session_(session)
{
    fields_ = new SystemFields(
        draft_, [this](const QString& what, bool typing) { edited(what, typing); }, this);
    SystemSections::Hooks hooks;
    hooks.restructure = [this](const QString& what, const std::function<void()>& change) {
        restructure(what, change);
    };
    hooks.changed = [this](const QString& what) {
        edited(what, false);
    };
    hooks.setMassForm = [this](int form) {
        setMassForm(form);
    };
    sections_ = new SystemSections(draft_, *fields_, std::move(hooks), this);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("systemProblem"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setStyleSheet(QStringLiteral(
        "QLabel { background: #fdecea; color: #7a1c1c; padding: 4px; border-radius: 3px; }"));
    summary_->hide();
    outer->addWidget(summary_);
    layout_ = new QVBoxLayout;
    layout_->setContentsMargins(0, 0, 0, 0);
    outer->addLayout(layout_, 1);

    connect(session_, &SceneSession::documentReset, this, &SystemEditor::sessionReset);
    connect(session_, &SceneSession::systemChanged, this, &SystemEditor::sessionSystemChanged);
    connect(session_, &SceneSession::valueChanged, this, &SystemEditor::parameterChanged);
    sessionReset();
}

// --- Following the session ---

SystemDescription SystemEditor::draftFromDocument() const
{
    const SceneDocument& document = session_->document();
    if (!document.system)
        return {};
    SystemDescription d = document.system->description();
    for (SystemDescription::Parameter& p : d.parameters) {
        const auto it = document.parameters.find(p.name);
        if (it != document.parameters.end() && !it->second.empty())
            p.value = it->second.front();
    }
    return d;
}

bool SystemEditor::hasUnappliedEdits() const
{
    return session_->document().system &&
           (draft_ != draftFromDocument() || !fields_->numberErrors().empty());
}

void SystemEditor::sessionReset()
{
    const SceneDocument& document = session_->document();
    draft_ = draftFromDocument();
    title_ = !document.title.empty() ? document.title
             : document.system       ? document.system->definition().title
                                     : std::string();
    notes_ = !document.notes.empty() ? document.notes
             : document.system       ? document.system->definition().description
                                     : std::string();
    fields_->clearNumberErrors();
    sections_->reset();
    rebuild();
}

void SystemEditor::sessionSystemChanged()
{
    if (applying_)
        return; // our own edit: the fields already show it
    // Undo or redo: the fields show the document's system again.
    sessionReset();
}

void SystemEditor::parameterChanged(const QString& key)
{
    // A slider in the Scene dock moved: the value field shows the new value.
    const std::string name = key.toStdString();
    for (SystemDescription::Parameter& p : draft_.parameters) {
        if (p.name != name)
            continue;
        const std::vector<double> value = session_->value(key);
        if (value.empty())
            return;
        p.value = value.front();
        if (auto* edit = qobject_cast<QLineEdit*>(field(key + QStringLiteral(".value"))))
            edit->setText(QString::number(p.value, 'g', 15));
    }
}

QWidget* SystemEditor::field(const QString& key) const
{
    return fields_->field(key);
}

QLabel* SystemEditor::message(const QString& key) const
{
    return fields_->message(key);
}

// --- Checking and applying ---

void SystemEditor::edited(const QString& what, bool typing)
{
    const int mergeId = typing ? fields_->typingId() : 0;
    if (!typing)
        fields_->endTyping();
    clearProblems();
    fields_->updateCompletions();
    if (!fields_->numberErrors().empty()) {
        const auto& [key, error] = *fields_->numberErrors().begin();
        showProblem(key, error, 0);
        return;
    }
    std::shared_ptr<const SymbolicModel> model;
    try {
        model = SymbolicModel::create(draft_, title_, notes_);
    } catch (const SystemError& e) {
        showProblem(qs(e.key()), qs(e.reason()), e.position());
        return;
    } catch (const std::exception& e) {
        showProblem(QString(), qs(e.what()), 0);
        return;
    }
    SceneDocument document = session_->document();
    document.system = SystemRef{model};
    document.title = title_;
    document.notes = notes_;
    document.parameters.clear();
    for (const SystemDescription::Parameter& p : draft_.parameters)
        document.parameters[p.name] = {p.value};
    applying_ = true;
    try {
        session_->editSystem(document, what, mergeId);
    } catch (const ConstraintLabError& e) {
        showProblem(QString(), qs(e.what()), 0);
    }
    applying_ = false;
}

void SystemEditor::restructure(const QString& what, const std::function<void()>& change)
{
    change();
    fields_->endTyping();
    rebuild();
    edited(what, false);
}

void SystemEditor::clearProblems()
{
    fields_->clearMarks();
    setProblem({}, {});
}

void SystemEditor::showProblem(const QString& key, const QString& reason, int column)
{
    const std::optional<QString> marked = fields_->mark(key, reason, column);
    if (!marked) {
        setProblem(key.isEmpty() ? reason : key + QStringLiteral(": ") + reason, {});
        return;
    }
    const QString located = column > 0 ? tr("column %1: %2").arg(column).arg(reason) : reason;
    setProblem(key + QStringLiteral(": ") + located, *marked);
}

void SystemEditor::setProblem(const QString& problem, const QString& key)
{
    problemKey_ = key;
    const bool changed = problem != problem_;
    problem_ = problem;
    updateShown();
    summary_->setText(problem.isEmpty() ? QString()
                                        : tr("Not applied: %1\n%2").arg(problem, shownNotice_));
    summary_->setVisible(!problem.isEmpty());
    if (changed)
        emit problemChanged(problem);
}

void SystemEditor::updateShown()
{
    QStringList keys, details;
    if (!problem_.isEmpty() && session_->document().system) {
        const auto changes = SystemDifference::between(draftFromDocument(), draft_);
        for (const SystemDifference::Change& c : changes) {
            keys << qs(c.key);
            details << tr("%1 (shown: “%2”; in the field: “%3”)")
                           .arg(qs(c.key), qs(c.shown), qs(c.typed));
        }
        for (const auto& [key, error] : fields_->numberErrors()) {
            keys << key;
            details << tr("%1 (%2)").arg(key, error);
        }
        if (keys.isEmpty() && !problemKey_.isEmpty()) {
            keys << problemKey_;
            details << problemKey_;
        }
    }
    constexpr int listed = 3;
    if (details.size() > listed)
        details = details.mid(0, listed) << tr("%n more", nullptr, int(keys.size()) - listed);
    const QString notice =
        keys.isEmpty() ? QString()
                       : tr("Shown: the last valid system, not the text in the System editor, "
                            "which differs at %1.")
                             .arg(details.join(QStringLiteral("; ")));
    const QString status =
        keys.isEmpty() ? QString()
                       : tr("Showing the last valid system: the System editor's %1 does not build")
                             .arg(problemKey_.isEmpty() ? keys.front() : problemKey_);
    differingKeys_ = keys;
    if (notice == shownNotice_ && status == shownStatus_)
        return;
    shownNotice_ = notice;
    shownStatus_ = status;
    emit shownChanged();
}

void SystemEditor::rebuild()
{
    fields_->clear();
    QVBoxLayout* layout = PanelContent::renew(layout_, content_, this);
    setProblem({}, {});
    if (!session_->document().system) {
        buildBuiltIn(layout);
        return;
    }
    buildHeading(layout);
    sections_->build(content_, layout);
    layout->addStretch(1);
}

void SystemEditor::buildHeading(QVBoxLayout* layout)
{
    auto* box = new QGroupBox(tr("System"), content_);
    auto* form = new QFormLayout(box);
    form->addRow(tr("Title"),
                 fields_->plain(
                     box, QStringLiteral("title"), title_,
                     [this](const std::string& t) { title_ = t; }, tr("Change the title"),
                     tr("shown in the view and the title bar")));
    auto* notes = new QPlainTextEdit(qs(notes_), box);
    notes->setObjectName(QStringLiteral("notes"));
    notes->setPlaceholderText(tr("what to look at, where the equations come from, …"));
    notes->setTabChangesFocus(true);
    notes->setFixedHeight(notes->fontMetrics().lineSpacing() * 4 + 12);
    // One undo step per visit of the field, as for the other fields.
    connect(notes, &QPlainTextEdit::textChanged, this, [this, notes] {
        notes_ = notes->toPlainText().toStdString();
        edited(tr("Change the notes"), true);
    });
    notes->installEventFilter(this);
    form->addRow(tr("Notes"), notes);
    layout->addWidget(box);
}

bool SystemEditor::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::FocusOut && watched->objectName() == QLatin1String("notes"))
        fields_->endTyping();
    return QWidget::eventFilter(watched, event);
}

void SystemEditor::buildBuiltIn(QVBoxLayout* layout)
{
    const SceneDefinition* definition = session_->definition();
    auto* label = new QLabel(
        tr("<b>%1</b> is a built-in scene, coded by hand. Duplicate it as a system written "
           "as equations to see its equations and change them.")
            .arg(definition ? qs(definition->title).toHtmlEscaped() : tr("This scene")),
        content_);
    label->setWordWrap(true);
    layout->addWidget(label);
    // Short: the text above says what it does, and the dock stays narrow with large text.
    auto* button = new QPushButton(tr("Duplicate as System"), content_);
    button->setObjectName(QStringLiteral("duplicateButton"));
    button->setToolTip(tr("Edit → Duplicate as Editable System"));
    connect(button, &QPushButton::clicked, this, &SystemEditor::duplicateRequested);
    layout->addWidget(button);
    layout->addStretch(1);
}

void SystemEditor::setMassForm(int form)
{
    // M of the running system, when the draft is that system: the new form states the same
    // masses (M is the Hessian of T, so T = ½ q̇ᵀ M q̇ exactly).
    const SceneDocument& document = session_->document();
    const bool exact = document.system && draft_ == draftFromDocument();
    const std::size_t n = draft_.coordinates.size();
    std::vector<std::vector<std::string>> M(n, std::vector<std::string>(n, "0"));
    if (exact) {
        M = document.system->massMatrixText();
    } else {
        for (std::size_t i = 0; i < n; ++i)
            M[i][i] = "1";
    }
    const QStringList names{tr("kinetic energy"), tr("masses"), tr("mass matrix")};
    restructure(tr("Give the mass as %1").arg(names[form]), [&] {
        draft_.kineticEnergy.clear();
        draft_.masses.clear();
        draft_.massMatrix.clear();
        if (form == 1) {
            for (std::size_t i = 0; i < n; ++i)
                draft_.masses.push_back(M[i][i]);
        } else if (form == 2) {
            draft_.massMatrix = M;
        } else {
            std::string T;
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j < n; ++j) {
                    if (M[i][j] == "0")
                        continue;
                    T += (T.empty() ? "" : " + ") + std::string("(") + M[i][j] + ")*" +
                         draft_.coordinates[i].name + "_dot*" + draft_.coordinates[j].name +
                         "_dot/2";
                }
            draft_.kineticEnergy = T;
        }
    });
}

} // namespace clab
