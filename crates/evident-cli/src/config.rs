//! `evident config`: the settings the CLI and the desktop app share, shown or changed.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use evident_cli::flags::{EmbedArgs, RerankArgs};
use evident_cli::semantic;

/// `evident config`: shows the shared settings, or changes the embeddings server and
/// the reranker.
pub fn config_cmd(db: &Path, a: &EmbedArgs, r: &RerankArgs) -> anyhow::Result<ExitCode> {
    use evident_core::settings::Settings;
    let path = Settings::path_for(db);
    let mut out = std::io::stdout();
    let embed_changed =
        a.no_embed || a.embed_url.is_some() || a.embed_prompt.is_some() || a.embed_gguf.is_some();
    let rerank_changed = r.no_rerank || r.rerank_url.is_some();
    // Worked out before the file is locked: the new servers' settings.
    let embeddings = if embed_changed {
        Some(semantic::server_settings(db, a)?)
    } else {
        None
    };
    let rerank = if rerank_changed {
        Some(semantic::rerank_settings(db, r)?)
    } else {
        None
    };
    if let Some(file) = a
        .embed_gguf
        .as_deref()
        .filter(|f| !f.trim().eq_ignore_ascii_case("auto"))
    {
        let file = std::path::Path::new(file);
        anyhow::ensure!(file.is_file(), "{}: no such file", file.display());
    }
    let settings = if embed_changed || rerank_changed {
        // Changed under the file's lock, so a change the app makes meanwhile is kept.
        let settings = Settings::update(&path, |settings| {
            if let Some(embeddings) = embeddings {
                settings.embeddings = embeddings;
                if a.no_embed {
                    settings.builtin.enabled = false;
                }
            }
            if let Some(file) = &a.embed_gguf {
                // The built-in model is wanted: it is used only while no server is set up.
                settings.embeddings = None;
                settings.builtin.enabled = true;
                settings.builtin.file = (!file.trim().eq_ignore_ascii_case("auto"))
                    .then(|| std::path::PathBuf::from(file));
            }
            if let Some(rerank) = rerank {
                settings.rerank = rerank;
            }
            // Refuse settings that cannot work before they are saved.
            for s in settings.embeddings.iter().chain(&settings.rerank) {
                evident_core::model::ModelServer::new(s.config())?;
            }
            Ok(settings.clone())
        })?;
        writeln!(out, "saved {}", path.display())?;
        settings
    } else {
        Settings::load(&path)?
    };
    let keyed = |s: &evident_core::settings::ServerSettings| {
        if s.api_key.is_some() {
            " (with an API key)"
        } else {
            ""
        }
    };
    match &settings.embeddings {
        Some(s) => {
            let family = evident_core::model::prompt::resolve(s.prompt, &s.model);
            let how = if s.prompt.is_some() {
                "chosen"
            } else {
                "recognised from the name"
            };
            writeln!(
                out,
                "embeddings: {} at {}{}; prompts: {} ({how})",
                s.model,
                s.base_url,
                keyed(s),
                family.label()
            )?
        }
        None => describe_builtin(&mut out, &settings.builtin)?,
    }
    match &settings.rerank {
        Some(s) => writeln!(out, "reranker: {} at {}{}", s.model, s.base_url, keyed(s))?,
        None => writeln!(out, "reranker: none")?,
    }
    Ok(ExitCode::SUCCESS)
}

/// What `evident config` says of the built-in model: the one in use (its file, where
/// it was found, architecture, size, prompts and licence) and the files skipped.
fn describe_builtin(
    out: &mut impl Write,
    settings: &evident_core::settings::BuiltinSettings,
) -> anyhow::Result<()> {
    use evident_core::model::builtin;
    if !settings.enabled {
        writeln!(out, "embeddings: none (keyword search only)")?;
        return Ok(());
    }
    let choice = settings.choose();
    for (path, why) in &choice.skipped {
        writeln!(out, "skipped model: {}: {why}", path.display())?;
    }
    let Some((candidate, info)) = choice.model else {
        writeln!(
            out,
            "embeddings: none (keyword search only): no embedding model in {} nor among Ollama's models; put a GGUF embedding model there or choose one with --embed-gguf FILE",
            builtin::catalog::models_dir().display()
        )?;
        return Ok(());
    };
    let family = builtin::prompts_for(&candidate.path, Some(&info));
    let found = match &candidate.origin {
        builtin::catalog::Origin::Chosen => "chosen".to_owned(),
        builtin::catalog::Origin::Folder => "Evident's models folder".to_owned(),
        builtin::catalog::Origin::Ollama { name } => format!("Ollama's {name}"),
    };
    writeln!(
        out,
        "embeddings: built-in model {} ({found}); {}{}, {:.0} MB; prompts: {}; licence: {}",
        candidate.path.display(),
        info.name.as_deref().unwrap_or(&info.architecture),
        info.size_label
            .as_deref()
            .map(|s| format!(" {s}"))
            .unwrap_or_default(),
        candidate.size as f64 / 1e6,
        family.label(),
        info.license.as_deref().unwrap_or("not stated in the file"),
    )?;
    if let Some(licence) = &candidate.licence_file {
        writeln!(out, "licence text: {}", licence.display())?;
    }
    Ok(())
}
