#include "ErrorTranslation.h"

#include "EngineErrorText.h"
#include "FileError.h"
#include "model/ConstraintLabError.h"

#include <exception>

namespace clab::python {

void setEngineError(const ConstraintLabError& error, const QString& source)
{
    QString text = EngineErrorText::message(error, source);
    if (!error.hint().empty())
        text += QStringLiteral("\nhint: ") + QString::fromStdString(error.hint());
    const bool input = error.kind() == ConstraintLabError::Kind::InvalidParameter ||
                       error.kind() == ConstraintLabError::Kind::InvalidInitialState;
    PyErr_SetString(input ? PyExc_ValueError : PyExc_RuntimeError, text.toStdString().c_str());
}

void registerErrorTranslation()
{
    pybind11::register_exception_translator([](std::exception_ptr error) {
        try {
            if (error)
                std::rethrow_exception(error);
        } catch (const FileError& e) {
            PyObject* type =
                e.kind() == FileError::Kind::Invalid ? PyExc_ValueError : PyExc_OSError;
            PyErr_SetString(type, e.what());
        } catch (const ConstraintLabError& e) {
            setEngineError(e, QString());
        }
    });
}

} // namespace clab::python
