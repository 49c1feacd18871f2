//! The evaluation sets' question files (`../shared/eval/datasets/*/questions.jsonl`)
//! and their scoring rule's text normalisation, shared by `eval` and the benchmarks.

use std::path::Path;

use anyhow::Context;
use evident_core::text::normalize::nfkc;
use serde::Deserialize;

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
}

impl Question {
    /// Whether a document path is this question's gold document.
    pub fn is_gold(&self, path: &Path) -> bool {
        self.gold_file
            .as_ref()
            .is_some_and(|g| path.to_string_lossy().ends_with(&format!("/{g}")))
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
