//! The `documents` table, and writing or removing a whole document atomically.

use std::path::{Path, PathBuf};

use rusqlite::{OptionalExtension, Row, params};
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::{Store, char_offsets};
use crate::chunk::{CHUNKER_VERSION, Chunk};
use crate::clock::now;
use crate::extract::{DocumentKind, Extracted};
use crate::{Error, Result};

/// How a document was indexed.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum DocumentStatus {
    /// Read whole.
    Indexed,
    /// Read, with something the user should know ([`DocumentRecord::warnings`]).
    IndexedWithWarnings,
}

impl DocumentStatus {
    /// The name stored in the database (and sent as JSON).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Indexed => "indexed",
            Self::IndexedWithWarnings => "indexed_with_warnings",
        }
    }

    /// The status a stored name stands for (an unknown one: indexed).
    fn parse(stored: &str) -> Self {
        if stored == Self::IndexedWithWarnings.as_str() {
            Self::IndexedWithWarnings
        } else {
            Self::Indexed
        }
    }
}

/// A stored document, with its chunk count.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct DocumentRecord {
    /// Row id; stable until the document is removed or replaced.
    pub id: i64,
    /// Canonical path of the source file (exact; shown lossily where it is not UTF-8).
    #[serde(serialize_with = "crate::paths::serialize_lossy")]
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
    /// How it was indexed.
    pub status: DocumentStatus,
    /// What the user should know about this document (pages without text, repairs),
    /// in English words.
    pub warnings: Vec<String>,
    /// The same as codes, for the window's language (empty for a document imported
    /// before warnings were stored as codes: its `warnings` are all there is).
    pub warned: Vec<crate::problem::Problem>,
    /// Chunker version that made its chunks.
    pub chunker_version: u32,
    /// Number of chunks.
    pub chunks: i64,
    /// Its source file is not on disk. The store never looks (listing stays a database
    /// read): [`DocumentRecord::with_presence`] does.
    pub missing: bool,
}

impl DocumentRecord {
    /// The record with [`DocumentRecord::missing`] set from the file system.
    pub fn with_presence(mut self) -> Self {
        self.missing = !self.path.exists();
        self
    }
}

/// Where a document came from, as the `documents` table records it.
pub struct SourceFile {
    /// Canonical source path.
    pub path: PathBuf,
    /// Format.
    pub kind: DocumentKind,
    /// SHA-256 of the bytes, hex.
    pub sha256: String,
    /// Size in bytes.
    pub size_bytes: u64,
    /// Modification time (Unix seconds).
    pub mtime: Option<i64>,
}

/// A document ready to be written: its text, its chunks, and every column value that
/// can be worked out without the database (char offsets, hashes, JSON).
///
/// Importers build these on their worker threads, so the one thread that writes to
/// SQLite only binds values and inserts.
pub struct NewDocument {
    source: SourceFile,
    extracted: Extracted,
    chunks: Vec<Chunk>,
    warnings_json: String,
    /// Char offsets of each page's start and end.
    page_chars: Vec<(i64, i64)>,
    /// Per chunk: char offsets, SHA-256 of the text, heading path as JSON.
    chunk_columns: Vec<ChunkColumns>,
}

struct ChunkColumns {
    char_start: i64,
    char_end: i64,
    sha256: String,
    embed_key: String,
    heading_json: String,
}

impl NewDocument {
    /// Prepares `extracted` (whose pages must tile its text) and its chunks for writing.
    pub fn new(source: SourceFile, extracted: Extracted, chunks: Vec<Chunk>) -> Result<Self> {
        let ex = &extracted;
        let mut offsets: Vec<usize> = ex.pages.iter().flat_map(|p| [p.start, p.end]).collect();
        offsets.extend(chunks.iter().flat_map(|c| [c.start, c.end]));
        let chars: Vec<i64> = char_offsets(&ex.text, &offsets)
            .into_iter()
            .map(|c| c as i64)
            .collect();
        let (page_chars, chunk_chars) = chars.split_at(ex.pages.len() * 2);
        let chunk_columns = chunks
            .iter()
            .zip(chunk_chars.chunks_exact(2))
            .map(|(chunk, chars)| {
                Ok(ChunkColumns {
                    char_start: chars[0],
                    char_end: chars[1],
                    sha256: sha256_hex(&ex.text.as_bytes()[chunk.start..chunk.end]),
                    embed_key: super::passage_text::embed_key(
                        &ex.title,
                        &chunk.heading_path,
                        &ex.text[chunk.start..chunk.end],
                    ),
                    heading_json: serde_json::to_string(&chunk.heading_path)?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(Self {
            // Stored as codes, so each window says them in its own language.
            warnings_json: serde_json::to_string(&ex.warnings)?,
            page_chars: page_chars.chunks_exact(2).map(|p| (p[0], p[1])).collect(),
            chunk_columns,
            source,
            extracted,
            chunks,
        })
    }

    /// The source file.
    pub fn source(&self) -> &SourceFile {
        &self.source
    }

    /// The extracted text and pages.
    pub fn extracted(&self) -> &Extracted {
        &self.extracted
    }

    /// The chunks.
    pub fn chunks(&self) -> &[Chunk] {
        &self.chunks
    }
}

const COLUMNS: &str =
    "d.id, d.path, d.kind, d.title, d.sha256, d.size_bytes, d.mtime, d.page_count,
    d.imported_at, d.status, d.warnings, d.chunker_version,
    (SELECT count(*) FROM chunks c WHERE c.doc_id = d.id), d.path_raw";

fn record(row: &Row<'_>) -> rusqlite::Result<DocumentRecord> {
    let kind: String = row.get(2)?;
    let warnings: String = row.get(10)?;
    let status: String = row.get(9)?;
    // Codes; a document imported before they were stored has English words instead.
    let (warned, older): (Vec<crate::problem::Problem>, Vec<String>) =
        match serde_json::from_str(&warnings) {
            Ok(codes) => (codes, Vec::new()),
            Err(_) => (
                Vec::new(),
                serde_json::from_str(&warnings).unwrap_or_default(),
            ),
        };
    Ok(DocumentRecord {
        id: row.get(0)?,
        path: crate::paths::from_columns(row.get(1)?, row.get(13)?),
        kind: DocumentKind::parse(&kind).unwrap_or(DocumentKind::Text),
        title: row.get(3)?,
        sha256: row.get(4)?,
        size_bytes: row.get(5)?,
        mtime: row.get(6)?,
        page_count: row.get(7)?,
        imported_at: row.get(8)?,
        status: DocumentStatus::parse(&status),
        warnings: warned
            .iter()
            .map(|w| w.text(crate::message::Lang::En))
            .chain(older)
            .collect(),
        warned,
        chunker_version: row.get(11)?,
        chunks: row.get(12)?,
        missing: false,
    })
}

/// Hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
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

    /// The source paths of all documents, ordered (without counting their chunks).
    pub fn document_paths(&self) -> Result<Vec<PathBuf>> {
        let mut stmt = self
            .conn
            .prepare("SELECT path, path_raw FROM documents ORDER BY path")?;
        let rows = stmt.query_map([], |r| Ok(crate::paths::from_columns(r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The document imported from `path` (canonical, byte for byte), if any.
    pub fn document_by_path(&self, path: &Path) -> Result<Option<DocumentRecord>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM documents d WHERE d.path_key = ?1"
            ))?
            .query_row([crate::paths::key(path)], record)
            .optional()?)
    }

    /// The document whose path reads as `shown` (a path as the window or a stored
    /// answer has it, lossy where the real one is not UTF-8), if exactly one does.
    pub fn document_by_shown_path(&self, shown: &str) -> Result<Option<DocumentRecord>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM documents d WHERE d.path = ?1"
        ))?;
        let found: Vec<DocumentRecord> = stmt
            .query_map([shown], record)?
            .collect::<rusqlite::Result<_>>()?;
        Ok(if found.len() == 1 {
            found.into_iter().next()
        } else {
            None
        })
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

    /// Removes a document and everything that came from it (pages, chunks, index rows),
    /// and the readings of its scanned pages from the OCR cache beside the index,
    /// unless another document is the same file.
    pub fn remove_document(&mut self, id: i64) -> Result<bool> {
        let tx = self.conn.transaction()?;
        let sha: Option<String> = tx
            .query_row("SELECT sha256 FROM documents WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?;
        let n = tx.execute("DELETE FROM documents WHERE id = ?1", [id])?;
        tx.commit()?;
        if let Some(sha) = sha {
            self.forget_readings(&sha)?;
        }
        Ok(n > 0)
    }

    /// Records that a document's file now lives at `path` (renamed or moved, same
    /// content): its chunks, vectors and citations stay as they are.
    pub fn move_document(&mut self, id: i64, path: &Path, mtime: Option<i64>) -> Result<bool> {
        let (text, raw) = crate::paths::to_columns(path);
        let n = self.conn.execute(
            "UPDATE documents SET path = ?2, path_raw = ?3, mtime = ?4, path_key = ?5
             WHERE id = ?1",
            params![id, text, raw, mtime, crate::paths::key(path)],
        )?;
        Ok(n > 0)
    }

    /// Writes a document atomically, replacing any earlier version from the same path, and
    /// returns the new document id.
    ///
    /// Outside a batch this is one transaction; inside one ([`Store::begin_batch`]) it is
    /// one savepoint, so a failure undoes this document alone and a crash before the
    /// batch commits leaves none of the batch's documents behind, never part of one.
    pub fn write_document(&mut self, doc: NewDocument) -> Result<i64> {
        // The version this one replaces: its scanned pages' readings go, once no
        // document is that file any more.
        let replaced: Option<String> = self
            .conn
            .query_row(
                "SELECT sha256 FROM documents WHERE path_key = ?1",
                [crate::paths::key(&doc.source.path)],
                |r| r.get(0),
            )
            .optional()?
            .filter(|old| *old != doc.source.sha256);
        let id = self.write_document_rows(doc)?;
        if let Some(old) = replaced {
            self.forget_readings(&old)?;
        }
        Ok(id)
    }

    /// Deletes the OCR readings of the file whose SHA-256 is `sha` from the cache
    /// beside the index, unless a document is still that file.
    fn forget_readings(&self, sha: &str) -> Result<()> {
        let still_kept = self.conn.query_row(
            "SELECT EXISTS(SELECT 1 FROM documents WHERE sha256 = ?1)",
            [sha],
            |r| r.get::<_, bool>(0),
        )?;
        if !still_kept {
            crate::extract::pdf::ocr::Cache::forget(
                &crate::extract::pdf::ocr::Cache::path_for(&self.path),
                sha,
            );
        }
        Ok(())
    }

    fn write_document_rows(&mut self, doc: NewDocument) -> Result<i64> {
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
            let pending = &mut self.pending_index;
            let before = pending.rows.len();
            let sp = self.conn.savepoint()?;
            let written = insert_document(&sp, doc, &mut pending.rows).and_then(|id| {
                sp.commit()?;
                Ok(id)
            });
            let id = match written {
                Ok(id) => id,
                Err(e) => {
                    // The savepoint rolled back: its index rows must not be inserted.
                    pending.rows.truncate(before);
                    return Err(e);
                }
            };
            pending.bytes += pending.rows[before..]
                .iter()
                .map(|r| r.heading.len() + r.body.len())
                .sum::<usize>();
            if pending.bytes >= INDEX_GROUP_BYTES {
                self.insert_pending_index();
            }
            Ok(id)
        }
    }

    /// Inserts the batch's gathered full-text rows (see [`PendingIndex`]). A failure
    /// may leave part of them inserted, so it is kept for [`Store::commit_batch`],
    /// which then refuses to commit.
    fn insert_pending_index(&mut self) {
        let rows = std::mem::take(&mut self.pending_index.rows);
        self.pending_index.bytes = 0;
        if self.pending_index.failed.is_none()
            && let Err(e) = insert_index_rows(&self.conn, &rows)
        {
            self.pending_index.failed = Some(e);
        }
    }

    /// Starts a batch: the writes until [`Store::commit_batch`] share one transaction,
    /// which saves a commit per document on imports of many small files.
    ///
    /// The batch's full-text rows are inserted in groups (see [`PendingIndex`]); the
    /// commit is still all-or-nothing for every document.
    pub fn begin_batch(&mut self) -> Result<()> {
        if self.conn.is_autocommit() {
            self.pending_index = PendingIndex::default();
            self.conn.execute_batch("BEGIN IMMEDIATE")?;
        }
        Ok(())
    }

    /// Commits the current batch, if any.
    pub fn commit_batch(&mut self) -> Result<()> {
        if !self.conn.is_autocommit() {
            self.insert_pending_index();
            if let Some(e) = self.pending_index.failed.take() {
                return Err(e);
            }
            self.conn.execute_batch("COMMIT")?;
        }
        Ok(())
    }

    /// Abandons the current batch, if any, undoing all its writes.
    pub fn rollback_batch(&mut self) -> Result<()> {
        self.pending_index = PendingIndex::default();
        if !self.conn.is_autocommit() {
            self.conn.execute_batch("ROLLBACK")?;
        }
        Ok(())
    }
}

/// Full-text rows of the open batch that are not in the index yet.
///
/// Every document of a batch is written in its own savepoint, and FTS5 writes the terms
/// it holds in memory out to disk whenever a savepoint opens: indexing each document
/// inside its savepoint made one tiny index segment per document (and the merges they
/// cause), a third of the writer's time on folders of small files. So the rows are
/// gathered and inserted outside any savepoint, a group at a time once about
/// [`INDEX_GROUP_BYTES`] of tokens have gathered: each group becomes one segment, the
/// work is spread over the batch while other threads read files, and only the last
/// group is left for the commit.
#[derive(Default)]
pub(super) struct PendingIndex {
    rows: Vec<IndexRow>,
    /// Bytes of token text in `rows`.
    bytes: usize,
    /// A group that failed to insert, perhaps part-way: the batch can only roll back.
    failed: Option<Error>,
}

/// Token text gathered before a group of full-text rows is inserted.
const INDEX_GROUP_BYTES: usize = 1 << 20;

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
    doc: NewDocument,
    index: &mut Vec<IndexRow>,
) -> Result<i64> {
    let NewDocument {
        source,
        extracted: ex,
        chunks,
        warnings_json,
        page_chars,
        chunk_columns,
    } = doc;
    let status = if ex.warnings.is_empty() {
        DocumentStatus::Indexed
    } else {
        DocumentStatus::IndexedWithWarnings
    }
    .as_str();
    let (path, path_raw) = crate::paths::to_columns(&source.path);
    let path_key = crate::paths::key(&source.path);
    tx.prepare_cached("DELETE FROM documents WHERE path_key = ?1")?
        .execute([&path_key])?;
    tx.prepare_cached(
        "INSERT INTO documents (path, kind, title, sha256, size_bytes, mtime, page_count,
             imported_at, status, warnings, chunker_version, path_raw, path_key)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    )?
    .execute(params![
        path,
        source.kind.as_str(),
        ex.title,
        source.sha256,
        source.size_bytes as i64,
        source.mtime,
        ex.pages.len() as i64,
        now(),
        status,
        warnings_json,
        CHUNKER_VERSION,
        path_raw,
        path_key,
    ])?;
    let doc_id = tx.last_insert_rowid();
    let mut page_stmt = tx.prepare_cached(
        "INSERT INTO pages (doc_id, page_no, char_start, char_end, text, ocr_lines)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for (page, (start, end)) in ex.pages.iter().zip(page_chars) {
        let ocr_lines = ex
            .ocr_pages
            .iter()
            .find(|(n, _)| *n == page.number)
            .map(|(_, lines)| serde_json::to_string(lines))
            .transpose()?;
        page_stmt.execute(params![
            doc_id,
            page.number,
            start,
            end,
            &ex.text[page.start..page.end],
            ocr_lines,
        ])?;
    }
    let mut chunk_stmt = tx.prepare_cached(
        "INSERT INTO chunks (doc_id, ordinal, heading_path, page_start, page_end, char_start,
             char_end, token_count, sha256, text, embed_key)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?;
    for (chunk, columns) in chunks.into_iter().zip(chunk_columns) {
        chunk_stmt.execute(params![
            doc_id,
            chunk.ordinal as i64,
            columns.heading_json,
            chunk.page_start,
            chunk.page_end,
            columns.char_start,
            columns.char_end,
            chunk.token_count as i64,
            columns.sha256,
            &ex.text[chunk.start..chunk.end],
            columns.embed_key,
        ])?;
        index.push(IndexRow {
            chunk_id: tx.last_insert_rowid(),
            heading: chunk.heading_index_text,
            body: chunk.index_text,
        });
    }
    Ok(doc_id)
}
