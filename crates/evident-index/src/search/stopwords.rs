//! Words that carry the shape of a question, not what it is about.
//!
//! 怎么, 吗, how, do ... occur in every question and in countless passages, so they only
//! add noise to BM25 and to the coverage measure of the relevance floor. They are
//! removed from the key terms; the passage text is never filtered.

use std::collections::HashSet;
use std::sync::LazyLock;

use evident_text::quantity::Unit;
use evident_text::segment::term_form;

const CHINESE: &[&str] = &[
    "怎么",
    "怎样",
    "怎么样",
    "如何",
    "吗",
    "呢",
    "吧",
    "啊",
    "呀",
    "哪些",
    "哪个",
    "哪",
    "哪里",
    "哪儿",
    "什么",
    "多少",
    "几",
    "是否",
    "是不是",
    "能否",
    "可否",
    "请问",
    "请",
    "我",
    "我们",
    "你",
    "你们",
    "的",
    "了",
    "着",
    "过",
    "是",
    "在",
    "有",
    "和",
    "与",
    "及",
    "或",
    "或者",
    "就",
    "都",
    "也",
    "还",
    "又",
    "被",
    "把",
    "对",
    "给",
    "让",
    "会",
    "能",
    "可以",
    "应该",
    "要",
    "得",
    "地",
    "这",
    "那",
    "这个",
    "那个",
    "一下",
    "谁",
    "为什么",
    "为何",
    "么",
    "啥",
    "咋",
    "之",
    "其",
    "而",
    "等",
    "该",
    "么样",
    "有没有",
    "是什么",
    "叫",
    "叫做",
    "称为",
    "为",
    "几天",
    "几个",
    "几年",
    "几次",
    "几点",
    "多久",
    "多长",
    "多长时间",
    "多少天",
    "多少钱",
    "多大",
    "怎么办",
    "怎么算",
    "哪天",
];

const ENGLISH: &[&str] = &[
    "a", "an", "the", "is", "are", "was", "were", "be", "been", "being", "do", "does", "did",
    "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "many", "much", "i",
    "me", "my", "we", "our", "you", "your", "it", "its", "this", "that", "these", "those", "of",
    "in", "on", "at", "to", "for", "from", "by", "with", "about", "as", "or", "and", "if", "can",
    "could", "should", "would", "will", "shall", "may", "might", "must", "have", "has", "had",
    "get", "there", "their", "they", "them", "any", "some", "please", "tell", "know", "am",
];

/// Words that ask for a number: the answer should then contain one.
const ASKS_NUMBER: &[&str] = &[
    "多少",
    "几",
    "多久",
    "多长",
    "how many",
    "how much",
    "how long",
    // How a payment is worked out is asked for as an amount or a rate.
    "怎么补偿",
    "如何补偿",
    "怎么赔",
    "怎么算",
    "怎么计算",
    "如何计算",
    "怎么给钱",
];

static STOP: LazyLock<HashSet<String>> = LazyLock::new(|| {
    CHINESE
        .iter()
        .chain(ENGLISH)
        .filter_map(|w| term_form(w))
        .collect()
});

/// Whether `term` (in index form) is a question word or particle.
pub fn is_stop_word(term: &str) -> bool {
    STOP.contains(term)
}

/// What kind of quantity a question asks for, when its words say so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// Money or a rate of pay: 多少钱, 怎么补偿, how much ... paid.
    Amount,
    /// A length of time or a deadline: 多久, 几天, how long, how many weeks.
    Duration,
}

const ASKS_AMOUNT: &[&str] = &[
    "多少钱",
    "补偿",
    "赔",
    "怎么算",
    "怎么计算",
    "如何计算",
    "给钱",
    "工资",
    "报酬",
    "津贴",
    "费用",
    "how much",
    "paid",
    "pay ",
    "reimburs",
    "cost",
    "allowance",
    "stipend",
];

const ASKS_DURATION: &[&str] = &[
    "多久",
    "多长时间",
    "多长",
    "几天",
    "几个月",
    "几年",
    "几周",
    "多少天",
    "多少日",
    "期限",
    "时限",
    "how long",
    "how many days",
    "how many weeks",
    "how many months",
    "how many years",
    "how many hours",
    "how soon",
    "deadline",
];

/// The kind of quantity `question` asks for, if it asks for one and says which:
/// a sentence that holds a number of that kind answers it better than one that
/// merely holds a number (a clause's 第十一条, a 12 个月 in an amount question).
pub fn asked_quantity(question: &str) -> Option<Quantity> {
    let q = question.to_lowercase();
    if !asks_for_number(&q) {
        return None;
    }
    if ASKS_DURATION.iter().any(|w| q.contains(w)) {
        Some(Quantity::Duration)
    } else if ASKS_AMOUNT.iter().any(|w| q.contains(w)) {
        Some(Quantity::Amount)
    } else {
        None
    }
}

/// Units of time a question may ask in (几天, how many weeks), each as the row of
/// [`evident_text::quantity`]'s table of units that a document writes it in: its base
/// unit and size (a week is 7 days).
const ASKED_UNITS: &[(&[&str], (Unit, f64))] = &[
    (
        &[
            "几天",
            "多少天",
            "几日",
            "多少日",
            "how many days",
            "how many business days",
        ],
        (Unit::Days, 1.0),
    ),
    (
        &["几周", "几个星期", "多少周", "how many weeks"],
        (Unit::Days, 7.0),
    ),
    (
        &["几个月", "多少个月", "how many months"],
        (Unit::Months, 1.0),
    ),
    (&["几年", "多少年", "how many years"], (Unit::Months, 12.0)),
    (
        &["几小时", "几个小时", "多少小时", "how many hours"],
        (Unit::Hours, 1.0),
    ),
];

/// The unit of time `question` asks in (几天 → days, 几周 → weeks), if it names one,
/// as [`evident_text::quantity::unit_at`] reads it after a number.
pub fn asked_unit(question: &str) -> Option<(Unit, f64)> {
    let q = question.to_lowercase();
    ASKED_UNITS
        .iter()
        .find(|(cues, _)| cues.iter().any(|c| q.contains(c)))
        .map(|(_, unit)| *unit)
}

/// Words that ask who approves (谁批, 找谁签, who approves): the answer names an
/// approver.
const ASKS_APPROVER: &[&str] = &[
    "谁批",
    "谁审",
    "谁签",
    "谁来批",
    "谁同意",
    "谁负责审批",
    "谁核准",
    "审批人",
    "批准人",
    "签批人",
    "找谁",
    "who approves",
    "who can approve",
    "who has to approve",
    "who must approve",
    "who needs to approve",
    "who should approve",
    "who signs",
    "who authorizes",
    "who authorises",
    "whose approval",
    "approved by whom",
    "approval from whom",
    "who do i ask for approval",
];

/// The words for approving, as the index spells them (审批, 批准 ... approve): what a
/// question about an approver is answered with.
pub const APPROVAL_WORDS: &[&str] = &[
    "审批",
    "批准",
    "核准",
    "审核",
    "签批",
    "签字",
    "审定",
    "approve",
    "approval",
    "authorize",
    "authorise",
    "sign off",
];

/// Whether the question asks who approves (谁批, 找谁签, who approves ...).
pub fn asks_approver(question: &str) -> bool {
    let q = question.to_lowercase();
    ASKS_APPROVER.iter().any(|w| q.contains(w))
        // 找谁 asks for an approver only about approving or signing: 找谁报销, 找谁签.
        && (!q.contains("找谁") || ["签", "批", "审", "报"].iter().any(|w| q.contains(w)))
}

/// Whether the question asks for a number or amount (多少, 几, how many ...).
pub fn asks_for_number(question: &str) -> bool {
    let q = question.to_lowercase();
    ASKS_NUMBER.iter().any(|w| q.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_about_who_approves_are_recognised() {
        for q in [
            "我花了三万块招待客户，这笔钱要谁批准才能报？",
            "报销3万要找谁签？",
            "出差超标了谁批？",
            "Who approves expenses over $500?",
            "Whose approval do I need for a laptop?",
        ] {
            assert!(asks_approver(q), "{q}");
        }
        for q in [
            "报销要多久才能到账？",
            "找谁咨询年假？",
            "Who is eligible for PTO?",
        ] {
            assert!(!asks_approver(q), "{q}");
        }
    }
}
