//! The commands the UI calls. Each takes the state, calls one core function and turns
//! its error into a [`CommandError`]; long work (imports) runs on a blocking thread
//! and reports progress through the `import-progress` event.

use evident_core::ErrorCode;
use std::path::PathBuf;

use evident_core::answer::export::ExportFormat;
use evident_core::answer::{self, Answer, AskOptions, Checked, Source};
use evident_core::extract::DocumentKind;
use evident_core::extract::layout::{
    DocumentLayout, LayoutUnavailable, docx_layout, markdown_layout,
};
use evident_core::extract::pdf::PdfSandbox;
use evident_core::import::{
    self, FileReport, ImportEvent, ImportOptions, ImportSummary, Importer, RebuildReport,
};
use evident_core::message::Lang;
use evident_core::problem::Problem;
use evident_core::search::aliases::AliasWarning;
use evident_core::search::{Aliases, SearchOptions};
use evident_core::store::{DocumentRecord, Store};
use evident_core::userdata::HistoryEntry;
use serde::{Deserialize, Serialize};
use tauri::ipc::Channel;
use tauri::{AppHandle, Emitter, Manager, State};
use tauri_plugin_dialog::DialogExt;
use tauri_plugin_opener::OpenerExt;

use evident_core::answer::generated::{GenerateOptions, ask_generated};
use evident_core::model::{ModelServer, OLLAMA_DEFAULT_URL};
use evident_core::settings::{ServerSettings, Settings};

use crate::answering::{self, AnswerSettings};
use crate::embedding::{self, EmbeddingStatus, ServerCheck};
use crate::error::{CommandError, CommandResult};
use crate::reranking::{self, RerankStatus};
use crate::state::AppState;

/// Retrieval settings the user can change.
#[derive(Debug, Clone, Deserialize, Serialize, ts_rs::TS)]
pub struct Retrieval {
    /// Passages to retrieve.
    pub k: usize,
    /// The probability (0..1) an answer must have of being right to be given as an
    /// answer; `None`: the calibrated line.
    pub answer_line: Option<f64>,
}

impl Retrieval {
    fn options(&self, state: &AppState) -> SearchOptions {
        SearchOptions {
            k: self.k,
            answer_line: self.answer_line,
            semantic: state.embedding.semantic(),
            rerank: state.rerank.current(),
            ..SearchOptions::default()
        }
    }
}

/// What the app shows on start.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct AppInfo {
    /// The database file.
    pub db_path: String,
    /// Imported documents.
    pub documents: usize,
    /// Default retrieval settings.
    pub defaults: Retrieval,
    /// What happened on start that the user should know (a damaged history recovered,
    /// an index re-built for a new tokenizer).
    pub notices: Vec<String>,
}

/// How this system confines the processes that read the user's files: what it could
/// not enforce for each kind, `None` where everything was (Settings say the rest).
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct Isolation {
    /// The PDF reader (and page drawer).
    pub pdf: Option<String>,
    /// The OCR step (Tesseract); `None` too when there is no Tesseract to confine.
    pub ocr: Option<String>,
}

/// An answer and where it was stored in the history.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct AskResult {
    /// History entry id (for feedback).
    pub history_id: i64,
    /// The answer.
    pub answer: Answer,
}

/// A page's place in the document text.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct PageSpan {
    /// 1-based page number.
    pub page_no: u32,
    /// Char offset of the page in the document text.
    pub char_start: i64,
    /// Char offset just past the page.
    pub char_end: i64,
}

/// A document for the source viewer.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct DocumentView {
    /// The document.
    pub document: DocumentRecord,
    /// Its extracted text (char offsets of passages point into it).
    pub text: String,
    /// Where each page lies in the text.
    pub pages: Vec<PageSpan>,
    /// For Markdown, how the document looks (headings, lists, tables, bold), so it is
    /// shown rendered; `None` for other kinds or when `layout_note` says why not.
    pub layout: Option<DocumentLayout>,
    /// Why a Markdown document is shown as plain text.
    pub layout_note: Option<LayoutNote>,
}

/// Why a Markdown document is shown as its imported text rather than rendered.
#[derive(Debug, Serialize, ts_rs::TS)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum LayoutNote {
    /// The file was edited after it was imported.
    Changed,
    /// The file cannot be read now.
    Unreadable {
        /// What went wrong, naming the file.
        message: String,
    },
}

/// Progress of an import, sent as the `import-progress` event.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ImportProgress {
    /// The files are known.
    Planned {
        /// Files to look at.
        files: usize,
    },
    /// One file is done.
    File {
        /// Its report.
        report: FileReport,
    },
    /// A scanned page of a file is being read (OCR).
    Ocr {
        /// The file.
        path: String,
        /// Which of its scanned pages, from 1.
        page: u32,
        /// How many it has.
        pages: u32,
    },
}

impl ImportProgress {
    pub(crate) fn of(event: &ImportEvent<'_>) -> Option<Self> {
        match event {
            ImportEvent::Planned { files, .. } => Some(Self::Planned { files: *files }),
            ImportEvent::File(report) => Some(Self::File {
                report: (*report).clone(),
            }),
            ImportEvent::Ocr { path, page, pages } => Some(Self::Ocr {
                path: path.to_string_lossy().into_owned(),
                page: *page,
                pages: *pages,
            }),
            // The app embeds in the background afterwards (`embedding-status`).
            ImportEvent::Embedding(_) => None,
        }
    }
}

fn blocking_error(e: impl std::fmt::Display) -> CommandError {
    CommandError::new(ErrorCode::Internal, format!("background work failed: {e}"))
}

/// Runs `f` with the app's state on a blocking thread. Every command that touches the
/// disk, the database or the network goes through here (or its own blocking task): the
/// async runtime has one worker per core, and a command blocking one (a `stat` on an
/// unplugged network share, a first open that checks and migrates the database) would
/// hold up every other command, *Stop* included.
async fn blocking<T: Send + 'static>(
    app: AppHandle,
    f: impl FnOnce(&AppState) -> CommandResult<T> + Send + 'static,
) -> CommandResult<T> {
    tauri::async_runtime::spawn_blocking(move || f(&app.state::<AppState>()))
        .await
        .map_err(blocking_error)?
}

/// Database path, document count and default settings.
#[tauri::command]
pub async fn app_info(app: AppHandle) -> CommandResult<AppInfo> {
    blocking(app, move |state| {
        let (documents, mut notices) =
            state.with_store(|s| Ok((s.documents()?.len(), s.notices().to_vec())))?;
        notices.extend(state.with_user(|u| Ok(u.notices().to_vec()))?);
        let defaults = SearchOptions::default();
        Ok(AppInfo {
            db_path: state.db_path.display().to_string(),
            documents,
            defaults: Retrieval {
                k: defaults.k,
                answer_line: defaults.answer_line,
            },
            notices,
        })
    })
    .await
}

/// How the workers that read PDFs and scans are confined here: each kind confines
/// itself as for a real file and reports what the kernel enforced.
#[tauri::command]
pub async fn isolation(app: AppHandle) -> CommandResult<Isolation> {
    blocking(app, move |_| {
        let sandbox = PdfSandbox::current_exe().map_err(|e| {
            CommandError::new(
                ErrorCode::Internal,
                format!("cannot find Evident itself ({e})"),
            )
        })?;
        let unchecked = |e: String| Some(format!("could not be checked ({e})"));
        let pdf = match sandbox.confinement() {
            Ok(c) => c.shortfall(),
            Err(e) => unchecked(e),
        };
        let ocr = match sandbox.ocr_confinement() {
            Ok(c) => c.shortfall(),
            Err(Problem::OcrUnavailable { .. }) => None,
            Err(why) => unchecked(why.to_string()),
        };
        Ok(Isolation { pdf, ocr })
    })
    .await
}

fn aliases(state: &AppState) -> CommandResult<Aliases> {
    Ok(Aliases::load_with_builtin(&Aliases::path_for(&state.db_path))?.0)
}

/// Answers a question and records it in the history. Runs on a blocking thread: with
/// an embeddings server, the question's vector comes over the network. When the user
/// chose model answers, the model's text is sent through `on_text` as it arrives, and
/// the answer that comes back is the checked one (or the extractive answer, saying
/// why the model's could not be used).
#[tauri::command]
pub async fn ask(
    app: AppHandle,
    question: String,
    retrieval: Retrieval,
    on_text: Channel<String>,
) -> CommandResult<AskResult> {
    tauri::async_runtime::spawn_blocking(move || {
        let state = app.state::<AppState>();
        let aliases = aliases(&state)?;
        let options = AskOptions {
            search: retrieval.options(&state),
            ..AskOptions::default()
        };
        let settings = Settings::load(&Settings::path_for(&state.db_path))?;
        let model = match (settings.answer_mode, &settings.generation) {
            (answer::Mode::Generated, Some(server)) => Some(server.clone()),
            _ => None,
        };
        let answer = match model {
            None => state.with_store(|store| answer::ask(store, &question, &aliases, &options))?,
            Some(server) => {
                let generator = ModelServer::new(server.config())?;
                let options = GenerateOptions {
                    ask: options,
                    ..GenerateOptions::default()
                };
                let token = state.answering.start();
                // An empty piece first: the model is being asked (the window shows Stop
                // before the first token, which a long prompt on a CPU may take a while to give).
                let _ = on_text.send(String::new());
                let answering = &state.answering;
                state.with_store(|store| {
                    ask_generated(
                        store,
                        &question,
                        &aliases,
                        &options,
                        &generator,
                        &mut |piece| {
                            // Empty pieces are heartbeats, only for the stop button. A
                            // closed window is no reason to stop: the answer is kept.
                            if !piece.is_empty() {
                                let _ = on_text.send(piece.to_owned());
                            }
                            answering.may_go_on(token)
                        },
                    )
                })?
            }
        };
        let history_id = state.with_user(|user| user.record_answer(&answer))?;
        Ok(AskResult { history_id, answer })
    })
    .await
    .map_err(blocking_error)?
}

/// Stops the model answer being written; the question is answered extractively.
#[tauri::command]
pub async fn stop_answer(state: State<'_, AppState>) -> CommandResult<()> {
    state.answering.stop();
    Ok(())
}

/// Which kind of answer the user wants, and the answer model (without its key).
#[tauri::command]
pub async fn answer_settings(app: AppHandle) -> CommandResult<AnswerSettings> {
    blocking(app, move |state| {
        let settings = Settings::load(&Settings::path_for(&state.db_path))?;
        Ok(AnswerSettings::of(&settings))
    })
    .await
}

/// Tries an answer model without saving anything: lists the server's models, checks
/// the name against them and asks for a one-word reply. An empty `api_key` means the
/// saved key, if the URL is the one it was saved for.
#[tauri::command]
pub async fn test_answer_model(
    state: State<'_, AppState>,
    base_url: String,
    model: String,
    api_key: Option<String>,
) -> CommandResult<ServerCheck> {
    let settings = new_server_settings(
        &state,
        |s| s.generation,
        &base_url,
        &model,
        api_key.as_deref(),
    )?;
    tauri::async_runtime::spawn_blocking(move || answering::check_model(&settings))
        .await
        .map_err(blocking_error)
}

/// Saves which kind of answer the user wants and, when `base_url` is given, the answer
/// model (after a test: a model that does not answer is not saved).
#[tauri::command]
pub async fn set_answer_settings(
    state: State<'_, AppState>,
    mode: answer::Mode,
    base_url: Option<String>,
    model: Option<String>,
    api_key: Option<String>,
) -> CommandResult<ServerCheck> {
    let path = Settings::path_for(&state.db_path);
    tauri::async_runtime::spawn_blocking(move || {
        let all = Settings::load(&path)?;
        let server = base_url.map(|url| {
            keyed(
                all.generation.as_ref(),
                &url,
                model.as_deref().unwrap_or(""),
                api_key.as_deref(),
            )
        });
        let check = match &server {
            Some(s) => answering::check_model(s),
            None => ServerCheck {
                ok: true,
                models: Vec::new(),
                dim: None,
                message: None,
                why: None,
            },
        };
        if !check.ok {
            return Ok(check);
        }
        // Changed under the file's lock: a change made meanwhile (the CLI, another
        // setting) is kept.
        Settings::update(&path, |now| {
            Ok(answering::updated(now.clone(), mode, server).map(|new| *now = new))
        })??;
        Ok(check)
    })
    .await
    .map_err(blocking_error)?
}

/// Checks any text against the documents: every sentence gets a verdict.
#[tauri::command]
pub async fn check_text(
    app: AppHandle,
    text: String,
    retrieval: Retrieval,
) -> CommandResult<Checked> {
    tauri::async_runtime::spawn_blocking(move || {
        let state = app.state::<AppState>();
        let aliases = aliases(&state)?;
        let options = retrieval.options(&state);
        // Each sentence finds the passages it speaks about and is judged against them.
        state.with_store(|store| answer::pasted::check_pasted(store, &text, &aliases, &options))
    })
    .await
    .map_err(blocking_error)?
}

/// Where meaning search stands (settings without the key, embedding progress).
#[tauri::command]
pub async fn embedding_status(state: State<'_, AppState>) -> CommandResult<EmbeddingStatus> {
    Ok(state.embedding.status())
}

/// Tries an embeddings server without saving anything. An empty `api_key` means the
/// saved key, if the URL is the one it was saved for; `prompt` is a prompt family's id
/// (`None` or `auto`: recognised from the model's name).
#[tauri::command]
pub async fn test_embedding_server(
    state: State<'_, AppState>,
    base_url: String,
    model: String,
    api_key: Option<String>,
    prompt: Option<String>,
) -> CommandResult<ServerCheck> {
    let mut settings = new_server_settings(
        &state,
        |s| s.embeddings,
        &base_url,
        &model,
        api_key.as_deref(),
    )?;
    settings.prompt = embedding::prompt_choice(prompt.as_deref())?;
    tauri::async_runtime::spawn_blocking(move || embedding::check_server(&settings))
        .await
        .map_err(blocking_error)
}

/// The models a server answering at Ollama's default address offers, if one does.
#[tauri::command]
pub async fn detect_local_server() -> CommandResult<Option<Vec<String>>> {
    tauri::async_runtime::spawn_blocking(|| {
        let settings = ServerSettings::updated(None, OLLAMA_DEFAULT_URL, "", None);
        let check = embedding::check_server(&settings);
        (!check.models.is_empty()).then_some(check.models)
    })
    .await
    .map_err(blocking_error)
}

/// Uses an embeddings server from now on, after checking that it works; the
/// documents are then embedded in the background (`embedding-status`). Other prompts
/// than before are another model: the documents are embedded anew.
#[tauri::command]
pub async fn set_embedding_settings(
    app: AppHandle,
    base_url: String,
    model: String,
    api_key: Option<String>,
    prompt: Option<String>,
) -> CommandResult<ServerCheck> {
    let mut settings = new_server_settings(
        &app.state::<AppState>(),
        |s| s.embeddings,
        &base_url,
        &model,
        api_key.as_deref(),
    )?;
    settings.prompt = embedding::prompt_choice(prompt.as_deref())?;
    tauri::async_runtime::spawn_blocking(move || {
        let check = embedding::check_server(&settings);
        if check.ok {
            embedding::save(&app, Some(settings))?;
        }
        Ok(check)
    })
    .await
    .map_err(blocking_error)?
}

/// The built-in embeddings model from now on: `enabled` off means keyword search only
/// (while no server is set up); `file` is the GGUF the user chose, `None` the first
/// embedding model found. A chosen file must exist; whether it is an embedding model
/// the `embedding-status` event says once it has been read.
#[tauri::command]
pub async fn set_builtin_model(
    app: AppHandle,
    enabled: bool,
    file: Option<String>,
) -> CommandResult<()> {
    let file = file
        .filter(|f| !f.trim().is_empty())
        .map(std::path::PathBuf::from);
    if let Some(f) = &file
        && !f.is_file()
    {
        return Err(crate::error::CommandError::new(
            ErrorCode::BadInput,
            format!("{}: no such file", f.display()),
        ));
    }
    // A choice made here forgets the model kept from an earlier search: "find one"
    // looks again, for the most preferred model there is now.
    let settings = evident_core::settings::BuiltinSettings {
        enabled,
        file,
        kept: None,
    };
    tauri::async_runtime::spawn_blocking(move || embedding::save_builtin(&app, settings))
        .await
        .map_err(blocking_error)?
}

/// Turns meaning search off: keyword search only (stored vectors are kept).
#[tauri::command]
pub async fn clear_embedding_settings(app: AppHandle) -> CommandResult<()> {
    // The HTTP client is dropped here, which must not happen on the async runtime.
    tauri::async_runtime::spawn_blocking(move || embedding::save(&app, None))
        .await
        .map_err(blocking_error)?
}

/// The reranker's settings (never the key).
#[tauri::command]
pub async fn rerank_status(state: State<'_, AppState>) -> CommandResult<RerankStatus> {
    Ok(state.rerank.status())
}

/// Tries a reranker without saving anything (an empty `api_key`: the saved one).
#[tauri::command]
pub async fn test_rerank_server(
    state: State<'_, AppState>,
    base_url: String,
    model: String,
    api_key: Option<String>,
) -> CommandResult<ServerCheck> {
    let settings =
        new_server_settings(&state, |s| s.rerank, &base_url, &model, api_key.as_deref())?;
    tauri::async_runtime::spawn_blocking(move || reranking::check_server(&settings))
        .await
        .map_err(blocking_error)
}

/// Uses a reranker from now on, after checking that it works.
#[tauri::command]
pub async fn set_rerank_settings(
    app: AppHandle,
    base_url: String,
    model: String,
    api_key: Option<String>,
) -> CommandResult<ServerCheck> {
    let settings = new_server_settings(
        &app.state::<AppState>(),
        |s| s.rerank,
        &base_url,
        &model,
        api_key.as_deref(),
    )?;
    tauri::async_runtime::spawn_blocking(move || {
        let check = reranking::check_server(&settings);
        if check.ok {
            reranking::save(&app, Some(settings))?;
        }
        Ok(check)
    })
    .await
    .map_err(blocking_error)?
}

/// No reranker from now on: passages keep the fused order.
#[tauri::command]
pub async fn clear_rerank_settings(app: AppHandle) -> CommandResult<()> {
    tauri::async_runtime::spawn_blocking(move || reranking::save(&app, None))
        .await
        .map_err(blocking_error)?
}

/// The form's server settings, with the key saved for `which` server (see [`keyed`]).
fn new_server_settings(
    state: &AppState,
    which: impl FnOnce(Settings) -> Option<ServerSettings>,
    base_url: &str,
    model: &str,
    api_key: Option<&str>,
) -> CommandResult<ServerSettings> {
    let saved = which(Settings::load(&Settings::path_for(&state.db_path))?);
    Ok(keyed(saved.as_ref(), base_url, model, api_key))
}

/// Server settings from the form: an empty key field keeps the saved key (for the same
/// URL); the UI never sees it.
fn keyed(
    saved: Option<&ServerSettings>,
    base_url: &str,
    model: &str,
    api_key: Option<&str>,
) -> ServerSettings {
    let key = api_key.filter(|k| !k.trim().is_empty());
    ServerSettings::updated(saved, base_url, model, key)
}

/// Imported documents.
#[tauri::command]
pub async fn documents(app: AppHandle) -> CommandResult<Vec<DocumentRecord>> {
    blocking(app, move |state| {
        let docs = state.with_store(|s| s.documents())?;
        Ok(docs
            .into_iter()
            .map(DocumentRecord::with_presence)
            .collect())
    })
    .await
}

/// Removes a document and everything derived from it; a sync of its folder does not
/// bring it back.
#[tauri::command]
pub async fn remove_document(app: AppHandle, id: i64) -> CommandResult<bool> {
    blocking(app, move |state| {
        let removed = state.with_store(|s| {
            let doc = s.document(id)?;
            // A removal that fails is said, not taken for "nothing to remove".
            Ok(match doc {
                Some(doc) if s.remove_document(id)? => Some(doc),
                _ => None,
            })
        })?;
        match removed {
            Some(doc) => {
                state.with_user(|u| u.exclude(&doc.path))?;
                Ok(true)
            }
            None => Ok(false),
        }
    })
    .await
}

/// The watched folders' last sync, for the Library (later ones arrive as
/// `library-synced`).
#[tauri::command]
pub async fn library_sync(
    state: State<'_, AppState>,
) -> CommandResult<crate::syncing::LibrarySync> {
    Ok(state.syncing.last())
}

/// Imports files and folders, reporting each file through `import-progress`.
#[tauri::command]
pub async fn import_paths(app: AppHandle, paths: Vec<String>) -> CommandResult<ImportSummary> {
    let inputs: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();
    import_inputs(app, inputs).await
}

/// Imports the files of these documents again, by id: the window shows a path that is
/// not UTF-8 lossily, and that text names no file, so it never sends a path back.
#[tauri::command]
pub async fn reimport_documents(app: AppHandle, ids: Vec<i64>) -> CommandResult<ImportSummary> {
    let inputs = blocking(app.clone(), move |state| {
        state.with_store(|s| {
            ids.iter()
                .map(|&id| {
                    s.document(id)?
                        .map(|d| d.path)
                        .ok_or_else(|| evident_core::Error::DocumentNotFound(id.to_string()))
                })
                .collect::<evident_core::Result<Vec<PathBuf>>>()
        })
    })
    .await?;
    import_inputs(app, inputs).await
}

async fn import_inputs(app: AppHandle, inputs: Vec<PathBuf>) -> CommandResult<ImportSummary> {
    let mut options = ImportOptions::sandboxed()?;
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    options.cancel = Some(cancel.clone());
    tauri::async_runtime::spawn_blocking(move || -> CommandResult<ImportSummary> {
        let state = app.state::<AppState>();
        let db = state.db_path.clone();
        // Imported folders and files are kept in sync from now on (an older index's own
        // files are taken as watched first, before the import adds to it).
        state.with_user(|u| {
            u.watched_or_seed(|| Store::open(&db)?.document_paths())?;
            u.watch(&inputs)
        })?;
        *state
            .importing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(cancel);
        // Its own connection: the UI stays free to search while the import writes (and
        // a rebuild waits for it).
        let summary = state.using_file(|| -> evident_core::Result<ImportSummary> {
            let mut store = Store::open(&db)?;
            Importer::new(options).run(&mut store, &inputs, &mut |event| {
                if let Some(progress) = ImportProgress::of(&event) {
                    let _ = app.emit("import-progress", progress);
                }
            })
        });
        *state
            .importing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
        let summary = summary?;
        embedding::catch_up(&app);
        crate::syncing::poke(&state);
        Ok(summary)
    })
    .await
    .map_err(blocking_error)?
}

/// Stops the running import, and the sync pass's reading: files not yet written are
/// not imported, and a scanned file stops between two pages (each file is imported
/// whole or not at all; one a sync pass stopped reading is left until it changes).
#[tauri::command]
pub async fn cancel_import(state: State<'_, AppState>) -> CommandResult<bool> {
    let mut stopped = false;
    for switch in [&state.importing, &state.sync_cancel] {
        let running = switch
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        if let Some(c) = running {
            c.store(true, std::sync::atomic::Ordering::Relaxed);
            stopped = true;
        }
    }
    Ok(stopped)
}

/// Rebuilds the database from the source files of its documents (also the way out of
/// a damaged database, which is kept aside). Progress arrives as `import-progress`;
/// when questions are still being answered from the old file as the new one is ready,
/// `rebuild-waiting` says how many (the new file takes the old one's place when they
/// are done; commands wait for that only after a grace, see `state`).
#[tauri::command]
pub async fn rebuild_index(app: AppHandle) -> CommandResult<RebuildReport> {
    let options = ImportOptions::sandboxed()?;
    tauri::async_runtime::spawn_blocking(move || -> CommandResult<RebuildReport> {
        let state = app.state::<AppState>();
        embedding::stop(&state);
        let waiting = |users: usize| {
            let _ = app.emit("rebuild-waiting", users);
        };
        // Built beside the old file while questions are answered from it; only the
        // swap needs the file closed.
        let db = state.db_path.clone();
        let prepared = state.using_file(|| {
            import::prepare_rebuild(&db, &options, &mut |event| {
                if let Some(progress) = ImportProgress::of(&event) {
                    let _ = app.emit("import-progress", progress);
                }
            })
        })?;
        let report = state.with_file_closed(waiting, |db| import::finish_rebuild(db, prepared))?;
        embedding::catch_up(&app);
        crate::syncing::poke(&state);
        Ok(report)
    })
    .await
    .map_err(blocking_error)?
}

/// Where a cited passage is now: found by its file's path and its own text, not by the
/// document id and offsets it had when the answer was given (a rebuild renumbers
/// documents, an edit moves text). `None`: the file is no longer in the library.
#[tauri::command]
pub async fn locate_source(
    app: AppHandle,
    source: Source,
) -> CommandResult<Option<evident_core::answer::relocate::Located>> {
    blocking(app, move |state| {
        state.with_store(|s| {
            evident_core::answer::relocate::locate(
                s,
                source.doc_id,
                &source.doc_path,
                &source.text,
                source.char_start,
                source.char_end,
                (source.highlight.char_start, source.highlight.char_end),
            )
        })
    })
    .await
}

/// A document's text and page spans, for the source viewer.
#[tauri::command]
pub async fn document_view(app: AppHandle, id: i64) -> CommandResult<DocumentView> {
    blocking(app, move |state| {
        state.with_store(|s| {
            let document = s
                .document(id)?
                .ok_or_else(|| evident_core::Error::DocumentNotFound(id.to_string()))?;
            let pages = s.pages_of(id)?;
            let text: String = pages.iter().map(|p| p.text.as_str()).collect();
            let (layout, layout_note) = match document.kind {
                DocumentKind::Markdown | DocumentKind::Docx => {
                    let layout = if document.kind == DocumentKind::Docx {
                        docx_layout(&document.path, &text)
                    } else {
                        markdown_layout(&document.path, &text)
                    };
                    match layout {
                        Ok(Ok(layout)) => (Some(layout), None),
                        Ok(Err(LayoutUnavailable::Changed)) => (None, Some(LayoutNote::Changed)),
                        Err(e) => (
                            None,
                            Some(LayoutNote::Unreadable {
                                message: e.to_string(),
                            }),
                        ),
                    }
                }
                DocumentKind::Text | DocumentKind::Pdf => (None, None),
            };
            Ok(DocumentView {
                document,
                text,
                layout,
                layout_note,
                pages: pages
                    .iter()
                    .map(|p| PageSpan {
                        page_no: p.page_no,
                        char_start: p.char_start,
                        char_end: p.char_end,
                    })
                    .collect(),
            })
        })
    })
    .await
}

/// The source file of library document `id`, re-checked on disk: it must still be a
/// regular file of a kind Evident reads (of `kind`, if given). The database is only a
/// cache; whatever path it holds is never handed on unchecked.
pub(crate) fn library_file(
    state: &AppState,
    id: i64,
    kind: Option<DocumentKind>,
) -> CommandResult<PathBuf> {
    library_document(state, id, kind).map(|d| d.path)
}

/// [`library_file`], with the rest of the document's record (its hash as imported).
pub(crate) fn library_document(
    state: &AppState,
    id: i64,
    kind: Option<DocumentKind>,
) -> CommandResult<evident_core::store::DocumentRecord> {
    let document = state.with_store(|s| {
        s.document(id)?
            .ok_or_else(|| evident_core::Error::DocumentNotFound(id.to_string()))
    })?;
    let path = &document.path;
    let refuse = |why: &str| {
        CommandError::new(
            ErrorCode::BadInput,
            format!("{} is not opened: {why}", path.display()),
        )
    };
    if kind.is_some_and(|k| k != document.kind) {
        return Err(refuse("it is not a document of that kind"));
    }
    if DocumentKind::from_path(path) != Some(document.kind) {
        return Err(refuse("its name is not that of a document Evident reads"));
    }
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => Ok(document),
        Ok(_) => Err(refuse("it is no longer a file")),
        Err(e) => Err(CommandError::new(
            ErrorCode::Io,
            format!(
                "cannot open {}: {e} (was it moved or deleted?)",
                path.display()
            ),
        )),
    }
}

/// Hands a document's source file to the operating system's default app.
#[tauri::command]
pub async fn open_source(app: AppHandle, id: i64) -> CommandResult<()> {
    let path = blocking(app.clone(), move |state| library_file(state, id, None)).await?;
    app.opener()
        .open_path(path.to_string_lossy(), None::<&str>)
        .map_err(|e| {
            CommandError::new(
                ErrorCode::Io,
                format!("cannot open {}: {e}", path.display()),
            )
        })
}

/// The answer as Markdown (`markdown`) or self-contained HTML (`html`), its own words
/// in the window's language (`en` or `zh-CN`).
#[tauri::command]
pub async fn export_answer(
    answer: Answer,
    format: ExportFormat,
    lang: Lang,
) -> CommandResult<String> {
    Ok(format.export(&answer, lang))
}

/// Exports the answer to a file the user picks in the native save dialog, shown here
/// in Rust so that the web view never names a path to write: the only path written is
/// the one the dialog returned. `title` is the dialog's title in the window's language.
/// Returns the saved path, or `None` when the user cancelled.
#[tauri::command]
pub async fn save_export(
    window: tauri::WebviewWindow,
    answer: Answer,
    format: ExportFormat,
    lang: Lang,
    title: String,
) -> CommandResult<Option<String>> {
    let contents = format.export(&answer, lang);
    let (name, ext) = (format.label(), format.extension());
    tauri::async_runtime::spawn_blocking(move || -> CommandResult<Option<String>> {
        let chosen = window
            .dialog()
            .file()
            .set_parent(&window)
            .set_title(title)
            .set_file_name(format!("evident-answer.{ext}"))
            .add_filter(name, &[ext])
            .blocking_save_file();
        let Some(chosen) = chosen else {
            return Ok(None);
        };
        let path = chosen.into_path().map_err(|e| {
            CommandError::new(
                ErrorCode::Io,
                format!("the chosen place cannot be written: {e}"),
            )
        })?;
        std::fs::write(&path, contents).map_err(|e| {
            CommandError::new(
                ErrorCode::Io,
                format!("cannot write {}: {e}", path.display()),
            )
        })?;
        Ok(Some(path.display().to_string()))
    })
    .await
    .map_err(blocking_error)?
}

/// The latest questions, newest first.
#[tauri::command]
pub async fn history(app: AppHandle, limit: usize) -> CommandResult<Vec<HistoryEntry>> {
    blocking(app, move |state| {
        state.with_user(|u| u.history(limit.min(10_000)))
    })
    .await
}

/// A past answer, to reopen it.
#[tauri::command]
pub async fn history_answer(app: AppHandle, id: i64) -> CommandResult<Answer> {
    blocking(app, move |state| {
        state.with_user(|u| {
            u.history_answer(id)?
                .ok_or_else(|| evident_core::Error::DocumentNotFound(format!("history entry {id}")))
        })
    })
    .await
}

/// Thumbs up (+1), down (-1) or cleared (null) on a past answer.
#[tauri::command]
pub async fn set_feedback(app: AppHandle, id: i64, feedback: Option<i64>) -> CommandResult<()> {
    blocking(app, move |state| {
        let found = state.with_user(|u| u.set_feedback(id, feedback))?;
        if found {
            Ok(())
        } else {
            Err(CommandError::new(
                ErrorCode::NotFound,
                format!("there is no past question {id}"),
            ))
        }
    })
    .await
}

/// The user's alias table as text.
#[tauri::command]
pub async fn get_aliases(app: AppHandle) -> CommandResult<String> {
    blocking(app, move |state| {
        let path = Aliases::path_for(&state.db_path);
        let bytes = evident_core::limits::read_capped_if_present(
            &path,
            evident_core::limits::MAX_USER_FILE_BYTES,
            evident_core::problem::Limited::UserFile,
        )?;
        Ok(bytes
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default())
    })
    .await
}

/// Saves the alias table; returns the lines that could not be used.
#[tauri::command]
pub async fn set_aliases(
    state: State<'_, AppState>,
    text: String,
) -> CommandResult<Vec<AliasWarning>> {
    let path = Aliases::path_for(&state.db_path);
    if text.len() as u64 > evident_core::limits::MAX_USER_FILE_BYTES {
        return Err(CommandError::new(
            ErrorCode::BadInput,
            format!(
                "the alias table is {} MB; it can hold up to {} MB",
                text.len().div_ceil(1 << 20),
                evident_core::limits::MAX_USER_FILE_BYTES >> 20
            ),
        ));
    }
    tauri::async_runtime::spawn_blocking(move || -> CommandResult<Vec<AliasWarning>> {
        let (_, warnings) = Aliases::parse(&text);
        Aliases::save(&path, &text)?;
        Ok(warnings)
    })
    .await
    .map_err(blocking_error)?
}

#[cfg(test)]
mod tests {
    use super::*;
    use evident_core::extract::pdf::PdfReader;

    #[test]
    fn only_library_documents_still_on_disk_as_files_of_their_kind_are_handed_out() {
        let dir = tempfile::tempdir().expect("tempdir");
        let doc = dir.path().join("policy.md");
        std::fs::write(
            &doc,
            "# 报销\n\n单笔报销超过20,000元的，须经分管副总经理审批。\n",
        )
        .expect("write");
        let db = dir.path().join("evident.sqlite3");
        let state = AppState::new(db.clone());
        let id = state
            .with_store(|s| {
                Importer::new(ImportOptions::with_reader(PdfReader::InProcess)).run(
                    s,
                    std::slice::from_ref(&doc),
                    &mut |_| {},
                )?;
                Ok(s.documents()?[0].id)
            })
            .expect("imported");
        assert!(library_file(&state, id, None).is_ok());
        let refused = |kind, id| library_file(&state, id, kind).expect_err("refused").message;
        assert!(refused(Some(DocumentKind::Pdf), id).contains("not a document of that kind"));
        assert!(refused(None, id + 100).contains(&(id + 100).to_string()));
        std::fs::remove_file(&doc).expect("remove");
        std::fs::create_dir(&doc).expect("a folder in its place");
        assert!(refused(None, id).contains("no longer a file"));
        // A database that names something else entirely is not trusted either.
        rusqlite_free_update(&db, "/bin/sh");
        assert!(refused(None, id).contains("not that of a document"));
    }

    fn rusqlite_free_update(db: &std::path::Path, path: &str) {
        let store = Store::open(db).expect("open");
        store
            .connection()
            .execute("UPDATE documents SET path = ?1", [path])
            .expect("update");
    }
}
