//! The learned weights of the answer-sentence ranker and of the outcome: one small,
//! versioned file (`crates/evident-index/models/answers.json`) that `evident-bench learn`
//! rebuilds from the public question sets in `../shared/eval` (CMRC 2018, DRCD,
//! PolicyQA), seeded and reproducible. Hand-tuned weights over a few dozen questions
//! had reached their limit; these were fitted on thousands.
//!
//! Both models are logistic regressions over named features: a weight per feature,
//! readable in the file, so that what the ranker values can be read and argued with.
//! Each comes twice, for a search with vectors (meaning took part) and one by keywords
//! only (no model, or a question asked before embedding caught up): the features a
//! model can use differ, and so do their weights.
//!
//! The file is compiled into Evident; [`Model::parse`] checks it as it would any input:
//! its format and version, a weight for every feature the code computes and for no
//! other, finite numbers, and lines that make sense. A file made for other features is
//! refused with the name of what is wrong, never read as something else.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

/// The model file compiled into Evident.
const BUILTIN: &str = include_str!("../../models/answers.json");

/// The `format` a model file must declare.
pub const FORMAT: &str = "evident-answer-model";

/// The file version this code reads.
pub const VERSION: u32 = 1;

/// A linear model: a bias and one weight per feature, in the features' order; a
/// candidate's score is its log-odds.
#[derive(Debug, Clone, PartialEq)]
pub struct Linear {
    /// The intercept.
    pub bias: f64,
    /// One weight per feature, in the order of the feature list it was read for.
    pub weights: Vec<f64>,
}

impl Linear {
    /// The log-odds of `values` (in the feature list's order).
    pub fn score(&self, values: &[f64]) -> f64 {
        self.bias
            + self
                .weights
                .iter()
                .zip(values)
                .map(|(w, x)| w * x)
                .sum::<f64>()
    }

    /// The probability of `values`.
    pub fn probability(&self, values: &[f64]) -> f64 {
        sigmoid(self.score(values))
    }
}

/// The logistic function.
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The outcome model of one retrieval mode: the probability that the chosen answer is
/// right, and the two lines drawn on it.
#[derive(Debug, Clone, PartialEq)]
pub struct OutcomeModel {
    /// Over [`super::outcome::NAMES`].
    pub linear: Linear,
    /// From this probability up, the answer is given as an answer.
    pub answered: f64,
    /// Below this probability, nothing in the documents answers the question.
    pub not_found: f64,
}

/// Both learned models, for both retrieval modes.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Ranks candidate sentences when vectors took part.
    pub ranker_hybrid: Linear,
    /// Ranks them by keywords only.
    pub ranker_keyword: Linear,
    /// The outcome when vectors took part.
    pub outcome_hybrid: OutcomeModel,
    /// The outcome by keywords only.
    pub outcome_keyword: OutcomeModel,
    /// How far (in log-odds) below the best sentence another may score and still
    /// follow it in the answer, with vectors and without.
    pub follow_up_hybrid: f64,
    /// The same, by keywords only.
    pub follow_up_keyword: f64,
}

impl Model {
    /// The ranker for a search with (`true`) or without vectors.
    pub fn ranker(&self, vectors: bool) -> &Linear {
        if vectors {
            &self.ranker_hybrid
        } else {
            &self.ranker_keyword
        }
    }

    /// The outcome model for a search with (`true`) or without vectors.
    pub fn outcome(&self, vectors: bool) -> &OutcomeModel {
        if vectors {
            &self.outcome_hybrid
        } else {
            &self.outcome_keyword
        }
    }

    /// The follow-up gap for a search with (`true`) or without vectors.
    pub fn follow_up(&self, vectors: bool) -> f64 {
        if vectors {
            self.follow_up_hybrid
        } else {
            self.follow_up_keyword
        }
    }

    /// The model compiled into Evident.
    pub fn builtin() -> &'static Model {
        static MODEL: LazyLock<Model> = LazyLock::new(|| {
            // The file is part of the source: `models_file_is_valid` below and the
            // training test read it, so a damaged one never builds a release.
            Model::parse(BUILTIN).unwrap_or_else(|e| panic!("models/answers.json: {e}"))
        });
        &MODEL
    }

    /// Reads and checks a model file's text.
    pub fn parse(text: &str) -> Result<Model, String> {
        let file: File =
            serde_json::from_str(text).map_err(|e| format!("not a model file: {e}"))?;
        if file.format != FORMAT {
            return Err(format!(
                "format {:?}, where {FORMAT:?} was expected",
                file.format
            ));
        }
        if file.version != VERSION {
            return Err(format!(
                "version {}, where this Evident reads version {VERSION}",
                file.version
            ));
        }
        let ranker = |mode: &str| -> Result<Linear, String> {
            let w = file
                .ranker
                .get(mode)
                .ok_or_else(|| format!("no ranker for {mode:?}"))?;
            w.linear(super::choose::NAMES, &format!("ranker.{mode}"))
        };
        let outcome = |mode: &str| -> Result<OutcomeModel, String> {
            let o = file
                .outcome
                .get(mode)
                .ok_or_else(|| format!("no outcome model for {mode:?}"))?;
            let place = format!("outcome.{mode}");
            let linear = Weights {
                bias: o.bias,
                weights: o.weights.clone(),
            }
            .linear(super::outcome::NAMES, &place)?;
            if !(0.0..=1.0).contains(&o.answered)
                || !(0.0..=1.0).contains(&o.not_found)
                || o.not_found > o.answered
            {
                return Err(format!(
                    "{place}: the lines must be probabilities with not_found ({}) at most answered ({})",
                    o.not_found, o.answered
                ));
            }
            Ok(OutcomeModel {
                linear,
                answered: o.answered,
                not_found: o.not_found,
            })
        };
        let gap = |mode: &str| -> Result<f64, String> {
            let g = *file
                .follow_up
                .get(mode)
                .ok_or_else(|| format!("no follow_up gap for {mode:?}"))?;
            if g.is_finite() && g >= 0.0 {
                Ok(g)
            } else {
                Err(format!("follow_up.{mode} must be a number ≥ 0, not {g}"))
            }
        };
        Ok(Model {
            ranker_hybrid: ranker("hybrid")?,
            ranker_keyword: ranker("keyword")?,
            outcome_hybrid: outcome("hybrid")?,
            outcome_keyword: outcome("keyword")?,
            follow_up_hybrid: gap("hybrid")?,
            follow_up_keyword: gap("keyword")?,
        })
    }

    /// The model as its file's text (what `evident-bench learn` writes).
    pub fn to_file(&self, report: &serde_json::Value) -> String {
        let linear = |l: &Linear, names: &[&str]| Weights {
            bias: round(l.bias),
            weights: names
                .iter()
                .zip(&l.weights)
                .map(|(n, w)| ((*n).to_owned(), round(*w)))
                .collect(),
        };
        let outcome = |o: &OutcomeModel| {
            let Weights { bias, weights } = linear(&o.linear, super::outcome::NAMES);
            OutcomeWeights {
                bias,
                weights,
                answered: round(o.answered),
                not_found: round(o.not_found),
            }
        };
        let file = File {
            format: FORMAT.to_owned(),
            version: VERSION,
            ranker: BTreeMap::from([
                (
                    "hybrid".to_owned(),
                    linear(&self.ranker_hybrid, super::choose::NAMES),
                ),
                (
                    "keyword".to_owned(),
                    linear(&self.ranker_keyword, super::choose::NAMES),
                ),
            ]),
            outcome: BTreeMap::from([
                ("hybrid".to_owned(), outcome(&self.outcome_hybrid)),
                ("keyword".to_owned(), outcome(&self.outcome_keyword)),
            ]),
            follow_up: BTreeMap::from([
                ("hybrid".to_owned(), round(self.follow_up_hybrid)),
                ("keyword".to_owned(), round(self.follow_up_keyword)),
            ]),
            trained: report.clone(),
        };
        let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// Six significant decimals: the file stays readable, and the same fit on another
/// processor (whose last bits may differ) writes the same file.
fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    version: u32,
    ranker: BTreeMap<String, Weights>,
    outcome: BTreeMap<String, OutcomeWeights>,
    follow_up: BTreeMap<String, f64>,
    /// What the models were trained on and how they did (for the reader; not read).
    #[serde(default)]
    trained: serde_json::Value,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Weights {
    bias: f64,
    weights: BTreeMap<String, f64>,
}

impl Weights {
    /// The weights in the order of `names`: each named feature must have one, and no
    /// other may.
    fn linear(&self, names: &[&str], place: &str) -> Result<Linear, String> {
        if let Some(unknown) = self.weights.keys().find(|k| !names.contains(&k.as_str())) {
            return Err(format!(
                "{place}: a weight for {unknown:?}, which is no feature of this Evident"
            ));
        }
        let weights = names
            .iter()
            .map(|n| {
                self.weights
                    .get(*n)
                    .copied()
                    .ok_or_else(|| format!("{place}: no weight for the feature {n:?}"))
            })
            .collect::<Result<Vec<f64>, String>>()?;
        if let Some((n, w)) = names
            .iter()
            .zip(&weights)
            .find(|(_, w)| !w.is_finite())
            .or((!self.bias.is_finite()).then_some((&"bias", &self.bias)))
        {
            return Err(format!("{place}: {n} is {w}, not a number"));
        }
        Ok(Linear {
            bias: self.bias,
            weights,
        })
    }
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct OutcomeWeights {
    bias: f64,
    weights: BTreeMap<String, f64>,
    answered: f64,
    not_found: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_file_is_valid() {
        let model = Model::parse(BUILTIN).expect("the compiled-in model file reads");
        assert_eq!(
            model.ranker_hybrid.weights.len(),
            super::super::choose::NAMES.len()
        );
        assert_eq!(
            model.outcome_keyword.linear.weights.len(),
            super::super::outcome::NAMES.len()
        );
    }

    #[test]
    fn a_damaged_model_file_is_refused_with_what_is_wrong() {
        let err = |text: &str| Model::parse(text).expect_err("refused");
        assert!(err("{\"format\": ").starts_with("not a model file"));
        let good: serde_json::Value = serde_json::from_str(BUILTIN).expect("json");
        let with = |f: &dyn Fn(&mut serde_json::Value)| {
            let mut v = good.clone();
            f(&mut v);
            err(&v.to_string())
        };
        assert!(with(&|v| v["version"] = 99.into()).contains("version 99"));
        let missing = with(&|v| {
            v["ranker"]["hybrid"]["weights"]
                .as_object_mut()
                .map(|w| w.remove("coverage"));
        });
        assert_eq!(
            missing,
            "ranker.hybrid: no weight for the feature \"coverage\""
        );
        let unknown = with(&|v| v["ranker"]["keyword"]["weights"]["shoe_size"] = 1.0.into());
        assert!(
            unknown.contains("\"shoe_size\", which is no feature"),
            "{unknown}"
        );
        let lines = with(&|v| v["outcome"]["hybrid"]["not_found"] = 0.9.into());
        assert!(
            lines.contains("not_found (0.9) at most answered"),
            "{lines}"
        );
    }

    #[test]
    fn a_model_written_reads_back_the_same() {
        let model = Model::builtin();
        let again = Model::parse(&model.to_file(&serde_json::Value::Null)).expect("reads");
        assert_eq!(&again, model);
    }
}
