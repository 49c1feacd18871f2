//! Embedding vectors beside their chunks: which models there are, which chunk texts
//! each has embedded, and the passage vectors of one model as one in-memory matrix.
//!
//! Vectors are keyed by the sha256 of the passage as embedded and the model, so re-importing an
//! unchanged document, or a copy of one, embeds nothing, and a question's vector is only
//! ever compared with vectors of the model that made it. The matrix is cached on the
//! connection and reloaded when this or another connection has written since
//! (`PRAGMA data_version` and the connection's own change count).

use std::collections::HashMap;
use std::sync::Arc;

use rusqlite::{params, params_from_iter};

use super::Store;
use crate::Result;
use crate::clock::now;
use crate::model::ModelIdentity;
use crate::model::vector::{self, to_blob};

/// A chunk that the model has not embedded yet.
#[derive(Debug, Clone)]
pub struct PendingChunk {
    /// sha256 of the passage as embedded (the vectors' key).
    pub embed_key: String,
    /// Its document's title.
    pub title: String,
    /// Its heading path.
    pub heading_path: Vec<String>,
    /// The chunk text.
    pub text: String,
    /// How many chunks share this text (copies of a document): its vectors cover them all.
    pub chunks: usize,
}

/// The sentence vectors of one chunk, stored after its passage vector.
#[derive(Debug, Clone)]
pub struct ChunkSentences {
    /// sha256 of the passage as embedded.
    pub embed_key: String,
    /// Byte ranges of the text's sentences, one per entry of `sentences`.
    pub spans: Vec<(usize, usize)>,
    /// Unit vector per sentence.
    pub sentences: Vec<Vec<f32>>,
}

/// Every chunk's passage vector for one model, rows in `chunk_ids` order.
#[derive(Debug)]
pub struct PassageMatrix {
    /// The model.
    pub model_id: i64,
    /// Vector width.
    pub dim: usize,
    /// Chunk id of each row (ascending).
    pub chunk_ids: Vec<i64>,
    /// Document id of each row.
    pub doc_ids: Vec<i64>,
    /// Row-major vectors, `chunk_ids.len() × dim`.
    pub data: Vec<f32>,
    /// The same rows in 8 bits per component, for the first pass of a scan: of the
    /// whole row, or of its first [`PassageMatrix::codes_dim`] components (scaled to
    /// unit length) for a Matryoshka model, whose prefix is an embedding too.
    pub codes: Vec<i8>,
    /// Components per row of `codes`.
    pub codes_dim: usize,
    /// Scale of each row of `codes`.
    pub scales: Vec<f32>,
    /// Chunks that have no vector of this model yet.
    pub missing: usize,
    /// (data_version, total_changes) when loaded.
    stamp: (i64, u64),
}

impl PassageMatrix {
    /// The vector of row `i`.
    pub fn row(&self, i: usize) -> &[f32] {
        &self.data[i * self.dim..(i + 1) * self.dim]
    }

    /// The 8-bit codes of row `i` and their scale.
    pub fn codes(&self, i: usize) -> (&[i8], f32) {
        (
            &self.codes[i * self.codes_dim..(i + 1) * self.codes_dim],
            self.scales[i],
        )
    }
}

/// Sentence vectors of one chunk, for scoring a candidate passage line by line.
#[derive(Debug, Clone)]
pub struct SentenceVectors {
    /// Byte ranges of the sentences in the chunk text.
    pub spans: Vec<(usize, usize)>,
    /// Row-major unit vectors, one per span.
    pub data: Vec<f32>,
}

/// How far one model's embedding of the index has come: passages first, then their
/// sentences.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct VectorCoverage {
    /// Chunks with a passage vector of the model (what meaning search finds).
    pub embedded: usize,
    /// Chunks whose sentences have vectors of the model too (what answers choose their
    /// sentences by).
    #[serde(default)]
    pub sentences: usize,
    /// Chunks in the index.
    pub total: usize,
}

impl VectorCoverage {
    /// Whether every chunk has its passage and sentence vectors.
    pub fn is_complete(&self) -> bool {
        self.sentences >= self.total
    }
}

impl Store {
    /// The id of the stored model that `identity` is, if it was seen before.
    pub fn find_model(&self, identity: &ModelIdentity) -> Result<Option<i64>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, probe FROM embedding_models WHERE name = ?1 AND dim = ?2 AND prompt = ?3",
        )?;
        let rows = stmt.query_map(
            params![identity.name, identity.dim as i64, identity.prompt],
            |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?)),
        )?;
        for row in rows {
            let (id, blob) = row?;
            let Some(probe) = vector::from_blob(&blob, identity.dim) else {
                continue;
            };
            let stored = ModelIdentity {
                name: identity.name.clone(),
                dim: identity.dim,
                probe,
                prompt: identity.prompt.clone(),
            };
            if stored.same_model(identity) {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    /// The id of `identity`, recording it as a new model when it was never seen.
    pub fn register_model(&mut self, identity: &ModelIdentity, base_url: &str) -> Result<i64> {
        if let Some(id) = self.find_model(identity)? {
            return Ok(id);
        }
        self.conn.execute(
            "INSERT INTO embedding_models (name, dim, probe, base_url, first_seen, prompt)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                identity.name,
                identity.dim as i64,
                to_blob([identity.probe.as_slice()]),
                base_url,
                now(),
                identity.prompt
            ],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Fills `embed_key` for chunks written before it existed (once, after the
    /// migration that added it).
    pub(super) fn fill_embed_keys(&mut self) -> Result<usize> {
        let rows: Vec<(i64, String, String, String)> = {
            let mut stmt = self.conn.prepare(
                "SELECT c.id, d.title, c.heading_path, c.text FROM chunks c
                 JOIN documents d ON d.id = c.doc_id WHERE c.embed_key IS NULL",
            )?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
                .collect::<rusqlite::Result<_>>()?
        };
        if rows.is_empty() {
            return Ok(0);
        }
        let tx = self.conn.transaction()?;
        {
            let mut update = tx.prepare("UPDATE chunks SET embed_key = ?2 WHERE id = ?1")?;
            for (id, title, heading, text) in &rows {
                let heading: Vec<String> = serde_json::from_str(heading).unwrap_or_default();
                update.execute(params![
                    id,
                    super::passage_text::embed_key(title, &heading, text)
                ])?;
            }
        }
        tx.commit()?;
        Ok(rows.len())
    }

    /// Chunks with and without a vector of `model_id`.
    pub fn vector_coverage(&self, model_id: i64) -> Result<VectorCoverage> {
        let (embedded, sentences, total): (i64, i64, i64) = self.conn.query_row(
            "SELECT count(v.id), coalesce(sum(v.sentences_done), 0), count(*) FROM chunks c
             LEFT JOIN chunk_vectors v ON v.model_id = ?1 AND v.embed_key = c.embed_key",
            [model_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        Ok(VectorCoverage {
            embedded: embedded as usize,
            sentences: sentences as usize,
            total: total as usize,
        })
    }

    /// Up to `limit` distinct chunk texts that have no vector of `model_id`, in index
    /// order (so progress follows the import order).
    pub fn chunks_missing_vectors(&self, model_id: i64, limit: usize) -> Result<Vec<PendingChunk>> {
        self.pending_chunks(
            "SELECT min(c2.id) AS id, count(*) AS n FROM chunks c2
             WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v
                               WHERE v.model_id = ?1 AND v.embed_key = c2.embed_key)
             GROUP BY c2.embed_key",
            model_id,
            limit,
        )
    }

    /// Up to `limit` distinct chunk texts that have a passage vector of `model_id` but
    /// no sentence vectors yet, in index order.
    pub fn chunks_missing_sentences(
        &self,
        model_id: i64,
        limit: usize,
    ) -> Result<Vec<PendingChunk>> {
        self.pending_chunks(
            "SELECT min(c2.id) AS id, count(*) AS n FROM chunks c2
             JOIN chunk_vectors v ON v.model_id = ?1 AND v.embed_key = c2.embed_key
             WHERE v.sentences_done = 0
             GROUP BY c2.embed_key",
            model_id,
            limit,
        )
    }

    /// The chunk texts `groups` picks (one row per text: its first chunk's `id` and the
    /// number `n` of chunks that share it), with what embedding them needs.
    fn pending_chunks(
        &self,
        groups: &str,
        model_id: i64,
        limit: usize,
    ) -> Result<Vec<PendingChunk>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT c.embed_key, d.title, c.heading_path, c.text, g.n
             FROM ({groups}) g
             JOIN chunks c ON c.id = g.id
             JOIN documents d ON d.id = c.doc_id
             ORDER BY c.id LIMIT ?2"
        ))?;
        let rows = stmt.query_map(params![model_id, limit as i64], |r| {
            let heading: String = r.get(2)?;
            Ok(PendingChunk {
                embed_key: r.get(0)?,
                title: r.get(1)?,
                heading_path: serde_json::from_str(&heading).unwrap_or_default(),
                text: r.get(3)?,
                chunks: r.get::<_, i64>(4)? as usize,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Stores passage vectors of `model_id` (`(embed_key, vector)`), all in one
    /// transaction; their sentences follow ([`Store::put_sentence_vectors`]).
    pub fn put_passage_vectors(
        &mut self,
        model_id: i64,
        rows: &[(String, Vec<f32>)],
    ) -> Result<()> {
        let tx = self.conn.transaction()?;
        {
            // A text embedded meanwhile by another pass keeps its sentences.
            let mut stmt = tx.prepare_cached(
                "INSERT INTO chunk_vectors
                   (model_id, embed_key, passage, sentences, spans, sentences_done)
                 VALUES (?1, ?2, ?3, x'', '[]', 0)
                 ON CONFLICT (model_id, embed_key) DO UPDATE SET passage = excluded.passage",
            )?;
            for (embed_key, passage) in rows {
                stmt.execute(params![model_id, embed_key, to_blob([passage.as_slice()])])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Stores the sentence vectors of texts whose passage vector of `model_id` is
    /// stored, all in one transaction (a text no longer there is left out).
    pub fn put_sentence_vectors(&mut self, model_id: i64, rows: &[ChunkSentences]) -> Result<()> {
        let tx = self.conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached(
                "UPDATE chunk_vectors SET sentences = ?3, spans = ?4, sentences_done = 1
                 WHERE model_id = ?1 AND embed_key = ?2",
            )?;
            for row in rows {
                stmt.execute(params![
                    model_id,
                    row.embed_key,
                    to_blob(row.sentences.iter().map(Vec::as_slice)),
                    serde_json::to_string(&row.spans)?,
                ])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Deletes vectors whose chunk is no longer in the index; returns how many.
    pub fn prune_vectors(&mut self) -> Result<usize> {
        Ok(self.conn.execute(
            "DELETE FROM chunk_vectors WHERE embed_key NOT IN (SELECT embed_key FROM chunks WHERE embed_key IS NOT NULL)",
            [],
        )?)
    }

    /// Copies the models and vectors of the database at `other` into this one (used by
    /// a rebuild, so that unchanged chunks are not embedded again). Best effort: a
    /// damaged or older database gives `Ok(0)`.
    pub fn copy_vectors_from(&mut self, other: &std::path::Path) -> Result<usize> {
        let Some(path) = other.to_str() else {
            return Ok(0);
        };
        // A plain (read-write) attachment: a read-only one cannot remove the old
        // database's WAL files when it is detached, and a rebuild refuses to replace a
        // database whose WAL file is still there.
        if self
            .conn
            .execute("ATTACH DATABASE ?1 AS old", [path])
            .is_err()
        {
            return Ok(0);
        }
        let copied = (|| -> rusqlite::Result<usize> {
            let tx = self.conn.unchecked_transaction()?;
            let has_column = |table: &str, column: &str| {
                tx.query_row(
                    "SELECT count(*) FROM pragma_table_info(?1, 'old') WHERE name = ?2",
                    [table, column],
                    |r| r.get::<_, i64>(0).map(|n| n > 0),
                )
            };
            // An old database from before prompts were recorded has no `prompt` column:
            // its models had none.
            let prompt = if has_column("embedding_models", "prompt")? {
                "prompt"
            } else {
                "''"
            };
            // Nor one from before passages were embedded ahead of their sentences: its
            // rows were written whole.
            let done = if has_column("chunk_vectors", "sentences_done")? {
                "sentences_done"
            } else {
                "1"
            };
            tx.execute(
                &format!(
                    "INSERT OR IGNORE INTO embedding_models (id, name, dim, probe, base_url, first_seen, prompt)
                     SELECT id, name, dim, probe, base_url, first_seen, {prompt} FROM old.embedding_models"
                ),
                [],
            )?;
            let n = tx.execute(
                &format!(
                    "INSERT OR IGNORE INTO chunk_vectors
                       (model_id, embed_key, passage, sentences, spans, sentences_done)
                     SELECT model_id, embed_key, passage, sentences, spans, {done}
                     FROM old.chunk_vectors"
                ),
                [],
            )?;
            tx.commit()?;
            Ok(n)
        })();
        let _ = self.conn.execute("DETACH DATABASE old", []);
        Ok(copied.unwrap_or(0))
    }

    fn change_stamp(&self) -> Result<(i64, u64)> {
        let version: i64 = self
            .conn
            .prepare_cached("PRAGMA data_version")?
            .query_row([], |r| r.get(0))?;
        Ok((version, self.conn.total_changes()))
    }

    /// Every chunk's passage vector of `model_id` (cached until the database changes),
    /// with first-pass codes of the first `prefix` components when given (a Matryoshka
    /// model's shorter embedding), else of the whole vectors.
    pub fn passage_matrix(
        &self,
        model_id: i64,
        dim: usize,
        prefix: Option<usize>,
    ) -> Result<Arc<PassageMatrix>> {
        let codes_dim = prefix.filter(|&p| p > 0 && p < dim).unwrap_or(dim);
        let stamp = self.change_stamp()?;
        {
            let cached = self
                .vector_cache
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(m) = cached.as_ref()
                && m.model_id == model_id
                && m.dim == dim
                && m.codes_dim == codes_dim
                && m.stamp == stamp
            {
                return Ok(Arc::clone(m));
            }
        }
        let mut stmt = self.conn.prepare_cached(
            "SELECT c.id, v.passage, c.doc_id FROM chunks c
             LEFT JOIN chunk_vectors v ON v.model_id = ?1 AND v.embed_key = c.embed_key
             ORDER BY c.id",
        )?;
        let mut rows = stmt.query([model_id])?;
        let mut matrix = PassageMatrix {
            model_id,
            dim,
            chunk_ids: Vec::new(),
            doc_ids: Vec::new(),
            data: Vec::new(),
            codes: Vec::new(),
            codes_dim,
            scales: Vec::new(),
            missing: 0,
            stamp,
        };
        while let Some(row) = rows.next()? {
            let blob: Option<Vec<u8>> = row.get(1)?;
            match blob.as_deref().and_then(|b| vector::from_blob(b, dim)) {
                Some(v) if v.len() == dim => {
                    matrix.chunk_ids.push(row.get(0)?);
                    matrix.doc_ids.push(row.get(2)?);
                    let (codes, scale) = vector::quantize(&vector::prefix(&v, codes_dim));
                    matrix.codes.extend_from_slice(&codes);
                    matrix.scales.push(scale);
                    matrix.data.extend_from_slice(&v);
                }
                _ => matrix.missing += 1,
            }
        }
        let matrix = Arc::new(matrix);
        *self
            .vector_cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Arc::clone(&matrix));
        Ok(matrix)
    }

    /// Sentence vectors of `model_id` for these chunks (chunks without any, or whose
    /// sentences are not embedded yet, are absent).
    pub fn sentence_vectors(
        &self,
        model_id: i64,
        dim: usize,
        chunk_ids: &[i64],
    ) -> Result<HashMap<i64, SentenceVectors>> {
        if chunk_ids.is_empty() {
            return Ok(HashMap::new());
        }
        let sql = format!(
            // CROSS JOIN keeps SQLite from scanning every vector of the model: the few
            // chunks asked for are found by id, then each one's vectors by key.
            "SELECT c.id, v.sentences, v.spans, c.text FROM chunks c
             CROSS JOIN chunk_vectors v ON v.model_id = ? AND v.embed_key = c.embed_key
             WHERE v.sentences_done = 1 AND c.id IN ({})",
            vec!["?"; chunk_ids.len()].join(",")
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let mut params: Vec<i64> = vec![model_id];
        params.extend_from_slice(chunk_ids);
        let mut rows = stmt.query(params_from_iter(params))?;
        let mut out = HashMap::new();
        while let Some(row) = rows.next()? {
            let blob: Vec<u8> = row.get(1)?;
            let data = vector::from_blob(&blob, dim).unwrap_or_default();
            // The spans are those of this chunk's text: a vector stands for a folded
            // sentence, which the same text written with other punctuation (an index
            // from before texts were stored as written) shares. Spans stored with the
            // vector are only used when the text splits differently.
            let text: String = row.get(3)?;
            let mut spans = super::passage_text::sentence_spans(&text);
            if spans.len() * dim != data.len() {
                spans = serde_json::from_str(&row.get::<_, String>(2)?).unwrap_or_default();
                if spans
                    .iter()
                    .any(|&(s, e)| s > e || !text.is_char_boundary(s) || !text.is_char_boundary(e))
                {
                    continue;
                }
            }
            if !spans.is_empty() && data.len() == spans.len() * dim {
                out.insert(row.get(0)?, SentenceVectors { spans, data });
            }
        }
        Ok(out)
    }
}
