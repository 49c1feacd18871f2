//! `evident-bench page-view`: what going back to a PDF page costs once it has been
//! drawn, in a large file.
//!
//! A corpus PDF is padded to `--size-mb` with an unreferenced stream of random bytes (a
//! scanned handbook is that large), its first page is drawn once by the confined PDF
//! worker, and then it is opened again `--opens` times, two ways:
//! - before: the file read whole and hashed, the drawing looked up by its hash (how the
//!   viewer found it until issue 47);
//! - after: the drawing looked up by the file's identity ([`evident_core::page_cache`]),
//!   with no byte read.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use evident_core::extract::pdf::PdfSandbox;
use evident_core::page_cache::{FileId, PageCache, PageKey};
use serde::Serialize;

#[derive(Serialize)]
struct Report {
    file_mb: f64,
    first_draw_ms: f64,
    opens: usize,
    before_read_and_hash_ms_p50: f64,
    before_read_and_hash_ms_p95: f64,
    after_identity_ms_p50: f64,
    after_identity_ms_p95: f64,
}

/// The labour contract law, padded with `size_mb` of random bytes in a stream nothing
/// refers to, written to `out`.
fn padded_pdf(eval_dir: &Path, size_mb: u64, out: &Path) -> anyhow::Result<()> {
    let source = eval_dir.join("corpus/pdf-generated/zh-labour-contract-law.pdf");
    let mut doc =
        lopdf::Document::load(&source).map_err(|e| anyhow::anyhow!("{}: {e}", source.display()))?;
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let padding: Vec<u8> = (0..size_mb * 1024 * 1024 / 8)
        .flat_map(|_| {
            // xorshift64: incompressible enough that no reader can skip it cheaply.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state.to_le_bytes()
        })
        .collect();
    doc.add_object(lopdf::Stream::new(lopdf::Dictionary::new(), padding));
    doc.save(out)
        .map_err(|e| anyhow::anyhow!("{}: {e}", out.display()))?;
    Ok(())
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let rank = ((p / 100.0) * (sorted.len().max(1) - 1) as f64).round() as usize;
    sorted.get(rank).copied().unwrap_or(0.0)
}

fn timed(opens: usize, mut open: impl FnMut() -> anyhow::Result<()>) -> anyhow::Result<Vec<f64>> {
    let mut times = Vec::with_capacity(opens);
    for _ in 0..opens {
        let t = Instant::now();
        open()?;
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    Ok(times)
}

/// Runs the benchmark.
pub fn run(eval_dir: &Path, size_mb: u64, opens: usize, json: bool) -> anyhow::Result<()> {
    let dir = std::env::temp_dir().join(format!("evident-page-view-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let path: PathBuf = dir.join("handbook.pdf");
    let result = measure(eval_dir, size_mb, opens.max(1), &path);
    let _ = std::fs::remove_dir_all(&dir);
    let report = result?;
    let mut out = std::io::stdout();
    if json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "a {:.0} MB PDF, page 1 drawn once in {:.0} ms, then opened {} times:",
            report.file_mb, report.first_draw_ms, report.opens
        )?;
        writeln!(
            out,
            "  before (read and hash the file): p50 {:.1} ms, p95 {:.1} ms",
            report.before_read_and_hash_ms_p50, report.before_read_and_hash_ms_p95
        )?;
        writeln!(
            out,
            "  after (the file's identity):     p50 {:.3} ms, p95 {:.3} ms",
            report.after_identity_ms_p50, report.after_identity_ms_p95
        )?;
    }
    Ok(())
}

fn measure(eval_dir: &Path, size_mb: u64, opens: usize, path: &Path) -> anyhow::Result<Report> {
    padded_pdf(eval_dir, size_mb, path)?;
    let file_mb = std::fs::metadata(path)?.len() as f64 / (1024.0 * 1024.0);
    let (page, width) = (1, 900);

    // The first open: read, hash and draw (the same for both ways).
    let t = Instant::now();
    let bytes = std::fs::read(path)?;
    let sha256 = evident_core::store::sha256_hex(&bytes);
    let image = PdfSandbox::current_exe()?
        .render(&bytes, page, width)
        .map_err(|why| {
            anyhow::anyhow!(
                "{}: {}",
                path.display(),
                why.text(evident_core::message::Lang::En)
            )
        })?;
    let frame = Arc::new(image.png);
    let first_draw_ms = t.elapsed().as_secs_f64() * 1000.0;
    drop(bytes);

    let by_hash = std::collections::HashMap::from([((sha256, page, width), frame.clone())]);
    let before = timed(opens, || {
        let bytes = std::fs::read(path)?;
        let key = (evident_core::store::sha256_hex(&bytes), page, width);
        anyhow::ensure!(by_hash.contains_key(&key), "the drawing was not found");
        Ok(())
    })?;

    let cache = PageCache::default();
    let key = |file| PageKey { file, page, width };
    let file =
        FileId::of(path).ok_or_else(|| anyhow::anyhow!("{}: no identity", path.display()))?;
    cache.put(path, key(file), frame);
    let after = timed(opens, || {
        let file = FileId::of(path).ok_or_else(|| anyhow::anyhow!("no identity"))?;
        anyhow::ensure!(cache.get(&key(file)).is_some(), "the drawing was not found");
        Ok(())
    })?;

    Ok(Report {
        file_mb,
        first_draw_ms,
        opens,
        before_read_and_hash_ms_p50: percentile(&before, 50.0),
        before_read_and_hash_ms_p95: percentile(&before, 95.0),
        after_identity_ms_p50: percentile(&after, 50.0),
        after_identity_ms_p95: percentile(&after, 95.0),
    })
}
