//! `evident-bench`: Evident's measurements and the training of its answer models, on
//! the public question sets in `../shared/eval`. Kept out of `evident` so the user's
//! binary and `--help` hold the user's commands only; it uses the same core and the
//! same flags, and, like `evident`, can be its own PDF and embeddings worker.

mod args;
mod claims;
mod dataset;
mod embed;
mod eval;
mod generate;
mod grounding;
mod import;
mod learn;
mod ocr;
mod page_view;
mod query;
mod scans;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use evident_cli::{llm, semantic};

use args::{Cli, Command};

/// The same allocator as `evident`'s, so the import benchmark measures what users run.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    evident_cli::run_worker_if_requested();
    let cli = Cli::parse();
    evident_cli::exit_status(run(cli).map(|()| ExitCode::SUCCESS))
}

/// One function per benchmark.
fn run(cli: Cli) -> anyhow::Result<()> {
    let given = cli.db.as_deref();
    let db = cli
        .db
        .clone()
        .unwrap_or_else(evident_core::paths::default_db_path);
    let eval_dir = |dir: Option<PathBuf>| dir.unwrap_or_else(import::default_eval_dir);
    match cli.command {
        Command::Eval(a) => eval_cmd(&db, given, &a),
        Command::Learn { step } => learn_cmd(&db, step),
        Command::Ocr {
            eval_dir: dir,
            pages,
            retrieval,
            dump,
            json,
        } => {
            let report = ocr::run(&eval_dir(dir), pages, retrieval, dump.as_deref(), json)?;
            print_json(json, &report)
        }
        Command::MakeScans {
            pdfs,
            out,
            noisy,
            look,
            mixed,
            first,
        } => {
            let look = if noisy { scans::Look::Noisy } else { look };
            scans::make(&pdfs, &out, look, mixed, first)
        }
        Command::Grounding {
            eval_dir: dir,
            limit,
            claims,
            split,
            claims_only,
            verbose,
            json,
        } => {
            let dir = eval_dir(dir);
            let claims = claims.unwrap_or_else(claims::default_claims);
            let claims = claims::run(&dir, &claims, split, json, verbose)?;
            let synthetic = if claims_only {
                serde_json::Value::Null
            } else {
                grounding::run(&dir, limit, json)?
            };
            // "synthetic" is the regression smoke test, not an accuracy figure.
            print_json(
                json,
                &serde_json::json!({ "claims": claims, "synthetic": synthetic }),
            )
        }
        Command::Generate(a) => generate_cmd(&db, given, eval_dir(a.eval_dir.clone()), &a),
        Command::Embed {
            eval_dir: dir,
            questions,
            passages,
            json,
            embed,
        } => {
            let Some(model) = semantic::builtin_model(&db, &embed)? else {
                anyhow::bail!(
                    "no built-in embeddings model: give --embed-gguf FILE, or put one in {}",
                    evident_core::model::builtin::catalog::models_dir().display()
                );
            };
            embed::run(&eval_dir(dir), model, questions, passages, json)
        }
        Command::Query {
            eval_dir: dir,
            filler,
            queries,
            dim,
            json,
        } => query::run(&eval_dir(dir), filler, queries, dim.max(8), json),
        Command::PageView {
            eval_dir: dir,
            size_mb,
            opens,
            json,
        } => page_view::run(&eval_dir(dir), size_mb, opens, json),
        Command::Import {
            paths,
            runs,
            json,
            import,
        } => {
            let options = evident_cli::import_options(&import)?;
            import::run(&paths, &options, runs as usize, json)
        }
    }
}

/// Prints a report as JSON when it was asked for (the human one was printed as it went).
fn print_json(json: bool, report: &impl serde::Serialize) -> anyhow::Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(report)?);
    }
    Ok(())
}

/// `evident-bench eval`: retrieval and outcomes on a question set.
fn eval_cmd(db: &Path, given: Option<&Path>, a: &args::EvalArgs) -> anyhow::Result<()> {
    eval::run(&eval::EvalArgs {
        questions: &a.questions,
        ks: &a.k,
        db: given,
        docs: &a.docs,
        semantic: semantic::semantic(db, &a.embed)?,
        rerank: semantic::reranker(db, &a.rerank)?,
        half: a.half.as_deref(),
        modes: &a.modes,
        signals_out: a.signals_out.as_deref(),
        synonyms: !a.no_synonyms,
        synonyms_without: &a.synonyms_without,
        against: a.against.as_deref(),
        run_out: a.run_out.as_deref(),
        limit: a.limit,
        answers: a.answers,
        json: a.json,
    })
}

/// `evident-bench generate`: model-written answers on a question set.
fn generate_cmd(
    db: &Path,
    given: Option<&Path>,
    dir: PathBuf,
    a: &args::GenerateArgs,
) -> anyhow::Result<()> {
    let questions = a
        .questions
        .clone()
        .unwrap_or_else(|| dir.join("datasets/colloquial-dev/questions.jsonl"));
    let generator = llm::generator(db, &a.llm)?;
    let options = evident_core::answer::generated::GenerateOptions {
        budget: evident_core::answer::prompt::PromptBudget {
            context_tokens: a.llm.llm_context,
            ..Default::default()
        },
        ..Default::default()
    };
    let corpus = dir.join("corpus");
    let bench = generate::BenchGenerate {
        questions: &questions,
        corpus: &corpus,
        db: given,
        lang: a.only.as_deref(),
        limit: a.limit,
        out: a.out.as_deref(),
    };
    let report = generate::run(&bench, &generator, &options, a.json)?;
    print_json(a.json, &report)
}

/// How the public sets are sampled and split for `evident-bench learn`.
fn learn_sampling(seed: u64, passages: usize) -> learn::sets::Sampling {
    learn::sets::Sampling {
        seed,
        passages,
        train_share: 0.7,
    }
}

/// `evident-bench learn rows|fit`: the learned answer models rebuilt.
fn learn_cmd(db: &Path, step: args::LearnStep) -> anyhow::Result<()> {
    match step {
        args::LearnStep::Rows {
            eval_dir,
            own,
            work,
            cache,
            seed,
            passages,
            sets,
            embed,
        } => {
            let cache = cache.unwrap_or_else(|| {
                dirs::cache_dir()
                    .unwrap_or_else(std::env::temp_dir)
                    .join("evident/learn/vectors.sqlite3")
            });
            learn::rows(&learn::RowsArgs {
                eval: eval_dir.unwrap_or_else(import::default_eval_dir),
                own,
                work,
                cache,
                sampling: learn_sampling(seed, passages),
                semantic: semantic::semantic(db, &embed)?,
                sets,
            })
        }
        args::LearnStep::Fit {
            work,
            out,
            report,
            seed,
            passages,
            keyword_only,
        } => learn::fit(&learn::FitArgs {
            work,
            out,
            report,
            seed,
            sampling: learn_sampling(seed, passages),
            keyword_only,
        }),
    }
}
