//! Helpers for driving the real `evident` binary in tests.
#![allow(dead_code)]

pub mod pdf;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `evident` binary: this crate's own, or, for `evident-bench`'s tests (which share
/// these helpers), the one `cargo test --workspace` built beside the test.
pub fn bin() -> PathBuf {
    built("evident", option_env!("CARGO_BIN_EXE_evident"))
}

/// The `evident-bench` binary (for its own crate's tests).
pub fn bench() -> PathBuf {
    built("evident-bench", option_env!("CARGO_BIN_EXE_evident-bench"))
}

/// A workspace binary: the path cargo gave this test, else the one in the target folder
/// the test runs from (`target/release/deps/TEST` → `target/release/NAME`).
fn built(name: &str, given: Option<&str>) -> PathBuf {
    if let Some(path) = given {
        return PathBuf::from(path);
    }
    let path = std::env::current_exe()
        .ok()
        .and_then(|test| Some(test.parent()?.parent()?.join(name)))
        .unwrap_or_else(|| PathBuf::from(name));
    assert!(
        path.is_file(),
        "{} is not built: run `cargo test --workspace` (or build it first)",
        path.display()
    );
    path
}

/// Runs `evident --db DB args...`, with no built-in embeddings model to find unless
/// the environment names where to look (`scripts/test.sh` names an empty folder).
pub fn evident(db: &Path, args: &[&str]) -> Output {
    run(&bin(), db, args)
}

/// Runs `evident-bench --db DB args...`, as [`evident`] runs `evident`.
pub fn evident_bench(db: &Path, args: &[&str]) -> Output {
    run(&bench(), db, args)
}

fn run(program: &Path, db: &Path, args: &[&str]) -> Output {
    let nowhere = || std::ffi::OsString::from("/nonexistent/evident-test-models");
    Command::new(program)
        .arg("--db")
        .arg(db)
        .args(args)
        .env(
            "EVIDENT_MODELS_DIR",
            std::env::var_os("EVIDENT_MODELS_DIR").unwrap_or_else(nowhere),
        )
        .env(
            "OLLAMA_MODELS",
            std::env::var_os("OLLAMA_MODELS").unwrap_or_else(nowhere),
        )
        .output()
        .unwrap_or_else(|e| panic!("{} runs: {e}", program.display()))
}

/// Runs a command with `--json` and parses its stdout.
pub fn json(db: &Path, args: &[&str]) -> serde_json::Value {
    let out = evident(db, args);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?} printed no JSON ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// A single integer from `sql` (e.g. a `count(*)`) on the database at `db`.
pub fn count(db: &Path, sql: &str) -> i64 {
    rusqlite::Connection::open(db)
        .and_then(|c| c.query_row(sql, [], |r| r.get(0)))
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// The evaluation data in `../shared/eval` beside the repository, or
/// `$EVIDENT_EVAL_DIR` (as the README says).
pub fn eval_dir() -> PathBuf {
    let dir = std::env::var_os("EVIDENT_EVAL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/eval"));
    assert!(
        dir.join("datasets").is_dir(),
        "eval data expected at {}",
        dir.display()
    );
    dir
}

/// The repository's sample documents.
pub fn samples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples")
}

/// The report of `file` (by file name) in an import summary.
pub fn report<'a>(summary: &'a serde_json::Value, file: &str) -> &'a serde_json::Value {
    summary["files"]
        .as_array()
        .and_then(|files| {
            files.iter().find(|f| {
                f["path"]
                    .as_str()
                    .is_some_and(|p| Path::new(p).file_name().is_some_and(|n| n == file))
            })
        })
        .unwrap_or_else(|| panic!("no report for {file} in {summary}"))
}
