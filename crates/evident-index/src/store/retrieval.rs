//! The store's side of retrieval: full-text matches with BM25 scores, term document
//! frequencies, and the chunk rows (with their document) that become passages.
//!
//! Ranking policy lives in [`crate::search`]; this module only runs the queries.

use std::collections::HashMap;
use std::path::PathBuf;

use rusqlite::{OptionalExtension, params_from_iter};

use super::Store;
use crate::Result;
use crate::extract::DocumentKind;

/// BM25 column weights: a word in a heading counts twice as much as one in the body.
const HEADING_WEIGHT: f64 = 2.0;
const BODY_WEIGHT: f64 = 1.0;

/// A chunk together with the document it came from, as retrieval needs it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct StoredPassage {
    /// Chunk id.
    pub chunk_id: i64,
    /// Document id.
    pub doc_id: i64,
    /// Source file (exact; shown lossily where it is not UTF-8).
    #[serde(serialize_with = "crate::paths::serialize_lossy")]
    pub doc_path: PathBuf,
    /// Document title.
    pub title: String,
    /// Document format.
    pub kind: DocumentKind,
    /// Position of the chunk in its document.
    pub ordinal: i64,
    /// Headings above the chunk.
    pub heading_path: Vec<String>,
    /// First page.
    pub page_start: u32,
    /// Last page.
    pub page_end: u32,
    /// Char offset of the chunk in the document text.
    pub char_start: i64,
    /// Char offset just past the chunk.
    pub char_end: i64,
    /// Index tokens in the chunk.
    pub token_count: i64,
    /// The chunk's text.
    pub text: String,
}

const PASSAGE_COLUMNS: &str = "c.id, c.doc_id, d.path, d.title, d.kind, c.ordinal, c.heading_path,
     c.page_start, c.page_end, c.char_start, c.char_end, c.token_count, c.text, d.path_raw";

fn passage_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredPassage> {
    let heading: String = r.get(6)?;
    let kind: String = r.get(4)?;
    Ok(StoredPassage {
        chunk_id: r.get(0)?,
        doc_id: r.get(1)?,
        doc_path: crate::paths::from_columns(r.get(2)?, r.get(13)?),
        title: r.get(3)?,
        kind: DocumentKind::parse(&kind).unwrap_or(DocumentKind::Text),
        ordinal: r.get(5)?,
        heading_path: serde_json::from_str(&heading).unwrap_or_default(),
        page_start: r.get(7)?,
        page_end: r.get(8)?,
        char_start: r.get(9)?,
        char_end: r.get(10)?,
        token_count: r.get(11)?,
        text: r.get(12)?,
    })
}

impl Store {
    /// Number of chunks in the index.
    pub fn chunk_count(&self) -> Result<i64> {
        Ok(self
            .conn
            .prepare_cached("SELECT count(*) FROM chunks")?
            .query_row([], |r| r.get(0))?)
    }

    /// In how many chunks `token` occurs (heading or body); 0 when it never does.
    pub fn document_frequency(&self, token: &str) -> Result<i64> {
        Ok(self
            .conn
            .prepare_cached("SELECT doc FROM temp.chunk_vocab WHERE term = ?1")?
            .query_row([token], |r| r.get(0))
            .optional()?
            .unwrap_or(0))
    }

    /// Sum of the chunk counts of every token starting with `prefix`: an upper bound on
    /// how many chunks a prefix query matches.
    pub fn prefix_frequency(&self, prefix: &str) -> Result<i64> {
        let end = format!("{prefix}{}", char::MAX);
        Ok(self
            .conn
            .prepare_cached(
                "SELECT coalesce(sum(doc), 0) FROM temp.chunk_vocab WHERE term >= ?1 AND term < ?2",
            )?
            .query_row([prefix, end.as_str()], |r| r.get(0))?)
    }

    /// Chunks matching the FTS5 expression `expr`, best BM25 first, as `(chunk id,
    /// score)` with higher scores better. `docs` limits the search to those documents.
    ///
    /// `expr` must come from [`crate::search`]'s query builder, which quotes every term:
    /// raw user input is never FTS syntax.
    pub fn match_chunks(
        &self,
        expr: &str,
        limit: usize,
        docs: Option<&[i64]>,
    ) -> Result<Vec<(i64, f64)>> {
        let filter = match docs {
            None => String::new(),
            Some(ids) => format!(
                " AND rowid IN (SELECT id FROM chunks WHERE doc_id IN ({}))",
                vec!["?"; ids.len()].join(",")
            ),
        };
        let sql = format!(
            "SELECT rowid, bm25(chunk_index, {HEADING_WEIGHT}, {BODY_WEIGHT}) AS s
             FROM chunk_index WHERE chunk_index MATCH ?{filter} ORDER BY s LIMIT {limit}"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let mut params: Vec<rusqlite::types::Value> = vec![expr.to_owned().into()];
        params.extend(docs.unwrap_or(&[]).iter().map(|&id| id.into()));
        let rows = stmt.query_map(params_from_iter(params), |r| {
            Ok((r.get::<_, i64>(0)?, -r.get::<_, f64>(1)?))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The chunks with these ids and their documents, in the order of `ids` (ids that no
    /// longer exist are left out).
    pub fn passages(&self, ids: &[i64]) -> Result<Vec<StoredPassage>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT {PASSAGE_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.doc_id
             WHERE c.id IN ({})",
            vec!["?"; ids.len()].join(",")
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let mut by_id: HashMap<i64, StoredPassage> = stmt
            .query_map(params_from_iter(ids), passage_from_row)?
            .map(|p| p.map(|p| (p.chunk_id, p)))
            .collect::<rusqlite::Result<_>>()?;
        Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
    }

    /// The chunk at `ordinal` in document `doc_id`, if there is one.
    pub fn passage_at(&self, doc_id: i64, ordinal: i64) -> Result<Option<StoredPassage>> {
        let sql = format!(
            "SELECT {PASSAGE_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.doc_id
             WHERE c.doc_id = ?1 AND c.ordinal = ?2"
        );
        Ok(self
            .conn
            .prepare_cached(&sql)?
            .query_row([doc_id, ordinal], passage_from_row)
            .optional()?)
    }
}
