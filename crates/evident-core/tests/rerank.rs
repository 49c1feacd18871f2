//! The reranker seam against a scripted rerank server on loopback (no reranker model
//! can be installed where these tests run): the request it is sent, scores that arrive
//! out of order, a model the server does not list, errors, replies that do not add up,
//! a server that never answers, and a server that serves the API at `/rerank` only.
//! Every failure must leave the fused order and say why.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use evident_core::answer::{AskOptions, ask};
use evident_core::message::Message;
use evident_core::model::{ModelServer, Reranker, ServerConfig};
use evident_core::search::{Aliases, Rerank, SearchOptions, SearchResult, search};
use evident_core::store::Store;
use evident_core::testing::{RecordingServer, Request, models_reply};

const MODEL: &str = "bge-reranker-v2-m3";
const QUESTION: &str = "单笔报销超过多少需要分管副总审批？";

fn store(dir: &tempfile::TempDir) -> Store {
    common::sample_store(dir.path(), None).0
}

fn reranker(url: &str) -> ModelServer {
    ModelServer::new(ServerConfig {
        base_url: url.to_owned(),
        model: MODEL.to_owned(),
        api_key: None,
        prompt: None,
    })
    .expect("a usable address")
}

fn options(reranker: ModelServer) -> SearchOptions {
    SearchOptions {
        rerank: Some(Rerank(Arc::new(reranker) as Arc<dyn Reranker>)),
        ..SearchOptions::default()
    }
}

/// The documents and query of a rerank request.
fn body(request: &Request) -> (String, Vec<String>, serde_json::Value) {
    let v: serde_json::Value = serde_json::from_str(&request.body).unwrap_or_default();
    let docs = v["documents"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| d.as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default();
    (v["query"].as_str().unwrap_or_default().to_owned(), docs, v)
}

/// A reranker that likes what holds `favourite` (a raw logit of 8) and dislikes the rest
/// (negative logits, as llama.cpp sends), and replies best first, not in document order.
fn liking(favourite: &'static str) -> impl Fn(&Request, usize) -> (u16, String) {
    move |request, _| {
        if request.line.ends_with("/models") {
            return (200, models_reply(&[MODEL]));
        }
        let (_, docs, _) = body(request);
        let mut results: Vec<(usize, f64)> = docs
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let score = if d.contains(favourite) {
                    8.0
                } else {
                    -3.0 - i as f64
                };
                (i, score)
            })
            .collect();
        results.sort_by(|a, b| b.1.total_cmp(&a.1));
        let results: Vec<serde_json::Value> = results
            .iter()
            .map(|(i, s)| serde_json::json!({"index": i, "relevance_score": s}))
            .collect();
        (
            200,
            serde_json::json!({"model": MODEL, "object": "list", "results": results}).to_string(),
        )
    }
}

fn order(result: &SearchResult) -> Vec<i64> {
    result.passages.iter().map(|p| p.chunk_id).collect()
}

#[test]
fn the_reranker_reads_the_fused_passages_and_its_order_decides() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = store(&dir);
    let aliases = Aliases::builtin();
    let plain = search(&store, QUESTION, &aliases, &SearchOptions::default()).expect("runs");
    // The reranker prefers the sick-leave clause, which keyword search does not put first.
    let server = RecordingServer::start(liking("病假证明"));
    let result = search(
        &store,
        QUESTION,
        &aliases,
        &options(reranker(&server.server.url)),
    )
    .expect("runs");
    assert_eq!(result.retrieval.reranker.as_deref(), Some(MODEL));
    assert!(
        result.retrieval.rerank_note.is_none(),
        "{:?}",
        result.retrieval
    );
    let top = &result.passages[0];
    assert!(
        top.text.contains("病假证明"),
        "the reranker's favourite comes first: {:?}",
        top.text
    );
    assert_eq!(top.why.rerank, Some(1));
    assert_ne!(
        order(&plain)[0],
        top.chunk_id,
        "without the reranker another passage leads, so the order is the reranker's doing"
    );
    let places: Vec<Option<usize>> = result.passages.iter().map(|p| p.why.rerank).collect();
    assert_eq!(
        places,
        (1..=result.passages.len()).map(Some).collect::<Vec<_>>(),
        "passages in the reranker's order, whatever order its reply listed them in"
    );

    let requests = server.requests.lock().expect("lock").clone();
    let rerank: Vec<&Request> = requests
        .iter()
        .filter(|r| r.line == "POST /v1/rerank")
        .collect();
    assert!(!rerank.is_empty(), "{requests:?}");
    let (query, docs, raw) = body(rerank[0]);
    assert_eq!(query, QUESTION);
    assert_eq!(raw["model"], MODEL);
    assert_eq!(raw["top_n"].as_u64(), Some(docs.len() as u64));
    let wide = search(
        &store,
        QUESTION,
        &aliases,
        &SearchOptions {
            k: evident_core::search::rerank::RERANK_CANDIDATES,
            ..SearchOptions::default()
        },
    )
    .expect("runs");
    assert_eq!(
        docs.len(),
        wide.passages.len(),
        "the reranker reads the fused top {} (all there are here), not only the k kept",
        evident_core::search::rerank::RERANK_CANDIDATES
    );
    assert!(
        docs.iter()
            .all(|d| d.starts_with("员工费用报销与请假管理制度")
                || d.starts_with("Employee Handbook")
                || d.contains('\n')),
        "each passage goes with where it stands: {:?}",
        &docs[..2]
    );
}

#[test]
fn the_answer_leads_with_the_sentence_the_reranker_puts_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = store(&dir);
    let aliases = Aliases::builtin();
    let question = "报销审批权限是怎么规定的？";
    let plain = ask(&store, question, &aliases, &AskOptions::default()).expect("asks");
    let favourite = "由部门经理审核后报财务总监审批";
    assert!(
        !plain.sentences[0].text.contains(favourite),
        "without a reranker another sentence leads: {:?}",
        plain.sentences[0].text
    );
    let server = RecordingServer::start(liking(favourite));
    let answer = ask(
        &store,
        question,
        &aliases,
        &AskOptions {
            search: options(reranker(&server.server.url)),
            ..AskOptions::default()
        },
    )
    .expect("asks");
    assert!(
        answer.sentences[0].text.contains(favourite),
        "the reranker read question and sentence together and chose: {:?}",
        answer.sentences
    );
    let sentence_requests = server
        .requests
        .lock()
        .expect("lock")
        .iter()
        .filter(|r| r.line == "POST /v1/rerank")
        .map(|r| body(r).1)
        .filter(|docs| docs.iter().all(|d| !d.contains('\n')))
        .count();
    assert!(
        sentence_requests >= 1,
        "the candidate sentences were reranked too"
    );
}

/// Searches with a reranker served by `script` and checks that the passages keep the
/// fused order, with a note whose English words hold `why`.
fn falls_back(
    script: impl Fn(&Request, usize) -> (u16, String) + Send + Sync + 'static,
    why: &str,
) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = store(&dir);
    let aliases = Aliases::builtin();
    let plain = search(&store, QUESTION, &aliases, &SearchOptions::default()).expect("runs");
    let server = RecordingServer::start(script);
    let server_url = server.server.url.clone();
    let client = reranker(&server_url).with_rerank_timeout(Duration::from_millis(800));
    let started = Instant::now();
    let result = search(&store, QUESTION, &aliases, &options(client)).expect("search still works");
    assert_eq!(order(&result), order(&plain), "the fused order stands");
    assert!(result.passages.iter().all(|p| p.why.rerank.is_none()));
    assert_eq!(result.retrieval.reranker, None);
    let note = match &result.retrieval.rerank_note {
        Some(m @ Message::RerankUnusable { .. }) => m.text(evident_core::message::Lang::En),
        other => panic!("a reason is given: {other:?}"),
    };
    assert!(note.contains(why), "{note:?} should say {why:?}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "a failing reranker does not hold the search up ({:?})",
        started.elapsed()
    );
    // The answer falls back the same way, without asking the failed reranker again.
    let before = server.server.count();
    let answer = ask(
        &store,
        QUESTION,
        &aliases,
        &AskOptions {
            search: options(reranker(&server_url).with_rerank_timeout(Duration::from_millis(800))),
            ..AskOptions::default()
        },
    )
    .expect("asks");
    assert!(!answer.sentences.is_empty());
    assert!(answer.retrieval.rerank_note.is_some());
    let rerank_calls = server
        .requests
        .lock()
        .expect("lock")
        .iter()
        .skip(before)
        .filter(|r| r.line.ends_with("/rerank"))
        .count();
    assert!(
        rerank_calls <= 3,
        "the sentences are not sent to a failed reranker ({rerank_calls})"
    );
}

#[test]
fn a_model_the_server_does_not_list_is_not_used() {
    falls_back(
        |request, _| {
            if request.line.ends_with("/models") {
                (200, models_reply(&["some-other-reranker"]))
            } else {
                panic!("nothing is sent to a server that lacks the model")
            }
        },
        "\"bge-reranker-v2-m3\" is not among its models: some-other-reranker",
    );
}

#[test]
fn server_errors_keep_the_fused_order_with_the_server_s_words() {
    falls_back(
        |request, _| {
            if request.line.ends_with("/models") {
                (200, models_reply(&[MODEL]))
            } else {
                (
                    500,
                    r#"{"error":{"message":"this model does not support reranking"}}"#.into(),
                )
            }
        },
        "this model does not support reranking",
    );
}

#[test]
fn replies_that_do_not_add_up_are_refused() {
    let cases: [(&str, &str); 4] = [
        (
            r#"{"results":[{"index":0,"relevance_score":1.0}]}"#,
            "no score for",
        ),
        (
            r#"{"results":[{"index":0,"relevance_score":1.0},{"index":0,"relevance_score":2.0}]}"#,
            "two scores for document 1",
        ),
        (
            r#"{"results":[{"index":99,"relevance_score":1.0}]}"#,
            "a score for document 100",
        ),
        (r#"{"results":"none"}"#, "not a rerank reply"),
    ];
    for (reply, why) in cases {
        falls_back(
            move |request, _| {
                if request.line.ends_with("/models") {
                    (200, models_reply(&[MODEL]))
                } else {
                    (200, reply.to_owned())
                }
            },
            why,
        );
    }
}

#[test]
fn a_reranker_that_never_answers_times_out_once() {
    falls_back(
        |request, _| {
            if request.line.ends_with("/models") {
                (200, models_reply(&[MODEL]))
            } else {
                std::thread::sleep(Duration::from_secs(3));
                (200, r#"{"results":[]}"#.into())
            }
        },
        "did not answer in time",
    );
}

#[test]
fn a_server_with_rerank_at_its_root_is_found() {
    // Infinity and TEI serve `/rerank`, not `/v1/rerank`.
    let dir = tempfile::tempdir().expect("temp dir");
    let store = store(&dir);
    let like = liking("出差住宿标准");
    let server = RecordingServer::start(move |request, n| {
        if request.line == "POST /v1/rerank" {
            (404, r#"{"detail":"Not Found"}"#.into())
        } else {
            like(request, n)
        }
    });
    let result = search(
        &store,
        QUESTION,
        &Aliases::builtin(),
        &options(reranker(&server.server.url)),
    )
    .expect("runs");
    assert!(
        result.retrieval.rerank_note.is_none(),
        "{:?}",
        result.retrieval
    );
    assert!(result.passages[0].text.contains("出差住宿标准"));
    let lines: Vec<String> = server
        .requests
        .lock()
        .expect("lock")
        .iter()
        .map(|r| r.line.clone())
        .collect();
    assert!(lines.contains(&"POST /rerank".to_owned()), "{lines:?}");
}
