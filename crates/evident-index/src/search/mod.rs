//! Retrieval: from a question to ranked, citable passages, and an honest verdict on
//! whether they answer it.
//!
//! ```text
//! question ──analyse──▶ key terms (+ aliases, number spellings)
//!          ──plan──▶ FTS5 OR-query over the terms that are not too common
//!          ──BM25──▶ candidates ──rank──▶ keyword ranking (coverage-weighted)
//!          ──embed──▶ question vector ──cosine──▶ passage and sentence rankings
//!          ──fuse──▶ passages, best sentence marked
//!          ──outcome──▶ answered | uncertain | not found
//! ```
//!
//! The query plan bounds the work: FTS5 scores every chunk an OR-query matches, so the
//! full-text query takes the question's terms from rarest to commonest while their
//! chunks add up to at most [`ROW_BUDGET`] (the rarest term always goes in). Common
//! terms are left to re-scoring, where they still count. If that finds fewer than the
//! wanted candidates (a narrow scope, or only very rare words), the budget is widened
//! once.
//!
//! With an embeddings server ([`SearchOptions::semantic`]) and every passage embedded by
//! its model, the vector side adds its own candidates and two rankings (whole passage,
//! best sentence), fused with the keyword ranking by reciprocal rank (`fuse`). Without
//! one, or while embedding has not caught up, search is keyword-only and says why. The
//! outcome (`outcome`) is decided from the evidence of all returned passages: how much
//! of the question's key terms they hold, whether the two rankings agree, and how far
//! the best passage stands out, never from a raw cosine.

pub mod aliases;
mod asked;
pub mod choose;
mod dense;
mod fuse;
pub mod learned;
mod lexical;
pub mod outcome;
pub mod query;
mod rank;
pub mod rerank;
pub mod stopwords;

use std::time::Instant;

use serde::Serialize;

pub use aliases::Aliases;
pub use fuse::Ranks;
pub use outcome::{Evidence, Outcome};
pub use query::{Query, Term};

use std::collections::HashMap;
use std::sync::Arc;

use crate::message::{Lang, Message};
use crate::model::{Embedder, Reranker};

use crate::store::{Store, StoredPassage};
use crate::{Error, Result};

/// Chunks the full-text query may match (summed over its terms), which bounds the BM25
/// scoring work per question.
pub const ROW_BUDGET: i64 = 4000;

/// Which evidence ranks the passages.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RetrievalMode {
    /// Keywords and, when an embeddings server is ready, vectors, fused.
    #[default]
    Hybrid,
    /// Keywords only (BM25 and coverage).
    Keyword,
    /// Vectors only (for evaluation); an error without a ready server.
    Dense,
}

/// The embeddings server a search may use.
#[derive(Clone)]
pub struct Semantic(pub Arc<dyn Embedder>);

impl std::fmt::Debug for Semantic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Semantic(..)")
    }
}

/// The reranker a search (and the composer after it) may use.
#[derive(Clone)]
pub struct Rerank(pub Arc<dyn Reranker>);

impl std::fmt::Debug for Rerank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Rerank(..)")
    }
}

/// Most passages one search returns.
pub const MAX_K: usize = 100;

/// Options of one search.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct SearchOptions {
    /// Passages to return (at least 1).
    pub k: usize,
    /// BM25 candidates re-scored before the best `k` are kept.
    pub candidates: usize,
    /// The probability (0..1) that the chosen answer is right at which it is given as
    /// an answer; `None`: the line calibrated with the model (`search::learned`).
    #[serde(default)]
    pub answer_line: Option<f64>,
    /// Only search these documents (ids); `None` searches all.
    pub documents: Option<Vec<i64>>,
    /// Which evidence ranks the passages.
    #[serde(default)]
    pub mode: RetrievalMode,
    /// The embeddings server, if one is set up (never serialised).
    #[serde(skip)]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub semantic: Option<Semantic>,
    /// The reranker, if one is set up (never serialised).
    #[serde(skip)]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub rerank: Option<Rerank>,
    /// The learned ranker and outcome to use instead of the built-in ones (training
    /// and calibration runs; never serialised).
    #[serde(skip)]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub model: Option<Arc<learned::Model>>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self {
            k: 5,
            candidates: 30,
            answer_line: None,
            documents: None,
            mode: RetrievalMode::Hybrid,
            semantic: None,
            rerank: None,
            model: None,
        }
    }
}

impl SearchOptions {
    /// Rejects settings that cannot work.
    pub fn validate(&self) -> Result<()> {
        if self.k == 0 || self.k > MAX_K {
            return Err(Error::InvalidConfig(format!(
                "k must be between 1 and {MAX_K} (the number of passages to return), not {}",
                self.k
            )));
        }
        if let Some(line) = self.answer_line
            && !(0.0..=1.0).contains(&line)
        {
            return Err(Error::InvalidConfig(format!(
                "the answer line must be a probability between 0 and 1, not {line}"
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
    /// The same share for its best sentence.
    #[serde(default)]
    pub sentence_coverage: f64,
    /// Key terms of the question found in the passage.
    pub matched_terms: Vec<String>,
    /// Its places in the keyword and vector rankings, and the fused score.
    #[serde(default)]
    pub why: Ranks,
    /// Cosine of the question with each sentence vector of the passage, as `(byte
    /// start, byte end, cosine)` in its text; empty without vectors. The composer picks
    /// the answering sentence with it.
    #[serde(skip)]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub sentence_similarity: Vec<(usize, usize, f32)>,
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
    /// Whether the passages answer the question, may not, or nothing is relevant.
    pub status: Outcome,
    /// True when nothing relevant was found (`status` is `not_found`).
    pub not_found: bool,
    /// Why the outcome is not `answered`, in English words.
    pub not_found_reason: Option<String>,
    /// The same as a message code, for the user's language.
    #[serde(default)]
    pub reason: Option<Message>,
    /// Passages, best first (the closest ones when not answered).
    pub passages: Vec<Passage>,
    /// Best passage's coverage of the question's key terms.
    pub top_coverage: f64,
    /// IDF weight of each key term (same order as `query.terms`).
    pub term_weights: Vec<f64>,
    /// The signals the outcome was decided from.
    pub evidence: Evidence,
    /// Whether vectors were used, and why not.
    pub retrieval: RetrievalInfo,
    /// Every sentence of the passages, ranked: the first is the answer's (never
    /// serialised; the passages' highlights and the outcome say what it chose).
    #[serde(skip)]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub sentences: Vec<choose::Candidate>,
    /// Milliseconds spent.
    pub elapsed_ms: f64,
}

/// What ranked a search's passages.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RankedBy {
    /// Keywords alone (no model, or keyword search asked for).
    #[default]
    Keyword,
    /// Keywords and vectors, fused.
    Hybrid,
    /// Vectors alone (for evaluation).
    Vector,
}

impl RankedBy {
    /// The JSON name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Keyword => "keyword",
            Self::Hybrid => "hybrid",
            Self::Vector => "vector",
        }
    }
}

impl std::fmt::Display for RankedBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How the vector side was used in a search, and why not when it was not.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize)]
pub struct RetrievalInfo {
    /// What ranked the passages.
    pub used: RankedBy,
    /// The embedding model, when vectors were used.
    pub model: Option<String>,
    /// Why search was keyword-only, in English words.
    pub note: Option<String>,
    /// The same as a message code, for the user's language.
    #[serde(default)]
    pub note_code: Option<Message>,
    /// Milliseconds the server took to embed the question.
    pub embed_ms: f64,
    /// The reranker that ordered the passages, when one did.
    #[serde(default)]
    pub reranker: Option<String>,
    /// Why a configured reranker did not order them.
    #[serde(default)]
    pub rerank_note: Option<Message>,
    /// Milliseconds the reranker took.
    #[serde(default)]
    pub rerank_ms: f64,
    /// Whether the answer's sentences were weighed by meaning: vectors were used and
    /// every passage read has its sentence vectors (an embedding pass stores them after
    /// every passage's vector); otherwise by words.
    #[serde(default)]
    pub sentences_by_meaning: bool,
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
    let mut info = RetrievalInfo {
        used: RankedBy::Keyword,
        ..Default::default()
    };
    let finish = |query: Query, info: RetrievalInfo, reason: Message| SearchResult {
        query,
        status: Outcome::NotFound,
        not_found: true,
        not_found_reason: Some(reason.text(Lang::En)),
        reason: Some(reason),
        passages: Vec::new(),
        top_coverage: 0.0,
        term_weights: Vec::new(),
        evidence: Evidence::default(),
        retrieval: info,
        sentences: Vec::new(),
        elapsed_ms: started.elapsed().as_secs_f64() * 1e3,
    };
    if query.terms.is_empty() {
        return Ok(finish(query, info, Message::NoWords));
    }
    let n = store.chunk_count()?;
    if n == 0 {
        return Ok(finish(query, info, Message::NoDocuments));
    }
    let lexical = lexical::candidates(store, &query, n, options)?;
    let unmentioned = unmentioned_names(store, &query.text, aliases)?;
    let ready = ready_vectors(store, question, options, &mut info)?;
    let weights = lexical.weights.clone();
    // Each candidate: its keyword scores when the keyword side had it, its ranks.
    let mut by_id: HashMap<i64, rank::Scored> = HashMap::new();
    // With vectors: each kept passage's sentence cosines, for the composer.
    let mut similarity: HashMap<i64, Vec<(usize, usize, f32)>> = HashMap::new();
    // With vectors: the vector side's hits and how far its top 5 agree with the keyword
    // side's top 5.
    let (fused, vectors): (Vec<fuse::Fused>, Option<(dense::DenseHits, f64)>) = match &ready {
        None => {
            if let Some(reason) = lexical.empty_reason.clone() {
                let mut result = finish(query, info, reason);
                result.term_weights = weights;
                return Ok(result);
            }
            (keyword_ranked(lexical.ranked, &mut by_id), None)
        }
        Some(ready) => {
            let (fused, vectors) = fused_with_vectors(
                store,
                ready,
                lexical.ranked,
                options,
                &mut info,
                &mut by_id,
                &mut similarity,
            )?;
            (fused, Some(vectors))
        }
    };
    let fused = keep_and_rerank(
        store, &query, &weights, fused, options, &mut info, &mut by_id,
    )?;
    let passages: Vec<Passage> = fused
        .into_iter()
        .filter_map(|f| by_id.remove(&f.chunk_id).map(|s| (f, s)))
        .enumerate()
        .map(|(i, (f, s))| {
            let cosines = similarity.remove(&f.chunk_id).unwrap_or_default();
            into_passage(i + 1, &query, &weights, f, s, cosines)
        })
        .collect();
    let evidence = evidence_of(&query, &weights, &passages, vectors.as_ref(), unmentioned);
    let mut passages = passages;
    let model = options
        .model
        .as_deref()
        .unwrap_or_else(|| learned::Model::builtin());
    let with_vectors = vectors.is_some() && sentences_by_meaning(&passages);
    info.sentences_by_meaning = with_vectors;
    let sentences = choose_sentences(&query, &weights, &passages, model, with_vectors, options);
    mark_chosen(&mut passages, &sentences);
    let mut evidence = evidence;
    let (status, reason) = if passages.is_empty() {
        (Outcome::NotFound, Some(Message::NoPassageWithKeyWords))
    } else {
        let (status, reason, p) = outcome::decide(
            &query.text,
            &sentences,
            &evidence,
            model,
            with_vectors,
            options.answer_line,
        );
        evidence.fit = p;
        (status, reason)
    };
    let top = passages.first().map_or(0.0, |p| p.coverage);
    Ok(SearchResult {
        query,
        status,
        not_found: status == Outcome::NotFound,
        not_found_reason: reason.as_ref().map(|r| r.text(Lang::En)),
        reason,
        passages,
        top_coverage: top,
        term_weights: weights,
        evidence,
        retrieval: info,
        sentences,
        elapsed_ms: started.elapsed().as_secs_f64() * 1e3,
    })
}

/// The vector side, when it can be used: the question's vector and the passages'
/// matrix. Why not, when it cannot, is noted in `info` (an error for vector-only).
fn ready_vectors(
    store: &Store,
    question: &str,
    options: &SearchOptions,
    info: &mut RetrievalInfo,
) -> Result<Option<dense::Ready>> {
    Ok(match (&options.semantic, options.mode) {
        (_, RetrievalMode::Keyword) => None,
        (None, RetrievalMode::Dense) => {
            return Err(Error::InvalidConfig(
                "vector-only search needs an embeddings server (--embed-url, --embed-model)".into(),
            ));
        }
        (None, RetrievalMode::Hybrid) => {
            info.note = Some(Message::NoServer.text(Lang::En));
            info.note_code = Some(Message::NoServer);
            None
        }
        (Some(semantic), mode) => match dense::prepare(store, semantic.0.as_ref(), question)? {
            Ok(ready) => Some(ready),
            Err(why) if mode == RetrievalMode::Dense => {
                return Err(Error::InvalidConfig(why.text(Lang::En)));
            }
            Err(why) => {
                info.note = Some(why.text(Lang::En));
                info.note_code = Some(why);
                None
            }
        },
    })
}

/// The keyword side's ranking as the fused one (no vectors).
fn keyword_ranked(
    ranked: Vec<rank::Scored>,
    by_id: &mut HashMap<i64, rank::Scored>,
) -> Vec<fuse::Fused> {
    ranked
        .into_iter()
        .enumerate()
        .map(|(i, scored)| {
            let f = fuse::Fused {
                chunk_id: scored.passage.chunk_id,
                ranks: fuse::Ranks {
                    keyword: Some(i + 1),
                    fused: scored.score,
                    ..Default::default()
                },
                vector_sentence: None,
            };
            by_id.insert(scored.passage.chunk_id, scored);
            f
        })
        .collect()
}

/// The keyword and vector sides fused; each kept passage's sentence cosines go to
/// `similarity` (for the composer). Also the vector side's hits, and how far its top 5
/// agree with the keyword side's.
fn fused_with_vectors(
    store: &Store,
    ready: &dense::Ready,
    keyword: Vec<rank::Scored>,
    options: &SearchOptions,
    info: &mut RetrievalInfo,
    by_id: &mut HashMap<i64, rank::Scored>,
    similarity: &mut HashMap<i64, Vec<(usize, usize, f32)>>,
) -> Result<(Vec<fuse::Fused>, (dense::DenseHits, f64))> {
    info.used = if options.mode == RetrievalMode::Dense {
        RankedBy::Vector
    } else {
        RankedBy::Hybrid
    };
    info.model = Some(ready.model.clone());
    info.embed_ms = ready.embed_ms;
    if ready.missing > 0 {
        let note = Message::PartlyEmbedded {
            embedded: ready.matrix.chunk_ids.len(),
            total: ready.matrix.chunk_ids.len() + ready.missing,
            model: ready.model.clone(),
        };
        info.note = Some(note.text(Lang::En));
        info.note_code = Some(note);
    }
    let keyword = if options.mode == RetrievalMode::Dense {
        Vec::new()
    } else {
        keyword
    };
    let keyword_ids: Vec<i64> = keyword.iter().map(|s| s.passage.chunk_id).collect();
    let hits = dense::search(
        ready,
        dense::DENSE_CANDIDATES.max(options.k),
        options.documents.as_deref(),
        &keyword_ids,
    );
    let mut candidates: Vec<fuse::Candidate> = keyword_ids
        .iter()
        .enumerate()
        .map(|(i, &id)| fuse::Candidate {
            chunk_id: id,
            keyword: Some(i + 1),
            cosine: hits.cosine_of(id),
        })
        .collect();
    candidates.extend(
        hits.top
            .iter()
            .filter(|(id, _)| !keyword_ids.contains(id))
            .map(|&(id, cos)| fuse::Candidate {
                chunk_id: id,
                keyword: None,
                cosine: Some(cos),
            }),
    );
    let ids: Vec<i64> = candidates.iter().map(|c| c.chunk_id).collect();
    let (model_id, dim) = (ready.matrix.model_id, ready.matrix.dim);
    let sentences = store.sentence_vectors(model_id, dim, &ids)?;
    let fused = fuse::fuse(&candidates, &sentences, &ready.question, dim);
    // Every passage that may be kept (a reranker may lift one from below the k).
    for f in fused.iter().take(read_count(options)) {
        if let Some(v) = sentences.get(&f.chunk_id) {
            let cosines = v
                .spans
                .iter()
                .enumerate()
                .map(|(i, &(s, e))| {
                    (
                        s,
                        e,
                        crate::model::vector::dot(&v.data[i * dim..(i + 1) * dim], &ready.question),
                    )
                })
                .collect();
            similarity.insert(f.chunk_id, cosines);
        }
    }
    by_id.extend(keyword.into_iter().map(|s| (s.passage.chunk_id, s)));
    let keyword_top = &keyword_ids[..keyword_ids.len().min(5)];
    let agreement = if keyword_top.is_empty() {
        0.0
    } else {
        let dense_top = &hits.top[..hits.top.len().min(5)];
        keyword_top
            .iter()
            .filter(|id| dense_top.iter().any(|(d, _)| d == *id))
            .count() as f64
            / keyword_top.len() as f64
    };
    Ok((fused, (hits, agreement)))
}

/// Whether a search with vectors weighs its sentences by meaning: only when every
/// passage read has its sentence vectors. The models for vectors were learnt with a
/// cosine for every sentence, and read a missing one as a sentence far from the
/// question (an embedding pass stores every passage's vector before any sentence's; a
/// file imported meanwhile has none). Until then the models for words choose and
/// decide, on the passages the vectors helped find.
fn sentences_by_meaning(passages: &[Passage]) -> bool {
    passages.iter().all(|p| {
        !p.sentence_similarity.is_empty()
            || crate::store::passage_text::sentence_spans(&p.text).is_empty()
    })
}

/// How many of the fused ranking are read: a reranker reads more than the k kept, so
/// that it can lift one fusion put lower.
fn read_count(options: &SearchOptions) -> usize {
    match options.rerank {
        Some(_) => options.k.max(rerank::RERANK_CANDIDATES),
        None => options.k,
    }
}

/// The fused ranking cut to what is read: passages the keyword side did not score are
/// scored now, a reranker (if any) reorders them, and the best `k` are kept.
fn keep_and_rerank(
    store: &Store,
    query: &Query,
    weights: &[f64],
    mut fused: Vec<fuse::Fused>,
    options: &SearchOptions,
    info: &mut RetrievalInfo,
    by_id: &mut HashMap<i64, rank::Scored>,
) -> Result<Vec<fuse::Fused>> {
    fused.truncate(read_count(options));
    // Passages the keyword side did not score are read and scored now, only the kept ones.
    let unscored: Vec<i64> = fused
        .iter()
        .map(|f| f.chunk_id)
        .filter(|id| !by_id.contains_key(id))
        .collect();
    for p in store.passages(&unscored)? {
        by_id.insert(p.chunk_id, rank::score(query, weights, p, 0.0));
    }
    fused.retain(|f| by_id.contains_key(&f.chunk_id));
    if let Some(reranker) = &options.rerank
        && !fused.is_empty()
    {
        let t = Instant::now();
        match rerank::reorder(reranker.0.as_ref(), &query.text, &mut fused, by_id) {
            Ok(()) => info.reranker = Some(reranker.0.model()),
            Err(why) => info.rerank_note = Some(why),
        }
        info.rerank_ms = t.elapsed().as_secs_f64() * 1e3;
    }
    fused.truncate(options.k);
    Ok(fused)
}

/// The signals the outcome is decided from.
fn evidence_of(
    query: &Query,
    weights: &[f64],
    passages: &[Passage],
    vectors: Option<&(dense::DenseHits, f64)>,
    unmentioned: Vec<String>,
) -> outcome::Evidence {
    outcome::Evidence {
        coverage: passages.iter().map(|p| p.coverage).fold(0.0, f64::max),
        sentence_coverage: passages
            .iter()
            .map(|p| p.sentence_coverage)
            .fold(0.0, f64::max),
        agreement: vectors.map(|v| v.1),
        standout: vectors.and_then(|(h, _)| {
            let best = passages
                .iter()
                .filter_map(|p| p.why.cosine)
                .fold(f32::MIN, f32::max);
            (h.spread > 1e-6 && best > f32::MIN).then(|| f64::from((best - h.mean) / h.spread))
        }),
        top_cosine: passages
            .iter()
            .filter_map(|p| p.why.cosine)
            .map(f64::from)
            .reduce(f64::max),
        unmentioned,
        fit: None,
        terms_found: terms_found(query, weights, passages),
    }
}

/// IDF-weighted share of `query`'s key terms found in at least one of `passages`.
fn terms_found(query: &Query, weights: &[f64], passages: &[Passage]) -> f64 {
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return 0.0;
    }
    let found: f64 = query
        .terms
        .iter()
        .zip(weights)
        .filter(|(t, _)| passages.iter().any(|p| p.matched_terms.contains(&t.text)))
        .map(|(_, w)| w)
        .sum();
    found / total
}

/// The candidate sentences of `passages`, ranked by the learned model and, when a
/// reranker is set up, by its reading of the best few.
fn choose_sentences(
    query: &Query,
    weights: &[f64],
    passages: &[Passage],
    model: &learned::Model,
    with_vectors: bool,
    options: &SearchOptions,
) -> Vec<choose::Candidate> {
    let refs: Vec<&Passage> = passages.iter().collect();
    let mut sentences = choose::candidates(query, weights, &refs);
    choose::rank(&mut sentences, model.ranker(with_vectors));
    if let Some(reranker) = &options.rerank {
        // A reranker that failed for the passages is not asked again for sentences.
        let _ = choose::rerank(&mut sentences, &query.text, reranker.0.as_ref());
    }
    sentences
}

/// Marks each passage's best sentence (by the ranked `sentences`) as its highlight:
/// the line a passage is shown with is the one the answer would quote from it.
fn mark_chosen(passages: &mut [Passage], sentences: &[choose::Candidate]) {
    for p in passages.iter_mut() {
        let Some(best) = sentences.iter().find(|c| c.n == p.n) else {
            continue;
        };
        let (s, e) = best.span;
        if e > p.text.len() || !p.text.is_char_boundary(s) || !p.text.is_char_boundary(e) {
            continue;
        }
        let before = p.text[..s].chars().count();
        let len = p.text[s..e].chars().count();
        let text = p.text[s..e].to_owned();
        p.highlight = Highlight::of(&p.chunk, before, len, &text);
    }
}

/// Names in the question (see [`evident_text::segment::proper_names`]) of which some
/// word occurs in no passage of the library, as typed; a name counts as mentioned when
/// one of its synonyms is (税务局 where the regulation says 税务机关).
fn unmentioned_names(store: &Store, question: &str, aliases: &Aliases) -> Result<Vec<String>> {
    let all_occur = |tokens: &[String]| -> Result<bool> {
        for token in tokens {
            if store.document_frequency(token)? == 0 {
                return Ok(false);
            }
        }
        Ok(true)
    };
    let mut out = Vec::new();
    for name in evident_text::segment::proper_names(question) {
        if all_occur(&name.tokens)? {
            continue;
        }
        let terms = evident_text::segment::query_terms(&name.text);
        let mut by_synonym = false;
        for (_, _, group) in aliases.matches(&terms) {
            for phrase in group {
                by_synonym |= all_occur(&phrase.tokens)?;
            }
        }
        if !by_synonym {
            out.push(name.text);
        }
    }
    Ok(out)
}

/// How much more of the question's key terms the keyword side's best sentence must
/// cover before it is highlighted instead of the vector side's best sentence.
const KEYWORD_SENTENCE_LEAD: f32 = 0.35 / 3.0;

/// The sentence to highlight: without vectors, the keyword side's best sentence; with
/// them, the vector side's best sentence unless the keyword side's covers clearly more
/// of the question (or all of it).
fn highlight_range(
    query: &Query,
    weights: &[f64],
    f: &fuse::Fused,
    s: &rank::Scored,
) -> (usize, usize) {
    let keyword_best = s.best_sentence;
    let Some(vector_best) = f.vector_sentence else {
        return keyword_best;
    };
    if s.sentence_coverage >= 0.99 || query.terms.is_empty() {
        return keyword_best;
    }
    if vector_best == keyword_best {
        return vector_best;
    }
    let cover = |(start, end): (usize, usize)| -> f32 {
        let tokens = evident_text::segment::passage_tokens(&s.passage.text[start..end]);
        let set: std::collections::HashSet<&str> = tokens.iter().map(String::as_str).collect();
        rank::coverage(query, weights, &set).0 as f32
    };
    if cover(keyword_best) - cover(vector_best) > KEYWORD_SENTENCE_LEAD {
        keyword_best
    } else {
        vector_best
    }
}

fn into_passage(
    n: usize,
    query: &Query,
    weights: &[f64],
    f: fuse::Fused,
    s: rank::Scored,
    sentence_similarity: Vec<(usize, usize, f32)>,
) -> Passage {
    let (bs, be) = highlight_range(query, weights, &f, &s);
    let p = s.passage;
    let before = p.text[..bs].chars().count();
    let len = p.text[bs..be].chars().count();
    Passage {
        n,
        highlight: Highlight::of(&p, before, len, &p.text[bs..be]),
        chunk: p,
        score: f.ranks.fused,
        bm25: s.bm25,
        coverage: s.coverage,
        sentence_coverage: s.sentence_coverage,
        matched_terms: query
            .terms
            .iter()
            .zip(&s.found)
            .filter(|(_, f)| **f)
            .map(|(t, _)| t.text.clone())
            .collect(),
        why: f.ranks,
        sentence_similarity,
    }
}

/// A passage built by hand, for unit tests of the stages after retrieval (grounding,
/// answers).
#[cfg(any(test, feature = "testing"))]
pub fn test_passage(n: usize, doc_id: i64, text: &str) -> Passage {
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
        sentence_coverage: 1.0,
        matched_terms: vec![],
        why: Ranks::default(),
        sentence_similarity: Vec::new(),
    }
}
