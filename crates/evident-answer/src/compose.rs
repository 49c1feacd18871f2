//! The extractive composer: an answer made of the sources' own best sentences.
//!
//! No model is needed and nothing is invented: each answer sentence is a sentence of a
//! retrieved passage, character for character, followed by its citation. Which
//! sentences, and in which order, was decided by retrieval's ranker
//! (`search::choose`, weights learned in `search::learned`): the composer quotes the
//! best one (the answering sentence) and, after it, the next ones only when the
//! ranker scored them close to it: the rest of a tiered rule, not filler from
//! neighbouring articles. A tier whose condition fails for the question's situation
//! never follows the one it falls in.
//!
//! A clause label (第十二条, 2.1) is the sentence's location, kept beside the quote
//! rather than inside it, so that what is quoted is exactly the document's text. When
//! two documents give different values for the same rule (the same question terms, the
//! same unit), both are shown and a note says they differ.

use std::collections::HashSet;

use crate::grounding::claims::Claim;
use crate::message::Message;
use crate::search::choose::{Candidate, labels_in};
use evident_text::ranges::Fit;

/// Most sentences in an answer.
pub const MAX_SENTENCES: usize = 3;

/// One sentence of a drafted answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The sentence, exactly as the source writes it.
    pub text: String,
    /// The passage it comes from (`[n]`).
    pub n: usize,
    /// Where in the document it stands (its clause label: 第十九条), shown beside it.
    pub location: Option<String>,
}

/// A drafted answer: its sentences and notes for the reader.
#[derive(Debug, Clone, Default)]
pub struct Drafted {
    /// Answer sentences, best first.
    pub sentences: Vec<Draft>,
    /// Notes that are not claims (e.g. that two sources differ).
    pub notes: Vec<Message>,
}

/// Drafts an answer from the ranked `sentences` (best first) of the passages
/// `included` in the context: the best, the follow-ups within `gap` log-odds of it,
/// and the other document's sentence when two documents disagree.
pub fn compose(sentences: &[Candidate], included: &[usize], gap: f64) -> Drafted {
    let usable: Vec<&Candidate> = sentences
        .iter()
        .filter(|c| included.contains(&c.n))
        .collect();
    let mut drafted = Drafted::default();
    let Some(&lead) = usable.first() else {
        return drafted;
    };
    let terms =
        |c: &Candidate| -> HashSet<String> { Claim::of(&c.text).terms.into_iter().collect() };
    let mut chosen: Vec<(&Candidate, HashSet<String>)> = vec![(lead, terms(lead))];
    for &c in &usable[1..] {
        if chosen.len() >= MAX_SENTENCES || lead.score - c.score > gap {
            break;
        }
        // The tier the question's situation falls in answers it; a tier whose
        // condition fails for it (5,000–20,000 for a 30,000 claim) would mislead.
        if lead.fit == Fit::Holds && c.fit == Fit::Fails {
            continue;
        }
        let own = terms(c);
        if chosen.iter().any(|(_, t)| similarity(t, &own) > 0.8) {
            continue;
        }
        chosen.push((c, own));
    }
    // Two documents, same rule, different values: show both, say so. The same rule
    // means the same question terms and the same unit (六个月 and 十五日 are two rules);
    // and the other passage must not state the lead's values too (then the documents
    // agree, and the other sentence is about something else).
    let lead_terms = chosen[0].1.clone();
    if !lead.numbers.is_empty()
        && let Some(&other) = usable.iter().find(|c| {
            c.doc_id != lead.doc_id
                && !c.numbers.is_empty()
                && c.numbers != lead.numbers
                && !lead.numbers.iter().all(|v| c.passage_numbers.contains(v))
                && !c.units.is_disjoint(&lead.units)
                && !lead.question_terms.is_empty()
                && lead.question_terms.is_subset(&c.question_terms)
                && lead.score - c.score <= 2.0 * gap
                && similarity(&terms(c), &lead_terms) >= 0.5
        })
    {
        if !chosen.iter().any(|(c, _)| std::ptr::eq(*c, other)) {
            if chosen.len() >= MAX_SENTENCES {
                chosen.pop();
            }
            let own = terms(other);
            chosen.insert(1, (other, own));
        }
        drafted.notes.push(Message::SourcesDiffer {
            a: lead.n,
            b: other.n,
        });
    }
    drafted.sentences = chosen
        .into_iter()
        .map(|(c, _)| Draft {
            text: c.text.clone(),
            n: c.n,
            location: c.location.clone(),
        })
        .collect();
    drafted
}

/// A sentence quoted on its own (retrieval's highlight, when no sentence scored): its
/// clause label, if it opens with one, as its location, and the rest as the quote.
pub fn draft_of(sentence: &str, n: usize) -> Draft {
    let sentence = sentence.trim();
    if let Some(&(start, end, label)) = labels_in(sentence).first()
        && start == 0
        && !sentence[end..].trim().is_empty()
    {
        return Draft {
            text: sentence[end..].trim().to_owned(),
            n,
            location: Some(label.split_whitespace().collect()),
        };
    }
    Draft {
        text: sentence.to_owned(),
        n,
        location: None,
    }
}

/// Share of the smaller term set found in the other.
fn similarity(a: &HashSet<String>, b: &HashSet<String>) -> f64 {
    let small = a.len().min(b.len());
    if small == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f64 / small as f64
}

/// A draft sentence with its citation mark before the closing punctuation:
/// `须经分管副总经理审批[1]。`
pub fn with_citation(d: &Draft) -> String {
    let text = d.text.trim_end();
    let is_end = |c: char| matches!(c, '。' | '！' | '？' | '；' | '.' | '!' | '?' | ';');
    let closing = |c: char| matches!(c, '”' | '"' | '’' | '）' | ')' | '」' | '』');
    // The closing run ("。", ".”", ")."): the mark goes before its first terminator.
    let run = text.len()
        - text
            .trim_end_matches(|c: char| is_end(c) || closing(c))
            .len();
    let tail_start = text.len() - run;
    match text[tail_start..].find(is_end) {
        Some(i) => format!(
            "{}[{}]{}",
            &text[..tail_start + i],
            d.n,
            &text[tail_start + i..]
        ),
        None => format!("{text}[{}]", d.n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::learned::Model;
    use crate::search::{Aliases, Passage, Query, choose, test_passage};

    /// The answer the built-in keyword-only ranker composes from `passages`.
    fn draft(question: &str, passages: &[Passage]) -> Drafted {
        let q = Query::analyse(question, &Aliases::default());
        let weights = vec![1.0; q.terms.len()];
        let mut sentences = choose::candidates(&q, &weights, &passages.iter().collect::<Vec<_>>());
        let model = Model::builtin();
        choose::rank(&mut sentences, model.ranker(false));
        let all: Vec<usize> = passages.iter().map(|p| p.n).collect();
        compose(&sentences, &all, model.follow_up(false))
    }

    #[test]
    fn documents_that_disagree_on_a_number_are_both_quoted_with_a_note() {
        let d = draft(
            "报销超过多少需要副总审批",
            &[
                test_passage(
                    1,
                    1,
                    "第四条 单笔报销超过20,000元的，须经分管副总经理审批。",
                ),
                test_passage(
                    2,
                    2,
                    "第六条 单笔报销超过50,000元的，须经分管副总经理审批。",
                ),
            ],
        );
        let cited: Vec<usize> = d.sentences.iter().map(|s| s.n).collect();
        assert!(cited.contains(&1) && cited.contains(&2), "{d:?}");
        assert_eq!(d.notes, [Message::SourcesDiffer { a: 1, b: 2 }], "{d:?}");
    }

    #[test]
    fn copies_of_one_document_are_not_a_disagreement() {
        let text =
            "Birthing parents receive 16 weeks of leave. Other parents receive 8 weeks of leave.";
        let d = draft(
            "How many weeks of leave do birthing parents receive?",
            &[test_passage(1, 1, text), test_passage(2, 2, text)],
        );
        assert!(d.notes.is_empty(), "{:?}", d.notes);
        assert_eq!(
            d.sentences[0].text,
            "Birthing parents receive 16 weeks of leave."
        );
        let texts: Vec<&str> = d.sentences.iter().map(|s| s.text.as_str()).collect();
        let unique: HashSet<&str> = texts.iter().copied().collect();
        assert_eq!(texts.len(), unique.len(), "no sentence twice: {texts:?}");
    }

    #[test]
    fn a_clause_label_is_the_location_not_part_of_the_quote() {
        let text = "第十九条 劳动合同期限三个月以上不满一年的，试用期不得超过一个月；劳动合同期限一年以上不满三年的，试用期不得超过二个月。";
        let d = draft(
            "劳动合同期限三个月以上不满一年的，试用期最长多久？",
            &[test_passage(1, 1, text)],
        );
        assert_eq!(d.sentences[0].location.as_deref(), Some("第十九条"));
        assert_eq!(
            d.sentences[0].text,
            "劳动合同期限三个月以上不满一年的，试用期不得超过一个月；"
        );
        assert!(
            text.contains(&d.sentences[0].text),
            "a substring of the source"
        );
        let own = draft_of("第八条 员工请假3天以内的，提前1个工作日申请。", 2);
        assert_eq!(own.location.as_deref(), Some("第八条"));
        assert_eq!(own.text, "员工请假3天以内的，提前1个工作日申请。");
        let numbered = draft(
            "How many weeks of paid leave do birthing parents receive?",
            &[test_passage(
                1,
                1,
                "2.1 Birthing parents receive 16 weeks of paid leave.\n\
                 2.2 Other parents receive 8 weeks of paid leave.",
            )],
        );
        assert_eq!(numbered.sentences[0].location.as_deref(), Some("2.1"));
        assert_eq!(
            numbered.sentences[0].text,
            "Birthing parents receive 16 weeks of paid leave."
        );
        for number in [
            "1.5 times the hourly rate is paid.",
            "2.5 Days are added.",
            "3.5 元的补贴按月发放。",
        ] {
            let d = draft_of(number, 1);
            assert_eq!(d.location, None, "a number, not a label: {number}");
            assert_eq!(d.text, number);
        }
    }

    #[test]
    fn a_number_of_the_kind_asked_for_leads_and_a_clause_label_is_no_number() {
        let d = draft(
            "年假没休完怎么补偿？",
            &[test_passage(
                1,
                1,
                "第五条 单位确因工作需要不能安排职工休年假的，经职工本人同意，可以不安排职工休年假。\n\
                 第六条 职工在1个年度内未休年假的，跨年度安排。\n\
                 第七条 对职工应休未休的年假天数，单位应当按照该职工日工资收入的300%支付年假工资报酬。",
            )],
        );
        assert!(d.sentences[0].text.contains("300%"), "{:?}", d.sentences);
    }

    #[test]
    fn an_everyday_amount_and_who_approves_lead_with_the_tier_it_falls_in() {
        let chapter = "第三条 员工因公发生的差旅费、交通费、业务招待费等，应当在费用发生之日起30日内提交报销申请，并附合法有效的发票。\n\n\
            第四条 报销审批权限如下：\n\n\
            单笔金额在5,000元以下的，由部门经理审批；\n\n\
            单笔金额在5,000元以上、20,000元以下的，由部门经理审核后报财务总监审批；\n\n\
            单笔报销超过20,000元的，须经分管副总经理审批。";
        let lead = |q: &str| {
            draft(q, &[test_passage(1, 1, chapter)])
                .sentences
                .first()
                .map(|s| s.text.clone())
                .unwrap_or_default()
        };
        assert_eq!(
            lead("我花了三万块招待客户，这笔钱要谁批准才能报？"),
            "单笔报销超过20,000元的，须经分管副总经理审批。",
            "30,000 is over 20,000: the vice-president's tier, not the 30-day rule"
        );
        let all = draft(
            "我花了三万块招待客户，这笔钱要谁批准才能报？",
            &[test_passage(1, 1, chapter)],
        );
        assert!(
            all.sentences.iter().all(|s| !s.text.contains("以下的")),
            "no tier the situation is not in follows the answer: {:?}",
            all.sentences
        );
        // Keyword search alone leads with the list's own opening line (it shares the
        // question's 报销 and 审批), then the tier 12,000 falls in, and no other tier.
        let all = draft("报销1.2万要找谁签？", &[test_passage(1, 1, chapter)]);
        let texts: Vec<&str> = all.sentences.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "报销审批权限如下：",
                "单笔金额在5,000元以上、20,000元以下的，由部门经理审核后报财务总监审批；"
            ]
        );
        assert_eq!(
            lead("请客户吃饭花了两千多块，谁批？"),
            "单笔金额在5,000元以下的，由部门经理审批；"
        );
    }

    #[test]
    fn two_rules_with_different_units_are_not_a_conflict() {
        let d = draft(
            "试用期最长多久",
            &[
                test_passage(1, 1, "第二十一条 试用期最长不得超过六个月。"),
                test_passage(
                    2,
                    2,
                    "第七十二条 非全日制用工劳动报酬结算支付周期最长不得超过十五日。",
                ),
            ],
        );
        assert!(d.notes.is_empty(), "{:?}", d.notes);
        assert_eq!(d.sentences.len(), 1, "{:?}", d.sentences);
    }

    #[test]
    fn the_mark_goes_before_the_closing_punctuation() {
        let d = |t: &str| Draft {
            text: t.into(),
            n: 2,
            location: None,
        };
        assert_eq!(with_citation(&d("须经审批。")), "须经审批[2]。");
        assert_eq!(
            with_citation(&d("Approval is needed.")),
            "Approval is needed[2]."
        );
        assert_eq!(with_citation(&d("见附件（一）")), "见附件（一）[2]");
        assert_eq!(with_citation(&d("Expenses (M&IE).")), "Expenses (M&IE)[2].");
        assert_eq!(
            with_citation(&d("他说：“须经审批。”")),
            "他说：“须经审批[2]。”"
        );
    }
}
