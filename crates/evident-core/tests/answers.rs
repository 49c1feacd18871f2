//! Retrieval, answers and grounding on a real SQLite index of the sample documents and
//! the Chinese labour laws from `../shared/eval/corpus`.

mod common;

use std::path::{Path, PathBuf};

use evident_core::Error;
use evident_core::answer::{AskOptions, Status, ask, check_text};
use evident_core::grounding::Verdict;
use evident_core::import::{ImportOptions, Importer};
use evident_core::search::{Aliases, SearchOptions, search};
use evident_core::store::Store;

fn samples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples")
}

fn index(dir: &Path) -> Store {
    let mut store = Store::open(&dir.join("index.sqlite3")).expect("database opens");
    let laws = common::eval_dir().join("corpus/zh-laws");
    Importer::new(ImportOptions::with_reader(
        evident_core::extract::pdf::PdfReader::InProcess,
    ))
    .run(&mut store, &[samples(), laws], &mut |_| {})
    .expect("import runs");
    store
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

#[test]
fn the_reimbursement_question_is_answered_from_the_policy_with_a_checked_citation() {
    let dir = tmp();
    let store = index(dir.path());
    let q = "单笔报销超过多少需要分管副总审批？";
    let result =
        search(&store, q, &Aliases::default(), &SearchOptions::default()).expect("search runs");
    assert!(!result.not_found, "{:?}", result.not_found_reason);
    let top = &result.passages[0];
    assert!(
        top.doc_path.ends_with("报销与请假制度.md"),
        "the policy ranks first, not a law: {}",
        top.doc_path.display()
    );
    assert!(
        top.highlight.text.contains("20,000"),
        "{}",
        top.highlight.text
    );
    // The highlight's document offsets point at exactly the highlighted text.
    let text: Vec<char> = store
        .document_text(top.doc_id)
        .expect("text")
        .chars()
        .collect();
    let span: String = text[top.highlight.char_start as usize..top.highlight.char_end as usize]
        .iter()
        .collect();
    assert_eq!(span, top.highlight.text);

    let answer = ask(&store, q, &Aliases::default(), &AskOptions::default()).expect("ask runs");
    assert_eq!(answer.status, Status::Answered);
    let first = &answer.sentences[0];
    assert!(
        first.text.contains("20,000"),
        "conclusion first: {}",
        first.text
    );
    assert_eq!(first.citations, [1]);
    assert_eq!(first.verdict, Verdict::Supported, "{:?}", first.reasons);
    assert!(answer.text.contains("[1]"));
    assert_eq!(answer.sources[0].n, 1);
}

#[test]
fn an_english_question_finds_the_handbook_across_inflections() {
    let dir = tmp();
    let store = index(dir.path());
    let answer = ask(
        &store,
        "How many weeks of paid parental leave do birthing parents receive?",
        &Aliases::default(),
        &AskOptions::default(),
    )
    .expect("ask runs");
    assert_eq!(answer.status, Status::Answered);
    assert!(
        answer.sentences.iter().any(|s| s.text.contains("16 weeks")),
        "{}",
        answer.text
    );
    assert!(
        answer
            .sentences
            .iter()
            .all(|s| s.verdict == Verdict::Supported)
    );
}

#[test]
fn a_question_the_documents_do_not_answer_is_never_answered_and_says_why() {
    let dir = tmp();
    let store = index(dir.path());
    let ask_it =
        |q: &str| ask(&store, q, &Aliases::default(), &AskOptions::default()).expect("ask runs");
    // Nothing in common: not found, and nothing shown as an answer.
    let answer = ask_it("What is the boiling point of tungsten?");
    assert_eq!(answer.status, Status::NotFound);
    assert!(answer.sentences.is_empty() && answer.text.is_empty());
    assert!(answer.not_found_reason.is_some());
    // Only 公司 in common (食堂 and 开门 are in no document): keyword search has no
    // other sign of the subject, so the closest passages are at best uncertain, with
    // the reason, however sure the ranker is of its sentence.
    let answer = ask_it("公司食堂几点开门？");
    assert_eq!(answer.status, Status::Uncertain, "{}", answer.text);
    assert!(
        answer.evidence.terms_found < evident_core::search::outcome::KEYWORD_TERMS_FLOOR,
        "{:?}",
        answer.evidence
    );
    assert!(answer.reason.is_some(), "says why it is not an answer");
}

#[test]
fn a_place_the_documents_never_mention_makes_an_answer_uncertain() {
    let dir = tmp();
    let store = index(dir.path());
    let q = "我在深圳上班，单笔报销超过多少需要分管副总审批？";
    let answer = ask(&store, q, &Aliases::default(), &AskOptions::default()).expect("ask runs");
    assert_eq!(answer.status, Status::Uncertain, "{}", answer.text);
    assert_eq!(answer.evidence.unmentioned, ["深圳"]);
    assert!(
        answer
            .not_found_reason
            .as_deref()
            .is_some_and(|r| r.contains("深圳")),
        "{:?}",
        answer.not_found_reason
    );
    assert!(
        answer.sentences.iter().any(|s| s.text.contains("20,000")),
        "the closest passages are still shown: {}",
        answer.text
    );
}

#[test]
fn a_short_question_gets_its_rule_without_unrelated_ones_or_a_false_conflict() {
    let dir = tmp();
    let store = index(dir.path());
    let answer = ask(
        &store,
        "试用期最长多久？",
        &Aliases::default(),
        &AskOptions::default(),
    )
    .expect("ask runs");
    assert!(
        answer.sentences[0].text.contains("试用期"),
        "{}",
        answer.text
    );
    assert!(
        !answer.text.contains("支付周期"),
        "no rule about pay periods: {}",
        answer.text
    );
    assert!(
        !answer
            .note_codes
            .iter()
            .any(|n| matches!(n, evident_core::message::Message::SourcesDiffer { .. })),
        "six months and fifteen days are two rules, not a conflict: {:?}",
        answer.notes
    );
}

#[test]
fn an_unused_leave_question_leads_with_the_rate_that_answers_it() {
    let dir = tmp();
    let store = index(dir.path());
    let answer = ask(
        &store,
        "年假没休完公司怎么补偿？",
        // As the app and the CLI ask: with the built-in synonyms (年假 = 年休假).
        &Aliases::builtin(),
        &AskOptions::default(),
    )
    .expect("ask runs");
    let lead = &answer.sentences[0].text;
    assert!(
        lead.contains("300%") && lead.contains("应休未休"),
        "the sentence that says how unused leave is paid comes first, not a clause label's \
         number or a scheduling rule: {}",
        answer.text
    );
}

#[test]
fn an_everyday_question_is_answered_with_the_tier_its_situation_falls_in() {
    let dir = tmp();
    let store = index(dir.path());
    // 满十二年 is twelve years, in "已满10年不满20年的"; 一年 is "per year", no situation.
    let q = "我工作满十二年了，一年能休几天年假？";
    let answer = ask(&store, q, &Aliases::builtin(), &AskOptions::default()).expect("ask runs");
    assert_eq!(answer.status, Status::Answered, "{}", answer.text);
    assert_eq!(
        answer.sentences[0].text, "已满10年不满20年的，年休假10天；",
        "the tier twelve years fall in leads, not the first tier: {}",
        answer.text
    );
    assert!(
        answer.evidence.fit.is_some_and(|p| p > 0.0 && p <= 1.0),
        "the outcome says how sure it is: {:?}",
        answer.evidence.fit
    );
    // The showcase shares few key words with its clause (三万块, 谁批准, 能报): keyword
    // search alone chooses the tier 30,000 falls in, but has no sign beyond those words
    // that the documents treat the question, so it says it is unsure rather than
    // answering (with meaning search: tests/gemma.rs).
    let q = "我花了三万块招待客户，这笔钱要谁批准才能报？";
    let answer = ask(&store, q, &Aliases::builtin(), &AskOptions::default()).expect("ask runs");
    assert_eq!(
        answer.sentences[0].text, "单笔报销超过20,000元的，须经分管副总经理审批。",
        "the tier 30,000 falls in comes first"
    );
    assert_ne!(answer.status, Status::NotFound, "{}", answer.text);
}

#[test]
fn an_off_topic_question_is_not_answered_on_a_few_common_words() {
    let dir = tmp();
    let store = index(dir.path());
    // Only 公司 is in the documents; 年会, 抽奖 and 一等奖 are in none.
    let q = "公司年会抽奖的一等奖是什么？";
    let answer = ask(&store, q, &Aliases::builtin(), &AskOptions::default()).expect("ask runs");
    assert_ne!(answer.status, Status::Answered, "{}", answer.text);
    assert_eq!(
        answer.reason,
        Some(evident_core::message::Message::FewQuestionWords),
        "says why: {:?}",
        answer.evidence
    );
}

#[test]
fn every_view_of_an_unanswered_question_shows_the_sentence_the_composer_chose() {
    let dir = tmp();
    let store = index(dir.path());
    let q = "我在深圳上班，单笔报销超过多少需要分管副总审批？";
    let options = AskOptions::default();
    let result = search(&store, q, &Aliases::builtin(), &options.search).expect("search runs");
    let answer = ask(&store, q, &Aliases::builtin(), &options).expect("ask runs");
    assert_ne!(answer.status, Status::Answered);
    assert!(!answer.sources.is_empty());
    for source in &answer.sources {
        // The composer's best sentence of this passage, as its ranker ordered them.
        let chosen = result
            .sentences
            .iter()
            .find(|c| c.n == source.n)
            .expect("every passage has a candidate");
        let unit = &source.text[chosen.span.0..chosen.span.1];
        assert_eq!(
            source.highlight.text, unit,
            "passage [{}] is shown with the line the composer chose for it",
            source.n
        );
    }
    assert!(
        answer.sources[0].highlight.text.contains("20,000"),
        "the line shown for the policy is the tier asked about, not a neighbouring one: {}",
        answer.sources[0].highlight.text
    );
}

#[test]
fn heading_paths_do_not_repeat_the_title() {
    let dir = tmp();
    let store = index(dir.path());
    let answer = ask(
        &store,
        "单笔报销超过多少需要分管副总审批？",
        &Aliases::default(),
        &AskOptions::default(),
    )
    .expect("ask runs");
    let source = &answer.sources[0];
    assert_eq!(source.title, "员工费用报销与请假管理制度");
    assert_eq!(source.heading, "第二章 费用报销");
}

#[test]
fn failure_modes_are_answers_not_errors() {
    let dir = tmp();
    // The empty index.
    let empty = Store::open(&dir.path().join("empty.sqlite3")).expect("opens");
    let r = search(
        &empty,
        "年假有几天",
        &Aliases::default(),
        &SearchOptions::default(),
    )
    .expect("an empty index is not an error");
    assert!(r.not_found && r.passages.is_empty());

    let store = index(dir.path());
    let opts = SearchOptions::default();
    // k = 0 is rejected with a clear message.
    let bad = SearchOptions {
        k: 0,
        ..opts.clone()
    };
    match search(&store, "报销", &Aliases::default(), &bad) {
        Err(Error::InvalidConfig(m)) => assert!(m.contains("k must be between 1 and"), "{m}"),
        other => panic!("k = 0 must be rejected, got {other:?}"),
    }
    // Only stop words.
    let r = search(&store, "是什么？怎么样呢？", &Aliases::default(), &opts).expect("runs");
    assert!(r.not_found, "nothing to look for is 'not found'");
    // FTS syntax is text.
    for q in ["\"AND OR NEAR(", "报销 NOT 审批", "col:审批 *", "^报销"] {
        search(&store, q, &Aliases::default(), &opts)
            .unwrap_or_else(|e| panic!("{q:?} must not be FTS syntax: {e}"));
    }
    // A 10,000-character question.
    let long = "单笔报销超过多少需要审批".repeat(900);
    let r = search(&store, &long, &Aliases::default(), &opts).expect("a long question runs");
    assert!(r.query.truncated, "the cut is visible");
}

#[test]
fn aliases_find_what_the_company_calls_it_without_reindexing() {
    let dir = tmp();
    let store = index(dir.path());
    let q = "报账超过多少要副总批";
    let (aliases, warnings) = Aliases::parse("报账 = 报销\n批 = 审批\n");
    assert!(warnings.is_empty());
    let with = search(&store, q, &aliases, &SearchOptions::default()).expect("runs");
    assert!(
        with.passages
            .first()
            .is_some_and(|p| p.doc_path.ends_with("报销与请假制度.md")),
        "the alias leads to the reimbursement policy"
    );
    assert!(with.top_coverage > 0.9, "{}", with.top_coverage);
}

#[test]
fn a_written_answer_is_checked_against_the_numbered_search_results() {
    let dir = tmp();
    let store = index(dir.path());
    let q = "单笔报销超过多少需要分管副总审批？";
    let checked = check_text(
        &store,
        q,
        "单笔报销超过20,000元须经分管副总经理审批[1]。单笔报销超过50,000元须经总经理审批[1]。",
        &Aliases::default(),
        &SearchOptions::default(),
    )
    .expect("check runs");
    assert_eq!(checked.sentences.len(), 2);
    assert_eq!(checked.sentences[0].verdict, Verdict::Supported);
    assert_ne!(
        checked.sentences[1].verdict,
        Verdict::Supported,
        "50,000 is invented"
    );
    assert!(
        checked.sentences[1]
            .reasons
            .iter()
            .any(|r| r.contains("50,000")),
        "the amount as written: {:?}",
        checked.sentences[1].reasons
    );
}

#[test]
fn a_pasted_text_is_checked_sentence_by_sentence_against_its_own_passages() {
    let dir = tmp();
    let store = index(dir.path());
    let text = "各位同事：单笔报销超过50,000元的，须经分管副总经理审批。\
                Birthing parents get 16 weeks of paid parental leave[7]. \
                公司每年组织两次团建旅游。";
    let checked = evident_core::answer::pasted::check_pasted(
        &store,
        text,
        &Aliases::default(),
        &SearchOptions::default(),
    )
    .expect("check runs");
    let verdicts: Vec<_> = checked.sentences.iter().map(|s| s.verdict).collect();
    assert_eq!(
        verdicts,
        vec![
            Verdict::Unsupported,
            Verdict::Supported,
            Verdict::Unsupported
        ],
        "{:#?}",
        checked.sentences
    );
    let wrong = &checked.sentences[0];
    assert!(
        wrong.reasons.iter().any(|r| r.contains("50,000")),
        "the wrong amount is named: {:?}",
        wrong.reasons
    );
    let leave = &checked.sentences[1];
    assert!(
        leave.citations.is_empty(),
        "another tool's [7] is not read as ours"
    );
    let n = leave.support.as_ref().expect("a passage supports it").n;
    let source = checked
        .sources
        .iter()
        .find(|s| s.n == n)
        .expect("the supporting passage is listed");
    assert!(source.text.contains("16 weeks"), "{}", source.text);
    let numbers: Vec<usize> = checked.sources.iter().map(|s| s.n).collect();
    assert_eq!(
        numbers,
        (1..=checked.sources.len()).collect::<Vec<_>>(),
        "one numbering, no passage twice"
    );
    let ids: std::collections::HashSet<_> = checked.sources.iter().map(|s| s.chunk_id).collect();
    assert_eq!(ids.len(), checked.sources.len());
    assert_eq!(checked.unchecked, 0);
}

#[test]
fn the_widest_window_and_no_floor_answer_without_a_panic() {
    let dir = tmp();
    let store = index(dir.path());
    for k in [1, 8, 12, evident_core::search::MAX_K] {
        let options = AskOptions {
            search: SearchOptions {
                k,
                answer_line: Some(0.0),
                ..SearchOptions::default()
            },
            ..AskOptions::default()
        };
        for q in [
            "单笔报销超过多少需要分管副总审批？",
            "的",
            "？？？",
            "zzzz qqqq",
            "How many days?",
        ] {
            let answer = ask(&store, q, &Aliases::default(), &options)
                .unwrap_or_else(|e| panic!("k={k} {q:?}: {e}"));
            assert!(answer.sources.len() <= k, "k={k} {q:?}");
        }
    }
    let too_many = AskOptions {
        search: SearchOptions {
            k: evident_core::search::MAX_K + 1,
            ..SearchOptions::default()
        },
        ..AskOptions::default()
    };
    let err = ask(&store, "病假", &Aliases::default(), &too_many).expect_err("k is bounded");
    assert!(err.to_string().contains("k must be between 1 and"), "{err}");
}
