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

/// The OCR step's probe: confined as it is before it becomes Tesseract, it may read
/// Tesseract's libraries and language data and execute Tesseract, nothing else: not a
/// file in /etc or /proc, not another program (/bin/true), no write, no connection.
/// (Reading scans themselves is tested by evident-bench's OCR tests, through it.)
#[test]
fn the_ocr_step_reads_only_what_tesseract_needs_connects_nowhere_and_runs_only_tesseract() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    listener.set_nonblocking(true).expect("nonblocking");
    let port = listener.local_addr().expect("addr").port();
    let probe = sandbox(None)
        .probe_ocr(port)
        .expect("the OCR probe runs (scripts/setup.sh installs Tesseract)");
    assert_eq!(probe.confinement.landlock, "fully enforced", "{probe:?}");
    assert!(probe.confinement.seccomp, "{probe:?}");
    assert_eq!(probe.attempts.len(), 4, "{probe:?}");
    for (what, worked) in &probe.attempts {
        assert!(!worked, "the confined OCR step could {what}: {probe:?}");
    }
    assert!(
        listener.accept().is_err(),
        "nothing connected to the loopback port"
    );
}

/// What Settings are told (`isolation`): each kind confines itself as for a real file
/// and reports what the kernel enforced. This kernel enforces all of it, so nothing is
/// short; a report that claimed so without confining would fail the probes above.
#[test]
fn each_kind_of_file_reader_reports_its_confinement_for_settings() {
    let sandbox = sandbox(None);
    let pdf = sandbox.confinement().expect("the PDF reader reports");
    assert_eq!(pdf.landlock, "fully enforced", "{pdf:?}");
    assert!(pdf.seccomp, "{pdf:?}");
    assert_eq!(pdf.shortfall(), None);
    let ocr = sandbox.ocr_confinement().expect("the OCR step reports");
    assert_eq!(ocr.landlock, "fully enforced", "{ocr:?}");
    assert_eq!(ocr.shortfall(), None);
    let old_kernel = evident_core::extract::pdf::confine::Confinement {
        landlock: "not enforced".into(),
        seccomp: true,
    };
    assert_eq!(
        old_kernel.shortfall().as_deref(),
        Some("Landlock not enforced, seccomp on")
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

/// A drawn page as grey levels (0 black .. 255 white), row by row.
struct Grey {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

impl Grey {
    fn decode(png_bytes: &[u8]) -> Self {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder.read_info().expect("a PNG");
        let mut buf = vec![0; reader.output_buffer_size().expect("size")];
        let info = reader.next_frame(&mut buf).expect("a frame");
        let channels = info.color_type.samples();
        let pixels = buf[..info.buffer_size()]
            .chunks(channels)
            .map(|p| {
                let rgb = &p[..channels.min(3)];
                (rgb.iter().map(|&c| u32::from(c)).sum::<u32>() / rgb.len() as u32) as u8
            })
            .collect();
        Self {
            width: info.width as usize,
            height: info.height as usize,
            pixels,
        }
    }

    /// Share of dark pixels in the rectangle (clipped to the image).
    fn ink(&self, x0: f32, y0: f32, x1: f32, y1: f32) -> f64 {
        let clip = |v: f32, max: usize| (v.max(0.0) as usize).min(max);
        let (x0, x1) = (clip(x0, self.width), clip(x1, self.width));
        let (y0, y1) = (clip(y0, self.height), clip(y1, self.height));
        let area = (x1.saturating_sub(x0) * y1.saturating_sub(y0)).max(1);
        let dark = (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| self.pixels[y * self.width + x] < 128)
            .count();
        dark as f64 / area as f64
    }
}

/// Lower case with white space removed: how a viewer compares its boxes with a passage.
fn squeezed(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

#[test]
fn a_page_is_drawn_by_the_confined_worker_with_its_text_boxes_over_the_ink() {
    let pdf = corpus_pdfs()
        .into_iter()
        .find(|p| p.to_string_lossy().contains("labour-contract"))
        .expect("the labour contract law PDF");
    let bytes = std::fs::read(&pdf).expect("read");
    let image = sandbox(None)
        .render(&bytes, 3, 1000)
        .expect("the confined worker draws page 3");
    assert_eq!((image.page, image.width), (3, 1000));
    assert!(image.page_count >= 10, "{}", image.page_count);
    // A4 keeps its shape.
    assert!((1400..=1430).contains(&image.height), "{}", image.height);
    assert!(image.png.starts_with(b"\x89PNG"));
    let grey = Grey::decode(&image.png);
    assert_eq!((grey.width, grey.height), (1000, image.height as usize));

    // The boxes hold the page's text as the import read it, in its order.
    let raw = sandbox(None).read(&bytes).expect("read");
    let page_text = squeezed(&raw.pages[2].text);
    let boxes_text = squeezed(
        &image
            .boxes
            .iter()
            .map(|b| b.text.as_str())
            .collect::<String>(),
    );
    let start: String = page_text.chars().take(40).collect();
    let end: String = page_text
        .chars()
        .rev()
        .take(40)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    assert!(
        boxes_text.contains(&start) && boxes_text.contains(&end),
        "{boxes_text}"
    );

    // Every box lies over printed text, and almost no ink lies outside the boxes.
    let mut covered = vec![false; grey.width * grey.height];
    for b in &image.boxes {
        let ink = grey.ink(b.x, b.y, b.x + b.w, b.y + b.h);
        assert!(
            ink > 0.03 || b.text.chars().count() < 2,
            "box {:?} at ({}, {}) covers no text ({ink:.3})",
            b.text,
            b.x,
            b.y
        );
        let (x0, y0) = ((b.x - 2.0).max(0.0) as usize, (b.y - 2.0).max(0.0) as usize);
        let (x1, y1) = (
            ((b.x + b.w + 2.0) as usize).min(grey.width),
            ((b.y + b.h + 2.0) as usize).min(grey.height),
        );
        for y in y0..y1 {
            covered[y * grey.width + x0..y * grey.width + x1.max(x0)].fill(true);
        }
    }
    let stray = grey
        .pixels
        .iter()
        .zip(&covered)
        .filter(|(p, c)| **p < 128 && !**c)
        .count();
    let dark = grey.pixels.iter().filter(|p| **p < 128).count();
    assert!(
        dark > 0 && (stray as f64) < 0.02 * dark as f64,
        "{stray} of {dark} dark pixels lie outside every text box"
    );
}

#[test]
fn a_page_past_the_end_is_drawn_as_the_last_and_a_damaged_file_is_refused_with_why() {
    let pdf = corpus_pdfs()
        .into_iter()
        .find(|p| p.to_string_lossy().contains("bond-prospectus"))
        .expect("a one-page PDF");
    let bytes = std::fs::read(&pdf).expect("read");
    let image = sandbox(None).render(&bytes, 9, 600).expect("drawn");
    assert_eq!((image.page, image.page_count, image.width), (1, 1, 600));
    let err = sandbox(None)
        .render(b"%PDF-1.4 this is no PDF at all", 1, 600)
        .expect_err("refused");
    assert!(
        matches!(err, evident_core::problem::Problem::PdfDamaged { .. }),
        "{err:?}"
    );
}

/// A one-page PDF whose Chinese text is set in STSong-Light, a font every PDF reader is
/// expected to have, so it is named but not embedded (as many Chinese PDFs name 宋体).
fn unembedded_chinese_pdf() -> Vec<u8> {
    use lopdf::{Document, Object, Stream, dictionary};
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let descriptor = doc.add_object(dictionary! {
        "Type" => "FontDescriptor",
        "FontName" => "STSong-Light",
        "Flags" => 4,
        "FontBBox" => vec![(-25).into(), (-254).into(), 1000.into(), 880.into()],
        "ItalicAngle" => 0,
        "Ascent" => 880,
        "Descent" => -120,
        "CapHeight" => 880,
        "StemV" => 93,
    });
    let cid_font = doc.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "CIDFontType0",
        "BaseFont" => "STSong-Light",
        "CIDSystemInfo" => dictionary! {
            "Registry" => Object::string_literal("Adobe"),
            "Ordering" => Object::string_literal("GB1"),
            "Supplement" => 4,
        },
        "FontDescriptor" => descriptor,
        "DW" => 1000,
    });
    let font = doc.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "Type0",
        "BaseFont" => "STSong-Light",
        "Encoding" => "UniGB-UCS2-H",
        "DescendantFonts" => vec![cid_font.into()],
    });
    // 试用期不得超过六个月 in UCS-2, 36 pt, from (72, 700).
    let text: String = "试用期不得超过六个月"
        .encode_utf16()
        .map(|u| format!("{u:04X}"))
        .collect();
    let content = format!("BT /F1 36 Tf 72 700 Td <{text}> Tj ET");
    let content = doc.add_object(Stream::new(dictionary! {}, content.into_bytes()));
    let page = doc.add_object(dictionary! {
        "Type" => "Page",
        "Parent" => pages_id,
        "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        "Contents" => content,
        "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => vec![page.into()],
            "Count" => 1,
        }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    let mut out = Vec::new();
    doc.save_to(&mut out).expect("a PDF");
    out
}

#[test]
fn chinese_in_a_font_the_pdf_only_names_is_drawn_with_the_system_cjk_font() {
    let fonts = evident_core::extract::pdf::render::fallback_fonts();
    assert!(
        !fonts.is_empty(),
        "a CJK font is installed (scripts/setup.sh installs fonts-wqy-microhei)"
    );
    let image = sandbox(None)
        .render(&unembedded_chinese_pdf(), 1, 595)
        .expect("drawn");
    // 1 px per point: the line sits between y = 842 - 700 - 36 and 842 - 700 + 8, from
    // x = 72 for ten 36-pt characters.
    let grey = Grey::decode(&image.png);
    let line = grey.ink(72.0, 100.0, 432.0, 150.0);
    let below = grey.ink(72.0, 200.0, 432.0, 250.0);
    assert!(
        line > 0.05 && below == 0.0,
        "the Chinese line is drawn ({line:.3} ink), nothing below it ({below:.3}): the worker read {fonts:?}"
    );
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
