//! The `documents` table, and writing or removing a whole document atomically.

use std::path::{Path, PathBuf};

use rusqlite::{OptionalExtension, Row, params};
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::{Store, char_offsets};
use crate::chunk::{CHUNKER_VERSION, Chunk};
use crate::extract::{DocumentKind, Extracted};
use crate::{Error, Result};

/// A stored document, with its chunk count.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct DocumentRecord {
    /// Row id; stable until the document is removed or replaced.
    pub id: i64,
    /// Canonical path of the source file.
    pub path: PathBuf,
    /// Format.
    pub kind: DocumentKind,
    /// Title.
    pub title: String,
    /// SHA-256 of the file's bytes, hex.
    pub sha256: String,
    /// File size in bytes at import.
    pub size_bytes: i64,
    /// File modification time at import (Unix seconds).
    pub mtime: Option<i64>,
    /// Pages (1 for Markdown and plain text without form feeds).
    pub page_count: i64,
    /// Import time (Unix seconds).
    pub imported_at: i64,
    /// `indexed` or `indexed_with_warnings`.
    pub status: String,
    /// What the user should know about this document (pages without text, repairs).
    pub warnings: Vec<String>,
    /// Chunker version that made its chunks.
    pub chunker_version: u32,
    /// Number of chunks.
    pub chunks: i64,
}

/// Everything needed to write one document.
pub struct NewDocument<'a> {
    /// Canonical source path.
    pub path: &'a Path,
    /// Format.
    pub kind: DocumentKind,
    /// SHA-256 of the bytes, hex.
    pub sha256: &'a str,
    /// Size in bytes.
    pub size_bytes: u64,
    /// Modification time (Unix seconds).
    pub mtime: Option<i64>,
    /// Extracted text, pages and title (pages must tile the text).
    pub extracted: &'a Extracted,
    /// The chunks of `extracted`.
    pub chunks: &'a [Chunk],
}

const COLUMNS: &str =
    "d.id, d.path, d.kind, d.title, d.sha256, d.size_bytes, d.mtime, d.page_count,
    d.imported_at, d.status, d.warnings, d.chunker_version,
    (SELECT count(*) FROM chunks c WHERE c.doc_id = d.id)";

fn record(row: &Row<'_>) -> rusqlite::Result<DocumentRecord> {
    let kind: String = row.get(2)?;
    let warnings: String = row.get(10)?;
    Ok(DocumentRecord {
        id: row.get(0)?,
        path: PathBuf::from(row.get::<_, String>(1)?),
        kind: DocumentKind::parse(&kind).unwrap_or(DocumentKind::Text),
        title: row.get(3)?,
        sha256: row.get(4)?,
        size_bytes: row.get(5)?,
        mtime: row.get(6)?,
        page_count: row.get(7)?,
        imported_at: row.get(8)?,
        status: row.get(9)?,
        warnings: serde_json::from_str(&warnings).unwrap_or_default(),
        chunker_version: row.get(11)?,
        chunks: row.get(12)?,
    })
}

pub(super) fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

impl Store {
    /// All documents, ordered by path.
    pub fn documents(&self) -> Result<Vec<DocumentRecord>> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT {COLUMNS} FROM documents d ORDER BY d.path"
        ))?;
        let rows = stmt.query_map([], record)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The document imported from `path` (canonical), if any.
    pub fn document_by_path(&self, path: &Path) -> Result<Option<DocumentRecord>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM documents d WHERE d.path = ?1"
            ))?
            .query_row([path.to_string_lossy()], record)
            .optional()?)
    }

    /// A document by id.
    pub fn document(&self, id: i64) -> Result<Option<DocumentRecord>> {
        Ok(self
            .conn
            .query_row(
                &format!("SELECT {COLUMNS} FROM documents d WHERE d.id = ?1"),
                [id],
                record,
            )
            .optional()?)
    }

    /// Finds a document by id, by path as given, or by canonical path.
    pub fn resolve(&self, path_or_id: &str) -> Result<DocumentRecord> {
        if let Ok(id) = path_or_id.parse::<i64>()
            && let Some(doc) = self.document(id)?
        {
            return Ok(doc);
        }
        let given = Path::new(path_or_id);
        if let Some(doc) = self.document_by_path(given)? {
            return Ok(doc);
        }
        if let Ok(canonical) = given.canonicalize()
            && let Some(doc) = self.document_by_path(&canonical)?
        {
            return Ok(doc);
        }
        Err(Error::DocumentNotFound(path_or_id.to_owned()))
    }

    /// Removes a document and everything that came from it (pages, chunks, index rows).
    pub fn remove_document(&mut self, id: i64) -> Result<bool> {
        let tx = self.conn.transaction()?;
        let n = tx.execute("DELETE FROM documents WHERE id = ?1", [id])?;
        tx.commit()?;
        Ok(n > 0)
    }

    /// Writes a document atomically, replacing any earlier version from the same path, and
    /// returns the new document id.
    ///
    /// Outside a batch this is one transaction; inside one ([`Store::begin_batch`]) it is
    /// one savepoint, so a failure undoes this document alone and a crash before the
    /// batch commits leaves none of the batch's documents behind, never part of one.
    pub fn write_document(&mut self, doc: &NewDocument<'_>) -> Result<i64> {
        if self.conn.is_autocommit() {
            let tx = self
                .conn
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let mut rows = Vec::new();
            let id = insert_document(&tx, doc, &mut rows)?;
            insert_index_rows(&tx, &rows)?;
            tx.commit()?;
            Ok(id)
        } else {
            let before = self.pending_index.len();
            let sp = self.conn.savepoint()?;
            match insert_document(&sp, doc, &mut self.pending_index) {
                Ok(id) => {
                    sp.commit()?;
                    Ok(id)
                }
                Err(e) => {
                    self.pending_index.truncate(before);
                    Err(e)
                }
            }
        }
    }

    /// Starts a batch: the writes until [`Store::commit_batch`] share one transaction,
    /// which saves a commit per document on imports of many small files.
    ///
    /// The batch's full-text rows are inserted together just before the commit. FTS5
    /// writes its pending terms to disk at the end of every savepoint it took part in,
    /// so indexing each document inside its own savepoint cost one small index segment
    /// (and the merges they cause) per document: a third of the writer's time on
    /// folders of small files. The commit is still all-or-nothing for every document.
    pub fn begin_batch(&mut self) -> Result<()> {
        if self.conn.is_autocommit() {
            self.pending_index.clear();
            self.conn.execute_batch("BEGIN IMMEDIATE")?;
        }
        Ok(())
    }

    /// Commits the current batch, if any.
    pub fn commit_batch(&mut self) -> Result<()> {
        if !self.conn.is_autocommit() {
            let rows = std::mem::take(&mut self.pending_index);
            insert_index_rows(&self.conn, &rows)?;
            self.conn.execute_batch("COMMIT")?;
        }
        Ok(())
    }

    /// Abandons the current batch, if any, undoing all its writes.
    pub fn rollback_batch(&mut self) -> Result<()> {
        self.pending_index.clear();
        if !self.conn.is_autocommit() {
            self.conn.execute_batch("ROLLBACK")?;
        }
        Ok(())
    }
}

/// One row of the full-text index: a chunk id and its segmented heading and body.
pub(super) struct IndexRow {
    chunk_id: i64,
    heading: String,
    body: String,
}

fn insert_index_rows(conn: &rusqlite::Connection, rows: &[IndexRow]) -> Result<()> {
    let mut stmt =
        conn.prepare_cached("INSERT INTO chunk_index (rowid, heading, body) VALUES (?1, ?2, ?3)")?;
    for row in rows {
        stmt.execute(params![row.chunk_id, row.heading, row.body])?;
    }
    Ok(())
}

/// The inserts of [`Store::write_document`], inside whatever transaction `tx` is.
///
/// The document's full-text rows are appended to `index` for the caller to insert.
fn insert_document(
    tx: &rusqlite::Connection,
    doc: &NewDocument<'_>,
    index: &mut Vec<IndexRow>,
) -> Result<i64> {
    let ex = doc.extracted;
    let mut offsets: Vec<usize> = ex.pages.iter().flat_map(|p| [p.start, p.end]).collect();
    offsets.extend(doc.chunks.iter().flat_map(|c| [c.start, c.end]));
    let chars = char_offsets(&ex.text, &offsets);
    let (page_chars, chunk_chars) = chars.split_at(ex.pages.len() * 2);
    let warnings = serde_json::to_string(&ex.warnings)?;
    let status = if ex.warnings.is_empty() {
        "indexed"
    } else {
        "indexed_with_warnings"
    };

    tx.prepare_cached("DELETE FROM documents WHERE path = ?1")?
        .execute([doc.path.to_string_lossy()])?;
    tx.prepare_cached(
        "INSERT INTO documents (path, kind, title, sha256, size_bytes, mtime, page_count,
             imported_at, status, warnings, chunker_version)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params![
        doc.path.to_string_lossy(),
        doc.kind.as_str(),
        ex.title,
        doc.sha256,
        doc.size_bytes as i64,
        doc.mtime,
        ex.pages.len() as i64,
        now(),
        status,
        warnings,
        CHUNKER_VERSION,
    ])?;
    let doc_id = tx.last_insert_rowid();
    {
        let mut page_stmt = tx.prepare_cached(
            "INSERT INTO pages (doc_id, page_no, char_start, char_end, text) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for (i, page) in ex.pages.iter().enumerate() {
            page_stmt.execute(params![
                doc_id,
                page.number,
                page_chars[2 * i] as i64,
                page_chars[2 * i + 1] as i64,
                &ex.text[page.start..page.end],
            ])?;
        }
        let mut chunk_stmt = tx.prepare_cached(
            "INSERT INTO chunks (doc_id, ordinal, heading_path, page_start, page_end, char_start,
                 char_end, token_count, sha256, text)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        )?;
        for (i, chunk) in doc.chunks.iter().enumerate() {
            let text = &ex.text[chunk.start..chunk.end];
            chunk_stmt.execute(params![
                doc_id,
                chunk.ordinal as i64,
                serde_json::to_string(&chunk.heading_path)?,
                chunk.page_start,
                chunk.page_end,
                chunk_chars[2 * i] as i64,
                chunk_chars[2 * i + 1] as i64,
                chunk.token_count as i64,
                sha256_hex(text.as_bytes()),
                text,
            ])?;
            index.push(IndexRow {
                chunk_id: tx.last_insert_rowid(),
                heading: chunk.heading_index_text.clone(),
                body: chunk.index_text.clone(),
            });
        }
    }
    Ok(doc_id)
}
