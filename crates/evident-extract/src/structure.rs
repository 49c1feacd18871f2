//! Structure in plain text: which lines are headings (第一章, Chapter 2), which start a
//! clause (第三条, 一、, （二）, 1., 1.1, Article 5), and the blocks that follow.
//!
//! Plain-text files and PDFs have no markup, so these patterns are how the chunker learns
//! where a clause begins; Markdown uses its own headings instead.

use std::sync::LazyLock;

use regex::Regex;

use super::{Block, BlockKind};

/// What a line of plain text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineRole {
    /// A heading of the given level (编 1, 章 2, 节 3; `#` headings by their depth).
    Heading(u8),
    /// The first line of a clause or numbered item.
    ClauseStart,
    /// A bullet list item.
    ListItem,
    /// Anything else.
    Body,
}

const NUM: &str = r"[零〇一二三四五六七八九十百千两0-9]+";

static HEADING_ZH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^第\s*{NUM}\s*([编章节])(\s|$|[:：、]|[\p{{Han}}])"
    ))
    .expect("valid regex")
});
static HEADING_EN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(part|chapter)\s+([0-9]+|[ivxlc]+)\b").expect("valid regex")
});
static HEADING_HASH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(#{1,6})\s+\S").expect("valid regex"));
static CLAUSE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?ix)^(
            第\s*{NUM}\s*条
          | [一二三四五六七八九十]+\s*[、.．]
          | [（(]\s*[一二三四五六七八九十0-9]+\s*[)）]
          | [0-9]{{1,3}}(\.[0-9]{{1,3}})*\s*[.、)）]\s
          | [0-9]{{1,3}}(\.[0-9]{{1,3}})+\s+(?-i:[\p{{Lu}}\p{{Han}}])
          | (article|section|§)\s*[0-9]+
        )"
    ))
    .expect("valid regex")
});
static BULLET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([-*•·●○▪]|\d+\))\s+\S").expect("valid regex"));

/// Classifies one line (leading white space ignored).
pub fn line_role(line: &str) -> LineRole {
    // Text is stored as written; the patterns are written for its folded form
    // (（一） as (一), １. as 1.).
    let folded = evident_text::normalize::nfkc(line);
    let line = folded.trim_start();
    // Headings are short; a long line starting with 第一章 is body text quoting it.
    let short = line.chars().count() <= 40;
    if let Some(c) = HEADING_ZH.captures(line)
        && short
    {
        {
            let level = match c.get(1).map(|m| m.as_str()) {
                Some("编") => 1,
                Some("章") => 2,
                _ => 3,
            };
            return LineRole::Heading(level);
        }
    }
    if short && HEADING_EN.is_match(line) && !line.trim_end().ends_with('.') {
        return LineRole::Heading(2);
    }
    if let Some(c) = HEADING_HASH.captures(line) {
        return LineRole::Heading(c.get(1).map_or(1, |m| m.as_str().len()) as u8);
    }
    if CLAUSE.is_match(line) {
        return LineRole::ClauseStart;
    }
    if BULLET.is_match(line) {
        return LineRole::ListItem;
    }
    LineRole::Body
}

/// Splits plain `text` into blocks: blank lines end a paragraph, headings stand alone and
/// open a section, and a clause start or bullet begins a new block even without a blank
/// line before it. Offsets are bytes into `text`.
pub fn blocks_from_plain(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut headings: Vec<(u8, String)> = Vec::new();
    let mut current: Option<(usize, usize, BlockKind)> = None;
    let path = |h: &Vec<(u8, String)>| h.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>();

    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let line_start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let trimmed = line.trim();
        if trimmed.is_empty() {
            flush(&mut current, &mut blocks, path(&headings));
            continue;
        }
        let lead = line.len() - line.trim_start().len();
        let start = line_start + lead;
        let end = line_start + line.trim_end().len();
        match line_role(trimmed) {
            LineRole::Heading(level) => {
                flush(&mut current, &mut blocks, path(&headings));
                let title = trimmed.trim_start_matches('#').trim().to_owned();
                headings.retain(|(l, _)| *l < level);
                headings.push((level, title));
                blocks.push(Block {
                    start,
                    end,
                    kind: BlockKind::Heading { level },
                    heading_path: path(&headings),
                });
            }
            role => {
                let kind = if role == LineRole::ListItem {
                    BlockKind::ListItem
                } else {
                    BlockKind::Paragraph
                };
                if role != LineRole::Body {
                    flush(&mut current, &mut blocks, path(&headings));
                }
                match &mut current {
                    Some((_, e, _)) => *e = end,
                    None => current = Some((start, end, kind)),
                }
            }
        }
    }
    flush(&mut current, &mut blocks, path(&headings));
    blocks
}

fn flush(
    current: &mut Option<(usize, usize, BlockKind)>,
    blocks: &mut Vec<Block>,
    path: Vec<String>,
) {
    if let Some((start, end, kind)) = current.take() {
        blocks.push(Block {
            start,
            end,
            kind,
            heading_path: path,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_chinese_and_english_structure() {
        assert_eq!(line_role("第一章 总则"), LineRole::Heading(2));
        assert_eq!(line_role("第三节　报销标准"), LineRole::Heading(3));
        assert_eq!(line_role("第十二条 员工出差"), LineRole::ClauseStart);
        assert_eq!(line_role("第 5 条 规定"), LineRole::ClauseStart);
        assert_eq!(line_role("一、适用范围"), LineRole::ClauseStart);
        assert_eq!(line_role("（二）交通费"), LineRole::ClauseStart);
        assert_eq!(line_role("1. Submit receipts"), LineRole::ClauseStart);
        assert_eq!(line_role("2.3 Meals"), LineRole::ClauseStart);
        assert_eq!(line_role("Chapter 2 Leave"), LineRole::Heading(2));
        assert_eq!(line_role("- a bullet"), LineRole::ListItem);
        assert_eq!(line_role("3.5 percent is the rate."), LineRole::Body);
        assert_eq!(line_role("按照第一章的规定执行"), LineRole::Body);
    }

    #[test]
    fn clauses_split_blocks_and_headings_build_paths() {
        let text = "第一章 总则\n第一条 为了规范报销，\n制定本办法。\n第二条 本办法适用于全体员工。\n\n第二章 标准\n说明文字。";
        let blocks = blocks_from_plain(text);
        let shown: Vec<(&str, Vec<String>)> = blocks
            .iter()
            .map(|b| (&text[b.start..b.end], b.heading_path.clone()))
            .collect();
        assert_eq!(shown[0].0, "第一章 总则");
        assert_eq!(
            shown[1].0, "第一条 为了规范报销，\n制定本办法。",
            "a wrapped clause stays one block"
        );
        assert_eq!(shown[2].0, "第二条 本办法适用于全体员工。");
        assert_eq!(shown[2].1, vec!["第一章 总则"]);
        assert_eq!(shown[4].0, "说明文字。");
        assert_eq!(
            shown[4].1,
            vec!["第二章 标准"],
            "a new chapter replaces the old one"
        );
    }
}
