//! The map of the project stays true: docs/architecture.md names every source folder, the
//! README's layout table names every top-level folder, and every reference in README.md and
//! docs/*.md (a relative link, its `#section`, a backticked repository path) resolves.
//!
//! Folders are the repository's tracked ones (`git ls-files`), so build outputs (`target/`,
//! `__pycache__/`, a venv) never count; outside a git checkout the file system is walked instead,
//! skipping hidden and generated folders.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The folders whose every subfolder docs/architecture.md must name.
const SOURCE_ROOTS: [&str; 9] = [
    "src",
    "cli/src",
    "solver/src",
    "tables/src",
    "python/src",
    "python/mancala",
    "tests",
    "scripts",
    "docs",
];

/// Every folder of the repository, relative to its root, with `/` separators.
fn folders(repo: &Path) -> BTreeSet<String> {
    let tracked = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(repo)
        .output()
        .ok()
        .filter(|o| o.status.success() && !o.stdout.is_empty());
    let mut dirs = BTreeSet::new();
    match tracked {
        Some(out) => {
            for file in String::from_utf8_lossy(&out.stdout).split('\0') {
                let mut parts: Vec<&str> = file.split('/').collect();
                parts.pop();
                for n in 1..=parts.len() {
                    dirs.insert(parts[..n].join("/"));
                }
            }
        }
        None => walk(repo, repo, &mut dirs),
    }
    dirs
}

/// The folders under `dir`, without hidden ones (but `.ci`) and generated ones.
fn walk(repo: &Path, dir: &Path, dirs: &mut BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let generated = ["target", "__pycache__", "node_modules"].contains(&name.as_str())
            || name.ends_with(".egg-info");
        if !e.path().is_dir() || generated || (name.starts_with('.') && name != ".ci") {
            continue;
        }
        let rel = e.path().strip_prefix(repo).unwrap().to_path_buf();
        dirs.insert(rel.to_string_lossy().replace('\\', "/"));
        walk(repo, &e.path(), dirs);
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_source_folder_is_on_the_architecture_page() {
    let repo = crate::util::repo();
    let page = read(&repo.join("docs/architecture.md"));
    let missing: Vec<String> = folders(&repo)
        .into_iter()
        .filter(|d| {
            SOURCE_ROOTS
                .iter()
                .any(|r| d == r || d.starts_with(&format!("{r}/")))
        })
        .filter(|d| !page.contains(&format!("`{d}/`")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/architecture.md does not name these folders; add a line for each to its table \
         \"One line per folder\", written `folder/`:\n  {}",
        missing.join("\n  ")
    );
}

#[test]
fn every_top_level_folder_is_in_the_readme_layout() {
    let repo = crate::util::repo();
    let readme = read(&repo.join("README.md"));
    let layout = readme
        .split("\n## Layout")
        .nth(1)
        .expect("README.md has a \"## Layout\" section")
        .split("\n## ")
        .next()
        .unwrap_or_default();
    let missing: Vec<String> = folders(&repo)
        .into_iter()
        .filter(|d| !d.contains('/'))
        .filter(|d| !layout.contains(&format!("`{d}/`")))
        .collect();
    assert!(
        missing.is_empty(),
        "README.md's layout table does not name these top-level folders (add a row, written \
         `folder/`): {}",
        missing.join(", ")
    );
}

/// The lines of a Markdown file outside its fenced code blocks, with their numbers (from 1).
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push((i + 1, line));
        }
    }
    out
}

/// A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (a repeated heading's later ones suffixed `-1`, ...).
fn anchors(text: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    for (_, line) in prose(text) {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let s = slug(heading.trim_start_matches('#'));
        let mut a = s.clone();
        let mut n = 0;
        while !seen.insert(a.clone()) {
            n += 1;
            a = format!("{s}-{n}");
        }
    }
    seen
}

/// The targets of the inline links `[text](target)` and reference definitions `[x]: target`
/// of a line.
fn links(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            out.push(&rest[..end]);
        }
    }
    let t = line.trim_start();
    if t.starts_with('[') {
        if let Some(at) = t.find("]: ") {
            out.push(t[at + 3..].split_whitespace().next().unwrap_or_default());
        }
    }
    out
}

/// The backticked spans of a line.
fn code_spans(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// Every unresolved reference of the Markdown file `doc` (named `name` in messages): its links
/// are relative to its folder, its backticked paths to the repository's root `repo`.
fn broken_references(repo: &Path, doc: &Path, name: &str, tops: &HashSet<String>) -> Vec<String> {
    let text = read(doc);
    let dir = doc.parent().unwrap_or(repo);
    let mut broken = Vec::new();
    for (n, line) in prose(&text) {
        for target in links(line) {
            let target = target.trim_matches(['<', '>']);
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target, None),
            };
            let file = if path.is_empty() {
                doc.to_path_buf()
            } else {
                normalise(&dir.join(path))
            };
            if !file.exists() {
                broken.push(format!("{name}:{n}: link to {target}: no such file"));
                continue;
            }
            if let Some(anchor) = anchor {
                let is_md = file.extension().is_some_and(|e| e == "md");
                if is_md && !anchors(&read(&file)).contains(anchor) {
                    broken.push(format!(
                        "{name}:{n}: link to {target}: its page has no heading #{anchor}"
                    ));
                }
            }
        }
        for span in code_spans(line) {
            // A repository path: from a top-level folder, one word, no pattern or placeholder.
            let Some((first, _)) = span.split_once('/') else {
                continue;
            };
            let pattern = span
                .chars()
                .any(|c| c.is_whitespace() || "*<>{}[]$~|".contains(c))
                || span.contains("...");
            if pattern || !tops.contains(first) {
                continue;
            }
            let path = span.split(['#', ':']).next().unwrap_or(span);
            if !repo.join(path).exists() {
                broken.push(format!("{name}:{n}: `{span}` names no file or folder"));
            }
        }
    }
    broken
}

/// `a/b/../c` as `a/c`, so a link's target can be looked up from the repository's root.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

#[test]
fn every_doc_reference_resolves() {
    let repo = crate::util::repo();
    // Top-level folders and files a path may start from; `target/` is the build's, not the
    // repository's (the docs name `target/...` outputs that exist only after a run).
    let tops: HashSet<String> = std::fs::read_dir(&repo)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "target" && n != ".git")
        .collect();
    let mut docs = vec!["README.md".to_string()];
    let mut pages: Vec<String> = std::fs::read_dir(repo.join("docs"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    pages.sort();
    docs.extend(pages);
    let broken: Vec<String> = docs
        .iter()
        .flat_map(|d| broken_references(&repo, &repo.join(d), d, &tops))
        .collect();
    assert!(
        broken.is_empty(),
        "references that do not resolve:\n  {}",
        broken.join("\n  ")
    );
}

/// The checker itself: it finds a broken link, a missing heading and a stale path, and passes
/// what resolves (and what a code block or a pattern holds).
#[test]
fn the_reference_checker_finds_what_is_broken() {
    let repo = crate::util::repo();
    let doc = crate::util::temp_dir("repo-map").join("page.md");
    std::fs::write(
        &doc,
        "# A page\n\n[ok](page.md) [self](#a-page) [gone](nowhere.md) \
         [bad anchor](page.md#no-such-heading)\n`src/lib.rs` `src/no_such_file.rs` \
         `kalah+empty-capture` `docs/survey/*.csv`\n```\n[in code](ignored.md) `src/ignored.rs`\n```\n",
    )
    .unwrap();
    let tops: HashSet<String> = ["src", "docs", "README.md"].map(String::from).into();
    let broken = broken_references(&repo, &doc, "page.md", &tops);
    assert_eq!(broken.len(), 3, "{broken:#?}");
    assert!(broken[0].contains("nowhere.md"), "{broken:#?}");
    assert!(broken[1].contains("#no-such-heading"), "{broken:#?}");
    assert!(broken[2].contains("src/no_such_file.rs"), "{broken:#?}");
    assert_eq!(slug("3.9 The pie rule (`--pie`)"), "39-the-pie-rule---pie");
}
