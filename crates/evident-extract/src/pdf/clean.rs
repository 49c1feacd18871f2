//! Cleaning raw PDF pages into one document text.
//!
//! Removes running headers and footers (lines near the top or bottom that repeat on many
//! pages once digits are masked) and page-number lines (`第 3 页 共 15 页`, `Page 3 of 11`,
//! `- 3 -`), joins the lines of a paragraph (no space between CJK characters, one space
//! otherwise, hyphenated words rejoined), keeps clause starts on their own line, joins a
//! paragraph that continues onto the next page, and NFKC-normalises. Body text is never
//! dropped: only short lines in the top or bottom band of a page can be removed.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::read::RawPdf;
use crate::structure::{LineRole, blocks_from_plain, line_role};
use crate::{Extracted, PageSpan};
use evident_text::normalize::{fold_font_artefacts, join_lines_into};
use evident_words::problem::Problem;

/// Lines examined at each end of a page for running headers and footers.
const BAND: usize = 3;

static PAGE_NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^\s*(
            第\s*\d+\s*页(\s*[,，/]?\s*共\s*\d+\s*页)?
          | 共\s*\d+\s*页\s*第\s*\d+\s*页
          | page\s+\d+(\s*(of|/)\s*\d+)?
          | -\s*\d+\s*-
          | —\s*\d+\s*—
          | \d+\s*/\s*\d+
        )\s*$",
    )
    .expect("valid regex")
});
static DIGITS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\d+").expect("valid regex"));

/// Turns raw pages into an [`Extracted`] document.
pub fn assemble(raw: RawPdf, fallback_title: &str) -> Extracted {
    let mut warnings = raw.warnings.clone();
    let mut unreadable = Vec::new();
    let mut textless = Vec::new();
    let page_lines: Vec<Vec<String>> = raw
        .pages
        .iter()
        .map(|p| {
            let text = fold_font_artefacts(&p.text);
            if is_unreadable(&text) {
                unreadable.push(p.number);
                return Vec::new();
            }
            text.lines().map(|l| l.trim().to_owned()).collect()
        })
        .collect();
    let running = running_lines(&page_lines);
    let lexicon = Lexicon::new(&page_lines);

    let mut text = String::new();
    let mut pages = Vec::with_capacity(raw.pages.len());
    for (page, lines) in raw.pages.iter().zip(&page_lines) {
        if let Some(e) = &page.error {
            warnings.push(Problem::PageUnread {
                page: page.number,
                detail: e.clone(),
            });
        }
        let kept = strip_running(lines, &running);
        let body = paragraphs(&kept, &lexicon);
        if page.error.is_none() && page.text.trim().is_empty() {
            textless.push(page.number);
        }
        let start = join_page(&mut text, &body, &lexicon);
        pages.push(PageSpan {
            number: page.number,
            start,
            end: text.len(),
        });
    }
    if !textless.is_empty() {
        warnings.push(Problem::PagesTextless {
            pages: page_list(&textless),
            count: textless.len(),
        });
    }
    if !unreadable.is_empty() {
        warnings.push(Problem::PagesUnreadable {
            pages: page_list(&unreadable),
            count: unreadable.len(),
        });
    }
    let blocks = blocks_from_plain(&text);
    let title = raw
        .title
        .filter(|t| !t.to_lowercase().starts_with("microsoft word"))
        .or_else(|| {
            blocks
                .first()
                .map(|b| text[b.start..b.end].to_owned())
                .filter(|t| t.chars().count() <= 60)
        })
        .unwrap_or_else(|| fallback_title.to_owned());
    Extracted {
        title,
        text,
        pages,
        blocks,
        warnings,
        ocr_pages: Vec::new(),
    }
}

/// The warnings for pages without a text layer and pages whose text decodes to symbols,
/// after "page N" or "pages N–M, K".
/// "3", "2–22", "1, 4–6": consecutive page numbers as ranges.
pub fn page_list(pages: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < pages.len() {
        let mut j = i;
        while j + 1 < pages.len() && pages[j + 1] == pages[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            pages[i].to_string()
        } else {
            format!("{}–{}", pages[i], pages[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

/// True when most of a page's characters are control characters, modifier letters or
/// symbols, or private-use code points: what a font without a Unicode map decodes to.
/// Indexing that would only put noise into search results.
pub fn is_unreadable(text: &str) -> bool {
    let mut total = 0usize;
    let mut junk = 0usize;
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        total += 1;
        let cp = c as u32;
        if c.is_control()
            || (0x02B0..=0x02FF).contains(&cp)
            || (0xE000..=0xF8FF).contains(&cp)
            || c == '\u{FFFD}'
        {
            junk += 1;
        }
    }
    total >= 20 && junk * 10 > total * 3
}

/// True for the warning [`assemble`] gives unreadable pages.
pub fn is_unreadable_warning(warning: &Problem) -> bool {
    matches!(warning, Problem::PagesUnreadable { .. })
}

/// True for the warning [`assemble`] gives pages without a text layer.
pub fn is_textless_warning(warning: &Problem) -> bool {
    matches!(warning, Problem::PagesTextless { .. })
}

fn mask(line: &str) -> String {
    DIGITS
        .replace_all(&line.split_whitespace().collect::<Vec<_>>().join(" "), "#")
        .to_lowercase()
}

fn band(lines: &[String]) -> impl Iterator<Item = (usize, &String)> {
    let non_empty: Vec<usize> = (0..lines.len()).filter(|&i| !lines[i].is_empty()).collect();
    let n = non_empty.len();
    non_empty
        .into_iter()
        .enumerate()
        .filter(move |(k, _)| *k < BAND || *k + BAND >= n)
        .map(move |(_, i)| (i, &lines[i]))
}

/// Masked lines that recur in the top/bottom band of at least half the pages (min 3).
fn running_lines(pages: &[Vec<String>]) -> HashMap<String, usize> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for lines in pages {
        let mut seen = std::collections::HashSet::new();
        for (_, line) in band(lines) {
            if is_running_candidate(line) && seen.insert(mask(line)) {
                *counts.entry(mask(line)).or_default() += 1;
            }
        }
    }
    let needed = (pages.len() / 2).max(3);
    counts.retain(|_, c| *c >= needed);
    counts
}

/// Headers and footers are short and are not sentences; a line that ends like a sentence
/// is body text even if it recurs (e.g. "第1条 ..." on every page).
fn is_running_candidate(line: &str) -> bool {
    let n = line.chars().count();
    let sentence = n > 4 && line.ends_with(['。', '.', '!', '?', ';', '；', '！', '？']);
    n <= 80 && !sentence && line_role(line) != LineRole::ClauseStart
}

fn strip_running(lines: &[String], running: &HashMap<String, usize>) -> Vec<String> {
    let drop: Vec<usize> = band(lines)
        .filter(|(_, l)| {
            (is_running_candidate(l) && running.contains_key(&mask(l))) || PAGE_NUMBER.is_match(l)
        })
        .map(|(i, _)| i)
        .collect();
    lines
        .iter()
        .enumerate()
        .filter(|(i, _)| !drop.contains(i))
        .map(|(_, l)| l.clone())
        .collect()
}

/// The document's own words, to tell a line-break hyphen (`employ-ment`, and
/// `employment` occurs elsewhere) from a real one (`in-person`).
struct Lexicon {
    words: std::collections::HashSet<String>,
}

impl Lexicon {
    fn new(pages: &[Vec<String>]) -> Self {
        let mut words = std::collections::HashSet::new();
        for line in pages.iter().flatten() {
            // Words not at a line end: a line-final fragment is not evidence of a word.
            let body = line.trim_end_matches(|c: char| c.is_alphabetic() || c == '-');
            for w in body.split(|c: char| !(c.is_alphabetic() || c == '-')) {
                if w.chars().count() > 1 {
                    words.insert(w.to_lowercase());
                }
            }
        }
        Self { words }
    }

    /// True when `head-` + `tail` was a word broken by the line end.
    fn dehyphenate(&self, head: &str, tail: &str) -> bool {
        let joined = format!("{head}{tail}").to_lowercase();
        let hyphenated = format!("{head}-{tail}").to_lowercase();
        self.words.contains(&joined) && !self.words.contains(&hyphenated)
    }
}

/// Joins lines into paragraphs separated by blank lines.
fn paragraphs(lines: &[String], lexicon: &Lexicon) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in lines {
        if line.is_empty() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            continue;
        }
        let role = line_role(line);
        if role != LineRole::Body && !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        join_lines_into(&mut current, line, &|h, t| lexicon.dehyphenate(h, t));
        if matches!(role, LineRole::Heading(_)) {
            out.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out.join("\n\n")
}

/// Appends a page's text, continuing the previous page's paragraph when it was cut off
/// mid-sentence. Returns the byte offset where the page's own text starts.
fn join_page(text: &mut String, page: &str, lexicon: &Lexicon) -> usize {
    if page.is_empty() {
        return text.len();
    }
    if text.is_empty() {
        text.push_str(page);
        return 0;
    }
    let last = text.chars().last().unwrap_or('。');
    let first_line = page.lines().next().unwrap_or("");
    let ends_sentence = matches!(
        last,
        '。' | '！' | '？' | '；' | '：' | '.' | '!' | '?' | ';' | ':' | '”' | '"' | ')' | '）'
    );
    if ends_sentence || line_role(first_line) != LineRole::Body {
        text.push_str("\n\n");
        let start = text.len();
        text.push_str(page);
        return start;
    }
    // A paragraph cut by the page break: join it like any other line break.
    join_lines_into(text, page, &|h, t| lexicon.dehyphenate(h, t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdf::read::RawPage;

    fn raw(pages: &[&str]) -> RawPdf {
        RawPdf {
            title: None,
            pages: pages
                .iter()
                .enumerate()
                .map(|(i, t)| RawPage {
                    number: i as u32 + 1,
                    text: (*t).to_owned(),
                    error: None,
                })
                .collect(),
            warnings: vec![],
        }
    }

    #[test]
    fn running_headers_footers_and_page_numbers_go_body_stays() {
        let pages: Vec<String> = (1..=4)
            .map(|n| format!("员工手册\n\n第{n}条 正文内容第{n}段。\n员工应当遵守第{n}项规定。\n\n第 {n} 页 共 4 页"))
            .collect();
        let refs: Vec<&str> = pages.iter().map(String::as_str).collect();
        let doc = assemble(raw(&refs), "f");
        assert!(
            !doc.text.contains("员工手册"),
            "running header must go: {}",
            doc.text
        );
        assert!(
            !doc.text.contains("共 4 页"),
            "footer must go: {}",
            doc.text
        );
        for n in 1..=4 {
            assert!(
                doc.text.contains(&format!("第{n}条 正文内容第{n}段。")),
                "body of page {n} kept"
            );
            assert!(
                doc.text.contains(&format!("员工应当遵守第{n}项规定。")),
                "recurring body lines are kept"
            );
        }
        assert_eq!(doc.pages.len(), 4);
        assert_eq!(
            &doc.text[doc.pages[1].start..doc.pages[1].end],
            "第2条 正文内容第2段。员工应当遵守第2项规定。"
        );
    }

    #[test]
    fn page_of_pattern_is_removed_even_on_two_pages() {
        let doc = assemble(
            raw(&["Intro text.\nPage 1 of 2", "More text.\nPage 2 of 2"]),
            "f",
        );
        assert_eq!(doc.text, "Intro text.\n\nMore text.");
    }

    #[test]
    fn lines_join_cjk_tight_english_spaced_and_dehyphenated() {
        let doc = assemble(
            raw(&[
                "单笔报销超过五千元的，需经分管\n副总经理审批。\n\nContinuous employ-\nment is\nrequired for in-\nperson work.\n\nEmployment starts.",
            ]),
            "f",
        );
        assert_eq!(
            doc.text,
            "单笔报销超过五千元的，需经分管副总经理审批。\n\nContinuous employment is required for in-person work.\n\nEmployment starts.",
            "employment occurs elsewhere, so its hyphen was a line break; in-person keeps its hyphen"
        );
    }

    #[test]
    fn a_sentence_cut_by_a_page_break_continues() {
        let doc = assemble(raw(&["员工请假应当提前", "三个工作日申请。"]), "f");
        assert_eq!(doc.text, "员工请假应当提前三个工作日申请。");
        assert_eq!(doc.pages[1].start, "员工请假应当提前".len());
        assert_eq!(doc.blocks.len(), 1, "one paragraph across the page break");
    }

    #[test]
    fn clause_starts_keep_their_own_paragraph() {
        let doc = assemble(raw(&["第一条 总则内容。\n第二条 另一条。"]), "f");
        assert_eq!(doc.text, "第一条 总则内容。\n\n第二条 另一条。");
    }

    #[test]
    fn pages_that_decode_to_symbols_are_reported_and_not_indexed() {
        let junk = "\u{2d8}\u{2c7}\u{2c6}\u{2d9} \u{2dd}\u{2c7}\u{2db}\u{2da}\u{1}\u{2}\u{3}\u{4}"
            .repeat(5);
        let doc = assemble(raw(&["Readable first page.", &junk]), "f");
        assert_eq!(doc.text, "Readable first page.");
        assert_eq!(
            doc.warnings,
            vec![Problem::PagesUnreadable {
                pages: "2".into(),
                count: 1
            }]
        );
        assert!(
            !is_unreadable("第一条 单笔报销超过5000元的,需经分管副总经理审批。"),
            "Chinese is readable"
        );
    }

    #[test]
    fn page_lists_read_as_ranges() {
        assert_eq!(page_list(&[3]), "3");
        assert_eq!(page_list(&[2, 3, 4, 7, 9, 10]), "2–4, 7, 9–10");
    }

    #[test]
    fn empty_pages_are_reported() {
        let doc = assemble(raw(&["Text.", ""]), "f");
        assert_eq!(
            doc.warnings,
            vec![Problem::PagesTextless {
                pages: "2".into(),
                count: 1
            }]
        );
        assert_eq!(
            doc.warnings[0].text(evident_words::message::Lang::En),
            "page 2 without text (scanned images?) could not be indexed"
        );
    }
}
