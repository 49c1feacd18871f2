//! The grounding check: is every sentence of an answer backed by what it cites?
//! (Its own crate, `evident-check`, on top of the index's passages and the words; the
//! core's answers call it, and the core re-exports it as `evident_core::grounding`.)
//!
//! Used for every answer, whoever wrote it. For each sentence:
//!
//! 1. Citation markers are parsed ([`citations`]); a number outside the retrieved set
//!    is a fabricated citation.
//! 2. The cited passage must support the sentence, judged in the clause the sentence
//!    aligns to ([`align`]): at least [`SUPPORTED_SHARE`] of the sentence's content
//!    words occur there, every number is there with its unit, bound and condition
//!    ([`bindings`]), and neither denies what the other states ([`negation`]).
//! 3. A sentence without a citation is checked against every retrieved passage.
//!
//! The verdict is `supported`, `partially_supported` or `unsupported`, with reasons a
//! person can read and the offsets of the supporting span for highlighting. The check
//! is deliberately lexical and strict: it cannot judge a paraphrase that shares no
//! words with its source, and it flags such sentences rather than guess.
//!
//! The three verdicts are the colours a reader sees, and each must mean what it says:
//! - **Green** (`supported`): the sentence's key words are in the clause it aligns to,
//!   and every number there with its unit and bound, paired with its own words
//!   ([`pairing`]), each position in a numbered list its own item's, every actor with
//!   its own duty (the doer's slot, [`doers`]), modality per part and negation as the
//!   clause states them. Found somewhere in the passage is not enough.
//! - **Red** (`unsupported`) only on hard evidence: a value, unit, bound, tier, actor,
//!   modality or polarity that contradicts the clause the sentence plainly speaks of; a
//!   citation outside the retrieved set; a passage that hardly relates to the sentence
//!   (under [`UNRELATED_SHARE`] of its key words) with nothing else retrieved that does.
//!   Uncited, a contradiction stays red unless another passage fully supports the
//!   sentence: partial support elsewhere does not soften it.
//! - **Amber** (`partially_supported`) for what the words cannot settle: key words
//!   missing, a paraphrase it cannot align, a number stated in another clause or nowhere
//!   with nothing of its kind to contradict (a made-up number and a unit the check does
//!   not read look the same), a condition of the source left out, a word of scope
//!   (所有, 只要, regardless, only) the clause does not use, two passages that disagree.

mod align;
mod bindings;
pub mod citations;
pub mod claims;
mod clauses;
mod doers;
mod modality;
pub mod negation;
mod pairing;
mod qualifiers;
mod roles;

use serde::Serialize;

use align::Evidence;
use claims::Claim;
use evident_index::search::{Highlight, Passage};
use evident_text::sentence::split_sentences;
use evident_words::message::{Lang, Message};

/// Share of a sentence's content words that must occur in its source to support it.
pub const SUPPORTED_SHARE: f64 = 0.7;
/// Below this share a source supports the sentence too little to be partial support:
/// it is shown amber only when nothing contradicts it (a paraphrase the words cannot
/// align), and a contradiction found there is not hard evidence.
pub const PARTIAL_SHARE: f64 = 0.4;
/// Below this share the passage does not relate to the sentence: red.
pub const UNRELATED_SHARE: f64 = 0.25;

pub use evident_words::verdict::Verdict;

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
    /// The passage assessed.
    n: usize,
    verdict: Verdict,
    reasons: Vec<Message>,
    support: Option<Support>,
    /// Share of the claim's key words found where it aligns.
    share: f64,
    /// How well the claim aligns to its clause (how relevant the passage is).
    score: f64,
    /// Relevant (most key words found) and contradicted by a binding.
    contradicted: bool,
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
            let text = citations::strip_markers(raw);
            // A list item's marker is the list's, not the claim's ("2. Travel …").
            let text = text.trim();
            let text = text[list_marker_len(text)..].trim().to_owned();
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

/// Judges one sentence; a sentence that joins two statements ("…15天；难产的，再增加15天",
/// "…, and if repairs exceed that, …") and is not supported as a whole is supported when
/// each of its statements is, each in its own clause ([`Claim::statements`]).
fn judge(
    text: String,
    start: usize,
    end: usize,
    cited: Vec<usize>,
    passages: &[Passage],
    evidence: &[Evidence],
) -> SentenceVerdict {
    // The sentence is analysed once; its statements only when it joins several.
    let claim = Claim::of(&text);
    let whole = judge_whole(&claim, start, end, cited, passages, evidence);
    let parts = claim.statements();
    if parts.is_empty() {
        return whole;
    }
    let judge_part = |part: &Claim| {
        judge_whole(
            part,
            start,
            end,
            whole.citations.clone(),
            passages,
            evidence,
        )
    };
    if whole.verdict == Verdict::Supported {
        // Supported as a whole (two clauses read together), yet one statement, read
        // in its own clause, is contradicted there: the numbers of two tiers swapped
        // ("提前三天通知…五天前提出" for 五日 and 三日).
        let contradicted = parts.iter().find_map(|part| {
            let v = judge_part(part);
            // Only where the whole was read: a statement aligned elsewhere on its
            // own says nothing about the clauses the sentence was judged in.
            let inside = match (&v.support, &whole.support) {
                (Some(p), Some(w)) => {
                    p.chunk_id == w.chunk_id
                        && p.span.passage_char_start >= w.span.passage_char_start
                        && p.span.passage_char_end <= w.span.passage_char_end
                }
                _ => false,
            };
            (inside
                && v.verdict == Verdict::Unsupported
                && v.reason_codes.iter().any(Message::is_contradiction))
            .then_some(v)
        });
        return match contradicted {
            Some(v) => SentenceVerdict {
                verdict: Verdict::PartiallySupported,
                reasons: v.reasons,
                reason_codes: v.reason_codes,
                support: v.support.or(whole.support),
                ..whole
            },
            None => whole,
        };
    }
    let mut support: Option<Support> = None;
    for part in &parts {
        let v = judge_part(part);
        if v.verdict != Verdict::Supported
            || v.reason_codes
                .iter()
                .any(|r| matches!(r, Message::NotRetrieved { .. }))
        {
            return whole;
        }
        // The span shown: the first statement's, widened over the others' in the same
        // passage.
        match (&mut support, v.support) {
            (None, s) => support = s,
            (Some(a), Some(b)) if a.chunk_id == b.chunk_id => widen(a, &b, passages),
            _ => {}
        }
    }
    SentenceVerdict {
        verdict: Verdict::Supported,
        reasons: Vec::new(),
        reason_codes: Vec::new(),
        support,
        ..whole
    }
}

/// Widens `a` to cover `b` too (both in one passage).
fn widen(a: &mut Support, b: &Support, passages: &[Passage]) {
    let Some(p) = passages.iter().find(|p| p.n == a.n) else {
        return;
    };
    let from = a.span.passage_char_start.min(b.span.passage_char_start);
    let to = a.span.passage_char_end.max(b.span.passage_char_end);
    let text: String = p.text.chars().skip(from).take(to - from).collect();
    a.span = Highlight::of(p, from, to - from, &text);
}

fn judge_whole(
    claim: &Claim,
    start: usize,
    end: usize,
    cited: Vec<usize>,
    passages: &[Passage],
    evidence: &[Evidence],
) -> SentenceVerdict {
    let text = claim.text.clone();
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
            .map(|&i| assess(claim, &passages[i], &evidence[i]))
            .max_by(better)
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
        judge_uncited(claim, passages, evidence, &mut reasons)
    };
    if !fabricated.is_empty() && verdict == Verdict::Supported {
        verdict = Verdict::PartiallySupported;
    }
    finish(text, start, end, cited, verdict, reasons, support)
}

/// Which of two assessments is the stronger support: verdict, then share of key words,
/// then score.
fn better(a: &Assessment, b: &Assessment) -> std::cmp::Ordering {
    rank(a.verdict)
        .cmp(&rank(b.verdict))
        .then(a.share.total_cmp(&b.share))
        .then(a.score.total_cmp(&b.score))
}

/// The verdict on a sentence that cites nothing usable: the best of all the retrieved
/// passages, unless a relevant passage contradicts it (then a conflict, or red).
fn judge_uncited(
    claim: &Claim,
    passages: &[Passage],
    evidence: &[Evidence],
    reasons: &mut Vec<Message>,
) -> (Verdict, Option<Support>) {
    let all: Vec<usize> = (0..passages.len()).collect();
    // Each passage is assessed once: the best one is the verdict, the others may
    // contradict it.
    let mut assessed: Vec<Assessment> = all
        .iter()
        .map(|&i| assess(claim, &passages[i], &evidence[i]))
        .collect();
    let best = (0..assessed.len())
        .max_by(|&a, &b| better(&assessed[a], &assessed[b]))
        .map(|i| assessed.remove(i));
    // A relevant passage that contradicts the claim is not hidden by support
    // elsewhere: the weaker support is reported as a conflict.
    let conflict = |best: &Assessment| {
        assessed
            .iter()
            .find(|a| a.contradicted && a.score >= best.score)
    };
    match best {
        Some(best) if best.verdict != Verdict::Unsupported => {
            let mut verdict = best.verdict;
            let mut shown = best.support.clone();
            if let Some(s) = &best.support {
                match conflict(&best) {
                    Some(other) => {
                        reasons.push(Message::Conflict {
                            support: s.n,
                            contradicts: other.n,
                        });
                        reasons.extend(other.reasons.iter().cloned());
                        // Only full support elsewhere makes it a disagreement
                        // between passages (amber); partial support, or a passage
                        // sharing few key words, is no support to set against a
                        // relevant one that contradicts: red.
                        verdict =
                            if best.verdict == Verdict::Supported && best.share >= PARTIAL_SHARE {
                                Verdict::PartiallySupported
                            } else {
                                // A red sentence shows the clause it contradicts.
                                if other.support.is_some() {
                                    shown = other.support.clone();
                                }
                                Verdict::Unsupported
                            };
                    }
                    None => reasons.push(Message::UncitedButSupported { n: s.n }),
                }
            }
            reasons.extend(best.reasons);
            (verdict, shown)
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

/// Judges `claim` against one passage: aligned to its clause, then compared there.
fn assess(claim: &Claim, passage: &Passage, evidence: &Evidence) -> Assessment {
    let n = passage.n;
    let total = claim.terms.len();
    let Some(aligned) = evidence.align(claim) else {
        return Assessment {
            n,
            verdict: Verdict::Unsupported,
            reasons: vec![Message::FewKeyWords { found: 0, total, n }],
            support: None,
            share: 0.0,
            score: 0.0,
            contradicted: false,
        };
    };
    let found = aligned.found;
    let share = aligned.share;
    let findings = bindings::compare(claim, evidence, &aligned, n);
    let contradicted = !findings.hard.is_empty();
    let mut reasons = findings.hard;
    // Red only on hard evidence: a contradiction in a clause the sentence plainly speaks
    // of, or a passage that hardly relates to it. A paraphrase the words cannot align
    // (few key words, nothing contradicted) is amber: the reader should look.
    let verdict = if share < UNRELATED_SHARE || (contradicted && share >= PARTIAL_SHARE) {
        if share < PARTIAL_SHARE {
            reasons.push(Message::FewKeyWords { found, total, n });
        }
        Verdict::Unsupported
    } else if share < PARTIAL_SHARE {
        reasons.extend(findings.soft);
        reasons.push(Message::FewKeyWords { found, total, n });
        Verdict::PartiallySupported
    } else if share < SUPPORTED_SHARE || !findings.soft.is_empty() {
        reasons.extend(findings.soft);
        if share < SUPPORTED_SHARE {
            reasons.push(Message::SomeKeyWords { found, total, n });
        }
        Verdict::PartiallySupported
    } else {
        Verdict::Supported
    };
    let (s, e) = aligned.span(evidence);
    let support = (share >= UNRELATED_SHARE).then(|| {
        let before = passage.text[..s].chars().count();
        let len = passage.text[s..e].chars().count();
        Support {
            n,
            chunk_id: passage.chunk_id,
            span: Highlight::of(passage, before, len, &passage.text[s..e]),
        }
    });
    Assessment {
        n,
        verdict,
        reasons,
        support,
        share,
        score: aligned.score,
        contradicted: contradicted && share >= SUPPORTED_SHARE,
    }
}

/// Byte ranges of the claims (sentences) [`check`] judges in `text`, markers kept with
/// the sentence they follow.
pub fn claim_spans(text: &str) -> Vec<(usize, usize)> {
    sentences_with_markers(text)
}

/// Sentence ranges of an answer, with citation markers that follow a sentence's end
/// (`…审批。[1]`) kept with that sentence.
/// Byte ranges of `answer`'s blocks: a blank line, or a line break before a list item
/// ("1. …", "- …", "(2) …"), ends a block whatever its last sentence ends with, so
/// "1. Paid time off\n2. Travel" is two sentences, not "Paid time off 2." and "Travel".
/// Other line breaks (hard-wrapped text) are left inside sentences.
fn blocks(answer: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, _) in answer.match_indices('\n') {
        let next = &answer[i + 1..];
        let rest = next.trim_start_matches([' ', '\t']);
        if rest.starts_with(['\n', '\r']) || list_marker_len(rest) > 0 {
            out.push((start, i + 1));
            start = i + 1;
        }
    }
    out.push((start, answer.len()));
    out
}

/// Length in bytes of the list marker (with the space after it) that `text` starts
/// with: "1. ", "12) ", "(3) ", "2、", "- ", "* ", "• "; 0 when there is none. A
/// number label ("2.1 Birthing parents", "1.5 times") is no marker.
fn list_marker_len(text: &str) -> usize {
    for bullet in ["- ", "* ", "• ", "· "] {
        if text.starts_with(bullet) {
            return bullet.len();
        }
    }
    let (open, body) = match text.strip_prefix('(') {
        Some(rest) => (1, rest),
        None => (0, text),
    };
    let digits = body.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 || digits > 2 {
        return 0;
    }
    let after = &body[digits..];
    let close = match (open, after.chars().next()) {
        (1, Some(')')) | (0, Some('.' | ')')) => 1,
        (0, Some('、')) => '、'.len_utf8(),
        _ => return 0,
    };
    let tail = &after[close..];
    match tail.chars().next() {
        Some(' ' | '\t') => open + digits + close + 1,
        Some(_) if close > 1 => open + digits + close,
        _ => 0,
    }
}

fn sentences_with_markers(answer: &str) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    let sentences = blocks(answer).into_iter().flat_map(|(bs, be)| {
        split_sentences(&answer[bs..be])
            .into_iter()
            .map(move |(s, e)| (bs + s, bs + e))
    });
    for (s, e) in sentences {
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
