//! Reading pages and chunks back, and rebuilding the full-text index from stored chunks.

use rusqlite::OptionalExtension;
use rusqlite::params;
use serde::Serialize;

use super::Store;
use crate::Result;
use evident_text::segment::index_tokens;

/// A stored page.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PageRecord {
    /// 1-based page number.
    pub page_no: u32,
    /// Char offset of the page's start in the document text.
    pub char_start: i64,
    /// Char offset just past the page's end.
    pub char_end: i64,
    /// The page's extracted text.
    pub text: String,
}

/// A stored chunk.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ChunkRecord {
    /// Row id (also the full-text index rowid).
    pub id: i64,
    /// Owning document.
    pub doc_id: i64,
    /// Position in the document, from 0.
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
    /// Index tokens.
    pub token_count: i64,
    /// SHA-256 of the text.
    pub sha256: String,
    /// The chunk's text (exactly the document text between the offsets).
    pub text: String,
}

impl Store {
    /// A document's pages in order.
    pub fn pages_of(&self, doc_id: i64) -> Result<Vec<PageRecord>> {
        let mut stmt = self.conn.prepare(
            "SELECT page_no, char_start, char_end, text FROM pages WHERE doc_id = ?1 ORDER BY page_no",
        )?;
        let rows = stmt.query_map([doc_id], |r| {
            Ok(PageRecord {
                page_no: r.get(0)?,
                char_start: r.get(1)?,
                char_end: r.get(2)?,
                text: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The lines of page `page_no` of document `doc_id` as read from its image (OCR),
    /// with their boxes in shares of the page; empty for a page with a text layer.
    pub fn ocr_lines(
        &self,
        doc_id: i64,
        page_no: u32,
    ) -> Result<Vec<crate::extract::pdf::ocr::OcrLine>> {
        let json: Option<String> = self
            .conn
            .query_row(
                "SELECT ocr_lines FROM pages WHERE doc_id = ?1 AND page_no = ?2",
                rusqlite::params![doc_id, page_no],
                |r| r.get(0),
            )
            .optional()?
            .flatten();
        Ok(json
            .and_then(|j| serde_json::from_str(&j).ok())
            .unwrap_or_default())
    }

    /// A document's extracted text (its pages concatenated).
    pub fn document_text(&self, doc_id: i64) -> Result<String> {
        Ok(self.pages_of(doc_id)?.into_iter().map(|p| p.text).collect())
    }

    /// A document's chunks in order.
    pub fn chunks_of(&self, doc_id: i64) -> Result<Vec<ChunkRecord>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, doc_id, ordinal, heading_path, page_start, page_end, char_start, char_end,
                    token_count, sha256, text
             FROM chunks WHERE doc_id = ?1 ORDER BY ordinal",
        )?;
        let rows = stmt.query_map([doc_id], |r| {
            let heading: String = r.get(3)?;
            Ok(ChunkRecord {
                id: r.get(0)?,
                doc_id: r.get(1)?,
                ordinal: r.get(2)?,
                heading_path: serde_json::from_str(&heading).unwrap_or_default(),
                page_start: r.get(4)?,
                page_end: r.get(5)?,
                char_start: r.get(6)?,
                char_end: r.get(7)?,
                token_count: r.get(8)?,
                sha256: r.get(9)?,
                text: r.get(10)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Rebuilds every full-text index row from the stored chunk texts, in one
    /// transaction. Used when the tokenizer version changes.
    pub fn reindex_all(&mut self) -> Result<usize> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO chunk_index(chunk_index) VALUES ('delete-all')",
            [],
        )?;
        let mut n = 0;
        {
            let mut read = tx.prepare("SELECT id, heading_path, text FROM chunks")?;
            let mut write =
                tx.prepare("INSERT INTO chunk_index (rowid, heading, body) VALUES (?1, ?2, ?3)")?;
            let mut rows = read.query([])?;
            while let Some(row) = rows.next()? {
                let id: i64 = row.get(0)?;
                let heading: String = row.get(1)?;
                let heading: Vec<String> = serde_json::from_str(&heading).unwrap_or_default();
                let text: String = row.get(2)?;
                write.execute(params![
                    id,
                    index_tokens(&heading.join(" ")).0,
                    index_tokens(&text).0
                ])?;
                n += 1;
            }
        }
        tx.commit()?;
        Ok(n)
    }

    /// Number of rows in the full-text index (equals the chunk count when consistent).
    pub fn index_rows(&self) -> Result<i64> {
        // A contentless table has no content to count; its docsize shadow has one row per entry.
        Ok(self
            .conn
            .query_row("SELECT count(*) FROM chunk_index_docsize", [], |r| r.get(0))?)
    }
}
