//! Doers: who does what a part of a rule says.
//!
//! "由公司负责通知全体股东" and "人民法院…应当通知公司及全体股东" share every key word;
//! so do "the Compliance Manager has to raise this with the risk owner" and "it is the
//! responsibility of the risk owner to raise this with the Compliance Manager". What
//! differs is who stands in the doer's slot. A list of actors cannot know every body a
//! policy names (县级以上人民政府安全生产监督管理部门, the TTS travel team), so the slot is
//! read from the grammar that marks it, in both languages:
//! - 由X…, and X before a word of duty or permission (X应当, X负责, X可以);
//! - "X will/must/has to/is responsible for…", "…by X", "the responsibility of X to…".
//!
//! A part of the claim is compared with the part of the source that says most of the
//! same words; when that part (or the statement it belongs to) puts someone else in the
//! slot, and the source names the claim's doer elsewhere, the claim gave one party's
//! duty to another. A doer the source never names is a paraphrase these words cannot
//! judge, and is left to the key-word check.

use std::collections::HashSet;

use super::pairing::{part_saying_at_least, parts, statement_parts};
use evident_text::normalize::is_cjk;

/// Words that end a Chinese doer's name after 由: the verb or adverb that follows it.
const AFTER_DOER_ZH: &[&str] = &[
    "负责",
    "应当",
    "应",
    "须",
    "必须",
    "可以",
    "按照",
    "按",
    "依照",
    "依法",
    "根据",
    "在",
    "自",
    "于",
    "处",
    "责令",
    "支付",
    "批准",
    "审批",
    "决定",
    "核定",
    "组织",
    "发放",
    "办理",
    "承担",
    "确认",
    "审核",
    "缴纳",
    "提供",
    "给予",
    "通知",
    "进行",
    "予以",
    "会同",
    "统一",
    "作出",
    "出具",
    "追回",
    "收取",
    "报",
    "向",
    "对",
    "从",
    "以",
    "为",
    "及时",
    "直接",
    "自行",
    "先行",
    "每月",
    "按月",
    "一次性",
    "代",
    "垫付",
    "补足",
    "赔偿",
    "安排",
    "召集",
    "主持",
    "签",
    "审",
    "批",
];
/// Chinese words of duty or permission: the name right before one is its doer. (Not
/// 要, 会, 将 alone: 要求, 委员会, 社会 hold them.)
const MODALS_ZH: &[&str] = &[
    "应当", "必须", "负责", "有权", "可以", "须", "应在", "应于", "应按", "应向", "应自", "应予",
];
/// How the name of a Chinese party ends: a body, an office, a person. A topic before
/// 可以 (年休假可以…) is no doer.
const PARTY_ENDINGS_ZH: &[&str] = &[
    "机构",
    "部门",
    "单位",
    "委员会",
    "会",
    "中心",
    "局",
    "院",
    "庭",
    "者",
    "人",
    "员",
    "方",
    "长",
    "师",
    "公司",
    "企业",
    "基金",
    "政府",
    "机关",
    "组织",
    "经理",
    "总监",
    "主管",
    "主任",
    "领导",
    "股东",
    "董事",
    "监事",
];

/// Characters a Chinese doer's name does not cross, going back from its modal.
const NAME_BREAKS_ZH: &str = "，,；;。：:、的由经向对是和及或后前时";

/// English words of duty or permission, word by word: the noun phrase before one is
/// its doer.
const MODALS_EN: &[&[&str]] = &[
    &["will"],
    &["must"],
    &["shall"],
    &["should"],
    &["has", "to"],
    &["have", "to"],
    &["needs", "to"],
    &["need", "to"],
    &["is", "required", "to"],
    &["are", "required", "to"],
    &["is", "responsible", "for"],
    &["are", "responsible", "for"],
    &["can"],
    &["may"],
];
/// Words an English doer's name does not cross, going back from its modal.
const NAME_BREAKS_EN: &[&str] = &[
    "if", "when", "then", "and", "or", "that", "which", "who", "after", "before", "once", "so",
    "while", "but", "unless", "where", "because", "with", "to", "for", "of", "on", "in", "this",
    "it", "you", "they", "we", "there",
];
/// Words dropped from an English name: "your manager" is "manager".
const DETERMINERS_EN: &[&str] = &[
    "the",
    "a",
    "an",
    "your",
    "our",
    "their",
    "his",
    "her",
    "its",
    "each",
    "every",
    "any",
    "all",
    "designated",
    "direct",
    "at",
    "least",
    "one",
    "other",
    "another",
    "some",
];

/// The doers a part of a text names, normalised for comparison (lower case, no
/// determiners), where its grammar marks them.
pub fn doers(part: &str) -> Vec<String> {
    let mut out = doers_zh(part);
    if out.is_empty() {
        out = doers_en(part);
    }
    out
}

fn doers_zh(part: &str) -> Vec<String> {
    let mut out = doer_slots_zh(part);
    out.retain(|n| PARTY_ENDINGS_ZH.iter().any(|e| n.ends_with(e)));
    out
}

fn doer_slots_zh(part: &str) -> Vec<String> {
    let mut out = Vec::new();
    // 由X…: not 由于 (because), 理由, 自由, 经由.
    for (at, _) in part.match_indices('由') {
        let before = part[..at].chars().next_back();
        let rest = &part[at + '由'.len_utf8()..];
        if rest.starts_with(['于', '此']) || before.is_some_and(|c| "理自经缘事".contains(c))
        {
            continue;
        }
        let mut end = rest.len();
        for w in AFTER_DOER_ZH {
            if let Some(i) = rest.find(w).filter(|&i| i > 0) {
                end = end.min(i);
            }
        }
        if let Some(i) = rest.find(|c: char| !is_cjk(c)) {
            end = end.min(i);
        }
        // The name ends where the last party ending does (由申请人当场记录: 申请人).
        let name = &rest[..end];
        let name = (0..=name.len())
            .rev()
            .filter(|&i| name.is_char_boundary(i))
            .map(|i| &name[..i])
            .find(|n| PARTY_ENDINGS_ZH.iter().any(|e| n.ends_with(e)))
            .unwrap_or(name);
        if (2..=16).contains(&name.chars().count()) {
            out.push(name.to_owned());
        }
    }
    // X应当…, X负责…: the run of characters before each modal, when it is a bare name
    // (no verb in it: 由X核定其应当缴纳 names X once, after 由).
    if !out.is_empty() {
        return out;
    }
    for m in MODALS_ZH {
        for (at, _) in part.match_indices(m) {
            let name: Vec<char> = part[..at]
                .chars()
                .rev()
                .take_while(|&c| is_cjk(c) && !NAME_BREAKS_ZH.contains(c))
                .take(12)
                .collect();
            let name: String = name.into_iter().rev().collect();
            let verb = AFTER_DOER_ZH
                .iter()
                .any(|w| w.chars().count() >= 2 && name.contains(w) && !name.ends_with(w));
            if name.chars().count() >= 2 && !verb && !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// An English name: up to six words before a break, determiners dropped.
fn name_en<'a>(words: impl Iterator<Item = &'a str>) -> String {
    words
        .take_while(|w| !NAME_BREAKS_EN.contains(w) && !is_modal_word(w))
        .take(6)
        .filter(|w| !DETERMINERS_EN.contains(w))
        .collect::<Vec<_>>()
        .join(" ")
}

fn doers_en(part: &str) -> Vec<String> {
    let lower = part.to_lowercase().replace('’', "'");
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '\'' && c != '-')
        .filter(|w| !w.is_empty())
        .collect();
    let mut out = Vec::new();
    for i in 0..words.len() {
        // "the responsibility of X to", "approved by X", "paid by X".
        let marker = (words[i] == "responsibility" && words.get(i + 1) == Some(&"of"))
            .then_some(i + 2)
            .or_else(|| {
                (words[i] == "by" && i > 0 && words[i - 1].ends_with("ed")).then_some(i + 1)
            });
        if let Some(from) = marker {
            out.push(name_en(words[from.min(words.len())..].iter().copied()));
        }
        // X will / must / has to …
        let modal = MODALS_EN.iter().find(|m| words[i..].starts_with(m));
        // "will be paid": a passive's subject is what is done, not who does it.
        let passive = modal.is_some_and(|m| words.get(i + m.len()) == Some(&"be"));
        if modal.is_some() && !passive && !words[..i].last().is_some_and(|w| is_modal_word(w)) {
            let mut before: Vec<&str> = words[..i].to_vec();
            before.reverse();
            let name: Vec<String> = name_en(before.into_iter())
                .split(' ')
                .rev()
                .map(str::to_owned)
                .collect();
            out.push(name.join(" "));
        }
    }
    out.retain(|n| !n.trim().is_empty());
    out.dedup();
    out
}

fn is_modal_word(w: &str) -> bool {
    MODALS_EN.iter().any(|m| m.first() == Some(&w))
}

/// Whether two doer names name the same party: one holds the other ("经办机构" in
/// "社会保险经办机构", "manager" in "tech ops manager"), or they share most of the
/// shorter name.
pub fn same_doer(a: &str, b: &str) -> bool {
    let (short, long) = if a.chars().count() <= b.chars().count() {
        (a, b)
    } else {
        (b, a)
    };
    if long.contains(short) {
        return true;
    }
    if short.is_ascii() {
        let words: HashSet<&str> = long.split(' ').map(|w| w.trim_end_matches('s')).collect();
        let shared = short
            .split(' ')
            .filter(|w| words.contains(w.trim_end_matches('s')))
            .count();
        return shared * 2 > short.split(' ').count();
    }
    // The longest run of characters the two share, against the shorter name.
    let (s, l): (Vec<char>, Vec<char>) = (short.chars().collect(), long.chars().collect());
    let mut best = 0;
    for i in 0..s.len() {
        for j in 0..l.len() {
            let n = s[i..]
                .iter()
                .zip(&l[j..])
                .take_while(|(x, y)| x == y)
                .count();
            best = best.max(n);
        }
    }
    best * 10 >= s.len() * 6
}

/// A doer the claim gives a duty that the source gives another: `(claim's doer, the
/// source's doers, the source's part)`. The part that says the same is looked for in
/// the aligned clause first, then in the whole passage.
pub fn doer_swaps(claim: &str, clause: &str, passage: &str) -> Vec<(String, String, String)> {
    let source_lower = passage.to_lowercase();
    let mut out = Vec::new();
    for (ps, pe) in parts(claim) {
        let part = &claim[ps..pe];
        let lower_part = part.to_lowercase();
        for said in doers(part) {
            // Only a doer the source names too: one it never names is a paraphrase.
            if !source_lower.contains(&said) {
                continue;
            }
            // What the part says the doer does: its words, the doer aside.
            let does = super::pairing::marks(&lower_part.replace(&said, " "));
            if does.len() < 2 {
                continue;
            }
            // Three words at least: a doer is judged only where the part is surely the
            // same statement.
            let Some((source, (xs, xe))) = [clause, passage]
                .into_iter()
                .find_map(|text| Some((text, part_saying_at_least(&does, text, 3)?)))
            else {
                continue;
            };
            // The source's doers: in that part, or in the statement it belongs to (the
            // subject a later part leaves out: "用人单位应当…出具…，并在十五日内…办理").
            let mut stated = doers(&source[xs..xe]);
            if stated.is_empty() {
                stated = statement_parts(source, xs)
                    .into_iter()
                    .rev()
                    .map(|(s, e)| doers(&source[s..e]))
                    .find(|d| !d.is_empty())
                    .unwrap_or_default();
            }
            if !stated.is_empty() && !stated.iter().any(|d| same_doer(&said, d)) {
                out.push((said, stated.join(" / "), source[xs..xe].trim().to_owned()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_doer_is_read_from_the_grammar_that_marks_it() {
        assert_eq!(
            doers("由社会保险经办机构核定其应当缴纳的社会保险费"),
            ["社会保险经办机构"]
        );
        assert_eq!(doers("用人单位应当自用工之日起三十日内"), ["用人单位"]);
        assert!(doers("由于工作需要").is_empty(), "由于 is because");
        assert!(doers("提出仲裁要求的一方").is_empty(), "要求 is no duty");
        assert_eq!(
            doers("your manager will reach out within two days"),
            ["manager"]
        );
        assert_eq!(
            doers("it is the responsibility of the risk owner to raise this"),
            ["risk owner"]
        );
        assert_eq!(doers("invoices are approved by Finance"), ["finance"]);
        assert_eq!(
            doers("must be reviewed by at least one other Sourcegraph employee before"),
            ["sourcegraph employee"]
        );
        assert!(same_doer("经办机构", "社会保险经办机构"));
        assert!(!same_doer(
            "县级以上人民政府安全生产监督管理部门",
            "县级以上人民政府人力资源社会保障行政部门"
        ));
        assert!(same_doer("tech ops manager", "manager"));
        assert!(!same_doer("compliance manager", "risk owner"));
    }
}
