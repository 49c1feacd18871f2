//! The training script reproduces the committed model file: `evident-bench learn` run here,
//! from `../shared/eval`, by the real binary.
//!
//! The keyword-only models are rebuilt from nothing: every set imported, every
//! question asked, every candidate written down, fitted, calibrated, and the file
//! written must equal the committed one. The models for searches with vectors need the
//! sets embedded by EmbeddingGemma (most of an hour on two cores); they are rebuilt by
//! `scripts/learn.sh` with its vector cache, and `scripts/bench.sh` checks that file
//! too. Here the file's hybrid sections are carried over from the committed file, so a
//! difference anywhere in the written file is a difference of the keyword rebuild.

#[path = "../../evident-cli/tests/common/mod.rs"]
mod common;

use std::path::PathBuf;

use common::{eval_dir, evident_bench};

fn committed() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../evident-index/models/answers.json")
}

#[test]
fn the_training_script_reproduces_the_committed_keyword_models() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("settings-only.sqlite3");
    let work = dir.path().join("learn");
    let work_s = work.to_str().expect("utf-8 path");
    let eval = eval_dir();
    let own = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench/answers-own.jsonl");
    let rows = evident_bench(
        &db,
        &[
            "learn",
            "rows",
            "--no-embed",
            "--eval-dir",
            eval.to_str().expect("utf-8 path"),
            "--own",
            own.to_str().expect("utf-8 path"),
            "--work",
            work_s,
        ],
    );
    assert!(
        rows.status.success(),
        "learn rows: {}",
        String::from_utf8_lossy(&rows.stderr)
    );
    let out = work.join("answers.json");
    let fit = evident_bench(
        &db,
        &[
            "learn",
            "fit",
            "--keyword-only",
            "--work",
            work_s,
            "--out",
            out.to_str().expect("utf-8 path"),
            "--report",
            work.join("report.md").to_str().expect("utf-8 path"),
        ],
    );
    assert!(
        fit.status.success(),
        "learn fit: {}",
        String::from_utf8_lossy(&fit.stderr)
    );
    let written = std::fs::read_to_string(&out).expect("the model file was written");
    let expected = std::fs::read_to_string(committed()).expect("the committed model file");
    let (w, e): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&written).expect("json"),
        serde_json::from_str(&expected).expect("json"),
    );
    for section in ["ranker", "outcome", "follow_up"] {
        assert_eq!(
            w[section]["keyword"], e[section]["keyword"],
            "the keyword {section} rebuilt here differs from the committed one: retrain \
             with scripts/learn.sh (the features or the sets changed?)"
        );
    }
    assert_eq!(
        written, expected,
        "the rebuilt file differs from the committed one outside its keyword models"
    );
}
