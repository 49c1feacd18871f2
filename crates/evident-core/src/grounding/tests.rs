use super::*;
use crate::search::Passage;

fn passage(n: usize, text: &str) -> Passage {
    crate::search::test_passage(n, n as i64, text)
}

fn sources() -> Vec<Passage> {
    vec![
        passage(
            1,
            "第十二条 单笔报销金额超过5,000元的，须经分管副总经理审批。报销须在费用发生后30日内提交。",
        ),
        passage(
            2,
            "Employees receive 12 weeks of paid parental leave. Leave does not require manager approval.",
        ),
    ]
}

fn verdicts(answer: &str) -> Vec<(Verdict, Vec<String>)> {
    check(answer, &sources())
        .into_iter()
        .map(|v| (v.verdict, v.reasons))
        .collect()
}

#[test]
fn a_faithful_cited_sentence_is_supported_with_its_span() {
    let v = check("单笔报销超过5000元须经分管副总经理审批[1]。", &sources());
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].verdict, Verdict::Supported, "{:?}", v[0].reasons);
    let s = v[0].support.as_ref().map(|s| (s.n, s.span.text.clone()));
    assert_eq!(
        s,
        Some((
            1,
            "第十二条 单笔报销金额超过5,000元的，须经分管副总经理审批。".into()
        ))
    );
    assert_eq!(v[0].citations, [1]);
}

#[test]
fn a_changed_number_is_unsupported_and_says_which() {
    let v = verdicts("单笔报销超过8000元须经分管副总经理审批[1]。");
    assert_eq!(v[0].0, Verdict::Unsupported);
    assert!(
        v[0].1
            .iter()
            .any(|r| r.contains("8000 does not appear in [1]")),
        "{:?}",
        v[0].1
    );
}

#[test]
fn an_added_or_removed_negation_is_unsupported() {
    let v = verdicts("单笔报销超过5000元不须经分管副总经理审批[1]。");
    assert_eq!(v[0].0, Verdict::Unsupported, "{:?}", v[0].1);
    let v = verdicts("Leave requires manager approval [2].");
    assert_eq!(v[0].0, Verdict::Unsupported, "{:?}", v[0].1);
}

#[test]
fn a_citation_outside_the_retrieved_set_is_fabricated() {
    let v = verdicts("Employees receive 12 weeks of paid parental leave [9].");
    assert_eq!(v[0].0, Verdict::Unsupported);
    assert!(
        v[0].1
            .iter()
            .any(|r| r.contains("cites [9], which was not retrieved")),
        "{:?}",
        v[0].1
    );
}

#[test]
fn a_citation_of_the_wrong_passage_is_flagged_and_the_right_one_named() {
    let v = verdicts("Employees receive 12 weeks of paid parental leave [1].");
    assert_eq!(v[0].0, Verdict::Unsupported);
    assert!(
        v[0].1
            .iter()
            .any(|r| r.contains("[2] supports this sentence")),
        "{:?}",
        v[0].1
    );
}

#[test]
fn an_uncited_sentence_is_checked_against_every_passage() {
    let v = check(
        "Employees receive 12 weeks of paid parental leave.",
        &sources(),
    );
    assert_eq!(v[0].verdict, Verdict::Supported);
    assert_eq!(v[0].support.as_ref().map(|s| s.n), Some(2));
    let v = verdicts("员工每年可以享受二十天带薪年假。");
    assert_eq!(v[0].0, Verdict::Unsupported, "{:?}", v[0].1);
}

#[test]
fn markers_after_the_full_stop_stay_with_their_sentence() {
    let v = check(
        "单笔报销超过5000元须经分管副总经理审批。[1] Employees receive 12 weeks of paid parental leave.[2]",
        &sources(),
    );
    assert_eq!(v.len(), 2, "{v:?}");
    assert_eq!(v[0].citations, [1]);
    assert_eq!(v[1].citations, [2]);
    assert!(v.iter().all(|s| s.verdict == Verdict::Supported), "{v:?}");
}

#[test]
fn numbers_match_by_value_across_spellings() {
    let v = verdicts("报销须在费用发生后三十日内提交[1]。");
    assert_eq!(v[0].0, Verdict::Supported, "{:?}", v[0].1);
}

#[test]
fn a_different_rank_of_the_same_title_is_unsupported_and_named() {
    let v = verdicts("单笔报销超过5000元须经总经理审批[1]。");
    assert_eq!(v[0].0, Verdict::Unsupported, "{:?}", v[0].1);
    assert!(
        v[0].1.iter().any(|r| r == "[1] says 副总经理, not 总经理"),
        "{:?}",
        v[0].1
    );
    let v = verdicts("单笔报销超过5000元须经分管副总审批[1]。");
    assert_eq!(
        v[0].0,
        Verdict::Supported,
        "副总 abbreviates 副总经理: {:?}",
        v[0].1
    );
}
