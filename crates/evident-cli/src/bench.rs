//! `evident bench-import`: throughput of the whole import path into a fresh database.

use std::path::PathBuf;
use std::time::Instant;

use evident_core::import::{ImportOptions, Importer, Outcome};
use evident_core::store::Store;

#[derive(serde::Serialize, Default)]
struct Kind {
    files: usize,
    bytes: u64,
    pages: usize,
    chunks: usize,
    seconds: f64,
}

#[derive(serde::Serialize)]
struct Report {
    documents: usize,
    failed: usize,
    pages: usize,
    chunks: usize,
    megabytes: f64,
    seconds: f64,
    documents_per_s: f64,
    pages_per_s: f64,
    mb_per_s: f64,
    pdf_pages_per_s: f64,
    text_mb_per_s: f64,
    peak_rss_mb: f64,
}

fn default_paths() -> Vec<PathBuf> {
    let eval = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/eval");
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

pub fn run(paths: &[PathBuf], options: &ImportOptions, json: bool) -> anyhow::Result<()> {
    let paths = if paths.is_empty() {
        default_paths()
    } else {
        paths.to_vec()
    };
    let dir = std::env::temp_dir().join(format!("evident-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let db = dir.join("bench.sqlite3");
    evident_core::text::segment::warm_up();
    let mut store = Store::open(&db)?;
    let mut pdf = Kind::default();
    let mut text = Kind::default();
    let mut last = Instant::now();
    let started = Instant::now();
    let summary = Importer::new(options.clone()).run(&mut store, &paths, &mut |e| {
        if let evident_core::import::ImportEvent::File(f) = e {
            // Reports arrive in order as each file is written; attribute the time since
            // the previous report to this file's kind (approximate with 2 workers).
            let now = Instant::now();
            let k = if f
                .path
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("pdf"))
            {
                &mut pdf
            } else {
                &mut text
            };
            k.seconds += (now - last).as_secs_f64();
            last = now;
            if let Outcome::Imported { pages, chunks, .. } = &f.outcome {
                k.files += 1;
                k.bytes += f.bytes;
                k.pages += pages;
                k.chunks += chunks;
            }
        }
    })?;
    let seconds = started.elapsed().as_secs_f64();
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
    let failed = summary.count(|o| o.label() == "failed");
    let bytes = pdf.bytes + text.bytes;
    let report = Report {
        documents: pdf.files + text.files,
        failed,
        pages: pdf.pages + text.pages,
        chunks: pdf.chunks + text.chunks,
        megabytes: bytes as f64 / 1e6,
        seconds,
        documents_per_s: (pdf.files + text.files) as f64 / seconds,
        pages_per_s: (pdf.pages + text.pages) as f64 / seconds,
        mb_per_s: bytes as f64 / 1e6 / seconds,
        pdf_pages_per_s: pdf.pages as f64 / pdf.seconds.max(1e-9),
        text_mb_per_s: text.bytes as f64 / 1e6 / text.seconds.max(1e-9),
        peak_rss_mb: peak_rss_mb(),
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "imported   {} documents ({} failed), {} pages, {} chunks, {:.1} MB in {:.2} s",
            report.documents, failed, report.pages, report.chunks, report.megabytes, seconds
        );
        println!(
            "overall    {:.1} documents/s, {:.1} pages/s, {:.2} MB/s",
            report.documents_per_s, report.pages_per_s, report.mb_per_s
        );
        println!(
            "PDF        {} files, {} pages, {:.1} pages/s",
            pdf.files, pdf.pages, report.pdf_pages_per_s
        );
        println!(
            "MD/TXT     {} files, {:.1} MB, {:.2} MB/s",
            text.files,
            text.bytes as f64 / 1e6,
            report.text_mb_per_s
        );
        println!(
            "peak RSS   {:.0} MB (this process; PDF workers are separate processes)",
            report.peak_rss_mb
        );
        for f in summary
            .files
            .iter()
            .filter(|f| f.outcome.label() == "failed")
        {
            println!("failed     {}: {:?}", f.path.display(), f.outcome);
        }
    }
    Ok(())
}
