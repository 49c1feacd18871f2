//! Roles: who approves, who decides, who pays.
//!
//! A tiered rule names a different approver per tier (部门经理, 财务总监, 分管副总经理),
//! and a summary that attaches the wrong one keeps every other word. So the roles a
//! claim names are looked up in the clause it aligns to: a role the clause does not
//! name, while it names another, is a mismatch. Roles are found from a short list of
//! title endings (经理, 总监, 负责人 ...) with the words in front that make the title,
//! and from a list of English titles and teams, with synonyms grouped (manager and
//! supervisor, People Ops and HR).

use evident_text::normalize::is_cjk;

/// Chinese title endings; the characters before them (up to four) complete the title.
const ENDINGS_ZH: &[&str] = &[
    "总经理",
    "经理",
    "总监",
    "总裁",
    "主管",
    "负责人",
    "主任",
    "董事会",
    "董事长",
    "委员会",
    "人力资源部",
    "人事部",
    "财务部",
    "行政部",
    "法务部",
    "工会",
    "用人单位",
    "劳动者",
    "职工",
    "员工",
    "雇主",
    // Said alone, 单位 is the employer (单位要及时出具证明); after 用人 it was found above.
    "单位",
];

/// The two parties of employment, by any of their names.
const EMPLOYEE: &[&str] = &["劳动者", "职工", "员工", "employee"];
const EMPLOYER: &[&str] = &["用人单位", "单位", "雇主", "employer"];

/// Characters that end a title's front: verbs and particles around a title (由部门经理,
/// 经分管副总经理, 报财务总监).
const NOT_TITLE: &str = "由经报须向后及与和或并审核批在以的、，,。；：:（）() 交给请让给对被将把";

/// English roles; each inner list is one role under its names.
const ROLES_EN: &[&[&str]] = &[
    &[
        "manager",
        "supervisor",
        "line manager",
        "direct report's manager",
    ],
    &[
        "people ops",
        "people operations",
        "people team",
        "hr",
        "human resources",
    ],
    &["finance team", "finance", "accounting"],
    &["cfo", "chief financial officer"],
    &["ceo", "chief executive officer"],
    &["security team", "security"],
    &["legal team", "legal"],
    &["it team", "it department", "help desk", "helpdesk"],
    &["director"],
    &["vp", "vice president"],
    &["team lead", "tech lead"],
    &["contracting officer", "co"],
    &["travel team", "travel coordinator"],
    &["employer"],
    &["employee", "teammate", "staff"],
];

/// A role as found: its canonical name and how it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Role {
    /// Canonical name (the first English name, or the Chinese title as written).
    pub name: String,
    /// As written in the text.
    pub written: String,
}

/// The roles `text` names.
pub fn roles(text: &str) -> Vec<Role> {
    let mut out = chinese(text);
    out.extend(english(text));
    out
}

fn chinese(text: &str) -> Vec<Role> {
    let mut out: Vec<Role> = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let at = chars[i].0;
        let Some(ending) = ENDINGS_ZH.iter().find(|e| text[at..].starts_with(*e)) else {
            i += 1;
            continue;
        };
        let mut s = i;
        while s > 0
            && i - (s - 1) <= 4
            && is_cjk(chars[s - 1].1)
            && !NOT_TITLE.contains(chars[s - 1].1)
        {
            s -= 1;
        }
        let end = at + ending.len();
        // The parties are named alone (全体员工 is 员工); a title takes its front.
        if EMPLOYEE.contains(ending) || EMPLOYER.contains(ending) {
            s = i;
        }
        let written = text[chars[s].0..end].to_owned();
        if !out.iter().any(|r| r.written == written) {
            let name = if EMPLOYEE.contains(ending) {
                "employee".to_owned()
            } else if EMPLOYER.contains(ending) {
                "employer".to_owned()
            } else {
                written.clone()
            };
            out.push(Role { name, written });
        }
        i += ending.chars().count();
    }
    // 总经理 inside 副总经理 was found as part of it.
    out
}

fn english(text: &str) -> Vec<Role> {
    // ASCII lower-casing keeps byte offsets: `text[at..end]` below is the same span.
    let lower = text.to_ascii_lowercase();
    let mut out: Vec<Role> = Vec::new();
    let mut taken: Vec<(usize, usize)> = Vec::new();
    for names in ROLES_EN {
        for name in *names {
            for (at, _) in lower.match_indices(name) {
                let end = at + name.len();
                let bounded = !lower[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_ascii_alphanumeric())
                    && !lower[end..]
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_alphanumeric() && c != 's');
                // Short names ("co", "hr", "it") only when written in capitals.
                let short_ok = name.len() > 2 || text[at..end].chars().all(|c| c.is_uppercase());
                if !bounded || !short_ok || taken.iter().any(|&(s, e)| at < e && s < end) {
                    continue;
                }
                taken.push((at, end));
                if !out.iter().any(|r| r.name == names[0]) {
                    out.push(Role {
                        name: names[0].to_owned(),
                        written: text[at..end].to_owned(),
                    });
                }
            }
        }
    }
    out
}

/// Whether the claim's role `r` is among `named` (one title containing the other counts:
/// 副总 abbreviates 分管副总经理, 经理 is said of 部门经理).
fn among(r: &Role, named: &[Role]) -> bool {
    named.iter().any(|s| {
        s.name == r.name
            || s.name.contains(&r.name)
            || r.name.contains(&s.name)
            || abbreviates(&r.name, &s.name)
    })
}

/// 副总 for 副总经理, 财务总监 for 总监: the claim's title is a short form of the
/// source's when its characters appear in it in order.
fn abbreviates(short: &str, long: &str) -> bool {
    let mut rest = long.chars();
    short.chars().count() >= 2 && short.chars().all(|c| rest.any(|l| l == c))
}

/// Roles the claim names that the clause does not, while it names others:
/// `(claim's role as written, the clause's roles as written)`.
///
/// Titles and teams are compared as approvers. The parties of employment (员工,
/// employer) are compared only as a swap: a claim about one party where the clause
/// names only the other ("劳动者应当提前三十日通知" for a rule of 用人单位), since a
/// summary adds "员工" as a subject to a clause that leaves it out.
pub fn mismatches(claim: &str, clause: &str) -> Vec<(String, String)> {
    let is_party = |r: &Role| matches!(r.name.as_str(), "employee" | "employer");
    let (stated, claimed) = (roles(clause), roles(claim));
    let written = |rs: &[&Role]| {
        rs.iter()
            .map(|s| s.written.clone())
            .collect::<Vec<_>>()
            .join(" / ")
    };
    let actors: Vec<&Role> = stated.iter().filter(|r| !is_party(r)).collect();
    let mut out: Vec<(String, String)> = Vec::new();
    if !actors.is_empty() {
        let owned: Vec<Role> = actors.iter().map(|r| (*r).clone()).collect();
        for r in claimed.iter().filter(|r| !is_party(r)) {
            if !among(r, &owned) {
                out.push((r.written.clone(), written(&actors)));
            }
        }
    }
    let parties = |rs: &[Role]| -> Vec<String> {
        let mut v: Vec<String> = rs
            .iter()
            .filter(|r| is_party(r))
            .map(|r| r.name.clone())
            .collect();
        v.dedup();
        v
    };
    let (p_claim, p_clause) = (parties(&claimed), parties(&stated));
    if p_claim.len() == 1 && p_clause.len() == 1 && p_claim != p_clause {
        let c = claimed.iter().find(|r| is_party(r));
        let s: Vec<&Role> = stated.iter().filter(|r| is_party(r)).collect();
        if let Some(c) = c {
            out.push((c.written.clone(), written(&s)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_found_with_their_front() {
        let names: Vec<String> = roles("由部门经理审核后报财务总监审批")
            .into_iter()
            .map(|r| r.written)
            .collect();
        assert_eq!(names, ["部门经理", "财务总监"]);
        let names: Vec<String> = roles("须经分管副总经理审批")
            .into_iter()
            .map(|r| r.written)
            .collect();
        assert_eq!(names, ["分管副总经理"]);
    }

    #[test]
    fn another_approver_is_a_mismatch_and_a_synonym_is_not() {
        assert_eq!(
            mismatches(
                "单笔5,000元以上的由分管副总经理审批",
                "由部门经理审核后报财务总监审批"
            ),
            [("分管副总经理".to_owned(), "部门经理 / 财务总监".to_owned())]
        );
        assert!(mismatches("须经分管副总审批", "须经分管副总经理审批").is_empty());
        assert!(
            mismatches(
                "Ask your supervisor first.",
                "Get approval from your manager first."
            )
            .is_empty()
        );
        assert_eq!(
            mismatches("Your manager approves it.", "People Ops approves it.").len(),
            1
        );
        assert_eq!(
            mismatches("劳动者应当提前三十日通知", "用人单位应当提前三十日通知"),
            [("劳动者".to_owned(), "用人单位".to_owned())],
            "the parties swapped"
        );
        assert!(
            mismatches("员工请假由部门经理审批", "由部门经理审批").is_empty(),
            "a subject the clause leaves out"
        );
        assert!(mismatches("员工可以休年假", "用人单位应当安排职工休年休假").is_empty());
        assert!(
            mismatches("员工离职后，单位要及时出具证明", "用人单位应当及时出具证明").is_empty(),
            "单位 alone is the employer"
        );
    }
}
