//! The integration test binary: one binary, one module per concern (ripgrep's layout).

mod agree;
mod cli;
mod cli_batch;
mod cli_conventions;
mod cli_limits;
mod cli_moves;
mod docs;
mod examples;
mod first_hour;
mod fuzz;
mod hardening;
mod interactive;
mod json_format;
mod matches;
mod option_values;
mod perft;
mod pie;
mod props;
mod protocol;
mod records;
mod reference;
mod serve;
mod solve;
mod tables;
mod util;
mod verify;
