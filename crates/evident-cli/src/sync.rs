//! `evident sync` and `evident watch`: the index kept equal to the remembered folders,
//! once or for as long as the command runs.
//!
//! Both print one line per change on stdout (or one JSON object per line with
//! `--json`), so a script can follow them; progress and notes go to stderr.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use evident_core::store::Store;
use evident_core::sync::{SETTLE, SyncReport, Syncer};
use evident_core::userdata::{UserData, WatchList};
use evident_core::watch::{Wake, Watcher};

use evident_cli::flags::{ChunkArgs, EmbedArgs};
use evident_cli::{import_options, open, semantic};

use crate::output;

/// How often a watch compares everything even without a notification: a folder that
/// comes back (a drive plugged in) sends none, and notifications can be lost.
const FULL_PASS_EVERY: Duration = Duration::from_secs(300);
/// How often while a watched folder is not there (an unplugged drive).
const LOOK_FOR_MISSING_EVERY: Duration = Duration::from_secs(10);

/// Remembers `paths` as watched (after taking an older index's files as watched, the
/// first time).
pub fn remember(db: &Path, store: &Store, paths: &[PathBuf]) -> anyhow::Result<()> {
    let mut data = UserData::open_for(db)?;
    watched(&mut data, store)?;
    data.watch(paths)?;
    Ok(())
}

fn watched(data: &mut UserData, store: &Store) -> anyhow::Result<WatchList> {
    data.watched_or_seed(|| store.document_paths())?;
    Ok(data.watch_list()?)
}

/// A syncer with the import options of the flags, the index and the user's records.
fn open_all(
    db: &Path,
    chunking: &ChunkArgs,
    embed: &EmbedArgs,
) -> anyhow::Result<(Syncer, Store, UserData)> {
    let mut options = import_options(chunking)?;
    options.semantic = semantic::semantic(db, embed)?;
    Ok((Syncer::new(options), open(db)?, UserData::open_for(db)?))
}

/// `evident sync`.
pub fn sync_cmd(
    db: &Path,
    json: bool,
    chunking: &ChunkArgs,
    embed: &EmbedArgs,
) -> anyhow::Result<ExitCode> {
    let (mut syncer, mut store, mut data) = open_all(db, chunking, embed)?;
    let roots = watched(&mut data, &store)?;
    if roots.roots.is_empty() {
        eprintln!(
            "nothing is watched yet: `evident import PATH` or `evident watch PATH` remembers folders"
        );
    }
    let mut progress = output::Progress::new(json);
    let report = syncer.run_settled(&mut store, &roots, &mut |e| progress.event(e))?;
    progress.finish();
    if json {
        writeln!(
            std::io::stdout(),
            "{}",
            serde_json::to_string_pretty(&report)?
        )?;
    } else {
        print_changes(&report, false)?;
        eprintln!("{}", summary_line(&report));
    }
    Ok(if report.counts.failed > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

/// `evident watch [PATH...]`: runs until interrupted. Every document is written in a
/// transaction of its own, so an interrupt at any moment leaves a consistent index.
pub fn watch_cmd(
    db: &Path,
    paths: &[PathBuf],
    json: bool,
    chunking: &ChunkArgs,
    embed: &EmbedArgs,
) -> anyhow::Result<ExitCode> {
    let (mut syncer, mut store, mut data) = open_all(db, chunking, embed)?;
    watched(&mut data, &store)?;
    if let Some(missing) = paths.iter().find(|p| !p.exists()) {
        anyhow::bail!("{}: no such file or folder", missing.display());
    }
    data.watch(paths)?;
    let mut roots = data.watch_list()?;
    if roots.roots.is_empty() {
        anyhow::bail!("nothing to watch: give a folder, e.g. `evident watch ~/Policies`");
    }
    let mut watcher = Watcher::new()?;
    for (path, reason) in watcher.set_paths(&roots.roots) {
        eprintln!(
            "note: {}: {}",
            path.display(),
            reason.text(evident_cli::locale::lang())
        );
    }
    // (files still settling, watched folders not there)
    let mut pass = |store: &mut Store, roots: &WatchList| -> anyhow::Result<(bool, bool)> {
        let report = syncer.run(store, roots, &mut |_| {})?;
        print_changes(&report, json)?;
        Ok((!report.pending.is_empty(), !report.unreachable.is_empty()))
    };
    let (mut settling, mut missing) = pass(&mut store, &roots)?;
    eprintln!(
        "watching {} (Ctrl-C to stop)",
        roots
            .roots
            .iter()
            .map(|r| r.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    loop {
        // Files still being written are looked at again as soon as they may have settled.
        let wait = if settling {
            SETTLE
        } else if missing {
            LOOK_FOR_MISSING_EVERY
        } else {
            FULL_PASS_EVERY
        };
        match watcher.wait(wait) {
            Wake::Changed(_) | Wake::Quiet => {
                // Another process (the app, `evident import`) may have added folders.
                roots = data.watch_list()?;
                (settling, missing) = pass(&mut store, &roots)?;
                // Folders that came back are watched again, gone ones let go.
                for (path, reason) in watcher.set_paths(&roots.roots) {
                    eprintln!(
                        "note: {}: {}",
                        path.display(),
                        reason.text(evident_cli::locale::lang())
                    );
                }
            }
            Wake::Closed => anyhow::bail!("the file watcher stopped"),
        }
    }
}

/// `evident watch --list`.
pub fn list_cmd(db: &Path) -> anyhow::Result<ExitCode> {
    let store = open(db)?;
    let mut data = UserData::open_for(db)?;
    let mut out = std::io::stdout().lock();
    for path in watched(&mut data, &store)?.roots {
        let note = if path.exists() { "" } else { "  (not there)" };
        writeln!(out, "{}{note}", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `evident watch --forget PATH`.
pub fn forget_cmd(db: &Path, path: &Path) -> anyhow::Result<ExitCode> {
    let mut data = UserData::open_for(db)?;
    let path = path.canonicalize().unwrap_or_else(|_| path.to_owned());
    if !data.unwatch(&path)? {
        anyhow::bail!(
            "{} is not watched (see `evident watch --list`)",
            path.display()
        );
    }
    writeln!(std::io::stdout(), "forgot {}", path.display())?;
    Ok(ExitCode::SUCCESS)
}

fn print_changes(report: &SyncReport, json: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    for change in &report.changes {
        if json {
            writeln!(out, "{}", serde_json::to_string(change)?)?;
        } else {
            writeln!(out, "{}", change.line())?;
        }
    }
    for root in &report.unreachable {
        if json {
            writeln!(
                out,
                "{}",
                serde_json::json!({ "change": "unreachable", "path": root })
            )?;
        } else {
            writeln!(out, "missing  {} (its documents are kept)", root.display())?;
        }
    }
    out.flush()?;
    Ok(())
}

fn summary_line(report: &SyncReport) -> String {
    let c = &report.counts;
    let mut parts: Vec<String> = [
        (c.added, "added"),
        (c.updated, "updated"),
        (c.renamed, "renamed"),
        (c.removed, "removed"),
        (c.duplicates, "duplicates"),
        (c.failed, "failed"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    parts.push(format!("{} unchanged", report.unchanged));
    format!("sync: {} ({} ms)", parts.join(" · "), report.elapsed_ms)
}
