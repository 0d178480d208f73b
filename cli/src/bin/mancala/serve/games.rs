//! `GET /api/games`: the games, their rule options and board ranges, and the server's own
//! settings, so a page builds its choices from the same declarations the command line does.

use super::state::State;
use mancala::rules::GameKind;
use serde::Serialize;

/// The answer of `GET /api/games`.
#[derive(Serialize)]
pub(super) struct Games {
    format: u32,
    games: Vec<Game>,
    server: Server,
}

/// One game.
#[derive(Serialize)]
struct Game {
    /// The name the API and the command line take (`kalah`).
    game: &'static str,
    /// Its name in prose (`Kalah`).
    title: &'static str,
    /// Holes per row: the range and the standard board.
    holes: Range,
    /// Seeds per hole for each number of holes, in holes order.
    seeds: Vec<Seeds>,
    /// The rule options, in the game's order.
    options: Vec<Opt>,
    /// Whether `/api/match` plays it (Dakon, Walak-pussa, San-Yao; docs/rules.md §13).
    matches: bool,
}

#[derive(Serialize)]
struct Range {
    min: u8,
    max: u8,
    default: u8,
}

#[derive(Serialize)]
struct Seeds {
    holes: u8,
    min: u8,
    max: u8,
    default: u8,
}

#[derive(Serialize)]
struct Opt {
    name: &'static str,
    help: &'static str,
}

/// The settings every search of this server runs with.
#[derive(Serialize)]
struct Server {
    /// `--time-limit`: the most a search runs, in seconds (a request may ask for less).
    time_limit: Option<f64>,
    /// `--max-searches`: searches running at once.
    max_searches: usize,
    /// Whether searches probe endgame tables (`--tables`).
    tables: bool,
}

impl Games {
    pub(super) fn new(st: &State) -> Self {
        let games = GameKind::ALL
            .into_iter()
            .map(|g| {
                let (min, max) = g.holes_range();
                Game {
                    game: g.name(),
                    title: g.title(),
                    holes: Range {
                        min,
                        max,
                        default: g.default_holes(),
                    },
                    seeds: (min..=max)
                        .map(|h| {
                            let (smin, smax) = g.seeds_range(h);
                            Seeds {
                                holes: h,
                                min: smin,
                                max: smax,
                                default: g.default_seeds(h),
                            }
                        })
                        .collect(),
                    options: g
                        .options()
                        .into_iter()
                        .map(|o| Opt {
                            name: o.name,
                            help: o.help,
                        })
                        .collect(),
                    matches: mancala::matches::check_game(g, Default::default()).is_ok(),
                }
            })
            .collect();
        Games {
            format: mancala_cli::json::FORMAT,
            games,
            server: Server {
                time_limit: st.search.time_limit(),
                max_searches: st.max_searches,
                tables: st.search.tables_dir().is_some(),
            },
        }
    }
}
