//! `evident-bench`'s arguments: the measurements, kept out of the user's binary.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use evident_cli::flags::{ChunkArgs, EmbedArgs, LlmArgs, RerankArgs};

/// Evident's benchmarks and training: retrieval, grounding, OCR, speed, and the learned
/// answer models, measured on the public sets in ../shared/eval.
#[derive(Debug, Parser)]
#[command(name = "evident-bench", version, about, long_about = None)]
pub struct Cli {
    /// Database file (default: $EVIDENT_DB, else the app's data directory); its
    /// settings.json names the models a benchmark uses without flags.
    #[arg(long, global = true, value_name = "PATH")]
    pub db: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

/// The benchmarks.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Measure retrieval on a question set (../shared/eval/datasets/*/questions.jsonl).
    Eval(EvalArgs),
    /// Rebuild the learned answer-sentence ranker and outcome model
    /// (crates/evident-index/models/answers.json) from the public question sets.
    Learn {
        #[command(subcommand)]
        step: LearnStep,
    },
    /// Measure how scanned pages are read: corpus pages turned into scans (clean and
    /// noisy) read by OCR against their text layer, pages per second, and (with
    /// --retrieval) colloquial-dev's hit@5 with every corpus PDF scanned.
    Ocr {
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
        /// Look like a copier's scan (the same as `--look noisy`).
        #[arg(long)]
        noisy: bool,
        /// What the copies look like.
        #[arg(long, value_enum, default_value = "clean")]
        look: crate::scans::Look,
        /// Keep every other page (the 2nd, 4th …) as text.
        #[arg(long)]
        mixed: bool,
        /// Only the first N pages.
        #[arg(long, value_name = "N")]
        first: Option<u32>,
    },
    /// Measure the grounding check on faithful and corrupted sentences from the datasets.
    Grounding {
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
        split: crate::claims::Split,
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
    Generate(GenerateArgs),
    /// Measure search and ask latency over CMRC 2018 plus a 50,000-chunk filler index.
    Query {
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
    Embed {
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
    /// Time going back to a PDF page already drawn, in a file padded to --size-mb: the
    /// file found by its identity against read and hashed whole (the viewer until
    /// issue 47).
    PageView {
        /// The evaluation folder (default: ../shared/eval).
        #[arg(long, value_name = "DIR")]
        eval_dir: Option<PathBuf>,
        /// The PDF's size.
        #[arg(long, default_value_t = 100, value_name = "MB")]
        size_mb: u64,
        /// Timed opens each way.
        #[arg(long, default_value_t = 20, value_name = "N")]
        opens: usize,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Import into a fresh temporary database and report throughput and peak memory.
    Import {
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

/// The steps of `evident-bench learn`.
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
            default_value = "crates/evident-bench/bench/answers-own.jsonl"
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
            default_value = "crates/evident-index/models/answers.json"
        )]
        out: PathBuf,
        /// The report to write.
        #[arg(
            long,
            value_name = "FILE",
            default_value = "crates/evident-index/models/answers-report.md"
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

/// Arguments of `eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Questions file (JSON lines).
    #[arg(long, value_name = "FILE")]
    pub questions: PathBuf,
    /// Cut-offs for hit@k.
    #[arg(long, value_delimiter = ',', default_value = "1,3,5,10")]
    pub k: Vec<usize>,
    /// Index these documents instead of the set's own `docs/` (still answerable;
    /// may be given more than once).
    #[arg(long, value_name = "DIR", conflicts_with = "against")]
    pub docs: Vec<PathBuf>,
    /// Leave out the built-in synonyms (to measure what they add).
    #[arg(long)]
    pub no_synonyms: bool,
    /// Leave out one built-in synonym line, as written (e.g. "公司 = 用人单位"; may be
    /// given more than once), to measure what it adds.
    #[arg(long, value_name = "LINE")]
    pub synonyms_without: Vec<String>,
    /// Ask the questions of these documents instead of the set's own `docs/`
    /// (none is then answerable; measures refusals).
    #[arg(long, value_name = "DIR")]
    pub against: Option<PathBuf>,
    /// Write the ranked passages in the reference scorer's RUN.jsonl format.
    #[arg(long, value_name = "FILE")]
    pub run_out: Option<PathBuf>,
    /// Only the first N questions.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Only every other question: `odd` (1st, 3rd, ...) or `even`, the halves the
    /// outcome thresholds were calibrated and reported on.
    #[arg(long, value_name = "HALF", value_parser = ["odd", "even"])]
    pub half: Option<String>,
    /// Rankings to compare: keyword, dense, hybrid (dense and hybrid need a server).
    #[arg(long, value_delimiter = ',', value_name = "MODES")]
    pub modes: Vec<String>,
    /// Write each question's outcome signals as JSON lines (for calibration).
    #[arg(long, value_name = "FILE")]
    pub signals_out: Option<PathBuf>,
    /// Also measure the answers: of the answerable questions with the answer in
    /// the top 5, how often the answer's first sentence (or any) holds it.
    #[arg(long)]
    pub answers: bool,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub embed: EmbedArgs,
    #[command(flatten)]
    pub rerank: RerankArgs,
}

/// Arguments of `generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// The evaluation folder (default: ../shared/eval).
    #[arg(long, value_name = "DIR")]
    pub eval_dir: Option<PathBuf>,
    /// Question set (default: colloquial-dev's questions in the evaluation folder).
    #[arg(long, value_name = "FILE")]
    pub questions: Option<PathBuf>,
    /// Only questions in this language.
    #[arg(long, value_name = "LANG", value_parser = ["zh", "en"])]
    pub only: Option<String>,
    /// At most this many questions.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Write every answer with its verdicts here (JSONL).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub llm: LlmArgs,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}
