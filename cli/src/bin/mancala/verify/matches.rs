//! `verify match GAME --holes A..B --seeds C..D`: the round-perfect match of docs/rules.md §13.5 for
//! each board size: every round solved exactly, both sides playing round-perfectly (the first
//! best move, with §13.5's exception on cycles of best play, [`mancala::round_perfect`]), each
//! round's start, value and final stores, and the match's end: who wins, or that the round starts
//! repeat (play is deterministic, so a repeated start repeats the rounds after it for ever).
//!
//! A round that repeats a position (possible only at a remaining margin of 0) ends there by
//! endless play and is marked `endless`. A round cut off by `--round-limit` makes the size
//! unknown; nothing is guessed.

use super::limited::{note, EngineArgs};
use crate::setup;
use anyhow::{bail, Result};
use clap::Args;
use mancala::answers::AnySolver;
use mancala::board::Side;
use mancala::matches::{Match, MatchOptions};
use mancala::round_perfect::{self, PlayError};
use mancala::rules::{GameKind, Rules};
use mancala::stop::StopToken;
use mancala::variant::Variant;
use mancala::Position;
use mancala_cli::args::{parse_range, parse_seconds};
use mancala_cli::json;
use mancala_cli::watch::{OnSignal, Watcher};
use solver::search::{SearchConfig, SearchError};
use std::collections::HashSet;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args, Debug)]
pub(super) struct MatchArgs {
    /// The game: dakon, walak-pussa or san-yao (standard rules).
    #[arg(value_parser = crate::parse_game)]
    game: GameKind,
    /// Holes per row, N or A..B (default: the standard board).
    #[arg(long, value_parser = parse_range)]
    holes: Option<(u32, u32)>,
    /// Seeds per pit, N or A..B (default: the game's standard for each size).
    #[arg(long, value_parser = parse_range)]
    seeds: Option<(u32, u32)>,
    /// Dakon, Walak-pussa: refill from move 1 upwards.
    #[arg(long)]
    fill_from_move_1: bool,
    /// Seconds allowed for each round's play (default 10).
    #[arg(long, value_parser = parse_seconds, default_value = "10")]
    round_limit: f64,
    /// The most rounds played before a match is reported unfinished.
    #[arg(long, default_value = "200")]
    max_rounds: usize,
    #[command(flatten)]
    engine: EngineArgs,
    /// Print one JSON object (docs/json.md) instead of the record.
    #[arg(long)]
    json: bool,
}

/// One round of the record.
struct RoundRecord {
    starter: Side,
    start: String,
    value: i32,
    end: [u32; 2],
    moves: usize,
    /// The moves played, as pit numbers (joined over the rounds, the record replays with
    /// `mancala match --moves`).
    played: Vec<u8>,
    /// Ended by a repeated position (endless play), not by the game's rules.
    endless: bool,
}

/// How a size's match came out.
enum Outcome {
    Won(Side),
    Drawn,
    Repeats(usize),
    Unknown(String),
}

pub(super) fn run(a: &MatchArgs) -> Result<ExitCode> {
    let options = MatchOptions {
        fill_from_move_1: a.fill_from_move_1,
    };
    mancala::matches::check_game(a.game, options).map_err(mancala_cli::args::match_error)?;
    let v = Variant::standard(a.game);
    mancala::with_rules!(v, r => run_game(a, r, options))
}

fn run_game<R: Rules>(a: &MatchArgs, rules: R, options: MatchOptions) -> Result<ExitCode> {
    let kind = R::KIND;
    let (hmin, hmax) = kind.holes_range();
    let d = kind.default_holes() as u32;
    let (h0, h1) = a.holes.unwrap_or((d, d));
    if h0 < hmin as u32 || h1 > hmax as u32 {
        bail!(
            "{} is played with {hmin} to {hmax} holes per row, not {h0}..{h1}",
            kind.name()
        );
    }
    let threads = setup::threads(a.engine.threads)?;
    let hash = setup::hash_bytes(a.engine.hash_mb)?;
    let mut out = std::io::stdout().lock();
    let mut sizes = Vec::new();
    for holes in h0..=h1 {
        let holes = holes as u8;
        let (smin, smax) = kind.seeds_range(holes);
        let ds = kind.default_seeds(holes) as u32;
        let (s0, s1) = a.seeds.unwrap_or((ds, ds));
        if s0 < smin as u32 || s1 > smax as u32 {
            bail!(
                "{} on {holes} holes is played with {smin} to {smax} seeds per hole, not {s0}..{s1}",
                kind.name()
            );
        }
        for seeds in s0..=s1 {
            let seeds = seeds as u8;
            note(&format!("{} {holes}x{seeds} ...", kind.name()));
            let (rounds, outcome) = play_match(a, rules, options, holes, seeds, threads, hash)?;
            if a.json {
                sizes.push(size_json(holes, seeds, &rounds, &outcome));
                continue;
            }
            writeln!(out, "{} {holes}x{seeds}:", kind.name())?;
            for (i, r) in rounds.iter().enumerate() {
                writeln!(
                    out,
                    "  round {:>2}: {} starts {}  value {:+}  end {}-{}  ({} moves{})",
                    i + 1,
                    r.starter.letter(),
                    r.start,
                    r.value,
                    r.end[0],
                    r.end[1],
                    r.moves,
                    if r.endless {
                        ", endless: a position repeats"
                    } else {
                        ""
                    }
                )?;
                if !r.played.is_empty() {
                    let line: Vec<String> = r.played.iter().map(u8::to_string).collect();
                    writeln!(out, "            moves: {}", line.join(" "))?;
                }
            }
            let verdict = match outcome {
                Outcome::Won(w) => format!("{w} wins the match"),
                Outcome::Drawn => "the match is drawn".to_string(),
                Outcome::Repeats(k) => {
                    format!("the round starts repeat (round {k} starts as an earlier round): the match never ends")
                }
                Outcome::Unknown(why) => format!("unknown: {why}"),
            };
            writeln!(out, "  result: {verdict}")?;
        }
    }
    if a.json {
        let v = json::VerifyMatch {
            head: json::Head::rules("verify match", &rules),
            round_limit: a.round_limit,
            max_rounds: a.max_rounds,
            sizes,
        };
        json::print(&mut out, &v)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One size's record as JSON.
fn size_json(holes: u8, seeds: u8, rounds: &[RoundRecord], outcome: &Outcome) -> json::MatchSize {
    let (result, winner, note) = match outcome {
        Outcome::Won(w) => (
            json::MatchResult::Decided,
            json::Winner::of_result(Some(Some(*w))),
            None,
        ),
        Outcome::Drawn => (
            json::MatchResult::Decided,
            json::Winner::of_result(Some(None)),
            None,
        ),
        Outcome::Repeats(k) => (
            json::MatchResult::Repeats,
            None,
            Some(format!("round {k} starts as an earlier round")),
        ),
        Outcome::Unknown(why) => (json::MatchResult::Unknown, None, Some(why.clone())),
    };
    json::MatchSize {
        holes,
        seeds,
        rounds: rounds
            .iter()
            .map(|r| json::PerfectRound {
                starter: r.starter.into(),
                start: r.start.clone(),
                value: r.value,
                end: r.end,
                moves: r.moves,
                played: r.played.clone(),
            })
            .collect(),
        result,
        winner,
        note,
    }
}

/// The round-perfect match on one size.
fn play_match<R: Rules>(
    a: &MatchArgs,
    rules: R,
    options: MatchOptions,
    holes: u8,
    seeds: u8,
    threads: usize,
    hash: setup::HashSize,
) -> Result<(Vec<RoundRecord>, Outcome)> {
    let start = Position::start(rules, holes, seeds)?;
    let mut m = Match::new(rules, seeds, options, start, Side::South)?;
    let mut records = Vec::new();
    let mut starts = HashSet::new();
    loop {
        let k = m.rounds().len();
        let round = m.rounds().last().expect("a round").clone();
        if !starts.insert((round.start.to_string(), round.starter)) {
            return Ok((records, Outcome::Repeats(k)));
        }
        if k > a.max_rounds {
            let why = format!("unfinished after {} rounds", a.max_rounds);
            return Ok((records, Outcome::Unknown(why)));
        }
        let stop = StopToken::new();
        let cfg = SearchConfig {
            threads,
            tt_bytes: setup::tt_bytes(&round.start, hash),
            tt_max_bytes: setup::tt_max_bytes(&round.start, hash),
            stop: Some(stop.clone()),
            ..SearchConfig::default()
        };
        let limit = Some(Duration::from_secs_f64(a.round_limit));
        let played = Watcher::new("the round", OnSignal::Stop)
            .stop(stop.clone())
            .deadline(limit)
            .run(|| {
                // One solver per round: the statuses are fixed within it, so its table serves
                // every position of the round and no other. Over the Kalah node when the round's
                // start is one (a round with burnt pits or sons stays on `Position`).
                let mut solver =
                    AnySolver::new(&round.start, cfg, None).map_err(PlayError::Values)?;
                let mut best = round_perfect::by_search(&mut solver);
                round_perfect::play_round(&mut m, &mut best)
            });
        if mancala_cli::signal::interrupted() {
            bail!("interrupted");
        }
        let play = match played {
            Ok(x) => x,
            Err(PlayError::Values(SearchError::Interrupted)) => {
                let why = format!(
                    "round {k} not solved within --round-limit {}",
                    a.round_limit
                );
                return Ok((records, Outcome::Unknown(why)));
            }
            Err(PlayError::Values(e)) => return Err(setup::search_error(e)),
            Err(PlayError::Match(e)) => {
                return Ok((records, Outcome::Unknown(format!("round {k}: {e}"))))
            }
        };
        // Round k, and any rounds after it that ended at their start without a move (their
        // starts count for the repetition too).
        for (i, ended) in m.rounds().iter().enumerate().skip(k - 1) {
            if !ended.now.is_over() {
                break;
            }
            if i >= k && !starts.insert((ended.start.to_string(), ended.starter)) {
                return Ok((records, Outcome::Repeats(i + 1)));
            }
            let [s, n] = ended.now.score();
            records.push(RoundRecord {
                starter: ended.starter,
                start: ended.start.to_string(),
                value: if i == k - 1 {
                    play.value
                } else {
                    s as i32 - n as i32
                },
                end: [s, n],
                moves: if i == k - 1 { play.moves } else { 0 },
                played: ended.moves.iter().map(|mv| mv.0).collect(),
                endless: i == k - 1 && play.endless,
            });
        }
        if let Some(w) = m.result() {
            return Ok((records, w.map_or(Outcome::Drawn, Outcome::Won)));
        }
    }
}
