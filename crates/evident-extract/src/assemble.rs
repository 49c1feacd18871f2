//! Laying blocks end to end into one document text.
//!
//! Readers of structured formats (Markdown, Word) find blocks one at a time; this is the
//! one place that turns them into [`Extracted`]'s shape: blocks separated by a blank
//! line, each with the heading path above it, and — for the source viewer — each block's
//! look with its offsets moved from the block's own text into the document's.

use super::layout::BlockStyle;
use super::{Block, BlockKind, Extracted, PageSpan};

/// Collects blocks into a document text.
#[derive(Default)]
pub(crate) struct Assembler {
    text: String,
    blocks: Vec<Block>,
    headings: Vec<(u8, String)>,
    /// Whether to record `styles`.
    keep_styles: bool,
    styles: Vec<BlockStyle>,
    /// The text of the first level-1 heading, the usual title.
    pub first_h1: Option<String>,
}

impl Assembler {
    /// An empty document; `keep_styles` records each block's look for the viewer.
    pub fn new(keep_styles: bool) -> Self {
        Self {
            keep_styles,
            ..Self::default()
        }
    }

    /// Whether block looks are being recorded (readers skip building them otherwise).
    pub fn keeps_styles(&self) -> bool {
        self.keep_styles
    }

    /// The text so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The kind of the last block, if any.
    pub fn last_kind(&self) -> Option<BlockKind> {
        self.blocks.last().map(|b| b.kind)
    }

    /// Appends `raw`, trimmed, as a block of `kind`. `style` gives the block's look in
    /// byte offsets of `raw`; it is only called when styles are kept. A blank block is
    /// dropped and `false` returned.
    pub fn push(&mut self, kind: BlockKind, raw: &str, style: impl FnOnce() -> BlockStyle) -> bool {
        let lead = raw.len() - raw.trim_start().len();
        let body = raw.trim();
        if body.is_empty() {
            return false;
        }
        if let BlockKind::Heading { level } = kind {
            if level == 1 && self.first_h1.is_none() {
                self.first_h1 = Some(body.to_owned());
            }
            self.headings.retain(|(l, _)| *l < level);
            self.headings.push((level, body.to_owned()));
        }
        if !self.text.is_empty() {
            self.text.push_str("\n\n");
        }
        let start = self.text.len();
        self.text.push_str(body);
        if self.keep_styles {
            // Offsets in the untrimmed `raw` → offsets in the document text.
            let place = |at: usize| start + at.saturating_sub(lead).min(body.len());
            let mut style = style();
            for m in &mut style.marks {
                (m.start, m.end) = (place(m.start), place(m.end));
            }
            style.marks.retain(|m| m.end > m.start);
            for cell in &mut style.cells {
                (cell.1, cell.2) = (place(cell.1), place(cell.2));
            }
            style.cells.retain(|(_, s, e)| e > s);
            self.styles.push(style);
        }
        self.blocks.push(Block {
            start,
            end: self.text.len(),
            kind,
            heading_path: self.headings.iter().map(|(_, t)| t.clone()).collect(),
        });
        true
    }

    /// The document as one page, titled `title`, and the blocks' looks (empty unless
    /// kept).
    pub fn finish(self, title: String) -> (Extracted, Vec<BlockStyle>) {
        let end = self.text.len();
        let extracted = Extracted {
            title,
            text: self.text,
            pages: vec![PageSpan {
                number: 1,
                start: 0,
                end,
            }],
            blocks: self.blocks,
            warnings: Vec::new(),
            ocr_pages: Vec::new(),
        };
        (extracted, self.styles)
    }
}

/// A table row as text: `header: value` pairs joined by `; ` (empty cells left out)
/// when the table has a header, else the values joined by ` | `. Also returns where
/// each non-empty value lies: (column, start, end) in bytes of the text.
pub(crate) fn table_row_text(
    header: Option<&[String]>,
    cells: &[String],
) -> (String, Vec<(usize, usize, usize)>) {
    let mut text = String::new();
    let mut spans = Vec::new();
    for (column, value) in cells.iter().enumerate() {
        if let Some(header) = header {
            if value.is_empty() {
                continue;
            }
            if !text.is_empty() {
                text.push_str("; ");
            }
            if let Some(h) = header.get(column).filter(|h| !h.is_empty()) {
                text.push_str(h);
                text.push_str(": ");
            }
        } else if column > 0 {
            text.push_str(" | ");
        }
        let start = text.len();
        text.push_str(value);
        if !value.is_empty() {
            spans.push((column, start, text.len()));
        }
    }
    (text, spans)
}
