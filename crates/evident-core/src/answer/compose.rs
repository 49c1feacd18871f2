//! The extractive composer: an answer made of the sources' own best sentences.
//!
//! No model is needed and nothing is invented: each answer sentence is a sentence of a
//! retrieved passage, followed by its citation. Sentences are scored by how much of the
//! question they cover (IDF-weighted, as in ranking), with a bonus for holding a number
//! when the question asks for one or the numbers the question names; the best comes
//! first (conclusion first), then up to three more that add something. A sentence inside
//! a clause keeps the clause label (第十二条) so it reads right on its own. When two
//! documents give different numbers for the same thing, both are shown and a note says
//! they differ.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use crate::grounding::claims::Claim;
use crate::search::rank::coverage;
use crate::search::{Passage, Query};
use crate::text::numbers::numbers_in;
use crate::text::segment::passage_tokens;
use crate::text::sentence::split_units;

/// Most sentences in an extractive answer.
pub const MAX_SENTENCES: usize = 4;
/// A sentence must cover at least this share of the question to be used.
const MIN_SENTENCE_COVERAGE: f64 = 0.2;
/// Later sentences must score at least this share of the best one.
const FOLLOW_UP_SHARE: f64 = 0.6;

static CLAUSE_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^\s*(第\s*[零〇一二三四五六七八九十百千两0-9]+\s*条)").expect("valid regex")
});

/// One sentence of a drafted answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The sentence (from the source, possibly with its clause label in front).
    pub text: String,
    /// The passage it comes from (`[n]`).
    pub n: usize,
}

/// A drafted answer: its sentences and notes for the reader.
#[derive(Debug, Clone, Default)]
pub struct Drafted {
    /// Answer sentences, best first.
    pub sentences: Vec<Draft>,
    /// Notes that are not claims (e.g. that two sources differ).
    pub notes: Vec<String>,
}

struct Candidate {
    text: String,
    n: usize,
    doc_id: i64,
    score: f64,
    numbers: Vec<String>,
    terms: HashSet<String>,
    /// Every number in the candidate's passage.
    passage_numbers: HashSet<String>,
}

/// Drafts an answer to `query` from `passages` (already limited to the context).
pub fn compose(query: &Query, weights: &[f64], passages: &[&Passage]) -> Drafted {
    let mut candidates = Vec::new();
    for (rank, p) in passages.iter().enumerate() {
        let passage_numbers: HashSet<String> =
            numbers_in(&p.text).into_iter().map(|m| m.value).collect();
        let labels: Vec<(usize, &str)> = CLAUSE_LABEL
            .captures_iter(&p.text)
            .filter_map(|c| c.get(1))
            .map(|m| (m.start(), m.as_str()))
            .collect();
        for (s, e) in split_units(&p.text) {
            let sentence = p.text[s..e].trim();
            if sentence.chars().count() < 4 || is_heading(sentence, &p.heading_path) {
                continue;
            }
            let tokens = passage_tokens(sentence);
            let set: HashSet<&str> = tokens.iter().map(String::as_str).collect();
            let (cov, _) = coverage(query, weights, &set);
            if cov < MIN_SENTENCE_COVERAGE {
                continue;
            }
            let numbers: Vec<String> = numbers_in(sentence).into_iter().map(|m| m.value).collect();
            let mut score = cov - 0.03 * rank as f64;
            if query.asks_number && !numbers.is_empty() {
                score += 0.2;
            }
            if query.numbers.iter().any(|v| numbers.contains(v)) {
                score += 0.2;
            }
            // Square brackets of the source ([2000]8号) must not read as citations.
            let quoted = sentence
                .replace('\n', " ")
                .replace('[', "［")
                .replace(']', "］");
            // The clause a sentence belongs to: the last label before it, unless the
            // sentence opens with its own.
            let label = labels.iter().rev().find(|(at, _)| *at < s).map(|(_, l)| *l);
            let text = match label {
                Some(l) if !CLAUSE_LABEL.is_match(sentence) => format!("{l} {quoted}"),
                _ => quoted,
            };
            candidates.push(Candidate {
                terms: Claim::of(sentence).terms.into_iter().collect(),
                text,
                n: p.n,
                doc_id: p.doc_id,
                score,
                numbers,
                passage_numbers: passage_numbers.clone(),
            });
        }
    }
    candidates.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.n.cmp(&b.n)));
    let mut drafted = Drafted::default();
    let Some(best) = candidates.first() else {
        return drafted;
    };
    let floor = best.score * FOLLOW_UP_SHARE;
    let mut chosen: Vec<&Candidate> = Vec::new();
    for c in &candidates {
        if chosen.len() >= MAX_SENTENCES || c.score < floor {
            break;
        }
        if chosen.iter().any(|x| similarity(&x.terms, &c.terms) > 0.8) {
            continue;
        }
        chosen.push(c);
    }
    // Two documents, same subject, different numbers: show both, say so. Only when
    // the other passage does not state the lead's numbers too (then the two documents
    // agree, and the other sentence is about something else).
    let lead = chosen[0];
    if !lead.numbers.is_empty()
        && let Some(other) = candidates.iter().find(|c| {
            c.doc_id != lead.doc_id
                && !c.numbers.is_empty()
                && c.numbers != lead.numbers
                && !lead.numbers.iter().all(|v| c.passage_numbers.contains(v))
                && similarity(&c.terms, &lead.terms) >= 0.5
                && c.score >= lead.score * 0.5
        })
    {
        if !chosen.iter().any(|c| std::ptr::eq(*c, other)) {
            if chosen.len() >= MAX_SENTENCES {
                chosen.pop();
            }
            chosen.insert(1, other);
        }
        let zh = query.text.chars().any(crate::text::normalize::is_cjk);
        drafted.notes.push(if zh {
            format!(
                "注意：[{}] 与 [{}] 来自不同文件，数字不一致，请核对两处原文。",
                lead.n, other.n
            )
        } else {
            format!(
                "Note: [{}] and [{}] come from different documents and give different numbers; check both.",
                lead.n, other.n
            )
        });
    }
    drafted.sentences = chosen
        .into_iter()
        .map(|c| Draft {
            text: c.text.clone(),
            n: c.n,
        })
        .collect();
    drafted
}

/// A heading line says what a section is about, not what the policy says.
fn is_heading(unit: &str, headings: &[String]) -> bool {
    use crate::extract::structure::{LineRole, line_role};
    let ends = unit.chars().last().is_some_and(|c| {
        matches!(
            c,
            '。' | '！' | '？' | '；' | '.' | '!' | '?' | ';' | '：' | ':'
        )
    });
    headings.iter().any(|h| h.trim() == unit)
        || matches!(line_role(unit), LineRole::Heading(_))
        || (!ends && unit.chars().count() <= 40 && !unit.chars().any(|c| c == '，' || c == ','))
}

/// Share of the smaller term set found in the other.
fn similarity(a: &HashSet<String>, b: &HashSet<String>) -> f64 {
    let small = a.len().min(b.len());
    if small == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f64 / small as f64
}

/// A draft sentence with its citation mark before the closing punctuation:
/// `须经分管副总经理审批[1]。`
pub fn with_citation(d: &Draft) -> String {
    let text = d.text.trim_end();
    let is_end = |c: char| matches!(c, '。' | '！' | '？' | '；' | '.' | '!' | '?' | ';');
    let closing = |c: char| matches!(c, '”' | '"' | '’' | '）' | ')' | '」' | '』');
    // The closing run ("。", ".”", ")."): the mark goes before its first terminator.
    let run = text.len()
        - text
            .trim_end_matches(|c: char| is_end(c) || closing(c))
            .len();
    let tail_start = text.len() - run;
    match text[tail_start..].find(is_end) {
        Some(i) => format!(
            "{}[{}]{}",
            &text[..tail_start + i],
            d.n,
            &text[tail_start + i..]
        ),
        None => format!("{text}[{}]", d.n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Aliases, test_passage};

    fn draft(question: &str, passages: &[Passage]) -> Drafted {
        let q = Query::analyse(question, &Aliases::default());
        let weights = vec![1.0; q.terms.len()];
        compose(&q, &weights, &passages.iter().collect::<Vec<_>>())
    }

    #[test]
    fn documents_that_disagree_on_a_number_are_both_quoted_with_a_note() {
        let d = draft(
            "报销超过多少需要副总审批",
            &[
                test_passage(
                    1,
                    1,
                    "第四条 单笔报销超过20,000元的，须经分管副总经理审批。",
                ),
                test_passage(
                    2,
                    2,
                    "第六条 单笔报销超过50,000元的，须经分管副总经理审批。",
                ),
            ],
        );
        let cited: Vec<usize> = d.sentences.iter().map(|s| s.n).collect();
        assert!(cited.contains(&1) && cited.contains(&2), "{d:?}");
        assert_eq!(d.notes.len(), 1, "{d:?}");
        assert!(d.notes[0].contains("[1]") && d.notes[0].contains("[2]"));
    }

    #[test]
    fn copies_of_one_document_are_not_a_disagreement() {
        let text =
            "Birthing parents receive 16 weeks of leave. Other parents receive 8 weeks of leave.";
        let d = draft(
            "How many weeks of leave do birthing parents receive?",
            &[test_passage(1, 1, text), test_passage(2, 2, text)],
        );
        assert!(d.notes.is_empty(), "{:?}", d.notes);
        assert_eq!(
            d.sentences[0].text,
            "Birthing parents receive 16 weeks of leave."
        );
        let texts: Vec<&str> = d.sentences.iter().map(|s| s.text.as_str()).collect();
        let unique: HashSet<&str> = texts.iter().copied().collect();
        assert_eq!(texts.len(), unique.len(), "no sentence twice: {texts:?}");
    }

    #[test]
    fn the_mark_goes_before_the_closing_punctuation() {
        let d = |t: &str| Draft {
            text: t.into(),
            n: 2,
        };
        assert_eq!(with_citation(&d("须经审批。")), "须经审批[2]。");
        assert_eq!(
            with_citation(&d("Approval is needed.")),
            "Approval is needed[2]."
        );
        assert_eq!(with_citation(&d("见附件（一）")), "见附件（一）[2]");
        assert_eq!(with_citation(&d("Expenses (M&IE).")), "Expenses (M&IE)[2].");
        assert_eq!(
            with_citation(&d("他说：“须经审批。”")),
            "他说：“须经审批[2]。”"
        );
    }
}
