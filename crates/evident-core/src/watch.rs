//! Noticing changes to the watched folders while Evident runs.
//!
//! The operating system's notifications (inotify on Linux) come through `notify`, and
//! `notify-debouncer-full` folds a burst of them — an editor's save is a handful of
//! events, a synced folder's update hundreds — into one batch once things have been
//! quiet for [`DEBOUNCE`]. What to do about a batch is not decided here: the caller
//! runs a [`crate::sync::Syncer`] pass, which compares the folders with the index, so a
//! missed or merged event can never leave the two different for long.
//!
//! Reading a file is an event too (inotify reports opens and closes): those are ignored,
//! or every sync pass would set off the next one.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use notify_debouncer_full::notify::event::{AccessKind, AccessMode, EventKind, ModifyKind};
use notify_debouncer_full::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use crate::{Error, Result};

/// How long the folders must be quiet before a batch of changes is handed over.
pub const DEBOUNCE: Duration = Duration::from_millis(500);

/// What [`Watcher::wait`] saw.
#[derive(Debug, PartialEq, Eq)]
pub enum Wake {
    /// Files changed (the paths the events named, deduplicated).
    Changed(Vec<PathBuf>),
    /// Nothing happened within the time given.
    Quiet,
    /// The watcher stopped (its thread ended).
    Closed,
}

/// Watches folders and files for changes.
pub struct Watcher {
    debouncer: Debouncer<RecommendedWatcher, RecommendedCache>,
    events: Receiver<DebounceEventResult>,
    watching: Vec<PathBuf>,
}

impl Watcher {
    /// A watcher that watches nothing yet.
    pub fn new() -> Result<Self> {
        Self::with_delay(DEBOUNCE)
    }

    /// A watcher that waits `delay` of quiet before handing over a batch.
    pub fn with_delay(delay: Duration) -> Result<Self> {
        let (tx, events) = channel();
        let debouncer = new_debouncer(delay, None, tx).map_err(watch_error)?;
        Ok(Self {
            debouncer,
            events,
            watching: Vec::new(),
        })
    }

    /// Watches exactly these paths (folders recursively; for a file, its folder). Call
    /// it again after each sync pass: folders that are not there are skipped until they
    /// come back. Paths that cannot be watched (no permission, out of inotify watches)
    /// are returned with the reason, and the rest are watched.
    pub fn set_paths(&mut self, watched: &[PathBuf]) -> Vec<(PathBuf, crate::problem::Problem)> {
        let mut targets: Vec<(PathBuf, RecursiveMode)> = Vec::new();
        for path in watched {
            let target = if path.is_dir() {
                (path.clone(), RecursiveMode::Recursive)
            } else {
                match path.parent() {
                    Some(dir) => (dir.to_owned(), RecursiveMode::NonRecursive),
                    None => continue,
                }
            };
            if !targets.iter().any(|(t, _)| t == &target.0) {
                targets.push(target);
            }
        }
        // A folder no longer wanted, or gone (moved away or unmounted: its watch would
        // follow it elsewhere), is let go; it is watched afresh if it comes back.
        for old in std::mem::take(&mut self.watching) {
            if targets.iter().any(|(t, _)| t == &old) && old.is_dir() {
                self.watching.push(old);
            } else {
                let _ = self.debouncer.unwatch(&old);
            }
        }
        let mut failed = Vec::new();
        for (target, mode) in targets {
            if self.watching.contains(&target) || !target.is_dir() {
                continue;
            }
            match self.debouncer.watch(&target, mode) {
                Ok(()) => self.watching.push(target),
                Err(e) => failed.push((target, watch_problem(&e))),
            }
        }
        failed
    }

    /// The folders being watched.
    pub fn watching(&self) -> &[PathBuf] {
        &self.watching
    }

    /// Waits up to `timeout` for a batch of changes. A batch of only ignored events (a
    /// folder opened by a scan, a file read) does not end the wait: it is `Quiet` only
    /// once the whole `timeout` has passed with nothing that counts.
    pub fn wait(&self, timeout: Duration) -> Wake {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(batch) => {
                    let mut paths = relevant_paths(batch);
                    // Batches that arrived meanwhile belong to the same pass.
                    while let Ok(more) = self.events.try_recv() {
                        paths.extend(relevant_paths(more));
                    }
                    paths.sort();
                    paths.dedup();
                    if !paths.is_empty() {
                        return Wake::Changed(paths);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Wake::Quiet,
                Err(RecvTimeoutError::Disconnected) => return Wake::Closed,
            }
        }
    }
}

/// The paths of the events that can change a document: creations, writes, renames
/// and removals (not reads, nor access-time or permission updates). An error from the
/// watcher (events lost to an overflow) counts as a change of everything.
fn relevant_paths(batch: DebounceEventResult) -> Vec<PathBuf> {
    match batch {
        Ok(events) => events
            .into_iter()
            .filter(|e| match e.kind {
                EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
                EventKind::Access(_) => false,
                EventKind::Modify(ModifyKind::Metadata(_)) => false,
                _ => true,
            })
            .flat_map(|e| e.event.paths)
            .collect(),
        Err(_) => vec![PathBuf::from("/")],
    }
}

fn watch_error(e: notify_debouncer_full::notify::Error) -> Error {
    let path = e
        .paths
        .first()
        .cloned()
        .unwrap_or_else(|| Path::new("").to_owned());
    Error::input(path, watch_problem(&e))
}

/// Why a folder cannot be watched, as a code.
fn watch_problem(e: &notify_debouncer_full::notify::Error) -> crate::problem::Problem {
    match e.kind {
        notify_debouncer_full::notify::ErrorKind::MaxFilesWatch => {
            crate::problem::Problem::WatchLimit
        }
        _ => crate::problem::Problem::WatchFailed {
            detail: e.to_string(),
        },
    }
}
