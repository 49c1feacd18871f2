//! Query analysis: from a typed question to the key terms retrieval looks for.
//!
//! The question goes through the same normalisation and segmentation as documents
//! (NFKC, lower case, `5,000` = `5000`, English stems), with jieba's plain `cut` so a
//! word stays whole. Question words and particles are dropped. Each remaining term may
//! have alternatives: the other phrases of a matching alias group, and the other spelling
//! of a number (`30` ↔ `三十`). A term is found when any alternative is.
//!
//! [`Query::match_expression`] turns the terms into an FTS5 expression in which every
//! token is a quoted string, so nothing a user types can act as FTS syntax.

use super::aliases::Aliases;
use super::stopwords::{APPROVAL_WORDS, asks_approver, asks_for_number, is_stop_word};
use evident_text::numbers::{numbers_in, parse_chinese_numeral, to_chinese_numeral};
use evident_text::segment::query_terms;

/// Longest question considered, in characters; the rest is ignored (and said so).
pub const MAX_QUESTION_CHARS: usize = 1000;

/// Most key terms kept from one question.
const MAX_TERMS: usize = 32;

/// An analysed question.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Query {
    /// The question as typed (cut to [`MAX_QUESTION_CHARS`]).
    pub text: String,
    /// Whether the question was longer than [`MAX_QUESTION_CHARS`] and was cut.
    pub truncated: bool,
    /// Key terms, in question order, without duplicates.
    pub terms: Vec<Term>,
    /// Values of the numbers the question mentions.
    pub numbers: Vec<String>,
    /// Whether the question asks for a number (多少, how many ...).
    pub asks_number: bool,
    /// Whether the question asks who approves (谁批, 找谁签, who approves ...).
    #[serde(default)]
    pub asks_approver: bool,
}

/// One key term and the ways it may be written.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Term {
    /// How the term reads in the question.
    pub text: String,
    /// Token sequences that count as this term; the first is the question's own.
    pub alternatives: Vec<Vec<String>>,
}

impl Query {
    /// Analyses `question` with the user's `aliases`.
    pub fn analyse(question: &str, aliases: &Aliases) -> Self {
        let truncated = question.chars().count() > MAX_QUESTION_CHARS;
        let text: String = question.chars().take(MAX_QUESTION_CHARS).collect();
        let tokens = query_terms(&text);
        let mut terms: Vec<Term> = Vec::new();
        let mut consumed = vec![false; tokens.len()];
        for (start, len, group) in aliases.matches(&tokens) {
            if consumed[start..start + len].iter().any(|c| *c) {
                continue;
            }
            consumed[start..start + len]
                .iter_mut()
                .for_each(|c| *c = true);
            let own = tokens[start..start + len].to_vec();
            let mut alternatives = vec![own.clone()];
            alternatives.extend(group.iter().map(|p| p.tokens.clone()).filter(|t| *t != own));
            terms.push(Term {
                text: own.join(""),
                alternatives,
            });
        }
        let asks_approver = asks_approver(&text);
        for (i, token) in tokens.iter().enumerate() {
            if consumed[i] || is_stop_word(token) || is_amount(token) {
                continue;
            }
            // Who approves: one term for approving, however the question says it.
            if asks_approver && is_approval_word(token) {
                continue;
            }
            if terms.iter().any(|t| t.alternatives[0] == [token.clone()]) {
                continue;
            }
            let mut alternatives = vec![vec![token.clone()]];
            if let Some(other) = number_spelling(token) {
                alternatives.push(query_terms(&other));
            }
            terms.push(Term {
                text: token.clone(),
                alternatives,
            });
        }
        if asks_approver {
            terms.push(Term {
                text: "审批".to_owned(),
                alternatives: APPROVAL_WORDS.iter().map(|w| query_terms(w)).collect(),
            });
        }
        terms.truncate(MAX_TERMS);
        Self {
            numbers: numbers_in(&text).into_iter().map(|n| n.value).collect(),
            asks_number: asks_for_number(&text),
            asks_approver,
            text,
            truncated,
            terms,
        }
    }

    /// The FTS5 expression that finds chunks with any of `terms` (indices into
    /// [`Query::terms`]); `None` when there is nothing to look for.
    pub fn match_expression(&self, terms: &[usize]) -> Option<String> {
        let parts: Vec<String> = terms
            .iter()
            .filter_map(|&i| self.terms.get(i))
            .flat_map(|t| &t.alternatives)
            .filter(|alt| !alt.is_empty())
            .map(|alt| quote_phrase(alt))
            .collect();
        (!parts.is_empty()).then(|| parts.join(" OR "))
    }
}

/// Whether a question token is an everyday amount (三万块, 3万, 两千多, 30k): the
/// question's situation, which a tier's condition answers ("超过20,000元的"), not a
/// word to look for. Plain numbers (20000, 三十) stay terms: a passage may state them.
fn is_amount(token: &str) -> bool {
    if token.bytes().all(|b| b.is_ascii_digit()) || parse_chinese_numeral(token).is_some() {
        return false;
    }
    let quantities = evident_text::quantity::quantities(token);
    let [q] = quantities.as_slice() else {
        return false;
    };
    let whole = q.start == 0 && q.end >= token.trim_end_matches(['多', '余']).len();
    let written = &token[q.start..q.end];
    whole
        && (matches!(q.dimension, evident_text::quantity::Dimension::Money(_))
            || written.contains(['万', '千', 'k', '萬', '仟']))
}

/// Whether a question token is a word for approving (批, 批准, 审批, 签, approve).
fn is_approval_word(token: &str) -> bool {
    matches!(token, "批" | "签" | "审" | "签字" | "同意")
        || APPROVAL_WORDS
            .iter()
            .any(|w| query_terms(w).first().is_some_and(|t| t == token))
}

/// The other spelling of a number token: `30` → `三十`, `三十` → `30`.
fn number_spelling(token: &str) -> Option<String> {
    if token.bytes().all(|b| b.is_ascii_digit()) {
        return token.parse().ok().and_then(to_chinese_numeral);
    }
    if token.chars().count() >= 2 {
        return parse_chinese_numeral(token).map(|n| n.to_string());
    }
    None
}

/// A token sequence as one FTS5 string: `"a b"`, with `"` doubled inside. A lone
/// Chinese character is a prefix query (`"发"*` finds 发放 and 发布): as a word of its
/// own it is rare in the index, but as the head of a word it is how questions are
/// typed.
fn quote_phrase(tokens: &[String]) -> String {
    let quoted = format!("\"{}\"", tokens.join(" ").replace('"', "\"\""));
    if is_single_cjk(tokens) {
        quoted + "*"
    } else {
        quoted
    }
}

/// Whether `tokens` is one token of a single CJK character.
pub fn is_single_cjk(tokens: &[String]) -> bool {
    let [t] = tokens else { return false };
    let mut chars = t.chars();
    matches!((chars.next(), chars.next()), (Some(c), None) if evident_text::normalize::is_cjk(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(q: &Query) -> Vec<String> {
        q.terms.iter().map(|t| t.text.clone()).collect()
    }

    #[test]
    fn question_words_are_dropped_key_terms_kept() {
        let q = Query::analyse("单笔报销超过多少需要分管副总审批？", &Aliases::default());
        let t = texts(&q);
        assert!(t.contains(&"报销".to_owned()), "{t:?}");
        assert!(t.contains(&"审批".to_owned()), "{t:?}");
        assert!(!t.contains(&"多少".to_owned()), "{t:?}");
        assert!(q.asks_number);
        let q = Query::analyse(
            "How many days of parental leave do I get?",
            &Aliases::default(),
        );
        assert_eq!(texts(&q), ["day", "parent", "leav"]);
    }

    #[test]
    fn numbers_get_their_other_spelling() {
        let q = Query::analyse("提前30天通知", &Aliases::default());
        let term = q.terms.iter().find(|t| t.text == "30");
        assert!(
            term.is_some_and(|t| t.alternatives.iter().any(|a| a.concat() == "三十")),
            "{:?}",
            q.terms
        );
        assert_eq!(q.numbers, ["30"]);
    }

    #[test]
    fn an_everyday_amount_is_a_situation_and_who_approves_one_term() {
        let q = Query::analyse(
            "我花了三万块招待客户，这笔钱要谁批准才能报？",
            &Aliases::default(),
        );
        let t = texts(&q);
        assert!(
            !t.iter().any(|t| t.contains("万")),
            "the amount is no key word: {t:?}"
        );
        assert_eq!(q.numbers, ["30000"], "but it is the question's number");
        assert!(q.asks_approver);
        let approval = q.terms.iter().find(|t| t.text == "审批");
        assert!(
            approval.is_some_and(|t| t.alternatives.iter().any(|a| a.concat() == "批准")),
            "{:?}",
            q.terms
        );
        assert!(!t.contains(&"批准".to_owned()), "once, as 审批: {t:?}");
        let q = Query::analyse("提前30天通知", &Aliases::default());
        assert!(texts(&q).contains(&"30".to_owned()), "a plain number stays");
        assert!(!Query::analyse("年假有几天", &Aliases::default()).asks_approver);
    }

    #[test]
    fn aliases_expand_the_question() {
        let (aliases, _) = Aliases::parse("退钱 = 退款\n");
        let q = Query::analyse("怎么退钱", &aliases);
        assert_eq!(q.terms.len(), 1, "{:?}", q.terms);
        let expr = q.match_expression(&[0]).unwrap_or_default();
        assert!(expr.contains("\"退款\""), "{expr}");
    }

    #[test]
    fn fts_syntax_in_a_question_stays_quoted_text() {
        let q = Query::analyse("\"AND OR NEAR( * ^col:", &Aliases::default());
        let all: Vec<usize> = (0..q.terms.len()).collect();
        if let Some(expr) = q.match_expression(&all) {
            for part in expr.split(" OR ") {
                let part = part.strip_suffix('*').unwrap_or(part);
                assert!(
                    part.starts_with('"') && part.ends_with('"'),
                    "every part is a quoted string: {expr}"
                );
            }
        }
    }

    #[test]
    fn only_stop_words_leave_no_terms() {
        let q = Query::analyse("是什么？怎么样呢", &Aliases::default());
        assert!(q.terms.is_empty(), "{:?}", q.terms);
        assert_eq!(q.match_expression(&[]), None);
    }

    #[test]
    fn a_very_long_question_is_cut_and_flagged() {
        let q = Query::analyse(&"报销".repeat(5000), &Aliases::default());
        assert!(q.truncated);
        assert_eq!(q.text.chars().count(), MAX_QUESTION_CHARS);
        assert_eq!(q.terms.len(), 1, "duplicates collapse");
    }
}
