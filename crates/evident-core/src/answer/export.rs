//! Exporting an answer: the question, every sentence with its verdict, and every cited
//! passage quoted with its document, page and heading, as Markdown or as one
//! self-contained HTML file (inline style, no script, every document text escaped).

use std::fmt::Write;

use super::{Answer, Source, Status};
use crate::grounding::Verdict;

fn verdict_label(v: Verdict) -> &'static str {
    match v {
        Verdict::Supported => "supported",
        Verdict::PartiallySupported => "partially supported",
        Verdict::Unsupported => "NOT SUPPORTED",
    }
}

fn pages(s: &Source) -> String {
    if s.page_start == s.page_end {
        format!("p. {}", s.page_start)
    } else {
        format!("pp. {}–{}", s.page_start, s.page_end)
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

/// The answer as Markdown.
pub fn to_markdown(a: &Answer) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", md_escape(&a.question));
    match a.status {
        Status::NotFound => {
            let _ = writeln!(
                out,
                "**Not found in your documents.** {}\n",
                md_escape(a.not_found_reason.as_deref().unwrap_or(""))
            );
            if !a.sources.is_empty() {
                let _ = writeln!(out, "Related, but not an answer:\n");
            }
        }
        Status::Answered | Status::Uncertain => {
            if a.status == Status::Uncertain {
                let _ = writeln!(
                    out,
                    "**Uncertain: these are the closest passages; they may not answer the question.** {}\n",
                    md_escape(a.not_found_reason.as_deref().unwrap_or(""))
                );
            }
            for s in &a.sentences {
                let cites: String = s.citations.iter().map(|n| format!("[{n}]")).collect();
                let mark = if s.verdict == Verdict::Supported {
                    String::new()
                } else {
                    format!(" — *{}*", verdict_label(s.verdict))
                };
                // The clause label is where the quote stands, not part of it.
                let location = s
                    .location
                    .as_deref()
                    .map(|l| format!("*{}* ", md_escape(l)))
                    .unwrap_or_default();
                let _ = writeln!(out, "- {location}{}{cites}{mark}", md_escape(&s.text));
                for r in &s.reasons {
                    let _ = writeln!(out, "  - {}", md_escape(r));
                }
            }
            for n in &a.notes {
                let _ = writeln!(out, "\n> {}", md_escape(n));
            }
            let _ = writeln!(out, "\n## Sources\n");
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
            pages(s),
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

/// The answer as one self-contained HTML page.
pub fn to_html(a: &Answer) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
         <title>{}</title><style>{STYLE}</style></head><body><h1>{}</h1>",
        esc(&a.question),
        esc(&a.question)
    );
    match a.status {
        Status::NotFound => {
            let _ = write!(
                out,
                "<p><strong>Not found in your documents.</strong> {}</p>",
                esc(a.not_found_reason.as_deref().unwrap_or(""))
            );
        }
        Status::Answered | Status::Uncertain => {
            if a.status == Status::Uncertain {
                let _ = write!(
                    out,
                    "<p class=\"uncertain\"><strong>Uncertain: these are the closest passages; they may not answer the question.</strong> {}</p>",
                    esc(a.not_found_reason.as_deref().unwrap_or(""))
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
                let flag = if s.verdict == Verdict::Supported {
                    String::new()
                } else {
                    format!(
                        " <span class=\"flag\">⚠ {}</span>",
                        verdict_label(s.verdict)
                    )
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
                for r in &s.reasons {
                    let _ = write!(out, "<div class=\"reason\">{}</div>", esc(r));
                }
                out.push_str("</li>");
            }
            out.push_str("</ol>");
            for n in &a.notes {
                let _ = write!(out, "<p class=\"reason\">{}</p>", esc(n));
            }
        }
    }
    out.push_str("<h2>Sources</h2>");
    for s in cited_sources(a) {
        let _ = write!(
            out,
            "<p><strong>[{}] {}</strong> {} ({}, <code>{}</code>)</p><blockquote>{}</blockquote>",
            s.n,
            esc(&s.title),
            esc(&s.heading),
            pages(s),
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
    use crate::answer::{Context, Timings};
    use crate::grounding::SentenceVerdict;
    use crate::search::Highlight;

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
                reason_codes: vec![],
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
                kind: "markdown".into(),
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
        }
    }

    #[test]
    fn html_escapes_document_text_and_flags_unsupported_sentences() {
        let html = to_html(&answer());
        assert!(!html.contains("<script>"), "document text is escaped");
        assert!(html.contains("&lt;script&gt;"));
        assert!(!html.contains("<b>审批</b>"), "the question is escaped too");
        assert!(html.contains("class=\"unsupported\""));
        assert!(html.contains("8000 does not appear in [1]"));
        assert!(html.contains("p. 1") && html.contains("第二章"));
    }

    #[test]
    fn markdown_quotes_cited_passages_with_document_and_page() {
        let md = to_markdown(&answer());
        assert!(md.contains("[1]"));
        assert!(md.contains("NOT SUPPORTED"));
        assert!(md.contains("> \\<script\\>"), "{md}");
        assert!(md.contains("p. 1"));
    }
}
