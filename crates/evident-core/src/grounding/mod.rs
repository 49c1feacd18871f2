//! The grounding check: is every sentence of an answer backed by what it cites?
//!
//! Used for every answer, whoever wrote it. For each sentence:
//!
//! 1. Citation markers are parsed ([`citations`]); a number outside the retrieved set
//!    is a fabricated citation.
//! 2. The cited passage must support the sentence: at least [`SUPPORTED_SHARE`] of the
//!    sentence's content words occur in it, every number of the sentence occurs in it
//!    (by value: 5,000 = 5000 = 五千), and the passage sentence that matches best has
//!    the same negation as the claim (不/未/无/禁止/不得/not/no/never).
//! 3. A sentence without a citation is checked against every retrieved passage.
//!
//! The verdict is `supported`, `partially_supported` or `unsupported`, with reasons a
//! person can read and the offsets of the supporting span for highlighting. The check
//! is deliberately lexical and strict: it cannot judge a paraphrase that shares no
//! words with its source, and it flags such sentences rather than guess.

pub mod citations;
pub mod claims;
pub mod qualifiers;

use std::collections::HashSet;

use serde::Serialize;

use crate::message::{Lang, Message};
use crate::search::{Highlight, Passage};
use crate::text::sentence::split_sentences;
use claims::{Claim, negations, token_set};

/// Share of a sentence's content words that must occur in its source to support it.
pub const SUPPORTED_SHARE: f64 = 0.7;
/// Below this share a source does not support the sentence at all.
pub const PARTIAL_SHARE: f64 = 0.4;

/// How well a sentence is backed by its sources.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// A cited (or, if uncited, some retrieved) passage backs the sentence.
    Supported,
    /// Some of it is backed; the reasons say what is not.
    PartiallySupported,
    /// Nothing retrieved backs it (or it cites what was not retrieved).
    Unsupported,
}

/// The passage span that best supports a sentence.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct Support {
    /// Which passage (`[n]`).
    pub n: usize,
    /// Its chunk id.
    pub chunk_id: i64,
    /// The span, in document and passage char offsets.
    #[serde(flatten)]
    pub span: Highlight,
}

/// The verdict on one sentence of an answer.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct SentenceVerdict {
    /// The sentence without its citation markers.
    pub text: String,
    /// Byte range of the sentence (markers included) in the answer.
    pub start: usize,
    /// Byte offset just past the sentence in the answer.
    pub end: usize,
    /// Passage numbers the sentence cites.
    pub citations: Vec<usize>,
    /// The verdict.
    pub verdict: Verdict,
    /// Why, in English words (empty when plainly supported); `reason_codes` says the
    /// same as codes for the user's language.
    pub reasons: Vec<String>,
    /// Why, as message codes (the window and the CLI say them in the user's language).
    #[serde(default)]
    pub reason_codes: Vec<Message>,
    /// The best supporting span, if any passage supports the sentence at least partly.
    pub support: Option<Support>,
    /// Where the quoted sentence stands in its document (its clause label, 第十九条),
    /// for extractive answers; shown beside the quote, not in it.
    #[serde(default)]
    pub location: Option<String>,
}

/// A sentence with the passages it cites, as a composer wrote it: nothing to parse, so
/// brackets inside a quoted source sentence ([2000]8号) are never read as citations.
#[derive(Debug, Clone)]
pub struct CitedSentence {
    /// The sentence.
    pub text: String,
    /// Its byte range in the answer text (with its markers).
    pub start: usize,
    /// Byte offset just past it.
    pub end: usize,
    /// The passages it cites.
    pub citations: Vec<usize>,
}

/// Checks sentences whose citations are known (see [`CitedSentence`]) against the
/// retrieved `passages`, exactly as [`check`] checks parsed ones.
pub fn check_cited(sentences: &[CitedSentence], passages: &[Passage]) -> Vec<SentenceVerdict> {
    let evidence: Vec<Evidence> = passages.iter().map(Evidence::of).collect();
    sentences
        .iter()
        .filter(|s| !s.text.trim().is_empty())
        .map(|s| {
            judge(
                s.text.trim().to_owned(),
                s.start,
                s.end,
                s.citations.clone(),
                passages,
                &evidence,
            )
        })
        .collect()
}

/// How one passage fares against one claim.
struct Assessment {
    verdict: Verdict,
    reasons: Vec<Message>,
    support: Option<Support>,
    share: f64,
}

/// Checks every sentence of `answer` against the retrieved `passages` (whose `n` are
/// the numbers `[n]` refers to).
pub fn check(answer: &str, passages: &[Passage]) -> Vec<SentenceVerdict> {
    // Each passage is segmented once, however many sentences are checked against it.
    let evidence: Vec<Evidence> = passages.iter().map(Evidence::of).collect();
    sentences_with_markers(answer)
        .into_iter()
        .filter_map(|(start, end)| {
            let raw = &answer[start..end];
            let text = citations::strip_markers(raw).trim().to_owned();
            let cited: Vec<usize> = citations::markers(raw)
                .into_iter()
                .flat_map(|m| m.numbers)
                .fold(Vec::new(), |mut v, n| {
                    if !v.contains(&n) {
                        v.push(n);
                    }
                    v
                });
            if text.is_empty() {
                return None;
            }
            Some(judge(text, start, end, cited, passages, &evidence))
        })
        .collect()
}

fn judge(
    text: String,
    start: usize,
    end: usize,
    cited: Vec<usize>,
    passages: &[Passage],
    evidence: &[Evidence],
) -> SentenceVerdict {
    let claim = Claim::of(&text);
    let mut reasons = Vec::new();
    let known = |n: usize| passages.iter().position(|p| p.n == n);
    let fabricated: Vec<usize> = cited
        .iter()
        .copied()
        .filter(|&n| known(n).is_none())
        .collect();
    for n in &fabricated {
        reasons.push(Message::NotRetrieved { n: *n });
    }
    if claim.is_empty() {
        // Nothing to verify ("Yes.", "综上："): it stands or falls with its neighbours.
        let verdict = if fabricated.is_empty() {
            Verdict::Supported
        } else {
            Verdict::Unsupported
        };
        return finish(text, start, end, cited, verdict, reasons, None);
    }
    let valid: Vec<usize> = cited.iter().filter_map(|&n| known(n)).collect();
    let best_of = |indices: &[usize]| -> Option<Assessment> {
        indices
            .iter()
            .map(|&i| assess(&claim, &passages[i], &evidence[i]))
            .max_by(|a, b| {
                rank(a.verdict)
                    .cmp(&rank(b.verdict))
                    .then(a.share.total_cmp(&b.share))
            })
    };
    let all: Vec<usize> = (0..passages.len()).collect();
    let (mut verdict, support) = if let Some(best) = best_of(&valid) {
        if best.verdict != Verdict::Supported
            && let Some(other) = best_of(&all).filter(|o| o.verdict == Verdict::Supported)
            && let Some(s) = &other.support
            && !valid.iter().any(|&i| passages[i].n == s.n)
        {
            reasons.push(Message::SupportedByOther {
                support: s.n,
                cites: valid.iter().map(|&i| passages[i].n).collect(),
            });
        }
        reasons.extend(best.reasons);
        (best.verdict, best.support)
    } else if !fabricated.is_empty() {
        (Verdict::Unsupported, None)
    } else {
        match best_of(&all) {
            Some(best) if best.verdict != Verdict::Unsupported => {
                if let Some(s) = &best.support {
                    reasons.push(Message::UncitedButSupported { n: s.n });
                }
                reasons.extend(best.reasons);
                (best.verdict, best.support)
            }
            Some(best) if best.share >= PARTIAL_SHARE => {
                // Close to a passage but contradicted by it (a number, a negation):
                // say where and why.
                reasons.push(Message::UncitedUnsupported);
                reasons.extend(best.reasons);
                (Verdict::Unsupported, best.support)
            }
            _ => {
                reasons.push(Message::UncitedUnsupported);
                (Verdict::Unsupported, None)
            }
        }
    };
    if !fabricated.is_empty() && verdict == Verdict::Supported {
        verdict = Verdict::PartiallySupported;
    }
    finish(text, start, end, cited, verdict, reasons, support)
}

fn finish(
    text: String,
    start: usize,
    end: usize,
    citations: Vec<usize>,
    verdict: Verdict,
    reasons: Vec<Message>,
    support: Option<Support>,
) -> SentenceVerdict {
    SentenceVerdict {
        text,
        start,
        end,
        citations,
        verdict,
        reasons: reasons.iter().map(|r| r.text(Lang::En)).collect(),
        reason_codes: reasons,
        support,
        location: None,
    }
}

fn rank(v: Verdict) -> u8 {
    match v {
        Verdict::Unsupported => 0,
        Verdict::PartiallySupported => 1,
        Verdict::Supported => 2,
    }
}

/// What a passage offers as evidence, segmented once per check.
struct Evidence {
    /// Index tokens of the passage and its headings.
    tokens: HashSet<String>,
    /// Byte ranges of its sentences (units).
    sentences: Vec<(usize, usize)>,
    /// Index tokens of each sentence.
    sentence_tokens: Vec<HashSet<String>>,
    /// Every number value in the passage.
    numbers: Vec<String>,
}

fn number_values(text: &str) -> Vec<String> {
    crate::text::numbers::numbers_in(text)
        .into_iter()
        .map(|m| m.value)
        .collect()
}

impl Evidence {
    fn of(p: &Passage) -> Self {
        let mut tokens = token_set(&p.text);
        tokens.extend(token_set(&p.heading_path.join(" ")));
        let sentences = crate::text::sentence::split_units(&p.text);
        Self {
            tokens,
            sentence_tokens: sentences
                .iter()
                .map(|&(s, e)| token_set(&p.text[s..e]))
                .collect(),
            sentences,
            numbers: number_values(&p.text),
        }
    }
}

/// Judges `claim` against one passage.
fn assess(claim: &Claim, passage: &Passage, evidence: &Evidence) -> Assessment {
    let n = passage.n;
    let tokens = &evidence.tokens;
    let mut reasons = Vec::new();
    let found = claim.terms.iter().filter(|t| tokens.contains(*t)).count();
    let share = if claim.terms.is_empty() {
        1.0
    } else {
        found as f64 / claim.terms.len() as f64
    };
    // The passage sentence sharing most words with the claim, with one neighbour on
    // each side: the span shown as support and compared for negation.
    let sentences = &evidence.sentences;
    let mut best = (0usize, 0usize);
    for (i, t) in evidence.sentence_tokens.iter().enumerate() {
        let c = claim.terms.iter().filter(|x| t.contains(*x)).count();
        if c > best.1 {
            best = (i, c);
        }
    }
    let span = sentences.get(best.0).copied();
    let passage_numbers = &evidence.numbers;
    // Numbers are compared where the claim is stated: the matching sentence and its
    // neighbours. A number found only elsewhere in the passage (a year in another
    // clause) does not back this sentence.
    let window_numbers = match (span, sentences.len()) {
        (Some(_), len) if len > 0 => {
            let lo = best.0.saturating_sub(1);
            let hi = (best.0 + 1).min(len - 1);
            number_values(&passage.text[sentences[lo].0..sentences[hi].1])
        }
        _ => passage_numbers.clone(),
    };
    let mut missing_numbers = Vec::new();
    let mut misplaced_numbers = Vec::new();
    for v in &claim.references {
        if !passage_numbers.contains(v) {
            reasons.push(Message::ClauseNumberMissing {
                value: v.clone(),
                n,
            });
            missing_numbers.push(v);
        }
    }
    for v in &claim.numbers {
        if window_numbers.contains(v) {
            continue;
        }
        if passage_numbers.contains(v) {
            reasons.push(Message::NumberMisplaced {
                value: v.clone(),
                n,
            });
            misplaced_numbers.push(v);
        } else {
            reasons.push(Message::NumberMissing {
                value: v.clone(),
                n,
            });
            missing_numbers.push(v);
        }
    }
    let mut negation_mismatch = false;
    if let Some((s, e)) = span {
        let source_neg = negations(&passage.text[s..e]);
        if (claim.negations == 0) != (source_neg == 0) {
            negation_mismatch = true;
            let source = &passage.text[s..e];
            reasons.push(if claim.negations > 0 {
                Message::NegatesSource { n }
            } else if let Some(condition) = claims::bounded_condition(source) {
                Message::OnlyUnderCondition { n, condition }
            } else {
                Message::SourceNegative { n }
            });
        }
    }
    let qualified = qualifiers::mismatches(claim, &passage.text);
    for (source_word, claim_word) in &qualified {
        reasons.push(Message::QualifierMismatch {
            n,
            source_word: source_word.clone(),
            claim_word: claim_word.clone(),
        });
    }
    let verdict = if share < PARTIAL_SHARE
        || !missing_numbers.is_empty()
        || negation_mismatch
        || !qualified.is_empty()
    {
        if share < PARTIAL_SHARE {
            reasons.push(Message::FewKeyWords {
                found,
                total: claim.terms.len(),
                n,
            });
        }
        Verdict::Unsupported
    } else if share < SUPPORTED_SHARE || !misplaced_numbers.is_empty() {
        if share < SUPPORTED_SHARE {
            reasons.push(Message::SomeKeyWords {
                found,
                total: claim.terms.len(),
                n,
            });
        }
        Verdict::PartiallySupported
    } else {
        Verdict::Supported
    };
    let support = span.filter(|_| share >= PARTIAL_SHARE).map(|(s, e)| {
        let before = passage.text[..s].chars().count();
        let len = passage.text[s..e].chars().count();
        Support {
            n,
            chunk_id: passage.chunk_id,
            span: Highlight::of(passage, before, len, &passage.text[s..e]),
        }
    });
    Assessment {
        verdict,
        reasons,
        support,
        share,
    }
}

/// Byte ranges of the claims (sentences) [`check`] judges in `text`, markers kept with
/// the sentence they follow.
pub fn claim_spans(text: &str) -> Vec<(usize, usize)> {
    sentences_with_markers(text)
}

/// Sentence ranges of an answer, with citation markers that follow a sentence's end
/// (`…审批。[1]`) kept with that sentence.
fn sentences_with_markers(answer: &str) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (s, e) in split_sentences(answer) {
        let only_markers = citations::strip_markers(&answer[s..e]).trim().is_empty();
        match out.last_mut() {
            Some(last) if only_markers => last.1 = e,
            _ => out.push((s, e)),
        }
    }
    // A marker right after a terminator may have been split off into the next sentence:
    // "…审批。[1] 其次…" — move leading markers back.
    let mut fixed: Vec<(usize, usize)> = Vec::with_capacity(out.len());
    for (s, e) in out {
        let text = &answer[s..e];
        let lead = citations::markers(text)
            .into_iter()
            .take_while(|m| text[..m.start].trim().is_empty())
            .last()
            .map(|m| m.end);
        match (lead, fixed.last_mut()) {
            (Some(l), Some(prev)) => {
                prev.1 = s + l;
                if !text[l..].trim().is_empty() {
                    fixed.push((s + l, e));
                }
            }
            _ => fixed.push((s, e)),
        }
    }
    fixed
}

#[cfg(test)]
mod tests;
