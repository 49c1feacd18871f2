//! Every question of a set asked through Evident's own search, written down as rows:
//! each candidate sentence with its features (`evident_core::search::choose`) and
//! whether it holds the answer, and the retrieval's evidence for the outcome.
//!
//! A public set's question is asked twice in each retrieval mode: with its gold
//! passage in the library (answerable), and with the gold passage left out of the
//! search's scope (the same question, now unanswerable). An everyday set's question is
//! asked once, of the corpus; its unanswerable questions are unanswerable there.

use std::io::{BufRead, Write};
use std::path::Path;

use evident_core::answer::context;
use evident_core::search::{Aliases, RetrievalMode, SearchOptions, Semantic, search};
use evident_core::store::Store;
use serde::{Deserialize, Serialize};

use super::sets::{Part, Set, SetQuestion};

/// One candidate sentence as the models see it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Row {
    /// Its passage's place (`[n]`).
    pub n: usize,
    /// Whether it holds the answer (a gold document's sentence with an answer string).
    pub holds: bool,
    /// Whether its passage comes from a gold document.
    pub gold: bool,
    /// Its feature values, in the order of `choose::NAMES`.
    pub x: Vec<f32>,
    /// How its conditions meet the question's situation: 1 holds, -1 fails, 0 neither.
    pub fit: i8,
    /// The score the composer before the learned ranker gave it (`None`: its gate
    /// left it out), to measure the two side by side.
    pub hand: Option<f32>,
    /// The sentence (everyday sets only: for reading what was chosen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// The retrieval's evidence an outcome reads, besides the chosen sentence.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Evidence {
    /// Best keyword coverage among the passages.
    pub coverage: f64,
    /// Best passage cosine.
    pub top_cosine: f64,
    /// Agreement of the keyword and vector top 5.
    pub agreement: f64,
    /// Whether the question names something no document mentions.
    pub unmentioned: bool,
    /// Share of the question's key terms some returned passage holds.
    pub terms_found: f64,
}

/// One question asked once: its candidates and evidence.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Instance {
    /// The set.
    pub set: String,
    /// The question's id.
    pub id: String,
    /// The part of the set it belongs to.
    pub part: Part,
    /// Whether vectors took part in the search.
    pub vectors: bool,
    /// Whether the question could be answered from the library it was asked of.
    pub answerable: bool,
    /// Whether the question is in Chinese.
    pub chinese: bool,
    /// The retrieval's evidence.
    pub evidence: Evidence,
    /// The first passage (1-based) holding the answer, if any.
    pub hit_rank: Option<usize>,
    /// The candidate sentences of the passages in the context, in passage order.
    pub rows: Vec<Row>,
}

/// Asks every question of `set` of `store` in each of `modes`, writing one instance per
/// line to `out`; reports progress on standard error.
pub fn write(
    set: &Set,
    store: &Store,
    semantic: Option<&Semantic>,
    modes: &[RetrievalMode],
    out: &mut dyn Write,
) -> anyhow::Result<usize> {
    let aliases = Aliases::builtin();
    let docs = store.documents()?;
    let id_of = |suffix: &str| -> Vec<i64> {
        docs.iter()
            .filter(|d| d.path.to_string_lossy().ends_with(suffix))
            .map(|d| d.id)
            .collect()
    };
    let all: Vec<i64> = docs.iter().map(|d| d.id).collect();
    let everyday = matches!(set.name, "colloquial" | "own");
    let mut written = 0;
    let started = std::time::Instant::now();
    for (i, q) in set.questions.iter().enumerate() {
        let library: Vec<i64> = match &q.scope {
            Some(scope) => scope.iter().flat_map(|s| id_of(s)).collect(),
            None => all.clone(),
        };
        let without_gold: Vec<i64> = library
            .iter()
            .copied()
            .filter(|id| {
                docs.iter()
                    .find(|d| d.id == *id)
                    .is_none_or(|d| !q.is_gold(&d.path))
            })
            .collect();
        let runs: Vec<(bool, Vec<i64>)> = if everyday {
            vec![(q.answerable(), library)]
        } else {
            vec![(true, library), (false, without_gold)]
        };
        for &mode in modes {
            for (answerable, scope) in &runs {
                let instance = ask(
                    store,
                    &aliases,
                    semantic,
                    mode,
                    q,
                    set.name,
                    *answerable,
                    scope,
                )?;
                serde_json::to_writer(&mut *out, &instance)?;
                out.write_all(b"\n")?;
                written += 1;
            }
        }
        if (i + 1) % 200 == 0 || i + 1 == set.questions.len() {
            eprintln!(
                "  {}: {} of {} questions ({:.0} s)",
                set.name,
                i + 1,
                set.questions.len(),
                started.elapsed().as_secs_f64()
            );
        }
    }
    Ok(written)
}

#[allow(clippy::too_many_arguments)]
fn ask(
    store: &Store,
    aliases: &Aliases,
    semantic: Option<&Semantic>,
    mode: RetrievalMode,
    q: &SetQuestion,
    set: &str,
    answerable: bool,
    scope: &[i64],
) -> anyhow::Result<Instance> {
    let options = SearchOptions {
        k: 5,
        documents: Some(scope.to_vec()),
        mode,
        semantic: semantic.cloned(),
        ..SearchOptions::default()
    };
    let result = search(store, &q.question, aliases, &options)?;
    let ctx = context::assemble(
        store,
        &result.passages,
        evident_core::answer::DEFAULT_BUDGET_TOKENS,
    )?;
    let vectors = result.retrieval.sentences_by_meaning;
    let passage = |n: usize| result.passages.iter().find(|p| p.n == n);
    let mut sentences: Vec<&evident_core::search::choose::Candidate> = result
        .sentences
        .iter()
        .filter(|c| ctx.included.contains(&c.n))
        .collect();
    // Passage order, then sentence order, whatever the built-in ranker thought.
    sentences.sort_by_key(|c| (c.n, c.span.0));
    let rows: Vec<Row> = sentences
        .into_iter()
        .filter_map(|c| {
            let p = passage(c.n)?;
            Some(Row {
                n: c.n,
                holds: q.holds(&p.doc_path, &c.text),
                gold: q.is_gold(&p.doc_path),
                x: c.features.values().iter().map(|&v| v as f32).collect(),
                fit: match c.fit {
                    evident_text::ranges::Fit::Holds => 1,
                    evident_text::ranges::Fit::Fails => -1,
                    evident_text::ranges::Fit::Unrelated => 0,
                },
                hand: super::hand::score(&result.query, c).map(|s| s as f32),
                text: matches!(set, "colloquial" | "own").then(|| c.text.clone()),
            })
        })
        .collect();
    Ok(Instance {
        set: set.to_owned(),
        id: q.id.clone(),
        part: q.part,
        vectors,
        answerable,
        chinese: evident_core::search::choose::is_chinese(&q.question),
        evidence: Evidence {
            coverage: result.evidence.coverage,
            top_cosine: result.evidence.top_cosine.unwrap_or(0.0),
            agreement: result.evidence.agreement.unwrap_or(0.0),
            unmentioned: !result.evidence.unmentioned.is_empty(),
            terms_found: result.evidence.terms_found,
        },
        hit_rank: result
            .passages
            .iter()
            .position(|p| q.holds(&p.doc_path, &p.text))
            .map(|r| r + 1),
        rows,
    })
}

/// Reads the instances of a rows file (gzip-compressed JSON lines).
pub fn read(path: &Path) -> anyhow::Result<Vec<Instance>> {
    let file = std::fs::File::open(path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    let reader = std::io::BufReader::new(flate2::read::GzDecoder::new(file));
    let mut out = Vec::new();
    for (i, line) in reader.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        out.push(
            serde_json::from_str(&line)
                .map_err(|e| anyhow::anyhow!("{} line {}: {e}", path.display(), i + 1))?,
        );
    }
    Ok(out)
}
