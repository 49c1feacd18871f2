//! `evident eval`: retrieval quality on a question set in the format of
//! `../shared/eval/datasets/*/questions.jsonl`, scored by that README's rule.
//!
//! A retrieved passage is a hit when it comes from a gold document and contains one of
//! the question's answer strings after NFKC, lower-casing and removing all white space.
//! PolicyQA rows carry a `policy`; those questions are searched within their own policy
//! file only, as the README prescribes. With `--against DIR` the questions are asked of
//! other documents, where none is answerable: that measures the relevance floor's
//! refusals. `--sweep-floor` shows the refusal rate at a range of floors, which is how
//! the default floor was chosen.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use evident_core::import::Importer;
use evident_core::search::{Aliases, SearchOptions, search};
use evident_core::store::Store;
use serde::Serialize;

use crate::dataset::{self, Question};

/// What `eval` was asked to do.
pub struct EvalArgs<'a> {
    pub questions: &'a Path,
    pub ks: &'a [usize],
    pub db: Option<&'a Path>,
    pub docs: Option<&'a Path>,
    pub synonyms: bool,
    pub against: Option<&'a Path>,
    pub floor: f64,
    pub sweep_floor: bool,
    pub run_out: Option<&'a Path>,
    pub limit: Option<usize>,
    pub json: bool,
}

#[derive(Debug, Serialize)]
struct Report {
    questions: usize,
    answerable: bool,
    hit_at: Vec<(usize, f64)>,
    mrr_at_10: f64,
    refused: usize,
    refusal_rate: f64,
    floor: f64,
    latency_ms_p50: f64,
    latency_ms_p95: f64,
    sweep: Vec<(f64, f64)>,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Opens `db`, or builds a temporary index of `docs` when no database was given.
fn index(db: Option<&Path>, docs: &Path, tmp: &Path) -> anyhow::Result<Store> {
    if let Some(db) = db {
        return Ok(Store::open(db)?);
    }
    let path = tmp.join("eval.sqlite3");
    let mut store = Store::open(&path)?;
    let options = evident_core::import::ImportOptions::sandboxed()?;
    let summary = Importer::new(options).run(&mut store, &[docs.to_owned()], &mut |_| {})?;
    let failed = summary.count(|o| o.label() == "failed");
    if failed > 0 {
        eprintln!(
            "note: {failed} files of {} failed to import",
            docs.display()
        );
    }
    Ok(store)
}

pub fn run(a: &EvalArgs<'_>) -> anyhow::Result<()> {
    let mut questions = dataset::load(a.questions)?;
    if let Some(n) = a.limit {
        questions.truncate(n);
    }
    let set_dir = a.questions.parent().unwrap_or(Path::new("."));
    let answerable = a.against.is_none();
    let docs: PathBuf = a
        .against
        .or(a.docs)
        .map_or_else(|| set_dir.join("docs"), Path::to_owned);
    let tmp = std::env::temp_dir().join(format!("evident-eval-{}", std::process::id()));
    std::fs::create_dir_all(&tmp)?;
    let result = (|| {
        let store = index(a.db, &docs, &tmp)?;
        evaluate(a, &store, &questions, answerable)
    })();
    let _ = std::fs::remove_dir_all(&tmp);
    let report = result?;
    let mut out = std::io::stdout();
    if a.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "{} questions ({})",
        report.questions,
        if answerable {
            "answerable from their documents"
        } else {
            "asked of other documents: none is answerable"
        }
    )?;
    if answerable {
        for (k, v) in &report.hit_at {
            write!(out, "hit@{k} {v:.3}  ")?;
        }
        writeln!(out, "MRR@10 {:.3}", report.mrr_at_10)?;
    }
    writeln!(
        out,
        "not found at floor {:.2}: {} of {} ({:.1}%)",
        report.floor,
        report.refused,
        report.questions,
        100.0 * report.refusal_rate
    )?;
    writeln!(
        out,
        "search latency p50 {:.2} ms, p95 {:.2} ms",
        report.latency_ms_p50, report.latency_ms_p95
    )?;
    if !report.sweep.is_empty() {
        writeln!(out, "floor  not-found rate")?;
        for (f, r) in &report.sweep {
            writeln!(out, "{f:.2}   {:.1}%", 100.0 * r)?;
        }
    }
    Ok(())
}

fn evaluate(
    a: &EvalArgs<'_>,
    store: &Store,
    questions: &[Question],
    answerable: bool,
) -> anyhow::Result<Report> {
    let aliases = if a.synonyms {
        Aliases::builtin()
    } else {
        Aliases::default()
    };
    let k_max = a.ks.iter().copied().max().unwrap_or(10).max(10);
    let docs = store.documents()?;
    let mut hits_at = vec![0usize; a.ks.len()];
    let mut rr = 0.0;
    let mut latencies = Vec::with_capacity(questions.len());
    let mut coverages = Vec::with_capacity(questions.len());
    let mut refused = 0;
    let mut run_out = match a.run_out {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?,
        )),
        None => None,
    };
    for q in questions {
        // PolicyQA: search only the question's own policy.
        let scope = (q.policy.is_some() && answerable).then(|| {
            docs.iter()
                .filter(|d| q.is_gold(&d.path))
                .map(|d| d.id)
                .collect::<Vec<_>>()
        });
        let options = SearchOptions {
            k: k_max,
            floor: 0.0,
            documents: scope,
            ..SearchOptions::default()
        };
        let result = search(store, &q.question, &aliases, &options)?;
        latencies.push(result.elapsed_ms);
        coverages.push(result.top_coverage);
        if result.passages.is_empty() || result.top_coverage < a.floor {
            refused += 1;
        }
        let answers = q.normalised_answers();
        let first_hit = result.passages.iter().position(|p| {
            q.is_gold(&p.doc_path) && {
                let text = dataset::norm(&p.text);
                answers.iter().any(|ans| text.contains(ans))
            }
        });
        if let Some(rank) = first_hit {
            for (i, k) in a.ks.iter().enumerate() {
                if rank < *k {
                    hits_at[i] += 1;
                }
            }
            if rank < 10 {
                rr += 1.0 / (rank as f64 + 1.0);
            }
        }
        if let Some(w) = run_out.as_mut() {
            let retrieved: Vec<serde_json::Value> = result
                .passages
                .iter()
                .map(|p| serde_json::json!({"doc": p.doc_path, "text": p.text}))
                .collect();
            writeln!(
                w,
                "{}",
                serde_json::json!({
                    "id": q.id,
                    "retrieved": retrieved,
                    "abstained": result.top_coverage < a.floor,
                })
            )?;
        }
    }
    let n = questions.len().max(1) as f64;
    latencies.sort_by(f64::total_cmp);
    let sweep = if a.sweep_floor {
        (1..=18)
            .map(|i| {
                let f = i as f64 * 0.05;
                let r = coverages.iter().filter(|c| **c < f).count() as f64 / n;
                (f, r)
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(Report {
        questions: questions.len(),
        answerable,
        hit_at: a
            .ks
            .iter()
            .zip(&hits_at)
            .map(|(k, h)| (*k, *h as f64 / n))
            .collect(),
        mrr_at_10: rr / n,
        refused,
        refusal_rate: refused as f64 / n,
        floor: a.floor,
        latency_ms_p50: percentile(&latencies, 0.5),
        latency_ms_p95: percentile(&latencies, 0.95),
        sweep,
    })
}
