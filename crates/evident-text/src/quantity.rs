//! Quantities: a number with what it measures and which way it bounds.
//!
//! [`super::numbers`] finds values however they are spelt; the grounding check needs
//! more to tell a faithful rewording from a mistaken one. "300%" and "3倍", "一年" and
//! "12个月", "$0.62" and "62 cents", "sixteen" and "16" are the same quantity, while
//! "3天以内" and "3天以上" share a value and mean opposite things. So each number here
//! carries a [`Dimension`] (compared in one base unit per kind: months for months and
//! years, days for days and weeks, a ratio for 倍 and %, money by currency) and a
//! [`Direction`] read from the bound words around it (以上, 不超过, at least, up to ...).

use super::numbers::numbers_in;

/// What a quantity measures, in the base unit its value is given in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dimension {
    /// Days (weeks are 7, working days count as days).
    Days,
    /// Months (a year is 12).
    Months,
    /// Hours (a minute is 1/60).
    Hours,
    /// A ratio: 150% = 1.5倍 = 1.5 times = 1.5.
    Ratio,
    /// Money, by currency (`CNY`, `USD`); cents count as 1/100 dollar.
    Money(&'static str),
    /// A calendar year, month or day of a date (2026年, 1月1日).
    Date,
    /// A count of something else, by its unit as written (人, 次, employees).
    Count(String),
    /// A number with no unit.
    Bare,
}

impl Dimension {
    /// Whether quantities of these dimensions can be compared by value.
    pub fn comparable(&self, other: &Dimension) -> bool {
        match (self, other) {
            (Dimension::Bare, _) | (_, Dimension::Bare) => true,
            (Dimension::Count(_), Dimension::Count(_)) => true,
            (a, b) => a == b,
        }
    }
}

/// Which way a quantity bounds what it speaks of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Exactly this (or no bound word).
    Exact,
    /// This or more: 以上, 不少于, at least, a minimum of.
    AtLeast,
    /// More than this: 超过, more than, over.
    MoreThan,
    /// This or less: 以下, 以内, 不超过, up to, at most, within.
    AtMost,
    /// Less than this: 不满, 不足, less than, under.
    LessThan,
}

impl Direction {
    /// Whether the bound points up (a floor).
    fn is_floor(self) -> bool {
        matches!(self, Direction::AtLeast | Direction::MoreThan)
    }
    /// Whether the bound points down (a ceiling).
    fn is_ceiling(self) -> bool {
        matches!(self, Direction::AtMost | Direction::LessThan)
    }
    /// Whether two bounds point opposite ways (a floor against a ceiling).
    pub fn opposes(self, other: Direction) -> bool {
        (self.is_floor() && other.is_ceiling()) || (self.is_ceiling() && other.is_floor())
    }
}

/// One quantity in a text.
#[derive(Debug, Clone, PartialEq)]
pub struct Quantity {
    /// The value in its dimension's base unit.
    pub value: f64,
    /// What it measures.
    pub dimension: Dimension,
    /// Which way it bounds.
    pub direction: Direction,
    /// Byte range of the number and its unit, as written.
    pub start: usize,
    /// Byte offset just past the unit.
    pub end: usize,
}

impl Quantity {
    /// Whether `other` is the same amount of the same thing.
    pub fn same_value(&self, other: &Quantity) -> bool {
        self.dimension.comparable(&other.dimension)
            && (self.value - other.value).abs() <= 1e-9 * self.value.abs().max(1.0)
    }
}

/// Units after a number: (spelling, dimension, factor to the base unit). Longest
/// spellings first, so 个工作日 wins over 日.
///
/// This is Evident's one table of units: the check compares quantities through it, the
/// composer asks it what kind of number a sentence holds ([`unit_at`]), and the unit a
/// question asks in (几周, how many months) is named as a row of it.
const UNITS: &[(&str, Unit, f64)] = &[
    ("个工作日", Unit::Days, 1.0),
    ("个自然日", Unit::Days, 1.0),
    ("个日历日", Unit::Days, 1.0),
    ("工作日", Unit::Days, 1.0),
    ("个星期", Unit::Days, 7.0),
    ("个小时", Unit::Hours, 1.0),
    ("个半月", Unit::Months, 1.0),
    ("个月", Unit::Months, 1.0),
    ("个季度", Unit::Months, 3.0),
    ("周年", Unit::Months, 12.0),
    ("周岁", Unit::Months, 12.0),
    ("星期", Unit::Days, 7.0),
    ("小时", Unit::Hours, 1.0),
    ("分钟", Unit::Hours, 1.0 / 60.0),
    ("business days", Unit::Days, 1.0),
    ("business day", Unit::Days, 1.0),
    ("working days", Unit::Days, 1.0),
    ("working day", Unit::Days, 1.0),
    ("calendar days", Unit::Days, 1.0),
    ("calendar day", Unit::Days, 1.0),
    ("workdays", Unit::Days, 1.0),
    ("days", Unit::Days, 1.0),
    ("day", Unit::Days, 1.0),
    ("weeks", Unit::Days, 7.0),
    ("week", Unit::Days, 7.0),
    ("months", Unit::Months, 1.0),
    ("month", Unit::Months, 1.0),
    ("years", Unit::Months, 12.0),
    ("year", Unit::Months, 12.0),
    ("hours", Unit::Hours, 1.0),
    ("hour", Unit::Hours, 1.0),
    ("hrs", Unit::Hours, 1.0),
    ("minutes", Unit::Hours, 1.0 / 60.0),
    ("nights", Unit::Days, 1.0),
    ("night", Unit::Days, 1.0),
    ("percent", Unit::Ratio, 0.01),
    ("per cent", Unit::Ratio, 0.01),
    ("times", Unit::Ratio, 1.0),
    ("dollars", Unit::Usd, 1.0),
    ("dollar", Unit::Usd, 1.0),
    ("bucks", Unit::Usd, 1.0),
    ("usd", Unit::Usd, 1.0),
    ("rmb", Unit::Cny, 1.0),
    ("cny", Unit::Cny, 1.0),
    ("yuan", Unit::Cny, 1.0),
    ("cents", Unit::Usd, 0.01),
    ("cent", Unit::Usd, 0.01),
    ("人民币", Unit::Cny, 1.0),
    ("天", Unit::Days, 1.0),
    ("日", Unit::Days, 1.0),
    ("周", Unit::Days, 7.0),
    ("月", Unit::Months, 1.0),
    ("年", Unit::Months, 12.0),
    ("岁", Unit::Months, 12.0),
    ("倍", Unit::Ratio, 1.0),
    ("%", Unit::Ratio, 0.01),
    ("％", Unit::Ratio, 0.01),
    ("‰", Unit::Ratio, 0.001),
    ("块钱", Unit::Cny, 1.0),
    ("元", Unit::Cny, 1.0),
    ("圆", Unit::Cny, 1.0),
    ("块", Unit::Cny, 1.0),
    ("¢", Unit::Usd, 0.01),
];

/// Chinese measure words that count people and things: a unit of their own, so the
/// bound word after them is read ("一个以上五十个以下股东").
const MEASURE_WORDS: &str = "个人名位次家项件份";

/// The base unit of a row of the table of units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Days (a week is 7).
    Days,
    /// Months (a year is 12).
    Months,
    /// Hours (a minute is 1/60).
    Hours,
    /// A ratio (% is 0.01).
    Ratio,
    /// Renminbi.
    Cny,
    /// US dollars (a cent is 0.01).
    Usd,
}

impl Unit {
    /// Whether the unit measures a length of time.
    pub fn is_time(self) -> bool {
        matches!(self, Unit::Days | Unit::Months | Unit::Hours)
    }
}

/// The unit spelled at the start of `after` (`after` begins with the unit: a hyphen in
/// "4-year" is skipped when `joined` says nothing stands between number and unit), as a
/// row of the table: its spelling's length in bytes (hyphen included), its base unit and
/// the factor to it (a week is `(Days, 7.0)`). An English unit must end its word.
fn unit_prefix(after: &str, joined: bool) -> Option<(usize, Unit, f64)> {
    UNITS.iter().find_map(|&(u, unit, f)| {
        let hyphen = usize::from(u.is_ascii() && joined && after.starts_with('-'));
        let after = &after[hyphen..];
        (after.starts_with(u)
            && (!u.is_ascii() || !after[u.len()..].starts_with(|c: char| c.is_ascii_alphabetic())))
        .then_some((hyphen + u.len(), unit, f))
    })
}

/// The unit a number is written in, from the text after it: its base unit and its size
/// in it (天 and "business days" are `(Days, 1.0)`, 周 is `(Days, 7.0)`, 年 is
/// `(Months, 12.0)`, 元 is `(Cny, 1.0)`). Leading spaces are skipped and the text is
/// folded (NFKC, lower case) as quantities are.
pub fn unit_at(after: &str) -> Option<(Unit, f64)> {
    let folded = super::normalize::nfkc(after.trim_start()).to_lowercase();
    unit_prefix(&folded, false).map(|(_, unit, f)| (unit, f))
}

/// Bound words before a number, negated ones first (不少于 must not read as 少于, nor
/// "no more than" as "more than").
const BEFORE: &[(&str, Direction)] = &[
    ("不能少于", Direction::AtLeast),
    ("不能低于", Direction::AtLeast),
    ("不应低于", Direction::AtLeast),
    ("不可低于", Direction::AtLeast),
    ("不能超过", Direction::AtMost),
    ("不可超过", Direction::AtMost),
    ("不宜超过", Direction::AtMost),
    ("不会超过", Direction::AtMost),
    ("不能高于", Direction::AtMost),
    ("不得高于", Direction::AtMost),
    ("不应高于", Direction::AtMost),
    ("不可高于", Direction::AtMost),
    ("不得多于", Direction::AtMost),
    ("不应少于", Direction::AtLeast),
    ("不少于", Direction::AtLeast),
    ("不得少于", Direction::AtLeast),
    ("不低于", Direction::AtLeast),
    ("不得低于", Direction::AtLeast),
    ("不小于", Direction::AtLeast),
    ("no less than", Direction::AtLeast),
    ("not less than", Direction::AtLeast),
    ("no fewer than", Direction::AtLeast),
    ("not fewer than", Direction::AtLeast),
    ("a minimum of", Direction::AtLeast),
    ("minimum of", Direction::AtLeast),
    ("minimum", Direction::AtLeast),
    ("at least", Direction::AtLeast),
    ("至少", Direction::AtLeast),
    ("最少", Direction::AtLeast),
    ("最低", Direction::AtLeast),
    ("最短", Direction::AtLeast),
    ("已满", Direction::AtLeast),
    ("不超过", Direction::AtMost),
    ("不得超过", Direction::AtMost),
    ("不应超过", Direction::AtMost),
    ("不多于", Direction::AtMost),
    ("不高于", Direction::AtMost),
    ("不大于", Direction::AtMost),
    ("no more than", Direction::AtMost),
    ("not more than", Direction::AtMost),
    ("no longer than", Direction::AtMost),
    ("not to exceed", Direction::AtMost),
    ("not exceed", Direction::AtMost),
    ("not exceeding", Direction::AtMost),
    ("a maximum of", Direction::AtMost),
    ("maximum of", Direction::AtMost),
    ("maximum", Direction::AtMost),
    ("at most", Direction::AtMost),
    ("up to", Direction::AtMost),
    ("within", Direction::AtMost),
    ("最多", Direction::AtMost),
    ("最长", Direction::AtMost),
    ("最高", Direction::AtMost),
    ("至多", Direction::AtMost),
    ("不满", Direction::LessThan),
    ("未满", Direction::LessThan),
    ("不足", Direction::LessThan),
    ("少于", Direction::LessThan),
    ("低于", Direction::LessThan),
    ("less than", Direction::LessThan),
    ("fewer than", Direction::LessThan),
    ("under", Direction::LessThan),
    ("below", Direction::LessThan),
    ("超过", Direction::MoreThan),
    ("超出", Direction::MoreThan),
    ("多于", Direction::MoreThan),
    ("高于", Direction::MoreThan),
    ("大于", Direction::MoreThan),
    ("more than", Direction::MoreThan),
    ("greater than", Direction::MoreThan),
    ("longer than", Direction::MoreThan),
    ("exceeding", Direction::MoreThan),
    ("exceeds", Direction::MoreThan),
    ("over", Direction::MoreThan),
    ("above", Direction::MoreThan),
    ("满", Direction::AtLeast),
];

/// Bound words after a number's unit.
const AFTER: &[(&str, Direction)] = &[
    ("以上", Direction::AtLeast),
    ("或以上", Direction::AtLeast),
    ("及以上", Direction::AtLeast),
    ("or more", Direction::AtLeast),
    ("or longer", Direction::AtLeast),
    ("or above", Direction::AtLeast),
    ("and above", Direction::AtLeast),
    ("and over", Direction::AtLeast),
    ("or greater", Direction::AtLeast),
    ("+", Direction::AtLeast),
    ("以下", Direction::AtMost),
    ("或以下", Direction::AtMost),
    ("及以下", Direction::AtMost),
    ("以内", Direction::AtMost),
    ("之内", Direction::AtMost),
    ("内", Direction::AtMost),
    ("or less", Direction::AtMost),
    ("or fewer", Direction::AtMost),
    ("or below", Direction::AtMost),
    ("or under", Direction::AtMost),
    ("at most", Direction::AtMost),
    ("max", Direction::AtMost),
];

/// English number words (to ninety-nine with "twenty-one" forms, and a hundred's
/// multiples through [`english_number`]).
const ONES: &[&str] = &[
    "zero",
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
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const TENS: &[&str] = &[
    "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];

/// A value written in number words starting at `words[i]`: `(value, words used)`.
fn english_number(words: &[(usize, usize, String)], i: usize) -> Option<(f64, usize)> {
    let word = |j: usize| words.get(j).map(|w| w.2.as_str());
    let small = |w: &str| -> Option<u64> {
        if let Some(n) = ONES.iter().position(|o| *o == w) {
            return Some(n as u64);
        }
        if let Some((t, o)) = w.split_once('-') {
            let t = TENS.iter().position(|x| !x.is_empty() && *x == t)? as u64;
            let o = ONES[1..10].iter().position(|x| *x == o)? as u64 + 1;
            return Some(t * 10 + o);
        }
        TENS.iter()
            .position(|x| !x.is_empty() && *x == w)
            .map(|t| t as u64 * 10)
    };
    let mut value = small(word(i)?)?;
    let mut used = 1;
    if value >= 20
        && value % 10 == 0
        && let Some(o) = word(i + 1).and_then(|w| ONES[1..10].iter().position(|x| *x == w))
    {
        value += o as u64 + 1;
        used += 1;
    }
    for (name, factor) in [("hundred", 100), ("thousand", 1000)] {
        if word(i + used) == Some(name) {
            value *= factor;
            used += 1;
        }
    }
    Some((value as f64, used))
}

/// Latin words of `folded` with their byte ranges, lower-cased.
fn latin_words(folded: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in folded.char_indices().chain([(folded.len(), ' ')]) {
        let part = c.is_ascii_alphabetic() || (c == '-' && start.is_some());
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                let w = folded[s..i].trim_end_matches('-');
                out.push((s, s + w.len(), w.to_ascii_lowercase()));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Every quantity in `text`, in order. Offsets refer to `text` as given.
pub fn quantities(text: &str) -> Vec<Quantity> {
    // Numbers in digits and Chinese numerals; then English number words.
    let mut found: Vec<(usize, usize, f64)> = numbers_in(text)
        .into_iter()
        .filter_map(|m| Some((m.start, m.end, m.value.parse::<f64>().ok()?)))
        .collect();
    let words = latin_words(text);
    let mut i = 0;
    while i < words.len() {
        if let Some((v, used)) = english_number(&words, i) {
            let (start, end) = (words[i].0, words[i + used - 1].1);
            // "one" is a pronoun more often than a number: only before a unit.
            let needs_unit = used == 1 && words[i].2 == "one";
            let next = words.get(i + used).map(|w| w.2.as_str()).unwrap_or("");
            let unit_follows = UNITS.iter().any(|(u, _, _)| {
                u.is_ascii() && next.starts_with(u.split(' ').next().unwrap_or(u))
            });
            if !needs_unit || unit_follows {
                found.push((start, end, v));
            }
            i += used;
        } else {
            if words[i].2 == "twice" {
                found.push((words[i].0, words[i].1, 2.0));
            }
            // "half a year", "half an hour": the unit follows.
            if words[i].2 == "half"
                && let Some(article) = words.get(i + 1).filter(|w| w.2 == "a" || w.2 == "an")
            {
                found.push((words[i].0, article.1, 0.5));
                i += 1;
            }
            i += 1;
        }
    }
    found.sort_by_key(|f| f.0);
    let lower = text.to_lowercase();
    // Lower-casing keeps byte offsets of ASCII text; where it would not (rare
    // letters), compare against the text itself.
    let folded: &str = if lower.len() == text.len() {
        &lower
    } else {
        text
    };
    // 半个月, 半年, 半天: half a unit (一年半 is read with its unit).
    for (at, _) in text.match_indices('半') {
        let after = &text[at + '半'.len_utf8()..];
        let unit = ["个月", "个小时", "小时", "年", "天", "日", "月"]
            .iter()
            .any(|u| after.starts_with(u));
        let before = text[..at].chars().next_back();
        let joined = before.is_some_and(|c| "年月天日时个".contains(c) || c.is_ascii_digit());
        if unit && !joined && !found.iter().any(|f| f.0 <= at && at < f.1) {
            found.push((at, at + '半'.len_utf8(), 0.5));
        }
    }
    found.sort_by_key(|f| f.0);
    // 2/3, 1/3 以上: a fraction written with a slash (not a date, 2019/03/10).
    let mut fractions = Vec::new();
    for i in (0..found.len().saturating_sub(1)).rev() {
        let ((s, e, a), (bs, be, b)) = (found[i], found[i + 1]);
        let slash = text.get(e..bs) == Some("/");
        let lone = !text[..s].ends_with('/') && !text[be..].starts_with('/');
        if slash && lone && a >= 1.0 && a < b && b <= 20.0 && a.fract() == 0.0 {
            found[i] = (s, be, a / b);
            found.remove(i + 1);
            fractions.push(s);
        }
    }
    // 上一年度, 下一年: the year before, not one year.
    found.retain(|&(start, end, value)| {
        !(value == 1.0
            && text[..start].ends_with(['上', '下'])
            && text[end..].starts_with(['年', '月', '个']))
    });
    let mut out: Vec<Quantity> = found
        .iter()
        .map(|&(start, end, value)| quantity(folded, start, end, value))
        .collect();
    // "1到3倍", "7-10 business days", "1 to 3 times": the first number of a range has
    // the unit written after the second.
    for i in (0..out.len().saturating_sub(1)).rev() {
        let (a, b) = (&out[i], &out[i + 1]);
        // From the number itself: a connector right after it may have been read as
        // its counter (1到 as "1 到").
        let between = folded.get(found[i].1..b.start).unwrap_or("").trim();
        let ranged = matches!(between, "到" | "至" | "-" | "~" | "～" | "–" | "—" | "to");
        let unitless = matches!(a.dimension, Dimension::Bare | Dimension::Count(_));
        if ranged && unitless && !matches!(b.dimension, Dimension::Bare | Dimension::Date) {
            let factor = if found[i + 1].2 == 0.0 {
                1.0
            } else {
                b.value / found[i + 1].2
            };
            out[i].value = found[i].2 * factor;
            out[i].dimension = out[i + 1].dimension.clone();
            out[i].end = found[i].1;
        }
    }
    for q in out.iter_mut().filter(|q| fractions.contains(&q.start)) {
        q.dimension = Dimension::Ratio;
    }
    out
}

/// Reads the unit, currency and bound words around one number.
fn quantity(text: &str, start: usize, end: usize, value: f64) -> Quantity {
    // 三分之一, 2分之1: a fraction whose denominator stands before 分之; the quantity
    // starts there, so the bound words before it (不得低于三分之一) are read.
    let (start, value, fraction) = match denominator(&text[..start]) {
        Some((at, d)) if d > 0.0 => (at, value / d, true),
        _ => (start, value, false),
    };
    let before = text[..start].trim_end();
    let rest = &text[end..];
    let trimmed = rest.trim_start();
    // 两千多块, 三万余元: a little more than the number, in the unit after 多.
    let approx = trimmed.starts_with(['多', '余']) && !trimmed.starts_with("多少");
    let after = if approx {
        &trimmed['多'.len_utf8()..]
    } else {
        trimmed
    };
    // Bytes from the number to its unit (spaces, 多); `space` counts the spaces only.
    let gap = rest.len() - after.len();
    let space = rest.len() - trimmed.len();
    let mut value = value;
    let mut dimension = if fraction {
        Dimension::Ratio
    } else {
        Dimension::Bare
    };
    let mut unit_end = end;
    // 百分之五十, 千分之三, 万分之五: the fraction word stands before the number.
    for (word, factor) in [("百分之", 0.01), ("千分之", 0.001), ("万分之", 0.0001)] {
        if before.ends_with(word) {
            value *= factor;
            dimension = Dimension::Ratio;
        }
    }
    let currency_before =
        before.ends_with('$') || before.ends_with("usd") || before.ends_with("us$");
    let yuan_before = before.ends_with('¥') || before.ends_with('￥') || before.ends_with("rmb");
    if dimension == Dimension::Bare {
        // A date: 2026年1月1日; a year number before 年, a month before 月 with a day.
        let is_year = (1900.0..=2100.0).contains(&value) && !approx && after.starts_with('年');
        let is_month_of_date = after.starts_with('月')
            && after['月'.len_utf8()..]
                .starts_with(|c: char| c.is_ascii_digit() || "一二三四五六七八九十".contains(c));
        let is_day_of_date = after.starts_with(['日', '号']) && before.ends_with('月');
        // 八成 is 80% (not 成为, 成员, 成年).
        let tenths = after.starts_with('成')
            && gap == 0
            && !approx
            && value <= 10.0
            && !after['成'.len_utf8()..].starts_with([
                '为', '员', '本', '立', '功', '年', '人', '绩', '果', '交', '就',
            ]);
        if is_year || is_month_of_date || is_day_of_date {
            dimension = Dimension::Date;
            unit_end = end + gap + after.chars().next().map_or(0, char::len_utf8);
        } else if tenths {
            value *= 0.1;
            dimension = Dimension::Ratio;
            unit_end = end + '成'.len_utf8();
        } else if let Some((len, unit, factor)) =
            // "a 4-year vesting", "a 12-month cliff": a hyphen joins an English unit.
            unit_prefix(after, gap == 0)
        {
            value *= factor;
            unit_end = end + gap + len;
            // 一年半, 两个半月: half a unit more.
            if text[unit_end..].starts_with('半') {
                value += factor / 2.0;
                unit_end += '半'.len_utf8();
            } else if after.starts_with("个半") {
                value += factor / 2.0;
            }
            dimension = dimension_of(unit);
        } else if currency_before {
            dimension = Dimension::Money("USD");
        } else if yuan_before {
            dimension = Dimension::Money("CNY");
        } else if let Some(c) = after.chars().next()
            && (c.is_alphabetic() || c == '%')
            && space <= 1
        {
            let unit: String = if c.is_ascii_alphabetic() {
                after
                    .chars()
                    .take_while(char::is_ascii_alphabetic)
                    .collect::<String>()
                    .trim_end_matches('s')
                    .to_owned()
            } else {
                // A measure word (五十个以下, 二百人以上) is the unit: the bound word
                // after it bounds the number.
                if MEASURE_WORDS.contains(c) && space == 0 {
                    unit_end = end + gap + c.len_utf8();
                }
                c.to_string()
            };
            dimension = Dimension::Count(unit);
        }
    }
    if currency_before && dimension == Dimension::Bare {
        dimension = Dimension::Money("USD");
    }
    let tail = text[unit_end..].trim_start();
    let direction = direction_of(before, tail, &dimension, approx);
    Quantity {
        value,
        dimension,
        direction,
        start,
        end: unit_end,
    }
}

/// The dimension a unit word gives its number.
fn dimension_of(unit: Unit) -> Dimension {
    match unit {
        Unit::Days => Dimension::Days,
        Unit::Months => Dimension::Months,
        Unit::Hours => Dimension::Hours,
        Unit::Ratio => Dimension::Ratio,
        Unit::Cny => Dimension::Money("CNY"),
        Unit::Usd => Dimension::Money("USD"),
    }
}

/// Which way the bound words around a number (`before` it, `tail` after its unit) turn
/// it: 不超过 / at most, 以上 / or more; a share's own bound (过半数); a number said
/// with 多 or 余 is more than itself.
fn direction_of(before: &str, tail: &str, dimension: &Dimension, approx: bool) -> Direction {
    let direction = BEFORE
        .iter()
        .find(|(w, _)| ends_with_word(before, w))
        .or_else(|| AFTER.iter().find(|(w, _)| tail.starts_with(w)))
        .map_or(Direction::Exact, |(_, d)| *d);
    let direction = match direction {
        Direction::Exact if *dimension == Dimension::Ratio => share_bound(before),
        d => d,
    };
    if approx && direction == Direction::Exact {
        Direction::MoreThan
    } else {
        direction
    }
}

/// The denominator of a fraction that `before` ends with ("三分之", "2分之", not
/// 百分之 / 千分之 / 万分之, which are read as percentages): its byte offset and value.
fn denominator(before: &str) -> Option<(usize, f64)> {
    let head = before.strip_suffix("分之")?;
    // 百分之五 is a percentage (read below); 一百分之五 would be a fraction.
    let lead = head.trim_end_matches(['百', '千', '万']);
    if lead.len() != head.len()
        && !lead.ends_with(|c: char| "一二三四五六七八九十两".contains(c) || c.is_ascii_digit())
    {
        return None;
    }
    let digits: usize = head
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .map(char::len_utf8)
        .sum();
    if digits > 0 {
        let at = head.len() - digits;
        return head[at..].parse::<f64>().ok().map(|d| (at, d));
    }
    let numeral: usize = head
        .chars()
        .rev()
        .take_while(|c| "零一二三四五六七八九十百千两".contains(*c))
        .map(char::len_utf8)
        .sum();
    if numeral == 0 {
        return None;
    }
    let at = head.len() - numeral;
    crate::numbers::parse_chinese_numeral(&head[at..]).map(|d| (at, d as f64))
}

/// The span of `q` in `text` widened by its bound words ("3天以内", "不得超过六个月",
/// "at least 3 years"), for telling a person what differs.
pub fn bound_span(text: &str, q: &Quantity) -> (usize, usize) {
    let lower = text.to_lowercase();
    let lower = if lower.len() == text.len() {
        lower
    } else {
        text.to_owned()
    };
    let before = &lower[..q.start];
    let start = BEFORE
        .iter()
        .find(|(w, _)| ends_with_word(before, w))
        .and_then(|(w, _)| before.rfind(w))
        .unwrap_or(q.start);
    let tail = &lower[q.end..];
    let gap = tail.len() - tail.trim_start().len();
    let end = AFTER
        .iter()
        .filter(|(w, _)| tail.trim_start().starts_with(w))
        .map(|(w, _)| q.end + gap + w.len())
        .max()
        .unwrap_or(q.end);
    (start, end)
}

/// The bound of a share whose whole stands between the bound word and the number:
/// 不得超过已发行股本总额的百分之十, 不低于职工总数的三分之一.
fn share_bound(before: &str) -> Direction {
    let before = ["百分之", "千分之", "万分之"]
        .iter()
        .find_map(|w| before.strip_suffix(w))
        .unwrap_or(before);
    let Some(whole) = before.strip_suffix('的') else {
        return Direction::Exact;
    };
    BEFORE
        .iter()
        .filter(|(w, _)| !w.is_ascii())
        .filter_map(|(w, d)| {
            let at = whole.rfind(w)?;
            let between = &whole[at + w.len()..];
            // A noun phrase: a few Chinese characters, no number, no break.
            let noun = between.chars().count() <= 12
                && between.chars().all(|c| {
                    crate::normalize::is_cjk(c) && !"零一二三四五六七八九十百千万两".contains(c)
                });
            // The longest bound word at the latest place (不得超过, not 超过).
            noun.then_some((at + w.len(), w.len(), *d))
        })
        .max_by_key(|&(end, len, _)| (end, len))
        .map_or(Direction::Exact, |(_, _, d)| d)
}

/// Whether `text` ends with the bound word `w`, as a whole word when it is English.
fn ends_with_word(text: &str, w: &str) -> bool {
    // "of up to", "the first": skip a few filler words between bound and number.
    let text = text.trim_end_matches(['$', '¥', '￥']).trim_end();
    let text = ["a total of", "the first", "of", "a", "an"]
        .iter()
        .find_map(|f| {
            text.strip_suffix(f)
                .filter(|t| t.ends_with(' ') || t.is_empty())
        })
        .map_or(text, str::trim_end);
    // 最多享受98天, 至少可以休5天: a verb between the bound and its number.
    let text = [
        "可以享受",
        "可享受",
        "享受",
        "可以休",
        "可休",
        "休",
        "可以",
        "可",
        "为",
        "是",
        "有",
        "给予",
        "支付",
        "提前",
    ]
    .iter()
    .find_map(|f| text.strip_suffix(f))
    .filter(|t| !t.is_empty())
    .unwrap_or(text);
    if !text.ends_with(w) {
        return false;
    }
    !w.is_ascii()
        || !text[..text.len() - w.len()]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(text: &str) -> Vec<(f64, Dimension, Direction)> {
        quantities(text)
            .into_iter()
            .map(|q| (q.value, q.dimension, q.direction))
            .collect()
    }

    fn same(a: &str, b: &str) -> bool {
        let (a, b) = (quantities(a), quantities(b));
        a.len() == 1 && b.len() == 1 && a[0].same_value(&b[0])
    }

    #[test]
    fn equal_amounts_in_other_forms_are_the_same_quantity() {
        assert!(same("300%", "3倍"));
        assert!(same("百分之三百", "300%"));
        assert!(same("1.5 times", "150%"));
        assert!(same("sixteen weeks", "16 weeks"));
        assert!(same("一年", "12个月"));
        assert!(same("$0.62", "62 cents"));
        assert!(same("20,000元", "贰万元"));
        assert!(same("2万元", "两万元"));
        assert!(same("eight weeks", "56 days"));
        assert!(same("2/3以上", "三分之二以上"));
        assert!(same("一年半", "十八个月"));
        assert!(same("两个半月", "2.5 months"));
        assert!(same("a 4-year vesting", "48 months"));
        assert!(same("half a year", "6个月"));
        assert!(same("支付半个月工资", "0.5个月"));
        assert!(same("半年", "六个月"));
        assert!(same("八成", "80%"));
        assert!(
            quantities("三人成为组长")
                .iter()
                .all(|q| q.dimension != Dimension::Ratio)
        );
        let range = quantities("处1到3倍的罚款");
        assert!(
            range[0].same_value(&quantities("一倍")[0]),
            "a range's first number takes the unit after it: {range:?}"
        );
        assert!(
            quantities("上一年度职工月平均工资").is_empty(),
            "the year before"
        );
        assert!(same("２０％", "20%"));
        assert!(!same("三倍", "30%"));
        assert!(!same("5天", "5个月"));
    }

    #[test]
    fn bound_words_set_the_direction() {
        assert_eq!(q("请假3天以内的")[0].2, Direction::AtMost);
        assert_eq!(q("请假3天以上的")[0].2, Direction::AtLeast);
        assert_eq!(q("试用期不得超过六个月")[0].2, Direction::AtMost);
        assert_eq!(q("职工代表的比例不得高于三分之一")[0].2, Direction::AtMost);
        assert_eq!(q("职工代表的比例不得低于三分之一")[0].2, Direction::AtLeast);
        assert!(!same("三分之一", "2分之1") && same("二分之一", "50%"));
        assert!(
            same("百分之五十", "50%"),
            "a percentage is no fraction of 百"
        );
        assert_eq!(q("不少于98天的产假")[0].2, Direction::AtLeast);
        // A measure word is the unit; the bound after it bounds the number.
        let panel = q("评审小组由三人以上七人以下组成");
        assert_eq!(panel[0].2, Direction::AtLeast);
        assert_eq!(
            panel[1],
            (7.0, Dimension::Count("人".into()), Direction::AtMost)
        );
        // A share's whole stands between the bound and the number.
        assert_eq!(
            q("年度奖金不得超过本人年薪的百分之二十")[0].2,
            Direction::AtMost
        );
        assert_eq!(q("不低于职工总数的三分之一")[0].2, Direction::AtLeast);
        assert_eq!(
            q("职工代表的比例为百分之十")[0].2,
            Direction::Exact,
            "no bound word, no bound"
        );
        assert_eq!(
            q("2019/03/10")[0].1,
            Dimension::Bare,
            "a date is no fraction"
        );
        assert_eq!(q("at least 3 years")[0].2, Direction::AtLeast);
        assert_eq!(q("up to 20 days")[0].2, Direction::AtMost);
        assert_eq!(q("a minimum of 5 days")[0].2, Direction::AtLeast);
        assert_eq!(
            q("no more than $75")[0],
            (75.0, Dimension::Money("USD"), Direction::AtMost)
        );
        assert_eq!(q("more than 5,000元")[0].2, Direction::MoreThan);
        assert_eq!(
            q("不满一年")[0],
            (12.0, Dimension::Months, Direction::LessThan)
        );
    }

    #[test]
    fn everyday_amounts_are_money_in_their_currency() {
        let cny = Dimension::Money("CNY");
        let usd = Dimension::Money("USD");
        assert_eq!(
            q("我花了三万块招待客户")[0],
            (30000.0, cny.clone(), Direction::Exact)
        );
        assert_eq!(
            q("花了3万块钱")[0],
            (30000.0, cny.clone(), Direction::Exact)
        );
        assert_eq!(
            q("两千多块")[0],
            (2000.0, cny.clone(), Direction::MoreThan),
            "两千多 is more than two thousand"
        );
        assert_eq!(
            q("三万余元")[0],
            (30000.0, cny.clone(), Direction::MoreThan)
        );
        assert_eq!(q("a 30k RMB dinner")[0], (30000.0, cny, Direction::Exact));
        assert_eq!(q("1.2k USD")[0], (1200.0, usd.clone(), Direction::Exact));
        assert_eq!(q("$1.2k")[0], (1200.0, usd.clone(), Direction::Exact));
        assert_eq!(q("50 bucks")[0], (50.0, usd, Direction::Exact));
        assert_eq!(q("报销多少")[..], [], "多少 asks; it is no amount");
        assert_eq!(
            q("二十多人")[0],
            (20.0, Dimension::Count("人".into()), Direction::MoreThan)
        );
    }

    #[test]
    fn dates_and_pronouns_are_not_amounts() {
        let d = q("自2026年1月1日起施行");
        assert!(d.iter().all(|x| x.1 == Dimension::Date), "{d:?}");
        assert!(q("no one may share it").is_empty());
        assert_eq!(q("one day a week")[0].0, 1.0);
        assert_eq!(q("twenty-one days")[0].0, 21.0);
    }
}
