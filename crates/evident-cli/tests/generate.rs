//! `evident ask --generate` end to end: the real binary against the real llama.cpp
//! server with SmolLM2-135M on loopback, and against that server stopped.

mod common;

use common::{evident, json, samples};
use evident_core::testing::{LLAMA_MODEL, LlamaServer, free_port};

fn imported() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tmp");
    let db = dir.path().join("db.sqlite3");
    let out = evident(&db, &["import", &samples().to_string_lossy()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (dir, db)
}

const QUESTION: &str = "How many days of annual leave do employees get?";

#[test]
fn a_generated_answer_has_the_extractive_answers_shape_and_every_sentence_checked() {
    let (_dir, db) = imported();
    let llama = LlamaServer::start();
    let args = [
        "ask",
        QUESTION,
        "--generate",
        "--llm-url",
        &llama.url,
        "--llm-model",
        LLAMA_MODEL,
        "--json",
    ];
    let first = json(&db, &args);
    assert_eq!(first["question"], QUESTION);
    let run = &first["generation"];
    assert!(
        run["raw_text"].is_string(),
        "the model's text is kept: {first}"
    );
    assert_eq!(
        run["model"].as_str().map(|m| m.starts_with(LLAMA_MODEL)),
        Some(true)
    );
    // Whichever answer is shown, the reason for it must be true of the model's own text.
    let raw = run["raw_text"].as_str().unwrap_or_default();
    let cites = raw.split('[').skip(1).any(|rest| {
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        !digits.is_empty() && rest[digits.len()..].starts_with(']')
    });
    let numbers: Vec<u64> = first["sources"]
        .as_array()
        .map(|s| s.iter().filter_map(|s| s["n"].as_u64()).collect())
        .unwrap_or_default();
    match first["mode"].as_str() {
        Some("generated") => {
            // Used: the model cited passages, and every citation is one it was given.
            assert!(cites, "a model answer without a citation was used: {raw:?}");
            assert!(first["fallback_reason"].is_null());
            let sentences = first["sentences"].as_array().expect("sentences");
            assert!(!sentences.is_empty() || first["status"] == "not_found");
            for s in sentences {
                assert!(s["verdict"].is_string(), "{s}");
                for c in s["citations"].as_array().into_iter().flatten() {
                    let n = c.as_u64().unwrap_or(0);
                    assert!(
                        numbers.contains(&n) || s["verdict"] == "unsupported",
                        "[{n}] is not among the sources {numbers:?} and is not flagged: {s}"
                    );
                }
            }
        }
        Some("extractive") => {
            // Not used: the reason given must be what is wrong with the model's text.
            let code = first["fallback"]["code"].as_str().unwrap_or_default();
            match code {
                "model_cited_nothing" => assert!(!cites, "said to cite nothing, but: {raw:?}"),
                "model_said_nothing" => assert!(raw.trim().is_empty(), "said to be empty: {raw:?}"),
                "model_failed" | "model_cut_short" => {
                    assert!(first["fallback_reason"].is_string(), "{first}")
                }
                other => panic!("an extractive answer with no true reason ({other:?}): {first}"),
            }
        }
        other => panic!("mode {other:?}"),
    }
    // Temperature 0: the same question gives the same text.
    let second = json(&db, &args);
    assert_eq!(second["generation"]["raw_text"], run["raw_text"]);
}

#[test]
fn a_server_that_is_not_running_gives_the_extractive_answer_and_says_why() {
    let (_dir, db) = imported();
    let url = format!("http://127.0.0.1:{}/v1", free_port());
    let ask = [
        "ask",
        QUESTION,
        "--generate",
        "--llm-url",
        &url,
        "--llm-model",
        "smollm2",
    ];
    let out = evident(&db, &[&ask[..], &["--json"]].concat());
    assert!(
        out.status.success(),
        "a model failure is not a command failure"
    );
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(answer["mode"], "extractive");
    let why = answer["fallback_reason"].as_str().expect("fallback_reason");
    assert!(why.contains(&url), "{why}");
    assert!(
        !answer["sentences"]
            .as_array()
            .expect("sentences")
            .is_empty(),
        "the extractive answer is there"
    );
    // Without --json the reason is said in words.
    let out = evident(&db, &[&["--lang", "en"][..], &ask[..]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("the model's answer failed"), "{text}");
}

#[test]
fn generate_without_a_model_says_how_to_set_one_up() {
    let (_dir, db) = imported();
    let out = evident(&db, &["ask", QUESTION, "--generate"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--llm-model"), "{err}");
}
