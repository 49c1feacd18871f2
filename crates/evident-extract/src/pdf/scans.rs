//! Reading a PDF's scanned pages by OCR during an import, on every core.
//!
//! A scanned policy is tens of pages, and each page is drawn at print resolution and
//! read by Tesseract, which runs on one core ([`super::ocr`] sets `OMP_THREAD_LIMIT=1`:
//! its own threads gain little on a page). So the pages are shared out: each core takes
//! a group of pages, draws the whole group in one PDF worker run (the file is sent and
//! parsed once per group, not once per page), and reads its pages one after another
//! while the other core does the same with its group. The first page is read alone
//! when the document's language is not known yet: what it reads as narrows the
//! languages for the rest, which reads faster and better. Meanwhile the other core
//! draws the first group of the rest, which needs no language.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use evident_words::problem::Problem;

use super::render::{self, PageImage};
use super::sandbox::PAGES_PER_RUN;
use super::{OcrContext, PdfReader, Scans, clean, ocr, read};
use crate::{Error, Result};

/// The cache of pages read, shared by the threads, and the SHA-256 of the file read.
type SharedCache<'a> = Option<(&'a Mutex<ocr::Cache>, &'a str)>;

impl PdfReader {
    /// Reads the pages that have no text layer, or one that decodes to no readable
    /// characters, from their images ([`ocr`]), in place in `raw`.
    pub(super) fn read_scans(
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
        let langs = ocr::langs_for(&text_pages);
        let cache = ctx.cache.and_then(ocr::Cache::open).map(Mutex::new);
        let source = {
            use sha2::Digest;
            format!("{:x}", sha2::Sha256::digest(bytes))
        };
        let numbers: Vec<u32> = needs.iter().map(|&i| raw.pages[i].number).collect();
        let reading = Reading {
            reader: self,
            bytes,
            engine: &engine,
            cache: cache.as_ref().map(|c| (c, source.as_str())),
            ctx,
            done: AtomicUsize::new(0),
            total: numbers.len() as u32,
            cancelled: AtomicBool::new(false),
        };
        let read = reading.all(&numbers, langs);
        if reading.cancelled.load(Ordering::SeqCst) {
            return Err(Error::input(path, Problem::Cancelled));
        }
        let (mut read_ok, mut no_text) = (Vec::new(), Vec::new());
        for ((&i, &number), page) in needs.iter().zip(&numbers).zip(read) {
            match page {
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

    /// Reads page `number` of the PDF `bytes` from its image, as an import reads the
    /// first scanned page of a document with no text (no cache): for measuring OCR
    /// (`evident-bench ocr`).
    pub fn read_scanned_page(
        &self,
        bytes: &[u8],
        number: u32,
    ) -> std::result::Result<ocr::OcrPage, Problem> {
        let engine = ocr::engine()?;
        let image = self.draw_for_reading(bytes, &[number])?.remove(0)?;
        let (page, _) = read_deciding_language(self, &image, &engine, None, None, &|| {})?;
        Ok(page)
    }

    /// Draws `numbers` (at most [`PAGES_PER_RUN`]) at print resolution for reading, in
    /// one worker run; one result per page, in order.
    fn draw_for_reading(
        &self,
        bytes: &[u8],
        numbers: &[u32],
    ) -> std::result::Result<Vec<std::result::Result<PageImage, Problem>>, Problem> {
        let mut drawn = match self {
            Self::InProcess => {
                render::render_for_reading(bytes, numbers, &render::fallback_fonts())?
            }
            Self::Sandboxed(sandbox) => sandbox.render_for_reading(bytes, numbers)?,
        };
        drawn.resize_with(numbers.len(), || {
            Err(Problem::PdfReader {
                detail: "the page was not drawn".into(),
            })
        });
        Ok(drawn)
    }
}

/// One file's scanned pages being read, by one thread per core.
struct Reading<'a> {
    reader: &'a PdfReader,
    bytes: &'a [u8],
    engine: &'a ocr::Engine,
    cache: SharedCache<'a>,
    ctx: &'a OcrContext<'a>,
    /// Pages read so far (for progress).
    done: AtomicUsize,
    total: u32,
    /// Set when the user stopped the file: the threads take no more pages.
    cancelled: AtomicBool,
}

type PageResult = std::result::Result<ocr::OcrPage, Problem>;

/// A group of pages drawn for reading, one image (or why not) per page.
type Drawn = Vec<std::result::Result<PageImage, Problem>>;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Reading<'_> {
    /// Reads `numbers` in `langs` (the first page alone, deciding them, when `None`),
    /// the rest in groups shared by the cores; one result per page, in order.
    fn all(&self, numbers: &[u32], mut langs: Option<&'static str>) -> Vec<PageResult> {
        let mut results: Vec<Option<PageResult>> = vec![None; numbers.len()];
        let first = usize::from(langs.is_none());
        let rest = &numbers[first..];
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        // As many groups as cores at least, each at most one worker run.
        let size = rest.len().div_ceil(cores).clamp(1, PAGES_PER_RUN);
        let groups: Vec<(usize, &[u32])> = rest
            .chunks(size)
            .enumerate()
            .map(|(g, pages)| (first + g * size, pages))
            .collect();
        // The first group drawn ahead, while the first page is read alone: drawing
        // needs no language, and the other core would wait otherwise.
        let mut ahead: Option<Drawn> = None;
        if first == 1 {
            std::thread::scope(|s| {
                let drawing = groups
                    .first()
                    .map(|&(_, pages)| s.spawn(move || self.draw(pages)));
                results[0] = Some(self.group(&numbers[..1], &mut langs).remove(0));
                ahead = drawing.and_then(|d| d.join().ok());
            });
        }
        let ahead = Mutex::new(ahead);
        let next = AtomicUsize::new(0);
        let read = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for _ in 0..cores.min(groups.len()) {
                s.spawn(|| {
                    let mut langs = langs;
                    while let Some(&(at, pages)) = groups.get(next.fetch_add(1, Ordering::SeqCst)) {
                        let drawn = if at == first {
                            lock(&ahead).take()
                        } else {
                            None
                        };
                        let drawn = drawn.unwrap_or_else(|| self.draw(pages));
                        let pages = self.read_group(drawn, &mut langs);
                        lock(&read).push((at, pages));
                    }
                });
            }
        });
        for (at, pages) in read
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
        {
            for (k, page) in pages.into_iter().enumerate() {
                results[at + k] = Some(page);
            }
        }
        results
            .into_iter()
            .map(|r| r.unwrap_or(Err(Problem::Cancelled)))
            .collect()
    }

    /// Draws `numbers` in one worker run and reads them one after another.
    fn group(&self, numbers: &[u32], langs: &mut Option<&'static str>) -> Vec<PageResult> {
        self.read_group(self.draw(numbers), langs)
    }

    /// Draws `numbers` in one worker run: one image (or why not) per page.
    fn draw(&self, numbers: &[u32]) -> Drawn {
        if self.stopped() {
            return vec![Err(Problem::Cancelled); numbers.len()];
        }
        match self.reader.draw_for_reading(self.bytes, numbers) {
            Ok(drawn) => drawn,
            Err(why) => vec![Err(why); numbers.len()],
        }
    }

    /// Reads the pages of a group drawn, one after another.
    fn read_group(&self, drawn: Drawn, langs: &mut Option<&'static str>) -> Vec<PageResult> {
        drawn
            .into_iter()
            .map(|image| {
                if self.stopped() {
                    return Err(Problem::Cancelled);
                }
                let reading = || {
                    let k = self.done.fetch_add(1, Ordering::SeqCst) as u32 + 1;
                    (self.ctx.progress)(k.min(self.total), self.total);
                };
                let (page, decided) = read_deciding_language(
                    self.reader,
                    &image?,
                    self.engine,
                    *langs,
                    self.cache,
                    &reading,
                )?;
                *langs = decided;
                Ok(page)
            })
            .collect()
    }

    /// Whether the user stopped the file (asked once per page).
    fn stopped(&self) -> bool {
        if (self.ctx.cancelled)() {
            self.cancelled.store(true, Ordering::SeqCst);
        }
        self.cancelled.load(Ordering::SeqCst)
    }
}

/// Reads a drawn page in `langs`; when they are not known yet, in Chinese and English,
/// and what it reads as (Latin text or not) gives the languages for the rest of the
/// document.
fn read_deciding_language(
    reader: &PdfReader,
    image: &PageImage,
    engine: &ocr::Engine,
    langs: Option<&'static str>,
    cache: SharedCache<'_>,
    reading: &dyn Fn(),
) -> std::result::Result<(ocr::OcrPage, Option<&'static str>), Problem> {
    if let Some(known) = langs {
        return read_drawn(reader, image, engine, known, cache, reading).map(|p| (p, langs));
    }
    let page = read_drawn(reader, image, engine, ocr::DEFAULT_LANGS, cache, reading)?;
    let decided = if page.is_latin() {
        Some(ocr::ENGLISH)
    } else if page.is_readable() {
        Some(ocr::CHINESE)
    } else {
        None
    };
    Ok((page, decided))
}

/// Reads a drawn page (from the cache when read before).
fn read_drawn(
    reader: &PdfReader,
    image: &PageImage,
    engine: &ocr::Engine,
    langs: &'static str,
    cache: SharedCache<'_>,
    reading: &dyn Fn(),
) -> std::result::Result<ocr::OcrPage, Problem> {
    let drawn = ocr::page_for_reading(&image.png, ocr::DPI)?;
    let key = ocr::Cache::key(&drawn.pgm, engine, langs);
    let cached = |(c, _): (&Mutex<ocr::Cache>, &str)| {
        c.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&key)
    };
    if let Some(page) = cache.and_then(cached) {
        return Ok(page);
    }
    // Said only for a page actually read: one from the cache takes no time.
    reading();
    let read = |turned: bool| -> std::result::Result<ocr::OcrPage, Problem> {
        let tsv = match reader {
            PdfReader::InProcess => ocr::read_unconfined(engine, &drawn.pgm, langs, turned),
            PdfReader::Sandboxed(sandbox) => sandbox.ocr(&drawn.pgm, langs, turned),
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
        cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .put(&key, &page, source);
    }
    Ok(page)
}
