//! What a passage's vectors are made from, and the key they are stored under.
//!
//! The store keys vectors by the text a model reads (a chunk's place and its text,
//! folded) and keeps one vector per sentence span, so a re-import that leaves a
//! passage's text as it was keeps its vectors. Both belong to the store: they say what
//! is stored, for every model alike, and know nothing of any model. The embedding pass
//! (`crate::embed`) reads them from here.

use evident_text::sentence::split_units;

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
}

/// The [`PassageInput`] of a chunk.
pub fn passage_input(title: &str, heading_path: &[String], text: &str) -> PassageInput {
    PassageInput {
        place: place(title, heading_path),
        text: evident_text::normalize::nfkc(text),
    }
}

/// A chunk's place as a model reads it (its [`PassageInput::place`]): the document
/// title and the headings above it, each once, folded.
pub fn place(title: &str, heading_path: &[String]) -> Option<String> {
    let mut place: Vec<&str> = Vec::new();
    for part in std::iter::once(title).chain(heading_path.iter().map(String::as_str)) {
        let part = part.trim();
        if !part.is_empty() && !place.contains(&part) {
            place.push(part);
        }
    }
    (!place.is_empty()).then(|| evident_text::normalize::nfkc(&place.join(" > ")))
}

/// The key of a chunk's vectors: sha256 of [`PassageInput::joined`].
pub fn embed_key(title: &str, heading_path: &[String], text: &str) -> String {
    super::sha256_hex(passage_input(title, heading_path, text).joined().as_bytes())
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
