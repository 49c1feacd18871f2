//! Word documents, made at test time with real tools and read back:
//! - every Markdown file of the shared corpus, turned into `.docx` by pandoc, extracts to
//!   the text its Markdown extracts to (≥ 0.98 character similarity), with its headings;
//! - an edge-case file built with python-docx (tests/fixtures/make_docx.py): automatic
//!   第X条 numbering, a Chinese-named heading style, a table, tracked changes, a page
//!   header and footer, a comment, a footnote, a field code and hidden text;
//! - damaged, password-protected (encrypted by msoffcrypto-tool) and old `.doc` files
//!   each fail with their own reason while the rest of the import goes on.
//!
//! pandoc and python3-docx come from Debian, msoffcrypto-tool from PyPI
//! (`scripts/setup.sh --test` installs all three).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use evident_core::extract::docx;
use evident_core::extract::layout::{LayoutKind, docx_layout};
use evident_core::extract::{BlockKind, markdown};
use evident_core::import::{ImportOptions, Importer, Outcome};
use evident_core::search::{Aliases, SearchOptions, search};
use evident_core::store::Store;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(cmd: &mut Command, what: &str) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what} could not start ({e}); run scripts/setup.sh --test"));
    assert!(
        out.status.success(),
        "{what} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Markdown → Word by way of HTML: pandoc's Word writer drops raw HTML (the handbooks'
/// `<table>`s), while its HTML reader turns it into real Word tables and lists.
fn pandoc(md: &Path, out: &Path) {
    let html = out.with_extension("html");
    run(
        Command::new("pandoc")
            .args(["-f", "gfm", "-t", "html", "-o"])
            .arg(&html)
            .arg(md),
        "pandoc",
    );
    run(
        Command::new("pandoc")
            .args(["-f", "html", "-t", "docx", "-o"])
            .arg(out)
            .arg(&html),
        "pandoc",
    );
}

fn edge_case_docx(dir: &Path) -> PathBuf {
    let out = dir.join("员工手册.docx");
    run(
        Command::new("/usr/bin/python3")
            .arg(repo().join("tests/fixtures/make_docx.py"))
            .arg(&out),
        "tests/fixtures/make_docx.py (python3-docx)",
    );
    out
}

/// The Markdown as Evident's Markdown reader sees it (template tags and HTML comments
/// dropped), with every remote image pointed at a file that is not there: pandoc would
/// otherwise try to download it, and tests download nothing. It writes the image's
/// description instead, as when a download fails.
fn offline_markdown(source: &str) -> String {
    let tags = regex::Regex::new(r"(?s)\{%.*?%\}|\{\{[<%].*?[>%]\}\}|\{\{.*?\}\}|<!--.*?-->")
        .expect("valid regex");
    let remote = regex::Regex::new(r#"(?i)(\]\(\s*<?|src\s*=\s*["']?)(https?:)?//[^)\s"'>]+"#)
        .expect("valid regex");
    let text = tags.replace_all(source, "");
    remote
        .replace_all(&text, "${1}not-downloaded.png")
        .into_owned()
}

fn similarity(a: &str, b: &str) -> f32 {
    similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Patience)
        .diff_chars(a, b)
        .ratio()
}

fn headings(doc: &evident_core::extract::Extracted) -> Vec<String> {
    doc.blocks
        .iter()
        .filter(|b| matches!(b.kind, BlockKind::Heading { .. }))
        .map(|b| doc.block_text(b).to_owned())
        .collect()
}

#[test]
fn corpus_markdown_through_pandoc_reads_back_as_the_same_text() {
    let corpus = common::eval_dir().join("corpus");
    let dir = tempfile::tempdir().expect("tmp");
    let mut files: Vec<PathBuf> = ["zh-laws", "handbook-sourcegraph", "handbook-18f"]
        .iter()
        .flat_map(|sub| std::fs::read_dir(corpus.join(sub)).expect("corpus folder"))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md") && !p.ends_with("SOURCE.md"))
        .collect();
    files.sort();
    assert!(files.len() >= 50, "the shared corpus has its Markdown");
    let (mut worst_ratio, mut worst_recall) = ((1.0f32, PathBuf::new()), (1.0f32, PathBuf::new()));
    let mut report = Vec::new();
    for (i, md) in files.iter().enumerate() {
        let out = dir.path().join(format!("{i}.docx"));
        // Template tags and HTML comments, which the Markdown reader drops, would reach
        // the Word file as literal text; remote images would be downloaded.
        let source = std::fs::read_to_string(md).expect("markdown");
        let plain_md = dir.path().join(format!("{i}.md"));
        std::fs::write(&plain_md, offline_markdown(&source)).expect("write");
        pandoc(&plain_md, &out);
        let bytes = std::fs::read(&out).expect("docx written");
        let word = docx::extract(&out, &bytes).expect("pandoc's docx reads");
        let mark = markdown::extract(&source, "");
        let ratio = similarity(&common::squeeze(&mark.text), &common::squeeze(&word.text));
        let recall = letter_recall(&mark.text, &word.text);
        report.push(format!("{ratio:.4} {recall:.4} {}", md.display()));
        // Raw HTML tables are flattened cell into cell by the Markdown reader, but are
        // real tables in Word (`header: value` rows); there only the words are compared.
        if !source.contains("<table") && ratio < worst_ratio.0 {
            worst_ratio = (ratio, md.clone());
        }
        if recall < worst_recall.0 {
            worst_recall = (recall, md.clone());
        }
        // pandoc sets a front-matter title as a Title paragraph; Markdown keeps it as
        // the title only.
        let mut word_headings = headings(&word);
        if !headings(&mark).contains(&mark.title) && word_headings.first() == Some(&mark.title) {
            word_headings.remove(0);
        }
        assert_eq!(
            word_headings,
            headings(&mark),
            "{}: the headings (and so every heading path) come through",
            md.display()
        );
    }
    println!("similarity, letter recall, file\n{}", report.join("\n"));
    assert!(
        worst_ratio.0 >= 0.98,
        "{} reads back at {:.4} similarity",
        worst_ratio.1.display(),
        worst_ratio.0
    );
    assert!(
        worst_recall.0 >= 0.98,
        "{} keeps only {:.4} of its letters",
        worst_recall.1.display(),
        worst_recall.0
    );
}

/// The share of the letters and digits of `source` (each occurrence counted) that `read`
/// also holds: nothing lost, whatever the layout. Letters, not words, because the
/// Markdown reader runs the cells of a raw HTML table together ("RolesResponsibilities").
fn letter_recall(source: &str, read: &str) -> f32 {
    fn letters(s: &str) -> std::collections::HashMap<char, usize> {
        let mut out = std::collections::HashMap::new();
        for c in evident_text::normalize::nfkc(s).to_lowercase().chars() {
            if c.is_alphanumeric() {
                *out.entry(c).or_insert(0) += 1;
            }
        }
        out
    }
    let (want, have) = (letters(source), letters(read));
    let total: usize = want.values().sum();
    let kept: usize = want
        .iter()
        .map(|(c, n)| (*n).min(have.get(c).copied().unwrap_or(0)))
        .sum();
    kept as f32 / total.max(1) as f32
}

#[test]
fn word_edge_cases_read_as_a_reader_sees_them() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = edge_case_docx(dir.path());
    let bytes = std::fs::read(&path).expect("fixture");
    let doc = docx::extract(&path, &bytes).expect("reads");
    let text = &doc.text;
    println!("{text}");
    assert!(
        !text.contains("SHOULD-NOT-SHOW"),
        "headers, footers, comments, deletions, field codes and hidden text stay out:\n{text}"
    );
    assert_eq!(doc.title, "员工手册", "the Title style names the document");
    for want in [
        "第一条 本条规定第1项一般事项。",
        "第十九条 员工请假3天以内的，提前1个工作日申请；3天以上的，提前5个工作日申请。",
        "（一）病假须附医院证明。",
        "单笔报销超过20,000元的，须经分管副总经理审批。",
        "差旅住宿按城市等级报销。",
        "标准见附表，共3页。",
        "级别: 经理及以上; 住宿标准: 500元/晚",
        "Full-time employees get 15 days of paid leave.",
        "1. Unused days are paid out at 300% of daily wage.",
        "注1：附表由财务部每年一月更新。",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
    let block = |needle: &str| {
        doc.blocks
            .iter()
            .find(|b| doc.block_text(b).contains(needle))
            .unwrap_or_else(|| panic!("a block with {needle:?}"))
    };
    assert_eq!(
        block("第十九条").heading_path,
        ["第一章 总则"],
        "the Chinese-named style 标题 1 is a heading"
    );
    assert_eq!(
        block("第十九条").kind,
        BlockKind::Paragraph,
        "an auto-numbered article is a clause"
    );
    assert_eq!(block("分管副总经理").heading_path, ["第二章 报销"]);
    assert_eq!(block("经理及以上").kind, BlockKind::TableRow);
    assert_eq!(block("15 days").kind, BlockKind::ListItem);

    // The viewer's layout is built from the same reading.
    let layout = docx_layout(&path, text)
        .expect("readable")
        .expect("unchanged");
    assert!(
        layout
            .blocks
            .iter()
            .any(|b| b.kind == LayoutKind::Heading { level: 1 })
    );
    assert!(layout.blocks.iter().any(
        |b| matches!(&b.kind, LayoutKind::TableRow { header } if header == &["级别", "住宿标准"])
    ));
}

#[test]
fn auto_numbered_articles_are_searchable_and_bad_word_files_fail_alone() {
    let dir = tempfile::tempdir().expect("tmp");
    let docs = dir.path().join("policies");
    std::fs::create_dir(&docs).expect("mkdir");
    let good = edge_case_docx(&docs);
    // Damaged: the archive cut in half.
    let bytes = std::fs::read(&good).expect("fixture");
    std::fs::write(docs.join("damaged.docx"), &bytes[..bytes.len() / 2]).expect("write");
    // Password-protected, by a real encryptor.
    let tools = std::env::var_os("EVIDENT_TOOLS_PYTHON")
        .map(PathBuf::from)
        .or_else(|| {
            let cache = std::env::var_os("EVIDENT_CACHE")
                .map(PathBuf::from)
                .or_else(|| {
                    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/evident"))
                })?;
            Some(cache.join("tools-venv/bin/python"))
        })
        .expect("EVIDENT_TOOLS_PYTHON or HOME is set");
    run(
        Command::new(&tools)
            .args(["-m", "msoffcrypto", "-e", "-p", "secret"])
            .arg(&good)
            .arg(docs.join("locked.docx")),
        "msoffcrypto-tool (set EVIDENT_TOOLS_PYTHON to the tools venv's python)",
    );
    // An old binary Word file.
    std::fs::write(
        docs.join("old.doc"),
        b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1 WordDocument",
    )
    .expect("write");
    // Not a Word file at all, named as one.
    std::fs::write(docs.join("fake.docx"), "just text").expect("write");

    let mut store = Store::open(&dir.path().join("t.sqlite3")).expect("open");
    let summary = Importer::new(ImportOptions::with_reader(
        evident_core::extract::pdf::PdfReader::InProcess,
    ))
    .run(&mut store, std::slice::from_ref(&docs), &mut |_| {})
    .expect("import runs");
    let outcome = |name: &str| {
        summary
            .files
            .iter()
            .find(|f| f.path.file_name().is_some_and(|n| n == name))
            .map(|f| f.outcome.clone())
            .unwrap_or_else(|| panic!("{name} reported"))
    };
    let failed = |name: &str| match outcome(name) {
        Outcome::Failed { reason, .. } => reason,
        other => panic!("{name}: {other:?}"),
    };
    assert!(
        outcome("员工手册.docx").is_imported(),
        "{:?}",
        outcome("员工手册.docx")
    );
    assert!(
        failed("damaged.docx").contains("damaged"),
        "{}",
        failed("damaged.docx")
    );
    assert!(
        failed("locked.docx").contains("password"),
        "{}",
        failed("locked.docx")
    );
    assert!(failed("old.doc").contains(".doc"), "{}", failed("old.doc"));
    assert!(
        failed("fake.docx").contains("not a readable .docx"),
        "{}",
        failed("fake.docx")
    );

    let result = search(
        &store,
        "第十九条",
        &Aliases::default(),
        &SearchOptions::default(),
    )
    .expect("search");
    let top = result.passages.first().expect("found");
    assert!(
        top.chunk.text.contains("第十九条 员工请假3天以内的"),
        "{}",
        top.chunk.text
    );
    assert_eq!(top.chunk.kind, evident_core::extract::DocumentKind::Docx);
    for hidden in ["reviewer comment", "page header", "deleted approver"] {
        let r = search(
            &store,
            hidden,
            &Aliases::default(),
            &SearchOptions::default(),
        )
        .expect("search");
        assert!(
            r.passages
                .iter()
                .all(|p| !p.chunk.text.contains("SHOULD-NOT-SHOW")),
            "{hidden} must not be indexed"
        );
    }
}
