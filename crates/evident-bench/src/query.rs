//! `evident-bench query`: query latency of `search` and `ask` (with grounding) over the
//! CMRC 2018 passages plus a synthetic filler of 50,000 chunks.
//!
//! The filler documents are made of the CMRC passages' own sentences, recombined
//! deterministically, so their vocabulary and term statistics are those of real text
//! and the index is as hard to search as a real one of that size. The questions are
//! CMRC's, whose answers stay findable among the filler.
//!
//! Hybrid search is timed too, over vectors of every passage and sentence. Embedding
//! 50,000 chunks with a real model would take most of a day on this kind of machine,
//! so the vectors come from [`SyntheticVectors`]: deterministic pseudo-random unit
//! vectors of a real model's width (`--dim`: 768 by default, EmbeddingGemma's; 384 is
//! multilingual-e5-small's). Their rankings mean nothing, but the work per
//! question (the scan over every passage vector, reading the candidates' sentence
//! vectors, fusing) is exactly that of real vectors; the server's time to embed the
//! question is not part of it and is reported by `evident-bench eval`.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use evident_core::answer::{AskOptions, ask};
use evident_core::import::{ImportOptions, Importer};
use evident_core::model::{Embedder, InputKind, ModelIdentity};
use evident_core::search::{Aliases, SearchOptions, Semantic, search};
use evident_core::store::Store;
use evident_text::sentence::split_sentences;
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
    /// Hybrid search without the server's time (synthetic vectors, see the module docs).
    hybrid_search_ms: Latency,
    build_s: f64,
    embed_s: f64,
}

/// Deterministic pseudo-random unit vectors, one per distinct text: the cost of real
/// vectors without a model (see the module docs).
struct SyntheticVectors {
    dim: usize,
}

impl SyntheticVectors {
    fn vector(&self, text: &str) -> Vec<f32> {
        let mut seed = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        let mut v: Vec<f32> = (0..self.dim)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((seed >> 40) as f32 / (1u64 << 24) as f32) - 0.5
            })
            .collect();
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-6);
        v.iter_mut().for_each(|x| *x /= norm);
        v
    }
}

impl Embedder for SyntheticVectors {
    fn identity(&self) -> evident_core::model::Result<ModelIdentity> {
        Ok(ModelIdentity {
            name: "synthetic-benchmark-vectors".into(),
            dim: self.dim,
            probe: self.vector(evident_core::model::PROBE_TEXT),
            prompt: String::new(),
        })
    }

    fn embed(
        &self,
        texts: &[evident_core::model::Text<'_>],
        _kind: InputKind,
    ) -> evident_core::model::Result<Vec<Vec<f32>>> {
        Ok(texts.iter().map(|t| self.vector(t.body)).collect())
    }

    /// At EmbeddingGemma's width, its Matryoshka first pass (the same work per question).
    fn first_pass_dims(&self) -> Option<usize> {
        (self.dim == 768).then_some(256)
    }

    fn batch_size(&self) -> usize {
        256
    }
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

pub fn run(
    eval_dir: &Path,
    filler: usize,
    queries: usize,
    dim: usize,
    json: bool,
) -> anyhow::Result<()> {
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
        let started = Instant::now();
        let synthetic = std::sync::Arc::new(SyntheticVectors { dim });
        evident_core::embed::embed_missing(&mut store, synthetic.as_ref(), &mut |_| true)?;
        let embed_s = started.elapsed().as_secs_f64();
        let hybrid = SearchOptions {
            semantic: Some(Semantic(synthetic)),
            ..SearchOptions::default()
        };
        for q in questions.iter().take(20) {
            search(&store, &q.question, &aliases, &hybrid)?;
        }
        let mut hybrid_ms = Vec::with_capacity(questions.len());
        for q in &questions {
            let r = search(&store, &q.question, &aliases, &hybrid)?;
            anyhow::ensure!(
                r.retrieval.used == evident_core::search::RankedBy::Hybrid,
                "vectors were not used: {:?}",
                r.retrieval
            );
            hybrid_ms.push(r.elapsed_ms - r.retrieval.embed_ms);
        }
        Ok(Report {
            chunks: store.chunk_count()?,
            queries: questions.len(),
            search_ms: latency(search_ms),
            ask_ms: latency(ask_ms),
            hybrid_search_ms: latency(hybrid_ms),
            build_s,
            embed_s,
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
    for (label, l) in [
        ("search", &r.search_ms),
        ("ask", &r.ask_ms),
        (
            "hybrid search (synthetic vectors, without the server)",
            &r.hybrid_search_ms,
        ),
    ] {
        writeln!(
            out,
            "{label:<7} mean {:.2} ms, p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms",
            l.mean, l.p50, l.p95, l.max
        )?;
    }
    Ok(())
}
