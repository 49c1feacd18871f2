//! The Library kept in sync with the folders the user imported: one pass when the app
//! opens (what changed while it was closed), then a pass after each burst of changes
//! the watcher reports, and a full pass every few minutes in case a notification was
//! lost or a drive came back. Each pass that did something is sent to the Library as
//! the `library-synced` event ("updated 2 documents · removed 1").
//!
//! The passes run on their own thread with their own database connection (a rebuild
//! waits for a pass, as for an import); the work itself is `evident_core::sync`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use evident_core::import::{ImportEvent, ImportOptions};
use evident_core::store::Store;
use evident_core::sync::{Change, ChangeCounts, SETTLE, SyncReport, Syncer};
use evident_core::userdata::WatchList;
use evident_core::watch::{Wake, Watcher};
use serde::Serialize;
use tauri::{AppHandle, Emitter, Manager};

use crate::commands::ImportProgress;
use crate::state::AppState;

fn recover<G>(r: Result<G, PoisonError<G>>) -> G {
    r.unwrap_or_else(PoisonError::into_inner)
}

/// A full pass at least this often, notifications or not.
const FULL_PASS_EVERY: Duration = Duration::from_secs(300);
/// How often a pass runs while a watched folder is not there (a drive unplugged).
const LOOK_FOR_MISSING_EVERY: Duration = Duration::from_secs(10);
/// How soon a pass that failed (a damaged database, say) is tried again.
const RETRY_AFTER_ERROR: Duration = Duration::from_secs(5);
/// How often the thread looks for a request ([`poke`]) while waiting for changes.
const POLL: Duration = Duration::from_secs(1);

/// What the last pass that did something did, for the Library.
#[derive(Debug, Clone, Default, Serialize, ts_rs::TS)]
pub struct LibrarySync {
    /// The changes, counted.
    pub counts: ChangeCounts,
    /// The changes (at most [`MAX_LISTED`]).
    pub changes: Vec<Change>,
    /// Watched folders that are not there; their documents are kept, marked missing.
    pub unreachable: Vec<PathBuf>,
    /// The folders and files being kept in sync.
    pub watching: Vec<PathBuf>,
    /// Folders whose changes cannot be watched (the system's limit of watches, no
    /// permission), with why: their changes are only found by the pass every few
    /// minutes.
    pub unwatched: Vec<Unwatched>,
    /// When the pass ended (Unix seconds).
    pub at: i64,
    /// Why passes cannot run (the watcher or the database failed), if they cannot.
    pub error: Option<String>,
}

/// A folder that cannot be watched, and why.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct Unwatched {
    /// The folder.
    pub path: PathBuf,
    /// Why.
    pub why: evident_core::problem::Problem,
}

/// Changes listed in one event; the counts cover all of them.
const MAX_LISTED: usize = 50;

/// The syncing side of the app's state.
#[derive(Default)]
pub struct SyncState {
    last: Mutex<LibrarySync>,
    poke: AtomicBool,
}

impl SyncState {
    /// What the Library shows on opening.
    pub fn last(&self) -> LibrarySync {
        self.last
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn set(&self, app: &AppHandle, sync: LibrarySync) {
        *self.last.lock().unwrap_or_else(PoisonError::into_inner) = sync.clone();
        let _ = app.emit("library-synced", sync);
    }
}

/// Asks for a pass now (new folders were imported, a document was removed).
pub fn poke(state: &AppState) {
    state.syncing.poke.store(true, Ordering::Relaxed);
}

/// Starts the syncing thread.
pub fn start(app: &AppHandle) {
    let app = app.clone();
    let spawned = std::thread::Builder::new()
        .name("evident-sync".into())
        .spawn(move || run(&app));
    if let Err(e) = spawned {
        eprintln!("Evident: folders will not be kept in sync: {e}");
    }
}

fn run(app: &AppHandle) {
    let state = app.state::<AppState>();
    let options = match ImportOptions::sandboxed() {
        Ok(o) => o,
        Err(e) => {
            return fail(
                app,
                &state,
                format!("the document reader cannot start: {e}"),
            );
        }
    };
    let mut syncer = Syncer::new(options);
    let mut watcher = match Watcher::new() {
        Ok(w) => Some(w),
        Err(e) => {
            fail(
                app,
                &state,
                format!("changes are only picked up every few minutes: {e}"),
            );
            None
        }
    };
    let mut list = WatchList::default();
    let mut unwatched: Vec<Unwatched> = Vec::new();
    // The file generation whose database this thread has checked.
    let mut checked: Option<u64> = None;
    let mut next_full = Instant::now();
    let mut due = true;
    let mut settling = false;
    loop {
        if due || state.syncing.poke.swap(false, Ordering::Relaxed) || Instant::now() >= next_full {
            next_full = match pass(
                app,
                &state,
                &mut syncer,
                &mut list,
                watcher.as_mut(),
                &mut unwatched,
                &mut checked,
            ) {
                Ok(report) => {
                    settling = !report.pending.is_empty();
                    // A folder that is not there sends nothing when it comes back.
                    let next = if report.unreachable.is_empty() {
                        FULL_PASS_EVERY
                    } else {
                        LOOK_FOR_MISSING_EVERY
                    };
                    report_pass(app, &state, &list, &unwatched, report);
                    Instant::now() + next
                }
                Err(e) => {
                    fail(app, &state, e);
                    // A damaged database is usually rebuilt within moments: try again soon.
                    Instant::now() + RETRY_AFTER_ERROR
                }
            };
        }
        let wait = if settling { SETTLE } else { POLL };
        due = match watcher.as_ref().map(|w| w.wait(wait)) {
            Some(Wake::Changed(_)) => true,
            Some(Wake::Quiet) => settling,
            Some(Wake::Closed) => {
                watcher = None;
                false
            }
            None => {
                std::thread::sleep(wait);
                settling
            }
        };
    }
}

/// One pass: the watch list (taking an older index's files as watched the first
/// time), the watcher pointed at it, and the sync itself. The whole file is checked
/// (`quick_check`) on the first pass, after a rebuild replaced it and after a failed
/// pass, not on every pass.
fn pass(
    app: &AppHandle,
    state: &AppState,
    syncer: &mut Syncer,
    list: &mut WatchList,
    watcher: Option<&mut Watcher>,
    unwatched: &mut Vec<Unwatched>,
    checked: &mut Option<u64>,
) -> Result<SyncReport, String> {
    let now = state
        .with_user(|u| {
            u.watched_or_seed(|| Store::open(&state.db_path)?.document_paths())?;
            u.watch_list()
        })
        .map_err(|e| e.message)?;
    *list = now;
    if let Some(w) = watcher {
        *unwatched = w
            .set_paths(&list.roots)
            .into_iter()
            .map(|(path, why)| Unwatched { path, why })
            .collect();
    }
    let result = state.using_file(|| -> evident_core::Result<SyncReport> {
        // Checked once per file: again only after a rebuild replaced it or a pass failed.
        // The connection is closed after each pass (a rebuild needs the file to itself).
        let generation = state.file_generation();
        let mut store = if *checked == Some(generation) {
            Store::open_checked_before(&state.db_path)?
        } else {
            Store::open(&state.db_path)?
        };
        *checked = Some(generation);
        // Reading a new scan takes seconds a page: the window shows which page, and
        // its Cancel stops the reading (the file is left until it changes).
        let cancel = Arc::new(AtomicBool::new(false));
        syncer.set_cancel(Some(cancel.clone()));
        *recover(state.sync_cancel.lock()) = Some(cancel);
        let report = syncer.run(&mut store, list, &mut |event| {
            if let ImportEvent::Ocr { .. } = event
                && let Some(progress) = ImportProgress::of(&event)
            {
                let _ = app.emit("import-progress", progress);
            }
        });
        *recover(state.sync_cancel.lock()) = None;
        report
    });
    if result.is_err() {
        *checked = None;
    }
    result.map_err(|e| e.to_string())
}

fn report_pass(
    app: &AppHandle,
    state: &AppState,
    list: &WatchList,
    unwatched: &[Unwatched],
    report: SyncReport,
) {
    let previous = state.syncing.last();
    let news = report.changed_index()
        || report.counts.failed > 0
        || report.counts.duplicates > 0
        || report.unreachable != previous.unreachable
        || list.roots != previous.watching
        || unwatched != previous.unwatched.as_slice()
        || previous.error.is_some();
    if !news {
        return;
    }
    if report.changed_index() {
        crate::embedding::catch_up(app);
    }
    let mut changes = report.changes;
    changes.truncate(MAX_LISTED);
    state.syncing.set(
        app,
        LibrarySync {
            counts: report.counts,
            changes,
            unreachable: report.unreachable,
            watching: list.roots.clone(),
            unwatched: unwatched.to_vec(),
            at: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64),
            error: None,
        },
    );
}

fn fail(app: &AppHandle, state: &AppState, error: String) {
    let mut last = state.syncing.last();
    if last.error.as_deref() == Some(error.as_str()) {
        return;
    }
    last.error = Some(error);
    state.syncing.set(app, last);
}
