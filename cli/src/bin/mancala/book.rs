//! `book build | verify` (hidden): the opening book built into the program
//! (`src/answers/book.txt`, [`mancala::answers::book`]). `scripts/build-book.sh` runs `build`
//! for each standard board and `verify` re-solves every entry.

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use mancala::answers::book::{BookText, RawEntry, EMBEDDED};
use mancala::answers::{rules_identity, Analyzer, AnalyzerConfig, Limits, TableSize};
use mancala::rules::Rules;
use mancala::variant::Variant;
use mancala::Position;
use solver::{Children, Game};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use super::PositionArgs;

/// The opening book: build or verify it.
#[derive(Args, Debug)]
pub(super) struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand, Debug)]
enum BookCommand {
    /// Add to FILE the exact future value of every position within `--depth` plies of the
    /// position and of each of their moves' results (keeps the entries already there).
    Build(BuildArgs),
    /// Re-solve every entry of FILE (default: the book built into the program) and compare.
    Verify(VerifyArgs),
}

#[derive(Args, Debug)]
struct BuildArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Plies from the position: every position that many moves deep or less is answered from
    /// the book (its moves' results are entries).
    #[arg(long)]
    depth: u32,
    /// The book file to add to (written atomically after each entry).
    #[arg(long, value_name = "FILE")]
    file: PathBuf,
    /// Search threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Endgame tables to search with (default: none, so that the book does not depend on them).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct VerifyArgs {
    /// The book file (default: the one built into the program).
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Re-solve only every N-th entry.
    #[arg(long, value_name = "N", default_value_t = 1)]
    every: usize,
    /// Search threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

/// Runs a `book` subcommand.
pub(super) fn run(a: BookArgs) -> Result<ExitCode> {
    match a.command {
        BookCommand::Build(b) => {
            let v = b.pos.variant()?;
            mancala::with_rules!(v, r => build(&b, r))
        }
        BookCommand::Verify(v) => verify(&v),
    }
}

/// An analyzer that searches and never reads the book: the book's values must come from the
/// search alone.
fn searcher<R: Rules>(threads: Option<usize>, tables: Option<&Path>) -> Result<Analyzer<R>> {
    Ok(Analyzer::new(AnalyzerConfig::search_only(
        crate::setup::threads(threads)?,
        TableSize::growing(),
        tables.map(Path::to_path_buf),
    )))
}

/// The positions within `depth` plies of `root` whose game goes on, in breadth-first order
/// (each key once), and the results of their moves (each key once, the games over left out).
fn book_positions<R: Rules>(root: &Position<R>, depth: u32) -> Vec<Position<R>> {
    let mut seen = HashSet::new();
    let mut level = vec![*root];
    let mut targets = Vec::new();
    let mut target_keys = HashSet::new();
    for d in 0..=depth {
        let mut next = Vec::new();
        for p in &level {
            if p.is_over() || !seen.insert(p.key()) {
                continue;
            }
            let mut children = Children::new();
            p.children(&mut children);
            for c in children.as_slice() {
                if !c.next.is_over() && target_keys.insert(c.next.key()) {
                    targets.push(c.next);
                }
                if d < depth {
                    next.push(c.next);
                }
            }
        }
        level = next;
    }
    targets
}

fn build<R: Rules>(a: &BuildArgs, rules: R) -> Result<ExitCode> {
    let root = a.pos.position(rules)?;
    let identity = rules_identity(&rules, root.board().holes);
    let mut book = if a.file.exists() {
        let text = std::fs::read_to_string(&a.file)
            .with_context(|| format!("cannot read {}", a.file.display()))?;
        BookText::parse(&text).with_context(|| format!("{}", a.file.display()))?
    } else {
        BookText {
            notes: Vec::new(),
            entries: Vec::new(),
        }
    };
    let have: HashSet<u128> = book
        .positions(rules, root.board().holes)?
        .iter()
        .map(|(p, _)| p.key())
        .collect();
    // The command that made these entries, as it was typed.
    let command: Vec<String> = std::env::args().skip(1).collect();
    let note = format!(
        "{identity} from {root}: depth {}, made by `mancala {}`",
        a.depth,
        command.join(" ")
    );
    book.notes
        .retain(|n| !n.starts_with(&format!("{identity} from {root}:")));
    book.notes.push(note);
    let targets = book_positions(&root, a.depth);
    let todo: Vec<&Position<R>> = targets
        .iter()
        .filter(|p| !have.contains(&p.key()))
        .collect();
    eprintln!(
        "{identity}: {} positions to depth {}, {} in the book already, {} to solve",
        targets.len(),
        a.depth,
        targets.len() - todo.len(),
        todo.len()
    );
    let mut analyzer = searcher::<R>(a.threads, a.tables.as_deref())?;
    let started = Instant::now();
    for (i, p) in todo.iter().enumerate() {
        let t = Instant::now();
        let (value, _) = analyzer.value(p, &Limits::none())?;
        let Some(final_value) = value.value() else {
            bail!("the search of {p} stopped before it was exact");
        };
        // The book keeps the future value (what the side to move still wins), which the search
        // turned into the final score: undo that.
        let future = future_of(p, final_value);
        book.entries.push(RawEntry {
            identity: identity.clone(),
            position: p.to_string(),
            future,
            line: 0,
        });
        tables::atomic_write::write_atomic(&a.file, &[book.render().as_bytes()])
            .with_context(|| format!("cannot write {}", a.file.display()))?;
        eprintln!(
            "[{}/{}] {p} {future:+} ({:.1} s, {:.0} s in all)",
            i + 1,
            todo.len(),
            t.elapsed().as_secs_f64(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The future value (for the side to move) of `p` whose final South-minus-North score is
/// `final_value`.
fn future_of<R: Rules>(p: &Position<R>, final_value: i32) -> i32 {
    let side = p.to_move().map_or(1, |s| s.sign());
    (final_value - p.final_value(0)) * side
}

fn verify(a: &VerifyArgs) -> Result<ExitCode> {
    let text = match &a.file {
        Some(f) => {
            std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?
        }
        None => EMBEDDED.to_string(),
    };
    let book = BookText::parse(&text)?;
    let every = a.every.max(1);
    // Each game's entries are read with its rules, then every N-th re-solved.
    let mut by_identity: HashMap<&str, Vec<&RawEntry>> = HashMap::new();
    for e in &book.entries {
        by_identity.entry(&e.identity).or_default().push(e);
    }
    let mut identities: Vec<&str> = by_identity.keys().copied().collect();
    identities.sort_unstable();
    let (mut checked, mut wrong) = (0usize, 0usize);
    for id in identities {
        let (game, holes) = id
            .rsplit_once('/')
            .with_context(|| format!("book identity {id} has no /holes"))?;
        let v: Variant = game.parse().map_err(|e: mancala::variant::VariantError| {
            anyhow::anyhow!("book identity {id}: {e}")
        })?;
        let holes: u8 = holes
            .parse()
            .with_context(|| format!("book identity {id}: holes"))?;
        let (c, w) = mancala::with_rules!(v, r => verify_game(&book, r, holes, every, a.threads))?;
        checked += c;
        wrong += w;
    }
    println!("{checked} entries re-solved, {wrong} wrong");
    Ok(if wrong == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn verify_game<R: Rules>(
    book: &BookText,
    rules: R,
    holes: u8,
    every: usize,
    threads: Option<usize>,
) -> Result<(usize, usize)> {
    let mut analyzer = searcher::<R>(threads, None)?;
    let (mut checked, mut wrong) = (0, 0);
    for (p, future) in book.positions(rules, holes)?.into_iter().step_by(every) {
        let (value, _) = analyzer.value(&p, &Limits::none())?;
        let got = value.value().map(|v| future_of(&p, v));
        checked += 1;
        if got != Some(future) {
            wrong += 1;
            println!("WRONG {p}: the book says {future:+}, the search {got:?}");
        }
    }
    Ok((checked, wrong))
}
