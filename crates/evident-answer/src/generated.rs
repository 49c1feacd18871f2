//! Answers a model writes: the same retrieval, a prompt of the passages, the model's
//! streamed text, and then the same sentence-by-sentence check as every answer.
//!
//! A model is never trusted, only checked:
//!
//! * Nothing retrieved above the floor: the model is not asked, the answer is the same
//!   honest "not found" as an extractive one.
//! * The model replies [`prompt::NOT_FOUND_REPLY`]: "not found", with the closest passages.
//! * Every sentence is checked against the passages the model was given (a citation of
//!   one it was not given is a citation outside the retrieved set). When no sentence
//!   is supported the answer is "uncertain", its sentences shown flagged.
//! * Anything that keeps a checked answer from being had (the server unreachable, a
//!   wrong model, an HTTP error, a timeout, a cut or malformed stream, an answer
//!   without a single citation, the user stopping it) gives the extractive answer,
//!   with [`Answer::fallback`] saying why. A model failure is never an error, a hang
//!   or a blank answer.

use std::time::Instant;

use serde::Serialize;

use super::prompt::{self, PromptBudget};
use super::{Answer, AskOptions, Context, Mode, Status, elapsed_ms, english, extractive, retrieve};
use crate::Result;
use crate::grounding::{self, Verdict, citations};
use crate::message::{Lang, Message};
use crate::model::{Generator, ServerErrorKind};
use crate::search::{Aliases, Passage};
use crate::store::Store;

/// How the model's run went, kept with the answer.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize)]
pub struct Generation {
    /// The server and model.
    pub model: String,
    /// Milliseconds to the first piece of text, if any arrived.
    pub first_text_ms: Option<u64>,
    /// Milliseconds the model took in all.
    pub total_ms: u64,
    /// Why the model stopped (`stop`, `length`), when the server said.
    pub finish_reason: Option<String>,
    /// The passages in the prompt (`[n]`), in order.
    pub passages: Vec<usize>,
    /// The model's text exactly as it arrived (also when the answer fell back).
    pub raw_text: String,
    /// When a complete text was not shown as the answer because it cites nothing: its
    /// sentences checked all the same (each against every passage the model was given),
    /// so the user can see what the model wrote and how it fares.
    #[serde(default)]
    pub draft: Vec<grounding::SentenceVerdict>,
}

/// Options of a model-written answer.
#[derive(Debug, Clone, Default)]
pub struct GenerateOptions {
    /// Retrieval and context options, as for extractive answers.
    pub ask: AskOptions,
    /// The model's token budget (prompt and answer).
    pub budget: PromptBudget,
}

/// Answers `question` with a model's text, streamed to `on_text` as it arrives (return
/// `false` to stop), then checked. Errors are the store's only; the model's failures
/// fall back to the extractive answer (see the module docs).
pub fn ask_generated(
    store: &Store,
    question: &str,
    aliases: &Aliases,
    options: &GenerateOptions,
    generator: &dyn Generator,
    on_text: &mut dyn FnMut(&str) -> bool,
) -> Result<Answer> {
    let r = retrieve(store, question, aliases, &options.ask)?;
    if r.result.status == Status::NotFound {
        let reason = r.result.reason.clone();
        let mut answer = r.not_found(question, reason, Instant::now());
        answer.mode = Mode::Generated;
        return Ok(answer);
    }
    let t = Instant::now();
    let prompt = prompt::build(question, &r.result.passages, &options.budget);
    let mut generation = Generation {
        model: generator.location(),
        passages: prompt.included.clone(),
        ..Default::default()
    };
    let completion = generator.generate(&prompt.messages, prompt.answer_tokens, &mut |piece| {
        generation.raw_text.push_str(piece);
        on_text(piece)
    });
    let completion = match completion {
        Ok(c) => c,
        Err(crate::model::Error::Server(e)) => {
            generation.total_ms = t.elapsed().as_millis() as u64;
            let why = failure(e);
            return Ok(fall_back(
                extractive(r, question, &options.ask),
                why,
                generation,
            ));
        }
        Err(e) => return Err(e.into()),
    };
    generation.first_text_ms = completion.first_text_ms;
    generation.total_ms = completion.total_ms;
    generation
        .finish_reason
        .clone_from(&completion.finish_reason);
    let text = completion.text.trim().to_owned();
    let t_compose = elapsed_ms(t);

    let (given, context, notes) = what_the_model_saw(&r, &prompt, &completion, options);
    let markers = citations::markers(&text);
    if says_not_found(&text, markers.is_empty()) {
        let mut r = r;
        r.notes = notes;
        let mut answer = r.not_found(question, Some(Message::ModelFoundNothing), t);
        answer.context = context;
        answer.mode = Mode::Generated;
        answer.generation = Some(generation);
        return Ok(answer);
    }
    if text.is_empty() {
        return Ok(fall_back(
            extractive(r, question, &options.ask),
            Message::ModelSaidNothing,
            generation,
        ));
    }
    if markers.is_empty() {
        generation.draft = grounding::check(&text, &given);
        return Ok(fall_back(
            extractive(r, question, &options.ask),
            Message::ModelCitedNothing,
            generation,
        ));
    }

    let t_ground = Instant::now();
    let sentences = grounding::check(&text, &given);
    let ground = elapsed_ms(t_ground);
    let (status, reason) = if sentences.iter().all(|s| s.verdict == Verdict::Unsupported) {
        (Status::Uncertain, Some(Message::ModelUnsupported))
    } else {
        (r.result.status, r.result.reason.clone())
    };
    let notes = super::notes_for(status, notes);
    let sources = r
        .sources
        .into_iter()
        .map(|mut s| {
            s.in_context = prompt.included.contains(&s.n);
            s
        })
        .collect();
    Ok(Answer {
        status,
        question: question.to_owned(),
        text,
        sentences,
        notes: english(&notes),
        note_codes: notes,
        not_found_reason: reason.as_ref().map(|m| m.text(Lang::En)),
        reason,
        sources,
        retrieval: r.result.retrieval,
        evidence: r.result.evidence,
        context,
        timings_ms: super::Timings {
            search: r.t_search,
            compose: t_compose,
            ground,
            total: elapsed_ms(r.started),
        },
        mode: Mode::Generated,
        fallback: None,
        fallback_reason: None,
        generation: Some(generation),
    })
}

/// Why a model's answer was not used: stopped by the user, or the server's failure.
fn failure(e: crate::model::ServerError) -> Message {
    if e.kind == ServerErrorKind::Cancelled {
        Message::ModelStopped
    } else {
        Message::ModelFailed {
            detail: e.to_string(),
            why: Some(crate::problem::Problem::Server(e)),
        }
    }
}

/// What the model saw (the passages its prompt held: the answer's context is the
/// prompt's, not the composer's), and the notes for it: what did not fit, and an
/// answer cut short by its token limit.
fn what_the_model_saw(
    r: &super::Retrieved,
    prompt: &prompt::Prompt,
    completion: &crate::model::Completion,
    options: &GenerateOptions,
) -> (Vec<Passage>, Context, Vec<Message>) {
    let given: Vec<Passage> = r
        .result
        .passages
        .iter()
        .filter(|p| prompt.included.contains(&p.n))
        .cloned()
        .collect();
    let context = Context {
        budget_tokens: options.budget.context_tokens,
        used_tokens: prompt
            .messages
            .iter()
            .map(|m| prompt::estimate_tokens(&m.content))
            .sum(),
        included: prompt.included.clone(),
        neighbours: Vec::new(),
        truncated: prompt.truncated.clone(),
    };
    let mut notes: Vec<Message> = r
        .notes
        .iter()
        .filter(|m| !matches!(m, Message::OverBudget { .. }))
        .cloned()
        .collect();
    if !prompt.truncated.is_empty() {
        notes.push(Message::OverBudget {
            passages: prompt.truncated.clone(),
            budget: options.budget.context_tokens,
        });
    }
    if completion.hit_token_limit() {
        notes.push(Message::ModelCutShort {
            tokens: options.budget.answer_tokens,
        });
    }

    (given, context, notes)
}

/// Whether the model's reply is the "not found" phrase (alone, or with words around it
/// but no citation: a model that cites passages is answering, whatever else it says).
fn says_not_found(text: &str, uncited: bool) -> bool {
    uncited && prompt::mentions_not_found(text)
}

/// The extractive `answer` shown because the model's could not be used, and why.
fn fall_back(mut answer: Answer, why: Message, generation: Generation) -> Answer {
    answer.fallback_reason = Some(why.text(Lang::En));
    answer.fallback = Some(why);
    answer.mode = Mode::Extractive;
    answer.generation = Some(generation);
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_not_found_phrase_is_known_in_the_forms_models_write_it() {
        for text in [
            "NOT_FOUND_IN_DOCUMENTS",
            "  not_found_in_documents.",
            "**NOT FOUND IN DOCUMENTS**",
            "The answer is: NOT_FOUND_IN_DOCUMENTS",
        ] {
            assert!(says_not_found(text, true), "{text}");
        }
        assert!(
            !says_not_found("NOT_FOUND_IN_DOCUMENTS", false),
            "a cited answer is an answer"
        );
        assert!(!says_not_found("Annual leave is 5 days.", true));
    }
}
