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

use evident_model::builtin::protocol::{Described, GgufInfo, Reply, Request, WORKER_FLAG};
use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::gguf::GgufContext;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::model::params::LlamaModelParams;

/// The most tokens of one text that are embedded; the rest is cut (a passage is far
/// shorter; EmbeddingGemma reads up to 2,048, but a longer context made every text slower here).
const MAX_TOKENS: u32 = 512;

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
                    loaded = Some(model);
                    Reply::Loaded {
                        info,
                        confinement: confinement.clone(),
                    }
                }
                Err(e) => Reply::Failed(e),
            },
            Ok(Request::Probe { port }) => {
                Reply::Probed(evident_worker::confine::probe(confinement.clone(), port))
            }
            Ok(Request::Embed { texts }) => match loaded.as_mut() {
                Some(l) => texts
                    .iter()
                    .map(|t| embed_one(l.model, &mut l.ctx, &mut l.batch, t))
                    .collect::<Result<Vec<_>, _>>()
                    .map_or_else(Reply::Failed, Reply::Vectors),
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
/// [`MAX_TOKENS`] per text, one text at a time (batching with a long context was slower
/// on two cores, see `../shared/models`).
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
        .with_embeddings(true);
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
    };
    Ok((loaded, info))
}

fn embed_one(
    model: &LlamaModel,
    ctx: &mut LlamaContext<'_>,
    batch: &mut LlamaBatch<'_>,
    text: &str,
) -> Result<Vec<f32>, String> {
    // Special tokens in the text stay text: a document cannot smuggle control tokens in.
    let mut tokens = model.vocab().tokenize(text.as_bytes(), true, false);
    tokens.truncate(MAX_TOKENS as usize);
    if tokens.is_empty() {
        return Err("the text has no tokens".into());
    }
    ctx.clear_kv_cache();
    batch.clear();
    batch
        .add_sequence(&tokens, 0, false)
        .map_err(|e| format!("cannot batch the text: {e}"))?;
    ctx.decode(batch)
        .map_err(|e| format!("llama.cpp failed on the text: {e}"))?;
    ctx.embeddings_seq_ith(0)
        .map(<[f32]>::to_vec)
        .map_err(|_| "the model gave no sentence vector (it has no pooling)".into())
}
