//! The app's state: where the database is and one open connection to it.
//!
//! The connection is opened lazily and re-opened after a failure, so a damaged database
//! is reported to the UI (with the way out) instead of stopping the app from starting.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use evident_core::store::Store;

use crate::error::{CommandError, CommandResult};

/// Shared by every command.
pub struct AppState {
    /// The database file (the CLI's default, `$EVIDENT_DB` if set).
    pub db_path: PathBuf,
    store: Mutex<Option<Store>>,
    /// The embeddings server and the background pass's status.
    pub embedding: crate::embedding::EmbeddingState,
}

impl AppState {
    /// State for the database at `db_path`.
    pub fn new(db_path: PathBuf) -> Self {
        Self {
            db_path,
            store: Mutex::new(None),
            embedding: Default::default(),
        }
    }

    /// Runs `f` with the open store, opening it first if needed.
    pub fn with_store<T>(
        &self,
        f: impl FnOnce(&mut Store) -> evident_core::Result<T>,
    ) -> CommandResult<T> {
        let mut guard: MutexGuard<'_, Option<Store>> = self
            .store
            .lock()
            .map_err(|_| CommandError::new("internal", "the database lock was poisoned"))?;
        if guard.is_none() {
            if let Some(dir) = self.db_path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| {
                    CommandError::new(
                        "io",
                        format!("cannot create the data folder {}: {e}", dir.display()),
                    )
                })?;
            }
            *guard = Some(Store::open(&self.db_path)?);
        }
        match guard.as_mut() {
            Some(store) => Ok(f(store)?),
            None => Err(CommandError::new("internal", "the database is not open")),
        }
    }

    /// Runs `f` on the database file with this state's connection closed and kept
    /// closed until `f` returns, so no command reads the file while `f` replaces it
    /// (commands wait; the next one re-opens the new file).
    pub fn with_file_closed<T>(
        &self,
        f: impl FnOnce(&Path) -> evident_core::Result<T>,
    ) -> CommandResult<T> {
        let mut guard = self
            .store
            .lock()
            .map_err(|_| CommandError::new("internal", "the database lock was poisoned"))?;
        *guard = None;
        Ok(f(&self.db_path)?)
    }
}
