//! How a Markdown or Word document looks, so the source viewer can show it rendered rather
//! than as flat text — without ever turning document text into markup.
//!
//! The layout is structure only: which stretch of the stored text is a heading, a list
//! item, a table cell, bold or a link. The text itself always comes from the store and
//! is placed into the page as text, so a document containing `<script>` renders those
//! characters and runs nothing, and there is no HTML to sanitise. Every range is in
//! chars of the stored text — the same offsets passages and highlights use — so the
//! viewer can mark a cited passage in the rendered document exactly.
//!
//! The layout is rebuilt from the source file when it is viewed (parsing Markdown takes
//! microseconds) and used only if the file still extracts to exactly the stored text;
//! otherwise the viewer falls back to the stored text and says why.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{docx, markdown, plain};
use crate::Result;

/// The rendered structure of a Markdown document.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentLayout {
    /// Blocks in document order; they never overlap.
    pub blocks: Vec<LayoutBlock>,
}

/// One block: a heading, paragraph, list item, table row or code block.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayoutBlock {
    /// What the block is.
    pub kind: LayoutKind,
    /// First char of the block in the stored text.
    pub char_start: usize,
    /// Char just past the block.
    pub char_end: usize,
    /// Inline styles (bold, links …) inside the block, in order; they may nest.
    pub marks: Vec<InlineMark>,
    /// For a table row: where each cell's value lies. Empty for other blocks.
    pub cells: Vec<TableCell>,
}

/// What a [`LayoutBlock`] is.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LayoutKind {
    /// A heading, level 1 to 6.
    Heading {
        /// 1 for the top level.
        level: u8,
    },
    /// A paragraph.
    Paragraph,
    /// An item of a list.
    ListItem {
        /// 1 for a top-level list.
        depth: u8,
        /// Numbered (`1.`) rather than bulleted.
        ordered: bool,
    },
    /// A row of a table.
    TableRow {
        /// The table's header cells; empty when the row is itself the header or the
        /// table has none. Rows of one table share the same header.
        header: Vec<String>,
    },
    /// Preformatted text.
    Code,
}

/// An inline style over a stretch of a block.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InlineMark {
    /// The style.
    pub style: InlineStyle,
    /// First char in the stored text.
    pub char_start: usize,
    /// Char just past the stretch.
    pub char_end: usize,
    /// For a link, where it points (shown, never followed).
    pub target: Option<String>,
}

/// Inline styles the viewer shows.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InlineStyle {
    /// `**strong**`
    Strong,
    /// `*emphasis*`
    Emphasis,
    /// `` `code` ``
    Code,
    /// `[text](target)`
    Link,
    /// `~~struck~~`
    Strikethrough,
}

/// Where one table cell's value lies in the stored text.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableCell {
    /// 0-based column (a row may leave columns empty).
    pub column: usize,
    /// First char of the value.
    pub char_start: usize,
    /// Char just past the value.
    pub char_end: usize,
}

/// Why the viewer shows flat text instead of a layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayoutUnavailable {
    /// The file now extracts to different text than was imported.
    Changed,
}

/// The layout of the Markdown file at `path`, provided its bytes still extract to
/// `stored_text`; `Ok(Err(Changed))` when they do not (the file was edited since it
/// was imported), and an error when the file cannot be read or decoded.
pub fn markdown_layout(
    path: &Path,
    stored_text: &str,
) -> Result<std::result::Result<DocumentLayout, LayoutUnavailable>> {
    let bytes = crate::limits::read_capped(
        path,
        crate::limits::MAX_TEXT_BYTES,
        evident_words::problem::Limited::Text,
    )?;
    let source = plain::decode(path, &bytes)?;
    let (extracted, styles) = markdown::extract_with_styles(&source, "");
    Ok(build(extracted, styles, stored_text))
}

/// The layout of the Word file at `path`, on the same terms as [`markdown_layout`].
pub fn docx_layout(
    path: &Path,
    stored_text: &str,
) -> Result<std::result::Result<DocumentLayout, LayoutUnavailable>> {
    let bytes = crate::limits::read_capped(
        path,
        crate::limits::MAX_DOCX_BYTES,
        evident_words::problem::Limited::Docx,
    )?;
    let (extracted, styles) = docx::extract_with_styles(path, &bytes)?;
    Ok(build(extracted, styles, stored_text))
}

/// The layout from a fresh extraction, if it still gives the stored text.
fn build(
    extracted: super::Extracted,
    styles: Vec<BlockStyle>,
    stored_text: &str,
) -> std::result::Result<DocumentLayout, LayoutUnavailable> {
    if extracted.text != stored_text {
        return Err(LayoutUnavailable::Changed);
    }
    let chars = CharIndex::new(&extracted.text);
    let blocks = extracted
        .blocks
        .iter()
        .zip(styles)
        .map(|(block, style)| LayoutBlock {
            kind: style.kind,
            char_start: chars.of(block.start),
            char_end: chars.of(block.end),
            marks: style
                .marks
                .into_iter()
                .map(|m| InlineMark {
                    style: m.style,
                    char_start: chars.of(m.start),
                    char_end: chars.of(m.end),
                    target: m.target,
                })
                .collect(),
            cells: style
                .cells
                .into_iter()
                .map(|(column, start, end)| TableCell {
                    column,
                    char_start: chars.of(start),
                    char_end: chars.of(end),
                })
                .collect(),
        })
        .collect();
    Ok(DocumentLayout { blocks })
}

/// A block's look in byte offsets, as the Markdown reader records it.
#[derive(Debug, Clone)]
pub(crate) struct BlockStyle {
    pub kind: LayoutKind,
    pub marks: Vec<ByteMark>,
    /// (column, start, end) of each table cell's value.
    pub cells: Vec<(usize, usize, usize)>,
}

/// An inline mark in byte offsets of the document text.
#[derive(Debug, Clone)]
pub(crate) struct ByteMark {
    pub style: InlineStyle,
    pub start: usize,
    pub end: usize,
    pub target: Option<String>,
}

/// Byte offset → char offset, by binary search over the char boundaries.
struct CharIndex(Vec<usize>);

impl CharIndex {
    fn new(text: &str) -> Self {
        Self(text.char_indices().map(|(i, _)| i).collect())
    }

    fn of(&self, byte: usize) -> usize {
        self.0.partition_point(|&b| b < byte)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout_of(source: &str) -> (String, DocumentLayout) {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("doc.md");
        std::fs::write(&path, source).expect("write");
        let text = markdown::extract(source, "").text;
        let layout = markdown_layout(&path, &text)
            .expect("readable")
            .expect("unchanged");
        (text, layout)
    }

    fn slice(text: &str, start: usize, end: usize) -> String {
        text.chars().skip(start).take(end - start).collect()
    }

    #[test]
    fn blocks_and_inline_marks_point_at_their_text_in_chars() {
        let (text, layout) = layout_of(
            "# 报销制度\n\n第一条 单笔报销**超过20,000元**的，须经[分管副总](a.md)审批。\n\n1. 第一项\n   - 子项 `code`\n",
        );
        let b = &layout.blocks;
        assert_eq!(b[0].kind, LayoutKind::Heading { level: 1 });
        assert_eq!(slice(&text, b[0].char_start, b[0].char_end), "报销制度");
        let strong = &b[1].marks[0];
        assert_eq!(strong.style, InlineStyle::Strong);
        assert_eq!(
            slice(&text, strong.char_start, strong.char_end),
            "超过20,000元"
        );
        let link = &b[1].marks[1];
        assert_eq!(link.style, InlineStyle::Link);
        assert_eq!(slice(&text, link.char_start, link.char_end), "分管副总");
        assert_eq!(link.target.as_deref(), Some("a.md"));
        assert_eq!(
            b[2].kind,
            LayoutKind::ListItem {
                depth: 1,
                ordered: true
            }
        );
        assert_eq!(
            b[3].kind,
            LayoutKind::ListItem {
                depth: 2,
                ordered: false
            }
        );
        let code = &b[3].marks[0];
        assert_eq!(slice(&text, code.char_start, code.char_end), "code");
    }

    #[test]
    fn table_rows_carry_their_header_and_cell_ranges() {
        let (text, layout) =
            layout_of("| 级别 | 标准 |\n|---|---|\n| 经理 | 500元 |\n| | 300元 |\n");
        let header = vec!["级别".to_owned(), "标准".to_owned()];
        assert_eq!(layout.blocks.len(), 2);
        assert_eq!(
            layout.blocks[0].kind,
            LayoutKind::TableRow {
                header: header.clone()
            }
        );
        let cells: Vec<_> = layout.blocks[0]
            .cells
            .iter()
            .map(|c| (c.column, slice(&text, c.char_start, c.char_end)))
            .collect();
        assert_eq!(cells, vec![(0, "经理".to_owned()), (1, "500元".to_owned())]);
        let cells: Vec<_> = layout.blocks[1]
            .cells
            .iter()
            .map(|c| (c.column, slice(&text, c.char_start, c.char_end)))
            .collect();
        assert_eq!(
            cells,
            vec![(1, "300元".to_owned())],
            "an empty cell keeps the column of the next"
        );
    }

    #[test]
    fn an_edited_file_is_reported_as_changed() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("doc.md");
        std::fs::write(&path, "# A\n\nNew text.").expect("write");
        let outcome = markdown_layout(&path, "A\n\nOld text.").expect("readable");
        assert_eq!(outcome, Err(LayoutUnavailable::Changed));
    }

    #[test]
    fn a_missing_file_is_an_error_naming_it() {
        let err = markdown_layout(Path::new("/nonexistent/evident/doc.md"), "x")
            .expect_err("missing file");
        assert!(err.to_string().contains("doc.md"), "{err}");
    }
}
