//! The integration test binary: one binary, one module per concern (ripgrep's layout).

mod examples;
mod cli;
mod props;
mod tables;
mod solve;
mod agree;
mod reference;
mod verify;
