//! The app's answer model: which kind of answer the user wants, the model server that
//! writes them, its connection test, and the stop button.
//!
//! Settings live in `settings.json` beside the database with the embeddings server's
//! (one server may serve both). A model answer is streamed to the window through a
//! per-question channel and then checked by the core like every answer; stopping it
//! bumps [`AnswerState`]'s counter, which the running generation sees at its next
//! piece of text.

use evident_core::ErrorCode;
use std::sync::atomic::{AtomicU64, Ordering};

use evident_core::answer::Mode;
use evident_core::model::{ChatMessage, Generator, Role};
use evident_core::settings::{ServerSettings, Settings};
use serde::Serialize;

use crate::embedding::{self, ServerCheck};
use crate::error::CommandResult;

/// The answer settings as the Settings page shows them (never the key itself).
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct AnswerSettings {
    /// `extractive` (quoted sentences) or `generated` (a model writes them).
    pub mode: Mode,
    /// The model server's base URL, if one is set up.
    pub base_url: Option<String>,
    /// The model's name on it.
    pub model: Option<String>,
    /// Whether an API key is saved for this URL.
    pub has_key: bool,
}

impl AnswerSettings {
    /// What `settings` hold.
    pub fn of(settings: &Settings) -> Self {
        let server = settings.generation.as_ref();
        Self {
            mode: settings.answer_mode,
            base_url: server.map(|s| s.base_url.clone()),
            model: server.map(|s| s.model.clone()),
            has_key: server.is_some_and(|s| s.api_key.is_some()),
        }
    }
}

/// Tries an answer model: lists the server's models, checks the name against them and
/// asks for a one-word reply. Blocking: call it off the async runtime.
pub fn check_model(settings: &ServerSettings) -> ServerCheck {
    let hello = [ChatMessage {
        role: Role::User,
        content: "Reply with the single word OK.".into(),
    }];
    embedding::check_with(settings, |server| {
        server.generate(&hello, 4, &mut |_| true).map(|_| None)
    })
}

/// The stop button's side of the state: each stop moves the counter on, and a
/// generation that started under another value stops at its next piece of text.
#[derive(Default)]
pub struct AnswerState {
    stops: AtomicU64,
}

impl AnswerState {
    /// A token for a generation starting now.
    pub fn start(&self) -> u64 {
        self.stops.load(Ordering::SeqCst)
    }

    /// Whether the generation started with `token` may go on.
    pub fn may_go_on(&self, token: u64) -> bool {
        self.stops.load(Ordering::SeqCst) == token
    }

    /// Stops every running generation.
    pub fn stop(&self) {
        self.stops.fetch_add(1, Ordering::SeqCst);
    }
}

/// The saved settings with the answer part replaced. A server that does not work is
/// not saved; the kind of answer can be switched to `generated` only with one set up.
pub fn updated(
    mut all: Settings,
    mode: Mode,
    server: Option<ServerSettings>,
) -> CommandResult<Settings> {
    if let Some(server) = server {
        all.generation = Some(server);
    }
    if mode == Mode::Generated && all.generation.is_none() {
        return Err(crate::error::CommandError::new(
            ErrorCode::BadInput,
            "set up an answer model (server address and model) before switching to model answers",
        ));
    }
    all.answer_mode = mode;
    Ok(all)
}
