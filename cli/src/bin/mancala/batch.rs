//! `solve --batch FILE` and `analyze --batch FILE` (`-` for stdin): one position per line
//! (docs/rules.md notation; blank lines and `#` comments skipped), one JSON object per line out (JSON
//! Lines, `docs/json.md`), in input order. One [`Analyzer`] answers every line, as `solve` and
//! `analyze` answer one position: from the rules, the opening book, the memory of proven
//! positions, the endgame tables (opened once for the batch), then its one kept search, whose
//! transposition table serves every line (what one position's search stored answers the next
//! one's transpositions); each line names its `source`, and what a search proves goes into the
//! memory. A line that cannot be read or does not fit the batch yields an error record with its
//! line number, and the batch goes on; the exit status is 1 when any line failed.
//! `--time-limit` bounds each line: a line stopped by it yields the bounds its search proved
//! (`complete: false`) and the batch goes on (exit status 124 then, when no line failed).

use super::solve::{analyzer_error, warn_notes, winner_within, SearchArgs};
use super::{json, move_list, PositionArgs};
use anyhow::{bail, Context, Result};
use mancala::answers::{Analyzer, AnalyzerError, Bounds, Limits, Source};
use mancala::notation::Setup;
use mancala::rules::Rules;
use mancala::Position;
use mancala_cli::signal;
use solver::Game;
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

/// One input line: its number (from 1) and its position, or why it has none.
type Line<R> = (usize, Result<Position<R>, String>);

/// The lines of `--batch source` (`-`: stdin) that are not blank or a `#` comment, trimmed,
/// each with its number in the input (from 1): what `solve`, `analyze` and `review` read.
pub(super) fn batch_lines(source: &str) -> Result<Vec<(usize, String)>> {
    let text: Vec<String> = if source == "-" {
        std::io::stdin().lock().lines().collect::<Result<_, _>>()
    } else {
        let f = std::fs::File::open(source).with_context(|| format!("--batch {source}"))?;
        std::io::BufReader::new(f).lines().collect::<Result<_, _>>()
    }
    .with_context(|| format!("cannot read --batch {source}"))?;
    Ok(text
        .iter()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, t)| !t.is_empty() && !t.starts_with('#'))
        .map(|(n, t)| (n, t.to_string()))
        .collect())
}

/// Reads the batch: every line that is not blank or a comment, as a position.
fn read_lines<R: Rules>(source: &str, rules: R) -> Result<Vec<Line<R>>> {
    Ok(batch_lines(source)?
        .into_iter()
        .map(|(n, t)| {
            let p = t
                .parse::<Setup>()
                .map_err(|e| e.to_string())
                .and_then(|s| Position::from_setup(rules, &s).map_err(|e| e.to_string()))
                .map_err(|e| format!("invalid position '{t}': {e}"));
            (n, p)
        })
        .collect())
}

/// Runs the batch of `source` for `command` ("solve" or "analyze").
pub(super) fn run<R: Rules>(
    pos: &PositionArgs,
    search: &SearchArgs,
    rules: R,
    source: &str,
    command: &'static str,
) -> Result<ExitCode> {
    if pos.position.is_some() || !pos.moves.is_empty() || pos.seeds.is_some() {
        bail!("--batch reads its positions from the input; it cannot be combined with --position, --moves or --seeds");
    }
    let mut lines = read_lines(source, rules)?;
    // The batch is on one board width: --holes, else the first readable line's.
    let holes = pos.holes.map(|h| h as u8).or_else(|| {
        lines
            .iter()
            .find_map(|(_, p)| p.as_ref().ok().map(|p| p.board().holes))
    });
    for (_, p) in &mut lines {
        if let (Ok(q), Some(h)) = (&p, holes) {
            if q.board().holes != h {
                *p = Err(format!(
                    "position {q} has {} pits per row, but the batch is on {h}",
                    q.board().holes
                ));
            }
        }
    }
    let mut out = std::io::stdout().lock();
    let error = |out: &mut std::io::StdoutLock<'_>, line: usize, msg: &str| -> Result<()> {
        let v = json::BatchError {
            head: json::Head::rules(command, &rules),
            line,
            error: msg.to_string(),
        };
        json::print(out, &v)
    };
    // The search's root: the position with the most seeds (and positions) below it, so that
    // one transposition table, sized and keyed for it, serves every line's search.
    let root = lines
        .iter()
        .filter_map(|(_, p)| p.as_ref().ok())
        .max_by_key(|p| (p.stake(), p.key_bound()))
        .copied();
    let Some(root) = root else {
        for (n, p) in &lines {
            if let Err(e) = p {
                error(&mut out, *n, e)?;
            }
        }
        if lines.is_empty() {
            error(
                &mut out,
                0,
                "no positions in the input (blank lines and # comments are skipped)",
            )?;
        }
        return Ok(ExitCode::FAILURE);
    };
    let mut batch = Batch {
        analyzer: search.analyzer::<R>()?,
        root,
        fitted: false,
        limits: Limits {
            time: search.time_limit().map(Duration::from_secs_f64),
            stop: Some(signal::token()),
        },
        command,
    };
    let mut failed = false;
    // Some line stopped by its time limit (exit 124 when no line failed).
    let mut timed_out = false;
    let terminal = std::io::stderr().is_terminal();
    let total = lines.len();
    for (done, (n, p)) in lines.iter().enumerate() {
        if terminal && done % 16 == 0 {
            eprint!("\r{done}/{total} lines");
        }
        let p = match p {
            Ok(p) => p,
            Err(e) => {
                failed = true;
                error(&mut out, *n, e)?;
                continue;
            }
        };
        let answered = batch.answer(p, *n);
        warn_notes(&mut batch.analyzer);
        if signal::interrupted() {
            out.flush()?;
            eprintln!("interrupted at line {n}: the lines before it are done");
            return Ok(ExitCode::from(mancala_cli::exit::INTERRUPTED));
        }
        match answered {
            Ok(Reply::Solve(line)) => json::print(&mut out, &line)?,
            Ok(Reply::Analyze(line)) => json::print(&mut out, &line)?,
            Ok(Reply::Stopped(line)) => {
                timed_out = true;
                json::print(&mut out, &line)?;
            }
            // Tables named by directory for a position with burnt pits or sons: this line's
            // fault, not the batch's.
            Err(e @ AnalyzerError::TablesCannotHold { .. }) => {
                failed = true;
                error(&mut out, *n, &e.to_string())?;
            }
            Err(e) => return Err(analyzer_error(e)),
        }
    }
    if terminal {
        eprint!("\r{total}/{total} lines\n");
    }
    out.flush()?;
    Ok(if failed {
        ExitCode::FAILURE
    } else if timed_out {
        ExitCode::from(mancala_cli::exit::TIME_OUT)
    } else {
        ExitCode::SUCCESS
    })
}

/// The analyzer of a batch, and how each line is asked.
struct Batch<R: Rules> {
    analyzer: Analyzer<R>,
    /// The batch's largest position, which the kept search is fitted to before the first line
    /// that needs a search.
    root: Position<R>,
    /// Whether the kept search was fitted to `root`.
    fitted: bool,
    /// Each line's: `--time-limit`, and Ctrl-C.
    limits: Limits,
    /// `solve` or `analyze`.
    command: &'static str,
}

/// A line's JSON object: finished, or stopped by its time limit.
enum Reply {
    Solve(json::SolveLine),
    Analyze(json::AnalyzeLine),
    Stopped(json::StoppedLine),
}

impl<R: Rules> Batch<R> {
    /// The line `n`, position `p`: answered without a search when the rules, the book, the
    /// memory or the tables know it, else searched under the line's limits.
    fn answer(&mut self, p: &Position<R>, n: usize) -> Result<Reply, AnalyzerError> {
        if self.command == "solve" {
            let a = match self.known_before_search(|a| a.solve_known(p))? {
                Some(a) => a,
                None => self.analyzer.solve(p, &self.limits)?,
            };
            if !a.complete {
                return Ok(Reply::Stopped(stopped_line(
                    "solve", p, n, a.value, a.nodes,
                )));
            }
            return Ok(Reply::Solve(json::SolveLine {
                head: json::PositionHead::of("solve", p),
                line: n,
                complete: true,
                verdict: json::Verdict::new(a.value.lower, a.best.iter().map(|m| m.0).collect()),
                pv: move_list::marked_json(p, &a.pv),
                nodes: a.nodes,
                source: a.source.name().to_string(),
            }));
        }
        let a = match self.known_before_search(|a| a.analyze_known(p))? {
            Some(a) => a,
            None => self.analyzer.analyze(p, &self.limits)?,
        };
        let Some(value) = a.value.value().filter(|_| a.complete()) else {
            return Ok(Reply::Stopped(stopped_line(
                "analyze", p, n, a.value, a.nodes,
            )));
        };
        let finals: Vec<(u8, i32)> = a.moves.iter().map(|m| (m.mv.0, m.value.lower)).collect();
        Ok(Reply::Analyze(json::AnalyzeLine {
            head: json::PositionHead::of("analyze", p),
            line: n,
            complete: true,
            verdict: json::Verdict::new(value, a.best().iter().map(|m| m.0).collect()),
            moves: json::MoveValue::list(&finals),
            source: a.source().name().to_string(),
        }))
    }

    /// Until the batch's first search: the answer `known` gives without one, or, when it gives
    /// none, `None` with the kept search fitted to the batch's largest position. The analyzer
    /// builds its search for the first position that needs one and builds it again for a
    /// larger one, dropping what the smaller one stored; the batch's search is built once, for
    /// every line (and not at all when no line needs one).
    fn known_before_search<T>(
        &mut self,
        known: impl FnOnce(&mut Analyzer<R>) -> Result<Option<T>, AnalyzerError>,
    ) -> Result<Option<T>, AnalyzerError> {
        if self.fitted {
            return Ok(None);
        }
        if let Some(answer) = known(&mut self.analyzer)? {
            return Ok(Some(answer));
        }
        let root = self.root;
        match self.analyzer.search(&root, &Limits::none(), |_| Ok(())) {
            // Tables named for a root with burnt pits or sons are its own line's fault, said
            // there; the other lines are searched as they come.
            Ok(_) | Err(AnalyzerError::TablesCannotHold { .. }) => {}
            Err(e) => return Err(e),
        }
        self.fitted = true;
        Ok(None)
    }
}

/// The line of a position whose search its time limit stopped: the bounds proven on its final
/// value (by the search, narrowed by what the memory held).
fn stopped_line<R: Rules>(
    command: &'static str,
    p: &Position<R>,
    n: usize,
    value: Bounds,
    nodes: u64,
) -> json::StoppedLine {
    let (lower, upper) = (value.lower, value.upper);
    json::StoppedLine {
        head: json::PositionHead::of(command, p),
        line: n,
        complete: false,
        stopped: json::StopCause::TimeLimit,
        lower,
        upper,
        winner: winner_within(lower, upper),
        nodes,
        source: Source::Search.name().to_string(),
    }
}
