//! The full-text index finds what the chunks say: Chinese words (including the shorter
//! words inside longer ones), English words in any case, numbers written with or without
//! thousands separators, and heading text.

use evident_core::extract::pdf::PdfReader;
use evident_core::import::{ImportOptions, Importer};
use evident_core::store::Store;
use evident_text::segment::index_tokens;

fn samples() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples")
}

/// Texts of the chunks whose index rows match `query`, segmented as a query would be.
fn hits(store: &Store, query: &str) -> Vec<String> {
    let (tokens, _) = index_tokens(query);
    let phrase = format!("\"{}\"", tokens.replace('"', ""));
    let mut stmt = store
        .connection()
        .prepare(
            "SELECT c.text FROM chunk_index JOIN chunks c ON c.id = chunk_index.rowid
             WHERE chunk_index MATCH ?1",
        )
        .expect("prepare");
    stmt.query_map([phrase], |r| r.get(0))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows")
}

#[test]
fn the_index_matches_chinese_english_numbers_and_headings() {
    let dir = tempfile::tempdir().expect("tmp");
    let mut store = Store::open(&dir.path().join("t.sqlite3")).expect("open");
    Importer::new(ImportOptions::with_reader(PdfReader::InProcess))
        .run(&mut store, &[samples()], &mut |_| {})
        .expect("import");

    let found = hits(&store, "副总经理");
    assert!(
        found.iter().any(|t| t.contains("须经分管副总经理审批")),
        "{found:?}"
    );
    let inner = hits(&store, "副总");
    assert!(
        inner.len() >= found.len(),
        "a shorter word inside 副总经理 matches too"
    );
    let english = hits(&store, "PARENTAL Leave");
    assert!(
        english
            .iter()
            .any(|t| t.contains("16 weeks of fully paid parental leave")),
        "{english:?}"
    );
    let amount = hits(&store, "20000元");
    assert!(
        amount.iter().any(|t| t.contains("20,000元")),
        "5,000 and 5000 index alike: {amount:?}"
    );
    let heading = hits(&store, "费用报销");
    assert!(
        heading.iter().any(|t| t.contains("第四条")),
        "heading words find the chunks below them"
    );
    assert!(hits(&store, "不存在的词语组合").is_empty());
}

#[cfg(unix)]
#[test]
fn links_are_followed_inside_a_dropped_folder_and_never_out_of_it() {
    use evident_core::import::{Outcome, collect_files};
    let dir = tempfile::tempdir().expect("tempdir");
    let dropped = dir.path().join("policies");
    let outside = dir.path().join("private");
    std::fs::create_dir_all(dropped.join("hr")).expect("mkdir");
    std::fs::create_dir_all(&outside).expect("mkdir");
    std::fs::write(dropped.join("hr/leave.md"), "# 请假\n\n年假五天。\n").expect("write");
    std::fs::write(outside.join("salaries.md"), "# 工资\n\n保密。\n").expect("write");
    std::os::unix::fs::symlink(&outside, dropped.join("link-out")).expect("symlink");
    std::os::unix::fs::symlink(outside.join("salaries.md"), dropped.join("file-out.md"))
        .expect("symlink");
    std::os::unix::fs::symlink(dropped.join("hr"), dropped.join("link-in")).expect("symlink");
    let (files, reports) = collect_files(std::slice::from_ref(&dropped));
    let names: Vec<String> = files
        .iter()
        .map(|f| {
            f.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(
        names,
        ["leave.md"],
        "the file inside, once (also reached by the inner link)"
    );
    let skipped: Vec<&str> = reports
        .iter()
        .filter_map(|r| match &r.outcome {
            Outcome::Skipped { reason, .. } => Some(reason.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(skipped.len(), 2, "{reports:?}");
    assert!(
        skipped.iter().all(|r| r.contains("out of the folder")),
        "{skipped:?}"
    );
}
