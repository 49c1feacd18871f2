//! What Evident tells the user about an answer (why a sentence is flagged, why nothing
//! was found, notes), as a code with parameters rather than an English sentence.
//!
//! The window renders the code in its own language (`ui/src/words.ts`), the CLI in
//! the user's locale (`--lang`), and [`Message::text`] gives the wording for both
//! languages here, so that JSON consumers and stored history still get readable text.
//! Parameters are data: a number, a passage number, words quoted from a document.

use serde::{Deserialize, Serialize};

use crate::catalogue::{self, Kind};
use crate::problem::Problem;
use crate::verdict::Verdict;

/// The languages Evident speaks.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Lang {
    /// English.
    #[default]
    #[serde(rename = "en")]
    En,
    /// Simplified Chinese.
    #[serde(rename = "zh-CN", alias = "zh")]
    ZhCn,
}

impl Lang {
    /// The language of a locale name such as `zh_CN.UTF-8`, `zh-CN` or `en_US`.
    pub fn from_locale(locale: &str) -> Self {
        if locale.to_ascii_lowercase().starts_with("zh") {
            Self::ZhCn
        } else {
            Self::En
        }
    }
}

/// One message, as a code and its parameters.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "code", content = "params", rename_all = "snake_case")]
pub enum Message {
    /// A sentence cites a passage that was not retrieved.
    NotRetrieved {
        /// The cited number.
        n: usize,
    },
    /// Another passage supports the sentence than the ones it cites.
    SupportedByOther {
        /// The passage that supports it.
        support: usize,
        /// The passages it cites.
        cites: Vec<usize>,
    },
    /// No citation, but a passage supports it.
    UncitedButSupported {
        /// The supporting passage.
        n: usize,
    },
    /// No citation and no support.
    UncitedUnsupported,
    /// A clause number (第X条) of the sentence is not in the passage.
    ClauseNumberMissing {
        /// The number.
        value: String,
        /// The passage.
        n: usize,
    },
    /// A number of the sentence is in the passage, but in another clause.
    NumberMisplaced {
        /// The number.
        value: String,
        /// The passage.
        n: usize,
    },
    /// A number of the sentence is not in the passage.
    NumberMissing {
        /// The number.
        value: String,
        /// The passage.
        n: usize,
    },
    /// The sentence negates what the passage states.
    NegatesSource {
        /// The passage.
        n: usize,
    },
    /// The passage states it only under a condition.
    OnlyUnderCondition {
        /// The passage.
        n: usize,
        /// The condition, quoted from the passage.
        condition: String,
    },
    /// The passage states it in the negative.
    SourceNegative {
        /// The passage.
        n: usize,
    },
    /// The passage names a qualified title or role the sentence drops (副总经理 vs 总经理).
    QualifierMismatch {
        /// The passage.
        n: usize,
        /// What the passage says.
        source_word: String,
        /// What the sentence says.
        claim_word: String,
    },
    /// A number of the sentence belongs to another tier or clause of the passage.
    TierMismatch {
        /// The passage.
        n: usize,
        /// The number as the sentence writes it.
        value: String,
        /// The condition (or clause) the number belongs to in the passage.
        applies_to: String,
        /// The condition the sentence is about.
        condition: String,
        /// What the passage says for that condition.
        source_value: String,
    },
    /// The passage states the rule for another condition than the sentence.
    ConditionDiffers {
        /// The passage.
        n: usize,
        /// The sentence's condition.
        claim: String,
        /// The passage's condition.
        source: String,
    },
    /// A bound points the other way (at least vs at most, 以上 vs 以下).
    BoundDiffers {
        /// The passage.
        n: usize,
        /// The bound as the sentence writes it.
        claim: String,
        /// The bound as the passage writes it.
        source: String,
    },
    /// A duty stated as a permission, or a permission as a duty.
    ModalityDiffers {
        /// The passage.
        n: usize,
        /// The passage's modality, as a word.
        source: String,
        /// The sentence's modality, as a word.
        claim: String,
    },
    /// The sentence names another approver or party than the passage.
    RoleDiffers {
        /// The passage.
        n: usize,
        /// The role the sentence names.
        claim: String,
        /// The roles the passage names there.
        source: String,
    },
    /// The passage limits the rule to a condition or group the sentence leaves out.
    ConditionDropped {
        /// The passage.
        n: usize,
        /// The condition, as the passage writes it.
        condition: String,
    },
    /// The sentence widens or narrows the rule with a word of scope (所有, 一律, only,
    /// every) that the passage does not use there.
    ScopeDiffers {
        /// The passage.
        n: usize,
        /// The sentence's word.
        word: String,
    },
    /// One passage supports the sentence and another, at least as relevant, says
    /// otherwise.
    Conflict {
        /// The supporting passage.
        support: usize,
        /// The contradicting passage.
        contradicts: usize,
    },
    /// Few of the sentence's key words are in the passage (unsupported).
    FewKeyWords {
        /// Key words found.
        found: usize,
        /// Key words of the sentence.
        total: usize,
        /// The passage.
        n: usize,
    },
    /// Some of the sentence's key words are in the passage (partly supported).
    SomeKeyWords {
        /// Key words found.
        found: usize,
        /// Key words of the sentence.
        total: usize,
        /// The passage.
        n: usize,
    },
    /// Pasted text: the documents say nothing about this sentence.
    NothingAboutIt,
    /// Nothing is imported.
    NoDocuments,
    /// The question has no words to search for.
    NoWords,
    /// None of the question's key words is in the documents.
    NoKeyWordInDocuments,
    /// No passage contains the question's key words.
    NoPassageWithKeyWords,
    /// Nothing is close to the question.
    NothingClose,
    /// No sentence of the passages speaks to the question.
    NoSentenceSpeaks,
    /// The question names places or bodies no document mentions.
    Unmentioned {
        /// The names, as typed.
        names: Vec<String>,
    },
    /// The keyword and vector rankings disagree.
    RankingsDisagree,
    /// The closest passages share only some of the question's key words.
    FewQuestionWords,
    /// The closest sentence does not say what the question asks for (an amount, who,
    /// when …).
    KindNotStated,
    /// The closest sentence may answer the question, but the outcome model is not sure
    /// enough.
    NotSure {
        /// How sure it is that the sentence answers the question, in percent.
        sure: u32,
        /// How sure an answer must be, in percent.
        needed: u32,
    },
    /// Only the first part of a long question was used.
    QuestionCut {
        /// Characters used.
        chars: usize,
    },
    /// Passages did not fit in the context budget.
    OverBudget {
        /// The passages left out.
        passages: Vec<usize>,
        /// The budget in tokens.
        budget: usize,
    },
    /// No embeddings server is set up: keyword search only.
    NoServer,
    /// The documents are not embedded with the model yet.
    NotEmbedded {
        /// The model.
        model: String,
    },
    /// Only some passages are embedded with the model so far: meaning search covers
    /// those, keywords the rest.
    PartlyEmbedded {
        /// Passages embedded.
        embedded: usize,
        /// All passages.
        total: usize,
        /// The model.
        model: String,
    },
    /// The server could not be used (its error, in English, as detail).
    ServerUnusable {
        /// What went wrong.
        detail: String,
        /// The same as a code, for the user's language (absent in answers stored before).
        #[serde(default)]
        why: Option<Problem>,
    },
    /// The reranker could not be used: the passages keep their fused order.
    RerankUnusable {
        /// What went wrong.
        detail: String,
        /// The same as a code, for the user's language.
        #[serde(default)]
        why: Option<Problem>,
    },
    /// The model replied that the passages do not answer the question.
    ModelFoundNothing,
    /// None of the model's sentences is backed by the passages.
    ModelUnsupported,
    /// The model's answer reached its token limit and may be cut short.
    ModelCutShort {
        /// The limit.
        tokens: usize,
    },
    /// The user stopped the model.
    ModelStopped,
    /// The model server failed (its error, in English, as detail).
    ModelFailed {
        /// What went wrong.
        detail: String,
        /// The same as a code, for the user's language.
        #[serde(default)]
        why: Option<Problem>,
    },
    /// The model wrote nothing.
    ModelSaidNothing,
    /// The model's answer cites no passage at all.
    ModelCitedNothing,
    /// Two documents give different values for the same rule.
    SourcesDiffer {
        /// The lead sentence's passage.
        a: usize,
        /// The other passage.
        b: usize,
    },
}

impl Message {
    /// Whether this reason says a sentence contradicts its source (a number, bound,
    /// condition, tier, role, qualifier, modality or negation that differs), not merely
    /// that words are missing.
    pub fn is_contradiction(&self) -> bool {
        matches!(
            self,
            Message::NumberMisplaced { .. }
                | Message::NumberMissing { .. }
                | Message::NegatesSource { .. }
                | Message::SourceNegative { .. }
                | Message::QualifierMismatch { .. }
                | Message::TierMismatch { .. }
                | Message::ConditionDiffers { .. }
                | Message::BoundDiffers { .. }
                | Message::ModalityDiffers { .. }
                | Message::RoleDiffers { .. }
        )
    }

    /// The passage this reason says the sentence contradicts, if it says so: a number,
    /// bound, condition, tier, role, qualifier, modality or negation the passage states
    /// otherwise, or another passage that says otherwise. (A number the passage does
    /// not hold is not found there, not contradicted.)
    pub fn contradicted_by(&self) -> Option<usize> {
        match self {
            Message::Conflict { contradicts, .. } => Some(*contradicts),
            Message::NumberMisplaced { n, .. }
            | Message::NegatesSource { n }
            | Message::SourceNegative { n }
            | Message::QualifierMismatch { n, .. }
            | Message::TierMismatch { n, .. }
            | Message::ConditionDiffers { n, .. }
            | Message::BoundDiffers { n, .. }
            | Message::ModalityDiffers { n, .. }
            | Message::RoleDiffers { n, .. } => Some(*n),
            _ => None,
        }
    }

    /// The message in `lang`, from the catalogue of words (`catalogue/*.ftl`).
    pub fn text(&self, lang: Lang) -> String {
        let coded = serde_json::to_value(self).unwrap_or_default();
        catalogue::say(lang, Kind::Message, &coded)
    }
}

/// What a sentence's colour says, in `lang`: the check compares words, numbers,
/// conditions and roles with the cited passage; it is not a reader of meaning, so the
/// words claim no more than that ("Matches the cited passage", not "true").
pub fn verdict_label(verdict: Verdict, reasons: &[Message], lang: Lang) -> String {
    let (code, n) = match verdict {
        Verdict::Supported => ("supported", None),
        Verdict::PartiallySupported => ("partially_supported", None),
        Verdict::Unsupported => match reasons.iter().find_map(Message::contradicted_by) {
            Some(n) => ("contradicted", Some(n)),
            None => ("not_found", None),
        },
    };
    let coded = serde_json::json!({"code": code, "params": {"n": n}});
    catalogue::say(lang, Kind::Verdict, &coded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_a_code_with_parameters_in_either_language() {
        let m = Message::NumberMissing {
            value: "8000".into(),
            n: 2,
        };
        assert_eq!(
            serde_json::to_value(&m).unwrap_or_default(),
            serde_json::json!({"code": "number_missing", "params": {"value": "8000", "n": 2}})
        );
        assert_eq!(m.text(Lang::En), "8000 does not appear in [2]");
        assert_eq!(m.text(Lang::ZhCn), "[2] 中没有 8000");
        assert_eq!(Lang::from_locale("zh_CN.UTF-8"), Lang::ZhCn);
        assert_eq!(Lang::from_locale("C.UTF-8"), Lang::En);
    }
}
