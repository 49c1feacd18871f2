//! Vectors kept on disk, keyed by model and text: embedding the public sets' passages,
//! sentences and questions with EmbeddingGemma takes most of an hour on two cores, and
//! the training runs again whenever a feature changes. The cache is an [`Embedder`] in
//! front of the real one: a text it has seen (with the same model, prompt family, kind
//! and title) is answered from disk, the rest are embedded and stored.
//!
//! The key is a SHA-256 of the model's name, width and prompts, the input kind, the
//! title and the text; a vector is stored as little-endian f32s. A cache file that
//! cannot be opened is an error (the training must not silently run for an hour).

use std::path::Path;
use std::sync::{Arc, Mutex};

use evident_core::model::{Embedder, InputKind, ModelIdentity, Text};
use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};

/// An embedder whose vectors are kept in a SQLite file.
pub struct VectorCache {
    inner: Arc<dyn Embedder>,
    db: Mutex<Connection>,
    identity: ModelIdentity,
    /// Texts embedded by the model (not found in the cache) since it was opened.
    pub misses: std::sync::atomic::AtomicUsize,
}

impl VectorCache {
    /// Opens (or creates) the cache at `path` in front of `inner`.
    pub fn open(path: &Path, inner: Arc<dyn Embedder>) -> anyhow::Result<Self> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let db = Connection::open(path)?;
        db.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
             CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vector BLOB NOT NULL)",
        )?;
        let identity = inner.identity()?;
        Ok(Self {
            inner,
            db: Mutex::new(db),
            identity,
            misses: Default::default(),
        })
    }

    fn key(&self, text: &Text<'_>, kind: InputKind) -> Vec<u8> {
        let mut h = Sha256::new();
        for part in [
            self.identity.name.as_str(),
            &self.identity.dim.to_string(),
            self.identity.prompt.as_str(),
            kind.as_str(),
            text.title.unwrap_or("\u{0}"),
            text.body,
        ] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
        h.finalize().to_vec()
    }
}

impl Embedder for VectorCache {
    fn identity(&self) -> evident_core::model::Result<ModelIdentity> {
        Ok(self.identity.clone())
    }

    fn embed(
        &self,
        texts: &[Text<'_>],
        kind: InputKind,
    ) -> evident_core::model::Result<Vec<Vec<f32>>> {
        let keys: Vec<Vec<u8>> = texts.iter().map(|t| self.key(t, kind)).collect();
        let mut out: Vec<Option<Vec<f32>>> = {
            let db = self
                .db
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            keys.iter()
                .map(|k| {
                    db.query_row("SELECT vector FROM vectors WHERE key = ?1", [k], |r| {
                        r.get::<_, Vec<u8>>(0)
                    })
                    .optional()
                    .ok()
                    .flatten()
                    .map(|bytes| {
                        bytes
                            .chunks_exact(4)
                            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                            .collect()
                    })
                })
                .collect()
        };
        let missing: Vec<usize> = (0..texts.len()).filter(|&i| out[i].is_none()).collect();
        if !missing.is_empty() {
            let wanted: Vec<Text<'_>> = missing.iter().map(|&i| texts[i]).collect();
            let vectors = self.inner.embed(&wanted, kind)?;
            self.misses
                .fetch_add(missing.len(), std::sync::atomic::Ordering::Relaxed);
            let db = self
                .db
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            for (&i, v) in missing.iter().zip(vectors) {
                let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
                // A vector that cannot be kept is embedded again next time; no loss.
                let _ = db.execute(
                    "INSERT OR REPLACE INTO vectors (key, vector) VALUES (?1, ?2)",
                    params![keys[i], bytes],
                );
                out[i] = Some(v);
            }
        }
        Ok(out.into_iter().map(Option::unwrap_or_default).collect())
    }

    fn location(&self) -> String {
        self.inner.location()
    }

    fn batch_size(&self) -> usize {
        self.inner.batch_size()
    }

    fn titles_sentences(&self) -> bool {
        self.inner.titles_sentences()
    }

    fn first_pass_dims(&self) -> Option<usize> {
        self.inner.first_pass_dims()
    }
}
