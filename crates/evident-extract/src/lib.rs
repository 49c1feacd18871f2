//! Extraction: from a file's bytes to text with page boundaries and semantic blocks.
//!
//! Every format ends in the same shape, [`Extracted`]: one string holding the document's
//! text, the byte spans of its pages, and its blocks (headings, clauses, paragraphs,
//! list items, table rows) with the heading path above each. Chunking works on that
//! shape only, so it never needs to know where the text came from, and every offset it
//! records points into the text that the store keeps.

mod assemble;
pub mod clock;
pub mod docx;
mod error;
pub mod layout;
pub mod limits;
pub mod markdown;
pub mod pdf;
pub mod plain;
pub mod structure;

use std::path::Path;

use serde::{Deserialize, Serialize};

pub use error::{Error, Result};
use evident_words::problem::Problem;

/// The formats Evident reads.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DocumentKind {
    /// `.md`, `.markdown`
    Markdown,
    /// `.txt`
    Text,
    /// `.pdf`
    Pdf,
    /// `.docx` (Word 2007 and later)
    Docx,
}

impl DocumentKind {
    /// The kind for a file name, by extension (case-insensitive); `None` if unsupported.
    pub fn from_path(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "md" | "markdown" => Some(Self::Markdown),
            "txt" | "text" => Some(Self::Text),
            "pdf" => Some(Self::Pdf),
            "docx" => Some(Self::Docx),
            _ => None,
        }
    }

    /// The name stored in the database and shown to users.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Markdown => "markdown",
            Self::Text => "text",
            Self::Pdf => "pdf",
            Self::Docx => "docx",
        }
    }

    /// Parses [`DocumentKind::as_str`] back.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "markdown" => Some(Self::Markdown),
            "text" => Some(Self::Text),
            "pdf" => Some(Self::Pdf),
            "docx" => Some(Self::Docx),
            _ => None,
        }
    }
}

/// What a block of text is, structurally.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    /// A heading; it opens a section and becomes part of the heading path below it.
    Heading {
        /// 1 for the top level.
        level: u8,
    },
    /// A paragraph or a clause (第X条, `1.`, `一、` ...).
    Paragraph,
    /// An item of a list.
    ListItem,
    /// A table row rendered as `header: value` pairs.
    TableRow,
    /// Preformatted text.
    Code,
}

/// A structural unit of the text, never split across two sections.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Byte offset of the block's first character in [`Extracted::text`].
    pub start: usize,
    /// Byte offset just past the block's last character.
    pub end: usize,
    /// What the block is.
    pub kind: BlockKind,
    /// Headings above this block, outermost first (a heading includes itself).
    pub heading_path: Vec<String>,
}

/// The byte span of one page of [`Extracted::text`] (Markdown and plain text have one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageSpan {
    /// 1-based page number.
    pub number: u32,
    /// Byte offset where the page's text starts.
    pub start: usize,
    /// Byte offset just past the page's text.
    pub end: usize,
}

/// A document's text, pages and blocks, ready to chunk.
#[derive(Debug, Clone, Default)]
pub struct Extracted {
    /// Title: the first heading, a front-matter title, PDF metadata, or the file name.
    pub title: String,
    /// The extracted, cleaned, NFKC-normalised text. All offsets point into this.
    pub text: String,
    /// Page spans in order; they cover the text without overlap.
    pub pages: Vec<PageSpan>,
    /// Blocks in document order.
    pub blocks: Vec<Block>,
    /// Things the user should know that did not stop the import ("page 3 has no text").
    pub warnings: Vec<evident_words::problem::Problem>,
    /// Pages read from their images (OCR), with their lines' boxes for the viewer.
    pub ocr_pages: Vec<(u32, Vec<pdf::ocr::OcrLine>)>,
}

impl Extracted {
    /// The page that holds byte offset `pos` (the last page if `pos` is past the end).
    pub fn page_at(&self, pos: usize) -> u32 {
        self.pages
            .iter()
            .find(|p| pos < p.end)
            .or(self.pages.last())
            .map_or(1, |p| p.number)
    }

    /// Makes the page spans tile the text with no gaps (a separator between two pages
    /// belongs to the earlier page), so the pages' texts concatenate to [`Self::text`].
    pub fn tile_pages(&mut self) {
        let len = self.text.len();
        if self.pages.is_empty() {
            self.pages.push(PageSpan {
                number: 1,
                start: 0,
                end: len,
            });
        }
        let n = self.pages.len();
        self.pages[0].start = 0;
        for i in 0..n - 1 {
            self.pages[i].end = self.pages[i + 1].start.max(self.pages[i].start);
        }
        self.pages[n - 1].end = len;
    }

    /// Text of a block.
    pub fn block_text(&self, block: &Block) -> &str {
        &self.text[block.start..block.end]
    }
}

/// Extracts a Markdown, plain-text or Word file in this process. PDFs go through
/// [`pdf::PdfReader`], which may use a child process.
pub fn extract_textual(path: &Path, kind: DocumentKind, bytes: &[u8]) -> Result<Extracted> {
    let fallback_title = file_title(path);
    let extracted = match kind {
        DocumentKind::Markdown => {
            let source = plain::decode(path, bytes)?;
            markdown::extract(&source, &fallback_title)
        }
        DocumentKind::Text => {
            let source = plain::decode(path, bytes)?;
            plain::extract(&source, &fallback_title)
        }
        DocumentKind::Docx => return docx::extract(path, bytes),
        DocumentKind::Pdf => {
            return Err(Error::input(
                path,
                Problem::Other {
                    detail: "PDFs are read by the PDF reader".into(),
                },
            ));
        }
    };
    ensure_has_text(path, extracted)
}

/// Rejects documents with no indexable text, with a reason the user can act on.
pub(crate) fn ensure_has_text(path: &Path, extracted: Extracted) -> Result<Extracted> {
    if extracted.text.trim().is_empty() {
        return Err(Error::input(path, Problem::NoText));
    }
    Ok(extracted)
}

/// The file name without extension, used when a document has no better title.
pub fn file_title(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}
