//! The commands that ask the documents: `search`, `ask` and `check`.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use evident_cli::flags::SearchArgs;
use evident_cli::{llm, open, semantic};

use crate::output;

use crate::args::{AskArgs, CheckArgs};

/// `evident search`: the passages that answer a question, best first.
pub fn search_cmd(
    db: &Path,
    question: &str,
    search: &SearchArgs,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let store = open(db)?;
    let aliases = load_aliases(db)?;
    let result =
        evident_core::search::search(&store, question, &aliases, &search_options(db, search)?)?;
    output::search(&result, json)?;
    Ok(ExitCode::SUCCESS)
}

/// `evident ask`: an answer, every sentence cited and checked; a model writes it with
/// `--generate`.
pub fn ask_cmd(db: &Path, a: &AskArgs) -> anyhow::Result<ExitCode> {
    let llm = &a.llm;
    if !llm.generate && (llm.llm_url.is_some() || llm.llm_model.is_some() || llm.stream) {
        anyhow::bail!("--llm-url, --llm-model and --stream are for --generate");
    }
    let store = open(db)?;
    let aliases = load_aliases(db)?;
    let options = evident_core::answer::AskOptions {
        search: search_options(db, &a.search)?,
        budget_tokens: a.budget,
    };
    let answer = if llm.generate {
        let generator = llm::generator(db, llm)?;
        let options = evident_core::answer::generated::GenerateOptions {
            ask: options,
            budget: evident_core::answer::prompt::PromptBudget {
                context_tokens: llm.llm_context,
                ..Default::default()
            },
        };
        let mut err = std::io::stderr();
        let answer = evident_core::answer::generated::ask_generated(
            &store,
            &a.question,
            &aliases,
            &options,
            &generator,
            &mut |piece| {
                if llm.stream {
                    let _ = write!(err, "{piece}").and_then(|()| err.flush());
                }
                true
            },
        )?;
        if llm.stream {
            let _ = writeln!(err);
        }
        answer
    } else {
        evident_core::answer::ask(&store, &a.question, &aliases, &options)?
    };
    output::answer(&answer, a.json, a.all_sources)?;
    Ok(ExitCode::SUCCESS)
}

/// `evident check`: a text written elsewhere, checked sentence by sentence.
pub fn check_cmd(db: &Path, a: &CheckArgs) -> anyhow::Result<ExitCode> {
    let text = if a.answer_file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).context("cannot read standard input")?
    } else {
        std::fs::read_to_string(&a.answer_file)
            .with_context(|| format!("cannot read {}", a.answer_file.display()))?
    };
    let store = open(db)?;
    let aliases = load_aliases(db)?;
    let options = search_options(db, &a.search)?;
    let checked = match &a.question {
        Some(question) => {
            evident_core::answer::check_text(&store, question, &text, &aliases, &options)?
        }
        None => evident_core::answer::pasted::check_pasted(&store, &text, &aliases, &options)?,
    };
    output::checked(&checked, a.json)?;
    Ok(ExitCode::SUCCESS)
}

fn search_options(
    db: &Path,
    a: &SearchArgs,
) -> anyhow::Result<evident_core::search::SearchOptions> {
    Ok(evident_core::search::SearchOptions {
        k: a.k,
        answer_line: a.answer_line,
        semantic: semantic::semantic(db, &a.embed)?,
        rerank: semantic::reranker(db, &a.rerank)?,
        // Keyword search because the user asked for it, not for want of a server.
        mode: if a.embed.no_embed {
            evident_core::search::RetrievalMode::Keyword
        } else {
            evident_core::search::RetrievalMode::Hybrid
        },
        ..Default::default()
    })
}

/// The built-in synonyms and the alias table next to the database; unusable lines
/// are reported, not fatal.
fn load_aliases(db: &Path) -> anyhow::Result<evident_core::search::Aliases> {
    let path = evident_core::search::Aliases::path_for(db);
    let (aliases, warnings) = evident_core::search::Aliases::load_with_builtin(&path)?;
    for w in warnings {
        eprintln!("note: {} line {}: {}", path.display(), w.line, w.reason);
    }
    Ok(aliases)
}
