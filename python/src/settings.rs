//! The search arguments every Python entry point checks the same way (`hash_mb`, `time_limit`,
//! `tables`, `memory`), each with the message `mancala.solve` gives, so that `solve`, `analyze`
//! and `review` refuse the same bad value in the same words.

use crate::errors::value_error;
use crate::search::{available_memory, tables_dir};
use mancala::answers::{MemoryChoice, TableSize, TablesChoice};
use pyo3::prelude::*;
use std::path::PathBuf;

/// The transposition table's size when `hash_mb` is not given, in MiB: the CLI's default.
pub(crate) const DEFAULT_HASH_MB: u64 = 256;

/// `hash_mb` in bytes (`None`: [`DEFAULT_HASH_MB`]): at least 1 MiB, and, when given, no more
/// than the machine has available.
pub(crate) fn hash_bytes(hash_mb: Option<u64>) -> PyResult<u64> {
    let mb = hash_mb.unwrap_or(DEFAULT_HASH_MB);
    if mb == 0 {
        return Err(value_error("hash_mb must be at least 1"));
    }
    let bytes = mb
        .checked_mul(1 << 20)
        .ok_or_else(|| value_error(format!("hash_mb {mb} is too large")))?;
    if let (Some(_), Some(avail)) = (hash_mb, available_memory()) {
        if bytes > avail {
            return Err(value_error(format!(
                "hash_mb {mb} asks for more memory than this machine has available ({} MiB)",
                avail >> 20
            )));
        }
    }
    Ok(bytes)
}

/// The analyzer's table size for `hash_mb`: fixed when given ([`hash_bytes`]'s checks), else
/// one that grows with the search, as the CLI's.
pub(crate) fn table_size(hash_mb: Option<u64>) -> PyResult<TableSize> {
    match hash_mb {
        None => Ok(TableSize::growing()),
        Some(_) => Ok(TableSize::fixed(hash_bytes(hash_mb)?)),
    }
}

/// `time_limit` checked: a positive, finite number of seconds (at most 10^9), or `None`.
pub(crate) fn time_limit(t: Option<f64>) -> PyResult<Option<f64>> {
    match t {
        Some(t) if !(t.is_finite() && t > 0.0 && t <= 1e9) => Err(value_error(format!(
            "time_limit '{t}' is not a positive number of seconds"
        ))),
        t => Ok(t),
    }
}

/// An analyzer's `tables=`: not given or `True` the default directory's tables when it holds
/// the game's; a directory or a `Tables` those; `False`/`None` none.
pub(crate) fn tables_choice(arg: Option<&Bound<'_, PyAny>>) -> PyResult<TablesChoice> {
    let default = arg.is_none_or(|t| {
        t.downcast::<pyo3::types::PyBool>()
            .is_ok_and(|b| b.is_true())
    });
    if default {
        return Ok(TablesChoice::Default);
    }
    Ok(match tables_dir(arg)? {
        Some(d) => TablesChoice::Dir(d),
        None => TablesChoice::Off,
    })
}

/// An analyzer's `memory=`: not given or `True` the default file (`$MANCALA_MEMORY` = `off`:
/// none), a file, or `False` none.
pub(crate) fn memory_choice(arg: Option<&Bound<'_, PyAny>>) -> PyResult<MemoryChoice> {
    let Some(m) = arg else {
        return Ok(MemoryChoice::Default);
    };
    Ok(match m.downcast::<pyo3::types::PyBool>() {
        Ok(b) if b.is_true() => MemoryChoice::Default,
        Ok(_) => MemoryChoice::Off,
        Err(_) => MemoryChoice::File(m.extract::<PathBuf>().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(
                "memory= takes a file (str or os.PathLike), True (the default file) or False",
            )
        })?),
    })
}
