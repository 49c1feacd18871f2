//! Evident's UI-free core: everything between a policy file on disk and a checked,
//! cited answer.
//!
//! The pipeline has one small seam per stage so each can be tested alone and replaced:
//!
//! ```text
//! file ──extract──▶ Extracted (pages + semantic blocks) ──chunk──▶ Chunks
//!      ──segment──▶ index tokens ──store──▶ SQLite (documents, pages, chunks, FTS5)
//!      ──embed──▶ passage and sentence vectors (optional)
//! question ──search──▶ ranked passages ──answer──▶ cited sentences ──grounding──▶ verdicts
//! ```
//!
//! * [`extract`] (the `evident-extract` crate) turns Markdown, plain text, Word (`.docx`) and PDF into text with page
//!   boundaries and semantic blocks (headings, clauses, paragraphs). PDFs are read, and
//!   their pages drawn for the viewer, in a confined child process so a hostile file can
//!   never take the application down.
//! * [`chunk`] packs sentences into passages on semantic boundaries.
//! * `evident_text` (its own crate) holds normalisation, sentence splitting, numbers and
//!   ranges by value, and the jieba-based segmenter that both indexing and querying use.
//! * [`store`] is the crash-safe SQLite cache; the source files stay the truth.
//! * [`import`] drives the pipeline for files and folders and reports per-file outcomes;
//!   [`sync`] and [`watch`] keep the index equal to the folders the user imported.
//! * [`model`] is the seam to embeddings, reranking and chat models (local servers, or
//!   the built-in GGUF worker); [`embed`] embeds what has no vector yet.
//! * [`search`] ranks passages by keywords and, when vectors exist, by meaning, and
//!   decides whether the documents answer at all.
//! * [`answer`] composes extractive answers (or checks a model's) within a context
//!   budget; [`grounding`] checks every sentence against the passages it cites.
//! * [`userdata`] and [`settings`] hold what is the user's own (history, feedback,
//!   aliases, settings), beside the index and untouched by a rebuild.
//! * [`message`] and [`problem`] (the `evident-words` crate) are what users are told,
//!   as codes with parameters said in their language.
//!
//! The desktop shell and the CLI are thin faces over these modules; neither implements
//! any of this logic again.
//!
//! ```no_run
//! use evident_core::{import::{Importer, ImportOptions}, store::Store};
//! let mut store = Store::open("evident.sqlite3".as_ref())?;
//! let summary = Importer::new(ImportOptions::sandboxed()?)
//!     .run(&mut store, &["samples".into()], &mut |_event| {})?;
//! println!("{} imported", summary.count(evident_core::import::Outcome::is_imported));
//! # Ok::<(), evident_core::Error>(())
//! ```

pub mod answer;
mod aside;
pub mod chunk;
pub mod embed;
pub mod error;
pub mod grounding;
pub mod import;
pub mod search;
pub mod settings;
pub mod store;
pub mod sync;
#[cfg(feature = "testing")]
pub mod testing;
pub mod user_file;
pub mod userdata;
pub mod watch;

pub use error::{Error, ErrorCode, Result};
/// Extraction, from its own crate (`evident-extract`), where the core's paths have
/// always had it; with the size limits and the clock it stamps the OCR cache with.
pub use evident_extract::{self as extract, clock, limits};
/// Models and where Evident keeps its files, from their own crate (`evident-model`).
pub use evident_model::{self as model, paths};
/// The words said to users, from their own crate (`evident-words`), where the core's
/// paths have always had them.
pub use evident_words::{catalogue, message, problem};
