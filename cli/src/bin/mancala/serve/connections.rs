//! The server's connections: accepted up to a cap, each served by hyper's HTTP/1 with a header
//! read timeout, and closed on a signal.
//!
//! `axum::serve` sets no timeout and no cap, so a client that sends its headers one byte a
//! second, or a few hundred clients that connect and say nothing, held connections (and file
//! handles) until none was left for `/api/status` (issue 56). Here:
//!
//! - at most [`MAX_CONNECTIONS`] connections are open; one more is closed at once;
//! - a request's headers must arrive within [`HEADER_TIMEOUT`], counted from when the
//!   connection starts waiting for them, so the same bound closes an idle keep-alive connection;
//! - a body must arrive within [`super::guard::BODY_TIMEOUT`] (the guard in front of the
//!   handlers, which also answers a too-large `Content-Length` at once).
//!
//! A search in progress keeps its connection however long it runs (its time limit bounds it).

use axum::extract::ConnectInfo;
use axum::{Extension, Router};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// The most connections open at once; more are closed as soon as they are accepted. Far above
/// what a page uses (a handful), far below a process's usual 1024 file handles.
pub(super) const MAX_CONNECTIONS: usize = 128;

/// How long a connection may take to send a request's headers, or stay idle between requests.
pub(super) const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the connections in flight get to finish after a signal.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Accepts connections on `listener` and serves `app` on each until `stop` resolves; then lets
/// the connections in flight finish their request (at most [`SHUTDOWN_GRACE`]).
pub(super) async fn serve(
    listener: TcpListener,
    app: Router,
    stop: impl std::future::Future<Output = ()>,
) {
    let open = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let (closing, closed) = tokio::sync::watch::channel(false);
    let mut stop = pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // Out of file handles, or a connection reset before it was accepted: wait a
                // moment rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let Ok(slot) = open.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        // The handlers' `ConnectInfo<SocketAddr>`: one request at a time per connection.
        let service = TowerToHyperService::new(app.clone().layer(Extension(ConnectInfo(peer))));
        let mut closed = closed.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT);
            let mut conn = pin!(builder.serve_connection(TokioIo::new(stream), service));
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = closed.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
        });
    }
    drop(listener);
    let _ = closing.send(true);
    // Every slot back: every connection finished.
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, open.acquire_many(MAX_CONNECTIONS as u32)).await;
}
