//! `POST /api/review`: the game of the request body (its start and `moves`) graded against
//! perfect play, answered as the `review` object `mancala review --json` prints (docs/web.md).
//! The server's `--time-limit` (or the body's lower `time_limit`) bounds each search, not the
//! request: a stopped search leaves bounds, never a guess. `?search=ID` names the request for
//! `POST /api/stop`, which stops the whole review.

use super::error::ApiError;
use super::request::Body;
use super::state::State;
use crate::{json, review};
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Query, State as Shared};
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use std::net::SocketAddr;
use std::sync::Arc;

/// The review's route.
pub(super) fn routes() -> Router<Arc<State>> {
    Router::new().route("/api/review", post(review_game))
}

/// `?search=ID`: a name for the review, so that `POST /api/stop` can stop it.
#[derive(Deserialize)]
struct Named {
    search: Option<String>,
}

async fn review_game(
    Shared(st): Shared<Arc<State>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Query(q): Query<Named>,
    b: Bytes,
) -> Result<Json<json::Review>, ApiError> {
    let body = Body::parse(&b)?;
    let search = st.search.limited_to(body.time_limit()?);
    let pos = body.position_args()?;
    let variant = pos.variant()?;
    // No limit on the request as a whole: each of its searches has one.
    let out = st
        .run(peer, q.search, None, move |c| {
            mancala::with_rules!(variant, r => review::review_json(&pos, &search, r, &c.stop))
        })
        .await?;
    Ok(Json(out))
}
