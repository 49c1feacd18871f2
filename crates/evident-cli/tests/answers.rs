//! The answering commands' contract (`search`, `ask`, `check`), through the real binary.

mod common;

use std::path::{Path, PathBuf};

use common::{evident, json, samples};

fn imported(dir: &Path) -> PathBuf {
    let db = dir.join("evident.sqlite3");
    let samples = samples();
    let out = evident(&db, &["import", samples.to_str().expect("utf-8 path")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    db
}

#[test]
fn ask_search_and_check_keep_their_json_contract() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = imported(dir.path());
    let q = "单笔报销超过多少需要分管副总审批？";

    let s = json(&db, &["search", q, "--k", "3", "--json"]);
    assert_eq!(s["not_found"], false);
    assert_eq!(s["status"], "answered");
    assert_eq!(s["retrieval"]["used"], "keyword");
    let passages = s["passages"].as_array().expect("passages");
    assert!(!passages.is_empty() && passages.len() <= 3);
    for field in [
        "n",
        "chunk_id",
        "doc_path",
        "title",
        "heading_path",
        "page_start",
        "page_end",
        "char_start",
        "char_end",
        "highlight",
        "score",
    ] {
        assert!(
            !passages[0][field].is_null(),
            "search passages carry {field}"
        );
    }

    let a = json(&db, &["ask", q, "--json"]);
    assert_eq!(a["status"], "answered");
    let sentence = &a["sentences"][0];
    for field in ["text", "citations", "verdict", "reasons"] {
        assert!(!sentence[field].is_null(), "answer sentences carry {field}");
    }
    assert_eq!(sentence["verdict"], "supported");
    let source = &a["sources"][0];
    for field in [
        "n",
        "chunk_id",
        "doc_path",
        "title",
        "heading",
        "page_start",
        "page_end",
        "text",
        "highlight",
    ] {
        assert!(!source[field].is_null(), "sources carry {field}");
    }
    assert!(a["timings_ms"]["total"].as_f64().is_some());

    let answer = dir.path().join("answer.md");
    std::fs::write(
        &answer,
        "单笔报销超过20,000元的，须经分管副总经理审批[1]。报销无需任何审批[1]。病假工资按100%发放[7]。",
    )
    .expect("write answer");
    let c = json(
        &db,
        &[
            "check",
            "--question",
            q,
            "--answer-file",
            answer.to_str().expect("utf-8"),
            "--json",
        ],
    );
    let verdicts: Vec<&str> = c["sentences"]
        .as_array()
        .expect("sentences")
        .iter()
        .map(|s| s["verdict"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(verdicts, ["supported", "unsupported", "unsupported"], "{c}");
    assert!(
        c["sentences"][2]["reasons"]
            .to_string()
            .contains("cites [7], which was not retrieved")
    );
    assert_eq!(
        c["sentences"][2]["reason_codes"][0],
        serde_json::json!({"code": "not_retrieved", "params": {"n": 7}}),
        "the reason as a code for the user's language: {c}"
    );
    // The human output says it in the language asked for.
    for (lang, expected) in [
        ("zh-CN", "引用了 [7]，但它不在检索结果中"),
        ("en", "cites [7], which was not retrieved"),
    ] {
        let out = evident(
            &db,
            &[
                "check",
                "--question",
                q,
                "--answer-file",
                answer.to_str().expect("utf-8"),
                "--lang",
                lang,
            ],
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(expected), "{lang}: {text}");
    }
}

#[test]
fn bad_retrieval_options_fail_with_one_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = imported(dir.path());
    let out = evident(&db, &["search", "报销", "--k", "0"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("k must be between 1 and 100"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    let out = evident(&db, &["search", "报销", "--k", "100000"]);
    assert!(!out.status.success(), "an absurd k is refused, not served");
    let out = evident(&db, &["ask", "年假", "--floor", "1.5"]);
    assert!(!out.status.success());
}

fn stdout(out: &std::process::Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn ask_reads_like_the_window_cited_sources_first_and_the_same_text_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = imported(dir.path());
    // The handbook is imported as PDF and as TXT: the cited passage is in both.
    let q = "How many weeks of parental leave do birthing parents get?";
    let text = stdout(&evident(&db, &["ask", q, "--lang", "en"]));
    let (answer, sources) = text.split_once("\nSources:\n").expect("a Sources list");
    assert!(answer.contains("16 weeks"), "{answer}");
    let first = sources.lines().next().unwrap_or_default();
    // One entry for the two files, naming both.
    assert!(
        first.contains("employee-handbook.pdf") && first.contains("employee-handbook.txt"),
        "identical passages are shown once, naming every file: {first}"
    );
    assert_eq!(
        sources.matches("Birthing parents receive 16 weeks").count(),
        1,
        "the quote appears once: {sources}"
    );
    // The rest on one line, not as sources of the same weight.
    let q = "单笔报销超过多少需要分管副总审批？";
    let text = stdout(&evident(&db, &["ask", q, "--lang", "en"]));
    let (_, sources) = text.split_once("\nSources:\n").expect("a Sources list");
    let also: Vec<&str> = sources
        .lines()
        .filter(|l| l.starts_with("also retrieved: "))
        .collect();
    assert_eq!(also.len(), 1, "{sources}");
    assert!(
        also[0].contains(" · ") && also[0].contains("--all-sources"),
        "{}",
        also[0]
    );
    assert_eq!(
        sources.lines().filter(|l| l.starts_with("    \"")).count(),
        1,
        "only the cited passage is quoted: {sources}"
    );
    // With --all-sources every passage is listed in full.
    let all = stdout(&evident(&db, &["ask", q, "--lang", "en", "--all-sources"]));
    assert!(
        all.lines().filter(|l| l.starts_with("    \"")).count() >= 3,
        "{all}"
    );
    // Heading paths never repeat the title.
    let search = stdout(&evident(&db, &["search", "报销审批", "--lang", "en"]));
    assert!(
        !search.contains("员工费用报销与请假管理制度 > 员工费用报销与请假管理制度"),
        "{search}"
    );
}

#[test]
fn an_unanswered_question_shows_the_reason_and_the_closest_passages_never_a_sentence() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = imported(dir.path());
    let q = "公司年会抽奖的一等奖是什么？";
    let a = json(&db, &["ask", q, "--json"]);
    assert_ne!(a["status"], "answered", "{a}");
    let text = stdout(&evident(&db, &["ask", q, "--lang", "en"]));
    let head = text
        .lines()
        .find(|l| !l.is_empty() && !l.starts_with("note: "))
        .unwrap_or_default();
    assert!(
        head.starts_with("Uncertain") || head.starts_with("Not found"),
        "the first line says it is not answered, with why: {text}"
    );
    assert!(text.contains("Closest passages (not an answer):"), "{text}");
    assert!(!text.contains("context budget"), "no budget note: {text}");
    // No line of the output is a sentence with a verdict (the answer form).
    assert!(
        !text
            .lines()
            .any(|l| l.trim_start().starts_with(['✓', '◐', '⚠'])),
        "no sentence is shown as an answer: {text}"
    );
    let notes = a["note_codes"].as_array().cloned().unwrap_or_default();
    assert!(
        notes.iter().all(|n| n["code"] != "over_budget"),
        "the JSON carries no budget note either: {notes:?}"
    );
}

#[test]
fn a_file_that_cannot_be_read_is_named_with_the_reason_in_the_locales_language() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("evident.sqlite3");
    let docs = dir.path().join("docs");
    std::fs::create_dir(&docs).expect("mkdir");
    std::fs::write(docs.join("空的.txt"), b"").expect("write");
    std::fs::write(docs.join("草稿.docx"), b"PK\x03\x04 not a zip").expect("write");
    let out = evident(
        &db,
        &["--lang", "zh-CN", "import", docs.to_str().expect("utf-8")],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("空的.txt") && text.contains("文件是空的"),
        "{text}"
    );
    assert!(
        text.contains("草稿.docx") && text.contains("文件已损坏或不是 Word 文档"),
        "{text}"
    );
    assert!(!text.contains("the file is empty"), "{text}");
    // The JSON keeps the English words beside the code.
    let report = json(&db, &["import", docs.to_str().expect("utf-8"), "--json"]);
    let files = report["files"].as_array().cloned().unwrap_or_default();
    let empty = files
        .iter()
        .find(|f| f["path"].as_str().is_some_and(|p| p.ends_with("空的.txt")))
        .expect("the empty file is reported");
    assert_eq!(empty["reason"], "the file is empty");
    assert_eq!(empty["why"]["code"], "empty");
}
