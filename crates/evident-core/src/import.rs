//! Importing files and folders: walk, extract, chunk and write, one transaction per
//! document, with a per-file outcome for everything that was looked at.
//!
//! Extraction and chunking run on worker threads (PDFs in child processes); writes are
//! serialised on the calling thread in input order, so ids and reports are
//! deterministic. Reading, extracting and OCR happen outside any transaction. Each
//! document is written atomically (a savepoint); documents already read are committed
//! in small batches so that many small files do not pay a commit each, and a batch is
//! never held open longer than a quarter second, not even to wait for the next file,
//! so the library is never held while a scan is being read. Bad files never stop the
//! import: each gets a [`Outcome::Failed`] with a reason and the rest goes on.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::aside::{set_aside, sibling, with_suffix};
use crate::chunk::{CHUNKER_VERSION, ChunkerConfig, chunk};
use crate::extract::pdf::PdfReader;
use crate::extract::{DocumentKind, extract_textual};
use crate::limits::{self, read_capped};
use crate::message::Lang;
use crate::problem::{Limited, Problem};
use crate::store::{NewDocument, SourceFile, Store, sha256_hex};
use crate::{Error, Result};

/// How to import.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// Chunk sizes.
    pub chunker: ChunkerConfig,
    /// How PDFs are read.
    pub pdf: PdfReader,
    /// Worker threads for extraction and chunking.
    pub threads: usize,
    /// The embeddings server that embeds new chunks after the import, if one is set up.
    pub semantic: Option<crate::search::Semantic>,
    /// Set to stop the import: files not yet written are not imported (each file is
    /// written whole or not at all), and a scanned file stops between two pages.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl ImportOptions {
    /// Options for user files: PDFs are read in a sandboxed child process.
    pub fn sandboxed() -> Result<Self> {
        Ok(Self::with_reader(PdfReader::sandboxed()?))
    }

    /// Options with the given PDF reader and defaults otherwise.
    pub fn with_reader(pdf: PdfReader) -> Self {
        Self {
            chunker: ChunkerConfig::default(),
            pdf,
            threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            semantic: None,
            cancel: None,
        }
    }
}

/// What happened to one file.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    /// Newly indexed, or re-indexed because it changed.
    Imported {
        /// The document's id.
        doc_id: i64,
        /// Pages.
        pages: usize,
        /// Chunks.
        chunks: usize,
        /// True when an older version of the same file was replaced.
        replaced: bool,
        /// Non-fatal problems (pages without text, repairs), in English words.
        warnings: Vec<String>,
        /// The same as codes, for the user's language.
        #[serde(default)]
        warned: Vec<Problem>,
    },
    /// Same content as already indexed from this path; nothing was done.
    Unchanged {
        /// The document's id.
        doc_id: i64,
    },
    /// Same content as another indexed document; not indexed twice.
    Duplicate {
        /// The document it duplicates.
        #[serde(serialize_with = "crate::paths::serialize_lossy")]
        of: PathBuf,
    },
    /// Not a format Evident reads.
    Skipped {
        /// Why, in English words.
        reason: String,
        /// The same as a code, for the user's language.
        why: Problem,
    },
    /// Could not be imported.
    Failed {
        /// Why, in English words a user understands.
        reason: String,
        /// The same as a code, for the user's language.
        why: Problem,
    },
}

impl Outcome {
    /// A file that could not be imported, and why.
    pub fn failed(why: Problem) -> Self {
        Self::Failed {
            reason: why.to_string(),
            why,
        }
    }

    /// A file left out, and why.
    pub fn skipped(why: Problem) -> Self {
        Self::Skipped {
            reason: why.to_string(),
            why,
        }
    }

    /// True for [`Outcome::Imported`].
    pub fn is_imported(&self) -> bool {
        matches!(self, Self::Imported { .. })
    }
    /// The outcome's name as used in JSON (`imported`, `unchanged`, ...).
    pub fn label(&self) -> &'static str {
        match self {
            Self::Imported { .. } => "imported",
            Self::Unchanged { .. } => "unchanged",
            Self::Duplicate { .. } => "duplicate",
            Self::Skipped { .. } => "skipped",
            Self::Failed { .. } => "failed",
        }
    }
}

/// One file's report.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct FileReport {
    /// The file (canonical when it could be resolved).
    #[serde(serialize_with = "crate::paths::serialize_lossy")]
    pub path: PathBuf,
    /// Bytes read.
    pub bytes: u64,
    /// What happened.
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// The result of an import run.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize)]
pub struct ImportSummary {
    /// One report per file, in processing order.
    pub files: Vec<FileReport>,
    /// Wall-clock time.
    pub elapsed_ms: u128,
    /// Embedding of the new chunks, when an embeddings server is set up.
    pub embedding: Option<EmbedOutcome>,
}

/// How embedding went after an import. A failure does not fail the import: the
/// documents are in, keyword search works, and `evident embed` (or the app) catches up.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize)]
pub struct EmbedOutcome {
    /// What the pass did, when it ran to the end.
    pub report: Option<crate::embed::EmbedReport>,
    /// Why it stopped, in words for the user.
    pub error: Option<String>,
}

impl ImportSummary {
    /// Number of files whose outcome satisfies `pred`.
    pub fn count(&self, pred: impl Fn(&Outcome) -> bool) -> usize {
        self.files.iter().filter(|f| pred(&f.outcome)).count()
    }
    /// Counts per outcome label, in a fixed order.
    pub fn totals(&self) -> Vec<(&'static str, usize)> {
        ["imported", "unchanged", "duplicate", "skipped", "failed"]
            .into_iter()
            .map(|l| (l, self.count(|o| o.label() == l)))
            .collect()
    }
}

/// Progress of an import, for progress bars and UI events.
#[derive(Debug)]
pub enum ImportEvent<'a> {
    /// The files are known.
    Planned {
        /// Files to look at.
        files: usize,
        /// Their total size.
        bytes: u64,
    },
    /// A file is done (reports arrive in order).
    File(&'a FileReport),
    /// A scanned page of a file is being read (OCR): page `page` of the `pages` to read.
    Ocr {
        /// The file.
        path: &'a Path,
        /// Which of its scanned pages, from 1.
        page: u32,
        /// How many scanned pages it has.
        pages: u32,
    },
    /// New chunks are being embedded (after all files are written).
    Embedding(crate::embed::EmbedProgress),
}

/// Runs imports.
pub struct Importer {
    options: ImportOptions,
}

enum Prepared {
    Done(Outcome),
    Ready(Box<NewDocument>),
}

/// A file read and its text extracted, not chunked yet: chunks are measured in words,
/// which needs jieba's dictionary ([`Importer::chunk_read`]).
struct ReadFile {
    source: SourceFile,
    extracted: crate::extract::Extracted,
}

/// What reading a file gave: an outcome already, or text to chunk.
enum Read {
    Done(Prepared),
    Text(Box<ReadFile>),
}

impl From<Prepared> for Read {
    fn from(prepared: Prepared) -> Self {
        Read::Done(prepared)
    }
}

/// Files a reading thread holds, read but not chunked, while jieba's dictionary loads
/// (about 80 ms on one core, a quarter of importing the 908 Markdown files of
/// `scripts/bench.sh --import`): the files are read meanwhile instead of after it.
#[derive(Default)]
struct Held {
    files: std::collections::VecDeque<(usize, Box<ReadFile>)>,
    bytes: u64,
}

impl Held {
    /// Most file bytes a reading thread holds before it waits for the dictionary.
    const MAX_BYTES: u64 = 16 << 20;

    fn is_full(&self) -> bool {
        self.bytes >= Self::MAX_BYTES
    }
}

/// What a reading thread sends the writing one.
enum Msg {
    /// File `i` is read.
    Prepared(usize, Prepared),
    /// File `i`'s scanned page `page` of `pages` is being read.
    Ocr { i: usize, page: u32, pages: u32 },
}

struct Known {
    by_path: HashMap<PathBuf, (String, u32, i64)>,
    by_sha: HashMap<String, PathBuf>,
}

impl Importer {
    /// An importer with these options.
    pub fn new(options: ImportOptions) -> Self {
        Self { options }
    }

    /// Imports `inputs` (files and folders) into `store`.
    pub fn run(
        &self,
        store: &mut Store,
        inputs: &[PathBuf],
        observer: &mut dyn FnMut(ImportEvent<'_>),
    ) -> Result<ImportSummary> {
        self.options.chunker.validate()?;
        let started = Instant::now();
        // Every file's chunks are measured in words, so the dictionary is needed before
        // the first one: it loads on a thread of its own while the files are listed
        // (once per process: the sync pass imports every few seconds).
        if !evident_text::segment::dictionary_loaded() {
            let _ = std::thread::Builder::new()
                .name("evident-dict".into())
                .spawn(evident_text::segment::warm_up);
        }
        let (files, mut early) = collect_files(inputs);
        let sizes: Vec<u64> = files
            .iter()
            .map(|f| std::fs::metadata(f).map_or(0, |m| m.len()))
            .collect();
        observer(ImportEvent::Planned {
            files: files.len() + early.len(),
            bytes: sizes.iter().sum(),
        });
        let mut reports = Vec::with_capacity(files.len() + early.len());
        for report in early.drain(..) {
            observer(ImportEvent::File(&report));
            reports.push(report);
        }
        let known = known_documents(store)?;
        let next = AtomicUsize::new(0);
        let threads = self.options.threads.clamp(1, files.len().max(1));
        let ocr_cache = crate::extract::pdf::ocr::Cache::path_for(store.path());
        std::thread::scope(|scope| -> Result<()> {
            let (tx, rx) = mpsc::channel::<Msg>();
            for _ in 0..threads {
                let tx = tx.clone();
                let (files, known, next, ocr_cache) = (&files, &known, &next, &ocr_cache);
                // Named so profilers and crash reports can tell the readers from the writer.
                std::thread::Builder::new()
                    .name("evident-read".into())
                    .spawn_scoped(scope, move || {
                        self.read_files(files, known, next, ocr_cache, &tx);
                    })
                    .map_err(Error::Thread)?;
            }
            drop(tx);
            let mut pending: HashMap<usize, Prepared> = HashMap::new();
            let mut want = 0;
            let mut batch = Batch::default();
            let mut written = HashMap::new();
            loop {
                let msg = match batch.next(&rx) {
                    Next::Msg(msg) => msg,
                    Next::Due => {
                        batch.flush(store, observer, &mut reports);
                        continue;
                    }
                    Next::Done => break,
                };
                let (i, prepared) = match msg {
                    Msg::Prepared(i, prepared) => (i, prepared),
                    Msg::Ocr { i, page, pages } => {
                        observer(ImportEvent::Ocr {
                            path: &files[i],
                            page,
                            pages,
                        });
                        continue;
                    }
                };
                pending.insert(i, prepared);
                while let Some(prepared) = pending.remove(&want) {
                    let path = &files[want];
                    if matches!(prepared, Prepared::Ready(_)) && batch.started.is_none() {
                        store.begin_batch()?;
                        batch.started = Some(Instant::now());
                    }
                    let outcome = self.write(store, path, prepared, &known, &mut written);
                    batch.reports.push(FileReport {
                        path: path.clone(),
                        bytes: sizes[want],
                        outcome,
                    });
                    batch.bytes += sizes[want];
                    want += 1;
                    if batch.is_full() {
                        batch.flush(store, observer, &mut reports);
                    }
                }
            }
            batch.flush(store, observer, &mut reports);
            Ok(())
        })?;
        let embedding = self.embed_imported(store, observer);
        Ok(ImportSummary {
            files: reports,
            elapsed_ms: started.elapsed().as_millis(),
            embedding,
        })
    }

    /// With a model set up, embeds what was imported (a server that is down fails only
    /// this step: the documents stay imported and keyword search works).
    fn embed_imported(
        &self,
        store: &mut Store,
        observer: &mut dyn FnMut(ImportEvent<'_>),
    ) -> Option<EmbedOutcome> {
        self.options.semantic.as_ref().map(|semantic| {
            let server = semantic.0.as_ref();
            let mut report = |p| {
                observer(ImportEvent::Embedding(p));
                true
            };
            match crate::embed::embed_missing(store, server, &mut report) {
                Ok(r) => EmbedOutcome {
                    report: Some(r),
                    error: None,
                },
                Err(e) => EmbedOutcome {
                    report: None,
                    error: Some(format!(
                        "{e}. The documents are imported and keyword search works; run `evident embed` once the server is up"
                    )),
                },
            }
        })
    }

    fn cancelled(&self) -> bool {
        self.options
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// A reading thread: takes the next file not taken yet, reads, extracts and chunks
    /// it, and sends it to the writer, until every file is taken. While jieba's
    /// dictionary is still loading, files read are [`Held`] rather than waited on.
    fn read_files(
        &self,
        files: &[PathBuf],
        known: &Known,
        next: &AtomicUsize,
        ocr_cache: &Path,
        tx: &mpsc::Sender<Msg>,
    ) {
        let mut held = Held::default();
        loop {
            if (evident_text::segment::dictionary_loaded() || held.is_full())
                && !self.send_held(&mut held, tx)
            {
                return;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(path) = files.get(i) else { break };
            let progress = |page: u32, pages: u32| {
                let _ = tx.send(Msg::Ocr { i, page, pages });
            };
            let ctx = crate::extract::pdf::OcrContext {
                cache: Some(ocr_cache),
                progress: &progress,
                cancelled: &|| self.cancelled(),
            };
            let prepared = match self.unless_cancelled(|| self.read(path, known, &ctx)) {
                Read::Text(file) if !evident_text::segment::dictionary_loaded() => {
                    held.bytes += file.source.size_bytes;
                    held.files.push_back((i, file));
                    continue;
                }
                Read::Text(file) => self.unless_cancelled(|| self.chunk_read(*file)),
                Read::Done(prepared) => prepared,
            };
            if tx.send(Msg::Prepared(i, prepared)).is_err() {
                return;
            }
        }
        self.send_held(&mut held, tx);
    }

    /// `work`'s result, or a skipped file once the import is stopped.
    fn unless_cancelled<T: From<Prepared>>(&self, work: impl FnOnce() -> T) -> T {
        if self.cancelled() {
            Prepared::Done(Outcome::skipped(Problem::Cancelled)).into()
        } else {
            work()
        }
    }

    /// Chunks the files `held` read while the dictionary loaded, in the order they were
    /// read, and sends them to the writer; false once the writer has stopped listening.
    fn send_held(&self, held: &mut Held, tx: &mpsc::Sender<Msg>) -> bool {
        held.bytes = 0;
        while let Some((i, file)) = held.files.pop_front() {
            let prepared = self.unless_cancelled(|| self.chunk_read(*file));
            if tx.send(Msg::Prepared(i, prepared)).is_err() {
                return false;
            }
        }
        true
    }

    /// Reads and extracts the file at `path` ([`Importer::try_read`]); a failure is its
    /// outcome.
    fn read(&self, path: &Path, known: &Known, ctx: &crate::extract::pdf::OcrContext<'_>) -> Read {
        self.try_read(path, known, ctx)
            .unwrap_or_else(|e| Read::Done(failed(&e)))
    }

    /// Chunks a file read, ready for the writer; a failure is its outcome.
    fn chunk_read(&self, file: ReadFile) -> Prepared {
        let ReadFile { source, extracted } = file;
        chunk(&extracted, &self.options.chunker)
            .and_then(|chunks| NewDocument::new(source, extracted, chunks))
            .map_or_else(|e| failed(&e), |doc| Prepared::Ready(Box::new(doc)))
    }

    fn try_read(
        &self,
        path: &Path,
        known: &Known,
        ctx: &crate::extract::pdf::OcrContext<'_>,
    ) -> Result<Read> {
        let Some(kind) = DocumentKind::from_path(path) else {
            let ext = path
                .extension()
                .map(|e| format!(".{}", e.to_string_lossy()))
                .unwrap_or_default();
            if ext.eq_ignore_ascii_case(".doc") {
                // A policy in the old Word format is meant to be read: say how.
                return Ok(Read::Done(Prepared::Done(Outcome::failed(
                    Problem::OldWord,
                ))));
            }
            return Ok(Read::Done(Prepared::Done(Outcome::skipped(
                Problem::Unsupported { ext },
            ))));
        };
        let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
        let bytes = match kind {
            DocumentKind::Pdf => read_capped(path, limits::MAX_PDF_BYTES, Limited::Pdf)?,
            DocumentKind::Docx => read_capped(path, limits::MAX_DOCX_BYTES, Limited::Docx)?,
            _ => read_capped(path, limits::MAX_TEXT_BYTES, Limited::Text)?,
        };
        // A file being written (a save in progress, a copy still arriving) is not taken
        // half-read: its size and time must be the same after the read as before it.
        let after = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
        if after.len() != meta.len()
            || after.modified().ok() != meta.modified().ok()
            || bytes.len() as u64 != meta.len()
        {
            return Err(Error::input(path, Problem::Changed));
        }
        let sha256 = sha256_hex(&bytes);
        if let Some((sha, version, id)) = known.by_path.get(path)
            && *sha == sha256
            && *version == CHUNKER_VERSION
        {
            return Ok(Read::Done(Prepared::Done(Outcome::Unchanged {
                doc_id: *id,
            })));
        }
        if let Some(other) = known.by_sha.get(&sha256).filter(|p| p.as_path() != path) {
            return Ok(Read::Done(Prepared::Done(Outcome::Duplicate {
                of: other.clone(),
            })));
        }
        let mut extracted = match kind {
            DocumentKind::Pdf => self.options.pdf.extract_with(path, &bytes, ctx)?,
            _ => extract_textual(path, kind, &bytes)?,
        };
        extracted.tile_pages();
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_secs() as i64);
        let source = SourceFile {
            path: path.to_owned(),
            kind,
            sha256,
            size_bytes: bytes.len() as u64,
            mtime,
        };
        Ok(Read::Text(Box::new(ReadFile { source, extracted })))
    }

    /// Writes a prepared document. `written` holds the content hashes written earlier in
    /// this run (the workers only knew the documents from before it).
    fn write(
        &self,
        store: &mut Store,
        path: &Path,
        prepared: Prepared,
        known: &Known,
        written: &mut HashMap<String, PathBuf>,
    ) -> Outcome {
        let doc = match prepared {
            Prepared::Done(outcome) => return outcome,
            Prepared::Ready(doc) => doc,
        };
        let sha256 = &doc.source().sha256;
        if let Some(other) = written.get(sha256).filter(|p| p.as_path() != path) {
            return Outcome::Duplicate { of: other.clone() };
        }
        let sha256 = sha256.clone();
        let (pages, chunks) = (doc.extracted().pages.len(), doc.chunks().len());
        let warned = doc.extracted().warnings.clone();
        let warnings = warned.iter().map(|w| w.text(Lang::En)).collect();
        match store.write_document(*doc) {
            Ok(doc_id) => {
                written.insert(sha256, path.to_owned());
                Outcome::Imported {
                    doc_id,
                    pages,
                    chunks,
                    replaced: known.by_path.contains_key(path),
                    warnings,
                    warned,
                }
            }
            Err(e) => Outcome::failed(e.problem()),
        }
    }
}

/// Documents written since the last commit, and their reports, which are only given to
/// the observer once the commit has made them true.
#[derive(Default)]
struct Batch {
    started: Option<Instant>,
    bytes: u64,
    reports: Vec<FileReport>,
}

/// What the writer does next ([`Batch::next`]).
enum Next {
    /// Write what a reader sent.
    Msg(Msg),
    /// Commit the open batch: its time is up.
    Due,
    /// Every reader is done.
    Done,
}

/// Longest a batch stays open: the work a crash can lose stays small, progress keeps
/// moving, and no other writer waits longer than this for the import.
const BATCH_TIME: Duration = Duration::from_millis(250);

impl Batch {
    /// Commit at least every [`BATCH_TIME`], 500 files or 32 MB.
    fn is_full(&self) -> bool {
        self.started.is_some_and(|t| t.elapsed() >= BATCH_TIME)
            || self.reports.len() >= 500
            || self.bytes >= 32 << 20
    }

    /// The readers' next message. A batch is never kept open to wait for a file still
    /// being read (a scan's OCR takes seconds a page): once its time is up the wait
    /// ends ([`Next::Due`]) and it is committed first, so the library is free for the
    /// removal, the embedding pass or the sync pass that waits on it.
    fn next(&self, rx: &mpsc::Receiver<Msg>) -> Next {
        let Some(started) = self.started else {
            return rx.recv().map_or(Next::Done, Next::Msg);
        };
        match rx.recv_timeout(BATCH_TIME.saturating_sub(started.elapsed())) {
            Ok(msg) => Next::Msg(msg),
            Err(mpsc::RecvTimeoutError::Timeout) => Next::Due,
            Err(mpsc::RecvTimeoutError::Disconnected) => Next::Done,
        }
    }

    fn flush(
        &mut self,
        store: &mut Store,
        observer: &mut dyn FnMut(ImportEvent<'_>),
        reports: &mut Vec<FileReport>,
    ) {
        if self.started.take().is_some()
            && let Err(e) = store.commit_batch()
        {
            let _ = store.rollback_batch();
            for report in &mut self.reports {
                if report.outcome.is_imported() {
                    report.outcome = Outcome::failed(Problem::NotSaved { detail: e.reason() });
                }
            }
        }
        for report in self.reports.drain(..) {
            observer(ImportEvent::File(&report));
            reports.push(report);
        }
        self.bytes = 0;
    }
}

/// A file's outcome when reading or chunking it failed: skipped if the import was
/// stopped, failed with the reason otherwise.
fn failed(e: &Error) -> Prepared {
    Prepared::Done(match e.problem() {
        Problem::Cancelled => Outcome::skipped(Problem::Cancelled),
        problem => Outcome::failed(problem),
    })
}

fn known_documents(store: &Store) -> Result<Known> {
    let mut known = Known {
        by_path: HashMap::new(),
        by_sha: HashMap::new(),
    };
    for d in store.documents()? {
        known
            .by_sha
            .entry(d.sha256.clone())
            .or_insert_with(|| d.path.clone());
        known
            .by_path
            .insert(d.path, (d.sha256, d.chunker_version, d.id));
    }
    Ok(known)
}

/// Expands inputs into files: folders recursively in sorted order, hidden entries
/// skipped, duplicates removed. Inputs that do not exist are reported as failed.
pub fn collect_files(inputs: &[PathBuf]) -> (Vec<PathBuf>, Vec<FileReport>) {
    let mut files = Vec::new();
    let mut failed = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut push = |p: PathBuf, files: &mut Vec<PathBuf>| {
        let p = p.canonicalize().unwrap_or(p);
        if seen.insert(p.clone()) {
            files.push(p);
        }
    };
    for input in inputs {
        let fail = |why: Problem| FileReport {
            path: input.clone(),
            bytes: 0,
            outcome: Outcome::failed(why),
        };
        match std::fs::metadata(input) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                failed.push(fail(Problem::Unreadable {
                    cause: "not_found".into(),
                    detail: "no such file or folder".into(),
                }));
            }
            Err(e) => failed.push(fail(Problem::io(&e))),
            Ok(m) if m.is_dir() => {
                let base = input.canonicalize().unwrap_or_else(|_| input.clone());
                // Links are followed while they stay inside the folder the user chose; a
                // link out of it (to /etc, or to the whole home folder) is reported.
                let mut outside: Vec<(PathBuf, PathBuf)> = Vec::new();
                let walker = walkdir::WalkDir::new(input)
                    .follow_links(true)
                    .sort_by_file_name()
                    .into_iter()
                    .filter_entry(|e| {
                        if e.depth() > 0 && e.file_name().to_string_lossy().starts_with('.') {
                            return false;
                        }
                        if !e.path_is_symlink() {
                            return true;
                        }
                        match e.path().canonicalize() {
                            Ok(target) if target.starts_with(&base) => true,
                            Ok(target) => {
                                outside.push((e.path().to_owned(), target));
                                false
                            }
                            // A dangling link: walkdir reports it below.
                            Err(_) => true,
                        }
                    });
                for entry in walker {
                    match entry {
                        Ok(e) if e.file_type().is_file() => push(e.into_path(), &mut files),
                        Ok(_) => {}
                        Err(e) => failed.push(FileReport {
                            path: e.path().map_or_else(|| input.clone(), Path::to_owned),
                            bytes: 0,
                            outcome: Outcome::failed(Problem::Unreadable {
                                cause: "other".into(),
                                detail: e.to_string(),
                            }),
                        }),
                    }
                }
                failed.extend(outside.into_iter().map(|(link, target)| FileReport {
                    path: link,
                    bytes: 0,
                    outcome: Outcome::skipped(Problem::LinkOutside {
                        target: target.display().to_string(),
                    }),
                }));
            }
            Ok(_) => push(input.clone(), &mut files),
        }
    }
    (files, failed)
}

/// The outcome of [`rebuild`].
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize)]
pub struct RebuildReport {
    /// Source paths found in the old database.
    pub sources: usize,
    /// False when the old database was too damaged to list its documents.
    pub sources_recovered: bool,
    /// Where a damaged database was moved to.
    #[serde(serialize_with = "crate::paths::serialize_lossy_opt")]
    pub broken_copy: Option<PathBuf>,
    /// The import of the sources into the fresh database.
    pub summary: ImportSummary,
}

/// Rebuilds the database at `db` from its recorded source files: [`prepare_rebuild`],
/// then [`finish_rebuild`].
///
/// The new database is built beside the old one and then moved into place, so a crash
/// during a rebuild leaves the old database as it was. A damaged database is kept as
/// `<name>.broken-<unix time>`.
pub fn rebuild(
    db: &Path,
    options: &ImportOptions,
    observer: &mut dyn FnMut(ImportEvent<'_>),
) -> Result<RebuildReport> {
    let prepared = prepare_rebuild(db, options, observer)?;
    finish_rebuild(db, prepared)
}

/// A new database built beside the old one, waiting to replace it.
#[derive(Debug)]
pub struct PreparedRebuild {
    tmp: PathBuf,
    sources: Option<Vec<PathBuf>>,
    corrupt: bool,
    summary: ImportSummary,
}

/// Builds the new database beside `db` (`<name>.rebuilding`) from the old one's source
/// files. The old file is only read: questions go on being answered from it meanwhile,
/// and only [`finish_rebuild`] needs it closed.
pub fn prepare_rebuild(
    db: &Path,
    options: &ImportOptions,
    observer: &mut dyn FnMut(ImportEvent<'_>),
) -> Result<PreparedRebuild> {
    // The user's history first: an index from an older version may still hold it, and
    // it must be safe in its own file before that index is replaced.
    crate::userdata::UserData::open_for(db)?;
    let (sources, corrupt) = match Store::open(db) {
        Ok(store) => (Some(store.document_paths()?), false),
        Err(Error::DatabaseCorrupt { .. }) => (salvage_sources(db), true),
        Err(e) => return Err(e),
    };
    let tmp = sibling(db, "rebuilding");
    remove_db_files(&tmp)?;
    let paths = sources.clone().unwrap_or_default();
    let summary = {
        let mut fresh = Store::open(&tmp)?;
        // Vectors are keyed by chunk text: what was embedded before need not be again.
        if !corrupt {
            fresh.copy_vectors_from(db)?;
        }
        Importer::new(options.clone()).run(&mut fresh, &paths, observer)?
    };
    Ok(PreparedRebuild {
        tmp,
        sources,
        corrupt,
        summary,
    })
}

/// Moves the database [`prepare_rebuild`] made into `db`'s place (a damaged old file
/// is kept aside first). Every connection to `db` must be closed: an open one in
/// another process is refused, never replaced under it.
pub fn finish_rebuild(db: &Path, prepared: PreparedRebuild) -> Result<RebuildReport> {
    let PreparedRebuild {
        tmp,
        sources,
        corrupt,
        summary,
    } = prepared;
    let mut broken_copy = None;
    if corrupt {
        broken_copy = Some(set_aside(db)?);
    } else if with_suffix(db, "-wal").exists() {
        return Err(Error::RebuildImpossible {
            path: db.to_owned(),
            reason: "the database is in use by another Evident process; close it and try again"
                .into(),
        });
    }
    std::fs::rename(&tmp, db).map_err(|e| Error::io(db, e))?;
    Ok(RebuildReport {
        sources: sources.as_ref().map_or(0, Vec::len),
        sources_recovered: sources.is_some(),
        broken_copy,
        summary,
    })
}

/// Tries to read the list of source paths out of a damaged database.
fn salvage_sources(db: &Path) -> Option<Vec<PathBuf>> {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .ok()?;
    // A database from before raw paths were kept has no `path_raw`.
    let mut stmt = conn
        .prepare("SELECT path, path_raw FROM documents ORDER BY path")
        .or_else(|_| conn.prepare("SELECT path, NULL FROM documents ORDER BY path"))
        .ok()?;
    let rows = stmt
        .query_map([], |r| Ok(crate::paths::from_columns(r.get(0)?, r.get(1)?)))
        .ok()?;
    rows.collect::<rusqlite::Result<Vec<_>>>().ok()
}

fn remove_db_files(db: &Path) -> Result<()> {
    for p in [
        db.to_owned(),
        with_suffix(db, "-wal"),
        with_suffix(db, "-shm"),
    ] {
        match std::fs::remove_file(&p) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(p, e)),
        }
    }
    Ok(())
}
