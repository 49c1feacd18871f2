//! Scanned PDFs, read by Tesseract in a confined worker, with the real `evident` binary:
//! scans are made at test time from the corpus PDFs (`evident-bench make-scans`, never
//! stored), imported, asked about, rebuilt from the cache, imported with no Tesseract,
//! and cancelled half-way.

#[path = "../../evident-cli/tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use common::{bin, count, eval_dir, evident, json};

fn labour_law() -> PathBuf {
    eval_dir().join("corpus/pdf-generated/zh-labour-contract-law.pdf")
}

/// Scanned copies of `pdfs` in `out` (`extra`: --noisy, --mixed).
fn make_scans(out: &Path, pdfs: &[PathBuf], extra: &[&str]) {
    let status = Command::new(common::bench())
        .arg("make-scans")
        .arg("--out")
        .arg(out)
        .args(extra)
        .args(pdfs)
        .status()
        .expect("make-scans runs");
    assert!(status.success());
}

/// The first `pages` pages of the labour contract law, as an image-only PDF.
fn scanned_law(dir: &Path, pages: u32) -> PathBuf {
    scanned_law_as(dir, pages, &[])
}

/// [`scanned_law`], made by `make-scans` with `extra` (`--noisy`).
fn scanned_law_as(dir: &Path, pages: u32, extra: &[&str]) -> PathBuf {
    scanned(dir, &labour_law(), "劳动合同法.pdf", pages, extra)
}

/// The first `pages` pages of the PDF at `pdf`, as an image-only PDF named `name` in
/// `dir/scans` (`extra`: as for [`make_scans`]).
fn scanned(dir: &Path, pdf: &Path, name: &str, pages: u32, extra: &[&str]) -> PathBuf {
    let bytes = std::fs::read(pdf).expect("the corpus PDF");
    let mut doc = lopdf::Document::load_mem(&bytes).expect("a PDF");
    let all: Vec<u32> = doc.get_pages().keys().copied().collect();
    let drop: Vec<u32> = all.into_iter().filter(|n| *n > pages).collect();
    doc.delete_pages(&drop);
    let short = dir.join("source");
    std::fs::create_dir_all(&short).expect("mkdir");
    let source = short.join(name);
    doc.save(&source).expect("saved");
    let scans = dir.join("scans");
    make_scans(&scans, &[source], extra);
    scans.join(name)
}

/// The answer (JSON) to the question 第九条 of the law answers.
fn ask_about_id_cards(db: &Path) -> serde_json::Value {
    json(
        db,
        &[
            "ask",
            "用人单位招用劳动者，可以扣押劳动者的居民身份证吗？",
            "--json",
        ],
    )
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_scanned_policy_is_read_its_question_answered_and_a_rebuild_reads_nothing_again() {
    let dir = tempfile::tempdir().expect("tmp");
    let scan = scanned_law(dir.path(), 2);
    assert!(
        lopdf::Document::load(&scan)
            .map(|d| d.extract_text(&[1, 2]).unwrap_or_default())
            .unwrap_or_default()
            .trim()
            .is_empty(),
        "the copy has no text layer"
    );
    let db = dir.path().join("db.sqlite3");
    let out = evident(&db, &["import", &scan.to_string_lossy()]);
    assert!(out.status.success(), "{}", stderr(&out));
    // Progress per page, as lines when stderr is not a terminal.
    let err = stderr(&out);
    assert!(
        err.contains("reading scanned page 1 of 2") && err.contains("reading scanned page 2 of 2"),
        "{err}"
    );
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        said.contains("imported")
            && said.contains("pages 1–2 had no text layer and were read from their image (OCR)"),
        "the user is told the text was read from images: {said}"
    );
    let docs = json(&db, &["docs", "--json"]);
    assert_eq!(docs[0]["page_count"], 2, "{docs}");
    // A question answered from the scanned page, citing it.
    let answer = ask_about_id_cards(&db);
    let first = &answer["sources"][0];
    assert!(
        first["doc_path"]
            .as_str()
            .is_some_and(|p| p.ends_with("劳动合同法.pdf")),
        "{answer}"
    );
    assert!(
        first["text"]
            .as_str()
            .is_some_and(|t| t.contains("居民身份证")),
        "the scanned page's passage is the source: {first}"
    );
    assert!(first["page_start"].as_u64().is_some_and(|p| p >= 1));
    let cache = db.with_file_name("ocr-cache.sqlite3");
    assert_eq!(count(&cache, "SELECT count(*) FROM readings"), 2);
    // The boxes of what was read are kept for the viewer.
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM pages WHERE ocr_lines IS NOT NULL"
        ),
        2
    );

    // A rebuild reads no page again: the cache holds them.
    let out = evident(&db, &["rebuild"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        !stderr(&out).contains("reading scanned page"),
        "no page was read again: {}",
        stderr(&out)
    );
    assert_eq!(count(&cache, "SELECT count(*) FROM readings"), 2);
    assert_eq!(count(&db, "SELECT count(*) FROM documents"), 1);

    // Removed from the library, its pages' readings leave the cache too.
    let out = evident(&db, &["remove", &scan.to_string_lossy()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(count(&db, "SELECT count(*) FROM documents"), 0);
    assert_eq!(
        count(&cache, "SELECT count(*) FROM readings"),
        0,
        "a removed scan's words are not kept"
    );
}

#[test]
fn a_scan_placed_askew_under_a_red_seal_is_straightened_and_its_clause_read_whole() {
    // Turned 1.5°, grey and grainy, with a red seal over page 2's text: the 第九条 line
    // read 居攻二从证 for 居民身份证 before pages were straightened.
    let dir = tempfile::tempdir().expect("tmp");
    let scan = scanned_law_as(dir.path(), 2, &["--noisy"]);
    let db = dir.path().join("db.sqlite3");
    let out = evident(&db, &["import", &scan.to_string_lossy()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let answer = ask_about_id_cards(&db);
    let first = &answer["sources"][0];
    let text: String = first["text"]
        .as_str()
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    assert!(
        text.contains("第九条用人单位招用劳动者，不得扣押劳动者的居民身份证"),
        "the clause is read as printed: {first}"
    );
    assert_eq!(first["page_start"], 2, "{first}");
    // The lines' boxes are turned back onto the page as drawn, inside it.
    let lines = ocr_lines(&db, 2);
    let ninth = lines
        .as_array()
        .and_then(|l| {
            l.iter()
                .find(|l| l["text"].as_str().is_some_and(|t| t.starts_with("第九条")))
        })
        .unwrap_or_else(|| panic!("a line opens with 第九条: {lines}"));
    let f = |k: &str| ninth[k].as_f64().unwrap_or(f64::NAN);
    assert!(
        f("x") > 0.0 && f("y") > 0.0 && f("x") + f("w") < 1.0 && f("y") + f("h") < 1.0,
        "{ninth}"
    );
    // On the page as drawn the line falls 1.5° across its ~1,000 px: about 26 px more
    // than its own ~20 px height (a box left straight would be ~0.012 of the page).
    assert!(f("h") > 0.02, "the box follows the turned line: {ninth}");
}

/// The boxes of the lines read on page `n` (`pages.ocr_lines`), as JSON.
fn ocr_lines(db: &Path, n: u32) -> serde_json::Value {
    let boxes: String = rusqlite::Connection::open(db)
        .expect("db")
        .query_row("SELECT ocr_lines FROM pages WHERE page_no = ?1", [n], |r| {
            r.get(0)
        })
        .unwrap_or_else(|e| panic!("page {n}'s lines: {e}"));
    serde_json::from_str(&boxes).expect("json")
}

/// The text of page `n` as imported.
fn page_text(db: &Path, n: u32) -> String {
    rusqlite::Connection::open(db)
        .expect("db")
        .query_row("SELECT text FROM pages WHERE page_no = ?1", [n], |r| {
            r.get(0)
        })
        .unwrap_or_default()
}

/// An English scan's second page is read while its first decides the languages, at
/// first in Chinese (most policies' languages), and read again in English once the
/// first page says English: the text is the same as when the file is read beside
/// another one, whose pages keep the other core busy and where the second page waits
/// for the first. Chinese would read `Unused budget doesn't` and `year,` here.
#[test]
fn an_english_scan_read_alone_reads_its_second_page_in_english() {
    let dir = tempfile::tempdir().expect("tmp");
    let travel = eval_dir().join("corpus/pdf-generated/en-sourcegraph-travel-policy.pdf");
    let english = scanned(dir.path(), &travel, "travel.pdf", 2, &[]);
    let chinese = scanned(dir.path(), &labour_law(), "劳动合同法.pdf", 2, &[]);
    let text = |db: &Path, file: &Path, n: u32| -> String {
        rusqlite::Connection::open(db)
            .expect("db")
            .query_row(
                "SELECT p.text FROM pages p JOIN documents d ON d.id = p.doc_id
                 WHERE d.path = ?1 AND p.page_no = ?2",
                rusqlite::params![file.to_string_lossy(), n],
                |r| r.get(0),
            )
            .unwrap_or_else(|e| panic!("page {n} of {}: {e}", file.display()))
    };
    let alone = dir.path().join("alone.sqlite3");
    let imported = json(&alone, &["import", &english.to_string_lossy(), "--json"]);
    assert_eq!(imported["files"][0]["status"], "imported", "{imported}");
    let page = text(&alone, &english, 2);
    assert!(
        page.contains("means unused budget doesn’t roll over"),
        "read in English: {page}"
    );
    let beside = dir.path().join("beside.sqlite3");
    let files = [english.to_string_lossy(), chinese.to_string_lossy()];
    let imported = json(&beside, &["import", &files[0], &files[1], "--json"]);
    assert_eq!(imported["files"][1]["status"], "imported", "{imported}");
    for n in 1..=2 {
        assert_eq!(
            text(&beside, &english, n),
            text(&alone, &english, n),
            "page {n}"
        );
    }
}

/// A notice's header printed in red above a red rule (a 红头文件): the title is read,
/// not taken for a seal and whitened with it. (Reading every page's red channel, as
/// before, left the header out entirely.)
#[test]
fn a_red_header_is_read_while_a_seal_still_fades() {
    let dir = tempfile::tempdir().expect("tmp");
    let scan = scanned_law_as(dir.path(), 1, &["--look", "red-header"]);
    let db = dir.path().join("db.sqlite3");
    let out = evident(&db, &["import", &scan.to_string_lossy()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = ocr_lines(&db, 1);
    // The title is the page's largest type: its line is the tallest of those naming
    // the law (the running header above it names it too, in small grey type).
    let title = lines
        .as_array()
        .into_iter()
        .flatten()
        .filter(|l| l["text"].as_str().is_some_and(|t| t.contains("劳动合同法")))
        .max_by(|a, b| {
            a["h"]
                .as_f64()
                .partial_cmp(&b["h"].as_f64())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
    let title = title.unwrap_or_else(|| panic!("the red title is read: {lines}"));
    assert!(
        title["text"]
            .as_str()
            .is_some_and(|t| t.contains("中华人民共和国劳动合同法")),
        "{title}"
    );
    assert!(
        title["h"].as_f64().is_some_and(|h| h > 0.012),
        "the line read is the title's, not the small running header's: {title}"
    );
}

/// Pages fed in upside down and sideways are read the right way round: the clause a
/// question needs is found on them, and no page is reported as having no text.
#[test]
fn pages_upside_down_or_sideways_are_read_the_right_way_round() {
    for look in ["upside-down", "sideways"] {
        let dir = tempfile::tempdir().expect("tmp");
        let scan = scanned_law_as(dir.path(), 2, &["--look", look]);
        let db = dir.path().join("db.sqlite3");
        let out = evident(&db, &["import", &scan.to_string_lossy()]);
        assert!(out.status.success(), "{look}: {}", stderr(&out));
        let said = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            said.contains("pages 1–2 had no text layer and were read from their image"),
            "{look}: both pages are read, neither reported as unreadable: {said}"
        );
        let text: String = page_text(&db, 2).split_whitespace().collect();
        assert!(
            text.contains("第九条用人单位招用劳动者"),
            "{look}: page 2 reads {text}"
        );
        let answer = ask_about_id_cards(&db);
        let first = &answer["sources"][0];
        assert!(
            first["text"]
                .as_str()
                .is_some_and(|t| t.contains("居民身份证")),
            "{look}: {first}"
        );
    }
}

#[test]
fn without_tesseract_a_scan_names_the_packages_to_install_and_the_rest_is_imported() {
    let dir = tempfile::tempdir().expect("tmp");
    let scan = scanned_law(dir.path(), 1);
    let docs = dir.path().join("docs");
    std::fs::create_dir_all(&docs).expect("mkdir");
    std::fs::copy(&scan, docs.join("扫描件.pdf")).expect("copy");
    std::fs::write(
        docs.join("制度.md"),
        "# 制度\n\n第一条 员工每年享有带薪年假十天。\n",
    )
    .expect("write");
    let db = dir.path().join("db.sqlite3");
    let out = Command::new(bin())
        .arg("--db")
        .arg(&db)
        .args(["import", "--json"])
        .arg(&docs)
        .env("EVIDENT_TESSERACT", "none")
        .env("EVIDENT_MODELS_DIR", "/nonexistent")
        .output()
        .expect("runs");
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let files = summary["files"].as_array().expect("files");
    let of = |name: &str| {
        files
            .iter()
            .find(|f| f["path"].as_str().is_some_and(|p| p.ends_with(name)))
            .unwrap_or_else(|| panic!("{name} in {summary}"))
    };
    assert_eq!(of("制度.md")["status"], "imported");
    let scan = of("扫描件.pdf");
    assert_eq!(scan["status"], "failed", "{scan}");
    assert_eq!(scan["why"]["code"], "ocr_unavailable", "{scan}");
    let reason = scan["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("tesseract-ocr tesseract-ocr-chi-sim tesseract-ocr-eng"),
        "the reason names the packages: {reason}"
    );
}

#[test]
fn a_mixed_pdf_keeps_its_text_pages_and_reads_its_scanned_ones() {
    let dir = tempfile::tempdir().expect("tmp");
    let bytes = std::fs::read(labour_law()).expect("pdf");
    let mut doc = lopdf::Document::load_mem(&bytes).expect("a PDF");
    let drop: Vec<u32> = doc.get_pages().keys().copied().filter(|n| *n > 3).collect();
    doc.delete_pages(&drop);
    let source = dir.path().join("law.pdf");
    doc.save(&source).expect("saved");
    let scans = dir.path().join("mixed");
    make_scans(&scans, &[source], &["--mixed"]);
    let db = dir.path().join("db.sqlite3");
    let summary = json(
        &db,
        &["import", &scans.join("law.pdf").to_string_lossy(), "--json"],
    );
    let file = &summary["files"][0];
    assert_eq!(file["status"], "imported", "{file}");
    assert_eq!(file["pages"], 3);
    // Pages 1 and 3 were images; page 2 kept its text layer and was not read by OCR.
    assert_eq!(
        file["warned"][0]["params"]["pages"], "1, 3",
        "only the scanned pages are read: {file}"
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM pages WHERE ocr_lines IS NOT NULL"
        ),
        2
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM pages WHERE ocr_lines IS NOT NULL AND page_no = 2"
        ),
        0
    );
}

#[test]
fn an_import_cancelled_during_ocr_leaves_nothing_of_the_file() {
    use evident_core::extract::pdf::{PdfReader, PdfSandbox};
    use evident_core::import::{ImportEvent, ImportOptions, Importer, Outcome};
    let dir = tempfile::tempdir().expect("tmp");
    let scan = scanned_law(dir.path(), 3);
    let mut store =
        evident_core::store::Store::open(&dir.path().join("db.sqlite3")).expect("store");
    let sandbox = PdfSandbox {
        program: bin(),
        ..PdfSandbox::current_exe().expect("exe")
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let mut options = ImportOptions::with_reader(PdfReader::Sandboxed(sandbox));
    options.cancel = Some(cancel.clone());
    let mut pages_read = 0;
    let summary = Importer::new(options)
        .run(&mut store, &[scan], &mut |event| {
            if let ImportEvent::Ocr { page, .. } = event {
                pages_read = page;
                // Cancelled while the first page is being read.
                cancel.store(true, Ordering::SeqCst);
            }
        })
        .expect("the import itself ends normally");
    // The first two pages are read at once (one core each); the third is never begun.
    assert!(
        (1..=2).contains(&pages_read),
        "stopped after the pages being read: {pages_read} of 3"
    );
    let outcome = &summary.files[0].outcome;
    assert!(
        matches!(outcome, Outcome::Skipped { why, .. } if *why == evident_core::problem::Problem::Cancelled),
        "{outcome:?}"
    );
    assert!(
        store.documents().expect("documents").is_empty(),
        "nothing half-imported"
    );
    assert_eq!(store.chunk_count().expect("chunks"), 0);
}

/// The library is never held while a scan is read: a policy is written first, then a
/// six-page scan is read by OCR (seconds a page) in the same import. Meanwhile, on a
/// second connection that waits at most one second for a lock, a search, a removal and
/// an embedding pass run; none may fail. (Before, the import's batch stayed open from
/// the policy's write until the scan was written, and each of them waited out its busy
/// time-out and failed.)
#[test]
fn a_scan_being_read_holds_up_no_removal_embedding_pass_or_search() {
    use evident_core::embed::embed_missing;
    use evident_core::extract::pdf::{PdfReader, PdfSandbox};
    use evident_core::import::{ImportEvent, ImportOptions, Importer, Outcome};
    use evident_core::model::{ModelServer, PromptFamily, ServerConfig};
    use evident_core::search::{Aliases, SearchOptions, search};
    use evident_core::store::Store;
    use evident_core::testing::{E5_MODEL, E5Server};
    use std::time::{Duration, Instant};

    let dir = tempfile::tempdir().expect("tmp");
    let scan = scanned_law(dir.path(), 6);
    let db = dir.path().join("db.sqlite3");
    let e5 = E5Server::start();
    let options = || {
        let sandbox = PdfSandbox {
            program: bin(),
            ..PdfSandbox::current_exe().expect("exe")
        };
        ImportOptions::with_reader(PdfReader::Sandboxed(sandbox))
    };
    let mut store = Store::open(&db).expect("store");
    let handbook = common::samples().join("employee-handbook.txt");
    let before = Importer::new(options())
        .run(&mut store, &[handbook], &mut |_| {})
        .expect("the handbook imports");
    let Outcome::Imported {
        doc_id: handbook_id,
        ..
    } = before.files[0].outcome
    else {
        panic!("{:?}", before.files[0].outcome)
    };

    let (reading, read) = std::sync::mpsc::channel::<()>();
    let policy = common::samples().join("报销与请假制度.md");
    let importer = std::thread::spawn(move || {
        let mut signalled = false;
        Importer::new(options())
            .run(&mut store, &[policy, scan], &mut |event| {
                // Page 2: the policy, read in a moment, was written long before.
                if let ImportEvent::Ocr { page: 2, .. } = event
                    && !signalled
                {
                    signalled = true;
                    let _ = reading.send(());
                }
            })
            .expect("the import runs")
    });
    read.recv_timeout(Duration::from_secs(300))
        .expect("the scan's second page is being read");

    let mut other = Store::open(&db).expect("a second connection");
    other
        .connection()
        .busy_timeout(Duration::from_secs(1))
        .expect("busy time-out");
    let timed = |what: &str, took: &mut Vec<(String, Duration)>, started: Instant| {
        took.push((what.to_owned(), started.elapsed()));
    };
    let mut took = Vec::new();
    let started = Instant::now();
    let found = search(
        &other,
        "单笔报销超过多少需要分管副总审批？",
        &Aliases::builtin(),
        &SearchOptions::default(),
    )
    .expect("a search while the scan is read");
    timed("search", &mut took, started);
    assert!(
        found.passages[0].text.contains("分管副总经理审批"),
        "the policy written before the scan is searchable: {:?}",
        found.passages[0].text
    );
    let started = Instant::now();
    assert!(
        other
            .remove_document(handbook_id)
            .expect("a removal while the scan is read"),
        "the handbook was removed"
    );
    timed("removal", &mut took, started);
    assert!(
        !importer.is_finished(),
        "the removal waited for the import to end: {took:?}"
    );
    // Neither has work of its own to speak of (milliseconds): what they took is waiting.
    for (what, took) in &took {
        assert!(*took < Duration::from_secs(1), "the {what} waited {took:?}");
    }
    let model = ModelServer::new(ServerConfig {
        base_url: e5.url.clone(),
        model: E5_MODEL.into(),
        api_key: None,
        prompt: Some(PromptFamily::None),
    })
    .expect("a usable address");
    let started = Instant::now();
    let embedded = embed_missing(&mut other, &model, &mut |_| true)
        .expect("an embedding pass while the scan is read");
    timed("embedding pass", &mut took, started);
    assert!(embedded.embedded_now > 0, "{embedded:?}");
    let still_reading = !importer.is_finished();

    let summary = importer.join().expect("import thread");
    for report in &summary.files {
        assert!(report.outcome.is_imported(), "{report:?}");
    }
    for (what, took) in &took {
        eprintln!("while a scan was read: {what} took {took:?}");
    }
    eprintln!("the scan was still being read after the embedding pass: {still_reading}");
}
