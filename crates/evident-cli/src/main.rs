//! `evident`: the command-line face of Evident's core.
//!
//! Every command here is a thin wrapper over one core function; scripts, the evaluation
//! harness and benchmarks use it, and the desktop app calls the same functions.

mod args;
mod bench;
mod bench_claims;
mod bench_embed;
mod bench_generate;
mod bench_grounding;
mod bench_ocr;
mod bench_query;
mod dataset;
mod eval;
mod learn;
mod llm;
mod output;
mod scans;
mod semantic;
mod sync;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use evident_core::chunk::ChunkerConfig;
use evident_core::import::{self, ImportOptions, Importer};
use evident_core::store::Store;

use args::{Cli, Command, ImportArgs};

/// mimalloc instead of glibc's allocator: importing makes millions of short-lived
/// strings (sentences, tokens, rows) on three threads at once, and allocation was a
/// tenth of import time; with mimalloc Markdown/TXT import runs about 5% faster and
/// peaks 10 MB lower.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // A child started to read one PDF in isolation never reaches the CLI proper.
    evident_core::extract::pdf::run_worker_if_requested();
    // Nor does one started to run the built-in embeddings model.
    evident_embedder::run_worker_if_requested();
    let cli = Cli::parse();
    output::set_lang(cli.lang.as_deref());
    match run(cli) {
        Ok(code) => code,
        // `evident docs | head`: the reader has gone; that is not an error.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", one_line(&e));
            ExitCode::FAILURE
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The error and its causes on one line, without repeating what the message already says;
/// a file's or a server's problem in the locale's language.
fn one_line(e: &anyhow::Error) -> String {
    if let Some(said) = e
        .downcast_ref::<evident_core::Error>()
        .and_then(output::in_locale)
    {
        return said;
    }
    let mut out = e.to_string();
    for cause in e.chain().skip(1) {
        let c = cause.to_string();
        if !out.contains(&c) {
            out.push_str(": ");
            out.push_str(&c);
        }
    }
    out
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let db = cli
        .db
        .clone()
        .unwrap_or_else(evident_core::paths::default_db_path);
    match cli.command {
        Command::Import(a) => import_cmd(&db, &a),
        Command::Sync {
            json,
            chunking,
            embed,
        } => sync::sync_cmd(&db, json, &chunking, &embed),
        Command::Watch {
            paths,
            list,
            forget,
            json,
            chunking,
            embed,
        } => {
            if list {
                sync::list_cmd(&db)
            } else if let Some(path) = forget {
                sync::forget_cmd(&db, &path)
            } else {
                sync::watch_cmd(&db, &paths, json, &chunking, &embed)
            }
        }
        Command::Docs { json } => {
            let store = open(&db)?;
            output::docs(&store.documents()?, json)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Remove { document } => {
            let mut store = open(&db)?;
            let doc = store.resolve(&document)?;
            store.remove_document(doc.id)?;
            // Removed means removed: a sync of its folder does not bring it back.
            evident_core::userdata::UserData::open_for(&db)?.exclude(&doc.path)?;
            writeln!(
                std::io::stdout(),
                "removed {} ({} chunks)",
                doc.path.display(),
                doc.chunks
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Rebuild {
            json,
            import,
            embed,
        } => {
            let mut options = import_options(&import)?;
            options.semantic = semantic::semantic(&db, &embed)?;
            let mut progress = output::Progress::new(json);
            let report = import::rebuild(&db, &options, &mut |e| progress.event(e))?;
            progress.finish();
            output::rebuild(&db, &report, json)?;
            if let (false, Some(e)) = (json, &report.summary.embedding) {
                output::embed_outcome(e)?;
            }
            Ok(exit_for(&report.summary))
        }
        Command::Embed { json, embed } => {
            let Some(server) = semantic::semantic(&db, &embed)? else {
                anyhow::bail!(
                    "no embeddings server is set up: pass --embed-url and --embed-model, or save them with `evident config`"
                );
            };
            let mut store = open(&db)?;
            let mut progress = output::Progress::new(json);
            let report =
                evident_core::embed::embed_missing(&mut store, server.0.as_ref(), &mut |p| {
                    progress.embedding(p);
                    true
                });
            progress.finish();
            output::embed_report(&report?, json)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Config { embed, rerank } => config_cmd(&db, &embed, &rerank),
        Command::Chunks { document, json } => {
            let store = open(&db)?;
            let doc = store.resolve(&document)?;
            output::chunks(&doc, &store.chunks_of(doc.id)?, json)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Stats { json } => {
            let store = open(&db)?;
            output::stats(&store.stats()?, json)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Search {
            question,
            search,
            json,
        } => {
            let store = open(&db)?;
            let aliases = load_aliases(&db)?;
            let result = evident_core::search::search(
                &store,
                &question,
                &aliases,
                &search_options(&db, &search)?,
            )?;
            output::search(&result, json)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Ask {
            question,
            search,
            budget,
            llm,
            all_sources,
            json,
        } => {
            let store = open(&db)?;
            let aliases = load_aliases(&db)?;
            let options = evident_core::answer::AskOptions {
                search: search_options(&db, &search)?,
                budget_tokens: budget,
            };
            if !llm.generate && (llm.llm_url.is_some() || llm.llm_model.is_some() || llm.stream) {
                anyhow::bail!("--llm-url, --llm-model and --stream are for --generate");
            }
            let answer = if llm.generate {
                let generator = llm::generator(&db, &llm)?;
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
                    &question,
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
                evident_core::answer::ask(&store, &question, &aliases, &options)?
            };
            output::answer(&answer, json, all_sources)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Check {
            question,
            answer_file,
            search,
            json,
        } => {
            let text = if answer_file.as_os_str() == "-" {
                std::io::read_to_string(std::io::stdin()).context("cannot read standard input")?
            } else {
                std::fs::read_to_string(&answer_file)
                    .with_context(|| format!("cannot read {}", answer_file.display()))?
            };
            let store = open(&db)?;
            let aliases = load_aliases(&db)?;
            let options = search_options(&db, &search)?;
            let checked = match question {
                Some(question) => {
                    evident_core::answer::check_text(&store, &question, &text, &aliases, &options)?
                }
                None => {
                    evident_core::answer::pasted::check_pasted(&store, &text, &aliases, &options)?
                }
            };
            output::checked(&checked, json)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Eval {
            questions,
            k,
            docs,
            no_synonyms,
            synonyms_without,
            against,
            run_out,
            limit,
            half,
            modes,
            signals_out,
            answers,
            json,
            embed,
            rerank,
        } => {
            eval::run(&eval::EvalArgs {
                questions: &questions,
                ks: &k,
                db: cli.db.as_deref(),
                docs: &docs,
                semantic: semantic::semantic(&db, &embed)?,
                rerank: semantic::reranker(&db, &rerank)?,
                half: half.as_deref(),
                modes: &modes,
                signals_out: signals_out.as_deref(),
                synonyms: !no_synonyms,
                synonyms_without: &synonyms_without,
                against: against.as_deref(),
                run_out: run_out.as_deref(),
                limit,
                answers,
                json,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Learn { step } => {
            learn_cmd(&db, step)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::BenchOcr {
            eval_dir,
            pages,
            retrieval,
            dump,
            json,
        } => {
            let dir = eval_dir.unwrap_or_else(bench::default_eval_dir);
            let report = bench_ocr::run(&dir, pages, retrieval, dump.as_deref(), json)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::MakeScans {
            pdfs,
            out,
            noisy,
            mixed,
            first,
        } => {
            let look = if noisy {
                scans::Look::Noisy
            } else {
                scans::Look::Clean
            };
            scans::make(&pdfs, &out, look, mixed, first)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::BenchGrounding {
            eval_dir,
            limit,
            claims,
            split,
            claims_only,
            verbose,
            json,
        } => {
            let dir = eval_dir.unwrap_or_else(bench::default_eval_dir);
            let claims = claims.unwrap_or_else(bench_claims::default_claims);
            let claims = bench_claims::run(&dir, &claims, split, json, verbose)?;
            let synthetic = if claims_only {
                serde_json::Value::Null
            } else {
                bench_grounding::run(&dir, limit, json)?
            };
            if json {
                // "synthetic" is the regression smoke test, not an accuracy figure.
                let both = serde_json::json!({ "claims": claims, "synthetic": synthetic });
                println!("{}", serde_json::to_string_pretty(&both)?);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::BenchGenerate {
            eval_dir,
            questions,
            only,
            limit,
            out,
            llm,
            json,
        } => {
            let dir = eval_dir.unwrap_or_else(bench::default_eval_dir);
            let questions =
                questions.unwrap_or_else(|| dir.join("datasets/colloquial-dev/questions.jsonl"));
            let generator = llm::generator(&db, &llm)?;
            let options = evident_core::answer::generated::GenerateOptions {
                budget: evident_core::answer::prompt::PromptBudget {
                    context_tokens: llm.llm_context,
                    ..Default::default()
                },
                ..Default::default()
            };
            let corpus = dir.join("corpus");
            let bench = bench_generate::BenchGenerate {
                questions: &questions,
                corpus: &corpus,
                db: cli.db.as_deref(),
                lang: only.as_deref(),
                limit,
                out: out.as_deref(),
            };
            let report = bench_generate::run(&bench, &generator, &options, json)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::BenchEmbed {
            eval_dir,
            questions,
            passages,
            json,
            embed,
        } => {
            let dir = eval_dir.unwrap_or_else(bench::default_eval_dir);
            let Some(model) = semantic::builtin_model(&db, &embed)? else {
                anyhow::bail!(
                    "no built-in embeddings model: give --embed-gguf FILE, or put one in {}",
                    evident_core::model::builtin::catalog::models_dir().display()
                );
            };
            bench_embed::run(&dir, model, questions, passages, json)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::BenchQuery {
            eval_dir,
            filler,
            queries,
            dim,
            json,
        } => {
            let dir = eval_dir.unwrap_or_else(bench::default_eval_dir);
            bench_query::run(&dir, filler, queries, dim.max(8), json)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::BenchImport {
            paths,
            runs,
            json,
            import,
        } => {
            let options = import_options(&import)?;
            bench::run(&paths, &options, runs as usize, json)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

pub(crate) fn open(db: &Path) -> anyhow::Result<Store> {
    let store = Store::open(db)?;
    for notice in store.notices() {
        eprintln!("note: {notice}");
    }
    Ok(store)
}

fn search_options(
    db: &Path,
    a: &args::SearchArgs,
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

/// `evident config`: shows the shared settings, or changes the embeddings server and
/// the reranker.
fn config_cmd(db: &Path, a: &args::EmbedArgs, r: &args::RerankArgs) -> anyhow::Result<ExitCode> {
    use evident_core::settings::Settings;
    let path = Settings::path_for(db);
    let mut out = std::io::stdout();
    let embed_changed =
        a.no_embed || a.embed_url.is_some() || a.embed_prompt.is_some() || a.embed_gguf.is_some();
    let rerank_changed = r.no_rerank || r.rerank_url.is_some();
    // Worked out before the file is locked: the new servers' settings.
    let embeddings = if embed_changed {
        Some(semantic::server_settings(db, a)?)
    } else {
        None
    };
    let rerank = if rerank_changed {
        Some(semantic::rerank_settings(db, r)?)
    } else {
        None
    };
    if let Some(file) = a
        .embed_gguf
        .as_deref()
        .filter(|f| !f.trim().eq_ignore_ascii_case("auto"))
    {
        let file = std::path::Path::new(file);
        anyhow::ensure!(file.is_file(), "{}: no such file", file.display());
    }
    let settings = if embed_changed || rerank_changed {
        // Changed under the file's lock, so a change the app makes meanwhile is kept.
        let settings = Settings::update(&path, |settings| {
            if let Some(embeddings) = embeddings {
                settings.embeddings = embeddings;
                if a.no_embed {
                    settings.builtin.enabled = false;
                }
            }
            if let Some(file) = &a.embed_gguf {
                // The built-in model is wanted: it is used only while no server is set up.
                settings.embeddings = None;
                settings.builtin.enabled = true;
                settings.builtin.file = (!file.trim().eq_ignore_ascii_case("auto"))
                    .then(|| std::path::PathBuf::from(file));
            }
            if let Some(rerank) = rerank {
                settings.rerank = rerank;
            }
            // Refuse settings that cannot work before they are saved.
            for s in settings.embeddings.iter().chain(&settings.rerank) {
                evident_core::model::ModelServer::new(s.config())?;
            }
            Ok(settings.clone())
        })?;
        writeln!(out, "saved {}", path.display())?;
        settings
    } else {
        Settings::load(&path)?
    };
    let keyed = |s: &evident_core::settings::ServerSettings| {
        if s.api_key.is_some() {
            " (with an API key)"
        } else {
            ""
        }
    };
    match &settings.embeddings {
        Some(s) => {
            let family = evident_core::model::prompt::resolve(s.prompt, &s.model);
            let how = if s.prompt.is_some() {
                "chosen"
            } else {
                "recognised from the name"
            };
            writeln!(
                out,
                "embeddings: {} at {}{}; prompts: {} ({how})",
                s.model,
                s.base_url,
                keyed(s),
                family.label()
            )?
        }
        None => describe_builtin(&mut out, &settings.builtin)?,
    }
    match &settings.rerank {
        Some(s) => writeln!(out, "reranker: {} at {}{}", s.model, s.base_url, keyed(s))?,
        None => writeln!(out, "reranker: none")?,
    }
    Ok(ExitCode::SUCCESS)
}

/// What `evident config` says of the built-in model: the one in use (its file, where
/// it was found, architecture, size, prompts and licence) and the files skipped.
fn describe_builtin(
    out: &mut impl Write,
    settings: &evident_core::settings::BuiltinSettings,
) -> anyhow::Result<()> {
    use evident_core::model::builtin;
    if !settings.enabled {
        writeln!(out, "embeddings: none (keyword search only)")?;
        return Ok(());
    }
    let worker = std::env::current_exe().context("cannot find this program")?;
    let choice = builtin::choose(settings.file.as_deref(), &worker)?;
    for (path, why) in &choice.skipped {
        writeln!(out, "skipped model: {}: {why}", path.display())?;
    }
    let Some((candidate, info)) = choice.model else {
        writeln!(
            out,
            "embeddings: none (keyword search only): no embedding model in {} nor among Ollama's models; put a GGUF embedding model there or choose one with --embed-gguf FILE",
            builtin::catalog::models_dir().display()
        )?;
        return Ok(());
    };
    let family = builtin::prompts_for(&candidate.path, Some(&info));
    let found = match &candidate.origin {
        builtin::catalog::Origin::Chosen => "chosen".to_owned(),
        builtin::catalog::Origin::Folder => "Evident's models folder".to_owned(),
        builtin::catalog::Origin::Ollama { name } => format!("Ollama's {name}"),
    };
    writeln!(
        out,
        "embeddings: built-in model {} ({found}); {}{}, {:.0} MB; prompts: {}; licence: {}",
        candidate.path.display(),
        info.name.as_deref().unwrap_or(&info.architecture),
        info.size_label
            .as_deref()
            .map(|s| format!(" {s}"))
            .unwrap_or_default(),
        candidate.size as f64 / 1e6,
        family.label(),
        info.license.as_deref().unwrap_or("not stated in the file"),
    )?;
    if let Some(licence) = &candidate.licence_file {
        writeln!(out, "licence text: {}", licence.display())?;
    }
    Ok(())
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

pub(crate) fn import_options(a: &args::ChunkArgs) -> anyhow::Result<ImportOptions> {
    let mut options = ImportOptions::sandboxed().context("cannot prepare the PDF reader")?;
    options.chunker = ChunkerConfig {
        target_tokens: a.target_tokens,
        max_tokens: a.max_tokens,
        overlap_sentences: a.overlap_sentences,
        overlap_max_tokens: a.overlap_max_tokens,
    };
    options.chunker.validate()?;
    if let evident_core::extract::pdf::PdfReader::Sandboxed(s) = &mut options.pdf {
        s.timeout = std::time::Duration::from_secs(a.pdf_timeout.max(1));
    }
    Ok(options)
}

fn import_cmd(db: &Path, a: &ImportArgs) -> anyhow::Result<ExitCode> {
    let mut options = import_options(&a.chunking)?;
    options.semantic = semantic::semantic(db, &a.embed)?;
    let mut store = open(db)?;
    let paths: Vec<PathBuf> = a.paths.clone();
    let mut progress = output::Progress::new(a.json);
    if !a.no_remember {
        // Taken before the import, so an older index's own files are seeded first.
        sync::remember(db, &store, &paths)?;
    }
    let summary = Importer::new(options).run(&mut store, &paths, &mut |e| progress.event(e))?;
    progress.finish();
    output::import_summary(&summary, a.json)?;
    Ok(exit_for(&summary))
}

/// Exit status 2 tells scripts that some files failed while the rest was imported.
fn exit_for(summary: &import::ImportSummary) -> ExitCode {
    if summary.count(|o| o.label() == "failed") > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// How the public sets are sampled and split for `evident learn`.
fn learn_sampling(seed: u64, passages: usize) -> learn::sets::Sampling {
    learn::sets::Sampling {
        seed,
        passages,
        train_share: 0.7,
    }
}

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
                eval: eval_dir.unwrap_or_else(bench::default_eval_dir),
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
