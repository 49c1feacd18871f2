//! The built-in embeddings model: a GGUF file on this computer, run by a worker process
//! of Evident's own, with no server and nothing to set up.
//!
//! Someone who installs Evident and double-clicks it has no model server, and without
//! one meaning search is off. So when no server is configured, Evident looks for an
//! embedding model it can run itself ([`catalog`]: a file the user chose, Evident's own
//! models folder, the models Ollama has pulled) and runs it through llama.cpp in a
//! child process: the same executable started with [`protocol::WORKER_FLAG`] (the
//! `evident-embedder` crate holds that side).
//!
//! The worker is started when something needs a vector (a question, an import, the
//! embedding pass) and ended after [`IDLE_LIMIT`] without a request, so the model's
//! hundreds of megabytes are not the app's for ever. Retrieval sees an [`Embedder`]
//! like any other: the model is pinned by its identity (its file, its prompts and the
//! vector of the probe text), so switching between the built-in model and a server,
//! or between two files, re-embeds the library and never mixes their vectors.
//!
//! Every reply has a deadline ([`REPLY_LIMIT`]): a worker that hangs (a model that
//! loops, a machine swapping) is ended and named, so a question falls back to
//! keywords instead of waiting for ever behind it.

pub mod catalog;
pub mod gguf;
pub mod protocol;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::{Duration, Instant};

use self::protocol::{Described, GgufInfo, Reply, Request, WORKER_FLAG};
use super::{Embedder, InputKind, ModelIdentity, PROBE_TEXT, PromptFamily, Text, vector};
use crate::{Error, Result};
use evident_worker::confine::{Confinement, Probe};
use evident_worker::process::{Failure, Launch, LineWorker};

/// How long the worker may sit idle before it is ended (and its memory returned).
pub const IDLE_LIMIT: Duration = Duration::from_secs(180);

/// How long one reply may take (loading a model, or embedding one batch) before the
/// worker is taken to be hung and ended. A batch of [`BATCH`] long passages takes a
/// 300M model about 3 s on two cores; this leaves room for models ten times larger.
pub const REPLY_LIMIT: Duration = Duration::from_secs(120);

/// Texts per request to the worker: small enough that progress moves and a cancel is
/// heard within seconds.
const BATCH: usize = 8;

/// The built-in model's worker, while it runs (killed and reaped when dropped).
struct Running {
    worker: LineWorker,
    last_used: Instant,
}

impl Running {
    /// Starts `worker` (an Evident executable) as the embeddings worker of `model`,
    /// which confines itself to reading that one file ([`worker_memory`] of address
    /// space, no network, nothing executed) before it reads a byte of it. Its
    /// environment is empty and its working folder is `/` ([`Launch`]).
    fn spawn(worker: &Path, model: &Path) -> std::result::Result<Self, String> {
        if let Some(missing) = missing_instructions() {
            return Err(format!(
                "this processor lacks {missing}, which the built-in model's llama.cpp is \
                 compiled for (every x86-64 processor since 2013-2015 has them): meaning \
                 search needs an embeddings server on this computer"
            ));
        }
        let size = std::fs::metadata(model)
            .map_err(|e| format!("{}: {e}", model.display()))?
            .len();
        let worker = Launch::new(worker)
            .arg(WORKER_FLAG)
            .arg(model)
            .arg(worker_memory(size).to_string())
            .start_lines("embeddings-replies")
            .map_err(|e| format!("the embeddings worker {}: {e}", worker.display()))?;
        Ok(Self {
            worker,
            last_used: Instant::now(),
        })
    }
}

/// The address space an embeddings worker may use for a model file of `size` bytes:
/// the file (llama.cpp maps it whole), its context and compute buffers, the threads'
/// stacks and allocator arenas. 2 GiB over the file is ample for any context Evident
/// makes (512 tokens) and still stops a file that makes llama.cpp allocate without end.
pub fn worker_memory(size: u64) -> u64 {
    size.saturating_add(2 << 30)
}

/// The instructions the worker's llama.cpp is compiled for (`.cargo/config.toml`) that
/// this processor lacks, if any: started there, the worker would die of SIGILL.
fn missing_instructions() -> Option<String> {
    #[cfg(target_arch = "x86_64")]
    {
        let missing: Vec<&str> = [
            ("AVX2", std::arch::is_x86_feature_detected!("avx2")),
            ("FMA", std::arch::is_x86_feature_detected!("fma")),
            ("F16C", std::arch::is_x86_feature_detected!("f16c")),
            ("BMI2", std::arch::is_x86_feature_detected!("bmi2")),
        ]
        .into_iter()
        .filter_map(|(name, present)| (!present).then_some(name))
        .collect();
        if !missing.is_empty() {
            return Some(missing.join(", "));
        }
    }
    None
}

/// Why an exchange with the worker failed.
#[derive(Debug)]
enum Broken {
    /// The worker is gone (killed, crashed) or said something unreadable: worth one
    /// new start.
    Stopped(String),
    /// The worker did not answer in time and was ended: starting it again would only
    /// make the caller wait twice.
    Hung(String),
}

impl Broken {
    fn reason(self) -> String {
        match self {
            Self::Stopped(why) | Self::Hung(why) => why,
        }
    }
}

/// An embedding model from a GGUF file, run by an Evident worker process.
pub struct BuiltinModel {
    path: PathBuf,
    worker: PathBuf,
    threads: u32,
    idle_limit: Duration,
    reply_limit: Duration,
    slot: Arc<Mutex<Option<Running>>>,
    info: Mutex<Option<GgufInfo>>,
    confinement: Mutex<Option<Confinement>>,
    identity: Mutex<Option<ModelIdentity>>,
    family: Mutex<Option<PromptFamily>>,
}

impl std::fmt::Debug for BuiltinModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuiltinModel")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl BuiltinModel {
    /// The model in `path`, run by `worker` (an Evident executable: the app or the CLI;
    /// [`std::env::current_exe`] in both). Nothing starts until a vector is needed.
    pub fn new(path: impl Into<PathBuf>, worker: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            worker: worker.into(),
            threads: default_threads(),
            idle_limit: IDLE_LIMIT,
            reply_limit: REPLY_LIMIT,
            slot: Arc::new(Mutex::new(None)),
            info: Mutex::new(None),
            confinement: Mutex::new(None),
            identity: Mutex::new(None),
            family: Mutex::new(None),
        }
    }

    /// The same model ended after `limit` of idleness instead of [`IDLE_LIMIT`].
    pub fn with_idle_limit(mut self, limit: Duration) -> Self {
        self.idle_limit = limit;
        self
    }

    /// The same model whose worker is taken to be hung after `limit` without a reply
    /// instead of [`REPLY_LIMIT`].
    pub fn with_reply_limit(mut self, limit: Duration) -> Self {
        self.reply_limit = limit;
        self
    }

    /// The same model with these prompts instead of those its header suggests.
    pub fn with_prompts(self, family: PromptFamily) -> Self {
        *lock(&self.family) = Some(family);
        self
    }

    /// The GGUF file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What the file's header says, once the model has been loaded.
    pub fn info(&self) -> Option<GgufInfo> {
        lock(&self.info).clone()
    }

    /// What the worker's confinement enforced, once it has loaded the model (Settings
    /// says when the kernel could not confine it fully).
    pub fn confinement(&self) -> Option<Confinement> {
        lock(&self.confinement).clone()
    }

    /// Starts the worker if needed and has it try what a hostile model file would: read
    /// another file, write one, connect to `port` on loopback, run a program. For the
    /// probe tests: in a confined worker, each attempt fails.
    pub fn probe(&self, port: u16) -> Result<Probe> {
        match self.request(&Request::Probe { port })? {
            Reply::Probed(probe) => Ok(probe),
            other => Err(self.model_error(format!("the worker answered {other:?}"))),
        }
    }

    /// Whether the worker is running now.
    pub fn is_running(&self) -> bool {
        lock(&self.slot).is_some()
    }

    /// The worker's process id, while it runs (for memory reports).
    pub fn worker_pid(&self) -> Option<u32> {
        lock(&self.slot).as_ref().map(|r| r.worker.id())
    }

    /// Ends the worker now (it starts again when needed).
    pub fn stop(&self) {
        lock(&self.slot).take();
    }

    /// The prompts in use: chosen, else EmbeddingGemma's for its architecture, else
    /// recognised from the model's name or file name.
    pub fn prompt_family(&self) -> PromptFamily {
        if let Some(family) = *lock(&self.family) {
            return family;
        }
        let info = lock(&self.info).clone();
        prompts_for(&self.path, info.as_ref())
    }

    fn model_error(&self, reason: impl Into<String>) -> Error {
        Error::Model {
            path: self.path.clone(),
            reason: reason.into(),
        }
    }

    /// Starts the worker and loads the model.
    fn start(&self) -> Result<Running> {
        // Checked again here: the file may have changed since it was chosen.
        let header = gguf::read_header(&self.path).map_err(|why| self.model_error(why))?;
        if !header.is_embedding_model() {
            return Err(self.model_error(format!(
                "not an embedding model (its architecture is {})",
                header.architecture
            )));
        }
        let mut running =
            Running::spawn(&self.worker, &self.path).map_err(|why| self.model_error(why))?;
        let reply = exchange(
            &mut running,
            &Request::Load {
                path: self.path.clone(),
                threads: self.threads,
            },
            self.reply_limit,
        )
        .map_err(|broken| self.model_error(broken.reason()))?;
        match reply {
            Reply::Loaded { info, confinement } => {
                *lock(&self.info) = Some(info);
                *lock(&self.confinement) = Some(confinement);
                Ok(running)
            }
            Reply::Failed(why) => Err(self.model_error(why)),
            other => Err(self.model_error(format!("the worker answered {other:?}"))),
        }
    }

    /// Sends one request, starting the worker if it is not running. A worker that
    /// stopped (killed, crashed) is started again once; one that hung is not.
    fn request(&self, request: &Request) -> Result<Reply> {
        let mut slot = lock(&self.slot);
        for attempt in 0..2 {
            if slot.is_none() {
                *slot = Some(self.start()?);
                self.watch_idleness();
            }
            let Some(running) = slot.as_mut() else {
                continue;
            };
            match exchange(running, request, self.reply_limit) {
                Ok(reply) => {
                    running.last_used = Instant::now();
                    return Ok(reply);
                }
                Err(Broken::Hung(why)) => {
                    slot.take();
                    return Err(self.model_error(why));
                }
                Err(Broken::Stopped(why)) => {
                    slot.take();
                    if attempt == 1 {
                        return Err(self.model_error(why));
                    }
                }
            }
        }
        Err(self.model_error("the embeddings worker did not answer"))
    }

    /// Ends the worker once it has been idle for the limit: a thread that lives as long
    /// as the worker does.
    fn watch_idleness(&self) {
        let slot: Weak<Mutex<Option<Running>>> = Arc::downgrade(&self.slot);
        let limit = self.idle_limit;
        let tick = (limit / 4).clamp(Duration::from_millis(50), Duration::from_secs(5));
        let _ = std::thread::Builder::new()
            .name("embeddings-idle".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(tick);
                    let Some(slot) = slot.upgrade() else { return };
                    let mut slot = lock(&slot);
                    match slot.as_ref() {
                        None => return,
                        Some(r) if r.last_used.elapsed() >= limit => {
                            slot.take();
                            return;
                        }
                        Some(_) => {}
                    }
                }
            });
    }

    fn embed_dressed(&self, texts: Vec<String>, width: Option<usize>) -> Result<Vec<Vec<f32>>> {
        let count = texts.len();
        match self.request(&Request::Embed { texts })? {
            Reply::Vectors(raw) if raw.len() == count => raw
                .into_iter()
                .enumerate()
                .map(|(i, v)| {
                    vector::unit(v, width)
                        .map_err(|why| self.model_error(format!("{why} for input {}", i + 1)))
                })
                .collect(),
            Reply::Vectors(raw) => {
                Err(self.model_error(format!("{} vectors for {count} texts", raw.len())))
            }
            Reply::Failed(why) => Err(self.model_error(why)),
            other => Err(self.model_error(format!("the worker answered {other:?}"))),
        }
    }
}

/// The built-in model Evident would use, and what was skipped on the way.
#[derive(Debug, Clone, Default)]
pub struct Choice {
    /// The embedding model to use ([`choose`]), with its header.
    pub model: Option<(catalog::Candidate, GgufInfo)>,
    /// Candidates that were looked at and cannot be used, with the reason (a chosen
    /// file that is damaged or a chat model is here, with its path).
    pub skipped: Vec<(PathBuf, evident_words::problem::Problem)>,
}

/// Looks for an embedding model ([`catalog::candidates`]) and reads the candidates'
/// headers ([`gguf`], in safe Rust: no file reaches llama.cpp before it passed).
///
/// A file the user `chosen` wins; without one, the model found and `kept` before stays
/// while it is there (so a later pull never switches the library's vectors); else the
/// most preferred ([`preference`]): Evident's folder before Ollama's store, and within
/// each, multilingual embedding models first.
pub fn choose(chosen: Option<&Path>, kept: Option<&Path>) -> Choice {
    choose_among(catalog::candidates(chosen), kept)
}

/// [`choose`] among these candidates.
fn choose_among(candidates: Vec<catalog::Candidate>, kept: Option<&Path>) -> Choice {
    let mut choice = Choice::default();
    let mut found: Vec<(u8, catalog::Candidate, GgufInfo)> = Vec::new();
    for candidate in candidates {
        match describe(&candidate.path) {
            Described::Info(info) if info.is_embedding_model() => {
                let rank = if candidate.origin == catalog::Origin::Chosen {
                    0
                } else if Some(candidate.path.as_path()) == kept {
                    1
                } else {
                    let origin = u8::from(candidate.origin != catalog::Origin::Folder);
                    2 + origin * 8 + preference(&candidate, &info)
                };
                found.push((rank, candidate, info));
            }
            // Ollama's chat models are not meant for this: skipped without a word.
            Described::Info(_) if matches!(candidate.origin, catalog::Origin::Ollama { .. }) => {}
            Described::Info(info) => {
                let why = evident_words::problem::Problem::NotEmbeddingModel {
                    path: candidate.path.display().to_string(),
                    architecture: info.architecture,
                };
                choice.skipped.push((candidate.path, why));
            }
            Described::Unreadable(detail) => {
                let why = evident_words::problem::Problem::Model {
                    path: candidate.path.display().to_string(),
                    detail,
                };
                choice.skipped.push((candidate.path, why));
            }
        }
    }
    // Stable: equal ranks keep the catalogue's order (by file name, by Ollama's name).
    found.sort_by_key(|(rank, _, _)| *rank);
    choice.model = found
        .into_iter()
        .next()
        .map(|(_, candidate, info)| (candidate, info));
    choice
}

/// How much a model found on its own is preferred (lower first): the documents are
/// Chinese and English, often mixed, so multilingual embedding models come first:
/// EmbeddingGemma, bge-m3, Qwen3-Embedding, multilingual-e5, then any other.
pub fn preference(candidate: &catalog::Candidate, info: &GgufInfo) -> u8 {
    let names = [
        Some(candidate.origin_name()),
        info.name.clone(),
        candidate
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned()),
    ];
    let said = |words: &[&str]| {
        names.iter().flatten().any(|n| {
            let n = n.to_lowercase().replace(['_', ' '], "-");
            words.iter().any(|w| n.contains(w))
        })
    };
    if info.architecture == "gemma-embedding" || said(&["embeddinggemma", "embedding-gemma"]) {
        0
    } else if said(&["bge-m3"]) {
        1
    } else if said(&["qwen3-embedding"]) {
        2
    } else if said(&["multilingual-e5"]) {
        3
    } else {
        4
    }
}

/// What a GGUF file's header says ([`gguf::read_header`]), or why it cannot be used.
pub fn describe(path: &Path) -> Described {
    match gguf::read_header(path) {
        Ok(info) => Described::Info(info),
        Err(why) => Described::Unreadable(why),
    }
}

/// One request and its reply within `limit`; the worker is ended when it does not
/// answer in time.
fn exchange(
    running: &mut Running,
    request: &Request,
    limit: Duration,
) -> std::result::Result<Reply, Broken> {
    let line = serde_json::to_string(request).map_err(|e| Broken::Stopped(e.to_string()))?;
    match running.worker.exchange(&line, limit) {
        Ok(reply) => serde_json::from_str(&reply)
            .map_err(|e| Broken::Stopped(format!("the embeddings worker answered nonsense: {e}"))),
        Err(Failure::TimedOut(limit)) => Err(Broken::Hung(format!(
            "the embeddings worker did not answer within {} s and was stopped",
            limit.as_secs_f32().ceil()
        ))),
        Err(Failure::Lost(status)) => Err(Broken::Stopped(format!(
            "the embeddings worker stopped ({status})"
        ))),
        Err(other) => Err(Broken::Stopped(format!("the embeddings worker: {other}"))),
    }
}

/// The prompts a model gets: EmbeddingGemma's for its architecture, else what its name
/// (or its file's name) says.
pub fn prompts_for(path: &Path, info: Option<&GgufInfo>) -> PromptFamily {
    if let Some(info) = info {
        if info.architecture == "gemma-embedding" {
            return PromptFamily::EmbeddingGemma;
        }
        if let Some(name) = &info.name {
            let family = PromptFamily::detect(name);
            if family != PromptFamily::None {
                return family;
            }
        }
    }
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    PromptFamily::detect(stem)
}

/// Two threads on a two-core machine, up to four elsewhere: the window and the import
/// keep the rest.
fn default_threads() -> u32 {
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
    u32::try_from(cores.clamp(1, 4)).unwrap_or(2)
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Embedder for BuiltinModel {
    fn identity(&self) -> Result<ModelIdentity> {
        if let Some(id) = lock(&self.identity).as_ref() {
            return Ok(id.clone());
        }
        // Loading first tells the prompts (the architecture is in the header).
        if lock(&self.info).is_none() {
            let mut slot = lock(&self.slot);
            if slot.is_none() {
                *slot = Some(self.start()?);
                drop(slot);
                self.watch_idleness();
            }
        }
        let family = self.prompt_family();
        let probe = self
            .embed_dressed(vec![family.document(None, PROBE_TEXT)], None)?
            .pop()
            .ok_or_else(|| self.model_error("no vector for the probe"))?;
        let file = self
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let id = ModelIdentity {
            // "built-in" keeps a server's vectors of the same model apart from these.
            name: format!("built-in:{file}"),
            dim: probe.len(),
            probe,
            prompt: family.key(),
        };
        *lock(&self.identity) = Some(id.clone());
        Ok(id)
    }

    fn embed(&self, texts: &[Text<'_>], kind: InputKind) -> Result<Vec<Vec<f32>>> {
        let width = self.identity()?.dim;
        let family = self.prompt_family();
        let mut out = Vec::with_capacity(texts.len());
        for batch in texts.chunks(BATCH) {
            let dressed = batch
                .iter()
                .map(|t| match kind {
                    InputKind::Query => family.query(t.body),
                    InputKind::Passage => family.document(t.title, t.body),
                })
                .collect();
            out.extend(self.embed_dressed(dressed, Some(width))?);
        }
        Ok(out)
    }

    fn location(&self) -> String {
        format!("built-in: {}", self.path.display())
    }

    fn batch_size(&self) -> usize {
        BATCH
    }

    fn titles_sentences(&self) -> bool {
        self.prompt_family().titles_sentences()
    }

    fn first_pass_dims(&self) -> Option<usize> {
        self.prompt_family().matryoshka_prefix()
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A worker that reads nothing and never answers (a model stuck in a loop, a
    /// machine swapping) must not hold a question: it is ended and named.
    #[test]
    fn a_worker_that_never_answers_is_ended_and_named_not_waited_for() {
        let dir = std::env::temp_dir().join(format!("evident-hung-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let worker = dir.join("worker.sh");
        std::fs::write(&worker, "#!/bin/sh\nexec sleep 600\n").expect("script");
        std::fs::set_permissions(&worker, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let header = gguf::tests::embedding_header("gemma-embedding", "EmbeddingGemma");
        std::fs::write(dir.join("model.gguf"), header).expect("model");
        let model = BuiltinModel::new(dir.join("model.gguf"), &worker)
            .with_reply_limit(Duration::from_millis(400));

        let started = Instant::now();
        let err = model
            .identity()
            .expect_err("a hung worker gives no identity");
        let message = err.to_string();
        assert!(
            message.contains("did not answer within 1 s and was stopped"),
            "{message}"
        );
        assert!(message.contains("model.gguf"), "{message}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "waited {:?}",
            started.elapsed()
        );
        assert!(!model.is_running(), "the hung worker was left running");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Models found on their own are ranked by the stated preference, not by name: an
    /// English-only model pulled first never wins over a multilingual one; a model
    /// kept from an earlier search stays; a file the user chose wins over all.
    #[test]
    fn models_found_are_ranked_by_preference_and_a_kept_or_chosen_one_stays() {
        let dir = tempfile::tempdir().expect("temp dir");
        let model = |file: &str, architecture: &'static str, name: &'static str, origin| {
            let path = dir.path().join(file);
            let bytes = gguf::tests::embedding_header(architecture, name);
            std::fs::write(&path, &bytes).expect("model");
            catalog::Candidate {
                path,
                size: bytes.len() as u64,
                licence_file: None,
                origin,
            }
        };
        let ollama = |name: &str| catalog::Origin::Ollama { name: name.into() };
        let minilm = model("a", "bert", "all-MiniLM-L6-v2", ollama("all-minilm:latest"));
        let e5 = model(
            "b",
            "bert",
            "multilingual-e5-small",
            ollama("jeffh/multilingual-e5-small:latest"),
        );
        let bge = model("c", "bert", "bge-m3", ollama("bge-m3:latest"));
        let gemma = model(
            "d",
            "gemma-embedding",
            "EmbeddingGemma 300m",
            ollama("embeddinggemma:300m"),
        );
        let chosen_of = |candidates: Vec<catalog::Candidate>, kept: Option<&Path>| {
            choose_among(candidates, kept)
                .model
                .map(|(c, _)| c.origin_name())
                .unwrap_or_default()
        };
        let all = vec![minilm.clone(), e5.clone(), bge.clone(), gemma.clone()];
        assert_eq!(chosen_of(all.clone(), None), "embeddinggemma:300m");
        assert_eq!(
            chosen_of(vec![minilm.clone(), e5.clone(), bge.clone()], None),
            "bge-m3:latest"
        );
        assert_eq!(
            chosen_of(vec![minilm.clone(), e5.clone()], None),
            "jeffh/multilingual-e5-small:latest"
        );
        // Kept from before: stays though better ones were pulled since.
        assert_eq!(
            chosen_of(all.clone(), Some(&minilm.path)),
            "all-minilm:latest"
        );
        // A kept model that is gone: the best there is now.
        assert_eq!(
            chosen_of(all.clone(), Some(Path::new("/gone.gguf"))),
            "embeddinggemma:300m"
        );
        // A model in Evident's own folder comes before Ollama's.
        let mut own = model("e", "bert", "all-MiniLM-L6-v2", catalog::Origin::Folder);
        own.origin = catalog::Origin::Folder;
        let mut with_own = all.clone();
        with_own.push(own.clone());
        assert_eq!(chosen_of(with_own, None), own.origin_name());
        // Chosen by the user: wins over a kept one.
        let mut chosen = e5.clone();
        chosen.origin = catalog::Origin::Chosen;
        let mut with_chosen = all;
        with_chosen.insert(0, chosen.clone());
        assert_eq!(
            chosen_of(with_chosen, Some(&minilm.path)),
            chosen.origin_name()
        );
    }
}
