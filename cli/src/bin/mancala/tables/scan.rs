//! The table files of a directory as `info` and `verify` see them.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use tables::Table;

/// One table file as `info` and `verify` see it.
pub(super) struct FileInfo {
    pub(super) path: PathBuf,
    pub(super) table: Result<Table, tables::TableError>,
}

/// Every table file of `dir`, each mapped (or why it could not be).
pub(super) fn scan(dir: &Path) -> Result<Vec<FileInfo>> {
    let files = tables::table_files(dir).context("cannot list the table directory")?;
    Ok(files
        .into_iter()
        .map(|path| {
            // SAFETY: as in `open`.
            let table = unsafe { Table::map(&path) };
            FileInfo { path, table }
        })
        .collect())
}

/// The name of a table file, for listings.
pub(super) fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Why the file name `name` disagrees with its header, when it does: the name is how readers find
/// a layer, so a file under another layer's name would be skipped or refused where it is looked
/// for.
pub(super) fn name_disagrees(name: &str, h: &tables::Header) -> Option<String> {
    let expected = h.id.file_name(h.layer);
    (name != expected).then(|| {
        format!(
            "the header is layer {} of {}, whose file is named {expected}",
            h.layer, h.id
        )
    })
}
