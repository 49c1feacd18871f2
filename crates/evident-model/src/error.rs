//! What can go wrong with a model: its server failed (classified by what the user can
//! do about it), or the built-in model file cannot be used. Either way search goes on
//! by keyword; the error says why.

use std::path::PathBuf;

use evident_words::problem::Problem;
use evident_words::server::ServerError;

/// Result alias used throughout the model clients.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Why a model could not be used.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A model server failed.
    #[error(transparent)]
    Server(#[from] ServerError),
    /// The built-in embeddings model (a GGUF file run by Evident's worker) cannot be
    /// used.
    #[error("the embeddings model {path}: {reason}")]
    Model {
        /// The model file.
        path: PathBuf,
        /// Why it cannot be used.
        reason: String,
    },
}

impl Error {
    /// What is wrong, as a code the user is told in their language.
    pub fn problem(&self) -> Problem {
        match self {
            Error::Server(e) => Problem::Server(e.clone()),
            Error::Model { path, reason } => Problem::Model {
                path: path.display().to_string(),
                detail: reason.clone(),
            },
        }
    }
}
