//! Tauri's build step: embeds the app configuration and capabilities, and the web UI
//! from `ui/dist`.
//!
//! The app's own commands are declared here too, so Tauri generates an `allow-…`
//! permission for each and the web view may call only those its capability grants
//! (`capabilities/default.json`): a command added to `lib.rs` but not granted there is
//! refused at run time. That folder is built by `scripts/ui.sh` (npm); without it Tauri's
//! macro fails with a panic that does not say what to run, so say it here first.
fn main() {
    let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/dist/index.html");
    println!("cargo::rerun-if-changed={}", dist.display());
    if !dist.exists() {
        eprintln!(
            "error: the web UI is not built (ui/dist is missing). Run `scripts/ui.sh` first \
             (or `scripts/setup.sh`, which installs everything), then build the app again. \
             `cargo build` at the workspace root builds only the core and the CLI."
        );
        std::process::exit(1);
    }
    let manifest = tauri_build::AppManifest::new().commands(COMMANDS);
    if let Err(e) = tauri_build::try_build(tauri_build::Attributes::new().app_manifest(manifest)) {
        eprintln!("error: Tauri's build step failed: {e:#}");
        std::process::exit(1);
    }
}

/// Every command of `lib.rs`'s invoke handler.
const COMMANDS: &[&str] = &[
    "app_info",
    "isolation",
    "ask",
    "check_text",
    "documents",
    "remove_document",
    "import_paths",
    "reimport_documents",
    "cancel_import",
    "rebuild_index",
    "document_view",
    "locate_source",
    "pdf_page",
    "open_source",
    "export_answer",
    "save_export",
    "history",
    "history_answer",
    "set_feedback",
    "get_aliases",
    "set_aliases",
    "embedding_status",
    "test_embedding_server",
    "detect_local_server",
    "set_embedding_settings",
    "clear_embedding_settings",
    "set_builtin_model",
    "rerank_status",
    "test_rerank_server",
    "set_rerank_settings",
    "clear_rerank_settings",
    "answer_settings",
    "test_answer_model",
    "set_answer_settings",
    "stop_answer",
    "library_sync",
];
