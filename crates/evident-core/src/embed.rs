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
use crate::store::{ChunkVectors, PendingChunk, Store, VectorCoverage};

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
    /// Chunks with a vector of the model so far.
    pub embedded: usize,
    /// Chunks in the index.
    pub total: usize,
    /// How long the rest will take at this pass's rate so far (whole seconds, rounded
    /// up); `None` before its first step, when there is no rate yet.
    pub seconds_left: Option<u64>,
}

/// The time the rest of a pass will take: `left` chunks at the rate of `done` in
/// `elapsed` seconds.
fn seconds_left(done: usize, elapsed: f64, left: usize) -> Option<u64> {
    if done == 0 || elapsed <= 0.0 {
        return None;
    }
    Some((left as f64 * elapsed / done as f64).ceil() as u64)
}

/// What an embedding pass did.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct EmbedReport {
    /// The model's name.
    pub model: String,
    /// Vector width.
    pub dim: usize,
    /// Chunk texts embedded in this pass.
    pub embedded_now: usize,
    /// Where the index stands afterwards.
    pub coverage: VectorCoverage,
    /// Whether the pass stopped early because it was asked to.
    pub cancelled: bool,
    /// Vectors of chunk texts no longer in the index that were deleted.
    pub pruned: usize,
    /// Seconds spent.
    pub seconds: f64,
}

/// The vectors of one step's chunks: a passage vector and one per sentence each.
fn embed_step(embedder: &dyn Embedder, pending: &[PendingChunk]) -> Result<Vec<ChunkVectors>> {
    let passages: Vec<PassageInput> = pending
        .iter()
        .map(|c| passage_input(&c.title, &c.heading_path, &c.text))
        .collect();
    let mut sentences: Vec<Vec<String>> = Vec::with_capacity(pending.len());
    let mut layout = Vec::with_capacity(pending.len());
    for chunk in pending {
        let spans = sentence_spans(&chunk.text);
        sentences.push(
            spans
                .iter()
                .map(|&(s, e)| evident_text::normalize::nfkc(&chunk.text[s..e]))
                .collect(),
        );
        layout.push(spans);
    }
    // Each passage, then its sentences (with the passage's place, for a model that
    // reads titles apart).
    let titled = embedder.titles_sentences();
    let mut inputs: Vec<Text<'_>> = Vec::new();
    for (passage, sentences) in passages.iter().zip(&sentences) {
        inputs.push(as_text(passage));
        inputs.extend(sentences.iter().map(|s| Text {
            title: if titled {
                passage.place.as_deref()
            } else {
                None
            },
            body: s.as_str(),
        }));
    }
    let mut vectors = embedder.embed(&inputs, InputKind::Passage)?.into_iter();
    Ok(pending
        .iter()
        .zip(layout)
        .map(|(chunk, spans)| ChunkVectors {
            embed_key: chunk.embed_key.clone(),
            passage: vectors.next().unwrap_or_default(),
            sentences: vectors.by_ref().take(spans.len()).collect(),
            spans,
        })
        .collect())
}

/// Embeds every chunk text of `store` that has no vector of `embedder`'s model yet.
/// `progress` is called after every step; returning `false` stops the pass (what was
/// stored so far stays). A server failure stops the pass with that error, keeping
/// every step committed before it.
pub fn embed_missing(
    store: &mut Store,
    embedder: &dyn Embedder,
    progress: &mut dyn FnMut(EmbedProgress) -> bool,
) -> Result<EmbedReport> {
    let started = Instant::now();
    let identity = embedder.identity()?;
    let model_id = store.register_model(&identity, &embedder.location())?;
    let mut coverage = store.vector_coverage(model_id)?;
    let mut embedded_now = 0;
    let mut cancelled = !progress(EmbedProgress {
        embedded: coverage.embedded,
        total: coverage.total,
        seconds_left: None,
    });
    let mut chunks_now = 0;
    'pages: while !cancelled {
        let page = store.chunks_missing_vectors(model_id, CHUNKS_PER_PAGE)?;
        if page.is_empty() {
            break;
        }
        for pending in page.chunks(CHUNKS_PER_STEP) {
            let rows = embed_step(embedder, pending)?;
            store.put_vectors(model_id, &rows)?;
            embedded_now += rows.len();
            let chunks: usize = pending.iter().map(|c| c.chunks).sum();
            coverage.embedded += chunks;
            chunks_now += chunks;
            let embedded = coverage.embedded.min(coverage.total);
            cancelled = !progress(EmbedProgress {
                embedded,
                total: coverage.total,
                seconds_left: seconds_left(
                    chunks_now,
                    started.elapsed().as_secs_f64(),
                    coverage.total - embedded,
                ),
            });
            if cancelled {
                break 'pages;
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
        assert_eq!(
            seconds_left(0, 3.0, 100),
            None,
            "no rate before the first step"
        );
        assert_eq!(seconds_left(8, 0.0, 100), None);
        // 8 chunks in 4 s: 2 a second, so 100 more take 50 s.
        assert_eq!(seconds_left(8, 4.0, 100), Some(50));
        assert_eq!(
            seconds_left(3, 1.0, 1),
            Some(1),
            "rounded up, never 0 while some are left"
        );
        assert_eq!(seconds_left(8, 4.0, 0), Some(0));
    }
}
