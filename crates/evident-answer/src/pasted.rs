//! Checking a text written elsewhere — a draft reply, an email, another tool's answer —
//! against the documents, sentence by sentence.
//!
//! Such a text has no question and its citations (if any) point at someone else's
//! sources, so each sentence is its own query: it finds the passages that speak about
//! it, and the grounding check judges it against those. The passages of all sentences
//! share one numbering, so the same passage is the same `[n]` everywhere in the result.

use std::collections::HashMap;

use crate::Result;
use crate::grounding::{self, Verdict, citations};
use crate::search::{Aliases, Passage, SearchOptions, search};
use crate::store::Store;

use super::{Checked, Source};

/// Sentences checked at most in one go; the rest are counted as unchecked, so a long
/// paste cannot hold the app for seconds.
pub const MAX_SENTENCES: usize = 200;

/// Passages each sentence is judged against (the best few: a sentence is rarely
/// supported by its fifth-ranked passage, and more would bloat the source list).
pub const PASSAGES_PER_SENTENCE: usize = 3;

/// The least share of a pasted sentence's key terms (weighted by rarity) that some
/// passage must hold for the documents to speak about it; under it, a few shared
/// common words (公司, 每年, 两次 of "公司每年组织两次团建旅游") are no partial support. The
/// coverage floor of the outcome before it was learned from questions.
const ABOUT_IT: f64 = 0.46;

/// Checks every sentence of `text` against the passages its own words retrieve.
/// Citation markers in `text` are ignored: they refer to another tool's sources.
pub fn check_pasted(
    store: &Store,
    text: &str,
    aliases: &Aliases,
    options: &SearchOptions,
) -> Result<Checked> {
    let text = citations::strip_markers(text);
    let spans = grounding::claim_spans(&text);
    let per_sentence = SearchOptions {
        k: options.k.clamp(1, PASSAGES_PER_SENTENCE),
        ..options.clone()
    };
    // Every passage once, numbered in order of first use; chunk id → its number.
    let mut pool: Vec<Passage> = Vec::new();
    let mut numbers: HashMap<i64, usize> = HashMap::new();
    let mut sentences = Vec::new();
    let mut searched = 0;
    let mut all_not_found = true;
    for &(start, end) in spans.iter().take(MAX_SENTENCES) {
        let claim = &text[start..end];
        if claim.trim().is_empty() {
            continue;
        }
        let result = search(store, claim, aliases, &per_sentence)?;
        searched += 1;
        // A pasted sentence is a statement, not a question (the outcome model learned
        // from questions): the documents speak about it when a passage holds most of
        // its key terms.
        let off_topic = result.status == crate::search::Outcome::NotFound
            || result.evidence.coverage < ABOUT_IT;
        all_not_found &= off_topic;
        let own: Vec<Passage> = result
            .passages
            .into_iter()
            .map(|mut p| {
                p.n = *numbers.entry(p.chunk_id).or_insert_with(|| {
                    let mut first = p.clone();
                    first.n = pool.len() + 1;
                    pool.push(first);
                    pool.len()
                });
                p
            })
            .collect();
        sentences.extend(grounding::check(claim, &own).into_iter().map(|mut v| {
            v.start += start;
            v.end += start;
            if off_topic && v.verdict == Verdict::PartiallySupported {
                // Below the relevance floor the documents do not speak about this
                // sentence; a few shared common words are not partial support.
                v.verdict = Verdict::Unsupported;
                let why = crate::message::Message::NothingAboutIt;
                v.reasons.insert(0, why.text(crate::message::Lang::En));
                v.reason_codes.insert(0, why);
            }
            v
        }));
    }
    Ok(Checked {
        question: String::new(),
        sentences,
        sources: pool.iter().map(|p| Source::of(p, true)).collect(),
        not_found: searched > 0 && all_not_found,
        unchecked: spans.len().saturating_sub(MAX_SENTENCES),
    })
}
