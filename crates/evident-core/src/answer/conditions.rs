//! Conditions as ranges: "劳动合同期限一年以上不满三年的" holds for a contract of two
//! years, "三个月以上不满一年的" does not.
//!
//! Tiered rules answer a question through the tier its situation falls in, and the
//! tiers share their numbers ("满1年不满10年的 … 5天；满10年不满20年的 … 10天"), so
//! matching a question's numbers by value picks the wrong tier as often as the right
//! one. Here each number of a text becomes a range from the bound words around it
//! (以上, 不满, 超过, at least, less than ...), the ranges of one clause are joined, and
//! a question's situation (a point, or a range of its own) is tested for lying inside.
//! Lengths of time are compared in days, so 两年 lies in 一年以上不满三年.

use crate::text::numbers::{NumberMention, numbers_in};

/// What a number measures, so that only like is compared with like.
#[derive(Debug, Clone, PartialEq)]
pub enum Dimension {
    /// A length of time, in days.
    Time,
    /// Any other unit, by its folded spelling (元, %, 人, hour-less counts).
    Other(String),
}

/// One end of a range: the value and whether it belongs to the range.
type Bound = Option<(f64, bool)>;

/// A range of values of one dimension.
#[derive(Debug, Clone, PartialEq)]
pub struct Range {
    dimension: Dimension,
    low: Bound,
    high: Bound,
}

impl Range {
    /// Whether `other` lies inside this range (same dimension, within both bounds).
    pub fn contains(&self, other: &Range) -> bool {
        if self.dimension != other.dimension {
            return false;
        }
        let above = |bound: Bound, v: Bound| match (bound, v) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some((b, incl)), Some((x, x_incl))) => x > b || (x == b && (incl || !x_incl)),
        };
        let below = |bound: Bound, v: Bound| match (bound, v) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some((b, incl)), Some((x, x_incl))) => x < b || (x == b && (incl || !x_incl)),
        };
        above(self.low, other.low) && below(self.high, other.high)
    }

    /// What the range measures.
    pub fn dimension(&self) -> &Dimension {
        &self.dimension
    }

    /// Whether the range is more than a point.
    pub fn is_bounded(&self) -> bool {
        self.low != self.high
    }
}

/// How a sentence's conditions meet a question's situation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// A condition of the sentence holds for the question's situation.
    Holds,
    /// The sentence has conditions of the same kind, and none holds.
    Fails,
    /// Nothing to compare.
    Unrelated,
}

/// Whether the conditions of `sentence` hold for the situation `question` states.
pub fn fit(question: &str, sentence: &str) -> Fit {
    let asked = ranges(question, false);
    if asked.is_empty() {
        return Fit::Unrelated;
    }
    let stated: Vec<Range> = ranges(sentence, true)
        .into_iter()
        .filter(Range::is_bounded)
        .collect();
    let comparable: Vec<&Range> = stated
        .iter()
        .filter(|s| asked.iter().any(|a| a.dimension == s.dimension))
        .collect();
    if comparable.is_empty() {
        return Fit::Unrelated;
    }
    if comparable
        .iter()
        .any(|s| asked.iter().any(|a| s.contains(a)))
    {
        Fit::Holds
    } else {
        Fit::Fails
    }
}

/// The ranges a text states: each clause's bounds of one dimension joined into one.
/// With `conditions_only`, a Chinese clause counts only when it is a condition ("…的，"):
/// "最长不得超过三年" is what a rule grants, not whom it is for.
pub fn ranges(text: &str, conditions_only: bool) -> Vec<Range> {
    let folded = crate::text::normalize::nfkc(text).to_lowercase();
    let mut out: Vec<Range> = Vec::new();
    for clause in clauses(&folded) {
        let chinese = clause.chars().any(crate::text::normalize::is_cjk);
        // A condition: "…的" in Chinese; in English a clause that says whom or when
        // ("employees with at least 3 years"), not what is granted ("up to 20 days").
        let condition = if chinese {
            clause.trim_end().ends_with('的')
        } else {
            [
                " with ",
                "if ",
                " who ",
                "when ",
                " after ",
                "once ",
                " between ",
            ]
            .iter()
            .any(|c| clause.contains(c))
        };
        if conditions_only && !condition {
            continue;
        }
        let mut open: Vec<Range> = Vec::new();
        for m in numbers_in(clause) {
            let Some((dimension, scale)) = measure(clause, &m) else {
                continue;
            };
            let Ok(v) = m.value.parse::<f64>() else {
                continue;
            };
            let v = v * scale;
            let (low, high) = bounds(clause, &m, v);
            // "一年以上不满三年": a low bound then a high one make one range.
            let joins = high.is_some() && low.is_none();
            match open
                .iter_mut()
                .rev()
                .find(|r| joins && r.dimension == dimension && r.high.is_none() && r.low.is_some())
            {
                Some(r) => r.high = high,
                None => open.push(Range {
                    dimension,
                    low,
                    high,
                }),
            }
        }
        out.extend(open);
    }
    out
}

/// The clauses of a folded text: split at commas, semicolons, full stops and 、, but
/// not at the comma of a number (5,000).
fn clauses(text: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &(at, c)) in chars.iter().enumerate() {
        let digit = |j: Option<&(usize, char)>| j.is_some_and(|(_, d)| d.is_ascii_digit());
        let cut = match c {
            ';' | '。' | '、' | '；' | '，' => true,
            ',' => !(i > 0 && digit(chars.get(i - 1)) && digit(chars.get(i + 1))),
            _ => false,
        };
        if cut {
            out.push(&text[start..at]);
            start = at + c.len_utf8();
        }
    }
    out.push(&text[start..]);
    out
}

/// The bounds a number sets from the words around it; a bare number is a point.
fn bounds(clause: &str, m: &NumberMention, v: f64) -> (Bound, Bound) {
    let before = clause[..m.start].trim_end();
    let after = skip_unit(clause[m.end..].trim_start());
    let ends = |words: &[&str]| words.iter().any(|w| before.ends_with(w));
    let starts = |words: &[&str]| words.iter().any(|w| after.starts_with(w));
    // Negated comparisons first: 不少于 must not read as 少于, nor "no more than" as
    // "more than".
    if ends(&[
        "不少于",
        "不低于",
        "不小于",
        "no less than",
        "not less than",
        "no fewer than",
        "not fewer than",
        "至少",
        "at least",
    ]) {
        (Some((v, true)), None)
    } else if ends(&[
        "不超过",
        "不多于",
        "不高于",
        "不大于",
        "no more than",
        "not more than",
        "最多",
        "最长",
        "至多",
        "up to",
        "at most",
    ]) || starts(&["以下", "以内", "或以下", "or less", "or fewer"])
    {
        (None, Some((v, true)))
    } else if ends(&[
        "不满",
        "未满",
        "不足",
        "少于",
        "低于",
        "less than",
        "fewer than",
        "under",
    ]) {
        (None, Some((v, false)))
    } else if ends(&["超过", "多于", "高于", "more than", "over"]) {
        (Some((v, false)), None)
    } else if ends(&["满", "已满"]) || starts(&["以上", "或以上", "or more"]) {
        (Some((v, true)), None)
    } else {
        (Some((v, true)), Some((v, true)))
    }
}

/// The text after a number's unit (个月, 年, days), where 以上 / 以下 stand.
fn skip_unit(after: &str) -> &str {
    const UNITS: &[&str] = &[
        "个工作日",
        "工作日",
        "个月",
        "个星期",
        "星期",
        "小时",
        "周岁",
        "business days",
        "days",
        "day",
        "weeks",
        "week",
        "months",
        "month",
        "years",
        "year",
        "hours",
        "hour",
        "天",
        "日",
        "月",
        "年",
        "周",
        "元",
        "岁",
        "人",
        "%",
    ];
    let rest = UNITS
        .iter()
        .find_map(|u| after.strip_prefix(u))
        .unwrap_or(after);
    rest.trim_start()
}

/// What a number measures, and the factor that brings it to the dimension's unit.
fn measure(clause: &str, m: &NumberMention) -> Option<(Dimension, f64)> {
    let after = clause[m.end..].trim_start();
    let before = clause[..m.start].trim_end();
    if before.ends_with('第') {
        return None;
    }
    const TIME: &[(&str, f64)] = &[
        ("个工作日", 1.0),
        ("工作日", 1.0),
        ("个月", 30.0),
        ("个星期", 7.0),
        ("星期", 7.0),
        ("周岁", 365.0),
        ("小时", 1.0 / 24.0),
        ("hour", 1.0 / 24.0),
        ("business day", 1.0),
        ("day", 1.0),
        ("week", 7.0),
        ("month", 30.0),
        ("year", 365.0),
        ("天", 1.0),
        ("日", 1.0),
        ("月", 30.0),
        ("年", 365.0),
        ("周", 7.0),
        ("岁", 365.0),
    ];
    if let Some((_, scale)) = TIME.iter().find(|(u, _)| after.starts_with(u)) {
        return Some((Dimension::Time, *scale));
    }
    let first = after.chars().next()?;
    let unit: String = if first.is_alphabetic() && !crate::text::normalize::is_cjk(first) {
        after
            .chars()
            .take_while(|c| c.is_alphabetic())
            .collect::<String>()
            .trim_end_matches('s')
            .to_owned()
    } else if first.is_alphanumeric() || first == '%' {
        first.to_string()
    } else {
        String::new()
    };
    (!unit.is_empty()).then_some((Dimension::Other(unit), 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_situation_falls_in_its_own_tier() {
        let q = "劳动合同签了两年，试用期最长可以多久？";
        assert_eq!(
            fit(q, "劳动合同期限一年以上不满三年的，试用期不得超过二个月；"),
            Fit::Holds
        );
        assert_eq!(
            fit(
                q,
                "劳动合同期限三个月以上不满一年的，试用期不得超过一个月；"
            ),
            Fit::Fails,
            "a two-year contract is not in the three-months-to-a-year tier"
        );
        assert_eq!(
            fit(q, "同一用人单位与同一劳动者只能约定一次试用期。"),
            Fit::Unrelated
        );
    }

    #[test]
    fn tiers_of_years_and_english_bounds() {
        let q = "累计工作满10年不满20年的，年休假有几天？";
        assert_eq!(fit(q, "已满10年不满20年的，年休假10天；"), Fit::Holds);
        assert_eq!(fit(q, "已满20年的，年休假15天。"), Fit::Fails);
        let en = "I have worked here for 4 years. How much PTO do I get?";
        assert_eq!(
            fit(
                en,
                "Employees with at least 3 years of service get 20 days."
            ),
            Fit::Holds
        );
        assert_eq!(
            fit(
                en,
                "Employees with less than 3 years of service get 15 days."
            ),
            Fit::Fails
        );
    }

    #[test]
    fn negated_bounds_and_thousands_read_the_right_way() {
        let q = "我工作了15年，能休几天？";
        assert_eq!(fit(q, "工作不少于10年的，年休假10天。"), Fit::Holds);
        assert_eq!(fit(q, "工作不超过10年的，年休假5天。"), Fit::Fails);
        let amount = "报销3000元要谁批？";
        assert_eq!(
            fit(amount, "单笔报销5,000元以上的，须经财务总监审批。"),
            Fit::Fails
        );
        assert_eq!(
            fit(amount, "单笔报销不满5,000元的，由部门经理审批。"),
            Fit::Holds
        );
        assert_eq!(
            fit(
                "I have worked here 4 years.",
                "You can carry over up to 30 days."
            ),
            Fit::Unrelated,
            "what is granted is no condition"
        );
    }

    #[test]
    fn a_clause_number_is_no_condition() {
        assert!(ranges("依照本法第四十七条规定", false).is_empty());
        assert_eq!(
            fit(
                "劳动合同签了两年，试用期最长多久？",
                "竞业限制期限最长不得超过三年。"
            ),
            Fit::Unrelated,
            "what a rule grants is not a condition of it"
        );
    }
}
