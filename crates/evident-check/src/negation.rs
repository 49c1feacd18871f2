//! Negation: what a sentence denies, and whether a claim reverses its source.
//!
//! Counting negations flags faithful paraphrases: "Not following this policy" for
//! "Failure to follow this policy", "no matter how long" for "regardless of", "不休" said
//! once for a source that says it twice. So each negation is read with what it denies
//! (its target: the word after it, 无需**审批**, not **required**), and a claim reverses
//! its source only when one of them denies what the other states plainly: 无需审批 against
//! 须经审批, "you can work extra hours first" against "need approval before". A denial
//! whose target the other text does not mention at all is a rewording, judged by the key
//! words, not a reversal.

use super::claims::NUMBER_WORDS_EN;
use evident_text::normalize::is_cjk;
use evident_text::segment::term_form;

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
    // 除非 opens an exception ("除非章程另有规定" for "章程另有规定的除外"), denying nothing.
    "除非",
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
    "not", "no", "never", "none", "cannot", "without", "neither", "nor", "n't",
];

/// English words that deny by themselves, with what they deny: "unpaid" denies "paid";
/// an empty list means the next word ("failure to follow" denies "follow").
const LEXICAL_NEGATIONS_EN: &[(&str, &[&str])] = &[
    ("unpaid", &["paid"]),
    ("unused", &["used"]),
    ("optional", &["required", "mandatory", "enforced"]),
    ("prohibited", &["allowed", "permitted"]),
    ("forbidden", &["allowed", "permitted"]),
    ("waived", &["required", "charged"]),
    ("exempt", &[]),
    ("failure", &[]),
    ("fail", &[]),
    ("fails", &[]),
    ("failing", &[]),
];

/// Phrases with a negation word that deny nothing ("no matter how long", "whether or
/// not", "not only").
const IDIOMS_EN: &[&str] = &[
    "no matter",
    "whether or not",
    "not only",
    "not just",
    "no later than",
    "no sooner",
];

/// Words between a negation and what it denies ("not be required", "no need to").
const SKIP_EN: &[&str] = &[
    "be", "been", "being", "to", "a", "an", "the", "need", "needs", "have", "has", "had", "is",
    "are", "was", "were", "will", "would", "do", "does", "did", "any", "ever", "always", "yet",
    "also", "even", "from", "of", "for", "you", "we", "they", "it", "your", "our", "their",
];

/// Characters between a Chinese negation and what it denies (不需要支付, 不予受理, 无须再).
const SKIP_ZH: &str = "需要用必应得能可以会该当予须再在";
/// Quantifiers between a Chinese negation and what it denies.
const QUANTIFIERS_ZH: &[&str] = &["任何", "一切", "所有", "全部", "一律"];

/// Chinese words that deny without a negation character: 免于审批 is 无需审批.
const LEXICAL_NEGATIONS_ZH: &[&str] = &["免于", "免除", "豁免", "免予"];

/// Bounds written with a negation (不超过 is "at most", not a denial) and fixed
/// phrases that deny nothing; masked before negations are counted, since
/// [`evident_text::quantity`] reads them as bounds.
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

/// One negation and what it denies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Denial {
    /// What is denied, in comparable form (two Chinese characters, or an English word
    /// stemmed): the word after the negation and each word coordinated with it
    /// (不得延长…或者安排: 延长 and 安排); for a lexical negation, its positive forms
    /// ("optional" denies required or mandatory).
    pub targets: Vec<String>,
    /// Everything the negation reaches (to the end of its clause, or the next few
    /// English words): "No access should be granted" denies "granted" too.
    pub scope: Vec<String>,
}

/// Which side denies what the other states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reversal {
    /// The claim denies what the source states.
    ClaimDenies,
    /// The source denies what the claim states.
    SourceDenies,
}

/// A text read for negations: its denials, and what it states plainly (the text with
/// every denied word masked).
struct Read {
    denials: Vec<Denial>,
    /// The Chinese form, denied words masked.
    plain_zh: String,
    /// English words in index form, those in a negation's scope left out.
    plain_en: Vec<String>,
}

/// Where a Chinese negation's reach ends.
const CLAUSE_END_ZH: &str = "，。；：,;:！？!?（）()\n";
/// How far a Chinese negation reaches, in characters: its verb and object (不能安排补休,
/// not the consequence after it: 未休年休假会影响 denies 休, not 影响).
const SCOPE_ZH: usize = 6;
/// Characters that begin a new predicate after the denied words (未休年休假**会**影响).
const PREDICATE_ZH: &str = "会将就则才也都应须必可";
/// How far a word coordinated with the denied one may stand (不得延长劳动时间或者安排).
const CLAUSE_ZH: usize = 16;
/// Words that join a second thing denied to the first.
const COORDINATORS_ZH: &[&str] = &["或者", "或", "和", "及", "、"];
/// How many English words after a negation it reaches.
const SCOPE_EN: usize = 4;

/// The first two Chinese characters of `chars` after the words that stand between a
/// negation and what it denies.
fn target_zh(chars: &[char]) -> String {
    let skip = skip_zh(chars);
    chars[skip..]
        .iter()
        .take_while(|c| is_cjk(**c))
        .take(2)
        .collect()
}

/// How many characters stand between a negation and what it denies: modal characters
/// (需要, 可以) and quantifiers (无需**任何**审批).
fn skip_zh(chars: &[char]) -> usize {
    let mut at = 0;
    loop {
        if let Some(w) = QUANTIFIERS_ZH.iter().find(|w| begins(&chars[at..], w)) {
            at += w.chars().count();
        } else if chars.get(at).is_some_and(|c| SKIP_ZH.contains(*c)) {
            at += 1;
        } else {
            return at;
        }
    }
}

/// Whether the word `w` begins `chars`.
fn begins(chars: &[char], w: &str) -> bool {
    let mut c = chars.iter();
    w.chars().all(|x| c.next() == Some(&x))
}

/// The Chinese negation word that begins `chars`, if any (longest spellings first).
fn negation_at(chars: &[char]) -> Option<&'static str> {
    NEGATIONS_ZH
        .iter()
        .chain(LEXICAL_NEGATIONS_ZH)
        .find(|w| begins(chars, w))
        .copied()
}

/// `text` read for negation: what each negation denies, and the words stated plainly
/// (Chinese as characters with the denied ones masked, English as terms).
fn read(text: &str) -> Read {
    let mut form = denial_form(text);
    for w in IDIOMS_EN {
        form = form.replace(w, &"_".repeat(w.len()));
    }
    for w in NOT_NEGATIONS_ZH {
        form = form.replace(w, &"_".repeat(w.chars().count()));
    }
    let mut denials = Vec::new();
    let plain_zh = read_zh(&form, &mut denials);
    let plain_en = read_en(&form, &mut denials);
    Read {
        denials,
        plain_zh,
        plain_en,
    }
}

/// The Chinese negations of `form` (不得, 无须, 未 …) and what each reaches, up to the end
/// of its clause; the form with each denied word masked.
fn read_zh(form: &str, denials: &mut Vec<Denial>) -> String {
    let mut chars: Vec<char> = form.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let Some(w) = negation_at(&chars[i..]) else {
            i += 1;
            continue;
        };
        let at = i + w.chars().count();
        // A negation reaches the words right after it, and what is coordinated with
        // them up to the end of its clause or the next negation (不得延长…或者安排).
        let clause_end = (at..chars.len())
            .find(|&k| CLAUSE_END_ZH.contains(chars[k]) || negation_at(&chars[k..]).is_some())
            .unwrap_or(chars.len())
            .min(at + CLAUSE_ZH);
        let end = clause_end.min(at + SCOPE_ZH);
        // A new predicate (会, 就, 则 …) after the denied word ends the reach.
        let lead = skip_zh(&chars[at..end]);
        let end = (at + lead + 1..end)
            .find(|&k| PREDICATE_ZH.contains(chars[k]))
            .unwrap_or(end);
        let first = target_zh(&chars[at..end]);
        // What is masked (no longer stated plainly) is the denied word itself.
        let denied_end = at + lead + first.chars().count();
        let mut targets = vec![first];
        let mut scope = vec![chars[at..end].iter().collect::<String>()];
        let mut k = end;
        while k < clause_end {
            let coordinated = COORDINATORS_ZH
                .iter()
                .find(|c| begins(&chars[k..clause_end], c))
                .map(|c| c.chars().count());
            let Some(len) = coordinated else {
                k += 1;
                continue;
            };
            let target = target_zh(&chars[k + len..clause_end]);
            let skip = skip_zh(&chars[k + len..]);
            let t_end = k + len + skip + target.chars().count();
            for c in &mut chars[k + len..t_end] {
                *c = '_';
            }
            scope.push(target.clone());
            targets.push(target);
            k = t_end.max(k + 1);
        }
        targets.retain(|t| !t.is_empty());
        if !targets.is_empty() {
            denials.push(Denial { targets, scope });
        }
        for c in &mut chars[i..denied_end] {
            *c = '_';
        }
        i = denied_end.max(i + 1);
    }
    chars.into_iter().collect()
}

/// The English negations of `form` (not, no, never, n't, and words such as "forbid")
/// and what each reaches; the terms not denied.
fn read_en(form: &str, denials: &mut Vec<Denial>) -> Vec<String> {
    let words: Vec<&str> = form
        .split(|c: char| !c.is_ascii_alphabetic() && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    let mut denied = vec![false; words.len()];
    let content = |k: usize| !SKIP_EN.contains(&words[k].trim_end_matches('\''));
    for (j, word) in words.iter().enumerate() {
        let lexical = LEXICAL_NEGATIONS_EN.iter().find(|(w, _)| w == word);
        let is_negation = NEGATIONS_EN.contains(word) || word.ends_with("n't");
        if !is_negation && lexical.is_none() {
            continue;
        }
        // "will not approve more than one": a bound, not a denial.
        let bounds = (j + 1..words.len().min(j + 6)).any(|k| {
            matches!(words[k], "more" | "less" | "fewer" | "longer")
                && words.get(k + 1) == Some(&"than")
        });
        if bounds {
            continue;
        }
        denied[j] = true;
        let reach: Vec<usize> = (j + 1..words.len())
            .filter(|&k| content(k))
            .take(SCOPE_EN)
            .collect();

        let targets: Vec<String> = match lexical {
            Some((_, positives)) if !positives.is_empty() => {
                positives.iter().filter_map(|p| term_form(p)).collect()
            }
            _ => reach
                .first()
                .and_then(|&k| term_form(words[k]))
                .into_iter()
                .collect(),
        };
        // A lexical negation denies its own meaning, not the words after it.
        let reach = if lexical.is_some_and(|(_, p)| !p.is_empty()) {
            Vec::new()
        } else {
            reach
        };
        // The words passed over count as reached: "don't need X approval" and "approval
        // is not needed" both deny needing.
        let passed: Vec<usize> = (j + 1..reach.first().copied().unwrap_or(j + 1)).collect();
        for &k in passed.iter().chain(&reach) {
            denied[k] = true;
        }
        if !targets.is_empty() {
            denials.push(Denial {
                targets,
                scope: passed
                    .iter()
                    .chain(&reach)
                    .filter_map(|&k| term_form(words[k]))
                    .collect(),
            });
        }
    }
    words
        .iter()
        .zip(&denied)
        .filter(|(_, d)| !**d)
        .filter_map(|(w, _)| term_form(w))
        .collect()
}

/// What each negation in `text` denies (bounds such as 不超过 and idioms such as "no
/// matter" are not denials).
pub fn denials(text: &str) -> Vec<Denial> {
    read(text).denials
}

/// Whether `other` denies what `d` denies: one of `d`'s targets is within the reach of
/// one of `other`'s negations (休 within 不休年休假, 付 within 无需向劳动者支付, "granted"
/// within "No access should be granted").
fn shared(d: &Denial, other: &Denial) -> bool {
    d.targets.iter().any(|t| {
        other.targets.iter().chain(&other.scope).any(|o| {
            if let Some(head) = t.chars().next().filter(|c| is_cjk(*c)) {
                // Two characters may run past the denied word (不用付经济补偿 gives 付经):
                // its first character within the other's reach is enough.
                o.contains(head) || t.starts_with(o.as_str())
            } else {
                o == t
            }
        })
    })
}

impl Read {
    /// Whether this text states `target` plainly (outside every negation's reach).
    fn states(&self, target: &str) -> bool {
        if target.chars().any(is_cjk) {
            self.plain_zh.contains(target)
        } else {
            self.plain_en.iter().any(|w| w == target)
        }
    }

    /// A denial of `self` that `other` does not share but states plainly.
    fn denies_what(&self, other: &Read) -> bool {
        self.denials.iter().any(|d| {
            !other.denials.iter().any(|o| shared(d, o) || shared(o, d))
                && d.targets.iter().any(|t| other.states(t))
        })
    }
}

/// Whether `claim` reverses `source`: one denies what the other states.
pub fn reversal(claim: &str, source: &str) -> Option<Reversal> {
    let (c, s) = (read(claim), read(source));
    if c.denies_what(&s) {
        Some(Reversal::ClaimDenies)
    } else if s.denies_what(&c) {
        Some(Reversal::SourceDenies)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reverses(claim: &str, source: &str) -> bool {
        reversal(claim, source).is_some()
    }

    #[test]
    fn denials_name_what_they_deny() {
        let t =
            |s: &str| -> Vec<Vec<String>> { denials(s).into_iter().map(|d| d.targets).collect() };
        assert_eq!(t("员工不得兼职"), [["兼职"]]);
        assert_eq!(t("不需要支付"), [["支付"]]);
        assert_eq!(t("员工可以兼职"), Vec::<Vec<String>>::new());
        assert!(t("不同部门的规定").is_empty(), "不同 is not a negation");
        assert!(t("试用期不得超过六个月").is_empty(), "a bound is no denial");
        assert_eq!(
            t("You don’t need approval"),
            [["approv"]],
            "curly apostrophe"
        );
        assert_eq!(
            t("Attendance is optional"),
            [["requir", "mandatori", "enforc"]]
        );
        assert!(t("no matter how long you have worked").is_empty());
        assert!(t("decide whether or not to recommend").is_empty());
        assert_eq!(t("经批准可免于审批"), [["审批"]], "lexical negation");
        assert_eq!(t("不得延长劳动时间或者安排夜班劳动"), [["延长", "安排"]]);
    }

    #[test]
    fn a_reversal_denies_what_the_other_states() {
        assert_eq!(
            reversal("报销无需审批", "报销须经审批"),
            Some(Reversal::ClaimDenies)
        );
        assert_eq!(
            reversal("报销须经审批", "报销无需审批"),
            Some(Reversal::SourceDenies)
        );
        assert!(reverses("未休年休假会影响工资", "未休年休假不影响工资"));
        assert!(reverses(
            "You are not required to notify GSA",
            "You are required to notify GSA"
        ));
        assert!(reverses("Leave is paid", "Leave is unpaid"));
        assert!(reverses("Attendance is required", "Attendance is optional"));
        assert!(reverses(
            "We enforce two-factor sign-in for every account.",
            "Two-factor sign-in is optional for accounts."
        ));
        assert!(reverses(
            "应尽量少安排夜班劳动",
            "不得延长劳动时间或者安排夜班劳动"
        ));
        assert!(reverses(
            "试用期员工不在适用范围内",
            "本制度适用于试用期员工"
        ));
    }

    #[test]
    fn rewordings_are_no_reversal() {
        assert!(!reverses(
            "Not following this policy may lead to disciplinary action",
            "Failure to follow this policy can result in disciplinary action"
        ));
        assert!(!reverses(
            "Every employee earns 4 hours, regardless of years of service",
            "All employees, no matter how long they have worked, accrue four hours"
        ));
        assert!(!reverses(
            "职工因个人原因书面提出不休，单位可以只支付工资",
            "职工因本人原因且书面提出不休年休假的，用人单位可以只支付其工资收入"
        ));
        assert!(!reverses("逾期又不改正的，处罚款", "逾期不改正的，处罚款"));
        assert!(!reverses(
            "For 80 hours or less of leave without pay, you need written approval",
            "To request 80 hours or less of LWOP, you must get written approval"
        ));
        assert!(!reverses(
            "Access shouldn't be granted before the start date",
            "No access should be granted earlier than the start date"
        ));
        assert!(!reverses(
            "又不能补休的，支付两倍工资",
            "又不能安排补休的，支付二倍工资"
        ));
        assert!(!reverses(
            "员工仍不签合同的，不用付经济补偿",
            "劳动者不与用人单位订立书面劳动合同的，无需向劳动者支付经济补偿"
        ));
        assert!(!reverses(
            "you don't need IDP or SF-182 approval",
            "an IDP and SF-182 approval is not needed"
        ));
        assert!(!reverses(
            "only one change will be approved in any 12-month period",
            "we will not approve more than one change within a 12-month period"
        ));
        assert!(!reverses(
            "A team member decides whether to recommend your request",
            "The team member will determine whether or not to recommend your request"
        ));
    }
}
