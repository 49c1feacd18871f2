//! Exporting an answer: the question, every sentence with its verdict, and every cited
//! passage quoted with its document, page and heading, as Markdown or as one
//! self-contained HTML file (inline style, no script, every document text escaped).
//!
//! The words around the quotes (verdicts, reasons, notes, "Sources") are in the
//! reader's language; the quotes are the documents' own text in every language.

use std::fmt::Write;

use super::{Answer, Source, Status};
use crate::grounding::{SentenceVerdict, Verdict};
use crate::message::{Lang, Message};

/// The fixed words of an export.
#[derive(Clone, Copy)]
enum Words {
    NotFound,
    Uncertain,
    Related,
    Sources,
}

fn words(w: Words, lang: Lang) -> &'static str {
    match (w, lang) {
        (Words::NotFound, Lang::En) => "Not found in your documents.",
        (Words::NotFound, Lang::ZhCn) => "您的文件中没有找到答案。",
        (Words::Uncertain, Lang::En) => {
            "Uncertain: these are the closest passages; they may not answer the question."
        }
        (Words::Uncertain, Lang::ZhCn) => "不确定：以下是最接近的段落，可能并不回答您的问题。",
        (Words::Related, Lang::En) => "Related, but not an answer:",
        (Words::Related, Lang::ZhCn) => "相关段落（不是答案）：",
        (Words::Sources, Lang::En) => "Sources",
        (Words::Sources, Lang::ZhCn) => "来源",
    }
}

fn pages(s: &Source, lang: Lang) -> String {
    match (lang, s.page_start == s.page_end) {
        (Lang::En, true) => format!("p. {}", s.page_start),
        (Lang::En, false) => format!("pp. {}–{}", s.page_start, s.page_end),
        (Lang::ZhCn, true) => format!("第 {} 页", s.page_start),
        (Lang::ZhCn, false) => format!("第 {}–{} 页", s.page_start, s.page_end),
    }
}

/// Messages in `lang`, or the stored English words of an answer saved before codes.
fn said(codes: &[Message], english: &[String], lang: Lang) -> Vec<String> {
    if codes.is_empty() {
        english.to_vec()
    } else {
        codes.iter().map(|m| m.text(lang)).collect()
    }
}

fn reasons(s: &SentenceVerdict, lang: Lang) -> Vec<String> {
    said(&s.reason_codes, &s.reasons, lang)
}

/// Why the answer is uncertain or not found, in `lang`.
fn why_not(a: &Answer, lang: Lang) -> String {
    match &a.reason {
        Some(m) => m.text(lang),
        None => a.not_found_reason.clone().unwrap_or_default(),
    }
}

/// Who wrote the answer, when it is not plainly quoted: the model (named), or why the
/// model's answer was not used.
fn origin(a: &Answer, lang: Lang) -> Option<String> {
    if let Some(why) = &a.fallback {
        return Some(why.text(lang));
    }
    if let Some(why) = &a.fallback_reason {
        return Some(why.clone());
    }
    match (a.mode, &a.generation) {
        (super::Mode::Generated, Some(g)) => Some(match lang {
            Lang::En => format!(
                "Written by {} from the passages; every sentence checked.",
                g.model
            ),
            Lang::ZhCn => format!("由 {} 根据段落撰写，每句均已核对。", g.model),
        }),
        _ => None,
    }
}

/// Sources the answer cites, in number order (all sources when it is "not found").
fn cited_sources(a: &Answer) -> Vec<&Source> {
    if a.status == Status::NotFound {
        return a.sources.iter().collect();
    }
    let mut ns: Vec<usize> = a
        .sentences
        .iter()
        .flat_map(|s| s.citations.iter().copied())
        .chain(
            a.sentences
                .iter()
                .filter_map(|s| s.support.as_ref().map(|x| x.n)),
        )
        .collect();
    ns.sort_unstable();
    ns.dedup();
    a.sources.iter().filter(|s| ns.contains(&s.n)).collect()
}

/// Markdown text for a document string: Markdown and HTML syntax in it stays literal.
fn md_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '{' | '}'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The answer as Markdown, its own words in `lang`.
/// The formats an answer is exported in.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    /// Markdown: the answer, its verdicts and the quoted sources.
    Markdown,
    /// A standalone HTML page of the same.
    Html,
}

impl ExportFormat {
    /// The answer in this format, worded in `lang`.
    pub fn export(self, a: &Answer, lang: Lang) -> String {
        match self {
            Self::Markdown => to_markdown(a, lang),
            Self::Html => to_html(a, lang),
        }
    }

    /// The file extension.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Markdown => "md",
            Self::Html => "html",
        }
    }

    /// The format's name, for a file dialog's filter.
    pub fn label(self) -> &'static str {
        match self {
            Self::Markdown => "Markdown",
            Self::Html => "HTML",
        }
    }
}

/// The answer as Markdown.
pub fn to_markdown(a: &Answer, lang: Lang) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", md_escape(&a.question));
    if let Some(o) = origin(a, lang) {
        let _ = writeln!(out, "*{}*\n", md_escape(&o));
    }
    match a.status {
        Status::NotFound => {
            let _ = writeln!(
                out,
                "**{}** {}\n",
                words(Words::NotFound, lang),
                md_escape(&why_not(a, lang))
            );
            if !a.sources.is_empty() {
                let _ = writeln!(out, "{}\n", words(Words::Related, lang));
            }
        }
        Status::Answered | Status::Uncertain => {
            if a.status == Status::Uncertain {
                let _ = writeln!(
                    out,
                    "**{}** {}\n",
                    words(Words::Uncertain, lang),
                    md_escape(&why_not(a, lang))
                );
            }
            for s in &a.sentences {
                let cites: String = s.citations.iter().map(|n| format!("[{n}]")).collect();
                let mark = if s.verdict == Verdict::Supported {
                    String::new()
                } else {
                    format!(
                        " — *{}*",
                        crate::message::verdict_label(s.verdict, &s.reason_codes, lang)
                    )
                };
                // The clause label is where the quote stands, not part of it.
                let location = s
                    .location
                    .as_deref()
                    .map(|l| format!("*{}* ", md_escape(l)))
                    .unwrap_or_default();
                let _ = writeln!(out, "- {location}{}{cites}{mark}", md_escape(&s.text));
                for r in reasons(s, lang) {
                    let _ = writeln!(out, "  - {}", md_escape(&r));
                }
            }
            for n in said(&a.note_codes, &a.notes, lang) {
                let _ = writeln!(out, "\n> {}", md_escape(&n));
            }
            let _ = writeln!(out, "\n## {}\n", words(Words::Sources, lang));
        }
    }
    for s in cited_sources(a) {
        let heading = if s.heading.is_empty() {
            String::new()
        } else {
            format!(" — {}", md_escape(&s.heading))
        };
        let _ = writeln!(
            out,
            "**[{}] {}**{heading} ({}, `{}`)\n",
            s.n,
            md_escape(&s.title),
            pages(s, lang),
            s.doc_path.display()
        );
        for line in s.text.lines() {
            let _ = writeln!(out, "> {}", md_escape(line));
        }
        out.push('\n');
    }
    out
}

fn esc(s: &str) -> String {
    html_escape::encode_text(s).into_owned()
}

const STYLE: &str = "body{font:16px/1.6 system-ui,'Noto Sans CJK SC','WenQuanYi Micro Hei',sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}\
.unsupported{color:#a40e26}.partially_supported{color:#7a4b00}.reason{font-size:.9em;color:#57606a}\
blockquote{border-left:3px solid #d0d7de;margin:0 0 1rem;padding:.25rem 1rem;color:#32383f;white-space:pre-wrap}\
.flag{font-weight:600}.uncertain{color:#7a4b00}sup{color:#0550ae}";

/// The answer as one self-contained HTML page, its own words in `lang`.
pub fn to_html(a: &Answer, lang: Lang) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html><html lang=\"{}\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
         <title>{}</title><style>{STYLE}</style></head><body><h1>{}</h1>",
        match lang {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
        },
        esc(&a.question),
        esc(&a.question)
    );
    if let Some(o) = origin(a, lang) {
        let _ = write!(out, "<p class=\"reason\">{}</p>", esc(&o));
    }
    match a.status {
        Status::NotFound => {
            let _ = write!(
                out,
                "<p><strong>{}</strong> {}</p>",
                words(Words::NotFound, lang),
                esc(&why_not(a, lang))
            );
        }
        Status::Answered | Status::Uncertain => {
            if a.status == Status::Uncertain {
                let _ = write!(
                    out,
                    "<p class=\"uncertain\"><strong>{}</strong> {}</p>",
                    words(Words::Uncertain, lang),
                    esc(&why_not(a, lang))
                );
            }
            out.push_str("<ol class=\"answer\">");
            for s in &a.sentences {
                let class = match s.verdict {
                    Verdict::Supported => "supported",
                    Verdict::PartiallySupported => "partially_supported",
                    Verdict::Unsupported => "unsupported",
                };
                let cites: String = s
                    .citations
                    .iter()
                    .map(|n| format!("<sup>[{n}]</sup>"))
                    .collect();
                // The window's marks: ⚠ for red, ◐ for amber.
                let flag = match s.verdict {
                    Verdict::Supported => String::new(),
                    Verdict::PartiallySupported => format!(
                        " <span class=\"flag\">◐ {}</span>",
                        crate::message::verdict_label(s.verdict, &s.reason_codes, lang)
                    ),
                    Verdict::Unsupported => format!(
                        " <span class=\"flag\">⚠ {}</span>",
                        crate::message::verdict_label(s.verdict, &s.reason_codes, lang)
                    ),
                };
                let location = s
                    .location
                    .as_deref()
                    .map(|l| format!("<span class=\"location\">{}</span> ", esc(l)))
                    .unwrap_or_default();
                let _ = write!(
                    out,
                    "<li class=\"{class}\">{location}{}{cites}{flag}",
                    esc(&s.text)
                );
                for r in reasons(s, lang) {
                    let _ = write!(out, "<div class=\"reason\">{}</div>", esc(&r));
                }
                out.push_str("</li>");
            }
            out.push_str("</ol>");
            for n in said(&a.note_codes, &a.notes, lang) {
                let _ = write!(out, "<p class=\"reason\">{}</p>", esc(&n));
            }
        }
    }
    let _ = write!(out, "<h2>{}</h2>", words(Words::Sources, lang));
    for s in cited_sources(a) {
        let _ = write!(
            out,
            "<p><strong>[{}] {}</strong> {} ({}, <code>{}</code>)</p><blockquote>{}</blockquote>",
            s.n,
            esc(&s.title),
            esc(&s.heading),
            pages(s, lang),
            esc(&s.doc_path.to_string_lossy()),
            esc(&s.text)
        );
    }
    out.push_str("</body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grounding::SentenceVerdict;
    use crate::search::Highlight;
    use crate::{Context, Timings};

    fn answer() -> Answer {
        let text = "<script>alert(1)</script> 报销超过5,000元须审批。";
        Answer {
            status: Status::Answered,
            question: "报销 <b>审批</b>?".into(),
            text: String::new(),
            sentences: vec![SentenceVerdict {
                text: "报销超过8000元须审批。".into(),
                start: 0,
                end: 10,
                citations: vec![1],
                verdict: Verdict::Unsupported,
                reasons: vec!["8000 does not appear in [1]".into()],
                reason_codes: vec![Message::NumberMissing {
                    value: "8000".into(),
                    n: 1,
                }],
                support: None,
                location: Some("第六条".into()),
            }],
            notes: vec![],
            note_codes: vec![],
            reason: None,
            not_found_reason: None,
            retrieval: Default::default(),
            evidence: Default::default(),
            sources: vec![Source {
                n: 1,
                chunk_id: 1,
                doc_id: 1,
                doc_path: "/p/制度.md".into(),
                title: "制度".into(),
                kind: crate::extract::DocumentKind::Markdown,
                heading: "第二章".into(),
                page_start: 1,
                page_end: 1,
                char_start: 0,
                char_end: 10,
                text: text.into(),
                highlight: Highlight {
                    char_start: 0,
                    char_end: 1,
                    passage_char_start: 0,
                    passage_char_end: 1,
                    text: String::new(),
                },
                score: 1.0,
                in_context: true,
                matched_terms: vec![],
                why: Default::default(),
            }],
            context: Context {
                budget_tokens: 1,
                used_tokens: 1,
                included: vec![1],
                neighbours: vec![],
                truncated: vec![],
            },
            timings_ms: Timings::default(),
            mode: super::super::Mode::Extractive,
            fallback: None,
            fallback_reason: None,
            generation: None,
        }
    }

    #[test]
    fn html_escapes_document_text_and_flags_unsupported_sentences() {
        let html = to_html(&answer(), Lang::En);
        assert!(!html.contains("<script>"), "document text is escaped");
        assert!(html.contains("&lt;script&gt;"));
        assert!(!html.contains("<b>审批</b>"), "the question is escaped too");
        assert!(html.contains("class=\"unsupported\""));
        assert!(html.contains("⚠ Not found in the cited passage"), "{html}");
        assert!(html.contains("8000 does not appear in [1]"));
        // Amber is amber in the export too, marked as the window marks it.
        let mut a = answer();
        a.sentences[0].verdict = Verdict::PartiallySupported;
        let html = to_html(&a, Lang::En);
        assert!(html.contains("class=\"partially_supported\""));
        assert!(html.contains("◐ Partly matches the cited passage") && !html.contains("⚠"));
        assert!(to_markdown(&a, Lang::En).contains("*Partly matches the cited passage*"));
        assert!(html.contains("p. 1") && html.contains("第二章"));
    }

    #[test]
    fn an_export_says_a_model_wrote_it_or_why_the_models_answer_was_not_used() {
        let mut a = answer();
        assert!(!to_markdown(&a, Lang::En).contains("Written by"));
        a.mode = super::super::Mode::Generated;
        a.generation = Some(super::super::generated::Generation {
            model: "qwen2.5 (http://127.0.0.1:11434/v1)".into(),
            ..Default::default()
        });
        let md = to_markdown(&a, Lang::En);
        assert!(md.contains("Written by qwen2.5"), "{md}");
        assert!(to_html(&a, Lang::ZhCn).contains("由 qwen2.5"));
        a.mode = super::super::Mode::Extractive;
        a.fallback = Some(Message::ModelStopped);
        assert!(to_markdown(&a, Lang::En).contains("you stopped the model's answer"));
    }

    #[test]
    fn markdown_quotes_cited_passages_with_document_and_page() {
        let md = to_markdown(&answer(), Lang::En);
        assert!(md.contains("[1]"));
        assert!(md.contains("Not found in the cited passage"), "{md}");
        assert!(md.contains("> \\<script\\>"), "{md}");
        assert!(md.contains("p. 1"));
    }

    #[test]
    fn a_chinese_export_says_its_own_words_in_chinese_and_quotes_as_written() {
        let a = answer();
        for out in [to_markdown(&a, Lang::ZhCn), to_html(&a, Lang::ZhCn)] {
            assert!(
                out.contains("引用段落中没有找到"),
                "the verdict in Chinese: {out}"
            );
            assert!(out.contains("中没有 8000"), "the reason in Chinese: {out}");
            assert!(out.contains("来源") && out.contains("第 1 页"), "{out}");
            assert!(
                !out.contains("Sources") && !out.contains("Not found in the cited passage"),
                "{out}"
            );
            assert!(
                out.contains("5,000元须审批。"),
                "the quote as written: {out}"
            );
        }
        let mut old = a.clone();
        old.sentences[0].reason_codes.clear();
        assert!(
            to_markdown(&old, Lang::ZhCn).contains("8000 does not appear in"),
            "an answer stored before reason codes keeps its English reason"
        );
    }
}
