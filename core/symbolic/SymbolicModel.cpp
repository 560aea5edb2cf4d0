#include "SymbolicModel.h"

#include "DerivationProgress.h"
#include "DerivationSheetWriter.h"
#include "ExpressionPrinter.h"
#include "SymbolicDerivation.h"
#include "SymbolicModelBuilder.h"
#include "SymbolicSystem.h"
#include "SymbolicTapes.h"

#include <algorithm>
#include <mutex>
#include <sstream>

namespace clab {

namespace {

// Printed the same way in every run (GiNaC's own order changes from run to run).
std::string str(const GiNaC::ex& e)
{
    return ExpressionPrinter(ExpressionPrinter::Style::Text).print(e);
}

std::string jsonString(const std::string& s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\', out += c;
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out + "\"";
}

} // namespace

std::shared_ptr<const SymbolicModel> SymbolicModel::create(const SystemDescription& description,
                                                           const std::string& title,
                                                           const std::string& notes)
{
    const std::lock_guard lock(ginacMutex());
    DerivationProgress::reach(0.0); // cancelled while waiting for the lock: stop here
    std::shared_ptr<SymbolicModel> model(new SymbolicModel);
    model->build(description, title, notes);
    return model;
}

void SymbolicModel::build(const SystemDescription& description, const std::string& title,
                          const std::string& notes)
{
    description_ = description;
    derivation_ = std::make_unique<SymbolicDerivation>();
    tapes_ = std::make_unique<Tapes>();
    Builder(*this, description_).run();

    definition_.name = "system";
    definition_.title = title.empty() ? "System from equations" : title;
    definition_.description = notes;
    definition_.end = description_.endDescription.empty() && hasEnd()
                          ? "the end function reaches zero"
                          : description_.endDescription;
    for (const SystemDescription::Parameter& p : description_.parameters) {
        ParameterSpec spec = ParameterSpec::scalar(p.name, p.unit, p.description, p.value);
        if (p.min)
            spec.min = *p.min;
        if (p.max)
            spec.max = *p.max;
        definition_.parameters.push_back(std::move(spec));
    }
    definition_.keyParameters = description_.keyParameters;
    // The factory keeps the model alive for as long as any of its systems.
    const std::weak_ptr<const SymbolicModel> self = weak_from_this();
    definition_.factory =
        [self](const ParameterValues& values) -> std::unique_ptr<MechanicalSystem> {
        return std::make_unique<SymbolicSystem>(self.lock(), values);
    };
}

SymbolicModel::SymbolicModel() = default;
SymbolicModel::~SymbolicModel()
{
    const std::lock_guard lock(ginacMutex());
    derivation_.reset(); // its expressions
}

std::recursive_mutex& SymbolicModel::ginacMutex()
{
    static std::recursive_mutex mutex;
    return mutex;
}

std::string SymbolicModel::derivationJson() const
{
    const std::lock_guard lock(ginacMutex());
    const SymbolicDerivation& d = *derivation_;
    const int n = dof();
    const int m = constraintCount();
    std::ostringstream out;
    auto list = [&](const std::vector<GiNaC::ex>& v) {
        std::string s = "[";
        for (std::size_t i = 0; i < v.size(); ++i)
            s += (i ? ", " : "") + jsonString(str(v[i]));
        return s + "]";
    };
    out << "{\n  \"coordinates\": [";
    for (int i = 0; i < n; ++i)
        out << (i ? ", " : "") << jsonString(str(d.q[i]));
    out << "],\n  \"T\": " << jsonString(str(d.T)) << ",\n  \"V\": " << jsonString(str(d.V))
        << ",\n  \"M\": [";
    for (int i = 0; i < n; ++i) {
        std::vector<GiNaC::ex> row;
        for (int j = 0; j < n; ++j)
            row.push_back(d.M(i, j));
        out << (i ? ",\n        " : "") << list(row);
    }
    out << "],\n  \"Q\": " << list(d.Q) << ",\n  \"constraints\": [";
    for (int r = 0; r < m; ++r)
        out << (r ? "," : "") << "\n    {\"name\": " << jsonString(rowNames_[r]) << ", \"kind\": \""
            << (std::any_of(unilaterals_.begin(), unilaterals_.end(),
                            [&](const Unilateral& u) { return u.row == static_cast<int>(r); })
                    ? "unilateral"
                : r < holonomic_ ? "holonomic"
                                 : "velocity")
            << "\", \"expression\": " << jsonString(str(d.constraint[r]))
            << ", \"A\": " << list(d.A[r]) << ", \"b\": " << jsonString(str(d.b[r])) << "}";
    out << (m ? "\n  " : "") << "],\n  \"friction\": [";
    for (std::size_t c = 0; c < contacts_.size(); ++c)
        out << (c ? "," : "") << "\n    {\"name\": " << jsonString(contacts_[c].name)
            << ", \"slip\": " << list(d.slip[c]) << "}";
    out << (contacts_.empty() ? "" : "\n  ") << "]";
    if (hasNonIdeal_)
        out << ",\n  \"C\": " << list(d.C);
    out << "\n}\n";
    return out.str();
}

std::string SymbolicModel::derivationText(Format format) const
{
    const std::lock_guard lock(ginacMutex());
    if (format == Format::Json)
        return derivationJson();
    // The sheet's blocks carry the lines, so `derive` shows what the derivation panel shows.
    const DerivationSheet sheet = derivationSheet();
    return format == Format::Latex ? sheet.latex() : sheet.text();
}

std::vector<double> SymbolicModel::parameterVector(const ParameterValues& values) const
{
    std::vector<double> p;
    for (const SystemDescription::Parameter& spec : description_.parameters)
        p.push_back(parameterValue(values, spec.name));
    return p;
}

DerivationSheet SymbolicModel::derivationSheet() const
{
    const std::lock_guard lock(ginacMutex());
    std::vector<std::string> contactNames;
    for (const Contact& c : contacts_)
        contactNames.push_back(c.name);
    const DerivationSheet sheet =
        DerivationSheetWriter::write(*derivation_, holonomic_, rowNames_, contactNames);
    if (unilaterals_.empty())
        return sheet;
    // A one-sided constraint's φ block says so: φ ≥ 0 instead of φ = 0 (docs/MATH.md §11).
    std::vector<DerivationSheet::Block> blocks = sheet.blocks();
    for (const Unilateral& u : unilaterals_)
        for (DerivationSheet::Block& b : blocks) {
            if (b.constraint != u.row || b.suffix != " = 0")
                continue;
            const std::string from = " (holonomic)";
            const std::string to = " (one-sided: phi >= 0, pushes only)";
            if (const auto at = b.title.find(from); at != std::string::npos)
                b.title.replace(at, from.size(), " (one-sided: φ ≥ 0, pushes only)");
            if (const auto at = b.text.find(from); at != std::string::npos)
                b.text.replace(at, from.size(), to);
            if (const auto at = b.text.rfind(" = 0\n"); at != std::string::npos)
                b.text.replace(at, 5, " >= 0\n");
            if (const auto at = b.latex.rfind(" = 0"); at != std::string::npos)
                b.latex.replace(at, 4, " \\geq 0");
            b.suffix = " ≥ 0";
        }
    return DerivationSheet(std::move(blocks));
}

std::vector<std::vector<std::string>> SymbolicModel::massMatrixText() const
{
    const std::lock_guard lock(ginacMutex());
    ExpressionPrinter printer(ExpressionPrinter::Style::Text);
    const auto n = static_cast<unsigned>(dof());
    std::vector<std::vector<std::string>> out(n);
    for (unsigned i = 0; i < n; ++i)
        for (unsigned j = 0; j < n; ++j)
            out[i].push_back(printer.print(derivation_->M(i, j)));
    return out;
}

} // namespace clab
