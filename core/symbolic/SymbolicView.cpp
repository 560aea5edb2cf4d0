#include "symbolic/SymbolicView.h"

#include "symbolic/SymbolicTapes.h"

namespace clab {

struct SymbolicView::Tapes {
    ExpressionTape points; ///< the model's view tape, with this view's parameters
    std::vector<double> parameters;
    std::vector<double> in; ///< (t, q)
};

SymbolicView::SymbolicView(std::shared_ptr<const SymbolicModel> model,
                           const ParameterValues& values)
    : model_(std::move(model)), tapes_(std::make_unique<Tapes>())
{
    tapes_->points = model_->tapes().view;
    tapes_->parameters = model_->parameterVector(values);
    tapes_->points.setFixed(tapes_->parameters.data());
    tapes_->in.assign(static_cast<std::size_t>(1 + model_->dof()), 0.0);
}

SymbolicView::~SymbolicView() = default;
SymbolicView::SymbolicView(SymbolicView&&) noexcept = default;
SymbolicView& SymbolicView::operator=(SymbolicView&&) noexcept = default;

void SymbolicView::points(const Eigen::VectorXd& q, double t, Eigen::VectorXd& xyz) const
{
    std::vector<double>& in = tapes_->in;
    in[0] = t;
    const int n = model_->dof();
    for (int i = 0; i < n && i < q.size(); ++i)
        in[static_cast<std::size_t>(1 + i)] = q[i];
    xyz.resize(tapes_->points.outputCount());
    tapes_->points.evaluate(in.data(), xyz.data());
}

std::vector<Eigen::Vector3d> SymbolicView::curve(int c, int samples) const
{
    const SystemDescription::ViewCurve& curve =
        model_->description().curves[static_cast<std::size_t>(c)];
    ExpressionTape tape = model_->tapes().curves[static_cast<std::size_t>(c)];
    tape.setFixed(tapes_->parameters.data());
    std::vector<Eigen::Vector3d> out(static_cast<std::size_t>(samples));
    for (int k = 0; k < samples; ++k) {
        const double u = curve.from + (curve.to - curve.from) * k / (samples - 1.0);
        tape.evaluate(&u, out[static_cast<std::size_t>(k)].data());
    }
    return out;
}

} // namespace clab
