//! Puts the git commit into `mancala --version` when built from a checkout; a build from a
//! source archive, or without git installed, just has the crate version.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn main() {
    let suffix = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(commit) => {
            // A new commit moves HEAD's reflog; rebuild the version string then.
            for p in ["HEAD", "logs/HEAD"] {
                if let Some(path) = git(&["rev-parse", "--git-path", p]) {
                    println!("cargo:rerun-if-changed={path}");
                }
            }
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some();
            format!(" (git {commit}{})", if dirty { ", modified" } else { "" })
        }
        None => String::new(),
    };
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-env=MANCALA_VERSION_SUFFIX={suffix}");
}
