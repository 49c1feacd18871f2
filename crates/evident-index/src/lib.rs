//! Evident's index of the user's documents: passages cut on semantic boundaries, the
//! crash-safe SQLite store that keeps them with their source, page and offsets, their
//! vectors, and the search that ranks them for a question and decides whether the
//! documents answer it at all.
//!
//! * [`chunk`] packs an [`Extracted`](evident_extract::Extracted) text's sentences into
//!   passages on semantic boundaries, never mid-sentence.
//! * [`store`] is the SQLite cache (one transaction per document, versions pinned,
//!   damage detected); the source files stay the truth.
//! * [`search`] ranks passages by keywords and, when vectors exist, by meaning, then
//!   picks the answering sentence and the outcome with the learned models
//!   (`models/answers.json`).
//! * [`aside`] sets a damaged SQLite file aside (the index's, or the user's history)
//!   instead of deleting it.
//! * [`user_file`] writes the user's own small files (aliases) whole or not at all.
//! * [`error`] is the one error type of the library, which the core shares: the
//!   extraction's and the models' errors arrive in it by `From`.
//!
//! It sits on `evident-extract` (what a document says) and `evident-model` (the
//! models' seam), and knows nothing of imports, answers or the user's history: those
//! are the core's, which drives it.

pub mod aside;
pub mod chunk;
pub mod error;
pub mod search;
pub mod store;
pub mod user_file;

pub use error::{Error, ErrorCode, Result};

// The stages below, where this crate's modules have always found them.
use evident_extract::{self as extract, clock, limits};
use evident_model::{self as model, paths};
use evident_words::{message, problem};
