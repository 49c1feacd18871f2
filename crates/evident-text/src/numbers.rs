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

/// Digits as written in ordinary text and in financial (大写) writing: 两万 and 贰万
/// are the same amount.
const DIGITS: &str = "零〇一二两三四五六七八九壹贰貳叁參肆伍陆陸柒捌玖";
/// Place and group characters, ordinary and 大写.
const PLACES: &str = "十百千万亿拾佰仟萬億";
const UNITS_AFTER: &str = "日天个月年元圆块倍周岁次人名条款项页章节小时分钟秒%％号种级类份成";
/// What 千 (or 万) in front of them makes a unit prefix, not a multiplier: 20千克 is 20
/// kilograms, not 20,000.
const METRIC_AFTER: &str = "克米瓦帕卡伏赫焦字";

fn is_numeral(c: char) -> bool {
    DIGITS.contains(c) || PLACES.contains(c)
}

/// Value of a Chinese numeral such as 三十五, 二百, 一千零五, 五万, 十, 贰万; `None` if
/// the string is not one. Parsing is the `chinese-number` crate's, which knows the 大写
/// and traditional forms.
pub fn parse_chinese_numeral(s: &str) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    chinese_number::from_chinese_to_u64_ten_thousand(s).ok()
}

/// Whether the comma at byte `at` of `text` separates thousands: one rule for every
/// reader of numbers. It does when one to three digits stand before it (after a
/// non-digit or another thousands comma) and exactly three after it: 5,000 and
/// 20，000 are numbers, "5，10，15天" is three.
pub fn is_thousands_comma(text: &str, at: usize) -> bool {
    let Some(c) = text[at..].chars().next() else {
        return false;
    };
    if !matches!(c, ',' | '，') {
        return false;
    }
    let digit = |c: char| ascii_digit(c).is_some();
    let after: Vec<char> = text[at + c.len_utf8()..].chars().take(4).collect();
    let three_after = after.len() >= 3
        && after[..3].iter().all(|&d| digit(d))
        && after.get(3).is_none_or(|&d| !digit(d));
    if !three_after {
        return false;
    }
    let before: Vec<char> = text[..at].chars().rev().take_while(|&d| digit(d)).collect();
    if before.is_empty() || before.len() > 3 {
        return false;
    }
    // The group before must itself start the number or follow another thousands comma.
    let group_start = text[..at]
        .char_indices()
        .rev()
        .take(before.len())
        .last()
        .map_or(0, |(i, _)| i);
    match text[..group_start].char_indices().next_back() {
        Some((i, ',' | '，')) => {
            let prev_digit = text[..i].chars().next_back().is_some_and(digit);
            !prev_digit || is_thousands_comma(text, i)
        }
        _ => true,
    }
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
                let separator = j > start && is_thousands_comma(text, chars[j].0);
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
                Some('万' | '萬')
                    if chars.get(j + 1).is_none_or(|c| !METRIC_AFTER.contains(c.1)) =>
                {
                    value *= 1e4;
                    j += 1;
                }
                Some('亿' | '億') => {
                    value *= 1e8;
                    j += 1;
                }
                Some('千' | '仟')
                    if chars.get(j + 1).is_none_or(|c| !METRIC_AFTER.contains(c.1)) =>
                {
                    value *= 1e3;
                    j += 1;
                }
                // 30k, 1.2k USD: thousands, as people write amounts (not 5kg, 3km).
                Some('k' | 'K')
                    if chars
                        .get(j + 1)
                        .is_none_or(|c| !c.1.is_ascii_alphanumeric()) =>
                {
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
            // 二十千克: the 千 belongs to the unit.
            if j - start >= 2
                && matches!(chars[j - 1].1, '千' | '万')
                && chars.get(j).is_some_and(|c| METRIC_AFTER.contains(c.1))
            {
                j -= 1;
            }
            let run: String = chars[start..j].iter().map(|&(_, c)| c).collect();
            let before: String = chars[start.saturating_sub(3)..start]
                .iter()
                .map(|&(_, c)| c)
                .collect();
            let unit_after = chars.get(j).is_some_and(|c| UNITS_AFTER.contains(c.1));
            // 百分之 / 千分之 / 万分之 introduce a number; they are not one.
            let fraction_word = chars.get(j).is_some_and(|c| c.1 == '分')
                && chars.get(j + 1).is_some_and(|c| c.1 == '之');
            let reads_as_number = !fraction_word
                && (j - start >= 2
                    || unit_after
                    || before.ends_with('第')
                    || before.ends_with("分之"));
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
    fn financial_numerals_and_one_comma_rule() {
        assert_eq!(values("报销贰万元以上"), ["20000"]);
        assert_eq!(values("两万元"), ["20000"]);
        assert_eq!(values("壹仟伍佰元整"), ["1500"]);
        assert_eq!(values("5，10，15天"), ["5", "10", "15"]);
        assert_eq!(values("5,10,15 days"), ["5", "10", "15"]);
        assert_eq!(values("1,234,567元"), ["1234567"]);
        assert_eq!(values("20，000元"), ["20000"]);
        assert_eq!(values("12,34元"), ["12", "34"]);
    }

    #[test]
    fn everyday_amounts_read_as_numbers() {
        assert_eq!(values("我花了三万块招待客户"), ["30000"]);
        assert_eq!(values("花了3万"), ["30000"]);
        assert_eq!(values("两千多块钱"), ["2000"]);
        assert_eq!(values("a 30k budget"), ["30000"]);
        assert_eq!(values("1.2k USD"), ["1200"]);
        assert_eq!(values("30K."), ["30000"]);
        assert_eq!(
            values("5kg and 3km"),
            ["5", "3"],
            "metric units are no thousands"
        );
        let m = &numbers_in("spent 1.2k USD")[0];
        assert_eq!(&"spent 1.2k USD"[m.start..m.end], "1.2k");
    }

    #[test]
    fn metric_prefixes_are_not_multipliers() {
        assert_eq!(values("不得超过20千克"), ["20"]);
        assert_eq!(values("二十千克"), ["20"]);
        assert_eq!(values("5千米"), ["5"]);
        assert_eq!(values("5千元"), ["5000"]);
        assert_eq!(values("万分之五"), ["5"]);
    }

    #[test]
    fn words_containing_numeral_characters_are_not_numbers() {
        assert!(values("一般情况下统一处理").is_empty());
        assert!(values("唯一的办法").is_empty());
        assert_eq!(values("一个月"), ["1"]);
    }
}
