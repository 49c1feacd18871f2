//! Pairing: a number of the claim must stand with the words it stands with in the
//! source.
//!
//! Rules are often written as parallel parts, each with its own value: "召开股东会会议
//! …二十日前通知各股东；临时股东会会议应当于会议召开十五日前通知", "对虚报注册资本的公司，
//! 处以…百分之五以上…；对提交虚假材料…的公司，处以五万元以上…". A summary that keeps
//! every word and every number can still pair one part's words with the other part's
//! number, and finding both somewhere in the passage proves nothing.
//!
//! So each number of the claim is read with its own words (the part of the claim it
//! stands in, with the condition before it), and each place the source states that
//! value with the words around it there. Against every other part of the passage that
//! states a value, the words that tell the two parts apart decide: when the claim's
//! words around the number carry the other part's marks and none of its own, the number
//! was paired with the wrong part. That is hard evidence when the other part states a
//! value of the same kind (a tier: its own 十五日 against the claim's 二十日); otherwise
//! it is a doubt the reader should look at.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::claims::{Claim, token_set};
use super::modality::{self, Modality};
use super::negation;
use evident_index::search::stopwords::is_stop_word;
use evident_text::quantity::Quantity;

/// A number the claim pairs with another part of the source.
#[derive(Debug, Clone, PartialEq)]
pub struct Mispairing {
    /// The claim's number, as written.
    pub value: String,
    /// The part of the source the claim's words describe, as written.
    pub other_part: String,
    /// The value that part states (of the same kind as the claim's).
    pub other_value: String,
    /// The part that states the claim's number, as written.
    pub own_part: String,
}

/// Separators that end a part of a sentence: a comma-level break.
const PART_BREAKS: &[char] = &[
    '，', ',', '；', ';', '。', '：', ':', '\n', '！', '？', '、',
];
/// Separators that end a whole statement: what a part's lead-in may not cross.
const STATEMENT_BREAKS: &[char] = &['；', ';', '。', '\n', '！', '？'];

/// The byte ranges of `text`'s comma-level parts.
pub(super) fn parts(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        let english_stop = c == '.'
            && text[i + 1..].starts_with(' ')
            && !text[..i].ends_with(|p: char| p.is_ascii_digit());
        // A list's items are parts too: "代表十分之一以上表决权的股东、三分之一以上董事或者
        // 监事会" pairs each share with its own holder.
        let alternative = text[i..].starts_with("或者") && i > start;
        if alternative {
            out.push((start, i));
            start = i;
            continue;
        }
        if PART_BREAKS.contains(&c) && !is_thousands(text, i, c) || english_stop {
            let end = i + c.len_utf8();
            if !text[start..i].trim().is_empty() {
                out.push((start, end));
            }
            start = end;
        }
    }
    if !text[start..].trim().is_empty() {
        out.push((start, text.len()));
    }
    out
}

fn is_thousands(text: &str, at: usize, c: char) -> bool {
    c == ',' && evident_text::numbers::is_thousands_comma(text, at)
}

/// Whether the part `(s, e)` of `text` ends a statement.
fn ends_statement(text: &str, e: usize) -> bool {
    text[..e]
        .chars()
        .next_back()
        .is_some_and(|c| STATEMENT_BREAKS.contains(&c) || c == '.')
}

/// The parts of the statement that holds byte `at`, from its first part to the one
/// that holds `at`.
pub(super) fn statement_parts(text: &str, at: usize) -> Vec<(usize, usize)> {
    let ps = parts(text);
    let Some(i) = ps.iter().position(|&(s, e)| at >= s && at < e) else {
        return Vec::new();
    };
    let mut first = i;
    while first > 0 && !ends_statement(text, ps[first - 1].1) {
        first -= 1;
    }
    ps[first..=i].to_vec()
}

/// The words around the value at byte `at`: its part, and the parts before it in the
/// same statement until one that holds another value (the condition that leads to it:
/// "对虚报注册资本的公司，处以…").
fn words_around(text: &str, at: usize, values: &[(usize, usize)]) -> (usize, usize) {
    let ps = parts(text);
    let Some(i) = ps.iter().position(|&(s, e)| at >= s && at < e) else {
        return (at, at);
    };
    let mut first = i;
    while first > 0 {
        let (s, e) = ps[first - 1];
        if ends_statement(text, e) || values.iter().any(|&(vs, _)| vs >= s && vs < e) {
            break;
        }
        first -= 1;
    }
    (ps[first].0, ps[i].1)
}

/// `text` with the byte ranges `spans` (whole characters) turned into spaces.
fn blank(text: &str, spans: &[(usize, usize)]) -> String {
    let mut out = text.to_owned();
    for &(s, e) in spans {
        if out.is_char_boundary(s) && out.is_char_boundary(e) && s <= e {
            out.replace_range(s..e, &" ".repeat(e - s));
        }
    }
    out
}

/// The words of a span that can tell parts apart: content words, not stop words.
///
/// Remembered per text (a passage's parts are read again for every part of every
/// sentence compared with it), in a small cache per thread.
pub(super) fn marks(text: &str) -> HashSet<String> {
    thread_local! {
        static SEEN: RefCell<HashMap<String, HashSet<String>>> = RefCell::new(HashMap::new());
    }
    if let Some(found) = SEEN.with(|seen| seen.borrow().get(text).cloned()) {
        return found;
    }
    let found = read_marks(text);
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        if seen.len() >= 4096 {
            seen.clear();
        }
        seen.insert(text.to_owned(), found.clone());
    });
    found
}

fn read_marks(text: &str) -> HashSet<String> {
    token_set(text)
        .into_iter()
        .filter(|t| {
            !is_stop_word(t)
                && !t.chars().any(|c| c.is_ascii_digit())
                && if t.is_ascii() {
                    t.len() >= 3
                } else {
                    t.chars().count() >= 2
                }
        })
        .collect()
}

/// The numbers of `claim` that it pairs with another part of `source` than the one
/// that states them. `source_q` are the source's quantities (offsets in `source`).
pub fn mispairings(claim: &Claim, source: &str, source_q: &[Quantity]) -> Vec<Mispairing> {
    let claim_values: Vec<(usize, usize)> =
        claim.quantities.iter().map(|q| (q.start, q.end)).collect();
    let source_values: Vec<(usize, usize)> = source_q.iter().map(|q| (q.start, q.end)).collect();
    // Words only: the values themselves are what differs between parts.
    let claim_text = blank(&claim.text, &claim_values);
    let source_text = blank(source, &source_values);
    let mut out = Vec::new();
    for q in &claim.quantities {
        let (cs, ce) = words_around(&claim.text, q.start, &claim_values);
        let said = marks(&claim_text[cs..ce]);
        // Where the source states this value, each with its words.
        let own: Vec<(usize, usize)> = source_q
            .iter()
            .filter(|s| s.same_value(q) && !q.direction.opposes(s.direction))
            .map(|s| words_around(source, s.start, &source_values))
            .collect();
        if own.is_empty() {
            continue;
        }
        // The claim's words must fit one of them at least as well as any other part.
        let mut best: Option<Mispairing> = None;
        let fits_own = own.iter().any(|&(os, oe)| {
            let own_words = marks(&source_text[os..oe]);
            let mut mispaired = None;
            // Only parts that state a value of the same kind: a tier of its own.
            // (Parts with other values told apart by words alone were tried: they cost
            // more faithful sentences than they caught mistakes.)
            for other in source_q
                .iter()
                .filter(|s| s.dimension == q.dimension && !s.same_value(q))
            {
                let (xs, xe) = words_around(source, other.start, &source_values);
                if (xs, xe) == (os, oe) || xs < oe && os < xe {
                    continue;
                }
                let their_words = marks(&source_text[xs..xe]);
                let theirs: Vec<&String> = their_words.difference(&own_words).collect();
                let mine: Vec<&String> = own_words.difference(&their_words).collect();
                // The claim's words around the number name the other part, and nothing
                // that only this part says.
                let says_theirs = theirs.iter().any(|t| said.contains(*t));
                let says_mine = mine.iter().any(|t| said.contains(*t));
                // A part told apart only by its number ("已满10年不满20年的") takes its
                // words from the rule's lead: the claim's words are that lead's.
                if says_theirs && !says_mine && !mine.is_empty() {
                    mispaired = Some(Mispairing {
                        value: claim.text[q.start..q.end].trim().to_owned(),
                        other_part: source[xs..xe].trim().to_owned(),
                        other_value: source[other.start..other.end].trim().to_owned(),
                        own_part: source[os..oe].trim().to_owned(),
                    });
                    break;
                }
            }
            match mispaired {
                Some(m) => {
                    best.get_or_insert(m);
                    false
                }
                None => true,
            }
        });
        if !fits_own && let Some(m) = best {
            out.push(m);
        }
    }
    out
}

/// Who acts, beyond [`roles`]' approvers: the bodies and officers a rule gives a duty
/// to (董事会 通知, the risk owner ensures). Compared only as pairs with what they do.
const ACTORS_ZH: &[&str] = &[
    "股东会",
    "股东大会",
    "董事会",
    "监事会",
    "董事长",
    "人民法院",
    "财政部门",
    "有关部门",
    "会计机构",
    "会计人员",
    "单位负责人",
    "经办机构",
    "税务机关",
    "仲裁委员会",
    "用人单位",
    "劳动者",
];
const ACTORS_EN: &[&str] = &[
    "compliance manager",
    "risk owner",
    "asset owner",
    "data owner",
    "security team",
    "board of directors",
    "administrator",
    "congress",
    "manager",
    "supervisor",
    "employee",
    "employer",
];

/// The actors `text` names, with their byte ranges, longest names first.
fn actors(text: &str) -> Vec<(usize, usize, &'static str)> {
    let lower = text.to_ascii_lowercase();
    let mut out: Vec<(usize, usize, &'static str)> = Vec::new();
    for name in ACTORS_ZH.iter().chain(ACTORS_EN) {
        for (at, _) in lower.match_indices(name) {
            let end = at + name.len();
            if name.is_ascii()
                && (lower[..at].ends_with(|c: char| c.is_ascii_alphanumeric())
                    || lower[end..].starts_with(|c: char| c.is_ascii_alphanumeric() && c != 's'))
            {
                continue;
            }
            if !out.iter().any(|&(s, e, _)| at < e && s < end) {
                out.push((at, end, name));
            }
        }
    }
    out.sort_by_key(|a| a.0);
    out
}

/// An actor the claim gives a duty that the source gives another: `(claim's actor,
/// source's actor, the source's part)`.
pub fn actor_swaps(claim: &str, source: &str) -> Vec<(String, String, String)> {
    let claimed = actors(claim);
    let stated = actors(source);
    let mut out = Vec::new();
    for &(s, e, name) in &claimed {
        // Only an actor the source names too (elsewhere): one it never names is a
        // paraphrase the word lists cannot judge.
        if !stated.iter().any(|a| a.2 == name) {
            continue;
        }
        // What the claim says this actor does: its part's words, the actor aside.
        let Some(&(ps, pe)) = parts(claim).iter().find(|&&(ps, pe)| s >= ps && e <= pe) else {
            continue;
        };
        let mut part = claim[ps..pe].to_owned();
        for &(os, oe, _) in claimed.iter().filter(|a| a.0 >= ps && a.1 <= pe) {
            part.replace_range(os - ps..oe - ps, &" ".repeat(oe - os));
        }
        let does = marks(&part);
        if does.len() < 2 {
            continue;
        }
        let Some((xs, xe)) = part_saying(&does, source) else {
            continue;
        };
        let here: Vec<&(usize, usize, &str)> =
            stated.iter().filter(|a| a.0 >= xs && a.1 <= xe).collect();
        if here.is_empty() || here.iter().any(|a| a.2 == name) {
            continue;
        }
        // The part may name its actor in the lead of its statement ("董事会应当…，并将…").
        out.push((
            claim[s..e].to_owned(),
            here.iter()
                .map(|a| source[a.0..a.1].to_owned())
                .collect::<Vec<_>>()
                .join(" / "),
            source[xs..xe].trim().to_owned(),
        ));
    }
    out
}

/// The part of `source` that says most of `does` (content words), when it says at
/// least two of them and half.
pub(super) fn part_saying(does: &HashSet<String>, source: &str) -> Option<(usize, usize)> {
    part_saying_at_least(does, source, 2)
}

/// [`part_saying`], with at least `least` words shared.
pub(super) fn part_saying_at_least(
    does: &HashSet<String>,
    source: &str,
    least: usize,
) -> Option<(usize, usize)> {
    let (shared, xs, xe) = parts_with_marks(source)
        .iter()
        .map(|((xs, xe), words)| (does.intersection(words).count(), *xs, *xe))
        .max_by_key(|&(n, xs, _)| (n, std::cmp::Reverse(xs)))?;
    (shared * 2 >= does.len() && shared >= least).then_some((xs, xe))
}

/// A text's parts (byte ranges), each with its [`marks`].
type MarkedParts = Rc<Vec<((usize, usize), HashSet<String>)>>;

/// The parts of `text` with their [`marks`], remembered per text like the marks.
fn parts_with_marks(text: &str) -> MarkedParts {
    type Seen = HashMap<String, MarkedParts>;
    thread_local! {
        static SEEN: RefCell<Seen> = RefCell::new(HashMap::new());
    }
    if let Some(found) = SEEN.with(|seen| seen.borrow().get(text).cloned()) {
        return found;
    }
    let found: MarkedParts = Rc::new(
        parts(text)
            .into_iter()
            .map(|(s, e)| ((s, e), marks(&text[s..e])))
            .collect(),
    );
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        if seen.len() >= 1024 {
            seen.clear();
        }
        seen.insert(text.to_owned(), Rc::clone(&found));
    });
    found
}

/// Ordinal words, by position: "the second of the changes", 第二项.
const ORDINALS_EN: &[&str] = &["first", "second", "third", "fourth", "fifth", "sixth"];
const ORDINALS_ZH: &[&str] = &["第一", "第二", "第三", "第四", "第五", "第六"];
/// What a Chinese ordinal must count to be a list's position (not 第二条, 第一次).
const ORDINAL_NOUNS_ZH: &[char] = &['项', '种', '类', '步', '点'];
/// How list items are numbered: (1) （1） (一) （一）, by position.
const ITEM_MARKS: &[[&str; 4]] = &[
    ["(1)", "（1）", "(一)", "（一）"],
    ["(2)", "（2）", "(二)", "（二）"],
    ["(3)", "（3）", "(三)", "（三）"],
    ["(4)", "（4）", "(四)", "（四）"],
    ["(5)", "（5）", "(五)", "（五）"],
    ["(6)", "（6）", "(六)", "（六）"],
];

/// A position in a numbered list the claim gives to another item: `(the claim's
/// ordinal, the item at that position, the item the claim's words describe, its mark)`.
/// "The second of the four changes is changing the routing…" for a source whose (2)
/// installs software and whose (4) changes the routing.
pub fn ordinal_swaps(claim: &str, source: &str) -> Option<(String, String, String, String)> {
    let lower = claim.to_lowercase();
    let (position, word) = ORDINALS_EN
        .iter()
        .enumerate()
        .find(|(_, w)| {
            lower.match_indices(**w).any(|(at, _)| {
                !lower[..at].ends_with(|c: char| c.is_ascii_alphabetic())
                    && !lower[at + w.len()..].starts_with(|c: char| c.is_ascii_alphabetic())
            })
        })
        .or_else(|| {
            ORDINALS_ZH.iter().enumerate().find(|(_, w)| {
                claim
                    .match_indices(**w)
                    .any(|(at, _)| claim[at + w.len()..].starts_with(ORDINAL_NOUNS_ZH))
            })
        })?;
    // The source's items, each from its mark to the next (or the statement's end).
    // Each item: its position, where it starts and ends, and its mark as written.
    let mut items: Vec<(usize, usize, usize, &str)> = ITEM_MARKS
        .iter()
        .enumerate()
        .filter_map(|(i, marks)| {
            let (at, mark) = marks
                .iter()
                .filter_map(|m| Some((source.find(m)?, *m)))
                .min()?;
            Some((i, at, source.len(), mark))
        })
        .collect();
    if items.len() < 2 {
        return None;
    }
    items.sort_by_key(|it| it.1);
    for k in 0..items.len() - 1 {
        items[k].2 = items[k + 1].1;
    }
    if let Some(last) = items.last_mut()
        && let Some(end) = source[last.1..].find(['。', '；', '\n'])
    {
        last.2 = last.1 + end;
    }
    let said = marks(&lower.replace(word, " "));
    let mut scored: Vec<_> = items
        .iter()
        .map(|it| (said.intersection(&marks(&source[it.1..it.2])).count(), it))
        .collect();
    scored.sort_by_key(|x| std::cmp::Reverse(x.0));
    let (best, &(i, s, e, mark)) = scored[0];
    // The claim's words must point at one item clearly, and the claim's position must
    // be another item the list has.
    if best < 2 || scored[1].0 * 2 > best || i == position {
        return None;
    }
    let &(_, ps, pe, _) = items.iter().find(|it| it.0 == position)?;
    let written = lower
        .find(word)
        .and_then(|at| claim.get(at..at + word.len()))
        .unwrap_or(word);
    let item = |s: usize, e: usize| {
        source[s..e]
            .trim()
            .trim_end_matches([',', '，', ';', '；'])
            .to_owned()
    };
    Some((
        written.to_owned(),
        item(ps, pe),
        item(s, e),
        mark.to_owned(),
    ))
}

/// How one part of the claim turns its rule, beside the part of the source that says
/// the same thing.
#[derive(Debug, Clone, PartialEq)]
pub struct PartTurn {
    /// The claim's part, as written.
    pub claim_part: String,
    /// The source's part that says most of it, as written.
    pub source_part: String,
    /// The modality the claim's part states, when it states one.
    pub claim_modality: Option<Modality>,
    /// The modality the source's part states, when it states one.
    pub source_modality: Option<Modality>,
}

/// The parts of `claim` that oblige, permit or deny, each beside the part of `source`
/// that says the same thing. A passage often turns one rule two ways ("公司可以…提供财务
/// 资助，但…累计总额不得超过…"): the whole clause holds both 可以 and 不得, so only the
/// part that says what the claim's part says can confirm or contradict its turn.
pub fn part_turns(claim: &str, source: &str) -> Vec<PartTurn> {
    let single = |t: &str| match modality::modalities(t).as_slice() {
        [m] => Some(*m),
        _ => None,
    };
    let mut out = Vec::new();
    for (ps, pe) in parts(claim) {
        let part = &claim[ps..pe];
        let claim_modality = single(part);
        if claim_modality.is_none() && negation::denials(part).is_empty() {
            continue;
        }
        let does = marks(part);
        let Some((xs, xe)) = part_saying(&does, source) else {
            continue;
        };
        let source_part = &source[xs..xe];
        out.push(PartTurn {
            claim_part: part.trim().to_owned(),
            source_part: source_part.trim().to_owned(),
            claim_modality,
            source_modality: single(source_part),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use evident_text::quantity::quantities;

    fn check(claim: &str, source: &str) -> Vec<Mispairing> {
        mispairings(&Claim::of(claim), source, &quantities(source))
    }

    #[test]
    fn an_actor_given_another_actors_duty_is_swapped() {
        let source = "董事会应当在收到提案后二日内通知其他成员，并将该提案提交成员大会审议。";
        let swaps = actor_swaps("收到提案后，由股东会在二日内通知其他成员。", source);
        assert!(
            swaps.is_empty(),
            "股东会 is not named by the source: {swaps:?}"
        );
        let source = "董事会应当在收到提案后二日内通知其他股东，并将该提案提交股东会审议。";
        let swaps = actor_swaps("收到提案后，由股东会在二日内通知其他股东。", source);
        assert_eq!(swaps.len(), 1, "{swaps:?}");
        assert_eq!(
            (swaps[0].0.as_str(), swaps[0].1.as_str()),
            ("股东会", "董事会")
        );
        assert!(actor_swaps("董事会收到提案后二日内通知其他股东。", source).is_empty());
        let source = "It is the responsibility of the risk owner to ensure the treatment \
                      of the risk within the schedule agreed. It is the responsibility of \
                      the Compliance Manager to update the risk register.";
        let swaps = actor_swaps(
            "The Compliance Manager must ensure the treatment of the risk within the agreed schedule.",
            source,
        );
        assert_eq!(swaps.len(), 1, "{swaps:?}");
        assert!(
            actor_swaps(
                "The risk owner ensures the risk is treated within the schedule agreed.",
                source
            )
            .is_empty()
        );
    }

    #[test]
    fn each_part_turns_beside_the_source_part_that_says_it() {
        // 劳动争议调解仲裁法 第十二条: a permission, then a duty.
        let source = "当事人申请劳动争议调解可以书面申请，也可以口头申请。口头申请的，\
                      调解组织应当当场记录申请人基本情况、申请调解的争议事项、理由和时间。";
        let turns = part_turns(
            "调解组织须当场记录申请人基本情况、争议事项、理由和时间。",
            source,
        );
        assert_eq!(turns.len(), 1, "{turns:?}");
        assert_eq!(turns[0].claim_modality, Some(Modality::Must));
        assert_eq!(turns[0].source_modality, Some(Modality::Must));
        assert!(turns[0].source_part.starts_with("调解组织应当当场记录"));
        let turns = part_turns("调解组织可以当场记录申请人基本情况。", source);
        assert_eq!(
            (turns[0].claim_modality, turns[0].source_modality),
            (Some(Modality::May), Some(Modality::Must))
        );
        // A part without a turn, or that says nothing of the source, is left out.
        assert!(part_turns("调解组织当场记录申请人基本情况。", source).is_empty());
        assert!(part_turns("员工可以申请年休假。", source).is_empty());
    }

    #[test]
    fn a_position_in_a_numbered_list_is_the_items_own() {
        // 劳动争议调解仲裁法 第二条.
        let source = "中华人民共和国境内的用人单位与劳动者发生的下列劳动争议，适用本法：\n\
                      （一）因确认劳动关系发生的争议；\n\
                      （二）因订立、履行、变更、解除和终止劳动合同发生的争议；\n\
                      （三）因除名、辞退和辞职、离职发生的争议；\n";
        let (word, at_position, described, mark) =
            ordinal_swaps("第二项是因除名、辞退和辞职、离职发生的争议。", source)
                .expect("the second item is another");
        assert_eq!(word, "第二");
        assert!(at_position.starts_with("（二）因订立"), "{at_position}");
        assert!(described.starts_with("（三）因除名"), "{described}");
        assert_eq!(mark, "（三）");
        assert_eq!(
            ordinal_swaps("第三项是因除名、辞退和辞职、离职发生的争议。", source),
            None
        );
        assert_eq!(
            ordinal_swaps("第二条规定了因除名、辞退和辞职、离职发生的争议。", source),
            None,
            "an article's number is no position in a list"
        );
    }

    #[test]
    fn parts_break_at_commas_but_not_inside_numbers() {
        let t = "单笔报销超过20,000元的，须经审批；否则不予报销。";
        let p: Vec<&str> = parts(t).into_iter().map(|(s, e)| &t[s..e]).collect();
        assert_eq!(
            p,
            ["单笔报销超过20,000元的，", "须经审批；", "否则不予报销。"]
        );
    }

    #[test]
    fn a_number_with_the_other_parts_words_is_mispaired() {
        // Made-up rules in the shape of a two-tier notice article.
        let source = "召开年度会议，应当将会议的时间和议程于会议召开二十日前通知各成员；\
                      临时会议应当于会议召开十五日前通知各成员。";
        let m = check("临时会议应当于会议召开二十日前通知各成员。", source);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].value, "二十日");
        assert_eq!(m[0].other_value, "十五日");
        assert!(m[0].other_part.starts_with("临时会议"), "{m:?}");
        // Both tiers, each with its own number: nothing mispaired.
        assert!(
            check(
                "年度会议提前二十日通知，临时会议提前十五日通知各成员。",
                source
            )
            .is_empty()
        );
        // The tier stated alone and right.
        assert!(check("临时会议要在召开十五日前通知各成员。", source).is_empty());
        // The two numbers swapped in one sentence.
        let m = check(
            "年度会议提前十五日通知，临时会议提前二十日通知各成员。",
            source,
        );
        assert!(!m.is_empty(), "{m:?}");
    }

    #[test]
    fn list_items_pair_each_share_with_its_own_holder() {
        let source =
            "代表十分之一以上表决权的成员、三分之一以上理事或者监事，可以提议召开临时会议。";
        let m = check(
            "代表三分之一以上表决权的成员或者十分之一以上的理事，可以提议召开临时会议。",
            source,
        );
        assert_eq!(m.len(), 2, "{m:?}");
        assert!(
            check(
                "十分之一以上表决权的成员或者三分之一以上的理事，可以提议召开临时会议。",
                source
            )
            .is_empty()
        );
    }
}
