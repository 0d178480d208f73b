//! `"stream": true` on `/api/solve` and `/api/analyze`: the answer as NDJSON
//! (`application/x-ndjson`), progress lines while the search runs, then the final answer, the
//! same object the request without `stream` gets (docs/web.md, "Streams").
//!
//! A progress line says what is proven so far, nothing more: the bounds on the position's
//! value, the moves valued exactly (an analysis), and the best move so far
//! ([`mancala::answers::live`]); before anything is proven, a quick look-ahead's pick, said to
//! be one (`"look_ahead": true`). One goes out every [`TICK`] while the search runs; an answer
//! that comes sooner (the book, the memory) has none.
//!
//! The status is decided by the first line: a request whose body, position or search cannot
//! be set up gets its 4xx (or 503) as without a stream, since no progress line goes out before
//! its search starts. An error after that ends the stream with an `{"error"}` line. The work
//! runs under [`State::run`] as every computing request does; the stream's task holds that
//! request, so a client that closes its connection (or whose Stop closes it) drops it, which
//! raises the search's stop token: the search ends at once and its analyzer goes back to the
//! server's pool. `POST /api/stop` naming the search ends it with the stopped answer as the
//! last line.

use super::error::ApiError;
use super::state::State;
use crate::fallback;
use crate::solve::Control;
use axum::body::Bytes;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use hyper::body::Frame;
use mancala::answers::live::{self, Leader, LiveAnalysis, LiveSolve};
use mancala::board::Move;
use mancala::rules::Rules;
use mancala::Position;
use mancala_cli::json::MoveBounds;
use serde::Serialize;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{mpsc, Arc};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::sync::mpsc as channel;

/// How often a progress line goes out: the page shows the best move so far at least once a
/// second.
pub(super) const TICK: Duration = Duration::from_millis(500);

/// How long the look-ahead that picks a move before anything is proven may take (once per
/// search, on the progress thread, beside the search).
const LOOK_AHEAD: Duration = Duration::from_millis(150);

/// What the work sends to the stream.
enum Event {
    /// A progress line, JSON and its newline.
    Line(Bytes),
    /// The final answer, or the error that ended the work.
    Done(Result<Bytes, ApiError>),
}

/// The progress lines' way out, for the work: [`Ticks::watch`].
pub(super) struct Ticks(channel::UnboundedSender<Event>);

impl Ticks {
    /// Runs `work` on this thread while a thread beside it sends `snapshot(seconds)` as a
    /// progress line every [`TICK`] (none when it answers `None`), until `work` returns.
    pub(super) fn watch<T>(
        &self,
        mut snapshot: impl FnMut(f64) -> Option<Bytes> + Send,
        work: impl FnOnce() -> T,
    ) -> T {
        let started = Instant::now();
        let (done, finished) = mpsc::channel::<()>();
        std::thread::scope(|s| {
            s.spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(TICK) {
                    let Some(l) = snapshot(started.elapsed().as_secs_f64()) else {
                        continue;
                    };
                    // The client left: the request's end raises the stop, the work ends soon.
                    if self.0.send(Event::Line(l)).is_err() {
                        return;
                    }
                }
            });
            let r = work();
            drop(done);
            r
        })
    }
}

/// `v` as one NDJSON line.
fn line(v: &impl Serialize) -> Bytes {
    let mut bytes = serde_json::to_vec(v).expect("an answer or a progress line serializes");
    bytes.push(b'\n');
    Bytes::from(bytes)
}

/// Answers a streaming request: `work` runs under [`State::run`] (the bound on searches, the
/// stop token, the time limit `limit`), sending progress lines through its [`Ticks`]; its
/// answer is the last line.
pub(super) async fn respond<T: Serialize + Send + 'static>(
    st: Arc<State>,
    peer: SocketAddr,
    id: Option<String>,
    limit: Option<f64>,
    work: impl FnOnce(&Control, &Ticks) -> anyhow::Result<T> + Send + 'static,
) -> Response {
    let (tx, mut rx) = channel::unbounded_channel::<Event>();
    let ticks = Ticks(tx.clone());
    tokio::spawn(async move {
        let run = st.run(peer, id, limit, move |c| work(c, &ticks));
        tokio::select! {
            out = run => {
                let _ = tx.send(Event::Done(out.map(|v| line(&v))));
            }
            // The stream was dropped (the client left): dropping `run` raises the stop.
            () = tx.closed() => {}
        }
    });
    match rx.recv().await {
        Some(Event::Done(Err(e))) => e.into_response(),
        Some(first) => (
            [
                (header::CONTENT_TYPE, "application/x-ndjson"),
                (header::CACHE_CONTROL, "no-store"),
            ],
            axum::body::Body::new(Lines {
                first: Some(first),
                rx,
            }),
        )
            .into_response(),
        None => ApiError::internal("the computation ended without an answer".to_string())
            .into_response(),
    }
}

/// The response body: the lines as they come, ending after the final answer.
struct Lines {
    first: Option<Event>,
    rx: channel::UnboundedReceiver<Event>,
}

impl hyper::body::Body for Lines {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let event = match self.first.take() {
            Some(e) => Some(e),
            None => match self.rx.poll_recv(cx) {
                Poll::Ready(e) => e,
                Poll::Pending => return Poll::Pending,
            },
        };
        Poll::Ready(event.map(|e| {
            let bytes = match e {
                Event::Line(b) | Event::Done(Ok(b)) => b,
                Event::Done(Err(e)) => line(&e.body()),
            };
            Ok(Frame::data(bytes))
        }))
    }
}

/// A progress line ([module documentation](self)).
#[derive(Serialize)]
struct Progress {
    /// What is in progress: `solve` or `analyze`.
    progress: &'static str,
    seconds: f64,
    nodes: u64,
    /// Proven bounds on the position's final value.
    lower: i32,
    upper: i32,
    /// An analysis's moves: each one's value when exact, else its proven bounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<MoveBounds>>,
    /// An analysis's move being valued now.
    #[serde(skip_serializing_if = "Option::is_none")]
    valuing: Option<u8>,
    /// The best move so far; null when none (the game is over, or nothing is proven and no
    /// look-ahead finished).
    best: Option<u8>,
    /// Whether `best` is proven best.
    best_proven: bool,
    /// Bounds on `best`'s final value (null for a look-ahead's pick).
    best_lower: Option<i32>,
    best_upper: Option<i32>,
    /// Whether `best` is a look-ahead's pick, nothing being proven yet.
    look_ahead: bool,
}

/// The best move so far of a progress line: the view's leader, or else a look-ahead's pick
/// (computed once, when first needed, into `pick`).
fn best_fields<R: Rules>(
    p: &Position<R>,
    leader: Option<Leader>,
    pick: &mut Option<Option<Move>>,
) -> (Option<u8>, bool, Option<i32>, Option<i32>, bool) {
    match leader {
        Some(l) => (
            Some(l.mv.0),
            l.proven_best,
            Some(l.value.lower),
            Some(l.value.upper),
            false,
        ),
        None => {
            let mv = *pick.get_or_insert_with(|| {
                fallback::deepen(p, &[], Instant::now() + LOOK_AHEAD).map(|g| g.mv)
            });
            (mv.map(|m| m.0), false, None, None, mv.is_some())
        }
    }
}

/// A progress line of a solve of `p`.
pub(super) fn solve_line<R: Rules>(
    p: &Position<R>,
    view: LiveSolve,
    seconds: f64,
    pick: &mut Option<Option<Move>>,
) -> Bytes {
    let (best, best_proven, best_lower, best_upper, look_ahead) = best_fields(p, view.best, pick);
    line(&Progress {
        progress: "solve",
        seconds,
        nodes: view.nodes,
        lower: view.value.lower,
        upper: view.value.upper,
        moves: None,
        valuing: None,
        best,
        best_proven,
        best_lower,
        best_upper,
        look_ahead,
    })
}

/// A progress line of an analysis of `p`.
pub(super) fn analysis_line<R: Rules>(
    p: &Position<R>,
    view: LiveAnalysis,
    seconds: f64,
    pick: &mut Option<Option<Move>>,
) -> Bytes {
    let (best, best_proven, best_lower, best_upper, look_ahead) = best_fields(p, view.best, pick);
    let moves = view
        .moves
        .iter()
        .map(|m| MoveBounds {
            pit: m.mv.0,
            value: m.value.value(),
            lower: m.value.lower,
            upper: m.value.upper,
        })
        .collect();
    line(&Progress {
        progress: "analyze",
        seconds,
        nodes: view.nodes,
        lower: view.value.lower,
        upper: view.value.upper,
        moves: Some(moves),
        valuing: view.valuing.map(|m| m.0),
        best,
        best_proven,
        best_lower,
        best_upper,
        look_ahead,
    })
}

/// The snapshot of a solve of `p` whose search reports to `progress`: restarts its counters at
/// `p`'s stake now (the analyzer may have answered another position before), then reads them
/// at each tick.
pub(super) fn solve_snapshot<'a, R: Rules>(
    p: &'a Position<R>,
    progress: Arc<solver::search::Progress>,
) -> impl FnMut(f64) -> Option<Bytes> + Send + 'a {
    let s = solver::Game::stake(p);
    progress.restart(-s, s);
    let from = progress.nodes();
    let mut pick = None;
    move |t| {
        Some(solve_line(
            p,
            live::solve_view(p, &progress, from),
            t,
            &mut pick,
        ))
    }
}

/// The snapshot of an analysis of `p` whose analyzer keeps `view` up to date: cleared now (the
/// analyzer may have analysed another position before), then read at each tick once the
/// analysis has begun valuing moves.
pub(super) fn analysis_snapshot<'a, R: Rules>(
    p: &'a Position<R>,
    view: Arc<live::Live>,
) -> impl FnMut(f64) -> Option<Bytes> + Send + 'a {
    view.clear();
    let mut pick = None;
    move |t| view.analysis().map(|a| analysis_line(p, a, t, &mut pick))
}
