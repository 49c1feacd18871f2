//! PDF extraction: read pages (in a sandboxed child process by default), then clean them
//! into one document text with exact page spans.

pub mod clean;
pub use evident_worker::confine;
mod deskew;
mod forms;
#[cfg(feature = "testing")]
mod hostile;
mod layout;
pub mod ocr;
pub mod read;
pub mod render;
pub mod sandbox;
mod scans;

use std::path::Path;

#[cfg(feature = "testing")]
pub use sandbox::Misbehaviour;
pub use sandbox::{PdfSandbox, run_worker_if_requested};

use super::{Extracted, file_title};
use crate::{Error, Result};
use evident_words::problem::Problem;

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

    /// Extracts the PDF `bytes` read from `path` (scanned pages read by OCR, nothing
    /// cached, no progress).
    pub fn extract(&self, path: &Path, bytes: &[u8]) -> Result<Extracted> {
        self.extract_with(path, bytes, &OcrContext::default())
    }

    /// [`Self::extract`], reading scanned pages with `ctx`'s cache, progress and cancel.
    pub fn extract_with(
        &self,
        path: &Path,
        bytes: &[u8],
        ctx: &OcrContext<'_>,
    ) -> Result<Extracted> {
        let pdf_error = |why| Error::Pdf {
            path: path.to_owned(),
            why,
        };
        let mut raw = match self {
            Self::InProcess => read::read_pdf(bytes),
            Self::Sandboxed(sandbox) => sandbox.read(bytes),
        }
        .map_err(pdf_error)?;
        let page_count = raw.pages.len();
        let scans = self.read_scans(path, bytes, &mut raw, ctx)?;
        let mut doc = clean::assemble(raw, &file_title(path));
        doc.warnings.extend(scans.warnings);
        doc.ocr_pages = scans.lines;
        if doc.text.trim().is_empty() {
            let why =
                if let Some(unavailable) = scans.unavailable {
                    unavailable
                } else if doc.warnings.iter().any(clean::is_unreadable_warning) {
                    Problem::PdfNoUnicode
                } else if doc.warnings.iter().all(|w| {
                    clean::is_textless_warning(w) || matches!(w, Problem::PagesNoText { .. })
                }) {
                    Problem::PdfScanned { pages: page_count }
                } else {
                    Problem::PdfNoText {
                        detail: doc
                            .warnings
                            .iter()
                            .map(|w| w.text(evident_words::message::Lang::En))
                            .collect::<Vec<_>>()
                            .join("; "),
                    }
                };
            return Err(pdf_error(why));
        }
        Ok(doc)
    }
}

/// What reading the scanned pages gave.
#[derive(Default)]
struct Scans {
    lines: Vec<(u32, Vec<ocr::OcrLine>)>,
    warnings: Vec<Problem>,
    /// Why no page could be read at all, when Tesseract is missing.
    unavailable: Option<Problem>,
}

/// How scanned pages are read during an import.
pub struct OcrContext<'a> {
    /// The cache of pages read (`ocr-cache.sqlite3` beside the index).
    pub cache: Option<&'a Path>,
    /// Told page k of n as each scanned page is read.
    pub progress: &'a (dyn Fn(u32, u32) + Sync),
    /// Asked before each page: true stops the file (it is not imported).
    pub cancelled: &'a (dyn Fn() -> bool + Sync),
}

impl Default for OcrContext<'_> {
    fn default() -> Self {
        Self {
            cache: None,
            progress: &|_, _| {},
            cancelled: &|| false,
        }
    }
}
