//! Library errors as Python exceptions, in one place: bad input is a `ValueError`, a file
//! problem an `OSError`, each with the command line's one-line message.

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::PyErr;

/// A `ValueError` with `msg`: a message, or a library error (an unknown game, an option of
/// another game, a malformed position, ...), whose words name concepts and fit Python as they are.
pub fn value_error(msg: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(msg.to_string())
}

/// A table problem: `OSError` for anything about files (missing, unreadable, damaged, not the
/// tables asked for), since the fix is on the disk, not in the arguments.
pub fn table_error(context: &str, e: tables::TableError) -> PyErr {
    PyOSError::new_err(format!("{context}: {e}"))
}
