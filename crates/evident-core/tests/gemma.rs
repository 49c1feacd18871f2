//! EmbeddingGemma-300M, the benchmark model, served by llama-cpp-python on loopback
//! (started here, its GGUF assembled by `../shared/models/fetch.sh` during setup):
//! its prompts are recognised from the name, its unnormalised vectors are made unit
//! vectors, and the demo's everyday question is answered with the right tier first.

mod common;

use std::sync::Arc;

use evident_core::answer::{AskOptions, ask};
use evident_core::model::{Embedder, ModelServer, PromptFamily, ServerConfig};
use evident_core::search::{Aliases, RetrievalMode, SearchOptions, Semantic};
use evident_core::testing::{GEMMA_MODEL, LlamaServer};

#[test]
fn embeddinggemma_with_its_prompts_answers_the_everyday_question() {
    let gemma = LlamaServer::start_gemma();
    let server = Arc::new(
        ModelServer::new(ServerConfig {
            base_url: gemma.url.clone(),
            model: GEMMA_MODEL.to_owned(),
            api_key: None,
            prompt: None,
        })
        .expect("a usable address"),
    );
    assert_eq!(
        server.prompt_family(),
        PromptFamily::EmbeddingGemma,
        "recognised from the name the server lists"
    );
    let identity = server.identity().expect("the server answers");
    assert_eq!(identity.dim, 768);
    let norm: f32 = identity.probe.iter().map(|x| x * x).sum::<f32>().sqrt();
    assert!(
        (norm - 1.0).abs() < 1e-4,
        "llama.cpp sends norms near 1,000; stored vectors are unit vectors ({norm})"
    );

    let dir = tempfile::tempdir().expect("temp dir");
    let semantic = Semantic(server.clone() as Arc<dyn Embedder>);
    let (store, summary) = common::sample_store(dir.path(), Some(semantic.clone()));
    let report = summary
        .embedding
        .and_then(|e| e.report)
        .expect("import embedded the passages");
    assert_eq!(report.coverage.embedded, report.coverage.total);
    let prompt: String = store
        .connection()
        .query_row("SELECT prompt FROM embedding_models", [], |r| r.get(0))
        .expect("one model");
    assert!(
        prompt.contains("task: search result | query: {q}") && prompt.contains("sentences titled"),
        "the prompts are part of the model's identity: {prompt:?}"
    );

    let question = "我花了三万块招待客户，这笔钱要谁批准才能报？";
    for mode in [RetrievalMode::Hybrid, RetrievalMode::Keyword] {
        let answer = ask(
            &store,
            question,
            &Aliases::builtin(),
            &AskOptions {
                search: SearchOptions {
                    semantic: Some(semantic.clone()),
                    mode,
                    ..SearchOptions::default()
                },
                ..AskOptions::default()
            },
        )
        .expect("asks");
        let used = if mode == RetrievalMode::Hybrid {
            "hybrid"
        } else {
            "keyword"
        };
        assert_eq!(answer.retrieval.used.as_str(), used);
        let first = answer
            .sentences
            .first()
            .map(|s| s.text.as_str())
            .unwrap_or("");
        assert_eq!(
            first, "单笔报销超过20,000元的，须经分管副总经理审批。",
            "{used}: 30,000 yuan is over 20,000, so the vice-president approves"
        );
    }
    // Judged by meaning, not by shared words: an everyday question that shares few key
    // words with its clause is answered, and an off-topic one that shares many is not.
    let hybrid = AskOptions {
        search: SearchOptions {
            semantic: Some(semantic.clone()),
            ..SearchOptions::default()
        },
        ..AskOptions::default()
    };
    let everyday = ask(
        &store,
        "请假一天要提前几天说？",
        &Aliases::builtin(),
        &hybrid,
    )
    .expect("asks");
    assert_eq!(
        everyday.status,
        evident_core::answer::Status::Answered,
        "{:?}: {}",
        everyday.evidence,
        everyday.text
    );
    assert!(
        everyday.sentences[0]
            .text
            .contains("请假3天以内的，提前1个工作日申请"),
        "{}",
        everyday.text
    );
    assert!(
        everyday.evidence.coverage < 0.5,
        "few of its key words are the clause's: {:?}",
        everyday.evidence
    );
    let off_topic = ask(
        &store,
        "公司年会抽奖的一等奖是什么？员工中奖的奖金报销需要审批吗，金额是多少？",
        &Aliases::builtin(),
        &hybrid,
    )
    .expect("asks");
    assert_ne!(
        off_topic.status,
        evident_core::answer::Status::Answered,
        "公司, 员工, 报销, 审批 and 金额 are all the policy's; a lottery prize is not: {:?}: {}",
        off_topic.evidence,
        off_topic.text
    );
    // A question in English about the Chinese policy: meaning search crosses languages.
    let cross = evident_core::search::search(
        &store,
        "Who approves an expense claim of 30,000 yuan?",
        &Aliases::builtin(),
        &SearchOptions {
            semantic: Some(semantic),
            ..SearchOptions::default()
        },
    )
    .expect("searches");
    assert!(
        cross
            .passages
            .iter()
            .take(3)
            .any(|p| p.text.contains("分管副总经理审批")),
        "the Chinese approval clause is among the first three: {:?}",
        cross
            .passages
            .iter()
            .map(|p| p.text.chars().take(40).collect::<String>())
            .collect::<Vec<_>>()
    );
}
