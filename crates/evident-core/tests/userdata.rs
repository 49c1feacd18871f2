//! The user's history and feedback against what replaces the index: a rebuild, a
//! damaged index, and an index from an older version that still holds the history.
//! Real SQLite files, real sample documents.

use std::path::{Path, PathBuf};

use evident_core::answer::{AskOptions, ask};
use evident_core::extract::pdf::PdfReader;
use evident_core::import::{ImportOptions, Importer, rebuild};
use evident_core::search::Aliases;
use evident_core::store::Store;
use evident_core::userdata::{HistoryEntry, UserData};

fn samples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples")
}

fn options() -> ImportOptions {
    ImportOptions::with_reader(PdfReader::InProcess)
}

fn history(db: &Path) -> Vec<HistoryEntry> {
    UserData::open_for(db)
        .expect("history opens")
        .history(100)
        .expect("history reads")
}

#[test]
fn history_and_feedback_survive_a_rebuild_and_a_damaged_index() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("evident.sqlite3");
    {
        let mut store = Store::open(&db).expect("index opens");
        Importer::new(options())
            .run(&mut store, &[samples()], &mut |_| {})
            .expect("import runs");
        let mut user = UserData::open_for(&db).expect("history opens");
        for (q, feedback) in [
            ("病假工资怎么发？", Some(-1)),
            ("How many days of parental leave do I get?", Some(1)),
        ] {
            let answer =
                ask(&store, q, &Aliases::default(), &AskOptions::default()).expect("ask runs");
            let id = user.record_answer(&answer).expect("recorded");
            user.set_feedback(id, feedback).expect("feedback");
        }
    }
    let before = history(&db);
    assert_eq!(before.len(), 2);
    assert_eq!(
        before.iter().filter_map(|e| e.feedback).sum::<i64>(),
        0,
        "{before:?}"
    );

    let report = rebuild(&db, &options(), &mut |_| {}).expect("rebuild runs");
    assert!(report.summary.count(|o| o.is_imported()) > 0);
    assert_eq!(
        history(&db),
        before,
        "a rebuild keeps every question and its feedback"
    );

    std::fs::write(&db, b"not a database at all ".repeat(400)).expect("damage the index");
    for side in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{side}", db.display()));
    }
    assert!(Store::open(&db).is_err(), "the damage is detected");
    let report = rebuild(&db, &options(), &mut |_| {}).expect("rebuild from damage runs");
    assert!(report.broken_copy.is_some());
    assert_eq!(
        history(&db),
        before,
        "so does the way out of a damaged index"
    );
    let user = UserData::open_for(&db).expect("opens");
    let again = user
        .history_answer(before[0].id)
        .expect("reads")
        .expect("the stored answer is there");
    assert_eq!(again.question, before[0].question);
}

#[test]
fn history_in_an_index_from_an_older_version_is_carried_over_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("evident.sqlite3");
    let answer = {
        let mut store = Store::open(&db).expect("index opens");
        Importer::new(options())
            .run(&mut store, &[samples()], &mut |_| {})
            .expect("import runs");
        ask(
            &store,
            "病假工资怎么发？",
            &Aliases::default(),
            &AskOptions::default(),
        )
        .expect("ask runs")
    };
    // What older versions wrote: the history table of the index itself.
    let conn = rusqlite::Connection::open(&db).expect("raw connection");
    conn.execute(
        "INSERT INTO history (id, asked_at, question, status, answer, feedback) VALUES (7, 1700000000, ?1, 'answered', ?2, 1)",
        rusqlite::params![answer.question, serde_json::to_string(&answer).expect("json")],
    )
    .expect("legacy row");
    drop(conn);

    // A rebuild is the first thing to run: the row must be safe before the index goes.
    rebuild(&db, &options(), &mut |_| {}).expect("rebuild runs");
    let entries = history(&db);
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!((entries[0].id, entries[0].feedback), (7, Some(1)));
    assert_eq!(
        history(&db).len(),
        1,
        "carried over once, not on every open"
    );
}
