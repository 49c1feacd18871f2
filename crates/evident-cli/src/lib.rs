//! What Evident's two command-line programs share: `evident` (the user's commands) and
//! `evident-bench` (the measurements and the training, in their own crate so the user's
//! binary and its `--help` carry none of them).
//!
//! * [`flags`]: the flag groups (chunking, embeddings server, reranker, answer model);
//! * [`semantic`] and [`llm`]: which models a command uses, from the flags or the
//!   desktop app's settings beside the database;
//! * [`locale`]: the language messages are said in;
//! * the few steps every command starts or ends with: opening the database, the import
//!   options, and one line for an error.

pub mod flags;
pub mod llm;
pub mod locale;
pub mod semantic;

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use evident_core::chunk::ChunkerConfig;
use evident_core::import::ImportOptions;
use evident_core::store::Store;

/// Opens the database, printing what opening it noticed (a rebuild, a repair).
pub fn open(db: &Path) -> anyhow::Result<Store> {
    let store = Store::open(db)?;
    for notice in store.notices() {
        eprintln!("note: {notice}");
    }
    Ok(store)
}

/// The import options the chunking flags ask for, PDFs read by the confined worker.
pub fn import_options(a: &flags::ChunkArgs) -> anyhow::Result<ImportOptions> {
    let mut options = ImportOptions::sandboxed().context("cannot prepare the PDF reader")?;
    options.chunker = ChunkerConfig {
        target_tokens: a.target_tokens,
        max_tokens: a.max_tokens,
        overlap_sentences: a.overlap_sentences,
        overlap_max_tokens: a.overlap_max_tokens,
    };
    options.chunker.validate()?;
    if let evident_core::extract::pdf::PdfReader::Sandboxed(s) = &mut options.pdf {
        s.timeout = std::time::Duration::from_secs(a.pdf_timeout.max(1));
    }
    Ok(options)
}

/// Starts the worker this process was started to be, if it was: a child reading one
/// PDF in isolation, or one running the built-in embeddings model, never reaches the
/// command line proper. Both binaries import, so both can be asked to be one.
pub fn run_worker_if_requested() {
    evident_core::extract::pdf::run_worker_if_requested();
    evident_embedder::run_worker_if_requested();
}

/// A command's result as the process's exit status, its error on one line.
pub fn exit_status(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        // `evident docs | head`: the reader has gone; that is not an error.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", one_line(&e));
            ExitCode::FAILURE
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The error and its causes on one line, without repeating what the message already says;
/// a file's or a server's problem in the locale's language.
fn one_line(e: &anyhow::Error) -> String {
    if let Some(said) = e
        .downcast_ref::<evident_core::Error>()
        .and_then(locale::in_locale)
    {
        return said;
    }
    let mut out = e.to_string();
    for cause in e.chain().skip(1) {
        let c = cause.to_string();
        if !out.contains(&c) {
            out.push_str(": ");
            out.push_str(&c);
        }
    }
    out
}
