//! Which model writes an answer for `ask --generate`: the flags, else the answer model
//! in settings.json beside the database (the desktop app's settings).

use std::path::Path;

use anyhow::Context;
use evident_core::model::{ModelServer, OLLAMA_DEFAULT_URL};
use evident_core::settings::{ServerSettings, Settings};

use crate::flags::LlmArgs;

/// Environment variable holding an API key for a server given with --llm-url.
pub const KEY_ENV: &str = "EVIDENT_LLM_KEY";

/// The answer model's server settings: the flags over the saved ones.
pub fn server_settings(db: &Path, a: &LlmArgs) -> anyhow::Result<ServerSettings> {
    let saved = Settings::load(&Settings::path_for(db))?.generation;
    if let (None, None, Some(saved)) = (&a.llm_url, &a.llm_model, &saved) {
        return Ok(saved.clone());
    }
    let url = a
        .llm_url
        .clone()
        .or_else(|| saved.as_ref().map(|s| s.base_url.clone()))
        .unwrap_or_else(|| OLLAMA_DEFAULT_URL.to_owned());
    let Some(model) = a
        .llm_model
        .clone()
        .or_else(|| saved.as_ref().map(|s| s.model.clone()))
    else {
        anyhow::bail!(
            "no answer model is set up: pass --llm-model NAME (and --llm-url URL unless the server is Ollama's at {OLLAMA_DEFAULT_URL}), or choose one in the app's settings"
        );
    };
    let key = std::env::var(KEY_ENV).ok();
    Ok(ServerSettings::updated(
        saved.as_ref(),
        &url,
        &model,
        key.as_deref(),
    ))
}

/// The client for the answer model.
pub fn generator(db: &Path, a: &LlmArgs) -> anyhow::Result<ModelServer> {
    let settings = server_settings(db, a)?;
    ModelServer::new(settings.config())
        .with_context(|| format!("cannot use the model server {}", settings.base_url))
}
