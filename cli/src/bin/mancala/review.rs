//! `review`: a game graded against perfect play, move by move (docs/cli.md, "Reviewing a
//! game"). The game is `--moves` from the position of the flags, a `--load`ed record, or each
//! line of `--batch FILE`; the grading is the library's ([`mancala::review`]), through one
//! [`Analyzer`](mancala::answers::Analyzer) for the whole game or batch, as `analyze` answers: the opening book, the memory
//! of proven positions, the endgame tables (`--no-book`, `--memory`/`--no-memory`,
//! `--tables`/`--no-tables`), then one search with one transposition table.

use super::solve::{analyzer_error, warn_notes, SearchArgs};
use super::{json, move_list, record, setup, PositionArgs};
use anyhow::{anyhow, bail, Result};
use clap::Args;
use mancala::board::Move;
use mancala::review::{
    review, AnalyzerSource, Bounds, Evaluate, GameReview, Limit, ReviewError, ReviewOptions,
    SideSummary, Source, Thresholds,
};
use mancala::rules::Rules;
use mancala::stop::{Stop, StopToken};
use mancala::Position;
use mancala_cli::{exit, report, signal};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

/// `mancala review`'s flags.
#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// The game: `--moves` played from the position of the flags (`--moves "3 1 S4 N2"`), or a
    /// `--load`ed record.
    #[command(flatten)]
    pos: PositionArgs,
    #[command(flatten)]
    search: SearchArgs,
    /// Review one game per line of FILE (`-`: stdin): a game record (the JSON line `play
    /// --record` writes) or a move line played from the position of the flags. Blank lines and
    /// `#` comments are skipped; a line that cannot be read is reported and the batch goes on.
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    batch: Option<String>,
    /// Print one JSON object per game.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print one CSV row per move, after a header row.
    #[arg(long)]
    csv: bool,
    /// The fewest seeds lost that make a mistake (fewer, but at least 1: an inaccuracy).
    #[arg(
        long,
        value_name = "SEEDS",
        default_value_t = 2,
        allow_negative_numbers = true
    )]
    mistake: i32,
    /// The fewest seeds lost that make a blunder.
    #[arg(
        long,
        value_name = "SEEDS",
        default_value_t = 6,
        allow_negative_numbers = true
    )]
    blunder: i32,
    /// List every best move of every position, also where the move played was one (one
    /// null-window test per legal move more).
    #[arg(long)]
    all_best: bool,
}

impl ReviewArgs {
    /// The game's variant, for the dispatch on rules.
    pub fn variant(&self) -> Result<mancala::variant::Variant> {
        self.pos.variant()
    }
}

/// How a review is printed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    Csv,
}

/// One game to review: where it started and its moves, or why a batch line has none.
type Reviewable<R> = Result<(Position<R>, Vec<Move>), String>;

/// Runs `review`.
pub(super) fn run<R: Rules>(a: &ReviewArgs, rules: R) -> Result<ExitCode> {
    let thresholds = Thresholds::new(a.mistake, a.blunder)
        .map_err(|e| anyhow!("--mistake {} --blunder {}: {e}", a.mistake, a.blunder))?;
    let options = ReviewOptions {
        limit: Limit::seconds(a.search.time_limit()),
        thresholds,
        all_best: a.all_best,
    };
    let format = match (a.json, a.csv) {
        (true, _) => Format::Json,
        (_, true) => Format::Csv,
        _ => Format::Text,
    };
    let mut games: Vec<(Option<usize>, Reviewable<R>)> = match &a.batch {
        None => {
            let line = a.pos.game_line(rules)?;
            vec![(None, Ok((line.start, line.moves)))]
        }
        Some(source) => batch_games(a, rules, source)?,
    };
    one_status_pattern(&mut games);
    let mut out = std::io::stdout().lock();
    if format == Format::Csv {
        writeln!(out, "{CSV_HEADER}")?;
    }
    let mut failed = false;
    let mut stopped = false;
    if !games.iter().any(|(_, g)| g.is_ok()) {
        for (n, g) in &games {
            if let Err(e) = g {
                print_error(&mut out, format, rules, n.unwrap_or(0), e)?;
            }
        }
        if games.is_empty() {
            let e = "no games in the input (blank lines and # comments are skipped)";
            print_error(&mut out, format, rules, 0, e)?;
        }
        return Ok(ExitCode::FAILURE);
    }
    // One analyzer for the batch: its search is sized by the first position it searches (a
    // game's start, the largest of its game's), and rebuilt only for a larger one.
    let mut analyzer = a.search.analyzer::<R>()?;
    let mut source = Shown::new(AnalyzerSource::new(&mut analyzer, Some(signal::token())));
    for (n, g) in &games {
        let (start, moves) = match g {
            Ok(g) => g,
            Err(e) => {
                failed = true;
                print_error(&mut out, format, rules, n.unwrap_or(0), e)?;
                continue;
            }
        };
        let began = Instant::now();
        source.plies = moves.len() + 1;
        let graded = review(&mut source, start, moves, &options);
        warn_notes(source.source.analyzer());
        let graded = match graded {
            Ok(g) => g,
            Err(ReviewError::Interrupted) => {
                source.clear();
                out.flush()?;
                let done = match n {
                    Some(n) => format!(" at line {n}: the games before it are done"),
                    None => String::new(),
                };
                return Err(anyhow::Error::new(exit::Interrupted(format!(
                    "the review was stopped{done}"
                ))));
            }
            Err(e) => {
                source.clear();
                let what = n.map_or("the game".to_string(), |n| format!("line {n}"));
                return Err(failure(e, &what));
            }
        };
        source.clear();
        let seconds = began.elapsed().as_secs_f64();
        stopped |= !graded.is_exact();
        match format {
            Format::Json => json::print(
                &mut out,
                &json::Review::of(&graded, *n, &thresholds, seconds),
            )?,
            Format::Csv => print_csv(&mut out, &graded, *n)?,
            Format::Text => print_text(&mut out, &graded, *n, &thresholds, seconds)?,
        }
    }
    out.flush()?;
    Ok(if failed {
        ExitCode::FAILURE
    } else if stopped {
        ExitCode::from(exit::TIME_OUT)
    } else {
        ExitCode::SUCCESS
    })
}

/// Reviews the game of `pos` (its start, then its moves) with `search`'s settings and
/// `thresholds` until `stop` is raised: the computation behind `POST /api/review`. One analyzer
/// answers, as `/api/analyze`'s: the book, the memory, the tables, then a search.
pub(crate) fn review_json<R: Rules>(
    pos: &PositionArgs,
    search: &SearchArgs,
    rules: R,
    thresholds: Thresholds,
    stop: &StopToken,
) -> Result<json::Review> {
    let line = pos.game_line_until(rules, stop.as_stop())?;
    let options = ReviewOptions {
        limit: Limit::seconds(search.time_limit()),
        thresholds,
        ..ReviewOptions::default()
    };
    let began = Instant::now();
    let mut analyzer = search.analyzer::<R>()?;
    let mut source = AnalyzerSource::new(&mut analyzer, Some(stop.clone()));
    let g = review(&mut source, &line.start, &line.moves, &options)
        .map_err(|e| failure(e, "the review"))?;
    let seconds = began.elapsed().as_secs_f64();
    Ok(json::Review::of(&g, None, &options.thresholds, seconds))
}

/// A review error as the user reads it; `what` names the game.
fn failure(e: ReviewError, what: &str) -> anyhow::Error {
    match e {
        ReviewError::Search(e) => setup::search_error(e).context(what.to_string()),
        ReviewError::Answers(e) => match std::sync::Arc::into_inner(e) {
            Some(e) => analyzer_error(e).context(what.to_string()),
            None => anyhow!("{what}: the review's sources failed"),
        },
        other => anyhow!("{what}: {other}"),
    }
}

/// The games of `--batch source`: each line a game record or a move line from the position
/// of the flags; a line that cannot be read becomes its error.
fn batch_games<R: Rules>(
    a: &ReviewArgs,
    rules: R,
    source: &str,
) -> Result<Vec<(Option<usize>, Reviewable<R>)>> {
    if !a.pos.moves.is_empty() || a.pos.load.is_some() {
        bail!(
            "--batch reads its games from the input; it cannot be combined with --moves or --load"
        );
    }
    let text = super::batch::batch_lines(source)?;
    // The move lines start where the flags say; a bad --position is the command's error.
    // A move line can reach an endless relay: the sowings stop with the review (Ctrl-C).
    let signals = signal::token();
    let stop = signals.as_stop();
    let base = a.pos.base_position(rules, stop)?;
    let mut games = Vec::new();
    for (n, t) in &text {
        let t = t.as_str();
        let game = if t.starts_with('{') {
            record_game(a, rules, t, stop)
        } else {
            move_list::apply_line(base, &[t.to_string()], stop)
                .map(|l| (l.start, l.moves))
                .map_err(|e| format!("{e:#}"))
        };
        let game = game.and_then(|(start, moves)| {
            if start.board().holes == base.board().holes {
                Ok((start, moves))
            } else {
                Err(format!(
                    "the game starts from {start}, with {} pits per row, but the batch is on {}",
                    start.board().holes,
                    base.board().holes
                ))
            }
        });
        games.push((Some(*n), game));
    }
    Ok(games)
}

/// Keeps the games that share the first good game's burnt pits and sons; each other one
/// becomes its line's error. A position's key leaves its pit statuses out (a table is never
/// shared between searches of different status patterns, `Position::key`), and an endgame
/// table reads every pit as open: one search for the batch is exact only over one pattern.
fn one_status_pattern<R: Rules>(games: &mut [(Option<usize>, Reviewable<R>)]) {
    let pattern = |p: &Position<R>| (p.board().burnt, p.board().sons);
    let Some(first) = games
        .iter()
        .find_map(|(_, g)| g.as_ref().ok().map(|g| pattern(&g.0)))
    else {
        return;
    };
    for (_, g) in games.iter_mut() {
        if let Ok((start, _)) = g {
            if pattern(start) != first {
                *g = Err(format!(
                    "the game starts from {start}, whose burnt pits or sons differ from the \
                     batch's first game: review rounds with other pit statuses in a batch of \
                     their own"
                ));
            }
        }
    }
}

/// A batch line holding a game record: its start and moves, checked against the game's rules.
fn record_game<R: Rules>(
    a: &ReviewArgs,
    rules: R,
    text: &str,
    stop: Stop<'_>,
) -> Result<(Position<R>, Vec<Move>), String> {
    let rec: record::Record =
        serde_json::from_str(text).map_err(|e| format!("not a game record: {e}"))?;
    if rec.format != record::RECORD_FORMAT {
        return Err(format!(
            "record format {} is not one this program reads ({})",
            rec.format,
            record::RECORD_FORMAT
        ));
    }
    let (theirs, ours) = (
        rec.variant().map_err(|e| format!("{e:#}"))?,
        a.pos.variant().map_err(|e| format!("{e:#}"))?,
    );
    if theirs != ours {
        return Err(format!(
            "the game was played as {}, not {}",
            theirs.describe(),
            ours.describe()
        ));
    }
    let start = a
        .pos
        .parse_position(rules, &rec.start, stop)
        .map_err(|e| format!("the record's start: {e:#}"))?;
    move_list::apply_line(start, &rec.moves, stop)
        .map(|l| (l.start, l.moves))
        .map_err(|e| format!("{e:#}"))
}

/// A batch line's error: a `review_error` object, or a line on stderr (text and CSV, whose
/// stdout holds only reviews).
fn print_error<R: Rules>(
    out: &mut impl Write,
    format: Format,
    rules: R,
    line: usize,
    error: &str,
) -> Result<()> {
    if format == Format::Json {
        let v = json::ReviewLineError {
            head: json::Head::rules("review", &rules),
            line,
            error: error.to_string(),
        };
        return json::print(out, &v);
    }
    out.flush()?;
    eprintln!("error: line {line}: {error}");
    Ok(())
}

/// The CSV columns, one row per move.
const CSV_HEADER: &str = "line,ply,side,position,move,value,value_lower,value_upper,best_value,best_lower,best_upper,best,best_complete,loss,loss_lower,loss_upper,class,source";

/// One CSV row per move of `g` (batch line `line`, empty outside `--batch`).
fn print_csv<R: Rules>(out: &mut impl Write, g: &GameReview<R>, line: Option<usize>) -> Result<()> {
    let opt = |v: Option<i32>| v.map_or(String::new(), |v| v.to_string());
    for m in &g.moves {
        let j = json::ReviewedMove::of(m);
        let best: Vec<String> = j.best.iter().map(u8::to_string).collect();
        writeln!(
            out,
            "{},{},{},\"{}\",{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            line.map_or(String::new(), |n| n.to_string()),
            j.ply,
            m.side.letter(),
            j.position,
            j.pit,
            opt(j.value),
            j.value_lower,
            j.value_upper,
            opt(j.best_value),
            j.best_lower,
            j.best_upper,
            best.join(" "),
            j.best_complete,
            opt(j.loss),
            j.loss_lower,
            j.loss_upper,
            m.class.map_or("", |c| c.name()),
            j.source,
        )?;
    }
    Ok(())
}

/// The review of `g` in words: a table of moves, then each side's summary.
fn print_text<R: Rules>(
    out: &mut impl Write,
    g: &GameReview<R>,
    line: Option<usize>,
    thresholds: &Thresholds,
    seconds: f64,
) -> Result<()> {
    if let Some(n) = line {
        writeln!(out, "line {n}:")?;
    }
    writeln!(out, "start:  {}", g.start)?;
    writeln!(
        out,
        "{:>4}  {:<4}  {:>4}  {:>8}  {:>8}  {:>6}  {:<10}  {:<10}  {:<7}  position before",
        "ply", "side", "move", "value", "best", "loss", "class", "best moves", "from"
    )?;
    for m in &g.moves {
        let best = match &m.best_moves {
            Some(b) => report::moves_text(&b.iter().map(|x| x.0).collect::<Vec<_>>(), " "),
            None => String::new(),
        };
        writeln!(
            out,
            "{:>4}  {:<4}  {:>4}  {:>8}  {:>8}  {:>6}  {:<10}  {:<10}  {:<7}  {}",
            m.ply,
            m.side.letter(),
            m.mv.0,
            m.played.to_string(),
            m.best.to_string(),
            seeds(m.loss),
            m.class.map_or("?", |c| c.name()),
            best,
            m.source.name(),
            m.before
        )?;
    }
    let verdict = match g.end_value.exact_value() {
        Some(v) if g.end.is_over() => format!("game over: {}", report::verdict(v)),
        Some(v) => format!("value {v:+}: {} under perfect play", report::verdict(v)),
        None => format!("value in {}", g.end_value),
    };
    writeln!(out, "end:    {} ({verdict})", g.end)?;
    for (name, s) in [("South", &g.south), ("North", &g.north)] {
        writeln!(out, "{name}: {}", summary_words(s, thresholds))?;
    }
    let complete = if g.is_exact() {
        "every value exact".to_string()
    } else {
        "some searches were stopped by the time limit: their values are bounds".to_string()
    };
    writeln!(out, "time:   {seconds:.3} s; {complete}")?;
    Ok(())
}

/// A loss in seeds: `3`, or `1..4` when it is only bounded.
fn seeds(loss: Bounds) -> String {
    match loss.exact_value() {
        Some(l) => l.to_string(),
        None => format!("{}..{}", loss.lower, loss.upper),
    }
}

/// One side's summary in words.
fn summary_words(s: &SideSummary, t: &Thresholds) -> String {
    if s.moves == 0 {
        return "no moves".to_string();
    }
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let accuracy = s
        .accuracy()
        .map_or_else(String::new, |a| format!(" ({:.1}%)", 100.0 * a));
    let lost = match s.mean_loss() {
        Some(mean) => format!("{} seeds lost ({mean:.2} per move)", seeds(s.loss)),
        None => format!("{} seeds lost", seeds(s.loss)),
    };
    let first = s.first_mistake.map_or_else(
        || format!("no move lost {} seeds or more", t.mistake()),
        |p| format!("first mistake at ply {p}"),
    );
    format!(
        "{}, {} best{accuracy}, {}, {}, {}; {lost}; {first}",
        plural(s.moves, "move", "moves"),
        s.best,
        plural(s.classes[1], "inaccuracy", "inaccuracies"),
        plural(s.classes[2], "mistake", "mistakes"),
        plural(s.classes[3], "blunder", "blunders"),
    )
}

/// The value source with a progress line on a terminal: which position of the game is being
/// searched.
struct Shown<'a, R: Rules> {
    source: AnalyzerSource<'a, R>,
    terminal: bool,
    /// Positions of the game under review, and those valued so far.
    plies: usize,
    valued: usize,
}

impl<'a, R: Rules> Shown<'a, R> {
    fn new(source: AnalyzerSource<'a, R>) -> Self {
        Self {
            source,
            terminal: std::io::stderr().is_terminal(),
            plies: 0,
            valued: 0,
        }
    }

    /// Clears the progress line after a game.
    fn clear(&mut self) {
        if self.terminal && self.valued > 0 {
            eprint!("\r\x1b[2K");
        }
        self.valued = 0;
    }
}

impl<R: Rules> Evaluate<R> for Shown<'_, R> {
    fn value(&mut self, p: &Position<R>, limit: Limit) -> Result<(Bounds, Source), ReviewError> {
        self.valued += 1;
        if self.terminal {
            eprint!("\rreviewing: position {} of {}", self.valued, self.plies);
        }
        self.source.value(p, limit)
    }

    fn best_moves(
        &mut self,
        p: &Position<R>,
        limit: Limit,
    ) -> Result<Option<mancala::review::Best>, ReviewError> {
        if self.terminal {
            eprint!("\rreviewing: best moves of {p}\x1b[K");
        }
        self.source.best_moves(p, limit)
    }
}
