//! What every request passes before a handler sees it: only the page's own origin may use the
//! API, and a body arrives whole, small and soon.
//!
//! A web page on another site can make a browser send requests to a server on this machine:
//! cross-site POSTs with `Content-Type: text/plain` need no preflight, and DNS rebinding (a
//! name of the attacker's that first resolves to their server, then to 127.0.0.1) even lets
//! that page read the answers (issue 56). So:
//!
//! - `Host` must name this server: an IP address (a rebinding attack needs a name of its own),
//!   `localhost`, or a name given with `--allow-host`, with the port the server listens on;
//! - `Origin`, when the browser sends one, must be `http://` and the same host and port;
//! - a `POST` must say `Content-Type: application/json`, which a cross-site page cannot send
//!   without a preflight that this server never answers.
//!
//! Each refusal is 403 with `{"error"}` saying what to change. And a body with a
//! `Content-Length` over [`super::MAX_BODY`] is answered 413 at once, unread; one that does not
//! arrive whole within [`BODY_TIMEOUT`] gets 408.

use super::error::ApiError;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

/// How long a request body may take to arrive.
pub(super) const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// The hosts a request may name, and the port it must name.
#[derive(Clone, Debug)]
pub(super) struct Guard {
    /// The port the server listens on.
    port: u16,
    /// `--allow-host` names (lower case), besides IP addresses and `localhost`.
    allowed: Vec<String>,
}

impl Guard {
    pub(super) fn new(port: u16, allowed: &[String]) -> Self {
        Self {
            port,
            allowed: allowed.iter().map(|h| h.to_ascii_lowercase()).collect(),
        }
    }

    /// Whether `authority` (`host[:port]`, as in `Host` or after `http://` in `Origin`) names
    /// this server.
    fn names_us(&self, authority: &str) -> bool {
        let (host, port) = split_authority(authority);
        let port_ok = match port {
            Some(p) => p.parse::<u16>() == Ok(self.port),
            None => self.port == 80,
        };
        let host = host.to_ascii_lowercase();
        let host_ok = host == "localhost"
            || host
                .trim_start_matches('[')
                .trim_end_matches(']')
                .parse::<IpAddr>()
                .is_ok()
            || self.allowed.contains(&host);
        port_ok && host_ok
    }

    /// Why `headers` (of a request by `method`) are refused, if they are.
    fn refusal(&self, method: &Method, headers: &HeaderMap) -> Option<String> {
        let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
            return Some("the request has no Host header".to_string());
        };
        if !self.names_us(host) {
            return Some(format!(
                "Host '{host}' is not this server: use http://127.0.0.1:{port}/ (or localhost), \
                 or start it with --allow-host NAME to be reached by another name",
                port = self.port
            ));
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            let same = origin
                .strip_prefix("http://")
                .is_some_and(|o| o.eq_ignore_ascii_case(host));
            if !same {
                return Some(format!(
                    "Origin '{origin}' is not this server's page (http://{host}): only the page \
                     the server serves may use its API"
                ));
            }
        }
        if method == Method::POST {
            let json = headers
                .get(header::CONTENT_TYPE)
                .and_then(|c| c.to_str().ok())
                .and_then(|c| c.split(';').next())
                .is_some_and(|c| c.trim().eq_ignore_ascii_case("application/json"));
            if !json {
                return Some(
                    "a POST must have Content-Type: application/json (the body is one JSON object)"
                        .to_string(),
                );
            }
        }
        None
    }
}

/// `host` and `port` of `host:port`, `[v6]:port`, `host` or `[v6]`.
fn split_authority(a: &str) -> (&str, Option<&str>) {
    if let Some(rest) = a.strip_prefix('[') {
        return match rest.split_once(']') {
            Some((h, tail)) => (h, tail.strip_prefix(':')),
            None => (a, None),
        };
    }
    match a.rsplit_once(':') {
        Some((h, p)) if !h.contains(':') => (h, Some(p)),
        _ => (a, None),
    }
}

/// The middleware: refuses foreign requests (403), too-large bodies (413) and slow ones (408);
/// hands the rest on with the body read.
pub(super) async fn check(
    State(guard): State<Arc<Guard>>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    // The size first: a huge body is refused unread whoever sends it.
    let length = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|l| l.to_str().ok())
        .and_then(|l| l.parse::<u64>().ok());
    if length.is_some_and(|l| l > super::MAX_BODY as u64) {
        return too_large().into_response();
    }
    if let Some(why) = guard.refusal(&parts.method, &parts.headers) {
        return ApiError::forbidden(why).into_response();
    }
    let bytes =
        match tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, super::MAX_BODY)).await
        {
            Ok(Ok(b)) => b,
            // Over the limit without a Content-Length (chunked), or the connection failed.
            Ok(Err(_)) => return too_large().into_response(),
            Err(_) => {
                return ApiError::timeout(format!(
                    "the request body did not arrive within {} s",
                    BODY_TIMEOUT.as_secs()
                ))
                .into_response()
            }
        };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

fn too_large() -> ApiError {
    ApiError::too_large(format!(
        "the request body is larger than {} KiB; a position and its moves fit in far less",
        super::MAX_BODY / 1024
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn only_this_servers_host_origin_and_json_pass() {
        let g = Guard::new(8080, &["box.lan".to_string()]);
        let json = ("content-type", "application/json");
        for host in [
            "127.0.0.1:8080",
            "localhost:8080",
            "[::1]:8080",
            "192.168.1.5:8080",
            "Box.lan:8080",
        ] {
            assert_eq!(
                g.refusal(&Method::POST, &headers(&[("host", host), json])),
                None,
                "{host}"
            );
        }
        for host in [
            "evil.example:8080",
            "127.0.0.1:9090",
            "localhost",
            "127.0.0.1.evil.example:8080",
        ] {
            assert!(
                g.refusal(&Method::GET, &headers(&[("host", host)]))
                    .is_some(),
                "{host}"
            );
        }
        let h = ("host", "127.0.0.1:8080");
        assert_eq!(
            g.refusal(
                &Method::POST,
                &headers(&[h, json, ("origin", "http://127.0.0.1:8080")])
            ),
            None
        );
        for origin in [
            "http://evil.example",
            "null",
            "https://127.0.0.1:8080",
            "http://localhost:8080",
        ] {
            assert!(
                g.refusal(&Method::POST, &headers(&[h, json, ("origin", origin)]))
                    .is_some(),
                "{origin}"
            );
        }
        for ct in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
        ] {
            assert!(
                g.refusal(&Method::POST, &headers(&[h, ("content-type", ct)]))
                    .is_some(),
                "{ct}"
            );
        }
        assert!(
            g.refusal(&Method::POST, &headers(&[h])).is_some(),
            "no content type"
        );
        assert_eq!(
            g.refusal(
                &Method::POST,
                &headers(&[h, ("content-type", "application/json; charset=utf-8")])
            ),
            None
        );
        assert_eq!(
            g.refusal(&Method::GET, &headers(&[h])),
            None,
            "a GET has no body"
        );
    }
}
