//! The integration test binary: one binary, one module per concern (ripgrep's layout).

mod agree;
mod cli;
mod examples;
mod matches;
mod props;
mod reference;
mod solve;
mod tables;
mod util;
mod verify;
