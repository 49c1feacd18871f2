//! Which embeddings server a command uses: the flags, else settings.json beside the
//! database (the desktop app's settings), else none (keyword search only).

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use evident_core::model::ModelServer;
use evident_core::search::Semantic;
use evident_core::settings::{ServerSettings, Settings};

use crate::args::EmbedArgs;

/// Environment variable holding an API key for a server given with --embed-url.
pub const KEY_ENV: &str = "EVIDENT_EMBED_KEY";

/// The server settings that apply: from the flags or from settings.json.
pub fn server_settings(db: &Path, a: &EmbedArgs) -> anyhow::Result<Option<ServerSettings>> {
    if a.no_embed {
        return Ok(None);
    }
    let saved = Settings::load(&Settings::path_for(db))?.embeddings;
    match (&a.embed_url, &a.embed_model) {
        (Some(url), Some(model)) => {
            let key = std::env::var(KEY_ENV).ok();
            Ok(Some(ServerSettings::updated(
                saved.as_ref(),
                url,
                model,
                key.as_deref(),
            )))
        }
        _ => Ok(saved),
    }
}

/// The embeddings server for a command, if one is set up.
pub fn semantic(db: &Path, a: &EmbedArgs) -> anyhow::Result<Option<Semantic>> {
    let Some(settings) = server_settings(db, a)? else {
        return Ok(None);
    };
    let server = ModelServer::new(settings.config())
        .with_context(|| format!("cannot use the embeddings server {}", settings.base_url))?;
    Ok(Some(Semantic(Arc::new(server))))
}
