//! The rules of the crate's layout, read from its source: which module may use which.
//!
//! - The grounding check does not depend on how answers are composed: nothing under
//!   `grounding/` uses `answer`.
//! - The store keeps what it is given and knows no model: nothing under `store/` uses
//!   `embed`.
//! - The user's own data does not depend on importing: `userdata` does not use `import`.
//!
//! A rule broken shows here with the file and the line, before it shows as a tangle.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read the source folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The places in `text` that use the crate module `module`: `crate::module` anywhere
/// (paths and `use` lines), and `module` named inside a grouped `use crate::{…}`.
/// Comments are skipped. Each hit is its line number and the line.
fn uses(text: &str, module: &str) -> Vec<(usize, String)> {
    let code: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split("//").next().unwrap_or("")))
        .collect();
    let direct = format!("crate::{module}");
    let mut hits: Vec<(usize, String)> = code
        .iter()
        .filter(|(_, l)| {
            l.match_indices(&direct).any(|(at, _)| {
                !l[at + direct.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
            })
        })
        .map(|(n, l)| (*n, l.trim().to_owned()))
        .collect();
    // Grouped imports: `use crate::{a, module::x, …};`, possibly over several lines.
    let mut group: Option<(usize, String)> = None;
    for (n, line) in &code {
        if let Some((start, body)) = group.as_mut() {
            body.push_str(line);
            if line.contains("};") {
                if names(body, module) {
                    hits.push((*start, body.trim().to_owned()));
                }
                group = None;
            }
        } else if let Some(at) = line.find("use crate::{") {
            let body = line[at..].to_owned();
            if body.contains("};") {
                if names(&body, module) {
                    hits.push((*n, body.trim().to_owned()));
                }
            } else {
                group = Some((*n, body));
            }
        }
    }
    hits
}

/// Whether a grouped `use crate::{…}` names `module` at its top level.
fn names(group: &str, module: &str) -> bool {
    let inner = group
        .split_once('{')
        .map(|(_, rest)| rest)
        .unwrap_or_default();
    let mut depth = 0usize;
    let mut item = String::new();
    let mut items = Vec::new();
    for c in inner.chars() {
        match c {
            '{' => {
                depth += 1;
                item.push(c);
            }
            '}' if depth == 0 => break,
            '}' => {
                depth -= 1;
                item.push(c);
            }
            ',' if depth == 0 => items.push(std::mem::take(&mut item)),
            c => item.push(c),
        }
    }
    items.push(item);
    items.iter().any(|i| {
        let i = i.trim();
        i == module || i.starts_with(&format!("{module}::"))
    })
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every use of `module` from the files under `path` (a folder or one file).
fn broken(path: &Path, module: &str) -> Vec<String> {
    let files = if path.is_dir() {
        sources(path)
    } else {
        vec![path.to_owned()]
    };
    assert!(!files.is_empty(), "no sources under {}", path.display());
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read a source file");
        for (n, line) in uses(&text, module) {
            out.push(format!("{}:{n}: {line}", file.display()));
        }
    }
    out
}

#[test]
fn the_reader_of_uses_sees_what_it_must() {
    // The rules are only as good as the reader: it must see each way of writing a use,
    // and not a comment or a longer name.
    assert_eq!(
        uses("use crate::answer::conditions::ranges;", "answer").len(),
        1
    );
    assert_eq!(
        uses("let x = crate::embed::embed_key(a);", "embed").len(),
        1
    );
    assert_eq!(
        uses(
            "use crate::{\n    text,\n    answer::compose,\n};",
            "answer"
        )
        .len(),
        1
    );
    assert_eq!(uses("use crate::{import, store};", "import").len(), 1);
    assert!(uses("// see crate::answer for why", "answer").is_empty());
    assert!(uses("use crate::answers_cache;", "answer").is_empty());
    assert!(uses("use crate::{embedding::x, store};", "embed").is_empty());
}

#[test]
fn the_grounding_check_does_not_depend_on_the_composer() {
    let hits = broken(&src().join("grounding"), "answer");
    assert!(
        hits.is_empty(),
        "grounding/ uses answer:\n{}",
        hits.join("\n")
    );
}

#[test]
fn the_store_knows_no_model() {
    let hits = broken(&src().join("store"), "embed");
    assert!(hits.is_empty(), "store/ uses embed:\n{}", hits.join("\n"));
}

#[test]
fn user_data_does_not_depend_on_importing() {
    let hits = broken(&src().join("userdata.rs"), "import");
    assert!(
        hits.is_empty(),
        "userdata uses import:\n{}",
        hits.join("\n")
    );
}
