//! Retrieval: from a question to ranked, citable passages, or an honest "not found".
//!
//! ```text
//! question ──analyse──▶ key terms (+ aliases, number spellings)
//!          ──plan──▶ FTS5 OR-query over the terms that are not too common
//!          ──BM25──▶ candidates ──rank──▶ passages, best sentence marked
//!          ──floor──▶ answerable, or "not found in your documents"
//! ```
//!
//! The query plan bounds the work: FTS5 scores every chunk an OR-query matches, so the
//! full-text query takes the question's terms from rarest to commonest while their
//! chunks add up to at most [`ROW_BUDGET`] (the rarest term always goes in). Common
//! terms are left to re-scoring, where they still count. If that finds fewer than the
//! wanted candidates (a narrow scope, or only very rare words), the budget is widened
//! once. The relevance floor judges the best
//! passage's coverage of the question's key terms, not its raw BM25 score, which says
//! little about whether a question is answerable (see `rank`).

pub mod aliases;
pub mod query;
pub mod rank;
pub mod stopwords;

use std::time::Instant;

use serde::Serialize;

pub use aliases::Aliases;
pub use query::{Query, Term};

use crate::store::{Store, StoredPassage};
use crate::{Error, Result};

/// Chunks the full-text query may match (summed over its terms), which bounds the BM25
/// scoring work per question.
pub const ROW_BUDGET: i64 = 4000;

/// Default relevance floor on the best passage's coverage of the question (0..1).
/// Chosen on the evaluation sets; see `evident eval --sweep-floor`.
pub const DEFAULT_FLOOR: f64 = 0.4;

/// Options of one search.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct SearchOptions {
    /// Passages to return (at least 1).
    pub k: usize,
    /// BM25 candidates re-scored before the best `k` are kept.
    pub candidates: usize,
    /// Relevance floor on the best passage's coverage (0..1).
    pub floor: f64,
    /// Only search these documents (ids); `None` searches all.
    pub documents: Option<Vec<i64>>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self {
            k: 5,
            candidates: 30,
            floor: DEFAULT_FLOOR,
            documents: None,
        }
    }
}

impl SearchOptions {
    /// Rejects settings that cannot work.
    pub fn validate(&self) -> Result<()> {
        if self.k == 0 {
            return Err(Error::InvalidConfig(
                "k must be at least 1 (the number of passages to return)".into(),
            ));
        }
        if !(0.0..=1.0).contains(&self.floor) {
            return Err(Error::InvalidConfig(format!(
                "the relevance floor must be between 0 and 1, not {}",
                self.floor
            )));
        }
        Ok(())
    }
}

/// A retrieved passage: a chunk with where it came from (its [`StoredPassage`] fields,
/// reachable directly as `passage.doc_path` ...) and why it ranked.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Passage {
    /// 1-based rank; what `[n]` citations refer to.
    pub n: usize,
    /// The chunk and its document.
    #[serde(flatten)]
    pub chunk: StoredPassage,
    /// The sentence that best matches the question, for highlighting.
    pub highlight: Highlight,
    /// Blended ranking score.
    pub score: f64,
    /// BM25 score.
    pub bm25: f64,
    /// IDF-weighted share of the question's key terms in the passage.
    pub coverage: f64,
    /// Key terms of the question found in the passage.
    pub matched_terms: Vec<String>,
}

impl std::ops::Deref for Passage {
    type Target = StoredPassage;
    fn deref(&self) -> &StoredPassage {
        &self.chunk
    }
}

/// A span to highlight, in char offsets of the document text and of the passage text.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct Highlight {
    /// Char offset in the document text.
    pub char_start: i64,
    /// Char offset just past the span in the document text.
    pub char_end: i64,
    /// Char offset in the passage text.
    pub passage_char_start: usize,
    /// Char offset just past the span in the passage text.
    pub passage_char_end: usize,
    /// The highlighted text.
    pub text: String,
}

impl Highlight {
    /// The span of `len` chars starting `before` chars into `chunk`'s text.
    pub fn of(chunk: &StoredPassage, before: usize, len: usize, text: &str) -> Self {
        Self {
            char_start: chunk.char_start + before as i64,
            char_end: chunk.char_start + (before + len) as i64,
            passage_char_start: before,
            passage_char_end: before + len,
            text: text.to_owned(),
        }
    }
}

/// What a search found.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct SearchResult {
    /// The analysed question.
    pub query: Query,
    /// True when no passage clears the relevance floor: the documents do not answer
    /// the question, and `passages` are only related.
    pub not_found: bool,
    /// Why nothing was found, in words for the user.
    pub not_found_reason: Option<String>,
    /// Passages, best first (related ones when `not_found`).
    pub passages: Vec<Passage>,
    /// Best passage's coverage of the question's key terms (what the floor judges).
    pub top_coverage: f64,
    /// IDF weight of each key term (same order as `query.terms`).
    pub term_weights: Vec<f64>,
    /// Milliseconds spent.
    pub elapsed_ms: f64,
}

/// Searches `store` for `question`.
pub fn search(
    store: &Store,
    question: &str,
    aliases: &Aliases,
    options: &SearchOptions,
) -> Result<SearchResult> {
    options.validate()?;
    let started = Instant::now();
    let query = Query::analyse(question, aliases);
    let finish =
        |query: Query, passages: Vec<Passage>, reason: Option<String>, top: f64| SearchResult {
            query,
            not_found: reason.is_some(),
            not_found_reason: reason,
            passages,
            top_coverage: top,
            term_weights: Vec::new(),
            elapsed_ms: started.elapsed().as_secs_f64() * 1e3,
        };
    if query.terms.is_empty() {
        let reason = "the question has no words to look for (only question words or punctuation)";
        return Ok(finish(query, vec![], Some(reason.into()), 0.0));
    }
    let n = store.chunk_count()?;
    if n == 0 {
        let reason = "no documents are imported yet";
        return Ok(finish(query, vec![], Some(reason.into()), 0.0));
    }
    // Document frequency of a term: its most frequent spelling; a phrase counts as
    // frequent as its rarest word (an upper bound on the phrase). `costs` are the rows
    // the term's part of the full-text query matches (prefixes match many words).
    let mut dfs = Vec::with_capacity(query.terms.len());
    let mut costs = Vec::with_capacity(query.terms.len());
    for term in &query.terms {
        let (mut best, mut cost) = (0, 0);
        for alt in &term.alternatives {
            let mut rarest = i64::MAX;
            for token in alt {
                rarest = rarest.min(store.document_frequency(token)?);
            }
            if rarest != i64::MAX {
                best = best.max(rarest);
            }
            cost += if query::is_single_cjk(alt) {
                store.prefix_frequency(&alt[0])?
            } else if rarest == i64::MAX {
                0
            } else {
                rarest
            };
        }
        dfs.push(best);
        costs.push(cost);
    }
    let weights: Vec<f64> = query
        .terms
        .iter()
        .zip(&dfs)
        .map(|(t, &df)| rank::term_weight(t, rank::idf(df, n)))
        .collect();
    let present: Vec<usize> = (0..dfs.len()).filter(|&i| costs[i] > 0).collect();
    if present.is_empty() {
        let reason = "none of the question's key words occurs in your documents";
        return Ok(finish(query, vec![], Some(reason.into()), 0.0));
    }
    let mut by_cost = present.clone();
    by_cost.sort_by_key(|&i| (costs[i], i));
    let within = |budget: i64| -> Vec<usize> {
        let mut rows = 0;
        let mut chosen = Vec::new();
        for &i in &by_cost {
            if !chosen.is_empty() && rows + costs[i] > budget {
                break;
            }
            rows += costs[i];
            chosen.push(i);
        }
        chosen
    };
    let chosen = within(ROW_BUDGET);
    let Some(expr) = query.match_expression(&chosen) else {
        let reason = "the question has no words to look for";
        return Ok(finish(query, vec![], Some(reason.into()), 0.0));
    };
    let limit = options.candidates.max(options.k);
    let scope = options.documents.as_deref();
    let mut hits = store.match_chunks(&expr, limit, scope)?;
    // Too few candidates (a narrow scope, or only very rare words): widen once.
    if hits.len() < limit && chosen.len() < present.len() {
        let wider = if scope.is_some() {
            present.clone()
        } else {
            within(ROW_BUDGET * 4)
        };
        if wider.len() > chosen.len()
            && let Some(expr) = query.match_expression(&wider)
        {
            hits = store.match_chunks(&expr, limit, scope)?;
        }
    }
    let ids: Vec<i64> = hits.iter().map(|h| h.0).collect();
    let stored = store.passages(&ids)?;
    let mut scored: Vec<rank::Scored> = stored
        .into_iter()
        .zip(hits.iter().map(|h| h.1))
        .map(|(p, bm25)| rank::score(&query, &weights, p, bm25))
        .collect();
    rank::rank(&mut scored);
    scored.truncate(options.k);
    let top = scored.first().map_or(0.0, |s| s.coverage);
    let passages: Vec<Passage> = scored
        .into_iter()
        .enumerate()
        .map(|(i, s)| into_passage(i + 1, &query, s))
        .collect();
    let reason = if passages.is_empty() {
        Some("no passage contains the question's key words".to_owned())
    } else if top < options.floor {
        let matched = &passages[0].matched_terms;
        let missing: Vec<&str> = query
            .terms
            .iter()
            .map(|t| t.text.as_str())
            .filter(|t| !matched.iter().any(|m| m == t))
            .collect();
        Some(format!(
            "the closest passages miss key words of the question ({})",
            missing.join(", ")
        ))
    } else {
        None
    };
    let mut result = finish(query, passages, reason, top);
    result.term_weights = weights;
    Ok(result)
}

fn into_passage(n: usize, query: &Query, s: rank::Scored) -> Passage {
    let p = s.passage;
    let (bs, be) = s.best_sentence;
    let before = p.text[..bs].chars().count();
    let len = p.text[bs..be].chars().count();
    Passage {
        n,
        highlight: Highlight::of(&p, before, len, &p.text[bs..be]),
        chunk: p,
        score: s.score,
        bm25: s.bm25,
        coverage: s.coverage,
        matched_terms: query
            .terms
            .iter()
            .zip(&s.found)
            .filter(|(_, f)| **f)
            .map(|(t, _)| t.text.clone())
            .collect(),
    }
}

/// A passage built by hand, for unit tests of the stages after retrieval.
#[cfg(test)]
pub(crate) fn test_passage(n: usize, doc_id: i64, text: &str) -> Passage {
    Passage {
        n,
        chunk: StoredPassage {
            chunk_id: n as i64 * 10,
            doc_id,
            doc_path: format!("/docs/{doc_id}.md").into(),
            title: format!("doc {doc_id}"),
            kind: crate::extract::DocumentKind::Markdown,
            ordinal: 0,
            heading_path: vec![],
            page_start: 1,
            page_end: 1,
            char_start: 100,
            char_end: 100 + text.chars().count() as i64,
            token_count: 0,
            text: text.into(),
        },
        highlight: Highlight {
            char_start: 100,
            char_end: 100,
            passage_char_start: 0,
            passage_char_end: 0,
            text: String::new(),
        },
        score: 1.0,
        bm25: 1.0,
        coverage: 1.0,
        matched_terms: vec![],
    }
}
