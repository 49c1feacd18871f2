//! The evaluation sets' question files (`../shared/eval/datasets/*/questions.jsonl`)
//! and their scoring rule's text normalisation, shared by `eval` and the benchmarks.
//!
//! Two row shapes are read: the SQuAD-style sets (`answers`, `gold_file`, PolicyQA's
//! `policy`) and colloquial-dev (`doc`, `answer_quote`, `alt`), whose unanswerable rows
//! have no document at all.

use std::path::Path;

use anyhow::Context;
use evident_text::normalize::nfkc;
use serde::Deserialize;

/// Another document that answers a colloquial-dev question equally well.
#[derive(Debug, Clone, Deserialize)]
pub struct AltGold {
    pub doc: String,
    pub quote: String,
}

/// One row of a questions file.
#[derive(Debug, Deserialize)]
pub struct Question {
    pub id: String,
    pub question: String,
    #[serde(default)]
    pub answers: Vec<String>,
    /// The gold document, relative to the set (`docs/DEV_0.txt`).
    #[serde(default)]
    pub gold_file: Option<String>,
    /// PolicyQA: the policy the question belongs to (searched on its own).
    #[serde(default)]
    pub policy: Option<String>,
    /// colloquial-dev: the gold document, relative to `corpus/` (null: unanswerable).
    #[serde(default)]
    pub doc: Option<String>,
    /// colloquial-dev: the verbatim answer quote in `doc`.
    #[serde(default)]
    pub answer_quote: Option<String>,
    /// colloquial-dev: other documents and quotes that count.
    #[serde(default)]
    pub alt: Vec<AltGold>,
    /// colloquial-dev: the question's language (`zh`, `en`).
    #[serde(default)]
    pub lang: Option<String>,
}

impl Question {
    /// The gold documents (path suffixes) with their answer strings in comparison form.
    pub fn golds(&self) -> Vec<(String, Vec<String>)> {
        let mut out = Vec::new();
        if let Some(g) = &self.gold_file {
            out.push((format!("/{g}"), self.normalised_answers()));
        }
        if let (Some(doc), Some(quote)) = (&self.doc, &self.answer_quote) {
            out.push((format!("/{doc}"), vec![norm(quote)]));
        }
        for a in &self.alt {
            out.push((format!("/{}", a.doc), vec![norm(&a.quote)]));
        }
        out
    }

    /// Whether the set says the question can be answered from its documents.
    pub fn answerable(&self) -> bool {
        self.gold_file.is_some() || self.doc.is_some()
    }

    /// Whether a document path is one of this question's gold documents.
    pub fn is_gold(&self, path: &Path) -> bool {
        let path = path.to_string_lossy();
        self.golds()
            .iter()
            .any(|(suffix, _)| path.ends_with(suffix))
    }

    /// Whether a passage of `path` with `text` is a hit by the scoring rule.
    pub fn is_hit(&self, path: &Path, text: &str) -> bool {
        let path = path.to_string_lossy();
        let text = norm(text);
        self.golds().iter().any(|(suffix, answers)| {
            path.ends_with(suffix.as_str())
                && answers.iter().any(|a| !a.is_empty() && text.contains(a))
        })
    }

    /// The answer strings in comparison form (see [`norm`]).
    pub fn normalised_answers(&self) -> Vec<String> {
        self.answers
            .iter()
            .map(|a| norm(a))
            .filter(|a| !a.is_empty())
            .collect()
    }
}

/// A corpus's printed copies of its documents (`pdf-generated/sources.json`: a PDF
/// printed from a Markdown file), as (copy, source) paths relative to the corpus.
pub fn copies(corpus: &Path) -> Vec<(String, String)> {
    #[derive(Deserialize)]
    struct Entry {
        source: String,
    }
    let path = corpus.join("pdf-generated/sources.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Vec::new();
    };
    let map: std::collections::BTreeMap<String, Entry> =
        serde_json::from_str(&text).unwrap_or_default();
    map.into_iter().map(|(copy, e)| (copy, e.source)).collect()
}

/// Counts a quote in a printed copy of a gold document as in the document itself:
/// the corpus holds the labour law both as Markdown and as the PDF printed from it,
/// and the same sentence found in the copy is the same answer (the sets' README:
/// use `sources.json` as the scorer's alias).
pub fn add_copies(questions: &mut [Question], copies: &[(String, String)]) {
    for q in questions {
        let mut extra = Vec::new();
        let golds = q
            .doc
            .iter()
            .zip(q.answer_quote.iter())
            .map(|(d, a)| (d.clone(), a.clone()))
            .chain(q.alt.iter().map(|a| (a.doc.clone(), a.quote.clone())));
        for (doc, quote) in golds {
            for (copy, source) in copies {
                if *source == doc && !q.alt.iter().any(|a| a.doc == *copy) {
                    extra.push(AltGold {
                        doc: copy.clone(),
                        quote: quote.clone(),
                    });
                }
            }
        }
        q.alt.extend(extra);
    }
}

/// Reads a questions file (JSON lines).
pub fn load(path: &Path) -> anyhow::Result<Vec<Question>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).with_context(|| format!("{} line {}", path.display(), i + 1))
        })
        .collect()
}

/// The scoring rule's comparison form: NFKC, lower case, no white space.
pub fn norm(s: &str) -> String {
    nfkc(s)
        .to_lowercase()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}
