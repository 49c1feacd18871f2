//! Keeping the index equal to the folders and files the user imported.
//!
//! Policies change on disk: HR saves a new version, a file is renamed, an old one is
//! deleted. A pass of [`Syncer::run`] compares the watched paths with the index and
//! makes them equal (files the user removed from the Library stay out):
//! - a changed file is re-imported, atomically (one transaction, as on import); a file
//!   whose size and time are as imported is not even read;
//! - a new file is imported; a file that vanished is removed from the index;
//! - a new file with the content of one that vanished is that file renamed or moved: the
//!   document keeps its id, chunks and vectors and only its path changes;
//! - a watched folder that is not there at all (an unplugged drive, a share that is not
//!   mounted) is reported as unreachable and its documents are kept, marked missing in
//!   the Library, rather than wiped; a watched single file that was deleted is removed.
//!
//! A file is read only once it has been left alone for [`SETTLE`], so a save in
//! progress is never indexed half-written. A file that fails is not retried, or
//! reported again, until it changes. The pass is
//! what `evident sync` runs once, and what [`crate::watch`] runs after each burst of
//! changes; a kill at any point leaves the index consistent, because every document is
//! written or removed in a transaction of its own.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use serde::Serialize;

use crate::Result;
use crate::chunk::CHUNKER_VERSION;
use crate::extract::DocumentKind;
use crate::import::{EmbedOutcome, ImportEvent, ImportOptions, Importer, Outcome, collect_files};
use crate::limits::{self, read_capped};
use crate::store::{DocumentRecord, Store, sha256_hex};
use crate::userdata::WatchList;

/// One thing a pass changed (or could not).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum Change {
    /// A new file was imported.
    Added {
        /// The file.
        #[serde(serialize_with = "crate::paths::serialize_lossy")]
        path: PathBuf,
        /// Its document.
        doc_id: i64,
    },
    /// A changed file was imported again.
    Updated {
        /// The file.
        #[serde(serialize_with = "crate::paths::serialize_lossy")]
        path: PathBuf,
        /// Its new document id.
        doc_id: i64,
    },
    /// A file was renamed or moved; its document now points at the new path.
    Renamed {
        /// Where it was.
        #[serde(serialize_with = "crate::paths::serialize_lossy")]
        from: PathBuf,
        /// Where it is.
        #[serde(serialize_with = "crate::paths::serialize_lossy")]
        to: PathBuf,
        /// Its document.
        doc_id: i64,
    },
    /// A file was deleted; its document left the index.
    Removed {
        /// The file it came from.
        #[serde(serialize_with = "crate::paths::serialize_lossy")]
        path: PathBuf,
    },
    /// A new file holds the same text as another document; it is not indexed twice.
    Duplicate {
        /// The file.
        #[serde(serialize_with = "crate::paths::serialize_lossy")]
        path: PathBuf,
        /// The file it duplicates.
        #[serde(serialize_with = "crate::paths::serialize_lossy")]
        of: PathBuf,
    },
    /// A file could not be read.
    Failed {
        /// The file.
        #[serde(serialize_with = "crate::paths::serialize_lossy")]
        path: PathBuf,
        /// Why, in English words a user understands.
        reason: String,
        /// The same as a code, for the user's language.
        why: crate::problem::Problem,
    },
}

impl Change {
    /// One line for a terminal: `updated  /path/to/file.docx`.
    pub fn line(&self) -> String {
        match self {
            Self::Added { path, .. } => format!("added    {}", path.display()),
            Self::Updated { path, .. } => format!("updated  {}", path.display()),
            Self::Renamed { from, to, .. } => {
                format!("renamed  {} -> {}", from.display(), to.display())
            }
            Self::Removed { path } => format!("removed  {}", path.display()),
            Self::Duplicate { path, of } => {
                format!(
                    "same as  {} (already indexed as {})",
                    path.display(),
                    of.display()
                )
            }
            Self::Failed { path, reason, .. } => {
                format!("failed   {}: {reason}", path.display())
            }
        }
    }
}

/// Counts of a pass's changes, for a one-line summary ("updated 2 · removed 1").
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct ChangeCounts {
    /// New files imported.
    pub added: usize,
    /// Changed files imported again.
    pub updated: usize,
    /// Files renamed or moved.
    pub renamed: usize,
    /// Deleted files removed from the index.
    pub removed: usize,
    /// New files that duplicate an indexed one.
    pub duplicates: usize,
    /// Files that could not be read.
    pub failed: usize,
}

/// How long a file must have been left alone before it is read. A file being written
/// in pieces (a save in progress, a copy still arriving) can look complete between two
/// pieces, and no check of the bytes can tell; a file nobody has touched for a second
/// is taken as saved. Files still settling are left for the next pass.
pub const SETTLE: Duration = Duration::from_secs(1);

impl ChangeCounts {
    /// The counts of `changes`.
    pub fn of(changes: &[Change]) -> Self {
        let mut counts = Self::default();
        for change in changes {
            match change {
                Change::Added { .. } => counts.added += 1,
                Change::Updated { .. } => counts.updated += 1,
                Change::Renamed { .. } => counts.renamed += 1,
                Change::Removed { .. } => counts.removed += 1,
                Change::Duplicate { .. } => counts.duplicates += 1,
                Change::Failed { .. } => counts.failed += 1,
            }
        }
        counts
    }
}

/// What a pass did.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize)]
pub struct SyncReport {
    /// Every change, in the order made.
    pub changes: Vec<Change>,
    /// The same, counted.
    pub counts: ChangeCounts,
    /// Watched folders that are not there (their documents are kept, marked missing).
    #[serde(serialize_with = "crate::paths::serialize_lossy_vec")]
    pub unreachable: Vec<PathBuf>,
    /// Files changed too recently to be read yet (see [`SETTLE`]): run another pass
    /// after a moment ([`Syncer::run_settled`] does).
    #[serde(serialize_with = "crate::paths::serialize_lossy_vec")]
    pub pending: Vec<PathBuf>,
    /// Files looked at and found as indexed.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub unchanged: usize,
    /// Wall-clock time.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub elapsed_ms: u128,
    /// Embedding of new chunks, when an embeddings server is set up.
    pub embedding: Option<EmbedOutcome>,
}

impl SyncReport {
    /// Whether the pass changed the index.
    pub fn changed_index(&self) -> bool {
        let c = &self.counts;
        c.added + c.updated + c.renamed + c.removed > 0
    }
}

/// Size and modification time: how a file is known to be the same without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
}

impl Stamp {
    fn of(path: &Path) -> Option<Self> {
        let meta = std::fs::metadata(path).ok()?;
        Some(Self {
            len: meta.len(),
            modified: meta.modified().ok(),
        })
    }

    /// Whether the file was written less than [`SETTLE`] ago (a time in the future,
    /// from a skewed clock on a share, is not waited for).
    fn settling(&self) -> bool {
        self.modified
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .is_some_and(|age| age < SETTLE)
    }

    fn unix_secs(&self) -> Option<i64> {
        self.modified
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_secs() as i64)
    }
}

/// Runs sync passes; remembers the files that failed or duplicate another document, so
/// they are read (and reported) again only once they change.
pub struct Syncer {
    options: ImportOptions,
    left_out: HashMap<PathBuf, Stamp>,
}

impl Syncer {
    /// A syncer that imports with `options`.
    pub fn new(options: ImportOptions) -> Self {
        Self {
            options,
            left_out: HashMap::new(),
        }
    }

    /// The switch that stops the passes from now on (`None`: none). A file whose
    /// reading was stopped is left out until it changes (or is imported by hand), so
    /// the next pass does not start reading it again.
    pub fn set_cancel(&mut self, cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) {
        self.options.cancel = cancel;
    }

    /// Makes the index equal to the `watched` folders and files (see the module docs).
    pub fn run(
        &mut self,
        store: &mut Store,
        list: &WatchList,
        observer: &mut dyn FnMut(ImportEvent<'_>),
    ) -> Result<SyncReport> {
        let started = Instant::now();
        let watched = &list.roots;
        let docs = store.documents()?;
        let indexed: HashMap<&Path, &DocumentRecord> =
            docs.iter().map(|d| (d.path.as_path(), d)).collect();

        // A watched path that is gone: a deleted file, or an unreachable folder.
        let mut present = Vec::new();
        let mut unreachable = Vec::new();
        let mut deleted_roots = Vec::new();
        for root in watched {
            if root.exists() {
                present.push(root.clone());
            } else if indexed.contains_key(root.as_path()) {
                deleted_roots.push(root.clone());
            } else if is_document(root) {
                // A watched file deleted (and removed) earlier: nothing is missing.
            } else {
                unreachable.push(root.clone());
            }
        }
        let (files, walk_failures) = collect_files(&present);
        let files: Vec<PathBuf> = files
            .into_iter()
            .filter(|f| is_document(f) && !list.excluded.contains(f))
            .collect();
        let on_disk: HashSet<&Path> = files.iter().map(PathBuf::as_path).collect();
        let within = |p: &Path, roots: &[PathBuf]| roots.iter().any(|r| p.starts_with(r));
        let mut gone: Vec<&DocumentRecord> = docs
            .iter()
            .filter(|d| {
                (within(&d.path, &present) && !on_disk.contains(d.path.as_path()))
                    || deleted_roots.contains(&d.path)
            })
            .collect();

        let mut changes = Vec::new();
        let mut unchanged = 0;
        let mut candidates = Vec::new();
        let mut new_files = Vec::new();
        let mut pending = Vec::new();
        for file in &files {
            let stamp = Stamp::of(file);
            if stamp.is_some() && self.left_out.get(file) == stamp.as_ref() {
                // Failed (or duplicated another) before and not changed since: reported
                // then, not again.
                continue;
            }
            if stamp.is_some_and(|s| s.settling()) {
                pending.push(file.clone());
                continue;
            }
            match indexed.get(file.as_path()) {
                Some(doc) if stamp.is_some_and(|s| as_imported(doc, &s)) => unchanged += 1,
                Some(_) => candidates.push(file.clone()),
                None => new_files.push(file.clone()),
            }
        }

        // A file still being written may be the new name of one that vanished (a save
        // by rename): nothing goes until it has settled.
        if !pending.is_empty() {
            gone.clear();
        }
        // Renames: a new file with the exact bytes of one that vanished.
        if !gone.is_empty() {
            follow_renames(
                store,
                &mut gone,
                &mut new_files,
                &mut candidates,
                &mut changes,
            )?;
        }
        candidates.append(&mut new_files);

        for doc in gone {
            if store.remove_document(doc.id)? {
                changes.push(Change::Removed {
                    path: doc.path.clone(),
                });
            }
        }

        let embedding = if candidates.is_empty() {
            None
        } else {
            self.import(store, &candidates, observer, &mut changes, &mut unchanged)?
        };
        for report in walk_failures {
            if let Outcome::Failed { reason, why } = report.outcome {
                changes.push(Change::Failed {
                    path: report.path,
                    reason,
                    why,
                });
            }
        }
        Ok(SyncReport {
            counts: ChangeCounts::of(&changes),
            changes,
            unreachable,
            pending,
            unchanged,
            elapsed_ms: started.elapsed().as_millis(),
            embedding,
        })
    }

    /// Imports the new and changed `candidates`, noting each change and leaving out
    /// (until they change) the files that failed or duplicate another.
    fn import(
        &mut self,
        store: &mut Store,
        candidates: &[PathBuf],
        observer: &mut dyn FnMut(ImportEvent<'_>),
        changes: &mut Vec<Change>,
        unchanged: &mut usize,
    ) -> Result<Option<crate::import::EmbedOutcome>> {
        let summary = Importer::new(self.options.clone()).run(store, candidates, observer)?;
        for report in summary.files {
            let path = report.path;
            match report.outcome {
                Outcome::Imported {
                    doc_id, replaced, ..
                } => {
                    self.left_out.remove(&path);
                    changes.push(if replaced {
                        Change::Updated { path, doc_id }
                    } else {
                        Change::Added { path, doc_id }
                    });
                }
                Outcome::Unchanged { .. } => *unchanged += 1,
                Outcome::Duplicate { of } => {
                    self.leave_out(&path);
                    changes.push(Change::Duplicate { path, of });
                }
                Outcome::Skipped {
                    why: crate::problem::Problem::Cancelled,
                    ..
                } => {
                    self.leave_out(&path);
                }
                Outcome::Skipped { .. } => {}
                Outcome::Failed { reason, why } => {
                    self.leave_out(&path);
                    changes.push(Change::Failed { path, reason, why });
                }
            }
        }
        Ok(summary.embedding)
    }

    fn leave_out(&mut self, path: &Path) {
        if let Some(stamp) = Stamp::of(path) {
            self.left_out.insert(path.to_owned(), stamp);
        }
    }

    /// Runs passes until no file is still settling (at most [`SETTLE_LIMIT`]), and
    /// reports them as one: what `evident sync` does.
    pub fn run_settled(
        &mut self,
        store: &mut Store,
        watched: &WatchList,
        observer: &mut dyn FnMut(ImportEvent<'_>),
    ) -> Result<SyncReport> {
        let started = Instant::now();
        let mut report = self.run(store, watched, observer)?;
        while !report.pending.is_empty() && started.elapsed() < SETTLE_LIMIT {
            std::thread::sleep(SETTLE / 2);
            let next = self.run(store, watched, observer)?;
            report.changes.extend(next.changes);
            report.counts = ChangeCounts::of(&report.changes);
            report.pending = next.pending;
            report.unchanged = next.unchanged;
            report.embedding = next.embedding.or(report.embedding);
        }
        report.elapsed_ms = started.elapsed().as_millis();
        Ok(report)
    }
}

/// How long [`Syncer::run_settled`] waits for files that keep changing; they are then
/// left as pending.
pub const SETTLE_LIMIT: Duration = Duration::from_secs(30);

/// Whether `doc` is known to hold the file with this stamp without reading it: same size
/// and time, chunked by this version, and the file's time strictly before the import's
/// second (a file saved in the very second it was imported may have changed unseen).
fn as_imported(doc: &DocumentRecord, stamp: &Stamp) -> bool {
    let secs = stamp.unix_secs();
    u64::try_from(doc.size_bytes).is_ok_and(|n| n == stamp.len)
        && secs.is_some_and(|s| doc.mtime == Some(s) && s < doc.imported_at)
        && doc.chunker_version == CHUNKER_VERSION
}

/// Files a watched folder holds that Evident reads (an old `.doc` included, so that it
/// is reported). Office's owner files (`~$Policy.docx`) are not documents.
fn is_document(path: &Path) -> bool {
    let owner_file = path
        .file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with("~$"));
    let old_word = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("doc"));
    !owner_file && (DocumentKind::from_path(path).is_some() || old_word)
}

/// Files that vanished and came back under a new name with the same bytes are moved,
/// not removed and imported again: the new files that are renames leave `new_files`
/// and `gone`; the rest of `new_files` become `candidates`.
fn follow_renames(
    store: &mut Store,
    gone: &mut Vec<&DocumentRecord>,
    new_files: &mut Vec<PathBuf>,
    candidates: &mut Vec<PathBuf>,
    changes: &mut Vec<Change>,
) -> Result<()> {
    let mut by_sha: HashMap<&str, usize> = HashMap::new();
    for (i, d) in gone.iter().enumerate() {
        by_sha.entry(d.sha256.as_str()).or_insert(i);
    }
    let mut moved = HashSet::new();
    for file in new_files.drain(..) {
        let sha = read_capped(
            file.as_path(),
            limits::MAX_PDF_BYTES,
            crate::problem::Limited::Pdf,
        )
        .ok()
        .map(|b| sha256_hex(&b));
        match sha.as_deref().and_then(|s| by_sha.remove(s)) {
            Some(i) => {
                let doc = gone[i];
                let mtime = Stamp::of(&file).and_then(|s| s.unix_secs());
                store.move_document(doc.id, &file, mtime)?;
                changes.push(Change::Renamed {
                    from: doc.path.clone(),
                    to: file.clone(),
                    doc_id: doc.id,
                });
                moved.insert(doc.id);
            }
            None => candidates.push(file),
        }
    }
    gone.retain(|d| !moved.contains(&d.id));
    Ok(())
}
