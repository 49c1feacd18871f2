//! The question sets the models learn from and are measured on, as libraries of files
//! and questions with their gold documents.
//!
//! * CMRC 2018 (simplified Chinese) and DRCD (traditional): one file per passage, as
//!   `../shared/eval` ships them. A seeded sample of the passages makes the library
//!   (embedding all of them takes most of an hour on two cores); every question on a
//!   sampled passage is used.
//! * PolicyQA (English privacy policies): one file per segment, written out from
//!   `passages.jsonl` into the work folder (the set's own files hold a whole policy
//!   each, and a question asked "without its gold passage" needs the gold segments
//!   out of the library). Its questions are asked of their own policy only, as the
//!   set's README prescribes.
//! * colloquial-dev and our own set (`bench/answers-own.jsonl`): everyday questions
//!   over `corpus/`, never trained on; their odd halves calibrate, their even halves
//!   report.
//!
//! Questions are split by passage: a question goes to the training part or the report
//! part by a seeded hash of its gold passage, so no passage is seen in both.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::Context;
use sha2::{Digest, Sha256};

use crate::dataset::{self, norm};

/// Which part of a set a question belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// The models are fitted on it.
    Train,
    /// Figures are reported on it (a public set's held-out passages).
    Report,
    /// An everyday set's odd half: the outcome's lines are calibrated on it.
    Calibrate,
    /// An everyday set's even half: held out, reported.
    Held,
}

/// One question, with what counts as its answer.
#[derive(Debug, Clone)]
pub struct SetQuestion {
    /// Its id in the set.
    pub id: String,
    /// The question.
    pub question: String,
    /// Gold documents (path suffixes) with their answers in comparison form; empty for
    /// an unanswerable question.
    pub golds: Vec<(String, Vec<String>)>,
    /// The part it belongs to.
    pub part: Part,
    /// The documents it is asked of, as path suffixes (a PolicyQA policy's segments);
    /// `None`: the whole library.
    pub scope: Option<Vec<String>>,
}

impl SetQuestion {
    /// Whether a passage of `path` with `text` holds the answer (the sets' scoring
    /// rule: a gold document, an answer string contained after NFKC, lower case and
    /// no white space).
    pub fn holds(&self, path: &Path, text: &str) -> bool {
        let path = path.to_string_lossy();
        let text = norm(text);
        self.golds.iter().any(|(suffix, answers)| {
            path.ends_with(suffix.as_str())
                && answers.iter().any(|a| !a.is_empty() && text.contains(a))
        })
    }

    /// Whether `path` is one of its gold documents.
    pub fn is_gold(&self, path: &Path) -> bool {
        let path = path.to_string_lossy();
        self.golds
            .iter()
            .any(|(suffix, _)| path.ends_with(suffix.as_str()))
    }

    /// Whether the set says it can be answered.
    pub fn answerable(&self) -> bool {
        !self.golds.is_empty()
    }
}

/// A library of files and the questions asked of it.
pub struct Set {
    /// Its name (`cmrc`, `drcd`, `policyqa`, `colloquial`, `own`).
    pub name: &'static str,
    /// The files to import.
    pub files: Vec<PathBuf>,
    /// The questions.
    pub questions: Vec<SetQuestion>,
}

/// How the sets are sampled and split.
#[derive(Debug, Clone, Copy)]
pub struct Sampling {
    /// The seed of every sample and split.
    pub seed: u64,
    /// Passages sampled from CMRC and from DRCD.
    pub passages: usize,
    /// Share of passages whose questions train (the rest report).
    pub train_share: f64,
}

/// A number in [0, 1) from the seed and a name: the same on every machine.
fn draw(seed: u64, salt: &str, name: &str) -> f64 {
    let h = Sha256::new()
        .chain_update(seed.to_le_bytes())
        .chain_update(salt.as_bytes())
        .chain_update(name.as_bytes())
        .finalize();
    u64::from_le_bytes([h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]]) as f64 / 2f64.powi(64)
}

fn part_of(s: &Sampling, passage: &str) -> Part {
    if draw(s.seed, "split", passage) < s.train_share {
        Part::Train
    } else {
        Part::Report
    }
}

/// CMRC 2018 or DRCD: a seeded sample of `passages` passage files and their questions.
pub fn squad(name: &'static str, dir: &Path, s: &Sampling) -> anyhow::Result<Set> {
    let questions = dataset::load(&dir.join("questions.jsonl"))?;
    let mut passages: Vec<String> = questions
        .iter()
        .filter_map(|q| q.gold_file.clone())
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    passages.sort_by(|a, b| draw(s.seed, "sample", a).total_cmp(&draw(s.seed, "sample", b)));
    passages.truncate(s.passages);
    passages.sort();
    let kept: HashSet<&String> = passages.iter().collect();
    let files = passages.iter().map(|p| dir.join(p)).collect();
    let questions = questions
        .iter()
        .filter(|q| q.gold_file.as_ref().is_some_and(|g| kept.contains(g)))
        .map(|q| {
            let gold = q.gold_file.clone().unwrap_or_default();
            SetQuestion {
                id: q.id.clone(),
                question: q.question.clone(),
                golds: q.golds(),
                part: part_of(s, &gold),
                scope: None,
            }
        })
        .collect();
    Ok(Set {
        name,
        files,
        questions,
    })
}

#[derive(serde::Deserialize)]
struct PolicyPassage {
    id: String,
    text: String,
    policy: String,
}

#[derive(serde::Deserialize)]
struct PolicyGold {
    doc: String,
    answers: Vec<String>,
}

#[derive(serde::Deserialize)]
struct PolicyQuestion {
    id: String,
    question: String,
    policy: String,
    gold: Vec<PolicyGold>,
}

/// The file a PolicyQA segment is written to, relative to the work folder.
fn segment_file(id: &str) -> String {
    let (policy, n) = id.split_once('#').unwrap_or((id, "0"));
    format!("policyqa/{policy}/{n}.txt")
}

/// PolicyQA, one file per segment under `work`.
pub fn policyqa(dir: &Path, work: &Path, s: &Sampling) -> anyhow::Result<Set> {
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(name))
            .with_context(|| format!("cannot read {}", dir.join(name).display()))
    };
    let mut by_policy: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut files = Vec::new();
    for line in read("passages.jsonl")?
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        let p: PolicyPassage = serde_json::from_str(line)?;
        let rel = segment_file(&p.id);
        let path = work.join(&rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        if std::fs::read_to_string(&path).ok().as_deref() != Some(p.text.as_str()) {
            std::fs::write(&path, &p.text)?;
        }
        by_policy
            .entry(p.policy)
            .or_default()
            .push(format!("/{rel}"));
        files.push(path);
    }
    let mut questions = Vec::new();
    for line in read("questions.jsonl")?
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        let q: PolicyQuestion = serde_json::from_str(line)?;
        let golds: Vec<(String, Vec<String>)> = q
            .gold
            .iter()
            .map(|g| {
                (
                    format!("/{}", segment_file(&g.doc)),
                    g.answers
                        .iter()
                        .map(|a| norm(a))
                        .filter(|a| !a.is_empty())
                        .collect(),
                )
            })
            .collect();
        let first = q.gold.first().map(|g| g.doc.clone()).unwrap_or_default();
        questions.push(SetQuestion {
            id: q.id,
            question: q.question,
            golds,
            part: part_of(s, &first),
            scope: by_policy.get(&q.policy).cloned(),
        });
    }
    Ok(Set {
        name: "policyqa",
        files,
        questions,
    })
}

/// An everyday set over `corpus`: odd-numbered questions (1st, 3rd …) calibrate, the
/// others are held out, as `evident-bench eval --half` splits them.
pub fn everyday(name: &'static str, questions: &Path, corpus: &Path) -> anyhow::Result<Set> {
    let mut rows = dataset::load(questions)?;
    dataset::add_copies(&mut rows, &dataset::copies(corpus));
    let (files, _) = evident_core::import::collect_files(&[corpus.to_owned()]);
    let files = files
        .into_iter()
        .filter(|f| {
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name != "SOURCE.md" && name != "sources.json"
        })
        .collect();
    let questions = rows
        .iter()
        .enumerate()
        .map(|(i, q)| SetQuestion {
            id: q.id.clone(),
            question: q.question.clone(),
            golds: q.golds(),
            part: if i % 2 == 0 {
                Part::Calibrate
            } else {
                Part::Held
            },
            scope: None,
        })
        .collect();
    Ok(Set {
        name,
        files,
        questions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_seeded_and_spread() {
        assert_eq!(draw(7, "split", "DEV_1"), draw(7, "split", "DEV_1"));
        assert_ne!(draw(7, "split", "DEV_1"), draw(8, "split", "DEV_1"));
        let below = (0..1000)
            .filter(|i| draw(7, "split", &i.to_string()) < 0.7)
            .count();
        assert!((650..750).contains(&below), "{below}");
    }

    #[test]
    fn policy_segments_have_files_of_their_own() {
        assert_eq!(
            segment_file("neworleansonline.com#001"),
            "policyqa/neworleansonline.com/001.txt"
        );
    }
}
