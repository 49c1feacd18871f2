//! Chunking: packing sentences into passages on semantic boundaries.
//!
//! Boundaries, strongest first: a heading (a chunk never spans two sections), a block
//! start (clause such as 第X条 or `1.`, paragraph, list item, table row), then a sentence
//! end. A chunk grows to about [`ChunkerConfig::target_tokens`]; past that it closes at
//! the next block start, and it may run on to [`ChunkerConfig::max_tokens`] only to keep
//! a paragraph together. When a paragraph itself is longer than that, it is cut between
//! sentences and the next chunk repeats the last sentence(s) as overlap so neither half
//! loses its context. Only a single sentence longer than the maximum is cut inside, at
//! a comma or space where possible.
//!
//! Token counts come from [`evident_text::segment`], the same segmentation the index uses.

use serde::Serialize;

use crate::extract::{BlockKind, Extracted};
use crate::{Error, Result};
use evident_text::{segment::index_tokens, sentence::split_sentences};

/// Version of the chunking rules; stored per document so old chunks are found and redone.
///
/// 2: chunk text is the document's own (full-width punctuation and digits as written),
/// no longer NFKC-folded at extraction.
pub const CHUNKER_VERSION: u32 = 2;

/// Chunk size settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ChunkerConfig {
    /// Size a chunk aims for, in index tokens.
    pub target_tokens: usize,
    /// Hard maximum; only a single overlong sentence is ever cut to respect it.
    pub max_tokens: usize,
    /// Sentences repeated at the start of a chunk that continues a cut paragraph.
    pub overlap_sentences: usize,
    /// Overlap is skipped when those sentences hold more tokens than this.
    pub overlap_max_tokens: usize,
}

impl Default for ChunkerConfig {
    fn default() -> Self {
        Self {
            target_tokens: 300,
            max_tokens: 512,
            overlap_sentences: 1,
            overlap_max_tokens: 128,
        }
    }
}

impl ChunkerConfig {
    /// Rejects settings that cannot work, with a message naming the setting.
    pub fn validate(&self) -> Result<()> {
        if self.target_tokens == 0 || self.max_tokens == 0 {
            return Err(Error::InvalidConfig(
                "chunk target and maximum must be at least 1 token".into(),
            ));
        }
        if self.target_tokens > self.max_tokens {
            return Err(Error::InvalidConfig(format!(
                "chunk target ({}) must not exceed the maximum ({})",
                self.target_tokens, self.max_tokens
            )));
        }
        if self.overlap_max_tokens >= self.max_tokens {
            return Err(Error::InvalidConfig(format!(
                "chunk overlap ({} tokens) must be smaller than the maximum ({})",
                self.overlap_max_tokens, self.max_tokens
            )));
        }
        Ok(())
    }
}

/// A passage of a document, ready to store and index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// Position among the document's chunks, from 0.
    pub ordinal: usize,
    /// Byte offset of the first character in the document text.
    pub start: usize,
    /// Byte offset just past the last character.
    pub end: usize,
    /// Headings above the chunk, outermost first.
    pub heading_path: Vec<String>,
    /// First page the chunk touches.
    pub page_start: u32,
    /// Last page the chunk touches.
    pub page_end: u32,
    /// Index tokens in the chunk.
    pub token_count: usize,
    /// Space-separated index tokens (what the full-text index stores).
    pub index_text: String,
    /// Index tokens of the heading path (the index's `heading` column).
    pub heading_index_text: String,
}

/// A sentence (or a heading, or a piece of an overlong sentence) with its tokens.
#[derive(Debug, Clone)]
struct Unit {
    start: usize,
    end: usize,
    tokens: usize,
    index_text: String,
    block_start: bool,
    /// False for the pieces of a sentence cut for length; those are never repeated.
    whole: bool,
    /// A heading line.
    heading: bool,
    section: usize,
}

/// Splits a document into chunks.
pub fn chunk(doc: &Extracted, config: &ChunkerConfig) -> Result<Vec<Chunk>> {
    config.validate()?;
    let (units, sections) = units(doc, config)?;
    let mut out = Chunks {
        doc,
        units: &units,
        heading_tokens: vec![None; sections.len()],
        sections,
        chunks: Vec::new(),
    };
    let mut current: Vec<usize> = Vec::new();
    let mut tokens = 0;
    for (i, unit) in units.iter().enumerate() {
        if let Some(&first) = current.first() {
            // A heading with nothing under it before the next heading (a title above a
            // chapter) travels on with the next section instead of standing alone.
            let only_headings = current.iter().all(|&c| units[c].heading);
            let new_section = units[first].section != unit.section && !only_headings;
            let over_max = tokens + unit.tokens > config.max_tokens;
            let past_target = tokens + unit.tokens > config.target_tokens && unit.block_start;
            if new_section || over_max || past_target {
                out.emit(&current);
                let keep = if over_max && !unit.block_start && !new_section {
                    overlap(&units, &current, config)
                } else {
                    Vec::new()
                };
                tokens = keep.iter().map(|&k| units[k].tokens).sum();
                current = keep;
            }
        }
        current.push(i);
        tokens += unit.tokens;
    }
    out.emit(&current);
    Ok(out.chunks)
}

/// The last sentences of a chunk to repeat, if they fit the overlap budget.
fn overlap(units: &[Unit], current: &[usize], config: &ChunkerConfig) -> Vec<usize> {
    let n = config
        .overlap_sentences
        .min(current.len().saturating_sub(1));
    let keep = current[current.len() - n..].to_vec();
    let size: usize = keep.iter().map(|&k| units[k].tokens).sum();
    if size <= config.overlap_max_tokens && keep.iter().all(|&k| units[k].whole) {
        keep
    } else {
        Vec::new()
    }
}

/// The chunks made so far, and what making the next one needs.
struct Chunks<'a> {
    doc: &'a Extracted,
    units: &'a [Unit],
    sections: Vec<Vec<String>>,
    /// Index tokens of each section's heading path, segmented once per section.
    heading_tokens: Vec<Option<String>>,
    chunks: Vec<Chunk>,
}

impl Chunks<'_> {
    /// Makes a chunk of the units `current` (nothing if it is empty).
    fn emit(&mut self, current: &[usize]) {
        let units = self.units;
        let (Some(&first), Some(&last)) = (current.first(), current.last()) else {
            return;
        };
        let start = units[first].start;
        let end = units[last].end;
        let mut index_text = String::new();
        for &u in current {
            if !index_text.is_empty() && !units[u].index_text.is_empty() {
                index_text.push(' ');
            }
            index_text.push_str(&units[u].index_text);
        }
        let section = units[last].section;
        let heading_path = &self.sections[section];
        let heading_index_text = self.heading_tokens[section]
            .get_or_insert_with(|| index_tokens(&heading_path.join(" ")).0)
            .clone();
        self.chunks.push(Chunk {
            ordinal: self.chunks.len(),
            start,
            end,
            heading_path: heading_path.clone(),
            page_start: self.doc.page_at(start),
            page_end: self.doc.page_at(end.saturating_sub(1).max(start)),
            token_count: current.iter().map(|&u| units[u].tokens).sum(),
            index_text,
            heading_index_text,
        });
    }
}

/// Documents larger than this are segmented on several threads.
const PARALLEL_BYTES: usize = 1 << 20;

/// Cuts the document into units and numbers its sections (distinct heading paths).
///
/// Segmentation dominates import time, so a large document's blocks are split into
/// contiguous ranges segmented in parallel; the result is identical to a serial run.
fn units(doc: &Extracted, config: &ChunkerConfig) -> Result<(Vec<Unit>, Vec<Vec<String>>)> {
    let mut sections: Vec<Vec<String>> = Vec::new();
    let mut block_sections = Vec::with_capacity(doc.blocks.len());
    for block in &doc.blocks {
        if sections.last() != Some(&block.heading_path)
            || matches!(block.kind, BlockKind::Heading { .. })
        {
            sections.push(block.heading_path.clone());
        }
        block_sections.push(sections.len() - 1);
    }
    let threads = if doc.text.len() > PARALLEL_BYTES {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(8)
    } else {
        1
    };
    if threads == 1 {
        return Ok((
            block_units(doc, 0..doc.blocks.len(), &block_sections, config),
            sections,
        ));
    }
    let per = doc.blocks.len().div_ceil(threads).max(1);
    let units = std::thread::scope(|s| {
        let handles: Vec<_> = (0..doc.blocks.len())
            .step_by(per)
            .map(|from| {
                let to = (from + per).min(doc.blocks.len());
                let block_sections = &block_sections;
                s.spawn(move || block_units(doc, from..to, block_sections, config))
            })
            .collect();
        // A range whose thread failed would silently lose its text: the document
        // fails instead, with a reason, and the rest of the import goes on.
        let mut all = Vec::new();
        for h in handles {
            all.extend(h.join().map_err(|panic| {
                let why = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown failure".into());
                Error::Chunking(why)
            })?);
        }
        Ok::<_, Error>(all)
    })?;
    Ok((units, sections))
}

fn block_units(
    doc: &Extracted,
    range: std::ops::Range<usize>,
    block_sections: &[usize],
    config: &ChunkerConfig,
) -> Vec<Unit> {
    let mut units = Vec::new();
    for b in range {
        let block = &doc.blocks[b];
        let section = block_sections[b];
        let text = &doc.text[block.start..block.end];
        let spans = if matches!(
            block.kind,
            BlockKind::Heading { .. } | BlockKind::TableRow | BlockKind::Code
        ) {
            vec![(0, text.len())]
        } else {
            split_sentences(text)
        };
        for (k, (a, b)) in spans.into_iter().enumerate() {
            let (a, b) = (block.start + a, block.start + b);
            let mut pieces = Vec::new();
            split_to_fit(&doc.text, a, b, config.max_tokens, &mut pieces);
            let whole = pieces.len() == 1;
            for (p, (start, end, tokens, index_text)) in pieces.into_iter().enumerate() {
                units.push(Unit {
                    start,
                    end,
                    tokens,
                    index_text,
                    block_start: k == 0 && p == 0,
                    whole,
                    heading: matches!(block.kind, BlockKind::Heading { .. }),
                    section,
                });
            }
        }
    }
    units
}

/// Measures `text[a..b]`; if it exceeds `max` tokens, cuts it near the middle at the best
/// available break (comma, then space, then any character) and recurses.
fn split_to_fit(
    text: &str,
    a: usize,
    b: usize,
    max: usize,
    out: &mut Vec<(usize, usize, usize, String)>,
) {
    let (index_text, tokens) = index_tokens(&text[a..b]);
    if tokens <= max || b - a < 8 {
        out.push((a, b, tokens, index_text));
        return;
    }
    let piece = &text[a..b];
    let mid = piece.len() / 2;
    let candidates: Vec<(usize, char)> = piece.char_indices().collect();
    let best = |pred: &dyn Fn(char) -> bool| {
        candidates
            .iter()
            .filter(|(i, c)| *i > 0 && pred(*c))
            .min_by_key(|(i, _)| i.abs_diff(mid))
            .map(|(i, c)| i + c.len_utf8())
    };
    let cut = best(&|c| matches!(c, '，' | ',' | '、' | '：' | ':'))
        .filter(|&i| i > piece.len() / 5 && i < piece.len() * 4 / 5)
        .or_else(|| {
            best(&char::is_whitespace).filter(|&i| i > piece.len() / 5 && i < piece.len() * 4 / 5)
        })
        .unwrap_or_else(|| {
            let mut m = mid;
            while !piece.is_char_boundary(m) {
                m += 1;
            }
            m
        });
    split_to_fit(text, a, a + cut, max, out);
    let rest = a + cut + (piece[cut..].len() - piece[cut..].trim_start().len());
    split_to_fit(text, rest, b, max, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::{markdown, plain};

    fn cfg(target: usize, max: usize) -> ChunkerConfig {
        ChunkerConfig {
            target_tokens: target,
            max_tokens: max,
            overlap_sentences: 1,
            overlap_max_tokens: max / 2,
        }
    }

    fn texts<'a>(doc: &'a Extracted, chunks: &[Chunk]) -> Vec<&'a str> {
        chunks.iter().map(|c| &doc.text[c.start..c.end]).collect()
    }

    #[test]
    fn invalid_settings_are_rejected_with_reasons() {
        let zero = ChunkerConfig {
            target_tokens: 0,
            ..ChunkerConfig::default()
        };
        assert!(zero.validate().is_err());
        let overlap = ChunkerConfig {
            overlap_max_tokens: 512,
            ..ChunkerConfig::default()
        };
        let msg = overlap
            .validate()
            .map_err(|e| e.to_string())
            .expect_err("overlap >= max");
        assert!(msg.contains("overlap"), "{msg}");
        let inverted = ChunkerConfig {
            target_tokens: 600,
            ..ChunkerConfig::default()
        };
        assert!(inverted.validate().is_err());
        assert!(ChunkerConfig::default().validate().is_ok());
    }

    #[test]
    fn sections_never_share_a_chunk() {
        let doc = markdown::extract("# A\n\nShort one.\n\n# B\n\nShort two.", "t");
        let chunks = chunk(&doc, &ChunkerConfig::default()).unwrap_or_default();
        assert_eq!(
            texts(&doc, &chunks),
            vec!["A\n\nShort one.", "B\n\nShort two."]
        );
        assert_eq!(chunks[1].heading_path, vec!["B".to_owned()]);
    }

    #[test]
    fn clauses_are_kept_whole_and_packed_to_the_target() {
        let text = (1..=6)
            .map(|n| format!("第{n}条 员工报销差旅费用应当提供真实有效的发票和行程单据。"))
            .collect::<Vec<_>>()
            .join("\n");
        let doc = plain::extract(&text, "t");
        let per_clause = evident_text::segment::token_count(
            "第1条 员工报销差旅费用应当提供真实有效的发票和行程单据。",
        );
        let chunks = chunk(&doc, &cfg(per_clause * 2, per_clause * 4)).unwrap_or_default();
        for t in texts(&doc, &chunks) {
            assert!(
                t.starts_with('第') && t.ends_with('。'),
                "chunk must start and end on clause boundaries: {t}"
            );
        }
        assert_eq!(chunks.len(), 3, "two clauses per chunk at this target");
    }

    #[test]
    fn a_long_paragraph_is_cut_between_sentences_with_one_sentence_overlap() {
        let sentences: Vec<String> = (1..=12)
            .map(|n| format!("This is sentence number {n} of the policy."))
            .collect();
        let doc = plain::extract(&sentences.join(" "), "t");
        let chunks = chunk(&doc, &cfg(20, 30)).unwrap_or_default();
        assert!(chunks.len() > 1);
        let t = texts(&doc, &chunks);
        for w in t.windows(2) {
            let last_of_prev = split_sentences(w[0])
                .last()
                .map(|&(a, b)| &w[0][a..b])
                .unwrap_or("");
            assert!(
                w[1].starts_with(last_of_prev),
                "next chunk repeats the previous last sentence: {w:?}"
            );
        }
        for c in &chunks {
            assert!(c.token_count <= 30, "hard maximum holds: {}", c.token_count);
            let s = &doc.text[c.start..c.end];
            assert!(s.ends_with('.'), "never cut mid-sentence: {s}");
        }
    }

    #[test]
    fn only_an_overlong_single_sentence_is_cut_inside() {
        let long = format!(
            "{}。",
            vec!["员工应当遵守公司的各项规章制度"; 40].join("，")
        );
        let doc = plain::extract(&long, "t");
        let chunks = chunk(&doc, &cfg(50, 64)).unwrap_or_default();
        assert!(chunks.len() > 1);
        for c in &chunks {
            assert!(
                c.token_count <= 64,
                "piece must respect the maximum: {}",
                c.token_count
            );
        }
        let joined: String = texts(&doc, &chunks).concat();
        assert_eq!(joined, long, "no text is lost, and none is rewritten");
    }

    #[test]
    fn empty_document_has_no_chunks() {
        let doc = plain::extract("", "t");
        assert!(
            chunk(&doc, &ChunkerConfig::default())
                .unwrap_or_default()
                .is_empty()
        );
    }
}
