//! The app's state: where the database is, connections to it, and the user's records.
//!
//! * A command borrows a connection to the index for as long as it runs (opening one if
//!   none is idle) and hands it back after, so a long check or a slow embeddings server
//!   never makes another command wait for a lock. Connections are opened lazily and
//!   dropped after a failure, so a damaged database is reported to the UI (with the way
//!   out) instead of stopping the app from starting.
//! * Replacing the file (a rebuild) waits for the commands using it and keeps new ones
//!   waiting until it is done; they then open the new file.
//! * The user's history lives in its own file ([`UserData`]), which a rebuild never
//!   touches.
//! * A panic in a command poisons nothing: every lock here recovers its data, which is
//!   only ever idle connections or a place to put them.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError, RwLock};

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
    /// Held shared by commands using the file, exclusively while it is replaced.
    file: RwLock<()>,
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
    pub pages: crate::pages::PageCache,
}

fn recover<G>(r: Result<G, PoisonError<G>>) -> G {
    r.unwrap_or_else(PoisonError::into_inner)
}

impl AppState {
    /// State for the database at `db_path`.
    pub fn new(db_path: PathBuf) -> Self {
        Self {
            db_path,
            file: RwLock::new(()),
            idle: Mutex::new(Vec::new()),
            user: Mutex::new(None),
            embedding: Default::default(),
            answering: Default::default(),
            syncing: Default::default(),
            rerank: Default::default(),
            pages: Default::default(),
        }
    }

    fn create_data_dir(&self) -> CommandResult<()> {
        if let Some(dir) = self.db_path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                CommandError::new(
                    "io",
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
        let _file = recover(self.file.read());
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
            None => Err(CommandError::new("internal", "the history is not open")),
        }
    }

    /// Runs `f`, which opens its own connection to the file (an import, the embedding
    /// pass), as a user of the file: a rebuild waits for it to finish.
    pub fn using_file<T>(&self, f: impl FnOnce() -> T) -> T {
        let _file = recover(self.file.read());
        f()
    }

    /// Runs `f` on the database file with every connection to it closed, and kept
    /// closed until `f` returns, so no command reads the file while `f` replaces it
    /// (commands wait; the next one opens the new file).
    pub fn with_file_closed<T>(
        &self,
        f: impl FnOnce(&Path) -> evident_core::Result<T>,
    ) -> CommandResult<T> {
        let _file = recover(self.file.write());
        recover(self.idle.lock()).clear();
        Ok(f(&self.db_path)?)
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
            .with_file_closed(|_| Ok(()))
            .expect("the file can still be replaced");
    }
}
