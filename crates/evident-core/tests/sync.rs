//! Watched folders on real files in a temporary folder, with the real SQLite store and
//! the operating system's real change notifications: add, change, rename, delete, a
//! burst of 200 files, a file rewritten while it is being read, and a folder that goes
//! away.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use evident_core::extract::pdf::PdfReader;
use evident_core::import::ImportOptions;
use evident_core::store::{Store, sha256_hex};
use evident_core::sync::{Change, SyncReport, Syncer};
use evident_core::userdata::WatchList;
use evident_core::watch::{Wake, Watcher};

fn syncer() -> Syncer {
    Syncer::new(ImportOptions::with_reader(PdfReader::InProcess))
}

/// A pass once every file has settled (files written by the test are new).
fn pass(syncer: &mut Syncer, store: &mut Store, roots: &[PathBuf]) -> SyncReport {
    let list = WatchList {
        roots: roots.to_vec(),
        excluded: Vec::new(),
    };
    syncer
        .run_settled(store, &list, &mut |_| {})
        .expect("sync runs")
}

/// The index as (path → content hash), and the folder the same way: equal when in sync.
fn index_state(store: &Store) -> BTreeMap<PathBuf, String> {
    store
        .documents()
        .expect("documents")
        .into_iter()
        .map(|d| (d.path, d.sha256))
        .collect()
}

fn folder_state(dir: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    for e in walkdir::WalkDir::new(dir) {
        let e = e.expect("entry");
        if e.file_type().is_file() {
            let bytes = std::fs::read(e.path()).expect("read");
            out.insert(
                e.path().canonicalize().expect("canonical"),
                sha256_hex(&bytes),
            );
        }
    }
    out
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).expect("write");
}

fn setup() -> (tempfile::TempDir, PathBuf, Store) {
    let tmp = tempfile::tempdir().expect("tmp");
    let docs = tmp.path().join("policies");
    std::fs::create_dir_all(docs.join("hr")).expect("mkdir");
    let store = Store::open(&tmp.path().join("index.sqlite3")).expect("open");
    let docs = docs.canonicalize().expect("canonical");
    (tmp, docs, store)
}

#[test]
fn add_change_rename_and_delete_keep_the_index_equal_to_the_folder() {
    let (_tmp, docs, mut store) = setup();
    let roots = vec![docs.clone()];
    let mut s = syncer();
    write(
        &docs.join("leave.md"),
        "# 请假\n\n第八条 员工请假3天以内的，提前1个工作日申请。\n",
    );
    write(
        &docs.join("hr/travel.md"),
        "# Travel\n\nBook travel two weeks ahead.\n",
    );
    write(&docs.join("notes.xyz"), "not a document");
    let r = pass(&mut s, &mut store, &roots);
    assert_eq!(r.counts.added, 2, "{:?}", r.changes);
    assert_eq!(index_state(&store).len(), 2, "only documents are indexed");

    let again = pass(&mut s, &mut store, &roots);
    assert!(
        again.changes.is_empty(),
        "nothing changed: {:?}",
        again.changes
    );
    assert_eq!(again.unchanged, 2);

    // A new version of the policy, saved in place.
    std::thread::sleep(Duration::from_millis(1100));
    write(
        &docs.join("leave.md"),
        "# 请假\n\n第八条 员工请假3天以内的，提前2个工作日申请。\n",
    );
    let r = pass(&mut s, &mut store, &roots);
    assert!(
        matches!(&r.changes[..], [Change::Updated { path, .. }] if path.ends_with("leave.md")),
        "{:?}",
        r.changes
    );
    let text = store
        .chunks_of(
            store
                .document_by_path(&docs.join("leave.md"))
                .expect("q")
                .expect("doc")
                .id,
        )
        .expect("chunks")
        .iter()
        .map(|c| c.text.clone())
        .collect::<String>();
    assert!(
        text.contains("提前2个工作日"),
        "the new text is searchable: {text}"
    );
    assert!(!text.contains("提前1个工作日"), "and the old one is gone");

    // Renamed and moved: the same document, at its new path.
    let travel = store
        .document_by_path(&docs.join("hr/travel.md"))
        .expect("q")
        .expect("doc");
    std::fs::rename(docs.join("hr/travel.md"), docs.join("差旅.md")).expect("rename");
    let r = pass(&mut s, &mut store, &roots);
    assert!(
        matches!(&r.changes[..], [Change::Renamed { to, doc_id, .. }] if to.ends_with("差旅.md") && *doc_id == travel.id),
        "{:?}",
        r.changes
    );

    // Deleted.
    std::fs::remove_file(docs.join("leave.md")).expect("rm");
    let r = pass(&mut s, &mut store, &roots);
    assert!(
        matches!(&r.changes[..], [Change::Removed { path }] if path.ends_with("leave.md")),
        "{:?}",
        r.changes
    );
    std::fs::remove_file(docs.join("notes.xyz")).expect("rm");
    assert_eq!(index_state(&store), folder_state(&docs));
}

#[test]
fn a_failing_file_is_reported_once_until_it_changes() {
    let (_tmp, docs, mut store) = setup();
    let roots = vec![docs.clone()];
    let mut s = syncer();
    write(&docs.join("broken.docx"), "not a zip");
    let r = pass(&mut s, &mut store, &roots);
    assert!(
        matches!(&r.changes[..], [Change::Failed { reason, .. }] if reason.contains("not a readable .docx")),
        "{:?}",
        r.changes
    );
    assert!(
        pass(&mut s, &mut store, &roots).changes.is_empty(),
        "not reported again"
    );
    std::thread::sleep(Duration::from_millis(20));
    write(&docs.join("broken.docx"), "still not a zip, but changed");
    assert_eq!(
        pass(&mut s, &mut store, &roots).counts.failed,
        1,
        "tried again once changed"
    );
}

/// Cancel in the window stops a sync pass's reading too; the file it stopped is not
/// read again by the next pass (which would undo the cancel every two seconds), only
/// once it changes.
#[test]
fn a_file_whose_reading_was_cancelled_is_left_until_it_changes() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let (_tmp, docs, mut store) = setup();
    let roots = vec![docs.clone()];
    let mut s = syncer();
    write(
        &docs.join("scan.md"),
        "# Notice\n\nRead me when I change.\n",
    );
    let cancel = Arc::new(AtomicBool::new(true));
    s.set_cancel(Some(cancel.clone()));
    let r = pass(&mut s, &mut store, &roots);
    assert_eq!(r.counts.added, 0, "{:?}", r.changes);
    assert!(store.documents().expect("documents").is_empty());
    // The next pass has its own, unflipped switch.
    s.set_cancel(Some(Arc::new(AtomicBool::new(false))));
    let r = pass(&mut s, &mut store, &roots);
    assert_eq!(r.counts.added, 0, "not read again: {:?}", r.changes);
    std::thread::sleep(Duration::from_millis(20));
    write(
        &docs.join("scan.md"),
        "# Notice\n\nChanged, so read again.\n",
    );
    let r = pass(&mut s, &mut store, &roots);
    assert_eq!(r.counts.added, 1, "{:?}", r.changes);
}

#[test]
fn an_unreachable_folder_keeps_its_documents_and_a_deleted_watched_file_goes() {
    let (tmp, docs, mut store) = setup();
    let single = tmp.path().join("single.md");
    write(&single, "# One\n\nA single watched file.\n");
    let single = single.canonicalize().expect("canonical");
    write(&docs.join("a.md"), "# A\n\nAlpha.\n");
    let roots = vec![docs.clone(), single.clone()];
    let mut s = syncer();
    assert_eq!(pass(&mut s, &mut store, &roots).counts.added, 2);

    // The folder goes away (an unplugged drive): its documents stay.
    let away = tmp.path().join("elsewhere");
    std::fs::rename(&docs, &away).expect("move the folder away");
    let r = pass(&mut s, &mut store, &roots);
    assert_eq!(r.unreachable, std::slice::from_ref(&docs));
    assert!(r.changes.is_empty(), "{:?}", r.changes);
    assert_eq!(index_state(&store).len(), 2);

    // The single watched file is deleted: its document goes.
    std::fs::remove_file(&single).expect("rm");
    let r = pass(&mut s, &mut store, &roots);
    assert!(
        matches!(&r.changes[..], [Change::Removed { path }] if *path == single),
        "{:?}",
        r.changes
    );

    // The folder comes back, unchanged: nothing to do.
    std::fs::rename(&away, &docs).expect("move back");
    let r = pass(&mut s, &mut store, &roots);
    assert!(r.changes.is_empty() && r.unreachable.is_empty(), "{r:?}");
}

#[test]
fn a_file_rewritten_while_it_is_read_is_never_indexed_half_written() {
    let (_tmp, docs, mut store) = setup();
    let roots = vec![docs.clone()];
    let path = docs.join("handbook.md");
    // Each version is a whole document; a half-written one is a prefix of one.
    let version = |k: usize| {
        let mut s = format!("# Handbook version {k}\n\n");
        for i in 0..4000 {
            s.push_str(&format!(
                "Rule {i} of version {k}: leave is requested in advance.\n\n"
            ));
        }
        s.push_str(&format!("END OF VERSION {k}\n"));
        s
    };
    write(&path, &version(0));
    let mut s = syncer();
    pass(&mut s, &mut store, &roots);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (path, stop) = (path.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut k = 1;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                // In place, the way many editors and copy tools write: truncate, then
                // the new text in pieces.
                use std::io::Write;
                let mut f = std::fs::File::create(&path).expect("rewrite");
                for piece in version(k).as_bytes().chunks(16 << 10) {
                    f.write_all(piece).expect("write");
                    f.flush().expect("flush");
                }
                k += 1;
            }
            k - 1
        })
    };
    let started = Instant::now();
    let mut passes = 0;
    while started.elapsed() < Duration::from_secs(4) {
        let list = WatchList {
            roots: roots.clone(),
            excluded: Vec::new(),
        };
        s.run(&mut store, &list, &mut |_| {}).expect("sync runs");
        passes += 1;
        for doc in store.documents().expect("docs") {
            let text: String = store
                .chunks_of(doc.id)
                .expect("chunks")
                .last()
                .map(|c| c.text.clone())
                .unwrap_or_default();
            assert!(
                text.contains("END OF VERSION"),
                "pass {passes}: a half-written file was indexed (last chunk: {text:?})"
            );
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let last = writer.join().expect("writer");
    // Quiet now: the next passes settle on the last version.
    std::thread::sleep(Duration::from_millis(1100));
    let mut s = syncer();
    pass(&mut s, &mut store, &roots);
    assert_eq!(
        index_state(&store),
        folder_state(&docs),
        "{last} versions written"
    );
}

#[test]
fn the_watcher_sees_a_burst_of_200_changes_and_the_index_ends_equal() {
    let (_tmp, docs, mut store) = setup();
    let roots = vec![docs.clone()];
    let mut watcher = Watcher::with_delay(Duration::from_millis(200)).expect("watcher");
    assert!(watcher.set_paths(&roots).is_empty());
    let mut s = syncer();
    pass(&mut s, &mut store, &roots);
    for i in 0..200 {
        write(
            &docs.join(format!("hr/rule-{i:03}.md")),
            &format!("# Rule {i}\n\nRule number {i} applies.\n"),
        );
    }
    for i in (0..200).step_by(10) {
        std::fs::remove_file(docs.join(format!("hr/rule-{i:03}.md"))).expect("rm");
    }
    std::fs::rename(docs.join("hr/rule-001.md"), docs.join("moved.md")).expect("mv");
    // Follow the notifications as the app does, until they stop.
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut woke = 0;
    while Instant::now() < deadline {
        match watcher.wait(Duration::from_secs(2)) {
            Wake::Changed(paths) => {
                woke += 1;
                assert!(paths.iter().all(|p| p.starts_with(&docs)), "{paths:?}");
                pass(&mut s, &mut store, &roots);
            }
            Wake::Quiet => break,
            Wake::Closed => panic!("watcher closed"),
        }
    }
    assert!(woke >= 1, "the changes were noticed");
    assert!(
        woke <= 20,
        "a burst is folded into few passes, not 200 ({woke})"
    );
    assert_eq!(index_state(&store), folder_state(&docs));
    assert_eq!(index_state(&store).len(), 180);
    // Reading the files (our own passes) wakes nothing.
    pass(&mut s, &mut store, &roots);
    assert_eq!(watcher.wait(Duration::from_millis(800)), Wake::Quiet);
}

#[test]
fn a_file_removed_from_the_library_stays_out_until_imported_again() {
    let (tmp, docs, mut store) = setup();
    let mut user = evident_core::userdata::UserData::open(&tmp.path().join("history.sqlite3"))
        .expect("user data");
    user.watch(std::slice::from_ref(&docs)).expect("watch");
    write(&docs.join("a.md"), "# A\n\nAlpha rule.\n");
    write(&docs.join("b.md"), "# B\n\nBeta rule.\n");
    let mut s = syncer();
    let list = user.watch_list().expect("list");
    assert_eq!(
        s.run_settled(&mut store, &list, &mut |_| {})
            .expect("sync")
            .counts
            .added,
        2
    );
    // The user removes b.md in the Library.
    let b = store
        .document_by_path(&docs.join("b.md"))
        .expect("q")
        .expect("doc");
    store.remove_document(b.id).expect("remove");
    user.exclude(&b.path).expect("exclude");
    let list = user.watch_list().expect("list");
    assert_eq!(list.excluded, std::slice::from_ref(&b.path));
    let r = s.run_settled(&mut store, &list, &mut |_| {}).expect("sync");
    assert!(
        r.changes.is_empty(),
        "it does not come back: {:?}",
        r.changes
    );
    // Importing the folder again brings it back.
    user.watch(std::slice::from_ref(&docs))
        .expect("watch again");
    let list = user.watch_list().expect("list");
    assert!(list.excluded.is_empty());
    let r = s.run_settled(&mut store, &list, &mut |_| {}).expect("sync");
    assert_eq!(r.counts.added, 1, "{:?}", r.changes);
}

#[test]
fn a_folder_that_comes_back_is_watched_again() {
    let (tmp, docs, _store) = setup();
    let roots = vec![docs.clone()];
    let mut watcher = Watcher::with_delay(Duration::from_millis(200)).expect("watcher");
    assert!(watcher.set_paths(&roots).is_empty());
    assert_eq!(watcher.watching(), std::slice::from_ref(&docs));
    let away = tmp.path().join("unplugged");
    std::fs::rename(&docs, &away).expect("move away");
    let _ = watcher.wait(Duration::from_millis(600));
    watcher.set_paths(&roots);
    assert!(
        !watcher.watching().contains(&docs),
        "a folder that is gone is let go (its parent, if there, is watched for its return)"
    );
    // Changes in the moved folder are not this folder's.
    write(&away.join("elsewhere.md"), "# Elsewhere\n");
    std::fs::rename(&away, &docs).expect("move back");
    watcher.set_paths(&roots);
    assert_eq!(
        watcher.watching(),
        std::slice::from_ref(&docs),
        "and watched again once back"
    );
    let _ = watcher.wait(Duration::from_millis(600));
    write(&docs.join("hr/new.md"), "# New\n\nA new rule.\n");
    match watcher.wait(Duration::from_secs(5)) {
        Wake::Changed(paths) => assert!(paths.iter().any(|p| p.ends_with("new.md")), "{paths:?}"),
        other => panic!("the returned folder's change was not seen: {other:?}"),
    }
}

#[test]
fn reading_the_watched_files_neither_counts_as_a_change_nor_ends_the_wait() {
    let (_tmp, docs, _store) = setup();
    write(&docs.join("hr/leave.md"), "# Leave\n\nTen days.\n");
    let mut watcher = Watcher::with_delay(Duration::from_millis(100)).expect("watcher");
    assert!(watcher.set_paths(std::slice::from_ref(&docs)).is_empty());
    let reader = {
        let docs = docs.clone();
        std::thread::spawn(move || {
            for _ in 0..5 {
                std::thread::sleep(Duration::from_millis(100));
                let _ = std::fs::read(docs.join("hr/leave.md")).expect("read");
                let _ = std::fs::read_dir(docs.join("hr")).expect("list").count();
            }
        })
    };
    let started = Instant::now();
    let wake = watcher.wait(Duration::from_millis(1500));
    reader.join().expect("reader");
    assert_eq!(wake, Wake::Quiet, "reads are not changes");
    assert!(
        started.elapsed() >= Duration::from_millis(1500),
        "a batch of reads must not end the wait early: it ended after {:?}",
        started.elapsed()
    );
}

/// A file whose name is not UTF-8 (GBK, as a Windows zip unpacks it) is stored by its
/// exact bytes: the next pass finds it unchanged (not renamed), its file opens again
/// from the record, and its record and passages still serialise, with the name shown
/// lossily.
#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_is_kept_exactly_and_not_seen_as_renamed() {
    use std::os::unix::ffi::OsStrExt;
    let (_tmp, docs, mut store) = setup();
    let roots = vec![docs.clone()];
    let mut s = syncer();
    // 员工手册.md in GBK.
    let name = std::ffi::OsStr::from_bytes(b"\xd4\xb1\xb9\xa4\xca\xd6\xb2\xe1.md");
    let path = docs.join(name);
    assert!(path.to_str().is_none(), "the name is not UTF-8");
    write(&path, "# 员工手册\n\n第五条 员工每年享有带薪年假十天。\n");
    let first = pass(&mut s, &mut store, &roots);
    assert_eq!(first.counts.added, 1, "{:?}", first.changes);
    let again = pass(&mut s, &mut store, &roots);
    assert!(
        again.changes.is_empty(),
        "nothing changed: {:?}",
        again.changes
    );
    assert_eq!(again.unchanged, 1);

    let docs_now = store.documents().expect("documents");
    assert_eq!(docs_now.len(), 1);
    assert_eq!(docs_now[0].path, path, "the exact path is kept");
    assert!(
        std::fs::read(&docs_now[0].path).is_ok(),
        "the file opens from its record"
    );
    assert_eq!(
        store.document_by_path(&path).expect("lookup").map(|d| d.id),
        Some(docs_now[0].id)
    );
    let json = serde_json::to_string(&docs_now[0]).expect("a record with such a name serialises");
    assert!(
        json.contains("\u{fffd}") || json.contains("\\ufffd"),
        "{json}"
    );
    let hits = evident_core::search::search(
        &store,
        "年假有几天？",
        &evident_core::search::Aliases::builtin(),
        &evident_core::search::SearchOptions::default(),
    )
    .expect("search");
    assert_eq!(
        hits.passages.first().map(|p| p.doc_path.clone()),
        Some(path.clone())
    );
    serde_json::to_string(&hits).expect("results serialise");
}

/// Three GBK names of the same length (工资.md, 福利.md, 考勤.md unpacked from a Windows
/// zip) read alike as text (`����.md`). They are three documents, stay three through two
/// more passes, and once removed in the Library none of them comes back.
#[test]
fn gbk_names_that_read_alike_are_three_documents_and_stay_removed() {
    use std::os::unix::ffi::OsStrExt;
    let (tmp, docs, mut store) = setup();
    let mut user = evident_core::userdata::UserData::open(&tmp.path().join("history.sqlite3"))
        .expect("user data");
    user.watch(std::slice::from_ref(&docs)).expect("watch");
    let names: [(&[u8], &str); 3] = [
        (b"\xb9\xa4\xd7\xca.md", "工资每月十日发放。"),
        (b"\xb8\xa3\xc0\xfb.md", "员工享有补充医疗保险。"),
        (b"\xbf\xbc\xc7\xda.md", "迟到三次计旷工半天。"),
    ];
    let paths: Vec<PathBuf> = names
        .iter()
        .map(|(name, body)| {
            let path = docs.join(std::ffi::OsStr::from_bytes(name));
            write(&path, &format!("# 制度\n\n{body}\n"));
            path
        })
        .collect();
    let shown: std::collections::BTreeSet<String> = paths
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    assert_eq!(shown.len(), 1, "the three names read alike: {shown:?}");

    let mut s = syncer();
    let list = user.watch_list().expect("list");
    let first = s.run_settled(&mut store, &list, &mut |_| {}).expect("sync");
    assert_eq!(first.counts.added, 3, "{:?}", first.changes);
    for _ in 0..2 {
        let again = s.run_settled(&mut store, &list, &mut |_| {}).expect("sync");
        assert!(again.changes.is_empty(), "{:?}", again.changes);
        assert_eq!(again.unchanged, 3);
    }
    let records = store.documents().expect("documents");
    assert_eq!(records.len(), 3);
    for path in &paths {
        let doc = store
            .document_by_path(path)
            .expect("lookup")
            .unwrap_or_else(|| panic!("{path:?} is a document of its own"));
        assert_eq!(&doc.path, path, "kept byte for byte");
        // A citation in a stored answer holds the path as shown: its document id
        // tells the three apart.
        let shown = PathBuf::from(path.to_string_lossy().into_owned());
        let located =
            evident_core::answer::relocate::locate(&store, doc.id, &shown, "", 0, 0, (0, 0))
                .expect("locate")
                .expect("found");
        assert_eq!(located.doc_id, doc.id, "{path:?}");
    }

    // The user removes all three in the Library.
    for path in &paths {
        let doc = store.document_by_path(path).expect("q").expect("doc");
        store.remove_document(doc.id).expect("remove");
        user.exclude(&doc.path).expect("exclude");
    }
    let list = user.watch_list().expect("list");
    assert_eq!(
        list.excluded.len(),
        3,
        "three exact paths: {:?}",
        list.excluded
    );
    for path in &paths {
        assert!(list.excluded.contains(path), "{path:?} excluded as it is");
    }
    for _ in 0..2 {
        let r = s.run_settled(&mut store, &list, &mut |_| {}).expect("sync");
        assert!(r.changes.is_empty(), "none comes back: {:?}", r.changes);
    }
    assert!(store.documents().expect("documents").is_empty());
}
