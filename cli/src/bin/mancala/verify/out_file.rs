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

/// What a survey writes and reads besides stdout: `--csv`, `--plot` and `--tables` (without a
/// directory: the default one), all checked before the first board is solved.
pub(super) struct SurveyFiles {
    pub(super) csv: Option<OutFile>,
    pub(super) plot: Option<OutFile>,
    pub(super) tables: Option<PathBuf>,
}

impl SurveyFiles {
    pub(super) fn open(
        csv: Option<&Path>,
        plot: Option<&Path>,
        tables: Option<&Option<PathBuf>>,
    ) -> Result<Self> {
        let csv = csv.map(|p| OutFile::new(p, "--csv")).transpose()?;
        let plot = plot.map(|p| OutFile::new(p, "--plot")).transpose()?;
        let tables = tables.map(|d| d.clone().unwrap_or_else(mancala::endgame::default_dir));
        if let Some(d) = &tables {
            crate::setup::tables_dir_exists(d)?;
        }
        Ok(Self { csv, plot, tables })
    }
}
