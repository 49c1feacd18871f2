//! Reading a PDF's pages into raw text, in this process.
//!
//! lopdf parses the file and pdf-extract decodes fonts (ToUnicode maps, CID fonts,
//! encodings); its glyphs are collected with their positions and laid out by
//! [`super::layout`], because pdf-extract's own text output keeps content-stream order and
//! puts spaces between Chinese glyphs. Before that, the document is checked and repaired
//! where damage would otherwise hang or crash the decoder: page-tree loops are refused
//! and Form XObjects are prepared by [`super::forms`]. A panic on one page fails only
//! that page.
//!
//! A stack overflow or runaway allocation cannot be caught in-process, so files from
//! users are read through [`super::sandbox`], which runs this code in a child process.

use std::collections::HashSet;

use lopdf::{Document, Object, ObjectId};
use pdf_extract::{MediaBox, OutputDev, OutputError, Transform};
use serde::{Deserialize, Serialize};

use super::forms::{deref, prepare_forms};
use super::layout::{Glyph, layout};
use evident_words::problem::Problem;

/// One page's raw text, or why it could not be read.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct RawPage {
    /// 1-based page number.
    pub number: u32,
    /// Laid-out text: lines separated by `\n`, blocks by `\n\n`.
    pub text: String,
    /// Set when this page failed; the other pages are still usable.
    pub error: Option<String>,
}

/// A PDF's raw pages and metadata, before cleaning.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct RawPdf {
    /// The document information dictionary's title, if any.
    pub title: Option<String>,
    /// Pages in order.
    pub pages: Vec<RawPage>,
    /// Repairs made while reading, for the user to know.
    pub warnings: Vec<Problem>,
}

const MAX_TREE_DEPTH: usize = 64;

/// Reads every page of the PDF in `bytes`. Errors say why to the user.
pub fn read_pdf(bytes: &[u8]) -> Result<RawPdf, Problem> {
    let Opened {
        doc,
        page_count,
        warnings,
    } = open(bytes)?;
    let title = info_title(&doc);
    let pages = (1..=page_count).map(|n| read_page(&doc, n)).collect();
    Ok(RawPdf {
        title,
        pages,
        warnings,
    })
}

/// A parsed PDF, checked and repaired so that its pages can be decoded safely.
pub(crate) struct Opened {
    pub(crate) doc: Document,
    pub(crate) page_count: u32,
    pub(crate) warnings: Vec<Problem>,
}

/// Parses `bytes`, refusing what is not a readable PDF, and prepares its pages.
pub(crate) fn open(bytes: &[u8]) -> Result<Opened, Problem> {
    let head = &bytes[..bytes.len().min(1024)];
    if !head.windows(5).any(|w| w == b"%PDF-") {
        return Err(Problem::NotPdf);
    }
    let mut doc = match Document::load_mem(bytes) {
        Ok(doc) => doc,
        Err(lopdf::Error::Decryption(_)) => return Err(Problem::PdfLocked),
        Err(e) => {
            return Err(Problem::PdfDamaged {
                detail: e.to_string(),
            });
        }
    };
    if doc.is_encrypted() && doc.decrypt("").is_err() {
        return Err(Problem::PdfLocked);
    }
    let page_ids = check_page_tree(&doc).map_err(|detail| Problem::PdfDamaged { detail })?;
    if page_ids.is_empty() {
        if doc.was_encrypted() || doc.trailer.get(b"Encrypt").is_ok() {
            return Err(Problem::PdfLocked);
        }
        return Err(Problem::PdfNoPages);
    }
    let mut warnings = Vec::new();
    prepare_forms(&mut doc, &page_ids, &mut warnings);
    Ok(Opened {
        doc,
        page_count: page_ids.len() as u32,
        warnings,
    })
}

fn read_page(doc: &Document, number: u32) -> RawPage {
    let (glyphs, error) = page_glyphs(doc, number);
    // Text decoded before a failure is still worth keeping.
    RawPage {
        number,
        text: layout(&glyphs),
        error,
    }
}

/// The positioned glyphs of page `number` (1-based), and why decoding stopped early if
/// it did (a panic in the decoder fails only this page).
pub(crate) fn page_glyphs(doc: &Document, number: u32) -> (Vec<Glyph>, Option<String>) {
    let mut collector = GlyphCollector::default();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        pdf_extract::output_doc_page(doc, &mut collector, number)
    }));
    let error = match result {
        Ok(Ok(())) => None,
        Ok(Err(e)) => Some(format!("page {number} could not be read ({e})")),
        Err(panic) => Some(format!(
            "page {number} could not be read (the PDF decoder failed: {})",
            panic_message(&panic)
        )),
    };
    (collector.glyphs, error)
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown error".into())
}

/// Walks the page tree itself, refusing loops and absurd depth, and returns page ids.
fn check_page_tree(doc: &Document) -> Result<Vec<ObjectId>, String> {
    let root = doc
        .catalog()
        .ok()
        .and_then(|c| c.get(b"Pages").ok())
        .and_then(|p| p.as_reference().ok());
    let Some(root) = root else {
        return Ok(Vec::new());
    };
    let mut pages = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![(root, 0usize)];
    while let Some((id, depth)) = stack.pop() {
        if !seen.insert(id) {
            return Err("the PDF's page tree contains a loop; the file is damaged".into());
        }
        if depth > MAX_TREE_DEPTH {
            return Err("the PDF's page tree is nested too deeply; the file is damaged".into());
        }
        let Ok(dict) = doc.get_dictionary(id) else {
            continue;
        };
        let is_page = dict
            .get(b"Type")
            .and_then(Object::as_name)
            .is_ok_and(|t| t == b"Page");
        if is_page {
            pages.push(id);
            continue;
        }
        if let Ok(kids) = dict.get(b"Kids").and_then(|k| deref(doc, k).as_array()) {
            for kid in kids.iter().rev() {
                if let Ok(kid) = kid.as_reference() {
                    stack.push((kid, depth + 1));
                }
            }
        }
    }
    // lopdf's own page walk must agree, or pdf-extract would number pages differently.
    if doc.page_iter().count() != pages.len() {
        return Err("the PDF's page tree is inconsistent; the file is damaged".into());
    }
    Ok(pages)
}

fn info_title(doc: &Document) -> Option<String> {
    let info = doc.trailer.get(b"Info").ok()?;
    let info = deref(doc, info).as_dict().ok()?;
    let bytes = match info.get(b"Title").ok().map(|t| deref(doc, t))? {
        Object::String(b, _) => b.clone(),
        _ => return None,
    };
    let title = if bytes.starts_with(&[0xFE, 0xFF]) {
        let units: Vec<u16> = bytes[2..]
            .chunks_exact(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]))
            .collect();
        String::from_utf16_lossy(&units)
    } else {
        bytes.iter().map(|&b| b as char).collect()
    };
    let title = title.trim().to_owned();
    (!title.is_empty() && title.chars().count() < 200).then_some(title)
}

/// Collects positioned glyphs from pdf-extract's interpreter.
#[derive(Default)]
struct GlyphCollector {
    glyphs: Vec<Glyph>,
}

impl OutputDev for GlyphCollector {
    fn begin_page(
        &mut self,
        _: u32,
        _: &MediaBox,
        _: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), OutputError> {
        Ok(())
    }
    fn end_page(&mut self) -> Result<(), OutputError> {
        Ok(())
    }
    fn output_character(
        &mut self,
        trm: &Transform,
        width: f64,
        _spacing: f64,
        font_size: f64,
        text: &str,
    ) -> Result<(), OutputError> {
        let scale = (trm.m11 * trm.m22 - trm.m12 * trm.m21).abs().sqrt();
        let size = (font_size * scale).abs();
        // Coordinates along and across the text direction, so rotated text (margin
        // notes, table headers) reads along its own baseline.
        let norm = trm.m11.hypot(trm.m12);
        let (dx, dy) = if norm > 0.0 {
            (trm.m11 / norm, trm.m12 / norm)
        } else {
            (1.0, 0.0)
        };
        let (px, py) = (trm.m31, trm.m32);
        let direction = if dx.abs() >= dy.abs() {
            if dx > 0.0 { 0 } else { 2 }
        } else if dy > 0.0 {
            1
        } else {
            3
        };
        self.glyphs.push(Glyph {
            x: px * dx + py * dy,
            y: px * dy - py * dx,
            width: width * size,
            size,
            direction,
            text: text.to_owned(),
        });
        Ok(())
    }
    fn begin_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }
    fn end_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }
    fn end_line(&mut self) -> Result<(), OutputError> {
        Ok(())
    }
}
