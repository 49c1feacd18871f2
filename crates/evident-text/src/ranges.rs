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
//!
//! It lives in `text/` because two faces need it: the composer picks the tier a
//! question's situation falls in, and the grounding check binds a sentence's numbers to
//! the clause that states them. Neither may depend on the other.

use crate::quantity::{Dimension as QuantityDimension, Direction, Quantity, quantities};

/// What a number measures, so that only like is compared with like.
#[derive(Debug, Clone, PartialEq)]
pub enum Dimension {
    /// A length of time, in days.
    Time,
    /// Anything else, by what it counts: a currency (`CNY`, `USD`), `ratio` (%, 倍),
    /// or a unit as written (人, 次).
    Other(String),
    /// A situation's amount written without a unit but with a multiplier ("报销3万",
    /// "花了两千多", "a 30k dinner"): it is measured in whatever the condition counts.
    Any,
}

impl Dimension {
    /// Whether a situation of dimension `self` can be tested against a condition of
    /// `condition`'s.
    fn meets(&self, condition: &Dimension) -> bool {
        self == condition || *self == Dimension::Any
    }
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
        if !other.dimension.meets(&self.dimension) {
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
    let asked = situations(question);
    if asked.is_empty() {
        return Fit::Unrelated;
    }
    let stated: Vec<Range> = ranges(sentence, true)
        .into_iter()
        .filter(Range::is_bounded)
        .collect();
    let comparable: Vec<&Range> = stated
        .iter()
        .filter(|s| asked.iter().any(|a| a.dimension.meets(&s.dimension)))
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

/// The situations a question states. A period of one unit (一年, 一个月, a year) beside
/// another situation of its dimension is the period asked about, not a situation: in
/// "我工作满十二年了，一年能休几天年假？" the asker has twelve years, and 一年 is "per year".
fn situations(question: &str) -> Vec<Range> {
    let all = read(question, false, true);
    let one_unit = |r: &Range| {
        r.dimension == Dimension::Time
            && r.low == r.high
            && r.low.is_some_and(|(v, _)| ONE_UNIT_DAYS.contains(&v))
    };
    let others = |r: &Range| {
        all.iter()
            .any(|o| !one_unit(o) && o.dimension == r.dimension)
    };
    all.iter()
        .filter(|r| !(one_unit(r) && others(r)))
        .cloned()
        .collect()
}

/// One day, week, month and year, in the days time is measured in here.
const ONE_UNIT_DAYS: [f64; 4] = [1.0, 7.0, 30.0, 360.0];

/// The ranges a text states: each clause's bounds of one dimension joined into one.
/// With `conditions_only`, a Chinese clause counts only when it is a condition ("…的，"):
/// "最长不得超过三年" is what a rule grants, not whom it is for.
///
/// The numbers, their units and their bound words are read by
/// [`crate::quantity`], the one reader of quantities, so that every spelling it
/// knows (三万块, 3万元, 30k RMB, $1.2k, 两千多, 一年半) is a condition or a situation
/// here too.
pub fn ranges(text: &str, conditions_only: bool) -> Vec<Range> {
    read(text, conditions_only, false)
}

/// [`ranges`], and with `situation`, a question's "满十二年" is where the asker stands:
/// twelve years, not "twelve or more" (which no tier of 10 to 20 years would contain).
/// A claim's "满一年就有5天" keeps its open bound: it states a rule for everyone from one
/// year on, which the grounding check compares with the source's tier.
fn read(text: &str, conditions_only: bool, situation: bool) -> Vec<Range> {
    let folded = crate::normalize::nfkc(text).to_lowercase();
    let mut out: Vec<Range> = Vec::new();
    for clause in clauses(&folded) {
        let chinese = clause.chars().any(crate::normalize::is_cjk);
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
        for q in quantities(clause) {
            // 第四十条 is a place in the law, not an amount.
            if clause[..q.start].trim_end().ends_with('第') {
                continue;
            }
            let written = &clause[q.start..q.end];
            let amount = written.contains(['万', '千', '萬', '仟', 'k']);
            // A situation's amount without a unit: 报销3万要找谁签, 花了两千多. (The word
            // after it is no unit: 3万要 is not a count of 要.)
            let unitless = match &q.dimension {
                QuantityDimension::Bare => true,
                QuantityDimension::Count(word) => !COUNTERS.contains(word.as_str()),
                _ => false,
            };
            let Some((dimension, v)) =
                measure(&q).filter(|_| !(amount && unitless)).or_else(|| {
                    (!conditions_only && amount && unitless).then_some((Dimension::Any, q.value))
                })
            else {
                continue;
            };
            let (low, mut high) = bounds(q.direction, v);
            let reached = situation
                && q.direction == Direction::AtLeast
                && (written.contains('满') || clause[..q.start].trim_end().ends_with('满'));
            if reached {
                high = low;
            }
            // 两千多, 三万余元: more than the number, less than its next step.
            if q.direction == Direction::MoreThan && written.contains(['多', '余']) {
                high = Some((v + step(v), false));
            }
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

/// Words that count things after a number (3万人 is people, not an amount).
const COUNTERS: &str = "人名个次件家份项位条户台辆";

/// The place value of a number's leading digit (2000 → 1000, 30000 → 10000, 25 → 10):
/// how far "多" reaches.
fn step(v: f64) -> f64 {
    if v < 10.0 {
        1.0
    } else {
        10f64.powi(v.log10().floor() as i32)
    }
}

/// The clauses of a folded text: split at commas, semicolons and full stops, but not
/// at the comma of a number (5,000), nor at 、, which joins the parts of one condition
/// ("5,000元以上、20,000元以下的").
fn clauses(text: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &(at, c)) in chars.iter().enumerate() {
        let digit = |j: Option<&(usize, char)>| j.is_some_and(|(_, d)| d.is_ascii_digit());
        let cut = match c {
            ';' | '。' | '；' | '，' => true,
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

/// The bounds a quantity's direction sets; a bare number is a point.
fn bounds(direction: Direction, v: f64) -> (Bound, Bound) {
    match direction {
        Direction::Exact => (Some((v, true)), Some((v, true))),
        Direction::AtLeast => (Some((v, true)), None),
        Direction::MoreThan => (Some((v, false)), None),
        Direction::AtMost => (None, Some((v, true))),
        Direction::LessThan => (None, Some((v, false))),
    }
}

/// What a quantity measures here, and its value in that dimension's unit: lengths of
/// time in days (a month is 30), everything else by its own unit. A number without a
/// unit, or a date, measures nothing.
fn measure(q: &Quantity) -> Option<(Dimension, f64)> {
    use QuantityDimension as Q;
    match &q.dimension {
        Q::Days => Some((Dimension::Time, q.value)),
        Q::Months => Some((Dimension::Time, q.value * 30.0)),
        Q::Hours => Some((Dimension::Time, q.value / 24.0)),
        Q::Ratio => Some((Dimension::Other("ratio".into()), q.value)),
        Q::Money(currency) => Some((Dimension::Other((*currency).to_owned()), q.value)),
        Q::Count(unit) => Some((Dimension::Other(unit.clone()), q.value)),
        Q::Bare | Q::Date => None,
    }
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
    fn an_everyday_amount_falls_in_its_own_tier() {
        let tiers = [
            "单笔金额在5,000元以下的，由部门经理审批；",
            "单笔金额在5,000元以上、20,000元以下的，由部门经理审核后报财务总监审批；",
            "单笔报销超过20,000元的，须经分管副总经理审批。",
        ];
        let holds = |q: &str| -> Vec<usize> {
            (0..tiers.len())
                .filter(|&i| fit(q, tiers[i]) == Fit::Holds)
                .collect()
        };
        assert_eq!(holds("我花了三万块招待客户，这笔钱要谁批准才能报？"), [2]);
        assert_eq!(holds("报销3万要找谁签？"), [2]);
        assert_eq!(holds("a 30k RMB dinner: who approves?"), [2]);
        assert_eq!(
            holds("请客户吃饭花了两千多块，谁批？"),
            [0],
            "两千多 is under 3,000"
        );
        assert_eq!(holds("一万二的报销谁审批？"), [1]);
        assert_eq!(
            fit("花了1.2k USD", tiers[2]),
            Fit::Unrelated,
            "dollars are not yuan"
        );
    }

    #[test]
    fn years_reached_are_a_point_and_a_year_asked_about_is_no_situation() {
        let tiers = [
            "职工累计工作已满1年不满10年的，年休假5天；",
            "已满10年不满20年的，年休假10天；",
            "已满20年的，年休假15天。",
        ];
        for q in [
            "我工作满十二年了，一年能休几天年假？",
            "我工作满12年了，一年能休几天年假？",
            "我工作满十年了，一年能休几天年假？",
        ] {
            let fits: Vec<Fit> = tiers.iter().map(|t| fit(q, t)).collect();
            assert_eq!(fits, [Fit::Fails, Fit::Holds, Fit::Fails], "{q}");
        }
        // Alone, a year is the asker's situation.
        assert_eq!(fit("工作一年能休几天年假？", tiers[0]), Fit::Holds);
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
