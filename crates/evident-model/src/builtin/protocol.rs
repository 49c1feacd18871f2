//! What the app says to its embeddings worker and what the worker answers: one JSON
//! object per line on the worker's stdin and stdout.
//!
//! The types live in the core (not in the worker's crate) so that the side that sends
//! and the side that answers cannot drift apart, while the core itself never links
//! llama.cpp.

use std::path::PathBuf;

use evident_worker::confine::{Confinement, Probe};
use serde::{Deserialize, Serialize};

/// The command-line flag that turns an Evident executable into an embeddings worker.
pub const WORKER_FLAG: &str = "--evident-embed-worker";

/// A request to the worker.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// Load this model for embedding; a model loaded before is let go.
    Load {
        /// The GGUF file.
        path: PathBuf,
        /// CPU threads to use.
        threads: u32,
    },
    /// Embed these texts (already dressed in the model's prompts) with the loaded model.
    Embed {
        /// The texts.
        texts: Vec<String>,
    },
    /// Try what a hostile model file would (read another file, write one, connect to
    /// `port` on loopback, run a program) and say what worked: for tests.
    Probe {
        /// A port something listens on.
        port: u16,
    },
}

/// The worker's answer to one request.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    /// The model of a [`Request::Load`] is loaded, by a worker confined thus.
    Loaded {
        /// The model's header.
        info: GgufInfo,
        /// What the worker's confinement enforces.
        confinement: Confinement,
    },
    /// What a [`Request::Probe`] could do.
    Probed(Probe),
    /// One raw (not normalised) vector per text of a [`Request::Embed`], in order.
    Vectors(Vec<Vec<f32>>),
    /// The request failed; the words are for the user.
    Failed(String),
}

/// A model file: its header, or why it cannot be used.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Described {
    /// The file's header.
    Info(GgufInfo),
    /// Why the file cannot be read.
    Unreadable(String),
}

/// What a GGUF file's header says about its model.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct GgufInfo {
    /// `general.architecture` (`gemma-embedding`, `bert`, `qwen3` ...).
    pub architecture: String,
    /// `general.name`, if set.
    pub name: Option<String>,
    /// `general.license`, if set (a licence name such as `gemma` or `mit`).
    pub license: Option<String>,
    /// `general.size_label` (`300M`), if set.
    pub size_label: Option<String>,
    /// `<architecture>.embedding_length`: the vector width.
    pub embedding_length: Option<u32>,
    /// Whether the header sets `<architecture>.pooling_type`: embedding models do,
    /// chat models do not.
    pub has_pooling: bool,
    /// The time the load took (for [`Request::Load`] only).
    pub load_ms: Option<u64>,
}

/// Architectures that are text encoders, embedding models whatever their header says
/// about pooling (llama.cpp's names).
const ENCODER_ARCHITECTURES: [&str; 9] = [
    "bert",
    "nomic-bert",
    "nomic-bert-moe",
    "jina-bert-v2",
    "jina-bert-v3",
    "gemma-embedding",
    "modern-bert",
    "neo-bert",
    "t5encoder",
];

impl GgufInfo {
    /// Whether the model makes sentence embeddings (an encoder, or a decoder with a
    /// pooling head such as Qwen3-Embedding); a chat model does not.
    pub fn is_embedding_model(&self) -> bool {
        self.has_pooling || ENCODER_ARCHITECTURES.contains(&self.architecture.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_replies_are_one_json_line_each_way() {
        let request = Request::Embed {
            texts: vec!["第一行\n第二行".into()],
        };
        let line = serde_json::to_string(&request).expect("json");
        assert!(!line.contains('\n'), "{line}");
        assert_eq!(
            serde_json::from_str::<Request>(&line).expect("back"),
            request
        );
        let reply = Reply::Vectors(vec![vec![0.5, -1.0]]);
        let line = serde_json::to_string(&reply).expect("json");
        assert_eq!(serde_json::from_str::<Reply>(&line).expect("back"), reply);
    }

    #[test]
    fn a_chat_model_is_not_an_embedding_model() {
        let chat = GgufInfo {
            architecture: "qwen2".into(),
            ..GgufInfo::default()
        };
        assert!(!chat.is_embedding_model());
        let gemma = GgufInfo {
            architecture: "gemma-embedding".into(),
            ..GgufInfo::default()
        };
        assert!(gemma.is_embedding_model());
        let qwen3_embedding = GgufInfo {
            architecture: "qwen3".into(),
            has_pooling: true,
            ..GgufInfo::default()
        };
        assert!(qwen3_embedding.is_embedding_model());
    }
}
