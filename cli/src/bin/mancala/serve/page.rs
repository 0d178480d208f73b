//! The page: plain HTML, CSS and JavaScript compiled into the binary (no build step, no files
//! read at run time), served at `/`.

use super::state::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use std::sync::Arc;

const INDEX: &str = include_str!("page/index.html");
const STYLE: &str = include_str!("page/style.css");
const BOARD: &str = include_str!("page/board.js");
const APP: &str = include_str!("page/app.js");
const REVIEW: &str = include_str!("page/review.js");

/// The page's routes: each file at a fixed path.
pub(super) fn routes() -> Router<Arc<State>> {
    Router::new()
        .route("/", get(|| file(INDEX, "text/html; charset=utf-8")))
        .route("/style.css", get(|| file(STYLE, "text/css; charset=utf-8")))
        .route(
            "/board.js",
            get(|| file(BOARD, "text/javascript; charset=utf-8")),
        )
        .route(
            "/app.js",
            get(|| file(APP, "text/javascript; charset=utf-8")),
        )
        .route(
            "/review.js",
            get(|| file(REVIEW, "text/javascript; charset=utf-8")),
        )
}

async fn file(text: &'static str, kind: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, kind)], text)
}
