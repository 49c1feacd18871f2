//! Shared helpers for the core's integration tests.
#![allow(dead_code, missing_docs)]

use std::path::PathBuf;

use evident_core::message::Lang;

/// The evaluation corpora in `../shared/eval` (or `$EVIDENT_EVAL_DIR`).
pub fn eval_dir() -> PathBuf {
    let dir = std::env::var_os("EVIDENT_EVAL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/eval"));
    assert!(
        dir.join("corpus").is_dir(),
        "the evaluation data is expected at {} (set EVIDENT_EVAL_DIR to override)",
        dir.display()
    );
    dir
}

/// Every PDF under `corpus/pdf-*`.
pub fn eval_pdfs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for sub in ["pdf-generated", "pdf-real"] {
        let dir = eval_dir().join("corpus").join(sub);
        for e in std::fs::read_dir(&dir).expect("pdf folder readable") {
            let p = e.expect("dir entry").path();
            if p.extension().is_some_and(|x| x == "pdf") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Text without any white space, NFKC-normalised: the comparison form for extraction.
pub fn squeeze(s: &str) -> String {
    evident_text::normalize::nfkc(s)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// Number of places where two CJK ideographs are separated by white space only.
pub fn cjk_space_splits(s: &str) -> usize {
    let chars: Vec<char> = s.chars().collect();
    let han = |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c);
    let mut n = 0;
    for i in 1..chars.len().saturating_sub(1) {
        if chars[i] == ' ' && han(chars[i - 1]) && han(chars[i + 1]) {
            n += 1;
        }
    }
    n
}

/// The sample policies beside the workspace (`samples/`).
pub fn samples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples")
}

/// A fresh store in `dir` with the sample policy and handbook (Markdown and text)
/// imported, embedded by `semantic` when given; and the import's summary.
pub fn sample_store(
    dir: &std::path::Path,
    semantic: Option<evident_core::search::Semantic>,
) -> (
    evident_core::store::Store,
    evident_core::import::ImportSummary,
) {
    let mut store = evident_core::store::Store::open(&dir.join("db.sqlite3")).expect("store opens");
    let mut options = evident_core::import::ImportOptions::sandboxed().expect("pdf reader");
    options.semantic = semantic;
    let summary = evident_core::import::Importer::new(options)
        .run(
            &mut store,
            &[
                samples().join("报销与请假制度.md"),
                samples().join("employee-handbook.txt"),
            ],
            &mut |_| {},
        )
        .expect("import runs");
    (store, summary)
}

/// The codes of the members of `export type NAME = …;` in the window's generated
/// bindings (`ui/src/bindings.ts`): every code the window can receive.
pub fn codes_in_bindings(name: &str) -> std::collections::BTreeSet<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/bindings.ts");
    let text = std::fs::read_to_string(&path).expect("ui/src/bindings.ts");
    let start = text
        .find(&format!("export type {name} = "))
        .unwrap_or_else(|| panic!("{name} is not in {}", path.display()));
    let rest = &text[start..];
    let end = rest.find("\nexport type ").unwrap_or(rest.len());
    rest[..end]
        .split("\"code\": \"")
        .skip(1)
        .filter_map(|tail| tail.split('"').next())
        .map(str::to_owned)
        .collect()
}

/// The window's words fixture `ui/src/fixtures/FILE` for the code type `name` (its
/// examples under `key`, each with its `en` and `zh` words): every code the window
/// can receive has an example, every example is worded in both catalogues without a
/// missing parameter, and the file is current (`UPDATE_BINDINGS=1` rewrites it; `test`
/// names the test that does).
pub fn check_words_fixture(
    kind: evident_core::catalogue::Kind,
    name: &str,
    key: &str,
    cases: &[serde_json::Value],
    file: &str,
    test: &str,
) {
    let worded: std::collections::BTreeSet<String> = cases
        .iter()
        .map(|c| c[key]["code"].as_str().unwrap_or_default().to_owned())
        .collect();
    let sent = codes_in_bindings(name);
    let unworded: Vec<&String> = sent.difference(&worded).collect();
    assert!(
        unworded.is_empty(),
        "{name} codes the window can receive with no example (add one, with its words): {unworded:?}"
    );
    for case in cases {
        for lang in [Lang::En, Lang::ZhCn] {
            if let Err(why) = evident_core::catalogue::try_say(lang, kind, &case[key]) {
                panic!("{name} {} has no full wording: {why:?}", case[key]);
            }
        }
    }
    let text = serde_json::to_string_pretty(cases).expect("serialise") + "\n";
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../ui/src/fixtures")
        .join(file);
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        std::fs::write(&path, &text).expect("write the fixture");
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        stored == text,
        "{} is not current: run UPDATE_BINDINGS=1 cargo test -p evident-core --test {test}",
        path.display()
    );
}
