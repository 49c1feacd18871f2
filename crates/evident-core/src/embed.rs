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
pub use crate::store::passage_text::{
    PassageInput, embed_key, passage_input, place, sentence_spans,
};
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

/// The work of embedding `text`, in quarters of a token, estimated without the model's
/// tokenizer: a CJK character is about a token, four other characters are about one.
/// A model reads at about one pace in tokens (the built-in EmbeddingGemma: some 400 a
/// second on two cores), so passages and sentences share one rate in this unit. Checked
/// on two passes of the built-in model: the passages' rate gave their sentences 515 s
/// where 548 s were taken (colloquial-dev's 33 documents), and 77.9 s where 74.7 s were
/// (50 CMRC 2018 passages and 5 handbook pages); a rate per chunk had said 401 and 80.
fn quarter_tokens(text: &str) -> usize {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| {
            if evident_text::normalize::is_cjk(c) {
                4
            } else {
                1
            }
        })
        .sum()
}

/// The work of embedding a chunk text's passage: its place and its text.
fn passage_work(chunk: &PendingChunk) -> usize {
    let input = passage_input(&chunk.title, &chunk.heading_path, &chunk.text);
    input.place.as_deref().map_or(0, quarter_tokens) + quarter_tokens(&input.text)
}

/// The work of embedding a chunk text's sentences: each, with the passage's place
/// when the model reads it too (`titled`).
fn sentence_work(chunk: &PendingChunk, titled: bool) -> usize {
    let place = if titled {
        place(&chunk.title, &chunk.heading_path)
            .as_deref()
            .map_or(0, quarter_tokens)
    } else {
        0
    };
    sentence_spans(&chunk.text)
        .iter()
        .map(|&(s, e)| place + quarter_tokens(&chunk.text[s..e]))
        .sum()
}

/// The work a pass has left and has done, for the time left: passages and sentences
/// at one rate ([`quarter_tokens`]).
#[derive(Debug, Default)]
struct Work {
    left: usize,
    done: usize,
    seconds: f64,
}

impl Work {
    /// The work of everything `model_id` has not embedded in `store`, its sentences
    /// read with their passage's place or not (`titled`).
    fn pending(store: &Store, model_id: i64, titled: bool) -> Result<Self> {
        const ALL: usize = i64::MAX as usize;
        let missing: usize = store
            .chunks_missing_vectors(model_id, ALL)?
            .iter()
            .map(|c| passage_work(c) + sentence_work(c, titled))
            .sum();
        let sentences: usize = store
            .chunks_missing_sentences(model_id, ALL)?
            .iter()
            .map(|c| sentence_work(c, titled))
            .sum();
        Ok(Self {
            left: missing + sentences,
            ..Self::default()
        })
    }

    fn did(&mut self, work: usize, seconds: f64) {
        self.done += work;
        self.left = self.left.saturating_sub(work);
        self.seconds += seconds;
    }

    /// Whole seconds the rest will take at the rate so far, rounded up; `None` before
    /// there is a rate.
    fn seconds_left(&self) -> Option<u64> {
        (self.done > 0 && self.seconds > 0.0)
            .then(|| (self.left as f64 * self.seconds / self.done as f64).ceil() as u64)
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
        .map(|c| place(&c.title, &c.heading_path))
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
    let titled = embedder.titles_sentences();
    let mut work = Work::pending(store, model_id, titled)?;
    let mut report = |coverage: &VectorCoverage, work: &Work| {
        progress(EmbedProgress {
            embedded: coverage.embedded.min(coverage.total),
            sentences: coverage.sentences.min(coverage.total),
            total: coverage.total,
            seconds_left: work.seconds_left(),
        })
    };
    let mut cancelled = !report(&coverage, &work);
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
                let done: usize = match phase {
                    Phase::Passages => {
                        let rows = embed_passages(embedder, pending)?;
                        store.put_passage_vectors(model_id, &rows)?;
                        embedded_now += rows.len();
                        coverage.embedded += chunks;
                        pending.iter().map(passage_work).sum()
                    }
                    Phase::Sentences => {
                        let rows = embed_sentences(embedder, pending)?;
                        store.put_sentence_vectors(model_id, &rows)?;
                        sentences_now += rows.len();
                        coverage.sentences += chunks;
                        pending.iter().map(|c| sentence_work(c, titled)).sum()
                    }
                };
                work.did(done, step.elapsed().as_secs_f64());
                cancelled = !report(&coverage, &work);
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
        let mut work = Work {
            left: 1_000,
            ..Work::default()
        };
        assert_eq!(work.seconds_left(), None, "no rate before the first step");
        work.did(0, 2.0);
        assert_eq!(
            work.seconds_left(),
            None,
            "nor from a step that did nothing"
        );
        // 200 characters' work in 2 s: the 800 left take 8 s.
        work.did(200, 0.0);
        assert_eq!(work.seconds_left(), Some(8));
        // Rounded up: never 0 while some work is left.
        work.did(799, 0.0);
        assert_eq!(work.seconds_left(), Some(1));
        work.did(5, 1.0);
        assert_eq!(work.seconds_left(), Some(0), "more done than was counted");
    }

    #[test]
    fn work_is_counted_in_tokens_of_what_the_model_reads() {
        assert_eq!(quarter_tokens("病假须提供证明。"), 8 * 4);
        assert_eq!(
            quarter_tokens("Sick leave, 5 days"),
            15,
            "four characters a token"
        );
        let chunk = PendingChunk {
            embed_key: "k".into(),
            title: "请假制度".into(),
            heading_path: vec!["第二章 病假".into()],
            text: "员工请病假须提供医院证明。病假期间工资按百分之八十发放。".into(),
            chunks: 1,
        };
        assert_eq!(sentence_spans(&chunk.text).len(), 2);
        let input = passage_input(&chunk.title, &chunk.heading_path, &chunk.text);
        let place = quarter_tokens(input.place.as_deref().expect("a title and a heading"));
        assert!(place >= 4 * 4, "{place}");
        assert_eq!(sentence_work(&chunk, false), 28 * 4);
        assert_eq!(
            sentence_work(&chunk, true),
            28 * 4 + 2 * place,
            "each sentence is read with the place"
        );
        assert_eq!(passage_work(&chunk), place + quarter_tokens(&input.text));
    }
}
