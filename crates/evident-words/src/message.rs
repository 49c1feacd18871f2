//! What Evident tells the user about an answer (why a sentence is flagged, why nothing
//! was found, notes), as a code with parameters rather than an English sentence.
//!
//! The window renders the code in its own language (`ui/src/messages.ts`), the CLI in
//! the user's locale (`--lang`), and [`Message::text`] gives the wording for both
//! languages here, so that JSON consumers and stored history still get readable text.
//! Parameters are data: a number, a passage number, words quoted from a document.

use serde::{Deserialize, Serialize};

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

/// A problem's words in `lang` when its code is known, else the English detail.
fn said(detail: &str, why: Option<&Problem>, lang: Lang) -> String {
    why.map_or_else(|| detail.to_owned(), |p| p.text(lang))
}

fn cites(ns: &[usize]) -> String {
    ns.iter().map(|n| format!("[{n}]")).collect()
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

    /// The message in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        use Message as M;
        let zh = lang == Lang::ZhCn;
        match self {
            M::NotRetrieved { n } if zh => format!("引用了 [{n}]，但它不在检索结果中"),
            M::NotRetrieved { n } => format!("cites [{n}], which was not retrieved"),
            M::SupportedByOther { support, cites: c } if zh => {
                format!("[{support}] 支持这句话，但它引用的是 {}", cites(c))
            }
            M::SupportedByOther { support, cites: c } => {
                format!(
                    "[{support}] supports this sentence, but it cites {}",
                    cites(c)
                )
            }
            M::UncitedButSupported { n } if zh => format!("没有引用；[{n}] 支持这句话"),
            M::UncitedButSupported { n } => format!("no citation; [{n}] supports it"),
            M::UncitedUnsupported if zh => "没有引用，检索到的段落也不支持这句话".into(),
            M::UncitedUnsupported => "no citation, and no retrieved passage supports it".into(),
            M::ClauseNumberMissing { value, n } if zh => format!("[{n}] 中没有第 {value} 条"),
            M::ClauseNumberMissing { value, n } => {
                format!("the clause number {value} does not appear in [{n}]")
            }
            M::NumberMisplaced { value, n } if zh => {
                format!("{value} 出现在 [{n}] 中，但不在这句话所述的条款里")
            }
            M::NumberMisplaced { value, n } => {
                format!(
                    "{value} appears in [{n}], but not where the rest of the sentence is stated"
                )
            }
            M::NumberMissing { value, n } if zh => format!("[{n}] 中没有 {value}"),
            M::NumberMissing { value, n } => format!("{value} does not appear in [{n}]"),
            M::NegatesSource { n } if zh => format!("这句话否定了 [{n}] 的说法"),
            M::NegatesSource { n } => format!("the sentence negates what [{n}] states"),
            M::OnlyUnderCondition { n, condition } if zh => {
                format!("[{n}] 只在特定条件下这样规定（{condition}）")
            }
            M::OnlyUnderCondition { n, condition } => {
                format!("[{n}] states this only under a condition ({condition})")
            }
            M::SourceNegative { n } if zh => format!("[{n}] 的说法是否定的"),
            M::SourceNegative { n } => format!("[{n}] states this in the negative"),
            M::QualifierMismatch {
                n,
                source_word,
                claim_word,
            } if zh => format!("[{n}] 写的是“{source_word}”，不是“{claim_word}”"),
            M::QualifierMismatch {
                n,
                source_word,
                claim_word,
            } => format!("[{n}] says {source_word}, not {claim_word}"),
            M::TierMismatch {
                n,
                value,
                applies_to,
                condition,
                source_value,
            } if zh => format!(
                "[{n}] 中 {value} 适用于“{applies_to}”；对“{condition}”，原文是 {source_value}"
            ),
            M::TierMismatch {
                n,
                value,
                applies_to,
                condition,
                source_value,
            } => format!(
                "{value} applies to {applies_to} in [{n}]; for {condition} the source says {source_value}"
            ),
            M::ConditionDiffers { n, claim, source } if zh => {
                format!("[{n}] 规定的是“{source}”的情形，不是“{claim}”")
            }
            M::ConditionDiffers { n, claim, source } => {
                format!("[{n}] states this for {source}, not for {claim}")
            }
            M::BoundDiffers { n, claim, source } if zh => {
                format!("[{n}] 写的是“{source}”，不是“{claim}”")
            }
            M::BoundDiffers { n, claim, source } => {
                format!("[{n}] says {source}, not {claim}")
            }
            M::ModalityDiffers { n, source, claim } if zh => {
                format!("[{n}] 说的是“{source}”，不是“{claim}”")
            }
            M::ModalityDiffers { n, source, claim } => {
                format!("[{n}] says \"{source}\", not \"{claim}\"")
            }
            M::RoleDiffers { n, claim, source } if zh => {
                format!("[{n}] 在此处写的是“{source}”，不是“{claim}”")
            }
            M::RoleDiffers { n, claim, source } => {
                format!("[{n}] names {source} here, not {claim}")
            }
            M::ConditionDropped { n, condition } if zh => {
                format!("[{n}] 只对“{condition}”这样规定，这句话省略了这个条件")
            }
            M::ConditionDropped { n, condition } => {
                format!("[{n}] says this only for {condition}; the sentence leaves that out")
            }
            M::ScopeDiffers { n, word } if zh => {
                format!("这句话说“{word}”，[{n}] 此处没有这样的范围，请核对适用范围")
            }
            M::ScopeDiffers { n, word } => {
                format!("the sentence says \"{word}\"; [{n}] sets no such scope here, so check who and what it covers")
            }
            M::Conflict {
                support,
                contradicts,
            } if zh => format!("[{support}] 支持这句话，但同样相关的 [{contradicts}] 说法不同"),
            M::Conflict {
                support,
                contradicts,
            } => format!(
                "[{support}] supports this, but [{contradicts}], as relevant, says otherwise"
            ),
            M::FewKeyWords { found, total, n } if zh => {
                format!("这句话的 {total} 个关键词中只有 {found} 个出现在 [{n}] 中")
            }
            M::FewKeyWords { found, total, n } => {
                format!("only {found} of its {total} key words appear in [{n}]")
            }
            M::SomeKeyWords { found, total, n } if zh => {
                format!("这句话的 {total} 个关键词中有 {found} 个出现在 [{n}] 中")
            }
            M::SomeKeyWords { found, total, n } => {
                format!("{found} of its {total} key words appear in [{n}]")
            }
            M::NothingAboutIt if zh => "您的文件中没有与这句话相关的内容".into(),
            M::NothingAboutIt => "your documents say nothing about this sentence".into(),
            M::NoDocuments if zh => "还没有导入任何文件".into(),
            M::NoDocuments => "no documents are imported yet".into(),
            M::NoWords if zh => "问题中没有可检索的词（只有疑问词或标点）".into(),
            M::NoWords => {
                "the question has no words to look for (only question words or punctuation)".into()
            }
            M::NoKeyWordInDocuments if zh => "问题的关键词都没有出现在您的文件中".into(),
            M::NoKeyWordInDocuments => {
                "none of the question's key words occurs in your documents".into()
            }
            M::NoPassageWithKeyWords if zh => "没有段落包含问题的关键词".into(),
            M::NoPassageWithKeyWords => "no passage contains the question's key words".into(),
            M::NothingClose if zh => "您的文件中没有与问题相近的内容".into(),
            M::NothingClose => "nothing in your documents is close to the question".into(),
            M::NoSentenceSpeaks if zh => "检索到的段落中没有句子回答这个问题".into(),
            M::NoSentenceSpeaks => "no sentence of the passages speaks to the question".into(),
            M::Unmentioned { names } if zh => {
                format!("您的文件中没有提到“{}”", names.join("、"))
            }
            M::Unmentioned { names } => {
                format!("your documents never mention {}", names.join(", "))
            }
            M::RankingsDisagree if zh => "关键词检索与语义检索对哪些段落相关意见不一".into(),
            M::RankingsDisagree => {
                "keyword and meaning search disagree on which passages fit".into()
            }
            M::FewQuestionWords if zh => "最接近的段落只包含问题的部分关键词".into(),
            M::FewQuestionWords => {
                "the closest passages share only some of the question's key words".into()
            }
            M::KindNotStated if zh => "最接近的句子没有说出问题所问的内容（金额、期限、审批人、时间或是否允许）".into(),
            M::KindNotStated => {
                "the closest sentence does not say what the question asks for (an amount, a time, who, when, or whether it is allowed)".into()
            }
            M::NotSure { sure, needed } if zh => format!(
                "最接近的句子可能回答了问题，但把握只有 {sure}%，确定的回答需要 {needed}%"
            ),
            M::NotSure { sure, needed } => format!(
                "Evident is only {sure} % sure of the closest sentence; an answer needs {needed} %"
            ),
            M::QuestionCut { chars } if zh => format!("问题过长，只使用了前 {chars} 个字符。"),
            M::QuestionCut { chars } => {
                format!("Only the first {chars} characters of the question were used.")
            }
            M::OverBudget { passages, budget } if zh => format!(
                "段落 {} 超出了 {budget} 个词元的上下文预算，未被使用。",
                cites(passages)
            ),
            M::OverBudget { passages, budget } => format!(
                "Passages {} did not fit in the context budget of {budget} tokens and were not used.",
                cites(passages)
            ),
            M::NoServer if zh => "未设置嵌入服务器，仅使用关键词检索".into(),
            M::NoServer => "no embeddings server is set up; keyword search only".into(),
            M::NotEmbedded { model } if zh => {
                format!("您的文件尚未用 {model} 生成向量；在此之前仅使用关键词检索")
            }
            M::NotEmbedded { model } => format!(
                "your documents are not embedded with {model} yet; keyword search only until they are"
            ),
            M::PartlyEmbedded {
                embedded,
                total,
                model,
            } if zh => format!(
                "{total} 个段落中已有 {embedded} 个用 {model} 生成向量；其余 {} 个在生成向量前仅按关键词检索",
                total.saturating_sub(*embedded)
            ),
            M::PartlyEmbedded {
                embedded,
                total,
                model,
            } => format!(
                "{embedded} of {total} passages are embedded with {model}; the other {} are found by keywords only until they are",
                total.saturating_sub(*embedded)
            ),
            M::ServerUnusable { detail, why } if zh => {
                let detail = said(detail, why.as_ref(), lang);
                format!("嵌入模型不可用（{detail}），仅使用关键词检索")
            }
            M::ServerUnusable { detail, .. } => format!("{detail}; keyword search only"),
            M::RerankUnusable { detail, why } if zh => {
                let detail = said(detail, why.as_ref(), lang);
                format!("重排序模型不可用（{detail}），段落按原排序")
            }
            M::RerankUnusable { detail, .. } => {
                format!("the reranker could not be used ({detail}); passages in their first order")
            }
            M::ModelFoundNothing if zh => "模型认为检索到的段落不能回答这个问题".into(),
            M::ModelFoundNothing => {
                "the model found that the passages do not answer the question".into()
            }
            M::ModelUnsupported if zh => {
                "模型回答中没有一句得到段落的支持；以下是最接近的段落".into()
            }
            M::ModelUnsupported => {
                "none of the model's sentences is supported by the passages; these are the closest passages".into()
            }
            M::ModelCutShort { tokens } if zh => {
                format!("模型的回答达到 {tokens} 个词元的上限，可能不完整。")
            }
            M::ModelCutShort { tokens } => {
                format!("The model's answer reached its limit of {tokens} tokens and may be cut short.")
            }
            M::ModelStopped if zh => "您停止了模型的回答；以下是摘录式回答".into(),
            M::ModelStopped => "you stopped the model's answer; this is the extractive answer".into(),
            M::ModelFailed { detail, why } if zh => {
                let detail = said(detail, why.as_ref(), lang);
                format!("模型回答失败（{detail}）；以下是摘录式回答")
            }
            M::ModelFailed { detail, .. } => {
                format!("the model's answer failed ({detail}); this is the extractive answer")
            }
            M::ModelSaidNothing if zh => "模型没有给出任何文字；以下是摘录式回答".into(),
            M::ModelSaidNothing => "the model wrote nothing; this is the extractive answer".into(),
            M::ModelCitedNothing if zh => {
                "模型的回答没有引用任何段落，无法核对；以下是摘录式回答".into()
            }
            M::ModelCitedNothing => {
                "the model's answer cites no passage, so it cannot be checked; this is the extractive answer".into()
            }
            M::SourcesDiffer { a, b } if zh => {
                format!(
                    "注意：[{a}] 与 [{b}] 来自不同文件，对同一规定给出的数值不一致，请核对两处原文。"
                )
            }
            M::SourcesDiffer { a, b } => format!(
                "Note: [{a}] and [{b}] come from different documents and give different values for the same rule; check both."
            ),
        }
    }
}

/// What a sentence's colour says, in `lang`: the check compares words, numbers,
/// conditions and roles with the cited passage; it is not a reader of meaning, so the
/// words claim no more than that ("Matches the cited passage", not "true").
pub fn verdict_label(verdict: Verdict, reasons: &[Message], lang: Lang) -> String {
    let zh = lang == Lang::ZhCn;
    match verdict {
        Verdict::Supported if zh => "与引用段落一致".into(),
        Verdict::Supported => "Matches the cited passage".into(),
        Verdict::PartiallySupported if zh => "与引用段落部分一致".into(),
        Verdict::PartiallySupported => "Partly matches the cited passage".into(),
        Verdict::Unsupported => match reasons.iter().find_map(Message::contradicted_by) {
            Some(n) if zh => format!("与 [{n}] 矛盾"),
            Some(n) => format!("Contradicted by [{n}]"),
            None if zh => "引用段落中没有找到".into(),
            None => "Not found in the cited passage".into(),
        },
    }
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
