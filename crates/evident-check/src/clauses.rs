//! Clauses: the unit a claim is judged against.
//!
//! A passage holds many rules, and a tiered rule holds several in one article
//! ("请假3天以内的，提前1个工作日申请；请假3天以上的，提前5个工作日申请"). Judging a claim
//! over the whole passage lets a number or an approver from the neighbouring tier
//! pass; judging it against one clause does not. A clause here is a sentence, a part
//! ended by `；`/`;`, a list item or a line, a table row, or the lead of a list ("报销审批
//! 权限如下："). Each clause knows its condition ("…的，", "if …,", a table cell's
//! header) and its context: the article head (第四条 …) and list lead it belongs to,
//! whose words a faithful summary may repeat but whose numbers bind nothing.

use std::sync::LazyLock;

use regex::Regex;

use evident_text::sentence::split_units;

/// One clause of a passage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clause {
    /// Byte range in the passage text.
    pub start: usize,
    /// Byte offset just past the clause.
    pub end: usize,
    /// Byte ranges of the conditions the clause states (its "…的" part, a table cell's
    /// header), in passage offsets.
    pub conditions: Vec<(usize, usize)>,
    /// Whether the clause leads a list (ends with a colon).
    pub lead: bool,
    /// Indices of the clauses that give this one its context (article head, list lead).
    pub context: Vec<usize>,
}

static ARTICLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[#>*\-\s]*第[一二三四五六七八九十百零〇两\d]+条").expect("valid regex")
});

/// The end of a Chinese condition: "…的，", "…时，", or "…的员工，" (a short noun after 的).
static CONDITION_ZH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:的\p{Han}{0,3}|时)[，,]").expect("valid regex"));

/// English openings of a condition, up to the first comma.
const IF_EN: &[&str] = &[
    "if ",
    "when ",
    "unless ",
    "once ",
    "after ",
    "before ",
    "while ",
    "where ",
    "for ",
    "in case ",
    "whenever ",
    "as long as ",
    "provided that ",
];
/// English conditions inside a sentence, to its end.
const IF_EN_INSIDE: &[&str] = &[
    " if ",
    " when ",
    " unless ",
    " only if ",
    " provided that ",
    " as long as ",
    " who ",
    " whose ",
    " with at least ",
    " with more than ",
    " with less than ",
];

/// `text[start..end]` with the condition spans inside it blanked out (each one a
/// space), for comparing what a clause or claim states apart from its conditions.
pub fn without_spans(text: &str, start: usize, end: usize, spans: &[(usize, usize)]) -> String {
    let mut spans = spans.to_vec();
    spans.sort_unstable();
    let mut out = String::with_capacity(end - start);
    let mut at = start;
    for (s, e) in spans {
        if s >= at && e <= end {
            out.push_str(&text[at..s]);
            out.push(' ');
            at = e;
        }
    }
    out.push_str(&text[at..end]);
    out
}

/// Splits a passage into clauses.
pub fn clauses(text: &str) -> Vec<Clause> {
    let mut spans: Vec<(usize, usize, bool)> = Vec::new();
    for (s, e) in merge_table_rows(text, split_units(text)) {
        match lead_split(&text[s..e]) {
            Some(at) => {
                spans.push((s, s + at, true));
                let rest = &text[s + at..e];
                let trimmed = rest.trim_start();
                spans.push((e - trimmed.len(), e, false));
            }
            None => spans.push((s, e, false)),
        }
    }
    let mut out: Vec<Clause> = Vec::with_capacity(spans.len());
    let mut article: Option<usize> = None;
    let mut lead: Option<usize> = None;
    for (i, &(s, e, is_lead)) in spans.iter().enumerate() {
        let piece = &text[s..e];
        if ARTICLE.is_match(piece) {
            article = Some(i);
            lead = None;
        }
        let context: Vec<usize> = [article, lead]
            .into_iter()
            .flatten()
            .filter(|&c| c != i)
            .fold(Vec::new(), |mut v, c| {
                if !v.contains(&c) {
                    v.push(c);
                }
                v
            });
        if is_lead {
            lead = Some(i);
        }
        out.push(Clause {
            start: s,
            end: e,
            conditions: conditions(text, s, e),
            lead: is_lead,
            context,
        });
    }
    out
}

/// The first colon of `text` that ends a phrase: not a URL's (`https://`) nor a
/// time's (10:30).
fn colon(text: &str) -> Option<(usize, char)> {
    text.char_indices().find(|&(i, c)| {
        (c == '：' || c == ':')
            && !text[i + c.len_utf8()..].starts_with("//")
            && !text[..i].ends_with(|d: char| d.is_ascii_digit())
    })
}

/// Where a list lead ends inside a unit ("第四条 报销审批权限如下：" + items, or
/// "申请：请假3天以内的，…"): just past the colon, when something follows it.
fn lead_split(unit: &str) -> Option<usize> {
    let (at, c) = colon(unit)?;
    let end = at + c.len_utf8();
    let rest = unit[end..].trim();
    let before = unit[..at].trim();
    // A lead announces what follows ("…如下：", "the following:") or heads a rule with
    // conditions of its own ("…提前提交申请：请假3天以内的，…"). A short label ("Between 3
    // and 15 years: 6 hours", "城市级别: 一线城市") is the condition of its line instead.
    let announces = ["如下", "以下", "下列", "following", "as follows", "below"]
        .iter()
        .any(|w| before.to_lowercase().ends_with(w));
    let ruled =
        CONDITION_ZH.is_match(rest) || IF_EN.iter().any(|w| rest.to_lowercase().starts_with(w));
    let reads_as_lead =
        before.chars().count() >= 6 && rest.chars().count() >= 6 && (announces || ruled);
    reads_as_lead.then_some(end)
}

/// A short label before a colon that conditions the rest of its line: "Between 3 and
/// 15 years: 6 hours per pay period".
fn label_condition(clause: &str) -> Option<usize> {
    let (at, _) = colon(clause)?;
    let before = clause[..at].trim();
    let n = before.chars().count();
    // A label states a range or a group ("Between 3 and 15 years", "Less than 3 years"),
    // not an instruction ("请假要通过人事系统提前申请：…").
    let states_a_range = !evident_text::numbers::numbers_in(before).is_empty();
    (states_a_range
        && (2..=40).contains(&n)
        && !clause[at..]
            .trim_start_matches([':', '：'])
            .trim()
            .is_empty())
    .then_some(at)
}

/// Table rows as written by the extractor ("城市级别: 一线城市; 经理及以上: 每晚600元;
/// 其他员工: 每晚450元") are one clause: the units a row was cut into at its `;` are
/// joined again.
fn merge_table_rows(text: &str, units: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    let is_cell = |s: &str| {
        let s = s.trim_end_matches(';').trim();
        s.split_once(": ")
            .is_some_and(|(h, v)| !h.is_empty() && !v.is_empty() && h.chars().count() <= 20)
    };
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(units.len());
    let mut in_row = false;
    for (s, e) in units {
        let cell = is_cell(&text[s..e]);
        match out.last_mut() {
            Some(last)
                if in_row
                    && cell
                    && !text[last.1..s].contains('\n')
                    && text[last.0..last.1].ends_with(';') =>
            {
                last.1 = e;
            }
            _ => {
                out.push((s, e));
                in_row = cell && text[s..e].ends_with(';');
            }
        }
    }
    out
}

/// The conditions of the clause `text[s..e]`.
fn conditions(text: &str, s: usize, e: usize) -> Vec<(usize, usize)> {
    let clause = &text[s..e];
    let mut out = Vec::new();
    // Table row: each cell's header conditions its value.
    if clause.contains("; ") && clause.contains(": ") {
        let mut at = 0;
        for cell in clause.split(';') {
            if let Some(colon) = cell.find(": ") {
                let lead = cell.len() - cell.trim_start().len();
                out.push((s + at + lead, s + at + colon));
            }
            at += cell.len() + 1;
        }
        return out;
    }
    if let Some(at) = label_condition(clause) {
        out.push((s, s + at));
        return out;
    }
    // Chinese: "…的，" (and "…时，", "…的员工，"), the part before the comma.
    if let Some(m) = CONDITION_ZH.find(clause) {
        out.push((
            s,
            s + m.start() + m.as_str().find(['的', '时']).map_or(0, |i| i + 3),
        ));
        return out;
    }
    let lower = clause.to_lowercase();
    if lower.len() == clause.len() {
        if IF_EN.iter().any(|w| lower.starts_with(w))
            && let Some(comma) = lower.find(',')
        {
            out.push((s, s + comma));
            return out;
        }
        if let Some(at) = IF_EN_INSIDE.iter().filter_map(|w| lower.find(w)).min() {
            out.push((s + at + 1, e));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: &str = "第四条 报销审批权限如下：\n\n单笔金额在5,000元以下的，由部门经理审批；\n\n单笔报销超过20,000元的，须经分管副总经理审批。\n\n第八条 员工请假应当通过人事系统提前提交申请：请假3天以内的，提前1个工作日申请；请假3天以上的，提前5个工作日申请。\n\n城市级别: 一线城市; 经理及以上: 每晚600元; 其他员工: 每晚450元";

    fn texts(text: &str) -> Vec<&str> {
        clauses(text)
            .iter()
            .map(|c| &text[c.start..c.end])
            .collect()
    }

    #[test]
    fn tiers_leads_and_rows_are_clauses() {
        assert_eq!(
            texts(RULES),
            [
                "第四条 报销审批权限如下：",
                "单笔金额在5,000元以下的，由部门经理审批；",
                "单笔报销超过20,000元的，须经分管副总经理审批。",
                "第八条 员工请假应当通过人事系统提前提交申请：",
                "请假3天以内的，提前1个工作日申请；",
                "请假3天以上的，提前5个工作日申请。",
                "城市级别: 一线城市; 经理及以上: 每晚600元; 其他员工: 每晚450元",
            ]
        );
    }

    #[test]
    fn a_clause_knows_its_condition_and_context() {
        let cs = clauses(RULES);
        let tier = &cs[4];
        let cond: Vec<&str> = tier.conditions.iter().map(|&(s, e)| &RULES[s..e]).collect();
        assert_eq!(cond, ["请假3天以内的"]);
        assert_eq!(tier.context, [3], "the article's lead");
        assert_eq!(cs[2].context, [0]);
        let row: Vec<&str> = cs[6]
            .conditions
            .iter()
            .map(|&(s, e)| &RULES[s..e])
            .collect();
        assert_eq!(row, ["城市级别", "经理及以上", "其他员工"]);
        let en = "If you are sick for more than 3 days, you need a doctor's note.";
        let c = clauses(en);
        assert_eq!(
            c[0].conditions
                .iter()
                .map(|&(s, e)| &en[s..e])
                .collect::<Vec<_>>(),
            ["If you are sick for more than 3 days"]
        );
    }
}
