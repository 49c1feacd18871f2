//! Modality: whether a rule obliges (须, must) or permits (可以, may).
//!
//! "员工可以申请" and "员工必须申请" share every key word and no negation, yet a
//! summary that turns a right into a duty (or a duty into an option) misleads. The
//! check compares the modality of a claim with that of the clause it aligns to; a
//! prohibition or an exemption is a negation and is the negation check's business.

/// What a text makes of its rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Modality {
    /// A duty: 应当, 必须, 须, must, shall, required.
    Must,
    /// A permission: 可以, 有权, may, can, entitled.
    May,
}

impl Modality {
    /// The word a person would use for it, in the claim's language.
    pub fn word(self, zh: bool) -> &'static str {
        match (self, zh) {
            (Modality::Must, true) => "必须",
            (Modality::May, true) => "可以",
            (Modality::Must, false) => "must",
            (Modality::May, false) => "may",
        }
    }
}

/// Phrases that deny or forbid: masked first, so that 不可以 is not read as 可以, nor
/// "may not" as "may".
const DENIALS: &[&str] = &[
    "不可以",
    "不可",
    "不得",
    "不能",
    "不必",
    "无须",
    "无需",
    "不需要",
    "不需",
    "不应当",
    "不应",
    "毋须",
    "may not",
    "must not",
    "must never",
    "may never",
    "can never",
    "shall never",
    "should never",
    "should not",
    "cannot",
    "can not",
    "can't",
    "shall not",
    "need not",
    "needn't",
    "not required",
    "not need",
    "n't need",
    "not have to",
    "n't have to",
];

const MUST_ZH: &[&str] = &[
    "应当", "应该", "必须", "务必", "须", "应予", "应按", "应在", "应于",
];
const MAY_ZH: &[&str] = &[
    "可以",
    "有权",
    "允许",
    "可按",
    "可在",
    "可向",
    "可于",
    "自行决定",
    "自愿",
];
const MUST_EN: &[&str] = &[
    "must",
    "shall",
    "required",
    "requires",
    "have to",
    "has to",
    "need to",
    "needs to",
    "mandatory",
    "obliged",
    "obligated",
];
const MAY_EN: &[&str] = &[
    "may",
    "can",
    "allowed",
    "permitted",
    "entitled",
    "eligible",
    "free to",
    "welcome to",
    "option to",
    "able to",
    "optional",
    "voluntary",
    "at your discretion",
    "up to you",
];

/// The modalities `text` states (none, one or both).
pub fn modalities(text: &str) -> Vec<Modality> {
    let mut t = text.to_lowercase().replace('’', "'");
    for d in DENIALS {
        t = t.replace(d, " _ ");
    }
    // 须知 (notes) and 必须品-like nouns are rare in policies; 须 after 无/毋 is masked above.
    let zh_has = |words: &[&str]| words.iter().any(|w| t.contains(w));
    let en_has = |words: &[&str]| {
        words.iter().any(|w| {
            t.match_indices(w).any(|(at, _)| {
                let before = t[..at].chars().next_back();
                let after = t[at + w.len()..].chars().next();
                !before.is_some_and(|c| c.is_ascii_alphabetic())
                    && !after.is_some_and(|c| c.is_ascii_alphabetic())
            })
        })
    };
    let mut out = Vec::new();
    if zh_has(MUST_ZH) || en_has(MUST_EN) {
        out.push(Modality::Must);
    }
    if zh_has(MAY_ZH) || en_has(MAY_EN) {
        out.push(Modality::May);
    }
    out
}

/// A modality of the claim that the clause does not state while it states the other:
/// `(the clause's, the claim's)`.
pub fn mismatch(claim: &str, clause: &str) -> Option<(Modality, Modality)> {
    let (c, s) = (modalities(claim), modalities(clause));
    if c.len() != 1 || s.len() != 1 || c[0] == s[0] {
        return None;
    }
    Some((s[0], c[0]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_duty_is_not_a_permission() {
        assert_eq!(
            mismatch("员工必须申请年休假", "员工可以申请年休假"),
            Some((Modality::May, Modality::Must))
        );
        assert_eq!(
            mismatch(
                "Employees may take the training.",
                "Employees must take the training."
            ),
            Some((Modality::Must, Modality::May))
        );
        assert_eq!(mismatch("员工应当提前申请", "员工须提前申请"), None);
        assert_eq!(
            mismatch("员工不得兼职", "员工可以兼职"),
            None,
            "a denial is no duty"
        );
        assert_eq!(
            mismatch("You can't expense it.", "You may expense it."),
            None
        );
        assert_eq!(mismatch("员工享受年休假", "员工可以享受年休假"), None);
        assert_eq!(
            mismatch(
                "CUI must never be kept on a laptop.",
                "CUI can never be stored on a laptop."
            ),
            None,
            "two prohibitions"
        );
    }
}
