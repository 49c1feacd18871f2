//! Rank qualifiers: a word the source only ever uses with 副 / deputy in front is not
//! the word the claim uses.
//!
//! The index cuts 副总经理 into 副总, 总经理 and 副总经理 so that a search for 副总
//! finds it. For grounding that recall is a trap: "须经总经理审批" shares every key
//! word with "须经分管副总经理审批", yet names a different approver. So a claim word
//! that the passage holds only right after a rank qualifier, while the claim itself
//! does not put that qualifier there, counts as a mismatch. Negating prefixes (非, 无,
//! not) are the negation check's business, not this one's.

use super::claims::Claim;
use evident_text::normalize::is_cjk;
use evident_text::segment::term_form;

/// Chinese characters that, in front of a title, make it a different position.
const QUALIFIERS_ZH: &[char] = &['副', '代'];

/// English words that, in front of a title, make it a different position.
const QUALIFIERS_EN: &[&str] = &["vice", "deputy", "assistant", "acting"];

/// A claim word the passage only holds with a qualifier in front: `(word as the
/// passage writes it with its qualifier, word as the claim writes it)`.
pub fn mismatches(claim: &Claim, passage: &str) -> Vec<(String, String)> {
    let mut out = chinese(claim, passage);
    out.extend(english(&claim.text, passage));
    out
}

/// The claim's Chinese words of two or more characters, looked up in the passage.
fn chinese(claim: &Claim, passage: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for word in &claim.terms {
        let chars: Vec<char> = word.chars().collect();
        if chars.len() < 2 || !chars.iter().all(|c| is_cjk(*c)) {
            continue;
        }
        let mut bare = false;
        let mut qualified = None;
        for (at, _) in passage.match_indices(word.as_str()) {
            match passage[..at].chars().next_back() {
                Some(q) if QUALIFIERS_ZH.contains(&q) => qualified = Some(q),
                _ => bare = true,
            }
        }
        let Some(q) = qualified.filter(|_| !bare) else {
            continue;
        };
        let written = format!("{q}{word}");
        if !claim.text.contains(&written) {
            out.push((written, word.clone()));
        }
    }
    out
}

/// English words, compared in index form (stemmed), with the word before each.
fn english(claim: &str, passage: &str) -> Vec<(String, String)> {
    let claim_words = words(claim);
    let passage_words = words(passage);
    let mut out: Vec<(String, String)> = Vec::new();
    for (i, (raw, form)) in claim_words.iter().enumerate() {
        if QUALIFIERS_EN.contains(&raw.as_str()) || out.iter().any(|(_, w)| w == raw) {
            continue;
        }
        let claim_qualifier = i
            .checked_sub(1)
            .and_then(|j| claim_words.get(j))
            .filter(|(w, _)| QUALIFIERS_EN.contains(&w.as_str()));
        if claim_qualifier.is_some() {
            continue;
        }
        let mut bare = false;
        let mut qualified = None;
        for (j, (_, f)) in passage_words.iter().enumerate() {
            if f != form {
                continue;
            }
            match j.checked_sub(1).and_then(|k| passage_words.get(k)) {
                Some((q, _)) if QUALIFIERS_EN.contains(&q.as_str()) => qualified = Some(j),
                _ => bare = true,
            }
        }
        if let Some(j) = qualified.filter(|_| !bare) {
            let q = &passage_words[j - 1].0;
            out.push((format!("{q} {}", passage_words[j].0), raw.clone()));
        }
    }
    out
}

/// Latin words of `text`, lower-cased, with their index form.
fn words(text: &str) -> Vec<(String, String)> {
    text.split(|c: char| !c.is_alphanumeric() || is_cjk(c))
        .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphabetic()))
        .filter_map(|w| {
            let lower = w.to_lowercase();
            term_form(&lower).map(|f| (lower, f))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mismatches(claim: &str, passage: &str) -> Vec<(String, String)> {
        super::mismatches(&Claim::of(claim), passage)
    }

    #[test]
    fn a_title_the_source_only_has_as_deputy_is_a_mismatch() {
        assert_eq!(
            mismatches(
                "须经总经理审批",
                "单笔报销超过5,000元的,须经分管副总经理审批。"
            ),
            vec![("副总经理".to_owned(), "总经理".to_owned())]
        );
        assert!(
            mismatches("须经分管副总经理审批", "须经分管副总经理审批。").is_empty(),
            "the claim names the same position"
        );
        assert!(
            mismatches("须经总经理审批", "副总经理审核后,报总经理审批。").is_empty(),
            "the source also has the bare title"
        );
        assert!(
            mismatches("须经副总审批", "须经分管副总经理审批。").is_empty(),
            "副总 abbreviates 副总经理"
        );
    }

    #[test]
    fn english_qualifiers_are_words_before_the_title() {
        assert_eq!(
            mismatches(
                "Expenses need approval by the President.",
                "Expenses need approval by the Vice President."
            ),
            vec![("vice president".to_owned(), "president".to_owned())]
        );
        assert!(
            mismatches(
                "Expenses need approval by the vice president.",
                "Expenses need approval by the Vice President."
            )
            .is_empty()
        );
        assert!(
            mismatches(
                "The manager approves leave.",
                "The deputy manager or the manager approves leave."
            )
            .is_empty()
        );
    }
}
