//! `evident-bench import`: throughput of the whole import path into fresh databases.
//!
//! PDFs and Markdown/text files are imported separately, each into its own fresh
//! database and timed on the wall clock, so each kind's throughput is measured rather
//! than estimated from interleaved progress reports. Each kind is imported several times
//! and the median run is reported with the fastest and slowest: an import of a few MB
//! takes a fraction of a second, and one run on a shared machine varies by a fifth.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use evident_core::extract::DocumentKind;
use evident_core::import::{ImportOptions, Importer, Outcome, collect_files};
use evident_core::store::Store;

/// One timed run over one kind of file.
#[derive(serde::Serialize, Default)]
struct Run {
    files: usize,
    failed: usize,
    bytes: u64,
    pages: usize,
    chunks: usize,
    /// The median run.
    seconds: f64,
    /// Every run, fastest first.
    seconds_all: Vec<f64>,
    documents_per_s: f64,
    pages_per_s: f64,
    mb_per_s: f64,
}

#[derive(serde::Serialize)]
struct Report {
    pdf: Run,
    /// Word documents (`.docx`).
    word: Run,
    text: Run,
    peak_rss_mb: f64,
}

/// `../shared/eval` beside the repository (where CI and this machine keep it).
pub fn default_eval_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/eval")
}

fn default_paths() -> Vec<PathBuf> {
    let eval = default_eval_dir();
    vec![eval.join("corpus"), eval.join("datasets/cmrc2018-dev/docs")]
}

/// Peak resident memory of this process (Linux), in MB.
fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|kb| kb.parse::<f64>().ok())
            })
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Imports `files` `runs` times, each into a fresh database, and reports the median.
fn timed_imports(
    files: &[PathBuf],
    options: &ImportOptions,
    dir: &Path,
    name: &str,
    runs: usize,
) -> anyhow::Result<Run> {
    let mut seconds = Vec::with_capacity(runs);
    let mut run = Run::default();
    for i in 0..runs {
        run = timed_import(files, options, &dir.join(format!("{name}-{i}.sqlite3")))?;
        seconds.push(run.seconds);
    }
    seconds.sort_by(f64::total_cmp);
    run.seconds = seconds.get(seconds.len() / 2).copied().unwrap_or(0.0);
    run.seconds_all = seconds;
    run.documents_per_s = run.files as f64 / run.seconds;
    run.pages_per_s = run.pages as f64 / run.seconds;
    run.mb_per_s = run.bytes as f64 / 1e6 / run.seconds;
    Ok(run)
}

fn timed_import(files: &[PathBuf], options: &ImportOptions, db: &Path) -> anyhow::Result<Run> {
    let mut run = Run::default();
    if files.is_empty() {
        return Ok(run);
    }
    let mut store = Store::open(db)?;
    let started = Instant::now();
    let summary = Importer::new(options.clone()).run(&mut store, files, &mut |_| {})?;
    run.seconds = started.elapsed().as_secs_f64();
    drop(store);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    for f in &summary.files {
        match &f.outcome {
            Outcome::Imported { pages, chunks, .. } => {
                run.files += 1;
                run.bytes += f.bytes;
                run.pages += pages;
                run.chunks += chunks;
            }
            Outcome::Failed { reason, .. } => {
                run.failed += 1;
                eprintln!("failed     {}: {reason}", f.path.display());
            }
            _ => {}
        }
    }
    Ok(run)
}

pub fn run(
    paths: &[PathBuf],
    options: &ImportOptions,
    runs: usize,
    json: bool,
) -> anyhow::Result<()> {
    let paths = if paths.is_empty() {
        default_paths()
    } else {
        paths.to_vec()
    };
    let (files, _) = collect_files(&paths);
    if !files.iter().any(|f| DocumentKind::from_path(f).is_some()) {
        anyhow::bail!(
            "no Markdown, text, PDF or Word files under {} (is ../shared/eval beside the repository?)",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let of_kind = |kinds: &[DocumentKind]| -> Vec<PathBuf> {
        files
            .iter()
            .filter(|f| DocumentKind::from_path(f).is_some_and(|k| kinds.contains(&k)))
            .cloned()
            .collect()
    };
    let pdfs = of_kind(&[DocumentKind::Pdf]);
    let words = of_kind(&[DocumentKind::Docx]);
    let texts = of_kind(&[DocumentKind::Markdown, DocumentKind::Text]);
    let dir = std::env::temp_dir().join(format!("evident-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    // The dictionary loads once per process; keep it out of both timings.
    evident_text::segment::warm_up();
    let result = (|| -> anyhow::Result<Report> {
        Ok(Report {
            pdf: timed_imports(&pdfs, options, &dir, "pdf", runs)?,
            word: timed_imports(&words, options, &dir, "word", runs)?,
            text: timed_imports(&texts, options, &dir, "text", runs)?,
            peak_rss_mb: peak_rss_mb(),
        })
    })();
    let _ = std::fs::remove_dir_all(&dir);
    let report = result?;
    if json {
        writeln!(
            std::io::stdout(),
            "{}",
            serde_json::to_string_pretty(&report)?
        )?;
        return Ok(());
    }
    for (label, r) in [
        ("PDF", &report.pdf),
        ("Word", &report.word),
        ("MD/TXT", &report.text),
    ] {
        if r.files == 0 && r.failed == 0 {
            continue;
        }
        writeln!(
            std::io::stdout(),
            "{label:<7} {} documents ({} failed), {} pages, {} chunks, {:.1} MB in {:.2} s (median of {}, {:.2}-{:.2} s): {:.0} documents/s, {:.1} pages/s, {:.2} MB/s",
            r.files,
            r.failed,
            r.pages,
            r.chunks,
            r.bytes as f64 / 1e6,
            r.seconds,
            r.seconds_all.len(),
            r.seconds_all.first().copied().unwrap_or(0.0),
            r.seconds_all.last().copied().unwrap_or(0.0),
            r.documents_per_s,
            r.pages_per_s,
            r.mb_per_s
        )?;
    }
    writeln!(
        std::io::stdout(),
        "peak RSS {:.0} MB (this process; PDF workers are separate processes)",
        report.peak_rss_mb
    )?;
    Ok(())
}
