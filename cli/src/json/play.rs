//! The objects of `play`, `moves` and `match`: positions and rounds, no search.

use super::base::*;
use schemars::JsonSchema;
use serde::Serialize;

/// `play`: the position after the moves.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "play")]
pub struct Play {
    #[serde(flatten)]
    pub head: PositionHead,
    /// Seeds in [South's, North's] store (or tallies).
    pub score: [u32; 2],
    /// Whether the game is over.
    pub over: bool,
    /// The result when the game is over; null while it goes on.
    pub winner: Option<Winner>,
}

impl Output for Play {
    const COMMANDS: &'static [&'static str] = &["play"];
}

/// `moves`: every legal move with the position after it.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "moves")]
pub struct Moves {
    #[serde(flatten)]
    pub head: PositionHead,
    /// The legal moves in pit order (empty when the game is over).
    pub moves: Vec<Child>,
}

/// A legal move and where it leads.
#[derive(Serialize, JsonSchema)]
pub struct Child {
    /// The pit number, 1..=holes.
    #[serde(rename = "move")]
    pub pit: u8,
    /// The position after it (forced passes applied).
    pub position: String,
}

impl Output for Moves {
    const COMMANDS: &'static [&'static str] = &["moves"];
}

/// `match`: the rounds played and where the match stands.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "match")]
pub struct MatchPlay {
    /// About the current round's position.
    #[serde(flatten)]
    pub head: PositionHead,
    pub rounds: Vec<MatchRound>,
    /// The current round's number, from 1.
    pub round: usize,
    pub match_over: bool,
    /// The match's winner ("draw" for a drawn match); null while it goes on.
    pub winner: Option<Winner>,
}

impl Output for MatchPlay {
    const COMMANDS: &'static [&'static str] = &["match"];
}

/// One round of `match`.
#[derive(Serialize, JsonSchema)]
pub struct MatchRound {
    pub starter: Letter,
    pub start: String,
    pub moves: Vec<u8>,
    /// The round's last position when it is over; null while it goes on.
    pub end: Option<String>,
    /// [South, North] now.
    pub score: [u32; 2],
}
