//! Markdown with pulldown-cmark: headings become the heading path, list items and table
//! rows stay readable as text (`header: value` pairs), link text is kept, and front
//! matter, HTML comments and template tags (`{% ... %}`, `{{< ... >}}`) are dropped.

use std::sync::LazyLock;

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use regex::Regex;

use super::assemble::{Assembler, table_row_text};
use super::layout::{BlockStyle, ByteMark, InlineStyle, LayoutKind};
use super::{BlockKind, Extracted};
use evident_text::normalize::join_lines_into;

static TEMPLATE_TAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?s)\{%.*?%\}|\{\{[<%].*?[>%]\}\}|\{\{.*?\}\}").expect("valid regex")
});
static HTML_COMMENT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?s)<!--.*?-->").expect("valid regex"));
static HTML_TAG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?s)</?[A-Za-z][^>]*>").expect("valid regex"));

/// Extracts a Markdown document.
pub fn extract(source: &str, fallback_title: &str) -> Extracted {
    read(source, fallback_title, false).0
}

/// Extracts a Markdown document and, for each of its blocks, how it looks (list depth,
/// table header and cells, bold, links), for the source viewer.
pub(crate) fn extract_with_styles(
    source: &str,
    fallback_title: &str,
) -> (Extracted, Vec<BlockStyle>) {
    read(source, fallback_title, true)
}

/// The reader behind both: styles are recorded only when asked for, so imports do
/// not build a layout nobody looks at.
fn read(source: &str, fallback_title: &str, keep_styles: bool) -> (Extracted, Vec<BlockStyle>) {
    let source = TEMPLATE_TAG.replace_all(source, "");
    let source = HTML_COMMENT.replace_all(&source, "");
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
        | Options::ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS;
    let mut b = Builder {
        out: Assembler::new(keep_styles),
        ..Builder::default()
    };
    for event in Parser::new_ext(&source, options) {
        b.event(event);
    }
    b.finish_block();
    let title = b
        .front_matter_title
        .clone()
        .or_else(|| b.out.first_h1.clone())
        .unwrap_or_else(|| fallback_title.to_owned());
    b.out.finish(title)
}

#[derive(Default)]
struct Builder {
    /// The document so far.
    out: Assembler,
    /// Text of the block being collected, and its kind.
    current: String,
    kind: Option<BlockKind>,
    pending_break: bool,
    in_metadata: bool,
    metadata: String,
    front_matter_title: Option<String>,
    table_head: Vec<String>,
    row: Vec<String>,
    in_head: bool,
    list_depth: usize,
    /// For each open list, whether it is numbered.
    lists: Vec<bool>,
    /// Inline styles opened in the current block: style, start in `current` (set when
    /// their first text arrives), link target.
    open_marks: Vec<(InlineStyle, Option<usize>, Option<String>)>,
    /// Closed inline styles of the current block, in offsets of `current`.
    marks: Vec<ByteMark>,
    /// For a table row being finished: (column, start, end) of each value in `current`,
    /// and the header it sits under.
    row_cells: Vec<(usize, usize, usize)>,
    row_header: Vec<String>,
}

impl Builder {
    fn event(&mut self, event: Event<'_>) {
        if self.in_metadata {
            match event {
                Event::Text(t) => self.metadata.push_str(&t),
                Event::End(TagEnd::MetadataBlock(_)) => {
                    self.in_metadata = false;
                    self.front_matter_title = self
                        .metadata
                        .lines()
                        .find_map(|l| l.strip_prefix("title:"))
                        .map(|t| t.trim().trim_matches(['"', '\'']).to_owned())
                        .filter(|t| !t.is_empty());
                }
                _ => {}
            }
            return;
        }
        match event {
            Event::Start(Tag::MetadataBlock(_)) => self.in_metadata = true,
            Event::Start(Tag::Heading { level, .. }) => self.start(BlockKind::Heading {
                level: heading_level(level),
            }),
            Event::Start(Tag::Paragraph) => {
                if self.kind.is_none() {
                    self.start(BlockKind::Paragraph);
                } else if !self.current.is_empty() {
                    self.pending_break = true;
                }
            }
            Event::Start(Tag::Item) => self.start(BlockKind::ListItem),
            Event::Start(Tag::List(first)) => {
                self.list_depth += 1;
                self.finish_block();
                self.lists.push(first.is_some());
            }
            Event::End(TagEnd::List(_)) => {
                self.list_depth = self.list_depth.saturating_sub(1);
                self.finish_block();
                self.lists.pop();
            }
            Event::Start(Tag::Strong) => self.open_mark(InlineStyle::Strong, None),
            Event::Start(Tag::Emphasis) => self.open_mark(InlineStyle::Emphasis, None),
            Event::Start(Tag::Strikethrough) => self.open_mark(InlineStyle::Strikethrough, None),
            Event::Start(Tag::Link { dest_url, .. }) => {
                self.open_mark(InlineStyle::Link, Some(dest_url.into_string()));
            }
            Event::End(TagEnd::Strong) => self.close_mark(InlineStyle::Strong),
            Event::End(TagEnd::Emphasis) => self.close_mark(InlineStyle::Emphasis),
            Event::End(TagEnd::Strikethrough) => self.close_mark(InlineStyle::Strikethrough),
            Event::End(TagEnd::Link) => self.close_mark(InlineStyle::Link),
            Event::Start(Tag::CodeBlock(_)) => self.start(BlockKind::Code),
            Event::Start(Tag::TableHead) => {
                self.finish_block();
                self.in_head = true;
                self.table_head.clear();
                self.row.clear();
            }
            Event::End(TagEnd::TableHead) => {
                self.in_head = false;
                self.table_head = std::mem::take(&mut self.row);
            }
            Event::Start(Tag::TableRow) => self.row.clear(),
            Event::Start(Tag::TableCell) => {
                self.current.clear();
                self.marks.clear();
                self.kind = Some(BlockKind::TableRow);
            }
            Event::End(TagEnd::TableCell) => {
                self.row
                    .push(std::mem::take(&mut self.current).trim().to_owned());
                self.kind = None;
            }
            Event::End(TagEnd::TableRow) => self.table_row(),
            Event::End(TagEnd::Table) => {
                if !self.table_head.is_empty() && self.out.last_kind() != Some(BlockKind::TableRow)
                {
                    // A table with a header and no body rows: keep the header as text.
                    self.row = std::mem::take(&mut self.table_head);
                    self.table_row();
                }
                self.table_head.clear();
            }
            Event::End(TagEnd::Heading(_))
            | Event::End(TagEnd::CodeBlock)
            | Event::End(TagEnd::Item) => {
                self.finish_block();
            }
            Event::End(TagEnd::Paragraph)
                if self.list_depth == 0 && self.kind == Some(BlockKind::Paragraph) =>
            {
                self.finish_block();
            }
            Event::Text(t) => self.push_text(&t),
            Event::Code(t) => {
                self.open_mark(InlineStyle::Code, None);
                self.push_text(&t);
                self.close_mark(InlineStyle::Code);
            }
            Event::InlineMath(t) | Event::DisplayMath(t) => self.push_text(&t),
            Event::Html(h) | Event::InlineHtml(h) => {
                let stripped = HTML_TAG.replace_all(&h, "");
                if !stripped.trim().is_empty() {
                    self.push_text(stripped.trim());
                }
            }
            Event::SoftBreak => self.pending_break = true,
            Event::HardBreak => self.current.push('\n'),
            Event::TaskListMarker(done) => self.push_text(if done { "[x] " } else { "[ ] " }),
            _ => {}
        }
    }

    fn start(&mut self, kind: BlockKind) {
        self.finish_block();
        self.kind = Some(kind);
    }

    fn push_text(&mut self, t: &str) {
        if self.kind.is_none() {
            self.kind = Some(BlockKind::Paragraph);
        }
        // Kept as written (full-width punctuation too); matching folds its own copy.
        let at = if self.pending_break {
            self.pending_break = false;
            join_lines_into(&mut self.current, t, &|_, _| false)
        } else {
            self.current.push_str(t);
            self.current.len() - t.len()
        };
        for (_, start, _) in &mut self.open_marks {
            start.get_or_insert(at);
        }
    }

    fn open_mark(&mut self, style: InlineStyle, target: Option<String>) {
        self.open_marks.push((style, None, target));
    }

    fn close_mark(&mut self, style: InlineStyle) {
        let Some(i) = self.open_marks.iter().rposition(|(s, _, _)| *s == style) else {
            return;
        };
        let (style, start, target) = self.open_marks.remove(i);
        if let Some(start) = start {
            let end = self.current.trim_end().len();
            if end > start {
                self.marks.push(ByteMark {
                    style,
                    start,
                    end,
                    target,
                });
            }
        }
    }

    fn table_row(&mut self) {
        let cells = std::mem::take(&mut self.row);
        if cells.iter().all(String::is_empty) {
            return;
        }
        let headed = !self.in_head && !self.table_head.is_empty();
        let (text, spans) = table_row_text(headed.then_some(&self.table_head[..]), &cells);
        self.current = text;
        self.marks.clear();
        self.row_cells = spans;
        self.row_header = if headed && self.out.keeps_styles() {
            self.table_head.clone()
        } else {
            Vec::new()
        };
        self.kind = Some(BlockKind::TableRow);
        self.finish_block();
    }

    fn finish_block(&mut self) {
        self.pending_break = false;
        // Styles still open continue in the next block, from its first text.
        for (_, start, _) in &mut self.open_marks {
            *start = None;
        }
        let marks = std::mem::take(&mut self.marks);
        let cells = std::mem::take(&mut self.row_cells);
        let header = std::mem::take(&mut self.row_header);
        let Some(kind) = self.kind.take() else {
            return;
        };
        let body = std::mem::take(&mut self.current);
        let lists = &self.lists;
        self.out.push(kind, &body, || BlockStyle {
            kind: match kind {
                BlockKind::Heading { level } => LayoutKind::Heading { level },
                BlockKind::Paragraph => LayoutKind::Paragraph,
                BlockKind::ListItem => LayoutKind::ListItem {
                    depth: u8::try_from(lists.len().max(1)).unwrap_or(u8::MAX),
                    ordered: lists.last().copied().unwrap_or(false),
                },
                BlockKind::TableRow => LayoutKind::TableRow { header },
                BlockKind::Code => LayoutKind::Code,
            },
            marks,
            cells,
        });
    }
}

fn heading_level(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks(doc: &Extracted) -> Vec<(&str, Vec<String>)> {
        doc.blocks
            .iter()
            .map(|b| (doc.block_text(b), b.heading_path.clone()))
            .collect()
    }

    #[test]
    fn headings_become_paths_and_front_matter_is_dropped() {
        let doc = extract(
            "---\ntitle: Travel policy\n---\n# Travel\n\nIntro text.\n\n## Booking\n\nBook early.\n\n# Other\n\nLast.",
            "f",
        );
        assert_eq!(doc.title, "Travel policy");
        let b = blocks(&doc);
        assert_eq!(b[0], ("Travel", vec!["Travel".to_owned()]));
        assert_eq!(
            b[3],
            (
                "Book early.",
                vec!["Travel".to_owned(), "Booking".to_owned()]
            )
        );
        assert_eq!(
            b[5],
            ("Last.", vec!["Other".to_owned()]),
            "a new H1 resets the path"
        );
        assert!(
            !doc.text.contains("title:"),
            "front matter must not reach the text"
        );
    }

    #[test]
    fn tables_become_header_value_pairs() {
        let doc = extract(
            "| 级别 | 标准 |\n|---|---|\n| 经理 | 500元 |\n| 员工 | 300元 |\n",
            "t",
        );
        let b = blocks(&doc);
        assert_eq!(b[0].0, "级别: 经理; 标准: 500元");
        assert_eq!(b[1].0, "级别: 员工; 标准: 300元");
    }

    #[test]
    fn links_lists_comments_and_template_tags() {
        let doc = extract(
            "<!-- INFO END -->\n{% alert %}\nSee [the travel page](travel.md) first.\n{% endalert %}\n\n- one item\n- two <b>bold</b>\n",
            "t",
        );
        let b = blocks(&doc);
        assert_eq!(b[0].0, "See the travel page first.");
        assert_eq!(b[1], ("one item", vec![]));
        assert_eq!(b[2].0, "two bold");
        assert!(
            !doc.text.contains("INFO END") && !doc.text.contains('{'),
            "{}",
            doc.text
        );
    }

    #[test]
    fn soft_breaks_join_chinese_without_space() {
        let doc = extract(
            "第一条 单笔报销超过五千元的，需经分管\n副总经理审批。\n",
            "t",
        );
        assert_eq!(
            doc.text, "第一条 单笔报销超过五千元的，需经分管副总经理审批。",
            "the full-width comma is kept as written"
        );
    }

    #[test]
    fn title_falls_back_to_first_h1_then_file_name() {
        assert_eq!(extract("# 报销制度\n\n正文。", "f").title, "报销制度");
        assert_eq!(extract("正文。", "file-name").title, "file-name");
    }
}
