//! Evident's UI-free core: it drives the stages below it, from a policy file on disk to
//! a checked, cited answer, and keeps the library equal to the user's folders.
//!
//! Each stage is a crate of its own, so the compiler forbids a cycle between them
//! (ARCHITECTURE.md draws the graph):
//!
//! ```text
//! file ──extract──▶ Extracted (pages + semantic blocks) ──chunk──▶ passages
//!      ──store──▶ SQLite (documents, pages, chunks, FTS5) ──embed──▶ vectors (optional)
//! question ──search──▶ ranked passages ──answer──▶ cited sentences ──grounding──▶ verdicts
//! ```
//!
//! * [`extract`] (`evident-extract`) turns Markdown, plain text, Word and PDF into text
//!   with page boundaries and semantic blocks; PDFs are read, and their pages drawn, in
//!   a confined child process so a hostile file can never take the application down.
//! * [`model`] (`evident-model`) is the seam to embeddings, reranking and chat models
//!   (local servers, or the built-in GGUF worker).
//! * [`chunk`], [`store`] and [`search`] (`evident-index`): passages on semantic
//!   boundaries, the crash-safe SQLite cache (the source files stay the truth), and
//!   ranking by keywords and meaning with the decision whether the documents answer.
//! * [`grounding`] (`evident-check`) checks every sentence against what it cites.
//! * [`answer`] and [`userdata`] (`evident-answer`): answers within a context budget,
//!   exports, and the user's own history and feedback, untouched by a rebuild.
//! * [`message`] and [`problem`] (`evident-words`) are what users are told, as codes
//!   said from one catalogue in their language; `evident_text` holds normalisation,
//!   sentences, numbers and the segmenter that indexing and querying share.
//!
//! This crate's own modules are the orchestration: [`import`] drives the pipeline for
//! files and folders and reports per-file outcomes; [`sync`] and [`watch`] keep the
//! index equal to the folders the user imported; [`embed`] gives what has no vector
//! one; [`settings`] holds the user's settings. The others are re-exported where the
//! core's paths have always had them, so the faces (the desktop shell, the CLI, the
//! benchmarks) see one library and implement none of this again.
//!
//! ```no_run
//! use evident_core::{import::{Importer, ImportOptions}, store::Store};
//! let mut store = Store::open("evident.sqlite3".as_ref())?;
//! let summary = Importer::new(ImportOptions::sandboxed()?)
//!     .run(&mut store, &["samples".into()], &mut |_event| {})?;
//! println!("{} imported", summary.count(evident_core::import::Outcome::is_imported));
//! # Ok::<(), evident_core::Error>(())
//! ```

pub mod embed;
pub mod import;
pub mod page_cache;
pub mod settings;
pub mod sync;
#[cfg(feature = "testing")]
pub mod testing;
pub mod watch;

/// Answers and the user's own data (`evident-answer`).
pub use evident_answer::{self as answer, userdata};
/// The grounding check (`evident-check`).
pub use evident_check as grounding;
/// Extraction (`evident-extract`), with the size limits and the clock.
pub use evident_extract::{self as extract, clock, limits};
/// The index (passages, the store, search) and the library's one error type
/// (`evident-index`).
pub use evident_index::{Error, ErrorCode, Result, aside, chunk, error, search, store, user_file};
/// Models and where Evident keeps its files (`evident-model`).
pub use evident_model::{self as model, paths};
/// The words said to users (`evident-words`).
pub use evident_words::{catalogue, message, problem};
