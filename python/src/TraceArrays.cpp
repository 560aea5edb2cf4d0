#include "TraceArrays.h"

#include "model/MechanicalSystem.h"

#include <pybind11/stl.h>

namespace py = pybind11;

namespace clab::python {

py::array_t<double> traceRows(const Trace& trace)
{
    return stackedRows({&trace}, {{}});
}

py::array_t<double> stackedRows(const std::vector<const Trace*>& traces,
                                const std::vector<std::vector<double>>& leading)
{
    std::size_t rows = 0;
    for (const Trace* trace : traces)
        rows += trace->samples.size();
    const std::size_t lead = leading.empty() ? 0 : leading.front().size();
    const std::size_t columns = lead + (traces.empty() ? 0 : traces.front()->columnNames().size());
    py::array_t<double> data({rows, columns});
    auto out = data.mutable_unchecked<2>();
    std::vector<double> row;
    py::ssize_t r = 0;
    for (std::size_t k = 0; k < traces.size(); ++k) {
        for (std::size_t i = 0; i < traces[k]->samples.size(); ++i, ++r) {
            for (std::size_t c = 0; c < lead; ++c)
                out(r, static_cast<py::ssize_t>(c)) = leading[k][c];
            traces[k]->row(i, row);
            for (std::size_t c = 0; c < row.size(); ++c)
                out(r, static_cast<py::ssize_t>(lead + c)) = row[c];
        }
    }
    return data;
}

py::dict traceDict(const Trace& trace, const MechanicalSystem& system)
{
    py::list events;
    for (const ContactEvent& event : trace.events)
        events.append(py::dict(py::arg("t") = event.t, py::arg("contact") = event.contact,
                               py::arg("contact_name") = system.contactName(event.contact),
                               py::arg("event") = ContactEvent::kindName(event.kind)));
    const RunStats& s = trace.stats;
    py::dict stats(py::arg("accepted_steps") = s.acceptedSteps,
                   py::arg("rejected_steps") = s.rejectedSteps,
                   py::arg("rhs_evaluations") = s.rhsEvaluations, py::arg("events") = s.events,
                   py::arg("restarts") = s.restarts, py::arg("projections") = s.projections,
                   py::arg("wall_seconds") = s.wallSeconds);
    return py::dict(py::arg("columns") = trace.columnNames(), py::arg("data") = traceRows(trace),
                    py::arg("events") = events, py::arg("stats") = stats,
                    py::arg("reached_end") = trace.reachedEnd,
                    py::arg("cancelled") = trace.cancelled);
}

} // namespace clab::python
