//! Talking to a local model server: the seam retrieval uses ([`Embedder`]) and the one
//! client that serves it ([`ModelServer`]).
//!
//! Evident works with no model at all; a model server only adds to retrieval. So the
//! pipeline never sees HTTP: it sees an [`Embedder`], which tests can fake and which a
//! missing or broken server turns into a plain "keyword search only" outcome. The client
//! speaks the OpenAI-compatible API that Ollama, llama.cpp's server, LM Studio, vLLM and
//! others serve (`/v1/embeddings`, `/v1/models`, and `/v1/chat/completions` streamed,
//! behind the [`Generator`] seam).
//!
//! Nothing the server says about itself is trusted: the model must be listed by
//! `/v1/models`, every reply must hold one vector per input, all of the same width,
//! finite and not all zero, and a model is known by what it computes (its
//! [`ModelIdentity`] includes the vector of a fixed probe text), not by its name.

mod breaker;
pub mod builtin;
pub mod chat;
mod error;
pub mod paths;
pub mod prompt;
pub mod rerank;
mod server;
pub mod vector;

pub use chat::{ChatMessage, Completion, Generator, Role};
pub use evident_words::server::{ServerError, ServerErrorKind};
pub use prompt::PromptFamily;
pub use rerank::Reranker;
pub use server::{ModelServer, STALL_TIMEOUT, ServerConfig};

pub use error::{Error, Result};

/// Ollama's default address, which the settings offer when a server answers there.
pub const OLLAMA_DEFAULT_URL: &str = "http://127.0.0.1:11434/v1";

/// The text whose vector fingerprints a model: two servers that return the same name
/// and width but different vectors for it are different models.
pub const PROBE_TEXT: &str = "Evident 有据: probe text for the embedding model's identity.";

/// Whether a text is a question or a passage to be found (e5 and similar models embed
/// the two differently; servers that do not care ignore it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// A user's question.
    Query,
    /// Document text.
    Passage,
}

impl InputKind {
    /// The `input_type` value sent to the server.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Query => "query",
            Self::Passage => "passage",
        }
    }
}

/// One text to embed: what it says and, for document text, where it stands (the
/// document's title and headings), which some families' prompts hold apart
/// (EmbeddingGemma's `title: … | text: …`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Text<'a> {
    /// Where the text stands, if anywhere (document texts only).
    pub title: Option<&'a str>,
    /// The text.
    pub body: &'a str,
}

impl<'a> From<&'a str> for Text<'a> {
    fn from(body: &'a str) -> Self {
        Self { title: None, body }
    }
}

/// What a model is: its name on the server, its vector width, the prompts it is given
/// and the (unit) vector it gives [`PROBE_TEXT`].
#[derive(Debug, Clone, PartialEq)]
pub struct ModelIdentity {
    /// The model name as configured.
    pub name: String,
    /// Vector width.
    pub dim: usize,
    /// Unit vector of [`PROBE_TEXT`] (as a passage, with the family's prompt).
    pub probe: Vec<f32>,
    /// The prompts texts are dressed in ([`PromptFamily::key`]; empty: none).
    pub prompt: String,
}

impl ModelIdentity {
    /// Whether `other` is the same model: same name, width and prompts, and the probe
    /// vectors agree to within float noise (servers may sum in a different order per
    /// thread count, so bit equality would be too strict).
    pub fn same_model(&self, other: &ModelIdentity) -> bool {
        self.name == other.name
            && self.dim == other.dim
            && self.prompt == other.prompt
            && self.probe.len() == other.probe.len()
            && vector::dot(&self.probe, &other.probe) >= 0.999
    }
}

/// Turns texts into unit vectors: the seam between retrieval and a model.
pub trait Embedder: Send + Sync {
    /// The model's identity, established once (a probe request) and then remembered.
    fn identity(&self) -> Result<ModelIdentity>;

    /// One unit vector per text, in order, all of the identity's width. The embedder
    /// dresses each text in its model's prompt for `kind`.
    fn embed(&self, texts: &[Text<'_>], kind: InputKind) -> Result<Vec<Vec<f32>>>;

    /// Where the model runs (a base URL), for the record and for messages.
    fn location(&self) -> String {
        String::new()
    }

    /// Texts per request when embedding many.
    fn batch_size(&self) -> usize {
        16
    }

    /// Whether a passage's sentences are embedded with the passage's place as their
    /// title ([`PromptFamily::titles_sentences`]).
    fn titles_sentences(&self) -> bool {
        false
    }

    /// For a Matryoshka model, the length of the prefix a full scan may compare first
    /// ([`PromptFamily::matryoshka_prefix`]); `None` compares whole vectors.
    fn first_pass_dims(&self) -> Option<usize> {
        None
    }
}
