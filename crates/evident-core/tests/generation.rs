//! Streamed chat completions against a scripted loopback server (every fault a real
//! server will not show on demand) and against a real llama.cpp server with SmolLM2.

use evident_core::model::Error;
use evident_core::model::{
    ChatMessage, Generator, ModelServer, Role, ServerConfig, ServerErrorKind,
};
use evident_core::testing::{LLAMA_MODEL, LlamaServer, ScriptedServer, models_reply};

fn server(url: &str, model: &str) -> ModelServer {
    ModelServer::new(ServerConfig {
        base_url: url.to_owned(),
        model: model.to_owned(),
        api_key: None,
        prompt: None,
    })
    .expect("client")
}

fn question() -> Vec<ChatMessage> {
    vec![
        ChatMessage {
            role: Role::System,
            content: "Answer in one short sentence.".into(),
        },
        ChatMessage {
            role: Role::User,
            content: "What colour is the sky on a clear day?".into(),
        },
    ]
}

fn chunk(text: &str) -> String {
    format!(
        "data: {}\n\n",
        serde_json::json!({"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": null}]})
    )
}

fn finish(reason: &str) -> String {
    format!(
        "data: {}\n\n",
        serde_json::json!({"choices": [{"index": 0, "delta": {}, "finish_reason": reason}]})
    )
}

/// A server listing `smollm2` and answering chat requests with `stream`.
fn scripted(stream: String) -> ScriptedServer {
    ScriptedServer::start(move |request, _| {
        if request.line.ends_with("/models") {
            (200, models_reply(&["smollm2"]))
        } else {
            (200, stream.clone())
        }
    })
}

fn kind(e: &Error) -> ServerErrorKind {
    match e {
        Error::Server(s) => s.kind,
        other => panic!("not a server error: {other}"),
    }
}

fn generate(s: &ModelServer) -> (Result<evident_core::model::Completion, Error>, Vec<String>) {
    let mut pieces = Vec::new();
    let result = s.generate(&question(), 64, &mut |t| {
        // Empty pieces are the heartbeats of a silent server.
        if !t.is_empty() {
            pieces.push(t.to_owned());
        }
        true
    });
    (result, pieces)
}

#[test]
fn a_complete_stream_is_delivered_piece_by_piece_as_written() {
    let body = format!(
        "{}: keep-alive\n\n{}{}{}data: [DONE]\n\n",
        chunk("Blue"),
        chunk("，"),
        chunk(" mostly."),
        finish("stop")
    );
    let srv = scripted(body);
    let (result, pieces) = generate(&server(&srv.url, "smollm2"));
    let done = result.expect("complete");
    assert_eq!(pieces, ["Blue", "，", " mostly."]);
    assert_eq!(done.text, "Blue， mostly.", "the text exactly as streamed");
    assert_eq!(done.finish_reason.as_deref(), Some("stop"));
    assert!(done.first_text_ms.is_some());
}

#[test]
fn a_stream_cut_before_its_end_is_never_a_complete_answer() {
    let srv = scripted(format!("{}{}", chunk("Annual leave is"), chunk(" 3 days")));
    let (result, pieces) = generate(&server(&srv.url, "smollm2"));
    let e = result.expect_err("cut");
    assert_eq!(kind(&e), ServerErrorKind::StreamCut, "{e}");
    assert!(
        e.to_string().contains("before the answer was complete"),
        "{e}"
    );
    assert_eq!(pieces.len(), 2, "what arrived was shown");
}

#[test]
fn a_token_limit_is_a_finished_but_truncated_answer() {
    let srv = scripted(format!(
        "{}{}data: [DONE]\n\n",
        chunk("The policy says"),
        finish("length")
    ));
    let (result, _) = generate(&server(&srv.url, "smollm2"));
    assert!(result.expect("finished").hit_token_limit());
}

#[test]
fn a_model_the_server_does_not_list_is_refused_before_generating() {
    let srv = scripted(format!("{}data: [DONE]\n\n", chunk("anything")));
    let (result, pieces) = generate(&server(&srv.url, "llama3:70b"));
    let e = result.expect_err("not listed");
    assert_eq!(kind(&e), ServerErrorKind::ModelMissing, "{e}");
    assert!(
        e.to_string().contains("smollm2"),
        "names what the server has: {e}"
    );
    assert!(pieces.is_empty());
    assert_eq!(srv.count(), 1, "only the model list was asked for");
}

#[test]
fn stopping_ends_the_request_as_cancelled() {
    let srv = scripted(format!(
        "{}{}{}data: [DONE]\n\n",
        chunk("one"),
        chunk("two"),
        finish("stop")
    ));
    let s = server(&srv.url, "smollm2");
    let mut seen = 0;
    let e = s
        .generate(&question(), 64, &mut |_| {
            seen += 1;
            false
        })
        .expect_err("stopped");
    assert_eq!(kind(&e), ServerErrorKind::Cancelled);
    assert_eq!(seen, 1);
}

#[test]
fn a_silent_server_can_be_stopped_before_its_first_token_and_times_out_alone() {
    let slow = ScriptedServer::start(|request, _| {
        if request.line.ends_with("/models") {
            (200, models_reply(&["smollm2"]))
        } else {
            std::thread::sleep(std::time::Duration::from_secs(2));
            (200, format!("{}data: [DONE]\n\n", chunk("late")))
        }
    });
    let started = std::time::Instant::now();
    let e = server(&slow.url, "smollm2")
        .generate(&question(), 16, &mut |t| {
            assert!(t.is_empty(), "only heartbeats before the reply");
            false
        })
        .expect_err("stopped");
    assert_eq!(kind(&e), ServerErrorKind::Cancelled, "{e}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(2),
        "the stop did not wait for the server: {:?}",
        started.elapsed()
    );
    let e = server(&slow.url, "smollm2")
        .with_stall_timeout(std::time::Duration::from_millis(500))
        .generate(&question(), 16, &mut |_| true)
        .expect_err("silent too long");
    assert_eq!(kind(&e), ServerErrorKind::TimedOut, "{e}");
}

#[test]
fn server_failures_and_bad_replies_say_what_happened() {
    let failing = ScriptedServer::start(|request, _| {
        if request.line.ends_with("/models") {
            (200, models_reply(&["smollm2"]))
        } else {
            (
                500,
                r#"{"error": {"message": "llama_decode failed"}}"#.into(),
            )
        }
    });
    let e = generate(&server(&failing.url, "smollm2"))
        .0
        .expect_err("500");
    assert_eq!(kind(&e), ServerErrorKind::ServerFailed);
    assert!(e.to_string().contains("llama_decode failed"), "{e}");

    let midway = scripted(format!(
        "{}data: {}\n\n",
        chunk("Half"),
        serde_json::json!({"error": {"message": "context overflow"}})
    ));
    let e = generate(&server(&midway.url, "smollm2"))
        .0
        .expect_err("error event");
    assert_eq!(kind(&e), ServerErrorKind::ServerFailed);
    assert!(e.to_string().contains("context overflow"), "{e}");

    let not_streamed = scripted(
        serde_json::json!({"choices": [{"message": {"role": "assistant", "content": "Blue."}}]})
            .to_string(),
    );
    let e = generate(&server(&not_streamed.url, "smollm2"))
        .0
        .expect_err("not a stream");
    assert_eq!(kind(&e), ServerErrorKind::BadReply, "{e}");

    let garbage = scripted("data: {not json\n\n".into());
    let e = generate(&server(&garbage.url, "smollm2"))
        .0
        .expect_err("garbage");
    assert_eq!(kind(&e), ServerErrorKind::BadReply, "{e}");

    let port = evident_core::testing::free_port();
    let e = generate(&server(&format!("http://127.0.0.1:{port}/v1"), "smollm2"))
        .0
        .expect_err("nothing there");
    assert_eq!(kind(&e), ServerErrorKind::Unreachable, "{e}");
}

#[test]
fn a_real_llama_server_streams_a_deterministic_complete_answer() {
    let llama = LlamaServer::start();
    let s = server(&llama.url, LLAMA_MODEL);
    let (first, pieces) = generate(&s);
    let first = first.expect("the real server answers");
    assert!(!first.text.trim().is_empty());
    assert!(pieces.len() > 1, "streamed in pieces: {pieces:?}");
    assert!(first.finish_reason.is_some(), "{first:?}");
    let (second, _) = generate(&s);
    assert_eq!(
        second.expect("again").text,
        first.text,
        "temperature 0 is deterministic"
    );
    eprintln!(
        "smollm2: first text after {:?} ms, {} ms in all: {:?}",
        first.first_text_ms, first.total_ms, first.text
    );
    // llama.cpp's server answers any model name with what it loaded: Evident checks.
    let e = server(&llama.url, "gpt-4o")
        .generate(&question(), 16, &mut |_| true)
        .expect_err("not its model");
    assert_eq!(kind(&e), ServerErrorKind::ModelMissing, "{e}");
}
