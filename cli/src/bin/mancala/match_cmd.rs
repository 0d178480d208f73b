//! `mancala match`: a multi-round match (docs/rules.md §13) played from a move list that runs on
//! across rounds; with `--interactive`, against the engine (`interactive`).

use super::move_list::StillRelaying;
use super::wording::Wording;
use super::{json, PositionArgs};
use anyhow::{bail, Context, Result};
use clap::Args;
use mancala::board::{Move, Side};
use mancala::matches::{Match, MatchError, MatchOptions};
use mancala::notation::RoundSetup;
use mancala::rules::Rules;
use mancala::stop::{Stop, StopToken};
use mancala::Position;
use mancala_cli::exit::Interrupted;
use mancala_cli::signal;
use mancala_cli::watch::{OnSignal, Watcher};
use std::io::Write;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub(super) struct MatchArgs {
    #[command(flatten)]
    pub(super) pos: PositionArgs,
    /// Dakon, Walak-pussa: refill each row from move 1 upwards, so the burnt pits are those next
    /// to the store (default: from move n down).
    #[arg(long)]
    fill_from_move_1: bool,
    /// Print one JSON object (docs/json.md): the head about the current position, then
    /// {"rounds":[{"starter","start","moves","end","score"}...],"round","match_over","winner"}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    interactive: super::interactive::InteractiveArgs,
}

/// The match's first round and its starter: `--position` (its side to move, or South for a
/// finished round given without its history, §13.3), or the start of the board.
/// `--seeds` is the refill of every round; with `--position` it only sets that. Its sowings
/// (normalising the start) give up once `stop` is raised.
fn first_round<R: Rules>(
    args: &PositionArgs,
    rules: R,
    stop: Stop<'_>,
) -> Result<(Position<R>, Side, u8)> {
    if args.load.is_some() {
        bail!("--load reads the record of one game (`play --record`); a match is given by --position and --moves");
    }
    // `--moves` runs on across the rounds (see `run`), so the first round starts before them.
    let mut plain = args.clone();
    plain.moves.clear();
    if args.position.is_some() {
        plain.seeds = None;
    }
    let p = plain.position_until(rules, stop)?;
    let holes = p.board().holes;
    let kind = R::KIND;
    let (smin, smax) = kind.seeds_range(holes);
    let seeds = match args.seeds {
        None => kind.default_seeds(holes),
        Some(s) if s >= smin as u32 && s <= smax as u32 => s as u8,
        Some(s) => bail!(
            "{} on {holes} holes is played with {smin} to {smax} seeds per hole, not {s}",
            kind.name()
        ),
    };
    let starter = match &args.position {
        Some(text) => {
            let round: RoundSetup = text.parse().context(args.wording.name("position"))?;
            round.setup.to_move.unwrap_or(Side::South)
        }
        None => Side::South,
    };
    Ok((p, starter, seeds))
}

/// The match of `pos` (its first round, then `--moves` running on across the rounds): the one
/// computation behind `match` and the server's `/api/match`. Every sowing looks at `stop` (the
/// server's time limit, a closed connection, Ctrl-C): a move that relays for billions of laps
/// (docs/rules.md §2.9) ends the match with a [`StillRelaying`] error naming it.
pub(crate) fn play_match<R: Rules>(
    pos: &PositionArgs,
    fill_from_move_1: bool,
    rules: R,
    stop: Stop<'_>,
) -> Result<Match<R>> {
    let options = MatchOptions { fill_from_move_1 };
    mancala::matches::check_game(R::KIND, options).map_err(|e| match pos.wording {
        Wording::Flags => mancala_cli::args::match_error(e),
        // The library's words name the option as the body's field does not: say the field.
        Wording::Fields => match e {
            MatchError::FillOrderFixed(game) => anyhow::anyhow!(
                "\"fill_from_move_1\" applies to dakon and walak-pussa only, not to {} ({} fills from move 1 always)",
                game.name(),
                game.title()
            ),
            e => e.into(),
        },
    })?;
    let (start, starter, seeds) = first_round(pos, rules, stop)?;
    let mut m = Match::new_until(rules, seeds, options, start, starter, stop)
        .map_err(|e| relaying(e, || "setting up the round after the first".to_string()))?;
    // The shared move syntax (`3`, or `S3` with the side: a printed PV pastes back); a mark is
    // checked against the side to move of the round at that point.
    for (i, text) in super::move_list::split(&pos.moves).into_iter().enumerate() {
        let place = i + 1;
        let Some(typed) = super::move_list::parse_one(text) else {
            bail!("move #{place} ('{text}') is not a move: write a pit number such as 3, or S3 / N3 with the side");
        };
        if m.result().is_some() {
            bail!(
                "move #{place} ({text}): the match is over after round {} ({}); the {} list runs past the match's end",
                m.rounds().len(),
                verdict(m.result()),
                pos.wording.name("moves")
            );
        }
        let round = m.rounds().len();
        if let (Some(side), Some(mover)) = (typed.side, m.position().to_move()) {
            if side != mover {
                bail!(
                    "move #{place} ({text}) in round {round} is marked for {side}, but {mover} is to move in {}",
                    m.position()
                );
            }
        }
        let mv = Move(u8::try_from(typed.pit).unwrap_or(u8::MAX));
        let label = || format!("move #{place} ({text}) in round {round}");
        m.play_until(mv, stop).map_err(|e| relaying(e, label))?;
    }
    Ok(m)
}

/// A match's error as the command reports it: an abandoned sowing as [`StillRelaying`] (the
/// error the commands and the server know to report as a stop), anything else in `what`'s
/// context.
fn relaying(e: MatchError, what: impl Fn() -> String) -> anyhow::Error {
    match e {
        MatchError::Abandoned { laps } => anyhow::Error::new(StillRelaying::after(&what(), laps)),
        e => anyhow::Error::new(e).context(what()),
    }
}

/// The match as JSON (docs/json.md `match`).
pub(crate) fn match_json<R: Rules>(m: &Match<R>) -> json::MatchPlay {
    let rounds = m
        .rounds()
        .iter()
        .map(|r| json::MatchRound {
            starter: r.starter.into(),
            start: r.start.to_string(),
            moves: r.moves.iter().map(|mv| mv.0).collect(),
            end: r.now.is_over().then(|| r.now.to_string()),
            score: r.now.score(),
        })
        .collect();
    json::MatchPlay {
        head: json::PositionHead::of("match", m.position()),
        rounds,
        round: m.rounds().len(),
        match_over: m.result().is_some(),
        winner: json::Winner::of_result(m.result()),
    }
}

pub(super) fn run<R: Rules>(args: &MatchArgs, rules: R) -> Result<ExitCode> {
    // Ctrl-C stops a move still relaying (docs/rules.md §2.9), which then says so.
    let stop = StopToken::new();
    let played = Watcher::new("the match", OnSignal::Stop)
        .stop(stop.clone())
        .run(|| play_match(&args.pos, args.fill_from_move_1, rules, stop.as_stop()));
    let m = match played {
        Err(e) if e.downcast_ref::<StillRelaying>().is_some() && signal::interrupted() => {
            return Err(anyhow::Error::new(Interrupted(e.to_string())));
        }
        played => played?,
    };
    if args.interactive.interactive {
        return super::interactive::play_match(m, &args.pos, &args.interactive);
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        json::print(&mut out, &match_json(&m))?;
        return Ok(ExitCode::SUCCESS);
    }
    for (i, r) in m.rounds().iter().enumerate() {
        writeln!(out, "round {}: {} starts", i + 1, r.starter)?;
        writeln!(out, "  start: {}", r.start)?;
        let moves: Vec<String> = r.moves.iter().map(|mv| mv.to_string()).collect();
        writeln!(
            out,
            "  moves: {}",
            if moves.is_empty() {
                "-".to_string()
            } else {
                moves.join(" ")
            }
        )?;
        let [s, n] = r.now.score();
        if r.now.is_over() {
            writeln!(out, "  end:   {}  (South {s}, North {n})", r.now)?;
        } else {
            let who = r
                .now
                .to_move()
                .map_or("", |s| if s == Side::South { "South" } else { "North" });
            writeln!(out, "  now:   {}  ({who} to move)", r.now)?;
        }
    }
    match m.result() {
        Some(w) => writeln!(out, "match over: {}", verdict(Some(w)))?,
        None => writeln!(out, "match goes on: round {}", m.rounds().len())?,
    }
    Ok(ExitCode::SUCCESS)
}

fn verdict(result: Option<Option<Side>>) -> String {
    match result {
        Some(Some(w)) => format!("{w} wins the match"),
        Some(None) => "the match is drawn".to_string(),
        None => "the match goes on".to_string(),
    }
}
