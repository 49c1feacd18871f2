//! The client for an OpenAI-compatible model server.
//!
//! Blocking on purpose: the core stays synchronous, and the desktop shell calls anything
//! that may touch the network on a blocking thread. Every request has its own timeout;
//! only transport failures and "busy" replies (429, 502, 503, 504) are retried, at most
//! three attempts within a couple of seconds. A connection that could not be made is
//! not retried: nothing is listening, and asking again only made every question
//! 1.3 s slower. The API key is sent only when set and is
//! never part of a message, a log line or a `Debug` print.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use reqwest::blocking::{Client, RequestBuilder, Response};
use reqwest::{StatusCode, Url};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use serde_json::json;

use super::breaker::Health;
use super::prompt::{self, PromptFamily};
use super::vector::{self, Unusable};
use super::{Embedder, InputKind, ModelIdentity, PROBE_TEXT, ServerError, ServerErrorKind, Text};
use crate::Result;

/// Attempts per request (the first one included).
const ATTEMPTS: usize = 3;
/// Pause before the second and third attempts.
const BACKOFF: [Duration; 2] = [Duration::from_millis(250), Duration::from_millis(1000)];
/// Time to open a connection; a local server that is up accepts at once.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// Time for a short request (listing models, one question's vector).
const SHORT_TIMEOUT: Duration = Duration::from_secs(15);
/// Time for a batch of passages (a large model on a CPU is slow).
const BATCH_TIMEOUT: Duration = Duration::from_secs(120);
/// Longest silence within a reply: a streamed answer may take minutes in all, but a
/// server that sends nothing for this long (not even the first token after reading
/// a long prompt on a CPU) is taken to have hung.
pub const STALL_TIMEOUT: Duration = Duration::from_secs(120);

/// The HTTP client for a server at `base`.
fn http_client(base: &Url) -> std::result::Result<Client, String> {
    let mut builder = Client::builder()
        .connect_timeout(CONNECT_TIMEOUT)
        .timeout(BATCH_TIMEOUT);
    if is_loopback(base) {
        // A proxy from the environment must not catch requests to this machine.
        builder = builder.no_proxy();
    }
    builder
        .build()
        .map_err(|e| format!("cannot set up the HTTP client: {e}"))
}

/// Where the model server is and which model to use.
#[derive(Clone)]
pub struct ServerConfig {
    /// Base URL of the OpenAI-compatible API, e.g. `http://127.0.0.1:11434/v1`.
    pub base_url: String,
    /// Model name on that server.
    pub model: String,
    /// API key, when the server wants one.
    pub api_key: Option<SecretString>,
    /// The prompts an embedding model is given; `None`: recognised from its name.
    pub prompt: Option<PromptFamily>,
}

impl std::fmt::Debug for ServerConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerConfig")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "(set)"))
            .field("prompt", &self.prompt)
            .finish()
    }
}

/// One model server: embeddings and the list of models.
pub struct ModelServer {
    config: ServerConfig,
    base: Url,
    client: Client,
    identity: Mutex<Option<ModelIdentity>>,
    stall: Duration,
    family: PromptFamily,
    /// Whether `/v1/models` has listed the model (checked once, before the first rerank).
    model_listed: AtomicBool,
    rerank_timeout: Duration,
    /// Whether the server is known to be down (then requests fail at once).
    breaker: super::breaker::Breaker,
    /// Time for a short request ([`SHORT_TIMEOUT`]; tests use a shorter one).
    short_timeout: Duration,
}

impl std::fmt::Debug for ModelServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelServer")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// The base URL as requests use it: `http://host:port` alone gets the usual `/v1`.
fn normalise_base(raw: &str) -> std::result::Result<Url, String> {
    let trimmed = raw.trim().trim_end_matches('/');
    let mut url = Url::parse(trimmed).map_err(|e| format!("{trimmed:?} is not a URL ({e})"))?;
    match url.scheme() {
        "http" => {}
        "https" => {
            return Err(format!(
                "{trimmed} uses https, which this build does not speak; local model servers \
                 (Ollama, llama.cpp, LM Studio, vLLM) serve plain http"
            ));
        }
        other => return Err(format!("{trimmed}: {other}: is not an http address")),
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(format!("{trimmed} names no host"));
    }
    if url.path().is_empty() || url.path() == "/" {
        url.set_path("/v1");
    }
    Ok(url)
}

fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

#[derive(Deserialize)]
struct EmbeddingReply {
    data: Vec<EmbeddingItem>,
}

#[derive(Deserialize)]
struct EmbeddingItem {
    #[serde(default)]
    index: Option<usize>,
    embedding: Vec<f32>,
}

#[derive(Deserialize)]
struct ModelList {
    data: Vec<ModelEntry>,
}

#[derive(Deserialize)]
struct ModelEntry {
    id: String,
}

impl ModelServer {
    /// A client for `config`; fails only on an address that cannot work. (An empty model
    /// name is allowed, to list the server's models; embedding then fails clearly.)
    pub fn new(config: ServerConfig) -> Result<Self> {
        let bad = |detail: String| {
            ServerError::new(ServerErrorKind::BadSettings, &config.base_url, detail)
        };
        let base = normalise_base(&config.base_url).map_err(bad)?;
        let client = http_client(&base).map_err(bad)?;
        let family = prompt::resolve(config.prompt, &config.model);
        Ok(Self {
            config,
            base,
            client,
            identity: Mutex::new(None),
            stall: STALL_TIMEOUT,
            family,
            model_listed: AtomicBool::new(false),
            rerank_timeout: super::rerank::RERANK_TIMEOUT,
            breaker: Default::default(),
            short_timeout: SHORT_TIMEOUT,
        })
    }

    /// The same client with another [`SHORT_TIMEOUT`] (tests of a hung server use a
    /// short one).
    pub fn with_short_timeout(mut self, short: Duration) -> Self {
        self.short_timeout = short;
        self
    }

    /// The same client with another [`STALL_TIMEOUT`] (tests use a short one).
    pub fn with_stall_timeout(mut self, stall: Duration) -> Self {
        self.stall = stall;
        self
    }

    /// Longest silence within a streamed reply.
    pub(super) fn stall_timeout(&self) -> Duration {
        self.stall
    }

    /// A second handle on the same server and HTTP client, for a thread of its own.
    pub(super) fn handle(&self) -> Self {
        Self {
            config: self.config.clone(),
            base: self.base.clone(),
            client: self.client.clone(),
            identity: Mutex::new(None),
            stall: self.stall,
            family: self.family,
            model_listed: AtomicBool::new(self.model_listed.load(Ordering::Relaxed)),
            rerank_timeout: self.rerank_timeout,
            // The same server: what one handle learns of it being down, the other knows.
            breaker: self.breaker.clone(),
            short_timeout: self.short_timeout,
        }
    }

    /// The same client with another limit for rerank requests (tests use a short one).
    pub fn with_rerank_timeout(mut self, limit: Duration) -> Self {
        self.rerank_timeout = limit;
        self
    }

    /// Longest a rerank request may take.
    pub(super) fn rerank_timeout(&self) -> Duration {
        self.rerank_timeout
    }

    /// The prompts this server's embedding model is given (chosen, or recognised from
    /// its name).
    pub fn prompt_family(&self) -> PromptFamily {
        self.family
    }

    /// The settings this client was made from.
    pub fn config(&self) -> &ServerConfig {
        &self.config
    }

    /// The base URL requests go to (with `/v1` added when it had no path).
    pub fn base_url(&self) -> &str {
        self.base.as_str()
    }

    pub(super) fn endpoint(&self, path: &str) -> String {
        format!("{}/{path}", self.base.as_str().trim_end_matches('/'))
    }

    /// `path` at the server's root, without the API prefix (`http://host:port/rerank`).
    pub(super) fn root_endpoint(&self, path: &str) -> Option<String> {
        let mut root = self.base.clone();
        root.set_path(&format!("/{path}"));
        Some(root.to_string())
    }

    /// [`Self::check_model`] once: remembered after the first success.
    pub(super) fn ensure_model_listed(&self) -> std::result::Result<(), ServerError> {
        if self.model_listed.load(Ordering::Relaxed) {
            return Ok(());
        }
        self.check_model()?;
        self.model_listed.store(true, Ordering::Relaxed);
        Ok(())
    }

    pub(super) fn error(&self, kind: ServerErrorKind, detail: impl Into<String>) -> ServerError {
        ServerError::new(kind, self.base.as_str(), detail)
    }

    fn authorised(&self, request: RequestBuilder) -> RequestBuilder {
        match &self.config.api_key {
            Some(key) if !key.expose_secret().is_empty() => {
                request.bearer_auth(key.expose_secret())
            }
            _ => request,
        }
    }

    /// Sends the request `make` builds, retrying transient failures; returns the reply
    /// of a successful status. `probe` says how the breaker checks that the server is
    /// back, should this request find it down.
    fn send(
        &self,
        make: impl Fn() -> RequestBuilder,
        probe: Probe,
    ) -> std::result::Result<Response, ServerError> {
        self.send_retrying(make, true, probe)
    }

    /// [`Self::send`]; with `retry_timeouts` false, a request that timed out is not
    /// sent again (a reranker that took its whole time once will take it again, and the
    /// user is waiting).
    ///
    /// A server known to be down is not asked at all ([`super::breaker`]): the
    /// remembered failure comes back at once.
    fn send_retrying(
        &self,
        make: impl Fn() -> RequestBuilder,
        retry_timeouts: bool,
        probe: Probe,
    ) -> std::result::Result<Response, ServerError> {
        self.breaker.check()?;
        let result = self.send_attempts(make, retry_timeouts);
        let check = self.health_check(probe);
        self.breaker.record(&result, move || check.run());
        result
    }

    /// What the breaker's background check asks, on a handle of its own.
    fn health_check(&self, probe: Probe) -> HealthCheck {
        HealthCheck {
            probe,
            client: self.client.clone(),
            base: self.base.to_string(),
            models: self.endpoint("models"),
            embeddings: self.endpoint("embeddings"),
            model: self.config.model.trim().to_owned(),
            text: self.family.query(PROBE_QUESTION),
            api_key: self.config.api_key.clone(),
            timeout: self.short_timeout,
        }
    }

    fn send_attempts(
        &self,
        make: impl Fn() -> RequestBuilder,
        retry_timeouts: bool,
    ) -> std::result::Result<Response, ServerError> {
        let mut attempt = 0;
        loop {
            let result = match self.authorised(make()).send() {
                // Refused (or no route): nothing is listening, and a retry finds the
                // same. A connection that timed out is different: the host may be busy.
                Err(e) if e.is_connect() && !e.is_timeout() => {
                    return Err(self.transport_error(&e));
                }
                Err(e) => Err(self.transport_error(&e)),
                Ok(r) => self.check_status(r),
            };
            match result {
                Err(e)
                    if e.is_transient()
                        && (retry_timeouts || e.kind != ServerErrorKind::TimedOut)
                        && attempt + 1 < ATTEMPTS =>
                {
                    std::thread::sleep(BACKOFF[attempt.min(BACKOFF.len() - 1)]);
                    attempt += 1;
                }
                other => return other,
            }
        }
    }

    /// [`Self::send`] for a request that is not sent again once it timed out.
    pub(super) fn send_request_once_timed_out(
        &self,
        make: impl Fn(&Client) -> RequestBuilder,
    ) -> std::result::Result<Response, ServerError> {
        self.send_retrying(|| make(&self.client), false, Probe::Models)
    }

    /// [`Self::send`] for the other endpoints of this client (chat completions).
    pub(super) fn send_request(
        &self,
        make: impl Fn(&Client) -> RequestBuilder,
    ) -> std::result::Result<Response, ServerError> {
        self.send(|| make(&self.client), Probe::Models)
    }

    fn transport_error(&self, e: &reqwest::Error) -> ServerError {
        if e.is_timeout() {
            self.error(ServerErrorKind::TimedOut, "")
        } else if e.is_connect() {
            self.error(ServerErrorKind::Unreachable, "")
        } else {
            self.error(ServerErrorKind::Unreachable, e.to_string())
        }
    }

    fn check_status(&self, response: Response) -> std::result::Result<Response, ServerError> {
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        // Keep the server's own words, but not a whole HTML page.
        let body = response.text().unwrap_or_default();
        let message = server_message(&body);
        let kind = match status {
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => ServerErrorKind::KeyRejected,
            StatusCode::NOT_FOUND if message.to_lowercase().contains("model") => {
                ServerErrorKind::ModelMissing
            }
            s if s == StatusCode::TOO_MANY_REQUESTS || s.is_server_error() => {
                ServerErrorKind::ServerFailed
            }
            _ => ServerErrorKind::Rejected,
        };
        Err(self.error(kind, message).with_status(status.as_u16()))
    }

    /// The models the server lists (`GET /v1/models`).
    pub fn models(&self) -> std::result::Result<Vec<String>, ServerError> {
        let url = self.endpoint("models");
        let response = self.send(
            || self.client.get(&url).timeout(self.short_timeout),
            Probe::Models,
        )?;
        let list: ModelList = response
            .json()
            .map_err(|e| self.error(ServerErrorKind::BadReply, format!("model list: {e}")))?;
        Ok(list.data.into_iter().map(|m| m.id).collect())
    }

    /// Checks that the server lists the configured model. Ollama lists `name:latest`
    /// for a model asked for as `name`; a server without `/v1/models` is taken at its
    /// word until the first embedding request.
    pub fn check_model(&self) -> std::result::Result<(), ServerError> {
        let models = match self.models() {
            Ok(m) => m,
            Err(e) if e.status == Some(404) => return Ok(()),
            Err(e) => return Err(e),
        };
        let wanted = self.config.model.trim();
        let listed = models
            .iter()
            .any(|m| m == wanted || m.strip_suffix(":latest") == Some(wanted));
        if listed {
            Ok(())
        } else {
            let mut shown: Vec<&str> = models.iter().map(String::as_str).take(8).collect();
            if models.len() > shown.len() {
                shown.push("…");
            }
            Err(self.error(
                ServerErrorKind::ModelMissing,
                format!("{wanted:?} is not among its models: {}", shown.join(", ")),
            ))
        }
    }

    /// Embeds texts already dressed in their prompts.
    fn embed_batch(
        &self,
        texts: &[String],
        kind: InputKind,
        width: Option<usize>,
    ) -> std::result::Result<Vec<Vec<f32>>, ServerError> {
        let url = self.endpoint("embeddings");
        let body = json!({
            "model": self.config.model.trim(),
            "input": texts,
            "encoding_format": "float",
            "input_type": kind.as_str(),
        });
        let timeout = if texts.len() <= 2 {
            self.short_timeout
        } else {
            BATCH_TIMEOUT
        };
        let response = self.send(
            || self.client.post(&url).json(&body).timeout(timeout),
            Probe::Embeddings,
        )?;
        let bytes = response
            .bytes()
            .map_err(|e| self.error(ServerErrorKind::BadReply, format!("reply cut off: {e}")))?;
        let reply: EmbeddingReply = serde_json::from_slice(&bytes).map_err(|e| {
            self.error(
                ServerErrorKind::BadReply,
                format!("not an embeddings reply: {e}"),
            )
        })?;
        if reply.data.len() != texts.len() {
            return Err(self.error(
                ServerErrorKind::BadReply,
                format!("{} vectors for {} texts", reply.data.len(), texts.len()),
            ));
        }
        let mut slots: Vec<Option<Vec<f32>>> = vec![None; texts.len()];
        let mut width = width;
        for (position, item) in reply.data.into_iter().enumerate() {
            let i = item.index.unwrap_or(position);
            let unusable = |why: Unusable| {
                self.error(
                    ServerErrorKind::BadReply,
                    format!("{why} for input {}", i + 1),
                )
            };
            if i >= slots.len() || slots[i].is_some() {
                return Err(self.error(
                    ServerErrorKind::BadReply,
                    format!("vector index {i} is out of place"),
                ));
            }
            let v = vector::unit(item.embedding, width).map_err(unusable)?;
            width = Some(v.len());
            slots[i] = Some(v);
        }
        Ok(slots.into_iter().flatten().collect())
    }
}

/// The question the breaker's check embeds: short, so a server that is up answers it at
/// once.
const PROBE_QUESTION: &str = "ok";

/// What the breaker's check asks of a server that was found down.
#[derive(Debug, Clone, Copy)]
enum Probe {
    /// After listing models, chat or rerank: whether it answers at all.
    Models,
    /// After embeddings: whether it embeds one short text within the short time.
    Embeddings,
}

/// The breaker's check of one server: owned, for its background thread.
struct HealthCheck {
    probe: Probe,
    client: Client,
    base: String,
    models: String,
    embeddings: String,
    model: String,
    text: String,
    api_key: Option<SecretString>,
    timeout: Duration,
}

impl HealthCheck {
    fn run(&self) -> Health {
        let listed = || {
            self.authorised(self.client.get(&self.models))
                .timeout(self.timeout)
                .send()
                .is_ok_and(|r| r.status().is_success())
        };
        match self.probe {
            Probe::Models => match self.client.get(&self.models).timeout(self.timeout).send() {
                Ok(_) => Health::Up,
                Err(_) => Health::Down(None),
            },
            Probe::Embeddings => match self.embeds() {
                Ok(()) => Health::Up,
                Err(why) if listed() => Health::Down(Some(ServerError::new(
                    ServerErrorKind::NotEmbedding,
                    &self.base,
                    why,
                ))),
                Err(_) => Health::Down(None),
            },
        }
    }

    /// Whether the server embeds the probe's text: `Err` with how it did not. A reply
    /// of its own (a 4xx, a 500) counts as an answer: the next request reports it.
    fn embeds(&self) -> std::result::Result<(), String> {
        let body = json!({"model": self.model, "input": [self.text], "encoding_format": "float"});
        let sent = self
            .authorised(self.client.post(&self.embeddings))
            .json(&body)
            .timeout(self.timeout)
            .send();
        let busy = |s: StatusCode| s == StatusCode::TOO_MANY_REQUESTS || s.as_u16() >= 502;
        match sent {
            Err(e) if e.is_timeout() => {
                Err(format!("no vector within {} s", self.timeout.as_secs_f32()))
            }
            Err(e) => Err(e.to_string()),
            Ok(r) if busy(r.status()) => Err(format!("HTTP {} to embeddings", r.status().as_u16())),
            Ok(r) if !r.status().is_success() => Ok(()),
            Ok(r) => match r.json::<EmbeddingReply>() {
                Ok(reply) if reply.data.iter().any(|d| !d.embedding.is_empty()) => Ok(()),
                Ok(_) => Err("an embeddings reply with no vector".into()),
                Err(e) => Err(format!("embeddings reply cut off: {e}")),
            },
        }
    }

    fn authorised(&self, request: RequestBuilder) -> RequestBuilder {
        match &self.api_key {
            Some(key) if !key.expose_secret().is_empty() => {
                request.bearer_auth(key.expose_secret())
            }
            _ => request,
        }
    }
}

/// The message of an error reply: OpenAI's `{"error": {"message"}}`, Ollama's
/// `{"error": "..."}`, or the start of whatever the body is.
fn server_message(body: &str) -> String {
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(body) {
        let error = &v["error"];
        if let Some(m) = error["message"]
            .as_str()
            .or(error.as_str())
            .or(v["message"].as_str())
        {
            return m.chars().take(300).collect();
        }
    }
    body.trim().chars().take(200).collect()
}

impl Embedder for ModelServer {
    fn location(&self) -> String {
        self.base.to_string()
    }

    fn titles_sentences(&self) -> bool {
        self.family.titles_sentences()
    }

    fn first_pass_dims(&self) -> Option<usize> {
        self.family.matryoshka_prefix()
    }

    fn identity(&self) -> Result<ModelIdentity> {
        // The lock is never held across the network: a slow server must not make
        // another thread wait for this one's probe.
        if let Some(id) = self
            .identity
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_ref()
        {
            return Ok(id.clone());
        }
        if self.config.model.trim().is_empty() {
            return Err(self
                .error(ServerErrorKind::BadSettings, "no model name is set")
                .into());
        }
        self.check_model()?;
        let probe_text = self.family.document(None, PROBE_TEXT);
        let probe = self
            .embed_batch(&[probe_text], InputKind::Passage, None)?
            .pop()
            .ok_or_else(|| self.error(ServerErrorKind::BadReply, "no vector for the probe"))?;
        let id = ModelIdentity {
            name: self.config.model.trim().to_owned(),
            dim: probe.len(),
            probe,
            prompt: self.family.key(),
        };
        *self
            .identity
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(id.clone());
        Ok(id)
    }

    fn embed(&self, texts: &[Text<'_>], kind: InputKind) -> Result<Vec<Vec<f32>>> {
        let width = self.identity()?.dim;
        let dressed: Vec<String> = texts
            .iter()
            .map(|t| match kind {
                InputKind::Query => self.family.query(t.body),
                InputKind::Passage => self.family.document(t.title, t.body),
            })
            .collect();
        let mut out = Vec::with_capacity(texts.len());
        for batch in dressed.chunks(self.batch_size()) {
            out.extend(self.embed_batch(batch, kind, Some(width))?);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls_get_v1_only_when_they_have_no_path() {
        let url = |s| normalise_base(s).map(|u| u.to_string());
        assert_eq!(
            url("http://127.0.0.1:11434").as_deref(),
            Ok("http://127.0.0.1:11434/v1")
        );
        assert_eq!(
            url("http://localhost:8080/v1/").as_deref(),
            Ok("http://localhost:8080/v1")
        );
        assert_eq!(url("http://h:1/api/v1").as_deref(), Ok("http://h:1/api/v1"));
        assert!(url("https://h/v1").is_err_and(|e| e.contains("https")));
        assert!(url("ftp://h").is_err());
        assert!(url("not a url").is_err());
    }

    #[test]
    fn error_bodies_give_the_servers_words() {
        assert_eq!(
            server_message(r#"{"error":{"message":"bad input"}}"#),
            "bad input"
        );
        assert_eq!(
            server_message(r#"{"error":"model \"x\" not found, try pulling it first"}"#),
            "model \"x\" not found, try pulling it first"
        );
        assert_eq!(server_message("  Bad Gateway \n"), "Bad Gateway");
    }

    #[test]
    fn the_key_never_shows_in_debug_output() {
        let config = ServerConfig {
            base_url: "http://127.0.0.1:1".into(),
            model: "m".into(),
            api_key: Some(SecretString::from("sk-very-secret")),
            prompt: None,
        };
        let shown = format!("{config:?} {:?}", ModelServer::new(config.clone()));
        assert!(!shown.contains("very-secret"), "{shown}");
    }
}
