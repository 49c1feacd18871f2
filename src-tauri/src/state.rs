//! The app's state: where the database is, connections to it, and the user's records.
//!
//! * A command borrows a connection to the index for as long as it runs (opening one if
//!   none is idle) and hands it back after, so a long check or a slow embeddings server
//!   never makes another command wait for a lock. Connections are opened lazily and
//!   dropped after a failure, so a damaged database is reported to the UI (with the way
//!   out) instead of stopping the app from starting.
//! * Replacing the file (the last step of a rebuild, which builds the new file beside
//!   the old one while questions are answered from it) waits for the commands using
//!   it, and says so through its `on_wait` (the window shows that the rebuild waits for
//!   an answer being written). For its first second ([`GRACE`]) new commands are still
//!   let in, so a tab switch is not held up by a replacement that is about to be free
//!   to run; after that they wait, so a stream of commands can never starve it. Once
//!   it has run, they open the new file.
//! * The user's history lives in its own file ([`UserData`]), which a rebuild never
//!   touches.
//! * A panic in a command poisons nothing: every lock here recovers its data, which is
//!   only ever idle connections or a place to put them.

use evident_core::ErrorCode;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use evident_core::store::Store;
use evident_core::userdata::UserData;

use crate::error::{CommandError, CommandResult};

/// Idle connections kept for reuse. Each caches the passage vectors of meaning search,
/// so more than two would mostly hold memory for a second user that does not exist.
const IDLE_CONNECTIONS: usize = 2;

/// Shared by every command.
pub struct AppState {
    /// The database file (the CLI's default, `$EVIDENT_DB` if set).
    pub db_path: PathBuf,
    /// Who uses the file, and whether a rebuild is replacing it.
    file: FileGate,
    idle: Mutex<Vec<Store>>,
    user: Mutex<Option<UserData>>,
    /// The embeddings server and the background pass's status.
    pub embedding: crate::embedding::EmbeddingState,
    /// The stop button of model answers.
    pub answering: crate::answering::AnswerState,
    /// The watched folders' last sync.
    pub syncing: crate::syncing::SyncState,
    /// The reranker, if one is set up.
    pub rerank: crate::reranking::RerankState,
    /// PDF pages drawn recently for the source viewer.
    pub pages: evident_core::page_cache::PageCache,
    /// The running import's stop switch (`cancel_import`).
    pub importing: Mutex<Option<std::sync::Arc<std::sync::atomic::AtomicBool>>>,
    /// The running sync pass's stop switch (`cancel_import` flips it too: in the
    /// window, reading a new scan is reading, whoever started it).
    pub sync_cancel: Mutex<Option<std::sync::Arc<std::sync::atomic::AtomicBool>>>,
}

fn recover<G>(r: Result<G, PoisonError<G>>) -> G {
    r.unwrap_or_else(PoisonError::into_inner)
}

/// How long a waiting replacement still lets new users of the file in.
const GRACE: Duration = Duration::from_secs(1);

/// The database file's users and its replacement: writer-fair after a grace. A
/// replacement that only waited for a moment with no users (preferring readers) never
/// ran while commands overlapped; one that shut new users out at once froze every tab
/// behind a streamed answer. Here a waiting replacement lets new users in for
/// [`GRACE`], then closes the door and runs as soon as those inside are done.
#[derive(Default)]
struct FileGate {
    state: Mutex<GateState>,
    changed: Condvar,
}

#[derive(Default)]
struct GateState {
    users: usize,
    replacing: bool,
    /// When a waiting replacement stops letting new users in.
    door_closes: Option<Instant>,
    /// How many times the file was replaced.
    generation: u64,
}

/// One user of the file, for as long as it lives.
struct FileUse<'a>(&'a FileGate);

impl Drop for FileUse<'_> {
    fn drop(&mut self) {
        let mut state = recover(self.0.state.lock());
        state.users = state.users.saturating_sub(1);
        self.0.changed.notify_all();
    }
}

impl FileGate {
    /// Waits while the file is being replaced (or a replacement has waited its grace),
    /// then counts one more user.
    fn enter(&self) -> FileUse<'_> {
        let mut state = recover(self.state.lock());
        while state.replacing || state.door_closes.is_some_and(|t| Instant::now() >= t) {
            state = recover(self.changed.wait(state));
        }
        state.users += 1;
        FileUse(self)
    }

    /// Runs `f` once no one uses the file, keeping new users out until it returns.
    /// `on_wait` is told how many users there are, if it has to wait for them.
    fn replace<T>(&self, on_wait: impl FnOnce(usize), f: impl FnOnce() -> T) -> T {
        let mut state = recover(self.state.lock());
        while state.replacing {
            state = recover(self.changed.wait(state));
        }
        if state.users > 0 {
            on_wait(state.users);
            state.door_closes = Some(Instant::now() + GRACE);
        }
        while state.users > 0 || state.replacing {
            state = recover(self.changed.wait(state));
        }
        state.replacing = true;
        state.door_closes = None;
        drop(state);
        struct Done<'a>(&'a FileGate);
        impl Drop for Done<'_> {
            fn drop(&mut self) {
                let mut state = recover(self.0.state.lock());
                state.replacing = false;
                state.generation += 1;
                self.0.changed.notify_all();
            }
        }
        let _done = Done(self);
        f()
    }
}

impl AppState {
    /// State for the database at `db_path`.
    pub fn new(db_path: PathBuf) -> Self {
        Self {
            db_path,
            file: FileGate::default(),
            idle: Mutex::new(Vec::new()),
            user: Mutex::new(None),
            embedding: Default::default(),
            answering: Default::default(),
            syncing: Default::default(),
            rerank: Default::default(),
            pages: Default::default(),
            importing: Mutex::new(None),
            sync_cancel: Mutex::new(None),
        }
    }

    fn create_data_dir(&self) -> CommandResult<()> {
        if let Some(dir) = self.db_path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                CommandError::new(
                    ErrorCode::Io,
                    format!("cannot create the data folder {}: {e}", dir.display()),
                )
            })?;
        }
        Ok(())
    }

    /// Runs `f` with a connection to the index, opening one first if none is idle.
    pub fn with_store<T>(
        &self,
        f: impl FnOnce(&mut Store) -> evident_core::Result<T>,
    ) -> CommandResult<T> {
        let _file = self.file.enter();
        let idle = recover(self.idle.lock()).pop();
        let mut store = match idle {
            Some(store) => store,
            None => {
                self.create_data_dir()?;
                Store::open(&self.db_path)?
            }
        };
        let result = f(&mut store);
        // A connection that met a damaged file is not kept: the next command re-opens
        // it and reports the damage again (or finds it rebuilt).
        let damaged = matches!(result, Err(evident_core::Error::DatabaseCorrupt { .. }));
        if !damaged {
            let mut idle = recover(self.idle.lock());
            if idle.len() < IDLE_CONNECTIONS {
                idle.push(store);
            }
        }
        Ok(result?)
    }

    /// Runs `f` with the user's records (history and feedback), opening them first.
    pub fn with_user<T>(
        &self,
        f: impl FnOnce(&mut UserData) -> evident_core::Result<T>,
    ) -> CommandResult<T> {
        let mut guard: MutexGuard<'_, Option<UserData>> = recover(self.user.lock());
        if guard.is_none() {
            self.create_data_dir()?;
            *guard = Some(UserData::open_for(&self.db_path)?);
        }
        match guard.as_mut() {
            Some(user) => Ok(f(user)?),
            None => Err(CommandError::new(
                ErrorCode::Internal,
                "the history is not open",
            )),
        }
    }

    /// How many times the database file was replaced (a connection opened before a
    /// replacement reads the old file).
    pub fn file_generation(&self) -> u64 {
        recover(self.file.state.lock()).generation
    }

    /// Runs `f`, which opens its own connection to the file (an import, the embedding
    /// pass), as a user of the file: a rebuild waits for it to finish.
    pub fn using_file<T>(&self, f: impl FnOnce() -> T) -> T {
        let _file = self.file.enter();
        f()
    }

    /// Runs `f` on the database file with every connection to it closed, and kept
    /// closed until `f` returns, so no command reads the file while `f` replaces it
    /// (commands wait; the next one opens the new file). When commands still use the
    /// file, `on_wait` is told how many before `f` waits for them.
    pub fn with_file_closed<T>(
        &self,
        on_wait: impl FnOnce(usize),
        f: impl FnOnce(&Path) -> evident_core::Result<T>,
    ) -> CommandResult<T> {
        self.file.replace(on_wait, || {
            recover(self.idle.lock()).clear();
            Ok(f(&self.db_path)?)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_in_a_command_leaves_the_state_usable() {
        let dir = tempfile::tempdir().expect("tempdir");
        let state = std::sync::Arc::new(AppState::new(dir.path().join("evident.sqlite3")));
        let s = state.clone();
        let crashed = std::thread::spawn(move || {
            let _ = s.with_store(|_| -> evident_core::Result<()> { panic!("a bug in a command") });
        })
        .join();
        assert!(crashed.is_err(), "the command panicked");
        let s = state.clone();
        let crashed = std::thread::spawn(move || {
            let _ = s.with_user(|_| -> evident_core::Result<()> { panic!("a bug in a command") });
        })
        .join();
        assert!(crashed.is_err(), "the command panicked");
        let docs = state
            .with_store(|s| s.documents())
            .expect("the next command runs");
        assert!(docs.is_empty());
        let history = state
            .with_user(|u| u.history(5))
            .expect("the history still opens");
        assert!(history.is_empty());
        state
            .with_file_closed(|_| {}, |_| Ok(()))
            .expect("the file can still be replaced");
    }

    /// A rebuild asked for while a long command (a streamed answer) uses the file waits
    /// for it and says so; a command that comes within the grace is not held up; once
    /// the rebuild runs, new commands wait for it and then see the file it made.
    #[test]
    fn a_waiting_rebuild_holds_up_no_command_within_its_grace_and_runs_when_the_file_is_free() {
        use std::sync::mpsc;
        use std::time::{Duration, Instant};
        let dir = tempfile::tempdir().expect("tempdir");
        let state = std::sync::Arc::new(AppState::new(dir.path().join("evident.sqlite3")));
        let (answering, answer_done) = (mpsc::channel::<()>(), mpsc::channel::<()>());
        let s = state.clone();
        let (release_tx, release_rx) = (answering.0, answering.1);
        let answer = std::thread::spawn(move || {
            s.with_store(|_| {
                // Streaming until told to stop.
                let _ = release_rx.recv();
                Ok(())
            })
            .expect("the answer");
            let _ = answer_done.0.send(());
        });
        std::thread::sleep(Duration::from_millis(100));
        let s = state.clone();
        let (waited_tx, waited_rx) = mpsc::channel::<usize>();
        let rebuild = std::thread::spawn(move || {
            s.with_file_closed(
                |users| {
                    let _ = waited_tx.send(users);
                },
                |_| {
                    std::thread::sleep(Duration::from_millis(300));
                    Ok(Instant::now())
                },
            )
            .expect("the rebuild")
        });
        assert_eq!(
            waited_rx.recv_timeout(Duration::from_secs(5)),
            Ok(1),
            "the rebuild says it waits for one"
        );
        // A tab switch just after the rebuild began to wait: answered at once.
        let started = Instant::now();
        state.with_store(|s| s.documents()).expect("documents");
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "a command waited for a waiting rebuild"
        );
        assert!(!rebuild.is_finished(), "the rebuild waits for the answer");
        release_tx.send(()).expect("stop the answer");
        answer_done
            .1
            .recv_timeout(Duration::from_secs(5))
            .expect("the answer ends");
        let rebuilt_at = rebuild.join().expect("rebuild thread");
        // After the rebuild, commands run again.
        state
            .with_store(|s| s.documents())
            .expect("documents after");
        assert!(Instant::now() >= rebuilt_at);
        answer.join().expect("answer thread");
    }

    /// Commands that overlap without end (two threads, each starting another before
    /// the last is done) never leave the file free: a replacement must still run, after
    /// its grace, while they go on, and each of them must then go on too.
    #[test]
    fn a_stream_of_overlapping_commands_cannot_starve_a_rebuild() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        let dir = tempfile::tempdir().expect("tempdir");
        let state = Arc::new(AppState::new(dir.path().join("evident.sqlite3")));
        let stop = Arc::new(AtomicBool::new(false));
        let served = Arc::new(AtomicUsize::new(0));
        let readers: Vec<_> = (0..2)
            .map(|i| {
                let (state, stop, served) = (state.clone(), stop.clone(), served.clone());
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(25 * i));
                    while !stop.load(Ordering::SeqCst) {
                        state
                            .with_store(|s| {
                                std::thread::sleep(Duration::from_millis(50));
                                s.documents()
                            })
                            .expect("a command");
                        served.fetch_add(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(200));
        let (s, done) = (state.clone(), stop.clone());
        let rebuild = std::thread::spawn(move || {
            let started = Instant::now();
            let ran = s
                .with_file_closed(|_| {}, |_| Ok(!done.load(Ordering::SeqCst)))
                .expect("the rebuild");
            (ran, started.elapsed())
        });
        // The stream goes on for 8 s, far longer than the grace.
        let until = Instant::now() + Duration::from_secs(8);
        while Instant::now() < until && !rebuild.is_finished() {
            std::thread::sleep(Duration::from_millis(20));
        }
        let finished_while_streaming = rebuild.is_finished();
        let before = served.load(Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(300));
        let after = served.load(Ordering::SeqCst);
        stop.store(true, Ordering::SeqCst);
        let (ran_while_streaming, waited) = rebuild.join().expect("rebuild thread");
        for r in readers {
            r.join().expect("reader thread");
        }
        assert!(
            finished_while_streaming && ran_while_streaming,
            "the rebuild waited for the stream of commands to end ({waited:?})"
        );
        assert!(after > before, "commands went on after the rebuild");
        eprintln!("the rebuild waited {waited:?} behind a stream of commands");
    }
}
