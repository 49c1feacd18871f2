//! PDF extraction: read pages (in a sandboxed child process by default), then clean them
//! into one document text with exact page spans.

pub mod clean;
pub mod confine;
mod forms;
#[cfg(feature = "testing")]
mod hostile;
pub mod layout;
pub mod read;
pub mod render;
pub mod sandbox;

use std::path::Path;

#[cfg(feature = "testing")]
pub use sandbox::Misbehaviour;
pub use sandbox::{PdfSandbox, run_worker_if_requested};

use super::{Extracted, file_title};
use crate::problem::Problem;
use crate::{Error, Result};

/// How PDFs are read.
#[derive(Debug, Clone)]
pub enum PdfReader {
    /// In this process: fast, but a hostile PDF can crash it. For tests and trusted files.
    InProcess,
    /// In a child process with time and memory limits (the default for user files).
    Sandboxed(PdfSandbox),
}

impl PdfReader {
    /// The safe default: a sandbox around the current executable.
    pub fn sandboxed() -> Result<Self> {
        PdfSandbox::current_exe()
            .map(Self::Sandboxed)
            .map_err(|e| Error::io("<current executable>", e))
    }

    /// Extracts the PDF `bytes` read from `path`.
    pub fn extract(&self, path: &Path, bytes: &[u8]) -> Result<Extracted> {
        let raw = match self {
            Self::InProcess => read::read_pdf(bytes),
            Self::Sandboxed(sandbox) => sandbox.read(bytes),
        }
        .map_err(|why| Error::Pdf {
            path: path.to_owned(),
            why,
        })?;
        let page_count = raw.pages.len();
        let doc = clean::assemble(raw, &file_title(path));
        if doc.text.trim().is_empty() {
            let why = if doc.warnings.iter().any(clean::is_unreadable_warning) {
                Problem::PdfNoUnicode
            } else if doc.warnings.iter().all(clean::is_textless_warning) {
                Problem::PdfScanned { pages: page_count }
            } else {
                Problem::PdfNoText {
                    detail: doc
                        .warnings
                        .iter()
                        .map(|w| w.text(crate::message::Lang::En))
                        .collect::<Vec<_>>()
                        .join("; "),
                }
            };
            return Err(Error::Pdf {
                path: path.to_owned(),
                why,
            });
        }
        Ok(doc)
    }
}
