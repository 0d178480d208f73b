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

/// A whole-number argument as the library takes it (`u32`), or a `ValueError` naming the
/// argument: Python's ints are unbounded, and a negative or huge one would otherwise raise
/// `OverflowError` without saying which argument it was.
pub fn count(name: &str, value: i64) -> Result<u32, PyErr> {
    u32::try_from(value).map_err(|_| {
        value_error(format!(
            "{name}: {value} is out of range (a count from 0 to {})",
            u32::MAX
        ))
    })
}

/// [`count`] of an optional argument.
pub fn count_opt(name: &str, value: Option<i64>) -> Result<Option<u32>, PyErr> {
    value.map(|v| count(name, v)).transpose()
}
