//! The app's reranker: its settings (in `settings.json`, beside the embeddings server's)
//! and the client every question uses while one is set up.
//!
//! A reranker is optional and only reorders: without one, or when it fails, answers
//! keep the fused order and say why (`retrieval.rerank_note`).

use std::sync::{Arc, Mutex, PoisonError};

use evident_core::model::{ModelServer, Reranker};
use evident_core::search::Rerank;
use evident_core::settings::{ServerSettings, Settings};
use serde::Serialize;
use tauri::{AppHandle, Manager};

use crate::embedding::{ServerCheck, check_with};
use crate::error::CommandResult;
use crate::state::AppState;

/// Whether a reranker is in use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum RerankPhase {
    /// None set up.
    #[default]
    Off,
    /// One is set up.
    On,
    /// Settings that cannot work.
    Error,
}

/// The reranker as the Settings page shows it (never the key).
#[derive(Debug, Clone, Default, Serialize, ts_rs::TS)]
pub struct RerankStatus {
    /// Whether a reranker is in use.
    pub state: RerankPhase,
    /// The server's base URL.
    pub base_url: Option<String>,
    /// The model name.
    pub model: Option<String>,
    /// Whether an API key is saved for this URL.
    pub has_key: bool,
    /// What went wrong, in words for the user.
    pub message: Option<String>,
    /// The same as a code, for the window's language.
    pub why: Option<evident_core::problem::Problem>,
}

/// The reranker side of the app's state.
#[derive(Default)]
pub struct RerankState {
    rerank: Mutex<Option<Rerank>>,
    status: Mutex<RerankStatus>,
}

impl RerankState {
    /// The reranker questions use, if one is set up.
    pub fn current(&self) -> Option<Rerank> {
        self.rerank
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// What the Settings page shows.
    pub fn status(&self) -> RerankStatus {
        self.status
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Uses `settings` from now on (`None`: no reranker).
    fn apply(&self, settings: Option<&ServerSettings>) {
        let (rerank, status) = match settings {
            None => (
                None,
                RerankStatus {
                    state: RerankPhase::Off,
                    ..Default::default()
                },
            ),
            Some(s) => {
                let base = RerankStatus {
                    base_url: Some(s.base_url.clone()),
                    model: Some(s.model.clone()),
                    has_key: s.api_key.is_some(),
                    ..Default::default()
                };
                match ModelServer::new(s.config()) {
                    Ok(server) => (
                        Some(Rerank(Arc::new(server) as Arc<dyn Reranker>)),
                        RerankStatus {
                            state: RerankPhase::On,
                            ..base
                        },
                    ),
                    Err(e) => (
                        None,
                        RerankStatus {
                            state: RerankPhase::Error,
                            message: Some(e.to_string()),
                            why: Some(e.problem()),
                            ..base
                        },
                    ),
                }
            }
        };
        *self.rerank.lock().unwrap_or_else(PoisonError::into_inner) = rerank;
        *self.status.lock().unwrap_or_else(PoisonError::into_inner) = status;
    }
}

/// Reads the settings beside the database (on start).
pub fn start(app: &AppHandle) {
    let state = app.state::<AppState>();
    match Settings::load(&Settings::path_for(&state.db_path)) {
        Ok(s) => state.rerank.apply(s.rerank.as_ref()),
        Err(e) => {
            *state
                .rerank
                .status
                .lock()
                .unwrap_or_else(PoisonError::into_inner) = RerankStatus {
                state: RerankPhase::Error,
                message: Some(e.to_string()),
                why: Some(e.problem()),
                ..Default::default()
            }
        }
    }
}

/// Tries a reranker: lists the server's models and, when one is named, ranks two
/// texts against a question. Blocking: call it off the async runtime.
pub fn check_server(settings: &ServerSettings) -> ServerCheck {
    check_with(settings, |server| {
        server
            .rerank(
                "年假有几天？ How many days of annual leave?",
                &["员工年休假5天。", "Travel is booked through the portal."],
            )
            .map(|_| None)
    })
}

/// Saves new settings (`None`: no reranker) and uses them from now on.
pub fn save(app: &AppHandle, settings: Option<ServerSettings>) -> CommandResult<()> {
    let state = app.state::<AppState>();
    let path = Settings::path_for(&state.db_path);
    Settings::update(&path, |all| {
        all.rerank = settings.clone();
        Ok(())
    })?;
    state.rerank.apply(settings.as_ref());
    Ok(())
}
