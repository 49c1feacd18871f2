//! The vector side of retrieval: the question's vector against every passage vector of
//! the current model (exact cosine over unit vectors), and the best sentence vector of
//! each candidate.
//!
//! Search is exhaustive over a contiguous matrix, no approximate index: at 50,000
//! chunks of 384 dimensions that is 19 M multiply-adds. What bounds it is memory (77 MB
//! of `f32` per question, about 8 ms here), so the full pass reads 8-bit codes of the
//! rows and only the best few hundred are scored exactly (see `evident-bench query`).
//! For a Matryoshka model (EmbeddingGemma, Qwen3-Embedding), whose first components
//! are an embedding of their own, the codes hold only the first 256 of its 768: on
//! colloquial-dev and our own questions the best 10 were the same as the full scan's
//! for every question, and the best 100 shared 99.3 % of their passages. The pass also yields the mean and spread of all similarities, which say
//! how far the best passage stands out from the rest of the library.

use std::collections::HashMap;

use crate::Result;
use crate::message::Message;
use crate::model::vector::{dot, dot_i8, prefix, quantize};
use crate::model::{Embedder, InputKind, Text};
use crate::store::{PassageMatrix, SentenceVectors, Store};

/// Passages the vector side proposes as candidates. Generous, because the sentence
/// ranking only sees these: a passage whose one relevant line is buried in broader text
/// ranks low as a whole (40th, 80th) and first by its best sentence.
pub const DENSE_CANDIDATES: usize = 100;

/// A model that is ready to search with: its passage matrix (which knows the model's
/// id and width) and the question's vector.
pub struct Ready {
    /// Its name, for messages.
    pub model: String,
    /// The question's unit vector.
    pub question: Vec<f32>,
    /// The passage matrix.
    pub matrix: std::sync::Arc<PassageMatrix>,
    /// Milliseconds the server took for the question's vector.
    pub embed_ms: f64,
    /// Passages without a vector of this model yet: ranked by keywords alone.
    pub missing: usize,
}

/// Why the vector side is not used for a search, in words for the user.
pub type Unavailable = crate::message::Message;

/// Gets the vector side ready: the server's model must be the one the passages were
/// embedded with, and at least one passage must have its vector. Passages not embedded
/// yet (a file saved a moment ago in a watched folder) are still found by their keywords;
/// [`Ready::missing`] says how many there are, so the answer can say so.
pub fn prepare(
    store: &Store,
    embedder: &dyn Embedder,
    question: &str,
) -> Result<std::result::Result<Ready, Unavailable>> {
    let identity = match embedder.identity() {
        Ok(id) => id,
        Err(e) => {
            return Ok(Err(Message::ServerUnusable {
                detail: e.to_string(),
                why: Some(e.problem()),
            }));
        }
    };
    let Some(model_id) = store.find_model(&identity)? else {
        return Ok(Err(Message::NotEmbedded {
            model: identity.name,
        }));
    };
    let matrix = store.passage_matrix(model_id, identity.dim, embedder.first_pass_dims())?;
    if matrix.chunk_ids.is_empty() {
        return Ok(Err(Message::NotEmbedded {
            model: identity.name,
        }));
    }
    let missing = matrix.missing;
    let started = std::time::Instant::now();
    let vector = match embedder.embed(&[Text::from(question)], InputKind::Query) {
        Ok(mut v) if v.len() == 1 => v.remove(0),
        Ok(_) => {
            return Ok(Err(Message::ServerUnusable {
                detail: "the embeddings server sent no vector for the question".into(),
                why: None,
            }));
        }
        Err(e) => {
            return Ok(Err(Message::ServerUnusable {
                detail: e.to_string(),
                why: Some(e.problem()),
            }));
        }
    };
    Ok(Ok(Ready {
        model: identity.name,
        question: vector,
        matrix,
        embed_ms: started.elapsed().as_secs_f64() * 1e3,
        missing,
    }))
}

/// The result of the full pass.
#[derive(Debug, Clone)]
pub struct DenseHits {
    /// The best passages, `(chunk id, cosine)`, best first.
    pub top: Vec<(i64, f32)>,
    /// Cosine of every chunk id asked for by [`DenseHits::cosine_of`].
    by_id: HashMap<i64, f32>,
    /// Mean similarity over the searched passages.
    pub mean: f32,
    /// Standard deviation of the similarities.
    pub spread: f32,
}

impl DenseHits {
    /// The cosine of a chunk that was searched.
    pub fn cosine_of(&self, chunk_id: i64) -> Option<f32> {
        self.by_id.get(&chunk_id).copied()
    }
}

/// Approximate candidates kept from the 8-bit pass per passage finally wanted: the
/// quantisation error (below 0.01 in cosine) only reorders near-ties, which the exact
/// second pass then settles.
const RESCORE_FACTOR: usize = 3;

/// Scores every passage (or those of the documents in `scope`) and keeps the best `n`,
/// plus the cosine of each chunk in `also` (the keyword side's candidates).
///
/// Two passes: the 8-bit codes of every row (a quarter of the memory traffic of the
/// `f32` rows, which is what bounds a full scan), then the exact cosine of the best
/// `RESCORE_FACTOR × n`. The mean and spread come from the first pass.
pub fn search(ready: &Ready, n: usize, scope: Option<&[i64]>, also: &[i64]) -> DenseHits {
    let in_scope = |row: usize| scope.is_none_or(|docs| docs.contains(&ready.matrix.doc_ids[row]));
    let m = &ready.matrix;
    let (q_codes, q_scale) = quantize(&prefix(&ready.question, m.codes_dim));
    let mut approx: Vec<(usize, f32)> = Vec::with_capacity(m.chunk_ids.len());
    let (mut sum, mut sum_sq) = (0.0f64, 0.0f64);
    for i in 0..m.chunk_ids.len() {
        if !in_scope(i) {
            continue;
        }
        let (codes, scale) = m.codes(i);
        let c = dot_i8(codes, &q_codes) as f32 * scale * q_scale;
        sum += f64::from(c);
        sum_sq += f64::from(c) * f64::from(c);
        approx.push((i, c));
    }
    let count = approx.len().max(1) as f64;
    let mean = sum / count;
    let spread = (sum_sq / count - mean * mean).max(0.0).sqrt();
    let by_score = |a: &(usize, f32), b: &(usize, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
    let keep = n.saturating_mul(RESCORE_FACTOR);
    if approx.len() > keep && keep > 0 {
        approx.select_nth_unstable_by(keep - 1, by_score);
        approx.truncate(keep);
    }
    let mut scores: Vec<(i64, f32)> = approx
        .iter()
        .map(|&(i, _)| (m.chunk_ids[i], dot(m.row(i), &ready.question)))
        .collect();
    let by_cosine = |a: &(i64, f32), b: &(i64, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
    scores.sort_by(by_cosine);
    scores.truncate(n);
    let mut by_id = HashMap::with_capacity(also.len() + n);
    for &id in also {
        if let Ok(i) = m.chunk_ids.binary_search(&id)
            && in_scope(i)
        {
            by_id.insert(id, dot(m.row(i), &ready.question));
        }
    }
    by_id.extend(scores.iter().copied());
    DenseHits {
        top: scores,
        by_id,
        mean: mean as f32,
        spread: spread as f32,
    }
}

/// The best sentence of a candidate by its vector: `(byte range, cosine)`.
pub fn best_sentence(
    vectors: &SentenceVectors,
    question: &[f32],
    dim: usize,
) -> Option<((usize, usize), f32)> {
    vectors
        .spans
        .iter()
        .enumerate()
        .map(|(i, &span)| (span, dot(&vectors.data[i * dim..(i + 1) * dim], question)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
}
