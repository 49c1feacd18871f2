//! Re-scoring of BM25 candidates by how much of the question a passage covers.
//!
//! BM25 rewards a passage for repeating one rare word; a question is answered by a
//! passage that holds most of its key terms, ideally in one sentence. So each candidate
//! gets, besides its BM25 score, the IDF-weighted share of the question's terms it
//! contains (`coverage`) and the same share for its best sentence (`sentence_coverage`),
//! and is ranked by a blend of the three. Coverage is also what the relevance floor
//! judges: a passage that misses the question's rarest, most specific words is related
//! at best.

use std::collections::HashSet;

use super::query::{Query, Term, is_single_cjk};
use crate::store::StoredPassage;
use evident_text::segment::passage_tokens;
use evident_text::sentence::split_units;

/// Share of the final score from BM25 (normalised to the best candidate).
pub const BM25_WEIGHT: f64 = 0.3;
/// Share from the passage's coverage of the question.
pub const COVERAGE_WEIGHT: f64 = 0.35;
/// Share from the best sentence's coverage of the question.
pub const SENTENCE_WEIGHT: f64 = 0.35;

/// Inverse document frequency, BM25's form: rare terms weigh more; never negative.
pub fn idf(df: i64, n: i64) -> f64 {
    let (df, n) = (df.max(0) as f64, n.max(0) as f64);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// Whether any alternative of `term` has all its tokens in `tokens` (a lone Chinese
/// character also counts when it starts a word, as in the full-text query).
pub fn term_found(term: &Term, tokens: &HashSet<&str>) -> bool {
    term.alternatives.iter().any(|alt| {
        if is_single_cjk(alt) {
            let head = alt[0].as_str();
            return tokens.iter().any(|t| t.starts_with(head));
        }
        !alt.is_empty() && alt.iter().all(|t| tokens.contains(t.as_str()))
    })
}

/// How much a term may weigh: its IDF, halved for a lone Chinese character, which
/// says less about a passage than a word does (发 of 发放, 发布, 发生 ...).
pub fn term_weight(term: &Term, idf: f64) -> f64 {
    if term.alternatives.first().is_some_and(|a| is_single_cjk(a)) {
        idf * 0.5
    } else {
        idf
    }
}

/// IDF-weighted share of `query`'s terms found in `tokens`, and which were found.
pub fn coverage(query: &Query, weights: &[f64], tokens: &HashSet<&str>) -> (f64, Vec<bool>) {
    let found: Vec<bool> = query.terms.iter().map(|t| term_found(t, tokens)).collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return (0.0, found);
    }
    let got: f64 = weights
        .iter()
        .zip(&found)
        .filter(|(_, f)| **f)
        .map(|(w, _)| w)
        .sum();
    (got / total, found)
}

/// A candidate passage with its scores.
#[derive(Debug, Clone)]
pub struct Scored {
    /// The chunk and its document.
    pub passage: StoredPassage,
    /// BM25 score from the full-text index (higher is better).
    pub bm25: f64,
    /// IDF-weighted share of the question's terms in the passage (heading included).
    pub coverage: f64,
    /// The same share for the passage's best sentence.
    pub sentence_coverage: f64,
    /// Byte range of the best sentence in the passage text.
    pub best_sentence: (usize, usize),
    /// Which of the question's terms the passage holds.
    pub found: Vec<bool>,
    /// Blended score used for ranking.
    pub score: f64,
}

/// Scores one candidate.
pub fn score(query: &Query, weights: &[f64], passage: StoredPassage, bm25: f64) -> Scored {
    let heading = passage_tokens(&passage.heading_path.join(" "));
    let sentences = split_units(&passage.text);
    let mut all: HashSet<&str> = heading.iter().map(String::as_str).collect();
    let sentence_tokens: Vec<Vec<String>> = sentences
        .iter()
        .map(|&(s, e)| passage_tokens(&passage.text[s..e]))
        .collect();
    let mut best = (0.0, (0, passage.text.len()));
    for (tokens, &range) in sentence_tokens.iter().zip(&sentences) {
        all.extend(tokens.iter().map(String::as_str));
        let set: HashSet<&str> = tokens.iter().map(String::as_str).collect();
        let (c, _) = coverage(query, weights, &set);
        if c > best.0 {
            best = (c, range);
        }
    }
    let (cov, found) = coverage(query, weights, &all);
    Scored {
        passage,
        bm25,
        coverage: cov,
        sentence_coverage: best.0,
        best_sentence: best.1,
        found,
        score: 0.0,
    }
}

/// Sets the blended score of every candidate and sorts them best first.
pub fn rank(candidates: &mut [Scored]) {
    let top = candidates
        .iter()
        .map(|c| c.bm25)
        .fold(f64::MIN_POSITIVE, f64::max);
    for c in candidates.iter_mut() {
        c.score = BM25_WEIGHT * (c.bm25 / top)
            + COVERAGE_WEIGHT * c.coverage
            + SENTENCE_WEIGHT * c.sentence_coverage;
    }
    candidates.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.passage.chunk_id.cmp(&b.passage.chunk_id))
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::aliases::Aliases;

    #[test]
    fn idf_is_high_for_rare_and_zero_free() {
        assert!(idf(1, 1000) > idf(100, 1000));
        assert!(idf(1000, 1000) >= 0.0);
        assert!(idf(0, 0) >= 0.0);
    }

    #[test]
    fn coverage_weighs_rare_terms_more() {
        let mut q = Query::analyse("", &Aliases::default());
        for t in ["年假", "天数"] {
            q.terms.push(Term {
                text: t.into(),
                alternatives: vec![vec![t.into()]],
            });
        }
        let tokens: HashSet<&str> = ["年假"].into_iter().collect();
        let (c, found) = coverage(&q, &[3.0, 1.0], &tokens);
        assert!((c - 0.75).abs() < 1e-9, "{c}");
        assert_eq!(found, [true, false]);
    }
}
