//! Keeping the index's vectors complete: every chunk text gets a passage vector and one
//! vector per sentence from the configured model, in batches, resumable at any point.
//!
//! Import calls [`embed_missing`] after its documents are committed, and a server that
//! is down then only delays it: the import has succeeded, and the next pass (`evident
//! embed`, or the app in the background) picks up exactly the chunk texts that have no
//! vector of the current model. A different model (another name, width or probe vector)
//! is a new model: its vectors are made from scratch and never compared with another's.
//!
//! What a model reads is folded (NFKC) like everything else used for matching: the
//! documents are stored as written, but `２０，０００` and `20,000` are one text to
//! search (and to the XLM-R tokenizers of e5 and bge-m3, which fold it themselves). A
//! vector therefore does not change when only the display form of a text does.

use std::time::Instant;

use serde::Serialize;

use crate::Result;
use crate::model::{Embedder, InputKind, Text};
pub use crate::store::passage_text::{PassageInput, embed_key, passage_input, sentence_spans};
use crate::store::{ChunkSentences, PendingChunk, Store, VectorCoverage};

/// Chunk texts embedded per transaction (and per progress report).
const CHUNKS_PER_STEP: usize = 8;
/// Chunk texts looked up at once: finding what is missing scans the whole index, so it
/// is done once per page, not once per step.
const CHUNKS_PER_PAGE: usize = 256;

/// The form an embedder takes of a passage: its place as the title, its text as body.
fn as_text(input: &PassageInput) -> Text<'_> {
    Text {
        title: input.place.as_deref(),
        body: &input.text,
    }
}

/// One step of an embedding pass, for progress bars.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct EmbedProgress {
    /// Chunks with a passage vector of the model so far (what meaning search finds).
    pub embedded: usize,
    /// Chunks whose sentences have vectors too (every passage comes first).
    pub sentences: usize,
    /// Chunks in the index.
    pub total: usize,
    /// How long the rest will take at this pass's rate so far (whole seconds, rounded
    /// up); `None` before its first step, when there is no rate yet.
    pub seconds_left: Option<u64>,
}

/// The two halves of a pass: every passage's vector, then their sentences'.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Passages,
    Sentences,
}

/// Seconds a chunk's sentences take to embed for each second its passage took, until
/// the pass has a sentence rate of its own: the corpus with the built-in
/// EmbeddingGemma took 688 s for 1,073 passages and 854 s for their 8,301 sentences
/// (about 1.24 times as long per chunk).
const SENTENCES_PER_PASSAGE: f64 = 1.24;

/// Chunks embedded and seconds spent, per phase, for the time left.
#[derive(Debug, Default)]
struct Rates {
    passages: (usize, f64),
    sentences: (usize, f64),
}

impl Rates {
    fn add(&mut self, phase: Phase, chunks: usize, seconds: f64) {
        let rate = match phase {
            Phase::Passages => &mut self.passages,
            Phase::Sentences => &mut self.sentences,
        };
        rate.0 += chunks;
        rate.1 += seconds;
    }

    /// Seconds per chunk of a phase, when this pass has done some of it.
    fn per_chunk((chunks, seconds): (usize, f64)) -> Option<f64> {
        (chunks > 0 && seconds > 0.0).then(|| seconds / chunks as f64)
    }

    /// The time `passages` chunks without any vector and `sentences` chunks without
    /// sentence vectors will take (whole seconds, rounded up); `None` without a rate.
    fn seconds_left(&self, passages: usize, sentences: usize) -> Option<u64> {
        let passage = Self::per_chunk(self.passages);
        let sentence =
            Self::per_chunk(self.sentences).or(passage.map(|p| p * SENTENCES_PER_PASSAGE));
        let left = match (passage, sentence) {
            (_, Some(s)) if passages == 0 => sentences as f64 * s,
            (Some(p), Some(s)) => passages as f64 * p + sentences as f64 * s,
            _ => return None,
        };
        Some(left.ceil() as u64)
    }
}

/// What an embedding pass did.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct EmbedReport {
    /// The model's name.
    pub model: String,
    /// Vector width.
    pub dim: usize,
    /// Chunk texts given a passage vector in this pass.
    pub embedded_now: usize,
    /// Chunk texts given their sentence vectors in this pass.
    #[serde(default)]
    pub sentences_now: usize,
    /// Where the index stands afterwards.
    pub coverage: VectorCoverage,
    /// Whether the pass stopped early because it was asked to.
    pub cancelled: bool,
    /// Vectors of chunk texts no longer in the index that were deleted.
    pub pruned: usize,
    /// Seconds spent.
    pub seconds: f64,
}

/// The passage vectors of one step's chunks.
fn embed_passages(
    embedder: &dyn Embedder,
    pending: &[PendingChunk],
) -> Result<Vec<(String, Vec<f32>)>> {
    let passages: Vec<PassageInput> = pending
        .iter()
        .map(|c| passage_input(&c.title, &c.heading_path, &c.text))
        .collect();
    let inputs: Vec<Text<'_>> = passages.iter().map(as_text).collect();
    let mut vectors = embedder.embed(&inputs, InputKind::Passage)?.into_iter();
    Ok(pending
        .iter()
        .map(|chunk| (chunk.embed_key.clone(), vectors.next().unwrap_or_default()))
        .collect())
}

/// The sentence vectors of one step's chunks (with the passage's place as their title,
/// for a model that reads titles apart).
fn embed_sentences(
    embedder: &dyn Embedder,
    pending: &[PendingChunk],
) -> Result<Vec<ChunkSentences>> {
    let titled = embedder.titles_sentences();
    let places: Vec<Option<String>> = pending
        .iter()
        .map(|c| passage_input(&c.title, &c.heading_path, &c.text).place)
        .collect();
    let mut texts: Vec<Vec<String>> = Vec::with_capacity(pending.len());
    let mut layout = Vec::with_capacity(pending.len());
    for chunk in pending {
        let spans = sentence_spans(&chunk.text);
        texts.push(
            spans
                .iter()
                .map(|&(s, e)| evident_text::normalize::nfkc(&chunk.text[s..e]))
                .collect(),
        );
        layout.push(spans);
    }
    let mut inputs: Vec<Text<'_>> = Vec::new();
    for (place, sentences) in places.iter().zip(&texts) {
        inputs.extend(sentences.iter().map(|s| Text {
            title: if titled { place.as_deref() } else { None },
            body: s.as_str(),
        }));
    }
    let mut vectors = embedder.embed(&inputs, InputKind::Passage)?.into_iter();
    Ok(pending
        .iter()
        .zip(layout)
        .map(|(chunk, spans)| ChunkSentences {
            embed_key: chunk.embed_key.clone(),
            sentences: vectors.by_ref().take(spans.len()).collect(),
            spans,
        })
        .collect())
}

/// Embeds every chunk text of `store` that has no vector of `embedder`'s model yet:
/// first every passage, so that meaning search reaches them all as soon as it can,
/// then their sentences, which answers choose their sentences by. `progress` is called
/// after every step; returning `false` stops the pass (what was stored so far stays).
/// A server failure stops the pass with that error, keeping every step committed
/// before it.
pub fn embed_missing(
    store: &mut Store,
    embedder: &dyn Embedder,
    progress: &mut dyn FnMut(EmbedProgress) -> bool,
) -> Result<EmbedReport> {
    let started = Instant::now();
    let identity = embedder.identity()?;
    let model_id = store.register_model(&identity, &embedder.location())?;
    let mut coverage = store.vector_coverage(model_id)?;
    let (mut embedded_now, mut sentences_now) = (0, 0);
    let mut rates = Rates::default();
    let mut report = |coverage: &VectorCoverage, rates: &Rates| {
        let embedded = coverage.embedded.min(coverage.total);
        let sentences = coverage.sentences.min(coverage.total);
        progress(EmbedProgress {
            embedded,
            sentences,
            total: coverage.total,
            seconds_left: rates.seconds_left(coverage.total - embedded, coverage.total - sentences),
        })
    };
    let mut cancelled = !report(&coverage, &rates);
    for phase in [Phase::Passages, Phase::Sentences] {
        while !cancelled {
            let page = match phase {
                Phase::Passages => store.chunks_missing_vectors(model_id, CHUNKS_PER_PAGE)?,
                Phase::Sentences => store.chunks_missing_sentences(model_id, CHUNKS_PER_PAGE)?,
            };
            if page.is_empty() {
                break;
            }
            for pending in page.chunks(CHUNKS_PER_STEP) {
                let step = Instant::now();
                let chunks: usize = pending.iter().map(|c| c.chunks).sum();
                match phase {
                    Phase::Passages => {
                        let rows = embed_passages(embedder, pending)?;
                        store.put_passage_vectors(model_id, &rows)?;
                        embedded_now += rows.len();
                        coverage.embedded += chunks;
                    }
                    Phase::Sentences => {
                        let rows = embed_sentences(embedder, pending)?;
                        store.put_sentence_vectors(model_id, &rows)?;
                        sentences_now += rows.len();
                        coverage.sentences += chunks;
                    }
                }
                rates.add(phase, chunks, step.elapsed().as_secs_f64());
                cancelled = !report(&coverage, &rates);
                if cancelled {
                    break;
                }
            }
        }
    }
    // Counted again at the end: an import may have changed the index meanwhile.
    let coverage = store.vector_coverage(model_id)?;
    let pruned = if cancelled { 0 } else { store.prune_vectors()? };
    Ok(EmbedReport {
        model: identity.name,
        dim: identity.dim,
        embedded_now,
        sentences_now,
        coverage,
        cancelled,
        pruned,
        seconds: started.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_left_follows_the_rate_so_far() {
        let mut rates = Rates::default();
        assert_eq!(
            rates.seconds_left(100, 100),
            None,
            "no rate before the first step"
        );
        rates.add(Phase::Passages, 8, 0.0);
        assert_eq!(
            rates.seconds_left(100, 100),
            None,
            "nor after a step that took no time"
        );
        // 8 passages in 4 s: half a second each, and their sentences 1.24 times that.
        rates.add(Phase::Passages, 0, 4.0);
        assert_eq!(rates.seconds_left(100, 100), Some(50 + 62));
        assert_eq!(rates.seconds_left(0, 0), Some(0));
        // Once sentences have a rate of their own, it is used instead.
        rates.add(Phase::Sentences, 10, 10.0);
        assert_eq!(rates.seconds_left(0, 30), Some(30));
        assert_eq!(rates.seconds_left(2, 30), Some(31));
        // Rounded up: never 0 while some are left.
        let mut fast = Rates::default();
        fast.add(Phase::Sentences, 3, 1.0);
        assert_eq!(fast.seconds_left(0, 1), Some(1));
        assert_eq!(
            fast.seconds_left(5, 1),
            None,
            "passages left and no passage rate"
        );
    }
}
