//! Answers: search, context assembly, the extractive composer and the grounding check,
//! put together for `evident ask` and the desktop app; and [`check_text`], which checks
//! an answer written elsewhere against the same passages. With them the user's own
//! record of answers ([`userdata`]: history, feedback, the watched folders), which
//! nothing that imports or rebuilds may reach: this crate sits below the core that
//! imports, so the compiler keeps it so.
//!
//! Numbering is shared: `[n]` in an answer is the n-th passage `search` returns for the
//! same question and options, so any tool can write an answer against search output
//! and have it checked here.

pub mod compose;
pub mod context;
pub mod export;
pub mod generated;
pub mod pasted;
pub mod prompt;
pub mod relocate;
pub mod userdata;

use std::path::PathBuf;
use std::time::Instant;

use serde::Serialize;

/// The library's one error type, shared with the index below and the core above.
pub use evident_index::{Error, Result};

// The stages below, where these modules have always found them.
use crate::grounding::SentenceVerdict;
use crate::message::{Lang, Message};
use crate::search::{
    Aliases, Evidence, Highlight, Passage, Ranks, RetrievalInfo, SearchOptions, SearchResult,
    search,
};
use crate::store::Store;
pub use context::{Context, DEFAULT_BUDGET_TOKENS};
use evident_check as grounding;
use evident_extract::{self as extract, clock};
use evident_index::{aside, search, store};
use evident_model::{self as model, paths};
use evident_words::{message, problem};

/// Options of `ask` and `check`.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct AskOptions {
    /// Retrieval options (top-k, floor, scope).
    pub search: SearchOptions,
    /// Context budget in index tokens, separate from top-k.
    pub budget_tokens: usize,
}

impl Default for AskOptions {
    fn default() -> Self {
        Self {
            search: SearchOptions::default(),
            budget_tokens: DEFAULT_BUDGET_TOKENS,
        }
    }
}

/// Whether the documents answer the question: the search's outcome, or `not_found`
/// when no sentence of the passages speaks to it.
pub use crate::search::Outcome as Status;

/// A cited source as the answer lists it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Source {
    /// Number used in citations.
    pub n: usize,
    /// Chunk id.
    pub chunk_id: i64,
    /// Document id.
    pub doc_id: i64,
    /// Source file (shown lossily where its name is not UTF-8).
    #[serde(serialize_with = "crate::paths::serialize_lossy")]
    pub doc_path: PathBuf,
    /// Document title.
    pub title: String,
    /// Document format.
    pub kind: crate::extract::DocumentKind,
    /// Heading path joined with " > ".
    pub heading: String,
    /// First page.
    pub page_start: u32,
    /// Last page.
    pub page_end: u32,
    /// Char offset of the passage in the document text.
    pub char_start: i64,
    /// Char offset just past the passage.
    pub char_end: i64,
    /// The passage text.
    pub text: String,
    /// Best-matching sentence, for highlighting.
    pub highlight: Highlight,
    /// Ranking score.
    pub score: f64,
    /// Whether the passage was within the context budget (else listed as truncated).
    pub in_context: bool,
    /// The question's key words found in the passage, as the question spells them
    /// (for marking them in the snippet; answers stored before this field have none).
    #[serde(default)]
    pub matched_terms: Vec<String>,
    /// Why it ranked here: its places in the keyword and vector rankings.
    #[serde(default)]
    pub why: Ranks,
}

impl Source {
    fn of(p: &Passage, in_context: bool) -> Self {
        Self {
            n: p.n,
            chunk_id: p.chunk_id,
            doc_id: p.doc_id,
            doc_path: p.doc_path.clone(),
            title: p.title.clone(),
            kind: p.kind,
            heading: heading_path(&p.title, &p.heading_path),
            page_start: p.page_start,
            page_end: p.page_end,
            char_start: p.char_start,
            char_end: p.char_end,
            text: p.text.clone(),
            highlight: p.highlight.clone(),
            score: p.score,
            in_context,
            matched_terms: p.matched_terms.clone(),
            why: p.why.clone(),
        }
    }
}

/// A passage's heading path for display: without the document's title (shown beside
/// it) and without a heading repeated by the level below it.
pub fn heading_path(title: &str, headings: &[String]) -> String {
    let mut out: Vec<&str> = Vec::with_capacity(headings.len());
    for h in headings.iter().map(|h| h.trim()) {
        if h.is_empty() || h == title.trim() || out.last() == Some(&h) {
            continue;
        }
        out.push(h);
    }
    out.join(" > ")
}

/// The notes that say something about an answer with outcome `status`: a passage left
/// out of the context budget matters only when something was answered from the rest.
pub(crate) fn notes_for(status: Status, mut notes: Vec<Message>) -> Vec<Message> {
    if status != Status::Answered {
        notes.retain(|m| !matches!(m, Message::OverBudget { .. }));
    }
    notes
}

/// Milliseconds per stage.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize)]
pub struct Timings {
    /// Retrieval.
    pub search: f64,
    /// Context assembly and composing.
    pub compose: f64,
    /// Grounding check.
    pub ground: f64,
    /// Everything.
    pub total: f64,
}

/// An answer with its verdicts and sources.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Answer {
    /// Answered, uncertain (the closest passages, which may not answer it) or not found.
    pub status: Status,
    /// The question.
    pub question: String,
    /// The answer text with citation marks (empty when not found).
    pub text: String,
    /// Each sentence with its citations and verdict. When the outcome is not
    /// *answered*, these are what the composer would have said (kept for measuring it),
    /// or what a model wrote that the passages do not support: never shown as an answer.
    pub sentences: Vec<SentenceVerdict>,
    /// Notes that are not claims (sources that differ, a shortened question), in
    /// English words.
    pub notes: Vec<String>,
    /// The same notes as message codes, for the user's language.
    #[serde(default)]
    pub note_codes: Vec<Message>,
    /// Why the answer is uncertain or not found, in English words.
    pub not_found_reason: Option<String>,
    /// The same as a message code, for the user's language.
    #[serde(default)]
    pub reason: Option<Message>,
    /// The retrieved passages, numbered as cited.
    pub sources: Vec<Source>,
    /// Whether vectors were used, and why not (answers stored before this have none).
    #[serde(default)]
    pub retrieval: RetrievalInfo,
    /// The signals the outcome was decided from.
    #[serde(default)]
    pub evidence: Evidence,
    /// What fit in the context budget.
    pub context: Context,
    /// Time spent.
    pub timings_ms: Timings,
    /// Who wrote the text: the extractive composer or a model.
    #[serde(default)]
    pub mode: Mode,
    /// Why a model's answer was asked for and the extractive one is shown instead, as a
    /// message code (`None` when nothing fell back).
    #[serde(default)]
    pub fallback: Option<Message>,
    /// The same in English words.
    #[serde(default)]
    pub fallback_reason: Option<String>,
    /// The model's run, when a model was asked.
    #[serde(default)]
    pub generation: Option<generated::Generation>,
}

/// Who wrote an answer's text.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Sentences quoted from the documents by the composer.
    #[default]
    Extractive,
    /// A model wrote it from the passages; every sentence checked the same way.
    Generated,
}

fn english(messages: &[Message]) -> Vec<String> {
    messages.iter().map(|m| m.text(Lang::En)).collect()
}

fn elapsed_ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// What retrieval gave an answer to work from: the search result, what fits in the
/// context budget, and the notes about both.
pub(crate) struct Retrieved {
    started: Instant,
    t_search: f64,
    result: SearchResult,
    ctx: Context,
    notes: Vec<Message>,
    sources: Vec<Source>,
}

fn retrieve(
    store: &Store,
    question: &str,
    aliases: &Aliases,
    options: &AskOptions,
) -> Result<Retrieved> {
    let started = Instant::now();
    let result = search(store, question, aliases, &options.search)?;
    let t_search = elapsed_ms(started);
    let ctx = context::assemble(store, &result.passages, options.budget_tokens)?;
    let mut notes = Vec::new();
    if result.query.truncated {
        notes.push(Message::QuestionCut {
            chars: crate::search::query::MAX_QUESTION_CHARS,
        });
    }
    if !ctx.truncated.is_empty() {
        notes.push(Message::OverBudget {
            passages: ctx.truncated.clone(),
            budget: ctx.budget_tokens,
        });
    }
    let sources: Vec<Source> = result
        .passages
        .iter()
        .map(|p| Source::of(p, ctx.included.contains(&p.n)))
        .collect();
    Ok(Retrieved {
        started,
        t_search,
        result,
        ctx,
        notes,
        sources,
    })
}

impl Retrieved {
    /// The honest "not found" answer, with the closest passages as sources.
    fn not_found(self, question: &str, reason: Option<Message>, t: Instant) -> Answer {
        let notes = notes_for(Status::NotFound, self.notes);
        Answer {
            status: Status::NotFound,
            question: question.to_owned(),
            text: String::new(),
            sentences: Vec::new(),
            notes: english(&notes),
            note_codes: notes,
            not_found_reason: reason.as_ref().map(|r| r.text(Lang::En)),
            reason,
            sources: self.sources,
            retrieval: self.result.retrieval,
            evidence: self.result.evidence,
            context: self.ctx,
            timings_ms: Timings {
                search: self.t_search,
                compose: elapsed_ms(t),
                ground: 0.0,
                total: elapsed_ms(self.started),
            },
            mode: Mode::Extractive,
            fallback: None,
            fallback_reason: None,
            generation: None,
        }
    }
}

/// Answers `question` from `store`: the extractive answer, every sentence checked.
pub fn ask(
    store: &Store,
    question: &str,
    aliases: &Aliases,
    options: &AskOptions,
) -> Result<Answer> {
    Ok(extractive(
        retrieve(store, question, aliases, options)?,
        question,
        options,
    ))
}

/// The extractive answer from what was retrieved.
fn extractive(r: Retrieved, question: &str, options: &AskOptions) -> Answer {
    let t = Instant::now();
    if r.result.status == Status::NotFound {
        let reason = r.result.reason.clone();
        return r.not_found(question, reason, t);
    }
    let Retrieved {
        started,
        t_search,
        result,
        ctx,
        mut notes,
        sources,
    } = r;
    let model = options
        .search
        .model
        .as_deref()
        .unwrap_or_else(|| crate::search::learned::Model::builtin());
    let vectors = result.retrieval.sentences_by_meaning;
    let drafted = compose::compose(&result.sentences, &ctx.included, model.follow_up(vectors));
    notes.extend(drafted.notes);
    // The quotes are the documents' own text, brackets and all: their citations are
    // passed to the check as they are, never parsed back out of the text.
    let mut text = String::new();
    let mut cited = Vec::with_capacity(drafted.sentences.len());
    for d in &drafted.sentences {
        if !text.is_empty() {
            text.push(' ');
        }
        let start = text.len();
        text.push_str(&compose::with_citation(d));
        cited.push(grounding::CitedSentence {
            text: d.text.clone(),
            start,
            end: text.len(),
            citations: vec![d.n],
        });
    }
    let t_compose = elapsed_ms(t);
    let t = Instant::now();
    let mut sentences = grounding::check_cited(&cited, &result.passages);
    for (s, d) in sentences.iter_mut().zip(&drafted.sentences) {
        s.location.clone_from(&d.location);
    }
    let t_ground = elapsed_ms(t);
    let mut evidence = result.evidence;
    let (status, reason) = if sentences.is_empty() {
        (Status::NotFound, Some(Message::NoSentenceSpeaks))
    } else if in_context_lead(&result.sentences, &ctx.included)
        .is_some_and(|lead| !std::ptr::eq(lead, &result.sentences[0]))
    {
        // The sentence search chose stands in a passage the context budget left out:
        // the outcome is that of the answer given.
        let given: Vec<crate::search::choose::Candidate> = result
            .sentences
            .iter()
            .filter(|c| ctx.included.contains(&c.n))
            .cloned()
            .collect();
        let (status, reason, p) = crate::search::outcome::decide(
            question,
            &given,
            &evidence,
            model,
            vectors,
            options.search.answer_line,
        );
        evidence.fit = p;
        (status, reason)
    } else {
        (result.status, result.reason.clone())
    };
    let notes = notes_for(status, notes);
    Answer {
        status,
        question: question.to_owned(),
        not_found_reason: reason.as_ref().map(|r| r.text(Lang::En)),
        reason,
        text,
        sentences,
        notes: english(&notes),
        note_codes: notes,
        sources,
        retrieval: result.retrieval,
        evidence,
        context: ctx,
        timings_ms: Timings {
            search: t_search,
            compose: t_compose,
            ground: t_ground,
            total: elapsed_ms(started),
        },
        mode: Mode::Extractive,
        fallback: None,
        fallback_reason: None,
        generation: None,
    }
}

/// The best of `sentences` (ranked) in a passage `included` in the context.
fn in_context_lead<'a>(
    sentences: &'a [crate::search::choose::Candidate],
    included: &[usize],
) -> Option<&'a crate::search::choose::Candidate> {
    sentences.iter().find(|c| included.contains(&c.n))
}

/// The verdicts on an answer written elsewhere, against the passages `search` returns
/// for `question` with the same options.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Checked {
    /// The question the answer was written for.
    pub question: String,
    /// Each sentence's verdict.
    pub sentences: Vec<SentenceVerdict>,
    /// The passages `[n]` refers to.
    pub sources: Vec<Source>,
    /// Whether retrieval found the question unanswered.
    pub not_found: bool,
    /// Sentences past the limit of one check, left unchecked (0 when all were checked).
    pub unchecked: usize,
}

/// Checks `answer` (with `[n]` marks referring to search results) for `question`.
pub fn check_text(
    store: &Store,
    question: &str,
    answer: &str,
    aliases: &Aliases,
    options: &SearchOptions,
) -> Result<Checked> {
    // The floor does not hide passages from the check: a sentence may cite a passage
    // that search would only list as related.
    let result: SearchResult = search(store, question, aliases, options)?;
    Ok(Checked {
        question: question.to_owned(),
        sentences: grounding::check(answer, &result.passages),
        sources: result
            .passages
            .iter()
            .map(|p| Source::of(p, true))
            .collect(),
        not_found: result.not_found,
        unchecked: 0,
    })
}
