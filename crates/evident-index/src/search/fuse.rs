//! Reciprocal-rank fusion of the keyword ranking with the two vector rankings (whole
//! passage, best sentence).
//!
//! Ranks, not scores, are fused: BM25, coverage and cosine live on scales that mean
//! different things per question and per model, while "third best by this evidence"
//! means the same everywhere. A passage's fused score is the sum over the rankings that
//! hold it of `weight / (RRF_K + rank)`; a passage one ranking does not hold gets
//! nothing from it. The sentence ranking catches the one line a colloquial question is
//! about inside a passage that, as a whole, is about something broader.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::store::SentenceVectors;

/// How much the first few places dominate: small, so that a passage one ranking puts
/// first is not outvoted by one that every ranking puts tenth. The usual 60 found
/// fewer answers on the calibration half of colloquial-dev (hit@5 0.833 against 0.875,
/// MRR 0.60 against 0.66); 5 and 3 were no better.
pub const RRF_K: f64 = 10.0;
/// Weight of the keyword ranking.
pub const KEYWORD_WEIGHT: f64 = 1.0;
/// Weight of the whole-passage vector ranking.
pub const PASSAGE_VECTOR_WEIGHT: f64 = 1.0;
/// Weight of the best-sentence vector ranking.
pub const SENTENCE_VECTOR_WEIGHT: f64 = 1.0;

/// Why a passage ranked where it did: its place in each ranking and the fused score.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Ranks {
    /// Place in the keyword (BM25 + coverage) ranking, 1-based.
    pub keyword: Option<usize>,
    /// Place in the whole-passage vector ranking.
    pub passage_vector: Option<usize>,
    /// Place in the best-sentence vector ranking.
    pub sentence_vector: Option<usize>,
    /// Cosine of the passage's vector with the question's.
    pub cosine: Option<f32>,
    /// Cosine of its best sentence with the question.
    pub sentence_cosine: Option<f32>,
    /// Place in the reranker's order, when a reranker ordered the passages.
    #[serde(default)]
    pub rerank: Option<usize>,
    /// The fused score the passages are ordered by.
    pub fused: f64,
}

/// A candidate for fusion: its chunk id and its keyword place, if it has one.
#[derive(Debug, Clone, Copy)]
pub struct Candidate {
    /// The chunk.
    pub chunk_id: i64,
    /// 1-based place in the keyword ranking.
    pub keyword: Option<usize>,
    /// Cosine of the passage vector with the question.
    pub cosine: Option<f32>,
}

/// A fused candidate: its ranks and the best sentence by vector.
#[derive(Debug, Clone)]
pub struct Fused {
    /// The chunk.
    pub chunk_id: i64,
    /// Places and fused score.
    pub ranks: Ranks,
    /// The best sentence by vector: byte range in the passage text.
    pub vector_sentence: Option<(usize, usize)>,
}

/// Ranks of `values` (higher is better), 1-based, ties broken by order.
fn places(values: &[Option<f32>]) -> Vec<Option<usize>> {
    let mut order: Vec<usize> = (0..values.len()).filter(|&i| values[i].is_some()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (values[a].unwrap_or(f32::MIN), values[b].unwrap_or(f32::MIN));
        y.total_cmp(&x).then(a.cmp(&b))
    });
    let mut out = vec![None; values.len()];
    for (place, i) in order.into_iter().enumerate() {
        out[i] = Some(place + 1);
    }
    out
}

/// Fuses the candidates (each chunk once) and returns them best first.
pub fn fuse(
    candidates: &[Candidate],
    sentences: &HashMap<i64, SentenceVectors>,
    question: &[f32],
    dim: usize,
) -> Vec<Fused> {
    let cosines: Vec<Option<f32>> = candidates.iter().map(|c| c.cosine).collect();
    let best_sentences: Vec<Option<((usize, usize), f32)>> = candidates
        .iter()
        .map(|c| {
            sentences
                .get(&c.chunk_id)
                .and_then(|v| super::dense::best_sentence(v, question, dim))
        })
        .collect();
    let sentence_cosines: Vec<Option<f32>> =
        best_sentences.iter().map(|b| b.map(|x| x.1)).collect();
    let passage_places = places(&cosines);
    let sentence_places = places(&sentence_cosines);
    let part = |w: f64, place: Option<usize>| place.map_or(0.0, |p| w / (RRF_K + p as f64));
    let mut fused: Vec<Fused> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| Fused {
            chunk_id: c.chunk_id,
            ranks: Ranks {
                keyword: c.keyword,
                passage_vector: passage_places[i],
                sentence_vector: sentence_places[i],
                cosine: cosines[i],
                sentence_cosine: sentence_cosines[i],
                rerank: None,
                fused: part(KEYWORD_WEIGHT, c.keyword)
                    + if c.cosine.is_none() && c.keyword.is_some() {
                        // Not embedded yet (a file saved a moment ago): its keyword
                        // place stands in for the vector places it cannot have, so it
                        // competes with embedded passages instead of trailing them all.
                        part(PASSAGE_VECTOR_WEIGHT, c.keyword)
                            + part(SENTENCE_VECTOR_WEIGHT, c.keyword)
                    } else {
                        part(PASSAGE_VECTOR_WEIGHT, passage_places[i])
                            + part(SENTENCE_VECTOR_WEIGHT, sentence_places[i])
                    },
            },
            vector_sentence: best_sentences[i].map(|b| b.0),
        })
        .collect();
    fused.sort_by(|a, b| {
        b.ranks
            .fused
            .total_cmp(&a.ranks.fused)
            .then(a.chunk_id.cmp(&b.chunk_id))
    });
    fused
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_rank_higher_values_first_and_skip_missing() {
        let got = places(&[Some(0.2), None, Some(0.9), Some(0.5)]);
        assert_eq!(got, [Some(3), None, Some(1), Some(2)]);
    }

    #[test]
    fn fused_scores_sum_the_rankings_that_hold_a_passage() {
        let candidates = [
            Candidate {
                chunk_id: 1,
                keyword: Some(1),
                cosine: Some(0.10),
            },
            Candidate {
                chunk_id: 2,
                keyword: None,
                cosine: Some(0.90),
            },
            Candidate {
                chunk_id: 3,
                keyword: Some(2),
                cosine: Some(0.50),
            },
        ];
        let fused = fuse(&candidates, &HashMap::new(), &[], 0);
        let score = |id| {
            fused
                .iter()
                .find(|f| f.chunk_id == id)
                .map(|f| f.ranks.fused)
                .unwrap_or(-1.0)
        };
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(close(
            score(1),
            KEYWORD_WEIGHT / (RRF_K + 1.0) + PASSAGE_VECTOR_WEIGHT / (RRF_K + 3.0)
        ));
        assert!(
            close(score(2), PASSAGE_VECTOR_WEIGHT / (RRF_K + 1.0)),
            "no keyword place, no keyword share"
        );
        assert!(close(
            score(3),
            KEYWORD_WEIGHT / (RRF_K + 2.0) + PASSAGE_VECTOR_WEIGHT / (RRF_K + 2.0)
        ));
        assert!(
            fused
                .windows(2)
                .all(|w| w[0].ranks.fused >= w[1].ranks.fused),
            "best first"
        );
        assert!(fused.iter().all(|f| f.ranks.sentence_vector.is_none()));
    }

    #[test]
    fn a_passage_without_a_vector_competes_by_its_keyword_place() {
        let candidates = [
            Candidate {
                chunk_id: 1,
                keyword: Some(1),
                cosine: None,
            },
            Candidate {
                chunk_id: 2,
                keyword: Some(2),
                cosine: Some(0.9),
            },
        ];
        let fused = fuse(&candidates, &HashMap::new(), &[], 0);
        assert_eq!(
            fused[0].chunk_id, 1,
            "first by keywords, not last for lack of a vector"
        );
        assert!(fused[0].ranks.passage_vector.is_none());
    }
}
