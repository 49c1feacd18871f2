//! Which embeddings model and which reranker a command uses: the flags, else
//! settings.json beside the database (the desktop app's settings). For embeddings, a
//! server wins; without one, the built-in model (a GGUF file run by this executable's
//! own worker); without that, keyword search only.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use evident_core::model::builtin::{self, BuiltinModel};
use evident_core::model::{ModelServer, PromptFamily};
use evident_core::search::{Rerank, Semantic};
use evident_core::settings::{ServerSettings, Settings};

use crate::flags::{EmbedArgs, RerankArgs};

/// Environment variable holding an API key for a server given with --embed-url.
pub const KEY_ENV: &str = "EVIDENT_EMBED_KEY";
/// Environment variable holding an API key for a server given with --rerank-url.
pub const RERANK_KEY_ENV: &str = "EVIDENT_RERANK_KEY";

/// The flags' server over the saved one: a URL and model from the flags (with a key
/// from `key_env`), else what was saved.
fn flagged(
    saved: Option<ServerSettings>,
    url: Option<&String>,
    model: Option<&String>,
    key_env: &str,
) -> Option<ServerSettings> {
    match (url, model) {
        (Some(url), Some(model)) => {
            let key = std::env::var(key_env).ok();
            Some(ServerSettings::updated(
                saved.as_ref(),
                url,
                model,
                key.as_deref(),
            ))
        }
        _ => saved,
    }
}

/// The prompt family `--embed-prompt` names: `Some(None)` for `auto`.
pub fn prompt_choice(name: &str) -> anyhow::Result<Option<PromptFamily>> {
    if name.trim().eq_ignore_ascii_case("auto") {
        return Ok(None);
    }
    match PromptFamily::from_id(name) {
        Some(family) => Ok(Some(family)),
        None => {
            let known: Vec<&str> = PromptFamily::ALL.iter().map(|f| f.id()).collect();
            anyhow::bail!(
                "--embed-prompt {name:?} is not a prompt family; use auto or one of {}",
                known.join(", ")
            )
        }
    }
}

/// The embeddings server settings that apply: from the flags or from settings.json.
pub fn server_settings(db: &Path, a: &EmbedArgs) -> anyhow::Result<Option<ServerSettings>> {
    if a.no_embed {
        return Ok(None);
    }
    let saved = Settings::load(&Settings::path_for(db))?.embeddings;
    let mut settings = flagged(saved, a.embed_url.as_ref(), a.embed_model.as_ref(), KEY_ENV);
    if let Some(name) = &a.embed_prompt {
        let choice = prompt_choice(name)?;
        // Without a server, the built-in model takes its prompts from the flag (see
        // `builtin_model`).
        if let Some(s) = settings.as_mut() {
            s.prompt = choice;
        }
    }
    Ok(settings)
}

/// The embedding model for a command: the server set up, else the built-in model,
/// else none.
pub fn semantic(db: &Path, a: &EmbedArgs) -> anyhow::Result<Option<Semantic>> {
    if let Some(settings) = server_settings(db, a)? {
        let server = ModelServer::new(settings.config())
            .with_context(|| format!("cannot use the embeddings server {}", settings.base_url))?;
        return Ok(Some(Semantic(Arc::new(server))));
    }
    if a.no_embed {
        return Ok(None);
    }
    Ok(builtin_model(db, a)?.map(|m| Semantic(Arc::new(m))))
}

/// The built-in model that applies: `--embed-gguf` (a file, or `auto`), else the saved
/// choice, else the first embedding model found. A file the user named that cannot be
/// used is an error; a model found on the way that cannot is a note.
pub fn builtin_model(db: &Path, a: &EmbedArgs) -> anyhow::Result<Option<BuiltinModel>> {
    let settings = Settings::path_for(db);
    let saved = Settings::load(&settings)?.builtin;
    // The saved choice, and the model kept from an earlier search, apply without a flag.
    let from_settings = a.embed_gguf.is_none();
    let (enabled, chosen, kept) = match a.embed_gguf.as_deref() {
        Some(flag) if flag.trim().eq_ignore_ascii_case("auto") => (true, None, None),
        Some(file) => (true, Some(std::path::PathBuf::from(file)), None),
        None => (saved.enabled, saved.file, saved.kept),
    };
    if !enabled {
        return Ok(None);
    }
    let worker = std::env::current_exe().context("cannot find this program to run the model")?;
    let choice = builtin::choose(chosen.as_deref(), kept.as_deref());
    for (path, why) in &choice.skipped {
        let why = why.text(crate::locale::lang());
        if Some(path) == chosen.as_ref() {
            anyhow::bail!("{why}");
        }
        eprintln!("note: skipped the model {}: {why}", path.display());
    }
    let Some((candidate, _info)) = choice.model else {
        return Ok(None);
    };
    if from_settings && chosen.is_none() {
        evident_core::settings::keep_builtin(&settings, &candidate.path)?;
    }
    let mut model = BuiltinModel::new(candidate.path, worker);
    if let Some(name) = &a.embed_prompt
        && let Some(family) = prompt_choice(name)?
    {
        model = model.with_prompts(family);
    }
    Ok(Some(model))
}

/// The reranker settings that apply: from the flags or from settings.json.
pub fn rerank_settings(db: &Path, a: &RerankArgs) -> anyhow::Result<Option<ServerSettings>> {
    if a.no_rerank {
        return Ok(None);
    }
    let saved = Settings::load(&Settings::path_for(db))?.rerank;
    Ok(flagged(
        saved,
        a.rerank_url.as_ref(),
        a.rerank_model.as_ref(),
        RERANK_KEY_ENV,
    ))
}

/// The reranker for a command, if one is set up.
pub fn reranker(db: &Path, a: &RerankArgs) -> anyhow::Result<Option<Rerank>> {
    let Some(settings) = rerank_settings(db, a)? else {
        return Ok(None);
    };
    let server = ModelServer::new(settings.config())
        .with_context(|| format!("cannot use the reranker {}", settings.base_url))?;
    Ok(Some(Rerank(Arc::new(server))))
}
