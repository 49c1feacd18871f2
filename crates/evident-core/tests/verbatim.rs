//! Quote, don't rewrite: what users read, cite and export is the document's own text,
//! full-width punctuation and all, checked over the whole shared Markdown corpus.

mod common;

use std::path::PathBuf;

use evident_core::answer::{AskOptions, Status, ask};
use evident_core::extract::pdf::PdfReader;
use evident_core::extract::{BlockKind, markdown, plain};
use evident_core::import::{ImportOptions, Importer};
use evident_core::search::Aliases;
use evident_core::store::Store;
use pulldown_cmark::{Event, Options, Parser};

/// Every Markdown file of the shared corpus.
fn markdown_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for sub in ["zh-laws", "handbook-18f", "handbook-sourcegraph"] {
        let dir = common::eval_dir().join("corpus").join(sub);
        for e in std::fs::read_dir(&dir).expect("corpus folder readable") {
            let p = e.expect("dir entry").path();
            if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// White space removed and nothing else: full-width and ASCII forms stay distinct.
fn squeeze_verbatim(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The file's text with its Markdown markup removed: template tags (`{% %}`, `{{ }}`,
/// which the extractor drops as markup too), then pulldown-cmark's text events.
fn without_markup(source: &str) -> String {
    // HTML comments go too, even inside a code span: the extractor drops them before
    // parsing (a known limit: a document that quotes `<!-- -->` loses the quote).
    let tags = regex::Regex::new(r"(?s)\{%.*?%\}|\{\{.*?\}\}|<!--.*?-->").expect("valid regex");
    let source = tags.replace_all(source, "");
    let html_tags = regex::Regex::new(r"(?s)<!--.*?-->|<[^>]*>").expect("valid regex");
    // CommonMark with the extensions policy files use; not smart punctuation (which
    // rewrites text) nor math (`$150K ... $30K` is money, not a formula).
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS;
    Parser::new_ext(&source, options)
        .filter_map(|e| match e {
            Event::Text(t) | Event::Code(t) => Some(t.into_string()),
            // Text inside HTML (tables written as <table>) is text too; the tags are not.
            Event::Html(t) | Event::InlineHtml(t) => {
                Some(html_tags.replace_all(&t, "").into_owned())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn every_block_and_chunk_is_the_files_own_text() {
    let files = markdown_files();
    assert!(files.len() > 50, "the corpus is there: {}", files.len());
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = Store::open(&dir.path().join("t.sqlite3")).expect("open store");
    Importer::new(ImportOptions::with_reader(PdfReader::InProcess))
        .run(&mut store, &files, &mut |_| {})
        .expect("import runs");
    let mut full_width = 0;
    for doc in store.documents().expect("documents") {
        let source =
            plain::decode(&doc.path, &std::fs::read(&doc.path).expect("read")).expect("decode");
        let extracted = markdown::extract(&source, "x");
        let stored = store.document_text(doc.id).expect("text");
        assert_eq!(stored, extracted.text, "{}", doc.path.display());
        // Every quotable block (not a table row, whose cells are joined with
        // separators) is in the file once the markup is removed, character for character.
        let file = squeeze_verbatim(&without_markup(&source));
        for b in extracted
            .blocks
            .iter()
            .filter(|b| b.kind != BlockKind::TableRow)
        {
            let text = squeeze_verbatim(extracted.block_text(b));
            assert!(
                file.contains(&text),
                "{}: a block is not the file's own text: {text}",
                doc.path.display()
            );
        }
        // Every chunk is its document's text at its offsets.
        let chars: Vec<char> = stored.chars().collect();
        for c in store.chunks_of(doc.id).expect("chunks") {
            let at: String = chars[c.char_start as usize..c.char_end as usize]
                .iter()
                .collect();
            assert_eq!(at, c.text, "{}", doc.path.display());
            full_width += c.text.matches('，').count();
        }
    }
    assert!(
        full_width > 1000,
        "Chinese punctuation is kept as written ({full_width} full-width commas)"
    );
}

#[test]
fn an_answer_quotes_the_law_as_written_with_its_clause_beside_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = Store::open(&dir.path().join("t.sqlite3")).expect("open store");
    let laws = common::eval_dir().join("corpus/zh-laws");
    Importer::new(ImportOptions::with_reader(PdfReader::InProcess))
        .run(&mut store, &[laws], &mut |_| {})
        .expect("import runs");
    let answer = ask(
        &store,
        "劳动合同期限三个月以上不满一年的，试用期最长多久？",
        &Aliases::default(),
        &AskOptions::default(),
    )
    .expect("ask runs");
    assert_ne!(answer.status, Status::NotFound);
    let first = &answer.sentences[0];
    assert!(
        first
            .text
            .contains("三个月以上不满一年的，试用期不得超过一个月"),
        "the answering sentence first, with its own comma: {}",
        answer.text
    );
    assert!(
        !first.text.starts_with('第'),
        "the clause label is not inside the quote: {}",
        first.text
    );
    assert_eq!(first.location.as_deref(), Some("第十九条"));
    for s in &answer.sentences {
        let source = answer
            .sources
            .iter()
            .find(|src| s.citations.contains(&src.n))
            .expect("a cited source");
        assert!(
            source.text.contains(&s.text),
            "every sentence is its source's own text: {}",
            s.text
        );
    }
}
