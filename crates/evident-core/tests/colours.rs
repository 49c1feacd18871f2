//! The colours of the check on real articles of the shared corpus: a mistake is never
//! green, and the reason names what was paired wrongly.
//!
//! The articles are ones that neither `bench/grounding-claims*.jsonl` nor colloquial-dev
//! quotes; the claims were written here, for these tests, in the shapes issue 29 names
//! (a number of another tier, an actor given another's duty, a Chinese numeral inside
//! a longer one). The documents are read from `../shared/eval` at test time and
//! imported into a real database.

mod common;

use evident_core::extract::pdf::PdfReader;
use evident_core::grounding::{SentenceVerdict, Verdict, check};
use evident_core::import::{ImportOptions, Importer};
use evident_core::search::{Aliases, Passage, SearchOptions, search};
use evident_core::store::Store;

const LAWS: &[&str] = &[
    "zh-laws/社会保险法(2018-12-29).md",
    "zh-laws/劳动争议调解仲裁法(2007-12-29).md",
];

fn library(dir: &std::path::Path) -> Store {
    let mut store = Store::open(&dir.join("colours.sqlite3")).expect("database opens");
    let corpus = common::eval_dir().join("corpus");
    let files: Vec<_> = LAWS.iter().map(|l| corpus.join(l)).collect();
    Importer::new(ImportOptions::with_reader(PdfReader::InProcess))
        .run(&mut store, &files, &mut |_| {})
        .expect("the laws import");
    store
}

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The top 8 passages `text` retrieves, as an answer's sentences are checked against.
fn retrieved(store: &Store, text: &str) -> Vec<Passage> {
    let options = SearchOptions {
        k: 8,
        answer_line: Some(0.0),
        ..SearchOptions::default()
    };
    search(store, text, &Aliases::default(), &options)
        .expect("search runs")
        .passages
}

/// Checks `claim` as an answer would be checked: the passages its words retrieve, the
/// claim citing the one that holds `source` (the article it was written from).
fn judged(store: &Store, claim: &str, source: &str) -> SentenceVerdict {
    let mut passages = retrieved(store, claim);
    if !passages
        .iter()
        .any(|p| squash(&p.text).contains(&squash(source)))
    {
        let holder = retrieved(store, source)
            .into_iter()
            .find(|p| squash(&p.text).contains(&squash(source)))
            .expect("the source article is retrieved by its own words");
        passages.truncate(7);
        passages.push(holder);
    }
    for (i, p) in passages.iter_mut().enumerate() {
        p.n = i + 1;
    }
    let n = passages
        .iter()
        .find(|p| squash(&p.text).contains(&squash(source)))
        .map(|p| p.n)
        .expect("the source is among the passages");
    let mut v = check(&format!("{claim}[{n}]"), &passages);
    assert_eq!(v.len(), 1, "one sentence: {claim}");
    v.remove(0)
}

#[test]
fn numbers_stand_with_their_own_words_and_actors_with_their_duties() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = library(dir.path());

    // 社会保险法 第五十七条: 三十日 for the employer's registration, 十五日 for the
    // agency's review.
    let art57 = "社会保险经办机构应当自收到申请之日起十五日内予以审核，发给社会保险登记证件。";
    let v = judged(
        &store,
        "社会保险经办机构应当自收到申请之日起三十日内予以审核，发给社会保险登记证件。",
        art57,
    );
    assert_eq!(v.verdict, Verdict::Unsupported, "{:?}", v.reasons);
    assert!(
        v.reasons.iter().any(|r| r.contains("十五日")),
        "the reason names the agency's own deadline: {:?}",
        v.reasons
    );
    // The same sentence without a citation, as "Check a text" judges it against what
    // its own words retrieve: a passage sharing few key words is no support to set
    // against the article that contradicts it.
    let claim = "社会保险经办机构应当自收到申请之日起三十日内予以审核，发给社会保险登记证件。";
    let v = check(claim, &retrieved(&store, claim));
    assert_eq!(v[0].verdict, Verdict::Unsupported, "{:?}", v[0].reasons);
    let v = judged(
        &store,
        "社会保险经办机构收到申请后，要在十五天内审核并发给社会保险登记证件。",
        art57,
    );
    assert_eq!(v.verdict, Verdict::Supported, "{:?}", v.reasons);
    let span = v.support.map(|s| s.span.text).unwrap_or_default();
    assert!(
        span.contains("十五日"),
        "a green sentence's span holds its number: {span}"
    );

    // 第五十八条: the agency assesses the contributions of an employer that did not
    // register; the employer does not assess its own.
    let art58 = "未办理社会保险登记的，由社会保险经办机构核定其应当缴纳的社会保险费。";
    let v = judged(
        &store,
        "未办理社会保险登记的，由用人单位核定其应当缴纳的社会保险费。",
        art58,
    );
    assert_ne!(v.verdict, Verdict::Supported, "{:?}", v.reasons);
    assert!(
        v.reasons
            .iter()
            .any(|r| r.contains("用人单位") && r.contains("经办机构")),
        "the reason names both actors: {:?}",
        v.reasons
    );
    let v = judged(
        &store,
        "没办社会保险登记的，由社会保险经办机构核定其应当缴纳的社会保险费。",
        art58,
    );
    assert_eq!(v.verdict, Verdict::Supported, "{:?}", v.reasons);

    // A word of scope the article does not use: amber, naming the word.
    let v = judged(
        &store,
        "只有未办理社会保险登记的，才由社会保险经办机构核定其应当缴纳的社会保险费。",
        art58,
    );
    assert_eq!(v.verdict, Verdict::PartiallySupported, "{:?}", v.reasons);
    assert!(
        v.reasons.iter().any(|r| r.contains("只有")),
        "{:?}",
        v.reasons
    );

    // 劳动争议调解仲裁法 第二十九条: 五日, which 十五日 contains.
    let art29 =
        "劳动争议仲裁委员会收到仲裁申请之日起五日内，认为符合受理条件的，应当受理，并通知申请人";
    let v = judged(
        &store,
        "劳动争议仲裁委员会收到仲裁申请之日起十五日内，认为符合受理条件的，应当受理。",
        art29,
    );
    assert_eq!(v.verdict, Verdict::Unsupported, "{:?}", v.reasons);
    assert!(
        v.reasons.iter().any(|r| r.contains("十五日")),
        "{:?}",
        v.reasons
    );
    let v = judged(
        &store,
        "仲裁委员会收到仲裁申请五日内，认为符合受理条件的，应当受理并通知申请人。",
        art29,
    );
    assert_eq!(v.verdict, Verdict::Supported, "{:?}", v.reasons);
}

#[test]
fn each_part_of_a_rule_keeps_its_own_duty_or_permission() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = library(dir.path());

    // 劳动争议调解仲裁法 第二十四条 permits (当事人可以委托代理人) and then obliges
    // (委托他人…应当…提交委托书): a claim about the duty is judged by the part that
    // states it, not by the permission beside it.
    let art24 = "当事人可以委托代理人参加仲裁活动。委托他人参加仲裁活动，应当向劳动争议仲裁委员会提交有委托人签名或者盖章的委托书，委托书应当载明委托事项和权限";
    let v = judged(
        &store,
        "当事人委托代理人参加仲裁活动，委托书须载明委托事项和权限。",
        art24,
    );
    assert_eq!(v.verdict, Verdict::Supported, "{:?}", v.reasons);
    // The permission made a duty: red, naming both words.
    let v = judged(&store, "当事人必须委托代理人参加仲裁活动。", art24);
    assert_eq!(v.verdict, Verdict::Unsupported, "{:?}", v.reasons);
    // Uncited, as "Check a text" judges it: another article sharing some of its words
    // is partial support at best, no reason to soften the article that contradicts it.
    let claim = "当事人必须委托代理人参加仲裁活动。";
    let uncited = check(claim, &retrieved(&store, claim));
    assert_eq!(
        uncited[0].verdict,
        Verdict::Unsupported,
        "{:?}",
        uncited[0].reasons
    );
    let shown = uncited[0]
        .support
        .as_ref()
        .map(|s| s.span.text.clone())
        .unwrap_or_default();
    assert!(
        squash(&shown).contains("当事人可以委托代理人参加仲裁活动"),
        "a red sentence shows the clause it contradicts: {shown}"
    );
    assert!(
        v.reasons
            .iter()
            .any(|r| r.contains("可以") && r.contains("必须")),
        "{:?}",
        v.reasons
    );
}

#[test]
fn whoever_stands_in_the_doers_slot_must_be_the_sources() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = library(dir.path());

    // 劳动争议调解仲裁法 第十二条: the mediation body records an oral application; the
    // applicant is only named in what it records.
    let art12 = "口头申请的，调解组织应当当场记录申请人基本情况、申请调解的争议事项、理由和时间。";
    let v = judged(
        &store,
        "口头申请调解的，由申请人当场记录基本情况、争议事项、理由和时间。",
        art12,
    );
    assert_eq!(v.verdict, Verdict::Unsupported, "{:?}", v.reasons);
    assert!(
        v.reasons
            .iter()
            .any(|r| r.contains("申请人") && r.contains("调解组织")),
        "the reason names both doers: {:?}",
        v.reasons
    );
    let v = judged(
        &store,
        "口头申请的，调解组织应当当场记录申请人基本情况、申请调解的争议事项、理由和时间。",
        art12,
    );
    assert_eq!(v.verdict, Verdict::Supported, "{:?}", v.reasons);
}

#[test]
fn a_position_in_a_numbered_list_belongs_to_its_own_item() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = library(dir.path());

    // 劳动争议调解仲裁法 第二条 lists the disputes it covers, (一) to (六).
    let art2 = "（三）因除名、辞退和辞职、离职发生的争议";
    let v = judged(
        &store,
        "劳动争议调解仲裁法适用的第二项争议，是因除名、辞退和辞职、离职发生的争议。",
        art2,
    );
    assert_eq!(v.verdict, Verdict::Unsupported, "{:?}", v.reasons);
    assert!(
        v.reasons
            .iter()
            .any(|r| r.contains("第二") && r.contains("（三）")),
        "the reason names the claim's position and the item's own: {:?}",
        v.reasons
    );
}
