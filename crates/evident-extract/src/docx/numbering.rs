//! Automatic numbering (`numbering.xml`): the labels Word draws in front of numbered
//! paragraphs — `第十九条`, `1.1`, `（一）`, `a)` — which are not in the paragraph's text.
//!
//! A reader sees them, and people search and cite by them ("第十九条"), so they are
//! rendered into the text here, counted the way Word counts: a level's counter goes up
//! with each paragraph at that level and the levels below it start again; lists that
//! share an abstract definition continue one another unless a list restarts a level.

use std::collections::HashMap;

use quick_xml::events::{BytesStart, Event};

use super::xml::{attr, is, is_on};
use evident_text::numbers::to_chinese_numeral;

/// Levels per list definition in WordprocessingML.
const LEVELS: usize = 9;

#[derive(Debug, Clone, Default)]
struct Level {
    start: u32,
    format: String,
    text: String,
    /// Tab (the default), space or nothing between the label and the text.
    suffix: String,
    /// "Legal" numbering: every level's number shown in decimal.
    legal: bool,
}

#[derive(Debug, Clone, Default)]
struct List {
    abstract_id: String,
    /// Levels the list overrides: a new start, or a whole new definition.
    start_overrides: HashMap<usize, u32>,
    level_overrides: HashMap<usize, Level>,
}

/// A rendered label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Label {
    /// The label and the space after it (`第一条 `), empty for a bullet.
    pub text: String,
    /// A numbered (not bulleted) list.
    pub ordered: bool,
}

/// The lists of a document and their counters.
#[derive(Debug, Default)]
pub(super) struct Numbering {
    abstracts: HashMap<String, Vec<Level>>,
    lists: HashMap<String, List>,
    /// Current value per level; keyed by abstract id, or by list id for a list that
    /// restarts its numbering.
    counters: HashMap<String, [Option<u32>; LEVELS]>,
}

impl Numbering {
    /// Reads `numbering.xml`.
    pub fn parse(xml: &str) -> Result<Self, quick_xml::Error> {
        let mut out = Self::default();
        let mut reader = quick_xml::Reader::from_str(xml);
        let mut abstract_id: Option<String> = None;
        let mut list: Option<(String, List)> = None;
        let mut level: Option<(usize, Level)> = None;
        let mut override_level: Option<usize> = None;
        loop {
            match reader.read_event()? {
                Event::Start(e) if is(&e, "abstractNum") => {
                    abstract_id = attr(&e, "abstractNumId");
                }
                Event::Start(e) if is(&e, "num") => {
                    list = attr(&e, "numId").map(|id| (id, List::default()));
                }
                Event::Start(e) if is(&e, "lvlOverride") => {
                    override_level = level_index(&e, "ilvl");
                }
                Event::Start(e) if is(&e, "lvl") => {
                    level = level_index(&e, "ilvl").map(|i| {
                        (
                            i,
                            Level {
                                start: 1,
                                format: "decimal".into(),
                                ..Level::default()
                            },
                        )
                    });
                }
                Event::Start(e) | Event::Empty(e) => {
                    if let Some((_, l)) = level.as_mut() {
                        read_level_property(&e, l);
                    } else if let (Some((_, list)), true) = (list.as_mut(), is(&e, "abstractNumId"))
                    {
                        list.abstract_id = attr(&e, "val").unwrap_or_default();
                    } else if let (Some((_, list)), Some(i), true) =
                        (list.as_mut(), override_level, is(&e, "startOverride"))
                    {
                        let start = attr(&e, "val").and_then(|v| v.parse().ok()).unwrap_or(1);
                        list.start_overrides.insert(i, start);
                    }
                }
                Event::End(e) => match e.local_name().as_ref() {
                    "lvl" => {
                        if let Some((i, l)) = level.take() {
                            if let Some((_, list)) = list.as_mut() {
                                list.level_overrides.insert(i, l);
                            } else if let Some(id) = &abstract_id {
                                let levels = out.abstracts.entry(id.clone()).or_default();
                                if levels.len() <= i {
                                    levels.resize(i + 1, Level::default());
                                }
                                levels[i] = l;
                            }
                        }
                    }
                    "lvlOverride" => override_level = None,
                    "abstractNum" => abstract_id = None,
                    "num" => {
                        if let Some((id, l)) = list.take() {
                            out.lists.insert(id, l);
                        }
                    }
                    _ => {}
                },
                Event::Eof => break,
                _ => {}
            }
        }
        Ok(out)
    }

    /// Counts one more paragraph at `level` of list `num_id` and returns its label;
    /// `None` for list 0 ("no numbering") or a list the document does not define.
    pub fn next(&mut self, num_id: &str, level: u8) -> Option<Label> {
        let list = self.lists.get(num_id)?;
        let level = usize::from(level).min(LEVELS - 1);
        let levels: Vec<Level> = (0..LEVELS)
            .map(|i| {
                list.level_overrides.get(&i).cloned().unwrap_or_else(|| {
                    self.abstracts
                        .get(&list.abstract_id)
                        .and_then(|ls| ls.get(i))
                        .cloned()
                        .unwrap_or_default()
                })
            })
            .collect();
        let restarts = !list.start_overrides.is_empty();
        let key = if restarts {
            format!("list:{num_id}")
        } else {
            format!("abstract:{}", list.abstract_id)
        };
        // A level not counted yet shows its start (the list's override, if any).
        let counters = self.counters.entry(key).or_insert([None; LEVELS]);
        let start_of = |i: usize| {
            list.start_overrides
                .get(&i)
                .copied()
                .unwrap_or(levels[i].start)
        };
        let value = counters[level].map_or(start_of(level), |v| v.saturating_add(1));
        counters[level] = Some(value);
        for deeper in counters.iter_mut().skip(level + 1) {
            *deeper = None;
        }
        let this = &levels[level];
        if this.format == "bullet" {
            return Some(Label {
                text: String::new(),
                ordered: false,
            });
        }
        let mut text = String::new();
        let mut chars = this.text.chars().peekable();
        while let Some(c) = chars.next() {
            let digit = chars.peek().and_then(|d| d.to_digit(10));
            match (c, digit) {
                ('%', Some(d @ 1..=9)) => {
                    chars.next();
                    let i = d as usize - 1;
                    let n = counters[i].unwrap_or_else(|| start_of(i));
                    let format = if this.legal {
                        "decimal"
                    } else {
                        levels[i].format.as_str()
                    };
                    text.push_str(&format_number(n, format));
                }
                _ => text.push(c),
            }
        }
        if text.trim().is_empty() {
            return Some(Label {
                text: String::new(),
                ordered: true,
            });
        }
        if this.suffix != "nothing" {
            text.push(' ');
        }
        Some(Label {
            text,
            ordered: true,
        })
    }
}

fn level_index(e: &BytesStart<'_>, name: &str) -> Option<usize> {
    attr(e, name)
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&i| i < LEVELS)
}

fn read_level_property(e: &BytesStart<'_>, level: &mut Level) {
    match e.local_name().as_ref() {
        "start" => level.start = attr(e, "val").and_then(|v| v.parse().ok()).unwrap_or(1),
        "numFmt" => level.format = attr(e, "val").unwrap_or_else(|| "decimal".into()),
        "lvlText" => level.text = attr(e, "val").unwrap_or_default(),
        "suff" => level.suffix = attr(e, "val").unwrap_or_default(),
        "isLgl" => level.legal = is_on(e),
        _ => {}
    }
}

/// `n` in one of Word's number formats (`ST_NumberFormat`); unknown formats as decimal.
fn format_number(n: u32, format: &str) -> String {
    let chinese = || to_chinese_numeral(u64::from(n)).unwrap_or_else(|| n.to_string());
    let from_table = |table: &[char]| {
        usize::try_from(n)
            .ok()
            .and_then(|i| i.checked_sub(1))
            .and_then(|i| table.get(i))
            .map_or_else(|| n.to_string(), char::to_string)
    };
    match format {
        "none" => String::new(),
        "decimalZero" => format!("{n:02}"),
        "upperRoman" => roman(n),
        "lowerRoman" => roman(n).to_lowercase(),
        "upperLetter" => letters(n),
        "lowerLetter" => letters(n).to_lowercase(),
        "chineseCounting"
        | "chineseCountingThousand"
        | "japaneseCounting"
        | "taiwaneseCounting"
        | "taiwaneseCountingThousand"
        | "koreanCounting" => chinese(),
        "chineseLegalSimplified" | "ideographLegalTraditional" | "japaneseLegal" => chinese()
            .chars()
            .map(|c| match c {
                '一' => '壹',
                '二' => '贰',
                '三' => '叁',
                '四' => '肆',
                '五' => '伍',
                '六' => '陆',
                '七' => '柒',
                '八' => '捌',
                '九' => '玖',
                '十' => '拾',
                '百' => '佰',
                '千' => '仟',
                other => other,
            })
            .collect(),
        "ideographDigital" | "taiwaneseDigital" | "japaneseDigitalTenThousand" => n
            .to_string()
            .chars()
            .map(|d| {
                ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九']
                    [d as usize - '0' as usize]
            })
            .collect(),
        "ideographTraditional" => {
            from_table(&['甲', '乙', '丙', '丁', '戊', '己', '庚', '辛', '壬', '癸'])
        }
        "ideographZodiac" => from_table(&[
            '子', '丑', '寅', '卯', '辰', '巳', '午', '未', '申', '酉', '戌', '亥',
        ]),
        "decimalEnclosedCircle" | "decimalEnclosedCircleChinese" if (1..=20).contains(&n) => {
            char::from_u32(0x2460 + n - 1).map_or_else(|| n.to_string(), String::from)
        }
        "decimalEnclosedParen" if (1..=20).contains(&n) => {
            char::from_u32(0x2474 + n - 1).map_or_else(|| n.to_string(), String::from)
        }
        "decimalEnclosedFullstop" if (1..=20).contains(&n) => {
            char::from_u32(0x2488 + n - 1).map_or_else(|| n.to_string(), String::from)
        }
        "decimalFullWidth" | "decimalFullWidth2" => n
            .to_string()
            .chars()
            .filter_map(|d| char::from_u32(d as u32 - '0' as u32 + '０' as u32))
            .collect(),
        _ => n.to_string(),
    }
}

fn roman(mut n: u32) -> String {
    const TABLE: [(u32, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut out = String::new();
    for (value, digits) in TABLE {
        while n >= value {
            out.push_str(digits);
            n -= value;
        }
    }
    out
}

/// Word's letter numbering: A … Z, then AA … ZZ, AAA …
fn letters(n: u32) -> String {
    let Some(i) = n.checked_sub(1) else {
        return String::new();
    };
    let letter = char::from(b'A' + (i % 26) as u8);
    std::iter::repeat_n(letter, (i / 26 + 1).min(50) as usize).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const XML: &str = r#"<w:numbering xmlns:w="w">
      <w:abstractNum w:abstractNumId="0">
        <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/><w:lvlText w:val="第%1条"/><w:suff w:val="space"/></w:lvl>
        <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/><w:lvlText w:val="（%2）"/><w:suff w:val="nothing"/></w:lvl>
      </w:abstractNum>
      <w:abstractNum w:abstractNumId="1">
        <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
        <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2"/></w:lvl>
      </w:abstractNum>
      <w:abstractNum w:abstractNumId="2">
        <w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="&#xF0B7;"/></w:lvl>
      </w:abstractNum>
      <w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
      <w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>
      <w:num w:numId="3"><w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>
      <w:num w:numId="4"><w:abstractNumId w:val="2"/></w:num>
    </w:numbering>"#;

    fn labels(n: &mut Numbering, steps: &[(&str, u8)]) -> Vec<String> {
        steps
            .iter()
            .map(|(id, l)| n.next(id, *l).map(|l| l.text).unwrap_or_default())
            .collect()
    }

    #[test]
    fn chinese_articles_count_past_ten_and_sub_items_restart() {
        let mut n = Numbering::parse(XML).expect("parses");
        let mut steps = vec![("1", 0u8); 19];
        steps.insert(1, ("1", 1));
        steps.insert(2, ("1", 1));
        steps.push(("1", 1));
        let got = labels(&mut n, &steps);
        assert_eq!(got[0], "第一条 ");
        assert_eq!(got[1..3], ["（一）", "（二）"]);
        assert_eq!(got[3], "第二条 ");
        assert_eq!(got[11], "第十条 ");
        assert_eq!(got[20], "第十九条 ");
        assert_eq!(got[21], "（一）", "a new article restarts its items");
    }

    #[test]
    fn multi_level_decimal_and_restart_by_override() {
        let mut n = Numbering::parse(XML).expect("parses");
        let got = labels(
            &mut n,
            &[("2", 0), ("2", 1), ("2", 1), ("2", 0), ("3", 0), ("3", 0)],
        );
        assert_eq!(got, ["1. ", "1.1 ", "1.2 ", "2. ", "1. ", "2. "]);
        let bullet = n.next("4", 0).expect("defined");
        assert_eq!(bullet.text, "");
        assert!(!bullet.ordered);
        assert_eq!(n.next("0", 0), None, "list 0 means no numbering");
    }

    #[test]
    fn number_formats() {
        assert_eq!(format_number(4, "upperRoman"), "IV");
        assert_eq!(format_number(28, "lowerLetter"), "bb");
        assert_eq!(format_number(3, "decimalEnclosedCircle"), "③");
        assert_eq!(format_number(12, "chineseLegalSimplified"), "拾贰");
        assert_eq!(format_number(2, "ideographTraditional"), "乙");
        assert_eq!(format_number(105, "ideographDigital"), "一〇五");
        assert_eq!(format_number(7, "decimalZero"), "07");
    }
}
