//! Where Evident keeps its data by default.
//!
//! The CLI and the desktop app must open the same database, so both ask this module.
//! The folder name equals the desktop app's bundle identifier, which is what Tauri uses
//! for its app data directory.

use std::path::PathBuf;

/// Bundle identifier of the desktop app; also the name of the data folder.
pub const APP_IDENTIFIER: &str = "app.evident.desktop";

/// Environment variable that overrides the database path (handy for scripts and tests).
pub const DB_ENV: &str = "EVIDENT_DB";

/// The platform data directory for Evident, e.g. `~/.local/share/app.evident.desktop`.
pub fn data_dir() -> PathBuf {
    dirs::data_dir()
        .unwrap_or_else(|| PathBuf::from("."))
        .join(APP_IDENTIFIER)
}

/// The database path: `$EVIDENT_DB` if set, else `evident.sqlite3` in [`data_dir`].
pub fn default_db_path() -> PathBuf {
    match std::env::var_os(DB_ENV) {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => data_dir().join("evident.sqlite3"),
    }
}
