//! `evident-bench generate`: model-written answers on a question set, measured.
//!
//! Each question is answered by the model through the same path as `ask --generate`
//! (retrieval, the fenced prompt, the streamed reply, the per-sentence check). What is
//! reported is what the issue asks to watch: time to the first text and in all, how
//! often the answer falls back or is "not found", and the share of the model's
//! sentences the check flags (unsupported or only partly supported). `--out` writes
//! every answer with its verdicts and reasons, one JSON object a line, for judging the
//! flags by hand; the figures here do not judge whether a flag is right.

use std::io::Write;
use std::path::{Path, PathBuf};

use evident_core::answer::generated::{GenerateOptions, ask_generated};
use evident_core::answer::{Mode, Status};
use evident_core::grounding::Verdict;
use evident_core::import::{ImportOptions, Importer};
use evident_core::model::ModelServer;
use evident_core::search::Aliases;
use evident_core::store::Store;
use serde::Serialize;

use crate::dataset;
use crate::eval::percentile;

/// What to run.
pub struct BenchGenerate<'a> {
    /// The question set (JSONL, colloquial-dev's format).
    pub questions: &'a Path,
    /// The corpus the set's `doc` paths are relative to.
    pub corpus: &'a Path,
    /// A prepared index instead of importing the corpus's Markdown sets.
    pub db: Option<&'a Path>,
    /// Only questions in this language (`zh`, `en`).
    pub lang: Option<&'a str>,
    /// At most this many questions.
    pub limit: Option<usize>,
    /// Where to write every answer (JSONL).
    pub out: Option<&'a Path>,
}

#[derive(Debug, Default, Serialize)]
struct Report {
    questions: usize,
    generated: usize,
    /// Nothing retrieved above the floor: the model was not asked.
    not_asked: usize,
    not_found: usize,
    uncertain: usize,
    fell_back: usize,
    sentences: usize,
    unsupported: usize,
    partly: usize,
    flagged_share: f64,
    /// Sentences of texts not shown because they cite nothing, checked all the same.
    draft_sentences: usize,
    draft_flagged: usize,
    first_text_ms_median: f64,
    first_text_ms_p95: f64,
    total_ms_median: f64,
    total_ms_p95: f64,
}

#[derive(Serialize)]
struct Row<'a> {
    id: &'a str,
    lang: Option<&'a str>,
    question: &'a str,
    answerable: bool,
    answer: &'a evident_core::answer::Answer,
}

/// The Markdown sets of the corpus that colloquial-dev's questions are about.
fn corpus_dirs(corpus: &Path) -> Vec<PathBuf> {
    ["zh-laws", "handbook-sourcegraph", "handbook-18f"]
        .iter()
        .map(|d| corpus.join(d))
        .collect()
}

impl Report {
    /// Counts one answer: how it came out, its sentences' verdicts, its times.
    fn count(
        &mut self,
        answer: &evident_core::answer::Answer,
        first: &mut Vec<f64>,
        total: &mut Vec<f64>,
    ) {
        self.questions += 1;
        if let Some(run) = &answer.generation {
            if let Some(ms) = run.first_text_ms {
                first.push(ms as f64);
            }
            total.push(run.total_ms as f64);
        }
        if answer.generation.is_none() {
            self.not_asked += 1;
        } else if answer.fallback.is_some() {
            self.fell_back += 1;
            for s in answer.generation.iter().flat_map(|g| &g.draft) {
                self.draft_sentences += 1;
                self.draft_flagged += usize::from(s.verdict != Verdict::Supported);
            }
        } else if answer.mode == Mode::Generated {
            match answer.status {
                Status::NotFound => self.not_found += 1,
                Status::Uncertain => self.uncertain += 1,
                _ => {}
            }
            if answer.status != Status::NotFound {
                self.generated += 1;
            }
            for s in &answer.sentences {
                self.sentences += 1;
                match s.verdict {
                    Verdict::Unsupported => self.unsupported += 1,
                    Verdict::PartiallySupported => self.partly += 1,
                    Verdict::Supported => {}
                }
            }
        }
    }

    /// The report as text.
    fn print(&self) {
        println!("model answers on {} questions", self.questions);
        println!(
            "  written and checked: {} (uncertain: {}), model said not found: {}, fell back to extractive: {}, not asked (nothing retrieved): {}",
            self.generated, self.uncertain, self.not_found, self.fell_back, self.not_asked
        );
        println!(
            "  sentences: {}, unsupported: {}, partly supported: {}, flagged: {:.1}%",
            self.sentences,
            self.unsupported,
            self.partly,
            100.0 * self.flagged_share
        );
        println!(
            "  not shown (cited nothing), checked all the same: {} sentences, {} flagged",
            self.draft_sentences, self.draft_flagged
        );
        println!(
            "  first text: median {:.0} ms, p95 {:.0} ms; whole answer: median {:.0} ms, p95 {:.0} ms",
            self.first_text_ms_median,
            self.first_text_ms_p95,
            self.total_ms_median,
            self.total_ms_p95
        );
    }
}

/// The library the questions are asked of: `a.db`, else the corpus imported into a
/// fresh database in `tmp`.
fn library(a: &BenchGenerate<'_>, tmp: &Path) -> anyhow::Result<Store> {
    Ok(match a.db {
        Some(db) => Store::open(db)?,
        None => {
            let _ = std::fs::remove_dir_all(tmp);
            std::fs::create_dir_all(tmp)?;
            let mut store = Store::open(&tmp.join("bench.sqlite3"))?;
            let files: Vec<PathBuf> = evident_core::import::collect_files(&corpus_dirs(a.corpus))
                .0
                .into_iter()
                .filter(|f| f.file_name().is_some_and(|n| n != "SOURCE.md"))
                .collect();
            Importer::new(ImportOptions::sandboxed()?).run(&mut store, &files, &mut |_| {})?;
            store
        }
    })
}

/// Runs the questions through `generator` and prints (or returns as JSON) the figures.
pub fn run(
    a: &BenchGenerate<'_>,
    generator: &ModelServer,
    options: &GenerateOptions,
    json: bool,
) -> anyhow::Result<serde_json::Value> {
    let mut questions = dataset::load(a.questions)?;
    if let Some(lang) = a.lang {
        questions.retain(|q| q.lang.as_deref() == Some(lang));
    }
    if let Some(n) = a.limit {
        questions.truncate(n);
    }
    if questions.is_empty() {
        anyhow::bail!("{} holds no questions to ask", a.questions.display());
    }
    let tmp = std::env::temp_dir().join(format!("evident-bench-generate-{}", std::process::id()));
    let store = library(a, &tmp)?;
    let mut out = match a.out {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", p.display()))?,
        )),
        None => None,
    };
    let mut r = Report::default();
    let (mut first, mut total) = (Vec::new(), Vec::new());
    for (i, q) in questions.iter().enumerate() {
        if !json {
            eprint!("\r{}/{} {}", i + 1, questions.len(), q.id);
        }
        let answer = ask_generated(
            &store,
            &q.question,
            &Aliases::default(),
            options,
            generator,
            &mut |_| true,
        )?;
        r.count(&answer, &mut first, &mut total);
        if let Some(out) = out.as_mut() {
            let row = Row {
                id: &q.id,
                lang: q.lang.as_deref(),
                question: &q.question,
                answerable: q.answerable(),
                answer: &answer,
            };
            writeln!(out, "{}", serde_json::to_string(&row)?)?;
        }
    }
    if !json {
        eprintln!();
    }
    drop(store);
    let _ = std::fs::remove_dir_all(&tmp);
    r.flagged_share = if r.sentences == 0 {
        0.0
    } else {
        (r.unsupported + r.partly) as f64 / r.sentences as f64
    };
    first.sort_by(f64::total_cmp);
    total.sort_by(f64::total_cmp);
    r.first_text_ms_median = percentile(&first, 0.5);
    r.first_text_ms_p95 = percentile(&first, 0.95);
    r.total_ms_median = percentile(&total, 0.5);
    r.total_ms_p95 = percentile(&total, 0.95);
    if !json {
        r.print();
    }
    Ok(serde_json::to_value(&r)?)
}
