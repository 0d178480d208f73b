//! What the server shares between requests: its settings, the bound on running searches, and
//! the stop tokens of the searches a page may stop by name.
//!
//! Every request that computes (a search, or a sowing that may run long) runs on a blocking
//! thread of its own and holds one of `max_searches` permits while it does; a request that finds
//! them all taken waits in line, and one that finds [`MAX_WAITING`] requests already waiting is
//! answered 503 at once. A connection runs one such request at a time (HTTP/1.1 answers a
//! connection's requests in order; the server also refuses a second one from the same peer).
//!
//! Each search has its own [`StopToken`]. Three things raise it: the time limit (the watcher of
//! [`crate::solve`]), `POST /api/stop` naming the search, and the request's end: the guard
//! that [`State::run`] holds is dropped when the handler's future is, which happens when the
//! client closes its connection before the answer.
//!
//! The analyzers ([`Analyzer`]) are kept between requests ([`State::with_analyzer`]): a search
//! answers from what the earlier ones of the same game and board proved (their transposition
//! table) and the memory stays open, where a fresh analyzer per request started from nothing.
//! A request takes one out of the server's pool while it runs, so two searches never share
//! one, and puts it back when it ends; the pool holds at most `max_searches` of them (the
//! oldest dropped first), so the server keeps no more tables than its searches at once use.

use super::super::solve::{Control, SearchArgs};
use super::error::ApiError;
use mancala::answers::{rules_identity, Analyzer};
use mancala::rules::Rules;
use mancala::stop::StopToken;
use mancala::Position;
use std::any::Any;
use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// Requests allowed to wait for a permit; the next one is answered 503.
pub(super) const MAX_WAITING: usize = 64;

/// The longest search id `?search=ID` takes.
pub(super) const MAX_ID_LEN: usize = 64;

/// The server's settings and shared state.
pub(super) struct State {
    /// The search flags every search starts from (`--threads`, `--hash-mb`, `--tables`,
    /// `--time-limit`).
    pub(super) search: SearchArgs,
    /// `--max-searches`.
    pub(super) max_searches: usize,
    permits: Arc<Semaphore>,
    waiting: AtomicUsize,
    running: Arc<AtomicUsize>,
    /// The searches a page named (`?search=ID`), to stop them by that name.
    named: Mutex<HashMap<String, StopToken>>,
    /// The peers (connections) with a request running or waiting.
    busy: Mutex<HashSet<SocketAddr>>,
    /// The analyzers no request is using, each with its game and board (a rules identity),
    /// the least recently used first.
    analyzers: Mutex<Vec<(String, Box<dyn Any + Send>)>>,
}

/// Raises its token when dropped: when the request ends, however it ends.
struct StopOnDrop(StopToken);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Takes a key out of a shared set or map when dropped.
struct Unregister<F: FnMut()>(F);

impl<F: FnMut()> Drop for Unregister<F> {
    fn drop(&mut self) {
        (self.0)()
    }
}

/// Counts down when dropped.
struct CountDown<C: std::ops::Deref<Target = AtomicUsize>>(C);

impl<C: std::ops::Deref<Target = AtomicUsize>> Drop for CountDown<C> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl State {
    pub(super) fn new(search: SearchArgs, max_searches: usize) -> Self {
        Self {
            search,
            max_searches,
            permits: Arc::new(Semaphore::new(max_searches)),
            waiting: AtomicUsize::new(0),
            running: Arc::new(AtomicUsize::new(0)),
            named: Mutex::new(HashMap::new()),
            busy: Mutex::new(HashSet::new()),
            analyzers: Mutex::new(Vec::new()),
        }
    }

    /// Runs `work` with an analyzer for positions like `p`: one kept from an earlier request
    /// of the same game and board when the pool has one, else a new one made from the server's
    /// flags. It goes back into the pool afterwards (unless `work` panicked), the least
    /// recently used dropped when the pool is full.
    pub(super) fn with_analyzer<R: Rules, T>(
        &self,
        p: &Position<R>,
        work: impl FnOnce(&mut Analyzer<R>) -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        let id = rules_identity(p.rules(), p.board().holes);
        let kept = {
            let mut pool = self.analyzers.lock().unwrap_or_else(|e| e.into_inner());
            let at = pool
                .iter()
                .rposition(|(i, a)| *i == id && a.as_ref().is::<Analyzer<R>>());
            match at {
                Some(at) => Some(pool.remove(at).1),
                None => {
                    // Room for the one about to be made: the searches running at once hold
                    // the others.
                    let room = self.max_searches.saturating_sub(1);
                    let over = pool.len().saturating_sub(room);
                    pool.drain(..over);
                    None
                }
            }
        };
        let mut analyzer = match kept.and_then(|a| a.downcast::<Analyzer<R>>().ok()) {
            Some(a) => a,
            None => Box::new(self.search.analyzer::<R>()?),
        };
        let answer = work(&mut analyzer);
        let mut pool = self.analyzers.lock().unwrap_or_else(|e| e.into_inner());
        pool.push((id, analyzer));
        let over = pool.len().saturating_sub(self.max_searches);
        pool.drain(..over);
        answer
    }

    /// Requests computing now, and waiting for a permit.
    pub(super) fn load(&self) -> (usize, usize) {
        (
            self.running.load(Ordering::Relaxed),
            self.waiting.load(Ordering::Relaxed),
        )
    }

    /// Stops the search named `id`; whether one was running.
    pub(super) fn stop(&self, id: &str) -> bool {
        let named = self.named.lock().unwrap_or_else(|e| e.into_inner());
        named.get(id).map(StopToken::stop).is_some()
    }

    /// Runs `work` on a blocking thread under the bound, with a stop token raised by the time
    /// limit `limit` (when given), by `POST /api/stop` naming `id`, or by the request's end
    /// (the client left). Every sowing the work does looks at the token ([`mancala::stop`]),
    /// so the permit comes back soon after any of them, even in the middle of a relay.
    pub(super) async fn run<T: Send + 'static>(
        &self,
        peer: SocketAddr,
        id: Option<String>,
        limit: Option<f64>,
        work: impl FnOnce(&Control) -> anyhow::Result<T> + Send + 'static,
    ) -> Result<T, ApiError> {
        if !self
            .busy
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(peer)
        {
            return Err(ApiError::conflict(
                "this connection already has a request running: one at a time per connection",
            ));
        }
        let _peer = Unregister(|| {
            self.busy
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&peer);
        });
        let token = StopToken::new();
        let _stop = StopOnDrop(token.clone());
        if let Some(id) = &id {
            if id.is_empty() || id.len() > MAX_ID_LEN {
                return Err(ApiError::bad(format!(
                    "search: an id of 1 to {MAX_ID_LEN} characters"
                )));
            }
            let mut named = self.named.lock().unwrap_or_else(|e| e.into_inner());
            if named.contains_key(id) {
                return Err(ApiError::conflict(format!(
                    "a search named '{id}' is already running"
                )));
            }
            named.insert(id.clone(), token.clone());
        }
        let _named = Unregister(|| {
            if let Some(id) = &id {
                self.named
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(id);
            }
        });
        let permit = match self.permits.clone().try_acquire_owned() {
            Ok(p) => p,
            Err(_) => {
                if self.waiting.fetch_add(1, Ordering::Relaxed) >= MAX_WAITING {
                    self.waiting.fetch_sub(1, Ordering::Relaxed);
                    return Err(ApiError::busy(format!(
                        "the server is busy: {} searches running and {MAX_WAITING} waiting; try again later",
                        self.max_searches
                    )));
                }
                let _waiting = CountDown(&self.waiting);
                self.permits
                    .clone()
                    .acquire_owned()
                    .await
                    .map_err(|_| ApiError::busy("the server is shutting down".to_string()))?
            }
        };
        self.running.fetch_add(1, Ordering::Relaxed);
        let control = Control {
            stop: token.clone(),
            progress: false,
        };
        let running = CountDown(self.running.clone());
        let task = tokio::task::spawn_blocking(move || {
            // The permit and the count go when the work does, not when the request does: a
            // stopped search still runs until it looks at its token.
            let _permit = permit;
            let _running = running;
            work(&control)
        });
        // The time limit raises the token itself: the work may be sowing before any search
        // (and its own watcher) started, and the permit must come back at the limit.
        let deadline = limit.map(|l| {
            let token = token.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_secs_f64(l)).await;
                token.stop();
            })
        });
        let joined = task.await;
        if let Some(d) = deadline {
            d.abort();
        }
        match joined {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(ApiError::bad(format!("{e:#}"))),
            Err(e) => Err(ApiError::internal(format!("the computation failed: {e}"))),
        }
    }
}
