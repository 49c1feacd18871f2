//! The `evident` binary end to end on real files and a real database: samples, bad and
//! awkward inputs, replacement, duplicates, removal, damaged databases and rebuilds.

mod common;

use std::path::Path;

use common::{evident, json, report, samples};

fn status(r: &serde_json::Value) -> &str {
    r["status"].as_str().unwrap_or("")
}

fn reason(r: &serde_json::Value) -> String {
    r["reason"].as_str().unwrap_or("").to_owned()
}

#[test]
fn imports_the_samples_and_reimporting_is_a_no_op() {
    let dir = tempfile::tempdir().expect("tmp");
    let db = dir.path().join("db.sqlite3");
    let samples = samples();
    let s = samples.to_string_lossy();
    let first = json(&db, &["import", &s, "--json"]);
    for f in [
        "报销与请假制度.md",
        "employee-handbook.txt",
        "employee-handbook.pdf",
    ] {
        assert_eq!(
            status(report(&first, f)),
            "imported",
            "{f}: {}",
            report(&first, f)
        );
    }
    assert_eq!(report(&first, "employee-handbook.pdf")["pages"], 3);
    let second = json(&db, &["import", &s, "--json"]);
    for f in second["files"].as_array().expect("files") {
        assert_eq!(status(f), "unchanged", "re-import must be a no-op: {f}");
    }
    let docs = json(&db, &["docs", "--json"]);
    assert_eq!(docs.as_array().map(Vec::len), Some(3));
    let md = docs
        .as_array()
        .and_then(|d| d.iter().find(|x| x["kind"] == "markdown"))
        .expect("markdown doc");
    assert_eq!(md["title"], "员工费用报销与请假管理制度");
    let pdf = docs
        .as_array()
        .and_then(|d| d.iter().find(|x| x["kind"] == "pdf"))
        .expect("pdf doc");
    assert_eq!(
        pdf["title"], "Employee Handbook: Time Off, Travel and Expenses",
        "the PDF's first paragraph is its title line, not merged with the next one"
    );
    let chunks = json(&db, &["chunks", md["id"].to_string().as_str(), "--json"]);
    let texts: Vec<&str> = chunks
        .as_array()
        .expect("chunks")
        .iter()
        .filter_map(|c| c["text"].as_str())
        .collect();
    assert!(
        texts
            .iter()
            .any(|t| t.contains("单笔报销超过20,000元的，须经分管副总经理审批。")),
        "{texts:?}"
    );
    for c in chunks.as_array().expect("chunks") {
        assert!(
            c["heading_path"][0] == "员工费用报销与请假管理制度",
            "every chunk keeps its heading path: {c}"
        );
    }
}

#[test]
fn bad_inputs_fail_one_by_one_and_awkward_ones_import() {
    let dir = tempfile::tempdir().expect("tmp");
    let input = dir.path().join("in");
    std::fs::create_dir_all(&input).expect("mkdir");
    let w =
        |name: &str, bytes: &[u8]| std::fs::write(input.join(name), bytes).expect("write fixture");
    let sample_pdf = std::fs::read(samples().join("employee-handbook.pdf")).expect("sample pdf");

    w("empty.md", b"");
    w(
        "binary.md",
        &(0..4096u32)
            .map(|i| (i * 7 % 256) as u8)
            .collect::<Vec<_>>(),
    );
    w("truncated.pdf", &sample_pdf[..sample_pdf.len() / 3]);
    w("scanned.pdf", &common::pdf::image_only_pdf());
    w("form-loop.pdf", &common::pdf::self_referencing_form_pdf());
    w("notes.docx", b"PK\x03\x04 not really");
    w("sheet.xlsx", b"PK\x03\x04 a spreadsheet");
    w("old.doc", b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1 old Word");
    let zh = "第一条 单笔报销超过五千元的，需经分管副总经理审批。\n第二条 员工请假应当提前申请。\n";
    w("gbk 制度.txt", &encoding_rs::GBK.encode(zh).0);
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(
        "Parental leave is 16 weeks.\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes),
    );
    w("utf16.txt", &utf16);
    w(
        "报销 制度 with spaces.md",
        "# 报销\n\n单笔报销超过五千元的，需经分管副总经理审批。\n".as_bytes(),
    );
    let line = "Employees must submit expense reports within thirty days of travel. 员工应当在出差结束后三十日内提交报销单据。\n";
    let big: String = line.repeat(50 * 1024 * 1024 / line.len() + 1);
    w("big.txt", big.as_bytes());
    let encrypted = input.join("encrypted.pdf");
    let qpdf = std::process::Command::new("qpdf")
        .args(["--encrypt", "user-secret", "owner-secret", "256", "--"])
        .arg(samples().join("employee-handbook.pdf"))
        .arg(&encrypted)
        .status()
        .expect("qpdf is installed (.ci/run installs it)");
    assert!(qpdf.success());

    let db = dir.path().join("db.sqlite3");
    let out = evident(&db, &["import", &input.to_string_lossy(), "--json"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "exit status 2 signals per-file failures"
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json summary");

    let failed = |f: &str, needle: &str| {
        let r = report(&summary, f);
        assert_eq!(status(r), "failed", "{f} must fail: {r}");
        assert!(
            reason(r).contains(needle),
            "{f}: reason should mention {needle:?}: {}",
            reason(r)
        );
    };
    failed("empty.md", "empty");
    failed("binary.md", "binary");
    failed("truncated.pdf", "damaged");
    failed("encrypted.pdf", "encrypted");
    // An image with no words on it: read by OCR, and said to hold no text.
    failed("scanned.pdf", "no text could be read from their images");
    failed("notes.docx", "damaged");
    failed("old.doc", "save it as .docx");
    assert_eq!(status(report(&summary, "sheet.xlsx")), "skipped");

    let imported = |f: &str| {
        let r = report(&summary, f);
        assert_eq!(status(r), "imported", "{f} must import: {r}");
        r.clone()
    };
    let looped = imported("form-loop.pdf");
    assert!(
        looped["warnings"].to_string().contains("loop was cut"),
        "{looped}"
    );
    for f in [
        "gbk 制度.txt",
        "utf16.txt",
        "报销 制度 with spaces.md",
        "big.txt",
    ] {
        imported(f);
    }
    let docs = json(&db, &["docs", "--json"]);
    let id_of = |name: &str| {
        docs.as_array()
            .and_then(|d| {
                d.iter()
                    .find(|x| x["path"].as_str().is_some_and(|p| p.ends_with(name)))
            })
            .map(|x| x["id"].to_string())
            .unwrap_or_else(|| panic!("{name} not listed"))
    };
    let gbk = json(&db, &["chunks", &id_of("gbk 制度.txt"), "--json"]);
    assert!(
        gbk.to_string().contains("需经分管副总经理审批"),
        "GBK text decoded: {gbk}"
    );
    let form = json(&db, &["chunks", &id_of("form-loop.pdf"), "--json"]);
    assert!(
        form.to_string().contains("Ordinary text on the page."),
        "{form}"
    );
    assert!(
        form.to_string().contains("Text inside the looping form."),
        "text inside the form is kept: {form}"
    );
    // Its warning is stored as a code: English words for scripts, and the locale's
    // language when listed (a Chinese user reads it in Chinese).
    let looped_doc = docs
        .as_array()
        .and_then(|d| {
            d.iter().find(|x| {
                x["path"]
                    .as_str()
                    .is_some_and(|p| p.ends_with("form-loop.pdf"))
            })
        })
        .expect("form-loop.pdf listed");
    assert_eq!(looped_doc["warned"][0]["code"], "form_loop", "{looped_doc}");
    assert!(
        looped_doc["warnings"][0]
            .as_str()
            .is_some_and(|w| w.contains("the loop was cut")),
        "{looped_doc}"
    );
    let listed = evident(&db, &["--lang", "zh-CN", "docs"]);
    let listed = String::from_utf8_lossy(&listed.stdout);
    assert!(
        listed.contains("一个图形对象引用了自身，循环已被截断"),
        "{listed}"
    );
}

#[test]
fn changed_files_replace_duplicates_are_skipped_and_remove_cleans_everything() {
    let dir = tempfile::tempdir().expect("tmp");
    let db = dir.path().join("db.sqlite3");
    let a = dir.path().join("a.md");
    let b = dir.path().join("b.md");
    std::fs::write(&a, "# A\n\nFirst version about travel.\n").expect("write");
    std::fs::write(&b, "# A\n\nFirst version about travel.\n").expect("write");
    let s = json(
        &db,
        &[
            "import",
            &a.to_string_lossy(),
            &b.to_string_lossy(),
            "--json",
        ],
    );
    assert_eq!(status(report(&s, "a.md")), "imported");
    assert_eq!(
        status(report(&s, "b.md")),
        "duplicate",
        "same bytes, other path: {s}"
    );

    std::fs::write(&a, "# A\n\nSecond version about leave.\n").expect("write");
    let s = json(&db, &["import", &a.to_string_lossy(), "--json"]);
    assert_eq!(report(&s, "a.md")["replaced"], true);
    let count = |sql: &str| common::count(&db, sql);
    assert_eq!(count("SELECT count(*) FROM documents"), 1);
    assert_eq!(
        count("SELECT count(*) FROM chunks WHERE text LIKE '%First version%'"),
        0,
        "old chunks are gone"
    );
    assert_eq!(
        count("SELECT count(*) FROM chunk_index_docsize"),
        count("SELECT count(*) FROM chunks"),
        "one index row per chunk"
    );

    let out = evident(&db, &["remove", &a.to_string_lossy()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for table in ["documents", "pages", "chunks", "chunk_index_docsize"] {
        assert_eq!(
            count(&format!("SELECT count(*) FROM {table}")),
            0,
            "{table} must be empty after remove"
        );
    }
    let out = evident(&db, &["remove", "no-such-doc"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no imported document matches"));
}

#[test]
fn a_damaged_database_is_reported_and_rebuilt_from_the_sources() {
    let dir = tempfile::tempdir().expect("tmp");
    let db = dir.path().join("db.sqlite3");
    let samples = samples();
    assert!(
        evident(&db, &["import", &samples.to_string_lossy()])
            .status
            .success()
    );
    // Overwrite the middle of the file, as a disk error or a bad copy would.
    let mut bytes = std::fs::read(&db).expect("read db");
    let mid = bytes.len() / 2;
    let end = (mid + 4096).min(bytes.len());
    for b in &mut bytes[mid..end] {
        *b = 0x5A;
    }
    std::fs::write(&db, &bytes).expect("damage db");

    let out = evident(&db, &["docs"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "a damaged database must not be used");
    assert!(
        err.contains("damaged") && err.contains("evident rebuild"),
        "{err}"
    );

    let out = evident(&db, &["rebuild", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("rebuild json");
    let aside = report["broken_copy"]
        .as_str()
        .expect("the damaged file is kept");
    assert!(Path::new(aside).exists());
    let docs = json(&db, &["docs", "--json"]);
    assert!(
        docs.as_array().is_some_and(|d| !d.is_empty()),
        "documents are back after the rebuild: {report}"
    );

    std::fs::write(&db, b"this is not a database at all, just text").expect("write");
    std::fs::remove_file(dir.path().join("db.sqlite3-wal")).ok();
    let out = evident(&db, &["stats"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("not an Evident database"));
}

#[test]
fn invalid_chunk_settings_are_rejected() {
    let dir = tempfile::tempdir().expect("tmp");
    let db = dir.path().join("db.sqlite3");
    let s = samples();
    let out = evident(&db, &["import", &s.to_string_lossy(), "--max-tokens", "0"]);
    assert!(!out.status.success());
    let out = evident(
        &db,
        &[
            "import",
            &s.to_string_lossy(),
            "--overlap-max-tokens",
            "600",
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("overlap"), "{err}");
}

#[test]
fn a_changed_tokenizer_version_reindexes_instead_of_mixing() {
    let dir = tempfile::tempdir().expect("tmp");
    let db = dir.path().join("db.sqlite3");
    assert!(
        evident(&db, &["import", &samples().to_string_lossy()])
            .status
            .success()
    );
    {
        let conn = rusqlite::Connection::open(&db).expect("open");
        conn.execute(
            "UPDATE meta SET value = '0' WHERE key = 'tokenizer_version'",
            [],
        )
        .expect("update");
        conn.execute(
            "INSERT INTO chunk_index(chunk_index) VALUES ('delete-all')",
            [],
        )
        .expect("clear index");
    }
    let out = evident(&db, &["stats", "--json"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("re-indexed"),
        "the user is told"
    );
    let rows = common::count(&db, "SELECT count(*) FROM chunk_index_docsize");
    let chunks = common::count(&db, "SELECT count(*) FROM chunks");
    assert_eq!(rows, chunks, "the whole index was rebuilt");
}

/// `evident watch` on a real folder: one JSON line per change, as files are added,
/// saved again and deleted; `evident sync` and `watch --list` agree with it.
#[test]
fn watch_prints_a_line_per_change_until_interrupted() {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    let dir = tempfile::tempdir().expect("tmp");
    let folder = dir.path().join("policies");
    std::fs::create_dir(&folder).expect("mkdir");
    let folder = folder.canonicalize().expect("canonical");
    let db = dir.path().join("db.sqlite3");
    let mut child = Command::new(common::bin())
        .arg("--db")
        .arg(&db)
        .args(["watch", "--json"])
        .arg(&folder)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn watch");
    let (tx, rx) = std::sync::mpsc::channel::<serde_json::Value>();
    let stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if let Ok(v) = serde_json::from_str(&line) {
                let _ = tx.send(v);
            }
        }
    });
    let next = |what: &str| -> serde_json::Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match rx.recv_timeout(left) {
                Ok(v) if v["change"] == what => return v,
                Ok(_) => {}
                Err(_) => break,
            }
        }
        panic!("no `{what}` line within 20 s");
    };
    // The watcher is up once the first pass is done; give it a moment to start.
    std::thread::sleep(Duration::from_millis(800));
    let file = folder.join("leave.md");
    std::fs::write(&file, "# Leave\n\nEmployees get 15 days of annual leave.\n").expect("write");
    let added = next("added");
    assert_eq!(added["path"], file.to_string_lossy().as_ref());
    std::fs::write(&file, "# Leave\n\nEmployees get 20 days of annual leave.\n").expect("write");
    next("updated");
    let answer = common::json(&db, &["search", "annual leave days", "--json"]);
    assert!(
        answer.to_string().contains("20 days"),
        "the saved text is searchable: {answer}"
    );
    std::fs::rename(&file, folder.join("annual-leave.md")).expect("rename");
    let renamed = next("renamed");
    assert!(
        renamed["to"]
            .as_str()
            .is_some_and(|t| t.ends_with("annual-leave.md"))
    );
    std::fs::remove_file(folder.join("annual-leave.md")).expect("rm");
    next("removed");
    child.kill().expect("interrupt");
    let _ = child.wait();

    let list = common::evident(&db, &["watch", "--list"]);
    assert_eq!(
        String::from_utf8_lossy(&list.stdout).trim(),
        folder.to_string_lossy()
    );
    let sync = common::evident(&db, &["sync"]);
    assert!(sync.status.success());
    assert!(
        sync.stdout.is_empty(),
        "nothing left to do: {}",
        String::from_utf8_lossy(&sync.stdout)
    );
    assert_eq!(common::count(&db, "SELECT count(*) FROM documents"), 0);
}
