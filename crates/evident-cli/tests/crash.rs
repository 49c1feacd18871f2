//! Crash safety: SIGKILL a large import, or a sync of a changed folder, at random
//! moments; afterwards the database must pass `PRAGMA integrity_check`, hold no partial
//! document, and a re-import (or the next sync) must finish.

mod common;

use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The two tests time their kills from a run of their own: run side by side, each
/// would slow the other and its kills would land late.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

#[test]
fn killed_imports_leave_a_consistent_database() {
    let _serial = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = tempfile::tempdir().expect("tmp");
    let input = dir.path().join("docs");
    std::fs::create_dir_all(&input).expect("mkdir");
    // Many documents, a few of them large, so kills land inside transactions.
    let para = "第一条 员工出差住宿标准按城市级别执行,超出部分由员工自行承担。Travel must be approved in advance.\n\n";
    // Every round changes every file, so each import replaces documents (the atomic
    // replace path) and runs long enough to be killed mid-way.
    let write_docs = |round: usize| {
        for i in 0..120 {
            let size = if i % 20 == 0 { 4000 } else { 40 };
            let body = format!("# 文档 {i}\n\n修订 {round}。\n\n{}", para.repeat(size));
            std::fs::write(input.join(format!("doc-{i:03}.md")), body).expect("write");
        }
    };
    let db = dir.path().join("db.sqlite3");
    // Kill times are spread over the length of a whole import, measured here, so that
    // kills land mid-way however fast this machine (or this build) imports.
    write_docs(0);
    let started = Instant::now();
    let probe = common::evident(
        &dir.path().join("probe.sqlite3"),
        &["import", &input.to_string_lossy()],
    );
    assert!(probe.status.success(), "a whole import runs");
    let whole = started.elapsed();
    let mut killer = Killer::new(0x9E37_79B9_7F4A_7C15, whole);
    for round in 0..24 {
        write_docs(round);
        killer.run_and_kill(&db, &["import", &input.to_string_lossy()]);
        check(&db, round);
        if round % 6 == 5 {
            // Start over now and then so kills also hit early, fast imports.
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
            }
        }
    }
    assert!(
        killer.kills >= 20,
        "at least 20 imports must have been killed mid-way, got {}",
        killer.kills
    );
    let out = Command::new(common::bin())
        .arg("--db")
        .arg(&db)
        .arg("import")
        .arg(&input)
        .output()
        .expect("re-import");
    assert!(
        out.status.success(),
        "a re-import completes: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    check(&db, 99);
    assert_eq!(common::count(&db, "SELECT count(*) FROM documents"), 120);
}

#[test]
fn killed_syncs_leave_a_consistent_database_and_the_next_sync_finishes() {
    let _serial = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = tempfile::tempdir().expect("tmp");
    let input = dir.path().join("docs");
    std::fs::create_dir_all(&input).expect("mkdir");
    let para = "第二条 年休假天数按累计工作年限计算。Leave is granted by the manager.\n\n";
    // Each round rewrites most files, deletes a few and adds a few: every kind of
    // write a sync makes (replace, remove, add) is in flight when the kill lands.
    let write_docs = |round: usize| {
        for i in 0..100 {
            let path = input.join(format!("doc-{i:03}.md"));
            if (i + round).is_multiple_of(17) {
                let _ = std::fs::remove_file(&path);
                continue;
            }
            let size = if i % 20 == 0 { 3000 } else { 30 };
            let body = format!("# 文档 {i}\n\n修订 {round}。\n\n{}", para.repeat(size));
            std::fs::write(&path, body).expect("write");
        }
        // Files are read once left alone for a second (a save in progress is never
        // read); wait that out so the kill lands in the writing, not the waiting.
        std::thread::sleep(Duration::from_millis(1100));
    };
    let db = dir.path().join("db.sqlite3");
    write_docs(0);
    let import = common::evident(&db, &["import", &input.to_string_lossy()]);
    assert!(
        import.status.success(),
        "the folder imports and is remembered"
    );
    write_docs(1);
    let started = Instant::now();
    let probe = common::evident(&db, &["sync"]);
    assert!(
        probe.status.success(),
        "a whole sync runs: {}",
        String::from_utf8_lossy(&probe.stderr)
    );
    let whole = started.elapsed();
    let mut killer = Killer::new(0x2545_F491_4F6C_DD1D, whole);
    for round in 2..14 {
        write_docs(round);
        killer.run_and_kill(&db, &["sync"]);
        check(&db, round);
    }
    assert!(
        killer.kills >= 8,
        "at least 8 syncs must have been killed mid-way, got {}",
        killer.kills
    );
    let out = common::evident(&db, &["sync"]);
    assert!(
        out.status.success(),
        "the next sync completes: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    check(&db, 99);
    let on_disk = std::fs::read_dir(&input).expect("dir").count() as i64;
    assert_eq!(
        common::count(&db, "SELECT count(*) FROM documents"),
        on_disk
    );
    assert_eq!(
        common::count(
            &db,
            "SELECT count(*) FROM chunks WHERE text LIKE '%修订 13。%'"
        ),
        on_disk,
        "every document holds the last revision"
    );
}

/// Runs `evident` and SIGKILLs it at a pseudo-random moment between 15 % (the process
/// has started) and 85 % of `whole`, the time a whole run took here, so that kills
/// land mid-way however fast this machine (or this build) is.
struct Killer {
    seed: u64,
    whole: Duration,
    kills: usize,
}

impl Killer {
    fn new(seed: u64, whole: Duration) -> Self {
        Self {
            seed,
            whole,
            kills: 0,
        }
    }

    fn run_and_kill(&mut self, db: &std::path::Path, args: &[&str]) {
        let mut child = Command::new(common::bin())
            .arg("--db")
            .arg(db)
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn evident");
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        let spread = (self.seed % 1000) as f64 / 1000.0 * 0.7;
        let delay = self.whole.mul_f64(0.15 + spread);
        let start = Instant::now();
        while start.elapsed() < delay {
            if child.try_wait().ok().flatten().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        if child.try_wait().ok().flatten().is_none() {
            child.kill().expect("SIGKILL");
            self.kills += 1;
        }
        let _ = child.wait();
    }
}

fn check(db: &std::path::Path, round: usize) {
    if !db.exists() {
        return;
    }
    let conn = rusqlite::Connection::open(db).expect("open");
    let integrity: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("integrity_check");
    assert_eq!(integrity, "ok", "round {round}");
    let has_meta: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE name = 'documents'",
            [],
            |r| r.get(0),
        )
        .expect("schema");
    if has_meta == 0 {
        return;
    }
    // Every document is complete: pages, chunks and one index row per chunk.
    let partial: i64 = conn
        .query_row(
            "SELECT count(*) FROM documents d
             WHERE NOT EXISTS (SELECT 1 FROM pages p WHERE p.doc_id = d.id)
                OR NOT EXISTS (SELECT 1 FROM chunks c WHERE c.doc_id = d.id)",
            [],
            |r| r.get(0),
        )
        .expect("partial docs");
    assert_eq!(
        partial, 0,
        "round {round}: a document without pages or chunks"
    );
    // Every document is whole: its chunks are numbered 0, 1, 2 … without a gap, each
    // is the document's own text at its offsets, and together they cover all of it
    // but white space (a killed import must not leave half a document's chunks).
    let mut docs = conn.prepare("SELECT id FROM documents").expect("prepare");
    let ids: Vec<i64> = docs
        .query_map([], |r| r.get(0))
        .expect("ids")
        .collect::<Result<_, _>>()
        .expect("ids");
    for id in ids {
        let text: String = conn
            .query_row(
                "SELECT coalesce(group_concat(text, ''), '') FROM (SELECT text FROM pages WHERE doc_id = ?1 ORDER BY page_no)",
                [id],
                |r| r.get(0),
            )
            .expect("pages");
        let chars: Vec<char> = text.chars().collect();
        let mut stmt = conn
            .prepare("SELECT ordinal, char_start, char_end, text FROM chunks WHERE doc_id = ?1 ORDER BY ordinal")
            .expect("prepare");
        let chunks: Vec<(i64, usize, usize, String)> = stmt
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .expect("chunks")
            .collect::<Result<_, _>>()
            .expect("chunks");
        let mut covered_to = 0usize;
        for (i, (ordinal, start, end, chunk_text)) in chunks.iter().enumerate() {
            assert_eq!(
                *ordinal, i as i64,
                "round {round}: document {id}'s chunk ordinals skip"
            );
            assert!(
                start <= end && *end <= chars.len(),
                "round {round}: document {id} chunk {i} lies outside its text"
            );
            let at: String = chars[*start..*end].iter().collect();
            assert_eq!(
                &at, chunk_text,
                "round {round}: document {id} chunk {i} is not the text at its offsets"
            );
            let gap: String = chars[covered_to.min(*start)..*start].iter().collect();
            assert!(
                gap.trim().is_empty(),
                "round {round}: document {id} has text no chunk holds: {gap:?}"
            );
            covered_to = covered_to.max(*end);
        }
        let rest: String = chars[covered_to.min(chars.len())..].iter().collect();
        assert!(
            rest.trim().is_empty(),
            "round {round}: document {id} ends with text no chunk holds: {rest:?}"
        );
    }
    let chunks = common::count(db, "SELECT count(*) FROM chunks");
    let index = common::count(db, "SELECT count(*) FROM chunk_index_docsize");
    assert_eq!(chunks, index, "round {round}: index rows match chunks");
}
