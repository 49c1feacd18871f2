//! How a model server failed, classified once so that every face (CLI, app, logs) can
//! say what the user can do about it.

use crate::catalogue::{self, Kind};
use crate::message::Lang;

/// What went wrong with the model server, by what the user can do about it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ServerErrorKind {
    /// Nothing answers at the address (not started, wrong port or host).
    Unreachable,
    /// The server took longer than the time allowed.
    TimedOut,
    /// The server lists its models but does not embed: found by the background check
    /// of a server that timed out (an Ollama loading a model, a llama.cpp server busy
    /// generating).
    NotEmbedding,
    /// The server refused the API key (401/403).
    KeyRejected,
    /// The server does not have the model (not in `/v1/models`, or 404 for it).
    ModelMissing,
    /// The server rejected the request (other 4xx), e.g. an input too long.
    Rejected,
    /// The server failed (5xx) or is overloaded (429).
    ServerFailed,
    /// The reply was not what the API promises (wrong count, width, NaN, zero vectors,
    /// not JSON).
    BadReply,
    /// The settings cannot work (an empty model name, a URL that is not http).
    BadSettings,
    /// A streamed answer ended before the server said it was complete.
    StreamCut,
    /// The user stopped the request.
    Cancelled,
}

/// A model-server failure: its kind, the HTTP status if there was one, and what the
/// server or the client said.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
#[error("{}", self.describe())]
pub struct ServerError {
    /// What went wrong.
    pub kind: ServerErrorKind,
    /// The HTTP status, when the server answered.
    pub status: Option<u16>,
    /// The server's or the client's own words (never the API key).
    pub detail: String,
    /// The server's base URL.
    pub url: String,
    /// Set when the server was not asked at all: seconds since it last failed like
    /// this (it is checked again in the background; see `model::breaker`).
    #[serde(default)]
    pub remembered: Option<u64>,
}

impl ServerError {
    /// A failure of `kind` at `url`.
    pub fn new(kind: ServerErrorKind, url: &str, detail: impl Into<String>) -> Self {
        Self {
            kind,
            status: None,
            detail: detail.into(),
            url: url.to_owned(),
            remembered: None,
        }
    }

    /// The same failure with the HTTP status that came with it.
    pub fn with_status(mut self, status: u16) -> Self {
        self.status = Some(status);
        self
    }

    /// Whether trying again may help: transport failures and "busy" statuses.
    pub fn is_transient(&self) -> bool {
        match self.kind {
            ServerErrorKind::Unreachable | ServerErrorKind::TimedOut => true,
            ServerErrorKind::ServerFailed => {
                matches!(self.status, Some(429 | 502 | 503 | 504))
            }
            _ => false,
        }
    }

    fn describe(&self) -> String {
        let coded = serde_json::json!({"code": "server", "params": self});
        catalogue::say(Lang::En, Kind::Problem, &coded)
    }
}
