//! Output files of `verify` (`--csv`, `--plot`, ...): written whole to a temporary file next to
//! the target, then renamed over it.

use anyhow::{anyhow, Context, Result};
use std::path::{Path, PathBuf};

/// A file to be written atomically; created (and removed) once up front, so that an unwritable
/// path is reported before any long computation.
pub(super) struct OutFile {
    path: PathBuf,
    tmp: PathBuf,
}

impl OutFile {
    pub(super) fn new(path: &Path, flag: &str) -> Result<Self> {
        let name = path
            .file_name()
            .ok_or_else(|| anyhow!("{flag} {}: not a file name", path.display()))?
            .to_string_lossy()
            .into_owned();
        let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
        std::fs::write(&tmp, b"")
            .with_context(|| format!("{flag} {}: cannot write there", path.display()))?;
        let _ = std::fs::remove_file(&tmp);
        Ok(Self {
            path: path.to_path_buf(),
            tmp,
        })
    }

    pub(super) fn write(&self, bytes: &[u8], flag: &str) -> Result<()> {
        let ctx = || format!("{flag} {}", self.path.display());
        std::fs::write(&self.tmp, bytes).with_context(ctx)?;
        if let Err(e) = std::fs::rename(&self.tmp, &self.path) {
            let _ = std::fs::remove_file(&self.tmp);
            return Err(e).with_context(ctx);
        }
        Ok(())
    }
}
