//! What a sentence claims, in the terms the grounding check compares: content words,
//! numbers (by value) and negations.

use std::collections::HashSet;

use crate::search::stopwords::is_stop_word;
use crate::text::numbers::numbers_in;
use crate::text::quantity::{Quantity, bound_span, quantities};
use crate::text::segment::{passage_tokens, query_terms};

/// Negation words. Chinese ones are matched as substrings but only where they are not
/// part of a common non-negating word (不同, 不仅, 无论 ...).
const NEGATIONS_ZH: &[&str] = &[
    "不得",
    "不能",
    "不可",
    "不予",
    "不应",
    "不会",
    "不是",
    "不需",
    "不必",
    "不要",
    "不超过",
    "不低于",
    "不少于",
    "不属于",
    "不包括",
    "未",
    "无须",
    "无需",
    "没有",
    "没",
    "禁止",
    "严禁",
    "不",
    "无",
    "非",
    "勿",
];
const NOT_NEGATIONS_ZH: &[&str] = &[
    "不同",
    "不仅",
    "不但",
    "不断",
    "不论",
    "不管",
    "无论",
    "非常",
    "未来",
    "不久",
    "无关",
    "毫无疑问",
    "非法",
    "无效",
    "没收",
    "淹没",
    "埋没",
    "出没",
];
const NEGATIONS_EN: &[&str] = &[
    "not",
    "no",
    "never",
    "none",
    "cannot",
    "without",
    "neither",
    "nor",
    "n't",
    // Lexical negations: the word itself denies.
    "exempt",
    "optional",
    "unpaid",
    "prohibited",
    "forbidden",
    "waived",
];

/// Chinese words that deny without a negation character: 免于审批 is 无需审批.
const LEXICAL_NEGATIONS_ZH: &[&str] = &["免于", "免除", "豁免", "免予"];

/// Bounds written with a negation (不超过 is "at most", not a denial) and fixed
/// phrases that deny nothing; masked before negations are counted, since
/// [`crate::text::quantity`] reads them as bounds.
const NOT_DENIALS: &[&str] = &[
    "不能少于",
    "不能低于",
    "不应低于",
    "不可低于",
    "不能超过",
    "不可超过",
    "不宜超过",
    "不会超过",
    "不能高于",
    "不得少于",
    "不得低于",
    "不得超过",
    "不应超过",
    "不少于",
    "不低于",
    "不小于",
    "不超过",
    "不多于",
    "不高于",
    "不大于",
    "不满",
    "未满",
    "不足",
    "no less than",
    "not less than",
    "no fewer than",
    "not fewer than",
    "no more than",
    "not more than",
    "no longer than",
    "no later than",
    "not later than",
    "not to exceed",
    "not exceeding",
    "not exceed",
];

/// The checkable content of one sentence.
#[derive(Debug, Clone)]
pub struct Claim {
    /// The sentence as written.
    pub text: String,
    /// Content words in index form (no question words or particles), unique.
    pub terms: Vec<String>,
    /// Number values in the sentence (facts: amounts, days, dates ...).
    pub numbers: Vec<String>,
    /// Numbers of clause references (第四条, 第二章): checked against the whole passage,
    /// since a label is stated once at the head of its clause.
    pub references: Vec<String>,
    /// How many negations the sentence holds.
    pub negations: usize,
    /// Its quantities (clause references left out), with units and bounds.
    pub quantities: Vec<Quantity>,
    /// Byte ranges of its conditions ("请假3天以内的", "if you are sick …").
    pub conditions: Vec<(usize, usize)>,
    /// Its words in order, index form (for matching synonym phrases).
    pub tokens: Vec<String>,
}

impl Claim {
    /// Analyses a sentence (citation markers already removed).
    pub fn of(sentence: &str) -> Self {
        let mut seen = HashSet::new();
        // Numbers are compared as quantities (by value, unit and bound), not as words.
        let tokens = query_terms(&expand_contractions(sentence));
        let terms = tokens
            .iter()
            .filter(|t| !is_stop_word(t) && !is_number_word(t) && seen.insert((*t).clone()))
            .cloned()
            .collect();
        let (mut numbers, mut references) = (Vec::new(), Vec::new());
        for m in numbers_in(sentence) {
            let before = sentence[..m.start].trim_end();
            let after = sentence[m.end..].trim_start();
            let is_reference =
                before.ends_with('第') && after.starts_with(['条', '章', '节', '款', '项', '编']);
            if is_reference {
                references.push(m.value);
            } else {
                numbers.push(m.value);
            }
        }
        let quantities = quantities(sentence)
            .into_iter()
            .filter(|q| {
                let before = sentence[..q.start].trim_end();
                !before.ends_with('第')
            })
            .collect();
        let conditions = super::clauses::clauses(sentence)
            .into_iter()
            .flat_map(|c| c.conditions)
            .collect();
        Self {
            text: sentence.to_owned(),
            terms,
            numbers,
            references,
            negations: negations(sentence),
            quantities,
            conditions,
            tokens,
        }
    }

    /// `q` as the claim writes it, with its unit.
    pub fn written(&self, q: &Quantity) -> String {
        self.text[q.start..q.end].trim().to_owned()
    }

    /// `q` as the claim writes it, with its bound words.
    pub fn bound_text(&self, q: &Quantity) -> String {
        let (s, e) = bound_span(&self.text, q);
        self.text[s..e].trim().to_owned()
    }

    /// Whether `q` stands in one of the claim's conditions.
    pub fn in_condition(&self, q: &Quantity) -> bool {
        self.conditions
            .iter()
            .any(|&(s, e)| q.start >= s && q.end <= e)
    }

    /// The claim's first condition, as written (after a salutation or lead that ends
    /// in a colon: "各位同事：单笔报销超过…的").
    pub fn condition_text(&self) -> Option<String> {
        let &(s, e) = self.conditions.first()?;
        let text = &self.text[s..e];
        let after_colon = text.rfind(['：', ':']).map_or(0, |i| {
            i + text[i..].chars().next().map_or(1, char::len_utf8)
        });
        Some(text[after_colon..].trim().to_owned())
    }

    /// Whether the claim shares a key word with `text`.
    pub fn mentions(&self, text: &str) -> bool {
        let tokens = token_set(text);
        self.terms.iter().any(|t| tokens.contains(t))
    }

    /// Whether there is anything to check (a sentence of only particles is not a claim).
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty() && self.numbers.is_empty() && self.references.is_empty()
    }
}

/// `text` lower-cased with curly apostrophes made straight (don’t is don't) and the
/// bound phrases of [`NOT_DENIALS`] masked.
fn denial_form(text: &str) -> String {
    let mut folded = text.to_lowercase().replace(['’', '‘', '`'], "'");
    for w in NOT_DENIALS {
        if !folded.contains(w) {
            continue;
        }
        if !w.is_ascii() {
            folded = folded.replace(w, &"_".repeat(w.chars().count()));
            continue;
        }
        // "no more than 20 days" bounds; "do not exceed the budget" denies.
        let mut out = String::with_capacity(folded.len());
        let mut rest = folded.as_str();
        while let Some(at) = rest.find(w) {
            let after = rest[at + w.len()..].trim_start();
            let after = after.strip_prefix('$').unwrap_or(after);
            let bounds_a_number = after.split_whitespace().take(3).any(|t| {
                t.starts_with(|c: char| c.is_ascii_digit())
                    || NUMBER_WORDS_EN.iter().any(|n| t.starts_with(n))
            });
            out.push_str(&rest[..at]);
            if bounds_a_number {
                out.push_str(&"_".repeat(w.len()));
            } else {
                out.push_str(w);
            }
            rest = &rest[at + w.len()..];
        }
        out.push_str(rest);
        folded = out;
    }
    folded
}

/// "don’t" as "do not", for words only: a contraction is not a key word of its own.
fn expand_contractions(text: &str) -> String {
    let t = drop_clitics(&text.replace(['’', '‘'], "'"));
    if !t.contains("n't") && !t.contains("N'T") {
        return t;
    }
    t.replace("can't", "cannot")
        .replace("Can't", "Cannot")
        .replace("won't", "will not")
        .replace("Won't", "Will not")
        .replace("n't", " not")
}

/// "you've", "they'll", "it's": the pronoun alone, for words only.
fn drop_clitics(text: &str) -> String {
    let mut t = text.to_owned();
    for c in ["'ve", "'ll", "'re", "'d", "'s", "'m"] {
        t = t.replace(c, "");
    }
    t
}

/// English number and money words, in index form: compared as quantities.
const NUMBER_WORDS_EN: &[&str] = &[
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelv",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenti",
    "thirti",
    "forti",
    "fifti",
    "sixti",
    "seventi",
    "eighti",
    "nineti",
    "hundr",
    "thousand",
    "twice",
    "dollar",
    "cent",
    "percent",
];

/// Words compared by their own checks, not as key words: bounds (at least, 最多, 以上:
/// [`crate::text::quantity`]), modality (must, 可以: [`super::modality`]) and negation.
/// A faithful "至少" for "不少于" must not cost a key word.
const CHECKED_ELSEWHERE: &[&str] = &[
    "least",
    "most",
    "minimum",
    "maximum",
    "up",
    "within",
    "over",
    "under",
    "more",
    "less",
    "fewer",
    "exceed",
    "must",
    "may",
    "can",
    "shall",
    "should",
    "need",
    "requir",
    "allow",
    "至少",
    "最少",
    "最多",
    "最长",
    "最高",
    "最低",
    "最",
    "多",
    "少",
    "超过",
    "不超过",
    "以上",
    "以下",
    "以内",
    "之内",
    "不满",
    "不足",
    "满",
    "低于",
    "高于",
    "少于",
    "多于",
    "不少于",
    "不低于",
    "不得",
    "不能",
    "不可",
    "可以",
    "可",
    "应当",
    "应该",
    "应",
    "须",
    "必须",
    "需要",
    "需",
    "要",
    "就要",
    "无需",
    "无须",
    "不必",
    "不",
    "未",
    "没",
    "没有",
    "无",
    // Words about the source rather than what it states ("According to the policy, …",
    // "根据规定，…").
    "accord",
    "polici",
    "handbook",
    "document",
    "guidelin",
    "根据",
    "依据",
    "按照",
    "依照",
    "规定",
    "制度",
    "文件",
];

/// Whether an index token is a number or a number with its counter (5, 三天, 五个).
fn is_number_word(t: &str) -> bool {
    if CHECKED_ELSEWHERE.contains(&t) {
        return true;
    }
    if NUMBER_WORDS_EN.contains(&t)
        || t.contains('-')
            && t.split('-')
                .all(|p| NUMBER_WORDS_EN.iter().any(|w| p.starts_with(w)))
    {
        return true;
    }
    let numbers = numbers_in(t);
    numbers.first().is_some_and(|m| m.start == 0) && t[numbers[0].end..].chars().count() <= 1
}

/// What each negation in `text` denies, one entry per negation: the two characters
/// (or the word) after it. Negation words and lexical negations (免于, exempt) count;
/// bounds (不超过 is "at most") do not. Two texts that deny the same things agree even
/// when one repeats a denial ("应休未休…未休年休假" says 未休 twice).
pub fn denials(text: &str) -> Vec<String> {
    let lower = denial_form(text);
    let mut masked = lower.clone();
    for w in NOT_NEGATIONS_ZH {
        masked = masked.replace(w, &"_".repeat(w.chars().count()));
    }
    let chars: Vec<char> = masked.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    'outer: while i < chars.len() {
        for w in NEGATIONS_ZH.iter().chain(LEXICAL_NEGATIONS_ZH) {
            let wc: Vec<char> = w.chars().collect();
            if chars[i..].starts_with(&wc) {
                let target: String = chars[i + wc.len()..]
                    .iter()
                    .take_while(|c| crate::text::normalize::is_cjk(**c))
                    .take(2)
                    .collect();
                out.push(target);
                i += wc.len();
                continue 'outer;
            }
        }
        i += 1;
    }
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphabetic() && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    for (j, word) in words.iter().enumerate() {
        if NEGATIONS_EN.contains(word) || word.ends_with("n't") {
            let next = words[j + 1..]
                .iter()
                .find(|w| {
                    !matches!(
                        **w,
                        "be" | "been" | "to" | "a" | "an" | "the" | "need" | "have"
                    )
                })
                .copied()
                .unwrap_or("");
            out.push(next.to_owned());
        }
    }
    out
}

/// Counts negations in `text` (see [`denials`]).
pub fn negations(text: &str) -> usize {
    denials(text).len()
}

/// Index tokens of a passage or span, as a set for membership tests.
pub fn token_set(text: &str) -> HashSet<String> {
    passage_tokens(text).into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negations_are_counted_in_both_languages() {
        assert_eq!(negations("员工不得兼职"), 1);
        assert_eq!(negations("员工可以兼职"), 0);
        assert_eq!(negations("不同部门的规定"), 0, "不同 is not a negation");
        assert_eq!(negations("You do not need approval"), 1);
        assert_eq!(negations("Approval isn't needed"), 1);
        assert_eq!(negations("Approval is needed"), 0);
        assert_eq!(negations("You don’t need approval"), 1, "curly apostrophe");
        assert_eq!(negations("试用期不得超过六个月"), 0, "a bound is no denial");
        assert_eq!(negations("至少提前30日"), negations("不少于30日"));
        assert_eq!(negations("经批准可免于审批"), 1, "lexical negation");
        assert_eq!(negations("Attendance is optional"), 1);
    }

    #[test]
    fn a_claim_holds_terms_numbers_and_negations() {
        let c = Claim::of("单笔报销超过5,000元须经分管副总审批");
        assert!(c.terms.contains(&"报销".to_owned()), "{:?}", c.terms);
        assert_eq!(c.numbers, ["5000"]);
        let c = Claim::of("第四条 单笔报销超过5,000元须经审批");
        assert_eq!(
            (c.numbers, c.references),
            (vec!["5000".to_owned()], vec!["4".to_owned()])
        );
        assert_eq!(c.negations, 0);
        assert!(Claim::of("是的。").is_empty());
    }
}
