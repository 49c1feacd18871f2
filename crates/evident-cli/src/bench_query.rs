//! `evident bench-query`: query latency of `search` and `ask` (with grounding) over the
//! CMRC 2018 passages plus a synthetic filler of 50,000 chunks.
//!
//! The filler documents are made of the CMRC passages' own sentences, recombined
//! deterministically, so their vocabulary and term statistics are those of real text
//! and the index is as hard to search as a real one of that size. The questions are
//! CMRC's, whose answers stay findable among the filler.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use evident_core::answer::{AskOptions, ask};
use evident_core::import::{ImportOptions, Importer};
use evident_core::search::{Aliases, SearchOptions, search};
use evident_core::store::Store;
use evident_core::text::sentence::split_sentences;
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
struct Passage {
    text: String,
}

#[derive(Serialize)]
struct Report {
    chunks: i64,
    queries: usize,
    search_ms: Latency,
    ask_ms: Latency,
    build_s: f64,
}

#[derive(Serialize)]
struct Latency {
    mean: f64,
    p50: f64,
    p95: f64,
    max: f64,
}

fn latency(mut v: Vec<f64>) -> Latency {
    v.sort_by(f64::total_cmp);
    let at = |p: f64| {
        v.get(((v.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    Latency {
        mean: v.iter().sum::<f64>() / v.len().max(1) as f64,
        p50: at(0.5),
        p95: at(0.95),
        max: v.last().copied().unwrap_or(0.0),
    }
}

/// A small deterministic generator (64-bit LCG) so every run builds the same filler.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

fn write_filler(set: &Path, dir: &Path, documents: usize) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(set.join("passages.jsonl"))?;
    let mut sentences: Vec<String> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let p: Passage = serde_json::from_str(line)?;
        sentences.extend(
            split_sentences(&p.text)
                .into_iter()
                .map(|(s, e)| p.text[s..e].to_owned()),
        );
    }
    anyhow::ensure!(!sentences.is_empty(), "no passages in {}", set.display());
    std::fs::create_dir_all(dir)?;
    let mut rng = Lcg(2018);
    for i in 0..documents {
        let body: String = (0..4)
            .map(|_| sentences[rng.next(sentences.len())].as_str())
            .collect();
        std::fs::write(dir.join(format!("filler-{i:05}.txt")), body)?;
    }
    Ok(())
}

pub fn run(eval_dir: &Path, filler: usize, queries: usize, json: bool) -> anyhow::Result<()> {
    let set = eval_dir.join("datasets/cmrc2018-dev");
    let tmp = std::env::temp_dir().join(format!("evident-bench-query-{}", std::process::id()));
    let result = (|| -> anyhow::Result<Report> {
        let started = Instant::now();
        let filler_dir = tmp.join("filler");
        write_filler(&set, &filler_dir, filler)?;
        let mut store = Store::open(&tmp.join("index.sqlite3"))?;
        Importer::new(ImportOptions::sandboxed()?).run(
            &mut store,
            &[set.join("docs"), filler_dir],
            &mut |_| {},
        )?;
        let build_s = started.elapsed().as_secs_f64();
        let mut questions = crate::dataset::load(&set.join("questions.jsonl"))?;
        questions.truncate(queries);
        let aliases = Aliases::default();
        let options = SearchOptions::default();
        let ask_options = AskOptions::default();
        // One untimed pass loads the dictionary and warms SQLite's cache.
        for q in questions.iter().take(20) {
            search(&store, &q.question, &aliases, &options)?;
        }
        let mut search_ms = Vec::with_capacity(questions.len());
        let mut ask_ms = Vec::with_capacity(questions.len());
        for q in &questions {
            let t = Instant::now();
            search(&store, &q.question, &aliases, &options)?;
            search_ms.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            ask(&store, &q.question, &aliases, &ask_options)?;
            ask_ms.push(t.elapsed().as_secs_f64() * 1e3);
        }
        Ok(Report {
            chunks: store.chunk_count()?,
            queries: questions.len(),
            search_ms: latency(search_ms),
            ask_ms: latency(ask_ms),
            build_s,
        })
    })();
    let _ = std::fs::remove_dir_all(&tmp);
    let r = result?;
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&r)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "{} chunks (CMRC 2018 passages + filler), built in {:.1} s; {} questions",
        r.chunks, r.build_s, r.queries
    )?;
    for (label, l) in [("search", &r.search_ms), ("ask", &r.ask_ms)] {
        writeln!(
            out,
            "{label:<7} mean {:.2} ms, p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms",
            l.mean, l.p50, l.p95, l.max
        )?;
    }
    Ok(())
}
