//! `POST /api/review`: the game of the request body (its start and `moves`) graded against
//! perfect play, answered as the `review` object `mancala review --json` prints (docs/web.md).
//! The server's `--time-limit` (or the body's lower `time_limit`) bounds each search, not the
//! request: a stopped search leaves bounds, never a guess. `?search=ID` names the request for
//! `POST /api/stop`, which stops the whole review. The body's own fields `mistake` and
//! `blunder` set the loss classes as `--mistake`/`--blunder` do; the values come from the
//! server's analyzer sources (book, memory, tables, search), as `/api/analyze`'s.

use super::error::ApiError;
use super::request::Body;
use super::state::State;
use crate::{json, review};
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Query, State as Shared};
use axum::routing::post;
use axum::{Json, Router};
use mancala::review::Thresholds;
use serde::Deserialize;
use serde_json::{Map, Value};
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
    let (thresholds, rest) = thresholds(&b)?;
    let body = Body::parse(&rest)?;
    let search = st.search.limited_to(body.time_limit()?);
    let pos = body.position_args()?;
    let variant = pos.variant()?;
    // No limit on the request as a whole: each of its searches has one.
    let out = st
        .run(peer, q.search, None, move |c| {
            mancala::with_rules!(variant, r => review::review_json(&pos, &search, r, thresholds, &c.stop))
        })
        .await?;
    Ok(Json(out))
}

/// The loss classes of the body's `mistake` and `blunder` fields (each optional, the command
/// line's defaults otherwise), and the body without them, for the fields every request shares.
fn thresholds(bytes: &[u8]) -> Result<(Thresholds, Vec<u8>), ApiError> {
    let mut fields: Map<String, Value> = serde_json::from_slice(bytes)
        .map_err(|e| ApiError::bad(format!("invalid request body: {e}")))?;
    let defaults = Thresholds::default();
    let mut seeds = |name: &str, default: i32| -> Result<i32, ApiError> {
        match fields.remove(name) {
            None | Some(Value::Null) => Ok(default),
            Some(v) => v
                .as_i64()
                .and_then(|n| i32::try_from(n).ok())
                .ok_or_else(|| {
                    ApiError::bad(format!(
                        "{name}: write a whole number of seeds lost (not {v})"
                    ))
                }),
        }
    };
    let mistake = seeds("mistake", defaults.mistake())?;
    let blunder = seeds("blunder", defaults.blunder())?;
    let t = Thresholds::new(mistake, blunder)
        .map_err(|e| ApiError::bad(format!("mistake {mistake}, blunder {blunder}: {e}")))?;
    let rest = serde_json::to_vec(&fields).expect("a JSON object serializes");
    Ok((t, rest))
}
