//! The commands that change or show the library: `import`, `docs`, `remove`,
//! `rebuild`, `embed`, `chunks` and `stats`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use evident_cli::flags::EmbedArgs;
use evident_cli::{import_options, open, semantic};

use crate::output;
use evident_core::import::{self, Importer};

use crate::args::{ImportArgs, RebuildArgs};
use crate::sync;

pub fn import_cmd(db: &Path, a: &ImportArgs) -> anyhow::Result<ExitCode> {
    let mut options = import_options(&a.chunking)?;
    options.semantic = semantic::semantic(db, &a.embed)?;
    let mut store = open(db)?;
    let paths: Vec<PathBuf> = a.paths.clone();
    let mut progress = output::Progress::new(a.json);
    if !a.no_remember {
        // Taken before the import, so an older index's own files are seeded first.
        sync::remember(db, &store, &paths)?;
    }
    let summary = Importer::new(options).run(&mut store, &paths, &mut |e| progress.event(e))?;
    progress.finish();
    output::import_summary(&summary, a.json)?;
    Ok(exit_for(&summary))
}

/// Exit status 2 tells scripts that some files failed while the rest was imported.
fn exit_for(summary: &import::ImportSummary) -> ExitCode {
    if summary.count(|o| o.label() == "failed") > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// `evident docs`: the imported documents.
pub fn docs_cmd(db: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let store = open(db)?;
    output::docs(&store.documents()?, json)?;
    Ok(ExitCode::SUCCESS)
}

/// `evident remove`: a document and everything derived from it.
pub fn remove_cmd(db: &Path, document: &str) -> anyhow::Result<ExitCode> {
    let mut store = open(db)?;
    let doc = store.resolve(document)?;
    store.remove_document(doc.id)?;
    // Removed means removed: a sync of its folder does not bring it back.
    evident_core::userdata::UserData::open_for(db)?.exclude(&doc.path)?;
    writeln!(
        std::io::stdout(),
        "removed {} ({} chunks)",
        doc.path.display(),
        doc.chunks
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `evident rebuild`: the database made again from the recorded source files.
pub fn rebuild_cmd(db: &Path, a: &RebuildArgs) -> anyhow::Result<ExitCode> {
    let mut options = import_options(&a.import)?;
    options.semantic = semantic::semantic(db, &a.embed)?;
    let mut progress = output::Progress::new(a.json);
    let report = import::rebuild(db, &options, &mut |e| progress.event(e))?;
    progress.finish();
    output::rebuild(db, &report, a.json)?;
    if let (false, Some(e)) = (a.json, &report.summary.embedding) {
        output::embed_outcome(e)?;
    }
    Ok(exit_for(&report.summary))
}

/// `evident embed`: vectors for the passages that have none of the configured model.
pub fn embed_cmd(db: &Path, json: bool, embed: &EmbedArgs) -> anyhow::Result<ExitCode> {
    let Some(server) = semantic::semantic(db, embed)? else {
        anyhow::bail!(
            "no embeddings server is set up: pass --embed-url and --embed-model, or save them with `evident config`"
        );
    };
    let mut store = open(db)?;
    let mut progress = output::Progress::new(json);
    let report = evident_core::embed::embed_missing(&mut store, server.0.as_ref(), &mut |p| {
        progress.embedding(p);
        true
    });
    progress.finish();
    output::embed_report(&report?, json)?;
    Ok(ExitCode::SUCCESS)
}

/// `evident chunks`: how a document was split.
pub fn chunks_cmd(db: &Path, document: &str, json: bool) -> anyhow::Result<ExitCode> {
    let store = open(db)?;
    let doc = store.resolve(document)?;
    output::chunks(&doc, &store.chunks_of(doc.id)?, json)?;
    Ok(ExitCode::SUCCESS)
}

/// `evident stats`: counts, sizes and versions of the database.
pub fn stats_cmd(db: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let store = open(db)?;
    output::stats(&store.stats()?, json)?;
    Ok(ExitCode::SUCCESS)
}
