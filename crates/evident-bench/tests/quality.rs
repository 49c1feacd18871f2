//! Quality floors on the real evaluation sets, measured by the real `evident-bench`
//! (`eval`, `grounding`): the benchmarks themselves, and what they must keep showing.

#[path = "../../evident-cli/tests/common/mod.rs"]
mod common;

use std::path::PathBuf;

use common::{eval_dir, evident_bench};

/// Runs `evident-bench eval ARGS --json` without `--db` (so it indexes the set's documents).
fn eval_report(args: &[&std::ffi::OsStr]) -> serde_json::Value {
    let out = std::process::Command::new(common::bench())
        .arg("eval")
        .args(args)
        // Keyword search only, whatever settings the machine has.
        .arg("--no-embed")
        .arg("--json")
        .output()
        .expect("evident-bench runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json")
}

fn hit_at(report: &serde_json::Value, k: u64) -> f64 {
    report["modes"][0]["hit_at"]
        .as_array()
        .and_then(|a| a.iter().find(|p| p[0].as_u64() == Some(k)))
        .and_then(|p| p[1].as_f64())
        .unwrap_or(0.0)
}

#[test]
fn retrieval_quality_holds_on_the_evaluation_sets() {
    let sets = eval_dir().join("datasets");
    // Full sets are measured by `evident-bench eval`; a sample keeps the test quick while
    // still failing on a real regression. Without --db, eval indexes the set's docs/.
    for (set, limit, floor) in [
        ("cmrc2018-dev", "600", 0.98),
        ("drcd-dev", "600", 0.97),
        ("policyqa-test", "600", 0.75),
    ] {
        let questions = sets.join(set).join("questions.jsonl");
        let report = eval_report(&[
            "--questions".as_ref(),
            questions.as_os_str(),
            "--limit".as_ref(),
            limit.as_ref(),
        ]);
        let h5 = hit_at(&report, 5);
        assert!(h5 >= floor, "{set}: hit@5 {h5} fell below {floor}");
    }
}

#[test]
fn the_grounding_check_flags_corruptions_and_passes_faithful_sentences() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("unused.sqlite3");
    let eval = eval_dir();
    let out = evident_bench(
        &db,
        &[
            "grounding",
            "--eval-dir",
            eval.to_str().expect("utf-8"),
            "--limit",
            "120",
            "--json",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let both: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    // The hand-checked held-out claims (never tuned on). The targets (90 % /
    // 10 %) are not met yet; these floors hold what was measured, so that a change
    // that loses ground fails here (see ARCHITECTURE.md, "Grounding").
    let claims = &both["claims"];
    assert_eq!(claims["split"], "all");
    assert!(claims["claims"].as_u64().unwrap_or(0) >= 150, "{claims}");
    let mistaken = claims["mistaken_flagged"].as_f64().unwrap_or(0.0);
    let faithful = claims["faithful_flagged"].as_f64().unwrap_or(1.0);
    assert!(
        mistaken >= 0.73,
        "only {mistaken} of the mistaken claims flagged"
    );
    assert!(
        faithful <= 0.47,
        "{faithful} of the faithful claims flagged"
    );
    // The rule-made corruptions are a regression smoke test (some are made with the
    // checker's own negation reader): they guard against losing what was caught, and
    // say nothing of accuracy, which the hand-checked claims above measure.
    let reports = &both["synthetic"];
    for r in reports.as_array().expect("per language") {
        let detection = r["detection_rate"].as_f64().unwrap_or(0.0);
        let false_flags = r["false_flag_rate"].as_f64().unwrap_or(1.0);
        assert!(
            detection >= 0.95,
            "{}: regression: only {detection} of the rule-made corruptions flagged",
            r["language"]
        );
        assert!(
            false_flags <= 0.05,
            "{}: {false_flags} of faithful claims flagged",
            r["language"]
        );
    }
}

#[test]
fn synonyms_help_colloquial_questions_find_the_legal_wording() {
    let fixture =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/colloquial-zh.jsonl");
    let laws = eval_dir().join("corpus/zh-laws");
    let run = |extra: &[&str]| -> f64 {
        let mut args = vec![
            "--questions".as_ref(),
            fixture.as_os_str(),
            "--docs".as_ref(),
            laws.as_os_str(),
        ];
        args.extend(extra.iter().map(std::ffi::OsStr::new));
        hit_at(&eval_report(&args), 5)
    };
    let without = run(&["--no-synonyms"]);
    let with = run(&[]);
    assert!(with > without, "synonyms must help: {without} -> {with}");
    assert!(with >= 0.6, "hit@5 {with} on colloquial questions");
}

/// The broad synonym lines (公司 = 用人单位, 员工 = 劳动者 = 职工, 上班 = 工作) are kept only
/// because each helps on 40 questions written by someone who never saw the list
/// (`colloquial-zh-blind.jsonl`: everyday questions over the Chinese labour laws, gold
/// quotes checked verbatim). Measured when they were kept, keyword search, hit@5: all
/// lines 0.675, none 0.525; without 公司 0.650, without 员工 0.650, without 上班 0.650.
#[test]
fn each_broad_synonym_line_helps_on_questions_written_without_it_in_view() {
    let blind =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/colloquial-zh-blind.jsonl");
    let laws = eval_dir().join("corpus/zh-laws");
    let run = |extra: &[&str]| -> (f64, f64) {
        let mut args = vec![
            "--questions".as_ref(),
            blind.as_os_str(),
            "--docs".as_ref(),
            laws.as_os_str(),
        ];
        args.extend(extra.iter().map(std::ffi::OsStr::new));
        let report = eval_report(&args);
        (hit_at(&report, 5), hit_at(&report, 10))
    };
    let with = run(&[]);
    let none = run(&["--no-synonyms"]);
    assert!(
        with.0 > none.0,
        "the synonyms help on the blind set: {none:?} -> {with:?}"
    );
    for line in ["公司 = 用人单位", "员工 = 劳动者 = 职工", "上班 = 工作"] {
        let without = run(&["--synonyms-without", line]);
        assert!(
            without.0 < with.0 || (without.0 == with.0 && without.1 < with.1),
            "{line:?} no longer helps (hit@5, hit@10 without it {without:?}, with it {with:?}): \
             measure it on the blind set and drop it if it does not"
        );
    }
}
