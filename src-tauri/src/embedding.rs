//! The app's embeddings model: a server when one is set up, else the built-in model (a
//! GGUF file run by this executable's own worker process, see
//! [`evident_core::model::builtin`]); its settings, and the background pass that keeps
//! every passage embedded, reported through the `embedding-status` event.
//!
//! The pass runs on its own thread with its own database connection, so questions are
//! answered (keyword-only, saying why) while it works. It starts when the app opens,
//! after an import or a rebuild, and when the settings change; a newer pass makes an
//! older one stop at its next step.

use evident_core::ErrorCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use evident_core::model::builtin::{self, BuiltinModel, catalog};
use evident_core::model::{Embedder, ModelServer, PromptFamily};
use evident_core::search::Semantic;
use evident_core::settings::{BuiltinSettings, ServerSettings, Settings};
use evident_core::store::Store;
use serde::Serialize;
use tauri::{AppHandle, Emitter, Manager};

use evident_core::problem::Problem;

use crate::error::CommandResult;
use crate::state::AppState;

/// Where embedding the library stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum EmbeddingPhase {
    /// No model: keyword search only.
    #[default]
    Off,
    /// Passages are being embedded; questions are answered meanwhile.
    Embedding,
    /// Every passage has its vector.
    Ready,
    /// The model cannot be used (`why` says why).
    Error,
}

/// Where the built-in model was found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ModelFound {
    /// The file the user chose.
    #[default]
    Chosen,
    /// Evident's models folder.
    Folder,
    /// Ollama's store.
    Ollama,
}

/// Where meaning search stands, as the Settings page and the Ask page show it.
#[derive(Debug, Clone, Default, Serialize, ts_rs::TS)]
pub struct EmbeddingStatus {
    /// Where embedding stands.
    pub state: EmbeddingPhase,
    /// The server's base URL.
    pub base_url: Option<String>,
    /// The model name.
    pub model: Option<String>,
    /// Whether an API key is saved for this URL (the key itself never leaves Rust).
    pub has_key: bool,
    /// The prompt family the user chose (`None`: recognised from the model's name).
    pub prompt: Option<PromptFamily>,
    /// The prompt family in use (chosen, or recognised).
    pub prompt_in_use: Option<PromptFamily>,
    /// Passages with a vector of the model (what meaning search finds).
    pub embedded: usize,
    /// Passages whose sentences have vectors too (embedded after every passage: what
    /// answers choose their sentences by).
    pub sentences: usize,
    /// Passages in the index.
    pub total: usize,
    /// While embedding: how long the rest will take at the pass's rate so far, in
    /// seconds (`None` until the first passages are done).
    pub seconds_left: Option<u64>,
    /// What went wrong, or what search does meanwhile, in words for the user.
    pub message: Option<String>,
    /// What went wrong as a code, for the window's language.
    pub why: Option<Problem>,
    /// The built-in model, when it is the one in use (no server is set up).
    pub builtin: Option<BuiltinStatus>,
    /// The built-in model's settings.
    pub builtin_settings: Option<BuiltinSettings>,
    /// Evident's own models folder (where a user can put a built-in model).
    pub models_dir: Option<String>,
}

/// The built-in model in use, as the Settings page shows it.
#[derive(Debug, Clone, Default, Serialize, ts_rs::TS)]
pub struct BuiltinStatus {
    /// The GGUF file.
    pub file: String,
    /// Where it was found.
    pub found: ModelFound,
    /// Ollama's `name:tag` for a model found there.
    pub ollama_name: Option<String>,
    /// The model's name in its header (or its architecture).
    pub name: String,
    /// llama.cpp's architecture name (`gemma-embedding`, `bert` ...).
    pub architecture: String,
    /// The file's size in bytes.
    #[ts(type = "number")]
    pub size: u64,
    /// Its parameter count as the header labels it (`300M`).
    pub size_label: Option<String>,
    /// The licence the header names.
    pub license: Option<String>,
    /// A licence text that travels with it.
    pub licence_file: Option<String>,
    /// What this system could not enforce on the model's worker (Landlock's status,
    /// seccomp), when it could not confine it fully; `None` when it could, or before
    /// the worker first ran.
    pub unconfined: Option<String>,
}

/// The embeddings side of the app's state.
#[derive(Default)]
pub struct EmbeddingState {
    semantic: Mutex<Option<Semantic>>,
    status: Mutex<EmbeddingStatus>,
    generation: AtomicU64,
}

impl EmbeddingState {
    /// The server searches use, if one is set up.
    pub fn semantic(&self) -> Option<Semantic> {
        self.semantic
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The current status.
    pub fn status(&self) -> EmbeddingStatus {
        self.status
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn set_status(&self, app: &AppHandle, status: EmbeddingStatus) {
        *self.status.lock().unwrap_or_else(PoisonError::into_inner) = status.clone();
        let _ = app.emit("embedding-status", status);
    }
}

fn off_status() -> EmbeddingStatus {
    EmbeddingStatus {
        state: EmbeddingPhase::Off,
        ..Default::default()
    }
}

/// Reads the settings beside the database and starts a pass (or reports `off`).
pub fn start(app: &AppHandle) {
    let state = app.state::<AppState>();
    let settings = Settings::load(&Settings::path_for(&state.db_path));
    match settings {
        Ok(s) => apply(app, s.embeddings, s.builtin),
        Err(e) => {
            let status = EmbeddingStatus {
                state: EmbeddingPhase::Error,
                message: Some(e.to_string()),
                why: Some(e.problem()),
                ..Default::default()
            };
            state.embedding.set_status(app, status);
        }
    }
}

/// Uses the `server`, else the built-in model, from now on and starts a pass that
/// embeds what is missing.
pub fn apply(app: &AppHandle, server: Option<ServerSettings>, builtin: BuiltinSettings) {
    let state = app.state::<AppState>();
    let embedding = &state.embedding;
    let generation = embedding.generation.fetch_add(1, Ordering::SeqCst) + 1;
    let set_semantic = |semantic: Option<Semantic>| {
        *embedding
            .semantic
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = semantic;
    };
    let Some(settings) = server else {
        set_semantic(None);
        if !builtin.enabled {
            let status = EmbeddingStatus {
                builtin_settings: Some(builtin),
                ..off_status()
            };
            embedding.set_status(app, status);
            return;
        }
        // Looking for the model reads files and starts a worker: not on the caller's
        // thread, which may be the async runtime.
        let app = app.clone();
        let spawned = std::thread::Builder::new()
            .name("embedding".into())
            .spawn(move || use_builtin(&app, builtin, generation));
        if let Err(e) = spawned {
            eprintln!("Evident: cannot start the embedding thread: {e}");
        }
        return;
    };
    let base = EmbeddingStatus {
        state: EmbeddingPhase::Embedding,
        base_url: Some(settings.base_url.clone()),
        model: Some(settings.model.clone()),
        has_key: settings.api_key.is_some(),
        prompt: settings.prompt,
        prompt_in_use: Some(evident_core::model::prompt::resolve(
            settings.prompt,
            &settings.model,
        )),
        builtin_settings: Some(builtin),
        ..Default::default()
    };
    let server = match ModelServer::new(settings.config()) {
        Ok(s) => Arc::new(s) as Arc<dyn Embedder>,
        Err(e) => {
            set_semantic(None);
            let status = EmbeddingStatus {
                state: EmbeddingPhase::Error,
                message: Some(e.to_string()),
                why: Some(e.problem()),
                ..base
            };
            embedding.set_status(app, status);
            return;
        }
    };
    set_semantic(Some(Semantic(server.clone())));
    embedding.set_status(app, base.clone());
    let app = app.clone();
    let db = state.db_path.clone();
    let spawned = std::thread::Builder::new()
        .name("embedding".into())
        .spawn(move || run_pass(&app, &db, server.as_ref(), generation, base));
    if let Err(e) = spawned {
        eprintln!("Evident: cannot start the embedding thread: {e}");
    }
}

/// Finds the built-in model, uses it from now on and embeds what is missing. Runs on
/// the embedding thread.
fn use_builtin(app: &AppHandle, settings: BuiltinSettings, generation: u64) {
    let state = app.state::<AppState>();
    let embedding = &state.embedding;
    let current = || embedding.generation.load(Ordering::SeqCst) == generation;
    let models_dir = catalog::models_dir().display().to_string();
    let off = |why: Option<evident_core::problem::Problem>| EmbeddingStatus {
        message: why
            .as_ref()
            .map(|w| w.text(evident_core::message::Lang::En)),
        why,
        builtin_settings: Some(settings.clone()),
        models_dir: Some(models_dir.clone()),
        ..off_status()
    };
    let choice = std::env::current_exe()
        .map_err(|e| e.to_string())
        .map(|worker| (settings.choose(), worker));
    if !current() {
        return;
    }
    let (choice, worker) = match choice {
        Ok(found) => found,
        Err(detail) => {
            let why = evident_core::problem::Problem::Other { detail };
            return embedding.set_status(app, off(Some(why)));
        }
    };
    let chosen_problem = choice
        .skipped
        .iter()
        .find(|(path, _)| Some(path) == settings.file.as_ref())
        .map(|(_, why)| why.clone());
    let Some((candidate, info)) = choice.model else {
        return embedding.set_status(app, off(chosen_problem));
    };
    if settings.file.is_none() {
        // Found on its own: kept until the user chooses, so a later pull never
        // switches the library's vectors (a failure to save only means a new search).
        let path = evident_core::settings::Settings::path_for(&state.db_path);
        if let Err(e) = evident_core::settings::keep_builtin(&path, &candidate.path) {
            eprintln!("Evident: cannot remember the model in use: {e}");
        }
    }
    let model = Arc::new(BuiltinModel::new(candidate.path.clone(), worker));
    let family = builtin::prompts_for(&candidate.path, Some(&info));
    let (found, ollama_name) = match &candidate.origin {
        catalog::Origin::Chosen => (ModelFound::Chosen, None),
        catalog::Origin::Folder => (ModelFound::Folder, None),
        catalog::Origin::Ollama { name } => (ModelFound::Ollama, Some(name.clone())),
    };
    let base = EmbeddingStatus {
        state: EmbeddingPhase::Embedding,
        model: Some(candidate.origin_name()),
        prompt_in_use: Some(family),
        builtin: Some(BuiltinStatus {
            file: candidate.path.display().to_string(),
            found,
            ollama_name,
            name: info
                .name
                .clone()
                .unwrap_or_else(|| info.architecture.clone()),
            architecture: info.architecture.clone(),
            size: candidate.size,
            size_label: info.size_label.clone(),
            license: info.license.clone(),
            licence_file: candidate
                .licence_file
                .as_ref()
                .map(|p| p.display().to_string()),
            unconfined: None,
        }),
        models_dir: Some(models_dir),
        builtin_settings: Some(settings.clone()),
        // A chosen file that cannot be used is said, even when another model is used.
        message: chosen_problem
            .as_ref()
            .map(|w| w.text(evident_core::message::Lang::En)),
        why: chosen_problem,
        ..Default::default()
    };
    *embedding
        .semantic
        .lock()
        .unwrap_or_else(PoisonError::into_inner) = Some(Semantic(model.clone()));
    embedding.set_status(app, base.clone());
    // The worker starts (the pass needs it first thing), and says how it is confined.
    let mut base = base;
    if evident_core::model::Embedder::identity(model.as_ref()).is_ok()
        && current()
        && let (Some(c), Some(b)) = (model.confinement(), base.builtin.as_mut())
        && let Some(shortfall) = c.shortfall()
    {
        b.unconfined = Some(shortfall);
        embedding.set_status(app, base.clone());
    }
    run_pass(app, &state.db_path, model.as_ref(), generation, base);
}

/// Stops the running pass at its next step (it resumes with the next `catch_up`).
pub fn stop(state: &AppState) {
    state.embedding.generation.fetch_add(1, Ordering::SeqCst);
}

/// Starts another pass with the current settings (after an import or a rebuild).
pub fn catch_up(app: &AppHandle) {
    let state = app.state::<AppState>();
    if state.embedding.semantic().is_some() {
        start(app);
    }
}

fn run_pass(
    app: &AppHandle,
    db: &std::path::Path,
    server: &dyn Embedder,
    generation: u64,
    base: EmbeddingStatus,
) {
    let state = app.state::<AppState>();
    let embedding = &state.embedding;
    let current = || embedding.generation.load(Ordering::SeqCst) == generation;
    // As a user of the file: a rebuild stops this pass and waits for it to let go.
    let result = state.using_file(|| {
        Store::open(db).and_then(|mut store| {
            evident_core::embed::embed_missing(&mut store, server, &mut |p| {
                if !current() {
                    return false;
                }
                let message = if p.embedded < p.total {
                    "passages not embedded yet are found by their words only"
                } else {
                    "every passage is found by meaning; answers choose their sentences by words until their sentences are embedded"
                };
                let status = EmbeddingStatus {
                    embedded: p.embedded,
                    sentences: p.sentences,
                    total: p.total,
                    seconds_left: p.seconds_left,
                    message: (p.sentences < p.total).then(|| message.to_owned()),
                    ..base.clone()
                };
                embedding.set_status(app, status);
                true
            })
        })
    });
    if !current() {
        return;
    }
    let status = match result {
        Ok(report) => EmbeddingStatus {
            state: if report.coverage.is_complete() {
                EmbeddingPhase::Ready
            } else {
                EmbeddingPhase::Embedding
            },
            embedded: report.coverage.embedded,
            sentences: report.coverage.sentences,
            total: report.coverage.total,
            ..base
        },
        Err(e) => {
            let previous = embedding.status();
            EmbeddingStatus {
                state: EmbeddingPhase::Error,
                embedded: previous.embedded,
                sentences: previous.sentences,
                total: previous.total,
                message: Some(format!("{e}. Keyword search works meanwhile.")),
                why: Some(e.problem()),
                ..base
            }
        }
    };
    embedding.set_status(app, status);
}

/// What a connection test found (of an embeddings or an answer model).
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct ServerCheck {
    /// Whether the model answered: with usable vectors, or with a reply.
    pub ok: bool,
    /// The models the server lists (for picking one).
    pub models: Vec<String>,
    /// The model's vector width, when an embeddings model answered.
    pub dim: Option<usize>,
    /// What went wrong, in words for the user.
    pub message: Option<String>,
    /// The same as a code, for the window's language.
    pub why: Option<Problem>,
}

/// Tries a server: lists its models and, when a model is named, embeds the probe text.
/// Blocking: call it off the async runtime.
pub fn check_server(settings: &ServerSettings) -> ServerCheck {
    check_with(settings, |server| server.identity().map(|id| Some(id.dim)))
}

/// Tries a server: lists its models (a server without a list is taken at its word, as
/// requests do) and, when a model is named, runs `probe` on it, which gives the vector
/// width of an embeddings model. Blocking: call it off the async runtime.
pub fn check_with(
    settings: &ServerSettings,
    probe: impl FnOnce(&ModelServer) -> evident_core::model::Result<Option<usize>>,
) -> ServerCheck {
    let failed = |why: Problem, models: Vec<String>| ServerCheck {
        ok: false,
        models,
        dim: None,
        message: Some(why.to_string()),
        why: Some(why),
    };
    let server = match ModelServer::new(settings.config()) {
        Ok(s) => s,
        Err(e) => return failed(e.problem(), Vec::new()),
    };
    let models = match server.models() {
        Ok(m) => m,
        Err(e) if e.status == Some(404) => Vec::new(),
        Err(e) => return failed(Problem::Server(e), Vec::new()),
    };
    if settings.model.trim().is_empty() {
        return failed(Problem::NoModelChosen, models);
    }
    match probe(&server) {
        Ok(dim) => ServerCheck {
            ok: true,
            models,
            dim,
            message: None,
            why: None,
        },
        Err(e) => failed(e.problem(), models),
    }
}

/// The prompt family the form chose: `None` or `auto` recognises it from the model's
/// name; an unknown id is refused.
pub fn prompt_choice(id: Option<&str>) -> CommandResult<Option<PromptFamily>> {
    match id.map(str::trim) {
        None | Some("") | Some("auto") => Ok(None),
        Some(id) => PromptFamily::from_id(id).map(Some).ok_or_else(|| {
            crate::error::CommandError::new(
                ErrorCode::BadInput,
                format!("{id:?} is not a prompt family"),
            )
        }),
    }
}

/// Saves new settings (checked first: a server that does not work is not saved).
pub fn save(app: &AppHandle, settings: Option<ServerSettings>) -> CommandResult<()> {
    let state = app.state::<AppState>();
    let path = Settings::path_for(&state.db_path);
    let builtin = Settings::update(&path, |all| {
        all.embeddings = settings.clone();
        Ok(all.builtin.clone())
    })?;
    apply(app, settings, builtin);
    Ok(())
}

/// Saves the built-in model's settings and uses them (while no server is set up).
pub fn save_builtin(app: &AppHandle, builtin: BuiltinSettings) -> CommandResult<()> {
    let state = app.state::<AppState>();
    let path = Settings::path_for(&state.db_path);
    let embeddings = Settings::update(&path, |all| {
        all.builtin = builtin.clone();
        Ok(all.embeddings.clone())
    })?;
    apply(app, embeddings, builtin);
    Ok(())
}
