//! Evident's embeddings worker: reads a GGUF embedding model with llama.cpp and turns
//! texts into vectors, in a child process of the app or the CLI.
//!
//! Why a child process: the model takes hundreds of megabytes, and a desktop app that
//! keeps it for ever is a bad neighbour. The core ([`evident_model::builtin`])
//! starts this worker when a question, an import or the embedding pass needs it, and
//! ends it after a few idle minutes; a model file that crashes llama.cpp ends the
//! worker, not the app. The worker is the app's (or the CLI's) own executable run with
//! [`WORKER_FLAG`], so nothing more is installed or found at run time.
//!
//! It speaks the [`protocol`](evident_model::builtin::protocol): one JSON request
//! per line on stdin, one reply per line on stdout. llama.cpp's own log goes nowhere.

use std::io::{BufRead, Write};
use std::num::NonZeroU32;
use std::path::Path;
use std::time::Instant;

use evident_model::builtin::protocol::{
    Described, GgufInfo, Reply, Request, SpannedText, SpannedVectors, WORKER_FLAG,
};
use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::context::params::{LlamaContextParams, LlamaPoolingType};
use llama_cpp_2::gguf::GgufContext;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::token::LlamaToken;

/// The most tokens of one text that are embedded; the rest is cut (a passage is far
/// shorter; EmbeddingGemma reads up to 2,048, but a longer context made every text slower here).
/// It is also the most tokens of one decode: texts are packed into it together.
const MAX_TOKENS: u32 = 512;

/// The most texts packed into one decode. A sentence of a policy is 30–60 tokens with
/// its prompt, so a 512-token decode holds about ten; the cap bounds llama.cpp's output
/// buffers, which hold one vector per text.
const MAX_TEXTS_PER_DECODE: u32 = 32;

/// Runs the worker and exits if this process was started as one; returns otherwise.
/// Call it first thing in `main`.
pub fn run_worker_if_requested() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == WORKER_FLAG) {
        // The one file this worker may read, and its address space, as the parent says;
        // confined before llama.cpp starts, so a hostile file meets a closed process.
        let model = args.get(2).map(std::path::PathBuf::from);
        let memory = args
            .get(3)
            .and_then(|m| m.to_str()?.parse::<u64>().ok())
            .unwrap_or(4 << 30);
        let confinement = match &model {
            Some(model) => match evident_worker::confine::confine_model(memory, model) {
                Ok(confinement) => confinement,
                Err(why) => {
                    eprintln!("embeddings worker: {why}");
                    std::process::exit(1);
                }
            },
            None => {
                eprintln!("embeddings worker: no model file was named");
                std::process::exit(1);
            }
        };
        let served = serve(
            std::io::stdin().lock(),
            std::io::stdout().lock(),
            &confinement,
        );
        let code = match served {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("embeddings worker: {e}");
                1
            }
        };
        std::process::exit(code);
    }
}

/// The model a worker embeds with and its context (llama.cpp's buffers), made once.
struct Loaded {
    model: &'static LlamaModel,
    ctx: LlamaContext<'static>,
    batch: LlamaBatch<'static>,
    /// Whether the context gives every token's vector (after the model's dense layers)
    /// and this worker takes their mean itself: a mean-pooling model's own pooling,
    /// which any span of tokens can be given too.
    pools_tokens: bool,
}

/// Answers requests until stdin closes.
fn serve(
    input: impl BufRead,
    mut output: impl Write,
    confinement: &evident_worker::confine::Confinement,
) -> std::io::Result<()> {
    let mut backend = LlamaBackend::init().map_err(std::io::Error::other)?;
    backend.void_logs();
    let mut loaded: Option<Loaded> = None;
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<Request>(&line) {
            // A worker serves one model for its whole life (the model is kept until the
            // process ends, so that its context can be kept too).
            Ok(Request::Load { .. }) if loaded.is_some() => {
                Reply::Failed("this worker has a model already".into())
            }
            Ok(Request::Load { path, threads }) => match load(&backend, &path, threads) {
                Ok((model, info)) => {
                    let reads_spans = model.pools_tokens;
                    loaded = Some(model);
                    Reply::Loaded {
                        info,
                        confinement: confinement.clone(),
                        reads_spans,
                    }
                }
                Err(e) => Reply::Failed(e),
            },
            Ok(Request::Probe { port }) => {
                Reply::Probed(evident_worker::confine::probe(confinement.clone(), port))
            }
            Ok(Request::Embed { texts }) => match loaded.as_mut() {
                Some(l) => {
                    let texts: Vec<SpannedText> = texts
                        .into_iter()
                        .map(|text| SpannedText {
                            text,
                            spans: Vec::new(),
                        })
                        .collect();
                    embed_packed(l, &texts)
                        .map(|v| v.into_iter().map(|v| v.whole).collect())
                        .map_or_else(Reply::Failed, Reply::Vectors)
                }
                None => Reply::Failed("no model is loaded".into()),
            },
            Ok(Request::EmbedSpans { texts }) => match loaded.as_mut() {
                Some(l) if l.pools_tokens => {
                    embed_packed(l, &texts).map_or_else(Reply::Failed, Reply::Spanned)
                }
                Some(_) => Reply::Failed("this model does not pool by the mean".into()),
                None => Reply::Failed("no model is loaded".into()),
            },
            Err(e) => Reply::Failed(format!("not a request: {e}")),
        };
        serde_json::to_writer(&mut output, &reply).map_err(std::io::Error::other)?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
    Ok(())
}

/// What a GGUF file's header says, without loading its weights.
fn describe(path: &Path) -> Described {
    if !path.is_file() {
        return Described::Unreadable("the file is not there".into());
    }
    let Some(gguf) = GgufContext::from_file(path) else {
        return Described::Unreadable("not a GGUF model file, or a damaged one".into());
    };
    let text = |key: &str| {
        let i = gguf.find_key(key);
        (i >= 0 && gguf.kv_type(i) == llama_cpp_sys_2::GGUF_TYPE_STRING)
            .then(|| gguf.val_str(i).map(str::to_owned))
            .flatten()
    };
    let Some(architecture) = text("general.architecture") else {
        return Described::Unreadable("the file names no model architecture".into());
    };
    let width_key = format!("{architecture}.embedding_length");
    let i = gguf.find_key(&width_key);
    let embedding_length =
        (i >= 0 && gguf.kv_type(i) == llama_cpp_sys_2::GGUF_TYPE_UINT32).then(|| gguf.val_u32(i));
    let has_pooling = gguf.find_key(&format!("{architecture}.pooling_type")) >= 0;
    Described::Info(GgufInfo {
        name: text("general.name"),
        license: text("general.license"),
        size_label: text("general.size_label"),
        embedding_length,
        has_pooling,
        load_ms: None,
        architecture,
    })
}

/// Loads an embedding model (refusing one that is not) and makes its context: at most
/// [`MAX_TOKENS`] per decode, shared by up to [`MAX_TEXTS_PER_DECODE`] texts. The
/// context stays at 512 tokens (a 2,048-token one halved the speed on two cores, see
/// `../shared/models`); `kv_unified` keeps it one 512-token window, not 512 per text.
fn load(backend: &LlamaBackend, path: &Path, threads: u32) -> Result<(Loaded, GgufInfo), String> {
    let mut info = match describe(path) {
        Described::Info(info) => info,
        Described::Unreadable(why) => return Err(why),
    };
    if !info.is_embedding_model() {
        return Err(format!(
            "not an embedding model (its architecture is {}; a chat model cannot embed): \
             choose an embedding model such as EmbeddingGemma, bge or e5",
            info.architecture
        ));
    }
    let pools_tokens = pools_by_mean(path, &info.architecture);
    let started = Instant::now();
    let model = LlamaModel::load_from_file(backend, path, &LlamaModelParams::default())
        .map_err(|e| format!("llama.cpp cannot load this model: {e}"))?;
    // Kept for the life of the worker, which serves this one model.
    let model: &'static LlamaModel = Box::leak(Box::new(model));
    let threads = i32::try_from(threads.clamp(1, 64)).unwrap_or(2);
    let params = LlamaContextParams::default()
        .with_n_ctx(NonZeroU32::new(MAX_TOKENS))
        .with_n_batch(MAX_TOKENS)
        .with_n_ubatch(MAX_TOKENS)
        .with_n_threads(threads)
        .with_n_threads_batch(threads)
        .with_n_seq_max(MAX_TEXTS_PER_DECODE)
        .with_kv_unified(true)
        .with_embeddings(true);
    let params = if pools_tokens {
        params.with_pooling_type(LlamaPoolingType::None)
    } else {
        params
    };
    let ctx = model
        .new_context(backend, params)
        .map_err(|e| format!("llama.cpp cannot make a context for this model: {e}"))?;
    info.load_ms = Some(u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX));
    if info.embedding_length.is_none() {
        info.embedding_length = u32::try_from(model.n_embd()).ok();
    }
    let loaded = Loaded {
        model,
        ctx,
        batch: LlamaBatch::new(MAX_TOKENS as usize, 1),
        pools_tokens,
    };
    Ok((loaded, info))
}

/// Whether the model's header says it pools by the mean of its tokens (EmbeddingGemma,
/// e5, bge-m3's GGUF does not: it takes the first token).
fn pools_by_mean(path: &Path, architecture: &str) -> bool {
    let Some(gguf) = GgufContext::from_file(path) else {
        return false;
    };
    let i = gguf.find_key(&format!("{architecture}.pooling_type"));
    i >= 0
        && gguf.kv_type(i) == llama_cpp_sys_2::GGUF_TYPE_UINT32
        && gguf.val_u32(i) == LlamaPoolingType::Mean as u32
}

/// A text's tokens, and where each starts in the text when spans are asked for.
struct Tokenized {
    tokens: Vec<LlamaToken>,
    /// Byte offset in the text of each token's first byte; `None` when the tokens'
    /// pieces do not spell the text (then no span gets a vector).
    starts: Option<Vec<usize>>,
}

/// The vectors of `texts`, in order. Texts are packed into decodes of at most
/// [`MAX_TOKENS`] tokens and [`MAX_TEXTS_PER_DECODE`] texts, each its own sequence: an
/// encoder attends within a sequence only, so a text's vector is the one it has alone
/// (the `builtin` tests hold them equal within 1e-4 cosine), at a fraction of the
/// decodes.
fn embed_packed(loaded: &mut Loaded, texts: &[SpannedText]) -> Result<Vec<SpannedVectors>, String> {
    let vocab = loaded.model.vocab();
    let mut tokenized = Vec::with_capacity(texts.len());
    for text in texts {
        // Special tokens in the text stay text: a document cannot smuggle control
        // tokens in.
        let mut tokens = vocab.tokenize(text.text.as_bytes(), true, false);
        tokens.truncate(MAX_TOKENS as usize);
        if tokens.is_empty() {
            return Err("the text has no tokens".into());
        }
        let starts = (!text.spans.is_empty())
            .then(|| token_starts(loaded.model, &text.text, &tokens))
            .flatten();
        tokenized.push(Tokenized { tokens, starts });
    }
    let mut vectors = Vec::with_capacity(texts.len());
    let mut start = 0;
    while start < tokenized.len() {
        let mut end = start;
        let mut used = 0;
        while end < tokenized.len()
            && end - start < MAX_TEXTS_PER_DECODE as usize
            && (end == start || used + tokenized[end].tokens.len() <= MAX_TOKENS as usize)
        {
            used += tokenized[end].tokens.len();
            end += 1;
        }
        vectors.extend(decode_together(
            loaded,
            &tokenized[start..end],
            &texts[start..end],
        )?);
        start = end;
    }
    Ok(vectors)
}

/// Where each token starts in `text`, from the tokens' own pieces; `None` when they do
/// not spell it (a tokenizer that rewrites the text).
fn token_starts(model: &LlamaModel, text: &str, tokens: &[LlamaToken]) -> Option<Vec<usize>> {
    let bytes = text.as_bytes();
    let mut cursor = 0;
    let mut starts = Vec::with_capacity(tokens.len());
    for &token in tokens {
        let piece = model.vocab().token_to_piece(token, false, None);
        let rest = bytes.get(cursor..)?;
        starts.push(cursor);
        if rest.starts_with(&piece) {
            cursor += piece.len();
        } else if piece.first() == Some(&b' ') && rest.starts_with(&piece[1..]) {
            // A SentencePiece word piece that shows the space its text lacks.
            cursor += piece.len() - 1;
        } else {
            return None;
        }
    }
    Some(starts)
}

/// One decode of `group` (at most [`MAX_TOKENS`] tokens in all), one sequence per text.
fn decode_together(
    loaded: &mut Loaded,
    group: &[Tokenized],
    texts: &[SpannedText],
) -> Result<Vec<SpannedVectors>, String> {
    loaded.ctx.clear_kv_cache();
    loaded.batch.clear();
    for (seq, text) in (0..).zip(group) {
        loaded
            .batch
            .add_sequence(&text.tokens, seq, loaded.pools_tokens)
            .map_err(|e| format!("cannot batch the text: {e}"))?;
    }
    loaded
        .ctx
        .decode(&mut loaded.batch)
        .map_err(|e| format!("llama.cpp failed on the text: {e}"))?;
    if !loaded.pools_tokens {
        return (0..)
            .zip(group)
            .map(|(seq, _)| {
                let whole = loaded
                    .ctx
                    .embeddings_seq_ith(seq)
                    .map(<[f32]>::to_vec)
                    .map_err(|_| "the model gave no sentence vector (it has no pooling)")?;
                Ok(SpannedVectors {
                    whole,
                    spans: Vec::new(),
                })
            })
            .collect();
    }
    let mut first = 0;
    let mut out = Vec::with_capacity(group.len());
    for (text, asked) in group.iter().zip(texts) {
        let rows = (first..first + text.tokens.len())
            .map(|i| {
                let i = i32::try_from(i).map_err(|_| "too many tokens".to_owned())?;
                loaded
                    .ctx
                    .embeddings_ith(i)
                    .map_err(|_| "the model gave no token vectors".to_owned())
            })
            .collect::<Result<Vec<&[f32]>, String>>()?;
        first += text.tokens.len();
        let whole = mean(rows.iter().copied()).ok_or("the text has no tokens")?;
        let spans = asked
            .spans
            .iter()
            .map(|&(s, e)| {
                let starts = text.starts.as_ref()?;
                mean(
                    rows.iter()
                        .zip(starts)
                        .filter(|&(_, &at)| at >= s && at < e)
                        .map(|(row, _)| *row),
                )
            })
            .collect();
        out.push(SpannedVectors { whole, spans });
    }
    Ok(out)
}

/// The mean of `rows`; `None` for none.
fn mean<'a>(rows: impl Iterator<Item = &'a [f32]>) -> Option<Vec<f32>> {
    let mut sum: Vec<f32> = Vec::new();
    let mut count = 0u32;
    for row in rows {
        if sum.is_empty() {
            sum = vec![0.0; row.len()];
        }
        for (s, x) in sum.iter_mut().zip(row) {
            *s += x;
        }
        count += 1;
    }
    (count > 0).then(|| {
        let n = count as f32;
        sum.into_iter().map(|s| s / n).collect()
    })
}
