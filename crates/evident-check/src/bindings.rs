//! Bindings: what a claim states, compared in the clause it aligns to.
//!
//! Once [`super::align`] has found the clause a claim speaks of, every number of the
//! claim must be there with its unit and bound direction, the condition it belongs to
//! must be the clause's condition, the approver the clause's, and modality and
//! negation the clause's. Each mismatch becomes a [`Message`] that names what differs
//! in the source's own words ("5个工作日 applies to 请假3天以上的; for 请假3天以内的 the
//! source says 1个工作日").

use std::collections::HashSet;

use super::align::{Aligned, Evidence};
use super::claims::{Claim, token_set};
use super::clauses::without_spans;
use super::negation::{Reversal, reversal};
use super::{doers, modality, pairing, qualifiers, roles};
use evident_text::quantity::{Dimension, Quantity};
use evident_text::ranges::ranges;
use evident_words::message::Message;

/// Group and case words that limit a rule: a claim that drops one over-generalises.
const SCOPE_WORDS: &[&str] = &[
    "经理及以上",
    "及以上",
    "正式员工",
    "全职",
    "试用期",
    "实习生",
    "女职工",
    "男职工",
    "孕期",
    "哺乳期",
    "外籍",
    "full-time",
    "full time",
    "part-time",
    "part time",
    "probation",
    "contractor",
    "intern",
    "u.s.",
    "us-based",
    "non-exempt",
    "new hire",
];

/// What the comparison found: mismatches that make the claim unsupported, and softer
/// ones (a dropped condition) that make it partial at best.
#[derive(Debug, Default)]
pub struct Findings {
    /// The claim contradicts or is not backed by the clause.
    pub hard: Vec<Message>,
    /// The claim over-generalises the clause.
    pub soft: Vec<Message>,
}

/// Compares `claim` with the clause `aligned` of the passage `n`: its clause numbers,
/// its quantities, the parts of a parallel rule, negation, who does what and how
/// bindingly, and the scope it claims, in that order (later checks run only while the
/// earlier found nothing hard, or their reasons would pile up).
pub fn compare(claim: &Claim, ev: &Evidence, aligned: &Aligned, n: usize) -> Findings {
    let mut f = Findings::default();
    let here = aligned.text_in(ev);
    clause_numbers(claim, ev, n, &mut f);
    quantities(claim, ev, aligned, n, &mut f);
    parallel_parts(claim, ev, aligned, &here, n, &mut f);
    negation(claim, ev, aligned, &here, n, &mut f);
    who_and_how(claim, ev, &here, n, &mut f);
    scope(claim, ev, aligned, &here, n, &mut f);
    f
}

/// The clause numbers the claim cites (第十九条) must be the passage's.
fn clause_numbers(claim: &Claim, ev: &Evidence, n: usize, f: &mut Findings) {
    for v in &claim.references {
        if !ev.numbers.contains(v) {
            f.hard.push(Message::ClauseNumberMissing {
                value: v.clone(),
                n,
            });
        }
    }
}

/// Each quantity of the claim against the clause's: the same value, bound and label,
/// or what the clause says instead.
fn quantities(claim: &Claim, ev: &Evidence, aligned: &Aligned, n: usize, f: &mut Findings) {
    let here_condition = aligned
        .condition_text(ev)
        .or_else(|| claim.condition_text())
        .unwrap_or_default();
    let window_q = aligned.quantities(ev);
    let context_q = aligned.context_quantities(ev);
    let in_source_condition = |s: &Quantity| {
        aligned
            .conditions(ev)
            .any(|&(cs, ce)| s.start >= cs && s.end <= ce)
    };
    // Each number of the clause backs one number of the claim, the claim's conditions
    // first: "3天以上的，提前3个工作日" is not backed twice by the 3天 of 3天以上.
    let mut order: Vec<&Quantity> = claim.quantities.iter().collect();
    order.sort_by_key(|q| !claim.in_condition(q));
    let mut used: Vec<usize> = Vec::new();
    // "二级或二级以上", "1 or more days": one value said twice in a row is one fact.
    let restated = |q: &Quantity| {
        claim.quantities.iter().any(|p| {
            p.start != q.start && p.same_value(q) && {
                let (a, b) = if p.end <= q.start {
                    (p.end, q.start)
                } else {
                    (q.end, p.start)
                };
                claim.text.get(a..b).is_some_and(|between| {
                    let t = between.trim();
                    matches!(t, "或" | "或者" | "or" | "到" | "至" | "-" | "~" | "～")
                        || t.ends_with("或") && t.chars().count() <= 3
                })
            }
        })
    };
    for q in order {
        let written = claim.written(q);
        let in_condition = claim.in_condition(q);
        let reuse = restated(q);
        let matches: Vec<usize> = (0..window_q.len())
            .filter(|&i| (reuse || !used.contains(&i)) && window_q[i].same_value(q))
            .collect();
        if !matches.is_empty() {
            match matches
                .iter()
                .find(|&&i| !q.direction.opposes(window_q[i].direction))
            {
                Some(&i) => {
                    used.push(i);
                    if let Some(m) = label_swap(claim, q, ev, &window_q, i, n) {
                        f.hard.push(m);
                    }
                }
                None => {
                    used.push(matches[0]);
                    f.hard.push(Message::BoundDiffers {
                        n,
                        claim: claim.bound_text(q),
                        source: ev.bound_text(window_q[matches[0]]),
                    });
                }
            }
            continue;
        }
        if context_q.iter().any(|s| s.same_value(q)) {
            continue;
        }
        // What the clause says instead: a quantity of the same kind, outside the
        // clause's conditions when the claim's number is not in its own condition.
        let counterpart = window_q
            .iter()
            .filter(|s| {
                s.dimension == q.dimension
                    || matches!(
                        (&s.dimension, &q.dimension),
                        (Dimension::Count(_), Dimension::Count(_))
                    )
            })
            .filter(|s| {
                q.dimension != Dimension::Bare
                    && q.dimension != Dimension::Date
                    && s.dimension != Dimension::Date
            })
            .filter(|s| !claim.quantities.iter().any(|c| c.same_value(s)))
            .min_by_key(|s| in_source_condition(s) != in_condition)
            .copied();
        let elsewhere = ev.clause_with(q, aligned);
        match (counterpart, elsewhere) {
            (Some(s), _) if in_condition => f.hard.push(Message::ConditionDiffers {
                n,
                claim: claim.condition_text().unwrap_or_else(|| written.clone()),
                source: aligned.condition_text(ev).unwrap_or_else(|| ev.written(s)),
            }),
            (Some(s), Some(other)) => f.hard.push(Message::TierMismatch {
                n,
                value: written,
                applies_to: ev
                    .condition_of(other)
                    .unwrap_or_else(|| ev.clause_text(other)),
                condition: here_condition.clone(),
                source_value: ev.written(s),
            }),
            // Stated elsewhere in the passage, with nothing in the clause it could
            // contradict: the words cannot tell a misplaced number from a summary that
            // joins two clauses, so the reader is asked to look (amber).
            (None, Some(_)) => f.soft.push(Message::NumberMisplaced { value: written, n }),
            // Against a value of the same kind in the clause: a contradiction.
            (Some(_), None) => f.hard.push(Message::NumberMissing { value: written, n }),
            // Nowhere, and nothing of its kind to contradict: a unit the check does not
            // read ("annually" for 12 months) or a made-up number; it cannot tell which.
            (None, None) => f.soft.push(Message::NumberMissing { value: written, n }),
        }
    }
}

/// Numbers and positions of a parallel rule given to another part, and conditions
/// restated wider than the clause's.
fn parallel_parts(
    claim: &Claim,
    ev: &Evidence,
    aligned: &Aligned,
    here: &str,
    n: usize,
    f: &mut Findings,
) {
    // Each number must stand with its own words: a number of one part of a parallel
    // rule paired with the words of another part ([`pairing`]).
    if f.hard.is_empty() {
        for m in pairing::mispairings(claim, &ev.text, &ev.quantities) {
            f.hard.push(Message::TierMismatch {
                n,
                value: m.value,
                applies_to: m.own_part,
                condition: m.other_part,
                source_value: m.other_value,
            });
        }
    }
    // A position in a numbered list given to another item.
    if f.hard.is_empty()
        && let Some((word, at_position, described, mark)) =
            pairing::ordinal_swaps(&claim.text, here)
    {
        f.hard.push(Message::TierMismatch {
            n,
            value: word,
            applies_to: at_position,
            condition: described,
            source_value: mark,
        });
    }
    // A condition restated wider than the source's ("满一年就有5天" for 已满1年不满10年的):
    // the claim's bounded ranges must lie inside the clause's condition ranges.
    if f.hard.is_empty() && aligned.conditions(ev).next().is_some() {
        let claim_ranges = ranges(&claim.text, false);
        for &(s, e) in aligned.conditions(ev) {
            let condition = &ev.text[s..e];
            let source = ranges(condition, false);
            let claimed: Vec<_> = claim_ranges
                .iter()
                .filter(|r| r.is_bounded() && source.iter().any(|x| x.dimension() == r.dimension()))
                .collect();
            if !claimed.is_empty() && !claimed.iter().any(|c| source.iter().any(|x| x.contains(c)))
            {
                f.hard.push(Message::ConditionDiffers {
                    n,
                    claim: claim
                        .condition_text()
                        .unwrap_or_else(|| claim.text.trim().to_owned()),
                    source: condition.trim().to_owned(),
                });
                break;
            }
        }
    }
}

/// One side denies what the other states.
fn negation(
    claim: &Claim,
    ev: &Evidence,
    aligned: &Aligned,
    here: &str,
    n: usize,
    f: &mut Findings,
) {
    // Negation: one side denies what the other states (see [`super::negation`]).
    // The clause's condition counts only when the claim states one too ("If not,
    // please get approval" is not denied by a claim that leaves the "if" out).
    // Likewise the claim's own condition, when the clause states none ("if that isn't
    // a business day, …" for "(or the closest business day prior)").
    let judged_source = if claim.conditions.is_empty() {
        without_conditions(ev, aligned)
    } else {
        here.to_owned()
    };
    let judged_claim = if aligned.conditions(ev).next().is_none() {
        claim.without_conditions()
    } else {
        claim.text.clone()
    };
    match reversal(&judged_claim, &judged_source) {
        Some(Reversal::ClaimDenies) => f.hard.push(Message::NegatesSource { n }),
        Some(Reversal::SourceDenies) => f.hard.push(Message::SourceNegative { n }),
        None => {}
    }
}

/// Who does it and how bindingly: modality (应当, 可以, 不得), roles, doers, qualifiers.
fn who_and_how(claim: &Claim, ev: &Evidence, here: &str, n: usize, f: &mut Findings) {
    let zh = claim.text.chars().any(evident_text::normalize::is_cjk);
    // Each part that obliges, permits or denies, beside the source's part that says
    // the same: the clause may turn one rule two ways (可以…提供, 但…不得超过).
    let turns = pairing::part_turns(&claim.text, &ev.text);
    if let Some((source, said)) = modality::mismatch(&claim.text, here)
        // The claim's part with that turn has a part of the source that shares it
        // (a second sentence: 董事会作出决议应当经…).
        && !turns
            .iter()
            .any(|t| t.claim_modality == Some(said) && t.source_modality == Some(said))
    {
        f.hard.push(Message::ModalityDiffers {
            n,
            source: source.word(zh).to_owned(),
            claim: said.word(zh).to_owned(),
        });
    }
    for (claim_role, source_roles) in roles::mismatches(&claim.text, here) {
        f.hard.push(Message::RoleDiffers {
            n,
            claim: claim_role,
            source: source_roles,
        });
    }
    // An actor given what the source has another do (由股东会通知 for 董事会应当…通知).
    if f.hard.is_empty() {
        for (claim_actor, source_actor, _) in pairing::actor_swaps(&claim.text, &ev.text) {
            f.hard.push(Message::RoleDiffers {
                n,
                claim: claim_actor,
                source: source_actor,
            });
        }
    }
    // Within the aligned clause, a part that turns the same words the other way.
    if f.hard.is_empty()
        && let Some((said, source)) = pairing::part_turns(&claim.text, here).iter().find_map(|t| {
            match (t.claim_modality, t.source_modality) {
                (Some(said), Some(source)) if said != source => Some((said, source)),
                _ => None,
            }
        })
    {
        f.hard.push(Message::ModalityDiffers {
            n,
            source: source.word(zh).to_owned(),
            claim: said.word(zh).to_owned(),
        });
    }
    // Someone else in the doer's slot (由公司负责通知 for 人民法院…应当通知公司).
    if f.hard.is_empty()
        && let Some((said, stated, _)) = doers::doer_swaps(&claim.text, here, &ev.text)
            .into_iter()
            .next()
    {
        f.hard.push(Message::RoleDiffers {
            n,
            claim: said,
            source: stated,
        });
    }
    for (source_word, claim_word) in qualifiers::mismatches(claim, here) {
        f.hard.push(Message::QualifierMismatch {
            n,
            source_word,
            claim_word,
        });
    }
}

/// The scope the claim gives the rule: a restriction it drops, a scope word it adds,
/// a condition it leaves out.
fn scope(claim: &Claim, ev: &Evidence, aligned: &Aligned, here: &str, n: usize, f: &mut Findings) {
    // A rule the source restricts ("only applies to annual leave", 限于高级管理人员)
    // stated for more: the claim names something the clause does not.
    if f.hard.is_empty() {
        // ASCII lower-casing keeps byte offsets, so positions in it are positions in
        // the clause.
        let lower = here.to_ascii_lowercase();
        if let Some(word) = ONLY.iter().find(|w| {
            lower.match_indices(**w).any(|(at, _)| {
                w.chars().any(evident_text::normalize::is_cjk)
                    || !lower[..at].ends_with(|c: char| c.is_ascii_alphabetic())
                        && !lower[at + w.len()..].starts_with(|c: char| c.is_ascii_alphabetic())
            })
        }) && aligned.found < claim.terms.len()
            // The claim keeps the restriction in its own words (只有…才, 仅, only).
            && !ONLY
                .iter()
                .chain(&["才", "solely", "limited to"])
                .any(|w| claim.text.to_ascii_lowercase().contains(w))
        {
            let at = lower.find(word).unwrap_or(0);
            let restriction: String = here
                .get(at..)
                .unwrap_or_default()
                .chars()
                .take(24)
                .collect();
            f.soft.push(Message::ConditionDropped {
                n,
                condition: restriction.trim().to_owned(),
            });
        }
    }
    // A word of scope the clause does not use: the claim widens the rule (所有, 一律,
    // every) or narrows it (仅, only). Words cannot say whether the scope still holds,
    // so the reader is asked to look.
    if f.hard.is_empty()
        && let Some(word) = scope_word_added(&claim.text, here)
    {
        f.soft.push(Message::ScopeDiffers { n, word });
    }
    // Conditions the claim drops: a tier's range it says nothing of, a group it leaves
    // out. Only for claims whose facts hold, or the reason would pile up.
    if f.hard.is_empty() {
        for condition in dropped_conditions(claim, ev, aligned) {
            f.soft.push(Message::ConditionDropped { n, condition });
        }
    }
}

/// The aligned window's text with its conditions blanked out.
fn without_conditions(ev: &Evidence, aligned: &Aligned) -> String {
    let (start, end) = aligned.span(ev);
    let conditions: Vec<(usize, usize)> = aligned.conditions(ev).copied().collect();
    without_spans(&ev.text, start, end, &conditions)
}

/// Words that widen a rule to everyone or everything.
const WIDENING: &[&str] = &[
    "所有", "全部", "全体", "任何", "一律", "一切", "凡是", "all", "every", "everyone", "anyone",
    "always",
];
/// Words that drop a rule's condition: it holds whatever the case.
const UNCONDITIONAL: &[&str] = &[
    "无论",
    "不论",
    "不管",
    "regardless",
    "whether or not",
    "no matter",
];
/// Words that make a condition enough by itself.
const SUFFICIENT_ALONE: &[&str] = &["只要", "as long as"];
/// Words that narrow a rule to some.
const NARROWING: &[&str] = &[
    "仅",
    "只有",
    "只需",
    "仅限",
    "限于",
    "only",
    "solely",
    "exclusively",
];

/// Whether `text` holds `w`, as a whole word when it is English.
fn holds_word(lower: &str, w: &str) -> bool {
    lower.match_indices(w).any(|(at, _)| {
        !w.is_ascii()
            || !lower[..at].ends_with(|c: char| c.is_ascii_alphabetic())
                && !lower[at + w.len()..].starts_with(|c: char| c.is_ascii_alphabetic())
    })
}

/// A word of scope the claim uses while the clause uses none of its kind.
fn scope_word_added(claim: &str, clause: &str) -> Option<String> {
    let (claim, clause) = (claim.to_lowercase(), clause.to_lowercase());
    [WIDENING, UNCONDITIONAL, SUFFICIENT_ALONE, NARROWING]
        .into_iter()
        .find_map(|kind| {
            let said = kind.iter().find(|w| holds_word(&claim, w))?;
            (!kind.iter().any(|w| holds_word(&clause, w))).then(|| (*said).to_owned())
        })
}

/// Words that restrict a rule to what follows them.
const ONLY: &[&str] = &["only", "仅限", "仅", "只有", "只", "限于", "exclusively"];

/// Words with which a claim calls a condition enough (or none needed).
const SUFFICIENT: &[&str] = &[
    "只要",
    "只需",
    "凡是",
    "一律",
    "无论",
    "不管",
    "不论",
    "自动",
    "as long as",
    "whenever",
    "regardless",
    "no matter",
    "automatically",
];

/// The conditions of the aligned clause that the claim leaves out.
fn dropped_conditions(claim: &Claim, ev: &Evidence, aligned: &Aligned) -> Vec<String> {
    let lower_claim = claim.text.to_lowercase();
    let mut out = Vec::new();
    for &(s, e) in aligned.conditions(ev) {
        let condition = &ev.text[s..e];
        let lower = condition.to_lowercase();
        let ranged: Vec<&Quantity> = ev
            .quantities
            .iter()
            .filter(|q| q.start >= s && q.end <= e && q.dimension != Dimension::Date)
            .collect();
        let range_dropped = !ranged.is_empty()
            && !claim.quantities.iter().any(|c| {
                ranged
                    .iter()
                    .any(|r| r.dimension.comparable(&c.dimension) && c.dimension != Dimension::Bare)
            });
        let scope_dropped = SCOPE_WORDS
            .iter()
            .any(|w| lower.contains(w) && !lower_claim.contains(w));

        // "只要…就", "as long as", "whenever": the claim calls its own condition enough,
        // while the clause's condition asks for more than the claim says.
        // Asks for more: most of the condition's words are not in the claim.
        let sufficiency_dropped = SUFFICIENT.iter().any(|w| lower_claim.contains(w)) && {
            let said: HashSet<String> = claim.tokens.iter().cloned().collect();
            let words: Vec<String> = token_set(condition)
                .into_iter()
                .filter(|t| {
                    !evident_index::search::stopwords::is_stop_word(t)
                        && if t.is_ascii() {
                            t.len() >= 4
                        } else {
                            t.chars().count() >= 2
                        }
                })
                .collect();
            let unsaid = words.iter().filter(|t| !said.contains(*t)).count();
            unsaid >= 2 && unsaid * 2 > words.len()
        };
        // A table cell's header conditions only the value beside it.
        let is_cell = ev.is_cell_header(s);
        let cell_dropped = is_cell && ev.cell_value_claimed(claim, s) && !claim.mentions(condition);
        if (!is_cell && (range_dropped || scope_dropped || sufficiency_dropped)) || cell_dropped {
            out.push(condition.trim().to_owned());
        }
    }
    out
}

/// The words that label a number in a list: from the last separator before it
/// ("…，二级伤残为25个月": 二级伤残为).
fn label(text: &str, at: usize) -> &str {
    let before = &text[..at];
    let from = before
        .rfind(['，', '；', '：', '、', ',', ';', ':', '（', '('])
        .map_or(0, |i| {
            i + before[i..].chars().next().map_or(1, char::len_utf8)
        });
    &text[from..at]
}

/// A number the claim pins to another item of the same list: "六级伤残…18个月" where
/// the clause gives 18个月 to 五级伤残 and 16个月 to 六级伤残. Compares the words that
/// label the number in the claim with what tells the clause's labels apart.
fn label_swap(
    claim: &Claim,
    q: &Quantity,
    ev: &Evidence,
    window_q: &[&Quantity],
    matched: usize,
    n: usize,
) -> Option<Message> {
    // A list item's label is short ("二级伤残为", "Between 3 and 15 years:"); a
    // sentence's opening words are no label.
    let short = |t: &str| t.trim().chars().count() <= 16;
    let s = window_q[matched];
    if !short(label(&ev.text, s.start)) {
        return None;
    }
    let claim_label = token_set(label(&claim.text, q.start));
    let own = token_set(label(&ev.text, s.start));
    window_q.iter().enumerate().find_map(|(j, x)| {
        if j == matched
            || x.dimension != s.dimension
            || x.same_value(s)
            || !short(label(&ev.text, x.start))
        {
            return None;
        }
        let theirs = token_set(label(&ev.text, x.start));
        let mark = |a: &HashSet<String>, b: &HashSet<String>| -> HashSet<String> {
            a.difference(b).cloned().collect()
        };
        let (own_mark, their_mark) = (mark(&own, &theirs), mark(&theirs, &own));
        let says_theirs = their_mark.iter().any(|t| claim_label.contains(t));
        let says_own = own_mark.iter().any(|t| claim_label.contains(t));
        (says_theirs && !says_own).then(|| Message::TierMismatch {
            n,
            value: claim.written(q),
            applies_to: label(&ev.text, s.start).trim().to_owned(),
            condition: label(&claim.text, q.start).trim().to_owned(),
            source_value: ev.written(x),
        })
    })
}
