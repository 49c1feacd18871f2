use super::*;
use evident_index::search::Passage;

fn passage(n: usize, text: &str) -> Passage {
    evident_index::search::test_passage(n, n as i64, text)
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
            .any(|r| r.contains("8000元 does not appear in [1]")),
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

/// The sample policy's tiered rules, as the issue found them passing.
fn policy() -> Vec<Passage> {
    vec![passage(
        1,
        "第四条 报销审批权限如下：\n\n单笔金额在5,000元以下的，由部门经理审批；\n\n单笔金额在5,000元以上、20,000元以下的，由部门经理审核后报财务总监审批；\n\n单笔报销超过20,000元的，须经分管副总经理审批。\n\n第八条 员工请假应当通过人事系统提前提交申请：请假3天以内的，提前1个工作日申请；请假3天以上的，提前5个工作日申请。\n\n第九条 员工累计工作已满1年不满10年的，年休假5天；已满10年不满20年的，年休假10天；已满20年的，年休假15天。\n\n第十条 员工因病请假的，须提供二级以上医院出具的病假证明。",
    )]
}

fn judged(claim: &str, sources: &[Passage]) -> (Verdict, Vec<String>, Option<String>) {
    let v = check(&format!("{claim}[1]"), sources);
    assert_eq!(v.len(), 1, "{v:?}");
    let v = &v[0];
    (
        v.verdict,
        v.reasons.clone(),
        v.support.as_ref().map(|s| s.span.text.clone()),
    )
}

#[test]
fn an_amount_tier_with_the_next_tiers_approver_is_flagged() {
    let (v, reasons, _) = judged("单笔报销超过5,000元的，须经分管副总经理审批。", &policy());
    assert_eq!(v, Verdict::Unsupported, "{reasons:?}");
    assert!(
        reasons.iter().any(|r| r
            == "[1] states this for 单笔报销超过20,000元的, not for 单笔报销超过5,000元的"
            || r == "[1] names 部门经理 / 财务总监 here, not 分管副总经理"),
        "{reasons:?}"
    );
    let (v, reasons, _) = judged("单笔报销超过2万元的，须经分管副总经理审批。", &policy());
    assert_eq!(v, Verdict::Supported, "2万元 is 20,000元: {reasons:?}");
    let (v, reasons, _) = judged("单笔金额在5,000元以下的，由财务总监审批。", &policy());
    assert_eq!(v, Verdict::Unsupported, "{reasons:?}");
    assert!(
        reasons
            .iter()
            .any(|r| r == "[1] names 部门经理 here, not 财务总监"),
        "{reasons:?}"
    );
}

#[test]
fn a_condition_paired_with_another_tiers_deadline_is_flagged_and_the_right_clause_shown() {
    let (v, reasons, _) = judged("员工请假3天以内的，提前5个工作日申请。", &policy());
    assert_eq!(v, Verdict::Unsupported, "{reasons:?}");
    assert!(
        reasons.iter().any(|r| r
            == "5个工作日 applies to 请假3天以上的 in [1]; for 请假3天以内的 the source says 1个工作日"),
        "{reasons:?}"
    );
    let (v, reasons, span) = judged("员工请假3天以内的，提前1个工作日申请。", &policy());
    assert_eq!(v, Verdict::Supported, "{reasons:?}");
    assert_eq!(
        span.as_deref(),
        Some("请假3天以内的，提前1个工作日申请；"),
        "第八条's tier, not 第十条"
    );
    let (v, reasons, _) = judged("请假超过三天的，要提前五个工作日申请。", &policy());
    assert_eq!(v, Verdict::Supported, "a faithful rewording: {reasons:?}");
}

#[test]
fn a_tier_of_years_binds_its_own_days() {
    let (v, reasons, _) = judged("员工累计工作满10年不满20年的，年休假5天。", &policy());
    assert_eq!(v, Verdict::Unsupported, "{reasons:?}");
    let (v, reasons, _) = judged("工作满10年不满20年的员工，每年有十天年休假。", &policy());
    assert_eq!(v, Verdict::Supported, "{reasons:?}");
    let (v, reasons, _) = judged("员工工作满一年就有5天年假。", &policy());
    assert_ne!(
        v,
        Verdict::Supported,
        "the upper bound of the tier is dropped: {reasons:?}"
    );
}

#[test]
fn a_probation_limit_from_another_contract_length_is_flagged() {
    let law = vec![passage(
        1,
        "第十九条 劳动合同期限三个月以上不满一年的，试用期不得超过一个月；劳动合同期限一年以上不满三年的，试用期不得超过二个月；三年以上固定期限和无固定期限的劳动合同，试用期不得超过六个月。",
    )];
    let (v, reasons, _) = judged(
        "劳动合同期限三个月以上不满一年的，试用期不得超过六个月。",
        &law,
    );
    assert_eq!(v, Verdict::Unsupported, "{reasons:?}");
    assert!(
        reasons
            .iter()
            .any(|r| r.starts_with("六个月 applies to 三年以上固定期限")),
        "{reasons:?}"
    );
    let (v, reasons, _) = judged("合同期限三个月以上不满一年的，试用期最长一个月。", &law);
    assert_eq!(v, Verdict::Supported, "{reasons:?}");
}

#[test]
fn defects_found_by_hand_stay_fixed() {
    let en = vec![passage(
        1,
        "You do not need approval for a sick day. Leave of up to 16 weeks is paid at 150% of base pay.",
    )];
    let (v, reasons, _) = judged("You don’t need approval for a sick day.", &en);
    assert_eq!(v, Verdict::Supported, "a curly apostrophe: {reasons:?}");
    let (v, reasons, _) = judged(
        "Leave of up to sixteen weeks is paid at 1.5 times base pay.",
        &en,
    );
    assert_eq!(v, Verdict::Supported, "number words and times: {reasons:?}");
    let (v, reasons, _) = judged(
        "Leave of at least 16 weeks is paid at 150% of base pay.",
        &en,
    );
    assert_eq!(
        v,
        Verdict::Unsupported,
        "at least is not up to: {reasons:?}"
    );
    let zh = vec![passage(
        1,
        "第十一条 女员工生育享受不少于98天的产假；加班工资按不低于工资的百分之三百支付。",
    )];
    let (v, reasons, _) = judged("女员工生育享受至少98天的产假。", &zh);
    assert_eq!(
        v,
        Verdict::Supported,
        "至少 is 不少于, no negation: {reasons:?}"
    );
    let (v, reasons, _) = judged("女员工生育最多享受98天的产假。", &zh);
    assert_eq!(v, Verdict::Unsupported, "{reasons:?}");
    let (v, reasons, _) = judged("加班工资按不低于工资的3倍支付。", &zh);
    assert_eq!(v, Verdict::Supported, "三倍 = 百分之三百: {reasons:?}");
    let exempt = vec![passage(1, "第七条 员工出差须经部门经理审批。")];
    let (v, reasons, _) = judged("员工出差免于部门经理审批。", &exempt);
    assert_eq!(v, Verdict::Unsupported, "lexical negation: {reasons:?}");
}

#[test]
fn a_relevant_contradiction_is_a_conflict_not_hidden_by_weak_support() {
    let ps = vec![
        passage(1, "第三条 报销须在费用发生后30日内提交。"),
        passage(2, "第十二条 单笔报销须在费用发生后60日内提交财务部。"),
    ];
    let v = check("单笔报销须在费用发生后30日内提交财务部。", &ps);
    // Amber, not green: the passage that states the same rule for 单笔报销 says 60日.
    assert_eq!(
        v[0].verdict,
        Verdict::PartiallySupported,
        "{:?}",
        v[0].reasons
    );
    assert!(
        v[0].reasons
            .iter()
            .any(|r| r.contains("[2]") && r.contains("says otherwise")),
        "the reason names the passage that contradicts it: {:?}",
        v[0].reasons
    );
}

#[test]
fn text_whose_lower_case_changes_length_never_panics() {
    // 'İ' lower-cases to two characters: offsets in a lower-cased copy are not offsets in
    // the text. Every check must still run.
    let ps = vec![passage(
        1,
        "İİİ Only the Manager approves leave of up to 3 days; İstanbul staff: 5 days. 第一条 İ 员工不得兼职。",
    )];
    for claim in [
        "İİİ the Manager approves leave of up to 3 days for İstanbul and sick leave [1].",
        "İstanbul staff get 5 days [1].",
        "员工İ可以兼职[1]。",
        "ÅÅÅ İ 3 DAYS only, PEOPLE OPS approves [1]",
    ] {
        let v = check(claim, &ps);
        assert!(!v.is_empty(), "{claim}");
    }
}

#[test]
fn a_number_given_to_another_item_of_a_list_is_flagged() {
    let law = vec![passage(
        1,
        "（一）从工伤保险基金按伤残等级支付一次性伤残补助金，标准为：五级伤残为18个月的本人工资，六级伤残为16个月的本人工资；",
    )];
    let (v, reasons, _) = judged("六级伤残的一次性伤残补助金是18个月的本人工资。", &law);
    assert_eq!(v, Verdict::Unsupported, "{reasons:?}");
    let (v, reasons, _) = judged("五级伤残的一次性伤残补助金是18个月的本人工资。", &law);
    assert_eq!(v, Verdict::Supported, "{reasons:?}");
}

#[test]
fn a_sentence_of_two_statements_is_judged_statement_by_statement() {
    let law = vec![passage(
        1,
        "第七条 女职工生育享受98天产假，其中产前可以休假15天；难产的，增加产假15天；生育多胞胎的，每多生育1个婴儿，增加产假15天。",
    )];
    let (v, reasons, _) = judged("难产的再增加15天，多胞胎每多生1个婴儿也增加15天。", &law);
    assert_eq!(v, Verdict::Supported, "{reasons:?}");
    let arbitration = vec![passage(
        1,
        "第三十五条 仲裁庭应当在开庭五日前，将开庭日期、地点书面通知双方当事人。当事人有正当理由的，可以在开庭三日前请求延期开庭。",
    )];
    let (v, reasons, _) = judged(
        "仲裁庭提前三天书面通知开庭日期和地点，当事人想延期开庭的，要在开庭五天前提出。",
        &arbitration,
    );
    assert_eq!(
        v,
        Verdict::Unsupported,
        "two tiers' numbers swapped: {reasons:?}"
    );
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("三天") && r.contains("五日") && r.contains("仲裁庭")),
        "the reason says whose number 三天 is and what 仲裁庭's is: {reasons:?}"
    );
}

#[test]
fn a_claim_that_calls_one_condition_enough_drops_the_others() {
    let law = vec![passage(
        1,
        "第二十七条 用人单位濒临破产进行法定整顿期间或者生产经营状况发生严重困难，确需裁减人员的，应当提前三十日向工会或者全体职工说明情况，听取工会或者职工的意见，经向劳动行政部门报告后，可以裁减人员。",
    )];
    let (v, reasons, _) = judged(
        "用人单位只要提前三十日向工会或全体职工说明情况，就可以裁减人员。",
        &law,
    );
    assert_eq!(v, Verdict::PartiallySupported, "{reasons:?}");
    assert!(
        reasons.iter().any(|r| r.contains("只要")),
        "the reason names the word that calls one condition enough: {reasons:?}"
    );
    assert!(
        reasons.iter().any(|r| r.contains("濒临破产")),
        "and the conditions the sentence leaves out: {reasons:?}"
    );
}

#[test]
fn a_numbered_list_is_one_claim_an_item_and_its_markers_are_no_numbers() {
    // As a model writes it: each item on its own line, no full stop between them.
    let answer = "1. Employees receive 12 weeks of paid parental leave [2]\n2. Leave does not require manager approval [2]\n- Reports are due within 30 days [1]";
    let v = check(answer, &sources());
    let texts: Vec<&str> = v.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "Employees receive 12 weeks of paid parental leave",
            "Leave does not require manager approval",
            "Reports are due within 30 days"
        ]
    );
    assert_eq!(v[0].verdict, Verdict::Supported, "{:?}", v[0].reasons);
    assert_eq!(v[1].verdict, Verdict::Supported, "{:?}", v[1].reasons);
    assert!(
        v.iter().all(|s| !s
            .reasons
            .iter()
            .any(|r| r.starts_with("1 ") || r.starts_with("2 "))),
        "a list number is not a claimed number: {v:?}"
    );
}

#[test]
fn hard_wrapped_lines_and_number_labels_stay_in_their_sentence() {
    let v = check(
        "单笔报销金额超过5,000元的，\n须经分管副总经理审批[1]。",
        &sources(),
    );
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].verdict, Verdict::Supported, "{:?}", v[0].reasons);
    assert_eq!(list_marker_len("1.5 times the salary"), 0);
    assert_eq!(list_marker_len("2.1 Birthing parents"), 0);
    assert_eq!(list_marker_len("12) Item"), 4);
    assert_eq!(list_marker_len("(3) Item"), 4);
    assert_eq!(list_marker_len("一、总则"), 0);
    assert_eq!(list_marker_len("2、报销"), 4);
}

/// The colours mean what they say: red only on hard evidence (a value that contradicts
/// the clause, a passage that hardly relates), amber for what the words cannot settle.
#[test]
fn red_is_for_hard_evidence_and_amber_for_what_words_cannot_settle() {
    // A value against the clause's own value of the same kind: red, naming both.
    let (v, reasons, _) = judged(
        "员工因病请假的，须提供二级以上医院出具的病假证明，并提前5个工作日申请。",
        &policy(),
    );
    assert_ne!(v, Verdict::Supported, "{reasons:?}");
    let (v, reasons, span) = judged("请假3天以内的，提前3个工作日申请。", &policy());
    assert_eq!(v, Verdict::Unsupported, "{reasons:?}");
    assert!(
        span.is_some_and(|s| s.contains("1个工作日")),
        "the red span is the clause it contradicts"
    );
    // A number the clause has nothing of its kind to contradict, stated nowhere: the
    // check cannot tell a made-up number from a unit it does not read. Amber, said why.
    let (v, reasons, _) = judged(
        "员工因病请假的，须在2日内提供二级以上医院出具的病假证明。",
        &policy(),
    );
    assert_eq!(v, Verdict::PartiallySupported, "{reasons:?}");
    assert!(reasons.iter().any(|r| r.contains("2日")), "{reasons:?}");
    // A paraphrase sharing few key words, contradicting nothing: amber, not red.
    let (v, reasons, _) = judged("身体不舒服想歇几天，得拿二级以上医院的证明。", &policy());
    assert_eq!(v, Verdict::PartiallySupported, "{reasons:?}");
    // Nothing related: red.
    let (v, _, _) = judged("公司食堂每天中午十一点半开饭。", &policy());
    assert_eq!(v, Verdict::Unsupported);
}
