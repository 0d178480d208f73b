//! An API error: an HTTP status and a one-line message, answered as `{"error": MESSAGE}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// A request the server refuses or could not answer.
#[derive(Debug)]
pub(super) struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    /// 400: bad input, with the command line's message for it.
    pub(super) fn bad(message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// 409: a second request from a connection that has one running, or a search id in use.
    pub(super) fn conflict(message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::CONFLICT,
            message: message.into(),
        }
    }

    /// 503: every permit taken and too many waiting, or work past the time limit.
    pub(super) fn busy(message: String) -> Self {
        Self {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message,
        }
    }

    /// 403: a request from another site's page, or by a name that is not this server's
    /// ([`super::guard`]).
    pub(super) fn forbidden(message: String) -> Self {
        Self {
            status: StatusCode::FORBIDDEN,
            message,
        }
    }

    /// 404: no such route (or file of the page).
    pub(super) fn not_found(message: String) -> Self {
        Self {
            status: StatusCode::NOT_FOUND,
            message,
        }
    }

    /// 405: a route asked with the wrong method.
    pub(super) fn wrong_method(message: String) -> Self {
        Self {
            status: StatusCode::METHOD_NOT_ALLOWED,
            message,
        }
    }

    /// 408: a body that did not arrive in time.
    pub(super) fn timeout(message: String) -> Self {
        Self {
            status: StatusCode::REQUEST_TIMEOUT,
            message,
        }
    }

    /// 413: a body over the limit, refused before (or while) it is read.
    pub(super) fn too_large(message: String) -> Self {
        Self {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message,
        }
    }

    /// 500: a computation that panicked (a bug).
    pub(super) fn internal(message: String) -> Self {
        Self {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message,
        }
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> Self {
        // `{:#}`: the whole chain on one line, as the command line prints it after "error: ".
        Self::bad(format!("{e:#}"))
    }
}

impl ApiError {
    /// The answer's body, `{"error": MESSAGE}` (also a stream's last line, [`super::stream`]).
    pub(super) fn body(&self) -> serde_json::Value {
        serde_json::json!({ "error": self.message })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body())).into_response()
    }
}
