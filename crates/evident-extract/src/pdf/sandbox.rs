//! Reading PDFs in a child process with a time and memory limit.
//!
//! pdf-extract can overflow its stack on hostile files, which no `catch_unwind` can
//! survive, and any parser can be made to allocate without bound. So the application
//! re-runs its own executable as a worker: the PDF goes in on stdin, the pages come back
//! as JSON on stdout, and if the worker dies, hangs or runs out of memory, only that file
//! fails. Every binary that imports PDFs calls [`run_worker_if_requested`] first thing in
//! `main`.
//!
//! The worker runs with an empty environment in a fresh empty folder, confines itself
//! before it reads a byte ([`super::confine`]: limits, Landlock, seccomp), and what it
//! sends back is capped. Workers at once are bounded by memory: each may take its whole
//! limit, so no more start than the machine's available memory holds.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Condvar, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use evident_worker::process::{Failure, Launch};
use serde::{Deserialize, Serialize};

use super::confine::confine;
#[cfg(feature = "testing")]
pub use super::hostile::Misbehaviour;
use super::read::{RawPdf, read_pdf};
use super::render::{PageImage, fallback_fonts, render_for_reading, render_page};
use evident_words::problem::Problem;

/// First argument that turns an Evident binary into a PDF worker.
pub const WORKER_ARG: &str = "__evident-pdf-worker";

/// Most bytes read back from a worker: far more than the text of any real document
/// (a 256 MB PDF of text is rarely a tenth of that as text), far less than memory.
pub const MAX_REPLY_BYTES: u64 = 256 << 20;

/// Most pages one worker run draws for reading: the file is parsed once for them, and
/// their images (a few MB each) are held until they are sent.
pub const PAGES_PER_RUN: usize = 8;

/// What the worker prints. A drawn page's PNG follows the JSON line as raw bytes (the
/// PNGs of pages drawn for reading follow one after another, of the lengths given).
#[derive(Debug, Serialize, Deserialize)]
pub(super) enum WorkerReply {
    Read(RawPdf),
    Rendered(PageImage),
    RenderedForReading {
        pages: Vec<Result<PageImage, Problem>>,
        png_lengths: Vec<usize>,
    },
    Failed(Problem),
    /// What a worker of this kind gets from this kernel ([`PdfSandbox::confinement`]).
    Confined(super::confine::Confinement),
    #[cfg(feature = "testing")]
    Probed(super::confine::Probe),
}

/// What a worker is asked to do with the PDF on its stdin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Job {
    /// Read every page's text.
    Read,
    /// Draw one page (1-based) this many pixels wide (0: at [`super::ocr::DPI`]), with
    /// its text boxes.
    Render { page: u32, width: u32 },
    /// Draw these pages (the first `count` of `pages`) for reading, at
    /// [`super::ocr::DPI`], with no text boxes.
    RenderForReading {
        pages: [u32; PAGES_PER_RUN],
        count: usize,
    },
    /// Become Tesseract and read the image on stdin, in these languages (`turned`: after
    /// finding the page's orientation, [`super::ocr::tesseract_args`]).
    Ocr { langs: &'static str, turned: bool },
    /// Confine itself as a reader (or, `ocr`, as the OCR step) and say how.
    Report { ocr: bool },
}

impl Job {
    fn arg(self) -> Option<String> {
        match self {
            Self::Read => None,
            Self::Render { page, width } => Some(format!("render:{page}:{width}")),
            Self::RenderForReading { pages, count } => Some(format!(
                "render-for-reading:{}",
                pages[..count]
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            )),
            Self::Ocr {
                langs,
                turned: false,
            } => Some(format!("ocr:{langs}")),
            Self::Ocr {
                langs,
                turned: true,
            } => Some(format!("ocr-turned:{langs}")),
            Self::Report { ocr: false } => Some("report".into()),
            Self::Report { ocr: true } => Some("report-ocr".into()),
        }
    }

    fn parse(arg: &str) -> Option<Self> {
        match arg {
            "report" => return Some(Self::Report { ocr: false }),
            "report-ocr" => return Some(Self::Report { ocr: true }),
            _ => {}
        }
        let ocr = arg
            .strip_prefix("ocr:")
            .map(|l| (l, false))
            .or_else(|| arg.strip_prefix("ocr-turned:").map(|l| (l, true)));
        if let Some((langs, turned)) = ocr {
            // Only the languages Evident asks for: nothing from outside reaches the
            // program's arguments.
            let langs = [
                super::ocr::ENGLISH,
                super::ocr::CHINESE,
                super::ocr::DEFAULT_LANGS,
            ]
            .into_iter()
            .find(|l| *l == langs)?;
            return Some(Self::Ocr { langs, turned });
        }
        if let Some(list) = arg.strip_prefix("render-for-reading:") {
            let mut pages = [0; PAGES_PER_RUN];
            let mut count = 0;
            for number in list.split(',') {
                *pages.get_mut(count)? = number.parse().ok()?;
                count += 1;
            }
            return Some(Self::RenderForReading { pages, count });
        }
        let mut parts = arg.strip_prefix("render:")?.split(':');
        let page = parts.next()?.parse().ok()?;
        let width = parts.next()?.parse().ok()?;
        Some(Self::Render { page, width })
    }
}

/// Limits and the program used to read PDFs out of process.
#[derive(Debug, Clone)]
pub struct PdfSandbox {
    /// The executable to run (normally the current one).
    pub program: PathBuf,
    /// Wall-clock limit per file.
    pub timeout: Duration,
    /// Address-space limit of the worker, in bytes.
    pub memory_limit: u64,
    /// For tests: what the worker does instead of reading.
    #[cfg(feature = "testing")]
    pub misbehave: Option<Misbehaviour>,
}

impl PdfSandbox {
    /// A sandbox that runs the current executable with default limits (60 s, 2 GiB).
    pub fn current_exe() -> std::io::Result<Self> {
        Ok(Self {
            program: std::env::current_exe()?,
            timeout: Duration::from_secs(60),
            memory_limit: 2 << 30,
            #[cfg(feature = "testing")]
            misbehave: None,
        })
    }

    /// Runs a worker in [`Misbehaviour::Probe`] mode and returns what it could do.
    #[cfg(feature = "testing")]
    pub fn probe(&self, port: u16) -> Result<super::confine::Probe, String> {
        let sandbox = Self {
            misbehave: Some(Misbehaviour::Probe(port)),
            ..self.clone()
        };
        match sandbox.run(b"", Job::Read)? {
            WorkerReply::Probed(p) => Ok(p),
            _ => Err("the worker did not probe".into()),
        }
    }

    /// Runs an OCR worker in [`Misbehaviour::ProbeOcr`] mode: confined as it is before
    /// it becomes Tesseract, it tries what a hostile scan would, and says what worked.
    #[cfg(feature = "testing")]
    pub fn probe_ocr(&self, port: u16) -> Result<super::confine::Probe, String> {
        let engine = super::ocr::engine().map_err(|p| p.text(evident_words::message::Lang::En))?;
        let sandbox = Self {
            misbehave: Some(Misbehaviour::ProbeOcr(port)),
            ..self.clone()
        };
        let limit = self.timeout;
        let out = sandbox.run_raw_with(b"", Job::Read, limit, Some(&engine.program))?;
        match serde_json::from_slice::<WorkerReply>(&out) {
            Ok(WorkerReply::Probed(p)) => Ok(p),
            Ok(WorkerReply::Failed(why)) => Err(why.text(evident_words::message::Lang::En)),
            _ => Err("the worker did not probe".into()),
        }
    }

    /// How a PDF reader is confined on this system: a worker confines itself as for a
    /// real file and says what the kernel enforced (Settings say when that is less
    /// than everything).
    pub fn confinement(&self) -> Result<super::confine::Confinement, String> {
        match self.run(b"", Job::Report { ocr: false })? {
            WorkerReply::Confined(c) => Ok(c),
            WorkerReply::Failed(why) => Err(why.text(evident_words::message::Lang::En)),
            _ => Err("the PDF reader answered another question".into()),
        }
    }

    /// How the OCR step is confined on this system (as [`Self::confinement`]), or why
    /// there is none: no Tesseract.
    pub fn ocr_confinement(&self) -> Result<super::confine::Confinement, Problem> {
        let engine = super::ocr::engine()?;
        let out = self
            .run_raw_with(
                b"",
                Job::Report { ocr: true },
                self.timeout,
                Some(&engine.program),
            )
            .map_err(|detail| Problem::PdfReader { detail })?;
        match serde_json::from_slice::<WorkerReply>(&out) {
            Ok(WorkerReply::Confined(c)) => Ok(c),
            Ok(WorkerReply::Failed(why)) => Err(why),
            _ => Err(Problem::PdfReader {
                detail: "the OCR step answered another question".into(),
            }),
        }
    }

    /// Reads the PDF `bytes` (from `path`, for messages) in a worker process.
    pub fn read(&self, bytes: &[u8]) -> Result<RawPdf, Problem> {
        let reader = |detail: String| Problem::PdfReader { detail };
        match self.run(bytes, Job::Read).map_err(reader)? {
            WorkerReply::Read(pdf) => Ok(pdf),
            WorkerReply::Failed(why) => Err(why),
            _ => Err(reader("the PDF reader answered another question".into())),
        }
    }

    /// Draws page `page` (1-based) of the PDF `bytes`, `width` pixels wide, with its
    /// text boxes ([`super::render`]), in a worker process that may read nothing but
    /// the fallback fonts.
    pub fn render(&self, bytes: &[u8], page: u32, width: u32) -> Result<PageImage, Problem> {
        let reader = |detail: String| Problem::PdfReader { detail };
        match self
            .run(bytes, Job::Render { page, width })
            .map_err(reader)?
        {
            WorkerReply::Rendered(image) => Ok(image),
            WorkerReply::Failed(why) => Err(why),
            _ => Err(reader("the PDF reader answered another question".into())),
        }
    }

    /// Draws `pages` (1-based, at most [`PAGES_PER_RUN`]) of the PDF `bytes` for reading
    /// by OCR, in one worker run that parses the file once; a page that cannot be drawn
    /// gets its own reason.
    pub fn render_for_reading(
        &self,
        bytes: &[u8],
        pages: &[u32],
    ) -> Result<Vec<Result<PageImage, Problem>>, Problem> {
        let reader = |detail: String| Problem::PdfReader { detail };
        let count = pages.len().min(PAGES_PER_RUN);
        let mut asked = [0; PAGES_PER_RUN];
        asked[..count].copy_from_slice(&pages[..count]);
        let job = Job::RenderForReading {
            pages: asked,
            count,
        };
        // Each page may take what one page drawn alone may.
        let limit = self.timeout.saturating_mul(count.max(1) as u32);
        match self.run_within(bytes, job, limit).map_err(reader)? {
            WorkerReply::RenderedForReading { pages, .. } => Ok(pages),
            WorkerReply::Failed(why) => Err(why),
            _ => Err(reader("the PDF reader answered another question".into())),
        }
    }

    fn run(&self, bytes: &[u8], job: Job) -> Result<WorkerReply, String> {
        self.run_within(bytes, job, self.timeout)
    }

    /// Runs a worker for `job` within `timeout` and reads its reply, with the PNGs that
    /// follow a drawn page's JSON line put back into their pages.
    fn run_within(&self, bytes: &[u8], job: Job, timeout: Duration) -> Result<WorkerReply, String> {
        let out = self.run_raw(bytes, job, timeout)?;
        let unreadable = |e: &str| format!("the PDF reader returned unreadable output ({e})");
        let (head, image) = match out.iter().position(|&b| b == b'\n') {
            Some(at) => (&out[..at], &out[at + 1..]),
            None => (&out[..], &[][..]),
        };
        let mut reply =
            serde_json::from_slice::<WorkerReply>(head).map_err(|e| unreadable(&e.to_string()))?;
        match &mut reply {
            WorkerReply::Rendered(page) => {
                if !image.starts_with(b"\x89PNG") {
                    return Err(unreadable("no page image"));
                }
                page.png = image.to_vec();
            }
            WorkerReply::RenderedForReading { pages, png_lengths } => {
                if png_lengths.len() != pages.len() {
                    return Err(unreadable("a page image is missing"));
                }
                let mut images = image;
                for (page, &len) in pages.iter_mut().zip(png_lengths.iter()) {
                    let (png, rest) = images
                        .split_at_checked(len)
                        .ok_or_else(|| unreadable("a page image is cut short"))?;
                    if let Ok(page) = page {
                        page.png = png.to_vec();
                    }
                    images = rest;
                }
            }
            _ => {}
        }
        Ok(reply)
    }

    /// Reads the image `pgm` (a page drawn for reading, [`super::ocr::page_for_reading`])
    /// with Tesseract in `langs`, in a worker confined like a PDF reader that then
    /// becomes Tesseract; returns Tesseract's TSV.
    pub fn ocr(&self, pgm: &[u8], langs: &'static str, turned: bool) -> Result<String, Problem> {
        let engine = super::ocr::engine()?;
        // A page takes seconds; a hostile or enormous one is stopped like a PDF.
        let limit = self.timeout.max(Duration::from_secs(120));
        let out = self
            .run_raw_with(
                pgm,
                Job::Ocr { langs, turned },
                limit,
                Some(&engine.program),
            )
            .map_err(|detail| Problem::OcrFailed { detail })?;
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    fn run_raw(&self, bytes: &[u8], job: Job, timeout: Duration) -> Result<Vec<u8>, String> {
        self.run_raw_with(bytes, job, timeout, None)
    }

    /// Runs a worker for `job` on `bytes` and returns what it printed. `program`: the
    /// program an OCR worker becomes (passed as an argument, checked by the worker).
    fn run_raw_with(
        &self,
        bytes: &[u8],
        job: Job,
        timeout: Duration,
        program: Option<&std::path::Path>,
    ) -> Result<Vec<u8>, String> {
        let _slot = WorkerSlots::global(self.memory_limit).acquire();
        // A fresh, empty folder to run in, removed afterwards (the worker cannot write
        // to it anyway; it just never sees where the app was started).
        let cwd = tempfile::Builder::new()
            .prefix("evident-pdf-")
            .tempdir()
            .map_err(|e| format!("could not make a folder for the PDF reader process ({e})"))?;
        let mut launch = Launch::new(&self.program)
            .in_dir(cwd.path())
            .arg(WORKER_ARG)
            .arg(self.memory_limit.to_string())
            .arg(timeout.as_secs().max(1).to_string());
        #[cfg(feature = "testing")]
        let hostile = self.misbehave.map(Misbehaviour::arg);
        #[cfg(not(feature = "testing"))]
        let hostile: Option<String> = None;
        if let Some(arg) = hostile {
            // The program an OCR probe is confined to become.
            launch = launch.arg(arg).args(program);
        } else if let Some(arg) = job.arg() {
            launch = launch.arg(arg);
            match (job, program) {
                // The fonts a page may need, the only files the worker may then read.
                (Job::Render { .. } | Job::RenderForReading { .. }, _) => {
                    launch = launch.args(fallback_fonts())
                }
                (Job::Ocr { .. } | Job::Report { ocr: true }, Some(program)) => {
                    launch = launch.arg(program)
                }
                _ => {}
            }
        }
        launch
            .run_once(bytes, timeout, MAX_REPLY_BYTES)
            .map_err(|failure| match failure {
                Failure::Start(e) => format!("could not start the PDF reader process ({e})"),
                Failure::TimedOut(limit) => format!(
                    "reading the PDF took longer than {} s and was stopped; the file may be damaged",
                    limit.as_secs()
                ),
                Failure::Flooded(cap) => format!(
                    "the PDF reader sent back more than {} MB and was stopped; the file may be damaged",
                    cap >> 20
                ),
                Failure::Crashed { status, stderr } => describe_crash(status, &stderr),
                Failure::Lost(e) => format!("lost the PDF reader process ({e})"),
            })
    }
}

/// How many workers may run at once: each may use its whole memory limit, so no more
/// than the available memory holds (at least one, at most the CPU count).
struct WorkerSlots {
    limit: usize,
    running: Mutex<usize>,
    freed: Condvar,
}

struct Slot(&'static WorkerSlots);

impl Drop for Slot {
    fn drop(&mut self) {
        let mut running = self
            .0
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *running = running.saturating_sub(1);
        self.0.freed.notify_one();
    }
}

impl WorkerSlots {
    fn global(memory_limit: u64) -> &'static Self {
        static SLOTS: OnceLock<WorkerSlots> = OnceLock::new();
        SLOTS.get_or_init(|| {
            let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
            let by_memory = available_memory()
                .map_or(cpus, |m| (m / memory_limit.max(1)) as usize)
                .max(1);
            Self {
                limit: by_memory.min(cpus),
                running: Mutex::new(0),
                freed: Condvar::new(),
            }
        })
    }

    fn acquire(&'static self) -> Slot {
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        while *running >= self.limit {
            running = self
                .freed
                .wait(running)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *running += 1;
        Slot(self)
    }
}

/// `MemAvailable` of `/proc/meminfo`, in bytes (Linux); `None` elsewhere.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// A crashed PDF worker in words: what in the file (probably) did it, by the signal
/// that ended it and the last of its stderr.
fn describe_crash(status: std::process::ExitStatus, stderr: &str) -> String {
    let why = if stderr.contains("overflowed its stack") {
        "it nests content too deeply (stack overflow)"
    } else if stderr.contains("memory allocation") {
        "it needs more memory than allowed"
    } else {
        "it crashed the PDF reader"
    };
    match evident_worker::process::signal_of(status) {
        Some(24 | 9) => {
            "reading the PDF used too much CPU time and was stopped; the file may be damaged".into()
        }
        Some(sig) => {
            format!("the file could not be read: {why} (signal {sig}); it is probably damaged")
        }
        None => format!("the file could not be read: {why} ({status}); it is probably damaged"),
    }
}

/// If this process was started as a PDF worker, does the work and exits; else returns.
///
/// Call it before anything else in `main` of every binary that imports PDFs.
pub fn run_worker_if_requested() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) != Some(WORKER_ARG) {
        return;
    }
    let memory = args
        .get(2)
        .and_then(|a| a.parse::<u64>().ok())
        .unwrap_or(2 << 30);
    let cpu = args
        .get(3)
        .and_then(|a| a.parse::<u64>().ok())
        .unwrap_or(60);
    let job = args.get(4).and_then(|a| Job::parse(a)).unwrap_or(Job::Read);
    if let Job::Ocr { langs, turned } = job {
        become_tesseract(memory, cpu, args.get(5).map(PathBuf::from), langs, turned);
    }
    if job == (Job::Report { ocr: true }) {
        let program = args.get(5).map(PathBuf::from).unwrap_or_default();
        reply_and_exit(&match confine_for_tesseract(memory, cpu, &program) {
            Ok(confinement) => WorkerReply::Confined(confinement),
            Err(detail) => WorkerReply::Failed(Problem::PdfReader { detail }),
        });
    }
    // Only a test build of Evident probes the OCR step's confinement.
    #[cfg(feature = "testing")]
    if let Some(Misbehaviour::ProbeOcr(port)) = args.get(4).and_then(|a| Misbehaviour::parse(a)) {
        let program = args.get(5).map(PathBuf::from).unwrap_or_default();
        reply_and_exit(&match confine_for_tesseract(memory, cpu, &program) {
            Ok(confinement) => WorkerReply::Probed(super::confine::probe(confinement, port)),
            Err(detail) => WorkerReply::Failed(Problem::PdfReader { detail }),
        });
    }
    let readable: Vec<PathBuf> = match job {
        Job::Render { .. } | Job::RenderForReading { .. } => {
            args.iter().skip(5).map(PathBuf::from).collect()
        }
        Job::Read | Job::Ocr { .. } | Job::Report { .. } => Vec::new(),
    };
    let reply = match confine(memory, cpu, &readable) {
        Err(detail) => WorkerReply::Failed(Problem::PdfReader { detail }),
        Ok(confinement) if job == (Job::Report { ocr: false }) => {
            WorkerReply::Confined(confinement)
        }
        Ok(confinement) => {
            // Panics are turned into per-page errors; their default message is noise here.
            std::panic::set_hook(Box::new(|_| {}));
            // Only a test build of Evident knows how to misbehave on purpose.
            #[cfg(feature = "testing")]
            let acted = args
                .get(4)
                .and_then(|a| Misbehaviour::parse(a))
                .map(|m| super::hostile::act(m, confinement));
            #[cfg(not(feature = "testing"))]
            let acted: Option<WorkerReply> = {
                let _ = confinement;
                None
            };
            match acted {
                Some(reply) => reply,
                None => {
                    let mut bytes = Vec::new();
                    match std::io::stdin().read_to_end(&mut bytes) {
                        Ok(_) => match job {
                            Job::Read => match read_pdf(&bytes) {
                                Ok(pdf) => WorkerReply::Read(pdf),
                                Err(reason) => WorkerReply::Failed(reason),
                            },
                            Job::Render { page, width } => {
                                match render_page(&bytes, page, width, &readable) {
                                    Ok(image) => WorkerReply::Rendered(image),
                                    Err(reason) => WorkerReply::Failed(reason),
                                }
                            }
                            Job::RenderForReading { pages, count } => {
                                match render_for_reading(&bytes, &pages[..count], &readable) {
                                    Ok(pages) => WorkerReply::RenderedForReading {
                                        png_lengths: pages
                                            .iter()
                                            .map(|p| p.as_ref().map_or(0, |i| i.png.len()))
                                            .collect(),
                                        pages,
                                    },
                                    Err(reason) => WorkerReply::Failed(reason),
                                }
                            }
                            Job::Ocr { .. } | Job::Report { .. } => {
                                WorkerReply::Failed(Problem::PdfReader {
                                    detail: "the reader was asked to read an image".into(),
                                })
                            }
                        },
                        Err(e) => WorkerReply::Failed(Problem::PdfReader {
                            detail: format!("could not receive the file ({e})"),
                        }),
                    }
                }
            }
        }
    };
    reply_and_exit(&reply);
}

/// Writes the worker's reply (a drawn page's PNG after it) and ends the process.
fn reply_and_exit(reply: &WorkerReply) -> ! {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut written = serde_json::to_writer(&mut out, reply).is_ok();
    if let WorkerReply::Rendered(page) = reply {
        written = written && out.write_all(b"\n").is_ok() && out.write_all(&page.png).is_ok();
    }
    if let WorkerReply::RenderedForReading { pages, .. } = reply {
        written = written && out.write_all(b"\n").is_ok();
        for image in pages.iter().flatten() {
            written = written && out.write_all(&image.png).is_ok();
        }
    }
    let written = written && out.flush().is_ok();
    std::process::exit(if written { 0 } else { 3 });
}

/// What Tesseract needs to read (found with strace on Debian 12's tesseract-ocr 5):
/// the loader's cache, the shared libraries and locales (`/usr/lib`, `/lib`), and its
/// language data; nothing in `/etc` but the cache, no other program, no home folder.
const TESSERACT_TREES: [&str; 6] = [
    "/usr/lib",
    "/lib",
    "/lib64",
    "/usr/share/tesseract-ocr",
    "/usr/local/lib",
    "/usr/local/share/tessdata",
];

/// Confines this process to become `program` (Tesseract) and nothing else.
fn confine_for_tesseract(
    memory: u64,
    cpu: u64,
    program: &std::path::Path,
) -> Result<super::confine::Confinement, String> {
    let trees: Vec<PathBuf> = TESSERACT_TREES.iter().map(PathBuf::from).collect();
    let cache = [PathBuf::from("/etc/ld.so.cache")];
    super::confine::confine_to_run(memory, cpu, &cache, &trees, program)
}

/// The OCR worker's last act: confined like a PDF reader (limits, no writes, no
/// network; it may read the system's files and execute only `program`), it becomes
/// Tesseract reading the image on its stdin. Never returns.
fn become_tesseract(
    memory: u64,
    cpu: u64,
    program: Option<PathBuf>,
    langs: &str,
    turned: bool,
) -> ! {
    let fail = |why: String| -> ! {
        let _ = writeln!(std::io::stderr(), "{why}");
        std::process::exit(5)
    };
    // Only a program named tesseract, in a system folder: the parent names the one
    // `ocr::engine` found.
    let program = program
        .filter(|p| {
            p.file_name().is_some_and(|n| n == "tesseract")
                && (p.starts_with("/usr/bin") || p.starts_with("/usr/local/bin"))
        })
        .unwrap_or_else(|| fail("no tesseract program was named".into()));
    if let Err(why) = confine_for_tesseract(memory, cpu, &program) {
        fail(why);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let err = Command::new(&program)
            .args(super::ocr::tesseract_args(langs, turned))
            .env_clear()
            .env("OMP_THREAD_LIMIT", "1")
            .exec();
        fail(format!("tesseract could not start ({err})"))
    }
    #[cfg(not(unix))]
    fail(format!("reading scans needs Tesseract ({langs})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_goes_to_the_worker_as_one_argument_and_back() {
        let mut pages = [0; PAGES_PER_RUN];
        pages[..3].copy_from_slice(&[2, 5, 9]);
        for job in [
            Job::Render { page: 3, width: 0 },
            Job::RenderForReading { pages, count: 3 },
            Job::Ocr {
                langs: super::super::ocr::CHINESE,
                turned: true,
            },
            Job::Report { ocr: true },
        ] {
            let arg = job.arg().expect("an argument");
            assert_eq!(Job::parse(&arg), Some(job), "{arg}");
        }
        assert_eq!(
            Job::RenderForReading { pages, count: 3 }.arg().as_deref(),
            Some("render-for-reading:2,5,9")
        );
        // More pages than one run draws, or anything but page numbers, is no job.
        assert_eq!(Job::parse("render-for-reading:1,2,3,4,5,6,7,8,9"), None);
        assert_eq!(Job::parse("render-for-reading:1,x"), None);
        assert_eq!(
            Job::parse("ocr:fra"),
            None,
            "only the languages Evident asks for"
        );
    }
}
