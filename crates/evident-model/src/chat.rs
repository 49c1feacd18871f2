//! Chat completions, streamed: the seam answering uses ([`Generator`]) and the
//! [`ModelServer`]'s `/v1/chat/completions` client behind it.
//!
//! What a model writes is only ever a draft for the grounding check, so this module's
//! one job is to deliver the text exactly as streamed and to say, beyond doubt, whether
//! it is complete:
//!
//! * The stream is read as server-sent events (`data:` lines, events ended by a blank
//!   line, `:` comments ignored). It is complete only when the server sent `[DONE]` or a
//!   finish reason; a connection that ends before either is [`ServerErrorKind::StreamCut`],
//!   never a short answer.
//! * Text leaves through a callback as it arrives; the callback returning `false` stops
//!   the request ([`ServerErrorKind::Cancelled`]). The stream is read on a thread of its
//!   own, so while the server is silent the callback still hears from us (an empty
//!   piece every quarter second) and a server silent for [`super::STALL_TIMEOUT`]
//!   is [`ServerErrorKind::TimedOut`], never a hang.
//! * Failures before the first byte of text are retried like every request (transport
//!   and busy statuses only); once text was delivered nothing is retried, because a
//!   regenerated answer would not be the one the user watched appear.
//! * The model must be one the server lists: llama.cpp's server answers a request for
//!   any name with whatever model it has loaded.
//!
//! The maintained SSE crates (eventsource-stream and friends) parse `futures` streams;
//! the core is synchronous (a blocking client on a worker thread), and the subset of
//! the format a chat stream uses is the few lines of [`Events`].

use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{ModelServer, ServerError, ServerErrorKind};
use crate::Result;

/// Longest a whole generation may take (a small model on two cores writes a few tokens
/// a second; the user can stop it sooner).
const GENERATION_TIMEOUT: Duration = Duration::from_secs(600);
/// How often a caller waiting on a silent server is asked whether to go on (an empty
/// piece of text), so a stop button works before the first token too.
const HEARTBEAT: Duration = Duration::from_millis(250);

/// Who wrote a message of the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The instructions.
    System,
    /// The user's turn (the question and the passages).
    User,
    /// The model's turn.
    Assistant,
}

/// One message sent to the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// Who wrote it.
    pub role: Role,
    /// Its text.
    pub content: String,
}

/// A finished generation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Completion {
    /// The text as the model wrote it.
    pub text: String,
    /// Why the model stopped (`stop`, `length`, ...), when the server said.
    pub finish_reason: Option<String>,
    /// Time to the first piece of text.
    pub first_text_ms: Option<u64>,
    /// Time to the end of the stream.
    pub total_ms: u64,
}

impl Completion {
    /// Whether the model stopped because it ran out of tokens (the text is cut short).
    pub fn hit_token_limit(&self) -> bool {
        self.finish_reason.as_deref() == Some("length")
    }
}

/// Writes text from messages: the seam between answering and a model.
pub trait Generator: Send + Sync {
    /// Generates a reply to `messages` at temperature 0, at most `max_tokens` long,
    /// handing each piece of text to `on_text` as it arrives (`false` stops). While the
    /// server is silent `on_text` is called with an empty piece every quarter second,
    /// so the caller can stop before the first token as well.
    fn generate(
        &self,
        messages: &[ChatMessage],
        max_tokens: u32,
        on_text: &mut dyn FnMut(&str) -> bool,
    ) -> Result<Completion>;

    /// Where the model runs (a base URL) and its name, for the record and for messages.
    fn location(&self) -> String {
        String::new()
    }
}

#[derive(Deserialize)]
struct StreamChunk {
    #[serde(default)]
    choices: Vec<StreamChoice>,
    #[serde(default)]
    error: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct StreamChoice {
    #[serde(default)]
    delta: Option<Delta>,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct Delta {
    #[serde(default)]
    content: Option<String>,
}

/// The `data` of each server-sent event, in order.
pub struct Events<R> {
    lines: std::io::Lines<BufReader<R>>,
}

impl<R: Read> Events<R> {
    /// Events read from `source`.
    pub fn new(source: R) -> Self {
        Self {
            lines: BufReader::new(source).lines(),
        }
    }
}

impl<R: Read> Iterator for Events<R> {
    type Item = std::io::Result<String>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut data: Option<String> = None;
        loop {
            let line = match self.lines.next() {
                Some(Ok(line)) => line,
                Some(Err(e)) => return Some(Err(e)),
                // The source ended: a last event without its blank line still counts.
                None => return data.map(Ok),
            };
            let line = line.strip_suffix('\r').unwrap_or(&line);
            if line.is_empty() {
                if let Some(d) = data.take() {
                    return Some(Ok(d));
                }
                continue;
            }
            if line.starts_with(':') {
                continue;
            }
            let (field, value) = line.split_once(':').unwrap_or((line, ""));
            if field == "data" {
                let value = value.strip_prefix(' ').unwrap_or(value);
                match data.as_mut() {
                    Some(d) => {
                        d.push('\n');
                        d.push_str(value);
                    }
                    None => data = Some(value.to_owned()),
                }
            }
        }
    }
}

impl ModelServer {
    /// Streams a chat completion (see the module docs for what is guaranteed).
    pub fn chat_stream(
        &self,
        messages: &[ChatMessage],
        max_tokens: u32,
        on_text: &mut dyn FnMut(&str) -> bool,
    ) -> std::result::Result<Completion, ServerError> {
        let model = self.config().model.trim().to_owned();
        if model.is_empty() {
            return Err(self.error(ServerErrorKind::BadSettings, "no model name is set"));
        }
        self.check_model()?;
        let started = Instant::now();
        let body = json!({
            "model": model,
            "messages": messages,
            "stream": true,
            "temperature": 0,
            "max_tokens": max_tokens,
        });
        let url = self.endpoint("chat/completions");
        let events = self.stream_events(url, body);
        let mut completion = Completion {
            text: String::new(),
            finish_reason: None,
            first_text_ms: None,
            total_ms: 0,
        };
        let mut done = false;
        let mut seen = 0usize;
        let mut heard = Instant::now();
        loop {
            let data = match events.recv_timeout(HEARTBEAT) {
                Ok(Ok(Some(data))) => data,
                // The server ended the stream.
                Ok(Ok(None)) | Err(RecvTimeoutError::Disconnected) => break,
                Ok(Err(ReadError::Request(e))) => return Err(e),
                Ok(Err(ReadError::Read(e))) => {
                    let kind = if is_timeout(&e) {
                        ServerErrorKind::TimedOut
                    } else {
                        ServerErrorKind::StreamCut
                    };
                    return Err(self.error(kind, cut_detail(&completion.text, &e.to_string())));
                }
                Err(RecvTimeoutError::Timeout) => {
                    // Silence: let the caller stop it, and give up on a hung server.
                    if !on_text("") {
                        return Err(self.error(ServerErrorKind::Cancelled, "stopped while waiting"));
                    }
                    if heard.elapsed() >= self.stall_timeout() {
                        return Err(self.error(
                            ServerErrorKind::TimedOut,
                            cut_detail(
                                &completion.text,
                                &format!("nothing for {} s", self.stall_timeout().as_secs_f32()),
                            ),
                        ));
                    }
                    continue;
                }
            };
            heard = Instant::now();
            seen += 1;
            if data.trim() == "[DONE]" {
                done = true;
                break;
            }
            self.take_chunk(&data, started, &mut completion, on_text)?;
        }
        if seen == 0 {
            return Err(self.error(
                ServerErrorKind::BadReply,
                "the reply was not a stream of events (does the server support \"stream\": true?)",
            ));
        }
        if !done && completion.finish_reason.is_none() {
            return Err(self.error(
                ServerErrorKind::StreamCut,
                cut_detail(
                    &completion.text,
                    "the connection ended before the answer was complete",
                ),
            ));
        }
        completion.total_ms = started.elapsed().as_millis() as u64;
        Ok(completion)
    }

    /// One streamed event: its text is added to `completion` and handed to `on_text`
    /// (which may stop the answer), its finish reason kept; an error event fails it.
    fn take_chunk(
        &self,
        data: &str,
        started: Instant,
        completion: &mut Completion,
        on_text: &mut dyn FnMut(&str) -> bool,
    ) -> std::result::Result<(), ServerError> {
        let chunk: StreamChunk = serde_json::from_str(data).map_err(|e| {
            self.error(
                ServerErrorKind::BadReply,
                format!("a streamed event is not a chat chunk ({e})"),
            )
        })?;
        if let Some(error) = chunk.error {
            let message = error
                .get("message")
                .and_then(|m| m.as_str())
                .map_or_else(|| error.to_string(), str::to_owned);
            return Err(self.error(ServerErrorKind::ServerFailed, message));
        }
        for choice in chunk.choices {
            if let Some(text) = choice
                .delta
                .and_then(|d| d.content)
                .filter(|t| !t.is_empty())
            {
                completion
                    .first_text_ms
                    .get_or_insert_with(|| started.elapsed().as_millis() as u64);
                completion.text.push_str(&text);
                if !on_text(&text) {
                    return Err(self.error(
                        ServerErrorKind::Cancelled,
                        format!(
                            "stopped after {} characters",
                            completion.text.chars().count()
                        ),
                    ));
                }
            }
            if let Some(reason) = choice.finish_reason {
                completion.finish_reason = Some(reason);
            }
        }
        Ok(())
    }
}

/// What the reading thread hands over: an event's data, the end of the stream
/// (`None`), or why it could not go on.
type Delivery = std::result::Result<Option<String>, ReadError>;

enum ReadError {
    /// The request failed before a stream began (status, connection), as classified.
    Request(ServerError),
    /// Reading the stream failed.
    Read(std::io::Error),
}

impl ModelServer {
    /// Sends the chat request and reads its events on a thread of its own, so that the
    /// caller stays free to stop a silent server or give up on a hung one. When the
    /// caller stops listening, the thread ends at its next event, or at the request's
    /// own time limit if the server never sends one.
    fn stream_events(&self, url: String, body: serde_json::Value) -> Receiver<Delivery> {
        let (tx, rx) = sync_channel::<Delivery>(64);
        let server = self.handle();
        let spawned = std::thread::Builder::new()
            .name("chat-stream".into())
            .spawn(move || {
                let response = match server
                    .send_request(|c| c.post(&url).timeout(GENERATION_TIMEOUT).json(&body))
                {
                    Ok(r) => r,
                    Err(e) => {
                        let _ = tx.send(Err(ReadError::Request(e)));
                        return;
                    }
                };
                for event in Events::new(response) {
                    let item = event.map(Some).map_err(ReadError::Read);
                    let failed = item.is_err();
                    if tx.send(item).is_err() || failed {
                        return;
                    }
                }
                let _ = tx.send(Ok(None));
            });
        if let Err(e) = spawned {
            let (tx, rx) = sync_channel::<Delivery>(1);
            let _ = tx.send(Err(ReadError::Request(self.error(
                ServerErrorKind::Unreachable,
                format!("cannot start the reading thread: {e}"),
            ))));
            return rx;
        }
        rx
    }
}

fn is_timeout(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::TimedOut || e.to_string().to_lowercase().contains("timed out")
}

fn cut_detail(text: &str, why: &str) -> String {
    format!("{why}; {} characters had arrived", text.chars().count())
}

impl Generator for ModelServer {
    fn generate(
        &self,
        messages: &[ChatMessage],
        max_tokens: u32,
        on_text: &mut dyn FnMut(&str) -> bool,
    ) -> Result<Completion> {
        Ok(self.chat_stream(messages, max_tokens, on_text)?)
    }

    fn location(&self) -> String {
        format!("{} ({})", self.config().model, self.base_url())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(raw: &str) -> Vec<String> {
        Events::new(raw.as_bytes())
            .collect::<std::io::Result<Vec<_>>>()
            .expect("reads")
    }

    #[test]
    fn events_are_read_as_the_format_says() {
        let raw = ": keep-alive\r\ndata: {\"a\":1}\r\n\r\ndata: first\ndata: second\n\nevent: x\ndata:tight\n\ndata: [DONE]";
        assert_eq!(
            events(raw),
            ["{\"a\":1}", "first\nsecond", "tight", "[DONE]"]
        );
        assert!(events("\n\n: only comments\n\n").is_empty());
    }
}
