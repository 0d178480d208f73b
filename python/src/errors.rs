//! Library errors as Python exceptions, in one place: bad input is a `ValueError`, a file
//! problem an `OSError`, each with the command line's one-line message.

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::PyErr;

/// A `ValueError` with `msg`.
pub fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// A table problem: `OSError` for anything about files (missing, unreadable, damaged, not the
/// tables asked for), since the fix is on the disk, not in the arguments.
pub fn table_error(context: &str, e: tables::TableError) -> PyErr {
    PyOSError::new_err(format!("{context}: {e}"))
}
