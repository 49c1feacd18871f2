//! `evident-bench embed`: what the built-in embeddings model costs on this machine.
//!
//! It times what a user waits for: starting the worker and loading the model (the
//! first question after an idle spell pays it), embedding a one-line question (every
//! question pays it), and embedding passages (an import pays it per passage and per
//! sentence). It reads the worker's memory (PSS, from `/proc`) while it embeds, and
//! checks that the worker is gone, with its memory, once it has been idle for the limit.
//!
//! Questions are colloquial-dev's (everyday Chinese and English questions); passages
//! are CMRC 2018's Chinese passages cut at 300 characters (about 200 tokens, a
//! typical passage of a policy).

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use evident_core::model::builtin::BuiltinModel;
use evident_core::model::{Embedder, InputKind, Text};
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
struct Question {
    question: String,
}

#[derive(Deserialize)]
struct Passage {
    text: String,
}

#[derive(Serialize)]
struct Report {
    model: String,
    threads: String,
    start_and_load_ms: f64,
    model_load_ms: Option<u64>,
    questions: usize,
    question_ms_p50: f64,
    question_ms_p95: f64,
    passages: usize,
    passages_per_s: f64,
    sentences: usize,
    sentences_per_s: f64,
    worker_pss_mb_embedding: Option<f64>,
    idle_limit_s: f64,
    worker_gone_after_idle: bool,
}

fn read_jsonl<T: for<'de> Deserialize<'de>>(path: &Path) -> anyhow::Result<Vec<T>> {
    let text =
        std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect())
}

/// PSS of a process in MB, from `/proc/PID/smaps_rollup`.
fn pss_mb(pid: u32) -> Option<f64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    let line = text.lines().find(|l| l.starts_with("Pss:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

/// The sentences of `passages`, each with its place as the title as an import sends
/// them (eight passages' worth per request): how many, and how many a second.
fn sentences_per_second(model: &BuiltinModel, passages: &[String]) -> anyhow::Result<(usize, f64)> {
    let sentences: Vec<String> = passages
        .iter()
        .flat_map(|p| {
            evident_core::embed::sentence_spans(p)
                .into_iter()
                .map(|(s, e)| p[s..e].to_owned())
        })
        .collect();
    let inputs: Vec<Text<'_>> = sentences
        .iter()
        .map(|s| Text {
            title: Some("CMRC 2018 > 开发集"),
            body: s,
        })
        .collect();
    let t = Instant::now();
    for batch in inputs.chunks(model.batch_size() * 8) {
        model.embed(batch, InputKind::Passage)?;
    }
    Ok((
        sentences.len(),
        sentences.len() as f64 / t.elapsed().as_secs_f64().max(1e-9),
    ))
}

/// Runs the benchmark on `model` (ended after `idle` without a request).
pub fn run(
    eval_dir: &Path,
    model: BuiltinModel,
    questions: usize,
    passages: usize,
    json: bool,
) -> anyhow::Result<()> {
    let asked: Vec<Question> =
        read_jsonl(&eval_dir.join("datasets/colloquial-dev/questions.jsonl"))?;
    let texts: Vec<String> =
        read_jsonl::<Passage>(&eval_dir.join("datasets/cmrc2018-dev/passages.jsonl"))?
            .into_iter()
            .map(|p| p.text.chars().take(300).collect())
            .take(passages)
            .collect();
    anyhow::ensure!(
        !asked.is_empty(),
        "no colloquial-dev questions in {}",
        eval_dir.display()
    );

    let started = Instant::now();
    let identity = model.identity()?;
    let start_and_load_ms = started.elapsed().as_secs_f64() * 1000.0;
    let info = model.info();

    // One warm-up question, then the timed ones (the first after loading pays for
    // llama.cpp's buffers).
    model.embed(&[Text::from("warm-up")], InputKind::Query)?;
    let mut times = Vec::new();
    for q in asked.iter().cycle().take(questions) {
        let t = Instant::now();
        model.embed(&[Text::from(q.question.as_str())], InputKind::Query)?;
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);

    let pid = model.worker_pid();
    let t = Instant::now();
    let inputs: Vec<Text<'_>> = texts.iter().map(|s| Text::from(s.as_str())).collect();
    let mut pss: Option<f64> = None;
    for batch in inputs.chunks(model.batch_size()) {
        model.embed(batch, InputKind::Passage)?;
        let now = pid.and_then(pss_mb);
        pss = match (pss, now) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
    }
    let passages_per_s = texts.len() as f64 / t.elapsed().as_secs_f64().max(1e-9);

    let (sentences, sentences_per_s) = sentences_per_second(&model, &texts)?;

    // The worker ends on its own once idle for the limit.
    let idle = Duration::from_secs(2);
    model.stop();
    let model = model.with_idle_limit(idle);
    model.embed(&[Text::from("one more")], InputKind::Query)?;
    let deadline = Instant::now() + idle * 4;
    while model.is_running() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    let report = Report {
        model: format!("{} ({} dims)", model.path().display(), identity.dim),
        threads: std::thread::available_parallelism()
            .map(|n| n.to_string())
            .unwrap_or_default(),
        start_and_load_ms,
        model_load_ms: info.and_then(|i| i.load_ms),
        questions: times.len(),
        question_ms_p50: percentile(&times, 50.0),
        question_ms_p95: percentile(&times, 95.0),
        passages: texts.len(),
        passages_per_s,
        sentences,
        sentences_per_s,
        worker_pss_mb_embedding: pss,
        idle_limit_s: idle.as_secs_f64(),
        worker_gone_after_idle: !model.is_running(),
    };
    let mut out = std::io::stdout();
    if json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        writeln!(out, "model: {}", report.model)?;
        writeln!(
            out,
            "start worker + load + probe: {:.0} ms (llama.cpp load {} ms)",
            report.start_and_load_ms,
            report.model_load_ms.map_or("?".into(), |m| m.to_string())
        )?;
        writeln!(
            out,
            "question: p50 {:.1} ms, p95 {:.1} ms over {}",
            report.question_ms_p50, report.question_ms_p95, report.questions
        )?;
        writeln!(
            out,
            "passages: {:.2}/s over {} (300 characters each)",
            report.passages_per_s, report.passages
        )?;
        writeln!(
            out,
            "sentences of those passages, with a title: {:.2}/s over {}",
            report.sentences_per_s, report.sentences
        )?;
        if let Some(p) = report.worker_pss_mb_embedding {
            writeln!(out, "worker PSS while embedding: {p:.0} MB")?;
        }
        writeln!(
            out,
            "worker ended after {:.0} s idle: {}",
            report.idle_limit_s, report.worker_gone_after_idle
        )?;
    }
    Ok(())
}
