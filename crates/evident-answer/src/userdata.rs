//! The user's own records, kept apart from the index: past questions, their answers and
//! the thumbs up or down on them, in `history.sqlite3` beside the database.
//!
//! The index database is a cache of the source files: *Rebuild index* replaces it, and a
//! damaged one is moved aside and built again. What the user wrote there would go with
//! it, so it lives in its own file that neither ever touches (like `settings.json` and
//! `aliases.txt`, its neighbours).
//!
//! * Older versions kept the history in the index database. On first open, and before a
//!   rebuild replaces an index, its rows are carried over here (once, keeping their ids;
//!   from a damaged index as far as it can still be read).
//! * This file is checked when it is opened. A damaged one is kept aside as
//!   `history.sqlite3.broken-<unix time>`, the rows that can still be read are carried
//!   into a fresh file, and [`UserData::notices`] says so: history is never the reason
//!   the app cannot start.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension, params};

use crate::Answer;
use crate::{Error, Result};

/// File name of the user's records, beside the database.
pub const FILE_NAME: &str = "history.sqlite3";

/// Schema versions, in `PRAGMA user_version` (append; never edit a shipped one).
const MIGRATIONS: &[&str] = &[
    // 1: questions asked, their answers (JSON) and the user's feedback; `meta` remembers
    // one-time steps such as carrying the history over from an older index.
    r#"
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    ) STRICT;
    CREATE TABLE history (
        id        INTEGER PRIMARY KEY,
        asked_at  INTEGER NOT NULL,
        question  TEXT NOT NULL,
        status    TEXT NOT NULL,
        answer    TEXT NOT NULL,
        feedback  INTEGER CHECK (feedback IN (-1, 1))
    ) STRICT;
    CREATE INDEX history_asked_at ON history(asked_at);
    "#,
    // 2: the folders and files the user imported, which are kept in sync with the index,
    // and the files inside them the user removed from the Library (not to come back).
    r#"
    CREATE TABLE watched (
        path     TEXT PRIMARY KEY,
        added_at INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE excluded (
        path     TEXT PRIMARY KEY,
        added_at INTEGER NOT NULL
    ) STRICT;
    "#,
    // 3: watched and excluded paths are kept as their exact bytes (`paths::key`), not
    // as text: names that are not UTF-8 lost their bytes, so a removed file came back
    // with the next sync and two such names could be one row.
    r#"
    CREATE TABLE watched_v3 (
        path     BLOB PRIMARY KEY,
        added_at INTEGER NOT NULL
    ) STRICT;
    INSERT INTO watched_v3 SELECT CAST(path AS BLOB), added_at FROM watched;
    DROP TABLE watched;
    ALTER TABLE watched_v3 RENAME TO watched;
    CREATE TABLE excluded_v3 (
        path     BLOB PRIMARY KEY,
        added_at INTEGER NOT NULL
    ) STRICT;
    INSERT INTO excluded_v3 SELECT CAST(path AS BLOB), added_at FROM excluded;
    DROP TABLE excluded;
    ALTER TABLE excluded_v3 RENAME TO excluded;
    "#,
];

/// `meta` key set once the library's documents have been taken as watched files (for
/// an index made before folders were remembered).
const WATCH_SEEDED: &str = "watched_seeded_from_index";

/// `meta` key set once the index database's own history table has been carried over.
const CARRIED_OVER: &str = "history_carried_over_from_index";

/// One past question.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct HistoryEntry {
    /// Row id.
    pub id: i64,
    /// When it was asked (Unix seconds).
    pub asked_at: i64,
    /// The question.
    pub question: String,
    /// What the answer was (a row of unknown status reads as uncertain).
    pub status: crate::search::Outcome,
    /// +1 helpful, -1 not helpful, none yet.
    pub feedback: Option<i64>,
}

/// An open `history.sqlite3`.
pub struct UserData {
    conn: Connection,
    path: PathBuf,
    notices: Vec<String>,
}

impl UserData {
    /// Where the user's records for the database `db` live.
    pub fn path_for(db: &Path) -> PathBuf {
        db.with_file_name(FILE_NAME)
    }

    /// Opens the user's records beside the database `db` (creating them if needed) and
    /// carries over any history that `db` still holds from an older version.
    pub fn open_for(db: &Path) -> Result<Self> {
        let mut data = Self::open(&Self::path_for(db))?;
        data.carry_over_from_index(db)?;
        Ok(data)
    }

    /// Opens (creating if needed) the file at `path`; a damaged file is kept aside and
    /// replaced by a fresh one holding whatever rows could still be read.
    pub fn open(path: &Path) -> Result<Self> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        match open_checked(path) {
            Ok(conn) => Ok(Self {
                conn,
                path: path.to_owned(),
                notices: Vec::new(),
            }),
            Err(Error::DatabaseCorrupt { reason, .. }) => Self::recover(path, &reason),
            Err(e) => Err(e),
        }
    }

    fn recover(path: &Path, reason: &str) -> Result<Self> {
        let salvaged = read_history(path).unwrap_or_default();
        let aside = crate::aside::set_aside(path)?;
        let conn = open_checked(path)?;
        let mut data = Self {
            conn,
            path: path.to_owned(),
            notices: Vec::new(),
        };
        let kept = data.insert_rows(&salvaged)?;
        data.notices.push(format!(
            "{} was damaged ({reason}); it is kept as {}, and {kept} past question(s) were recovered from it",
            path.display(),
            aside.display()
        ));
        Ok(data)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What happened on open that the user should know (a damaged file recovered).
    pub fn notices(&self) -> &[String] {
        &self.notices
    }

    /// Copies the history table of the index database `db` (as kept by older versions)
    /// into this file, once; reads a damaged index as far as it can. Returns how many
    /// rows were added. Called on open and by a rebuild before it replaces `db`.
    pub fn carry_over_from_index(&mut self, db: &Path) -> Result<usize> {
        if self.meta(CARRIED_OVER)?.is_some() || !db.exists() {
            return Ok(0);
        }
        // No history table (a new index) or an unreadable file: nothing to carry.
        let rows = read_history(db).unwrap_or_default();
        let added = self.insert_rows(&rows)?;
        self.conn.execute(
            "INSERT INTO meta(key, value) VALUES (?1, ?2)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            params![CARRIED_OVER, added.to_string()],
        )?;
        Ok(added)
    }

    fn insert_rows(&mut self, rows: &[LegacyRow]) -> Result<usize> {
        let tx = self.conn.transaction()?;
        let mut added = 0;
        {
            let mut stmt = tx.prepare(
                "INSERT OR IGNORE INTO history (id, asked_at, question, status, answer, feedback)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            for r in rows {
                let feedback = r.feedback.map(i64::signum).filter(|f| *f != 0);
                added += stmt.execute(params![
                    r.id, r.asked_at, r.question, r.status, r.answer, feedback
                ])?;
            }
        }
        tx.commit()?;
        Ok(added)
    }

    fn meta(&self, key: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()?)
    }

    /// Records an answer; returns its history id.
    pub fn record_answer(&mut self, answer: &Answer) -> Result<i64> {
        self.conn.execute(
            "INSERT INTO history (asked_at, question, status, answer) VALUES (?1, ?2, ?3, ?4)",
            params![
                crate::clock::now(),
                answer.question,
                answer.status.as_str(),
                serde_json::to_string(answer)?
            ],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    /// The latest `limit` questions, newest first.
    pub fn history(&self, limit: usize) -> Result<Vec<HistoryEntry>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, asked_at, question, status, feedback FROM history
             ORDER BY asked_at DESC, id DESC LIMIT ?1",
        )?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = stmt.query_map([limit], |r| {
            let status: String = r.get(3)?;
            Ok(HistoryEntry {
                id: r.get(0)?,
                asked_at: r.get(1)?,
                question: r.get(2)?,
                status: crate::search::Outcome::parse(&status)
                    .unwrap_or(crate::search::Outcome::Uncertain),
                feedback: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The stored answer of history entry `id`.
    pub fn history_answer(&self, id: i64) -> Result<Option<Answer>> {
        let json: Option<String> = self
            .conn
            .query_row("SELECT answer FROM history WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?;
        Ok(match json {
            Some(j) => Some(serde_json::from_str(&j)?),
            None => None,
        })
    }

    /// Sets (+1 / -1) or clears (`None`) the feedback on history entry `id`; false when
    /// there is no such entry.
    pub fn set_feedback(&mut self, id: i64, feedback: Option<i64>) -> Result<bool> {
        let feedback = feedback.map(i64::signum).filter(|f| *f != 0);
        let changed = self.conn.execute(
            "UPDATE history SET feedback = ?2 WHERE id = ?1",
            params![id, feedback],
        )?;
        Ok(changed > 0)
    }
}

impl UserData {
    /// The folders and files kept in sync, in the order they were added.
    pub fn watched(&self) -> Result<Vec<PathBuf>> {
        let mut stmt = self
            .conn
            .prepare("SELECT path FROM watched ORDER BY added_at, path")?;
        let rows = stmt.query_map([], |r| r.get::<_, Vec<u8>>(0))?;
        Ok(rows
            .map(|r| r.map(key_path))
            .collect::<rusqlite::Result<_>>()?)
    }

    /// What to keep in sync: the watched paths and the files excluded from them.
    pub fn watch_list(&self) -> Result<WatchList> {
        let mut stmt = self
            .conn
            .prepare("SELECT path FROM excluded ORDER BY path")?;
        let rows = stmt.query_map([], |r| r.get::<_, Vec<u8>>(0))?;
        Ok(WatchList {
            roots: self.watched()?,
            excluded: rows
                .map(|r| r.map(key_path))
                .collect::<rusqlite::Result<_>>()?,
        })
    }

    /// Keeps a file the user removed from the Library out of it, though it sits in a
    /// watched folder; a watched file itself is simply no longer watched.
    pub fn exclude(&mut self, path: &Path) -> Result<()> {
        if self.unwatch(path)? {
            return Ok(());
        }
        if self.watched()?.iter().any(|root| path.starts_with(root)) {
            self.conn.execute(
                "INSERT OR IGNORE INTO excluded (path, added_at) VALUES (?1, ?2)",
                params![path_key(path), crate::clock::now()],
            )?;
        }
        Ok(())
    }

    /// Remembers `paths` (made absolute) to be kept in sync; a folder inside one already
    /// watched adds nothing. Importing a path again brings back what was excluded in it.
    /// Returns the paths newly remembered.
    pub fn watch(&mut self, paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
        let WatchList {
            roots: mut known,
            mut excluded,
        } = self.watch_list()?;
        let tx = self.conn.transaction()?;
        let mut added = Vec::new();
        for path in paths {
            let path = path.canonicalize().unwrap_or_else(|_| path.clone());
            for back in excluded.iter().filter(|e| e.starts_with(&path)) {
                tx.execute("DELETE FROM excluded WHERE path = ?1", [path_key(back)])?;
            }
            excluded.retain(|e| !e.starts_with(&path));
            if known.iter().any(|k| path.starts_with(k)) {
                continue;
            }
            // A folder that holds watched paths takes their place.
            for inner in known.iter().filter(|k| k.starts_with(&path)) {
                tx.execute("DELETE FROM watched WHERE path = ?1", [path_key(inner)])?;
            }
            known.retain(|k| !k.starts_with(&path));
            tx.execute(
                "INSERT OR IGNORE INTO watched (path, added_at) VALUES (?1, ?2)",
                params![path_key(&path), crate::clock::now()],
            )?;
            known.push(path.clone());
            added.push(path);
        }
        tx.commit()?;
        Ok(added)
    }

    /// Stops keeping `path` in sync; false if it was not watched.
    pub fn unwatch(&mut self, path: &Path) -> Result<bool> {
        let n = self
            .conn
            .execute("DELETE FROM watched WHERE path = ?1", [path_key(path)])?;
        Ok(n > 0)
    }

    /// The watched paths; the first time for an index made before folders were
    /// remembered, its documents' files (`indexed`, asked for only then) are taken as
    /// watched, so edits and deletions of them are noticed too.
    pub fn watched_or_seed(
        &mut self,
        indexed: impl FnOnce() -> Result<Vec<PathBuf>>,
    ) -> Result<Vec<PathBuf>> {
        if self.meta(WATCH_SEEDED)?.is_none() {
            if self.watched()?.is_empty() {
                self.watch(&indexed()?)?;
            }
            self.conn.execute(
                "INSERT INTO meta(key, value) VALUES (?1, '1')
                 ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [WATCH_SEEDED],
            )?;
        }
        self.watched()
    }
}

/// How the watched and excluded lists key a path: its exact bytes.
fn path_key(path: &Path) -> Vec<u8> {
    evident_model::paths::key(path)
}

fn key_path(bytes: Vec<u8>) -> PathBuf {
    evident_model::paths::from_key(bytes)
}

/// The folders and files kept in sync with the index.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WatchList {
    /// Watched folders (recursively) and files.
    pub roots: Vec<PathBuf>,
    /// Files inside them that the user removed from the Library.
    pub excluded: Vec<PathBuf>,
}

/// A history row as stored, in this file or an older index.
struct LegacyRow {
    id: i64,
    asked_at: i64,
    question: String,
    status: String,
    answer: String,
    feedback: Option<i64>,
}

/// The history rows of the file at `path`, read-only, as far as they can be read.
fn read_history(path: &Path) -> rusqlite::Result<Vec<LegacyRow>> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let mut stmt = conn.prepare(
        "SELECT id, asked_at, question, status, answer, feedback FROM history ORDER BY id",
    )?;
    let mut rows = stmt.query([])?;
    let mut out = Vec::new();
    // A damaged file can fail part way: keep what came before the damage.
    while let Ok(Some(r)) = rows.next() {
        let row = (|| {
            Ok::<_, rusqlite::Error>(LegacyRow {
                id: r.get(0)?,
                asked_at: r.get(1)?,
                question: r.get(2)?,
                status: r.get(3)?,
                answer: r.get(4)?,
                feedback: r.get(5)?,
            })
        })();
        if let Ok(row) = row {
            out.push(row);
        }
    }
    Ok(out)
}

fn open_checked(path: &Path) -> Result<Connection> {
    let corrupt = |e: rusqlite::Error| crate::store::as_corrupt(path, e);
    let mut conn = Connection::open(path).map_err(corrupt)?;
    conn.busy_timeout(Duration::from_secs(10))
        .map_err(corrupt)?;
    conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0))
        .map_err(corrupt)?;
    crate::store::quick_check(&conn, path)?;
    let current: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(corrupt)?;
    if current > MIGRATIONS.len() as i64 {
        return Err(Error::DatabaseTooNew {
            path: path.to_owned(),
            found: current,
            supported: MIGRATIONS.len() as i64,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
        tx.commit()?;
    }
    Ok(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_not_a_database_is_set_aside_and_replaced() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, b"this is not sqlite, just bytes ".repeat(200)).expect("write");
        let mut data = UserData::open(&path).expect("recovers");
        assert_eq!(data.notices().len(), 1, "{:?}", data.notices());
        assert!(
            data.notices()[0].contains("damaged"),
            "{:?}",
            data.notices()
        );
        assert!(data.history(10).expect("reads").is_empty());
        let aside: Vec<_> = std::fs::read_dir(dir.path())
            .expect("list")
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains(".broken-"))
            .collect();
        assert_eq!(aside.len(), 1, "the damaged file is kept aside");
        assert!(!data.set_feedback(99, Some(1)).expect("update runs"));
    }

    #[test]
    fn an_older_index_is_seeded_once_and_its_documents_listed_only_then() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut data = UserData::open(&dir.path().join(FILE_NAME)).expect("open");
        let file = dir.path().join("policy.md");
        std::fs::write(&file, "# P").expect("write");
        let mut asked = 0;
        let seeded = data
            .watched_or_seed(|| {
                asked += 1;
                Ok(vec![file.clone()])
            })
            .expect("seed");
        assert_eq!(seeded, [file.canonicalize().expect("canonical")]);
        let again = data
            .watched_or_seed(|| {
                asked += 1;
                Ok(Vec::new())
            })
            .expect("watched");
        assert_eq!(again, seeded);
        assert_eq!(asked, 1, "the index is listed for the seed only");
    }
}
