//! List the legal moves of a position and play them.
//!
//! `cargo run --example play`

use mancala::board::Move;
use mancala::rules::Dakon;
use mancala::Position;

fn main() {
    let text = "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0/S"; // Dakon's standard start
    let start: Position<Dakon> =
        Position::from_setup(Dakon::default(), &text.parse().expect("notation"))
            .expect("a valid position");
    for m in start.legal_moves().as_slice() {
        let after = start.try_play(*m).expect("a legal move");
        println!("move {}: {after} ({:?} to move)", m.0, after.to_move());
    }
    // An illegal move is an error, not a panic.
    let err = start.try_play(Move(8)).unwrap_err();
    println!("move 8: {err}");
}
