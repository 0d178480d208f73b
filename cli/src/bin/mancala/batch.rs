//! `solve --batch FILE` and `analyze --batch FILE` (`-` for stdin): one position per line
//! (docs/rules.md notation; blank lines and `#` comments skipped), one JSON object per line out (JSON
//! Lines, `docs/json.md`), in input order. One solver, so one transposition table, serves every
//! line: what one position's search stored answers the next one's transpositions. A line that
//! cannot be read or does not fit the batch yields an error record with its line number, and the
//! batch goes on; the exit status is 1 when any line failed. `--time-limit` bounds each line: a
//! line stopped by it yields the bounds its search proved (`complete: false`) and the batch goes
//! on (exit status 124 then, when no line failed).

use super::solve::{self, SearchArgs};
use super::{json, move_list, setup, PositionArgs};
use anyhow::{bail, Context, Result};
use mancala::notation::Setup;
use mancala::rules::Rules;
use mancala::stop::StopToken;
use mancala::Position;
use mancala_cli::watch::{OnSignal, Watcher};
use solver::search::Progress;
use solver::search::{SearchError, Solver};
use solver::Game;
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
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
    let mut failed = false;
    // Some line stopped by its time limit (exit 124 when no line failed).
    let mut timed_out = false;
    let error = |out: &mut std::io::StdoutLock<'_>, line: usize, msg: &str| -> Result<()> {
        let v = json::BatchError {
            head: json::Head::rules(command, &rules),
            line,
            error: msg.to_string(),
        };
        json::print(out, &v)
    };
    // The solver's root: the position with the most positions below it, so that its table's
    // key covers every line's.
    let root = lines
        .iter()
        .filter_map(|(_, p)| p.as_ref().ok())
        .max_by_key(|p| p.key_bound())
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
    let mut cfg = search.config(&root)?;
    // One stop for the solver, lowered before each line and raised by that line's time limit
    // (`--time-limit` bounds each line, not the batch) or by a signal.
    let stop = StopToken::new();
    cfg.stop = Some(stop.clone());
    // Each answer starts the bounds afresh (its audit), so one display serves every line.
    let progress = Arc::new(Progress::new());
    cfg.progress = Some(progress.clone());
    let limit = search.time_limit().map(Duration::from_secs_f64);
    let tb = search
        .tables_dir()
        .map(|d| setup::tables_for_search(&d, &root))
        .transpose()?;
    let oracle = tb
        .as_ref()
        .map(|t| t as &dyn solver::search::Oracle<Position<R>>);
    let mut solver = Solver::new(&root, cfg, oracle).map_err(setup::search_error)?;
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
        stop.reset();
        let nodes_before = progress.nodes();
        let watched = Watcher::new("the batch", OnSignal::Stop)
            .stop(stop.clone())
            .deadline(limit);
        let written = watched.run(|| match command {
            "solve" => solver
                .solve(p)
                .map(|r| {
                    let value = p.final_value(r.value);
                    json::SolveLine {
                        head: json::PositionHead::of("solve", p),
                        line: *n,
                        complete: true,
                        verdict: json::Verdict::new(value, r.best.iter().map(|m| m.0).collect()),
                        pv: move_list::marked_json(p, &r.pv),
                        nodes: r.nodes,
                    }
                })
                .map(|v| json::print(&mut out, &v)),
            _ => solver
                .analyze(p)
                .map(|moves| {
                    let finals: Vec<(u8, i32)> = moves
                        .iter()
                        .map(|&(m, v)| (m.0, p.final_value(v)))
                        .collect();
                    let value = solve::best_of(p, &finals).unwrap_or_else(|| p.final_value(0));
                    let best: Vec<u8> = finals
                        .iter()
                        .filter(|f| f.1 == value)
                        .map(|f| f.0)
                        .collect();
                    json::AnalyzeLine {
                        head: json::PositionHead::of("analyze", p),
                        line: *n,
                        complete: true,
                        verdict: json::Verdict::new(value, best),
                        moves: json::MoveValue::list(&finals),
                    }
                })
                .map(|v| json::print(&mut out, &v)),
        });
        match written {
            Ok(printed) => printed?,
            Err(SearchError::Interrupted) if !mancala_cli::signal::interrupted() => {
                // This line's time limit: its bounds, and on to the next line.
                let (lo, hi) = progress.bounds();
                let (a, b) = (p.final_value(lo), p.final_value(hi));
                let (lower, upper) = (a.min(b), a.max(b));
                timed_out = true;
                json::print(
                    &mut out,
                    &json::StoppedLine {
                        head: json::PositionHead::of(command, p),
                        line: *n,
                        complete: false,
                        stopped: json::StopCause::TimeLimit,
                        lower,
                        upper,
                        winner: json::Winner::of_known(if lower > 0 {
                            Some(1)
                        } else if upper < 0 {
                            Some(-1)
                        } else {
                            None
                        }),
                        nodes: progress.nodes() - nodes_before,
                    },
                )?;
            }
            Err(SearchError::Interrupted) => {
                out.flush()?;
                eprintln!("interrupted at line {n}: the lines before it are done");
                return Ok(ExitCode::from(mancala_cli::exit::INTERRUPTED));
            }
            Err(e) => return Err(setup::search_error(e)),
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
