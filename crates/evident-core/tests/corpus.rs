//! Ingestion of the real evaluation corpus into a real SQLite database: nothing of the
//! source text is lost, headers and footers are gone, and page numbers are right.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use evident_core::extract::pdf::PdfReader;
use evident_core::extract::{BlockKind, markdown, plain};
use evident_core::import::{ImportOptions, Importer};
use evident_core::store::Store;
use evident_text::sentence::split_sentences;

fn import(paths: &[PathBuf]) -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = Store::open(&dir.path().join("t.sqlite3")).expect("open store");
    let summary = Importer::new(ImportOptions::with_reader(PdfReader::InProcess))
        .run(&mut store, paths, &mut |_| {})
        .expect("import runs");
    for f in &summary.files {
        assert!(
            f.outcome.is_imported(),
            "{}: {:?}",
            f.path.display(),
            f.outcome
        );
    }
    (dir, store)
}

fn chunk_texts(store: &Store) -> Vec<(u32, u32, String)> {
    let doc = &store.documents().expect("documents")[0];
    store
        .chunks_of(doc.id)
        .expect("chunks")
        .into_iter()
        .map(|c| (c.page_start, c.page_end, common::squeeze(&c.text)))
        .collect()
}

/// Sentences (squeezed) of the Markdown source's prose blocks, at least 8 characters.
fn source_sentences(md: &Path) -> Vec<String> {
    let source = plain::decode(md, &std::fs::read(md).expect("read md")).expect("decode md");
    let doc = markdown::extract(&source, "x");
    let mut out = Vec::new();
    for b in doc
        .blocks
        .iter()
        .filter(|b| b.kind != BlockKind::TableRow && b.kind != BlockKind::Code)
    {
        let text = doc.block_text(b);
        for (s, e) in split_sentences(text) {
            let sq = common::squeeze(&text[s..e]);
            if sq.chars().count() >= 8 {
                out.push(sq);
            }
        }
    }
    out
}

#[test]
fn every_paragraph_of_the_labour_contract_law_is_in_its_chunks() {
    let dir = common::eval_dir().join("corpus/zh-laws");
    let md = std::fs::read_dir(&dir)
        .expect("zh-laws")
        .map(|e| e.expect("entry").path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("劳动合同法("))
        })
        .expect("劳动合同法 markdown present");
    let (_dir, store) = import(std::slice::from_ref(&md));
    let chunks = chunk_texts(&store);
    let sentences = source_sentences(&md);
    assert!(
        sentences.len() > 300,
        "the law has hundreds of sentences, got {}",
        sentences.len()
    );
    let missing: Vec<&String> = sentences
        .iter()
        .filter(|s| !chunks.iter().any(|(_, _, c)| c.contains(s.as_str())))
        .collect();
    assert!(
        missing.is_empty(),
        "{} sentences missing from chunks, e.g. {:?}",
        missing.len(),
        &missing[..missing.len().min(3)]
    );
}

#[derive(serde::Deserialize)]
struct Source {
    source: String,
    pages: u32,
}

fn pdftotext_pages(pdf: &Path) -> Vec<String> {
    let out = Command::new("pdftotext")
        .args(["-enc", "UTF-8"])
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext installed");
    String::from_utf8_lossy(&out.stdout)
        .split('\x0c')
        .map(str::to_owned)
        .collect()
}

#[test]
fn generated_pdfs_keep_every_paragraph_drop_headers_and_number_pages_right() {
    let corpus = common::eval_dir().join("corpus");
    let sources: std::collections::BTreeMap<String, Source> = serde_json::from_str(
        &std::fs::read_to_string(corpus.join("pdf-generated/sources.json")).expect("sources.json"),
    )
    .expect("sources.json parses");
    for (pdf_rel, src) in &sources {
        let pdf = corpus.join(pdf_rel);
        let (_dir, store) = import(std::slice::from_ref(&pdf));
        let doc = &store.documents().expect("docs")[0];
        assert_eq!(
            doc.page_count,
            i64::from(src.pages),
            "{pdf_rel}: page count"
        );
        let chunks = chunk_texts(&store);

        // 1. Nothing of the source is lost.
        let sentences = source_sentences(&corpus.join(&src.source));
        let missing: Vec<&String> = sentences
            .iter()
            .filter(|s| !chunks.iter().any(|(_, _, c)| c.contains(s.as_str())))
            .collect();
        assert!(
            missing.len() * 100 <= sentences.len(),
            "{pdf_rel}: {} of {} source sentences missing, e.g. {:?}",
            missing.len(),
            sentences.len(),
            &missing[..missing.len().min(5)]
        );

        // 2. No running header or footer survives.
        let reference = pdftotext_pages(&pdf);
        let header = reference[1]
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .expect("page 2 has a header");
        let header = common::squeeze(header);
        let in_source =
            common::squeeze(&std::fs::read_to_string(corpus.join(&src.source)).expect("md"))
                .matches(&header)
                .count();
        let text = common::squeeze(&store.document_text(doc.id).expect("text"));
        assert!(
            text.matches(&header).count() <= in_source.max(1),
            "{pdf_rel}: running header '{header}' left in the text"
        );
        for (_, _, c) in &chunks {
            assert!(
                !c.contains("页共") && !c.to_lowercase().contains("pageof") && !regex_page_of(c),
                "{pdf_rel}: footer left in {c}"
            );
        }

        // 3. Each chunk's first and last sentence are on its first and last page.
        for (page_start, page_end, c) in &chunks {
            let first: String = c.chars().take(12).collect();
            let last: String = c
                .chars()
                .rev()
                .take(12)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let on = |p: u32, s: &str| common::squeeze(&reference[p as usize - 1]).contains(s);
            assert!(
                on(*page_start, &first),
                "{pdf_rel}: chunk starting {first:?} is not on page {page_start}"
            );
            assert!(
                on(*page_end, &last),
                "{pdf_rel}: chunk ending {last:?} is not on page {page_end}"
            );
        }
    }
}

fn regex_page_of(s: &str) -> bool {
    let lower = s.to_lowercase();
    lower.match_indices("page").any(|(i, _)| {
        let rest = &lower[i + 4..];
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        digits > 0 && rest[digits..].starts_with("of")
    })
}
