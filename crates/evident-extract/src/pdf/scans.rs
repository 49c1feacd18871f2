//! Reading a PDF's scanned pages by OCR during an import, on every core.
//!
//! A scanned policy is tens of pages, and each page is drawn at print resolution and
//! read by Tesseract, which runs on one core ([`super::ocr`] sets `OMP_THREAD_LIMIT=1`:
//! its own threads gain little on a page). So the pages are shared out: each core takes
//! a group of pages, draws the whole group in one PDF worker run (the file is sent and
//! parsed once per group, not once per page), and reads its pages one after another
//! while the other core does the same with its group. When the document's language is
//! not known yet, its first two pages are read first, at once, in Chinese and English:
//! what they read as narrows the languages for the rest, which reads faster and better.
//! Meanwhile the first group of the rest is drawn, which needs no language.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, mpsc};

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
        let read = {
            let _alone = ReadingFile::start();
            reading.all(&numbers, langs)
        };
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

/// Pages read at once to decide a document's languages ([`Opening`]) when the file is
/// the only one being read: otherwise the other core has another file's pages to read,
/// and an English document's second page would be read twice for nothing.
const OPENING_PAGES: usize = 2;

/// The languages the second opening page is read in before the first has decided.
const LIKELY: &str = ocr::CHINESE;

/// Files whose scanned pages are being read in this process.
static FILES_READING: AtomicUsize = AtomicUsize::new(0);

/// One file counted in [`FILES_READING`] while it lives.
struct ReadingFile;

impl ReadingFile {
    fn start() -> Self {
        FILES_READING.fetch_add(1, Ordering::SeqCst);
        Self
    }

    /// Whether no other file's pages are being read.
    fn alone() -> bool {
        FILES_READING.load(Ordering::SeqCst) <= 1
    }
}

impl Drop for ReadingFile {
    fn drop(&mut self) {
        FILES_READING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The opening pages of a document whose languages are not known, drawn in one worker
/// run. The first is read in Chinese and English and decides the languages of the
/// rest. When the file is read alone, the second is read at the same time on the
/// other core, in [`LIKELY`] languages, and read again only if the first decides
/// otherwise: every page is read in the languages it would have been read in one after
/// another, so the text is the same, but the other core no longer waits through the
/// file's slowest page (a page read in both languages takes about half as long again
/// as in one).
struct Opening {
    /// The pages drawn (none, one or two).
    drawn: Drawn,
    /// What the first page decided: `None` until it is read.
    decided: Mutex<Option<Option<&'static str>>>,
    changed: Condvar,
}

impl Opening {
    fn new(drawn: Drawn) -> Self {
        Self {
            drawn,
            decided: Mutex::new(None),
            changed: Condvar::new(),
        }
    }

    /// Reads opening page `k` (0 or 1), if there is one, and gives the languages for
    /// the rest of this core's pages.
    fn read(&self, reading: &Reading<'_>, k: usize) -> (Option<PageResult>, Option<&'static str>) {
        let Some(image) = self.drawn.get(k) else {
            return (None, self.decided());
        };
        if k == 0 {
            let mut langs = None;
            let page = reading.read_page(image, &mut langs);
            *lock(&self.decided) = Some(langs);
            self.changed.notify_all();
            return (Some(page), langs);
        }
        let mut likely = Some(LIKELY);
        let page = reading.read_page(image, &mut likely);
        let mut langs = self.decided();
        if langs == Some(LIKELY) {
            return (Some(page), langs);
        }
        let page = reading.read_page(image, &mut langs);
        (Some(page), langs)
    }

    /// The languages the first page decided, once it is read.
    fn decided(&self) -> Option<&'static str> {
        let mut decided = lock(&self.decided);
        loop {
            if let Some(langs) = *decided {
                return langs;
            }
            if self.drawn.is_empty() {
                return None;
            }
            decided = self
                .changed
                .wait(decided)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
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
    /// Reads `numbers` in `langs`, in groups shared by the cores; one result per page,
    /// in order. When `langs` is `None`, the cores start with the document's opening
    /// pages ([`Opening`]), which decide them for the rest.
    fn all(&self, numbers: &[u32], langs: Option<&'static str>) -> Vec<PageResult> {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let first = match langs {
            Some(_) => 0,
            None if ReadingFile::alone() => numbers.len().min(OPENING_PAGES).min(cores),
            None => numbers.len().min(1),
        };
        let rest = &numbers[first..];
        // As many groups as cores at least, each at most one worker run.
        let size = rest.len().div_ceil(cores).clamp(1, PAGES_PER_RUN);
        let groups: Vec<(usize, &[u32])> = rest
            .chunks(size)
            .enumerate()
            .map(|(g, pages)| (first + g * size, pages))
            .collect();
        let opening = Opening::new(if first > 0 {
            self.draw(&numbers[..first])
        } else {
            Vec::new()
        });
        // The first group of each core is drawn while the opening pages are read:
        // drawing needs no language, and a core would wait for it otherwise.
        let drawn_ahead = if first > 0 {
            cores.min(groups.len())
        } else {
            0
        };
        let (ready, ahead): (Vec<_>, Vec<_>) = (0..drawn_ahead)
            .map(|_| mpsc::sync_channel::<Drawn>(1))
            .map(|(tx, rx)| (tx, Mutex::new(rx)))
            .unzip();
        let next = AtomicUsize::new(0);
        let read = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            if !ready.is_empty() {
                s.spawn(|| {
                    for (tx, &(_, pages)) in ready.into_iter().zip(&groups) {
                        let _ = tx.send(self.draw(pages));
                    }
                });
            }
            for core in 0..cores.min(first.max(groups.len())) {
                let (opening, ahead, groups, next, read) =
                    (&opening, &ahead, &groups, &next, &read);
                s.spawn(move || {
                    let mut langs = langs;
                    if first > 0 {
                        let (page, decided) = opening.read(self, core);
                        if let Some(page) = page {
                            lock(read).push((core, vec![page]));
                        }
                        langs = decided;
                    }
                    loop {
                        let g = next.fetch_add(1, Ordering::SeqCst);
                        let Some(&(at, pages)) = groups.get(g) else {
                            break;
                        };
                        let drawn = ahead.get(g).and_then(|rx| lock(rx).recv().ok());
                        let drawn = drawn.unwrap_or_else(|| self.draw(pages));
                        let pages = self.read_group(drawn, &mut langs);
                        lock(read).push((at, pages));
                    }
                });
            }
        });
        let mut results: Vec<Option<PageResult>> = vec![None; numbers.len()];
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
            .map(|image| self.read_page(&image, langs))
            .collect()
    }

    /// Reads one page drawn in `langs`, or deciding them when `None`.
    fn read_page(
        &self,
        image: &std::result::Result<PageImage, Problem>,
        langs: &mut Option<&'static str>,
    ) -> PageResult {
        if self.stopped() {
            return Err(Problem::Cancelled);
        }
        let reading = || {
            let k = self.done.fetch_add(1, Ordering::SeqCst) as u32 + 1;
            (self.ctx.progress)(k.min(self.total), self.total);
        };
        let image = image.as_ref().map_err(Clone::clone)?;
        let (page, decided) = read_deciding_language(
            self.reader,
            image,
            self.engine,
            *langs,
            self.cache,
            &reading,
        )?;
        *langs = decided;
        Ok(page)
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
