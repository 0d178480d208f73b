//! The JSON API, one handler per route. Each is thin: it reads the body into the command
//! line's flags ([`Body`]), runs the same function the command runs on a blocking thread under
//! the server's bound ([`State::run`]) (a search with an analyzer kept between requests,
//! [`State::with_analyzer`]), and answers the same typed object `--json` prints
//! (docs/json.md), or `{"error"}` with the command line's message (docs/web.md).

use super::error::ApiError;
use super::games::Games;
use super::request::Body;
use super::state::State;
use super::stream;
use crate::solve::{self, AnalyzeReport, SolveReport};
use crate::{json, match_cmd, play};
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Query, State as Shared};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use std::net::SocketAddr;
use std::sync::Arc;

/// The API's routes.
pub(super) fn routes() -> Router<Arc<State>> {
    Router::new()
        .route("/api/games", get(games))
        .route("/api/status", get(status))
        .route("/api/play", post(play))
        .route("/api/moves", post(moves))
        .route("/api/match", post(match_play))
        .route("/api/solve", post(solve))
        .route("/api/analyze", post(analyze))
        .route("/api/stop", post(stop))
}

/// `?search=ID`: a name for the search, so that `POST /api/stop` can stop it.
#[derive(Deserialize)]
struct Named {
    search: Option<String>,
}

type Peer = ConnectInfo<SocketAddr>;
type Answer<T> = Result<Json<T>, ApiError>;

async fn games(Shared(st): Shared<Arc<State>>) -> Json<Games> {
    Json(Games::new(&st))
}

/// `GET /api/status`: what the server is doing.
#[derive(Serialize)]
struct Status {
    /// Requests computing now.
    running: usize,
    /// Requests waiting for one of the `max_searches` permits.
    waiting: usize,
    max_searches: usize,
}

async fn status(Shared(st): Shared<Arc<State>>) -> Json<Status> {
    let (running, waiting) = st.load();
    Json(Status {
        running,
        waiting,
        max_searches: st.max_searches,
    })
}

/// Runs `$work` (an expression of the game's rules `$r` and the request's [`Control`]) for
/// the request `$body` from `$peer`: the flags read, then the work on a blocking thread.
///
/// [`Control`]: crate::solve::Control
macro_rules! answer {
    ($st:expr, $peer:expr, $id:expr, $limit:expr, $body:expr, |$pos:ident, $r:ident, $c:ident| $work:expr) => {{
        let body = Body::parse(&$body)?;
        let $pos = body.position_args()?;
        let variant = $pos.variant()?;
        let out = $st
            .run($peer, $id, $limit, move |$c| mancala::with_rules!(variant, $r => $work))
            .await?;
        Ok(Json(out))
    }};
}

async fn play(
    Shared(st): Shared<Arc<State>>,
    ConnectInfo(peer): Peer,
    b: Bytes,
) -> Answer<json::Play> {
    let limit = st.search.time_limit();
    answer!(st, peer, None, limit, b, |pos, r, c| Ok(play::play_json(
        &pos.position_until(r, c.stop.as_stop())?
    )))
}

async fn moves(
    Shared(st): Shared<Arc<State>>,
    ConnectInfo(peer): Peer,
    b: Bytes,
) -> Answer<json::Moves> {
    let limit = st.search.time_limit();
    answer!(st, peer, None, limit, b, |pos, r, c| {
        let stop = c.stop.as_stop();
        Ok(play::moves_json_until(&pos.position_until(r, stop)?, stop)?)
    })
}

async fn match_play(
    Shared(st): Shared<Arc<State>>,
    ConnectInfo(peer): Peer,
    b: Bytes,
) -> Answer<json::MatchPlay> {
    let limit = st.search.time_limit();
    let fill = Body::parse(&b)?.fill_from_move_1();
    answer!(st, peer, None, limit, b, |pos, r, c| {
        match_cmd::play_match(&pos, fill, r, c.stop.as_stop()).map(|m| match_cmd::match_json(&m))
    })
}

async fn solve(
    Shared(st): Shared<Arc<State>>,
    ConnectInfo(peer): Peer,
    Query(q): Query<Named>,
    b: Bytes,
) -> Result<Response, ApiError> {
    let body = Body::parse(&b)?;
    let search = st.search.limited_to(body.time_limit()?);
    let limit = backstop(search.time_limit());
    let kept = st.clone();
    if body.stream() {
        let pos = body.position_args()?;
        let variant = pos.variant()?;
        return Ok(stream::respond(st, peer, q.search, limit, move |c, ticks| {
            mancala::with_rules!(variant, r => {
                let p = pos.position_until(r, c.stop.as_stop())?;
                kept.with_analyzer(&p, |a| {
                    let snapshot = stream::solve_snapshot(&p, a.progress());
                    ticks.watch(snapshot, || solve::solve_with(a, &p, &search, c))
                })
            })
        })
        .await);
    }
    let answer: Answer<SolveReport> = answer!(st, peer, q.search, limit, b, |pos, r, c| {
        let p = pos.position_until(r, c.stop.as_stop())?;
        kept.with_analyzer(&p, |a| solve::solve_with(a, &p, &search, c))
    });
    answer.map(IntoResponse::into_response)
}

async fn analyze(
    Shared(st): Shared<Arc<State>>,
    ConnectInfo(peer): Peer,
    Query(q): Query<Named>,
    b: Bytes,
) -> Result<Response, ApiError> {
    let body = Body::parse(&b)?;
    let search = st.search.limited_to(body.time_limit()?);
    let limit = backstop(search.time_limit());
    let kept = st.clone();
    if body.stream() {
        let pos = body.position_args()?;
        let variant = pos.variant()?;
        return Ok(stream::respond(st, peer, q.search, limit, move |c, ticks| {
            mancala::with_rules!(variant, r => {
                let p = pos.position_until(r, c.stop.as_stop())?;
                kept.with_analyzer(&p, |a| {
                    let snapshot = stream::analysis_snapshot(&p, a.live());
                    ticks.watch(snapshot, || solve::analyze_with(a, &p, &search, c))
                })
            })
        })
        .await);
    }
    let answer: Answer<AnalyzeReport> = answer!(st, peer, q.search, limit, b, |pos, r, c| {
        let p = pos.position_until(r, c.stop.as_stop())?;
        kept.with_analyzer(&p, |a| solve::analyze_with(a, &p, &search, c))
    });
    answer.map(IntoResponse::into_response)
}

/// The server's own deadline for a search, just after the search's: the search's watcher stops
/// it at its limit and says so (`stopped: "time-limit"`); this one covers the sowings before
/// the search starts (the position's moves), and would otherwise be taken for a Stop.
fn backstop(limit: Option<f64>) -> Option<f64> {
    limit.map(|l| l + 0.5)
}

/// `POST /api/stop`'s body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StopBody {
    search: String,
}

/// Whether a search of that name was running (it answers soon with what it proved).
#[derive(Serialize)]
struct Stopped {
    stopped: bool,
}

async fn stop(Shared(st): Shared<Arc<State>>, b: Bytes) -> Answer<Stopped> {
    let body: StopBody = serde_json::from_slice(&b)
        .map_err(|e| ApiError::bad(format!("invalid request body: {e}")))?;
    Ok(Json(Stopped {
        stopped: st.stop(&body.search),
    }))
}
