//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use evident_cli::flags::{ChunkArgs, EmbedArgs, LlmArgs, RerankArgs, SearchArgs};

/// Evident (有据): answers from your policy documents, with citations.
#[derive(Debug, Parser)]
#[command(name = "evident", version, about, long_about = None)]
pub struct Cli {
    /// Database file (default: $EVIDENT_DB, else the app's data directory).
    #[arg(long, global = true, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Language of reasons and notes: `en` or `zh-CN` (default: from LC_ALL,
    /// LC_MESSAGES or LANG).
    #[arg(long, global = true, value_name = "LANG", value_parser = ["en", "zh-CN", "zh"])]
    pub lang: Option<String>,
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Import files and folders (Markdown, text, PDF, Word). They are remembered and kept
    /// in sync by `evident sync`, `evident watch` and the app. Exit status 2: some files
    /// failed.
    Import(ImportArgs),
    /// Make the index equal to the remembered folders and files, once: changed files are
    /// imported again, new ones imported, deleted ones removed, renamed ones followed.
    /// One line per change. Exit status 2: some files failed.
    Sync {
        /// Machine-readable report.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        chunking: ChunkArgs,
        #[command(flatten)]
        embed: EmbedArgs,
    },
    /// Keep the index in sync while running (until interrupted): one line per change.
    /// PATHs are remembered (and imported) first.
    Watch {
        /// Folders or files to remember before watching.
        paths: Vec<PathBuf>,
        /// Print the remembered folders and files and exit.
        #[arg(long, conflicts_with = "paths")]
        list: bool,
        /// Forget a remembered folder or file (its documents stay until removed) and exit.
        #[arg(long, value_name = "PATH", conflicts_with_all = ["paths", "list"])]
        forget: Option<PathBuf>,
        /// One JSON object per change instead of a line of text.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        chunking: ChunkArgs,
        #[command(flatten)]
        embed: EmbedArgs,
    },
    /// List imported documents.
    Docs {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Remove a document (by id or path) and everything derived from it.
    Remove {
        /// Document id or source path.
        document: String,
    },
    /// Rebuild the database from the recorded source files (also repairs a damaged one).
    Rebuild(RebuildArgs),
    /// Embed the passages that have no vector of the configured model yet (resumable).
    Embed {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        embed: EmbedArgs,
    },
    /// Show or change the settings the CLI and the desktop app share (settings.json
    /// beside the database). With --embed-url and --embed-model, sets up the
    /// embeddings server (--embed-prompt alone changes its prompts); with --no-embed,
    /// removes it. --rerank-url and --rerank-model set up a reranker, --no-rerank
    /// removes it.
    Config {
        #[command(flatten)]
        embed: EmbedArgs,
        #[command(flatten)]
        rerank: RerankArgs,
    },
    /// Show how a document was split into chunks.
    Chunks {
        /// Document id or source path.
        document: String,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Counts, sizes and versions of the database.
    Stats {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Find the passages that answer a question, best first.
    Search {
        /// The question.
        question: String,
        #[command(flatten)]
        search: SearchArgs,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Answer a question from your documents, every sentence cited and checked.
    Ask(AskArgs),
    /// Check a text written elsewhere against the documents, sentence by sentence.
    ///
    /// With --question, the text is an answer whose [n] are the passages `search`
    /// returns for that question. Without it, each sentence is checked against the
    /// passages its own words retrieve (what the app's "Check a text" does).
    Check(CheckArgs),
}

/// Arguments of `import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Files or folders to import (folders recursively).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Machine-readable summary.
    #[arg(long)]
    pub json: bool,
    /// Do not remember the paths for `evident sync`, `evident watch` and the app.
    #[arg(long)]
    pub no_remember: bool,
    #[command(flatten)]
    pub chunking: ChunkArgs,
    #[command(flatten)]
    pub embed: EmbedArgs,
}

/// Arguments of `rebuild`.
#[derive(Debug, Args)]
pub struct RebuildArgs {
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub import: ChunkArgs,
    #[command(flatten)]
    pub embed: EmbedArgs,
}

/// Arguments of `ask`.
#[derive(Debug, Args)]
pub struct AskArgs {
    /// The question.
    pub question: String,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Context budget in tokens (separate from --k).
    #[arg(long, default_value_t = evident_core::answer::DEFAULT_BUDGET_TOKENS, value_name = "N")]
    pub budget: usize,
    #[command(flatten)]
    pub llm: LlmArgs,
    /// List every retrieved passage in full, not only the cited ones.
    #[arg(long)]
    pub all_sources: bool,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The question the answer was written for.
    #[arg(long)]
    pub question: Option<String>,
    /// File holding the text ("-" reads standard input).
    #[arg(long, value_name = "FILE")]
    pub answer_file: PathBuf,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}
