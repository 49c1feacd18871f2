//! The SQLite store: a crash-safe cache of what was extracted from the source files.
//!
//! * WAL mode, `foreign_keys=ON` and a busy timeout on every connection.
//! * One transaction per document: a document, its pages, chunks and index rows appear
//!   together or not at all, so a killed import leaves the previous state.
//! * On open the file is checked (`PRAGMA quick_check`); a damaged file or one that is
//!   not a database gives [`Error::DatabaseCorrupt`], whose message points to
//!   `evident rebuild`, which rebuilds from the source files (see `evident_core::import::rebuild`).
//! * The `meta` table pins the tokenizer and chunker versions. A tokenizer change re-indexes
//!   every chunk from its stored text on open; documents chunked by an older chunker are
//!   reported as needing a rebuild and are re-chunked on their next import. Nothing is
//!   silently mixed.

mod chunks;
mod documents;
mod migrations;
pub mod passage_text;
mod retrieval;
mod vectors;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OptionalExtension, params};

pub use chunks::{ChunkRecord, PageRecord};
pub use documents::{DocumentRecord, DocumentStatus, NewDocument, SourceFile, sha256_hex};
pub use retrieval::StoredPassage;
pub use vectors::{ChunkSentences, PassageMatrix, PendingChunk, SentenceVectors, VectorCoverage};

use crate::chunk::CHUNKER_VERSION;
use crate::{Error, Result};
use evident_text::segment::{TOKENIZER_NAME, TOKENIZER_VERSION};

/// An open Evident database.
pub struct Store {
    conn: Connection,
    path: PathBuf,
    notices: Vec<String>,
    /// Full-text rows of the open batch not yet in the index.
    pending_index: documents::PendingIndex,
    /// One model's passage vectors, kept until the database changes.
    vector_cache: std::sync::Mutex<Option<std::sync::Arc<PassageMatrix>>>,
}

/// Counts and versions of a database, for `evident stats`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Stats {
    /// Database file.
    pub path: PathBuf,
    /// Size of the database file (without WAL) in bytes.
    pub file_bytes: u64,
    /// Schema version.
    pub schema_version: i64,
    /// Tokenizer the index was built with.
    pub tokenizer: String,
    /// Chunker version new documents get.
    pub chunker_version: u32,
    /// Imported documents.
    pub documents: i64,
    /// Pages over all documents.
    pub pages: i64,
    /// Chunks (and index rows).
    pub chunks: i64,
    /// Index tokens over all chunks.
    pub tokens: i64,
    /// Documents chunked by an older chunker; `evident rebuild` redoes them.
    pub needs_rebuild: i64,
}

impl Store {
    /// Opens (creating if needed) the database at `path`, checks it and migrates it.
    pub fn open(path: &Path) -> Result<Self> {
        Self::open_checking(path, true)
    }

    /// [`Store::open`] without `PRAGMA quick_check`, which reads the whole file: for a
    /// caller that opens the same file again and again (the app's sync thread, every
    /// few seconds) and has checked it once already. A damaged page is still reported
    /// when a query meets it.
    pub fn open_checked_before(path: &Path) -> Result<Self> {
        Self::open_checking(path, false)
    }

    fn open_checking(path: &Path, check: bool) -> Result<Self> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        let corrupt = |e: rusqlite::Error| as_corrupt(path, e);
        let conn = Connection::open(path).map_err(corrupt)?;
        conn.busy_timeout(Duration::from_secs(10))
            .map_err(corrupt)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(corrupt)?;
        let mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(corrupt)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(Error::DatabaseCorrupt {
                path: path.to_owned(),
                reason: format!("cannot switch to WAL mode (journal mode is {mode})"),
            });
        }
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(corrupt)?;
        conn.pragma_update(None, "temp_store", "MEMORY")
            .map_err(corrupt)?;
        // Read through a memory map: the open-time quick_check and index scans then cost
        // no system call per page.
        conn.pragma_update(None, "mmap_size", 256i64 << 20)
            .map_err(corrupt)?;
        if check {
            quick_check(&conn, path)?;
        }
        let mut store = Self {
            conn,
            path: path.to_owned(),
            notices: Vec::new(),
            pending_index: Default::default(),
            vector_cache: Default::default(),
        };
        store.migrate()?;
        store.check_versions()?;
        store.fill_embed_keys()?;
        // Per-connection view of the index's term statistics, for query planning.
        store.conn.execute_batch(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunk_vocab
                 USING fts5vocab(main, chunk_index, 'row')",
        )?;
        Ok(store)
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Things that happened while opening (e.g. a re-index) that a user should see.
    pub fn notices(&self) -> &[String] {
        &self.notices
    }

    fn migrate(&mut self) -> Result<()> {
        let current: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?;
        let latest = migrations::latest();
        if current > latest {
            return Err(Error::DatabaseTooNew {
                path: self.path.clone(),
                found: current,
                supported: latest,
            });
        }
        if current == latest {
            return Ok(());
        }
        // A migration may rebuild a table that others refer to (SQLite's way to change a
        // constraint); with foreign keys on, dropping the old table would cascade. They
        // are checked inside each migration's transaction instead, and switched back on
        // whatever happens (the pragma is a no-op inside a transaction, so it is set here).
        self.conn.pragma_update(None, "foreign_keys", "OFF")?;
        let result = self.apply_migrations(current);
        self.conn.pragma_update(None, "foreign_keys", "ON")?;
        result
    }

    fn apply_migrations(&mut self, current: i64) -> Result<()> {
        for (i, sql) in migrations::MIGRATIONS
            .iter()
            .enumerate()
            .skip(current as usize)
        {
            let tx = self.conn.transaction()?;
            tx.execute_batch(sql)?;
            let broken: i64 =
                tx.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
                    r.get(0)
                })?;
            if broken > 0 {
                return Err(Error::DatabaseCorrupt {
                    path: self.path.clone(),
                    reason: format!(
                        "upgrading the index to schema {} left {broken} rows pointing at nothing",
                        i + 1
                    ),
                });
            }
            tx.pragma_update(None, "user_version", i as i64 + 1)?;
            tx.execute(
                "INSERT INTO meta(key, value) VALUES ('schema_version', ?1)
                 ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                params![(i + 1).to_string()],
            )?;
            tx.commit()?;
        }
        Ok(())
    }

    fn check_versions(&mut self) -> Result<()> {
        let stored = self.meta("tokenizer_version")?;
        let current = TOKENIZER_VERSION.to_string();
        if stored.as_deref() != Some(current.as_str()) {
            let chunks: i64 = self
                .conn
                .query_row("SELECT count(*) FROM chunks", [], |r| r.get(0))?;
            if chunks > 0 {
                self.reindex_all()?;
                self.notices.push(format!(
                    "the search index was built by tokenizer version {}; re-indexed {chunks} chunks with version {current}",
                    stored.as_deref().unwrap_or("?")
                ));
            }
            self.set_meta("tokenizer_version", &current)?;
            self.set_meta("tokenizer", TOKENIZER_NAME)?;
        }
        // Written only when it changes: opening a connection must not write, or it waits
        // for any writer (a sync pass, the embedding pass) and a click in the window
        // waited out the busy time-out behind one.
        let chunker = CHUNKER_VERSION.to_string();
        if self.meta("chunker_version")?.as_deref() != Some(chunker.as_str()) {
            self.set_meta("chunker_version", &chunker)?;
        }
        let stale: i64 = self.conn.query_row(
            "SELECT count(*) FROM documents WHERE chunker_version <> ?1",
            [CHUNKER_VERSION],
            |r| r.get(0),
        )?;
        if stale > 0 {
            self.notices.push(format!(
                "{stale} document(s) were split into chunks by an older version of Evident; run `evident rebuild` (or import them again) to redo them"
            ));
        }
        Ok(())
    }

    /// A value from the `meta` table.
    pub fn meta(&self, key: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()?)
    }

    fn set_meta(&self, key: &str, value: &str) -> Result<()> {
        self.conn.execute(
            "INSERT INTO meta(key, value) VALUES (?1, ?2)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            params![key, value],
        )?;
        Ok(())
    }

    /// Counts and versions.
    pub fn stats(&self) -> Result<Stats> {
        let count = |sql: &str| -> Result<i64> { Ok(self.conn.query_row(sql, [], |r| r.get(0))?) };
        Ok(Stats {
            path: self.path.clone(),
            file_bytes: std::fs::metadata(&self.path).map(|m| m.len()).unwrap_or(0),
            schema_version: count("PRAGMA user_version")?,
            tokenizer: format!(
                "{} (version {})",
                self.meta("tokenizer")?.unwrap_or_default(),
                self.meta("tokenizer_version")?.unwrap_or_default()
            ),
            chunker_version: CHUNKER_VERSION,
            documents: count("SELECT count(*) FROM documents")?,
            pages: count("SELECT count(*) FROM pages")?,
            chunks: count("SELECT count(*) FROM chunks")?,
            tokens: count("SELECT coalesce(sum(token_count), 0) FROM chunks")?,
            needs_rebuild: self.conn.query_row(
                "SELECT count(*) FROM documents WHERE chunker_version <> ?1",
                [CHUNKER_VERSION],
                |r| r.get(0),
            )?,
        })
    }

    /// Runs SQLite's full `integrity_check`; `Ok(())` when the file is sound.
    pub fn integrity_check(&self) -> Result<()> {
        let mut stmt = self.conn.prepare("PRAGMA integrity_check")?;
        let rows: Vec<String> = stmt
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        if rows.len() == 1 && rows[0] == "ok" {
            Ok(())
        } else {
            Err(Error::DatabaseCorrupt {
                path: self.path.clone(),
                reason: rows.join("; "),
            })
        }
    }

    /// The raw connection, for read-only queries by other core modules and tests.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }
}

/// Checks the database file at `path` (`PRAGMA quick_check`), as every store open does
/// (and the user's history file, which the core keeps beside it).
pub fn quick_check(conn: &Connection, path: &Path) -> Result<()> {
    let result: Result<Vec<String>, rusqlite::Error> = (|| {
        let mut stmt = conn.prepare("PRAGMA quick_check")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        rows.take(5).collect()
    })();
    match result {
        Ok(rows) if rows.len() == 1 && rows[0] == "ok" => Ok(()),
        Ok(rows) => Err(Error::DatabaseCorrupt {
            path: path.to_owned(),
            reason: rows.join("; "),
        }),
        Err(e) => Err(as_corrupt(path, e)),
    }
}

/// Maps "not a database" and "malformed" failures to [`Error::DatabaseCorrupt`].
pub fn as_corrupt(path: &Path, e: rusqlite::Error) -> Error {
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => Error::DatabaseCorrupt {
            path: path.to_owned(),
            reason: "the file is not an Evident database".into(),
        },
        Some(ErrorCode::DatabaseCorrupt) => Error::DatabaseCorrupt {
            path: path.to_owned(),
            reason: e.to_string(),
        },
        _ => Error::Sqlite(e),
    }
}

/// Char (Unicode scalar) offsets for byte offsets into `text`, in one pass.
pub(crate) fn char_offsets(text: &str, byte_offsets: &[usize]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..byte_offsets.len()).collect();
    order.sort_by_key(|&i| byte_offsets[i]);
    let mut out = vec![0; byte_offsets.len()];
    let mut chars = 0;
    let mut pos = 0;
    let mut iter = text.char_indices().peekable();
    for i in order {
        let target = byte_offsets[i].min(text.len());
        while pos < target {
            match iter.next() {
                Some((_, c)) => {
                    pos += c.len_utf8();
                    chars += 1;
                }
                None => break,
            }
        }
        out[i] = chars;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_offsets_count_scalars_not_bytes() {
        let text = "报销 policy 审批";
        let bytes = [0, 3, 6, 7, text.len()];
        assert_eq!(char_offsets(text, &bytes), vec![0, 1, 2, 3, 12]);
    }

    #[test]
    fn upgrading_to_word_documents_keeps_pages_chunks_and_their_index() {
        let dir = tempfile::tempdir().expect("tmp");
        let db = dir.path().join("v4.sqlite3");
        {
            // A database as schema 4 left it, with one document.
            let conn = Connection::open(&db).expect("open");
            for sql in &migrations::MIGRATIONS[..4] {
                conn.execute_batch(sql).expect("old schema");
            }
            conn.execute_batch(
                "PRAGMA user_version = 4;
                 INSERT INTO documents VALUES (1, '/p/a.md', 'markdown', 'A', 'x', 1, 0, 1, 0, 'indexed', '[]', 1);
                 INSERT INTO pages VALUES (1, 1, 0, 4, '年假五天');
                 INSERT INTO chunks(id, doc_id, ordinal, heading_path, page_start, page_end, char_start, char_end, token_count, sha256, text)
                   VALUES (7, 1, 0, '[]', 1, 1, 0, 4, 2, 'y', '年假五天');
                 INSERT INTO chunk_index(rowid, heading, body) VALUES (7, '', '年假 五天');",
            )
            .expect("old rows");
        }
        let store = Store::open(&db).expect("upgrades");
        let conn = store.connection();
        let count = |sql: &str| conn.query_row(sql, [], |r| r.get::<_, i64>(0)).expect(sql);
        assert_eq!(count("PRAGMA user_version"), migrations::latest());
        assert_eq!(
            count("SELECT count(*) FROM pages WHERE text = '年假五天' AND char_end = 4"),
            1,
            "pages survive the table rebuilds"
        );
        assert_eq!(
            count("SELECT wr FROM pragma_table_list WHERE name = 'pages'"),
            0,
            "pages are an ordinary rowid table from schema 11"
        );
        assert_eq!(count("SELECT count(*) FROM chunks"), 1);
        assert_eq!(
            count("SELECT count(*) FROM chunk_index WHERE chunk_index MATCH '五天'"),
            1
        );
        assert_eq!(count("PRAGMA foreign_keys"), 1, "foreign keys are back on");
        assert_eq!(
            store
                .document_by_path(Path::new("/p/a.md"))
                .expect("lookup")
                .map(|d| d.id),
            Some(1),
            "found by its path's key after the upgrade"
        );
        conn.execute(
            "INSERT INTO documents VALUES (2, '/p/b.docx', 'docx', 'B', 'z', 1, 0, 1, 0, 'indexed', '[]', 1, NULL, CAST('/p/b.docx' AS BLOB))",
            [],
        )
        .expect("Word documents are allowed");
        conn.execute("DELETE FROM documents WHERE id = 1", [])
            .expect("delete");
        assert_eq!(
            count("SELECT count(*) FROM chunks") + count("SELECT count(*) FROM pages"),
            0,
            "deletes still cascade"
        );
    }

    #[test]
    fn vectors_written_whole_before_passages_came_first_count_as_complete() {
        use crate::model::vector::to_blob;
        let dir = tempfile::tempdir().expect("tmp");
        let db = dir.path().join("v9.sqlite3");
        let text = "年假按工龄计算，满一年的员工享受五天。病假须提供医院开具的诊断证明。";
        let chars = text.chars().count();
        let spans = passage_text::sentence_spans(text);
        assert_eq!(spans.len(), 2, "{spans:?}");
        {
            // A database as schema 9 left it: one chunk with its passage and sentence
            // vectors (width 2).
            let conn = Connection::open(&db).expect("open");
            for sql in &migrations::MIGRATIONS[..9] {
                conn.execute_batch(sql).expect("old schema");
            }
            conn.execute_batch(&format!(
                "PRAGMA user_version = 9;
                 INSERT INTO documents VALUES (1, '/p/a.md', 'markdown', 'A', 'x', 1, 0, 1, 0, 'indexed', '[]', 1, NULL, CAST('/p/a.md' AS BLOB));
                 INSERT INTO pages(doc_id, page_no, char_start, char_end, text) VALUES (1, 1, 0, {chars}, '{text}');
                 INSERT INTO chunks(id, doc_id, ordinal, heading_path, page_start, page_end, char_start, char_end, token_count, sha256, text, embed_key)
                   VALUES (7, 1, 0, '[]', 1, 1, 0, {chars}, 12, 'y', '{text}', 'k');
                 INSERT INTO embedding_models VALUES (3, 'm', 2, x'', 'http://x', 0, '');"
            ))
            .expect("old rows");
            conn.execute(
                "INSERT INTO chunk_vectors (model_id, embed_key, passage, sentences, spans)
                 VALUES (3, 'k', ?1, ?2, ?3)",
                rusqlite::params![
                    to_blob([[0.6f32, 0.8].as_slice()]),
                    to_blob([[1.0f32, 0.0].as_slice(), [0.0f32, 1.0].as_slice()]),
                    serde_json::to_string(&spans).expect("json"),
                ],
            )
            .expect("old vectors");
        }
        let mut store = Store::open(&db).expect("upgrades");
        let whole = VectorCoverage {
            embedded: 1,
            sentences: 1,
            total: 1,
        };
        assert_eq!(store.vector_coverage(3).expect("coverage"), whole);
        assert!(
            store
                .chunks_missing_sentences(3, 10)
                .expect("pending")
                .is_empty(),
            "nothing is embedded again"
        );
        let found = store.sentence_vectors(3, 2, &[7]).expect("read");
        assert_eq!(found.get(&7).map(|v| v.spans.clone()), Some(spans.clone()));

        // From now on a passage vector is stored first: the chunk is found by meaning,
        // its sentences are not (the composer chooses by words), until they follow.
        store
            .connection()
            .execute("DELETE FROM chunk_vectors", [])
            .expect("clear");
        store
            .put_passage_vectors(3, &[("k".to_owned(), vec![0.6, 0.8])])
            .expect("passage");
        assert_eq!(
            store.vector_coverage(3).expect("coverage"),
            VectorCoverage {
                sentences: 0,
                ..whole
            }
        );
        assert_eq!(
            store.passage_matrix(3, 2, None).expect("matrix").chunk_ids,
            [7]
        );
        assert!(store.sentence_vectors(3, 2, &[7]).expect("read").is_empty());
        let pending = store.chunks_missing_sentences(3, 10).expect("pending");
        assert_eq!(pending.len(), 1);
        assert_eq!((pending[0].text.as_str(), pending[0].chunks), (text, 1));
        store
            .put_sentence_vectors(
                3,
                &[ChunkSentences {
                    embed_key: "k".into(),
                    spans: spans.clone(),
                    sentences: vec![vec![1.0, 0.0], vec![0.0, 1.0]],
                }],
            )
            .expect("sentences");
        assert_eq!(store.vector_coverage(3).expect("coverage"), whole);
        let found = store.sentence_vectors(3, 2, &[7]).expect("read");
        assert_eq!(
            found.get(&7).map(|v| v.data.clone()),
            Some(vec![1.0, 0.0, 0.0, 1.0])
        );
    }

    /// Opening a connection writes nothing once the file is up to date, so it does not
    /// wait for another connection's write transaction (the viewer's `locate_source`
    /// after a rebuild opened one while a sync pass wrote, and waited 10 s).
    #[test]
    fn opening_a_connection_does_not_wait_for_a_writer() {
        let dir = tempfile::tempdir().expect("tmp");
        let db = dir.path().join("db.sqlite3");
        let writer = Store::open(&db).expect("first open");
        writer
            .connection()
            .execute_batch("BEGIN IMMEDIATE; INSERT INTO meta(key, value) VALUES ('x', 'y');")
            .expect("a write transaction held open");
        let started = std::time::Instant::now();
        let second = Store::open(&db);
        assert!(
            second.is_ok(),
            "opened while another connection writes: {:?} after {:?}",
            second.err(),
            started.elapsed()
        );
        writer.connection().execute_batch("COMMIT").expect("commit");
    }
}
