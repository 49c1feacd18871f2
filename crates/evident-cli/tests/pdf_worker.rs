//! The PDF worker is contained: run as the real `evident` binary, it cannot read or
//! write files, connect anywhere or run programs; a worker that hangs, eats memory,
//! crashes or floods its output is stopped and reported, and the import goes on; and a
//! few hundred damaged PDFs made from the corpus crash nothing but their own workers.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use evident_core::extract::pdf::{Misbehaviour, PdfReader, PdfSandbox};
use evident_core::import::{ImportOptions, Importer, Outcome};
use evident_core::store::Store;

fn sandbox(misbehave: Option<Misbehaviour>) -> PdfSandbox {
    PdfSandbox {
        program: common::bin(),
        timeout: Duration::from_secs(8),
        memory_limit: 256 << 20,
        misbehave,
    }
}

fn corpus_pdfs() -> Vec<PathBuf> {
    let eval = common::eval_dir().join("corpus");
    let mut pdfs: Vec<PathBuf> = ["pdf-generated", "pdf-real"]
        .iter()
        .flat_map(|d| std::fs::read_dir(eval.join(d)).expect("the shared corpus is there"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
        .collect();
    pdfs.sort();
    assert!(pdfs.len() >= 5, "{pdfs:?}");
    pdfs
}

#[test]
fn a_confined_worker_can_read_no_file_write_none_connect_nowhere_and_run_nothing() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    listener.set_nonblocking(true).expect("nonblocking");
    let port = listener.local_addr().expect("addr").port();
    let probe = sandbox(None).probe(port).expect("the probe runs");
    assert_eq!(probe.confinement.landlock, "fully enforced", "{probe:?}");
    assert!(probe.confinement.seccomp, "{probe:?}");
    for (what, worked) in &probe.attempts {
        assert!(!worked, "a confined worker could {what}: {probe:?}");
    }
    assert_eq!(probe.attempts.len(), 4);
    assert!(
        listener.accept().is_err(),
        "nothing connected to the loopback port"
    );
}

#[test]
fn a_confined_worker_still_reads_real_pdfs() {
    let pdf = corpus_pdfs()
        .into_iter()
        .find(|p| p.to_string_lossy().contains("labour-contract"))
        .expect("the labour contract law PDF");
    let bytes = std::fs::read(&pdf).expect("read");
    let raw = sandbox(None)
        .read(&bytes)
        .expect("the confined worker reads it");
    assert!(raw.pages.len() > 3, "{} pages", raw.pages.len());
}

/// Imports one Markdown file and two real PDFs whose workers misbehave.
fn import_with(m: Misbehaviour) -> (Vec<(PathBuf, Outcome)>, Duration) {
    let dir = tempfile::tempdir().expect("tmp");
    let docs = dir.path().join("docs");
    std::fs::create_dir(&docs).expect("mkdir");
    for pdf in corpus_pdfs().iter().take(2) {
        std::fs::copy(pdf, docs.join(pdf.file_name().expect("name"))).expect("copy");
    }
    std::fs::write(
        docs.join("policy.md"),
        "# 报销\n\n单笔报销超过20,000元的，须经分管副总经理审批。\n",
    )
    .expect("write");
    let mut store = Store::open(&dir.path().join("db.sqlite3")).expect("db");
    let started = Instant::now();
    let summary = Importer::new(ImportOptions::with_reader(PdfReader::Sandboxed(sandbox(
        Some(m),
    ))))
    .run(&mut store, &[docs], &mut |_| {})
    .expect("the import itself succeeds");
    let files = summary
        .files
        .into_iter()
        .map(|f| (f.path, f.outcome))
        .collect();
    (files, started.elapsed())
}

fn assert_stopped(m: Misbehaviour, words: &[&str]) {
    let (files, took) = import_with(m);
    assert_eq!(files.len(), 3, "{files:?}");
    for (path, outcome) in &files {
        if path.extension().is_some_and(|e| e == "md") {
            assert!(
                outcome.is_imported(),
                "the Markdown file is imported: {outcome:?}"
            );
            continue;
        }
        let Outcome::Failed { reason, .. } = outcome else {
            panic!("{m:?}: {} should fail: {outcome:?}", path.display());
        };
        assert!(
            words.iter().any(|w| reason.contains(w)),
            "{m:?}: the reason says what happened: {reason}"
        );
    }
    // Two workers, each stopped by an 8 s limit at the latest (plus start-up).
    assert!(took < Duration::from_secs(40), "{m:?} took {took:?}");
}

#[test]
fn a_hanging_worker_is_stopped() {
    assert_stopped(Misbehaviour::Hang, &["longer than", "CPU time"]);
}

#[test]
fn a_worker_that_eats_memory_is_stopped() {
    assert_stopped(Misbehaviour::Allocate, &["memory", "crashed"]);
}

#[test]
fn a_crashing_worker_is_reported() {
    assert_stopped(Misbehaviour::Crash, &["crashed the PDF reader", "signal"]);
}

#[test]
fn a_worker_flooding_its_output_is_cut_off() {
    assert_stopped(Misbehaviour::Flood, &["sent back more than"]);
}

/// Damaged copies of the corpus PDFs: bytes flipped, cut short, objects duplicated,
/// a stream's length changed, junk in the cross-reference table.
fn mutants(out: &Path, count: usize) -> usize {
    let sources: Vec<Vec<u8>> = corpus_pdfs()
        .iter()
        .map(|p| std::fs::read(p).expect("read"))
        .collect();
    let mut rng = fastrand::Rng::with_seed(0x0005_EED0_FE1D);
    for i in 0..count {
        let src = &sources[i % sources.len()];
        let mut b = src.clone();
        match i % 5 {
            0 => {
                for _ in 0..rng.usize(1..64) {
                    let at = rng.usize(..b.len());
                    b[at] ^= 1 << rng.u8(0..8);
                }
            }
            1 => b.truncate(rng.usize(1..b.len())),
            2 => {
                let from = rng.usize(..b.len());
                let len = rng.usize(1..4096).min(b.len() - from);
                let piece = b[from..from + len].to_vec();
                let at = rng.usize(..b.len());
                b.splice(at..at, piece);
            }
            3 => {
                let text = String::from_utf8_lossy(&b).into_owned();
                if let Some(at) = text.find("/Length ") {
                    let at = at + "/Length ".len();
                    b.splice(at..at, b"9".repeat(rng.usize(1..12)));
                } else {
                    b.truncate(b.len() / 2);
                }
            }
            _ => {
                let tail = b.len().saturating_sub(2048);
                for x in &mut b[tail..] {
                    if rng.bool() {
                        *x = rng.u8(..);
                    }
                }
            }
        }
        std::fs::write(out.join(format!("mutant-{i:03}.pdf")), b).expect("write mutant");
    }
    count
}

#[test]
fn hundreds_of_damaged_pdfs_fail_one_by_one_and_crash_nothing() {
    let dir = tempfile::tempdir().expect("tmp");
    let docs = dir.path().join("fuzz");
    std::fs::create_dir(&docs).expect("mkdir");
    let made = mutants(&docs, 300);
    let out = common::evident(
        &dir.path().join("db.sqlite3"),
        &["import", &docs.to_string_lossy(), "--json"],
    );
    // 0: all imported, 2: some failed; anything else is the main process failing.
    let code = out.status.code();
    assert!(
        matches!(code, Some(0 | 2)),
        "the importing process survives: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON summary");
    let files = summary["files"].as_array().expect("files");
    assert_eq!(files.len(), made, "every file is reported");
    let mut counts = std::collections::BTreeMap::new();
    for f in files {
        let status = f["status"].as_str().unwrap_or("?").to_owned();
        if status == "failed" {
            let reason = f["reason"].as_str().unwrap_or("");
            assert!(!reason.trim().is_empty(), "a failure says why: {f}");
        } else {
            assert!(matches!(status.as_str(), "imported" | "duplicate"), "{f}");
        }
        *counts.entry(status).or_insert(0) += 1;
    }
    eprintln!("fuzz: {made} damaged PDFs: {counts:?}");
    let integrity = common::count(
        &dir.path().join("db.sqlite3"),
        "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'",
    );
    assert_eq!(integrity, 0, "the database is sound afterwards");
}
