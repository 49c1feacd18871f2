//! What a sentence claims, in the terms the grounding check compares: content words,
//! numbers (by value) and negations.

use std::collections::HashSet;

use crate::search::stopwords::is_stop_word;
use crate::text::numbers::numbers_in;
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
];
const NEGATIONS_EN: &[&str] = &[
    "not", "no", "never", "none", "cannot", "without", "neither", "nor", "n't",
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
}

impl Claim {
    /// Analyses a sentence (citation markers already removed).
    pub fn of(sentence: &str) -> Self {
        let mut seen = HashSet::new();
        let terms = query_terms(sentence)
            .into_iter()
            .filter(|t| !is_stop_word(t) && seen.insert(t.clone()))
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
        Self {
            text: sentence.to_owned(),
            terms,
            numbers,
            references,
            negations: negations(sentence),
        }
    }

    /// Whether there is anything to check (a sentence of only particles is not a claim).
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty() && self.numbers.is_empty() && self.references.is_empty()
    }
}

/// Counts negations in `text`.
pub fn negations(text: &str) -> usize {
    let lower = text.to_lowercase();
    let mut masked = lower.clone();
    for w in NOT_NEGATIONS_ZH {
        masked = masked.replace(w, &"_".repeat(w.chars().count()));
    }
    let mut count = 0;
    let chars: Vec<char> = masked.chars().collect();
    let mut i = 0;
    'outer: while i < chars.len() {
        for w in NEGATIONS_ZH {
            let wc: Vec<char> = w.chars().collect();
            if chars[i..].starts_with(&wc) {
                count += 1;
                i += wc.len();
                continue 'outer;
            }
        }
        i += 1;
    }
    for word in lower.split(|c: char| !c.is_ascii_alphabetic() && c != '\'') {
        if NEGATIONS_EN.contains(&word) || word.ends_with("n't") {
            count += 1;
        }
    }
    count
}

/// Negated bounds that state a condition rather than deny something: 不满10年 is
/// "less than ten years", so a claim that drops it over-generalises.
const BOUNDS_ZH: &[&str] = &[
    "不满",
    "未满",
    "不足",
    "不超过",
    "不低于",
    "不少于",
    "不高于",
];

/// The first bounded condition in `text` (a negated bound followed by a number, such
/// as 不满10年), as written, for telling the user why a claim fails.
pub fn bounded_condition(text: &str) -> Option<String> {
    BOUNDS_ZH
        .iter()
        .filter_map(|b| text.find(b).map(|at| (at, *b)))
        .filter_map(|(at, b)| {
            let rest = &text[at + b.len()..];
            let number = numbers_in(rest)
                .into_iter()
                .next()
                .filter(|m| m.start == 0)?;
            // The number and the unit right after it (年, 天, 元, 周岁 ...).
            let unit: String = rest[number.end..]
                .chars()
                .take_while(|c| "年月日天周岁元个小时分钟次人倍%".contains(*c))
                .take(2)
                .collect();
            Some((at, format!("{b}{}{unit}", &rest[..number.end])))
        })
        .min_by_key(|(at, _)| *at)
        .map(|(_, c)| c)
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
    }

    #[test]
    fn bounded_conditions_are_found_with_their_number_and_unit() {
        assert_eq!(
            bounded_condition("员工累计工作已满1年不满10年的,年休假5天;").as_deref(),
            Some("不满10年")
        );
        assert_eq!(
            bounded_condition("单笔不超过5,000元的,由部门经理审批").as_deref(),
            Some("不超过5,000元")
        );
        assert_eq!(bounded_condition("员工不得兼职"), None);
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
