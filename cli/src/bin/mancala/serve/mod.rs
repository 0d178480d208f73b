//! `mancala serve`: a local web page to play and analyse every game, and the JSON API behind
//! it (docs/web.md), on axum and tokio.
//!
//! The handlers are thin: they read a request into the command line's own flags and call the
//! functions the commands call, so every value and every message is the command line's. The
//! searches run on blocking threads, at most `--max-searches` at once, each with its own stop
//! token (the time limit, `POST /api/stop`, or a closed connection raises it): [`state`].
//! Ctrl-C (or SIGTERM, SIGHUP) stops the running searches and the server, which exits with 130.

mod api;
mod connections;
mod error;
mod games;
mod guard;
mod page;
mod request;
mod review;
mod state;
mod stream;

use super::setup;
use super::solve::SearchArgs;
use anyhow::{Context, Result};
use axum::extract::DefaultBodyLimit;
use clap::Args;
use mancala_cli::args::parse_seconds;
use mancala_cli::{exit, signal};
use state::State;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// The largest request body: a position and a move list fit many times over.
pub(super) const MAX_BODY: usize = 64 * 1024;

/// How long a search runs when `--time-limit` is not given, in seconds.
pub(super) const DEFAULT_TIME_LIMIT: f64 = 60.0;

/// `mancala serve`.
#[derive(Args, Debug)]
pub(super) struct ServeArgs {
    /// The port to listen on (0: any free port; the URL printed says which).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on: 127.0.0.1 (this machine only) unless told otherwise.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Searches probe the endgame tables in DIR (read only); without DIR, the default table
    /// directory (write `--tables=DIR`).
    #[arg(long, value_name = "DIR", num_args = 0..=1, require_equals = false)]
    tables: Option<Option<std::path::PathBuf>>,
    /// Threads of each search (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size of each search in MiB (default: growing, as for `solve`).
    #[arg(long)]
    hash_mb: Option<u64>,
    /// The most a search runs, in seconds, before it answers with the bounds it proved
    /// (`complete: false`); a request may ask for less.
    #[arg(long, value_parser = parse_seconds, value_name = "SECS", default_value_t = DEFAULT_TIME_LIMIT)]
    time_limit: f64,
    /// Searches (and other requests that compute) running at once; more wait in line.
    #[arg(long, default_value_t = 2)]
    max_searches: usize,
    /// A host name by which the server may also be reached (repeatable): requests must name
    /// the server in `Host` by an IP address, `localhost` or such a name (docs/web.md, "Who can
    /// use the server").
    #[arg(long, value_name = "HOST")]
    allow_host: Vec<String>,
}

/// Serves until a signal; exits with 130 then.
pub(super) fn run(args: &ServeArgs) -> Result<ExitCode> {
    // Every flag is checked before the server starts, with the messages of `solve`.
    setup::threads(args.threads)?;
    setup::hash_bytes(args.hash_mb)?;
    if args.max_searches == 0 {
        anyhow::bail!("--max-searches must be at least 1");
    }
    let search = SearchArgs::for_server(
        args.threads,
        args.hash_mb,
        args.tables.clone(),
        args.time_limit,
    );
    if let Some(dir) = search.tables_dir() {
        setup::tables_dir_exists(&dir)?;
    }
    let state = Arc::new(State::new(search, args.max_searches));
    // The handler goes in first, so a signal from here on stops the server rather than killing it.
    let _ = signal::token();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(serve(
        state,
        SocketAddr::new(args.bind, args.port),
        &args.allow_host,
    ))?;
    // The searches saw the signal too and stopped; the runtime waits for their threads.
    runtime.shutdown_timeout(Duration::from_secs(5));
    eprintln!("mancala serve: stopped by a signal");
    Ok(ExitCode::from(exit::INTERRUPTED))
}

/// Listens on `addr`, prints the URL as stdout's first line, and answers until a signal.
async fn serve(state: Arc<State>, addr: SocketAddr, allow_host: &[String]) -> Result<()> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    let bound = listener.local_addr()?;
    let guard = Arc::new(guard::Guard::new(bound.port(), allow_host));
    let app = page::routes()
        .merge(api::routes())
        .merge(review::routes())
        .fallback(|| async { error::ApiError::not_found("no such page or API route".to_string()) })
        .method_not_allowed_fallback(|| async {
            error::ApiError::wrong_method(
                "wrong method: the API's routes are POST, except GET /api/games and /api/status"
                    .to_string(),
            )
        })
        .layer(axum::middleware::from_fn_with_state(guard, guard::check))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state);
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "http://{bound}/")?;
        out.flush()?;
    }
    eprintln!("mancala serve: open http://{bound}/ in a browser; Ctrl-C stops the server");
    // After a signal the server answers the requests in flight (stopped searches answer at
    // once) and closes idle connections; a client that keeps a request open gets 5 s.
    connections::serve(listener, app, signalled()).await;
    Ok(())
}

/// Resolves once Ctrl-C, SIGTERM or SIGHUP has raised the process's signal token (the one
/// handler of [`signal`], which also stops every running search through its watcher).
async fn signalled() {
    while !signal::interrupted() {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
