//! `evident-bench eval`: retrieval quality and outcomes on a question set in the format of
//! `../shared/eval/datasets/*/questions.jsonl`, scored by that README's rule.
//!
//! A retrieved passage is a hit when it comes from a gold document and contains one of
//! the question's answer strings after NFKC, lower-casing and removing all white space.
//! PolicyQA rows carry a `policy`; those questions are searched within their own policy
//! file only, as the README prescribes. colloquial-dev rows without a document are
//! unanswerable and count only for their outcome. With `--against DIR` the questions are
//! asked of other documents, where none is answerable: that measures refusals.
//!
//! `--modes keyword,dense,hybrid` reports the rankings side by side; `--half odd|even`
//! keeps every other question, the two halves on which the outcome thresholds were
//! calibrated and reported; `--signals-out` writes each question's outcome signals.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use evident_core::answer::{AskOptions, ask};
use evident_core::import::Importer;
use evident_core::search::{
    Aliases, Outcome, Rerank, RetrievalMode, SearchOptions, Semantic, search,
};
use evident_core::store::Store;
use serde::Serialize;

use crate::dataset::{self, Question};

/// What `eval` was asked to do.
pub struct EvalArgs<'a> {
    pub questions: &'a Path,
    pub ks: &'a [usize],
    pub db: Option<&'a Path>,
    pub docs: &'a [PathBuf],
    pub semantic: Option<Semantic>,
    pub rerank: Option<Rerank>,
    pub half: Option<&'a str>,
    pub modes: &'a [String],
    pub signals_out: Option<&'a Path>,
    pub synonyms: bool,
    /// Built-in synonym lines left out (to measure what each adds).
    pub synonyms_without: &'a [String],
    pub against: Option<&'a Path>,
    pub run_out: Option<&'a Path>,
    pub limit: Option<usize>,
    /// Measure answers too.
    pub answers: bool,
    pub json: bool,
}

/// How the answers read, over the answerable questions whose answer search has in its
/// top 5 (so that the figures measure the composer, not retrieval).
#[derive(Debug, Default, Serialize)]
struct AnswerReport {
    questions: usize,
    /// Share whose gold quote is in the answer's first sentence.
    first_sentence: f64,
    /// Share whose gold quote is in some sentence of the answer.
    anywhere: f64,
    /// Mean number of sentences per answer.
    mean_sentences: f64,
    /// Of those, the answers shown as answered (an uncertain or not-found answer shows
    /// no sentence as an answer).
    shown: usize,
    /// Answers shown as answered whose first sentence holds the gold quote.
    shown_first: usize,
    /// Unanswerable questions asked, and those whose answer was shown as answered.
    unanswerable_asked: usize,
    unanswerable_shown: usize,
}

/// Outcomes of one group of questions.
#[derive(Debug, Default, Serialize)]
struct Outcomes {
    answered: usize,
    uncertain: usize,
    not_found: usize,
}

impl Outcomes {
    fn add(&mut self, o: Outcome) {
        match o {
            Outcome::Answered => self.answered += 1,
            Outcome::Uncertain => self.uncertain += 1,
            Outcome::NotFound => self.not_found += 1,
        }
    }
}

/// The figures of one ranking mode.
#[derive(Debug, Serialize)]
struct ModeReport {
    mode: String,
    /// What actually ranked (a hybrid run without a ready server is keyword-only).
    used: evident_core::search::RankedBy,
    answerable_questions: usize,
    unanswerable_questions: usize,
    hit_at: Vec<(usize, f64)>,
    mrr_at_10: f64,
    answerable: Outcomes,
    unanswerable: Outcomes,
    /// Of the answerable questions marked `answered`, the share with a hit in the top 5.
    answered_precision_at_5: Option<f64>,
    /// Each answerable question declared not found, with its reason.
    answerable_not_found: Vec<(String, String)>,
    latency_ms_p50: f64,
    latency_ms_p95: f64,
    embed_ms_p50: f64,
    embed_ms_p95: f64,
    answers: Option<AnswerReport>,
}

#[derive(Debug, Serialize)]
struct Report {
    questions: usize,
    mean_passage_chars: f64,
    modes: Vec<ModeReport>,
}

pub(crate) fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// The files of `dirs` to import, without the sets' bookkeeping files.
fn eval_files(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let (files, _) = evident_core::import::collect_files(dirs);
    files
        .into_iter()
        .filter(|f| {
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name != "SOURCE.md" && name != "sources.json"
        })
        .collect()
}

/// Opens `db`, or builds a temporary index of `docs` when no database was given.
fn index(a: &EvalArgs<'_>, docs: &[PathBuf], tmp: &Path) -> anyhow::Result<Store> {
    if let Some(db) = a.db {
        let store = Store::open(db)?;
        if store.chunk_count()? == 0 {
            anyhow::bail!(
                "{} holds no documents; import the set's documents first, or leave out --db",
                db.display()
            );
        }
        return Ok(store);
    }
    let path = tmp.join("eval.sqlite3");
    let mut store = Store::open(&path)?;
    let mut options = evident_core::import::ImportOptions::sandboxed()?;
    options.semantic = a.semantic.clone();
    let files = eval_files(docs);
    if files.is_empty() {
        anyhow::bail!("no documents to evaluate against in {docs:?}");
    }
    let summary = Importer::new(options).run(&mut store, &files, &mut |_| {})?;
    let failed = summary.count(|o| o.label() == "failed");
    if failed > 0 {
        eprintln!("note: {failed} files failed to import");
    }
    if let Some(error) = summary.embedding.and_then(|e| e.error) {
        eprintln!("note: embedding stopped: {error}");
    }
    Ok(store)
}

pub fn run(a: &EvalArgs<'_>) -> anyhow::Result<()> {
    let mut questions = dataset::load(a.questions)?;
    // A quote found in a printed copy of its document is found (sources.json).
    for dir in a.docs {
        dataset::add_copies(&mut questions, &dataset::copies(dir));
    }
    if let Some(half) = a.half {
        let keep = usize::from(half == "even");
        questions = questions
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % 2 == keep)
            .map(|(_, q)| q)
            .collect();
    }
    if let Some(n) = a.limit {
        questions.truncate(n);
    }
    let set_dir = a.questions.parent().unwrap_or(Path::new("."));
    let docs: Vec<PathBuf> = match (a.against, a.docs.is_empty()) {
        (Some(against), _) => vec![against.to_owned()],
        (None, false) => a.docs.to_vec(),
        (None, true) => vec![set_dir.join("docs")],
    };
    let modes: Vec<RetrievalMode> = if a.modes.is_empty() {
        vec![RetrievalMode::Hybrid]
    } else {
        a.modes
            .iter()
            .map(|m| match m.as_str() {
                "keyword" | "bm25" => Ok(RetrievalMode::Keyword),
                "dense" | "vector" => Ok(RetrievalMode::Dense),
                "hybrid" => Ok(RetrievalMode::Hybrid),
                other => Err(anyhow::anyhow!(
                    "unknown mode {other:?} (keyword, dense, hybrid)"
                )),
            })
            .collect::<anyhow::Result<_>>()?
    };
    let tmp = std::env::temp_dir().join(format!("evident-eval-{}", std::process::id()));
    std::fs::create_dir_all(&tmp)?;
    let result = (|| {
        let store = index(a, &docs, &tmp)?;
        let mut signals = match a.signals_out {
            Some(p) => Some(std::io::BufWriter::new(
                std::fs::File::create(p)
                    .with_context(|| format!("cannot write {}", p.display()))?,
            )),
            None => None,
        };
        let mut reports = Vec::new();
        for &mode in &modes {
            reports.push(evaluate(a, &store, &questions, mode, signals.as_mut())?);
        }
        let mean_passage_chars: f64 = store.connection().query_row(
            "SELECT coalesce(avg(char_end - char_start), 0) FROM chunks",
            [],
            |r| r.get(0),
        )?;
        Ok::<_, anyhow::Error>(Report {
            questions: questions.len(),
            mean_passage_chars,
            modes: reports,
        })
    })();
    let _ = std::fs::remove_dir_all(&tmp);
    let report = result?;
    print(a, &report)
}

fn print(a: &EvalArgs<'_>, report: &Report) -> anyhow::Result<()> {
    let mut out = std::io::stdout();
    if a.json {
        writeln!(out, "{}", serde_json::to_string_pretty(report)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "{} questions{}; mean passage length {:.0} characters",
        report.questions,
        if a.against.is_some() {
            " asked of other documents (none is answerable)"
        } else {
            ""
        },
        report.mean_passage_chars
    )?;
    for m in &report.modes {
        writeln!(out, "\n{} (ranked by {})", m.mode, m.used)?;
        if m.answerable_questions > 0 {
            write!(out, "  ")?;
            for (k, v) in &m.hit_at {
                write!(out, "hit@{k} {v:.3}  ")?;
            }
            writeln!(out, "MRR@10 {:.3}", m.mrr_at_10)?;
            writeln!(
                out,
                "  answerable ({}): {} answered, {} uncertain, {} not found",
                m.answerable_questions,
                m.answerable.answered,
                m.answerable.uncertain,
                m.answerable.not_found
            )?;
            if let Some(p) = m.answered_precision_at_5 {
                writeln!(
                    out,
                    "  answered with the answer in the top 5: {:.1}%",
                    100.0 * p
                )?;
            }
        }
        if m.unanswerable_questions > 0 {
            writeln!(
                out,
                "  unanswerable ({}): {} answered, {} uncertain, {} not found",
                m.unanswerable_questions,
                m.unanswerable.answered,
                m.unanswerable.uncertain,
                m.unanswerable.not_found
            )?;
        }
        writeln!(
            out,
            "  search latency p50 {:.2} ms, p95 {:.2} ms (question embedding p50 {:.2} ms, p95 {:.2} ms)",
            m.latency_ms_p50, m.latency_ms_p95, m.embed_ms_p50, m.embed_ms_p95
        )?;
        if let Some(r) = &m.answers {
            writeln!(
                out,
                "  answers ({} questions with the answer in the top 5): gold quote in the first sentence {:.1}%, anywhere {:.1}%, {:.2} sentences per answer",
                r.questions,
                100.0 * r.first_sentence,
                100.0 * r.anywhere,
                r.mean_sentences
            )?;
            writeln!(
                out,
                "  shown as answered: {} of {} (first sentence holds the gold quote in {}); unanswerable shown as answered: {} of {}",
                r.shown, r.questions, r.shown_first, r.unanswerable_shown, r.unanswerable_asked
            )?;
        }
        for (id, why) in &m.answerable_not_found {
            writeln!(out, "  answerable but not found: {id} ({why})")?;
        }
    }
    Ok(())
}

/// How the answers to the answerable questions came out (`--answers`).
#[derive(Default)]
struct AnswerTally {
    questions: usize,
    first: usize,
    any: usize,
    sentences: usize,
    shown: usize,
    shown_first: usize,
    unanswerable_asked: usize,
    unanswerable_shown: usize,
}

impl AnswerTally {
    fn report(&self) -> AnswerReport {
        let d = self.questions.max(1) as f64;
        AnswerReport {
            questions: self.questions,
            first_sentence: self.first as f64 / d,
            anywhere: self.any as f64 / d,
            mean_sentences: self.sentences as f64 / d,
            shown: self.shown,
            shown_first: self.shown_first,
            unanswerable_asked: self.unanswerable_asked,
            unanswerable_shown: self.unanswerable_shown,
        }
    }
}

/// The answer to a question whose answer passage was retrieved in the top 5: whether
/// its first sentence (or any) holds the gold answer, counted in `tally`; its sentences
/// (and, `with_candidates`, every candidate with its features) for the run file.
fn measure_answer(
    store: &Store,
    q: &Question,
    aliases: &Aliases,
    ask_options: &AskOptions,
    with_candidates: bool,
    tally: &mut AnswerTally,
) -> anyhow::Result<serde_json::Value> {
    let answer = ask(store, &q.question, aliases, ask_options)?;
    let holds = |s: &evident_core::grounding::SentenceVerdict| {
        s.citations.iter().any(|n| {
            answer
                .sources
                .iter()
                .any(|src| src.n == *n && q.is_hit(&src.doc_path, &s.text))
        })
    };
    tally.questions += 1;
    tally.sentences += answer.sentences.len();
    tally.first += usize::from(answer.sentences.first().is_some_and(holds));
    let shown = answer.status == Outcome::Answered;
    tally.shown += usize::from(shown);
    tally.shown_first += usize::from(shown && answer.sentences.first().is_some_and(holds));
    tally.any += usize::from(answer.sentences.iter().any(holds));
    let sentences: Vec<serde_json::Value> = answer
        .sentences
        .iter()
        .map(|s| serde_json::json!({"text": s.text, "n": s.citations, "holds": holds(s)}))
        .collect();
    let mut candidates = Vec::new();
    if with_candidates {
        // Every candidate sentence with what it was ranked on.
        let again = search(store, &q.question, aliases, &ask_options.search)?;
        candidates = again
            .sentences
            .iter()
            .map(|c| {
                let hit = again
                    .passages
                    .iter()
                    .find(|p| p.n == c.n)
                    .is_some_and(|p| q.is_hit(&p.doc_path, &c.text));
                serde_json::json!({"text": c.text, "n": c.n, "f": c.features, "score": c.score, "holds": hit})
            })
            .collect();
    }
    Ok(serde_json::json!({"sentences": sentences, "candidates": candidates}))
}

/// A question's line in the signals file (`--signals-out`) and in the run file
/// (`--run-out`, the reference scorer's format), when asked for.
fn write_lines(
    signals: Option<&mut std::io::BufWriter<std::fs::File>>,
    run_out: Option<&mut std::io::BufWriter<std::fs::File>>,
    q: &Question,
    result: &evident_core::search::SearchResult,
    can_answer: bool,
    first_hit: Option<usize>,
    answer_lines: Option<serde_json::Value>,
) -> anyhow::Result<()> {
    if let Some(w) = signals {
        writeln!(
            w,
            "{}",
            serde_json::json!({
                "id": q.id,
                "mode": result.retrieval.used,
                "answerable": can_answer,
                "hit_rank": first_hit.map(|r| r + 1),
                "status": result.status.as_str(),
                "evidence": result.evidence,
            })
        )?;
    }
    if let Some(w) = run_out {
        let retrieved: Vec<serde_json::Value> = result
            .passages
            .iter()
            .map(|p| {
                serde_json::json!({"doc": p.doc_path, "text": p.text, "highlight": p.highlight.text})
            })
            .collect();
        writeln!(
            w,
            "{}",
            serde_json::json!({
                "id": q.id,
                "retrieved": retrieved,
                "abstained": result.status == Outcome::NotFound,
                "hit_rank": first_hit.map(|r| r + 1),
                "answer": answer_lines,
            })
        )?;
    }
    Ok(())
}

/// A file made for writing, buffered.
fn created(path: &Path) -> anyhow::Result<std::io::BufWriter<std::fs::File>> {
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(std::io::BufWriter::new(file))
}

/// What `evaluate` counts over the questions of one ranking.
#[derive(Default)]
struct Counts {
    hits_at: Vec<usize>,
    rr: f64,
    latencies: Vec<f64>,
    embed_ms: Vec<f64>,
    not_found_answerable: Vec<(String, String)>,
    answerable: Outcomes,
    unanswerable: Outcomes,
    n_answerable: usize,
    answered_hits: usize,
    used: evident_core::search::RankedBy,
    tally: AnswerTally,
}

impl Counts {
    /// The report of `mode` over `questions` questions.
    fn report(mut self, a: &EvalArgs<'_>, mode: RetrievalMode, questions: usize) -> ModeReport {
        let n = self.n_answerable.max(1) as f64;
        self.latencies.sort_by(f64::total_cmp);
        self.embed_ms.sort_by(f64::total_cmp);
        ModeReport {
            mode: match mode {
                RetrievalMode::Hybrid => "hybrid",
                RetrievalMode::Keyword => "keyword",
                RetrievalMode::Dense => "dense",
            }
            .into(),
            used: self.used,
            answerable_questions: self.n_answerable,
            unanswerable_questions: questions - self.n_answerable,
            hit_at: a
                .ks
                .iter()
                .zip(&self.hits_at)
                .map(|(k, h)| (*k, *h as f64 / n))
                .collect(),
            mrr_at_10: self.rr / n,
            answered_precision_at_5: (self.answerable.answered > 0)
                .then(|| self.answered_hits as f64 / self.answerable.answered as f64),
            answerable: self.answerable,
            unanswerable: self.unanswerable,
            answerable_not_found: self.not_found_answerable,
            latency_ms_p50: percentile(&self.latencies, 0.5),
            latency_ms_p95: percentile(&self.latencies, 0.95),
            embed_ms_p50: percentile(&self.embed_ms, 0.5),
            embed_ms_p95: percentile(&self.embed_ms, 0.95),
            answers: a.answers.then(|| self.tally.report()),
        }
    }
}

fn evaluate(
    a: &EvalArgs<'_>,
    store: &Store,
    questions: &[Question],
    mode: RetrievalMode,
    mut signals: Option<&mut std::io::BufWriter<std::fs::File>>,
) -> anyhow::Result<ModeReport> {
    let aliases = if a.synonyms {
        Aliases::builtin_except(a.synonyms_without)
    } else {
        Aliases::default()
    };
    let k_max = a.ks.iter().copied().max().unwrap_or(10).max(10);
    let docs = store.documents()?;
    let mut c = Counts {
        hits_at: vec![0; a.ks.len()],
        ..Counts::default()
    };
    let mut run_out = a.run_out.map(created).transpose()?;
    for q in questions {
        let can_answer = q.answerable() && a.against.is_none();
        // PolicyQA: search only the question's own policy.
        let scope = (q.policy.is_some() && can_answer).then(|| {
            docs.iter()
                .filter(|d| q.is_gold(&d.path))
                .map(|d| d.id)
                .collect::<Vec<_>>()
        });
        let options = SearchOptions {
            k: k_max,
            documents: scope,
            mode,
            semantic: a.semantic.clone(),
            rerank: a.rerank.clone(),
            ..SearchOptions::default()
        };
        let result = search(store, &q.question, &aliases, &options)?;
        c.used = result.retrieval.used;
        c.latencies
            .push(result.elapsed_ms - result.retrieval.embed_ms);
        if result.retrieval.embed_ms > 0.0 {
            c.embed_ms.push(result.retrieval.embed_ms);
        }
        let first_hit = if can_answer {
            result
                .passages
                .iter()
                .position(|p| q.is_hit(&p.doc_path, &p.text))
        } else {
            None
        };
        if can_answer {
            c.n_answerable += 1;
            c.answerable.add(result.status);
            if result.status == Outcome::Answered && first_hit.is_some_and(|r| r < 5) {
                c.answered_hits += 1;
            }
        } else {
            c.unanswerable.add(result.status);
        }
        let mut answer_lines: Option<serde_json::Value> = None;
        let ask_options = AskOptions {
            search: SearchOptions {
                k: 5,
                ..options.clone()
            },
            ..AskOptions::default()
        };
        if a.answers && can_answer {
            // The outcome is the answer's (decided after the sentence is chosen).
            let answer = ask(store, &q.question, &aliases, &ask_options)?;
            if answer.status == Outcome::NotFound {
                c.not_found_answerable.push((
                    q.id.clone(),
                    answer.not_found_reason.clone().unwrap_or_default(),
                ));
            }
        }
        if let Some(rank) = first_hit.filter(|_| a.answers)
            && rank < 5
        {
            let with_candidates = run_out.is_some();
            answer_lines = Some(measure_answer(
                store,
                q,
                &aliases,
                &ask_options,
                with_candidates,
                &mut c.tally,
            )?);
        }
        if a.answers && !q.answerable() {
            let answer = ask(store, &q.question, &aliases, &ask_options)?;
            c.tally.unanswerable_asked += 1;
            c.tally.unanswerable_shown += usize::from(answer.status == Outcome::Answered);
        }
        if let Some(rank) = first_hit {
            for (i, k) in a.ks.iter().enumerate() {
                if rank < *k {
                    c.hits_at[i] += 1;
                }
            }
            if rank < 10 {
                c.rr += 1.0 / (rank as f64 + 1.0);
            }
        }
        write_lines(
            signals.as_deref_mut(),
            run_out.as_mut(),
            q,
            &result,
            can_answer,
            first_hit,
            answer_lines,
        )?;
    }
    Ok(c.report(a, mode, questions.len()))
}
