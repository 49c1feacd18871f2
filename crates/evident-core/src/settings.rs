//! The settings the CLI and the desktop app share, in `settings.json` beside the
//! database: the embeddings server, the model server that writes answers, and which
//! kind of answer the user wants.
//!
//! They live in their own file, not in the database, because the database is a cache
//! that a rebuild replaces; the user's choices must survive that. The file may hold an
//! API key, so it is written with owner-only permissions, atomically and one writer at
//! a time ([`crate::user_file`]; change it with [`Settings::update`]), and the key
//! never leaves this module except as a [`SecretString`] in a [`ServerConfig`].

use std::path::{Path, PathBuf};

use secrecy::SecretString;
use serde::{Deserialize, Serialize};

use crate::model::ServerConfig;
use crate::{Error, Result};

/// File name of the settings, beside the database.
pub const FILE_NAME: &str = "settings.json";

/// Everything in `settings.json`.
#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Settings {
    /// The embeddings server; `None` means keyword search only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embeddings: Option<ServerSettings>,
    /// The model server that writes answers; `None` means not set up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<ServerSettings>,
    /// Which answers the user wants: extractive (the default) or model-written (used
    /// only while `generation` is set up).
    #[serde(default)]
    pub answer_mode: crate::answer::Mode,
    /// The reranker that orders the best passages and answer sentences; `None`: the
    /// fused order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rerank: Option<ServerSettings>,
    /// The built-in embeddings model, used while no embeddings server is set up.
    #[serde(default)]
    pub builtin: BuiltinSettings,
}

/// The built-in embeddings model as the user set it up.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuiltinSettings {
    /// Whether to look for and run one (on by default; off means keyword search only
    /// unless a server is set up).
    #[serde(default = "on")]
    pub enabled: bool,
    /// The GGUF file the user chose; `None` takes the most preferred embedding model
    /// found in Evident's models folder or among Ollama's
    /// ([`crate::model::builtin::choose`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(type = "string | null"))]
    pub file: Option<std::path::PathBuf>,
    /// The model found that way and used: kept while it is there, until the user
    /// chooses (a later pull never switches the library's vectors on its own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(type = "string | null"))]
    pub kept: Option<std::path::PathBuf>,
}

impl BuiltinSettings {
    /// The built-in model worked out from these settings ([`crate::model::builtin::choose`]).
    pub fn choose(&self) -> crate::model::builtin::Choice {
        crate::model::builtin::choose(self.file.as_deref(), self.kept.as_deref())
    }
}

/// Remembers `model` as the one found and used while the user has chosen none, under
/// the settings file's lock; nothing changes when the user chose a file meanwhile.
pub fn keep_builtin(settings: &Path, model: &Path) -> Result<()> {
    let current = Settings::load(settings)?.builtin;
    if current.file.is_some() || current.kept.as_deref() == Some(model) {
        return Ok(());
    }
    Settings::update(settings, |all| {
        if all.builtin.file.is_none() {
            all.builtin.kept = Some(model.to_owned());
        }
        Ok(())
    })
}

fn on() -> bool {
    true
}

impl Default for BuiltinSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            file: None,
            kept: None,
        }
    }
}

/// One model server as the user set it up.
#[derive(Clone, Serialize, Deserialize, PartialEq)]
pub struct ServerSettings {
    /// Base URL of the OpenAI-compatible API.
    pub base_url: String,
    /// Model name on that server.
    pub model: String,
    /// API key for that URL (kept only while the URL stays the same).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key: Option<String>,
    /// Embedding models only: the prompts to give the model; `None` (the default)
    /// recognises them from the model's name. Kept only while the model stays the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<crate::model::PromptFamily>,
}

impl std::fmt::Debug for ServerSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerSettings")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "(set)"))
            .field("prompt", &self.prompt)
            .finish()
    }
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("embeddings", &self.embeddings)
            .field("generation", &self.generation)
            .field("answer_mode", &self.answer_mode)
            .field("rerank", &self.rerank)
            .field("builtin", &self.builtin)
            .finish()
    }
}

impl ServerSettings {
    /// The client configuration.
    pub fn config(&self) -> ServerConfig {
        ServerConfig {
            base_url: self.base_url.clone(),
            model: self.model.clone(),
            api_key: self
                .api_key
                .as_ref()
                .filter(|k| !k.is_empty())
                .map(|k| SecretString::from(k.clone())),
            prompt: self.prompt,
        }
    }

    /// These settings changed to `base_url` and `model`. A key is tied to the URL it was
    /// entered for: `api_key` replaces it when given; otherwise it is kept only if the
    /// URL is unchanged, so a key is never sent to a server it was not meant for. A
    /// chosen prompt family is kept only for the same model (set `prompt` after).
    pub fn updated(
        previous: Option<&ServerSettings>,
        base_url: &str,
        model: &str,
        api_key: Option<&str>,
    ) -> Self {
        let base_url = base_url.trim().to_owned();
        let kept = previous
            .filter(|p| p.base_url.trim() == base_url)
            .and_then(|p| p.api_key.clone());
        let prompt = previous
            .filter(|p| p.model.trim() == model.trim())
            .and_then(|p| p.prompt);
        Self {
            prompt,
            model: model.trim().to_owned(),
            api_key: match api_key {
                Some(k) if !k.trim().is_empty() => Some(k.trim().to_owned()),
                Some(_) => None,
                None => kept,
            },
            base_url,
        }
    }
}

impl Settings {
    /// Where the settings of the database at `db` live.
    pub fn path_for(db: &Path) -> PathBuf {
        db.with_file_name(FILE_NAME)
    }

    /// Reads the settings; a missing file is the defaults.
    pub fn load(path: &Path) -> Result<Self> {
        let what = crate::problem::Limited::UserFile;
        match crate::limits::read_capped_if_present(path, crate::limits::MAX_USER_FILE_BYTES, what)?
        {
            Some(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
                Error::input(
                    path,
                    crate::problem::Problem::SettingsInvalid {
                        detail: e.to_string(),
                    },
                )
            }),
            None => Ok(Self::default()),
        }
    }

    /// Writes the settings atomically, readable by the owner only, while holding the
    /// file's lock ([`crate::user_file`]). To change what is there, use [`Self::update`].
    pub fn save(&self, path: &Path) -> Result<()> {
        crate::user_file::locked(path, || self.write(path))
    }

    fn write(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self)?;
        crate::user_file::write(path, text.as_bytes(), true)
    }

    /// Reads the settings at `path`, lets `change` change them and writes them back,
    /// with no other writer in between (the CLI, another command of the app): no change
    /// is lost to a concurrent one. Nothing is written when `change` fails.
    pub fn update<T>(path: &Path, change: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        crate::user_file::locked(path, || {
            let mut settings = Self::load(path)?;
            let out = change(&mut settings)?;
            settings.write(path)?;
            Ok(out)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eight writers each add one, 25 times, to a number kept in the file: every
    /// read-modify-write must see the one before it, or the total comes out short.
    #[test]
    fn concurrent_updates_lose_nothing_and_the_file_is_always_whole() {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join(FILE_NAME);
        let count = |s: &Settings| {
            s.generation
                .as_ref()
                .and_then(|g| g.model.parse::<u32>().ok())
                .unwrap_or(0)
        };
        std::thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| {
                    for _ in 0..25 {
                        Settings::update(&path, |s| {
                            let next = count(s) + 1;
                            s.generation = Some(ServerSettings::updated(
                                None,
                                "http://127.0.0.1:1/v1",
                                &next.to_string(),
                                None,
                            ));
                            Ok(())
                        })
                        .expect("update");
                        // A reader in between always finds a whole file.
                        Settings::load(&path).expect("a whole file");
                    }
                });
            }
        });
        assert_eq!(count(&Settings::load(&path).expect("load")), 200);
    }

    #[test]
    fn a_key_stays_with_its_url() {
        let first = ServerSettings::updated(None, "http://a:1/v1", "m", Some("sk-1"));
        assert_eq!(first.api_key.as_deref(), Some("sk-1"));
        let same = ServerSettings::updated(Some(&first), "http://a:1/v1", "other", None);
        assert_eq!(
            same.api_key.as_deref(),
            Some("sk-1"),
            "same URL keeps the key"
        );
        let moved = ServerSettings::updated(Some(&first), "http://b:1/v1", "m", None);
        assert_eq!(moved.api_key, None, "a new URL never inherits the key");
        let cleared = ServerSettings::updated(Some(&first), "http://a:1/v1", "m", Some(""));
        assert_eq!(cleared.api_key, None, "an empty key clears it");
    }

    #[test]
    fn settings_round_trip_owner_only_and_never_print_the_key() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join(FILE_NAME);
        assert!(
            Settings::load(&path)
                .expect("missing is default")
                .embeddings
                .is_none()
        );
        let settings = Settings {
            embeddings: Some(ServerSettings::updated(
                None,
                "http://127.0.0.1:9/v1",
                "e5",
                Some("sk-secret"),
            )),
            generation: Some(ServerSettings::updated(
                None,
                "http://127.0.0.1:11434/v1",
                "qwen2.5",
                Some("sk-other"),
            )),
            answer_mode: crate::answer::Mode::Generated,
            rerank: None,
            builtin: BuiltinSettings {
                enabled: true,
                file: Some("/models/e5.gguf".into()),
                kept: Some("/ollama/blobs/sha256-1".into()),
            },
        };
        settings.save(&path).expect("saved");
        let back = Settings::load(&path).expect("loads");
        assert_eq!(back.embeddings, settings.embeddings);
        assert_eq!(back.generation, settings.generation);
        assert_eq!(back.answer_mode, crate::answer::Mode::Generated);
        assert_eq!(back.builtin, settings.builtin);
        let printed = format!("{back:?}");
        assert!(!printed.contains("sk-secret") && !printed.contains("sk-other"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("stat").permissions().mode();
            assert_eq!(mode & 0o077, 0, "only the owner may read a file with a key");
        }
        std::fs::write(&path, "{not json").expect("write");
        let err = Settings::load(&path)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.contains("settings.json") && err.contains("not valid"),
            "{err}"
        );
    }
}
