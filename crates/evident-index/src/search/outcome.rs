//! Whether the documents answer the question: `answered`, `uncertain` (the closest
//! passages, which may not answer it) or `not_found` (nothing relevant), decided after
//! the answering sentence is chosen (`search::choose`), from how well it fits.
//!
//! Before, the outcome was decided from the question's key-word coverage and the
//! rankings' agreement, apart from the answer: an everyday question ("三万块", "谁批准",
//! "能报") shares few words with the clause that answers it, so a right answer was
//! shown as uncertain, and a question in one language about a document in the other was
//! "not found" though meaning search had found its passage. Now the outcome reads the
//! chosen sentence: its meaning (the cosines of question and sentence, question and
//! passage), whether it says what the question asks for (an amount, who, when …),
//! whether its condition holds for the question's situation, the ranker's confidence
//! in it and its lead over the next, the key words as one signal among these, and the
//! names the question gives that the documents never mention (a rule, not a weight: such
//! a question is at best uncertain). A logistic model
//! (`search::learned`) turns these into the probability that the answer is right,
//! learned on thousands of public questions asked with and without their gold passage
//! in the library; the two lines on it were calibrated on the odd half of
//! colloquial-dev (ARCHITECTURE.md has how, and what they give on the even half).

use serde::{Deserialize, Serialize};

use super::choose::{Candidate, Features};
use super::learned::Model;
use crate::message::Message;

/// The three outcomes of a search (and of an answer; the UI knows it as `Status`).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "Status"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The passages answer the question.
    Answered,
    /// The closest passages, which may not answer it: shown, marked, never as a
    /// confident answer.
    Uncertain,
    /// Nothing relevant.
    NotFound,
}

impl Outcome {
    /// The JSON name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Answered => "answered",
            Self::Uncertain => "uncertain",
            Self::NotFound => "not_found",
        }
    }

    /// The outcome a stored name stands for.
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Answered, Self::Uncertain, Self::NotFound]
            .into_iter()
            .find(|o| o.as_str() == name)
    }
}

/// The signals the outcome is decided from.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// Best keyword coverage of the question among the returned passages (0..1).
    pub coverage: f64,
    /// Best coverage by a single sentence among them (0..1).
    pub sentence_coverage: f64,
    /// Share of the keyword side's top 5 that the vector side also has in its top 5.
    pub agreement: Option<f64>,
    /// Best passage similarity above the library's mean, in standard deviations.
    pub standout: Option<f64>,
    /// Best cosine among the returned passages.
    pub top_cosine: Option<f64>,
    /// Names in the question (places, organisations) that no document mentions.
    #[serde(default)]
    pub unmentioned: Vec<String>,
    /// The probability that the chosen answer is right, as the outcome model judged
    /// it (answers stored before it have none).
    #[serde(default)]
    pub fit: Option<f64>,
    /// IDF-weighted share of the question's key terms that some returned passage holds:
    /// a question whose own words (年会, 抽奖, 一等奖) occur in none of them asks about
    /// something the documents do not treat.
    #[serde(default)]
    pub terms_found: f64,
}

/// Declares the outcome's features (the same way as the ranker's).
macro_rules! outcome_features {
    ($(#[doc = $doc:literal] $name:ident,)*) => {
        /// What the outcome is decided on: the chosen sentence and the retrieval around
        /// it. Yes/no values are 0 or 1; cosines are 0 when no vectors took part.
        #[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
        pub struct AnswerFit {
            $(#[doc = $doc] pub $name: f64,)*
        }

        /// The features' names, in the order of [`AnswerFit::values`].
        pub const NAMES: &[&str] = &[$(stringify!($name)),*];

        impl AnswerFit {
            /// The values, in the order of [`NAMES`].
            pub fn values(&self) -> Vec<f64> {
                vec![$(self.$name),*]
            }
        }
    };
}

outcome_features! {
    /// The ranker's log-odds for the chosen sentence.
    lead_score,
    /// How far it leads the next sentence (log-odds; 0 when it stands alone).
    lead_margin,
    /// Its share of the question's key terms.
    lead_coverage,
    /// The best share of them any returned passage holds.
    best_coverage,
    /// Its share of the question's characters and words.
    lead_char_overlap,
    /// Cosine of its sentence vector with the question's.
    lead_cosine,
    /// Cosine of its passage's vector with the question's.
    lead_passage_cosine,
    /// The best passage cosine among the returned passages.
    top_cosine,
    /// How much the keyword and vector top 5 agree (0..1).
    agreement,
    /// Whether the question asks for a kind of answer (an amount, who, when …).
    asked_kind,
    /// Whether the chosen sentence offers a kind the question asks for.
    lead_answers_kind,
    /// Whether its condition holds for the question's situation.
    lead_fit_holds,
    /// Whether it has conditions of that kind and none holds.
    lead_fit_fails,
    /// Whether the chosen sentence is in the other language than the question.
    cross_lingual,
    /// The ranker's probability for the chosen sentence among all candidates.
    lead_share,
    /// How far its cosine lies above the mean cosine of the candidates.
    lead_cosine_lift,
    /// Whether the question is in Chinese (the model's cosines run lower there).
    chinese_question,
    /// The share of the question's key terms that some returned passage holds.
    terms_found,
}

impl AnswerFit {
    /// The fit of the best of `chosen` (ranked, best first) with the retrieval's
    /// `evidence`, for a question in Chinese (`chinese`) or not.
    pub fn of(chosen: &[Candidate], evidence: &Evidence, chinese: bool) -> Option<Self> {
        let lead = chosen.first()?;
        let scores: Vec<f64> = chosen.iter().map(|c| c.score).collect();
        let cosines: Vec<f64> = chosen.iter().map(|c| c.features.cosine).collect();
        Some(Self::from_parts(
            &lead.features,
            &scores,
            &cosines,
            evidence,
            chinese,
        ))
    }

    /// The fit of a chosen sentence with `lead` features, from the ranker's `scores` of
    /// all candidates (best first: the lead's is the first) and their `cosines`.
    pub fn from_parts(
        lead: &Features,
        scores: &[f64],
        cosines: &[f64],
        evidence: &Evidence,
        chinese: bool,
    ) -> Self {
        let yes = |b: bool| if b { 1.0 } else { 0.0 };
        let score = scores.first().copied().unwrap_or(0.0);
        let total: f64 = scores.iter().map(|s| (s - score).exp()).sum();
        let mean_cosine = if cosines.is_empty() {
            0.0
        } else {
            cosines.iter().sum::<f64>() / cosines.len() as f64
        };
        Self {
            lead_score: score,
            lead_margin: scores.get(1).map_or(0.0, |n| score - n),
            lead_coverage: lead.coverage,
            best_coverage: evidence.coverage,
            lead_char_overlap: lead.char_overlap,
            lead_cosine: lead.cosine,
            lead_passage_cosine: lead.passage_cosine,
            top_cosine: evidence.top_cosine.unwrap_or(0.0),
            agreement: evidence.agreement.unwrap_or(0.0),
            asked_kind: yes(lead.asked_unmet > 0.0 || lead.answers_kind()),
            lead_answers_kind: yes(lead.answers_kind()),
            lead_fit_holds: lead.fit_holds,
            lead_fit_fails: lead.fit_fails,
            cross_lingual: lead.cross_lingual,
            lead_share: if total > 0.0 { 1.0 / total } else { 0.0 },
            lead_cosine_lift: lead.cosine - mean_cosine,
            chinese_question: yes(chinese),
            terms_found: evidence.terms_found,
        }
    }
}

/// Without vectors, the least share of the question's key terms (weighted by how rare
/// they are) that some returned passage must hold for an answer to be given as
/// confident. Keyword search has no other sign that the documents treat the question's
/// subject: "公司年会抽奖的一等奖是什么？" asked of an expense policy finds only 公司, and
/// the ranker then gladly leads with the policy's purpose. Chosen on the everyday sets'
/// calibration halves, just under the least share among their right keyword answers
/// (0.31); with vectors, meaning judges the subject instead.
pub const KEYWORD_TERMS_FLOOR: f64 = 0.3;

/// Whether the question's own words let an answer be confident: always with vectors,
/// and without them when at least [`KEYWORD_TERMS_FLOOR`] of its key terms were found.
pub fn words_allow(vectors: bool, terms_found: f64) -> bool {
    vectors || terms_found >= KEYWORD_TERMS_FLOOR
}

/// Decides the outcome from the chosen sentences (best first) and the evidence, with
/// the probability the answer is right and the reason for anything but `answered`.
/// `line` overrides the model's answer line (the user's setting).
///
/// * `answered`: the answer's probability reaches the answer line, every place or
///   organisation the question names occurs in the documents (the national
///   minimum-wage rule is not Shenzhen's amount), and, without vectors, enough of the
///   question's key terms occur in the documents ([`words_allow`]).
/// * `not_found`: it is under the lower line: nothing in the documents is close.
/// * `uncertain`: between; the reason says what is missing.
pub fn decide(
    question: &str,
    chosen: &[Candidate],
    evidence: &Evidence,
    model: &Model,
    vectors: bool,
    line: Option<f64>,
) -> (Outcome, Option<Message>, Option<f64>) {
    let chinese = super::choose::is_chinese(question);
    let Some(fit) = AnswerFit::of(chosen, evidence, chinese) else {
        return (Outcome::NotFound, Some(Message::NoSentenceSpeaks), None);
    };
    let m = model.outcome(vectors);
    let p = m.linear.probability(&fit.values());
    let answered_line = line.unwrap_or(m.answered);
    let unmentioned = (!evidence.unmentioned.is_empty()).then(|| Message::Unmentioned {
        names: evidence.unmentioned.clone(),
    });
    // Whether the sentence states the kind asked is a weight of the model and a reason,
    // not a veto: its detectors miss too much ("存放在带锁的文件柜中" is a place).
    let kind_stated = fit.asked_kind == 0.0 || fit.lead_answers_kind > 0.0;
    if p >= answered_line && unmentioned.is_none() && words_allow(vectors, evidence.terms_found) {
        return (Outcome::Answered, None, Some(p));
    }
    if p < m.not_found.min(answered_line) {
        return (Outcome::NotFound, Some(Message::NothingClose), Some(p));
    }
    let why = unmentioned.unwrap_or_else(|| {
        if !kind_stated {
            Message::KindNotStated
        } else if !words_allow(vectors, evidence.terms_found) {
            Message::FewQuestionWords
        } else if vectors && evidence.agreement == Some(0.0) {
            Message::RankingsDisagree
        } else {
            // No rule explains the doubt: the model's own measure, in its own terms.
            Message::NotSure {
                sure: percent(p),
                needed: percent(answered_line),
            }
        }
    });
    (Outcome::Uncertain, Some(why), Some(p))
}

/// A probability as a whole percentage, for a reason the user reads.
fn percent(p: f64) -> u32 {
    (p.clamp(0.0, 1.0) * 100.0).round() as u32
}
