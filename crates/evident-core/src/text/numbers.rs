//! Numbers in text, whichever way they are written.
//!
//! Policy answers live and die by their numbers: an amount, a number of days, a
//! percentage. Documents and questions write them in several ways (`5,000`, `5000`,
//! `5千`, `五千`, `百分之二百`, `200%`), so both the query side (a question's `五千`
//! must find a passage's `5000`) and the grounding check (every number of a claim must
//! be in its source) compare numbers by value, never by spelling.
//!
//! Chinese numerals are only taken as numbers where they read as one: two or more
//! numeral characters (三十, 二百), or one before a unit or counter (三日, 一个月) or
//! after 第 / 百分之. A lone 一 in 一般 or 统一 is a word, not a number.

/// A number found in text: its value in canonical form and where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberMention {
    /// The value, written canonically: `5000`, `0.5`, `200`.
    pub value: String,
    /// Byte offset where the number starts.
    pub start: usize,
    /// Byte offset just past the number (and its 万/亿 multiplier, if any).
    pub end: usize,
}

const DIGITS: &str = "零〇一二两三四五六七八九";
const UNITS_AFTER: &str = "日天个月年元倍周岁次人名条款项页章节小时分钟秒%％号种级类份";

fn digit_value(c: char) -> Option<u64> {
    Some(match c {
        '零' | '〇' => 0,
        '一' => 1,
        '二' | '两' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => return None,
    })
}

fn is_numeral(c: char) -> bool {
    DIGITS.contains(c) || matches!(c, '十' | '百' | '千' | '万' | '亿')
}

/// Value of a Chinese numeral such as 三十五, 二百, 一千零五, 五万, 十; `None` if the
/// string is not one.
pub fn parse_chinese_numeral(s: &str) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let mut total: u64 = 0; // completed 亿 and 万 groups
    let mut section: u64 = 0; // value below 万
    let mut digit: Option<u64> = None;
    for c in s.chars() {
        if let Some(d) = digit_value(c) {
            digit = Some(d);
            continue;
        }
        let unit = match c {
            '十' => 10,
            '百' => 100,
            '千' => 1000,
            '万' => 10_000,
            '亿' => 100_000_000,
            _ => return None,
        };
        if unit >= 10_000 {
            section += digit.take().unwrap_or(0);
            let group = if section == 0 { 1 } else { section };
            total = (total + group).checked_mul(unit)?;
            section = 0;
        } else {
            // 十 alone means 10; 二十 means 20.
            section += digit.take().unwrap_or(1) * unit;
        }
    }
    Some(total + section + digit.unwrap_or(0))
}

/// Writes `n` as a Chinese numeral (`30` → 三十, `200` → 二百, `1005` → 一千零五);
/// used to expand a question's `30天` to also find `三十日`.
pub fn to_chinese_numeral(n: u64) -> Option<String> {
    const D: [char; 10] = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
    if n == 0 {
        return Some("零".into());
    }
    if n >= 100_000_000 {
        return None;
    }
    fn below_10k(n: u64, out: &mut String, leading: bool) {
        let places = [(1000, '千'), (100, '百'), (10, '十')];
        let mut zero_pending = false;
        let mut started = !leading;
        for (p, name) in places {
            let d = (n / p % 10) as usize;
            if d == 0 {
                zero_pending = started;
                continue;
            }
            if zero_pending {
                out.push('零');
                zero_pending = false;
            }
            // 十五, not 一十五, at the start of a number.
            if !(p == 10 && d == 1 && !started) {
                out.push(D[d]);
            }
            out.push(name);
            started = true;
        }
        let d = (n % 10) as usize;
        if d != 0 {
            if zero_pending || (started && n % 100 < 10 && n >= 10) {
                out.push('零');
            }
            out.push(D[d]);
        }
    }
    let mut out = String::new();
    let (high, low) = (n / 10_000, n % 10_000);
    if high > 0 {
        below_10k(high, &mut out, true);
        out.push('万');
        if low > 0 {
            if low < 1000 {
                out.push('零');
            }
            below_10k(low, &mut out, false);
        }
    } else {
        below_10k(low, &mut out, true);
    }
    Some(out)
}

/// Canonical text of a value: no trailing zeros after a decimal point.
fn canonical(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        let s = format!("{value:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

/// The ASCII digit `c` stands for: `7` or the full-width `７` (documents are stored as
/// written, so both occur).
fn ascii_digit(c: char) -> Option<char> {
    match c {
        '0'..='9' => Some(c),
        '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32),
        _ => None,
    }
}

/// Every number in `text`, in order (see the module docs for what counts as one).
pub fn numbers_in(text: &str) -> Vec<NumberMention> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let end_of = |i: usize| chars.get(i).map_or(text.len(), |&(b, _)| b);
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].1;
        if ascii_digit(c).is_some() {
            let start = i;
            let mut j = i;
            let mut seen_point = false;
            while j < chars.len() {
                let c = chars[j].1;
                let next_digit = chars.get(j + 1).is_some_and(|n| ascii_digit(n.1).is_some());
                let separator = matches!(c, ',' | '，') && next_digit && j > start;
                if ascii_digit(c).is_some() || separator {
                    j += 1;
                } else if matches!(c, '.' | '．') && !seen_point && next_digit {
                    seen_point = true;
                    j += 1;
                } else {
                    break;
                }
            }
            let literal: String = chars[start..j]
                .iter()
                .filter_map(|&(_, c)| match c {
                    '.' | '．' => Some('.'),
                    c => ascii_digit(c),
                })
                .collect();
            let mut value: f64 = literal.parse().unwrap_or(0.0);
            match chars.get(j).map(|c| c.1) {
                Some('万') => {
                    value *= 1e4;
                    j += 1;
                }
                Some('亿') => {
                    value *= 1e8;
                    j += 1;
                }
                Some('千') if chars.get(j + 1).is_none_or(|c| c.1 != '米') => {
                    value *= 1e3;
                    j += 1;
                }
                _ => {}
            }
            out.push(NumberMention {
                value: canonical(value),
                start: chars[start].0,
                end: end_of(j),
            });
            i = j;
        } else if is_numeral(c) {
            let start = i;
            let mut j = i;
            while j < chars.len() && is_numeral(chars[j].1) {
                j += 1;
            }
            let run: String = chars[start..j].iter().map(|&(_, c)| c).collect();
            let before: String = chars[start.saturating_sub(3)..start]
                .iter()
                .map(|&(_, c)| c)
                .collect();
            let unit_after = chars.get(j).is_some_and(|c| UNITS_AFTER.contains(c.1));
            // 百分之 / 千分之 introduce a number; they are not one.
            let fraction_word = chars.get(j).is_some_and(|c| c.1 == '分')
                && chars.get(j + 1).is_some_and(|c| c.1 == '之');
            let reads_as_number = !fraction_word
                && (j - start >= 2
                    || unit_after
                    || before.ends_with('第')
                    || before.ends_with("百分之"));
            if reads_as_number && let Some(v) = parse_chinese_numeral(&run) {
                out.push(NumberMention {
                    value: canonical(v as f64),
                    start: chars[start].0,
                    end: end_of(j),
                });
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_width_digits_are_numbers_too() {
        assert_eq!(values("超过２０，０００元的"), ["20000"]);
        assert_eq!(values("年息３．５％"), ["3.5"]);
        let m = &numbers_in("约５千元")[0];
        assert_eq!(
            (m.value.as_str(), &"约５千元"[m.start..m.end]),
            ("5000", "５千")
        );
    }

    fn values(s: &str) -> Vec<String> {
        numbers_in(s).into_iter().map(|m| m.value).collect()
    }

    #[test]
    fn chinese_numerals_parse() {
        for (s, n) in [
            ("十", 10),
            ("十五", 15),
            ("三十", 30),
            ("二百", 200),
            ("一千零五", 1005),
            ("五千", 5000),
            ("两万", 20000),
            ("三万五千", 35000),
            ("一亿", 100_000_000),
        ] {
            assert_eq!(parse_chinese_numeral(s), Some(n), "{s}");
        }
        assert_eq!(parse_chinese_numeral("经理"), None);
    }

    #[test]
    fn chinese_numerals_round_trip() {
        for n in [
            0, 1, 10, 15, 20, 30, 101, 110, 200, 1005, 5000, 10_000, 35_000, 100_005,
        ] {
            let zh = to_chinese_numeral(n).unwrap_or_default();
            assert_eq!(parse_chinese_numeral(&zh), Some(n), "{n} -> {zh}");
        }
        assert_eq!(to_chinese_numeral(30).as_deref(), Some("三十"));
        assert_eq!(to_chinese_numeral(15).as_deref(), Some("十五"));
    }

    #[test]
    fn numbers_are_found_by_value_in_any_spelling() {
        assert_eq!(values("超过5,000元需审批"), ["5000"]);
        assert_eq!(values("超过五千元需审批"), ["5000"]);
        assert_eq!(values("超过0.5万元"), ["5000"]);
        assert_eq!(values("支付不低于工资的百分之二百"), ["200"]);
        assert_eq!(values("paid 200% of wages"), ["200"]);
        assert_eq!(values("第四十条 提前三十日通知"), ["40", "30"]);
        assert_eq!(values("2023年5月1日起施行"), ["2023", "5", "1"]);
        assert_eq!(values("3.50 days"), ["3.5"]);
    }

    #[test]
    fn words_containing_numeral_characters_are_not_numbers() {
        assert!(values("一般情况下统一处理").is_empty());
        assert!(values("唯一的办法").is_empty());
        assert_eq!(values("一个月"), ["1"]);
    }
}
