//! Evident's desktop shell: Tauri wiring around `evident-core`.
//!
//! This crate holds no logic of Evident's own: [`commands`] check what the window
//! sends, call the core on a blocking thread and shape the reply; [`state`] lends
//! connections to the index and holds the user's records; [`embedding`], [`reranking`],
//! [`answering`] and [`syncing`] run the background work and its settings; [`pages`]
//! has PDF pages drawn for the viewer; [`webview`] tunes WebKit; [`error`] is the
//! `{code, message}` the UI receives; and [`bindings`] renders the TypeScript
//! declarations of every type crossing the boundary (committed as `ui/src/bindings.ts`,
//! checked by a test).

pub mod answering;
pub mod bindings;
pub mod commands;
pub mod embedding;
pub mod error;
pub mod pages;
pub mod reranking;
pub mod state;
pub mod syncing;
pub mod webview;

use state::AppState;
use tauri::Manager;

/// Starts the app on the same database as the CLI (`$EVIDENT_DB`, else the platform
/// data directory).
pub fn run() {
    let db = evident_core::paths::default_db_path();
    // The jieba dictionary takes ~150 ms to load; load it while the window opens so
    // the first question does not wait for it.
    std::thread::spawn(evident_text::segment::warm_up);
    let result = tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_opener::init())
        .manage(AppState::new(db))
        .setup(|app| {
            if let Some(window) = app.get_webview_window("main") {
                webview::tune(&window);
            }
            embedding::start(app.handle());
            reranking::start(app.handle());
            syncing::start(app.handle());
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            commands::app_info,
            commands::ask,
            commands::check_text,
            commands::documents,
            commands::remove_document,
            commands::import_paths,
            commands::reimport_documents,
            commands::cancel_import,
            commands::rebuild_index,
            commands::document_view,
            commands::locate_source,
            pages::pdf_page,
            commands::open_source,
            commands::export_answer,
            commands::save_export,
            commands::history,
            commands::history_answer,
            commands::set_feedback,
            commands::get_aliases,
            commands::set_aliases,
            commands::embedding_status,
            commands::test_embedding_server,
            commands::detect_local_server,
            commands::set_embedding_settings,
            commands::clear_embedding_settings,
            commands::set_builtin_model,
            commands::rerank_status,
            commands::test_rerank_server,
            commands::set_rerank_settings,
            commands::clear_rerank_settings,
            commands::answer_settings,
            commands::test_answer_model,
            commands::set_answer_settings,
            commands::stop_answer,
            commands::library_sync,
            commands::isolation,
        ])
        .run(tauri::generate_context!());
    if let Err(e) = result {
        eprintln!("Evident could not start: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    /// The command names in `text`'s `generate_handler![…]` (`commands::ask`,
    /// `pages::pdf_page`: the last part of each path).
    fn commands_in(text: &str) -> std::collections::BTreeSet<String> {
        text.split("generate_handler![")
            .nth(1)
            .and_then(|rest| rest.split(']').next())
            .unwrap_or("")
            .split(',')
            .filter_map(|path| path.trim().rsplit("::").next())
            .map(str::to_owned)
            .filter(|name| !name.is_empty())
            .collect()
    }

    #[test]
    fn every_command_is_declared_for_the_acl_and_granted() {
        let handler = commands_in(
            include_str!("lib.rs")
                .split("#[cfg(test)]")
                .next()
                .unwrap_or(""),
        );
        let build = include_str!("../build.rs");
        let declared: std::collections::BTreeSet<String> = build
            .split("const COMMANDS")
            .nth(1)
            .unwrap_or("")
            .split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect();
        assert_eq!(
            handler, declared,
            "build.rs COMMANDS must list the invoke handler's commands"
        );
        let capability = include_str!("../capabilities/default.json");
        for name in &handler {
            let grant = format!("\"allow-{}\"", name.replace('_', "-"));
            assert!(
                capability.contains(&grant),
                "capabilities/default.json does not grant {name}"
            );
        }
    }
}
