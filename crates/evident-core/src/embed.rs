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
use crate::store::{ChunkVectors, PendingChunk, Store, VectorCoverage};
use crate::text::sentence::split_units;

/// Chunk texts embedded per transaction (and per progress report).
const CHUNKS_PER_STEP: usize = 8;
/// Chunk texts looked up at once: finding what is missing scans the whole index, so it
/// is done once per page, not once per step.
const CHUNKS_PER_PAGE: usize = 256;
/// Sentences shorter than this (in chars) are embedded with the next one: a lone
/// "第十条" or "1." says nothing on its own.
const MIN_SENTENCE_CHARS: usize = 6;
/// Most sentence vectors per chunk; longer lists are merged pairwise.
const MAX_SENTENCES: usize = 32;

/// The spans whose vectors stand for a chunk's sentences (byte ranges into `text`).
pub fn sentence_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut pending: Option<usize> = None;
    for (s, e) in split_units(text) {
        let start = pending.take().unwrap_or(s);
        if text[start..e].chars().count() < MIN_SENTENCE_CHARS {
            pending = Some(start);
            continue;
        }
        spans.push((start, e));
    }
    if let Some(start) = pending {
        match spans.last_mut() {
            Some(last) => last.1 = text.trim_end().len().max(last.1),
            None => spans.push((start, text.trim_end().len().max(start))),
        }
    }
    while spans.len() > MAX_SENTENCES {
        spans = spans
            .chunks(2)
            .map(|pair| (pair[0].0, pair[pair.len() - 1].1))
            .collect();
    }
    spans.retain(|&(s, e)| e > s);
    spans
}

/// What a passage's vector is made from: where it sits (document title, then its
/// headings, each once) and its text, both folded. The place carries the topic a
/// passage often does not repeat ("Mental health support > FAQ", "第七章
/// 女职工和未成年工特殊保护"); a family whose prompt has a title slot gets it there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PassageInput {
    /// Title and headings joined with " > "; `None` when there are none.
    pub place: Option<String>,
    /// The chunk text.
    pub text: String,
}

impl PassageInput {
    /// The passage as one text: the place on its own line, then the text. Its hash is
    /// the vectors' key, the same for every model and prompt.
    pub fn joined(&self) -> String {
        match &self.place {
            Some(place) => format!("{place}\n{}", self.text),
            None => self.text.clone(),
        }
    }

    /// The form an embedder takes.
    pub fn as_text(&self) -> Text<'_> {
        Text {
            title: self.place.as_deref(),
            body: &self.text,
        }
    }
}

/// The [`PassageInput`] of a chunk.
pub fn passage_input(title: &str, heading_path: &[String], text: &str) -> PassageInput {
    let mut place: Vec<&str> = Vec::new();
    for part in std::iter::once(title).chain(heading_path.iter().map(String::as_str)) {
        let part = part.trim();
        if !part.is_empty() && !place.contains(&part) {
            place.push(part);
        }
    }
    let nfkc = crate::text::normalize::nfkc;
    PassageInput {
        place: (!place.is_empty()).then(|| nfkc(&place.join(" > "))),
        text: nfkc(text),
    }
}

/// The key of a chunk's vectors: sha256 of [`PassageInput::joined`].
pub fn embed_key(title: &str, heading_path: &[String], text: &str) -> String {
    crate::store::sha256_hex(passage_input(title, heading_path, text).joined().as_bytes())
}

/// One step of an embedding pass, for progress bars.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct EmbedProgress {
    /// Chunks with a vector of the model so far.
    pub embedded: usize,
    /// Chunks in the index.
    pub total: usize,
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
                .map(|&(s, e)| crate::text::normalize::nfkc(&chunk.text[s..e]))
                .collect(),
        );
        layout.push(spans);
    }
    // Each passage, then its sentences (with the passage's place, for a model that
    // reads titles apart).
    let titled = embedder.titles_sentences();
    let mut inputs: Vec<Text<'_>> = Vec::new();
    for (passage, sentences) in passages.iter().zip(&sentences) {
        inputs.push(passage.as_text());
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
    });
    'pages: while !cancelled {
        let page = store.chunks_missing_vectors(model_id, CHUNKS_PER_PAGE)?;
        if page.is_empty() {
            break;
        }
        for pending in page.chunks(CHUNKS_PER_STEP) {
            let rows = embed_step(embedder, pending)?;
            store.put_vectors(model_id, &rows)?;
            embedded_now += rows.len();
            coverage.embedded += pending.iter().map(|c| c.chunks).sum::<usize>();
            cancelled = !progress(EmbedProgress {
                embedded: coverage.embedded.min(coverage.total),
                total: coverage.total,
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
    fn short_units_join_the_next_sentence() {
        let text = "第十条\n员工请假须提前申请。病假须附证明。";
        let spans = sentence_spans(text);
        let pieces: Vec<&str> = spans.iter().map(|&(s, e)| &text[s..e]).collect();
        assert_eq!(pieces, ["第十条\n员工请假须提前申请。", "病假须附证明。"]);
    }

    #[test]
    fn a_passage_is_embedded_with_its_place_said_once() {
        let heading = vec!["劳动法".to_owned(), "第七章 女职工特殊保护".to_owned()];
        let input = passage_input("劳动法", &heading, "第六十条 ……");
        assert_eq!(
            input.joined(),
            "劳动法 > 第七章 女职工特殊保护\n第六十条 ......",
            "what the model reads is folded like every matching form"
        );
        assert_eq!(
            input.place.as_deref(),
            Some("劳动法 > 第七章 女职工特殊保护")
        );
        assert_eq!(passage_input(" ", &[], "text").joined(), "text");
        assert_eq!(passage_input(" ", &[], "text").place, None);
        assert_ne!(
            embed_key("A", &[], "same text"),
            embed_key("B", &[], "same text"),
            "another title is another passage to embed"
        );
    }

    #[test]
    fn long_lists_are_merged_to_the_cap() {
        let text = "这是一个完整的句子。".repeat(100);
        let spans = sentence_spans(&text);
        assert!(spans.len() <= MAX_SENTENCES, "{} spans", spans.len());
        assert_eq!(spans.first().map(|s| s.0), Some(0));
        assert_eq!(spans.last().map(|s| s.1), Some(text.len()));
    }
}
