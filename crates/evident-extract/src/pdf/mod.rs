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

    /// Reads the pages that have no text layer, or one that decodes to no readable
    /// characters, from their images ([`ocr`]), in place in `raw`.
    fn read_scans(
        &self,
        path: &Path,
        bytes: &[u8],
        raw: &mut read::RawPdf,
        ctx: &OcrContext<'_>,
    ) -> Result<Scans> {
        let mut scans = Scans::default();
        let needs: Vec<usize> = raw
            .pages
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                p.error.is_none()
                    && (p.text.trim().is_empty()
                        || clean::is_unreadable(&evident_text::normalize::fold_font_artefacts(
                            &p.text,
                        )))
            })
            .map(|(i, _)| i)
            .collect();
        if needs.is_empty() {
            return Ok(scans);
        }
        let engine = match ocr::engine() {
            Ok(engine) => engine,
            Err(why) => {
                scans.warnings.push(why.clone());
                scans.unavailable = Some(why);
                return Ok(scans);
            }
        };
        let text_pages: Vec<&str> = raw
            .pages
            .iter()
            .enumerate()
            .filter(|(i, _)| !needs.contains(i))
            .map(|(_, p)| p.text.as_str())
            .collect();
        let mut langs = ocr::langs_for(&text_pages);
        let cache = ctx.cache.and_then(ocr::Cache::open);
        let source = {
            use sha2::Digest;
            format!("{:x}", sha2::Sha256::digest(bytes))
        };
        let (mut read_ok, mut no_text) = (Vec::new(), Vec::new());
        for (k, &i) in needs.iter().enumerate() {
            if (ctx.cancelled)() {
                return Err(Error::input(path, Problem::Cancelled));
            }
            let number = raw.pages[i].number;
            let progress = || (ctx.progress)(k as u32 + 1, needs.len() as u32);
            let read = self.read_deciding_language(
                bytes,
                number,
                &engine,
                &mut langs,
                cache.as_ref().map(|c| (c, source.as_str())),
                &progress,
            );
            match read {
                Ok(page) if page.is_readable() => {
                    raw.pages[i].text = page.text;
                    scans.lines.push((number, page.lines));
                    read_ok.push(number);
                }
                Ok(_) => no_text.push(number),
                Err(why) => {
                    scans.warnings.push(why);
                    no_text.push(number);
                }
            }
        }
        if !read_ok.is_empty() {
            scans.warnings.push(Problem::PagesRead {
                pages: clean::page_list(&read_ok),
                count: read_ok.len(),
            });
        }
        if !no_text.is_empty() {
            scans.warnings.push(Problem::PagesNoText {
                pages: clean::page_list(&no_text),
                count: no_text.len(),
            });
        }
        Ok(scans)
    }

    /// Draws page `number` for reading and reads it (from the cache when read before).
    fn read_page_image(
        &self,
        bytes: &[u8],
        number: u32,
        engine: &ocr::Engine,
        langs: &'static str,
        cache: Option<(&ocr::Cache, &str)>,
        reading: &dyn Fn(),
    ) -> std::result::Result<ocr::OcrPage, Problem> {
        let image = match self {
            Self::InProcess => render::render_page(bytes, number, 0, &render::fallback_fonts()),
            Self::Sandboxed(sandbox) => sandbox.render(bytes, number, 0),
        }?;
        let drawn = ocr::page_for_reading(&image.png, ocr::DPI)?;
        let key = ocr::Cache::key(&drawn.pgm, engine, langs);
        if let Some(page) = cache.and_then(|(c, _)| c.get(&key)) {
            return Ok(page);
        }
        // Said only for a page actually read: one from the cache takes no time.
        reading();
        let read = |turned: bool| -> std::result::Result<ocr::OcrPage, Problem> {
            let tsv = match self {
                Self::InProcess => ocr::read_unconfined(engine, &drawn.pgm, langs, turned),
                Self::Sandboxed(sandbox) => sandbox.ocr(&drawn.pgm, langs, turned),
            }?;
            Ok(ocr::parse_tsv(&tsv, drawn.width, drawn.height, drawn.skew))
        };
        let mut page = read(false)?;
        // Noise may be a page the wrong way round: read after finding its orientation.
        if page.confidence < ocr::TURN_BELOW
            && let Ok(turned) = read(true)
            && turned.confidence > page.confidence
        {
            page = turned;
        }
        if let Some((cache, source)) = cache {
            cache.put(&key, &page, source);
        }
        Ok(page)
    }
}

impl PdfReader {
    /// Reads page `number` of the PDF `bytes` from its image, as an import reads the
    /// first scanned page of a document with no text (no cache): for measuring OCR
    /// (`evident-bench ocr`).
    pub fn read_scanned_page(
        &self,
        bytes: &[u8],
        number: u32,
    ) -> std::result::Result<ocr::OcrPage, Problem> {
        let engine = ocr::engine()?;
        self.read_deciding_language(bytes, number, &engine, &mut None, None, &|| {})
    }

    /// Reads a page in `langs`; when they are not known yet, in Chinese and English, and
    /// what it reads as (Latin text or not) narrows them for the rest of the document.
    fn read_deciding_language(
        &self,
        bytes: &[u8],
        number: u32,
        engine: &ocr::Engine,
        langs: &mut Option<&'static str>,
        cache: Option<(&ocr::Cache, &str)>,
        reading: &dyn Fn(),
    ) -> std::result::Result<ocr::OcrPage, Problem> {
        if let Some(known) = *langs {
            return self.read_page_image(bytes, number, engine, known, cache, reading);
        }
        let page =
            self.read_page_image(bytes, number, engine, ocr::DEFAULT_LANGS, cache, reading)?;
        if page.is_latin() {
            *langs = Some(ocr::ENGLISH);
        } else if page.is_readable() {
            *langs = Some(ocr::CHINESE);
        }
        Ok(page)
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
